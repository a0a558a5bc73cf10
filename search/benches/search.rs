//! `cargo bench -p mahjong-search --bench search`: rollout throughput of today's code
//! and of the original efficiency code in the same run (ratio printed), beside the
//! efficiency bot's whole-hand throughput, and the latency of a search at the default
//! budget (p50 / p99 over recorded positions, one thread).
//!
//! A rollout is one candidate played from a mid-hand decision to the end of the hand,
//! so it is shorter than a whole hand. "Original" rolls out with
//! `engine::bots::ReferenceEfficiencyBot`: the same decisions (the differential test
//! `engine/tests/value_scores_differential.rs` holds the two discard functions equal),
//! computed by `efficiency::reference::best_discard_reference`, the code before the
//! shared first step; it sits behind the search's custom-agent box (one dynamic call
//! per decision, noise beside a decision's microseconds). Each figure is the best of
//! `BENCH_REPEATS` (default 3) passes, the two alternating so that both see the same
//! machine load, timed by the thread's CPU clock.

#[path = "../../engine/benches/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::Instant;

use common::{env_or, thread_cpu_seconds};
use engine::bots::{play_hand, Agent, EfficiencyBot, ReferenceEfficiencyBot};
use engine::game::Game;
use engine::rng::Rng;
use engine::Rules;
use search::{belief_eval, search, RolloutPolicy, SearchConfig};

fn main() {
    let rules = Rules::sanma();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| run(&rules));
}

/// Whole hands per CPU second of `make()` bots in every seat, over `hands` walls.
fn hands_per_s<A: Agent>(rules: &Rules, hands: u64, make: impl Fn() -> A) -> f64 {
    let start = thread_cpu_seconds();
    for i in 0..hands {
        let mut g = Game::new(*rules, Rng::derive_seed(1, i)).expect("game");
        let mut seats: Vec<A> = (0..rules.players).map(|_| make()).collect();
        play_hand(&mut g, &mut seats).expect("hand");
    }
    hands as f64 / (thread_cpu_seconds() - start)
}

/// Rollouts per CPU second of a fixed-rollout search over `positions`.
fn rollouts_per_s(positions: &[belief_eval::Recorded], cfg: &SearchConfig) -> f64 {
    let start = thread_cpu_seconds();
    let mut rollouts = 0u64;
    for p in positions {
        let legal = legal_of(p);
        let r = search(&p.obs, &legal, cfg).expect("search");
        // Every candidate plays every world: rollouts = worlds × candidates.
        rollouts += (r.worlds * r.candidates.len()) as u64;
    }
    rollouts as f64 / (thread_cpu_seconds() - start)
}

/// Best of `repeats` alternating passes of `today` and `original` (`BENCH_ONLY=today`
/// skips the original, for profiling).
fn best_of(repeats: usize, today: impl Fn() -> f64, original: impl Fn() -> f64) -> (f64, f64) {
    let only_today = std::env::var("BENCH_ONLY").is_ok_and(|s| s == "today");
    let (mut a, mut b) = (0f64, 0f64);
    for _ in 0..repeats {
        a = a.max(today());
        if !only_today {
            b = b.max(original());
        }
    }
    (a, b)
}

fn run(rules: &Rules) {
    let repeats = env_or("BENCH_REPEATS", 3).max(1);
    let mut r1 = *rules;
    r1.hands_per_game = 1;
    let hands = env_or("BENCH_HANDS", 4_000) as u64;
    let (h_today, h_orig) = best_of(
        repeats,
        || hands_per_s(&r1, hands, || EfficiencyBot),
        || hands_per_s(&r1, hands, || ReferenceEfficiencyBot),
    );
    println!(
        "efficiency-bot hands/s: today {h_today:>8.0}   original {h_orig:>8.0}   ratio {:.2}x",
        h_today / h_orig
    );
    // Rollouts: a fixed-rollout search (no time budget, no early stop, no pruning) on
    // recorded positions.
    let positions = belief_eval::record_positions(rules, 300, 7).expect("positions");
    let mut cfg = SearchConfig::new(rules).expect("config");
    cfg.budget_ms = None;
    cfg.early_stop = false;
    cfg.prune_z = None;
    cfg.rollouts = 64;
    let mut original = cfg.clone();
    original.rollout = RolloutPolicy::Custom(Arc::new(|_| {
        Box::new(ReferenceEfficiencyBot) as Box<dyn Agent>
    }));
    for (name, belief) in [
        ("uniform", search::Belief::Uniform),
        ("weighted", search::Belief::Weighted),
    ] {
        cfg.belief = belief;
        original.belief = belief;
        let (today, orig) = best_of(
            repeats,
            || rollouts_per_s(&positions, &cfg),
            || rollouts_per_s(&positions, &original),
        );
        println!(
            "rollouts/s ({name} worlds, incl. dealing and belief): today {today:>8.0}   original {orig:>8.0}   ratio {:.2}x   ({:.2} rollouts per efficiency-bot hand)",
            today / orig,
            today / h_today
        );
    }
    // Latency at the default budget (100 ms), the way `advise --search` runs it (the
    // whole budget on every candidate: no early stop, no racing).
    let mut cfg = SearchConfig::new(rules).expect("config");
    cfg.early_stop = false;
    cfg.prune_z = None;
    let budget = cfg.budget_ms.unwrap_or(0.0);
    let mut ms: Vec<f64> = positions
        .iter()
        .take(200)
        .map(|p| {
            let legal = legal_of(p);
            let t = Instant::now();
            search(&p.obs, &legal, &cfg).expect("search");
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let q = |f: f64| ms[((ms.len() - 1) as f64 * f) as usize];
    println!(
        "search latency at the default budget {budget} ms over {} positions: p50 {:.1} ms, p99 {:.1} ms (p99 / budget = {:.3})",
        ms.len(),
        q(0.5),
        q(0.99),
        q(0.99) / budget
    );
}

fn legal_of(p: &belief_eval::Recorded) -> engine::game::LegalActions {
    let mut rng = Rng::new(0);
    Game::from_observation(&p.obs, Some(&p.truth), &mut rng)
        .expect("position")
        .legal_actions(p.obs.seat)
}
