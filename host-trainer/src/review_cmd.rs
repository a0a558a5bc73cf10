//! `host-trainer review LOG`: replays a game log (the review core is
//! `mahjong_web::review`, shared with the browser page) and, at each decision of one seat,
//! sets what was played beside a ranking of the legal actions, marking disagreements
//! and their estimated cost; then a summary. Three rankings:
//!
//! - efficiency (default; `inference::Advisor` in efficiency-only mode): cost in value
//!   score (the engine's per-discard score in `[0, 1]`, 1 = the best discards);
//! - `--model M.onnx`: the policy's probabilities (a model trained on a riichi preset,
//!   observation encoding v2; the shipped v1 model does not fit riichi logs), cost in
//!   value score as above;
//! - `--shipped-model`: the same with the shipped model that fits the log's rules
//!   (`tenhou-4p`, `tenhou-sanma`, or the default `sanma` model);
//! - `--search`: determinized rollout search (`search::search`, worlds dealt from the
//!   seat's view only), cost in estimated points per hand (the chosen candidate's mean
//!   minus the played one's; the played action may be outside the pruned candidates).
//!
//! Output: a text table, `--json`, or `--html OUT.html` (the browser review page's
//! renderer with the review inlined: one file that opens anywhere).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use inference::Advisor;
use mahjong_web::review::{review_log, seat_of, Ranker, Review, Row};

use crate::decider_args::{check_fits, shipped_for, Choice, DeciderArgs};
use crate::logs_cmd::Input;

/// Arguments of `host-trainer review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: Input,
    /// The seat to review (0 = the first seat of the log).
    #[arg(long, conflicts_with = "player")]
    pub seat: Option<u8>,
    /// The seat to review, by player name.
    #[arg(long)]
    pub player: Option<String>,
    /// Print the review as JSON.
    #[arg(long, conflicts_with = "html")]
    pub json: bool,
    /// Write the review as one self-contained HTML page (the browser review page's
    /// renderer, no network needed) to this file.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Rank with a model or the rollout search (default: the efficiency ranking).
    #[command(flatten)]
    pub decider: DeciderArgs,
}

/// The ranker the arguments ask for; `None` for `--shipped-model`, whose model depends
/// on each log's rules.
fn ranker(args: &Args) -> Result<Option<Ranker>> {
    Ok(match args.decider.choice()? {
        Choice::Search { rollouts, seed } => Some(Ranker::Search { rollouts, seed }),
        Choice::Model(advisor) => Some(Ranker::Advisor(advisor)),
        Choice::Shipped => None,
        Choice::Default => Some(Ranker::Advisor(Advisor::efficiency_only())),
    })
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let fixed = ranker(&args)?;
    if args.html.is_some() && args.input.files.len() != 1 {
        bail!("--html writes one page: pass one log file");
    }
    for path in &args.input.files {
        let log = args.input.read(path)?;
        let seat = seat_of(&log, args.seat, args.player.as_deref())?;
        let shipped;
        let ranker = match &fixed {
            Some(r) => r,
            None => {
                let what = format!("the rules of {}", path.display());
                shipped = Ranker::Advisor(shipped_for(&log.rules, &what)?);
                &shipped
            }
        };
        if let Ranker::Advisor(a) = ranker {
            check_fits(
                a,
                &log.rules,
                &format!("{} is a riichi log", path.display()),
            )?;
        }
        let review = review_log(&log, &path.display().to_string(), seat, ranker)?;
        if let Some(out) = &args.html {
            let page = mahjong_web::html::review_html(&review)?;
            std::fs::write(out, page).with_context(|| format!("writing {}", out.display()))?;
            eprintln!("wrote {} ({} decisions)", out.display(), review.decisions);
        } else if args.json {
            println!("{}", serde_json::to_string_pretty(&review)?);
        } else {
            print!("{}", text(&review));
        }
    }
    Ok(())
}

/// The review as text: one line per decision (`✗` on disagreements), then the summary
/// with the largest losses.
fn text(r: &Review) -> String {
    let mut s = format!(
        "{}: seat {}{} reviewed against the {} ranking\n",
        r.file,
        r.seat,
        r.player
            .as_ref()
            .map_or(String::new(), |p| format!(" ({p})")),
        r.ranking
    );
    for row in &r.rows {
        let mark = if row.agrees { ' ' } else { '✗' };
        let cost = match row.cost {
            Some(c) if !row.agrees => format!("  cost {c:.3}"),
            _ => String::new(),
        };
        let rank = row.rank.map_or("-".to_string(), |r| r.to_string());
        s.push_str(&format!(
            "{mark} {:<7} step {:>3}  played {:<16} best {:<16} rank {rank}/{}{cost}\n",
            row.kyoku, row.step, row.played, row.best, row.legal
        ));
    }
    let rate = if r.decisions == 0 {
        0.0
    } else {
        100.0 * r.agreements as f64 / r.decisions as f64
    };
    s.push_str(&format!(
        "{} decisions reviewed, {} agree with the {} ranking ({rate:.1}%)\n",
        r.decisions, r.agreements, r.ranking
    ));
    let mut losses: Vec<&Row> = r
        .rows
        .iter()
        .filter(|x| x.cost.is_some_and(|c| c > 0.0))
        .collect();
    losses.sort_by(|a, b| {
        b.cost
            .partial_cmp(&a.cost)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for row in losses.iter().take(5) {
        s.push_str(&format!(
            "  largest loss: {} step {}: {} instead of {} ({} -{:.3})\n",
            row.kyoku,
            row.step,
            row.played,
            row.best,
            if r.ranking == "search" {
                "points/hand"
            } else {
                "value score"
            },
            row.cost.unwrap_or(0.0)
        ));
    }
    s
}
