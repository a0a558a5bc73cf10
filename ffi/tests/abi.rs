//! The C ABI called from Rust: NULL checks, buffer sizes, no partial success, error
//! messages, full games with both bots, records, and a structural check that every
//! export runs inside the panic boundary.

mod common;

use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};
use std::ptr::{null, null_mut};

use common::*;
use inference::Sidecar;
use mahjong_ffi::*;

use mj_result::*;

/// Plays a whole game; returns (hands, actions).
fn play(rules: u32, seed: u64) -> (u32, u32) {
    let g = Game::new(rules, seed);
    let bots = [Bot::random(seed), Bot::efficiency()];
    let (mut hands, mut actions) = (0, 0);
    loop {
        let st = g.status();
        assert_eq!(st.scores.iter().sum::<i32>(), 0);
        match st.phase {
            MJ_PHASE_GAME_OVER => {
                hands += 1;
                break;
            }
            MJ_PHASE_HAND_OVER => {
                hands += 1;
                // Replaying the finished hand gives the same record.
                let rec = g.record();
                let mut r = null_mut();
                // SAFETY: `rec` is a readable buffer; valid out pointer.
                assert_eq!(
                    unsafe { mj_game_replay(rec.as_ptr(), rec.len(), &mut r) },
                    MJ_OK
                );
                let replayed = Game(r);
                assert_eq!(replayed.record(), rec);
                // SAFETY: live game.
                assert_eq!(unsafe { mj_game_start_next_hand(g.0) }, MJ_OK);
                continue;
            }
            _ => {}
        }
        let mut seats = [0u8; MJ_MAX_PLAYERS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_PLAYERS, valid out pointer.
        assert_eq!(
            unsafe { mj_game_seats_to_act(g.0, seats.as_mut_ptr(), seats.len(), &mut n) },
            MJ_OK
        );
        assert!(n >= 1);
        let seat = seats[0];
        let legal = g.legal(seat);
        let bot = &bots[(seat % 2) as usize];
        let mut action = 0u16;
        // SAFETY: live bot and game, valid out pointer.
        assert_eq!(
            unsafe { mj_bot_choose(bot.0, g.0, seat, &mut action) },
            MJ_OK
        );
        assert!(legal.contains(&action));
        // SAFETY: live game.
        assert_eq!(
            unsafe { mj_game_apply(g.0, seat, action) },
            MJ_OK,
            "{}",
            last_error()
        );
        actions += 1;
    }
    let mut over = false;
    // SAFETY: live game, valid out pointer.
    assert_eq!(unsafe { mj_game_is_over(g.0, &mut over) }, MJ_OK);
    assert!(over);
    (hands, actions)
}

#[test]
fn full_games_both_presets() {
    for seed in 0..4 {
        let (hands, actions) = play(MJ_RULES_SANMA, seed);
        assert_eq!(hands, 3);
        assert!(actions > 0);
        let (hands, _) = play(MJ_RULES_FOUR_PLAYER, seed);
        assert_eq!(hands, 4);
    }
}

#[test]
fn null_pointers_are_refused() {
    let g = Game::new(MJ_RULES_SANMA, 1);
    let mut n = 77usize;
    let mut st = mj_status::default();
    // SAFETY (all calls below): every pointer is NULL or valid; NULLs must be refused.
    unsafe {
        assert_eq!(mj_game_new(0, 1, null_mut()), MJ_NULL_POINTER);
        assert!(last_error().contains("`out` is NULL"), "{}", last_error());
        assert_eq!(mj_game_new_preset(null(), 1, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_game_status(null(), &mut st), MJ_NULL_POINTER);
        assert_eq!(mj_game_status(g.0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_game_is_over(g.0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_game_seats_to_act(null(), null_mut(), 0, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_game_seats_to_act(g.0, null_mut(), 4, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_game_seats_to_act(g.0, null_mut(), 0, null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_game_legal_actions(g.0, 0, null_mut(), 0, null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_game_legal_mask(g.0, 0, null_mut(), MJ_NUM_ACTIONS, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_game_apply(null_mut(), 0, 0), MJ_NULL_POINTER);
        assert_eq!(mj_game_start_next_hand(null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_game_observation(g.0, 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_game_hand_result(null(), null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_game_hand_record(g.0, null_mut(), 10, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_game_replay(null(), 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_bot_new_random(1, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_bot_new_efficiency(null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_bot_new_defend(null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_bot_choose(null_mut(), g.0, 0, null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_efficiency_advise(g.0, 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_shanten(null(), 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_shanten_counts(null(), 0, 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_ukeire(null(), 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_ukeire_counts(null(), 0, 0, null(), null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_value_scores(null(), 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_value_scores_counts(null(), 0, 0, null(), null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_counts_parse(c"1m".as_ptr(), 0, null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_counts_format(null(), null_mut(), 0, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_action_format(0, null_mut(), 8, &mut n), MJ_NULL_POINTER);
        assert_eq!(
            mj_last_error_message(null_mut(), 0, null_mut()),
            MJ_NULL_POINTER
        );
        mj_game_free(null_mut());
        mj_bot_free(null_mut());
    }
    assert_eq!(n, 77, "a failed call wrote its length output");
}

#[test]
fn buffers_report_needed_length_and_stay_untouched() {
    let g = Game::new(MJ_RULES_FOUR_PLAYER, 3);
    let needed = g.legal(0).len();
    let mut buf = [0xABCDu16; MJ_MAX_LEGAL_ACTIONS];
    let mut n = 0;
    // SAFETY (all calls below): live game; buffers valid for the lengths given.
    unsafe {
        assert_eq!(
            mj_game_legal_actions(g.0, 0, null_mut(), 0, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert_eq!(n, needed);
        assert_eq!(
            mj_game_legal_actions(g.0, 0, buf.as_mut_ptr(), needed - 1, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert!(buf.iter().all(|&a| a == 0xABCD));
        let mut mask = [7u8; MJ_NUM_ACTIONS];
        assert_eq!(
            mj_game_legal_mask(g.0, 0, mask.as_mut_ptr(), MJ_NUM_ACTIONS - 1, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert_eq!(n, MJ_NUM_ACTIONS);
        assert!(mask.iter().all(|&m| m == 7));
        assert_eq!(
            mj_game_legal_mask(g.0, 0, mask.as_mut_ptr(), MJ_NUM_ACTIONS, &mut n),
            MJ_OK
        );
        assert_eq!(mask.iter().filter(|&&m| m == 1).count(), needed);
        assert!(mask.iter().all(|&m| m <= 1));
        let mut rec = [0u8; 4];
        assert_eq!(
            mj_game_hand_record(g.0, rec.as_mut_ptr(), 4, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert_eq!(n, g.record().len());
        assert_eq!(rec, [0; 4]);
        // Text: *written is the length without the NUL on both outcomes.
        let mut text = [b'x' as c_char; 16];
        assert_eq!(
            mj_action_format(136, text.as_mut_ptr(), 5, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert_eq!((n, text[0]), (5, b'x' as c_char));
        assert_eq!(mj_action_format(136, text.as_mut_ptr(), 6, &mut n), MJ_OK);
        assert_eq!(CStr::from_ptr(text.as_ptr()).to_str().unwrap(), "tsumo");
        assert_eq!(n, 5);
    }
}

#[test]
fn game_errors_and_messages() {
    let g = Game::new(MJ_RULES_SANMA, 9);
    let mut out = null_mut();
    // SAFETY (all calls below): pointers valid or deliberately NULL.
    unsafe {
        assert_eq!(mj_game_new(5, 1, &mut out), MJ_INVALID_ARGUMENT);
        assert!(out.is_null());
        assert_eq!(
            mj_game_new_preset(c"riichi".as_ptr(), 1, &mut out),
            MJ_INVALID_ARGUMENT
        );
        assert!(last_error().starts_with("mj_game_new_preset: unknown rules preset \"riichi\""));
        assert_eq!(mj_game_new_preset(c"4p".as_ptr(), 1, &mut out), MJ_OK);
        mj_game_free(out);
        out = null_mut();
        assert_eq!(
            mj_game_apply(g.0, 0, MJ_NUM_ACTIONS as _),
            MJ_INVALID_ARGUMENT
        );
        // The riichi actions exist in every game but are legal only under riichi rules.
        assert_eq!(mj_game_apply(g.0, 0, 141), MJ_ILLEGAL_ACTION);
        assert_eq!(mj_game_apply(g.0, 3, 0), MJ_INVALID_ARGUMENT);
        assert_eq!(mj_game_apply(g.0, 1, 140), MJ_NOT_YOUR_TURN);
        assert_eq!(mj_game_apply(g.0, 0, 1), MJ_ILLEGAL_ACTION); // 2m: not in sanma
        assert!(last_error().contains("discard 2m"), "{}", last_error());
        assert_eq!(mj_game_start_next_hand(g.0), MJ_HAND_IN_PROGRESS);
        let mut hr = mj_hand_result::default();
        assert_eq!(mj_game_hand_result(g.0, &mut hr), MJ_HAND_IN_PROGRESS);
        let junk = [0xFFu8; 32];
        assert_eq!(
            mj_game_replay(junk.as_ptr(), junk.len(), &mut out),
            MJ_CORRUPT_RECORD
        );
        assert!(last_error().contains("record"));
        let rec = g.record();
        for cut in [0, 1, rec.len() / 2, rec.len() - 1] {
            assert_eq!(
                mj_game_replay(rec.as_ptr(), cut, &mut out),
                MJ_CORRUPT_RECORD,
                "cut {cut}"
            );
        }
        assert!(out.is_null());
        let bot = Bot::efficiency();
        let mut a = 999u16;
        assert_eq!(mj_bot_choose(bot.0, g.0, 1, &mut a), MJ_NOT_YOUR_TURN);
        assert_eq!(mj_bot_choose(bot.0, g.0, 7, &mut a), MJ_INVALID_ARGUMENT);
        assert_eq!(a, 999);
        assert_eq!(mj_bot_choose(bot.0, g.0, 0, &mut a), MJ_OK);
        let mut advice = std::mem::MaybeUninit::<mj_advice>::uninit();
        assert_eq!(mj_efficiency_advise(g.0, 0, advice.as_mut_ptr()), MJ_OK);
        let advice = advice.assume_init();
        assert_eq!(advice.action, a);
        assert!(advice.num_ranked >= 1);
        assert!(advice.ranked[0].score > 0.999);
    }
}

#[test]
fn efficiency_queries() {
    let mut sh = mj_shanten_info::default();
    let mut uk = mj_ukeire_info::default();
    let mut counts = [0u8; MJ_NUM_TILE_TYPES];
    // SAFETY (all calls below): NUL-terminated strings, arrays of MJ_NUM_TILE_TYPES.
    unsafe {
        assert_eq!(
            mj_shanten(c"19m19p19s1234567z".as_ptr(), MJ_TILE_SET_SANMA, &mut sh),
            MJ_OK
        );
        assert_eq!((sh.thirteen_orphans, sh.min), (0, 0));
        assert_eq!(
            mj_shanten(c"5m".as_ptr(), MJ_TILE_SET_SANMA, &mut sh),
            MJ_PARSE_ERROR
        );
        assert_eq!(
            mj_shanten(c"123m".as_ptr(), 2, &mut sh),
            MJ_INVALID_ARGUMENT
        );
        assert_eq!(
            mj_counts_parse(
                c"123456789p1235s".as_ptr(),
                MJ_TILE_SET_SANMA,
                counts.as_mut_ptr()
            ),
            MJ_OK
        );
        assert_eq!(
            mj_ukeire_counts(counts.as_ptr(), 0, MJ_TILE_SET_SANMA, null(), &mut uk),
            MJ_OK
        );
        assert_eq!(
            (uk.shanten, uk.types, uk.tiles, uk.num_types),
            (0, 1 << 22, 3, 1)
        );
        assert_eq!(
            mj_ukeire(c"123456789p1235s".as_ptr(), MJ_TILE_SET_SANMA, &mut uk),
            MJ_OK
        );
        assert_eq!(uk.tiles, 3);
        let mut vs = std::mem::MaybeUninit::<mj_value_scores_info>::uninit();
        assert_eq!(
            mj_value_scores(
                c"123456789p1235s7z".as_ptr(),
                MJ_TILE_SET_SANMA,
                vs.as_mut_ptr()
            ),
            MJ_OK
        );
        let vs = vs.assume_init();
        assert_eq!(vs.best_discard, 33);
        assert_eq!(vs.held.count_ones(), 14); // 14 distinct types held
        counts[0] = 9;
        let mut text = [0 as c_char; 64];
        let mut n = 0;
        assert_eq!(
            mj_counts_format(counts.as_ptr(), text.as_mut_ptr(), 64, &mut n),
            MJ_INVALID_ARGUMENT
        );
        counts[0] = 0;
        assert_eq!(
            mj_counts_format(counts.as_ptr(), text.as_mut_ptr(), 64, &mut n),
            MJ_OK
        );
        assert_eq!(
            CStr::from_ptr(text.as_ptr()).to_str().unwrap(),
            "123456789p1235s"
        );
    }
}

#[test]
fn last_error_is_per_thread_and_survives_its_own_failure() {
    let mut out = null_mut();
    // SAFETY: valid pointers.
    unsafe { mj_game_new_preset(c"abc".as_ptr(), 0, &mut out) };
    let msg = last_error();
    assert!(msg.contains("abc"));
    let mut tiny = [0 as c_char; 2];
    let mut n = 0;
    // SAFETY: `tiny` holds 2 bytes.
    assert_eq!(
        unsafe { mj_last_error_message(tiny.as_mut_ptr(), 2, &mut n) },
        MJ_BUFFER_TOO_SMALL
    );
    assert_eq!(n, msg.len());
    assert_eq!(last_error(), msg);
    std::thread::spawn(|| assert_eq!(last_error(), ""))
        .join()
        .unwrap();
}

/// Every `extern "C"` function body goes through the panic boundary: `guard`,
/// `guard_infallible` or (for `mj_last_error_message`) `catch_unwind` directly.
/// (A textual check: it keeps a new export from forgetting the boundary.)
#[test]
fn every_export_is_inside_the_panic_boundary() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut exports = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut rest = text.as_str();
        while let Some(pos) = rest.find("extern \"C\" fn ") {
            let after = &rest[pos..];
            let name: String = after["extern \"C\" fn ".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let body_start = after.find('{').unwrap();
            let body = &after[body_start + 1..];
            let body = &body[..body.find("\n}").unwrap()];
            let guarded = ["guard(", "guard_infallible(", "catch_unwind("]
                .iter()
                .any(|g| body.contains(g));
            assert!(
                guarded,
                "{}: {name} is not wrapped in the panic boundary",
                path.display()
            );
            assert!(name.starts_with("mj_"), "{name} lacks the mj_ prefix");
            exports += 1;
            rest = &after[body_start..];
        }
    }
    assert!(exports >= 25, "only {exports} exports found");
}

// ---------------------------------------------------------------------------------------
// The learned-policy advisor (mj_advisor_*).

/// `mj_advisor_new` on `path`: the code, with `*out` checked untouched on failure.
fn try_load(path: &Path) -> mj_result {
    let sentinel = 0x1234usize as *mut mj_advisor;
    let mut out = sentinel;
    // SAFETY: NUL-terminated path, valid out pointer.
    let r = unsafe { mj_advisor_new(c_path(path).as_ptr(), &mut out) };
    if r == MJ_OK {
        // SAFETY: a fresh advisor.
        unsafe { mj_advisor_free(out) };
    } else {
        assert_eq!(out, sentinel, "a failed mj_advisor_new wrote *out");
    }
    r
}

#[test]
fn advisor_nulls_and_bad_models() {
    let dir = scratch("bad-models");
    let good = write_model(&dir, "good", "sanma", 1);
    let g = Game::new(MJ_RULES_SANMA, 1);
    let mut out = null_mut();
    let mut adv = std::mem::MaybeUninit::<mj_advice>::uninit();
    let mut info = mj_model_info::default();
    let mut n = 77usize;
    // SAFETY (all calls below): pointers valid or deliberately NULL.
    unsafe {
        assert_eq!(mj_advisor_new(null(), &mut out), MJ_NULL_POINTER);
        assert!(
            last_error().contains("`model_path` is NULL"),
            "{}",
            last_error()
        );
        assert_eq!(
            mj_advisor_new(c_path(&good).as_ptr(), null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_advisor_new(c"".as_ptr(), &mut out), MJ_INVALID_ARGUMENT);
        assert!(out.is_null());
        assert_eq!(
            mj_advisor_advise(null(), g.0, 0, adv.as_mut_ptr()),
            MJ_NULL_POINTER
        );
        let a = Advisor::load(&good);
        assert_eq!(
            mj_advisor_advise(a.0, null(), 0, adv.as_mut_ptr()),
            MJ_NULL_POINTER
        );
        assert_eq!(mj_advisor_advise(a.0, g.0, 0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(mj_advisor_info(null(), &mut info), MJ_NULL_POINTER);
        assert_eq!(mj_advisor_info(a.0, null_mut()), MJ_NULL_POINTER);
        assert_eq!(
            mj_advisor_run_id(null(), null_mut(), 0, &mut n),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_advisor_run_id(a.0, null_mut(), 0, null_mut()),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_advisor_run_id(a.0, null_mut(), 4, &mut n),
            MJ_NULL_POINTER
        );
        mj_advisor_free(null_mut());
    }
    assert_eq!(n, 77, "a failed call wrote its length output");

    // Missing model; model present but sidecar missing.
    assert_eq!(try_load(&dir.join("missing.onnx")), MJ_MODEL_ERROR);
    assert!(last_error().starts_with("mj_advisor_new: reading the model"));
    assert!(last_error().contains("missing.onnx"), "{}", last_error());
    // The message carries its io cause (C callers get one string), exactly once.
    let cause = std::fs::read(dir.join("missing.onnx"))
        .unwrap_err()
        .to_string();
    assert_eq!(last_error().matches(&cause).count(), 1, "{}", last_error());
    let bytes = std::fs::read(&good).unwrap();
    let sidecar = std::fs::read_to_string(Sidecar::path_for(&good)).unwrap();
    let lonely = dir.join("lonely.onnx");
    std::fs::write(&lonely, &bytes).unwrap();
    assert_eq!(try_load(&lonely), MJ_MODEL_ERROR);
    assert!(last_error().contains("lonely.json"), "{}", last_error());

    // Corrupt and truncated ONNX files next to a valid sidecar.
    let with_sidecar = |name: &str, model: &[u8], side: &str| -> PathBuf {
        let p = dir.join(format!("{name}.onnx"));
        std::fs::write(&p, model).unwrap();
        std::fs::write(Sidecar::path_for(&p), side).unwrap();
        p
    };
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    assert_eq!(
        try_load(&with_sidecar("corrupt", &garbage, &sidecar)),
        MJ_MODEL_ERROR
    );
    assert!(last_error().contains("corrupt.onnx"), "{}", last_error());
    for cut in [0, 16, bytes.len() / 2, bytes.len() - 1] {
        assert_eq!(
            try_load(&with_sidecar("truncated", &bytes[..cut], &sidecar)),
            MJ_MODEL_ERROR,
            "cut {cut}"
        );
    }
    // Corrupt, truncated and inconsistent sidecars next to a valid model.
    assert_eq!(
        try_load(&with_sidecar("badjson", &bytes, "{not json")),
        MJ_MODEL_ERROR
    );
    assert!(last_error().contains("badjson.json"), "{}", last_error());
    assert_eq!(
        try_load(&with_sidecar(
            "cutjson",
            &bytes,
            &sidecar[..sidecar.len() / 2]
        )),
        MJ_MODEL_ERROR
    );

    // Valid files that do not fit: another encoding version, an unknown preset.
    let other_encoding = sidecar.replace(
        &format!("\"encoding_version\": {}", engine::encode::ENCODING_VERSION),
        "\"encoding_version\": 999",
    );
    assert_ne!(other_encoding, sidecar);
    assert_eq!(
        try_load(&with_sidecar("encoding", &bytes, &other_encoding)),
        MJ_MODEL_MISMATCH
    );
    assert!(
        last_error().contains("encoding version 999"),
        "{}",
        last_error()
    );
    let riichi = sidecar.replace("\"sanma\"", "\"riichi\"");
    assert_ne!(riichi, sidecar);
    assert_eq!(
        try_load(&with_sidecar("riichi", &bytes, &riichi)),
        MJ_MODEL_MISMATCH
    );
    assert!(last_error().contains("\"riichi\""), "{}", last_error());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn advisor_errors_leave_the_advice_untouched() {
    let dir = scratch("advise-errors");
    let sanma = Advisor::load(&write_model(&dir, "sanma", "sanma", 2));
    let four = Advisor::load(&write_model(&dir, "four", "four-player", 3));
    let g3 = Game::new(MJ_RULES_SANMA, 5);
    let g4 = Game::new(MJ_RULES_FOUR_PLAYER, 5);
    let mut adv = std::mem::MaybeUninit::<mj_advice>::zeroed();
    // SAFETY (all calls below): live handles, valid out pointer.
    unsafe {
        assert_eq!(
            mj_advisor_advise(sanma.0, g4.0, 0, adv.as_mut_ptr()),
            MJ_MODEL_MISMATCH
        );
        assert!(last_error().contains("\"sanma\""), "{}", last_error());
        assert_eq!(
            mj_advisor_advise(four.0, g3.0, 0, adv.as_mut_ptr()),
            MJ_MODEL_MISMATCH
        );
        assert_eq!(
            mj_advisor_advise(sanma.0, g3.0, 1, adv.as_mut_ptr()),
            MJ_NOT_YOUR_TURN
        );
        assert_eq!(
            mj_advisor_advise(sanma.0, g3.0, 3, adv.as_mut_ptr()),
            MJ_INVALID_ARGUMENT
        );
        let untouched = adv.assume_init();
        assert_eq!((untouched.action, untouched.num_ranked), (0, 0));
        assert!(sanma.advise(&g3, 0).is_ok());
        assert!(four.advise(&g4, 0).is_ok());

        let mut info = mj_model_info::default();
        assert_eq!(mj_advisor_info(four.0, &mut info), MJ_OK);
        assert_eq!(info.rules, MJ_RULES_FOUR_PLAYER);
        assert_eq!(info.encoding_version, engine::encode::ENCODING_VERSION);
        assert_eq!(info.parameter_version, 1234);
        assert_eq!(
            (info.layers, info.d_model, info.heads, info.ff),
            (1, 16, 2, 32)
        );
        assert_eq!(mj_advisor_info(sanma.0, &mut info), MJ_OK);
        assert_eq!(info.rules, MJ_RULES_SANMA);
        let mut buf = [b'x' as c_char; 64];
        let mut n = 0;
        assert_eq!(
            mj_advisor_run_id(sanma.0, buf.as_mut_ptr(), 4, &mut n),
            MJ_BUFFER_TOO_SMALL
        );
        assert_eq!((n, buf[0]), ("runs/abi-test".len(), b'x' as c_char));
        assert_eq!(
            mj_advisor_run_id(sanma.0, buf.as_mut_ptr(), buf.len(), &mut n),
            MJ_OK
        );
        assert_eq!(
            CStr::from_ptr(buf.as_ptr()).to_str().unwrap(),
            "runs/abi-test"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Checks one advice against the game's legal actions and returns it.
fn check_policy_advice(adv: &mj_advice, legal: &[u16]) {
    assert_eq!(adv.source, MJ_ADVICE_POLICY);
    assert!(adv.has_value && adv.value.is_finite());
    assert_eq!(adv.num_ranked as usize, legal.len());
    let ranked = &adv.ranked[..adv.num_ranked as usize];
    assert_eq!(ranked[0].action, adv.action);
    assert!(legal.contains(&adv.action));
    let mut actions: Vec<u16> = ranked.iter().map(|r| r.action).collect();
    actions.sort_unstable();
    let mut sorted_legal = legal.to_vec();
    sorted_legal.sort_unstable();
    assert_eq!(actions, sorted_legal, "ranked actions are the legal ones");
    let sum: f32 = ranked.iter().map(|r| r.score).sum();
    assert!((sum - 1.0).abs() < 1e-4, "probabilities sum to {sum}");
    assert!(ranked.iter().all(|r| (0.0..=1.0).contains(&r.score)));
    assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
}

/// Plays a sanma game where seat 0 follows the policy and the others the efficiency
/// bot, comparing every advice with `inference::Advisor` on a twin engine game.
#[test]
fn advisor_matches_the_inference_crate() {
    use engine::game::Game as EngineGame;
    let dir = scratch("parity");
    let path = write_model(&dir, "policy", "sanma", 4);
    let ffi = Advisor::load(&path);
    let direct = inference::Advisor::load(&path).unwrap();
    let g = Game::new(MJ_RULES_SANMA, 11);
    let mut twin = EngineGame::new(engine::Rules::sanma(), 11).unwrap();
    let bot = Bot::efficiency();
    let (mut advised, mut followed) = (0, 0);
    for _ in 0..2000 {
        let st = g.status();
        if st.phase == MJ_PHASE_GAME_OVER {
            break;
        }
        if st.phase == MJ_PHASE_HAND_OVER {
            assert_eq!(ffi.advise(&g, 0).unwrap_err(), MJ_HAND_OVER);
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
        let legal = g.legal(seat);
        let adv = ffi.advise(&g, seat).unwrap();
        check_policy_advice(&adv, &legal);
        let twin_legal = twin.legal_actions(seat);
        let expected = direct
            .advise_with_legal(&twin.observation(seat).unwrap(), twin_legal.as_slice())
            .unwrap();
        assert_eq!(adv.action as usize, expected.actions[0].index);
        assert_eq!(adv.shanten, expected.shanten);
        assert_eq!(adv.value, expected.value.unwrap());
        assert_eq!(adv.num_ranked as usize, expected.actions.len());
        for (r, e) in adv.ranked.iter().zip(&expected.actions) {
            assert_eq!(r.action as usize, e.index);
            assert_eq!(r.score, e.probability.unwrap());
        }
        advised += 1;
        let action = if seat == 0 {
            followed += 1;
            adv.action
        } else {
            let mut a = 0u16;
            // SAFETY: live bot and game, valid out pointer.
            assert_eq!(unsafe { mj_bot_choose(bot.0, g.0, seat, &mut a) }, MJ_OK);
            a
        };
        // SAFETY: live game.
        assert_eq!(unsafe { mj_game_apply(g.0, seat, action) }, MJ_OK);
        twin.apply(
            seat,
            engine::game::Action::from_index(action as usize).unwrap(),
        )
        .unwrap();
    }
    assert!(g.status().phase == MJ_PHASE_GAME_OVER, "the game finished");
    assert_eq!(ffi.advise(&g, 0).unwrap_err(), MJ_GAME_OVER);
    assert!(
        advised > 50 && followed > 10,
        "{advised} advised, {followed} followed"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// One advisor, several threads at once (the documented contract): every thread gets
/// the single-threaded answers.
#[test]
fn advisor_is_shared_by_threads() {
    struct Shared(*const mj_advisor, *const mj_game);
    // SAFETY: mj_advisor and mj_game are documented as usable through const pointers
    // from several threads at once; nothing mutates them during the scope.
    unsafe impl Sync for Shared {}
    let dir = scratch("threads");
    let a = Advisor::load(&write_model(&dir, "policy", "four-player", 5));
    let games: Vec<Game> = (0..4).map(|s| Game::new(MJ_RULES_FOUR_PLAYER, s)).collect();
    let expected: Vec<mj_advice> = games.iter().map(|g| a.advise(g, 0).unwrap()).collect();
    let shared: Vec<Shared> = games.iter().map(|g| Shared(a.0, g.0)).collect();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (shared, expected) = (&shared, &expected);
            s.spawn(move || {
                for i in 0..20 {
                    let k = (t + i) % shared.len();
                    let mut out = std::mem::MaybeUninit::<mj_advice>::uninit();
                    // SAFETY: live advisor and game (see `Shared`), valid out pointer.
                    let r =
                        unsafe { mj_advisor_advise(shared[k].0, shared[k].1, 0, out.as_mut_ptr()) };
                    assert_eq!(r, MJ_OK);
                    // SAFETY: written on MJ_OK.
                    let got = unsafe { out.assume_init() };
                    let want = &expected[k];
                    assert_eq!((got.action, got.num_ranked), (want.action, want.num_ranked));
                    assert_eq!(got.value, want.value);
                    for j in 0..got.num_ranked as usize {
                        assert_eq!(got.ranked[j].action, want.ranked[j].action);
                        assert_eq!(got.ranked[j].score, want.ranked[j].score);
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// The efficiency advisor fills the appended fields too.
#[test]
fn efficiency_advice_has_no_value() {
    let g = Game::new(MJ_RULES_SANMA, 9);
    let mut adv = std::mem::MaybeUninit::<mj_advice>::uninit();
    // SAFETY: live game, valid out pointer.
    assert_eq!(
        unsafe { mj_efficiency_advise(g.0, 0, adv.as_mut_ptr()) },
        MJ_OK
    );
    // SAFETY: written on MJ_OK.
    let adv = unsafe { adv.assume_init() };
    assert_eq!(adv.source, MJ_ADVICE_EFFICIENCY);
    assert!(!adv.has_value);
    assert_eq!(adv.value, 0.0);
    // The appended fields did not move the earlier ones.
    assert_eq!(std::mem::offset_of!(mj_advice, ranked), 4);
    assert_eq!(std::mem::offset_of!(mj_advice, source), 260);
    assert_eq!(std::mem::size_of::<mj_advice>(), 268);
}

/// The model that ships in `models/` loads through the C ABI, describes itself, and
/// gives legal, normalised advice on a sanma game (and refuses a four-player one).
#[test]
fn shipped_model_through_the_abi() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/default.onnx");
    let advisor = Advisor::load(&path);
    let mut info = std::mem::MaybeUninit::<mj_model_info>::uninit();
    // SAFETY: live advisor, valid out pointer.
    assert_eq!(
        unsafe { mj_advisor_info(advisor.0, info.as_mut_ptr()) },
        MJ_OK
    );
    // SAFETY: MJ_OK means it was written.
    let info = unsafe { info.assume_init() };
    assert_eq!(info.rules, MJ_RULES_SANMA);
    assert_eq!(info.encoding_version, engine::encode::ENCODING_VERSION);
    let g = Game::new(MJ_RULES_SANMA, 3);
    let mut seats = [0u8; MJ_MAX_PLAYERS];
    let mut n = 0;
    // SAFETY: live game, buffer of MJ_MAX_PLAYERS, valid out pointer.
    unsafe { mj_game_seats_to_act(g.0, seats.as_mut_ptr(), seats.len(), &mut n) };
    let legal = g.legal(seats[0]);
    check_policy_advice(&advisor.advise(&g, seats[0]).unwrap(), &legal);
    let four = Game::new(MJ_RULES_FOUR_PLAYER, 3);
    assert_eq!(advisor.advise(&four, 0).unwrap_err(), MJ_MODEL_MISMATCH);
}

/// `mj_advisor_new_shipped` picks the shipped model that fits a preset: the riichi
/// sanma model advises a tenhou-sanma game legally and refuses a game of other rules;
/// a preset no shipped model fits, an unknown one and NULLs are clear errors that leave
/// `*out` untouched.
#[test]
fn shipped_model_by_preset() {
    let mut out = null_mut();
    // SAFETY (all calls below): pointers valid or deliberately NULL.
    unsafe {
        assert_eq!(
            mj_advisor_new_shipped(c"tenhou-sanma".as_ptr(), &mut out),
            MJ_OK
        );
        let advisor = Advisor(out);
        let mut info = std::mem::MaybeUninit::<mj_model_info>::uninit();
        assert_eq!(mj_advisor_info(advisor.0, info.as_mut_ptr()), MJ_OK);
        assert_eq!(info.assume_init().rules, MJ_RULES_SANMA);
        let mut game = null_mut();
        assert_eq!(
            mj_game_new_preset(c"tenhou-sanma".as_ptr(), 4, &mut game),
            MJ_OK
        );
        let g = Game(game);
        let mut seats = [0u8; MJ_MAX_PLAYERS];
        let mut n = 0;
        mj_game_seats_to_act(g.0, seats.as_mut_ptr(), seats.len(), &mut n);
        let legal = g.legal(seats[0]);
        check_policy_advice(&advisor.advise(&g, seats[0]).unwrap(), &legal);
        let plain = Game::new(MJ_RULES_SANMA, 4);
        assert_eq!(advisor.advise(&plain, 0).unwrap_err(), MJ_MODEL_MISMATCH);

        let mut untouched = std::ptr::dangling_mut::<mj_advisor>();
        assert_eq!(
            mj_advisor_new_shipped(c"four-player".as_ptr(), &mut untouched),
            MJ_MODEL_MISMATCH
        );
        assert!(last_error().contains("no shipped model fits the rules preset \"four-player\""));
        assert_eq!(
            mj_advisor_new_shipped(c"riichi".as_ptr(), &mut untouched),
            MJ_INVALID_ARGUMENT
        );
        assert!(last_error().contains("unknown rules preset \"riichi\""));
        assert_eq!(untouched, std::ptr::dangling_mut::<mj_advisor>());
        assert_eq!(
            mj_advisor_new_shipped(null(), &mut untouched),
            MJ_NULL_POINTER
        );
        assert_eq!(
            mj_advisor_new_shipped(c"sanma".as_ptr(), null_mut()),
            MJ_NULL_POINTER
        );
    }
}
