//! Self-play workers and the messages they exchange with the trainer.
//!
//! The worker ↔ trainer boundary is two kinds of postcard-serialized messages, so that
//! workers could run as separate processes or machines without touching the algorithm:
//! - trainer → worker: a [`ParamSnapshot`] (all parameters plus a version number). A
//!   worker only ever loads a complete message between two batched forward passes, so
//!   it never plays with a half-written copy.
//! - worker → trainer: a [`TrajectoryBatch`] through a bounded channel (the replay
//!   container); a full channel blocks the worker (back-pressure).
//!
//! Each worker owns its own model (its own VarStore on the CPU) and plays `tables`
//! tables at once; every seat of every table is the current policy (self-play). At each
//! tick it advances every table to its next decision, encodes all pending decisions of
//! all tables, runs **one** batched forward pass, samples the actions and applies them.
//! Moves that are not decisions are played without the policy and not recorded: a seat
//! with a single legal action, and — with `auto_win` — tsumo and ron.
//!
//! A trajectory is one seat's decisions in one hand; its only reward comes at the end of
//! the hand: the seat's point delta divided by `reward_scale`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use engine::encode::{encode, ENCODED_LEN};
use engine::game::{Action, Game, LegalActions, Phase, NUM_ACTIONS};
use engine::rng::Rng;
use engine::Rules;
use serde::{Deserialize, Serialize};
use tch::{Device, Kind, Tensor};

use super::model::{masked_logits, obs_tensor, ModelConfig, OwnedNet, ParamSnapshot};
use crate::policy::automatic;

/// One decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The encoded observation (`ENCODED_LEN` floats).
    pub obs: Vec<f32>,
    /// The legal actions as a bitset over the action index space.
    pub legal: [u64; 3],
    /// The chosen action index.
    pub action: u16,
    /// Its log-probability under the behaviour policy.
    pub logp: f32,
    /// The behaviour policy's value estimate.
    pub value: f32,
}

/// One seat's decisions in one hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    /// Parameter version used for the first decision.
    pub param_version: u64,
    /// The decisions in order.
    pub steps: Vec<Step>,
    /// The final reward (point delta / reward scale).
    pub reward: f32,
}

/// A worker → trainer message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryBatch {
    /// Sending worker.
    pub worker: u32,
    /// Hands finished since the previous message.
    pub hands: u32,
    /// The trajectories.
    pub trajectories: Vec<Trajectory>,
}

impl TrajectoryBatch {
    /// postcard bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        postcard::to_allocvec(self).context("serializing trajectories")
    }

    /// From postcard bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<TrajectoryBatch> {
        postcard::from_bytes(bytes).context("deserializing trajectories")
    }
}

/// What a worker needs besides its channels.
#[derive(Clone, Debug)]
pub struct WorkerSetup {
    /// Worker index.
    pub id: u32,
    /// The rules (`hands_per_game` is forced to 1: every hand is a fresh deal).
    pub rules: Rules,
    /// Model shape.
    pub model: ModelConfig,
    /// Tables played at once.
    pub tables: usize,
    /// Seed of this worker's walls and sampling.
    pub seed: u64,
    /// Play tsumo and ron automatically.
    pub auto_win: bool,
    /// Trajectories per message.
    pub send_every: usize,
    /// Reward = delta / reward_scale.
    pub reward_scale: f32,
}

/// The channels and flags shared with the trainer.
pub struct WorkerLinks {
    /// Parameter snapshots (postcard bytes).
    pub params: Receiver<Arc<Vec<u8>>>,
    /// Trajectory batches (postcard bytes) into the bounded replay channel.
    pub out: SyncSender<Vec<u8>>,
    /// Set to end the worker.
    pub stop: Arc<AtomicBool>,
    /// While set, the worker idles (the trainer evaluates).
    pub pause: Arc<AtomicBool>,
}

struct Table {
    game: Game,
    traj: [Vec<Step>; 4],
    version: [u64; 4],
}

fn sample(rng: &mut Rng, logp: &[f32]) -> usize {
    let u = rng.next_f32();
    let mut acc = 0.0f32;
    let mut last = 0;
    for (i, &lp) in logp.iter().enumerate() {
        let p = lp.exp();
        if p > 0.0 {
            last = i;
            acc += p;
            if u < acc {
                return i;
            }
        }
    }
    last
}

fn send(links: &WorkerLinks, mut msg: Vec<u8>) -> bool {
    loop {
        match links.out.try_send(msg) {
            Ok(()) => return true,
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(m)) => {
                if links.stop.load(Ordering::Relaxed) {
                    return false;
                }
                msg = m;
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

/// Runs a worker until `stop` is set or the trainer hangs up. Waits for the first
/// parameter snapshot before playing.
pub fn run_worker(setup: WorkerSetup, links: WorkerLinks) -> Result<()> {
    let _guard = tch::no_grad_guard();
    tch::set_num_threads(1);
    let mut rules = setup.rules;
    rules.hands_per_game = 1;
    let players = rules.players as usize;
    let first = loop {
        if links.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        match links.params.recv_timeout(Duration::from_millis(50)) {
            Ok(p) => break p,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(_) => return Ok(()),
        }
    };
    let snap = ParamSnapshot::from_bytes(&first)?;
    if snap.model != setup.model {
        bail!(
            "worker {}: snapshot model {:?} differs from {:?}",
            setup.id,
            snap.model,
            setup.model
        );
    }
    let mut version = snap.version;
    let model = OwnedNet::from_snapshot(&snap, Device::Cpu)?;
    let mut rng = Rng::new(Rng::derive_seed(setup.seed, 0));
    let mut hand_counter = 0u64;
    let new_game = |c: &mut u64| -> Result<Game> {
        *c += 1;
        Game::new(rules, Rng::derive_seed(setup.seed, *c)).map_err(|e| anyhow!("{e}"))
    };
    let mut tables: Vec<Table> = (0..setup.tables.max(1))
        .map(|_| {
            Ok(Table {
                game: new_game(&mut hand_counter)?,
                traj: Default::default(),
                version: [version; 4],
            })
        })
        .collect::<Result<_>>()?;
    let mut outgoing: Vec<Trajectory> = Vec::new();
    let mut hands = 0u32;
    let mut obs_buf: Vec<f32> = Vec::new();
    let mut mask_buf: Vec<f32> = Vec::new();
    let mut pending: Vec<(usize, u8, LegalActions)> = Vec::new();
    let mut enc = [0f32; ENCODED_LEN];
    let mut mask = [0f32; NUM_ACTIONS];
    while !links.stop.load(Ordering::Relaxed) {
        while links.pause.load(Ordering::Relaxed) && !links.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
        // The newest complete snapshot, if any arrived.
        let mut newest = None;
        while let Ok(p) = links.params.try_recv() {
            newest = Some(p);
        }
        if let Some(p) = newest {
            let snap = ParamSnapshot::from_bytes(&p)?;
            snap.load_into(&model.vs)?;
            version = snap.version;
        }
        // Advance every table to its next policy decision.
        pending.clear();
        obs_buf.clear();
        mask_buf.clear();
        for (ti, t) in tables.iter_mut().enumerate() {
            loop {
                if !matches!(t.game.phase(), Phase::Turn | Phase::Claim) {
                    let deltas = t.game.last_result().map(|r| r.deltas).unwrap_or([0; 4]);
                    for (s, &delta) in deltas.iter().enumerate().take(players) {
                        let steps = std::mem::take(&mut t.traj[s]);
                        if !steps.is_empty() {
                            outgoing.push(Trajectory {
                                param_version: t.version[s],
                                steps,
                                reward: delta as f32 / setup.reward_scale,
                            });
                        }
                    }
                    hands += 1;
                    t.game = new_game(&mut hand_counter)?;
                    continue;
                }
                let seats = t.game.seats_to_act();
                let mut auto = None;
                for &seat in &seats {
                    if let Some(a) = automatic(&t.game.legal_actions(seat), setup.auto_win) {
                        auto = Some((seat, a));
                        break;
                    }
                }
                if let Some((seat, a)) = auto {
                    t.game
                        .apply(seat, a)
                        .map_err(|e| anyhow!("worker {}: {e}", setup.id))?;
                    continue;
                }
                for &seat in &seats {
                    let obs = t.game.observation(seat).map_err(|e| anyhow!("{e}"))?;
                    let legal = t.game.legal_actions(seat);
                    encode(&obs, &mut enc);
                    engine::encode::action_mask(&legal, &mut mask);
                    obs_buf.extend_from_slice(&enc);
                    mask_buf.extend_from_slice(&mask);
                    pending.push((ti, seat, legal));
                }
                break;
            }
        }
        if pending.is_empty() {
            continue;
        }
        // One batched forward pass for all tables.
        let b = pending.len() as i64;
        let x = obs_tensor(&obs_buf, Device::Cpu)?;
        let m = Tensor::from_slice(&mask_buf).view([b, NUM_ACTIONS as i64]);
        let (logits, values) = model.net.forward(&x);
        let logp = masked_logits(&logits, &m).log_softmax(-1, Kind::Float);
        let logp: Vec<f32> = Vec::try_from(logp.flatten(0, -1)).context("logits to vec")?;
        let values: Vec<f32> = Vec::try_from(values).context("values to vec")?;
        for (i, (ti, seat, legal)) in pending.iter().enumerate() {
            let row = &logp[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
            let a = sample(&mut rng, row);
            let Some(action) = Action::from_index(a) else {
                continue;
            };
            let t = &mut tables[*ti];
            // An earlier answer in the same claim window may have closed it.
            if !legal.contains(action) || !t.game.seats_to_act().contains(seat) {
                continue;
            }
            t.game
                .apply(*seat, action)
                .map_err(|e| anyhow!("worker {}: {e}", setup.id))?;
            let s = *seat as usize;
            if t.traj[s].is_empty() {
                t.version[s] = version;
            }
            t.traj[s].push(Step {
                obs: obs_buf[i * ENCODED_LEN..(i + 1) * ENCODED_LEN].to_vec(),
                legal: legal.bits(),
                action: a as u16,
                logp: row[a],
                value: values[i],
            });
        }
        if outgoing.len() >= setup.send_every.max(1) {
            let msg = TrajectoryBatch {
                worker: setup.id,
                hands,
                trajectories: std::mem::take(&mut outgoing),
            };
            hands = 0;
            if !send(&links, msg.to_bytes()?) {
                return Ok(());
            }
        }
    }
    Ok(())
}
