//! Self-play throughput alone (no learner competing for the cores), default model:
//! `cargo bench -p host-trainer --bench selfplay`.
//!
//! The reference in the same run is the efficiency bot playing the same number of
//! sanma hands on the same threads through the arena; the ratio printed is policy
//! self-play hands/s ÷ efficiency-bot hands/s (the network's forward passes and the
//! observation encoding, value-score matrix included, are what the difference costs).

use engine::encode::Encoding;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena::{self, ArenaConfig, BotSpec};
use engine::Rules;
use host_trainer::train::model::{OwnedNet, ParamSnapshot};
use host_trainer::train::selfplay::{run_worker, TrajectoryBatch, WorkerLinks, WorkerSetup};
use host_trainer::train::TrainConfig;
use tch::Device;

fn main() {
    let seconds: u64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let cfg = TrainConfig::default();
    let model = host_trainer::train::run::model_config(&cfg);
    tch::manual_seed(0);
    let net = OwnedNet::new(model, Encoding::V1, Device::Cpu).unwrap();
    let snap = Arc::new(
        ParamSnapshot::take(&net.vs, model, Encoding::V1, 0)
            .unwrap()
            .to_bytes()
            .unwrap(),
    );
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let stop = Arc::new(AtomicBool::new(false));
    let pause = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::sync_channel(64);
    let mut handles = Vec::new();
    let mut ptxs = Vec::new();
    for w in 0..workers {
        let (ptx, prx) = std::sync::mpsc::channel();
        ptx.send(snap.clone()).unwrap();
        ptxs.push(ptx);
        let setup = WorkerSetup {
            id: w as u32,
            rules: Rules::sanma(),
            whole_games: false,
            placement: [0.0; 4],
            model,
            tables: cfg.tables,
            seed: w as u64,
            auto_win: true,
            send_every: cfg.send_every,
            reward_scale: 4.0,
            win_bonus: 0.0,
            opponents: host_trainer::train::opponents::OpponentMix::SELF_ONLY,
            past_lag: 20,
            record_teacher: None,
            search: None,
            record_hidden: false,
        };
        let links = WorkerLinks {
            params: prx,
            out: tx.clone(),
            stop: stop.clone(),
            pause: pause.clone(),
        };
        handles.push(std::thread::spawn(move || run_worker(setup, links)));
    }
    drop(tx);
    // Warm up, then count.
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_secs(3) {
        let _ = rx.recv_timeout(Duration::from_millis(100));
    }
    let (mut samples, mut hands) = (0usize, 0u64);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(seconds) {
        if let Ok(b) = rx.recv_timeout(Duration::from_millis(100)) {
            let b = TrajectoryBatch::from_bytes(&b).unwrap();
            hands += b.hands as u64;
            samples += b.trajectories.iter().map(|t| t.steps.len()).sum::<usize>();
        }
    }
    let s = t.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    drop(rx);
    for h in handles {
        h.join().unwrap().unwrap();
    }
    let policy_hands = hands as f64 / s;
    println!(
        "self-play: {workers} workers x {} tables: {:.0} samples/s, {:.1} hands/s",
        cfg.tables,
        samples as f64 / s,
        policy_hands
    );
    // Reference: three efficiency bots, same rules, same thread count.
    let reference = ArenaConfig {
        rules: Rules::sanma(),
        seats: vec![BotSpec::Efficiency; 3],
        hands: 30_000,
        seed: 1,
        duplicate: false,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .expect("thread pool");
    let report = pool
        .install(|| arena::run(&reference, &|| {}, &AtomicBool::new(false)))
        .expect("arena");
    println!(
        "reference: 3x efficiency bot, {workers} threads: {:.0} hands/s; policy/reference ratio {:.4}",
        report.hands_per_s,
        policy_hands / report.hands_per_s
    );
}
