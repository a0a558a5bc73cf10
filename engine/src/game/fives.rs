//! The fives and their red copies, shared by the state, the riichi wall, the copy a
//! decision gives up, the invariants and the determinization: which tiles are fives,
//! the red positions of a wall, and the log of red fives given up. None of it needs
//! the state machine, so every one of those files can depend on it.

use crate::rules::Rules;
use crate::tile::Tile;

use super::caps::MAX_WALL;
use super::error::RuleError;

/// Most departures from the default copy in one hand: one per red five (at most one
/// per suit).
pub const RED_COPIES_CAP: usize = 3;

/// The suit index (0 man, 1 pin, 2 sou) of a five, `None` for other tiles.
pub(crate) fn five_suit(t: Tile) -> Option<usize> {
    (!t.is_honor() && t.number() == 5).then(|| t.suit().index())
}

/// Checks the red positions of a wall given with `red` (empty: none) against the rules:
/// exactly `red_fives` red copies per suit, each on a five of its suit.
pub(crate) fn check_reds(
    rules: &Rules,
    wall: &[Tile],
    red: &[bool],
) -> Result<[bool; MAX_WALL], RuleError> {
    let mut out = [false; MAX_WALL];
    let want = rules.riichi.map_or([0; 3], |r| r.red_fives);
    let mut found = [0u8; 3];
    for (i, &r) in red.iter().enumerate() {
        if !r {
            continue;
        }
        let suit = wall
            .get(i)
            .copied()
            .and_then(five_suit)
            .ok_or(RuleError::BadSetup)?;
        if let (Some(f), Some(o)) = (found.get_mut(suit), out.get_mut(i)) {
            *f += 1;
            *o = true;
        }
    }
    if found != want {
        return Err(RuleError::BadSetup);
    }
    Ok(out)
}

/// The log indices of one hand's actions that gave up a red five where `apply` would
/// have kept it (fixed capacity, copyable like the rest of the per-hand state).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct RedCopies {
    at: [u16; RED_COPIES_CAP],
    len: u8,
}

impl RedCopies {
    /// The recorded indices in order.
    pub(crate) fn as_slice(&self) -> &[u16] {
        self.at.get(..self.len as usize).unwrap_or(&[])
    }

    pub(crate) fn is_full(&self) -> bool {
        self.len as usize >= RED_COPIES_CAP
    }

    pub(crate) fn push(&mut self, index: u16) {
        if let Some(slot) = self.at.get_mut(self.len as usize) {
            *slot = index;
            self.len += 1;
        }
    }
}
