//! Riichi legality: waits and furiten, riichi, kita, nine terminals, and wins that
//! need a yaku.
//!
//! - **Riichi** (<https://riichi.wiki/Riichi>, Tenhou's rules): a closed hand (closed
//!   kans allowed), tenpai after the declaring discard, at least
//!   [`riichi_cost`](crate::RiichiRules::riichi_cost) points and
//!   [`riichi_min_live`](crate::RiichiRules::riichi_min_live) live tiles left. After it
//!   the hand is fixed: the drawn tile is discarded, tsumo is possible, a closed kan only
//!   of the drawn tile and only when it keeps the waits (Tenhou), kita only of a drawn
//!   north; no pon, chi or open kan.
//! - **Furiten** (<https://riichi.wiki/Furiten>): no ron while a winning tile of the
//!   hand is among its own discards, after letting a winning tile pass until the own next
//!   discard (temporary), and for the rest of the hand after letting one pass in riichi.
//!   Waits are by shape, yaku or not; tsumo is never blocked.
//! - **Yaku**: a win is legal only when [`crate::score::score`] scores it; `NoYaku`
//!   makes tsumo and ron illegal.

use super::super::meld::MeldKind;
use super::super::state::{Game, ORPHANS};
use crate::shanten::{min_shanten, Forms, Prepared};
use crate::tile::{Tile, TileCounts};

/// North's tile index.
pub(crate) const NORTH: u8 = 30;

/// The winning tile types (by shape, bit `i` = tile index `i`) of a waiting hand of
/// `13 − 3·melds` tiles under `rules`, types it holds four of excluded; 0 when it is
/// not tenpai. The waits the engine's furiten is about: a front-end that follows a
/// game from its events (the `host-trainer mjai` bot) derives the own furiten with them.
pub fn waits(rules: &crate::Rules, hand: &TileCounts, melds: u8) -> u64 {
    let forms = Forms::from_rules(rules);
    let set = rules.tile_set;
    if min_shanten(hand, melds, set, forms) != 0 {
        return 0;
    }
    Prepared::new(hand, melds, set, forms).ukeire_mask(hand)
}

impl Game {
    /// Whether `seat` declared riichi this hand.
    pub(crate) fn in_riichi(&self, seat: u8) -> bool {
        self.rh
            .declared
            .get(seat as usize)
            .is_some_and(|d| d.is_some())
    }

    /// The winning tile types (by shape) of a waiting hand of `13 − 3·melds` tiles,
    /// types it holds four of excluded; 0 when it is not tenpai.
    pub(crate) fn waits_of(&self, hand: &TileCounts, melds: u8) -> u64 {
        waits(&self.rules, hand, melds)
    }

    /// The waits of `seat`'s hand as it is (between its own turns).
    pub(crate) fn seat_waits(&self, seat: u8) -> u64 {
        let s = seat as usize;
        match (self.hands.get(s), self.melds.get(s)) {
            (Some(h), Some(m)) => self.waits_of(h, m.len() as u8),
            _ => 0,
        }
    }

    /// Whether `seat` may not ron now (see the module docs).
    pub(crate) fn furiten(&self, seat: u8) -> bool {
        let s = seat as usize;
        let flag = |v: &[bool; 4]| v.get(s).copied().unwrap_or(false);
        flag(&self.rh.furiten_temp)
            || flag(&self.rh.furiten_riichi)
            || self.seat_waits(seat) & self.rh.discarded.get(s).copied().unwrap_or(0) != 0
    }

    /// The seat's first turn, with no call, kan or kita by anyone before it.
    pub(crate) fn first_turn(&self, seat: u8) -> bool {
        !self.rh.calls
            && self
                .discards
                .get(seat as usize)
                .is_some_and(|d| d.is_empty())
    }

    fn closed_hand(&self, seat: u8) -> bool {
        self.melds
            .get(seat as usize)
            .is_some_and(|ms| ms.iter().all(|m| m.kind == MeldKind::ClosedKan))
    }

    /// The tile types `t` for which `Riichi(t)` is legal for the seat on turn.
    pub(crate) fn riichi_discards(&self, seat: u8) -> u64 {
        let Some(r) = self.rules.riichi else {
            return 0;
        };
        let s = seat as usize;
        let (Some(hand), Some(melds), Some(discards), Some(&score)) = (
            self.hands.get(s),
            self.melds.get(s),
            self.discards.get(s),
            self.scores.get(s),
        ) else {
            return 0;
        };
        if self.in_riichi(seat)
            || self.after_call
            || discards.is_full()
            || !self.closed_hand(seat)
            || score < r.riichi_cost
            || self.live_wall_remaining() < r.riichi_min_live
        {
            return 0;
        }
        let forms = Forms::from_rules(&self.rules);
        let (set, m) = (self.rules.tile_set, melds.len() as u8);
        if min_shanten(hand, m, set, forms) > 0 {
            return 0;
        }
        let mut mask = 0u64;
        for (i, &c) in hand.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let mut h = *hand;
            h[i] -= 1;
            if min_shanten(&h, m, set, forms) == 0 {
                mask |= 1u64 << i;
            }
        }
        mask
    }

    /// Whether the seat on turn may set a north aside.
    pub(crate) fn kita_legal(&self, seat: u8) -> bool {
        let Some(r) = self.rules.riichi else {
            return false;
        };
        let s = seat as usize;
        let norths = self
            .hands
            .get(s)
            .and_then(|h| h.get(NORTH as usize))
            .copied()
            .unwrap_or(0);
        r.kita
            && !self.after_call
            && norths > 0
            && self.draw_pos < self.live_end
            && self.rh.kita.get(s).is_some_and(|&k| k < 4)
            && (!self.in_riichi(seat) || self.drawn.is_some_and(|t| t.as_u8() == NORTH))
    }

    /// Whether the seat on turn may abort with nine terminals and honours.
    pub(crate) fn nine_terminals_legal(&self, seat: u8) -> bool {
        let Some(r) = self.rules.riichi else {
            return false;
        };
        let kinds = self
            .shapes
            .get(seat as usize)
            .map_or(0, |sh| (sh.held & ORPHANS).count_ones());
        r.abort_nine_terminals
            && !self.after_call
            && self.drawn.is_some()
            && self.first_turn(seat)
            && kinds >= 9
    }

    /// After riichi: whether a closed kan of `t` keeps the waits (and is of the drawn
    /// tile, so no tile of the fixed hand moves).
    pub(crate) fn riichi_kan_keeps_waits(&self, seat: u8, t: Tile) -> bool {
        let s = seat as usize;
        let (Some(hand), Some(melds)) = (self.hands.get(s), self.melds.get(s)) else {
            return false;
        };
        if self.drawn != Some(t) || hand.get(t.index()).copied() != Some(4) {
            return false;
        }
        let m = melds.len() as u8;
        let mut before = *hand;
        before[t.index()] -= 1;
        let mut after = *hand;
        after[t.index()] = 0;
        let w = self.waits_of(&before, m);
        w != 0 && w == self.waits_of(&after, m + 1)
    }

    /// Whether `seat`'s win (tsumo with `from == None`, else ron on `tile` from
    /// `from`) scores, i.e. has a yaku. The shape is checked by the caller.
    pub(crate) fn riichi_win_scores(
        &self,
        seat: u8,
        tile: Tile,
        from: Option<u8>,
        robbing: bool,
    ) -> bool {
        self.win_input(seat, tile, from, robbing, false)
            .is_some_and(|input| crate::score::score(&input).is_ok())
    }

    /// Marks every seat whose hand the claim tile completed in shape and that did not
    /// win on it as furiten (temporary; for the rest of the hand in riichi).
    pub(crate) fn mark_missed_wins(&mut self, winners: u8) {
        for s in 0..self.rules.players as usize {
            let shape = self.claim.options.get(s).is_some_and(|o| o.shape);
            if !shape || winners & (1 << s) != 0 {
                continue;
            }
            let riichi = self.in_riichi(s as u8);
            if let Some(f) = self.rh.furiten_temp.get_mut(s) {
                *f = true;
            }
            if let (true, Some(f)) = (riichi, self.rh.furiten_riichi.get_mut(s)) {
                *f = true;
            }
        }
    }
}
