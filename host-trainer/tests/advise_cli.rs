//! Runs `host-trainer advise` as a process: efficiency-only, with a model, JSON on
//! stdin, and bad input.

mod cli_common;

use std::path::PathBuf;

use inference::onnx_export::export;
use inference::{ModelConfig, Sidecar, Weights};

fn run(args: &[&str], stdin: &str) -> (String, String, bool) {
    // A scratch working directory: the shipped model is compiled in, not looked up.
    cli_common::run_in("advise", args, stdin, Some(env!("CARGO_TARGET_TMPDIR")))
}

/// A small random model for `rules`, in a file of its own (tests run in parallel).
fn model(rules: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("advise_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("m-{rules}-{n}.onnx"));
    let cfg = ModelConfig {
        layers: 1,
        d_model: 16,
        heads: 2,
        ff: 32,
        tokens: engine::tile::TileSet::FourPlayer,
    };
    let w = Weights::random(cfg, 5).unwrap();
    export(
        &w,
        &Sidecar::new(cfg, rules, "cli-test", 3, "advise cli test"),
        &path,
    )
    .unwrap();
    path
}

#[test]
fn efficiency_only_table() {
    // Four-player: the shipped sanma model does not fit, so the default is efficiency-only.
    let (out, err, ok) = run(
        &["--rules", "four-player", "--hand", "123m456p789s1122z3z"],
        "",
    );
    assert!(ok, "{err}");
    assert!(err.contains("efficiency evaluator only"), "{err}");
    assert!(out.contains("123m456p789s11223z"), "{out}");
    assert!(out.contains('🀇'), "{out}");
    let first = out
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap();
    assert!(
        first.contains("discard") && first.contains("3z") && first.contains("12z (2)"),
        "{out}"
    );
}

#[test]
fn model_json_output() {
    let m = model("four-player");
    let (out, err, ok) = run(
        &[
            "--hand",
            "23m456p789s11z",
            "--melds",
            "pon:5z",
            "--discards",
            "seat0:1m4m;seat1:9p",
            "--seat",
            "1",
            "--claim",
            "4m",
            "--from",
            "0",
            "--model",
            m.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"]["kind"], "model");
    assert!(v["value"].as_f64().is_some());
    let acts = v["actions"].as_array().unwrap();
    let kinds: Vec<&str> = acts.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert!(
        kinds.contains(&"pass") && kinds.contains(&"chi") && kinds.contains(&"ron"),
        "{kinds:?}"
    );
    let total: f64 = acts
        .iter()
        .map(|a| a["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-4);
}

#[test]
fn model_table_and_stdin_json() {
    let m = model("sanma");
    let (out, err, ok) = run(
        &["--stdin-json", "--model", m.to_str().unwrap()],
        r#"{"rules": "sanma", "hand": "19m123p456s77z1234z", "discards": ["9p"]}"#,
    );
    assert!(ok, "{err}");
    assert!(out.contains("value  ") && out.contains('%'), "{out}");
    assert!(!err.contains("efficiency evaluator only"));
    // The same sanma position with a four-player model: a clear error, no advice.
    let m = model("four-player");
    let (out, err, ok) = run(
        &["--stdin-json", "--model", m.to_str().unwrap()],
        r#"{"rules": "sanma", "hand": "19m123p456s77z1234z", "discards": ["9p"]}"#,
    );
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("trained for \"four-player\" rules"), "{err}");
}

#[test]
fn bad_input_is_a_clear_error() {
    for (args, stdin, want) in [
        (vec!["--hand", "123x"], "", "unexpected character"),
        (
            vec!["--rules", "four-player", "--hand", "123m"],
            "",
            "tiles",
        ),
        (
            vec!["--hand", "123m456p789s1122z3z", "--rules", "riichi"],
            "",
            "possible values: sanma, four-player",
        ),
        (vec!["--stdin-json"], "{", "JSON"),
        (
            vec![
                "--hand",
                "123m456p789s1122z3z",
                "--model",
                "/nonexistent/m.onnx",
            ],
            "",
            "m.onnx",
        ),
    ] {
        let (out, err, ok) = run(&args, stdin);
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn search_ranks_candidates_with_intervals_and_refuses_bad_budgets() {
    let args = [
        "--rules",
        "sanma",
        "--hand",
        "19m123p456s77z1234z",
        "--search",
        "--budget-ms",
        "40",
    ];
    let (out, err, ok) = run(&args, "");
    assert!(ok, "{err}");
    assert!(out.contains("rollouts per candidate"), "{out}");
    assert!(out.contains("discard 1z"), "{out}");
    assert_eq!(
        out.matches('*').count(),
        2,
        "one chosen row plus the legend: {out}"
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (out, err, ok) = run(&json_args, "");
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cands = v["candidates"].as_array().unwrap();
    assert!(cands.len() >= 2);
    for c in cands {
        assert!(c["value"]["n"].as_u64().unwrap() >= 1);
        let w = c["win"]["mean"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
    }
    for bad in ["--budget-ms=0", "--budget-ms=-5", "--budget-ms=1e9"] {
        let (_, err, ok) = run(
            &[
                "--rules",
                "sanma",
                "--hand",
                "19m123p456s77z1234z",
                "--search",
                bad,
            ],
            "",
        );
        assert!(!ok);
        assert!(err.contains("budget"), "{err}");
        assert!(
            !err.contains("panicked") && !err.contains("Stack backtrace"),
            "{err}"
        );
    }
}

/// A red five stays `0` in the hand shown (`0p5p` is not `55p`), and a red five is a
/// dora indicator like a plain one (`--dora 0p`).
#[test]
fn red_fives_in_the_hand_and_as_dora_indicator() {
    let (out, err, ok) = run(
        &[
            "--rules",
            "tenhou-4p",
            "--hand",
            "123m4056p789s1122z",
            "--dora",
            "0p",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("123m4056p789s1122z"), "{out}");
    assert!(!out.contains("4556p"), "{out}");
}

#[test]
fn stdin_jsonl_answers_one_line_per_position() {
    let input = "# a comment\n{\"hand\": \"123m456p789s1122z3z\"}\n\n{\"hand\": \"123m\"}\n{\"rules\": \"sanma\", \"hand\": \"19m123p456p789s11z2z\"}\n";
    let (out, err, ok) = run(&["--stdin-jsonl", "--json"], input);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0]["actions"][0]["tile"], "3z");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("3 tiles"),
        "{}",
        lines[1]
    );
    // The shipped sanma model where it fits, efficiency where it does not.
    assert_eq!(lines[2]["source"]["kind"], "model");
    assert_eq!(lines[0]["source"]["kind"], "efficiency_only");
}

#[test]
fn without_model_the_shipped_model_fitting_the_rules_advises() {
    let (out, err, ok) = run(
        &[
            "--rules",
            "tenhou-sanma",
            "--hand",
            "19m123p456p789s11z2z",
            "--dora",
            "5p",
            "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"]["kind"], "model", "{v}");
    assert_eq!(v["source"]["sidecar"]["rules"], "tenhou-sanma");
}
