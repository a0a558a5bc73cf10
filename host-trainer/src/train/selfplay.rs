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
//! tables at once. Every hand, one seat (rotating) is the current policy and the others
//! are drawn from the opponent mix ([`super::opponents`]): the current policy again,
//! the efficiency bot, or a past snapshot (a second model, loaded from the snapshot the
//! worker received `past_lag` pushes ago). At each tick it advances every table to its
//! next policy decision (efficiency-bot seats move inline), encodes all pending
//! decisions of all tables, runs **one** batched forward pass per model, samples the
//! actions and applies them. Moves that are not decisions are played without the
//! policy and not recorded: a seat with a single legal action, and — with `auto_win` —
//! tsumo and ron. Only the current policy's decisions are recorded.
//!
//! A trajectory is one seat's decisions in one hand; its only reward comes at the end of
//! the hand: the seat's point delta plus `win_bonus` if it won, divided by
//! `reward_scale`.
//!
//! A table is a fresh deal per hand, or with `whole_games` a whole game of the rules'
//! length, so that the policy also plays the South round, honba, carried riichi sticks
//! and uneven scores it meets in real games. In whole games a hand's reward also carries
//! the placement shaping `placement[rank after the hand] − placement[rank before it]`
//! (`placement` = W × the uma by rank, in points): a potential-based shaping with the
//! current rank's uma as the potential (after Ng, Harada & Russell, "Policy invariance
//! under reward transformations", ICML 1999), so that over a game the hands' shaping
//! sums to W × the final rank's uma minus a constant of the seat (the first dealer
//! ranks first at the equal start, by Tenhou's tie-break). Each hand is still its own
//! episode, so that no trajectory waits for the end of a game (and goes stale, see
//! `max_staleness`): the shaping credits a hand with the change in standing it made.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use engine::game::{Action, Game, LegalActions, Observation, Phase};
use engine::rng::Rng;
use engine::Rules;
use serde::{Deserialize, Serialize};
use tch::{Device, Kind, Tensor};

use super::model::{masked_logits, obs_tensor, ModelConfig, OwnedNet, ParamSnapshot};
use super::opponents::{OpponentMix, SeatKind};
use super::oracle::hidden_features;
use super::search_teacher::{SearchTeacher, SearchTeacherSetup};
use arena::games::ranks;
use arena::policy::{automatic, EncodedDecision};
use engine::bots::{Agent, DefendBot, EfficiencyBot};

/// One decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The encoded observation (the run's encoding length: 1260 floats in v1, 1680 in v2).
    pub obs: Vec<f32>,
    /// The legal actions as a bitset over the action index space.
    pub legal: [u64; 3],
    /// The chosen action index.
    pub action: u16,
    /// Its log-probability under the behaviour policy.
    pub logp: f32,
    /// The behaviour policy's value estimate.
    pub value: f32,
    /// The teacher bot's choice in this position (the `eff` or `defend` teacher's target;
    /// 0 when the worker does not record it).
    pub teacher: u16,
    /// Rollout-search values (action index, estimated points) of the candidates, for a
    /// decision the `search` teacher labelled; empty otherwise.
    pub search: Vec<(u16, f32)>,
    /// The other seats' concealed tiles for the oracle critic
    /// ([`super::oracle::hidden_features`]; empty when it is off).
    pub hidden: Vec<u8>,
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
    /// The rules (`hands_per_game` is forced to 1 unless `whole_games`: every hand is
    /// then a fresh deal).
    pub rules: Rules,
    /// Play whole games of the rules' length instead of a fresh deal per hand.
    pub whole_games: bool,
    /// The placement shaping's potential by rank (first to last), in points; zeros
    /// when off (see the module docs).
    pub placement: [f32; 4],
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
    /// Reward = (delta + win_bonus if won) / reward_scale.
    pub reward_scale: f32,
    /// Points added to the reward of a seat that won.
    pub win_bonus: f32,
    /// Who sits at the seats the learner does not hold.
    pub opponents: OpponentMix,
    /// Snapshots between the current policy and a `past` opponent.
    pub past_lag: usize,
    /// Record this bot's choice with each decision (`Step::teacher`; only the `eff` and
    /// `defend` teachers read it, so other runs skip the bot's work).
    pub record_teacher: Option<TeacherBot>,
    /// Label a fraction of the decisions with search values (`Step::search`; the
    /// `search` teacher).
    pub search: Option<SearchTeacherSetup>,
    /// Record the other seats' concealed tiles with each decision (`Step::hidden`; the
    /// oracle critic).
    pub record_hidden: bool,
}

/// The bot whose choice a worker records as the guidance target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeacherBot {
    /// The efficiency bot (`--teacher eff`).
    Efficiency,
    /// The defending bot (`--teacher defend`).
    Defend,
}

impl TeacherBot {
    /// The bot's choice.
    fn act(self, obs: &Observation, legal: &LegalActions) -> Action {
        match self {
            TeacherBot::Efficiency => EfficiencyBot.act(obs, legal),
            TeacherBot::Defend => DefendBot.act(obs, legal),
        }
    }
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
    kinds: [SeatKind; 4],
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

/// A pending decision of the current policy or of a past snapshot.
struct Pending {
    table: usize,
    seat: u8,
    legal: LegalActions,
    /// The efficiency bot's choice (recorded with the current policy's decisions).
    teacher: u16,
    /// The search teacher's values (current policy's decisions drawn for labelling).
    search: Vec<(u16, f32)>,
    /// The other seats' concealed tiles (oracle critic).
    hidden: Vec<u8>,
    /// Which model decides, and its row in that model's batch.
    past: bool,
    row: usize,
}

/// The observations and masks of one model's batch.
#[derive(Default)]
struct Batch {
    obs: Vec<f32>,
    mask: Vec<f32>,
    rows: usize,
}

impl Batch {
    fn clear(&mut self) {
        self.obs.clear();
        self.mask.clear();
        self.rows = 0;
    }

    /// Log-probabilities (`rows × A`, A = the model's logits) and values of the batch
    /// under `model`.
    fn forward(&self, model: &OwnedNet) -> Result<(Vec<f32>, Vec<f32>)> {
        if self.rows == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let encoding = model.net.encoding;
        let x = obs_tensor(&self.obs, encoding, Device::Cpu)?;
        let actions = encoding.policy_actions() as i64;
        let m = Tensor::from_slice(&self.mask).view([self.rows as i64, actions]);
        let (logits, values) = model.net.forward(&x);
        let logp = masked_logits(&logits, &m).log_softmax(-1, Kind::Float);
        let logp: Vec<f32> = Vec::try_from(logp.flatten(0, -1)).context("logits to vec")?;
        let values: Vec<f32> = Vec::try_from(values).context("values to vec")?;
        Ok((logp, values))
    }
}

/// The snapshots a worker received, newest last, and the model of the oldest kept
/// (the `past` opponent: `past_lag` pushes behind, or the oldest there is).
struct PastPolicy {
    history: std::collections::VecDeque<Arc<Vec<u8>>>,
    lag: usize,
    model: OwnedNet,
}

impl PastPolicy {
    fn new(first: &Arc<Vec<u8>>, lag: usize) -> Result<PastPolicy> {
        let snap = ParamSnapshot::from_bytes(first)?;
        Ok(PastPolicy {
            history: std::iter::once(first.clone()).collect(),
            lag,
            model: OwnedNet::from_snapshot(&snap, Device::Cpu)?,
        })
    }

    fn received(&mut self, bytes: &Arc<Vec<u8>>) -> Result<()> {
        self.history.push_back(bytes.clone());
        if self.history.len() > self.lag + 1 {
            self.history.pop_front();
            if let Some(oldest) = self.history.front() {
                ParamSnapshot::from_bytes(oldest)?
                    .load_into(&self.model.vs, self.model.net.encoding)?;
            }
        }
        Ok(())
    }
}

/// Runs a worker until `stop` is set or the trainer hangs up. Waits for the first
/// parameter snapshot before playing. The loop, top to bottom: take the newest
/// parameters, advance every table to its next policy decision, one batched forward
/// pass per model, apply the sampled actions, send the finished trajectories.
pub fn run_worker(setup: WorkerSetup, links: WorkerLinks) -> Result<()> {
    let _guard = tch::no_grad_guard();
    tch::set_num_threads(1);
    let Some(mut w) = Worker::start(setup, &links)? else {
        return Ok(());
    };
    while !links.stop.load(Ordering::Relaxed) {
        while links.pause.load(Ordering::Relaxed) && !links.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
        w.take_parameters(&links)?;
        w.advance_tables()?;
        if w.pending.is_empty() {
            continue;
        }
        w.decide()?;
        if !w.send_finished(&links)? {
            return Ok(());
        }
    }
    Ok(())
}

/// A worker's state between two steps of its loop.
struct Worker {
    setup: WorkerSetup,
    rules: Rules,
    players: usize,
    model: OwnedNet,
    /// The parameter version the current model has.
    version: u64,
    past: Option<PastPolicy>,
    labeller: Option<SearchTeacher>,
    /// Sampling of the actions.
    rng: Rng,
    /// Who sits where at a new table.
    seat_rng: Rng,
    hand_counter: u64,
    tables: Vec<Table>,
    outgoing: Vec<Trajectory>,
    /// Hands finished since the last message.
    hands: u32,
    current: Batch,
    past_batch: Batch,
    pending: Vec<Pending>,
}

impl Worker {
    /// Waits for the first snapshot and deals the tables; `None` when stopped first.
    fn start(setup: WorkerSetup, links: &WorkerLinks) -> Result<Option<Worker>> {
        let mut rules = setup.rules;
        if !setup.whole_games {
            rules.hands_per_game = 1;
        }
        let first = loop {
            if links.stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            match links.params.recv_timeout(Duration::from_millis(50)) {
                Ok(p) => break p,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(_) => return Ok(None),
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
        let past = if setup.opponents.uses_past() {
            Some(PastPolicy::new(&first, setup.past_lag)?)
        } else {
            None
        };
        let labeller = match setup.search {
            Some(s) => Some(SearchTeacher::new(
                &rules,
                s,
                Rng::derive_seed(setup.seed, 0x5EA2C4),
            )?),
            None => None,
        };
        let mut w = Worker {
            rng: Rng::new(Rng::derive_seed(setup.seed, 0)),
            seat_rng: Rng::new(Rng::derive_seed(setup.seed, u64::MAX)),
            players: rules.players as usize,
            rules,
            model: OwnedNet::from_snapshot(&snap, Device::Cpu)?,
            version: snap.version,
            past,
            labeller,
            hand_counter: 0,
            tables: Vec::new(),
            outgoing: Vec::new(),
            hands: 0,
            current: Batch::default(),
            past_batch: Batch::default(),
            pending: Vec::new(),
            setup,
        };
        for _ in 0..w.setup.tables.max(1) {
            let t = w.new_table()?;
            w.tables.push(t);
        }
        Ok(Some(w))
    }

    /// A fresh deal, the learner's seat rotating with the hand count.
    fn new_table(&mut self) -> Result<Table> {
        self.hand_counter += 1;
        let c = self.hand_counter;
        let game = Game::new(self.rules, Rng::derive_seed(self.setup.seed, c))
            .map_err(|e| anyhow!("{e}"))?;
        let learner = (c % self.players as u64) as usize;
        Ok(Table {
            game,
            traj: Default::default(),
            version: [self.version; 4],
            kinds: self
                .setup
                .opponents
                .seats(self.players, learner, &mut self.seat_rng),
        })
    }

    /// Loads the newest complete snapshot, if any arrived (every one is kept for
    /// `past`).
    fn take_parameters(&mut self, links: &WorkerLinks) -> Result<()> {
        let mut newest = None;
        while let Ok(p) = links.params.try_recv() {
            if let Some(past) = self.past.as_mut() {
                past.received(&p)?;
            }
            newest = Some(p);
        }
        if let Some(p) = newest {
            let snap = ParamSnapshot::from_bytes(&p)?;
            snap.load_into(&self.model.vs, self.model.net.encoding)?;
            self.version = snap.version;
        }
        Ok(())
    }

    /// Advances every table to its next policy decision (finished hands become
    /// trajectories and fresh deals; automatic moves and efficiency-bot seats are
    /// played) and queues those decisions.
    fn advance_tables(&mut self) -> Result<()> {
        self.pending.clear();
        self.current.clear();
        self.past_batch.clear();
        for ti in 0..self.tables.len() {
            loop {
                let phase = self.tables[ti].game.phase();
                if !matches!(phase, Phase::Turn | Phase::Claim) {
                    let t = &mut self.tables[ti];
                    finish_hand(t, self.players, &self.setup, &mut self.outgoing);
                    self.hands += 1;
                    if self.setup.whole_games && phase == Phase::HandOver {
                        t.game
                            .start_next_hand()
                            .map_err(|e| anyhow!("worker {}: {e}", self.setup.id))?;
                    } else {
                        self.tables[ti] = self.new_table()?;
                    }
                    continue;
                }
                if self.play_automatic(ti)? {
                    continue;
                }
                for seat in self.tables[ti].game.seats_to_act() {
                    self.queue(ti, seat)?;
                }
                break;
            }
        }
        Ok(())
    }

    /// Plays one automatic move (a forced win) or bot seat at table `ti`, if
    /// any; whether it did.
    fn play_automatic(&mut self, ti: usize) -> Result<bool> {
        let t = &mut self.tables[ti];
        let mut auto = None;
        for seat in t.game.seats_to_act() {
            let legal = t.game.legal_actions(seat);
            if let Some(a) = automatic(&legal, self.setup.auto_win) {
                auto = Some((seat, a));
                break;
            }
            let bot = match t.kinds[seat as usize] {
                SeatKind::Efficiency => TeacherBot::Efficiency,
                SeatKind::Defend => TeacherBot::Defend,
                SeatKind::Current | SeatKind::Past => continue,
            };
            let obs = t.game.observation(seat).map_err(|e| anyhow!("{e}"))?;
            auto = Some((seat, bot.act(&obs, &legal)));
            break;
        }
        let Some((seat, a)) = auto else {
            return Ok(false);
        };
        t.game
            .apply(seat, a)
            .map_err(|e| anyhow!("worker {}: {e}", self.setup.id))?;
        Ok(true)
    }

    /// Queues `seat`'s decision at table `ti` in its model's batch, with what the
    /// teachers and the oracle critic need.
    fn queue(&mut self, ti: usize, seat: u8) -> Result<()> {
        let t = &self.tables[ti];
        let obs = t.game.observation(seat).map_err(|e| anyhow!("{e}"))?;
        let legal = t.game.legal_actions(seat);
        let is_past = t.kinds[seat as usize] == SeatKind::Past;
        let teacher = match self.setup.record_teacher {
            Some(bot) if !is_past => bot.act(&obs, &legal).index() as u16,
            _ => 0,
        };
        let search = match (&mut self.labeller, is_past) {
            (Some(l), false) => l.label(&obs, &legal)?,
            _ => Vec::new(),
        };
        let hidden = if self.setup.record_hidden && !is_past {
            hidden_features(&t.game, seat, self.players as u8)
        } else {
            Vec::new()
        };
        let batch = if is_past {
            &mut self.past_batch
        } else {
            &mut self.current
        };
        let d = EncodedDecision::new(self.model.net.encoding, &obs, &legal);
        batch.obs.extend_from_slice(d.obs());
        batch.mask.extend_from_slice(d.mask());
        self.pending.push(Pending {
            table: ti,
            seat,
            legal,
            teacher,
            search,
            hidden,
            past: is_past,
            row: batch.rows,
        });
        batch.rows += 1;
        Ok(())
    }

    /// One batched forward pass per model, then each queued decision's sampled action
    /// applied (and recorded for the current policy's seats).
    fn decide(&mut self) -> Result<()> {
        let (logp, values) = self.current.forward(&self.model)?;
        let (past_logp, past_values) = match self.past.as_ref() {
            Some(p) => self.past_batch.forward(&p.model)?,
            None => (Vec::new(), Vec::new()),
        };
        let actions = self.model.net.encoding.policy_actions();
        let len = self.model.net.encoding.encoded_len();
        for p in self.pending.iter_mut() {
            let (lp, vals, obs) = if p.past {
                (&past_logp, &past_values, &self.past_batch.obs)
            } else {
                (&logp, &values, &self.current.obs)
            };
            let Some(row) = lp.get(p.row * actions..(p.row + 1) * actions) else {
                bail!(
                    "worker {}: a decision of a seat without a model",
                    self.setup.id
                );
            };
            let a = sample(&mut self.rng, row);
            let Some(action) = Action::from_index(a) else {
                continue;
            };
            let t = &mut self.tables[p.table];
            // An earlier answer in the same claim window may have closed it.
            if !p.legal.contains(action) || !t.game.seats_to_act().contains(&p.seat) {
                continue;
            }
            t.game
                .apply(p.seat, action)
                .map_err(|e| anyhow!("worker {}: {e}", self.setup.id))?;
            if p.past {
                continue;
            }
            let s = p.seat as usize;
            if t.traj[s].is_empty() {
                t.version[s] = self.version;
            }
            t.traj[s].push(Step {
                obs: obs[p.row * len..(p.row + 1) * len].to_vec(),
                legal: p.legal.bits(),
                action: a as u16,
                logp: row[a],
                value: vals[p.row],
                teacher: p.teacher,
                search: std::mem::take(&mut p.search),
                hidden: std::mem::take(&mut p.hidden),
            });
        }
        Ok(())
    }

    /// Sends the finished trajectories once there are `send_every` of them; false when
    /// the trainer is gone or stopping.
    fn send_finished(&mut self, links: &WorkerLinks) -> Result<bool> {
        if self.outgoing.len() < self.setup.send_every.max(1) {
            return Ok(true);
        }
        let msg = TrajectoryBatch {
            worker: self.setup.id,
            hands: self.hands,
            trajectories: std::mem::take(&mut self.outgoing),
        };
        self.hands = 0;
        Ok(send(links, msg.to_bytes()?))
    }
}

/// Turns the current policy's decisions of a finished hand into trajectories.
fn finish_hand(t: &mut Table, players: usize, setup: &WorkerSetup, out: &mut Vec<Trajectory>) {
    let result = t.game.last_result();
    // The whole change (riichi deposits included), not the result's deltas: a riichi
    // stick costs its declarer 1 000 points that the deltas do not show.
    let deltas = t.game.hand_score_changes();
    let winners = result.map(|r| r.winners).unwrap_or([false; 4]);
    let scores = t.game.scores();
    let ranks_after = ranks(&scores, players);
    // The scores the hand began with are today's less its changes.
    let ranks_before = ranks(&core::array::from_fn(|s| scores[s] - deltas[s]), players);
    for s in 0..players {
        let steps = std::mem::take(&mut t.traj[s]);
        if t.kinds[s] == SeatKind::Current && !steps.is_empty() {
            let shaping = placement_shaping(ranks_before[s], ranks_after[s], setup);
            out.push(Trajectory {
                param_version: t.version[s],
                steps,
                reward: hand_reward(deltas[s], winners[s], setup) + shaping / setup.reward_scale,
            });
        }
    }
}

/// A seat's reward for a hand: its point delta, plus the win bonus if it won, over the
/// reward scale.
pub fn hand_reward(delta: i32, won: bool, setup: &WorkerSetup) -> f32 {
    let bonus = if won { setup.win_bonus } else { 0.0 };
    (delta as f32 + bonus) / setup.reward_scale
}

/// The placement shaping of a hand, in points: the potential of the rank after it minus
/// that of the rank before it (0 without whole games, whose `placement` is zeros).
pub fn placement_shaping(rank_before: u8, rank_after: u8, setup: &WorkerSetup) -> f32 {
    let potential = |rank: u8| {
        setup
            .placement
            .get(usize::from(rank).wrapping_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    potential(rank_after) - potential(rank_before)
}
