//! `host-trainer arena`: bots against bots, duplicate by default.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use host_trainer::arena::{self, ArenaConfig, BotSpec};
use host_trainer::policy;

/// Arguments of `host-trainer arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Bots by seat, comma-separated: `random`, `eff` or `model` (the ONNX policy of
    /// `--model`), one per player.
    #[arg(long, default_value = "eff,random,random")]
    pub seats: String,
    /// The ONNX model (sidecar `NAME.json` beside it) played by `model` seats.
    #[arg(long, default_value = "models/default.onnx")]
    pub model: PathBuf,
    /// Hands to play (rounded up to a multiple of the player count in duplicate mode).
    #[arg(long, default_value_t = 3000)]
    pub hands: u64,
    /// Master seed: the same seed gives the same report for any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Rules preset: `sanma` or `four-player`.
    #[arg(long, default_value = "sanma")]
    pub rules: String,
    /// Play every wall once only, without rotating the seats.
    #[arg(long)]
    pub no_duplicate: bool,
    /// Also write the report as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Builds the arena configuration from the command line.
pub fn config(args: &Args) -> Result<ArenaConfig> {
    let Some(rules) = engine::Rules::preset(&args.rules) else {
        bail!(
            "unknown rules preset {:?} (expected sanma or four-player)",
            args.rules
        );
    };
    let seats = args
        .seats
        .split(',')
        .map(BotSpec::parse)
        .collect::<Result<Vec<_>>>()?;
    Ok(ArenaConfig {
        rules,
        seats,
        hands: args.hands,
        seed: args.seed,
        duplicate: !args.no_duplicate,
    })
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let cfg = config(&args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("building the thread pool")?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(cfg.walls())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} walls  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stop = AtomicBool::new(false);
    let report = if cfg.seats.contains(&BotSpec::Custom) {
        let advisor = inference::Advisor::load(&args.model).with_context(|| {
            format!(
                "loading the model for the `model` seats: {}",
                args.model.display()
            )
        })?;
        if let Some(sidecar) = advisor.sidecar() {
            if sidecar.rules != args.rules {
                bail!(
                    "the model was trained for rules {:?} but the arena plays {:?}",
                    sidecar.rules,
                    args.rules
                );
            }
        }
        let factory = policy::onnx_factory(Arc::new(advisor))?;
        pool.install(|| arena::run_with(&cfg, &*factory, &|| bar.inc(1), &stop))?
    } else {
        pool.install(|| arena::run(&cfg, &|| bar.inc(1), &stop))?
    };
    bar.finish_and_clear();
    print!("{}", report.table());
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
