//! The defending bot through the C ABI: every choice equals the engine's `DefendBot`
//! on a twin game, and under riichi rules it does not simply play as the efficiency
//! bot.

mod common;

use std::ptr::null_mut;

use common::*;
use engine::bots::{Agent, DefendBot, EfficiencyBot};
use engine::game::{Action, Game as EngineGame};
use mahjong_ffi::*;

use mj_result::*;

/// Plays a whole game of `preset` with the defending bot in every seat through the C
/// ABI, checking each choice against the engine's bot on a twin game; returns
/// (decisions, decisions where the efficiency bot would have chosen otherwise).
fn play(preset: &std::ffi::CStr, name: &str, seed: u64) -> (u32, u32) {
    let mut raw = null_mut();
    // SAFETY: a NUL-terminated name and a valid out pointer.
    assert_eq!(
        unsafe { mj_game_new_preset(preset.as_ptr(), seed, &mut raw) },
        MJ_OK
    );
    let g = Game(raw);
    let mut twin = EngineGame::new(engine::Rules::preset(name).unwrap(), seed).unwrap();
    let bot = Bot::defend();
    let (mut decisions, mut different) = (0, 0);
    for _ in 0..20_000 {
        let st = g.status();
        if st.phase == MJ_PHASE_GAME_OVER {
            assert!(twin.is_over());
            return (decisions, different);
        }
        if st.phase == MJ_PHASE_HAND_OVER {
            // SAFETY: live game.
            assert_eq!(unsafe { mj_game_start_next_hand(g.0) }, MJ_OK);
            twin.start_next_hand().unwrap();
            continue;
        }
        let mut seats = [0u8; MJ_MAX_PLAYERS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_PLAYERS, valid out pointer.
        unsafe { mj_game_seats_to_act(g.0, seats.as_mut_ptr(), seats.len(), &mut n) };
        let seat = seats[0];
        let mut action = 0u16;
        // SAFETY: live bot and game, valid out pointer.
        assert_eq!(
            unsafe { mj_bot_choose(bot.0, g.0, seat, &mut action) },
            MJ_OK
        );
        let obs = twin.observation(seat).unwrap();
        let legal = twin.legal_actions(seat);
        assert_eq!(
            Action::from_index(action as usize),
            Some(DefendBot.act(&obs, &legal)),
            "seed {seed}, decision {decisions}"
        );
        different += (EfficiencyBot.act(&obs, &legal).index() != action as usize) as u32;
        decisions += 1;
        // SAFETY: live game.
        assert_eq!(unsafe { mj_game_apply(g.0, seat, action) }, MJ_OK);
        twin.apply(seat, Action::from_index(action as usize).unwrap())
            .unwrap();
    }
    panic!("the game did not end");
}

#[test]
fn the_defending_bot_matches_the_engine_and_defends() {
    let (mut decisions, mut different) = (0, 0);
    for seed in 1..=3 {
        let (d, x) = play(c"tenhou-sanma", "tenhou-sanma", seed);
        decisions += d;
        different += x;
    }
    assert!(decisions > 300, "{decisions}");
    assert!(
        different > 0,
        "defend chose as eff in all {decisions} decisions"
    );
    // Without riichi there is nothing to defend against: it is the efficiency bot.
    let (d, x) = play(c"sanma", "sanma", 4);
    assert!(d > 50);
    assert_eq!(x, 0);
}
