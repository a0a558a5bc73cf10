//! The legal actions of a seat from its [`Observation`] alone: one legality for the
//! engine's games and for positions that exist only as an observation (typed by a
//! user, sent as JSON, read from an mjai stream).
//!
//! There is one legality, [`Game::legal_actions`]; this module reaches it from an
//! observation by dealing a world around it ([`Game::from_observation`], the hidden
//! tiles on a fixed seed). That is exact because everything legality needs is visible
//! to the seat: its hand and melds, the pending tile, the live-wall size, the kan
//! count and, under riichi rules, the [`RiichiView`](super::RiichiView) (declarations,
//! furiten, kita, dora, winds for the yaku). The hidden tiles change nothing for the
//! seat's own choices.
//!
//! A position typed by a person rarely accounts for every tile: a pon names its tile
//! but the discard it took is often not listed, and a live-wall size typed or estimated
//! need not match the discards written. The world must account for every tile, so the
//! live wall is fitted to the tiles the seat has not seen — only within its class for
//! legality (empty, below the riichi minimum, at or above it: haitei and houtei, claims
//! and kans, riichi), so the answer is the one the typed size gives.

use super::action::LegalActions;
use super::error::RuleError;
use super::observation::Observation;
use super::state::Game;
use crate::rng::Rng;

/// Worlds tried before a position counts as refused: a deal can fail where it is
/// random (an opponent in riichi gets a tenpai hand built from the unseen tiles in a
/// bounded number of tries), while any world that deals gives the same legal actions.
pub const DEAL_TRIES: u64 = 16;

/// The legal actions of `obs.seat` from what it sees: exactly [`Game::legal_actions`]
/// (its order too) of the game `obs` came from, for every observation a game
/// produces. Empty when the seat has nothing to decide (not on turn, no claim on the
/// pending tile, between hands). [`RuleError::BadSetup`] when `obs` is not a position
/// of the rules (tiles that do not fit, a live wall no discard count explains, no
/// world dealt in [`DEAL_TRIES`] tries). Never allocates: the world lives on the stack.
pub fn legal_actions_of(obs: &Observation) -> Result<LegalActions, RuleError> {
    let fitted = fit_live_wall(obs)?;
    for seed in 0..DEAL_TRIES {
        match Game::from_observation(&fitted, None, &mut Rng::new(seed)) {
            Ok(world) => return Ok(world.legal_actions(obs.seat)),
            Err(RuleError::NotYourTurn | RuleError::HandOver | RuleError::GameOver) => {
                return Ok(LegalActions::new())
            }
            Err(RuleError::BadSetup) => {}
            Err(e) => return Err(e),
        }
    }
    Err(RuleError::BadSetup)
}

/// `obs` with the live wall that makes its tiles add up (the unseen ones fill the
/// other hands, the live and the dead wall), when that size is in the same legality
/// class as the given one; otherwise [`RuleError::BadSetup`].
fn fit_live_wall(obs: &Observation) -> Result<Observation, RuleError> {
    let rules = &obs.rules;
    let seat = obs.seat as usize;
    let hidden: i32 = Game::concealed_sizes(obs)
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, &k)| i32::from(k))
        .sum();
    let unseen: i32 = obs.unseen.iter().map(|&c| i32::from(c)).sum();
    // Revealed dora indicators lie in the dead wall but are seen.
    let revealed = obs
        .riichi
        .as_ref()
        .map_or(0, |v| v.dora_indicators.len() as i32);
    let live = unseen + revealed - hidden - i32::from(rules.dead_wall);
    // Legality reads the live wall only through these thresholds: empty (haitei,
    // houtei, no claims or kans) and the riichi minimum.
    let threshold = rules.riichi.map_or(1, |r| r.riichi_min_live.max(1));
    let class = |x: i32| x.min(i32::from(threshold));
    let live = u8::try_from(live).map_err(|_| RuleError::BadSetup)?;
    if class(i32::from(live)) != class(i32::from(obs.live_wall)) {
        return Err(RuleError::BadSetup);
    }
    let mut fitted = obs.clone();
    fitted.live_wall = live;
    Ok(fitted)
}
