//! Checkpoints: parameters, Adam state and progress in one file, written atomically.
//!
//! File layout: 8-byte magic `MJPPOCK2`, payload length (u64 LE), FNV-1a 64 checksum of
//! the payload (u64 LE), then the postcard-serialized [`Checkpoint`]. Files of layout 1
//! (`MJPPOCK1`, before the model shape had its token set and the oracle critic) still
//! load, as models with all 34 tile tokens and no oracle critic: postcard is not self-describing, so layout 1 has its own
//! structs ([`v1`]). A truncated or
//! corrupted file is rejected with an error that says so. Saving writes
//! `<file>.tmp`, syncs it, renames it over `<file>` and syncs the folder
//! ([`super::durable::write_atomic`]), so a killed run (or a power loss) always leaves
//! the previous or the new checkpoint, never a partial one.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::adam::AdamState;
use super::model::ParamSnapshot;
use super::oracle::OracleState;

const MAGIC: &[u8; 8] = b"MJPPOCK2";
const MAGIC_V1: &[u8; 8] = b"MJPPOCK1";

/// Training progress saved with a checkpoint.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// PPO updates done.
    pub update: u64,
    /// Samples (decisions) trained on.
    pub samples: u64,
    /// Self-play hands finished.
    pub hands: u64,
    /// Training seconds before this checkpoint (summed over resumed sessions).
    pub elapsed_s: f64,
    /// Consecutive evaluations above both thresholds.
    pub streak: u64,
    /// Evaluations done.
    pub evals: u64,
    /// Updates at which the random-bot threshold was first reached.
    pub first_random_pass: Option<u64>,
    /// Times the run was resumed.
    pub resumes: u64,
}

/// Everything needed to continue a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Model parameters (version = update count).
    pub params: ParamSnapshot,
    /// Optimizer state.
    pub adam: AdamState,
    /// Progress counters.
    pub progress: Progress,
    /// The oracle critic of an `--oracle-critic` run.
    pub oracle: Option<OracleState>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

impl Checkpoint {
    /// The file bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let payload = postcard::to_allocvec(self).context("serializing the checkpoint")?;
        let mut out = Vec::with_capacity(payload.len() + 24);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        Ok(out)
    }

    /// Parses file bytes, rejecting wrong, truncated or corrupted files.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint> {
        let v1 = bytes.get(..8) == Some(&MAGIC_V1[..]);
        if bytes.len() < 24 || (&bytes[..8] != MAGIC && !v1) {
            bail!("not a checkpoint file (bad magic or shorter than its header)");
        }
        let len = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
        let sum = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or([0; 8]));
        let payload = &bytes[24..];
        if payload.len() as u64 != len {
            bail!(
                "checkpoint truncated or padded: header says {len} payload bytes, file has {}",
                payload.len()
            );
        }
        if fnv1a(payload) != sum {
            bail!("checkpoint corrupted: checksum mismatch");
        }
        if v1 {
            let old: v1::Checkpoint =
                postcard::from_bytes(payload).context("checkpoint payload does not decode")?;
            return Ok(old.into());
        }
        postcard::from_bytes(payload).context("checkpoint payload does not decode")
    }

    /// Writes the checkpoint atomically and durably (temp file, sync, rename, folder sync).
    pub fn save(&self, path: &Path) -> Result<()> {
        super::durable::write_atomic(path, &self.to_bytes()?)
            .with_context(|| format!("saving the checkpoint {}", path.display()))
    }

    /// Reads a checkpoint file.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Checkpoint::from_bytes(&bytes).with_context(|| format!("loading {}", path.display()))
    }
}

/// Checkpoint layout 1 (`MJPPOCK1`): the same fields, with a model shape that had no
/// token set (every such model has a token for all 34 tile types).
mod v1 {
    use engine::tile::TileSet;
    use serde::Deserialize;

    use super::super::adam::AdamState;
    use super::super::model::{self, NamedTensor};
    use super::Progress;

    #[derive(Deserialize)]
    struct ModelConfig {
        layers: i64,
        d_model: i64,
        heads: i64,
        ff: i64,
    }

    #[derive(Deserialize)]
    struct ParamSnapshot {
        version: u64,
        encoding_version: u32,
        model: ModelConfig,
        tensors: Vec<NamedTensor>,
    }

    #[derive(Deserialize)]
    pub(super) struct Checkpoint {
        params: ParamSnapshot,
        adam: AdamState,
        progress: Progress,
    }

    impl From<Checkpoint> for super::Checkpoint {
        fn from(c: Checkpoint) -> Self {
            let m = c.params.model;
            super::Checkpoint {
                params: model::ParamSnapshot {
                    version: c.params.version,
                    encoding_version: c.params.encoding_version,
                    model: model::ModelConfig {
                        layers: m.layers,
                        d_model: m.d_model,
                        heads: m.heads,
                        ff: m.ff,
                        tokens: TileSet::FourPlayer,
                    },
                    tensors: c.params.tensors,
                },
                adam: c.adam,
                progress: c.progress,
                oracle: None,
            }
        }
    }
}
