//! The training loop: run folder, workers, PPO updates, evaluation, stop rule,
//! checkpoints, metrics and the progress bar.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use engine::encode::{ENCODED_LEN, ENCODING_VERSION};
use engine::game::NUM_ACTIONS;
use engine::rng::Rng;
use engine::tile::NUM_TILE_TYPES;
use engine::Rules;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use tch::Device;

use super::adam::Adam;
use super::agent::policy_factory;
use super::checkpoint::{Checkpoint, Progress};
use super::config::{DeviceChoice, Guidance, TrainConfig};
use super::durable::write_atomic;
pub use super::metrics_log::read_metrics;
use super::metrics_log::{draw_curve, resume_metrics, MetricsLog};
use super::model::{ModelConfig, OwnedNet, ParamSnapshot};
use super::opponents::OpponentMix;
use super::ppo::{self, gae, guidance_target, PpoParams, Samples, UpdateStats};
use super::selfplay::{run_worker, TrajectoryBatch, WorkerLinks, WorkerSetup};
use crate::arena::{self, ArenaConfig, BotSpec};
use crate::clock::{civil_utc, now_unix};

/// File names inside a run folder.
pub const CONFIG_FILE: &str = "config.json";
/// Checkpoint file name.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";
/// Metrics, one JSON object per line.
pub const METRICS_JSONL: &str = "metrics.jsonl";
/// Metrics as CSV.
pub const METRICS_CSV: &str = "metrics.csv";
/// The training curve.
pub const CURVE_PNG: &str = "curve.png";

/// `config.json`: the hyperparameters plus provenance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunInfo {
    /// All hyperparameters (the seed among them).
    pub config: TrainConfig,
    /// `git rev-parse HEAD` when the run started (`unknown` outside a repository).
    pub git_revision: String,
    /// The observation encoding version.
    pub encoding_version: u32,
    /// Start time, seconds since the Unix epoch.
    pub started_unix_s: u64,
}

/// One line of the metrics (one per update; evaluation columns only on evaluations).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricsRow {
    /// Updates done.
    pub update: u64,
    /// Samples trained on so far.
    pub samples: u64,
    /// Self-play hands finished so far.
    pub hands: u64,
    /// Training seconds so far.
    pub elapsed_s: f64,
    /// Samples per second over this update (gathering and training).
    pub samples_per_s: f64,
    /// Updates per second over this update.
    pub updates_per_s: f64,
    /// Seconds this update waited for self-play samples.
    pub wait_s: f64,
    /// Seconds of the PPO update itself.
    pub update_s: f64,
    /// Samples in this update.
    pub batch: u64,
    /// Trajectories dropped as too stale in this update.
    pub dropped: u64,
    /// Mean final reward per trajectory.
    pub mean_reward: f64,
    /// Clipped-surrogate loss.
    pub policy_loss: f64,
    /// Value loss.
    pub value_loss: f64,
    /// Entropy.
    pub entropy: f64,
    /// Approximate KL.
    pub approx_kl: f64,
    /// Clip fraction.
    pub clip_fraction: f64,
    /// Guidance cross-entropy.
    pub guidance_loss: f64,
    /// Guidance coefficient used.
    pub guidance_coef: f64,
    /// Gradient norm before clipping.
    pub grad_norm: f64,
    /// Policy win rate against two random bots (evaluations only).
    pub eval_random_win_rate: Option<f64>,
    /// Its 95% interval, low end.
    pub eval_random_low: Option<f64>,
    /// Points per hand against two random bots.
    pub eval_random_points: Option<f64>,
    /// Policy win rate against two efficiency bots.
    pub eval_eff_win_rate: Option<f64>,
    /// Its 95% interval, low end.
    pub eval_eff_low: Option<f64>,
    /// Points per hand against two efficiency bots.
    pub eval_eff_points: Option<f64>,
}

impl MetricsRow {
    pub(super) fn csv_header() -> &'static str {
        "update,samples,hands,elapsed_s,samples_per_s,updates_per_s,wait_s,update_s,batch,dropped,mean_reward,policy_loss,value_loss,\
         entropy,approx_kl,clip_fraction,guidance_loss,guidance_coef,grad_norm,eval_random_win_rate,eval_random_low,\
         eval_random_points,eval_eff_win_rate,eval_eff_low,eval_eff_points"
    }

    pub(super) fn csv(&self) -> String {
        let o = |x: Option<f64>| x.map(|v| format!("{v:.6}")).unwrap_or_default();
        format!(
            "{},{},{},{:.3},{:.2},{:.4},{:.3},{:.3},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{},{},{},{}",
            self.update,
            self.samples,
            self.hands,
            self.elapsed_s,
            self.samples_per_s,
            self.updates_per_s,
            self.wait_s,
            self.update_s,
            self.batch,
            self.dropped,
            self.mean_reward,
            self.policy_loss,
            self.value_loss,
            self.entropy,
            self.approx_kl,
            self.clip_fraction,
            self.guidance_loss,
            self.guidance_coef,
            self.grad_norm,
            o(self.eval_random_win_rate),
            o(self.eval_random_low),
            o(self.eval_random_points),
            o(self.eval_eff_win_rate),
            o(self.eval_eff_low),
            o(self.eval_eff_points)
        )
    }
}

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    /// The run folder.
    pub run_dir: PathBuf,
    /// Final progress.
    pub progress: Progress,
    /// Why it stopped.
    pub stop_reason: String,
    /// The last evaluation: (win rate against random bots, against efficiency bots).
    pub last_eval: Option<(f64, f64)>,
    /// Stopped by the interrupt flag (SIGINT / SIGTERM); `--resume` continues the run.
    pub interrupted: bool,
    /// The update whose evaluation the interrupt skipped or cut short (not recorded).
    pub skipped_eval: Option<u64>,
}

/// Evaluation of one snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Evaluation {
    /// Win rate against two random bots (mean, low, points per hand).
    pub random: (f64, f64, f64),
    /// Win rate against two efficiency bots (mean, low, points per hand).
    pub eff: (f64, f64, f64),
}

/// Plays `snapshot` (greedy) in the duplicate arena against `players − 1` random bots
/// and against `players − 1` efficiency bots.
pub fn evaluate(
    snapshot: Arc<ParamSnapshot>,
    rules: Rules,
    hands: u64,
    seed: u64,
    auto_win: bool,
) -> Result<Evaluation> {
    evaluate_until(
        snapshot,
        rules,
        hands,
        seed,
        auto_win,
        &AtomicBool::new(false),
    )?
    .ok_or_else(|| anyhow!("the evaluation was stopped"))
}

/// [`evaluate`] that gives up once `stop` is set: no new wall starts, and `None` says
/// that some wall was skipped (a partial evaluation would be biased, so none is made).
pub fn evaluate_until(
    snapshot: Arc<ParamSnapshot>,
    rules: Rules,
    hands: u64,
    seed: u64,
    auto_win: bool,
    stop: &AtomicBool,
) -> Result<Option<Evaluation>> {
    let factory = policy_factory(snapshot, auto_win);
    let mut out = [(0.0, 0.0, 0.0); 2];
    for (k, opp) in [BotSpec::Random, BotSpec::Efficiency]
        .into_iter()
        .enumerate()
    {
        let mut seats = vec![BotSpec::Custom];
        seats.resize(rules.players as usize, opp);
        let cfg = ArenaConfig {
            rules,
            seats,
            hands: hands.max(1),
            seed,
            duplicate: true,
        };
        let start = Instant::now();
        let walls = arena::play_walls(&cfg, Some(&*factory), &|| {}, stop)?;
        if walls.iter().any(|w| w.is_empty()) {
            return Ok(None);
        }
        let report = arena::ArenaReport::from_walls(&cfg, &walls, start.elapsed().as_secs_f64());
        let p = report
            .kind("policy")
            .ok_or_else(|| anyhow!("no policy entry in the arena report"))?;
        out[k] = (p.win_rate.mean, p.win_rate.low, p.points_per_hand.mean);
    }
    Ok(Some(Evaluation {
        random: out[0],
        eff: out[1],
    }))
}

use crate::git_revision;

fn default_id(seed: u64) -> String {
    let (y, m, d, hh, mm, ss) = civil_utc(now_unix());
    format!("{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}-seed{seed}")
}

/// Resolves the device choice.
pub fn device(choice: DeviceChoice) -> Result<Device> {
    Ok(match choice {
        DeviceChoice::Cpu => Device::Cpu,
        DeviceChoice::Auto => Device::cuda_if_available(),
        DeviceChoice::Cuda => {
            if !tch::Cuda::is_available() {
                bail!("--device cuda: no CUDA device is available to libtorch");
            }
            Device::Cuda(0)
        }
    })
}

/// The model shape of a configuration.
pub fn model_config(cfg: &TrainConfig) -> ModelConfig {
    ModelConfig {
        layers: cfg.layers,
        d_model: cfg.d_model,
        heads: cfg.heads,
        ff: cfg.ff,
    }
}

fn guidance_coef(cfg: &TrainConfig, update: u64) -> f64 {
    if cfg.guidance == Guidance::Off || cfg.guidance_updates == 0 {
        return 0.0;
    }
    cfg.guidance_coef * (1.0 - update as f64 / cfg.guidance_updates as f64).max(0.0)
}

/// Adds the trajectories of a batch to `s`; returns (trajectories kept, dropped, reward sum).
fn absorb(
    cfg: &TrainConfig,
    batch: &TrajectoryBatch,
    version: u64,
    s: &mut Samples,
) -> (u64, u64, f64) {
    let (mut kept, mut dropped, mut reward) = (0, 0, 0.0);
    let mut guide = [0f32; NUM_TILE_TYPES];
    for tr in &batch.trajectories {
        if tr.param_version + cfg.max_staleness < version
            || tr.steps.iter().any(|st| st.obs.len() != ENCODED_LEN)
        {
            dropped += 1;
            continue;
        }
        kept += 1;
        reward += tr.reward as f64;
        let n = tr.steps.len();
        let mut rewards = vec![0.0f32; n];
        if let Some(r) = rewards.last_mut() {
            *r = tr.reward;
        }
        let values: Vec<f32> = tr.steps.iter().map(|st| st.value).collect();
        let (adv, ret) = gae(&rewards, &values, cfg.gamma as f32, cfg.lambda as f32);
        for (i, st) in tr.steps.iter().enumerate() {
            let start = s.mask.len();
            s.mask
                .extend((0..NUM_ACTIONS).map(|a| ((st.legal[a / 64] >> (a % 64)) & 1) as f32));
            guidance_target(&st.obs, &s.mask[start..], &mut guide);
            s.guide.extend_from_slice(&guide);
            s.obs.extend_from_slice(&st.obs);
            s.action.push(st.action as i64);
            s.old_logp.push(st.logp);
            s.adv.push(adv[i]);
            s.ret.push(ret[i]);
        }
    }
    (kept, dropped, reward)
}

/// Trains according to `cfg` until the stop rule, a budget or `interrupt`.
pub fn train(cfg: TrainConfig, interrupt: &AtomicBool) -> Result<TrainOutcome> {
    // Settings that clap cannot check for a programmatic config: refused before a run
    // folder is made.
    OpponentMix::parse(&cfg.opponents)?;
    if !cfg.win_bonus.is_finite() {
        bail!("--win-bonus must be a finite number");
    }
    // Run folder and configuration (a resumed run keeps its saved hyperparameters).
    let (cfg, run_dir, checkpoint) = match &cfg.resume {
        Some(dir) => {
            let text = std::fs::read_to_string(dir.join(CONFIG_FILE))
                .with_context(|| format!("reading {}", dir.join(CONFIG_FILE).display()))?;
            let info: RunInfo = serde_json::from_str(&text).context("parsing config.json")?;
            if info.encoding_version != ENCODING_VERSION {
                bail!(
                    "the run used encoding version {}, this build {ENCODING_VERSION}",
                    info.encoding_version
                );
            }
            let mut saved = info.config;
            saved.max_updates = cfg.max_updates;
            saved.max_minutes = cfg.max_minutes;
            saved.device = cfg.device;
            saved.workers = cfg.workers;
            saved.quiet = cfg.quiet;
            let ck_path = dir.join(CHECKPOINT_FILE);
            // A run killed (SIGKILL, power loss) before its first checkpoint has none:
            // it starts over from update 0 with its saved configuration.
            let ck = if ck_path.exists() {
                Some(Checkpoint::load(&ck_path)?)
            } else {
                eprintln!(
                    "resume: {} holds no checkpoint yet (the run stopped before its first \
                     one); starting it from update 0",
                    dir.display()
                );
                None
            };
            (saved, dir.clone(), ck)
        }
        None => {
            let id = cfg.id.clone().unwrap_or_else(|| default_id(cfg.seed));
            let dir = cfg.runs.join(id);
            if dir.join(CHECKPOINT_FILE).exists() {
                bail!(
                    "{} already holds a run: use --resume {} or another --id",
                    dir.display(),
                    dir.display()
                );
            }
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            let info = RunInfo {
                config: cfg.clone(),
                git_revision: git_revision(),
                encoding_version: ENCODING_VERSION,
                started_unix_s: now_unix(),
            };
            write_atomic(
                &dir.join(CONFIG_FILE),
                (serde_json::to_string_pretty(&info)? + "\n").as_bytes(),
            )
            .context("writing config.json")?;
            (cfg, dir, None)
        }
    };
    let rules =
        Rules::preset(&cfg.rules).ok_or_else(|| anyhow!("unknown rules preset {:?}", cfg.rules))?;
    let model_cfg = model_config(&cfg);
    model_cfg.validate()?;
    if cfg.steps_per_update == 0 || cfg.minibatch == 0 {
        bail!("--steps-per-update and --minibatch must be positive");
    }
    let opponents = OpponentMix::parse(&cfg.opponents)?;
    if !cfg.win_bonus.is_finite() {
        bail!("--win-bonus must be a finite number");
    }
    let dev = device(cfg.device)?;
    tch::manual_seed(cfg.seed as i64);

    // Learner.
    let learner = OwnedNet::new(model_cfg, dev)?;
    let mut adam = Adam::new(&learner.vs, cfg.lr);
    let mut progress = Progress::default();
    if let Some(ck) = &checkpoint {
        if ck.params.model != model_cfg {
            bail!(
                "checkpoint model {:?} differs from the config's {:?}",
                ck.params.model,
                model_cfg
            );
        }
        ck.params.load_into(&learner.vs)?;
        adam.load_state(&ck.adam)?;
        progress = ck.progress.clone();
        progress.resumes += 1;
    }
    let mut rows = resume_metrics(&run_dir, progress.update)?;
    let mut files = MetricsLog::open(&run_dir)?;

    // Workers.
    let workers = if cfg.workers == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        cfg.workers
    };
    let stop = Arc::new(AtomicBool::new(false));
    let pause = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(cfg.replay_capacity.max(1));
    let mut param_txs = Vec::new();
    let mut handles = Vec::new();
    for w in 0..workers {
        let (ptx, prx) = mpsc::channel::<Arc<Vec<u8>>>();
        param_txs.push(ptx);
        let setup = WorkerSetup {
            id: w as u32,
            rules,
            model: model_cfg,
            tables: cfg.tables,
            seed: Rng::derive_seed(cfg.seed, 1_000 + w as u64 + 1_000 * progress.resumes),
            auto_win: cfg.auto_win,
            send_every: cfg.send_every,
            reward_scale: cfg.reward_scale as f32,
            win_bonus: cfg.win_bonus as f32,
            opponents,
            past_lag: cfg.past_lag,
        };
        let links = WorkerLinks {
            params: prx,
            out: tx.clone(),
            stop: stop.clone(),
            pause: pause.clone(),
        };
        handles.push(
            std::thread::Builder::new()
                .name(format!("selfplay-{w}"))
                .spawn(move || run_worker(setup, links))
                .context("spawning a worker")?,
        );
    }
    drop(tx);
    // The learner may use every core: workers block on the full replay channel while it
    // trains (each worker thread sets its own libtorch thread count to 1).
    tch::set_num_threads(workers.max(1) as i32);
    let push = |version: u64| -> Result<Arc<ParamSnapshot>> {
        let snap = Arc::new(ParamSnapshot::take(&learner.vs, model_cfg, version)?);
        let bytes = Arc::new(snap.to_bytes()?);
        for p in &param_txs {
            let _ = p.send(bytes.clone());
        }
        Ok(snap)
    };
    let mut snapshot = push(progress.update)?;

    let bar = if cfg.quiet {
        ProgressBar::hidden()
    } else if cfg.max_updates > 0 {
        ProgressBar::new(cfg.max_updates)
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:30} {pos}/{len} updates {elapsed_precise} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(progress.update);

    let session = Instant::now();
    let base_elapsed = progress.elapsed_s;
    let eval_seed = Rng::derive_seed(cfg.seed, 0xE7A1);
    let mut last_eval: Option<(f64, f64)> = rows
        .iter()
        .rev()
        .find_map(|r| Some((r.eval_random_win_rate?, r.eval_eff_win_rate?)));
    let mut stop_reason = String::new();
    let mut interrupted = false;
    let mut skipped_eval = None;
    let mut last_msg = String::new();
    let mut pending = Samples::default();
    let mut hands_pending = 0u64;
    let mut result: Result<()> = Ok(());
    'outer: loop {
        let elapsed = base_elapsed + session.elapsed().as_secs_f64();
        if cfg.max_updates > 0 && progress.update >= cfg.max_updates {
            stop_reason = format!("update budget ({})", cfg.max_updates);
            break;
        }
        if cfg.max_minutes > 0.0 && elapsed >= cfg.max_minutes * 60.0 {
            stop_reason = format!("time budget ({} min)", cfg.max_minutes);
            break;
        }
        if interrupt.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        // Gather one update's samples from the replay channel. An interrupt drops the
        // samples gathered so far (self-play is cheap to redo); it is checked before
        // every message, since busy workers keep the channel full and a check on
        // time-outs alone would wait for the whole gathering.
        let t0 = Instant::now();
        let (mut kept, mut dropped, mut reward) = (0u64, 0u64, 0.0f64);
        while pending.len() < cfg.steps_per_update {
            if interrupt.load(Ordering::Relaxed) {
                interrupted = true;
                break 'outer;
            }
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(bytes) => {
                    let batch = match TrajectoryBatch::from_bytes(&bytes) {
                        Ok(b) => b,
                        Err(e) => {
                            result = Err(e);
                            break 'outer;
                        }
                    };
                    hands_pending += batch.hands as u64;
                    let (k, d, r) = absorb(&cfg, &batch, progress.update, &mut pending);
                    kept += k;
                    dropped += d;
                    reward += r;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if handles.iter().all(|h| h.is_finished()) {
                        result = Err(anyhow!("all self-play workers ended"));
                        break 'outer;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    result = Err(anyhow!("all self-play workers ended"));
                    break 'outer;
                }
            }
        }
        // PPO update.
        let wait_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let coef = guidance_coef(&cfg, progress.update);
        let params = PpoParams {
            epochs: cfg.epochs,
            minibatch: cfg.minibatch,
            clip: cfg.clip,
            value_coef: cfg.value_coef,
            entropy_coef: cfg.entropy_coef,
            guidance_coef: coef,
            max_grad_norm: cfg.max_grad_norm,
        };
        let mut rng = Rng::new(Rng::derive_seed(cfg.seed, progress.update));
        let stats: UpdateStats =
            match ppo::update(&learner.net, &mut adam, &pending, &params, dev, &mut rng) {
                Ok(s) => s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
        let update_s = t1.elapsed().as_secs_f64();
        let batch = pending.len() as u64;
        pending = Samples::default();
        progress.update += 1;
        progress.samples += batch;
        progress.hands += hands_pending;
        hands_pending = 0;
        if progress.update % cfg.push_every.max(1) == 0 {
            snapshot = push(progress.update)?;
        }
        let dt = t0.elapsed().as_secs_f64().max(1e-9);
        let mut row = MetricsRow {
            update: progress.update,
            samples: progress.samples,
            hands: progress.hands,
            elapsed_s: base_elapsed + session.elapsed().as_secs_f64(),
            samples_per_s: batch as f64 / dt,
            updates_per_s: 1.0 / dt,
            wait_s,
            update_s,
            batch,
            dropped,
            mean_reward: if kept > 0 { reward / kept as f64 } else { 0.0 },
            policy_loss: stats.policy_loss,
            value_loss: stats.value_loss,
            entropy: stats.entropy,
            approx_kl: stats.approx_kl,
            clip_fraction: stats.clip_fraction,
            guidance_loss: stats.guidance_loss,
            guidance_coef: coef,
            grad_norm: stats.grad_norm,
            ..Default::default()
        };
        // Evaluation and the stop rule.
        let mut stop_now = false;
        let eval_due = cfg.eval_every > 0 && progress.update % cfg.eval_every == 0;
        let mut ev = None;
        if eval_due && !interrupt.load(Ordering::Relaxed) {
            if progress.update % cfg.push_every.max(1) != 0 {
                snapshot = push(progress.update)?;
            }
            pause.store(true, Ordering::Relaxed);
            let r = evaluate_until(
                snapshot.clone(),
                rules,
                cfg.eval_hands,
                eval_seed,
                cfg.auto_win,
                interrupt,
            );
            pause.store(false, Ordering::Relaxed);
            ev = r?;
        }
        if eval_due && ev.is_none() {
            // Interrupted: an evaluation can take minutes, so the stop does not wait
            // for it; a partial one would be biased, so nothing is recorded.
            skipped_eval = Some(progress.update);
            bar.suspend(|| {
                eprintln!(
                    "interrupt: evaluation at update {} skipped (not recorded)",
                    progress.update
                )
            });
        }
        if let Some(ev) = ev {
            progress.evals += 1;
            row.eval_random_win_rate = Some(ev.random.0);
            row.eval_random_low = Some(ev.random.1);
            row.eval_random_points = Some(ev.random.2);
            row.eval_eff_win_rate = Some(ev.eff.0);
            row.eval_eff_low = Some(ev.eff.1);
            row.eval_eff_points = Some(ev.eff.2);
            last_eval = Some((ev.random.0, ev.eff.0));
            if ev.random.0 >= cfg.win_rate_random && progress.first_random_pass.is_none() {
                progress.first_random_pass = Some(progress.update);
            }
            if ev.random.0 >= cfg.win_rate_random && ev.eff.0 >= cfg.win_rate_eff {
                progress.streak += 1;
            } else {
                progress.streak = 0;
            }
            if cfg.stop_after > 0 && progress.streak >= cfg.stop_after {
                stop_reason = format!(
                    "win rates above the thresholds for {} evaluations",
                    progress.streak
                );
                stop_now = true;
            }
            last_msg = format!("eval: vs random {:.3}, vs eff {:.3}", ev.random.0, ev.eff.0);
        }
        progress.elapsed_s = base_elapsed + session.elapsed().as_secs_f64();
        files.write(&row)?;
        rows.push(row.clone());
        bar.set_position(progress.update);
        bar.set_message(format!("{:.0} samples/s  {last_msg}", row.samples_per_s));
        if row.eval_random_win_rate.is_some() {
            draw_curve(&run_dir, &rows, &cfg)?;
        }
        if cfg.checkpoint_every > 0 && progress.update % cfg.checkpoint_every == 0 {
            files.sync()?;
            save(&learner, model_cfg, &adam, &progress, &run_dir)?;
        }
        if stop_now {
            break;
        }
    }
    if interrupted {
        stop_reason = "interrupted (SIGINT/SIGTERM)".into();
        bar.suspend(|| {
            eprintln!(
                "interrupt: stopping after update {}; writing the checkpoint, metrics and \
                 curve (a second signal exits at once, keeping the last checkpoint)",
                progress.update
            )
        });
    }
    stop.store(true, Ordering::Relaxed);
    pause.store(false, Ordering::Relaxed);
    drop(rx);
    let mut worker_error = None;
    for h in handles {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => worker_error = Some(e),
            Err(_) => worker_error = Some(anyhow!("a self-play worker panicked")),
        }
    }
    result?;
    if let Some(e) = worker_error {
        return Err(e.context("self-play worker failed"));
    }
    progress.elapsed_s = base_elapsed + session.elapsed().as_secs_f64();
    files.sync()?;
    save(&learner, model_cfg, &adam, &progress, &run_dir)?;
    if !rows.is_empty() {
        draw_curve(&run_dir, &rows, &cfg)?;
    }
    bar.finish_and_clear();
    Ok(TrainOutcome {
        run_dir,
        progress,
        stop_reason,
        last_eval,
        interrupted,
        skipped_eval,
    })
}

fn save(
    learner: &OwnedNet,
    model: ModelConfig,
    adam: &Adam,
    progress: &Progress,
    dir: &Path,
) -> Result<()> {
    let ck = Checkpoint {
        params: ParamSnapshot::take(&learner.vs, model, progress.update)?,
        adam: adam.state()?,
        progress: progress.clone(),
    };
    ck.save(&dir.join(CHECKPOINT_FILE))
}
