//! The host side of the project as a library: the arena, the self-play trainer
//! (feature `train`, the default; it links libtorch) and, in later issues, the advisor
//! front-ends. The `host-trainer` binary is a thin clap layer over these modules.

pub mod arena;
pub mod cli;
pub mod clock;
#[cfg(feature = "train")]
pub mod export;
pub mod policy;
pub mod report;
pub mod search_agent;
pub mod table;
#[cfg(feature = "train")]
pub mod train;

/// `git rev-parse HEAD` of the working directory (`unknown` outside a repository),
/// recorded beside every run's results.
pub fn git_revision() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}
