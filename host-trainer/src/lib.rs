//! The host side of the project as a library: the self-play trainer (feature `train`,
//! the default; it links libtorch), the checkpoint exporter, the CLI's closed choices
//! and its table printer. The `host-trainer` binary is a thin clap layer over these
//! modules and the crates of each concern: `mahjong-arena` (lib `arena`),
//! `mahjong-report` (`report`), `mahjong-logs`, `mahjong-mjai-bot` (`mjai_bot`),
//! `mahjong-web` (the review), `mahjong-inference`, `mahjong-search`.

pub mod cli;
#[cfg(feature = "train")]
pub mod export;
pub mod logs;
pub mod table;
#[cfg(feature = "train")]
pub mod train;

/// The git revision this binary was built from (`…-dirty` when tracked files differed
/// from it; `unknown` when built outside a repository), recorded beside every run's
/// results. Read at build time (build.rs), not from the directory the binary runs in.
pub fn git_revision() -> String {
    env!("HOST_TRAINER_GIT_REVISION").to_string()
}

#[cfg(test)]
mod tests {
    /// The recorded revision is a commit of this repository (or `unknown` without git).
    #[test]
    fn the_build_revision_is_a_commit_here() {
        let rev = super::git_revision();
        if rev == "unknown" {
            return;
        }
        let hash = rev.strip_suffix("-dirty").unwrap_or(&rev);
        assert_eq!(hash.len(), 40, "{rev}");
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{rev}");
        let found = std::process::Command::new("git")
            .args(["cat-file", "-e", &format!("{hash}^{{commit}}")])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .map(|s| s.success());
        assert!(
            found.unwrap_or(true),
            "{rev} is not a commit of this repository"
        );
    }
}
