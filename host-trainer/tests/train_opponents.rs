//! The self-play table mix (`--opponents`, `--past-lag`) and `--win-bonus`: workers
//! record the current policy's seats only, a mixed run trains, bad mixes are refused
//! before a run folder exists.
#![cfg(feature = "train")]

mod common;

use engine::encode::Encoding;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use engine::Rules;
use host_trainer::train::model::{OwnedNet, ParamSnapshot};
use host_trainer::train::opponents::OpponentMix;
use host_trainer::train::run::CONFIG_FILE;
use host_trainer::train::search_teacher::SearchTeacherSetup;
use host_trainer::train::selfplay::{
    hand_reward, run_worker, TeacherBot, TrajectoryBatch, WorkerLinks, WorkerSetup,
};
use host_trainer::train::TrainConfig;
use tch::Device;

use common::TINY;

/// Plays with one worker until `hands` hands are done; returns (hands, trajectories).
fn play(opponents: &str, hands: u32) -> (u32, usize) {
    let (hands, trajectories) = play_batches(opponents, hands);
    (hands, trajectories.len())
}

/// The trajectories of a worker's first `hands` hands.
fn play_batches(
    opponents: &str,
    hands: u32,
) -> (u32, Vec<host_trainer::train::selfplay::Trajectory>) {
    play_labelled(opponents, hands, None)
}

/// The trajectories of a worker's first `hands` hands, with the search teacher's
/// labels when `search` is given.
fn play_labelled(
    opponents: &str,
    hands: u32,
    search: Option<SearchTeacherSetup>,
) -> (u32, Vec<host_trainer::train::selfplay::Trajectory>) {
    play_labelled_on(
        Rules::sanma(),
        opponents,
        hands,
        search,
        TeacherBot::Efficiency,
    )
}

/// [`play_labelled`] under `rules` (a model of the rules' encoding), recording
/// `teacher`'s choices.
fn play_labelled_on(
    rules: Rules,
    opponents: &str,
    hands: u32,
    search: Option<SearchTeacherSetup>,
    teacher: TeacherBot,
) -> (u32, Vec<host_trainer::train::selfplay::Trajectory>) {
    play_adjusted(rules, opponents, hands, search, teacher, |_| {})
}

/// [`play_labelled_on`] with the worker's setup changed by `adjust` first.
fn play_adjusted(
    rules: Rules,
    opponents: &str,
    hands: u32,
    search: Option<SearchTeacherSetup>,
    teacher: TeacherBot,
    adjust: impl FnOnce(&mut WorkerSetup),
) -> (u32, Vec<host_trainer::train::selfplay::Trajectory>) {
    let encoding = Encoding::for_rules(&rules);
    let net = OwnedNet::new(TINY, encoding, Device::Cpu).unwrap();
    let snap = Arc::new(
        ParamSnapshot::take(&net.vs, TINY, encoding, 0)
            .unwrap()
            .to_bytes()
            .unwrap(),
    );
    let (ptx, prx) = std::sync::mpsc::channel();
    ptx.send(snap.clone()).unwrap();
    ptx.send(snap).unwrap(); // a second snapshot: the `past` model moves along
    let (tx, rx) = std::sync::mpsc::sync_channel(16);
    let stop = Arc::new(AtomicBool::new(false));
    let mut setup = WorkerSetup {
        id: 0,
        rules,
        whole_games: false,
        placement: [0.0; 4],
        model: TINY,
        tables: 4,
        seed: 5,
        auto_win: true,
        send_every: 1,
        reward_scale: 1.0,
        win_bonus: 0.0,
        opponents: OpponentMix::parse(opponents).unwrap(),
        past_lag: 1,
        record_teacher: Some(teacher),
        search,
        record_hidden: false,
    };
    adjust(&mut setup);
    let links = WorkerLinks {
        params: prx,
        out: tx,
        stop: stop.clone(),
        pause: Arc::new(AtomicBool::new(false)),
    };
    let worker = std::thread::spawn(move || run_worker(setup, links));
    let (mut done, mut trajectories) = (0u32, Vec::new());
    let start = Instant::now();
    while done < hands && start.elapsed() < Duration::from_secs(120) {
        if let Ok(bytes) = rx.recv_timeout(Duration::from_millis(200)) {
            let b = TrajectoryBatch::from_bytes(&bytes).unwrap();
            done += b.hands;
            trajectories.extend(b.trajectories);
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(rx);
    worker.join().unwrap().unwrap();
    drop(ptx);
    (done, trajectories)
}

#[test]
fn workers_record_only_the_current_policys_seats() {
    // Against two efficiency bots one seat per hand is recorded; in self-play all three
    // (a seat without any decision of its own — every move automatic — records none).
    let (hands, trajectories) = play("eff:1", 60);
    assert!(hands >= 60, "{hands}");
    assert!(
        trajectories <= hands as usize + 4,
        "{trajectories} for {hands} hands"
    );
    assert!(
        trajectories * 10 >= hands as usize * 8,
        "{trajectories} for {hands} hands"
    );
    let (hands, trajectories) = play("self:1", 60);
    assert!(
        trajectories > 2 * hands as usize,
        "{trajectories} for {hands} hands"
    );
    // Past snapshots play without being recorded.
    let (hands, trajectories) = play("past:1", 60);
    assert!(
        trajectories <= hands as usize + 4,
        "{trajectories} for {hands} hands"
    );
}

#[test]
fn every_recorded_decision_carries_the_efficiency_bots_legal_choice() {
    let (_, trajectories) = play_batches("self:1", 40);
    let steps: Vec<_> = trajectories.iter().flat_map(|t| &t.steps).collect();
    assert!(steps.len() > 200, "{}", steps.len());
    let legal = |st: &&host_trainer::train::selfplay::Step, a: usize| {
        (st.legal[a / 64] >> (a % 64)) & 1 == 1
    };
    assert!(steps.iter().all(|st| legal(st, st.teacher as usize)));
    // Claim decisions are taught too (pass or a call), not only discards.
    let claims = steps.iter().filter(|st| st.teacher as usize >= 102).count();
    assert!(claims > 0, "no claim decision among {} steps", steps.len());
}

#[test]
fn defending_opponents_play_and_the_defending_teacher_labels_legal_choices() {
    // Four-player riichi rules, where the defending bot folds: against three of them one
    // seat per hand is recorded, and every label is legal, calls and passes included.
    let rules = Rules::preset("tenhou-4p").unwrap();
    let (hands, trajectories) = play_labelled_on(rules, "defend:1", 30, None, TeacherBot::Defend);
    assert!(hands >= 30, "{hands}");
    assert!(
        trajectories.len() <= hands as usize + 4,
        "{}",
        trajectories.len()
    );
    let (_, trajectories) = play_labelled_on(rules, "self:1", 20, None, TeacherBot::Defend);
    let steps: Vec<_> = trajectories.iter().flat_map(|t| &t.steps).collect();
    assert!(steps.len() > 200, "{}", steps.len());
    let legal = |a: usize, st: &host_trainer::train::selfplay::Step| {
        (st.legal[a / 64] >> (a % 64)) & 1 == 1
    };
    assert!(steps.iter().all(|st| legal(st.teacher as usize, st)));
}

#[test]
fn the_win_bonus_is_added_to_winners_rewards_only() {
    let setup = |win_bonus| WorkerSetup {
        id: 0,
        rules: Rules::sanma(),
        whole_games: false,
        placement: [0.0; 4],
        model: TINY,
        tables: 1,
        seed: 0,
        auto_win: true,
        send_every: 1,
        reward_scale: 4.0,
        win_bonus,
        opponents: OpponentMix::SELF_ONLY,
        past_lag: 1,
        record_teacher: None,
        search: None,
        record_hidden: false,
    };
    assert_eq!(hand_reward(2, true, &setup(0.0)), 0.5);
    assert_eq!(hand_reward(2, true, &setup(2.0)), 1.0);
    assert_eq!(hand_reward(-1, false, &setup(2.0)), -0.25);
    assert_eq!(hand_reward(0, false, &setup(2.0)), 0.0);
}

/// Whether a recorded decision was made after the game's first hand (the global
/// token's hand-progress feature is above 0).
fn after_the_first_hand(step: &host_trainer::train::selfplay::Step) -> bool {
    use engine::encode::{gf, GLOBAL_TOKEN, TOKEN_FEATURES_V2};
    step.obs[GLOBAL_TOKEN * TOKEN_FEATURES_V2 + gf::HAND_PROGRESS] > 0.0
}

#[test]
fn whole_games_play_the_later_hands_and_shape_the_reward_by_placement() {
    let rules = Rules::preset("tenhou-4p").unwrap();
    let eff = TeacherBot::Efficiency;
    // A fresh deal per hand: every decision is in a game's first hand.
    let (_, fresh) = play_labelled_on(rules, "eff:1", 24, None, eff);
    assert!(!fresh.is_empty());
    assert!(fresh
        .iter()
        .flat_map(|t| &t.steps)
        .all(|s| !after_the_first_hand(s)));
    // Whole games: later hands are played and recorded. A placement potential far
    // above any hand's points shows in the rewards of the hands that changed the
    // learner's standing between first and the rest, and in no other way.
    let big = 1.0e7f32;
    let (hands, games) = play_adjusted(rules, "eff:1", 24, None, eff, |s| {
        s.whole_games = true;
        s.placement = [big, 0.0, 0.0, 0.0];
    });
    assert!(hands >= 24, "{hands}");
    assert!(games
        .iter()
        .flat_map(|t| &t.steps)
        .any(after_the_first_hand));
    let scale = 1.0; // play_adjusted's reward_scale
    let shaped = games
        .iter()
        .filter(|t| (t.reward * scale).abs() > big / 2.0)
        .count();
    assert!(
        shaped > 0,
        "no hand changed who ranks first in {hands} hands"
    );
    assert!(games.iter().all(|t| {
        let r = t.reward * scale;
        [-big, 0.0, big].iter().any(|c| (r - c).abs() < 200_000.0)
    }));
}

#[test]
fn the_placement_shaping_is_the_change_in_the_ranks_potential() {
    use host_trainer::train::selfplay::placement_shaping;
    let setup = WorkerSetup {
        id: 0,
        rules: Rules::preset("tenhou-4p").unwrap(),
        whole_games: true,
        placement: [4000.0, 2000.0, -2000.0, -4000.0],
        model: TINY,
        tables: 1,
        seed: 0,
        auto_win: true,
        send_every: 1,
        reward_scale: 4000.0,
        win_bonus: 0.0,
        opponents: OpponentMix::SELF_ONLY,
        past_lag: 1,
        record_teacher: None,
        search: None,
        record_hidden: false,
    };
    // (rank before, rank after, shaping in points)
    for (before, after, points) in [
        (1, 1, 0.0),
        (2, 1, 2000.0),
        (1, 4, -8000.0),
        (4, 3, 2000.0),
        (3, 2, 4000.0),
    ] {
        assert_eq!(
            placement_shaping(before, after, &setup),
            points,
            "{before}→{after}"
        );
    }
    // Over a game it telescopes: 1 → 3 → 2 → 4 sums to the potential of 4 minus that of 1.
    let path = [1u8, 3, 2, 4];
    let sum: f32 = path
        .windows(2)
        .map(|w| placement_shaping(w[0], w[1], &setup))
        .sum();
    assert_eq!(sum, -8000.0);
    // A rank outside 1..=4 (no such seat) counts 0, never panics.
    assert_eq!(placement_shaping(0, 9, &setup), 0.0);
}

#[test]
fn a_mixed_run_trains_and_records_its_mix() {
    let dir = std::env::temp_dir().join(format!("mj-train-mix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut args: Vec<String> = [
        "train",
        "--id",
        "mix",
        "--eval-every",
        "2",
        "--eval-hands",
        "12",
        "--max-updates",
        "2",
        "--quiet",
        "--opponents",
        "self:0.3,eff:0.4,past:0.3",
        "--past-lag",
        "1",
        "--win-bonus",
        "1",
        "--teacher",
        "eff",
        "--guidance-updates",
        "1",
        "--guidance-floor",
        "0.25",
    ]
    .map(String::from)
    .into();
    args.extend(["--runs".to_string(), dir.display().to_string()]);
    args.extend(common::TINY_TRAINING.map(String::from));
    let out =
        host_trainer::train::train(TrainConfig::parse_from(args), &AtomicBool::new(false)).unwrap();
    assert_eq!(out.progress.update, 2);
    // The evaluation's paired comparison, over 4 walls, has an interval around its mean.
    let rows = host_trainer::train::run::read_metrics(&dir.join("mix")).unwrap();
    let r = &rows[1];
    let paired = (
        r.eval_paired_points_low.unwrap(),
        r.eval_paired_points.unwrap(),
        r.eval_paired_points_high.unwrap(),
    );
    assert!(paired.0 <= paired.1 && paired.1 <= paired.2, "{paired:?}");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mix").join(CONFIG_FILE)).unwrap())
            .unwrap();
    assert_eq!(config["config"]["opponents"], "self:0.3,eff:0.4,past:0.3");
    assert_eq!(config["config"]["win_bonus"], 1.0);
    assert_eq!(config["config"]["teacher"], "eff");
    // The guidance coefficient reached its floor and stayed there.
    assert_eq!(rows[1].guidance_coef, 0.25);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_mixes_are_refused_before_any_work() {
    for (mix, want) in [
        ("self:0.5,eff:0.4", "sum to"),
        ("self:0.5,bot:0.5", "unknown kind"),
    ] {
        // On the command line, by clap.
        let err = TrainConfig::try_parse_from(["train", "--opponents", mix]).unwrap_err();
        assert!(err.to_string().contains(want), "{err}");
        // In a programmatic config, by train(), before a run folder is made.
        let dir = std::env::temp_dir().join(format!("mj-train-badmix-{}", std::process::id()));
        let mut cfg = TrainConfig::parse_from(["train", "--id", "bad"]);
        cfg.runs = dir.clone();
        cfg.opponents = mix.into();
        let err = host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap_err();
        assert!(format!("{err:#}").contains(want), "{err:#}");
        assert!(!dir.exists(), "a run folder was made");
    }
    // A config.json from before the mix existed reads with the defaults (self-play).
    let old = serde_json::json!({"rules": "sanma", "seed": 3});
    let cfg: TrainConfig = serde_json::from_value(old).unwrap();
    assert_eq!((cfg.opponents.as_str(), cfg.win_bonus), ("self:1", 0.0));
}

#[test]
fn the_search_teacher_labels_about_its_fraction_with_legal_candidates() {
    check_search_labels(Rules::sanma(), 12);
}

#[test]
fn the_search_teacher_labels_riichi_decisions_too() {
    check_search_labels(Rules::preset("tenhou-sanma-east").unwrap(), 6);
}

fn check_search_labels(rules: Rules, hands: u32) {
    let setup = SearchTeacherSetup {
        fraction: 0.5,
        rollouts: 4,
    };
    let (_, trajectories) =
        play_labelled_on(rules, "eff:1", hands, Some(setup), TeacherBot::Efficiency);
    let steps: Vec<_> = trajectories.iter().flat_map(|t| &t.steps).collect();
    let choices = |st: &&host_trainer::train::selfplay::Step| {
        st.legal.iter().map(|w| w.count_ones()).sum::<u32>()
    };
    let eligible: Vec<_> = steps.iter().filter(|st| choices(st) >= 2).collect();
    let labelled = eligible.iter().filter(|st| !st.search.is_empty()).count();
    assert!(eligible.len() >= 60, "{} decisions", eligible.len());
    let share = labelled as f64 / eligible.len() as f64;
    assert!(
        (0.3..0.7).contains(&share),
        "{labelled} of {}",
        eligible.len()
    );
    for st in &steps {
        if choices(st) < 2 {
            assert!(st.search.is_empty(), "a forced decision needs no label");
        }
        for &(a, v) in &st.search {
            let a = a as usize;
            assert!(
                (st.legal[a / 64] >> (a % 64)) & 1 == 1,
                "illegal candidate {a}"
            );
            assert!(v.is_finite());
        }
        if !st.search.is_empty() {
            assert!(st.search.len() >= 2, "{:?}", st.search);
        }
    }
}

/// TINY_TRAINING followed by `extra`, as owned strings.
fn tiny_args(extra: &[&str]) -> Vec<String> {
    common::TINY_TRAINING
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn a_search_teacher_run_trains_with_guidance() {
    let dir = std::env::temp_dir().join(format!("mj-search-teacher-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = tiny_args(&[
        "--runs",
        dir.to_str().unwrap(),
        "--id",
        "s",
        "--teacher",
        "search",
        "--search-fraction",
        "0.5",
        "--search-rollouts",
        "4",
        "--max-updates",
        "2",
    ]);
    let cfg = TrainConfig::parse_from(std::iter::once("train".to_string()).chain(args));
    let out = host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap();
    assert_eq!(out.progress.update, 2);
    let text = std::fs::read_to_string(out.run_dir.join("metrics.jsonl")).unwrap();
    for line in text.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let g = row["guidance_loss"].as_f64().unwrap();
        assert!(
            g > 0.0 && g.is_finite(),
            "guidance loss {g}: labelled decisions exist"
        );
    }
    let saved = std::fs::read_to_string(out.run_dir.join(CONFIG_FILE)).unwrap();
    assert!(saved.contains("\"search_rollouts\": 4"), "{saved}");
    // Bad search settings are refused before any run folder exists.
    for (flag, value) in [
        ("--search-fraction", "0"),
        ("--search-fraction", "1.5"),
        ("--search-rollouts", "0"),
        ("--search-temperature", "-1"),
    ] {
        let cfg = TrainConfig::parse_from([
            "train",
            "--runs",
            dir.to_str().unwrap(),
            "--id",
            "bad",
            "--teacher",
            "search",
            &format!("{flag}={value}"),
        ]);
        let err = host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap_err();
        assert!(format!("{err:#}").contains(&flag[2..]), "{err:#}");
        assert!(!dir.join("bad").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_oracle_critic_run_logs_its_fit_and_resumes_with_it() {
    let dir = std::env::temp_dir().join(format!("mj-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = tiny_args(&[
        "--runs",
        dir.to_str().unwrap(),
        "--id",
        "o",
        "--oracle-critic",
        "--max-updates",
        "3",
        "--checkpoint-every",
        "1",
    ]);
    let cfg = TrainConfig::parse_from(std::iter::once("train".to_string()).chain(args));
    let out = host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap();
    let rows = |out: &host_trainer::train::TrainOutcome| -> Vec<serde_json::Value> {
        std::fs::read_to_string(out.run_dir.join("metrics.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let first = rows(&out);
    assert_eq!(first.len(), 3);
    for r in &first {
        let ev = r["oracle_explained_variance"]
            .as_f64()
            .expect("logged each update");
        assert!(ev.is_finite() && ev <= 1.0, "{ev}");
    }
    let ck = host_trainer::train::checkpoint::Checkpoint::load(
        &out.run_dir.join(host_trainer::train::run::CHECKPOINT_FILE),
    )
    .unwrap();
    assert!(
        ck.oracle.is_some(),
        "the checkpoint keeps the oracle critic"
    );
    // Resumed, it continues with the saved critic.
    let resume = TrainConfig::parse_from([
        "train",
        "--resume",
        out.run_dir.to_str().unwrap(),
        "--max-updates",
        "4",
    ]);
    let again = host_trainer::train::train(resume, &AtomicBool::new(false)).unwrap();
    assert_eq!(again.progress.update, 4);
    assert!(rows(&again)[3]["oracle_explained_variance"]
        .as_f64()
        .is_some());
    let _ = std::fs::remove_dir_all(&dir);
}
