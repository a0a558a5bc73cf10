//! Actions and the fixed action index space.
//!
//! Every action has a stable index in `0..NUM_ACTIONS` so that policies, encoders and the
//! C ABI can use a flat mask:
//!
//! | indices     | action                                   |
//! |-------------|------------------------------------------|
//! | `0..34`     | `Discard(tile)`                          |
//! | `34..68`    | `ClosedKan(tile)`                        |
//! | `68..102`   | `AddedKan(tile)`                         |
//! | `102..136`  | `Chi(lowest tile of the sequence)`       |
//! | `136`       | `Tsumo`                                  |
//! | `137`       | `Ron`                                    |
//! | `138`       | `Pon`                                    |
//! | `139`       | `OpenKan`                                |
//! | `140`       | `Pass`                                   |
//! | `141..175`  | `Riichi(tile)`: declare riichi with this discard (riichi presets) |
//! | `175`       | `Kita`: set a north aside (riichi sanma)  |
//! | `176`       | `NineTerminals`: abort the hand (riichi presets) |
//!
//! Indices `0..141` are those of the first action space ([`POLICY_ACTIONS_V1`]): models
//! of observation encoding v1 have one logit for each of them and none for the riichi
//! actions appended after them, which such a model therefore never chooses.

use serde::{Deserialize, Serialize};

use crate::tile::{Tile, NUM_TILE_TYPES};

/// Size of the action index space (see the module table).
pub const NUM_ACTIONS: usize = 177;

/// The action indices a policy of observation encoding v1 has logits for: `0..141`,
/// everything but the riichi actions (`Riichi`, `Kita`, `NineTerminals`), which were
/// appended later. Such a model's output width; a legal action at or above it is one
/// the model cannot choose.
pub const POLICY_ACTIONS_V1: usize = 141;

const CLOSED_KAN_BASE: usize = NUM_TILE_TYPES;
const ADDED_KAN_BASE: usize = 2 * NUM_TILE_TYPES;
const CHI_BASE: usize = 3 * NUM_TILE_TYPES;
const TSUMO: usize = 4 * NUM_TILE_TYPES;
const RIICHI_BASE: usize = POLICY_ACTIONS_V1;
const KITA: usize = RIICHI_BASE + NUM_TILE_TYPES;
const NINE_TERMINALS: usize = KITA + 1;

/// A decision of one seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Action {
    /// Discard a tile of this type from the hand.
    Discard(Tile),
    /// Declare a win on the tile just drawn (self-draw).
    Tsumo,
    /// Declare a closed kan of four tiles of this type held in hand.
    ClosedKan(Tile),
    /// Add the fourth tile of this type to an own pon.
    AddedKan(Tile),
    /// Declare a win on the pending discard (or on the tile of an added kan).
    Ron,
    /// Claim the pending discard to complete a pung.
    Pon,
    /// Claim the pending discard with three of its kind in hand (open kan).
    OpenKan,
    /// Claim the pending discard to complete the sequence whose lowest tile is given.
    Chi(Tile),
    /// Decline every claim on the pending discard.
    Pass,
    /// Declare riichi with this discard (riichi presets only): closed, tenpai after the
    /// discard, at least 1000 points and enough live wall left.
    Riichi(Tile),
    /// Set a north aside as dora and draw a replacement tile (riichi sanma only).
    Kita,
    /// Abort the hand with nine or more different terminals and honours on the first
    /// uninterrupted draw (riichi presets only; optional).
    NineTerminals,
}

impl Action {
    /// The index of this action in `0..NUM_ACTIONS`.
    pub const fn index(self) -> usize {
        match self {
            Action::Discard(t) => t.index(),
            Action::ClosedKan(t) => CLOSED_KAN_BASE + t.index(),
            Action::AddedKan(t) => ADDED_KAN_BASE + t.index(),
            Action::Chi(t) => CHI_BASE + t.index(),
            Action::Tsumo => TSUMO,
            Action::Ron => TSUMO + 1,
            Action::Pon => TSUMO + 2,
            Action::OpenKan => TSUMO + 3,
            Action::Pass => TSUMO + 4,
            Action::Riichi(t) => RIICHI_BASE + t.index(),
            Action::Kita => KITA,
            Action::NineTerminals => NINE_TERMINALS,
        }
    }

    /// The action with index `index`, or `None` when `index >= NUM_ACTIONS`.
    pub const fn from_index(index: usize) -> Option<Action> {
        match index {
            TSUMO => return Some(Action::Tsumo),
            137 => return Some(Action::Ron),
            138 => return Some(Action::Pon),
            139 => return Some(Action::OpenKan),
            140 => return Some(Action::Pass),
            KITA => return Some(Action::Kita),
            NINE_TERMINALS => return Some(Action::NineTerminals),
            _ => {}
        }
        let base = match index {
            0..CLOSED_KAN_BASE => 0,
            CLOSED_KAN_BASE..ADDED_KAN_BASE => CLOSED_KAN_BASE,
            ADDED_KAN_BASE..CHI_BASE => ADDED_KAN_BASE,
            CHI_BASE..TSUMO => CHI_BASE,
            RIICHI_BASE..KITA => RIICHI_BASE,
            _ => return None,
        };
        // `index − base < 34` here, so the cast is lossless.
        let tile = match Tile::new((index - base) as u8) {
            Some(t) => t,
            None => return None,
        };
        Some(match base {
            0 => Action::Discard(tile),
            CLOSED_KAN_BASE => Action::ClosedKan(tile),
            ADDED_KAN_BASE => Action::AddedKan(tile),
            CHI_BASE => Action::Chi(tile),
            _ => Action::Riichi(tile),
        })
    }

    /// Whether the action exists only under riichi rules (`Riichi`, `Kita`,
    /// `NineTerminals`): its index is at or above [`POLICY_ACTIONS_V1`].
    pub const fn is_riichi_only(self) -> bool {
        matches!(
            self,
            Action::Riichi(_) | Action::Kita | Action::NineTerminals
        )
    }
}

/// The action in words, as front-ends and the Python package name it: `discard 5p`,
/// `closed kan 1z`, `added kan 3s`, `chi 345m`, `tsumo`, `ron`, `pon`, `open kan`,
/// `pass`, `riichi 5p`, `kita`, `nine terminals`.
impl core::fmt::Display for Action {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::ClosedKan(t) => write!(f, "closed kan {t}"),
            Action::AddedKan(t) => write!(f, "added kan {t}"),
            Action::Chi(t) => {
                let n = t.number();
                write!(f, "chi {}{}{}{}", n, n + 1, n + 2, t.suit().letter())
            }
            Action::Tsumo => f.write_str("tsumo"),
            Action::Ron => f.write_str("ron"),
            Action::Pon => f.write_str("pon"),
            Action::OpenKan => f.write_str("open kan"),
            Action::Pass => f.write_str("pass"),
            Action::Riichi(t) => write!(f, "riichi {t}"),
            Action::Kita => f.write_str("kita"),
            Action::NineTerminals => f.write_str("nine terminals"),
        }
    }
}

/// Upper bound on simultaneously legal actions (the capacity of [`LegalActions`]): at most 14 distinct discards, 14
/// riichi discards, 3 closed kans, 4 added kans, a tsumo, a kita and the nine-terminals
/// abort on a turn (38); at most 7 answers in a claim window.
pub const LEGAL_CAP: usize = 40;

/// The legal actions of one seat: a bitset over the action index space plus the list in
/// index order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LegalActions {
    bits: [u64; 3],
    list: heapless::Vec<Action, LEGAL_CAP>,
}

impl LegalActions {
    /// No legal action.
    pub const fn new() -> LegalActions {
        LegalActions {
            bits: [0; 3],
            list: heapless::Vec::new(),
        }
    }

    /// Adds an action (ignored when already present; the capacity bound above makes the
    /// list large enough for every reachable state).
    pub(crate) fn push(&mut self, action: Action) {
        let i = action.index();
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if let Some(w) = self.bits.get_mut(word) {
            if *w & bit == 0 && self.list.push(action).is_ok() {
                *w |= bit;
            }
        }
    }

    /// Adds `Discard(t)` for every tile type `t` whose bit is set in `tiles`, in index
    /// order: the same as pushing each, with one bitset update for all of them.
    pub(crate) fn push_discards(&mut self, tiles: u64) {
        // Discards are action indices 0..34, all in the first word.
        let mut new = tiles & ((1u64 << NUM_TILE_TYPES) - 1) & !self.bits[0];
        let mut added = 0u64;
        while new != 0 {
            let i = new.trailing_zeros();
            new &= new - 1;
            let Some(t) = Tile::new(i as u8) else { break };
            if self.list.push(Action::Discard(t)).is_err() {
                break;
            }
            added |= 1u64 << i;
        }
        self.bits[0] |= added;
    }

    /// Whether `action` is legal.
    pub fn contains(&self, action: Action) -> bool {
        let i = action.index();
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Iterates over the legal actions in the order they were found (index order within
    /// each kind: discards, tsumo, kans; or pass, ron, pon, kan, chi).
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.list.iter().copied()
    }

    /// The legal actions as a slice.
    pub fn as_slice(&self) -> &[Action] {
        &self.list
    }

    /// Number of legal actions.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when the seat has nothing to decide.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The legal actions as a flat mask over the action index space.
    pub fn mask(&self) -> [bool; NUM_ACTIONS] {
        core::array::from_fn(|i| {
            self.bits
                .get(i / 64)
                .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
        })
    }

    /// The raw bitset: bit `i % 64` of word `i / 64` is action index `i`.
    pub fn bits(&self) -> [u64; 3] {
        self.bits
    }
}

/// Builds a legal set from a list (duplicates are ignored), e.g. for front-ends that
/// derive the legal actions of a position without a `Game`.
impl FromIterator<Action> for LegalActions {
    fn from_iter<I: IntoIterator<Item = Action>>(iter: I) -> Self {
        let mut out = LegalActions::new();
        for a in iter {
            out.push(a);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip() {
        for i in 0..NUM_ACTIONS {
            let a = Action::from_index(i).unwrap();
            assert_eq!(a.index(), i);
        }
        assert_eq!(Action::from_index(NUM_ACTIONS), None);
        assert_eq!(Action::Pass.index(), 140);
        assert_eq!(Action::Chi(Tile::new(0).unwrap()).index(), 102);
        assert_eq!(Action::Riichi(Tile::new(0).unwrap()).index(), 141);
        assert_eq!(Action::Riichi(Tile::new(33).unwrap()).index(), 174);
        assert_eq!(Action::Kita.index(), 175);
        assert_eq!(Action::NineTerminals.index(), 176);
        for i in 0..POLICY_ACTIONS_V1 {
            assert!(!Action::from_index(i).unwrap().is_riichi_only());
        }
        for i in POLICY_ACTIONS_V1..NUM_ACTIONS {
            assert!(Action::from_index(i).unwrap().is_riichi_only());
        }
    }

    #[test]
    fn display_names() {
        let t = |s: &str| {
            let c = crate::notation::parse_counts(s, crate::tile::TileSet::FourPlayer).unwrap();
            Tile::new(c.iter().position(|&x| x > 0).unwrap() as u8).unwrap()
        };
        assert_eq!(Action::Discard(t("5p")).to_string(), "discard 5p");
        assert_eq!(Action::Chi(t("3m")).to_string(), "chi 345m");
        assert_eq!(Action::Riichi(t("1z")).to_string(), "riichi 1z");
        assert_eq!(Action::Kita.to_string(), "kita");
        assert_eq!(Action::NineTerminals.to_string(), "nine terminals");
        assert_eq!(Action::OpenKan.to_string(), "open kan");
    }

    #[test]
    fn legal_set() {
        let mut l = LegalActions::new();
        l.push(Action::Pass);
        l.push(Action::Pon);
        l.push(Action::Pass);
        assert_eq!(l.len(), 2);
        assert!(l.contains(Action::Pon));
        assert!(!l.contains(Action::Ron));
        let m = l.mask();
        assert!(m[140] && m[138] && !m[137]);
    }

    #[test]
    fn push_discards_is_pushing_each() {
        let t = |i: u8| Tile::new(i).unwrap();
        let mut a = LegalActions::new();
        let mut b = LegalActions::new();
        for l in [&mut a, &mut b] {
            l.push(Action::Discard(t(5)));
            l.push(Action::Pass);
        }
        let mask = (1u64 << 3) | (1 << 5) | (1 << 33) | (1 << 40);
        a.push_discards(mask);
        for i in [3u8, 5, 33] {
            b.push(Action::Discard(t(i)));
        }
        assert_eq!(a, b);
        let mut full = LegalActions::new();
        full.push_discards(u64::MAX);
        let mut each = LegalActions::new();
        for i in 0..34 {
            each.push(Action::Discard(t(i)));
        }
        assert_eq!(full, each);
    }
}
