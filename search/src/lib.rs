//! # mahjong-search
//!
//! Search: determinized Monte-Carlo rollouts with common random numbers.
//!
//! ## Algorithm (one decision of seat `s`)
//! 1. **Candidates.** On `s`'s turn: the discards ranked by the engine's value score,
//!    the best `top_k` kept, plus the `safe_k` discards least likely to deal in under
//!    the weighted belief (the share of weighted proposals in which some opponent
//!    wins on the tile), plus the rollout policy's own choice, every kan and tsumo
//!    (and under the riichi presets every riichi discard, kita and nine terminals).
//!    In a claim window: every legal answer (pass, ron, pon, kan, chi).
//! 2. **Worlds.** Each world is a whole game dealt from `s`'s observation
//!    ([`engine::game::Game::from_observation`]): with [`Belief::Uniform`] every hidden
//!    tile is dealt uniformly; with [`Belief::Weighted`] the opponents' concealed hands
//!    are first drawn in proportion to the importance weights of
//!    [`engine::belief::weigh_hypotheses`] (inference from their discards and the wins
//!    they let pass), then the walls uniformly. Under the riichi presets the world
//!    also deals the hidden red fives and indicators, and every seat in riichi gets a
//!    tenpai hand (a proposal that is not tenpai is redealt; see the engine's
//!    `determinize` module). World `i` depends only on the search seed and `i`.
//! 3. **Rollouts.** In every world each candidate is applied and the hand is played to
//!    its end by the rollout policy in every seat (the efficiency bot by default). The
//!    same world serves every candidate (common random numbers), so differences
//!    between candidates are measured with the luck of the deal cancelled.
//! 4. **Value.** Points won or lost by `s` in the hand, plus `win_bonus` if `s` won.
//! 5. **Choice.** The rollout policy's own action, unless the candidate with the best
//!    mean beats it by a paired margin of more than `z` standard errors (one-sided; the
//!    default `z = 2` keeps the policy's choice when the evidence is thin — plain argmax
//!    over a few rollouts plays almost randomly among near-equal discards early in a
//!    hand).
//! 6. **Budget.** Worlds are played in batches (in parallel on the current rayon pool;
//!    results are gathered in world order, so a fixed rollout budget gives the same
//!    answer for any thread count) until the rollout budget is spent, the time budget
//!    would be exceeded by one more batch, or every other candidate is significantly
//!    worse than the leader (early stop).
//! 7. **Racing** (optional, `prune_z`). After each batch from the second on, a
//!    candidate whose paired difference to the leader is below zero by more than
//!    `prune_z` standard errors is dropped: later worlds play only the candidates still
//!    racing (the policy's choice always races, as the baseline every candidate is
//!    paired with), so the budget goes to the close contests. The leader and the
//!    choice are ranked by the paired difference to the policy's choice, which is
//!    measured on each candidate's own worlds.
//!
//! Sources: rollout policy improvement after Tesauro & Galperin, "On-line policy
//! improvement using Monte-Carlo search" (NIPS 1996); determinization as in Ginsberg's
//! GIB (2001); inference-weighted worlds as in Buro et al., "Improving state evaluation,
//! inference, and search in trick-based card games" (IJCAI 2009); racing after
//! Maron & Moore's Hoeffding races (NIPS 1993) and Even-Dar et al.'s successive
//! elimination (JMLR 2006), with paired normal intervals instead of Hoeffding bounds.
//! Differences: one step of search only, and the significance rule of step 5.

#![deny(missing_docs)]

pub mod belief_eval;
pub mod clock;
pub mod stats;

use std::sync::Arc;

use engine::belief::{weigh_hypotheses, Hypothesis, OpponentModel, ShantenPrior};
use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
use engine::efficiency::value_scores;
use engine::game::{Action, Game, LegalActions, Observation, Phase, RuleError};
use engine::rng::Rng;
use engine::shanten::Forms;
use engine::Rules;
use rayon::prelude::*;
use serde::Serialize;

use stats::{paired, Mean};

/// Largest rollout budget accepted (per candidate).
pub const MAX_ROLLOUTS: u32 = 1_000_000;
/// Largest time budget accepted, in milliseconds.
pub const MAX_BUDGET_MS: f64 = 600_000.0;

/// How the hidden tiles of a world are dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Belief {
    /// Uniformly among all deals consistent with the observation.
    Uniform,
    /// Opponents' hands drawn by importance weight under the efficiency-bot model.
    Weighted,
}

impl Belief {
    /// Parses `uniform` or `weighted`.
    pub fn parse(s: &str) -> anyhow::Result<Belief> {
        match s {
            "uniform" => Ok(Belief::Uniform),
            "weighted" | "belief" => Ok(Belief::Weighted),
            o => anyhow::bail!("unknown belief {o:?} (expected uniform or weighted)"),
        }
    }
}

/// Who plays the rollouts (every seat).
#[derive(Clone)]
pub enum RolloutPolicy {
    /// The efficiency bot.
    Efficiency,
    /// The random bot.
    Random,
    /// Agents made by a factory from a seed (e.g. the learned policy).
    Custom(Arc<dyn Fn(u64) -> Box<dyn Agent> + Send + Sync>),
}

impl std::fmt::Debug for RolloutPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RolloutPolicy::Efficiency => "Efficiency",
            RolloutPolicy::Random => "Random",
            RolloutPolicy::Custom(_) => "Custom",
        })
    }
}

enum RolloutAgent {
    Efficiency(EfficiencyBot),
    Random(RandomBot),
    Custom(Box<dyn Agent>),
}

impl Agent for RolloutAgent {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        match self {
            RolloutAgent::Efficiency(b) => b.act(obs, legal),
            RolloutAgent::Random(b) => b.act(obs, legal),
            RolloutAgent::Custom(b) => b.act(obs, legal),
        }
    }
}

impl RolloutPolicy {
    fn agent(&self, seed: u64) -> RolloutAgent {
        match self {
            RolloutPolicy::Efficiency => RolloutAgent::Efficiency(EfficiencyBot),
            RolloutPolicy::Random => RolloutAgent::Random(RandomBot::new(seed)),
            RolloutPolicy::Custom(f) => RolloutAgent::Custom(f(seed)),
        }
    }
}

/// Everything a search needs besides the position. Every field documented; the
/// defaults are what `advise --search` and the arena's `search` seat use.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Most worlds (each one rollout per candidate).
    pub rollouts: u32,
    /// Time budget in milliseconds (`None`: rollouts only).
    pub budget_ms: Option<f64>,
    /// Discards kept as candidates, best value scores first (the policy's own choice,
    /// kans and tsumo are always kept).
    pub top_k: usize,
    /// Discards added as candidates, least likely to deal in first under the weighted
    /// belief (the defensive choices that value scores rank low); 0 for none, and
    /// none with uniform worlds.
    pub safe_k: usize,
    /// How worlds are dealt.
    pub belief: Belief,
    /// Proposals weighed per decision for [`Belief::Weighted`].
    pub proposals: usize,
    /// The opponent model for [`Belief::Weighted`] (required for it).
    pub model: Option<Arc<OpponentModel>>,
    /// Points added to a rollout's value when the searching seat wins it.
    pub win_bonus: f64,
    /// Standard errors by which a candidate must beat the policy's choice.
    pub z: f64,
    /// Worlds per batch between budget checks.
    pub batch: usize,
    /// Stop early once every other candidate is `z` standard errors below the leader.
    pub early_stop: bool,
    /// Racing: drop a candidate once it is this many standard errors below the leader
    /// (paired), so later worlds play only the close ones (`None`: every candidate
    /// plays every world).
    pub prune_z: Option<f64>,
    /// Seed of the worlds.
    pub seed: u64,
    /// Who plays the rollouts.
    pub rollout: RolloutPolicy,
}

impl SearchConfig {
    /// The default configuration for `rules`: 100 ms, at most 2 000 worlds, top 5
    /// discards plus the 2 safest, weighted belief over 512 proposals (its shanten
    /// prior measured from 4 000 hands of efficiency self-play, cached per rule set),
    /// z = 2, racing at 2 standard errors: the strongest setting measured (400
    /// rollouts with these settings: +0.160 points/hand over the efficiency bot, see
    /// models/REPORT.md).
    pub fn new(rules: &Rules) -> Result<SearchConfig, SearchError> {
        Ok(SearchConfig {
            rollouts: 2_000,
            budget_ms: Some(100.0),
            top_k: 5,
            safe_k: 2,
            belief: Belief::Weighted,
            proposals: 512,
            model: Some(Arc::new(OpponentModel::new(shanten_prior(rules)?))),
            win_bonus: 0.0,
            z: 2.0,
            batch: 16,
            early_stop: true,
            prune_z: Some(2.0),
            seed: 0,
            rollout: RolloutPolicy::Efficiency,
        })
    }

    /// Checks the budgets and parameters (what [`search`] checks first).
    pub fn validate(&self) -> Result<(), SearchError> {
        if self.rollouts == 0 || self.budget_ms.is_some_and(|b| b.is_nan() || b <= 0.0) {
            return Err(SearchError::ZeroBudget);
        }
        if self.rollouts > MAX_ROLLOUTS || self.budget_ms.is_some_and(|b| b > MAX_BUDGET_MS) {
            return Err(SearchError::BudgetTooLarge);
        }
        if self.belief == Belief::Weighted && (self.model.is_none() || self.proposals == 0) {
            return Err(SearchError::NoModel);
        }
        let bad_prune = self.prune_z.is_some_and(|p| p.is_nan() || p < 0.0);
        if self.z.is_nan()
            || self.z < 0.0
            || self.batch == 0
            || !self.win_bonus.is_finite()
            || bad_prune
        {
            return Err(SearchError::BadConfig);
        }
        Ok(())
    }
}

/// The shanten prior of `rules`, measured once per process and rule set.
pub fn shanten_prior(rules: &Rules) -> Result<ShantenPrior, SearchError> {
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<Vec<(Rules, ShantenPrior)>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut key = *rules;
    key.hands_per_game = 1;
    if let Some((_, p)) = cache
        .lock()
        .ok()
        .and_then(|c| c.iter().find(|(r, _)| *r == key).cloned())
    {
        return Ok(p);
    }
    let prior = ShantenPrior::from_self_play(&key, 4_000, 0x5eed).map_err(SearchError::Rule)?;
    if let Ok(mut c) = cache.lock() {
        c.push((key, prior.clone()));
    }
    Ok(prior)
}

/// Why a search could not run.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum SearchError {
    /// The seat has no decision pending (not its turn, or no claim for it).
    NoDecision,
    /// The hand or the game is over.
    HandOver,
    /// A budget of zero rollouts or milliseconds.
    ZeroBudget,
    /// A budget above [`MAX_ROLLOUTS`] or [`MAX_BUDGET_MS`].
    BudgetTooLarge,
    /// Weighted belief without an opponent model or proposals.
    NoModel,
    /// A non-finite or negative parameter, or an empty batch.
    BadConfig,
    /// The position is inconsistent or a rollout failed.
    Rule(RuleError),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::NoDecision => f.write_str("the seat has no decision to search"),
            SearchError::HandOver => f.write_str("the hand is over: nothing to search"),
            SearchError::ZeroBudget => f.write_str("the search budget must be positive"),
            SearchError::BudgetTooLarge => write!(
                f,
                "the search budget is too large (at most {MAX_ROLLOUTS} rollouts and {MAX_BUDGET_MS} ms)"
            ),
            SearchError::NoModel => {
                f.write_str("weighted belief needs an opponent model and at least one proposal")
            }
            SearchError::BadConfig => f.write_str("invalid search parameter"),
            SearchError::Rule(e) => write!(f, "position rejected: {e}"),
        }
    }
}

impl std::error::Error for SearchError {}

/// What the rollouts say of one candidate.
#[derive(Clone, Debug, Serialize)]
pub struct CandidateEstimate {
    /// The action.
    pub action: Action,
    /// The action in words (`discard 5p`, `pon`, `chi 345m`, `pass`).
    pub label: String,
    /// Value (points, plus the win bonus) per hand: mean and standard error.
    pub value: Mean,
    /// Paired difference to the policy's own choice.
    pub versus_policy: Mean,
    /// Share of rollouts the seat won.
    pub win: Mean,
    /// Share of rollouts the seat dealt in.
    pub deal_in: Mean,
}

/// The outcome of a search.
#[derive(Clone, Debug, Serialize)]
pub struct SearchResult {
    /// The action to play.
    pub chosen: Action,
    /// The rollout policy's own choice.
    pub policy: Action,
    /// Every candidate, best first (by the paired difference to the policy's choice,
    /// which orders as the mean value does when every candidate played every world).
    pub candidates: Vec<CandidateEstimate>,
    /// Worlds played (rollouts per candidate).
    pub worlds: usize,
    /// Wall time of the search in milliseconds.
    pub elapsed_ms: f64,
    /// Effective sample size of the belief weights (`None` for uniform worlds).
    pub effective_proposals: Option<f64>,
    /// Whether the early-stop rule ended it.
    pub stopped_early: bool,
}

impl SearchResult {
    /// Candidate action → estimated value per hand: the label the trainer learns from.
    pub fn values(&self) -> Vec<(Action, f64)> {
        self.candidates
            .iter()
            .map(|c| (c.action, c.value.mean))
            .collect()
    }
}

/// An action in words: `discard 5p`, `closed kan 1z`, `chi 345m`, `tsumo`, `pass`.
pub fn action_label(a: Action) -> String {
    match a {
        Action::Discard(t) => format!("discard {t}"),
        Action::ClosedKan(t) => format!("closed kan {t}"),
        Action::AddedKan(t) => format!("added kan {t}"),
        Action::Chi(t) => {
            let n = t.number();
            let suit = t.to_string().chars().last().unwrap_or('?');
            format!("chi {}{}{}{suit}", n, n + 1, n + 2)
        }
        Action::Tsumo => "tsumo".into(),
        Action::Ron => "ron".into(),
        Action::Pon => "pon".into(),
        Action::OpenKan => "open kan".into(),
        Action::Pass => "pass".into(),
        Action::Riichi(_) | Action::Kita | Action::NineTerminals => a.to_string(),
    }
}

/// One rollout: (value, won, dealt in) for the searching seat.
type Outcome = (f64, bool, bool);

/// The candidate actions (see the module docs), the policy's choice first.
fn candidates(
    obs: &Observation,
    legal: &LegalActions,
    policy: Action,
    cfg: &SearchConfig,
    beliefs: &Beliefs,
) -> Vec<Action> {
    let mut out = vec![policy];
    let push = |a: Action, out: &mut Vec<Action>| {
        if legal.contains(a) && !out.contains(&a) {
            out.push(a);
        }
    };
    if obs.phase == Phase::Claim {
        for a in legal.iter() {
            push(a, &mut out);
        }
        return out;
    }
    let melds = obs.melds.get(obs.seat as usize).map_or(0, |m| m.len()) as u8;
    let v = value_scores(
        &obs.hand,
        melds,
        obs.rules.tile_set,
        Forms::from_rules(&obs.rules),
        &obs.unseen,
    );
    let mut discards: Vec<(f32, Action)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard(t) => Some((v.score[t.index()], a)),
            _ => None,
        })
        .collect();
    discards.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, a) in discards.iter().take(cfg.top_k) {
        push(a, &mut out);
    }
    if let (Some((hyp, cum, _)), true) = (beliefs, cfg.safe_k > 0) {
        let mut danger: Vec<(f64, Action)> = discards
            .iter()
            .map(|&(_, a)| (deal_in_probability(obs, hyp, cum, a), a))
            .collect();
        danger.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(_, a) in danger.iter().take(cfg.safe_k) {
            push(a, &mut out);
        }
    }
    for a in legal.iter() {
        if !matches!(a, Action::Discard(_)) {
            push(a, &mut out);
        }
    }
    out
}

/// The belief's probability that discarding `action`'s tile lets an opponent win on
/// it: the weight of the proposals in which some opponent's hand is completed by it.
fn deal_in_probability(obs: &Observation, hyp: &[Hypothesis], cum: &[f64], action: Action) -> f64 {
    let Action::Discard(t) = action else {
        return 0.0;
    };
    let (set, forms) = (obs.rules.tile_set, Forms::from_rules(&obs.rules));
    let players = obs.rules.players as usize;
    let mut p = 0.0;
    let mut before = 0.0;
    for (h, &c) in hyp.iter().zip(cum) {
        let w = c - before;
        before = c;
        let wins = (0..players).filter(|&o| o != obs.seat as usize).any(|o| {
            let mut hand = h.hands[o];
            let melds = obs.melds.get(o).map_or(0, |m| m.len()) as u8;
            hand[t.index()] < 4 && {
                hand[t.index()] += 1;
                engine::shanten::min_shanten(&hand, melds, set, forms) < 0
            }
        });
        if wins {
            p += w;
        }
    }
    p
}

/// The weighted belief's probability, for each legal discard of the seat observing
/// `obs`, that the discarded tile completes an opponent's hand (the danger that
/// `safe_k` ranks by). Errors as [`search`]'s, and [`SearchError::NoModel`] unless
/// `cfg` asks for the weighted belief.
pub fn discard_dangers(
    obs: &Observation,
    legal: &LegalActions,
    cfg: &SearchConfig,
) -> Result<Vec<(Action, f64)>, SearchError> {
    cfg.validate()?;
    if cfg.belief != Belief::Weighted {
        return Err(SearchError::NoModel);
    }
    if matches!(obs.phase, Phase::HandOver | Phase::GameOver) {
        return Err(SearchError::HandOver);
    }
    let Some((hyp, cum, _)) = beliefs(obs, cfg)? else {
        return Err(SearchError::NoModel);
    };
    Ok(legal
        .iter()
        .filter(|a| matches!(a, Action::Discard(_)))
        .map(|a| (a, deal_in_probability(obs, &hyp, &cum, a)))
        .collect())
}

/// Plays `action` for `seat` in `world`, then the hand to its end.
fn rollout(
    world: &Game,
    seat: u8,
    action: Action,
    cfg: &SearchConfig,
    seed: u64,
) -> Result<Outcome, SearchError> {
    let mut g = world.clone();
    g.apply(seat, action).map_err(SearchError::Rule)?;
    let s = seat as usize;
    let (delta, won, dealt_in) = match g.last_result() {
        // The score change from the decision (a determinized world starts its hand's
        // scores there), so a riichi candidate pays its deposit.
        Some(r) => (
            g.hand_score_changes()[s],
            r.winners[s],
            r.discarder == Some(seat) && r.winners.iter().any(|&w| w),
        ),
        None => {
            let mut agents: Vec<RolloutAgent> = (0..g.rules().players as u64)
                .map(|k| cfg.rollout.agent(Rng::derive_seed(seed, k)))
                .collect();
            let sum = play_hand(&mut g, &mut agents).map_err(|e| match e {
                engine::bots::PlayError::Rule(r) => SearchError::Rule(r),
                _ => SearchError::Rule(RuleError::IllegalAction),
            })?;
            let o = sum.seats[s];
            (o.delta, o.won, o.dealt_in)
        }
    };
    let bonus = if won { cfg.win_bonus } else { 0.0 };
    Ok((delta as f64 + bonus, won, dealt_in))
}

/// Draws a proposal index in proportion to `cumulative` weights (last entry ≈ 1).
fn draw(cumulative: &[f64], rng: &mut Rng) -> usize {
    let total = cumulative.last().copied().unwrap_or(0.0);
    let x = rng.next_f64() * total;
    cumulative
        .partition_point(|&c| c <= x)
        .min(cumulative.len().saturating_sub(1))
}

/// The worlds' beliefs: proposals with cumulative weights (`None`: uniform).
type Beliefs = Option<(Vec<Hypothesis>, Vec<f64>, f64)>;

fn beliefs(obs: &Observation, cfg: &SearchConfig) -> Result<Beliefs, SearchError> {
    let (Belief::Weighted, Some(model)) = (cfg.belief, cfg.model.as_deref()) else {
        return Ok(None);
    };
    let mut hyp = vec![Hypothesis::default(); cfg.proposals];
    let mut w = vec![0.0; cfg.proposals];
    let mut rng = Rng::new(Rng::derive_seed(cfg.seed, u64::MAX));
    let summary =
        weigh_hypotheses(obs, model, &mut rng, &mut hyp, &mut w).map_err(SearchError::Rule)?;
    let mut acc = 0.0;
    for x in w.iter_mut() {
        acc += *x;
        *x = acc;
    }
    Ok(Some((hyp, w, summary.effective)))
}

/// Plays world `i` for every candidate still racing (`None` for the others).
fn play_world(
    obs: &Observation,
    cands: &[Action],
    racing: &[bool],
    cfg: &SearchConfig,
    beliefs: &Beliefs,
    i: usize,
) -> Result<Vec<Option<Outcome>>, SearchError> {
    let seed = Rng::derive_seed(cfg.seed, i as u64);
    let mut rng = Rng::new(seed);
    let hands = beliefs
        .as_ref()
        .map(|(hyp, cum, _)| hyp[draw(cum, &mut rng)].hands);
    let world = Game::from_observation(obs, hands.as_ref(), &mut rng).map_err(SearchError::Rule)?;
    cands
        .iter()
        .zip(racing)
        .map(|(&a, &on)| {
            on.then(|| rollout(&world, obs.seat, a, cfg, seed))
                .transpose()
        })
        .collect()
}

/// Searches the decision of the seat observing `obs`, whose legal actions are `legal`
/// (see the module docs). Errors are typed ([`SearchError`]); nothing panics on input.
pub fn search(
    obs: &Observation,
    legal: &LegalActions,
    cfg: &SearchConfig,
) -> Result<SearchResult, SearchError> {
    let start = clock::now_ms();
    cfg.validate()?;
    match obs.phase {
        Phase::HandOver | Phase::GameOver => return Err(SearchError::HandOver),
        Phase::Turn if obs.turn != obs.seat => return Err(SearchError::NoDecision),
        _ => {}
    }
    if legal.is_empty() {
        return Err(SearchError::NoDecision);
    }
    let policy = cfg
        .rollout
        .agent(Rng::derive_seed(cfg.seed, u64::MAX - 1))
        .act(obs, legal);
    if !legal.contains(policy) {
        return Err(SearchError::Rule(RuleError::IllegalAction));
    }

    // The position must be one a world can be dealt from (also when nothing is
    // searched), and the actions offered must be legal in it.
    let probe = Game::from_observation(obs, None, &mut Rng::new(0)).map_err(|e| match e {
        RuleError::NotYourTurn => SearchError::NoDecision,
        e => SearchError::Rule(e),
    })?;
    let truly_legal = probe.legal_actions(obs.seat);
    if legal.iter().any(|a| !truly_legal.contains(a)) {
        return Err(SearchError::Rule(RuleError::IllegalAction));
    }
    // Nothing to weigh when a single action is legal.
    let beliefs = if legal.iter().nth(1).is_some() {
        beliefs(obs, cfg)?
    } else {
        None
    };
    let cands = candidates(obs, legal, policy, cfg, &beliefs);
    let mut values: Vec<Vec<Outcome>> = vec![Vec::new(); cands.len()];
    let mut racing = vec![true; cands.len()];
    let mut worlds = 0usize;
    let mut stopped_early = false;
    let limit = cfg.rollouts as usize;
    while cands.len() > 1 && worlds < limit {
        let n = cfg.batch.min(limit - worlds);
        let batch_start = clock::now_ms();
        let results: Vec<Result<Vec<Option<Outcome>>, SearchError>> = (worlds..worlds + n)
            .into_par_iter()
            .map(|i| play_world(obs, &cands, &racing, cfg, &beliefs, i))
            .collect();
        for r in results {
            for (v, o) in values.iter_mut().zip(r?) {
                v.extend(o);
            }
        }
        worlds += n;
        let now = clock::now_ms();
        let elapsed = now - start;
        let batch_ms = now - batch_start;
        if cfg.budget_ms.is_some_and(|b| elapsed + batch_ms > b) {
            break;
        }
        if worlds < 2 * cfg.batch {
            continue;
        }
        if let Some(prune_z) = cfg.prune_z {
            prune(&values, &mut racing, prune_z);
        }
        if cfg.early_stop && leader_is_clear(&values, &racing, cfg.z) {
            stopped_early = true;
            break;
        }
    }
    Ok(summarise(
        &cands,
        &values,
        cfg,
        worlds,
        start,
        beliefs.as_ref().map(|b| b.2),
        stopped_early,
    ))
}

fn value_column(v: &[Outcome]) -> Vec<f64> {
    v.iter().map(|o| o.0).collect()
}

/// Each candidate's paired difference to the policy's choice (candidate 0) over the
/// worlds the candidate played (the policy's choice plays every world, and a dropped
/// candidate's worlds are the first ones).
fn versus_policy(values: &[Vec<Outcome>]) -> Vec<Mean> {
    let base = value_column(&values[0]);
    values
        .iter()
        .map(|v| paired(&value_column(v), &base))
        .collect()
}

/// The candidate with the best paired difference to the policy's choice among those
/// `racing`.
fn leader(versus: &[Mean], racing: &[bool]) -> Option<usize> {
    (0..versus.len())
        .filter(|&c| racing[c])
        .max_by(|&a, &b| versus[a].mean.total_cmp(&versus[b].mean))
}

/// Drops (from `racing`) every candidate but the policy's choice and the leader that
/// is more than `z` standard errors below the leader on their common worlds.
fn prune(values: &[Vec<Outcome>], racing: &mut [bool], z: f64) {
    let Some(lead) = leader(&versus_policy(values), racing) else {
        return;
    };
    let lead_col = value_column(&values[lead]);
    for c in 1..values.len() {
        if c != lead && racing[c] && paired(&value_column(&values[c]), &lead_col).upper(z) < 0.0 {
            racing[c] = false;
        }
    }
}

/// Whether every racing candidate is `z` standard errors below the leader (paired).
fn leader_is_clear(values: &[Vec<Outcome>], racing: &[bool], z: f64) -> bool {
    let Some(lead) = leader(&versus_policy(values), racing) else {
        return true;
    };
    let lead_col = value_column(&values[lead]);
    (0..values.len())
        .filter(|&c| c != lead && racing[c])
        .all(|c| paired(&value_column(&values[c]), &lead_col).upper(z) < 0.0)
}

fn summarise(
    cands: &[Action],
    values: &[Vec<Outcome>],
    cfg: &SearchConfig,
    worlds: usize,
    start: f64,
    effective_proposals: Option<f64>,
    stopped_early: bool,
) -> SearchResult {
    let versus = versus_policy(values);
    let mut est: Vec<CandidateEstimate> = cands
        .iter()
        .zip(values)
        .zip(&versus)
        .map(|((&action, v), &versus_policy)| {
            let col = value_column(v);
            CandidateEstimate {
                action,
                label: action_label(action),
                value: Mean::of(col.iter().copied()),
                versus_policy,
                win: Mean::of(v.iter().map(|o| o.1 as u8 as f64)),
                deal_in: Mean::of(v.iter().map(|o| o.2 as u8 as f64)),
            }
        })
        .collect();
    let policy = cands[0];
    let best = est
        .iter()
        .max_by(|a, b| a.versus_policy.mean.total_cmp(&b.versus_policy.mean))
        .filter(|c| c.action != policy && c.versus_policy.lower(cfg.z) > 0.0)
        .map_or(policy, |c| c.action);
    est.sort_by(|a, b| b.versus_policy.mean.total_cmp(&a.versus_policy.mean));
    SearchResult {
        chosen: best,
        policy,
        candidates: est,
        worlds,
        elapsed_ms: clock::now_ms() - start,
        effective_proposals,
        stopped_early,
    }
}
