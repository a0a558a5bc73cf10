//! Arbitrary strings never panic the parser; accepted hands round-trip through format.
#![no_main]

use engine::notation::{parse_counts, Counts};
use engine::tile::TileSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    for set in [TileSet::FourPlayer, TileSet::Sanma] {
        if let Ok(c) = parse_counts(s, set) {
            let text = Counts(&c).to_string();
            assert_eq!(parse_counts(&text, set), Ok(c));
        }
    }
});
