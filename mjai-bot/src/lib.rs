//! An mjai bot: reads the events of a game as one seat receives them (one JSON event,
//! or a JSON array of events, per line, as mjai.app and Mortal-style bots get them),
//! keeps the game as that seat sees it ([`state`]), and after each line answers one
//! mjai event ([`answer`]): `{"type":"none"}` when it has nothing to decide.
//!
//! The protocol, from the mjai format (Mortal's `libriichi`, mjai.app): the server
//! sends `start_game` (`id`: the bot's seat), `start_kyoku` (the seat's `tehais`, the
//! others' hidden as `"?"`), every `tsumo` (the others' `pai` `"?"`), `dahai`, calls,
//! `reach`/`reach_accepted`, `dora`, `hora`, `ryukyoku`, `end_kyoku`, `end_game`. The
//! bot answers its own draw with `dahai`, `reach`, `ankan`, `kakan`, `hora`,
//! `ryukyoku` (nine terminals) or `nukidora`/`kita`; a riichi is `reach`, then, when the
//! server echoes the `reach`, the `dahai`. It answers another seat's `dahai` (or
//! `kakan`) with `chi`, `pon`, `daiminkan`, `hora` or `none`, and its own `chi`/`pon`
//! with the `dahai` that follows. Events that come right after a decision but belong to
//! it (a kan dora shown with the discard, Tenhou's timing) may share its line as an
//! array; the answer is about the state after the whole line.

pub mod answer;
pub mod state;

use anyhow::{bail, ensure, Context, Result};
use engine::game::{Action, Observation, Phase};
use engine::{Rules, Tile};
use serde_json::{json, Value};

use answer::Decider;
use mahjong_logs::mjai::{field, parse_tile, round_wind, start_scores, Dialect};
use mahjong_logs::{preset_for, CallKind, LogTile, Site};
use state::{HandView, Start};

/// How the bot plays.
pub struct BotConfig {
    /// The seat (default: `start_game`'s `id`).
    pub seat: Option<u8>,
    /// The rules (default: `tenhou-4p` or `tenhou-sanma` by the players of the first
    /// `start_kyoku`).
    pub rules: Option<Rules>,
    /// The three-player north event the bot writes.
    pub dialect: Dialect,
    /// What chooses the actions.
    pub decider: Decider,
}

/// The answer to one line.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The mjai event to send (`{"type":"none"}` when there is nothing to do).
    pub event: Value,
    /// The engine action chosen, at a decision (a pass included); `None` when the
    /// seat had nothing to decide or only carried out a riichi it had declared.
    pub decision: Option<Action>,
}

impl Reply {
    fn none() -> Reply {
        Reply {
            event: json!({"type": "none"}),
            decision: None,
        }
    }
}

/// The bot between lines.
pub struct Bot {
    cfg: BotConfig,
    seat: Option<u8>,
    rules: Option<Rules>,
    hands: u16,
    view: Option<HandView>,
    planned_riichi: Option<Tile>,
    /// Own `reach` just echoed: the riichi discard is due.
    riichi_due: bool,
    decisions: u64,
}

fn small(e: &Value, key: &str) -> Result<u8> {
    let v = field(e, key)?;
    v.as_u64()
        .and_then(|x| u8::try_from(x).ok())
        .with_context(|| format!("\"{key}\": {v} is not a small number"))
}

/// A tile, `None` for the hidden `"?"`.
fn maybe_tile(v: &Value) -> Result<Option<LogTile>> {
    match v.as_str() {
        Some("?") => Ok(None),
        Some(s) => parse_tile(s)
            .map(Some)
            .with_context(|| format!("{v} is not a tile")),
        None => bail!("{v} is not a tile"),
    }
}

fn tile(e: &Value, key: &str) -> Result<LogTile> {
    maybe_tile(field(e, key)?)?.with_context(|| format!("\"{key}\" is hidden (\"?\")"))
}

fn tiles(e: &Value, key: &str) -> Result<Vec<LogTile>> {
    let v = field(e, key)?;
    v.as_array()
        .with_context(|| format!("\"{key}\": {v} is not a tile list"))?
        .iter()
        .map(|t| maybe_tile(t)?.with_context(|| format!("\"{key}\": a hidden tile")))
        .collect()
}

impl Bot {
    /// A bot before `start_game`.
    pub fn new(cfg: BotConfig) -> Bot {
        Bot {
            seat: cfg.seat,
            rules: cfg.rules,
            cfg,
            hands: 0,
            view: None,
            planned_riichi: None,
            riichi_due: false,
            decisions: 0,
        }
    }

    /// The hand as the seat sees it (between `start_kyoku` and the next one).
    pub fn view(&self) -> Option<&HandView> {
        self.view.as_ref()
    }

    /// The seat's observation now, when a hand is in progress.
    pub fn observation(&self) -> Result<Option<Observation>> {
        match &self.view {
            Some(v) if !v.over => v.observation().map(Some),
            _ => Ok(None),
        }
    }

    /// Reads one line (an event or an array of events) and answers it.
    pub fn handle_line(&mut self, line: &str) -> Result<Reply> {
        let v: Value = serde_json::from_str(line).context("not JSON")?;
        let events = match v {
            Value::Array(a) => a,
            Value::Object(_) => vec![v],
            other => bail!("{other} is neither an event nor an array of events"),
        };
        for e in &events {
            let ty = field(e, "type")?
                .as_str()
                .context("\"type\" is not a string")?;
            self.event(ty, e).with_context(|| {
                format!("event {}", serde_json::to_string(e).unwrap_or_default())
            })?;
        }
        self.answer()
    }

    fn view_mut(&mut self) -> Result<&mut HandView> {
        match self.view.as_mut() {
            Some(v) if !v.over => Ok(v),
            _ => bail!("an event outside a hand (no start_kyoku)"),
        }
    }

    fn event(&mut self, ty: &str, e: &Value) -> Result<()> {
        let actor = || small(e, "actor");
        match ty {
            "start_game" => self.start_game(e)?,
            "start_kyoku" => self.start_kyoku(e)?,
            "end_kyoku" | "end_game" | "none" => {}
            // A double ron is two `hora` events: the hand is over after the first.
            "hora" | "ryukyoku" => self
                .view
                .as_mut()
                .context("an event outside a hand (no start_kyoku)")?
                .end(),
            "tsumo" => {
                let t = maybe_tile(field(e, "pai")?)?;
                self.view_mut()?.draw(actor()?, t)?;
            }
            "dahai" => {
                let (a, t) = (actor()?, tile(e, "pai")?);
                let tg = e.get("tsumogiri").and_then(Value::as_bool).unwrap_or(false);
                self.view_mut()?.discard(a, t, tg)?;
                if Some(a) == self.seat {
                    self.planned_riichi = None;
                    self.riichi_due = false;
                }
            }
            "reach" => {
                let a = actor()?;
                self.view_mut()?.reach(a)?;
                self.riichi_due = Some(a) == self.seat;
            }
            "reach_accepted" => self.view_mut()?.reach_accepted(actor()?)?,
            "chi" | "pon" | "daiminkan" => {
                let kind = match ty {
                    "chi" => CallKind::Chi,
                    "pon" => CallKind::Pon,
                    _ => CallKind::OpenKan,
                };
                let (a, target) = (actor()?, small(e, "target")?);
                let (t, consumed) = (tile(e, "pai")?, tiles(e, "consumed")?);
                self.view_mut()?.call(a, kind, target, t, &consumed)?;
            }
            "ankan" => {
                let (a, consumed) = (actor()?, tiles(e, "consumed")?);
                self.view_mut()?.closed_kan(a, &consumed)?;
            }
            "kakan" => {
                let (a, t) = (actor()?, tile(e, "pai")?);
                self.view_mut()?.added_kan(a, t)?;
            }
            "nukidora" | "kita" => self.view_mut()?.kita(actor()?)?,
            "dora" => {
                let t = tile(e, "dora_marker")?;
                self.view_mut()?.dora(t.tile)?;
            }
            other => bail!("unknown event type {other:?}"),
        }
        Ok(())
    }

    fn start_game(&mut self, e: &Value) -> Result<()> {
        if let Some(id) = e.get("id") {
            let id = id
                .as_u64()
                .and_then(|x| u8::try_from(x).ok())
                .filter(|&x| x < 4)
                .with_context(|| format!("\"id\": {id} is not a seat"))?;
            match self.cfg.seat {
                Some(s) if s != id => {
                    bail!("start_game names seat {id}, but --seat is {s}")
                }
                _ => self.seat = Some(id),
            }
        }
        self.hands = 0;
        self.view = None;
        Ok(())
    }

    fn start_kyoku(&mut self, e: &Value) -> Result<()> {
        let seat = self
            .seat
            .context("start_kyoku before the seat is known (start_game's id or --seat)")?;
        let tehais = field(e, "tehais")?
            .as_array()
            .context("\"tehais\" is not a list")?;
        let players = tehais
            .iter()
            .filter(|h| h.as_array().is_some_and(|a| !a.is_empty()))
            .count();
        let rules = match self.rules {
            Some(r) => r,
            None => {
                let r = preset_for(u8::try_from(players)?, true, Site::Tenhou)
                    .with_context(|| format!("no preset for {players} players (use --rules)"))?;
                self.rules = Some(r);
                r
            }
        };
        ensure!(
            usize::from(rules.players) == players,
            "start_kyoku deals {players} hands, the rules have {} players",
            rules.players
        );
        ensure!(
            seat < rules.players,
            "seat {seat} in a {players}-player game"
        );
        let own = tehais
            .get(usize::from(seat))
            .context("no tehai of the seat")?;
        let hand = own
            .as_array()
            .context("the seat's tehai is not a list")?
            .iter()
            .map(|t| maybe_tile(t)?.context("the seat's own tehai is hidden (\"?\")"))
            .collect::<Result<Vec<_>>>()?;
        let round = round_wind(e)?;
        let scores = start_scores(e)?;
        let start = Start {
            round,
            dealer: small(e, "oya")?,
            honba: small(e, "honba")?,
            sticks: small(e, "kyotaku")?,
            scores,
            hand,
            dora: tile(e, "dora_marker")?.tile,
        };
        ensure!(
            start.dealer < rules.players,
            "oya {} is not a seat",
            start.dealer
        );
        self.view = Some(HandView::new(rules, seat, self.hands, start)?);
        self.hands += 1;
        self.planned_riichi = None;
        self.riichi_due = false;
        Ok(())
    }

    /// The answer to the state after a line.
    fn answer(&mut self) -> Result<Reply> {
        let Some(view) = self.view.as_mut() else {
            return Ok(Reply::none());
        };
        if !view.may_decide() {
            return Ok(Reply::none());
        }
        view.mark_answered();
        let view = &*view;
        self.decisions += 1;
        let salt = self.decisions;
        if self.riichi_due {
            self.riichi_due = false;
            let planned = self.planned_riichi.take();
            let event = answer::riichi_discard(view, planned, &self.cfg.decider, salt)?;
            return Ok(Reply {
                event,
                decision: None,
            });
        }
        let obs = view.observation()?;
        let legal = match answer::legal_actions(&obs) {
            Ok(legal) => legal,
            Err(e) => {
                eprintln!("warning: {e:#}; answering with the drawn tile or a pass");
                return Ok(Reply {
                    event: answer::fallback(view),
                    decision: None,
                });
            }
        };
        if legal.is_empty() {
            if view.phase == Phase::Turn {
                bail!("the seat is on turn but has no legal action");
            }
            return Ok(Reply::none());
        }
        // A decider that fails (the search refusing a world) leaves the decision to
        // the efficiency bot: the bot never leaves the table over it.
        let action = match self.cfg.decider.decide(&obs, &legal, salt) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("warning: the decider failed ({e:#}); the efficiency choice instead");
                Decider::Efficiency.decide(&obs, &legal, salt)?
            }
        };
        if !legal.contains(action) {
            bail!("the decider chose {action}, which is not legal here");
        }
        if let Action::Riichi(t) = action {
            self.planned_riichi = Some(t);
        }
        Ok(Reply {
            event: answer::to_mjai(view, action, self.cfg.dialect)?,
            decision: Some(action),
        })
    }
}
