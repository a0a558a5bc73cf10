//! An optional, caller-owned memo of [`value_scores`]: the same hand recurs across a
//! search's simulations, an advisor's explanation and its encoding, or both encodings
//! of one observation, and a hit costs one key comparison instead of the full
//! computation. The engine itself keeps no state between calls (no globals, no
//! allocation), so the cache is an explicit value the caller creates, owns and passes;
//! it is a fixed array, direct-mapped by a hash of the whole input.

use super::{value_scores, ValueScores};
use crate::shanten::Forms;
use crate::tile::{TileCounts, TileSet, NUM_TILE_TYPES};

/// Slots of a [`ValueScoresCache`] (about 730 bytes each).
pub const VALUE_SCORES_CACHE_SLOTS: usize = 16;

/// The input of one [`value_scores`] call, compared whole on every hit.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    counts: TileCounts,
    unseen: TileCounts,
    melds: u8,
    tile_set: TileSet,
    forms: Forms,
}

/// A direct-mapped memo of [`value_scores`] results, [`VALUE_SCORES_CACHE_SLOTS`]
/// slots (about 12 KB): [`ValueScoresCache::value_scores`] returns exactly what
/// [`value_scores`] returns for the same arguments, from the slot when the same input
/// was the last one stored there. Allocation-free and `no_std`; reuse one per thread.
#[derive(Clone)]
pub struct ValueScoresCache {
    slots: [Option<(Key, ValueScores)>; VALUE_SCORES_CACHE_SLOTS],
    hits: u64,
    misses: u64,
}

impl Default for ValueScoresCache {
    fn default() -> Self {
        ValueScoresCache::new()
    }
}

impl ValueScoresCache {
    /// An empty cache.
    pub const fn new() -> ValueScoresCache {
        ValueScoresCache {
            slots: [None; VALUE_SCORES_CACHE_SLOTS],
            hits: 0,
            misses: 0,
        }
    }

    /// [`value_scores`] of the arguments, from the cache when they were the last input
    /// stored in their slot, else computed and stored. Never panics.
    pub fn value_scores(
        &mut self,
        counts: &TileCounts,
        melds: u8,
        tile_set: TileSet,
        forms: Forms,
        unseen: &TileCounts,
    ) -> ValueScores {
        let key = Key {
            counts: *counts,
            unseen: *unseen,
            melds,
            tile_set,
            forms,
        };
        let slot = &mut self.slots[slot_of(&key)];
        if let Some((k, v)) = slot {
            if *k == key {
                self.hits += 1;
                return *v;
            }
        }
        self.misses += 1;
        let v = value_scores(counts, melds, tile_set, forms, unseen);
        *slot = Some((key, v));
        v
    }

    /// Calls answered from the cache and calls computed, since creation or
    /// [`ValueScoresCache::clear`].
    pub fn stats(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    /// Empties the cache and resets [`ValueScoresCache::stats`].
    pub fn clear(&mut self) {
        *self = ValueScoresCache::new();
    }
}

/// The slot of a key: FNV-1a (Fowler, Noll, Vo) over every input byte, folded to the
/// slot count. Any hash is correct (hits compare the whole key); this one spreads
/// hands one tile apart over different slots.
fn slot_of(key: &Key) -> usize {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    let mut eat = |b: u8| h = (h ^ b as u64).wrapping_mul(PRIME);
    for i in 0..NUM_TILE_TYPES {
        eat(key.counts[i]);
        eat(key.unseen[i]);
    }
    eat(key.melds);
    eat(key.tile_set as u8);
    eat(key.forms.seven_pairs as u8 | (key.forms.thirteen_orphans as u8) << 1);
    (h ^ h >> 32) as usize % VALUE_SCORES_CACHE_SLOTS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Field by field, floats by their bits.
    fn same(a: &ValueScores, b: &ValueScores) -> bool {
        a.held == b.held
            && a.shanten_after == b.shanten_after
            && a.ukeire_types == b.ukeire_types
            && a.ukeire_tiles == b.ukeire_tiles
            && a.second_step.map(f32::to_bits) == b.second_step.map(f32::to_bits)
            && a.score.map(f32::to_bits) == b.score.map(f32::to_bits)
    }

    /// Every answer equals the uncached function, over hands that recur (a pool of 40
    /// hands for 16 slots: hits, misses and evictions all occur).
    #[test]
    fn cached_equals_uncached() {
        let mut rng = Rng::new(35);
        let ts = TileSet::FourPlayer;
        let pool: [TileCounts; 40] = core::array::from_fn(|_| {
            let mut h = [0u8; 34];
            let mut n = 0;
            while n < 14 {
                let t = rng.below(34) as usize;
                if h[t] < 4 {
                    h[t] += 1;
                    n += 1;
                }
            }
            h
        });
        let mut cache = ValueScoresCache::new();
        for i in 0..400 {
            let h = &pool[rng.below(if i < 200 { 10 } else { 40 }) as usize];
            let unseen = super::super::available_from_hand(h, ts);
            let forms = if i % 7 == 0 {
                Forms::REGULAR_ONLY
            } else {
                Forms::ALL
            };
            let a = cache.value_scores(h, 0, ts, forms, &unseen);
            let b = value_scores(h, 0, ts, forms, &unseen);
            assert!(same(&a, &b), "{h:?}");
        }
        let (hits, misses) = cache.stats();
        assert!(hits > 0 && misses > 0 && hits + misses == 400);
        cache.clear();
        assert_eq!(cache.stats(), (0, 0));
    }
}
