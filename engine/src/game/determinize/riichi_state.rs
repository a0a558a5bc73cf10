//! Determinization under riichi rules: tenpai hands for the seats in riichi, the hidden
//! red fives, and the per-hand riichi state restored from the [`RiichiView`].
//!
//! What is restored exactly from the view: riichi declarations, double riichi, ippatsu,
//! kita, the dora indicators revealed (the kan dora still to reveal are `1 + kans −
//! revealed`), honba, sticks, the round wind, every red five in the open and the
//! observer's own red fives and furiten. Derived exactly from public facts: whether a
//! call, kan or kita interrupted the hand (any meld or kita), who declared a kan, the
//! tile types each seat discarded, a riichi stick awaiting the window of its discard,
//! whether the pending discard is red, and whether the seat on turn holds a
//! replacement tile.
//!
//! **Choices** (the hidden parts):
//! - *Red fives*: the red fives not in the open (not in the observer's hand, a meld or
//!   an unclaimed discard) are placed on copies of their five chosen uniformly among the
//!   copies whose redness the observer cannot see: the other seats' concealed tiles, the
//!   undrawn wall (ura and unrevealed indicators included), the revealed dora indicators
//!   (the view does not tell whether one is red) and a robbable added-kan tile.
//! - *Riichi seats are tenpai*: a seat in riichi gets a hand built from the unseen tiles
//!   (a uniform deal, then rounds of "draw an unseen tile, discard the tile whose removal
//!   leaves the lowest shanten, ties at random", the discards going back to the pool —
//!   the generative model of [`crate::belief::Proposal::Built`]) until it is tenpai with
//!   at least one wait and, in the first half of the tries, no wait among the tiles it
//!   discarded after its riichi (it would have won on them by tsumo). Up to
//!   [`TENPAI_TRIES`] tries of [`TENPAI_ROUNDS`] rounds. When none succeeds with the
//!   other seats' hands given (a belief proposal), the proposal is dropped and every
//!   hidden hand dealt afresh, riichi seats first from all unseen tiles: late in a hand
//!   the given hands can hold every tile the riichi seat's tenpai needs (an external
//!   mjai engine found 7 such refusals of the search in 40 hanchan; none in 200 000
//!   proposals of `tests/determinize_riichi.rs` since). When none succeeds from all
//!   unseen tiles the position is refused with [`RuleError::BadSetup`]. Measured over the 31 000
//!   determinizations of `tests/determinize_riichi.rs`: 1 629 builds, 96 % done on the
//!   first try, 20 rounds on average, the wait condition never relaxed, none refused;
//!   about 35 000–65 000 determinizations per second with an opponent in riichi
//!   (130 000–210 000 overall, one core). This is
//!   not the uniform distribution over tenpai hands; a given hand (belief proposals) is
//!   kept when it is tenpai and redealt this way otherwise.
//! - *Opponents' furiten* is recomputed from their dealt hands and the public discard
//!   order: own-discard furiten from their discards; temporary furiten when another
//!   seat discarded one of their winning tiles since their last discard (the open
//!   window's tile excepted); riichi furiten when one was discarded after their riichi.
//!   Added-kan tiles that could have been robbed are not read (their time is not
//!   public). The observer's furiten is the view's.

use super::super::caps::{MAX_PLAYERS, MAX_WALL};
use super::super::error::RuleError;
use super::super::fives::five_suit;
use super::super::observation::Observation;
use super::super::riichi_flow::RiichiView;
use super::super::state::{Game, Phase};
use crate::rng::Rng;
use crate::shanten::{min_shanten, Forms};
use crate::tile::{Tile, TileCounts, NUM_TILE_TYPES};

/// Tries at building a riichi seat's tenpai hand.
pub const TENPAI_TRIES: usize = 8;
/// Draw-and-discard rounds of one try.
pub const TENPAI_ROUNDS: usize = 48;

/// A tile drawn from `pool` in proportion to its counts (removed from it).
fn draw_from(pool: &mut TileCounts, rng: &mut Rng) -> Option<Tile> {
    let total: u32 = pool.iter().map(|&c| c as u32).sum();
    let mut r = rng.below(total);
    for (i, c) in pool.iter_mut().enumerate() {
        if r < *c as u32 {
            *c -= 1;
            return Tile::new(i as u8);
        }
        r -= *c as u32;
    }
    None
}

impl Game {
    /// Deals every opponent in riichi a tenpai hand (see the module docs) from `pool`,
    /// keeping a given hand that already is one.
    pub(super) fn deal_riichi_seats(
        &self,
        obs: &Observation,
        sizes: &[u8; MAX_PLAYERS],
        pool: &mut TileCounts,
        hands: &mut [TileCounts; MAX_PLAYERS],
        dealt: &mut [bool; MAX_PLAYERS],
        rng: &mut Rng,
    ) -> Result<(), RuleError> {
        let view = obs.riichi.as_ref().ok_or(RuleError::BadSetup)?;
        for s in 0..self.rules.players as usize {
            let Some(Some(decl)) = view.declared.get(s).copied() else {
                continue;
            };
            if s == obs.seat as usize {
                continue;
            }
            let melds = obs.melds.get(s).map_or(0, |m| m.len()) as u8;
            let (Some(hand), Some(done)) = (hands.get_mut(s), dealt.get_mut(s)) else {
                return Err(RuleError::BadSetup);
            };
            if *done {
                if self.waits_of(hand, melds) != 0 {
                    continue;
                }
                for (p, &c) in pool.iter_mut().zip(hand.iter()) {
                    *p += c;
                }
            }
            let mut forbidden = 0u64;
            for d in obs
                .discards
                .get(s)
                .into_iter()
                .flatten()
                .skip(decl as usize + 1)
            {
                forbidden |= 1u64 << d.tile.index();
            }
            let size = sizes.get(s).copied().unwrap_or(0);
            *hand = self
                .build_tenpai(pool, size, melds, forbidden, rng)
                .ok_or(RuleError::BadSetup)?;
            *done = true;
        }
        Ok(())
    }

    /// A tenpai hand of `size` tiles (with `melds` closed kans) built from `pool`,
    /// whose tiles it removes; `None` after [`TENPAI_TRIES`] failed tries.
    fn build_tenpai(
        &self,
        pool: &mut TileCounts,
        size: u8,
        melds: u8,
        forbidden: u64,
        rng: &mut Rng,
    ) -> Option<TileCounts> {
        let (set, forms) = (self.rules.tile_set, Forms::from_rules(&self.rules));
        for attempt in 0..TENPAI_TRIES {
            let strict = attempt < TENPAI_TRIES / 2;
            let mut hand = [0u8; NUM_TILE_TYPES];
            for _ in 0..size {
                let t = draw_from(pool, rng)?;
                hand[t.index()] += 1;
            }
            for _ in 0..TENPAI_ROUNDS {
                if min_shanten(&hand, melds, set, forms) == 0 {
                    let w = self.waits_of(&hand, melds);
                    if w != 0 && (!strict || w & forbidden == 0) {
                        return Some(hand);
                    }
                }
                let Some(t) = draw_from(pool, rng) else {
                    break;
                };
                hand[t.index()] += 1;
                let out = lowest_shanten_discard(&hand, melds, self, rng);
                hand[out] -= 1;
                pool[out] += 1;
            }
            for (p, &c) in pool.iter_mut().zip(hand.iter()) {
                *p += c;
            }
        }
        None
    }

    /// The per-hand riichi state and the table from `view`, the hidden red fives and
    /// the furiten flags (see the module docs).
    pub(super) fn restore_riichi(
        &mut self,
        obs: &Observation,
        view: &RiichiView,
        rng: &mut Rng,
    ) -> Result<(), RuleError> {
        let n = self.rules.players as usize;
        self.table.round = view.round_wind;
        self.table.honba = view.honba;
        self.table.sticks = view.riichi_sticks;
        self.start_table = self.table;
        let rh = &mut self.rh;
        rh.declared = view.declared;
        rh.double = view.double;
        rh.ippatsu = view.ippatsu;
        rh.kita = view.kita;
        rh.red_melds = view.red_melds;
        rh.red_discards = view.red_discards;
        rh.rinshan = view.rinshan;
        let shown = view.dora_indicators.len();
        rh.dora = shown as u8;
        rh.dora_pending = (1 + self.kans as usize)
            .checked_sub(shown)
            .filter(|_| shown >= 1)
            .ok_or(RuleError::BadSetup)? as u8;
        rh.calls = self.melds.iter().any(|m| !m.is_empty()) || view.kita.iter().any(|&k| k > 0);
        for s in 0..n {
            let (Some(melds), Some(row)) = (self.melds.get(s), self.discards.get(s)) else {
                continue;
            };
            if melds.iter().any(|m| m.kind.is_kan()) {
                rh.kan_seats |= 1 << s;
            }
            if let Some(d) = rh.discarded.get_mut(s) {
                *d = row.iter().fold(0, |m, d| m | 1u64 << d.tile.index());
            }
        }
        if let Some(p) = obs.pending.filter(|p| p.is_discard()) {
            let from = p.from as usize;
            let last = self
                .discards
                .get(from)
                .map_or(0, |r| r.len())
                .checked_sub(1);
            let last = last.ok_or(RuleError::BadSetup)?;
            let bits = view.red_discards.get(from).copied().unwrap_or(0);
            self.rh.red_claim = bits >> last & 1 == 1;
            self.rh.stick_pending = view.declared.get(from).copied().flatten() == Some(last as u8);
        }
        self.deal_reds(obs, view, rng)?;
        self.restore_furiten(obs, view);
        Ok(())
    }

    /// Places the red fives not in the open on copies of their five chosen uniformly
    /// among those the observer cannot see the redness of.
    fn deal_reds(
        &mut self,
        obs: &Observation,
        view: &RiichiView,
        rng: &mut Rng,
    ) -> Result<(), RuleError> {
        let want = self.rules.riichi.map_or([0; 3], |r| r.red_fives);
        let seat = obs.seat as usize;
        self.red = [false; MAX_WALL];
        if let Some(r) = self.rh.red_hand.get_mut(seat) {
            *r = view.red_hand;
        }
        let (draw, dead) = (self.draw_pos as usize, self.dead_end as usize);
        let robbing = obs.pending.filter(|p| p.added_kan).map(|p| p.tile);
        for (suit, &w) in want.iter().enumerate() {
            let mut open = view.red_hand.get(suit).copied().unwrap_or(0) as u32;
            for (s, ms) in self.melds.iter().enumerate() {
                for (m, &k) in ms.iter().zip(view.red_melds.get(s).into_iter().flatten()) {
                    if !m.tile.is_honor() && m.tile.suit().index() == suit {
                        open += k as u32;
                    }
                }
            }
            for (s, row) in self.discards.iter().enumerate() {
                let bits = view.red_discards.get(s).copied().unwrap_or(0);
                for (i, d) in row.iter().enumerate() {
                    if bits >> i & 1 == 1 && !d.claimed && five_suit(d.tile) == Some(suit) {
                        open += 1;
                    }
                }
            }
            let mut left = (w as u32).checked_sub(open).ok_or(RuleError::BadSetup)?;
            let five = suit * 9 + 4;
            let in_hands: u32 = (0..self.rules.players as usize)
                .filter(|&s| s != seat)
                .map(|s| self.hands.get(s).map_or(0, |h| h[five] as u32))
                .sum();
            let in_wall = (draw..dead)
                .filter(|&p| five_suit(self.wall[p]) == Some(suit))
                .count() as u32;
            let pending = robbing.is_some_and(|t| five_suit(t) == Some(suit)) as u32;
            let mut copies = in_hands + in_wall + pending;
            // Selection sampling: each copy is red with probability left / copies.
            let mut pick = |rng: &mut Rng| {
                let red = left > 0 && rng.below(copies) < left;
                copies = copies.saturating_sub(1);
                left -= red as u32;
                red
            };
            for s in (0..self.rules.players as usize).filter(|&s| s != seat) {
                for _ in 0..self.hands.get(s).map_or(0, |h| h[five]) {
                    if pick(rng) {
                        self.rh.red_hand[s][suit] += 1;
                    }
                }
            }
            for p in draw..dead {
                if five_suit(self.wall[p]) == Some(suit) && pick(rng) {
                    self.red[p] = true;
                }
            }
            if pending == 1 && pick(rng) {
                self.rh.red_claim = true;
            }
            if left != 0 {
                return Err(RuleError::BadSetup);
            }
        }
        Ok(())
    }

    /// Furiten flags recomputed from the dealt hands (see the module docs); the
    /// observer's made to agree with the view.
    fn restore_furiten(&mut self, obs: &Observation, view: &RiichiView) {
        let pending = obs
            .pending
            .filter(|p| p.is_discard())
            .and_then(|p| obs.discards.get(p.from as usize)?.last().map(|d| d.seq));
        for s in 0..self.rules.players as usize {
            let mut hand = self.hands[s];
            let on_turn = obs.phase == Phase::Turn && obs.turn as usize == s;
            if on_turn {
                match obs.drawn {
                    Some(t) => hand[t.index()] = hand[t.index()].saturating_sub(1),
                    None => continue,
                }
            }
            let melds = self.melds.get(s).map_or(0, |m| m.len()) as u8;
            let waits = self.waits_of(&hand, melds);
            let passed = |after: Option<u8>| {
                obs.discards.iter().enumerate().any(|(o, row)| {
                    o != s
                        && row.iter().any(|d| {
                            after.is_none_or(|a| d.seq > a)
                                && Some(d.seq) != pending
                                && waits >> d.tile.index() & 1 == 1
                        })
                })
            };
            let row = obs.discards.get(s);
            let last = row.and_then(|r| r.last()).map(|d| d.seq);
            let riichi_seq = view
                .declared
                .get(s)
                .copied()
                .flatten()
                .and_then(|i| row?.get(i as usize))
                .map(|d| d.seq);
            self.rh.furiten_temp[s] = waits != 0 && passed(last);
            self.rh.furiten_riichi[s] = waits != 0 && riichi_seq.is_some_and(|r| passed(Some(r)));
        }
        let seat = obs.seat as usize;
        let on_turn = obs.phase == Phase::Turn && obs.turn == obs.seat;
        if !on_turn && self.furiten(obs.seat) != view.furiten {
            let riichi = self.in_riichi(obs.seat);
            self.rh.furiten_temp[seat] = view.furiten;
            self.rh.furiten_riichi[seat] = view.furiten && riichi;
        }
    }
}

/// The tile type whose removal from `hand` leaves the lowest shanten (ties at random).
fn lowest_shanten_discard(hand: &TileCounts, melds: u8, game: &Game, rng: &mut Rng) -> usize {
    let (set, forms) = (game.rules.tile_set, Forms::from_rules(&game.rules));
    let (mut best, mut best_sh, mut ties) = (0usize, i8::MAX, 0u32);
    let mut h = *hand;
    for i in 0..NUM_TILE_TYPES {
        if h[i] == 0 {
            continue;
        }
        h[i] -= 1;
        let sh = min_shanten(&h, melds, set, forms);
        h[i] += 1;
        if sh < best_sh {
            (best, best_sh, ties) = (i, sh, 1);
        } else if sh == best_sh {
            ties += 1;
            if rng.below(ties) == 0 {
                best = i;
            }
        }
    }
    best
}
