//! Tenhou's own log format, mjlog XML (what tenhou.net serves for a game id and what its
//! downloaders archive, often gzip-compressed), read into the log model.
//!
//! ```text
//! <mjloggm ver="2.3"><SHUFFLE .../><GO type="169" lobby="0"/><UN n0="..." .../>
//!  <TAIKYOKU oya="0"/>
//!  <INIT seed="kyoku,honba,sticks,dice,dice,dora" ten="250,250,250,250" oya="0"
//!        hai0="ids" hai1=".." hai2=".." hai3=".."/>
//!  <T52/><D52/><U..../><E../><N who="1" m="31779"/><REACH who="1" step="1"/> ...
//!  <AGARI ba="honba,sticks" hai=".." machi=".." ten="fu,points,limit" yaku="id,han,.."
//!         doraHai=".." doraHaiUra=".." who="1" fromWho="3" sc="s0,d0,s1,d1,.."/>
//!  <RYUUKYOKU ba=".." sc=".." type="yao9"/> ... </mjloggm>
//! ```
//!
//! Sources (facts only, no code taken): the format as documented by the public mjlog
//! readers — NegativeMjark's `tenhou-log` (`tenhou-log.py`: tags, the meld bit layout),
//! ApplySci's `tenhou-log` wiki ("Tenhou .mjlog format") and mjx's `mjlog` test
//! resources — checked here against real logs of the corpus (`tests/data/real-logs/`).
//!
//! - Tiles are ids `0..136`: type `id / 4` in the engine's order (1m–9m, 1p–9p, 1s–9s,
//!   E S W N white green red); with red fives (`GO type` bit `0x02` clear) the ids 16,
//!   52 and 88 (copy 0 of 5m, 5p, 5s) are the red ones.
//! - `GO type`: bit `0x10` three players, bit `0x08` hanchan (南), bit `0x02` no red
//!   fives, bit `0x04` no open tanyao.
//! - `INIT`: `seed` = hand number (`4 · round + dealer`), honba, riichi sticks, two dice,
//!   the first dora indicator; `ten` the scores in hundreds; `hai<n>` the 13 tiles of
//!   seat n (empty for the absent fourth seat of three-player games).
//! - Draws `T U V W` + id (seats 0–3), discards `D E F G` + id; a discard of the tile
//!   just drawn is tsumogiri. `REACH step="1"` precedes the riichi discard.
//! - `N who m`: a call, `m` a 16-bit code. Bit 2: chi (`m >> 10` = 3 · (7 · suit +
//!   lowest number − 1) + index of the called tile; bits 3–8 the copies). Bit 3: pon, bit
//!   4: added kan (`m >> 9` = 3 · type + index of the called tile; bits 5–6 the copy left
//!   out, which an added kan adds). Bit 5: kita. Otherwise a kan: `m >> 8` is the called
//!   (or, closed, the first) tile's id and bits 0–1 the source relative to the caller
//!   (0: a closed kan). The source of a call on a discard is the seat that discarded.
//! - `DORA hai` reveals a kan dora indicator. `AGARI` (one per winner of a double ron):
//!   `who`, `fromWho` (itself for tsumo), `ten` = fu, points, limit, `yaku` pairs of id
//!   and han, `yakuman` ids, `doraHaiUra` the ura indicators, `sc` the scores and deltas
//!   in hundreds. `RYUUKYOKU`: `sc`, and `type` `yao9` (nine terminals), `reach4`,
//!   `ron3`, `kan4`, `kaze4`, `nm` (nagashi mangan at an exhaustive draw), none for an
//!   exhaustive draw.

use anyhow::{bail, Context, Result};
use engine::{Rules, Tile};

use crate::{preset_for, CallKind, GameLog, Kyoku, LogTile, LogWin, Outcome, Site, Step};

/// One XML element: its name and attributes (values unescaped only for `%xx`, as
/// Tenhou's names are percent-encoded).
struct Element<'a> {
    name: &'a str,
    attrs: Vec<(&'a str, &'a str)>,
}

impl Element<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn need(&self, key: &str) -> Result<&str> {
        self.get(key)
            .with_context(|| format!("<{}> without {key}", self.name))
    }
}

/// The elements of the document in order (closing tags and the `<?xml ?>` head skipped).
fn elements(text: &str) -> Result<Vec<Element<'_>>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let after = rest.get(start + 1..).unwrap_or("");
        let end = after
            .find('>')
            .context("an unclosed tag (truncated log?)")?;
        let body = after.get(..end).unwrap_or("");
        rest = after.get(end + 1..).unwrap_or("");
        if body.starts_with('/') || body.starts_with('?') || body.starts_with('!') {
            continue;
        }
        let body = body.trim_end_matches('/').trim();
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = body.get(..name_end).unwrap_or("");
        let mut attrs = Vec::new();
        let mut a = body.get(name_end..).unwrap_or("").trim_start();
        while !a.is_empty() {
            let eq = a
                .find("=\"")
                .with_context(|| format!("<{name}>: bad attribute {a:?}"))?;
            let key = a.get(..eq).unwrap_or("").trim();
            let v = a.get(eq + 2..).unwrap_or("");
            let close = v
                .find('"')
                .with_context(|| format!("<{name}>: unclosed value"))?;
            attrs.push((key, v.get(..close).unwrap_or("")));
            a = v.get(close + 1..).unwrap_or("").trim_start();
        }
        out.push(Element { name, attrs });
    }
    Ok(out)
}

/// Comma-separated integers.
fn numbers(s: &str) -> Result<Vec<i64>> {
    s.split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| {
            x.trim()
                .parse()
                .with_context(|| format!("{x:?} is not a number"))
        })
        .collect()
}

/// Tenhou's percent-encoded UTF-8 names (`%E3%81%82`).
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(x)) => {
                out.push(x);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The reader's state while it walks the elements.
struct Reader {
    red: bool,
    players: u8,
    kyokus: Vec<Kyoku>,
    current: Option<Kyoku>,
    /// The id each seat drew last (tsumogiri is a discard of it).
    last_draw: [Option<i64>; 4],
    /// A `REACH step="1"` waiting for its discard, by seat.
    riichi: [bool; 4],
    /// The seat of the last discard (the source of a call on it).
    last_discarder: Option<u8>,
}

impl Reader {
    fn tile(&self, id: i64) -> Result<LogTile> {
        let t = u8::try_from(id / 4)
            .ok()
            .filter(|_| (0..136).contains(&id))
            .and_then(Tile::new)
            .with_context(|| format!("tile id {id} is not in 0..136"))?;
        Ok(LogTile {
            tile: t,
            red: self.red && matches!(id, 16 | 52 | 88),
        })
    }

    fn kyoku(&mut self) -> Result<&mut Kyoku> {
        self.current.as_mut().context("a hand event before <INIT>")
    }

    fn push(&mut self, step: Step) -> Result<()> {
        self.kyoku()?.steps.push(step);
        Ok(())
    }

    fn init(&mut self, e: &Element) -> Result<()> {
        self.finish_kyoku()?;
        let seed = numbers(e.need("seed")?)?;
        let [hand, honba, sticks, _, _, dora] = seed[..] else {
            bail!("<INIT seed> needs 6 numbers, got {seed:?}");
        };
        let ten = numbers(e.need("ten")?)?;
        let mut scores = [0i32; 4];
        for (s, t) in scores.iter_mut().zip(&ten) {
            *s = i32::try_from(*t * 100)?;
        }
        let mut hands = Vec::new();
        for seat in 0..self.players {
            let ids = numbers(e.need(&format!("hai{seat}"))?)?;
            if ids.len() != 13 {
                bail!("<INIT hai{seat}> has {} tiles, not 13", ids.len());
            }
            hands.push(ids.iter().map(|&i| self.tile(i)).collect::<Result<_>>()?);
        }
        let hand = u8::try_from(hand).context("<INIT seed>: hand number")?;
        self.current = Some(Kyoku {
            round: hand / 4,
            dealer: hand % 4,
            honba: u8::try_from(honba).context("honba")?,
            sticks: u8::try_from(sticks).context("riichi sticks")?,
            scores,
            hands,
            dora: vec![self.tile(dora)?],
            ura: Vec::new(),
            steps: Vec::new(),
            outcome: None,
        });
        self.last_draw = [None; 4];
        self.riichi = [false; 4];
        self.last_discarder = None;
        Ok(())
    }

    fn finish_kyoku(&mut self) -> Result<()> {
        if let Some(k) = self.current.take() {
            if k.outcome.is_none() {
                bail!(
                    "{}: the hand has no <AGARI> or <RYUUKYOKU>",
                    crate::replay::label(&k)
                );
            }
            self.kyokus.push(k);
        }
        Ok(())
    }

    /// A draw (`T..W`) or a discard (`D..G`) element, if this is one.
    fn draw_or_discard(&mut self, name: &str) -> Result<bool> {
        let mut chars = name.chars();
        let Some(letter) = chars.next() else {
            return Ok(false);
        };
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(false);
        }
        let id: i64 = digits.parse()?;
        let tile = self.tile(id)?;
        match letter {
            'T' | 'U' | 'V' | 'W' => {
                let seat = letter as u8 - b'T';
                self.last_draw[seat as usize] = Some(id);
                self.push(Step::Draw { seat, tile })?;
            }
            'D' | 'E' | 'F' | 'G' => {
                let seat = letter as u8 - b'D';
                let s = seat as usize;
                let tsumogiri = self.last_draw.get(s).copied().flatten() == Some(id);
                let riichi = std::mem::take(&mut self.riichi[s]);
                if let Some(d) = self.last_draw.get_mut(s) {
                    *d = None;
                }
                self.last_discarder = Some(seat);
                self.push(Step::Discard {
                    seat,
                    tile,
                    tsumogiri,
                    riichi,
                })?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn call(&mut self, e: &Element) -> Result<()> {
        let seat = seat_of(e.need("who")?)?;
        let m: u32 = e.need("m")?.parse().context("<N m>")?;
        let from = || {
            self.last_discarder
                .filter(|&d| d != seat)
                .context("a call with no discard to call")
        };
        let ids = |ids: &[i64]| {
            ids.iter()
                .map(|&i| self.tile(i))
                .collect::<Result<Vec<_>>>()
        };
        if m & 0x4 != 0 {
            let t = i64::from(m >> 10);
            let called = (t % 3) as usize;
            let t = t / 3;
            let base = (t / 7) * 9 + t % 7;
            let tiles: Vec<i64> = (0..3)
                .map(|i| (base + i) * 4 + i64::from((m >> (3 + 2 * i)) & 3))
                .collect();
            let called_id = tiles[called];
            let consumed: Vec<i64> = tiles.iter().copied().filter(|&x| x != called_id).collect();
            let step = Step::Call {
                seat,
                kind: CallKind::Chi,
                from: from()?,
                tile: self.tile(called_id)?,
                consumed: ids(&consumed)?,
            };
            self.push(step)?;
        } else if m & 0x18 != 0 {
            let t = i64::from(m >> 9);
            let called = (t % 3) as usize;
            let base = t / 3;
            let unused = i64::from((m >> 5) & 3);
            let tiles: Vec<i64> = (0..4)
                .filter(|&c| c != unused)
                .map(|c| base * 4 + c)
                .collect();
            if m & 0x8 != 0 {
                let called_id = tiles[called];
                let consumed: Vec<i64> =
                    tiles.iter().copied().filter(|&x| x != called_id).collect();
                let step = Step::Call {
                    seat,
                    kind: CallKind::Pon,
                    from: from()?,
                    tile: self.tile(called_id)?,
                    consumed: ids(&consumed)?,
                };
                self.push(step)?;
            } else {
                let pon_from = self.pon_source(seat, base)?;
                let step = Step::AddedKan {
                    seat,
                    tile: self.tile(base * 4 + unused)?,
                    pon: ids(&tiles)?,
                    from: pon_from,
                };
                self.push(step)?;
            }
        } else if m & 0x20 != 0 {
            self.push(Step::Kita { seat })?;
        } else {
            let id = i64::from(m >> 8);
            let base = id / 4;
            let all: Vec<i64> = (0..4).map(|c| base * 4 + c).collect();
            if m & 3 == 0 {
                let step = Step::ClosedKan {
                    seat,
                    tiles: ids(&all)?,
                };
                self.push(step)?;
            } else {
                let consumed: Vec<i64> = all.iter().copied().filter(|&x| x != id).collect();
                let step = Step::Call {
                    seat,
                    kind: CallKind::OpenKan,
                    from: from()?,
                    tile: self.tile(id)?,
                    consumed: ids(&consumed)?,
                };
                self.push(step)?;
            }
        }
        Ok(())
    }

    /// The seat `seat`'s pon of tile type `base` came from.
    fn pon_source(&self, seat: u8, base: i64) -> Result<u8> {
        let k = self.current.as_ref().context("a call before <INIT>")?;
        k.steps
            .iter()
            .rev()
            .find_map(|s| match s {
                Step::Call {
                    seat: s,
                    kind: CallKind::Pon,
                    from,
                    tile,
                    ..
                } if *s == seat && i64::from(tile.tile.index() as u8) == base => Some(*from),
                _ => None,
            })
            .context("an added kan without its pon")
    }

    fn win(&mut self, e: &Element) -> Result<()> {
        let seat = seat_of(e.need("who")?)?;
        let from = seat_of(e.need("fromWho")?)?;
        let ten = numbers(e.need("ten")?)?;
        let han: i64 = numbers(e.get("yaku").unwrap_or(""))?
            .chunks(2)
            .filter_map(|c| c.get(1))
            .sum();
        let yakuman = e.get("yakuman").is_some_and(|y| !y.trim().is_empty());
        let deltas = sc_deltas(e.need("sc")?)?;
        let ura = match e.get("doraHaiUra") {
            Some(u) => numbers(u)?
                .iter()
                .map(|&i| self.tile(i))
                .collect::<Result<Vec<_>>>()?,
            None => Vec::new(),
        };
        let step = if seat == from {
            Step::Tsumo { seat }
        } else {
            Step::Ron { seat, from }
        };
        self.push(step)?;
        let k = self.kyoku()?;
        if !ura.is_empty() {
            k.ura = ura;
        }
        let outcome = k.outcome.get_or_insert_with(|| Outcome {
            wins: Vec::new(),
            draw: None,
            deltas: Some([0; 4]),
        });
        if let Some(total) = outcome.deltas.as_mut() {
            for (t, d) in total.iter_mut().zip(deltas) {
                *t += d;
            }
        }
        outcome.wins.push(LogWin {
            seat,
            from: (from != seat).then_some(from),
            han: (!yakuman).then(|| u8::try_from(han).ok()).flatten(),
            fu: (!yakuman)
                .then(|| ten.first().and_then(|&f| u8::try_from(f).ok()))
                .flatten(),
            points: deltas.get(seat as usize).copied(),
            deltas: Some(deltas),
        });
        Ok(())
    }

    fn draw(&mut self, e: &Element) -> Result<()> {
        let kind = match e.get("type") {
            None | Some("nm") => "Exhaustive",
            Some("yao9") => "NineTerminals",
            Some("reach4") => "FourRiichi",
            Some("ron3") => "TripleRon",
            Some("kan4") => "FourKans",
            Some("kaze4") => "FourWinds",
            Some(other) => bail!("<RYUUKYOKU type={other:?}> is not a known draw"),
        };
        if kind == "NineTerminals" {
            let seat = (0..4u8)
                .find(|s| e.get(&format!("hai{s}")).is_some())
                .context("<RYUUKYOKU type=\"yao9\"> names no hand")?;
            self.push(Step::NineTerminals { seat })?;
        }
        // Tenhou writes a bare `<RYUUKYOKU owari=".."/>` (no `sc`, no type) when it ends a
        // game at an exhaustive draw without settling it in the element: no deltas then.
        let deltas = e.get("sc").map(sc_deltas).transpose()?;
        self.kyoku()?.outcome = Some(Outcome {
            wins: Vec::new(),
            draw: Some(kind.to_string()),
            deltas,
        });
        Ok(())
    }
}

fn seat_of(s: &str) -> Result<u8> {
    s.parse::<u8>()
        .ok()
        .filter(|&x| x < 4)
        .with_context(|| format!("seat {s:?} is not 0..4"))
}

/// The deltas of an `sc` list (`score, delta` pairs in hundreds).
fn sc_deltas(sc: &str) -> Result<[i32; 4]> {
    let v = numbers(sc)?;
    let mut d = [0i32; 4];
    for (x, pair) in d.iter_mut().zip(v.chunks(2)) {
        let delta = pair.get(1).context("sc: a score without its delta")?;
        *x = i32::try_from(delta * 100)?;
    }
    Ok(d)
}

/// Whether a text is an mjlog document.
pub fn is_mjlog(text: &str) -> bool {
    text.trim_start()
        .trim_start_matches("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
        .trim_start()
        .starts_with("<mjloggm")
}

/// Reads an mjlog XML log; `rules` overrides the preset chosen from `GO type`.
pub fn read(text: &str, rules: Option<Rules>) -> Result<GameLog> {
    if !is_mjlog(text) {
        bail!("not an mjlog document (no <mjloggm>)");
    }
    let elements = elements(text)?;
    let go = elements
        .iter()
        .find(|e| e.name == "GO")
        .context("no <GO> (the game type)")?;
    let game_type: u32 = go.need("type")?.parse().context("<GO type>")?;
    let players = if game_type & 0x10 != 0 { 3 } else { 4 };
    let rules = match rules {
        Some(r) => r,
        None => preset_for(players, game_type & 0x08 != 0, Site::Tenhou)
            .context("no preset for the game type (use --rules)")?,
    };
    let names = elements
        .iter()
        .find(|e| e.name == "UN")
        .map(|un| {
            (0..rules.players)
                .map(|s| un.get(&format!("n{s}")).map(unescape).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    let mut r = Reader {
        red: game_type & 0x02 == 0,
        players: rules.players,
        kyokus: Vec::new(),
        current: None,
        last_draw: [None; 4],
        riichi: [false; 4],
        last_discarder: None,
    };
    for (i, e) in elements.iter().enumerate() {
        let at = || format!("element {i} <{}>", e.name);
        if r.draw_or_discard(e.name).with_context(at)? {
            continue;
        }
        match e.name {
            "INIT" => r.init(e),
            "N" => r.call(e),
            "REACH" => {
                if e.get("step") == Some("1") {
                    let s = seat_of(e.need("who")?)?;
                    r.riichi[s as usize] = true;
                }
                Ok(())
            }
            "DORA" => {
                let id: i64 = e.need("hai")?.parse().context("<DORA hai>")?;
                let t = r.tile(id)?;
                r.kyoku().map(|k| k.dora.push(t))
            }
            "AGARI" => r.win(e),
            "RYUUKYOKU" => r.draw(e),
            _ => Ok(()),
        }
        .with_context(at)?;
    }
    r.finish_kyoku()?;
    if r.kyokus.is_empty() {
        bail!("the log has no hands");
    }
    Ok(GameLog {
        names,
        rules,
        kyokus: r.kyokus,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meld_codes_decode() {
        // A pon of 5z (ids 124..128, the copy 125 left out, the called tile the third
        // of the three, 127) from seat 0's tsumogiri.
        let m = ((31 * 3 + 2) << 9) | (1 << 5) | 0x8 | 3;
        let text = format!(
            "<mjloggm ver=\"2.3\"><GO type=\"9\"/><INIT seed=\"0,0,0,0,0,0\" ten=\"250,250,250,250\" oya=\"0\" \
             hai0=\"1,2,3,5,6,7,9,10,11,13,14,15,17\" hai1=\"124,126,20,21,22,24,25,26,28,29,30,32,33\" \
             hai2=\"36,37,38,40,41,42,44,45,46,48,49,50,52\" hai3=\"56,57,58,60,61,62,64,65,66,68,69,70,72\"/>\
             <T127/><D127/><N who=\"1\" m=\"{m}\"/><E20/><RYUUKYOKU ba=\"0,0\" sc=\"250,0,250,0,250,0,250,0\" type=\"yao9\" hai0=\"1\"/></mjloggm>"
        );
        let log = read(&text, None).unwrap();
        let k = &log.kyokus[0];
        assert_eq!(log.rules, Rules::tenhou_4p());
        assert!(matches!(
            &k.steps[1],
            Step::Discard {
                seat: 0,
                tsumogiri: true,
                ..
            }
        ));
        let Step::Call {
            seat,
            kind,
            from,
            tile,
            consumed,
        } = &k.steps[2]
        else {
            panic!("{:?}", k.steps[2]);
        };
        assert_eq!((*seat, *kind, *from), (1, CallKind::Pon, 0));
        assert_eq!(tile.mpsz(), "5z");
        assert_eq!(consumed.len(), 2);
        assert_eq!(
            k.outcome.as_ref().unwrap().draw.as_deref(),
            Some("NineTerminals")
        );
        assert_eq!(k.hands[1][0].mpsz(), "5z");
        assert!(k.hands[2][12].red, "id 52 is the red 5p");
    }

    #[test]
    fn bad_documents_are_errors() {
        for bad in [
            "",
            "<mjloggm><GO type=\"9\"/>",
            "<mjloggm><GO type=\"9\"/><INIT seed=\"0,0\" ten=\"250\"/></mjloggm>",
            "<mjloggm><GO type=\"9\"/><T5/></mjloggm>",
            "<mjloggm><GO type=\"9\"/><INIT seed=\"0,0,0,0,0,0\" ten=\"1\" hai0=\"1,2\"/></mjloggm>",
            "<mjloggm><GO type=\"x\"/></mjloggm>",
            "<mjloggm><GO type=\"9\"/><INIT seed=\"0,0,0,0,0,999\"",
        ] {
            assert!(read(bad, None).is_err(), "{bad:?}");
        }
    }
}
