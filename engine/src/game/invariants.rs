//! Consistency checks of a [`Game`], run by the tests after every action.

use core::fmt;

use super::event::HandEndKind;
use super::meld::MeldKind;
use super::state::{Game, HandShape, Phase, MAX_KANS, MAX_PLAYERS};
use crate::tile::{Tile, NUM_TILE_TYPES};

/// A broken invariant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum InvariantViolation {
    /// Hands + melds + unclaimed discards + wall (+ a pending added-kan tile) do not add
    /// up to the tile set for this tile type.
    TileCount {
        /// The tile type.
        tile: Tile,
        /// How many were found.
        found: u8,
        /// How many the set holds.
        expected: u8,
    },
    /// The incrementally kept count of tiles in the open (melds, unclaimed discards and
    /// a pending added-kan tile) disagrees with a recount for this tile type.
    Visible {
        /// The tile type.
        tile: Tile,
    },
    /// The incrementally kept shape of a seat's hand (held, odd and four-of-a-kind
    /// masks, suit totals) disagrees with its counts.
    Shape {
        /// The seat.
        seat: u8,
    },
    /// A seat holds a number of closed tiles that is impossible now.
    HandSize {
        /// The seat.
        seat: u8,
        /// Its closed tile count.
        tiles: u8,
    },
    /// A seat that does not play holds tiles, melds or discards.
    EmptySeat {
        /// The seat.
        seat: u8,
    },
    /// The wall positions are out of order or the dead wall has the wrong size.
    Wall,
    /// The kan counter disagrees with the melds, or exceeds the limit.
    Kans,
    /// The scores do not sum to players × starting points.
    Scores,
    /// The seat on turn or the claim window is inconsistent.
    Turn,
}

impl fmt::Display for InvariantViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvariantViolation::TileCount {
                tile,
                found,
                expected,
            } => {
                write!(
                    f,
                    "{found} tiles of {tile} accounted for, the set has {expected}"
                )
            }
            InvariantViolation::Visible { tile } => {
                write!(f, "open tiles of {tile} miscounted")
            }
            InvariantViolation::Shape { seat } => write!(f, "hand shape of seat {seat} stale"),
            InvariantViolation::HandSize { seat, tiles } => {
                write!(f, "seat {seat} holds {tiles} tiles")
            }
            InvariantViolation::EmptySeat { seat } => write!(f, "unused seat {seat} holds tiles"),
            InvariantViolation::Wall => f.write_str("wall positions inconsistent"),
            InvariantViolation::Kans => f.write_str("kan count inconsistent"),
            InvariantViolation::Scores => f.write_str("scores not conserved"),
            InvariantViolation::Turn => f.write_str("turn or claim window inconsistent"),
        }
    }
}

impl core::error::Error for InvariantViolation {}

/// Checks every invariant of `game`: tile accounting against the tile set, hand sizes,
/// wall positions, the kan limit, the seat on turn and conservation of points.
pub fn check_invariants(game: &Game) -> Result<(), InvariantViolation> {
    let rules = &game.rules;
    let n = rules.players as usize;
    // Wall positions.
    let (draw, live, dead, len) = (
        game.draw_pos as usize,
        game.live_end as usize,
        game.dead_end as usize,
        game.wall_len as usize,
    );
    if !(draw <= live && live <= dead && dead <= len && len <= game.wall.len())
        || dead - live != rules.dead_wall as usize
        || len != rules.tile_set.num_tiles()
    {
        return Err(InvariantViolation::Wall);
    }
    // Tile accounting. `counts` may overflow u8 only on corrupt states; use u16.
    let mut counts = [0u16; NUM_TILE_TYPES];
    let mut add = |t: Tile, k: u16| {
        if let Some(c) = counts.get_mut(t.index()) {
            *c += k;
        }
    };
    for t in game.wall.get(draw..dead).unwrap_or(&[]) {
        add(*t, 1);
    }
    let mut kans = 0u8;
    // Tiles in the open, recounted, to check `game.visible`.
    let mut visible = [0u16; NUM_TILE_TYPES];
    let mut show = |t: Tile, k: u16| {
        if let Some(c) = visible.get_mut(t.index()) {
            *c += k;
        }
    };
    for seat in 0..MAX_PLAYERS {
        let (Some(hand), Some(melds), Some(discards)) = (
            game.hands.get(seat),
            game.melds.get(seat),
            game.discards.get(seat),
        ) else {
            return Err(InvariantViolation::Wall);
        };
        if game.shapes.get(seat) != Some(&HandShape::of(hand)) {
            return Err(InvariantViolation::Shape { seat: seat as u8 });
        }
        if seat >= n {
            if hand.iter().any(|&c| c != 0) || !melds.is_empty() || !discards.is_empty() {
                return Err(InvariantViolation::EmptySeat { seat: seat as u8 });
            }
            continue;
        }
        let mut closed = 0u16;
        for (i, &c) in hand.iter().enumerate() {
            if let Some(t) = Tile::new(i as u8) {
                add(t, c as u16);
            }
            closed += c as u16;
        }
        for m in melds {
            if m.kind.is_kan() {
                kans += 1;
            }
            let k = m.len() as u16;
            match m.kind {
                MeldKind::Chi => {
                    for i in m.tile.index()..m.tile.index() + 3 {
                        match Tile::new(i as u8) {
                            Some(t) if t.suit() == m.tile.suit() && !t.is_honor() => {
                                add(t, 1);
                                show(t, 1);
                            }
                            _ => return Err(InvariantViolation::Turn),
                        }
                    }
                }
                _ => {
                    add(m.tile, k);
                    show(m.tile, k);
                }
            }
        }
        for d in discards.iter().filter(|d| !d.claimed) {
            add(d.tile, 1);
            show(d.tile, 1);
        }
        // Closed tiles: 13 − 3k, plus one for the seat holding a drawn or called tile.
        let base = 13u16.saturating_sub(3 * melds.len() as u16);
        let holds_extra = match game.phase {
            Phase::Turn => game.turn as usize == seat,
            Phase::Claim => false,
            Phase::HandOver | Phase::GameOver => game.result.is_some_and(|r| {
                r.kind == HandEndKind::Win
                    && r.discarder.is_none()
                    && r.winners.get(seat).copied().unwrap_or(false)
            }),
        };
        if closed != base + holds_extra as u16 {
            return Err(InvariantViolation::HandSize {
                seat: seat as u8,
                tiles: closed.min(255) as u8,
            });
        }
    }
    // An added-kan tile in a robbing window (or robbed by the win that ended the hand).
    if game.claim.robbing {
        add(game.claim.tile, 1);
        show(game.claim.tile, 1);
    }
    for (i, (&v, &kept)) in visible.iter().zip(game.visible.iter()).enumerate() {
        if v != kept as u16 {
            return Err(InvariantViolation::Visible {
                tile: Tile::new(i as u8).unwrap_or(Tile::EAST),
            });
        }
    }
    let full = rules.tile_set.full_counts();
    for (i, (&found, &expected)) in counts.iter().zip(full.iter()).enumerate() {
        if found != expected as u16 {
            return Err(InvariantViolation::TileCount {
                tile: Tile::new(i as u8).unwrap_or(Tile::EAST),
                found: found.min(255) as u8,
                expected,
            });
        }
    }
    if kans != game.kans || kans > MAX_KANS {
        return Err(InvariantViolation::Kans);
    }
    // Payments wrap on absurd score tables, so conservation is checked modulo 2^32.
    let sum = game.scores.iter().fold(0i32, |a, &s| a.wrapping_add(s));
    if sum != (n as i32).wrapping_mul(rules.starting_points)
        || game.scores.iter().skip(n).any(|&s| s != 0)
    {
        return Err(InvariantViolation::Scores);
    }
    if game.turn as usize >= n {
        return Err(InvariantViolation::Turn);
    }
    if game.phase == Phase::Claim
        && (game.claim.from != game.turn || !(0..n).any(|s| game.claim.awaits(s)))
    {
        return Err(InvariantViolation::Turn);
    }
    Ok(())
}
