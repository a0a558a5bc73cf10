//! Tests of the charts: they paint into memory (so that pixels can be checked) and into
//! real PNG files from the shipped training runs.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::curve::{paint_curve, CurveInput, CURVE_SIZE};
use super::guidance::{draw_guidance, paint_guidance, RunCurve, GUIDANCE_SIZE};
use crate::run_summary::{EvalPoint, RunSummary, TrainPoint};

fn evals(n: u64, every: u64) -> Vec<EvalPoint> {
    (1..=n)
        .map(|i| EvalPoint {
            update: i * every,
            elapsed_s: 30.0 * (i * every) as f64,
            random_win_rate: 0.2 + 0.5 * (i as f64 / n as f64),
            eff_win_rate: Some(0.1 + 0.2 * (i as f64 / n as f64)),
            eff_points: None,
            paired_points: None,
        })
        .collect()
}

fn training(n: u64) -> Vec<TrainPoint> {
    (1..=n)
        .map(|u| TrainPoint {
            update: u,
            elapsed_s: 30.0 * u as f64,
            entropy: 2.0 - u as f64 / n as f64,
            value_loss: 0.1 + 0.01 * (u % 7) as f64,
            guidance_loss: 1.5 / (1.0 + u as f64),
            approx_kl: 0.01 * (1 + u % 3) as f64,
        })
        .collect()
}

/// Dark (text-coloured) pixels of an RGB buffer of width `w` inside `x0..x1 × y0..y1`.
fn dark(buf: &[u8], w: u32, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> usize {
    let mut count = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = 3 * (y * w + x) as usize;
            if buf[i..i + 3].iter().all(|&c| c < 90) {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn the_curve_has_a_title_axis_descriptions_and_a_legend() {
    let (w, h) = CURVE_SIZE;
    let mut buf = vec![0u8; (3 * w * h) as usize];
    let (e, t) = (evals(20, 10), training(200));
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        let input = CurveInput {
            title: "Training run test: seed 1, guidance On",
            evals: &e,
            training: &t,
            thresholds: (0.45, 0.30),
            opponents: 2,
            teacher: "the efficiency bot",
        };
        paint_curve(&root, &input).unwrap();
        root.present().unwrap();
    }
    // Title strip across the top.
    assert!(dark(&buf, w, (300, 900), (0, 40)) > 200, "no title");
    // "update" under the top panel's x axis, centred.
    assert!(
        dark(&buf, w, (500, 700), (420, 445)) > 30,
        "no x description"
    );
    // The rotated "win rate (%)" left of the top panel's y axis.
    assert!(dark(&buf, w, (0, 30), (150, 350)) > 30, "no y description");
    // Legend text inside the top panel's lower right corner: the only dark pixels in
    // the plotting area (the lines there are red and blue, the grid light grey).
    assert!(dark(&buf, w, (850, 1180), (300, 400)) > 100, "no legend");
}

#[test]
fn the_guidance_chart_draws_runs_of_different_lengths_with_a_legend() {
    let (w, h) = GUIDANCE_SIZE;
    let mut buf = vec![0u8; (3 * w * h) as usize];
    let (long, short) = (evals(40, 25), evals(11, 25));
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        let runs = [
            RunCurve {
                label: "guidance On",
                evals: &long,
            },
            RunCurve {
                label: "guidance Off",
                evals: &short,
            },
        ];
        paint_guidance(&root, "Guidance on / off", &runs, (0.45, 0.30)).unwrap();
        root.present().unwrap();
    }
    assert!(dark(&buf, w, (400, 800), (0, 40)) > 150, "no title");
    // Each of the four panels has a legend at its right: in the lower corner of the
    // top row (rates against random bots rise through the middle), in the upper corner
    // of the bottom row (rates against efficiency bots sit low), below the caption.
    let (cw, ch) = (w / 2, (h - 40) / 2);
    for (col, row) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let x0 = col * cw + cw - 250;
        let y0 = if row == 0 {
            40 + row * ch + ch - 150
        } else {
            40 + row * ch + 40
        };
        assert!(
            dark(&buf, w, (x0, x0 + 230), (y0, y0 + 80)) > 80,
            "no legend in panel ({col}, {row})"
        );
    }
}

#[test]
fn the_guidance_chart_rejects_empty_runs_clearly() {
    let dir = std::env::temp_dir().join(format!("guidance-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.png");
    let e = evals(3, 10);
    let runs = [
        RunCurve {
            label: "on",
            evals: &e,
        },
        RunCurve {
            label: "off",
            evals: &[],
        },
    ];
    let err = draw_guidance(&path, "t", &runs, (0.4, 0.3)).unwrap_err();
    assert!(
        err.to_string().contains("\"off\" has no evaluations"),
        "{err:#}"
    );
    let err = draw_guidance(&path, "t", &[], (0.4, 0.3)).unwrap_err();
    assert!(err.to_string().contains("at least one run"), "{err:#}");
    assert!(!path.exists());
    let err = super::draw_curve(
        &path,
        &CurveInput {
            title: "t",
            evals: &[],
            training: &[],
            thresholds: (0.4, 0.3),
            opponents: 2,
            teacher: "the efficiency bot",
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("no metrics rows"), "{err:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn shipped(run: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../models")
        .join(run)
}

#[test]
fn the_shipped_runs_draw_as_png_files() {
    // The committed runs (946 and 276 metrics rows) through the real file path.
    let (on, off) = (
        RunSummary::load(&shipped("run")).unwrap(),
        RunSummary::load(&shipped("run-guidance-off")).unwrap(),
    );
    let dir = std::env::temp_dir().join(format!("plot-shipped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let curve = dir.join("curve.png");
    super::draw_curve(
        &curve,
        &CurveInput {
            title: "shipped run",
            evals: &on.evals,
            training: &on.training,
            thresholds: (on.random_threshold, on.eff_threshold),
            opponents: on.opponents(),
            teacher: on.teacher_words(),
        },
    )
    .unwrap();
    let guidance = dir.join("guidance.png");
    let runs = [
        RunCurve {
            label: "guidance On",
            evals: &on.evals,
        },
        RunCurve {
            label: "guidance Off",
            evals: &off.evals,
        },
    ];
    draw_guidance(&guidance, "shipped runs", &runs, (0.45, 0.30)).unwrap();
    for p in [&curve, &guidance] {
        let bytes = std::fs::read(p).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", p.display());
    }
    if std::env::var_os("KEEP_PLOTS").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("kept {}", dir.display());
    }
}
