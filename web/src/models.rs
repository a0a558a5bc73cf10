//! The shipped models, compiled in, and the choice of the one that fits a rule set (what
//! `advise` does with its embedded default: a model whose sidecar's preset has the
//! position's player count, tile set and riichi-ness; none fits → efficiency only).

use std::cell::RefCell;
use std::path::Path;

use anyhow::{Context, Result};
use engine::Rules;
use inference::Advisor;

/// One embedded model.
struct Embedded {
    /// Its name in answers (`models/…`).
    name: &'static str,
    onnx: &'static [u8],
    sidecar: &'static str,
}

/// Every shipped model: the default (`sanma`, the seed's rules) and the `tenhou-sanma`
/// model (`models/tenhou-sanma/`).
const EMBEDDED: [Embedded; 2] = [
    Embedded {
        name: inference::shipped::NAME,
        onnx: inference::shipped::ONNX,
        sidecar: inference::shipped::SIDECAR_JSON,
    },
    Embedded {
        name: "models/tenhou-sanma/model.onnx",
        onnx: include_bytes!("../../models/tenhou-sanma/model.onnx"),
        sidecar: include_str!("../../models/tenhou-sanma/model.json"),
    },
];

/// Whether a model trained under preset `model_rules` reads positions of `rules` (the
/// CLI's `advise` rule).
pub fn rules_fit(model_rules: &str, rules: &Rules) -> bool {
    Rules::preset(model_rules).is_some_and(|r| {
        r.players == rules.players
            && r.tile_set == rules.tile_set
            && r.is_riichi() == rules.is_riichi()
    })
}

thread_local! {
    /// Loaded advisors, by index into [`EMBEDDED`] (loading checks the plain pass
    /// against tract once; the page asks many times).
    static LOADED: RefCell<Vec<Option<Advisor>>> = RefCell::new(vec![None; EMBEDDED.len()]);
}

/// The preset name each shipped model was trained under, in order.
pub fn shipped_rules() -> Vec<String> {
    EMBEDDED
        .iter()
        .filter_map(|m| inference::Sidecar::from_json(m.sidecar, Path::new(m.name)).ok())
        .map(|s| s.rules)
        .collect()
}

/// The shipped model that fits `rules`, loaded (once per thread), or `None`.
pub fn fitting(rules: &Rules) -> Result<Option<Advisor>> {
    for (i, m) in EMBEDDED.iter().enumerate() {
        let sidecar = inference::Sidecar::from_json(m.sidecar, Path::new(m.name))
            .with_context(|| format!("the sidecar of {}", m.name))?;
        if !rules_fit(&sidecar.rules, rules) {
            continue;
        }
        if let Some(a) = LOADED.with(|l| l.borrow()[i].clone()) {
            return Ok(Some(a));
        }
        let a = Advisor::from_bytes(m.onnx, m.sidecar, Path::new(m.name))
            .with_context(|| format!("loading {}", m.name))?;
        LOADED.with(|l| l.borrow_mut()[i] = Some(a.clone()));
        return Ok(Some(a));
    }
    Ok(None)
}
