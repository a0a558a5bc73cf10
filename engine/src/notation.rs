//! mpsz hand notation: `123m456p789s1122z`.
//!
//! Digits are followed by their suit letter (`m` characters, `p` circles, `s` bamboo,
//! `z` honours 1–7 = East South West North White Green Red). Whitespace is ignored.
//! The plain parsers reject `0`; [`parse_with_reds`] reads `0m`, `0p`, `0s` as red fives
//! (a five that counts as a five, and is remembered as red) and [`CountsWithReds`] writes
//! them back. Formatting groups tiles by suit in index order, so `parse` followed by
//! `format` gives the canonical spelling.

use core::fmt;

use crate::tile::{Suit, Tile, TileCounts, TileSet, NUM_TILE_TYPES};

/// Why a string is not a valid hand in mpsz notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that is neither a digit 1–9, a suit letter nor whitespace.
    UnexpectedChar {
        /// Byte offset of the character.
        position: usize,
        /// The character.
        found: char,
    },
    /// A digit that does not name a tile of its suit (`0`, or `8z`, `9z`).
    BadDigit {
        /// Byte offset of the digit.
        position: usize,
        /// The digit.
        digit: u8,
        /// The suit letter that followed.
        suit: char,
    },
    /// Digits at the end with no suit letter after them (`123`).
    MissingSuit,
    /// A suit letter with no digits before it (`m` alone).
    EmptyGroup {
        /// Byte offset of the letter.
        position: usize,
    },
    /// More than four copies of one tile type.
    TooManyCopies {
        /// The tile type.
        tile: Tile,
    },
    /// A tile that does not exist in the tile set (for example 5m in sanma).
    NotInTileSet {
        /// The tile type.
        tile: Tile,
    },
    /// More tiles than the caller's buffer can hold.
    TooManyTiles,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::UnexpectedChar { position, found } => write!(
                f,
                "unexpected character {found:?} at position {position} (expected digits 1-9 followed by m, p, s or z)"
            ),
            ParseError::BadDigit { position, digit, suit } => {
                write!(f, "bad digit {digit} for suit '{suit}' at position {position}")
            }
            ParseError::MissingSuit => write!(f, "digits at the end have no suit letter (m, p, s or z)"),
            ParseError::EmptyGroup { position } => {
                write!(f, "suit letter at position {position} has no digits before it")
            }
            ParseError::TooManyCopies { tile } => write!(f, "more than four copies of {tile}"),
            ParseError::NotInTileSet { tile } => write!(f, "{tile} does not exist in this tile set"),
            ParseError::TooManyTiles => write!(f, "too many tiles"),
        }
    }
}

impl core::error::Error for ParseError {}

/// Parses `s` and calls `push` for each tile in written order.
///
/// Checks digits and suits only; copy limits and tile-set membership are checked by the
/// callers that know what they are building. Errors from `push` abort the parse.
pub fn parse_each(
    s: &str,
    mut push: impl FnMut(Tile) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    parse_digits(s, false, &mut |tile, _| push(tile))
}

/// [`parse_each`] that also accepts `0` of a number suit as a red five: `push` gets the
/// five and `true`.
pub fn parse_each_with_reds(
    s: &str,
    mut push: impl FnMut(Tile, bool) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    parse_digits(s, true, &mut push)
}

fn parse_digits(
    s: &str,
    reds: bool,
    push: &mut dyn FnMut(Tile, bool) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    // Digits are buffered until their suit letter arrives; a hand has at most 18 tiles
    // in a group in practice, but record strings (discard rows) can be longer, so the
    // group is re-scanned from its start offset instead of buffered.
    let bytes = s.as_bytes();
    let mut group_start: Option<usize> = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                if group_start.is_none() {
                    group_start = Some(i);
                }
            }
            b'm' | b'p' | b's' | b'z' => {
                let start = group_start
                    .take()
                    .ok_or(ParseError::EmptyGroup { position: i })?;
                let suit = match b {
                    b'm' => Suit::Man,
                    b'p' => Suit::Pin,
                    b's' => Suit::Sou,
                    _ => Suit::Honor,
                };
                for (j, &d) in bytes[start..i].iter().enumerate() {
                    if d.is_ascii_whitespace() {
                        continue;
                    }
                    let digit = d - b'0';
                    let red = reds && digit == 0 && suit != Suit::Honor;
                    let number = if red { 5 } else { digit };
                    let tile =
                        Tile::from_suit_number(suit, number).ok_or(ParseError::BadDigit {
                            position: start + j,
                            digit,
                            suit: b as char,
                        })?;
                    push(tile, red)?;
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => {
                // Report the full (possibly multi-byte) character.
                let found = s[i..].chars().next().unwrap_or('?');
                return Err(ParseError::UnexpectedChar { position: i, found });
            }
        }
    }
    if group_start.is_some() {
        return Err(ParseError::MissingSuit);
    }
    Ok(())
}

/// Parses a hand into a count array, checking the four-copy limit and the tile set.
pub fn parse_counts(s: &str, tile_set: TileSet) -> Result<TileCounts, ParseError> {
    let mut counts = [0u8; NUM_TILE_TYPES];
    parse_each(s, |tile| {
        if !tile_set.contains(tile) {
            return Err(ParseError::NotInTileSet { tile });
        }
        let c = &mut counts[tile.index()];
        if *c >= 4 {
            return Err(ParseError::TooManyCopies { tile });
        }
        *c += 1;
        Ok(())
    })?;
    Ok(counts)
}

/// A hand in mpsz notation with its red fives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandWithReds {
    /// The tiles; a red five counts as a five.
    pub counts: TileCounts,
    /// How many of the fives of each suit (man, pin, sou) are red.
    pub red_fives: [u8; 3],
}

impl Default for HandWithReds {
    fn default() -> Self {
        HandWithReds {
            counts: [0; NUM_TILE_TYPES],
            red_fives: [0; 3],
        }
    }
}

/// Parses a hand in which `0m`, `0p`, `0s` are red fives, checking the four-copy limit
/// and the tile set like [`parse_counts`]. `parse_with_reds("0055p", ..)` holds four 5p,
/// two of them red.
pub fn parse_with_reds(s: &str, tile_set: TileSet) -> Result<HandWithReds, ParseError> {
    let mut hand = HandWithReds::default();
    parse_each_with_reds(s, |tile, red| {
        if !tile_set.contains(tile) {
            return Err(ParseError::NotInTileSet { tile });
        }
        let c = &mut hand.counts[tile.index()];
        if *c >= 4 {
            return Err(ParseError::TooManyCopies { tile });
        }
        *c += 1;
        if red {
            if let Some(r) = hand.red_fives.get_mut(tile.suit().index()) {
                *r += 1;
            }
        }
        Ok(())
    })?;
    Ok(hand)
}

/// Parses tiles in written order into a bounded vector (for melds and discard rows).
/// Checks the tile set and the buffer capacity, not the copy limit.
pub fn parse_tiles<const N: usize>(
    s: &str,
    tile_set: TileSet,
) -> Result<heapless::Vec<Tile, N>, ParseError> {
    let mut out = heapless::Vec::new();
    parse_each(s, |tile| {
        if !tile_set.contains(tile) {
            return Err(ParseError::NotInTileSet { tile });
        }
        out.push(tile).map_err(|_| ParseError::TooManyTiles)
    })?;
    Ok(out)
}

/// Displays a count array in canonical mpsz notation (`123m456p789s1122z`; empty for none).
#[derive(Clone, Copy)]
pub struct Counts<'a>(pub &'a TileCounts);

impl fmt::Display for Counts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (suit_index, letter) in ['m', 'p', 's', 'z'].into_iter().enumerate() {
            let range = suit_index * 9..(suit_index * 9 + 9).min(NUM_TILE_TYPES);
            let mut any = false;
            for i in range {
                for _ in 0..self.0[i].min(4) {
                    write!(f, "{}", i - suit_index * 9 + 1)?;
                    any = true;
                }
            }
            if any {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

/// Displays a [`HandWithReds`] in canonical mpsz notation, the red fives written `0`
/// just before the other fives of their suit (`340556m`). Red fives beyond the fives
/// held are not written.
#[derive(Clone, Copy)]
pub struct CountsWithReds<'a>(pub &'a HandWithReds);

impl fmt::Display for CountsWithReds<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = self.0;
        for (suit_index, letter) in ['m', 'p', 's', 'z'].into_iter().enumerate() {
            let range = suit_index * 9..(suit_index * 9 + 9).min(NUM_TILE_TYPES);
            let mut any = false;
            for i in range {
                let number = i - suit_index * 9 + 1;
                let copies = hand.counts[i].min(4);
                let red = if number == 5 {
                    hand.red_fives
                        .get(suit_index)
                        .copied()
                        .unwrap_or(0)
                        .min(copies)
                } else {
                    0
                };
                for k in 0..copies {
                    let digit = if k < red { 0 } else { number };
                    write!(f, "{digit}")?;
                    any = true;
                }
            }
            if any {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

/// Displays tiles in the given order in mpsz notation, merging runs of one suit
/// (`[1m, 2m, 5p]` → `12m5p`).
#[derive(Clone, Copy)]
pub struct Tiles<'a>(pub &'a [Tile]);

impl fmt::Display for Tiles<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut iter = self.0.iter().peekable();
        while let Some(tile) = iter.next() {
            write!(f, "{}", tile.number())?;
            let same_suit_next = iter.peek().is_some_and(|n| n.suit() == tile.suit());
            if !same_suit_next {
                write!(f, "{}", tile.suit().letter())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    #[test]
    fn parse_and_format_round_trip() {
        let table = [
            ("123m456p789s1122z", "123m456p789s1122z"),
            ("1m 1m 1m", "111m"),
            ("321m", "123m"),
            ("7z5z", "57z"),
            ("", ""),
        ];
        for (input, canonical) in table {
            let counts = parse_counts(input, TileSet::FourPlayer).unwrap();
            assert_eq!(Counts(&counts).to_string(), canonical, "{input}");
        }
    }

    #[test]
    fn parse_errors() {
        use ParseError::*;
        let table: [(&str, TileSet, ParseError); 9] = [
            (
                "123x",
                TileSet::FourPlayer,
                UnexpectedChar {
                    position: 3,
                    found: 'x',
                },
            ),
            (
                "10m",
                TileSet::FourPlayer,
                BadDigit {
                    position: 1,
                    digit: 0,
                    suit: 'm',
                },
            ),
            (
                "8z",
                TileSet::FourPlayer,
                BadDigit {
                    position: 0,
                    digit: 8,
                    suit: 'z',
                },
            ),
            ("123", TileSet::FourPlayer, MissingSuit),
            ("m", TileSet::FourPlayer, EmptyGroup { position: 0 }),
            (
                "11111m",
                TileSet::FourPlayer,
                TooManyCopies {
                    tile: Tile::new(0).unwrap(),
                },
            ),
            (
                "5m",
                TileSet::Sanma,
                NotInTileSet {
                    tile: Tile::new(4).unwrap(),
                },
            ),
            (
                "1m\u{e9}",
                TileSet::FourPlayer,
                UnexpectedChar {
                    position: 2,
                    found: '\u{e9}',
                },
            ),
            ("mm", TileSet::FourPlayer, EmptyGroup { position: 0 }),
        ];
        for (input, set, err) in table {
            assert_eq!(parse_counts(input, set), Err(err), "{input}");
            // Every error has a message.
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn red_fives() {
        let table: [(&str, [u8; 3], &str); 5] = [
            ("0m", [1, 0, 0], "0m"),
            ("5550p", [0, 1, 0], "0555p"),
            ("123m406p0s", [0, 1, 1], "123m406p0s"),
            ("1z", [0, 0, 0], "1z"),
            ("00m", [2, 0, 0], "00m"),
        ];
        for (input, reds, canonical) in table {
            let hand = parse_with_reds(input, TileSet::FourPlayer).unwrap();
            assert_eq!(hand.red_fives, reds, "{input}");
            assert_eq!(CountsWithReds(&hand).to_string(), canonical, "{input}");
            // A red five is a five for the plain counts.
            let plain = input.replace('0', "5");
            assert_eq!(
                hand.counts,
                parse_counts(&plain, TileSet::FourPlayer).unwrap()
            );
        }
        assert_eq!(
            parse_with_reds("0z", TileSet::FourPlayer),
            Err(ParseError::BadDigit {
                position: 0,
                digit: 0,
                suit: 'z'
            })
        );
        assert_eq!(
            parse_with_reds("0m", TileSet::Sanma),
            Err(ParseError::NotInTileSet {
                tile: Tile::new(4).unwrap()
            })
        );
        assert_eq!(
            parse_with_reds("05550p", TileSet::FourPlayer),
            Err(ParseError::TooManyCopies {
                tile: Tile::new(13).unwrap()
            })
        );
        // The plain parser keeps rejecting 0.
        assert!(parse_counts("0m", TileSet::FourPlayer).is_err());
    }

    #[test]
    fn ordered_tiles() {
        let tiles: heapless::Vec<Tile, 8> = parse_tiles("1m2m5p1z", TileSet::FourPlayer).unwrap();
        assert_eq!(Tiles(&tiles).to_string(), "12m5p1z");
        assert_eq!(
            parse_tiles::<2>("123m", TileSet::FourPlayer),
            Err(ParseError::TooManyTiles)
        );
    }
}
