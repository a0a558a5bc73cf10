//! Consistency checks of a [`Game`], run by the tests after every action.

use core::fmt;

use super::caps::{MAX_KANS, MAX_PLAYERS};
use super::event::HandEndKind;
use super::fives::five_suit;
use super::meld::MeldKind;
use super::riichi_flow::legal::NORTH;
use super::riichi_flow::DrawKind;
use super::state::{Game, HandShape, Phase};
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
    /// Red fives are not where the rules put them: their count per suit over wall,
    /// hands, melds, discards and a pending tile differs from the rules, or a seat's red
    /// count exceeds its fives.
    RedFives,
    /// The riichi state is inconsistent (dora indicators, kita, sticks, declarations).
    Riichi,
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
            InvariantViolation::RedFives => f.write_str("red fives miscounted"),
            InvariantViolation::Riichi => f.write_str("riichi state inconsistent"),
        }
    }
}

impl core::error::Error for InvariantViolation {}

/// Checks every invariant of `game`: tile accounting against the tile set (kita and red
/// fives included), hand sizes, wall positions, the kan limit, the seat on turn and
/// conservation of points (riichi deposits on the table included).
pub fn check_invariants(game: &Game) -> Result<(), InvariantViolation> {
    let rules = &game.rules;
    check_wall(game)?;
    let mut tally = Tally::default();
    // The undrawn wall, live and dead.
    for t in game
        .wall
        .get(game.draw_pos as usize..game.dead_end as usize)
        .unwrap_or(&[])
    {
        tally.hidden(*t, 1);
    }
    let mut kans = 0u8;
    for seat in 0..MAX_PLAYERS {
        kans += tally_seat(game, seat, &mut tally)?;
    }
    // An added-kan tile in a robbing window (or robbed by the win that ended the hand).
    if game.claim.robbing {
        tally.open(game.claim.tile, 1);
    }
    // Revealed dora indicators are in the open (and in the dead wall).
    if game.rh.dora > 5 || (rules.is_riichi() != (game.rh.dora > 0)) {
        return Err(InvariantViolation::Riichi);
    }
    for t in game.dora_indicators() {
        tally.visible[t.index()] += 1;
    }
    tally.check(game)?;
    if kans != game.kans || kans > MAX_KANS {
        return Err(InvariantViolation::Kans);
    }
    check_red_fives(game)?;
    check_scores(game)?;
    check_turn(game)
}

/// The wall positions are ordered and the dead wall has the rules' size.
fn check_wall(game: &Game) -> Result<(), InvariantViolation> {
    let (draw, live, dead, len) = (
        game.draw_pos as usize,
        game.live_end as usize,
        game.dead_end as usize,
        game.wall_len as usize,
    );
    if !(draw <= live && live <= dead && dead <= len && len <= game.wall.len())
        || dead - live != game.rules.dead_wall as usize
        || len != game.rules.tile_set.num_tiles()
    {
        return Err(InvariantViolation::Wall);
    }
    Ok(())
}

/// Every tile found, by type, and those in the open recounted (to check
/// `game.visible`). u16: the counts may pass 255 only on corrupt states.
struct Tally {
    counts: [u16; NUM_TILE_TYPES],
    visible: [u16; NUM_TILE_TYPES],
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            counts: [0; NUM_TILE_TYPES],
            visible: [0; NUM_TILE_TYPES],
        }
    }
}

impl Tally {
    /// `k` copies of `t` out of sight (wall, closed hands).
    fn hidden(&mut self, t: Tile, k: u16) {
        self.counts[t.index()] += k;
    }

    /// `k` copies of `t` in the open (melds, discards, kita).
    fn open(&mut self, t: Tile, k: u16) {
        self.hidden(t, k);
        self.visible[t.index()] += k;
    }

    /// The open recount equals the kept one and every type adds up to the tile set.
    fn check(&self, game: &Game) -> Result<(), InvariantViolation> {
        for (i, (&v, &kept)) in self.visible.iter().zip(game.visible.iter()).enumerate() {
            if v != kept as u16 {
                return Err(InvariantViolation::Visible {
                    tile: Tile::new(i as u8).unwrap_or(Tile::EAST),
                });
            }
        }
        let full = game.rules.tile_set.full_counts();
        for (i, (&found, &expected)) in self.counts.iter().zip(full.iter()).enumerate() {
            if found != expected as u16 {
                return Err(InvariantViolation::TileCount {
                    tile: Tile::new(i as u8).unwrap_or(Tile::EAST),
                    found: found.min(255) as u8,
                    expected,
                });
            }
        }
        Ok(())
    }
}

/// Counts one seat's hand, melds, unclaimed discards and kita into `tally` and checks
/// its shape and closed-tile count; returns its kans. A seat the rules do not seat
/// must be empty.
fn tally_seat(game: &Game, seat: usize, tally: &mut Tally) -> Result<u8, InvariantViolation> {
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
    if seat >= game.rules.players as usize {
        if hand.iter().any(|&c| c != 0) || !melds.is_empty() || !discards.is_empty() {
            return Err(InvariantViolation::EmptySeat { seat: seat as u8 });
        }
        return Ok(0);
    }
    let mut closed = 0u16;
    for (t, &c) in Tile::all().zip(hand.iter()) {
        tally.hidden(t, c as u16);
        closed += c as u16;
    }
    let mut kans = 0u8;
    for m in melds {
        kans += m.kind.is_kan() as u8;
        if m.kind == MeldKind::Chi {
            for i in m.tile.index()..m.tile.index() + 3 {
                match Tile::new(i as u8) {
                    Some(t) if t.suit() == m.tile.suit() && !t.is_honor() => tally.open(t, 1),
                    _ => return Err(InvariantViolation::Turn),
                }
            }
        } else {
            tally.open(m.tile, m.len() as u16);
        }
    }
    for d in discards.iter().filter(|d| !d.claimed) {
        tally.open(d.tile, 1);
    }
    // Kita: norths set aside, in the open.
    let kita = game.rh.kita.get(seat).copied().unwrap_or(0) as u16;
    if let Some(north) = Tile::new(NORTH) {
        tally.open(north, kita);
    }
    // Closed tiles: 13 − 3k, plus one for the seat holding a drawn or called tile.
    let base = 13u16.saturating_sub(3 * melds.len() as u16);
    if closed != base + holds_extra_tile(game, seat) as u16 {
        return Err(InvariantViolation::HandSize {
            seat: seat as u8,
            tiles: closed.min(255) as u8,
        });
    }
    Ok(kans)
}

/// Whether `seat` holds a 14th (less 3 per meld) tile now: on turn, after winning by
/// tsumo, or showing nine terminals on its turn.
fn holds_extra_tile(game: &Game, seat: usize) -> bool {
    let nine_terminals = game
        .rresult
        .as_ref()
        .is_some_and(|r| r.draw == Some(DrawKind::NineTerminals));
    match game.phase {
        Phase::Turn => game.turn as usize == seat,
        Phase::Claim => false,
        Phase::HandOver | Phase::GameOver => {
            game.result.is_some_and(|r| {
                r.kind == HandEndKind::Win
                    && r.discarder.is_none()
                    && r.winners.get(seat).copied().unwrap_or(false)
            }) || (nine_terminals && game.turn as usize == seat)
        }
    }
}

/// Points are conserved (deposits on the table included) and empty seats hold none.
fn check_scores(game: &Game) -> Result<(), InvariantViolation> {
    let n = game.rules.players as usize;
    // Payments wrap on absurd score tables, so conservation is checked modulo 2^32.
    let sum = game.scores.iter().fold(0i32, |a, &s| a.wrapping_add(s));
    let sum = sum.wrapping_add(Game::deposits(&game.rules, game.table.sticks));
    if sum != (n as i32).wrapping_mul(game.rules.starting_points)
        || game.scores.iter().skip(n).any(|&s| s != 0)
    {
        return Err(InvariantViolation::Scores);
    }
    Ok(())
}

/// The seat on turn plays, and a claim window follows its discard and awaits someone.
fn check_turn(game: &Game) -> Result<(), InvariantViolation> {
    let n = game.rules.players as usize;
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

/// Red fives per suit over the undrawn wall, hands, melds, unclaimed discards and a
/// robbing window's tile equal the rules' count; no seat holds more red than fives.
fn check_red_fives(game: &Game) -> Result<(), InvariantViolation> {
    let Some(r) = game.rules.riichi else {
        // The simple rules never mark a red five: only the counters need checking (the
        // deal copies the all-false red positions of `shuffled_wall`).
        let rh = &game.rh;
        let none = rh.red_hand == [[0; 3]; 4]
            && rh.red_melds == [[0; 4]; 4]
            && rh.red_discards == [0; 4]
            && !rh.red_claim;
        return if none {
            Ok(())
        } else {
            Err(InvariantViolation::RedFives)
        };
    };
    let want = r.red_fives;
    let mut found = [0u16; 3];
    fn count(found: &mut [u16; 3], t: Tile, k: u16) {
        if let Some(f) = five_suit(t).and_then(|s| found.get_mut(s)) {
            *f += k;
        }
    }
    let (draw, dead) = (game.draw_pos as usize, game.dead_end as usize);
    if let (Some(reds), Some(tiles)) = (game.red.get(draw..dead), game.wall.get(draw..dead)) {
        for (&red, &t) in reds.iter().zip(tiles) {
            if red {
                count(&mut found, t, 1);
            }
        }
    }
    for seat in 0..game.rules.players as usize {
        let reds = game.rh.red_hand.get(seat).copied().unwrap_or_default();
        for (suit, &r) in reds.iter().enumerate() {
            let five = suit * 9 + 4;
            let held = game.hands.get(seat).and_then(|h| h.get(five)).copied();
            if held.is_none_or(|h| r > h) {
                return Err(InvariantViolation::RedFives);
            }
            if let Some(f) = found.get_mut(suit) {
                *f += r as u16;
            }
        }
        let per_meld = game.rh.red_melds.get(seat).copied().unwrap_or_default();
        for (m, &k) in game.melds(seat as u8).iter().zip(per_meld.iter()) {
            if k > 0 {
                let suit = (!m.tile.is_honor()).then(|| m.tile.suit().index());
                match suit.and_then(|s| found.get_mut(s)) {
                    Some(f) => *f += k as u16,
                    None => return Err(InvariantViolation::RedFives),
                }
            }
        }
        let bits = game.rh.red_discards.get(seat).copied().unwrap_or(0);
        for (i, d) in game.discards(seat as u8).iter().enumerate() {
            if bits >> i & 1 == 1 && !d.claimed {
                count(&mut found, d.tile, 1);
            }
        }
    }
    if game.claim.robbing && game.rh.red_claim {
        count(&mut found, game.claim.tile, 1);
    }
    if found.iter().zip(want.iter()).any(|(&f, &w)| f != w as u16) {
        return Err(InvariantViolation::RedFives);
    }
    Ok(())
}
