//! Per-bot aggregation of arena results, as a table and as JSON.

use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{Estimate, RatioEstimator};
use super::{ArenaConfig, BotSpec, PlayedHand};

/// Statistics of one bot kind (all seats it occupied merged).
#[derive(Clone, Debug, Serialize)]
pub struct KindReport {
    /// Bot name.
    pub bot: String,
    /// How many seats of the configuration it occupies.
    pub seats: usize,
    /// Seat-hands played by this kind.
    pub seat_hands: u64,
    /// Wins per seat-hand.
    pub win_rate: Estimate,
    /// Self-drawn wins per win.
    pub self_draw_share: Estimate,
    /// Deal-ins (discarding a tile someone won on) per seat-hand.
    pub deal_in_rate: Estimate,
    /// Exhaustive draws per seat-hand.
    pub draw_rate: Estimate,
    /// Mean score change per seat-hand.
    pub points_per_hand: Estimate,
    /// Mean number of turns the winner had started when winning.
    pub win_turn: Estimate,
}

/// The whole arena result.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    /// Rules preset name of the tile set.
    pub tile_set: String,
    /// Players per table.
    pub players: u8,
    /// The seat line-up as given.
    pub seats: Vec<String>,
    /// Hands played.
    pub hands: u64,
    /// Walls (clusters) played.
    pub walls: u64,
    /// Duplicate mode.
    pub duplicate: bool,
    /// Master seed.
    pub seed: u64,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// Hands per second (all threads).
    pub hands_per_s: f64,
    /// One entry per distinct bot, in order of first appearance (copies merged).
    pub kinds: Vec<KindReport>,
    /// One entry per position of the line-up (`eff#1`, `eff#2`, …): each copy of a bot
    /// separately, so a bot against copies of itself can be compared seat for seat.
    pub entrants: Vec<KindReport>,
}

/// Sums every seat-hand into the group of its line-up entry, one cluster per wall.
fn aggregate(
    cfg: &ArenaConfig,
    walls: &[Vec<PlayedHand>],
    groups: usize,
    group_of: impl Fn(usize) -> usize,
) -> Vec<KindAcc> {
    let players = cfg.rules.players as usize;
    let mut accs: Vec<KindAcc> = (0..groups).map(|_| KindAcc::default()).collect();
    for wall in walls.iter().filter(|w| !w.is_empty()) {
        // Per-cluster totals: hands, wins, self-draws, deal-ins, draws, points, win turns.
        let mut t = vec![[0f64; 7]; groups];
        for hand in wall {
            for seat in 0..players {
                let o = hand.summary.seats[seat];
                let Some(x) = t.get_mut(group_of(hand.seat_bot[seat])) else {
                    continue;
                };
                x[0] += 1.0;
                x[1] += o.won as u8 as f64;
                x[2] += (o.won && o.self_draw) as u8 as f64;
                x[3] += o.dealt_in as u8 as f64;
                x[4] += hand.summary.exhaustive_draw() as u8 as f64;
                x[5] += o.delta as f64;
                x[6] += if o.won { o.win_turn as f64 } else { 0.0 };
            }
        }
        for (acc, x) in accs.iter_mut().zip(&t) {
            acc.seat_hands += x[0] as u64;
            acc.wins.push(x[1], x[0]);
            acc.self_draws.push(x[2], x[1]);
            acc.deal_ins.push(x[3], x[0]);
            acc.draws.push(x[4], x[0]);
            acc.points.push(x[5], x[0]);
            acc.win_turn.push(x[6], x[1]);
        }
    }
    accs
}

#[derive(Default)]
struct KindAcc {
    wins: RatioEstimator,
    self_draws: RatioEstimator,
    deal_ins: RatioEstimator,
    draws: RatioEstimator,
    points: RatioEstimator,
    win_turn: RatioEstimator,
    seat_hands: u64,
}

impl ArenaReport {
    /// Aggregates played walls (each a cluster of rotations).
    pub fn from_walls(cfg: &ArenaConfig, walls: &[Vec<PlayedHand>], elapsed_s: f64) -> ArenaReport {
        let mut kinds: Vec<BotSpec> = Vec::new();
        for s in &cfg.seats {
            if !kinds.contains(s) {
                kinds.push(*s);
            }
        }
        let kind_of = |entry: usize| {
            kinds
                .iter()
                .position(|&k| k == cfg.seats[entry])
                .unwrap_or(0)
        };
        let by_kind = aggregate(cfg, walls, kinds.len(), kind_of);
        let by_entry = aggregate(cfg, walls, cfg.seats.len(), |entry| entry);
        let report = |name: String, seats: usize, a: &KindAcc| KindReport {
            bot: name,
            seats,
            seat_hands: a.seat_hands,
            win_rate: a.wins.rate_estimate(),
            self_draw_share: a.self_draws.rate_estimate(),
            deal_in_rate: a.deal_ins.rate_estimate(),
            draw_rate: a.draws.rate_estimate(),
            points_per_hand: a.points.estimate(),
            win_turn: a.win_turn.estimate(),
        };
        let played: Vec<&Vec<PlayedHand>> = walls.iter().filter(|w| !w.is_empty()).collect();
        let hands = played.iter().map(|w| w.len() as u64).sum();
        ArenaReport {
            tile_set: cfg.rules.tile_set.name().to_string(),
            players: cfg.rules.players,
            seats: cfg.seats.iter().map(|s| s.name().to_string()).collect(),
            hands,
            walls: played.len() as u64,
            duplicate: cfg.duplicate,
            seed: cfg.seed,
            elapsed_s,
            hands_per_s: if elapsed_s > 0.0 {
                hands as f64 / elapsed_s
            } else {
                0.0
            },
            kinds: kinds
                .iter()
                .zip(&by_kind)
                .map(|(spec, a)| {
                    report(
                        spec.name().to_string(),
                        cfg.seats.iter().filter(|&&s| s == *spec).count(),
                        a,
                    )
                })
                .collect(),
            entrants: cfg
                .seats
                .iter()
                .zip(&by_entry)
                .enumerate()
                .map(|(i, (spec, a))| report(format!("{}#{}", spec.name(), i + 1), 1, a))
                .collect(),
        }
    }

    /// The report for a kind by name.
    pub fn kind(&self, bot: &str) -> Option<&KindReport> {
        self.kinds.iter().find(|k| k.bot == bot)
    }

    /// A readable table: rates as `mean (low–high)` of their Wilson interval, the other
    /// figures as `mean ± half-width` of their normal 95 % interval.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} hands ({} walls, {}), {} players, {}, seed {}, {:.1} s ({:.0} hands/s)",
            self.hands,
            self.walls,
            if self.duplicate {
                "duplicate"
            } else {
                "no duplicate"
            },
            self.players,
            self.tile_set,
            self.seed,
            self.elapsed_s,
            self.hands_per_s
        );
        let _ = writeln!(
            s,
            "{:<8} {:>5} {:>10}  {:>21} {:>21} {:>21} {:>21} {:>17} {:>15}",
            "bot",
            "seats",
            "seat-hands",
            "win %",
            "self-draw % win",
            "deal-in %",
            "draw %",
            "points/hand",
            "win turn"
        );
        // Rates carry Wilson intervals, which are not symmetric: print both ends.
        let pct = |e: &Estimate| {
            format!(
                "{:.2} ({:.2}–{:.2})",
                100.0 * e.mean,
                100.0 * e.low,
                100.0 * e.high
            )
        };
        let num = |e: &Estimate| format!("{:+.3} ± {:.3}", e.mean, e.half_width());
        let copies = self.kinds.iter().any(|k| k.seats > 1);
        let rows = self
            .kinds
            .iter()
            .chain(self.entrants.iter().filter(|_| copies));
        for k in rows {
            let _ = writeln!(
                s,
                "{:<8} {:>5} {:>10}  {:>21} {:>21} {:>21} {:>21} {:>17} {:>15}",
                k.bot,
                k.seats,
                k.seat_hands,
                pct(&k.win_rate),
                pct(&k.self_draw_share),
                pct(&k.deal_in_rate),
                pct(&k.draw_rate),
                num(&k.points_per_hand),
                format!("{:.2} ± {:.2}", k.win_turn.mean, k.win_turn.half_width()),
            );
        }
        s.push_str(
            "(rates: mean (low–high) of the 95 % Wilson interval on the cluster-robust \
             effective sample size; ± = half-width of the 95 % normal interval; walls as \
             clusters)\n",
        );
        s
    }
}
