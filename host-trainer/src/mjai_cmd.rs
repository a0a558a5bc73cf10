//! `host-trainer mjai`: the bot mode. mjai events on stdin (one JSON event or a JSON
//! array of events per line), one JSON answer per line on stdout, flushed at once
//! (`mjai_bot` keeps the seat's view and decides).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use host_trainer::cli::RulesArg;
use host_trainer::logs::mjai::Dialect;
use mjai_bot::answer::Decider;
use mjai_bot::{Bot, BotConfig};

use crate::decider_args::{check_fits, Choice, DeciderArgs};
use crate::logs_cmd::DialectArg;

/// The decider of `--advisor`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AdvisorArg {
    /// The efficiency bot (the arena's `eff`).
    #[default]
    Eff,
    /// The defending bot (the arena's `defend`: efficiency play, push or fold against
    /// riichi and open threats).
    Defend,
}

/// Arguments of `host-trainer mjai`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot's seat (default: `start_game`'s `id`).
    #[arg(long)]
    pub seat: Option<u8>,
    /// The rules (default: tenhou-4p or tenhou-sanma by the players of the first
    /// start_kyoku). Riichi presets only.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// The decider when neither --model nor --search is given.
    #[arg(long, value_enum, default_value_t = AdvisorArg::Eff, conflicts_with_all = ["model", "shipped_model", "search"])]
    pub advisor: AdvisorArg,
    /// The model or the search (the decider instead of --advisor).
    #[command(flatten)]
    pub decider: DeciderArgs,
    /// The three-player north event the bot writes.
    #[arg(long, value_enum, default_value_t = DialectArg::Nukidora)]
    pub dialect: DialectArg,
}

fn decider(args: &Args, rules: Option<engine::Rules>) -> Result<Decider> {
    Ok(match args.decider.choice()? {
        Choice::Search { rollouts, seed } => Decider::Search { rollouts, seed },
        Choice::Default => match args.advisor {
            AdvisorArg::Eff => Decider::Efficiency,
            AdvisorArg::Defend => Decider::Defend,
        },
        Choice::Shipped => Decider::Shipped(Default::default()),
        Choice::Model(advisor) => {
            // The game is played under riichi rules (every preset the bot accepts).
            let riichi = rules.unwrap_or_else(engine::Rules::tenhou_4p);
            check_fits(&advisor, &riichi, "mjai games are riichi games")?;
            Decider::Model(Box::new(advisor))
        }
    })
}

/// Runs the bot until stdin ends; the first bad line is an error naming it.
pub fn run(args: Args) -> Result<()> {
    let rules = match args.rules {
        Some(r) if !r.rules().is_riichi() => {
            bail!("--rules {r}: mjai games are played under the riichi presets (tenhou-*)")
        }
        r => r.map(RulesArg::rules),
    };
    let dialect = match args.dialect {
        DialectArg::Nukidora => Dialect::Nukidora,
        DialectArg::Kita => Dialect::Kita,
    };
    let mut bot = Bot::new(BotConfig {
        seat: args.seat,
        rules,
        dialect,
        decider: decider(&args, rules)?,
    });
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.with_context(|| format!("line {}: cannot read stdin", i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = bot
            .handle_line(&line)
            .with_context(|| format!("line {}: {line}", i + 1))?;
        writeln!(out, "{}", reply.event).context("writing the answer")?;
        out.flush().context("writing the answer")?;
    }
    Ok(())
}
