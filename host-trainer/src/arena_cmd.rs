//! `host-trainer arena`: bots against bots, duplicate by default.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use arena::policy;
use arena::{self, paired, ArenaConfig, ArenaReport, BotSpec, Seating};
use host_trainer::cli::{BeliefArg, RulesArg};
use search::{self, SearchConfig};

/// A bot for one seat of `--seats` / `--paired-with`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeatArg {
    /// The random bot.
    #[value(alias = "rand")]
    Random,
    /// The efficiency bot.
    #[value(alias = "efficiency")]
    Eff,
    /// The defending bot: efficiency with push or fold against threats.
    Defend,
    /// The learned policy of `--model`.
    #[value(alias = "policy")]
    Model,
    /// Rollout search (flags `--search-*`).
    Search,
}

impl From<SeatArg> for BotSpec {
    fn from(s: SeatArg) -> BotSpec {
        match s {
            SeatArg::Random => BotSpec::Random,
            SeatArg::Eff => BotSpec::Efficiency,
            SeatArg::Defend => BotSpec::Defend,
            SeatArg::Model => BotSpec::Custom,
            SeatArg::Search => BotSpec::Search,
        }
    }
}

/// Arguments of `host-trainer arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Bots by seat, comma-separated, one per player (e.g. `model,eff,eff`).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "eff,random,random"
    )]
    pub seats: Vec<SeatArg>,
    /// Also play this line-up on the same walls and report, for every entry of
    /// `--seats` that differs from the same entry here, the paired difference
    /// (`--seats` minus this) with 95 % intervals. E.g. `--seats search,eff,eff
    /// --paired-with eff,eff,eff`.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub paired_with: Option<Vec<SeatArg>>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// The ONNX model (sidecar `NAME.json` beside it) played by `model` seats.
    /// Default: the shipped model that fits `--rules` (compiled into this binary).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Hands to play (rounded up to a multiple of the player count in duplicate mode).
    #[arg(long, default_value_t = 3000)]
    pub hands: u64,
    /// Play whole games instead of single hands: this many game seeds, each once per
    /// seat rotation in duplicate mode, reported by placement (average rank, rank
    /// distribution, final points, rank points with Tenhou's uma); `--hands` is then
    /// unused.
    #[arg(long)]
    pub games: Option<u64>,
    /// Master seed: the same seed gives the same report for any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Rules preset.
    #[arg(long, value_enum, default_value_t = RulesArg::Sanma)]
    pub rules: RulesArg,
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

/// `--search-prune-z`: standard errors, or `None` for `off`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PruneZ(pub Option<f64>);

fn parse_prune_z(s: &str) -> Result<PruneZ, String> {
    if s == "off" {
        return Ok(PruneZ(None));
    }
    match s.parse::<f64>() {
        Ok(z) if z.is_finite() && z >= 0.0 => Ok(PruneZ(Some(z))),
        _ => Err(format!("{s:?} is neither `off` nor a non-negative number")),
    }
}

/// The flags of `search` seats (also used by `advise --search`).
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search: most rollouts per candidate (one per determinized world).
    #[arg(long, default_value_t = 400)]
    pub search_rollouts: u32,
    /// Search: time budget per decision in milliseconds (none: rollouts only, which
    /// makes results independent of machine load).
    #[arg(long)]
    pub search_ms: Option<f64>,
    /// Search: how worlds are dealt (inference from the opponents' play, or uniform).
    #[arg(long, value_enum, default_value_t = BeliefArg::Weighted)]
    pub search_belief: BeliefArg,
    /// Search: discards kept as candidates by value score (plus the policy's choice).
    #[arg(long, default_value_t = 5)]
    pub search_top_k: usize,
    /// Search: discards added as candidates, least likely to deal in first (weighted
    /// belief only).
    #[arg(long, default_value_t = 2)]
    pub search_safe_k: usize,
    /// Search: standard errors by which a candidate must beat the policy's choice.
    #[arg(long, default_value_t = 2.0)]
    pub search_z: f64,
    /// Search: hand proposals weighed per decision for the weighted belief.
    #[arg(long, default_value_t = 512)]
    pub search_proposals: usize,
    /// Search: points added to a rollout's value when the searching seat wins.
    #[arg(long, default_value_t = 0.0)]
    pub search_win_bonus: f64,
    /// Search: racing, dropping a candidate once it is this many standard errors below
    /// the leader (paired), so later worlds play only the close ones; `off` plays every
    /// candidate in every world.
    #[arg(long, default_value = "2", value_parser = parse_prune_z)]
    pub search_prune_z: PruneZ,
}

impl SearchArgs {
    /// The flags as JSON, recorded with each run (so a report never has to guess a
    /// default that may have changed since).
    pub fn summary(&self) -> serde_json::Value {
        serde_json::json!({
            "rollouts": self.search_rollouts,
            "ms": self.search_ms,
            "belief": format!("{:?}", self.search_belief).to_lowercase(),
            "top_k": self.search_top_k,
            "safe_k": self.search_safe_k,
            "z": self.search_z,
            "proposals": self.search_proposals,
            "win_bonus": self.search_win_bonus,
            "prune_z": self.search_prune_z.0,
        })
    }

    /// The search configuration these flags describe.
    pub fn config(&self, rules: &engine::Rules) -> Result<SearchConfig> {
        let mut cfg = SearchConfig::new(rules).map_err(anyhow::Error::msg)?;
        cfg.rollouts = self.search_rollouts;
        cfg.budget_ms = self.search_ms;
        cfg.belief = self.search_belief.into();
        cfg.top_k = self.search_top_k;
        cfg.safe_k = self.search_safe_k;
        cfg.z = self.search_z;
        cfg.proposals = self.search_proposals;
        cfg.win_bonus = self.search_win_bonus;
        cfg.prune_z = self.search_prune_z.0;
        cfg.validate()
            .map_err(|e| anyhow::anyhow!("search flags: {e}"))?;
        Ok(cfg)
    }
}

fn bots(seats: &[SeatArg]) -> Vec<BotSpec> {
    seats.iter().map(|&s| s.into()).collect()
}

/// Builds the arena configuration from the command line.
pub fn config(args: &Args) -> Result<ArenaConfig> {
    Ok(ArenaConfig {
        rules: args.rules.rules(),
        seats: bots(&args.seats),
        hands: args.hands,
        seed: args.seed,
        duplicate: !args.no_duplicate,
    })
}

/// Runs the subcommand: the line-ups (the second only with `--paired-with`) on the same
/// walls, their tables, the paired differences, and the JSON file when asked.
pub fn run(args: Args) -> Result<()> {
    let cfg = config(&args)?;
    let other = paired_lineup(&args, &cfg)?;
    let all: Vec<BotSpec> = cfg
        .seats
        .iter()
        .chain(other.iter().flat_map(|o| o.seats.iter()))
        .copied()
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("building the thread pool")?;
    let custom = if all.contains(&BotSpec::Custom) {
        Some(model_factory(&args)?)
    } else {
        None
    };
    let searcher = if all.contains(&BotSpec::Search) {
        Some(arena::search_agent::search_factory(Arc::new(
            args.search.config(&cfg.rules)?,
        )))
    } else {
        None
    };
    let seating = Seating {
        custom: custom.as_deref(),
        search: searcher.as_deref(),
    };
    let lineups: Vec<&ArenaConfig> = std::iter::once(&cfg).chain(other.as_ref()).collect();
    let played = play_lineups(&args, &pool, &lineups, seating)?;
    let searches = SearchTally::read();
    searches.print(pool.current_num_threads());
    for (i, lineup) in lineups.iter().enumerate() {
        if lineups.len() > 1 {
            println!("line-up {}: {}", i + 1, seat_names(&lineup.seats));
        }
        print!("{}", played[i].1.table());
    }
    let comparisons = match (&other, &played[..]) {
        (Some(b), [(wa, _), (wb, _)]) => print_paired(&cfg, b, wa, wb)?,
        _ => Vec::new(),
    };
    if let Some(path) = &args.json {
        let text = if other.is_some() {
            let reports: Vec<&ArenaReport> = played.iter().map(|(_, r)| r).collect();
            let command: Vec<String> = std::env::args().collect();
            serde_json::to_string_pretty(&serde_json::json!({
                "command": command.join(" "),
                "git_revision": host_trainer::git_revision(),
                "rules": args.rules.as_str(),
                "seed": args.seed,
                "searches": searches.decisions,
                "search_ms_per_decision": searches.ms_per_decision,
                "search_failures": searches.failures,
                "search_failure_reasons": searches.failure_reasons,
                "search": args.search.summary(),
                "threads": pool.current_num_threads(),
                "lineups": reports, "paired": comparisons,
            }))?
        } else {
            serde_json::to_string_pretty(&played[0].1)?
        };
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The `--paired-with` line-up: the same walls and seeds with other bots.
fn paired_lineup(args: &Args, cfg: &ArenaConfig) -> Result<Option<ArenaConfig>> {
    let Some(seats) = &args.paired_with else {
        return Ok(None);
    };
    let b = ArenaConfig {
        seats: bots(seats),
        ..cfg.clone()
    };
    if b.seats.len() != cfg.seats.len() {
        bail!("--paired-with must name as many seats as --seats");
    }
    Ok(Some(b))
}

/// The `model` seats' policy: `--model` (trained for rules that fit the arena's), else
/// the shipped model that fits the arena's rules.
pub(crate) fn model_factory(args: &Args) -> Result<Box<arena::AgentFactory>> {
    let rules = args.rules.rules();
    let advisor = policy::model_for_rules(args.model.as_deref(), &rules)?;
    policy::onnx_factory(Arc::new(advisor))
}

/// Plays every line-up on the pool (a progress bar over all walls unless `--quiet`).
fn play_lineups(
    args: &Args,
    pool: &rayon::ThreadPool,
    lineups: &[&ArenaConfig],
    seating: Seating<'_>,
) -> Result<Vec<(Vec<Vec<arena::PlayedHand>>, ArenaReport)>> {
    let total: u64 = lineups.iter().map(|c| c.walls()).sum();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} walls  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stop = AtomicBool::new(false);
    let mut played = Vec::new();
    for c in lineups {
        let start = std::time::Instant::now();
        let walls = pool.install(|| arena::play_walls_seated(c, seating, &|| bar.inc(1), &stop))?;
        let report = ArenaReport::from_walls(c, &walls, start.elapsed().as_secs_f64());
        played.push((walls, report));
    }
    bar.finish_and_clear();
    Ok(played)
}

/// What the search seats did over the run (the search agent's global counters).
pub(crate) struct SearchTally {
    pub(crate) decisions: u64,
    pub(crate) ms_per_decision: f64,
    pub(crate) failures: u64,
    pub(crate) failure_reasons: std::collections::BTreeMap<String, u64>,
}

impl SearchTally {
    pub(crate) fn read() -> Self {
        use arena::search_agent::{
            SEARCHES, SEARCH_FAILURES, SEARCH_FAILURE_REASONS, SEARCH_MICROS,
        };
        use std::sync::atomic::Ordering::Relaxed;
        let decisions = SEARCHES.load(Relaxed);
        SearchTally {
            decisions,
            ms_per_decision: SEARCH_MICROS.load(Relaxed) as f64 / 1e3 / decisions.max(1) as f64,
            failures: SEARCH_FAILURES.load(Relaxed),
            failure_reasons: SEARCH_FAILURE_REASONS
                .lock()
                .map(|r| r.clone())
                .unwrap_or_default(),
        }
    }

    /// Failures on stderr (the efficiency bot decided instead), the time per search.
    pub(crate) fn print(&self, threads: usize) {
        if self.failures > 0 {
            eprintln!(
                "warning: {} searches failed (the efficiency bot decided instead):",
                self.failures
            );
            for (reason, n) in &self.failure_reasons {
                eprintln!("  {n} x {reason}");
            }
        }
        if self.decisions > 0 {
            println!(
                "search: {} decisions searched, {:.1} ms each on average (wall, {threads} threads)",
                self.decisions, self.ms_per_decision
            );
        }
    }
}

/// Prints, per entry whose bot differs between the line-ups, the paired differences
/// (win rate, deal-in rate, points per hand) and returns them for the JSON file.
fn print_paired(
    a: &ArenaConfig,
    b: &ArenaConfig,
    wa: &[Vec<arena::PlayedHand>],
    wb: &[Vec<arena::PlayedHand>],
) -> Result<Vec<serde_json::Value>> {
    let mut comparisons = Vec::new();
    for (entry, (x, y)) in a.seats.iter().zip(&b.seats).enumerate() {
        if x == y {
            continue;
        }
        let c = paired::compare(wa, entry, wb, entry, a.rules.players as usize)?;
        println!(
            "paired, entry {entry} ({} minus {}), {} walls, {} seat-hands:",
            x.name(),
            y.name(),
            c.walls,
            c.seat_hands
        );
        println!(
            "  win rate       {}",
            fmt_estimate(&c.win_rate, 100.0, "points")
        );
        println!(
            "  deal-in rate   {}",
            fmt_estimate(&c.deal_in_rate, 100.0, "points")
        );
        println!(
            "  points/hand    {}",
            fmt_estimate(&c.points_per_hand, 1.0, "")
        );
        comparisons.push(serde_json::json!({
            "entry": entry, "a": x.name(), "b": y.name(), "comparison": c,
        }));
    }
    Ok(comparisons)
}

pub(crate) fn seat_names(seats: &[BotSpec]) -> String {
    seats.iter().map(|s| s.name()).collect::<Vec<_>>().join(",")
}

pub(crate) fn fmt_estimate(e: &arena::stats::Estimate, scale: f64, unit: &str) -> String {
    format!(
        "{:+.3} [{:+.3}, {:+.3}] {unit}",
        e.mean * scale,
        e.low * scale,
        e.high * scale
    )
}
