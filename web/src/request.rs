//! The page's protocol: one JSON request in, one JSON answer out.
//!
//! A request is an object with an `op`:
//! - `{"op": "presets"}` → the rule presets and the rules of each shipped model;
//! - `{"op": "prepare", "rules": PRESET}` → measures the search's prior for a preset
//!   (once; the page asks while the player reads the first advice);
//! - `{"op": "advise", "position": P, "ranker": "efficiency" | "model"}` → the
//!   `inference::Advice` of position `P` (the inference crate's JSON position format),
//!   exactly what `host-trainer advise --stdin-json --json` prints (`--no-model` for
//!   `efficiency`); `model` takes the shipped model that fits the position's rules, and
//!   falls back to efficiency with a note, as the CLI does;
//! - `{"op": "search", "position": P, "budget_ms": 300, "rollouts": 20000, "seed": 0}`
//!   → the `search::SearchResult` of `advise --search --json` with the same settings;
//! - `{"op": "log_players", "log": TEXT}` → the log's format, rules, players and hands;
//! - `{"op": "review", "log": TEXT, "seat": 0 | "player": NAME, "ranker": R, "rollouts": N}`
//!   → the [`crate::review::Review`] of that seat.
//!
//! The answer is `{"ok": true, "result": …}` or `{"ok": false, "error": "…"}` with the
//! whole error chain; no input makes [`handle`] panic.

use anyhow::{bail, Context, Result};
use engine::game::LegalActions;
use engine::Rules;
use inference::position::from_json;
use inference::Advisor;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::models;
use crate::review::{review_log, seat_of, Ranker};

/// What ranks an `advise` or a `review`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RankerName {
    /// The efficiency evaluator (value scores).
    #[default]
    Efficiency,
    /// The shipped model that fits the rules.
    Model,
    /// The rollout search (review only; `advise` has its own `search` op).
    Search,
}

/// One request (see the module docs).
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The rule presets.
    Presets,
    /// Prepare the search for a preset (its shanten prior, measured once from
    /// efficiency self-play), so that the first search spends its budget searching.
    Prepare {
        /// The preset.
        rules: String,
    },
    /// Rank a position's legal actions.
    Advise {
        /// The position (JSON position format).
        position: Value,
        /// What ranks.
        #[serde(default)]
        ranker: RankerName,
    },
    /// Search a position under a time budget.
    Search {
        /// The position (JSON position format).
        position: Value,
        /// The budget in milliseconds.
        #[serde(default = "default_budget")]
        budget_ms: f64,
        /// Most rollouts per candidate.
        #[serde(default = "default_rollouts")]
        rollouts: u32,
        /// Seed of the worlds.
        #[serde(default)]
        seed: u64,
    },
    /// What a log holds.
    LogPlayers {
        /// The log's text (Tenhou JSON or mjai JSON lines).
        log: String,
    },
    /// Review one seat of a log.
    Review {
        /// The log's text.
        log: String,
        /// The seat (default 0).
        #[serde(default)]
        seat: Option<u8>,
        /// The seat by player name.
        #[serde(default)]
        player: Option<String>,
        /// What ranks.
        #[serde(default)]
        ranker: RankerName,
        /// Rollouts per decision for the search ranking.
        #[serde(default = "default_review_rollouts")]
        rollouts: u32,
        /// The name shown for the log.
        #[serde(default)]
        file: Option<String>,
    },
}

fn default_budget() -> f64 {
    100.0
}
fn default_rollouts() -> u32 {
    20_000
}
fn default_review_rollouts() -> u32 {
    200
}

/// Answers one request (the text of a JSON object) with the text of a JSON answer.
pub fn handle(request: &str) -> String {
    let answer = match serde_json::from_str::<Request>(request)
        .context("not a request (an object with \"op\": presets, prepare, advise, search, log_players or review)")
        .and_then(answer)
    {
        // The result is spliced in as serialised (not through `Value`), so its floats
        // and field order are exactly those of the CLI's `--json`.
        Ok(result) => format!("{{\"ok\":true,\"result\":{result}}}"),
        Err(e) => json!({ "ok": false, "error": format!("{e:#}") }).to_string(),
    };
    answer
}

/// The result of a parsed request, serialised.
pub fn answer(request: Request) -> Result<String> {
    match request {
        Request::Presets => Ok(json!({
            "presets": Rules::PRESET_NAMES,
            "models": models::shipped_rules(),
        })
        .to_string()),
        Request::Prepare { rules } => {
            let rules = inference::position::rules_preset(&rules)?;
            search::shanten_prior(&rules).map_err(anyhow::Error::msg)?;
            Ok(json!({ "prepared": true }).to_string())
        }
        Request::Advise { position, ranker } => advise(&position, ranker),
        Request::Search {
            position,
            budget_ms,
            rollouts,
            seed,
        } => run_search(&position, budget_ms, rollouts, seed),
        Request::LogPlayers { log } => {
            let log = mahjong_logs::read(&log, None, None).context("reading the log")?;
            Ok(json!({
                "players": log.names,
                "player_count": log.rules.players,
                "rules": log.rules.preset_name(),
                "hands": log.kyokus.len(),
            })
            .to_string())
        }
        Request::Review {
            log,
            seat,
            player,
            ranker,
            rollouts,
            file,
        } => {
            let log = mahjong_logs::read(&log, None, None).context("reading the log")?;
            let seat = seat_of(&log, seat, player.as_deref())?;
            let ranker = match ranker {
                RankerName::Efficiency => Ranker::Advisor(Advisor::efficiency_only()),
                RankerName::Model => Ranker::Advisor(
                    models::fitting(&log.rules)?
                        .context("no shipped model was trained for this log's rules")?,
                ),
                RankerName::Search => Ranker::Search { rollouts, seed: 0 },
            };
            let file = file.unwrap_or_else(|| "the log".into());
            Ok(serde_json::to_string(&review_log(
                &log, &file, seat, &ranker,
            )?)?)
        }
    }
}

fn position(position: &Value) -> Result<(engine::game::Observation, Vec<engine::game::Action>)> {
    let (obs, legal) = from_json(&position.to_string())?;
    if legal.is_empty() {
        bail!("the observing seat has no decision in this position");
    }
    Ok((obs, legal))
}

fn advise(p: &Value, ranker: RankerName) -> Result<String> {
    let (obs, legal) = position(p)?;
    let advisor = match ranker {
        RankerName::Efficiency => Advisor::efficiency_only(),
        RankerName::Model => models::fitting(&obs.rules)?.unwrap_or_else(Advisor::efficiency_only),
        RankerName::Search => bail!("ranker \"search\": use the search request"),
    };
    Ok(serde_json::to_string(
        &advisor.advise_with_legal(&obs, &legal)?,
    )?)
}

fn run_search(p: &Value, budget_ms: f64, rollouts: u32, seed: u64) -> Result<String> {
    let (obs, legal) = position(p)?;
    let legal: LegalActions = legal.iter().copied().collect();
    let mut cfg = search::SearchConfig::new(&obs.rules).map_err(anyhow::Error::msg)?;
    cfg.budget_ms = Some(budget_ms);
    cfg.rollouts = rollouts;
    cfg.seed = seed;
    // Advice ranks every candidate: the whole budget on all of them (as `advise --search`).
    cfg.early_stop = false;
    cfg.prune_z = None;
    Ok(serde_json::to_string(
        &search::search(&obs, &legal, &cfg).map_err(anyhow::Error::msg)?,
    )?)
}
