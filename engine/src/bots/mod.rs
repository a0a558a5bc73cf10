//! Baseline players and the loop that plays a hand with them.
//!
//! An [`Agent`] sees exactly what a seat may see (an [`Observation`]) plus the legal
//! actions, and chooses one. The same interface serves the random bot, the efficiency
//! bot and (on the host) the learned policy, so the arena, the trainer's evaluation and
//! the C ABI drive them all alike.

pub mod danger;
mod defend;
mod efficiency;
mod play;
mod random;

pub use defend::{hand_value, win_chance, DefendBot, FOLD_LEAK, HORIZON};
pub use efficiency::{EfficiencyBot, ReferenceEfficiencyBot};
pub use play::{play_hand, HandSummary, PlayError, SeatOutcome};
pub use random::{RandomBot, DEFAULT_CALL_PROBABILITY};

use crate::game::{Action, LegalActions, Observation};

/// A player: chooses one of `legal` for the seat that observes `obs`.
///
/// `legal` is never empty when the game asks. An agent that returns an action outside
/// `legal` makes [`play_hand`] fail with [`PlayError::IllegalChoice`].
pub trait Agent {
    /// Chooses an action.
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action;
}

impl<A: Agent + ?Sized> Agent for &mut A {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        (**self).act(obs, legal)
    }
}

/// The number of melds (open or closed kans included) a seat has made.
pub(crate) fn own_melds(obs: &Observation) -> u8 {
    obs.melds
        .get(obs.seat as usize)
        .map_or(0, |m| m.len() as u8)
}
