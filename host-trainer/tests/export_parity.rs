//! Checkpoint → ONNX export: tch and tract agree on raw logits and values for
//! observations from real self-play; bad checkpoints are clear errors; the CLI
//! `export` → `advise --model` flow uses the policy.
#![cfg(feature = "train")]

mod common;

use engine::encode::Encoding;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use engine::bots::{Agent, EfficiencyBot, RandomBot};
use engine::encode::ENCODED_LEN;
use engine::game::{Game, Phase};
use engine::Rules;
use host_trainer::export::export_checkpoint;
use host_trainer::train::checkpoint::Checkpoint;
use host_trainer::train::model::{obs_tensor, ModelConfig, OwnedNet, ParamSnapshot};
use host_trainer::train::run::CHECKPOINT_FILE;
use host_trainer::train::TrainConfig;
use inference::Advisor;
use tch::Device;

/// Parity tolerance on logits and values.
const TOL: f32 = 1e-4;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("export-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A tiny PPO run (two updates) under `dir/tiny`; returns the run folder.
fn tiny_run(dir: &Path, rules: &str) -> PathBuf {
    let runs = dir.display().to_string();
    let head = ["train", "--rules", rules, "--runs", &runs, "--id", "tiny"];
    let tail = [
        "--eval-every",
        "0",
        "--eval-hands",
        "3",
        "--checkpoint-every",
        "1",
        "--max-updates",
        "2",
        "--device",
        "cpu",
        "--quiet",
    ];
    let args: Vec<String> = head
        .iter()
        .chain(&common::TINY_TRAINING)
        .chain(&tail)
        .map(|s| s.to_string())
        .collect();
    let cfg = TrainConfig::parse_from(args);
    let out = host_trainer::train::train(cfg, &AtomicBool::new(false)).unwrap();
    assert_eq!(out.progress.update, 2);
    out.run_dir
}

/// Flat encodings of every decision of seeded self-play hands (random and efficiency
/// bots, sanma and four-player), at least `min` of them.
fn self_play_observations(min: usize) -> Vec<f32> {
    observations_of(min, Encoding::V1, &[Rules::sanma(), Rules::four_player()])
}

/// [`self_play_observations`] in `encoding` on hands of `presets`.
fn observations_of(min: usize, encoding: Encoding, presets: &[Rules]) -> Vec<f32> {
    let mut obs = Vec::new();
    let len = encoding.encoded_len();
    let mut enc = vec![0f32; len];
    let mut seed = 0u64;
    while obs.len() / len < min {
        for &rules in presets {
            let mut rules = rules;
            rules.hands_per_game = 1;
            let mut g = Game::new(rules, seed).unwrap();
            let mut random = RandomBot::new(seed);
            random.call_probability = 0.5;
            let mut eff = EfficiencyBot;
            while matches!(g.phase(), Phase::Turn | Phase::Claim) {
                let seat = g.seats_to_act()[0];
                let o = g.observation(seat).unwrap();
                let legal = g.legal_actions(seat);
                encoding.encode(&o, &mut enc).unwrap();
                obs.extend_from_slice(&enc);
                let a = if (seat as u64 + seed) % 2 == 0 {
                    random.act(&o, &legal)
                } else {
                    eff.act(&o, &legal)
                };
                g.apply(seat, a).unwrap();
            }
        }
        seed += 1;
    }
    obs
}

/// Max abs differences (logits, values) between tch and the exported tract model,
/// over `obs` in batches of `batch`.
fn max_diffs(net: &OwnedNet, model: &Path, obs: &[f32], batch: usize) -> (f32, f32) {
    let advisor = Advisor::load(model).unwrap();
    let encoding = net.net.encoding;
    assert_eq!(advisor.encoding(), Some(encoding));
    let len = encoding.encoded_len();
    let (mut dl, mut dv) = (0f32, 0f32);
    for chunk in obs.chunks(batch * len) {
        let b = chunk.len() / len;
        let x = obs_tensor(chunk, encoding, Device::Cpu).unwrap();
        let (logits, values) = tch::no_grad(|| net.net.forward(&x));
        let logits = Vec::<f32>::try_from(logits.flatten(0, -1)).unwrap();
        let values = Vec::<f32>::try_from(values).unwrap();
        let (tl, tv) = advisor.evaluate(chunk).unwrap();
        assert_eq!(logits.len(), b * encoding.policy_actions());
        assert_eq!(tl.len(), logits.len());
        assert_eq!(tv.len(), b);
        for (a, t) in logits.iter().zip(&tl) {
            assert!(a.is_finite() && t.is_finite());
            dl = dl.max((a - t).abs());
        }
        for (a, t) in values.iter().zip(&tv) {
            dv = dv.max((a - t).abs());
        }
    }
    (dl, dv)
}

#[test]
fn trained_checkpoint_exports_with_tch_tract_parity() {
    let dir = scratch("parity");
    let run = tiny_run(&dir, "sanma");
    let out = dir.join("models").join("tiny.onnx");
    let report = export_checkpoint(&run, &out, None).unwrap();
    assert_eq!(report.meta.run_id, "tiny");
    assert_eq!(report.meta.parameter_version, 2);
    assert_eq!(report.meta.rules, "sanma");
    assert!(report.onnx_bytes > 0 && report.sidecar_bytes > 0);

    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).unwrap();
    let net = OwnedNet::from_snapshot(&ck.params, Device::Cpu).unwrap();
    let obs = self_play_observations(1000);
    let n = obs.len() / ENCODED_LEN;
    assert!(n >= 1000);
    let (dl, dv) = max_diffs(&net, &out, &obs, 128);
    eprintln!("tiny trained model: {n} observations, max |Δlogit| {dl:.3e}, max |Δvalue| {dv:.3e}");
    assert!(dl <= TOL, "logits differ by {dl}");
    assert!(dv <= TOL, "values differ by {dv}");

    // A file path works too, and --rules overrides the run's preset, but only with
    // rules whose tiles the model has tokens for (this run's model has the sanma set).
    let out2 = dir.join("models").join("tiny4.onnx");
    assert_eq!(ck.params.model.tokens, engine::tile::TileSet::Sanma);
    let err = export_checkpoint(&run.join(CHECKPOINT_FILE), &out2, Some("four-player"));
    assert!(format!("{:#}", err.unwrap_err()).contains("cannot play"));
    let err = export_checkpoint(&run.join(CHECKPOINT_FILE), &out2, Some("tenhou-sanma"));
    assert!(format!("{:#}", err.unwrap_err()).contains("riichi"));
    let r2 = export_checkpoint(&run.join(CHECKPOINT_FILE), &out2, Some("3p")).unwrap();
    assert_eq!(r2.meta.rules, "3p");
    assert_eq!(r2.meta.run_id, "tiny");
    assert!(export_checkpoint(&run, &out2, Some("mahjong-ish")).is_err());
}

/// A riichi preset trains an encoding-v2 model (177 logits) that exports with tch /
/// tract parity on riichi observations, plays in the arena and is refused by a v1 build
/// path that cannot carry it.
#[test]
fn riichi_run_trains_a_v2_model_that_exports_with_parity() {
    let dir = scratch("riichi");
    let run = tiny_run(&dir, "tenhou-sanma-east");
    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).unwrap();
    assert_eq!(ck.params.encoding_version, 2);
    let net = OwnedNet::from_snapshot(&ck.params, Device::Cpu).unwrap();
    assert_eq!(net.net.encoding, Encoding::V2);
    let out = dir.join("riichi.onnx");
    let report = export_checkpoint(&run, &out, None).unwrap();
    assert_eq!(report.meta.rules, "tenhou-sanma-east");
    assert_eq!(report.meta.encoding_version, 2);
    let presets = [Rules::preset("tenhou-sanma-east").unwrap()];
    let obs = observations_of(600, Encoding::V2, &presets);
    let (dl, dv) = max_diffs(&net, &out, &obs, 64);
    eprintln!("riichi model: max |Δlogit| {dl:.3e}, max |Δvalue| {dv:.3e}");
    assert!(dl <= TOL, "logits differ by {dl}");
    assert!(dv <= TOL, "values differ by {dv}");
    // The exported model advises on a riichi position (ranking every legal action).
    let advisor = Advisor::load(&out).unwrap();
    let g = Game::new(presets[0], 3).unwrap();
    let o = g.observation(g.turn()).unwrap();
    let advice = advisor
        .advise_with_legal(&o, g.legal_actions(g.turn()).as_slice())
        .unwrap();
    let total: f32 = advice.actions.iter().filter_map(|a| a.probability).sum();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    // A v1 model (the shipped one) is refused on riichi rules with a clear error.
    let shipped = Advisor::shipped().unwrap();
    let err = shipped
        .advise_with_legal(&o, g.legal_actions(g.turn()).as_slice())
        .unwrap_err()
        .to_string();
    assert!(err.contains("encoding version 1"), "{err}");
}

#[test]
fn default_size_model_exports_with_parity() {
    // Random initialisation (tch's own init, seeded) at TrainConfig::default's shape,
    // which has the sanma token set (27 tile tokens: the gather and the logit
    // expansion of the export are checked against tch here).
    let cfg = host_trainer::train::run::model_config(&TrainConfig::default());
    assert_eq!(cfg.tokens, engine::tile::TileSet::Sanma);
    tch::manual_seed(11);
    let net = OwnedNet::new(cfg, Encoding::V1, Device::Cpu).unwrap();
    let dir = scratch("default");
    let run = dir.join("default-run");
    std::fs::create_dir_all(&run).unwrap();
    let snapshot = ParamSnapshot::take(&net.vs, cfg, Encoding::V1, 7).unwrap();
    let adam = host_trainer::train::adam::Adam::new(&net.vs, 1e-3);
    let ck = Checkpoint {
        params: snapshot,
        adam: adam.state().unwrap(),
        progress: Default::default(),
        oracle: None,
    };
    ck.save(&run.join(CHECKPOINT_FILE)).unwrap();
    let out = dir.join("default.onnx");
    // A sanma-token model cannot play four-player rules.
    let err = format!(
        "{:#}",
        export_checkpoint(&run, &out, Some("four-player")).unwrap_err()
    );
    assert!(err.contains("cannot play"), "{err}");
    assert!(!out.exists());
    let report = export_checkpoint(&run, &out, Some("sanma")).unwrap();
    assert_eq!(report.meta.model.tokens, engine::tile::TileSet::Sanma);
    assert_eq!(report.meta.parameter_version, 7);
    assert_eq!(report.meta.run_id, "default-run");
    let obs = self_play_observations(300);
    let n = obs.len() / ENCODED_LEN;
    let (dl, dv) = max_diffs(&net, &out, &obs, 64);
    eprintln!("default-size model: {n} observations, max |Δlogit| {dl:.3e}, max |Δvalue| {dv:.3e}");
    assert!(dl <= TOL, "logits differ by {dl}");
    assert!(dv <= TOL, "values differ by {dv}");
}

#[test]
fn bad_checkpoints_are_clear_errors() {
    let dir = scratch("bad");
    let out = dir.join("x.onnx");
    let err = format!(
        "{:#}",
        export_checkpoint(&dir.join("nope"), &out, None).unwrap_err()
    );
    assert!(err.contains("no checkpoint"), "{err}");
    // An empty run folder.
    let err = format!("{:#}", export_checkpoint(&dir, &out, None).unwrap_err());
    assert!(err.contains("no checkpoint"), "{err}");

    tch::manual_seed(3);
    let cfg = ModelConfig {
        layers: 1,
        d_model: 8,
        heads: 2,
        ff: 16,
        tokens: engine::tile::TileSet::FourPlayer,
    };
    let net = OwnedNet::new(cfg, Encoding::V1, Device::Cpu).unwrap();
    let adam = host_trainer::train::adam::Adam::new(&net.vs, 1e-3);
    let ck = Checkpoint {
        params: ParamSnapshot::take(&net.vs, cfg, Encoding::V1, 1).unwrap(),
        adam: adam.state().unwrap(),
        progress: Default::default(),
        oracle: None,
    };
    let bytes = ck.to_bytes().unwrap();
    let file = dir.join(CHECKPOINT_FILE);
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let err = format!("{:#}", export_checkpoint(&file, &out, None).unwrap_err());
    assert!(err.contains("truncated"), "{err}");
    let mut corrupt = bytes.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0xff;
    std::fs::write(&file, &corrupt).unwrap();
    let err = format!("{:#}", export_checkpoint(&file, &out, None).unwrap_err());
    assert!(err.contains("corrupt"), "{err}");
    std::fs::write(&file, b"hello").unwrap();
    let err = format!("{:#}", export_checkpoint(&file, &out, None).unwrap_err());
    assert!(err.contains("not a checkpoint"), "{err}");
    // A snapshot with a missing tensor.
    let mut broken = ck.clone();
    broken.params.tensors.pop();
    broken.save(&file).unwrap();
    let err = format!("{:#}", export_checkpoint(&file, &out, None).unwrap_err());
    assert!(err.contains("missing tensor"), "{err}");
    assert!(!out.exists(), "nothing is written on failure");
}

#[test]
fn cli_export_then_advise_uses_the_policy() {
    let dir = scratch("cli");
    let run = tiny_run(&dir, "four-player");
    let out = dir.join("models").join("cli.onnx");
    let exe = env!("CARGO_BIN_EXE_host-trainer");
    let o = Command::new(exe)
        .args(["export", "--checkpoint"])
        .arg(&run)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("bytes") && stdout.contains("self-check"),
        "{stdout}"
    );
    assert!(out.exists() && out.with_extension("json").exists());

    let o = Command::new(exe)
        .args(["advise", "--hand", "123m456p789s1122z3z", "--model"])
        .arg(&out)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("source policy"), "{stdout}");
    assert!(stdout.contains("run tiny, parameters v2"), "{stdout}");
    assert!(stdout.contains('%'), "probabilities are shown: {stdout}");

    // A truncated checkpoint through the CLI: non-zero exit, a clear message.
    let bytes = std::fs::read(run.join(CHECKPOINT_FILE)).unwrap();
    std::fs::write(run.join(CHECKPOINT_FILE), &bytes[..bytes.len() - 10]).unwrap();
    let o = Command::new(exe)
        .args(["export", "--checkpoint"])
        .arg(&run)
        .arg("--out")
        .arg(dir.join("bad.onnx"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(stderr.contains("truncated"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn layout_1_checkpoint_loads_and_reexports_the_shipped_model() {
    // models/run/checkpoint.bin was written before the model shape had a token set
    // (layout MJPPOCK1); it must load as an all-34-token model and export to a model
    // that computes what the shipped models/default.onnx (exported from it) computes.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = root.join("models/run").join(CHECKPOINT_FILE);
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(&bytes[..8], b"MJPPOCK1");
    let ck = Checkpoint::load(&file).unwrap();
    assert_eq!(ck.params.model.tokens, engine::tile::TileSet::FourPlayer);
    let dir = scratch("layout1");
    let out = dir.join("again.onnx");
    export_checkpoint(&file, &out, Some("sanma")).unwrap();
    let again = Advisor::load(&out).unwrap();
    let shipped = Advisor::load(&root.join("models/default.onnx")).unwrap();
    let obs = self_play_observations(200);
    let (a, av) = again.evaluate(&obs).unwrap();
    let (b, bv) = shipped.evaluate(&obs).unwrap();
    assert_eq!(a.len(), b.len());
    let d = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max);
    let dv = av
        .iter()
        .zip(&bv)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max);
    assert!(d <= 1e-5 && dv <= 1e-5, "{d} {dv}");
    // Saved again it is layout 2 and reads back identical.
    let ck2 = dir.join("ck2.bin");
    ck.save(&ck2).unwrap();
    assert_eq!(&std::fs::read(&ck2).unwrap()[..8], b"MJPPOCK2");
    assert_eq!(Checkpoint::load(&ck2).unwrap(), ck);
}
