//! A pure-Rust forward pass of the policy network on plain `Vec<f32>`s: straightforward
//! loops that mirror the trainer's model line by line, with `f64` accumulation. It is
//! the oracle for the exported ONNX graph (differential tests) and needs nothing but
//! [`Weights`].

use engine::encode::NUM_TOKENS;

use crate::error::{Error, Result};
use crate::weights::{place_logits, Weights, LAYER_NORM_EPS};

/// Raw network outputs for one observation.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// One logit per action index of the model's encoding, before any mask: 141 for
    /// encoding v1 (no riichi actions), 177 for v2 (every action).
    pub logits: Vec<f32>,
    /// The critic's value.
    pub value: f32,
}

/// `rows × out = (rows × in) · Wᵀ + b` with `W: [out, in]`.
fn linear(x: &[f32], rows: usize, w: &Weights, name: &str) -> Result<Vec<f32>> {
    let wt = w.get(&format!("{name}.weight"))?;
    let b = w.get(&format!("{name}.bias"))?;
    let (out, inp) = match wt.shape.as_slice() {
        [o, i] => (*o, *i),
        s => return Err(Error::Weights(format!("{name}.weight has shape {s:?}"))),
    };
    if x.len() != rows * inp {
        return Err(Error::Inference(format!(
            "{name}: input of {} values",
            x.len()
        )));
    }
    let mut y = vec![0f32; rows * out];
    for r in 0..rows {
        for o in 0..out {
            let mut acc = b.data[o] as f64;
            for i in 0..inp {
                acc += x[r * inp + i] as f64 * wt.data[o * inp + i] as f64;
            }
            y[r * out + o] = acc as f32;
        }
    }
    Ok(y)
}

fn layer_norm(x: &[f32], d: usize, w: &Weights, name: &str) -> Result<Vec<f32>> {
    let g = &w.get(&format!("{name}.weight"))?.data;
    let b = &w.get(&format!("{name}.bias"))?.data;
    let mut y = vec![0f32; x.len()];
    for (row, out) in x.chunks(d).zip(y.chunks_mut(d)) {
        let mean = row.iter().map(|&v| v as f64).sum::<f64>() / d as f64;
        let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / d as f64;
        let inv = 1.0 / (var + LAYER_NORM_EPS as f64).sqrt();
        for i in 0..d {
            out[i] = ((row[i] as f64 - mean) * inv * g[i] as f64 + b[i] as f64) as f32;
        }
    }
    Ok(y)
}

/// GELU with the exact (erf) formulation, as PyTorch's `gelu("none")`.
pub fn gelu(x: f32) -> f32 {
    let x = x as f64;
    (0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2))) as f32
}

/// Multi-head self-attention over `T` tokens of width `d`: `qkv` is `[T, 3d]` laid out
/// as `(3, heads, dh)` per token (the trainer's `view([B, T, 3, H, dh])`).
fn attention(qkv: &[f32], t: usize, d: usize, heads: usize) -> Vec<f32> {
    let dh = d / heads;
    let scale = (dh as f64).sqrt();
    let at =
        |tok: usize, which: usize, h: usize, i: usize| qkv[tok * 3 * d + which * d + h * dh + i];
    let mut y = vec![0f32; t * d];
    for h in 0..heads {
        for qi in 0..t {
            let mut scores = vec![0f64; t];
            for (ki, s) in scores.iter_mut().enumerate() {
                let mut acc = 0f64;
                for i in 0..dh {
                    acc += at(qi, 0, h, i) as f64 * at(ki, 1, h, i) as f64;
                }
                *s = acc / scale;
            }
            let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let mut sum = 0f64;
            for s in scores.iter_mut() {
                *s = (*s - max).exp();
                sum += *s;
            }
            for i in 0..dh {
                let mut acc = 0f64;
                for (ki, s) in scores.iter().enumerate() {
                    acc += s / sum * at(ki, 2, h, i) as f64;
                }
                y[qi * d + h * dh + i] = acc as f32;
            }
        }
    }
    y
}

/// The network's outputs for one flat encoding in the weights' encoding (1260 floats
/// in v1, 1680 in v2; see `engine::encode`).
pub fn forward(w: &Weights, obs: &[f32]) -> Result<Output> {
    let encoding = w.encoding();
    let len = encoding.encoded_len();
    if obs.len() != len {
        return Err(Error::Inference(format!(
            "observation has {} floats, expected {len}",
            obs.len()
        )));
    }
    let features = encoding.token_features();
    let cfg = w.config();
    // The encoding rows the model reads (all 35, or the token set's types and the
    // global token), each with its own embedding row.
    let rows = cfg.token_rows();
    let (t, d) = (rows.len(), cfg.d_model);
    debug_assert_eq!(obs.len(), NUM_TOKENS * features);
    let x: Vec<f32> = rows
        .iter()
        .flat_map(|&r| &obs[r * features..(r + 1) * features])
        .copied()
        .collect();
    let mut h = linear(&x, t, w, "input")?;
    let emb = &w.get("token_embedding")?.data;
    for (row, &r) in h.chunks_mut(d).zip(&rows) {
        for (x, e) in row.iter_mut().zip(&emb[r * d..(r + 1) * d]) {
            *x += e;
        }
    }
    for i in 0..cfg.layers {
        let p = |s: &str| format!("block{i}.{s}");
        let a = layer_norm(&h, d, w, &p("ln1"))?;
        let qkv = linear(&a, t, w, &p("qkv"))?;
        let att = attention(&qkv, t, d, cfg.heads);
        let y = linear(&att, t, w, &p("proj"))?;
        for (x, y) in h.iter_mut().zip(&y) {
            *x += y;
        }
        let a = layer_norm(&h, d, w, &p("ln2"))?;
        let mut f = linear(&a, t, w, &p("ff1"))?;
        for x in f.iter_mut() {
            *x = gelu(*x);
        }
        let y = linear(&f, t, w, &p("ff2"))?;
        for (x, y) in h.iter_mut().zip(&y) {
            *x += y;
        }
    }
    let h = layer_norm(&h, d, w, "norm")?;
    let n = t - 1;
    let tiles = linear(&h[..n * d], n, w, "tile_head")?;
    let global = &h[n * d..];
    let calls = linear(global, 1, w, "call_head")?;
    let logits = place_logits(encoding, &rows, &tiles, &calls);
    let mut v = linear(global, 1, w, "value1")?;
    for x in v.iter_mut() {
        *x = gelu(*x);
    }
    let value = linear(&v, 1, w, "value2")?[0];
    Ok(Output { logits, value })
}

/// Softmax over the legal actions only: illegal actions get exactly 0, legal ones sum
/// to 1. All zeros when nothing is legal or the logits are not finite.
pub fn masked_softmax(logits: &[f32], legal: &[bool]) -> Vec<f32> {
    let mut p = vec![0f32; logits.len()];
    let max = logits
        .iter()
        .zip(legal)
        .filter(|(_, &l)| l)
        .map(|(&x, _)| x)
        .fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        return p;
    }
    let mut sum = 0f64;
    for ((q, &x), &l) in p.iter_mut().zip(logits).zip(legal) {
        if l {
            let e = ((x - max) as f64).exp();
            *q = e as f32;
            sum += e;
        }
    }
    if !(sum > 0.0 && sum.is_finite()) {
        return vec![0f32; logits.len()];
    }
    for q in p.iter_mut() {
        *q = (*q as f64 / sum) as f32;
    }
    p
}
