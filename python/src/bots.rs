//! Built-in players: the random bot, the efficiency bot, the defending bot and the
//! shipped policy, as
//! `Bot` objects and as opponents that `play_bots` / `VecGame` move inside Rust.

use engine::bots::{Agent, DefendBot, EfficiencyBot, RandomBot};
use engine::game::{Action, Phase};
use inference::Advisor;
use pyo3::prelude::*;

use crate::errors::{IllegalActionError, ModelError};
use crate::game::{seat_arg, PyGame, Session};

/// The bot names `Bot(kind)` and the `opponents` arguments accept.
pub const BOT_NAMES: &str = "'random', 'eff' (or 'efficiency'), 'defend', 'policy'";

/// One built-in player.
#[derive(Clone, Debug)]
pub enum BotKind {
    /// Uniform over the legal actions, calls with the engine's default probability.
    Random(RandomBot),
    /// The efficiency bot (best value score; wins whenever it can).
    Efficiency,
    /// The defending bot: efficiency with push or fold against threats (riichi rules).
    Defend,
    /// The learned policy of the given model file, greedy.
    Policy(Advisor),
    /// The shipped model that fits the game's rules, greedy (loaded at the first
    /// decision, and again when a game of other rules comes).
    ShippedPolicy(Option<Advisor>),
}

impl BotKind {
    /// A bot by name; `seed` seeds the random bot, `model_path` the policy.
    pub fn parse(name: &str, seed: u64, model_path: Option<&str>) -> PyResult<BotKind> {
        match name {
            "random" => Ok(BotKind::Random(RandomBot::new(seed))),
            "eff" | "efficiency" => Ok(BotKind::Efficiency),
            "defend" => Ok(BotKind::Defend),
            "policy" => match model_path {
                Some(p) => Advisor::load(std::path::Path::new(p))
                    .map(BotKind::Policy)
                    .map_err(|e| ModelError::new_err(format!("{e:#}"))),
                None => Ok(BotKind::ShippedPolicy(None)),
            },
            _ => Err(IllegalActionError::new_err(format!(
                "unknown bot {name:?} (known: {BOT_NAMES})"
            ))),
        }
    }

    /// The bot's name.
    pub fn name(&self) -> &'static str {
        match self {
            BotKind::Random(_) => "random",
            BotKind::Efficiency => "eff",
            BotKind::Defend => "defend",
            BotKind::Policy(_) | BotKind::ShippedPolicy(_) => "policy",
        }
    }

    /// The bot's choice for `seat`, which must have a decision.
    pub fn choose(&mut self, s: &Session, seat: u8) -> PyResult<Action> {
        let obs = s
            .game
            .observation(seat)
            .map_err(|e| crate::errors::illegal(e, seat, "observation"))?;
        let legal = s.game.legal_actions(seat);
        if legal.is_empty() {
            return Err(IllegalActionError::new_err(format!(
                "seat {seat} has no decision now"
            )));
        }
        match self {
            BotKind::Random(b) => Ok(b.act(&obs, &legal)),
            BotKind::Efficiency => Ok(EfficiencyBot.act(&obs, &legal)),
            BotKind::Defend => Ok(DefendBot.act(&obs, &legal)),
            BotKind::Policy(a) => policy_choice(a, &obs, &legal),
            BotKind::ShippedPolicy(slot) => {
                let fits = |a: &Advisor| {
                    a.sidecar()
                        .is_some_and(|s| inference::shipped::rules_fit(&s.rules, &obs.rules))
                };
                if !slot.as_ref().is_some_and(fits) {
                    let loaded = inference::shipped::fitting(&obs.rules)
                        .map_err(|e| ModelError::new_err(format!("{e:#}")))?;
                    let Some(advisor) = loaded else {
                        let what = format!("these rules ({} players)", obs.rules.players);
                        return Err(ModelError::new_err(format!(
                            "{}; give Bot('policy', model_path=...)",
                            inference::shipped::none_fits(&what)
                        )));
                    };
                    *slot = Some(advisor);
                }
                match slot {
                    Some(a) => policy_choice(a, &obs, &legal),
                    None => Err(ModelError::new_err("no shipped model loaded")),
                }
            }
        }
    }
}

/// The policy's most probable legal action.
fn policy_choice(
    advisor: &Advisor,
    obs: &engine::game::Observation,
    legal: &engine::game::LegalActions,
) -> PyResult<Action> {
    advisor
        .advise_with_legal(obs, legal.as_slice())
        .map_err(|e| ModelError::new_err(format!("{e:#}")))?
        .best()
        .ok_or_else(|| ModelError::new_err("the policy ranked no action"))
}

/// Moves every seat that has a bot until a seat without one must act or the hand ends
/// (with `next_hand`, the next hand is dealt and play goes on until the game ends).
/// Returns the number of actions played.
pub fn run_bots(s: &mut Session, bots: &mut [Option<BotKind>], next_hand: bool) -> PyResult<usize> {
    let mut played = 0;
    loop {
        match s.game.phase() {
            Phase::GameOver => return Ok(played),
            Phase::HandOver if next_hand => {
                s.game
                    .start_next_hand()
                    .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
                continue;
            }
            Phase::HandOver => return Ok(played),
            Phase::Turn | Phase::Claim => {}
        }
        let seats = s.game.seats_to_act();
        let Some(seat) = seats
            .iter()
            .copied()
            .find(|&seat| bots.get(seat as usize).is_some_and(Option::is_some))
        else {
            return Ok(played);
        };
        let action = match bots[seat as usize].as_mut() {
            Some(b) => b.choose(s, seat)?,
            None => return Ok(played),
        };
        s.apply(seat, action)?;
        played += 1;
    }
}

/// A built-in player: `Bot("eff")`, `Bot("defend")`, `Bot("random", seed=1)`, `Bot("policy",
/// model_path=None)` (the shipped model that fits the game's rules when no path is given).
#[pyclass(module = "mahjong_engine._native", name = "Bot")]
pub struct PyBot {
    pub(crate) bot: BotKind,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (kind = "eff", seed = 0, model_path = None))]
    fn new(kind: &str, seed: u64, model_path: Option<&str>) -> PyResult<PyBot> {
        Ok(PyBot {
            bot: BotKind::parse(kind, seed, model_path)?,
        })
    }

    /// The bot's name (`random`, `eff`, `policy`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.bot.name()
    }

    /// The action index the bot chooses for `seat` of `game` (which must have a
    /// decision). The game is not changed.
    fn act(&mut self, py: Python<'_>, game: &PyGame, seat: i64) -> PyResult<usize> {
        let seat = seat_arg(&game.s.game, seat)?;
        let bot = &mut self.bot;
        let s = &game.s;
        py.detach(|| bot.choose(s, seat)).map(|a| a.index())
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.bot.name())
    }
}

/// Plays `game` with `bots` (one entry per seat: a bot name, a `Bot`, or None for a seat
/// the caller plays) until a seat without a bot must act, or the hand ends (the game,
/// with `next_hand=True`). Returns the number of actions played.
#[pyfunction]
#[pyo3(signature = (game, bots, next_hand = false, seed = 0))]
fn play_bots(
    py: Python<'_>,
    game: &mut PyGame,
    bots: Vec<Option<Bound<'_, PyAny>>>,
    next_hand: bool,
    seed: u64,
) -> PyResult<usize> {
    let mut kinds = bot_list(&bots, seed)?;
    if kinds.len() != game.s.game.rules().players as usize {
        return Err(IllegalActionError::new_err(format!(
            "bots has {} entries for {} seats",
            kinds.len(),
            game.s.game.rules().players
        )));
    }
    let s = &mut game.s;
    let played = py.detach(|| run_bots(s, &mut kinds, next_hand))?;
    // Random bots passed as objects keep their generator state.
    for (arg, kind) in bots.iter().zip(kinds) {
        if let (Some(obj), Some(kind)) = (arg, kind) {
            if let Ok(mut b) = obj.extract::<PyRefMut<'_, PyBot>>() {
                b.bot = kind;
            }
        }
    }
    Ok(played)
}

/// Bots from names or `Bot` objects; the random bot of seat `i` named by string is
/// seeded with `seed + i`.
pub fn bot_list(bots: &[Option<Bound<'_, PyAny>>], seed: u64) -> PyResult<Vec<Option<BotKind>>> {
    bots.iter()
        .enumerate()
        .map(|(i, b)| {
            b.as_ref()
                .map(|b| {
                    if let Ok(bot) = b.extract::<PyRef<'_, PyBot>>() {
                        Ok(bot.bot.clone())
                    } else if let Ok(name) = b.extract::<String>() {
                        BotKind::parse(&name, seed.wrapping_add(i as u64), None)
                    } else {
                        Err(IllegalActionError::new_err(format!(
                            "bots[{i}] is neither a bot name ({BOT_NAMES}) nor a Bot"
                        )))
                    }
                })
                .transpose()
        })
        .collect()
}

/// Adds the class and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(play_bots, m)?)?;
    Ok(())
}
