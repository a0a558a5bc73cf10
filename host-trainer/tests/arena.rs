//! Arena sanity checks at a modest number of hands.

use std::sync::atomic::AtomicBool;

use arena::{self, ArenaConfig, ArenaReport, BotSpec};

fn play(
    seats: &[BotSpec],
    rules: engine::Rules,
    hands: u64,
    seed: u64,
    threads: usize,
) -> ArenaReport {
    let cfg = ArenaConfig {
        rules,
        seats: seats.to_vec(),
        hands,
        seed,
        duplicate: true,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| arena::run(&cfg, &|| {}, &AtomicBool::new(false)))
        .unwrap()
}

#[test]
fn efficiency_beats_random_by_a_wide_margin() {
    use BotSpec::*;
    for rules in [engine::Rules::sanma(), engine::Rules::four_player()] {
        let mut seats = vec![Efficiency];
        seats.resize(rules.players as usize, Random);
        let r = play(&seats, rules, 600, 7, 2);
        let eff = r.kind("eff").unwrap();
        let rnd = r.kind("random").unwrap();
        // Wide margin: the intervals are far apart, not just the means.
        assert!(eff.win_rate.low > 3.0 * rnd.win_rate.high, "{}", r.table());
        assert!(eff.points_per_hand.low > 0.0, "{}", r.table());
        assert!(rnd.points_per_hand.high < 0.0, "{}", r.table());
        // Duplicate rotation: every bot kind played every seat equally often.
        assert_eq!(eff.seat_hands, r.hands);
        assert_eq!(rnd.seat_hands, r.hands * (rules.players as u64 - 1));
    }
}

#[test]
fn a_bot_against_copies_of_itself_gets_an_equal_share() {
    for spec in [BotSpec::Efficiency, BotSpec::Random] {
        let r = play(&[spec; 3], engine::Rules::sanma(), 900, 3, 2);
        let all = &r.kinds[0];
        assert!(all.points_per_hand.mean.abs() < 1e-9, "{}", r.table());
        assert_eq!(r.entrants.len(), 3);
        for e in &r.entrants {
            // Each copy played every seat of every wall, so all copies saw the same
            // tiles from the same seats: their shares agree within noise.
            assert!(
                (e.win_rate.mean - all.win_rate.mean).abs() < 0.04,
                "{}",
                r.table()
            );
            assert!(
                e.win_rate.low < all.win_rate.mean && all.win_rate.mean < e.win_rate.high,
                "{}",
                r.table()
            );
        }
    }
}

#[test]
fn mixed_line_up_conserves_points() {
    let r = play(
        &[BotSpec::Efficiency, BotSpec::Efficiency, BotSpec::Random],
        engine::Rules::sanma(),
        600,
        11,
        2,
    );
    let eff = r.kind("eff").unwrap();
    let rnd = r.kind("random").unwrap();
    assert_eq!(eff.seat_hands, 2 * rnd.seat_hands);
    let total = eff.points_per_hand.mean * eff.seat_hands as f64
        + rnd.points_per_hand.mean * rnd.seat_hands as f64;
    assert!(total.abs() < 1e-6);
}

#[test]
fn report_does_not_depend_on_thread_count() {
    let seats = [BotSpec::Efficiency, BotSpec::Random, BotSpec::Random];
    let a = play(&seats, engine::Rules::sanma(), 90, 5, 1);
    let b = play(&seats, engine::Rules::sanma(), 90, 5, 2);
    let strip = |r: &ArenaReport| serde_json::to_string(&r.kinds).unwrap();
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(a.hands, 90);
}

#[test]
fn bad_configuration_is_an_error() {
    let cfg = ArenaConfig {
        rules: engine::Rules::sanma(),
        seats: vec![BotSpec::Random; 4],
        hands: 10,
        seed: 1,
        duplicate: true,
    };
    let err = arena::run(&cfg, &|| {}, &AtomicBool::new(false)).unwrap_err();
    assert!(err.to_string().contains("4 seats"), "{err}");
    assert!(BotSpec::parse("genius").is_err());
}

#[test]
fn custom_seats_play_the_factory_agent() {
    let cfg = ArenaConfig {
        rules: engine::Rules::sanma(),
        seats: vec![BotSpec::Custom, BotSpec::Random, BotSpec::Random],
        hands: 300,
        seed: 4,
        duplicate: true,
    };
    let stop = AtomicBool::new(false);
    // Without a factory a custom seat is an error, not a panic.
    assert!(arena::run(&cfg, &|| {}, &stop).is_err());
    let factory = |_seed: u64| -> anyhow::Result<Box<dyn engine::bots::Agent>> {
        Ok(Box::new(engine::bots::EfficiencyBot))
    };
    let custom = arena::run_with(&cfg, &factory, &|| {}, &stop).unwrap();
    let builtin = play(
        &[BotSpec::Efficiency, BotSpec::Random, BotSpec::Random],
        engine::Rules::sanma(),
        300,
        4,
        2,
    );
    let (c, b) = (custom.kind("policy").unwrap(), builtin.kind("eff").unwrap());
    assert_eq!(c.win_rate.mean, b.win_rate.mean);
    assert_eq!(c.points_per_hand.mean, b.points_per_hand.mean);
}

#[test]
fn search_seats_play_legal_hands_and_are_reported_apart() {
    use arena::search_agent::{search_factory, SEARCH_FAILURES};
    use arena::Seating;
    let cfg = ArenaConfig {
        rules: engine::Rules::sanma(),
        seats: vec![BotSpec::Search, BotSpec::Efficiency, BotSpec::Efficiency],
        hands: 6,
        seed: 9,
        duplicate: true,
    };
    let stop = AtomicBool::new(false);
    // Without a search factory the seat is an error, not a panic.
    assert!(arena::run(&cfg, &|| {}, &stop).is_err());
    let mut scfg = search::SearchConfig::new(&cfg.rules).unwrap();
    scfg.rollouts = 8;
    scfg.budget_ms = None;
    let factory = search_factory(std::sync::Arc::new(scfg));
    let seating = Seating {
        custom: None,
        search: Some(&*factory),
    };
    let walls = arena::play_walls_seated(&cfg, seating, &|| {}, &stop).unwrap();
    let report = arena::ArenaReport::from_walls(&cfg, &walls, 0.0);
    assert_eq!(report.kind("search").unwrap().seat_hands, 6);
    assert_eq!(
        SEARCH_FAILURES.load(std::sync::atomic::Ordering::Relaxed),
        0
    );
    assert_eq!(BotSpec::parse("search").unwrap(), BotSpec::Search);
}

#[test]
fn the_riichi_presets_play_in_the_arena() {
    for (rules, seats) in [
        ("tenhou-sanma", "eff,eff,random"),
        ("tenhou-4p-east", "eff,random,eff,random"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_host-trainer"))
            .args([
                "arena", "--rules", rules, "--seats", seats, "--hands", "60", "--quiet",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{rules}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("eff"), "{text}");
    }
}

#[test]
fn whole_games_are_reported_by_placement_and_paired() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("arena-games");
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("games.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_host-trainer"))
        .args([
            "arena",
            "--rules",
            "tenhou-4p-east",
            "--seats",
            "eff,random,random,random",
            "--paired-with",
            "random,random,random,random",
            "--games",
            "4",
            "--quiet",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("16 games (4 seeds, duplicate)"), "{text}");
    assert!(
        text.contains("average rank") && text.contains("rank points"),
        "{text}"
    );
    assert!(
        text.contains("paired, entry 0 (eff minus random), 4 game seeds, 16 seat-games"),
        "{text}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let lineups = v["lineups"].as_array().unwrap();
    assert_eq!(lineups.len(), 2);
    assert_eq!(lineups[0]["uma"]["return_points"], 30_000);
    let eff = &lineups[0]["kinds"][0];
    assert_eq!(eff["bot"], "eff");
    assert_eq!(eff["seat_games"], 16);
    assert_eq!(eff["rank_rates"].as_array().unwrap().len(), 4);
    assert!(
        v["paired"][0]["comparison"]["average_rank"]["mean"]
            .as_f64()
            .unwrap()
            < 0.0,
        "{v}"
    );
    assert!(v["git_revision"].is_string());
}
