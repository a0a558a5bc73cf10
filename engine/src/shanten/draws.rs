//! Ukeire with the per-suit work cached: [`SuitDraws`] holds what the ukeire of one
//! suit group needs from the group's own pattern (the class after drawing each
//! position), so that hands sharing a suit pattern (the value scores evaluate hundreds
//! of hands one or two tiles apart) rank each pattern once. The result equals
//! [`Prepared::ukeire_mask`], whose per-suit loop this splits in two.

use super::{set_mask, table, Prepared};
use crate::tile::{TileCounts, TileSet};

/// The part of a suit group's ukeire that depends on its pattern alone (nine counts):
/// the class of the pattern after drawing each position (and its own), the positions worth looking
/// up (held fewer than four times, not isolated) and the isolated positions (no held
/// tile within two). Malformed patterns (a count above 4, 14 tiles or more) are marked
/// and left to [`Prepared::ukeire_mask`]'s generic path.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SuitDraws {
    class: [u8; 9],
    look: u32,
    isolated: u32,
    own: u8,
    malformed: bool,
}

impl SuitDraws {
    /// The draws of the suit pattern `s`.
    #[inline]
    pub(crate) fn new(s: &[u8; 9]) -> SuitDraws {
        let mut total = 0usize;
        let mut big = false;
        for &c in s {
            total += c as usize;
            big |= c > 4;
        }
        if big || total >= 14 {
            return SuitDraws {
                malformed: true,
                ..SuitDraws::default()
            };
        }
        let mut occ = 0u32;
        let mut lookable = 0u32;
        for (i, &c) in s.iter().enumerate() {
            occ |= ((c > 0) as u32) << i;
            lookable |= ((c < 4) as u32) << i;
        }
        let near = occ | occ << 1 | occ << 2 | occ >> 1 | occ >> 2;
        let isolated = !near & 0x1FF;
        // The incremental ranks of `Prepared::suit_improving`.
        let mut rem = [0usize; 10];
        rem[0] = 14;
        for i in 0..9 {
            rem[i + 1] = rem[i] - s[i] as usize;
        }
        let mut suffix = [0u32; 10];
        for i in (0..9).rev() {
            suffix[i] = suffix[i + 1] + table::rank_step(i, rem[i].wrapping_sub(1), s[i] as usize);
        }
        let mut class = [0u8; 9];
        let mut prefix = 0u32;
        for i in 0..9 {
            let c = s[i] as usize;
            let r = prefix + table::rank_step(i, rem[i], c + 1) + suffix[i + 1];
            class[i] = table::suit_class_of_rank(r as usize);
            prefix += table::rank_step(i, rem[i], c);
        }
        SuitDraws {
            class,
            own: table::suit_class_of_rank(prefix as usize),
            look: lookable & !isolated,
            isolated,
            malformed: false,
        }
    }

    /// The draws of suit `g` (0..3) of `counts`.
    #[inline]
    pub(crate) fn of_suit(counts: &TileCounts, g: usize) -> SuitDraws {
        let mut s = [0u8; 9];
        s.copy_from_slice(&counts[g * 9..g * 9 + 9]);
        SuitDraws::new(&s)
    }
}

impl SuitDraws {
    /// The class of the pattern with one tile drawn at position `i` (0..9), for a
    /// position held fewer than four times; `None` for a malformed pattern.
    #[inline(always)]
    pub(crate) fn class_after(&self, i: usize) -> Option<u8> {
        (!self.malformed).then_some(self.class[i % 9])
    }

    /// The class of the pattern itself (its rank is the sum the draws' ranks are built
    /// from); `None` for a malformed pattern.
    #[inline(always)]
    pub(crate) fn own_class(&self) -> Option<u8> {
        (!self.malformed).then_some(self.own)
    }
}

impl Prepared {
    /// [`Prepared::suit_improving`] from the cached draws of group `G`.
    #[inline(always)]
    fn suit_improving_with<const G: usize>(
        &self,
        counts: &TileCounts,
        draws: &SuitDraws,
        single: bool,
    ) -> u64 {
        if draws.malformed {
            return self.suit_improving::<G>(counts, single);
        }
        let mut found = 0u32;
        for (i, &x) in draws.class.iter().enumerate() {
            found |= ((self.with_suit(G, x) > self.overlap) as u32) << i;
        }
        let mut mask = found & draws.look;
        if single {
            mask |= draws.isolated;
        }
        (mask as u64) << (G * 9)
    }

    /// [`Prepared::ukeire_mask`] with the suit groups' draws given: `draws[g]` must be
    /// [`SuitDraws::of_suit`] of `counts` for every suit group `g` of the tile set.
    #[inline]
    pub(crate) fn ukeire_mask_with(&self, counts: &TileCounts, draws: [&SuitDraws; 3]) -> u64 {
        let reg = self.regular();
        let cur = self.min_shanten();
        if cur < 0 {
            return 0;
        }
        let valid = set_mask(self.tile_set);
        let mut mask = 0u64;
        if reg == cur {
            let (honors, single) = self.honor_improving(counts);
            mask |= honors;
            if self.tile_set == TileSet::FourPlayer {
                mask |= self.suit_improving_with::<0>(counts, draws[0], single);
            }
            mask |= self.suit_improving_with::<1>(counts, draws[1], single);
            mask |= self.suit_improving_with::<2>(counts, draws[2], single);
        }
        (mask | self.special_ukeire(counts, cur)) & valid
    }
}

#[cfg(test)]
mod tests {
    use super::super::zero_one_masks;
    use crate::rng::Rng;

    /// The branch-free masks equal the per-type comparisons for every byte value.
    #[test]
    fn zero_one_masks_match_the_comparisons() {
        let mut rng = Rng::new(7);
        for i in 0..20_000 {
            let mut counts = [0u8; 34];
            for c in counts.iter_mut() {
                *c = match i % 3 {
                    0 => rng.below(5) as u8,
                    1 => rng.below(3) as u8,
                    _ => rng.below(256) as u8,
                };
            }
            let (mut zeros, mut ones) = (0u64, 0u64);
            for (t, &c) in counts.iter().enumerate() {
                zeros |= ((c == 0) as u64) << t;
                ones |= ((c == 1) as u64) << t;
            }
            assert_eq!(zero_one_masks(&counts), (zeros, ones), "{counts:?}");
        }
    }
}
