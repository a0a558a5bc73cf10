//! The run folder: a new run's `config.json`, or a resumed run's saved configuration
//! and last checkpoint; checkpoints written into it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::adam::Adam;
use super::checkpoint::{Checkpoint, Progress};
use super::config::TrainConfig;
use super::durable::write_atomic;
use super::model::{ModelConfig, OwnedNet, ParamSnapshot};
use super::oracle::OracleCritic;
use crate::clock::{civil_utc, now_unix};
use crate::git_revision;

/// File names inside a run folder.
pub const CONFIG_FILE: &str = "config.json";
/// Checkpoint file name.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";

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

/// An opened run folder.
pub struct RunFolder {
    /// The configuration to train with (a resumed run's saved one, with this command
    /// line's budgets, device, workers and `--quiet`).
    pub cfg: TrainConfig,
    /// The folder.
    pub dir: PathBuf,
    /// The checkpoint to continue from, if any.
    pub checkpoint: Option<Checkpoint>,
}

fn default_id(seed: u64) -> String {
    let (y, m, d, hh, mm, ss) = civil_utc(now_unix());
    format!("{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}-seed{seed}")
}

/// Opens `cfg.resume`, or creates a new run folder under `cfg.runs` and writes its
/// `config.json` (refusing a folder that already holds a run).
pub fn open_run(cfg: TrainConfig) -> Result<RunFolder> {
    match &cfg.resume {
        Some(dir) => resume(&cfg, dir),
        None => create(cfg),
    }
}

fn resume(cli: &TrainConfig, dir: &Path) -> Result<RunFolder> {
    let text = std::fs::read_to_string(dir.join(CONFIG_FILE))
        .with_context(|| format!("reading {}", dir.join(CONFIG_FILE).display()))?;
    let info: RunInfo = serde_json::from_str(&text).context("parsing config.json")?;
    let expected = info.config.encoding().version();
    if info.encoding_version != expected {
        bail!(
            "the run used encoding version {}, this build trains --rules {} with version \
             {expected}",
            info.encoding_version,
            info.config.rules
        );
    }
    let mut saved = info.config;
    saved.max_updates = cli.max_updates;
    saved.max_minutes = cli.max_minutes;
    saved.device = cli.device;
    saved.workers = cli.workers;
    saved.quiet = cli.quiet;
    let ck_path = dir.join(CHECKPOINT_FILE);
    // A run killed (SIGKILL, power loss) before its first checkpoint has none: it
    // starts over from update 0 with its saved configuration.
    let checkpoint = if ck_path.exists() {
        Some(Checkpoint::load(&ck_path)?)
    } else {
        eprintln!(
            "resume: {} holds no checkpoint yet (the run stopped before its first one); \
             starting it from update 0",
            dir.display()
        );
        None
    };
    Ok(RunFolder {
        cfg: saved,
        dir: dir.to_path_buf(),
        checkpoint,
    })
}

fn create(cfg: TrainConfig) -> Result<RunFolder> {
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
        encoding_version: cfg.encoding().version(),
        started_unix_s: now_unix(),
    };
    write_atomic(
        &dir.join(CONFIG_FILE),
        (serde_json::to_string_pretty(&info)? + "\n").as_bytes(),
    )
    .context("writing config.json")?;
    Ok(RunFolder {
        cfg,
        dir,
        checkpoint: None,
    })
}

/// Writes the learner's checkpoint into `dir` (atomically).
pub fn save(
    learner: &OwnedNet,
    model: ModelConfig,
    adam: &Adam,
    progress: &Progress,
    oracle: Option<&OracleCritic>,
    dir: &Path,
) -> Result<()> {
    let ck = Checkpoint {
        params: ParamSnapshot::take(&learner.vs, model, learner.net.encoding, progress.update)?,
        adam: adam.state()?,
        progress: progress.clone(),
        oracle: oracle.map(|o| o.state()).transpose()?,
    };
    ck.save(&dir.join(CHECKPOINT_FILE))
}
