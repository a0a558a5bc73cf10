//! The shipped policy (`models/default.onnx` and its sidecar `models/default.json`),
//! compiled into every binary that uses it, so that the default advice does not depend
//! on the working directory or on the checkout the binary was built from.
//! [`crate::Advisor::shipped`] loads it. Binaries that never call it lose the bytes to
//! the linker's garbage collection.

use crate::advisor::Advisor;
use crate::error::Result;
use crate::sidecar::Sidecar;

/// The ONNX file's bytes.
pub const ONNX: &[u8] = include_bytes!("../../models/default.onnx");

/// The sidecar's JSON.
pub const SIDECAR_JSON: &str = include_str!("../../models/default.json");

/// How the embedded model is named in messages and in `PolicySource::Model::path`.
pub const NAME: &str = "embedded default model";

/// The embedded sidecar, parsed and checked against the engine's encoding version (a
/// check that can only fail if the shipped files and the engine drift apart).
pub fn sidecar() -> Result<Sidecar> {
    let name = std::path::Path::new("embedded default model sidecar");
    let s = Sidecar::from_json(SIDECAR_JSON, name)?;
    s.check_encoding(name)?;
    Ok(s)
}

/// One embedded model.
struct Embedded {
    /// Its name in answers and errors.
    name: &'static str,
    onnx: &'static [u8],
    sidecar: &'static str,
}

/// Every shipped model, compiled in: the default (`sanma`, the seed's rules) and the
/// riichi models of `models/tenhou-sanma/` and `models/tenhou-4p/`.
const EMBEDDED: [Embedded; 3] = [
    Embedded {
        name: NAME,
        onnx: ONNX,
        sidecar: SIDECAR_JSON,
    },
    Embedded {
        name: "embedded tenhou-sanma model",
        onnx: include_bytes!("../../models/tenhou-sanma/model.onnx"),
        sidecar: include_str!("../../models/tenhou-sanma/model.json"),
    },
    Embedded {
        name: "embedded tenhou-4p model",
        onnx: include_bytes!("../../models/tenhou-4p/model.onnx"),
        sidecar: include_str!("../../models/tenhou-4p/model.json"),
    },
];

/// Whether a model trained under preset `model_rules` reads positions of `rules`: the
/// same players and tile set, and riichi rules only for a riichi model (whose encoding
/// carries their state and actions).
pub fn rules_fit(model_rules: &str, rules: &engine::Rules) -> bool {
    engine::Rules::preset(model_rules).is_some_and(|r| {
        r.players == rules.players
            && r.tile_set == rules.tile_set
            && r.is_riichi() == rules.is_riichi()
    })
}

/// The preset each shipped model was trained under, in order.
pub fn shipped_rules() -> Vec<String> {
    EMBEDDED
        .iter()
        .filter_map(|m| Sidecar::from_json(m.sidecar, std::path::Path::new(m.name)).ok())
        .map(|s| s.rules)
        .collect()
}

/// The error text every front-end gives when no shipped model fits: "no shipped model
/// fits WHAT (shipped: sanma, …)", `what` naming the rules and where they came from.
pub fn none_fits(what: &str) -> String {
    format!(
        "no shipped model fits {what} (shipped: {})",
        shipped_rules().join(", ")
    )
}

/// The shipped model that fits `rules` ([`rules_fit`]), loaded, or `None` when none
/// does. Loading checks the files as [`crate::Advisor::from_bytes`] does.
pub fn fitting(rules: &engine::Rules) -> Result<Option<crate::Advisor>> {
    for m in &EMBEDDED {
        let path = std::path::Path::new(m.name);
        if Sidecar::from_json(m.sidecar, path).is_ok_and(|s| rules_fit(&s.rules, rules)) {
            return crate::Advisor::from_bytes(m.onnx, m.sidecar, path).map(Some);
        }
    }
    Ok(None)
}

// Here rather than in advisor.rs: the shipped model depends on the advisor, not the
// advisor on the shipped model (the two would import each other).
impl Advisor {
    /// The model shipped in `models/default.onnx`, compiled into the binary (so advice
    /// works from any directory and after the binary is copied or installed). Its
    /// [`PolicySource::Model`](crate::PolicySource::Model) path is [`NAME`].
    pub fn shipped() -> Result<Advisor> {
        Advisor::from_parts(ONNX, sidecar()?, std::path::Path::new(NAME))
    }
}
