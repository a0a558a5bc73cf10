//! Differential tests of the plain `f32` batch-1 pass (`inference::plain`): the
//! advisor that uses it gives tract's advice on real self-play positions, for both
//! shipped models, and tract is kept for batches and for graphs it does not read.

mod common;

use std::path::Path;

use engine::rules::Rules;
use inference::{Advisor, ModelConfig, Sidecar, Weights};

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The plain advisor and tract's rank the same actions in the same order with the
/// same probabilities and value (to 1e-4), position by position.
fn same_advice(advisor: &Advisor, rules: Rules, n: usize) -> usize {
    assert!(
        advisor.uses_plain_forward(),
        "the plain pass was not taken up"
    );
    let tract = advisor.tract_only();
    assert!(!tract.uses_plain_forward());
    let positions = common::self_play_with(n, &[rules]);
    let mut max = 0f32;
    for (obs, legal) in &positions {
        let a = advisor.advise_with_legal(obs, legal).unwrap();
        let b = tract.advise_with_legal(obs, legal).unwrap();
        let (va, vb) = (a.value.unwrap(), b.value.unwrap());
        assert!(
            (va - vb).abs() <= 1e-4 * (1.0 + vb.abs()),
            "value {va} vs {vb}"
        );
        assert_eq!(a.actions.len(), b.actions.len());
        for (x, y) in a.actions.iter().zip(&b.actions) {
            let (p, q) = (x.probability.unwrap(), y.probability.unwrap());
            max = max.max((p - q).abs());
            // The order may differ only between actions tract itself rates equal.
            if x.action != y.action {
                let other = b.actions.iter().find(|r| r.action == x.action).unwrap();
                assert!((other.probability.unwrap() - q).abs() <= 1e-5, "{obs:?}");
            }
        }
    }
    assert!(max <= 1e-4, "max |Δp| = {max}");
    positions.len()
}

#[test]
fn the_shipped_sanma_model_gives_tracts_advice() {
    let advisor = Advisor::load(&root().join("models/default.onnx")).unwrap();
    assert!(same_advice(&advisor, Rules::sanma(), 400) >= 400);
}

#[test]
fn the_shipped_riichi_model_gives_tracts_advice() {
    let advisor = Advisor::load(&root().join("models/tenhou-sanma/model.onnx")).unwrap();
    assert!(same_advice(&advisor, Rules::tenhou_sanma(), 400) >= 400);
}

/// Batches still go to tract and agree with the single-position pass row by row.
#[test]
fn batches_agree_with_single_positions() {
    let advisor = Advisor::load(&root().join("models/tenhou-sanma/model.onnx")).unwrap();
    let enc = advisor.encoding().unwrap();
    let positions = common::self_play_with(40, &[Rules::tenhou_sanma()]);
    let len = enc.encoded_len();
    let mut flat = vec![0f32; positions.len() * len];
    for ((obs, _), x) in positions.iter().zip(flat.chunks_mut(len)) {
        enc.encode(obs, x).unwrap();
    }
    let (logits, values) = advisor.evaluate(&flat).unwrap();
    let a = enc.policy_actions();
    for (i, x) in flat.chunks(len).enumerate() {
        let (l, v) = advisor.evaluate(x).unwrap();
        assert!((v[0] - values[i]).abs() <= 1e-4);
        for (p, q) in l.iter().zip(&logits[i * a..(i + 1) * a]) {
            assert!((p - q).abs() <= 1e-3 * (1.0 + q.abs()), "{p} vs {q}");
        }
    }
}

/// A model whose weights differ from what its graph computes with (here: a graph
/// exported, then one initializer renamed so the plain reader cannot find it) still
/// loads, on tract alone.
#[test]
fn a_graph_the_plain_pass_cannot_read_runs_on_tract() {
    use prost::Message;
    let cfg = ModelConfig::default();
    let w = Weights::random(cfg, 5).unwrap();
    let mut proto = inference::onnx_export::build_model(&w, &[]).unwrap();
    let graph = proto.graph.as_mut().unwrap();
    let old = "block0.ff1.bias";
    for t in graph.initializer.iter_mut().filter(|t| t.name == old) {
        t.name = "renamed".into();
    }
    for n in graph.node.iter_mut() {
        for i in n.input.iter_mut().filter(|i| *i == old) {
            *i = "renamed".into();
        }
    }
    let dir = common::scratch("plain-renamed");
    let path = dir.join("m.onnx");
    std::fs::write(&path, proto.encode_to_vec()).unwrap();
    Sidecar::new(cfg, "four-player", "test", 0, "plain test")
        .save(&Sidecar::path_for(&path))
        .unwrap();
    let advisor = Advisor::load(&path).unwrap();
    assert!(!advisor.uses_plain_forward());
    let (obs, legal) = &common::self_play(1)[0];
    assert!(advisor.advise_with_legal(obs, legal).is_ok());
}
