//! `host-trainer review LOG`: replays a game log and, at each decision of one seat,
//! sets what was played beside the efficiency ranking (`inference::Advisor` in
//! efficiency-only mode), marking disagreements and their cost in value score (the
//! engine's per-discard score in `[0, 1]`, 1 = the best discards); then a summary.
//!
//! The learned model and the rollout search do not fit riichi positions yet (the
//! shipped model's encoding v1 has no riichi state or actions, and the search refuses
//! riichi positions), so `--model` and `--search` say so instead of ranking.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use engine::game::{Action, Game};
use host_trainer::logs::replay;
use inference::Advisor;
use serde::Serialize;

use crate::logs_cmd::Input;

/// Arguments of `host-trainer review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: Input,
    /// The seat to review (0 = the first seat of the log).
    #[arg(long, conflicts_with = "player")]
    pub seat: Option<u8>,
    /// The seat to review, by player name.
    #[arg(long)]
    pub player: Option<String>,
    /// Print the review as JSON.
    #[arg(long)]
    pub json: bool,
    /// Rank with this ONNX model (not available on riichi positions yet).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Rank with the rollout search (not available on riichi positions yet).
    #[arg(long)]
    pub search: bool,
}

/// One reviewed decision.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The hand's label (`E1-0`).
    pub kyoku: String,
    /// The step index within the hand.
    pub step: usize,
    /// The action played.
    pub played: String,
    /// The efficiency ranking's first choice.
    pub best: String,
    /// The played action's rank (1 = best) among `legal` actions.
    pub rank: usize,
    /// Legal actions at the decision.
    pub legal: usize,
    /// Value score of the best discard minus the played one's (discards only).
    pub cost: Option<f32>,
    /// The played action is the ranking's first, or a discard of the same value score.
    pub agrees: bool,
}

/// The whole review.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The file.
    pub file: String,
    /// The seat reviewed.
    pub seat: u8,
    /// Its player name, if the log has one.
    pub player: Option<String>,
    /// What ranked the actions.
    pub ranking: &'static str,
    /// Decisions with more than one legal action.
    pub decisions: usize,
    /// Of those, where the played action was the ranking's first (or a discard of the
    /// same value score).
    pub agreements: usize,
    /// Every reviewed decision.
    pub rows: Vec<Row>,
}

fn seat_of(args: &Args, names: &[String], players: u8) -> Result<u8> {
    let seat = match (&args.player, args.seat) {
        (Some(p), _) => names
            .iter()
            .position(|n| n == p)
            .with_context(|| format!("no player {p:?} in the log (players: {names:?})"))?,
        (None, s) => usize::from(s.unwrap_or(0)),
    };
    if seat >= usize::from(players) {
        bail!("--seat {seat}: the log has {players} players");
    }
    Ok(u8::try_from(seat)?)
}

/// The advice row of one decision, `None` when it was forced (one legal action).
fn review_decision(
    game: &Game,
    seat: u8,
    label: &str,
    index: usize,
    played: Action,
) -> Result<Option<Row>> {
    let legal = game.legal_actions(seat);
    if legal.as_slice().len() < 2 {
        return Ok(None);
    }
    let obs = game.observation(seat).map_err(|e| anyhow::anyhow!("{e}"))?;
    let advice = Advisor::efficiency_only().advise_with_legal(&obs, legal.as_slice())?;
    let best = advice.actions.first().context("no ranked action")?;
    let rank = advice
        .actions
        .iter()
        .position(|r| r.action == played)
        .context("the played action is not among the ranked ones")?;
    let cost = match (
        &best.discard,
        advice.actions.get(rank).and_then(|r| r.discard.as_ref()),
    ) {
        (Some(b), Some(p)) => Some(b.value_score - p.value_score),
        _ => None,
    };
    let agrees = rank == 0 || cost.is_some_and(|c| c <= 1e-6);
    Ok(Some(Row {
        agrees,
        kyoku: label.to_string(),
        step: index,
        played: played.to_string(),
        best: best.action.to_string(),
        rank: rank + 1,
        legal: legal.as_slice().len(),
        cost,
    }))
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if args.model.is_some() {
        bail!("--model: the policy models are trained on the simple presets (observation encoding v1 has no riichi state or actions) and do not fit riichi logs; the review ranks by efficiency");
    }
    if args.search {
        bail!("--search: the rollout search does not take riichi positions yet; the review ranks by efficiency");
    }
    for path in &args.input.files {
        let log = args.input.read(path)?;
        let seat = seat_of(&args, &log.names, log.rules.players)?;
        let mut rows = Vec::new();
        for (i, k) in log.kyokus.iter().enumerate() {
            let label = replay::label(k);
            let mut err = None;
            replay::replay_kyoku(&log.rules, i, k, |game, j, s, action| {
                if s != seat || err.is_some() {
                    return;
                }
                match review_decision(game, seat, &label, j, action) {
                    Ok(Some(r)) => rows.push(r),
                    Ok(None) => {}
                    Err(e) => err = Some(e.context(format!("kyoku {i} ({label}), step {j}"))),
                }
            })
            .with_context(|| format!("{}: the replay departs from the log", path.display()))?;
            if let Some(e) = err {
                return Err(e);
            }
        }
        let review = Review {
            file: path.display().to_string(),
            seat,
            player: log
                .names
                .get(usize::from(seat))
                .filter(|n| !n.is_empty())
                .cloned(),
            ranking: "efficiency",
            decisions: rows.len(),
            agreements: rows.iter().filter(|r| r.agrees).count(),
            rows,
        };
        if args.json {
            println!("{}", serde_json::to_string_pretty(&review)?);
        } else {
            print!("{}", text(&review));
        }
    }
    Ok(())
}

/// The review as text: one line per decision (`✗` on disagreements), then the summary
/// with the largest losses.
fn text(r: &Review) -> String {
    let mut s = format!(
        "{}: seat {}{} reviewed against the efficiency ranking\n",
        r.file,
        r.seat,
        r.player
            .as_ref()
            .map_or(String::new(), |p| format!(" ({p})"))
    );
    for row in &r.rows {
        let mark = if row.agrees { ' ' } else { '✗' };
        let cost = match row.cost {
            Some(c) if !row.agrees => format!("  cost {c:.3}"),
            _ => String::new(),
        };
        s.push_str(&format!(
            "{mark} {:<7} step {:>3}  played {:<16} best {:<16} rank {}/{}{cost}\n",
            row.kyoku, row.step, row.played, row.best, row.rank, row.legal
        ));
    }
    let rate = if r.decisions == 0 {
        0.0
    } else {
        100.0 * r.agreements as f64 / r.decisions as f64
    };
    s.push_str(&format!(
        "{} decisions reviewed, {} agree with the efficiency ranking ({rate:.1}%)\n",
        r.decisions, r.agreements
    ));
    let mut losses: Vec<&Row> = r
        .rows
        .iter()
        .filter(|x| x.cost.is_some_and(|c| c > 0.0))
        .collect();
    losses.sort_by(|a, b| {
        b.cost
            .partial_cmp(&a.cost)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for row in losses.iter().take(5) {
        s.push_str(&format!(
            "  largest loss: {} step {}: {} instead of {} (value score -{:.3})\n",
            row.kyoku,
            row.step,
            row.played,
            row.best,
            row.cost.unwrap_or(0.0)
        ));
    }
    s
}
