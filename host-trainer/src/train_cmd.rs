//! `host-trainer train`: self-play PPO (see `host_trainer::train`).

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use host_trainer::train::{self, TrainConfig};

/// Runs the subcommand.
pub fn run(cfg: TrainConfig) -> Result<()> {
    let interrupt = AtomicBool::new(false);
    let out = train::train(cfg, &interrupt)?;
    let p = &out.progress;
    println!("run folder: {}", out.run_dir.display());
    println!("stopped: {}", out.stop_reason);
    println!(
        "updates {}  samples {}  hands {}  time {:.1} min  ({:.1} samples/s overall)",
        p.update,
        p.samples,
        p.hands,
        p.elapsed_s / 60.0,
        p.samples as f64 / p.elapsed_s.max(1e-9)
    );
    if let Some((r, e)) = out.last_eval {
        println!("last evaluation: win rate vs random {r:.3}, vs eff {e:.3}");
    }
    if let Some(u) = p.first_random_pass {
        println!("random-bot threshold first reached at update {u}");
    }
    Ok(())
}
