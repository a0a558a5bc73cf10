//! The crate's error type: every failure names what it was doing and on which file.
//!
//! An underlying error (the `std::io::Error` of a failed read) is the `source()` and is
//! deliberately left out of `Display`: callers that print the chain (anyhow's `{:#}`,
//! the CLI's "caused by" lines) would otherwise show it twice. Callers with room for one
//! line only use [`Error::full_message`].

use std::path::PathBuf;

/// Why exporting, loading or advising failed. Library code returns these; it never
/// panics on input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    #[error("{action} {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done ("reading the model", "writing").
        action: &'static str,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The JSON sidecar is missing a field, is not JSON, or is inconsistent.
    #[error("model sidecar {}: {detail}", path.display())]
    Sidecar {
        /// The sidecar file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// The model was built for another observation encoding than this engine's.
    #[error(
        "{source_name}: the model expects observation encoding version {model}, but this \
         engine encodes versions 1 to {engine}; re-export the model from a checkpoint \
         trained with one of them"
    )]
    EncodingMismatch {
        /// Where the version came from (a sidecar path or "weights").
        source_name: String,
        /// The model's encoding version.
        model: u32,
        /// The newest version the engine writes.
        engine: u32,
    },
    /// The ONNX file is not a valid model (corrupt, truncated, or of another shape).
    #[error("model {}: {detail}", path.display())]
    Model {
        /// The model file.
        path: PathBuf,
        /// What tract or the shape check reported.
        detail: String,
    },
    /// The weights do not fit the model configuration (missing, extra or misshapen
    /// tensors, or an invalid configuration).
    #[error("model weights: {0}")]
    Weights(String),
    /// Running the model failed.
    #[error("inference: {0}")]
    Inference(String),
    /// A position (compact string or JSON) could not be turned into an observation.
    #[error("position: {0}")]
    Position(String),
}

impl Error {
    /// The message followed by its causes, `": "`-separated, for one-line reports
    /// (the C ABI's error string, the ARM demo's stderr line).
    pub fn full_message(&self) -> String {
        let mut s = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            s.push_str(": ");
            s.push_str(&c.to_string());
            cause = c.source();
        }
        s
    }
}

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The text of a panic payload: `panic!` with a literal or a formatted message, else
/// "unknown panic payload". Shared by every panic boundary (the C ABI, the trainer's
/// self-play threads, tract calls here).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}
