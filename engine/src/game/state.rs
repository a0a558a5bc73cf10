//! The [`Game`] struct: flat state, constructors, dealing and accessors.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::caps::{DISCARD_CAP, LOG_CAP, MAX_PLAYERS, MAX_WALL};
use super::error::RuleError;
use super::event::HandResult;
use super::meld::{Discard, Meld};
use super::riichi_flow::{RiichiHand, RiichiResult, Table};
use crate::notation::parse_each;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::tile::{Tile, TileCounts, NUM_TILE_TYPES};

/// What the game is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Phase {
    /// The seat on turn decides (discard, tsumo, kan).
    Turn,
    /// Seats with a legal claim on the pending tile answer.
    Claim,
    /// The hand ended; waiting for [`Game::start_next_hand`].
    HandOver,
    /// The last hand ended.
    GameOver,
}

/// What one seat may claim in an open claim window.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct ClaimOptions {
    pub ron: bool,
    pub pon: bool,
    pub kan: bool,
    /// Bit `k` set: chi with lowest tile `tile − 2 + k` is legal.
    pub chi: u8,
    /// The tile completes the seat's hand in shape (riichi rules: a seat that does not
    /// win on it becomes furiten). Not a claim of its own.
    pub shape: bool,
}

impl ClaimOptions {
    pub(crate) const fn any(&self) -> bool {
        self.ron || self.pon || self.kan || self.chi != 0
    }
}

/// An open claim window.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Claim {
    /// The claimable tile.
    pub tile: Tile,
    /// Who discarded it (or added it to a pon).
    pub from: u8,
    /// True when the tile is an added-kan tile (only ron is possible).
    pub robbing: bool,
    /// True when the tile is a north just set aside as kita (only ron is possible, and
    /// it is not robbing a kan: no chankan).
    pub kita: bool,
    pub options: [ClaimOptions; MAX_PLAYERS],
    pub answers: [Option<Action>; MAX_PLAYERS],
}

impl Claim {
    pub(crate) const fn empty() -> Claim {
        Claim {
            tile: Tile::EAST,
            from: 0,
            robbing: false,
            kita: false,
            options: [ClaimOptions {
                ron: false,
                pon: false,
                kan: false,
                chi: 0,
                shape: false,
            }; MAX_PLAYERS],
            answers: [None; MAX_PLAYERS],
        }
    }

    /// Whether `seat` still has to answer.
    pub(crate) fn awaits(&self, seat: usize) -> bool {
        self.options.get(seat).is_some_and(|o| o.any())
            && self.answers.get(seat).is_some_and(|a| a.is_none())
    }
}

/// Tile types 1 and 9 of each number suit and the honours (bit `i` = tile index `i`).
pub(crate) const ORPHANS: u64 = 0x3_fc06_0301;

/// `MOD3[s] == s % 3`.
const MOD3: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i % 3) as u8;
        i += 1;
    }
    t
};

/// Summary of one closed hand, kept up to date with every change of its counts, for
/// constant-time legality pre-checks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct HandShape {
    /// Bit `i`: the hand holds tile type `i`.
    pub held: u64,
    /// Bit `i`: the hand holds an odd number of tile type `i`.
    pub odd: u64,
    /// Bit `i`: the hand holds all four of tile type `i`.
    pub four: u64,
    /// Tiles per suit (man, pin, sou, honours), modulo 256.
    pub sums: [u8; 4],
}

impl HandShape {
    /// The shape of `counts`, from scratch.
    pub(crate) fn of(counts: &TileCounts) -> HandShape {
        let mut shape = HandShape::default();
        for (i, &c) in counts.iter().enumerate() {
            shape.held |= ((c > 0) as u64) << i;
            shape.odd |= ((c & 1) as u64) << i;
            shape.four |= ((c == 4) as u64) << i;
            if let Some(s) = shape.sums.get_mut((i / 9).min(3)) {
                *s = s.wrapping_add(c);
            }
        }
        shape
    }

    /// Tile type `i` went from `old` to `new` copies.
    pub(crate) fn count_changed(&mut self, i: usize, old: u8, new: u8) {
        let bit = 1u64 << i;
        self.held = (self.held & !bit) | (((new > 0) as u64) << i);
        self.odd = (self.odd & !bit) | (((new & 1) as u64) << i);
        self.four = (self.four & !bit) | (((new == 4) as u64) << i);
        if let Some(s) = self.sums.get_mut((i / 9).min(3)) {
            *s = s.wrapping_sub(old).wrapping_add(new);
        }
    }

    /// [`HandShape::may_win`] of the hand with one more tile of type `i`, of which it
    /// holds `old` (a claimable tile).
    pub(crate) fn may_win_with(&self, i: usize, old: u8, rules: &Rules, closed: bool) -> bool {
        let bit = 1u64 << i;
        let new = old.wrapping_add(1);
        let mut sums = self.sums;
        if let Some(s) = sums.get_mut((i / 9).min(3)) {
            *s = s.wrapping_add(1);
        }
        // `four` does not enter may_win.
        HandShape {
            held: (self.held & !bit) | (((new > 0) as u64) << i),
            odd: self.odd ^ bit,
            four: self.four,
            sums,
        }
        .may_win(rules, closed)
    }

    /// Whether the hand may be a win: `false` only when it is certainly not (no
    /// regular shape by suit totals, no seven pairs, no thirteen orphans); `closed`
    /// when the seat has no melds.
    pub(crate) fn may_win(&self, rules: &Rules, closed: bool) -> bool {
        // Regular: one suit total ≡ 2 (mod 3), all others ≡ 0. Two bits per suit hold
        // its residue, so exactly one residue 2 and three 0s is a single high bit.
        let [a, b, c, d] = self.sums.map(|s| MOD3[s as usize]);
        let residues = a | b << 2 | c << 4 | d << 6;
        let regular = residues & residues.wrapping_sub(1) == 0 && residues & 0xaa != 0;
        regular
            || (closed && rules.seven_pairs && self.odd == 0)
            || (closed && rules.thirteen_orphans && self.held & !ORPHANS == 0)
    }
}

/// A game of mahjong: the whole state, flat and copyable, with no hidden randomness
/// beyond the seed (two games with equal rules, seed and actions are equal).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    pub(crate) rules: Rules,
    pub(crate) seed: u64,
    pub(crate) hand_number: u16,
    pub(crate) dealer: u8,
    pub(crate) scores: [i32; MAX_PLAYERS],
    pub(crate) start_scores: [i32; MAX_PLAYERS],
    /// The wall of this hand: deal, live wall, dead wall (`wall_len` tiles used).
    pub(crate) wall: [Tile; MAX_WALL],
    pub(crate) wall_len: u8,
    /// Next live-wall tile to draw.
    pub(crate) draw_pos: u8,
    /// End of the live wall (exclusive) = start of the dead wall.
    pub(crate) live_end: u8,
    /// End of the dead wall (exclusive); replacement draws take `wall[dead_end − 1]`.
    pub(crate) dead_end: u8,
    pub(crate) hands: [TileCounts; MAX_PLAYERS],
    /// `HandShape::of(hands[seat])`, kept up to date by every change of a hand.
    pub(crate) shapes: [HandShape; MAX_PLAYERS],
    pub(crate) melds: [heapless::Vec<Meld, 4>; MAX_PLAYERS],
    pub(crate) discards: [heapless::Vec<Discard, DISCARD_CAP>; MAX_PLAYERS],
    /// Tiles in the open, kept up to date by every action: all melds (closed kans
    /// included), unclaimed discards and a pending (or robbed) added-kan tile. Checked
    /// against a recount by [`check_invariants`](super::check_invariants).
    pub(crate) visible: TileCounts,
    /// Kans declared this hand, all players.
    pub(crate) kans: u8,
    pub(crate) phase: Phase,
    /// The seat on turn (during a claim window: the discarder).
    pub(crate) turn: u8,
    /// The tile the seat on turn just drew, if it drew (not after a call).
    pub(crate) drawn: Option<Tile>,
    /// The seat on turn just called pon or chi and may only discard.
    pub(crate) after_call: bool,
    pub(crate) claim: Claim,
    pub(crate) result: Option<HandResult>,
    /// Every action of this hand, for records.
    pub(crate) log: heapless::Vec<(u8, Action), LOG_CAP>,
    /// Which wall positions hold a red five (riichi rules; all `false` otherwise).
    pub(crate) red: [bool; MAX_WALL],
    /// Round wind, honba and riichi sticks (riichi rules; zero otherwise).
    pub(crate) table: Table,
    /// The table at the start of this hand (for records).
    pub(crate) start_table: Table,
    /// The table of the next hand and its dealer, decided when a riichi hand ends.
    pub(crate) next_table: Option<(Table, u8)>,
    /// Per-hand riichi state.
    pub(crate) rh: RiichiHand,
    /// The riichi result of the hand once it ended.
    pub(crate) rresult: Option<RiichiResult>,
}

impl Game {
    /// A new game: validates the rules and deals the first hand (seat 0 deals).
    pub fn new(rules: Rules, seed: u64) -> Result<Game, RuleError> {
        rules.validate()?;
        let mut scores = [0; MAX_PLAYERS];
        for s in scores.iter_mut().take(rules.players as usize) {
            *s = rules.starting_points;
        }
        let mut game = Game::blank(rules, seed, 0, 0, scores);
        let (wall, red, len) = shuffled_wall(&rules, seed, 0);
        game.red = red;
        game.deal(&wall[..len])?;
        Ok(game)
    }

    pub(crate) fn blank(
        rules: Rules,
        seed: u64,
        hand_number: u16,
        dealer: u8,
        scores: [i32; 4],
    ) -> Game {
        Game {
            rules,
            seed,
            hand_number,
            dealer,
            scores,
            start_scores: scores,
            wall: [Tile::EAST; MAX_WALL],
            wall_len: 0,
            draw_pos: 0,
            live_end: 0,
            dead_end: 0,
            hands: [[0; NUM_TILE_TYPES]; MAX_PLAYERS],
            shapes: [HandShape::default(); MAX_PLAYERS],
            melds: Default::default(),
            discards: Default::default(),
            visible: [0; NUM_TILE_TYPES],
            kans: 0,
            phase: Phase::Turn,
            turn: dealer,
            drawn: None,
            after_call: false,
            claim: Claim::empty(),
            result: None,
            log: heapless::Vec::new(),
            red: [false; MAX_WALL],
            table: Table::default(),
            start_table: Table::default(),
            next_table: None,
            rh: RiichiHand::default(),
            rresult: None,
        }
    }

    /// Starts a hand from an explicit wall (checked to be a permutation of the tile set),
    /// for records and scenarios.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_wall(
        rules: Rules,
        seed: u64,
        wall: &[Tile],
        dealer: u8,
        hand_number: u16,
        scores: [i32; 4],
        red: &[bool],
        table: Table,
    ) -> Result<Game, RuleError> {
        rules.validate()?;
        if dealer >= rules.players || hand_number >= rules.hands_per_game {
            return Err(RuleError::BadSetup);
        }
        // Scores are conserved (as `check_invariants` checks, modulo 2^32): a record
        // whose start scores do not add up is not a hand these rules can reach.
        let sum = scores.iter().fold(0i32, |a, &s| a.wrapping_add(s));
        let deposits = Game::deposits(&rules, table.sticks);
        if scores.iter().skip(rules.players as usize).any(|&s| s != 0)
            || sum.wrapping_add(deposits)
                != i32::from(rules.players).wrapping_mul(rules.starting_points)
        {
            return Err(RuleError::BadSetup);
        }
        if !rules.is_riichi() && table != Table::default() {
            return Err(RuleError::BadSetup);
        }
        let red = super::fives::check_reds(&rules, wall, red)?;
        let mut counts = [0u8; NUM_TILE_TYPES];
        for t in wall {
            if let Some(c) = counts.get_mut(t.index()) {
                *c = c.saturating_add(1);
            }
        }
        if counts != rules.tile_set.full_counts() {
            return Err(RuleError::BadSetup);
        }
        let mut game = Game::blank(rules, seed, hand_number, dealer, scores);
        game.red = red;
        game.table = table;
        game.deal(wall)?;
        Ok(game)
    }

    /// Points in riichi deposits on the table (0 under the simple rules).
    pub(crate) fn deposits(rules: &Rules, sticks: u8) -> i32 {
        rules
            .riichi
            .map_or(0, |r| r.riichi_cost.wrapping_mul(i32::from(sticks)))
    }

    /// Builds a hand from hand strings, for tests and scenarios (not for play: the wall
    /// is not random).
    ///
    /// `hands[seat]` holds the 13 tiles of each seat in mpsz notation; `live` the first
    /// tiles of the live wall in draw order (the dealer's first draw is the first);
    /// `dead` the kan replacement draws in order. The remaining tiles of the set fill the
    /// rest of the live wall and the dead wall in index order. Scores start at
    /// `rules.starting_points`, hand number 0, game seed 0.
    pub fn from_setup(
        rules: Rules,
        hands: &[&str],
        live: &str,
        dead: &str,
        dealer: u8,
    ) -> Result<Game, RuleError> {
        rules.validate()?;
        if rules.is_riichi() {
            let setup = super::riichi_flow::RiichiSetup {
                hands,
                live,
                rinshan: dead,
                dealer,
                ..Default::default()
            };
            return Game::from_riichi_setup(rules, &setup);
        }
        let n = rules.players as usize;
        if hands.len() != n || dealer >= rules.players {
            return Err(RuleError::BadSetup);
        }
        let set = rules.tile_set;
        let mut left = set.full_counts();
        let mut wall: heapless::Vec<Tile, MAX_WALL> = heapless::Vec::new();
        let mut take = |t: Tile, out: &mut heapless::Vec<Tile, MAX_WALL>| {
            let c = left
                .get_mut(t.index())
                .ok_or(crate::notation::ParseError::TooManyTiles)?;
            if *c == 0 {
                return Err(crate::notation::ParseError::TooManyCopies { tile: t });
            }
            *c -= 1;
            out.push(t)
                .map_err(|_| crate::notation::ParseError::TooManyTiles)
        };
        for k in 0..n {
            let seat = (dealer as usize + k) % n;
            let s = hands.get(seat).ok_or(RuleError::BadSetup)?;
            let before = wall.len();
            parse_each(s, |t| take(t, &mut wall)).map_err(|_| RuleError::BadSetup)?;
            if wall.len() - before != 13 {
                return Err(RuleError::BadSetup);
            }
        }
        parse_each(live, |t| take(t, &mut wall)).map_err(|_| RuleError::BadSetup)?;
        let mut tail: heapless::Vec<Tile, MAX_WALL> = heapless::Vec::new();
        parse_each(dead, |t| take(t, &mut tail)).map_err(|_| RuleError::BadSetup)?;
        for t in set.tiles() {
            for _ in 0..left.get(t.index()).copied().unwrap_or(0) {
                wall.push(t).map_err(|_| RuleError::BadSetup)?;
            }
        }
        for &t in tail.iter().rev() {
            wall.push(t).map_err(|_| RuleError::BadSetup)?;
        }
        let mut scores = [0; MAX_PLAYERS];
        for s in scores.iter_mut().take(n) {
            *s = rules.starting_points;
        }
        Game::from_wall(rules, 0, &wall, dealer, 0, scores, &[], Table::default())
    }

    /// Deals `wall` and lets the dealer draw. Resets all per-hand state.
    fn deal(&mut self, wall: &[Tile]) -> Result<(), RuleError> {
        let n = self.rules.players as usize;
        let len = wall.len();
        let dead = self.rules.dead_wall as usize;
        if len > MAX_WALL || len < 13 * n + 1 + dead {
            return Err(RuleError::BadSetup);
        }
        self.wall[..len].copy_from_slice(wall);
        self.wall_len = len as u8;
        self.hands = [[0; NUM_TILE_TYPES]; MAX_PLAYERS];
        self.shapes = [HandShape::default(); MAX_PLAYERS];
        for k in 0..n {
            let seat = (self.dealer as usize + k) % n;
            for t in &wall[13 * k..13 * k + 13] {
                self.update_count(seat as u8, *t, |c| c + 1);
            }
        }
        self.draw_pos = (13 * n) as u8;
        self.dead_end = len as u8;
        self.live_end = (len - dead) as u8;
        self.melds = Default::default();
        self.discards = Default::default();
        self.visible = [0; NUM_TILE_TYPES];
        self.kans = 0;
        self.claim = Claim::empty();
        self.result = None;
        self.log.clear();
        self.after_call = false;
        self.turn = self.dealer;
        self.phase = Phase::Turn;
        self.drawn = None;
        self.start_scores = self.scores;
        self.start_table = self.table;
        self.next_table = None;
        self.rresult = None;
        self.rh = super::riichi_flow::RiichiHand::default();
        if self.rules.is_riichi() {
            self.deal_riichi(n);
        }
        // Validation guarantees a non-empty live wall here.
        let _ = self.draw_live(self.dealer);
        Ok(())
    }

    /// Draws the next live-wall tile into `seat`'s hand.
    pub(crate) fn draw_live(&mut self, seat: u8) -> Option<Tile> {
        if self.draw_pos >= self.live_end {
            return None;
        }
        let t = *self.wall.get(self.draw_pos as usize)?;
        let red = self
            .red
            .get(self.draw_pos as usize)
            .copied()
            .unwrap_or(false);
        self.draw_pos += 1;
        self.add_drawn(seat, t, red);
        self.rh.rinshan = false;
        Some(t)
    }

    /// Draws a kan replacement from the end of the dead wall and tops the dead wall up
    /// with the last live-wall tile. Legality checks guarantee a non-empty live wall.
    ///
    /// Under riichi rules the last 10 tiles of the dead wall are the dora and ura dora
    /// indicators: the replacement is the tile just before them, and the indicators move
    /// up one place (so the dead wall still ends with them and keeps its size).
    pub(crate) fn draw_replacement(&mut self, seat: u8) -> Option<Tile> {
        if self.live_end <= self.draw_pos || self.dead_end == 0 {
            return None;
        }
        let end = self.dead_end as usize;
        let p = end.checked_sub(1 + self.indicator_block())?;
        if p < self.live_end as usize {
            return None;
        }
        let t = *self.wall.get(p)?;
        let red = self.red.get(p).copied().unwrap_or(false);
        // A no-op for the simple rules (p = end − 1).
        if let (Some(w), Some(r)) = (self.wall.get_mut(p..end), self.red.get_mut(p..end)) {
            w.rotate_left(1);
            r.rotate_left(1);
        }
        self.dead_end -= 1;
        self.live_end -= 1;
        self.add_drawn(seat, t, red);
        self.rh.rinshan = true;
        Some(t)
    }

    /// One more tile of type `t` in the open.
    pub(crate) fn show(&mut self, t: Tile) {
        if let Some(c) = self.visible.get_mut(t.index()) {
            *c = c.saturating_add(1);
        }
    }

    /// One tile of type `t` less in the open.
    pub(crate) fn unshow(&mut self, t: Tile) {
        if let Some(c) = self.visible.get_mut(t.index()) {
            *c = c.saturating_sub(1);
        }
    }

    /// Sets `seat`'s count of `t` to `f(count)`, keeping its shape up to date.
    pub(crate) fn update_count(&mut self, seat: u8, t: Tile, f: impl FnOnce(u8) -> u8) {
        let s = seat as usize;
        let i = t.index();
        if let (Some(c), Some(shape)) = (
            self.hands.get_mut(s).and_then(|h| h.get_mut(i)),
            self.shapes.get_mut(s),
        ) {
            let old = *c;
            *c = f(old);
            shape.count_changed(i, old, *c);
        }
    }

    fn add_drawn(&mut self, seat: u8, t: Tile, red: bool) {
        self.update_count(seat, t, |c| c + 1);
        if red {
            self.add_red(seat, t);
        }
        self.turn = seat;
        self.drawn = Some(t);
        self.after_call = false;
        self.phase = Phase::Turn;
    }

    /// Deals the next hand after [`Phase::HandOver`]. The dealer repeats when the dealer
    /// won the hand, otherwise the next seat deals; the hand number always advances.
    /// Returns the dealer's first draw as an event.
    pub fn start_next_hand(&mut self) -> Result<super::Events, RuleError> {
        match self.phase {
            Phase::GameOver => return Err(RuleError::GameOver),
            Phase::HandOver => {}
            _ => return Err(RuleError::HandInProgress),
        }
        let dealer_won = self.result.is_some_and(|r| {
            r.winners
                .get(self.dealer as usize)
                .copied()
                .unwrap_or(false)
        });
        let mut next_dealer = if dealer_won {
            self.dealer
        } else {
            (self.dealer + 1) % self.rules.players
        };
        let mut table = self.table;
        if let Some((t, d)) = self.next_table {
            (table, next_dealer) = (t, d);
        }
        let next_hand = self.hand_number.saturating_add(1);
        let (wall, red, len) = shuffled_wall(&self.rules, self.seed, next_hand);
        let mut next = self.clone();
        next.hand_number = next_hand;
        next.dealer = next_dealer;
        next.table = table;
        next.red = red;
        next.deal(&wall[..len])?;
        *self = next;
        let mut ev = super::Events::new();
        if let Some(t) = self.drawn {
            let _ = ev.push(super::Event::Drew {
                seat: self.dealer,
                tile: t,
                replacement: false,
            });
        }
        Ok(ev)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game seed (each hand's wall derives from it and the hand number).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the last hand has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Scores by seat (seats beyond `rules.players` stay 0).
    pub fn scores(&self) -> [i32; 4] {
        self.scores
    }

    /// Each seat's score change since the current (or just finished) hand began: the
    /// result's [`super::HandResult::deltas`] plus the riichi deposits made during the
    /// hand (and, once the game is over, riichi sticks left on the table that went to the
    /// first-placed player). Equal to the deltas under the simple rules. What a player
    /// gained or lost by the hand: the arena's points and the trainer's reward.
    pub fn hand_score_changes(&self) -> [i32; 4] {
        let mut out = [0i32; 4];
        for (o, (now, start)) in out
            .iter_mut()
            .zip(self.scores.iter().zip(&self.start_scores))
        {
            *o = now.wrapping_sub(*start);
        }
        out
    }

    /// The number of the current hand, from 0.
    pub fn hand_number(&self) -> u16 {
        self.hand_number
    }

    /// The dealer of the current hand.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }

    /// The seat on turn (during a claim window: the seat whose tile is claimable).
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The closed hand of `seat`, if the seat exists.
    pub fn hand(&self, seat: u8) -> Option<&TileCounts> {
        self.hands
            .get(seat as usize)
            .filter(|_| seat < self.rules.players)
    }

    /// The melds of `seat` in the order they were made.
    pub fn melds(&self, seat: u8) -> &[Meld] {
        self.melds.get(seat as usize).map_or(&[], |m| m.as_slice())
    }

    /// The discards of `seat` in order.
    pub fn discards(&self, seat: u8) -> &[Discard] {
        self.discards
            .get(seat as usize)
            .map_or(&[], |d| d.as_slice())
    }

    /// The tile the seat on turn just drew (not after a call).
    pub fn drawn(&self) -> Option<Tile> {
        self.drawn
    }

    /// Tiles left in the live wall.
    pub fn live_wall_remaining(&self) -> u8 {
        self.live_end.saturating_sub(self.draw_pos)
    }

    /// Kans declared this hand, all players together.
    pub fn kans(&self) -> u8 {
        self.kans
    }

    /// The result of the hand once it ended.
    pub fn last_result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }

    /// The actions applied in this hand so far, with their seats.
    pub fn actions(&self) -> &[(u8, Action)] {
        &self.log
    }

    /// The claimable tile and its discarder while a claim window is open.
    pub fn pending_claim(&self) -> Option<(Tile, u8)> {
        (self.phase == Phase::Claim).then_some((self.claim.tile, self.claim.from))
    }

    /// The tiles still in the live wall, in draw order (hidden information).
    pub fn live_wall(&self) -> &[Tile] {
        self.wall
            .get(self.draw_pos as usize..self.live_end as usize)
            .unwrap_or(&[])
    }

    /// The dead wall; replacement draws take its last tile first (hidden information).
    pub fn dead_wall(&self) -> &[Tile] {
        self.wall
            .get(self.live_end as usize..self.dead_end as usize)
            .unwrap_or(&[])
    }

    /// The wall of this hand (deal, live wall, dead wall). Under riichi rules each
    /// replacement draw moves the dora indicator block one place up, so that the dead
    /// wall keeps ending with it; [`Game::hand_record`] holds the wall as dealt.
    pub fn wall(&self) -> &[Tile] {
        self.wall.get(..self.wall_len as usize).unwrap_or(&[])
    }
}

/// The shuffled wall of hand `hand_number` of the game with `seed`, with the positions
/// of its red fives.
///
/// The wall is the tile set in index order, four copies each, permuted by the
/// generator; under riichi rules the first copies of each five are the red ones
/// ([`RiichiRules::red_fives`](crate::RiichiRules::red_fives) per suit), and they
/// travel with the permutation. The permutation depends only on the wall's length, so
/// the simple presets get exactly the walls they always had.
pub(crate) fn shuffled_wall(
    rules: &Rules,
    seed: u64,
    hand_number: u16,
) -> ([Tile; MAX_WALL], [bool; MAX_WALL], usize) {
    let mut tiles = [Tile::EAST; MAX_WALL];
    let mut reds = [false; MAX_WALL];
    let red_fives = rules.riichi.map_or([0; 3], |r| r.red_fives);
    let mut len = 0;
    for t in rules.tile_set.tiles() {
        let red_copies = match (t.is_honor(), t.number()) {
            (false, 5) => red_fives.get(t.suit().index()).copied().unwrap_or(0),
            _ => 0,
        };
        for copy in 0..4 {
            if let (Some(slot), Some(r)) = (tiles.get_mut(len), reds.get_mut(len)) {
                *slot = t;
                *r = copy < red_copies;
                len += 1;
            }
        }
    }
    let mut order = [0u8; MAX_WALL];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u8;
    }
    let mut rng = Rng::new(Rng::derive_seed(seed, hand_number as u64));
    rng.shuffle(&mut order[..len]);
    let mut wall = [Tile::EAST; MAX_WALL];
    let mut red = [false; MAX_WALL];
    for ((w, r), &o) in wall.iter_mut().zip(red.iter_mut()).zip(&order[..len]) {
        *w = tiles.get(o as usize).copied().unwrap_or(Tile::EAST);
        *r = reds.get(o as usize).copied().unwrap_or(false);
    }
    (wall, red, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_residue_check() {
        for code in 0..256u32 {
            let sums = [code & 3, code >> 2 & 3, code >> 4 & 3, code >> 6 & 3].map(|x| x as u8 + 3);
            let shape = HandShape {
                sums,
                held: 1,
                odd: 1,
                four: 0,
            };
            let res = sums.map(|s| s % 3);
            let expected = res.iter().filter(|&&r| r == 2).count() == 1
                && res.iter().filter(|&&r| r == 1).count() == 0;
            assert_eq!(
                shape.may_win(&Rules::four_player(), false),
                expected,
                "{sums:?}"
            );
        }
    }

    #[test]
    fn orphan_mask() {
        let mask = Tile::all()
            .filter(|t| t.is_terminal_or_honor())
            .fold(0u64, |m, t| m | 1 << t.index());
        assert_eq!(mask, ORPHANS);
    }
}
