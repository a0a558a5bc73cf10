//! `guidance.png`: the guidance ablation on one chart. Rows: win rate against two
//! random bots, against two efficiency bots. Columns: against updates, against training
//! time. Within a column every run shares the x axis (the longest run's length), so runs
//! of different lengths are compared on the same scale; within a row both panels show
//! the same values (smoothed once, by update, then placed at their training time).

use std::path::Path;

use anyhow::{bail, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::curve::{eval_tau, EFF_COLOR, RANDOM_COLOR};
use super::smooth::ema_zero_phase;
use super::{draw_panel, titled, Line, Mark, Panel};
use crate::run_summary::EvalPoint;

/// Width and height of `guidance.png`.
pub const GUIDANCE_SIZE: (u32, u32) = (1200, 860);

/// One run of the comparison.
#[derive(Clone, Copy, Debug)]
pub struct RunCurve<'a> {
    /// Its legend entry (e.g. `guidance On (models/run)`).
    pub label: &'a str,
    /// Its evaluations in update order.
    pub evals: &'a [EvalPoint],
}

/// Colours of the runs, in order (tab10 green, purple, brown, cyan, olive, pink: apart
/// from the opponents' red and blue of `curve.png`, so the two charts are not confused).
const RUN_COLORS: [RGBColor; 6] = [
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(227, 119, 194),
];

/// Draws the comparison of `runs` into the PNG `path` ([`GUIDANCE_SIZE`]).
/// `thresholds`: the stop thresholds against random and against efficiency bots.
pub fn draw_guidance(
    path: &Path,
    title: &str,
    runs: &[RunCurve<'_>],
    thresholds: (f64, f64),
) -> Result<()> {
    check(runs)?;
    let root = BitMapBackend::new(path, GUIDANCE_SIZE).into_drawing_area();
    paint_guidance(&root, title, runs, thresholds)
        .with_context(|| format!("drawing {}", path.display()))?;
    root.present()
        .map_err(super::de)
        .with_context(|| format!("writing {}", path.display()))
}

/// The runs must exist, fit the palette and each have an evaluation.
fn check(runs: &[RunCurve<'_>]) -> Result<()> {
    if runs.is_empty() {
        bail!("the guidance chart needs at least one run");
    }
    if runs.len() > RUN_COLORS.len() {
        bail!(
            "the guidance chart has colours for {} runs, not {}",
            RUN_COLORS.len(),
            runs.len()
        );
    }
    if let Some(r) = runs.iter().find(|r| r.evals.is_empty()) {
        bail!(
            "run {:?} has no evaluations (no metrics row with eval_random_win_rate): \
             nothing to compare",
            r.label
        );
    }
    Ok(())
}

/// One run's (update, win rate) points, their smoothing and the points' training minutes.
type PerRun = (Vec<(f64, f64)>, Vec<(f64, f64)>, Vec<f64>);

/// (update, win rate) of each run's evaluations where `pick` has a value, smoothed by
/// update (time constant `tau`), with each point's training minutes.
fn per_run(runs: &[RunCurve<'_>], pick: fn(&EvalPoint) -> Option<f64>, tau: f64) -> Vec<PerRun> {
    runs.iter()
        .map(|r| {
            let pts: Vec<&EvalPoint> = r
                .evals
                .iter()
                .filter(|e| pick(e).is_some_and(f64::is_finite))
                .collect();
            let by_update: Vec<(f64, f64)> = pts
                .iter()
                .map(|e| (e.update as f64, pick(e).unwrap_or(0.0)))
                .collect();
            let smooth = ema_zero_phase(&by_update, tau);
            let minutes: Vec<f64> = pts.iter().map(|e| e.elapsed_s / 60.0).collect();
            (by_update, smooth, minutes)
        })
        .collect()
}

/// One line per run, by update or (`by_minutes`) by training time.
fn run_lines(runs: &[RunCurve<'_>], per_run: &[PerRun], by_minutes: bool) -> Vec<Line> {
    runs.iter()
        .zip(per_run)
        .zip(RUN_COLORS)
        .map(|((r, (raw, smooth, minutes)), color)| {
            let at = |v: &[(f64, f64)]| -> Vec<(f64, f64)> {
                if by_minutes {
                    minutes.iter().zip(v).map(|(&m, p)| (m, p.1)).collect()
                } else {
                    v.to_vec()
                }
            };
            Line {
                label: r.label.to_string(),
                color,
                raw: at(raw),
                smoothed: at(smooth),
                markers: true,
            }
        })
        .collect()
}

/// Paints the chart into `root` (any backend: the tests paint into memory): win rates
/// against random and efficiency bots (rows), by update and by training time (columns).
pub fn paint_guidance<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    runs: &[RunCurve<'_>],
    thresholds: (f64, f64),
) -> Result<()> {
    check(runs)?;
    let body = titled(root, title)?;
    let all = || runs.iter().flat_map(|r| r.evals.iter());
    let max_update = all().map(|e| e.update).max().unwrap_or(1).max(1) as f64;
    let max_minutes = all().map(|e| e.elapsed_s / 60.0).fold(0.0, f64::max);
    let max_minutes = if max_minutes > 0.0 { max_minutes } else { 1.0 };
    let tau = eval_tau(max_update);
    let cells = body.split_evenly((2, 2));
    type Pick = fn(&EvalPoint) -> Option<f64>;
    let rows: [(&str, Pick, f64, RGBColor); 2] = [
        (
            "vs 2 random bots",
            |e| Some(e.random_win_rate),
            thresholds.0,
            RANDOM_COLOR,
        ),
        (
            "vs 2 efficiency bots",
            |e| e.eff_win_rate,
            thresholds.1,
            EFF_COLOR,
        ),
    ];
    for (row, (opponents, pick, threshold, mark_color)) in rows.into_iter().enumerate() {
        let per_run = per_run(runs, pick, tau);
        for col in 0..2 {
            let lines = run_lines(runs, &per_run, col == 1);
            let (x_desc, x) = if col == 0 {
                ("update", 0.0..max_update)
            } else {
                ("training time (minutes, wall clock)", 0.0..max_minutes)
            };
            draw_panel(
                &cells[2 * row + col],
                &Panel {
                    caption: format!(
                        "Win rate {opponents}, by {}",
                        if col == 0 { "update" } else { "training time" }
                    ),
                    x_desc: x_desc.into(),
                    y_desc: "win rate (%)".into(),
                    x,
                    y: 0.0..1.0,
                    y_scale: 100.0,
                    lines,
                    marks: vec![Mark {
                        label: format!("stop threshold ({:.0} %)", 100.0 * threshold),
                        color: mark_color,
                        y: threshold,
                    }],
                    // Against random bots the rates sit near the middle and rise, so the
                    // legend goes below them; against efficiency bots they sit low.
                    legend: Some(if row == 0 {
                        SeriesLabelPosition::LowerRight
                    } else {
                        SeriesLabelPosition::UpperRight
                    }),
                },
            )?;
        }
    }
    Ok(())
}
