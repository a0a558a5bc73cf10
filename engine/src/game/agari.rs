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

/// Count arrays packed into words for branch-free pre-checks: byte `k` of `suits[s]`
/// is the count of number `k + 1` of suit `s` (numbers 1–8), `nines[s]` the count of
/// its nine, and byte `k` of `honors` the count of honour `k + 1`.
#[derive(Clone, Copy)]
pub(crate) struct Packed {
    suits: [u64; 3],
    nines: [u8; 3],
    honors: u64,
}

/// Bytes 1..8 of a suit word: the numbers 2–8 (not terminals).
const SIMPLES: u64 = 0xffff_ffff_ffff_ff00;
/// The low bit of every byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

impl Packed {
    pub(crate) fn new(counts: &TileCounts) -> Packed {
        let word = |from: usize, len: usize| {
            let mut b = [0u8; 8];
            if let (Some(dst), Some(src)) = (b.get_mut(..len), counts.get(from..from + len)) {
                dst.copy_from_slice(src);
            }
            u64::from_le_bytes(b)
        };
        let nine = |i: usize| counts.get(i).copied().unwrap_or(0);
        Packed {
            suits: [word(0, 8), word(9, 8), word(18, 8)],
            nines: [nine(8), nine(17), nine(26)],
            honors: word(27, NUM_TILE_TYPES - 27),
        }
    }

    /// Whether every count is below 32, so that byte sums of a word cannot carry.
    fn small(&self) -> bool {
        let [a, b, c] = self.suits;
        let [x, y, z] = self.nines;
        (a | b | c | self.honors) & 0xe0e0_e0e0_e0e0_e0e0 == 0 && (x | y | z) < 32
    }

    /// Whether some tile of types 2–8 of a number suit is present (thirteen orphans is
    /// impossible then).
    pub(crate) fn has_simples(&self) -> bool {
        let [a, b, c] = self.suits;
        (a | b | c) & SIMPLES != 0
    }

    /// Whether some count is odd (seven pairs is impossible then).
    pub(crate) fn has_odd(&self) -> bool {
        let [a, b, c] = self.suits;
        let [x, y, z] = self.nines;
        (a | b | c | self.honors) & LOW_BITS != 0 || (x | y | z) & 1 != 0
    }
}

/// The sum of the bytes of `w` when each byte is below 32.
fn byte_sum(w: u64) -> u32 {
    (w.wrapping_mul(LOW_BITS) >> 56) as u32
}

/// Whether the closed tiles `counts` form `n` sets and one pair for some `n` (the sets
/// completed by melds are not part of `counts`). The total must be `3n + 2`.
pub fn is_regular_win(counts: &TileCounts) -> bool {
    is_regular_win_packed(counts, &Packed::new(counts))
}

/// [`is_regular_win`] with `packed == Packed::new(counts)` already computed.
pub(crate) fn is_regular_win_packed(counts: &TileCounts, packed: &Packed) -> bool {
    if !packed.small() {
        return is_regular_win_reference(counts);
    }
    // Suit totals mod 3 reject most hands before any decomposition.
    let [a, b, c] = packed.suits;
    let [x, y, z] = packed.nines;
    let sums = [
        byte_sum(a) + x as u32,
        byte_sum(b) + y as u32,
        byte_sum(c) + z as u32,
        byte_sum(packed.honors),
    ];
    let mut pair_suit = None;
    for (suit, sum) in sums.into_iter().enumerate() {
        match sum % 3 {
            0 => {}
            2 if pair_suit.is_none() => pair_suit = Some(suit),
            _ => return false,
        }
    }
    match pair_suit {
        Some(p) => regular_with_pair_suit(counts, p),
        None => false,
    }
}

/// The reference form of [`is_regular_win`] (any counts, no packing).
fn is_regular_win_reference(counts: &TileCounts) -> bool {
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
    regular_with_pair_suit(counts, pair_suit)
}

/// The decomposition part of [`is_regular_win`] once the suit totals showed that the
/// pair must be in `pair_suit` and every other suit total is a multiple of three.
fn regular_with_pair_suit(counts: &TileCounts, pair_suit: usize) -> bool {
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

    /// The packed fast path agrees with the reference on random hands, on hands built
    /// from sets and a pair (then perturbed), and on large counts.
    #[test]
    fn packed_matches_reference() {
        let mut rng = crate::rng::Rng::new(7);
        let mut wins = 0;
        // Miri interprets every instruction: a reduced sample there (scripts/miri).
        let rounds = if cfg!(miri) { 2_000 } else { 200_000u32 };
        for round in 0..rounds {
            let mut c = [0u8; NUM_TILE_TYPES];
            if round % 2 == 0 {
                for _ in 0..14 {
                    c[rng.below(34) as usize] += 1;
                }
            } else {
                let sets = rng.below(5);
                for _ in 0..sets {
                    let t = rng.below(34) as usize;
                    if rng.below(2) == 0 && t < 27 && t % 9 <= 6 {
                        for k in 0..3 {
                            c[t + k] += 1;
                        }
                    } else {
                        c[t] += 3;
                    }
                }
                c[rng.below(34) as usize] += 2;
                if rng.below(2) == 0 {
                    let from = rng.below(34) as usize;
                    if c[from] > 0 {
                        c[from] -= 1;
                        c[rng.below(34) as usize] += 1;
                    }
                }
            }
            if round % 1000 == 0 {
                c[rng.below(34) as usize] = 30 + rng.below(226) as u8;
            }
            let fast = is_regular_win(&c);
            assert_eq!(fast, is_regular_win_reference(&c), "{c:?}");
            wins += fast as u32;
            let p = Packed::new(&c);
            assert_eq!(
                p.has_simples(),
                (0..27).any(|i| i % 9 != 0 && i % 9 != 8 && c[i] > 0)
            );
            assert_eq!(p.has_odd(), c.iter().any(|&x| x % 2 == 1));
        }
        assert!(wins > rounds / 20, "{wins}");
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
