//! The Python extension module `mahjong_engine._native` (PyO3, stable ABI from CPython
//! 3.9): the engine's game, the efficiency queries, the bots, the learned-policy and
//! search advisors, `VecGame`, N games stepped in Rust per call, `replay_log` and
//! `read_log` (game logs replayed exactly, and into training arrays), and `arena` /
//! `arena_games` (the duplicate arena, per hand and per whole game).
//!
//! The Python package `mahjong_engine` (python/mahjong_engine/) re-exports these and adds
//! the PettingZoo AEC environment, the Gymnasium wrapper and the benchmark. Every error
//! becomes a Python exception (a subclass of `mahjong_engine.MahjongError`, itself a
//! `ValueError`) carrying the engine's message; nothing here panics on input, and a
//! failed call leaves the game as it was.
//!
//! Depends on the engine, logs, arena, inference (tract, never libtorch) and search
//! crates only.

#![forbid(unsafe_code)]

mod advisor;
mod arena_runs;
mod bots;
mod efficiency;
mod errors;
mod events;
mod game;
mod logs;
mod rules;
mod vec_game;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUM_ACTIONS", engine::game::NUM_ACTIONS)?;
    m.add("POLICY_ACTIONS_V1", engine::game::POLICY_ACTIONS_V1)?;
    m.add("NUM_TILE_TYPES", engine::NUM_TILE_TYPES)?;
    m.add("ENCODING_VERSION", engine::encode::ENCODING_VERSION)?;
    m.add(
        "OBSERVATION_SHAPE",
        (engine::encode::NUM_TOKENS, engine::encode::TOKEN_FEATURES),
    )?;
    errors::register(m)?;
    rules::register(m)?;
    game::register(m)?;
    efficiency::register(m)?;
    bots::register(m)?;
    advisor::register(m)?;
    vec_game::register(m)?;
    logs::register(m)?;
    arena_runs::register(m)?;
    Ok(())
}
