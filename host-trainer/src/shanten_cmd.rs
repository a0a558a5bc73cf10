//! `host-trainer shanten`: shanten (and ukeire) of hands in mpsz notation.
//!
//! Hands come as positional arguments or, without any, one per line on stdin (blank
//! lines skipped). Output is tab-separated, one line per hand, the `hand` column echoing
//! the input as given (trimmed):
//! - default: `hand regular chiitoi kokushi min` (`-` for a form that does not apply);
//! - `--ukeire`: `hand min ukeire_types n_types n_tiles` (13 - 3k tiles; types in mpsz
//!   notation or `-`; tile counts from the hand alone, `4 - held`).
//!
//! A bad line gets a message on stderr naming the line (or argument) number and the
//! reason; the other lines are still answered and the exit status is non-zero.

use std::io::{BufRead, Write};

use engine::efficiency::{available_from_hand, ukeire};
use engine::notation::{parse_counts, parse_with_reds, Counts};

use engine::shanten::{self, Forms, NOT_APPLICABLE};
use engine::TileSet;

/// Arguments of `host-trainer shanten`.
#[derive(clap::Args)]
pub struct Args {
    /// Hands in mpsz notation (e.g. `123m456p789s1122z`); read from stdin if none.
    pub hands: Vec<String>,
    /// Print ukeire instead of per-form shanten (hands of 13 - 3k tiles).
    #[arg(long)]
    pub ukeire: bool,
    /// Use the three-player tile set (no 2m-8m; 1m and 9m act like honours).
    #[arg(long, conflicts_with = "rules")]
    pub sanma: bool,
    /// The rules preset whose tile set the hands use; with a riichi preset red fives
    /// (`0m`, `0p`, `0s`) are read as fives, as many of each suit as the preset has.
    #[arg(long, value_enum)]
    pub rules: Option<host_trainer::cli::RulesArg>,
    /// Number of melds already called (the hand holds 13 - 3k or 14 - 3k tiles).
    #[arg(long, default_value_t = 0)]
    pub melds: u8,
}

fn form(v: i8) -> String {
    if v == NOT_APPLICABLE {
        "-".to_string()
    } else {
        v.to_string()
    }
}

/// Evaluates one hand and returns the output line (without the newline).
fn answer(hand: &str, args: &Args, tile_set: TileSet) -> Result<String, String> {
    let red_fives = args
        .rules
        .and_then(|r| r.rules().riichi)
        .map(|r| r.red_fives);
    let counts = match red_fives {
        None => parse_counts(hand, tile_set).map_err(|e| e.to_string())?,
        Some(allowed) => {
            let h = parse_with_reds(hand, tile_set).map_err(|e| e.to_string())?;
            for (suit, (&n, &max)) in h.red_fives.iter().zip(&allowed).enumerate() {
                if n > max {
                    return Err(format!(
                        "{n} red 5{} but the rules have {max}",
                        ['m', 'p', 's'][suit]
                    ));
                }
            }
            h.counts
        }
    };
    let s = shanten::checked(&counts, args.melds, tile_set).map_err(|e| e.to_string())?;
    if !args.ukeire {
        return Ok(format!(
            "{hand}\t{}\t{}\t{}\t{}",
            s.regular,
            form(s.seven_pairs),
            form(s.thirteen_orphans),
            s.min()
        ));
    }
    let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    let expected = 13 - 3 * u32::from(args.melds);
    if tiles != expected {
        return Err(format!(
            "--ukeire needs {expected} tiles with {} melds, got {tiles}",
            args.melds
        ));
    }
    let avail = available_from_hand(&counts, tile_set);
    let u = ukeire(&counts, args.melds, tile_set, Forms::ALL, &avail);
    let mut types = [0u8; 34];
    for (t, slot) in types.iter_mut().enumerate() {
        *slot = (u.types >> t & 1) as u8;
    }
    let types = Counts(&types).to_string();
    let types = if types.is_empty() {
        "-".to_string()
    } else {
        types
    };
    Ok(format!(
        "{hand}\t{}\t{types}\t{}\t{}",
        u.shanten,
        u.num_types(),
        u.tiles
    ))
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<()> {
    let tile_set = match (args.rules, args.sanma) {
        (Some(r), _) => r.rules().tile_set,
        (None, true) => TileSet::Sanma,
        (None, false) => TileSet::FourPlayer,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut errors = 0usize;
    let mut handle =
        |number: usize, what: &str, raw: &str, out: &mut dyn Write| -> anyhow::Result<()> {
            let hand = raw.trim();
            if hand.is_empty() {
                return Ok(());
            }
            match answer(hand, &args, tile_set) {
                Ok(line) => writeln!(out, "{line}")?,
                Err(reason) => {
                    out.flush()?;
                    eprintln!("{what} {number}: {hand:?}: {reason}");
                    errors += 1;
                }
            }
            Ok(())
        };
    if args.hands.is_empty() {
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            handle(i + 1, "line", &line?, &mut out)?;
        }
    } else {
        for (i, hand) in args.hands.iter().enumerate() {
            handle(i + 1, "argument", hand, &mut out)?;
        }
    }
    out.flush()?;
    if errors > 0 {
        anyhow::bail!("{errors} hand(s) could not be evaluated");
    }
    Ok(())
}
