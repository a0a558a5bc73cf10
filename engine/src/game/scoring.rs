//! The value of a win under a [`ScoreTable`].
//!
//! A hand can have several decompositions; only two bonuses depend on which one is chosen
//! and both are decided in closed form, which gives the best decomposition directly:
//! - *all pungs* needs a regular decomposition whose closed sets are all pungs, which
//!   exists exactly when every closed count is 0, 2 or 3 with a single 2 (and no meld is
//!   a chi);
//! - a hand that is both seven pairs and regular is scored both ways and the larger value
//!   wins.
//!
//! Dragon pungs do not depend on the decomposition: honours only form pungs and pairs,
//! so a closed dragon count of 3 is always a pung.

use serde::{Deserialize, Serialize};

use super::agari::{is_regular_win_packed, is_seven_pairs, is_thirteen_orphans, Packed, WinShape};
use super::meld::{Meld, MeldKind};
use crate::rules::Rules;
use crate::tile::{Tile, TileCounts};

/// A scored win.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct WinValue {
    /// The shape the value was computed for.
    pub shape: WinShape,
    /// The value: what each paying player pays the winner.
    pub value: i32,
}

/// Scores the hand `closed` (the closed tiles including the winning tile) with `melds`,
/// or `None` when it is not a winning hand under `rules`.
pub fn score_win(
    rules: &Rules,
    closed: &TileCounts,
    melds: &[Meld],
    self_draw: bool,
) -> Option<WinValue> {
    let table = &rules.scoring;
    let closed_hand = melds.is_empty();
    // Word-wise pre-checks: a simple (2–8) rules out thirteen orphans, an odd count
    // seven pairs, and suit totals most regular shapes.
    let packed = Packed::new(closed);
    if rules.thirteen_orphans && closed_hand && !packed.has_simples() && is_thirteen_orphans(closed)
    {
        return Some(WinValue {
            shape: WinShape::ThirteenOrphans,
            value: table.thirteen_orphans,
        });
    }
    let regular = is_regular_win_packed(closed, &packed);
    let pairs = rules.seven_pairs && closed_hand && !packed.has_odd() && is_seven_pairs(closed);
    if !regular && !pairs {
        return None;
    }
    // Rules are data: wrapping arithmetic keeps absurd tables from panicking.
    let mut common = table.base;
    if self_draw {
        common = common.wrapping_add(table.self_draw);
    }
    common = common.wrapping_add(flush_bonus(rules, closed, melds));
    let mut best: Option<WinValue> = None;
    if regular {
        let mut v = common;
        let kans = melds.iter().filter(|m| m.kind.is_kan()).count() as i32;
        v = v.wrapping_add(kans.wrapping_mul(table.per_kan));
        let dragon_melds = melds
            .iter()
            .filter(|m| m.is_pung_or_kan() && m.tile.is_dragon())
            .count();
        let dragon_closed = closed
            .get(31..)
            .map_or(0, |d| d.iter().filter(|&&c| c == 3).count());
        v = v.wrapping_add(((dragon_melds + dragon_closed) as i32).wrapping_mul(table.dragon_pung));
        if all_pungs(closed, melds) {
            v = v.wrapping_add(table.all_pungs);
        }
        best = Some(WinValue {
            shape: WinShape::Regular,
            value: v,
        });
    }
    if pairs {
        let v = common.wrapping_add(table.seven_pairs);
        if best.is_none_or(|b| v > b.value) {
            best = Some(WinValue {
                shape: WinShape::SevenPairs,
                value: v,
            });
        }
    }
    best
}

fn all_pungs(closed: &TileCounts, melds: &[Meld]) -> bool {
    if melds.iter().any(|m| m.kind == MeldKind::Chi) {
        return false;
    }
    let mut pairs = 0;
    for &c in closed.iter() {
        match c {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

fn flush_bonus(rules: &Rules, closed: &TileCounts, melds: &[Meld]) -> i32 {
    // Bit s set when suit s (0 man, 1 pin, 2 sou, 3 honours) appears.
    let mut suits = 0u8;
    for (i, &c) in closed.iter().enumerate() {
        if c > 0 {
            suits |= 1 << (i / 9).min(3);
        }
    }
    for m in melds {
        suits |= 1 << suit_bit(m.tile);
    }
    let numbers = suits & 0b111;
    if numbers.count_ones() != 1 {
        return 0;
    }
    if suits & 0b1000 != 0 {
        rules.scoring.half_flush
    } else {
        rules.scoring.full_flush
    }
}

fn suit_bit(t: Tile) -> u8 {
    (t.index() / 9).min(3) as u8
}
