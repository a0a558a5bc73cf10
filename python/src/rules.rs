//! Rules presets by name, and the action names shared by every class.

use engine::encode::{feature_range, NUM_TOKENS, TOKEN_FEATURES};
use engine::game::{Action, NUM_ACTIONS};
use engine::{Rules, Tile};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{IllegalActionError, RulesError};

/// The rules of a preset name: every one of [`Rules::PRESET_NAMES`] (the simple
/// `sanma` and `four-player`, also `3p`, `4p`, `yonma`; the riichi `tenhou-*` and
/// `majsoul-*`).
pub fn preset(name: &str) -> PyResult<Rules> {
    Rules::preset(name).ok_or_else(|| {
        RulesError::new_err(format!(
            "unknown rules preset {name:?} (known: {})",
            Rules::PRESET_NAMES.join(", ")
        ))
    })
}

/// The canonical name of a preset's rules, or `custom`.
pub fn preset_name(rules: &Rules) -> &'static str {
    rules.preset_name().unwrap_or("custom")
}

/// An action from its index (`int`) or its name (`"discard 5p"`, `"pon"`, …).
pub fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<Action> {
    if let Ok(s) = action.cast::<PyString>() {
        return parse_action(&s.to_cow()?);
    }
    let index: i64 = action.extract().map_err(|_| {
        IllegalActionError::new_err("an action is an int index or a name such as 'discard 5p'")
    })?;
    usize::try_from(index)
        .ok()
        .and_then(Action::from_index)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!("action index {index} is not in 0..{NUM_ACTIONS}"))
        })
}

/// Parses an action name as [`search::action_label`] writes it.
pub fn parse_action(text: &str) -> PyResult<Action> {
    let bad = || {
        IllegalActionError::new_err(format!(
            "bad action name {text:?} (e.g. 'discard 5p', 'closed kan 1z', 'added kan 3s', \
             'chi 345m', 'tsumo', 'ron', 'pon', 'open kan', 'pass', 'riichi 5p', 'kita', \
             'nine terminals')"
        ))
    };
    let t = text.trim();
    let tile = |s: &str| -> PyResult<Tile> {
        let counts = engine::notation::parse_counts(s.trim(), engine::TileSet::FourPlayer)
            .map_err(|_| bad())?;
        let mut held = (0..counts.len()).filter(|&i| counts[i] > 0);
        match (held.next(), held.next()) {
            (Some(i), None) if counts[i] == 1 => Tile::new(i as u8).ok_or_else(bad),
            _ => Err(bad()),
        }
    };
    Ok(match t {
        "tsumo" => Action::Tsumo,
        "ron" => Action::Ron,
        "pon" => Action::Pon,
        "open kan" => Action::OpenKan,
        "pass" => Action::Pass,
        "kita" => Action::Kita,
        "nine terminals" => Action::NineTerminals,
        _ => {
            if let Some(rest) = t.strip_prefix("discard ") {
                Action::Discard(tile(rest)?)
            } else if let Some(rest) = t.strip_prefix("riichi ") {
                Action::Riichi(tile(rest)?)
            } else if let Some(rest) = t.strip_prefix("closed kan ") {
                Action::ClosedKan(tile(rest)?)
            } else if let Some(rest) = t.strip_prefix("added kan ") {
                Action::AddedKan(tile(rest)?)
            } else if let Some(rest) = t.strip_prefix("chi ") {
                // "chi 345m": the lowest tile names the sequence; the name must be
                // the one `action_label` writes (also for never-legal indices such as
                // "chi 8910m").
                let rest = rest.trim();
                let first = rest.chars().next().ok_or_else(bad)?;
                let suit = rest.chars().last().ok_or_else(bad)?;
                let action = Action::Chi(tile(&format!("{first}{suit}"))?);
                if search::action_label(action) != t {
                    return Err(bad());
                }
                action
            } else {
                return Err(bad());
            }
        }
    })
}

/// The name of action `index` (`"discard 5p"`, `"chi 345m"`, `"pass"`, …).
#[pyfunction]
fn action_name(index: i64) -> PyResult<String> {
    let a = usize::try_from(index)
        .ok()
        .and_then(Action::from_index)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!("action index {index} is not in 0..{NUM_ACTIONS}"))
        })?;
    Ok(search::action_label(a))
}

/// The index of an action name (the inverse of `action_name`).
#[pyfunction]
fn action_index(name: &str) -> PyResult<usize> {
    Ok(parse_action(name)?.index())
}

/// The bounds of every observation feature: `(low, high)`, float32 arrays of
/// `OBSERVATION_SHAPE` (the engine's `encode::feature_range`; an observation space's
/// `Box(low, high)`).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn observation_bounds(
    py: Python<'_>,
) -> PyResult<(Bound<'_, PyArray2<f32>>, Bound<'_, PyArray2<f32>>)> {
    let shape = (NUM_TOKENS, TOKEN_FEATURES);
    let low = Array2::from_shape_fn(shape, |(t, f)| feature_range(t, f).0);
    let high = Array2::from_shape_fn(shape, |(t, f)| feature_range(t, f).1);
    Ok((low.into_pyarray(py), high.into_pyarray(py)))
}

/// The canonical preset names.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    Rules::PRESET_NAMES.to_vec()
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(action_name, m)?)?;
    m.add_function(wrap_pyfunction!(action_index, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(observation_bounds, m)?)?;
    Ok(())
}
