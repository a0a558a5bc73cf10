//! Dora, ura dora, red fives and kita: han that are not yaku.
//!
//! The dora is the tile after the indicator in its suit, wrapping 9 → 1; winds wrap
//! East → South → West → North → East and dragons White → Green → Red → White
//! (<https://riichi.wiki/Dora>). In sanma 2m–8m do not exist, so a 1m indicator makes
//! 9m the dora (Tenhou's three-player rules, <https://tenhou.net/man/>). A kita is a
//! north set aside: one han of its own, and a north for dora and ura dora.

use super::{Riichi, WinInput};
use crate::tile::{TileCounts, TileSet};

/// North's tile index.
const NORTH: usize = 30;

/// The bonus han of a hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Bonus {
    /// Han from dora indicators.
    pub dora: u8,
    /// Han from ura dora indicators (riichi only).
    pub ura: u8,
    /// Red fives.
    pub aka: u8,
    /// Kita.
    pub kita: u8,
}

impl Bonus {
    /// All bonus han together.
    pub fn total(&self) -> u8 {
        self.dora
            .saturating_add(self.ura)
            .saturating_add(self.aka)
            .saturating_add(self.kita)
    }
}

/// The tile index made dora by the indicator index `indicator`.
pub(crate) fn dora_of(indicator: u8, tile_set: TileSet) -> u8 {
    match indicator {
        0 if tile_set == TileSet::Sanma => 8,
        0..=26 if indicator % 9 == 8 => indicator - 8,
        0..=26 => indicator + 1,
        27..=29 => indicator + 1,
        30 => 27,
        31 | 32 => indicator + 1,
        _ => 31,
    }
}

fn count_for(indicators: &[crate::tile::Tile], all: &TileCounts, input: &WinInput) -> u8 {
    let tile_set = input.preset.tile_set();
    let mut han = 0u8;
    for indicator in indicators {
        let dora = dora_of(indicator.as_u8(), tile_set) as usize;
        let held = all.get(dora).copied().unwrap_or(0);
        let kita = if dora == NORTH { input.kita } else { 0 };
        han = han.saturating_add(held).saturating_add(kita);
    }
    han
}

/// Counts the bonus han of `input`, whose tiles (concealed and melds) are `all`.
pub(crate) fn count(input: &WinInput, all: &TileCounts) -> Bonus {
    let ura = if input.conditions.riichi == Riichi::None {
        0
    } else {
        count_for(&input.ura_indicators, all, input)
    };
    Bonus {
        dora: count_for(&input.dora_indicators, all, input),
        ura,
        aka: input
            .red_fives
            .iter()
            .fold(0u8, |a, &r| a.saturating_add(r)),
        kita: input.kita,
    }
}
