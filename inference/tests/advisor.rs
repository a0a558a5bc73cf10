//! Advisor behaviour: loading errors, the sidecar, masking, efficiency-only mode,
//! derived legality, thread sharing.

mod common;

use std::path::Path;

use engine::game::{Action, NUM_ACTIONS};
use inference::onnx_export::export;
use inference::{Advisor, Error, ModelConfig, PolicySource, Sidecar, Weights};

const CFG: ModelConfig = ModelConfig {
    layers: 1,
    d_model: 16,
    heads: 2,
    ff: 32,
    tokens: engine::tile::TileSet::FourPlayer,
};

fn export_to(dir: &Path, seed: u64) -> std::path::PathBuf {
    let path = dir.join("m.onnx");
    let w = Weights::random(CFG, seed).unwrap();
    export(
        &w,
        &Sidecar::new(CFG, "sanma", "run-x", 42, "advisor test"),
        &path,
    )
    .unwrap();
    path
}

#[test]
fn advisor_is_send_sync_and_shareable() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Advisor>();
    let dir = common::scratch("threads");
    let advisor = Advisor::load(&export_to(&dir, 1)).unwrap();
    let obs = common::self_play(64);
    let expected: Vec<_> = obs
        .iter()
        .map(|(o, l)| advisor.advise_with_legal(o, l).unwrap())
        .collect();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (advisor, obs, expected) = (advisor.clone(), &obs, &expected);
            s.spawn(move || {
                for (i, (o, l)) in obs.iter().enumerate().skip(t) {
                    assert_eq!(advisor.advise_with_legal(o, l).unwrap(), expected[i]);
                }
            });
        }
    });
}

#[test]
fn sidecar_round_trips() {
    let dir = common::scratch("sidecar");
    let path = export_to(&dir, 2);
    let s = Sidecar::load(&Sidecar::path_for(&path)).unwrap();
    assert_eq!(s, Sidecar::new(CFG, "sanma", "run-x", 42, "advisor test"));
    assert_eq!(Sidecar::from_json(&s.to_json(), &path).unwrap(), s);
    let advisor = Advisor::load(&path).unwrap();
    assert_eq!(advisor.sidecar(), Some(&s));
    assert!(Sidecar::from_json("{}", &path).is_err());
    let other = s.to_json().replace("mahjong-policy/1", "other/9");
    assert!(matches!(
        Sidecar::from_json(&other, &path),
        Err(Error::Sidecar { .. })
    ));
}

#[test]
fn encoding_mismatch_is_refused() {
    let dir = common::scratch("mismatch");
    let path = export_to(&dir, 3);
    let sc = Sidecar::path_for(&path);
    let text = std::fs::read_to_string(&sc).unwrap();
    let v = engine::encode::ENCODING_VERSION;
    std::fs::write(
        &sc,
        text.replace(
            &format!("\"encoding_version\": {v}"),
            "\"encoding_version\": 999",
        ),
    )
    .unwrap();
    let err = Advisor::load(&path).unwrap_err();
    assert!(
        matches!(err, Error::EncodingMismatch { model: 999, .. }),
        "{err}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("999") && msg.contains("versions 1 to 2"),
        "{msg}"
    );
    // A known version that is not the ONNX file's: the file's own metadata disagrees.
    std::fs::write(
        &sc,
        text.replace(
            &format!("\"encoding_version\": {v}"),
            "\"encoding_version\": 2",
        ),
    )
    .unwrap();
    let err = Advisor::load(&path).unwrap_err();
    assert!(
        matches!(err, Error::Model { .. }) && err.to_string().contains("sidecar says 2"),
        "{err}"
    );
}

#[test]
fn missing_corrupt_and_truncated_files_are_errors() {
    let dir = common::scratch("corrupt");
    let path = export_to(&dir, 4);
    let good = std::fs::read(&path).unwrap();
    // Missing model.
    let err = Advisor::load(&dir.join("nope.onnx")).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
    assert!(err.to_string().contains("nope.onnx"));
    // Truncated at several points, and garbage.
    for cut in [0, 1, 10, good.len() / 3, good.len() / 2, good.len() - 7] {
        std::fs::write(&path, &good[..cut]).unwrap();
        let err = Advisor::load(&path).unwrap_err();
        assert!(matches!(err, Error::Model { .. }), "cut {cut}: {err}");
    }
    let mut flipped = good.clone();
    for i in (0..flipped.len()).step_by(97) {
        flipped[i] ^= 0x5A;
    }
    std::fs::write(&path, &flipped).unwrap();
    assert!(Advisor::load(&path).is_err());
    std::fs::write(&path, b"this is not onnx").unwrap();
    assert!(matches!(Advisor::load(&path), Err(Error::Model { .. })));
    // Missing or corrupt sidecar.
    std::fs::write(&path, &good).unwrap();
    assert!(Advisor::load(&path).is_ok());
    let sc = Sidecar::path_for(&path);
    std::fs::write(&sc, "{\"format\": ").unwrap();
    assert!(matches!(Advisor::load(&path), Err(Error::Sidecar { .. })));
    std::fs::remove_file(&sc).unwrap();
    let err = Advisor::load(&path).unwrap_err();
    assert!(
        matches!(err, Error::Io { .. }) && err.to_string().contains("sidecar"),
        "{err}"
    );
}

#[test]
fn illegal_actions_get_zero_probability() {
    let dir = common::scratch("mask");
    let advisor = Advisor::load(&export_to(&dir, 5)).unwrap();
    for (obs, legal) in common::self_play(400) {
        let advice = advisor.advise_with_legal(&obs, &legal).unwrap();
        assert_eq!(advice.actions.len(), legal.len());
        let mut total = 0.0;
        for r in &advice.actions {
            assert!(legal.contains(&r.action));
            let p = r.probability.unwrap();
            assert!(p > 0.0 && p.is_finite());
            total += p;
        }
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        assert!(advice.value.unwrap().is_finite());
        for w in advice.actions.windows(2) {
            assert!(w[0].probability >= w[1].probability);
        }
        for r in advice
            .actions
            .iter()
            .filter(|r| matches!(r.action, Action::Discard(_)))
        {
            let d = r.discard.as_ref().unwrap();
            assert!((0.0..=1.0).contains(&d.value_score));
            assert_eq!(d.ukeire_type_count, d.ukeire_mask.count_ones());
        }
    }
    // The masked softmax itself: illegal entries are exactly 0 even with huge logits.
    let mut logits = vec![0f32; NUM_ACTIONS];
    logits[5] = 1e30;
    let mut mask = vec![false; NUM_ACTIONS];
    mask[3] = true;
    mask[140] = true;
    let p = inference::masked_softmax(&logits, &mask);
    assert_eq!(p[5], 0.0);
    assert!((p[3] - 0.5).abs() < 1e-6 && (p[140] - 0.5).abs() < 1e-6);
}

#[test]
fn efficiency_only_ranks_by_value_scores() {
    let advisor = Advisor::efficiency_only();
    assert!(!advisor.has_model());
    for (obs, legal) in common::self_play(300) {
        let advice = advisor.advise_with_legal(&obs, &legal).unwrap();
        assert_eq!(advice.source, PolicySource::EfficiencyOnly);
        assert!(advice.note.contains("no model"));
        assert!(advice.value.is_none());
        assert_eq!(advice.actions.len(), legal.len());
        assert!(advice.actions.iter().all(|r| r.probability.is_none()));
        let l: engine::game::LegalActions = legal.iter().copied().collect();
        use engine::bots::Agent;
        let bot = engine::bots::EfficiencyBot.act(&obs, &l);
        assert_eq!(advice.best(), Some(bot));
        let scores: Vec<f32> = advice.actions[1..]
            .iter()
            .filter_map(|r| r.discard.as_ref().map(|d| d.value_score))
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    }
}

#[test]
fn derived_legality_matches_the_game() {
    let obs = common::self_play(5000);
    for (o, legal) in &obs {
        let mut expected = legal.clone();
        expected.sort_by_key(|a| a.index());
        let mut derived = engine::game::legal_actions_of(o)
            .unwrap()
            .as_slice()
            .to_vec();
        derived.sort_by_key(|a| a.index());
        assert_eq!(derived, expected, "{o:?}");
    }
}

/// Inputs of the `model` fuzz target that once made tract panic inside its ONNX parser
/// (fuzz/regressions/model: sidecar length u16 LE, the sidecar, then the ONNX bytes):
/// the advisor's boundary turns the panic into `Error::Model`.
#[test]
fn fuzz_regressions_are_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/model");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression inputs are committed") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let len = u16::from_le_bytes([data[0], data[1]]) as usize;
        let sidecar = std::str::from_utf8(&data[2..2 + len]).expect("a UTF-8 sidecar");
        let onnx = &data[2 + len..];
        match Advisor::from_bytes(onnx, sidecar, Path::new("fuzzed.onnx")) {
            Err(Error::Model { detail, .. }) => assert!(!detail.is_empty()),
            Err(e) => panic!("expected a model error, got {e}"),
            Ok(_) => panic!("a malformed model loaded"),
        }
        seen += 1;
    }
    assert!(seen > 0, "no regression inputs in {}", dir.display());
}

#[test]
fn sanma_token_model_advises_sanma_and_refuses_four_player() {
    let cfg = ModelConfig {
        tokens: engine::tile::TileSet::Sanma,
        ..CFG
    };
    let dir = common::scratch("sanma-tokens");
    let path = dir.join("m.onnx");
    let w = Weights::random(cfg, 5).unwrap();
    export(
        &w,
        &Sidecar::new(cfg, "sanma", "run-s", 1, "advisor test"),
        &path,
    )
    .unwrap();
    let advisor = Advisor::load(&path).unwrap();
    let obs = common::self_play(200);
    let (mut sanma, mut four) = (0, 0);
    for (o, l) in &obs {
        let r = advisor.advise_with_legal(o, l);
        if o.rules.players == 3 {
            let advice = r.unwrap();
            let total: f32 = advice.actions.iter().filter_map(|a| a.probability).sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            sanma += 1;
        } else {
            let err = r.unwrap_err().to_string();
            assert!(err.contains("tile types"), "{err}");
            four += 1;
        }
    }
    assert!(sanma > 0 && four > 0);
    // A sidecar written before the token set existed reads as all 34 tokens.
    let mut old: serde_json::Value =
        serde_json::from_str(&Sidecar::new(cfg, "sanma", "run-s", 1, "t").to_json()).unwrap();
    assert_eq!(old["model"]["tokens"], "Sanma");
    old["model"].as_object_mut().unwrap().remove("tokens");
    let s = Sidecar::from_json(&old.to_string(), &path).unwrap();
    assert_eq!(s.model.tokens, engine::tile::TileSet::FourPlayer);
}
