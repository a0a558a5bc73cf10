//! Hands per second per core with three random bots and with three efficiency bots.
//!
//! `cargo bench -p mahjong-engine --bench hands` (release, one thread; rates are per
//! CPU-second of the benchmark thread, so a busy machine does not skew them much). The reference
//! in the same run is the goal for each line-up (≥ 50 000 random-bot hands/s
//! and ≥ 5 000 efficiency-bot hands/s per core); the ratio printed is measured / goal.
//! The first line plays with the cheapest possible agent (first legal action) to show
//! how much of the time is the engine itself.

use std::hint::black_box;
use std::time::Instant;

use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
use engine::game::{Action, Game, LegalActions, Observation};
use engine::rng::Rng;
use engine::Rules;

struct FirstLegal;

impl Agent for FirstLegal {
    fn act(&mut self, _: &Observation, legal: &LegalActions) -> Action {
        // Prefer a discard over a pass so hands run their normal length.
        legal
            .iter()
            .find(|a| matches!(a, Action::Discard(_)))
            .or(legal.iter().next())
            .unwrap_or(Action::Pass)
    }
}

fn measure<A: Agent>(
    rules: Rules,
    seconds: f64,
    mut make: impl FnMut(u64) -> Vec<A>,
) -> (f64, u64) {
    let mut rules = rules;
    rules.hands_per_game = 1;
    let start = Instant::now();
    let mut hands = 0u64;
    let mut steps = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..64 {
            let seed = Rng::derive_seed(12345, hands);
            let mut game = Game::new(rules, seed).expect("valid rules");
            let mut agents = make(seed);
            let s = play_hand(&mut game, &mut agents).expect("bots play legal actions");
            steps += s.steps as u64;
            black_box(s);
            hands += 1;
        }
    }
    (
        hands as f64 / start.elapsed().as_secs_f64(),
        steps / hands.max(1),
    )
}

fn main() {
    let seconds: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    // BENCH_ONLY=random (or first, efficiency) runs only the matching line-ups.
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let run = |name: &str| only.is_empty() || name.contains(only.as_str());
    println!("hands per CPU-second (one thread), {seconds} s wall-clock per line");
    println!(
        "{:<12} {:<22} {:>12} {:>10} {:>8} {:>8}",
        "rules", "line-up", "hands/s", "goal", "ratio", "steps"
    );
    for (name, rules) in [
        ("sanma", Rules::sanma()),
        ("four-player", Rules::four_player()),
    ] {
        let n = rules.players as usize;
        if run("first") {
            let (first, steps) = measure(rules, seconds, |_| (0..n).map(|_| FirstLegal).collect());
            println!(
                "{name:<12} {:<22} {first:>12.0} {:>10} {:>8} {steps:>8}",
                "first-legal (engine)", "-", "-"
            );
        }
        if run("random") {
            let (random, steps) = measure(rules, seconds, |seed| {
                (0..n)
                    .map(|s| RandomBot::new(Rng::derive_seed(seed, s as u64)))
                    .collect()
            });
            println!(
                "{name:<12} {:<22} {random:>12.0} {:>10} {:>8.2} {steps:>8}",
                &format!("{n}x random"),
                50_000,
                random / 50_000.0
            );
        }
        if run("efficiency") {
            let (eff, steps) = measure(rules, seconds, |_| vec![EfficiencyBot; n]);
            println!(
                "{name:<12} {:<22} {eff:>12.0} {:>10} {:>8.2} {steps:>8}",
                &format!("{n}x efficiency"),
                5_000,
                eff / 5_000.0
            );
        }
    }
}
