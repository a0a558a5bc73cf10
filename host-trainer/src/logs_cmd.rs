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
    /// Tenhou's mjlog XML (read only; `--to` refuses it).
    Mjlog,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Tenhou => Format::Tenhou,
            FormatArg::Mjai => Format::Mjai,
            FormatArg::Mjlog => Format::Mjlog,
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

/// The class of a replay or reading error, for grouping: the innermost cause without
/// the places and values it names (`seat 1 draw entry 14: expected a drawn tile, found
/// "4242p42"` → `expected a drawn tile`).
pub fn cause_class(message: &str) -> String {
    let mut m = message.trim();
    while let Some((head, rest)) = m.split_once(": ") {
        let place = head.starts_with("kyoku ")
            || head.starts_with("log[")
            || head.starts_with("line ")
            || (head.starts_with("seat ") && head.contains(" entry "))
            // `seat 2: ron is illegal here`: the seat is a place too.
            || head
                .strip_prefix("seat ")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !place {
            break;
        }
        m = rest;
    }
    let end = [" (", ", ", ": ", " found ", " {"]
        .iter()
        .filter_map(|c| m.find(c))
        .min()
        .unwrap_or(m.len());
    let class = m.get(..end).unwrap_or(m);
    if class == "result" {
        // `result: expected win LogWin {..}`, `result: expected 2 win(s)`: keep the
        // words before the values.
        let words = m.find(" {").unwrap_or(m.len()).min(40);
        return m.get(..words).unwrap_or(m).to_string();
    }
    class.to_string()
}

/// Replays every file (a folder stands for its files); each departure from a log is
/// printed with its cause, and with more than one file a summary says how many replay
/// exactly and groups the failures by cause. Any failure is an error (exit 1).
pub fn run_replay(args: ReplayArgs) -> Result<()> {
    let files = logs::expand(&args.input.files)?;
    let mut failures: Vec<(PathBuf, String)> = Vec::new();
    for path in &files {
        let outcome = args.input.read(path).and_then(|log| {
            let sum = replay::replay_log(&log).context("the replay departs from the log")?;
            Ok((log, sum))
        });
        match outcome {
            Ok((log, sum)) => println!(
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
            ),
            // One file: its error, with the departure, is the command's (stderr, exit 1).
            Err(e) if files.len() == 1 => {
                return Err(e.context(format!("{}: the replay failed", path.display())));
            }
            Err(e) => {
                println!("{}: FAILED: {e:#}", path.display());
                let root = e
                    .chain()
                    .last()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                failures.push((path.clone(), cause_class(&root)));
            }
        }
    }
    if files.len() > 1 {
        println!(
            "{} of {} logs replay exactly",
            files.len() - failures.len(),
            files.len()
        );
        let mut groups: std::collections::BTreeMap<&str, Vec<&PathBuf>> = Default::default();
        for (p, c) in &failures {
            groups.entry(c.as_str()).or_default().push(p);
        }
        for (cause, paths) in groups {
            println!("  {} failed: {cause}", paths.len());
            for p in paths {
                println!("    {}", p.display());
            }
        }
    }
    match failures.len() {
        0 => Ok(()),
        k => anyhow::bail!("{k} of {} logs do not replay exactly", files.len()),
    }
}

/// Converts every file to stdout.
pub fn run_convert(args: ConvertArgs) -> Result<()> {
    let dialect = match args.dialect {
        DialectArg::Nukidora => mjai::Dialect::Nukidora,
        DialectArg::Kita => mjai::Dialect::Kita,
    };
    for path in &logs::expand(&args.input.files)? {
        let log = args.input.read(path)?;
        match args.to {
            FormatArg::Tenhou => println!("{}", tenhou::write(&log)),
            FormatArg::Mjai => print!("{}", mjai::write_with(&log, dialect)),
            FormatArg::Mjlog => {
                anyhow::bail!("--to mjlog: mjlog is read only (convert to tenhou or mjai)")
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::cause_class;

    #[test]
    fn causes_drop_places_and_values() {
        let c = cause_class("seat 1 draw entry 14: expected a drawn tile, found \"4242p42\"");
        assert_eq!(c, "expected a drawn tile");
        let c = cause_class(
            "kyoku 0 (S4-0): the hand cannot be dealt (impossible deal or wall): hands [..]",
        );
        assert_eq!(c, "the hand cannot be dealt");
        let c = cause_class("kyoku 6 (E4-3): result: expected win LogWin { seat: 0 }");
        assert_eq!(c, "result: expected win LogWin");
        // Real logs once grouped as "seat 0", "seat 1", … (a ron on a kita, then unknown).
        let c = cause_class(
            "kyoku 10 (S3-2), step 92: seat 0: ron is illegal here (this seat has no decision pending; phase Turn)",
        );
        assert_eq!(c, "ron is illegal here");
    }
}
