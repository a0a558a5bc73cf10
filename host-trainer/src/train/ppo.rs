//! PPO: generalized advantage estimation and the clipped-surrogate update.
//!
//! Loss on a minibatch (means over its samples):
//!
//! ```text
//! ratio    = exp(log π(a|s) − log π_old(a|s))
//! policy   = −min(ratio · Â, clip(ratio, 1 − ε, 1 + ε) · Â)      (Â normalised per update)
//! value    = (V(s) − R)²                                          (R = Â_raw + V_old)
//! entropy  = −Σ_a π(a|s) log π(a|s)                                (over legal actions)
//! guidance = −Σ_a q(a|s) log π(a|s)            on samples with a guidance target q
//! loss     = policy + c_v · value − c_e · entropy + c_g(update) · guidance
//! ```
//!
//! Gradients are clipped to a global norm before each Adam step.

use anyhow::{bail, Result};
use engine::encode::Encoding;
use engine::rng::Rng;
use engine::tile::NUM_TILE_TYPES;
use serde::{Deserialize, Serialize};
use tch::{Device, Kind, Tensor};

use super::adam::Adam;
use super::model::{masked_logits, obs_tensor, PolicyNet};

/// GAE over one episode with a terminal end (the value after the last step is 0).
/// Returns `(advantages, returns)` with `returns = advantages + values`.
pub fn gae(rewards: &[f32], values: &[f32], gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
    let n = rewards.len().min(values.len());
    let mut adv = vec![0.0f32; n];
    let mut next_value = 0.0f32;
    let mut running = 0.0f32;
    for t in (0..n).rev() {
        let delta = rewards[t] + gamma * next_value - values[t];
        running = delta + gamma * lambda * running;
        adv[t] = running;
        next_value = values[t];
    }
    let ret = adv.iter().zip(values).map(|(a, v)| a + v).collect();
    (adv, ret)
}

/// The samples of one PPO update, as flat host arrays.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Encoded observations, `ENCODED_LEN` floats per sample.
    pub obs: Vec<f32>,
    /// Legal-action masks, `POLICY_ACTIONS_V1` per sample (1 legal, 0 not).
    pub mask: Vec<f32>,
    /// Chosen action indices.
    pub action: Vec<i64>,
    /// Log-probability of the action under the behaviour policy.
    pub old_logp: Vec<f32>,
    /// Advantages (raw, normalised inside [`update`]).
    pub adv: Vec<f32>,
    /// Value targets.
    pub ret: Vec<f32>,
    /// Guidance target over the action space (all zero = no target), `POLICY_ACTIONS_V1` per
    /// sample.
    pub guide: Vec<f32>,
    /// The other seats' concealed counts / 4 (`oracle::HIDDEN_LEN` per sample), for the
    /// oracle critic only; empty when it is off.
    pub hidden: Vec<f32>,
}

impl Samples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.action.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.action.is_empty()
    }
}

/// The PPO coefficients of one update.
#[derive(Clone, Copy, Debug)]
pub struct PpoParams {
    /// Epochs over the samples.
    pub epochs: usize,
    /// Minibatch size.
    pub minibatch: usize,
    /// Clip range.
    pub clip: f64,
    /// Value-loss coefficient.
    pub value_coef: f64,
    /// Entropy coefficient.
    pub entropy_coef: f64,
    /// Guidance coefficient for this update (0 = off).
    pub guidance_coef: f64,
    /// Gradient norm limit.
    pub max_grad_norm: f64,
    /// Stop the epochs early once an epoch's mean approximate KL exceeds this (after
    /// cleanrl's `target_kl`; `None` = run every epoch).
    pub target_kl: Option<f64>,
}

/// Statistics of one update (means over minibatches).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct UpdateStats {
    /// Clipped-surrogate loss.
    pub policy_loss: f64,
    /// Value loss.
    pub value_loss: f64,
    /// Policy entropy.
    pub entropy: f64,
    /// Approximate KL(old ‖ new), `mean(log π_old − log π)`.
    pub approx_kl: f64,
    /// Fraction of samples whose ratio was clipped.
    pub clip_fraction: f64,
    /// Guidance cross-entropy (on samples with a target).
    pub guidance_loss: f64,
    /// Gradient norm before clipping.
    pub grad_norm: f64,
    /// Epochs run (fewer than asked when the target KL stopped them).
    pub epochs: f64,
    /// Share of the samples with a guidance target whose greedy action (before the
    /// update step) is one of the target's most likely actions.
    pub guidance_agreement: f64,
}

/// Runs `params.epochs` epochs of PPO over `s` on `device`, minibatches drawn at random
/// without replacement with `rng`.
pub fn update(
    net: &PolicyNet,
    adam: &mut Adam,
    s: &Samples,
    params: &PpoParams,
    device: Device,
    rng: &mut Rng,
) -> Result<UpdateStats> {
    let t = SampleTensors::new(s, net.encoding, device)?;
    let n = s.len();
    let mb = params.minibatch.clamp(1, n);
    let mut stats = UpdateStats::default();
    let mut count = 0.0f64;
    let mut order: Vec<i64> = (0..n as i64).collect();
    for _ in 0..params.epochs.max(1) {
        rng.shuffle(&mut order);
        stats.epochs += 1.0;
        let (kl_before, count_before) = (stats.approx_kl, count);
        for chunk in order.chunks(mb) {
            minibatch_step(net, adam, &t, chunk, params, &mut stats);
            count += 1.0;
        }
        let epoch_kl = (stats.approx_kl - kl_before) / (count - count_before).max(1.0);
        if params.target_kl.is_some_and(|t| epoch_kl > t) {
            break;
        }
    }
    for x in [
        &mut stats.policy_loss,
        &mut stats.value_loss,
        &mut stats.entropy,
        &mut stats.approx_kl,
        &mut stats.clip_fraction,
        &mut stats.guidance_loss,
        &mut stats.guidance_agreement,
        &mut stats.grad_norm,
    ] {
        *x /= count;
    }
    Ok(stats)
}

/// An update's samples as tensors on the learner's device (advantages normalised).
struct SampleTensors {
    obs: Tensor,
    mask: Tensor,
    action: Tensor,
    old_logp: Tensor,
    adv: Tensor,
    ret: Tensor,
    guide: Tensor,
    /// 1 for the samples with a guidance target.
    has_guide: Tensor,
}

impl SampleTensors {
    fn new(s: &Samples, encoding: Encoding, device: Device) -> Result<SampleTensors> {
        let n = s.len();
        if n == 0 {
            bail!("no samples");
        }
        let actions = encoding.policy_actions();
        if s.mask.len() != n * actions
            || s.guide.len() != n * actions
            || s.adv.len() != n
            || s.ret.len() != n
        {
            bail!("inconsistent sample arrays");
        }
        let rows = |v: &[f32]| {
            Tensor::from_slice(v)
                .view([n as i64, actions as i64])
                .to_device(device)
        };
        let adv = Tensor::from_slice(&s.adv).to_device(device);
        let adv = if n > 1 {
            (&adv - adv.mean(Kind::Float)) / (adv.std(true) + 1e-8)
        } else {
            adv
        };
        let guide = rows(&s.guide);
        let has_guide = guide
            .sum_dim_intlist(1, false, Kind::Float)
            .gt(0.0)
            .to_kind(Kind::Float);
        Ok(SampleTensors {
            obs: obs_tensor(&s.obs, encoding, device)?,
            mask: rows(&s.mask),
            action: Tensor::from_slice(&s.action).to_device(device),
            old_logp: Tensor::from_slice(&s.old_logp).to_device(device),
            adv,
            ret: Tensor::from_slice(&s.ret).to_device(device),
            guide,
            has_guide,
        })
    }
}

/// One gradient step on the samples `chunk`: clipped surrogate + value + entropy +
/// guidance loss; its statistics added to `stats`.
fn minibatch_step(
    net: &PolicyNet,
    adam: &mut Adam,
    t: &SampleTensors,
    chunk: &[i64],
    params: &PpoParams,
    stats: &mut UpdateStats,
) {
    let idx = Tensor::from_slice(chunk).to_device(t.obs.device());
    let (logits, value) = net.forward(&t.obs.index_select(0, &idx));
    let m = t.mask.index_select(0, &idx);
    let logp_all = masked_logits(&logits, &m).log_softmax(-1, Kind::Float);
    let a = t.action.index_select(0, &idx);
    let logp = logp_all.gather(1, &a.unsqueeze(1), false).squeeze_dim(1);
    let old = t.old_logp.index_select(0, &idx);
    let ratio = (&logp - &old).exp();
    let adv_b = t.adv.index_select(0, &idx);
    let surr1 = &ratio * &adv_b;
    let surr2 = ratio.clamp(1.0 - params.clip, 1.0 + params.clip) * &adv_b;
    let policy_loss = -surr1.minimum(&surr2).mean(Kind::Float);
    let value_loss = (&value - t.ret.index_select(0, &idx))
        .pow_tensor_scalar(2)
        .mean(Kind::Float);
    let probs = logp_all.exp();
    let entropy = -(&probs * &logp_all)
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float);
    let mut loss = &policy_loss + params.value_coef * &value_loss - params.entropy_coef * &entropy;
    let hg = t.has_guide.index_select(0, &idx);
    let g = t.guide.index_select(0, &idx);
    let ce = -(&g * &logp_all).sum_dim_intlist(1, false, Kind::Float);
    let guided = hg.sum(Kind::Float).clamp_min(1.0);
    let guidance_loss = (ce * &hg).sum(Kind::Float) / &guided;
    if params.guidance_coef > 0.0 {
        loss += params.guidance_coef * &guidance_loss;
    }
    adam.zero_grad();
    loss.backward();
    let gn = adam.clip_grad_norm(params.max_grad_norm);
    adam.step();
    tch::no_grad(|| {
        stats.policy_loss += policy_loss.double_value(&[]);
        stats.value_loss += value_loss.double_value(&[]);
        stats.entropy += entropy.double_value(&[]);
        stats.approx_kl += (&old - &logp).mean(Kind::Float).double_value(&[]);
        stats.clip_fraction += (&ratio - 1.0)
            .abs()
            .gt(params.clip)
            .to_kind(Kind::Float)
            .mean(Kind::Float)
            .double_value(&[]);
        stats.guidance_loss += guidance_loss.double_value(&[]);
        // The greedy action (before this step) against the target's most likely ones.
        let greedy = logp_all.argmax(-1, false).unsqueeze(1);
        let best = g.amax(&[1i64][..], false);
        let agree = g
            .gather(1, &greedy, false)
            .squeeze_dim(1)
            .ge_tensor(&(best - 1e-6))
            .to_kind(Kind::Float);
        stats.guidance_agreement += ((agree * &hg).sum(Kind::Float) / &guided).double_value(&[]);
    });
    stats.grad_norm += gn;
}

/// The guidance target of one encoded observation and its legal mask: uniform over the
/// legal discards with the highest value score (the efficiency bot's choice up to its
/// tie-break), written into `out` (34 floats); all zero when the observation has no
/// value-score matrix (not a discard decision). Any encoding version: the row width is
/// `obs.len() / NUM_TOKENS`, and the value-score columns are v1's in every version.
pub fn guidance_target(obs: &[f32], mask: &[f32], out: &mut [f32]) {
    use engine::encode::{tf, NUM_TOKENS};
    let stride = obs.len() / NUM_TOKENS;
    out.iter_mut().for_each(|x| *x = 0.0);
    let mut best = f32::NEG_INFINITY;
    for t in 0..NUM_TILE_TYPES.min(out.len()) {
        let held = obs.get(t * stride + tf::HELD).copied().unwrap_or(0.0) > 0.5;
        if held && mask.get(t).copied().unwrap_or(0.0) > 0.5 {
            best = best.max(obs.get(t * stride + tf::SCORE).copied().unwrap_or(0.0));
        }
    }
    if !best.is_finite() {
        return;
    }
    let mut k = 0.0;
    for (t, o) in out.iter_mut().enumerate().take(NUM_TILE_TYPES) {
        let held = obs.get(t * stride + tf::HELD).copied().unwrap_or(0.0) > 0.5;
        if held
            && mask.get(t).copied().unwrap_or(0.0) > 0.5
            && obs.get(t * stride + tf::SCORE).copied().unwrap_or(0.0) >= best - 1e-6
        {
            *o = 1.0;
            k += 1.0;
        }
    }
    if k > 0.0 {
        out.iter_mut().for_each(|x| *x /= k);
    }
}
