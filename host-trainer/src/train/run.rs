//! The training loop, top to bottom (after cleanrl's ppo.py): open the run folder,
//! build the learner (from the checkpoint when resuming), start the workers and push
//! the parameters; then, per update, check the budgets → **collect** one update's
//! samples → **PPO update** → push the parameters → **evaluate** (every `--eval-every`)
//! and apply the stop rule → **log** the metrics row → **checkpoint** (every
//! `--checkpoint-every`); finally stop the workers and write the last checkpoint, the
//! metrics and the curve. Each phase is a function below; the run folder is
//! [`super::folder`], the settings [`super::setup`], the workers [`super::workers`]
//! (advantages: [`super::advantages`]), the PPO update [`super::learner`] (its
//! schedules: [`super::schedule`]), the evaluation [`super::evaluation`], the metrics
//! [`super::metrics_row`] and [`super::metrics_log`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Result};
use engine::Rules;
use indicatif::{ProgressBar, ProgressStyle};

use super::checkpoint::Progress;
use super::config::TrainConfig;
use super::evaluation::{eval_seed, stop_rule};
pub use super::evaluation::{evaluate, evaluate_until, Evaluation};
use super::folder::{open_run, RunFolder};
pub use super::folder::{RunInfo, CHECKPOINT_FILE, CONFIG_FILE};
use super::learner::Learner;
pub use super::metrics_log::read_metrics;
use super::metrics_log::{draw_curve, resume_metrics, MetricsLog};
pub use super::metrics_row::{MetricsRow, CURVE_PNG, METRICS_CSV, METRICS_JSONL};
use super::model::ParamSnapshot;
use super::opponents::OpponentMix;
use super::ppo::UpdateStats;
use super::setup::check_settings;
pub use super::setup::{cores, device, model_config};
use super::workers::{Collected, Workers};

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
