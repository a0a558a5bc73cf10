//! Training throughput, the whole loop (self-play workers and the PPO learner sharing
//! the cores): `cargo bench -p host-trainer --bench train_throughput`.
//!
//! It trains with the previous defaults (those of the shipped run, `models/run`: 3
//! epochs, every one of the 34 tile tokens, one worker per core, the learner's libtorch
//! threads one per worker) and with today's `TrainConfig::default()`, alternately
//! (`BENCH_ROUNDS` rounds of `BENCH_UPDATES` updates each, the order swapped every
//! round so that a change of load on the machine hits both), and prints training
//! samples per second of each and the ratio. The first update of every run is left out
//! (start-up: spawning workers, the first parameter push, filling the channel).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use host_trainer::train::{train, Tokens, TrainConfig};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Samples per second over updates 2.. of the run in `dir` (from its metrics.jsonl).
fn samples_per_s(dir: &Path) -> (u64, f64) {
    let text = std::fs::read_to_string(dir.join("metrics.jsonl")).expect("metrics.jsonl");
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a metrics row"))
        .collect();
    assert!(rows.len() >= 2, "need at least 2 updates");
    let first = &rows[0];
    let last = &rows[rows.len() - 1];
    let samples = last["samples"].as_u64().unwrap() - first["samples"].as_u64().unwrap();
    let seconds = last["elapsed_s"].as_f64().unwrap() - first["elapsed_s"].as_f64().unwrap();
    (samples, seconds)
}

fn main() {
    let updates = env_or("BENCH_UPDATES", 10).max(2);
    let rounds = env_or("BENCH_ROUNDS", 2).max(1);
    let cores = host_trainer::train::run::cores();
    let runs = std::env::temp_dir().join(format!("mj-train-bench-{}", std::process::id()));
    let base = TrainConfig {
        runs: runs.clone(),
        max_updates: updates,
        eval_every: 0,
        checkpoint_every: 1_000_000,
        quiet: true,
        ..TrainConfig::default()
    };
    let previous = TrainConfig {
        epochs: 3,
        tokens: Tokens::All,
        workers: cores,
        learner_threads: cores,
        steps_per_update: 2048,
        minibatch: 256,
        ..base.clone()
    };
    let current = base;
    println!("train throughput on {cores} cores, {rounds} rounds x {updates} updates per setting");
    println!(
        "  previous: epochs {}, tokens {:?}, workers {}, learner threads {}, steps/update {}, minibatch {}",
        previous.epochs,
        previous.tokens,
        previous.workers,
        previous.learner_threads,
        previous.steps_per_update,
        previous.minibatch
    );
    println!(
        "  current:  epochs {}, tokens {:?}, workers {} (0 = half the cores), learner threads {} (0 = every core), steps/update {}, minibatch {}",
        current.epochs,
        current.tokens,
        current.workers,
        current.learner_threads,
        current.steps_per_update,
        current.minibatch
    );
    let mut totals = [(0u64, 0f64); 2];
    for round in 0..rounds {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for which in order {
            let name = ["previous", "current"][which];
            let cfg = TrainConfig {
                id: Some(format!("{name}-{round}")),
                ..[&previous, &current][which].clone()
            };
            let outcome = train(cfg, &AtomicBool::new(false)).expect("training run");
            let (samples, seconds) = samples_per_s(&outcome.run_dir);
            println!(
                "  round {round} {name:>8}: {samples} samples in {seconds:.1} s = {:.0} samples/s",
                samples as f64 / seconds
            );
            totals[which].0 += samples;
            totals[which].1 += seconds;
        }
    }
    let rate = |i: usize| totals[i].0 as f64 / totals[i].1;
    println!(
        "previous defaults: {:.0} samples/s; current defaults: {:.0} samples/s; ratio current/previous {:.2}",
        rate(0),
        rate(1),
        rate(1) / rate(0)
    );
    let _ = std::fs::remove_dir_all(&runs);
}
