//! Differential test of the value scores and the efficiency bot's discard: the fast
//! paths (`efficiency::value_scores`, `efficiency::best_discard`) against the original
//! implementations kept as the oracles (`efficiency::reference::value_scores_reference`,
//! `best_discard_reference`), field by field and float bits included, on every hand of
//! the reference vectors (`tests/data/vectors`) and on random hands of both tile sets: 14 - 3k tiles with 0..=4 melds, 13 - 3k tiles,
//! near-complete hands, hands with quads, malformed hands (counts above 4, too many
//! tiles, tiles outside the set, melds above 4), every form selection and several
//! `unseen` conventions.
//!
//! `MAHJONG_VALUE_SCORE_HANDS` sets the number of random hands per tile set (default
//! 20 000; run `cargo test --release -p mahjong-engine --test value_scores_differential`
//! with 1000000 for the long run).

#[path = "shanten_common/mod.rs"]
mod common;

use common::*;
use engine::efficiency::reference::{best_discard_reference, value_scores_reference};
use engine::efficiency::{available_from_hand, best_discard, value_scores, Discard, ValueScores};
use engine::notation::{parse_counts, Counts};
use engine::shanten::Forms;
use engine::{TileCounts, TileSet};

const FORMS: [Forms; 4] = [
    Forms::ALL,
    Forms::REGULAR_ONLY,
    Forms {
        seven_pairs: true,
        thirteen_orphans: false,
    },
    Forms {
        seven_pairs: false,
        thirteen_orphans: true,
    },
];

fn bits(x: &[f32; 34]) -> [u32; 34] {
    x.map(f32::to_bits)
}

/// Asserts that the fast path equals the reference exactly (floats bit for bit).
fn check(h: &TileCounts, melds: u8, ts: TileSet, forms: Forms, unseen: &TileCounts) {
    let fast: ValueScores = value_scores(h, melds, ts, forms, unseen);
    let slow = value_scores_reference(h, melds, ts, forms, unseen);
    let what = || {
        format!(
            "{} melds {melds} {ts:?} {forms:?} unseen {unseen:?}",
            Counts(h)
        )
    };
    assert_eq!(fast.held, slow.held, "held: {}", what());
    assert_eq!(
        fast.shanten_after,
        slow.shanten_after,
        "shanten: {}",
        what()
    );
    assert_eq!(fast.ukeire_types, slow.ukeire_types, "types: {}", what());
    assert_eq!(fast.ukeire_tiles, slow.ukeire_tiles, "tiles: {}", what());
    assert_eq!(
        bits(&fast.second_step),
        bits(&slow.second_step),
        "second step: {}",
        what()
    );
    assert_eq!(bits(&fast.score), bits(&slow.score), "score: {}", what());
    // The efficiency bot's discard: the same tile, facts and second step (bits).
    let key = |d: Option<Discard>| {
        d.map(|d| {
            (
                d.tile,
                d.shanten,
                d.ukeire_tiles,
                d.second_step.to_bits(),
                d.tied,
            )
        })
    };
    assert_eq!(
        key(best_discard(h, melds, ts, forms, unseen)),
        key(best_discard_reference(h, melds, ts, forms, unseen)),
        "best discard: {}",
        what()
    );
}

/// `unseen` in one of several conventions: from the hand, less random seen tiles,
/// with zeros, or arbitrary bytes.
fn unseen_for(rng: &mut Rng, h: &TileCounts, ts: TileSet, kind: usize) -> TileCounts {
    let mut u = available_from_hand(h, ts);
    match kind % 4 {
        0 => {}
        1 => {
            for _ in 0..rng.below(30) {
                let t = rng.below(34);
                u[t] = u[t].saturating_sub(1);
            }
        }
        2 => {
            for _ in 0..rng.below(12) {
                u[rng.below(34)] = 0;
            }
        }
        _ => {
            for x in u.iter_mut() {
                *x = match rng.below(4) {
                    0 => 0,
                    1 => rng.below(5) as u8,
                    2 => rng.below(256) as u8,
                    _ => *x,
                };
            }
        }
    }
    u
}

/// A hand with several quads, `n` tiles.
fn quads_hand(rng: &mut Rng, ts: TileSet, n: usize) -> TileCounts {
    let ty = types(ts);
    let mut c = [0u8; 34];
    let mut total = 0;
    while total < n {
        let t = ty[rng.below(ty.len())];
        let k = (1 + rng.below(4)).min(4 - c[t] as usize).min(n - total);
        c[t] += k as u8;
        total += k;
    }
    c
}

/// A malformed hand: arbitrary counts (some above 4, some outside the tile set).
fn malformed_hand(rng: &mut Rng, n: usize) -> TileCounts {
    let mut c = [0u8; 34];
    for _ in 0..n {
        c[rng.below(34)] += 1;
    }
    if rng.below(4) == 0 {
        c[rng.below(34)] = 4 + rng.below(4) as u8;
    }
    c
}

fn random_case(rng: &mut Rng, ts: TileSet, i: usize) {
    let melds = rng.below(5) as u8;
    let n = 14 - 3 * melds as usize;
    let (h, melds) = match i % 8 {
        0..=2 => (random_hand(rng, ts, n), melds),
        3 | 4 => {
            let swaps = rng.below(4);
            (near_hand(rng, ts, 4 - melds as usize, n, swaps), melds)
        }
        5 => (quad_hand(rng, ts, n), melds),
        6 => match rng.below(3) {
            0 => (quads_hand(rng, ts, n), melds),
            1 => (random_hand(rng, ts, n - 1), melds),
            _ => {
                let swaps = rng.below(3);
                (near_hand(rng, ts, 4 - melds as usize, n - 1, swaps), melds)
            }
        },
        _ => {
            let tiles = rng.below(17);
            (malformed_hand(rng, tiles), rng.below(7) as u8)
        }
    };
    let forms = FORMS[rng.below(8).min(4) % 4];
    let kind = rng.below(4);
    let unseen = unseen_for(rng, &h, ts, kind);
    check(&h, melds, ts, forms, &unseen);
}

fn random_hands(ts: TileSet, seed: u64) {
    let n: usize = std::env::var("MAHJONG_VALUE_SCORE_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Rng(seed);
    for i in 0..n {
        random_case(&mut rng, ts, i);
    }
}

#[test]
fn random_hands_four_player() {
    random_hands(TileSet::FourPlayer, 0x5c0_4e5);
}

#[test]
fn random_hands_sanma() {
    random_hands(TileSet::Sanma, 0x5c0_3e5);
}

/// The hands of one vector file (first column; melds from `melds_column` if given).
fn vector_hands(text: &str, ts: TileSet, melds_column: Option<usize>) -> Vec<(TileCounts, u8)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let melds = melds_column.map_or(0, |c| cols[c].parse().unwrap());
            (parse_counts(cols[0], ts).unwrap(), melds)
        })
        .collect()
}

/// Every vector hand as given (`unseen` from the hand with all forms for a quarter of
/// them, a random convention and form selection for the others); hands of 13 - 3k
/// tiles also with one random tile drawn.
///
/// The fast test tier (CI) checks every third hand of a file (coprime with the four
/// form selections, so all of them still occur); the full tier (`MAHJONG_FULL_TESTS`,
/// `scripts/test --full`) every hand. Returns the number of hands in the file.
fn check_vectors(text: &str, ts: TileSet, melds_column: Option<usize>, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let ty = types(ts);
    let stride = if std::env::var_os("MAHJONG_FULL_TESTS").is_some() {
        1
    } else {
        3
    };
    let mut n = 0;
    for (h, melds) in vector_hands(text, ts, melds_column) {
        if n % stride != 0 {
            n += 1;
            continue;
        }
        if n % 4 == 0 {
            check(&h, melds, ts, Forms::ALL, &available_from_hand(&h, ts));
        } else {
            let kind = 1 + rng.below(3);
            let unseen = unseen_for(&mut rng, &h, ts, kind);
            check(&h, melds, ts, FORMS[n % 4], &unseen);
        }
        let tiles: usize = h.iter().map(|&c| c as usize).sum();
        if tiles == 13 - 3 * melds as usize {
            let mut h14 = h;
            loop {
                let t = ty[rng.below(ty.len())];
                if h14[t] < 4 {
                    h14[t] += 1;
                    break;
                }
            }
            check(&h14, melds, ts, Forms::ALL, &available_from_hand(&h14, ts));
        }
        n += 1;
    }
    n
}

macro_rules! vectors {
    ($file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/vectors/",
            $file
        ))
    };
}

#[test]
fn vectors_shanten_14() {
    let n = check_vectors(vectors!("shanten_14.tsv"), TileSet::FourPlayer, None, 1);
    assert_eq!(n, 47_000);
}

#[test]
fn vectors_ukeire_13_and_agari() {
    let n = check_vectors(vectors!("ukeire_13.tsv"), TileSet::FourPlayer, None, 2);
    assert_eq!(n, 7_000);
    let n = check_vectors(vectors!("agari.tsv"), TileSet::FourPlayer, None, 3);
    assert_eq!(n, 10_000);
}

#[test]
fn vectors_sanma() {
    let n = check_vectors(vectors!("shanten_sanma.tsv"), TileSet::Sanma, Some(1), 4);
    assert_eq!(n, 3_000);
}

/// Hand-picked shapes: complete, tenpai, seven pairs and thirteen orphans near misses,
/// quads, melded hands down to two tiles.
#[test]
fn examples() {
    for (s, melds) in [
        ("123m456p789s11122z", 0),
        ("123m456p789s1122z5z", 0),
        ("1199m1199p1199s11z", 0),
        ("19m19p19s12345677z", 0),
        ("19m19p19s1234567z5m", 0),
        ("1111m2222p3333s444z", 0),
        ("1111222233334m", 0),
        ("11112222333344m", 0),
        ("2345678m", 2),
        ("55m", 4),
        ("13579m13579p1357s", 0),
    ] {
        for ts in [TileSet::FourPlayer, TileSet::Sanma] {
            let Ok(h) = parse_counts(s, ts) else { continue };
            for forms in FORMS {
                check(&h, melds, ts, forms, &available_from_hand(&h, ts));
                check(&h, melds, ts, forms, &[4; 34]);
                check(&h, melds, ts, forms, &[0; 34]);
            }
        }
    }
}
