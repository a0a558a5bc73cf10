//! Hand records: everything needed to replay a hand exactly, serialisable with serde
//! (postcard on device, JSON on the host).
//!
//! A record stores the shuffled wall itself rather than only the seed, so scenario hands
//! built with [`Game::from_setup`] are recordable too; the game seed is kept so that a
//! replayed game can go on to the next hand.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::caps::{LOG_CAP, MAX_WALL};
use super::copy::FiveCopy;
use super::error::RuleError;
use super::fives::RED_COPIES_CAP;
use super::riichi_flow::Table;
use super::state::Game;
use crate::rules::Rules;
use crate::tile::Tile;

/// An upper bound on the postcard size of a [`HandRecord`]: rules, 136 wall tiles and
/// `LOG_CAP` actions of at most four bytes each. (An action takes at most three — seat,
/// variant, tile —, which leaves room for the riichi start and its at most
/// [`RED_COPIES_CAP`] copy choices of three bytes each; the value is also the C ABI's
/// `MJ_RECORD_MAX_BYTES`.)
pub const RECORD_MAX_BYTES: usize = 192 + MAX_WALL + 4 * LOG_CAP;

/// One hand, replayable.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HandRecord {
    /// The rules the hand was played under.
    pub rules: Rules,
    /// The game seed (later hands derive their walls from it).
    pub seed: u64,
    /// The hand number, from 0.
    pub hand_number: u16,
    /// The dealer.
    pub dealer: u8,
    /// Scores at the start of the hand.
    pub scores: [i32; 4],
    /// The wall in order: deal, live wall, dead wall.
    pub wall: heapless::Vec<Tile, MAX_WALL>,
    /// Every action in order, with its seat.
    pub actions: heapless::Vec<(u8, Action), LOG_CAP>,
    /// The riichi state at the start of the hand (riichi rules only).
    #[serde(default)]
    pub riichi: Option<RiichiStart>,
}

/// What a riichi hand needs besides the wall and the actions: the table, the red fives
/// and the copies of them its actions chose.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RiichiStart {
    /// Round wind, honba and riichi sticks.
    pub table: Table,
    /// Bit `i % 64` of word `i / 64`: wall position `i` holds a red five.
    pub red: [u64; 3],
    /// The indices into `actions` of the actions applied with
    /// [`FiveCopy::Red`] where [`Game::apply`] would have kept the red five
    /// ([`Game::red_copies`]); replay applies them with that copy. Absent (empty) in
    /// records written before the copy choice existed, which replay as before.
    #[serde(default)]
    pub red_copies: heapless::Vec<u16, RED_COPIES_CAP>,
}

/// Why a record cannot be decoded or replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// The bytes are not a record (or the buffer is too small to encode one).
    Encoding(postcard::Error),
    /// The rules, wall, dealer or scores cannot start a hand.
    BadStart(RuleError),
    /// Action number `index` was refused.
    IllegalAction {
        /// Position in `actions`.
        index: usize,
        /// Why it was refused.
        error: RuleError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Encoding(e) => write!(f, "record encoding: {e}"),
            RecordError::BadStart(e) => write!(f, "record cannot start a hand: {e}"),
            RecordError::IllegalAction { index, error } => {
                write!(f, "record action {index}: {error}")
            }
        }
    }
}

impl core::error::Error for RecordError {}

impl HandRecord {
    /// The game at the start of the recorded hand.
    pub fn start(&self) -> Result<Game, RecordError> {
        let mut red = [false; MAX_WALL];
        let mut table = Table::default();
        if let Some(r) = &self.riichi {
            table = r.table;
            for (i, x) in red.iter_mut().enumerate() {
                *x = r.red.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
            }
        }
        Game::from_wall(
            self.rules,
            self.seed,
            &self.wall,
            self.dealer,
            self.hand_number,
            self.scores,
            red.get(..self.wall.len()).unwrap_or(&[]),
            table,
        )
        .map_err(RecordError::BadStart)
    }

    /// Replays every action and returns the resulting game (equal to the recorded game
    /// at the moment the record was taken).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = self.start()?;
        for index in 0..self.actions.len() {
            self.apply_action(&mut game, index)?;
        }
        Ok(game)
    }

    /// The copy of a five action `index` was applied with, when it was named
    /// ([`RiichiStart::red_copies`]); `None`: [`Game::apply`]'s choice.
    pub fn copy_at(&self, index: usize) -> Option<FiveCopy> {
        let named = self
            .riichi
            .as_ref()
            .is_some_and(|r| r.red_copies.iter().any(|&i| usize::from(i) == index));
        named.then_some(FiveCopy::Red)
    }

    /// Applies action `index` of the record to `game` (with its copy of a five, see
    /// [`HandRecord::copy_at`]) and returns its events.
    pub fn apply_action(
        &self,
        game: &mut Game,
        index: usize,
    ) -> Result<super::event::Events, RecordError> {
        let &(seat, action) = self.actions.get(index).ok_or(RecordError::IllegalAction {
            index,
            error: RuleError::IllegalAction,
        })?;
        match self.copy_at(index) {
            Some(copy) => game.apply_with_copy(seat, action, copy),
            None => game.apply(seat, action),
        }
        .map_err(|error| RecordError::IllegalAction { index, error })
    }

    /// Encodes with postcard into `buf`, returning the used prefix.
    pub fn to_postcard<'a>(&self, buf: &'a mut [u8]) -> Result<&'a mut [u8], RecordError> {
        postcard::to_slice(self, buf).map_err(RecordError::Encoding)
    }

    /// Decodes a postcard record.
    pub fn from_postcard(bytes: &[u8]) -> Result<HandRecord, RecordError> {
        postcard::from_bytes(bytes).map_err(RecordError::Encoding)
    }
}

impl Game {
    /// The record of the current hand so far (complete once the hand is over).
    pub fn hand_record(&self) -> HandRecord {
        // Under riichi rules replacement draws move the indicator block: record the
        // wall as dealt.
        let (dealt, reds) = self.initial_wall();
        let mut wall = heapless::Vec::new();
        for &t in dealt.get(..self.wall_len as usize).unwrap_or(&[]) {
            // The wall holds at most MAX_WALL tiles by construction.
            let _ = wall.push(t);
        }
        let riichi = self.rules.is_riichi().then(|| {
            let mut red = [0u64; 3];
            for (i, &r) in reds.iter().enumerate() {
                if let (true, Some(w)) = (r, red.get_mut(i / 64)) {
                    *w |= 1 << (i % 64);
                }
            }
            let mut red_copies = heapless::Vec::new();
            for &i in self.red_copies() {
                // At most RED_COPIES_CAP are recorded (`Game::apply_with_copy`).
                let _ = red_copies.push(i);
            }
            RiichiStart {
                table: self.start_table,
                red,
                red_copies,
            }
        });
        HandRecord {
            rules: self.rules,
            seed: self.seed,
            hand_number: self.hand_number,
            dealer: self.dealer,
            scores: self.start_scores,
            wall,
            actions: self.log.clone(),
            riichi,
        }
    }
}

/// A whole game as its rules, seed and every action in order, with `N` actions of
/// capacity (a hand takes at most [`LOG_CAP`], typically 100–200). Hand boundaries are
/// implicit: when a hand ends, replay deals the next one before the next action. Walls
/// are not stored since they derive from the seed. Actions replay with
/// [`Game::apply`]'s copy of a five; a game played with [`Game::apply_with_copy`] is
/// recorded hand by hand ([`Game::hand_record`]).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord<const N: usize> {
    /// The rules of the game.
    pub rules: Rules,
    /// The game seed.
    pub seed: u64,
    /// Every action of every hand, in order, with its seat.
    pub actions: heapless::Vec<(u8, Action), N>,
}

impl<const N: usize> GameRecord<N> {
    /// An empty record for a game created with `Game::new(rules, seed)`.
    pub fn new(rules: Rules, seed: u64) -> Self {
        GameRecord {
            rules,
            seed,
            actions: heapless::Vec::new(),
        }
    }

    /// Appends an applied action; fails when the capacity is exhausted.
    pub fn push(&mut self, seat: u8, action: Action) -> Result<(), RuleError> {
        self.actions
            .push((seat, action))
            .map_err(|_| RuleError::CapacityExceeded)
    }

    /// Replays the game from its seed and returns the final state.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.rules, self.seed).map_err(RecordError::BadStart)?;
        for (index, &(seat, action)) in self.actions.iter().enumerate() {
            if game.phase() == super::state::Phase::HandOver {
                game.start_next_hand()
                    .map_err(|error| RecordError::IllegalAction { index, error })?;
            }
            game.apply(seat, action)
                .map_err(|error| RecordError::IllegalAction { index, error })?;
        }
        Ok(game)
    }
}
