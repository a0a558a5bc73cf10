//! The per-update schedules of the optimisation: the learning rate and the guidance
//! coefficient.

use super::config::{Guidance, LrSchedule, TrainConfig};

/// The learning rate of update `update` (from 0) under `--lr-schedule`.
pub(super) fn learning_rate(cfg: &TrainConfig, update: u64) -> f64 {
    match cfg.lr_schedule {
        LrSchedule::Linear if cfg.max_updates > 0 => {
            cfg.lr * (1.0 - update as f64 / cfg.max_updates as f64).max(0.0)
        }
        _ => cfg.lr,
    }
}

/// The guidance coefficient of update `update` (from 0): annealed linearly from
/// `--guidance-coef` to `--guidance-floor` over `--guidance-updates`, 0 with
/// `--guidance off`.
pub(super) fn guidance_coef(cfg: &TrainConfig, update: u64) -> f64 {
    if cfg.guidance == Guidance::Off {
        return 0.0;
    }
    let floor = cfg.guidance_floor.clamp(0.0, cfg.guidance_coef.max(0.0));
    if cfg.guidance_updates == 0 {
        return floor;
    }
    let annealed = cfg.guidance_coef * (1.0 - update as f64 / cfg.guidance_updates as f64);
    annealed.max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn learning_rate_schedules() {
        let lin = TrainConfig::parse_from([
            "train",
            "--lr",
            "0.01",
            "--lr-schedule",
            "linear",
            "--max-updates",
            "4",
        ]);
        let lrs: Vec<f64> = (0..5).map(|u| learning_rate(&lin, u)).collect();
        assert_eq!(lrs, vec![0.01, 0.0075, 0.005, 0.0025, 0.0]);
        let unbounded =
            TrainConfig::parse_from(["train", "--lr", "0.01", "--lr-schedule", "linear"]);
        assert_eq!(learning_rate(&unbounded, 1000), 0.01, "no budget: constant");
        assert_eq!(learning_rate(&TrainConfig::default(), 7), 3e-4);
    }

    #[test]
    fn guidance_anneals_to_its_floor_and_stays() {
        let cfg = TrainConfig::parse_from([
            "train",
            "--guidance-coef",
            "1.0",
            "--guidance-updates",
            "10",
            "--guidance-floor",
            "0.2",
        ]);
        assert_eq!(guidance_coef(&cfg, 0), 1.0);
        assert!((guidance_coef(&cfg, 5) - 0.5).abs() < 1e-12);
        assert_eq!(guidance_coef(&cfg, 9), 0.2);
        assert_eq!(guidance_coef(&cfg, 1000), 0.2);
        let no_floor = TrainConfig::parse_from(["train", "--guidance-updates", "10"]);
        assert_eq!(guidance_coef(&no_floor, 10), 0.0);
        let off = TrainConfig::parse_from(["train", "--guidance", "off", "--guidance-floor", "1"]);
        assert_eq!(guidance_coef(&off, 0), 0.0);
        let zero = TrainConfig::parse_from([
            "train",
            "--guidance-updates",
            "0",
            "--guidance-floor",
            "0.3",
        ]);
        assert_eq!(guidance_coef(&zero, 0), 0.3);
    }
}
