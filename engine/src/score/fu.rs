//! Fu of a regular hand (<https://riichi.wiki/Fu>, Tenhou's rules
//! <https://tenhou.net/man/>).
//!
//! 20 fu base; +10 for a closed ron; +2 for tsumo (not with pinfu, whose tsumo is 20 fu
//! flat); triplets 2 (simple, open), 4 (simple, concealed or terminal/honour open),
//! 8 (terminal/honour concealed), kans four times as much; a pair of a dragon, the seat
//! wind or the round wind 2 fu each (a double wind pair 4); a kanchan, penchan or tanki
//! wait 2 fu. An open hand that earns nothing above the base is counted 30 fu. The total
//! is rounded up to a multiple of 10. Seven pairs are always 25 fu (handled by the
//! caller).

use super::context::Context;
use super::decompose::{is_terminal_or_honor, Interpretation, SetKind, Wait};

/// The rounded fu of a regular interpretation; `pinfu` tells whether it scored pinfu.
pub(crate) fn regular(ctx: &Context, it: &Interpretation, pinfu: bool) -> u8 {
    if pinfu {
        return if ctx.tsumo { 20 } else { 30 };
    }
    let mut fu: u32 = 20;
    if ctx.closed && !ctx.tsumo {
        fu += 10;
    }
    if ctx.tsumo {
        fu += 2;
    }
    for (k, set) in it.hand.sets.iter().enumerate() {
        let unit = match set.kind {
            SetKind::Sequence => continue,
            SetKind::Triplet => 2,
            SetKind::Kan => 8,
        };
        let opened = set.called || (!ctx.tsumo && it.winning_set == Some(k));
        let mut value = unit;
        if !opened {
            value *= 2;
        }
        if is_terminal_or_honor(set.tile) {
            value *= 2;
        }
        fu += value;
    }
    // 2 fu per reason the pair is of value: a dragon, the seat wind, the round wind.
    fu += 2 * ctx.yakuhai_count(it.hand.pair) as u32;
    if matches!(it.wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        fu += 2;
    }
    if !ctx.closed && fu == 20 {
        // The open pinfu shape by ron: Tenhou counts it 30 fu.
        fu = 30;
    }
    round_up(fu)
}

fn round_up(fu: u32) -> u8 {
    (fu.div_ceil(10) * 10).min(250) as u8
}
