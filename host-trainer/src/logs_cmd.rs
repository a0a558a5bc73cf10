//! `host-trainer replay-log` and `host-trainer convert-log`: real game logs (Tenhou
//! JSON, mjai JSON lines) replayed exactly through the engine, or converted between
//! the two formats.

use std::path::PathBuf;

use anyhow::{Context, Result};
use host_trainer::cli::RulesArg;
use host_trainer::logs::{self, mjai, replay, tenhou, Format};

/// A log format on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// Tenhou JSON (`{"log": [...], "rule": ...}`).
    Tenhou,
    /// mjai JSON lines.
    Mjai,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Tenhou => Format::Tenhou,
            FormatArg::Mjai => Format::Mjai,
        }
    }
}

/// The north event of three-player mjai output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DialectArg {
    /// `nukidora` (Mortal's three-player fork, RiichiEnv).
    #[default]
    Nukidora,
    /// `kita`.
    Kita,
}

/// What every log command reads: the files, their format and the rules.
#[derive(clap::Args, Debug)]
pub struct Input {
    /// The log files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The format (default: Tenhou when the file is one JSON object with a `log` key,
    /// mjai otherwise).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// The rules (default: from Tenhou's `rule.disp`; for mjai, the player count of the
    /// hands and hanchan when a South round appears). Riichi presets only.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
}

impl Input {
    /// Reads one file.
    pub fn read(&self, path: &std::path::Path) -> Result<logs::GameLog> {
        let rules = match self.rules {
            Some(r) if !r.rules().is_riichi() => {
                anyhow::bail!("--rules {r}: logs are played under the riichi presets (tenhou-*)")
            }
            r => r.map(RulesArg::rules),
        };
        logs::read_file(path, self.format.map(Format::from), rules)
    }
}

/// Arguments of `host-trainer replay-log`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub input: Input,
}

/// Arguments of `host-trainer convert-log`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: Input,
    /// The output format (written to stdout).
    #[arg(long, value_enum)]
    pub to: FormatArg,
    /// The north event of three-player mjai output.
    #[arg(long, value_enum, default_value_t = DialectArg::Nukidora)]
    pub dialect: DialectArg,
}

/// Replays every file; the first mismatch of a file is an error (exit 1).
pub fn run_replay(args: ReplayArgs) -> Result<()> {
    for path in &args.input.files {
        let log = args.input.read(path)?;
        let sum = replay::replay_log(&log)
            .with_context(|| format!("{}: the replay departs from the log", path.display()))?;
        println!(
            "{}: ok, {} kyoku, {} decisions, {} wins replayed exactly ({} players, {})",
            path.display(),
            sum.kyokus,
            sum.decisions,
            sum.wins,
            log.rules.players,
            if logs::is_hanchan(&log.rules) {
                "hanchan"
            } else {
                "east"
            },
        );
    }
    Ok(())
}

/// Converts every file to stdout.
pub fn run_convert(args: ConvertArgs) -> Result<()> {
    let dialect = match args.dialect {
        DialectArg::Nukidora => mjai::Dialect::Nukidora,
        DialectArg::Kita => mjai::Dialect::Kita,
    };
    for path in &args.input.files {
        let log = args.input.read(path)?;
        match args.to {
            FormatArg::Tenhou => println!("{}", tenhou::write(&log)),
            FormatArg::Mjai => print!("{}", mjai::write_with(&log, dialect)),
        }
    }
    Ok(())
}
