//! Writes the policy network as a standard ONNX model (opset 17, GELU as `Erf`), built
//! node by node from [`Weights`] with the protobuf types of `tract_onnx::pb` and
//! encoded with prost.
//!
//! # Graph contract
//! ```text
//! input   obs    float32 [B, 35, F]    B symbolic ("B"); engine::encode layout
//!                                       (F = 36 in encoding v1, 48 in v2)
//! output  logits float32 [B, A]        raw, unmasked; index = engine action index
//!                                       (A = 141 in v1, 177 in v2)
//! output  value  float32 [B]           the critic
//! ```
//! The legal-action mask is applied by the caller (see [`crate::masked_softmax`]).
//!
//! The graph mirrors the trainer's model: `MatMul` + `Add` for every linear layer
//! (weights transposed to `[in, out]` initializers), `LayerNormalization`
//! (epsilon 1e-5), attention with the `qkv` projection split into its q, k and v
//! thirds (identical to the trainer's `view([B,T,3,H,dh])`), `Softmax` over the last
//! axis, exact GELU as `0.5·x·(1 + erf(x/√2))`.

use std::path::Path;

use engine::encode::{Encoding, NUM_TILE_TOKENS, NUM_TOKENS};
use prost::Message;
use tract_onnx::pb;

use crate::error::{Error, Result};
use crate::sidecar::Sidecar;
use crate::weights::{
    head_widths, Weights, ABSENT_LOGIT, CALL_ACTIONS, LAYER_NORM_EPS, TILE_ACTIONS,
};

pub use crate::sidecar::OPSET;
/// The ONNX IR version written (IR 8 goes with opset 17).
pub const IR_VERSION: i64 = 8;
/// Name of the symbolic batch dimension.
pub const BATCH_DIM: &str = "B";
/// Input name.
pub const INPUT: &str = "obs";
/// Logits output name.
pub const OUTPUT_LOGITS: &str = "logits";
/// Value output name.
pub const OUTPUT_VALUE: &str = "value";

const FLOAT: i32 = pb::tensor_proto::DataType::Float as i32;
const INT64: i32 = pb::tensor_proto::DataType::Int64 as i32;

/// Accumulates nodes and initializers with unique names.
struct Builder {
    nodes: Vec<pb::NodeProto>,
    inits: Vec<pb::TensorProto>,
    counter: usize,
}

fn attr_int(name: &str, v: i64) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.into(),
        r#type: pb::attribute_proto::AttributeType::Int as i32,
        i: v,
        ..Default::default()
    }
}

fn attr_float(name: &str, v: f32) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.into(),
        r#type: pb::attribute_proto::AttributeType::Float as i32,
        f: v,
        ..Default::default()
    }
}

fn attr_ints(name: &str, v: &[i64]) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.into(),
        r#type: pb::attribute_proto::AttributeType::Ints as i32,
        ints: v.to_vec(),
        ..Default::default()
    }
}

impl Builder {
    fn f32_init(&mut self, name: &str, dims: &[usize], data: &[f32]) -> String {
        let raw = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.inits.push(pb::TensorProto {
            name: name.into(),
            dims: dims.iter().map(|&d| d as i64).collect(),
            data_type: FLOAT,
            raw_data: raw,
            ..Default::default()
        });
        name.into()
    }

    fn i64_init(&mut self, name: &str, data: &[i64], scalar: bool) -> String {
        let raw = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.inits.push(pb::TensorProto {
            name: name.into(),
            dims: if scalar {
                vec![]
            } else {
                vec![data.len() as i64]
            },
            data_type: INT64,
            raw_data: raw,
            ..Default::default()
        });
        name.into()
    }

    /// Adds a node with one output named after `hint`; returns the output name.
    fn node(
        &mut self,
        op: &str,
        inputs: &[&str],
        attrs: Vec<pb::AttributeProto>,
        hint: &str,
    ) -> String {
        self.counter += 1;
        let out = format!("{hint}/{op}_{}", self.counter);
        self.named_node(op, inputs, attrs, &out);
        out
    }

    fn named_node(&mut self, op: &str, inputs: &[&str], attrs: Vec<pb::AttributeProto>, out: &str) {
        self.nodes.push(pb::NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![out.to_string()],
            name: format!("{out}:node"),
            op_type: op.into(),
            attribute: attrs,
            ..Default::default()
        });
    }

    /// `x · Wᵀ + b` for the trainer's `[out, in]` weight `name.weight` (optionally only
    /// rows `rows` of it); the transposed weight becomes an `[in, out]` initializer.
    fn linear(
        &mut self,
        w: &Weights,
        x: &str,
        name: &str,
        rows: Option<(usize, usize)>,
        tag: &str,
    ) -> Result<String> {
        let wt = w.get(&format!("{name}.weight"))?;
        let b = w.get(&format!("{name}.bias"))?;
        let (out_all, inp) = match wt.shape.as_slice() {
            [o, i] => (*o, *i),
            s => return Err(Error::Weights(format!("{name}.weight has shape {s:?}"))),
        };
        let (r0, r1) = rows.unwrap_or((0, out_all));
        if r1 > out_all || r0 >= r1 {
            return Err(Error::Weights(format!(
                "{name}: rows {r0}..{r1} of {out_all}"
            )));
        }
        let out = r1 - r0;
        let mut t = vec![0f32; inp * out];
        for o in 0..out {
            for i in 0..inp {
                t[i * out + o] = wt.data[(r0 + o) * inp + i];
            }
        }
        let wn = self.f32_init(&format!("{name}{tag}.weight_t"), &[inp, out], &t);
        let bn = self.f32_init(&format!("{name}{tag}.bias"), &[out], &b.data[r0..r1]);
        let m = self.node("MatMul", &[x, &wn], vec![], &format!("{name}{tag}"));
        Ok(self.node("Add", &[&m, &bn], vec![], &format!("{name}{tag}")))
    }

    fn layer_norm(&mut self, w: &Weights, x: &str, name: &str) -> Result<String> {
        let g = w.get(&format!("{name}.weight"))?;
        let b = w.get(&format!("{name}.bias"))?;
        let gn = self.f32_init(&format!("{name}.weight"), &g.shape, &g.data);
        let bn = self.f32_init(&format!("{name}.bias"), &b.shape, &b.data);
        Ok(self.node(
            "LayerNormalization",
            &[x, &gn, &bn],
            vec![attr_int("axis", -1), attr_float("epsilon", LAYER_NORM_EPS)],
            name,
        ))
    }

    /// Exact GELU: `0.5 · x · (1 + erf(x / √2))`.
    fn gelu(&mut self, x: &str, hint: &str, consts: &GeluConsts) -> String {
        let a = self.node("Div", &[x, &consts.sqrt2], vec![], hint);
        let e = self.node("Erf", &[&a], vec![], hint);
        let p = self.node("Add", &[&e, &consts.one], vec![], hint);
        let m = self.node("Mul", &[x, &p], vec![], hint);
        self.node("Mul", &[&m, &consts.half], vec![], hint)
    }
}

struct GeluConsts {
    sqrt2: String,
    one: String,
    half: String,
}

fn value_info(name: &str, dims: &[Option<usize>]) -> pb::ValueInfoProto {
    use pb::tensor_shape_proto::{dimension::Value, Dimension};
    let dim = dims
        .iter()
        .map(|d| Dimension {
            denotation: String::new(),
            value: Some(match d {
                Some(n) => Value::DimValue(*n as i64),
                None => Value::DimParam(BATCH_DIM.into()),
            }),
        })
        .collect();
    pb::ValueInfoProto {
        name: name.into(),
        r#type: Some(pb::TypeProto {
            denotation: String::new(),
            value: Some(pb::type_proto::Value::TensorType(pb::type_proto::Tensor {
                elem_type: FLOAT,
                shape: Some(pb::TensorShapeProto { dim }),
            })),
        }),
        doc_string: String::new(),
    }
}

/// Builds the ONNX model for `weights`. `metadata` becomes the model's
/// `metadata_props` (the exporter stores the sidecar's fields there too).
///
/// The graph, top to bottom: the token embedding, `layers` pre-norm transformer blocks,
/// the final layer norm, the policy heads and the critic.
pub fn build_model(weights: &Weights, metadata: &[(String, String)]) -> Result<pb::ModelProto> {
    let cfg = weights.config();
    cfg.validate()?;
    // A model with a reduced token set reads only its rows of the encoding.
    let rows = cfg.token_rows();
    let (t, d, heads) = (rows.len(), cfg.d_model, cfg.heads);
    let dh = d / heads;
    let mut g = Builder {
        nodes: Vec::new(),
        inits: Vec::new(),
        counter: 0,
    };
    let consts = GeluConsts {
        sqrt2: g.f32_init("const.sqrt2", &[], &[std::f32::consts::SQRT_2]),
        one: g.f32_init("const.one", &[], &[1.0]),
        half: g.f32_init("const.half", &[], &[0.5]),
    };
    let shapes = AttentionShapes {
        scale: g.f32_init("const.sqrt_dh", &[], &[(dh as f32).sqrt()]),
        heads: g.i64_init(
            "const.shape_heads",
            &[-1, t as i64, heads as i64, dh as i64],
            false,
        ),
        merge: g.i64_init("const.shape_merge", &[-1, t as i64, d as i64], false),
    };
    let mut h = embed_tokens(&mut g, weights, &rows)?;
    for i in 0..cfg.layers {
        h = transformer_block(&mut g, weights, &h, i, &shapes, &consts)?;
    }
    let h = g.layer_norm(weights, &h, "norm")?;
    let encoding = weights.encoding();
    let heads = policy_heads(&mut g, weights, &h, &rows, encoding)?;
    critic(&mut g, weights, &heads, &consts)?;
    let graph = pb::GraphProto {
        node: g.nodes,
        name: "mahjong_policy".into(),
        initializer: g.inits,
        input: vec![value_info(
            INPUT,
            &[None, Some(NUM_TOKENS), Some(encoding.token_features())],
        )],
        output: vec![
            value_info(OUTPUT_LOGITS, &[None, Some(encoding.policy_actions())]),
            value_info(OUTPUT_VALUE, &[None]),
        ],
        doc_string: format!(
            "mahjong actor-critic: {} layers, d_model {}, {} heads, ff {}",
            cfg.layers, cfg.d_model, cfg.heads, cfg.ff
        ),
        ..Default::default()
    };
    Ok(pb::ModelProto {
        ir_version: IR_VERSION,
        opset_import: vec![pb::OperatorSetIdProto {
            domain: String::new(),
            version: OPSET,
        }],
        producer_name: "mahjong-inference".into(),
        producer_version: env!("CARGO_PKG_VERSION").into(),
        model_version: 1,
        graph: Some(graph),
        metadata_props: metadata
            .iter()
            .map(|(k, v)| pb::StringStringEntryProto {
                key: k.clone(),
                value: v.clone(),
            })
            .collect(),
        ..Default::default()
    })
}

/// The constants attention reshapes with: `sqrt(dh)`, the `[B, T, H, dh]` split and the
/// `[B, T, d]` merge.
struct AttentionShapes {
    scale: String,
    heads: String,
    merge: String,
}

/// The input projection plus the learned token embedding, of the rows read.
fn embed_tokens(g: &mut Builder, weights: &Weights, rows: &[usize]) -> Result<String> {
    let cfg = weights.config();
    let d = cfg.d_model;
    let emb = weights.get("token_embedding")?;
    if cfg.all_tokens() {
        let h = g.linear(weights, INPUT, "input", None, "")?;
        let en = g.f32_init("token_embedding", &emb.shape, &emb.data);
        return Ok(g.node("Add", &[&h, &en], vec![], "token_embedding"));
    }
    let idx: Vec<i64> = rows.iter().map(|&r| r as i64).collect();
    let ri = g.i64_init("const.token_rows", &idx, false);
    let x = g.node("Gather", &[INPUT, &ri], vec![attr_int("axis", 1)], "tokens");
    let h = g.linear(weights, &x, "input", None, "")?;
    let data: Vec<f32> = rows
        .iter()
        .flat_map(|&r| &emb.data[r * d..(r + 1) * d])
        .copied()
        .collect();
    let en = g.f32_init("token_embedding", &[rows.len(), d], &data);
    Ok(g.node("Add", &[&h, &en], vec![], "token_embedding"))
}

/// Block `i`: `h + attention(ln1(h))`, then `+ ff2(gelu(ff1(ln2(·))))`.
fn transformer_block(
    g: &mut Builder,
    weights: &Weights,
    h: &str,
    i: usize,
    shapes: &AttentionShapes,
    consts: &GeluConsts,
) -> Result<String> {
    let d = weights.config().d_model;
    let p = |s: &str| format!("block{i}.{s}");
    let a = g.layer_norm(weights, h, &p("ln1"))?;
    // q, k, v: [B, T, d] → [B, T, H, dh] → [B, H, T, dh].
    let mut qkv = Vec::new();
    for (j, tag) in [".q", ".k", ".v"].into_iter().enumerate() {
        let x = g.linear(weights, &a, &p("qkv"), Some((j * d, (j + 1) * d)), tag)?;
        let r = g.node("Reshape", &[&x, &shapes.heads], vec![], &p("attn"));
        qkv.push(g.node(
            "Transpose",
            &[&r],
            vec![attr_ints("perm", &[0, 2, 1, 3])],
            &p("attn"),
        ));
    }
    let kt = g.node(
        "Transpose",
        &[&qkv[1]],
        vec![attr_ints("perm", &[0, 1, 3, 2])],
        &p("attn"),
    );
    let s = g.node("MatMul", &[&qkv[0], &kt], vec![], &p("attn"));
    let s = g.node("Div", &[&s, &shapes.scale], vec![], &p("attn"));
    let s = g.node("Softmax", &[&s], vec![attr_int("axis", -1)], &p("attn"));
    let y = g.node("MatMul", &[&s, &qkv[2]], vec![], &p("attn"));
    let y = g.node(
        "Transpose",
        &[&y],
        vec![attr_ints("perm", &[0, 2, 1, 3])],
        &p("attn"),
    );
    let y = g.node("Reshape", &[&y, &shapes.merge], vec![], &p("attn"));
    let y = g.linear(weights, &y, &p("proj"), None, "")?;
    let h = g.node("Add", &[h, &y], vec![], &p("residual1"));
    let a = g.layer_norm(weights, &h, &p("ln2"))?;
    let f = g.linear(weights, &a, &p("ff1"), None, "")?;
    let f = g.gelu(&f, &p("gelu"), consts);
    let y = g.linear(weights, &f, &p("ff2"), None, "")?;
    Ok(g.node("Add", &[&h, &y], vec![], &p("residual2")))
}

/// The tile head on the tile tokens and the call head on the global token, written as
/// the `logits` output in the engine's action order: `[B, 4·34]` tile actions, the 5
/// calls, and for encoding v2 `Riichi(t)` ×34 (the tile head's fifth output) and `Kita`,
/// `NineTerminals` (the call head's last two).
fn policy_heads(
    g: &mut Builder,
    weights: &Weights,
    h: &str,
    rows: &[usize],
    encoding: Encoding,
) -> Result<Heads> {
    let n = rows.len() - 1;
    let (tile_width, call_width) = head_widths(encoding);
    // [B, n, w] → [B, w, n] (→ [B, w, 34]).
    let starts = g.i64_init("const.tiles_start", &[0], false);
    let ends = g.i64_init("const.tiles_end", &[n as i64], false);
    let axes = g.i64_init("const.axis1", &[1], false);
    let tiles = g.node("Slice", &[h, &starts, &ends, &axes], vec![], "tiles");
    let tl = g.linear(weights, &tiles, "tile_head", None, "")?;
    let mut tl = g.node(
        "Transpose",
        &[&tl],
        vec![attr_ints("perm", &[0, 2, 1])],
        "tile_head",
    );
    if n != NUM_TILE_TOKENS {
        // Back to one column per tile type: a 0/1 matrix [n, 34] puts token j's logit in
        // its type's column (x·1 plus exact zeros: the value is unchanged), and the
        // bias gives the types without a token ABSENT_LOGIT.
        let mut expand = vec![0f32; n * NUM_TILE_TOKENS];
        let mut bias = vec![ABSENT_LOGIT; NUM_TILE_TOKENS];
        for (j, &tile) in rows[..n].iter().enumerate() {
            expand[j * NUM_TILE_TOKENS + tile] = 1.0;
            bias[tile] = 0.0;
        }
        let e = g.f32_init("const.tile_expand", &[n, NUM_TILE_TOKENS], &expand);
        let b = g.f32_init("const.tile_absent", &[NUM_TILE_TOKENS], &bias);
        let x = g.node("MatMul", &[&tl, &e], vec![], "tile_expand");
        tl = g.node("Add", &[&x, &b], vec![], "tile_expand");
    }
    let tile_shape = g.i64_init(
        "const.shape_tile_logits",
        &[-1, (TILE_ACTIONS * NUM_TILE_TOKENS) as i64],
        false,
    );
    // (Nodes and initializers in the order of the v1 exporter, so that v1 models
    // export byte for byte as before.)
    let v1 = tile_width == TILE_ACTIONS && call_width == CALL_ACTIONS;
    let v1_tiles = v1.then(|| g.node("Reshape", &[&tl, &tile_shape], vec![], "tile_head"));
    let gi = g.i64_init("const.global_token", &[n as i64], true);
    let global = g.node("Gather", &[h, &gi], vec![attr_int("axis", 1)], "global");
    let cl = g.linear(weights, &global, "call_head", None, "")?;
    if let Some(tl) = v1_tiles {
        g.named_node(
            "Concat",
            &[&tl, &cl],
            vec![attr_int("axis", 1)],
            OUTPUT_LOGITS,
        );
        return Ok(Heads { global, axes });
    }
    // Encoding v2: split both heads and interleave them in the engine's order.
    let slice = |g: &mut Builder, x: &str, from: usize, to: usize, hint: &str| {
        let s = g.i64_init(&format!("const.{hint}_start"), &[from as i64], false);
        let e = g.i64_init(&format!("const.{hint}_end"), &[to as i64], false);
        let a = g.i64_init(&format!("const.{hint}_axis"), &[1], false);
        g.node("Slice", &[x, &s, &e, &a], vec![], hint)
    };
    let first = slice(g, &tl, 0, TILE_ACTIONS, "tile_actions");
    let first = g.node("Reshape", &[&first, &tile_shape], vec![], "tile_head");
    let riichi = slice(g, &tl, TILE_ACTIONS, tile_width, "riichi_actions");
    let riichi_shape = g.i64_init(
        "const.shape_riichi_logits",
        &[-1, NUM_TILE_TOKENS as i64],
        false,
    );
    let riichi = g.node("Reshape", &[&riichi, &riichi_shape], vec![], "riichi");
    let calls = slice(g, &cl, 0, CALL_ACTIONS, "call_actions");
    let extra = slice(g, &cl, CALL_ACTIONS, call_width, "extra_actions");
    g.named_node(
        "Concat",
        &[&first, &calls, &riichi, &extra],
        vec![attr_int("axis", 1)],
        OUTPUT_LOGITS,
    );
    Ok(Heads { global, axes })
}

/// What the critic reuses of [`policy_heads`]: the global token's row and the axis-1
/// constant.
struct Heads {
    global: String,
    axes: String,
}

/// The critic on the global token, written as the `value` output.
fn critic(g: &mut Builder, weights: &Weights, heads: &Heads, consts: &GeluConsts) -> Result<()> {
    let v = g.linear(weights, &heads.global, "value1", None, "")?;
    let v = g.gelu(&v, "value_gelu", consts);
    let v = g.linear(weights, &v, "value2", None, "")?;
    g.named_node("Squeeze", &[&v, &heads.axes], vec![], OUTPUT_VALUE);
    Ok(())
}

/// The serialized bytes of the ONNX model for `weights`.
pub fn to_onnx_bytes(weights: &Weights, metadata: &[(String, String)]) -> Result<Vec<u8>> {
    Ok(build_model(weights, metadata)?.encode_to_vec())
}

/// Writes `path` (the `.onnx` model) and its JSON sidecar ([`Sidecar::path_for`]).
/// The sidecar's model config and encoding version must match the weights.
pub fn export(weights: &Weights, sidecar: &Sidecar, path: &Path) -> Result<()> {
    if sidecar.model != weights.config() {
        return Err(Error::Weights(format!(
            "sidecar model {:?} differs from the weights' {:?}",
            sidecar.model,
            weights.config()
        )));
    }
    if sidecar.encoding_version != weights.encoding_version() {
        return Err(Error::EncodingMismatch {
            source_name: "sidecar vs weights".into(),
            model: weights.encoding_version(),
            engine: sidecar.encoding_version,
        });
    }
    let bytes = to_onnx_bytes(weights, &sidecar.metadata())?;
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.into(),
            action: "creating",
            source,
        })?;
    }
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        path: path.into(),
        action: "writing",
        source,
    })?;
    sidecar.save(&Sidecar::path_for(path))
}
