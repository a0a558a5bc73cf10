//! The training loop, top to bottom (after cleanrl's ppo.py): open the run folder,
//! build the learner (from the checkpoint when resuming), start the workers and push
//! the parameters; then, per update, check the budgets → **collect** one update's
//! samples → **PPO update** → push the parameters → **evaluate** (every `--eval-every`)
//! and apply the stop rule → **log** the metrics row → **checkpoint** (every
//! `--checkpoint-every`); finally stop the workers and write the last checkpoint, the
//! metrics and the curve. Each phase is a function below; the run folder is
//! [`super::folder`], the workers [`super::workers`], the evaluation
//! [`super::evaluation`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use engine::rng::Rng;
use engine::tile::TileSet;
use engine::Rules;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use tch::Device;

use super::adam::Adam;
use super::checkpoint::{Checkpoint, Progress};
use super::config::{DeviceChoice, Guidance, LrSchedule, Teacher, Tokens, TrainConfig};
use super::evaluation::{eval_seed, stop_rule};
pub use super::evaluation::{evaluate, evaluate_until, Evaluation};
use super::folder::{open_run, save, RunFolder};
pub use super::folder::{RunInfo, CHECKPOINT_FILE, CONFIG_FILE};
pub use super::metrics_log::read_metrics;
use super::metrics_log::{draw_curve, resume_metrics, MetricsLog};
use super::model::{ModelConfig, OwnedNet, ParamSnapshot};
use super::opponents::OpponentMix;
use super::oracle::OracleCritic;
use super::ppo::{self, gae, PpoParams, UpdateStats};
use super::workers::{Collected, Workers};

/// Metrics, one JSON object per line.
pub const METRICS_JSONL: &str = "metrics.jsonl";
/// Metrics as CSV.
pub const METRICS_CSV: &str = "metrics.csv";
/// The training curve.
pub const CURVE_PNG: &str = "curve.png";

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
    /// Epochs run (fewer than `--epochs` when `--target-kl` stopped them).
    #[serde(default)]
    pub epochs: f64,
    /// The learning rate of the update.
    #[serde(default)]
    pub lr: f64,
    /// Explained variance of the returns by the behaviour policy's values,
    /// `1 − Var(R − V) / Var(R)` over the update's samples.
    #[serde(default)]
    pub explained_variance: f64,
    /// Share of the guided samples whose greedy action is the teacher's (see
    /// `UpdateStats::guidance_agreement`).
    #[serde(default)]
    pub guidance_agreement: f64,
    /// With `--oracle-critic`: the oracle critic's explained variance of the hands'
    /// Monte-Carlo returns, before it is fitted to them.
    #[serde(default)]
    pub oracle_explained_variance: Option<f64>,
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
    /// Points per hand minus the efficiency bot's in the same seats on the same walls.
    #[serde(default)]
    pub eval_paired_points: Option<f64>,
    /// Its 95 % interval, low end.
    #[serde(default)]
    pub eval_paired_points_low: Option<f64>,
    /// Its 95 % interval, high end.
    #[serde(default)]
    pub eval_paired_points_high: Option<f64>,
    /// Win rate minus the efficiency bot's in the same seats on the same walls.
    #[serde(default)]
    pub eval_paired_win_rate: Option<f64>,
}

impl MetricsRow {
    pub(super) fn csv_header() -> &'static str {
        "update,samples,hands,elapsed_s,samples_per_s,updates_per_s,wait_s,update_s,batch,dropped,mean_reward,policy_loss,value_loss,\
         entropy,approx_kl,clip_fraction,guidance_loss,guidance_coef,grad_norm,epochs,lr,explained_variance,guidance_agreement,oracle_explained_variance,eval_random_win_rate,eval_random_low,\
         eval_random_points,eval_eff_win_rate,eval_eff_low,eval_eff_points,eval_paired_points,\
         eval_paired_points_low,eval_paired_points_high,eval_paired_win_rate"
    }

    pub(super) fn csv(&self) -> String {
        let o = |x: Option<f64>| x.map(|v| format!("{v:.6}")).unwrap_or_default();
        format!(
            "{},{},{},{:.3},{:.2},{:.4},{:.3},{:.3},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.2},{:.3e},{:.6},{:.6},{},{},{},{},{},{},{},{},{},{},{}",
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
            self.epochs,
            self.lr,
            self.explained_variance,
            self.guidance_agreement,
            o(self.oracle_explained_variance),
            o(self.eval_random_win_rate),
            o(self.eval_random_low),
            o(self.eval_random_points),
            o(self.eval_eff_win_rate),
            o(self.eval_eff_low),
            o(self.eval_eff_points),
            o(self.eval_paired_points),
            o(self.eval_paired_points_low),
            o(self.eval_paired_points_high),
            o(self.eval_paired_win_rate)
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

/// The cores this process may use (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The model shape of a configuration.
pub fn model_config(cfg: &TrainConfig) -> ModelConfig {
    let tokens = match (cfg.tokens, Rules::preset(&cfg.rules)) {
        (Tokens::Rules, Some(rules)) => rules.tile_set,
        _ => TileSet::FourPlayer,
    };
    ModelConfig {
        layers: cfg.layers,
        d_model: cfg.d_model,
        heads: cfg.heads,
        ff: cfg.ff,
        tokens,
    }
}

/// `1 − Var(R − V) / Var(R)` from the returns `R` and the raw advantages `R − V`
/// (0 when the returns do not vary).
fn explained_variance(ret: &[f32], adv: &[f32]) -> f64 {
    let var = |x: &mut dyn Iterator<Item = f64>| {
        let v: Vec<f64> = x.collect();
        let n = v.len().max(1) as f64;
        let mean = v.iter().sum::<f64>() / n;
        v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / n
    };
    let vr = var(&mut ret.iter().map(|&x| x as f64));
    if vr <= 0.0 {
        return 0.0;
    }
    1.0 - var(&mut adv.iter().map(|&x| x as f64)) / vr
}

/// The learning rate of update `update` (from 0) under `--lr-schedule`.
fn learning_rate(cfg: &TrainConfig, update: u64) -> f64 {
    match cfg.lr_schedule {
        LrSchedule::Linear if cfg.max_updates > 0 => {
            cfg.lr * (1.0 - update as f64 / cfg.max_updates as f64).max(0.0)
        }
        _ => cfg.lr,
    }
}

fn guidance_coef(cfg: &TrainConfig, update: u64) -> f64 {
    if cfg.guidance == Guidance::Off {
        return 0.0;
    }
    let floor = cfg.guidance_floor.clamp(0.0, cfg.guidance_coef.max(0.0));
    if cfg.guidance_updates == 0 {
        return floor;
    }
    let annealed = cfg.guidance_coef * (1.0 - update as f64 / cfg.guidance_updates as f64);
    annealed.max(floor)
}

/// Trains according to `cfg` until the stop rule, a budget or `interrupt` (see the
/// module docs for the phases).
pub fn train(cfg: TrainConfig, interrupt: &AtomicBool) -> Result<TrainOutcome> {
    check_settings(&cfg)?;
    let RunFolder {
        mut cfg,
        dir,
        checkpoint,
    } = open_run(cfg)?;
    cfg.run_dir = Some(dir.clone());
    let rules =
        Rules::preset(&cfg.rules).ok_or_else(|| anyhow!("unknown rules preset {:?}", cfg.rules))?;
    let opponents = OpponentMix::parse(&cfg.opponents)?;
    let model = model_config(&cfg);
    model.validate()?;
    let dev = device(cfg.device)?;
    tch::manual_seed(cfg.seed as i64);
    let learner = Learner::new(&cfg, model, dev, checkpoint.as_ref())?;
    let rows = resume_metrics(&dir, learner.progress.update)?;
    let files = MetricsLog::open(&dir)?;
    let workers = Workers::spawn(&cfg, rules, model, learner.progress.resumes, opponents)?;
    // The learner may use every core: workers block on the full replay channel while it
    // trains (each worker thread sets its own libtorch thread count to 1).
    let learner_threads = match cfg.learner_threads {
        0 => cores(),
        n => n,
    };
    tch::set_num_threads(learner_threads as i32);
    let encoding = learner.net.net.encoding;
    let snapshot = workers.push(&learner.net.vs, model, encoding, learner.progress.update)?;
    let mut run = Run {
        bar: progress_bar(&cfg, learner.progress.update),
        session: Instant::now(),
        base_elapsed: learner.progress.elapsed_s,
        last_eval: rows
            .iter()
            .rev()
            .find_map(|r| Some((r.eval_random_win_rate?, r.eval_eff_win_rate?))),
        last_msg: String::new(),
        skipped_eval: None,
        cfg,
        rules,
        dir,
        learner,
        rows,
        files,
        snapshot,
    };
    let end = run.run_loop(&workers, interrupt);
    if matches!(end, Ok(LoopEnd::Interrupted)) {
        run.bar.suspend(|| {
            eprintln!(
                "interrupt: stopping after update {}; writing the checkpoint, metrics and \
                 curve (a second signal exits at once, keeping the last checkpoint)",
                run.learner.progress.update
            )
        });
    }
    let stopped = workers.shutdown();
    let end = end?;
    stopped?;
    run.finish(end)
}

/// Settings that clap cannot check for a programmatic config: refused before a run
/// folder is made.
fn check_settings(cfg: &TrainConfig) -> Result<()> {
    OpponentMix::parse(&cfg.opponents)?;
    if !cfg.win_bonus.is_finite() {
        bail!("--win-bonus must be a finite number");
    }
    if !(cfg.target_kl.is_finite() && cfg.target_kl >= 0.0) {
        bail!("--target-kl must be a non-negative number (0 = off)");
    }
    if !(cfg.guidance_floor.is_finite() && cfg.guidance_floor >= 0.0) {
        bail!("--guidance-floor must be a non-negative number");
    }
    if cfg.teacher == Teacher::Search {
        if !(cfg.search_fraction > 0.0 && cfg.search_fraction <= 1.0) {
            bail!("--search-fraction must be in (0, 1] with --teacher search");
        }
        if cfg.search_rollouts == 0 || cfg.search_rollouts > 100_000 {
            bail!("--search-rollouts must be in 1..=100000");
        }
        if !(cfg.search_temperature.is_finite() && cfg.search_temperature > 0.0) {
            bail!("--search-temperature must be a positive number");
        }
    }
    if cfg.steps_per_update == 0 || cfg.minibatch == 0 {
        bail!("--steps-per-update and --minibatch must be positive");
    }
    Ok(())
}

fn progress_bar(cfg: &TrainConfig, position: u64) -> ProgressBar {
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
    bar.set_position(position);
    bar
}

/// The network, its optimizer and the run's progress.
struct Learner {
    net: OwnedNet,
    adam: Adam,
    oracle: Option<OracleCritic>,
    progress: Progress,
    model: ModelConfig,
    dev: Device,
}

impl Learner {
    fn new(
        cfg: &TrainConfig,
        model: ModelConfig,
        dev: Device,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<Learner> {
        let net = OwnedNet::new(model, cfg.encoding(), dev)?;
        let mut adam = Adam::new(&net.vs, cfg.lr);
        let mut progress = Progress::default();
        if let Some(ck) = checkpoint {
            if ck.params.model != model {
                bail!(
                    "checkpoint model {:?} differs from the config's {:?}",
                    ck.params.model,
                    model
                );
            }
            ck.params.load_into(&net.vs, net.net.encoding)?;
            adam.load_state(&ck.adam)?;
            progress = ck.progress.clone();
            progress.resumes += 1;
        }
        let oracle = if cfg.oracle_critic {
            let saved = checkpoint.and_then(|c| c.oracle.as_ref());
            Some(OracleCritic::new(dev, cfg.lr, cfg.encoding(), saved)?)
        } else {
            None
        };
        Ok(Learner {
            net,
            adam,
            oracle,
            progress,
            model,
            dev,
        })
    }

    /// One PPO update on `c`'s samples (their advantages first recomputed with the
    /// oracle critic's values when there is one, which is then fitted to the returns);
    /// counts it in the progress. Returns the statistics, the guidance coefficient used,
    /// the update's seconds and the explained variances.
    fn update(&mut self, cfg: &TrainConfig, c: &mut Collected) -> Result<Updated> {
        let start = Instant::now();
        let behaviour_ev = explained_variance(&c.samples.ret, &c.samples.adv);
        let mut rng = Rng::new(Rng::derive_seed(cfg.seed, self.progress.update));
        let oracle_ev = match &self.oracle {
            Some(o) => Some(oracle_advantages(o, cfg, c)?),
            None => None,
        };
        let coef = guidance_coef(cfg, self.progress.update);
        let params = PpoParams {
            epochs: cfg.epochs,
            minibatch: cfg.minibatch,
            clip: cfg.clip,
            value_coef: cfg.value_coef,
            entropy_coef: cfg.entropy_coef,
            guidance_coef: coef,
            max_grad_norm: cfg.max_grad_norm,
            target_kl: (cfg.target_kl > 0.0).then_some(cfg.target_kl),
        };
        self.adam.lr = learning_rate(cfg, self.progress.update);
        let stats = ppo::update(
            &self.net.net,
            &mut self.adam,
            &c.samples,
            &params,
            self.dev,
            &mut rng,
        )?;
        if let Some(o) = self.oracle.as_mut() {
            let s = &c.samples;
            o.fit(
                &s.obs,
                &s.hidden,
                &monte_carlo_returns(cfg, c),
                cfg.minibatch,
                &mut rng,
            )?;
        }
        self.progress.update += 1;
        self.progress.samples += c.samples.len() as u64;
        self.progress.hands += c.hands;
        Ok(Updated {
            stats,
            coef,
            seconds: start.elapsed().as_secs_f64(),
            explained_variance: behaviour_ev,
            oracle_explained_variance: oracle_ev,
        })
    }
}

impl Learner {
    /// Writes the checkpoint of the learner's current state into the run folder.
    fn save(&self, dir: &std::path::Path) -> Result<()> {
        save(
            &self.net,
            self.model,
            &self.adam,
            &self.progress,
            self.oracle.as_ref(),
            dir,
        )
    }
}

/// What one PPO update reports.
struct Updated {
    stats: UpdateStats,
    /// The guidance coefficient used.
    coef: f64,
    seconds: f64,
    /// Of the λ-returns by the behaviour policy's values.
    explained_variance: f64,
    /// Of the Monte-Carlo returns by the oracle critic (before its fit).
    oracle_explained_variance: Option<f64>,
}

/// Each sample's Monte-Carlo return: the hand's final reward discounted to the sample
/// (γ = 1 by default: the reward itself).
fn monte_carlo_returns(cfg: &TrainConfig, c: &Collected) -> Vec<f32> {
    let mut g = vec![0f32; c.samples.len()];
    for &(start, n, reward) in &c.segments {
        for i in 0..n {
            g[start + i] = reward * (cfg.gamma as f32).powi((n - 1 - i) as i32);
        }
    }
    g
}

/// Recomputes `c`'s advantages and returns by GAE with the oracle critic's values;
/// returns the critic's explained variance of the Monte-Carlo returns.
fn oracle_advantages(oracle: &OracleCritic, cfg: &TrainConfig, c: &mut Collected) -> Result<f64> {
    let values = oracle.values(&c.samples.obs, &c.samples.hidden, 1024)?;
    let g = monte_carlo_returns(cfg, c);
    let residual: Vec<f32> = g.iter().zip(&values).map(|(g, v)| g - v).collect();
    for &(start, n, reward) in &c.segments {
        let mut rewards = vec![0f32; n];
        if let Some(r) = rewards.last_mut() {
            *r = reward;
        }
        let (adv, ret) = gae(
            &rewards,
            &values[start..start + n],
            cfg.gamma as f32,
            cfg.lambda as f32,
        );
        c.samples.adv[start..start + n].copy_from_slice(&adv);
        c.samples.ret[start..start + n].copy_from_slice(&ret);
    }
    Ok(explained_variance(&g, &residual))
}

/// How the loop ended.
enum LoopEnd {
    /// A budget or the stop rule, with the reason.
    Stopped(String),
    /// The interrupt flag.
    Interrupted,
}

/// The state of a run between updates.
struct Run {
    cfg: TrainConfig,
    rules: Rules,
    dir: PathBuf,
    learner: Learner,
    /// Every metrics row of the run so far (the curve is drawn from them).
    rows: Vec<MetricsRow>,
    files: MetricsLog,
    /// The parameters last pushed (what an evaluation plays).
    snapshot: Arc<ParamSnapshot>,
    bar: ProgressBar,
    session: Instant,
    /// Training seconds of earlier sessions.
    base_elapsed: f64,
    last_eval: Option<(f64, f64)>,
    last_msg: String,
    skipped_eval: Option<u64>,
}

impl Run {
    fn elapsed(&self) -> f64 {
        self.base_elapsed + self.session.elapsed().as_secs_f64()
    }

    fn run_loop(&mut self, workers: &Workers, interrupt: &AtomicBool) -> Result<LoopEnd> {
        loop {
            if let Some(reason) = self.budget_reached() {
                return Ok(LoopEnd::Stopped(reason));
            }
            if interrupt.load(Ordering::Relaxed) {
                return Ok(LoopEnd::Interrupted);
            }
            let start = Instant::now();
            let update = self.learner.progress.update;
            let Some(collected) = workers.collect(&self.cfg, update, interrupt)? else {
                return Ok(LoopEnd::Interrupted);
            };
            let mut collected = collected;
            let up = self.learner.update(&self.cfg, &mut collected)?;
            if self.learner.progress.update % self.cfg.push_every.max(1) == 0 {
                self.push(workers)?;
            }
            let mut row = self.row(&collected, &up.stats, up.coef, up.seconds, start);
            row.explained_variance = up.explained_variance;
            row.oracle_explained_variance = up.oracle_explained_variance;
            let stop = self.evaluate(workers, interrupt, &mut row)?;
            self.log(row)?;
            self.checkpoint()?;
            if let Some(reason) = stop {
                return Ok(LoopEnd::Stopped(reason));
            }
        }
    }

    fn budget_reached(&self) -> Option<String> {
        let cfg = &self.cfg;
        if cfg.max_updates > 0 && self.learner.progress.update >= cfg.max_updates {
            return Some(format!("update budget ({})", cfg.max_updates));
        }
        if cfg.max_minutes > 0.0 && self.elapsed() >= cfg.max_minutes * 60.0 {
            return Some(format!("time budget ({} min)", cfg.max_minutes));
        }
        None
    }

    fn push(&mut self, workers: &Workers) -> Result<()> {
        let l = &self.learner;
        self.snapshot = workers.push(&l.net.vs, l.model, l.net.net.encoding, l.progress.update)?;
        Ok(())
    }

    fn row(
        &self,
        c: &Collected,
        stats: &UpdateStats,
        coef: f64,
        update_s: f64,
        start: Instant,
    ) -> MetricsRow {
        let p = &self.learner.progress;
        let batch = c.samples.len() as u64;
        let dt = start.elapsed().as_secs_f64().max(1e-9);
        MetricsRow {
            update: p.update,
            samples: p.samples,
            hands: p.hands,
            elapsed_s: self.elapsed(),
            samples_per_s: batch as f64 / dt,
            updates_per_s: 1.0 / dt,
            wait_s: c.wait_s,
            update_s,
            batch,
            dropped: c.dropped,
            mean_reward: if c.kept > 0 {
                c.reward / c.kept as f64
            } else {
                0.0
            },
            policy_loss: stats.policy_loss,
            value_loss: stats.value_loss,
            entropy: stats.entropy,
            approx_kl: stats.approx_kl,
            clip_fraction: stats.clip_fraction,
            guidance_loss: stats.guidance_loss,
            guidance_coef: coef,
            grad_norm: stats.grad_norm,
            epochs: stats.epochs,
            lr: self.learner.adam.lr,
            guidance_agreement: stats.guidance_agreement,
            ..Default::default()
        }
    }

    /// The evaluation when one is due (workers paused), recorded in `row`; the stop
    /// rule's reason to stop, if any. An interrupt skips (or cuts short) a due
    /// evaluation: it can take minutes, so the stop does not wait for it, and a partial
    /// one would be biased, so nothing is recorded.
    fn evaluate(
        &mut self,
        workers: &Workers,
        interrupt: &AtomicBool,
        row: &mut MetricsRow,
    ) -> Result<Option<String>> {
        let update = self.learner.progress.update;
        if self.cfg.eval_every == 0 || update % self.cfg.eval_every != 0 {
            return Ok(None);
        }
        let mut ev = None;
        if !interrupt.load(Ordering::Relaxed) {
            if update % self.cfg.push_every.max(1) != 0 {
                self.push(workers)?;
            }
            workers.pause.store(true, Ordering::Relaxed);
            let seed = eval_seed(
                self.cfg.seed,
                self.cfg.eval_walls,
                self.learner.progress.evals,
            );
            let r = evaluate_until(
                self.snapshot.clone(),
                self.rules,
                self.cfg.eval_hands,
                seed,
                self.cfg.auto_win,
                interrupt,
            );
            workers.pause.store(false, Ordering::Relaxed);
            ev = r?;
        }
        let Some(ev) = ev else {
            self.skipped_eval = Some(update);
            self.bar.suspend(|| {
                eprintln!("interrupt: evaluation at update {update} skipped (not recorded)")
            });
            return Ok(None);
        };
        row.eval_random_win_rate = Some(ev.random.0);
        row.eval_random_low = Some(ev.random.1);
        row.eval_random_points = Some(ev.random.2);
        row.eval_eff_win_rate = Some(ev.eff.0);
        row.eval_eff_low = Some(ev.eff.1);
        row.eval_eff_points = Some(ev.eff.2);
        row.eval_paired_points = Some(ev.paired_points.0);
        row.eval_paired_points_low = Some(ev.paired_points.1);
        row.eval_paired_points_high = Some(ev.paired_points.2);
        row.eval_paired_win_rate = Some(ev.paired_win_rate);
        self.last_eval = Some((ev.random.0, ev.eff.0));
        self.last_msg = format!("eval: vs random {:.3}, vs eff {:.3}", ev.random.0, ev.eff.0);
        Ok(stop_rule(&mut self.learner.progress, &self.cfg, &ev))
    }

    /// Writes the row (one write per file), redraws the curve after an evaluation.
    fn log(&mut self, row: MetricsRow) -> Result<()> {
        self.learner.progress.elapsed_s = self.elapsed();
        self.files.write(&row)?;
        self.bar.set_position(self.learner.progress.update);
        self.bar.set_message(format!(
            "{:.0} samples/s  {}",
            row.samples_per_s, self.last_msg
        ));
        let evaluated = row.eval_random_win_rate.is_some();
        self.rows.push(row);
        if evaluated {
            draw_curve(&self.dir, &self.rows, &self.cfg)?;
        }
        Ok(())
    }

    fn checkpoint(&mut self) -> Result<()> {
        let every = self.cfg.checkpoint_every;
        if every > 0 && self.learner.progress.update % every == 0 {
            self.files.sync()?;
            self.learner.save(&self.dir)?;
        }
        Ok(())
    }

    /// The last checkpoint, metrics and curve; the outcome.
    fn finish(mut self, end: LoopEnd) -> Result<TrainOutcome> {
        self.learner.progress.elapsed_s = self.elapsed();
        self.files.sync()?;
        self.learner.save(&self.dir)?;
        if !self.rows.is_empty() {
            draw_curve(&self.dir, &self.rows, &self.cfg)?;
        }
        self.bar.finish_and_clear();
        let (stop_reason, interrupted) = match end {
            LoopEnd::Stopped(reason) => (reason, false),
            LoopEnd::Interrupted => ("interrupted (SIGINT/SIGTERM)".to_string(), true),
        };
        Ok(TrainOutcome {
            run_dir: self.dir,
            progress: self.learner.progress,
            stop_reason,
            last_eval: self.last_eval,
            interrupted,
            skipped_eval: self.skipped_eval,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn learning_rate_schedules() {
        let lin = TrainConfig::parse_from([
            "train",
            "--lr",
            "0.01",
            "--lr-schedule",
            "linear",
            "--max-updates",
            "4",
        ]);
        let lrs: Vec<f64> = (0..5).map(|u| learning_rate(&lin, u)).collect();
        assert_eq!(lrs, vec![0.01, 0.0075, 0.005, 0.0025, 0.0]);
        let unbounded =
            TrainConfig::parse_from(["train", "--lr", "0.01", "--lr-schedule", "linear"]);
        assert_eq!(learning_rate(&unbounded, 1000), 0.01, "no budget: constant");
        assert_eq!(learning_rate(&TrainConfig::default(), 7), 3e-4);
    }

    #[test]
    fn explained_variance_of_perfect_useless_and_constant_values() {
        let ret = [1.0f32, 2.0, 3.0, 4.0];
        assert_eq!(explained_variance(&ret, &[0.0; 4]), 1.0, "V = R");
        // V = mean(R): the residuals vary as much as R.
        let adv: Vec<f32> = ret.iter().map(|r| r - 2.5).collect();
        assert!(explained_variance(&ret, &adv).abs() < 1e-12);
        assert_eq!(explained_variance(&[2.0; 3], &[1.0; 3]), 0.0);
    }

    #[test]
    fn guidance_anneals_to_its_floor_and_stays() {
        let cfg = TrainConfig::parse_from([
            "train",
            "--guidance-coef",
            "1.0",
            "--guidance-updates",
            "10",
            "--guidance-floor",
            "0.2",
        ]);
        assert_eq!(guidance_coef(&cfg, 0), 1.0);
        assert!((guidance_coef(&cfg, 5) - 0.5).abs() < 1e-12);
        assert_eq!(guidance_coef(&cfg, 9), 0.2);
        assert_eq!(guidance_coef(&cfg, 1000), 0.2);
        let no_floor = TrainConfig::parse_from(["train", "--guidance-updates", "10"]);
        assert_eq!(guidance_coef(&no_floor, 10), 0.0);
        let off = TrainConfig::parse_from(["train", "--guidance", "off", "--guidance-floor", "1"]);
        assert_eq!(guidance_coef(&off, 0), 0.0);
        let zero = TrainConfig::parse_from([
            "train",
            "--guidance-updates",
            "0",
            "--guidance-floor",
            "0.3",
        ]);
        assert_eq!(guidance_coef(&zero, 0), 0.3);
    }

    #[test]
    fn old_configs_build_all_token_models_and_new_ones_the_rules_tiles() {
        // A config.json written before --tokens existed: the model it resumes has all
        // 34 tile tokens.
        let old: TrainConfig = serde_json::from_str(r#"{"rules": "sanma"}"#).unwrap();
        assert_eq!(old.tokens, Tokens::All);
        // Likewise before --teacher: the value scores; a new run imitates the bot.
        assert_eq!(old.teacher, super::Teacher::ValueScores);
        assert_eq!(TrainConfig::default().teacher, super::Teacher::Eff);
        assert_eq!(model_config(&old).tokens, TileSet::FourPlayer);
        let new = TrainConfig::default();
        assert_eq!(new.tokens, Tokens::Rules);
        assert_eq!(model_config(&new).tokens, TileSet::Sanma);
        let four = TrainConfig {
            rules: "four-player".into(),
            ..TrainConfig::default()
        };
        assert_eq!(model_config(&four).tokens, TileSet::FourPlayer);
    }
}
