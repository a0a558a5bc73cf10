//! Whole games: placement over hanchan (or the rules' game length), duplicate by seat
//! rotation, with rank points from a cited uma table.
//!
//! Riichi players and published evaluations judge strength by placement over whole
//! games, not by points per hand: a lead defended in the last hand is worth more than
//! the same points won in the first. [`play_games`] plays `games` game seeds; in
//! duplicate mode every seed is played once per rotation of the line-up, so each bot
//! starts from each seat (first dealer included) on the same sequence of walls — hand
//! `k` of a game deals the wall derived from the game seed and `k`
//! ([`engine::game`]), so the walls agree until the games diverge (a dealer repeat in
//! one rotation and not in another), and the luck of the deal cancels as far as it can.
//! One game seed with all its rotations is one cluster of the estimates
//! ([`super::stats`]).
//!
//! The report ([`super::games_report`]) gives per bot the average rank, the rank
//! distribution, the final points and the rank points, each with its 95 % interval;
//! [`compare`] pairs two line-ups on the same game seeds.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context, Result};
use engine::bots::play_hand;
use engine::game::Game;
use engine::rng::Rng;
use engine::Rules;
use rayon::prelude::*;
use serde::Serialize;

use super::stats::{Estimate, RatioEstimator};
use super::{BotSpec, Seated, Seating};

/// What to play.
#[derive(Clone, Debug)]
pub struct GamesConfig {
    /// The rules, game length included (`hands_per_game` for the simple rules, the
    /// riichi game end otherwise).
    pub rules: Rules,
    /// The bot of each line-up entry (rotated over the seats in duplicate mode).
    pub seats: Vec<BotSpec>,
    /// Game seeds to play; in duplicate mode each is played once per rotation.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Rotate the line-up over the seats on each game seed.
    pub duplicate: bool,
}

impl GamesConfig {
    /// Rotations per game seed.
    pub fn rotations(&self) -> u64 {
        if self.duplicate {
            self.rules.players as u64
        } else {
            1
        }
    }

    fn validate(&self) -> Result<()> {
        super::validate_lineup(&self.rules, &self.seats, self.games, "--games")
    }
}

/// One played game: who sat where and how it ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayedGame {
    /// Index into [`GamesConfig::seats`] of the bot in each seat (seat 0 dealt first).
    pub seat_bot: [usize; 4],
    /// Final scores by seat (riichi sticks left on the table already paid out).
    pub scores: [i32; 4],
    /// Rank by seat, 1 = first ([`ranks`]).
    pub ranks: [u8; 4],
    /// Hands the game lasted.
    pub hands: u32,
}

/// Ranks by seat (1 = first) from final scores: higher score first, equal scores by
/// seat order from the first dealer (seat 0), as Tenhou breaks ties (同点は起家に近い
/// 方が上位, tenhou.net/man). Seats beyond `players` get 0.
pub fn ranks(scores: &[i32; 4], players: usize) -> [u8; 4] {
    let mut out = [0u8; 4];
    for s in 0..players.min(4) {
        let above = (0..players.min(4))
            .filter(|&o| scores[o] > scores[s] || (scores[o] == scores[s] && o < s))
            .count();
        out[s] = above as u8 + 1;
    }
    out
}

/// The uma table turning final scores into rank points.
///
/// Tenhou (tenhou.net/man, 段位戦 rules): four players start with 25 000 and return
/// 30 000, uma +20/+10/−10/−20, so first place also takes the oka of
/// 4 × 5 000 = +20; three players start with 35 000 and return 40 000, uma +20/0/−20,
/// oka 3 × 5 000 = +15. Every place but first is `(score in thousands − return) + uma`,
/// the score rounded to a whole thousand half away from zero; first takes what makes
/// the sum zero. The rounding is read off real Tenhou results (the `owari` of the logs
/// in the tests below): 38 500 counts 39, 16 500 counts 17, −5 500 counts −6, 36 400
/// counts 36.
///
/// The simple rules have no thousand-point scale (a hand moves a few points): their
/// rank points are the uma alone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct UmaTable {
    /// Players.
    pub players: u8,
    /// Points each player starts with.
    pub start: i32,
    /// Points a player must return (the rank points' zero); `start` when there is no
    /// oka.
    pub return_points: i32,
    /// Uma by rank (first to last), in rank points.
    pub uma: [f64; 4],
    /// Whether scores count, in thousands (Tenhou's riichi rules), or only the uma
    /// (the simple rules).
    pub scores_count: bool,
}

impl UmaTable {
    /// The table for `rules`: Tenhou's for the riichi presets, uma only for the simple
    /// rules.
    pub fn for_rules(rules: &Rules) -> UmaTable {
        let (uma, return_points) = match rules.players {
            3 => ([20.0, 0.0, -20.0, 0.0], 40_000),
            _ => ([20.0, 10.0, -10.0, -20.0], 30_000),
        };
        if rules.is_riichi() {
            UmaTable {
                players: rules.players,
                start: rules.starting_points,
                return_points,
                uma,
                scores_count: true,
            }
        } else {
            UmaTable {
                players: rules.players,
                start: rules.starting_points,
                return_points: rules.starting_points,
                uma,
                scores_count: false,
            }
        }
    }

    /// Oka, the first place's bonus: what every player paid in by starting below the
    /// return.
    pub fn oka(&self) -> f64 {
        f64::from(self.players) * f64::from(self.return_points - self.start) / 1000.0
    }

    /// Rank points by seat for final `scores` (seats beyond `players` get 0). They sum
    /// to zero.
    pub fn rank_points(&self, scores: &[i32; 4]) -> [f64; 4] {
        let players = self.players as usize;
        let rank = ranks(scores, players);
        let mut out = [0f64; 4];
        if !self.scores_count {
            for s in 0..players {
                out[s] = self.uma[rank[s] as usize - 1];
            }
            return out;
        }
        let mut first = None;
        let mut others = 0.0;
        for s in 0..players {
            if rank[s] == 1 {
                first = Some(s);
                continue;
            }
            let thousands = (f64::from(scores[s]) / 1000.0).round();
            let p =
                thousands - f64::from(self.return_points) / 1000.0 + self.uma[rank[s] as usize - 1];
            out[s] = p;
            others += p;
        }
        if let Some(f) = first {
            out[f] = -others;
        }
        out
    }
}

/// Plays game seed `index` in every rotation.
fn play_seed(cfg: &GamesConfig, index: u64, seating: Seating) -> Result<Vec<PlayedGame>> {
    let players = cfg.rules.players as usize;
    let game_seed = Rng::derive_seed(cfg.seed, index);
    let mut out = Vec::with_capacity(cfg.rotations() as usize);
    for rotation in 0..cfg.rotations() as usize {
        let (seat_bot, mut agents) =
            super::seat_rotation(&cfg.seats, players, game_seed, rotation, seating)?;
        let (scores, hands) = play_game(cfg.rules, game_seed, &mut agents)
            .with_context(|| format!("game {index} (seed {game_seed}), rotation {rotation}"))?;
        out.push(PlayedGame {
            seat_bot,
            scores,
            ranks: ranks(&scores, players),
            hands,
        });
    }
    Ok(out)
}

/// Plays one game to its end; returns the final scores and the number of hands.
fn play_game(rules: Rules, seed: u64, agents: &mut [Seated]) -> Result<([i32; 4], u32)> {
    let mut game = Game::new(rules, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut hands = 0u32;
    loop {
        play_hand(&mut game, agents)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("hand {}", hands + 1))?;
        hands += 1;
        if game.is_over() {
            return Ok((game.scores(), hands));
        }
        game.start_next_hand()
            .map_err(|e| anyhow::anyhow!("starting hand {}: {e}", hands + 1))?;
    }
}

/// Plays every game seed on the current rayon pool and returns the games seed by seed
/// (each with its rotations), in seed order, so the result does not depend on the
/// thread count. `on_game` is called after each seed; a seed skipped because `stop`
/// was set is empty.
pub fn play_games(
    cfg: &GamesConfig,
    seating: Seating,
    on_game: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Vec<PlayedGame>>> {
    cfg.validate()?;
    let seeds: Vec<Result<Vec<PlayedGame>>> = (0..cfg.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return Ok(Vec::new());
            }
            let r = play_seed(cfg, i, seating);
            on_game();
            r
        })
        .collect();
    seeds.into_iter().collect()
}

/// Per-cluster totals of one group of line-up entries: seat-games, sum of ranks, count
/// of each rank (1st..4th), final points, rank points.
#[allow(clippy::needless_range_loop)] // `seat` indexes four parallel arrays
pub(crate) fn cluster_totals(
    cluster: &[PlayedGame],
    players: usize,
    uma: &UmaTable,
    in_group: impl Fn(usize) -> bool,
) -> [f64; 8] {
    let mut t = [0f64; 8];
    for game in cluster {
        let points = uma.rank_points(&game.scores);
        for seat in 0..players {
            if !in_group(game.seat_bot[seat]) {
                continue;
            }
            let rank = game.ranks[seat] as usize;
            t[0] += 1.0;
            t[1] += rank as f64;
            t[1 + rank] += 1.0;
            t[6] += f64::from(game.scores[seat]);
            t[7] += points[seat];
        }
    }
    t
}

/// Differences (A − B) per seat-game of one line-up entry between two line-ups played
/// on the same game seeds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GamesComparison {
    /// Game seeds compared (played in both).
    pub games: u64,
    /// Seat-games of the entry per line-up.
    pub seat_games: u64,
    /// Average rank of A minus that of B (negative: A places better).
    pub average_rank: Estimate,
    /// First-place rate of A minus that of B.
    pub first_rate: Estimate,
    /// Last-place rate of A minus that of B.
    pub last_rate: Estimate,
    /// Final points of A minus those of B.
    pub final_points: Estimate,
    /// Rank points of A minus those of B.
    pub rank_points: Estimate,
}

/// Compares entry `entry_a` of games `a` with entry `entry_b` of games `b`, seed by
/// seed. Both must come from the same configuration apart from the bots.
pub fn compare(
    a: &[Vec<PlayedGame>],
    entry_a: usize,
    b: &[Vec<PlayedGame>],
    entry_b: usize,
    uma: &UmaTable,
) -> Result<GamesComparison> {
    if a.len() != b.len() {
        bail!(
            "the two line-ups played {} and {} game seeds: not the same configuration",
            a.len(),
            b.len()
        );
    }
    let players = uma.players as usize;
    let mut est: [RatioEstimator; 5] = Default::default();
    let (mut games, mut seat_games) = (0u64, 0u64);
    for (ga, gb) in a.iter().zip(b) {
        if ga.is_empty() || gb.is_empty() {
            continue;
        }
        let ta = cluster_totals(ga, players, uma, |e| e == entry_a);
        let tb = cluster_totals(gb, players, uma, |e| e == entry_b);
        if ta[0] != tb[0] {
            bail!(
                "game seed {games}: the entries sat {} and {} times: not the same configuration",
                ta[0],
                tb[0]
            );
        }
        let n = ta[0];
        est[0].push(ta[1] - tb[1], n);
        est[1].push(ta[2] - tb[2], n);
        est[2].push(ta[1 + players] - tb[1 + players], n);
        est[3].push(ta[6] - tb[6], n);
        est[4].push(ta[7] - tb[7], n);
        games += 1;
        seat_games += n as u64;
    }
    Ok(GamesComparison {
        games,
        seat_games,
        average_rank: est[0].estimate(),
        first_rate: est[1].estimate(),
        last_rate: est[2].estimate(),
        final_points: est[3].estimate(),
        rank_points: est[4].estimate(),
    })
}

#[cfg(test)]
#[path = "games_tests.rs"]
mod tests;
