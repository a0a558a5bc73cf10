//! Tile efficiency on mpsz strings or count lists: shanten, ukeire and the value-score
//! matrix (the same queries as the C ABI's `mj_shanten` / `mj_ukeire` /
//! `mj_value_scores`).
//!
//! A hand is a string (`"123m456p789s1122z"`; the number of melds is implied by the
//! tile count, `13 - 3k` or `14 - 3k` tiles for `k` melds) or a list / array of 34
//! counts with `melds` given. Seven pairs and thirteen orphans count as winning forms.

use engine::efficiency::{available_from_hand, best_discard, ukeire, value_scores};
use engine::notation::{parse_counts, Counts};
use engine::shanten::{self, Forms};
use engine::{TileCounts, TileSet, NUM_TILE_TYPES};
use inference::advisor::mask_to_mpsz;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::HandError;
use crate::rules::preset;

/// A hand argument: counts, melds and the tile set of the rules.
struct HandArg {
    counts: TileCounts,
    melds: u8,
    tile_set: TileSet,
    tiles: u32,
}

impl HandArg {
    /// Checks that the hand has `base - 3k` tiles for its `k` melds.
    fn expect_tiles(&self, base: u32, what: &str) -> PyResult<()> {
        let want = base - 3 * self.melds as u32;
        if self.tiles != want {
            return Err(HandError::new_err(format!(
                "{what} a hand of {want} tiles with {} melds, not {}",
                self.melds, self.tiles
            )));
        }
        Ok(())
    }
}

fn hand_arg(hand: &Bound<'_, PyAny>, melds: Option<u8>, rules: &str) -> PyResult<HandArg> {
    let tile_set = preset(rules)?.tile_set;
    let counts = if let Ok(s) = hand.cast::<PyString>() {
        let s = s.to_cow()?;
        parse_counts(&s, tile_set).map_err(|e| HandError::new_err(format!("hand {s:?}: {e}")))?
    } else {
        let v: Vec<i64> = hand.extract().map_err(|_| {
            HandError::new_err("a hand is an mpsz string or a sequence of 34 tile counts")
        })?;
        if v.len() != NUM_TILE_TYPES {
            return Err(HandError::new_err(format!(
                "a count list has {NUM_TILE_TYPES} entries, not {}",
                v.len()
            )));
        }
        let mut counts = [0u8; NUM_TILE_TYPES];
        for (i, (&c, out)) in v.iter().zip(counts.iter_mut()).enumerate() {
            *out = u8::try_from(c)
                .ok()
                .filter(|&c| c <= 4)
                .ok_or_else(|| HandError::new_err(format!("count[{i}] = {c} is not in 0..=4")))?;
        }
        counts
    };
    let tiles: u32 = counts.iter().map(|&c| c as u32).sum();
    let melds = melds.unwrap_or(if tiles <= 14 {
        ((14 - tiles) / 3) as u8
    } else {
        0
    });
    shanten::validate(&counts, melds, tile_set)
        .map_err(|e| HandError::new_err(format!("not a hand: {e}")))?;
    Ok(HandArg {
        counts,
        melds,
        tile_set,
        tiles,
    })
}

fn unseen_arg(unseen: Option<Vec<i64>>, h: &HandArg) -> PyResult<TileCounts> {
    let Some(v) = unseen else {
        return Ok(available_from_hand(&h.counts, h.tile_set));
    };
    if v.len() != NUM_TILE_TYPES {
        return Err(HandError::new_err(format!(
            "unseen has {NUM_TILE_TYPES} entries, not {}",
            v.len()
        )));
    }
    let mut out = [0u8; NUM_TILE_TYPES];
    for (i, (&c, o)) in v.iter().zip(out.iter_mut()).enumerate() {
        *o = u8::try_from(c)
            .ok()
            .filter(|&c| c <= 4)
            .ok_or_else(|| HandError::new_err(format!("unseen[{i}] = {c} is not in 0..=4")))?;
    }
    Ok(out)
}

/// Minimum shanten of a hand (-1 = complete, 0 = tenpai).
#[pyfunction]
#[pyo3(name = "shanten", signature = (hand, melds = None, rules = "sanma"))]
fn py_shanten(hand: &Bound<'_, PyAny>, melds: Option<u8>, rules: &str) -> PyResult<i8> {
    let h = hand_arg(hand, melds, rules)?;
    Ok(shanten::shanten(&h.counts, h.melds, h.tile_set).min())
}

/// Shanten of each winning form: `{"regular", "seven_pairs", "thirteen_orphans",
/// "min"}` (forms that do not apply with melds are None).
#[pyfunction]
#[pyo3(signature = (hand, melds = None, rules = "sanma"))]
fn shanten_forms<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    melds: Option<u8>,
    rules: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let h = hand_arg(hand, melds, rules)?;
    let s = shanten::shanten(&h.counts, h.melds, h.tile_set);
    let na = |v: i8| (v != shanten::NOT_APPLICABLE).then_some(v);
    let d = PyDict::new(py);
    d.set_item("regular", s.regular)?;
    d.set_item("seven_pairs", na(s.seven_pairs))?;
    d.set_item("thirteen_orphans", na(s.thirteen_orphans))?;
    d.set_item("min", s.min())?;
    Ok(d)
}

/// Ukeire of a `13 - 3k`-tile hand: `{"shanten", "types" (mpsz, one copy each),
/// "num_types", "tiles" (unseen copies)}`. `unseen` defaults to four of each type minus
/// the hand.
#[pyfunction]
#[pyo3(name = "ukeire", signature = (hand, melds = None, rules = "sanma", unseen = None))]
fn py_ukeire<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    melds: Option<u8>,
    rules: &str,
    unseen: Option<Vec<i64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let h = hand_arg(hand, melds, rules)?;
    h.expect_tiles(13, "ukeire needs")?;
    let unseen = unseen_arg(unseen, &h)?;
    let u = ukeire(&h.counts, h.melds, h.tile_set, Forms::ALL, &unseen);
    let d = PyDict::new(py);
    d.set_item("shanten", u.shanten)?;
    d.set_item("types", mask_to_mpsz(u.types))?;
    d.set_item("num_types", u.num_types())?;
    d.set_item("tiles", u.tiles)?;
    Ok(d)
}

/// The value-score matrix of a `14 - 3k`-tile hand: `{"best_discard", "discards"}`
/// with one dict per held tile type (`tile`, `shanten_after`, `ukeire_types`,
/// `ukeire_tiles`, `second_step`, `score` in [0, 1]), best scores first.
#[pyfunction]
#[pyo3(name = "value_scores", signature = (hand, melds = None, rules = "sanma", unseen = None))]
fn py_value_scores<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    melds: Option<u8>,
    rules: &str,
    unseen: Option<Vec<i64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let h = hand_arg(hand, melds, rules)?;
    h.expect_tiles(14, "value scores need")?;
    let unseen = unseen_arg(unseen, &h)?;
    let v = value_scores(&h.counts, h.melds, h.tile_set, Forms::ALL, &unseen);
    let best = best_discard(&h.counts, h.melds, h.tile_set, Forms::ALL, &unseen);
    let mut order: Vec<usize> = (0..NUM_TILE_TYPES)
        .filter(|&t| v.held & (1 << t) != 0)
        .collect();
    order.sort_by(|&a, &b| v.score[b].total_cmp(&v.score[a]).then(a.cmp(&b)));
    let discards = PyList::empty(py);
    for t in order {
        let e = PyDict::new(py);
        let mut one = [0u8; NUM_TILE_TYPES];
        one[t] = 1;
        e.set_item("tile", Counts(&one).to_string())?;
        e.set_item("shanten_after", v.shanten_after[t])?;
        e.set_item("ukeire_types", mask_to_mpsz(v.ukeire_types[t]))?;
        e.set_item("ukeire_tiles", v.ukeire_tiles[t])?;
        e.set_item("second_step", v.second_step[t])?;
        e.set_item("score", v.score[t])?;
        discards.append(e)?;
    }
    let d = PyDict::new(py);
    d.set_item("best_discard", best.map(|b| b.tile.to_string()))?;
    d.set_item("discards", discards)?;
    Ok(d)
}

/// Tile counts of an mpsz string (34 entries).
#[pyfunction]
#[pyo3(signature = (hand, rules = "sanma"))]
fn parse_hand(hand: &str, rules: &str) -> PyResult<Vec<u32>> {
    let tile_set = preset(rules)?.tile_set;
    parse_counts(hand, tile_set)
        .map(|c| c.iter().map(|&x| x as u32).collect())
        .map_err(|e| HandError::new_err(format!("hand {hand:?}: {e}")))
}

/// The mpsz string of 34 tile counts.
#[pyfunction]
fn format_hand(counts: Vec<i64>) -> PyResult<String> {
    if counts.len() != NUM_TILE_TYPES {
        return Err(HandError::new_err(format!(
            "a count list has {NUM_TILE_TYPES} entries, not {}",
            counts.len()
        )));
    }
    let mut c = [0u8; NUM_TILE_TYPES];
    for (i, (&v, o)) in counts.iter().zip(c.iter_mut()).enumerate() {
        *o = u8::try_from(v)
            .ok()
            .filter(|&v| v <= 4)
            .ok_or_else(|| HandError::new_err(format!("count[{i}] = {v} is not in 0..=4")))?;
    }
    Ok(Counts(&c).to_string())
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(py_shanten, m)?)?;
    m.add_function(wrap_pyfunction!(shanten_forms, m)?)?;
    m.add_function(wrap_pyfunction!(py_ukeire, m)?)?;
    m.add_function(wrap_pyfunction!(py_value_scores, m)?)?;
    m.add_function(wrap_pyfunction!(parse_hand, m)?)?;
    m.add_function(wrap_pyfunction!(format_hand, m)?)?;
    Ok(())
}
