//! What one seat may know: [`Observation`], built in O(tiles) without hidden
//! information (other hands and the wall order are never exposed).

use serde::{Deserialize, Serialize};

use super::caps::{DISCARD_CAP, MAX_PLAYERS};
use super::error::RuleError;
use super::meld::{Discard, Meld};
use super::riichi_flow::{RiichiResult, RiichiView};
use super::state::{Game, Phase};
use crate::rules::Rules;
use crate::tile::{Tile, TileCounts};

/// A tile others may claim right now.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PendingClaim {
    /// The claimable tile.
    pub tile: Tile,
    /// Who discarded it (or added it to a pon).
    pub from: u8,
    /// Whether it is the tile of a kan being robbed (only ron may claim it): of an added
    /// kan, or of a closed kan when a thirteen-orphans hand may rob it
    /// ([`RiichiRules::kokushi_robs_closed_kan`](crate::RiichiRules::kokushi_robs_closed_kan);
    /// then `from` holds no pon of `tile`, and the other three tiles stay in its hand
    /// until the kan is made).
    pub added_kan: bool,
    /// Whether it is a north `from` just set aside as kita (three-player riichi): only
    /// ron may claim it, without the robbing-a-kan yaku; Tenhou and Mahjong Soul both
    /// allow it. The tile is in `from`'s kita count, not in its discards.
    #[serde(default)]
    pub kita: bool,
}

impl PendingClaim {
    /// Whether the tile is a discard (the last of `from`'s row), not the tile of a kan
    /// being robbed or a kita.
    pub const fn is_discard(&self) -> bool {
        !self.added_kan && !self.kita
    }
}

/// The view of one seat. Seats are absolute (0-based); `seat` is the observer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Observation {
    /// The rules of the game.
    pub rules: Rules,
    /// The observing seat.
    pub seat: u8,
    /// The dealer of this hand.
    pub dealer: u8,
    /// The hand number, from 0.
    pub hand_number: u16,
    /// What the game waits for.
    pub phase: Phase,
    /// The seat on turn (during a claim window: the discarder).
    pub turn: u8,
    /// The observer's closed hand, including a just-drawn tile.
    pub hand: TileCounts,
    /// The tile the observer just drew, when on turn after a draw.
    pub drawn: Option<Tile>,
    /// Every seat's melds in order.
    pub melds: [heapless::Vec<Meld, 4>; MAX_PLAYERS],
    /// Every seat's discards in order, claimed ones marked.
    pub discards: [heapless::Vec<Discard, DISCARD_CAP>; MAX_PLAYERS],
    /// Tiles the observer cannot see: four of each type of the set, minus the own hand,
    /// all melds (closed kans included), unclaimed discards and a pending added-kan
    /// tile; 0 for types outside the set.
    pub unseen: TileCounts,
    /// Tiles left in the live wall.
    pub live_wall: u8,
    /// Kans declared this hand, all players.
    pub kans: u8,
    /// Scores by seat.
    pub scores: [i32; 4],
    /// The claimable tile while a claim window is open.
    pub pending: Option<PendingClaim>,
    /// The public riichi state (riichi rules only): riichi declarations, kita, dora
    /// indicators, honba, sticks, winds, red fives, the own furiten and, once the hand
    /// is over, its result. Unseen counts already exclude revealed indicators and kita.
    pub riichi: Option<RiichiView>,
}

impl Game {
    /// The observation of `seat`.
    pub fn observation(&self, seat: u8) -> Result<Observation, RuleError> {
        if seat >= self.rules.players {
            return Err(RuleError::BadSeat);
        }
        let s = seat as usize;
        let hand = self.hands.get(s).copied().ok_or(RuleError::BadSeat)?;
        Ok(Observation {
            rules: self.rules,
            seat,
            dealer: self.dealer,
            hand_number: self.hand_number,
            phase: self.phase,
            turn: self.turn,
            hand,
            drawn: self.observed_drawn(seat),
            melds: self.melds.clone(),
            discards: self.discards.clone(),
            unseen: self.unseen(&hand),
            live_wall: self.live_wall_remaining(),
            kans: self.kans,
            scores: self.scores,
            pending: self.pending(),
            riichi: self.riichi_view(seat),
        })
    }

    /// The riichi result of the hand once it is over (riichi rules): wins with yaku,
    /// han, fu, limit and payment, or the kind of draw with tenpai and nagashi.
    pub fn riichi_result(&self) -> Option<&RiichiResult> {
        self.rresult.as_ref()
    }

    /// The public riichi state `seat` sees.
    fn riichi_view(&self, seat: u8) -> Option<RiichiView> {
        if !self.rules.is_riichi() {
            return None;
        }
        // Furiten is about the waiting hand: not computed for the seat holding a drawn
        // tile.
        let on_turn = self.phase == super::state::Phase::Turn && self.turn == seat;
        Some(RiichiView {
            declared: self.rh.declared,
            kita: self.rh.kita,
            dora_indicators: self.dora_indicators(),
            honba: self.table.honba,
            riichi_sticks: self.table.sticks,
            round_wind: self.table.round,
            seat_wind: self.seat_wind(seat),
            red_hand: self.red_fives_in_hand(seat),
            red_melds: self.rh.red_melds,
            red_discards: self.rh.red_discards,
            furiten: !on_turn && self.furiten(seat),
            double: self.rh.double,
            ippatsu: self.rh.ippatsu,
            rinshan: self.phase == super::state::Phase::Turn && self.rh.rinshan,
            result: self.rresult.clone(),
        })
    }

    /// Overwrites `out` with the observation of `seat`: the same value as
    /// [`Game::observation`], but reusing `out`'s buffers, which makes it cheaper when
    /// `out` holds an earlier observation of the same hand (only new melds and discards
    /// are copied). On error `out` is left unchanged.
    pub fn observation_into(&self, seat: u8, out: &mut Observation) -> Result<(), RuleError> {
        if seat >= self.rules.players {
            return Err(RuleError::BadSeat);
        }
        let s = seat as usize;
        let hand = self.hands.get(s).copied().ok_or(RuleError::BadSeat)?;
        out.rules = self.rules;
        out.seat = seat;
        out.dealer = self.dealer;
        out.hand_number = self.hand_number;
        out.phase = self.phase;
        out.turn = self.turn;
        out.hand = hand;
        out.drawn = self.observed_drawn(seat);
        for (dst, src) in out.melds.iter_mut().zip(&self.melds) {
            sync(dst, src);
        }
        for (dst, src) in out.discards.iter_mut().zip(&self.discards) {
            sync(dst, src);
        }
        out.unseen = self.unseen(&hand);
        out.live_wall = self.live_wall_remaining();
        out.kans = self.kans;
        out.scores = self.scores;
        out.pending = self.pending();
        out.riichi = self.riichi_view(seat);
        Ok(())
    }

    /// [`Game::observation_into`] for an `out` that holds an observation (of any seat)
    /// taken earlier in the current hand of this game, with only actions applied since:
    /// discards then only grew and only the last one of a row can have been claimed
    /// since, so older discards are not copied again.
    pub(crate) fn observation_next(
        &self,
        seat: u8,
        out: &mut Observation,
    ) -> Result<(), RuleError> {
        if seat >= self.rules.players {
            return Err(RuleError::BadSeat);
        }
        let s = seat as usize;
        let hand = self.hands.get(s).copied().ok_or(RuleError::BadSeat)?;
        out.seat = seat;
        out.phase = self.phase;
        out.turn = self.turn;
        out.hand = hand;
        out.drawn = self.observed_drawn(seat);
        for (dst, src) in out.melds.iter_mut().zip(&self.melds) {
            // An earlier pon may have become an added kan: copy all (at most four).
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
            extend(dst, src);
        }
        for (dst, src) in out.discards.iter_mut().zip(&self.discards) {
            // Only the last old discard may have been claimed since.
            let k = dst.len();
            if let (Some(d), Some(s)) = (dst.last_mut(), src.get(k.wrapping_sub(1))) {
                *d = *s;
            }
            extend(dst, src);
        }
        out.unseen = self.unseen(&hand);
        out.live_wall = self.live_wall_remaining();
        out.kans = self.kans;
        out.scores = self.scores;
        out.pending = self.pending();
        if self.rules.is_riichi() {
            out.riichi = self.riichi_view(seat);
        }
        debug_assert!(self.observation(seat).is_ok_and(|o| o == *out));
        Ok(())
    }

    fn observed_drawn(&self, seat: u8) -> Option<Tile> {
        if self.phase == Phase::Turn && self.turn == seat {
            self.drawn
        } else {
            None
        }
    }

    fn pending(&self) -> Option<PendingClaim> {
        (self.phase == Phase::Claim).then_some(PendingClaim {
            tile: self.claim.tile,
            from: self.claim.from,
            added_kan: self.claim.robbing,
            kita: self.claim.kita,
        })
    }

    /// Four of each type of the set minus `hand`, all melds, unclaimed discards and a
    /// pending added-kan tile (the last three kept up to date in `visible`).
    fn unseen(&self, hand: &TileCounts) -> TileCounts {
        let mut unseen = self.rules.tile_set.full_counts();
        for ((u, &h), &v) in unseen.iter_mut().zip(hand).zip(&self.visible) {
            *u = u.saturating_sub(h).saturating_sub(v);
        }
        unseen
    }
}

/// Pushes the elements of `src` beyond the length of `dst` (a prefix of it).
fn extend<T: Copy, const N: usize>(dst: &mut heapless::Vec<T, N>, src: &heapless::Vec<T, N>) {
    for &x in src.get(dst.len()..).unwrap_or(&[]) {
        // Cannot fail: both have capacity N.
        let _ = dst.push(x);
    }
}

/// Makes `dst` equal to `src`: a plain copy of the common prefix, then pushes of the
/// remainder (cheap when `dst` is an earlier state of the same append-only list).
fn sync<T: Copy, const N: usize>(dst: &mut heapless::Vec<T, N>, src: &heapless::Vec<T, N>) {
    dst.truncate(src.len());
    if let Some(d) = dst.get_mut(..) {
        d.copy_from_slice(src.get(..d.len()).unwrap_or(&[]));
    }
    extend(dst, src);
}
