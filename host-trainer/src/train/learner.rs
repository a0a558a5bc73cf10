//! The learner: the network, its optimizer, the oracle critic and the run's progress,
//! built fresh or from the checkpoint of a resumed run; its PPO update on one update's
//! samples and its checkpoint.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine::rng::Rng;
use tch::Device;

use super::adam::Adam;
use super::advantages::{explained_variance, fill_advantages, monte_carlo_returns};
use super::checkpoint::{Checkpoint, Progress};
use super::config::TrainConfig;
use super::folder::save;
use super::model::{ModelConfig, OwnedNet};
use super::oracle::OracleCritic;
use super::ppo::{self, PpoParams, UpdateStats};
use super::schedule::{guidance_coef, learning_rate};
use super::workers::Collected;

/// The network, its optimizer and the run's progress.
pub(super) struct Learner {
    pub(super) net: OwnedNet,
    pub(super) adam: Adam,
    oracle: Option<OracleCritic>,
    pub(super) progress: Progress,
    pub(super) model: ModelConfig,
    dev: Device,
}

impl Learner {
    /// A fresh learner, or the state of `checkpoint` (its resume counted) when resuming.
    pub(super) fn new(
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
        } else if let Some(path) = &cfg.init_from {
            let file = if path.is_dir() {
                path.join(super::folder::CHECKPOINT_FILE)
            } else {
                path.clone()
            };
            let ck = Checkpoint::load(&file)
                .with_context(|| format!("--init-from {}", file.display()))?;
            if ck.params.model != model {
                bail!(
                    "--init-from {}: its model {:?} differs from this run's {:?} (give the \
                     same --layers, --d-model, --heads, --ff and --tokens, e.g. with --config \
                     <its run>/config.json)",
                    file.display(),
                    ck.params.model,
                    model
                );
            }
            ck.params.load_into(&net.vs, net.net.encoding)?;
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
    pub(super) fn update(&mut self, cfg: &TrainConfig, c: &mut Collected) -> Result<Updated> {
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
                &monte_carlo_returns(s.len(), &c.segments, cfg.gamma),
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

    /// Writes the checkpoint of the learner's current state into the run folder.
    pub(super) fn save(&self, dir: &Path) -> Result<()> {
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
pub(super) struct Updated {
    pub(super) stats: UpdateStats,
    /// The guidance coefficient used.
    pub(super) coef: f64,
    pub(super) seconds: f64,
    /// Of the λ-returns by the behaviour policy's values.
    pub(super) explained_variance: f64,
    /// Of the Monte-Carlo returns by the oracle critic (before its fit).
    pub(super) oracle_explained_variance: Option<f64>,
}

/// Recomputes `c`'s advantages and returns by GAE with the oracle critic's values;
/// returns the critic's explained variance of the Monte-Carlo returns.
fn oracle_advantages(oracle: &OracleCritic, cfg: &TrainConfig, c: &mut Collected) -> Result<f64> {
    let values = oracle.values(&c.samples.obs, &c.samples.hidden, 1024)?;
    let g = monte_carlo_returns(c.samples.len(), &c.segments, cfg.gamma);
    let residual: Vec<f32> = g.iter().zip(&values).map(|(g, v)| g - v).collect();
    fill_advantages(&mut c.samples, &c.segments, &values, cfg.gamma, cfg.lambda);
    Ok(explained_variance(&g, &residual))
}
