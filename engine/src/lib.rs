//! # mahjong-engine
//!
//! A `no_std`, allocation-free mahjong rules engine with table-driven tile efficiency
//! (牌効率): rules as data, a deterministic seeded game, per-seat observations without
//! hidden information, postcard game records, shanten / ukeire / per-discard value
//! scores. It builds for `thumbv7em-none-eabihf` and runs on bare metal.
//!
//! ## Vocabulary (defined once, used everywhere)
//! - **tile type**: one of 34 kinds ([`tile::Tile`]); a wall holds four copies of each.
//! - **mpsz notation**: digits then a suit letter, `123m456p789s1122z` ([`notation`]).
//! - **sanma**: three-player mahjong on the 108-tile set without 2m–8m; the default.
//! - **set**: three tiles forming a *pung* (three of a kind) or a *sequence* (three
//!   consecutive numbers of one suit); a *kan* (four of a kind) counts as a set.
//! - **pair**: two of a kind. A **regular** winning hand is four sets and a pair.
//! - **seven pairs** (chiitoitsu): seven *distinct* pairs; four of a kind is not two pairs.
//! - **thirteen orphans** (kokushi): one of each terminal and honour plus one duplicate.
//! - **meld**: a set exposed by calling: **pon** (claim a discard to complete a pung),
//!   **chi** (claim the left neighbour's discard to complete a sequence; four-player only),
//!   **kan** (closed kan from four in hand, open kan on a discard with three in hand, or
//!   added kan: the fourth tile added to an own pon). Every kan is followed by a
//!   replacement draw from the dead wall.
//! - **tsumo**: winning on a self-drawn tile; **ron**: winning on another player's
//!   discard. **Robbing a kan**: ron on the tile another player adds to a pon.
//! - **dead wall**: tiles at the end of the wall that are never drawn normally; the
//!   **live wall** is what players draw from. The hand ends in an **exhaustive draw**
//!   when the live wall is empty and the last discard is not claimed.
//! - **shanten**: how many tiles a hand is away from being ready; `0` = **tenpai**
//!   (one tile from a win), `-1` = complete.
//! - **ukeire**: the tile types (and how many tiles of them remain) that lower shanten
//!   when drawn.
//! - **determinization**: a whole game dealt from what one seat sees, its hidden tiles
//!   (other hands, live and dead wall) drawn at random ([`game::Game::from_observation`]);
//!   **belief**: weights on such deals from what the opponents did ([`belief`]).
//! - **value score**: this engine's per-discard measure combining shanten after the
//!   discard, ukeire after it and a second-step lookahead ([`efficiency`]).
//! - **yaku** (riichi scoring, [`score`]): a scoring pattern or condition worth **han**
//!   (doubles); a riichi win needs one. **Yakuman** are limit patterns; they replace
//!   every other yaku. **Riichi**: declaring a closed ready hand (a yaku of its own).
//! - **fu**: minipoints from the hand's shape and wait; with han they give the
//!   **basic points** `fu · 2^(han+2)`, capped by the **limits** (mangan and above).
//! - **menzen** (closed hand): no chi, pon or open kan; a closed kan keeps it closed.
//! - **dora**: the tile after each **dora indicator** adds a han per copy held; **ura
//!   dora** are the indicators under them, counted for riichi hands only; **aka dora**
//!   are the red fives; **kita** (nukidora) are norths set aside in sanma, one han each
//!   (another player may ron the north set aside, without chankan).
//!   None of them is a yaku.
//! - **honba**: the counter of repeated deals, worth extra points; **riichi sticks**: the
//!   1000-point deposits on the table, taken by the winner.
//! - **dealer**: the player whose seat wind is East; the **round wind** is the wind of
//!   the current round (East, South, ...). **Renchan**: the dealer deals again (after an
//!   own win, or a tenpai exhaustive draw); otherwise the deal passes to the next seat.
//!   A **hanchan** plays the East and South rounds, an **east-only** game one round;
//!   when nobody has reached the target score after the last hand, an **extension**
//!   round follows (sudden death). **Agari-yame**: the game ends when the dealer wins
//!   the last hand in first place.
//! - **red five**: one physical copy of a five painted red (`0m`, `0p`, `0s`): aka dora.
//! - **kan dora**: a further dora indicator revealed by each kan; **rinshan** (kaihou):
//!   a win on a replacement tile; **chankan**: a win robbing a kan.
//! - **ippatsu**: a win within one uninterrupted go-around after riichi (any call ends
//!   it); **double riichi**: riichi on the first uninterrupted turn.
//! - **furiten**: a ready hand that may not ron: one of its winning tiles is among its
//!   own discards, or it let a winning tile pass (until its next discard; for the rest
//!   of the hand in riichi). Tsumo stays allowed.
//! - **tenpai payments** (noten bappu): at an exhaustive draw the ready players are paid
//!   by the others; **nagashi mangan**: discarding only terminals and honours, none
//!   claimed, is paid as a mangan at an exhaustive draw.
//! - **abortive draw**: a hand ended early without payments (nine terminals, four winds,
//!   four riichi, four kans, three rons on one discard); **busting**: a score below zero
//!   ends the game.
//!
//! ## Layout
//! One concern per module: [`tile`] and [`notation`] (tiles and hand strings),
//! [`rules`] (rules as data), [`rng`] (seeded generator), [`game`] (the state machine,
//! observations, records), [`shanten`] and [`efficiency`] (tile efficiency), [`encode`]
//! (the fixed-size observation encoding for learned policies), [`score`] (riichi scoring
//! under Tenhou's rules: yaku, fu, dora, limits and payments). The riichi game flow is
//! rules as data ([`rules::riichi_rules`]) played by the same [`game`] state machine.
//!
//! ## Invariants
//! The engine never allocates, never panics on input (errors are small
//! `#[non_exhaustive]` enums) and knows nothing of tch, tract or C.
#![cfg_attr(not(test), no_std)]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod belief;
pub mod bots;
pub mod efficiency;
pub mod encode;
pub mod game;
pub mod notation;
pub mod rng;
pub mod rules;
pub mod score;
pub mod shanten;
pub mod tile;

pub use rules::{GameLength, MultipleRon, RiichiRules, Rules, ScoreTable};
pub use tile::{Suit, Tile, TileCounts, TileSet, NUM_TILE_TYPES};
