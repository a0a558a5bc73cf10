//! The shipped policy (`models/default.onnx` and its sidecar `models/default.json`),
//! compiled into every binary that uses it, so that the default advice does not depend
//! on the working directory or on the checkout the binary was built from.
//! [`crate::Advisor::shipped`] loads it. Binaries that never call it lose the bytes to
//! the linker's garbage collection.

use crate::error::Result;
use crate::sidecar::Sidecar;

/// The ONNX file's bytes.
pub const ONNX: &[u8] = include_bytes!("../../models/default.onnx");

/// The sidecar's JSON.
pub const SIDECAR_JSON: &str = include_str!("../../models/default.json");

/// How the embedded model is named in messages and in `PolicySource::Model::path`.
pub const NAME: &str = "embedded default model";

/// The embedded sidecar, parsed and checked against the engine's encoding version (a
/// check that can only fail if the shipped files and the engine drift apart).
pub fn sidecar() -> Result<Sidecar> {
    let name = std::path::Path::new("embedded default model sidecar");
    let s = Sidecar::from_json(SIDECAR_JSON, name)?;
    s.check_encoding(name)?;
    Ok(s)
}
