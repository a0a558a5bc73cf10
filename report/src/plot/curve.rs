//! `curve.png`: one training run. Top: the evaluation win rates against random bots
//! and against efficiency bots (two in sanma, three in four-player), with the stop thresholds dashed. Below: entropy,
//! value loss, guidance loss and approximate KL, each on its own axis (not rescaled: a
//! reader can read the values off the ticks).

use std::path::Path;

use anyhow::{bail, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::smooth::ema_zero_phase;
use super::{draw_panel, lighten, titled, y_range, Line, Mark, Panel};
use crate::run_summary::{EvalPoint, TrainPoint};

/// Red and blue of the opponents (the tab10 palette of matplotlib, which stays apart
/// for the common colour-vision deficiencies better than pure red/blue).
pub const RANDOM_COLOR: RGBColor = RGBColor(214, 39, 40);
/// Blue: against two efficiency bots.
pub const EFF_COLOR: RGBColor = RGBColor(31, 119, 180);

/// Width and height of `curve.png`.
pub const CURVE_SIZE: (u32, u32) = (1200, 1000);

/// The smoothing time constant of evaluations for a run of `max_update` updates: a
/// fortieth of the run (about one evaluation interval at the usual 40 evaluations).
pub fn eval_tau(max_update: f64) -> f64 {
    max_update / 40.0
}

/// What one run's chart shows.
#[derive(Clone, Copy, Debug)]
pub struct CurveInput<'a> {
    /// The chart title.
    pub title: &'a str,
    /// Evaluations in update order.
    pub evals: &'a [EvalPoint],
    /// Per-update diagnostics in update order.
    pub training: &'a [TrainPoint],
    /// Stop thresholds: against random bots, against efficiency bots.
    pub thresholds: (f64, f64),
    /// Bots beside the model in an evaluation (the players minus one).
    pub opponents: u8,
    /// Whom the guidance imitated, in words ("the efficiency bot").
    pub teacher: &'a str,
}

/// Draws `input` into the PNG `path` ([`CURVE_SIZE`]).
pub fn draw_curve(path: &Path, input: &CurveInput<'_>) -> Result<()> {
    if input.evals.is_empty() && input.training.is_empty() {
        bail!(
            "nothing to draw into {}: the run has no metrics rows",
            path.display()
        );
    }
    let root = BitMapBackend::new(path, CURVE_SIZE).into_drawing_area();
    paint_curve(&root, input).with_context(|| format!("drawing {}", path.display()))?;
    root.present()
        .map_err(super::de)
        .with_context(|| format!("writing {}", path.display()))
}

fn max_update(input: &CurveInput<'_>) -> f64 {
    let e = input.evals.iter().map(|e| e.update);
    let t = input.training.iter().map(|t| t.update);
    e.chain(t).max().unwrap_or(1).max(1) as f64
}

/// Paints the whole chart into `root` (any backend: the tests paint into memory): the
/// evaluation win rates on top, four training diagnostics below.
pub fn paint_curve<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    input: &CurveInput<'_>,
) -> Result<()> {
    let body = titled(root, input.title)?;
    let (top, bottom) = body.split_vertically(420);
    let x = 0.0..max_update(input);
    paint_win_rates(&top, input, x.clone())?;
    paint_diagnostics(&bottom, input, x)
}

/// A line with its smoothing (time constant `tau`, in updates).
fn smoothed_line(
    label: &str,
    color: RGBColor,
    raw: Vec<(f64, f64)>,
    tau: f64,
    markers: bool,
) -> Line {
    Line {
        label: label.to_string(),
        color,
        smoothed: ema_zero_phase(&raw, tau),
        raw,
        markers,
    }
}

/// The evaluation win rates against random and efficiency bots, with the stop
/// thresholds dashed.
fn paint_win_rates<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    input: &CurveInput<'_>,
    x: std::ops::Range<f64>,
) -> Result<()> {
    let tau = eval_tau(x.end);
    let win = |f: &dyn Fn(&EvalPoint) -> Option<f64>| -> Vec<(f64, f64)> {
        input
            .evals
            .iter()
            .filter_map(|e| f(e).filter(|y| y.is_finite()).map(|y| (e.update as f64, y)))
            .collect()
    };
    let lines = vec![
        smoothed_line(
            &format!("vs {} random bots", input.opponents),
            RANDOM_COLOR,
            win(&|e| Some(e.random_win_rate)),
            tau,
            true,
        ),
        smoothed_line(
            &format!("vs {} efficiency bots", input.opponents),
            EFF_COLOR,
            win(&|e| e.eff_win_rate),
            tau,
            true,
        ),
    ];
    let (tr, te) = input.thresholds;
    let marks = vec![
        Mark {
            label: format!("stop threshold vs random ({:.0} %)", 100.0 * tr),
            color: lighten(RANDOM_COLOR, 0.35),
            y: tr,
        },
        Mark {
            label: format!("stop threshold vs efficiency ({:.0} %)", 100.0 * te),
            color: lighten(EFF_COLOR, 0.35),
            y: te,
        },
    ];
    draw_panel(
        area,
        &Panel {
            caption: format!(
                "Evaluation win rate (faint: each evaluation; bold: smoothed, τ = {tau:.0} updates)"
            ),
            x_desc: "update".into(),
            y_desc: "win rate (%)".into(),
            x,
            y: 0.0..1.0,
            y_scale: 100.0,
            lines,
            marks,
            legend: Some(SeriesLabelPosition::LowerRight),
        },
    )
}

/// Policy entropy, value loss, guidance loss and approximate KL, one panel each.
fn paint_diagnostics<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    input: &CurveInput<'_>,
    x: std::ops::Range<f64>,
) -> Result<()> {
    let cells = area.split_evenly((2, 2));
    // Per-update diagnostics are denser and noisier, but change fast early on.
    let diag_tau = x.end / 100.0;
    type Pick = fn(&TrainPoint) -> f64;
    let guidance = format!("Guidance loss (cross-entropy to {})", input.teacher);
    let diagnostics: [(&str, &str, RGBColor, Pick); 4] = [
        (
            "Policy entropy",
            "entropy (nats)",
            RGBColor(44, 160, 44),
            |t| t.entropy,
        ),
        (
            "Value loss",
            "mean squared error (reward²)",
            RGBColor(148, 103, 189),
            |t| t.value_loss,
        ),
        (
            &guidance,
            "cross-entropy (nats)",
            RGBColor(255, 127, 14),
            |t| t.guidance_loss,
        ),
        (
            "Approximate KL per update",
            "KL (nats)",
            RGBColor(60, 60, 60),
            |t| t.approx_kl,
        ),
    ];
    for (cell, (caption, y_desc, color, pick)) in cells.iter().zip(diagnostics) {
        let raw: Vec<(f64, f64)> = input
            .training
            .iter()
            .map(|t| (t.update as f64, pick(t)))
            .filter(|p| p.1.is_finite())
            .collect();
        let y = y_range(raw.iter().map(|p| p.1));
        draw_panel(
            cell,
            &Panel {
                caption: caption.to_string(),
                x_desc: "update".into(),
                y_desc: y_desc.to_string(),
                x: x.clone(),
                y,
                y_scale: 1.0,
                lines: vec![smoothed_line(
                    &format!("smoothed, τ = {diag_tau:.0} updates"),
                    color,
                    raw,
                    diag_tau,
                    false,
                )],
                marks: Vec::new(),
                legend: Some(SeriesLabelPosition::UpperRight),
            },
        )?;
    }
    Ok(())
}
