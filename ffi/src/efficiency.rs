//! Efficiency queries on hand strings or count arrays (shanten, ukeire, value scores),
//! mpsz parsing and formatting, and action names.
//!
//! Hand strings use mpsz notation (`"123m456p789s1122z"`); the number of melds is
//! implied by the tile count (`13 - 3k` or `14 - 3k` tiles for `k` melds). Count arrays
//! have `MJ_NUM_TILE_TYPES` entries and take the number of melds explicitly. Both seven
//! pairs and thirteen orphans count as winning forms (as in both rules presets).

use std::ffi::c_char;

use engine::efficiency::{available_from_hand, best_discard, ukeire, value_scores};
use engine::notation::{parse_counts, Counts};
use engine::shanten::{self, Forms};
use engine::{TileCounts, TileSet};

use crate::action::{action_from, action_text};
use crate::error::{guard, mj_result, Error};
use crate::util::{in_array, in_str, out_ptr, out_string, put};
use crate::{tile_set_from, MJ_NONE, MJ_NUM_TILE_TYPES};

/// Shanten of each winning form.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_shanten_info {
    /// Four sets and a pair.
    pub regular: i8,
    /// Seven pairs, or `MJ_SHANTEN_NOT_APPLICABLE` with melds.
    pub seven_pairs: i8,
    /// Thirteen orphans, or `MJ_SHANTEN_NOT_APPLICABLE` with melds.
    pub thirteen_orphans: i8,
    /// The minimum over the three (-1 = complete, 0 = tenpai).
    pub min: i8,
}

/// Ukeire of a `13 - 3k`-tile hand.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_ukeire_info {
    /// Minimum shanten of the hand.
    pub shanten: i8,
    /// Number of tile types in `types`.
    pub num_types: u8,
    /// Number of tiles (availability summed over `types`).
    pub tiles: u32,
    /// Bit `t` set: drawing tile type `t` lowers the shanten.
    pub types: u64,
}

/// Per-discard evaluation of a `14 - 3k`-tile hand; entries of types not held are 0
/// (`shanten_after` = `MJ_SHANTEN_NOT_APPLICABLE`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mj_value_scores_info {
    /// Bit `t` set: tile type `t` is held (a possible discard).
    pub held: u64,
    /// The efficiency bot's discard (a tile type), or `MJ_NONE` for an empty hand.
    pub best_discard: u8,
    /// Minimum shanten after discarding each type.
    pub shanten_after: [i8; MJ_NUM_TILE_TYPES],
    /// Ukeire tiles after discarding each type.
    pub ukeire_tiles: [u16; MJ_NUM_TILE_TYPES],
    /// Ukeire types (bit mask) after discarding each type.
    pub ukeire_types: [u64; MJ_NUM_TILE_TYPES],
    /// Second-step measure after discarding each type (0 when tenpai after).
    pub second_step: [f32; MJ_NUM_TILE_TYPES],
    /// Normalised value score in `[0, 1]`; 1 for the best discards.
    pub score: [f32; MJ_NUM_TILE_TYPES],
}

/// A hand from a string: its counts and implied number of melds.
fn parse_hand(hand: &str, tile_set: TileSet) -> Result<(TileCounts, u8), Error> {
    let counts = parse_counts(hand, tile_set)
        .map_err(|e| Error::new(mj_result::MJ_PARSE_ERROR, format!("hand {hand:?}: {e}")))?;
    let tiles: u32 = counts.iter().map(|&c| c as u32).sum();
    let melds = if tiles <= 14 {
        ((14 - tiles) / 3) as u8
    } else {
        0
    };
    Ok((counts, melds))
}

/// Validates counts and melds as a hand of `13 - 3k` or `14 - 3k` tiles.
fn validate(counts: &TileCounts, melds: u8, tile_set: TileSet) -> Result<u32, Error> {
    shanten::validate(counts, melds, tile_set)
        .map_err(|e| Error::invalid(format!("not a hand: {e}")))?;
    Ok(counts.iter().map(|&c| c as u32).sum())
}

/// A count array argument.
///
/// # Safety
/// `p` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads.
unsafe fn in_counts(p: *const u8, what: &str) -> Result<TileCounts, Error> {
    // SAFETY: forwarded contract.
    let s = unsafe { in_array(p, MJ_NUM_TILE_TYPES, what) }?;
    let mut counts = [0u8; MJ_NUM_TILE_TYPES];
    counts.copy_from_slice(s);
    Ok(counts)
}

/// An optional availability array (`NULL` = four minus the hand's copies).
///
/// # Safety
/// `p` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads.
unsafe fn in_unseen(
    p: *const u8,
    counts: &TileCounts,
    tile_set: TileSet,
) -> Result<TileCounts, Error> {
    if p.is_null() {
        return Ok(available_from_hand(counts, tile_set));
    }
    // SAFETY: forwarded contract.
    let unseen = unsafe { in_counts(p, "unseen") }?;
    if let Some(t) = unseen.iter().position(|&c| c > 4) {
        return Err(Error::invalid(format!(
            "unseen[{t}] = {} exceeds 4",
            unseen[t]
        )));
    }
    Ok(unseen)
}

fn shanten_info(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
) -> Result<mj_shanten_info, Error> {
    validate(counts, melds, tile_set)?;
    let s = shanten::shanten(counts, melds, tile_set);
    Ok(mj_shanten_info {
        regular: s.regular,
        seven_pairs: s.seven_pairs,
        thirteen_orphans: s.thirteen_orphans,
        min: s.min(),
    })
}

fn ukeire_info(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    unseen: &TileCounts,
) -> Result<mj_ukeire_info, Error> {
    let tiles = validate(counts, melds, tile_set)?;
    if tiles != 13 - 3 * melds as u32 {
        return Err(Error::invalid(format!(
            "ukeire needs a hand of {} tiles with {melds} melds, not {tiles}",
            13 - 3 * melds as u32
        )));
    }
    let u = ukeire(counts, melds, tile_set, Forms::ALL, unseen);
    Ok(mj_ukeire_info {
        shanten: u.shanten,
        num_types: u.num_types() as u8,
        tiles: u.tiles,
        types: u.types,
    })
}

fn value_scores_info(
    counts: &TileCounts,
    melds: u8,
    tile_set: TileSet,
    unseen: &TileCounts,
) -> Result<mj_value_scores_info, Error> {
    let tiles = validate(counts, melds, tile_set)?;
    if tiles != 14 - 3 * melds as u32 {
        return Err(Error::invalid(format!(
            "value scores need a hand of {} tiles with {melds} melds, not {tiles}",
            14 - 3 * melds as u32
        )));
    }
    let v = value_scores(counts, melds, tile_set, Forms::ALL, unseen);
    let best = best_discard(counts, melds, tile_set, Forms::ALL, unseen);
    Ok(mj_value_scores_info {
        held: v.held,
        best_discard: best.map_or(MJ_NONE, |d| d.tile.as_u8()),
        shanten_after: v.shanten_after,
        ukeire_tiles: v.ukeire_tiles,
        ukeire_types: v.ukeire_types,
        second_step: v.second_step,
        score: v.score,
    })
}

/// Shanten of a hand string (`13 - 3k` or `14 - 3k` tiles; `k` melds implied).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_PARSE_ERROR` (not mpsz for the tile set, or more than
/// four copies), `MJ_INVALID_ARGUMENT` (unknown tile set, or a tile count that is no
/// hand).
///
/// # Safety
/// `hand` must be NULL or a NUL-terminated string; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_shanten(
    hand: *const c_char,
    tile_set: u32,
    out: *mut mj_shanten_info,
) -> mj_result {
    guard("mj_shanten", || {
        // SAFETY: `hand` is NULL or NUL-terminated per the contract.
        let hand = unsafe { in_str(hand, "hand") }?;
        out_ptr(out, "out")?;
        let set = tile_set_from(tile_set)?;
        let (counts, melds) = parse_hand(hand, set)?;
        let info = shanten_info(&counts, melds, set)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Shanten of a count array (`MJ_NUM_TILE_TYPES` entries) with `melds` melds.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (unknown tile set, a count above 4,
/// a tile outside the set, `melds > 4`, or a tile count that is no hand).
///
/// # Safety
/// `counts` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads; `out` must be NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_shanten_counts(
    counts: *const u8,
    melds: u8,
    tile_set: u32,
    out: *mut mj_shanten_info,
) -> mj_result {
    guard("mj_shanten_counts", || {
        // SAFETY: `counts` is NULL or valid for 34 reads per the contract.
        let counts = unsafe { in_counts(counts, "counts") }?;
        out_ptr(out, "out")?;
        let info = shanten_info(&counts, melds, tile_set_from(tile_set)?)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Ukeire of a hand string of `13 - 3k` tiles, counting four minus the hand's copies of
/// each tile type as available.
///
/// Errors: as `mj_shanten`; also `MJ_INVALID_ARGUMENT` for a `14 - 3k`-tile hand.
///
/// # Safety
/// `hand` must be NULL or a NUL-terminated string; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_ukeire(
    hand: *const c_char,
    tile_set: u32,
    out: *mut mj_ukeire_info,
) -> mj_result {
    guard("mj_ukeire", || {
        // SAFETY: `hand` is NULL or NUL-terminated per the contract.
        let hand = unsafe { in_str(hand, "hand") }?;
        out_ptr(out, "out")?;
        let set = tile_set_from(tile_set)?;
        let (counts, melds) = parse_hand(hand, set)?;
        let info = ukeire_info(&counts, melds, set, &available_from_hand(&counts, set))?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Ukeire of a count array of `13 - 3k` tiles with `melds = k`. `unseen`
/// (`MJ_NUM_TILE_TYPES` entries, each at most 4, e.g. `mj_observation.unseen`) gives the
/// available tiles of each type; NULL means four minus the hand's copies.
///
/// Errors: as `mj_shanten_counts`; also `MJ_INVALID_ARGUMENT` for a `14 - 3k`-tile
/// hand or an `unseen` entry above 4.
///
/// # Safety
/// `counts` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads, as must `unseen`;
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_ukeire_counts(
    counts: *const u8,
    melds: u8,
    tile_set: u32,
    unseen: *const u8,
    out: *mut mj_ukeire_info,
) -> mj_result {
    guard("mj_ukeire_counts", || {
        // SAFETY: `counts` is NULL or valid for 34 reads per the contract.
        let counts = unsafe { in_counts(counts, "counts") }?;
        out_ptr(out, "out")?;
        let set = tile_set_from(tile_set)?;
        // SAFETY: `unseen` is NULL or valid for 34 reads per the contract.
        let unseen = unsafe { in_unseen(unseen, &counts, set) }?;
        let info = ukeire_info(&counts, melds, set, &unseen)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Value scores of a hand string of `14 - 3k` tiles (every held type evaluated as a
/// discard), counting four minus the hand's copies as available.
///
/// Errors: as `mj_shanten`; also `MJ_INVALID_ARGUMENT` for a `13 - 3k`-tile hand.
///
/// # Safety
/// `hand` must be NULL or a NUL-terminated string; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_value_scores(
    hand: *const c_char,
    tile_set: u32,
    out: *mut mj_value_scores_info,
) -> mj_result {
    guard("mj_value_scores", || {
        // SAFETY: `hand` is NULL or NUL-terminated per the contract.
        let hand = unsafe { in_str(hand, "hand") }?;
        out_ptr(out, "out")?;
        let set = tile_set_from(tile_set)?;
        let (counts, melds) = parse_hand(hand, set)?;
        let info = value_scores_info(&counts, melds, set, &available_from_hand(&counts, set))?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Value scores of a count array of `14 - 3k` tiles with `melds = k`; `unseen` as in
/// `mj_ukeire_counts` (NULL = four minus the hand's copies).
///
/// Errors: as `mj_ukeire_counts`, with `13 - 3k` refused instead.
///
/// # Safety
/// `counts` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads, as must `unseen`;
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_value_scores_counts(
    counts: *const u8,
    melds: u8,
    tile_set: u32,
    unseen: *const u8,
    out: *mut mj_value_scores_info,
) -> mj_result {
    guard("mj_value_scores_counts", || {
        // SAFETY: `counts` is NULL or valid for 34 reads per the contract.
        let counts = unsafe { in_counts(counts, "counts") }?;
        out_ptr(out, "out")?;
        let set = tile_set_from(tile_set)?;
        // SAFETY: `unseen` is NULL or valid for 34 reads per the contract.
        let unseen = unsafe { in_unseen(unseen, &counts, set) }?;
        let info = value_scores_info(&counts, melds, set, &unseen)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Parses an mpsz string into a count array (`MJ_NUM_TILE_TYPES` entries). Any number
/// of tiles is accepted (at most four copies of a type, only tiles of the set).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_PARSE_ERROR`, `MJ_INVALID_ARGUMENT` (unknown tile set
/// or not UTF-8).
///
/// # Safety
/// `hand` must be NULL or a NUL-terminated string; `counts` must be NULL or valid for
/// `MJ_NUM_TILE_TYPES` writes.
#[no_mangle]
pub unsafe extern "C" fn mj_counts_parse(
    hand: *const c_char,
    tile_set: u32,
    counts: *mut u8,
) -> mj_result {
    guard("mj_counts_parse", || {
        // SAFETY: `hand` is NULL or NUL-terminated per the contract.
        let hand = unsafe { in_str(hand, "hand") }?;
        out_ptr(counts, "counts")?;
        let (parsed, _) = parse_hand(hand, tile_set_from(tile_set)?)?;
        // SAFETY: `counts` is non-NULL and valid for 34 writes per the contract.
        unsafe { std::ptr::copy_nonoverlapping(parsed.as_ptr(), counts, MJ_NUM_TILE_TYPES) };
        Ok(())
    })
}

/// Formats a count array (`MJ_NUM_TILE_TYPES` entries, each at most 4) in canonical mpsz
/// notation (`"123m456p789s1122z"`; empty for no tiles) into `buf` as a NUL-terminated
/// string. `*written` receives the text length without the NUL, also on
/// `MJ_BUFFER_TOO_SMALL`; a buffer of 160 bytes always suffices.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (a count above 4),
/// `MJ_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `counts` must be NULL or valid for `MJ_NUM_TILE_TYPES` reads; `buf` must be NULL or
/// valid for `len` writes; `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_counts_format(
    counts: *const u8,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_counts_format", || {
        // SAFETY: `counts` is NULL or valid for 34 reads per the contract.
        let counts = unsafe { in_counts(counts, "counts") }?;
        out_ptr(written, "written")?;
        if let Some(t) = counts.iter().position(|&c| c > 4) {
            return Err(Error::invalid(format!(
                "counts[{t}] = {} exceeds 4",
                counts[t]
            )));
        }
        let text = Counts(&counts).to_string();
        // SAFETY: buffer contract as documented.
        unsafe { out_string(buf, len, &text, written, "buf") }
    })
}

/// Writes the text of action index `action` (`"discard 5p"`, `"tsumo"`,
/// `"closed kan 1z"`, `"added kan 9s"`, `"chi 345m"`, `"ron"`, `"pon"`, `"open kan"`,
/// `"pass"`) into `buf` as a NUL-terminated string; `*written` as in
/// `mj_counts_format`. A buffer of 32 bytes always suffices.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (`action >= MJ_NUM_ACTIONS`),
/// `MJ_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `written` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_action_format(
    action: u16,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_action_format", || {
        out_ptr(written, "written")?;
        let text = action_text(action_from(action)?);
        // SAFETY: buffer contract as documented.
        unsafe { out_string(buf, len, &text, written, "buf") }
    })
}
