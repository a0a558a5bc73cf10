//! The learned policy as an [`Agent`], for the arena.
//!
//! Evaluation plays greedily: the legal action with the highest logit (the same
//! automatic moves as in self-play: single legal actions, and tsumo/ron with
//! `auto_win`). The arena calls its agent factory on its rayon threads; each thread
//! builds its own model from the shared snapshot once (a thread-local cache keyed by a
//! per-factory id), since tch tensors cannot be shared between threads.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Result;
use engine::bots::Agent;
use engine::game::{Action, LegalActions, Observation};
use tch::{Device, Tensor};

use super::model::{masked_logits, obs_tensor, OwnedNet, ParamSnapshot};
use arena::policy::{automatic, EncodedDecision};
use arena::AgentFactory;

thread_local! {
    static CACHE: RefCell<Option<(u64, Rc<OwnedNet>)>> = const { RefCell::new(None) };
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A policy in a seat.
pub struct PolicyAgent {
    net: Rc<OwnedNet>,
    auto_win: bool,
}

impl PolicyAgent {
    /// A greedy agent over `net`.
    pub fn new(net: Rc<OwnedNet>, auto_win: bool) -> PolicyAgent {
        PolicyAgent { net, auto_win }
    }

    /// The greedy legal action for `obs` (`None` if the forward pass fails).
    pub fn choose(&self, obs: &Observation, legal: &LegalActions) -> Option<Action> {
        if let Some(a) = automatic(legal, self.auto_win) {
            return Some(a);
        }
        let encoding = self.net.net.encoding;
        let d = EncodedDecision::new(encoding, obs, legal);
        let _g = tch::no_grad_guard();
        let xt = obs_tensor(d.obs(), encoding, Device::Cpu).ok()?;
        let mt = Tensor::from_slice(d.mask()).view([1, d.mask().len() as i64]);
        let (logits, _) = self.net.net.forward(&xt);
        let best = masked_logits(&logits, &mt)
            .argmax(-1, false)
            .int64_value(&[0]);
        Action::from_index(usize::try_from(best).ok()?).filter(|a| legal.contains(*a))
    }
}

impl Agent for PolicyAgent {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        self.choose(obs, legal)
            .or_else(|| legal.iter().next())
            .unwrap_or(Action::Pass)
    }
}

/// An arena factory seating `snapshot` (greedy) in every [`arena::BotSpec::Custom`] seat.
pub fn policy_factory(snapshot: Arc<ParamSnapshot>, auto_win: bool) -> Box<AgentFactory> {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    Box::new(move |_seed| {
        let net = CACHE.with(|c| -> Result<Rc<OwnedNet>> {
            let mut c = c.borrow_mut();
            if let Some((cid, net)) = c.as_ref() {
                if *cid == id {
                    return Ok(net.clone());
                }
            }
            let net = Rc::new(OwnedNet::from_snapshot(&snapshot, Device::Cpu)?);
            *c = Some((id, net.clone()));
            Ok(net)
        })?;
        Ok(Box::new(PolicyAgent::new(net, auto_win)) as Box<dyn Agent>)
    })
}
