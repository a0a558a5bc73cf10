//! The defending bot: tile efficiency, with push or fold against threats.
//!
//! Without a threat on the table it plays as [`EfficiencyBot`], except that under
//! riichi rules it calls only with a yaku in sight (a pon of a value honour, or an
//! all-simples hand). Against threats ([`danger::threats`]: a riichi, an open hand
//! likely ready) it weighs, for its own turn:
//!
//! ```text
//! push = P(win) · value − cost(efficiency discard) − future · mean cost of a tile
//! fold = − cost(safest discard) − future · FOLD_LEAK · mean cost of a tile
//! ```
//!
//! where `cost` is the expected loss of a discard ([`danger::expected_costs`]), `future`
//! the own draws left (at most [`HORIZON`]), `P(win)` a rough function of shanten and
//! ukeire ([`win_chance`]) and `value` the hand's expected points ([`hand_value`]). It
//! pushes when `push > fold` and then plays (and declares riichi) as the efficiency bot;
//! otherwise it discards the safest tile and never riichis. In a claim window with a
//! threat it passes (a call gives up safe tiles and ties the hand).
//!
//! This is the push/fold rule of thumb of the riichi literature — push a ready hand
//! with a fair wait, push a valuable one-shanten hand early, fold anything farther
//! (とつげき東北, 『科学する麻雀』, 2004, and Daina Chiba, *Riichi Book 1*, 2016) —
//! written as an expected-value comparison so that value and wait width move the line.

use super::danger;
use super::{own_melds, Agent, EfficiencyBot};
use crate::game::{Action, LegalActions, MeldKind, Observation};
use crate::shanten::Forms;
use crate::tile::{Tile, NUM_TILE_TYPES};

/// Most own draws the push/fold comparison looks ahead.
pub const HORIZON: f64 = 6.0;
/// Share of the mean tile cost a folding hand still risks per turn (it may run out of
/// safe tiles).
pub const FOLD_LEAK: f64 = 0.15;

/// The tenpai probability from which an opponent is a threat (an open hand with three
/// melds, or two late in the hand, or a riichi).
pub const THREAT_TENPAI: f64 = 0.6;

/// Expected points lost per tile type ([`danger::expected_costs`]).
type Costs = [f64; NUM_TILE_TYPES];

/// The defending bot (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub struct DefendBot;

/// Own draws left: the live wall shared by the players.
fn draws_left(obs: &Observation) -> f64 {
    obs.live_wall as f64 / obs.rules.players.max(1) as f64
}

/// The chance to win the hand from `shanten` with `ukeire` tiles among `unseen_total`,
/// with `draws` own draws left: a ready hand sees about two chances per turn (its
/// draw and the discards), a one-shanten hand must first get ready. Rough by design.
pub fn win_chance(shanten: i8, ukeire: u32, unseen_total: u32, draws: f64) -> f64 {
    if unseen_total == 0 || draws <= 0.0 {
        return 0.0;
    }
    let hit = (ukeire as f64 / unseen_total as f64).min(1.0);
    let miss = |n: f64| libm::pow(1.0 - hit, n);
    match shanten {
        i8::MIN..=0 => 0.7 * (1.0 - miss(2.0 * draws)),
        1 => 0.35 * (1.0 - miss(draws)) * (1.0 - miss(draws)),
        _ => 0.0,
    }
}

/// The dora the seat of `obs` holds: hand tiles made dora by the indicators, red fives
/// and kita.
fn own_dora(obs: &Observation) -> u32 {
    let Some(r) = obs.riichi.as_ref() else {
        return 0;
    };
    let mut n: u32 = r.red_hand.iter().map(|&x| x as u32).sum();
    n += r.kita.get(obs.seat as usize).copied().unwrap_or(0) as u32;
    for ind in &r.dora_indicators {
        let dora = crate::score::dora_of(ind.as_u8(), obs.rules.tile_set) as usize;
        n += obs.hand.get(dora).copied().unwrap_or(0) as u32;
    }
    n
}

/// Expected points of winning the hand: about 5 000 closed (with riichi), 2 500 open,
/// 1 500 more per dora held, times 1.5 for the dealer and 1.2 in sanma (assumed
/// averages, the same scale as [`danger`]'s losses).
pub fn hand_value(obs: &Observation) -> f64 {
    let closed = obs
        .melds
        .get(obs.seat as usize)
        .is_none_or(|m| m.iter().all(|m| m.kind == MeldKind::ClosedKan));
    let base = if closed { 5000.0 } else { 2500.0 };
    let dealer = if obs.seat == obs.dealer { 1.5 } else { 1.0 };
    let sanma = if obs.rules.players == 3 { 1.2 } else { 1.0 };
    (base + 1500.0 * own_dora(obs) as f64) * dealer * sanma
}

/// Whether the seat's winds make `tile` a value honour (dragons always).
fn is_value_honour(obs: &Observation, tile: Tile) -> bool {
    if tile.is_dragon() {
        return true;
    }
    let Some(r) = obs.riichi.as_ref() else {
        return false;
    };
    let i = tile.as_u8();
    tile.is_honor() && (i == 27 + r.round_wind || i == 27 + r.seat_wind)
}

/// Whether a pon or chi keeps a yaku in sight: a value-honour pon (now or already
/// made), or every tile of the hand and the melds a simple (open tanyao).
fn call_has_yaku(obs: &Observation, call: Action) -> bool {
    let Some(pending) = obs.pending else {
        return false;
    };
    let melds = obs.melds.get(obs.seat as usize);
    let has_value_pon = melds
        .into_iter()
        .flatten()
        .any(|m| m.kind != MeldKind::Chi && is_value_honour(obs, m.tile));
    if has_value_pon || (call == Action::Pon && is_value_honour(obs, pending.tile)) {
        return true;
    }
    let simple = |t: Tile| !t.is_terminal_or_honor();
    let hand_simple = Tile::all()
        .filter(|t| obs.hand.get(t.index()).copied().unwrap_or(0) > 0)
        .all(simple);
    let melds_simple = melds.into_iter().flatten().all(|m| match m.kind {
        MeldKind::Chi => simple(m.tile) && m.tile.number() + 2 < 9,
        _ => simple(m.tile),
    });
    let called_simple = match call {
        Action::Chi(low) => simple(low) && low.number() + 2 < 9,
        _ => simple(pending.tile),
    };
    hand_simple && melds_simple && called_simple
}

/// The mean expected cost of one unseen tile: what a turn of pushing risks.
fn mean_cost(obs: &Observation, costs: &Costs) -> f64 {
    let (mut sum, mut n) = (0.0, 0u32);
    for t in Tile::all() {
        let c = obs.unseen.get(t.index()).copied().unwrap_or(0) as u32;
        if c > 0 {
            sum += c as f64 * costs.get(t.index()).copied().unwrap_or(0.0);
            n += c;
        }
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The tile of a discard-like action.
fn discarded(a: Action) -> Option<Tile> {
    match a {
        Action::Discard(t) | Action::Riichi(t) => Some(t),
        _ => None,
    }
}

impl DefendBot {
    /// Whether to push against `threats` when the efficiency bot would play `choice`.
    fn push(obs: &Observation, costs: &Costs, choice: Action, safest: f64) -> bool {
        let Some(tile) = discarded(choice) else {
            return true; // a kan or kita: no discard to weigh
        };
        let mut after = obs.hand;
        if let Some(c) = after.get_mut(tile.index()) {
            *c = c.saturating_sub(1);
        }
        let forms = Forms::from_rules(&obs.rules);
        let u = crate::efficiency::ukeire(
            &after,
            own_melds(obs),
            obs.rules.tile_set,
            forms,
            &obs.unseen,
        );
        let unseen_total: u32 = obs.unseen.iter().map(|&c| c as u32).sum();
        let draws = draws_left(obs);
        let future = draws.min(HORIZON);
        let mean = mean_cost(obs, costs);
        let gain = win_chance(u.shanten, u.tiles, unseen_total, draws) * hand_value(obs);
        let push = gain - costs.get(tile.index()).copied().unwrap_or(0.0) - future * mean;
        let fold = -safest - future * FOLD_LEAK * mean;
        push > fold
    }

    /// The legal discard with the lowest expected cost (ties: honours, then terminals,
    /// then the lowest index).
    fn safest(legal: &LegalActions, costs: &Costs) -> Option<(Action, f64)> {
        let mut best: Option<(Action, f64, u8)> = None;
        for a in legal.iter() {
            let Action::Discard(t) = a else { continue };
            let cost = costs.get(t.index()).copied().unwrap_or(0.0);
            let rank = if t.is_honor() {
                0
            } else if t.is_terminal() {
                1
            } else {
                2
            };
            let better = best
                .is_none_or(|(_, c, r)| cost < c - 1e-9 || ((cost - c).abs() <= 1e-9 && rank < r));
            if better {
                best = Some((a, cost, rank));
            }
        }
        best.map(|(a, c, _)| (a, c))
    }
}

impl Agent for DefendBot {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        if legal.contains(Action::Tsumo) {
            return Action::Tsumo;
        }
        if legal.contains(Action::Ron) {
            return Action::Ron;
        }
        let choice = EfficiencyBot.act(obs, legal);
        let riichi_rules = obs.rules.is_riichi();
        let threats = danger::threats(obs);
        let threatened = riichi_rules && threats.iter().any(|t| t.tenpai >= THREAT_TENPAI);
        if legal.contains(Action::Pass) {
            let calls = matches!(choice, Action::Pon | Action::Chi(_));
            return match choice {
                _ if threatened && choice != Action::Pass => Action::Pass,
                _ if riichi_rules && calls && !call_has_yaku(obs, choice) => Action::Pass,
                c => c,
            };
        }
        if !threatened || choice == Action::Kita {
            return choice;
        }
        // Each tile's expected cost, once per decision.
        let costs = danger::expected_costs(&threats);
        let Some((fold, safest)) = Self::safest(legal, &costs) else {
            return choice;
        };
        if Self::push(obs, &costs, choice, safest) {
            choice
        } else {
            fold
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_chance_falls_with_shanten_and_rises_with_ukeire() {
        let ready = win_chance(0, 8, 80, 8.0);
        assert!(ready > win_chance(0, 2, 80, 8.0));
        assert!(ready > win_chance(1, 8, 80, 8.0));
        assert_eq!(win_chance(2, 30, 80, 8.0), 0.0);
        assert_eq!(win_chance(0, 8, 80, 0.0), 0.0);
        assert!(ready <= 0.7);
    }
}
