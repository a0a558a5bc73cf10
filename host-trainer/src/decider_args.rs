//! The decider flags `review` and `mjai` share: a model, or the rollout search with its
//! rollouts and seed (flattened into each command's arguments, so both spell and check
//! them alike).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use inference::Advisor;

/// `--model`, `--shipped-model`, `--search`, `--rollouts`, `--seed`.
#[derive(clap::Args, Debug, Clone)]
pub struct DeciderArgs {
    /// Use this ONNX model (its sidecar beside it; a model of encoding v2, trained on a
    /// riichi preset): its most probable legal action, and its probabilities in a review.
    #[arg(long, conflicts_with_all = ["search", "shipped_model"])]
    pub model: Option<PathBuf>,
    /// Use the shipped model that fits the rules (the log's in a review, each game's in
    /// mjai): `tenhou-4p`, `tenhou-sanma` or the default `sanma` model.
    #[arg(long, conflicts_with = "search")]
    pub shipped_model: bool,
    /// Use the rollout search (slower: a search per decision).
    #[arg(long)]
    pub search: bool,
    /// `--search`: rollouts per candidate.
    #[arg(long, default_value_t = 64)]
    pub rollouts: u32,
    /// `--search`: seed of the worlds (each decision's seed is mixed from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What the flags chose.
pub enum Choice {
    /// `--search`: rollouts per candidate (at least 1) and the seed.
    Search { rollouts: u32, seed: u64 },
    /// `--model`: the loaded model.
    Model(Advisor),
    /// `--shipped-model`: the shipped model that fits the rules, chosen by the caller.
    Shipped,
    /// Neither flag.
    Default,
}

impl DeciderArgs {
    /// The decider the flags ask for, the model loaded; a search without rollouts or a
    /// model that cannot be read is an error.
    pub fn choice(&self) -> Result<Choice> {
        if self.search {
            if self.rollouts == 0 {
                bail!("--rollouts must be at least 1");
            }
            return Ok(Choice::Search {
                rollouts: self.rollouts,
                seed: self.seed,
            });
        }
        if self.shipped_model {
            return Ok(Choice::Shipped);
        }
        match &self.model {
            Some(path) => Advisor::load(path)
                .map(Choice::Model)
                .with_context(|| format!("cannot load the model {}", path.display())),
            None => Ok(Choice::Default),
        }
    }
}

/// The shipped model that fits `rules` (`what` names where the rules came from), or an
/// error naming the shipped ones.
pub fn shipped_for(rules: &engine::Rules, what: &str) -> Result<Advisor> {
    match inference::shipped::fitting(rules).context("loading the shipped models")? {
        Some(a) => Ok(a),
        None => bail!(
            "--shipped-model: {}",
            inference::shipped::none_fits(&format!(
                "{what} ({} players, {})",
                rules.players,
                rules.preset_name().unwrap_or("custom rules")
            ))
        ),
    }
}

/// The error for a model whose encoding does not fit riichi rules, or `Ok` when it fits
/// (`what` names the riichi game: "mjai games are riichi games", "game.json is a riichi
/// log").
pub fn check_fits(advisor: &Advisor, rules: &engine::Rules, what: &str) -> Result<()> {
    if let Some(e) = advisor.encoding().filter(|e| !e.fits(rules)) {
        bail!(
            "--model: the model reads observation encoding version {}, which has no riichi \
             state or actions, and {what} (a model trained on a riichi preset reads version 2)",
            e.version()
        );
    }
    Ok(())
}
