//! Complete random-action games for both presets with the invariant checker after every
//! action. Release builds play 100 000 games per preset; debug builds 2 000.

mod common;

use std::time::Instant;

use common::{play_game, Stats};
use engine::rules::Rules;

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
    let n = games();
    let mut stats = Stats::default();
    let start = Instant::now();
    for seed in 0..n {
        play_game(rules, seed, true, &mut stats, |_| {});
    }
    eprintln!("{name}: {n} games in {:.2?}: {stats:?}", start.elapsed());
    assert_eq!(stats.games, n);
    assert!(stats.tsumo > 0 && stats.ron > 0 && stats.draws > 0 && stats.pon > 0);
    assert!(stats.closed_kan + stats.open_kan + stats.added_kan > 0);
    stats
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
