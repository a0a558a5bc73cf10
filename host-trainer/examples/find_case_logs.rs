//! Finds the corner-case hands of `host-trainer/tests/data/logs/` among bot-played
//! engine games and writes each as a one-hand Tenhou JSON and mjai log there:
//! `cargo run -p host-trainer --example find_case_logs`. Prints what it found (preset,
//! game seed, hand): the table of the README beside the logs, which the test
//! `logs_cases::case_logs_are_what_their_games_write` replays.

use std::path::PathBuf;

use engine::Rules;
use host_trainer::logs::{export, mjai, tenhou, CallKind, GameLog, Kyoku, Step};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/logs")
        .join(name)
}

fn count(k: &Kyoku, f: impl Fn(&Step) -> bool) -> usize {
    k.steps.iter().filter(|s| f(s)).count()
}

fn play(rules: Rules, seed: u64) -> GameLog {
    export::play_bots_game(rules, seed).expect("the game plays and exports")
}

fn main() {
    type Pick = fn(&str, &Kyoku) -> bool;
    let picks: [(&str, Pick); 7] = [
        ("double-ron", |_, k| {
            k.outcome.as_ref().unwrap().wins.len() >= 2
        }),
        ("nine-terminals", |_, k| {
            k.outcome.as_ref().unwrap().draw.as_deref() == Some("NineTerminals")
        }),
        ("abortive", |_, k| {
            k.outcome.as_ref().unwrap().draw.as_deref() == Some("FourKans")
        }),
        ("chankan", |_, k| {
            k.steps
                .windows(2)
                .any(|w| matches!(w, [Step::AddedKan { .. }, Step::Ron { .. }]))
        }),
        ("sanma-kita-riichi-win", |p, k| {
            p.contains("sanma")
                && count(k, |s| matches!(s, Step::Kita { .. })) >= 2
                && count(k, |s| matches!(s, Step::Discard { riichi: true, .. })) >= 1
                && !k.ura.is_empty()
        }),
        ("4p-riichi-kan-tsumo", |p, k| {
            !p.contains("sanma")
                && count(k, |s| matches!(s, Step::Discard { riichi: true, .. })) >= 1
                && count(k, |s| matches!(s, Step::ClosedKan { .. })) >= 1
                && matches!(k.steps.last(), Some(Step::Tsumo { .. }))
        }),
        ("4p-open-kan-win", |p, k| {
            !p.contains("sanma")
                && count(k, |s| {
                    matches!(
                        s,
                        Step::Call {
                            kind: CallKind::OpenKan,
                            ..
                        }
                    )
                }) >= 1
                && k.outcome.as_ref().unwrap().wins.len() == 1
        }),
    ];
    let mut found = std::collections::BTreeMap::new();
    for preset in ["tenhou-sanma-east", "tenhou-4p-east"] {
        let rules = Rules::preset(preset).unwrap();
        for seed in 0..3000 {
            let log = play(rules, seed);
            for (i, k) in log.kyokus.iter().enumerate() {
                for (name, pick) in &picks {
                    if found.contains_key(name) || !pick(preset, k) {
                        continue;
                    }
                    let one = GameLog {
                        names: log.names.clone(),
                        rules: log.rules,
                        kyokus: vec![k.clone()],
                    };
                    let json = serde_json::to_string_pretty(&tenhou::write(&one)).unwrap();
                    std::fs::write(data(&format!("{name}.tenhou.json")), json + "\n").unwrap();
                    std::fs::write(data(&format!("{name}.mjson")), mjai::write(&one)).unwrap();
                    found.insert(*name, (preset, seed, i));
                }
            }
        }
    }
    eprintln!("{found:?}");
}
