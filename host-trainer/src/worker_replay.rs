//! Recording and replaying a worker's trajectory batches (`host-trainer worker
//! --record DIR` / `--emulate DIR`), to measure how the learner and the broker scale
//! with more workers than this machine has cores.
//!
//! A recording is a folder:
//! - `batches.bin`: the magic `MJREC1\0\0`, then each batch as a little-endian `u32`
//!   length and that many bytes of the trainer's postcard `TrajectoryBatch`;
//! - `recording.json`: what was recorded and how fast: `batches`, `samples` (decisions),
//!   `rate_samples` played in `seconds` (from the first batch to the last), `threads`,
//!   `samples_per_s_per_thread`, the run's training settings (`train`) and the git
//!   revision.
//!
//! An emulating worker plays nothing: it replays the recorded batches in a loop at a
//! given rate of samples per second (by default the recorded rate per thread times
//! `--threads`), each batch stamped with the parameter version the worker holds (as a
//! real worker's would be), sleeping in between. The learner cannot tell it from real
//! self-play, so learner throughput, broker traffic and parameter fan-out can be
//! measured at 1, 2, 4, 8 … workers on a 2-core machine, where real self-play cannot
//! scale.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use host_trainer::train::config::TrainConfig;
use host_trainer::train::run::model_config;
use host_trainer::train::selfplay::TrajectoryBatch;

/// First bytes of `batches.bin`.
const MAGIC: &[u8; 8] = b"MJREC1\0\0";
/// Largest batch a recording may hold (far above any real batch).
const MAX_BATCH_BYTES: usize = 64 << 20;
/// Most batches replayed from one recording (the rest are ignored).
const MAX_BATCHES: usize = 4096;
/// The version a worker holds before the learner's first parameters.
pub const NO_VERSION: u64 = u64::MAX;

/// The decisions (training samples) in a batch.
pub fn samples_in(batch: &TrajectoryBatch) -> u64 {
    batch
        .trajectories
        .iter()
        .map(|t| t.steps.len() as u64)
        .sum()
}

/// Writes a recording while a real worker plays.
pub struct Recorder {
    dir: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    settings: serde_json::Value,
    threads: usize,
    start: Instant,
    /// When the first batch came, and its samples.
    first: Option<(Instant, u64)>,
    last: Instant,
    batches: u64,
    samples: u64,
}

impl Recorder {
    /// Starts a recording in `dir` (created; an existing recording there is replaced)
    /// of a run with `settings`, played by `threads` threads.
    pub fn create(dir: &Path, settings: &serde_json::Value, threads: usize) -> Result<Recorder> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the recording folder {}", dir.display()))?;
        let path = dir.join("batches.bin");
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
        );
        file.write_all(MAGIC)?;
        Ok(Recorder {
            dir: dir.to_path_buf(),
            file,
            settings: settings.clone(),
            threads,
            start: Instant::now(),
            first: None,
            last: Instant::now(),
            batches: 0,
            samples: 0,
        })
    }

    /// Appends one batch (postcard bytes) holding `samples` decisions.
    pub fn add(&mut self, batch: &[u8], samples: u64) -> Result<()> {
        let len = u32::try_from(batch.len()).context("a batch too large to record")?;
        self.file.write_all(&len.to_le_bytes())?;
        self.file.write_all(batch)?;
        self.batches += 1;
        self.samples += samples;
        self.last = Instant::now();
        self.first.get_or_insert((self.last, samples));
        Ok(())
    }

    /// Flushes the batches and writes `recording.json`; returns samples/s per thread.
    /// The rate counts from the first batch to the last (the time before the first
    /// one went into waiting for the learner and warming up); with one batch, from
    /// the start.
    pub fn finish(mut self) -> Result<f64> {
        self.file.flush().context("writing batches.bin")?;
        let (samples, seconds) = match self.first {
            Some((at, first)) if self.batches >= 2 => {
                (self.samples - first, (self.last - at).as_secs_f64())
            }
            _ => (self.samples, self.start.elapsed().as_secs_f64()),
        };
        let rate = samples as f64 / seconds.max(1e-9) / self.threads.max(1) as f64;
        let meta = serde_json::json!({
            "batches": self.batches,
            "samples": self.samples,
            "rate_samples": samples,
            "seconds": seconds,
            "threads": self.threads,
            "samples_per_s_per_thread": rate,
            "train": self.settings["train"],
            "git_revision": host_trainer::git_revision(),
        });
        let path = self.dir.join("recording.json");
        std::fs::write(&path, serde_json::to_vec_pretty(&meta)?)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(rate)
    }
}

/// A recording loaded for replay.
pub struct Recording {
    /// The batches, decoded.
    pub batches: Vec<TrajectoryBatch>,
    /// Recorded samples per second per self-play thread.
    pub samples_per_s_per_thread: f64,
    /// The recorded run's training settings.
    pub train: TrainConfig,
}

impl Recording {
    /// Loads the recording in `dir`; errors name the file and what is wrong with it.
    pub fn load(dir: &Path) -> Result<Recording> {
        let meta_path = dir.join("recording.json");
        let meta: serde_json::Value = serde_json::from_slice(
            &std::fs::read(&meta_path)
                .with_context(|| format!("reading {}", meta_path.display()))?,
        )
        .with_context(|| format!("{} is not JSON", meta_path.display()))?;
        let rate = meta["samples_per_s_per_thread"]
            .as_f64()
            .filter(|r| r.is_finite() && *r > 0.0)
            .ok_or_else(|| {
                anyhow!(
                    "{}: no positive samples_per_s_per_thread",
                    meta_path.display()
                )
            })?;
        let train: TrainConfig = serde_json::from_value(meta["train"].clone())
            .with_context(|| format!("{}: the training settings", meta_path.display()))?;
        let path = dir.join("batches.bin");
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .with_context(|| format!("reading {}", path.display()))?;
        let batches = parse_batches(&bytes).with_context(|| format!("{}", path.display()))?;
        if batches.is_empty() {
            bail!("{}: no batches recorded", path.display());
        }
        Ok(Recording {
            batches,
            samples_per_s_per_thread: rate,
            train,
        })
    }

    /// Errors unless the recorded batches fit the run `cfg` (same rules and model: the
    /// learner decodes their features with its own network).
    pub fn check_fits(&self, cfg: &TrainConfig) -> Result<()> {
        if self.train.rules != cfg.rules {
            bail!(
                "the recording is of rules {:?}, the run plays {:?}",
                self.train.rules,
                cfg.rules
            );
        }
        if model_config(&self.train) != model_config(cfg) {
            bail!("the recording was made with another model shape than the run's");
        }
        Ok(())
    }
}

/// The batches of a `batches.bin` image (at most [`MAX_BATCHES`]).
fn parse_batches(bytes: &[u8]) -> Result<Vec<TrajectoryBatch>> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| anyhow!("not a batch recording (bad magic)"))?;
    let mut at = 0usize;
    let mut out = Vec::new();
    while at < rest.len() && out.len() < MAX_BATCHES {
        let len = rest
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(|| anyhow!("truncated length at byte {}", at + MAGIC.len()))?;
        if len > MAX_BATCH_BYTES {
            bail!(
                "a batch of {len} bytes at byte {} is too large",
                at + MAGIC.len()
            );
        }
        let body = rest
            .get(at + 4..at + 4 + len)
            .ok_or_else(|| anyhow!("truncated batch at byte {}", at + MAGIC.len()))?;
        out.push(
            TrajectoryBatch::from_bytes(body)
                .with_context(|| format!("batch {} does not decode", out.len()))?,
        );
        at += 4 + len;
    }
    Ok(out)
}

/// When the next batch is due so that the samples sent so far keep to `rate`
/// samples per second since `start` (a batch is sent once it is due).
pub fn due(start: Instant, samples_sent: u64, rate: f64) -> Instant {
    start + Duration::from_secs_f64(samples_sent as f64 / rate)
}

/// Replays `rec` into `out` at `rate` samples per second until `stop` or until `out`
/// closes; each batch carries the version in `version` (it waits for the first).
pub fn emulate(
    rec: &Recording,
    rate: f64,
    version: &AtomicU64,
    out: &SyncSender<Vec<u8>>,
    stop: &AtomicBool,
) -> Result<()> {
    if !(rate.is_finite() && rate > 0.0) {
        bail!("the emulation rate must be positive");
    }
    while version.load(Ordering::Relaxed) == NO_VERSION {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let start = Instant::now();
    let mut sent = 0u64;
    for batch in rec.batches.iter().cycle() {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let wait = due(start, sent, rate).saturating_duration_since(Instant::now());
            if wait.is_zero() {
                break;
            }
            std::thread::sleep(wait.min(Duration::from_millis(50)));
        }
        let mut b = batch.clone();
        let v = version.load(Ordering::Relaxed);
        for t in &mut b.trajectories {
            t.param_version = v;
        }
        if out.send(b.to_bytes()?).is_err() {
            return Ok(());
        }
        sent += samples_in(batch);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use host_trainer::train::selfplay::{Step, Trajectory};

    fn step() -> Step {
        Step {
            obs: vec![0.25; 4],
            legal: [1, 0, 0],
            action: 0,
            logp: -0.5,
            value: 0.1,
            teacher: 0,
            search: vec![],
            hidden: vec![],
        }
    }

    fn batch(steps: usize) -> TrajectoryBatch {
        TrajectoryBatch {
            worker: 3,
            hands: 1,
            trajectories: vec![Trajectory {
                param_version: 7,
                steps: vec![step(); steps],
                reward: 0.5,
            }],
        }
    }

    fn image(batches: &[TrajectoryBatch]) -> Vec<u8> {
        let mut v = MAGIC.to_vec();
        for b in batches {
            let bytes = b.to_bytes().unwrap();
            v.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            v.extend_from_slice(&bytes);
        }
        v
    }

    #[test]
    fn batches_round_trip_and_bad_images_are_refused() {
        let bs = vec![batch(2), batch(5)];
        let img = image(&bs);
        assert_eq!(parse_batches(&img).unwrap(), bs);
        assert_eq!(samples_in(&bs[1]), 5);
        // Every cut inside a batch is an error, never a panic; cuts between batches
        // hold the batches before them.
        let first_end = image(&bs[..1]).len();
        for cut in 0..img.len() {
            match parse_batches(&img[..cut]) {
                Ok(got) if cut == MAGIC.len() => assert!(got.is_empty()),
                Ok(got) if cut == first_end => assert_eq!(got, bs[..1]),
                Ok(_) => panic!("cut {cut} parsed"),
                Err(_) => {}
            }
        }
        let mut bad = img.clone();
        bad[0] = b'X';
        assert!(parse_batches(&bad)
            .unwrap_err()
            .to_string()
            .contains("magic"));
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(parse_batches(&huge)
            .unwrap_err()
            .to_string()
            .contains("too large"));
        let mut garbage = MAGIC.to_vec();
        garbage.extend_from_slice(&3u32.to_le_bytes());
        garbage.extend_from_slice(&[0xff, 0xff, 0xff]);
        assert!(parse_batches(&garbage).is_err());
    }

    #[test]
    fn batches_are_due_at_the_rate() {
        let t0 = Instant::now();
        assert_eq!(due(t0, 0, 100.0), t0);
        assert_eq!(due(t0, 250, 100.0), t0 + Duration::from_millis(2500));
    }

    #[test]
    fn emulation_stamps_the_version_and_keeps_to_the_rate() {
        let rec = Recording {
            batches: vec![batch(10), batch(30)],
            samples_per_s_per_thread: 1.0,
            train: TrainConfig::default(),
        };
        let version = AtomicU64::new(NO_VERSION);
        let stop = AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::sync_channel(64);
        let rate = 400.0;
        std::thread::scope(|s| {
            let h = s.spawn(|| emulate(&rec, rate, &version, &tx, &stop));
            std::thread::sleep(Duration::from_millis(60));
            // Nothing before the first parameters.
            assert!(rx.try_recv().is_err());
            version.store(12, Ordering::Relaxed);
            let start = Instant::now();
            let mut samples = 0;
            for _ in 0..6 {
                let b = TrajectoryBatch::from_bytes(&rx.recv().unwrap()).unwrap();
                assert!(b.trajectories.iter().all(|t| t.param_version == 12));
                samples += samples_in(&b);
            }
            let elapsed = start.elapsed().as_secs_f64();
            // 6 batches are 10+30+10+30+10+30 = 120 samples; the sixth is due after
            // the first five's 80 samples at 400/s: 0.2 s. Never sooner.
            assert_eq!(samples, 120);
            assert!(elapsed >= 0.19, "{elapsed} s");
            stop.store(true, Ordering::Relaxed);
            while rx.try_recv().is_ok() {}
            h.join().unwrap().unwrap();
        });
    }
}
