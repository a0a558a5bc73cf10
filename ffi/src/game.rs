//! The `mj_game` handle: create, query, act, observe, record and replay.

use std::ffi::c_char;

use engine::game::{Game, HandEndKind, HandRecord, MeldKind, Phase, RuleError, RECORD_MAX_BYTES};
use engine::Rules;

use crate::action::{action_from, action_text};
use crate::error::{guard, guard_infallible, mj_result, Error};
use crate::util::{in_array, in_mut, in_ref, in_str, out_ptr, out_slice, put};
use crate::{
    tile_set_to, MJ_DISCARD_CAP, MJ_MAX_MELDS, MJ_MAX_PLAYERS, MJ_NONE, MJ_NUM_TILE_TYPES,
    MJ_RULES_FOUR_PLAYER, MJ_RULES_SANMA,
};

/// A game of mahjong: a sequence of hands played by 3 or 4 seats. Opaque; create with
/// `mj_game_new`, `mj_game_new_preset` or `mj_game_replay`, free with `mj_game_free`.
///
/// A game may be moved between threads. Functions taking `const mj_game *` may run
/// concurrently on one game; a function taking `mj_game *` needs exclusive access.
pub struct mj_game {
    pub(crate) game: Game,
}

/// Phase: the seat on turn decides (discard, tsumo, kan).
pub const MJ_PHASE_TURN: u8 = 0;
/// Phase: seats with a legal claim on the pending tile answer.
pub const MJ_PHASE_CLAIM: u8 = 1;
/// Phase: the hand ended; call `mj_game_start_next_hand`.
pub const MJ_PHASE_HAND_OVER: u8 = 2;
/// Phase: the last hand ended.
pub const MJ_PHASE_GAME_OVER: u8 = 3;

/// Meld kind: a sequence completed with the left neighbour's discard.
pub const MJ_MELD_CHI: u8 = 0;
/// Meld kind: a pung completed with a discard.
pub const MJ_MELD_PON: u8 = 1;
/// Meld kind: a closed kan (four of a kind from the hand).
pub const MJ_MELD_CLOSED_KAN: u8 = 2;
/// Meld kind: an open kan (three in hand plus a discard).
pub const MJ_MELD_OPEN_KAN: u8 = 3;
/// Meld kind: an added kan (a pon plus the fourth tile).
pub const MJ_MELD_ADDED_KAN: u8 = 4;

/// Hand end: one or more players won.
pub const MJ_HAND_END_WIN: u8 = 0;
/// Hand end: exhaustive draw (the live wall ran out).
pub const MJ_HAND_END_DRAW: u8 = 1;

/// A summary of the game's public state.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_status {
    /// Number of seats (3 or 4).
    pub players: u8,
    /// `MJ_TILE_SET_*` of the rules.
    pub tile_set: u8,
    /// `MJ_PHASE_*`.
    pub phase: u8,
    /// The dealer of the current hand.
    pub dealer: u8,
    /// The seat on turn (during a claim window: the discarder).
    pub turn: u8,
    /// Tiles left in the live wall.
    pub live_wall: u8,
    /// The current hand number, from 0.
    pub hand_number: u16,
    /// Hands in the game.
    pub hands_per_game: u16,
    /// Scores by seat (seats beyond `players` are 0).
    pub scores: [i32; MJ_MAX_PLAYERS],
}

/// One meld in an observation.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_meld {
    /// `MJ_MELD_*`.
    pub kind: u8,
    /// The tile type of a pung or kan; the lowest tile of a chi.
    pub tile: u8,
    /// The seat the claimed tile came from, or `MJ_NONE` for a closed kan.
    pub from: u8,
    /// The claimed tile, or `MJ_NONE` for a closed kan.
    pub claimed: u8,
}

/// What one seat may see (no other hand, no wall order). Seats are absolute, from 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mj_observation {
    /// Number of seats (3 or 4).
    pub players: u8,
    /// `MJ_TILE_SET_*` of the rules.
    pub tile_set: u8,
    /// The observing seat.
    pub seat: u8,
    /// The dealer of this hand.
    pub dealer: u8,
    /// The seat on turn (during a claim window: the discarder).
    pub turn: u8,
    /// `MJ_PHASE_*`.
    pub phase: u8,
    /// The hand number, from 0.
    pub hand_number: u16,
    /// The observer's closed hand as counts per tile type (a just-drawn tile included).
    pub hand: [u8; MJ_NUM_TILE_TYPES],
    /// The tile the observer just drew when on turn after a draw, else `MJ_NONE`.
    pub drawn: u8,
    /// Tiles left in the live wall.
    pub live_wall: u8,
    /// Tiles the observer cannot see, per type: four of each type of the set minus the
    /// own hand, all melds, unclaimed discards and a pending added-kan tile (0 for types
    /// outside the set).
    pub unseen: [u8; MJ_NUM_TILE_TYPES],
    /// Kans declared this hand, all seats.
    pub kans: u8,
    /// Whether a claim window is open (`pending_*` are valid).
    pub has_pending: bool,
    /// The claimable tile, or `MJ_NONE`.
    pub pending_tile: u8,
    /// The seat that discarded it (or added it to a pon), or `MJ_NONE`.
    pub pending_from: u8,
    /// Whether only ron may claim the pending tile: the tile of a kan being robbed (an
    /// added kan) or a north just set aside as kita (three-player riichi).
    pub pending_added_kan: bool,
    /// Number of melds of each seat.
    pub meld_counts: [u8; MJ_MAX_PLAYERS],
    /// The melds of each seat in order (`meld_counts[s]` valid entries).
    pub melds: [[mj_meld; MJ_MAX_MELDS]; MJ_MAX_PLAYERS],
    /// Number of discards of each seat.
    pub discard_counts: [u8; MJ_MAX_PLAYERS],
    /// The discarded tiles of each seat in order (`discard_counts[s]` valid entries).
    pub discards: [[u8; MJ_DISCARD_CAP]; MJ_MAX_PLAYERS],
    /// Whether each discard was claimed (it then lives in the claimer's meld).
    pub discard_claimed: [[bool; MJ_DISCARD_CAP]; MJ_MAX_PLAYERS],
    /// Scores by seat.
    pub scores: [i32; MJ_MAX_PLAYERS],
}

/// The outcome of the hand that just ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_hand_result {
    /// `MJ_HAND_END_WIN` or `MJ_HAND_END_DRAW`.
    pub kind: u8,
    /// The seat that discarded the winning tile (or added the robbed kan tile);
    /// `MJ_NONE` for a self-draw or an exhaustive draw.
    pub discarder: u8,
    /// The winning tile, or `MJ_NONE`.
    pub tile: u8,
    /// Which seats won.
    pub winners: [bool; MJ_MAX_PLAYERS],
    /// The value of each winner's hand (0 for the others).
    pub values: [i32; MJ_MAX_PLAYERS],
    /// The score change of every seat; sums to zero.
    pub deltas: [i32; MJ_MAX_PLAYERS],
}

/// Maps an engine refusal to its code and message.
pub(crate) fn rule_error(e: RuleError) -> Error {
    let code = match e {
        RuleError::IllegalAction => mj_result::MJ_ILLEGAL_ACTION,
        RuleError::NotYourTurn => mj_result::MJ_NOT_YOUR_TURN,
        RuleError::BadSeat => mj_result::MJ_INVALID_ARGUMENT,
        RuleError::HandOver => mj_result::MJ_HAND_OVER,
        RuleError::HandInProgress => mj_result::MJ_HAND_IN_PROGRESS,
        RuleError::GameOver => mj_result::MJ_GAME_OVER,
        RuleError::InvalidRules(_) => mj_result::MJ_INVALID_ARGUMENT,
        _ => mj_result::MJ_INTERNAL,
    };
    Error::new(code, e.to_string())
}

/// Checks a seat number against the game.
pub(crate) fn check_seat(game: &Game, seat: u8) -> Result<(), Error> {
    if seat >= game.rules().players {
        Err(Error::invalid(format!(
            "seat {seat} is not a seat of this {}-player game",
            game.rules().players
        )))
    } else {
        Ok(())
    }
}

/// The `MJ_PHASE_*` value of a phase.
fn phase_code(p: Phase) -> u8 {
    match p {
        Phase::Turn => MJ_PHASE_TURN,
        Phase::Claim => MJ_PHASE_CLAIM,
        Phase::HandOver => MJ_PHASE_HAND_OVER,
        Phase::GameOver => MJ_PHASE_GAME_OVER,
    }
}

fn meld_kind_code(k: MeldKind) -> u8 {
    match k {
        MeldKind::Chi => MJ_MELD_CHI,
        MeldKind::Pon => MJ_MELD_PON,
        MeldKind::ClosedKan => MJ_MELD_CLOSED_KAN,
        MeldKind::OpenKan => MJ_MELD_OPEN_KAN,
        MeldKind::AddedKan => MJ_MELD_ADDED_KAN,
    }
}

fn new_game(rules: Rules, seed: u64, out: *mut *mut mj_game) -> Result<(), Error> {
    out_ptr(out, "out")?;
    let game = Game::new(rules, seed).map_err(rule_error)?;
    let handle = Box::into_raw(Box::new(mj_game { game }));
    // SAFETY: `out` is non-NULL (checked) and valid for a write per the caller contract.
    unsafe { put(out, handle) };
    Ok(())
}

/// Creates a game from a rules preset (`MJ_RULES_SANMA` or `MJ_RULES_FOUR_PLAYER`) and a
/// seed, dealing the first hand (seat 0 deals). Free with `mj_game_free`.
///
/// Errors: `MJ_NULL_POINTER` (`out`), `MJ_INVALID_ARGUMENT` (unknown preset).
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_new(rules: u32, seed: u64, out: *mut *mut mj_game) -> mj_result {
    guard("mj_game_new", || {
        out_ptr(out, "out")?;
        let rules = match rules {
            MJ_RULES_SANMA => Rules::sanma(),
            MJ_RULES_FOUR_PLAYER => Rules::four_player(),
            _ => {
                return Err(Error::invalid(format!(
                "rules preset {rules} is neither MJ_RULES_SANMA (0) nor MJ_RULES_FOUR_PLAYER (1)"
            )))
            }
        };
        new_game(rules, seed, out)
    })
}

/// Creates a game from a rules preset name (`"sanma"`/`"3p"` or
/// `"four-player"`/`"4p"`/`"yonma"`) and a seed. Free with `mj_game_free`.
///
/// Errors: `MJ_NULL_POINTER` (`preset`, `out`), `MJ_INVALID_ARGUMENT` (unknown name or
/// not UTF-8).
///
/// # Safety
/// `preset` must be NULL or a NUL-terminated string; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_new_preset(
    preset: *const c_char,
    seed: u64,
    out: *mut *mut mj_game,
) -> mj_result {
    guard("mj_game_new_preset", || {
        // SAFETY: `preset` is NULL or NUL-terminated per the contract.
        let name = unsafe { in_str(preset, "preset") }?;
        out_ptr(out, "out")?;
        let rules = Rules::preset(name).ok_or_else(|| {
            Error::invalid(format!(
                "unknown rules preset {name:?} (try \"sanma\" or \"four-player\")"
            ))
        })?;
        new_game(rules, seed, out)
    })
}

/// Frees a game. NULL is ignored. The pointer must not be used afterwards.
///
/// # Safety
/// `game` must be NULL or a pointer returned by a `mj_game_*` constructor and not freed
/// yet.
#[no_mangle]
pub unsafe extern "C" fn mj_game_free(game: *mut mj_game) {
    guard_infallible((), || {
        if !game.is_null() {
            // SAFETY: `game` came from `Box::into_raw` in a constructor and is freed once.
            drop(unsafe { Box::from_raw(game) });
        }
    })
}

/// Writes a summary of the game's public state to `*out`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_status(game: *const mj_game, out: *mut mj_status) -> mj_result {
    guard("mj_game_status", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let status = mj_status {
            players: g.rules().players,
            tile_set: tile_set_to(g.rules().tile_set),
            phase: phase_code(g.phase()),
            dealer: g.dealer(),
            turn: g.turn(),
            live_wall: g.live_wall_remaining(),
            hand_number: g.hand_number(),
            hands_per_game: g.rules().hands_per_game,
            scores: g.scores(),
        };
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, status) };
        Ok(())
    })
}

/// Writes whether the game is over (the last hand ended) to `*out`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_is_over(game: *const mj_game, out: *mut bool) -> mj_result {
    guard("mj_game_is_over", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, g.is_over()) };
        Ok(())
    })
}

/// Writes the seats whose decision is awaited (the seat on turn, or every seat that
/// still has to answer a claim, in seat order; none between hands) into `seats` and
/// their number to `*written`. A buffer of `MJ_MAX_PLAYERS` always suffices.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_BUFFER_TOO_SMALL` (`*written` = needed).
///
/// # Safety
/// `game` must be NULL or a live game; `seats` must be NULL or valid for `len` writes;
/// `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_seats_to_act(
    game: *const mj_game,
    seats: *mut u8,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_game_seats_to_act", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        let list = g.seats_to_act();
        // SAFETY: buffer contract as documented.
        unsafe { out_slice(seats, len, &list, written, "seats") }
    })
}

/// Writes the legal action indices of `seat` (see `MJ_NUM_ACTIONS`) into `actions` and
/// their number to `*written`: none when the seat has nothing to decide. A buffer of
/// `MJ_MAX_LEGAL_ACTIONS` always suffices.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat),
/// `MJ_BUFFER_TOO_SMALL` (`*written` = needed).
///
/// # Safety
/// `game` must be NULL or a live game; `actions` must be NULL or valid for `len` writes;
/// `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_legal_actions(
    game: *const mj_game,
    seat: u8,
    actions: *mut u16,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_game_legal_actions", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(written, "written")?;
        check_seat(g, seat)?;
        let legal = g.legal_actions(seat);
        let list: Vec<u16> = legal.iter().map(|a| a.index() as u16).collect();
        // SAFETY: buffer contract as documented.
        unsafe { out_slice(actions, len, &list, written, "actions") }
    })
}

/// Writes the legal actions of `seat` as a mask: `mask[i]` = 1 when action index `i` is
/// legal, else 0, for `i < MJ_NUM_ACTIONS`; `*written` = `MJ_NUM_ACTIONS`.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat),
/// `MJ_BUFFER_TOO_SMALL` (`len < MJ_NUM_ACTIONS`; `*written` = `MJ_NUM_ACTIONS`).
///
/// # Safety
/// `game` must be NULL or a live game; `mask` must be NULL or valid for `len` writes;
/// `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_legal_mask(
    game: *const mj_game,
    seat: u8,
    mask: *mut u8,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_game_legal_mask", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(written, "written")?;
        check_seat(g, seat)?;
        let bits = g.legal_actions(seat).mask().map(u8::from);
        // SAFETY: buffer contract as documented.
        unsafe { out_slice(mask, len, &bits, written, "mask") }
    })
}

/// Applies action index `action` for `seat`. Draws (and kan replacement draws) follow
/// automatically; a refused action leaves the game untouched.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat, or
/// `action >= MJ_NUM_ACTIONS`), `MJ_NOT_YOUR_TURN`, `MJ_ILLEGAL_ACTION`,
/// `MJ_HAND_OVER`, `MJ_GAME_OVER`.
///
/// # Safety
/// `game` must be NULL or a live game not used by another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_game_apply(game: *mut mj_game, seat: u8, action: u16) -> mj_result {
    guard("mj_game_apply", || {
        // SAFETY: `game` is NULL or live and exclusively ours per the contract.
        let g = &mut unsafe { in_mut(game, "game") }?.game;
        let a = action_from(action)?;
        check_seat(g, seat)?;
        g.apply(seat, a).map_err(|e| {
            let mut err = rule_error(e);
            err.message = format!(
                "seat {seat}, action {action} ({}): {}",
                action_text(a),
                err.message
            );
            err
        })?;
        Ok(())
    })
}

/// Deals the next hand after `MJ_PHASE_HAND_OVER` (the dealer repeats when the dealer
/// won, otherwise the next seat deals).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_HAND_IN_PROGRESS`, `MJ_GAME_OVER`.
///
/// # Safety
/// `game` must be NULL or a live game not used by another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_game_start_next_hand(game: *mut mj_game) -> mj_result {
    guard("mj_game_start_next_hand", || {
        // SAFETY: `game` is NULL or live and exclusively ours per the contract.
        let g = &mut unsafe { in_mut(game, "game") }?.game;
        g.start_next_hand().map_err(rule_error)?;
        Ok(())
    })
}

/// Builds the observation of `seat` (what that seat may see).
pub(crate) fn observation_of(g: &Game, seat: u8) -> Result<mj_observation, Error> {
    check_seat(g, seat)?;
    let o = g.observation(seat).map_err(rule_error)?;
    let mut out = mj_observation {
        players: o.rules.players,
        tile_set: tile_set_to(o.rules.tile_set),
        seat: o.seat,
        dealer: o.dealer,
        turn: o.turn,
        phase: phase_code(o.phase),
        hand_number: o.hand_number,
        hand: o.hand,
        drawn: o.drawn.map_or(MJ_NONE, |t| t.as_u8()),
        live_wall: o.live_wall,
        unseen: o.unseen,
        kans: o.kans,
        has_pending: o.pending.is_some(),
        pending_tile: o.pending.map_or(MJ_NONE, |p| p.tile.as_u8()),
        pending_from: o.pending.map_or(MJ_NONE, |p| p.from),
        pending_added_kan: o.pending.is_some_and(|p| !p.is_discard()),
        meld_counts: [0; MJ_MAX_PLAYERS],
        melds: [[mj_meld::default(); MJ_MAX_MELDS]; MJ_MAX_PLAYERS],
        discard_counts: [0; MJ_MAX_PLAYERS],
        discards: [[MJ_NONE; MJ_DISCARD_CAP]; MJ_MAX_PLAYERS],
        discard_claimed: [[false; MJ_DISCARD_CAP]; MJ_MAX_PLAYERS],
        scores: o.scores,
    };
    for (s, melds) in o.melds.iter().enumerate() {
        out.meld_counts[s] = melds.len() as u8;
        for (slot, m) in out.melds[s].iter_mut().zip(melds.iter()) {
            *slot = mj_meld {
                kind: meld_kind_code(m.kind),
                tile: m.tile.as_u8(),
                from: m.from.unwrap_or(MJ_NONE),
                claimed: m.claimed.map_or(MJ_NONE, |t| t.as_u8()),
            };
        }
    }
    for (s, discards) in o.discards.iter().enumerate() {
        out.discard_counts[s] = discards.len() as u8;
        for (i, d) in discards.iter().enumerate() {
            out.discards[s][i] = d.tile.as_u8();
            out.discard_claimed[s][i] = d.claimed;
        }
    }
    Ok(out)
}

/// Writes the observation of `seat` to `*out`.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat).
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_observation(
    game: *const mj_game,
    seat: u8,
    out: *mut mj_observation,
) -> mj_result {
    guard("mj_game_observation", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let obs = observation_of(g, seat)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, obs) };
        Ok(())
    })
}

/// Writes the outcome of the hand that just ended (valid in `MJ_PHASE_HAND_OVER` and
/// `MJ_PHASE_GAME_OVER`).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_HAND_IN_PROGRESS`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_hand_result(
    game: *const mj_game,
    out: *mut mj_hand_result,
) -> mj_result {
    guard("mj_game_hand_result", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let over = matches!(g.phase(), Phase::HandOver | Phase::GameOver);
        let r = g.last_result().filter(|_| over).ok_or_else(|| {
            Error::new(
                mj_result::MJ_HAND_IN_PROGRESS,
                "the hand is still in progress",
            )
        })?;
        let result = mj_hand_result {
            kind: match r.kind {
                HandEndKind::Win => MJ_HAND_END_WIN,
                HandEndKind::ExhaustiveDraw => MJ_HAND_END_DRAW,
            },
            discarder: r.discarder.unwrap_or(MJ_NONE),
            tile: r.tile.map_or(MJ_NONE, |t| t.as_u8()),
            winners: r.winners,
            values: r.values,
            deltas: r.deltas,
        };
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, result) };
        Ok(())
    })
}

/// Serialises the record of the current hand so far (rules, seed, wall, every action;
/// complete once the hand is over) with postcard into `buf` and its length to
/// `*written`. A buffer of `MJ_RECORD_MAX_BYTES` always suffices. `mj_game_replay`
/// turns the bytes back into a game.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_BUFFER_TOO_SMALL` (`*written` = needed).
///
/// # Safety
/// `game` must be NULL or a live game; `buf` must be NULL or valid for `len` writes;
/// `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_hand_record(
    game: *const mj_game,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_game_hand_record", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(written, "written")?;
        let mut scratch = vec![0u8; RECORD_MAX_BYTES];
        let bytes = g.hand_record().to_postcard(&mut scratch).map_err(|e| {
            Error::new(
                mj_result::MJ_INTERNAL,
                format!("cannot encode the record: {e}"),
            )
        })?;
        // SAFETY: buffer contract as documented.
        unsafe { out_slice(buf, len, bytes, written, "buf") }
    })
}

/// Decodes a hand record (from `mj_game_hand_record`) and replays it into a new game,
/// equal to the recorded game at the moment the record was taken. Free with
/// `mj_game_free`.
///
/// Errors: `MJ_NULL_POINTER` (`record`, `out`), `MJ_CORRUPT_RECORD` (not a record, an
/// impossible wall, or an action the rules refuse).
///
/// # Safety
/// `record` must be NULL or valid for `len` reads; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_game_replay(
    record: *const u8,
    len: usize,
    out: *mut *mut mj_game,
) -> mj_result {
    guard("mj_game_replay", || {
        // SAFETY: `record` is NULL or valid for `len` reads per the contract.
        let bytes = unsafe { in_array(record, len, "record") }?;
        out_ptr(out, "out")?;
        let corrupt =
            |e: engine::game::RecordError| Error::new(mj_result::MJ_CORRUPT_RECORD, e.to_string());
        let game = HandRecord::from_postcard(bytes)
            .map_err(corrupt)?
            .replay()
            .map_err(corrupt)?;
        let handle = Box::into_raw(Box::new(mj_game { game }));
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, handle) };
        Ok(())
    })
}
