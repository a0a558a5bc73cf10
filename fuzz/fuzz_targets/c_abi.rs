//! The C ABI entry points that take strings or bytes, called as a C program would with
//! arbitrary input: mpsz hands (`mj_shanten`, `mj_ukeire`, `mj_value_scores`,
//! `mj_counts_parse`), preset names (`mj_game_new_preset`), hand records
//! (`mj_game_replay`), and output buffers of arbitrary length (`mj_counts_format`,
//! `mj_action_format`, `mj_game_hand_record`, `mj_game_legal_actions`). No call may
//! panic — libFuzzer aborts at the first panic even inside the ABI's panic boundary, so
//! a panic the boundary would have turned into `MJ_PANIC` is reported here too — and a
//! call that succeeds must have written what it promises.
//!
//! Input: a selector byte, a parameter byte (tile set, buffer length or seat), then the
//! string (cut at the first NUL) or the bytes.
#![no_main]

use std::ffi::CString;
use std::mem::MaybeUninit;
use std::ptr::null_mut;

use ffi::*;
use libfuzzer_sys::fuzz_target;

fn c_string(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).expect("no interior NUL after cutting")
}

/// `mj_game_hand_record` and `mj_game_legal_actions` into buffers of `len` entries,
/// on a game fresh from `preset`, checking the written counts against the buffer.
fn buffers(game: *mut mj_game, len: usize, seat: u8) {
    let mut buf = vec![0u8; len];
    let mut written = 0usize;
    // SAFETY: live game; `buf` is valid for `len` writes; valid `written`.
    let r = unsafe { mj_game_hand_record(game, buf.as_mut_ptr(), len, &mut written) };
    if r == mj_result::MJ_OK {
        assert!(written <= len, "record fits the buffer it was written to");
        let mut replayed = null_mut();
        // SAFETY: `buf[..written]` is initialised; valid out pointer.
        let r = unsafe { mj_game_replay(buf.as_ptr(), written, &mut replayed) };
        assert_eq!(r, mj_result::MJ_OK, "a written record replays");
        // SAFETY: from mj_game_replay, freed once.
        unsafe { mj_game_free(replayed) };
    }
    let mut actions = vec![0u16; len];
    // SAFETY: live game; `actions` valid for `len` writes; valid `written`.
    let r = unsafe { mj_game_legal_actions(game, seat, actions.as_mut_ptr(), len, &mut written) };
    if r == mj_result::MJ_OK {
        assert!(written <= len, "actions fit the buffer");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (selector, param, rest) = (data[0], data[1], &data[2..]);
    let tile_set = u32::from(param % 4);
    match selector % 8 {
        0 => {
            let mut out = MaybeUninit::<mj_shanten_info>::uninit();
            // SAFETY: NUL-terminated string, valid out pointer.
            let _ = unsafe { mj_shanten(c_string(rest).as_ptr(), tile_set, out.as_mut_ptr()) };
        }
        1 => {
            let mut out = MaybeUninit::<mj_ukeire_info>::uninit();
            // SAFETY: NUL-terminated string, valid out pointer.
            let _ = unsafe { mj_ukeire(c_string(rest).as_ptr(), tile_set, out.as_mut_ptr()) };
        }
        2 => {
            let mut out = MaybeUninit::<mj_value_scores_info>::uninit();
            // SAFETY: NUL-terminated string, valid out pointer.
            let _ = unsafe { mj_value_scores(c_string(rest).as_ptr(), tile_set, out.as_mut_ptr()) };
        }
        3 => {
            let mut counts = [0u8; 34];
            // SAFETY: NUL-terminated string, 34 writable counts.
            let r =
                unsafe { mj_counts_parse(c_string(rest).as_ptr(), tile_set, counts.as_mut_ptr()) };
            if r == mj_result::MJ_OK {
                let len = usize::from(param);
                let mut buf = vec![0u8; len];
                let mut written = 0usize;
                // SAFETY: 34 readable counts; `buf` valid for `len` writes.
                let r = unsafe {
                    mj_counts_format(counts.as_ptr(), buf.as_mut_ptr().cast(), len, &mut written)
                };
                if r == mj_result::MJ_OK {
                    assert!(written < len.max(1), "formatted hand and its NUL fit");
                }
            }
        }
        4 => {
            let len = usize::from(param);
            let action = u16::from_le_bytes([
                rest.first().copied().unwrap_or(0),
                rest.get(1).copied().unwrap_or(0),
            ]);
            let mut buf = vec![0u8; len];
            let mut written = 0usize;
            // SAFETY: `buf` valid for `len` writes; valid `written`.
            let _ = unsafe { mj_action_format(action, buf.as_mut_ptr().cast(), len, &mut written) };
        }
        5 => {
            let mut game = null_mut();
            let seed = u64::from(param);
            // SAFETY: NUL-terminated string, valid out pointer.
            let r = unsafe { mj_game_new_preset(c_string(rest).as_ptr(), seed, &mut game) };
            if r == mj_result::MJ_OK {
                buffers(game, usize::from(param), param % 5);
                // SAFETY: from mj_game_new_preset, freed once.
                unsafe { mj_game_free(game) };
            }
        }
        _ => {
            let mut game = null_mut();
            // SAFETY: `rest` is valid for `rest.len()` reads; valid out pointer.
            let r = unsafe { mj_game_replay(rest.as_ptr(), rest.len(), &mut game) };
            if r == mj_result::MJ_OK {
                let mut obs = MaybeUninit::<mj_observation>::uninit();
                // SAFETY: live game, valid out pointer.
                let _ = unsafe { mj_game_observation(game, param % 5, obs.as_mut_ptr()) };
                buffers(game, usize::from(param) * 8, param % 5);
                // SAFETY: from mj_game_replay, freed once.
                unsafe { mj_game_free(game) };
            }
        }
    }
});
