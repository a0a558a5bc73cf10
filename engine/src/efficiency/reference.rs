//! The original value-score and best-discard implementations, kept unchanged as the
//! oracles of the fast paths ([`super::value_scores`], [`super::best_discard`]): the
//! differential tests and the benchmarks compare them. Not part of the supported API.

use super::{
    after_discard, clamp_counts, raw_score, tie_rank, ukeire_prepared, Discard, Ukeire,
    ValueScores, SECOND_STEP_MAX_SHANTEN,
};
use crate::shanten::{Forms, Prepared, NOT_APPLICABLE};
use crate::tile::Tile;
use crate::tile::{TileCounts, TileSet, NUM_TILE_TYPES};

/// Second step of the 13-tile hand `hand` (shanten `s`, ukeire `u`): the weighted
/// average over draws of the best ukeire count after a discard keeping shanten `s - 1`.
pub(super) fn second_step(
    hand: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
    u: &Ukeire,
) -> f32 {
    if u.shanten <= 0 {
        return 0.0;
    }
    let target = u.shanten - 1;
    let mut weighted = 0.0f32;
    let mut total = 0u32;
    let mut draws = u.types;
    while draws != 0 {
        let d = draws.trailing_zeros() as usize;
        draws &= draws - 1;
        let w = unseen[d] as u32;
        if w == 0 {
            continue;
        }
        let mut h14 = *hand;
        h14[d] += 1;
        let mut left = *unseen;
        left[d] -= 1;
        let p14 = Prepared::new(&h14, melds, tile_set, forms);
        let mut best = 0u32;
        for x in 0..NUM_TILE_TYPES {
            if h14[x] == 0 || p14.after_discard(&h14, x) != target {
                continue;
            }
            let mut h13 = h14;
            h13[x] -= 1;
            let p13 = Prepared::new(&h13, melds, tile_set, forms);
            best = best.max(ukeire_prepared(&p13, &h13, &left).tiles);
        }
        weighted += (w * best) as f32;
        total += w;
    }
    if total == 0 {
        0.0
    } else {
        weighted / total as f32
    }
}

/// The value-score matrix of a `14 - 3k`-tile hand (see the [`super`] module docs),
/// computed the original way: the oracle of [`super::value_scores`]. `unseen` is
/// the availability of each type for the seat. Never panics.
#[allow(clippy::needless_range_loop)] // `t` indexes six parallel arrays
pub fn value_scores_reference(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
) -> ValueScores {
    let counts = clamp_counts(counts);
    let mut v = ValueScores {
        held: 0,
        shanten_after: [NOT_APPLICABLE; NUM_TILE_TYPES],
        ukeire_types: [0; NUM_TILE_TYPES],
        ukeire_tiles: [0; NUM_TILE_TYPES],
        second_step: [0.0; NUM_TILE_TYPES],
        score: [0.0; NUM_TILE_TYPES],
    };
    let mut best = NOT_APPLICABLE;
    let mut ukeire = [Ukeire::default(); NUM_TILE_TYPES];
    for t in 0..NUM_TILE_TYPES {
        if counts[t] == 0 {
            continue;
        }
        v.held |= 1u64 << t;
        let a = after_discard(&counts, melds, tile_set, forms, unseen, t);
        v.shanten_after[t] = a.shanten;
        v.ukeire_types[t] = a.ukeire.types;
        v.ukeire_tiles[t] = a.ukeire.tiles.min(u16::MAX as u32) as u16;
        ukeire[t] = a.ukeire;
        best = best.min(a.shanten);
    }
    // The second step (tens of µs per discard far from tenpai) only ranks discards
    // that keep the best shanten: a worse-shanten discard is outranked whatever its
    // second step, so it gets 0 there.
    let mut keep = v.held;
    while keep != 0 {
        let t = keep.trailing_zeros() as usize;
        keep &= keep - 1;
        if v.shanten_after[t] == best {
            let mut hand = counts;
            hand[t] -= 1;
            v.second_step[t] = second_step(&hand, melds, tile_set, forms, unseen, &ukeire[t]);
        }
    }
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

/// The efficiency bot's discard computed the original way (a prepared hand per discard,
/// the second step of each tied discard on its own): the oracle of
/// [`super::best_discard`].
pub fn best_discard_reference(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
    unseen: &TileCounts,
) -> Option<Discard> {
    let counts = clamp_counts(counts);
    let mut best: Option<(i8, u32)> = None;
    let mut tied = 0u64;
    let mut results = [(0i8, 0u32, Ukeire::default()); NUM_TILE_TYPES];
    for t in 0..NUM_TILE_TYPES {
        if counts[t] == 0 {
            continue;
        }
        let a = after_discard(&counts, melds, tile_set, forms, unseen, t);
        results[t] = (a.shanten, a.ukeire.tiles, a.ukeire);
        let key = (a.shanten, a.ukeire.tiles);
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
    let mut choice: Option<(usize, f32)> = None;
    let multiple = tied & (tied - 1) != 0 && shanten <= SECOND_STEP_MAX_SHANTEN;
    let mut mask = tied;
    while mask != 0 {
        let t = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let second = if multiple {
            let mut hand = counts;
            hand[t] -= 1;
            second_step(&hand, melds, tile_set, forms, unseen, &results[t].2)
        } else {
            0.0
        };
        let better = match choice {
            None => true,
            Some((c, s2)) => {
                second > s2 || (second == s2 && tie_rank(t, counts[t]) < tie_rank(c, counts[c]))
            }
        };
        if better {
            choice = Some((t, second));
        }
    }
    let (t, second_step) = choice?;
    Some(Discard {
        tile: Tile::new(t as u8)?,
        shanten,
        ukeire_tiles,
        second_step,
        tied,
    })
}
