//! The oracle critic (`--oracle-critic`): a value function for training only that also
//! sees the opponents' concealed hands, so that the advantages PPO follows carry less of
//! the luck of the hidden tiles.
//!
//! Perfect-information ("oracle") critics are what Suphx (Li et al. 2020, oracle
//! guiding) and the asymmetric actor-critic of Pinto et al. (2018) use: the critic is
//! only needed during training, so it may see what the actor may not. Here the workers
//! record, with each of the learner's decisions, the concealed tiles of the other seats
//! ([`hidden_features`]); the learner evaluates this critic on the update's samples,
//! recomputes GAE with its values instead of the behaviour policy's, and then fits it to
//! the hands' final rewards (Monte-Carlo returns: γ = 1 and the only reward is at the
//! end of the hand). The actor and its own value head — the one exported — still see
//! the observation only; the value head is trained on the λ-returns as before.
//!
//! The network is a small MLP on the flat encoding plus the hidden counts:
//! `[encoded length + HIDDEN_LEN] → 256 → GELU → 256 → GELU → 1` (the encoded length of
//! the run's encoding: 1260 in v1, 1680 in v2).

use anyhow::{bail, Result};
use engine::encode::Encoding;
use engine::game::Game;
use engine::rng::Rng;
use engine::tile::NUM_TILE_TYPES;
use serde::{Deserialize, Serialize};
use tch::{nn, nn::Module, Device, Kind, Tensor};

use super::adam::{Adam, AdamState};
use super::model::{named, NamedTensor};

/// Hidden features per sample: the concealed-tile counts (/ 4) of relative seats 1, 2
/// and 3 (the fourth slot is 0 in sanma).
pub const HIDDEN_LEN: usize = 3 * NUM_TILE_TYPES;

/// Width of the oracle critic's hidden layers.
const WIDTH: i64 = 256;

/// The concealed tiles of every seat but `seat` (relative seats 1.., counts per type),
/// as bytes: the worker's record of what the oracle critic may see.
pub fn hidden_features(game: &Game, seat: u8, players: u8) -> Vec<u8> {
    let mut out = vec![0u8; HIDDEN_LEN];
    for r in 1..players {
        let other = (seat + r) % players;
        if let Some(hand) = game.hand(other) {
            let slot = (r - 1) as usize * NUM_TILE_TYPES;
            out[slot..slot + NUM_TILE_TYPES].copy_from_slice(&hand[..NUM_TILE_TYPES]);
        }
    }
    out
}

/// The saved state of the oracle critic (parameters and optimizer).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OracleState {
    /// Parameters by name.
    pub tensors: Vec<NamedTensor>,
    /// Its Adam state.
    pub adam: AdamState,
}

/// The oracle critic with its optimizer.
pub struct OracleCritic {
    vs: nn::VarStore,
    net: nn::Sequential,
    adam: Adam,
    device: Device,
    /// Floats per encoded observation.
    encoded_len: usize,
}

impl OracleCritic {
    /// A fresh critic on `device` with learning rate `lr` for observations in
    /// `encoding`, or the saved one.
    pub fn new(
        device: Device,
        lr: f64,
        encoding: Encoding,
        saved: Option<&OracleState>,
    ) -> Result<OracleCritic> {
        let vs = nn::VarStore::new(device);
        let p = vs.root();
        let encoded_len = encoding.encoded_len();
        let input = (encoded_len + HIDDEN_LEN) as i64;
        let net = nn::seq()
            .add(nn::linear(&p / "l1", input, WIDTH, Default::default()))
            .add_fn(|x| x.gelu("none"))
            .add(nn::linear(&p / "l2", WIDTH, WIDTH, Default::default()))
            .add_fn(|x| x.gelu("none"))
            .add(nn::linear(&p / "l3", WIDTH, 1, Default::default()));
        let mut adam = Adam::new(&vs, lr);
        if let Some(s) = saved {
            let vars = vs.variables();
            if vars.len() != s.tensors.len() {
                bail!(
                    "oracle critic: {} saved tensors for {}",
                    s.tensors.len(),
                    vars.len()
                );
            }
            tch::no_grad(|| -> Result<()> {
                for t in &s.tensors {
                    let Some(v) = vars.get(&t.name) else {
                        bail!("oracle critic: unknown saved tensor {:?}", t.name)
                    };
                    if v.size() != t.shape || t.data.len() as i64 != t.shape.iter().product::<i64>()
                    {
                        bail!("oracle critic: tensor {:?} has the wrong shape", t.name);
                    }
                    let src = Tensor::from_slice(&t.data)
                        .view(t.shape.as_slice())
                        .to_device(device);
                    v.shallow_clone().copy_(&src);
                }
                Ok(())
            })?;
            adam.load_state(&s.adam)?;
        }
        Ok(OracleCritic {
            vs,
            net,
            adam,
            device,
            encoded_len,
        })
    }

    fn input(&self, obs: &[f32], hidden: &[f32]) -> Result<Tensor> {
        let len = self.encoded_len;
        let n = obs.len() / len;
        if obs.len() != n * len || hidden.len() != n * HIDDEN_LEN {
            bail!(
                "oracle critic: {} observation and {} hidden floats",
                obs.len(),
                hidden.len()
            );
        }
        let o = Tensor::from_slice(obs).view([n as i64, len as i64]);
        let h = Tensor::from_slice(hidden).view([n as i64, HIDDEN_LEN as i64]);
        Ok(Tensor::cat(&[o, h], 1).to_device(self.device))
    }

    /// The critic's values of the samples (no gradient), in batches of `batch`.
    pub fn values(&self, obs: &[f32], hidden: &[f32], batch: usize) -> Result<Vec<f32>> {
        let _g = tch::no_grad_guard();
        let x = self.input(obs, hidden)?;
        let n = x.size()[0];
        let mut out = Vec::with_capacity(n as usize);
        let b = batch.max(1) as i64;
        let mut i = 0;
        while i < n {
            let len = b.min(n - i);
            let v = self
                .net
                .forward(&x.narrow(0, i, len))
                .squeeze_dim(-1)
                .to_device(Device::Cpu);
            out.extend(Vec::<f32>::try_from(v)?);
            i += len;
        }
        Ok(out)
    }

    /// One epoch of regression of the values on `target` (minibatches of `batch`, in an
    /// order drawn with `rng`); returns the mean squared error before each step.
    pub fn fit(
        &mut self,
        obs: &[f32],
        hidden: &[f32],
        target: &[f32],
        batch: usize,
        rng: &mut Rng,
    ) -> Result<f64> {
        let x = self.input(obs, hidden)?;
        if target.len() as i64 != x.size()[0] {
            bail!(
                "oracle critic: {} targets for {} samples",
                target.len(),
                x.size()[0]
            );
        }
        let y = Tensor::from_slice(target).to_device(self.device);
        let mut order: Vec<i64> = (0..target.len() as i64).collect();
        rng.shuffle(&mut order);
        let (mut loss_sum, mut steps) = (0f64, 0f64);
        for chunk in order.chunks(batch.max(1)) {
            let idx = Tensor::from_slice(chunk).to_device(self.device);
            let v = self.net.forward(&x.index_select(0, &idx)).squeeze_dim(-1);
            let loss = (v - y.index_select(0, &idx))
                .pow_tensor_scalar(2)
                .mean(Kind::Float);
            self.adam.zero_grad();
            loss.backward();
            self.adam.clip_grad_norm(1.0);
            self.adam.step();
            loss_sum += loss.double_value(&[]);
            steps += 1.0;
        }
        Ok(loss_sum / steps.max(1.0))
    }

    /// The state to save in a checkpoint.
    pub fn state(&self) -> Result<OracleState> {
        let mut vars: Vec<(String, Tensor)> = self.vs.variables().into_iter().collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(OracleState {
            tensors: vars
                .iter()
                .map(|(n, t)| named(n, t))
                .collect::<Result<_>>()?,
            adam: self.adam.state()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::bots::{Agent, EfficiencyBot};
    use engine::Rules;

    #[test]
    fn hidden_features_are_the_other_seats_concealed_tiles() {
        let mut game = Game::new(Rules::sanma(), 4).unwrap();
        for _ in 0..10 {
            let seat = game.seats_to_act()[0];
            let obs = game.observation(seat).unwrap();
            let a = EfficiencyBot.act(&obs, &game.legal_actions(seat));
            game.apply(seat, a).unwrap();
        }
        let h = hidden_features(&game, 1, 3);
        assert_eq!(h.len(), HIDDEN_LEN);
        assert_eq!(&h[..34], &game.hand(2).unwrap()[..]);
        assert_eq!(&h[34..68], &game.hand(0).unwrap()[..]);
        assert!(h[68..].iter().all(|&x| x == 0), "no fourth seat in sanma");
        assert!(h[..68].iter().map(|&x| x as u32).sum::<u32>() >= 26);
    }

    #[test]
    fn the_critic_fits_a_signal_in_the_hidden_features_and_round_trips() {
        tch::manual_seed(1);
        let mut rng = Rng::new(3);
        let n = 512;
        let obs = vec![0.1f32; n * Encoding::V1.encoded_len()];
        let mut hidden = vec![0f32; n * HIDDEN_LEN];
        let mut target = vec![0f32; n];
        for i in 0..n {
            let x = rng.next_f32();
            hidden[i * HIDDEN_LEN + 5] = x;
            target[i] = 2.0 * x - 1.0;
        }
        let mut c = OracleCritic::new(Device::Cpu, 1e-3, Encoding::V1, None).unwrap();
        let first = c.fit(&obs, &hidden, &target, 64, &mut rng).unwrap();
        let mut last = first;
        for _ in 0..30 {
            last = c.fit(&obs, &hidden, &target, 64, &mut rng).unwrap();
        }
        assert!(last < first * 0.2, "{first} -> {last}");
        let v = c.values(&obs, &hidden, 100).unwrap();
        assert_eq!(v.len(), n);
        let saved = c.state().unwrap();
        let again = OracleCritic::new(Device::Cpu, 1e-3, Encoding::V1, Some(&saved)).unwrap();
        assert_eq!(again.values(&obs, &hidden, 100).unwrap(), v);
        assert!(c.values(&obs[1..], &hidden, 7).is_err());
        let mut broken = saved.clone();
        broken.tensors.pop();
        assert!(OracleCritic::new(Device::Cpu, 1e-3, Encoding::V1, Some(&broken)).is_err());
    }
}
