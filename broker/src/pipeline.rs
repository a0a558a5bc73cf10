//! The learner–worker pipeline over JetStream: trajectory batches up a work-queue
//! stream, parameter snapshots (and the run's settings, and a stop flag) down a
//! key-value bucket. Payloads are opaque bytes (the trainer's postcard messages).
//!
//! Objects (created by the learner with [`setup`], idempotently):
//! - stream `MJ_TRAJ` on `mj.traj.>`: work queue, file storage, at most
//!   [`Capacity::max_batches`] messages and [`Capacity::max_batch_bytes`] per message,
//!   `discard: new` so that a full stream refuses publishers (they back off and retry:
//!   backpressure), de-duplication by message id over [`DUPLICATE_WINDOW`];
//! - durable consumer `learner` with explicit acks (an unacked batch is delivered again
//!   after [`ACK_WAIT`]);
//! - bucket `mj_run` with keys `config` (the run's settings, the learner's epoch, the
//!   protocol version, the git revision: postcard is not self-describing, so a worker
//!   refuses a run of another protocol), `params` (the latest snapshot), `params_stamp`
//!   (its version and when it was written: 16 bytes, so workers poll it instead of the
//!   megabytes of `params`) and `stop`.
//!
//! Exactly-once delivery into the learner: a publisher names each batch
//! `<worker>-<epoch>-<n>` and retries the *same* id until the server acknowledges it,
//! through a full stream or a restarted server, so a batch whose acknowledgement was
//! lost is stored once (the window outlives any retry). The consumer acks a batch only
//! after the learner has taken it, so a learner that dies loses nothing acknowledged
//! as taken. Batches of another epoch (a worker still on a previous learner's
//! settings, e.g. across `--resume`) are acked and dropped, and counted.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::jetstream::{ConsumerConfig, Delivery, JetStream, StreamConfig};
use crate::{BrokerError, Endpoint, Result};

/// Version of the messages' layout; a worker of another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;
/// The trajectory stream.
pub const STREAM: &str = "MJ_TRAJ";
/// The learner's durable consumer.
pub const CONSUMER: &str = "learner";
/// The run's key-value bucket.
pub const BUCKET: &str = "mj_run";
/// How long a message id is remembered.
pub const DUPLICATE_WINDOW: Duration = Duration::from_secs(600);
/// How long a delivered batch may stay unacked before it is delivered again.
pub const ACK_WAIT: Duration = Duration::from_secs(60);
/// Header naming the batch's epoch.
const EPOCH_HEADER: &str = "Mj-Epoch";
/// Magic of a parameter envelope in the bucket.
const PARAMS_MAGIC: &[u8; 4] = b"MJP1";

/// Limits of the trajectory stream and bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Batches the stream holds before publishers must wait.
    pub max_batches: i64,
    /// Largest compressed batch (and the largest a batch may decompress to, times
    /// [`EXPANSION_LIMIT`]).
    pub max_batch_bytes: usize,
    /// Largest parameter snapshot.
    pub max_params_bytes: usize,
}

/// A compressed batch may expand at most this much (a corrupt or hostile message
/// cannot make the learner allocate more).
pub const EXPANSION_LIMIT: usize = 64;

/// Creates (or finds) the stream, the consumer and the bucket.
pub fn setup(js: &mut JetStream, cap: Capacity) -> Result<()> {
    let as_i32 = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    js.create_stream(&StreamConfig {
        max_msgs: cap.max_batches,
        max_msg_size: as_i32(cap.max_batch_bytes + 1024),
        duplicate_window: DUPLICATE_WINDOW,
        ..StreamConfig::work_queue(STREAM, &["mj.traj.>"])
    })?;
    js.create_consumer(
        STREAM,
        &ConsumerConfig {
            durable: CONSUMER.into(),
            ack_wait: ACK_WAIT,
            max_ack_pending: cap.max_batches.max(1),
        },
    )?;
    js.kv_create(BUCKET, as_i32(cap.max_params_bytes + 64))?;
    Ok(())
}

/// Retries `op` on a fresh connection after socket errors and timeouts, until
/// `give_up` passes; other errors (refused credentials, TLS, a bad URL) return at
/// once. async-nats reconnects a connection by itself too, but a request that times
/// out meanwhile is not retried by it; a fresh connection here keeps the old
/// behaviour (and its tests) exact.
fn with_reconnect<T>(
    url: &Endpoint,
    js: &mut Option<JetStream>,
    give_up: Instant,
    mut op: impl FnMut(&mut JetStream) -> Result<T>,
) -> Result<T> {
    let mut pause = Duration::from_millis(50);
    loop {
        if js.is_none() {
            match JetStream::connect(url, Duration::from_secs(5)) {
                Ok(c) => *js = Some(c),
                Err(e) if !e.is_transient() || Instant::now() >= give_up => return Err(e),
                Err(_) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_secs(1));
                    continue;
                }
            }
        }
        let Some(conn) = js.as_mut() else { continue };
        match op(conn) {
            Err(BrokerError::Io(_) | BrokerError::Timeout) => {
                *js = None;
                if Instant::now() >= give_up {
                    return Err(BrokerError::Timeout);
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(1));
            }
            other => return other,
        }
    }
}

/// A worker's sending end.
pub struct Publisher {
    url: Endpoint,
    js: Option<JetStream>,
    worker: String,
    epoch: u64,
    next: u64,
    max_batch_bytes: usize,
    /// Give up on one batch after this long (server gone, stream full).
    pub patience: Duration,
    /// Times a publish found the stream full and waited.
    pub waited_full: u64,
    /// Compressed bytes of the batches stored so far.
    pub bytes_sent: u64,
    /// Set to make a publish waiting on a full stream give up at once
    /// ([`BrokerError::Timeout`]): the worker is stopping and nobody will make room.
    pub cancel: Arc<AtomicBool>,
}

impl Publisher {
    /// A publisher for worker `worker` (letters, digits, `-`, `_`) of learner epoch
    /// `epoch`, at `url` (a URL list, or an [`Endpoint`] with credentials).
    pub fn new(
        url: impl Into<Endpoint>,
        worker: &str,
        epoch: u64,
        cap: Capacity,
    ) -> Result<Publisher> {
        if worker.is_empty()
            || !worker
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(BrokerError::Protocol(format!(
                "invalid worker name {worker:?}"
            )));
        }
        Ok(Publisher {
            url: url.into(),
            js: None,
            worker: worker.to_string(),
            epoch,
            next: 0,
            max_batch_bytes: cap.max_batch_bytes,
            patience: Duration::from_secs(120),
            waited_full: 0,
            bytes_sent: 0,
            cancel: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Compresses and publishes one batch; returns its message id once the server has
    /// stored it (or recognised it as already stored).
    pub fn publish(&mut self, batch: &[u8]) -> Result<String> {
        let packed = zstd::bulk::compress(batch, 3)
            .map_err(|e| BrokerError::Protocol(format!("compressing a batch: {e}")))?;
        if packed.len() > self.max_batch_bytes
            || batch.len() > self.max_batch_bytes * EXPANSION_LIMIT
        {
            return Err(BrokerError::Protocol(format!(
                "a batch of {} bytes ({} compressed) exceeds the stream's limit of {}",
                batch.len(),
                packed.len(),
                self.max_batch_bytes
            )));
        }
        let id = format!("{}-{:x}-{}", self.worker, self.epoch, self.next);
        let subject = format!("mj.traj.{}", self.worker);
        let epoch = self.epoch.to_string();
        let give_up = Instant::now() + self.patience;
        let mut pause = Duration::from_millis(20);
        loop {
            let r = with_reconnect(&self.url, &mut self.js, give_up, |js| {
                js.publish_with_headers(&subject, &id, &[(EPOCH_HEADER, &epoch)], &packed)
            });
            match r {
                Ok(_) => break,
                Err(e) if e.is_full() && self.cancel.load(Ordering::Relaxed) => {
                    return Err(BrokerError::Timeout)
                }
                Err(e) if e.is_full() && Instant::now() < give_up => {
                    self.waited_full += 1;
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(500));
                }
                Err(e) => return Err(e),
            }
        }
        self.next += 1;
        self.bytes_sent += packed.len() as u64;
        Ok(id)
    }
}

/// One batch taken from the stream (ack it with [`Consumer::ack`] once used).
#[derive(Debug)]
pub struct Received {
    /// The decompressed batch.
    pub batch: Vec<u8>,
    /// Its message id (`<worker>-<epoch>-<n>`).
    pub id: String,
    /// Its sequence in the stream.
    pub stream_seq: u64,
    /// How many times it has been delivered.
    pub delivered: u64,
    message: crate::Message,
}

/// The learner's receiving end.
pub struct Consumer {
    url: Endpoint,
    js: Option<JetStream>,
    epoch: u64,
    max_batch_bytes: usize,
    /// Batches of other epochs dropped.
    pub stale: u64,
    /// Batches that could not be decompressed, dropped.
    pub corrupt: u64,
    /// Batches delivered again after they were taken (their ack was lost, e.g. to a
    /// server restart), dropped.
    pub repeated: u64,
    /// Acks lost with the connection (their batches come again and are dropped).
    pub lost_acks: u64,
    /// The ids of the batches dropped since the caller last drained this, with why
    /// (`stale`, `corrupt`, `repeated`): the learner logs them, so every batch a worker
    /// published can be accounted for.
    pub dropped_ids: Vec<(String, &'static str)>,
    /// Give up reconnecting after this long.
    pub patience: Duration,
    /// The ids taken lately (the last [`REMEMBERED_IDS`]), to drop redeliveries.
    taken: HashSet<String>,
    taken_order: VecDeque<String>,
}

/// How many taken batch ids the consumer remembers to drop redeliveries (far more
/// than the stream holds, so a redelivered batch is always still remembered).
pub const REMEMBERED_IDS: usize = 1 << 16;

impl Consumer {
    /// The consumer of learner epoch `epoch`, at `url` (a URL list, or an
    /// [`Endpoint`] with credentials).
    pub fn new(url: impl Into<Endpoint>, epoch: u64, cap: Capacity) -> Consumer {
        Consumer {
            url: url.into(),
            js: None,
            epoch,
            max_batch_bytes: cap.max_batch_bytes,
            stale: 0,
            corrupt: 0,
            repeated: 0,
            lost_acks: 0,
            dropped_ids: Vec::new(),
            patience: Duration::from_secs(120),
            taken: HashSet::new(),
            taken_order: VecDeque::new(),
        }
    }

    /// The next batch of this epoch, waiting at most `wait` (`None`: nothing came).
    pub fn next(&mut self, wait: Duration) -> Result<Option<Received>> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let give_up = Instant::now() + self.patience;
            let m = with_reconnect(&self.url, &mut self.js, give_up, |js| {
                js.fetch(STREAM, CONSUMER, left)
            })?;
            let Some(m) = m else { return Ok(None) };
            let epoch_ok = m.header(EPOCH_HEADER) == Some(self.epoch.to_string().as_str());
            let batch = if epoch_ok {
                zstd::bulk::decompress(&m.payload, self.max_batch_bytes * EXPANSION_LIMIT).ok()
            } else {
                None
            };
            let delivery = Delivery::of(&m);
            let id = m.header("Nats-Msg-Id").unwrap_or_default().to_string();
            match (batch, delivery) {
                (Some(_), Some(_)) if self.taken.contains(&id) => {
                    self.repeated += 1;
                    self.note_drop(id, "repeated");
                    self.ack_message(&m)?;
                }
                (Some(batch), Some(d)) => {
                    return Ok(Some(Received {
                        batch,
                        id,
                        stream_seq: d.stream_seq,
                        delivered: d.delivered,
                        message: m,
                    }))
                }
                _ => {
                    let why = if epoch_ok {
                        self.corrupt += 1;
                        "corrupt"
                    } else {
                        self.stale += 1;
                        "stale"
                    };
                    self.note_drop(id, why);
                    self.ack_message(&m)?;
                }
            }
            if Instant::now() >= deadline {
                return Ok(None);
            }
        }
    }

    /// Remembers a dropped batch's id for the caller (at most [`REMEMBERED_IDS`] wait
    /// to be drained; beyond that only the counters count).
    fn note_drop(&mut self, id: String, why: &'static str) {
        if self.dropped_ids.len() < REMEMBERED_IDS {
            self.dropped_ids.push((id, why));
        }
    }

    /// Acks `m`, once. An ack lost with the connection (the server restarted, or no
    /// longer knows the delivery) is not retried: the batch comes again, and is
    /// dropped as taken (its id is remembered before the ack), stale or corrupt.
    fn ack_message(&mut self, m: &crate::Message) -> Result<()> {
        let Some(js) = self.js.as_mut() else {
            self.lost_acks += 1;
            return Ok(());
        };
        match js.ack(m) {
            Err(BrokerError::Io(_) | BrokerError::Timeout) => {
                self.js = None;
                self.lost_acks += 1;
                Ok(())
            }
            other => other,
        }
    }

    /// Acknowledges a batch the learner has taken: it is gone from the stream, and a
    /// redelivery of it (an ack lost with a server) is dropped.
    pub fn ack(&mut self, r: &Received) -> Result<()> {
        if self.taken.insert(r.id.clone()) {
            self.taken_order.push_back(r.id.clone());
            if self.taken_order.len() > REMEMBERED_IDS {
                if let Some(old) = self.taken_order.pop_front() {
                    self.taken.remove(&old);
                }
            }
        }
        self.ack_message(&r.message)
    }
}

/// Which parameters the bucket holds, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamsStamp {
    /// The parameters' version (the learner's count of pushes).
    pub version: u64,
    /// When the learner wrote them: nanoseconds since the Unix epoch, by its clock.
    pub written_unix_ns: u64,
}

/// Nanoseconds since the Unix epoch by this machine's clock (0 before 1970).
pub fn unix_nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The run's bucket: settings, the latest parameters, the stop flag.
pub struct Board {
    url: Endpoint,
    js: Option<JetStream>,
    /// Give up reconnecting after this long.
    pub patience: Duration,
}

impl Board {
    /// The bucket at `url` (a URL list, or an [`Endpoint`] with credentials).
    pub fn new(url: impl Into<Endpoint>) -> Board {
        Board {
            url: url.into(),
            js: None,
            patience: Duration::from_secs(60),
        }
    }

    fn run<T>(&mut self, op: impl FnMut(&mut JetStream) -> Result<T>) -> Result<T> {
        let give_up = Instant::now() + self.patience;
        with_reconnect(&self.url, &mut self.js, give_up, op)
    }

    /// Writes the parameters of `version`, then their stamp (so a worker that sees the
    /// stamp finds these parameters, or later ones, under `params`).
    pub fn put_params(&mut self, version: u64, bytes: &[u8]) -> Result<u64> {
        let mut v = Vec::with_capacity(bytes.len() + 12);
        v.extend_from_slice(PARAMS_MAGIC);
        v.extend_from_slice(&version.to_le_bytes());
        v.extend_from_slice(bytes);
        let rev = self.run(|js| js.kv_put(BUCKET, "params", &v))?;
        let mut stamp = [0u8; 16];
        stamp[..8].copy_from_slice(&version.to_le_bytes());
        stamp[8..].copy_from_slice(&unix_nanos().to_le_bytes());
        self.run(|js| js.kv_put(BUCKET, "params_stamp", &stamp))?;
        Ok(rev)
    }

    /// The latest parameters' stamp: (version, when the learner wrote them in
    /// nanoseconds since the Unix epoch by its clock). `None` before the first push.
    pub fn params_stamp(&mut self) -> Result<Option<ParamsStamp>> {
        let Some((_, v)) = self.run(|js| js.kv_get(BUCKET, "params_stamp"))? else {
            return Ok(None);
        };
        match (v.get(..8), v.get(8..16)) {
            (Some(a), Some(b)) if v.len() == 16 => Ok(Some(ParamsStamp {
                version: u64::from_le_bytes(a.try_into().unwrap_or([0; 8])),
                written_unix_ns: u64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
            })),
            _ => Err(BrokerError::Protocol(
                "the params_stamp entry is not 16 bytes".into(),
            )),
        }
    }

    /// The latest parameters: (bucket revision, version, bytes).
    pub fn params(&mut self) -> Result<Option<(u64, u64, Vec<u8>)>> {
        let Some((rev, mut v)) = self.run(|js| js.kv_get(BUCKET, "params"))? else {
            return Ok(None);
        };
        match (v.get(..4), v.get(4..12)) {
            (Some(m), Some(ver)) if m == PARAMS_MAGIC => {
                let version = u64::from_le_bytes(ver.try_into().unwrap_or([0; 8]));
                // The snapshot is megabytes: drop the header in place, no copy.
                v.drain(..12);
                Ok(Some((rev, version, v)))
            }
            _ => Err(BrokerError::Protocol(
                "the params entry is not a parameter envelope".into(),
            )),
        }
    }

    /// Writes the run's settings (JSON with at least `protocol` and `epoch`).
    pub fn put_config(&mut self, config: &serde_json::Value) -> Result<u64> {
        let bytes = serde_json::to_vec(config).map_err(|e| BrokerError::Protocol(e.to_string()))?;
        self.run(|js| js.kv_put(BUCKET, "config", &bytes))
    }

    /// The run's settings, refused unless their `protocol` is [`PROTOCOL_VERSION`].
    pub fn config(&mut self) -> Result<Option<serde_json::Value>> {
        let Some((_, bytes)) = self.run(|js| js.kv_get(BUCKET, "config"))? else {
            return Ok(None);
        };
        let v: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| BrokerError::Protocol(format!("the run's config is not JSON: {e}")))?;
        match v.get("protocol").and_then(|p| p.as_u64()) {
            Some(p) if p == PROTOCOL_VERSION as u64 => Ok(Some(v)),
            p => Err(BrokerError::Protocol(format!(
                "the run speaks protocol {p:?}, this build {PROTOCOL_VERSION}"
            ))),
        }
    }

    /// Sets or clears the stop flag.
    pub fn set_stop(&mut self, stop: bool) -> Result<()> {
        let v: &[u8] = if stop { b"1" } else { b"0" };
        self.run(|js| js.kv_put(BUCKET, "stop", v)).map(|_| ())
    }

    /// Whether the stop flag is set.
    pub fn stop(&mut self) -> Result<bool> {
        Ok(self
            .run(|js| js.kv_get(BUCKET, "stop"))?
            .is_some_and(|(_, v)| v == b"1"))
    }
}
