//! The search (crate `mahjong-search`) as an [`Agent`]: the arena's `search` seat.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use engine::bots::{Agent, EfficiencyBot};
use engine::game::{Action, LegalActions, Observation};
use engine::rng::Rng;

use crate::policy::automatic;
use crate::AgentFactory;
use search::{search, SearchConfig};

/// Searches that failed in this process, all agents together (reported by `arena`).
pub static SEARCH_FAILURES: AtomicU64 = AtomicU64::new(0);
/// Why those searches failed: each error's message and how often it occurred.
pub static SEARCH_FAILURE_REASONS: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
/// Searches run in this process, all agents together.
pub static SEARCHES: AtomicU64 = AtomicU64::new(0);
/// Their total wall time in microseconds.
pub static SEARCH_MICROS: AtomicU64 = AtomicU64::new(0);

/// Plays [`search`]'s choice at every decision with more than one legal action
/// (tsumo and ron are taken at once, as by every other seat). A failed search falls
/// back to the efficiency bot's choice and is counted.
pub struct SearchAgent {
    cfg: Arc<SearchConfig>,
    seed: u64,
    decisions: u64,
    /// Searches that failed (the efficiency bot decided instead).
    pub failures: u64,
}

impl SearchAgent {
    /// An agent searching with `cfg`; `seed` makes its worlds differ from other hands'.
    pub fn new(cfg: Arc<SearchConfig>, seed: u64) -> SearchAgent {
        SearchAgent {
            cfg,
            seed,
            decisions: 0,
            failures: 0,
        }
    }
}

impl Agent for SearchAgent {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        if let Some(a) = automatic(legal, true) {
            return a;
        }
        self.decisions += 1;
        let mut cfg = (*self.cfg).clone();
        cfg.seed = Rng::derive_seed(self.seed, self.decisions);
        let start = std::time::Instant::now();
        let result = search(obs, legal, &cfg);
        SEARCHES.fetch_add(1, Ordering::Relaxed);
        SEARCH_MICROS.fetch_add(start.elapsed().as_micros() as u64, Ordering::Relaxed);
        match result {
            Ok(r) => r.chosen,
            Err(e) => {
                self.failures += 1;
                SEARCH_FAILURES.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut reasons) = SEARCH_FAILURE_REASONS.lock() {
                    *reasons.entry(e.to_string()).or_default() += 1;
                }
                EfficiencyBot.act(obs, legal)
            }
        }
    }
}

/// An arena factory seating [`SearchAgent`]s with `cfg`.
pub fn search_factory(cfg: Arc<SearchConfig>) -> Box<AgentFactory> {
    Box::new(move |seed| Ok(Box::new(SearchAgent::new(cfg.clone(), seed)) as Box<dyn Agent>))
}
