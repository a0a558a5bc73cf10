//! What a training run folder says about itself: its configuration, seed, git revision,
//! budget and evaluation history (`config.json` and `metrics.jsonl`, as written by
//! `host-trainer train`). Read as plain JSON so that the report needs no libtorch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::Value;

/// One evaluation of a run (a metrics row with evaluation columns).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EvalPoint {
    /// Updates done at the evaluation.
    pub update: u64,
    /// Training seconds at the evaluation.
    pub elapsed_s: f64,
    /// Policy win rate against two random bots.
    pub random_win_rate: f64,
    /// Policy win rate against two efficiency bots (if evaluated).
    pub eff_win_rate: Option<f64>,
    /// Policy points per hand against two efficiency bots (if evaluated).
    pub eff_points: Option<f64>,
    /// Points per hand of the policy minus the efficiency bot's in the same seats,
    /// paired by wall, with its 95 % interval: `[mean, low, high]` (runs that evaluated
    /// paired only).
    pub paired_points: Option<[f64; 3]>,
}

/// The training diagnostics of one update (every metrics row has them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrainPoint {
    /// Updates done.
    pub update: u64,
    /// Training seconds so far.
    pub elapsed_s: f64,
    /// Policy entropy (nats).
    pub entropy: f64,
    /// Value loss (squared error of the value head).
    pub value_loss: f64,
    /// Guidance cross-entropy against the efficiency bot's choice (nats).
    pub guidance_loss: f64,
    /// Approximate KL between the behaviour and the updated policy (nats).
    pub approx_kl: f64,
}

/// A training run, summarised.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    /// The run folder.
    pub dir: PathBuf,
    /// The hyperparameters as saved (`config.json` → `config`).
    pub config: BTreeMap<String, Value>,
    /// The git revision the run started from.
    pub git_revision: String,
    /// Master seed.
    pub seed: u64,
    /// `on` or `off` (`On` or `Off` in older runs).
    pub guidance: String,
    /// What the guidance imitated (`value-scores`, `eff`, `search`); runs from before
    /// `--teacher` had only the value scores.
    pub teacher: String,
    /// Updates done.
    pub updates: u64,
    /// Training seconds (summed over resumed sessions).
    pub elapsed_s: f64,
    /// Samples trained on.
    pub samples: u64,
    /// Self-play hands played.
    pub hands: u64,
    /// The stop threshold on the win rate against two random bots.
    pub random_threshold: f64,
    /// Every evaluation, in update order.
    pub evals: Vec<EvalPoint>,
    /// The stop threshold on the win rate against two efficiency bots.
    pub eff_threshold: f64,
    /// The first evaluation at or above `random_threshold`.
    pub first_random_threshold: Option<EvalPoint>,
    /// Every update's diagnostics, for the charts (not in `report.json`: one row per
    /// update would swamp it, and `metrics.jsonl` has them).
    #[serde(skip)]
    pub training: Vec<TrainPoint>,
}

fn number(row: &Value, key: &str) -> Option<f64> {
    row.get(key).and_then(Value::as_f64)
}

/// Whom a run's guidance imitates, in words, by the `--teacher` value (`eff`, `defend`,
/// `search`, `value-scores`).
pub fn teacher_in_words(teacher: &str) -> &'static str {
    match teacher {
        "eff" => "the efficiency bot",
        "defend" => "the defending bot",
        "search" => "the search's values",
        _ => "the best value scores",
    }
}

/// `[mean, low, high]` of a row's paired evaluation, when it has all three.
fn paired_points(row: &Value) -> Option<[f64; 3]> {
    Some([
        number(row, "eval_paired_points")?,
        number(row, "eval_paired_points_low")?,
        number(row, "eval_paired_points_high")?,
    ])
}

/// The run's `config` object and git revision from its `config.json`.
fn read_config(path: &Path) -> Result<(BTreeMap<String, Value>, String)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let saved: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let Some(config) = saved.get("config").and_then(Value::as_object) else {
        bail!("{} has no \"config\" object", path.display());
    };
    let config = config.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let git_revision = saved
        .get("git_revision")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    Ok((config, git_revision))
}

/// The rows of `metrics.jsonl` by update (a repeated update: the later row).
fn read_metrics(path: &Path) -> Result<BTreeMap<u64, Value>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row: Value = serde_json::from_str(line)
            .with_context(|| format!("{} line {}: not JSON", path.display(), i + 1))?;
        let update = row
            .get("update")
            .and_then(Value::as_u64)
            .with_context(|| format!("{} line {}: no update", path.display(), i + 1))?;
        rows.insert(update, row);
    }
    Ok(rows)
}

/// A row's evaluation, when the update ran one.
fn eval_point(row: &Value) -> Option<EvalPoint> {
    Some(EvalPoint {
        update: row.get("update")?.as_u64()?,
        elapsed_s: number(row, "elapsed_s")?,
        random_win_rate: number(row, "eval_random_win_rate")?,
        eff_win_rate: number(row, "eval_eff_win_rate"),
        eff_points: number(row, "eval_eff_points"),
        paired_points: paired_points(row),
    })
}

/// A row's training diagnostics.
fn train_point(row: &Value) -> Option<TrainPoint> {
    Some(TrainPoint {
        update: row.get("update")?.as_u64()?,
        elapsed_s: number(row, "elapsed_s")?,
        entropy: number(row, "entropy")?,
        value_loss: number(row, "value_loss")?,
        guidance_loss: number(row, "guidance_loss")?,
        approx_kl: number(row, "approx_kl")?,
    })
}

impl RunSummary {
    /// Reads `dir/config.json` and `dir/metrics.jsonl`. A resumed run may repeat the
    /// updates after its last checkpoint; the later row of an update wins.
    pub fn load(dir: &Path) -> Result<RunSummary> {
        let (config, git_revision) = read_config(&dir.join("config.json"))?;
        let seed = config
            .get("seed")
            .and_then(Value::as_u64)
            .with_context(|| format!("{}: no seed", dir.join("config.json").display()))?;
        let text_of = |key: &str, default: &str| {
            config
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or(default)
                .to_string()
        };
        let guidance = text_of("guidance", "On");
        let teacher = text_of("teacher", "value-scores");
        let threshold =
            |key: &str, default: f64| config.get(key).and_then(Value::as_f64).unwrap_or(default);
        let random_threshold = threshold("win_rate_random", 0.45);
        let eff_threshold = threshold("win_rate_eff", 0.30);
        let rows = read_metrics(&dir.join("metrics.jsonl"))?;
        let Some(last) = rows.values().next_back() else {
            bail!(
                "{} has no rows: the run never finished an update",
                dir.join("metrics.jsonl").display()
            );
        };
        let evals: Vec<EvalPoint> = rows.values().filter_map(eval_point).collect();
        let first_random_threshold = evals
            .iter()
            .find(|e| e.random_win_rate >= random_threshold)
            .copied();
        Ok(RunSummary {
            dir: dir.to_path_buf(),
            git_revision,
            seed,
            guidance,
            teacher,
            updates: last.get("update").and_then(Value::as_u64).unwrap_or(0),
            elapsed_s: number(last, "elapsed_s").unwrap_or(0.0),
            samples: last.get("samples").and_then(Value::as_u64).unwrap_or(0),
            hands: last.get("hands").and_then(Value::as_u64).unwrap_or(0),
            random_threshold,
            evals,
            eff_threshold,
            first_random_threshold,
            training: rows.values().filter_map(train_point).collect(),
            config,
        })
    }

    /// Whether the run trained with guidance.
    pub fn guided(&self) -> bool {
        self.guidance.eq_ignore_ascii_case("on")
    }

    /// The bots an evaluation seats beside the model: the run's players minus one (two
    /// when the rules are not a known preset).
    pub fn opponents(&self) -> u8 {
        let rules = self.config.get("rules").and_then(|v| v.as_str());
        rules
            .and_then(engine::Rules::preset)
            .map_or(2, |r| r.players.saturating_sub(1))
    }

    /// Whom the guidance imitated, in words ("the efficiency bot").
    pub fn teacher_words(&self) -> &'static str {
        teacher_in_words(&self.teacher)
    }

    /// `guidance off`, or `guidance on, teacher T`.
    pub fn guidance_label(&self) -> String {
        if self.guided() {
            format!("guidance on, teacher {}", self.teacher)
        } else {
            "guidance off".into()
        }
    }

    /// The last evaluation at or before `elapsed_s` seconds of training.
    pub fn eval_by_time(&self, elapsed_s: f64) -> Option<EvalPoint> {
        self.evals
            .iter()
            .rev()
            .find(|e| e.elapsed_s <= elapsed_s)
            .copied()
    }

    /// The last evaluation at or before `update`.
    pub fn eval_at(&self, update: u64) -> Option<EvalPoint> {
        self.evals
            .iter()
            .rev()
            .find(|e| e.update <= update)
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_run(dir: &Path, metrics: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("config.json"),
            r#"{"config":{"seed":5,"guidance":"Off","win_rate_random":0.45},"git_revision":"abc"}"#,
        )
        .unwrap();
        std::fs::write(dir.join("metrics.jsonl"), metrics).unwrap();
    }

    #[test]
    fn reads_evaluations_and_the_first_threshold_crossing() {
        let dir = std::env::temp_dir().join(format!("run-summary-{}", std::process::id()));
        let rows = [
            r#"{"update":1,"samples":10,"hands":1,"elapsed_s":2.0}"#,
            r#"{"update":2,"samples":20,"hands":2,"elapsed_s":4.0,"eval_random_win_rate":0.3,"eval_eff_win_rate":0.1,"eval_eff_points":-0.5}"#,
            r#"{"update":3,"samples":30,"hands":3,"elapsed_s":6.0,"eval_random_win_rate":null}"#,
            // A resumed session redoes update 3 and goes on.
            r#"{"update":3,"samples":31,"hands":3,"elapsed_s":6.5,"eval_random_win_rate":0.5,"eval_eff_win_rate":0.2,"eval_eff_points":-0.1,"eval_paired_points":0.2,"eval_paired_points_low":-0.1,"eval_paired_points_high":0.5}"#,
            r#"{"update":4,"samples":40,"hands":4,"elapsed_s":8.0,"eval_random_win_rate":0.6,"entropy":1.5,"value_loss":0.2,"guidance_loss":0.9,"approx_kl":0.01}"#,
        ];
        write_run(&dir, &(rows.join("\n") + "\n"));
        let s = RunSummary::load(&dir).unwrap();
        assert_eq!(
            (s.seed, s.guidance.as_str(), s.git_revision.as_str()),
            (5, "Off", "abc")
        );
        assert_eq!((s.updates, s.samples, s.hands), (4, 40, 4));
        assert_eq!(s.evals.len(), 3);
        // Only rows with every diagnostic become training points.
        assert_eq!(s.training.len(), 1);
        assert_eq!((s.training[0].update, s.training[0].entropy), (4, 1.5));
        assert_eq!(s.eff_threshold, 0.30);
        let first = s.first_random_threshold.unwrap();
        assert_eq!((first.update, first.elapsed_s), (3, 6.5));
        assert_eq!(s.eval_at(2).unwrap().eff_points, Some(-0.5));
        assert_eq!(s.eval_at(10).unwrap().update, 4);
        assert!(s.eval_at(1).is_none());
        assert_eq!(s.eval_by_time(6.4).unwrap().update, 2);
        assert_eq!(s.eval_by_time(6.5).unwrap().update, 3);
        assert!(s.eval_by_time(3.9).is_none());
        assert_eq!((s.teacher.as_str(), s.guided()), ("value-scores", false));
        assert_eq!(s.guidance_label(), "guidance off");
        assert_eq!(s.eval_at(3).unwrap().paired_points, Some([0.2, -0.1, 0.5]));
        assert_eq!(s.eval_at(2).unwrap().paired_points, None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_shipped_runs_name_their_opponents_and_teacher() {
        // What the training curve's labels say: players − 1 bots, and the teacher.
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        let four = RunSummary::load(&models.join("tenhou-4p/run")).unwrap();
        assert_eq!(
            (four.opponents(), four.teacher_words()),
            (3, "the defending bot")
        );
        let sanma = RunSummary::load(&models.join("run")).unwrap();
        // The default model's run predates --teacher: it was guided by the value scores.
        assert_eq!(
            (sanma.opponents(), sanma.teacher_words()),
            (2, "the best value scores")
        );
        // A config without rules evaluated against two bots (the default rules).
        let dir = std::env::temp_dir().join(format!("run-summary-words-{}", std::process::id()));
        write_run(
            &dir,
            r#"{"update":1,"samples":10,"hands":1,"elapsed_s":2.0}"#,
        );
        let old = RunSummary::load(&dir).unwrap();
        assert_eq!(
            (old.opponents(), old.teacher_words()),
            (2, "the best value scores")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_or_empty_runs_are_clear_errors() {
        let dir = std::env::temp_dir().join(format!("run-summary-empty-{}", std::process::id()));
        write_run(&dir, "");
        let e = RunSummary::load(&dir).unwrap_err().to_string();
        assert!(e.contains("no rows"), "{e}");
        let e = RunSummary::load(&dir.join("nope")).unwrap_err().to_string();
        assert!(e.contains("config.json"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
