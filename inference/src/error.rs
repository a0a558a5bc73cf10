//! The crate's error type: every failure names what it was doing and on which file.

use std::fmt;
use std::path::PathBuf;

/// Why exporting, loading or advising failed. Library code returns these; it never
/// panics on input.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done ("reading", "writing").
        action: &'static str,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The JSON sidecar is missing a field, is not JSON, or is inconsistent.
    Sidecar {
        /// The sidecar file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// The model was built for another observation encoding than this engine's.
    EncodingMismatch {
        /// Where the version came from (a sidecar path or "weights").
        source_name: String,
        /// The model's encoding version.
        model: u32,
        /// `engine::encode::ENCODING_VERSION`.
        engine: u32,
    },
    /// The ONNX file is not a valid model (corrupt, truncated, or of another shape).
    Model {
        /// The model file.
        path: PathBuf,
        /// What tract or the shape check reported.
        detail: String,
    },
    /// The weights do not fit the model configuration (missing, extra or misshapen
    /// tensors, or an invalid configuration).
    Weights(String),
    /// Running the model failed.
    Inference(String),
    /// A position (compact string or JSON) could not be turned into an observation.
    Position(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io {
                path,
                action,
                source,
            } => {
                write!(f, "{action} {}: {source}", path.display())
            }
            Error::Sidecar { path, detail } => {
                write!(f, "model sidecar {}: {detail}", path.display())
            }
            Error::EncodingMismatch {
                source_name,
                model,
                engine,
            } => write!(
                f,
                "{source_name}: the model expects observation encoding version {model}, \
                 but this engine encodes version {engine}; re-export the model from a \
                 checkpoint trained with encoding version {engine}"
            ),
            Error::Model { path, detail } => {
                write!(f, "model {}: {detail}", path.display())
            }
            Error::Weights(d) => write!(f, "model weights: {d}"),
            Error::Inference(d) => write!(f, "inference: {d}"),
            Error::Position(d) => write!(f, "position: {d}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
