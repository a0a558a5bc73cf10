//! The `mj_bot` handle (random, efficiency and defending bots), the [`mj_advice`] struct and the
//! efficiency advisor.
//!
//! The learned-policy advisor (`mj_advisor_advise`, in [`crate::advisor`]) fills the
//! same [`mj_advice`]; `mj_efficiency_advise` is its model-free counterpart.

use engine::bots::{Agent, DefendBot, EfficiencyBot, RandomBot};
use engine::efficiency::value_scores;
use engine::game::{Action, Game, Phase};
use engine::shanten::{shanten, Forms};

use crate::error::{guard, guard_infallible, mj_result, Error};
use crate::game::{check_seat, mj_game, rule_error};
use crate::util::{in_mut, in_ref, out_ptr, put};
use crate::MJ_MAX_LEGAL_ACTIONS;

/// A bot that chooses actions for a seat. Opaque; create with `mj_bot_new_random`,
/// `mj_bot_new_efficiency` or `mj_bot_new_defend`, free with `mj_bot_free`. A bot has state (the random bot's
/// generator): use one bot from one thread at a time.
pub struct mj_bot {
    kind: BotKind,
}

/// The bots behind an `mj_bot`.
enum BotKind {
    /// Wins when it can, otherwise random discards and occasional calls.
    Random(RandomBot),
    /// Plays pure tile efficiency from the seat's view.
    Efficiency(EfficiencyBot),
    /// Efficiency with push or fold against threats (riichi rules).
    Defend(DefendBot),
}

impl mj_bot {
    fn agent(&mut self) -> &mut dyn Agent {
        match &mut self.kind {
            BotKind::Random(b) => b,
            BotKind::Efficiency(b) => b,
            BotKind::Defend(b) => b,
        }
    }
}

/// One ranked action of an [`mj_advice`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_ranked_action {
    /// The action index.
    pub action: u16,
    /// Its score; higher is better. The efficiency advisor gives the engine's value
    /// score in `[0, 1]` (1 for the best discards); the learned-policy advisor gives the
    /// policy's probability (masked softmax over the legal actions; they sum to 1); the
    /// search gives the estimated points per hand of the seat after this action (the
    /// mean over the rollout worlds; may be negative).
    pub score: f32,
}

/// `mj_advice.source`: the efficiency advisor (`mj_efficiency_advise`).
pub const MJ_ADVICE_EFFICIENCY: u8 = 0;
/// `mj_advice.source`: the learned-policy advisor (`mj_advisor_advise`).
pub const MJ_ADVICE_POLICY: u8 = 1;
/// `mj_advice.source`: the rollout search (`mj_search_advise`).
pub const MJ_ADVICE_SEARCH: u8 = 2;

/// A suggestion for one seat: the action to take and a ranking of the alternatives.
///
/// Filled by `mj_efficiency_advise`, `mj_advisor_advise` and `mj_search_advise`. The
/// fields after `ranked` (`source`, `has_value`, `value`) were appended with the
/// learned-policy advisor: the earlier fields keep their offsets, but the struct grew
/// (260 to 268 bytes), so C code must be recompiled against this header.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mj_advice {
    /// The suggested action index (always legal for the seat now).
    pub action: u16,
    /// Shanten of the seat's closed hand over the forms the rules allow (-1 complete,
    /// 0 tenpai).
    pub shanten: i8,
    /// Number of valid entries in `ranked`.
    pub num_ranked: u8,
    /// Ranked actions, best first. The efficiency advisor ranks the legal discards by
    /// value score (ties by action index) on the seat's turn and ranks nothing (0
    /// entries) in a claim window. The learned-policy advisor ranks every legal action
    /// (discards, calls, wins, pass) by policy probability (ties by action index);
    /// `ranked[0].action == action`. The search ranks the candidates it searched (on
    /// the seat's turn the best discards by value score, the efficiency bot's choice,
    /// kans and tsumo; in a claim window every legal answer) by estimated points per
    /// hand (ties by action index); `action` is among them but need not be first.
    pub ranked: [mj_ranked_action; MJ_MAX_LEGAL_ACTIONS],
    /// Who advised: `MJ_ADVICE_EFFICIENCY`, `MJ_ADVICE_POLICY` or `MJ_ADVICE_SEARCH`.
    pub source: u8,
    /// Whether `value` holds an estimate: the critic's (learned-policy advisor) or the
    /// rollouts' (search); false for the efficiency advisor.
    pub has_value: bool,
    /// The learned-policy advisor: the critic's value estimate of the seat's position
    /// (the model's value head, in the units it was trained on). The search: the
    /// estimated points per hand of the chosen action. 0 when `has_value` is false.
    pub value: f32,
}

fn new_bot(bot: mj_bot, out: *mut *mut mj_bot) -> Result<(), Error> {
    out_ptr(out, "out")?;
    let handle = Box::into_raw(Box::new(bot));
    // SAFETY: `out` is non-NULL and valid for a write per the caller contract.
    unsafe { put(out, handle) };
    Ok(())
}

/// Creates the random bot with its own seeded generator: it wins when it can, otherwise
/// discards at random and takes offered calls with a small probability. Free with
/// `mj_bot_free`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_bot_new_random(seed: u64, out: *mut *mut mj_bot) -> mj_result {
    guard("mj_bot_new_random", || {
        new_bot(
            mj_bot {
                kind: BotKind::Random(RandomBot::new(seed)),
            },
            out,
        )
    })
}

/// Creates the efficiency bot: wins when it can, discards by shanten, ukeire and the
/// second step, and calls only when the call keeps or improves the hand. Free with
/// `mj_bot_free`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_bot_new_efficiency(out: *mut *mut mj_bot) -> mj_result {
    guard("mj_bot_new_efficiency", || {
        new_bot(
            mj_bot {
                kind: BotKind::Efficiency(EfficiencyBot),
            },
            out,
        )
    })
}

/// Creates the defending bot: plays as the efficiency bot until an opponent threatens
/// (a riichi, or an open hand likely ready), then compares the expected value of
/// pushing (its win chance and hand value against the deal-in risk of its discard) with
/// folding to the safest tile (genbutsu, suji, visible tiles), declares riichi only
/// when pushing, and calls only with a yaku in sight. Under rules without riichi it
/// plays exactly as the efficiency bot. Free with `mj_bot_free`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_bot_new_defend(out: *mut *mut mj_bot) -> mj_result {
    guard("mj_bot_new_defend", || {
        new_bot(
            mj_bot {
                kind: BotKind::Defend(DefendBot),
            },
            out,
        )
    })
}

/// Frees a bot. NULL is ignored.
///
/// # Safety
/// `bot` must be NULL or a pointer returned by a `mj_bot_new_*` function and not freed
/// yet.
#[no_mangle]
pub unsafe extern "C" fn mj_bot_free(bot: *mut mj_bot) {
    guard_infallible((), || {
        if !bot.is_null() {
            // SAFETY: `bot` came from `Box::into_raw` in a constructor and is freed once.
            drop(unsafe { Box::from_raw(bot) });
        }
    })
}

/// The observation and legal actions of a seat that has a decision pending, or the
/// reason why it has none.
pub(crate) fn decision(
    g: &Game,
    seat: u8,
) -> Result<(engine::game::Observation, engine::game::LegalActions), Error> {
    check_seat(g, seat)?;
    let legal = g.legal_actions(seat);
    if legal.is_empty() {
        return Err(match g.phase() {
            Phase::HandOver => Error::new(mj_result::MJ_HAND_OVER, "the hand is over"),
            Phase::GameOver => Error::new(mj_result::MJ_GAME_OVER, "the game is over"),
            _ => Error::new(
                mj_result::MJ_NOT_YOUR_TURN,
                format!("seat {seat} has no decision pending"),
            ),
        });
    }
    let obs = g.observation(seat).map_err(rule_error)?;
    Ok((obs, legal))
}

/// Lets `bot` choose an action for `seat` of `game` (from the seat's observation only)
/// and writes its index to `*action`. The game is not changed: apply the action with
/// `mj_game_apply`.
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat),
/// `MJ_NOT_YOUR_TURN` (the seat has no decision pending), `MJ_HAND_OVER`,
/// `MJ_GAME_OVER`.
///
/// # Safety
/// `bot` must be NULL or a live bot used by no other thread during the call; `game` must
/// be NULL or a live game; `action` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_bot_choose(
    bot: *mut mj_bot,
    game: *const mj_game,
    seat: u8,
    action: *mut u16,
) -> mj_result {
    guard("mj_bot_choose", || {
        // SAFETY: `bot` is NULL or live and exclusively ours per the contract.
        let bot = unsafe { in_mut(bot, "bot") }?;
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(action, "action")?;
        let (obs, legal) = decision(g, seat)?;
        let chosen = bot.agent().act(&obs, &legal);
        if !legal.contains(chosen) {
            return Err(Error::new(
                mj_result::MJ_INTERNAL,
                "the bot chose an illegal action",
            ));
        }
        // SAFETY: `action` is non-NULL and valid for a write.
        unsafe { put(action, chosen.index() as u16) };
        Ok(())
    })
}

/// The efficiency advice for a seat with a decision pending.
pub(crate) fn efficiency_advice(g: &Game, seat: u8) -> Result<mj_advice, Error> {
    let (obs, legal) = decision(g, seat)?;
    let chosen = EfficiencyBot.act(&obs, &legal);
    let forms = Forms::from_rules(&obs.rules);
    let melds = obs.melds.get(seat as usize).map_or(0, |m| m.len() as u8);
    let tile_set = obs.rules.tile_set;
    let mut advice = mj_advice {
        action: chosen.index() as u16,
        shanten: shanten(&obs.hand, melds, tile_set).min_of(forms),
        num_ranked: 0,
        ranked: [mj_ranked_action::default(); MJ_MAX_LEGAL_ACTIONS],
        source: MJ_ADVICE_EFFICIENCY,
        has_value: false,
        value: 0.0,
    };
    if obs.phase == Phase::Turn {
        let v = value_scores(&obs.hand, melds, tile_set, forms, &obs.unseen);
        let mut ranked: Vec<mj_ranked_action> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard(t) => Some(mj_ranked_action {
                    action: a.index() as u16,
                    score: v.score[t.index()],
                }),
                _ => None,
            })
            .collect();
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.action.cmp(&b.action)));
        ranked.truncate(MJ_MAX_LEGAL_ACTIONS);
        advice.num_ranked = ranked.len() as u8;
        advice.ranked[..ranked.len()].copy_from_slice(&ranked);
    }
    Ok(advice)
}

/// The efficiency advisor: suggests the efficiency bot's action for `seat` and, on the
/// seat's turn, ranks its legal discards by the engine's value scores (shanten after
/// the discard, then ukeire counted with the seat's unseen tiles, then the second
/// step). Uses only what the seat may see. The game is not changed. Sets `source` to
/// `MJ_ADVICE_EFFICIENCY`, `has_value` to false and `value` to 0 (no critic).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat),
/// `MJ_NOT_YOUR_TURN` (the seat has no decision pending), `MJ_HAND_OVER`,
/// `MJ_GAME_OVER`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_efficiency_advise(
    game: *const mj_game,
    seat: u8,
    out: *mut mj_advice,
) -> mj_result {
    guard("mj_efficiency_advise", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let advice = efficiency_advice(g, seat)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, advice) };
        Ok(())
    })
}
