//! Arbitrary text as a game log, as `replay-log` and `review` read it: both readers
//! (Tenhou JSON and mjai JSON lines, the format detected as the CLI does) never panic,
//! and a log that parses is replayed through the engine, which either matches it or
//! reports the first departure — never a panic. Seeds: the committed logs of
//! `host-trainer/tests/data/logs/` (`scripts/fuzz` copies them).
#![no_main]

use host_trainer::logs::{self, replay};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(log) = logs::read(text, None, None) {
        let _ = replay::replay_log(&log);
        // The writers take whatever parsed, and their output parses again.
        let tenhou = serde_json::to_string(&logs::tenhou::write(&log)).unwrap_or_default();
        let _ = logs::tenhou::read(&tenhou, Some(log.rules));
        let _ = logs::mjai::read(&logs::mjai::write(&log), Some(log.rules));
    }
});
