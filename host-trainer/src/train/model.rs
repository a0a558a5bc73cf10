//! The actor-critic: a transformer encoder over the observation tokens.
//!
//! ```text
//! x: [B, 35, F] (engine::encode; F = 36 in v1, 48 in v2) ──rows of the token set──▶
//!   [B, T, F] ──Linear(F→d)──▶ + learned token embedding (its T rows of [35, d])
//!   ──▶ n × pre-LN block (multi-head self-attention, GELU feed-forward) ──▶ LayerNorm
//!   h: [B, T, d]       T = 35 (all tile types) or 28 (the 27 sanma types + global)
//! tile head   Linear(d→4) on the T − 1 tile tokens → [B, T − 1, 4] → transposed to
//!             [B, 4, T − 1] (→ [B, 4, 34], absent types MASKED_LOGIT) → [B, 4·34] =
//!             logits of Discard(t), ClosedKan(t), AddedKan(t), Chi(t)
//!             (action indices 0..136, the engine's order)
//! call head   Linear(d→5) on the global token → logits of Tsumo, Ron, Pon, OpenKan,
//!             Pass (indices 136..141)
//! critic      Linear(d→d) → GELU → Linear(d→1) on the global token → value [B]
//! ```
//!
//! An encoding-v2 model (the riichi presets) has one more tile-head output, the logit
//! of `Riichi(t)` (indices 141..175), and two more call-head outputs, `Kita` (175) and
//! `NineTerminals` (176): 177 logits in the engine's order (see [`head_widths`]).
//!
//! So every action of the engine's 141-index space has one logit, produced by the token
//! it concerns: tile-specific actions by their tile's token, the claim decisions by the
//! global token (which attends to the pending tile's token). Illegal actions are masked
//! to [`MASKED_LOGIT`] before any softmax, so they get probability 0 and are never
//! sampled nor chosen greedily (see [`masked_logits`]).

use anyhow::{bail, Context, Result};
use engine::encode::{Encoding, NUM_TILE_TOKENS, NUM_TOKENS};
use engine::game::POLICY_ACTIONS_V1;
use engine::tile::TileSet;
use serde::{Deserialize, Serialize};
use tch::nn;
use tch::{Device, Kind, Tensor};

/// The logit given to illegal actions (finite, so that `p · log p` stays 0, not NaN).
pub const MASKED_LOGIT: f64 = -1e9;

/// Model shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelConfig {
    /// Transformer layers.
    pub layers: i64,
    /// Width.
    pub d_model: i64,
    /// Attention heads.
    pub heads: i64,
    /// Feed-forward width.
    pub ff: i64,
    /// The tile types that get a token, the global token after them (`FourPlayer`: all
    /// 34, every model before this field; `Sanma`: the 27 of the sanma set). Parameter
    /// shapes do not depend on it; see `inference::ModelConfig::tokens`.
    pub tokens: TileSet,
}

impl ModelConfig {
    /// Checks the shape is buildable.
    pub fn validate(&self) -> Result<()> {
        if self.layers < 0 || self.d_model <= 0 || self.heads <= 0 || self.ff <= 0 {
            bail!("model sizes must be positive: {self:?}");
        }
        if self.d_model % self.heads != 0 {
            bail!(
                "heads ({}) must divide d_model ({})",
                self.heads,
                self.d_model
            );
        }
        Ok(())
    }
}

#[derive(Debug)]
struct Block {
    ln1: nn::LayerNorm,
    qkv: nn::Linear,
    proj: nn::Linear,
    ln2: nn::LayerNorm,
    ff1: nn::Linear,
    ff2: nn::Linear,
    heads: i64,
}

impl Block {
    fn new(p: nn::Path, cfg: &ModelConfig) -> Block {
        let d = cfg.d_model;
        Block {
            ln1: nn::layer_norm(&p / "ln1", vec![d], Default::default()),
            qkv: nn::linear(&p / "qkv", d, 3 * d, Default::default()),
            proj: nn::linear(&p / "proj", d, d, Default::default()),
            ln2: nn::layer_norm(&p / "ln2", vec![d], Default::default()),
            ff1: nn::linear(&p / "ff1", d, cfg.ff, Default::default()),
            ff2: nn::linear(&p / "ff2", cfg.ff, d, Default::default()),
            heads: cfg.heads,
        }
    }

    fn forward(&self, x: &Tensor) -> Tensor {
        let (b, t, d) = x.size3().unwrap_or((1, 1, 1));
        let dh = d / self.heads;
        let qkv = x
            .apply(&self.ln1)
            .apply(&self.qkv)
            .view([b, t, 3, self.heads, dh])
            .permute([2, 0, 3, 1, 4]);
        let (q, k, v) = (qkv.get(0), qkv.get(1), qkv.get(2));
        // softmax(q·kᵀ / √dh)·v written out: libtorch's fused
        // `scaled_dot_product_attention` (its CPU flash kernel, with scalar `exp`) was
        // measured slower at these sizes (28–35 tokens, head width 16).
        let att = (q.matmul(&k.transpose(-2, -1)) / (dh as f64).sqrt()).softmax(-1, Kind::Float);
        let y = att
            .matmul(&v)
            .transpose(1, 2)
            .reshape([b, t, d])
            .apply(&self.proj);
        let x = x + y;
        let y = x
            .apply(&self.ln2)
            .apply(&self.ff1)
            .gelu("none")
            .apply(&self.ff2);
        x + y
    }
}

/// The actor-critic network (see the module docs).
#[derive(Debug)]
pub struct PolicyNet {
    /// Its shape.
    pub config: ModelConfig,
    input: nn::Linear,
    token_embedding: Tensor,
    blocks: Vec<Block>,
    norm: nn::LayerNorm,
    tile_head: nn::Linear,
    call_head: nn::Linear,
    value1: nn::Linear,
    value2: nn::Linear,
    /// With a reduced token set: the encoding rows read (tile types, then the global
    /// token) and, per tile type, its token's column or the padding column `n`.
    compact: Option<(Tensor, Tensor)>,
    /// The observation encoding it reads, which also fixes its logits.
    pub encoding: Encoding,
}

/// Tile-token actions per tile in every version (discard, closed kan, added kan, chi).
const TILE_ACTIONS: i64 = 4;
/// Global-token actions in every version (tsumo, ron, pon, open kan, pass).
const CALL_ACTIONS: i64 = (POLICY_ACTIONS_V1 - TILE_ACTIONS as usize * NUM_TILE_TOKENS) as i64;

/// Head widths `(per tile token, global token)` of a model of `encoding`: v2 adds
/// `Riichi(t)` to the tile tokens and `Kita`, `NineTerminals` to the global token.
pub const fn head_widths(encoding: Encoding) -> (i64, i64) {
    match encoding {
        Encoding::V1 => (TILE_ACTIONS, CALL_ACTIONS),
        Encoding::V2 => (TILE_ACTIONS + 1, CALL_ACTIONS + 2),
    }
}

impl PolicyNet {
    /// Creates the variables under `p` (randomly initialised) for observations encoded
    /// in `encoding`.
    pub fn new(p: &nn::Path, config: ModelConfig, encoding: Encoding) -> Result<PolicyNet> {
        config.validate()?;
        let d = config.d_model;
        let (tile_width, call_width) = head_widths(encoding);
        let features = encoding.token_features() as i64;
        let blocks = (0..config.layers)
            .map(|i| Block::new(p / format!("block{i}"), &config))
            .collect();
        Ok(PolicyNet {
            config,
            input: nn::linear(p / "input", features, d, Default::default()),
            token_embedding: p.var(
                "token_embedding",
                &[NUM_TOKENS as i64, d],
                nn::Init::Randn {
                    mean: 0.0,
                    stdev: 0.02,
                },
            ),
            blocks,
            norm: nn::layer_norm(p / "norm", vec![d], Default::default()),
            tile_head: nn::linear(p / "tile_head", d, tile_width, Default::default()),
            call_head: nn::linear(p / "call_head", d, call_width, Default::default()),
            value1: nn::linear(p / "value1", d, d, Default::default()),
            value2: nn::linear(p / "value2", d, 1, Default::default()),
            compact: compact_indices(config.tokens, p.device()),
            encoding,
        })
    }

    /// Raw logits `[B, A]` and values `[B]` for observations `x: [B, 35, F]` (v1: A = 141,
    /// F = 36; v2: A = 177, F = 48).
    pub fn forward(&self, x: &Tensor) -> (Tensor, Tensor) {
        let b = x.size().first().copied().unwrap_or(1);
        let mut h = match &self.compact {
            None => x.apply(&self.input) + &self.token_embedding,
            Some((rows, _)) => {
                x.index_select(1, rows).apply(&self.input)
                    + self.token_embedding.index_select(0, rows)
            }
        };
        for blk in &self.blocks {
            h = blk.forward(&h);
        }
        let h = h.apply(&self.norm);
        let n = h.size()[1] - 1;
        let tiles = h.narrow(1, 0, n);
        let global = h.select(1, n);
        let (tile_width, _) = head_widths(self.encoding);
        let mut tile_logits = tiles.apply(&self.tile_head).permute([0, 2, 1]);
        if let Some((_, columns)) = &self.compact {
            // [B, w, n] → [B, w, n + 1] (a column of MASKED_LOGIT) → [B, w, 34].
            let pad = Tensor::full([b, tile_width, 1], MASKED_LOGIT, (Kind::Float, h.device()));
            tile_logits = Tensor::cat(&[tile_logits, pad], 2).index_select(2, columns);
        }
        let tiles34 = NUM_TILE_TOKENS as i64;
        let first = tile_logits
            .narrow(1, 0, TILE_ACTIONS)
            .reshape([b, TILE_ACTIONS * tiles34]);
        let call_logits = global.apply(&self.call_head);
        let logits = match self.encoding {
            Encoding::V1 => Tensor::cat(&[first, call_logits], 1),
            // The engine's order: 136 tile actions, 5 calls, Riichi(t) ×34, Kita, nine.
            Encoding::V2 => Tensor::cat(
                &[
                    first,
                    call_logits.narrow(1, 0, CALL_ACTIONS),
                    tile_logits.select(1, TILE_ACTIONS),
                    call_logits.narrow(1, CALL_ACTIONS, 2),
                ],
                1,
            ),
        };
        let value = global
            .apply(&self.value1)
            .gelu("none")
            .apply(&self.value2)
            .squeeze_dim(-1);
        (logits, value)
    }
}

/// The index tensors of a reduced token set (`None` for all 34 types): the encoding rows
/// read, and for each tile type the column of its token (or `n`, the padding column).
fn compact_indices(tokens: TileSet, device: Device) -> Option<(Tensor, Tensor)> {
    if tokens.num_types() == NUM_TILE_TOKENS {
        return None;
    }
    let mut rows: Vec<i64> = tokens.tiles().map(|t| t.index() as i64).collect();
    let n = rows.len() as i64;
    let mut columns = vec![n; NUM_TILE_TOKENS];
    for (j, &r) in rows.iter().enumerate() {
        columns[r as usize] = j as i64;
    }
    rows.push(NUM_TILE_TOKENS as i64);
    Some((
        Tensor::from_slice(&rows).to_device(device),
        Tensor::from_slice(&columns).to_device(device),
    ))
}

/// Logits with every action whose `mask` entry is 0 (or false) set to [`MASKED_LOGIT`].
pub fn masked_logits(logits: &Tensor, mask: &Tensor) -> Tensor {
    let legal = mask.to_kind(Kind::Bool);
    logits.masked_fill(&legal.logical_not(), MASKED_LOGIT)
}

/// A batch of flat encodings as the `[B, 35, F]` input tensor.
pub fn obs_tensor(flat: &[f32], encoding: Encoding, device: Device) -> Result<Tensor> {
    let len = encoding.encoded_len();
    if flat.len() % len != 0 {
        bail!(
            "observation buffer of {} floats is not a multiple of {len}",
            flat.len()
        );
    }
    let b = (flat.len() / len) as i64;
    let f = encoding.token_features() as i64;
    Ok(Tensor::from_slice(flat)
        .view([b, NUM_TOKENS as i64, f])
        .to_device(device))
}

/// One named parameter as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedTensor {
    /// Variable name in the VarStore.
    pub name: String,
    /// Shape.
    pub shape: Vec<i64>,
    /// Values, row-major.
    pub data: Vec<f32>,
}

/// Copies a float tensor into a [`NamedTensor`].
pub fn named(name: &str, t: &Tensor) -> Result<NamedTensor> {
    let c = t
        .detach()
        .to_device(Device::Cpu)
        .to_kind(Kind::Float)
        .contiguous();
    let data = Vec::<f32>::try_from(c.flatten(0, -1)).context("tensor to vec")?;
    Ok(NamedTensor {
        name: name.to_string(),
        shape: t.size(),
        data,
    })
}

/// A versioned copy of all model parameters: the message the trainer sends to workers
/// (postcard-serialized) and the model part of a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamSnapshot {
    /// Parameter version (the learner's update count when taken).
    pub version: u64,
    /// Encoding the model expects.
    pub encoding_version: u32,
    /// Model shape.
    pub model: ModelConfig,
    /// Every variable, sorted by name.
    pub tensors: Vec<NamedTensor>,
}

impl ParamSnapshot {
    /// Takes a snapshot of `vs`, a model of `encoding`.
    pub fn take(
        vs: &nn::VarStore,
        model: ModelConfig,
        encoding: Encoding,
        version: u64,
    ) -> Result<ParamSnapshot> {
        let mut vars: Vec<(String, Tensor)> = vs.variables().into_iter().collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        let tensors = vars
            .iter()
            .map(|(n, t)| named(n, t))
            .collect::<Result<_>>()?;
        Ok(ParamSnapshot {
            version,
            encoding_version: encoding.version(),
            model,
            tensors,
        })
    }

    /// The encoding of the snapshot's model (an error for a version this build does not
    /// write).
    pub fn encoding(&self) -> Result<Encoding> {
        Encoding::from_version(self.encoding_version).with_context(|| {
            format!(
                "parameters are for encoding version {}, which this build does not know \
                 (it knows 1 and 2)",
                self.encoding_version
            )
        })
    }

    /// Copies the snapshot into `vs`, which must hold a model of the same shape and
    /// encoding `encoding`.
    pub fn load_into(&self, vs: &nn::VarStore, encoding: Encoding) -> Result<()> {
        if self.encoding()? != encoding {
            bail!(
                "parameters are for encoding version {}, the model reads version {}",
                self.encoding_version,
                encoding.version()
            );
        }
        let vars = vs.variables();
        if vars.len() != self.tensors.len() {
            bail!(
                "snapshot has {} tensors, the model {}",
                self.tensors.len(),
                vars.len()
            );
        }
        tch::no_grad(|| -> Result<()> {
            for nt in &self.tensors {
                let Some(var) = vars.get(&nt.name) else {
                    bail!("snapshot tensor {:?} is not in the model", nt.name)
                };
                if var.size() != nt.shape {
                    bail!(
                        "tensor {:?}: shape {:?} in the snapshot, {:?} in the model",
                        nt.name,
                        nt.shape,
                        var.size()
                    );
                }
                let numel: i64 = nt.shape.iter().product();
                if numel as usize != nt.data.len() {
                    bail!(
                        "tensor {:?}: {} values for shape {:?}",
                        nt.name,
                        nt.data.len(),
                        nt.shape
                    );
                }
                let src = Tensor::from_slice(&nt.data)
                    .view(nt.shape.as_slice())
                    .to_device(var.device());
                let mut var = var.shallow_clone();
                var.f_copy_(&src).context("copying a parameter")?;
            }
            Ok(())
        })
    }

    /// postcard bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        postcard::to_allocvec(self).context("serializing parameters")
    }

    /// From postcard bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<ParamSnapshot> {
        postcard::from_bytes(bytes).context("deserializing parameters (truncated or corrupt)")
    }
}

/// A model with its own VarStore on `device`.
pub struct OwnedNet {
    /// The variables.
    pub vs: nn::VarStore,
    /// The network.
    pub net: PolicyNet,
}

impl OwnedNet {
    /// A freshly initialised model.
    pub fn new(config: ModelConfig, encoding: Encoding, device: Device) -> Result<OwnedNet> {
        let vs = nn::VarStore::new(device);
        let net = PolicyNet::new(&vs.root(), config, encoding)?;
        Ok(OwnedNet { vs, net })
    }

    /// A model holding the snapshot's parameters.
    pub fn from_snapshot(s: &ParamSnapshot, device: Device) -> Result<OwnedNet> {
        let encoding = s.encoding()?;
        let m = OwnedNet::new(s.model, encoding, device)?;
        s.load_into(&m.vs, encoding)?;
        Ok(m)
    }
}
