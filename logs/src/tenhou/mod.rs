//! Tenhou's JSON replay format (the `tenhou.net/6` editor's and viewer's JSON):
//!
//! ```text
//! {"title": [..], "name": [4 names], "rule": {"disp": "般南喰赤", "aka": 1},
//!  "log": [[ [kyoku, honba, sticks], [scores×4], [dora indicators], [ura indicators],
//!            haipai0, draws0, discards0, ..., haipai3, draws3, discards3, result ]]}
//! ```
//!
//! Sources (facts only, no code taken): tenhou.net/6 exports and the public converters
//! that read and write them — mjai-reviewer's `convlog` (`convlog/src/conv.rs`: the
//! call strings by the place of their letter), tsubakisakura's `mjlog2json` (the JSON
//! Tenhou's own `mjlog2json.cgi` writes, checked there against mjlog XML), RiichiEnv's
//! `tenhou_json.md` and video2tenhou's `tenhou.py` — and real logs from public test
//! suites (mjai-reviewer's `convlog/tests/testdata`, mjlog2json's `data/`), read to
//! find the cases below; they are not committed (issue 32: the corpus is to come
//! through the steering repository's `shared/`).
//!
//! - `kyoku` is `4 · round + dealer` (three-player logs too: their dealers are 0..=2).
//! - Tiles: `11..19` man, `21..29` pin, `31..39` sou, `41..47` E S W N white green red,
//!   `51/52/53` the red 5m/5p/5s (anywhere a tile stands, call strings included).
//! - Discard lists: a number is a tile from the hand, `60` the tile just drawn
//!   (tsumogiri), `"r<tile>"` (`"r60"` too) declares riichi with that discard, `0` is
//!   the placeholder an open kan leaves (its replacement draw follows in the draw list).
//! - Calls on a discard replace a draw in the claimant's draw list: chi
//!   `"c<called><a><b>"` (always from kamicha); pon `"p<called>"` written among its two
//!   own tiles at the place of the seat it came from — first: kamicha (`p424242`),
//!   middle: toimen (`42p4242`), last: shimocha (`4242p42`); open kan `"m<called>"`
//!   among three own tiles likewise (`m42424242`, `42m424242`, `424242m42`).
//! - Calls on the own turn replace a discard: closed kan `"<t><t><t>a<t>"` (four tiles,
//!   one may be a red five), added kan `"k<added>"` at the place its pon's called tile
//!   had (`k42424242`, `42k424242`, `4242k4242`), kita `"f44"` (sanma).
//! - Three-player logs keep the four-seat frame: seats 0..=2 play, the fourth seat's
//!   lists are empty, and the place of a call's letter names the source relative to
//!   the claimant in that frame (seat + 3: first, seat + 2: middle, seat + 1: last, mod
//!   4), so seat 0 calls seat 2's discards and seat 2 seat 0's in the middle ("across")
//!   place (`39m393939`, `42p4242`). The reader takes the source from the table order
//!   (the seat whose discard it is) and checks that the place names it; it also
//!   accepts the three-seat frame this project wrote before (first: seat + 2, last:
//!   seat + 1, mod 3).
//! - The result: `["和了", deltas, [winner, from, pao, "<fu>符<han>飜<points>点" or a
//!   limit name, yaku…], …]` (one pair per winner; one ura list for the hand) or a
//!   draw name with optional deltas: `流局`, `全員聴牌`, `全員不聴`, `流し満貫`
//!   (exhaustive draws), `九種九牌`, `四風連打`, `四家立直`, `四槓散了`, `三家和了`.

mod calls;
mod interleave;
mod result;
mod write;

use anyhow::{bail, Context, Result};
use engine::{Rules, Suit, Tile};
use serde_json::Value;

pub use write::write;

use super::{preset_for, GameLog, Kyoku, LogTile, Site, Step};

/// The Tenhou number of a tile (`51..53` for red fives).
pub fn tile_code(t: LogTile) -> u32 {
    if t.red {
        return 51 + t.tile.suit().index() as u32;
    }
    let base = match t.tile.suit() {
        Suit::Man => 10,
        Suit::Pin => 20,
        Suit::Sou => 30,
        Suit::Honor => 40,
    };
    base + u32::from(t.tile.number())
}

/// The tile of a Tenhou number.
pub fn parse_tile(code: u64) -> Option<LogTile> {
    let (suit, n, red) = match code {
        51..=53 => (code - 51, 5, true),
        11..=47 => (code / 10 - 1, code % 10, false),
        _ => return None,
    };
    let suit = match suit {
        0 => Suit::Man,
        1 => Suit::Pin,
        2 => Suit::Sou,
        3 => Suit::Honor,
        _ => return None,
    };
    let tile = Tile::from_suit_number(suit, u8::try_from(n).ok()?)?;
    Some(LogTile { tile, red })
}

/// Reads a Tenhou JSON log; `rules` overrides the preset chosen from `rule.disp`.
pub fn read(text: &str, rules: Option<Rules>) -> Result<GameLog> {
    let v: Value = serde_json::from_str(text).context("not JSON (truncated or malformed?)")?;
    let log = v
        .get("log")
        .and_then(Value::as_array)
        .context("no \"log\" array")?;
    let names: Vec<String> = v
        .get("name")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|n| n.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let rules = match rules {
        Some(r) => r,
        None => rules_of(&v, log)?,
    };
    let kyokus = log
        .iter()
        .enumerate()
        .map(|(i, k)| read_kyoku(k, &rules).with_context(|| format!("log[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    Ok(GameLog {
        names,
        rules,
        kyokus,
    })
}

/// The preset of `rule.disp` (`三` for three players, `南` hanchan, `東` east-only, a
/// Mahjong Soul room for Mahjong Soul's rules, [`site_of`]); without one, the player
/// count from the first hand, hanchan and Tenhou.
fn rules_of(v: &Value, log: &[Value]) -> Result<Rules> {
    let disp = v
        .get("rule")
        .and_then(|r| r.get("disp"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let empty_fourth = log
        .first()
        .and_then(|k| k.get(13))
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty);
    let players = if disp.contains('三') || disp.contains("3-Player") || empty_fourth {
        3
    } else {
        4
    };
    let hanchan = !(disp.contains('東') || disp.contains("East")) || disp.contains('南');
    preset_for(players, hanchan, site_of(v))
        .with_context(|| format!("no preset for the rule {disp:?} (use --rules)"))
}

/// Mahjong Soul's room names as its converters write them into `rule.disp` (tensoul
/// and the Mahjong Soul log exporters write the room, e.g. `玉の間四人南`, `王座の間三人東`,
/// or its English name, `Jade Room`; Tenhou's own `disp` names a 卓 such as `四鳳南喰赤`
/// and never a 間), and the site's name in `title` or `disp`.
const MAHJONG_SOUL_MARKS: [&str; 11] = [
    "の間",
    "雀魂",
    "Mahjong Soul",
    "MahjongSoul",
    "Majsoul",
    "majsoul",
    "Bronze Room",
    "Silver Room",
    "Gold Room",
    "Jade Room",
    "Throne Room",
];

/// The site whose rules a Tenhou-format log was played under: Mahjong Soul when its
/// `rule.disp` or `title` carries one of [`MAHJONG_SOUL_MARKS`], Tenhou otherwise.
pub fn site_of(v: &Value) -> Site {
    let disp = v
        .get("rule")
        .and_then(|r| r.get("disp"))
        .and_then(Value::as_str);
    let titles = v.get("title").and_then(Value::as_array);
    let mut texts = disp
        .into_iter()
        .chain(titles.into_iter().flatten().filter_map(Value::as_str));
    if texts.any(|t| MAHJONG_SOUL_MARKS.iter().any(|m| t.contains(m))) {
        Site::MahjongSoul
    } else {
        Site::Tenhou
    }
}

fn tiles(v: Option<&Value>, what: &str) -> Result<Vec<LogTile>> {
    v.and_then(Value::as_array)
        .with_context(|| format!("{what}: not an array"))?
        .iter()
        .map(|x| {
            x.as_u64()
                .and_then(parse_tile)
                .with_context(|| format!("{what}: {x} is not a tile"))
        })
        .collect()
}

fn read_kyoku(k: &Value, rules: &Rules) -> Result<Kyoku> {
    let a = k.as_array().context("a hand is not an array")?;
    let head = a
        .first()
        .and_then(Value::as_array)
        .context("[kyoku, honba, sticks]")?;
    let num = |i: usize| head.get(i).and_then(Value::as_u64).unwrap_or(0);
    let n = rules.players;
    let kyoku = num(0);
    let (round, dealer) = (u8::try_from(kyoku / 4)?, u8::try_from(kyoku % 4)?);
    if dealer >= n {
        bail!("kyoku {kyoku}: dealer seat {dealer} under {n}-player rules");
    }
    let mut scores = [0i32; 4];
    for (s, x) in scores
        .iter_mut()
        .zip(a.get(1).and_then(Value::as_array).context("scores")?)
    {
        *s = i32::try_from(x.as_i64().context("a score is not a number")?)?;
    }
    let mut hands = Vec::new();
    let mut draws = Vec::new();
    let mut discards = Vec::new();
    for s in 0..n as usize {
        hands.push(tiles(a.get(4 + 3 * s), &format!("seat {s} haipai"))?);
        let list = |i: usize, what: &str| {
            a.get(i)
                .and_then(Value::as_array)
                .cloned()
                .with_context(|| format!("seat {s} {what}: not an array"))
        };
        draws.push(list(5 + 3 * s, "draws")?);
        discards.push(list(6 + 3 * s, "discards")?);
    }
    let outcome = a.get(16).map(result::read).transpose().context("result")?;
    let mut steps = interleave::interleave(n, dealer, &draws, &discards)?;
    if let Some(o) = &outcome {
        for w in &o.wins {
            steps.push(match w.from {
                Some(from) => Step::Ron { seat: w.seat, from },
                None => Step::Tsumo { seat: w.seat },
            });
        }
        if o.draw.as_deref() == Some("NineTerminals") {
            let seat = steps.last().map(Step::seat).unwrap_or(dealer);
            steps.push(Step::NineTerminals { seat });
        }
    }
    Ok(Kyoku {
        round,
        dealer,
        honba: u8::try_from(num(1))?,
        sticks: u8::try_from(num(2))?,
        scores,
        hands,
        dora: tiles(a.get(2), "dora")?,
        ura: tiles(a.get(3), "ura")?,
        steps,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mahjong_soul_rooms_choose_mahjong_soul_rules() {
        let log = |disp: &str, title: &str| serde_json::json!({"title": [title, ""], "rule": {"disp": disp, "aka": 1}, "log": []});
        for (disp, title, site) in [
            ("玉の間四人南", "", Site::MahjongSoul),
            ("王座の間三人東", "", Site::MahjongSoul),
            ("Throne Room South", "", Site::MahjongSoul),
            ("", "雀魂牌譜", Site::MahjongSoul),
            ("四鳳南喰赤", "", Site::Tenhou),
            ("三般東喰赤", "", Site::Tenhou),
            ("", "", Site::Tenhou),
        ] {
            assert_eq!(site_of(&log(disp, title)), site, "{disp} {title}");
        }
        let rules = |disp: &str| rules_of(&log(disp, ""), &[]).unwrap();
        assert_eq!(rules("玉の間四人南"), Rules::majsoul_4p());
        assert_eq!(rules("金の間三人東"), Rules::majsoul_sanma().east_only());
        assert_eq!(rules("三鳳南喰赤"), Rules::tenhou_sanma());
        assert_eq!(rules("般東喰赤"), Rules::tenhou_4p().east_only());
    }
}
