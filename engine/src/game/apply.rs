//! Applying actions: turn actions, claim answers, claim resolution, wins and draws.
//!
//! Every fallible check happens in [`Game::check_legal`] before anything changes, so a
//! refused action leaves the game untouched; the mutation code below cannot fail on
//! reachable states (capacity bounds are argued where they are declared).

use super::action::Action;
use super::caps::MAX_PLAYERS;
use super::error::RuleError;
use super::event::{Event, Events, HandEndKind, HandResult};
use super::legal::Window;
use super::meld::{Discard, Meld, MeldKind};
use super::riichi_flow::legal::NORTH;
use super::riichi_flow::DrawKind;
use super::scoring::score_win;
use super::state::{Claim, Game, Phase};
use crate::rules::MultipleRon;
use crate::tile::Tile;

fn emit(ev: &mut Events, e: Event) {
    // EVENTS_CAP bounds the longest sequence one call can emit; see event.rs.
    let _ = ev.push(e);
}

impl Game {
    /// Applies `action` by `seat`. An illegal action returns an error and leaves the
    /// game untouched. Draws (including kan replacement draws) follow automatically.
    pub fn apply(&mut self, seat: u8, action: Action) -> Result<Events, RuleError> {
        let mut ev = Events::new();
        self.apply_into(seat, action, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::apply`] appending the events to `ev` (which saves copying them in
    /// self-play loops). On error nothing changes and nothing is appended.
    pub(crate) fn apply_into(
        &mut self,
        seat: u8,
        action: Action,
        ev: &mut Events,
    ) -> Result<(), RuleError> {
        self.check_legal(seat, action)?;
        self.apply_checked(seat, action, false, ev)
    }

    /// Applies an action [`Game::check_legal`] accepted; `red_first`: a red five leaves
    /// the hand before plain ones ([`Game::apply_with_copy`]; `false` is `apply`'s rule).
    pub(crate) fn apply_checked(
        &mut self,
        seat: u8,
        action: Action,
        red_first: bool,
        ev: &mut Events,
    ) -> Result<(), RuleError> {
        if self.log.push((seat, action)).is_err() {
            return Err(RuleError::CapacityExceeded);
        }
        match self.phase {
            Phase::Turn => self.apply_turn(seat, action, red_first, ev),
            Phase::Claim => self.apply_claim(seat, action, red_first, ev),
            // check_legal refused these phases.
            Phase::HandOver | Phase::GameOver => {}
        }
        Ok(())
    }

    /// Adds a meld holding `reds` red fives.
    fn add_meld(&mut self, seat: u8, meld: Meld, reds: u8, ev: &mut Events) {
        let index = self.melds.get(seat as usize).map_or(0, |m| m.len());
        if let Some(ms) = self.melds.get_mut(seat as usize) {
            // A hand of 13 tiles holds at most four melds; check_legal refuses calls
            // into a full meld list.
            let _ = ms.push(meld);
        }
        meld.add_to(&mut self.visible);
        if meld.kind.is_kan() {
            self.kans += 1;
        }
        if self.rules.is_riichi() {
            if let Some(r) = self
                .rh
                .red_melds
                .get_mut(seat as usize)
                .and_then(|m| m.get_mut(index))
            {
                *r = reds;
            }
            self.interrupt();
            if meld.kind.is_kan() {
                self.rh.kan_seats |= 1 << seat;
            }
        }
        emit(ev, Event::Called { seat, meld });
    }

    /// A call, kan or kita: ippatsu ends for everyone, the first go-around is over.
    fn interrupt(&mut self) {
        self.rh.calls = true;
        self.rh.ippatsu = [false; MAX_PLAYERS];
    }

    /// Riichi bookkeeping of `seat`'s discard of `t` (`red`: a red five), before its
    /// claim window opens; `riichi`: the discard declares riichi (`first`: on the
    /// seat's first uninterrupted turn, a double riichi).
    fn riichi_discard(&mut self, seat: u8, t: Tile, red: bool, riichi: bool, first: bool) {
        let s = seat as usize;
        // Open and added kans reveal their dora after their declarer's discard.
        self.flush_pending_dora();
        let index = self
            .discards
            .get(s)
            .map_or(0, |d| d.len().saturating_sub(1));
        if let Some(d) = self.rh.discarded.get_mut(s) {
            *d |= 1u64 << t.index();
        }
        if let (true, Some(r)) = (red, self.rh.red_discards.get_mut(s)) {
            *r |= 1u64 << index;
        }
        self.rh.red_claim = red;
        if let Some(f) = self.rh.furiten_temp.get_mut(s) {
            *f = false;
        }
        if let Some(i) = self.rh.ippatsu.get_mut(s) {
            *i = riichi;
        }
        if riichi {
            if let (Some(d), Some(dbl)) = (self.rh.declared.get_mut(s), self.rh.double.get_mut(s)) {
                *d = Some(index as u8);
                *dbl = first;
            }
            self.rh.stick_pending = true;
        }
    }

    fn apply_turn(&mut self, seat: u8, action: Action, red_first: bool, ev: &mut Events) {
        match action {
            Action::Discard(t) | Action::Riichi(t) => {
                let first = self.rules.is_riichi() && self.first_turn(seat);
                let red = self.take_tiles_as(seat, t, 1, red_first) > 0;
                let seq = self
                    .discards
                    .iter()
                    .map(|d| d.len())
                    .sum::<usize>()
                    .min(255) as u8;
                let tsumogiri = self.drawn == Some(t);
                if let Some(d) = self.discards.get_mut(seat as usize) {
                    let _ = d.push(Discard {
                        tile: t,
                        claimed: false,
                        seq,
                        tsumogiri,
                    });
                }
                if self.rules.is_riichi() {
                    let riichi = matches!(action, Action::Riichi(_));
                    self.riichi_discard(seat, t, red, riichi, first);
                }
                self.show(t);
                self.drawn = None;
                self.after_call = false;
                emit(ev, Event::Discarded { seat, tile: t });
                self.open_claim(t, seat, false, ev);
            }
            Action::Kita => {
                self.drawn = None;
                if let Some(north) = Tile::new(NORTH) {
                    self.take_tiles(seat, north, 1);
                    if let Some(k) = self.rh.kita.get_mut(seat as usize) {
                        *k += 1;
                    }
                    self.show(north);
                    // Another seat may ron the north (Tenhou and Mahjong Soul; no
                    // chankan). Ippatsu holds until the window closes unanswered.
                    let (options, any) = self.claim_options(north, seat, Window::Kita);
                    if any {
                        self.rh.calls = true;
                        self.rh.red_claim = false;
                        self.claim = Claim {
                            tile: north,
                            from: seat,
                            robbing: false,
                            kita: true,
                            options,
                            answers: [None; MAX_PLAYERS],
                        };
                        self.turn = seat;
                        self.phase = Phase::Claim;
                        return;
                    }
                }
                self.interrupt();
                self.replacement(seat, ev);
            }
            Action::NineTerminals => self.abort(DrawKind::NineTerminals, ev),
            Action::Tsumo => {
                if let Some(t) = self.drawn {
                    self.settle_win(&[seat], None, t, ev);
                }
            }
            Action::ClosedKan(t) => {
                let robbable = self.rules.riichi.is_some_and(|r| r.kokushi_robs_closed_kan)
                    && self.claim_options(t, seat, Window::RobKan).1;
                self.drawn = None;
                if robbable {
                    // The window holds one of the four tiles (never a red five: an
                    // orphan), the other three stay in the hand until the kan is made.
                    self.rh.red_claim = self.take_tiles(seat, t, 1) > 0;
                    emit(ev, Event::KanDeclared { seat, tile: t });
                    self.open_claim(t, seat, true, ev);
                } else {
                    self.complete_closed_kan(seat, t, ev);
                }
            }
            Action::AddedKan(t) => {
                self.rh.red_claim = self.take_tiles(seat, t, 1) > 0;
                self.drawn = None;
                if self.rules.rob_kan {
                    emit(ev, Event::KanDeclared { seat, tile: t });
                    self.open_claim(t, seat, true, ev);
                } else {
                    self.complete_added_kan(seat, t, ev);
                }
            }
            _ => {}
        }
    }

    /// Opens a claim window on `tile`, or moves on when nobody can claim it.
    fn open_claim(&mut self, tile: Tile, from: u8, robbing: bool, ev: &mut Events) {
        let window = if robbing {
            Window::RobKan
        } else {
            Window::Discard
        };
        let (options, any) = self.claim_options(tile, from, window);
        debug_assert_eq!(any, options.iter().any(|o| o.any()));
        // A robbable added-kan tile is in the open while its window is open.
        if self.claim.robbing {
            self.unshow(self.claim.tile);
        }
        if robbing {
            self.show(tile);
        }
        self.claim = Claim {
            tile,
            from,
            robbing,
            kita: false,
            options,
            answers: [None; MAX_PLAYERS],
        };
        self.turn = from;
        if any {
            self.phase = Phase::Claim;
        } else {
            self.no_claim(ev);
        }
    }

    /// Nobody claimed: an added kan completes; after a discard the next seat draws, or
    /// the hand ends in an exhaustive draw when the live wall is empty.
    fn no_claim(&mut self, ev: &mut Events) {
        let (tile, from) = (self.claim.tile, self.claim.from);
        let riichi = self.rules.is_riichi();
        if riichi {
            self.mark_missed_wins(0);
        }
        // A kita nobody won on: the declarer draws its replacement tile.
        if self.claim.kita {
            self.claim.kita = false;
            self.interrupt();
            self.phase = Phase::Turn;
            self.turn = from;
            self.replacement(from, ev);
            return;
        }
        if self.claim.robbing {
            if self.has_pon(from, tile) {
                self.complete_added_kan(from, tile, ev);
            } else {
                self.complete_closed_kan(from, tile, ev);
            }
            return;
        }
        if riichi && self.discard_passed(ev) {
            return;
        }
        let next = (from + 1) % self.rules.players;
        match self.draw_live(next) {
            Some(t) => emit(
                ev,
                Event::Drew {
                    seat: next,
                    tile: t,
                    replacement: false,
                },
            ),
            None if riichi => self.exhaustive_riichi(ev),
            None => {
                let result = HandResult {
                    kind: HandEndKind::ExhaustiveDraw,
                    winners: [false; 4],
                    discarder: None,
                    tile: None,
                    values: [0; 4],
                    deltas: [0; 4],
                };
                self.end_hand(result, ev);
            }
        }
    }

    /// Makes `seat`'s closed kan of `t`; after a robbing window nobody took, the tile of
    /// the window goes back to the hand first.
    fn complete_closed_kan(&mut self, seat: u8, t: Tile, ev: &mut Events) {
        if self.claim.robbing {
            self.unshow(self.claim.tile);
            self.claim.robbing = false;
            self.update_count(seat, t, |c| c + 1);
            if self.rh.red_claim {
                self.add_red(seat, t);
            }
            self.rh.red_claim = false;
        }
        let reds = self.take_tiles(seat, t, 4);
        self.add_meld(
            seat,
            Meld {
                kind: MeldKind::ClosedKan,
                tile: t,
                from: None,
                claimed: None,
            },
            reds,
            ev,
        );
        if self.rules.is_riichi() {
            // A closed kan reveals its dora at once (after any pending one).
            self.flush_pending_dora();
            self.reveal_dora();
        }
        self.replacement(seat, ev);
    }

    fn complete_added_kan(&mut self, seat: u8, t: Tile, ev: &mut Events) {
        // The tile leaves the robbing window for the meld (invariants count it there).
        if self.claim.robbing {
            self.unshow(self.claim.tile);
        }
        self.claim.robbing = false;
        let mut made = None;
        if let Some(ms) = self.melds.get_mut(seat as usize) {
            if let Some(m) = ms
                .iter_mut()
                .find(|m| m.kind == MeldKind::Pon && m.tile == t)
            {
                m.kind = MeldKind::AddedKan;
                made = Some(*m);
            }
        }
        if let Some(meld) = made {
            self.show(t);
            self.kans += 1;
            if self.rules.is_riichi() {
                let s = seat as usize;
                let index = self
                    .melds(seat)
                    .iter()
                    .position(|m| m.kind == MeldKind::AddedKan && m.tile == t);
                if let Some(r) =
                    index.and_then(|i| self.rh.red_melds.get_mut(s).and_then(|m| m.get_mut(i)))
                {
                    *r += self.rh.red_claim as u8;
                }
                self.rh.red_claim = false;
                self.rh.kan_seats |= 1 << seat;
                self.rh.dora_pending += 1;
                self.interrupt();
            }
            emit(ev, Event::Called { seat, meld });
        }
        self.replacement(seat, ev);
    }

    /// The window of a discard closed without a win: the riichi stick goes down, and
    /// four riichi, four winds or four kans abort the hand (returns `true` then).
    fn discard_passed(&mut self, ev: &mut Events) -> bool {
        let Some(r) = self.rules.riichi else {
            return false;
        };
        self.put_down_stick();
        let n = self.rules.players as usize;
        let four = n == 4;
        if four && r.abort_four_riichi && self.rh.declared.iter().all(|d| d.is_some()) {
            self.abort(DrawKind::FourRiichi, ev);
            return true;
        }
        let first = self
            .discards
            .first()
            .and_then(|d| d.first())
            .map(|d| d.tile);
        let four_winds = four
            && r.abort_four_winds
            && !self.rh.calls
            && first.is_some_and(|t| t.is_honor() && t.index() <= NORTH as usize)
            && self
                .discards
                .iter()
                .all(|d| d.len() == 1 && d.first().map(|x| x.tile) == first);
        if four_winds {
            self.abort(DrawKind::FourWinds, ev);
            return true;
        }
        if r.abort_four_kans && self.kans >= 4 && self.rh.kan_seats.count_ones() >= 2 {
            self.abort(DrawKind::FourKans, ev);
            return true;
        }
        false
    }

    fn replacement(&mut self, seat: u8, ev: &mut Events) {
        if let Some(t) = self.draw_replacement(seat) {
            emit(
                ev,
                Event::Drew {
                    seat,
                    tile: t,
                    replacement: true,
                },
            );
        }
    }

    fn apply_claim(&mut self, seat: u8, action: Action, red_first: bool, ev: &mut Events) {
        if let Some(a) = self.claim.answers.get_mut(seat as usize) {
            *a = Some(action);
        }
        // Every answer sets its seat's flag, so the resolution reads this window's.
        if let Some(r) = self.rh.claim_red.get_mut(seat as usize) {
            *r = red_first;
        }
        let n = self.rules.players;
        if (0..n).any(|s| self.claim.awaits(s as usize)) {
            return;
        }
        // Everyone answered: resolve by priority, ties by turn order from the discarder.
        let from = self.claim.from;
        let tile = self.claim.tile;
        let order = (1..n).map(|k| (from + k) % n);
        let answers = self.claim.answers;
        let answer = |s: u8| answers.get(s as usize).copied().flatten();
        let mut winners: heapless::Vec<u8, 4> = heapless::Vec::new();
        for s in order.clone() {
            if answer(s) == Some(Action::Ron) {
                let _ = winners.push(s);
            }
        }
        if !winners.is_empty() {
            if self.rules.multiple_ron == MultipleRon::FirstInTurnOrder {
                winners.truncate(1);
            }
            self.settle_win(&winners, Some(from), tile, ev);
            return;
        }
        if self.rules.is_riichi() {
            self.mark_missed_wins(0);
            if !self.claim.robbing && !self.claim.kita && self.discard_passed(ev) {
                return;
            }
        }
        if let Some(s) = order
            .clone()
            .find(|&s| matches!(answer(s), Some(Action::Pon | Action::OpenKan)))
        {
            self.claim_pon(s, from, tile, answer(s) == Some(Action::OpenKan), ev);
            return;
        }
        if let Some((s, low)) = order.clone().find_map(|s| match answer(s) {
            Some(Action::Chi(low)) => Some((s, low)),
            _ => None,
        }) {
            self.claim_chi(s, from, tile, low, ev);
            return;
        }
        self.no_claim(ev);
    }

    /// Seat `s` pons (or, with `kan`, open-kans) `tile` discarded by `from`.
    fn claim_pon(&mut self, s: u8, from: u8, tile: Tile, kan: bool, ev: &mut Events) {
        self.mark_claimed(from);
        let (kind, take) = if kan {
            (MeldKind::OpenKan, 3)
        } else {
            (MeldKind::Pon, 2)
        };
        let red_first = self.rh.claim_red.get(s as usize).copied().unwrap_or(false);
        let reds = self.take_tiles_as(s, tile, take, red_first) + self.rh.red_claim as u8;
        if kan {
            self.rh.dora_pending += 1;
        }
        self.add_meld(
            s,
            Meld {
                kind,
                tile,
                from: Some(from),
                claimed: Some(tile),
            },
            reds,
            ev,
        );
        self.on_turn_after_claim(s);
        if kan {
            self.after_call = false;
            self.replacement(s, ev);
        }
    }

    /// Seat `s` chis `tile` discarded by `from` into the sequence starting at `low`.
    fn claim_chi(&mut self, s: u8, from: u8, tile: Tile, low: Tile, ev: &mut Events) {
        self.mark_claimed(from);
        let mut reds = self.rh.red_claim as u8;
        let red_first = self.rh.claim_red.get(s as usize).copied().unwrap_or(false);
        for i in low.index()..low.index() + 3 {
            if i != tile.index() {
                if let Some(t) = Tile::new(i as u8) {
                    reds += self.take_tiles_as(s, t, 1, red_first);
                }
            }
        }
        self.add_meld(
            s,
            Meld {
                kind: MeldKind::Chi,
                tile: low,
                from: Some(from),
                claimed: Some(tile),
            },
            reds,
            ev,
        );
        self.on_turn_after_claim(s);
    }

    /// Seat `s`, having claimed a discard, is on turn without a drawn tile (a kan then
    /// draws its replacement; pon and chi discard next).
    fn on_turn_after_claim(&mut self, s: u8) {
        self.turn = s;
        self.phase = Phase::Turn;
        self.drawn = None;
        self.after_call = true;
    }

    fn mark_claimed(&mut self, from: u8) {
        let mut taken = None;
        if let Some(d) = self
            .discards
            .get_mut(from as usize)
            .and_then(|d| d.last_mut())
        {
            if !d.claimed {
                taken = Some(d.tile);
            }
            d.claimed = true;
        }
        // The tile moves from the discards into the meld (which `add_meld` shows).
        if let Some(t) = taken {
            self.unshow(t);
        }
    }

    /// Scores and pays the win of `winners` on `tile` (ron from `from`, or tsumo).
    fn settle_win(&mut self, winners: &[u8], from: Option<u8>, tile: Tile, ev: &mut Events) {
        if self.rules.is_riichi() {
            self.settle_riichi(winners, from, tile, ev);
            return;
        }
        let n = self.rules.players as usize;
        let mut result = HandResult {
            kind: HandEndKind::Win,
            winners: [false; 4],
            discarder: from,
            tile: Some(tile),
            values: [0; 4],
            deltas: [0; 4],
        };
        for &w in winners {
            let wi = w as usize;
            let (Some(hand), Some(melds)) = (self.hands.get(wi), self.melds.get(wi)) else {
                continue;
            };
            let mut closed = *hand;
            if from.is_some() {
                if let Some(c) = closed.get_mut(tile.index()) {
                    *c += 1;
                }
            }
            let Some(win) = score_win(&self.rules, &closed, melds, from.is_none()) else {
                continue;
            };
            if let (Some(won), Some(value)) =
                (result.winners.get_mut(wi), result.values.get_mut(wi))
            {
                *won = true;
                *value = win.value;
            }
            // Wrapping arithmetic: absurd score tables must not panic; payments still
            // cancel out exactly (modulo 2^32).
            let deltas = &mut result.deltas;
            match from {
                Some(f) => {
                    if let Some(d) = deltas.get_mut(wi) {
                        *d = d.wrapping_add(win.value);
                    }
                    if let Some(d) = deltas.get_mut(f as usize) {
                        *d = d.wrapping_sub(win.value);
                    }
                }
                None => {
                    for p in (0..n).filter(|&p| p != wi) {
                        if let Some(d) = deltas.get_mut(p) {
                            *d = d.wrapping_sub(win.value);
                        }
                        if let Some(d) = deltas.get_mut(wi) {
                            *d = d.wrapping_add(win.value);
                        }
                    }
                }
            }
            emit(
                ev,
                Event::Won {
                    seat: w,
                    from,
                    tile,
                    shape: win.shape,
                    value: win.value,
                },
            );
        }
        for (s, d) in self.scores.iter_mut().zip(result.deltas) {
            *s = s.wrapping_add(d);
        }
        self.end_hand(result, ev);
    }

    pub(crate) fn end_hand(&mut self, result: HandResult, ev: &mut Events) {
        self.result = Some(result);
        self.drawn = if result.discarder.is_none() && result.kind == HandEndKind::Win {
            self.drawn
        } else {
            None
        };
        emit(ev, Event::HandEnded(result));
        let over = if self.rules.is_riichi() {
            self.riichi_after_hand()
        } else {
            self.hand_number.saturating_add(1) >= self.rules.hands_per_game
        };
        if over {
            self.phase = Phase::GameOver;
            emit(
                ev,
                Event::GameEnded {
                    scores: self.scores,
                },
            );
        } else {
            self.phase = Phase::HandOver;
        }
    }
}
