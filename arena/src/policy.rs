//! The exported policy (an ONNX model run by tract) as an arena [`Agent`], and the
//! automatic-move rule it shares with self-play.
//!
//! This is the agent that `arena --seats model,…` and `report` seat: it evaluates the
//! file that ships (`models/default.onnx`), not the tch checkpoint it came from, so the
//! published numbers describe what users run. It needs no libtorch.

use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use engine::bots::Agent;
use engine::encode::{action_mask, Encoding, MAX_ENCODED_LEN};
use engine::game::{Action, LegalActions, Observation, NUM_ACTIONS};
use inference::Advisor;

use crate::AgentFactory;

/// One decision as a model of `encoding` reads it: the encoded observation and the
/// legal-action mask over the model's logits, in stack buffers wide enough for every
/// version (shared by the ONNX agent, the trainer's agent and its self-play workers).
pub struct EncodedDecision {
    obs: [f32; MAX_ENCODED_LEN],
    mask: [f32; NUM_ACTIONS],
    encoding: Encoding,
}

impl EncodedDecision {
    /// Encodes `obs` and masks `legal` for a model of `encoding`.
    pub fn new(encoding: Encoding, obs: &Observation, legal: &LegalActions) -> EncodedDecision {
        let mut d = EncodedDecision {
            obs: [0.0; MAX_ENCODED_LEN],
            mask: [0.0; NUM_ACTIONS],
            encoding,
        };
        // The buffer is exactly the version's length, so this cannot fail.
        let _ = encoding.encode(obs, &mut d.obs[..encoding.encoded_len()]);
        action_mask(legal, &mut d.mask[..encoding.policy_actions()]);
        d
    }

    /// The encoded observation (the encoding's length).
    pub fn obs(&self) -> &[f32] {
        &self.obs[..self.encoding.encoded_len()]
    }

    /// The legal-action mask (one entry per logit of the model).
    pub fn mask(&self) -> &[f32] {
        &self.mask[..self.encoding.policy_actions()]
    }
}

/// The move to play without asking the policy, if any: tsumo or ron when `auto_win`
/// (the trainer's default — winning is never worse under these flat-scored rules), and
/// the only legal action when there is just one.
pub fn automatic(legal: &LegalActions, auto_win: bool) -> Option<Action> {
    if auto_win {
        if legal.contains(Action::Tsumo) {
            return Some(Action::Tsumo);
        }
        if legal.contains(Action::Ron) {
            return Some(Action::Ron);
        }
    }
    if legal.len() == 1 {
        return legal.iter().next();
    }
    None
}

/// The index of the largest `logits[i]` among legal actions (`mask[i] > 0`), first on
/// ties; `None` when nothing is legal or a logit is NaN.
pub fn greedy_legal(logits: &[f32], mask: &[f32]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, (&l, &m)) in logits.iter().zip(mask).enumerate() {
        if m <= 0.0 {
            continue;
        }
        if l.is_nan() {
            return None;
        }
        if best.is_none_or(|(_, b)| l > b) {
            best = Some((i, l));
        }
    }
    best.map(|(i, _)| i)
}

/// A greedy player over an ONNX policy: automatic moves as in training (tsumo/ron are
/// always taken: the shipped models are trained with `--auto-win true`), otherwise the
/// legal action with the highest logit.
pub struct OnnxAgent {
    advisor: Arc<Advisor>,
    /// Forward passes that failed (the agent then falls back to the first legal action).
    pub failures: u64,
}

impl OnnxAgent {
    /// An agent over `advisor`, which must hold a model (not efficiency-only).
    pub fn new(advisor: Arc<Advisor>) -> Result<OnnxAgent> {
        anyhow::ensure!(
            advisor.has_model(),
            "the policy seat needs a model, not the efficiency-only advisor"
        );
        Ok(OnnxAgent {
            advisor,
            failures: 0,
        })
    }

    /// The greedy legal action (`None` if the forward pass fails).
    pub fn choose(&self, obs: &Observation, legal: &LegalActions) -> Option<Action> {
        if let Some(a) = automatic(legal, true) {
            return Some(a);
        }
        let d = EncodedDecision::new(self.advisor.encoding()?, obs, legal);
        let (logits, _) = self.advisor.evaluate(d.obs()).ok()?;
        let best = greedy_legal(&logits, d.mask())?;
        Action::from_index(best).filter(|a| legal.contains(*a))
    }
}

impl Agent for OnnxAgent {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        match self.choose(obs, legal) {
            Some(a) => a,
            None => {
                self.failures += 1;
                legal.iter().next().unwrap_or(Action::Pass)
            }
        }
    }
}

/// The policy for `model` seats under `rules`: the ONNX file at `path` (its sidecar's
/// rules must fit, `inference::shipped::rules_fit`), else the shipped model that fits the
/// rules (`inference::shipped::fitting`); an error names what is missing.
pub fn model_for_rules(path: Option<&Path>, rules: &engine::Rules) -> Result<Advisor> {
    let rules_name = rules.preset_name().unwrap_or("custom");
    let Some(path) = path else {
        return match inference::shipped::fitting(rules)
            .context("loading the shipped models compiled into this binary")?
        {
            Some(a) => Ok(a),
            None => bail!(
                "{}; give a model file for the `model` seats",
                inference::shipped::none_fits(&format!("the rules {rules_name}"))
            ),
        };
    };
    let advisor = Advisor::load(path)
        .with_context(|| format!("loading the model {} for the `model` seats", path.display()))?;
    if let Some(sidecar) = advisor.sidecar() {
        if !inference::shipped::rules_fit(&sidecar.rules, rules) {
            bail!(
                "the model {} was trained for rules {:?} but the arena plays {rules_name:?}",
                path.display(),
                sidecar.rules
            );
        }
    }
    Ok(advisor)
}

/// An arena factory seating `advisor` (greedy) in every custom seat. The tract plan is
/// shared (`Arc`), so making an agent per hand costs nothing.
pub fn onnx_factory(advisor: Arc<Advisor>) -> Result<Box<AgentFactory>> {
    anyhow::ensure!(
        advisor.has_model(),
        "the policy seat needs a model, not the efficiency-only advisor"
    );
    Ok(Box::new(move |_seed| {
        Ok(Box::new(OnnxAgent::new(advisor.clone())?) as Box<dyn Agent>)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_skips_illegal_and_takes_the_first_maximum() {
        let logits = [5.0, 1.0, 3.0, 3.0];
        assert_eq!(greedy_legal(&logits, &[0.0, 1.0, 1.0, 1.0]), Some(2));
        assert_eq!(greedy_legal(&logits, &[1.0, 1.0, 1.0, 1.0]), Some(0));
        assert_eq!(greedy_legal(&logits, &[0.0; 4]), None);
        assert_eq!(greedy_legal(&[f32::NAN, 1.0], &[1.0, 1.0]), None);
        assert_eq!(greedy_legal(&[f32::NAN, 1.0], &[0.0, 1.0]), Some(1));
    }

    #[test]
    fn efficiency_only_advisor_is_refused() {
        let advisor = Arc::new(Advisor::efficiency_only());
        assert!(OnnxAgent::new(advisor.clone()).is_err());
        assert!(onnx_factory(advisor).is_err());
    }
}
