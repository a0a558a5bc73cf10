//! The mjai bot inside an engine nobody here wrote: PyPI `mjai` 0.2.1, whose
//! `mjai.mlibriichi.arena.Match` is Mortal's libriichi arena (mjai.app's simulator). It
//! deals Tenhou four-player hanchan, shows each seat its view and aborts the hanchan on
//! any illegal action, so every answer of `host-trainer mjai` is checked by someone
//! else's rules code. `scripts/mjai-match` drives it (see its docs); the engine lives in
//! the venv `.venv-mjai` that `scripts/setup` makes (`--for mjai`, part of `--for test`).
//!
//! Fast tier: 8 hanchan with the efficiency decider against mjai's rule-based bot and one
//! with the search; `MAHJONG_FULL_TESTS=1` (the full tier): 500 and 50, the bar.
//! Each asserts: every hanchan finished, none aborted, no protocol failure, and the bot
//! wrote no warning (a warning is a decider that failed and fell back).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host-trainer sits in the repository")
        .to_path_buf()
}

fn full() -> bool {
    std::env::var_os("MAHJONG_FULL_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs `scripts/mjai-match` and returns its JSON summary.
fn play(seats: &str, hanchan: u32, seed: u32, extra: &[&str]) -> Value {
    let root = repo_root();
    let python = root.join(".venv-mjai/bin/python");
    assert!(
        python.exists(),
        "{} is missing: `scripts/setup --for mjai` installs the external mjai engine",
        python.display()
    );
    let summary_path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("mjai-match-{seed}.json"));
    let _ = std::fs::remove_file(&summary_path);
    let out = Command::new(&python)
        .arg(root.join("scripts/mjai-match"))
        .args(["--bot", env!("CARGO_BIN_EXE_host-trainer")])
        .args(["--seats", seats])
        .args(["--hanchan", &hanchan.to_string()])
        .args(["--seed", &seed.to_string()])
        .arg("--json")
        .arg(&summary_path)
        .args(extra)
        .output()
        .expect("run scripts/mjai-match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scripts/mjai-match --seats {seats} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let text = std::fs::read_to_string(&summary_path).expect("the summary");
    serde_json::from_str(&text).expect("the summary is JSON")
}

fn check(summary: &Value, hanchan: u32, ours: &[&str]) {
    assert_eq!(summary["hanchan"], hanchan, "{summary:#}");
    assert_eq!(summary["aborted"], 0, "{summary:#}");
    assert_eq!(summary["protocol_failures"], 0, "{summary:#}");
    assert_eq!(
        summary["bot_stderr_lines"], 0,
        "the bot warned: {summary:#}"
    );
    for kind in ours {
        let rank = summary["average_rank"][kind]
            .as_f64()
            .unwrap_or_else(|| panic!("no rank for {kind}: {summary:#}"));
        assert!((1.0..=4.0).contains(&rank), "{summary:#}");
    }
    // Every hanchan's ranks are a permutation of 1..=4: the sum over seats is 10 each.
    let sum: f64 = summary["rank_sum"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_f64().unwrap())
        .sum();
    assert_eq!(sum, 10.0 * f64::from(hanchan), "{summary:#}");
}

#[test]
fn efficiency_bot_plays_whole_hanchan_in_libriichi() {
    let hanchan = if full() { 500 } else { 8 };
    let summary = play("eff,rulebase,rulebase,rulebase", hanchan, 1, &[]);
    check(&summary, hanchan, &["eff"]);
}

#[test]
fn search_bot_plays_whole_hanchan_in_libriichi() {
    let hanchan = if full() { 50 } else { 1 };
    let summary = play(
        "search,eff,rulebase,rulebase",
        hanchan,
        10_001,
        &["--search-rollouts", "16"],
    );
    check(&summary, hanchan, &["search", "eff"]);
}
