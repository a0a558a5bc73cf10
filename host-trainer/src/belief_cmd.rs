//! `host-trainer belief`: how much closer the weighted belief about the opponents'
//! hands is to the truth than the uniform deal, on recorded self-play positions.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use host_trainer::cli::RulesArg;
use search::{belief_eval, shanten_prior};

/// Arguments of `host-trainer belief`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions recorded from efficiency self-play.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Proposals weighed per position.
    #[arg(long, default_value_t = 512)]
    pub proposals: usize,
    /// Rules preset.
    #[arg(long, value_enum, default_value_t = RulesArg::Sanma)]
    pub rules: RulesArg,
    /// Seed of the positions and proposals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Score only the models whose name contains one of these (comma-separated;
    /// default: every model).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Also write the scores as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.rules();
    if args.positions == 0 || args.proposals == 0 {
        bail!("--positions and --proposals must be at least 1");
    }
    let prior = shanten_prior(&rules).map_err(anyhow::Error::msg)?;
    let positions = belief_eval::record_positions(&rules, args.positions, args.seed)
        .map_err(|e| anyhow::anyhow!("recording positions: {e}"))?;
    println!(
        "{} positions ({}), {} proposals each; lower Brier/log-loss and higher log-likelihood are closer to the truth",
        positions.len(),
        args.rules,
        args.proposals
    );
    let models: Vec<_> = belief_eval::models(&prior)
        .into_iter()
        .filter(|(name, _)| {
            args.only.is_empty() || args.only.iter().any(|o| name.contains(o.as_str()))
        })
        .collect();
    if models.is_empty() {
        bail!("no model's name contains any of {:?}", args.only);
    }
    // The model names are ASCII apart from "ε" (one column): width by characters.
    let w = models
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(5);
    println!(
        "{:<w$} {:>14} {:>16} {:>13} {:>15} {:>8} {:>17} {:>17}",
        "model",
        "deal-in Brier",
        "deal-in logloss",
        "tenpai Brier",
        "tile log-lik",
        "ESS",
        "deal-in pred/act",
        "tenpai pred/act"
    );
    let mut scores = Vec::new();
    for (name, model) in models {
        let s = belief_eval::score(&name, &model, &positions, args.proposals, args.seed)
            .map_err(|e| anyhow::anyhow!("scoring {name}: {e}"))?;
        println!(
            "{:<w$} {:>14.5} {:>16.5} {:>13.5} {:>15.4} {:>8.1} {:>8.4}/{:<8.4} {:>8.4}/{:<8.4}",
            s.model,
            s.deal_in_brier,
            s.deal_in_log_loss,
            s.tenpai_brier,
            s.tile_log_likelihood,
            s.effective,
            s.deal_in_predicted,
            s.deal_in_actual,
            s.tenpai_predicted,
            s.tenpai_actual
        );
        scores.push(s);
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&scores)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
