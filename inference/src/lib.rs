//! Policy inference without libtorch.
//!
//! - [`onnx_export`]: writes the trainer's transformer as a standard ONNX file (opset
//!   17) plus a JSON [`Sidecar`], from plain [`Weights`].
//! - [`reference`]: a pure-Rust forward pass of the same network, the oracle of the
//!   differential tests.
//! - [`Advisor`]: loads the ONNX with tract (optimised once, the plan shared across
//!   threads), and ranks every legal action of an observation with its policy
//!   probability, the critic's value and the efficiency facts of each discard; or,
//!   without a model, ranks by the engine's value scores alone.
//! - [`plain`]: the same forward pass for one observation in plain `f32` loops, with
//!   the weights read back from the ONNX file; the advisor uses it for single
//!   positions once it has agreed with tract at load time.
//! - [`shipped`]: the shipped model (`models/default.onnx`), compiled in.
//! - [`position`]: a JSON / compact-string position format turned into an
//!   `engine::game::Observation` plus its legal actions.
//!
//! The crate exists so that tract stays out of the `no_std` engine and so that
//! `advise`, servers and boards never need libtorch.

#![warn(missing_docs)]

pub mod advisor;
pub mod error;
#[cfg(feature = "tract")]
pub mod onnx_export;
pub mod onnx_proto;
pub mod plain;
pub mod position;
pub mod reference;
pub mod shipped;
pub mod sidecar;
pub mod weights;

pub use advisor::{Advice, Advisor, DiscardFacts, PolicySource, RankedAction};
pub use error::{panic_message, Error, Result};
pub use reference::masked_softmax;
pub use sidecar::Sidecar;
pub use weights::{ModelConfig, Tensor, Weights, ABSENT_LOGIT};
