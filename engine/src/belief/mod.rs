//! Beliefs about the opponents' concealed hands, for weighted determinization.
//!
//! Search plays its rollouts in worlds dealt from what the deciding seat sees
//! ([`Game::from_observation`]). Dealt uniformly, those worlds ignore everything the
//! opponents' play reveals; measured before this module existed, one-step rollouts on
//! uniform worlds gained nothing over the efficiency bot, while the same search told
//! the opponents' true hands gained about +0.23 points per hand. This module weighs
//! candidate deals by how well they explain what each opponent did.
//!
//! ## Method: importance sampling with an opponent model
//! `M` proposals are dealt uniformly from the unseen tiles (the opponents' hands
//! jointly, so they never claim the same copy). Each gets the weight
//! `Π_o w_o(H_o)`, opponents taken as independent given the proposal, with, for an
//! opponent `o` holding the hypothesised concealed hand `H` (`13 − 3k` tiles):
//!
//! 1. **Shanten prior** `q(s | k, d) / u(s)`: `q` is the shanten distribution of the
//!    efficiency bot's hands after `d` own discards with `k` melds ([`ShantenPrior`],
//!    from self-play); `u` is the same distribution among this call's proposals. The
//!    ratio reweights the uniform deal so that its shanten marginal follows `q`: a hand
//!    that was played for a dozen turns is often ready, a random one rarely.
//! 2. **The discards made from the current hand.** An opponent's concealed hand `H`
//!    has not changed since its last *tedashi* (a discard that was not the tile just
//!    drawn, [`crate::game::Discard::tsumogiri`]): for that discard and every
//!    tsumogiri discard after it, `H + d` is exactly the hand the opponent chose `d`
//!    from (at most the latest [`STEADY_CAP`]). Under the opponent model — the
//!    efficiency bot's rule (win when possible, else the discard with the lowest
//!    shanten and most ukeire), softened by a deviation probability `ε` — each such
//!    decision gives the factor 1 when discarding `d` is as good as the bot's best
//!    discard by (shanten, ukeire), `ε` for a worse shanten (and `ukeire_deviation`
//!    for fewer ukeire tiles), and `ε` too when `H + d` was a complete hand on a draw
//!    (it would have won). The opponent's unseen counts at the time are approximated by
//!    today's. An opponent with a kan is read from its last discard only (a kan
//!    changes the hand at a time the observation does not record).
//! 3. **Wins let pass**: every tile another seat discarded while the hand has been `H`
//!    (the claim window open now excepted) was one `o` did not win on, so a hand `H`
//!    that wins on it gets the factor `ε`. Without furiten in these rules, this is what
//!    makes tiles "safe" against an opponent.
//! 4. **Calls let pass**: of those tiles, the ones nobody claimed could have been
//!    ponned (kanned, and chi'd from the left neighbour where the rules have chi) by
//!    `o`; a hand `H` for which such a call would have lowered the shanten gets `ε`
//!    (the efficiency bot takes every such call). Calls that would only have kept the
//!    shanten are judged by ukeire counts this model approximates, and are not read.
//! 5. **The history before the current hand** (off by default, [`Evidence::history`]):
//!    every earlier discard, judged on a hand reconstructed by walking `H` back through
//!    the opponent's discards with uniformly chosen draws (see the `history` module).
//!    Measured by `host-trainer belief`: it raises the log-likelihood of the true
//!    tiles but over-predicts ready hands and worsens the deal-in scores, so the
//!    default leaves it out.
//!
//! The weights are returned normalised; the caller draws a proposal per world in
//! proportion to them (resampling). Differences from the particle filters of the
//! literature (Solinas et al. 2019 reweigh per action along the whole history): only
//! the evidence that is exact for the *current* hand is used, which needs no model of
//! the hidden draws and costs one `best_discard` per opponent, proposal and decision
//! made from the current hand.
//!
//! No allocation: the caller provides the proposal and weight buffers.

mod history;
mod prior;

pub use history::HISTORY_CAP;
pub use prior::{ShantenPrior, PRIOR_DISCARDS, PRIOR_MELDS, PRIOR_SHANTEN};

use crate::efficiency::{best_discard, ukeire};
use crate::game::{Game, MeldKind, Observation, Phase, RuleError, MAX_PLAYERS, MAX_WALL};
use crate::rng::Rng;
use crate::shanten::{min_shanten, Forms};
use crate::tile::{Tile, TileCounts, NUM_TILE_TYPES};

/// Observations a cell of the shanten prior needs before it weighs proposals.
pub const MIN_PRIOR_COUNT: u32 = 100;

/// Which evidence the opponent model uses (all by default; single parts for ablation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Evidence {
    /// Weigh by the shanten prior (needs a measured [`ShantenPrior`]).
    pub shanten_prior: bool,
    /// Weigh by the discards made from the opponent's current hand (its last tedashi
    /// and the tsumogiri run since) under the efficiency rule.
    pub hand_discards: bool,
    /// Weigh by the wins the opponent let pass.
    pub passed_wins: bool,
    /// Weigh by the calls (pon, open kan, chi) the opponent let pass that would have
    /// lowered its shanten.
    pub passed_calls: bool,
    /// Weigh by the discards made before the current hand, walking the hand back
    /// through the opponent's history (evidence 5 of the module docs).
    pub history: bool,
}

impl Evidence {
    /// Every kind of evidence.
    pub const ALL: Evidence = Evidence {
        shanten_prior: true,
        hand_discards: true,
        passed_wins: true,
        passed_calls: true,
        history: true,
    };
    /// The default: every kind but [`Evidence::history`], which `host-trainer belief`
    /// measured as no better (it sharpens the tile marginals but over-predicts
    /// ready hands).
    pub const DEFAULT: Evidence = Evidence {
        history: false,
        ..Evidence::ALL
    };
    /// None: the weights are uniform (uniform determinization).
    pub const NONE: Evidence = Evidence {
        shanten_prior: false,
        hand_discards: false,
        passed_wins: false,
        passed_calls: false,
        history: false,
    };
}

/// How proposals of an opponent's hand are dealt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proposal {
    /// Uniformly from the unseen tiles.
    Uniform,
    /// *Built*: a uniform deal, then as many rounds of "draw an unseen tile, discard
    /// the tile whose removal leaves the lowest shanten (ties at random)" as the
    /// opponent has discarded (at most [`BUILD_ROUNDS`]), the discarded tiles going back
    /// among the unseen. This is a generative model of a hand played for that many
    /// turns, so it serves as the prior itself: with it the shanten-prior ratio is not
    /// applied, and the weights are the likelihood of the evidence alone.
    Built,
    /// As [`Proposal::Built`], each round discarding by the efficiency bot's own rule
    /// ([`best_discard`]: lowest shanten, then most ukeire with the opponent's unseen
    /// counts approximated by today's) rather than by shanten alone.
    Efficient,
}

/// Most building rounds of [`Proposal::Built`].
pub const BUILD_ROUNDS: usize = 12;

/// The model of how opponents play, with the evidence it reads.
#[derive(Clone, PartialEq, Debug)]
pub struct OpponentModel {
    /// How proposals are dealt.
    pub proposal: Proposal,
    /// Shanten by (melds, own discards) of the modelled player's hands.
    pub prior: ShantenPrior,
    /// Probability that the opponent departs from the efficiency rule at one decision
    /// (the likelihood of an action the rule would not take); in `(0, 1]`.
    pub deviation: f64,
    /// The likelihood of a discard that keeps the best shanten but not the most
    /// ukeire tiles (the opponent's unseen counts are approximated, so this evidence is
    /// weaker than a shanten mistake); in `(0, 1]`.
    pub ukeire_deviation: f64,
    /// Which evidence to use.
    pub evidence: Evidence,
    /// The likelihood of a shanten mistake, a passed tsumo or a passed ron at a
    /// decision before the current hand (evidence 5), where the hand is only
    /// reconstructed; in `(0, 1]`.
    pub history_deviation: f64,
    /// Backward walks averaged per proposal and opponent for evidence 5 (at most 16).
    pub history_paths: usize,
}

impl OpponentModel {
    /// The default deviation probability.
    pub const DEFAULT_DEVIATION: f64 = 0.05;
    /// The default deviation probability before the current hand.
    pub const DEFAULT_HISTORY_DEVIATION: f64 = 0.1;
    /// The default number of backward walks.
    pub const DEFAULT_HISTORY_PATHS: usize = 2;

    /// The efficiency-bot model with the default evidence ([`Evidence::DEFAULT`]).
    pub fn new(prior: ShantenPrior) -> OpponentModel {
        OpponentModel {
            proposal: Proposal::Built,
            prior,
            deviation: Self::DEFAULT_DEVIATION,
            ukeire_deviation: 0.5,
            evidence: Evidence::DEFAULT,
            history_deviation: Self::DEFAULT_HISTORY_DEVIATION,
            history_paths: Self::DEFAULT_HISTORY_PATHS,
        }
    }
}

/// One proposed deal of the opponents' concealed tiles (the observer's entry and
/// seats beyond the player count are all zero).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hypothesis {
    /// Concealed tiles by seat.
    pub hands: [TileCounts; MAX_PLAYERS],
}

impl Default for Hypothesis {
    fn default() -> Self {
        Hypothesis {
            hands: [[0; NUM_TILE_TYPES]; MAX_PLAYERS],
        }
    }
}

/// A summary of one weighing.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct BeliefSummary {
    /// Proposals weighed.
    pub proposals: usize,
    /// Kish's effective sample size `(Σw)² / Σw²` of the normalised weights.
    pub effective: f64,
}

/// Most exact decisions per opponent that `log_likelihood` weighs (the latest ones).
pub const STEADY_CAP: usize = 8;

/// What one opponent revealed, read once per call.
#[derive(Clone, Copy, Debug)]
struct Revealed {
    seat: usize,
    size: u8,
    melds: u8,
    own_discards: usize,
    /// The discards made from the current concealed hand `H` plus the discarded tile:
    /// the last discard that changed the hand (tedashi) and the tsumogiri discards
    /// since, oldest first, each with whether it was chosen on a draw (so a win was
    /// possible). For each, `H + d` is exactly the hand the opponent chose from.
    steady: [Decision; STEADY_CAP],
    /// Entries of `steady` in use.
    steady_len: usize,
    /// Tile types discarded by others while the hand has been `H`, which the opponent
    /// did not win on.
    passed: u64,
    /// Of those, the tiles nobody claimed (a call on them was possible for the
    /// opponent and not overridden), and the ones it could have chi'd (from its left).
    passed_unclaimed: u64,
    passed_chi: u64,
    /// Its unseen counts now, before removing its own hand and a discard.
    unseen_base: TileCounts,
    /// Its discards up to its last tedashi (evidence 5).
    history: history::History,
}

/// One discard made from the current hand (see [`Revealed::steady`]).
#[derive(Clone, Copy, Debug)]
struct Decision {
    tile: Tile,
    /// Chosen on a draw, so a win was possible.
    on_draw: bool,
    /// The opponent's unseen counts then ≈ now, with the tile still in its hand
    /// (before removing the rest of its hand).
    unseen: TileCounts,
}

/// The efficiency rule's factors, fixed for one call.
#[derive(Clone, Copy)]
struct Judge {
    set: crate::tile::TileSet,
    forms: Forms,
    ln_eps: f64,
    ln_ukeire: f64,
}

impl Revealed {
    fn steady(&self) -> &[Decision] {
        self.steady.get(..self.steady_len).unwrap_or(&[])
    }
}

/// Whether discard `d` of `seat` directly followed its pon or chi (no draw before it).
fn follows_call(obs: &Observation, melds: &[crate::game::Meld], d: &crate::game::Discard) -> bool {
    obs.discards.iter().enumerate().any(|(from, row)| {
        row.iter().any(|c| {
            c.claimed
                && c.seq.wrapping_add(1) == d.seq
                && melds.iter().any(|m| {
                    matches!(m.kind, MeldKind::Pon | MeldKind::Chi)
                        && m.claimed == Some(c.tile)
                        && m.from == Some(from as u8)
                })
        })
    })
}

fn revealed(obs: &Observation, seat: usize, size: u8) -> Revealed {
    let rules = &obs.rules;
    let rows = &obs.discards;
    let own = rows.get(seat).map_or(&[][..], |r| r.as_slice());
    let melds = obs.melds.get(seat).map_or(&[][..], |m| m.as_slice());
    // The hand has not changed since the last tedashi: walk back over the trailing
    // tsumogiri discards to it. A kan changes the hand without a discard, and its time
    // is not recorded, so an opponent with a kan is read from its last discard only.
    let mut start = own.len().saturating_sub(1);
    if !melds.iter().any(|m| m.kind.is_kan()) {
        while start > 0 && own.get(start).is_some_and(|d| d.tsumogiri) {
            start -= 1;
        }
    }
    let window = own.get(start..).unwrap_or(&[]);
    let since = window.first().map(|d| d.seq);
    // The discard a claim window is open on has not been answered yet.
    let pending_seq = obs
        .pending
        .filter(|p| obs.phase == Phase::Claim && p.is_discard())
        .and_then(|p| rows.get(p.from as usize)?.last().map(|d| d.seq));
    let (mut passed, mut passed_unclaimed, mut passed_chi) = (0u64, 0u64, 0u64);
    let players = rules.players as usize;
    for (s, row) in rows.iter().enumerate().take(players) {
        if s == seat {
            continue;
        }
        let left = (s + 1) % players.max(1) == seat;
        for d in row {
            let after = since.is_none_or(|seq| d.seq > seq);
            if after && Some(d.seq) != pending_seq {
                let bit = 1u64 << d.tile.index();
                passed |= bit;
                if !d.claimed {
                    passed_unclaimed |= bit;
                    if left && rules.chi && !d.tile.is_honor() {
                        passed_chi |= bit;
                    }
                }
            }
        }
    }
    // Unseen from the opponent's side ≈ now: everything minus what is in the open.
    let full = rules.tile_set.full_counts();
    let mut unseen_base = [0u8; NUM_TILE_TYPES];
    for i in 0..NUM_TILE_TYPES {
        let open = full[i]
            .saturating_sub(obs.unseen[i])
            .saturating_sub(obs.hand[i]);
        unseen_base[i] = full[i].saturating_sub(open);
    }
    let mut steady = [Decision {
        tile: Tile::EAST,
        on_draw: false,
        unseen: unseen_base,
    }; STEADY_CAP];
    let skip = window.len().saturating_sub(STEADY_CAP);
    let mut steady_len = 0;
    for (slot, d) in steady.iter_mut().zip(window.iter().skip(skip)) {
        let i = d.tile.index();
        slot.tile = d.tile;
        slot.on_draw = d.tsumogiri || !follows_call(obs, melds, d);
        slot.unseen[i] = slot.unseen[i].saturating_add(1).min(full[i]);
        steady_len += 1;
    }
    Revealed {
        seat,
        size,
        melds: melds.len() as u8,
        own_discards: own.len(),
        steady,
        steady_len,
        passed,
        passed_unclaimed,
        passed_chi,
        unseen_base,
        history: history::read(obs, seat, start),
    }
}

/// Deals one proposal of the opponents' hands from `pool` (a tile list of the unseen
/// tiles, reordered in place by a partial Fisher–Yates shuffle: `pool[next..]` stays
/// the tiles not dealt), uniformly or built (see [`Proposal`]).
fn propose(
    pool: &mut [Tile],
    opponents: &[Revealed],
    model: &OpponentModel,
    obs: &Observation,
    rng: &mut Rng,
    out: &mut Hypothesis,
) {
    deal_uniform(pool, opponents, rng, out);
    if model.proposal != Proposal::Uniform {
        // Building trades tiles with the undealt part; work on a copy so that `pool`
        // stays a permutation of the unseen tiles for the next proposal.
        let mut scratch = [Tile::EAST; MAX_WALL];
        let Some(scratch) = scratch.get_mut(..pool.len()) else {
            return;
        };
        scratch.copy_from_slice(pool);
        let pool = scratch;
        let dealt: usize = opponents.iter().map(|o| o.size as usize).sum();
        for o in opponents {
            if let Some(hand) = out.hands.get_mut(o.seat) {
                let efficient = model.proposal == Proposal::Efficient;
                build(hand, o, pool, dealt, obs, efficient, rng);
            }
        }
    }
}

/// The building rounds of [`Proposal::Built`] for one opponent's `hand`; the undealt
/// tiles are `pool[dealt..]`.
fn build(
    hand: &mut TileCounts,
    o: &Revealed,
    pool: &mut [Tile],
    dealt: usize,
    obs: &Observation,
    efficient: bool,
    rng: &mut Rng,
) {
    let set = obs.rules.tile_set;
    let forms = Forms::from_rules(&obs.rules);
    let rest = pool.len().saturating_sub(dealt);
    if rest == 0 {
        return;
    }
    for _ in 0..o.own_discards.min(BUILD_ROUNDS) {
        let j = dealt + rng.below(rest as u32) as usize;
        let Some(&x) = pool.get(j) else { return };
        hand[x.index()] += 1;
        let pick = if efficient {
            // The efficiency bot's own rule, with the opponent's unseen counts ≈ now.
            let mut unseen = o.unseen_base;
            for (u, &c) in unseen.iter_mut().zip(hand.iter()) {
                *u = u.saturating_sub(c);
            }
            best_discard(hand, o.melds, set, forms, &unseen).map_or(x, |b| b.tile)
        } else {
            lowest_shanten_discard(hand, o.melds, set, forms, x, rng)
        };
        hand[pick.index()] -= 1;
        pool[j] = pick;
    }
}

/// The discard leaving the lowest shanten, ties uniformly (reservoir); `x` if none.
fn lowest_shanten_discard(
    hand: &mut TileCounts,
    melds: u8,
    set: crate::tile::TileSet,
    forms: Forms,
    x: Tile,
    rng: &mut Rng,
) -> Tile {
    let (mut best, mut ties, mut pick) = (i8::MAX, 0u32, x);
    for t in Tile::all() {
        let i = t.index();
        if hand[i] == 0 {
            continue;
        }
        hand[i] -= 1;
        let s = min_shanten(hand, melds, set, forms);
        hand[i] += 1;
        if s < best {
            (best, ties, pick) = (s, 1, t);
        } else if s == best {
            ties += 1;
            if rng.below(ties) == 0 {
                pick = t;
            }
        }
    }
    pick
}

/// Deals the opponents' hands uniformly from `pool`.
fn deal_uniform(pool: &mut [Tile], opponents: &[Revealed], rng: &mut Rng, out: &mut Hypothesis) {
    *out = Hypothesis::default();
    let mut next = 0usize;
    for o in opponents {
        for _ in 0..o.size {
            if next >= pool.len() {
                return;
            }
            let j = next + rng.below((pool.len() - next) as u32) as usize;
            pool.swap(next, j);
            let t = pool[next];
            if let Some(c) = out.hands.get_mut(o.seat).and_then(|h| h.get_mut(t.index())) {
                *c += 1;
            }
            next += 1;
        }
    }
}

/// `ln w_o(H)` without the prior's ratio (evidence 2 and 3).
fn log_likelihood(
    model: &OpponentModel,
    obs: &Observation,
    o: &Revealed,
    hand: &TileCounts,
    rng: &mut Rng,
) -> f64 {
    let rules = &obs.rules;
    let judge = Judge {
        set: rules.tile_set,
        forms: Forms::from_rules(rules),
        ln_eps: libm::log(model.deviation.clamp(1e-12, 1.0)),
        ln_ukeire: libm::log(model.ukeire_deviation.clamp(1e-12, 1.0)),
    };
    let (set, forms, ln_eps) = (judge.set, judge.forms, judge.ln_eps);
    let mut ll = 0.0;
    if model.evidence.passed_wins {
        let mut mask = o.passed;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let mut with = *hand;
            with[i] += 1;
            if with[i] <= 4 && min_shanten(&with, o.melds, set, forms) < 0 {
                ll += ln_eps;
            }
        }
    }
    if model.evidence.passed_calls && o.melds < 4 {
        ll += passed_calls_log_likelihood(hand, o, &judge);
    }
    if model.evidence.hand_discards {
        for d in o.steady() {
            ll += decision_log_likelihood(hand, d, o.melds, &judge);
        }
    }
    if model.evidence.history && ll > f64::NEG_INFINITY {
        let walker = history::Walker {
            set,
            forms,
            ln_eps: libm::log(model.history_deviation.clamp(1e-12, 1.0)),
            passed_wins: model.evidence.passed_wins && rules.riichi.is_none(),
            paths: model.history_paths,
        };
        ll += history::log_likelihood(&o.history, hand, o.melds, &walker, rng);
    }
    ll
}

/// `ln` of the likelihood that an efficiency player holding `hand` let the calls on
/// the passed tiles go: `ε` for each pon, open kan or chi that would have lowered its
/// shanten (the efficiency bot takes every such call; a call that only keeps the
/// shanten depends on ukeire counts this model approximates, and is not read).
fn passed_calls_log_likelihood(hand: &TileCounts, o: &Revealed, judge: &Judge) -> f64 {
    let (set, forms, ln_eps) = (judge.set, judge.forms, judge.ln_eps);
    let now = min_shanten(hand, o.melds, set, forms);
    // The lowest shanten after removing `taken` from the hand and discarding one tile.
    let after = |taken: &[(usize, u8)], discard: bool| -> i8 {
        let mut h = *hand;
        for &(i, n) in taken {
            match h.get_mut(i) {
                Some(c) if *c >= n => *c -= n,
                _ => return i8::MAX,
            }
        }
        if !discard {
            return min_shanten(&h, o.melds + 1, set, forms);
        }
        let mut best = i8::MAX;
        for i in 0..NUM_TILE_TYPES {
            if h[i] > 0 {
                h[i] -= 1;
                best = best.min(min_shanten(&h, o.melds + 1, set, forms));
                h[i] += 1;
            }
        }
        best
    };
    let mut ll = 0.0;
    let mut mask = o.passed_unclaimed;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let c = hand.get(i).copied().unwrap_or(0);
        let mut lowers = c >= 2 && after(&[(i, 2)], true) < now;
        lowers |= c == 3 && after(&[(i, 3)], false) < now;
        if !lowers && o.passed_chi & (1u64 << i) != 0 {
            let n = (i % 9) as i32; // 0..=8 within the suit
            for low in [n - 2, n - 1, n] {
                if !(0..=6).contains(&low) {
                    continue;
                }
                let base = i - (n - low) as usize;
                let others: [(usize, u8); 2] = match n - low {
                    0 => [(base + 1, 1), (base + 2, 1)],
                    1 => [(base, 1), (base + 2, 1)],
                    _ => [(base, 1), (base + 1, 1)],
                };
                if after(&others, true) < now {
                    lowers = true;
                    break;
                }
            }
        }
        if lowers {
            ll += ln_eps;
        }
    }
    ll
}

/// `ln` of the likelihood that an efficiency player holding `hand + d` with `melds`
/// melds discarded `d` (evidence 2 of the module docs for one decision).
fn decision_log_likelihood(hand: &TileCounts, d: &Decision, melds: u8, judge: &Judge) -> f64 {
    let (set, forms) = (judge.set, judge.forms);
    let mut before = *hand;
    before[d.tile.index()] += 1;
    let mut unseen = d.unseen;
    for (u, &c) in unseen.iter_mut().zip(before.iter()) {
        *u = u.saturating_sub(c);
    }
    if d.on_draw && min_shanten(&before, melds, set, forms) < 0 {
        return judge.ln_eps;
    }
    match best_discard(&before, melds, set, forms, &unseen) {
        Some(best) => {
            let kept = ukeire(hand, melds, set, forms, &unseen);
            if kept.shanten > best.shanten {
                judge.ln_eps
            } else if kept.tiles < best.ukeire_tiles {
                judge.ln_ukeire
            } else {
                0.0
            }
        }
        None => 0.0,
    }
}

/// The log-likelihood (the evidence of the module docs that `model` uses, without the
/// prior) of
/// `hand` as the concealed hand of `seat` in the position `obs`: 0 when the hand
/// explains everything the seat did under the efficiency rule, a multiple of
/// `ln(deviation)` (and `ln(ukeire_deviation)`) otherwise. For tests and diagnostics.
pub fn evidence_log_likelihood(
    obs: &Observation,
    model: &OpponentModel,
    seat: u8,
    hand: &TileCounts,
) -> f64 {
    let size = Game::concealed_sizes(obs)
        .get(seat as usize)
        .copied()
        .unwrap_or(0);
    // The backward walks of evidence 5 draw from a fixed stream, so the result is a
    // function of its arguments.
    let mut rng = Rng::new(0);
    log_likelihood(
        model,
        obs,
        &revealed(obs, seat as usize, size),
        hand,
        &mut rng,
    )
}

/// Fills `out` with uniform proposals of the opponents' concealed hands in the position
/// `obs` and `weights` (same length) with their normalised importance weights under
/// `model` (see the module docs). With [`Evidence::NONE`] the weights are uniform.
///
/// Errors: [`RuleError::BadSetup`] when `obs` is inconsistent (fewer unseen tiles than
/// the opponents hold) or the buffers are empty or of different lengths.
pub fn weigh_hypotheses(
    obs: &Observation,
    model: &OpponentModel,
    rng: &mut Rng,
    out: &mut [Hypothesis],
    weights: &mut [f64],
) -> Result<BeliefSummary, RuleError> {
    if out.is_empty() || out.len() != weights.len() {
        return Err(RuleError::BadSetup);
    }
    let n = obs.rules.players as usize;
    if obs.seat as usize >= n {
        return Err(RuleError::BadSeat);
    }
    let sizes = Game::concealed_sizes(obs);
    let mut buf = [revealed(obs, obs.seat as usize, 0); MAX_PLAYERS];
    let mut k = 0;
    for s in (0..n).filter(|&s| s != obs.seat as usize) {
        buf[k] = revealed(obs, s, sizes[s]);
        k += 1;
    }
    let opponents = &buf[..k];
    let mut pool = [Tile::EAST; MAX_WALL];
    let mut len = 0;
    for t in Tile::all() {
        for _ in 0..obs.unseen[t.index()] {
            if let Some(p) = pool.get_mut(len) {
                *p = t;
                len += 1;
            }
        }
    }
    let needed: usize = opponents.iter().map(|o| o.size as usize).sum();
    if needed > len {
        return Err(RuleError::BadSetup);
    }
    let pool = &mut pool[..len];
    for h in out.iter_mut() {
        propose(pool, opponents, model, obs, rng, h);
    }
    // A built proposal is its own prior (see [`Proposal::Built`]).
    let use_prior = model.evidence.shanten_prior && model.proposal == Proposal::Uniform;
    let forms = Forms::from_rules(&obs.rules);
    let set = obs.rules.tile_set;
    // The proposals' own shanten histogram per opponent, for the prior's ratio.
    let mut hist = [[0u32; PRIOR_SHANTEN]; MAX_PLAYERS];
    let shanten_of = |h: &Hypothesis, o: &Revealed| {
        min_shanten(&h.hands[o.seat], o.melds, set, forms).clamp(-1, PRIOR_SHANTEN as i8 - 2)
    };
    if use_prior {
        for h in out.iter() {
            for (j, o) in opponents.iter().enumerate() {
                hist[j][(shanten_of(h, o) + 1) as usize] += 1;
            }
        }
    }
    let m = out.len() as f64;
    let mut max_lw = f64::NEG_INFINITY;
    for (h, w) in out.iter().zip(weights.iter_mut()) {
        let mut lw = 0.0;
        for (j, o) in opponents.iter().enumerate() {
            // A cell the self-play rarely reached (or an opponent yet to discard, whose
            // hand is still the uniform deal) says nothing: no prior factor.
            if use_prior
                && model.prior.total(o.melds, o.own_discards) >= MIN_PRIOR_COUNT
                && o.own_discards > 0
            {
                let s = shanten_of(h, o);
                let q = model.prior.probability(o.melds, o.own_discards, s);
                let u = (hist[j][(s + 1) as usize] as f64 + 0.5) / (m + 0.5 * PRIOR_SHANTEN as f64);
                lw += libm::log(q / u);
            }
            lw += log_likelihood(model, obs, o, &h.hands[o.seat], rng);
        }
        *w = lw;
        max_lw = max_lw.max(lw);
    }
    // Every proposal impossible under the walks of evidence 5 (all `-inf`): the
    // evidence says nothing this sample can use, so the weights fall back to uniform.
    if max_lw == f64::NEG_INFINITY {
        weights.fill(0.0);
        max_lw = 0.0;
    }
    let mut sum = 0.0;
    for w in weights.iter_mut() {
        *w = libm::exp(*w - max_lw);
        sum += *w;
    }
    let mut sum_sq = 0.0;
    for w in weights.iter_mut() {
        *w /= sum;
        sum_sq += *w * *w;
    }
    Ok(BeliefSummary {
        proposals: out.len(),
        effective: if sum_sq > 0.0 { 1.0 / sum_sq } else { 0.0 },
    })
}
