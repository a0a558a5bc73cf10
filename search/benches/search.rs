//! `cargo bench -p mahjong-search --bench search`: rollout throughput beside the
//! efficiency bot's whole-hand throughput (same run, ratio printed), and the latency of
//! a search at the default budget (p50 / p99 over recorded positions, one thread).
//!
//! A rollout is one candidate played from a mid-hand decision to the end of the hand,
//! so it is shorter than a whole hand: the ratio says how many rollouts one
//! efficiency-bot hand costs.

use std::time::Instant;

use engine::bots::{play_hand, EfficiencyBot};
use engine::game::Game;
use engine::rng::Rng;
use engine::Rules;
use search::{belief_eval, search, SearchConfig};

fn main() {
    let rules = Rules::sanma();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| run(&rules));
}

fn run(rules: &Rules) {
    let mut r1 = *rules;
    r1.hands_per_game = 1;
    // Reference: whole hands of three efficiency bots.
    let start = Instant::now();
    let mut hands = 0u64;
    while start.elapsed().as_secs_f64() < 3.0 {
        let mut g = Game::new(r1, Rng::derive_seed(1, hands)).expect("game");
        play_hand(&mut g, &mut [EfficiencyBot; 3]).expect("hand");
        hands += 1;
    }
    let hands_per_s = hands as f64 / start.elapsed().as_secs_f64();
    // Rollouts: a fixed-rollout search (no time budget, no early stop) on recorded
    // positions; rollouts = worlds × candidates.
    let positions = belief_eval::record_positions(rules, 300, 7).expect("positions");
    let mut cfg = SearchConfig::new(rules).expect("config");
    cfg.budget_ms = None;
    cfg.early_stop = false;
    // Every candidate plays every world, so rollouts = worlds × candidates.
    cfg.prune_z = None;
    cfg.rollouts = 64;
    for (name, belief) in [
        ("uniform", search::Belief::Uniform),
        ("weighted", search::Belief::Weighted),
    ] {
        cfg.belief = belief;
        let start = Instant::now();
        let mut rollouts = 0u64;
        for p in &positions {
            let legal = legal_of(p);
            let r = search(&p.obs, &legal, &cfg).expect("search");
            rollouts += (r.worlds * r.candidates.len()) as u64;
        }
        let rps = rollouts as f64 / start.elapsed().as_secs_f64();
        println!(
            "rollouts/s ({name} worlds, incl. dealing and belief): {rps:>9.0}   efficiency-bot hands/s: {hands_per_s:>7.0}   ratio {:.2}",
            rps / hands_per_s
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
