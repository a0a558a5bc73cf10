//! Arbitrary bytes as a model and its sidecar, as `advise --model`, `mj_advisor_new` and
//! `Advisor::from_bytes` take them: loading never panics (tract's parser and optimiser
//! included), and a model that loads advises on a fresh position without panicking.
//!
//! tract's own parser panics on some malformed graphs (tract-onnx 0.23.9, e.g. "no
//! entry found for key" at src/model.rs:187 for a node input naming no tensor); the
//! inference crate catches that at its boundary (`catch_unwind` around loading and
//! running) and returns `Error::Model`. libFuzzer aborts at every panic, caught or not,
//! so this target lets panics located in tract's crates unwind to that boundary and
//! aborts on any other.
//!
//! Input: sidecar length (u16 LE), the sidecar's JSON, then the ONNX bytes. The seeds
//! (`cargo run -p mahjong-inference --example fuzz_seeds`) are small exported models, so
//! mutations reach the graph and not only the protobuf framing.
#![no_main]

use std::path::Path;
use std::sync::Once;

use engine::game::Game;
use engine::rules::Rules;
use inference::Advisor;
use libfuzzer_sys::fuzz_target;

/// Replaces libFuzzer's abort-on-panic hook by one that spares panics raised inside tract.
fn spare_tract_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_tract = info
                .location()
                .is_some_and(|l| l.file().contains("/tract-"));
            if !in_tract {
                abort(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    spare_tract_panics();
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
