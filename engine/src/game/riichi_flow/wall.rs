//! Red fives, dora indicators and the riichi dead wall.
//!
//! The dead wall (`wall[live_end..dead_end]`, 14 tiles) ends with the indicator block:
//! dora indicator `k` is `wall[dead_end − 10 + k]`, ura dora indicator `k` is
//! `wall[dead_end − 5 + k]`. Replacement draws take the tile before the block and move
//! the block up one place ([`Game::draw_replacement`]), so the indicators never change
//! and the dead wall is topped up from the live wall as on a real table, where the last
//! live tile joins the dead wall after each kan (riichi.wiki, Dead wall).
//!
//! Red fives are physical tiles: `Game::red` marks their wall positions, and every
//! hand, meld and discard keeps its red count. [`Game::apply`] takes a tile of a type
//! from a hand as a plain five first and as the red one last (actions name tile types,
//! so the engine decides; keeping the red five is never worse, it is worth a han);
//! [`Game::apply_with_copy`] names the copy instead (`game::copy`).

use super::super::caps::MAX_WALL;
use super::super::error::RuleError;
use super::super::fives::five_suit;
use super::super::state::Game;
use super::RiichiSetup;
use crate::notation::parse_each_with_reds;
use crate::rules::Rules;
use crate::tile::{Tile, TileCounts};

/// Tiles at the end of the dead wall reserved for indicators under riichi rules.
pub(crate) const INDICATOR_BLOCK: usize = 10;

impl Game {
    /// Tiles reserved for indicators at the end of the dead wall (0 for the simple
    /// rules).
    pub(crate) fn indicator_block(&self) -> usize {
        if self.rules.is_riichi() {
            INDICATOR_BLOCK
        } else {
            0
        }
    }

    /// Riichi part of the deal: red fives of the hands, the first dora indicator.
    pub(crate) fn deal_riichi(&mut self, n: usize) {
        for k in 0..n {
            let seat = ((self.dealer as usize + k) % n) as u8;
            for i in 13 * k..13 * k + 13 {
                if self.red.get(i).copied().unwrap_or(false) {
                    if let Some(&t) = self.wall.get(i) {
                        self.add_red(seat, t);
                    }
                }
            }
        }
        self.reveal_dora();
    }

    /// One more red five of `t`'s suit in `seat`'s hand.
    pub(crate) fn add_red(&mut self, seat: u8, t: Tile) {
        if let Some(r) = five_suit(t).and_then(|s| {
            self.rh
                .red_hand
                .get_mut(seat as usize)
                .and_then(|h| h.get_mut(s))
        }) {
            *r += 1;
        }
    }

    /// Removes `n` tiles of type `t` from `seat`'s hand, plain fives before red ones,
    /// and returns how many red fives left the hand.
    pub(crate) fn take_tiles(&mut self, seat: u8, t: Tile, n: u8) -> u8 {
        self.take_tiles_as(seat, t, n, false)
    }

    /// [`Game::take_tiles`], red fives first when `red_first`.
    pub(crate) fn take_tiles_as(&mut self, seat: u8, t: Tile, n: u8, red_first: bool) -> u8 {
        let held = self
            .hands
            .get(seat as usize)
            .and_then(|h| h.get(t.index()))
            .copied()
            .unwrap_or(0);
        let mut reds = 0;
        if let Some(r) = five_suit(t).and_then(|s| {
            self.rh
                .red_hand
                .get_mut(seat as usize)
                .and_then(|h| h.get_mut(s))
        }) {
            let plain = held.saturating_sub(*r);
            reds = if red_first {
                n.min(*r)
            } else {
                n.saturating_sub(plain).min(*r)
            };
            *r -= reds;
        }
        self.update_count(seat, t, |c| c.saturating_sub(n));
        reds
    }

    /// The wall and red positions as dealt: the replacement draws' moves of the
    /// indicator block undone in reverse order (each moved the taken tile to just past
    /// the new end of the dead wall, where no later move reaches it).
    pub(crate) fn initial_wall(&self) -> ([Tile; MAX_WALL], [bool; MAX_WALL]) {
        let (mut wall, mut red) = (self.wall, self.red);
        let block = self.indicator_block();
        if block > 0 {
            let len = self.wall_len as usize;
            let mut end = self.dead_end as usize;
            while end < len {
                end += 1;
                if let Some(p) = end.checked_sub(1 + block) {
                    if let (Some(w), Some(r)) = (wall.get_mut(p..end), red.get_mut(p..end)) {
                        w.rotate_right(1);
                        r.rotate_right(1);
                    }
                }
            }
        }
        (wall, red)
    }

    /// Dora indicator `k` (revealed or not).
    pub(crate) fn indicator(&self, k: usize, ura: bool) -> Option<Tile> {
        let base = (self.dead_end as usize).checked_sub(INDICATOR_BLOCK)?;
        self.wall.get(base + k + if ura { 5 } else { 0 }).copied()
    }

    /// Reveals the next dora indicator (at most five).
    pub(crate) fn reveal_dora(&mut self) {
        if self.rh.dora >= 5 {
            return;
        }
        if let Some(t) = self.indicator(self.rh.dora as usize, false) {
            self.show(t);
            self.rh.dora += 1;
        }
    }

    /// Reveals the kan dora waiting for their declarer's discard.
    pub(crate) fn flush_pending_dora(&mut self) {
        for _ in 0..self.rh.dora_pending {
            self.reveal_dora();
        }
        self.rh.dora_pending = 0;
    }

    /// The dora indicators revealed so far.
    pub fn dora_indicators(&self) -> heapless::Vec<Tile, 5> {
        self.indicators(false)
    }

    /// The ura dora indicators under the revealed ones (hidden information until a
    /// riichi hand wins).
    pub fn ura_indicators(&self) -> heapless::Vec<Tile, 5> {
        self.indicators(true)
    }

    fn indicators(&self, ura: bool) -> heapless::Vec<Tile, 5> {
        let mut out = heapless::Vec::new();
        for k in 0..self.rh.dora as usize {
            // At most five are revealed (`reveal_dora`); push cannot fail.
            if let Some(t) = self.indicator(k, ura) {
                let _ = out.push(t);
            }
        }
        out
    }

    /// Red fives per suit in `seat`'s concealed hand (riichi rules).
    pub fn red_fives_in_hand(&self, seat: u8) -> [u8; 3] {
        self.rh
            .red_hand
            .get(seat as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Whether wall position `i` holds a red five (hidden information).
    pub fn is_red_position(&self, i: usize) -> bool {
        self.red.get(i).copied().unwrap_or(false)
    }

    /// A riichi hand from hand strings, for tests and scenarios: like
    /// [`Game::from_setup`] with red fives (`0p`), dora and ura indicators, the table
    /// (round, honba, sticks) and scores. Tiles not named fill the rest of the wall in
    /// index order; a suit whose red five is not named gets it on the first plain five
    /// of the filler. Errors: [`RuleError::BadSetup`] for a red five the rules do not
    /// have, too many copies, a hand that is not 13 tiles, or scores that do not add up.
    pub fn from_riichi_setup(rules: Rules, setup: &RiichiSetup) -> Result<Game, RuleError> {
        rules.validate()?;
        let r = rules.riichi.ok_or(RuleError::BadSetup)?;
        let n = rules.players as usize;
        if setup.hands.len() != n || setup.dealer >= rules.players {
            return Err(RuleError::BadSetup);
        }
        let len = rules.tile_set.num_tiles();
        let mut b = Builder {
            slots: [None; MAX_WALL],
            left: rules.tile_set.full_counts(),
            reds_left: r.red_fives,
        };
        let mut put = |s: &str, pos: &dyn Fn(usize) -> Option<usize>| b.put(s, pos);
        for k in 0..n {
            let seat = (setup.dealer as usize + k) % n;
            let s = setup.hands.get(seat).ok_or(RuleError::BadSetup)?;
            let count = put(s, &|i| (i < 13).then_some(13 * k + i))?;
            if count != 13 {
                return Err(RuleError::BadSetup);
            }
        }
        let live_start = 13 * n;
        let dead_start = len - 14;
        put(setup.live, &|i| {
            (live_start + i < dead_start).then_some(live_start + i)
        })?;
        put(setup.dora, &|i| (i < 5).then_some(len - 10 + i))?;
        put(setup.ura, &|i| (i < 5).then_some(len - 5 + i))?;
        // Replacement draws descend from just before the indicator block.
        put(setup.rinshan, &|i| {
            (len - 11).checked_sub(i).filter(|&p| p >= live_start)
        })?;
        let Builder {
            slots,
            left,
            mut reds_left,
        } = b;
        let mut wall = [Tile::EAST; MAX_WALL];
        let mut red = [false; MAX_WALL];
        let mut fill = rules
            .tile_set
            .tiles()
            .flat_map(|t| (0..left.get(t.index()).copied().unwrap_or(0)).map(move |_| t));
        for i in 0..len {
            let (t, is_red) = match slots.get(i).copied().flatten() {
                Some(x) => x,
                None => {
                    let t = fill.next().ok_or(RuleError::BadSetup)?;
                    let rl = five_suit(t).and_then(|s| reds_left.get_mut(s));
                    let is_red = match rl {
                        Some(rl) if *rl > 0 => {
                            *rl -= 1;
                            true
                        }
                        _ => false,
                    };
                    (t, is_red)
                }
            };
            if let (Some(w), Some(r)) = (wall.get_mut(i), red.get_mut(i)) {
                *w = t;
                *r = is_red;
            }
        }
        if reds_left != [0; 3] {
            return Err(RuleError::BadSetup);
        }
        let scores = match setup.scores {
            Some(s) => s,
            None => {
                let mut s = [0; 4];
                for x in s.iter_mut().take(n) {
                    *x = rules.starting_points;
                }
                s[0] = s[0].wrapping_sub(Game::deposits(&rules, setup.table.sticks));
                s
            }
        };
        Game::from_wall(
            rules,
            0,
            wall.get(..len).unwrap_or(&[]),
            setup.dealer,
            0,
            scores,
            red.get(..len).unwrap_or(&[]),
            setup.table,
        )
    }
}

/// The wall of [`Game::from_riichi_setup`] under construction.
struct Builder {
    slots: [Option<(Tile, bool)>; MAX_WALL],
    left: TileCounts,
    reds_left: [u8; 3],
}

impl Builder {
    /// Places the tiles of `s` at `pos(0)`, `pos(1)`, ... and returns how many.
    fn put(&mut self, s: &str, pos: &dyn Fn(usize) -> Option<usize>) -> Result<usize, RuleError> {
        let mut k = 0;
        let mut bad = false;
        let parsed = parse_each_with_reds(s, |t, red| {
            let ok = pos(k).is_some_and(|p| self.place(p, t, red));
            k += 1;
            if ok {
                Ok(())
            } else {
                bad = true;
                Err(crate::notation::ParseError::TooManyTiles)
            }
        });
        if parsed.is_err() || bad {
            return Err(RuleError::BadSetup);
        }
        Ok(k)
    }

    fn place(&mut self, pos: usize, t: Tile, red: bool) -> bool {
        let (Some(c), Some(slot)) = (self.left.get_mut(t.index()), self.slots.get_mut(pos)) else {
            return false;
        };
        if *c == 0 || slot.is_some() {
            return false;
        }
        if red {
            match five_suit(t).and_then(|s| self.reds_left.get_mut(s)) {
                Some(rl) if *rl > 0 => *rl -= 1,
                _ => return false,
            }
        }
        *c -= 1;
        *slot = Some((t, red));
        true
    }
}
