//! The [`Advisor`]: every legal action of a seat ranked, with the policy's probability,
//! the critic's value and the efficiency facts of each discard.

#[cfg(feature = "tract")]
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine::bots::{Agent, EfficiencyBot};
use engine::efficiency::value_scores;
use engine::encode::Encoding;
#[cfg(feature = "tract")]
use engine::encode::NUM_TOKENS;
use engine::game::{Action, LegalActions, Observation};
use engine::notation::Counts;
use engine::shanten::{min_shanten, Forms};
use engine::tile::{Tile, NUM_TILE_TYPES};
use serde::Serialize;
#[cfg(feature = "tract")]
use tract_onnx::prelude::*;

#[cfg(feature = "tract")]
use crate::error::panic_message;
use crate::error::{Error, Result};
#[cfg(feature = "tract")]
use crate::plain::probe_input;
use crate::plain::PlainForward;
use crate::reference::masked_softmax;
use crate::sidecar::Sidecar;

#[cfg(feature = "tract")]
type Plan = TypedRunnableModel;

#[cfg(feature = "tract")]
/// Probe inputs on which the plain pass must agree with tract before it is used.
const PROBES: u64 = 3;

/// What ranked the actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PolicySource {
    /// A learned policy loaded from an ONNX file (or the embedded shipped model).
    Model {
        /// The ONNX file, or [`crate::shipped::NAME`] for the embedded model.
        path: PathBuf,
        /// Its sidecar.
        sidecar: Sidecar,
    },
    /// No model: the engine's efficiency evaluator (value scores, the efficiency bot's
    /// choice first).
    EfficiencyOnly,
}

/// Efficiency facts of one discard, from the seat's view (ukeire counted over the
/// tiles it cannot see).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiscardFacts {
    /// Minimum shanten after the discard.
    pub shanten_after: i8,
    /// Tile types that would lower the shanten afterwards, as a bit mask over tile
    /// indices.
    pub ukeire_mask: u64,
    /// The same types in mpsz notation (one copy each), e.g. `"14m25p"`.
    pub ukeire_types: String,
    /// Number of those types.
    pub ukeire_type_count: u32,
    /// Unseen copies of those types.
    pub ukeire_tiles: u32,
    /// The engine's value score in `[0, 1]` (1 = the best discards).
    pub value_score: f32,
}

/// One legal action with its evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankedAction {
    /// The action.
    pub action: Action,
    /// Its index in the engine's action space.
    pub index: usize,
    /// Its kind: `discard`, `tsumo`, `closed_kan`, `added_kan`, `ron`, `pon`,
    /// `open_kan`, `chi` or `pass`.
    pub kind: &'static str,
    /// The tile it concerns, in mpsz (`"5p"`; for chi the lowest tile), if any.
    pub tile: Option<String>,
    /// The tile's Unicode glyph, if any.
    pub glyph: Option<String>,
    /// Masked-softmax probability under the policy (`None` in efficiency-only mode).
    pub probability: Option<f32>,
    /// Efficiency facts, for discards.
    pub discard: Option<DiscardFacts>,
}

/// The advice for one observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    /// What ranked the actions.
    pub source: PolicySource,
    /// A human-readable note on the source (e.g. that no model was used).
    pub note: String,
    /// The critic's value estimate (`None` in efficiency-only mode).
    pub value: Option<f32>,
    /// Minimum shanten of the closed hand as it is now.
    pub shanten: i8,
    /// The closed hand in mpsz.
    pub hand: String,
    /// Every legal action, best first.
    pub actions: Vec<RankedAction>,
}

impl Advice {
    /// The top-ranked action, if any action is legal.
    pub fn best(&self) -> Option<Action> {
        self.actions.first().map(|a| a.action)
    }
}

struct Model {
    /// Symbolic batch size.
    #[cfg(feature = "tract")]
    plan: Arc<Plan>,
    /// Batch size 1.
    #[cfg(feature = "tract")]
    single: Arc<Plan>,
    /// Batch size 1 without tract, when the graph is the exporter's and agreed with
    /// tract at load time ([`crate::plain`]).
    plain: Option<Arc<PlainForward>>,
    path: PathBuf,
    sidecar: Sidecar,
    /// The observation encoding it reads (from the sidecar).
    encoding: Encoding,
}

/// Ranks a seat's legal actions. Cheap to clone (the tract plan is shared in an
/// `Arc`); `Send + Sync`, so one advisor serves many threads.
#[derive(Clone)]
pub struct Advisor {
    model: Option<Arc<Model>>,
}

impl std::fmt::Debug for Advisor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.model {
            Some(m) => write!(f, "Advisor(model {})", m.path.display()),
            None => write!(f, "Advisor(efficiency only)"),
        }
    }
}

fn kind_and_tile(a: Action) -> (&'static str, Option<Tile>) {
    match a {
        Action::Discard(t) => ("discard", Some(t)),
        Action::Tsumo => ("tsumo", None),
        Action::ClosedKan(t) => ("closed_kan", Some(t)),
        Action::AddedKan(t) => ("added_kan", Some(t)),
        Action::Ron => ("ron", None),
        Action::Pon => ("pon", None),
        Action::OpenKan => ("open_kan", None),
        Action::Chi(t) => ("chi", Some(t)),
        Action::Pass => ("pass", None),
        Action::Riichi(t) => ("riichi", Some(t)),
        Action::Kita => ("kita", None),
        Action::NineTerminals => ("nine_terminals", None),
    }
}

/// Tile types of a bit mask in mpsz, one copy each.
pub fn mask_to_mpsz(mask: u64) -> String {
    let mut counts = [0u8; NUM_TILE_TYPES];
    for (i, c) in counts.iter_mut().enumerate() {
        *c = ((mask >> i) & 1) as u8;
    }
    Counts(&counts).to_string()
}

#[cfg(feature = "tract")]
fn tract_err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Checks the ONNX metadata's encoding version (when present) against the sidecar's.
fn check_metadata<P: MetadataEntry>(
    props: &[P],
    encoding: Encoding,
    model_err: &dyn Fn(String) -> Error,
) -> Result<()> {
    if let Some(v) = props.iter().find(|p| p.key() == "mahjong.encoding_version") {
        let model: u32 = v
            .value()
            .parse()
            .map_err(|_| model_err(format!("bad encoding_version metadata {:?}", v.value())))?;
        if model != encoding.version() {
            return Err(model_err(format!(
                "the ONNX file is for encoding version {model}, its sidecar says {}",
                encoding.version()
            )));
        }
    }
    Ok(())
}

/// A metadata entry of either protobuf schema (tract's or [`crate::onnx_proto`]).
trait MetadataEntry {
    fn key(&self) -> &str;
    fn value(&self) -> &str;
}

impl MetadataEntry for crate::onnx_proto::StringStringEntryProto {
    fn key(&self) -> &str {
        &self.key
    }
    fn value(&self) -> &str {
        &self.value
    }
}

#[cfg(feature = "tract")]
impl MetadataEntry for tract_onnx::pb::StringStringEntryProto {
    fn key(&self) -> &str {
        &self.key
    }
    fn value(&self) -> &str {
        &self.value
    }
}

impl Advisor {
    /// An advisor without a model: discards are ranked by the engine's value scores
    /// and the efficiency bot's choice comes first.
    pub fn efficiency_only() -> Advisor {
        Advisor { model: None }
    }

    /// Loads `path` (ONNX) and its sidecar `path` with extension `.json`, checks the
    /// encoding version (sidecar and ONNX metadata) against the engine's, and builds
    /// the optimised tract plan once. Missing, corrupt or truncated files and models of
    /// another shape are errors, never panics.
    pub fn load(path: &Path) -> Result<Advisor> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.into(),
            action: "reading the model",
            source,
        })?;
        let sidecar = Sidecar::load(&Sidecar::path_for(path))?;
        Advisor::from_parts(&bytes, sidecar, path)
    }

    /// An advisor from an ONNX file's bytes and its sidecar's JSON, e.g. both embedded
    /// with `include_bytes!`; `name` only names the model in errors and in
    /// [`PolicySource::Model`]. The same checks as [`Advisor::load`].
    pub fn from_bytes(onnx: &[u8], sidecar_json: &str, name: &Path) -> Result<Advisor> {
        let sidecar_name = Sidecar::path_for(name);
        let sidecar = Sidecar::from_json(sidecar_json, &sidecar_name)?;
        sidecar.check_encoding(&sidecar_name)?;
        Advisor::from_parts(onnx, sidecar, name)
    }

    /// Builds the plans of a model whose sidecar is already validated.
    #[cfg(feature = "tract")]
    pub(crate) fn from_parts(bytes: &[u8], sidecar: Sidecar, path: &Path) -> Result<Advisor> {
        let model_err = |detail: String| Error::Model {
            path: path.into(),
            detail,
        };
        let encoding = sidecar.encoding()?;
        type Plans = (Arc<Plan>, Arc<Plan>, Option<PlainForward>);
        let (plan, single, plain) = catch_unwind(AssertUnwindSafe(|| -> Result<Plans> {
            let onnx = tract_onnx::onnx();
            let proto = onnx.proto_model_for_read(&mut &bytes[..]).map_err(|e| {
                model_err(format!(
                    "not a valid ONNX file (corrupt or truncated?): {}",
                    tract_err(e)
                ))
            })?;
            check_metadata(&proto.metadata_props, encoding, &model_err)?;
            let plan = onnx
                .model_for_proto_model(&proto)
                .and_then(|m| m.into_optimized())
                .and_then(|m| m.into_runnable())
                .map_err(|e| model_err(format!("cannot build the model: {e:#}")))?;
            // A second plan specialised to one observation: fixed shapes let tract pick
            // its kernels once, which is what single-position advice wants.
            let single = onnx
                .model_for_proto_model(&proto)
                .and_then(|m| {
                    m.with_input_fact(
                        0,
                        InferenceFact::dt_shape(
                            DatumType::F32,
                            [1usize, NUM_TOKENS, encoding.token_features()],
                        ),
                    )
                })
                .and_then(|m| m.into_optimized())
                .and_then(|m| m.into_runnable())
                .map_err(|e| model_err(format!("cannot build the model: {e:#}")))?;
            let plain = PlainForward::from_onnx(&proto, &sidecar.model, encoding).ok();
            Ok((plan, single, plain))
        }))
        .map_err(|_| model_err("the ONNX loader failed on this file (corrupt?)".into()))??;
        let model = Model {
            plan,
            single,
            plain: None,
            path: path.into(),
            sidecar,
            encoding,
        };
        let mut advisor = Advisor {
            model: Some(Arc::new(model)),
        };
        advisor.check_outputs(path)?;
        // Only a graph of the expected shapes is compared with the plain pass.
        if let Some(plain) = plain {
            advisor = advisor.with_plain_if_it_agrees(plain)?;
        }
        Ok(advisor)
    }

    /// The model read by the plain pass alone (built without the `tract` feature): the
    /// exporter's graphs only, with the same checks otherwise.
    #[cfg(not(feature = "tract"))]
    pub(crate) fn from_parts(bytes: &[u8], sidecar: Sidecar, path: &Path) -> Result<Advisor> {
        let model_err = |detail: String| Error::Model {
            path: path.into(),
            detail,
        };
        let encoding = sidecar.encoding()?;
        let proto = crate::onnx_proto::decode(bytes).map_err(|e| {
            model_err(format!(
                "not a valid ONNX file (corrupt or truncated?): {e}"
            ))
        })?;
        check_metadata(&proto.metadata_props, encoding, &model_err)?;
        let plain = PlainForward::from_onnx(&proto, &sidecar.model, encoding).map_err(|e| {
            model_err(format!(
                "not a graph of the exporter's shape ({e}); this build reads no other \
                 (the `tract` feature does)"
            ))
        })?;
        let model = Model {
            plain: Some(Arc::new(plain)),
            path: path.into(),
            sidecar,
            encoding,
        };
        let advisor = Advisor {
            model: Some(Arc::new(model)),
        };
        advisor.check_outputs(path)?;
        Ok(advisor)
    }

    /// A probe run proves the graph has our input and output shapes.
    fn check_outputs(&self, path: &Path) -> Result<()> {
        let Some(encoding) = self.encoding() else {
            return Ok(());
        };
        let (logits, values) = self
            .evaluate(&vec![0f32; encoding.encoded_len()])
            .map_err(|e| Error::Model {
                path: path.into(),
                detail: format!("not a policy model of the expected shape: {e}"),
            })?;
        if logits.len() != encoding.policy_actions() || values.len() != 1 {
            return Err(Error::Model {
                path: path.into(),
                detail: format!(
                    "outputs have {} logits and {} values",
                    logits.len(),
                    values.len()
                ),
            });
        }
        Ok(())
    }

    /// This advisor with `plain` as its batch-1 pass if it gives tract's outputs on
    /// probe inputs (within 1e-3, relative above 1); unchanged otherwise.
    #[cfg(feature = "tract")]
    fn with_plain_if_it_agrees(self, plain: PlainForward) -> Result<Advisor> {
        let Some(model) = &self.model else {
            return Ok(self);
        };
        let len = model.encoding.encoded_len();
        for seed in 0..PROBES {
            let obs = probe_input(len, seed);
            let (logits, values) = self.evaluate(&obs)?;
            let Ok((l, v)) = plain.forward(&obs) else {
                return Ok(self);
            };
            let close = |a: f32, b: f32| (a - b).abs() <= 1e-3 * (1.0 + b.abs());
            if l.len() != logits.len()
                || !l.iter().zip(&logits).all(|(&a, &b)| close(a, b))
                || !close(v, values[0])
            {
                return Ok(self);
            }
        }
        Ok(self.with_plain(Some(Arc::new(plain))))
    }

    /// A copy whose batch-1 pass is `plain` (`None`: tract for every batch).
    #[cfg(feature = "tract")]
    fn with_plain(&self, plain: Option<Arc<PlainForward>>) -> Advisor {
        let model = self.model.as_ref().map(|m| {
            Arc::new(Model {
                plan: m.plan.clone(),
                single: m.single.clone(),
                plain,
                path: m.path.clone(),
                sidecar: m.sidecar.clone(),
                encoding: m.encoding,
            })
        });
        Advisor { model }
    }

    /// The same advisor with every forward pass run by tract (the reference of the
    /// plain pass in the latency bench and the tests).
    #[cfg(feature = "tract")]
    pub fn tract_only(&self) -> Advisor {
        self.with_plain(None)
    }

    /// Whether single observations are evaluated by the plain `f32` pass
    /// ([`crate::plain`]) rather than tract.
    pub fn uses_plain_forward(&self) -> bool {
        self.model.as_ref().is_some_and(|m| m.plain.is_some())
    }

    /// Whether a model is loaded.
    pub fn has_model(&self) -> bool {
        self.model.is_some()
    }

    /// The model's sidecar, if a model is loaded.
    pub fn sidecar(&self) -> Option<&Sidecar> {
        self.model.as_ref().map(|m| &m.sidecar)
    }

    /// The observation encoding of the loaded model, if any.
    pub fn encoding(&self) -> Option<Encoding> {
        self.model.as_ref().map(|m| m.encoding)
    }

    /// What ranks the actions.
    pub fn source(&self) -> PolicySource {
        match &self.model {
            Some(m) => PolicySource::Model {
                path: m.path.clone(),
                sidecar: m.sidecar.clone(),
            },
            None => PolicySource::EfficiencyOnly,
        }
    }

    /// Raw outputs for a batch of flat encodings in the model's encoding (`B · 1260`
    /// floats in v1, `B · 1680` in v2): logits `[B · 141]` (v2: `[B · 177]`) and values
    /// `[B]`. Errors in efficiency-only mode.
    pub fn evaluate(&self, obs: &[f32]) -> Result<(Vec<f32>, Vec<f32>)> {
        let model = self
            .model
            .as_ref()
            .ok_or_else(|| Error::Inference("no model loaded (efficiency-only advisor)".into()))?;
        let len = model.encoding.encoded_len();
        if obs.is_empty() || obs.len() % len != 0 {
            return Err(Error::Inference(format!(
                "batch of {} floats is not a positive multiple of {len}",
                obs.len()
            )));
        }
        let b = obs.len() / len;
        if let (1, Some(plain)) = (b, &model.plain) {
            let (logits, value) = plain.forward(obs).map_err(Error::Inference)?;
            return Ok((logits, vec![value]));
        }
        self.evaluate_batch(model, obs, b)
    }

    /// A batch without tract: the plain pass row by row.
    #[cfg(not(feature = "tract"))]
    fn evaluate_batch(
        &self,
        model: &Model,
        obs: &[f32],
        _b: usize,
    ) -> Result<(Vec<f32>, Vec<f32>)> {
        let plain = model
            .plain
            .as_ref()
            .ok_or_else(|| Error::Inference("no forward pass".into()))?;
        let mut logits = Vec::new();
        let mut values = Vec::new();
        for row in obs.chunks_exact(model.encoding.encoded_len()) {
            let (l, v) = plain.forward(row).map_err(Error::Inference)?;
            logits.extend(l);
            values.push(v);
        }
        Ok((logits, values))
    }

    /// A batch through tract (batch 1 through its fixed-shape plan).
    #[cfg(feature = "tract")]
    fn evaluate_batch(&self, model: &Model, obs: &[f32], b: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        let features = model.encoding.token_features();
        let run = || -> TractResult<(Vec<f32>, Vec<f32>)> {
            let input = tract_onnx::prelude::Tensor::from_shape(&[b, NUM_TOKENS, features], obs)?;
            let plan = if b == 1 { &model.single } else { &model.plan };
            let out = plan.run(tvec!(input.into()))?;
            let logits = out
                .first()
                .ok_or_else(|| TractError::msg("no logits output"))?;
            let values = out
                .get(1)
                .ok_or_else(|| TractError::msg("no value output"))?;
            Ok((
                logits.try_as_plain_ram()?.as_slice::<f32>()?.to_vec(),
                values.try_as_plain_ram()?.as_slice::<f32>()?.to_vec(),
            ))
        };
        let (logits, values) = catch_unwind(AssertUnwindSafe(run))
            .map_err(|p| {
                Error::Inference(format!("tract panicked: {}", panic_message(p.as_ref())))
            })?
            .map_err(|e| Error::Inference(format!("{e:#}")))?;
        if logits.len() != b * model.encoding.policy_actions() || values.len() != b {
            return Err(Error::Inference(format!(
                "model returned {} logits and {} values for a batch of {b}",
                logits.len(),
                values.len()
            )));
        }
        Ok((logits, values))
    }

    /// Advice for `obs`, with the legal actions derived from the observation
    /// ([`engine::game::legal_actions_of`]; an error when it is not a position of its
    /// rules).
    pub fn advise(&self, obs: &Observation) -> Result<Advice> {
        let legal = engine::game::legal_actions_of(obs)
            .map_err(|e| Error::Position(format!("no legal actions: {e}")))?;
        self.advise_with_legal(obs, legal.as_slice())
    }

    /// Advice for `obs` when the caller knows the legal actions (a game server:
    /// `game.legal_actions(seat).as_slice()`): every legal action with its efficiency
    /// facts, ranked by the model's probabilities (or, without a model, the efficiency
    /// bot's choice first and then by value score).
    pub fn advise_with_legal(&self, obs: &Observation, legal: &[Action]) -> Result<Advice> {
        let s = obs.seat as usize;
        let melds = obs.melds.get(s).map_or(0, |m| m.len() as u8).min(4);
        let forms = Forms::from_rules(&obs.rules);
        let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
        let shanten = if tiles > 0 && tiles <= 14 {
            min_shanten(&obs.hand, melds, obs.rules.tile_set, forms)
        } else {
            engine::shanten::NOT_APPLICABLE
        };
        let any_discard = legal.iter().any(|a| matches!(a, Action::Discard(_)));
        let scores = any_discard
            .then(|| value_scores(&obs.hand, melds, obs.rules.tile_set, forms, &obs.unseen));
        let mut actions: Vec<RankedAction> = legal
            .iter()
            .map(|&a| ranked_action(a, scores.as_ref()))
            .collect();
        let hand = hand_text(obs);
        let Some(m) = &self.model else {
            rank_by_efficiency(obs, legal, &mut actions);
            return Ok(Advice {
                source: PolicySource::EfficiencyOnly,
                note: "no model: ranked by the engine's efficiency evaluator (value scores; \
                       the efficiency bot's choice first); no probabilities or value"
                    .into(),
                value: None,
                shanten,
                hand,
                actions,
            });
        };
        m.check_fits(obs)?;
        let mut x = vec![0f32; m.encoding.encoded_len()];
        m.encoding
            .encode_with_scores(obs, scores.as_ref(), &mut x)
            .map_err(|e| Error::Inference(e.to_string()))?;
        let (logits, values) = self.evaluate(&x)?;
        let mut mask = vec![false; m.encoding.policy_actions()];
        for a in legal {
            if let Some(x) = mask.get_mut(a.index()) {
                *x = true;
            }
        }
        let p = masked_softmax(&logits, &mask);
        for r in actions.iter_mut() {
            r.probability = p.get(r.index).copied();
        }
        actions.sort_by(|a, b| {
            b.probability
                .unwrap_or(0.0)
                .total_cmp(&a.probability.unwrap_or(0.0))
                .then(a.index.cmp(&b.index))
        });
        Ok(Advice {
            source: self.source(),
            note: format!(
                "policy {} (run {}, parameters v{})",
                m.path.display(),
                m.sidecar.run_id,
                m.sidecar.parameter_version
            ),
            value: values.first().copied(),
            shanten,
            hand,
            actions,
        })
    }
}

impl Model {
    /// The model can read `obs`: its tile types and its rules' encoding.
    fn check_fits(&self, obs: &Observation) -> Result<()> {
        let tokens = self.sidecar.model.tokens;
        if obs.rules.tile_set.tiles().any(|t| !tokens.contains(t)) {
            return Err(Error::Inference(format!(
                "the model reads the tile types of the {tokens:?} set only, and \
                 this position's rules have others ({:?} tiles)",
                obs.rules.tile_set
            )));
        }
        if !self.encoding.fits(&obs.rules) {
            return Err(Error::Inference(format!(
                "the model reads observation encoding version {}, which has no \
                 riichi state or riichi actions, and this position is under riichi \
                 rules (a model trained on a riichi preset reads version 2)",
                self.encoding.version()
            )));
        }
        Ok(())
    }
}

/// One legal action with its efficiency facts (a discard of a held tile), unranked.
fn ranked_action(a: Action, scores: Option<&engine::efficiency::ValueScores>) -> RankedAction {
    let (kind, tile) = kind_and_tile(a);
    let discard = match (a, scores) {
        (Action::Discard(t), Some(v)) if v.held >> t.index() & 1 == 1 => {
            let k = t.index();
            Some(DiscardFacts {
                shanten_after: v.shanten_after[k],
                ukeire_mask: v.ukeire_types[k],
                ukeire_types: mask_to_mpsz(v.ukeire_types[k]),
                ukeire_type_count: v.ukeire_types[k].count_ones(),
                ukeire_tiles: v.ukeire_tiles[k] as u32,
                value_score: v.score[k],
            })
        }
        _ => None,
    };
    RankedAction {
        action: a,
        index: a.index(),
        kind,
        tile: tile.map(|t| t.to_string()),
        glyph: tile.map(|t| t.glyph().to_string()),
        probability: None,
        discard,
    }
}

/// The hand as the player holds it: a red five stays `0` (`0p5p`, not `55p`).
fn hand_text(obs: &Observation) -> String {
    match &obs.riichi {
        Some(r) => engine::notation::CountsWithReds(&engine::notation::HandWithReds {
            counts: obs.hand,
            red_fives: r.red_hand,
        })
        .to_string(),
        None => Counts(&obs.hand).to_string(),
    }
}

/// Without a model: the efficiency bot's choice first, then discards by value score.
fn rank_by_efficiency(obs: &Observation, legal: &[Action], actions: &mut [RankedAction]) {
    let choice = if legal.is_empty() {
        None
    } else {
        let l: LegalActions = legal.iter().copied().collect();
        Some(EfficiencyBot.act(obs, &l))
    };
    let score = |r: &RankedAction| r.discard.as_ref().map_or(-1.0, |d| d.value_score);
    actions.sort_by(|a, b| {
        (Some(b.action) == choice)
            .cmp(&(Some(a.action) == choice))
            .then(score(b).total_cmp(&score(a)))
            .then(a.index.cmp(&b.index))
    });
}
