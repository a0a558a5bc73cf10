//! `host-trainer report`: evaluates a shipped model and writes `REPORT.md`,
//! `report.json` and the training curve into a folder (see `host_trainer::report`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use host_trainer::report::{self, ReportConfig};

/// Arguments of `host-trainer report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The training run folder the model was exported from.
    #[arg(long)]
    pub run: PathBuf,
    /// A run of the same seed and budget with the other guidance setting (the on/off
    /// comparison).
    #[arg(long)]
    pub ablation: Option<PathBuf>,
    /// The exported model (sidecar `NAME.json` beside it).
    #[arg(long, default_value = "models/default.onnx")]
    pub model: PathBuf,
    /// Folder for REPORT.md, report.json and the curve images.
    #[arg(long, default_value = "models")]
    pub out: PathBuf,
    /// Hands per line-up (four line-ups are played).
    #[arg(long, default_value_t = 10_000)]
    pub hands: u64,
    /// Master seed of the evaluation arenas.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// A folder of `arena --paired-with … --json` files measuring the search (its
    /// section of the report).
    #[arg(long)]
    pub search_runs: Option<PathBuf>,
    /// A `belief --json` file (the belief evaluation in the search section).
    #[arg(long)]
    pub belief: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let command = std::iter::once("host-trainer".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let cfg = ReportConfig {
        model: args.model.clone(),
        run: args.run.clone(),
        ablation: args.ablation.clone(),
        hands: args.hands,
        seed: args.seed,
        command,
        search_runs: args.search_runs.clone(),
        belief: args.belief.clone(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("building the thread pool")?;
    let players = 3u64;
    let walls_total = 4 * args.hands.div_ceil(players);
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(walls_total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} walls  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rep = pool.install(|| report::generate(&cfg, &|| bar.inc(1)))?;
    bar.finish_and_clear();
    report::write(&rep, &args.out)?;
    for t in &rep.targets {
        println!(
            "{} {}: {}",
            if t.met { "met    " } else { "NOT MET" },
            t.goal,
            t.measured
        );
    }
    println!("wrote {}", args.out.join("REPORT.md").display());
    Ok(())
}
