//! Evaluation during training: the current snapshot, greedy, in the duplicate arena
//! against random bots and against efficiency bots, and the stop rule on the results.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Result};
use engine::rng::Rng;
use engine::Rules;

use super::agent::policy_factory;
use super::checkpoint::Progress;
use super::config::{EvalWalls, StopOn, TrainConfig};
use super::model::ParamSnapshot;
use arena::{self, ArenaConfig, BotSpec};

/// Evaluation of one snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Evaluation {
    /// Win rate against two random bots (mean, low, points per hand).
    pub random: (f64, f64, f64),
    /// Win rate against two efficiency bots (mean, low, points per hand).
    pub eff: (f64, f64, f64),
    /// Points per hand of the policy minus those of the efficiency bot in the same
    /// seats on the same walls (mean, low, high of the 95 % interval), against two
    /// efficiency bots.
    pub paired_points: (f64, f64, f64),
    /// The same difference of win rates (mean).
    pub paired_win_rate: f64,
}

/// Plays `snapshot` (greedy) in the duplicate arena against `players − 1` random bots
/// and against `players − 1` efficiency bots, and the efficiency bot in its seats on
/// the same walls (the paired comparison): three line-ups of `hands` hands.
pub fn evaluate(
    snapshot: Arc<ParamSnapshot>,
    rules: Rules,
    hands: u64,
    seed: u64,
    auto_win: bool,
) -> Result<Evaluation> {
    evaluate_until(
        snapshot,
        rules,
        hands,
        seed,
        auto_win,
        &AtomicBool::new(false),
    )?
    .ok_or_else(|| anyhow!("the evaluation was stopped"))
}

/// [`evaluate`] that gives up once `stop` is set: no new wall starts, and `None` says
/// that some wall was skipped (a partial evaluation would be biased, so none is made).
pub fn evaluate_until(
    snapshot: Arc<ParamSnapshot>,
    rules: Rules,
    hands: u64,
    seed: u64,
    auto_win: bool,
    stop: &AtomicBool,
) -> Result<Option<Evaluation>> {
    let factory = policy_factory(snapshot, auto_win);
    let players = rules.players as usize;
    let lineup = |first: BotSpec, others: BotSpec| {
        let mut seats = vec![first];
        seats.resize(players, others);
        ArenaConfig {
            rules,
            seats,
            hands: hands.max(1),
            seed,
            duplicate: true,
        }
    };
    let mut out = [(0.0, 0.0, 0.0); 2];
    let mut against_eff = Vec::new();
    for (k, opp) in [BotSpec::Random, BotSpec::Efficiency]
        .into_iter()
        .enumerate()
    {
        let cfg = lineup(BotSpec::Custom, opp);
        let start = Instant::now();
        let walls = arena::play_walls(&cfg, Some(&*factory), &|| {}, stop)?;
        if walls.iter().any(|w| w.is_empty()) {
            return Ok(None);
        }
        let report = arena::ArenaReport::from_walls(&cfg, &walls, start.elapsed().as_secs_f64());
        let p = report
            .kind("policy")
            .ok_or_else(|| anyhow!("no policy entry in the arena report"))?;
        out[k] = (p.win_rate.mean, p.win_rate.low, p.points_per_hand.mean);
        against_eff = walls;
    }
    // The efficiency bot in the policy's seats, same walls and rotations.
    let reference = arena::play_walls(
        &lineup(BotSpec::Efficiency, BotSpec::Efficiency),
        None,
        &|| {},
        stop,
    )?;
    if reference.iter().any(|w| w.is_empty()) {
        return Ok(None);
    }
    let paired = arena::paired::compare(&against_eff, 0, &reference, 0, players)?;
    Ok(Some(Evaluation {
        random: out[0],
        eff: out[1],
        paired_points: (
            paired.points_per_hand.mean,
            paired.points_per_hand.low,
            paired.points_per_hand.high,
        ),
        paired_win_rate: paired.win_rate.mean,
    }))
}

/// The walls of evaluation number `n` (from 0) of a run seeded `seed`.
pub fn eval_seed(seed: u64, walls: EvalWalls, n: u64) -> u64 {
    match walls {
        EvalWalls::Fixed => Rng::derive_seed(seed, 0xE7A1),
        EvalWalls::Rotating => Rng::derive_seed(Rng::derive_seed(seed, 0xE7A1), n + 1),
    }
}

/// Records an evaluation in `progress` (first pass of the random-bot threshold, the
/// streak above both thresholds); the reason to stop, once the streak reaches
/// `--stop-after`.
pub fn stop_rule(progress: &mut Progress, cfg: &TrainConfig, ev: &Evaluation) -> Option<String> {
    progress.evals += 1;
    let random_ok = ev.random.0 >= cfg.win_rate_random;
    if random_ok && progress.first_random_pass.is_none() {
        progress.first_random_pass = Some(progress.update);
    }
    let pass = random_ok
        && match cfg.stop_on {
            StopOn::WinRates => ev.eff.0 >= cfg.win_rate_eff,
            StopOn::Paired => ev.paired_points.1 > 0.0,
        };
    progress.streak = if pass { progress.streak + 1 } else { 0 };
    (cfg.stop_after > 0 && progress.streak >= cfg.stop_after).then(|| match cfg.stop_on {
        StopOn::WinRates => format!(
            "win rates above the thresholds for {} evaluations",
            progress.streak
        ),
        StopOn::Paired => format!(
            "paired points/hand above the efficiency bot's (95 % lower bound > 0) for {} \
             evaluations",
            progress.streak
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::config::TrainConfig;
    use clap::Parser;

    fn ev(random: f64, eff: f64, paired_low: f64) -> Evaluation {
        Evaluation {
            random: (random, random - 0.05, 0.5),
            eff: (eff, eff - 0.05, 0.0),
            paired_points: (paired_low + 0.1, paired_low, paired_low + 0.2),
            paired_win_rate: 0.0,
        }
    }

    #[test]
    fn stop_rules_count_streaks_of_passing_evaluations() {
        let mut cfg = TrainConfig::parse_from(["train", "--stop-after", "2"]);
        let mut p = Progress::default();
        // Win rates: both thresholds (0.45, 0.30).
        assert_eq!(stop_rule(&mut p, &cfg, &ev(0.5, 0.35, -1.0)), None);
        assert_eq!(p.first_random_pass, Some(0));
        assert_eq!(stop_rule(&mut p, &cfg, &ev(0.5, 0.2, 1.0)), None);
        assert_eq!(p.streak, 0, "below the eff threshold breaks the streak");
        stop_rule(&mut p, &cfg, &ev(0.5, 0.35, -1.0));
        let why = stop_rule(&mut p, &cfg, &ev(0.5, 0.35, -1.0)).unwrap();
        assert!(why.contains("win rates"), "{why}");
        assert_eq!(p.evals, 4);
        // Paired: the lower bound of the paired points must be above 0.
        cfg.stop_on = StopOn::Paired;
        let mut p = Progress::default();
        assert_eq!(stop_rule(&mut p, &cfg, &ev(0.5, 0.9, -0.01)), None);
        assert_eq!(stop_rule(&mut p, &cfg, &ev(0.5, 0.0, 0.01)), None);
        assert_eq!(
            stop_rule(&mut p, &cfg, &ev(0.4, 0.0, 0.5)),
            None,
            "random threshold"
        );
        stop_rule(&mut p, &cfg, &ev(0.5, 0.0, 0.01));
        let why = stop_rule(&mut p, &cfg, &ev(0.5, 0.0, 0.02)).unwrap();
        assert!(why.contains("paired"), "{why}");
    }

    #[test]
    fn rotating_walls_differ_per_evaluation_and_fixed_ones_do_not() {
        let r: Vec<u64> = (0..4)
            .map(|n| eval_seed(9, EvalWalls::Rotating, n))
            .collect();
        assert!(r.windows(2).all(|w| w[0] != w[1]), "{r:?}");
        assert_eq!(
            eval_seed(9, EvalWalls::Fixed, 0),
            eval_seed(9, EvalWalls::Fixed, 7)
        );
        assert_ne!(
            eval_seed(9, EvalWalls::Fixed, 0),
            eval_seed(10, EvalWalls::Fixed, 0)
        );
    }

    #[test]
    fn old_configs_read_fixed_walls_and_new_ones_rotate() {
        let old: TrainConfig = serde_json::from_str(r#"{"rules": "sanma"}"#).unwrap();
        assert_eq!(old.eval_walls, EvalWalls::Fixed);
        assert_eq!(TrainConfig::default().eval_walls, EvalWalls::Rotating);
    }
}
