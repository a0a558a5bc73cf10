//! Tile types, tile sets and count arrays.
//!
//! A tile *type* is one of 34 kinds; a physical wall holds up to four copies of each.
//! Index convention (shared with the reference vectors and peers such as Mortal and
//! xiangting): `0..=8` = 1m–9m, `9..=17` = 1p–9p, `18..=26` = 1s–9s,
//! `27..=33` = East, South, West, North, White, Green, Red (1z–7z).

use serde::{Deserialize, Serialize};

/// Number of tile types.
pub const NUM_TILE_TYPES: usize = 34;

/// How many of each tile type a hand holds, indexed by [`Tile::index`].
pub type TileCounts = [u8; NUM_TILE_TYPES];

/// One tile type, `0..34`. Construct with [`Tile::new`] (checked) or the constants.
// Deserialisation goes through `TryFrom<u8>` so that a corrupt record cannot smuggle in
// an index outside `0..34`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct Tile(u8);

/// The error of converting a byte that is not a tile index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NotATile(pub u8);

impl core::fmt::Display for NotATile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} is not a tile index (0..34)", self.0)
    }
}

impl TryFrom<u8> for Tile {
    type Error = NotATile;
    fn try_from(index: u8) -> Result<Tile, NotATile> {
        Tile::new(index).ok_or(NotATile(index))
    }
}

/// The four suits; honours (winds and dragons) are the fourth.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Suit {
    /// Characters, `m`.
    Man,
    /// Circles, `p`.
    Pin,
    /// Bamboo, `s`.
    Sou,
    /// Winds and dragons, `z`.
    Honor,
}

impl Suit {
    /// The mpsz letter of this suit.
    pub const fn letter(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honor => 'z',
        }
    }

    /// Index of the suit: 0 = man, 1 = pin, 2 = sou, 3 = honours.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Tile {
    /// East wind (1z).
    pub const EAST: Tile = Tile(27);
    /// White dragon (5z).
    pub const WHITE: Tile = Tile(31);
    /// Red dragon (7z).
    pub const RED: Tile = Tile(33);

    /// The tile with index `index`, or `None` when `index >= 34`.
    pub const fn new(index: u8) -> Option<Tile> {
        if (index as usize) < NUM_TILE_TYPES {
            Some(Tile(index))
        } else {
            None
        }
    }

    /// Builds a tile from a suit and a number (1..=9 for suits, 1..=7 for honours).
    pub const fn from_suit_number(suit: Suit, number: u8) -> Option<Tile> {
        let max = if matches!(suit, Suit::Honor) { 7 } else { 9 };
        if number == 0 || number > max {
            return None;
        }
        Some(Tile((suit as u8) * 9 + number - 1))
    }

    /// The index `0..34`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw index as a byte.
    pub const fn as_u8(self) -> u8 {
        self.0
    }

    /// The suit of this tile.
    pub const fn suit(self) -> Suit {
        match self.0 / 9 {
            0 => Suit::Man,
            1 => Suit::Pin,
            2 => Suit::Sou,
            _ => Suit::Honor,
        }
    }

    /// The number within the suit: 1..=9, or 1..=7 for honours.
    pub const fn number(self) -> u8 {
        self.0 % 9 + 1
    }

    /// True for winds and dragons.
    pub const fn is_honor(self) -> bool {
        self.0 >= 27
    }

    /// True for dragons (white, green, red).
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// True for 1 and 9 of a suit.
    pub const fn is_terminal(self) -> bool {
        !self.is_honor() && (self.0 % 9 == 0 || self.0 % 9 == 8)
    }

    /// True for terminals and honours (the thirteen-orphans tiles).
    pub const fn is_terminal_or_honor(self) -> bool {
        self.is_honor() || self.is_terminal()
    }

    /// The next tile in the same suit (for sequences), if any.
    pub const fn next_in_suit(self) -> Option<Tile> {
        if self.is_honor() || self.0 % 9 == 8 {
            None
        } else {
            Some(Tile(self.0 + 1))
        }
    }

    /// Iterates over all 34 tile types in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..NUM_TILE_TYPES as u8).map(Tile)
    }

    /// The Unicode mahjong glyph (U+1F000 block) of this tile.
    pub const fn glyph(self) -> char {
        // The Unicode block orders winds E S W N, then dragons Red Green White,
        // then characters, bamboo, circles.
        let code: u32 = match self.suit() {
            Suit::Man => 0x1F007 + self.0 as u32,
            Suit::Sou => 0x1F010 + (self.0 as u32 - 18),
            Suit::Pin => 0x1F019 + (self.0 as u32 - 9),
            Suit::Honor => match self.0 {
                27..=30 => 0x1F000 + (self.0 as u32 - 27),
                31 => 0x1F006,
                32 => 0x1F005,
                _ => 0x1F004,
            },
        };
        match char::from_u32(code) {
            Some(c) => c,
            None => '?',
        }
    }
}

impl core::fmt::Display for Tile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.number(), self.suit().letter())
    }
}

/// Which physical tiles exist: the full four-player set or the three-player (sanma) set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Serialize, Deserialize, Default)]
pub enum TileSet {
    /// All 34 types, 136 tiles.
    FourPlayer,
    /// Sanma: 2m–8m removed, 27 types, 108 tiles. 1m and 9m then behave like honours
    /// for hand shapes (no man sequences can be formed).
    #[default]
    Sanma,
}

const FULL_FOUR_PLAYER: TileCounts = TileSet::FourPlayer.compute_full_counts();
const FULL_SANMA: TileCounts = TileSet::Sanma.compute_full_counts();

impl TileSet {
    /// Whether tile type `tile` exists in this set.
    pub const fn contains(self, tile: Tile) -> bool {
        match self {
            TileSet::FourPlayer => true,
            TileSet::Sanma => !(tile.0 >= 1 && tile.0 <= 7),
        }
    }

    /// Number of tile types in the set.
    pub const fn num_types(self) -> usize {
        match self {
            TileSet::FourPlayer => 34,
            TileSet::Sanma => 27,
        }
    }

    /// Number of physical tiles (four copies of each type).
    pub const fn num_tiles(self) -> usize {
        self.num_types() * 4
    }

    /// Iterates over the tile types of the set in index order.
    pub fn tiles(self) -> impl Iterator<Item = Tile> {
        Tile::all().filter(move |&t| self.contains(t))
    }

    /// The full count array of the set: 4 of every existing type, 0 elsewhere.
    pub fn full_counts(self) -> TileCounts {
        match self {
            TileSet::FourPlayer => FULL_FOUR_PLAYER,
            TileSet::Sanma => FULL_SANMA,
        }
    }

    /// [`TileSet::full_counts`], computed at compile time.
    const fn compute_full_counts(self) -> TileCounts {
        let mut counts = [0u8; NUM_TILE_TYPES];
        let mut i = 0;
        while i < NUM_TILE_TYPES {
            if self.contains(Tile(i as u8)) {
                counts[i] = 4;
            }
            i += 1;
        }
        counts
    }

    /// Short name used on command lines and in records: `sanma` or `four-player`.
    pub const fn name(self) -> &'static str {
        match self {
            TileSet::FourPlayer => "four-player",
            TileSet::Sanma => "sanma",
        }
    }
}

/// Sum of a count array.
pub fn count_tiles(counts: &TileCounts) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_convention() {
        assert_eq!(Tile::from_suit_number(Suit::Man, 1), Tile::new(0));
        assert_eq!(Tile::from_suit_number(Suit::Pin, 9), Tile::new(17));
        assert_eq!(Tile::from_suit_number(Suit::Sou, 5), Tile::new(22));
        assert_eq!(Tile::from_suit_number(Suit::Honor, 7), Tile::new(33));
        assert_eq!(Tile::from_suit_number(Suit::Honor, 8), None);
        assert_eq!(Tile::new(34), None);
        assert!(Tile::new(8).unwrap().is_terminal());
        assert!(!Tile::new(9 + 4).unwrap().is_terminal_or_honor());
        assert_eq!(Tile::all().filter(|t| t.is_terminal_or_honor()).count(), 13);
    }

    #[test]
    fn sanma_set() {
        assert_eq!(TileSet::Sanma.tiles().count(), 27);
        assert_eq!(TileSet::Sanma.num_tiles(), 108);
        assert!(TileSet::Sanma.contains(Tile::new(0).unwrap()));
        assert!(TileSet::Sanma.contains(Tile::new(8).unwrap()));
        assert!(!TileSet::Sanma.contains(Tile::new(4).unwrap()));
        assert_eq!(count_tiles(&TileSet::FourPlayer.full_counts()), 136);
    }

    #[test]
    fn full_counts_match_tiles() {
        for set in [TileSet::FourPlayer, TileSet::Sanma] {
            let mut counts = [0u8; NUM_TILE_TYPES];
            for t in set.tiles() {
                counts[t.index()] = 4;
            }
            assert_eq!(set.full_counts(), counts);
        }
    }

    #[test]
    fn glyphs() {
        assert_eq!(Tile::EAST.glyph(), '\u{1F000}');
        assert_eq!(Tile::RED.glyph(), '\u{1F004}');
        assert_eq!(Tile::new(0).unwrap().glyph(), '\u{1F007}');
        assert_eq!(Tile::new(9).unwrap().glyph(), '\u{1F019}');
        assert_eq!(Tile::new(18).unwrap().glyph(), '\u{1F010}');
    }
}
