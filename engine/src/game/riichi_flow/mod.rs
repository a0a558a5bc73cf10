//! The riichi game flow on top of the simple state machine, active when
//! [`Rules::riichi`](crate::Rules::riichi) is set (the rules and their sources are in
//! [`crate::rules::riichi_rules`]).
//!
//! The simple presets never reach any of this code: every hook in `apply`, `legal` and
//! `state` is behind `rules.riichi`, so their play, records and golden hashes are
//! unchanged.
//!
//! - [`wall`]: red fives in the wall, dora indicators, replacement draws with a fixed
//!   block of indicators (the dead wall of 14: 10 indicator tiles, 4 replacement tiles,
//!   topped up from the live wall).
//! - [`legal`]: waits and furiten, riichi, kita, nine terminals, yaku-required wins.
//! - [`win`]: the [`WinInput`](crate::score::WinInput) of a win, settlement of wins
//!   (double ron, honba, sticks), exhaustive draws (tenpai payments, nagashi mangan) and
//!   abortive draws.
//! - [`flow`]: after a hand: honba, dealer continuation, round wind, game end.

pub(crate) mod flow;
pub(crate) mod legal;
pub(crate) mod wall;
pub(crate) mod win;

use serde::{Deserialize, Serialize};

use crate::score::Score;
use crate::tile::Tile;

use super::caps::MAX_PLAYERS;
use super::fives::RedCopies;

/// Game-level riichi counters, carried from hand to hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Table {
    /// The round wind: 0 East, 1 South, 2 West, 3 North.
    pub round: u8,
    /// The honba counter.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub sticks: u8,
}

/// A riichi hand from hand strings ([`Game::from_riichi_setup`](super::Game::from_riichi_setup)); `0m`/`0p`/`0s` are
/// red fives.
#[derive(Clone, Copy, Debug, Default)]
pub struct RiichiSetup<'a> {
    /// The 13 tiles of each seat.
    pub hands: &'a [&'a str],
    /// The first live-wall tiles in draw order (the dealer's first draw first).
    pub live: &'a str,
    /// The replacement draws (kan and kita) in order.
    pub rinshan: &'a str,
    /// The dora indicators in reveal order (the first is shown at the deal).
    pub dora: &'a str,
    /// The ura dora indicators in order.
    pub ura: &'a str,
    /// The dealer seat.
    pub dealer: u8,
    /// Round wind, honba and sticks.
    pub table: Table,
    /// Scores (`None`: everyone at the starting points, less the sticks' deposits from
    /// seat 0).
    pub scores: Option<[i32; 4]>,
}

/// Per-hand riichi state (reset by every deal).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct RiichiHand {
    /// For each seat that declared riichi: the index of the declaring discard in its row.
    pub declared: [Option<u8>; MAX_PLAYERS],
    /// The riichi was a double riichi.
    pub double: [bool; MAX_PLAYERS],
    /// Ippatsu is still possible.
    pub ippatsu: [bool; MAX_PLAYERS],
    /// The riichi discard of the claim window's discarder awaits its claims; its stick
    /// is put down when nobody wins on it.
    pub stick_pending: bool,
    /// Temporary furiten: a winning tile passed since the seat's last discard.
    pub furiten_temp: [bool; MAX_PLAYERS],
    /// Riichi furiten: a winning tile passed after riichi (for the rest of the hand).
    pub furiten_riichi: [bool; MAX_PLAYERS],
    /// Tile types each seat has discarded this hand (claimed ones included).
    pub discarded: [u64; MAX_PLAYERS],
    /// Norths set aside.
    pub kita: [u8; MAX_PLAYERS],
    /// Dora indicators revealed (1..=5).
    pub dora: u8,
    /// Kan dora of open and added kans that reveal at their declarer's next discard.
    pub dora_pending: u8,
    /// A call, kan or kita happened this hand (the first go-around is interrupted).
    pub calls: bool,
    /// Bit `seat`: the seat declared a kan this hand (for the four-kan abort).
    pub kan_seats: u8,
    /// Red fives in each seat's concealed hand, per suit (man, pin, sou).
    pub red_hand: [[u8; 3]; MAX_PLAYERS],
    /// Red fives in each meld of each seat.
    pub red_melds: [[u8; 4]; MAX_PLAYERS],
    /// Bit `i`: discard `i` of the seat's row is a red five.
    pub red_discards: [u64; MAX_PLAYERS],
    /// The tile of the open claim window is a red five.
    pub red_claim: bool,
    /// The seat on turn holds a replacement tile (kan or kita) as its drawn tile.
    pub rinshan: bool,
    /// Each seat's last claim answer gives up a red five first (`Game::apply_with_copy`).
    pub claim_red: [bool; MAX_PLAYERS],
    /// Actions of this hand that gave up a red five `apply` would have kept.
    pub red_copies: RedCopies,
}

/// How a riichi hand ended without a win.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum DrawKind {
    /// The live wall ran out (tenpai payments or nagashi mangan).
    Exhaustive,
    /// Nine terminals and honours declared (九種九牌).
    NineTerminals,
    /// The first four discards were the same wind (四風連打).
    FourWinds,
    /// The fourth riichi stick was put down (四家立直).
    FourRiichi,
    /// Four kans by more than one player (四開槓).
    FourKans,
    /// Three players won on one discard (三家和).
    TripleRon,
}

/// One scored win of a riichi hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RiichiWin {
    /// The winner.
    pub seat: u8,
    /// The discarder (or the player whose added kan was robbed); `None` for tsumo.
    pub from: Option<u8>,
    /// The winning tile.
    pub tile: Tile,
    /// Yaku, han, fu, limit, dora counts and the payment (honba and the sticks
    /// included for the winner who takes them) as the scorer computes it, before pao.
    pub score: Score,
    /// The player liable for the win by pao (daisangen or daisuushii,
    /// [`RiichiRules::pao`](crate::RiichiRules::pao)); the result's deltas include it.
    pub pao: Option<u8>,
}

/// The outcome of a riichi hand, public once the hand is over.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RiichiResult {
    /// The wins in turn order from the discarder (empty for a draw).
    pub wins: heapless::Vec<RiichiWin, 3>,
    /// How the hand was drawn (`None` for a win).
    pub draw: Option<DrawKind>,
    /// Seats tenpai at an exhaustive draw.
    pub tenpai: [bool; MAX_PLAYERS],
    /// Seats paid nagashi mangan.
    pub nagashi: [bool; MAX_PLAYERS],
    /// Every seat's score change by the settlement (the riichi sticks taken included;
    /// the deposits made during the hand are not).
    pub deltas: [i32; MAX_PLAYERS],
    /// The dora indicators revealed.
    pub dora_indicators: heapless::Vec<Tile, 5>,
    /// The ura dora indicators, shown when a riichi hand won.
    pub ura_indicators: heapless::Vec<Tile, 5>,
    /// The honba of the hand.
    pub honba: u8,
    /// Riichi sticks taken by the winner.
    pub sticks_taken: u8,
}

/// The public riichi state a seat sees ([`Observation::riichi`](super::Observation)).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RiichiView {
    /// For each seat that declared riichi: the index of its riichi discard in its row.
    pub declared: [Option<u8>; MAX_PLAYERS],
    /// Norths each seat set aside (kita).
    pub kita: [u8; MAX_PLAYERS],
    /// The dora indicators revealed, in order.
    pub dora_indicators: heapless::Vec<Tile, 5>,
    /// The honba counter.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub riichi_sticks: u8,
    /// The round wind: 0 East, 1 South, 2 West.
    pub round_wind: u8,
    /// The observer's seat wind: 0 East (dealer), 1 South, 2 West, 3 North.
    pub seat_wind: u8,
    /// Red fives in the observer's concealed hand, per suit (man, pin, sou).
    pub red_hand: [u8; 3],
    /// Red fives in every seat's melds, per meld.
    pub red_melds: [[u8; 4]; MAX_PLAYERS],
    /// Bit `i`: discard `i` of the seat's row is a red five.
    pub red_discards: [u64; MAX_PLAYERS],
    /// The observer is furiten (cannot ron) now.
    pub furiten: bool,
    /// For each seat in riichi: its riichi is a double riichi (public: it was declared
    /// on an uninterrupted first turn).
    pub double: [bool; MAX_PLAYERS],
    /// For each seat in riichi: ippatsu is still possible (no call, kan or kita and no
    /// own discard since the riichi discard).
    pub ippatsu: [bool; MAX_PLAYERS],
    /// The seat on turn holds a replacement tile (kan or kita) as its drawn tile.
    pub rinshan: bool,
    /// The result of the hand once it is over.
    pub result: Option<RiichiResult>,
}
