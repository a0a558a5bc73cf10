//! The arena: plays many hands between bots, in parallel and deterministically, and
//! reports per-bot statistics with 95 % confidence intervals.
//!
//! **Duplicate mode** (default): every wall is played once per rotation of the seat
//! assignment (`players` rotations), so each bot sits in each seat — dealer included —
//! on the same tiles and the luck of the wall cancels. Statistics are estimated over
//! walls as clusters ([`stats`]).
//!
//! **Determinism**: hand `i` uses a wall seed derived only from `(seed, i)` and bot
//! seeds derived from the wall seed, rotation and seat; results are aggregated in hand
//! order. The report is therefore identical for any number of threads.

pub mod games;
pub mod games_report;
pub mod paired;
pub mod policy;
pub mod report;
pub mod search_agent;
pub mod stats;

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context, Result};
use engine::bots::{play_hand, Agent, DefendBot, EfficiencyBot, HandSummary, RandomBot};
use engine::game::{Action, Game, LegalActions, Observation};
use engine::rng::Rng;
use engine::Rules;
use rayon::prelude::*;

pub use report::{ArenaReport, KindReport};

/// A bot the arena can seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// [`RandomBot`] with its default call probability.
    Random,
    /// [`EfficiencyBot`].
    Efficiency,
    /// [`DefendBot`]: efficiency with push or fold against threats.
    Defend,
    /// An agent made by the factory passed to [`run_with`] (e.g. a learned policy);
    /// [`run`] has no factory and rejects it.
    Custom,
    /// A searching agent made by [`Seating::search`] (e.g. [`crate::search_agent::SearchAgent`]).
    Search,
}

/// The factories of the seats that are not built in.
#[derive(Clone, Copy, Default)]
pub struct Seating<'a> {
    /// Makes the agents of [`BotSpec::Custom`] seats.
    pub custom: Option<&'a AgentFactory>,
    /// Makes the agents of [`BotSpec::Search`] seats.
    pub search: Option<&'a AgentFactory>,
}

impl BotSpec {
    /// Parses `random` / `rand`, `eff` / `efficiency`, or `model` / `policy` (a custom
    /// seat: the learned policy the caller's factory makes).
    pub fn parse(name: &str) -> Result<BotSpec> {
        match name.trim() {
            "random" | "rand" => Ok(BotSpec::Random),
            "eff" | "efficiency" => Ok(BotSpec::Efficiency),
            "defend" => Ok(BotSpec::Defend),
            "model" | "policy" => Ok(BotSpec::Custom),
            "search" => Ok(BotSpec::Search),
            other => bail!("unknown bot {other:?} (expected random, eff, defend, model or search)"),
        }
    }

    /// Short name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Efficiency => "eff",
            BotSpec::Defend => "defend",
            BotSpec::Custom => "policy",
            BotSpec::Search => "search",
        }
    }

    fn make(self, seed: u64, seating: Seating) -> Result<Seated> {
        Ok(match self {
            BotSpec::Random => Seated::Random(RandomBot::new(seed)),
            BotSpec::Efficiency => Seated::Efficiency(EfficiencyBot),
            BotSpec::Defend => Seated::Defend(DefendBot),
            BotSpec::Custom => match seating.custom {
                Some(f) => Seated::Custom(f(seed)?),
                None => bail!("a custom seat needs an agent factory (arena::run_with)"),
            },
            BotSpec::Search => match seating.search {
                Some(f) => Seated::Custom(f(seed)?),
                None => bail!("a search seat needs a search factory (arena::Seating)"),
            },
        })
    }
}

/// Makes the agent of a [`BotSpec::Custom`] seat for one hand from a seed. Called on
/// the worker thread that plays the hand; the agent stays on that thread.
pub type AgentFactory = dyn Fn(u64) -> Result<Box<dyn Agent>> + Sync;

/// A bot in a seat (an enum rather than `Box<dyn Agent>`: no allocation per hand for
/// the built-in bots).
enum Seated {
    Random(RandomBot),
    Efficiency(EfficiencyBot),
    Defend(DefendBot),
    Custom(Box<dyn Agent>),
}

impl Agent for Seated {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        match self {
            Seated::Random(b) => b.act(obs, legal),
            Seated::Efficiency(b) => b.act(obs, legal),
            Seated::Defend(b) => b.act(obs, legal),
            Seated::Custom(b) => b.act(obs, legal),
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The rules; `hands_per_game` is ignored (every hand is dealt fresh, seat 0 deals).
    pub rules: Rules,
    /// The bot in each seat (rotated in duplicate mode).
    pub seats: Vec<BotSpec>,
    /// Hands to play; in duplicate mode rounded up to a multiple of the player count.
    pub hands: u64,
    /// Master seed.
    pub seed: u64,
    /// Rotate seat assignments over each wall.
    pub duplicate: bool,
}

impl ArenaConfig {
    /// Rotations per wall.
    pub fn rotations(&self) -> u64 {
        if self.duplicate {
            self.rules.players as u64
        } else {
            1
        }
    }

    /// Number of walls (clusters) played.
    pub fn walls(&self) -> u64 {
        self.hands.div_ceil(self.rotations())
    }

    fn validate(&self) -> Result<()> {
        validate_lineup(&self.rules, &self.seats, self.hands, "--hands")
    }
}

/// Checks that the rules can be played, the line-up fills the table and `count` (hands
/// or games, named by `flag`) is positive.
fn validate_lineup(rules: &Rules, seats: &[BotSpec], count: u64, flag: &str) -> Result<()> {
    rules
        .validate()
        .map_err(|e| anyhow::anyhow!("invalid rules: {e}"))?;
    if seats.len() != rules.players as usize {
        bail!(
            "{} seats given but the rules have {} players",
            seats.len(),
            rules.players
        );
    }
    if count == 0 {
        bail!("{flag} must be at least 1");
    }
    Ok(())
}

/// The line-up entry in each seat for seat rotation `rotation`, and the agents that sit
/// there, seeded from `seed` (a wall's or a game's), the rotation and the seat.
fn seat_rotation(
    seats: &[BotSpec],
    players: usize,
    seed: u64,
    rotation: usize,
    seating: Seating,
) -> Result<([usize; 4], Vec<Seated>)> {
    let mut seat_bot = [0usize; 4];
    for (s, b) in seat_bot.iter_mut().enumerate().take(players) {
        *b = (s + rotation) % players;
    }
    let agents = (0..players)
        .map(|s| {
            let bot_seed = Rng::derive_seed(seed, (rotation * 4 + s) as u64 + 1);
            seats[seat_bot[s]].make(bot_seed, seating)
        })
        .collect::<Result<_>>()?;
    Ok((seat_bot, agents))
}

/// One played hand: which bot sat where, and what happened.
#[derive(Clone, Copy, Debug)]
pub struct PlayedHand {
    /// Index into `ArenaConfig::seats` of the bot in each seat.
    pub seat_bot: [usize; 4],
    /// The outcome.
    pub summary: HandSummary,
}

/// Plays wall `wall` in every rotation.
fn play_wall(cfg: &ArenaConfig, wall: u64, seating: Seating) -> Result<Vec<PlayedHand>> {
    let mut rules = cfg.rules;
    rules.hands_per_game = 1;
    let players = rules.players as usize;
    let wall_seed = Rng::derive_seed(cfg.seed, wall);
    let mut out = Vec::with_capacity(cfg.rotations() as usize);
    for rotation in 0..cfg.rotations() as usize {
        let (seat_bot, mut agents) =
            seat_rotation(&cfg.seats, players, wall_seed, rotation, seating)?;
        let mut game = Game::new(rules, wall_seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let summary = play_hand(&mut game, &mut agents)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("wall {wall} (seed {wall_seed}), rotation {rotation}"))?;
        out.push(PlayedHand { seat_bot, summary });
    }
    Ok(out)
}

/// Plays the configured hands on the current rayon pool and reports. `on_wall` is called
/// after each wall (for a progress bar); `stop` aborts early when set.
pub fn run(
    cfg: &ArenaConfig,
    on_wall: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ArenaReport> {
    run_inner(cfg, None, on_wall, stop)
}

/// Like [`run`], with `factory` making the agents of [`BotSpec::Custom`] seats.
pub fn run_with(
    cfg: &ArenaConfig,
    factory: &AgentFactory,
    on_wall: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ArenaReport> {
    run_inner(cfg, Some(factory), on_wall, stop)
}

fn run_inner(
    cfg: &ArenaConfig,
    factory: Option<&AgentFactory>,
    on_wall: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ArenaReport> {
    let start = std::time::Instant::now();
    let walls = play_walls(cfg, factory, on_wall, stop)?;
    Ok(ArenaReport::from_walls(
        cfg,
        &walls,
        start.elapsed().as_secs_f64(),
    ))
}

/// Plays every wall (on the current rayon pool) and returns the hands wall by wall, in
/// wall order — for statistics that [`ArenaReport`] does not compute, such as the paired
/// comparison of two line-ups on the same walls ([`paired`]). A wall skipped because
/// `stop` was set is empty.
pub fn play_walls(
    cfg: &ArenaConfig,
    factory: Option<&AgentFactory>,
    on_wall: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Vec<PlayedHand>>> {
    let seating = Seating {
        custom: factory,
        search: None,
    };
    play_walls_seated(cfg, seating, on_wall, stop)
}

/// [`play_walls`] with factories for both kinds of non-built-in seats.
pub fn play_walls_seated(
    cfg: &ArenaConfig,
    seating: Seating,
    on_wall: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Vec<PlayedHand>>> {
    cfg.validate()?;
    let walls: Vec<Result<Vec<PlayedHand>>> = (0..cfg.walls())
        .into_par_iter()
        .map(|w| {
            if stop.load(Ordering::Relaxed) {
                return Ok(Vec::new());
            }
            let r = play_wall(cfg, w, seating);
            on_wall();
            r
        })
        .collect();
    walls.into_iter().collect()
}
