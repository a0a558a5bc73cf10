//! Every line of the reference vectors (PyPI `mahjong` 2.1.0, see
//! `data/vectors/PROVENANCE.md`) against `engine::shanten` and `engine::efficiency`.

use engine::efficiency::{available_from_hand, ukeire};
use engine::notation::{parse_counts, Counts};
use engine::shanten::{self, Forms};
use engine::TileSet;

fn rows(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split('\t').collect()))
}

fn int(s: &str) -> i64 {
    s.parse().unwrap_or_else(|_| panic!("bad integer {s:?}"))
}

#[test]
fn shanten_14_vectors() {
    let text = include_str!("../data/vectors/shanten_14.tsv");
    let mut n = 0;
    for (line, f) in rows(text) {
        let counts = parse_counts(f[0], TileSet::FourPlayer).unwrap();
        let s = shanten::checked(&counts, 0, TileSet::FourPlayer).unwrap();
        let got = [s.regular, s.seven_pairs, s.thirteen_orphans, s.min()].map(i64::from);
        let want = [int(f[1]), int(f[2]), int(f[3]), int(f[4])];
        assert_eq!(got, want, "line {line}: {}", f[0]);
        assert_eq!(int(f[6]), want[0], "reg_exact, line {line}");
        assert_eq!(
            i64::from(shanten::min_shanten(&counts, 0, TileSet::FourPlayer, Forms::ALL)),
            want[3],
            "min_shanten, line {line}"
        );
        n += 1;
    }
    assert_eq!(n, 47_000);
}

#[test]
fn ukeire_13_vectors() {
    let text = include_str!("../data/vectors/ukeire_13.tsv");
    let mut n = 0;
    for (line, f) in rows(text) {
        let counts = parse_counts(f[0], TileSet::FourPlayer).unwrap();
        let avail = available_from_hand(&counts, TileSet::FourPlayer);
        let u = ukeire(&counts, 0, TileSet::FourPlayer, Forms::ALL, &avail);
        let mut types = [0u8; 34];
        for (t, slot) in types.iter_mut().enumerate() {
            *slot = (u.types >> t & 1) as u8;
        }
        let types_str = Counts(&types).to_string();
        let types_str = if types_str.is_empty() { "-".to_string() } else { types_str };
        assert_eq!(i64::from(u.shanten), int(f[1]), "shanten, line {line}: {}", f[0]);
        assert_eq!(types_str, f[2], "types, line {line}: {}", f[0]);
        assert_eq!(i64::from(u.num_types()), int(f[3]), "n_types, line {line}");
        assert_eq!(i64::from(u.tiles), int(f[4]), "n_tiles, line {line}");
        n += 1;
    }
    assert_eq!(n, 7_000);
}

#[test]
fn agari_vectors() {
    let text = include_str!("../data/vectors/agari.tsv");
    let mut n = 0;
    for (line, f) in rows(text) {
        let counts = parse_counts(f[0], TileSet::FourPlayer).unwrap();
        let s = shanten::checked(&counts, 0, TileSet::FourPlayer).unwrap();
        let is_agari = int(f[1]) == 1;
        assert_eq!(s.min() == -1, is_agari, "line {line}: {}", f[0]);
        assert_eq!(i64::from(s.min()), int(f[2]), "min_shanten, line {line}: {}", f[0]);
        n += 1;
    }
    assert_eq!(n, 10_000);
}
