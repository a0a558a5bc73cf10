//! Melds (exposed or declared sets) and discards.

use serde::{Deserialize, Serialize};

use crate::tile::{Tile, TileCounts};

/// How a meld was formed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum MeldKind {
    /// A sequence completed with the left neighbour's discard.
    Chi,
    /// A pung completed with a discard.
    Pon,
    /// Four of a kind from the hand (visible to everyone, but closed for hand shapes).
    ClosedKan,
    /// Four of a kind: three in hand plus a discard.
    OpenKan,
    /// Four of a kind: a pon plus the fourth tile from the hand.
    AddedKan,
}

impl MeldKind {
    /// Whether this meld is a kan (four tiles).
    pub const fn is_kan(self) -> bool {
        matches!(
            self,
            MeldKind::ClosedKan | MeldKind::OpenKan | MeldKind::AddedKan
        )
    }
}

/// A meld of one player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Meld {
    /// How it was formed.
    pub kind: MeldKind,
    /// The tile type for pungs and kans; the lowest tile for a chi.
    pub tile: Tile,
    /// The seat the claimed tile came from (`None` for a closed kan). An added kan keeps
    /// the seat of its pon.
    pub from: Option<u8>,
    /// The claimed tile (`None` for a closed kan).
    pub claimed: Option<Tile>,
}

impl Meld {
    /// Number of tiles in the meld.
    pub const fn len(&self) -> u8 {
        if self.kind.is_kan() {
            4
        } else {
            3
        }
    }

    /// Never empty; present for API symmetry with `len`.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Adds the tiles of the meld to `counts` (saturating, so corrupt input cannot
    /// overflow).
    pub fn add_to(&self, counts: &mut TileCounts) {
        let i = self.tile.index();
        match self.kind {
            MeldKind::Chi => {
                for j in i..i + 3 {
                    if let Some(c) = counts.get_mut(j) {
                        *c = c.saturating_add(1);
                    }
                }
            }
            _ => {
                if let Some(c) = counts.get_mut(i) {
                    *c = c.saturating_add(self.len());
                }
            }
        }
    }

    /// Whether the meld is a pung or kan (not a sequence).
    pub const fn is_pung_or_kan(&self) -> bool {
        !matches!(self.kind, MeldKind::Chi)
    }
}

/// One discard in a player's discard row.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Discard {
    /// The discarded tile.
    pub tile: Tile,
    /// Whether another player claimed it (it then lives in that player's meld).
    pub claimed: bool,
}
