//! Every regular decomposition of a hand (four sets and a pair) and the ways the winning
//! tile can complete it.
//!
//! The concealed tiles are split into sets from the lowest tile up: at the lowest tile
//! left, either a triplet or a sequence starts there, so each multiset of sets is visited
//! exactly once. The melds are fixed sets. Which concealed group the winning tile
//! completed decides the wait (and for a triplet by ron, that the triplet counts as open):
//! each distinct choice is a separate interpretation, as the rules have the most valuable
//! one chosen (<https://riichi.wiki/Fu#Wait_patterns>).

use super::{Meld, WinInput};
use crate::game::MeldKind;
use crate::tile::{TileCounts, NUM_TILE_TYPES};

/// The shape of a set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SetKind {
    /// Three consecutive tiles of a suit.
    Sequence,
    /// Three of a kind.
    Triplet,
    /// Four of a kind (a declared kan).
    Kan,
}

/// One set of a decomposition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Set {
    /// Its shape.
    pub kind: SetKind,
    /// Tile index of the triplet or kan, or of the lowest tile of a sequence.
    pub tile: u8,
    /// Whether it was called (chi, pon, open or added kan).
    pub called: bool,
    /// Whether it is a meld (a closed kan included) rather than concealed tiles.
    pub melded: bool,
}

impl Set {
    /// Whether the tile index `t` is part of the set.
    pub fn contains(&self, t: u8) -> bool {
        match self.kind {
            SetKind::Sequence => t >= self.tile && t <= self.tile + 2,
            _ => t == self.tile,
        }
    }

    /// Whether the set is a triplet or a kan.
    pub fn is_pung(&self) -> bool {
        !matches!(self.kind, SetKind::Sequence)
    }

    /// Whether the set holds a terminal or an honour.
    pub fn has_terminal_or_honor(&self) -> bool {
        match self.kind {
            SetKind::Sequence => self.tile % 9 == 0 || self.tile % 9 == 6,
            _ => is_terminal_or_honor(self.tile),
        }
    }
}

/// Whether tile index `t` is a terminal (1 or 9) or an honour.
pub(crate) fn is_terminal_or_honor(t: u8) -> bool {
    t >= 27 || t % 9 == 0 || t % 9 == 8
}

/// A regular decomposition: four sets (melds included) and a pair.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Regular {
    /// The sets; the melds come first.
    pub sets: [Set; 4],
    /// The pair's tile index.
    pub pair: u8,
}

/// The wait the winning tile completed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Wait {
    /// Two-sided sequence wait.
    Ryanmen,
    /// Middle of a sequence.
    Kanchan,
    /// 3 of 1-2-3 or 7 of 7-8-9.
    Penchan,
    /// The pair (single wait).
    Tanki,
    /// A triplet (two pairs waiting).
    Shanpon,
}

/// One interpretation: a decomposition and the group the winning tile completed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Interpretation {
    /// The sets and pair.
    pub hand: Regular,
    /// The wait.
    pub wait: Wait,
    /// Index in `hand.sets` of the set the winning tile completed (`None`: the pair).
    pub winning_set: Option<usize>,
}

fn meld_set(meld: &Meld) -> Set {
    let (kind, called) = match meld.kind {
        MeldKind::Chi => (SetKind::Sequence, true),
        MeldKind::Pon => (SetKind::Triplet, true),
        MeldKind::OpenKan | MeldKind::AddedKan => (SetKind::Kan, true),
        MeldKind::ClosedKan => (SetKind::Kan, false),
    };
    Set {
        kind,
        tile: meld.tile.as_u8(),
        called,
        melded: true,
    }
}

/// Calls `f` for every interpretation of the regular shapes of `input`'s hand.
pub(crate) fn for_each_interpretation(input: &WinInput, f: &mut dyn FnMut(&Interpretation)) {
    let placeholder = Set {
        kind: SetKind::Triplet,
        tile: 0,
        called: false,
        melded: false,
    };
    let mut hand = Regular {
        sets: [placeholder; 4],
        pair: 0,
    };
    let fixed = input.melds.len().min(4);
    for (slot, meld) in hand.sets.iter_mut().zip(input.melds.iter()) {
        *slot = meld_set(meld);
    }
    let win = input.winning_tile.as_u8();
    let mut counts = input.concealed;
    for pair in 0..NUM_TILE_TYPES {
        if counts[pair] < 2 {
            continue;
        }
        counts[pair] -= 2;
        hand.pair = pair as u8;
        split_sets(&mut counts, 0, fixed, &mut hand, &mut |full: &Regular| {
            for_each_wait(full, fixed, win, f);
        });
        counts[pair] += 2;
    }
}

/// Splits `counts` (from index `from` on) into the sets `hand.sets[next..]`.
fn split_sets(
    counts: &mut TileCounts,
    from: usize,
    next: usize,
    hand: &mut Regular,
    f: &mut dyn FnMut(&Regular),
) {
    let Some(lowest) = (from..NUM_TILE_TYPES).find(|&i| counts[i] > 0) else {
        if next == 4 {
            f(hand);
        }
        return;
    };
    if next >= 4 {
        return;
    }
    let set = |kind| Set {
        kind,
        tile: lowest as u8,
        called: false,
        melded: false,
    };
    if counts[lowest] >= 3 {
        counts[lowest] -= 3;
        hand.sets[next] = set(SetKind::Triplet);
        split_sets(counts, lowest, next + 1, hand, f);
        counts[lowest] += 3;
    }
    let can_run =
        lowest < 27 && lowest % 9 <= 6 && counts[lowest + 1] > 0 && counts[lowest + 2] > 0;
    if can_run {
        for c in &mut counts[lowest..lowest + 3] {
            *c -= 1;
        }
        hand.sets[next] = set(SetKind::Sequence);
        split_sets(counts, lowest, next + 1, hand, f);
        for c in &mut counts[lowest..lowest + 3] {
            *c += 1;
        }
    }
}

/// Calls `f` once for every distinct group of the concealed part that holds `win`.
fn for_each_wait(hand: &Regular, fixed: usize, win: u8, f: &mut dyn FnMut(&Interpretation)) {
    if hand.pair == win {
        f(&Interpretation {
            hand: *hand,
            wait: Wait::Tanki,
            winning_set: None,
        });
    }
    for k in fixed..4 {
        let set = hand.sets[k];
        let seen_before = hand.sets[fixed..k]
            .iter()
            .any(|s| s.kind == set.kind && s.tile == set.tile);
        if seen_before || !set.contains(win) {
            continue;
        }
        let wait = match set.kind {
            SetKind::Sequence => {
                let start = set.tile % 9;
                if win == set.tile + 1 {
                    Wait::Kanchan
                } else if (start == 0 && win == set.tile + 2) || (start == 6 && win == set.tile) {
                    Wait::Penchan
                } else {
                    Wait::Ryanmen
                }
            }
            _ => Wait::Shanpon,
        };
        f(&Interpretation {
            hand: *hand,
            wait,
            winning_set: Some(k),
        });
    }
}
