//! The report's "Guidance ablation" section: the shipped run beside runs trained with
//! other guidance settings (off, or another teacher), compared three ways — by their
//! own evaluations at equal updates, at equal training time, and by their final models
//! played against two efficiency bots, paired with the efficiency bot on the same
//! walls (the only one of the three with intervals narrow enough to rank runs).

use std::fmt::Write as _;

use super::format::{minutes, num, pct_diff};
use super::{Charts, EvalPoint, Matchup, Report, RunSummary};

/// A config value as written in the table (`?` when the run predates the key).
fn config(r: &RunSummary, key: &str) -> String {
    r.config
        .get(key)
        .map(|v| v.to_string())
        .unwrap_or_else(|| "?".into())
}

fn rate(w: Option<f64>) -> String {
    w.map(|w| format!("{w:.3}")).unwrap_or_else(|| "—".into())
}

/// An evaluation as a table cell group: vs random, vs efficiency, paired points.
fn eval_cells(e: Option<EvalPoint>) -> String {
    match e {
        Some(e) => format!(
            "{} | {:.3} | {} | {}",
            e.update,
            e.random_win_rate,
            rate(e.eff_win_rate),
            e.paired_points
                .map(|[m, lo, hi]| format!("{m:+.1} ({lo:+.1} – {hi:+.1})"))
                .unwrap_or_else(|| "—".into()),
        ),
        None => "— | — | — | —".into(),
    }
}

fn run_row(s: &mut String, r: &RunSummary) {
    let first = match r.first_random_threshold {
        Some(e) => format!("update {} after {}", e.update, minutes(e.elapsed_s)),
        None => format!("not reached in {} updates", r.updates),
    };
    let last = r.evals.last();
    let _ = writeln!(
        s,
        "| `{}` | {} | {} | {} | {} | {} / {} | {} | {} | {} |",
        r.dir.display(),
        r.guidance_label(),
        r.seed,
        r.updates,
        minutes(r.elapsed_s),
        config(r, "workers"),
        config(r, "learner_threads"),
        first,
        last.map(|e| format!("{:.3} (update {})", e.random_win_rate, e.update))
            .unwrap_or_else(|| "—".into()),
        rate(last.and_then(|e| e.eff_win_rate)),
    );
}

fn final_row(s: &mut String, r: &RunSummary, m: Option<&Matchup>) {
    match m {
        Some(m) => {
            let d = &m.difference;
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} | {} | {} | {:.2} % |",
                r.dir.display(),
                r.guidance_label(),
                r.updates,
                m.model_arena.hands,
                num(&d.points_per_hand),
                pct_diff(&d.win_rate),
                pct_diff(&d.deal_in_rate),
                100.0 * m.model.win_rate.mean,
            );
        }
        None => {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | (no `model.onnx` in the run folder) | — | — | — | — |",
                r.dir.display(),
                r.guidance_label(),
                r.updates,
            );
        }
    }
}

/// Writes the section into `s`.
pub fn render(r: &Report, charts: &Charts, s: &mut String) {
    let _ = writeln!(s, "## Guidance ablation\n");
    let runs: Vec<&RunSummary> = std::iter::once(&r.run)
        .chain(r.ablation.iter().map(|a| &a.run))
        .collect();
    let _ = writeln!(
        s,
        "The shipped run and the runs trained with other guidance settings. Each run's own \
         evaluations ({} hands per line-up every {} updates; threshold: {:.2} win rate \
         against two random bots) are for trends; the final models, played against two \
         efficiency bots and paired with the efficiency bot on the same walls, rank the \
         runs. Training time is wall-clock on the training machine and depends on what \
         else ran there (workers and learner threads are in the table; runs trained side \
         by side shared the same cores).\n",
        config(&r.run, "eval_hands"),
        config(&r.run, "eval_every"),
        r.run.random_threshold,
    );
    let _ = writeln!(
        s,
        "| run | guidance | seed | updates | training time | workers / learner threads | \
         random-bot threshold first reached | last eval vs random | last eval vs efficiency |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for run in &runs {
        run_row(s, run);
    }
    if r.ablation.is_empty() {
        let _ = writeln!(s, "\n(No ablation run was given.)\n");
        return;
    }

    let _ = writeln!(
        s,
        "\n### Final models against two efficiency bots\n\nEach run's last parameters \
         (its exported `model.onnx`) in seat 1 against two efficiency bots, minus the \
         efficiency bot in the same seats on the same walls (seed {}); the shipped model's \
         row is the arena above, the ablation models played {} hands per line-up.\n",
        r.seed, r.ablation_hands
    );
    let _ = writeln!(
        s,
        "| run | guidance | updates | hands | points / hand − efficiency bot (95 % CI) | \
         win rate − efficiency bot | deal-in rate − efficiency bot | win rate |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    let shipped = r.matchups.iter().find(|m| m.opponents == "eff");
    final_row(s, &r.run, shipped);
    for a in &r.ablation {
        final_row(s, &a.run, a.versus_eff.as_ref());
    }

    let common_updates = runs.iter().map(|r| r.updates).min().unwrap_or(0);
    let common_time = runs
        .iter()
        .map(|r| r.elapsed_s)
        .fold(f64::INFINITY, f64::min);
    let _ = writeln!(
        s,
        "\n### At equal updates ({common_updates}) and equal training time ({})\n\n\
         Each run's last evaluation at or before the shortest run's number of updates, and \
         at or before its training time (win rates against two random and two efficiency \
         bots; points per hand minus the efficiency bot's, paired, where the run evaluated \
         paired).\n",
        minutes(common_time)
    );
    let _ = writeln!(
        s,
        "| run | guidance | update | vs random | vs efficiency | paired points | \
         update (by time) | vs random | vs efficiency | paired points |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for run in &runs {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} |",
            run.dir.display(),
            run.guidance_label(),
            eval_cells(run.eval_at(common_updates)),
            eval_cells(run.eval_by_time(common_time)),
        );
    }
    let _ = writeln!(s);
    if let Some(g) = charts.guidance {
        let _ = writeln!(
            s,
            "![the guidance ablation: win rates by update and by training time]({g})\n"
        );
        let _ = writeln!(
            s,
            "Every run on one chart: top row against two random bots, bottom row against \
             two efficiency bots; left column by update, right column by training time, \
             each column on one x axis for all runs (the shipped run drawn only as far as \
             the longest ablation run). Faint points and lines are the individual \
             evaluations, bold lines their exponential moving average run forwards and then \
             backwards, which does not lag, dashed lines the stop thresholds.\n"
        );
    }
}
