//! Reference output for the Python package's parity test (python/tests/test_parity.py):
//! plays one game of efficiency bots, seat by seat in `seats_to_act` order, with the
//! engine alone, and writes what the bindings must reproduce byte for byte.
//!
//! ```text
//! cargo run -p mahjong-engine --example python_parity -- RULES SEED OUT_DIR
//! ```
//!
//! Writes `OUT_DIR/record.bin` (the game's `GameRecord` in postcard) and
//! `OUT_DIR/observations.f32` (the encoding of the deciding seat at every decision, in
//! order, little-endian `f32`, `ENCODED_LEN` values each).

use std::io::Write;

use engine::bots::{Agent, EfficiencyBot};
use engine::encode::{encode, ENCODED_LEN};
use engine::game::{Game, GameRecord, Phase};
use engine::rules::Rules;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rules, seed, out] = args.as_slice() else {
        return Err("usage: python_parity RULES SEED OUT_DIR".into());
    };
    let rules = Rules::preset(rules).ok_or_else(|| format!("unknown rules {rules:?}"))?;
    let seed: u64 = seed.parse().map_err(|e| format!("seed {seed:?}: {e}"))?;
    let mut game = Game::new(rules, seed).map_err(|e| e.to_string())?;
    let mut record: Box<GameRecord<16_384>> = Box::new(GameRecord::new(rules, seed));
    let mut observations = Vec::new();
    let mut enc = [0.0f32; ENCODED_LEN];
    while !game.is_over() {
        if game.phase() == Phase::HandOver {
            game.start_next_hand().map_err(|e| e.to_string())?;
            continue;
        }
        let seat = game.seats_to_act()[0];
        let obs = game.observation(seat).map_err(|e| e.to_string())?;
        encode(&obs, &mut enc);
        for x in enc {
            observations.extend_from_slice(&x.to_le_bytes());
        }
        let action = EfficiencyBot.act(&obs, &game.legal_actions(seat));
        game.apply(seat, action).map_err(|e| e.to_string())?;
        record.push(seat, action).map_err(|e| e.to_string())?;
    }
    let bytes = postcard::to_allocvec(&*record).map_err(|e| e.to_string())?;
    let dir = std::path::Path::new(out);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let write = |name: &str, data: &[u8]| -> Result<(), String> {
        let mut f = std::fs::File::create(dir.join(name)).map_err(|e| e.to_string())?;
        f.write_all(data).map_err(|e| e.to_string())
    };
    write("record.bin", &bytes)?;
    write("observations.f32", &observations)?;
    Ok(())
}
