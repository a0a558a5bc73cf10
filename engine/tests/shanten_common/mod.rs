//! Shared helpers of the shanten / efficiency integration tests: a seeded generator,
//! random hands and a slow, obviously-correct brute-force shanten evaluator.
#![allow(dead_code)]

use engine::{TileCounts, TileSet};

/// splitmix64: small, seeded, good enough for test hands.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Tile types of a set.
pub fn types(tile_set: TileSet) -> Vec<usize> {
    tile_set.tiles().map(|t| t.index()).collect()
}

/// `n` tiles drawn without replacement from the wall of `tile_set`.
pub fn random_hand(rng: &mut Rng, tile_set: TileSet, n: usize) -> TileCounts {
    let mut wall: Vec<usize> = types(tile_set).into_iter().flat_map(|t| [t; 4]).collect();
    let mut c = [0u8; 34];
    for _ in 0..n {
        let i = rng.below(wall.len());
        c[wall.swap_remove(i)] += 1;
    }
    c
}

/// All sets (pungs and sequences) of a tile set, as lists of three types.
pub fn all_sets(tile_set: TileSet) -> Vec<[usize; 3]> {
    let mut out: Vec<[usize; 3]> = types(tile_set).into_iter().map(|t| [t, t, t]).collect();
    let suits: &[usize] = match tile_set {
        TileSet::FourPlayer => &[0, 1, 2],
        TileSet::Sanma => &[1, 2],
    };
    for &s in suits {
        for i in 0..7 {
            out.push([s * 9 + i, s * 9 + i + 1, s * 9 + i + 2]);
        }
    }
    out
}

/// A hand close to complete: a random complete arrangement of `sets` sets and a pair
/// (≤ 4 copies), then `swaps` tiles replaced by random ones, trimmed to `n` tiles.
pub fn near_hand(
    rng: &mut Rng,
    tile_set: TileSet,
    sets: usize,
    n: usize,
    swaps: usize,
) -> TileCounts {
    let all = all_sets(tile_set);
    let ty = types(tile_set);
    loop {
        let mut c = [0u8; 34];
        let mut ok = true;
        for _ in 0..sets {
            for t in all[rng.below(all.len())] {
                c[t] += 1;
            }
        }
        let p = ty[rng.below(ty.len())];
        c[p] += 2;
        if c.iter().any(|&x| x > 4) {
            continue;
        }
        // Remove tiles until n, then swap.
        let mut total: usize = c.iter().map(|&x| x as usize).sum();
        while total > n {
            let t = ty[rng.below(ty.len())];
            if c[t] > 0 {
                c[t] -= 1;
                total -= 1;
            }
        }
        for _ in 0..swaps {
            let t = ty[rng.below(ty.len())];
            if c[t] == 0 {
                continue;
            }
            let u = ty[rng.below(ty.len())];
            if c[u] >= 4 {
                continue;
            }
            c[t] -= 1;
            c[u] += 1;
        }
        if c.iter().any(|&x| x > 4) {
            ok = false;
        }
        if ok {
            return c;
        }
    }
}

/// A random hand of `n` tiles containing a quad (if `n >= 4`).
pub fn quad_hand(rng: &mut Rng, tile_set: TileSet, n: usize) -> TileCounts {
    let ty = types(tile_set);
    let q = ty[rng.below(ty.len())];
    let mut c = [0u8; 34];
    c[q] = 4.min(n as u8);
    let mut total = c[q] as usize;
    while total < n {
        let t = ty[rng.below(ty.len())];
        if c[t] < 4 && t != q {
            c[t] += 1;
            total += 1;
        }
    }
    c
}

fn dfs_sets(
    h: &TileCounts,
    a: &mut [u8; 34],
    sets: &[[usize; 3]],
    start: usize,
    left: usize,
    overlap: u32,
    best: &mut u32,
) {
    *best = (*best).max(overlap);
    if left == 0 {
        return;
    }
    for (i, s) in sets.iter().enumerate().skip(start) {
        if s.iter().any(|&t| a[t] >= 4) || (s[0] == s[1] && a[s[0]] > 1) {
            continue;
        }
        let mut gain = 0;
        for &t in s {
            if a[t] < h[t] {
                gain += 1;
            }
            a[t] += 1;
        }
        dfs_sets(h, a, sets, i, left - 1, overlap + gain, best);
        for &t in s {
            a[t] -= 1;
        }
    }
}

/// Brute force: max overlap of `h` with `≤ sets` sets and `≤ 1` pair, ≤ 4 copies per
/// type, enumerating every multiset of sets that touch the hand.
pub fn brute_regular_overlap(h: &TileCounts, sets: usize, tile_set: TileSet) -> u32 {
    let touching: Vec<[usize; 3]> = all_sets(tile_set)
        .into_iter()
        .filter(|s| s.iter().any(|&t| h[t] > 0))
        .collect();
    let mut best = 0;
    let mut pairs: Vec<Option<usize>> = vec![None];
    pairs.extend(types(tile_set).into_iter().filter(|&t| h[t] > 0).map(Some));
    for p in pairs {
        let mut a = [0u8; 34];
        let mut overlap = 0;
        if let Some(p) = p {
            a[p] = 2;
            overlap = h[p].min(2) as u32;
        }
        dfs_sets(h, &mut a, &touching, 0, sets, overlap, &mut best);
    }
    best
}

/// Brute force: max overlap with 7 distinct pairs (top-7 of min(c, 2) over all types).
pub fn brute_chiitoi_overlap(h: &TileCounts, tile_set: TileSet) -> u32 {
    let mut v: Vec<u32> = types(tile_set)
        .into_iter()
        .map(|t| h[t].min(2) as u32)
        .collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.iter().take(7).sum()
}

const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Brute force: max overlap with thirteen orphans (each orphan once + one orphan pair).
pub fn brute_kokushi_overlap(h: &TileCounts) -> u32 {
    let mut best = 0;
    for &p in &ORPHANS {
        let o: u32 = ORPHANS
            .iter()
            .map(|&t| h[t].min(if t == p { 2 } else { 1 }) as u32)
            .sum();
        best = best.max(o);
    }
    best
}

/// Brute-force shanten `(regular, seven pairs, thirteen orphans)` of a `13 - 3k` or
/// `14 - 3k` tile hand: `(13 - 3k) - max overlap` per form (special forms closed only).
pub fn brute_shanten(h: &TileCounts, melds: u8, tile_set: TileSet) -> (i8, i8, i8) {
    let base = 13 - 3 * melds as i32;
    let reg = base - brute_regular_overlap(h, 4 - melds as usize, tile_set) as i32;
    if melds > 0 {
        return (reg as i8, i8::MAX, i8::MAX);
    }
    let chi = 13 - brute_chiitoi_overlap(h, tile_set) as i32;
    let kok = 13 - brute_kokushi_overlap(h) as i32;
    (reg as i8, chi as i8, kok as i8)
}
