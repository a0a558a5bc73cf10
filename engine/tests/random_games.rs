//! Complete random-action games for every preset with the invariant checker after every
//! action. Release builds play 100 000 games per preset; debug builds 2 000 (the riichi
//! presets: 300). The riichi presets play east-only games there (still through the
//! extension, renchan, every abortive draw), plus a tenth as many hanchan games; their
//! hands cost about twice a simple hand and a hanchan lasts about 11 hands.

mod common;

use std::time::Instant;

use common::{play_game, Stats};
use engine::rules::{GameLength, Rules};

fn games() -> u64 {
    if let Ok(n) = std::env::var("MAHJONG_RANDOM_GAMES") {
        if let Ok(n) = n.parse() {
            return n;
        }
    }
    if cfg!(debug_assertions) {
        2_000
    } else {
        100_000
    }
}

fn run(name: &str, rules: Rules) -> Stats {
    let mut n = games();
    let preset = std::env::var("MAHJONG_RANDOM_GAMES").is_err();
    if rules.is_riichi() && preset {
        // East-only: the full count; hanchan: a tenth; debug builds: 300 and 30.
        let hanchan = rules
            .riichi
            .is_some_and(|r| r.length == GameLength::Hanchan);
        n = match (cfg!(debug_assertions), hanchan) {
            (true, false) => 300,
            (true, true) => 30,
            (false, false) => n,
            (false, true) => n / 10,
        };
    }
    let mut stats = Stats::default();
    let start = Instant::now();
    for seed in 0..n {
        play_game(rules, seed, true, &mut stats, |_| {});
    }
    let elapsed = start.elapsed();
    eprintln!(
        "{name}: {n} games, {} hands in {elapsed:.2?} ({:.0} hands/s): {stats:?}",
        stats.hands,
        stats.hands as f64 / elapsed.as_secs_f64()
    );
    assert_eq!(stats.games, n);
    assert!(stats.tsumo > 0 && stats.ron > 0 && stats.draws > 0 && stats.pon > 0);
    assert!(stats.closed_kan + stats.open_kan + stats.added_kan > 0);
    stats
}

#[test]
fn random_games_tenhou_sanma() {
    let s = run("tenhou-sanma-east", Rules::tenhou_sanma().east_only());
    assert_eq!(s.chi, 0, "sanma has no chi");
    assert!(s.riichi > 0 && s.kita > 0 && s.yaku_wins > 0, "{s:?}");
    assert!(
        cfg!(debug_assertions) || (s.nine_terminals > 0 && s.aborts > 0),
        "{s:?}"
    );
    let h = run("tenhou-sanma", Rules::tenhou_sanma());
    assert!(h.hands > h.games * 5, "hanchan games are longer: {h:?}");
}

#[test]
fn random_games_tenhou_4p() {
    let s = run("tenhou-4p-east", Rules::tenhou_4p().east_only());
    assert!(s.chi > 0 && s.riichi > 0 && s.yaku_wins > 0, "{s:?}");
    assert_eq!(s.kita, 0, "no kita in four-player");
    let h = run("tenhou-4p", Rules::tenhou_4p());
    assert!(h.hands > h.games * 5, "hanchan games are longer: {h:?}");
    // About one hand in 3000 aborts in four-player random play: the debug sample may
    // have none.
    assert!(cfg!(debug_assertions) || s.aborts > 0, "{s:?}");
}

#[test]
fn random_games_sanma() {
    let s = run("sanma", Rules::sanma());
    assert_eq!(s.chi, 0, "sanma has no chi");
}

#[test]
fn random_games_four_player() {
    let s = run("four-player", Rules::four_player());
    assert!(s.chi > 0);
}
