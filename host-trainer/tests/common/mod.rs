//! Helpers shared by the training tests.

use host_trainer::train::model::ModelConfig;

/// A one-layer, 16-wide model: fast to build and run in tests.
#[allow(dead_code)] // not every test file uses it
pub const TINY: ModelConfig = ModelConfig {
    layers: 1,
    d_model: 16,
    heads: 2,
    ff: 32,
    tokens: engine::tile::TileSet::FourPlayer,
};

/// The options of a tiny, fast PPO run (one-layer 16-wide model, one worker with two
/// tables, 48 steps per update), for tests that train for real; each test adds its run
/// folder, id, device, evaluation, checkpoint and budget options.
pub const TINY_TRAINING: [&str; 20] = [
    "--layers",
    "1",
    "--d-model",
    "16",
    "--heads",
    "2",
    "--ff",
    "32",
    "--workers",
    "1",
    "--tables",
    "2",
    "--steps-per-update",
    "48",
    "--minibatch",
    "16",
    "--epochs",
    "1",
    "--send-every",
    "2",
];
