//! The charts of a training run and of the guidance ablation, drawn with plotters'
//! bitmap backend and the embedded font of [`font`] (titles, axis labels with units,
//! legends). Noisy series are drawn twice: the raw values faint, their zero-lag
//! exponential moving average ([`smooth::ema_zero_phase`]) bold on top.
//!
//! - [`curve::draw_curve`]: one run's `curve.png` (evaluation win rates, then entropy,
//!   value loss, guidance loss and approximate KL, each on its own labelled axis).
//! - [`guidance::draw_guidance`]: guidance on and off on one chart, against updates and
//!   against training time on shared axes (`guidance.png` of the report).

pub mod curve;
pub mod font;
pub mod guidance;
pub mod smooth;

use std::ops::Range;

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use curve::draw_curve;
pub use guidance::draw_guidance;

/// One series of a panel.
#[derive(Clone, Debug)]
pub struct Line {
    /// Its legend entry.
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// The measured values (drawn faint when `smoothed` is given).
    pub raw: Vec<(f64, f64)>,
    /// The smoothed values, drawn bold; empty: `raw` is drawn bold instead.
    pub smoothed: Vec<(f64, f64)>,
    /// Whether to mark every raw point (sparse series such as evaluations).
    pub markers: bool,
}

/// A horizontal reference line (a stop threshold), dashed.
#[derive(Clone, Debug)]
pub struct Mark {
    /// Its legend entry (empty: none).
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// Its y value.
    pub y: f64,
}

/// One chart panel: axes with their descriptions, lines and reference marks.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The panel's title.
    pub caption: String,
    /// The x axis description, with its unit.
    pub x_desc: String,
    /// The y axis description, with its unit.
    pub y_desc: String,
    /// The x range.
    pub x: Range<f64>,
    /// The y range.
    pub y: Range<f64>,
    /// Multiply y tick values by this for their labels (100: fractions shown as %).
    pub y_scale: f64,
    /// The series.
    pub lines: Vec<Line>,
    /// The reference lines.
    pub marks: Vec<Mark>,
    /// Where the legend goes (None: no legend).
    pub legend: Option<SeriesLabelPosition>,
}

/// Maps a plotters error (whose type depends on the backend) to anyhow.
fn de(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("plotting failed: {e}")
}

/// A y range covering `values` with 5 % room on each side (a flat or empty series
/// gets a unit-wide range so that the axis still has ticks).
pub fn y_range(values: impl IntoIterator<Item = f64>) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return 0.0..1.0;
    }
    if hi - lo < 1e-12 {
        let pad = (hi.abs() * 0.1).max(0.5);
        return lo - pad..hi + pad;
    }
    let pad = 0.05 * (hi - lo);
    lo - pad..hi + pad
}

/// `c` blended towards white by `f` (0: unchanged, 1: white), as an opaque colour so
/// that dashed lines do not darken where their dashes overlap.
pub fn lighten(c: RGBColor, f: f64) -> RGBColor {
    let mix = |v: u8| (v as f64 + (255.0 - v as f64) * f.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Text in the embedded font.
fn text(size: u32) -> TextStyle<'static> {
    (font::FAMILY, size).into_font().color(&BLACK)
}

/// Draws `panel` into `area`.
pub fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Panel) -> Result<()> {
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.caption, text(17))
        .margin(8)
        .margin_right(16)
        .x_label_area_size(44)
        .y_label_area_size(62)
        .build_cartesian_2d(panel.x.clone(), panel.y.clone())
        .map_err(de)?;
    let scale = panel.y_scale;
    // Three decimals at most, trailing zeros dropped: 0.5, 1.5, 60 (not 0.500, 60.0).
    let short = |v: f64| {
        let t = format!("{v:.3}");
        let t = t.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".to_string()
        } else {
            t.to_string()
        }
    };
    let y_fmt = move |v: &f64| short(v * scale);
    let x_fmt = move |v: &f64| short(*v);
    chart
        .configure_mesh()
        .x_desc(panel.x_desc.as_str())
        .y_desc(panel.y_desc.as_str())
        .label_style(text(13))
        .axis_desc_style(text(14))
        .bold_line_style(RGBColor(215, 215, 215))
        .light_line_style(RGBColor(243, 243, 243))
        .x_labels(8)
        .y_labels(6)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .draw()
        .map_err(de)?;
    let x_span = panel.x.clone();
    for m in &panel.marks {
        let style = m.color.stroke_width(1);
        let series = chart
            .draw_series(DashedLineSeries::new(
                [(x_span.start, m.y), (x_span.end, m.y)],
                8,
                5,
                style,
            ))
            .map_err(de)?;
        if !m.label.is_empty() {
            series
                .label(m.label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], style));
        }
    }
    for l in &panel.lines {
        draw_line(&mut chart, l)?;
    }
    if let Some(pos) = panel.legend.clone() {
        chart
            .configure_series_labels()
            .label_font(text(13))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .position(pos)
            .draw()
            .map_err(de)?;
    }
    Ok(())
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// One series: raw faint (and marked), smoothed bold with the legend entry.
fn draw_line<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, l: &Line) -> Result<()> {
    let bold = l.color.stroke_width(2);
    let (front, has_back) = if l.smoothed.is_empty() {
        (&l.raw, false)
    } else {
        (&l.smoothed, true)
    };
    if has_back {
        let faint = l.color.mix(0.3).stroke_width(1);
        chart
            .draw_series(LineSeries::new(l.raw.iter().copied(), faint))
            .map_err(de)?;
    }
    if l.markers {
        let dot = l.color.mix(if has_back { 0.45 } else { 1.0 }).filled();
        chart
            .draw_series(l.raw.iter().map(|&p| Circle::new(p, 2, dot)))
            .map_err(de)?;
    }
    let series = if front.len() == 1 {
        chart
            .draw_series(front.iter().map(|&p| Circle::new(p, 4, l.color.filled())))
            .map_err(de)?
    } else {
        chart
            .draw_series(LineSeries::new(front.iter().copied(), bold))
            .map_err(de)?
    };
    series
        .label(l.label.as_str())
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], bold));
    Ok(())
}

/// Fills `root` white and writes `title` across its top; returns the area below it.
pub fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>> {
    font::ensure()?;
    root.fill(&WHITE).map_err(de)?;
    root.titled(title, text(22)).map_err(de)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn y_ranges_pad_and_survive_flat_or_empty_series() {
        let r = y_range([1.0, 3.0]);
        assert!(
            (r.start - 0.9).abs() < 1e-12 && (r.end - 3.1).abs() < 1e-12,
            "{r:?}"
        );
        assert_eq!(y_range([]), 0.0..1.0);
        assert_eq!(y_range([f64::NAN]), 0.0..1.0);
        let flat = y_range([2.0, 2.0]);
        assert!(flat.start < 2.0 && flat.end > 2.0);
    }
}

#[cfg(test)]
mod chart_tests;
