//! Tile efficiency: ukeire and the per-discard value-score matrix.
//!
//! Everything here is built on [`crate::shanten::Prepared`]: a hand is prepared once
//! and each candidate draw or discard re-evaluates only the group (suit or honours) the
//! tile belongs to, combined with the precomputed convolution of the other groups, so
//! ukeire costs 34 table lookups rather than 34 full shanten evaluations.
//!
//! # Ukeire
//! The tile types that exist in the tile set, are held fewer than four times and lower
//! the minimum shanten (over the enabled forms) when drawn into a `13 - 3k`-tile hand.
//! The tile count sums an *availability* array over those types: either
//! [`available_from_hand`] (`4 - held`, the reference convention) or the caller's
//! `unseen` counts (tiles not visible to the seat). Types whose availability is zero
//! still appear in [`Ukeire::types`].
//!
//! # Value scores
//! For a `14 - 3k`-tile hand, [`value_scores`] evaluates every held type as a discard:
//! shanten after it, ukeire after it (with `unseen`), and a *second step*: the
//! availability-weighted average, over the ukeire draws `u`, of the best ukeire count
//! (with `unseen[u]` reduced by the drawn copy) reachable by a discard that keeps the
//! improved shanten. Discards that leave the hand tenpai (or complete) have second step
//! `0`: the next useful draw wins. The second step is computed only for the discards
//! that keep the best shanten (0 for the others, which the shanten term outranks
//! anyway): it is the expensive part, tens of µs per discard far from tenpai. The score is lexicographic — shanten dominates, then
//! ukeire, then the second step — normalised so the best discard scores 1.0:
//!
//! ```text
//! q    = ukeire_tiles / 137 + second_step / 137^2                in [0, 1/137 + ...) ⊂ [0, 1)
//! raw  = (7 - min(shanten_after - best_shanten_after, 7) + q) / 8  in (0, 1)
//! score = raw / max(raw over held types)                          in (0, 1]
//! ```
//!
//! (137 exceeds any tile count, so ukeire steps dominate the second step.) Types not
//! held score 0 and have [`crate::shanten::NOT_APPLICABLE`] as `shanten_after`.
//!
//! # Bot decision
//! [`best_discard`] computes the shanten after every discard (one-group updates of one
//! prepared hand), the ukeire only after the discards that keep the best shanten (the
//! others are outranked by shanten alone; the suit draws shared as in the value
//! scores), and the second step only for the discards tied on both (through the value
//! scores' shared second step, asked for those discards only), and only when the
//! shanten after them is at most
//! [`SECOND_STEP_MAX_SHANTEN`] (1: the choice between 1-shanten shapes decides the
//! width of the final wait; farther from tenpai the second step costs tens of µs per
//! candidate and changes little). Remaining ties go to the tile that is least useful in
//! general: honours before number tiles (a single honour before a paired one), then
//! terminals, then 2/8, 3/7, 4/6, 5, then the lowest index.

mod cache;
mod fast;
#[doc(hidden)]
pub mod reference;

use crate::shanten::{Forms, Prepared, NOT_APPLICABLE};
use crate::tile::{Tile, TileCounts, TileSet, NUM_TILE_TYPES};
pub use cache::{ValueScoresCache, VALUE_SCORES_CACHE_SLOTS};

/// Ukeire of a `13 - 3k`-tile hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Ukeire {
    /// Minimum shanten of the hand (over the enabled forms).
    pub shanten: i8,
    /// Bit `t` set = drawing tile type `t` lowers the shanten.
    pub types: u64,
    /// Sum of the availability over [`Ukeire::types`].
    pub tiles: u32,
}

impl Ukeire {
    /// Number of tile types in [`Ukeire::types`].
    pub fn num_types(&self) -> u32 {
        self.types.count_ones()
    }
}

/// Availability from the hand alone: `4 - held` for every type of the tile set
/// (saturating at 0), 0 for types outside the set.
pub fn available_from_hand(counts: &TileCounts, tile_set: TileSet) -> TileCounts {
    use crate::shanten::{bytes_at_least, words};
    let w = words(counts);
    let set = crate::shanten::set_mask(tile_set);
    let mut out = [0u8; NUM_TILE_TYPES];
    if w.iter().all(|&x| bytes_at_least(x, 5) == 0) {
        // All counts <= 4: bytewise 4 - c without borrows, masked to the tile set.
        for (i, chunk) in out.chunks_mut(8).enumerate() {
            let set_bytes = BYTE_EXPAND[(set >> (8 * i)) as usize & 0xFF];
            let v = (0x0404_0404_0404_0404u64 - w[i]) & set_bytes;
            chunk.copy_from_slice(&v.to_le_bytes()[..chunk.len()]);
        }
        return out;
    }
    for (t, (o, &c)) in out.iter_mut().zip(counts).enumerate() {
        *o = if set >> t & 1 == 1 {
            4u8.saturating_sub(c)
        } else {
            0
        };
    }
    out
}

/// `BYTE_EXPAND[b]`: byte `i` is 0xFF iff bit `i` of `b` is set.
const BYTE_EXPAND: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Sum of `available` over the types in `mask`, branch-free: each byte of the mask
/// selects a word of counts whose bytes are summed by one multiply.
#[inline(always)]
fn sum_over(mask: u64, available: &TileCounts) -> u32 {
    let w = crate::shanten::words(available);
    let mut total = 0u32;
    for (i, &x) in w.iter().enumerate() {
        let sel = x & BYTE_EXPAND[(mask >> (8 * i)) as usize & 0xFF];
        // Split even and odd bytes so that no byte sum overflows (counts up to 255).
        let even = sel & 0x00FF_00FF_00FF_00FF;
        let odd = (sel >> 8) & 0x00FF_00FF_00FF_00FF;
        total += ((even + odd).wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
    }
    total
}

#[inline]
fn ukeire_prepared(p: &Prepared, counts: &TileCounts, available: &TileCounts) -> Ukeire {
    let types = p.ukeire_mask(counts);
    Ukeire {
        shanten: p.min_shanten(),
        types,
        tiles: sum_over(types, available),
    }
}

/// Ukeire of a `13 - 3k`-tile hand with `melds = k`; `available` gives the tile count of
/// each type (see [`available_from_hand`]). Never panics; other hand sizes are evaluated
/// the same way (drawing one tile).
pub fn ukeire(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    available: &TileCounts,
) -> Ukeire {
    let p = Prepared::new(counts, melds, tile_set, forms);
    ukeire_prepared(&p, counts, available)
}

/// Per-discard evaluation of a `14 - 3k`-tile hand (see the module docs).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct ValueScores {
    /// Bit `t` set = tile type `t` is held (a possible discard).
    pub held: u64,
    /// Minimum shanten after discarding type `t` ([`NOT_APPLICABLE`] if not held).
    pub shanten_after: [i8; NUM_TILE_TYPES],
    /// Ukeire types after discarding `t` (0 if not held).
    pub ukeire_types: [u64; NUM_TILE_TYPES],
    /// Ukeire tiles (from `unseen`) after discarding `t` (0 if not held).
    pub ukeire_tiles: [u16; NUM_TILE_TYPES],
    /// Second-step measure after discarding `t` (0 if not held, tenpai after, or worse
    /// than the best shanten after).
    pub second_step: [f32; NUM_TILE_TYPES],
    /// Normalised score in `[0, 1]`; 1 for the best discards, 0 if not held.
    pub score: [f32; NUM_TILE_TYPES],
}

/// Shanten and ukeire after one discard.
#[derive(Clone, Copy, Debug)]
struct AfterDiscard {
    shanten: i8,
    ukeire: Ukeire,
}

#[inline]
fn after_discard(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
    t: usize,
) -> AfterDiscard {
    let mut hand = *counts;
    hand[t] -= 1;
    let p = Prepared::new(&hand, melds, tile_set, forms);
    let ukeire = ukeire_prepared(&p, &hand, unseen);
    AfterDiscard {
        shanten: ukeire.shanten,
        ukeire,
    }
}

/// Sanitises a hand for the efficiency functions: counts above 4 read as 4.
fn clamp_counts(counts: &TileCounts) -> TileCounts {
    let mut c = *counts;
    for x in c.iter_mut() {
        *x = (*x).min(4);
    }
    c
}

fn raw_score(delta_shanten: i8, ukeire_tiles: u16, second: f32) -> f32 {
    let d = delta_shanten.clamp(0, 7) as f32;
    let q = ukeire_tiles as f32 / 137.0 + second.clamp(0.0, 136.0) / (137.0 * 137.0);
    (7.0 - d + q) / 8.0
}

/// The first step of a `14 - 3k`-tile hand (at most 14 tiles, counts at most 4), shared
/// by [`value_scores`] and [`best_discard`]: every held type as a discard, its prepared
/// hand and ukeire types, and the suit draws ([`fast::Cache`]) that both the first and
/// the second step read.
struct FirstStep {
    /// Bit `t`: type `t` is held.
    held: u64,
    /// The prepared hand `counts - t` for each held `t`.
    prepared: [Prepared; NUM_TILE_TYPES],
    /// Minimum shanten after discarding `t` ([`NOT_APPLICABLE`] if not held).
    shanten_after: [i8; NUM_TILE_TYPES],
    /// Ukeire types after discarding `t` (0 if not held).
    ukeire_types: [u64; NUM_TILE_TYPES],
    /// The best shanten after a discard ([`NOT_APPLICABLE`] for an empty hand).
    best: i8,
    /// The suit draws of `counts` and of `counts - t`.
    cache: fast::Cache,
}

/// The types of `held` whose `shanten_after` is `best`.
fn keep_of(held: u64, shanten_after: &[i8; NUM_TILE_TYPES], best: i8) -> u64 {
    let mut keep = 0u64;
    for (t, &s) in shanten_after.iter().enumerate() {
        keep |= ((held >> t & 1 == 1 && s == best) as u64) << t;
    }
    keep
}

impl FirstStep {
    /// The first step of `counts`; with `every_ukeire` false the ukeire types (and the
    /// cached suit draws) only of the discards keeping the best shanten, which is all
    /// [`best_discard`] compares (the others are outranked by shanten alone).
    #[allow(clippy::needless_range_loop)] // `t` indexes parallel arrays
    #[inline(always)] // built in the caller's frame: the struct is a few kB
    fn new(
        counts: &TileCounts,
        melds: u8,
        tile_set: TileSet,
        forms: Forms,
        every_ukeire: bool,
    ) -> FirstStep {
        let full = Prepared::new(counts, melds, tile_set, forms);
        let mut held = 0u64;
        for t in 0..NUM_TILE_TYPES {
            held |= ((counts[t] > 0) as u64) << t;
        }
        let mut prepared = [full; NUM_TILE_TYPES];
        let mut shanten_after = [NOT_APPLICABLE; NUM_TILE_TYPES];
        let mut best = NOT_APPLICABLE;
        let mut k = held;
        while k != 0 {
            let t = k.trailing_zeros() as usize;
            k &= k - 1;
            let p = full.with_count(counts, t, counts[t] - 1);
            prepared[t] = p;
            shanten_after[t] = p.min_shanten();
            best = best.min(p.min_shanten());
        }
        let wanted = if every_ukeire {
            held
        } else {
            keep_of(held, &shanten_after, best)
        };
        let cache = fast::Cache::new(counts, wanted);
        let mut ukeire_types = [0u64; NUM_TILE_TYPES];
        let mut k = wanted;
        while k != 0 {
            let t = k.trailing_zeros() as usize;
            k &= k - 1;
            let mut hand = *counts;
            hand[t] -= 1;
            ukeire_types[t] = cache.ukeire_after_discard(&prepared[t], &hand, t);
        }
        FirstStep {
            held,
            prepared,
            shanten_after,
            ukeire_types,
            best,
            cache,
        }
    }

    /// The held types whose discard keeps the best shanten.
    fn keep(&self) -> u64 {
        keep_of(self.held, &self.shanten_after, self.best)
    }

    /// The second step of every discard in `targets` (a subset of [`Self::keep`]),
    /// written to `out`; see [`fast::second_steps`].
    fn second_steps(
        &mut self,
        counts: &TileCounts,
        unseen: &TileCounts,
        targets: u64,
        out: &mut [f32; NUM_TILE_TYPES],
    ) {
        let keep = self.keep();
        fast::second_steps(
            &mut self.cache,
            counts,
            unseen,
            &self.prepared,
            &self.ukeire_types,
            keep,
            targets & keep,
            self.best,
            out,
        );
    }
}

/// The value-score matrix of a `14 - 3k`-tile hand (see the module docs). `unseen` is
/// the availability of each type for the seat. Never panics.
///
/// Equal, bit for bit, to the original computation kept in [`reference`](mod@reference) (the
/// `fast` module explains how the second step shares its work between discards);
/// hands with more than 14 tiles (malformed input) are left to the reference.
#[allow(clippy::needless_range_loop)] // `t` indexes six parallel arrays
pub fn value_scores(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
) -> ValueScores {
    let counts = clamp_counts(counts);
    if counts.iter().map(|&c| c as u32).sum::<u32>() > 14 {
        return reference::value_scores_reference(&counts, melds, tile_set, forms, unseen);
    }
    let mut v = ValueScores {
        held: 0,
        shanten_after: [NOT_APPLICABLE; NUM_TILE_TYPES],
        ukeire_types: [0; NUM_TILE_TYPES],
        ukeire_tiles: [0; NUM_TILE_TYPES],
        second_step: [0.0; NUM_TILE_TYPES],
        score: [0.0; NUM_TILE_TYPES],
    };
    let mut first = FirstStep::new(&counts, melds, tile_set, forms, true);
    v.held = first.held;
    v.shanten_after = first.shanten_after;
    v.ukeire_types = first.ukeire_types;
    for t in 0..NUM_TILE_TYPES {
        if counts[t] > 0 {
            v.ukeire_tiles[t] = sum_over(first.ukeire_types[t], unseen).min(u16::MAX as u32) as u16;
        }
    }
    let best = first.best;
    let keep = first.keep();
    first.second_steps(&counts, unseen, keep, &mut v.second_step);
    let mut max_raw = 0.0f32;
    for t in 0..NUM_TILE_TYPES {
        if counts[t] > 0 {
            let r = raw_score(
                v.shanten_after[t] - best,
                v.ukeire_tiles[t],
                v.second_step[t],
            );
            v.score[t] = r;
            max_raw = max_raw.max(r);
        }
    }
    if max_raw > 0.0 {
        for s in v.score.iter_mut() {
            *s /= max_raw;
        }
    }
    v
}

/// [`best_discard`] computes the second step of tied discards only when the shanten
/// after them is at most this value.
pub const SECOND_STEP_MAX_SHANTEN: i8 = 1;

/// The discard chosen by [`best_discard`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Discard {
    /// The tile to discard.
    pub tile: Tile,
    /// Minimum shanten after the discard.
    pub shanten: i8,
    /// Ukeire tiles after the discard (from `unseen`).
    pub ukeire_tiles: u32,
    /// Second step, computed only when several discards tie on shanten and ukeire and
    /// the shanten is at most [`SECOND_STEP_MAX_SHANTEN`] (otherwise `0.0`).
    pub second_step: f32,
    /// Bit mask of the discards tied on (shanten, ukeire) with this one (itself
    /// included).
    pub tied: u64,
}

/// Tie-break rank of a discard: lower is discarded first. Honours (single before
/// paired), then terminals, then 2/8, 3/7, 4/6, 5.
pub(crate) fn tie_rank(t: usize, count: u8) -> u8 {
    if t >= 27 {
        return if count == 1 { 0 } else { 1 };
    }
    let n = (t % 9) as u8 + 1; // 1..=9
    let dist = n.abs_diff(5); // 4 for terminals, 0 for 5
    2 + (4 - dist)
}

/// The efficiency bot's discard for a `14 - 3k`-tile hand: minimal shanten after the
/// discard, then maximal ukeire (from `unseen`), then maximal second step (computed for
/// the tied discards only, see the module docs), then the tie-break order (honours,
/// terminals, 2/8, …). `None` if the hand is empty.
pub fn best_discard(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
) -> Option<Discard> {
    let counts = clamp_counts(counts);
    if counts.iter().map(|&c| c as u32).sum::<u32>() > 14 {
        return reference::best_discard_reference(&counts, melds, tile_set, forms, unseen);
    }
    let mut first = FirstStep::new(&counts, melds, tile_set, forms, false);
    let mut best: Option<(i8, u32)> = None;
    let mut tied = 0u64;
    let mut tiles = [0u32; NUM_TILE_TYPES];
    let mut k = first.keep();
    while k != 0 {
        let t = k.trailing_zeros() as usize;
        k &= k - 1;
        tiles[t] = sum_over(first.ukeire_types[t], unseen);
        let key = (first.shanten_after[t], tiles[t]);
        match best {
            Some((s, u)) if (s, core::cmp::Reverse(u)) < (key.0, core::cmp::Reverse(key.1)) => {}
            Some(b) if b == key => tied |= 1u64 << t,
            _ => {
                best = Some(key);
                tied = 1u64 << t;
            }
        }
    }
    let (shanten, ukeire_tiles) = best?;
    let mut second = [0.0f32; NUM_TILE_TYPES];
    if tied & (tied - 1) != 0 && shanten <= SECOND_STEP_MAX_SHANTEN {
        first.second_steps(&counts, unseen, tied, &mut second);
    }
    let t = tie_break(&counts, tied, &second)?;
    Some(Discard {
        tile: Tile::new(t as u8)?,
        shanten,
        ukeire_tiles,
        second_step: second[t],
        tied,
    })
}

/// The discard among `tied` with the largest second step, then the lowest
/// [`tie_rank`], then the lowest index.
fn tie_break(counts: &TileCounts, tied: u64, second: &[f32; NUM_TILE_TYPES]) -> Option<usize> {
    let mut choice: Option<usize> = None;
    let mut mask = tied;
    while mask != 0 {
        let t = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let better = match choice {
            None => true,
            Some(c) => {
                second[t] > second[c]
                    || (second[t] == second[c] && tie_rank(t, counts[t]) < tie_rank(c, counts[c]))
            }
        };
        if better {
            choice = Some(t);
        }
    }
    choice
}
