//! Every hyperparameter of a training run, in one clap-derive struct (its doc lines are
//! `host-trainer train --help`). The struct is saved as `config.json` in the run folder,
//! with the CLI's value spellings (`"auto"`, `"on"`), and [`TrainArgs`] reads such a
//! file back with `train --config FILE`, the flags given on the command line winning.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Parser, ValueEnum};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::opponents::OpponentMix;
use crate::cli::RulesArg;

/// Where tensors of the learner live.
// Runs written before the CLI spellings were used say "Auto", "Cpu", "Cuda": the
// aliases keep them readable (resume, `--config`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceChoice {
    /// CUDA when available, else the CPU.
    #[serde(alias = "Auto")]
    Auto,
    /// The CPU.
    #[serde(alias = "Cpu")]
    Cpu,
    /// The first CUDA device (an error when none is available).
    #[serde(alias = "Cuda")]
    Cuda,
}

/// Efficiency guidance on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guidance {
    /// Auxiliary loss towards the efficiency bot's discard, annealed to zero.
    #[serde(alias = "On")]
    On,
    /// No auxiliary loss (the ablation).
    #[serde(alias = "Off")]
    Off,
}

/// How the learning rate changes over a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LrSchedule {
    /// `--lr` throughout.
    Constant,
    /// From `--lr` down linearly to 0 at `--max-updates` (cleanrl's `anneal_lr`).
    Linear,
}

/// What the guidance loss imitates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Teacher {
    /// Uniform over the legal discards with the best value score (discard decisions
    /// only; calls, kans and passes get no target).
    ValueScores,
    /// The efficiency bot's exact choice over every legal action (discards, calls,
    /// pass, kans and wins), recorded by the workers with each decision.
    Eff,
    /// The defending bot's exact choice over every action (efficiency play plus push or
    /// fold against riichi and open threats, `engine::bots::DefendBot`): the teacher for
    /// rules where folding matters.
    Defend,
    /// Rollout-search values of every candidate action, softmax at
    /// `--search-temperature`, on `--search-fraction` of the decisions (the others get
    /// no target); see `train::search_teacher`.
    Search,
}

impl Teacher {
    /// What a config.json written before `--teacher` existed had.
    fn before_the_setting() -> Teacher {
        Teacher::ValueScores
    }
}

/// Which tile types get a token in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tokens {
    /// Only the types of the rules' tile set (sanma: 27 of 34, a fifth less compute for
    /// the same function: the other 7 tokens are always empty there).
    Rules,
    /// All 34 types, whatever the rules (every run before this setting).
    All,
}

impl Tokens {
    /// What a config.json written before `--tokens` existed had.
    fn before_the_setting() -> Tokens {
        Tokens::All
    }
}

/// The walls of the training-time evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvalWalls {
    /// Fresh walls at every evaluation (the seed mixed with the evaluation's number):
    /// no evaluation is tuned to one set of walls.
    Rotating,
    /// The same walls at every evaluation (runs before `--eval-walls` existed).
    Fixed,
}

/// What the stop rule reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopOn {
    /// Win rates against random bots and against efficiency bots above
    /// `--win-rate-random` and `--win-rate-eff`.
    WinRates,
    /// Win rate against random bots above `--win-rate-random`, and points per hand above
    /// the efficiency bot's in the same seats on the same walls (95 % lower bound > 0).
    Paired,
}

/// Self-play PPO training of the transformer policy (see `host_trainer::train`).
// `serde(default)`: a config.json written before a setting existed reads with that
// setting's default (which is the behaviour those runs had).
#[derive(Parser, Clone, Debug, Serialize, Deserialize, PartialEq)]
#[command(name = "train")]
#[serde(default)]
pub struct TrainConfig {
    /// Rules preset.
    #[arg(long, default_value = "sanma", value_parser = RulesArg::name_parser())]
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
    /// the budgets, device, workers, learner threads and --quiet of this command line
    /// apply, and the stop-rule and evaluation flags given with it: --stop-on,
    /// --stop-after, --win-rate-random, --win-rate-eff, --eval-every, --eval-hands,
    /// --checkpoint-every, recorded under "resumes" in config.json).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Learner device: auto (CUDA when available), cpu or cuda. Workers use the CPU.
    #[arg(long, value_enum, default_value_t = DeviceChoice::Auto)]
    pub device: DeviceChoice,
    /// Self-play worker threads (0 = half the cores, at least 1: with one per core the
    /// learner's threads and the workers' fight over the cores, measured 1.1× slower).
    #[arg(long, default_value_t = 0)]
    pub workers: usize,
    /// Also take trajectories from `host-trainer worker` processes through this NATS
    /// JetStream server (`nats://HOST:PORT`, `tls://HOST:PORT`, or several separated
    /// by commas for failover; needs the `distributed` feature). The learner creates
    /// the stream, its consumer and the run's bucket there.
    #[arg(long)]
    pub broker: Option<String>,
    /// How to log in to the broker and trust its certificate (`--broker-*`).
    #[command(flatten)]
    #[serde(skip)]
    pub broker_auth: BrokerAuth,
    /// With --broker: no self-play threads in the learner's process (all trajectories
    /// come from remote workers).
    #[arg(long)]
    pub no_local_workers: bool,
    /// libtorch threads of the learner (0 = one per core; workers wait on the full
    /// sample channel while it trains).
    #[arg(long, default_value_t = 0)]
    pub learner_threads: usize,
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
    /// Tile tokens of the model: `rules` (only the rules' tile types) or `all` (34).
    #[arg(long, value_enum, default_value_t = Tokens::Rules)]
    #[serde(default = "Tokens::before_the_setting")]
    pub tokens: Tokens,
    /// Decisions (samples) gathered for each PPO update (a points-per-hand signal with
    /// s.d. ≈ 2.3 wants big batches; 2048 before).
    #[arg(long, default_value_t = 4096)]
    pub steps_per_update: usize,
    /// PPO epochs over each update's samples (1: each sample is one gradient step's
    /// worth, the learner's cost per sample a third of the 3 used before, and updates no
    /// longer fit the noise; `--target-kl` can cut a longer schedule short).
    #[arg(long, default_value_t = 1)]
    pub epochs: usize,
    /// Minibatch size (sampled at random without replacement within an epoch; 256
    /// before).
    #[arg(long, default_value_t = 512)]
    pub minibatch: usize,
    /// Adam learning rate.
    #[arg(long, default_value_t = 3e-4)]
    pub lr: f64,
    /// Learning-rate schedule: constant, or linear (down to 0 at --max-updates; constant
    /// without an update budget).
    #[arg(long, value_enum, default_value_t = LrSchedule::Constant)]
    pub lr_schedule: LrSchedule,
    /// Stop an update's epochs once one epoch's mean approximate KL exceeds this (0 = off).
    #[arg(long, default_value_t = 0.0)]
    pub target_kl: f64,
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
    /// Reward = (hand point delta + win bonus if the seat won) / this scale; under the
    /// riichi presets both are in thousands of points (4.0 = 4 000 points).
    #[arg(long, default_value_t = 4.0)]
    pub reward_scale: f64,
    /// Points added to a seat's reward when it wins the hand (aligns the reward with
    /// the win-rate target; 0 = points only).
    #[arg(long, default_value_t = 0.0)]
    pub win_bonus: f64,
    /// Self-play plays whole games of the preset's length (every hand after the first
    /// carries the scores, round, honba and riichi sticks of the hands before it), not
    /// a fresh deal per hand. Trajectories stay one hand each.
    #[arg(long)]
    pub whole_games: bool,
    /// With --whole-games: weight of the placement shaping added to each hand's reward,
    /// W × (uma of the seat's rank after the hand − uma of its rank before it), the uma
    /// in thousands of points (Tenhou's table, `arena::games::UmaTable`); summed over a
    /// game it is W × the final rank's uma (see `train::selfplay`). 0 = points only.
    #[arg(long, default_value_t = 0.0)]
    pub placement_weight: f64,
    /// Start a new run from the weights of this checkpoint (a run folder or its
    /// checkpoint.bin; the model shape must match): fresh optimizer and progress, this
    /// run's settings (fine-tuning, e.g. with --whole-games). Not with --resume.
    #[arg(long, conflicts_with = "resume")]
    pub init_from: Option<PathBuf>,
    /// Self-play table mix, weights per kind for each seat the learner does not hold:
    /// self (the current policy, also trained on), eff (the efficiency bot), past (the
    /// policy --past-lag pushes ago), defend (the defending bot); e.g.
    /// self:0.4,eff:0.4,past:0.2.
    #[arg(long, default_value = "self:1", value_parser = OpponentMix::parse_arg)]
    pub opponents: String,
    /// Parameter pushes between the current policy and a `past` opponent.
    #[arg(long, default_value_t = 20)]
    pub past_lag: usize,
    /// Efficiency guidance (auxiliary cross-entropy towards the best discard): on or off.
    #[arg(long, value_enum, default_value_t = Guidance::On)]
    pub guidance: Guidance,
    /// Initial guidance coefficient.
    #[arg(long, default_value_t = 1.0)]
    pub guidance_coef: f64,
    /// Updates over which the guidance coefficient anneals linearly to --guidance-floor.
    #[arg(long, default_value_t = 150)]
    pub guidance_updates: u64,
    /// The guidance coefficient never anneals below this (a cross-entropy anchor to the
    /// teacher that stays; 0 = anneal to zero).
    #[arg(long, default_value_t = 0.0)]
    pub guidance_floor: f64,
    /// The guidance target: value-scores (best discards only), eff (the efficiency
    /// bot's choice over every action), defend (the defending bot's choice) or search
    /// (rollout-search values). Default eff,
    /// by measurement (models/tenhou-sanma/REPORT.md, 300 updates, seed 11, final
    /// models paired against the efficiency bot on 3 000 hands): eff +679 points/hand
    /// (95 % CI +438 – +921), value-scores −13 (−228 – +203), off +417, search +813
    /// (+564 – +1062: not resolved from eff, and it costs worker time).
    #[arg(long, value_enum, default_value_t = Teacher::Eff)]
    #[serde(default = "Teacher::before_the_setting")]
    pub teacher: Teacher,
    /// `--teacher search`: fraction of the learner's decisions the workers search
    /// (measured on 2 cores: 0.02 at 32 worlds keeps 0.8× the samples/s, 0.1 at 16 0.31×).
    #[arg(long, default_value_t = 0.02)]
    pub search_fraction: f64,
    /// `--teacher search`: worlds per search (one rollout per candidate each).
    #[arg(long, default_value_t = 32)]
    pub search_rollouts: u32,
    /// `--teacher search`: softmax temperature of the target, in points (candidates
    /// one temperature apart in estimated points/hand differ by a factor e).
    #[arg(long, default_value_t = 0.25)]
    pub search_temperature: f64,
    /// Train an oracle critic that also sees the opponents' concealed hands and compute
    /// the advantages with it (training only; the exported value head still sees the
    /// observation alone; see `train::oracle`; measured 0.6× the samples/s on 2 cores).
    #[arg(long)]
    pub oracle_critic: bool,
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
    /// An evaluation plays three line-ups (against random bots, against efficiency bots,
    /// and the efficiency bot in the policy's seats for the paired comparison).
    #[arg(long, default_value_t = 600)]
    pub eval_hands: u64,
    /// Evaluation walls: rotating (fresh every evaluation) or fixed (the same every time).
    // Old config.json files have no such key and read as `fixed`, the walls they had.
    #[arg(long, value_enum, default_value_t = EvalWalls::Rotating)]
    #[serde(default = "fixed_walls")]
    pub eval_walls: EvalWalls,
    /// The stop rule: win-rates (both thresholds) or paired (random-bot threshold and
    /// points/hand above the efficiency bot's in the same seats, lower bound > 0).
    #[arg(long, value_enum, default_value_t = StopOn::WinRates)]
    pub stop_on: StopOn,
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
    /// With `--resume`: the stop-rule and evaluation settings given on this command line
    /// (keys of [`RESUME_OVERRIDES`]), which replace the saved ones. Filled by
    /// [`TrainArgs::resolve`]; never saved.
    #[arg(skip)]
    #[serde(skip)]
    pub resume_overrides: Vec<String>,
    /// The run folder, once opened (for files beside the checkpoint); never saved.
    #[arg(skip)]
    #[serde(skip)]
    pub run_dir: Option<PathBuf>,
}

/// How `train --broker` and `worker --broker` authenticate to the NATS server and
/// which CA they trust: files only, so that no secret shows in a process listing.
/// Secrets that are no file come from the environment: `NATS_TOKEN` (a token),
/// `NATS_USER` and `NATS_PASSWORD` (instead of `user:pass@` in the URL).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerAuth {
    /// A NATS `.creds` file (user JWT and NKey seed, as `nsc` writes it).
    #[arg(long, value_name = "FILE")]
    pub broker_creds: Option<PathBuf>,
    /// A file holding the NKey seed (`SU…`) of the broker user.
    #[arg(long, value_name = "FILE")]
    pub broker_nkey: Option<PathBuf>,
    /// A file holding the broker's token (else `$NATS_TOKEN`, if set).
    #[arg(long, value_name = "FILE")]
    pub broker_token_file: Option<PathBuf>,
    /// PEM certificates of the private CA that signed the broker's TLS certificate
    /// (besides the system's roots).
    #[arg(long, value_name = "FILE")]
    pub broker_ca: Option<PathBuf>,
}

impl BrokerAuth {
    /// The flags that reproduce these settings (paths only: nothing secret).
    pub fn args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (flag, v) in [
            ("--broker-creds", &self.broker_creds),
            ("--broker-nkey", &self.broker_nkey),
            ("--broker-token-file", &self.broker_token_file),
            ("--broker-ca", &self.broker_ca),
        ] {
            if let Some(p) = v {
                out.push(flag.to_string());
                out.push(p.display().to_string());
            }
        }
        out
    }
}

/// Settings a `--resume` takes from its command line when given there: when to stop
/// and how to evaluate, which do not change what the run learns. (Budgets, device,
/// workers, the broker, learner threads and `--quiet` always come from the command
/// line; every other
/// hyperparameter stays the saved one.)
pub const RESUME_OVERRIDES: [&str; 7] = [
    "stop_on",
    "stop_after",
    "win_rate_random",
    "win_rate_eff",
    "eval_every",
    "eval_hands",
    "checkpoint_every",
];

fn fixed_walls() -> EvalWalls {
    EvalWalls::Fixed
}

impl TrainConfig {
    /// The observation encoding of a run under these rules
    /// ([`engine::encode::Encoding::for_rules`]: v2 for the riichi presets, v1 otherwise;
    /// v1 for an unknown preset, which `train` refuses before it matters).
    pub fn encoding(&self) -> engine::encode::Encoding {
        engine::Rules::preset(&self.rules).map_or(engine::encode::Encoding::V1, |r| {
            engine::encode::Encoding::for_rules(&r)
        })
    }

    /// Points per unit of `reward_scale` and `win_bonus`: 1 under the simple rules,
    /// 1 000 under the riichi rules (whose hands move thousands of points).
    pub fn points_unit(&self) -> f64 {
        match engine::Rules::preset(&self.rules) {
            Some(r) if r.is_riichi() => 1000.0,
            _ => 1.0,
        }
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig::parse_from(["train"])
    }
}

/// `host-trainer train`: the hyperparameters, optionally read from a file first.
#[derive(Parser, Clone, Debug)]
#[command(name = "train")]
pub struct TrainArgs {
    /// Take the hyperparameters from this file: a run's `config.json` or a JSON object
    /// with the same keys (`steps_per_update` or `steps-per-update`) and the CLI's
    /// values. Flags given on the command line override it; the run's place (`runs`,
    /// `id`, `resume`) is never taken from the file, so a new run folder is made.
    #[arg(long, conflicts_with = "resume")]
    pub config: Option<PathBuf>,
    /// The hyperparameters of the command line.
    #[command(flatten)]
    pub train: TrainConfig,
}

/// Keys of a config file that say where a run lives, not how it trains.
const PLACE_KEYS: [&str; 3] = ["runs", "id", "resume"];

impl TrainArgs {
    /// The configuration to train with: the command line's, or with `--config` the
    /// file's, overridden by every flag of `matches` (the train subcommand's matches)
    /// that was given on the command line.
    pub fn resolve(&self, matches: &ArgMatches) -> Result<TrainConfig> {
        let Some(path) = &self.config else {
            let mut cfg = self.train.clone();
            if cfg.resume.is_some() {
                cfg.resume_overrides = RESUME_OVERRIDES
                    .iter()
                    .filter(|k| matches.value_source(k) == Some(ValueSource::CommandLine))
                    .map(|k| k.to_string())
                    .collect();
            }
            return Ok(cfg);
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --config {}", path.display()))?;
        let file: Value = serde_json::from_str(&text)
            .with_context(|| format!("--config {} is not JSON", path.display()))?;
        merge(&file, &self.train, matches, path)
    }
}

/// The file's settings (a run's `config.json` keeps them under `"config"`) with the
/// explicit flags of `matches` on top.
fn merge(
    file: &Value,
    cli: &TrainConfig,
    matches: &ArgMatches,
    path: &Path,
) -> Result<TrainConfig> {
    let settings = match file.get("config") {
        Some(inner) if inner.is_object() => inner,
        _ => file,
    };
    let Some(settings) = settings.as_object() else {
        bail!("--config {}: expected a JSON object", path.display());
    };
    let Value::Object(mut merged) = serde_json::to_value(cli).context("serializing the flags")?
    else {
        bail!("the train flags did not serialize to an object");
    };
    let mut from_file = Map::new();
    for (key, value) in settings {
        let key = key.replace('-', "_");
        if !merged.contains_key(&key) {
            bail!(
                "--config {}: unknown setting {key:?} (see `host-trainer train --help`)",
                path.display()
            );
        }
        if !PLACE_KEYS.contains(&key.as_str()) {
            from_file.insert(key, value.clone());
        }
    }
    for (key, value) in from_file {
        if matches.value_source(&key) != Some(ValueSource::CommandLine) {
            merged.insert(key, value);
        }
    }
    let cfg: TrainConfig = serde_json::from_value(Value::Object(merged))
        .with_context(|| format!("--config {}: a setting has the wrong type", path.display()))?;
    OpponentMix::parse(&cfg.opponents).with_context(|| format!("--config {}", path.display()))?;
    if RulesArg::from_name(&cfg.rules).is_none() {
        bail!(
            "--config {}: unknown rules {:?} (sanma or four-player)",
            path.display(),
            cfg.rules
        );
    }
    Ok(cfg)
}

/// The settings a session takes from its own command line, never from a resumed run's
/// `config.json`: the budgets, the device, the workers and broker, the learner threads,
/// quiet. These two functions are the one list of them (`train --resume` copies them,
/// the printed resume command writes them; a test round-trips every one).
impl TrainConfig {
    /// Copies the session settings of `cli` (this session's command line) onto `self`.
    pub fn take_session_settings(&mut self, cli: &TrainConfig) {
        self.max_updates = cli.max_updates;
        self.max_minutes = cli.max_minutes;
        self.device = cli.device;
        self.workers = cli.workers;
        self.broker = cli.broker.clone();
        self.broker_auth = cli.broker_auth.clone();
        self.no_local_workers = cli.no_local_workers;
        self.learner_threads = cli.learner_threads;
        self.quiet = cli.quiet;
    }

    /// The session settings that differ from the defaults, as command-line arguments
    /// (`["--max-updates", "5", "--device", "cpu", …]`).
    pub fn session_args(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut put = |flag: &str, value: Option<String>| {
            out.push(flag.to_string());
            out.extend(value);
        };
        if self.max_updates > 0 {
            put("--max-updates", Some(self.max_updates.to_string()));
        }
        if self.max_minutes > 0.0 {
            put("--max-minutes", Some(self.max_minutes.to_string()));
        }
        match self.device {
            DeviceChoice::Auto => {}
            DeviceChoice::Cpu => put("--device", Some("cpu".into())),
            DeviceChoice::Cuda => put("--device", Some("cuda".into())),
        }
        if self.workers > 0 {
            put("--workers", Some(self.workers.to_string()));
        }
        if self.learner_threads > 0 {
            put("--learner-threads", Some(self.learner_threads.to_string()));
        }
        if let Some(url) = &self.broker {
            put("--broker", Some(url.clone()));
        }
        if self.no_local_workers {
            put("--no-local-workers", None);
        }
        if self.quiet {
            put("--quiet", None);
        }
        out.extend(self.broker_auth.args());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    fn resolve(args: &[&str]) -> Result<TrainConfig> {
        let matches = TrainArgs::command().try_get_matches_from(args)?;
        TrainArgs::from_arg_matches(&matches)?.resolve(&matches)
    }

    fn scratch(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("train-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Every session setting survives `session_args` → the command line →
    /// `take_session_settings`, so the two lists cannot drift apart.
    #[test]
    fn session_settings_round_trip_through_the_command_line() {
        let cli = TrainConfig::parse_from([
            "train",
            "--max-updates",
            "5",
            "--max-minutes",
            "2.5",
            "--device",
            "cpu",
            "--workers",
            "3",
            "--learner-threads",
            "2",
            "--broker",
            "nats://h:4222",
            "--broker-creds",
            "u.creds",
            "--broker-nkey",
            "u.nk",
            "--broker-token-file",
            "token",
            "--broker-ca",
            "ca.pem",
            "--no-local-workers",
            "--quiet",
        ]);
        let args = cli.session_args();
        let mut argv = vec!["train".to_string()];
        argv.extend(args.iter().cloned());
        let back = TrainConfig::parse_from(&argv);
        let mut taken = TrainConfig::parse_from(["train", "--seed", "9"]);
        taken.take_session_settings(&back);
        let mut expected = TrainConfig::parse_from(["train", "--seed", "9"]);
        expected.take_session_settings(&cli);
        assert_eq!(taken, expected);
        assert_eq!(args.len(), 22, "{args:?}");
        assert!(TrainConfig::parse_from(["train"]).session_args().is_empty());
    }

    #[test]
    fn a_saved_config_round_trips_and_flags_override_it() {
        let mut saved = TrainConfig::parse_from(["train", "--rules", "four-player", "--seed", "7"]);
        saved.guidance = Guidance::Off;
        saved.device = DeviceChoice::Cpu;
        saved.steps_per_update = 512;
        saved.id = Some("old-run".into());
        let run_file = serde_json::json!({"config": saved, "git_revision": "x"});
        let path = scratch("config.json", &run_file.to_string());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"device\":\"cpu\"") && text.contains("\"guidance\":\"off\""),
            "{text}"
        );
        let p = path.to_str().unwrap();
        let cfg = resolve(&["train", "--config", p]).unwrap();
        assert_eq!(cfg.id, None, "the run's place is not taken from the file");
        assert_eq!(
            TrainConfig {
                id: Some("old-run".into()),
                ..cfg.clone()
            },
            saved
        );
        // An explicit flag wins, even one equal to its default; the rest stays the file's.
        let cfg = resolve(&["train", "--config", p, "--seed", "1", "--guidance", "on"]).unwrap();
        assert_eq!((cfg.seed, cfg.guidance), (1, Guidance::On));
        assert_eq!(
            (cfg.rules.as_str(), cfg.steps_per_update),
            ("four-player", 512)
        );
    }

    #[test]
    fn a_resume_collects_the_stop_and_evaluation_flags_it_was_given() {
        let cfg = resolve(&["train", "--resume", "r", "--stop-after", "0", "--lr", "1"]).unwrap();
        assert_eq!(cfg.resume_overrides, ["stop_after"]);
        let cfg = resolve(&["train", "--resume", "r", "--eval-hands", "600"]).unwrap();
        assert_eq!(
            cfg.resume_overrides,
            ["eval_hands"],
            "explicit, even at its default"
        );
        let cfg = resolve(&["train", "--stop-after", "0"]).unwrap();
        assert!(
            cfg.resume_overrides.is_empty(),
            "only a resume records them"
        );
    }

    #[test]
    fn old_spellings_kebab_keys_and_bad_files() {
        let path = scratch("old.json", r#"{"device": "Cuda", "steps-per-update": 64}"#);
        let cfg = resolve(&["train", "--config", path.to_str().unwrap()]).unwrap();
        assert_eq!((cfg.device, cfg.steps_per_update), (DeviceChoice::Cuda, 64));
        for (name, text, want) in [
            (
                "unknown.json",
                r#"{"stepz": 1}"#,
                "unknown setting \"stepz\"",
            ),
            ("rules.json", r#"{"rules": "Sanma"}"#, "unknown rules"),
            ("type.json", r#"{"seed": "x"}"#, "wrong type"),
            ("array.json", "[1]", "expected a JSON object"),
        ] {
            let path = scratch(name, text);
            let err = resolve(&["train", "--config", path.to_str().unwrap()]).unwrap_err();
            assert!(format!("{err:#}").contains(want), "{name}: {err:#}");
        }
        let err = resolve(&["train", "--config", "/nonexistent/c.json"]).unwrap_err();
        assert!(format!("{err:#}").contains("c.json"), "{err:#}");
    }
}
