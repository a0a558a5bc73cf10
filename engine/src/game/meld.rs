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
    /// Its place in the hand's sequence of discards, all seats together (0 = the first
    /// discard of the hand; saturates at 255). Public, as the order of the rows on a
    /// real table is; it tells which discards an opponent let pass after its own last
    /// discard (the evidence [`crate::belief`] reads). Positions read from text that
    /// give no order get an order reconstructed from turn rotation.
    #[serde(default)]
    pub seq: u8,
    /// Whether the discarded tile is of the type just drawn (a replacement draw after a
    /// kan included), so that the discarder's concealed hand is the same as before the
    /// draw. Public, as real tables show it (Tenhou greys a tsumogiri tile): a run of
    /// such discards tells an observer that a hand has not changed, which is evidence
    /// about it ([`crate::belief`]). With tile types only, drawing a 5p and discarding
    /// another 5p counts too: the hand is the same either way. Positions read from text
    /// carry none (`false`: nothing is claimed about the hand).
    #[serde(default)]
    pub tsumogiri: bool,
}

/// Gives the discards of `rows` an order ([`Discard::seq`]) for positions that were
/// written without one: turn rotation from `dealer` (round `r` is every seat's `r`-th
/// discard, in seat order from the dealer), with the last discard of seat `last`, when
/// given (the discard a claim window is open on), placed after all others. Calls make
/// real play skip seats, so this is an approximation; engine games record the true
/// order as they go.
pub fn order_discards_by_rotation<const N: usize>(
    rows: &mut [heapless::Vec<Discard, N>],
    dealer: u8,
    last: Option<u8>,
) {
    let n = rows.len();
    let rounds = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut seq = 0u8;
    for round in 0..rounds {
        for k in 0..n {
            let seat = (dealer as usize + k) % n.max(1);
            let is_last_row = last == Some(seat as u8);
            if let Some(row) = rows.get_mut(seat) {
                let len = row.len();
                if let Some(d) = row.get_mut(round) {
                    if is_last_row && round + 1 == len {
                        continue;
                    }
                    d.seq = seq;
                    seq = seq.saturating_add(1);
                }
            }
        }
    }
    if let Some(d) = last
        .and_then(|s| rows.get_mut(s as usize))
        .and_then(|r| r.last_mut())
    {
        d.seq = seq;
    }
}
