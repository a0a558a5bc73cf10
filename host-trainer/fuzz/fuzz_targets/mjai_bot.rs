//! Arbitrary text as the `host-trainer mjai` bot's standard input: every line (one
//! event or an array of events, as mjai servers send them) is read and answered, or
//! refused with an error, never a panic; lines after an error are fed on, which reaches
//! states a well-behaved server never sends. Seeds: the
//! committed mjai streams and logs (`scripts/fuzz` copies them).
#![no_main]

use host_trainer::logs::mjai::Dialect;
use libfuzzer_sys::fuzz_target;
use mjai_bot::answer::Decider;
use mjai_bot::{Bot, BotConfig};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut bot = Bot::new(BotConfig {
        seat: None,
        rules: None,
        dialect: Dialect::Nukidora,
        decider: Decider::Efficiency,
    });
    for line in text.lines().take(400) {
        let _ = bot.handle_line(line);
        let _ = bot.observation();
    }
});
