//! `host-trainer`: the host command-line tool. Each subcommand lives in its own module.
use anyhow::Context;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod advise_cmd;
mod arena_cmd;
mod arena_games_cmd;
mod belief_cmd;
mod decider_args;
#[cfg(feature = "train")]
mod export_cmd;
mod logs_cmd;
mod mjai_cmd;
mod report_cmd;
mod review_cmd;
mod score_cmd;
mod shanten_cmd;
#[cfg(feature = "train")]
mod train_cmd;
#[cfg(feature = "distributed")]
mod worker_cmd;
#[cfg(feature = "distributed")]
mod worker_replay;

/// Mahjong decision support: tile efficiency, bots, self-play training and advice.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Shanten (and ukeire) of hands in mpsz notation, one per line on stdin or as arguments.
    Shanten(shanten_cmd::Args),
    /// Scores a riichi win under Tenhou's rules: yaku, han, fu, limit and payments (one
    /// hand from the arguments, or JSON lines on stdin).
    Score(score_cmd::Args),
    /// Plays bots against each other (duplicate by default) and reports per-bot statistics.
    Arena(arena_cmd::Args),
    /// Scores the belief about opponents' hands (weighted vs uniform) on recorded positions.
    Belief(belief_cmd::Args),
    /// Trains the policy by self-play PPO with efficiency guidance (needs the `train` feature).
    #[cfg(feature = "train")]
    Train(Box<host_trainer::train::TrainArgs>),
    /// Plays self-play for a learner on another machine (`train --broker`) through a
    /// NATS JetStream server (needs the `distributed` feature).
    #[cfg(feature = "distributed")]
    Worker(worker_cmd::Args),
    /// Exports a training checkpoint as an ONNX model plus sidecar for `advise` (needs
    /// the `train` feature).
    #[cfg(feature = "train")]
    Export(export_cmd::Args),
    /// Ranks the legal actions of a position: policy probability, value, efficiency facts.
    Advise(advise_cmd::Args),
    /// Replays game logs (Tenhou JSON or mjai JSON lines) exactly through the engine:
    /// every action legal, every result and score delta equal, else the first mismatch.
    ReplayLog(logs_cmd::ReplayArgs),
    /// Converts game logs between Tenhou JSON and mjai JSON lines (to stdout).
    ConvertLog(logs_cmd::ConvertArgs),
    /// Reviews one seat's decisions in a game log against the efficiency ranking.
    Review(review_cmd::Args),
    /// Plays one seat as an mjai bot: events on stdin (a JSON event or array of events
    /// per line), one JSON action per line on stdout.
    Mjai(mjai_cmd::Args),
    /// Evaluates a shipped model in the duplicate arena and writes its report
    /// (`REPORT.md`, by default into the run folder) from the training run's files.
    Report(report_cmd::Args),
    /// Prints a shell completion script to stdout, e.g.
    /// `host-trainer completions bash > ~/.local/share/bash-completion/completions/host-trainer`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Prints the man page (roff) to stdout: `host-trainer man | man -l -`.
    Man,
}

/// User errors print their message chain only, whatever `RUST_BACKTRACE` says
/// (backtraces are for panics), and exit with status 1.
fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    // Parsed in two steps so that `train --config` can tell the flags given on the
    // command line (which override the file) from defaults.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Shanten(args) => shanten_cmd::run(args),
        Command::Score(args) => score_cmd::run(args),
        // `--games N` plays whole games: its own command file, the same flags.
        Command::Arena(args) if args.games.is_some() => arena_games_cmd::run(&args),
        Command::Arena(args) => arena_cmd::run(args),
        Command::Belief(args) => belief_cmd::run(args),
        #[cfg(feature = "train")]
        Command::Train(args) => {
            let sub = matches
                .subcommand_matches("train")
                .context("the train subcommand's arguments")?;
            train_cmd::run(args.resolve(sub)?)
        }
        #[cfg(feature = "train")]
        Command::Export(args) => export_cmd::run(args),
        #[cfg(feature = "distributed")]
        Command::Worker(args) => worker_cmd::run(args),
        Command::Advise(args) => advise_cmd::run(args),
        Command::Report(args) => report_cmd::run(args),
        Command::ReplayLog(args) => logs_cmd::run_replay(args),
        Command::ConvertLog(args) => logs_cmd::run_convert(args),
        Command::Review(args) => review_cmd::run(args),
        Command::Mjai(args) => mjai_cmd::run(args),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "host-trainer",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .context("writing the man page"),
    }
}
