//! What a run is set up from, resolved before it starts: the settings clap cannot
//! check, the device, the cores and the model shape.

use anyhow::{bail, Result};
use engine::tile::TileSet;
use engine::Rules;
use tch::Device;

use super::config::{DeviceChoice, Teacher, Tokens, TrainConfig};
use super::model::ModelConfig;
use super::opponents::OpponentMix;

/// Resolves the device choice.
pub fn device(choice: DeviceChoice) -> Result<Device> {
    Ok(match choice {
        DeviceChoice::Cpu => Device::Cpu,
        DeviceChoice::Auto => Device::cuda_if_available(),
        DeviceChoice::Cuda => {
            if !tch::Cuda::is_available() {
                bail!("--device cuda: no CUDA device is available to libtorch");
            }
            Device::Cuda(0)
        }
    })
}

/// The cores this process may use (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The model shape of a configuration.
pub fn model_config(cfg: &TrainConfig) -> ModelConfig {
    let tokens = match (cfg.tokens, Rules::preset(&cfg.rules)) {
        (Tokens::Rules, Some(rules)) => rules.tile_set,
        _ => TileSet::FourPlayer,
    };
    ModelConfig {
        layers: cfg.layers,
        d_model: cfg.d_model,
        heads: cfg.heads,
        ff: cfg.ff,
        tokens,
    }
}

/// Settings that clap cannot check for a programmatic config: refused before a run
/// folder is made.
pub(super) fn check_settings(cfg: &TrainConfig) -> Result<()> {
    OpponentMix::parse(&cfg.opponents)?;
    if !cfg.win_bonus.is_finite() {
        bail!("--win-bonus must be a finite number");
    }
    if !(cfg.placement_weight.is_finite() && cfg.placement_weight >= 0.0) {
        bail!("--placement-weight must be a non-negative number");
    }
    if cfg.placement_weight > 0.0 && !cfg.whole_games {
        bail!("--placement-weight needs --whole-games (a fresh deal per hand has no placement)");
    }
    if !(cfg.target_kl.is_finite() && cfg.target_kl >= 0.0) {
        bail!("--target-kl must be a non-negative number (0 = off)");
    }
    if !(cfg.guidance_floor.is_finite() && cfg.guidance_floor >= 0.0) {
        bail!("--guidance-floor must be a non-negative number");
    }
    if cfg.teacher == Teacher::Search {
        if !(cfg.search_fraction > 0.0 && cfg.search_fraction <= 1.0) {
            bail!("--search-fraction must be in (0, 1] with --teacher search");
        }
        if cfg.search_rollouts == 0 || cfg.search_rollouts > 100_000 {
            bail!("--search-rollouts must be in 1..=100000");
        }
        if !(cfg.search_temperature.is_finite() && cfg.search_temperature > 0.0) {
            bail!("--search-temperature must be a positive number");
        }
    }
    if cfg.steps_per_update == 0 || cfg.minibatch == 0 {
        bail!("--steps-per-update and --minibatch must be positive");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_configs_build_all_token_models_and_new_ones_the_rules_tiles() {
        // A config.json written before --tokens existed: the model it resumes has all
        // 34 tile tokens.
        let old: TrainConfig = serde_json::from_str(r#"{"rules": "sanma"}"#).unwrap();
        assert_eq!(old.tokens, Tokens::All);
        // Likewise before --teacher: the value scores; a new run imitates the bot.
        assert_eq!(old.teacher, super::Teacher::ValueScores);
        assert_eq!(TrainConfig::default().teacher, super::Teacher::Eff);
        assert_eq!(model_config(&old).tokens, TileSet::FourPlayer);
        let new = TrainConfig::default();
        assert_eq!(new.tokens, Tokens::Rules);
        assert_eq!(model_config(&new).tokens, TileSet::Sanma);
        let four = TrainConfig {
            rules: "four-player".into(),
            ..TrainConfig::default()
        };
        assert_eq!(model_config(&four).tokens, TileSet::FourPlayer);
    }
}
