//! Determinization: a whole [`Game`] consistent with what one seat sees.
//!
//! Search in a game of hidden information plays its rollouts in *determinized* worlds:
//! every tile the deciding seat cannot see — the other seats' concealed tiles, the live
//! wall, the dead wall and its replacement tiles — is dealt anew, consistently with
//! what the seat does see (its hand, all melds and discards, counts, points, whose turn,
//! the claim window). The classic form is Ginsberg's GIB for bridge (2001); Buro et al.
//! (Skat, 2009) and Solinas et al. (2019) weight the worlds by inference about the
//! opponents, which [`crate::belief`] supplies through [`Game::from_observation`]'s
//! `opponents` argument.
//!
//! **No leak by construction**: a determinized game is built from the seat's
//! [`Observation`] alone (and the random generator), never from the true game, so two
//! games that differ only in hidden tiles give identical determinized games for the
//! same generator state. What the observation does not hold is reset: the action log
//! is empty (a determinized game is a hypothesis, not a record), the game seed is drawn
//! from the generator (so later hands are random too), the hand's starting scores are
//! the current scores, and in a claim window every seat's claim options are recomputed
//! from the dealt hands with no answers given yet (who has already answered is hidden).
//!
//! Only a seat with a decision pending can be determinized (the seat on turn, or a seat
//! that may claim the pending tile): that is where search runs, and it keeps the claim
//! window and the turn state fully determined by the observation.
//!
//! Under riichi rules ([`riichi_state`]) the world also holds the hidden red fives, the
//! indicator block of the dead wall (revealed dora indicators in place, ura and kan-dora
//! indicators dealt), the per-hand riichi state restored from [`RiichiView`] and the
//! opponents' furiten recomputed from their dealt hands; riichi seats are dealt tenpai
//! hands.
//!
//! [`RiichiView`]: super::RiichiView

mod riichi_state;

use super::caps::{MAX_KANS, MAX_PLAYERS, MAX_WALL};
use super::error::RuleError;
use super::invariants::check_invariants;
use super::legal::Window;
use super::meld::MeldKind;
use super::observation::Observation;
use super::state::{Claim, Game, HandShape, Phase};
use crate::rng::Rng;
use crate::tile::{Tile, TileCounts, NUM_TILE_TYPES};

impl Game {
    /// A game consistent with what `seat` sees, with every hidden tile redealt
    /// uniformly at random (see the module docs). Errors: [`RuleError::BadSeat`],
    /// [`RuleError::HandOver`] / [`RuleError::GameOver`] between hands, and
    /// [`RuleError::NotYourTurn`] when `seat` has no decision pending.
    pub fn determinize(&self, seat: u8, rng: &mut Rng) -> Result<Game, RuleError> {
        match self.phase {
            Phase::HandOver => return Err(RuleError::HandOver),
            Phase::GameOver => return Err(RuleError::GameOver),
            _ => {}
        }
        let obs = self.observation(seat)?;
        Game::from_observation(&obs, None, rng)
    }

    /// The concealed tile count every seat holds in the position `obs` describes
    /// (seats beyond the player count: 0).
    pub fn concealed_sizes(obs: &Observation) -> [u8; MAX_PLAYERS] {
        let mut sizes = [0u8; MAX_PLAYERS];
        for (s, size) in sizes
            .iter_mut()
            .enumerate()
            .take(obs.rules.players as usize)
        {
            let melds = obs.melds.get(s).map_or(0, |m| m.len()) as u8;
            let on_turn = obs.phase == Phase::Turn && obs.turn as usize == s;
            *size = 13u8.saturating_sub(3 * melds) + on_turn as u8;
        }
        sizes
    }

    /// A game whose observation by `obs.seat` is `obs`, with the hidden tiles dealt at
    /// random: uniformly when `opponents` is `None`; otherwise the other seats hold
    /// exactly `opponents[s]` (the entry of `obs.seat` is ignored) and only the walls
    /// are dealt at random (under riichi rules a riichi seat's given hand that is not
    /// tenpai is rebuilt, and the whole proposal dropped when no tenpai fits around
    /// the others: see the private `riichi_state` module). [`RuleError::BadSetup`] when `obs` is not a consistent
    /// position or the given hands do not fit it (wrong sizes, more copies than are
    /// unseen); [`RuleError::NotYourTurn`] when the seat has no decision pending.
    pub fn from_observation(
        obs: &Observation,
        opponents: Option<&[TileCounts; MAX_PLAYERS]>,
        rng: &mut Rng,
    ) -> Result<Game, RuleError> {
        let rules = obs.rules;
        rules.validate()?;
        let n = rules.players as usize;
        let seat = obs.seat as usize;
        if seat >= n || obs.dealer as usize >= n || obs.turn as usize >= n {
            return Err(RuleError::BadSeat);
        }
        let view = match (rules.is_riichi(), obs.riichi.as_ref()) {
            (true, Some(v)) => Some(v),
            (false, None) => None,
            _ => return Err(RuleError::BadSetup),
        };
        match obs.phase {
            Phase::HandOver => return Err(RuleError::HandOver),
            Phase::GameOver => return Err(RuleError::GameOver),
            Phase::Turn if obs.turn as usize != seat => return Err(RuleError::NotYourTurn),
            Phase::Claim if obs.pending.is_none() => return Err(RuleError::BadSetup),
            _ => {}
        }
        if obs.hand_number >= rules.hands_per_game {
            return Err(RuleError::BadSetup);
        }
        let mut game = Game::blank(
            rules,
            rng.next_u64(),
            obs.hand_number,
            obs.dealer,
            obs.scores,
        );
        game.melds = obs.melds.clone();
        game.discards = obs.discards.clone();
        game.place_public(obs)?;
        let sizes = Game::concealed_sizes(obs);
        let own: u32 = obs.hand.iter().map(|&c| c as u32).sum();
        if own != sizes.get(seat).copied().unwrap_or(0) as u32 {
            return Err(RuleError::BadSetup);
        }
        // Wall geometry: every declared kan (and kita) drew its replacement from the
        // dead wall, which took the last live tile as its top-up.
        let len = rules.tile_set.num_tiles();
        let kita: usize = view.map_or(0, |v| v.kita.iter().map(|&k| k as usize).sum());
        let dead_end = len
            .checked_sub(game.kans as usize + kita)
            .ok_or(RuleError::BadSetup)?;
        let live_end = dead_end
            .checked_sub(rules.dead_wall as usize)
            .ok_or(RuleError::BadSetup)?;
        let draw_pos = live_end
            .checked_sub(obs.live_wall as usize)
            .ok_or(RuleError::BadSetup)?;
        let hidden_in_hands: usize = sizes
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat)
            .map(|(_, &k)| k as usize)
            .sum();
        let unseen_total: usize = obs.unseen.iter().map(|&c| c as usize).sum();
        // Revealed dora indicators lie in the dead wall but are seen.
        let revealed = view.map_or(0, |v| v.dora_indicators.len());
        if len > MAX_WALL
            || unseen_total + revealed != hidden_in_hands + (dead_end - draw_pos)
            || dead_end - live_end < game.indicator_block()
        {
            return Err(RuleError::BadSetup);
        }
        game.wall_len = len as u8;
        game.dead_end = dead_end as u8;
        game.live_end = live_end as u8;
        game.draw_pos = draw_pos as u8;
        game.deal_hidden(obs, &sizes, opponents, rng)?;
        if let Some(v) = view {
            game.restore_riichi(obs, v, rng)?;
        }
        game.place_turn(obs)?;
        check_invariants(&game).map_err(|_| RuleError::BadSetup)?;
        Ok(game)
    }

    /// Open tiles and kans from the melds, discards and a robbable added-kan tile of
    /// `obs`, checked against its unseen counts.
    fn place_public(&mut self, obs: &Observation) -> Result<(), RuleError> {
        let set = self.rules.tile_set;
        let mut kans = 0u8;
        let mut visible = [0u16; NUM_TILE_TYPES];
        let mut show = |t: Tile, k: u16| match visible.get_mut(t.index()) {
            Some(c) if set.contains(t) => {
                *c += k;
                Ok(())
            }
            _ => Err(RuleError::BadSetup),
        };
        for ms in obs.melds.iter() {
            for m in ms {
                if m.kind.is_kan() {
                    kans += 1;
                }
                if m.kind == MeldKind::Chi {
                    if m.tile.is_honor() || m.tile.number() > 7 {
                        return Err(RuleError::BadSetup);
                    }
                    for i in 0..3 {
                        show(Tile::new(m.tile.as_u8() + i).ok_or(RuleError::BadSetup)?, 1)?;
                    }
                } else {
                    show(m.tile, m.len() as u16)?;
                }
            }
        }
        for d in obs.discards.iter().flatten().filter(|d| !d.claimed) {
            show(d.tile, 1)?;
        }
        if let Some(p) = obs.pending.filter(|p| p.added_kan) {
            show(p.tile, 1)?;
        }
        // Under riichi rules kita and the revealed dora indicators are in the open.
        if let Some(v) = obs.riichi.as_ref().filter(|_| self.rules.is_riichi()) {
            let north = Tile::new(super::riichi_flow::legal::NORTH).ok_or(RuleError::BadSetup)?;
            show(north, v.kita.iter().map(|&k| k as u16).sum())?;
            for &t in &v.dora_indicators {
                show(t, 1)?;
            }
        }
        if kans != obs.kans || kans > MAX_KANS {
            return Err(RuleError::BadSetup);
        }
        let full = set.full_counts();
        for i in 0..NUM_TILE_TYPES {
            let (v, h, u) = (visible[i], obs.hand[i] as u16, obs.unseen[i] as u16);
            if v + h + u != full[i] as u16 {
                return Err(RuleError::BadSetup);
            }
            self.visible[i] = v as u8;
        }
        self.kans = kans;
        Ok(())
    }

    /// Deals the observer's hand, the other seats' concealed tiles (given or drawn;
    /// riichi seats tenpai) and the rest of the unseen tiles into the live and dead
    /// walls around the revealed dora indicators; the wall outside them gets the
    /// remaining tiles of the set in tile order, so the wall stays a permutation of the
    /// set.
    fn deal_hidden(
        &mut self,
        obs: &Observation,
        sizes: &[u8; MAX_PLAYERS],
        opponents: Option<&[TileCounts; MAX_PLAYERS]>,
        rng: &mut Rng,
    ) -> Result<(), RuleError> {
        let seat = obs.seat as usize;
        let n = self.rules.players as usize;
        let mut pool = obs.unseen;
        let mut hands = [[0u8; NUM_TILE_TYPES]; MAX_PLAYERS];
        let mut dealt = [false; MAX_PLAYERS];
        if let Some(given) = opponents {
            for s in (0..n).filter(|&s| s != seat) {
                let h = given.get(s).ok_or(RuleError::BadSetup)?;
                let k: u32 = h.iter().map(|&c| c as u32).sum();
                if k != sizes.get(s).copied().unwrap_or(0) as u32 {
                    return Err(RuleError::BadSetup);
                }
                for (p, &c) in pool.iter_mut().zip(h.iter()) {
                    *p = p.checked_sub(c).ok_or(RuleError::BadSetup)?;
                }
                hands[s] = *h;
                dealt[s] = true;
            }
        }
        if self.rules.is_riichi() {
            let built = self.deal_riichi_seats(obs, sizes, &mut pool, &mut hands, &mut dealt, rng);
            match built {
                // Late in a hand the given hands of the other seats can hold the tiles
                // every tenpai of a riichi seat needs: the proposal is dropped and all
                // hidden hands are dealt afresh (riichi seats first, from every unseen
                // tile). Found by an external mjai engine (7 refusals in 40 hanchan).
                Err(RuleError::BadSetup) if opponents.is_some() => {
                    pool = obs.unseen;
                    hands = [[0u8; NUM_TILE_TYPES]; MAX_PLAYERS];
                    dealt = [false; MAX_PLAYERS];
                    self.deal_riichi_seats(obs, sizes, &mut pool, &mut hands, &mut dealt, rng)?;
                }
                r => r?,
            }
        }
        // The pool in tile order, then shuffled: the layout depends only on `obs`.
        let mut tiles = [Tile::EAST; MAX_WALL];
        let mut k = 0;
        for t in Tile::all() {
            for _ in 0..pool[t.index()] {
                *tiles.get_mut(k).ok_or(RuleError::BadSetup)? = t;
                k += 1;
            }
        }
        let tiles = &mut tiles[..k];
        rng.shuffle(tiles);
        let mut next = 0;
        for s in (0..n).filter(|&s| s != seat && !dealt[s]) {
            for _ in 0..sizes.get(s).copied().unwrap_or(0) {
                let t = *tiles.get(next).ok_or(RuleError::BadSetup)?;
                hands[s][t.index()] += 1;
                next += 1;
            }
        }
        hands[seat] = obs.hand;
        let rest = tiles.get(next..).ok_or(RuleError::BadSetup)?;
        self.fill_wall(obs, rest)?;
        self.hands = hands;
        for (shape, hand) in self.shapes.iter_mut().zip(&self.hands) {
            *shape = HandShape::of(hand);
        }
        Ok(())
    }

    /// Lays `rest` into the undrawn wall (`draw_pos..dead_end`) around the revealed
    /// dora indicators, which keep their places in the indicator block; the positions
    /// before and after get the remaining tiles of the set in tile order.
    fn fill_wall(&mut self, obs: &Observation, rest: &[Tile]) -> Result<(), RuleError> {
        let (draw, dead) = (self.draw_pos as usize, self.dead_end as usize);
        let shown: &[Tile] = match (self.rules.is_riichi(), obs.riichi.as_ref()) {
            (true, Some(v)) => &v.dora_indicators,
            _ => &[],
        };
        let first_indicator = dead.saturating_sub(self.indicator_block());
        let mut rest = rest.iter();
        for p in draw..dead {
            let t = match p.checked_sub(first_indicator).and_then(|k| shown.get(k)) {
                Some(&t) => t,
                None => *rest.next().ok_or(RuleError::BadSetup)?,
            };
            *self.wall.get_mut(p).ok_or(RuleError::BadSetup)? = t;
        }
        if rest.next().is_some() {
            return Err(RuleError::BadSetup);
        }
        let mut past = self.rules.tile_set.full_counts();
        for t in self.wall.get(draw..dead).ok_or(RuleError::BadSetup)? {
            let c = past.get_mut(t.index()).ok_or(RuleError::BadSetup)?;
            *c = c.checked_sub(1).ok_or(RuleError::BadSetup)?;
        }
        let len = self.wall_len as usize;
        let mut slots = (0..draw).chain(dead..len);
        for t in Tile::all() {
            for _ in 0..past[t.index()] {
                if let Some(w) = slots.next().and_then(|i| self.wall.get_mut(i)) {
                    *w = t;
                }
            }
        }
        Ok(())
    }

    /// The phase, the seat on turn and its turn state, or the claim window.
    fn place_turn(&mut self, obs: &Observation) -> Result<(), RuleError> {
        self.phase = obs.phase;
        self.turn = obs.turn;
        self.result = None;
        match obs.phase {
            Phase::Turn => {
                if obs.pending.is_some() {
                    return Err(RuleError::BadSetup);
                }
                if let Some(t) = obs.drawn {
                    if obs.hand.get(t.index()).copied().unwrap_or(0) == 0 {
                        return Err(RuleError::BadSetup);
                    }
                }
                self.drawn = obs.drawn;
                // On turn without a drawn tile only after a pon or chi.
                self.after_call = obs.drawn.is_none();
            }
            Phase::Claim => {
                let p = obs.pending.ok_or(RuleError::BadSetup)?;
                if p.from != obs.turn || p.from == obs.seat || obs.drawn.is_some() {
                    return Err(RuleError::BadSetup);
                }
                if p.is_discard()
                    && self
                        .discards
                        .get(p.from as usize)
                        .and_then(|d| d.last())
                        .is_none_or(|d| d.tile != p.tile || d.claimed)
                {
                    return Err(RuleError::BadSetup);
                }
                // A closed kan robbable by thirteen orphans (a rule variant): the
                // declarer's other three tiles are not dealt to it, so it is refused.
                if p.added_kan && !self.has_pon(p.from, p.tile) {
                    return Err(RuleError::BadSetup);
                }
                // A kita window: the north is in the declarer's kita count.
                let north = Tile::new(super::riichi_flow::legal::NORTH);
                if p.kita
                    && (Some(p.tile) != north || self.rh.kita.get(p.from as usize) == Some(&0))
                {
                    return Err(RuleError::BadSetup);
                }
                let window = Window::of(p.added_kan, p.kita);
                let (options, _) = self.claim_options(p.tile, p.from, window);
                self.claim = Claim {
                    tile: p.tile,
                    from: p.from,
                    robbing: p.added_kan && !p.kita,
                    kita: p.kita,
                    options,
                    answers: [None; MAX_PLAYERS],
                };
                self.drawn = None;
                self.after_call = false;
                if !self.claim.awaits(obs.seat as usize) {
                    return Err(RuleError::NotYourTurn);
                }
            }
            Phase::HandOver | Phase::GameOver => return Err(RuleError::HandOver),
        }
        Ok(())
    }
}
