//! Trainer checks: masking, GAE, PPO learning on a toy task, and a smoke run with a
//! checkpoint and a resume.
#![cfg(feature = "train")]

mod common;

use engine::encode::Encoding;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Parser;
use engine::bots::{Agent, RandomBot};
use engine::encode::{action_mask, encode, tf, ENCODED_LEN, TOKEN_FEATURES};
use engine::game::{Action, Game, Phase, POLICY_ACTIONS_V1};
use engine::rng::Rng;
use engine::Rules;
use host_trainer::train::adam::Adam;
use host_trainer::train::checkpoint::Checkpoint;
use host_trainer::train::model::{masked_logits, obs_tensor, OwnedNet, ParamSnapshot};
use host_trainer::train::ppo::{gae, update, PpoParams, Samples};
use host_trainer::train::run::{
    read_metrics, CHECKPOINT_FILE, CONFIG_FILE, CURVE_PNG, METRICS_CSV,
};
use host_trainer::train::TrainConfig;
use tch::{Device, Kind, Tensor};

use common::TINY;

#[test]
fn gae_matches_the_plain_definition() {
    let mut rng = Rng::new(3);
    for n in [1usize, 2, 7, 30] {
        let rewards: Vec<f32> = (0..n).map(|_| rng.next_f32() * 2.0 - 1.0).collect();
        let values: Vec<f32> = (0..n).map(|_| rng.next_f32()).collect();
        for (gamma, lambda) in [(1.0f32, 0.95f32), (0.9, 0.8), (0.99, 1.0), (1.0, 0.0)] {
            let (adv, ret) = gae(&rewards, &values, gamma, lambda);
            for t in 0..n {
                // A_t = Σ_k (γλ)^k δ_{t+k}, δ_i = r_i + γ V_{i+1} − V_i, V_n = 0.
                let mut a = 0.0f64;
                for k in 0..n - t {
                    let i = t + k;
                    let next = if i + 1 < n { values[i + 1] as f64 } else { 0.0 };
                    let delta = rewards[i] as f64 + gamma as f64 * next - values[i] as f64;
                    a += (gamma as f64 * lambda as f64).powi(k as i32) * delta;
                }
                assert!(
                    (adv[t] as f64 - a).abs() < 1e-4,
                    "n {n} t {t}: {} vs {a}",
                    adv[t]
                );
                assert!((ret[t] - adv[t] - values[t]).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn masked_logits_never_choose_an_illegal_action() {
    tch::manual_seed(7);
    let net = OwnedNet::new(TINY, Encoding::V1, Device::Cpu).unwrap();
    let mut obs = Vec::new();
    let mut masks = Vec::new();
    let mut enc = [0f32; ENCODED_LEN];
    let mut m = [0f32; POLICY_ACTIONS_V1];
    for seed in 0..6u64 {
        for rules in [Rules::sanma(), Rules::four_player()] {
            let mut rules = rules;
            rules.hands_per_game = 1;
            let mut g = Game::new(rules, seed).unwrap();
            let mut bot = RandomBot::new(seed);
            bot.call_probability = 0.5;
            while matches!(g.phase(), Phase::Turn | Phase::Claim) {
                let seat = g.seats_to_act()[0];
                let o = g.observation(seat).unwrap();
                let legal = g.legal_actions(seat);
                encode(&o, &mut enc);
                action_mask(&legal, &mut m);
                obs.extend_from_slice(&enc);
                masks.extend_from_slice(&m);
                let a = bot.act(&o, &legal);
                g.apply(seat, a).unwrap();
            }
        }
    }
    let b = (masks.len() / POLICY_ACTIONS_V1) as i64;
    assert!(b > 300);
    let x = obs_tensor(&obs, Encoding::V1, Device::Cpu).unwrap();
    let mask = Tensor::from_slice(&masks).view([b, POLICY_ACTIONS_V1 as i64]);
    // Adversarial logits too: huge values on illegal actions must still be masked.
    let (logits, values) = net.net.forward(&x);
    assert_eq!(values.size(), vec![b]);
    let illegal = mask.ones_like() - &mask;
    for logits in [logits.shallow_clone(), logits + &illegal * 1e6] {
        let ml = masked_logits(&logits, &mask);
        let best = Vec::<i64>::try_from(ml.argmax(-1, false)).unwrap();
        let probs = ml.softmax(-1, Kind::Float);
        let illegal_mass =
            Vec::<f32>::try_from((probs * &illegal).sum_dim_intlist(1, false, Kind::Float))
                .unwrap();
        for (i, &a) in best.iter().enumerate() {
            assert_eq!(
                masks[i * POLICY_ACTIONS_V1 + a as usize],
                1.0,
                "row {i} chose illegal {a}"
            );
            assert_eq!(
                illegal_mass[i], 0.0,
                "row {i} gives illegal actions probability"
            );
        }
    }
}

#[test]
fn policy_agent_plays_legal_moves_in_the_arena() {
    use arena::{self, ArenaConfig, BotSpec};
    tch::manual_seed(1);
    let net = OwnedNet::new(TINY, Encoding::V1, Device::Cpu).unwrap();
    let snap = Arc::new(ParamSnapshot::take(&net.vs, TINY, Encoding::V1, 0).unwrap());
    let factory = host_trainer::train::agent::policy_factory(snap, false);
    let cfg = ArenaConfig {
        rules: Rules::four_player(),
        seats: vec![
            BotSpec::Custom,
            BotSpec::Random,
            BotSpec::Custom,
            BotSpec::Efficiency,
        ],
        hands: 16,
        seed: 5,
        duplicate: true,
    };
    // play_hand fails on an illegal choice, so a report means every move was legal.
    let r = arena::run_with(&cfg, &*factory, &|| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(r.kind("policy").unwrap().seat_hands, 2 * r.hands);
}

/// A contextual bandit on the real model: four legal discards, the rewarded one marked
/// by a feature of its token. PPO must go from chance (1/4) to near certainty.
#[test]
fn ppo_learns_a_toy_task() {
    tch::manual_seed(11);
    let net = OwnedNet::new(TINY, Encoding::V1, Device::Cpu).unwrap();
    let mut adam = Adam::new(&net.vs, 3e-3);
    let mut rng = Rng::new(5);
    let make = |rng: &mut Rng, n: usize| {
        let mut obs = vec![0f32; n * ENCODED_LEN];
        let mut mask = vec![0f32; n * POLICY_ACTIONS_V1];
        let mut target = vec![0usize; n];
        for i in 0..n {
            let mut cands = Vec::new();
            while cands.len() < 4 {
                let t = rng.below(34) as usize;
                if !cands.contains(&t) {
                    cands.push(t);
                }
            }
            for &t in &cands {
                mask[i * POLICY_ACTIONS_V1 + t] = 1.0;
                obs[i * ENCODED_LEN + t * TOKEN_FEATURES + tf::HAND] = 0.25;
            }
            target[i] = cands[rng.below(4) as usize];
            obs[i * ENCODED_LEN + target[i] * TOKEN_FEATURES + tf::SCORE] = 1.0;
        }
        (obs, mask, target)
    };
    let accuracy = |rng: &mut Rng| {
        let (obs, mask, target) = make(rng, 400);
        let _g = tch::no_grad_guard();
        let x = obs_tensor(&obs, Encoding::V1, Device::Cpu).unwrap();
        let m = Tensor::from_slice(&mask).view([400, POLICY_ACTIONS_V1 as i64]);
        let best =
            Vec::<i64>::try_from(masked_logits(&net.net.forward(&x).0, &m).argmax(-1, false))
                .unwrap();
        best.iter()
            .zip(&target)
            .filter(|(a, t)| **a as usize == **t)
            .count() as f64
            / 400.0
    };
    let before = accuracy(&mut Rng::new(99));
    let params = PpoParams {
        epochs: 4,
        minibatch: 64,
        clip: 0.2,
        value_coef: 0.5,
        entropy_coef: 0.0,
        guidance_coef: 0.0,
        max_grad_norm: 1.0,
        target_kl: None,
    };
    let mut last = None;
    for _ in 0..25 {
        let n = 256;
        let (obs, mask, target) = make(&mut rng, n);
        let (logp, values) = {
            let _g = tch::no_grad_guard();
            let x = obs_tensor(&obs, Encoding::V1, Device::Cpu).unwrap();
            let m = Tensor::from_slice(&mask).view([n as i64, POLICY_ACTIONS_V1 as i64]);
            let (l, v) = net.net.forward(&x);
            let lp = masked_logits(&l, &m).log_softmax(-1, Kind::Float);
            (
                Vec::<f32>::try_from(lp.flatten(0, -1)).unwrap(),
                Vec::<f32>::try_from(v).unwrap(),
            )
        };
        let mut s = Samples {
            obs,
            mask,
            guide: vec![0.0; n * POLICY_ACTIONS_V1],
            ..Default::default()
        };
        for i in 0..n {
            let row = &logp[i * POLICY_ACTIONS_V1..(i + 1) * POLICY_ACTIONS_V1];
            let u = rng.next_f32();
            let mut acc = 0.0;
            let mut a = (0..POLICY_ACTIONS_V1)
                .find(|&k| s.mask[i * POLICY_ACTIONS_V1 + k] > 0.0)
                .unwrap();
            for (k, lp) in row.iter().enumerate() {
                acc += lp.exp();
                if u < acc && s.mask[i * POLICY_ACTIONS_V1 + k] > 0.0 {
                    a = k;
                    break;
                }
            }
            let r = if a == target[i] { 1.0 } else { 0.0 };
            let (adv, ret) = gae(&[r], &[values[i]], 1.0, 0.95);
            s.action.push(a as i64);
            s.old_logp.push(row[a]);
            s.adv.push(adv[0]);
            s.ret.push(ret[0]);
        }
        let stats = update(&net.net, &mut adam, &s, &params, Device::Cpu, &mut rng).unwrap();
        assert_eq!(stats.epochs, 4.0);
        last = Some(s);
    }
    let after = accuracy(&mut Rng::new(99));
    // A target KL that every epoch exceeds stops the update after its first epoch.
    let early = PpoParams {
        target_kl: Some(-1.0),
        ..params
    };
    let stats = update(
        &net.net,
        &mut adam,
        &last.unwrap(),
        &early,
        Device::Cpu,
        &mut rng,
    )
    .unwrap();
    assert_eq!(stats.epochs, 1.0);
    assert_eq!(stats.guidance_agreement, 0.0, "no sample has a target");
    // Guidance agreement: targets on the rewarded action agree with the trained greedy
    // policy; targets on another legal action do not.
    let agreement = |rng: &mut Rng, adam: &mut Adam, right: bool| {
        let n = 256;
        let (obs, mask, target) = make(rng, n);
        let mut guide = vec![0.0; n * POLICY_ACTIONS_V1];
        for i in 0..n {
            let t = if right {
                target[i]
            } else {
                (0..POLICY_ACTIONS_V1)
                    .find(|&k| mask[i * POLICY_ACTIONS_V1 + k] > 0.0 && k != target[i])
                    .unwrap()
            };
            guide[i * POLICY_ACTIONS_V1 + t] = 1.0;
        }
        let s = Samples {
            obs,
            mask,
            guide,
            action: target.iter().map(|&t| t as i64).collect(),
            old_logp: vec![0.0; n],
            adv: vec![0.0; n],
            ret: vec![0.0; n],
            hidden: Vec::new(),
        };
        let one = PpoParams {
            epochs: 1,
            minibatch: n,
            ..params
        };
        update(&net.net, adam, &s, &one, Device::Cpu, rng)
            .unwrap()
            .guidance_agreement
    };
    let right = agreement(&mut Rng::new(7), &mut adam, true);
    let wrong = agreement(&mut Rng::new(8), &mut adam, false);
    assert!(right > 0.85 && wrong < 0.15, "agreement {right} / {wrong}");
    assert!(before < 0.45, "untrained accuracy {before}");
    assert!(
        after > 0.9,
        "PPO did not learn the toy task: {before} -> {after}"
    );
    assert!(matches!(Action::from_index(0), Some(Action::Discard(_))));
}

fn tiny_run(
    dir: &std::path::Path,
    max_updates: u64,
    resume: bool,
) -> host_trainer::train::TrainOutcome {
    let mut args = vec![
        "train".to_string(),
        "--runs".into(),
        dir.display().to_string(),
        "--id".into(),
        "smoke".into(),
        "--eval-every".into(),
        "2".into(),
        "--eval-hands".into(),
        "3".into(),
        "--checkpoint-every".into(),
        "1".into(),
        "--max-updates".into(),
        max_updates.to_string(),
        "--quiet".into(),
    ];
    args.extend(common::TINY_TRAINING.map(String::from));
    if resume {
        args.push("--resume".into());
        args.push(dir.join("smoke").display().to_string());
    }
    let cfg = TrainConfig::parse_from(args);
    host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap()
}

#[test]
fn smoke_run_writes_a_loadable_checkpoint_and_resumes() {
    let dir = std::env::temp_dir().join(format!("mj-train-smoke-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = tiny_run(&dir, 2, false);
    let run = dir.join("smoke");
    assert_eq!(out.run_dir, run);
    assert_eq!(out.progress.update, 2);
    assert!(out.last_eval.is_some());
    for f in [CONFIG_FILE, CHECKPOINT_FILE, METRICS_CSV, CURVE_PNG] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join(CONFIG_FILE)).unwrap()).unwrap();
    assert_eq!(config["config"]["seed"], 1);
    assert!(config["git_revision"].is_string());
    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).unwrap();
    assert_eq!(ck.progress.update, 2);
    assert!(ck.adam.step >= 2, "one Adam step per minibatch");
    let net = OwnedNet::from_snapshot(&ck.params, Device::Cpu).unwrap();
    let x = obs_tensor(&[0.0; ENCODED_LEN], Encoding::V1, Device::Cpu).unwrap();
    assert_eq!(
        net.net.forward(&x).0.size(),
        vec![1, POLICY_ACTIONS_V1 as i64]
    );
    let rows = read_metrics(&run).unwrap();
    assert_eq!(rows.len(), 2);
    // The evaluation at update 2 has the paired comparison; with one wall (3 hands)
    // its interval is undefined (NaN, written as null).
    assert!(rows[1].eval_paired_points.is_some() && rows[0].eval_paired_points.is_none());
    assert!(rows[1].eval_paired_win_rate.is_some() && rows[1].eval_paired_points_low.is_none());

    // A truncated checkpoint is refused with a clear error.
    let bytes = std::fs::read(run.join(CHECKPOINT_FILE)).unwrap();
    let err = Checkpoint::from_bytes(&bytes[..bytes.len() / 2])
        .unwrap_err()
        .to_string();
    assert!(err.contains("truncated"), "{err}");
    let mut corrupt = bytes.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0xff;
    assert!(Checkpoint::from_bytes(&corrupt).is_err());

    // Resume: continues from update 2 to 4 with the saved optimizer state.
    let out = tiny_run(&dir, 4, true);
    assert_eq!(out.progress.update, 4);
    assert_eq!(out.progress.resumes, 1);
    let ck2 = Checkpoint::load(&run.join(CHECKPOINT_FILE)).unwrap();
    assert!(ck2.adam.step > ck.adam.step);
    assert_ne!(ck2.params, ck.params);
    let rows = read_metrics(&run).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.update).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    config_json_trains_again(&dir, &run);
    init_from_starts_a_new_run_from_the_weights(&dir, &run, &ck2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sum of squared differences between two snapshots' parameters.
fn distance(a: &ParamSnapshot, b: &ParamSnapshot) -> f64 {
    let pairs = a.tensors.iter().zip(&b.tensors);
    let values = pairs.flat_map(|(x, y)| x.data.iter().zip(&y.data));
    values.map(|(x, y)| f64::from(x - y).powi(2)).sum()
}

/// `--init-from`: a new run (fresh progress and optimizer) whose first parameters are
/// the given run's, here with whole games and the placement shaping; a model of another
/// shape and the placement shaping without whole games are refused.
fn init_from_starts_a_new_run_from_the_weights(
    dir: &std::path::Path,
    run: &std::path::Path,
    from: &Checkpoint,
) {
    let train = |id: &str, extra: &[&str]| {
        let mut args: Vec<String> = ["train", "--id", id, "--max-updates", "1", "--quiet"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(["--runs".to_string(), dir.display().to_string()]);
        args.extend(common::TINY_TRAINING.map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        host_trainer::train::train(TrainConfig::parse_from(args), &AtomicBool::new(false))
    };
    let run_arg = run.display().to_string();
    let games = [
        "--whole-games",
        "--placement-weight",
        "0.1",
        "--lr",
        "0.00001",
    ];
    let init = train(
        "init",
        &[&["--init-from", run_arg.as_str()], &games[..]].concat(),
    )
    .unwrap();
    assert_eq!((init.progress.update, init.progress.resumes), (1, 0));
    train("fresh", &games).unwrap();
    let load = |id: &str| Checkpoint::load(&dir.join(id).join(CHECKPOINT_FILE)).unwrap();
    let (init_ck, fresh_ck) = (load("init"), load("fresh"));
    // A fresh optimizer: one update's minibatches, not the source's steps on top.
    assert!(
        init_ck.adam.step < from.adam.step,
        "{} {}",
        init_ck.adam.step,
        from.adam.step
    );
    let (near, far) = (
        distance(&init_ck.params, &from.params),
        distance(&fresh_ck.params, &from.params),
    );
    assert!(near * 100.0 < far, "{near} vs {far}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("init").join(CONFIG_FILE)).unwrap())
            .unwrap();
    assert_eq!(saved["config"]["whole_games"], true);
    assert_eq!(saved["config"]["init_from"], run_arg.as_str());
    // Another shape (the shipped four-player model's): refused, naming both.
    let other = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/tenhou-4p/run");
    let err = train("wide", &["--init-from", other]).unwrap_err();
    assert!(
        format!("{err:#}").contains("differs from this run's"),
        "{err:#}"
    );
    let err = train("missing", &["--init-from", "/nonexistent/run"]).unwrap_err();
    assert!(
        format!("{err:#}").contains("--init-from /nonexistent/run"),
        "{err:#}"
    );
    // Placement needs whole games; checked before a run folder exists.
    let err = train("placement", &["--placement-weight", "0.1"]).unwrap_err();
    assert!(
        format!("{err:#}").contains("needs --whole-games"),
        "{err:#}"
    );
    assert!(!dir.join("placement").exists());
}

/// `train --config <run>/config.json` through the CLI: one more tiny update in a new
/// run folder whose config is the old one with the explicit flags on top.
fn config_json_trains_again(dir: &std::path::Path, run: &std::path::Path) {
    let read = |p: std::path::PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let old = read(run.join(CONFIG_FILE));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_host-trainer"))
        .arg("train")
        .arg("--config")
        .arg(run.join(CONFIG_FILE))
        .arg("--runs")
        .arg(dir)
        .args(["--id", "again", "--max-updates", "1", "--seed", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let mut expected = old["config"].clone();
    expected["id"] = "again".into();
    expected["max_updates"] = 1.into();
    expected["seed"] = 3.into();
    expected["resume"] = serde_json::Value::Null;
    assert_eq!(
        read(dir.join("again").join(CONFIG_FILE))["config"],
        expected
    );
    assert_eq!(expected["device"], "auto", "the CLI's spelling");
}
