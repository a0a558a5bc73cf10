//! Arbitrary bytes as a training checkpoint, as `train --resume` reads it: parsing never
//! panics, and a checkpoint that parses either restores into a model and optimizer or is
//! refused with an error (wrong tensor names, shapes or value counts), never a panic
//! inside libtorch.
//!
//! Input: a mode byte, then either a whole checkpoint file (odd mode: the magic, length
//! and checksum checks are fuzzed too) or only its postcard payload (even mode: the
//! harness adds a valid header, so mutations reach the decoder and the restore). The
//! seed is the shipped run's checkpoint (`scripts/fuzz` writes it in both modes).
#![no_main]

use host_trainer::train::adam::Adam;
use host_trainer::train::checkpoint::Checkpoint;
use host_trainer::train::model::{ModelConfig, OwnedNet};
use libfuzzer_sys::fuzz_target;
use tch::Device;

/// The largest model the harness builds from a fuzzed config (a bigger one would only
/// test the allocator and the time limit).
const MAX_PARAMS: i64 = 2_000_000;

/// FNV-1a 64, the checkpoint's checksum (`host-trainer/src/train/checkpoint.rs`).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn small(c: &ModelConfig) -> bool {
    c.validate().is_ok()
        && c.layers <= 4
        && c.d_model <= 256
        && c.ff <= 1024
        && c.layers
            .saturating_mul(c.d_model.saturating_mul(4 * c.d_model + 2 * c.ff))
            <= MAX_PARAMS
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let file = if mode & 1 == 1 {
        rest.to_vec()
    } else {
        let mut f = b"MJPPOCK1".to_vec();
        f.extend_from_slice(&(rest.len() as u64).to_le_bytes());
        f.extend_from_slice(&fnv1a(rest).to_le_bytes());
        f.extend_from_slice(rest);
        f
    };
    let Ok(checkpoint) = Checkpoint::from_bytes(&file) else {
        return;
    };
    let config = checkpoint.params.model;
    if !small(&config) {
        return;
    }
    // An unknown encoding version is refused; a known one fixes the model's shape.
    let Ok(encoding) = checkpoint.params.encoding() else {
        return;
    };
    let Ok(net) = OwnedNet::new(config, encoding, Device::Cpu) else {
        return;
    };
    if checkpoint.params.load_into(&net.vs, encoding).is_ok() {
        let mut adam = Adam::new(&net.vs, 1e-3);
        let _ = adam.load_state(&checkpoint.adam);
    }
});
