//! Game logs: `replay_log(source)` checks a log replays exactly (as `host-trainer
//! replay-log` does); as training data, `read_log(source)` replays a Tenhou JSON or mjai log
//! through the engine (the `mahjong-logs` crate, exactly as `host-trainer replay-log`
//! does) and returns, per decision, the observation, the legal mask and the action the
//! player took, as NumPy arrays. This is how strong mahjong AIs are pretrained from
//! human games (imitation of the logged action under the legal mask) before self-play.
//!
//! A decision is every point where a seat had a choice the log settles: its own turn
//! (discard, riichi, kan, kita, tsumo, nine terminals) and every claim window, where a
//! seat the log does not show claiming passed. Observations use the encoding a model
//! for the log's rules uses (`engine::encode::Encoding::for_rules`: v2 under the riichi
//! presets, shape `(35, 48)`).

use std::path::PathBuf;

use engine::encode::{Encoding, NUM_TOKENS};
use engine::game::NUM_ACTIONS;
use mahjong_logs::{replay, Format, GameLog};
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::errors::{LogError, RulesError};

/// The decisions gathered from one log.
#[derive(Default)]
struct Decisions {
    observations: Vec<f32>,
    masks: Vec<bool>,
    actions: Vec<i64>,
    seats: Vec<i64>,
    kyokus: Vec<i64>,
    steps: Vec<i64>,
}

/// The text of `source`: a path (`str` or `os.PathLike`; `.gz` is gunzipped) to read, or the log itself
/// when it is a `str` that holds JSON (starts with `{` or spans several lines).
fn source_text(source: &Bound<'_, PyAny>) -> PyResult<(String, String)> {
    if let Ok(s) = source.cast::<PyString>() {
        let s = s.to_cow()?;
        let t = s.trim_start();
        if t.starts_with('{') || t.contains('\n') {
            return Ok((s.into_owned(), "<text>".to_string()));
        }
    }
    let path: PathBuf = source.extract().map_err(|_| {
        LogError::new_err("read_log takes a path (str or os.PathLike) or the log's JSON text")
    })?;
    let text = mahjong_logs::read_text(&path).map_err(|e| LogError::new_err(format!("{e:#}")))?;
    Ok((text, path.display().to_string()))
}

/// Reads the log `source` names (see [`source_text`]) in `format` (detected when
/// `None`) under `rules` (the log's own when `None`), with its name for messages.
fn load(
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    rules: Option<&str>,
) -> PyResult<(GameLog, String)> {
    let (text, name) = source_text(source)?;
    let format = match format {
        None => None,
        Some("tenhou") => Some(Format::Tenhou),
        Some("mjai") => Some(Format::Mjai),
        Some("mjlog") => Some(Format::Mjlog),
        Some(other) => {
            return Err(LogError::new_err(format!(
                "unknown log format {other:?} (tenhou, mjai or mjlog)"
            )))
        }
    };
    let rules = match rules {
        None => None,
        Some(r) => match engine::Rules::preset(r) {
            Some(p) if p.is_riichi() => Some(p),
            _ => {
                return Err(RulesError::new_err(format!(
                    "rules {r:?}: logs are played under the riichi presets (tenhou-4p, \
                     tenhou-sanma, majsoul-4p, majsoul-sanma and their -east forms)"
                )))
            }
        },
    };
    let log = mahjong_logs::read(&text, format, rules)
        .map_err(|e| LogError::new_err(format!("{name}: {e:#}")))?;
    Ok((log, name))
}

/// Replays every hand of `log`, keeping the decisions of `seat` (every seat when
/// `None`).
fn gather(log: &GameLog, seat: Option<u8>, encoding: Encoding) -> Result<Decisions, String> {
    let mut d = Decisions::default();
    let len = encoding.encoded_len();
    let mut buf = vec![0f32; len];
    let mut failure = None;
    for (index, k) in log.kyokus.iter().enumerate() {
        let rules = replay::table_rules(&log.rules, k);
        let result = replay::replay_kyoku(&rules, index, k, |game, step, s, action| {
            if seat.is_some_and(|want| want != s) || failure.is_some() {
                return;
            }
            let encoded = game
                .observation(s)
                .map_err(|e| format!("seat {s} has no observation: {e}"))
                .and_then(|obs| {
                    encoding
                        .encode(&obs, &mut buf)
                        .map_err(|e| format!("encoding: {e:?}"))
                });
            if let Err(e) = encoded {
                failure = Some(format!("{}: {e}", replay::label(k)));
                return;
            }
            d.observations.extend_from_slice(&buf);
            d.masks.extend_from_slice(&game.legal_actions(s).mask());
            d.actions.push(action.index() as i64);
            d.seats.push(i64::from(s));
            d.kyokus.push(index as i64);
            d.steps.push(step as i64);
        });
        if let Some(f) = failure.take() {
            return Err(f);
        }
        result.map_err(|m| m.to_string())?;
    }
    Ok(d)
}

/// Replays a game log and returns its decisions as NumPy arrays.
///
/// ``source`` is a path (``str`` or ``os.PathLike``) or the log's text (a ``str``
/// starting with ``{`` or holding several lines). ``format`` is ``"tenhou"`` or
/// ``"mjai"`` (detected when ``None``); ``rules`` a riichi preset name (from the log
/// when ``None``: Tenhou's ``rule.disp``, Mahjong Soul rooms included); ``seat`` keeps
/// one seat's decisions (every seat when ``None``).
///
/// Returns a dict: ``observations`` float32 ``(N, 35, F)`` (``F`` = 48, encoding v2,
/// under the riichi presets), ``legal_masks`` bool ``(N, NUM_ACTIONS)``, ``actions``
/// int64 ``(N,)`` (action indices, ``action_name`` spells them; always legal),
/// ``seats``, ``kyokus`` (hand index in the log), ``steps`` (the index of the log
/// step the decision precedes) int64 ``(N,)``, and ``rules``, ``players``,
/// ``encoding``, ``hands``. Raises ``LogError`` when the log cannot be read or does
/// not replay (naming the hand and step), ``RulesError`` for an unknown preset.
#[pyfunction]
#[pyo3(signature = (source, seat=None, format=None, rules=None))]
fn read_log<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    seat: Option<u8>,
    format: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let (log, name) = load(source, format, rules)?;
    if let Some(s) = seat {
        if s >= log.rules.players {
            return Err(LogError::new_err(format!(
                "seat {s}: the log has {} players",
                log.rules.players
            )));
        }
    }
    let encoding = Encoding::for_rules(&log.rules);
    let d = py
        .detach(|| gather(&log, seat, encoding))
        .map_err(|e| LogError::new_err(format!("{name}: the replay departs from the log: {e}")))?;
    let n = d.actions.len();
    let features = encoding.token_features();
    let shape_err = |e: numpy::ndarray::ShapeError| LogError::new_err(format!("shape: {e}"));
    let out = PyDict::new(py);
    out.set_item(
        "observations",
        Array3::from_shape_vec((n, NUM_TOKENS, features), d.observations)
            .map_err(shape_err)?
            .into_pyarray(py),
    )?;
    out.set_item(
        "legal_masks",
        Array2::from_shape_vec((n, NUM_ACTIONS), d.masks)
            .map_err(shape_err)?
            .into_pyarray(py),
    )?;
    out.set_item("actions", Array1::from_vec(d.actions).into_pyarray(py))?;
    out.set_item("seats", Array1::from_vec(d.seats).into_pyarray(py))?;
    out.set_item("kyokus", Array1::from_vec(d.kyokus).into_pyarray(py))?;
    out.set_item("steps", Array1::from_vec(d.steps).into_pyarray(py))?;
    out.set_item("rules", log.rules.preset_name().unwrap_or("custom"))?;
    out.set_item("players", log.rules.players)?;
    out.set_item("encoding", encoding.version())?;
    out.set_item("hands", log.kyokus.len())?;
    Ok(out)
}

/// Replays a Tenhou JSON, mjlog or mjai log exactly through the engine, as
/// `host-trainer replay-log` does: every logged action must be legal where it was
/// taken, and every hand's result and score deltas equal to the log's.
///
/// ``source``, ``format`` and ``rules`` as for :func:`read_log`. Returns a dict:
/// ``hands`` (replayed), ``decisions`` (applied, passes not counted), ``wins``
/// (compared), ``rules`` (the preset the log was read under: ``tenhou-*`` or
/// ``majsoul-*``), ``players``. Raises ``LogError`` naming the hand, the step and what differed at the
/// first departure, or when the log cannot be read.
#[pyfunction]
#[pyo3(signature = (source, format=None, rules=None))]
fn replay_log<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let (log, name) = load(source, format, rules)?;
    let summary = py
        .detach(|| replay::replay_log(&log))
        .map_err(|e| LogError::new_err(format!("{name}: the replay departs from the log: {e}")))?;
    let out = PyDict::new(py);
    out.set_item("hands", summary.kyokus)?;
    out.set_item("decisions", summary.decisions)?;
    out.set_item("wins", summary.wins)?;
    out.set_item("rules", log.rules.preset_name().unwrap_or("custom"))?;
    out.set_item("players", log.rules.players)?;
    Ok(out)
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_log, m)?)?;
    m.add_function(wrap_pyfunction!(replay_log, m)?)?;
    Ok(())
}
