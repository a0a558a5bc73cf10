//! The random-rule bot: the weakest sensible player, a floor for every evaluation.

use super::Agent;
use crate::game::{Action, LegalActions, Observation};
use crate::rng::Rng;

/// Probability with which [`RandomBot`] takes an offered pon, chi or kan (open, closed
/// or added). Low, because calling at random mostly wrecks a hand; high enough that
/// games against it exercise every call path.
pub const DEFAULT_CALL_PROBABILITY: f32 = 0.1;

/// Wins whenever it can (tsumo or ron); otherwise discards uniformly at random among the
/// legal discards, and takes each offered call with probability
/// [`RandomBot::call_probability`] (a uniformly chosen one when several are offered).
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
    /// Probability of taking an offered call.
    pub call_probability: f32,
}

impl RandomBot {
    /// A random bot with its own seeded generator and [`DEFAULT_CALL_PROBABILITY`].
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
            call_probability: DEFAULT_CALL_PROBABILITY,
        }
    }

    fn pick(&mut self, options: &[Action]) -> Option<Action> {
        if options.is_empty() {
            return None;
        }
        options
            .get(self.rng.below(options.len() as u32) as usize)
            .copied()
    }
}

impl Agent for RandomBot {
    fn act(&mut self, _obs: &Observation, legal: &LegalActions) -> Action {
        if legal.contains(Action::Tsumo) {
            return Action::Tsumo;
        }
        if legal.contains(Action::Ron) {
            return Action::Ron;
        }
        let mut calls: heapless::Vec<Action, 8> = heapless::Vec::new();
        let mut discards: heapless::Vec<Action, 16> = heapless::Vec::new();
        for a in legal.iter() {
            let _ = match a {
                Action::Discard(_) => discards.push(a),
                Action::Pon | Action::OpenKan | Action::Chi(_) => calls.push(a),
                Action::ClosedKan(_) | Action::AddedKan(_) => calls.push(a),
                _ => Ok(()),
            };
        }
        if !calls.is_empty() && self.rng.next_f32() < self.call_probability {
            if let Some(a) = self.pick(&calls) {
                return a;
            }
        }
        if let Some(a) = self.pick(&discards) {
            return a;
        }
        if legal.contains(Action::Pass) {
            return Action::Pass;
        }
        // Only calls were offered and none was taken at random: take one anyway (a
        // turn always has a discard, so this is unreachable with a consistent game).
        legal.iter().next().unwrap_or(Action::Pass)
    }
}
