//! Per-bot placement over whole games ([`super::games`]), as a table and as JSON.

use std::fmt::Write as _;

use serde::Serialize;

use super::games::{cluster_totals, GamesConfig, PlayedGame, UmaTable};
use super::stats::{Estimate, RatioEstimator};
use super::BotSpec;

/// Placement of one bot (a kind, copies merged, or one line-up entry).
#[derive(Clone, Debug, Serialize)]
pub struct PlacementReport {
    /// Bot name (`eff`, or `eff#2` for one entry).
    pub bot: String,
    /// Seats of the line-up it occupies.
    pub seats: usize,
    /// Seat-games played.
    pub seat_games: u64,
    /// Mean rank (1 = first).
    pub average_rank: Estimate,
    /// Share of games finished in each place, first to last (as many as players).
    pub rank_rates: Vec<Estimate>,
    /// Mean final score.
    pub final_points: Estimate,
    /// Mean rank points ([`UmaTable`]).
    pub rank_points: Estimate,
}

/// The whole result of `arena --games`.
#[derive(Clone, Debug, Serialize)]
pub struct GamesReport {
    /// Rules preset name (or the tile set's when the rules are not a preset).
    pub rules: String,
    /// Players per table.
    pub players: u8,
    /// The line-up as given.
    pub seats: Vec<String>,
    /// Games played (every rotation counted).
    pub games: u64,
    /// Game seeds (clusters) played.
    pub game_seeds: u64,
    /// Duplicate mode.
    pub duplicate: bool,
    /// Master seed.
    pub seed: u64,
    /// The uma table of the rank points.
    pub uma: UmaTable,
    /// Mean hands per game.
    pub hands_per_game: f64,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// One entry per distinct bot, in order of first appearance (copies merged).
    pub kinds: Vec<PlacementReport>,
    /// One entry per position of the line-up (`eff#1`, `eff#2`, …).
    pub entrants: Vec<PlacementReport>,
}

/// Placement of the entries `in_group` selects, one cluster per game seed.
fn placement(
    cfg: &GamesConfig,
    seeds: &[&Vec<PlayedGame>],
    uma: &UmaTable,
    bot: String,
    in_group: impl Fn(usize) -> bool,
) -> PlacementReport {
    let players = cfg.rules.players as usize;
    let mut rank = RatioEstimator::default();
    let mut rates: Vec<RatioEstimator> = vec![RatioEstimator::default(); players];
    let mut final_points = RatioEstimator::default();
    let mut rank_points = RatioEstimator::default();
    let mut seat_games = 0u64;
    for cluster in seeds {
        let t = cluster_totals(cluster, players, uma, &in_group);
        seat_games += t[0] as u64;
        rank.push(t[1], t[0]);
        for (r, est) in rates.iter_mut().enumerate() {
            est.push(t[2 + r], t[0]);
        }
        final_points.push(t[6], t[0]);
        rank_points.push(t[7], t[0]);
    }
    PlacementReport {
        bot,
        seats: cfg
            .seats
            .iter()
            .enumerate()
            .filter(|(e, _)| in_group(*e))
            .count(),
        seat_games,
        average_rank: rank.estimate(),
        rank_rates: rates.iter().map(RatioEstimator::rate_estimate).collect(),
        final_points: final_points.estimate(),
        rank_points: rank_points.estimate(),
    }
}

impl GamesReport {
    /// Aggregates played game seeds (each a cluster of rotations).
    pub fn from_games(cfg: &GamesConfig, seeds: &[Vec<PlayedGame>], elapsed_s: f64) -> Self {
        let uma = UmaTable::for_rules(&cfg.rules);
        let played: Vec<&Vec<PlayedGame>> = seeds.iter().filter(|s| !s.is_empty()).collect();
        let mut kinds: Vec<BotSpec> = Vec::new();
        for s in &cfg.seats {
            if !kinds.contains(s) {
                kinds.push(*s);
            }
        }
        let games: u64 = played.iter().map(|s| s.len() as u64).sum();
        let hands: u64 = played
            .iter()
            .flat_map(|s| s.iter())
            .map(|g| g.hands as u64)
            .sum();
        GamesReport {
            rules: cfg
                .rules
                .preset_name()
                .unwrap_or(cfg.rules.tile_set.name())
                .to_string(),
            players: cfg.rules.players,
            seats: cfg.seats.iter().map(|s| s.name().to_string()).collect(),
            games,
            game_seeds: played.len() as u64,
            duplicate: cfg.duplicate,
            seed: cfg.seed,
            uma,
            hands_per_game: hands as f64 / games.max(1) as f64,
            elapsed_s,
            kinds: kinds
                .iter()
                .map(|k| {
                    placement(cfg, &played, &uma, k.name().to_string(), |e| {
                        cfg.seats[e] == *k
                    })
                })
                .collect(),
            entrants: (0..cfg.seats.len())
                .map(|i| {
                    let name = format!("{}#{}", cfg.seats[i].name(), i + 1);
                    placement(cfg, &played, &uma, name, |e| e == i)
                })
                .collect(),
        }
    }

    /// The placement of a kind by name.
    pub fn kind(&self, bot: &str) -> Option<&PlacementReport> {
        self.kinds.iter().find(|k| k.bot == bot)
    }

    /// A readable table: the average rank, each place's share, final points and rank
    /// points, with 95 % intervals.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} games ({} seeds, {}), {} players, {}, seed {}, {:.1} hands/game, {:.1} s",
            self.games,
            self.game_seeds,
            if self.duplicate {
                "duplicate"
            } else {
                "no duplicate"
            },
            self.players,
            self.rules,
            self.seed,
            self.hands_per_game,
            self.elapsed_s,
        );
        let _ = write!(
            s,
            "{:<9} {:>10} {:>15}",
            "bot", "seat-games", "average rank"
        );
        for place in ["1st %", "2nd %", "3rd %", "4th %"]
            .iter()
            .take(self.players as usize)
        {
            let _ = write!(s, " {place:>19}");
        }
        let _ = writeln!(s, " {:>19} {:>15}", "final points", "rank points");
        let pct = |e: &Estimate| {
            format!(
                "{:.1} ({:.1}–{:.1})",
                100.0 * e.mean,
                100.0 * e.low,
                100.0 * e.high
            )
        };
        let copies = self.kinds.len() < self.seats.len();
        for k in self
            .kinds
            .iter()
            .chain(self.entrants.iter().filter(|_| copies))
        {
            let _ = write!(
                s,
                "{:<9} {:>10} {:>15}",
                k.bot,
                k.seat_games,
                format!(
                    "{:.3} ± {:.3}",
                    k.average_rank.mean,
                    k.average_rank.half_width()
                )
            );
            for r in &k.rank_rates {
                let _ = write!(s, " {:>19}", pct(r));
            }
            let _ = writeln!(
                s,
                " {:>19} {:>15}",
                format!(
                    "{:.0} ± {:.0}",
                    k.final_points.mean,
                    k.final_points.half_width()
                ),
                format!(
                    "{:+.2} ± {:.2}",
                    k.rank_points.mean,
                    k.rank_points.half_width()
                ),
            );
        }
        let u = &self.uma;
        let uma: Vec<String> = u.uma[..u.players as usize]
            .iter()
            .map(|x| format!("{x:+}"))
            .collect();
        let _ = writeln!(
            s,
            "(rank points: uma {}{}; ± = half-width of the 95 % interval, game seeds as clusters)",
            uma.join("/"),
            if u.scores_count {
                format!(
                    ", return {}, oka {:+}, Tenhou's table (tenhou.net/man)",
                    u.return_points,
                    u.oka()
                )
            } else {
                ", the simple rules: uma only".to_string()
            }
        );
        s
    }
}
