//! Self-play PPO training of a transformer actor-critic (feature `train`, libtorch via
//! tch).
//!
//! # Pieces
//! - [`model`]: the transformer over `engine::encode` tokens with one logit per action
//!   of the engine's 141-index space and a value head; parameter snapshots.
//! - [`selfplay`]: worker threads, each with its own model copy, playing several
//!   self-play tables with batched forward passes; trajectory and parameter messages
//!   (postcard) between workers and trainer.
//! - [`ppo`]: GAE and the clipped-surrogate update with value loss, entropy bonus,
//!   efficiency guidance and gradient clipping.
//! - [`adam`]: Adam on tensors with saveable state; [`checkpoint`]: atomic checkpoints
//!   ([`durable`]: temp file, sync, rename, folder sync).
//! - [`run`]: the loop (run folder, evaluation, stop rule, resume); [`metrics_log`]:
//!   `metrics.jsonl` / `metrics.csv` and the run's `curve.png` (drawn by
//!   [`crate::plot`]); [`interrupt`]: SIGINT / SIGTERM; [`agent`]: the policy as an
//!   arena agent.
//!
//! # Decisions the policy makes
//! Every discard, closed/added kan, pon, open kan, chi and pass is chosen by the policy
//! (masked to the legal actions). Moves with a single legal action are played without
//! asking it. **Tsumo and ron are automatic by default** (`--auto-win false` hands them
//! to the policy, whose heads already have their logits): under these rules a win is
//! worth at least 1 point from every payer and ends the hand, while declining it keeps
//! the hand open to a deal-in or someone else's win; the only gain from declining is a
//! larger hand later (a self-draw +1, a flush), which needs a further specific draw with
//! the wall running out, so taking the win is (practically) always right — the baseline
//! bots do the same.
//!
//! # Reward
//! A trajectory is one seat's decisions in one hand. Its reward, given at the last
//! decision, is the seat's point delta for the hand plus `--win-bonus` if it won,
//! divided by `--reward-scale` (default 4: a ron on a plain hand is ±1 point = ±0.25; a
//! self-draw in sanma pays 2 points from each of two payers = +1.0). Discount `--gamma`
//! (1.0: hands are short) and GAE `--lambda` apply per decision.
//!
//! # Opponents
//! `--opponents` mixes the players of a self-play table ([`opponents`]): every hand one
//! seat is the current policy and each other seat is drawn from `self` (the current
//! policy), `eff` (the efficiency bot) and `past` (an earlier snapshot). Training
//! samples come from the current policy's seats only. The default, `self:1`, is plain
//! self-play.
//!
//! # Parameter flow
//! The learner pushes a [`model::ParamSnapshot`] to every worker every `--push-every`
//! (N1) updates; a worker loads the newest complete snapshot between two batched
//! forward passes. Trajectories older than `--max-staleness` parameter versions are
//! dropped when an update's samples are gathered.
//!
//! # Efficiency guidance
//! The value-score matrix is part of the input. With `--guidance on`, decisions add
//! `c_g · CE(q, π)` to the loss. The target `q` is the teacher's (`--teacher`):
//! `value-scores`, uniform over the legal discards with the highest value score (the
//! efficiency bot's discard up to tie-breaking; other decisions get none), or `eff`, the
//! efficiency bot's exact choice over every legal action — discards, pon, kan, chi,
//! pass, tsumo, ron — which the workers record with each decision; or `search`, the
//! softmax of rollout-search values of every candidate action on a fraction of the
//! decisions ([`search_teacher`]). The default is `eff`, by the ablation in
//! `models/tenhou-sanma/REPORT.md` (at 300 updates its final model gains +679
//! points/hand on the efficiency bot, value-scores' −13). `c_g` decays
//! linearly from `--guidance-coef` to `--guidance-floor` over `--guidance-updates`
//! updates and stays there (a floor above 0 keeps an anchor to the teacher).
//!
//! # Evaluation and stopping
//! Every `--eval-every` (N2) updates the current parameters play greedily in the
//! duplicate arena against two random bots and against two efficiency bots, and the
//! efficiency bot plays the policy's seats on the same walls: the paired difference of
//! points per hand (with its 95 % interval) says whether the policy beats the bot it is
//! judged against, with the luck of the walls cancelled. The walls are fresh at every
//! evaluation (`--eval-walls rotating`; `fixed` repeats them). The cost: three line-ups
//! of `--eval-hands` hands each (600 by default), two of them with the policy (the
//! shipped model's arena ran 85.8 hands/s on the 2 cores, models/REPORT.md: about 15 s
//! per evaluation) and one of efficiency bots (about 100× faster). The paired interval
//! shrinks with the square root of the hands: ±0.044 points/hand at 10 002 hands
//! (models/REPORT.md), so about ±0.18 at 600 and ±0.08 at 3 000 — a `paired` stop rule
//! wants `--eval-hands 3000` or more. The run
//! stops after `--stop-after` consecutive evaluations that pass `--stop-on`:
//! `win-rates` (the win rate at least `--win-rate-random` and `--win-rate-eff`) or
//! `paired` (the random-bot threshold and the paired lower bound above 0), or at
//! `--max-updates` / `--max-minutes`.
//!
//! # Interruption
//! The first SIGINT (Ctrl-C) or SIGTERM sets the interrupt flag: a PPO update in
//! progress finishes, samples being gathered for the next one are dropped, a due (or
//! running) evaluation is skipped and said to be, then the run ends as at a budget —
//! checkpoint, metrics and curve written — and `train` prints the `--resume` command
//! and exits 0. The stop waits at most for one PPO update plus one duplicate wall per
//! evaluation thread. A second signal exits at once (status 130 / 143); the checkpoint
//! on disk is then the last one completed, never a partial file.
//! A SIGKILL (or a power loss) leaves the same: `--resume` continues from the last
//! complete checkpoint, dropping the metrics rows written after it, or starts the run
//! over when it had none yet (`tests/train_kill.rs`).

pub mod adam;
pub mod advantages;
pub mod agent;
pub mod checkpoint;
pub mod config;
pub mod durable;
pub mod evaluation;
pub mod folder;
pub mod interrupt;
pub mod learner;
pub mod metrics_log;
pub mod metrics_row;
pub mod model;
pub mod opponents;
pub mod oracle;
pub mod ppo;
#[cfg(feature = "distributed")]
pub mod remote;
pub mod run;
pub mod schedule;
pub mod search_teacher;
pub mod selfplay;
pub mod setup;
pub mod workers;

pub use config::{
    DeviceChoice, EvalWalls, Guidance, LrSchedule, StopOn, Teacher, Tokens, TrainArgs, TrainConfig,
};
pub use run::{evaluate, evaluate_until, train, TrainOutcome};
