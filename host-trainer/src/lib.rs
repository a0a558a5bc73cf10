//! The host side of the project as a library: the arena, the self-play trainer
//! (feature `train`, the default; it links libtorch) and, in later issues, the advisor
//! front-ends. The `host-trainer` binary is a thin clap layer over these modules.

pub mod arena;
pub mod clock;
#[cfg(feature = "train")]
pub mod export;
pub mod policy;
pub mod report;
#[cfg(feature = "train")]
pub mod train;
