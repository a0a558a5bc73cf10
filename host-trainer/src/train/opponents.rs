//! The table mix of self-play: who sits at the seats the learner does not.
//!
//! `--opponents self:0.4,eff:0.4,past:0.2` gives a weight per kind; every hand, one seat
//! (rotating) is the learner and each other seat draws its kind from the weights:
//! - `self`: the current policy (its decisions are trained on as well: plain self-play),
//! - `eff`: the efficiency bot, the opponent the policy is judged against,
//! - `defend`: the defending bot (efficiency play plus push or fold, `engine::bots::DefendBot`),
//!   the opponent that punishes a policy which never folds,
//! - `past`: the policy as it was `--past-lag` parameter pushes ago (each worker keeps
//!   the snapshots it received), which keeps the policy from over-fitting to itself.
//!
//! Only the decisions of `self` seats (the learner's included) become training samples.

use anyhow::{bail, Result};
use engine::rng::Rng;
use serde::{Deserialize, Serialize};

/// The kind of player at one seat of a self-play table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    /// The current policy (trained on).
    Current,
    /// The efficiency bot.
    Efficiency,
    /// The defending bot.
    Defend,
    /// An earlier snapshot of the policy.
    Past,
}

/// Weights of the opponent kinds, normalised to sum to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpponentMix {
    /// Probability of `self`, `eff`, `past`, `defend` for each non-learner seat.
    pub weights: [f64; 4],
}

const KINDS: [(&str, SeatKind); 4] = [
    ("self", SeatKind::Current),
    ("eff", SeatKind::Efficiency),
    ("past", SeatKind::Past),
    ("defend", SeatKind::Defend),
];

impl OpponentMix {
    /// Every seat plays the current policy (self-play only).
    pub const SELF_ONLY: OpponentMix = OpponentMix {
        weights: [1.0, 0.0, 0.0, 0.0],
    };

    /// Parses `kind:weight,…` (kinds `self`, `eff`, `past`, `defend`, each at most once; weights
    /// non-negative and summing to 1 within 1e-6).
    pub fn parse(text: &str) -> Result<OpponentMix> {
        let mut weights = [0.0f64; 4];
        let mut seen = [false; 4];
        for part in text.split(',') {
            let part = part.trim();
            let Some((kind, weight)) = part.split_once(':') else {
                bail!("--opponents {text:?}: {part:?} is not kind:weight (e.g. self:0.5,eff:0.5)");
            };
            let Some(k) = KINDS.iter().position(|(name, _)| *name == kind.trim()) else {
                bail!(
                    "--opponents {text:?}: unknown kind {:?} (self, eff, past or defend)",
                    kind.trim()
                );
            };
            if seen[k] {
                bail!("--opponents {text:?}: {} is given twice", KINDS[k].0);
            }
            seen[k] = true;
            let w: f64 = weight.trim().parse().map_err(|_| {
                anyhow::anyhow!("--opponents {text:?}: weight {weight:?} is not a number")
            })?;
            if !w.is_finite() || w < 0.0 {
                bail!("--opponents {text:?}: weight {weight:?} must be a non-negative number");
            }
            weights[k] = w;
        }
        let sum: f64 = weights.iter().sum();
        if (sum - 1.0).abs() > 1e-6 {
            bail!("--opponents {text:?}: the weights sum to {sum}, not 1");
        }
        Ok(OpponentMix { weights })
    }

    /// The clap value parser: checks the text, keeps it as written.
    pub fn parse_arg(text: &str) -> Result<String, String> {
        OpponentMix::parse(text)
            .map(|_| text.to_string())
            .map_err(|e| format!("{e:#}"))
    }

    /// Whether any seat may be a past snapshot.
    pub fn uses_past(&self) -> bool {
        self.weights[2] > 0.0
    }

    /// Draws one seat's kind.
    pub fn draw(&self, rng: &mut Rng) -> SeatKind {
        let u = rng.next_f32() as f64;
        let mut acc = 0.0;
        for (k, &w) in self.weights.iter().enumerate() {
            acc += w;
            if u < acc && w > 0.0 {
                return KINDS[k].1;
            }
        }
        // Rounding: the last kind with weight.
        KINDS
            .iter()
            .zip(self.weights)
            .rev()
            .find(|(_, w)| *w > 0.0)
            .map_or(SeatKind::Current, |((_, kind), _)| *kind)
    }

    /// The kinds of a new table's seats: `learner` is the current policy, the others
    /// drawn from the mix.
    pub fn seats(&self, players: usize, learner: usize, rng: &mut Rng) -> [SeatKind; 4] {
        let mut kinds = [SeatKind::Current; 4];
        for (s, k) in kinds.iter_mut().enumerate().take(players) {
            if s != learner {
                *k = self.draw(rng);
            }
        }
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mixes_and_refuses_bad_ones() {
        assert_eq!(
            OpponentMix::parse("self:1").unwrap(),
            OpponentMix::SELF_ONLY
        );
        let m = OpponentMix::parse(" self:0.4, eff:0.4 ,past:0.2").unwrap();
        assert_eq!(m.weights, [0.4, 0.4, 0.2, 0.0]);
        let d = OpponentMix::parse("self:0.5,defend:0.5").unwrap();
        assert_eq!(d.weights, [0.5, 0.0, 0.0, 0.5]);
        assert!(m.uses_past());
        for (text, want) in [
            ("self:0.5", "sum to 0.5"),
            ("self:0.5,eff:0.6", "sum to 1.1"),
            ("bot:1", "unknown kind \"bot\""),
            ("self", "not kind:weight"),
            ("self:x", "not a number"),
            ("self:-1,eff:2", "non-negative"),
            ("self:0.5,self:0.5", "given twice"),
            ("self:NaN", "non-negative"),
        ] {
            let e = OpponentMix::parse(text).unwrap_err();
            assert!(format!("{e:#}").contains(want), "{text}: {e:#}");
        }
    }

    #[test]
    fn draws_follow_the_weights() {
        let m = OpponentMix::parse("self:0.25,eff:0.75").unwrap();
        let mut rng = Rng::new(7);
        let n = 40_000;
        let eff = (0..n)
            .filter(|_| m.draw(&mut rng) == SeatKind::Efficiency)
            .count();
        let share = eff as f64 / n as f64;
        assert!((share - 0.75).abs() < 0.01, "{share}");
        let m = OpponentMix::parse("self:0.5,defend:0.5").unwrap();
        let defend = (0..n)
            .filter(|_| m.draw(&mut rng) == SeatKind::Defend)
            .count();
        let share = defend as f64 / n as f64;
        assert!((share - 0.5).abs() < 0.01, "{share}");
        let only_eff = OpponentMix::parse("eff:1").unwrap();
        let seats = only_eff.seats(3, 1, &mut rng);
        assert_eq!(
            &seats[..3],
            &[
                SeatKind::Efficiency,
                SeatKind::Current,
                SeatKind::Efficiency
            ]
        );
    }
}
