//! Call strings: the tiles of `"p424242"`-like strings, the place of their letter and
//! the seat it names (see the module docs of [`super`] for the format and its
//! sources).

use anyhow::{bail, Context, Result};
use engine::Tile;

use super::{parse_tile, tile_code};
use crate::{CallKind, LogTile, Step};

/// The tiles of a call string (two digits each) and the index of the marker letter among
/// them.
pub(super) fn call_tiles(s: &str, marker: char) -> Result<(Vec<LogTile>, usize)> {
    let pos = s.find(marker).context("no marker")?;
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if digits.len() + 1 != s.len() || digits.len() % 2 != 0 || pos % 2 != 0 {
        bail!("malformed call string {s:?}");
    }
    let tiles = (0..digits.len() / 2)
        .map(|i| {
            let code: u64 = digits
                .get(2 * i..2 * i + 2)
                .and_then(|d| d.parse().ok())
                .context("digits")?;
            parse_tile(code).with_context(|| format!("{code} is not a tile in {s:?}"))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((tiles, pos / 2))
}

/// The offset (in the four-seat frame) of the seat a call's letter at `place` among
/// `len` tiles names: first kamicha (+3), middle toimen (+2), last shimocha (+1). A
/// kan's four tiles have two middle places; Tenhou writes toimen at the first of them
/// and shimocha at the last, and the second middle one is read as shimocha too.
fn offset(place: usize, len: usize) -> Option<u8> {
    match place {
        0 => Some(3),
        1 => Some(2),
        p if p + 1 == len || (len == 4 && p == 2) => Some(1),
        _ => None,
    }
}

/// The seats a call by `seat` with its letter at `place` among `len` tiles may name,
/// under `n` players: in four-player logs one; in three-player logs the seat of
/// Tenhou's four-seat frame (none when it is the empty fourth seat) and the seat of
/// the three-seat frame this project wrote before (first: kamicha, last: shimocha).
pub(super) fn sources(seat: u8, place: usize, len: usize, n: u8) -> Vec<u8> {
    let Some(off) = offset(place, len) else {
        return Vec::new();
    };
    let four = (seat + off) % 4;
    let mut out = Vec::new();
    if four < n {
        out.push(four);
    }
    if n == 3 {
        let three = match off {
            3 => Some((seat + 2) % 3),
            1 => Some((seat + 1) % 3),
            _ => None,
        };
        if let Some(t) = three.filter(|t| !out.contains(t)) {
            out.push(t);
        }
    }
    out
}

/// The place of the letter for a call by `seat` from `from` among `len` tiles, in the
/// four-seat frame (three-player logs too; inverse of [`sources`]).
pub(super) fn place(seat: u8, from: u8, len: usize) -> usize {
    match (from + 4 - seat % 4) % 4 {
        3 => 0,
        2 => 1,
        _ => len.saturating_sub(1),
    }
}

/// A chi, pon or open kan of a draw-list string: kind, the place of the called tile,
/// the called tile, the consumed tiles.
pub(super) struct Claim {
    pub kind: CallKind,
    pub place: usize,
    pub len: usize,
    pub called: LogTile,
    pub consumed: Vec<LogTile>,
}

/// The chi, pon or open kan of a draw-list string.
pub(super) fn parse_claim(s: &str) -> Result<Claim> {
    let (kind, marker) = match s.chars().find(char::is_ascii_alphabetic) {
        Some('c') => (CallKind::Chi, 'c'),
        Some('p') => (CallKind::Pon, 'p'),
        Some('m') => (CallKind::OpenKan, 'm'),
        _ => bail!("unknown call notation {s:?} in a draw list"),
    };
    let (mut t, place) = call_tiles(s, marker)?;
    let want = if kind == CallKind::OpenKan { 4 } else { 3 };
    if t.len() != want || place >= t.len() {
        bail!("call {s:?}: {} tiles, expected {want}", t.len());
    }
    if kind == CallKind::Chi && place != 0 {
        bail!("chi {s:?}: the called tile must come first (chi is from kamicha)");
    }
    let len = t.len();
    let called = t.remove(place);
    let same = t.iter().all(|x| x.tile == called.tile);
    if kind != CallKind::Chi && !same {
        bail!("call {s:?}: not {want} of a kind");
    }
    Ok(Claim {
        kind,
        place,
        len,
        called,
        consumed: t,
    })
}

/// A closed kan, added kan or kita of a discard-list string by `seat` (`steps`: the
/// hand so far, where an added kan's pon is).
pub(super) fn self_call(s: &str, seat: u8, n: u8, steps: &[Step]) -> Result<Step> {
    if s == "f44" {
        return Ok(Step::Kita { seat });
    }
    if s.contains('a') {
        let (tiles, _) = call_tiles(s, 'a')?;
        let first = tiles.first().map(|t| t.tile);
        if tiles.len() != 4 || tiles.iter().any(|t| Some(t.tile) != first) {
            bail!("closed kan {s:?}: not four of a kind");
        }
        return Ok(Step::ClosedKan { seat, tiles });
    }
    if s.contains('k') {
        let (mut tiles, place) = call_tiles(s, 'k')?;
        if tiles.len() != 4 || place >= 3 {
            bail!("added kan {s:?}: malformed");
        }
        let tile = tiles.remove(place);
        if tiles.iter().any(|t| t.tile != tile.tile) {
            bail!("added kan {s:?}: not four of a kind");
        }
        // The pon's source is known from the hand; the letter's place says it too.
        let from = pon_source(steps, seat, tile.tile)
            .or_else(|| sources(seat, place, 3, n).first().copied())
            .with_context(|| format!("added kan {s:?}: no pon of that tile"))?;
        return Ok(Step::AddedKan {
            seat,
            tile,
            pon: tiles,
            from,
        });
    }
    bail!("unknown call notation {s:?} in a discard list")
}

fn pon_source(steps: &[Step], seat: u8, t: Tile) -> Option<u8> {
    steps.iter().find_map(|s| match s {
        Step::Call {
            seat: c,
            kind: CallKind::Pon,
            from,
            tile,
            ..
        } if *c == seat && tile.tile == t => Some(*from),
        _ => None,
    })
}

/// The call string of a claim (`marker` `c`, `p`, `m` or `k`) with the called tile at
/// its source's place.
pub(super) fn claim_string(
    marker: char,
    seat: u8,
    from: u8,
    called: LogTile,
    own: &[LogTile],
) -> String {
    let mut parts: Vec<String> = own.iter().map(|&t| tile_code(t).to_string()).collect();
    // An added kan's letter stands at its pon's place among three tiles.
    let len = if marker == 'k' { 3 } else { own.len() + 1 };
    let at = if marker == 'c' {
        0
    } else {
        place(seat, from, len)
    }
    .min(parts.len());
    parts.insert(at, format!("{marker}{}", tile_code(called)));
    parts.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_of_the_letter_names_its_seat() {
        // Four players: seat 1 claims from 0 (kamicha), 3 (toimen), 2 (shimocha).
        for (s, len, want) in [
            ("p424242", 3, 0),
            ("42p4242", 3, 3),
            ("4242p42", 3, 2),
            ("m42424242", 4, 0),
            ("42m424242", 4, 3),
            ("424242m42", 4, 2),
        ] {
            let c = parse_claim(s).unwrap();
            assert_eq!(
                (c.len, sources(1, c.place, len, 4)),
                (len, vec![want]),
                "{s}"
            );
            assert_eq!(place(1, want, len), c.place, "{s}");
            assert_eq!(
                claim_string(
                    s.chars().find(|c| c.is_ascii_alphabetic()).unwrap(),
                    1,
                    want,
                    c.called,
                    &c.consumed
                ),
                s
            );
        }
    }

    #[test]
    fn sanma_uses_the_four_seat_frame() {
        // Seat 0 calls seat 2 in the middle place, seat 2 calls seat 0 there.
        assert_eq!(sources(0, 1, 4, 3), vec![2]);
        assert_eq!(sources(2, 1, 3, 3), vec![0]);
        // Seat 1's toimen is the empty seat.
        assert!(sources(1, 1, 3, 3).is_empty());
        // The three-seat frame of older writers: seat 0's first place is seat 2.
        assert_eq!(sources(0, 0, 3, 3), vec![2]);
        assert_eq!(place(0, 2, 4), 1);
        assert_eq!(place(2, 0, 3), 1);
        assert_eq!(place(1, 0, 3), 0);
        assert_eq!(place(1, 2, 3), 2);
    }

    #[test]
    fn red_fives_and_bad_strings() {
        let c = parse_claim("c522324").unwrap();
        assert!(c.called.red && c.consumed.len() == 2);
        let k = self_call("252552a25", 0, 4, &[]).unwrap();
        assert!(
            matches!(k, Step::ClosedKan { ref tiles, .. } if tiles.iter().filter(|t| t.red).count() == 1)
        );
        assert!(parse_claim("42c4345").is_err());
        assert!(parse_claim("p424243").is_err());
        assert!(self_call("4242a43", 0, 4, &[]).is_err());
    }
}
