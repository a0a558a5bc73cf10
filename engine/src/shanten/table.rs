//! The per-group overlap vectors and their (max, +) combination.
//!
//! A *group* is one number suit (looked up in the generated suit table) or the
//! honour-like tiles (honours; in sanma also 1m and 9m), evaluated greedily. A group
//! vector `v[m][p]` is the maximum overlap between the group's counts and any
//! arrangement of at most `m` sets and at most `p` pairs inside the group, using at
//! most four copies of each type. The regular shanten of a hand with `k` melds is
//! `(13 - 3k) - best`, where `best` is the (max, +) convolution of the four group
//! vectors evaluated at `(4 - k, 1)`.

use crate::tile::{TileCounts, TileSet};

/// Overlap vector of one group: `v[m][p]`, m sets (0..=4), p pairs (0..=1), "at most".
pub(crate) type Gv = [[u8; 2]; 5];

/// The zero vector (an empty group).
pub(crate) const ZERO: Gv = [[0; 2]; 5];

/// Number of suit patterns: 9 counts, each 0..=4, total <= 14.
pub(crate) const SUIT_PATTERNS: usize = 405_350;

/// The generated suit table (see `table_gen.rs`): one little-endian u16 per pattern.
static SUIT_TABLE: &[u8; SUIT_PATTERNS * 2] =
    include_bytes!(concat!(env!("OUT_DIR"), "/suit_table.bin"));

/// Size in bytes of the suit table.
pub(crate) const SUIT_TABLE_BYTES: usize = SUIT_PATTERNS * 2;

/// `COMPLETIONS[pos][rem]`: number of ways to fill positions `pos..9` with counts 0..=4
/// summing to at most `rem`.
const COMPLETIONS: [[u32; 15]; 10] = {
    let mut t = [[0u32; 15]; 10];
    let mut rem = 0;
    while rem < 15 {
        t[9][rem] = 1;
        rem += 1;
    }
    let mut pos = 9;
    while pos > 0 {
        pos -= 1;
        let mut rem = 0;
        while rem < 15 {
            let mut c = 0;
            let mut sum = 0;
            while c <= 4 && c <= rem {
                sum += t[pos + 1][rem - c];
                c += 1;
            }
            t[pos][rem] = sum;
            rem += 1;
        }
    }
    t
};

/// `RANK_STEP[pos][rem][c]`: how many patterns with the same prefix come before the one
/// with count `c` at `pos` when `rem` tiles remain (the 9 x 15 x 5 prefix table).
const RANK_STEP: [[[u32; 5]; 15]; 9] = {
    let mut t = [[[0u32; 5]; 15]; 9];
    let mut pos = 0;
    while pos < 9 {
        let mut rem = 0;
        while rem < 15 {
            let mut c = 1;
            while c < 5 {
                let prev = t[pos][rem][c - 1];
                t[pos][rem][c] = if c - 1 <= rem {
                    prev + COMPLETIONS[pos + 1][rem - (c - 1)]
                } else {
                    prev
                };
                c += 1;
            }
            rem += 1;
        }
        pos += 1;
    }
    t
};

const _: () = assert!(COMPLETIONS[0][14] as usize == SUIT_PATTERNS);

/// Combinatorial rank of a suit pattern. Counts above 4 are read as 4 and a total
/// above 14 is trimmed from the high end, so any input gives an in-range index.
#[inline(always)]
pub(crate) fn rank(suit: &[u8]) -> usize {
    let mut rem = 14usize;
    let mut r = 0u32;
    let mut pos = 0;
    while pos < 9 {
        let mut c = suit[pos] as usize;
        if c > 4 {
            c = 4;
        }
        if c > rem {
            c = rem;
        }
        r += RANK_STEP[pos][rem][c];
        rem -= c;
        pos += 1;
    }
    r as usize
}

/// Cumulative set values `v[m][0]` decoded from the low byte.
const DECODE_LO: [[u8; 5]; 256] = {
    let mut t = [[0u8; 5]; 256];
    let mut b = 0;
    while b < 256 {
        let mut m = 0;
        while m < 4 {
            t[b][m + 1] = t[b][m] + ((b >> (2 * m)) & 3) as u8;
            m += 1;
        }
        b += 1;
    }
    t
};

/// Pair increments `v[m][1] - v[m][0]` decoded from the high byte (base 3).
const DECODE_HI: [[u8; 5]; 256] = {
    let mut t = [[0u8; 5]; 256];
    let mut b = 0;
    while b < 243 {
        let mut x = b;
        let mut m = 0;
        while m < 5 {
            t[b][m] = (x % 3) as u8;
            x /= 3;
            m += 1;
        }
        b += 1;
    }
    t
};

/// Group vector of one number suit (9 counts).
#[inline(always)]
pub(crate) fn suit_vector(suit: &[u8]) -> Gv {
    let i = rank(suit) * 2;
    let lo = &DECODE_LO[SUIT_TABLE[i] as usize];
    let hi = &DECODE_HI[SUIT_TABLE[i + 1] as usize];
    [
        [lo[0], lo[0] + hi[0]],
        [lo[1], lo[1] + hi[1]],
        [lo[2], lo[2] + hi[2]],
        [lo[3], lo[3] + hi[3]],
        [lo[4], lo[4] + hi[4]],
    ]
}

/// Group vector of honour-like tiles given how many types hold 1, 2, 3 and 4 copies
/// (`hist[c]`, index 0 unused). No sequences exist, so pungs take the types with the
/// most copies and the pair the next one: with counts sorted descending,
/// `v[m][p] = sum_{j<m} min(c_j, 3) + p * min(c_m, 2)`. Greedy is optimal because
/// `min(c,3) - min(c,2)` is non-decreasing in `c`.
#[inline]
pub(crate) fn honor_vector_from_hist(hist: &[u8; 5]) -> Gv {
    // The five largest counts, descending.
    let mut top = [0u8; 5];
    let mut n = 0;
    let mut c = 4;
    while c > 0 && n < 5 {
        let mut k = hist[c];
        while k > 0 && n < 5 {
            top[n] = c as u8;
            n += 1;
            k -= 1;
        }
        c -= 1;
    }
    let mut v = ZERO;
    let mut sets = 0u8;
    for m in 0..5 {
        v[m][0] = sets;
        v[m][1] = sets + top[m].min(2);
        sets += top[m].min(3);
    }
    v
}

/// Histogram of honour-like counts (counts above 4 read as 4).
#[inline(always)]
pub(crate) fn honor_hist(counts: &TileCounts, tile_set: TileSet) -> [u8; 5] {
    let mut hist = [0u8; 5];
    for &c in &counts[27..34] {
        hist[c.min(4) as usize] += 1;
    }
    if tile_set == TileSet::Sanma {
        hist[counts[0].min(4) as usize] += 1;
        hist[counts[8].min(4) as usize] += 1;
    }
    hist
}

/// The four group vectors of a hand: man, pin, sou, honour-like. In sanma the man
/// group is empty and 1m / 9m join the honour-like group; 2m–8m (absent from the set)
/// are ignored.
#[inline(always)]
pub(crate) fn group_vectors(counts: &TileCounts, tile_set: TileSet) -> [Gv; 4] {
    let man = match tile_set {
        TileSet::FourPlayer => suit_vector(&counts[0..9]),
        TileSet::Sanma => ZERO,
    };
    [
        man,
        suit_vector(&counts[9..18]),
        suit_vector(&counts[18..27]),
        honor_vector_from_hist(&honor_hist(counts, tile_set)),
    ]
}

/// (max, +) convolution of two "at most" vectors.
#[inline(always)]
pub(crate) fn conv(a: &Gv, b: &Gv) -> Gv {
    let mut c = ZERO;
    for m in 0..5 {
        let mut best0 = 0u8;
        let mut best1 = 0u8;
        for m1 in 0..=m {
            let (x, y) = (&a[m1], &b[m - m1]);
            best0 = best0.max(x[0] + y[0]);
            best1 = best1.max(x[0] + y[1]).max(x[1] + y[0]);
        }
        c[m][0] = best0;
        c[m][1] = best1;
    }
    c
}

/// The convolution of `a` and `b` evaluated at `(sets, 1)` only.
#[inline(always)]
pub(crate) fn conv_at(a: &Gv, b: &Gv, sets: usize) -> u8 {
    let mut best = 0u8;
    for m1 in 0..=sets {
        let (x, y) = (&a[m1], &b[sets - m1]);
        best = best.max(x[0] + y[1]).max(x[1] + y[0]);
    }
    best
}

/// Maximum overlap of a hand with any complete arrangement of `sets` sets and a pair.
#[inline(always)]
pub(crate) fn max_overlap(g: &[Gv; 4], sets: usize) -> u8 {
    let ab = conv(&g[0], &g[1]);
    let cd = conv(&g[2], &g[3]);
    conv_at(&ab, &cd, sets)
}

/// For each group `i`, the convolution of the other three groups (so that a change in
/// one group needs only [`conv_at`] with its new vector).
#[inline]
pub(crate) fn rest_vectors(g: &[Gv; 4]) -> [Gv; 4] {
    let ab = conv(&g[0], &g[1]);
    let cd = conv(&g[2], &g[3]);
    [
        conv(&g[1], &cd),
        conv(&g[0], &cd),
        conv(&ab, &g[3]),
        conv(&ab, &g[2]),
    ]
}
