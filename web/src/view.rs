//! The table as one seat sees it, in the plain terms a page draws: tiles in mpsz (`0`
//! for a red five), per seat in absolute seat order.

use engine::game::{Meld, MeldKind, Observation};
use engine::notation::{CountsWithReds, HandWithReds};
use engine::Tile;
use serde::Serialize;

/// One discard in a seat's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiscardView {
    /// The tile, mpsz.
    pub tile: String,
    /// Claimed by another seat (drawn greyed: it now lies in that seat's meld).
    pub claimed: bool,
    /// The seat's riichi declaration tile (drawn sideways).
    pub riichi: bool,
}

/// What a page draws of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// Players at the table (3 or 4).
    pub players: u8,
    /// The observing seat.
    pub seat: u8,
    /// The dealer.
    pub dealer: u8,
    /// The observer's closed hand, mpsz with red fives, drawn tile included.
    pub hand: String,
    /// The tile just drawn, if any.
    pub drawn: Option<String>,
    /// Each seat's melds, each a list of tiles.
    pub melds: Vec<Vec<Vec<String>>>,
    /// Each seat's discards in play order.
    pub discards: Vec<Vec<DiscardView>>,
    /// The revealed dora indicators, mpsz (riichi rules; empty otherwise).
    pub dora: Vec<String>,
    /// Scores by seat.
    pub scores: Vec<i32>,
    /// Live-wall tiles left.
    pub live_wall: u8,
    /// The discard being answered (a claim window), if any.
    pub claim: Option<String>,
}

fn mpsz(t: Tile, red: bool) -> String {
    let n = if red { 0 } else { t.number() };
    format!("{n}{}", t.suit().letter())
}

fn meld_tiles(m: &Meld, reds: u8) -> Vec<String> {
    let tiles: Vec<Tile> = match m.kind {
        MeldKind::Chi => (0..3)
            .filter_map(|k| Tile::new(m.tile.as_u8() + k))
            .collect(),
        MeldKind::Pon => vec![m.tile; 3],
        MeldKind::ClosedKan | MeldKind::OpenKan | MeldKind::AddedKan => vec![m.tile; 4],
    };
    let mut reds_left = reds;
    tiles
        .into_iter()
        .map(|t| {
            let red = reds_left > 0 && t.number() == 5 && !t.is_honor();
            if red {
                reds_left -= 1;
            }
            mpsz(t, red)
        })
        .collect()
}

/// The view of `obs`.
pub fn table_view(obs: &Observation) -> TableView {
    let players = obs.rules.players;
    let riichi = obs.riichi.as_ref();
    let hand = HandWithReds {
        counts: obs.hand,
        red_fives: riichi.map_or([0; 3], |r| r.red_hand),
    };
    let seats = 0..usize::from(players);
    TableView {
        players,
        seat: obs.seat,
        dealer: obs.dealer,
        hand: CountsWithReds(&hand).to_string(),
        drawn: obs.drawn.map(|t| t.to_string()),
        melds: seats
            .clone()
            .map(|s| {
                obs.melds[s]
                    .iter()
                    .enumerate()
                    .map(|(k, m)| meld_tiles(m, riichi.map_or(0, |r| r.red_melds[s][k])))
                    .collect()
            })
            .collect(),
        discards: seats
            .clone()
            .map(|s| {
                let declared = riichi.and_then(|r| r.declared[s]);
                obs.discards[s]
                    .iter()
                    .enumerate()
                    .map(|(i, d)| DiscardView {
                        tile: d.tile.to_string(),
                        claimed: d.claimed,
                        riichi: declared == Some(i as u8),
                    })
                    .collect()
            })
            .collect(),
        dora: riichi.map_or(Vec::new(), |r| {
            r.dora_indicators.iter().map(|t| t.to_string()).collect()
        }),
        scores: obs.scores[..usize::from(players)].to_vec(),
        live_wall: obs.live_wall,
        claim: obs.pending.as_ref().map(|p| p.tile.to_string()),
    }
}
