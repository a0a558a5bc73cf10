//! The Tenhou four-player model that ships in `models/tenhou-4p/`: its sidecar
//! (encoding v2, riichi rules), that it is the shipped model picked for four-player
//! riichi rules, and its strength against random and defending bots in a small
//! duplicate run (the full measurement is `models/tenhou-4p/REPORT.md`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arena::policy::onnx_factory;
use arena::{self, ArenaConfig, BotSpec};
use engine::encode::Encoding;
use inference::{Advisor, Sidecar};

fn model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/tenhou-4p/model.onnx")
}

#[test]
fn sidecar_describes_a_v2_four_player_riichi_model() {
    let sidecar = Sidecar::load(&Sidecar::path_for(&model())).expect("sidecar");
    assert_eq!(sidecar.encoding_version, Encoding::V2.version());
    assert_eq!(sidecar.rules, "tenhou-4p");
    assert!(sidecar.parameter_version >= 300, "{sidecar:?}");
    let a = Advisor::load(&model()).expect("the model loads");
    assert_eq!(a.encoding(), Some(Encoding::V2));
    let bytes = std::fs::metadata(model()).unwrap().len();
    assert!(bytes < 4 << 20, "{bytes} bytes");
    // The embedded copy is the committed file, and it is what four-player riichi
    // rules get.
    let rules = engine::Rules::preset("tenhou-4p-east").unwrap();
    let picked = inference::shipped::fitting(&rules)
        .unwrap()
        .expect("a model fits");
    assert_eq!(picked.sidecar().unwrap().run_id, sidecar.run_id);
}

#[test]
fn beats_random_bots_on_tenhou_4p() {
    let advisor = Arc::new(Advisor::load(&model()).expect("the model loads"));
    let factory = onnx_factory(advisor).expect("factory");
    let cfg = ArenaConfig {
        rules: engine::Rules::preset("tenhou-4p-east").unwrap(),
        seats: vec![
            BotSpec::Custom,
            BotSpec::Random,
            BotSpec::Random,
            BotSpec::Random,
        ],
        hands: 160,
        seed: 5,
        duplicate: true,
    };
    let stop = AtomicBool::new(false);
    let walls = arena::play_walls(&cfg, Some(&*factory), &|| {}, &stop).unwrap();
    let report = arena::ArenaReport::from_walls(&cfg, &walls, 0.0);
    let policy = report.kind("policy").expect("policy row");
    let randoms = report.kind("random").expect("random row");
    assert!(policy.win_rate.low > randoms.win_rate.high, "{report:?}");
    assert!(policy.points_per_hand.low > 0.0, "{policy:?}");
}
