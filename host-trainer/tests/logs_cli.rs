//! `replay-log`, `convert-log` and `review` as a user runs them.

mod cli_common;

use cli_common::run_in;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logs/");

#[test]
fn replay_log_accepts_every_committed_log() {
    let files: Vec<String> = std::fs::read_dir(DATA)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.display().to_string())
        .filter(|p| !p.ends_with(".md"))
        .collect();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let (out, err, ok) = run_in("replay-log", &args, "", None);
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.contains(": ok,")).count(),
        files.len(),
        "{out}"
    );
}

#[test]
fn replay_log_names_the_first_mismatch_and_fails() {
    let dir = std::env::temp_dir().join(format!("logs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(format!("{DATA}chankan.tenhou.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // One point more for seat 0 in the result's deltas.
    let d = v["log"][0][16][1][0].as_i64().unwrap();
    v["log"][0][16][1][0] = serde_json::json!(d + 100);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let (_, err, ok) = run_in("replay-log", &[bad.to_str().unwrap()], "", None);
    assert!(!ok);
    assert!(
        err.contains("bad.json") && err.contains("kyoku 0") && err.contains("expected"),
        "{err}"
    );
    std::fs::write(&bad, &text[..100]).unwrap();
    let (_, err, ok) = run_in("replay-log", &[bad.to_str().unwrap()], "", None);
    assert!(
        !ok && err.contains("bad.json") && !err.contains("panicked"),
        "{err}"
    );
    let (_, err, ok) = run_in(
        "replay-log",
        &[bad.to_str().unwrap(), "--rules", "sanma"],
        "",
        None,
    );
    assert!(!ok && err.contains("riichi presets"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_log_round_trips_between_the_formats() {
    let src = format!("{DATA}sanma-kita-riichi-win.tenhou.json");
    let (mjai, err, ok) = run_in(
        "convert-log",
        &[&src, "--to", "mjai", "--dialect", "kita"],
        "",
        None,
    );
    assert!(ok, "{err}");
    assert!(
        mjai.contains("\"type\":\"kita\"") && !mjai.contains("nukidora"),
        "{mjai}"
    );
    let (tenhou, err, ok) = run_in(
        "convert-log",
        &["/dev/stdin", "--to", "tenhou", "--format", "mjai"],
        &mjai,
        None,
    );
    assert!(ok, "{err}");
    let a: serde_json::Value = serde_json::from_str(&tenhou).unwrap();
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&src).unwrap()).unwrap();
    assert_eq!(a["log"], b["log"]);
}

#[test]
fn review_summarises_one_seat() {
    let src = format!("{DATA}double-ron.tenhou.json");
    let (out, err, ok) = run_in("review", &[&src, "--player", "bot1"], "", None);
    assert!(ok, "{err}");
    assert!(
        out.contains("seat 1 (bot1)") && out.contains("decisions reviewed"),
        "{out}"
    );
    let (json, err, ok) = run_in("review", &[&src, "--seat", "0", "--json"], "", None);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let n = v["decisions"].as_u64().unwrap();
    assert!(n > 0 && v["agreements"].as_u64().unwrap() <= n);
    // The rollout search ranks the same decisions (worlds dealt from the seat's view).
    let (json, err, ok) = run_in(
        "review",
        &[&src, "--seat", "0", "--json", "--search", "--rollouts", "4"],
        "",
        None,
    );
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(s["ranking"], "search");
    assert_eq!(s["decisions"].as_u64().unwrap(), n);
    // --shipped-model picks the shipped model that fits the log's rules (tenhou-sanma).
    let (json, err, ok) = run_in(
        "review",
        &[&src, "--seat", "0", "--json", "--shipped-model"],
        "",
        None,
    );
    assert!(ok, "{err}");
    let m: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(m["ranking"], "model");
    assert_eq!(m["decisions"].as_u64().unwrap(), n);
    let (_, err, ok) = run_in("review", &[&src, "--shipped-model", "--search"], "", None);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    // The default shipped model (encoding v1) does not fit a riichi log: a clear error.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/default.onnx");
    let (_, err, ok) = run_in("review", &[&src, "--model", shipped], "", None);
    assert!(!ok && err.contains("encoding version 1"), "{err}");
    let (_, err, ok) = run_in("review", &[&src, "--search", "--rollouts", "0"], "", None);
    assert!(!ok && err.contains("--rollouts"), "{err}");
    let (_, err, ok) = run_in("review", &[&src, "--seat", "3"], "", None);
    assert!(!ok && err.contains("3 players"), "{err}");
}

#[test]
fn review_html_writes_one_self_contained_page() {
    let src = format!("{DATA}double-ron.tenhou.json");
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review-cli.html");
    let _ = std::fs::remove_file(&out);
    let (_, err, ok) = run_in(
        "review",
        &[&src, "--seat", "1", "--html", out.to_str().unwrap()],
        "",
        None,
    );
    assert!(ok, "{err}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.starts_with("<!doctype html>") && page.contains("showReview("),
        "{}",
        &page[..200]
    );
    assert!(
        page.contains("\"seat\":1") && !page.contains("src=\"http"),
        "one file, no network"
    );
    // --html is one page: one log, and not with --json.
    let (_, err, ok) = run_in(
        "review",
        &[&src, &src, "--html", out.to_str().unwrap()],
        "",
        None,
    );
    assert!(!ok && err.contains("one log"), "{err}");
    let (_, err, ok) = run_in(
        "review",
        &[&src, "--json", "--html", out.to_str().unwrap()],
        "",
        None,
    );
    assert!(!ok && err.contains("--json"), "{err}");
}
