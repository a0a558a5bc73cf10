//! The fast second step of [`super::value_scores`]: all discards at once, draw by draw.
//!
//! The reference ([`super::reference`]) evaluates, for every discard `t` keeping the
//! best shanten `s` and every draw `d` of its ukeire, every discard `x` of the 14-tile
//! hand `counts - t + d`, and the ukeire of each `counts - t + d - x` at shanten
//! `s - 1`. This module computes exactly the same numbers with less work, from three
//! facts about the table shanten (monotone in the tiles held, lowered by at most one by
//! a draw; `counts` at most 4 per type and at most 14 tiles):
//! - `counts + d - t - x` is symmetric in `t` and `x`, and so is the test that it has
//!   shanten `s - 1`: with the draws in the outer loop, each unordered pair `{t, x}` is
//!   evaluated once and its ukeire count serves both discards;
//! - a discard `x` passing the test is itself a best-shanten discard with `d` among its
//!   ukeire (`counts - x` is at least `s` by minimality and at most
//!   `shanten(counts - x + d) + 1 <= shanten(counts - x + d - t) + 1 = s`), so only
//!   those discards are tried as `x`;
//! - every hand is one tile away from one already prepared, so [`Prepared`] is updated
//!   for one group (`Prepared::with_count`) instead of rebuilt, and where the changed
//!   suit's new class is already known (d's suit after the draw is in the cached draws
//!   of `counts` or `counts - t`; x's suit less x is a pattern whose draws the x loop
//!   needs anyway, and [`SuitDraws`] carries its own class) without ranking it
//!   (`Prepared::with_count_class`);
//! - the ukeire of a suit needs the classes of its pattern after each draw
//!   ([`SuitDraws`]); the patterns of `counts`, `counts - t`, `counts + d` and
//!   `counts + d - y` recur in most hands evaluated, so their draws are computed once
//!   ([`Cache`], which also serves the first step's ukeire of every `counts - t`) and
//!   only the suits holding `t` and `x` (with or without `d`) are ranked afresh.
//!
//! For a fixed discard the draws still come in ascending order, so the weighted sum is
//! accumulated in `f32` in the reference's order and the results agree bit for bit.

use super::sum_over;
use crate::shanten::{Prepared, SuitDraws};
use crate::tile::{TileCounts, NUM_TILE_TYPES};

/// Second step of every discard in `targets`, a subset of `keep` (the held types whose
/// discard leaves the best shanten `best`), written to `out` (entries outside `targets`
/// untouched). `prepared[t]` and `ukeire_types[t]` are the prepared hand `counts - t`
/// and its ukeire types; `cache` is [`Cache::new`] of `counts` with every type of
/// `keep` among its discards. The discards `x` after a draw range over all of `keep`
/// (the second fact of the module docs), whatever `targets` is: the efficiency bot
/// asks only for the discards tied on shanten and ukeire.
#[allow(clippy::too_many_arguments)] // the first step's results, passed on as they are
pub(super) fn second_steps(
    cache: &mut Cache,
    counts: &TileCounts,
    unseen: &TileCounts,
    prepared: &[Prepared; NUM_TILE_TYPES],
    ukeire_types: &[u64; NUM_TILE_TYPES],
    keep: u64,
    targets: u64,
    best: i8,
    out: &mut [f32; NUM_TILE_TYPES],
) {
    if best <= 0 || targets == 0 {
        return;
    }
    let target = best - 1;
    let mut draws = 0u64;
    let mut k = targets;
    while k != 0 {
        let t = k.trailing_zeros() as usize;
        k &= k - 1;
        draws |= ukeire_types[t];
    }
    let mut weighted = [0.0f32; NUM_TILE_TYPES];
    let mut total = [0u32; NUM_TILE_TYPES];
    while draws != 0 {
        let d = draws.trailing_zeros() as usize;
        draws &= draws - 1;
        let w = unseen[d] as u32;
        if w == 0 {
            continue;
        }
        let mut with_d = 0u64;
        let mut k = keep;
        while k != 0 {
            let t = k.trailing_zeros() as usize;
            k &= k - 1;
            with_d |= (ukeire_types[t] >> d & 1) << t;
        }
        if with_d & targets == 0 {
            continue;
        }
        cache.draw(counts, d, with_d);
        let best_tiles =
            best_per_discard(counts, unseen, prepared, cache, with_d, targets, d, target);
        let mut k = with_d & targets;
        while k != 0 {
            let t = k.trailing_zeros() as usize;
            k &= k - 1;
            weighted[t] += (w * best_tiles[t]) as f32;
            total[t] += w;
        }
    }
    let mut k = targets;
    while k != 0 {
        let t = k.trailing_zeros() as usize;
        k &= k - 1;
        out[t] = if total[t] == 0 {
            0.0
        } else {
            weighted[t] / total[t] as f32
        };
    }
}

/// Suit draws ([`SuitDraws`]) of the patterns that recur: each suit of `counts`, each
/// suit less one discard, the drawn tile's suit plus the draw, and that suit plus the
/// draw less each discard of the suit (`plus_minus`, by position).
pub(super) struct Cache {
    base: [SuitDraws; 3],
    minus: [SuitDraws; 27],
    plus: SuitDraws,
    plus_minus: [SuitDraws; 9],
}

impl Cache {
    /// The draws of `counts` and of `counts - t` for every suit tile `t` in `discards`.
    pub(super) fn new(counts: &TileCounts, discards: u64) -> Cache {
        let base = [0, 1, 2].map(|g| SuitDraws::of_suit(counts, g));
        let mut minus = [SuitDraws::default(); 27];
        let mut k = discards & ((1 << 27) - 1);
        while k != 0 {
            let t = k.trailing_zeros() as usize;
            k &= k - 1;
            let mut h = *counts;
            h[t] -= 1;
            minus[t] = SuitDraws::of_suit(&h, t / 9);
        }
        Cache {
            base,
            minus,
            plus: SuitDraws::default(),
            plus_minus: [SuitDraws::default(); 9],
        }
    }

    /// The ukeire types of `counts - t` (prepared as `p`, `t` among the discards of
    /// [`Cache::new`]): the first step of the value scores, from the cached draws.
    pub(super) fn ukeire_after_discard(&self, p: &Prepared, hand: &TileCounts, t: usize) -> u64 {
        let mut pick = [&self.base[0], &self.base[1], &self.base[2]];
        if t < 27 {
            pick[t / 9] = &self.minus[t];
        }
        p.ukeire_mask_with(hand, pick)
    }

    /// Sets the draw `d`: the draws of `counts + d` in d's suit, and of
    /// `counts + d - y` for every `y` of `with_d` in that suit (the hands whose discard
    /// `t` or `x` shares d's suit).
    fn draw(&mut self, counts: &TileCounts, d: usize, with_d: u64) {
        if d >= 27 {
            return;
        }
        let g = d / 9;
        let mut h = *counts;
        h[d] += 1;
        self.plus = SuitDraws::of_suit(&h, g);
        let mut ys = with_d >> (9 * g) & 0x1FF;
        while ys != 0 {
            let i = ys.trailing_zeros() as usize;
            ys &= ys - 1;
            let y = 9 * g + i;
            // `y == d` is possible for hands of other sizes than 14 - 3k (drawing a
            // discarded type back can lower a 12-tile hand's shanten): then the
            // pattern is `counts`'s own. `h[y] >= 1` either way (y is held).
            h[y] = h[y].saturating_sub(1);
            self.plus_minus[i] = SuitDraws::of_suit(&h, g);
            h[y] += 1;
        }
    }

    /// The draws of each suit of `counts + d - t` (the hand before the discards `x`):
    /// `counts`'s, `counts + d`'s, `counts - t`'s or `counts + d - t`'s.
    fn picks(&self, d: usize, t: usize) -> [&SuitDraws; 3] {
        let (gd, gt) = (suit(d), suit(t));
        let mut pick = [&self.base[0], &self.base[1], &self.base[2]];
        if gd == gt && gd < 3 {
            pick[gd] = &self.plus_minus[t % 9];
        } else {
            if gd < 3 {
                pick[gd] = &self.plus;
            }
            if gt < 3 {
                pick[gt] = &self.minus[t];
            }
        }
        pick
    }
}

/// The suit (0..3) of tile type `y`, 3 for honours.
#[inline(always)]
fn suit(y: usize) -> usize {
    if y < 27 {
        y / 9
    } else {
        3
    }
}

/// For the draw `d` and every discard `t` in `with_d & targets`: the best ukeire count
/// (from `unseen` less the drawn copy) of `counts - t + d - x` over the discards `x` of
/// `with_d` that leave shanten `target`.
#[allow(clippy::too_many_arguments)] // the second step's state, passed on as it is
fn best_per_discard(
    counts: &TileCounts,
    unseen: &TileCounts,
    prepared: &[Prepared; NUM_TILE_TYPES],
    cache: &Cache,
    with_d: u64,
    targets: u64,
    d: usize,
    target: i8,
) -> [u32; NUM_TILE_TYPES] {
    let mut best = [0u32; NUM_TILE_TYPES];
    let mut ts = with_d & targets;
    while ts != 0 {
        let t = ts.trailing_zeros() as usize;
        ts &= ts - 1;
        let mut h13 = *counts;
        h13[t] -= 1;
        let (gd, gt) = (suit(d), suit(t));
        // The class of d's suit after the draw is in the cached draws (of `counts`, or
        // of `counts - t` when t is in the same suit); well formed: h13[d] < 4.
        let known = match gd {
            3 => None,
            _ if gd == gt => cache.minus[t].class_after(d % 9),
            _ => cache.base[gd].class_after(d % 9),
        };
        let p14 = match known {
            Some(class) => prepared[t].with_count_class(&h13, d, h13[d] + 1, class),
            None => prepared[t].with_count(&h13, d, h13[d] + 1),
        };
        let mut h14 = h13;
        h14[d] += 1;
        let picks = cache.picks(d, t);
        // The pair {t, x} serves both: a target x below t has had it already.
        let mut xs = with_d & !(((1u64 << t) - 1) & targets);
        while xs != 0 {
            let x = xs.trailing_zeros() as usize;
            xs &= xs - 1;
            if h14[x] == 0 {
                continue;
            }
            let gx = suit(x);
            let mut h = h14;
            h[x] -= 1;
            // The draws of x's suit less x: `counts - x`, `counts + d - x`, or (with t)
            // fresh; their own class updates the prepared hand without a rank.
            let fresh;
            let draws_x = if gx == 3 {
                None
            } else if gx != gd && gx != gt {
                Some(&cache.minus[x])
            } else if gx != gt {
                Some(&cache.plus_minus[x % 9])
            } else {
                fresh = SuitDraws::of_suit(&h, gx);
                Some(&fresh)
            };
            let p = match draws_x.and_then(SuitDraws::own_class) {
                Some(class) => p14.with_count_class(&h14, x, h14[x] - 1, class),
                None => p14.with_count(&h14, x, h14[x] - 1),
            };
            if p.min_shanten() != target {
                continue;
            }
            let mut pick = picks;
            if let Some(draws) = draws_x {
                pick[gx] = draws;
            }
            let types = p.ukeire_mask_with(&h, pick);
            // `unseen` less the drawn copy (unseen[d] >= 1 here).
            let tiles = sum_over(types, unseen) - (types >> d & 1) as u32;
            best[t] = best[t].max(tiles);
            best[x] = best[x].max(tiles);
        }
    }
    best
}
