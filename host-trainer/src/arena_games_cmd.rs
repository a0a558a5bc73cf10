//! `host-trainer arena --games N`: whole games, reported by placement.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use arena::games::{self, GamesConfig, PlayedGame, UmaTable};
use arena::games_report::GamesReport;
use arena::{BotSpec, Seating};

use crate::arena_cmd::{fmt_estimate, model_factory, seat_names, Args, SearchTally};

/// Plays the line-up (and the `--paired-with` one on the same game seeds), prints the
/// placement tables and the paired differences, writes the JSON file when asked.
pub fn run(args: &Args) -> Result<()> {
    let cfg = GamesConfig {
        rules: args.rules.rules(),
        seats: args.seats.iter().map(|&s| s.into()).collect(),
        games: args.games.unwrap_or(0),
        seed: args.seed,
        duplicate: !args.no_duplicate,
    };
    let mut lineups = vec![cfg.clone()];
    if let Some(seats) = &args.paired_with {
        if seats.len() != cfg.seats.len() {
            bail!("--paired-with must name as many seats as --seats");
        }
        lineups.push(GamesConfig {
            seats: seats.iter().map(|&s| s.into()).collect(),
            ..cfg.clone()
        });
    }
    let all: Vec<BotSpec> = lineups.iter().flat_map(|c| c.seats.clone()).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("building the thread pool")?;
    let custom = match all.contains(&BotSpec::Custom) {
        true => Some(model_factory(args)?),
        false => None,
    };
    let searcher = match all.contains(&BotSpec::Search) {
        true => Some(arena::search_agent::search_factory(Arc::new(
            args.search.config(&cfg.rules)?,
        ))),
        false => None,
    };
    let seating = Seating {
        custom: custom.as_deref(),
        search: searcher.as_deref(),
    };
    let played = play_lineups(args, &pool, &lineups, seating)?;
    let searches = SearchTally::read();
    searches.print(pool.current_num_threads());
    for (i, (lineup, (_, report))) in lineups.iter().zip(&played).enumerate() {
        if lineups.len() > 1 {
            println!("line-up {}: {}", i + 1, seat_names(&lineup.seats));
        }
        print!("{}", report.table());
    }
    let comparisons = match &played[..] {
        [(ga, _), (gb, _)] => print_paired(&lineups[0], &lineups[1], ga, gb)?,
        _ => Vec::new(),
    };
    if let Some(path) = &args.json {
        let reports: Vec<&GamesReport> = played.iter().map(|(_, r)| r).collect();
        let command: Vec<String> = std::env::args().collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({
            "command": command.join(" "),
            "git_revision": host_trainer::git_revision(),
            "rules": args.rules.as_str(),
            "seed": args.seed,
            "games": args.games,
            "threads": pool.current_num_threads(),
            "searches": searches.decisions,
            "search_ms_per_decision": searches.ms_per_decision,
            "search": args.search.summary(),
            "lineups": reports,
            "paired": comparisons,
        }))?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Plays every line-up on the pool, a progress bar over all game seeds unless `--quiet`.
fn play_lineups(
    args: &Args,
    pool: &rayon::ThreadPool,
    lineups: &[GamesConfig],
    seating: Seating<'_>,
) -> Result<Vec<(Vec<Vec<PlayedGame>>, GamesReport)>> {
    let total: u64 = lineups.iter().map(|c| c.games).sum();
    let bar = match args.quiet {
        true => ProgressBar::hidden(),
        false => ProgressBar::new(total),
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} game seeds  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stop = AtomicBool::new(false);
    let mut played = Vec::new();
    for c in lineups {
        let start = std::time::Instant::now();
        let seeds = pool.install(|| games::play_games(c, seating, &|| bar.inc(1), &stop))?;
        let report = GamesReport::from_games(c, &seeds, start.elapsed().as_secs_f64());
        played.push((seeds, report));
    }
    bar.finish_and_clear();
    Ok(played)
}

/// Prints, per entry whose bot differs between the line-ups, the paired differences in
/// placement and returns them for the JSON file.
fn print_paired(
    a: &GamesConfig,
    b: &GamesConfig,
    ga: &[Vec<PlayedGame>],
    gb: &[Vec<PlayedGame>],
) -> Result<Vec<serde_json::Value>> {
    let uma = UmaTable::for_rules(&a.rules);
    let mut comparisons = Vec::new();
    for (entry, (x, y)) in a.seats.iter().zip(&b.seats).enumerate() {
        if x == y {
            continue;
        }
        let c = games::compare(ga, entry, gb, entry, &uma)?;
        println!(
            "paired, entry {entry} ({} minus {}), {} game seeds, {} seat-games:",
            x.name(),
            y.name(),
            c.games,
            c.seat_games
        );
        let lines = [
            ("average rank", fmt_estimate(&c.average_rank, 1.0, "")),
            ("1st rate", fmt_estimate(&c.first_rate, 100.0, "points")),
            ("last rate", fmt_estimate(&c.last_rate, 100.0, "points")),
            ("final points", fmt_estimate(&c.final_points, 1.0, "")),
            ("rank points", fmt_estimate(&c.rank_points, 1.0, "")),
        ];
        for (name, value) in lines {
            println!("  {name:<14} {value}");
        }
        comparisons.push(serde_json::json!({
            "entry": entry, "a": x.name(), "b": y.name(), "comparison": c,
        }));
    }
    Ok(comparisons)
}
