//! Adam written on tensors, so that its state (step count, first and second moments)
//! can be saved in a checkpoint and restored exactly — tch's `nn::Optimizer` does not
//! expose its state. Includes global-norm gradient clipping.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use tch::{nn, Tensor};

use super::model::{named, NamedTensor};

/// Adam (Kingma & Ba) with bias correction, no weight decay.
pub struct Adam {
    /// Learning rate.
    pub lr: f64,
    /// First-moment decay.
    pub beta1: f64,
    /// Second-moment decay.
    pub beta2: f64,
    /// Denominator epsilon.
    pub eps: f64,
    step: u64,
    /// (name, parameter, m, v), sorted by name.
    slots: Vec<(String, Tensor, Tensor, Tensor)>,
}

/// The saved state of an [`Adam`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdamState {
    /// Steps taken.
    pub step: u64,
    /// First moments by parameter name.
    pub m: Vec<NamedTensor>,
    /// Second moments by parameter name.
    pub v: Vec<NamedTensor>,
}

impl Adam {
    /// Adam over the trainable variables of `vs` (moments start at zero).
    pub fn new(vs: &nn::VarStore, lr: f64) -> Adam {
        let mut vars: Vec<(String, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        let slots = vars
            .into_iter()
            .map(|(n, p)| {
                let m = p.zeros_like().detach();
                let v = p.zeros_like().detach();
                (n, p, m, v)
            })
            .collect();
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            step: 0,
            slots,
        }
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Clears the gradients of all parameters.
    pub fn zero_grad(&mut self) {
        for (_, p, _, _) in &mut self.slots {
            p.zero_grad();
        }
    }

    /// Scales gradients so that their global L2 norm is at most `max_norm`; returns the
    /// norm before clipping.
    pub fn clip_grad_norm(&mut self, max_norm: f64) -> f64 {
        tch::no_grad(|| {
            let mut total = 0.0f64;
            for (_, p, _, _) in &self.slots {
                let g = p.grad();
                if g.defined() {
                    total += g
                        .pow_tensor_scalar(2)
                        .sum(tch::Kind::Float)
                        .double_value(&[]);
                }
            }
            let norm = total.sqrt();
            if norm.is_finite() && norm > max_norm && max_norm > 0.0 {
                let scale = max_norm / (norm + 1e-6);
                for (_, p, _, _) in &self.slots {
                    let mut g = p.grad();
                    if g.defined() {
                        let _ = g.g_mul_scalar_(scale);
                    }
                }
            }
            norm
        })
    }

    /// One Adam step with the current gradients.
    pub fn step(&mut self) {
        self.step += 1;
        let (b1, b2) = (self.beta1, self.beta2);
        let bc1 = 1.0 - b1.powi(self.step.min(i32::MAX as u64) as i32);
        let bc2 = 1.0 - b2.powi(self.step.min(i32::MAX as u64) as i32);
        let step_size = self.lr / bc1;
        tch::no_grad(|| {
            for (_, p, m, v) in &mut self.slots {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                let _ = m.g_mul_scalar_(b1);
                let _ = m.g_add_(&(&g * (1.0 - b1)));
                let _ = v.g_mul_scalar_(b2);
                let _ = v.addcmul_(&(&g * (1.0 - b2)), &g);
                let denom = (v.shallow_clone() / bc2).sqrt() + self.eps;
                let _ = p.addcdiv_(&(m.shallow_clone() * (-step_size)), &denom);
            }
        });
    }

    /// The state to save.
    pub fn state(&self) -> Result<AdamState> {
        let mut m = Vec::with_capacity(self.slots.len());
        let mut v = Vec::with_capacity(self.slots.len());
        for (n, _, mt, vt) in &self.slots {
            m.push(named(n, mt)?);
            v.push(named(n, vt)?);
        }
        Ok(AdamState {
            step: self.step,
            m,
            v,
        })
    }

    /// Restores a saved state (the parameters must have the same names and shapes).
    pub fn load_state(&mut self, s: &AdamState) -> Result<()> {
        if s.m.len() != self.slots.len() || s.v.len() != self.slots.len() {
            bail!(
                "optimizer state has {} moments for {} parameters",
                s.m.len(),
                self.slots.len()
            );
        }
        tch::no_grad(|| -> Result<()> {
            for ((n, p, m, v), (sm, sv)) in self.slots.iter_mut().zip(s.m.iter().zip(&s.v)) {
                for (dst, src) in [(m, sm), (v, sv)] {
                    if &src.name != n || src.shape != dst.size() {
                        bail!(
                            "optimizer state for {:?} {:?} does not match {n:?} {:?}",
                            src.name,
                            src.shape,
                            dst.size()
                        );
                    }
                    if src.shape.iter().product::<i64>() as usize != src.data.len() {
                        bail!("optimizer state for {n:?} has the wrong number of values");
                    }
                    let t = Tensor::from_slice(&src.data)
                        .view(src.shape.as_slice())
                        .to_device(p.device());
                    dst.f_copy_(&t).context("restoring optimizer state")?;
                }
            }
            Ok(())
        })?;
        self.step = s.step;
        Ok(())
    }
}
