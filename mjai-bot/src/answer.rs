//! The seat's decision and its mjai answer.
//!
//! The decision reuses the advise path: the tracked [`Observation`]'s legal actions come
//! from [`legal_actions_of`] (riichi legality — yaku, furiten, riichi discards — depends
//! only on what the seat sees; the engine deals a world around the view), and are ranked
//! by the chosen [`Decider`]. The engine action then becomes an mjai event of the seat,
//! with the physical copies [`engine::game::Game::apply`] would give up (a plain five
//! while one serves, `game::copy`).

use anyhow::{anyhow, bail, Context, Result};
use engine::bots::{Agent, DefendBot, EfficiencyBot};
use engine::game::{legal_actions_of, Action, LegalActions, Observation, Phase, RuleError};
use inference::Advisor;
use serde_json::{json, Value};

use super::state::HandView;
use mahjong_logs::mjai::{names, tile_name, Dialect};
use mahjong_logs::LogTile;

/// What chooses the seat's action among the legal ones.
pub enum Decider {
    /// The engine's efficiency bot (`engine::bots::EfficiencyBot`), the arena's `eff`.
    Efficiency,
    /// The engine's defending bot (`engine::bots::DefendBot`), the arena's `defend`.
    Defend,
    /// The shipped model that fits each game's rules (`inference::shipped::fitting`),
    /// loaded at its first decision under those rules.
    Shipped(ShippedModels),
    /// An ONNX policy (observation encoding v2 under riichi rules): its most probable
    /// legal action.
    Model(Box<Advisor>),
    /// The rollout search (`search::search`) with this many rollouts per candidate.
    Search {
        /// Rollouts per candidate.
        rollouts: u32,
        /// Seed of the worlds (mixed with the decision's position in the game).
        seed: u64,
    },
}

impl Decider {
    /// The action for `obs` among `legal` (never empty); `salt` varies the search's
    /// seed from decision to decision.
    pub fn decide(&self, obs: &Observation, legal: &LegalActions, salt: u64) -> Result<Action> {
        match self {
            Decider::Efficiency => Ok(EfficiencyBot.act(obs, legal)),
            Decider::Defend => Ok(DefendBot.act(obs, legal)),
            Decider::Model(advisor) => model_choice(advisor, obs, legal),
            Decider::Shipped(models) => {
                models.with_fitting(&obs.rules, |advisor| model_choice(advisor, obs, legal))
            }
            Decider::Search { rollouts, seed } => {
                let mut cfg = search::SearchConfig::new(&obs.rules).map_err(anyhow::Error::msg)?;
                cfg.rollouts = *rollouts;
                cfg.seed = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let result = search::search(obs, legal, &cfg).map_err(anyhow::Error::msg)?;
                Ok(result.chosen)
            }
        }
    }
}

/// The model's most probable legal action.
fn model_choice(advisor: &Advisor, obs: &Observation, legal: &LegalActions) -> Result<Action> {
    let advice = advisor.advise_with_legal(obs, legal.as_slice())?;
    advice.best().context("the model ranked no legal action")
}

/// The shipped models loaded so far, one per kind of rules met (a bot may see
/// four-player and three-player games on one stream).
#[derive(Default)]
pub struct ShippedModels {
    loaded: std::sync::Mutex<Vec<Advisor>>,
}

impl ShippedModels {
    /// Runs `f` with the shipped model that fits `rules`, loading it the first time; an
    /// error when none fits.
    fn with_fitting<T>(
        &self,
        rules: &engine::Rules,
        f: impl FnOnce(&Advisor) -> Result<T>,
    ) -> Result<T> {
        let mut loaded = self
            .loaded
            .lock()
            .map_err(|_| anyhow!("the shipped-model cache was poisoned by an earlier panic"))?;
        let fits = |a: &Advisor| {
            a.sidecar()
                .is_some_and(|s| inference::shipped::rules_fit(&s.rules, rules))
        };
        let index = match loaded.iter().position(fits) {
            Some(i) => i,
            None => {
                let Some(advisor) = inference::shipped::fitting(rules)? else {
                    let what = format!("the game's rules ({} players)", rules.players);
                    bail!("{}", inference::shipped::none_fits(&what));
                };
                loaded.push(advisor);
                loaded.len() - 1
            }
        };
        f(&loaded[index])
    }
}

/// The seat's legal actions now: the engine's legality from what the seat sees
/// (`engine::game::legal_actions_of`, the same function the advisor and the C ABI use;
/// none in a claim window the seat has no claim in).
pub fn legal_actions(obs: &Observation) -> Result<LegalActions> {
    legal_actions_of(obs).map_err(refused)
}

fn refused(e: RuleError) -> anyhow::Error {
    anyhow!("the tracked state is not a position the engine can deal ({e})")
}

/// The answer when no world can be dealt from the seat's view (never seen on a
/// consistent view, but a bot must not leave the table): on its turn with a drawn
/// tile, that tile (always legal, in riichi too); otherwise a pass.
pub fn fallback(view: &HandView) -> Value {
    match view.drawn {
        Some(d) if view.phase == Phase::Turn && view.turn == view.seat => {
            json!({"type": "dahai", "actor": view.seat, "pai": tile_name(d), "tsumogiri": true})
        }
        _ => json!({"type": "none"}),
    }
}

/// The mjai event of `action` by the seat (`reach` for a riichi: the discard follows
/// when the server echoes it).
pub fn to_mjai(view: &HandView, action: Action, dialect: Dialect) -> Result<Value> {
    let me = view.seat;
    let pending = view.pending;
    let claim = || pending.context("a claim without a claim window");
    Ok(match action {
        Action::Discard(t) => discard(view, t),
        Action::Riichi(_) => json!({"type": "reach", "actor": me}),
        Action::Tsumo => {
            let d = view.drawn.context("tsumo without a drawn tile")?;
            json!({"type": "hora", "actor": me, "target": me, "pai": tile_name(d)})
        }
        Action::Ron => {
            let (p, t) = claim()?;
            json!({"type": "hora", "actor": me, "target": p.from, "pai": tile_name(t)})
        }
        Action::Pon | Action::OpenKan => {
            let (p, t) = claim()?;
            let n = if action == Action::Pon { 2 } else { 3 };
            let consumed = give(view, &vec![p.tile; n]);
            let ty = if action == Action::Pon {
                "pon"
            } else {
                "daiminkan"
            };
            json!({"type": ty, "actor": me, "target": p.from, "pai": tile_name(t),
                "consumed": names(&consumed)})
        }
        Action::Chi(low) => {
            let (p, t) = claim()?;
            let others: Vec<engine::Tile> = (0..3u8)
                .filter_map(|d| engine::Tile::new(low.as_u8() + d))
                .filter(|&x| x != p.tile)
                .collect();
            let consumed = give(view, &others);
            json!({"type": "chi", "actor": me, "target": p.from, "pai": tile_name(t),
                "consumed": names(&consumed)})
        }
        Action::ClosedKan(t) => {
            let consumed = give(view, &[t; 4]);
            json!({"type": "ankan", "actor": me, "consumed": names(&consumed)})
        }
        Action::AddedKan(t) => {
            let added = view.copy_to_give(t, &[]);
            let pon = view.pon_tiles(t).context("an added kan without its pon")?;
            json!({"type": "kakan", "actor": me, "pai": tile_name(added),
                "consumed": names(&pon)})
        }
        Action::Kita => {
            let ty = match dialect {
                Dialect::Nukidora => "nukidora",
                Dialect::Kita => "kita",
            };
            json!({"type": ty, "actor": me, "pai": "N"})
        }
        Action::NineTerminals => json!({"type": "ryukyoku", "actor": me}),
        Action::Pass => json!({"type": "none"}),
    })
}

/// The `dahai` of a tile of type `t`: the copy `apply` gives up, `tsumogiri` when it
/// is the tile just drawn. In riichi the copy is the drawn one: only the drawn tile
/// may go then, and a server that tracks copies (Mortal's libriichi, whose arena
/// refused a plain 5p from a riichi hand that had drawn the red one) refuses any
/// other, even of the same type.
pub fn discard(view: &HandView, t: engine::Tile) -> Value {
    let drawn = view.drawn.filter(|d| d.tile == t && view.in_riichi());
    let tile = drawn.unwrap_or_else(|| view.copy_to_give(t, &[]));
    let tsumogiri = view.drawn == Some(tile);
    json!({"type": "dahai", "actor": view.seat, "pai": tile_name(tile), "tsumogiri": tsumogiri})
}

/// The physical tiles given up for `types`, plain copies first.
fn give(view: &HandView, types: &[engine::Tile]) -> Vec<LogTile> {
    let mut out = Vec::new();
    for &t in types {
        let c = view.copy_to_give(t, &out);
        out.push(c);
    }
    out
}

/// The riichi discard after the server echoed the seat's `reach`: the one planned with
/// it, else the decider's choice among the legal riichi discards.
pub fn riichi_discard(
    view: &HandView,
    planned: Option<engine::Tile>,
    decider: &Decider,
    salt: u64,
) -> Result<Value> {
    let obs = view.observation()?;
    let legal = match legal_actions(&obs) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("warning: {e:#}; the riichi discard is the drawn tile");
            return Ok(fallback(view));
        }
    };
    let riichi: LegalActions = legal
        .iter()
        .filter(|a| matches!(a, Action::Riichi(_)))
        .collect();
    if riichi.is_empty() {
        bail!("reach, but no riichi discard is legal");
    }
    let tile = match planned.filter(|&t| riichi.contains(Action::Riichi(t))) {
        Some(t) => t,
        None => match decider.decide(&obs, &legal, salt).unwrap_or_else(|e| {
            eprintln!("warning: the decider failed ({e:#}); the efficiency choice instead");
            EfficiencyBot.act(&obs, &legal)
        }) {
            Action::Riichi(t) => t,
            _ => match riichi.iter().next() {
                Some(Action::Riichi(t)) => t,
                _ => bail!("no riichi discard"),
            },
        },
    };
    Ok(discard(view, tile))
}
