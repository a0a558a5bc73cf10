//! The Markdown rendering of a [`Report`].

use std::fmt::Write as _;

use crate::clock::civil_utc;
use arena::paired::PairedComparison;
use arena::stats::Estimate;
use arena::KindReport;

use super::format::{minutes, num, pct_diff};
use super::{Charts, Matchup, PreviousModel, Report};

/// `YYYY-MM-DD HH:MM UTC` of a Unix time.
fn utc(unix_s: u64) -> String {
    let (year, month, day, hour, minute, _) = civil_utc(unix_s);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

pub(super) fn pct(e: &Estimate) -> String {
    format!(
        "{:.2} % ({:.2} – {:.2})",
        100.0 * e.mean,
        100.0 * e.low,
        100.0 * e.high
    )
}

pub(super) fn kind_row(s: &mut String, who: &str, k: &KindReport) {
    let _ = writeln!(
        s,
        "| {who} | {} | {} | {} | {} | {} | {:.1} |",
        k.seat_hands,
        pct(&k.win_rate),
        pct(&k.deal_in_rate),
        pct(&k.draw_rate),
        num(&k.points_per_hand),
        k.win_turn.mean,
    );
}

pub(super) fn matchup(s: &mut String, m: &Matchup) {
    let others = m.model_arena.players.saturating_sub(1);
    let opp = match m.opponents.as_str() {
        "eff" => format!("{} efficiency bots", count(others)),
        "random" => format!("{} random bots", count(others)),
        other => other.to_string(),
    };
    let _ = writeln!(s, "### Against {opp}\n");
    paired_table(
        s,
        (
            "efficiency bot, same seats and walls",
            "**model − efficiency bot** (paired by wall)",
        ),
        (&m.model, &m.eff),
        &m.difference,
    );
    let _ = writeln!(s);
    let opponents: Vec<&KindReport> = m
        .model_arena
        .kinds
        .iter()
        .filter(|k| k.bot != "policy")
        .collect();
    for k in opponents {
        let _ = writeln!(
            s,
            "The {} {} opponents beside the model: win rate {}, deal-in rate {}, points / \
             hand {}. Arena: {} hands on {} walls in {:.0} s ({:.1} hands/s); the \
             efficiency-bot line-up took {:.0} s.\n",
            count(others),
            k.bot,
            pct(&k.win_rate),
            pct(&k.deal_in_rate),
            num(&k.points_per_hand),
            m.model_arena.hands,
            m.model_arena.walls,
            m.model_arena.elapsed_s,
            m.model_arena.hands_per_s,
            m.eff_arena.elapsed_s,
        );
    }
}

/// A small count in words.
pub(super) fn count(n: u8) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        n => n.to_string(),
    }
}

/// The previously shipped model against two efficiency bots, beside the new one.
fn previous(s: &mut String, r: &Report, p: &PreviousModel) {
    let _ = writeln!(s, "### The previous model against two efficiency bots\n");
    let _ = writeln!(
        s,
        "`{}` (run `{}`, {} updates) in the model's seat on the same walls and opponent \
         seeds as the new model above.\n",
        p.model.display(),
        p.sidecar.run_id,
        p.sidecar.parameter_version
    );
    let _ = writeln!(
        s,
        "| seat 1 | seat-hands | win rate (95 % CI) | deal-in rate | draw rate | points / \
         hand | mean winning turn |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    if let Some(new) = r.matchups.iter().find(|m| m.opponents == "eff") {
        kind_row(s, "**new model**", &new.model);
    }
    kind_row(s, "previous model", &p.versus_eff.model);
    kind_row(s, "efficiency bot, same seats and walls", &p.versus_eff.eff);
    for (who, d) in [
        ("**new − previous** (paired by wall)", &p.new_minus_previous),
        (
            "previous − efficiency bot (paired by wall)",
            &p.versus_eff.difference,
        ),
    ] {
        difference_row(s, who, d);
    }
    let _ = writeln!(s);
}

/// A paired difference as a row of the seat tables (no draw rate or winning turn).
/// The per-hand table of the model beside a baseline bot in the same seats and their
/// paired difference; `labels`: the baseline's row and the difference's row.
pub(super) fn paired_table(
    s: &mut String,
    labels: (&str, &str),
    (model, baseline): (&KindReport, &KindReport),
    difference: &PairedComparison,
) {
    let _ = writeln!(
        s,
        "| seat 1 (rotated over every seat of each wall) | seat-hands | win rate (95 % CI) | \
         deal-in rate | draw rate | points / hand | mean winning turn |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    kind_row(s, "**model**", model);
    kind_row(s, labels.0, baseline);
    difference_row(s, labels.1, difference);
}

fn difference_row(s: &mut String, who: &str, d: &PairedComparison) {
    let _ = writeln!(
        s,
        "| {who} | {} | {} | {} | — | {} | — |",
        d.seat_hands,
        pct_diff(&d.win_rate),
        pct_diff(&d.deal_in_rate),
        num(&d.points_per_hand),
    );
}

/// The report as Markdown; `charts` are the image files written beside it. Sections in
/// order: header, targets, the model, the duplicate arena (and the previous model),
/// guidance, search, the training run.
pub fn render(r: &Report, charts: &Charts) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Shipped model: evaluation report\n");
    let _ = writeln!(
        s,
        "Generated by `{}` on {} in {:.0} s ({} arena threads). Regenerate it with the same \
         command; do not edit it by hand. Every number below was measured by that command or \
         read from the training run's own files.\n",
        r.command,
        utc(r.generated_unix_s),
        r.generation_s,
        r.threads
    );

    targets_section(r, &mut s);
    model_section(r, &mut s);
    arena_section(r, &mut s);
    super::guidance_section::render(r, charts, &mut s);
    super::search_section::render(&r.search, &mut s);
    training_section(r, charts, &mut s);
    s
}

/// Each target, what was measured and whether it was met.
fn targets_section(r: &Report, s: &mut String) {
    let _ = writeln!(s, "## Targets\n");
    let _ = writeln!(s, "| target | measured | met |");
    let _ = writeln!(s, "|---|---|---|");
    for t in &r.targets {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            t.goal,
            t.measured,
            if t.met { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(s);
}

/// The model file and its sidecar's fields.
fn model_section(r: &Report, s: &mut String) {
    let _ = writeln!(s, "## Model\n");
    let sc = &r.sidecar;
    let _ = writeln!(s, "| field | value |\n|---|---|");
    let _ = writeln!(
        s,
        "| file | `{}` ({} bytes) |",
        r.model.display(),
        r.model_bytes
    );
    let _ = writeln!(s, "| format | {} |", sc.format);
    let _ = writeln!(s, "| encoding version | {} |", sc.encoding_version);
    let _ = writeln!(s, "| rules | {} |", sc.rules);
    let _ = writeln!(
        s,
        "| shape | {} layers, d_model {}, {} heads, feed-forward {} |",
        sc.model.layers, sc.model.d_model, sc.model.heads, sc.model.ff
    );
    let _ = writeln!(s, "| training run | `{}` |", sc.run_id);
    let _ = writeln!(
        s,
        "| parameter version (updates) | {} |",
        sc.parameter_version
    );
    let _ = writeln!(s, "| ONNX opset | {} |", sc.onnx_opset);
    let _ = writeln!(s, "| written by | {} |\n", sc.created_by);
}

/// The duplicate arena's line-ups (and the previous model's, when there is one).
fn arena_section(r: &Report, s: &mut String) {
    let _ = writeln!(
        s,
        "## Duplicate arena: {} hands per line-up, seed {}\n",
        r.hands, r.seed
    );
    let _ = writeln!(
        s,
        "Each wall is played once per rotation of the seats (duplicate), so the model sits in \
         every seat, dealer included, on the same tiles. The efficiency bot's row comes from \
         a second arena with the same seed — the same walls, rotations and opponent seeds — \
         with the efficiency bot in the model's place; the difference row is the mean of the \
         per-wall differences. Intervals are 95 % with walls as clusters: rates (win, \
         deal-in, draw) have Wilson score intervals (Wilson 1927) on the cluster-robust \
         effective sample size (Korn & Graubard 1998), which stay within 0–100 %; points per \
         hand, the winning turn and the paired differences (which may be negative) have \
         normal intervals on the cluster-robust standard error. The model plays \
         greedily (the legal action with the highest logit; tsumo and ron automatically, as \
         in training), run by tract from the ONNX file above.\n"
    );
    for m in &r.matchups {
        matchup(s, m);
    }
    if let Some(d) = &r.defend {
        super::defend_section::render(d, s);
    }
    if let Some(p) = &r.previous {
        previous(s, r, p);
    }
}

/// The training run: its summary, the curve, the evaluations and the configuration.
fn training_section(r: &Report, charts: &Charts, s: &mut String) {
    let _ = writeln!(s, "## Training run\n");
    let run = &r.run;
    let _ = writeln!(
        s,
        "Run `{}`: seed {}, git revision `{}`, {} updates, {} samples, {} self-play hands, \
         {} of training (summed over resumed sessions).\n",
        run.dir.display(),
        run.seed,
        run.git_revision,
        run.updates,
        run.samples,
        run.hands,
        minutes(run.elapsed_s)
    );
    if let Some(c) = charts.curve {
        let _ = writeln!(s, "![training curve of the run]({c})\n");
        let _ = writeln!(
            s,
            "Top: the evaluation win rates against {n} random bots (red) and {n} efficiency \
             bots (blue) by update, with the stop thresholds dashed. Below: policy entropy, \
             value loss, guidance loss and approximate KL, one per panel on its own axis. \
             Faint lines and points are the raw values, bold lines their exponential moving \
             average run forwards and then backwards, which does not lag (the legends give \
             its time constant).\n",
            n = count(run.opponents())
        );
    } else {
        let _ = writeln!(
            s,
            "(This build of host-trainer has no `plot` feature, so no charts were drawn.)\n"
        );
    }
    // Runs from before `--eval-walls` have no such key and replayed one fixed seed.
    let rotating = run.config.get("eval_walls").and_then(|v| v.as_str()) == Some("rotating");
    let walls = if rotating {
        "each evaluation plays fresh walls (the seed mixed with the evaluation's number), \
         so neighbouring readings differ by the luck of their walls as well as by learning"
    } else {
        "every evaluation replays the same walls — one fixed seed — so the readings share \
         that set's luck and can sit several points away from the arena above, which uses \
         fresh walls"
    };
    let _ = writeln!(
        s,
        "Evaluations during training (duplicate, {} hands per line-up each, so far wider \
         intervals than the arena above; {walls}; they are for trends):\n",
        run.config
            .get("eval_hands")
            .map(|v| v.to_string())
            .unwrap_or_else(|| "?".into())
    );
    let _ = writeln!(
        s,
        "| update | training time | win rate vs {n} random | win rate vs {n} efficiency | points / hand vs {n} efficiency |",
        n = run.opponents()
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    let step = run.evals.len().div_ceil(16).max(1);
    for (i, e) in run.evals.iter().enumerate() {
        if i % step != 0 && i + 1 != run.evals.len() {
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {} | {:.3} | {} | {} |",
            e.update,
            minutes(e.elapsed_s),
            e.random_win_rate,
            e.eff_win_rate
                .map(|w| format!("{w:.3}"))
                .unwrap_or_else(|| "—".into()),
            e.eff_points
                .map(|p| format!("{p:+.3}"))
                .unwrap_or_else(|| "—".into()),
        );
    }
    let _ = writeln!(s, "\nConfiguration (`config.json` of the run):\n");
    let _ = writeln!(s, "| key | value |\n|---|---|");
    for (k, v) in &run.config {
        let _ = writeln!(s, "| {k} | `{v}` |");
    }
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc(1_796_047_709), "2026-11-30 14:08 UTC");
    }
}
