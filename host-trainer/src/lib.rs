//! The host side of the project as a library: the arena (and, in later issues, the
//! trainer and the advisor front-ends). The `host-trainer` binary is a thin clap layer
//! over these modules.

pub mod arena;
