//! The random-rule bot: the weakest sensible player, a floor for every evaluation.

use super::Agent;
use crate::game::{Action, LegalActions, Observation};
use crate::rng::Rng;
use crate::tile::Tile;

/// Probability with which [`RandomBot`] takes an offered pon, chi or kan (open, closed
/// or added). Low, because calling at random mostly wrecks a hand; high enough that
/// games against it exercise every call path.
pub const DEFAULT_CALL_PROBABILITY: f32 = 0.1;

/// Wins whenever it can (tsumo or ron); otherwise discards uniformly at random among the
/// legal discards, and takes each offered call with probability
/// [`RandomBot::call_probability`] (a uniformly chosen one when several are offered).
/// Under riichi rules the riichi actions (`Riichi(tile)`, `Kita`, `NineTerminals`)
/// count as calls: offered ones are taken with the same probability, uniformly among
/// all offered calls.
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
}

/// Legal calls the bot considers (pon, open kan, chi, closed and added kans, and the
/// riichi actions).
fn is_call(a: &Action) -> bool {
    matches!(
        a,
        Action::Pon
            | Action::OpenKan
            | Action::Chi(_)
            | Action::ClosedKan(_)
            | Action::AddedKan(_)
            | Action::Riichi(_)
            | Action::Kita
            | Action::NineTerminals
    )
}

/// Number of set bits; most words counted here are zero (and `count_ones` is a
/// software loop on baseline x86-64).
fn ones(x: u64) -> u32 {
    if x == 0 {
        0
    } else {
        x.count_ones()
    }
}

/// Action indices `0..34` (discards) in the first bitset word.
const DISCARD_BITS: u64 = (1 << 34) - 1;
/// Action indices 128..136 (chi), 138, 139 (pon, open kan) and 141..177 (the riichi
/// actions, never legal under the simple rules) in the third word.
const CALL_BITS_2: u64 = 0xff | 1 << 10 | 1 << 11 | ((1 << 36) - 1) << 13;

/// The most calls and discards the bot chooses among (the first ones in the legal
/// list); no reachable state offers more.
const MAX_CALLS: u32 = 8;
const MAX_DISCARDS: u32 = 16;

impl Agent for RandomBot {
    fn act(&mut self, _obs: &Observation, legal: &LegalActions) -> Action {
        if legal.contains(Action::Tsumo) {
            return Action::Tsumo;
        }
        if legal.contains(Action::Ron) {
            return Action::Ron;
        }
        // Count on the action bitset instead of collecting lists; the k-th call or
        // discard of the legal list is found again below, so the random draws and the
        // choice are the same as picking from collected lists.
        // Every action has its bit; only discards live in bits 0..34 of the first word,
        // so counting the (few) other bits is enough.
        let [w0, w1, w2] = legal.bits();
        let calls = ones(w0 & !DISCARD_BITS) + ones(w1) + ones(w2 & CALL_BITS_2);
        let discards = (legal.len() as u32).saturating_sub(calls + ones(w2 & !CALL_BITS_2));
        let (calls, discards) = (calls.min(MAX_CALLS), discards.min(MAX_DISCARDS));
        if calls > 0 && self.rng.next_f32() < self.call_probability {
            let k = self.rng.below(calls) as usize;
            if let Some(a) = legal.iter().filter(is_call).nth(k) {
                return a;
            }
        }
        if discards > 0 {
            // Discards come first in the legal list, in tile index order.
            let mut mask = w0 & DISCARD_BITS;
            for _ in 0..self.rng.below(discards) {
                mask &= mask - 1;
            }
            if let Some(t) = Tile::new(mask.trailing_zeros() as u8) {
                return Action::Discard(t);
            }
        }
        if legal.contains(Action::Pass) {
            return Action::Pass;
        }
        // Only calls were offered and none was taken at random: take one anyway (a
        // turn always has a discard, so this is unreachable with a consistent game).
        legal.iter().next().unwrap_or(Action::Pass)
    }
}
