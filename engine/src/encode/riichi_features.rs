//! The features encoding v2 adds for the riichi rules (tile columns 36 and up, global
//! columns 25 and up; the tables are in the module docs of [`crate::encode`]).
//!
//! Everything here reads [`Observation::riichi`] only, the public riichi state; under the
//! simple rules (no riichi view) nothing is written, so a v2 encoding of a simple-rules
//! position is its v1 encoding padded with zeros. The global token's riichi features
//! start at v1's `GLOBAL_USED`, inside v1's width, where v1 writes only zeros.

use super::{clamp01, gf2, relative, tf2, Rows, GLOBAL_TOKEN};
use crate::game::{Observation, RiichiView};
use crate::score::dora_of;
use crate::tile::NUM_TILE_TYPES;

/// North's tile index (a kita is a north).
const NORTH: usize = 30;

/// Tile index of the five of suit `suit` (0 man, 1 pin, 2 sou).
const fn five_of(suit: usize) -> usize {
    suit * 9 + 4
}

/// Writes the v2 riichi features of `obs` (nothing without a riichi view).
pub(super) fn fill_riichi(obs: &Observation, out: &mut Rows) {
    let Some(view) = obs.riichi.as_ref() else {
        return;
    };
    fill_dora(obs, view, out);
    fill_red_fives(obs, view, out);
    fill_riichi_seats(obs, view, out);
    fill_riichi_global(obs, view, out);
}

/// Dora made by the revealed indicators, and the indicators themselves.
fn fill_dora(obs: &Observation, view: &RiichiView, out: &mut Rows) {
    let mut dora = [0u8; NUM_TILE_TYPES];
    let mut shown = [0u8; NUM_TILE_TYPES];
    for indicator in &view.dora_indicators {
        let d = dora_of(indicator.as_u8(), obs.rules.tile_set) as usize;
        if let Some(x) = dora.get_mut(d) {
            *x = x.saturating_add(1);
        }
        if let Some(x) = shown.get_mut(indicator.index()) {
            *x = x.saturating_add(1);
        }
    }
    for k in 0..NUM_TILE_TYPES {
        out.set(k, tf2::DORA, clamp01(dora[k] as f32 / 4.0));
        out.set(k, tf2::INDICATOR, clamp01(shown[k] as f32 / 4.0));
    }
    // Dora the observer holds: dora types in the closed hand and melds, red fives,
    // and its kita (each a north, so a dora when north is).
    let seat = obs.seat as usize;
    let mut held = 0u32;
    let mut melded = [0u8; NUM_TILE_TYPES];
    for m in obs.melds.get(seat).into_iter().flatten() {
        m.add_to(&mut melded);
    }
    for k in 0..NUM_TILE_TYPES {
        let copies = obs.hand.get(k).copied().unwrap_or(0) as u32 + melded[k] as u32;
        held += copies * dora[k] as u32;
    }
    held += view.red_hand.iter().map(|&r| r as u32).sum::<u32>();
    held += view
        .red_melds
        .get(seat)
        .map_or(0, |m| m.iter().map(|&r| r as u32).sum());
    let kita = view.kita.get(seat).copied().unwrap_or(0) as u32;
    held += kita * (1 + dora[NORTH] as u32);
    out.set(GLOBAL_TOKEN, gf2::DORA_HELD, clamp01(held as f32 / 8.0));
    let revealed = view.dora_indicators.len() as f32;
    out.set(GLOBAL_TOKEN, gf2::INDICATORS, clamp01(revealed / 5.0));
}

/// The red fives the observer holds, and those it has not seen.
fn fill_red_fives(obs: &Observation, view: &RiichiView, out: &mut Rows) {
    let Some(rules) = obs.rules.riichi else {
        return;
    };
    let players = (obs.rules.players as usize).min(4);
    for suit in 0..3 {
        let five = five_of(suit);
        let held = view.red_hand.get(suit).copied().unwrap_or(0);
        out.set(five, tf2::RED_HELD, (held > 0) as u8 as f32);
        let exist = rules.red_fives.get(suit).copied().unwrap_or(0) as u32;
        let mut seen = held as u32;
        for abs in 0..players {
            let melds = obs.melds.get(abs).map(|m| m.as_slice()).unwrap_or(&[]);
            let reds = view.red_melds.get(abs).copied().unwrap_or_default();
            for (m, &r) in melds.iter().zip(reds.iter()) {
                if m.tile.suit().index() == suit {
                    seen += r as u32;
                }
            }
            let row = obs.discards.get(abs).map(|d| d.as_slice()).unwrap_or(&[]);
            let bits = view.red_discards.get(abs).copied().unwrap_or(0);
            for (i, d) in row.iter().enumerate().take(64) {
                // A claimed red five lives on in the claimer's meld, counted there.
                if !d.claimed && d.tile.index() == five && bits & (1u64 << i) != 0 {
                    seen += 1;
                }
            }
        }
        let unseen = exist.saturating_sub(seen);
        out.set(five, tf2::RED_UNSEEN, clamp01(unseen as f32));
    }
}

/// Riichi declarations per relative seat: the declaration tile and the tiles safe
/// against a seat (its own discards; under riichi, every tile discarded after its
/// declaration, since a riichi player who lets a winning tile pass is furiten).
fn fill_riichi_seats(obs: &Observation, view: &RiichiView, out: &mut Rows) {
    let players = (obs.rules.players as usize).min(4);
    for abs in 0..players {
        let r = relative(obs, abs);
        let row = obs.discards.get(abs).map(|d| d.as_slice()).unwrap_or(&[]);
        for d in row {
            out.set(d.tile.index(), tf2::SAFE + r, 1.0);
        }
        let declared = view.declared.get(abs).copied().flatten();
        let Some(at) = declared else {
            continue;
        };
        out.set(GLOBAL_TOKEN, gf2::IN_RIICHI + r, 1.0);
        let Some(tile) = row.get(at as usize) else {
            continue;
        };
        out.set(tile.tile.index(), tf2::RIICHI_TILE + r, 1.0);
        let since = tile.seq;
        for other in obs.discards.iter().take(players) {
            for d in other.iter().filter(|d| d.seq > since) {
                out.set(d.tile.index(), tf2::SAFE + r, 1.0);
            }
        }
    }
}

/// The riichi part of the global token: kita, honba, sticks, round wind, furiten and
/// scores scaled to the starting points.
fn fill_riichi_global(obs: &Observation, view: &RiichiView, out: &mut Rows) {
    let g = GLOBAL_TOKEN;
    let players = (obs.rules.players as usize).min(4);
    out.set(g, gf2::RIICHI_RULES, 1.0);
    for abs in 0..players {
        let r = relative(obs, abs);
        let kita = view.kita.get(abs).copied().unwrap_or(0) as f32;
        out.set(g, gf2::KITA + r, clamp01(kita / 4.0));
        let start = obs.rules.starting_points.max(1) as f32;
        let score = obs.scores.get(abs).copied().unwrap_or(0) as f32;
        let delta = (score - start) / start;
        out.set(g, gf2::POINTS + r, delta.clamp(-1.0, 1.0));
    }
    out.set(g, gf2::HONBA, clamp01(view.honba as f32 / 8.0));
    out.set(g, gf2::STICKS, clamp01(view.riichi_sticks as f32 / 4.0));
    let wind = (view.round_wind as usize).min(2);
    out.set(g, gf2::ROUND_WIND + wind, 1.0);
    out.set(g, gf2::FURITEN, view.furiten as u8 as f32);
}
