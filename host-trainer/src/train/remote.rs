//! `train --broker`: the learner's side of remote self-play through NATS JetStream
//! (crate `broker`, module `pipeline`).
//!
//! The broker sits behind the message boundary the local workers already have:
//! trajectory batches (postcard bytes) go into the same bounded sample channel, and
//! every parameter push is also written to the run's bucket. At start the learner
//! writes the run's settings there (the whole [`TrainConfig`], its git revision, the
//! protocol version and a fresh random *epoch*), so a `host-trainer worker` on any
//! machine plays exactly this run; batches of an earlier epoch (a worker still on the
//! settings of a learner that died, before this one `--resume`d) are dropped.
//!
//! A batch is acked only once it is in the sample channel, and the consumer drops
//! redeliveries of batches it took, so none is counted twice; one delivered but not
//! taken when the learner dies is delivered again to the next learner of the run
//! (and dropped there if its epoch is old).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use broker::pipeline::{self, Board, Capacity, Consumer};

use super::config::{BrokerAuth, TrainConfig};

/// Where the broker is and how to log in: `url` (one or several, comma-separated),
/// the `--broker-*` files, and the secrets the environment holds (`NATS_TOKEN`, or
/// `NATS_USER` with `NATS_PASSWORD`), which no process listing shows.
pub fn endpoint(url: &str, auth: &BrokerAuth) -> Result<broker::Endpoint> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let token = match &auth.broker_token_file {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("reading the broker token file {}", p.display()))?
                .trim()
                .to_string(),
        ),
        None => env("NATS_TOKEN"),
    };
    Ok(broker::Endpoint {
        urls: url.to_string(),
        creds_file: auth.broker_creds.clone(),
        nkey_file: auth.broker_nkey.clone(),
        user: env("NATS_USER"),
        password: env("NATS_PASSWORD"),
        token,
        ca_file: auth.broker_ca.clone(),
    })
}

/// The run folder's log of the batches taken from the broker (`id stream-seq
/// deliveries` per line).
pub const TAKEN_LOG: &str = "broker-taken.log";
/// The run folder's log of the batches the learner dropped (`id reason` per line;
/// reasons `stale`: another epoch's, `corrupt`, `repeated`: taken before).
pub const DROPPED_LOG: &str = "broker-dropped.log";

/// The stream's limits for a run: as many batches as the sample channel holds, four
/// times over; batches and parameter snapshots well below the server's payload limit.
pub fn capacity(cfg: &TrainConfig) -> Capacity {
    Capacity {
        max_batches: (cfg.replay_capacity.max(1) * 4) as i64,
        max_batch_bytes: 8 * 1024 * 1024,
        max_params_bytes: 12 * 1024 * 1024,
    }
}

/// The settings a remote worker reads.
pub fn run_settings(cfg: &TrainConfig, epoch: u64, resumes: u64) -> serde_json::Value {
    serde_json::json!({
        "protocol": pipeline::PROTOCOL_VERSION,
        "epoch": epoch,
        "resumes": resumes,
        "git_revision": crate::git_revision(),
        "train": cfg,
    })
}

/// The learner's connection to the broker.
pub struct Remote {
    board: Mutex<Board>,
}

impl Remote {
    /// Sets up the broker's objects, publishes the run's settings under a new epoch,
    /// and starts the thread that moves remote batches into `samples` (its handle
    /// joins `handles`, so the learner notices when it ends).
    pub fn start(
        url: &str,
        cfg: &TrainConfig,
        resumes: u64,
        samples: SyncSender<Vec<u8>>,
        stop: Arc<AtomicBool>,
        failures: Arc<Mutex<Vec<String>>>,
        handles: &mut Vec<JoinHandle<Result<()>>>,
    ) -> Result<Remote> {
        let cap = capacity(cfg);
        let ep = endpoint(url, &cfg.broker_auth)?;
        let mut js = broker::JetStream::connect(&ep, Duration::from_secs(10))
            .with_context(|| format!("connecting to the broker {url}"))?;
        let need = cap.max_params_bytes + 1024;
        if js.client().max_payload() < need {
            return Err(anyhow!(
                "the broker at {url} accepts messages of at most {} bytes; start it with \
                 max_payload of at least {need} (see README, \"Training on several machines\")",
                js.client().max_payload()
            ));
        }
        pipeline::setup(&mut js, cap)
            .context("creating the trajectory stream and the run's bucket")?;
        let epoch = broker::client::random_u64() >> 1;
        let mut board = Board::new(&ep);
        board.put_config(&run_settings(cfg, epoch, resumes))?;
        board.set_stop(false)?;
        let mut consumer = Consumer::new(&ep, epoch, cap);
        // Every batch taken, by id, appended to the run folder's `broker-taken.log`
        // (the fault tests check that no id is taken twice across learner sessions).
        let open = |name: &str| -> Result<Option<std::fs::File>> {
            match &cfg.run_dir {
                Some(dir) => Ok(Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(dir.join(name))
                        .with_context(|| format!("opening the run's {name}"))?,
                )),
                None => Ok(None),
            }
        };
        let logs = Logs {
            taken: open(TAKEN_LOG)?,
            dropped: open(DROPPED_LOG)?,
        };
        let handle = std::thread::Builder::new()
            .name("broker-in".into())
            .spawn(move || {
                let result = bridge(&mut consumer, &samples, &stop, logs);
                if let Err(e) = &result {
                    if let Ok(mut f) = failures.lock() {
                        f.push(format!("broker: {e:#}"));
                    }
                }
                result
            })
            .context("spawning the broker thread")?;
        handles.push(handle);
        Ok(Remote {
            board: Mutex::new(board),
        })
    }

    /// Writes parameters `version` for the remote workers.
    pub fn push(&self, version: u64, bytes: &[u8]) -> Result<()> {
        let mut b = self
            .board
            .lock()
            .map_err(|_| anyhow!("broker board poisoned"))?;
        b.put_params(version, bytes)
            .context("publishing the parameters to the broker")?;
        Ok(())
    }

    /// Tells the remote workers to stop (best effort: the learner is ending anyway).
    pub fn finish(&self) {
        if let Ok(mut b) = self.board.lock() {
            b.patience = Duration::from_secs(2);
            let _ = b.set_stop(true);
        }
    }
}

/// The run folder's broker logs (none without a run folder).
struct Logs {
    taken: Option<std::fs::File>,
    dropped: Option<std::fs::File>,
}

/// Moves batches from the stream into the sample channel until `stop`; each is acked
/// once the channel has it.
fn bridge(
    consumer: &mut Consumer,
    samples: &SyncSender<Vec<u8>>,
    stop: &AtomicBool,
    mut logs: Logs,
) -> Result<()> {
    use std::io::Write;
    while !stop.load(Ordering::Relaxed) {
        let next = consumer.next(Duration::from_millis(200));
        for (id, why) in consumer.dropped_ids.drain(..) {
            if let Some(f) = logs.dropped.as_mut() {
                writeln!(f, "{id} {why}").context("writing broker-dropped.log")?;
            }
        }
        let Some(mut r) = next? else {
            continue;
        };
        // The batch moves into the channel; the id and ack subject stay for the ack.
        if samples.send(std::mem::take(&mut r.batch)).is_err() {
            // The learner is gone: leave the batch unacked for the next one.
            return Ok(());
        }
        if let Some(f) = logs.taken.as_mut() {
            writeln!(f, "{} {} {}", r.id, r.stream_seq, r.delivered)
                .context("writing broker-taken.log")?;
        }
        consumer.ack(&r)?;
    }
    Ok(())
}
