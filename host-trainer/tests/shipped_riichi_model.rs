//! The Tenhou three-player model that ships in `models/tenhou-sanma/`: its sidecar
//! (encoding v2, riichi rules), its strength against random bots in a small duplicate
//! run, and that `arena` seats it on the riichi presets and refuses the simple ones.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arena::policy::onnx_factory;
use arena::{self, ArenaConfig, BotSpec};
use engine::encode::Encoding;
use inference::{Advisor, Sidecar};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/tenhou-sanma")
}

fn model() -> PathBuf {
    folder().join("model.onnx")
}

#[test]
fn sidecar_describes_a_v2_riichi_model() {
    let sidecar = Sidecar::load(&Sidecar::path_for(&model())).expect("sidecar");
    assert_eq!(sidecar.encoding_version, Encoding::V2.version());
    assert_eq!(sidecar.rules, "tenhou-sanma");
    assert!(sidecar.parameter_version >= 300, "{sidecar:?}");
    let a = Advisor::load(&model()).expect("the model loads");
    assert!(a.has_model());
    assert_eq!(a.encoding(), Some(Encoding::V2));
    let bytes = std::fs::metadata(model()).unwrap().len();
    assert!(bytes < 4 << 20, "{bytes} bytes");
}

#[test]
fn wins_against_random_bots_on_tenhou_sanma() {
    let advisor = Arc::new(Advisor::load(&model()).expect("the model loads"));
    let factory = onnx_factory(advisor).expect("factory");
    let cfg = ArenaConfig {
        rules: engine::Rules::preset("tenhou-sanma-east").unwrap(),
        seats: vec![BotSpec::Custom, BotSpec::Random, BotSpec::Random],
        hands: 150,
        seed: 5,
        duplicate: true,
    };
    let stop = AtomicBool::new(false);
    let walls = arena::play_walls(&cfg, Some(&*factory), &|| {}, &stop).unwrap();
    let report = arena::ArenaReport::from_walls(&cfg, &walls, 0.0);
    let policy = report.kind("policy").expect("policy row");
    let randoms = report.kind("random").expect("random row");
    assert!(policy.win_rate.low > 0.35, "{policy:?}");
    assert!(policy.win_rate.low > randoms.win_rate.high, "{report:?}");
    assert!(policy.points_per_hand.low > 0.0, "{policy:?}");
}

#[test]
fn arena_seats_it_on_riichi_rules_only() {
    let run = |rules: &str| {
        Command::new(env!("CARGO_BIN_EXE_host-trainer"))
            .args([
                "arena",
                "--rules",
                rules,
                "--seats",
                "model,eff,eff",
                "--hands",
                "6",
            ])
            .args(["--model", model().to_str().unwrap(), "--seed", "3"])
            .output()
            .expect("spawn host-trainer")
    };
    let ok = run("tenhou-sanma");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let refused = run("sanma");
    assert!(!refused.status.success());
    assert!(!String::from_utf8_lossy(&refused.stderr).is_empty());
}

/// Under riichi rules the report adds the section against defending bots: per hand,
/// paired with the defending bot in the model's seat, and whole games with placement,
/// with their targets checked.
#[test]
fn report_measures_it_against_defending_bots() {
    let out = std::env::temp_dir().join(format!("riichi-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = folder().join("run");
    let output = Command::new(env!("CARGO_BIN_EXE_host-trainer"))
        .args(["report", "--run", run.to_str().unwrap()])
        .args(["--model", model().to_str().unwrap()])
        .args(["--out", out.to_str().unwrap()])
        .args(["--hands", "24", "--games", "2", "--threads", "2", "--quiet"])
        .output()
        .expect("spawn host-trainer");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("against defending bots: points per hand"),
        "{stdout}"
    );
    assert!(
        stdout.contains("whole games against defending bots: average rank ≤ 1.90"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
    for needle in [
        "### Against two defending bots",
        "| **model − defending bot** (paired by wall) | 24 |",
        "### Whole games against defending bots",
        "2 game seeds, each played once per rotation of the seats (6 games",
        "| **model − defending bot** (paired by seed) | 6 |",
    ] {
        assert!(md.contains(needle), "{needle:?} missing from\n{md}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let games = &json["defend"]["games"];
    assert_eq!(games["model"]["games"], 6);
    let rank = games["model"]["entrants"][0]["average_rank"]["mean"]
        .as_f64()
        .unwrap();
    assert!((1.0..=3.0).contains(&rank), "{rank}");
    let _ = std::fs::remove_dir_all(&out);
}
