//! Shanten / ukeire speed of this engine against two peers on the same random hands:
//! `xiangting` 6.0.2 and `riichienv-core` 0.4.11 (both pinned, feature `peer-bench`).
//!
//! Run: `cargo bench -p mahjong-tests --features peer-bench`. One thread; each
//! measurement is the best of several rounds over the same hands; results are
//! cross-checked (mismatch counts printed) and folded into a checksum so that nothing
//! is optimised away.

use std::hint::black_box;
use std::time::Instant;

use engine::efficiency::{available_from_hand, best_discard, ukeire, value_scores};
use engine::shanten::{self, Forms};
use engine::{TileCounts, TileSet};

const HANDS: usize = 50_000;
const ROUNDS: usize = 25;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn hands(seed: u64, tile_set: TileSet, n_tiles: usize) -> Vec<TileCounts> {
    let mut rng = Rng(seed);
    let wall: Vec<usize> = tile_set.tiles().flat_map(|t| [t.index(); 4]).collect();
    (0..HANDS)
        .map(|_| {
            let mut w = wall.clone();
            let mut c = [0u8; 34];
            for _ in 0..n_tiles {
                let i = (rng.next() % w.len() as u64) as usize;
                c[w.swap_remove(i)] += 1;
            }
            c
        })
        .collect()
}

/// Seconds for one pass of `f` over `hs` (the checksum goes to `black_box`).
fn once(hs: &[TileCounts], f: &mut impl FnMut(&TileCounts) -> i64) -> f64 {
    let start = Instant::now();
    let mut sum = 0;
    for h in hs {
        sum += f(black_box(h));
    }
    black_box(sum);
    start.elapsed().as_secs_f64()
}

/// Hands per second of three functions, measured in interleaved rounds (so that noise
/// from other processes hits all of them alike), best round each.
fn race3(
    hs: &[TileCounts],
    mut a: impl FnMut(&TileCounts) -> i64,
    mut b: impl FnMut(&TileCounts) -> i64,
    mut c: impl FnMut(&TileCounts) -> i64,
) -> (f64, f64, f64) {
    let mut best = [f64::INFINITY; 3];
    for _ in 0..ROUNDS {
        best[0] = best[0].min(once(hs, &mut a));
        best[1] = best[1].min(once(hs, &mut b));
        best[2] = best[2].min(once(hs, &mut c));
    }
    let n = hs.len() as f64;
    (n / best[0], n / best[1], n / best[2])
}

fn line(label: &str, ours: f64, peers: &[(&str, f64)]) {
    let mut s = format!("{label:<28} engine {:>12.0} hands/s", ours);
    for (name, rate) in peers {
        s += &format!(
            " | {name} {:>11.0} hands/s (engine {:.2}x)",
            rate,
            ours / rate
        );
    }
    println!("{s}");
}

fn main() {
    println!(
        "table sizes: engine {} bytes of generated tables (+ 23,552 bytes of rank/weight/mask constants); \
         riichienv-core nyanten keys 405,350 + 43,130 + 15,876 + 22,680 + 49,500 = 536,536 bytes",
        shanten::TABLE_BYTES
    );
    println!("{HANDS} random closed hands per case, best of {ROUNDS} rounds, one thread\n");
    for (tile_set, pc, name) in [
        (
            TileSet::FourPlayer,
            xiangting::PlayerCount::Four,
            "four-player",
        ),
        (TileSet::Sanma, xiangting::PlayerCount::Three, "sanma"),
    ] {
        for n_tiles in [14usize, 13] {
            let hs = hands(n_tiles as u64 * 7 + tile_set as u64, tile_set, n_tiles);
            // Cross-check.
            let mut mism_x = 0;
            let mut mism_r = 0;
            for h in &hs {
                let ours = shanten::min_shanten(h, 0, tile_set, Forms::ALL);
                let x = xiangting::calculate_replacement_number(h, pc)
                    .map(|r| r as i8 - 1)
                    .unwrap_or(99);
                let r = match tile_set {
                    TileSet::FourPlayer => {
                        riichienv_core::shanten::calc_shanten_from_counts(h, (n_tiles / 3) as u8)
                    }
                    TileSet::Sanma => {
                        riichienv_core::shanten::calc_shanten_from_counts_3p(h, (n_tiles / 3) as u8)
                    }
                };
                mism_x += (ours != x) as usize;
                mism_r += (ours != r) as usize;
            }
            let div3 = (n_tiles / 3) as u8;
            let sanma = tile_set == TileSet::Sanma;
            let (ours, r, x) = race3(
                &hs,
                |h| shanten::min_shanten(h, 0, tile_set, Forms::ALL) as i64,
                |h| {
                    if sanma {
                        riichienv_core::shanten::calc_shanten_from_counts_3p(h, div3) as i64
                    } else {
                        riichienv_core::shanten::calc_shanten_from_counts(h, div3) as i64
                    }
                },
                |h| {
                    xiangting::calculate_replacement_number(h, pc)
                        .map(|r| r as i64)
                        .unwrap_or(0)
                },
            );
            line(
                &format!("shanten {name} {n_tiles}"),
                ours,
                &[("riichienv-core", r), ("xiangting", x)],
            );
            println!("    mismatches: xiangting {mism_x}, riichienv-core {mism_r} of {HANDS}");
        }
        // Ukeire (necessary tiles) of 13-tile hands.
        let hs = hands(1000 + tile_set as u64, tile_set, 13);
        let mut mism = 0;
        for h in &hs {
            let u = ukeire(
                h,
                0,
                tile_set,
                Forms::ALL,
                &available_from_hand(h, tile_set),
            );
            let (_, flags) = xiangting::calculate_necessary_tiles(h, pc).unwrap_or((0, 0));
            // xiangting also lists types held four times; the engine excludes them.
            let mut held4 = 0u64;
            for (t, &c) in h.iter().enumerate() {
                if c >= 4 {
                    held4 |= 1 << t;
                }
            }
            mism += (u.types != flags & !held4) as usize;
        }
        let (ours, x, _) = race3(
            &hs,
            |h| {
                let u = ukeire(
                    h,
                    0,
                    tile_set,
                    Forms::ALL,
                    &available_from_hand(h, tile_set),
                );
                u.types as i64 ^ u.tiles as i64
            },
            |h| {
                xiangting::calculate_necessary_tiles(h, pc)
                    .map(|(r, f)| f as i64 ^ r as i64)
                    .unwrap_or(0)
            },
            |_| 0,
        );
        line(&format!("ukeire {name} 13"), ours, &[("xiangting", x)]);
        println!("    mismatches (types): xiangting {mism} of {HANDS}");
    }
    // Engine-only figures: the parts of min_shanten, and the bot / advisor calls.
    println!();
    for tile_set in [TileSet::FourPlayer, TileSet::Sanma] {
        let name = tile_set.name();
        let hs = hands(77 + tile_set as u64, tile_set, 14);
        let (reg, min, sp) = race3(
            &hs,
            |h| shanten::regular(h, 0, tile_set) as i64,
            |h| shanten::min_shanten(h, 0, tile_set, Forms::ALL) as i64,
            |h| shanten::seven_pairs(h) as i64 + shanten::thirteen_orphans(h) as i64,
        );
        println!(
            "engine {name} 14: regular {reg:.0}/s, min of three {min:.0}/s, chiitoi+kokushi {sp:.0}/s"
        );
        let small = &hs[..5_000];
        let (bd, vs, _) = race3(
            small,
            |h| {
                let unseen = available_from_hand(h, tile_set);
                best_discard(h, 0, tile_set, Forms::ALL, &unseen)
                    .map_or(0, |d| d.tile.index() as i64)
            },
            |h| {
                let unseen = available_from_hand(h, tile_set);
                value_scores(h, 0, tile_set, Forms::ALL, &unseen).score[0] as i64
            },
            |_| 0,
        );
        println!(
            "engine {name} 14: best_discard {bd:.0} decisions/s ({:.2} us), value_scores {vs:.0} hands/s ({:.1} us)",
            1e6 / bd,
            1e6 / vs
        );
    }
}
