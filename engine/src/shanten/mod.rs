//! Shanten: how far a hand is from ready, for the regular form, seven pairs and
//! thirteen orphans.
//!
//! # Conventions
//! They match the reference vectors (PyPI `mahjong` 2.1.0) and tenhou:
//! - `-1` = complete, `0` = tenpai. A hand holds `13 - 3k` or `14 - 3k` tiles with `k`
//!   melds (sets exposed by calling, passed as a count); the melds themselves are not
//!   in the count array. A 14-tile value is the best 13-tile value over all discards.
//! - **Regular** (four sets and a pair) obeys the 4-copy rule: a type held four times
//!   cannot be the pair wait or the wait of a two-tile shape (`23456p9999s4444z` is 2,
//!   not 1). It is computed as `(13 - 3k) - (max overlap of the hand with any complete
//!   arrangement of 4 - k sets and one pair using at most four copies of each type)`,
//!   which holds for both hand sizes.
//! - **Seven pairs**: seven *distinct* pairs; four of a kind is one pair:
//!   `6 - pairs + max(0, 7 - kinds)`. Closed hands only.
//! - **Thirteen orphans**: `13 - distinct terminal/honour types - (1 if one of them is
//!   held twice or more)`. Closed hands only.
//! - **Sanma** ([`TileSet::Sanma`]): 2m–8m do not exist, so 1m and 9m behave like
//!   honours in the regular form; the other two forms are unchanged.
//! - A form that does not apply (seven pairs or thirteen orphans with melds) is
//!   [`NOT_APPLICABLE`].
//!
//! # Algorithm
//! Per-suit max-overlap tables after the decomposition idea of Nyanten / Cryolite's
//! shanten calculators (the hand splits into independent suits whose contributions
//! combine by a (max, +) convolution over "sets used, pair used", and suit patterns
//! collapse into few equivalence classes), written from scratch here. Differences:
//! - the quantity tabulated is the *maximum overlap* of a suit pattern with at most `m`
//!   sets and at most `p` pairs (`m` 0..=4, `p` 0..=1, at most four copies of a type),
//!   computed at build time by a forward dynamic programme over the 405,350 suit
//!   patterns (9 counts each ≤ 4, total ≤ 14; `table_gen.rs`). Regular shanten is then
//!   `(13 - 3k) - overlap` for both hand sizes, and the 4-copy rule is exact because no
//!   arrangement uses a fifth copy;
//! - the 126 distinct overlap vectors become one-byte classes; honours (and 1m/9m in
//!   sanma, which have no sequences) use a greedy formula over a histogram key
//!   (55 classes); `build.rs` then tabulates the (max, +) convolution of class pairs
//!   (man × pin: 180 classes, sou × honours: 165 classes) and the final combination
//!   for every number of melds. A shanten is three suit ranks, one histogram key and
//!   five byte loads;
//! - patterns are indexed by a combinatorial rank (lexicographic order) computed two
//!   positions per step from a 16 KiB prefix table;
//! - ukeire re-ranks only the changed suit incrementally (prefix/suffix sums, one
//!   lookup per candidate tile, branch-free), evaluates honours once per count, and
//!   skips isolated candidates (a lone single's effect does not depend on its place).
//!
//! Tables ([`TABLE_BYTES`] = 670,326 bytes of generated data, embedded with
//! `include_bytes!` from `OUT_DIR`; no runtime initialisation, no allocation): suit
//! classes 405,350, honour classes 10,000, pair combinations 16,384 + 8,192 and final
//! combinations 230,400 (rows padded to powers of two so that indexing needs no
//! multiplication, the pair tables also to 128 rows so that no clamp is needed; unpadded they would take 586,656 bytes). Compile-time constants add
//! 21,504 bytes (rank steps 16,384 + 4,608, honour weights 512) and `efficiency` 2,048:
//! about 694 KB of flash in all, well inside the 2 MB budget.
//!
//! All functions are total: malformed input (counts above 4, more tiles than a hand
//! holds, `melds` above 4, tiles outside the tile set) gives unspecified but in-range
//! values and never panics; `melds` above 4 is read as 4 and tiles outside the tile set
//! are ignored by the regular form. Use [`checked`] to reject such input instead.

mod draws;
mod table;

pub(crate) use draws::SuitDraws;

use crate::rules::Rules;
use crate::tile::{Tile, TileCounts, TileSet, NUM_TILE_TYPES};

/// The value of a form that does not apply to the hand (seven pairs or thirteen
/// orphans when the hand has melds): `i8::MAX`, so that [`Shanten::min`] ignores it.
pub const NOT_APPLICABLE: i8 = i8::MAX;

/// Size in bytes of the embedded generated tables (670,326: suit classes 405,350, honour
/// classes 10,000, two-group combinations 16,384 + 8,192, final combinations 230,400,
/// rows and the pair tables' row counts padded to powers of two); the rank and weight constants add 21,504 bytes.
pub const TABLE_BYTES: usize = table::TABLE_BYTES;

/// Shanten of each winning form.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Shanten {
    /// Four sets and a pair.
    pub regular: i8,
    /// Seven distinct pairs, or [`NOT_APPLICABLE`].
    pub seven_pairs: i8,
    /// Thirteen orphans, or [`NOT_APPLICABLE`].
    pub thirteen_orphans: i8,
}

impl Shanten {
    /// The minimum over the three forms.
    pub fn min(&self) -> i8 {
        self.regular
            .min(self.seven_pairs)
            .min(self.thirteen_orphans)
    }

    /// The minimum over the forms enabled in `forms` (regular always counts).
    pub fn min_of(&self, forms: Forms) -> i8 {
        let mut s = self.regular;
        if forms.seven_pairs {
            s = s.min(self.seven_pairs);
        }
        if forms.thirteen_orphans {
            s = s.min(self.thirteen_orphans);
        }
        s
    }
}

/// Which special forms count besides the regular one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Forms {
    /// Seven pairs counts.
    pub seven_pairs: bool,
    /// Thirteen orphans counts.
    pub thirteen_orphans: bool,
}

impl Forms {
    /// Both special forms.
    pub const ALL: Forms = Forms {
        seven_pairs: true,
        thirteen_orphans: true,
    };
    /// Regular form only.
    pub const REGULAR_ONLY: Forms = Forms {
        seven_pairs: false,
        thirteen_orphans: false,
    };

    /// The forms a rule set allows.
    pub const fn from_rules(rules: &Rules) -> Forms {
        Forms {
            seven_pairs: rules.seven_pairs,
            thirteen_orphans: rules.thirteen_orphans,
        }
    }
}

impl Default for Forms {
    fn default() -> Self {
        Forms::ALL
    }
}

/// Why [`checked`] rejects a hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ShantenError {
    /// The hand does not hold `13 - 3k` or `14 - 3k` tiles for `k = melds`, or
    /// `melds > 4`.
    BadTileCount {
        /// Tiles in the hand.
        tiles: u32,
        /// Melds given.
        melds: u8,
    },
    /// More than four copies of a tile type.
    TooManyCopies {
        /// The tile type.
        tile: Tile,
    },
    /// A tile type that does not exist in the tile set (2m–8m in sanma).
    NotInTileSet {
        /// The tile type.
        tile: Tile,
    },
}

impl core::fmt::Display for ShantenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ShantenError::BadTileCount { tiles, melds } => write!(
                f,
                "{tiles} tiles with {melds} melds (expected {} or {} tiles)",
                13i32 - 3 * melds as i32,
                14i32 - 3 * melds as i32
            ),
            ShantenError::TooManyCopies { tile } => write!(f, "more than four copies of {tile}"),
            ShantenError::NotInTileSet { tile } => {
                write!(f, "{tile} does not exist in this tile set")
            }
        }
    }
}

impl core::error::Error for ShantenError {}

/// Validates a hand: `melds <= 4`, `13 - 3k` or `14 - 3k` tiles, at most four copies,
/// only tiles of the tile set.
pub fn validate(counts: &TileCounts, melds: u8, tile_set: TileSet) -> Result<(), ShantenError> {
    let mut tiles = 0u32;
    for t in Tile::all() {
        let c = counts[t.index()];
        if c > 4 {
            return Err(ShantenError::TooManyCopies { tile: t });
        }
        if c > 0 && !tile_set.contains(t) {
            return Err(ShantenError::NotInTileSet { tile: t });
        }
        tiles += c as u32;
    }
    let base = 13 - 3 * melds.min(5) as i32;
    if melds > 4 || (tiles as i32 != base && tiles as i32 != base + 1) {
        return Err(ShantenError::BadTileCount { tiles, melds });
    }
    Ok(())
}

/// Checked front door: validates the hand (see [`validate`]) and returns its shanten.
pub fn checked(counts: &TileCounts, melds: u8, tile_set: TileSet) -> Result<Shanten, ShantenError> {
    validate(counts, melds, tile_set)?;
    Ok(shanten(counts, melds, tile_set))
}

/// Shanten of every form. Never panics (see the module docs for how bad input is read).
pub fn shanten(counts: &TileCounts, melds: u8, tile_set: TileSet) -> Shanten {
    let closed = melds == 0;
    Shanten {
        regular: regular(counts, melds, tile_set),
        seven_pairs: if closed {
            seven_pairs(counts)
        } else {
            NOT_APPLICABLE
        },
        thirteen_orphans: if closed {
            thirteen_orphans(counts)
        } else {
            NOT_APPLICABLE
        },
    }
}

/// Regular-form shanten (four sets and a pair, `4 - melds` sets in hand).
#[inline]
pub fn regular(counts: &TileCounts, melds: u8, tile_set: TileSet) -> i8 {
    let k = melds.min(4);
    regular_value(k, table::max_overlap(counts, tile_set, 4 - k as usize))
}

#[inline(always)]
fn regular_value(k: u8, overlap: u8) -> i8 {
    (13 - 3 * k as i8 - overlap as i8).max(-1)
}

/// Bytes with the high bit set.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Byte `i` of the result has its high bit set iff byte `i` of `w` is at least `k`
/// (1 <= k <= 127), for bytes up to 127; larger bytes (malformed counts) are masked to
/// 7 bits first, so the result is merely unspecified, never a panic.
#[inline(always)]
pub(crate) fn bytes_at_least(w: u64, k: u8) -> u64 {
    ((w & !HIGH) + (0x80 - k as u64) * 0x0101_0101_0101_0101) & HIGH
}

/// The count array as five little-endian words (the last holds 2 bytes).
#[inline(always)]
pub(crate) fn words(counts: &TileCounts) -> [u64; 5] {
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&counts[i * 8..i * 8 + 8]);
        u64::from_le_bytes(b)
    };
    [
        word(0),
        word(1),
        word(2),
        word(3),
        u64::from(counts[32]) | u64::from(counts[33]) << 8,
    ]
}

/// Terminal/honour bytes of each word of [`words`].
const ORPHAN_BYTES: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut i = 0;
    while i < 13 {
        let t = ORPHANS[i];
        m[t / 8] |= 0xFFu64 << (8 * (t % 8));
        i += 1;
    }
    m
};

/// Counters of the special forms: (pairs, kinds, orphan kinds, orphan pairs), where
/// pairs/kinds count types held at least twice/once. Branch-free SWAR over five words;
/// the per-byte flags are summed bytewise and reduced once by a multiply (no popcount
/// instruction needed on baseline targets).
#[inline(always)]
fn special_counters(counts: &TileCounts) -> (i8, i8, i8, i8) {
    const LOW: u64 = 0x0101_0101_0101_0101;
    let w = words(counts);
    let (mut pairs, mut kinds, mut okinds, mut opairs) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..5 {
        let one = bytes_at_least(w[i], 1) >> 7;
        let two = bytes_at_least(w[i], 2) >> 7;
        kinds += one;
        pairs += two;
        okinds += one & ORPHAN_BYTES[i];
        opairs += two & ORPHAN_BYTES[i];
    }
    let sum = |x: u64| (x.wrapping_mul(LOW) >> 56) as i8;
    (sum(pairs), sum(kinds), sum(okinds), sum(opairs))
}

/// Seven-pairs shanten of a closed hand: `6 - pairs + max(0, 7 - kinds)`.
pub fn seven_pairs(counts: &TileCounts) -> i8 {
    let (pairs, kinds, _, _) = special_counters(counts);
    seven_pairs_value(pairs, kinds)
}

#[inline(always)]
fn seven_pairs_value(pairs: i8, kinds: i8) -> i8 {
    (6 - pairs + (7 - kinds).max(0)).max(-1)
}

/// The 13 terminal and honour types.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Thirteen-orphans shanten of a closed hand.
pub fn thirteen_orphans(counts: &TileCounts) -> i8 {
    let (_, _, kinds, pairs) = special_counters(counts);
    13 - kinds - (pairs > 0) as i8
}

/// Minimum shanten over the regular form and the special forms enabled in `forms`
/// (the special forms only for closed hands). The fast path used by bots.
#[inline]
pub fn min_shanten(counts: &TileCounts, melds: u8, tile_set: TileSet, forms: Forms) -> i8 {
    let mut s = regular(counts, melds, tile_set);
    if melds == 0 && (forms.seven_pairs || forms.thirteen_orphans) {
        let (pairs, kinds, okinds, opairs) = special_counters(counts);
        if forms.seven_pairs {
            s = s.min(seven_pairs_value(pairs, kinds));
        }
        if forms.thirteen_orphans {
            s = s.min(13 - okinds - (opairs > 0) as i8);
        }
    }
    s
}

/// The group (0 man, 1 pin, 2 sou, 3 honour-like) of tile index `t`, or `None` for
/// tiles that do not take part in the regular form (2m–8m in sanma, indices ≥ 34).
#[inline(always)]
fn group_of(t: usize, tile_set: TileSet) -> Option<usize> {
    match t {
        0..=8 => match tile_set {
            TileSet::FourPlayer => Some(0),
            TileSet::Sanma if t == 0 || t == 8 => Some(3),
            TileSet::Sanma => None,
        },
        9..=17 => Some(1),
        18..=26 => Some(2),
        27..=33 => Some(3),
        _ => None,
    }
}

/// Bit mask of the tile types of a tile set.
#[inline(always)]
pub(crate) const fn set_mask(tile_set: TileSet) -> u64 {
    match tile_set {
        TileSet::FourPlayer => (1u64 << 34) - 1,
        TileSet::Sanma => ((1u64 << 34) - 1) & !0b1111_1110u64,
    }
}

/// Bit mask of the 13 terminal and honour types.
const ORPHAN_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 13 {
        m |= 1u64 << ORPHANS[i];
        i += 1;
    }
    m
};

/// A hand prepared for fast evaluation of one-tile changes (a draw or a discard of one
/// type) and of its ukeire: the class of each group, the two partial combinations and
/// the counters of the special forms. Changing one tile then costs one class lookup and
/// two small table reads.
#[derive(Clone, Copy, Debug)]
pub struct Prepared {
    tile_set: TileSet,
    melds: u8,
    sets: usize,
    class: [u8; 4],
    key: u16,
    ab: u8,
    cd: u8,
    overlap: u8,
    seven_pairs: bool,
    thirteen_orphans: bool,
    pairs: i8,
    kinds: i8,
    orphan_kinds: i8,
    orphan_pairs: i8,
}

impl Prepared {
    /// Prepares `counts` (any number of tiles) for one-tile changes.
    #[inline]
    pub fn new(counts: &TileCounts, melds: u8, tile_set: TileSet, forms: Forms) -> Prepared {
        let (class, key) = table::classes(counts, tile_set);
        let k = melds.min(4);
        let sets = 4 - k as usize;
        let ab = table::pair_ab(class[0], class[1]);
        let cd = table::pair_cd(class[2], class[3]);
        let (pairs, kinds, orphan_kinds, orphan_pairs) = special_counters(counts);
        Prepared {
            tile_set,
            melds: k,
            sets,
            class,
            key,
            ab,
            cd,
            overlap: table::final_overlap(ab, cd, sets),
            seven_pairs: forms.seven_pairs && melds == 0,
            thirteen_orphans: forms.thirteen_orphans && melds == 0,
            pairs,
            kinds,
            orphan_kinds,
            orphan_pairs,
        }
    }

    /// Regular shanten of the prepared hand.
    #[inline]
    pub fn regular(&self) -> i8 {
        regular_value(self.melds, self.overlap)
    }

    /// Minimum shanten of the prepared hand itself.
    #[inline]
    pub fn min_shanten(&self) -> i8 {
        self.combine(
            self.overlap,
            self.pairs,
            self.kinds,
            self.orphan_kinds,
            self.orphan_pairs,
        )
    }

    #[inline(always)]
    fn combine(&self, overlap: u8, pairs: i8, kinds: i8, orphan_kinds: i8, orphan_pairs: i8) -> i8 {
        let mut s = regular_value(self.melds, overlap);
        if self.seven_pairs {
            s = s.min(seven_pairs_value(pairs, kinds));
        }
        if self.thirteen_orphans {
            s = s.min(13 - orphan_kinds - (orphan_pairs > 0) as i8);
        }
        s
    }

    /// Overlap with suit group `g` (0..3) replaced by class `x`.
    #[inline(always)]
    fn with_suit(&self, g: usize, x: u8) -> u8 {
        match g {
            0 => table::final_overlap(table::pair_ab(x, self.class[1]), self.cd, self.sets),
            1 => table::final_overlap(table::pair_ab(self.class[0], x), self.cd, self.sets),
            _ => table::final_overlap(self.ab, table::pair_cd(x, self.class[3]), self.sets),
        }
    }

    /// Overlap with the honour key replaced by `key`.
    #[inline(always)]
    fn with_honor_key(&self, key: u16) -> u8 {
        let h = table::honor_class(key);
        table::final_overlap(self.ab, table::pair_cd(self.class[2], h), self.sets)
    }

    /// Regular overlap after changing the count of tile `t` to `c_new`.
    #[inline(always)]
    fn overlap_with(&self, counts: &TileCounts, t: usize, c_new: u8) -> u8 {
        match group_of(t, self.tile_set) {
            None => self.overlap,
            Some(3) => {
                let key = self
                    .key
                    .wrapping_sub(table::HONOR_WEIGHT[counts[t] as usize])
                    .wrapping_add(table::HONOR_WEIGHT[c_new as usize]);
                self.with_honor_key(key)
            }
            Some(g) => {
                let base = g * 9;
                let mut suit = [0u8; 9];
                suit.copy_from_slice(&counts[base..base + 9]);
                suit[t - base] = c_new;
                self.with_suit(g, table::suit_class(&suit))
            }
        }
    }

    /// The prepared hand `counts` (the array this was prepared from) with the count of
    /// type `t` changed to `c_new`: equal to [`Prepared::new`] of the changed array for
    /// counts up to 4, at the cost of one group's class (the one-tile-change update the
    /// value scores chain through draws and discards). `t >= 34` returns a copy.
    #[inline]
    pub(crate) fn with_count(&self, counts: &TileCounts, t: usize, c_new: u8) -> Prepared {
        let class = match (group_of(t, self.tile_set), counts.get(t)) {
            (Some(g), Some(_)) if g < 3 => {
                let base = g * 9;
                let mut suit = [0u8; 9];
                suit.copy_from_slice(&counts[base..base + 9]);
                suit[t - base] = c_new;
                table::suit_class(&suit)
            }
            _ => 0,
        };
        self.with_count_class(counts, t, c_new, class)
    }

    /// [`Prepared::with_count`] with the new class of `t`'s group already known:
    /// `class` must be the class of the changed suit pattern when `t` belongs to a suit
    /// group of the tile set (it is ignored otherwise). The value scores know most of
    /// these classes from cached draws and prepared hands, and skip the rank.
    #[inline]
    pub(crate) fn with_count_class(
        &self,
        counts: &TileCounts,
        t: usize,
        c_new: u8,
        class: u8,
    ) -> Prepared {
        let mut p = *self;
        let Some(&c) = counts.get(t) else {
            return p;
        };
        match group_of(t, self.tile_set) {
            None => {}
            Some(3) => {
                p.key = p
                    .key
                    .wrapping_sub(table::HONOR_WEIGHT[c as usize])
                    .wrapping_add(table::HONOR_WEIGHT[c_new as usize]);
                p.class[3] = table::honor_class(p.key);
                p.cd = table::pair_cd(p.class[2], p.class[3]);
            }
            Some(g) => {
                p.class[g % 3] = class;
                if g < 2 {
                    p.ab = table::pair_ab(p.class[0], p.class[1]);
                } else {
                    p.cd = table::pair_cd(p.class[2], p.class[3]);
                }
            }
        }
        p.overlap = table::final_overlap(p.ab, p.cd, p.sets);
        let step = |at_least: u8| (c_new >= at_least) as i8 - (c >= at_least) as i8;
        p.pairs += step(2);
        p.kinds += step(1);
        if is_orphan(t) {
            p.orphan_pairs += step(2);
            p.orphan_kinds += step(1);
        }
        p
    }

    /// Minimum shanten after adding one tile of type `t` to `counts` (the array this
    /// was prepared from). `t >= 34` returns the unchanged value.
    #[inline]
    pub fn after_draw(&self, counts: &TileCounts, t: usize) -> i8 {
        if t >= NUM_TILE_TYPES {
            return self.min_shanten();
        }
        let c = counts[t];
        let overlap = self.overlap_with(counts, t, c.saturating_add(1).min(4));
        let orphan = is_orphan(t);
        self.combine(
            overlap,
            self.pairs + (c == 1) as i8,
            self.kinds + (c == 0) as i8,
            self.orphan_kinds + (orphan && c == 0) as i8,
            self.orphan_pairs + (orphan && c == 1) as i8,
        )
    }

    /// Minimum shanten after removing one tile of type `t` from `counts` (the array this
    /// was prepared from). A type not held returns the unchanged value.
    #[inline]
    pub fn after_discard(&self, counts: &TileCounts, t: usize) -> i8 {
        if t >= NUM_TILE_TYPES || counts[t] == 0 {
            return self.min_shanten();
        }
        let c = counts[t];
        let overlap = self.overlap_with(counts, t, c.min(4) - 1);
        let orphan = is_orphan(t);
        self.combine(
            overlap,
            self.pairs - (c == 2) as i8,
            self.kinds - (c == 1) as i8,
            self.orphan_kinds - (orphan && c == 1) as i8,
            self.orphan_pairs - (orphan && c == 2) as i8,
        )
    }

    /// Tile types of suit group `g` whose draw raises the regular overlap.
    #[inline(always)]
    ///
    /// `single` says whether an *isolated* single raises the overlap. A drawn tile with
    /// no held tile of its suit within two positions touches no other tile through any
    /// set or pair, so its group vector is the old one convolved with a lone single,
    /// whatever the position (and the same holds for a new honour): such positions are
    /// not looked up at all.
    fn suit_improving<const G: usize>(&self, counts: &TileCounts, single: bool) -> u64 {
        let base = G * 9;
        let s = &counts[base..base + 9];
        let mut total = 0usize;
        let mut big = false;
        for &c in s {
            total += c as usize;
            big |= c > 4;
        }
        let mut mask = 0u64;
        if big || total >= 14 {
            // Only for malformed input: the generic path.
            for (i, &c) in s.iter().enumerate() {
                if c < 4 && self.overlap_with(counts, base + i, c + 1) > self.overlap {
                    mask |= 1u64 << (base + i);
                }
            }
            return mask;
        }
        let mut occ = 0u32;
        for (i, &c) in s.iter().enumerate() {
            occ |= ((c > 0) as u32) << i;
        }
        let near = occ | occ << 1 | occ << 2 | occ >> 1 | occ >> 2;
        let isolated = !near & 0x1FF;
        if single {
            mask |= (isolated as u64) << base;
        }
        // rank(s + e_i) = prefix_i + RANK_STEP[i][rem_i][c_i + 1] + suffix_{i+1}, where
        // the suffix uses one tile less of room (rem - 1) at every later position. The
        // loop is branch-free: every position is looked up and the result masked (the
        // improvement bits are unpredictable, so branches on them mispredict).
        let mut rem = [0usize; 10];
        rem[0] = 14;
        for i in 0..9 {
            rem[i + 1] = rem[i] - s[i] as usize;
        }
        let mut suffix = [0u32; 10];
        for i in (0..9).rev() {
            suffix[i] = suffix[i + 1] + table::rank_step(i, rem[i].wrapping_sub(1), s[i] as usize);
        }
        let mut prefix = 0u32;
        let mut found = 0u32;
        let mut lookable = 0u32;
        for i in 0..9 {
            let c = s[i] as usize;
            lookable |= ((c < 4) as u32) << i;
            let r = prefix + table::rank_step(i, rem[i], c + 1) + suffix[i + 1];
            let x = table::suit_class_of_rank(r as usize);
            found |= ((self.with_suit(G, x) > self.overlap) as u32) << i;
            prefix += table::rank_step(i, rem[i], c);
        }
        mask | (((found & lookable & !isolated) as u64) << base)
    }

    /// Honour-like tile types whose draw raises the regular overlap, and whether a new
    /// isolated single does.
    #[inline(always)]
    fn honor_improving(&self, counts: &TileCounts) -> (u64, bool) {
        // The result depends only on the count of the drawn type: evaluate each of the
        // counts 0..=3 once.
        let mut by_count = [false; 4];
        for (c, slot) in by_count.iter_mut().enumerate() {
            let key = self
                .key
                .wrapping_sub(table::HONOR_WEIGHT[c])
                .wrapping_add(table::HONOR_WEIGHT[c + 1]);
            *slot = self.with_honor_key(key) > self.overlap;
        }
        let mut mask = 0u64;
        let hit = |c: u8| (c < 4 && by_count[(c & 3) as usize]) as u64;
        for (t, &c) in counts.iter().enumerate().skip(27) {
            mask |= hit(c) << t;
        }
        if self.tile_set == TileSet::Sanma {
            mask |= hit(counts[0]) | hit(counts[8]) << 8;
        }
        (mask, by_count[0])
    }

    /// The types whose draw lowers the seven-pairs or thirteen-orphans shanten when that
    /// form is enabled and decides the current shanten `cur`: singles (and new types
    /// while fewer than seven kinds are held) for seven pairs, missing orphans (and held
    /// ones while no orphan is paired) for thirteen orphans.
    #[inline(always)]
    fn special_ukeire(&self, counts: &TileCounts, cur: i8) -> u64 {
        let chiitoi = self.seven_pairs && seven_pairs_value(self.pairs, self.kinds) == cur;
        let kokushi =
            self.thirteen_orphans && 13 - self.orphan_kinds - (self.orphan_pairs > 0) as i8 == cur;
        let mut mask = 0u64;
        if chiitoi || kokushi {
            let (zeros, ones) = zero_one_masks(counts);
            if chiitoi {
                mask |= ones;
                if self.kinds < 7 {
                    mask |= zeros;
                }
            }
            if kokushi {
                mask |= zeros & ORPHAN_MASK;
                if self.orphan_pairs == 0 {
                    mask |= ones & ORPHAN_MASK;
                }
            }
        }
        mask
    }

    /// The ukeire types of the prepared hand `counts`: types of the tile set, held fewer
    /// than four times, whose draw lowers the minimum shanten.
    #[inline]
    pub fn ukeire_mask(&self, counts: &TileCounts) -> u64 {
        let reg = self.regular();
        let cur = self.min_shanten();
        if cur < 0 {
            return 0;
        }
        // The suit and honour paths skip types held four times themselves; the special
        // forms only add types held at most once.
        let valid = set_mask(self.tile_set);
        let mut mask = 0u64;
        if reg == cur {
            let (honors, single) = self.honor_improving(counts);
            mask |= honors;
            if self.tile_set == TileSet::FourPlayer {
                mask |= self.suit_improving::<0>(counts, single);
            }
            mask |= self.suit_improving::<1>(counts, single);
            mask |= self.suit_improving::<2>(counts, single);
        }
        (mask | self.special_ukeire(counts, cur)) & valid
    }
}

/// Bit masks of the types held zero times and exactly once, branch-free over the five
/// words of [`words`]: a byte is nonzero iff `((b & 0x7F) + 0x7F) | b` has its high bit
/// set (exact for every byte value), `b == 1` iff `b ^ 1` is zero, and the eight flags
/// of a word are gathered into a byte by one multiply (bit `i` of the product's top
/// byte is byte `i`'s flag: the partial products never overlap).
#[inline(always)]
fn zero_one_masks(counts: &TileCounts) -> (u64, u64) {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let nonzero = |w: u64| (((w & LOW7) + LOW7) | w) & HIGH;
    let gather = |flags: u64| (flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut zeros = 0u64;
    let mut ones = 0u64;
    for (i, &w) in words(counts).iter().enumerate() {
        zeros |= gather(!nonzero(w) & HIGH) << (8 * i);
        ones |= gather(!nonzero(w ^ ONES) & HIGH) << (8 * i);
    }
    let types = (1u64 << NUM_TILE_TYPES) - 1;
    (zeros & types, ones & types)
}

#[inline(always)]
fn is_orphan(t: usize) -> bool {
    t >= 27 || t % 9 == 0 || t % 9 == 8
}
