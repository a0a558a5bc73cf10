//! Arbitrary bytes as a model and its sidecar, as `advise --model`, `mj_advisor_new` and
//! `Advisor::from_bytes` take them: loading never panics (tract's parser and optimiser
//! included), and a model that loads advises on a fresh position without panicking.
//!
//! Input: sidecar length (u16 LE), the sidecar's JSON, then the ONNX bytes. The seeds
//! (`cargo run -p mahjong-inference --example fuzz_seeds`) are small exported models, so
//! mutations reach the graph and not only the protobuf framing.
#![no_main]

use std::path::Path;

use engine::game::Game;
use engine::rules::Rules;
use inference::Advisor;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let sidecar_len = u16::from_le_bytes([data[0], data[1]]) as usize;
    let rest = &data[2..];
    if sidecar_len > rest.len() {
        return;
    }
    let Ok(sidecar) = std::str::from_utf8(&rest[..sidecar_len]) else {
        return;
    };
    let onnx = &rest[sidecar_len..];
    let Ok(advisor) = Advisor::from_bytes(onnx, sidecar, Path::new("fuzz.onnx")) else {
        return;
    };
    for rules in [Rules::sanma(), Rules::four_player()] {
        let Ok(game) = Game::new(rules, 7) else {
            continue;
        };
        let seat = game.seats_to_act()[0];
        let obs = game.observation(seat).expect("the seat to act observes");
        // An error (a model for other rules, say) is fine; a panic is not.
        let _ = advisor.advise(&obs);
    }
});
