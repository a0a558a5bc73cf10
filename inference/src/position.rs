//! Positions typed by people or sent as JSON, turned into the engine's [`Observation`]
//! plus the seat's legal actions.
//!
//! # JSON position (`Position`)
//! ```json
//! {
//!   "rules": "four-player",
//!   "seat": 0,
//!   "dealer": 0,
//!   "hand": "123m456p789s11z345z",
//!   "drawn": "5z",
//!   "melds": ["", "pon:5p", "", "chi:345m"],
//!   "discards": ["9m1z", "2p", "", "7s"],
//!   "claim": { "tile": "3m", "from": 3, "added_kan": false },
//!   "scores": [25, 25, 25, 25],
//!   "hand_number": 0,
//!   "live_wall": 60
//! }
//! ```
//! Only `hand` is required. `rules` is a preset name (`four-player`, `sanma`; default
//! `four-player`). `melds` and `discards` are indexed by absolute seat. A meld is
//! `KIND:TILE` with KIND `chi` (lowest tile, or the three tiles `345m`), `pon`, `kan`
//! (open kan), `ckan` (closed kan) or `akan` (added kan); several melds are separated by
//! commas. Discards are mpsz in play order (claimed tiles belong to the claimer's meld
//! instead; a `claim` tile missing from the end of its discarder's row is appended
//! there). Without `claim` the observer is on turn; `drawn` defaults to the last tile
//! written in `hand` (set `"after_call": true` for a turn after a pon or chi, which has
//! no drawn tile). With `claim` the observer answers that discard. Unseen counts are
//! derived from everything visible; `live_wall` defaults to an estimate from the
//! number of discards. `scores` and `hand_number` only feed the model's global token.
//!
//! Under the riichi presets (`tenhou-sanma`, `tenhou-4p`, …) `hand` may name red fives
//! (`0p`), `dora` (the revealed dora indicators, mpsz) is required, and `riichi` (by
//! seat, the index of its riichi discard or `null`), `honba`, `sticks` and
//! `round_wind` are optional; the legal actions are then the engine's (riichi, yaku,
//! furiten) in a world dealt from the observation.
//!
//! # Game record (`{"record": HandRecord, "seat": N}`)
//! The engine's serde [`HandRecord`] replayed to its end; the observation and the exact
//! legal actions are those of `seat` (default: the first seat awaited).

use engine::game::{
    legal_actions_of, order_discards_by_rotation, Action, Discard, Game, HandRecord, Meld,
    MeldKind, Observation, PendingClaim, Phase, RiichiView, DISCARD_CAP,
};
use engine::notation::{parse_counts, parse_each, parse_each_with_reds, parse_with_reds};
use engine::rules::Rules;
use engine::tile::{Tile, TileCounts, NUM_TILE_TYPES};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A claimable discard the observer answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    /// The tile, mpsz (`"3m"`).
    pub tile: String,
    /// The discarding seat.
    pub from: u8,
    /// Whether it is the tile of an added kan (only ron may claim it).
    #[serde(default)]
    pub added_kan: bool,
}

/// A position in the documented JSON format (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Rules preset name.
    #[serde(default)]
    pub rules: Option<String>,
    /// The observing seat.
    #[serde(default)]
    pub seat: u8,
    /// The dealer.
    #[serde(default)]
    pub dealer: u8,
    /// The observer's closed hand in mpsz (drawn tile included).
    pub hand: String,
    /// The tile just drawn (must be in `hand`).
    #[serde(default)]
    pub drawn: Option<String>,
    /// The observer is on turn after a pon or chi (no drawn tile).
    #[serde(default)]
    pub after_call: bool,
    /// Melds by absolute seat.
    #[serde(default)]
    pub melds: Vec<String>,
    /// Discards by absolute seat, mpsz in play order.
    #[serde(default)]
    pub discards: Vec<String>,
    /// An open claim window on another seat's discard.
    #[serde(default)]
    pub claim: Option<ClaimSpec>,
    /// Scores by absolute seat (default: the rules' starting points).
    #[serde(default)]
    pub scores: Option<[i32; 4]>,
    /// Hand number from 0.
    #[serde(default)]
    pub hand_number: u16,
    /// Live-wall tiles left (default: estimated).
    #[serde(default)]
    pub live_wall: Option<u8>,
    /// Riichi presets: the revealed dora indicators in order, mpsz (required there).
    #[serde(default)]
    pub dora: Option<String>,
    /// Riichi presets: by absolute seat, the index of the seat's riichi discard in its
    /// row (`null`: no riichi).
    #[serde(default)]
    pub riichi: Vec<Option<u8>>,
    /// Riichi presets: the honba counter.
    #[serde(default)]
    pub honba: u8,
    /// Riichi presets: riichi sticks on the table.
    #[serde(default)]
    pub sticks: u8,
    /// Riichi presets: the round wind (0 East, 1 South, 2 West).
    #[serde(default)]
    pub round_wind: u8,
}

/// What a JSON document on stdin may hold.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum JsonInput {
    /// A recorded hand and the seat to advise.
    Record {
        /// The record.
        record: Box<HandRecord>,
        /// The seat (default: the first seat awaited).
        #[serde(default)]
        seat: Option<u8>,
    },
    /// A position.
    Position(Box<Position>),
}

fn perr(s: impl Into<String>) -> Error {
    Error::Position(s.into())
}

fn parse_tile(s: &str, rules: &Rules, what: &str) -> Result<Tile> {
    let mut tiles = Vec::new();
    parse_each(s.trim(), |t| {
        tiles.push(t);
        Ok(())
    })
    .map_err(|e| perr(format!("{what} {s:?}: {e}")))?;
    match tiles.as_slice() {
        [t] if rules.tile_set.contains(*t) => Ok(*t),
        [t] => Err(perr(format!(
            "{what} {t} does not exist in {}",
            rules.tile_set.name()
        ))),
        _ => Err(perr(format!(
            "{what} {s:?} must be exactly one tile (like 5p)"
        ))),
    }
}

/// Parses one meld `KIND:TILE` for `seat`.
pub fn parse_meld(s: &str, seat: u8, rules: &Rules) -> Result<Meld> {
    let (kind, tiles) = s
        .split_once(':')
        .ok_or_else(|| perr(format!("meld {s:?}: expected KIND:TILE like pon:5p")))?;
    let players = rules.players.max(1);
    let left = (seat + players - 1) % players;
    let other = (seat + 1) % players;
    let kind = match kind.trim() {
        "chi" => MeldKind::Chi,
        "pon" => MeldKind::Pon,
        "kan" | "open_kan" | "minkan" => MeldKind::OpenKan,
        "ckan" | "closed_kan" | "ankan" => MeldKind::ClosedKan,
        "akan" | "added_kan" | "kakan" => MeldKind::AddedKan,
        k => {
            return Err(perr(format!(
                "meld {s:?}: unknown kind {k:?} (chi, pon, kan, ckan, akan)"
            )))
        }
    };
    let tile = if kind == MeldKind::Chi {
        let mut ts = Vec::new();
        parse_each(tiles.trim(), |t| {
            ts.push(t);
            Ok(())
        })
        .map_err(|e| perr(format!("meld {s:?}: {e}")))?;
        ts.sort();
        let low = *ts
            .first()
            .ok_or_else(|| perr(format!("meld {s:?}: no tile")))?;
        let ok_seq = |low: Tile| !low.is_honor() && low.number() <= 7;
        let consecutive = ts
            .iter()
            .enumerate()
            .all(|(i, t)| t.index() == low.index() + i);
        if !(ok_seq(low) && (ts.len() == 1 || (ts.len() == 3 && consecutive))) {
            return Err(perr(format!(
                "meld {s:?}: a chi is a number sequence, given by its lowest tile (chi:3m) or all three (chi:345m)"
            )));
        }
        low
    } else {
        parse_tile(tiles, rules, &format!("meld {s:?}:"))?
    };
    if !rules.tile_set.contains(tile) {
        return Err(perr(format!("meld {s:?}: {tile} is not in the tile set")));
    }
    if kind == MeldKind::Chi && !rules.chi {
        return Err(perr(format!("meld {s:?}: these rules have no chi")));
    }
    let (from, claimed) = match kind {
        MeldKind::ClosedKan => (None, None),
        MeldKind::Chi => (Some(left), Some(tile)),
        _ => (Some(other), Some(tile)),
    };
    Ok(Meld {
        kind,
        tile,
        from,
        claimed,
    })
}

fn rules_for(name: Option<&str>) -> Result<Rules> {
    let name = name.unwrap_or("four-player");
    Rules::preset(name).ok_or_else(|| {
        perr(format!(
            "unknown rules preset {name:?} ({})",
            Rules::PRESET_NAMES.join(", ")
        ))
    })
}

/// The last tile written in an mpsz string.
fn last_tile(s: &str) -> Option<Tile> {
    let mut last = None;
    // Red fives (`0p`) read as fives.
    engine::notation::parse_each_with_reds(s, |t, _| {
        last = Some(t);
        Ok(())
    })
    .ok()?;
    last
}

/// Melds by absolute seat, as the observation holds them.
type SeatMelds = [heapless::Vec<Meld, 4>; 4];
/// Discard rows by absolute seat, as the observation holds them.
type SeatDiscards = [heapless::Vec<Discard, DISCARD_CAP>; 4];

/// A discard as text positions know it: no order, never claimed, not marked tsumogiri.
fn plain_discard(tile: Tile) -> Discard {
    Discard {
        tile,
        claimed: false,
        seq: 0,
        tsumogiri: false,
    }
}

impl Position {
    /// The observation of [`Position::seat`] and its legal actions. Every error says
    /// which field is wrong.
    ///
    /// Phases: rules and seats; the hand, dora, melds and discards parsed; the pending
    /// claim (its tile appended to the discarder's row); the tile count checked; the
    /// drawn tile; unseen counts from everything visible; the live wall estimated; then
    /// the legal actions (riichi presets through the engine's own world).
    pub fn to_observation(&self) -> Result<(Observation, Vec<Action>)> {
        let rules = rules_for(self.rules.as_deref())?;
        self.check_seats(&rules)?;
        let (hand, red_hand) = self.parse_hand(&rules)?;
        let dora = self.dora_indicators(&rules)?;
        let melds = self.parse_melds(&rules)?;
        let mut discards = self.parse_discards(&rules)?;
        let pending = self.parse_claim(&rules)?;
        // A claimable discard is the last tile of its discarder's row (as in the
        // engine); add it there when the position did not list it.
        if let Some(p) = pending.filter(|p| !p.added_kan) {
            let row = &mut discards[p.from as usize];
            if row.last().map(|d| d.tile) != Some(p.tile) {
                row.push(plain_discard(p.tile)).map_err(|_| {
                    perr(format!("seat {}: more than {DISCARD_CAP} discards", p.from))
                })?;
            }
        }
        // Text positions carry no discard order: reconstruct it from turn rotation.
        order_discards_by_rotation(
            &mut discards[..rules.players as usize],
            self.dealer,
            pending.filter(|p| !p.added_kan).map(|p| p.from),
        );
        self.check_tile_count(&hand, melds[self.seat as usize].len(), pending.is_some())?;
        let drawn = self.drawn_tile(&rules, &hand, pending.is_some())?;
        let unseen = unseen_counts(&rules, &hand, &melds, &discards, pending, &dora)?;
        let kans = melds.iter().flatten().filter(|m| m.kind.is_kan()).count() as u8;
        let live_wall = self
            .live_wall
            .unwrap_or_else(|| estimated_live_wall(&rules, &melds, &discards, drawn, kans));
        let obs = Observation {
            rules,
            seat: self.seat,
            dealer: self.dealer,
            hand_number: self.hand_number,
            phase: if pending.is_some() {
                Phase::Claim
            } else {
                Phase::Turn
            },
            turn: pending.map_or(self.seat, |p| p.from),
            hand,
            drawn,
            melds,
            discards,
            unseen,
            live_wall,
            kans,
            scores: self.scores.unwrap_or([rules.starting_points; 4]),
            pending,
            riichi: None,
        };
        if !rules.is_riichi() {
            let legal = legal_of(&obs)?;
            return Ok((obs, legal));
        }
        self.riichi_observation(obs, red_hand, dora)
    }

    /// The seat and dealer exist, and no seat list is longer than the table.
    fn check_seats(&self, rules: &Rules) -> Result<()> {
        let players = rules.players;
        if self.seat >= players || self.dealer >= players {
            return Err(perr(format!(
                "seat {} / dealer {} out of range for {players} players",
                self.seat, self.dealer
            )));
        }
        if self.melds.len() > players as usize || self.discards.len() > players as usize {
            return Err(perr(format!(
                "melds/discards list more than {players} seats"
            )));
        }
        Ok(())
    }

    /// The concealed hand's counts and (riichi presets) its red fives.
    fn parse_hand(&self, rules: &Rules) -> Result<(TileCounts, [u8; 3])> {
        if rules.is_riichi() {
            let h = parse_with_reds(&self.hand, rules.tile_set)
                .map_err(|e| perr(format!("hand {:?}: {e}", self.hand)))?;
            Ok((h.counts, h.red_fives))
        } else {
            let h = parse_counts(&self.hand, rules.tile_set)
                .map_err(|e| perr(format!("hand {:?}: {e}", self.hand)))?;
            Ok((h, [0; 3]))
        }
    }

    /// Every seat's melds (`KIND:TILE`, comma separated).
    fn parse_melds(&self, rules: &Rules) -> Result<SeatMelds> {
        let mut melds = SeatMelds::default();
        for (seat, text) in self.melds.iter().enumerate() {
            for m in text.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                let meld = parse_meld(m, seat as u8, rules)?;
                melds[seat]
                    .push(meld)
                    .map_err(|_| perr(format!("seat {seat} has more than 4 melds")))?;
            }
        }
        Ok(melds)
    }

    /// Every seat's discard row (mpsz), each tile in the tile set.
    fn parse_discards(&self, rules: &Rules) -> Result<SeatDiscards> {
        let mut discards = SeatDiscards::default();
        for (seat, text) in self.discards.iter().enumerate() {
            let mut overflow = false;
            parse_each(text, |tile| {
                overflow |= discards[seat].push(plain_discard(tile)).is_err();
                Ok(())
            })
            .map_err(|e| perr(format!("discards of seat {seat} {text:?}: {e}")))?;
            if overflow {
                return Err(perr(format!(
                    "seat {seat}: more than {DISCARD_CAP} discards"
                )));
            }
            if let Some(d) = discards[seat]
                .iter()
                .find(|d| !rules.tile_set.contains(d.tile))
            {
                return Err(perr(format!(
                    "discard {} of seat {seat} is not in the tile set",
                    d.tile
                )));
            }
        }
        Ok(discards)
    }

    /// The discard (or added kan) the observer answers, when there is one.
    fn parse_claim(&self, rules: &Rules) -> Result<Option<PendingClaim>> {
        let Some(c) = &self.claim else {
            return Ok(None);
        };
        let tile = parse_tile(&c.tile, rules, "claim tile")?;
        if c.from >= rules.players || c.from == self.seat {
            return Err(perr(format!(
                "claim from seat {}: must be another seat below {}",
                c.from, rules.players
            )));
        }
        Ok(Some(PendingClaim {
            tile,
            from: c.from,
            added_kan: c.added_kan,
            kita: false,
        }))
    }

    /// A turn holds 14 tiles, an answer to a claim 13, less three per own meld.
    fn check_tile_count(&self, hand: &TileCounts, own_melds: usize, claim: bool) -> Result<()> {
        let tiles: usize = hand.iter().map(|&c| c as usize).sum();
        let expected = if claim { 13 } else { 14 } - 3 * own_melds;
        if tiles != expected {
            return Err(perr(format!(
                "hand {:?} has {tiles} tiles; with {own_melds} meld(s) {} needs {expected}",
                self.hand,
                if claim { "answering a claim" } else { "a turn" }
            )));
        }
        Ok(())
    }

    /// The tile drawn this turn: `drawn`, else the last tile written in the hand; none
    /// when answering a claim or after a call.
    fn drawn_tile(&self, rules: &Rules, hand: &TileCounts, claim: bool) -> Result<Option<Tile>> {
        if claim || self.after_call {
            if self.drawn.is_some() {
                return Err(perr("drawn is only meaningful on a turn after a draw"));
            }
            return Ok(None);
        }
        let t = match &self.drawn {
            Some(s) => parse_tile(s, rules, "drawn tile")?,
            None => last_tile(&self.hand).ok_or_else(|| perr("empty hand"))?,
        };
        if hand[t.index()] == 0 {
            return Err(perr(format!("drawn tile {t} is not in the hand")));
        }
        Ok(Some(t))
    }
}

/// The copies nobody sees: the full set less the hand, melds, discards, a tile added
/// to a pon while it can be robbed, and the dora indicators. Too many visible copies
/// of a tile is an error.
fn unseen_counts(
    rules: &Rules,
    hand: &TileCounts,
    melds: &SeatMelds,
    discards: &SeatDiscards,
    pending: Option<PendingClaim>,
    dora: &[Tile],
) -> Result<TileCounts> {
    let mut seen: TileCounts = *hand;
    for m in melds.iter().flatten() {
        m.add_to(&mut seen);
    }
    let mut see = |t: Tile| seen[t.index()] = seen[t.index()].saturating_add(1);
    discards.iter().flatten().for_each(|d| see(d.tile));
    // The tile added to a pon is in the open while it can be robbed. A pending
    // discard is already in its row, so the engine's count (seen) holds.
    if let Some(p) = pending.filter(|p| p.added_kan) {
        see(p.tile);
    }
    dora.iter().for_each(|&t| see(t));
    let full = rules.tile_set.full_counts();
    if let Some(t) = Tile::all().find(|t| seen[t.index()] > full[t.index()]) {
        return Err(perr(format!(
            "{} copies of {t} are visible (hand, melds, discards, claim); at most {}",
            seen[t.index()],
            full[t.index()]
        )));
    }
    let mut unseen = [0u8; NUM_TILE_TYPES];
    for (u, (f, s)) in unseen.iter_mut().zip(full.iter().zip(seen)) {
        *u = f.saturating_sub(s);
    }
    Ok(unseen)
}

/// The live wall when a position does not give it: every discard followed a live
/// draw except those after a pon or chi; the current drawn tile is one more; each kan
/// moved one live tile to the dead wall.
fn estimated_live_wall(
    rules: &Rules,
    melds: &SeatMelds,
    discards: &SeatDiscards,
    drawn: Option<Tile>,
    kans: u8,
) -> u8 {
    let initial =
        rules.tile_set.num_tiles() as i64 - 13 * rules.players as i64 - rules.dead_wall as i64;
    let discarded: i64 = discards.iter().map(|d| d.len() as i64).sum();
    let calls = melds
        .iter()
        .flatten()
        .filter(|m| matches!(m.kind, MeldKind::Chi | MeldKind::Pon))
        .count() as i64;
    let draws = discarded - calls + drawn.is_some() as i64;
    (initial - draws.max(0) - kans as i64).clamp(0, u8::MAX as i64) as u8
}

impl Position {
    /// The revealed dora indicators (riichi presets; none for the others).
    fn dora_indicators(&self, rules: &Rules) -> Result<heapless::Vec<Tile, 5>> {
        let mut out = heapless::Vec::new();
        if !rules.is_riichi() {
            return Ok(out);
        }
        let text = self.dora.as_deref().ok_or_else(|| {
            perr("riichi presets need \"dora\": the revealed dora indicators (e.g. \"3p\")")
        })?;
        // A red five (`0p`) indicates like a plain one: its redness counts for nothing.
        parse_each_with_reds(text, |t, _red| {
            out.push(t)
                .map_err(|_| engine::notation::ParseError::TooManyTiles)
        })
        .map_err(|e| perr(format!("dora {text:?}: {e}")))?;
        if out.is_empty() || out.iter().any(|t| !rules.tile_set.contains(*t)) {
            return Err(perr(format!(
                "dora {text:?}: one to five indicators of the set"
            )));
        }
        Ok(out)
    }

    /// Adds the riichi view to `obs`; the legal actions are then the engine's in a world
    /// dealt from the observation (riichi legality — yaku, furiten, riichi discards —
    /// depends only on what the seat sees).
    fn riichi_observation(
        &self,
        mut obs: Observation,
        red_hand: [u8; 3],
        dora: heapless::Vec<Tile, 5>,
    ) -> Result<(Observation, Vec<Action>)> {
        let n = obs.rules.players;
        if self.riichi.len() > n as usize {
            return Err(perr(format!("riichi lists more than {n} seats")));
        }
        let mut declared = [None; 4];
        for (d, r) in declared.iter_mut().zip(&self.riichi) {
            *d = *r;
        }
        if self.scores.is_none() {
            // Everyone at the starting points, the sticks' deposits from seat 0.
            let cost = obs.rules.riichi.map_or(0, |r| r.riichi_cost);
            obs.scores[0] = obs.scores[0].wrapping_sub(cost.wrapping_mul(self.sticks as i32));
        }
        for s in obs.scores.iter_mut().skip(n as usize) {
            *s = 0;
        }
        obs.riichi = Some(RiichiView {
            declared,
            dora_indicators: dora,
            honba: self.honba,
            riichi_sticks: self.sticks,
            round_wind: self.round_wind,
            seat_wind: (self.seat + n - self.dealer % n) % n,
            red_hand,
            ..Default::default()
        });
        let legal = legal_of(&obs)?;
        Ok((obs, legal))
    }
}

/// The legal actions of the observing seat: the engine's own, in a world dealt from the
/// observation ([`legal_actions_of`]; under riichi rules yaku, furiten and riichi
/// discards included).
fn legal_of(obs: &Observation) -> Result<Vec<Action>> {
    let legal = legal_actions_of(obs).map_err(|e| {
        let riichi = if obs.rules.is_riichi() {
            ", dora, riichi discards, scores and sticks"
        } else {
            ""
        };
        perr(format!(
            "the position is not consistent ({e}): the hand, melds, discards, live \
             wall{riichi} must fit together"
        ))
    })?;
    Ok(legal.as_slice().to_vec())
}

/// Parses a JSON document (a [`Position`] or `{"record": …, "seat": …}`) into an
/// observation and its legal actions.
pub fn from_json(text: &str) -> Result<(Observation, Vec<Action>)> {
    let input: JsonInput = serde_json::from_str(text).map_err(|e| {
        perr(format!(
            "not a JSON position or {{\"record\": …}} document: {e} \
             (a position needs at least \"hand\"; see the inference crate's position module)"
        ))
    })?;
    match input {
        JsonInput::Position(p) => p.to_observation(),
        JsonInput::Record { record, seat } => {
            let game = record.replay().map_err(|e| perr(format!("record: {e}")))?;
            let seat = match seat {
                Some(s) => s,
                None => *game
                    .seats_to_act()
                    .first()
                    .ok_or_else(|| perr("record: no seat has a decision at its end"))?,
            };
            let obs = game
                .observation(seat)
                .map_err(|e| perr(format!("record seat {seat}: {e}")))?;
            Ok((obs, game.legal_actions(seat).as_slice().to_vec()))
        }
    }
}

/// Splits `"seat0:…;seat1:…"` into per-seat strings (length `players`); an entry
/// without a `seatN:` prefix belongs to `default_seat`.
pub fn per_seat(s: &str, players: u8, default_seat: u8, what: &str) -> Result<Vec<String>> {
    let mut out = vec![String::new(); players as usize];
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (seat, body) = match part.strip_prefix("seat") {
            Some(rest) => {
                let (n, body) = rest
                    .split_once(':')
                    .ok_or_else(|| perr(format!("{what} {part:?}: expected seatN:…")))?;
                let n: u8 = n
                    .trim()
                    .parse()
                    .map_err(|_| perr(format!("{what} {part:?}: bad seat number {n:?}")))?;
                (n, body)
            }
            None => (default_seat, part),
        };
        let slot = out
            .get_mut(seat as usize)
            .ok_or_else(|| perr(format!("{what} {part:?}: seat {seat} out of range")))?;
        if !slot.is_empty() {
            slot.push(if what == "melds" { ',' } else { ' ' });
        }
        slot.push_str(body);
    }
    Ok(out)
}

/// The rules preset `name` (for front-ends).
pub fn rules_preset(name: &str) -> Result<Rules> {
    rules_for(Some(name))
}

fn meld_kind_name(k: MeldKind) -> &'static str {
    match k {
        MeldKind::Chi => "chi",
        MeldKind::Pon => "pon",
        MeldKind::OpenKan => "kan",
        MeldKind::ClosedKan => "ckan",
        MeldKind::AddedKan => "akan",
    }
}

/// The observation as a JSON position (this module's format), defaults left out:
/// what a recorded position file holds (`firmware-demo/linux/positions.jsonl`,
/// `web/tests/positions.jsonl`). Non-riichi presets (the riichi state is not written).
pub fn observation_json(preset: &str, obs: &Observation) -> String {
    let players = obs.rules.players as usize;
    use serde_json::{json, Map, Value};
    let mut m = Map::new();
    m.insert("rules".into(), json!(preset));
    m.insert("seat".into(), json!(obs.seat));
    m.insert("dealer".into(), json!(obs.dealer));
    m.insert(
        "hand".into(),
        json!(engine::notation::Counts(&obs.hand).to_string()),
    );
    match (obs.drawn, &obs.pending) {
        (Some(t), _) => {
            m.insert("drawn".into(), json!(t.to_string()));
        }
        (None, None) => {
            m.insert("after_call".into(), json!(true));
        }
        (None, Some(_)) => {}
    }
    let melds: Vec<String> = obs.melds[..players]
        .iter()
        .map(|ms| {
            ms.iter()
                .map(|x| format!("{}:{}", meld_kind_name(x.kind), x.tile))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    if melds.iter().any(|s| !s.is_empty()) {
        m.insert("melds".into(), json!(melds));
    }
    // Claimed discards live in the claimer's meld (the position format's convention).
    let discards: Vec<String> = obs.discards[..players]
        .iter()
        .map(|ds| {
            ds.iter()
                .filter(|d| !d.claimed)
                .map(|d| d.tile.to_string())
                .collect()
        })
        .collect();
    m.insert("discards".into(), json!(discards));
    if let Some(p) = &obs.pending {
        let mut c = Map::new();
        c.insert("tile".into(), json!(p.tile.to_string()));
        c.insert("from".into(), json!(p.from));
        if p.added_kan {
            c.insert("added_kan".into(), json!(true));
        }
        m.insert("claim".into(), Value::Object(c));
    }
    m.insert("scores".into(), json!(obs.scores));
    if obs.hand_number != 0 {
        m.insert("hand_number".into(), json!(obs.hand_number));
    }
    m.insert("live_wall".into(), json!(obs.live_wall));
    Value::Object(m).to_string()
}

fn pick<T: Clone>(items: &[T], k: usize) -> Vec<T> {
    let n = items.len();
    (0..k.min(n))
        .map(|i| items[i * n / k.min(n)].clone())
        .collect()
}

/// Recorded positions for tests and demos: one hand per seed of `preset` (a
/// non-riichi preset) played by four efficiency bots, `per_hand` evenly spaced
/// decisions with at least two legal actions kept from each (up to `claims_per_hand`
/// of them claim windows), each as [`observation_json`]. Every position must read back
/// with exactly the legal actions the game offered, or this is an error.
pub fn self_play_positions(
    preset: &str,
    seeds: &[u64],
    per_hand: usize,
    claims_per_hand: usize,
) -> std::result::Result<Vec<String>, String> {
    use engine::bots::{Agent, EfficiencyBot};
    let rules = Rules::preset(preset).ok_or_else(|| format!("no preset {preset:?}"))?;
    let mut out = Vec::new();
    for &seed in seeds {
        let mut game = Game::new(rules, seed).map_err(|e| format!("seed {seed}: {e}"))?;
        let (mut turns, mut claims) = (Vec::new(), Vec::new());
        'hand: while matches!(game.phase(), Phase::Turn | Phase::Claim) {
            for seat in game.seats_to_act() {
                let obs = game.observation(seat).map_err(|e| e.to_string())?;
                let legal = game.legal_actions(seat);
                if legal.len() >= 2 {
                    let line = observation_json(preset, &obs);
                    let (_, derived) =
                        from_json(&line).map_err(|e| format!("{line} does not read back: {e}"))?;
                    let mut want: Vec<usize> = legal.iter().map(|a| a.index()).collect();
                    let mut got: Vec<usize> = derived.iter().map(|a| a.index()).collect();
                    want.sort_unstable();
                    got.sort_unstable();
                    if got != want {
                        return Err(format!("legal actions differ after read-back: {line}"));
                    }
                    if obs.pending.is_some() {
                        claims.push(line);
                    } else {
                        turns.push(line);
                    }
                }
                let action: Action = EfficiencyBot.act(&obs, &legal);
                game.apply(seat, action).map_err(|e| e.to_string())?;
                if !matches!(game.phase(), Phase::Turn | Phase::Claim) {
                    break 'hand;
                }
            }
        }
        let claims = pick(&claims, claims_per_hand);
        let turns = pick(&turns, per_hand - claims.len());
        if turns.len() + claims.len() != per_hand {
            return Err(format!("{preset} seed {seed}: too few decisions"));
        }
        out.extend(turns.into_iter().chain(claims));
    }
    Ok(out)
}
