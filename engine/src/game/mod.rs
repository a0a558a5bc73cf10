//! The game state machine: deals, draws, discards, calls, wins, scoring, observations and records.
//!
//! ## Flow
//! A [`Game`] is a sequence of `rules.hands_per_game` hands. Each hand starts with a
//! shuffled wall (`Rng::new(Rng::derive_seed(seed, hand_number))`), 13 tiles dealt to each
//! seat and the dealer's first draw. From then on the game is driven by
//! [`Game::apply`]`(seat, action)` for the seats in [`Game::seats_to_act`]:
//!
//! - **Turn** ([`Phase::Turn`]): the seat holding `14 − 3·melds` tiles discards, declares
//!   tsumo, or declares a closed or added kan. Right after a pon or chi only a discard is
//!   legal. Draws (including kan replacement draws) happen automatically.
//! - **Claim** ([`Phase::Claim`]): after a discard (or an added kan when `rules.rob_kan`),
//!   every seat with a legal claim answers once (`Ron`, `Pon`, `OpenKan`, `Chi`, `Pass`) in
//!   any order. Seats with no legal claim are skipped. When all have answered the claims
//!   resolve by priority: win > kan/pon > chi, ties by turn order from the discarder.
//!   If nobody claims, play passes to the next seat, which draws automatically.
//! - **HandOver** ([`Phase::HandOver`]): the hand ended by a win or an exhaustive draw.
//!   Nothing happens until [`Game::start_next_hand`] is called; this keeps the final
//!   state of every hand observable (and comparable with a replayed record).
//! - **GameOver** ([`Phase::GameOver`]): the last hand ended.
//!
//! ## Wall and kans
//! The wall is one array: the deal, then the live wall, then `rules.dead_wall` tiles of
//! dead wall at the end. A kan replacement draw takes the last tile of the dead wall and
//! the dead wall is topped up with the last tile of the live wall, so the dead wall keeps
//! its size and the live wall shrinks by one. A kan is legal only while the live wall is
//! non-empty (so the top-up exists) and fewer than [`MAX_KANS`] kans were declared in the
//! hand. No pon, chi or kan is legal once the live wall is empty: the last discard may
//! only be claimed by ron, after which the hand ends in an exhaustive draw.
//!
//! Tsumo and ron are never forced: the engine offers them and a player decides.
//!
//! A position known only as an [`Observation`] (typed by a user, sent as JSON) has the
//! same legality: [`legal_actions_of`] asks [`Game::legal_actions`] of a world dealt
//! around it, so there is one legality to keep right.
//!
//! ## Riichi rules
//! With [`Rules::riichi`](crate::Rules::riichi) set, the same loop plays riichi
//! mahjong (the `riichi_flow` submodule): `Riichi(tile)`, `Kita` and `NineTerminals` become
//! legal where the rules allow them, wins need a yaku ([`crate::score::score`]),
//! furiten blocks ron, dora indicators are revealed, the deal carries red fives, and
//! hands follow one another by dealer continuation and round winds until the game end
//! of [`crate::rules::riichi_rules`]. [`Game::riichi_result`] reports the yaku, han, fu,
//! limits and payments of a hand; the observation carries the public riichi state
//! ([`RiichiView`]).

mod action;
mod agari;
mod apply;
mod caps;
mod copy;
mod determinize;
mod error;
mod event;
mod fives;
mod invariants;
mod legal;
mod meld;
mod observation;
mod observed_legal;
mod record;
mod riichi_flow;
mod scoring;
mod state;

pub use action::{Action, LegalActions, LEGAL_CAP, NUM_ACTIONS, POLICY_ACTIONS_V1};
pub use agari::{is_regular_win, is_seven_pairs, is_thirteen_orphans, WinShape};
pub use caps::{DISCARD_CAP, LOG_CAP, MAX_KANS, MAX_PLAYERS, MAX_WALL};
pub use copy::{CopyOptions, FiveCopy};
pub use error::RuleError;
pub use event::{Event, Events, HandEndKind, HandResult, EVENTS_CAP};
pub use fives::RED_COPIES_CAP;
pub use invariants::{check_invariants, InvariantViolation};
pub use meld::{order_discards_by_rotation, Discard, Meld, MeldKind};
pub use observation::{Observation, PendingClaim};
pub use observed_legal::{legal_actions_of, DEAL_TRIES};
pub use record::{GameRecord, HandRecord, RecordError, RiichiStart, RECORD_MAX_BYTES};
pub use riichi_flow::legal::waits;
pub use riichi_flow::{DrawKind, RiichiResult, RiichiSetup, RiichiView, RiichiWin, Table};
pub use scoring::{score_win, WinValue};
pub use state::{Game, Phase};
