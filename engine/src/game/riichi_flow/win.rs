//! Riichi settlement: the [`WinInput`] of a win, payments of wins (double ron, honba,
//! riichi sticks), exhaustive draws (tenpai payments, nagashi mangan) and abortive
//! draws. Every payment moves points between seats or from the table's sticks, so
//! `scores + deposits` stays `players × starting points` ([`check_invariants`]).
//!
//! [`check_invariants`]: super::super::check_invariants

use super::super::caps::MAX_PLAYERS;
use super::super::event::{Event, Events, HandEndKind, HandResult};
use super::super::meld::MeldKind;
use super::super::scoring::score_win;
use super::super::state::Game;
use super::super::WinShape;
use super::{DrawKind, RiichiResult, RiichiWin};
use crate::score::{score, Conditions, Meld, Riichi, Score, WinInput, WinMethod, Wind, Yaku};
use crate::tile::Tile;

fn wind(i: u8) -> Wind {
    match i % 4 {
        0 => Wind::East,
        1 => Wind::South,
        2 => Wind::West,
        _ => Wind::North,
    }
}

fn emit(ev: &mut Events, e: Event) {
    // EVENTS_CAP bounds the longest sequence one call can emit; see event.rs.
    let _ = ev.push(e);
}

impl Game {
    /// The seat wind of `seat`: 0 East (the dealer), 1 South, ...
    pub(crate) fn seat_wind(&self, seat: u8) -> u8 {
        let n = self.rules.players.max(1);
        (seat + n - self.dealer % n) % n
    }

    /// Red fives of `seat`'s hand and melds, per suit.
    fn red_fives_of(&self, seat: u8) -> [u8; 3] {
        let s = seat as usize;
        let mut red = self.rh.red_hand.get(s).copied().unwrap_or_default();
        let melds = self.melds.get(s).map_or(0, |m| m.len());
        let per_meld = self.rh.red_melds.get(s).copied().unwrap_or_default();
        for (m, &k) in self.melds(seat).iter().zip(per_meld.iter()).take(melds) {
            if let Some(suit) = (!m.tile.is_honor()).then(|| m.tile.suit().index()) {
                if let Some(r) = red.get_mut(suit) {
                    *r += k;
                }
            }
        }
        red
    }

    /// The scorer's input for `seat` winning on `tile` (tsumo when `from` is `None`);
    /// `with_table`: the honba and riichi sticks are this winner's.
    pub(crate) fn win_input(
        &self,
        seat: u8,
        tile: Tile,
        from: Option<u8>,
        robbing: bool,
        with_table: bool,
    ) -> Option<WinInput> {
        let r = self.rules.riichi?;
        let s = seat as usize;
        let mut concealed = *self.hands.get(s)?;
        if from.is_some() {
            *concealed.get_mut(tile.index())? += 1;
        }
        let mut input = WinInput::new(r.preset, concealed, tile);
        for m in self.melds(seat) {
            let _ = input.melds.push(Meld {
                kind: m.kind,
                tile: m.tile,
            });
        }
        let tsumo = from.is_none();
        input.method = if tsumo {
            WinMethod::Tsumo
        } else {
            WinMethod::Ron
        };
        let declared = self.in_riichi(seat);
        let double = self.rh.double.get(s).copied().unwrap_or(false);
        let live_empty = self.live_wall_remaining() == 0;
        let first = tsumo && self.first_turn(seat);
        input.conditions = Conditions {
            riichi: match (declared, double) {
                (false, _) => Riichi::None,
                (true, false) => Riichi::Riichi,
                (true, true) => Riichi::Double,
            },
            ippatsu: declared && self.rh.ippatsu.get(s).copied().unwrap_or(false),
            haitei: tsumo && live_empty && !self.rh.rinshan,
            houtei: !tsumo && live_empty && !robbing,
            rinshan: tsumo && self.rh.rinshan,
            chankan: robbing,
            tenhou: first && seat == self.dealer,
            chiihou: first && seat != self.dealer,
        };
        input.round_wind = wind(self.table.round);
        input.seat_wind = wind(self.seat_wind(seat));
        input.dora_indicators = self.dora_indicators();
        if declared {
            input.ura_indicators = self.ura_indicators();
        }
        input.red_fives = self.red_fives_of(seat);
        if from.is_some() && self.rh.red_claim {
            let suit = tile.suit().index();
            if let Some(x) = input.red_fives.get_mut(suit) {
                *x += 1;
            }
        }
        input.kita = self.rh.kita.get(s).copied().unwrap_or(0);
        if with_table {
            input.honba = self.table.honba;
            input.riichi_sticks = self.table.sticks;
        }
        Some(input)
    }

    fn empty_result(&self, kind: HandEndKind) -> (HandResult, RiichiResult) {
        let result = HandResult {
            kind,
            winners: [false; 4],
            discarder: None,
            tile: None,
            values: [0; 4],
            deltas: [0; 4],
        };
        let rres = RiichiResult {
            wins: heapless::Vec::new(),
            draw: None,
            tenpai: [false; MAX_PLAYERS],
            nagashi: [false; MAX_PLAYERS],
            deltas: [0; MAX_PLAYERS],
            dora_indicators: self.dora_indicators(),
            ura_indicators: heapless::Vec::new(),
            honba: self.table.honba,
            sticks_taken: 0,
        };
        (result, rres)
    }

    /// Pays the riichi wins of `winners` (in turn order from the discarder) on `tile`.
    pub(crate) fn settle_riichi(
        &mut self,
        winners: &[u8],
        from: Option<u8>,
        tile: Tile,
        ev: &mut Events,
    ) {
        let robbing = from.is_some() && self.claim.robbing;
        let triple = self.rules.riichi.is_some_and(|r| r.abort_triple_ron);
        if from.is_some() && winners.len() >= 3 && triple {
            self.put_down_stick();
            self.abort(DrawKind::TripleRon, ev);
            return;
        }
        // A ron on the riichi discard voids the riichi: no stick.
        self.rh.stick_pending = false;
        let (mut result, mut rres) = self.empty_result(HandEndKind::Win);
        result.discarder = from;
        result.tile = Some(tile);
        let mut ura = false;
        for (k, &w) in winners.iter().enumerate() {
            let wi = w as usize;
            let Some(input) = self.win_input(w, tile, from, robbing, k == 0) else {
                continue;
            };
            // Legality checked that the win scores.
            let Ok(sc) = score(&input) else {
                continue;
            };
            ura |= !input.ura_indicators.is_empty();
            let p = sc.payment;
            let liable = self.pao_liable(w, &sc).filter(|&l| Some(l) != from);
            let d = &mut result.deltas;
            let received = self.pay_win(d, w, from, liable, &sc, input.honba);
            add(d, wi, p.riichi_sticks as i32);
            if k == 0 {
                rres.sticks_taken = self.table.sticks;
            }
            if let (Some(won), Some(v)) = (result.winners.get_mut(wi), result.values.get_mut(wi)) {
                *won = true;
                *v = received;
            }
            let shape = self.win_shape(w, tile, from);
            emit(
                ev,
                Event::Won {
                    seat: w,
                    from,
                    tile,
                    shape,
                    value: received,
                },
            );
            let _ = rres.wins.push(RiichiWin {
                seat: w,
                from,
                tile,
                score: sc,
                pao: liable,
            });
        }
        if !rres.wins.is_empty() {
            self.table.sticks = 0;
        }
        if ura {
            rres.ura_indicators = self.ura_indicators();
        }
        self.finish_riichi(result, rres, ev);
    }

    /// Adds to `d` what `winner`'s win scored `sc` moves (the riichi sticks aside, the
    /// caller adds them) and returns what the winner receives, sticks included: pao
    /// through [`Game::pay_with_pao`], a ron from the discarder, a tsumo from everyone.
    fn pay_win(
        &self,
        d: &mut [i32; 4],
        winner: u8,
        from: Option<u8>,
        liable: Option<u8>,
        sc: &Score,
        honba: u8,
    ) -> i32 {
        let p = sc.payment;
        let wi = winner as usize;
        match (from, liable) {
            (_, Some(l)) => {
                self.pay_with_pao(d, winner, from, l, sc, honba) as i32 + p.riichi_sticks as i32
            }
            (Some(f), None) => {
                add(d, f as usize, -(p.from_discarder as i32));
                add(d, wi, p.from_discarder as i32);
                p.total as i32
            }
            (None, None) => {
                for payer in (0..self.rules.players as usize).filter(|&x| x != wi) {
                    let amount = if payer == self.dealer as usize {
                        p.from_dealer
                    } else {
                        p.from_each_non_dealer
                    } as i32;
                    add(d, payer, -amount);
                    add(d, wi, amount);
                }
                p.total as i32
            }
        }
    }

    /// The shape (regular, seven pairs, thirteen orphans) of `winner`'s hand won on
    /// `tile`.
    fn win_shape(&self, winner: u8, tile: Tile, from: Option<u8>) -> WinShape {
        self.hands
            .get(winner as usize)
            .and_then(|h| {
                let mut c = *h;
                if from.is_some() {
                    *c.get_mut(tile.index())? += 1;
                }
                score_win(&self.rules, &c, self.melds(winner), from.is_none())
            })
            .map_or(WinShape::Regular, |v| v.shape)
    }

    /// Adds to `d` the payments of `winner`'s win scored `sc` when `liable` is liable
    /// by pao, and returns what the winner receives (riichi sticks aside). The liable
    /// part is the whole hand (Tenhou) or only the liable yakuman
    /// ([`RiichiRules::pao_per_yakuman`](crate::RiichiRules::pao_per_yakuman)). That
    /// part is paid as a ron from the liable player (honba as on a ron, see
    /// `score::payment`); on a ron from another player the discarder pays half of it
    /// without the honba, and the rest of the hand as an ordinary ron; on a tsumo the
    /// rest is an ordinary tsumo without honba.
    fn pay_with_pao(
        &self,
        d: &mut [i32; 4],
        winner: u8,
        from: Option<u8>,
        liable: u8,
        sc: &Score,
        honba: u8,
    ) -> u32 {
        let n = self.rules.players as usize;
        let wi = winner as usize;
        let dealer_wins = winner == self.dealer;
        let liable_basic = match self.rules.riichi {
            Some(r) if r.pao_per_yakuman => {
                let double = r.preset.double_yakuman();
                let yaku = if sc.yaku.iter().any(|s| s.yaku == Yaku::Daisangen) {
                    Yaku::Daisangen
                } else {
                    Yaku::Daisuushii
                };
                (8000 * yaku.yakuman_multiplier(double) as u32).min(sc.basic_points)
            }
            _ => sc.basic_points,
        };
        let rest_basic = sc.basic_points - liable_basic;
        let factor = if dealer_wins { 6 } else { 4 };
        let liable_base = (factor * liable_basic).div_ceil(100) * 100;
        let per_honba = if n == 3 { 200 } else { 300 };
        let mut from_liable = liable_base + per_honba * honba as u32;
        let mut received = 0;
        let mut pay = |d: &mut [i32; 4], payer: usize, amount: u32| {
            add(d, payer, -(amount as i32));
            add(d, wi, amount as i32);
            received += amount;
        };
        match from {
            Some(f) => {
                let half = liable_base / 2;
                let rest = (factor * rest_basic).div_ceil(100) * 100;
                pay(d, f as usize, half + rest);
                from_liable -= half;
            }
            None => {
                for payer in (0..n).filter(|&x| x != wi) {
                    let share = if dealer_wins || payer == self.dealer as usize {
                        2 * rest_basic
                    } else {
                        rest_basic
                    };
                    if share > 0 {
                        pay(d, payer, share.div_ceil(100) * 100);
                    }
                }
            }
        }
        pay(d, liable as usize, from_liable);
        received
    }

    /// The player liable for `seat`'s win scored `sc` by pao
    /// ([`RiichiRules::pao`](crate::RiichiRules::pao)): with daisangen (daisuushii)
    /// and all three dragon (four wind) sets melded, the discarder of the last of them
    /// when it was called (pon, open kan or a pon added to later); `None` when the last
    /// one is a closed kan.
    pub(crate) fn pao_liable(&self, seat: u8, sc: &Score) -> Option<u8> {
        if !self.rules.riichi.is_some_and(|r| r.pao) {
            return None;
        }
        let has = |y: Yaku| sc.yaku.iter().any(|s| s.yaku == y);
        let (types, sets) = if has(Yaku::Daisangen) {
            (31..=33, 3)
        } else if has(Yaku::Daisuushii) {
            (27..=30, 4)
        } else {
            return None;
        };
        // Melds are kept in call order (an added kan stays where its pon was).
        let mut count = 0;
        let mut last = None;
        for m in self.melds(seat) {
            if m.kind != MeldKind::Chi && types.contains(&m.tile.as_u8()) {
                count += 1;
                last = Some(*m);
            }
        }
        let last = last.filter(|m| count == sets && m.kind != MeldKind::ClosedKan)?;
        last.from
    }

    /// Applies the deltas, records the riichi result and ends the hand.
    fn finish_riichi(&mut self, result: HandResult, mut rres: RiichiResult, ev: &mut Events) {
        for (s, d) in self.scores.iter_mut().zip(result.deltas) {
            *s = s.wrapping_add(d);
        }
        rres.deltas = result.deltas;
        self.rresult = Some(rres);
        self.end_hand(result, ev);
    }

    /// Puts the riichi stick of the discard whose window closed without a win down.
    pub(crate) fn put_down_stick(&mut self) {
        if !self.rh.stick_pending {
            return;
        }
        self.rh.stick_pending = false;
        let cost = self.rules.riichi.map_or(0, |r| r.riichi_cost);
        if let Some(s) = self.scores.get_mut(self.claim.from as usize) {
            *s = s.wrapping_sub(cost);
        }
        self.table.sticks = self.table.sticks.saturating_add(1);
    }

    /// An abortive draw: nobody pays, the sticks stay on the table.
    pub(crate) fn abort(&mut self, kind: DrawKind, ev: &mut Events) {
        let (result, mut rres) = self.empty_result(HandEndKind::ExhaustiveDraw);
        rres.draw = Some(kind);
        self.finish_riichi(result, rres, ev);
    }

    /// The live wall ran out: nagashi mangan, else tenpai payments.
    pub(crate) fn exhaustive_riichi(&mut self, ev: &mut Events) {
        let Some(r) = self.rules.riichi else {
            return;
        };
        let n = self.rules.players as usize;
        let (mut result, mut rres) = self.empty_result(HandEndKind::ExhaustiveDraw);
        rres.draw = Some(DrawKind::Exhaustive);
        for s in 0..n {
            if let Some(t) = rres.tenpai.get_mut(s) {
                *t = self.seat_waits(s as u8) != 0;
            }
            let row = self.discards(s as u8);
            let nagashi = r.nagashi_mangan
                && !row.is_empty()
                && row
                    .iter()
                    .all(|d| !d.claimed && d.tile.is_terminal_or_honor());
            if let Some(x) = rres.nagashi.get_mut(s) {
                *x = nagashi;
            }
        }
        let d = &mut result.deltas;
        if rres.nagashi.iter().any(|&x| x) {
            // Paid as a mangan tsumo (basic points 2000) without honba; tsumo loss in
            // sanma (riichi.wiki, Nagashi mangan; Tenhou).
            for w in (0..n).filter(|&w| rres.nagashi.get(w).copied().unwrap_or(false)) {
                let dealer_wins = w == self.dealer as usize;
                for payer in (0..n).filter(|&p| p != w) {
                    let amount = if dealer_wins || payer == self.dealer as usize {
                        4000
                    } else {
                        2000
                    };
                    add(d, payer, -amount);
                    add(d, w, amount);
                }
            }
        } else {
            let tenpai = rres.tenpai.iter().take(n).filter(|&&t| t).count() as i32;
            let noten = n as i32 - tenpai;
            if tenpai > 0 && noten > 0 {
                for s in 0..n {
                    let amount = if rres.tenpai.get(s).copied().unwrap_or(false) {
                        r.noten_total / tenpai
                    } else {
                        -(r.noten_total / noten)
                    };
                    add(d, s, amount);
                }
            }
        }
        self.finish_riichi(result, rres, ev);
    }
}

fn add(d: &mut [i32; 4], seat: usize, amount: i32) {
    if let Some(x) = d.get_mut(seat) {
        *x = x.wrapping_add(amount);
    }
}
