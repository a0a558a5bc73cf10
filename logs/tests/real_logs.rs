//! The real-log corpus (`tests/data/real-logs/`, games people played on Tenhou and Mahjong
//! Soul, from other projects' public repositories; provenance per file): every log replays
//! exactly, every file has its provenance line, and the corpus holds a real log for each
//! class of failure this reader once had (issue 32: call letters in the middle and last
//! places, three-player calls across the empty fourth seat, double ron, nine terminals,
//! exhaustive draws, red fives inside calls, thirteen orphans robbing a closed kan under
//! Mahjong Soul's rules, a ron on another player's kita).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mahjong_logs::{expand, read_file, read_text, replay, CallKind, GameLog, Step};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/real-logs")
}

/// The call strings of a Tenhou JSON log's draw and discard lists.
fn call_strings(path: &Path) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&read_text(path).unwrap()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in v["log"].as_array().into_iter().flatten() {
        for list in k.as_array().into_iter().flatten().skip(4) {
            for x in list.as_array().into_iter().flatten() {
                if let Some(s) = x.as_str() {
                    out.push(s.to_string());
                }
            }
        }
    }
    out
}

/// The classes a log shows, by name.
fn classes(path: &Path, log: &GameLog) -> Vec<&'static str> {
    let mut c = Vec::new();
    let json = path.extension().is_some_and(|e| e == "json");
    for s in call_strings(path) {
        let Some(at) = s.find(|ch: char| ch.is_ascii_alphabetic()) else {
            continue;
        };
        let letter = &s[at..=at];
        if matches!(letter, "p" | "m") && at > 0 {
            // `p424242` first (kamicha), `42p4242` middle, `4242p42` last; open kans
            // `42m424242` middle, `424242m42` last.
            c.push(if at + 3 == s.len() {
                "call letter in the last place"
            } else {
                "call letter in the middle place"
            });
            if log.rules.players == 3 && at == 2 {
                c.push("three-player call across the empty fourth seat");
            }
        }
        if ["51", "52", "53"].iter().any(|r| s.contains(r)) {
            c.push("red five inside a call string");
        }
    }
    for k in &log.kyokus {
        let Some(o) = &k.outcome else { continue };
        if o.wins.len() >= 2 {
            c.push("double ron");
        }
        match o.draw.as_deref() {
            Some("NineTerminals") => c.push("nine terminals"),
            Some("Exhaustive") if log.rules.players == 4 => c.push("four-player exhaustive draw"),
            _ => {}
        }
        let robbed_closed_kan = k.steps.windows(2).any(|w| {
            matches!((&w[0], &w[1]), (Step::ClosedKan { seat, .. }, Step::Ron { from, .. }) if seat == from)
        });
        if robbed_closed_kan {
            c.push("thirteen orphans robs a closed kan (Mahjong Soul)");
        }
        let ron_on_kita = k.steps.windows(2).any(|w| {
            matches!((&w[0], &w[1]), (Step::Kita { seat }, Step::Ron { from, .. }) if seat == from)
        });
        if ron_on_kita {
            c.push("ron on a kita");
        }
        if k.steps.iter().any(|s| {
            matches!(
                s,
                Step::Call {
                    kind: CallKind::Chi,
                    ..
                }
            )
        }) && !json
        {
            c.push("mjlog chi");
        }
    }
    if log.rules.riichi.is_some_and(|r| r.kokushi_robs_closed_kan) {
        c.push("Mahjong Soul rules from rule.disp");
    }
    c.push(if log.rules.players == 3 {
        "three-player"
    } else {
        "four-player"
    });
    c.push(if mahjong_logs::is_hanchan(&log.rules) {
        "hanchan"
    } else {
        "east"
    });
    c
}

#[test]
fn every_real_log_replays_exactly_and_every_failure_class_is_covered() {
    let dir = corpus();
    let files = expand(std::slice::from_ref(&dir)).unwrap();
    assert!(files.len() >= 1_110, "{} logs", files.len());
    let provenance = std::fs::read_to_string(dir.join("PROVENANCE.tsv")).unwrap();
    let listed: Vec<&str> = provenance
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(listed.len(), files.len(), "one provenance line per file");
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut hands, mut decisions) = (0, 0);
    for f in &files {
        let rel = f
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let line = provenance
            .lines()
            .find(|l| l.split('\t').next() == Some(rel.as_str()));
        let fields: Vec<&str> = line.map(|l| l.split('\t').collect()).unwrap_or_default();
        assert!(
            fields.len() == 6 && fields[3].len() == 40 && !fields[4].is_empty(),
            "{rel}: no provenance (repository, path, commit, licence)"
        );
        let outcome = read_file(f, None, None)
            .map_err(|e| format!("{e:#}"))
            .and_then(|log| {
                replay::replay_log(&log)
                    .map(|s| (log, s))
                    .map_err(|m| m.to_string())
            });
        match outcome {
            Ok((log, sum)) => {
                hands += sum.kyokus;
                decisions += sum.decisions;
                for c in classes(f, &log) {
                    *seen.entry(c).or_default() += 1;
                }
            }
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    println!(
        "{} logs, {hands} hands, {decisions} decisions; classes: {seen:#?}",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} do not replay:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for class in [
        "call letter in the middle place",
        "call letter in the last place",
        "three-player call across the empty fourth seat",
        "red five inside a call string",
        "double ron",
        "nine terminals",
        "four-player exhaustive draw",
        "thirteen orphans robs a closed kan (Mahjong Soul)",
        "Mahjong Soul rules from rule.disp",
        "ron on a kita",
        "mjlog chi",
        "three-player",
        "four-player",
        "hanchan",
        "east",
    ] {
        assert!(
            seen.get(class).is_some_and(|&n| n > 0),
            "no real log shows: {class}"
        );
    }
    assert!(
        hands >= 10_800 && decisions > 500_000,
        "{hands} hands, {decisions} decisions"
    );
}

/// The Mahjong Soul log in which thirteen orphans robs a closed kan is illegal under
/// Tenhou's rules (which forbid it) and replays under Mahjong Soul's, chosen from its
/// `rule.disp` (a Mahjong Soul room).
#[test]
fn the_kokushi_closed_kan_rob_needs_mahjong_soul_rules() {
    let path = corpus().join("hidacow__mjai-reviewer3p/kokushi_ankan.json");
    let log = read_file(&path, None, None).unwrap();
    assert_eq!(log.rules, engine::Rules::majsoul_sanma());
    replay::replay_log(&log).unwrap();
    let tenhou = read_file(&path, None, Some(engine::Rules::tenhou_sanma())).unwrap();
    let err = replay::replay_log(&tenhou).unwrap_err().to_string();
    assert!(err.contains("ron is illegal"), "{err}");
}
