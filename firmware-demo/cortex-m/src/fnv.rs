//! FNV-1a hashing of value-score matrices. The host test hashes with the same
//! definition (a few lines, duplicated on purpose so that the two sides are written
//! independently): every field of [`ValueScores`] in declaration order, integers little
//! endian, floats by their IEEE bits. Bit-exact equality is expected: the engine's
//! scores use only `+ - * /`, comparisons and casts on `f32`, which both the host and
//! the Cortex-M4F FPU compute with IEEE round-to-nearest (no fused multiply-add).

use engine::efficiency::ValueScores;
use engine::NUM_TILE_TYPES;

/// 64-bit FNV-1a.
pub struct Fnv64(u64);

impl Fnv64 {
    pub const fn new() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }

    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }

    /// The two halves folded, for the short per-position hash.
    pub fn finish32(&self) -> u32 {
        (self.0 ^ (self.0 >> 32)) as u32
    }
}

/// Feeds every field of `v` to `h`.
pub fn hash_value_scores(h: &mut Fnv64, v: &ValueScores) {
    h.write(&v.held.to_le_bytes());
    for t in 0..NUM_TILE_TYPES {
        h.write(&v.shanten_after[t].to_le_bytes());
        h.write(&v.ukeire_types[t].to_le_bytes());
        h.write(&v.ukeire_tiles[t].to_le_bytes());
        h.write(&v.second_step[t].to_bits().to_le_bytes());
        h.write(&v.score[t].to_bits().to_le_bytes());
    }
}
