//! Paired comparison of two line-ups played on the same walls.
//!
//! The question "does the model do better than the efficiency bot would in the same
//! seat?" is answered most precisely by playing both line-ups (`model,X,X` and
//! `eff,X,X`) with the same master seed — the same walls, the same seat rotations and
//! the same seeds for the other bots — and estimating the mean of the per-wall
//! differences. The luck of the wall cancels twice (duplicate rotation and pairing), so
//! the interval is much narrower than comparing two independent intervals. Each wall is
//! one cluster, as in [`super::stats`].

use anyhow::{bail, Result};
use serde::Serialize;

use super::stats::{Estimate, RatioEstimator};
use super::PlayedHand;

/// Differences (A − B) per seat-hand of one line-up entry between two arenas.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PairedComparison {
    /// Walls compared (played in both).
    pub walls: u64,
    /// Seat-hands of the entry per arena.
    pub seat_hands: u64,
    /// Win rate of A minus win rate of B.
    pub win_rate: Estimate,
    /// Deal-in rate of A minus that of B.
    pub deal_in_rate: Estimate,
    /// Points per hand of A minus those of B.
    pub points_per_hand: Estimate,
}

/// Per-wall totals of one entry: (seat-hands, wins, deal-ins, points).
fn wall_totals(wall: &[PlayedHand], players: usize, entry: usize) -> [f64; 4] {
    let mut t = [0f64; 4];
    for hand in wall {
        for seat in 0..players {
            if hand.seat_bot[seat] != entry {
                continue;
            }
            let o = hand.summary.seats[seat];
            t[0] += 1.0;
            t[1] += o.won as u8 as f64;
            t[2] += o.dealt_in as u8 as f64;
            t[3] += o.delta as f64;
        }
    }
    t
}

/// Compares entry `entry_a` of arena `a` with entry `entry_b` of arena `b`, wall by
/// wall. Both must have been played with the same configuration apart from the bots
/// (same seed, hands, rules, duplicate mode); walls skipped in either are left out.
pub fn compare(
    a: &[Vec<PlayedHand>],
    entry_a: usize,
    b: &[Vec<PlayedHand>],
    entry_b: usize,
    players: usize,
) -> Result<PairedComparison> {
    if a.len() != b.len() {
        bail!(
            "the two arenas played {} and {} walls: not the same configuration",
            a.len(),
            b.len()
        );
    }
    let mut wins = RatioEstimator::default();
    let mut deal_ins = RatioEstimator::default();
    let mut points = RatioEstimator::default();
    let (mut walls, mut seat_hands) = (0u64, 0u64);
    for (wa, wb) in a.iter().zip(b) {
        if wa.is_empty() || wb.is_empty() {
            continue;
        }
        let ta = wall_totals(wa, players, entry_a);
        let tb = wall_totals(wb, players, entry_b);
        if ta[0] != tb[0] {
            bail!(
                "wall {walls}: the entries sat {} and {} times: not the same configuration",
                ta[0],
                tb[0]
            );
        }
        wins.push(ta[1] - tb[1], ta[0]);
        deal_ins.push(ta[2] - tb[2], ta[0]);
        points.push(ta[3] - tb[3], ta[0]);
        walls += 1;
        seat_hands += ta[0] as u64;
    }
    Ok(PairedComparison {
        walls,
        seat_hands,
        win_rate: wins.estimate(),
        deal_in_rate: deal_ins.estimate(),
        points_per_hand: points.estimate(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{play_walls, ArenaConfig, BotSpec};
    use std::sync::atomic::AtomicBool;

    fn walls(seats: Vec<BotSpec>, hands: u64) -> Vec<Vec<PlayedHand>> {
        let cfg = ArenaConfig {
            rules: engine::Rules::sanma(),
            seats,
            hands,
            seed: 11,
            duplicate: true,
        };
        play_walls(&cfg, None, &|| {}, &AtomicBool::new(false)).expect("arena")
    }

    #[test]
    fn a_lineup_against_itself_differs_by_exactly_zero() {
        let w = walls(
            vec![BotSpec::Efficiency, BotSpec::Random, BotSpec::Random],
            60,
        );
        let c = compare(&w, 0, &w, 0, 3).expect("compare");
        assert_eq!(c.walls, 20);
        assert_eq!(c.seat_hands, 60);
        for e in [c.win_rate, c.deal_in_rate, c.points_per_hand] {
            assert_eq!((e.mean, e.low, e.high), (0.0, 0.0, 0.0));
        }
    }

    #[test]
    fn efficiency_beats_random_in_the_same_seats() {
        let eff = walls(
            vec![BotSpec::Efficiency, BotSpec::Random, BotSpec::Random],
            300,
        );
        let rnd = walls(vec![BotSpec::Random, BotSpec::Random, BotSpec::Random], 300);
        let c = compare(&eff, 0, &rnd, 0, 3).expect("compare");
        assert!(c.win_rate.low > 0.3, "{c:?}");
        assert!(c.points_per_hand.low > 0.0, "{c:?}");
        // Deal-ins are not compared: among random bots hardly anyone wins, so hardly
        // anyone deals in either.
    }

    #[test]
    fn the_defending_bot_outscores_efficiency_under_riichi_rules() {
        let play = |seats: Vec<BotSpec>| {
            let cfg = ArenaConfig {
                rules: engine::Rules::preset("tenhou-sanma").expect("preset"),
                seats,
                hands: 600,
                seed: 5,
                duplicate: true,
            };
            play_walls(&cfg, None, &|| {}, &AtomicBool::new(false)).expect("arena")
        };
        use BotSpec::{Defend, Efficiency};
        let defend = play(vec![Defend, Efficiency, Efficiency]);
        let eff = play(vec![Efficiency, Efficiency, Efficiency]);
        let c = compare(&defend, 0, &eff, 0, 3).expect("compare");
        assert!(c.deal_in_rate.high < 0.0, "{c:?}");
        assert!(c.points_per_hand.low > 0.0, "{c:?}");
    }

    #[test]
    fn different_configurations_are_refused() {
        let a = walls(
            vec![BotSpec::Efficiency, BotSpec::Random, BotSpec::Random],
            30,
        );
        let b = walls(
            vec![BotSpec::Efficiency, BotSpec::Random, BotSpec::Random],
            60,
        );
        assert!(compare(&a, 0, &b, 0, 3).is_err());
    }
}
