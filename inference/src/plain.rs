//! A forward pass for one observation in plain `f32` loops, with the weights read back
//! from the ONNX file's initializers.
//!
//! Why: the network is small (≈ 5 MFLOP per observation for the default shape), so
//! at batch 1 tract's per-node work over the ≈ 100 nodes of the graph is a large
//! part of the advice latency. This pass is the same arithmetic as the graph, written
//! as the trainer's model reads (and as [`crate::reference::forward`], its `f64`
//! oracle, does), with buffers sized once.
//!
//! Layout: every linear layer's weight is the exporter's `[in, out]` transpose
//! (`{name}.weight_t`), so `y = b + Σᵢ xᵢ · W[i, ·]` walks contiguous rows (a loop the
//! compiler vectorises); the three `block{i}.qkv.{q,k,v}` thirds are joined back into
//! one `[d, 3d]` matrix, so a token's row is laid out `(3, heads, dh)` as in the
//! trainer's `view([B, T, 3, H, dh])`.
//!
//! Trust: [`PlainForward::from_onnx`] accepts only a graph whose initializers have
//! exactly the names, types, shapes and finite values the exporter writes for the
//! sidecar's shape; the advisor then uses it only after it agrees with tract on probe
//! inputs at load time, and runs tract otherwise (and for batches).

use std::collections::HashMap;

#[cfg(not(feature = "tract"))]
use crate::onnx_proto as pb;
use engine::encode::{Encoding, NUM_TOKENS};
#[cfg(feature = "tract")]
use tract_onnx::pb;

use crate::weights::{head_widths, place_logits, ModelConfig};

/// `y = x · W + b` with `W: [inp, out]` row-major.
#[derive(Clone, Debug)]
struct Linear {
    w: Vec<f32>,
    b: Vec<f32>,
    inp: usize,
    out: usize,
}

impl Linear {
    /// Writes `rows × out` values into `y` (cleared first). Each row's outputs are
    /// computed 64 at a time (then 8, then one) with the accumulators in registers: a
    /// weight is loaded once per multiply-add, `y` is written once, and eight
    /// independent AVX accumulators keep the adds from waiting on each other.
    #[inline(always)]
    fn apply<const FMA: bool>(&self, x: &[f32], rows: usize, y: &mut Vec<f32>) {
        y.clear();
        y.resize(rows * self.out, 0.0);
        for (xr, yr) in x
            .chunks_exact(self.inp)
            .zip(y.chunks_exact_mut(self.out))
            .take(rows)
        {
            let mut o = 0;
            while o + 64 <= self.out {
                self.block::<64, FMA>(xr, yr, o);
                o += 64;
            }
            while o + 8 <= self.out {
                self.block::<8, FMA>(xr, yr, o);
                o += 8;
            }
            while o < self.out {
                self.block::<1, FMA>(xr, yr, o);
                o += 1;
            }
        }
    }

    /// Outputs `o..o + N` of one row; `FMA`: fused multiply-adds (only where the CPU
    /// has them: elsewhere `mul_add` is a slow software routine).
    #[inline(always)]
    fn block<const N: usize, const FMA: bool>(&self, xr: &[f32], yr: &mut [f32], o: usize) {
        let out = self.out;
        let mut acc = [0f32; N];
        acc.copy_from_slice(&self.b[o..o + N]);
        for (i, &xi) in xr.iter().enumerate() {
            // Exact: the weights are finite (checked at load), so a zero input adds
            // exactly zero. Most of the encoding's features are zero.
            if xi == 0.0 {
                continue;
            }
            let w = &self.w[i * out + o..i * out + o + N];
            for (a, &wv) in acc.iter_mut().zip(w) {
                *a = if FMA {
                    xi.mul_add(wv, *a)
                } else {
                    *a + xi * wv
                };
            }
        }
        yr[o..o + N].copy_from_slice(&acc);
    }
}

/// A LayerNorm's gain and bias.
#[derive(Clone, Debug)]
struct Norm {
    g: Vec<f32>,
    b: Vec<f32>,
}

impl Norm {
    /// Normalises each `d`-wide row of `x` into `y` (epsilon 1e-5, as the graph).
    #[inline(always)]
    fn apply(&self, x: &[f32], y: &mut Vec<f32>) {
        let d = self.g.len();
        y.clear();
        y.resize(x.len(), 0.0);
        for (row, out) in x.chunks(d).zip(y.chunks_mut(d)) {
            let mean = row.iter().sum::<f32>() / d as f32;
            let var = row.iter().map(|&v| (v - mean) * (v - mean)).sum::<f32>() / d as f32;
            let inv = 1.0 / (var + crate::weights::LAYER_NORM_EPS).sqrt();
            for (((o, &v), &g), &b) in out.iter_mut().zip(row).zip(&self.g).zip(&self.b) {
                *o = (v - mean) * inv * g + b;
            }
        }
    }
}

#[derive(Clone, Debug)]
struct Block {
    ln1: Norm,
    qkv: Linear,
    proj: Linear,
    ln2: Norm,
    ff1: Linear,
    ff2: Linear,
}

/// The network as plain arrays, for one observation at a time.
#[derive(Clone, Debug)]
pub struct PlainForward {
    encoding: Encoding,
    heads: usize,
    /// The encoding rows read, in token order (the global token last).
    rows: Vec<usize>,
    input: Linear,
    /// `[tokens, d]`: the embedding row of each token read.
    embedding: Vec<f32>,
    blocks: Vec<Block>,
    norm: Norm,
    tile_head: Linear,
    call_head: Linear,
    value1: Linear,
    value2: Linear,
}

/// The initializers of a graph by name.
struct Inits<'a>(HashMap<&'a str, &'a pb::TensorProto>);

impl Inits<'_> {
    /// The float initializer `name` of exactly `dims`, all values finite.
    fn get(&self, name: &str, dims: &[usize]) -> Result<Vec<f32>, String> {
        let t = self
            .0
            .get(name)
            .ok_or_else(|| format!("no initializer {name}"))?;
        if t.data_type != pb::tensor_proto::DataType::Float as i32 {
            return Err(format!("{name} is not float32"));
        }
        let shape: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
        if t.dims != shape {
            return Err(format!("{name} has shape {:?}, expected {shape:?}", t.dims));
        }
        let n: usize = dims.iter().product();
        let data: Vec<f32> = if !t.raw_data.is_empty() {
            if t.raw_data.len() != 4 * n {
                return Err(format!(
                    "{name} has {} bytes for {n} floats",
                    t.raw_data.len()
                ));
            }
            t.raw_data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        } else {
            t.float_data.clone()
        };
        if data.len() != n {
            return Err(format!("{name} has {} values for {n}", data.len()));
        }
        if data.iter().any(|v| !v.is_finite()) {
            return Err(format!("{name} has a value that is not finite"));
        }
        Ok(data)
    }

    fn linear(&self, name: &str, inp: usize, out: usize) -> Result<Linear, String> {
        Ok(Linear {
            w: self.get(&format!("{name}.weight_t"), &[inp, out])?,
            b: self.get(&format!("{name}.bias"), &[out])?,
            inp,
            out,
        })
    }

    fn norm(&self, name: &str, d: usize) -> Result<Norm, String> {
        Ok(Norm {
            g: self.get(&format!("{name}.weight"), &[d])?,
            b: self.get(&format!("{name}.bias"), &[d])?,
        })
    }

    /// The width of a linear layer whose input width is known, from its bias.
    fn out_width(&self, name: &str) -> Result<usize, String> {
        let t = self
            .0
            .get(format!("{name}.bias").as_str())
            .ok_or_else(|| format!("no initializer {name}.bias"))?;
        match t.dims.as_slice() {
            [n] if *n > 0 && *n <= 1 << 16 => Ok(*n as usize),
            d => Err(format!("{name}.bias has shape {d:?}")),
        }
    }

    /// Joins the exporter's `q`, `k`, `v` thirds of `name` into one `[d, 3d]` layer.
    fn qkv(&self, name: &str, d: usize) -> Result<Linear, String> {
        let parts = [".q", ".k", ".v"]
            .map(|tag| self.linear(&format!("{name}{tag}"), d, d))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let mut w = Vec::with_capacity(3 * d * d);
        for i in 0..d {
            for p in &parts {
                w.extend_from_slice(&p.w[i * d..(i + 1) * d]);
            }
        }
        let b = parts.iter().flat_map(|p| p.b.iter().copied()).collect();
        Ok(Linear {
            w,
            b,
            inp: d,
            out: 3 * d,
        })
    }
}

impl PlainForward {
    /// Reads the network of shape `cfg` reading `encoding` from the exporter's
    /// initializers of `model`, or says what does not fit.
    pub fn from_onnx(
        model: &pb::ModelProto,
        cfg: &ModelConfig,
        encoding: Encoding,
    ) -> Result<PlainForward, String> {
        cfg.validate().map_err(|e| e.to_string())?;
        let graph = model.graph.as_ref().ok_or("no graph")?;
        let inits = Inits(
            graph
                .initializer
                .iter()
                .map(|t| (t.name.as_str(), t))
                .collect(),
        );
        let rows = cfg.token_rows();
        let (t, d) = (rows.len(), cfg.d_model);
        let features = encoding.token_features();
        let blocks = (0..cfg.layers)
            .map(|i| {
                let p = |s: &str| format!("block{i}.{s}");
                Ok(Block {
                    ln1: inits.norm(&p("ln1"), d)?,
                    qkv: inits.qkv(&p("qkv"), d)?,
                    proj: inits.linear(&p("proj"), d, d)?,
                    ln2: inits.norm(&p("ln2"), d)?,
                    ff1: inits.linear(&p("ff1"), d, cfg.ff)?,
                    ff2: inits.linear(&p("ff2"), cfg.ff, d)?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let (tile_width, call_width) = head_widths(encoding);
        let hidden = inits.out_width("value1")?;
        Ok(PlainForward {
            encoding,
            heads: cfg.heads,
            input: inits.linear("input", features, d)?,
            embedding: inits.get("token_embedding", &[t, d])?,
            blocks,
            norm: inits.norm("norm", d)?,
            tile_head: inits.linear("tile_head", d, tile_width)?,
            call_head: inits.linear("call_head", d, call_width)?,
            value1: inits.linear("value1", d, hidden)?,
            value2: inits.linear("value2", hidden, 1)?,
            rows,
        })
    }

    /// Logits (in the engine's action order, [`ABSENT_LOGIT`] for tile types without a
    /// token) and the value for one flat encoding of [`Encoding::encoded_len`] floats.
    pub fn forward(&self, obs: &[f32]) -> Result<(Vec<f32>, f32), String> {
        let features = self.encoding.token_features();
        if obs.len() != NUM_TOKENS * features {
            return Err(format!(
                "observation has {} floats, expected {}",
                obs.len(),
                NUM_TOKENS * features
            ));
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: both features were detected on this CPU just now.
                return Ok(unsafe { self.run_avx2_fma(obs) });
            }
            if std::is_x86_feature_detected!("avx") {
                // SAFETY: AVX was detected on this CPU just now.
                unsafe { zero_upper() };
            }
        }
        Ok(self.run::<false>(obs))
    }

    /// [`PlainForward::run`] compiled for AVX2 and FMA: eight lanes per instruction,
    /// and no SSE code in between, which on x86 pays a penalty for every instruction
    /// after AVX-512 code (tract's kernels) has left the upper register halves dirty.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn run_avx2_fma(&self, obs: &[f32]) -> (Vec<f32>, f32) {
        self.run::<true>(obs)
    }

    /// The pass itself, for an observation of the right length. Everything it calls
    /// is inlined, so that [`PlainForward::run_avx2_fma`] compiles all of it for AVX2.
    #[inline(always)]
    fn run<const FMA: bool>(&self, obs: &[f32]) -> (Vec<f32>, f32) {
        let features = self.encoding.token_features();
        let (t, d) = (self.rows.len(), self.input.out);
        let mut x = Vec::with_capacity(t * features);
        for &r in &self.rows {
            x.extend_from_slice(&obs[r * features..(r + 1) * features]);
        }
        let mut h = Vec::with_capacity(t * d);
        self.input.apply::<FMA>(&x, t, &mut h);
        for (v, e) in h.iter_mut().zip(&self.embedding) {
            *v += e;
        }
        let (mut a, mut qkv, mut att, mut y) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for b in &self.blocks {
            b.ln1.apply(&h, &mut a);
            b.qkv.apply::<FMA>(&a, t, &mut qkv);
            self.attention(&qkv, t, d, &mut att);
            b.proj.apply::<FMA>(&att, t, &mut y);
            add(&mut h, &y);
            b.ln2.apply(&h, &mut a);
            b.ff1.apply::<FMA>(&a, t, &mut y);
            for v in y.iter_mut() {
                *v = gelu(*v);
            }
            b.ff2.apply::<FMA>(&y, t, &mut att);
            add(&mut h, &att);
        }
        self.norm.apply(&h, &mut a);
        let n = t - 1;
        let mut tiles = Vec::new();
        self.tile_head.apply::<FMA>(&a[..n * d], n, &mut tiles);
        let global = &a[n * d..];
        let mut calls = Vec::new();
        self.call_head.apply::<FMA>(global, 1, &mut calls);
        let logits = place_logits(self.encoding, &self.rows, &tiles, &calls);
        self.value1.apply::<FMA>(global, 1, &mut y);
        for v in y.iter_mut() {
            *v = gelu(*v);
        }
        let mut value = Vec::new();
        self.value2.apply::<FMA>(&y, 1, &mut value);
        (logits, value[0])
    }

    /// Multi-head self-attention of `qkv` (`[t, 3d]`, each row `(3, heads, dh)`) into
    /// `y` (`[t, d]`).
    #[inline(always)]
    fn attention(&self, qkv: &[f32], t: usize, d: usize, y: &mut Vec<f32>) {
        let dh = d / self.heads;
        let inv_scale = 1.0 / (dh as f32).sqrt();
        y.clear();
        y.resize(t * d, 0.0);
        let mut scores = vec![0f32; t];
        // One head's keys transposed to `[dh, t]`, so that a query's scores are `dh`
        // contiguous multiply-adds over all keys (vectorised) instead of `t` short
        // dot products.
        let mut keys = vec![0f32; dh * t];
        for h in 0..self.heads {
            for ki in 0..t {
                for i in 0..dh {
                    keys[i * t + ki] = qkv[ki * 3 * d + d + h * dh + i];
                }
            }
            for qi in 0..t {
                let q = &qkv[qi * 3 * d + h * dh..][..dh];
                scores.fill(0.0);
                for (&qv, row) in q.iter().zip(keys.chunks_exact(t)) {
                    for (s, &k) in scores.iter_mut().zip(row) {
                        *s += qv * k;
                    }
                }
                let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let mut sum = 0f32;
                for s in scores.iter_mut() {
                    // Below e^-80 (≈ 1.8e-35, against the 1 of the largest score) a weight
                    // changes nothing a float can hold, and an exponential whose result
                    // would be subnormal costs a hundred times a normal one on x86.
                    *s = ((*s - max) * inv_scale).max(-80.0).exp();
                    sum += *s;
                }
                let out = &mut y[qi * d + h * dh..][..dh];
                for (ki, &s) in scores.iter().enumerate() {
                    let v = &qkv[ki * 3 * d + 2 * d + h * dh..][..dh];
                    let p = s / sum;
                    for (o, &vv) in out.iter_mut().zip(v) {
                        *o += p * vv;
                    }
                }
            }
        }
    }
}

/// A deterministic probe encoding: probe 0 is all zeros, the others a mix of zeros,
/// ones and fractions (xorshift), as sparse as real encodings.
#[cfg(feature = "tract")]
pub(crate) fn probe_input(len: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            if seed == 0 {
                return 0.0;
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            match s % 5 {
                0 => 1.0,
                1 => (s >> 40) as f32 / (1u64 << 24) as f32,
                _ => 0.0,
            }
        })
        .collect()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn zero_upper() {
    std::arch::x86_64::_mm256_zeroupper();
}

#[inline(always)]
fn add(h: &mut [f32], y: &[f32]) {
    for (a, b) in h.iter_mut().zip(y) {
        *a += b;
    }
}

/// GELU, `0.5 · x · (1 + erf(x / √2))`, as the graph computes it (the trainer's exact
/// form), with [`erf`] to 1.5e-7.
#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * core::f32::consts::FRAC_1_SQRT_2))
}

/// The error function to an absolute error below 1.5e-7: formula 7.1.26 of Abramowitz
/// & Stegun, *Handbook of Mathematical Functions* (1964), for `x ≥ 0`, odd for
/// `x < 0`. About 20 ns per call cheaper than `libm::erff`, whose accuracy the
/// network's float noise (≈ 1e-6) does not need.
#[inline(always)]
fn erf(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    // The coefficients as published (more digits than an f32 holds).
    #[allow(clippy::excessive_precision)]
    const A: [f32; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + P * z);
    let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
    let y = 1.0 - poly * (-z * z).exp();
    y.copysign(x)
}

#[cfg(all(test, feature = "tract"))]
mod tests {
    use super::*;
    use crate::onnx_export::build_model;
    use crate::reference;
    use crate::weights::Weights;
    use engine::tile::TileSet;

    /// Differential: the plain pass matches the `f64` reference on the exporter's own
    /// graph, for both encodings and both token sets, logit by logit.
    #[test]
    fn the_plain_pass_matches_the_reference_for_every_shape() {
        for encoding in [Encoding::V1, Encoding::V2] {
            for tokens in [TileSet::FourPlayer, TileSet::Sanma] {
                let cfg = ModelConfig {
                    tokens,
                    ..ModelConfig::default()
                };
                let w = Weights::random_for(cfg, encoding, 3).unwrap();
                let proto = build_model(&w, &[]).unwrap();
                let plain = PlainForward::from_onnx(&proto, &cfg, encoding).unwrap();
                for seed in 0..5 {
                    let obs = probe_input(encoding.encoded_len(), seed);
                    let want = reference::forward(&w, &obs).unwrap();
                    // The path this CPU takes, and the portable one whatever the CPU.
                    for (logits, value) in [plain.forward(&obs).unwrap(), plain.run::<false>(&obs)]
                    {
                        assert_eq!(logits.len(), want.logits.len());
                        for (i, (a, b)) in logits.iter().zip(&want.logits).enumerate() {
                            assert!(
                                (a - b).abs() <= 1e-4 * (1.0 + b.abs()),
                                "{encoding:?} {tokens:?} logit {i}: {a} vs {b}"
                            );
                        }
                        assert!((value - want.value).abs() <= 1e-4 * (1.0 + want.value.abs()));
                    }
                }
            }
        }
    }

    /// The fast erf stays within its published bound of `libm`'s (both in f64 to
    /// see the bound, not float rounding), over the range GELU sees and beyond.
    #[test]
    fn erf_is_within_its_bound() {
        let mut worst = 0f64;
        for i in -80_000..=80_000 {
            let x = i as f32 * 1e-4;
            let err = (erf(x) as f64 - libm::erf(x as f64)).abs();
            worst = worst.max(err);
        }
        assert!(worst < 5e-7, "max |erf - libm::erf| = {worst:e}");
        assert_eq!(erf(0.0), 0.0);
        assert!(erf(f32::INFINITY) == 1.0 && erf(f32::NEG_INFINITY) == -1.0);
    }

    /// A graph that is not the exporter's for this shape is refused with a reason.
    #[test]
    fn graphs_of_another_shape_or_with_bad_values_are_refused() {
        let cfg = ModelConfig::default();
        let w = Weights::random_for(cfg, Encoding::V2, 1).unwrap();
        let proto = build_model(&w, &[]).unwrap();
        let wider = ModelConfig { ff: 256, ..cfg };
        let err = PlainForward::from_onnx(&proto, &wider, Encoding::V2).unwrap_err();
        assert!(err.contains("block0.ff1.weight_t"), "{err}");
        let err = PlainForward::from_onnx(&proto, &cfg, Encoding::V1).unwrap_err();
        assert!(err.contains("input.weight_t"), "{err}");
        let mut bad = proto.clone();
        let graph = bad.graph.as_mut().unwrap();
        let t = graph
            .initializer
            .iter_mut()
            .find(|t| t.name == "block1.proj.bias")
            .unwrap();
        t.raw_data[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        let err = PlainForward::from_onnx(&bad, &cfg, Encoding::V2).unwrap_err();
        assert!(err.contains("not finite"), "{err}");
        let mut bad = proto.clone();
        graph_without(&mut bad, "norm.bias");
        let err = PlainForward::from_onnx(&bad, &cfg, Encoding::V2).unwrap_err();
        assert!(err.contains("no initializer"), "{err}");
        let plain = PlainForward::from_onnx(&proto, &cfg, Encoding::V2).unwrap();
        assert!(plain.forward(&[0.0; 10]).is_err());
    }

    /// Structured corruption of every initializer in turn (shapes, types, byte
    /// lengths, the float field instead of raw bytes): the reader refuses or accepts
    /// without panicking, and a pass it accepts runs.
    #[test]
    fn corrupted_initializers_never_panic() {
        let cfg = ModelConfig {
            tokens: TileSet::Sanma,
            ..ModelConfig::default()
        };
        let w = Weights::random_for(cfg, Encoding::V2, 2).unwrap();
        let proto = build_model(&w, &[]).unwrap();
        let count = proto.graph.as_ref().unwrap().initializer.len();
        let obs = probe_input(Encoding::V2.encoded_len(), 1);
        let mut accepted = 0;
        for k in 0..count {
            for change in 0..6 {
                let mut bad = proto.clone();
                let t = &mut bad.graph.as_mut().unwrap().initializer[k];
                match change {
                    0 => t.dims.reverse(),
                    1 => t.dims.push(1),
                    2 => t.data_type = pb::tensor_proto::DataType::Double as i32,
                    3 => {
                        t.raw_data.pop();
                    }
                    4 => {
                        t.float_data = t
                            .raw_data
                            .chunks_exact(4)
                            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                            .collect();
                        t.raw_data.clear();
                    }
                    _ => {
                        if let Some(d) = t.dims.first_mut() {
                            *d = -*d;
                        }
                    }
                }
                if let Ok(plain) = PlainForward::from_onnx(&bad, &cfg, Encoding::V2) {
                    accepted += 1;
                    let (logits, _) = plain.forward(&obs).unwrap();
                    assert_eq!(logits.len(), Encoding::V2.policy_actions());
                }
            }
        }
        // Floats given as `float_data` are as good as raw bytes, and the graph's
        // constants (not read) may change freely: some variants are accepted.
        assert!(accepted >= count, "{accepted} of {} accepted", 6 * count);
    }

    fn graph_without(m: &mut pb::ModelProto, name: &str) {
        m.graph
            .as_mut()
            .unwrap()
            .initializer
            .retain(|t| t.name != name);
    }
}
