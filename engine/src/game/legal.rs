//! Legality: the legal actions of a seat, the seats awaited, and claim options.
//!
//! [`Game::apply`] checks a single action with [`Game::check_legal`] instead of building
//! the whole list, so that self-play pays for one win check per decision, not two.

use super::action::{Action, LegalActions};
use super::caps::{MAX_KANS, MAX_PLAYERS};
use super::error::RuleError;
use super::meld::MeldKind;
use super::scoring::score_win;
use super::state::{ClaimOptions, Game, Phase};
use crate::tile::{Tile, TileCounts};

impl Game {
    /// The seats whose decision is awaited now: the seat on turn, or during a claim
    /// window every seat with a legal claim that has not answered yet (in seat order).
    /// Empty between hands and after the game.
    pub fn seats_to_act(&self) -> heapless::Vec<u8, 4> {
        let mut out = heapless::Vec::new();
        match self.phase {
            Phase::Turn => {
                let _ = out.push(self.turn);
            }
            Phase::Claim => {
                for seat in 0..self.rules.players {
                    if self.claim.awaits(seat as usize) {
                        let _ = out.push(seat);
                    }
                }
            }
            Phase::HandOver | Phase::GameOver => {}
        }
        out
    }

    /// The legal actions of `seat` now (empty when it has nothing to decide).
    pub fn legal_actions(&self, seat: u8) -> LegalActions {
        let mut out = LegalActions::new();
        if seat >= self.rules.players {
            return out;
        }
        match self.phase {
            Phase::Turn if seat == self.turn => self.turn_actions(seat, &mut out),
            Phase::Claim if self.claim.awaits(seat as usize) => {
                let o = self
                    .claim
                    .options
                    .get(seat as usize)
                    .copied()
                    .unwrap_or_default();
                out.push(Action::Pass);
                if o.ron {
                    out.push(Action::Ron);
                }
                if o.pon {
                    out.push(Action::Pon);
                }
                if o.kan {
                    out.push(Action::OpenKan);
                }
                for k in 0..3u8 {
                    if o.chi & (1 << k) != 0 {
                        if let Some(low) = chi_low(self.claim.tile, k) {
                            out.push(Action::Chi(low));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn turn_actions(&self, seat: u8, out: &mut LegalActions) {
        let s = seat as usize;
        let (Some(shape), Some(discards)) = (self.shapes.get(s), self.discards.get(s)) else {
            return;
        };
        // Bit masks over tile types, kept up to date with the hand (this function runs
        // on every decision of every self-play game).
        let (held, four) = (shape.held, shape.four);
        let riichi = self.rules.is_riichi();
        if riichi && self.in_riichi(seat) {
            self.riichi_turn_actions(seat, out);
            return;
        }
        if !discards.is_full() {
            out.push_discards(held);
        }
        if self.after_call {
            return;
        }
        if self.can_tsumo(seat) {
            out.push(Action::Tsumo);
        }
        if riichi {
            push_each(out, self.riichi_discards(seat), Action::Riichi);
            if self.kita_legal(seat) {
                out.push(Action::Kita);
            }
            if self.nine_terminals_legal(seat) {
                out.push(Action::NineTerminals);
            }
        }
        if self.kan_possible() {
            push_each(out, four, Action::ClosedKan);
            let mut pons = 0u64;
            for m in self.melds.get(s).map_or(&[][..], |m| m.as_slice()) {
                if m.kind == MeldKind::Pon {
                    pons |= 1u64 << m.tile.index();
                }
            }
            push_each(out, pons & held, Action::AddedKan);
        }
    }

    /// The turn of a seat in riichi: discard the drawn tile, tsumo, a closed kan of the
    /// drawn tile that keeps the waits, kita of a drawn north.
    fn riichi_turn_actions(&self, seat: u8, out: &mut LegalActions) {
        let Some(drawn) = self.drawn else {
            return;
        };
        if self
            .discards
            .get(seat as usize)
            .is_some_and(|d| !d.is_full())
        {
            out.push_discards(1u64 << drawn.index());
        }
        if self.can_tsumo(seat) {
            out.push(Action::Tsumo);
        }
        if self.kita_legal(seat) {
            out.push(Action::Kita);
        }
        if self.kan_possible() && self.riichi_kan_keeps_waits(seat, drawn) {
            out.push(Action::ClosedKan(drawn));
        }
    }

    /// Checks one action without building the list. Errors say why it is refused.
    pub(crate) fn check_legal(&self, seat: u8, action: Action) -> Result<(), RuleError> {
        if seat >= self.rules.players {
            return Err(RuleError::BadSeat);
        }
        let s = seat as usize;
        match self.phase {
            Phase::GameOver => Err(RuleError::GameOver),
            Phase::HandOver => Err(RuleError::HandOver),
            Phase::Turn => {
                if seat != self.turn {
                    return Err(RuleError::NotYourTurn);
                }
                let count = |t: Tile| {
                    self.hands
                        .get(s)
                        .and_then(|h| h.get(t.index()))
                        .copied()
                        .unwrap_or(0)
                };
                let fixed = self.rules.is_riichi() && self.in_riichi(seat);
                let ok = match action {
                    Action::Discard(t) => {
                        count(t) > 0
                            && self.discards.get(s).is_some_and(|d| !d.is_full())
                            && (!fixed || self.drawn == Some(t))
                    }
                    Action::Tsumo => !self.after_call && self.can_tsumo(seat),
                    Action::ClosedKan(t) => {
                        !self.after_call
                            && self.kan_possible()
                            && count(t) == 4
                            && (!fixed || self.riichi_kan_keeps_waits(seat, t))
                    }
                    Action::AddedKan(t) => {
                        !self.after_call
                            && self.kan_possible()
                            && count(t) >= 1
                            && self.has_pon(seat, t)
                    }
                    Action::Riichi(t) => self.riichi_discards(seat) & (1u64 << t.index()) != 0,
                    Action::Kita => self.kita_legal(seat),
                    Action::NineTerminals => self.nine_terminals_legal(seat),
                    _ => false,
                };
                if ok {
                    Ok(())
                } else {
                    Err(RuleError::IllegalAction)
                }
            }
            Phase::Claim => {
                if !self.claim.awaits(s) {
                    return Err(RuleError::NotYourTurn);
                }
                let o = self.claim.options.get(s).copied().unwrap_or_default();
                let ok = match action {
                    Action::Pass => true,
                    Action::Ron => o.ron,
                    Action::Pon => o.pon,
                    Action::OpenKan => o.kan,
                    Action::Chi(low) => (0..3u8)
                        .any(|k| o.chi & (1 << k) != 0 && chi_low(self.claim.tile, k) == Some(low)),
                    _ => false,
                };
                if ok {
                    Ok(())
                } else {
                    Err(RuleError::IllegalAction)
                }
            }
        }
    }

    /// Whether the seat on turn holds a winning hand (after a draw, not after a call).
    fn can_tsumo(&self, seat: u8) -> bool {
        if self.drawn.is_none() {
            return false;
        }
        let s = seat as usize;
        match (self.hands.get(s), self.melds.get(s), self.shapes.get(s)) {
            (Some(hand), Some(melds), Some(shape)) => {
                let closed = melds.iter().all(|m| m.kind == MeldKind::ClosedKan);
                let may = if self.rules.is_riichi() {
                    shape.may_win(&self.rules, closed)
                } else {
                    shape.may_win(&self.rules, melds.is_empty())
                };
                may && score_win(&self.rules, hand, melds, true).is_some()
                    && self.drawn.is_none_or(|t| {
                        !self.rules.is_riichi() || self.riichi_win_scores(seat, t, None, false)
                    })
            }
            _ => false,
        }
    }

    /// A kan needs a replacement draw and a live tile to top the dead wall up.
    pub(crate) fn kan_possible(&self) -> bool {
        self.kans < MAX_KANS && self.draw_pos < self.live_end
    }

    pub(crate) fn has_pon(&self, seat: u8, t: Tile) -> bool {
        self.melds
            .get(seat as usize)
            .is_some_and(|ms| ms.iter().any(|m| m.kind == MeldKind::Pon && m.tile == t))
    }

    /// The claims every seat may make on `tile` set out by `from` (discarded, added to
    /// a pon or declared as a kan when `window` robs a kan, set aside as kita), and
    /// whether any seat may claim.
    pub(crate) fn claim_options(
        &self,
        tile: Tile,
        from: u8,
        window: Window,
    ) -> ([ClaimOptions; MAX_PLAYERS], bool) {
        let robbing = window == Window::RobKan;
        let mut opts = [ClaimOptions::default(); MAX_PLAYERS];
        let mut any = false;
        let n = self.rules.players;
        let live = self.draw_pos < self.live_end;
        let ti = tile.index();
        let chi_seat = (self.rules.chi && !tile.is_honor()).then(|| (from + 1) % n);
        let riichi = self.rules.is_riichi();
        // A robbed kan without a pon of the tile is a closed kan: only thirteen orphans
        // may rob it (RiichiRules::kokushi_robs_closed_kan).
        let closed_kan = robbing && !self.has_pon(from, tile);
        for seat in 0..n {
            if seat == from {
                continue;
            }
            let s = seat as usize;
            let (Some(hand), Some(melds), Some(o), Some(shape)) = (
                self.hands.get(s),
                self.melds.get(s),
                opts.get_mut(s),
                self.shapes.get(s),
            ) else {
                continue;
            };
            let c = hand.get(ti).copied().unwrap_or(0);
            // Constant-time pre-check; the full check only for possible wins.
            if shape.may_win_with(ti, c, &self.rules, melds.is_empty()) {
                let mut with: TileCounts = *hand;
                if let Some(c) = with.get_mut(ti) {
                    *c += 1;
                }
                o.ron = score_win(&self.rules, &with, melds, false).is_some()
                    && (!closed_kan || thirteen_orphans(&with));
                if riichi {
                    o.shape = o.ron;
                    o.ron = o.ron
                        && !self.furiten(seat)
                        && self.riichi_win_scores(seat, tile, Some(from), robbing);
                }
                any |= o.ron;
            }
            if window != Window::Discard
                || !live
                || melds.is_full()
                || (riichi && self.in_riichi(seat))
            {
                continue;
            }
            o.pon = c >= 2;
            o.kan = c == 3 && self.kans < MAX_KANS;
            any |= o.pon;
            if chi_seat == Some(seat) {
                let num = tile.number() as usize; // 1..=9
                let has = |i: usize| shape.held & (1u64 << i) != 0;
                // Lowest tile tile-2: needs tile-2, tile-1.
                if num >= 3 && has(ti - 2) && has(ti - 1) {
                    o.chi |= 1;
                }
                if (2..=8).contains(&num) && has(ti - 1) && has(ti + 1) {
                    o.chi |= 2;
                }
                if num <= 7 && has(ti + 1) && has(ti + 2) {
                    o.chi |= 4;
                }
                any |= o.chi != 0;
            }
        }
        (opts, any)
    }
}

/// Whether `counts` (14 tiles) are thirteen orphans: every terminal and honour once,
/// one of them twice, nothing else.
pub(crate) fn thirteen_orphans(counts: &TileCounts) -> bool {
    let mut total = 0u32;
    for (i, &c) in counts.iter().enumerate() {
        let orphan = super::state::ORPHANS >> i & 1 == 1;
        if orphan != (c > 0) || c > 2 {
            return false;
        }
        total += c as u32;
    }
    total == 14
}

/// The lowest tile of chi option `k` (0: tile−2, 1: tile−1, 2: tile) on `tile`.
pub(crate) fn chi_low(tile: Tile, k: u8) -> Option<Tile> {
    let low = (tile.index() + k as usize).checked_sub(2)?;
    let low = Tile::new(low as u8)?;
    // The sequence must stay within one number suit.
    if low.is_honor() || low.number() > 7 || low.suit() != tile.suit() {
        return None;
    }
    Some(low)
}

/// Pushes `make(t)` for every tile type `t` whose bit is set in `mask`, in index order.
fn push_each(out: &mut LegalActions, mut mask: u64, make: fn(Tile) -> Action) {
    while mask != 0 {
        let i = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        if let Some(t) = Tile::new(i) {
            out.push(make(t));
        }
    }
}

/// What a claim window is open on: which claims it allows and how a win on it scores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Window {
    /// A discard: ron, pon, open kan, chi.
    Discard,
    /// The tile of an added kan (or, where thirteen orphans may rob it, a closed kan):
    /// ron only, with the robbing-a-kan yaku (chankan).
    RobKan,
    /// A north set aside as kita: ron only, no chankan.
    Kita,
}

impl Window {
    /// The window of a pending tile.
    pub(crate) const fn of(added_kan: bool, kita: bool) -> Window {
        if kita {
            Window::Kita
        } else if added_kan {
            Window::RobKan
        } else {
            Window::Discard
        }
    }
}
