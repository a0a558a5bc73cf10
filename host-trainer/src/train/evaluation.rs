//! Evaluation during training: the current snapshot, greedy, in the duplicate arena
//! against random bots and against efficiency bots, and the stop rule on the results.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Result};
use engine::Rules;

use super::agent::policy_factory;
use super::checkpoint::Progress;
use super::config::TrainConfig;
use super::model::ParamSnapshot;
use crate::arena::{self, ArenaConfig, BotSpec};

/// Evaluation of one snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Evaluation {
    /// Win rate against two random bots (mean, low, points per hand).
    pub random: (f64, f64, f64),
    /// Win rate against two efficiency bots (mean, low, points per hand).
    pub eff: (f64, f64, f64),
}

/// Plays `snapshot` (greedy) in the duplicate arena against `players − 1` random bots
/// and against `players − 1` efficiency bots.
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
    let mut out = [(0.0, 0.0, 0.0); 2];
    for (k, opp) in [BotSpec::Random, BotSpec::Efficiency]
        .into_iter()
        .enumerate()
    {
        let mut seats = vec![BotSpec::Custom];
        seats.resize(rules.players as usize, opp);
        let cfg = ArenaConfig {
            rules,
            seats,
            hands: hands.max(1),
            seed,
            duplicate: true,
        };
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
    }
    Ok(Some(Evaluation {
        random: out[0],
        eff: out[1],
    }))
}

/// Records an evaluation in `progress` (first pass of the random-bot threshold, the
/// streak above both thresholds); the reason to stop, once the streak reaches
/// `--stop-after`.
pub fn stop_rule(progress: &mut Progress, cfg: &TrainConfig, ev: &Evaluation) -> Option<String> {
    progress.evals += 1;
    if ev.random.0 >= cfg.win_rate_random && progress.first_random_pass.is_none() {
        progress.first_random_pass = Some(progress.update);
    }
    if ev.random.0 >= cfg.win_rate_random && ev.eff.0 >= cfg.win_rate_eff {
        progress.streak += 1;
    } else {
        progress.streak = 0;
    }
    (cfg.stop_after > 0 && progress.streak >= cfg.stop_after).then(|| {
        format!(
            "win rates above the thresholds for {} evaluations",
            progress.streak
        )
    })
}
