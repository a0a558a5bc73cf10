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
//!
//! For measurements: `--record DIR` saves the batches it plays with their rate,
//! `--emulate DIR` replays such a recording instead of playing (see
//! `worker_replay`), `--published-log` appends the id of every batch the server has
//! stored, and `--stats` writes what the worker sent and fetched, with how long each
//! parameter snapshot took to reach it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use broker::pipeline::{Board, Publisher};
use engine::rng::Rng;
use host_trainer::train::config::{BrokerAuth, TrainConfig};
use host_trainer::train::opponents::OpponentMix;
use host_trainer::train::remote::{capacity, endpoint};
use host_trainer::train::run::model_config;
use host_trainer::train::selfplay::TrajectoryBatch;
use host_trainer::train::workers::{spawn_selfplay, worker_setup};

use crate::worker_replay::{emulate, samples_in, Recorder, Recording, NO_VERSION};

/// Arguments of `host-trainer worker`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The NATS JetStream server the learner uses (`nats://HOST:PORT`,
    /// `tls://HOST:PORT`, or several separated by commas for failover).
    #[arg(long)]
    pub broker: String,
    /// How to log in to the broker and trust its certificate (`--broker-*`; secrets
    /// from `NATS_TOKEN`, `NATS_USER`, `NATS_PASSWORD`).
    #[command(flatten)]
    pub broker_auth: BrokerAuth,
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
    /// Save every batch played, and the rate they were played at, in this folder (a
    /// recording for `--emulate`; replaced at each new epoch).
    #[arg(long, conflicts_with = "emulate")]
    pub record: Option<PathBuf>,
    /// Play nothing: replay the recording in this folder at `--emulate-rate` (scaling
    /// measurements with more workers than cores).
    #[arg(long)]
    pub emulate: Option<PathBuf>,
    /// `--emulate`: samples (decisions) per second (default: the recording's rate per
    /// thread times `--threads`).
    #[arg(long, requires = "emulate")]
    pub emulate_rate: Option<f64>,
    /// Append the id of every batch the server has stored to this file, one per line.
    #[arg(long)]
    pub published_log: Option<PathBuf>,
    /// Write this worker's counters as JSON to this file at the end of each epoch
    /// (batches, samples and bytes sent; parameter fetches with their bytes, fetch
    /// times and delay since the learner wrote them).
    #[arg(long)]
    pub stats: Option<PathBuf>,
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
    if args
        .emulate_rate
        .is_some_and(|r| !(r.is_finite() && r > 0.0))
    {
        bail!("--emulate-rate must be positive");
    }
    let recording = match &args.emulate {
        Some(dir) => {
            Some(Arc::new(Recording::load(dir).with_context(|| {
                format!("the recording in {}", dir.display())
            })?))
        }
        None => None,
    };
    let name = args.name.clone().unwrap_or_else(default_name);
    let deadline = (args.max_minutes > 0.0)
        .then(|| Instant::now() + Duration::from_secs_f64(args.max_minutes * 60.0));
    let patience = Duration::from_secs_f64(args.patience);
    let mut board = Board::new(endpoint(&args.broker, &args.broker_auth)?);
    board.patience = patience;
    loop {
        let settings = wait_for_run(&mut board, patience)?;
        match play_epoch(&args, &name, &settings, &mut board, deadline, &recording)? {
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

/// What the sending thread did in one epoch.
#[derive(Default)]
struct Sent {
    batches: u64,
    samples: u64,
    bytes: u64,
    waited_full: u64,
    /// Recorded samples per second per thread (`--record`).
    recorded_rate: Option<f64>,
}

/// Parameter fetches in one epoch.
#[derive(Default)]
struct Fetches {
    count: u64,
    bytes: u64,
    /// Milliseconds from the learner writing the parameters to this worker holding
    /// them (by the two machines' clocks), for every snapshot but the epoch's first.
    delay_ms: Vec<f64>,
    /// Milliseconds the download itself took.
    fetch_ms: Vec<f64>,
}

/// The self-play threads (or the emulator) of one epoch, and their links.
struct Players {
    threads: Vec<std::thread::JoinHandle<Result<()>>>,
    params: Vec<mpsc::Sender<Arc<Vec<u8>>>>,
    version: Arc<AtomicU64>,
}

fn start_players(
    args: &Args,
    name: &str,
    cfg: &TrainConfig,
    resumes: u64,
    recording: &Option<Arc<Recording>>,
    tx: mpsc::SyncSender<Vec<u8>>,
    stop: &Arc<AtomicBool>,
) -> Result<Players> {
    let version = Arc::new(AtomicU64::new(NO_VERSION));
    if let Some(rec) = recording {
        rec.check_fits(cfg)?;
        let rate = args
            .emulate_rate
            .unwrap_or(rec.samples_per_s_per_thread * args.threads as f64);
        let (rec, v, stop) = (rec.clone(), version.clone(), stop.clone());
        let thread = std::thread::spawn(move || emulate(&rec, rate, &v, &tx, &stop));
        return Ok(Players {
            threads: vec![thread],
            params: Vec::new(),
            version,
        });
    }
    let rules = engine::Rules::preset(&cfg.rules)
        .ok_or_else(|| anyhow!("unknown rules preset {:?}", cfg.rules))?;
    let model = model_config(cfg);
    model.validate()?;
    let opponents = OpponentMix::parse(&cfg.opponents)?;
    let pause = Arc::new(AtomicBool::new(false));
    let mut players = Players {
        threads: Vec::new(),
        params: Vec::new(),
        version,
    };
    for t in 0..args.threads {
        // Seeds differ across machines (the name) and sessions (the resumes).
        let seed = Rng::derive_seed(
            cfg.seed ^ name_hash(name),
            2_000_000 + t as u64 + 1_000 * resumes,
        );
        let setup = worker_setup(cfg, rules, model, opponents, t as u32, seed);
        let (ptx, thread) = spawn_selfplay(
            format!("player-{t}"),
            setup,
            tx.clone(),
            stop,
            &pause,
            |_| {},
        )?;
        players.params.push(ptx);
        players.threads.push(thread);
    }
    Ok(players)
}

/// The thread that publishes the players' batches (recording and logging them when
/// asked).
fn start_sender(
    args: &Args,
    settings: &serde_json::Value,
    mut publisher: Publisher,
    rx: mpsc::Receiver<Vec<u8>>,
) -> Result<std::thread::JoinHandle<(Sent, Result<()>)>> {
    let mut recorder = match &args.record {
        Some(dir) => Some(Recorder::create(dir, settings, args.threads)?),
        None => None,
    };
    let mut log = match &args.published_log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?,
        ),
        None => None,
    };
    let count = recorder.is_some() || args.stats.is_some();
    Ok(std::thread::spawn(move || {
        let mut sent = Sent::default();
        // The counts survive an error (a publish cancelled at the stop).
        let mut send_all = || -> Result<()> {
            while let Ok(batch) = rx.recv() {
                let samples = if count {
                    samples_in(&TrajectoryBatch::from_bytes(&batch)?)
                } else {
                    0
                };
                let id = publisher
                    .publish(&batch)
                    .context("publishing a trajectory batch")?;
                if let Some(f) = log.as_mut() {
                    writeln!(f, "{id}").context("writing the published log")?;
                }
                if let Some(r) = recorder.as_mut() {
                    r.add(&batch, samples)?;
                }
                sent.batches += 1;
                sent.samples += samples;
            }
            Ok(())
        };
        let mut result = send_all();
        sent.bytes = publisher.bytes_sent;
        sent.waited_full = publisher.waited_full;
        if let Some(r) = recorder {
            match r.finish() {
                Ok(rate) => sent.recorded_rate = Some(rate),
                Err(e) => result = result.and(Err(e)),
            }
        }
        (sent, result)
    }))
}

/// Fetches the learner's parameters if they are newer than `held` and hands them to
/// the players.
fn follow_params(
    board: &mut Board,
    held: &mut u64,
    players: &Players,
    fetches: &mut Fetches,
) -> Result<()> {
    let Some(stamp) = board.params_stamp()? else {
        return Ok(());
    };
    if stamp.version == *held {
        return Ok(());
    }
    let t = Instant::now();
    let Some((_rev, version, bytes)) = board.params()? else {
        return Ok(());
    };
    fetches.fetch_ms.push(t.elapsed().as_secs_f64() * 1e3);
    // The first snapshot of an epoch was written before this worker joined (or
    // started up): its age measures the join, not the fan-out.
    if *held != NO_VERSION {
        let now = broker::pipeline::unix_nanos();
        fetches
            .delay_ms
            .push(now.saturating_sub(stamp.written_unix_ns) as f64 / 1e6);
    }
    fetches.count += 1;
    fetches.bytes += bytes.len() as u64;
    *held = version;
    players.version.store(version, Ordering::Relaxed);
    let bytes = Arc::new(bytes);
    for p in &players.params {
        let _ = p.send(bytes.clone());
    }
    Ok(())
}

fn play_epoch(
    args: &Args,
    name: &str,
    settings: &serde_json::Value,
    board: &mut Board,
    deadline: Option<Instant>,
    recording: &Option<Arc<Recording>>,
) -> Result<Ended> {
    let started = Instant::now();
    let epoch = settings["epoch"]
        .as_u64()
        .ok_or_else(|| anyhow!("the run's settings have no epoch"))?;
    let resumes = settings["resumes"].as_u64().unwrap_or(0);
    let cfg: TrainConfig =
        serde_json::from_value(settings["train"].clone()).context("the run's training settings")?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    let ep = endpoint(&args.broker, &args.broker_auth)?;
    let players = start_players(args, name, &cfg, resumes, recording, tx, &stop)?;
    let mut publisher = Publisher::new(ep, name, epoch, capacity(&cfg))?;
    publisher.patience = board.patience;
    let cancel = publisher.cancel.clone();
    let sender = start_sender(args, settings, publisher, rx)?;
    let mut held = NO_VERSION;
    let mut fetches = Fetches::default();
    let mut checked = Instant::now() - Duration::from_secs(1);
    let ended = loop {
        if sender.is_finished() || players.threads.iter().all(|t| t.is_finished()) {
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
            follow_params(board, &mut held, &players, &mut fetches)?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    stop.store(true, Ordering::Relaxed);
    // Batches still queued when the learner stopped have nowhere to go.
    let stopping = matches!(ended, Some(Ended::Stop | Ended::NewEpoch | Ended::TimeUp));
    cancel.store(stopping, Ordering::Relaxed);
    let Players {
        threads, params, ..
    } = players;
    drop(params);
    let mut first_error = None;
    for t in threads {
        match t.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => first_error = first_error.or(Some(e)),
            Err(_) => first_error = first_error.or(Some(anyhow!("a self-play thread panicked"))),
        }
    }
    let sent = match sender.join() {
        Ok((sent, result)) => {
            eprintln!(
                "worker {name}: {} batches published in epoch {epoch:x}",
                sent.batches
            );
            match result {
                Err(e) if !stopping => first_error = first_error.or(Some(e)),
                _ => {}
            }
            Some(sent)
        }
        Err(_) => {
            first_error = first_error.or(Some(anyhow!("the publisher panicked")));
            None
        }
    };
    if let Some(path) = &args.stats {
        write_stats(path, name, epoch, started, sent.as_ref(), &fetches, args)?;
    }
    match (ended, first_error) {
        (_, Some(e)) => Err(e.context(format!("worker {name}"))),
        (Some(end), None) => Ok(end),
        (None, None) => bail!("worker {name}: self-play ended unexpectedly"),
    }
}

/// Mean, median, 95th percentile and largest of `xs` (all 0 when empty).
fn summary(xs: &[f64]) -> serde_json::Value {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| {
        v.get(((v.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let mean = if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    };
    serde_json::json!({"n": v.len(), "mean": mean, "p50": at(0.5), "p95": at(0.95), "max": at(1.0)})
}

fn write_stats(
    path: &std::path::Path,
    name: &str,
    epoch: u64,
    started: Instant,
    sent: Option<&Sent>,
    fetches: &Fetches,
    args: &Args,
) -> Result<()> {
    let stats = serde_json::json!({
        "name": name,
        "epoch": epoch,
        "mode": if args.emulate.is_some() { "emulate" } else { "selfplay" },
        "threads": args.threads,
        "seconds": started.elapsed().as_secs_f64(),
        "batches": sent.map(|s| s.batches),
        "samples": sent.map(|s| s.samples),
        "bytes_sent": sent.map(|s| s.bytes),
        "waited_full": sent.map(|s| s.waited_full),
        "recorded_samples_per_s_per_thread": sent.and_then(|s| s.recorded_rate),
        "params_fetches": fetches.count,
        "params_bytes": fetches.bytes,
        "params_delay_ms": summary(&fetches.delay_ms),
        "params_fetch_ms": summary(&fetches.fetch_ms),
    });
    std::fs::write(path, serde_json::to_vec_pretty(&stats)?)
        .with_context(|| format!("writing {}", path.display()))
}
