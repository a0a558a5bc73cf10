//! The result entry of a Tenhou hand: wins (`和了`) and draws (`流局` and its named
//! variants), read and written.

use anyhow::{Context, Result};
use serde_json::{json, Value};

use crate::{LogWin, Outcome};

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

pub(super) fn read(v: &Value) -> Result<Outcome> {
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

pub(super) fn write(o: &Outcome) -> Value {
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
