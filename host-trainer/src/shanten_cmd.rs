//! `host-trainer shanten` (filled in by the shanten issue).

/// Arguments of `host-trainer shanten`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not implemented yet")
}
