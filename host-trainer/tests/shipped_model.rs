//! The model that ships in `models/`: its sidecar, its strength against random bots in
//! a small duplicate run, that `advise` and `arena` pick it up by default, and that
//! `report` regenerates a report from the committed run files.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arena::policy::onnx_factory;
use arena::{self, paired, ArenaConfig, BotSpec};
use inference::{Advisor, Sidecar};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
}

fn model() -> PathBuf {
    models().join("default.onnx")
}

fn advisor() -> Arc<Advisor> {
    Arc::new(Advisor::load(&model()).expect("the shipped model loads"))
}

#[test]
fn sidecar_describes_the_shipped_model() {
    let sidecar = Sidecar::load(&Sidecar::path_for(&model())).expect("sidecar");
    assert_eq!(sidecar.format, inference::sidecar::SIDECAR_FORMAT);
    assert_eq!(sidecar.encoding_version, engine::encode::ENCODING_VERSION);
    assert_eq!(sidecar.rules, "sanma");
    assert!(sidecar.parameter_version >= 100, "{sidecar:?}");
    let a = advisor();
    assert!(a.has_model());
    assert_eq!(a.sidecar(), Some(&sidecar));
    let bytes = std::fs::metadata(model()).unwrap().len();
    assert!(
        bytes < 4 << 20,
        "the shipped model should stay small: {bytes} bytes"
    );
}

#[test]
fn beats_random_bots_in_a_small_duplicate_run() {
    let factory = onnx_factory(advisor()).expect("factory");
    let lineup = |first: BotSpec| ArenaConfig {
        rules: engine::Rules::sanma(),
        seats: vec![first, BotSpec::Random, BotSpec::Random],
        hands: 150,
        seed: 5,
        duplicate: true,
    };
    let stop = AtomicBool::new(false);
    let model_walls =
        arena::play_walls(&lineup(BotSpec::Custom), Some(&*factory), &|| {}, &stop).unwrap();
    let random_walls = arena::play_walls(&lineup(BotSpec::Random), None, &|| {}, &stop).unwrap();
    let report = arena::ArenaReport::from_walls(&lineup(BotSpec::Custom), &model_walls, 0.0);
    let policy = report.kind("policy").expect("policy row");
    let randoms = report.kind("random").expect("random row");
    assert!(policy.win_rate.low > 0.6, "{policy:?}");
    assert!(policy.win_rate.low > randoms.win_rate.high, "{report:?}");
    assert!(policy.points_per_hand.low > 0.0, "{policy:?}");
    // And in the same seats as a random bot would have sat, on the same walls.
    let d = paired::compare(&model_walls, 0, &random_walls, 0, 3).unwrap();
    assert!(d.win_rate.low > 0.4, "{d:?}");
}

fn host_trainer(args: &[&str], cwd: &Path) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_host-trainer"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("spawn host-trainer");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn advise_uses_the_shipped_model_by_default_when_the_rules_fit() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let hand = "111m9m23p456p789s11z";
    let (out, err, ok) = host_trainer(
        &["advise", "--rules", "sanma", "--hand", hand, "--json"],
        scratch,
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["source"]["kind"], "model", "{out}");
    // A four-player position does not fit the sanma model: efficiency-only, said so.
    let (_, err, ok) = host_trainer(
        &[
            "advise",
            "--rules",
            "four-player",
            "--hand",
            "123m456p789s1122z3z",
        ],
        scratch,
    );
    assert!(ok, "{err}");
    assert!(err.contains("trained for \"sanma\""), "{err}");
    // Asking for it explicitly on a four-player position is an error, not a silent
    // fallback.
    let m = model();
    let (_, err, ok) = host_trainer(
        &[
            "advise",
            "--rules",
            "four-player",
            "--hand",
            "123m456p789s1122z3z",
            "--model",
            m.to_str().unwrap(),
        ],
        scratch,
    );
    assert!(!ok);
    assert!(err.contains("--no-model"), "{err}");
}

#[test]
fn arena_seats_the_model_and_refuses_other_rules() {
    let root = models().join("..");
    let (out, err, ok) = host_trainer(
        &[
            "arena",
            "--seats",
            "model,eff,random",
            "--hands",
            "30",
            "--quiet",
        ],
        &root,
    );
    assert!(ok, "{err}");
    assert!(out.contains("policy"), "{out}");
    let (_, err, ok) = host_trainer(
        &[
            "arena",
            "--seats",
            "model,eff,random,random",
            "--rules",
            "four-player",
            "--hands",
            "4",
            "--quiet",
        ],
        &root,
    );
    assert!(!ok);
    assert!(
        err.contains("no shipped model fits the rules four-player"),
        "{err}"
    );
}

/// An ablation run folder with an exported model: the committed guidance-off run's
/// files and, as its `model.onnx`, the shipped model (so its paired result must equal
/// the shipped model's own on the same walls).
fn ablation_with_model(dir: &Path) -> PathBuf {
    let run = dir.join("abl");
    std::fs::create_dir_all(&run).unwrap();
    for f in ["config.json", "metrics.jsonl"] {
        std::fs::copy(models().join("run-guidance-off").join(f), run.join(f)).unwrap();
    }
    std::fs::copy(model(), run.join("model.onnx")).unwrap();
    std::fs::copy(models().join("default.json"), run.join("model.json")).unwrap();
    run
}

#[test]
fn report_regenerates_from_the_committed_run() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shipped-report");
    let _ = std::fs::remove_dir_all(&out_dir);
    let run = models().join("run");
    let ablation = models().join("run-guidance-off");
    let with_model = ablation_with_model(&out_dir.join("inputs"));
    let (stdout, err, ok) = host_trainer(
        &[
            "report",
            "--run",
            run.to_str().unwrap(),
            "--ablation",
            ablation.to_str().unwrap(),
            "--ablation",
            with_model.to_str().unwrap(),
            "--ablation-hands",
            "30",
            "--previous",
            model().to_str().unwrap(),
            "--model",
            model().to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "--hands",
            "30",
            "--quiet",
        ],
        &models(),
    );
    assert!(ok, "{err}");
    assert!(stdout.contains("against random bots: win rate"), "{stdout}");
    let md = std::fs::read_to_string(out_dir.join("REPORT.md")).unwrap();
    for needle in [
        "## Targets",
        "### Against two random bots",
        "### Against two efficiency bots",
        "### The previous model against two efficiency bots",
        "## Guidance ablation",
        "### Final models against two efficiency bots",
        "(no `model.onnx` in the run folder)",
        "### At equal updates (",
        "![training curve of the run](curve.png)",
        "![the guidance ablation: win rates by update and by training time](guidance.png)",
        "Wilson score intervals",
        "| guidance | `\"On\"` |",
    ] {
        assert!(
            md.contains(needle),
            "{needle:?} missing from the report:\n{md}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(json["matchups"].as_array().map(Vec::len), Some(2));
    assert_eq!(json["targets"].as_array().map(Vec::len), Some(3));
    assert_eq!(json["hands"], 30);
    // The same model on the same walls: every paired difference is exactly zero, and
    // the ablation copy's points equal the shipped model's (same hands and seed).
    let previous = &json["previous"]["new_minus_previous"];
    for key in ["win_rate", "deal_in_rate", "points_per_hand"] {
        assert_eq!(previous[key]["mean"], 0.0, "{key}: {previous}");
    }
    let ablation = json["ablation"].as_array().unwrap();
    assert_eq!(ablation.len(), 2);
    assert!(ablation[0]["versus_eff"].is_null());
    assert_eq!(
        ablation[1]["versus_eff"]["model"]["points_per_hand"],
        json["matchups"][1]["model"]["points_per_hand"]
    );
    for chart in ["curve.png", "guidance.png"] {
        let bytes = std::fs::read(out_dir.join(chart)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{chart}");
    }
    assert!(!out_dir.join("curve-ablation.png").exists());
    // The committed report was written by the same command on the committed files.
    let shipped = std::fs::read_to_string(models().join("REPORT.md")).unwrap();
    assert!(
        shipped.contains("Generated by `host-trainer report"),
        "{shipped}"
    );
    assert!(shipped.contains("--hands 10000"), "{shipped}");
}

#[test]
fn report_refuses_a_previous_model_of_other_rules_before_playing() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shipped-report-refused");
    let _ = std::fs::remove_dir_all(&out_dir);
    let riichi = models().join("tenhou-sanma/model.onnx");
    let (_, err, ok) = host_trainer(
        &[
            "report",
            "--run",
            models().join("run").to_str().unwrap(),
            "--previous",
            riichi.to_str().unwrap(),
            "--model",
            model().to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "--hands",
            "30",
            "--quiet",
        ],
        &models(),
    );
    assert!(!ok);
    assert!(
        err.contains("previous model") && err.contains("trained for rules"),
        "{err}"
    );
    assert!(!out_dir.join("REPORT.md").exists());
}
