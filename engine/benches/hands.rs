//! Hands per second per core with three random bots and with three efficiency bots.
//!
//! `cargo bench -p mahjong-engine --bench hands` (release, one thread; rates are per
//! CPU-second of the benchmark thread, so a busy machine does not skew them much). The reference
//! in the same run is the goal for each line-up (≥ 50 000 random-bot hands/s
//! and ≥ 5 000 efficiency-bot hands/s per core); the ratio printed is measured / goal.
//! The first line plays with the cheapest possible agent (first legal action) to show
//! how much of the time is the engine itself.
//!
//! Environment: `BENCH_SECONDS` (wall-clock seconds per line, default 3), `BENCH_ONLY`
//! (`first`, `random` or `efficiency`), `BENCH_HANDS=N` (exactly N hands per line: fixed
//! work, so instruction counts under `valgrind --tool=callgrind` compare one to one
//! between builds) and `BENCH_HASH=1` (with `BENCH_HANDS`: print a hash of every hand's
//! summary and final state, to check that an optimisation changed no behaviour).

mod common;

use std::hint::black_box;

use common::thread_cpu_seconds;
use std::time::Instant;

use engine::bots::{play_hand, Agent, EfficiencyBot, HandSummary, RandomBot};
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

/// What one line-up measured.
struct Measured {
    /// Hands per CPU-second of this thread.
    rate: f64,
    /// Mean actions per hand.
    steps: u64,
    /// Hands played.
    hands: u64,
    /// FNV-1a hash over every hand's summary and final state (determinism check).
    hash: u64,
}

fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= b as u64;
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Hashes a hand's summary and the final state as seen through the public API.
fn hash_hand(hash: &mut u64, s: &HandSummary, g: &Game) {
    let mut text = format!("{s:?}{:?}{:?}", g.scores(), g.actions());
    for seat in 0..g.rules().players {
        text += &format!(
            "{:?}{:?}{:?}",
            g.hand(seat),
            g.melds(seat),
            g.discards(seat)
        );
    }
    text += &format!(
        "{:?}{:?}{:?}{:?}",
        g.phase(),
        g.drawn(),
        g.live_wall_remaining(),
        g.last_result()
    );
    fnv(hash, text.as_bytes());
}

/// Plays hands until `seconds` of wall-clock time passed or, with `fixed`, exactly
/// `fixed` hands.
fn measure<A: Agent>(
    rules: Rules,
    seconds: f64,
    fixed: Option<u64>,
    hashing: bool,
    mut make: impl FnMut(u64) -> Vec<A>,
) -> Measured {
    let mut rules = rules;
    rules.hands_per_game = 1;
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut hands = 0u64;
    let mut steps = 0u64;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let done = |hands: u64| match fixed {
        Some(n) => hands >= n,
        None => start.elapsed().as_secs_f64() >= seconds,
    };
    while !done(hands) {
        let batch = fixed.map_or(64, |n| (n - hands).min(64));
        for _ in 0..batch {
            let seed = Rng::derive_seed(12345, hands);
            let mut game = Game::new(rules, seed).expect("valid rules");
            let mut agents = make(seed);
            let s = play_hand(&mut game, &mut agents).expect("bots play legal actions");
            steps += s.steps as u64;
            if hashing {
                hash_hand(&mut hash, &s, &game);
            }
            black_box(s);
            hands += 1;
        }
    }
    let cpu = thread_cpu_seconds() - cpu_start;
    Measured {
        rate: hands as f64 / cpu.max(1e-9),
        steps: steps / hands.max(1),
        hands,
        hash,
    }
}

fn main() {
    let seconds: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    // BENCH_HANDS=N plays exactly N hands per line instead (fixed work, for instruction
    // counts under callgrind); BENCH_HASH=1 also prints a hash of all hand summaries and
    // final states, to check that an optimisation changed no behaviour.
    let fixed: Option<u64> = std::env::var("BENCH_HANDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let hashing = std::env::var("BENCH_HASH").is_ok_and(|s| s == "1");
    // BENCH_ONLY=random (or first, efficiency) runs only the matching line-ups.
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let run = |name: &str| only.is_empty() || name.contains(only.as_str());
    match fixed {
        Some(n) => println!("hands per CPU-second (one thread), {n} hands per line"),
        None => println!("hands per CPU-second (one thread), {seconds} s wall-clock per line"),
    }
    println!(
        "{:<12} {:<22} {:>12} {:>10} {:>8} {:>8}{}",
        "rules",
        "line-up",
        "hands/s",
        "goal",
        "ratio",
        "steps",
        if hashing { "  hash" } else { "" }
    );
    let print = |name: &str, lineup: &str, m: &Measured, goal: Option<f64>| {
        let (goal, ratio) = match goal {
            Some(g) => (format!("{g:.0}"), format!("{:.2}", m.rate / g)),
            None => ("-".into(), "-".into()),
        };
        let hash = if hashing {
            format!("  {:016x} ({} hands)", m.hash, m.hands)
        } else {
            String::new()
        };
        println!(
            "{name:<12} {lineup:<22} {:>12.0} {goal:>10} {ratio:>8} {:>8}{hash}",
            m.rate, m.steps
        );
    };
    for (name, rules) in [
        ("sanma", Rules::sanma()),
        ("four-player", Rules::four_player()),
        ("tenhou-sanma", Rules::tenhou_sanma()),
        ("tenhou-4p", Rules::tenhou_4p()),
    ] {
        let n = rules.players as usize;
        if run("first") {
            let m = measure(rules, seconds, fixed, hashing, |_| {
                (0..n).map(|_| FirstLegal).collect()
            });
            print(name, "first-legal (engine)", &m, None);
        }
        if run("random") {
            let m = measure(rules, seconds, fixed, hashing, |seed| {
                (0..n)
                    .map(|s| RandomBot::new(Rng::derive_seed(seed, s as u64)))
                    .collect()
            });
            print(name, &format!("{n}x random"), &m, Some(50_000.0));
        }
        if run("efficiency") {
            let m = measure(rules, seconds, fixed, hashing, |_| vec![EfficiencyBot; n]);
            print(name, &format!("{n}x efficiency"), &m, Some(5_000.0));
        }
    }
}
