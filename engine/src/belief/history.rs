//! Evidence 5 of the module docs: the discards made before the current hand, read by
//! walking the hypothesised hand back through the opponent's history.
//!
//! The evidence of [`super::Evidence::hand_discards`] is exact because the current
//! concealed hand `H` has not changed since the last tedashi. Every earlier discard
//! was chosen from a hand that differed from `H` by the tiles drawn since, which the
//! observer never saw. Walking back from `H`, one discard at a time, newest first:
//!
//! - a **tsumogiri** discard `d` undoes to the same hand (the tile drawn was `d`);
//! - a **tedashi** discard `d` undoes to `H_k + d − t`, where `t`, the tile drawn
//!   before it, is one of the 13 − 3m tiles of `H_k` (it was kept): the walk draws it
//!   uniformly among them (the backward kernel; draws from the wall are close to
//!   uniform over the tiles a player could hold);
//! - a discard that **followed a pon or chi** undoes to `H_k + d` plus the tiles the
//!   call took from the hand, with one meld fewer (no draw before it).
//!
//! Each hand `H_{k−1}` reached is then judged as the hand the opponent chose discard
//! `k − 1` from, by shanten alone (the ukeire of an earlier time are not known well
//! enough to be worth their cost): discarding `d` when another discard left a lower
//! shanten costs `ε_h` ([`super::OpponentModel::history_deviation`]), and so does a
//! passed tsumo (`H_{k−1} + d` complete on a draw) and, under rules without furiten or
//! yaku (the simple presets), a passed ron on a tile another seat discarded while the
//! hand was `H_{k−1}`. A walk that needs a fifth copy of a tile is impossible.
//!
//! The factor of a proposal is the mean of `Π` factors over
//! [`super::OpponentModel::history_paths`] walks: an unbiased estimate of the
//! likelihood of the history given `H` under the uniform backward kernel. This is the
//! particle filter of Solinas et al. ("Improving search with supervised learning in
//! trick-based card games", AAAI 2019) run backwards from each proposal rather than
//! forwards from the deal, so no proposal is lost to an impossible early draw.
//! Differences: the backward kernel is not the true draw distribution, and an opponent
//! with a kan is not walked (its time is not recorded).

use crate::game::{MeldKind, Observation, Phase};
use crate::rng::Rng;
use crate::shanten::{min_shanten, Forms};
use crate::tile::{Tile, TileCounts, TileSet, NUM_TILE_TYPES};

/// Most earlier discards walked back (the latest ones).
pub const HISTORY_CAP: usize = 24;

/// One of the opponent's discards, as the walk needs it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    tile: Tile,
    tsumogiri: bool,
    /// The two tiles a pon or chi just before this discard took from the hand.
    after_call: Option<(Tile, Tile)>,
    /// Tile types other seats discarded after this discard and before the next own
    /// one, the claim window open now excepted: the opponent let a ron on each pass.
    passed: u64,
}

/// The opponent's discards up to and including its last tedashi, oldest first.
#[derive(Clone, Copy, Debug)]
pub(super) struct History {
    steps: [Step; HISTORY_CAP + 1],
    len: usize,
}

impl History {
    pub(super) const EMPTY: History = History {
        steps: [Step {
            tile: Tile::EAST,
            tsumogiri: false,
            after_call: None,
            passed: 0,
        }; HISTORY_CAP + 1],
        len: 0,
    };

    fn steps(&self) -> &[Step] {
        self.steps.get(..self.len).unwrap_or(&[])
    }
}

/// The tiles the call that `seat`'s discard `seq` directly followed took from its
/// hand, if it followed a pon or chi.
fn call_before(obs: &Observation, seat: usize, seq: u8) -> Option<(Tile, Tile)> {
    let melds = obs.melds.get(seat)?;
    for (from, row) in obs.discards.iter().enumerate() {
        for c in row
            .iter()
            .filter(|c| c.claimed && c.seq.wrapping_add(1) == seq)
        {
            for m in melds.iter() {
                if m.claimed != Some(c.tile) || m.from != Some(from as u8) {
                    continue;
                }
                match m.kind {
                    MeldKind::Pon => return Some((c.tile, c.tile)),
                    MeldKind::Chi => {
                        let low = m.tile.index();
                        let mut others = (low..low + 3).filter(|&i| i != c.tile.index());
                        let a = Tile::new(others.next()? as u8)?;
                        let b = Tile::new(others.next()? as u8)?;
                        return Some((a, b));
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

/// Reads the history of `seat` whose last tedashi is its discard `start`; empty when
/// the seat has a kan or nothing before `start`.
pub(super) fn read(obs: &Observation, seat: usize, start: usize) -> History {
    let mut out = History::EMPTY;
    let own = obs.discards.get(seat).map_or(&[][..], |r| r.as_slice());
    let melds = obs.melds.get(seat).map_or(&[][..], |m| m.as_slice());
    if start == 0 || melds.iter().any(|m| m.kind.is_kan()) {
        return out;
    }
    let pending_seq = obs
        .pending
        .filter(|p| obs.phase == Phase::Claim && p.is_discard())
        .and_then(|p| obs.discards.get(p.from as usize)?.last().map(|d| d.seq));
    let players = obs.rules.players as usize;
    let first = (start + 1).saturating_sub(HISTORY_CAP + 1);
    for (k, d) in own.iter().enumerate().take(start + 1).skip(first) {
        let next_seq = own.get(k + 1).map_or(u8::MAX, |n| n.seq);
        let mut passed = 0u64;
        for (s, row) in obs.discards.iter().enumerate().take(players) {
            if s == seat {
                continue;
            }
            for x in row.iter() {
                if x.seq > d.seq && x.seq < next_seq && Some(x.seq) != pending_seq {
                    passed |= 1u64 << x.tile.index();
                }
            }
        }
        if let Some(slot) = out.steps.get_mut(out.len) {
            *slot = Step {
                tile: d.tile,
                tsumogiri: d.tsumogiri,
                after_call: call_before(obs, seat, d.seq),
                passed,
            };
            out.len += 1;
        }
    }
    out
}

/// The fixed parts of one weighing.
#[derive(Clone, Copy)]
pub(super) struct Walker {
    pub(super) set: TileSet,
    pub(super) forms: Forms,
    /// `ln ε_h`.
    pub(super) ln_eps: f64,
    /// Read passed rons (rules without furiten and yaku).
    pub(super) passed_wins: bool,
    /// Walks averaged.
    pub(super) paths: usize,
}

/// `ln` of the history factor of `hand` (see the module docs); 0 for an empty history.
pub(super) fn log_likelihood(
    history: &History,
    hand: &TileCounts,
    melds: u8,
    walker: &Walker,
    rng: &mut Rng,
) -> f64 {
    let steps = history.steps();
    if steps.len() < 2 || walker.paths == 0 {
        return 0.0;
    }
    // log-mean-exp over the walks.
    let mut lls = [0.0f64; 16];
    let paths = walker.paths.min(lls.len());
    for ll in lls.iter_mut().take(paths) {
        *ll = walk(steps, hand, melds, walker, rng);
    }
    let lls = &lls[..paths];
    let top = lls.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return top;
    }
    let mean = lls.iter().map(|&l| libm::exp(l - top)).sum::<f64>() / paths as f64;
    top + libm::log(mean)
}

/// One backward walk: the log factor of the history along it.
fn walk(steps: &[Step], hand: &TileCounts, melds: u8, w: &Walker, rng: &mut Rng) -> f64 {
    let mut cur = *hand;
    let mut melds = melds;
    let mut ll = 0.0;
    for k in (1..steps.len()).rev() {
        let (undo, prev) = (steps[k], steps[k - 1]);
        let d = undo.tile.index();
        match undo.after_call {
            Some((a, b)) => {
                cur[d] += 1;
                cur[a.index()] += 1;
                cur[b.index()] += 1;
                melds = melds.saturating_sub(1);
            }
            None if undo.tsumogiri => {}
            None => {
                let Some(t) = pick_position(&cur, rng) else {
                    return f64::NEG_INFINITY;
                };
                cur[t] -= 1;
                cur[d] += 1;
            }
        }
        if cur.iter().any(|&c| c > 4) {
            return f64::NEG_INFINITY;
        }
        ll += decision(&mut cur, prev.tile, melds, prev.after_call.is_none(), w);
        if w.passed_wins {
            ll += passed_wins(&mut cur, prev.passed, melds, w);
        }
    }
    ll
}

/// A tile type of `hand`, each tile (not type) equally likely.
fn pick_position(hand: &TileCounts, rng: &mut Rng) -> Option<usize> {
    let total: u32 = hand.iter().map(|&c| c as u32).sum();
    if total == 0 {
        return None;
    }
    let mut r = rng.below(total);
    for (i, &c) in hand.iter().enumerate() {
        if r < c as u32 {
            return Some(i);
        }
        r -= c as u32;
    }
    None
}

/// `ln` factor of discarding `d` from `hand + d` by shanten alone (restores `hand`):
/// `ε_h` when another discard leaves a lower shanten or `hand + d` was complete on a
/// draw, else 1. (A version normalised over the tied discards, `1/|T|` for each, was
/// measured worse on every score of `host-trainer belief`: it favours connected hands
/// by a factor per step that swamps the rest.)
fn decision(hand: &mut TileCounts, d: Tile, melds: u8, on_draw: bool, w: &Walker) -> f64 {
    let kept = min_shanten(hand, melds, w.set, w.forms);
    let i = d.index();
    hand[i] += 1;
    let mut ll = 0.0;
    if on_draw && min_shanten(hand, melds, w.set, w.forms) < 0 {
        ll = w.ln_eps;
    } else {
        for x in 0..NUM_TILE_TYPES {
            if hand[x] == 0 || x == i {
                continue;
            }
            hand[x] -= 1;
            let s = min_shanten(hand, melds, w.set, w.forms);
            hand[x] += 1;
            if s < kept {
                ll = w.ln_eps;
                break;
            }
        }
    }
    hand[i] -= 1;
    ll
}

/// `ln ε_h` for each tile of `passed` that completes `hand` (restores `hand`).
fn passed_wins(hand: &mut TileCounts, passed: u64, melds: u8, w: &Walker) -> f64 {
    let mut ll = 0.0;
    let mut mask = passed;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        if hand[i] >= 4 {
            continue;
        }
        hand[i] += 1;
        if min_shanten(hand, melds, w.set, w.forms) < 0 {
            ll += w.ln_eps;
        }
        hand[i] -= 1;
    }
    ll
}
