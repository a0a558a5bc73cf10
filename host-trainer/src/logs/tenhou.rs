//! Tenhou's JSON replay format (the `tenhou.net/6` editor's and viewer's JSON):
//!
//! ```text
//! {"title": [..], "name": [4 names], "rule": {"disp": "般南喰赤", "aka": 1},
//!  "log": [[ [kyoku, honba, sticks], [scores×4], [dora indicators], [ura indicators],
//!            haipai0, draws0, discards0, ..., haipai3, draws3, discards3, result ]]}
//! ```
//!
//! Facts of the format, as documented by the public converters (mjai-reviewer's
//! `convlog`, RiichiEnv's `tenhou_json.md`, video2tenhou's `tenhou.py`) and tenhou.net/6
//! exports: `kyoku` is `4 · round + dealer`; tiles are `11..19` man, `21..29` pin,
//! `31..39` sou, `41..47` E S W N white green red, `51/52/53` the red 5m/5p/5s; a discard
//! of `60` is the tile just drawn (tsumogiri); `"r<tile>"` declares riichi with that
//! discard. Calls that replace a draw stand in the draw list: chi `"c<called><a><b>"`,
//! pon `"p<called>"` at the place of its source among the two own tiles (first:
//! kamicha, middle: toimen, last: shimocha), open kan `"m<called>"` likewise among three
//! (the last place for shimocha), followed by a `0` in the discard list. Calls that
//! replace a discard stand in the discard list: closed kan `"<t><t><t>a<t>"`, added kan
//! `"k<added>"` at its pon's place, kita `"f44"` (sanma). Three-player logs leave the
//! fourth seat's lists empty. The result is `["和了", deltas, [winner, from, pao,
//! "<fu>符<han>飜<points>点", yaku…], …]` (one pair per winner) or a draw name
//! (`流局`, `全員聴牌`, `全員不聴`, `九種九牌`, `四風連打`, `四家立直`, `四槓散了`,
//! `三家和了`, `流し満貫`) with optional deltas.

use anyhow::{bail, Context, Result};
use engine::{Rules, Suit, Tile};
use serde_json::{json, Value};

use super::{preset_for, CallKind, GameLog, Kyoku, LogTile, LogWin, Outcome, Step};

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

/// The tiles of a call string (two digits each) and the index of the marker letter among
/// them.
fn call_tiles(s: &str, marker: char) -> Result<(Vec<LogTile>, usize)> {
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

/// The seat a claim came from, by the place of the called tile (0 kamicha, 1 toimen,
/// 2 shimocha; a kan's shimocha is at place 3).
fn source(seat: u8, place: usize, n: u8, kan: bool) -> Option<u8> {
    let rel = match (place, kan) {
        (0, _) => n - 1,
        (1, _) if n == 4 => 2,
        (2, false) | (3, true) => 1,
        _ => return None,
    };
    Some((seat + rel) % n)
}

/// The place of the called tile for a claim of `seat` from `from` (inverse of
/// [`source`]).
fn place(seat: u8, from: u8, n: u8, kan: bool) -> usize {
    let rel = (from + n - seat) % n;
    match (rel, n) {
        (1, _) if kan => 3,
        (1, _) => 2,
        (2, 4) => 1,
        _ => 0,
    }
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

/// The preset of `rule.disp` (`三` for three players, `南` hanchan, `東` east-only);
/// without one, the player count from the first hand and hanchan.
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
    let players = if disp.contains('三') || empty_fourth {
        3
    } else {
        4
    };
    let hanchan = !disp.contains('東') || disp.contains('南');
    preset_for(players, hanchan)
        .with_context(|| format!("no preset for the rule {disp:?} (use --rules)"))
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
    let outcome = a.get(16).map(read_result).transpose().context("result")?;
    let mut steps = interleave(n, dealer, &draws, &discards)?;
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

/// Per-seat lists with cursors.
struct Lists<'a> {
    lists: &'a [Vec<Value>],
    at: Vec<usize>,
    what: &'static str,
}

impl Lists<'_> {
    fn peek(&self, s: u8) -> Option<&Value> {
        self.lists.get(s as usize)?.get(*self.at.get(s as usize)?)
    }
    fn next(&mut self, s: u8) -> Option<Value> {
        let v = self.peek(s).cloned();
        if v.is_some() {
            if let Some(a) = self.at.get_mut(s as usize) {
                *a += 1;
            }
        }
        v
    }
    fn place(&self, s: u8) -> String {
        format!(
            "seat {s} {} entry {}",
            self.what,
            self.at.get(s as usize).copied().unwrap_or(0)
        )
    }
}

/// The chi, pon or open kan of a draw-list string by `seat`: kind, source, called
/// tile, consumed tiles.
fn parse_claim(s: &str, seat: u8, n: u8) -> Result<(CallKind, u8, LogTile, Vec<LogTile>)> {
    let (kind, marker) = match s.chars().find(char::is_ascii_alphabetic) {
        Some('c') => (CallKind::Chi, 'c'),
        Some('p') => (CallKind::Pon, 'p'),
        Some('m') => (CallKind::OpenKan, 'm'),
        _ => bail!("unknown call notation {s:?} in a draw list"),
    };
    let (mut t, place) = call_tiles(s, marker)?;
    let want = if kind == CallKind::OpenKan { 4 } else { 3 };
    if t.len() != want || place >= t.len() {
        bail!("call {s:?}: wrong tile count");
    }
    let from = source(seat, place, n, kind == CallKind::OpenKan)
        .with_context(|| format!("call {s:?}: no seat at that place"))?;
    let called = t.remove(place);
    Ok((kind, from, called, t))
}

/// The hand's steps in table order from the per-seat draw and discard lists.
fn interleave(
    n: u8,
    dealer: u8,
    draws: &[Vec<Value>],
    discards: &[Vec<Value>],
) -> Result<Vec<Step>> {
    let mut dr = Lists {
        lists: draws,
        at: vec![0; n as usize],
        what: "draw",
    };
    let mut di = Lists {
        lists: discards,
        at: vec![0; n as usize],
        what: "discard",
    };
    let mut steps = Vec::new();
    let (mut turn, mut need_draw) = (dealer, true);
    let mut last_draw: Option<LogTile> = None;
    loop {
        if need_draw {
            let place = dr.place(turn);
            let Some(d) = dr.next(turn) else { break };
            let tile = d
                .as_u64()
                .and_then(parse_tile)
                .with_context(|| format!("{place}: expected a drawn tile, found {d}"))?;
            steps.push(Step::Draw { seat: turn, tile });
            last_draw = Some(tile);
        }
        let place = di.place(turn);
        let Some(d) = di.next(turn) else { break };
        let discard = match &d {
            Value::Number(x) => {
                let code = x.as_u64().unwrap_or(0);
                Some((code, false))
            }
            Value::String(s) if s.starts_with('r') => {
                let code = s.get(1..).and_then(|c| c.parse().ok());
                Some((
                    code.with_context(|| format!("{place}: bad riichi {s:?}"))?,
                    true,
                ))
            }
            Value::String(s) => {
                let step = self_call(s, turn, n, &steps).with_context(|| place.clone())?;
                steps.push(step);
                need_draw = true;
                continue;
            }
            other => bail!("{place}: unexpected {other}"),
        };
        let Some((code, riichi)) = discard else {
            continue;
        };
        let (tile, tsumogiri) = discarded(code, last_draw, &place)?;
        steps.push(Step::Discard {
            seat: turn,
            tile,
            tsumogiri,
            riichi,
        });
        let claimed = find_claim(&dr, turn, n, tile.tile)?;
        match claimed {
            Some((s, kind, from, called, consumed)) => {
                dr.next(s);
                steps.push(Step::Call {
                    seat: s,
                    kind,
                    from,
                    tile: called,
                    consumed,
                });
                turn = s;
                need_draw = kind == CallKind::OpenKan;
                if need_draw {
                    // The open kan's placeholder in the discard list.
                    let place = di.place(s);
                    match di.next(s) {
                        Some(Value::Number(z)) if z.as_u64() == Some(0) => {}
                        other => bail!("{place}: expected 0 after an open kan, found {other:?}"),
                    }
                }
            }
            None => {
                turn = (turn + 1) % n;
                need_draw = true;
            }
        }
    }
    Ok(steps)
}

/// A chi, pon or open kan by its claimant, the source, the called and consumed tiles.
type Claim = (u8, CallKind, u8, LogTile, Vec<LogTile>);

/// The claim of `turn`'s discard of `tile`: it stands next in the claimant's draw list;
/// when a pon or kan and a chi both match, the pon or kan took it (it has priority).
fn find_claim(dr: &Lists, turn: u8, n: u8, tile: Tile) -> Result<Option<Claim>> {
    let mut claimed: Option<Claim> = None;
    for off in 1..n {
        let s = (turn + off) % n;
        if let Some(Value::String(c)) = dr.peek(s) {
            let (kind, from, called, consumed) =
                parse_claim(c, s, n).with_context(|| dr.place(s))?;
            let better = claimed
                .as_ref()
                .is_none_or(|(_, k, ..)| *k == CallKind::Chi && kind != CallKind::Chi);
            if from == turn && called.tile == tile && better {
                claimed = Some((s, kind, from, called, consumed));
            }
        }
    }
    Ok(claimed)
}

/// The tile of a discard entry's number (`60`: the tile just drawn) and whether it was
/// tsumogiri.
fn discarded(code: u64, last_draw: Option<LogTile>, place: &str) -> Result<(LogTile, bool)> {
    if code == 60 {
        let t = last_draw.with_context(|| format!("{place}: tsumogiri without a draw"))?;
        return Ok((t, true));
    }
    let t = parse_tile(code).with_context(|| format!("{place}: {code} is not a tile"))?;
    Ok((t, false))
}

/// A closed kan, added kan or kita of a discard-list string.
fn self_call(s: &str, seat: u8, n: u8, steps: &[Step]) -> Result<Step> {
    if s == "f44" {
        return Ok(Step::Kita { seat });
    }
    if s.contains('a') {
        let (tiles, _) = call_tiles(s, 'a')?;
        if tiles.len() != 4 || tiles.iter().any(|t| t.tile != tiles[0].tile) {
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
        let from = source(seat, place, n, false)
            .or_else(|| pon_source(steps, seat, tile.tile))
            .with_context(|| format!("added kan {s:?}: no pon"))?;
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

fn deltas_of(v: Option<&Value>) -> Result<Option<[i32; 4]>> {
    let Some(arr) = v.and_then(Value::as_array) else {
        return Ok(None);
    };
    let mut d = [0i32; 4];
    for (x, y) in d.iter_mut().zip(arr) {
        *x = i32::try_from(y.as_i64().context("a delta is not a number")?)?;
    }
    Ok(Some(d))
}

/// `<fu>符<han>飜` of a score string, when it has them.
fn han_fu(s: &str) -> (Option<u8>, Option<u8>) {
    let Some((fu, rest)) = s.split_once('符') else {
        return (None, None);
    };
    let han = rest.split_once('飜').and_then(|(h, _)| h.parse().ok());
    let fu = fu
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok();
    (han, fu)
}

fn read_result(v: &Value) -> Result<Outcome> {
    let a = v.as_array().context("not an array")?;
    let name = a
        .first()
        .and_then(Value::as_str)
        .context("no result name")?;
    if name != "和了" {
        let deltas = deltas_of(a.get(1))?.unwrap_or([0; 4]);
        let draw = draw_kind(name).with_context(|| format!("unknown result {name:?}"))?;
        return Ok(Outcome {
            wins: Vec::new(),
            draw: Some(draw.to_string()),
            deltas: Some(deltas),
        });
    }
    let mut wins = Vec::new();
    let mut total = [0i32; 4];
    for pair in a.get(1..).unwrap_or(&[]).chunks(2) {
        let d = deltas_of(pair.first())?.context("win without deltas")?;
        let info = pair
            .get(1)
            .and_then(Value::as_array)
            .context("win without details")?;
        let seat_at = |i: usize| {
            info.get(i)
                .and_then(Value::as_u64)
                .and_then(|x| u8::try_from(x).ok())
                .context("winner/from")
        };
        let (seat, from) = (seat_at(0)?, seat_at(1)?);
        let (han, fu) = han_fu(info.get(3).and_then(Value::as_str).unwrap_or(""));
        for (t, x) in total.iter_mut().zip(d) {
            *t += x;
        }
        wins.push(LogWin {
            seat,
            from: (from != seat).then_some(from),
            han,
            fu,
            points: d.get(seat as usize).copied(),
            deltas: Some(d),
        });
    }
    Ok(Outcome {
        wins,
        draw: None,
        deltas: Some(total),
    })
}

/// The engine's draw kind (its `DrawKind` name) of a Tenhou draw name.
fn draw_kind(name: &str) -> Option<&'static str> {
    Some(match name {
        "流局" | "全員聴牌" | "全員不聴" | "流し満貫" => "Exhaustive",
        "九種九牌" => "NineTerminals",
        "四風連打" => "FourWinds",
        "四家立直" => "FourRiichi",
        "四槓散了" => "FourKans",
        "三家和了" => "TripleRon",
        _ => return None,
    })
}

/// The Tenhou name of an engine draw kind (`DrawKind` debug name).
fn draw_name(kind: &str) -> &'static str {
    match kind {
        "NineTerminals" => "九種九牌",
        "FourWinds" => "四風連打",
        "FourRiichi" => "四家立直",
        "FourKans" => "四槓散了",
        "TripleRon" => "三家和了",
        _ => "流局",
    }
}

fn codes(tiles: &[LogTile]) -> String {
    tiles.iter().map(|&t| tile_code(t).to_string()).collect()
}

/// The call string of a claim with the called tile at its source's place.
fn claim_string(
    marker: char,
    seat: u8,
    from: u8,
    n: u8,
    called: LogTile,
    own: &[LogTile],
) -> String {
    let kan = marker == 'm';
    let mut parts: Vec<String> = own.iter().map(|&t| tile_code(t).to_string()).collect();
    let at = if marker == 'c' {
        0
    } else {
        place(seat, from, n, kan)
    }
    .min(parts.len());
    parts.insert(at, format!("{marker}{}", tile_code(called)));
    parts.concat()
}

/// The Tenhou JSON of a log.
pub fn write(log: &GameLog) -> Value {
    let n = log.rules.players;
    let disp = match (n, super::is_hanchan(&log.rules)) {
        (3, true) => "三般南喰赤",
        (3, false) => "三般東喰赤",
        (_, true) => "般南喰赤",
        (_, false) => "般東喰赤",
    };
    let mut names = log.names.clone();
    names.resize(4, String::new());
    json!({
        "title": ["", ""],
        "name": names,
        "rule": {"disp": disp, "aka": 1},
        "log": log.kyokus.iter().map(|k| write_kyoku(k, n)).collect::<Vec<_>>(),
    })
}

fn write_kyoku(k: &Kyoku, n: u8) -> Value {
    let mut draws: Vec<Vec<Value>> = vec![Vec::new(); 4];
    let mut discards: Vec<Vec<Value>> = vec![Vec::new(); 4];
    for step in &k.steps {
        let s = step.seat() as usize;
        let (Some(dr), Some(di)) = (draws.get_mut(s), discards.get_mut(s)) else {
            continue;
        };
        match step {
            Step::Draw { tile, .. } => dr.push(json!(tile_code(*tile))),
            Step::Discard {
                tile,
                tsumogiri,
                riichi,
                ..
            } => {
                let code = if *tsumogiri { 60 } else { tile_code(*tile) };
                di.push(if *riichi {
                    json!(format!("r{code}"))
                } else {
                    json!(code)
                });
            }
            Step::Call {
                seat,
                kind,
                from,
                tile,
                consumed,
            } => {
                let marker = match kind {
                    CallKind::Chi => 'c',
                    CallKind::Pon => 'p',
                    CallKind::OpenKan => 'm',
                };
                dr.push(json!(claim_string(
                    marker, *seat, *from, n, *tile, consumed
                )));
                if *kind == CallKind::OpenKan {
                    di.push(json!(0));
                }
            }
            Step::ClosedKan { tiles, .. } => {
                let (head, last) = tiles.split_at(tiles.len().saturating_sub(1));
                di.push(json!(format!("{}a{}", codes(head), codes(last))));
            }
            Step::AddedKan {
                seat,
                tile,
                pon,
                from,
            } => {
                di.push(json!(claim_string('k', *seat, *from, n, *tile, pon)));
            }
            Step::Kita { .. } => di.push(json!("f44")),
            Step::Tsumo { .. } | Step::Ron { .. } | Step::NineTerminals { .. } => {}
        }
    }
    let mut out = vec![
        json!([
            u32::from(k.round) * 4 + u32::from(k.dealer),
            k.honba,
            k.sticks
        ]),
        json!(k.scores),
        json!(k.dora.iter().map(|&t| tile_code(t)).collect::<Vec<_>>()),
        json!(k.ura.iter().map(|&t| tile_code(t)).collect::<Vec<_>>()),
    ];
    for s in 0..4 {
        let hand: Vec<u32> = k
            .hands
            .get(s)
            .map_or_else(Vec::new, |h| h.iter().map(|&t| tile_code(t)).collect());
        out.push(json!(hand));
        out.push(Value::Array(draws.get(s).cloned().unwrap_or_default()));
        out.push(Value::Array(discards.get(s).cloned().unwrap_or_default()));
    }
    if let Some(o) = &k.outcome {
        out.push(write_result(o));
    }
    Value::Array(out)
}

fn write_result(o: &Outcome) -> Value {
    if o.wins.is_empty() {
        let name = draw_name(o.draw.as_deref().unwrap_or(""));
        return json!([name, o.deltas.unwrap_or([0; 4])]);
    }
    let mut out = vec![json!("和了")];
    for w in &o.wins {
        out.push(json!(w.deltas.unwrap_or([0; 4])));
        let text = match (w.fu, w.han) {
            (Some(fu), Some(han)) => format!("{fu}符{han}飜{}点", w.points.unwrap_or(0)),
            _ => format!("役満{}点", w.points.unwrap_or(0)),
        };
        out.push(json!([w.seat, w.from.unwrap_or(w.seat), w.seat, text]));
    }
    Value::Array(out)
}
