//! What every interpretation of a hand shares ([`Context`]): read by the yaku, the fu
//! and the payment alike, so it lives apart from all three (none of them imports
//! another's internals to get it).

use super::dora::{self, Bonus};
use super::{WinInput, WinMethod};
use crate::tile::TileCounts;

/// What every interpretation of a hand shares.
pub(crate) struct Context<'a> {
    /// The input.
    pub input: &'a WinInput,
    /// Concealed tiles and meld tiles together.
    pub all: TileCounts,
    /// Whether the hand is closed (menzen).
    pub closed: bool,
    /// Whether the win is a tsumo.
    pub tsumo: bool,
    /// Dora, ura dora, red fives and kita.
    pub bonus: Bonus,
}

impl<'a> Context<'a> {
    /// The shared facts of `input` (already validated).
    pub fn new(input: &'a WinInput) -> Context<'a> {
        let mut all = input.concealed;
        for meld in &input.melds {
            let i = meld.tile.index();
            match meld.kind {
                crate::game::MeldKind::Chi => {
                    for c in all.iter_mut().skip(i).take(3) {
                        *c = c.saturating_add(1);
                    }
                }
                kind => {
                    if let Some(c) = all.get_mut(i) {
                        *c = c.saturating_add(if kind.is_kan() { 4 } else { 3 });
                    }
                }
            }
        }
        Context {
            input,
            all,
            closed: input.is_closed(),
            tsumo: input.method == WinMethod::Tsumo,
            bonus: dora::count(input, &all),
        }
    }

    /// How many yakuhai a triplet of tile index `t` would be (dragon, seat wind, round
    /// wind): the pair fu / pinfu test.
    pub fn yakuhai_count(&self, t: u8) -> u8 {
        let input = self.input;
        let mut value = 0;
        if t >= 31 {
            value += 1;
        }
        if t == input.seat_wind.tile().as_u8() {
            value += 1;
        }
        if t == input.round_wind.tile().as_u8() {
            value += 1;
        }
        value
    }
}
