//! Tests of [`super`]: ranks, Tenhou's rank points against real results, whole games.

use super::*;
use crate::games_report::GamesReport;
use crate::BotSpec::{Efficiency, Random};

fn games(
    rules: &str,
    seats: Vec<BotSpec>,
    games: u64,
    seed: u64,
) -> (GamesConfig, Vec<Vec<PlayedGame>>) {
    let cfg = GamesConfig {
        rules: Rules::preset(rules).expect("preset"),
        seats,
        games,
        seed,
        duplicate: true,
    };
    let played =
        play_games(&cfg, Seating::default(), &|| {}, &AtomicBool::new(false)).expect("games");
    (cfg, played)
}

#[test]
fn equal_scores_rank_by_seat_from_the_first_dealer() {
    assert_eq!(ranks(&[25_000, 25_000, 25_000, 25_000], 4), [1, 2, 3, 4]);
    assert_eq!(ranks(&[10_000, 40_000, 10_000, 40_000], 4), [3, 1, 4, 2]);
    assert_eq!(ranks(&[35_000, 50_000, 20_000, 0], 3), [2, 1, 3, 0]);
}

/// Final scores and rank points of real Tenhou games (the `owari` attribute: score in
/// hundreds, then rank points, by seat), from the mjlogs in
/// `tests/data/real-logs/dnovikoff__tenhou/` (PROVENANCE.tsv there): the 段位戦
/// hanchan of four (GO type 169) and of three players (type 185). The type-161 logs
/// there (`bye`, `shuffle`) were played with the smaller uma +10/+5/−5/−10 and are left
/// out.
#[test]
fn tenhou_rank_points_match_real_game_results() {
    let four = UmaTable::for_rules(&Rules::preset("tenhou-4p").expect("preset"));
    let three = UmaTable::for_rules(&Rules::preset("tenhou-sanma").expect("preset"));
    assert_eq!(
        (four.start, four.return_points, four.oka()),
        (25_000, 30_000, 20.0)
    );
    assert_eq!(
        (three.start, three.return_points, three.oka()),
        (35_000, 40_000, 15.0)
    );
    #[rustfmt::skip]
    let real: [(&str, [i32; 4], [f64; 4]); 10] = [
        ("bug1", [180, 374, 82, 364], [-22.0, 48.0, -42.0, 16.0]),
        ("bug2", [291, 216, 313, 180], [9.0, -18.0, 41.0, -32.0]),
        ("bug3", [269, 292, 514, -75], [-13.0, 9.0, 62.0, -58.0]),
        ("bug4", [287, 243, 84, 386], [9.0, -16.0, -42.0, 49.0]),
        ("bug5", [249, 133, 292, 326], [-15.0, -37.0, 9.0, 43.0]),
        ("bug6", [203, 208, 207, 382], [-30.0, 1.0, -19.0, 48.0]),
        ("bug7", [385, 501, -86, 200], [19.0, 60.0, -59.0, -20.0]),
        ("bug8", [778, 24, 165, 33], [88.0, -48.0, -3.0, -37.0]),
        ("bug9", [-40, 266, 437, 337], [-54.0, -13.0, 53.0, 14.0]),
        ("pao", [-21, 236, 472, 313], [-52.0, -16.0, 57.0, 11.0]),
    ];
    for (name, hundreds, expected) in real {
        let scores = hundreds.map(|h| h * 100);
        assert_eq!(four.rank_points(&scores), expected, "{name}");
    }
    // sanma2.mjlog: 27 400, 83 100, −5 500 (the fourth field is empty).
    assert_eq!(
        three.rank_points(&[27_400, 83_100, -5_500, 0]),
        [-13.0, 79.0, -66.0, 0.0]
    );
}

#[test]
fn the_simple_rules_count_the_uma_alone() {
    let uma = UmaTable::for_rules(&Rules::sanma());
    assert!(!uma.scores_count);
    assert_eq!(uma.oka(), 0.0);
    assert_eq!(uma.rank_points(&[5, -9, 4, 0]), [20.0, -20.0, 0.0, 0.0]);
}

#[test]
fn whole_riichi_games_are_played_to_their_end() {
    let (cfg, played) = games("tenhou-sanma", vec![Efficiency, Efficiency, Random], 4, 3);
    let uma = UmaTable::for_rules(&cfg.rules);
    assert_eq!(played.len(), 4);
    for cluster in &played {
        assert_eq!(cluster.len(), 3, "one game per rotation");
        for g in cluster {
            // A three-player hanchan has at least the six hands East 1 to South 3,
            // unless a player went below zero (the game ends there, 飛び).
            let bust = g.scores[..3].iter().any(|&s| s < 0);
            assert!(g.hands >= 6 || bust, "{g:?}");
            assert!(g.hands >= 2, "{g:?}");
            // Points are conserved: the sticks left on the table went to first place.
            assert_eq!(g.scores.iter().sum::<i32>(), 3 * 35_000, "{g:?}");
            let mut r = g.ranks[..3].to_vec();
            r.sort_unstable();
            assert_eq!(r, [1, 2, 3]);
            let total: f64 = uma.rank_points(&g.scores).iter().sum();
            assert!(total.abs() < 1e-9, "{g:?}");
        }
        // The rotations seat each entry once in every seat.
        for seat in 0..3 {
            let mut entries: Vec<usize> = cluster.iter().map(|g| g.seat_bot[seat]).collect();
            entries.sort_unstable();
            assert_eq!(entries, [0, 1, 2]);
        }
    }
}

#[test]
fn the_report_does_not_depend_on_the_thread_count() {
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| games("tenhou-sanma", vec![Efficiency, Random, Random], 3, 8))
    };
    let (c1, one) = run(1);
    let (_, two) = run(2);
    assert_eq!(one, two);
    let a = GamesReport::from_games(&c1, &one, 0.0);
    let b = GamesReport::from_games(&c1, &two, 0.0);
    assert_eq!(
        serde_json::to_string(&a).expect("json"),
        serde_json::to_string(&b).expect("json")
    );
}

#[test]
fn efficiency_places_above_random_bots() {
    let (cfg, played) = games("tenhou-sanma", vec![Efficiency, Random, Random], 10, 21);
    let report = GamesReport::from_games(&cfg, &played, 0.0);
    let eff = report.kind("eff").expect("eff");
    assert_eq!(eff.seat_games, 30);
    assert!(eff.average_rank.high < 1.6, "{eff:?}");
    assert!(eff.rank_points.low > 0.0, "{eff:?}");
    let random = report.kind("random").expect("random");
    assert_eq!(random.seat_games, 60);
    // Ranks average (players + 1) / 2 over the table, rank points sum to zero.
    let mean_rank = (eff.average_rank.mean * 30.0 + random.average_rank.mean * 60.0) / 90.0;
    assert!((mean_rank - 2.0).abs() < 1e-9);
    let points = eff.rank_points.mean * 30.0 + random.rank_points.mean * 60.0;
    assert!(points.abs() < 1e-6, "{points}");
    let shares: f64 = eff.rank_rates.iter().map(|e| e.mean).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    assert!(report.table().contains("average rank"));
}

#[test]
fn paired_games_compare_the_same_seeds() {
    let (cfg, eff) = games("tenhou-sanma", vec![Efficiency, Random, Random], 6, 4);
    let (_, rnd) = games("tenhou-sanma", vec![Random, Random, Random], 6, 4);
    let uma = UmaTable::for_rules(&cfg.rules);
    let same = compare(&eff, 0, &eff, 0, &uma).expect("compare");
    assert_eq!((same.games, same.seat_games), (6, 18));
    assert_eq!(same.average_rank.mean, 0.0);
    assert_eq!(same.rank_points.high, 0.0);
    let c = compare(&eff, 0, &rnd, 0, &uma).expect("compare");
    assert!(c.average_rank.high < 0.0, "{c:?}");
    assert!(c.rank_points.low > 0.0, "{c:?}");
    let (_, shorter) = games("tenhou-sanma", vec![Random, Random, Random], 3, 4);
    assert!(compare(&eff, 0, &shorter, 0, &uma).is_err());
}

#[test]
fn bad_configurations_are_refused() {
    let cfg = GamesConfig {
        rules: Rules::preset("tenhou-4p").expect("preset"),
        seats: vec![Efficiency, Random, Random],
        games: 1,
        seed: 1,
        duplicate: true,
    };
    let err = play_games(&cfg, Seating::default(), &|| {}, &AtomicBool::new(false));
    assert!(err.is_err());
    let cfg = GamesConfig {
        seats: vec![Efficiency, Random, Random, Random],
        games: 0,
        ..cfg
    };
    assert!(play_games(&cfg, Seating::default(), &|| {}, &AtomicBool::new(false)).is_err());
}
