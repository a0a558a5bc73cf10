//! The duplicate arena from Python: `arena(seats, ...)` plays hands (the
//! `mahjong-arena` crate, as `host-trainer arena` does) and `arena_games(seats, ...)`
//! whole games with placement (`host-trainer arena --games`), on all cores with the
//! GIL released, and return the reports the CLI writes with `--json`, as dicts.
//!
//! Seats are `random`, `eff`, `defend`, `model` (the learned policy: the given ONNX
//! file, else the shipped model that fits the rules) and `search` (the rollout search
//! with its defaults for the rules). Results are the same for any thread count.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{Context, Result};
use arena::games::{play_games, GamesConfig};
use arena::games_report::GamesReport;
use arena::{AgentFactory, ArenaConfig, ArenaReport, BotSpec, Seating};
use engine::Rules;
use pyo3::prelude::*;

use crate::errors::ArenaError;
use crate::rules::preset;

/// The seats' bots from their names.
fn bots(seats: &[String]) -> Result<Vec<BotSpec>> {
    seats.iter().map(|s| BotSpec::parse(s)).collect()
}

/// The `model` seats' policy: the file given, else the shipped model for `rules`.
fn model_factory(model: Option<&PathBuf>, rules: &Rules) -> Result<Box<AgentFactory>> {
    let advisor = arena::policy::model_for_rules(model.map(PathBuf::as_path), rules)?;
    arena::policy::onnx_factory(Arc::new(advisor))
}

/// The factories the line-up needs, kept alive while it plays.
struct Factories {
    custom: Option<Box<AgentFactory>>,
    search: Option<Box<AgentFactory>>,
}

impl Factories {
    fn new(seats: &[BotSpec], rules: &Rules, model: Option<&PathBuf>) -> Result<Factories> {
        let custom = match seats.contains(&BotSpec::Custom) {
            true => Some(model_factory(model, rules)?),
            false => None,
        };
        let search = match seats.contains(&BotSpec::Search) {
            true => Some(arena::search_agent::search_factory(Arc::new(
                search::SearchConfig::new(rules)?,
            ))),
            false => None,
        };
        Ok(Factories { custom, search })
    }

    fn seating(&self) -> Seating<'_> {
        Seating {
            custom: self.custom.as_deref(),
            search: self.search.as_deref(),
        }
    }
}

/// Runs `work` on a pool of `threads` threads (all cores when `None`).
fn on_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("building the thread pool")?;
    pool.install(work)
}

/// A serialisable report as a Python dict (through `json`, as the CLI writes it).
fn to_dict<'py>(py: Python<'py>, report: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).map_err(|e| ArenaError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Plays a line-up with the GIL released: the seats' bots and the factories of their
/// `model` and `search` seats made, `play` run on a pool of `threads`, its report
/// returned as a dict.
fn play_lineup<'py, R: serde::Serialize + Send>(
    py: Python<'py>,
    seats: &[String],
    rules: Rules,
    model: Option<&PathBuf>,
    threads: Option<usize>,
    play: impl Fn(Vec<BotSpec>, Seating<'_>) -> Result<R> + Send + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let report = py
        .detach(|| -> Result<R> {
            let lineup = bots(seats)?;
            let factories = Factories::new(&lineup, &rules, model)?;
            on_pool(threads, || play(lineup.clone(), factories.seating()))
        })
        .map_err(arena_err)?;
    to_dict(py, &report)
}

/// An arena error as the exception the package raises for it.
fn arena_err(e: anyhow::Error) -> PyErr {
    ArenaError::new_err(format!("{e:#}"))
}

/// Plays `hands` hands between `seats` (one name per seat of `rules`) and reports per
/// bot: win, deal-in and tsumo rates, points per hand, with 95 % intervals (clustered
/// by wall). Duplicate (the default): every wall is played once per seat rotation, so
/// each bot meets the same tiles in every seat. Returns the dict `host-trainer arena
/// --json` writes (``kinds``: one entry per distinct bot; ``entrants``: per seat).
/// Raises ``ArenaError`` for an unknown bot, a line-up that does not fill the table, a
/// model that cannot be loaded; ``RulesError`` for an unknown preset.
#[pyfunction]
#[pyo3(name = "arena", signature = (seats, rules = "sanma", hands = 1200, seed = 0, duplicate = true, threads = None, model = None))]
#[allow(clippy::too_many_arguments)]
fn play_arena<'py>(
    py: Python<'py>,
    seats: Vec<String>,
    rules: &str,
    hands: u64,
    seed: u64,
    duplicate: bool,
    threads: Option<usize>,
    model: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = preset(rules)?;
    play_lineup(
        py,
        &seats,
        rules,
        model.as_ref(),
        threads,
        |bots, seating| {
            let cfg = ArenaConfig {
                rules,
                seats: bots,
                hands,
                seed,
                duplicate,
            };
            let start = std::time::Instant::now();
            let walls = arena::play_walls_seated(&cfg, seating, &|| {}, &AtomicBool::new(false))?;
            let elapsed = start.elapsed().as_secs_f64();
            Ok(ArenaReport::from_walls(&cfg, &walls, elapsed))
        },
    )
}

/// Plays `games` whole games (the rules' length: hanchan or east-only under the riichi
/// presets) between `seats`, duplicate by rotating the line-up over the seats on each
/// game seed, and reports placement per bot with 95 % intervals: average rank, the
/// rank distribution, final points and rank points (the uma table is in the report).
/// Returns the dict `host-trainer arena --games N --json` writes. Errors as
/// :func:`arena`.
#[pyfunction]
#[pyo3(signature = (seats, rules = "tenhou-sanma", games = 100, seed = 0, duplicate = true, threads = None, model = None))]
#[allow(clippy::too_many_arguments)]
fn arena_games<'py>(
    py: Python<'py>,
    seats: Vec<String>,
    rules: &str,
    games: u64,
    seed: u64,
    duplicate: bool,
    threads: Option<usize>,
    model: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = preset(rules)?;
    play_lineup(
        py,
        &seats,
        rules,
        model.as_ref(),
        threads,
        |bots, seating| {
            let cfg = GamesConfig {
                rules,
                seats: bots,
                games,
                seed,
                duplicate,
            };
            let start = std::time::Instant::now();
            let seeds = play_games(&cfg, seating, &|| {}, &AtomicBool::new(false))?;
            let elapsed = start.elapsed().as_secs_f64();
            Ok(GamesReport::from_games(&cfg, &seeds, elapsed))
        },
    )
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_arena, m)?)?;
    m.add_function(wrap_pyfunction!(arena_games, m)?)?;
    Ok(())
}
