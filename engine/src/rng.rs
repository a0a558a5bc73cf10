//! A small seeded random-number generator: xoshiro256** seeded through SplitMix64.
//!
//! Algorithm after Blackman & Vigna, "Scrambled linear pseudorandom number generators"
//! (2018). Written here so that the engine stays `no_std`, dependency-free and
//! bit-for-bit reproducible across platforms and crate versions: a game record stores
//! only its seed, so the generator's output is part of the record format.

use serde::{Deserialize, Serialize};

/// xoshiro256** state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng { s }
    }

    /// Derives an independent seed for stream `stream` of `seed` (hands of a game,
    /// tables of a worker): SplitMix64 of the pair, so nearby seeds do not correlate.
    pub fn derive_seed(seed: u64, stream: u64) -> u64 {
        let mut sm = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        splitmix64(&mut sm)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's multiply-and-reject, unbiased);
    /// returns 0 when `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        loop {
            let x = self.next_u64() as u32;
            let m = (x as u64) * (n as u64);
            let low = m as u32;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform float in `[0, 1)` with 24 random bits.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// Fisher–Yates shuffle in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_seed_sensitive() {
        let mut r1 = Rng::new(42);
        let mut r2 = Rng::new(42);
        let mut r3 = Rng::new(43);
        let x1: [u64; 8] = core::array::from_fn(|_| r1.next_u64());
        let x2: [u64; 8] = core::array::from_fn(|_| r2.next_u64());
        let x3: [u64; 8] = core::array::from_fn(|_| r3.next_u64());
        assert_eq!(x1, x2);
        assert_ne!(x1, x3);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(7);
        let mut hist = [0u32; 6];
        for _ in 0..60_000 {
            let v = r.below(6);
            assert!(v < 6);
            hist[v as usize] += 1;
        }
        for h in hist {
            assert!((9_000..11_000).contains(&h), "{hist:?}");
        }
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(1);
        let mut v: [u8; 50] = core::array::from_fn(|i| i as u8);
        r.shuffle(&mut v);
        let mut sorted = v;
        sorted.sort();
        assert_eq!(sorted, core::array::from_fn(|i| i as u8));
        assert_ne!(v, sorted);
    }
}
