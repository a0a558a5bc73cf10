//! The model's shape and parameters as plain data, independent of any ML framework.
//!
//! Parameter names follow the trainer's tch `VarStore` (`input.weight`,
//! `block0.qkv.bias`, …); a linear layer's weight is `[out, in]` as in PyTorch. The
//! trainer converts its `ParamSnapshot` into [`Weights`] (names and row-major data are
//! copied unchanged, shapes become `usize`).

use std::collections::BTreeMap;

use engine::encode::{Encoding, NUM_TILE_TOKENS, NUM_TOKENS};
use engine::game::POLICY_ACTIONS_V1;
use engine::rng::Rng;
use engine::tile::TileSet;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Tile-token actions per tile: discard, closed kan, added kan, chi.
pub const TILE_ACTIONS: usize = 4;
/// Global-token actions: tsumo, ron, pon, open kan, pass.
pub const CALL_ACTIONS: usize = POLICY_ACTIONS_V1 - TILE_ACTIONS * NUM_TILE_TOKENS;

/// Head widths `(per tile token, global token)` of a model of `encoding`: v1's
/// [`TILE_ACTIONS`] and [`CALL_ACTIONS`]; v2 adds `Riichi(t)` to each tile token and
/// `Kita`, `NineTerminals` to the global token (the trainer's `head_widths`).
pub const fn head_widths(encoding: Encoding) -> (usize, usize) {
    match encoding {
        Encoding::V1 => (TILE_ACTIONS, CALL_ACTIONS),
        Encoding::V2 => (TILE_ACTIONS + 1, CALL_ACTIONS + 2),
    }
}

/// The encoding of version `version`, or [`Error::EncodingMismatch`] naming `source`.
pub fn encoding_of(version: u32, source: &str) -> Result<Encoding> {
    Encoding::from_version(version).ok_or_else(|| Error::EncodingMismatch {
        source_name: source.into(),
        model: version,
        engine: Encoding::V2.version(),
    })
}
/// The heads' outputs in the engine's action order: Discard/ClosedKan/AddedKan/Chi ×
/// 34, the 5 calls, then (v2) Riichi × 34, Kita, NineTerminals. `rows` are the token
/// rows read (the global token last); `tiles` is `[rows − 1, tile width]`, `calls` the
/// global token's head; tile types without a token get [`ABSENT_LOGIT`].
pub(crate) fn place_logits(
    encoding: Encoding,
    rows: &[usize],
    tiles: &[f32],
    calls: &[f32],
) -> Vec<f32> {
    let (tile_width, call_width) = head_widths(encoding);
    let mut logits = vec![ABSENT_LOGIT; encoding.policy_actions()];
    let first_calls = TILE_ACTIONS * NUM_TILE_TOKENS;
    let riichi = first_calls + CALL_ACTIONS;
    for (tok, &tile) in rows[..rows.len() - 1].iter().enumerate() {
        for k in 0..tile_width {
            let at = if k < TILE_ACTIONS {
                k * NUM_TILE_TOKENS + tile
            } else {
                riichi + tile
            };
            logits[at] = tiles[tok * tile_width + k];
        }
    }
    logits[first_calls..riichi].copy_from_slice(&calls[..CALL_ACTIONS]);
    if call_width > CALL_ACTIONS {
        let extra = riichi + NUM_TILE_TOKENS;
        logits[extra..extra + call_width - CALL_ACTIONS].copy_from_slice(&calls[CALL_ACTIONS..]);
    }
    logits
}

/// Epsilon of every LayerNorm (PyTorch's default).
pub const LAYER_NORM_EPS: f32 = 1e-5;

/// The transformer's shape (the trainer's `ModelConfig`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelConfig {
    /// Transformer blocks.
    pub layers: usize,
    /// Width of every token.
    pub d_model: usize,
    /// Attention heads (divides `d_model`).
    pub heads: usize,
    /// Hidden width of each block's feed-forward layer.
    pub ff: usize,
    /// The tile types that get a token (the global token follows them):
    /// `FourPlayer` = all 34 (every model made before this field existed), `Sanma` =
    /// the 27 types of the sanma set, which leaves out 7 tokens that are always empty
    /// under sanma rules (a fifth of the compute). The parameters are the same either
    /// way (`token_embedding` keeps a row per encoding row); the logits of a type
    /// without a token are [`ABSENT_LOGIT`].
    #[serde(default = "all_tile_tokens")]
    pub tokens: TileSet,
}

/// The token set of a model whose sidecar predates [`ModelConfig::tokens`].
fn all_tile_tokens() -> TileSet {
    TileSet::FourPlayer
}

/// The logit of a tile action whose type has no token: the trainer's masked logit, so
/// the action gets probability 0 even before the legal mask.
pub const ABSENT_LOGIT: f32 = -1e9;

impl Default for ModelConfig {
    /// The trainer's default shape: 2 layers, width 64, 4 heads, feed-forward 128.
    fn default() -> Self {
        ModelConfig {
            layers: 2,
            d_model: 64,
            heads: 4,
            ff: 128,
            tokens: TileSet::FourPlayer,
        }
    }
}

impl ModelConfig {
    /// Checks that the shape is buildable (positive sizes, heads divide the width).
    pub fn validate(&self) -> Result<()> {
        if self.d_model == 0 || self.heads == 0 || self.ff == 0 {
            return Err(Error::Weights(format!(
                "model sizes must be positive: {self:?}"
            )));
        }
        if self.d_model % self.heads != 0 {
            return Err(Error::Weights(format!(
                "heads ({}) must divide d_model ({})",
                self.heads, self.d_model
            )));
        }
        if self.layers > 64 || self.d_model > 4096 || self.ff > 16384 {
            return Err(Error::Weights(format!("model too large: {self:?}")));
        }
        Ok(())
    }

    /// The rows of the encoding the model reads, in order: the tile types of
    /// [`ModelConfig::tokens`] by index, then the global token.
    pub fn token_rows(&self) -> Vec<usize> {
        let mut rows: Vec<usize> = self.tokens.tiles().map(|t| t.index()).collect();
        rows.push(engine::encode::GLOBAL_TOKEN);
        rows
    }

    /// Whether every encoding row is a token (no gather needed).
    pub fn all_tokens(&self) -> bool {
        self.tokens.num_types() == NUM_TILE_TOKENS
    }

    /// Every parameter an encoding-v1 model has, with its shape, in name order.
    pub fn parameter_shapes(&self) -> Vec<(String, Vec<usize>)> {
        self.parameter_shapes_for(Encoding::V1)
    }

    /// Every parameter a model of `encoding` has, with its shape, in name order.
    pub fn parameter_shapes_for(&self, encoding: Encoding) -> Vec<(String, Vec<usize>)> {
        let d = self.d_model;
        let (tile_width, call_width) = head_widths(encoding);
        let mut v: Vec<(String, Vec<usize>)> = vec![
            ("input.weight".into(), vec![d, encoding.token_features()]),
            ("input.bias".into(), vec![d]),
            ("token_embedding".into(), vec![NUM_TOKENS, d]),
            ("norm.weight".into(), vec![d]),
            ("norm.bias".into(), vec![d]),
            ("tile_head.weight".into(), vec![tile_width, d]),
            ("tile_head.bias".into(), vec![tile_width]),
            ("call_head.weight".into(), vec![call_width, d]),
            ("call_head.bias".into(), vec![call_width]),
            ("value1.weight".into(), vec![d, d]),
            ("value1.bias".into(), vec![d]),
            ("value2.weight".into(), vec![1, d]),
            ("value2.bias".into(), vec![1]),
        ];
        for i in 0..self.layers {
            let p = |s: &str| format!("block{i}.{s}");
            v.extend([
                (p("ln1.weight"), vec![d]),
                (p("ln1.bias"), vec![d]),
                (p("qkv.weight"), vec![3 * d, d]),
                (p("qkv.bias"), vec![3 * d]),
                (p("proj.weight"), vec![d, d]),
                (p("proj.bias"), vec![d]),
                (p("ln2.weight"), vec![d]),
                (p("ln2.bias"), vec![d]),
                (p("ff1.weight"), vec![self.ff, d]),
                (p("ff1.bias"), vec![self.ff]),
                (p("ff2.weight"), vec![d, self.ff]),
                (p("ff2.bias"), vec![d]),
            ]);
        }
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Number of scalar parameters.
    pub fn parameter_count(&self) -> usize {
        self.parameter_shapes()
            .iter()
            .map(|(_, s)| s.iter().product::<usize>())
            .sum()
    }
}

/// One named parameter tensor, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tensor {
    /// Shape.
    pub shape: Vec<usize>,
    /// Values, row-major; `data.len()` is the product of `shape`.
    pub data: Vec<f32>,
}

/// A complete, validated set of parameters for one [`ModelConfig`].
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    config: ModelConfig,
    encoding_version: u32,
    tensors: BTreeMap<String, Tensor>,
}

impl Weights {
    /// Builds and validates weights: the encoding version must be one this build
    /// writes, every parameter of `config` under it must be present with the right shape
    /// and only finite values, and nothing else may be present.
    pub fn new(
        config: ModelConfig,
        encoding_version: u32,
        tensors: impl IntoIterator<Item = (String, Tensor)>,
    ) -> Result<Weights> {
        config.validate()?;
        let encoding = encoding_of(encoding_version, "weights")?;
        let tensors: BTreeMap<String, Tensor> = tensors.into_iter().collect();
        let expected = config.parameter_shapes_for(encoding);
        for (name, shape) in &expected {
            let t = tensors
                .get(name)
                .ok_or_else(|| Error::Weights(format!("missing tensor {name:?}")))?;
            if &t.shape != shape {
                return Err(Error::Weights(format!(
                    "tensor {name:?} has shape {:?}, the model needs {shape:?}",
                    t.shape
                )));
            }
            if t.data.len() != shape.iter().product::<usize>() {
                return Err(Error::Weights(format!(
                    "tensor {name:?}: {} values for shape {shape:?}",
                    t.data.len()
                )));
            }
            if let Some(i) = t.data.iter().position(|x| !x.is_finite()) {
                return Err(Error::Weights(format!(
                    "tensor {name:?}: value {i} is not finite"
                )));
            }
        }
        if let Some(extra) = tensors
            .keys()
            .find(|k| !expected.iter().any(|(n, _)| n == *k))
        {
            return Err(Error::Weights(format!(
                "unexpected tensor {extra:?} for model {config:?}"
            )));
        }
        Ok(Weights {
            config,
            encoding_version,
            tensors,
        })
    }

    /// Randomly initialised weights, a pure function of `(config, seed)`: linear
    /// weights uniform in `±1/√fan_in` (PyTorch's scale), biases and LayerNorm
    /// parameters perturbed around their usual values so that every parameter matters in
    /// parity tests. For tests and benchmarks. An encoding-v1 model.
    pub fn random(config: ModelConfig, seed: u64) -> Result<Weights> {
        Weights::random_for(config, Encoding::V1, seed)
    }

    /// [`Weights::random`] for a model of `encoding`.
    pub fn random_for(config: ModelConfig, encoding: Encoding, seed: u64) -> Result<Weights> {
        config.validate()?;
        let mut rng = Rng::new(seed);
        let mut uniform = |n: usize, scale: f32, offset: f32| -> Vec<f32> {
            (0..n)
                .map(|_| offset + scale * (2.0 * rng.next_f32() - 1.0))
                .collect()
        };
        let mut tensors = Vec::new();
        for (name, shape) in config.parameter_shapes_for(encoding) {
            let n = shape.iter().product::<usize>();
            let fan_in = *shape.last().unwrap_or(&1) as f32;
            let data = if name == "token_embedding" {
                uniform(n, 0.5, 0.0)
            } else if name.contains("ln") || name.starts_with("norm") {
                if name.ends_with("weight") {
                    uniform(n, 0.2, 1.0)
                } else {
                    uniform(n, 0.1, 0.0)
                }
            } else if name.ends_with("weight") {
                uniform(n, 1.0 / fan_in.sqrt(), 0.0)
            } else {
                uniform(n, 0.1, 0.0)
            };
            tensors.push((name, Tensor { shape, data }));
        }
        Weights::new(config, encoding.version(), tensors)
    }

    /// The model shape.
    pub fn config(&self) -> ModelConfig {
        self.config
    }

    /// The observation encoding these weights were trained for.
    pub fn encoding_version(&self) -> u32 {
        self.encoding_version
    }

    /// [`Weights::encoding_version`] as the encoding (validated by [`Weights::new`]).
    pub fn encoding(&self) -> Encoding {
        Encoding::from_version(self.encoding_version).unwrap_or(Encoding::V1)
    }

    /// The tensor `name` (every parameter of the config exists after validation).
    pub fn get(&self, name: &str) -> Result<&Tensor> {
        self.tensors
            .get(name)
            .ok_or_else(|| Error::Weights(format!("missing tensor {name:?}")))
    }

    /// All tensors by name.
    pub fn tensors(&self) -> &BTreeMap<String, Tensor> {
        &self.tensors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        let cfg = ModelConfig {
            layers: 1,
            d_model: 8,
            heads: 2,
            ff: 16,
            tokens: TileSet::Sanma,
        };
        let w = Weights::random(cfg, 1).unwrap();
        assert_eq!(w.tensors().len(), 13 + 12);
        let n: usize = w.tensors().values().map(|t| t.data.len()).sum();
        assert_eq!(n, cfg.parameter_count());
        let mut t: Vec<_> = w.tensors().clone().into_iter().collect();
        t.pop();
        assert!(Weights::new(cfg, 1, t.clone()).is_err());
        let mut bad = w.tensors().clone();
        bad.get_mut("input.bias").unwrap().data[0] = f32::NAN;
        assert!(Weights::new(cfg, 1, bad).is_err());
        let mut extra = w.tensors().clone();
        extra.insert(
            "x".into(),
            Tensor {
                shape: vec![1],
                data: vec![0.0],
            },
        );
        assert!(Weights::new(cfg, 1, extra).is_err());
        assert!(ModelConfig {
            layers: 1,
            d_model: 10,
            heads: 4,
            ff: 1,
            tokens: TileSet::FourPlayer,
        }
        .validate()
        .is_err());
        assert_eq!(Weights::random(cfg, 1).unwrap(), w);
    }
}
