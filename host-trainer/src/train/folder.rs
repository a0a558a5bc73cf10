//! The run folder: a new run's `config.json`, or a resumed run's saved configuration
//! and last checkpoint; checkpoints written into it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::adam::Adam;
use super::checkpoint::{Checkpoint, Progress};
use super::config::{TrainConfig, RESUME_OVERRIDES};
use super::durable::write_atomic;
use super::model::{ModelConfig, OwnedNet, ParamSnapshot};
use super::oracle::OracleCritic;
use crate::git_revision;
use report::clock::{civil_utc, now_unix};

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
    /// Every `--resume` that changed a setting (`RESUME_OVERRIDES`), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resumes: Vec<ResumeRecord>,
}

/// A resume that replaced saved settings, recorded in `config.json`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ResumeRecord {
    /// The update the run resumed from.
    pub update: u64,
    /// `git rev-parse HEAD` of the resuming binary.
    pub git_revision: String,
    /// Seconds since the Unix epoch.
    pub unix_s: u64,
    /// The replaced settings: key → `[saved, new]`.
    pub changed: serde_json::Map<String, serde_json::Value>,
}

/// An opened run folder.
pub struct RunFolder {
    /// The configuration to train with (a resumed run's saved one, with this command
    /// line's budgets, device, workers, learner threads and `--quiet`, and the stop-rule
    /// and evaluation settings it gives, `RESUME_OVERRIDES`).
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
    let mut info = info;
    let mut saved = info.config.clone();
    saved.take_session_settings(cli);
    let changed = apply_overrides(&mut saved, cli)?;
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
    if !changed.is_empty() {
        info.config = TrainConfig {
            max_updates: info.config.max_updates,
            max_minutes: info.config.max_minutes,
            ..saved.clone()
        };
        info.resumes.push(ResumeRecord {
            update: checkpoint.as_ref().map_or(0, |c| c.progress.update),
            git_revision: git_revision(),
            unix_s: now_unix(),
            changed,
        });
        write_atomic(
            &dir.join(CONFIG_FILE),
            (serde_json::to_string_pretty(&info)? + "\n").as_bytes(),
        )
        .context("writing config.json")?;
    }
    Ok(RunFolder {
        cfg: saved,
        dir: dir.to_path_buf(),
        checkpoint,
    })
}

/// Replaces the settings of `cli.resume_overrides` in `saved` with the command line's;
/// returns those whose value changed, as key → `[saved, new]`.
fn apply_overrides(
    saved: &mut TrainConfig,
    cli: &TrainConfig,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let mut changed = serde_json::Map::new();
    if cli.resume_overrides.is_empty() {
        return Ok(changed);
    }
    let serde_json::Value::Object(mut merged) = serde_json::to_value(&*saved)? else {
        bail!("the saved settings did not serialize to an object");
    };
    let serde_json::Value::Object(given) = serde_json::to_value(cli)? else {
        bail!("the flags did not serialize to an object");
    };
    for key in &cli.resume_overrides {
        if !RESUME_OVERRIDES.contains(&key.as_str()) {
            bail!("--resume cannot change {key:?} (see RESUME_OVERRIDES)");
        }
        let (Some(old), Some(new)) = (merged.get(key), given.get(key)) else {
            bail!("unknown setting {key:?}");
        };
        if old != new {
            changed.insert(key.clone(), serde_json::json!([old, new]));
            merged.insert(key.clone(), new.clone());
        }
    }
    let resume_overrides = std::mem::take(&mut saved.resume_overrides);
    *saved = serde_json::from_value(serde_json::Value::Object(merged))
        .context("the resumed settings")?;
    saved.resume_overrides = resume_overrides;
    Ok(changed)
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
        resumes: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn a_resume_applies_and_records_its_stop_and_evaluation_settings() {
        let runs = std::env::temp_dir().join(format!("mj-folder-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&runs);
        let args = [
            "train",
            "--runs",
            runs.to_str().unwrap(),
            "--id",
            "r",
            "--workers",
            "3",
        ];
        let made = open_run(TrainConfig::parse_from(args)).unwrap();
        assert_eq!(made.cfg.stop_after, 3);
        let dir = made.dir.to_str().unwrap().to_string();
        let mut cli = TrainConfig::parse_from(["train", "--resume", &dir, "--stop-after", "0"]);
        // No overrides named: the saved stop rule stays; the machine settings are this
        // command line's.
        let again = open_run(cli.clone()).unwrap();
        assert_eq!((again.cfg.stop_after, again.cfg.workers), (3, 0));
        cli.resume_overrides = vec!["stop_after".into(), "eval_every".into()];
        let again = open_run(cli.clone()).unwrap();
        assert_eq!(again.cfg.stop_after, 0);
        let text = std::fs::read_to_string(made.dir.join(CONFIG_FILE)).unwrap();
        let info: RunInfo = serde_json::from_str(&text).unwrap();
        assert_eq!(
            info.config.stop_after, 0,
            "config.json says how it trains now"
        );
        assert_eq!(info.resumes.len(), 1);
        assert_eq!(
            info.resumes[0].changed,
            serde_json::json!({"stop_after": [3, 0]})
                .as_object()
                .unwrap()
                .clone(),
            "eval_every was named but unchanged"
        );
        // A setting outside the list is refused, and config.json is left as it was.
        cli.resume_overrides = vec!["lr".into()];
        let err = open_run(cli).err().unwrap().to_string();
        assert!(err.contains("cannot change \"lr\""), "{err}");
        assert_eq!(
            std::fs::read_to_string(made.dir.join(CONFIG_FILE)).unwrap(),
            text
        );
        let _ = std::fs::remove_dir_all(&runs);
    }
}
