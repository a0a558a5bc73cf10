//! The legal actions of an observing seat, derived from its [`Observation`] alone.
//!
//! The engine computes legality from the full game state; a position typed by a user or
//! received as JSON has only the observation. Everything legality needs is visible to
//! the seat (its hand, its melds, the pending tile, the live-wall size, the kan count),
//! so this module recomputes it with the engine's rules: a test checks it against
//! `Game::legal_actions` at every decision of real self-play games.

use engine::game::{score_win, Action, MeldKind, Observation, Phase, DISCARD_CAP, MAX_KANS};
use engine::tile::Tile;

/// Whether a kan is possible: fewer than [`MAX_KANS`] kans and a live tile left.
fn kan_possible(obs: &Observation) -> bool {
    obs.kans < MAX_KANS && obs.live_wall > 0
}

/// The lowest tile of chi option `k` (0: tile−2, 1: tile−1, 2: tile) on `tile`.
fn chi_low(tile: Tile, k: u8) -> Option<Tile> {
    let low = (tile.index() + k as usize).checked_sub(2)?;
    let low = Tile::new(low as u8)?;
    if low.is_honor() || low.number() > 7 || low.suit() != tile.suit() {
        return None;
    }
    Some(low)
}

/// The legal actions of `obs.seat`, in action-index order; empty when the seat has
/// nothing to decide. Equal to `Game::legal_actions(seat)` for every observation the
/// game produces (where the seat has not answered the claim window yet).
pub fn legal_actions(obs: &Observation) -> Vec<Action> {
    let mut out = Vec::new();
    let players = obs.rules.players.max(1);
    if obs.seat >= players {
        return out;
    }
    let s = obs.seat as usize;
    let melds = obs.melds.get(s).map(|m| m.as_slice()).unwrap_or(&[]);
    let held = |t: Tile| obs.hand.get(t.index()).copied().unwrap_or(0);
    match obs.phase {
        Phase::Turn if obs.turn == obs.seat => {
            let discards_full = obs.discards.get(s).is_some_and(|d| d.len() >= DISCARD_CAP);
            if !discards_full {
                out.extend(Tile::all().filter(|&t| held(t) > 0).map(Action::Discard));
            }
            // A turn without a drawn tile follows a call: only a discard is allowed.
            if obs.drawn.is_some() {
                if score_win(&obs.rules, &obs.hand, melds, true).is_some() {
                    out.push(Action::Tsumo);
                }
                if kan_possible(obs) {
                    out.extend(Tile::all().filter(|&t| held(t) == 4).map(Action::ClosedKan));
                    out.extend(
                        Tile::all()
                            .filter(|&t| {
                                held(t) >= 1
                                    && melds.iter().any(|m| m.kind == MeldKind::Pon && m.tile == t)
                            })
                            .map(Action::AddedKan),
                    );
                }
            }
        }
        Phase::Claim => {
            let Some(p) = obs.pending else { return out };
            if p.from == obs.seat {
                return out;
            }
            let mut with = obs.hand;
            if let Some(c) = with.get_mut(p.tile.index()) {
                *c = c.saturating_add(1);
            }
            let mut claims = Vec::new();
            if score_win(&obs.rules, &with, melds, false).is_some() {
                claims.push(Action::Ron);
            }
            let live = obs.live_wall > 0;
            if p.is_discard() && live && melds.len() < 4 {
                let c = held(p.tile);
                if c >= 2 {
                    claims.push(Action::Pon);
                }
                if c == 3 && obs.kans < MAX_KANS {
                    claims.push(Action::OpenKan);
                }
                if obs.rules.chi && obs.seat == (p.from + 1) % players && !p.tile.is_honor() {
                    let has = |i: isize| {
                        let j = p.tile.index() as isize + i;
                        j >= 0 && obs.hand.get(j as usize).is_some_and(|&c| c > 0)
                    };
                    let num = p.tile.number();
                    let opts = [
                        num >= 3 && has(-2) && has(-1),
                        (2..=8).contains(&num) && has(-1) && has(1),
                        num <= 7 && has(1) && has(2),
                    ];
                    for (k, ok) in opts.into_iter().enumerate() {
                        if let (true, Some(low)) = (ok, chi_low(p.tile, k as u8)) {
                            claims.push(Action::Chi(low));
                        }
                    }
                }
            }
            if !claims.is_empty() {
                out.push(Action::Pass);
                out.extend(claims);
            }
        }
        _ => {}
    }
    out.sort_by_key(|a| a.index());
    out
}
