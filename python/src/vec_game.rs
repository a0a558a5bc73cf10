//! `VecGame`: N games stepped in Rust per call, NumPy in and out, the GIL released.
//!
//! Each game exposes one decision at a time (the first seat in `seats_to_act` that no
//! built-in opponent plays — the AEC order). `step(actions)` applies one action per
//! game, lets the opponents move inside Rust, and returns the next decision of every
//! game. A game whose episode ended (the whole game, or one hand with
//! `episode="hand"`) is reset in the same call: its `done` is True, its `rewards` are
//! those of the final step, and the returned observation is the first decision of the
//! next episode (Gymnasium's same-step autoreset).

use engine::encode::{ENCODED_LEN, NUM_TOKENS, TOKEN_FEATURES};
use engine::game::{Action, Phase, NUM_ACTIONS};
use engine::rng::Rng;
use engine::Rules;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bots::{bot_list, run_bots, BotKind};
use crate::errors::{IllegalActionError, RulesError};
use crate::game::Session;
use crate::rules::{preset, preset_name};
use engine::bots::RandomBot;

/// What ends an episode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Episode {
    /// The last hand of the game ended (a new game is dealt).
    Game,
    /// A hand ended (the next hand of the game, or a new game, is dealt).
    Hand,
}

/// The arrays one call returns: observations, masks, seats, rewards, dones.
type Batch<'py> = (
    Option<Bound<'py, PyArray3<f32>>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// The plain buffers behind a [`Batch`], filled without the GIL.
struct Buffers {
    obs: Vec<f32>,
    mask: Vec<bool>,
    seat: Vec<i64>,
    rewards: Vec<f32>,
    done: Vec<bool>,
}

struct Inner {
    rules: Rules,
    seed: u64,
    /// Episodes started so far, all games together (the next new game's seed index).
    episodes: u64,
    episode: Episode,
    /// Whether observations are encoded (False: masks only, for agents that need none).
    observe: bool,
    games: Vec<Session>,
    /// Per game, per seat: the built-in opponent, or None for the caller's seats.
    bots: Vec<Vec<Option<BotKind>>>,
    /// Per game: the seat whose decision was returned last.
    current: Vec<u8>,
    /// Per game: the final scores of its last finished episode.
    final_scores: Vec<[i32; 4]>,
    /// Per game: the scores when last looked at (score changes are summed from them).
    seen: Vec<[i32; 4]>,
    /// Per game and seat: score changes since the decision returned last.
    gained: Vec<[i32; 4]>,
}

impl Inner {
    fn new_game(&mut self, i: usize) -> PyResult<()> {
        let seed = Rng::derive_seed(self.seed, self.episodes);
        self.episodes += 1;
        self.games[i] = Session::new(self.rules, seed)?;
        self.seen[i] = self.games[i].game.scores();
        Ok(())
    }

    /// Adds game `i`'s score changes since it was last looked at to `gained`.
    fn collect_scores(&mut self, i: usize) {
        let now = self.games[i].game.scores();
        for ((g, n), seen) in self.gained[i].iter_mut().zip(now).zip(self.seen[i]) {
            *g += n - seen;
        }
        self.seen[i] = now;
    }

    /// Plays opponents and deals hands until game `i` waits for a caller's decision.
    /// Returns whether an episode ended on the way (the game is then already reset).
    fn advance(&mut self, i: usize) -> PyResult<bool> {
        let mut done = false;
        // Every iteration applies at least one action or deals a hand, and a game is
        // finite; the bound only turns a logic error into an exception.
        for _ in 0..1_000_000 {
            match self.games[i].game.phase() {
                Phase::GameOver => {
                    self.collect_scores(i);
                    self.final_scores[i] = self.games[i].game.scores();
                    done = true;
                    self.new_game(i)?;
                }
                Phase::HandOver => {
                    if self.episode == Episode::Hand {
                        self.final_scores[i] = self.games[i].game.scores();
                        done = true;
                    }
                    self.games[i]
                        .game
                        .start_next_hand()
                        .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
                }
                Phase::Turn | Phase::Claim => {
                    run_bots(&mut self.games[i], &mut self.bots[i], false)?;
                    self.collect_scores(i);
                    if let Some(seat) = self.waiting_seat(i) {
                        self.current[i] = seat;
                        return Ok(done);
                    }
                }
            }
        }
        Err(IllegalActionError::new_err(format!(
            "game {i} made no progress (bots without a decision)"
        )))
    }

    /// The first seat of game `i` that must act and has no bot, if the hand goes on.
    fn waiting_seat(&self, i: usize) -> Option<u8> {
        let g = &self.games[i].game;
        if !matches!(g.phase(), Phase::Turn | Phase::Claim) {
            return None;
        }
        let bots = &self.bots[i];
        g.seats_to_act()
            .iter()
            .copied()
            .find(|&t| bots.get(t as usize).is_none_or(Option::is_none))
    }

    fn fill(&self, b: &mut Buffers) -> PyResult<()> {
        let mut enc = [0.0f32; ENCODED_LEN];
        for (i, s) in self.games.iter().enumerate() {
            let seat = self.current[i];
            if self.observe {
                s.encode_into(seat, &mut enc)?;
                b.obs[i * ENCODED_LEN..(i + 1) * ENCODED_LEN].copy_from_slice(&enc);
            }
            b.mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
                .copy_from_slice(&s.game.legal_actions(seat).mask());
            b.seat[i] = seat as i64;
        }
        Ok(())
    }

    fn buffers(&self) -> Buffers {
        let n = self.games.len();
        Buffers {
            obs: if self.observe {
                vec![0.0; n * ENCODED_LEN]
            } else {
                Vec::new()
            },
            mask: vec![false; n * NUM_ACTIONS],
            seat: vec![0; n],
            rewards: vec![0.0; n * self.rules.players as usize],
            done: vec![false; n],
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> PyResult<Buffers> {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.episodes = 0;
        for i in 0..self.games.len() {
            self.gained[i] = [0; 4];
            self.new_game(i)?;
            self.advance(i)?;
        }
        let mut b = self.buffers();
        self.fill(&mut b)?;
        Ok(b)
    }

    fn check(&self, actions: &[i64]) -> PyResult<Vec<Action>> {
        if actions.len() != self.games.len() {
            return Err(IllegalActionError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        actions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let seat = self.current[i];
                let action = usize::try_from(a)
                    .ok()
                    .and_then(Action::from_index)
                    .filter(|&x| self.games[i].game.legal_actions(seat).contains(x));
                action.ok_or_else(|| {
                    IllegalActionError::new_err(format!(
                        "game {i}: action {a} is not legal for seat {seat} (no game was changed)"
                    ))
                })
            })
            .collect()
    }

    fn step(&mut self, actions: &[i64]) -> PyResult<Buffers> {
        let actions = self.check(actions)?;
        let players = self.rules.players as usize;
        let mut b = self.buffers();
        for (i, action) in actions.into_iter().enumerate() {
            let seat = self.current[i];
            self.games[i].apply(seat, action)?;
            self.collect_scores(i);
            b.done[i] = self.advance(i)?;
            for p in 0..players {
                b.rewards[i * players + p] = self.gained[i][p] as f32;
            }
            self.gained[i] = [0; 4];
        }
        self.fill(&mut b)?;
        Ok(b)
    }
}

/// `VecGame(num_games, rules="sanma", seed=0, opponents=None, learner_seat=0,
/// episode="game", observe=True)`: N games stepped together.
///
/// With `observe=False` no observation is encoded (the first array returned is None):
/// for agents that need only the masks, such as random agents (encoding an observation
/// costs ~70 µs, most of it the value scores of the hand; a step without it ~1 µs).
///
/// Without `opponents` the caller plays every seat (the returned `seat` says whose
/// decision each row is). With `opponents` (one bot name per other seat, e.g.
/// `("eff", "eff")`), the caller plays `learner_seat` only and the bots move inside Rust.
#[pyclass(module = "mahjong_engine._native", name = "VecGame")]
pub struct PyVecGame {
    inner: Inner,
}

#[pymethods]
impl PyVecGame {
    #[new]
    #[pyo3(signature = (num_games, rules = "sanma", seed = 0, opponents = None, learner_seat = 0, episode = "game", observe = true))]
    fn new(
        num_games: usize,
        rules: &str,
        seed: u64,
        opponents: Option<Vec<Bound<'_, PyAny>>>,
        learner_seat: u8,
        episode: &str,
        observe: bool,
    ) -> PyResult<PyVecGame> {
        let rules_v = preset(rules)?;
        let players = rules_v.players as usize;
        if num_games == 0 || num_games > 1 << 20 {
            return Err(RulesError::new_err(format!(
                "num_games = {num_games} is not in 1..=1048576"
            )));
        }
        let episode = match episode {
            "game" => Episode::Game,
            "hand" => Episode::Hand,
            o => {
                return Err(RulesError::new_err(format!(
                    "episode {o:?} is neither 'game' nor 'hand'"
                )))
            }
        };
        let seats: Vec<Option<Bound<'_, PyAny>>> = match &opponents {
            None => vec![None; players],
            Some(o) => {
                if o.len() + 1 != players || learner_seat as usize >= players {
                    return Err(RulesError::new_err(format!(
                        "opponents needs {} entries and learner_seat a seat below {players} \
                         for {rules} (got {} and {learner_seat})",
                        players - 1,
                        o.len()
                    )));
                }
                let mut it = o.iter().cloned();
                (0..players)
                    .map(|s| {
                        if s == learner_seat as usize {
                            None
                        } else {
                            it.next()
                        }
                    })
                    .collect()
            }
        };
        // The bots are made once (a policy loads its model once; every game shares it)
        // and copied per game; a random bot named by string gets a seed per game and seat.
        let template = bot_list(&seats, 0)?;
        let named: Vec<bool> = seats
            .iter()
            .map(|b| b.as_ref().is_some_and(|b| b.extract::<String>().is_ok()))
            .collect();
        let bots = (0..num_games)
            .map(|g| {
                let game_seed = Rng::derive_seed(seed ^ 0xb075_5eed, (g * players) as u64);
                let mut game_bots = template.clone();
                for (s, b) in game_bots.iter_mut().enumerate() {
                    if let (Some(BotKind::Random(r)), true) = (b, named[s]) {
                        *r = RandomBot::new(game_seed.wrapping_add(s as u64));
                    }
                }
                game_bots
            })
            .collect();
        let placeholder = Session::new(rules_v, 0)?;
        Ok(PyVecGame {
            inner: Inner {
                rules: rules_v,
                seed,
                episodes: 0,
                episode,
                observe,
                games: vec![placeholder; num_games],
                bots,
                current: vec![0; num_games],
                final_scores: vec![[0; 4]; num_games],
                seen: vec![[0; 4]; num_games],
                gained: vec![[0; 4]; num_games],
            },
        })
    }

    /// Number of games.
    #[getter]
    fn num_games(&self) -> usize {
        self.inner.games.len()
    }

    /// Seats per game.
    #[getter]
    fn players(&self) -> u8 {
        self.inner.rules.players
    }

    /// The preset name of the rules.
    #[getter]
    fn rules(&self) -> &'static str {
        preset_name(&self.inner.rules)
    }

    /// Deals a new game in every slot (reseeded when `seed` is given) and returns
    /// `(observations (N, tokens, features) float32, masks (N, NUM_ACTIONS) bool, seats
    /// (N,) int64, rewards (N, players) float32 zeros, dones (N,) bool False)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Batch<'py>> {
        let inner = &mut self.inner;
        let b = py.detach(|| inner.reset(seed))?;
        self.batch(py, b)
    }

    /// Applies `actions[i]` (an int64 array of action indices) to game `i` for the seat
    /// returned last, lets the opponents move, and returns the arrays of `reset` with
    /// each seat's score change as `rewards` and `dones` for the episodes that ended.
    /// If any action is illegal, IllegalActionError is raised and no game changes.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Batch<'py>> {
        let actions: Vec<i64> = actions.as_array().iter().copied().collect();
        let inner = &mut self.inner;
        let b = py.detach(|| inner.step(&actions))?;
        self.batch(py, b)
    }

    /// The game record of game `i` (postcard bytes, as `Game.game_record()`), e.g. to
    /// replay it with `Game.from_game_record`.
    fn game_record<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyBytes>> {
        let s = self.inner.games.get(i).ok_or_else(|| {
            IllegalActionError::new_err(format!("game {i} is not in 0..{}", self.inner.games.len()))
        })?;
        Ok(PyBytes::new(py, &s.game_record()?))
    }

    /// The final scores of each game's last finished episode, `(N, players)` int64.
    fn final_scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let p = self.inner.rules.players as usize;
        let v: Vec<i64> = self
            .inner
            .final_scores
            .iter()
            .flat_map(|s| s[..p].iter().map(|&x| x as i64))
            .collect();
        Array2::from_shape_vec((self.inner.games.len(), p), v)
            .map(|a| a.into_pyarray(py))
            .map_err(|e| IllegalActionError::new_err(e.to_string()))
    }
}

impl PyVecGame {
    fn batch<'py>(&self, py: Python<'py>, b: Buffers) -> PyResult<Batch<'py>> {
        let n = self.inner.games.len();
        let p = self.inner.rules.players as usize;
        let shape_err = |e: numpy::ndarray::ShapeError| IllegalActionError::new_err(e.to_string());
        Ok((
            match self.inner.observe {
                true => Some(
                    Array3::from_shape_vec((n, NUM_TOKENS, TOKEN_FEATURES), b.obs)
                        .map_err(shape_err)?
                        .into_pyarray(py),
                ),
                false => None,
            },
            Array2::from_shape_vec((n, NUM_ACTIONS), b.mask)
                .map_err(shape_err)?
                .into_pyarray(py),
            Array1::from_vec(b.seat).into_pyarray(py),
            Array2::from_shape_vec((n, p), b.rewards)
                .map_err(shape_err)?
                .into_pyarray(py),
            Array1::from_vec(b.done).into_pyarray(py),
        ))
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecGame>()
}
