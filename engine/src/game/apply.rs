//! Applying actions: turn actions, claim answers, claim resolution, wins and draws.
//!
//! Every fallible check happens in [`Game::check_legal`] before anything changes, so a
//! refused action leaves the game untouched; the mutation code below cannot fail on
//! reachable states (capacity bounds are argued where they are declared).

use super::action::Action;
use super::error::RuleError;
use super::event::{Event, Events, HandEndKind, HandResult};
use super::meld::{Discard, Meld, MeldKind};
use super::scoring::score_win;
use super::state::{Claim, Game, Phase, MAX_PLAYERS};
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
        if self.log.push((seat, action)).is_err() {
            return Err(RuleError::CapacityExceeded);
        }
        match self.phase {
            Phase::Turn => self.apply_turn(seat, action, ev),
            Phase::Claim => self.apply_claim(seat, action, ev),
            // check_legal refused these phases.
            Phase::HandOver | Phase::GameOver => {}
        }
        Ok(())
    }

    fn remove(&mut self, seat: u8, t: Tile, n: u8) {
        self.update_count(seat, t, |c| c.saturating_sub(n));
    }

    fn add_meld(&mut self, seat: u8, meld: Meld, ev: &mut Events) {
        if let Some(ms) = self.melds.get_mut(seat as usize) {
            // A hand of 13 tiles holds at most four melds; check_legal refuses calls
            // into a full meld list.
            let _ = ms.push(meld);
        }
        meld.add_to(&mut self.visible);
        if meld.kind.is_kan() {
            self.kans += 1;
        }
        emit(ev, Event::Called { seat, meld });
    }

    fn apply_turn(&mut self, seat: u8, action: Action, ev: &mut Events) {
        match action {
            Action::Discard(t) => {
                self.remove(seat, t, 1);
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
                self.show(t);
                self.drawn = None;
                self.after_call = false;
                emit(ev, Event::Discarded { seat, tile: t });
                self.open_claim(t, seat, false, ev);
            }
            Action::Tsumo => {
                if let Some(t) = self.drawn {
                    self.settle_win(&[seat], None, t, ev);
                }
            }
            Action::ClosedKan(t) => {
                self.remove(seat, t, 4);
                self.drawn = None;
                self.add_meld(
                    seat,
                    Meld {
                        kind: MeldKind::ClosedKan,
                        tile: t,
                        from: None,
                        claimed: None,
                    },
                    ev,
                );
                self.replacement(seat, ev);
            }
            Action::AddedKan(t) => {
                self.remove(seat, t, 1);
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
        let (options, any) = self.claim_options(tile, from, robbing);
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
        if self.claim.robbing {
            self.complete_added_kan(from, tile, ev);
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
            emit(ev, Event::Called { seat, meld });
        }
        self.replacement(seat, ev);
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

    fn apply_claim(&mut self, seat: u8, action: Action, ev: &mut Events) {
        if let Some(a) = self.claim.answers.get_mut(seat as usize) {
            *a = Some(action);
        }
        let n = self.rules.players;
        if (0..n).any(|s| self.claim.awaits(s as usize)) {
            return;
        }
        // Everyone answered: resolve by priority, ties by turn order from the discarder.
        let from = self.claim.from;
        let tile = self.claim.tile;
        let order = (1..n).map(|k| (from + k) % n);
        let answer = |s: u8| self.claim.answers.get(s as usize).copied().flatten();
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
        if let Some(s) = order
            .clone()
            .find(|&s| matches!(answer(s), Some(Action::Pon | Action::OpenKan)))
        {
            let kan = answer(s) == Some(Action::OpenKan);
            self.mark_claimed(from);
            let (kind, take) = if kan {
                (MeldKind::OpenKan, 3)
            } else {
                (MeldKind::Pon, 2)
            };
            self.remove(s, tile, take);
            self.add_meld(
                s,
                Meld {
                    kind,
                    tile,
                    from: Some(from),
                    claimed: Some(tile),
                },
                ev,
            );
            self.turn = s;
            self.phase = Phase::Turn;
            self.drawn = None;
            if kan {
                self.replacement(s, ev);
            } else {
                self.after_call = true;
            }
            return;
        }
        if let Some((s, low)) = order.clone().find_map(|s| match answer(s) {
            Some(Action::Chi(low)) => Some((s, low)),
            _ => None,
        }) {
            self.mark_claimed(from);
            for i in low.index()..low.index() + 3 {
                if i != tile.index() {
                    if let Some(t) = Tile::new(i as u8) {
                        self.remove(s, t, 1);
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
                ev,
            );
            self.turn = s;
            self.phase = Phase::Turn;
            self.drawn = None;
            self.after_call = true;
            return;
        }
        self.no_claim(ev);
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

    fn end_hand(&mut self, result: HandResult, ev: &mut Events) {
        self.result = Some(result);
        self.drawn = if result.discarder.is_none() && result.kind == HandEndKind::Win {
            self.drawn
        } else {
            None
        };
        emit(ev, Event::HandEnded(result));
        if self.hand_number.saturating_add(1) >= self.rules.hands_per_game {
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
