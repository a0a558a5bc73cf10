//! The game as one seat sees it, followed event by event (mjai), and the engine
//! [`Observation`] of that seat built from it.
//!
//! Every field of the observation is derived from public facts or the seat's own
//! tiles, with the engine's definitions (`engine::game`): discards carry their order
//! (`seq`, every seat's discards of the hand together) and the tsumogiri flag (own
//! discards: the type of the tile just drawn; others': mjai's `tsumogiri`), an added
//! kan stays a pon while it can be robbed, a riichi stick goes down with
//! `reach_accepted`, ippatsu ends with any call, kan or kita, the live wall shrinks by
//! one with every draw (a replacement draw tops the dead wall up from it), and the own
//! furiten is the engine's: a winning tile among the own discards, one let pass since
//! the own last discard (temporary) or since the riichi (for the rest of the hand).
//!
//! One field can differ from the engine's view of the same game: another seat that drew
//! a red five and discarded a plain five of its type is tsumogiri for the engine (whose
//! discards name types, `Discard::tsumogiri`) and not for mjai, which reports what a
//! table shows (a tile from the hand); the view keeps mjai's.

use anyhow::{bail, ensure, Context, Result};
use engine::game::{
    waits, Discard, Meld, MeldKind, Observation, PendingClaim, Phase, RiichiView, DISCARD_CAP,
};
use engine::{Rules, Tile, TileCounts, NUM_TILE_TYPES};

use mahjong_logs::{CallKind, LogTile};

/// North's tile index (kita).
const NORTH: usize = 30;

fn five_suit(t: Tile) -> Option<usize> {
    (!t.is_honor() && t.number() == 5).then(|| t.suit().index())
}

/// One hand (kyoku) as the seat sees it.
#[derive(Clone, Debug)]
pub struct HandView {
    /// The rules of the game.
    pub rules: Rules,
    /// The observing seat.
    pub seat: u8,
    /// The hand number in the game, from 0.
    pub hand_number: u16,
    /// The dealer.
    pub dealer: u8,
    round: u8,
    honba: u8,
    sticks: u8,
    /// Scores by seat (riichi deposits taken off as their sticks go down).
    pub scores: [i32; 4],
    hand: TileCounts,
    red_hand: [u8; 3],
    /// The tile the seat just drew (none after a call).
    pub drawn: Option<LogTile>,
    melds: [heapless::Vec<Meld, 4>; 4],
    /// The physical tiles of each meld (for `kakan`'s `consumed`).
    meld_tiles: [Vec<Vec<LogTile>>; 4],
    red_melds: [[u8; 4]; 4],
    discards: [heapless::Vec<Discard, DISCARD_CAP>; 4],
    red_discards: [u64; 4],
    discarded: u64,
    dora: heapless::Vec<Tile, 5>,
    kita: [u8; 4],
    declared: [Option<u8>; 4],
    double: [bool; 4],
    ippatsu: [bool; 4],
    riichi_pending: [bool; 4],
    /// A call, kan or kita happened (the first go-around is over).
    calls: bool,
    /// What the game waits for, the seat on turn and the claimable tile.
    pub phase: Phase,
    /// The seat on turn (in a claim window: the discarder).
    pub turn: u8,
    /// The claim window's tile, with its red flag.
    pub pending: Option<(PendingClaim, LogTile)>,
    /// The next draw of each seat is a replacement draw (after its kan or kita).
    replacement_next: [bool; 4],
    /// The seat on turn is about to draw (at the deal, after a kan or kita): nobody
    /// decides before the `tsumo`.
    awaiting_draw: bool,
    /// The last draw was a replacement draw.
    rinshan: bool,
    draws: u16,
    kans: u8,
    seq: u8,
    temp_furiten: bool,
    riichi_furiten: bool,
    /// The open window's tile is a winning tile of the seat's hand (furiten once it
    /// passes).
    shape_pending: bool,
    /// An added kan waiting in its robbing window: seat, tile.
    robbing: Option<(u8, LogTile)>,
    /// The hand is over (`hora`, `ryukyoku`).
    pub over: bool,
    /// The seat answered the current decision (later lines that change nothing, such
    /// as `reach_accepted` or `dora`, ask nothing new).
    answered: bool,
}

/// The fields of a `start_kyoku` the view starts from.
pub struct Start {
    /// Round wind, dealer, honba, sticks.
    pub round: u8,
    /// The dealer.
    pub dealer: u8,
    /// Honba.
    pub honba: u8,
    /// Riichi sticks.
    pub sticks: u8,
    /// Scores by seat.
    pub scores: [i32; 4],
    /// The seat's 13 tiles.
    pub hand: Vec<LogTile>,
    /// The first dora indicator.
    pub dora: Tile,
}

impl HandView {
    /// The view at the deal.
    pub fn new(rules: Rules, seat: u8, hand_number: u16, start: Start) -> Result<HandView> {
        ensure!(
            start.hand.len() == 13,
            "the seat's starting hand has {} tiles, not 13",
            start.hand.len()
        );
        let mut v = HandView {
            rules,
            seat,
            hand_number,
            dealer: start.dealer,
            round: start.round,
            honba: start.honba,
            sticks: start.sticks,
            scores: start.scores,
            hand: [0; NUM_TILE_TYPES],
            red_hand: [0; 3],
            drawn: None,
            melds: Default::default(),
            meld_tiles: Default::default(),
            red_melds: [[0; 4]; 4],
            discards: Default::default(),
            red_discards: [0; 4],
            discarded: 0,
            dora: heapless::Vec::new(),
            kita: [0; 4],
            declared: [None; 4],
            double: [false; 4],
            ippatsu: [false; 4],
            riichi_pending: [false; 4],
            calls: false,
            phase: Phase::Turn,
            turn: start.dealer,
            pending: None,
            replacement_next: [false; 4],
            awaiting_draw: true,
            rinshan: false,
            draws: 0,
            kans: 0,
            seq: 0,
            temp_furiten: false,
            riichi_furiten: false,
            shape_pending: false,
            robbing: None,
            over: false,
            answered: false,
        };
        let _ = v.dora.push(start.dora);
        for t in start.hand {
            v.add(t)?;
        }
        Ok(v)
    }

    fn players(&self) -> u8 {
        self.rules.players
    }

    fn check_seat(&self, s: u8) -> Result<()> {
        ensure!(
            s < self.players(),
            "seat {s} in a {}-player game",
            self.players()
        );
        Ok(())
    }

    /// The seat's closed hand, the drawn tile included.
    pub fn hand(&self) -> &TileCounts {
        &self.hand
    }

    /// Red fives in the seat's closed hand, per suit.
    pub fn red_hand(&self) -> [u8; 3] {
        self.red_hand
    }

    fn add(&mut self, t: LogTile) -> Result<()> {
        let c = self.hand.get_mut(t.tile.index()).context("tile index")?;
        ensure!(*c < 4, "the hand would hold a fifth {}", t.mpsz());
        *c += 1;
        if let (true, Some(s)) = (t.red, five_suit(t.tile)) {
            self.red_hand[s] += 1;
        }
        Ok(())
    }

    fn remove(&mut self, t: LogTile) -> Result<()> {
        let held = self.hand.get(t.tile.index()).copied().unwrap_or(0);
        let reds = five_suit(t.tile).map_or(0, |s| self.red_hand[s]);
        let ok = if t.red { reds > 0 } else { held > reds };
        ensure!(
            ok,
            "the seat's hand holds no {} ({})",
            t.mpsz(),
            mahjong_logs::mjai::tile_name(t)
        );
        self.hand[t.tile.index()] -= 1;
        if let (true, Some(s)) = (t.red, five_suit(t.tile)) {
            self.red_hand[s] -= 1;
        }
        Ok(())
    }

    /// The physical tile `apply` gives up for a tile of type `t`: a plain copy while
    /// one is held, else the red five.
    pub fn copy_to_give(&self, t: Tile, already: &[LogTile]) -> LogTile {
        let held = self.hand.get(t.index()).copied().unwrap_or(0);
        let reds = five_suit(t).map_or(0, |s| self.red_hand[s]);
        let taken = already.iter().filter(|x| x.tile == t).count() as u8;
        let plain_left = held.saturating_sub(reds).saturating_sub(taken);
        LogTile {
            tile: t,
            red: plain_left == 0 && reds > 0,
        }
    }

    /// Whether the seat's riichi is declared (its riichi discard made): from then on
    /// only the drawn tile may go.
    pub fn in_riichi(&self) -> bool {
        self.declared
            .get(self.seat as usize)
            .is_some_and(Option::is_some)
    }

    /// The physical tiles of the seat's pon of `t` (for an added kan).
    pub fn pon_tiles(&self, t: Tile) -> Option<Vec<LogTile>> {
        let s = self.seat as usize;
        self.melds[s]
            .iter()
            .zip(&self.meld_tiles[s])
            .find(|(m, _)| m.kind == MeldKind::Pon && m.tile == t)
            .map(|(_, tiles)| tiles.clone())
    }

    /// The waits of the seat's 13-tile hand.
    fn own_waits(&self) -> u64 {
        let melds = self.melds[self.seat as usize].len() as u8;
        waits(&self.rules, &self.hand, melds)
    }

    /// A claim window closed without the seat's win: a winning tile let pass makes
    /// the seat furiten (engine: `mark_missed_wins`).
    fn close_window(&mut self) {
        if self.phase == Phase::Claim {
            // Until the next event says who moves (a draw or a call), nobody decides.
            self.phase = Phase::Turn;
            self.awaiting_draw = true;
        }
        if std::mem::take(&mut self.shape_pending) {
            self.temp_furiten = true;
            if self.declared[self.seat as usize].is_some() {
                self.riichi_furiten = true;
            }
        }
        // A kita window ends ippatsu only now (the engine keeps it for a ron on it).
        if self.pending.take().is_some_and(|(p, _)| p.kita) {
            self.interrupt();
        }
        if let Some((s, t)) = self.robbing.take() {
            self.complete_added_kan(s, t);
        }
    }

    /// A call, kan or kita: ippatsu ends for everyone, the first go-around is over.
    fn interrupt(&mut self) {
        self.calls = true;
        self.ippatsu = [false; 4];
    }

    /// `tsumo`: `tile` is `None` for another seat's hidden draw.
    pub fn draw(&mut self, actor: u8, tile: Option<LogTile>) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        self.close_window();
        let replacement = std::mem::take(&mut self.replacement_next[actor as usize]);
        self.rinshan = replacement;
        self.awaiting_draw = false;
        self.draws += 1;
        self.phase = Phase::Turn;
        self.turn = actor;
        if actor == self.seat {
            let t = tile.context("the seat's own draw is hidden (\"?\")")?;
            self.add(t)?;
            self.drawn = Some(t);
        } else {
            self.drawn = None;
        }
        Ok(())
    }

    /// `reach`: the actor's next discard declares riichi.
    pub fn reach(&mut self, actor: u8) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        ensure!(
            self.phase == Phase::Turn && self.turn == actor,
            "reach by seat {actor}, which is not on turn"
        );
        self.riichi_pending[actor as usize] = true;
        Ok(())
    }

    /// `reach_accepted`: the stick goes down (nobody won on the riichi discard; it may
    /// still be called).
    pub fn reach_accepted(&mut self, actor: u8) -> Result<()> {
        self.check_seat(actor)?;
        let cost = self.rules.riichi.map_or(0, |r| r.riichi_cost);
        self.scores[actor as usize] -= cost;
        self.sticks = self.sticks.saturating_add(1);
        Ok(())
    }

    /// `dahai`.
    pub fn discard(&mut self, actor: u8, tile: LogTile, tsumogiri: bool) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        ensure!(
            self.phase == Phase::Turn && self.turn == actor,
            "dahai by seat {actor}, which is not on turn"
        );
        let s = actor as usize;
        let own = actor == self.seat;
        let tsumogiri = if own {
            self.remove(tile)?;
            self.temp_furiten = false;
            self.drawn.is_some_and(|d| d.tile == tile.tile)
        } else {
            tsumogiri
        };
        let riichi = std::mem::take(&mut self.riichi_pending[s]);
        let first = !self.calls && self.discards[s].is_empty();
        let index = self.discards[s].len();
        self.discards[s]
            .push(Discard {
                tile: tile.tile,
                claimed: false,
                seq: self.seq,
                tsumogiri,
            })
            .map_err(|_| anyhow::anyhow!("seat {actor} has too many discards"))?;
        self.seq = self.seq.saturating_add(1);
        if tile.red {
            self.red_discards[s] |= 1 << index;
        }
        if own {
            self.discarded |= 1 << tile.tile.index();
        }
        if riichi {
            self.declared[s] = Some(index as u8);
            self.double[s] = first;
        }
        self.ippatsu[s] = riichi;
        self.drawn = None;
        self.open_window(actor, tile, false, false);
        Ok(())
    }

    /// A claim window on `tile` from `from`: a discard, the tile of a kan being robbed
    /// (`added_kan`) or a north set aside (`kita`; only ron, no chankan).
    fn open_window(&mut self, from: u8, tile: LogTile, added_kan: bool, kita: bool) {
        self.phase = Phase::Claim;
        self.turn = from;
        self.pending = Some((
            PendingClaim {
                tile: tile.tile,
                from,
                added_kan,
                kita,
            },
            tile,
        ));
        self.shape_pending = from != self.seat && self.own_waits() >> tile.tile.index() & 1 == 1;
    }

    /// `chi`, `pon`, `daiminkan` on `target`'s discard `tile`.
    pub fn call(
        &mut self,
        actor: u8,
        kind: CallKind,
        target: u8,
        tile: LogTile,
        consumed: &[LogTile],
    ) -> Result<()> {
        self.check_seat(actor)?;
        self.check_seat(target)?;
        self.answered = false;
        let pending = self.pending.map(|(p, _)| p);
        ensure!(
            pending.is_some_and(|p| p.from == target && p.tile == tile.tile && !p.added_kan),
            "{kind:?} of {} from seat {target}, which is not the claimable discard",
            tile.mpsz()
        );
        let want = if kind == CallKind::OpenKan { 3 } else { 2 };
        ensure!(
            consumed.len() == want,
            "{kind:?} consumes {} tiles, not {want}",
            consumed.len()
        );
        self.close_window();
        if actor == self.seat {
            for &t in consumed {
                self.remove(t)?;
            }
        }
        if let Some(d) = self.discards[target as usize].last_mut() {
            d.claimed = true;
        }
        let (mk, low) = match kind {
            CallKind::Chi => {
                let low = consumed.iter().map(|t| t.tile).fold(tile.tile, Ord::min);
                (MeldKind::Chi, low)
            }
            CallKind::Pon => (MeldKind::Pon, tile.tile),
            CallKind::OpenKan => (MeldKind::OpenKan, tile.tile),
        };
        let mut tiles = vec![tile];
        tiles.extend_from_slice(consumed);
        self.add_meld(
            actor,
            Meld {
                kind: mk,
                tile: low,
                from: Some(target),
                claimed: Some(tile.tile),
            },
            tiles,
        )?;
        self.phase = Phase::Turn;
        self.turn = actor;
        self.drawn = None;
        // A pon or chi discards next; an open kan draws its replacement first.
        self.awaiting_draw = kind == CallKind::OpenKan;
        if kind == CallKind::OpenKan {
            self.replacement_next[actor as usize] = true;
        }
        Ok(())
    }

    fn add_meld(&mut self, actor: u8, meld: Meld, tiles: Vec<LogTile>) -> Result<()> {
        let s = actor as usize;
        let index = self.melds[s].len();
        self.melds[s]
            .push(meld)
            .map_err(|_| anyhow::anyhow!("seat {actor} would have a fifth meld"))?;
        self.red_melds[s][index] = tiles.iter().filter(|t| t.red).count() as u8;
        self.meld_tiles[s].push(tiles);
        if meld.kind.is_kan() {
            self.kans += 1;
        }
        self.interrupt();
        Ok(())
    }

    /// `ankan` of `consumed` (four tiles).
    pub fn closed_kan(&mut self, actor: u8, consumed: &[LogTile]) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        self.check_own_turn(actor, "ankan")?;
        let t = consumed.first().context("ankan without tiles")?.tile;
        ensure!(
            consumed.len() == 4 && consumed.iter().all(|x| x.tile == t),
            "ankan consumes four tiles of one type"
        );
        if actor == self.seat {
            for &x in consumed {
                self.remove(x)?;
            }
        }
        let meld = Meld {
            kind: MeldKind::ClosedKan,
            tile: t,
            from: None,
            claimed: None,
        };
        self.add_meld(actor, meld, consumed.to_vec())?;
        self.drawn = None;
        self.replacement_next[actor as usize] = true;
        self.awaiting_draw = true;
        Ok(())
    }

    fn check_own_turn(&self, actor: u8, what: &str) -> Result<()> {
        ensure!(
            self.phase == Phase::Turn && self.turn == actor,
            "{what} by seat {actor}, which is not on turn"
        );
        Ok(())
    }

    /// `kakan` of `tile` onto the actor's pon: a robbing window first when the rules
    /// allow robbing a kan; the kan is made when it closes.
    pub fn added_kan(&mut self, actor: u8, tile: LogTile) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        self.check_own_turn(actor, "kakan")?;
        let s = actor as usize;
        ensure!(
            self.melds[s]
                .iter()
                .any(|m| m.kind == MeldKind::Pon && m.tile == tile.tile),
            "kakan of {} without a pon of it",
            tile.mpsz()
        );
        if actor == self.seat {
            self.remove(tile)?;
        }
        self.drawn = None;
        self.replacement_next[s] = true;
        if self.rules.rob_kan {
            self.robbing = Some((actor, tile));
            self.open_window(actor, tile, true, false);
        } else {
            self.complete_added_kan(actor, tile);
        }
        Ok(())
    }

    fn complete_added_kan(&mut self, actor: u8, tile: LogTile) {
        let s = actor as usize;
        let found = self.melds[s]
            .iter()
            .position(|m| m.kind == MeldKind::Pon && m.tile == tile.tile);
        if let Some(i) = found {
            self.melds[s][i].kind = MeldKind::AddedKan;
            self.red_melds[s][i] += tile.red as u8;
            if let Some(t) = self.meld_tiles[s].get_mut(i) {
                t.push(tile);
            }
            self.kans += 1;
            self.interrupt();
        }
        self.phase = Phase::Turn;
        self.turn = actor;
        self.awaiting_draw = true;
    }

    /// `nukidora` / `kita`: a north set aside, a replacement draw next.
    pub fn kita(&mut self, actor: u8) -> Result<()> {
        self.check_seat(actor)?;
        self.answered = false;
        self.check_own_turn(actor, "kita")?;
        if actor == self.seat {
            let north = Tile::new(NORTH as u8).context("north")?;
            self.remove(LogTile::plain(north))?;
        }
        self.kita[actor as usize] += 1;
        self.drawn = None;
        self.replacement_next[actor as usize] = true;
        self.awaiting_draw = true;
        // Another seat's north may be won on (Tenhou and Mahjong Soul): a window, closed
        // by the replacement draw that follows when nobody takes it; ippatsu holds for
        // a ron on it and ends when it closes.
        if actor == self.seat {
            self.interrupt();
        } else {
            self.calls = true;
            let north = Tile::new(NORTH as u8).context("north")?;
            self.open_window(actor, LogTile::plain(north), false, true);
        }
        Ok(())
    }

    /// `dora`: a kan dora indicator revealed.
    pub fn dora(&mut self, t: Tile) -> Result<()> {
        self.dora
            .push(t)
            .map_err(|_| anyhow::anyhow!("a sixth dora indicator"))
    }

    /// The hand ended (`hora`, `ryukyoku`).
    pub fn end(&mut self) {
        self.over = true;
        self.pending = None;
        self.robbing = None;
    }

    /// The seat answered the decision of this moment.
    pub fn mark_answered(&mut self) {
        self.answered = true;
    }

    /// Whether the seat may have a decision now (not answered yet): on turn after a
    /// draw or a call, or in another seat's claim window.
    pub fn may_decide(&self) -> bool {
        !self.over
            && !self.answered
            && match self.phase {
                Phase::Turn => self.turn == self.seat && !self.awaiting_draw,
                Phase::Claim => self.turn != self.seat,
                _ => false,
            }
    }

    /// The seat's observation (the engine's `Game::observation` of the same moment).
    pub fn observation(&self) -> Result<Observation> {
        let n = self.players() as usize;
        let on_turn = self.phase == Phase::Turn && self.turn == self.seat;
        let mut seen = self.hand;
        for m in self.melds.iter().flatten() {
            m.add_to(&mut seen);
        }
        for d in self.discards.iter().flatten().filter(|d| !d.claimed) {
            seen[d.tile.index()] += 1;
        }
        if let Some((p, _)) = self.pending.filter(|(p, _)| p.added_kan) {
            seen[p.tile.index()] += 1;
        }
        for t in &self.dora {
            seen[t.index()] += 1;
        }
        seen[NORTH] += self.kita.iter().sum::<u8>();
        let full = self.rules.tile_set.full_counts();
        let mut unseen = [0u8; NUM_TILE_TYPES];
        for (i, u) in unseen.iter_mut().enumerate() {
            ensure!(
                seen[i] <= full[i],
                "{} copies of {} are visible",
                seen[i],
                Tile::new(i as u8).map_or("?".into(), |t| t.to_string())
            );
            *u = full[i] - seen[i];
        }
        let initial = self.rules.tile_set.num_tiles() - 13 * n - self.rules.dead_wall as usize;
        let live_wall = initial
            .checked_sub(self.draws as usize)
            .context("more draws than the live wall holds")?;
        let mut scores = self.scores;
        for s in scores.iter_mut().skip(n) {
            *s = 0;
        }
        let furiten = !on_turn
            && (self.temp_furiten || self.riichi_furiten || self.own_waits() & self.discarded != 0);
        let riichi = self.rules.is_riichi().then(|| RiichiView {
            declared: self.declared,
            kita: self.kita,
            dora_indicators: self.dora.clone(),
            honba: self.honba,
            riichi_sticks: self.sticks,
            round_wind: self.round,
            seat_wind: (self.seat + self.players() - self.dealer) % self.players(),
            red_hand: self.red_hand,
            red_melds: self.red_melds,
            red_discards: self.red_discards,
            furiten,
            double: self.double,
            ippatsu: self.ippatsu,
            rinshan: self.phase == Phase::Turn && self.rinshan,
            result: None,
        });
        if self.over {
            bail!("the hand is over");
        }
        Ok(Observation {
            rules: self.rules,
            seat: self.seat,
            dealer: self.dealer,
            hand_number: self.hand_number,
            phase: self.phase,
            turn: self.turn,
            hand: self.hand,
            drawn: if on_turn {
                self.drawn.map(|d| d.tile)
            } else {
                None
            },
            melds: self.melds.clone(),
            discards: self.discards.clone(),
            unseen,
            live_wall: u8::try_from(live_wall).context("live wall")?,
            kans: self.kans,
            scores,
            pending: self.pending.map(|(p, _)| p),
            riichi,
        })
    }
}
