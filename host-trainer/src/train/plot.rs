//! `curve.png`: the training curve, drawn with plotters' bitmap backend and no text (so
//! no system font is needed). Legend, in words:
//!
//! - **Left panel**, x = update, y = win rate from 0 (bottom) to 1 (top), grey lines at
//!   0.25, 0.5, 0.75: red = policy against two random bots, blue = against two
//!   efficiency bots; thin light red / light blue horizontal lines = the stop
//!   thresholds.
//! - **Right panel**, x = update, each curve scaled to its own maximum absolute value:
//!   green = entropy, purple = value loss, orange = guidance loss, black = approximate
//!   KL between the behaviour and the updated policy.

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;

use super::run::MetricsRow;

fn series(rows: &[MetricsRow], f: impl Fn(&MetricsRow) -> Option<f64>) -> Vec<(f64, f64)> {
    rows.iter()
        .filter_map(|r| f(r).filter(|y| y.is_finite()).map(|y| (r.update as f64, y)))
        .collect()
}

fn scaled(v: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let m = v.iter().map(|p| p.1.abs()).fold(0.0, f64::max);
    if m > 0.0 {
        v.into_iter().map(|(x, y)| (x, y / m)).collect()
    } else {
        v
    }
}

/// Draws the curve of `rows` into `path` (PNG, 1200×480).
pub fn draw(path: &Path, rows: &[MetricsRow], thresholds: (f64, f64)) -> Result<()> {
    let e = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    let root = BitMapBackend::new(path, (1200, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let (left, right) = root.split_horizontally(600);
    let max_x = rows.iter().map(|r| r.update).max().unwrap_or(1).max(1) as f64;
    for (area, panel) in [(left, 0), (right, 1)] {
        let area = area.margin(20, 20, 20, 20);
        let mut chart = ChartBuilder::on(&area)
            .build_cartesian_2d(0.0..max_x, -0.02..1.02)
            .map_err(|x| e(&x))?;
        let grey = RGBColor(220, 220, 220);
        for y in [0.0, 0.25, 0.5, 0.75, 1.0] {
            chart
                .draw_series(LineSeries::new([(0.0, y), (max_x, y)], grey))
                .map_err(|x| e(&x))?;
        }
        chart
            .draw_series(LineSeries::new([(0.0, -0.02), (0.0, 1.02)], BLACK))
            .map_err(|x| e(&x))?;
        let lines: Vec<(Vec<(f64, f64)>, RGBColor)> = if panel == 0 {
            vec![
                (
                    vec![(0.0, thresholds.0), (max_x, thresholds.0)],
                    RGBColor(255, 180, 180),
                ),
                (
                    vec![(0.0, thresholds.1), (max_x, thresholds.1)],
                    RGBColor(180, 180, 255),
                ),
                (series(rows, |r| r.eval_random_win_rate), RED),
                (series(rows, |r| r.eval_eff_win_rate), BLUE),
            ]
        } else {
            vec![
                (
                    scaled(series(rows, |r| Some(r.entropy))),
                    RGBColor(0, 150, 0),
                ),
                (
                    scaled(series(rows, |r| Some(r.value_loss))),
                    RGBColor(128, 0, 128),
                ),
                (
                    scaled(series(rows, |r| Some(r.guidance_loss))),
                    RGBColor(255, 140, 0),
                ),
                (scaled(series(rows, |r| Some(r.approx_kl))), BLACK),
            ]
        };
        for (pts, color) in lines {
            if pts.len() >= 2 {
                chart
                    .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                    .map_err(|x| e(&x))?;
            } else if let Some(&p) = pts.first() {
                chart
                    .draw_series([Circle::new(p, 3, color.filled())])
                    .map_err(|x| e(&x))?;
            }
        }
    }
    root.present().map_err(|x| e(&x))?;
    Ok(())
}
