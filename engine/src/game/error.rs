//! Errors of the game state machine.

use core::fmt;

use crate::rules::RulesError;

/// Why a game operation was refused. A refused operation leaves the game untouched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum RuleError {
    /// The action is not legal for this seat now.
    IllegalAction,
    /// The seat has no decision pending.
    NotYourTurn,
    /// The seat number is not a seat of this game.
    BadSeat,
    /// The hand is over; call `start_next_hand`.
    HandOver,
    /// The hand is still in progress (for `start_next_hand`).
    HandInProgress,
    /// The game is over.
    GameOver,
    /// A fixed capacity (discards, action log, record buffer) would be exceeded.
    CapacityExceeded,
    /// The rules cannot be played.
    InvalidRules(RulesError),
    /// A scenario or record describes an impossible deal or wall (also: a red five
    /// where the rules have none).
    BadSetup,
    /// The hand cannot give up the named copy of a five ([`Game::apply_with_copy`](super::Game::apply_with_copy)):
    /// a red five where the tiles the action takes hold none, or a plain one where the
    /// action must take the red five.
    NoSuchCopy,
    /// Not supported under riichi rules. Nothing returns it any more (determinization
    /// deals riichi positions); kept so that matches on it still compile.
    RiichiUnsupported,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::IllegalAction => f.write_str("illegal action"),
            RuleError::NotYourTurn => f.write_str("this seat has no decision pending"),
            RuleError::BadSeat => f.write_str("no such seat"),
            RuleError::HandOver => f.write_str("the hand is over"),
            RuleError::HandInProgress => f.write_str("the hand is still in progress"),
            RuleError::GameOver => f.write_str("the game is over"),
            RuleError::CapacityExceeded => f.write_str("a fixed capacity would be exceeded"),
            RuleError::InvalidRules(e) => write!(f, "invalid rules: {e}"),
            RuleError::BadSetup => f.write_str("impossible deal or wall"),
            RuleError::NoSuchCopy => f.write_str("the hand holds no such copy of the five"),
            RuleError::RiichiUnsupported => f.write_str("not supported under riichi rules"),
        }
    }
}

impl core::error::Error for RuleError {}

impl From<RulesError> for RuleError {
    fn from(e: RulesError) -> Self {
        RuleError::InvalidRules(e)
    }
}
