//! How close the belief is to the truth: posterior vs uniform on recorded positions.
//!
//! Positions come from self-play of efficiency bots (the opponents the model
//! describes): at a random decision of a random seat past its third discard, the
//! observer's view is taken and the true hands of the others are kept. For each
//! opponent model (uniform, each kind of evidence alone, all together) the weighted
//! proposals predict, and are scored against the truth by:
//! - **deal-in tiles**: for each tile type the observer holds, the probability that
//!   discarding it completes some opponent's hand; Brier score and log-loss against
//!   whether it really does;
//! - **ready opponents**: the probability that each opponent is tenpai; Brier score;
//! - **tile log-likelihood**: the mean log-probability of each true concealed tile
//!   under the posterior's per-type marginals (add-0.5 smoothing).
//!
//! Lower Brier and log-loss, higher log-likelihood are closer to the truth.

use engine::belief::{
    weigh_hypotheses, Evidence, Hypothesis, OpponentModel, Proposal, ShantenPrior,
};
use engine::bots::{Agent, EfficiencyBot};
use engine::game::{Game, Observation, RuleError, MAX_PLAYERS};
use engine::rng::Rng;
use engine::shanten::{min_shanten, Forms};
use engine::tile::{TileCounts, NUM_TILE_TYPES};
use engine::Rules;
use serde::Serialize;

/// A recorded position: the observer's view and the true concealed hands.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The observer's observation.
    pub obs: Observation,
    /// True concealed hands by seat.
    pub truth: [TileCounts; MAX_PLAYERS],
}

/// Collects `count` positions from efficiency self-play under `rules`.
pub fn record_positions(
    rules: &Rules,
    count: usize,
    seed: u64,
) -> Result<Vec<Recorded>, RuleError> {
    let mut rules = *rules;
    rules.hands_per_game = 1;
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut hand = 0u64;
    while out.len() < count {
        hand += 1;
        let mut game = Game::new(rules, Rng::derive_seed(seed, hand))?;
        // One position per hand, at a random decision past the early turns.
        let target = 6 + rng.below(30) as usize;
        let mut decision = 0usize;
        while game.last_result().is_none() {
            let seat = game.seats_to_act()[0];
            let obs = game.observation(seat)?;
            let legal = game.legal_actions(seat);
            decision += 1;
            if decision >= target && obs.discards[seat as usize].len() >= 3 {
                let mut truth = [[0u8; NUM_TILE_TYPES]; MAX_PLAYERS];
                for s in 0..rules.players {
                    truth[s as usize] = *game.hand(s).ok_or(RuleError::BadSeat)?;
                }
                truth[seat as usize] = [0; NUM_TILE_TYPES];
                out.push(Recorded { obs, truth });
                break;
            }
            let a = EfficiencyBot.act(&obs, &legal);
            game.apply(seat, a)?;
        }
    }
    Ok(out)
}

/// The scores of one opponent model.
#[derive(Clone, Debug, Serialize)]
pub struct BeliefScore {
    /// The model's name.
    pub model: String,
    /// Brier score of the deal-in probability of each held tile type.
    pub deal_in_brier: f64,
    /// Log-loss of the same.
    pub deal_in_log_loss: f64,
    /// Brier score of each opponent's tenpai probability.
    pub tenpai_brier: f64,
    /// Mean log-probability of a true concealed tile.
    pub tile_log_likelihood: f64,
    /// Mean effective sample size of the weights.
    pub effective: f64,
    /// Calibration: the mean predicted deal-in probability of a held tile type, and
    /// the share of held tile types that really deal in.
    pub deal_in_predicted: f64,
    /// The share of held tile types that deal in.
    pub deal_in_actual: f64,
    /// Calibration: the mean predicted probability that an opponent is tenpai.
    pub tenpai_predicted: f64,
    /// The share of opponents that are tenpai.
    pub tenpai_actual: f64,
}

fn wins_with(hand: &TileCounts, t: usize, melds: u8, rules: &Rules) -> bool {
    let mut h = *hand;
    h[t] += 1;
    h[t] <= 4 && min_shanten(&h, melds, rules.tile_set, Forms::from_rules(rules)) < 0
}

/// Scores `model` on `positions` with `proposals` proposals each.
pub fn score(
    name: &str,
    model: &OpponentModel,
    positions: &[Recorded],
    proposals: usize,
    seed: u64,
) -> Result<BeliefScore, RuleError> {
    let mut hyp = vec![Hypothesis::default(); proposals];
    let mut w = vec![0.0; proposals];
    let (mut di_brier, mut di_ll, mut di_n) = (0.0, 0.0, 0usize);
    let (mut tp_brier, mut tp_n) = (0.0, 0usize);
    let (mut tile_ll, mut tile_n) = (0.0, 0usize);
    let mut ess = 0.0;
    let (mut di_pred, mut di_act, mut tp_pred, mut tp_act) = (0.0, 0.0, 0.0, 0.0);
    for (k, p) in positions.iter().enumerate() {
        let obs = &p.obs;
        let rules = obs.rules;
        let mut rng = Rng::new(Rng::derive_seed(seed, k as u64));
        let s = weigh_hypotheses(obs, model, &mut rng, &mut hyp, &mut w)?;
        ess += s.effective;
        let opponents: Vec<usize> = (0..rules.players as usize)
            .filter(|&o| o != obs.seat as usize)
            .collect();
        let melds = |o: usize| obs.melds[o].len() as u8;
        for t in (0..NUM_TILE_TYPES).filter(|&t| obs.hand[t] > 0) {
            let truth = opponents
                .iter()
                .any(|&o| wins_with(&p.truth[o], t, melds(o), &rules));
            let prob: f64 = hyp
                .iter()
                .zip(&w)
                .filter(|(h, _)| {
                    opponents
                        .iter()
                        .any(|&o| wins_with(&h.hands[o], t, melds(o), &rules))
                })
                .map(|(_, &x)| x)
                .sum();
            let y = truth as u8 as f64;
            di_pred += prob;
            di_act += y;
            di_brier += (prob - y).powi(2);
            let pc = prob.clamp(1e-4, 1.0 - 1e-4);
            di_ll -= y * pc.ln() + (1.0 - y) * (1.0 - pc).ln();
            di_n += 1;
        }
        let forms = Forms::from_rules(&rules);
        for &o in &opponents {
            let ready = |h: &TileCounts| min_shanten(h, melds(o), rules.tile_set, forms) <= 0;
            let prob: f64 = hyp
                .iter()
                .zip(&w)
                .filter(|(h, _)| ready(&h.hands[o]))
                .map(|(_, &x)| x)
                .sum();
            let y = ready(&p.truth[o]) as u8 as f64;
            tp_pred += prob;
            tp_act += y;
            tp_brier += (prob - y).powi(2);
            tp_n += 1;
            let size: f64 = p.truth[o].iter().map(|&c| c as f64).sum();
            let mut marg = [0.0f64; NUM_TILE_TYPES];
            for (h, &x) in hyp.iter().zip(&w) {
                for (m, &c) in marg.iter_mut().zip(&h.hands[o]) {
                    *m += x * c as f64;
                }
            }
            let types = rules.tile_set.tiles().count() as f64;
            for (&truth, &m) in p.truth[o].iter().zip(&marg) {
                let c = truth as f64;
                if c > 0.0 {
                    tile_ll += c * ((m + 0.5 / types) / (size + 0.5)).ln();
                    tile_n += c as usize;
                }
            }
        }
    }
    let n = positions.len().max(1) as f64;
    Ok(BeliefScore {
        model: name.to_string(),
        deal_in_brier: di_brier / di_n.max(1) as f64,
        deal_in_log_loss: di_ll / di_n.max(1) as f64,
        tenpai_brier: tp_brier / tp_n.max(1) as f64,
        tile_log_likelihood: tile_ll / tile_n.max(1) as f64,
        effective: ess / n,
        deal_in_predicted: di_pred / di_n.max(1) as f64,
        deal_in_actual: di_act / di_n.max(1) as f64,
        tenpai_predicted: tp_pred / tp_n.max(1) as f64,
        tenpai_actual: tp_act / tp_n.max(1) as f64,
    })
}

/// The models compared: uniform, each kind of evidence alone, the default (every kind
/// but the history), all.
pub fn models(prior: &ShantenPrior) -> Vec<(String, OpponentModel)> {
    // One kind of evidence and no other.
    let only = |set: fn(&mut Evidence)| {
        let mut e = Evidence::NONE;
        set(&mut e);
        e
    };
    let uniform_base = OpponentModel {
        proposal: Proposal::Uniform,
        ..OpponentModel::new(prior.clone())
    };
    let with = |e: Evidence| OpponentModel {
        evidence: e,
        ..uniform_base.clone()
    };
    let built = OpponentModel::new(prior.clone());
    let built_with = |e: Evidence| OpponentModel {
        evidence: e,
        ..built.clone()
    };
    let all = built_with(Evidence::ALL);
    let efficient = OpponentModel {
        proposal: Proposal::Efficient,
        ..built.clone()
    };
    let models = [
        ("uniform", with(Evidence::NONE)),
        ("built, no evidence", built_with(Evidence::NONE)),
        (
            "built + hand discards",
            built_with(only(|e| e.hand_discards = true)),
        ),
        (
            "built + passed wins",
            built_with(only(|e| e.passed_wins = true)),
        ),
        (
            "built + passed calls",
            built_with(only(|e| e.passed_calls = true)),
        ),
        ("built + default", built.clone()),
        ("built + history", built_with(only(|e| e.history = true))),
        ("built + all (history too)", all.clone()),
        (
            "built + all, 8 walks",
            OpponentModel {
                history_paths: 8,
                ..all.clone()
            },
        ),
        (
            "built + all, ε_h = 0.3",
            OpponentModel {
                history_deviation: 0.3,
                ..all
            },
        ),
        ("efficient-built + default", efficient.clone()),
        (
            "efficient-built, no evidence",
            OpponentModel {
                evidence: Evidence::NONE,
                ..efficient
            },
        ),
        (
            "built + default, ε = 0.01",
            OpponentModel {
                deviation: 0.01,
                ..built.clone()
            },
        ),
        (
            "built + default, ε = 0.2",
            OpponentModel {
                deviation: 0.2,
                ..built.clone()
            },
        ),
        ("shanten prior only", with(only(|e| e.shanten_prior = true))),
        ("hand discards only", with(only(|e| e.hand_discards = true))),
        ("passed wins only", with(only(|e| e.passed_wins = true))),
        ("uniform-dealt, default", uniform_base.clone()),
    ];
    models
        .into_iter()
        .map(|(name, m)| (name.to_string(), m))
        .collect()
}
