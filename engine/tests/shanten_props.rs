//! Property tests: totality on arbitrary input; 14-tile value = min over discards.

#[path = "shanten_common/mod.rs"]
mod common;

use engine::efficiency::{available_from_hand, best_discard, ukeire, value_scores};
use engine::shanten::{self, Forms};
use engine::{TileCounts, TileSet};
use proptest::prelude::*;

fn tile_set() -> impl Strategy<Value = TileSet> {
    prop_oneof![Just(TileSet::FourPlayer), Just(TileSet::Sanma)]
}

fn any_counts() -> impl Strategy<Value = TileCounts> {
    proptest::array::uniform::<_, 34>(prop_oneof![0u8..=4, any::<u8>()])
}

/// A valid hand of `14 - 3k` tiles for a tile set.
fn valid_14(tile_set: TileSet, melds: u8) -> impl Strategy<Value = TileCounts> {
    let n = 14 - 3 * melds as usize;
    let wall: Vec<usize> = tile_set.tiles().flat_map(|t| [t.index(); 4]).collect();
    proptest::sample::subsequence(wall, n).prop_map(|tiles| {
        let mut c = [0u8; 34];
        for t in tiles {
            c[t] += 1;
        }
        c
    })
}

fn arb_14() -> impl Strategy<Value = (TileSet, u8, TileCounts)> {
    (tile_set(), 0u8..=4).prop_flat_map(|(ts, k)| (Just(ts), Just(k), valid_14(ts, k)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics(counts in any_counts(), melds in any::<u8>(), ts in tile_set()) {
        let s = shanten::shanten(&counts, melds, ts);
        prop_assert!(s.regular >= -1);
        let _ = shanten::checked(&counts, melds, ts);
        let _ = shanten::min_shanten(&counts, melds, ts, Forms::ALL);
        let avail = available_from_hand(&counts, ts);
        let u = ukeire(&counts, melds, ts, Forms::ALL, &avail);
        prop_assert!(u.shanten >= -1);
        let _ = best_discard(&counts, melds, ts, Forms::ALL, &counts);
    }

    #[test]
    fn available_matches_naive(counts in any_counts(), ts in tile_set()) {
        let a = available_from_hand(&counts, ts);
        for t in 0..34 {
            let want = if ts.contains(engine::Tile::new(t as u8).unwrap()) { 4u8.saturating_sub(counts[t]) } else { 0 };
            prop_assert_eq!(a[t], want);
        }
        // Ukeire tiles = sum of the availability over the types.
        let u = ukeire(&counts, 0, ts, Forms::ALL, &counts);
        let naive: u32 = (0..34).filter(|&t| u.types >> t & 1 == 1).map(|t| u32::from(counts[t])).sum();
        prop_assert_eq!(u.tiles, naive);
    }

    #[test]
    fn value_scores_total(counts in proptest::array::uniform::<_, 34>(0u8..=6), melds in 0u8..=6, ts in tile_set()) {
        let v = value_scores(&counts, melds, ts, Forms::ALL, &[4; 34]);
        for t in 0..34 {
            prop_assert!(v.score[t].is_finite() && (0.0..=1.0).contains(&v.score[t]));
            prop_assert!(v.second_step[t].is_finite());
        }
    }

    #[test]
    fn fourteen_is_min_over_discards((ts, melds, h) in arb_14()) {
        let s14 = shanten::checked(&h, melds, ts).unwrap();
        let mut best = (i8::MAX, i8::MAX, i8::MAX);
        for t in 0..34 {
            if h[t] == 0 { continue; }
            let mut h13 = h;
            h13[t] -= 1;
            let s = shanten::checked(&h13, melds, ts).unwrap();
            best = (best.0.min(s.regular), best.1.min(s.seven_pairs), best.2.min(s.thirteen_orphans));
        }
        let expect = |v14: i8, best13: i8| if v14 == -1 || v14 == shanten::NOT_APPLICABLE { v14 } else { best13 };
        prop_assert_eq!(s14.regular, expect(s14.regular, best.0));
        prop_assert_eq!(s14.seven_pairs, expect(s14.seven_pairs, best.1));
        prop_assert_eq!(s14.thirteen_orphans, expect(s14.thirteen_orphans, best.2));
        // A complete form is one whose best discard is tenpai.
        if s14.regular == -1 { prop_assert_eq!(best.0, 0); }
        if s14.min() == -1 { prop_assert_eq!(best.0.min(best.1).min(best.2), 0); }
    }
}
