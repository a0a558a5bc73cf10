//! The Tenhou JSON writer: the four-seat frame for every player count (three-player
//! logs leave the fourth seat's lists empty and place calls as Tenhou does).

use serde_json::{json, Value};

use super::calls::claim_string;
use super::{result, tile_code};
use crate::{CallKind, GameLog, Kyoku, LogTile, Step};

fn codes(tiles: &[LogTile]) -> String {
    tiles.iter().map(|&t| tile_code(t).to_string()).collect()
}

/// The Tenhou JSON of a log.
pub fn write(log: &GameLog) -> Value {
    let n = log.rules.players;
    let majsoul = log.rules.riichi.is_some_and(|r| r.preset.is_majsoul());
    // Mahjong Soul rules as its converters name them (a room, read back by `site_of`).
    let disp = match (n, crate::is_hanchan(&log.rules), majsoul) {
        (3, true, false) => "三般南喰赤",
        (3, false, false) => "三般東喰赤",
        (_, true, false) => "般南喰赤",
        (_, false, false) => "般東喰赤",
        (3, true, true) => "玉の間三人南",
        (3, false, true) => "玉の間三人東",
        (_, true, true) => "玉の間四人南",
        (_, false, true) => "玉の間四人東",
    };
    let mut names = log.names.clone();
    names.resize(4, String::new());
    json!({
        "title": ["", ""],
        "name": names,
        "rule": {"disp": disp, "aka": 1},
        "log": log.kyokus.iter().map(write_kyoku).collect::<Vec<_>>(),
    })
}

fn write_kyoku(k: &Kyoku) -> Value {
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
                dr.push(json!(claim_string(marker, *seat, *from, *tile, consumed)));
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
                di.push(json!(claim_string('k', *seat, *from, *tile, pon)));
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
        out.push(result::write(o));
    }
    Value::Array(out)
}
