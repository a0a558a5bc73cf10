//! Exact replay of a [`GameLog`] through the engine: each hand is dealt from the log's
//! tiles (the unseen rest of the wall filled by [`Game::from_riichi_setup`]), every
//! recorded decision must be legal, every draw must be the tile the log shows, and the
//! result (winners, han, fu, points, score deltas) must equal the log's. The first
//! difference is returned as a [`Mismatch`] naming the hand and the step.

use std::fmt;

use engine::game::{Action, FiveCopy, Game, Phase, RiichiSetup, Table};
use engine::Rules;

use super::{CallKind, GameLog, Kyoku, LogTile, Outcome, Step};

/// Where and how a replay departed from its log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mismatch {
    /// The hand, from 0, in log order.
    pub kyoku: usize,
    /// The hand's label (`E1-0`: East 1, honba 0).
    pub label: String,
    /// The step index within the hand (`None`: at the deal or the result).
    pub step: Option<usize>,
    /// What went wrong, with the expected and the actual values.
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kyoku {} ({})", self.kyoku, self.label)?;
        if let Some(s) = self.step {
            write!(f, ", step {s}")?;
        }
        write!(f, ": {}", self.what)
    }
}

impl std::error::Error for Mismatch {}

/// The `E1-0` label of a hand.
pub fn label(k: &Kyoku) -> String {
    let wind = ["E", "S", "W", "N"].get(k.round as usize).unwrap_or(&"?");
    format!("{wind}{}-{}", k.dealer + 1, k.honba)
}

/// What a replay of a whole log checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ReplaySummary {
    /// Hands replayed.
    pub kyokus: usize,
    /// Decisions applied (passes not counted).
    pub decisions: usize,
    /// Wins compared.
    pub wins: usize,
}

/// Replays every hand of `log`; stops at the first mismatch.
pub fn replay_log(log: &GameLog) -> Result<ReplaySummary, Mismatch> {
    let mut sum = ReplaySummary::default();
    for (i, k) in log.kyokus.iter().enumerate() {
        let game = replay_kyoku(&log.rules, i, k, |_, _, _, _| {})?;
        sum.kyokus += 1;
        sum.decisions += k
            .steps
            .iter()
            .filter(|s| !matches!(s, Step::Draw { .. }))
            .count();
        sum.wins += game.riichi_result().map_or(0, |r| r.wins.len());
    }
    Ok(sum)
}

/// The engine action of a recorded decision (`None` for a draw).
pub fn action_of(step: &Step) -> Option<Action> {
    Some(match step {
        Step::Draw { .. } => return None,
        Step::Discard { tile, riichi, .. } => {
            if *riichi {
                Action::Riichi(tile.tile)
            } else {
                Action::Discard(tile.tile)
            }
        }
        Step::Call {
            kind,
            tile,
            consumed,
            ..
        } => match kind {
            CallKind::Pon => Action::Pon,
            CallKind::OpenKan => Action::OpenKan,
            CallKind::Chi => {
                let low = consumed.iter().map(|t| t.tile).fold(tile.tile, Ord::min);
                Action::Chi(low)
            }
        },
        Step::ClosedKan { tiles, .. } => Action::ClosedKan(tiles.first()?.tile),
        Step::AddedKan { tile, .. } => Action::AddedKan(tile.tile),
        Step::Kita { .. } => Action::Kita,
        Step::Tsumo { .. } => Action::Tsumo,
        Step::Ron { .. } => Action::Ron,
        Step::NineTerminals { .. } => Action::NineTerminals,
    })
}

/// The copy of a five a recorded decision gives up from the hand: the red one when the
/// tiles it gives up (the discard, a call's `consumed`, a kan's tiles) hold it. The
/// engine's default would keep a red five while a plain one serves; the log's player
/// may not have ([`Game::apply_with_copy`]).
pub fn copy_of(step: &Step) -> FiveCopy {
    let red = match step {
        Step::Discard { tile, .. } | Step::AddedKan { tile, .. } => tile.red,
        Step::Call { consumed, .. } => consumed.iter().any(|t| t.red),
        Step::ClosedKan { tiles, .. } => tiles.iter().any(|t| t.red),
        _ => false,
    };
    if red {
        FiveCopy::Red
    } else {
        FiveCopy::Plain
    }
}

fn mpsz(tiles: &[LogTile]) -> String {
    tiles.iter().map(|t| t.mpsz()).collect()
}

/// `rules` with the starting points of the log's table: the hand's scores and the
/// sticks on the table add up to the players' starting points (the engine checks it),
/// and logs of tournaments and of tenhou.net/6's editor start at 30 000 where the
/// preset starts at 25 000 (`mjai-reviewer-ryukyoku.json`: 天鳳名人戦, 4 × 30 000).
/// Scoring within a hand does not depend on the starting points; the rules are kept
/// when the total is not a whole multiple of the player count.
pub fn table_rules(rules: &Rules, k: &Kyoku) -> Rules {
    let n = i32::from(rules.players);
    let cost = rules.riichi.map_or(0, |r| r.riichi_cost);
    let total = k
        .scores
        .iter()
        .take(rules.players as usize)
        .fold(cost.saturating_mul(i32::from(k.sticks)), |a, &s| {
            a.saturating_add(s)
        });
    let mut out = *rules;
    if n > 0 && total > 0 && total % n == 0 {
        out.starting_points = total / n;
    }
    out
}

/// The engine game at the deal of `k`.
pub fn deal(rules: &Rules, k: &Kyoku) -> Result<Game, String> {
    let mut live = Vec::new();
    let mut rinshan = Vec::new();
    let mut replacement = false;
    for s in &k.steps {
        match s {
            Step::Draw { tile, .. } if replacement => rinshan.push(*tile),
            Step::Draw { tile, .. } => live.push(*tile),
            _ => {}
        }
        replacement = match s {
            Step::Draw { .. } => false,
            Step::Ron { .. } => replacement,
            other => other.takes_replacement(),
        };
    }
    let n = rules.players as usize;
    let hands: Vec<String> = (0..n)
        .map(|s| k.hands.get(s).map_or_else(String::new, |h| mpsz(h)))
        .collect();
    let hand_refs: Vec<&str> = hands.iter().map(String::as_str).collect();
    let (live, rinshan, dora, ura) = (mpsz(&live), mpsz(&rinshan), mpsz(&k.dora), mpsz(&k.ura));
    let setup = RiichiSetup {
        hands: &hand_refs,
        live: &live,
        rinshan: &rinshan,
        dora: &dora,
        ura: &ura,
        dealer: k.dealer,
        table: Table {
            round: k.round,
            honba: k.honba,
            sticks: k.sticks,
        },
        scores: Some(k.scores),
    };
    Game::from_riichi_setup(table_rules(rules, k), &setup).map_err(|e| {
        format!(
            "the hand cannot be dealt ({e}): hands {hands:?}, draws {live}, replacement draws \
             {rinshan}, dora {dora}, ura {ura}, scores {:?}",
            k.scores
        )
    })
}

fn is_claim(step: &Step) -> bool {
    matches!(step, Step::Call { .. } | Step::Ron { .. })
}

/// Answers the open claim window with passes until `step` can be applied (a claim by
/// one of the seats asked) or the window closes.
fn pass_until(
    game: &mut Game,
    step: Option<&Step>,
    on_pass: &mut dyn FnMut(&Game, u8),
) -> Result<(), String> {
    while game.phase() == Phase::Claim {
        let seats = game.seats_to_act();
        let claimant = step.filter(|s| is_claim(s)).map(Step::seat);
        if claimant.is_some_and(|c| seats.contains(&c)) {
            return Ok(());
        }
        let Some(&seat) = seats.first() else {
            return Err("the claim window names no seat".into());
        };
        on_pass(game, seat);
        game.apply(seat, Action::Pass)
            .map_err(|e| format!("seat {seat} cannot pass: {e}"))?;
    }
    Ok(())
}

/// Replays one hand and checks its result; `on_decision(game, step index, seat,
/// action)` is called before each decision is applied, the passes the log implies
/// included (with the index of the step they precede; the review reads the position
/// there).
pub fn replay_kyoku(
    rules: &Rules,
    index: usize,
    k: &Kyoku,
    mut on_decision: impl FnMut(&Game, usize, u8, Action),
) -> Result<Game, Mismatch> {
    let mismatch = |step: Option<usize>, what: String| Mismatch {
        kyoku: index,
        label: label(k),
        step,
        what,
    };
    let mut game = deal(rules, k).map_err(|w| mismatch(None, w))?;
    for (i, step) in k.steps.iter().enumerate() {
        pass_until(&mut game, Some(step), &mut |g, s| {
            on_decision(g, i, s, Action::Pass)
        })
        .map_err(|w| mismatch(Some(i), w))?;
        let seat = step.seat();
        let Some(action) = action_of(step) else {
            let Step::Draw { tile, .. } = step else {
                continue;
            };
            let ok = game.phase() == Phase::Turn
                && game.turn() == seat
                && game.drawn() == Some(tile.tile);
            if !ok {
                let got = match (game.phase(), game.drawn()) {
                    (Phase::Turn, Some(t)) => format!("seat {} on turn with {t}", game.turn()),
                    (p, _) => format!("phase {p:?}"),
                };
                return Err(mismatch(
                    Some(i),
                    format!("expected seat {seat} to draw {}, got {got}", tile.mpsz()),
                ));
            }
            continue;
        };
        on_decision(&game, i, seat, action);
        let copy = copy_of(step);
        game.apply_with_copy(seat, action, copy).map_err(|e| {
            let what = match e {
                engine::game::RuleError::NoSuchCopy => format!(
                    "seat {seat}: {action} giving up the {} five is impossible here ({e})",
                    if copy == FiveCopy::Red {
                        "red"
                    } else {
                        "plain"
                    }
                ),
                _ => format!(
                    "seat {seat}: {action} is illegal here ({e}; phase {:?})",
                    game.phase()
                ),
            };
            mismatch(Some(i), what)
        })?;
    }
    let end = k.steps.len();
    pass_until(&mut game, None, &mut |g, s| {
        on_decision(g, end, s, Action::Pass)
    })
    .map_err(|w| mismatch(None, w))?;
    if !matches!(game.phase(), Phase::HandOver | Phase::GameOver) {
        return Err(mismatch(
            None,
            format!(
                "the log ends but the hand goes on (phase {:?}, seat {} to act)",
                game.phase(),
                game.turn()
            ),
        ));
    }
    if let Some(o) = &k.outcome {
        compare_outcome(&game, o).map_err(|w| mismatch(None, w))?;
    }
    Ok(game)
}

/// The engine's outcome of a finished hand in the log model.
pub fn engine_outcome(game: &Game) -> Option<Outcome> {
    let r = game.riichi_result()?;
    let wins = r
        .wins
        .iter()
        .map(|w| super::LogWin {
            seat: w.seat,
            from: w.from,
            han: (w.score.yakuman == 0).then_some(w.score.han),
            fu: (w.score.yakuman == 0).then_some(w.score.fu),
            points: Some(w.score.payment.total as i32),
            // One win: the settlement is its deltas (pao included, see `win_deltas`).
            deltas: Some(if r.wins.len() == 1 {
                r.deltas
            } else {
                win_deltas(game, w)
            }),
        })
        .collect();
    let draw = r.draw.map(|d| format!("{d:?}"));
    Some(Outcome {
        wins,
        draw,
        deltas: Some(r.deltas),
    })
}

/// One win's score changes from its payment (of a double ron: the engine's
/// settlement sums them; a pao liability, `RiichiWin::pao`, is read from the
/// settlement of a single win only, which is where Tenhou's logs show it:
/// `["和了", deltas, [winner, from, pao, ...]]`).
fn win_deltas(game: &Game, w: &engine::game::RiichiWin) -> [i32; 4] {
    let p = &w.score.payment;
    let mut d = [0i32; 4];
    let n = game.rules().players;
    match w.from {
        Some(f) => {
            if let Some(x) = d.get_mut(f as usize) {
                *x -= p.from_discarder as i32;
            }
        }
        None => {
            for s in (0..n).filter(|&s| s != w.seat) {
                let pays = if s == game.dealer() && w.seat != game.dealer() {
                    p.from_dealer
                } else {
                    p.from_each_non_dealer
                };
                if let Some(x) = d.get_mut(s as usize) {
                    *x -= pays as i32;
                }
            }
        }
    }
    if let Some(x) = d.get_mut(w.seat as usize) {
        *x += p.total as i32;
    }
    d
}

fn compare_outcome(game: &Game, want: &Outcome) -> Result<(), String> {
    let got = engine_outcome(game).ok_or("the hand has no riichi result")?;
    if want.wins.len() != got.wins.len() {
        return Err(format!(
            "result: expected {} win(s), got {} ({:?})",
            want.wins.len(),
            got.wins.len(),
            got.wins
        ));
    }
    let scores = game
        .riichi_result()
        .map(|r| r.wins.clone())
        .unwrap_or_default();
    for (i, (w, g)) in want.wins.iter().zip(&got.wins).enumerate() {
        let same = w.seat == g.seat
            && w.from == g.from
            && w.points.zip(g.points).is_none_or(|(a, b)| a == b)
            && w.deltas.zip(g.deltas).is_none_or(|(a, b)| a == b)
            && w.han.zip(g.han).is_none_or(|(a, b)| a == b)
            && w.fu.zip(g.fu).is_none_or(|(a, b)| a == b);
        if !same {
            let why = scores.get(i).map_or(String::new(), |r| {
                let s = &r.score;
                let yaku: Vec<String> = s.yaku.iter().map(|y| format!("{:?}", y.yaku)).collect();
                format!(
                    " (engine: yaku {}, dora {}, aka {}, ura {}, kita {})",
                    yaku.join(" "),
                    s.dora,
                    s.aka_dora,
                    s.ura_dora,
                    s.kita
                )
            });
            return Err(format!("result: expected win {w:?}, got {g:?}{why}"));
        }
    }
    if want.wins.is_empty() != got.draw.is_some() {
        return Err(format!(
            "result: expected {:?}, got {:?}",
            want.draw, got.draw
        ));
    }
    if let (Some(w), Some(g)) = (want.deltas, got.deltas) {
        if w != g {
            return Err(format!("score deltas: expected {w:?}, got {g:?}"));
        }
    }
    Ok(())
}
