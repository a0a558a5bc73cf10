//! Checks that a [`WinInput`] describes a hand that can exist under its preset, before
//! any scoring.

use super::{Riichi, ScoreError, WinInput, WinMethod, Wind};
use crate::game::MeldKind;
use crate::tile::{Tile, NUM_TILE_TYPES};

/// North's tile index.
const NORTH: usize = 30;

/// Every check of [`super::score`]'s input, in order: winds and kita, tiles of the tile
/// set, melds, tile counts, red fives, conditions.
pub(crate) fn check(input: &WinInput) -> Result<(), ScoreError> {
    let sanma = input.preset.players() == 3;
    if sanma && input.seat_wind == Wind::North {
        return Err(ScoreError::InvalidSeatWind);
    }
    if !sanma && input.kita > 0 {
        return Err(ScoreError::KitaInFourPlayer);
    }
    check_tile_set(input)?;
    check_melds(input)?;
    check_counts(input)?;
    check_red_fives(input)?;
    check_conditions(input)
}

fn check_tile_set(input: &WinInput) -> Result<(), ScoreError> {
    let tile_set = input.preset.tile_set();
    let in_set = |tile: Tile| {
        if tile_set.contains(tile) {
            Ok(())
        } else {
            Err(ScoreError::NotInTileSet { tile })
        }
    };
    for tile in Tile::all() {
        if input.concealed[tile.index()] > 0 {
            in_set(tile)?;
        }
    }
    in_set(input.winning_tile)?;
    for tile in input
        .dora_indicators
        .iter()
        .chain(input.ura_indicators.iter())
    {
        in_set(*tile)?;
    }
    for meld in &input.melds {
        in_set(meld.tile)?;
    }
    Ok(())
}

fn check_melds(input: &WinInput) -> Result<(), ScoreError> {
    for (index, meld) in input.melds.iter().enumerate() {
        // A chi is a sequence of a number suit starting on 1-7; sanma has no chi
        // (Tenhou's three-player rules).
        let t = meld.tile;
        let bad_chi = meld.kind == MeldKind::Chi
            && (input.preset.players() == 3 || t.is_honor() || t.number() > 7);
        if bad_chi {
            return Err(ScoreError::InvalidMeld { index: index as u8 });
        }
    }
    Ok(())
}

fn check_counts(input: &WinInput) -> Result<(), ScoreError> {
    let expected = 14 - 3 * input.melds.len().min(4) as u32;
    let found: u32 = input.concealed.iter().map(|&c| c as u32).sum();
    if found != expected {
        return Err(ScoreError::WrongTileCount {
            expected: expected as u8,
            found: found.min(255) as u8,
        });
    }
    if input.concealed[input.winning_tile.index()] == 0 {
        return Err(ScoreError::WinningTileNotInHand);
    }
    // Every physical tile: hand, melds, kita and indicators.
    let mut physical = [0u32; NUM_TILE_TYPES];
    for (p, &c) in physical.iter_mut().zip(input.concealed.iter()) {
        *p = c as u32;
    }
    for meld in &input.melds {
        let i = meld.tile.index();
        match meld.kind {
            MeldKind::Chi => (i..i + 3).for_each(|j| physical[j.min(NUM_TILE_TYPES - 1)] += 1),
            kind => physical[i] += if kind.is_kan() { 4 } else { 3 },
        }
    }
    physical[NORTH] += input.kita as u32;
    for tile in input
        .dora_indicators
        .iter()
        .chain(input.ura_indicators.iter())
    {
        physical[tile.index()] += 1;
    }
    match (0..NUM_TILE_TYPES).find(|&i| physical[i] > 4) {
        Some(i) => Err(ScoreError::TooManyCopies {
            tile: Tile::new(i as u8).unwrap_or(Tile::EAST),
        }),
        None => Ok(()),
    }
}

fn check_red_fives(input: &WinInput) -> Result<(), ScoreError> {
    let sanma = input.preset.players() == 3;
    for suit in 0..3usize {
        let five = suit * 9 + 4;
        let mut fives = input.concealed[five] as u32;
        for meld in &input.melds {
            let t = meld.tile.index();
            fives += match meld.kind {
                MeldKind::Chi => (t <= five && five <= t + 2) as u32,
                kind if t == five => {
                    if kind.is_kan() {
                        4
                    } else {
                        3
                    }
                }
                _ => 0,
            };
        }
        // Tenhou: one red five per suit; sanma has red 5p and 5s only.
        let available = if sanma && suit == 0 { 0 } else { 1 };
        let red = input.red_fives[suit] as u32;
        if red > available || red > fives {
            return Err(ScoreError::ImpossibleRedFives { suit: suit as u8 });
        }
    }
    Ok(())
}

fn check_conditions(input: &WinInput) -> Result<(), ScoreError> {
    let c = &input.conditions;
    let tsumo = input.method == WinMethod::Tsumo;
    let has_kan = input.melds.iter().any(|m| m.kind.is_kan());
    let riichi = c.riichi != Riichi::None;
    let first_turn_win = c.tenhou || c.chiihou;
    let contradictions = [
        riichi && !input.is_closed(),
        c.ippatsu && !riichi,
        c.haitei && !tsumo,
        // A kita's replacement tile is a rinshan tile too (sanma).
        c.rinshan && (!tsumo || (!has_kan && input.kita == 0)),
        c.houtei && tsumo,
        c.chankan && tsumo,
        c.haitei && c.rinshan,
        c.houtei && c.chankan,
        c.tenhou && !input.is_dealer(),
        c.chiihou && input.is_dealer(),
        first_turn_win && (!tsumo || !input.melds.is_empty() || riichi),
        first_turn_win && (c.haitei || c.rinshan),
    ];
    if contradictions.iter().any(|&x| x) {
        return Err(ScoreError::InconsistentConditions);
    }
    Ok(())
}
