//! Arbitrary bytes as a postcard hand record (`HandRecord`, what `mj_game_hand_record`
//! writes and `advise --stdin-json` reads as JSON) and as a whole-game record
//! (`GameRecord`): decoding and replay never panic, a replayed game satisfies the
//! invariants, and an accepted record round-trips through its encoding.
#![no_main]

use engine::game::{check_invariants, GameRecord, HandRecord, RECORD_MAX_BYTES};
use libfuzzer_sys::fuzz_target;

/// Actions of capacity for whole-game records (a few hands' worth).
const GAME_CAP: usize = 1024;

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = HandRecord::from_postcard(data) {
        if let Ok(game) = record.replay() {
            check_invariants(&game).expect("a replayed hand satisfies the invariants");
            let again = game.hand_record();
            let mut buf = [0u8; RECORD_MAX_BYTES];
            let bytes = again
                .to_postcard(&mut buf)
                .expect("a replayed record encodes");
            let back = HandRecord::from_postcard(bytes).expect("an encoded record decodes");
            assert_eq!(back, again);
        }
    }
    if let Ok(record) = postcard::from_bytes::<GameRecord<GAME_CAP>>(data) {
        if let Ok(game) = record.replay() {
            check_invariants(&game).expect("a replayed game satisfies the invariants");
        }
    }
});
