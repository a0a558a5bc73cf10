//! `host-trainer worker --broker URL`: self-play for a learner on another machine
//! (`train --broker URL`), through NATS JetStream.
//!
//! The worker reads the run's settings from the broker's bucket (refusing another
//! protocol version), plays with the learner's latest parameters in `--threads`
//! self-play threads (the same loop as the learner's own workers), and publishes
//! their trajectory batches, compressed and de-duplicated (`broker::pipeline`). When
//! the learner starts a new epoch (it was restarted or resumed) the worker starts
//! over with the new settings; when the learner sets the stop flag, or after
//! `--max-minutes`, it ends. A dead server is waited for (up to `--patience`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use broker::pipeline::{Board, Publisher};
use engine::rng::Rng;
use host_trainer::train::config::TrainConfig;
use host_trainer::train::opponents::OpponentMix;
use host_trainer::train::remote::capacity;
use host_trainer::train::run::model_config;
use host_trainer::train::selfplay::{run_worker, WorkerLinks};
use host_trainer::train::workers::worker_setup;

/// Arguments of `host-trainer worker`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The NATS JetStream server the learner uses (`nats://HOST:PORT`).
    #[arg(long)]
    pub broker: String,
    /// Self-play threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// This worker's name (letters, digits, `-`, `_`): part of its batches' ids and of
    /// its seeds, so it must differ between workers (default: host name and process
    /// id).
    #[arg(long)]
    pub name: Option<String>,
    /// End after this many minutes (0: when the learner says stop).
    #[arg(long, default_value_t = 0.0)]
    pub max_minutes: f64,
    /// Seconds to wait for a server that does not answer, or for a run to appear.
    #[arg(long, default_value_t = 120.0)]
    pub patience: f64,
}

/// FNV-1a of the worker's name: mixed into its seeds.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn default_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".into());
    let clean: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{clean}-{}", std::process::id())
}

/// Why one epoch's play ended.
enum Ended {
    Stop,
    NewEpoch,
    TimeUp,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let positive = args.patience.is_finite() && args.patience > 0.0;
    let minutes_ok = args.max_minutes.is_finite() && args.max_minutes >= 0.0;
    if args.threads == 0 || !positive || !minutes_ok {
        bail!("--threads and --patience must be positive, --max-minutes not negative");
    }
    let name = args.name.clone().unwrap_or_else(default_name);
    let deadline = (args.max_minutes > 0.0)
        .then(|| Instant::now() + Duration::from_secs_f64(args.max_minutes * 60.0));
    let patience = Duration::from_secs_f64(args.patience);
    let mut board = Board::new(&args.broker);
    board.patience = patience;
    loop {
        let settings = wait_for_run(&mut board, patience)?;
        match play_epoch(&args, &name, &settings, &mut board, deadline)? {
            Ended::Stop => {
                eprintln!("worker {name}: the learner said stop");
                return Ok(());
            }
            Ended::TimeUp => return Ok(()),
            Ended::NewEpoch => eprintln!("worker {name}: the learner started a new epoch"),
        }
    }
}

/// The run's settings once a learner has written them (and not said stop).
fn wait_for_run(board: &mut Board, patience: Duration) -> Result<serde_json::Value> {
    let give_up = Instant::now() + patience;
    loop {
        if let Some(v) = board.config().context("reading the run's settings")? {
            if !board.stop()? {
                return Ok(v);
            }
        }
        if Instant::now() >= give_up {
            bail!("no running learner on the broker within {patience:?}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn play_epoch(
    args: &Args,
    name: &str,
    settings: &serde_json::Value,
    board: &mut Board,
    deadline: Option<Instant>,
) -> Result<Ended> {
    let epoch = settings["epoch"]
        .as_u64()
        .ok_or_else(|| anyhow!("the run's settings have no epoch"))?;
    let resumes = settings["resumes"].as_u64().unwrap_or(0);
    let cfg: TrainConfig =
        serde_json::from_value(settings["train"].clone()).context("the run's training settings")?;
    let rules = engine::Rules::preset(&cfg.rules)
        .ok_or_else(|| anyhow!("unknown rules preset {:?}", cfg.rules))?;
    let model = model_config(&cfg);
    model.validate()?;
    let opponents = OpponentMix::parse(&cfg.opponents)?;
    let stop = Arc::new(AtomicBool::new(false));
    let pause = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    let mut params = Vec::new();
    let mut threads = Vec::new();
    for t in 0..args.threads {
        let (ptx, prx) = mpsc::channel();
        params.push(ptx);
        // Seeds differ across machines (the name) and sessions (the resumes).
        let seed = Rng::derive_seed(
            cfg.seed ^ name_hash(name),
            2_000_000 + t as u64 + 1_000 * resumes,
        );
        let setup = worker_setup(&cfg, rules, model, opponents, t as u32, seed);
        let links = WorkerLinks {
            params: prx,
            out: tx.clone(),
            stop: stop.clone(),
            pause: pause.clone(),
        };
        threads.push(std::thread::spawn(move || run_worker(setup, links)));
    }
    drop(tx);
    let mut publisher = Publisher::new(&args.broker, name, epoch, capacity(&cfg))?;
    publisher.patience = board.patience;
    let cancel = publisher.cancel.clone();
    let sender = std::thread::spawn(move || -> Result<u64> {
        let mut sent = 0u64;
        while let Ok(batch) = rx.recv() {
            publisher
                .publish(&batch)
                .context("publishing a trajectory batch")?;
            sent += 1;
        }
        Ok(sent)
    });
    let mut revision = 0u64;
    let mut checked = Instant::now() - Duration::from_secs(1);
    let ended = loop {
        if sender.is_finished() || threads.iter().all(|t| t.is_finished()) {
            break None;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break Some(Ended::TimeUp);
        }
        if checked.elapsed() >= Duration::from_millis(200) {
            checked = Instant::now();
            if board.stop()? {
                break Some(Ended::Stop);
            }
            let now = board.config()?.and_then(|v| v["epoch"].as_u64());
            if now != Some(epoch) {
                break Some(Ended::NewEpoch);
            }
            if let Some((rev, _version, bytes)) = board.params()? {
                if rev != revision {
                    revision = rev;
                    let bytes = Arc::new(bytes);
                    for p in &params {
                        let _ = p.send(bytes.clone());
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    stop.store(true, Ordering::Relaxed);
    // Batches still queued when the learner stopped have nowhere to go.
    let stopping = matches!(ended, Some(Ended::Stop | Ended::NewEpoch | Ended::TimeUp));
    cancel.store(stopping, Ordering::Relaxed);
    drop(params);
    let mut first_error = None;
    for t in threads {
        match t.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => first_error = first_error.or(Some(e)),
            Err(_) => first_error = first_error.or(Some(anyhow!("a self-play thread panicked"))),
        }
    }
    match sender.join() {
        Ok(Ok(sent)) => eprintln!("worker {name}: {sent} batches published in epoch {epoch:x}"),
        Ok(Err(_)) if stopping => {}
        Ok(Err(e)) => first_error = first_error.or(Some(e)),
        Err(_) => first_error = first_error.or(Some(anyhow!("the publisher panicked"))),
    }
    match (ended, first_error) {
        (_, Some(e)) => Err(e.context(format!("worker {name}"))),
        (Some(end), None) => Ok(end),
        (None, None) => bail!("worker {name}: self-play ended unexpectedly"),
    }
}
