//! Advice latency: `cargo bench -p mahjong-inference --bench advise`.
//!
//! Exports a randomly initialised model of the trainer's default shape (2 layers,
//! d_model 64, 4 heads, ff 128), loads it, and times `advise` (encode + forward pass +
//! masked softmax + efficiency facts) on decision points of seeded self-play, against
//! the efficiency-only advisor and against the same model with every forward pass run
//! by tract (`Advisor::tract_only`, the reference of the plain `f32` pass the advisor
//! uses for single positions) in the same run. Prints p50/p99, their ratios and the
//! ONNX file size. Then the same for each shipped model
//! (`models/default.onnx` on the simple sanma rules, `models/tenhou-sanma/model.onnx`
//! on Tenhou sanma, `models/tenhou-4p/model.onnx` on Tenhou four-player), on decision
//! points of its own rules.

use std::time::Instant;

use engine::bots::{play_hand, Agent, EfficiencyBot};
use engine::game::{Action, Game, LegalActions, Observation};
use engine::rules::Rules;
use inference::onnx_export::export;
use inference::{Advisor, ModelConfig, Sidecar, Weights};

struct Recorder<'a>(&'a std::cell::RefCell<Vec<(Observation, Vec<Action>)>>);

impl Agent for Recorder<'_> {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        self.0
            .borrow_mut()
            .push((obs.clone(), legal.as_slice().to_vec()));
        EfficiencyBot.act(obs, legal)
    }
}

/// Decision points of efficiency-bot self-play; `rules_of(seed)` picks each hand's rules.
fn positions(n: usize, rules_of: impl Fn(u64) -> Rules) -> Vec<(Observation, Vec<Action>)> {
    let log = std::cell::RefCell::new(Vec::new());
    let mut seed = 0;
    while log.borrow().len() < n {
        seed += 1;
        let rules = rules_of(seed);
        let Ok(mut game) = Game::new(rules, seed) else {
            continue;
        };
        let mut agents: Vec<Recorder> = (0..4).map(|_| Recorder(&log)).collect();
        let _ = play_hand(&mut game, &mut agents);
    }
    log.into_inner()
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99), v.iter().sum::<f64>() / v.len() as f64)
}

fn time(advisor: &Advisor, pos: &[(Observation, Vec<Action>)], rounds: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(pos.len() * rounds);
    for _ in 0..rounds {
        for (o, l) in pos {
            let t = Instant::now();
            let a = advisor.advise_with_legal(o, l).expect("advice");
            std::hint::black_box(a);
            out.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    out
}

fn main() {
    let cfg = ModelConfig::default();
    let dir = std::env::temp_dir().join(format!("mahjong-advise-bench-{}", std::process::id()));
    let path = dir.join("bench.onnx");
    let w = Weights::random(cfg, 1).expect("weights");
    export(
        &w,
        &Sidecar::new(cfg, "four-player", "bench", 0, "advise bench"),
        &path,
    )
    .expect("export");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let model = Advisor::load(&path).expect("load");
    assert!(
        model.uses_plain_forward(),
        "the plain pass was not taken up"
    );
    let tract = model.tract_only();
    let eff = Advisor::efficiency_only();
    let pos = positions(1000, |seed| {
        if seed % 2 == 0 {
            Rules::four_player()
        } else {
            Rules::sanma()
        }
    });
    // Warm-up, then interleave nothing: each advisor timed over the same positions.
    time(&model, &pos[..100], 1);
    time(&eff, &pos[..100], 1);
    time(&tract, &pos[..100], 1);
    let rounds = 3;
    let (m50, m99, mmean) = percentiles(time(&model, &pos, rounds));
    let (e50, e99, emean) = percentiles(time(&eff, &pos, rounds));
    let (r50, r99, rmean) = percentiles(time(&tract, &pos, rounds));
    let turn: Vec<_> = pos
        .iter()
        .filter(|(_, l)| l.iter().any(|a| matches!(a, Action::Discard(_))))
        .cloned()
        .collect();
    let (t50, t99, _) = percentiles(time(&model, &turn, rounds));
    println!(
        "advise latency over {} decision points x {rounds} rounds (µs):",
        pos.len()
    );
    println!("  model {cfg:?} ({} parameters)", cfg.parameter_count());
    println!("  model advisor       p50 {m50:8.1}  p99 {m99:8.1}  mean {mmean:8.1}");
    println!(
        "  model, discard turns p50 {t50:7.1}  p99 {t99:8.1}  ({} points)",
        turn.len()
    );
    println!("  efficiency-only     p50 {e50:8.1}  p99 {e99:8.1}  mean {emean:8.1}");
    println!("  tract for every pass p50 {r50:7.1}  p99 {r99:8.1}  mean {rmean:8.1}");
    println!(
        "  ratio model/efficiency: p50 {:.2}x  p99 {:.2}x",
        m50 / e50,
        m99 / e99
    );
    println!(
        "  ratio model/tract-only: p50 {:.2}x  p99 {:.2}x",
        m50 / r50,
        m99 / r99
    );
    println!(
        "  ONNX file size: {size} bytes ({:.1} KiB)",
        size as f64 / 1024.0
    );
    println!(
        "  goal p99 <= 1000 µs: {}",
        if m99 <= 1000.0 { "met" } else { "NOT met" }
    );
    let _ = std::fs::remove_dir_all(&dir);
    for (file, rules) in [
        ("models/default.onnx", Rules::sanma()),
        ("models/tenhou-sanma/model.onnx", Rules::tenhou_sanma()),
        ("models/tenhou-4p/model.onnx", Rules::tenhou_4p()),
    ] {
        shipped(file, rules, &eff, rounds);
    }
}

/// Times a shipped model (path relative to the repository root) on its own rules'
/// decision points, beside the efficiency-only advisor on the same points.
fn shipped(file: &str, rules: Rules, eff: &Advisor, rounds: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(file);
    let model = match Advisor::load(&path) {
        Ok(m) => m,
        Err(e) => {
            println!("shipped model {file}: not timed ({e})");
            return;
        }
    };
    let tract = model.tract_only();
    let pos = positions(1000, |_| rules);
    time(&model, &pos[..100], 1);
    time(&tract, &pos[..100], 1);
    let (m50, m99, mmean) = percentiles(time(&model, &pos, rounds));
    let (e50, e99, _) = percentiles(time(eff, &pos, rounds));
    let (r50, r99, _) = percentiles(time(&tract, &pos, rounds));
    println!(
        "shipped model {file} over {} decision points of its rules x {rounds} rounds (µs):",
        pos.len()
    );
    println!("  model advisor       p50 {m50:8.1}  p99 {m99:8.1}  mean {mmean:8.1}");
    println!("  efficiency-only     p50 {e50:8.1}  p99 {e99:8.1}");
    println!("  tract for every pass p50 {r50:7.1}  p99 {r99:8.1}");
    println!(
        "  ratio model/efficiency: p50 {:.2}x  p99 {:.2}x",
        m50 / e50,
        m99 / e99
    );
    println!(
        "  ratio model/tract-only: p50 {:.2}x  p99 {:.2}x  (plain pass used: {})",
        m50 / r50,
        m99 / r99,
        model.uses_plain_forward()
    );
    println!(
        "  goal p99 <= 1000 µs: {}",
        if m99 <= 1000.0 { "met" } else { "NOT met" }
    );
}
