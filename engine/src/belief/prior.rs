//! How far from ready an opponent's hand is, given how far into the hand it is: the
//! shanten distribution of the efficiency bot's hands by (melds, own discards),
//! measured by self-play.

use crate::bots::{Agent, EfficiencyBot};
use crate::game::{Action, Game, RuleError};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::shanten::{min_shanten, Forms};

/// Meld counts the table distinguishes (0..=4).
pub const PRIOR_MELDS: usize = 5;
/// Own-discard counts the table distinguishes (0..=24; more count as 24).
pub const PRIOR_DISCARDS: usize = 25;
/// Shanten values the table distinguishes (−1..=6; more count as 6).
pub const PRIOR_SHANTEN: usize = 8;

/// Counts of `(melds, own discards, shanten)` of waiting hands (`13 − 3k` tiles) right
/// after their owner's discard, from self-play of [`EfficiencyBot`]s.
///
/// An opponent's concealed hand does not change between its discard and its next
/// draw, so this is the prior of its shanten when another seat decides. A uniform
/// deal of the unseen tiles ignores that the hand was *built*: late in a hand a
/// uniformly dealt hand is rarely ready, a played one often is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ShantenPrior {
    counts: [[[u32; PRIOR_SHANTEN]; PRIOR_DISCARDS]; PRIOR_MELDS],
}

impl ShantenPrior {
    /// An empty table: every probability is uniform over the shanten values.
    pub const fn empty() -> ShantenPrior {
        ShantenPrior {
            counts: [[[0; PRIOR_SHANTEN]; PRIOR_DISCARDS]; PRIOR_MELDS],
        }
    }

    /// Measures the table from `hands` hands of self-play by efficiency bots under
    /// `rules` (one hand per game, seeds derived from `seed`).
    pub fn from_self_play(rules: &Rules, hands: u32, seed: u64) -> Result<ShantenPrior, RuleError> {
        let mut rules = *rules;
        rules.hands_per_game = 1;
        let forms = Forms::from_rules(&rules);
        let mut prior = ShantenPrior::empty();
        let mut bot = EfficiencyBot;
        for h in 0..hands {
            let mut game = Game::new(rules, Rng::derive_seed(seed, h as u64))?;
            let mut steps = 0u32;
            while game.last_result().is_none() && steps < 10_000 {
                steps += 1;
                let seats = game.seats_to_act();
                let Some(&seat) = seats.first() else { break };
                let obs = game.observation(seat)?;
                let legal = game.legal_actions(seat);
                let action = bot.act(&obs, &legal);
                game.apply(seat, action)?;
                if matches!(action, Action::Discard(_)) {
                    if let Some(hand) = game.hand(seat) {
                        let melds = game.melds(seat).len() as u8;
                        let s = min_shanten(hand, melds, rules.tile_set, forms);
                        prior.add(melds, game.discards(seat).len(), s);
                    }
                }
            }
        }
        Ok(prior)
    }

    fn cell(melds: u8, discards: usize) -> (usize, usize) {
        (
            (melds as usize).min(PRIOR_MELDS - 1),
            discards.min(PRIOR_DISCARDS - 1),
        )
    }

    fn shanten_index(shanten: i8) -> usize {
        (shanten.clamp(-1, PRIOR_SHANTEN as i8 - 2) + 1) as usize
    }

    /// Counts one observation.
    pub fn add(&mut self, melds: u8, discards: usize, shanten: i8) {
        let (m, d) = Self::cell(melds, discards);
        if let Some(c) = self.counts[m][d].get_mut(Self::shanten_index(shanten)) {
            *c = c.saturating_add(1);
        }
    }

    /// Observations in the cell of `(melds, discards)`.
    pub fn total(&self, melds: u8, discards: usize) -> u32 {
        let (m, d) = Self::cell(melds, discards);
        self.counts[m][d]
            .iter()
            .fold(0u32, |a, &c| a.saturating_add(c))
    }

    /// The probability of `shanten` for a hand with `melds` melds after `discards` own
    /// discards, with add-one-half (Jeffreys) smoothing so no value is impossible.
    pub fn probability(&self, melds: u8, discards: usize, shanten: i8) -> f64 {
        let (m, d) = Self::cell(melds, discards);
        let row = &self.counts[m][d];
        let total: f64 = row.iter().map(|&c| c as f64).sum();
        let c = row.get(Self::shanten_index(shanten)).copied().unwrap_or(0) as f64;
        (c + 0.5) / (total + 0.5 * PRIOR_SHANTEN as f64)
    }
}
