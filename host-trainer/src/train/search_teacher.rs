//! The `search` teacher: rollout-search values of the learner's own decisions, computed
//! by the workers on a fraction of them and shipped with the trajectories.
//!
//! On a decision drawn with probability `--search-fraction`, the worker runs the search
//! crate's determinized rollout search (`search::search`: candidates pruned by value
//! score plus every call, kan and win; the same worlds for every candidate; rollouts by
//! efficiency bots; belief-weighted worlds; `--search-rollouts` worlds, no time budget,
//! so the labels do not depend on the machine's load) and records each candidate's
//! estimated points for the seat. The learner's guidance target for that decision is
//! the softmax of those values at `--search-temperature` points ([`search_target`]);
//! decisions that were not searched get no target. This is the seed's value-score
//! guidance made accurate: the target is the estimated value of each action, not a
//! heuristic of the discard alone.

use anyhow::{anyhow, Result};
use engine::game::{LegalActions, Observation, Phase, RuleError};
use engine::rng::Rng;
use engine::Rules;
use search::{search, SearchConfig, SearchError};

/// How the workers label decisions (part of `WorkerSetup`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchTeacherSetup {
    /// Probability that a learner decision is searched.
    pub fraction: f64,
    /// Worlds per search (one rollout per candidate each).
    pub rollouts: u32,
}

/// A worker's labeller: the search configuration and its own random stream.
pub struct SearchTeacher {
    setup: SearchTeacherSetup,
    config: SearchConfig,
    rng: Rng,
    refused: u64,
}

impl SearchTeacher {
    /// A labeller for `rules` (measures the belief's shanten prior once per process).
    pub fn new(rules: &Rules, setup: SearchTeacherSetup, seed: u64) -> Result<SearchTeacher> {
        let mut config = SearchConfig::new(rules).map_err(|e| anyhow!("search teacher: {e}"))?;
        config.rollouts = setup.rollouts;
        config.budget_ms = None;
        // Every candidate's value on the same worlds is the distillation target, and
        // the labels stay those the training issue measured: no racing, no extra
        // safe candidates.
        config.prune_z = None;
        config.safe_k = 0;
        config
            .validate()
            .map_err(|e| anyhow!("search teacher: {e}"))?;
        Ok(SearchTeacher {
            setup,
            config,
            rng: Rng::new(seed),
            refused: 0,
        })
    }

    /// The candidates' values (action index, points) of a decision drawn for labelling,
    /// or none (not drawn, or a single legal action: nothing to teach).
    pub fn label(&mut self, obs: &Observation, legal: &LegalActions) -> Result<Vec<(u16, f32)>> {
        if legal.len() < 2
            || !matches!(obs.phase, Phase::Turn | Phase::Claim)
            || self.rng.next_f64() >= self.setup.fraction
        {
            return Ok(Vec::new());
        }
        self.config.seed = self.rng.next_u64();
        let result = match search(obs, legal, &self.config) {
            Ok(r) => r,
            // A position the determinization refuses (under riichi rules: a seat in
            // riichi whose tenpai hand it failed to build within its tries) teaches
            // nothing; the decision goes without a target, as an unsearched one does,
            // and the worker plays on.
            Err(SearchError::Rule(RuleError::BadSetup)) => {
                self.refused += 1;
                return Ok(Vec::new());
            }
            Err(e) => return Err(anyhow!("search teacher: {e}")),
        };
        Ok(result
            .values()
            .into_iter()
            .map(|(a, v)| (a.index() as u16, v as f32))
            .collect())
    }
}

impl SearchTeacher {
    /// Decisions drawn for labelling whose position the search refused (they got no
    /// target).
    pub fn refused(&self) -> u64 {
        self.refused
    }
}

/// The guidance target of a searched decision: softmax of the candidates' values at
/// `temperature` points over the candidates that are legal (`mask`), written into
/// `out` (one float per action index); all zero when there are none.
pub fn search_target(values: &[(u16, f32)], mask: &[f32], temperature: f32, out: &mut [f32]) {
    out.iter_mut().for_each(|x| *x = 0.0);
    let n = out.len();
    let legal = |a: u16| mask.get(a as usize).is_some_and(|&m| m > 0.5) && (a as usize) < n;
    let max = values
        .iter()
        .filter(|(a, v)| legal(*a) && v.is_finite())
        .map(|&(_, v)| v)
        .fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() || temperature.is_nan() || temperature <= 0.0 {
        return;
    }
    let mut sum = 0.0f32;
    for &(a, v) in values {
        if legal(a) && v.is_finite() {
            let e = ((v - max) / temperature).exp();
            out[a as usize] += e;
            sum += e;
        }
    }
    out.iter_mut().for_each(|x| *x /= sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_is_a_softmax_over_legal_candidates() {
        let mut mask = vec![0.0; 141];
        for a in [3, 7, 140] {
            mask[a] = 1.0;
        }
        let mut out = vec![0.0; 141];
        // 9 is not legal, 500 is out of range, NaN is ignored.
        let values = [
            (3, 1.0),
            (7, 0.5),
            (140, 1.0),
            (9, 5.0),
            (500, 9.0),
            (7, f32::NAN),
        ];
        search_target(&values, &mask, 0.5, &mut out);
        let sum: f32 = out.iter().sum();
        assert!((sum - 1.0).abs() < 1e-6, "{sum}");
        assert_eq!(out[9], 0.0);
        assert!((out[3] - out[140]).abs() < 1e-7);
        // e^{-0.5/0.5} = e^{-1} relative to the best.
        assert!((out[7] / out[3] - (-1.0f32).exp()).abs() < 1e-6);
        // A colder temperature sharpens it.
        let mut cold = vec![0.0; 141];
        search_target(&values, &mask, 0.05, &mut cold);
        assert!(cold[7] < out[7]);
        // Nothing legal, or no positive temperature: no target.
        search_target(&[(9, 1.0)], &mask, 0.5, &mut out);
        assert!(out.iter().all(|&x| x == 0.0));
        search_target(&values, &mask, 0.0, &mut out);
        assert!(out.iter().all(|&x| x == 0.0));
    }

    #[test]
    fn labels_a_real_decision_with_every_candidate() {
        let rules = Rules::sanma();
        let mut game = engine::game::Game::new(rules, 3).unwrap();
        let seat = game.seats_to_act()[0];
        let obs = game.observation(seat).unwrap();
        let legal = game.legal_actions(seat);
        let setup = SearchTeacherSetup {
            fraction: 1.0,
            rollouts: 8,
        };
        let mut t = SearchTeacher::new(&rules, setup, 1).unwrap();
        let v = t.label(&obs, &legal).unwrap();
        assert!(v.len() >= 2, "{v:?}");
        for (a, x) in &v {
            let action = engine::game::Action::from_index(*a as usize).unwrap();
            assert!(legal.contains(action) && x.is_finite());
        }
        // A fraction of 0 labels nothing.
        let never = SearchTeacherSetup {
            fraction: 0.0,
            ..setup
        };
        let mut t = SearchTeacher::new(&rules, never, 1).unwrap();
        assert!(t.label(&obs, &legal).unwrap().is_empty());
        // Applying any action leaves the game playable (the teacher does not touch it).
        game.apply(seat, legal.as_slice()[0]).unwrap();
    }

    /// Labels decisions of efficiency-bot hands under Tenhou sanma (riichi, kita, red
    /// fives): every label is over legal candidates with finite values, and a refused
    /// position is skipped, never an error that would end the worker.
    #[test]
    fn labels_riichi_decisions_of_whole_hands() {
        use engine::bots::{play_hand, Agent, EfficiencyBot};
        use engine::game::Action;
        use std::cell::RefCell;

        struct Labeller<'a>(&'a RefCell<(SearchTeacher, u32)>);
        impl Agent for Labeller<'_> {
            fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
                let mut t = self.0.borrow_mut();
                let v =
                    t.0.label(obs, legal)
                        .expect("labelling never fails on a position");
                for (a, x) in &v {
                    let action = Action::from_index(*a as usize).unwrap();
                    assert!(legal.contains(action) && x.is_finite(), "{action:?} {x}");
                }
                t.1 += u32::from(!v.is_empty());
                EfficiencyBot.act(obs, legal)
            }
        }
        let rules = Rules::tenhou_sanma();
        let setup = SearchTeacherSetup {
            fraction: 0.25,
            rollouts: 2,
        };
        let shared = RefCell::new((SearchTeacher::new(&rules, setup, 7).unwrap(), 0));
        for seed in 0..3 {
            let mut game = engine::game::Game::new(rules, seed).unwrap();
            let mut agents: Vec<Labeller> = (0..3).map(|_| Labeller(&shared)).collect();
            play_hand(&mut game, &mut agents).unwrap();
        }
        let (_, labelled) = shared.into_inner();
        assert!(labelled >= 5, "{labelled} labels");
    }
}
