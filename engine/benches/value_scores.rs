//! Value scores (and the efficiency bot's best discard) of random 14-tile hands: the
//! reference implementation
//! (`efficiency::reference::value_scores_reference`, the original code kept as the
//! oracle) and the fast path (`efficiency::value_scores`) on the same hands in the same
//! run, µs per hand and the ratio, four-player and sanma.
//!
//! `cargo bench -p mahjong-engine --bench value_scores` (release, one thread). Hands are
//! dealt from a shuffled wall (seeded), `unseen` is the wall minus the hand. Each line
//! is the best of `BENCH_REPEATS` (default 5) passes over `BENCH_VALUE_HANDS` (default
//! 2 000) hands, the passes alternating between the two so that both see the same
//! machine load, timed by the thread's CPU clock. The results of the two are also
//! compared (a mismatch aborts the benchmark); `BENCH_ONLY=fast` times the fast path
//! alone (for profiling).

mod common;

use std::hint::black_box;

use common::{env_or, thread_cpu_seconds};

use engine::efficiency::reference::{best_discard_reference, value_scores_reference};
use engine::efficiency::{available_from_hand, best_discard, value_scores};
use engine::rng::Rng;
use engine::shanten::Forms;
use engine::{TileCounts, TileSet};

/// `n` hands of 14 tiles dealt from shuffled walls, with their `unseen`.
fn hands(ts: TileSet, n: usize, seed: u64) -> Vec<(TileCounts, TileCounts)> {
    let mut rng = Rng::new(seed);
    let wall: Vec<usize> = ts.tiles().flat_map(|t| [t.index(); 4]).collect();
    (0..n)
        .map(|_| {
            let mut w = wall.clone();
            rng.shuffle(&mut w);
            let mut h = [0u8; 34];
            for &t in &w[..14] {
                h[t] += 1;
            }
            let unseen = available_from_hand(&h, ts);
            (h, unseen)
        })
        .collect()
}

/// µs per hand of one pass of `f` over `hands`.
fn pass(hands: &[(TileCounts, TileCounts)], f: &impl Fn(&TileCounts, &TileCounts) -> f32) -> f64 {
    let start = thread_cpu_seconds();
    let mut sink = 0.0f32;
    for (h, u) in hands {
        sink += f(black_box(h), black_box(u));
    }
    black_box(sink);
    (thread_cpu_seconds() - start) * 1e6 / hands.len().max(1) as f64
}

fn main() {
    let n = env_or("BENCH_VALUE_HANDS", 2_000);
    let repeats = env_or("BENCH_REPEATS", 5).max(1);
    // BENCH_ONLY=fast skips timing the reference (for profiling the fast path).
    let only_fast = std::env::var("BENCH_ONLY").is_ok_and(|s| s == "fast");
    println!("value scores of random 14-tile hands, {n} hands, best of {repeats} passes");
    println!(
        "{:<12} {:>16} {:>12} {:>8}",
        "tile set", "reference µs", "fast µs", "ratio"
    );
    for (name, ts, seed) in [
        ("four-player", TileSet::FourPlayer, 1u64),
        ("sanma", TileSet::Sanma, 2),
    ] {
        let hs = hands(ts, n, seed);
        let forms = Forms::ALL;
        for (h, u) in &hs {
            let a = value_scores(h, 0, ts, forms, u);
            let b = value_scores_reference(h, 0, ts, forms, u);
            let same = a.shanten_after == b.shanten_after
                && a.ukeire_types == b.ukeire_types
                && a.ukeire_tiles == b.ukeire_tiles
                && a.second_step.map(f32::to_bits) == b.second_step.map(f32::to_bits)
                && a.score.map(f32::to_bits) == b.score.map(f32::to_bits);
            assert!(same, "fast and reference differ on {h:?}");
        }
        // Passes alternate between the two, so that both see the same machine load;
        // each keeps its best pass.
        let (mut reference, mut fast) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..repeats {
            if !only_fast {
                let r = pass(&hs, &|h, u| {
                    value_scores_reference(h, 0, ts, forms, u).score[0]
                });
                reference = reference.min(r);
            }
            fast = fast.min(pass(&hs, &|h, u| value_scores(h, 0, ts, forms, u).score[0]));
        }
        println!(
            "{name:<12} {reference:>16.2} {fast:>12.2} {:>7.2}x",
            reference / fast
        );
        best_discards(name, &hs, ts, repeats);
    }
}

/// The efficiency bot's discard (`best_discard`) against its original computation on
/// the same hands: µs per hand and the ratio (the results are compared first).
fn best_discards(name: &str, hs: &[(TileCounts, TileCounts)], ts: TileSet, repeats: usize) {
    let forms = Forms::ALL;
    let key = |d: Option<engine::efficiency::Discard>| {
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
    for (h, u) in hs {
        let same = key(best_discard(h, 0, ts, forms, u))
            == key(best_discard_reference(h, 0, ts, forms, u));
        assert!(same, "best discard differs on {h:?}");
    }
    let (mut reference, mut fast) = (f64::INFINITY, f64::INFINITY);
    let tile = |d: Option<engine::efficiency::Discard>| d.map_or(0.0, |d| d.tile.index() as f32);
    for _ in 0..repeats {
        reference = reference.min(pass(hs, &|h, u| {
            tile(best_discard_reference(h, 0, ts, forms, u))
        }));
        fast = fast.min(pass(hs, &|h, u| tile(best_discard(h, 0, ts, forms, u))));
    }
    println!(
        "{:<12} {reference:>16.2} {fast:>12.2} {:>7.2}x   (best discard)",
        name,
        reference / fast
    );
}
