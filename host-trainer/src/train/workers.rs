//! The learner's side of self-play: the worker threads, parameter pushes, and the
//! gathering of one update's samples from the bounded replay channel.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use engine::encode::Encoding;
use engine::game::NUM_ACTIONS;
use engine::rng::Rng;
use engine::tile::NUM_TILE_TYPES;
use engine::Rules;
use inference::panic_message;
use tch::nn::VarStore;

use super::advantages::{fill_advantages, Segment};
use super::config::{Guidance, Teacher, TrainConfig};
use super::model::{ModelConfig, ParamSnapshot};
use super::opponents::OpponentMix;
use super::oracle::HIDDEN_LEN;
use super::ppo::{guidance_target, Samples};
use super::search_teacher::{search_target, SearchTeacherSetup};
use super::selfplay::{run_worker, TeacherBot, TrajectoryBatch, WorkerLinks, WorkerSetup};

/// The setup of self-play worker `id` of the run `cfg` (local threads and remote
/// `worker` processes alike).
pub fn worker_setup(
    cfg: &TrainConfig,
    rules: Rules,
    model: ModelConfig,
    opponents: OpponentMix,
    id: u32,
    seed: u64,
) -> WorkerSetup {
    WorkerSetup {
        id,
        rules,
        whole_games: cfg.whole_games,
        placement: placement_potential(cfg, &rules),
        model,
        tables: cfg.tables,
        seed,
        auto_win: cfg.auto_win,
        send_every: cfg.send_every,
        reward_scale: (cfg.reward_scale * cfg.points_unit()) as f32,
        win_bonus: (cfg.win_bonus * cfg.points_unit()) as f32,
        opponents,
        past_lag: cfg.past_lag,
        record_teacher: match (cfg.teacher, cfg.guidance) {
            (Teacher::Eff, Guidance::On) => Some(TeacherBot::Efficiency),
            (Teacher::Defend, Guidance::On) => Some(TeacherBot::Defend),
            _ => None,
        },
        record_hidden: cfg.oracle_critic,
        search: (cfg.teacher == Teacher::Search && cfg.guidance == Guidance::On).then_some(
            SearchTeacherSetup {
                fraction: cfg.search_fraction,
                rollouts: cfg.search_rollouts,
            },
        ),
    }
}

/// The placement shaping's potential by rank, in points: `--placement-weight` × the uma
/// of the rules' table (in thousands of points under the riichi rules); zeros when off.
fn placement_potential(cfg: &TrainConfig, rules: &Rules) -> [f32; 4] {
    if !cfg.whole_games || cfg.placement_weight == 0.0 {
        return [0.0; 4];
    }
    let uma = arena::games::UmaTable::for_rules(rules).uma;
    uma.map(|u| (cfg.placement_weight * u * cfg.points_unit()) as f32)
}

/// The running workers and their channels.
pub struct Workers {
    params: Vec<Sender<Arc<Vec<u8>>>>,
    handles: Vec<JoinHandle<Result<()>>>,
    /// Each failed worker's error (or panic message), so that the learner, which sees
    /// only the channel go quiet, can say why.
    failures: Arc<Mutex<Vec<String>>>,
    samples: Receiver<Vec<u8>>,
    stop: Arc<AtomicBool>,
    /// While set, workers idle (the learner evaluates).
    pub pause: Arc<AtomicBool>,
    /// Number of worker threads.
    pub count: usize,
    /// The broker's side (`--broker`): remote workers' batches and parameter pushes.
    #[cfg(feature = "distributed")]
    remote: Option<super::remote::Remote>,
}

/// One update's samples and what was seen while gathering them.
pub struct Collected {
    /// The samples, advantages and returns computed.
    pub samples: Samples,
    /// Self-play hands finished.
    pub hands: u64,
    /// Trajectories kept.
    pub kept: u64,
    /// Trajectories dropped as too stale.
    pub dropped: u64,
    /// Sum of the kept trajectories' rewards.
    pub reward: f64,
    /// Seconds spent waiting for them.
    pub wait_s: f64,
    /// Each kept trajectory's samples (first index, length) and final reward, so that
    /// the advantages can be recomputed with other values (the oracle critic).
    pub segments: Vec<Segment>,
    /// Each sample's value by the behaviour policy (its advantages' baseline).
    pub values: Vec<f32>,
}

/// Where a self-play thread receives its parameter snapshots (postcard bytes).
pub type ParamSender = Sender<Arc<Vec<u8>>>;

/// Starts one self-play thread named `name`: it plays `setup` (waiting for its first
/// parameter push) until `stop`, its batches into `out`; a panic becomes an error, and
/// `on_error` sees any error before the thread ends. Returns the sender of its
/// parameter pushes and its handle. The trainer's local workers and `host-trainer
/// worker`'s threads both start here.
pub fn spawn_selfplay(
    name: String,
    setup: WorkerSetup,
    out: mpsc::SyncSender<Vec<u8>>,
    stop: &Arc<AtomicBool>,
    pause: &Arc<AtomicBool>,
    on_error: impl FnOnce(&anyhow::Error) + Send + 'static,
) -> Result<(ParamSender, JoinHandle<Result<()>>)> {
    let (ptx, prx) = mpsc::channel::<Arc<Vec<u8>>>();
    let links = WorkerLinks {
        params: prx,
        out,
        stop: stop.clone(),
        pause: pause.clone(),
    };
    let handle = std::thread::Builder::new()
        .name(name)
        .spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| run_worker(setup, links)))
                .unwrap_or_else(|panic| {
                    Err(anyhow!("panicked: {}", panic_message(panic.as_ref())))
                });
            if let Err(e) = &result {
                on_error(e);
            }
            result
        })
        .context("spawning a self-play thread")?;
    Ok((ptx, handle))
}

impl Workers {
    /// Starts `cfg.workers` threads (0 = half the cores, at least one); each waits for the first
    /// parameter push. `resumes` separates the seeds of a resumed session's workers.
    pub fn spawn(
        cfg: &TrainConfig,
        rules: Rules,
        model: ModelConfig,
        resumes: u64,
        opponents: OpponentMix,
    ) -> Result<Workers> {
        let count = match cfg.workers {
            _ if cfg.broker.is_some() && cfg.no_local_workers => 0,
            0 => (super::setup::cores() / 2).max(1),
            n => n,
        };
        if cfg.no_local_workers && cfg.broker.is_none() {
            anyhow::bail!("--no-local-workers needs --broker (remote workers)");
        }
        let stop = Arc::new(AtomicBool::new(false));
        let pause = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(cfg.replay_capacity.max(1));
        let mut params = Vec::new();
        let mut handles = Vec::new();
        let failures = Arc::new(Mutex::new(Vec::new()));
        for w in 0..count {
            let seed = Rng::derive_seed(cfg.seed, 1_000 + w as u64 + 1_000 * resumes);
            let setup = worker_setup(cfg, rules, model, opponents, w as u32, seed);
            let failed = failures.clone();
            let (ptx, handle) = spawn_selfplay(
                format!("selfplay-{w}"),
                setup,
                tx.clone(),
                &stop,
                &pause,
                move |e| {
                    if let Ok(mut f) = failed.lock() {
                        f.push(format!("worker {w}: {e:#}"));
                    }
                },
            )?;
            params.push(ptx);
            handles.push(handle);
        }
        #[cfg(feature = "distributed")]
        let remote = match &cfg.broker {
            Some(url) => Some(super::remote::Remote::start(
                url,
                cfg,
                resumes,
                tx.clone(),
                stop.clone(),
                failures.clone(),
                &mut handles,
            )?),
            None => None,
        };
        #[cfg(not(feature = "distributed"))]
        if cfg.broker.is_some() {
            anyhow::bail!("--broker needs host-trainer built with the `distributed` feature");
        }
        Ok(Workers {
            params,
            handles,
            #[cfg(feature = "distributed")]
            remote,
            failures,
            samples: rx,
            stop,
            pause,
            count,
        })
    }

    /// Sends the learner's parameters (as version `version`) to every worker; returns
    /// the snapshot, which the evaluation plays.
    pub fn push(
        &self,
        vs: &VarStore,
        model: ModelConfig,
        encoding: Encoding,
        version: u64,
    ) -> Result<Arc<ParamSnapshot>> {
        let snap = Arc::new(ParamSnapshot::take(vs, model, encoding, version)?);
        let bytes = Arc::new(snap.to_bytes()?);
        for p in &self.params {
            let _ = p.send(bytes.clone());
        }
        #[cfg(feature = "distributed")]
        if let Some(r) = &self.remote {
            r.push(version, &bytes)?;
        }
        Ok(snap)
    }

    /// Gathers at least `cfg.steps_per_update` samples of trajectories played with
    /// parameters at most `cfg.max_staleness` versions behind `version`. `None` when
    /// `interrupt` was set: it is checked before every message (busy workers keep the
    /// channel full, so a check on time-outs alone would wait for the whole gathering),
    /// and the samples gathered so far are dropped (self-play is cheap to redo).
    pub fn collect(
        &self,
        cfg: &TrainConfig,
        version: u64,
        interrupt: &AtomicBool,
    ) -> Result<Option<Collected>> {
        let start = Instant::now();
        let mut c = Collected {
            samples: Samples::default(),
            hands: 0,
            kept: 0,
            dropped: 0,
            reward: 0.0,
            wait_s: 0.0,
            segments: Vec::new(),
            values: Vec::new(),
        };
        while c.samples.len() < cfg.steps_per_update {
            if interrupt.load(Ordering::Relaxed) {
                return Ok(None);
            }
            match self.samples.recv_timeout(Duration::from_millis(200)) {
                Ok(bytes) => {
                    let batch = TrajectoryBatch::from_bytes(&bytes)?;
                    c.hands += batch.hands as u64;
                    absorb(cfg, &batch, version, &mut c);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.handles.iter().all(|h| h.is_finished()) {
                        return Err(self.ended());
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.ended()),
            }
        }
        fill_advantages(
            &mut c.samples,
            &c.segments,
            &c.values,
            cfg.gamma,
            cfg.lambda,
        );
        c.wait_s = start.elapsed().as_secs_f64();
        Ok(Some(c))
    }

    /// The error of a learner whose workers have all ended, with their reasons.
    fn ended(&self) -> anyhow::Error {
        let reasons = self
            .failures
            .lock()
            .map(|f| f.join("; "))
            .unwrap_or_default();
        if reasons.is_empty() {
            anyhow!("all self-play workers ended")
        } else {
            anyhow!("all self-play workers ended: {reasons}")
        }
    }

    /// Stops and joins every worker; the first worker error, if any.
    pub fn shutdown(self) -> Result<()> {
        self.stop.store(true, Ordering::Relaxed);
        #[cfg(feature = "distributed")]
        if let Some(r) = &self.remote {
            r.finish();
        }
        self.pause.store(false, Ordering::Relaxed);
        drop(self.samples);
        let mut worker_error = None;
        for h in self.handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => worker_error = Some(e),
                Err(_) => worker_error = Some(anyhow!("a self-play worker panicked")),
            }
        }
        match worker_error {
            Some(e) => Err(e.context("self-play worker failed")),
            None => Ok(()),
        }
    }
}

/// Adds the fresh trajectories of a batch to `c` with their values and guidance targets
/// (the advantages and returns are filled in once the update's samples are complete).
fn absorb(cfg: &TrainConfig, batch: &TrajectoryBatch, version: u64, c: &mut Collected) {
    let s = &mut c.samples;
    let encoding = cfg.encoding();
    let actions = encoding.policy_actions();
    let mut guide = [0f32; NUM_ACTIONS];
    let guide = &mut guide[..actions];
    for tr in &batch.trajectories {
        if tr.param_version + cfg.max_staleness < version
            || tr
                .steps
                .iter()
                .any(|st| st.obs.len() != encoding.encoded_len())
        {
            c.dropped += 1;
            continue;
        }
        c.kept += 1;
        c.reward += tr.reward as f64;
        c.segments.push((s.action.len(), tr.steps.len(), tr.reward));
        for st in &tr.steps {
            let start = s.mask.len();
            s.mask
                .extend((0..actions).map(|a| ((st.legal[a / 64] >> (a % 64)) & 1) as f32));
            guide.fill(0.0);
            match cfg.teacher {
                Teacher::ValueScores => {
                    guidance_target(&st.obs, &s.mask[start..], &mut guide[..NUM_TILE_TYPES])
                }
                Teacher::Search => search_target(
                    &st.search,
                    &s.mask[start..],
                    cfg.search_temperature as f32,
                    guide,
                ),
                Teacher::Eff | Teacher::Defend => {
                    // The bot's choice is legal by construction; a corrupt index gets no
                    // target rather than one on an illegal action.
                    let a = st.teacher as usize;
                    if s.mask.get(start + a).is_some_and(|&m| m > 0.5) {
                        guide[a] = 1.0;
                    }
                }
            }
            s.guide.extend_from_slice(guide);
            s.obs.extend_from_slice(&st.obs);
            if cfg.oracle_critic {
                // A step without hidden features (never from a worker of this run)
                // gives the critic zeros rather than misaligned rows.
                let h = &st.hidden;
                s.hidden
                    .extend((0..HIDDEN_LEN).map(|k| h.get(k).map_or(0.0, |&x| x as f32 / 4.0)));
            }
            s.action.push(st.action as i64);
            s.old_logp.push(st.logp);
            c.values.push(st.value);
            s.adv.push(0.0);
            s.ret.push(0.0);
        }
    }
}
