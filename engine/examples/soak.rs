//! The soak: a million complete games per preset (by default) with the invariant checker
//! after every event, and a sample of hand and game records round-tripped through
//! postcard and replayed. Counts violations instead of stopping at the first, catches
//! panics per game, and exits non-zero if anything went wrong. `scripts/soak` runs it in
//! release.
//!
//! Each game seats, per seat and chosen by the game's seed, either the efficiency bot
//! (realistic hands: calls, kans, wins of every shape) or a random player (every legal
//! action, including the rare ones an efficient player never takes: kans on a dry wall,
//! passing a win, breaking a tenpai hand).
//!
//! ```text
//! cargo run --release -p mahjong-engine --example soak -- [--games N] [--threads T]
//!     [--sample K] [--presets sanma,four-player]
//! ```

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use engine::bots::{Agent, EfficiencyBot};
use engine::game::{
    check_invariants, Action, Event, Game, GameRecord, HandEndKind, HandRecord, MeldKind, Phase,
    RECORD_MAX_BYTES,
};
use engine::rng::Rng;
use engine::rules::Rules;

/// Whole-game records hold this many actions; a game that needs more is not sampled.
const GAME_RECORD_CAP: usize = 4096;
/// Violations printed in full (all are counted).
const PRINT_LIMIT: u64 = 20;

struct Args {
    games: u64,
    threads: usize,
    sample: u64,
    presets: Vec<(String, Rules)>,
}

fn usage() -> ! {
    eprintln!(
        "usage: soak [--games N (per preset, default 1000000)] [--threads T (default: all \
         cores)] [--sample K (round-trip every K-th hand and game, default 97)] [--presets \
         sanma,four-player]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        games: 1_000_000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        sample: 97,
        presets: vec![
            ("sanma".into(), Rules::sanma()),
            ("four-player".into(), Rules::four_player()),
        ],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| usage());
        let number = || value.parse::<u64>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--games" => args.games = number(),
            "--threads" => args.threads = number().max(1) as usize,
            "--sample" => args.sample = number().max(1),
            "--presets" => {
                args.presets = value
                    .split(',')
                    .map(|name| match name {
                        "sanma" => (name.to_string(), Rules::sanma()),
                        "four-player" => (name.to_string(), Rules::four_player()),
                        _ => usage(),
                    })
                    .collect()
            }
            _ => usage(),
        }
    }
    args
}

/// A player that takes any legal action: a win half the time it may, otherwise uniform.
struct RandomPlayer(Rng);

impl RandomPlayer {
    fn choose(&mut self, legal: &[Action]) -> Action {
        for win in [Action::Tsumo, Action::Ron] {
            if legal.contains(&win) && self.0.below(2) == 0 {
                return win;
            }
        }
        legal[self.0.below(legal.len() as u32) as usize]
    }
}

/// Counters of one preset's soak, summed over threads.
#[derive(Default)]
struct Totals {
    games: AtomicU64,
    hands: AtomicU64,
    events: AtomicU64,
    actions: AtomicU64,
    wins: AtomicU64,
    calls: AtomicU64,
    kans: AtomicU64,
    draws: AtomicU64,
    hand_round_trips: AtomicU64,
    game_round_trips: AtomicU64,
    violations: AtomicU64,
}

impl Totals {
    fn add(&self, counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// One game; `Err` is the first violation (the game stops there).
fn play(rules: Rules, seed: u64, sample: u64, totals: &Totals) -> Result<(), String> {
    let mut game = Game::new(rules, seed).map_err(|e| format!("new game: {e}"))?;
    check_invariants(&game).map_err(|v| format!("at the deal: {v}"))?;
    let mut rng = Rng::new(seed ^ 0x50A4_50A4);
    let efficient: [bool; 4] = core::array::from_fn(|_| rng.below(2) == 0);
    let mut random = RandomPlayer(Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    let mut record = (seed % sample == 0).then(|| GameRecord::<GAME_RECORD_CAP>::new(rules, seed));
    let mut hands = 0u64;
    loop {
        match game.phase() {
            Phase::GameOver => break,
            Phase::HandOver => {
                game.start_next_hand()
                    .map_err(|e| format!("next hand: {e}"))?;
                check_invariants(&game).map_err(|v| format!("at the deal: {v}"))?;
                continue;
            }
            Phase::Turn | Phase::Claim => {}
        }
        let seats = game.seats_to_act();
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        if legal.is_empty() {
            return Err(format!("awaited seat {seat} has no legal action"));
        }
        let action = if efficient[seat as usize] {
            let obs = game
                .observation(seat)
                .map_err(|e| format!("observation of seat {seat}: {e}"))?;
            EfficiencyBot.act(&obs, &legal)
        } else {
            random.choose(legal.as_slice())
        };
        let events = game
            .apply(seat, action)
            .map_err(|e| format!("legal action {seat}:{action:?} refused: {e}"))?;
        totals.add(&totals.actions, 1);
        totals.add(&totals.events, events.len() as u64);
        check_invariants(&game).map_err(|v| format!("after {seat}:{action:?}: {v}"))?;
        if let Some(r) = record.as_mut() {
            if r.push(seat, action).is_err() {
                record = None;
            }
        }
        for event in &events {
            match event {
                Event::Won { .. } => totals.add(&totals.wins, 1),
                Event::Called { meld, .. } => match meld.kind {
                    MeldKind::Chi | MeldKind::Pon => totals.add(&totals.calls, 1),
                    _ => totals.add(&totals.kans, 1),
                },
                Event::HandEnded(result) => {
                    hands += 1;
                    totals.add(&totals.hands, 1);
                    // Under riichi rules the winner also takes the riichi sticks.
                    let sticks = game.riichi_result().map_or(0, |r| {
                        i32::from(r.sticks_taken) * rules.riichi.map_or(0, |x| x.riichi_cost)
                    });
                    if result.deltas.iter().sum::<i32>() != sticks {
                        return Err(format!(
                            "hand deltas {:?} do not sum to the {sticks} taken from the table",
                            result.deltas
                        ));
                    }
                    if result.kind == HandEndKind::ExhaustiveDraw {
                        totals.add(&totals.draws, 1);
                    }
                    if (seed + hands) % sample == 0 {
                        hand_round_trip(&game)?;
                        totals.add(&totals.hand_round_trips, 1);
                    }
                }
                _ => {}
            }
        }
    }
    let total: i64 = game.scores().iter().map(|&s| i64::from(s)).sum();
    if total != i64::from(rules.players) * i64::from(rules.starting_points) {
        return Err(format!("final scores {:?} lost points", game.scores()));
    }
    if let Some(r) = record {
        game_round_trip(&r, &game)?;
        totals.add(&totals.game_round_trips, 1);
    }
    totals.add(&totals.games, 1);
    Ok(())
}

/// The hand's record through postcard and back, replayed: the same game.
fn hand_round_trip(game: &Game) -> Result<(), String> {
    let record = game.hand_record();
    let mut buf = [0u8; RECORD_MAX_BYTES];
    let bytes = record
        .to_postcard(&mut buf)
        .map_err(|e| format!("hand record encode: {e}"))?;
    let back = HandRecord::from_postcard(bytes).map_err(|e| format!("hand record decode: {e}"))?;
    if back != record {
        return Err("hand record changed through postcard".into());
    }
    let replayed = back
        .replay()
        .map_err(|e| format!("hand record replay: {e}"))?;
    if &replayed != game {
        return Err("the replayed hand differs from the game".into());
    }
    Ok(())
}

/// The whole game's record through postcard and back, replayed: the same final game.
fn game_round_trip(record: &GameRecord<GAME_RECORD_CAP>, game: &Game) -> Result<(), String> {
    let bytes = postcard::to_allocvec(record).map_err(|e| format!("game record encode: {e}"))?;
    let back: GameRecord<GAME_RECORD_CAP> =
        postcard::from_bytes(&bytes).map_err(|e| format!("game record decode: {e}"))?;
    if &back != record {
        return Err("game record changed through postcard".into());
    }
    let replayed = back
        .replay()
        .map_err(|e| format!("game record replay: {e}"))?;
    if &replayed != game {
        return Err("the replayed game differs from the game".into());
    }
    Ok(())
}

fn soak(name: &str, rules: Rules, args: &Args) -> u64 {
    let totals = Totals::default();
    let next = AtomicU64::new(0);
    let printed = Mutex::new(0u64);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= args.games {
                    break;
                }
                let outcome =
                    catch_unwind(AssertUnwindSafe(|| play(rules, seed, args.sample, &totals)))
                        .unwrap_or_else(|_| Err("panicked".into()));
                if let Err(what) = outcome {
                    totals.add(&totals.violations, 1);
                    let mut printed = printed.lock().unwrap_or_else(|p| p.into_inner());
                    if *printed < PRINT_LIMIT {
                        *printed += 1;
                        eprintln!("VIOLATION {name} seed {seed}: {what}");
                    }
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let games = get(&totals.games);
    println!(
        "{name}: {games} games ({} hands, {} actions, {} events) in {secs:.1} s on {} \
         threads: {:.0} games/s, {:.0} events/s; {} wins, {} calls, {} kans, {} draws; \
         {} hand and {} game records round-tripped; {} violations",
        get(&totals.hands),
        get(&totals.actions),
        get(&totals.events),
        args.threads,
        games as f64 / secs,
        get(&totals.events) as f64 / secs,
        get(&totals.wins),
        get(&totals.calls),
        get(&totals.kans),
        get(&totals.draws),
        get(&totals.hand_round_trips),
        get(&totals.game_round_trips),
        get(&totals.violations),
    );
    get(&totals.violations)
}

fn main() {
    let args = parse_args();
    let mut violations = 0;
    for (name, rules) in &args.presets {
        violations += soak(name, *rules, &args);
    }
    if violations > 0 {
        eprintln!("soak FAILED: {violations} violations");
        std::process::exit(1);
    }
}
