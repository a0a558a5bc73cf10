//! Every hyperparameter of a training run, in one clap-derive struct (its doc lines are
//! `host-trainer train --help`). The struct is saved as `config.json` in the run folder.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use serde::{Deserialize, Serialize};

/// Where tensors of the learner live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
pub enum DeviceChoice {
    /// CUDA when available, else the CPU.
    Auto,
    /// The CPU.
    Cpu,
    /// The first CUDA device (an error when none is available).
    Cuda,
}

/// Efficiency guidance on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
pub enum Guidance {
    /// Auxiliary loss towards the efficiency bot's discard, annealed to zero.
    On,
    /// No auxiliary loss (the ablation).
    Off,
}

/// Self-play PPO training of the transformer policy (see `host_trainer::train`).
#[derive(Parser, Clone, Debug, Serialize, Deserialize, PartialEq)]
#[command(name = "train")]
pub struct TrainConfig {
    /// Rules preset: `sanma` or `four-player`.
    #[arg(long, default_value = "sanma")]
    pub rules: String,
    /// Master seed (self-play walls, sampling, initial weights, minibatch order).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder under which the run folder `<runs>/<id>` is created.
    #[arg(long, default_value = "runs")]
    pub runs: PathBuf,
    /// Run id (folder name); default: `YYYYmmdd-HHMMSS-seed<seed>`.
    #[arg(long)]
    pub id: Option<String>,
    /// Continue the run in this folder from its last checkpoint (its config.json is used;
    /// only the budgets, device, workers and --quiet of this command line apply).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Learner device: auto (CUDA when available), cpu or cuda. Workers use the CPU.
    #[arg(long, value_enum, default_value_t = DeviceChoice::Auto)]
    pub device: DeviceChoice,
    /// Self-play worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub workers: usize,
    /// Tables each worker plays at once (their forward passes are batched).
    #[arg(long, default_value_t = 16)]
    pub tables: usize,
    /// Transformer layers.
    #[arg(long, default_value_t = 2)]
    pub layers: i64,
    /// Transformer width (d_model).
    #[arg(long, default_value_t = 64)]
    pub d_model: i64,
    /// Attention heads (must divide d_model).
    #[arg(long, default_value_t = 4)]
    pub heads: i64,
    /// Feed-forward width inside each layer.
    #[arg(long, default_value_t = 128)]
    pub ff: i64,
    /// Decisions (samples) gathered for each PPO update.
    #[arg(long, default_value_t = 2048)]
    pub steps_per_update: usize,
    /// PPO epochs over each update's samples.
    #[arg(long, default_value_t = 3)]
    pub epochs: usize,
    /// Minibatch size (sampled at random without replacement within an epoch).
    #[arg(long, default_value_t = 256)]
    pub minibatch: usize,
    /// Adam learning rate.
    #[arg(long, default_value_t = 3e-4)]
    pub lr: f64,
    /// Discount per decision within a hand.
    #[arg(long, default_value_t = 1.0)]
    pub gamma: f64,
    /// GAE lambda.
    #[arg(long, default_value_t = 0.95)]
    pub lambda: f64,
    /// PPO clip range of the probability ratio.
    #[arg(long, default_value_t = 0.2)]
    pub clip: f64,
    /// Value-loss coefficient.
    #[arg(long, default_value_t = 0.5)]
    pub value_coef: f64,
    /// Entropy-bonus coefficient.
    #[arg(long, default_value_t = 0.01)]
    pub entropy_coef: f64,
    /// Gradient clipping: maximal global L2 norm.
    #[arg(long, default_value_t = 0.5)]
    pub max_grad_norm: f64,
    /// Reward = hand point delta / this scale.
    #[arg(long, default_value_t = 4.0)]
    pub reward_scale: f64,
    /// Efficiency guidance (auxiliary cross-entropy towards the best discard): on or off.
    #[arg(long, value_enum, default_value_t = Guidance::On)]
    pub guidance: Guidance,
    /// Initial guidance coefficient.
    #[arg(long, default_value_t = 1.0)]
    pub guidance_coef: f64,
    /// Updates over which the guidance coefficient anneals linearly to zero.
    #[arg(long, default_value_t = 150)]
    pub guidance_updates: u64,
    /// Tsumo and ron are taken automatically (see the module docs); false lets the policy decide.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub auto_win: bool,
    /// Push parameters to the workers every N1 updates.
    #[arg(long, default_value_t = 1)]
    pub push_every: u64,
    /// Drop trajectories played with parameters more than this many versions old.
    #[arg(long, default_value_t = 4)]
    pub max_staleness: u64,
    /// Trajectories per message from a worker.
    #[arg(long, default_value_t = 16)]
    pub send_every: usize,
    /// Capacity of the bounded trajectory channel, in messages.
    #[arg(long, default_value_t = 8)]
    pub replay_capacity: usize,
    /// Evaluate every N2 updates (0 = never).
    #[arg(long, default_value_t = 25)]
    pub eval_every: u64,
    /// Hands per evaluation line-up (duplicate: rounded up to a multiple of the players).
    #[arg(long, default_value_t = 600)]
    pub eval_hands: u64,
    /// Stop threshold: policy win rate against two random bots (the efficiency bot gets about 0.80 in sanma).
    #[arg(long, default_value_t = 0.45)]
    pub win_rate_random: f64,
    /// Stop threshold: policy win rate against two efficiency bots (parity is about 0.338 in sanma).
    #[arg(long, default_value_t = 0.30)]
    pub win_rate_eff: f64,
    /// Stop after this many consecutive evaluations above both thresholds (0 = never).
    #[arg(long, default_value_t = 3)]
    pub stop_after: u64,
    /// Stop after this many updates (0 = no limit).
    #[arg(long, default_value_t = 0)]
    pub max_updates: u64,
    /// Stop after this many minutes of wall-clock time (0 = no limit).
    #[arg(long, default_value_t = 0.0)]
    pub max_minutes: f64,
    /// Write a checkpoint every this many updates (and always at the end).
    #[arg(long, default_value_t = 10)]
    pub checkpoint_every: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig::parse_from(["train"])
    }
}
