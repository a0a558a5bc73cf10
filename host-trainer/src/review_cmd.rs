//! `host-trainer review LOG`: replays a game log and, at each decision of one seat,
//! sets what was played beside a ranking of the legal actions, marking disagreements
//! and their estimated cost; then a summary. Three rankings:
//!
//! - efficiency (default; `inference::Advisor` in efficiency-only mode): cost in value
//!   score (the engine's per-discard score in `[0, 1]`, 1 = the best discards);
//! - `--model M.onnx`: the policy's probabilities (a model trained on a riichi preset,
//!   observation encoding v2; the shipped v1 model does not fit riichi logs), cost in
//!   value score as above;
//! - `--search`: determinized rollout search (`search::search`, worlds dealt from the
//!   seat's view only), cost in estimated points per hand (the chosen candidate's mean
//!   minus the played one's; the played action may be outside the pruned candidates).

use anyhow::{bail, Context, Result};
use engine::game::{Action, Game};
use host_trainer::logs::replay;
use inference::Advisor;
use serde::Serialize;

use crate::decider_args::{check_fits, Choice, DeciderArgs};
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
    /// Rank with a model or the rollout search (default: the efficiency ranking).
    #[command(flatten)]
    pub decider: DeciderArgs,
}

/// What ranks the actions.
enum Ranker {
    /// An advisor: efficiency-only or a model.
    Advisor(Advisor),
    /// The rollout search with this configuration (seed mixed per decision).
    Search { rollouts: u32, seed: u64 },
}

impl Ranker {
    fn name(&self) -> &'static str {
        match self {
            Ranker::Advisor(a) if a.has_model() => "model",
            Ranker::Advisor(_) => "efficiency",
            Ranker::Search { .. } => "search",
        }
    }
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
    /// The played action's rank (1 = best) among the ranked actions (`None`: the
    /// search did not keep it among its candidates).
    pub rank: Option<usize>,
    /// Legal actions at the decision.
    pub legal: usize,
    /// The estimated cost: value score of the best discard minus the played one's
    /// (efficiency and model rankings, discards only), or the search's points per hand
    /// of its choice minus the played action's.
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
    /// What ranked the actions: `efficiency`, `model` or `search`.
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
    ranker: &Ranker,
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
    let advisor = match ranker {
        Ranker::Advisor(a) => a,
        Ranker::Search { rollouts, seed } => {
            let mix = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            return search_decision(&obs, &legal, (*rollouts, mix), label, index, played);
        }
    };
    let advice = advisor.advise_with_legal(&obs, legal.as_slice())?;
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
        rank: Some(rank + 1),
        legal: legal.as_slice().len(),
        cost,
    }))
}

/// The row of one decision ranked by the rollout search.
fn search_decision(
    obs: &engine::game::Observation,
    legal: &engine::game::LegalActions,
    (rollouts, seed): (u32, u64),
    label: &str,
    index: usize,
    played: Action,
) -> Result<Option<Row>> {
    let mut cfg = search::SearchConfig::new(&obs.rules).map_err(anyhow::Error::msg)?;
    cfg.rollouts = rollouts;
    cfg.seed = seed;
    let result = search::search(obs, legal, &cfg).map_err(anyhow::Error::msg)?;
    let chosen = result
        .candidates
        .iter()
        .find(|c| c.action == result.chosen)
        .context("the search's choice is not among its candidates")?;
    let rank = result.candidates.iter().position(|c| c.action == played);
    let cost = rank
        .and_then(|r| result.candidates.get(r))
        .map(|c| (chosen.value.mean - c.value.mean) as f32);
    Ok(Some(Row {
        agrees: played == result.chosen,
        kyoku: label.to_string(),
        step: index,
        played: played.to_string(),
        best: result.chosen.to_string(),
        rank: rank.map(|r| r + 1),
        legal: legal.as_slice().len(),
        cost,
    }))
}

/// The ranker the arguments ask for.
fn ranker(args: &Args) -> Result<Ranker> {
    Ok(match args.decider.choice()? {
        Choice::Search { rollouts, seed } => Ranker::Search { rollouts, seed },
        Choice::Model(advisor) => Ranker::Advisor(advisor),
        Choice::Default => Ranker::Advisor(Advisor::efficiency_only()),
    })
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let ranker = ranker(&args)?;
    for path in &args.input.files {
        let log = args.input.read(path)?;
        let seat = seat_of(&args, &log.names, log.rules.players)?;
        if let Ranker::Advisor(a) = &ranker {
            check_fits(
                a,
                &log.rules,
                &format!("{} is a riichi log", path.display()),
            )?;
        }
        let mut rows = Vec::new();
        for (i, k) in log.kyokus.iter().enumerate() {
            let label = replay::label(k);
            let mut err = None;
            replay::replay_kyoku(&log.rules, i, k, |game, j, s, action| {
                if s != seat || err.is_some() {
                    return;
                }
                match review_decision(&ranker, game, seat, &label, j, action) {
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
            ranking: ranker.name(),
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
        "{}: seat {}{} reviewed against the {} ranking\n",
        r.file,
        r.seat,
        r.player
            .as_ref()
            .map_or(String::new(), |p| format!(" ({p})")),
        r.ranking
    );
    for row in &r.rows {
        let mark = if row.agrees { ' ' } else { '✗' };
        let cost = match row.cost {
            Some(c) if !row.agrees => format!("  cost {c:.3}"),
            _ => String::new(),
        };
        let rank = row.rank.map_or("-".to_string(), |r| r.to_string());
        s.push_str(&format!(
            "{mark} {:<7} step {:>3}  played {:<16} best {:<16} rank {rank}/{}{cost}\n",
            row.kyoku, row.step, row.played, row.best, row.legal
        ));
    }
    let rate = if r.decisions == 0 {
        0.0
    } else {
        100.0 * r.agreements as f64 / r.decisions as f64
    };
    s.push_str(&format!(
        "{} decisions reviewed, {} agree with the {} ranking ({rate:.1}%)\n",
        r.decisions, r.agreements, r.ranking
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
            "  largest loss: {} step {}: {} instead of {} ({} -{:.3})\n",
            row.kyoku,
            row.step,
            row.played,
            row.best,
            if r.ranking == "search" {
                "points/hand"
            } else {
                "value score"
            },
            row.cost.unwrap_or(0.0)
        ));
    }
    s
}
