//! A log's decisions for one seat, replayed through the engine: at each decision with a
//! choice, what was played beside a ranking of the legal actions, the disagreement's
//! estimated cost and the table as the seat saw it. Three rankings:
//!
//! - efficiency ([`Ranker::Advisor`] with `inference::Advisor::efficiency_only`): cost in
//!   value score (the engine's per-discard score in `[0, 1]`, 1 = the best discards);
//! - a model (an advisor with a policy; its encoding must fit the log's rules): the
//!   policy's probabilities, cost in value score as above;
//! - the rollout search ([`Ranker::Search`]; worlds dealt from the seat's view only),
//!   cost in estimated points per hand (the chosen candidate's mean minus the played
//!   one's; the played action may be outside the pruned candidates).
//!
//! The CLI's `review` (text, `--json`, `--html`) and the browser's review page both call
//! [`review_log`].

use anyhow::{bail, Context, Result};
use engine::game::{Action, Game, LegalActions, Observation};
use inference::Advisor;
use mahjong_logs::{replay, GameLog};
use serde::Serialize;

use crate::view::{table_view, TableView};

/// Ranked alternatives kept per decision for display.
const SHOWN: usize = 5;

/// What ranks the actions.
pub enum Ranker {
    /// An advisor: efficiency-only or a model.
    Advisor(Advisor),
    /// The rollout search with at most this many rollouts (seed mixed per decision).
    Search {
        /// Most rollouts per decision.
        rollouts: u32,
        /// Seed of the worlds.
        seed: u64,
    },
}

impl Ranker {
    /// `efficiency`, `model` or `search`.
    pub fn name(&self) -> &'static str {
        match self {
            Ranker::Advisor(a) if a.has_model() => "model",
            Ranker::Advisor(_) => "efficiency",
            Ranker::Search { .. } => "search",
        }
    }
}

/// One ranked alternative, as shown beside a decision.
#[derive(Clone, Debug, Serialize)]
pub struct Alternative {
    /// The action.
    pub action: String,
    /// The policy's probability (model ranking).
    pub probability: Option<f32>,
    /// The discard's value score (efficiency and model rankings).
    pub value_score: Option<f32>,
    /// The search's estimated points per hand.
    pub points: Option<f64>,
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
    /// The ranking's first choice.
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
    /// The first ranked alternatives, best first.
    pub ranking: Vec<Alternative>,
    /// The table as the seat saw it.
    pub view: TableView,
}

/// The whole review.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The file (or the page's name for a pasted log).
    pub file: String,
    /// The seat reviewed.
    pub seat: u8,
    /// Its player name, if the log has one.
    pub player: Option<String>,
    /// Every player's name, by seat (empty where the log has none).
    pub players: Vec<String>,
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

/// The seat named by `player` (a name in the log) or `seat` (default 0), checked.
pub fn seat_of(log: &GameLog, seat: Option<u8>, player: Option<&str>) -> Result<u8> {
    let seat =
        match (player, seat) {
            (Some(p), _) => log.names.iter().position(|n| n == p).with_context(|| {
                format!("no player {p:?} in the log (players: {:?})", log.names)
            })?,
            (None, s) => usize::from(s.unwrap_or(0)),
        };
    if seat >= usize::from(log.rules.players) {
        bail!("seat {seat}: the log has {} players", log.rules.players);
    }
    Ok(u8::try_from(seat)?)
}

/// What one decision's ranking says about the played action.
struct Judged {
    best: Action,
    rank: Option<usize>,
    cost: Option<f32>,
    agrees: bool,
    ranking: Vec<Alternative>,
}

/// The advisor's judgement of `played`.
fn advisor_judgement(
    advisor: &Advisor,
    obs: &Observation,
    legal: &LegalActions,
    played: Action,
) -> Result<Judged> {
    let advice = advisor.advise_with_legal(obs, legal.as_slice())?;
    let best = advice.actions.first().context("no ranked action")?;
    let rank = advice
        .actions
        .iter()
        .position(|r| r.action == played)
        .context("the played action is not among the ranked ones")?;
    let cost = match (&best.discard, advice.actions[rank].discard.as_ref()) {
        (Some(b), Some(p)) => Some(b.value_score - p.value_score),
        _ => None,
    };
    Ok(Judged {
        best: best.action,
        rank: Some(rank),
        agrees: rank == 0 || cost.is_some_and(|c| c <= 1e-6),
        cost,
        ranking: advice
            .actions
            .iter()
            .take(SHOWN)
            .map(|r| Alternative {
                action: r.action.to_string(),
                probability: r.probability,
                value_score: r.discard.as_ref().map(|d| d.value_score),
                points: None,
            })
            .collect(),
    })
}

/// The rollout search's judgement of `played`.
fn search_judgement(
    obs: &Observation,
    legal: &LegalActions,
    (rollouts, seed): (u32, u64),
    played: Action,
) -> Result<Judged> {
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
    let cost = rank.map(|r| (chosen.value.mean - result.candidates[r].value.mean) as f32);
    let mut ranked: Vec<_> = result.candidates.iter().collect();
    ranked.sort_by(|a, b| b.value.mean.total_cmp(&a.value.mean));
    Ok(Judged {
        best: result.chosen,
        rank,
        cost,
        agrees: played == result.chosen,
        ranking: ranked
            .iter()
            .take(SHOWN)
            .map(|c| Alternative {
                action: c.action.to_string(),
                probability: None,
                value_score: None,
                points: Some(c.value.mean),
            })
            .collect(),
    })
}

/// The row of one decision, `None` when it was forced (one legal action).
fn review_decision(
    ranker: &Ranker,
    game: &Game,
    seat: u8,
    (label, index): (&str, usize),
    played: Action,
) -> Result<Option<Row>> {
    let legal = game.legal_actions(seat);
    if legal.as_slice().len() < 2 {
        return Ok(None);
    }
    let obs = game.observation(seat).map_err(|e| anyhow::anyhow!("{e}"))?;
    let judged = match ranker {
        Ranker::Advisor(a) => advisor_judgement(a, &obs, &legal, played)?,
        Ranker::Search { rollouts, seed } => {
            let mix = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            search_judgement(&obs, &legal, (*rollouts, mix), played)?
        }
    };
    Ok(Some(Row {
        agrees: judged.agrees,
        kyoku: label.to_string(),
        step: index,
        played: played.to_string(),
        best: judged.best.to_string(),
        rank: judged.rank.map(|r| r + 1),
        legal: legal.as_slice().len(),
        cost: judged.cost,
        ranking: judged.ranking,
        view: table_view(&obs),
    }))
}

/// Reviews every decision of `seat` in `log` (named `file` in the answer).
pub fn review_log(log: &GameLog, file: &str, seat: u8, ranker: &Ranker) -> Result<Review> {
    if let Ranker::Advisor(a) = ranker {
        if let Some(e) = a.encoding().filter(|e| !e.fits(&log.rules)) {
            bail!(
                "the model reads observation encoding version {}, which has no riichi state \
                 or actions, and {file} is a riichi log (a model trained on a riichi preset \
                 reads version 2)",
                e.version()
            );
        }
    }
    let mut rows = Vec::new();
    for (i, k) in log.kyokus.iter().enumerate() {
        let label = replay::label(k);
        let mut err = None;
        replay::replay_kyoku(&log.rules, i, k, |game, j, s, action| {
            if s != seat || err.is_some() {
                return;
            }
            match review_decision(ranker, game, seat, (&label, j), action) {
                Ok(Some(r)) => rows.push(r),
                Ok(None) => {}
                Err(e) => err = Some(e.context(format!("kyoku {i} ({label}), step {j}"))),
            }
        })
        .with_context(|| format!("{file}: the replay departs from the log"))?;
        if let Some(e) = err {
            return Err(e);
        }
    }
    Ok(Review {
        file: file.to_string(),
        seat,
        player: log
            .names
            .get(usize::from(seat))
            .filter(|n| !n.is_empty())
            .cloned(),
        players: log.names.clone(),
        ranking: ranker.name(),
        decisions: rows.len(),
        agreements: rows.iter().filter(|r| r.agrees).count(),
        rows,
    })
}
