//! Per-tile deal-in estimates from what a seat sees: the defending bot's danger model.
//!
//! For each opponent `o` the estimate is `P(o is tenpai) · P(t wins for o | tenpai)`:
//!
//! - **Tenpai**: 1 after a riichi; for an open hand [`open_tenpai`] by meld count and
//!   discards made; a closed hand without riichi is taken as not ready (dama is rare
//!   early and unreadable from the table).
//! - **Wait**: the opponent's wait is one of the classic shapes — ryanmen (two-sided),
//!   kanchan (closed), penchan (edge), shanpon (two pairs) and tanki (single) — drawn
//!   with weight `shape weight × the number of ways to hold it` (the product of the
//!   unseen copies of its tiles). A shape is *live* when none of its winning tiles is
//!   one the opponent cannot ron on: under furiten rules its own discards (genbutsu),
//!   and after a riichi every tile discarded since (a passed win). `P(t wins)` is the
//!   live weight of the shapes that win on `t` over the live weight of all shapes.
//!
//! This is the quantitative form of the defensive reading every riichi book teaches
//! (genbutsu, suji, kabe, visible honours): a discarded 4 kills the two-sided waits on
//! 1-4 and 4-7 (suji), four visible 6s leave no 5-8 or 7-8 shapes (kabe), an honour
//! with three copies visible can only be a single wait. Shape weights are this
//! module's assumptions (two-sided waits about half of all riichi waits, as the
//! statistics quoted in Daina Chiba's *Riichi Book 1* (2016) on Tenhou games report);
//! they are documented constants, not fitted.

use crate::game::{MeldKind, Observation};
use crate::tile::NUM_TILE_TYPES;

/// Weight of one way to hold a two-sided wait.
pub const RYANMEN_WEIGHT: f64 = 1.0;
/// Weight of one way to hold a closed (middle) wait.
pub const KANCHAN_WEIGHT: f64 = 0.4;
/// Weight of one way to hold an edge wait.
pub const PENCHAN_WEIGHT: f64 = 0.4;
/// Weight of one way to hold a pair waiting as one of two pairs.
pub const SHANPON_WEIGHT: f64 = 0.5;
/// Weight of one way to hold a single-tile wait.
pub const TANKI_WEIGHT: f64 = 0.3;

/// The tenpai probability of an open hand that is not in riichi, by its melds
/// (calls, kans included) and own discards: more melds and a later turn mean a hand
/// closer to ready; four melds are a single wait, always ready. Assumed values.
pub fn open_tenpai(melds: usize, discards: usize) -> f64 {
    let base = match melds {
        0 => return 0.0,
        1 => 0.10,
        2 => 0.30,
        3 => 0.60,
        _ => return 1.0,
    };
    (base + 0.03 * discards as f64).min(0.95)
}

/// One opponent's threat as the observer reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threat {
    /// The opponent's seat.
    pub seat: u8,
    /// Probability that it is tenpai.
    pub tenpai: f64,
    /// Whether it declared riichi.
    pub riichi: bool,
    /// Per tile type: the probability that discarding it now deals in to this opponent
    /// (tenpai probability included).
    pub deal_in: [f64; NUM_TILE_TYPES],
    /// Points the observer expects to pay when dealing in to it.
    pub loss: f64,
}

/// Tile types `seat` cannot ron on as far as `obs` shows (bit per type).
fn dead_tiles(obs: &Observation, seat: usize) -> u64 {
    let mut dead = 0u64;
    let furiten_rules = obs.rules.is_riichi();
    let Some(row) = obs.discards.get(seat) else {
        return 0;
    };
    if furiten_rules {
        for d in row {
            dead |= 1 << d.tile.index();
        }
    }
    let declared = obs
        .riichi
        .as_ref()
        .and_then(|r| r.declared.get(seat).copied().flatten());
    if let Some(i) = declared {
        // Every tile discarded by anyone after the riichi discard passed the riichi.
        let since = row.get(i as usize).map_or(u8::MAX, |d| d.seq);
        for other in obs.discards.iter().take(obs.rules.players as usize) {
            for d in other.iter().filter(|d| d.seq > since) {
                dead |= 1 << d.tile.index();
            }
        }
    }
    dead
}

/// `P(t wins | tenpai)` per tile type for an opponent whose dead tiles are `dead`,
/// with the observer's unseen counts as the copies it could hold.
pub fn wait_distribution(unseen: &[u8; NUM_TILE_TYPES], dead: u64) -> [f64; NUM_TILE_TYPES] {
    let mut win = [0f64; NUM_TILE_TYPES];
    let mut total = 0f64;
    let u = |i: usize| unseen.get(i).copied().unwrap_or(0) as f64;
    let live = |i: usize| dead & (1 << i) == 0;
    let mut add = |w: f64, waits: &[usize], win: &mut [f64; NUM_TILE_TYPES]| {
        if w <= 0.0 || !waits.iter().all(|&t| live(t)) {
            return;
        }
        total += w;
        for &t in waits {
            if let Some(x) = win.get_mut(t) {
                *x += w;
            }
        }
    };
    for suit in 0..3usize {
        let at = |n: usize| suit * 9 + n; // n = 0..9 (the tile numbered n + 1)
        for n in 0..8 {
            let ways = u(at(n)) * u(at(n + 1));
            match n {
                0 => add(PENCHAN_WEIGHT * ways, &[at(2)], &mut win),
                7 => add(PENCHAN_WEIGHT * ways, &[at(6)], &mut win),
                _ => add(RYANMEN_WEIGHT * ways, &[at(n - 1), at(n + 2)], &mut win),
            }
        }
        for n in 0..7 {
            add(
                KANCHAN_WEIGHT * u(at(n)) * u(at(n + 2)),
                &[at(n + 1)],
                &mut win,
            );
        }
    }
    for t in 0..NUM_TILE_TYPES {
        let c = u(t);
        add(SHANPON_WEIGHT * c * (c - 1.0) / 2.0, &[t], &mut win);
        add(TANKI_WEIGHT * c, &[t], &mut win);
    }
    if total > 0.0 {
        for x in win.iter_mut() {
            *x /= total;
        }
    }
    win
}

/// Dora visible in `seat`'s melds (indicators read with the tile set's wrap).
fn meld_dora(obs: &Observation, seat: usize) -> u32 {
    let Some(r) = obs.riichi.as_ref() else {
        return 0;
    };
    let mut n = 0;
    for m in obs.melds.get(seat).into_iter().flatten() {
        let size = match m.kind {
            MeldKind::Chi => 1, // one tile of each type
            MeldKind::Pon => 3,
            _ => 4,
        };
        for ind in &r.dora_indicators {
            let dora = crate::score::dora_of(ind.as_u8(), obs.rules.tile_set);
            let hit = match m.kind {
                MeldKind::Chi => (0..3).any(|i| m.tile.as_u8() + i == dora),
                _ => m.tile.as_u8() == dora,
            };
            if hit {
                n += size;
            }
        }
    }
    n
}

/// Points lost by dealing in to `seat`: a riichi about 6 000, an open hand about
/// 3 000 plus 1 500 per dora shown in its melds, times 1.5 for the dealer (assumed
/// averages; a sanma hand, with kita and fewer tiles, a fifth more).
fn expected_loss(obs: &Observation, seat: usize, riichi: bool) -> f64 {
    let base = if riichi {
        6000.0
    } else {
        3000.0 + 1500.0 * meld_dora(obs, seat) as f64
    };
    let dealer = if seat == obs.dealer as usize {
        1.5
    } else {
        1.0
    };
    let sanma = if obs.rules.players == 3 { 1.2 } else { 1.0 };
    base * dealer * sanma
}

/// The threats the seat of `obs` faces (opponents with a tenpai probability above
/// zero), at most three.
pub fn threats(obs: &Observation) -> heapless::Vec<Threat, 3> {
    let mut out = heapless::Vec::new();
    let n = obs.rules.players as usize;
    for seat in (0..n).filter(|&s| s != obs.seat as usize) {
        let riichi = obs
            .riichi
            .as_ref()
            .is_some_and(|r| r.declared.get(seat).copied().flatten().is_some());
        let melds = obs.melds.get(seat).map_or(0, |m| {
            m.iter().filter(|m| m.kind != MeldKind::ClosedKan).count()
        });
        let discards = obs.discards.get(seat).map_or(0, |d| d.len());
        let tenpai = if riichi {
            1.0
        } else {
            open_tenpai(melds, discards)
        };
        if tenpai <= 0.0 {
            continue;
        }
        let mut deal_in = wait_distribution(&obs.unseen, dead_tiles(obs, seat));
        for x in deal_in.iter_mut() {
            *x *= tenpai;
        }
        let _ = out.push(Threat {
            seat: seat as u8,
            tenpai,
            riichi,
            deal_in,
            loss: expected_loss(obs, seat, riichi),
        });
    }
    out
}

/// Expected points lost by discarding each tile type now, over all `threats`.
pub fn expected_costs(threats: &[Threat]) -> [f64; NUM_TILE_TYPES] {
    let mut out = [0.0; NUM_TILE_TYPES];
    for t in threats {
        for (o, p) in out.iter_mut().zip(&t.deal_in) {
            *o += p * t.loss;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genbutsu_is_safe_and_suji_safer_than_a_middle_tile() {
        let unseen = [4u8; NUM_TILE_TYPES];
        let p = wait_distribution(&unseen, 1 << 3); // 4m discarded
        assert_eq!(p[3], 0.0, "genbutsu");
        assert!(p[0] < p[4] / 2.0, "suji 1m {} vs 5m {}", p[0], p[4]);
        assert!(p[6] < p[4], "suji 7m {} vs 5m {}", p[6], p[4]);
        let none = wait_distribution(&unseen, 0);
        assert!(
            none[27] < none[4],
            "an honour is only a pair or single wait"
        );
    }

    #[test]
    fn kabe_leaves_only_pair_and_single_waits() {
        let mut unseen = [4u8; NUM_TILE_TYPES];
        unseen[5] = 0; // four 6m visible: no 56, 67, 46, 68 shapes
        let p = wait_distribution(&unseen, 0);
        let mut plain = [4u8; NUM_TILE_TYPES];
        plain[6] = 4;
        let q = wait_distribution(&plain, 0);
        assert!(p[6] < 0.8 * q[6], "7m next to a kabe {} vs {}", p[6], q[6]);
    }

    #[test]
    fn tenpai_of_open_hands_grows_with_melds() {
        assert_eq!(open_tenpai(0, 10), 0.0);
        assert!(open_tenpai(1, 3) < open_tenpai(2, 3));
        assert!(open_tenpai(3, 20) <= 0.95);
        assert_eq!(open_tenpai(4, 0), 1.0);
    }
}
