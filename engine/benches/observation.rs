//! One observation encode per seat decision: the fast path (`Encoding::encode`, whose
//! value-score matrix is `efficiency::value_scores`) against the original code
//! (`Encoding::encode_with_scores` given `efficiency::reference::value_scores_reference`,
//! the value scores the encoding used before issue 35) on the same observations in the
//! same run, µs per observation and the ratio, for both encodings (v1, v2).
//!
//! `cargo bench -p mahjong-engine --bench observation` (release, one thread). The
//! observations are every decision of the seats to act in efficiency-bot hands
//! (seeded; four-player and tenhou-4p rules), split into all decisions and the turns
//! with a hand to discard from (the only ones that compute value scores). Also timed:
//! building the observation itself (`Game::observation_into`, unchanged). Each line is
//! the best of `BENCH_REPEATS` (default 5) passes, the passes alternating between the
//! two paths so that both see the same machine load, timed by the thread's CPU clock;
//! `BENCH_HANDS` (default 40) hands per rule set. The two encodings are compared bit
//! for bit first (a mismatch aborts the benchmark).

mod common;

use std::hint::black_box;

use common::{env_or, thread_cpu_seconds};

use engine::bots::{Agent, EfficiencyBot};
use engine::efficiency::reference::value_scores_reference;
use engine::encode::Encoding;
use engine::game::{Game, Observation, Phase};
use engine::shanten::Forms;
use engine::Rules;

/// The games and seats of every decision of `hands` efficiency-bot hands.
fn decisions(rules: Rules, hands: usize) -> Vec<(Game, u8)> {
    let mut out = Vec::new();
    for seed in 0..hands as u64 {
        let mut rules = rules;
        rules.hands_per_game = 1;
        let mut g = Game::new(rules, seed).expect("preset rules");
        while matches!(g.phase(), Phase::Turn | Phase::Claim) {
            let seat = g.seats_to_act()[0];
            for &s in g.seats_to_act().iter() {
                out.push((g.clone(), s));
            }
            let obs = g.observation(seat).expect("seat to act");
            let legal = g.legal_actions(seat);
            let a = EfficiencyBot.act(&obs, &legal);
            g.apply(seat, a).expect("legal action");
        }
    }
    out
}

/// The original encode: the reference value scores, then the same fill.
fn encode_reference(enc: Encoding, obs: &Observation, out: &mut [f32]) {
    let melds = obs.melds[obs.seat as usize].len() as u8;
    let forms = Forms::from_rules(&obs.rules);
    let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
    let scores = (tiles % 3 == 2)
        .then(|| value_scores_reference(&obs.hand, melds, obs.rules.tile_set, forms, &obs.unseen));
    enc.encode_with_scores(obs, scores.as_ref(), out)
        .expect("buffer length");
}

fn encode_fast(enc: Encoding, obs: &Observation, out: &mut [f32]) {
    enc.encode(obs, out).expect("buffer length");
}

/// µs per observation of one pass of `f` over `obs`.
fn pass(obs: &[Observation], enc: Encoding, f: fn(Encoding, &Observation, &mut [f32])) -> f64 {
    let mut out = vec![0.0f32; enc.encoded_len()];
    let start = thread_cpu_seconds();
    for o in obs {
        f(enc, black_box(o), &mut out);
        black_box(&out);
    }
    (thread_cpu_seconds() - start) * 1e6 / obs.len().max(1) as f64
}

/// µs per observation of building the observations (`Game::observation_into`).
fn pass_observe(ds: &[(Game, u8)]) -> f64 {
    let mut obs = ds[0].0.observation(ds[0].1).expect("seat");
    let start = thread_cpu_seconds();
    for (g, s) in ds {
        g.observation_into(*s, &mut obs).expect("seat");
        black_box(&obs);
    }
    (thread_cpu_seconds() - start) * 1e6 / ds.len().max(1) as f64
}

fn check_equal(obs: &[Observation], enc: Encoding) {
    let mut a = vec![0.0f32; enc.encoded_len()];
    let mut b = vec![0.0f32; enc.encoded_len()];
    for o in obs {
        encode_fast(enc, o, &mut a);
        encode_reference(enc, o, &mut b);
        let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(same, "fast and reference encodings differ");
    }
}

fn main() {
    let hands = env_or("BENCH_HANDS", 40);
    let repeats = env_or("BENCH_REPEATS", 5).max(1);
    println!("observation encode, {hands} efficiency-bot hands per rule set, best of {repeats}");
    println!(
        "{:<11} {:<10} {:>7} {:>14} {:>9} {:>8}",
        "rules", "subset", "obs", "reference µs", "fast µs", "ratio"
    );
    for (name, rules) in [
        ("four-player", Rules::four_player()),
        ("tenhou-4p", Rules::tenhou_4p()),
    ] {
        let ds = decisions(rules, hands);
        let all: Vec<Observation> = ds
            .iter()
            .map(|(g, s)| g.observation(*s).expect("seat"))
            .collect();
        let turns: Vec<Observation> = all
            .iter()
            .filter(|o| o.hand.iter().map(|&c| c as u32).sum::<u32>() % 3 == 2)
            .cloned()
            .collect();
        let mut observe = f64::INFINITY;
        for _ in 0..repeats {
            observe = observe.min(pass_observe(&ds));
        }
        println!(
            "{name:<11} {:<10} {:>7} {:>14} {observe:>9.2}",
            "observe",
            ds.len(),
            "-"
        );
        for enc in Encoding::ALL {
            check_equal(&all, enc);
            for (subset, obs) in [("all", &all), ("discard", &turns)] {
                let (mut reference, mut fast) = (f64::INFINITY, f64::INFINITY);
                for _ in 0..repeats {
                    reference = reference.min(pass(obs, enc, encode_reference));
                    fast = fast.min(pass(obs, enc, encode_fast));
                }
                let label = format!("v{} {subset}", enc.version());
                println!(
                    "{name:<11} {label:<10} {:>7} {reference:>14.2} {fast:>9.2} {:>7.2}x",
                    obs.len(),
                    reference / fast
                );
            }
        }
    }
}
