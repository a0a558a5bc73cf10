//! The metrics files of a run folder: `metrics.jsonl` and `metrics.csv`, one row per
//! update, appended as the run goes and rewritten (atomically) when a run resumes.
//! Also the run's `curve.png`, redrawn from those rows.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::config::TrainConfig;
use super::durable::write_atomic;
use super::metrics_row::{MetricsRow, CURVE_PNG, METRICS_CSV, METRICS_JSONL};
use report::plot::curve::CurveInput;
use report::run_summary::{EvalPoint, TrainPoint};

/// The two metrics files, open for appending.
pub(super) struct MetricsLog {
    jsonl: File,
    csv: File,
}

impl MetricsLog {
    /// Opens (creating) both files; a new CSV gets its header.
    pub(super) fn open(dir: &Path) -> Result<MetricsLog> {
        let csv_path = dir.join(METRICS_CSV);
        let new_csv = !csv_path.exists();
        let open = |p: PathBuf| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .with_context(|| format!("opening {}", p.display()))
        };
        let jsonl = open(dir.join(METRICS_JSONL))?;
        let mut csv = open(csv_path)?;
        if new_csv {
            csv.write_all(format!("{}\n", MetricsRow::csv_header()).as_bytes())
                .context("writing the metrics.csv header")?;
        }
        Ok(MetricsLog { jsonl, csv })
    }

    /// Appends one row to both files. Each line goes out in a single write, so a kill
    /// can cut at most the last line (which [`read_metrics`] then skips), never mix two.
    pub(super) fn write(&mut self, row: &MetricsRow) -> Result<()> {
        let json = serde_json::to_string(row).context("serializing a metrics row")?;
        self.jsonl
            .write_all(format!("{json}\n").as_bytes())
            .context("appending to metrics.jsonl")?;
        self.csv
            .write_all(format!("{}\n", row.csv()).as_bytes())
            .context("appending to metrics.csv")?;
        Ok(())
    }

    /// Syncs both files, so that the rows up to a checkpoint are on disk before it is.
    pub(super) fn sync(&self) -> Result<()> {
        self.jsonl.sync_data().context("syncing metrics.jsonl")?;
        self.csv.sync_data().context("syncing metrics.csv")
    }
}

/// Reads the metrics rows of a run folder (for the curve after a resume).
pub fn read_metrics(dir: &Path) -> Result<Vec<MetricsRow>> {
    let p = dir.join(METRICS_JSONL);
    if !p.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
    // A line cut by a kill is skipped; so are rows beyond the checkpoint (the caller trims).
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// The metrics rows that a run continues from, with both files made to hold exactly
/// them: the rows up to `update` (the checkpoint's; 0 for a run without one), each
/// update once, in order. A line cut by a kill, rows past the checkpoint (work that a
/// kill lost and the run redoes) and any repeated update are dropped, so the next row
/// appended is `update + 1`. The files are rewritten (atomically) whenever one exists:
/// also for a run that starts over in a folder whose earlier run was killed before its
/// first checkpoint, whose rows would otherwise come twice.
pub(super) fn resume_metrics(dir: &Path, update: u64) -> Result<Vec<MetricsRow>> {
    let mut last = 0;
    let rows: Vec<MetricsRow> = read_metrics(dir)?
        .into_iter()
        .filter(|r| {
            let keep = r.update > last && r.update <= update;
            if keep {
                last = r.update;
            }
            keep
        })
        .collect();
    if dir.join(METRICS_JSONL).exists() || dir.join(METRICS_CSV).exists() {
        rewrite_metrics(dir, &rows)?;
    }
    Ok(rows)
}

/// Replaces both metrics files by exactly `rows` (on resume: the rows up to the
/// checkpoint, so that rows of lost work disappear). Each file is replaced atomically,
/// so a kill during the rewrite leaves the old or the new file, never a truncated one.
fn rewrite_metrics(dir: &Path, rows: &[MetricsRow]) -> Result<()> {
    let mut j = String::new();
    let mut c = format!("{}\n", MetricsRow::csv_header());
    for r in rows {
        j.push_str(&serde_json::to_string(r).context("serializing a metrics row")?);
        j.push('\n');
        c.push_str(&r.csv());
        c.push('\n');
    }
    write_atomic(&dir.join(METRICS_JSONL), j.as_bytes())?;
    write_atomic(&dir.join(METRICS_CSV), c.as_bytes())
}

/// Redraws `run_dir/curve.png` from the metrics rows so far.
pub fn draw_curve(run_dir: &Path, rows: &[MetricsRow], cfg: &TrainConfig) -> Result<()> {
    let evals: Vec<EvalPoint> = rows
        .iter()
        .filter_map(|r| {
            Some(EvalPoint {
                update: r.update,
                elapsed_s: r.elapsed_s,
                random_win_rate: r.eval_random_win_rate?,
                eff_win_rate: r.eval_eff_win_rate,
                eff_points: r.eval_eff_points,
                paired_points: (|| {
                    Some([
                        r.eval_paired_points?,
                        r.eval_paired_points_low?,
                        r.eval_paired_points_high?,
                    ])
                })(),
            })
        })
        .collect();
    let training: Vec<TrainPoint> = rows
        .iter()
        .map(|r| TrainPoint {
            update: r.update,
            elapsed_s: r.elapsed_s,
            entropy: r.entropy,
            value_loss: r.value_loss,
            guidance_loss: r.guidance_loss,
            approx_kl: r.approx_kl,
        })
        .collect();
    let name = run_dir.file_name().unwrap_or(run_dir.as_os_str());
    let title = format!(
        "Training run {}: seed {}, guidance {:?}",
        name.to_string_lossy(),
        cfg.seed,
        cfg.guidance
    );
    report::plot::draw_curve(
        &run_dir.join(CURVE_PNG),
        &CurveInput {
            title: &title,
            evals: &evals,
            training: &training,
            thresholds: (cfg.win_rate_random, cfg.win_rate_eff),
            opponents: engine::Rules::preset(&cfg.rules).map_or(2, |r| r.players - 1),
            teacher: report::run_summary::teacher_in_words(
                clap::ValueEnum::to_possible_value(&cfg.teacher)
                    .as_ref()
                    .map_or("", |v| v.get_name()),
            ),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(update: u64) -> MetricsRow {
        MetricsRow {
            update,
            samples: 48 * update,
            ..Default::default()
        }
    }

    fn jsonl(rows: &[MetricsRow]) -> String {
        rows.iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect()
    }

    fn csv(rows: &[MetricsRow]) -> String {
        let mut c = format!("{}\n", MetricsRow::csv_header());
        for r in rows {
            c.push_str(&(r.csv() + "\n"));
        }
        c
    }

    fn updates(rows: &[MetricsRow]) -> Vec<u64> {
        rows.iter().map(|r| r.update).collect()
    }

    #[test]
    fn resume_metrics_keeps_the_rows_up_to_the_checkpoint_once_each() {
        let dir = std::env::temp_dir().join(format!("metrics-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (j, c) = (dir.join(METRICS_JSONL), dir.join(METRICS_CSV));

        // A fresh folder: nothing to keep, no files made.
        assert!(resume_metrics(&dir, 0).unwrap().is_empty());
        assert!(!j.exists() && !c.exists());

        // Killed after update 3 with the checkpoint at 2: a torn tail, a CSV row short.
        let three: Vec<MetricsRow> = (1..=3).map(row).collect();
        std::fs::write(&j, jsonl(&three) + "{\"update\":4,\"sam").unwrap();
        std::fs::write(&c, csv(&three[..2])).unwrap();
        let kept = resume_metrics(&dir, 2).unwrap();
        assert_eq!(updates(&kept), [1, 2]);
        assert_eq!(std::fs::read_to_string(&j).unwrap(), jsonl(&three[..2]));
        assert_eq!(std::fs::read_to_string(&c).unwrap(), csv(&three[..2]));

        // Rows written twice (a run started over without a checkpoint) come once.
        let twice: Vec<MetricsRow> = [1, 2, 1, 2, 3].into_iter().map(row).collect();
        std::fs::write(&j, jsonl(&twice)).unwrap();
        assert_eq!(updates(&resume_metrics(&dir, 3).unwrap()), [1, 2, 3]);
        assert_eq!(std::fs::read_to_string(&j).unwrap(), jsonl(&three));

        // Killed before the first checkpoint: the run starts over with empty files.
        assert!(resume_metrics(&dir, 0).unwrap().is_empty());
        assert_eq!(std::fs::read_to_string(&j).unwrap(), "");
        assert_eq!(std::fs::read_to_string(&c).unwrap(), csv(&[]));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
