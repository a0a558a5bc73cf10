//! `Game`: one game of mahjong (a sequence of hands), driven seat by seat.
//!
//! The same loop as everywhere in this project: ask `seats_to_act()`, give each of those
//! seats its `observation` and `legal_actions`, `apply` their choices. Records are the
//! engine's postcard bytes: `game_record()` is a `GameRecord` (rules, seed, every action
//! of every hand), `hand_record()` a `HandRecord` (the current hand with its wall).

use engine::encode::{self, ENCODED_LEN, NUM_TOKENS, TOKEN_FEATURES};
use engine::game::{Action, Game, GameRecord, HandRecord, RECORD_MAX_BYTES};
use engine::notation::Counts;
use engine::Rules;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde::Serialize;

use crate::errors::{illegal, IllegalActionError, RecordError};
use crate::events;
use crate::rules::{action_arg, preset, preset_name};

/// Most actions a game record holds when read back (a hand takes at most a few hundred).
pub const GAME_RECORD_CAP: usize = 16_384;

/// The postcard layout of `engine::game::GameRecord` with a growable action list (a
/// heapless vector and a `Vec` serialize alike; a test checks the bytes are equal).
#[derive(Serialize)]
struct GameRecordOut<'a> {
    rules: Rules,
    seed: u64,
    actions: &'a [(u8, Action)],
}

/// A game with its whole action log.
#[derive(Clone)]
pub struct Session {
    /// The engine state.
    pub game: Game,
    /// Every action applied since the game began (the game record's actions).
    pub log: Vec<(u8, Action)>,
}

impl Session {
    /// A new game.
    pub fn new(rules: Rules, seed: u64) -> PyResult<Session> {
        let game = Game::new(rules, seed)
            .map_err(|e| crate::errors::RulesError::new_err(e.to_string()))?;
        Ok(Session {
            game,
            log: Vec::new(),
        })
    }

    /// Applies one action; a refused action changes nothing.
    pub fn apply(&mut self, seat: u8, action: Action) -> PyResult<engine::game::Events> {
        let events = self
            .game
            .apply(seat, action)
            .map_err(|e| illegal(e, seat, &search::action_label(action)))?;
        self.log.push((seat, action));
        Ok(events)
    }

    /// The encoded observation of `seat` into `out`.
    pub fn encode_into(&self, seat: u8, out: &mut [f32; ENCODED_LEN]) -> PyResult<()> {
        let obs = self
            .game
            .observation(seat)
            .map_err(|e| illegal(e, seat, "observation"))?;
        encode::encode(&obs, out);
        Ok(())
    }

    /// The postcard bytes of the game record.
    pub fn game_record(&self) -> PyResult<Vec<u8>> {
        let r = GameRecordOut {
            rules: *self.game.rules(),
            seed: self.game.seed(),
            actions: &self.log,
        };
        postcard::to_allocvec(&r).map_err(|e| RecordError::new_err(e.to_string()))
    }
}

/// Checks a seat number against the player count.
pub fn seat_arg(game: &Game, seat: i64) -> PyResult<u8> {
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < game.rules().players)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "seat {seat} is not in 0..{}",
                game.rules().players
            ))
        })
}

/// A game of mahjong: `Game(rules="sanma", seed=0)`.
///
/// Seats are absolute, from 0; the dealer of the first hand is seat 0. Actions are
/// indices in `0..NUM_ACTIONS` (see `action_name`) or names such as `"discard 5p"`.
#[pyclass(module = "mahjong_engine._native", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) s: Session,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules = "sanma", seed = 0))]
    fn new(rules: &str, seed: u64) -> PyResult<PyGame> {
        Ok(PyGame {
            s: Session::new(preset(rules)?, seed)?,
        })
    }

    /// Replays a game record (`game_record()` bytes).
    #[staticmethod]
    fn from_game_record(data: &[u8]) -> PyResult<PyGame> {
        let rec: Box<GameRecord<GAME_RECORD_CAP>> = Box::new(
            postcard::from_bytes(data)
                .map_err(|e| RecordError::new_err(format!("not a game record: {e}")))?,
        );
        let game = rec
            .replay()
            .map_err(|e| RecordError::new_err(e.to_string()))?;
        Ok(PyGame {
            s: Session {
                game,
                log: rec.actions.to_vec(),
            },
        })
    }

    /// Replays a hand record (`hand_record()` bytes); the game goes on from that hand.
    #[staticmethod]
    fn from_hand_record(data: &[u8]) -> PyResult<PyGame> {
        let rec = HandRecord::from_postcard(data)
            .map_err(|e| RecordError::new_err(format!("not a hand record: {e}")))?;
        let game = rec
            .replay()
            .map_err(|e| RecordError::new_err(e.to_string()))?;
        Ok(PyGame {
            s: Session {
                game,
                log: rec.actions.to_vec(),
            },
        })
    }

    /// The preset name of the rules (`custom` for none).
    #[getter]
    fn rules(&self) -> &'static str {
        preset_name(self.s.game.rules())
    }

    /// Number of seats (3 or 4).
    #[getter]
    fn players(&self) -> u8 {
        self.s.game.rules().players
    }

    /// The game seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.s.game.seed()
    }

    /// `"turn"`, `"claim"`, `"hand_over"` or `"game_over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        events::phase_name(self.s.game.phase())
    }

    /// The dealer of the current hand.
    #[getter]
    fn dealer(&self) -> u8 {
        self.s.game.dealer()
    }

    /// The seat on turn (during a claim window: the discarder).
    #[getter]
    fn turn(&self) -> u8 {
        self.s.game.turn()
    }

    /// The hand number, from 0.
    #[getter]
    fn hand_number(&self) -> u16 {
        self.s.game.hand_number()
    }

    /// Tiles left in the live wall.
    #[getter]
    fn live_wall(&self) -> u8 {
        self.s.game.live_wall_remaining()
    }

    /// Scores by seat.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.s.game.scores()[..self.players() as usize].to_vec()
    }

    /// Whether the last hand of the game ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.s.game.is_over()
    }

    /// Number of actions applied since the game began.
    #[getter]
    fn num_actions_played(&self) -> usize {
        self.s.log.len()
    }

    /// The public state as a dict (phase, dealer, turn, hand number, live wall, scores,
    /// whether the game is over, the last hand's result).
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("rules", self.rules())?;
        d.set_item("players", self.players())?;
        d.set_item("phase", self.phase())?;
        d.set_item("dealer", self.dealer())?;
        d.set_item("turn", self.turn())?;
        d.set_item("hand_number", self.hand_number())?;
        d.set_item("hands_per_game", self.s.game.rules().hands_per_game)?;
        d.set_item("live_wall", self.live_wall())?;
        d.set_item("scores", self.scores())?;
        d.set_item("is_over", self.is_over())?;
        d.set_item("last_result", self.last_result(py)?)?;
        Ok(d)
    }

    /// The result of the last finished hand, or None.
    fn last_result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.s
            .game
            .last_result()
            .map(|r| events::hand_result(py, r, self.players() as usize))
            .transpose()
    }

    /// The seats that must act now (several during a claim window, none when a hand
    /// is over).
    fn seats_to_act(&self) -> Vec<u32> {
        self.s
            .game
            .seats_to_act()
            .iter()
            .map(|&s| s as u32)
            .collect()
    }

    /// The legal action indices of `seat`, ascending (empty when it has no decision).
    fn legal_actions(&self, seat: i64) -> PyResult<Vec<usize>> {
        let seat = seat_arg(&self.s.game, seat)?;
        let mut v: Vec<usize> = self
            .s
            .game
            .legal_actions(seat)
            .iter()
            .map(|a| a.index())
            .collect();
        v.sort_unstable();
        Ok(v)
    }

    /// The legal actions of `seat` as a bool array of `NUM_ACTIONS`.
    fn legal_mask<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let seat = seat_arg(&self.s.game, seat)?;
        let mask = self.s.game.legal_actions(seat).mask();
        Ok(Array1::from_vec(mask.to_vec()).into_pyarray(py))
    }

    /// The encoded observation of `seat`: float32 of shape `OBSERVATION_SHAPE`
    /// (tokens × features; see the engine's `encode` module, `ENCODING_VERSION`).
    fn observation<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let seat = seat_arg(&self.s.game, seat)?;
        let mut buf = [0.0f32; ENCODED_LEN];
        self.s.encode_into(seat, &mut buf)?;
        let arr = Array2::from_shape_vec((NUM_TOKENS, TOKEN_FEATURES), buf.to_vec())
            .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        Ok(arr.into_pyarray(py))
    }

    /// What `seat` may see, as a dict (hand in mpsz, melds, discards, unseen counts,
    /// scores, pending claim).
    fn view<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyDict>> {
        let seat = seat_arg(&self.s.game, seat)?;
        let obs = self
            .s
            .game
            .observation(seat)
            .map_err(|e| illegal(e, seat, "view"))?;
        events::observation(py, &obs)
    }

    /// The closed hand of `seat` in mpsz (the game knows every hand; an agent should
    /// see only its own, through `observation` or `view`).
    fn hand(&self, seat: i64) -> PyResult<String> {
        let seat = seat_arg(&self.s.game, seat)?;
        Ok(self
            .s
            .game
            .hand(seat)
            .map(|h| Counts(h).to_string())
            .unwrap_or_default())
    }

    /// Applies `action` (an index or a name) for `seat` and returns the events it
    /// caused, as dicts. An illegal action raises IllegalActionError and changes nothing.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let seat = seat_arg(&self.s.game, seat)?;
        let action = action_arg(action)?;
        let evs = self.s.apply(seat, action)?;
        let players = self.players() as usize;
        let out = PyList::empty(py);
        for e in evs.iter() {
            out.append(events::event(py, e, players)?)?;
        }
        Ok(out)
    }

    /// Deals the next hand after one ended (raises when the hand is still in progress or
    /// the game is over).
    fn start_next_hand(&mut self) -> PyResult<()> {
        self.s
            .game
            .start_next_hand()
            .map(|_| ())
            .map_err(|e| IllegalActionError::new_err(format!("start_next_hand: {e}")))
    }

    /// The game record (rules, seed, every action of every hand) as postcard bytes.
    fn game_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.s.game_record()?))
    }

    /// The current hand's record (rules, seed, scores, wall, actions) as postcard bytes.
    fn hand_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut buf = vec![0u8; RECORD_MAX_BYTES];
        let used = self
            .s
            .game
            .hand_record()
            .to_postcard(&mut buf)
            .map_err(|e| RecordError::new_err(e.to_string()))?
            .len();
        Ok(PyBytes::new(py, &buf[..used]))
    }

    /// An independent copy of the game (for search or what-if analysis).
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(rules={:?}, seed={}, hand {}, phase {}, scores {:?})",
            self.rules(),
            self.seed(),
            self.hand_number(),
            self.phase(),
            self.scores()
        )
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()
}
