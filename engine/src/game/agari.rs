//! Win detection on count arrays.
//!
//! The regular form is checked suit by suit: the total of every suit must be a multiple
//! of three except the one suit holding the pair (remainder two). A suit without the pair
//! decomposes into sets greedily from its lowest tile: with `c` tiles of the lowest type,
//! `c mod 3` sequences must start there (three identical sequences are equivalent to
//! three pungs, so pungs can always be taken first). Honours only form pungs. Only the
//! pair suit needs a search over pair positions (at most nine).

use serde::{Deserialize, Serialize};

use crate::tile::{TileCounts, NUM_TILE_TYPES};

/// The shape of a winning hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum WinShape {
    /// Four sets (melds included) and a pair.
    Regular,
    /// Seven distinct pairs (closed hands only).
    SevenPairs,
    /// Thirteen orphans (closed hands only).
    ThirteenOrphans,
}

/// Whether the nine counts of a number suit split into sets only.
fn suit_is_sets(mut c: [u8; 9]) -> bool {
    for i in 0..9 {
        let r = c[i] % 3;
        if r == 0 {
            continue;
        }
        if i + 2 >= 9 || c[i + 1] < r || c[i + 2] < r {
            return false;
        }
        c[i + 1] -= r;
        c[i + 2] -= r;
    }
    true
}

fn suit_counts(counts: &TileCounts, suit: usize) -> [u8; 9] {
    let mut c = [0u8; 9];
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = counts.get(suit * 9 + i).copied().unwrap_or(0);
    }
    c
}

fn honors_are_sets(c: &[u8]) -> bool {
    c.iter().all(|&x| x % 3 == 0)
}

/// Whether the closed tiles `counts` form `n` sets and one pair for some `n` (the sets
/// completed by melds are not part of `counts`). The total must be `3n + 2`.
pub fn is_regular_win(counts: &TileCounts) -> bool {
    let mut pair_suit = None;
    for suit in 0..4 {
        let range = suit * 9..(suit * 9 + 9).min(NUM_TILE_TYPES);
        let sum: u32 = counts
            .get(range)
            .map_or(0, |s| s.iter().map(|&x| x as u32).sum());
        match sum % 3 {
            0 => {}
            2 if pair_suit.is_none() => pair_suit = Some(suit),
            _ => return false,
        }
    }
    let Some(pair_suit) = pair_suit else {
        return false;
    };
    let honors = counts.get(27..).unwrap_or(&[]);
    for suit in 0..3 {
        if suit != pair_suit && !suit_is_sets(suit_counts(counts, suit)) {
            return false;
        }
    }
    if pair_suit == 3 {
        // Honours: exactly one count of 2 (or 2 + 3 = 5, impossible), all others 0 or 3.
        let mut pairs = 0;
        for &x in honors {
            match x % 3 {
                0 => {}
                2 => pairs += 1,
                _ => return false,
            }
        }
        return pairs == 1;
    }
    if !honors_are_sets(honors) {
        return false;
    }
    let base = suit_counts(counts, pair_suit);
    for i in 0..9 {
        if base[i] >= 2 {
            let mut c = base;
            c[i] -= 2;
            if suit_is_sets(c) {
                return true;
            }
        }
    }
    false
}

/// Whether `counts` is exactly seven distinct pairs (four of a kind is not two pairs).
pub fn is_seven_pairs(counts: &TileCounts) -> bool {
    let mut pairs = 0;
    for &c in counts.iter() {
        match c {
            0 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 7
}

/// Whether `counts` is thirteen orphans: one of each terminal and honour plus one more of
/// them, and nothing else.
pub fn is_thirteen_orphans(counts: &TileCounts) -> bool {
    let mut pair = false;
    for (i, &c) in counts.iter().enumerate() {
        let orphan = i >= 27 || i % 9 == 0 || i % 9 == 8;
        match (orphan, c) {
            (false, 0) => {}
            (false, _) => return false,
            (true, 1) => {}
            (true, 2) if !pair => pair = true,
            _ => return false,
        }
    }
    pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_counts;
    use crate::tile::TileSet;

    fn c(s: &str) -> TileCounts {
        parse_counts(s, TileSet::FourPlayer).unwrap()
    }

    #[test]
    fn regular() {
        assert!(is_regular_win(&c("123m456p789s11122z")));
        assert!(is_regular_win(&c("11122233344455m")));
        assert!(is_regular_win(&c("11123456789999m")));
        assert!(is_regular_win(&c("22m")));
        assert!(is_regular_win(&c("123m11z")));
        assert!(is_regular_win(&c("12333m")));
        assert!(!is_regular_win(&c("123m456p789s1122z")));
        assert!(!is_regular_win(&c("1234m")));
        assert!(!is_regular_win(&c("11z22z")));
        assert!(!is_regular_win(&c("12m")));
        assert!(!is_regular_win(&c("")));
        assert!(!is_regular_win(&c("1111m")));
    }

    #[test]
    fn seven_pairs_and_orphans() {
        assert!(is_seven_pairs(&c("1133557799m1122z")));
        assert!(!is_seven_pairs(&c("1111m33557799s11z")));
        assert!(is_thirteen_orphans(&c("19m19p19s12345677z")));
        assert!(!is_thirteen_orphans(&c("19m19p19s1234567z")));
        assert!(!is_thirteen_orphans(&c("119m19p19s123456z5m")));
    }
}
