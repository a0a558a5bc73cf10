//! The advisors: `Advisor` (the learned policy through tract, or efficiency only) and
//! `search_advise` (determinized Monte-Carlo rollouts, the search crate).

use std::path::Path;

use engine::encode::{ENCODED_LEN, NUM_TOKENS, TOKEN_FEATURES};
use engine::game::POLICY_ACTIONS_V1;
use inference::{Advice, Advisor, PolicySource};
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use search::{Belief, SearchConfig};

use crate::errors::{illegal, ModelError, SearchError};
use crate::game::{seat_arg, PyGame};

fn model_err(e: inference::Error) -> PyErr {
    ModelError::new_err(format!("{e:#}"))
}

fn advice_dict<'py>(py: Python<'py>, a: &Advice) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let source = match &a.source {
        PolicySource::Model { path, .. } => path.display().to_string(),
        PolicySource::EfficiencyOnly => "efficiency".to_string(),
    };
    d.set_item("source", source)?;
    d.set_item("note", &a.note)?;
    d.set_item("value", a.value)?;
    d.set_item("shanten", a.shanten)?;
    d.set_item("hand", &a.hand)?;
    let actions = PyList::empty(py);
    for r in &a.actions {
        let e = PyDict::new(py);
        e.set_item("action", r.index)?;
        e.set_item("name", search::action_label(r.action))?;
        e.set_item("kind", r.kind)?;
        e.set_item("tile", &r.tile)?;
        e.set_item("probability", r.probability)?;
        if let Some(f) = &r.discard {
            let fd = PyDict::new(py);
            fd.set_item("shanten_after", f.shanten_after)?;
            fd.set_item("ukeire_types", &f.ukeire_types)?;
            fd.set_item("ukeire_tiles", f.ukeire_tiles)?;
            fd.set_item("value_score", f.value_score)?;
            e.set_item("discard", fd)?;
        } else {
            e.set_item("discard", py.None())?;
        }
        actions.append(e)?;
    }
    d.set_item("actions", actions)?;
    d.set_item("best", a.best().map(|b| b.index()))?;
    Ok(d)
}

/// Ranks a seat's legal actions: `Advisor()` is the shipped default policy,
/// `Advisor(rules="tenhou-4p")` the shipped policy that fits a preset, `Advisor(path)` an
/// exported ONNX model with its sidecar, `Advisor(efficiency_only=True)` the engine's
/// efficiency evaluator. Thread-safe; the GIL is released while it runs.
#[pyclass(module = "mahjong_engine._native", name = "Advisor", frozen)]
pub struct PyAdvisor {
    advisor: Advisor,
}

#[pymethods]
impl PyAdvisor {
    #[new]
    #[pyo3(signature = (model_path = None, efficiency_only = false, rules = None))]
    fn new(
        py: Python<'_>,
        model_path: Option<&str>,
        efficiency_only: bool,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        if let Some(name) = rules {
            if model_path.is_some() || efficiency_only {
                return Err(ModelError::new_err(
                    "rules= picks a shipped model: it excludes model_path and efficiency_only",
                ));
            }
            let r = crate::rules::preset(name)?;
            let advisor = py
                .detach(|| inference::shipped::fitting(&r))
                .map_err(model_err)?
                .ok_or_else(|| {
                    ModelError::new_err(inference::shipped::none_fits(&format!(
                        "the rules {name:?}"
                    )))
                })?;
            return Ok(PyAdvisor { advisor });
        }
        let advisor = match (model_path, efficiency_only) {
            (Some(_), true) => {
                return Err(ModelError::new_err(
                    "model_path and efficiency_only=True exclude each other",
                ))
            }
            (_, true) => Advisor::efficiency_only(),
            (Some(p), false) => py
                .detach(|| Advisor::load(Path::new(p)))
                .map_err(model_err)?,
            (None, false) => py.detach(Advisor::shipped).map_err(model_err)?,
        };
        Ok(PyAdvisor { advisor })
    }

    /// Whether a learned model is loaded (False in efficiency-only mode).
    #[getter]
    fn has_model(&self) -> bool {
        self.advisor.has_model()
    }

    /// The model's sidecar as a dict (encoding version, rules, run, shape), or None.
    fn sidecar<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(s) = self.advisor.sidecar() else {
            return Ok(None);
        };
        let text = serde_json::to_string(s).map_err(|e| ModelError::new_err(e.to_string()))?;
        let json = py.import("json")?;
        Ok(Some(json.call_method1("loads", (text,))?))
    }

    /// Advice for `seat` of `game`: `{"best", "actions": [{"action", "name",
    /// "probability", "discard": {...}}, ...], "value", "shanten", "hand", "source"}`,
    /// best first.
    fn advise<'py>(
        &self,
        py: Python<'py>,
        game: &PyGame,
        seat: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = seat_arg(&game.s.game, seat)?;
        let obs = game
            .s
            .game
            .observation(seat)
            .map_err(|e| illegal(e, seat, "advise"))?;
        let legal = game.s.game.legal_actions(seat);
        let advisor = &self.advisor;
        let advice = py
            .detach(|| advisor.advise_with_legal(&obs, legal.as_slice()))
            .map_err(model_err)?;
        advice_dict(py, &advice)
    }

    /// Raw network outputs for encoded observations (float32, shape `(B, tokens,
    /// features)` or `(B, tokens * features)`): logits `(B, POLICY_ACTIONS_V1)` (unmasked;
    /// an encoding-v1 model has no logit for the riichi actions) and values `(B,)`.
    #[allow(clippy::type_complexity)]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArrayDyn<'py, f32>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
        let shape = observations.shape().to_vec();
        let ok = match shape.as_slice() {
            [_, f] => *f == ENCODED_LEN,
            [_, t, f] => *t == NUM_TOKENS && *f == TOKEN_FEATURES,
            _ => false,
        };
        if !ok || shape[0] == 0 {
            return Err(ModelError::new_err(format!(
                "observations of shape {shape:?}: expected (B, {NUM_TOKENS}, {TOKEN_FEATURES}) \
                 or (B, {ENCODED_LEN}) with B > 0"
            )));
        }
        let flat: Vec<f32> = observations.as_array().iter().copied().collect();
        let advisor = &self.advisor;
        let (logits, values) = py.detach(|| advisor.evaluate(&flat)).map_err(model_err)?;
        let b = shape[0];
        let logits = Array2::from_shape_vec((b, POLICY_ACTIONS_V1), logits)
            .map_err(|e| ModelError::new_err(e.to_string()))?;
        Ok((
            logits.into_pyarray(py),
            Array1::from_vec(values).into_pyarray(py),
        ))
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.advisor)
    }
}

/// Searches `seat`'s decision in `game` by determinized rollouts (the same search as
/// `host-trainer advise --search`): worlds dealt from the seat's observation only,
/// rollouts by the efficiency bot. Returns `{"chosen", "policy", "candidates": [{"action",
/// "name", "value", "se", "versus_policy", "versus_policy_se", "win", "deal_in"}, ...],
/// "worlds", "elapsed_ms", "stopped_early"}`. Deterministic for a given seed when
/// `budget_ms` is None.
#[pyfunction]
#[pyo3(signature = (game, seat, budget_ms = Some(100.0), rollouts = 2000, seed = 0, belief = "weighted", top_k = 5))]
#[allow(clippy::too_many_arguments)]
fn search_advise<'py>(
    py: Python<'py>,
    game: &PyGame,
    seat: i64,
    budget_ms: Option<f64>,
    rollouts: u32,
    seed: u64,
    belief: &str,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let seat = seat_arg(&game.s.game, seat)?;
    let belief = Belief::parse(belief).map_err(|e| SearchError::new_err(format!("{e:#}")))?;
    let rules = *game.s.game.rules();
    let obs = game
        .s
        .game
        .observation(seat)
        .map_err(|e| illegal(e, seat, "search"))?;
    let legal = game.s.game.legal_actions(seat);
    let result = py.detach(|| {
        let mut cfg = SearchConfig::new(&rules)?;
        cfg.budget_ms = budget_ms;
        cfg.rollouts = rollouts;
        cfg.seed = seed;
        cfg.belief = belief;
        cfg.top_k = top_k;
        // Advice ranks every candidate on every world.
        cfg.prune_z = None;
        search::search(&obs, &legal, &cfg)
    });
    let r = result.map_err(|e| SearchError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    d.set_item("chosen", r.chosen.index())?;
    d.set_item("policy", r.policy.index())?;
    let cands = PyList::empty(py);
    for c in &r.candidates {
        let e = PyDict::new(py);
        e.set_item("action", c.action.index())?;
        e.set_item("name", &c.label)?;
        e.set_item("value", c.value.mean)?;
        e.set_item("se", c.value.se)?;
        e.set_item("versus_policy", c.versus_policy.mean)?;
        e.set_item("versus_policy_se", c.versus_policy.se)?;
        e.set_item("win", c.win.mean)?;
        e.set_item("deal_in", c.deal_in.mean)?;
        cands.append(e)?;
    }
    d.set_item("candidates", cands)?;
    d.set_item("worlds", r.worlds)?;
    d.set_item("elapsed_ms", r.elapsed_ms)?;
    d.set_item("stopped_early", r.stopped_early)?;
    Ok(d)
}

/// Adds the class and function to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAdvisor>()?;
    m.add_function(wrap_pyfunction!(search_advise, m)?)?;
    Ok(())
}
