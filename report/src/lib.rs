//! # mahjong-report
//!
//! `host-trainer report`: the evaluation report of a shipped model (`models/REPORT.md`),
//! generated from the training run folders and fresh duplicate-arena runs — never typed
//! by hand.
//!
//! For each opponent pair (two random bots, two efficiency bots) two arenas are played
//! with the same master seed: `model,X,X` and `eff,X,X`. The second is the efficiency
//! bot's own result in exactly the same seats, walls and opponent seeds, and the paired
//! per-wall difference ([`arena::paired`]) gives the tightest interval for
//! "better than the efficiency bot".

pub mod clock;
pub mod defend_section;
mod format;
mod guidance_section;
mod markdown;
#[cfg(feature = "plot")]
pub mod plot;
pub mod run_summary;
pub mod search_section;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use inference::{Advisor, Sidecar};
use serde::Serialize;

use arena::paired::{compare, PairedComparison};
use arena::policy::onnx_factory;
use arena::{play_walls, AgentFactory, ArenaConfig, ArenaReport, BotSpec, KindReport};
pub use markdown::render;
pub use run_summary::{EvalPoint, RunSummary, TrainPoint};

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct ReportConfig {
    /// The exported model (`NAME.onnx`, sidecar `NAME.json` beside it).
    pub model: PathBuf,
    /// The training run the model was exported from.
    pub run: PathBuf,
    /// Runs trained with other guidance settings (off, another teacher), for the
    /// guidance ablation. A run folder holding an exported `model.onnx` also has that
    /// model played against two efficiency bots, paired with the efficiency bot.
    pub ablation: Vec<PathBuf>,
    /// Hands per line-up of each ablation model.
    pub ablation_hands: u64,
    /// The previously shipped model of the same rules, played against two efficiency
    /// bots on the same walls as the new one.
    pub previous: Option<PathBuf>,
    /// Hands per line-up (rounded up to a multiple of the player count).
    pub hands: u64,
    /// Master seed of the evaluation arenas.
    pub seed: u64,
    /// The command line, printed in the report.
    pub command: String,
    /// A folder of `arena --paired-with … --json` files measuring the search.
    pub search_runs: Option<PathBuf>,
    /// A `belief --json` file.
    pub belief: Option<PathBuf>,
    /// Game seeds of whole games against defending bots (riichi rules; 0 = none).
    pub games: u64,
}

/// The model against one opponent pair, beside the efficiency bot in the same seats.
#[derive(Clone, Debug, Serialize)]
pub struct Matchup {
    /// The opponents' bot name (`random`, `eff`).
    pub opponents: String,
    /// The model's seat statistics (`model,X,X`).
    pub model: KindReport,
    /// The efficiency bot's statistics in the same seats (`eff,X,X`).
    pub eff: KindReport,
    /// Model minus efficiency bot, wall by wall.
    pub difference: PairedComparison,
    /// The whole `model,X,X` arena.
    pub model_arena: ArenaReport,
    /// The whole `eff,X,X` arena.
    pub eff_arena: ArenaReport,
}

/// A guidance-ablation run, and its exported model against two efficiency bots.
#[derive(Clone, Debug, Serialize)]
pub struct AblationRun {
    /// The run's own files.
    pub run: RunSummary,
    /// `model.onnx` of the run folder against two efficiency bots (absent when the
    /// folder has no exported model).
    pub versus_eff: Option<Matchup>,
}

/// The previously shipped model beside the new one, on the same walls.
#[derive(Clone, Debug, Serialize)]
pub struct PreviousModel {
    /// Its file.
    pub model: PathBuf,
    /// Its sidecar.
    pub sidecar: Sidecar,
    /// Against two efficiency bots (same hands and seed as the new model's matchup).
    pub versus_eff: Matchup,
    /// New model minus previous model, wall by wall.
    pub new_minus_previous: PairedComparison,
}

/// One of the targets, checked.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    /// What is asked.
    pub goal: String,
    /// What was measured.
    pub measured: String,
    /// Whether it is met.
    pub met: bool,
}

/// Everything in the report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The command line that produced it.
    pub command: String,
    /// UTC time of generation (seconds since the epoch).
    pub generated_unix_s: u64,
    /// Seconds spent generating it.
    pub generation_s: f64,
    /// The model file.
    pub model: PathBuf,
    /// Its size in bytes.
    pub model_bytes: u64,
    /// Its sidecar.
    pub sidecar: Sidecar,
    /// The training run.
    pub run: RunSummary,
    /// The guidance ablation runs, in the order given.
    pub ablation: Vec<AblationRun>,
    /// Hands per line-up of the ablation models.
    pub ablation_hands: u64,
    /// The previously shipped model, if given.
    pub previous: Option<PreviousModel>,
    /// Hands per line-up.
    pub hands: u64,
    /// Arena seed.
    pub seed: u64,
    /// Threads of the arena pool.
    pub threads: usize,
    /// Against two random bots, then against two efficiency bots.
    pub matchups: Vec<Matchup>,
    /// The targets.
    pub targets: Vec<Target>,
    /// The search measurements.
    pub search: search_section::SearchSection,
    /// Against defending bots, per hand and per game (riichi rules only).
    pub defend: Option<defend_section::DefendSection>,
}

/// What one line-up's walls were: every hand of every wall, for pairing.
type Walls = Vec<Vec<arena::PlayedHand>>;

/// Where and how long a matchup is played.
#[derive(Clone, Copy)]
struct Table {
    rules: engine::Rules,
    hands: u64,
    seed: u64,
}

/// Two line-ups on the same walls, differing in the first seat.
struct Pair {
    /// The first line-up's first seat.
    first: KindReport,
    /// The baseline's first seat.
    baseline: KindReport,
    /// First minus baseline, wall by wall.
    difference: PairedComparison,
    first_arena: ArenaReport,
    baseline_arena: ArenaReport,
    first_walls: Walls,
}

/// Plays `model,X,X` and `B,X,X` (B the baseline bot) on the same walls.
fn play_pair(
    table: Table,
    opponents: BotSpec,
    baseline: BotSpec,
    factory: &AgentFactory,
    on_wall: &(dyn Fn() + Sync),
) -> Result<Pair> {
    let Table { rules, hands, seed } = table;
    let players = rules.players as usize;
    let mut seats = vec![opponents; players];
    let stop = AtomicBool::new(false);
    let mut arena = |first: BotSpec| -> Result<(ArenaReport, Walls)> {
        seats[0] = first;
        let acfg = ArenaConfig {
            rules,
            seats: seats.clone(),
            hands,
            seed,
            duplicate: true,
        };
        let start = std::time::Instant::now();
        let walls = play_walls(&acfg, Some(factory), on_wall, &stop)?;
        let report = ArenaReport::from_walls(&acfg, &walls, start.elapsed().as_secs_f64());
        Ok((report, walls))
    };
    let (first_arena, first_walls) = arena(BotSpec::Custom)?;
    let (baseline_arena, baseline_walls) = arena(baseline)?;
    let difference = compare(&first_walls, 0, &baseline_walls, 0, players)?;
    let entrant = |r: &ArenaReport| -> Result<KindReport> {
        r.entrants
            .first()
            .cloned()
            .context("the arena report has no entrants")
    };
    Ok(Pair {
        first: entrant(&first_arena)?,
        baseline: entrant(&baseline_arena)?,
        difference,
        first_arena,
        baseline_arena,
        first_walls,
    })
}

/// Plays `model,X,X` and `eff,X,X` on the same walls; also returns the model's walls,
/// for pairing it with another model on the same walls.
fn matchup(
    table: Table,
    opponents: BotSpec,
    factory: &AgentFactory,
    on_wall: &(dyn Fn() + Sync),
) -> Result<(Matchup, Walls)> {
    let pair = play_pair(table, opponents, BotSpec::Efficiency, factory, on_wall)?;
    let m = Matchup {
        opponents: opponents.name().to_string(),
        model: pair.first,
        eff: pair.baseline,
        difference: pair.difference,
        model_arena: pair.first_arena,
        eff_arena: pair.baseline_arena,
    };
    Ok((m, pair.first_walls))
}

/// A model loaded for an arena, with its sidecar.
type LoadedModel = (Arc<Advisor>, Sidecar);

/// Loads a model that must be trained for `rules` (the report's own model's preset).
fn load_model(path: &Path, rules: &str, role: &str) -> Result<LoadedModel> {
    let advisor =
        Advisor::load(path).with_context(|| format!("loading the {role} {}", path.display()))?;
    let Some(sidecar) = advisor.sidecar().cloned() else {
        bail!("the {role} {} loaded without a sidecar", path.display());
    };
    if sidecar.rules != rules {
        bail!(
            "the {role} {} was trained for rules {:?}, the report's model for {rules:?}",
            path.display(),
            sidecar.rules
        );
    }
    Ok((Arc::new(advisor), sidecar))
}

fn pct(x: f64) -> String {
    format!("{:.2} %", 100.0 * x)
}

/// The training issue's targets (issue 13), checked against the measured matchups:
/// against two random bots a win rate of at least 80 %; against two efficiency bots,
/// paired on the same walls, more points per hand than the efficiency bot (interval
/// excluding 0) at a win rate no more than one point below its own.
fn targets(matchups: &[Matchup]) -> Vec<Target> {
    let mut out = Vec::new();
    if let Some(m) = matchups.iter().find(|m| m.opponents == "random") {
        let w = m.model.win_rate;
        out.push(Target {
            goal: "against random bots: win rate ≥ 80 %".into(),
            measured: format!("{} (95 % CI {} – {})", pct(w.mean), pct(w.low), pct(w.high)),
            met: w.mean >= 0.80,
        });
    }
    if let Some(m) = matchups.iter().find(|m| m.opponents == "eff") {
        let p = m.difference.points_per_hand;
        out.push(Target {
            goal: "against efficiency bots: points per hand above the efficiency bot's own \
                   in the same seats, the 95 % interval of the paired difference excluding 0"
                .into(),
            measured: format!(
                "model {:+.3} vs efficiency bot {:+.3}: difference {:+.3} (95 % CI {:+.3} – {:+.3})",
                m.model.points_per_hand.mean,
                m.eff.points_per_hand.mean,
                p.mean,
                p.low,
                p.high
            ),
            met: p.low > 0.0,
        });
        let d = m.difference.win_rate;
        out.push(Target {
            goal: "against efficiency bots: win rate no more than 1 point below the \
                   efficiency bot's own in the same seats"
                .into(),
            measured: format!(
                "model {} vs efficiency bot {}: difference {:+.2} points (95 % CI {:+.2} – {:+.2})",
                pct(m.model.win_rate.mean),
                pct(m.eff.win_rate.mean),
                100.0 * d.mean,
                100.0 * d.low,
                100.0 * d.high
            ),
            met: d.mean >= -0.01,
        });
    }
    out
}

/// Plays the evaluation arenas on the current rayon pool and assembles the report.
/// `on_wall` is called after every wall of every arena (progress).
pub fn generate(cfg: &ReportConfig, on_wall: &(dyn Fn() + Sync)) -> Result<Report> {
    let start = std::time::Instant::now();
    let advisor = Advisor::load(&cfg.model)
        .with_context(|| format!("loading the model {}", cfg.model.display()))?;
    let Some(sidecar) = advisor.sidecar().cloned() else {
        bail!("{} loaded without a sidecar", cfg.model.display());
    };
    let Some(rules) = engine::Rules::preset(&sidecar.rules) else {
        bail!(
            "the model's sidecar names rules {:?}, which this build does not know",
            sidecar.rules
        );
    };
    let model_bytes = std::fs::metadata(&cfg.model)
        .with_context(|| format!("reading {}", cfg.model.display()))?
        .len();
    let run = RunSummary::load(&cfg.run)
        .with_context(|| format!("reading the training run {}", cfg.run.display()))?;
    if cfg.hands == 0 || cfg.ablation_hands == 0 {
        bail!("--hands and --ablation-hands must be at least 1");
    }
    // Everything that can be refused is read before the first arena.
    let ablation_inputs = load_ablation_runs(cfg, &sidecar.rules)?;
    let previous_input = cfg
        .previous
        .as_deref()
        .map(|p| load_model(p, &sidecar.rules, "previous model").map(|m| (p.to_path_buf(), m)))
        .transpose()?;
    let search = search_section::load(
        cfg.search_runs.as_deref(),
        cfg.belief.as_deref(),
        &sidecar.rules,
    )?;

    let main = Table {
        rules,
        hands: cfg.hands,
        seed: cfg.seed,
    };
    let factory = onnx_factory(Arc::new(advisor))?;
    let mut matchups = Vec::new();
    let mut walls_vs_eff = Vec::new();
    for opponents in [BotSpec::Random, BotSpec::Efficiency] {
        let (m, walls) = matchup(main, opponents, &*factory, on_wall)?;
        matchups.push(m);
        walls_vs_eff = walls;
    }
    let previous = previous_input
        .map(|(model, loaded)| play_previous(main, model, loaded, &walls_vs_eff, on_wall))
        .transpose()?;
    let ablation_table = Table {
        hands: cfg.ablation_hands,
        ..main
    };
    let ablation = ablation_inputs
        .into_iter()
        .map(|(run, advisor)| {
            let versus_eff = advisor
                .map(|(advisor, _)| -> Result<Matchup> {
                    let factory = onnx_factory(advisor)?;
                    Ok(matchup(ablation_table, BotSpec::Efficiency, &*factory, on_wall)?.0)
                })
                .transpose()?;
            Ok(AblationRun { run, versus_eff })
        })
        .collect::<Result<Vec<_>>>()?;
    let defend = rules
        .is_riichi()
        .then(|| defend_section::play(main, cfg.games, &*factory, on_wall))
        .transpose()?;
    let mut targets = targets(&matchups);
    if let Some(d) = &defend {
        targets.extend(defend_section::targets(d));
    }
    Ok(Report {
        command: cfg.command.clone(),
        generated_unix_s: crate::clock::now_unix(),
        generation_s: start.elapsed().as_secs_f64(),
        model: cfg.model.clone(),
        model_bytes,
        sidecar,
        run,
        ablation,
        ablation_hands: cfg.ablation_hands,
        previous,
        hands: cfg.hands,
        seed: cfg.seed,
        threads: rayon::current_num_threads(),
        matchups,
        targets,
        search,
        defend,
    })
}

/// Each ablation run's summary and, when its folder holds one, its exported model.
fn load_ablation_runs(
    cfg: &ReportConfig,
    rules: &str,
) -> Result<Vec<(RunSummary, Option<LoadedModel>)>> {
    cfg.ablation
        .iter()
        .map(|dir| {
            let summary = RunSummary::load(dir)
                .with_context(|| format!("reading the ablation run {}", dir.display()))?;
            let model = dir.join(ABLATION_MODEL);
            let advisor = model
                .exists()
                .then(|| load_model(&model, rules, "ablation model"))
                .transpose()?;
            Ok((summary, advisor))
        })
        .collect()
}

/// The previous model against the efficiency bots, and the new model minus it on the
/// same walls (`walls_vs_eff`: the new model's).
fn play_previous(
    main: Table,
    model: PathBuf,
    (advisor, sidecar): LoadedModel,
    walls_vs_eff: &Walls,
    on_wall: &(dyn Fn() + Sync),
) -> Result<PreviousModel> {
    let factory = onnx_factory(advisor)?;
    let (versus_eff, walls) = matchup(main, BotSpec::Efficiency, &*factory, on_wall)?;
    let players = main.rules.players as usize;
    let new_minus_previous = compare(walls_vs_eff, 0, &walls, 0, players)?;
    Ok(PreviousModel {
        model,
        sidecar,
        versus_eff,
        new_minus_previous,
    })
}

/// The file name of an ablation run's exported model inside its folder.
pub const ABLATION_MODEL: &str = "model.onnx";

/// The charts written beside `REPORT.md`, by file name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charts {
    /// `curve.png`: the training run.
    pub curve: Option<&'static str>,
    /// `guidance.png`: the runs of the guidance ablation on shared axes.
    pub guidance: Option<&'static str>,
}

/// The legend entry of a run in the guidance chart.
#[cfg(feature = "plot")]
fn run_label(r: &RunSummary) -> String {
    format!("{} ({})", r.guidance_label(), r.dir.display())
}

/// Draws the charts from the runs' own metrics (so they match the current drawing
/// code, whatever the run folder's own `curve.png` was drawn with).
#[cfg(feature = "plot")]
fn draw_charts(report: &Report, out_dir: &Path) -> Result<Charts> {
    use crate::plot::curve::CurveInput;
    use crate::plot::guidance::RunCurve;
    let run = &report.run;
    let title = format!(
        "Training run {}: seed {}, guidance {}",
        run.dir.display(),
        run.seed,
        run.guidance
    );
    crate::plot::draw_curve(
        &out_dir.join("curve.png"),
        &CurveInput {
            title: &title,
            evals: &run.evals,
            training: &run.training,
            thresholds: (run.random_threshold, run.eff_threshold),
            opponents: run.opponents(),
            teacher: run.teacher_words(),
        },
    )?;
    let mut charts = Charts {
        curve: Some("curve.png"),
        guidance: None,
    };
    if !report.ablation.is_empty() {
        // The shipped run is drawn only as far as the longest ablation run went, so
        // that a long shipped run does not squeeze the comparison into a corner.
        let longest = report.ablation.iter().map(|a| a.run.updates).max();
        let horizon = longest.unwrap_or(run.updates).min(run.updates);
        let shipped: Vec<EvalPoint> = run
            .evals
            .iter()
            .filter(|e| e.update <= horizon)
            .copied()
            .collect();
        let mut labels = vec![if horizon < run.updates {
            format!("{}, first {horizon} updates", run_label(run))
        } else {
            run_label(run)
        }];
        labels.extend(report.ablation.iter().map(|a| run_label(&a.run)));
        let evals = std::iter::once(shipped.as_slice())
            .chain(report.ablation.iter().map(|a| a.run.evals.as_slice()));
        let runs: Vec<RunCurve<'_>> = labels
            .iter()
            .zip(evals)
            .map(|(label, evals)| RunCurve { label, evals })
            .collect();
        crate::plot::draw_guidance(
            &out_dir.join("guidance.png"),
            "Guidance ablation: evaluation win rates (faint: each evaluation; bold: smoothed)",
            &runs,
            (run.random_threshold, run.eff_threshold),
        )?;
        charts.guidance = Some("guidance.png");
    }
    Ok(charts)
}

/// Without plotters there are no charts; the report says so.
#[cfg(not(feature = "plot"))]
fn draw_charts(_report: &Report, _out_dir: &Path) -> Result<Charts> {
    Ok(Charts::default())
}

/// Writes `REPORT.md` and `report.json` into `out_dir`, and draws the charts beside
/// them (`curve.png`, and `guidance.png` when there is an ablation run) so that the
/// Markdown's image links resolve.
pub fn write(report: &Report, out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let charts = draw_charts(report, out_dir)?;
    let md = render(report, &charts);
    let json = serde_json::to_string_pretty(report).context("serializing the report")?;
    for (name, text) in [("REPORT.md", md), ("report.json", json + "\n")] {
        let path = out_dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
