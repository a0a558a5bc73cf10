//! Which physical copy of a five an action gives up: the red five or a plain one.
//!
//! Actions name tile types, because the action index space ([`NUM_ACTIONS`](super::NUM_ACTIONS), 177) is what
//! policies, encoders and the C ABI are built on. So [`Game::apply`] chooses the copy
//! itself: plain fives leave a hand before the red one, since keeping the red five is
//! never worse (it is worth a han, Tenhou's 赤ドラ; riichi.wiki, Akadora). Players do
//! not always keep it: a log's player may discard `0p` while holding `5p`, or chi with
//! `0p` instead of `5p`, and a replay that keeps the red five scores the later win with
//! one han too many. [`Game::apply_with_copy`] names the copy, so such logs replay
//! exactly, while `apply` and every agent play as before.
//!
//! The copy is a property of the tiles the action takes from the hand: the discard
//! (riichi included), the two tiles of a chi or pon, the three of an open kan, the four
//! of a closed kan, the fourth tile of an added kan. Only discards, chis and pons can
//! choose (a kan takes every copy of its type the hand holds, so only the copy that is
//! there can be named); a chi whose five is the claimed tile gives up no five at all.
//!
//! Records: a choice that departs from `apply`'s (a red five given up while a plain one
//! was held) is kept by its index in the hand's action log and goes into the hand
//! record ([`RiichiStart::red_copies`](super::RiichiStart)), so a record still replays
//! to the identical state. Red fives exist only under riichi rules, at most one per
//! suit ([`Rules::validate`](crate::Rules::validate)), and a red five leaves a hand at
//! most once, so a hand has at most [`RED_COPIES_CAP`](super::RED_COPIES_CAP) departures.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::error::RuleError;
use super::event::Events;
use super::fives::five_suit;
use super::state::{Game, Phase};
use crate::tile::Tile;

/// The copy of a five an action gives up from the hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum FiveCopy {
    /// Only plain fives leave the hand.
    Plain,
    /// The red five leaves the hand (with plain ones where the action takes more).
    Red,
}

impl Game {
    /// Applies `action` by `seat` giving up the named `copy` of the five it takes from
    /// the hand: like [`Game::apply`] otherwise, and identical to it when `copy` is what
    /// `apply` would give up. Errors, each leaving the game untouched: those of `apply`
    /// for an illegal action; [`RuleError::NoSuchCopy`] when the hand cannot give up
    /// that copy (`Red` with no red five among the tiles the action can take, `Plain`
    /// when the action must take the red five); [`RuleError::CapacityExceeded`] past
    /// [`RED_COPIES_CAP`](super::RED_COPIES_CAP) departures in a hand (unreachable under valid rules).
    pub fn apply_with_copy(
        &mut self,
        seat: u8,
        action: Action,
        copy: FiveCopy,
    ) -> Result<Events, RuleError> {
        self.check_legal(seat, action)?;
        if !self.copy_options(seat, action).allows(copy) {
            return Err(RuleError::NoSuchCopy);
        }
        let departs = copy == FiveCopy::Red && self.default_copy(seat, action) == FiveCopy::Plain;
        if !departs {
            return self.apply(seat, action);
        }
        let index = u16::try_from(self.log.len()).map_err(|_| RuleError::CapacityExceeded)?;
        if self.rh.red_copies.is_full() {
            return Err(RuleError::CapacityExceeded);
        }
        let mut ev = Events::new();
        self.apply_checked(seat, action, true, &mut ev)?;
        self.rh.red_copies.push(index);
        Ok(ev)
    }

    /// The copies `seat` can give up with `action` now (whether or not the action is
    /// legal): `plain` and `red` both true is a real choice; a `Plain`-only answer also
    /// covers actions that take no five.
    pub fn copy_options(&self, seat: u8, action: Action) -> CopyOptions {
        let Some((t, n)) = self.five_taken(action) else {
            return CopyOptions {
                plain: true,
                red: false,
            };
        };
        let (held, reds) = self.held_with_reds(seat, t);
        CopyOptions {
            plain: held.saturating_sub(reds) >= n,
            red: reds > 0 && held >= n,
        }
    }

    /// The copy [`Game::apply`] gives up: plain while enough plain copies are held.
    pub fn default_copy(&self, seat: u8, action: Action) -> FiveCopy {
        if self.copy_options(seat, action).plain {
            FiveCopy::Plain
        } else {
            FiveCopy::Red
        }
    }

    /// The indices into [`Game::actions`] of this hand's actions that gave up a red
    /// five where [`Game::apply`] would have kept it.
    pub fn red_copies(&self) -> &[u16] {
        self.rh.red_copies.as_slice()
    }

    /// The five `action` takes from `seat`'s hand and how many of its type, `None` when
    /// it takes no five.
    fn five_taken(&self, action: Action) -> Option<(Tile, u8)> {
        let claimed = (self.phase == Phase::Claim).then_some(self.claim.tile);
        let (t, n) = match action {
            Action::Discard(t) | Action::Riichi(t) | Action::AddedKan(t) => (t, 1),
            Action::ClosedKan(t) => (t, 4),
            Action::Pon => (claimed?, 2),
            Action::OpenKan => (claimed?, 3),
            Action::Chi(low) => {
                let c = claimed?;
                let five = (low.index()..low.index() + 3)
                    .filter(|&i| i != c.index())
                    .filter_map(|i| Tile::new(i as u8))
                    .find(|&x| five_suit(x).is_some())?;
                (five, 1)
            }
            _ => return None,
        };
        five_suit(t).map(|_| (t, n))
    }

    /// How many tiles of type `t` `seat` holds, and how many of them are red.
    fn held_with_reds(&self, seat: u8, t: Tile) -> (u8, u8) {
        let s = seat as usize;
        let held = self
            .hands
            .get(s)
            .and_then(|h| h.get(t.index()))
            .copied()
            .unwrap_or(0);
        let reds = five_suit(t)
            .and_then(|i| self.rh.red_hand.get(s).and_then(|h| h.get(i)))
            .copied()
            .unwrap_or(0);
        (held, reds.min(held))
    }
}

/// Which copies of a five an action can give up ([`Game::copy_options`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CopyOptions {
    /// Only plain fives can leave the hand (also: the action takes no five).
    pub plain: bool,
    /// A red five can leave the hand.
    pub red: bool,
}

impl CopyOptions {
    /// Whether `copy` can be given up.
    pub fn allows(self, copy: FiveCopy) -> bool {
        match copy {
            FiveCopy::Plain => self.plain,
            FiveCopy::Red => self.red,
        }
    }
}
