//! One row of a run's metrics (one per PPO update) and the names of the files that
//! hold them: the row's fields, its JSON form (serde) and its CSV form.

use serde::{Deserialize, Serialize};

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
