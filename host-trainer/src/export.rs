//! Checkpoint → ONNX export (feature `train`: the checkpoint types live in the trainer).
//!
//! [`export_checkpoint`] reads a run folder's `checkpoint.bin` (or a checkpoint file),
//! converts its [`ParamSnapshot`] into plain [`inference::Weights`] (the tch `VarStore`
//! names and row-major data are the inference crate's names and layout; shapes become
//! `usize`), writes `NAME.onnx` plus its JSON sidecar with the run's provenance, and
//! loads the result back with [`inference::Advisor`] as a self-check.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use inference::{Advisor, Sidecar, Tensor, Weights};

use crate::train::checkpoint::Checkpoint;
use crate::train::model::ParamSnapshot;
use crate::train::run::{RunInfo, CHECKPOINT_FILE, CONFIG_FILE};
use crate::train::TrainConfig;

/// Converts a trainer parameter snapshot into validated inference weights.
///
/// Fails (never panics) on negative sizes, a negative dimension, a tensor whose value
/// count does not match its shape, missing or extra tensors, or non-finite values.
pub fn snapshot_to_weights(s: &ParamSnapshot) -> Result<Weights> {
    let m = s.model;
    let size = |v: i64, what: &str| -> Result<usize> {
        usize::try_from(v).with_context(|| format!("model {what} {v} is negative"))
    };
    let config = inference::ModelConfig {
        layers: size(m.layers, "layers")?,
        d_model: size(m.d_model, "d_model")?,
        heads: size(m.heads, "heads")?,
        ff: size(m.ff, "ff")?,
        tokens: m.tokens,
    };
    let tensors = s
        .tensors
        .iter()
        .map(|nt| -> Result<(String, Tensor)> {
            let shape = nt
                .shape
                .iter()
                .map(|&d| usize::try_from(d))
                .collect::<std::result::Result<Vec<usize>, _>>()
                .with_context(|| format!("tensor {:?} has shape {:?}", nt.name, nt.shape))?;
            Ok((
                nt.name.clone(),
                Tensor {
                    shape,
                    data: nt.data.clone(),
                },
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    Weights::new(config, s.encoding_version, tensors)
        .context("the checkpoint's parameters do not form a valid model")
}

/// Where a checkpoint came from: the checkpoint file, its run folder and that run's
/// `config.json` (when present and readable).
#[derive(Debug)]
pub struct CheckpointSource {
    /// The checkpoint file.
    pub file: PathBuf,
    /// The run id: the run folder's name (`unknown` when it has none).
    pub run_id: String,
    /// The run's training configuration, if its `config.json` could be read.
    pub config: Option<TrainConfig>,
}

impl CheckpointSource {
    /// Resolves `path`: a run folder (its `checkpoint.bin`) or a checkpoint file (its
    /// parent folder is taken as the run folder).
    pub fn resolve(path: &Path) -> Result<CheckpointSource> {
        let (file, run_dir) = if path.is_dir() {
            (path.join(CHECKPOINT_FILE), path.to_path_buf())
        } else {
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_path_buf();
            (path.to_path_buf(), parent)
        };
        if !file.exists() {
            bail!("no checkpoint at {}", file.display());
        }
        let run_id = run_dir
            .canonicalize()
            .unwrap_or(run_dir.clone())
            .file_name()
            .map_or("unknown".to_string(), |n| n.to_string_lossy().into_owned());
        let config = std::fs::read_to_string(run_dir.join(CONFIG_FILE))
            .ok()
            .and_then(|t| serde_json::from_str::<RunInfo>(&t).ok())
            .map(|info| info.config);
        Ok(CheckpointSource {
            file,
            run_id,
            config,
        })
    }
}

/// What [`export_checkpoint`] wrote.
#[derive(Debug)]
pub struct ExportReport {
    /// The ONNX file.
    pub onnx: PathBuf,
    /// Its JSON sidecar.
    pub sidecar: PathBuf,
    /// Size of the ONNX file in bytes.
    pub onnx_bytes: u64,
    /// Size of the sidecar in bytes.
    pub sidecar_bytes: u64,
    /// The sidecar as written.
    pub meta: Sidecar,
    /// Scalar parameters exported.
    pub parameters: usize,
}

/// Exports the checkpoint at `checkpoint` (run folder or file) to `out` (`.onnx`) and
/// `out` with extension `.json` (sidecar), then loads both back with
/// [`Advisor::load`] as a self-check.
///
/// `rules` overrides the rules preset; otherwise the run's `config.json` gives it, or
/// the trainer's default preset when there is no readable `config.json`. Missing,
/// truncated or corrupt checkpoints are errors that say so.
pub fn export_checkpoint(
    checkpoint: &Path,
    out: &Path,
    rules: Option<&str>,
) -> Result<ExportReport> {
    let src = CheckpointSource::resolve(checkpoint)?;
    let ck = Checkpoint::load(&src.file)?;
    let weights = snapshot_to_weights(&ck.params)?;
    let rules = match (rules, &src.config) {
        (Some(r), _) => r.to_string(),
        (None, Some(c)) => c.rules.clone(),
        (None, None) => TrainConfig::default().rules,
    };
    let preset = inference::position::rules_preset(&rules)
        .with_context(|| format!("rules preset {rules:?}"))?;
    if !weights.encoding().fits(&preset) {
        bail!(
            "{rules:?} is a riichi preset: a model of encoding version {} cannot declare \
             riichi or kita; export it for sanma or four-player (a model trained on a \
             riichi preset has version 2)",
            weights.encoding_version()
        );
    }
    let tokens = weights.config().tokens;
    if preset.tile_set.tiles().any(|t| !tokens.contains(t)) {
        bail!(
            "the model has tokens for the {tokens:?} tile set only and cannot play \
             {rules:?} (its tile set is {:?}); export it for rules with that tile set",
            preset.tile_set
        );
    }
    let mut meta = Sidecar::new(
        weights.config(),
        &rules,
        &src.run_id,
        ck.params.version,
        concat!("host-trainer ", env!("CARGO_PKG_VERSION"), " export"),
    );
    meta.encoding_version = weights.encoding_version();
    inference::onnx_export::export(&weights, &meta, out)
        .with_context(|| format!("exporting to {}", out.display()))?;
    let advisor = Advisor::load(out).with_context(|| {
        format!(
            "self-check: the exported model {} does not load",
            out.display()
        )
    })?;
    if advisor.sidecar() != Some(&meta) {
        bail!("self-check: the sidecar read back differs from the one written");
    }
    let sidecar = Sidecar::path_for(out);
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    Ok(ExportReport {
        onnx_bytes: size(out),
        sidecar_bytes: size(&sidecar),
        onnx: out.to_path_buf(),
        sidecar,
        parameters: weights.config().parameter_count(),
        meta,
    })
}
