//! `host-trainer train`: self-play PPO (see `host_trainer::train`).

use anyhow::Result;
use host_trainer::train::interrupt::{install_signal_flag, resume_command};
use host_trainer::train::{self, TrainConfig};

/// Runs the subcommand.
pub fn run(cfg: TrainConfig) -> Result<()> {
    // The first SIGINT / SIGTERM stops the run cleanly; a second one exits at once.
    let interrupt = install_signal_flag()?;
    let out = train::train(cfg.clone(), &interrupt)?;
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
    if let Some(u) = out.skipped_eval {
        println!("the evaluation due at update {u} was skipped by the interrupt");
    }
    if let Some((r, e)) = out.last_eval {
        println!("last evaluation: win rate vs random {r:.3}, vs eff {e:.3}");
    }
    if let Some(u) = p.first_random_pass {
        println!("random-bot threshold first reached at update {u}");
    }
    if out.interrupted {
        let exe = std::env::args()
            .next()
            .unwrap_or_else(|| "host-trainer".into());
        println!(
            "checkpoint saved at update {}; continue with: {}",
            p.update,
            resume_command(&exe, &cfg, &out.run_dir)
        );
    }
    Ok(())
}
