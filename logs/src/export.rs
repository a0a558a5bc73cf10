//! Engine games into the log model: each hand's record replayed action by action,
//! the draws read from the engine's events, red fives from the wall as dealt and from
//! the red counts of the acting seat's hand (so the copy of a five an action gave up,
//! [`engine::game::FiveCopy`], is the one written).

use anyhow::{anyhow, Context, Result};
use engine::game::{Action, Event, Game, HandRecord, MeldKind};
use engine::Tile;

use super::replay::engine_outcome;
use super::{CallKind, GameLog, Kyoku, LogTile, Step};

/// The red five counts of `seat`'s concealed hand, per suit.
fn reds(game: &Game, seat: u8) -> [u8; 3] {
    game.red_fives_in_hand(seat)
}

fn suit_of(t: Tile) -> Option<usize> {
    (!t.is_honor() && t.number() == 5).then(|| t.suit().index())
}

/// Tracks the wall positions of the draws to know their red fives.
struct Wall {
    tiles: Vec<(Tile, bool)>,
    live: usize,
    rinshan: usize,
}

impl Wall {
    fn take(&mut self, replacement: bool) -> Option<(Tile, bool)> {
        let pos = if replacement {
            let p = self.tiles.len().checked_sub(11 + self.rinshan)?;
            self.rinshan += 1;
            p
        } else {
            let p = self.live;
            self.live += 1;
            p
        };
        self.tiles.get(pos).copied()
    }
}

/// Marks `n` of `tiles` (fives of a suit whose red left the hand) red.
fn mark_red(tiles: &mut [LogTile], removed: &mut [u8; 3]) {
    for t in tiles.iter_mut() {
        if let Some(s) = suit_of(t.tile) {
            if let Some(r) = removed.get_mut(s).filter(|r| **r > 0) {
                *r -= 1;
                t.red = true;
            }
        }
    }
}

/// One hand of an engine game as a log hand: the wall with its red fives, the deal,
/// then each action of the record replayed into steps, then the result.
pub fn kyoku(record: &HandRecord) -> Result<Kyoku> {
    let mut game = record.start().map_err(|e| anyhow!("{e}"))?;
    let tiles = dealt_wall(record);
    let len = tiles.len();
    let hands = deal(record, &tiles);
    let n = record.rules.players as usize;
    let mut wall = Wall {
        tiles,
        live: 13 * n,
        rinshan: 0,
    };
    let first = wall.take(false).context("the wall has no first draw")?;
    let mut steps = vec![Step::Draw {
        seat: record.dealer,
        tile: log_tile(first),
    }];
    let mut state = Tracker::default();
    for index in 0..record.actions.len() {
        export_action(record, index, &mut game, &mut wall, &mut state, &mut steps)?;
    }
    let result = game.riichi_result().context("the hand is not over")?;
    let nd = result.dora_indicators.len();
    let nu = result.ura_indicators.len();
    let indicator = |k: usize| wall.tiles.get(len - 10 + k).copied().map(log_tile);
    let ura_at = |k: usize| wall.tiles.get(len - 5 + k).copied().map(log_tile);
    let table = record.riichi.as_ref().map(|r| r.table).unwrap_or_default();
    Ok(Kyoku {
        round: table.round,
        dealer: record.dealer,
        honba: table.honba,
        sticks: table.sticks,
        scores: record.scores,
        hands,
        dora: (0..nd).filter_map(indicator).collect(),
        ura: (0..nu).filter_map(ura_at).collect(),
        steps,
        outcome: engine_outcome(&game),
    })
}

fn log_tile((tile, red): (Tile, bool)) -> LogTile {
    LogTile { tile, red }
}

/// The record's wall, each tile with its red flag.
fn dealt_wall(record: &HandRecord) -> Vec<(Tile, bool)> {
    let red_at = |i: usize| {
        record
            .riichi
            .as_ref()
            .is_some_and(|r| r.red.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1))
    };
    record
        .wall
        .iter()
        .enumerate()
        .map(|(i, &t)| (t, red_at(i)))
        .collect()
}

/// The starting hands by seat: thirteen tiles each from the wall's front, the dealer
/// first.
fn deal(record: &HandRecord, tiles: &[(Tile, bool)]) -> Vec<Vec<LogTile>> {
    let n = record.rules.players as usize;
    let mut hands = vec![Vec::new(); n];
    for k in 0..n {
        let seat = (record.dealer as usize + k) % n;
        if let (Some(h), Some(src)) = (hands.get_mut(seat), tiles.get(13 * k..13 * k + 13)) {
            *h = src.iter().copied().map(log_tile).collect();
        }
    }
    hands
}

/// Applies the record's action `index` to `game` and appends its steps: the actor's
/// own step, calls and wins from the events, then the draws that followed.
fn export_action(
    record: &HandRecord,
    index: usize,
    game: &mut Game,
    wall: &mut Wall,
    state: &mut Tracker,
    steps: &mut Vec<Step>,
) -> Result<()> {
    let Some(&(seat, action)) = record.actions.get(index) else {
        return Ok(());
    };
    let n = record.rules.players;
    let before: Vec<[u8; 3]> = (0..n).map(|s| reds(game, s)).collect();
    // The tile the seat just drew, with its red flag (none after a call).
    let drawn_before = match steps.last() {
        Some(Step::Draw { seat: s, tile }) if *s == seat => Some(*tile),
        _ => None,
    };
    // With the copy of a five the game gave up (the red one where a plain one was
    // held, when it was played with `Game::apply_with_copy`).
    let events = record
        .apply_action(game, index)
        .map_err(|e| anyhow!("record action {action} by seat {seat}: {e}"))?;
    let mut draws = Vec::new();
    for e in &events {
        if let Event::Drew {
            seat: s,
            replacement,
            ..
        } = *e
        {
            let t = wall.take(replacement).context("a draw past the wall")?;
            draws.push((s, t));
        }
    }
    // The red fives that left each seat's hand in this apply (a replacement draw of
    // the same seat may have brought one back).
    let removed = |s: u8| {
        let mut r = before.get(s as usize).copied().unwrap_or_default();
        for (x, y) in r.iter_mut().zip(reds(game, s)) {
            *x = x.saturating_sub(y);
        }
        for &(d, (t, red)) in &draws {
            if d == s && red {
                if let Some(x) = suit_of(t).and_then(|i| r.get_mut(i)) {
                    *x += 1;
                }
            }
        }
        r
    };
    if let Some(step) = state.own(game, seat, action, removed(seat), drawn_before)? {
        steps.push(step);
    }
    for e in &events {
        match *e {
            Event::Called { seat: s, meld }
                if !matches!(meld.kind, MeldKind::ClosedKan | MeldKind::AddedKan) =>
            {
                steps.push(state.call(s, meld, removed(s))?);
            }
            Event::Won { seat: s, from, .. } => steps.push(match from {
                Some(from) => Step::Ron { seat: s, from },
                None => Step::Tsumo { seat: s },
            }),
            _ => {}
        }
    }
    for (s, t) in draws {
        steps.push(Step::Draw {
            seat: s,
            tile: log_tile(t),
        });
    }
    Ok(())
}

/// What the export remembers between actions: the last discard and each seat's pons.
#[derive(Default)]
struct Tracker {
    last_discard: Option<(u8, LogTile)>,
    pons: Vec<(u8, Tile, Vec<LogTile>, u8)>,
}

impl Tracker {
    /// The step of a decision that takes effect at once (discards, closed and added
    /// kans, kita, nine terminals); claims and wins come from the engine's events.
    fn own(
        &mut self,
        game: &Game,
        seat: u8,
        action: Action,
        mut removed: [u8; 3],
        drawn: Option<LogTile>,
    ) -> Result<Option<Step>> {
        Ok(Some(match action {
            Action::Discard(t) | Action::Riichi(t) => {
                let red = suit_of(t).is_some_and(|s| removed.get(s).is_some_and(|&r| r > 0));
                let tile = LogTile { tile: t, red };
                let tsumogiri =
                    game.discards(seat).last().is_some_and(|d| d.tsumogiri) && drawn == Some(tile);
                self.last_discard = Some((seat, tile));
                Step::Discard {
                    seat,
                    tile,
                    tsumogiri,
                    riichi: matches!(action, Action::Riichi(_)),
                }
            }
            Action::ClosedKan(t) => {
                let mut tiles = vec![LogTile::plain(t); 4];
                mark_red(&mut tiles, &mut removed);
                Step::ClosedKan { seat, tiles }
            }
            Action::AddedKan(t) => {
                let mut added = [LogTile::plain(t)];
                mark_red(&mut added, &mut removed);
                let (_, _, pon, from) = self
                    .pons
                    .iter()
                    .find(|p| p.0 == seat && p.1 == t)
                    .cloned()
                    .context("an added kan without its pon")?;
                self.last_discard = Some((seat, added[0]));
                Step::AddedKan {
                    seat,
                    tile: added[0],
                    pon,
                    from,
                }
            }
            Action::Kita => Step::Kita { seat },
            Action::NineTerminals => Step::NineTerminals { seat },
            _ => return Ok(None),
        }))
    }

    /// The step of a chi, pon or open kan the engine carried out.
    fn call(&mut self, seat: u8, meld: engine::game::Meld, mut removed: [u8; 3]) -> Result<Step> {
        let (from, tile) = self.last_discard.context("a call without a discard")?;
        let (kind, mut consumed) = match meld.kind {
            MeldKind::Chi => {
                let c: Vec<LogTile> = (0..3u8)
                    .filter_map(|d| Tile::new(meld.tile.as_u8() + d))
                    .filter(|&t| t != tile.tile)
                    .map(LogTile::plain)
                    .collect();
                (CallKind::Chi, c)
            }
            MeldKind::Pon => (CallKind::Pon, vec![LogTile::plain(tile.tile); 2]),
            _ => (CallKind::OpenKan, vec![LogTile::plain(tile.tile); 3]),
        };
        mark_red(&mut consumed, &mut removed);
        if kind == CallKind::Pon {
            let mut all = consumed.clone();
            all.insert(0, tile);
            self.pons.push((seat, tile.tile, all, from));
        }
        Ok(Step::Call {
            seat,
            kind,
            from,
            tile,
            consumed,
        })
    }
}

/// Plays a whole game with `agents` from `Game::new(rules, seed)` and returns its log.
pub fn play_game<A: engine::bots::Agent>(
    rules: engine::Rules,
    seed: u64,
    agents: &mut [A],
    names: Vec<String>,
) -> Result<GameLog> {
    let mut game = Game::new(rules, seed).map_err(|e| anyhow!("{e}"))?;
    let mut kyokus = Vec::new();
    loop {
        engine::bots::play_hand(&mut game, agents).map_err(|e| anyhow!("{e}"))?;
        kyokus.push(kyoku(&game.hand_record())?);
        if game.is_over() {
            break;
        }
        game.start_next_hand().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(GameLog {
        names,
        rules,
        kyokus,
    })
}

/// A game of efficiency and random bots (`bot0`..`bot3`), the kinds alternating by seat
/// and their order by `seed`, so that calls, kans, riichi and wins all occur: the games
/// the round-trip tests and the committed case logs come from.
pub fn play_bots_game(rules: engine::Rules, seed: u64) -> Result<GameLog> {
    use engine::bots::{Agent, EfficiencyBot, RandomBot};
    let mut eff = [EfficiencyBot, EfficiencyBot];
    let mut rnd = [RandomBot::new(seed), RandomBot::new(seed ^ 0x9e37)];
    let [e0, e1] = &mut eff;
    let [r0, r1] = &mut rnd;
    let mut agents: Vec<&mut dyn Agent> = if seed % 2 == 0 {
        vec![e0, r0, e1, r1]
    } else {
        vec![r0, e0, r1, e1]
    };
    let names = (0..4).map(|s| format!("bot{s}")).collect();
    play_game(rules, seed, &mut agents, names)
}
