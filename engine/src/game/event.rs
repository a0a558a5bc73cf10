//! Events reported by [`Game::apply`](super::Game::apply): full-information engine
//! events (what a player may see is decided by observations, not here).

use serde::{Deserialize, Serialize};

use super::agari::WinShape;
use super::meld::Meld;
use crate::tile::Tile;

/// The most events one call can produce (three wins, the hand end and the game end).
pub const EVENTS_CAP: usize = 8;

/// The events of one call.
pub type Events = heapless::Vec<Event, EVENTS_CAP>;

/// How a hand ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum HandEndKind {
    /// One or more players won.
    Win,
    /// The live wall ran out and the last discard was not won on.
    ExhaustiveDraw,
}

/// The outcome of a hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct HandResult {
    /// Win or exhaustive draw.
    pub kind: HandEndKind,
    /// Which seats won.
    pub winners: [bool; 4],
    /// The seat that discarded the winning tile (or added the robbed kan tile); `None`
    /// for a self-draw or an exhaustive draw.
    pub discarder: Option<u8>,
    /// The winning tile, if any.
    pub tile: Option<Tile>,
    /// The value of each winner's hand (0 for non-winners).
    pub values: [i32; 4],
    /// The score change of every seat by the result. Sums to zero under the simple
    /// rules; under the riichi rules a winner's includes the riichi sticks it collects,
    /// and the deposits paid during the hand are not in it (as in Tenhou's logs):
    /// `Game::hand_score_changes` is the whole change.
    pub deltas: [i32; 4],
}

/// Something that happened.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Event {
    /// `seat` drew `tile` (from the dead wall when `replacement`).
    Drew {
        /// Who drew.
        seat: u8,
        /// The tile drawn.
        tile: Tile,
        /// Whether it was a kan replacement draw.
        replacement: bool,
    },
    /// `seat` discarded `tile`.
    Discarded {
        /// Who discarded.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat` declared an added kan that others may rob; a claim window is open.
    KanDeclared {
        /// Who declared.
        seat: u8,
        /// The added tile.
        tile: Tile,
    },
    /// `seat` made a meld (call or kan declaration).
    Called {
        /// Who melded.
        seat: u8,
        /// The meld.
        meld: Meld,
    },
    /// `seat` won.
    Won {
        /// The winner.
        seat: u8,
        /// The discarder for ron, `None` for tsumo.
        from: Option<u8>,
        /// The winning tile.
        tile: Tile,
        /// The winning shape scored.
        shape: WinShape,
        /// The value of the hand.
        value: i32,
    },
    /// The hand ended.
    HandEnded(HandResult),
    /// The game ended with these scores.
    GameEnded {
        /// Final scores by seat.
        scores: [i32; 4],
    },
}
