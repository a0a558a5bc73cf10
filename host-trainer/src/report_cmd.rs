//! `host-trainer report`: evaluates a shipped model and writes `REPORT.md`,
//! `report.json` and the training curve into a folder (see `report`).
//!
//! The arguments are checked in the order they are listed (`--run`, `--ablation`,
//! `--model`, `--previous`, `--out`) before the evaluation, which takes minutes: a missing run is
//! reported as such, not as a missing model, and an existing `REPORT.md` is never
//! overwritten without `--force`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use report::{self, ReportConfig, RunSummary};

/// Arguments of `host-trainer report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The training run folder the model was exported from.
    #[arg(long)]
    pub run: PathBuf,
    /// A run trained with another guidance setting (`--guidance off`, another
    /// `--teacher`), for the guidance ablation; repeat for several. When the folder
    /// holds the run's exported `model.onnx` (and its sidecar), that model is also
    /// played against two efficiency bots, paired with the efficiency bot.
    #[arg(long)]
    pub ablation: Vec<PathBuf>,
    /// Hands per line-up of each ablation model (two line-ups each).
    #[arg(long, default_value_t = 3_000)]
    pub ablation_hands: u64,
    /// The previously shipped model of the same rules: played against two efficiency
    /// bots on the new model's walls, and paired with it.
    #[arg(long)]
    pub previous: Option<PathBuf>,
    /// The exported model (sidecar `NAME.json` beside it).
    #[arg(long, default_value = "models/default.onnx")]
    pub model: PathBuf,
    /// Folder for REPORT.md, report.json and the curve images (default: the `--run`
    /// folder). An existing REPORT.md there is refused unless `--force` is given.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite an existing REPORT.md (and report.json) in the `--out` folder.
    #[arg(long)]
    pub force: bool,
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
    /// Game seeds of whole games against defending bots, each played once per seat
    /// rotation (riichi models only; 0 = no whole games). Under riichi rules the model
    /// also plays `--hands` hands against defending bots, paired with the defending bot.
    #[arg(long, default_value_t = 0)]
    pub games: u64,
}

/// Fails on the first argument, in the order listed, that cannot work; returns the
/// output folder.
fn check_args(args: &Args) -> Result<PathBuf> {
    RunSummary::load(&args.run)
        .with_context(|| format!("--run {}: not a training run", args.run.display()))?;
    for dir in &args.ablation {
        RunSummary::load(dir)
            .with_context(|| format!("--ablation {}: not a training run", dir.display()))?;
    }
    std::fs::metadata(&args.model)
        .with_context(|| format!("--model {}: cannot read the model", args.model.display()))?;
    if let Some(p) = &args.previous {
        std::fs::metadata(p)
            .with_context(|| format!("--previous {}: cannot read the model", p.display()))?;
    }
    let out = args.out.clone().unwrap_or_else(|| args.run.clone());
    refuse_overwrite(&out, args.force)?;
    Ok(out)
}

/// An existing `REPORT.md` is somebody's report (the shipped one in `models/`):
/// replacing it takes `--force`.
fn refuse_overwrite(out: &Path, force: bool) -> Result<()> {
    let existing = out.join("REPORT.md");
    if existing.exists() && !force {
        bail!(
            "{} exists; pass --force to overwrite it, or --out another folder",
            existing.display()
        );
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let out = check_args(&args)?;
    let command = std::iter::once("host-trainer".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let cfg = ReportConfig {
        model: args.model.clone(),
        run: args.run.clone(),
        ablation: args.ablation.clone(),
        ablation_hands: args.ablation_hands,
        previous: args.previous.clone(),
        hands: args.hands,
        seed: args.seed,
        command,
        search_runs: args.search_runs.clone(),
        belief: args.belief.clone(),
        games: args.games,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("building the thread pool")?;
    // Walls (and game seeds) of every arena, for the progress bar: the model's rules
    // from its sidecar when it reads (an unreadable one fails in `generate`).
    let sidecar_rules = inference::Sidecar::load(&inference::Sidecar::path_for(&args.model))
        .ok()
        .and_then(|s| engine::Rules::preset(&s.rules));
    let players = sidecar_rules.map_or(3, |r| u64::from(r.players));
    let riichi = sidecar_rules.is_some_and(|r| r.is_riichi());
    let ablation_models = args
        .ablation
        .iter()
        .filter(|d| d.join(report::ABLATION_MODEL).exists())
        .count() as u64;
    let line_ups = 4 + 2 * u64::from(args.previous.is_some()) + 2 * u64::from(riichi);
    let walls_total = line_ups * args.hands.div_ceil(players)
        + 2 * ablation_models * args.ablation_hands.div_ceil(players)
        + 2 * u64::from(riichi) * args.games;
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
    report::write(&rep, &out)?;
    for t in &rep.targets {
        println!(
            "{} {}: {}",
            if t.met { "met    " } else { "NOT MET" },
            t.goal,
            t.measured
        );
    }
    println!("wrote {}", out.join("REPORT.md").display());
    Ok(())
}
