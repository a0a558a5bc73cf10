//! The JSON sidecar written next to every exported model (`NAME.onnx` → `NAME.json`).
//!
//! ```json
//! {
//!   "format": "mahjong-policy/1",
//!   "encoding_version": 1,
//!   "rules": "sanma",
//!   "model": { "layers": 2, "d_model": 64, "heads": 4, "ff": 128 },
//!   "run_id": "runs/2026-11-30-a",
//!   "parameter_version": 1200,
//!   "created_by": "host-trainer 0.1.0 export",
//!   "onnx_opset": 17
//! }
//! ```
//! Loading refuses unknown formats, missing fields and an `encoding_version` the engine
//! does not write (`engine::encode::Encoding`: 1 and 2).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::weights::ModelConfig;

/// The ONNX opset the exported graph uses (recorded in every sidecar).
pub const OPSET: i64 = 17;

/// The value of [`Sidecar::format`] this crate writes and reads.
pub const SIDECAR_FORMAT: &str = "mahjong-policy/1";

/// What a model file was trained for and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// Always [`SIDECAR_FORMAT`].
    pub format: String,
    /// The observation encoding the model expects (`engine::encode::ENCODING_VERSION`).
    pub encoding_version: u32,
    /// The rules preset it was trained on (`sanma`, `four-player`).
    pub rules: String,
    /// The model shape.
    pub model: ModelConfig,
    /// The training run it came from (free text, usually the run directory).
    pub run_id: String,
    /// The parameter version (learner update count) of the exported parameters.
    pub parameter_version: u64,
    /// The program that wrote it.
    pub created_by: String,
    /// The ONNX opset of the graph.
    pub onnx_opset: i64,
}

impl Sidecar {
    /// A sidecar for a model of shape `model` exported now by this crate's exporter,
    /// for encoding v1 (set `encoding_version` for another).
    pub fn new(
        model: ModelConfig,
        rules: &str,
        run_id: &str,
        parameter_version: u64,
        created_by: &str,
    ) -> Sidecar {
        Sidecar {
            format: SIDECAR_FORMAT.into(),
            encoding_version: engine::encode::ENCODING_VERSION,
            rules: rules.into(),
            model,
            run_id: run_id.into(),
            parameter_version,
            created_by: created_by.into(),
            onnx_opset: OPSET,
        }
    }

    /// The sidecar path of a model path: the same name with extension `.json`.
    pub fn path_for(model: &Path) -> PathBuf {
        model.with_extension("json")
    }

    /// The fields as ONNX `metadata_props` (key, value) pairs.
    pub fn metadata(&self) -> Vec<(String, String)> {
        vec![
            ("mahjong.format".into(), self.format.clone()),
            (
                "mahjong.encoding_version".into(),
                self.encoding_version.to_string(),
            ),
            ("mahjong.rules".into(), self.rules.clone()),
            ("mahjong.run_id".into(), self.run_id.clone()),
            (
                "mahjong.parameter_version".into(),
                self.parameter_version.to_string(),
            ),
            ("mahjong.created_by".into(), self.created_by.clone()),
        ]
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        // Serializing plain strings and integers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parses and validates sidecar JSON (`path` only names the source in errors).
    pub fn from_json(text: &str, path: &Path) -> Result<Sidecar> {
        let s: Sidecar = serde_json::from_str(text).map_err(|e| Error::Sidecar {
            path: path.into(),
            detail: format!("not a valid sidecar: {e}"),
        })?;
        if s.format != SIDECAR_FORMAT {
            return Err(Error::Sidecar {
                path: path.into(),
                detail: format!("format {:?}, expected {SIDECAR_FORMAT:?}", s.format),
            });
        }
        s.model.validate().map_err(|e| Error::Sidecar {
            path: path.into(),
            detail: e.to_string(),
        })?;
        Ok(s)
    }

    /// Fails with [`Error::EncodingMismatch`] unless the model's encoding is one the
    /// engine writes (`engine::encode::Encoding`: versions 1 and 2).
    pub fn check_encoding(&self, path: &Path) -> Result<()> {
        self.encoding()
            .map(|_| ())
            .map_err(|_| Error::EncodingMismatch {
                source_name: path.display().to_string(),
                model: self.encoding_version,
                engine: engine::encode::Encoding::V2.version(),
            })
    }

    /// The model's encoding ([`Error::EncodingMismatch`] for a version the engine does
    /// not write).
    pub fn encoding(&self) -> Result<engine::encode::Encoding> {
        crate::weights::encoding_of(self.encoding_version, "sidecar")
    }

    /// Reads, parses and validates `path`, including the encoding version.
    pub fn load(path: &Path) -> Result<Sidecar> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.into(),
            action: "reading the model sidecar",
            source,
        })?;
        let s = Sidecar::from_json(&text, path)?;
        s.check_encoding(path)?;
        Ok(s)
    }

    /// Writes `path` as pretty JSON.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_json() + "\n").map_err(|source| Error::Io {
            path: path.into(),
            action: "writing",
            source,
        })
    }
}
