//! Differential tests: the exported ONNX run by tract (`Advisor::tract_only`, batch 1
//! included) equals the pure-Rust reference forward pass on observations from real
//! self-play.

mod common;

use engine::encode::{encode, ENCODED_LEN};
use engine::game::POLICY_ACTIONS_V1;
use inference::onnx_export::export;
use inference::{reference, Advisor, ModelConfig, Sidecar, Weights};

fn encoded(n: usize) -> Vec<f32> {
    let obs = common::self_play(n);
    let mut flat = Vec::with_capacity(obs.len() * ENCODED_LEN);
    let mut x = [0f32; ENCODED_LEN];
    for (o, _) in &obs {
        encode(o, &mut x);
        flat.extend_from_slice(&x);
    }
    flat
}

fn exported(cfg: ModelConfig, seed: u64, name: &str) -> (Weights, Advisor) {
    let w = Weights::random(cfg, seed).unwrap();
    let dir = common::scratch(name);
    let path = dir.join("model.onnx");
    let sidecar = Sidecar::new(cfg, "four-player", "test", 0, "parity test");
    export(&w, &sidecar, &path).unwrap();
    // Every pass through tract: batch 1 would otherwise take the plain pass, which
    // `tests/plain.rs` checks against tract.
    (w, Advisor::load(&path).unwrap().tract_only())
}

fn check(cfg: ModelConfig, seed: u64, name: &str) {
    let flat = encoded(1000);
    let n = flat.len() / ENCODED_LEN;
    assert!(n >= 1000);
    let (w, advisor) = exported(cfg, seed, name);
    let mut max_logit = 0f32;
    let mut max_value = 0f32;
    for chunk in flat.chunks(128 * ENCODED_LEN) {
        let b = chunk.len() / ENCODED_LEN;
        let (logits, values) = advisor.evaluate(chunk).unwrap();
        assert_eq!((logits.len(), values.len()), (b * POLICY_ACTIONS_V1, b));
        for i in 0..b {
            let r = reference::forward(&w, &chunk[i * ENCODED_LEN..(i + 1) * ENCODED_LEN]).unwrap();
            for (a, b) in r
                .logits
                .iter()
                .zip(&logits[i * POLICY_ACTIONS_V1..(i + 1) * POLICY_ACTIONS_V1])
            {
                max_logit = max_logit.max((a - b).abs());
            }
            max_value = max_value.max((r.value - values[i]).abs());
        }
    }
    println!(
        "{name}: {n} observations, max |Δlogit| = {max_logit:e}, max |Δvalue| = {max_value:e}"
    );
    assert!(
        max_logit <= 1e-4 && max_value <= 1e-4,
        "{max_logit} {max_value}"
    );
}

#[test]
fn tract_matches_reference_small() {
    check(
        ModelConfig {
            layers: 1,
            d_model: 32,
            heads: 4,
            ff: 64,
            tokens: engine::tile::TileSet::FourPlayer,
        },
        7,
        "parity_small",
    );
}

#[test]
fn tract_matches_reference_default() {
    check(
        ModelConfig {
            layers: 2,
            d_model: 64,
            heads: 4,
            ff: 128,
            tokens: engine::tile::TileSet::FourPlayer,
        },
        11,
        "parity_default",
    );
}

#[test]
fn symbolic_batch() {
    let flat = encoded(40);
    let cfg = ModelConfig {
        layers: 1,
        d_model: 16,
        heads: 2,
        ff: 32,
        tokens: engine::tile::TileSet::FourPlayer,
    };
    let (_, advisor) = exported(cfg, 3, "batch");
    let (l17, v17) = advisor.evaluate(&flat[..17 * ENCODED_LEN]).unwrap();
    assert_eq!((l17.len(), v17.len()), (17 * POLICY_ACTIONS_V1, 17));
    for i in 0..17 {
        let (l1, v1) = advisor
            .evaluate(&flat[i * ENCODED_LEN..(i + 1) * ENCODED_LEN])
            .unwrap();
        assert_eq!(l1.len(), POLICY_ACTIONS_V1);
        for (a, b) in l1.iter().zip(&l17[i * POLICY_ACTIONS_V1..]) {
            assert!((a - b).abs() <= 1e-5);
        }
        assert!((v1[0] - v17[i]).abs() <= 1e-5);
    }
    assert!(advisor.evaluate(&flat[..ENCODED_LEN - 1]).is_err());
    assert!(advisor.evaluate(&[]).is_err());
}

#[test]
fn tract_matches_reference_sanma_tokens() {
    // A model with the 27 sanma tile tokens: the export gathers their rows and expands
    // the tile logits back to 34 columns.
    let cfg = ModelConfig {
        layers: 2,
        d_model: 32,
        heads: 4,
        ff: 64,
        tokens: engine::tile::TileSet::Sanma,
    };
    check(cfg, 13, "parity_sanma_tokens");
    let flat = encoded(50);
    let (w, advisor) = exported(cfg, 13, "parity_sanma_tokens_absent");
    let (logits, _) = advisor.evaluate(&flat[..ENCODED_LEN]).unwrap();
    let r = reference::forward(&w, &flat[..ENCODED_LEN]).unwrap();
    let absent: Vec<usize> = (0..34)
        .filter(|&t| {
            !engine::tile::TileSet::Sanma.contains(engine::tile::Tile::new(t as u8).unwrap())
        })
        .collect();
    assert_eq!(absent.len(), 7);
    for k in 0..4 {
        for &t in &absent {
            assert_eq!(logits[k * 34 + t], inference::ABSENT_LOGIT);
            assert_eq!(r.logits[k * 34 + t], inference::ABSENT_LOGIT);
        }
    }
    // Present types get real logits.
    assert!(
        logits[..136]
            .iter()
            .filter(|&&l| l != inference::ABSENT_LOGIT)
            .count()
            == 4 * 27
    );
    // Changing an absent row of the input changes nothing (the model never reads it).
    let mut x = flat[..ENCODED_LEN].to_vec();
    for f in 0..engine::encode::TOKEN_FEATURES {
        x[absent[0] * engine::encode::TOKEN_FEATURES + f] = 0.7;
    }
    let (l2, v2) = advisor.evaluate(&x).unwrap();
    let (l1, v1) = advisor.evaluate(&flat[..ENCODED_LEN]).unwrap();
    assert_eq!((l1, v1), (l2, v2));
}

/// Encoding v2 (the riichi presets): tract equals the reference on observations from
/// riichi games, with the 177 logits in the engine's order, for every token set.
#[test]
fn tract_matches_reference_encoding_v2() {
    use engine::encode::Encoding;
    use engine::rules::Rules;
    let presets = [
        Rules::preset("tenhou-sanma-east").unwrap(),
        Rules::preset("tenhou-4p-east").unwrap(),
    ];
    let obs = common::self_play_with(600, &presets);
    let len = Encoding::V2.encoded_len();
    let mut flat = vec![0f32; obs.len() * len];
    for ((o, _), x) in obs.iter().zip(flat.chunks_mut(len)) {
        Encoding::V2.encode(o, x).unwrap();
    }
    for (tokens, seed) in [
        (engine::tile::TileSet::FourPlayer, 21),
        (engine::tile::TileSet::Sanma, 22),
    ] {
        let cfg = ModelConfig {
            layers: 1,
            d_model: 32,
            heads: 4,
            ff: 64,
            tokens,
        };
        let w = Weights::random_for(cfg, Encoding::V2, seed).unwrap();
        let dir = common::scratch(&format!("parity_v2_{seed}"));
        let path = dir.join("model.onnx");
        let mut sidecar = Sidecar::new(cfg, "tenhou-sanma", "test", 0, "parity test");
        sidecar.encoding_version = 2;
        export(&w, &sidecar, &path).unwrap();
        let advisor = Advisor::load(&path).unwrap().tract_only();
        assert_eq!(advisor.encoding(), Some(Encoding::V2));
        let actions = Encoding::V2.policy_actions();
        let mut max_logit = 0f32;
        let mut riichi_seen = 0usize;
        for (chunk, rows) in flat.chunks(64 * len).zip(obs.chunks(64)) {
            let b = chunk.len() / len;
            let (logits, values) = advisor.evaluate(chunk).unwrap();
            assert_eq!((logits.len(), values.len()), (b * actions, b));
            for i in 0..b {
                let r = reference::forward(&w, &chunk[i * len..(i + 1) * len]).unwrap();
                assert_eq!(r.logits.len(), actions);
                for (a, b) in r.logits.iter().zip(&logits[i * actions..(i + 1) * actions]) {
                    max_logit = max_logit.max((a - b).abs());
                }
                assert!((r.value - values[i]).abs() <= 1e-4);
                // Every legal riichi action has a real logit (not the absent one).
                for a in &rows[i].1 {
                    if matches!(a, engine::game::Action::Riichi(_)) {
                        riichi_seen += 1;
                        assert!(r.logits[a.index()] > -1e8, "{a:?}");
                    }
                }
            }
        }
        assert!(max_logit <= 1e-4, "{max_logit}");
        assert!(riichi_seen > 0, "no riichi decision among the observations");
        // v1 input is refused by a v2 model.
        assert!(advisor
            .evaluate(&vec![0f32; engine::encode::ENCODED_LEN])
            .is_err());
    }
}
