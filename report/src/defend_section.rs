//! The report's section against defending opponents (riichi rules only): the efficiency
//! bot never folds, so beating it says little about real players; the defending bot
//! (`engine::bots::DefendBot`: efficiency play plus push or fold) is the bar the model
//! must clear (issue 33).
//!
//! Two measurements, both duplicate and paired with the defending bot in the model's
//! seat on the same walls or game seeds:
//! - per hand: `model,defend,…` against `defend,defend,…` ([`arena::paired`]);
//! - per whole game (hanchan under the preset's game length), when `--games` asks for
//!   it: average rank, rank distribution and rank points ([`arena::games`], Tenhou's uma
//!   table), the model's entry paired with the defending bot's entry in the same seat.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use arena::games::{compare as compare_games, play_games, GamesComparison, GamesConfig, UmaTable};
use arena::games_report::GamesReport;
use arena::paired::PairedComparison;
use arena::stats::Estimate;
use arena::{AgentFactory, ArenaReport, BotSpec, KindReport, Seating};
use serde::Serialize;

use super::format::pct_diff;
use super::markdown::{count, paired_table, pct};
use super::{play_pair, Table, Target};

/// The model against defending bots, per hand and per game.
#[derive(Clone, Debug, Serialize)]
pub struct DefendSection {
    /// The model's seat statistics (`model,defend,…`).
    pub model: KindReport,
    /// The defending bot's in the same seats (`defend,defend,…`).
    pub defend: KindReport,
    /// Model minus defending bot, wall by wall.
    pub difference: PairedComparison,
    /// The whole `model,defend,…` arena.
    pub model_arena: ArenaReport,
    /// The whole `defend,defend,…` arena.
    pub defend_arena: ArenaReport,
    /// Whole games, when asked for.
    pub games: Option<DefendGames>,
}

/// Placement over whole games against defending bots.
#[derive(Clone, Debug, Serialize)]
pub struct DefendGames {
    /// `model,defend,…` over every rotation of every game seed.
    pub model: GamesReport,
    /// `defend,defend,…` on the same game seeds.
    pub defend: GamesReport,
    /// The model's entry minus the defending bot's entry in the same seat, seed by seed.
    pub difference: GamesComparison,
}

/// Plays the section's arenas; `games` game seeds of whole games (0: none).
pub(super) fn play(
    table: Table,
    games: u64,
    factory: &AgentFactory,
    on_wall: &(dyn Fn() + Sync),
) -> Result<DefendSection> {
    let pair = play_pair(table, BotSpec::Defend, BotSpec::Defend, factory, on_wall)?;
    let games = (games > 0)
        .then(|| play_games_pair(table, games, factory, on_wall))
        .transpose()?;
    Ok(DefendSection {
        model: pair.first,
        defend: pair.baseline,
        difference: pair.difference,
        model_arena: pair.first_arena,
        defend_arena: pair.baseline_arena,
        games,
    })
}

/// `model,defend,…` and `defend,defend,…` over `games` game seeds, paired.
fn play_games_pair(
    table: Table,
    games: u64,
    factory: &AgentFactory,
    on_game: &(dyn Fn() + Sync),
) -> Result<DefendGames> {
    let players = table.rules.players as usize;
    let stop = AtomicBool::new(false);
    let play = |first: BotSpec| -> Result<(GamesReport, Vec<Vec<arena::games::PlayedGame>>)> {
        let mut seats = vec![BotSpec::Defend; players];
        seats[0] = first;
        let cfg = GamesConfig {
            rules: table.rules,
            seats,
            games,
            seed: table.seed,
            duplicate: true,
        };
        let seating = Seating {
            custom: Some(factory),
            search: None,
        };
        let start = std::time::Instant::now();
        let played = play_games(&cfg, seating, on_game, &stop)?;
        let report = GamesReport::from_games(&cfg, &played, start.elapsed().as_secs_f64());
        Ok((report, played))
    };
    let (model, model_games) = play(BotSpec::Custom)?;
    let (defend, defend_games) = play(BotSpec::Defend)?;
    let uma = UmaTable::for_rules(&table.rules);
    let difference = compare_games(&model_games, 0, &defend_games, 0, &uma)?;
    Ok(DefendGames {
        model,
        defend,
        difference,
    })
}

/// The average rank the issue asks for against defending bots: 1.90 in three-player,
/// 2.35 in four-player (issue 33's targets).
fn rank_target(players: u8) -> f64 {
    if players == 3 {
        1.90
    } else {
        2.35
    }
}

/// Issue 33's targets against defending bots, checked.
pub(super) fn targets(d: &DefendSection) -> Vec<Target> {
    let players = d.model_arena.players;
    let mut out = Vec::new();
    let p = d.difference.points_per_hand;
    out.push(Target {
        goal: "against defending bots: points per hand above the defending bot's own in the \
               same seats, the 95 % interval of the paired difference excluding 0"
            .into(),
        measured: format!(
            "model {:+.1} vs defending bot {:+.1}: difference {:+.1} (95 % CI {:+.1} – {:+.1})",
            d.model.points_per_hand.mean, d.defend.points_per_hand.mean, p.mean, p.low, p.high
        ),
        met: p.low > 0.0,
    });
    let w = d.difference.win_rate;
    out.push(Target {
        goal: "against defending bots: win rate no more than 1 point below the defending \
               bot's own in the same seats"
            .into(),
        measured: format!(
            "difference {:+.2} points (95 % CI {:+.2} – {:+.2})",
            100.0 * w.mean,
            100.0 * w.low,
            100.0 * w.high
        ),
        met: w.mean >= -0.01,
    });
    if let Some(g) = &d.games {
        let goal = rank_target(players);
        if let Some(m) = g.model.entrants.first() {
            let r = m.average_rank;
            out.push(Target {
                goal: format!("whole games against defending bots: average rank ≤ {goal:.2}"),
                measured: format!(
                    "{:.3} (95 % CI {:.3} – {:.3}) over {} seat-games",
                    r.mean, r.low, r.high, m.seat_games
                ),
                met: r.mean <= goal,
            });
        }
    }
    out
}

fn rank(e: &Estimate) -> String {
    format!("{:.3} ({:.3} – {:.3})", e.mean, e.low, e.high)
}

fn signed(e: &Estimate, digits: usize) -> String {
    format!(
        "{:+.digits$} ({:+.digits$} – {:+.digits$})",
        e.mean, e.low, e.high
    )
}

/// The section as Markdown.
pub(super) fn render(d: &DefendSection, s: &mut String) {
    let others = d.model_arena.players.saturating_sub(1);
    let _ = writeln!(s, "### Against {} defending bots\n", count(others));
    let _ = writeln!(
        s,
        "The defending bot (`defend`: efficiency play, folding to the safest tile against a \
         riichi or a three-meld hand when the hand is not worth pushing) in every other \
         seat; its own row comes from a second arena with the defending bot in the model's \
         seat, on the same walls and opponent seeds.\n"
    );
    paired_table(
        s,
        (
            "defending bot, same seats and walls",
            "**model − defending bot** (paired by wall)",
        ),
        (&d.model, &d.defend),
        &d.difference,
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Arena: {} hands on {} walls in {:.0} s ({:.1} hands/s); the defending-bot line-up \
         took {:.0} s.\n",
        d.model_arena.hands,
        d.model_arena.walls,
        d.model_arena.elapsed_s,
        d.model_arena.hands_per_s,
        d.defend_arena.elapsed_s
    );
    if let Some(g) = &d.games {
        render_games(g, s);
    }
}

fn render_games(g: &DefendGames, s: &mut String) {
    let _ = writeln!(s, "### Whole games against defending bots\n");
    let u = &g.model.uma;
    let _ = writeln!(
        s,
        "{} game seeds, each played once per rotation of the seats ({} games, {:.1} hands \
         per game); rank points under Tenhou's uma table (return {} points, oka {:+}). Ties \
         go to the seat nearer the first dealer, as on Tenhou.\n",
        g.model.game_seeds,
        g.model.games,
        g.model.hands_per_game,
        u.return_points,
        u.oka()
    );
    let _ = writeln!(
        s,
        "| seat 1 (rotated) | seat-games | average rank (95 % CI) | first | last | final \
         points | rank points |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    for (who, report) in [
        ("**model**", &g.model),
        ("defending bot, same seats and seeds", &g.defend),
    ] {
        let Some(e) = report.entrants.first() else {
            continue;
        };
        if let (Some(first), Some(last)) = (e.rank_rates.first(), e.rank_rates.last()) {
            let _ = writeln!(
                s,
                "| {who} | {} | {} | {} | {} | {} | {} |",
                e.seat_games,
                rank(&e.average_rank),
                pct(first),
                pct(last),
                signed(&e.final_points, 0),
                signed(&e.rank_points, 2),
            );
        }
    }
    let d = &g.difference;
    let _ = writeln!(
        s,
        "| **model − defending bot** (paired by seed) | {} | {} | {} | {} | {} | {} |\n",
        d.seat_games,
        signed(&d.average_rank, 3),
        pct_diff(&d.first_rate),
        pct_diff(&d.last_rate),
        signed(&d.final_points, 0),
        signed(&d.rank_points, 2),
    );
    let _ = writeln!(
        s,
        "Games: the model's line-up in {:.0} s, the defending bots' in {:.0} s.\n",
        g.model.elapsed_s, g.defend.elapsed_s
    );
}
