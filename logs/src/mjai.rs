//! mjai JSON lines: one event object per line.
//!
//! Facts of the format, from the mjai protocol as Mortal's `libriichi` (`mjai::Event`)
//! and mjai-reviewer read and write it: `start_game` (`names`), `start_kyoku`
//! (`bakaze` E/S/W, `dora_marker`, `kyoku` from 1, `honba`, `kyotaku`, `oya`, `scores`,
//! `tehais`), `tsumo` (`actor`, `pai`), `dahai` (`actor`, `pai`, `tsumogiri`), `chi` /
//! `pon` / `daiminkan` (`actor`, `target`, `pai`, `consumed`), `ankan` (`actor`,
//! `consumed`), `kakan` (`actor`, `pai`, `consumed`), `reach` and `reach_accepted`
//! (`actor`), `dora` (`dora_marker`), `hora` (`actor`, `target`, `deltas`,
//! `ura_markers`), `ryukyoku` (`deltas`), `end_kyoku`, `end_game`. Tiles are `1m`..`9m`,
//! `1p`.., `1s`.., `E S W N`, `P F C` (white, green, red), `5mr`/`5pr`/`5sr` for red
//! fives, `?` for a hidden tile. Three-player logs set a north aside with `nukidora`
//! (Mortal's three-player fork, RiichiEnv) or `kita` (`actor`, `pai`); both are read,
//! [`Dialect`] chooses the one written. This writer adds `han` and `fu` to `hora`, which
//! readers that do not know them ignore.

use anyhow::{bail, Context, Result};
use engine::{Rules, Suit, Tile};
use serde_json::{json, Value};

use super::{preset_for, CallKind, GameLog, Kyoku, LogTile, LogWin, Outcome, Site, Step};

/// The spelling of the north event in three-player logs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Dialect {
    /// `{"type":"nukidora",...}`.
    #[default]
    Nukidora,
    /// `{"type":"kita",...}`.
    Kita,
}

const HONORS: [&str; 7] = ["E", "S", "W", "N", "P", "F", "C"];

/// The mjai name of a tile.
pub fn tile_name(t: LogTile) -> String {
    match t.tile.suit() {
        Suit::Honor => HONORS
            .get(usize::from(t.tile.number()) - 1)
            .copied()
            .unwrap_or("?")
            .to_string(),
        s => format!(
            "{}{}{}",
            t.tile.number(),
            s.letter(),
            if t.red { "r" } else { "" }
        ),
    }
}

/// The tile of an mjai name.
pub fn parse_tile(s: &str) -> Option<LogTile> {
    if let Some(i) = HONORS.iter().position(|&h| h == s) {
        let tile = Tile::from_suit_number(Suit::Honor, u8::try_from(i + 1).ok()?)?;
        return Some(LogTile::plain(tile));
    }
    let b = s.as_bytes();
    let (red, body) = match b {
        [n, su, b'r'] => (true, [*n, *su]),
        [n, su] => (false, [*n, *su]),
        _ => return None,
    };
    let suit = match body[1] {
        b'm' => Suit::Man,
        b'p' => Suit::Pin,
        b's' => Suit::Sou,
        _ => return None,
    };
    let n = body[0].checked_sub(b'0')?;
    if red && n != 5 {
        return None;
    }
    Some(LogTile {
        tile: Tile::from_suit_number(suit, n)?,
        red,
    })
}

/// The round wind of a `start_kyoku` (`bakaze`): 0 east … 3 north.
pub fn round_wind(e: &Value) -> Result<u8> {
    Ok(match field(e, "bakaze")?.as_str() {
        Some("E") => 0,
        Some("S") => 1,
        Some("W") => 2,
        Some("N") => 3,
        other => bail!("bakaze {other:?}"),
    })
}

/// The seats' scores of a `start_kyoku` (`scores`; seats past the list stay 0).
pub fn start_scores(e: &Value) -> Result<[i32; 4]> {
    let mut scores = [0i32; 4];
    let sv = field(e, "scores")?.as_array().context("\"scores\"")?;
    for (s, v) in scores.iter_mut().zip(sv) {
        *s = i32::try_from(v.as_i64().context("a score is not a number")?)?;
    }
    Ok(scores)
}

/// The member `key` of an event, or an error naming it (also the bot's reader).
pub fn field<'a>(e: &'a Value, key: &str) -> Result<&'a Value> {
    e.get(key).with_context(|| format!("no \"{key}\""))
}

fn seat(e: &Value, key: &str) -> Result<u8> {
    let v = field(e, key)?;
    v.as_u64()
        .and_then(|x| u8::try_from(x).ok())
        .filter(|&x| x < 4)
        .with_context(|| format!("\"{key}\": {v} is not a seat"))
}

fn tile(e: &Value, key: &str) -> Result<LogTile> {
    let v = field(e, key)?;
    v.as_str()
        .and_then(parse_tile)
        .with_context(|| format!("\"{key}\": {v} is not a tile"))
}

fn tiles_of(v: &Value) -> Result<Vec<LogTile>> {
    v.as_array()
        .with_context(|| format!("{v} is not a tile list"))?
        .iter()
        .map(|t| {
            t.as_str()
                .and_then(parse_tile)
                .with_context(|| format!("{t} is not a tile"))
        })
        .collect()
}

fn deltas(e: &Value) -> Result<Option<[i32; 4]>> {
    let Some(a) = e.get("deltas").and_then(Value::as_array) else {
        return Ok(None);
    };
    let mut d = [0i32; 4];
    for (x, y) in d.iter_mut().zip(a) {
        *x = i32::try_from(y.as_i64().context("a delta is not a number")?)?;
    }
    Ok(Some(d))
}

/// A log being read: the hand in progress.
#[derive(Default)]
struct Reader {
    kyokus: Vec<Kyoku>,
    current: Option<Kyoku>,
    riichi_pending: [bool; 4],
    players: u8,
    south: bool,
    names: Vec<String>,
}

impl Reader {
    fn kyoku(&mut self) -> Result<&mut Kyoku> {
        self.current.as_mut().context("an event outside a kyoku")
    }

    fn start_kyoku(&mut self, e: &Value) -> Result<()> {
        if self.current.is_some() {
            bail!("start_kyoku inside a kyoku (no end_kyoku)");
        }
        let round = round_wind(e)?;
        self.south |= round > 0;
        let num = |k: &str| -> Result<u8> {
            let v = field(e, k)?;
            v.as_u64()
                .and_then(|x| u8::try_from(x).ok())
                .with_context(|| format!("\"{k}\": {v}"))
        };
        let scores = start_scores(e)?;
        let hands: Vec<Vec<LogTile>> = field(e, "tehais")?
            .as_array()
            .context("tehais")?
            .iter()
            .map(tiles_of)
            .collect::<Result<_>>()?;
        let players = hands.iter().filter(|h| !h.is_empty()).count();
        self.players = self.players.max(u8::try_from(players)?);
        self.riichi_pending = [false; 4];
        self.current = Some(Kyoku {
            round,
            dealer: seat(e, "oya")?,
            honba: num("honba")?,
            sticks: num("kyotaku")?,
            scores,
            hands,
            dora: vec![tile(e, "dora_marker")?],
            ura: Vec::new(),
            steps: Vec::new(),
            outcome: None,
        });
        Ok(())
    }

    fn event(&mut self, e: &Value) -> Result<()> {
        let ty = field(e, "type")?
            .as_str()
            .context("\"type\" is not a string")?;
        match ty {
            "start_game" => {
                if let Some(n) = e.get("names").and_then(Value::as_array) {
                    self.names = n.iter().map(|x| x.as_str().unwrap_or("").into()).collect();
                }
            }
            "start_kyoku" => self.start_kyoku(e)?,
            "end_kyoku" => {
                let k = self.current.take().context("end_kyoku outside a kyoku")?;
                self.kyokus.push(k);
            }
            "end_game" => {}
            "dora" => {
                let t = tile(e, "dora_marker")?;
                self.kyoku()?.dora.push(t);
            }
            "reach" => {
                let s = seat(e, "actor")?;
                if let Some(p) = self.riichi_pending.get_mut(s as usize) {
                    *p = true;
                }
            }
            "reach_accepted" => {}
            "hora" => self.hora(e)?,
            "ryukyoku" => self.ryukyoku(e)?,
            _ => {
                let step = self.step(ty, e)?;
                self.kyoku()?.steps.push(step);
            }
        }
        Ok(())
    }

    fn step(&mut self, ty: &str, e: &Value) -> Result<Step> {
        let actor = seat(e, "actor")?;
        Ok(match ty {
            "tsumo" => Step::Draw {
                seat: actor,
                tile: tile(e, "pai")?,
            },
            "dahai" => {
                let riichi = self
                    .riichi_pending
                    .get_mut(actor as usize)
                    .map(std::mem::take)
                    .unwrap_or(false);
                Step::Discard {
                    seat: actor,
                    tile: tile(e, "pai")?,
                    tsumogiri: e.get("tsumogiri").and_then(Value::as_bool).unwrap_or(false),
                    riichi,
                }
            }
            "chi" | "pon" | "daiminkan" => Step::Call {
                seat: actor,
                kind: match ty {
                    "chi" => CallKind::Chi,
                    "pon" => CallKind::Pon,
                    _ => CallKind::OpenKan,
                },
                from: seat(e, "target")?,
                tile: tile(e, "pai")?,
                consumed: tiles_of(field(e, "consumed")?)?,
            },
            "ankan" => Step::ClosedKan {
                seat: actor,
                tiles: tiles_of(field(e, "consumed")?)?,
            },
            "kakan" => {
                let t = tile(e, "pai")?;
                let pon = tiles_of(field(e, "consumed")?)?;
                let k = self.kyoku()?;
                let from = k
                    .steps
                    .iter()
                    .find_map(|s| match s {
                        Step::Call {
                            seat,
                            kind: CallKind::Pon,
                            from,
                            tile,
                            ..
                        } if *seat == actor && tile.tile == t.tile => Some(*from),
                        _ => None,
                    })
                    .context("kakan without its pon")?;
                // The pon's tiles in the order the pon step recorded them.
                let pon = pon_tiles(k, actor, t.tile).unwrap_or(pon);
                Step::AddedKan {
                    seat: actor,
                    tile: t,
                    pon,
                    from,
                }
            }
            "nukidora" | "kita" => Step::Kita { seat: actor },
            other => bail!("unknown event type {other:?}"),
        })
    }

    fn outcome(&mut self) -> Result<&mut Outcome> {
        Ok(self.kyoku()?.outcome.get_or_insert_with(Outcome::default))
    }

    fn hora(&mut self, e: &Value) -> Result<()> {
        let (actor, target) = (seat(e, "actor")?, seat(e, "target")?);
        let d = deltas(e)?;
        let small = |k: &str| {
            e.get(k)
                .and_then(Value::as_u64)
                .and_then(|x| u8::try_from(x).ok())
        };
        let ura = match e.get("ura_markers") {
            Some(v) => tiles_of(v)?,
            None => Vec::new(),
        };
        let k = self.kyoku()?;
        if k.ura.is_empty() {
            k.ura = ura;
        }
        k.steps.push(if actor == target {
            Step::Tsumo { seat: actor }
        } else {
            Step::Ron {
                seat: actor,
                from: target,
            }
        });
        let o = self.outcome()?;
        o.wins.push(LogWin {
            seat: actor,
            from: (actor != target).then_some(target),
            han: small("han"),
            fu: small("fu"),
            points: d.and_then(|d| d.get(actor as usize).copied()),
            deltas: d,
        });
        if let Some(d) = d {
            let total = o.deltas.get_or_insert([0; 4]);
            for (t, x) in total.iter_mut().zip(d) {
                *t += x;
            }
        }
        Ok(())
    }

    fn ryukyoku(&mut self, e: &Value) -> Result<()> {
        let d = deltas(e)?;
        let k = self.kyoku()?;
        // A draw declared on a seat's own draw is nine terminals.
        let mut reason = e
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("Exhaustive");
        if let Some(Step::Draw { seat, .. }) = k.steps.last() {
            let seat = *seat;
            k.steps.push(Step::NineTerminals { seat });
            reason = "NineTerminals";
        }
        let o = self.outcome()?;
        o.draw = Some(reason.to_string());
        o.deltas = Some(d.unwrap_or([0; 4]));
        Ok(())
    }
}

fn pon_tiles(k: &Kyoku, seat: u8, t: Tile) -> Option<Vec<LogTile>> {
    k.steps.iter().find_map(|s| match s {
        Step::Call {
            seat: c,
            kind: CallKind::Pon,
            tile,
            consumed,
            ..
        } if *c == seat && tile.tile == t => {
            let mut all = vec![*tile];
            all.extend(consumed);
            Some(all)
        }
        _ => None,
    })
}

/// Reads mjai JSON lines; `rules` overrides the preset guessed from the log (players
/// from the starting hands, hanchan when a South round appears).
pub fn read(text: &str, rules: Option<Rules>) -> Result<GameLog> {
    let mut r = Reader::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let e: Value = serde_json::from_str(line)
            .with_context(|| format!("line {}: not JSON (truncated or malformed?)", i + 1))?;
        r.event(&e)
            .with_context(|| format!("line {}: {line}", i + 1))?;
    }
    if let Some(k) = r.current.take() {
        if !k.steps.is_empty() {
            bail!("the log ends inside a kyoku (no end_kyoku)");
        }
    }
    let rules = match rules {
        Some(r) => r,
        None => preset_for(r.players, r.south, Site::Tenhou)
            .with_context(|| format!("no preset for {} players (use --rules)", r.players))?,
    };
    Ok(GameLog {
        names: r.names,
        rules,
        kyokus: r.kyokus,
    })
}

/// Writes a log as mjai JSON lines (`nukidora` for a three-player north).
pub fn write(log: &GameLog) -> String {
    write_with(log, Dialect::default())
}

/// Writes a log as mjai JSON lines in the given three-player dialect.
pub fn write_with(log: &GameLog, dialect: Dialect) -> String {
    let n = log.rules.players as usize;
    let mut out = vec![json!({"type": "start_game", "names": log.names})];
    for k in &log.kyokus {
        write_kyoku(k, n, dialect, &mut out);
    }
    out.push(json!({"type": "end_game"}));
    let mut s = String::new();
    for e in out {
        s.push_str(&e.to_string());
        s.push('\n');
    }
    s
}

/// The mjai names of tiles (also the bot's `consumed` lists).
pub fn names(tiles: &[LogTile]) -> Vec<String> {
    tiles.iter().map(|&t| tile_name(t)).collect()
}

fn write_kyoku(k: &Kyoku, n: usize, dialect: Dialect, out: &mut Vec<Value>) {
    let wind = ["E", "S", "W", "N"]
        .get(k.round as usize)
        .copied()
        .unwrap_or("E");
    let tehais: Vec<Vec<String>> = (0..n)
        .map(|s| k.hands.get(s).map_or_else(Vec::new, |h| names(h)))
        .collect();
    out.push(json!({
        "type": "start_kyoku", "bakaze": wind, "dora_marker": k.dora.first().map(|&t| tile_name(t)),
        "kyoku": k.dealer + 1, "honba": k.honba, "kyotaku": k.sticks, "oya": k.dealer,
        "scores": k.scores.get(..n).unwrap_or(&[]), "tehais": tehais,
    }));
    let mut dora = k.dora.iter().skip(1);
    let mut pending_dora = 0;
    for (i, step) in k.steps.iter().enumerate() {
        let next_is_ron = matches!(k.steps.get(i + 1), Some(Step::Ron { .. }));
        write_step(step, next_is_ron, dialect, out);
        match step {
            Step::ClosedKan { .. } => {
                // A closed kan's dora shows at once (before the replacement draw).
                if let Some(&t) = dora.next() {
                    out.push(json!({"type": "dora", "dora_marker": tile_name(t)}));
                }
            }
            Step::AddedKan { .. }
            | Step::Call {
                kind: CallKind::OpenKan,
                ..
            } => pending_dora += 1,
            Step::Discard { .. } => {
                for _ in 0..std::mem::take(&mut pending_dora) {
                    if let Some(&t) = dora.next() {
                        out.push(json!({"type": "dora", "dora_marker": tile_name(t)}));
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(o) = &k.outcome {
        let mut wins = o.wins.iter();
        for (i, step) in k.steps.iter().enumerate() {
            let (actor, target) = match step {
                Step::Tsumo { seat } => (*seat, *seat),
                Step::Ron { seat, from } => (*seat, *from),
                Step::NineTerminals { .. } => continue,
                _ => continue,
            };
            let w = wins.next();
            let mut e = json!({"type": "hora", "actor": actor, "target": target,
                "deltas": w.and_then(|w| w.deltas), "ura_markers": names(&k.ura)});
            if let (Some(w), Some(m)) = (w, e.as_object_mut()) {
                if let (Some(han), Some(fu)) = (w.han, w.fu) {
                    m.insert("han".into(), json!(han));
                    m.insert("fu".into(), json!(fu));
                }
            }
            let _ = i;
            out.push(e);
        }
        if o.wins.is_empty() {
            out.push(
                json!({"type": "ryukyoku", "deltas": o.deltas.unwrap_or([0; 4]),
                "reason": o.draw}),
            );
        }
    }
    out.push(json!({"type": "end_kyoku"}));
}

fn write_step(step: &Step, next_is_ron: bool, dialect: Dialect, out: &mut Vec<Value>) {
    match step {
        Step::Draw { seat, tile } => {
            out.push(json!({"type": "tsumo", "actor": seat, "pai": tile_name(*tile)}));
        }
        Step::Discard {
            seat,
            tile,
            tsumogiri,
            riichi,
        } => {
            if *riichi {
                out.push(json!({"type": "reach", "actor": seat}));
            }
            out.push(
                json!({"type": "dahai", "actor": seat, "pai": tile_name(*tile),
                "tsumogiri": tsumogiri}),
            );
            if *riichi && !next_is_ron {
                out.push(json!({"type": "reach_accepted", "actor": seat}));
            }
        }
        Step::Call {
            seat,
            kind,
            from,
            tile,
            consumed,
        } => {
            let ty = match kind {
                CallKind::Chi => "chi",
                CallKind::Pon => "pon",
                CallKind::OpenKan => "daiminkan",
            };
            out.push(json!({"type": ty, "actor": seat, "target": from,
                "pai": tile_name(*tile), "consumed": names(consumed)}));
        }
        Step::ClosedKan { seat, tiles } => {
            out.push(json!({"type": "ankan", "actor": seat, "consumed": names(tiles)}));
        }
        Step::AddedKan {
            seat, tile, pon, ..
        } => {
            out.push(
                json!({"type": "kakan", "actor": seat, "pai": tile_name(*tile),
                "consumed": names(pon)}),
            );
        }
        Step::Kita { seat } => {
            let ty = match dialect {
                Dialect::Nukidora => "nukidora",
                Dialect::Kita => "kita",
            };
            out.push(json!({"type": ty, "actor": seat, "pai": "N"}));
        }
        Step::Tsumo { .. } | Step::Ron { .. } | Step::NineTerminals { .. } => {}
    }
}
