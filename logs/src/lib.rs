//! Game logs in the formats other tools speak: Tenhou's JSON replay format
//! ([`tenhou`]), Tenhou's mjlog XML ([`mjlog`], read only) and mjai JSON lines ([`mjai`]), read into and written from one neutral
//! model ([`GameLog`]), replayed exactly through the engine ([`replay`]) and exported
//! from engine games ([`export`]).
//!
//! The model holds what both formats record: per hand (kyoku) the table, the scores,
//! the 13-tile hands, the dora and ura indicators, every draw and decision in order
//! (with red fives), and the result (winners, han, fu, points, score deltas). Passes are
//! not recorded; replay answers every claim window the log does not claim with a pass.
//!
//! This crate is std, with no libtorch and no CLI: the host CLI (`host-trainer
//! replay-log`, `convert-log`, `review`, the mjai bot), the Python package
//! (`mahjong_engine.read_log`) and later the browser share it.

#![deny(missing_docs)]

pub mod export;
pub mod mjai;
pub mod mjlog;
pub mod replay;
pub mod tenhou;

use engine::{Rules, Tile};

/// One physical tile: its type and whether it is a red five.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LogTile {
    /// The tile type.
    pub tile: Tile,
    /// A red five (`0m`/`0p`/`0s`).
    pub red: bool,
}

impl LogTile {
    /// A plain tile.
    pub fn plain(tile: Tile) -> LogTile {
        LogTile { tile, red: false }
    }

    /// The tile in mpsz notation, `0` for a red five (`5m`, `0p`, `1z`).
    pub fn mpsz(self) -> String {
        let n = if self.red { 0 } else { self.tile.number() };
        format!("{n}{}", self.tile.suit().letter())
    }
}

/// The three claims on a discard.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CallKind {
    /// A sequence with the left neighbour's discard.
    Chi,
    /// A triplet.
    Pon,
    /// An open kan (daiminkan).
    OpenKan,
}

/// One recorded event of a hand, in table order. Seats are 0-based in the log's
/// frame; each variant's doc names its fields.
#[allow(missing_docs)]
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// `seat` drew `tile` (a replacement draw when it follows the seat's kan or kita).
    Draw { seat: u8, tile: LogTile },
    /// `seat` discarded `tile` (the tile just drawn when `tsumogiri`), declaring riichi
    /// with it when `riichi`.
    Discard {
        seat: u8,
        tile: LogTile,
        tsumogiri: bool,
        riichi: bool,
    },
    /// `seat` claimed `tile` from `from` with `consumed` from its hand.
    Call {
        seat: u8,
        kind: CallKind,
        from: u8,
        tile: LogTile,
        consumed: Vec<LogTile>,
    },
    /// `seat` declared a closed kan of these four tiles.
    ClosedKan { seat: u8, tiles: Vec<LogTile> },
    /// `seat` added `tile` to its pon of `pon` (claimed from `from`).
    AddedKan {
        seat: u8,
        tile: LogTile,
        pon: Vec<LogTile>,
        from: u8,
    },
    /// `seat` set a north aside (sanma).
    Kita { seat: u8 },
    /// `seat` won on its own draw.
    Tsumo { seat: u8 },
    /// `seat` won on `from`'s discard (or added kan).
    Ron { seat: u8, from: u8 },
    /// `seat` aborted the hand with nine terminals and honours.
    NineTerminals { seat: u8 },
}

impl Step {
    /// The seat that acts.
    pub fn seat(&self) -> u8 {
        match *self {
            Step::Draw { seat, .. }
            | Step::Discard { seat, .. }
            | Step::Call { seat, .. }
            | Step::ClosedKan { seat, .. }
            | Step::AddedKan { seat, .. }
            | Step::Kita { seat }
            | Step::Tsumo { seat }
            | Step::Ron { seat, .. }
            | Step::NineTerminals { seat } => seat,
        }
    }

    /// Whether the step is followed by a replacement draw (kan or kita).
    pub fn takes_replacement(&self) -> bool {
        matches!(
            self,
            Step::ClosedKan { .. }
                | Step::AddedKan { .. }
                | Step::Kita { .. }
                | Step::Call {
                    kind: CallKind::OpenKan,
                    ..
                }
        )
    }
}

/// One win of a hand's result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogWin {
    /// The winner.
    pub seat: u8,
    /// The discarder; `None` for tsumo.
    pub from: Option<u8>,
    /// Han (`None` when the log gives only a limit name or nothing).
    pub han: Option<u8>,
    /// Fu (`None` when the log does not say).
    pub fu: Option<u8>,
    /// What the winner received (honba and riichi sticks included), when the log says.
    pub points: Option<i32>,
    /// This win's score changes by seat, when the log gives them.
    pub deltas: Option<[i32; 4]>,
}

/// How a hand ended.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Outcome {
    /// The wins (empty for a draw).
    pub wins: Vec<LogWin>,
    /// For a draw, its kind by the engine's `DrawKind` name (`Exhaustive`,
    /// `NineTerminals`, `FourWinds`, `FourRiichi`, `FourKans`, `TripleRon`).
    pub draw: Option<String>,
    /// Every seat's score change by the settlement (deposits during the hand excluded),
    /// when the log gives it.
    pub deltas: Option<[i32; 4]>,
}

/// One hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Kyoku {
    /// Round wind: 0 East, 1 South, 2 West.
    pub round: u8,
    /// The dealer's seat (the hand number within the round).
    pub dealer: u8,
    /// Honba counter.
    pub honba: u8,
    /// Riichi sticks on the table at the start.
    pub sticks: u8,
    /// Scores at the start (seats past the player count are 0).
    pub scores: [i32; 4],
    /// Each seat's 13 starting tiles.
    pub hands: Vec<Vec<LogTile>>,
    /// Dora indicators in reveal order.
    pub dora: Vec<LogTile>,
    /// Ura dora indicators (known only when a riichi hand won).
    pub ura: Vec<LogTile>,
    /// Draws and decisions in order.
    pub steps: Vec<Step>,
    /// The result, when the log records one.
    pub outcome: Option<Outcome>,
}

/// A whole log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameLog {
    /// Player names by seat.
    pub names: Vec<String>,
    /// The rules the log was played under.
    pub rules: Rules,
    /// The hands in order.
    pub kyokus: Vec<Kyoku>,
}

/// Which site's rules a log was played under.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Site {
    /// Tenhou (and any log that does not say).
    Tenhou,
    /// Mahjong Soul (雀魂), for logs converted from it into Tenhou's format.
    MahjongSoul,
}

/// The engine preset for a log of `players` players, hanchan or east-only, from `site`.
pub fn preset_for(players: u8, hanchan: bool, site: Site) -> Option<Rules> {
    let site = match site {
        Site::Tenhou => "tenhou",
        Site::MahjongSoul => "majsoul",
    };
    let table = match players {
        3 => "sanma",
        4 => "4p",
        _ => return None,
    };
    let length = if hanchan { "" } else { "-east" };
    Rules::preset(&format!("{site}-{table}{length}"))
}

/// Whether `rules` play a hanchan (East and South) rather than East only.
pub fn is_hanchan(rules: &Rules) -> bool {
    rules
        .riichi
        .is_some_and(|r| r.length == engine::GameLength::Hanchan)
}

/// The two log formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Tenhou JSON (one object with a `log` array).
    Tenhou,
    /// mjai JSON lines.
    Mjai,
    /// Tenhou's mjlog XML ([`mjlog`]).
    Mjlog,
}

/// The format of a log's text: mjlog when it is an `<mjloggm>` document, Tenhou JSON
/// when it is one JSON object with a `"log"` key, mjai otherwise.
pub fn detect(text: &str) -> Format {
    if mjlog::is_mjlog(text) {
        return Format::Mjlog;
    }
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let one_object = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .is_some_and(|v| v.get("type").is_some());
    if !one_object && text.contains("\"log\"") {
        Format::Tenhou
    } else {
        Format::Mjai
    }
}

/// Reads a log of `format` (detected when `None`) under `rules` (from the log when
/// `None`).
pub fn read(text: &str, format: Option<Format>, rules: Option<Rules>) -> anyhow::Result<GameLog> {
    match format.unwrap_or_else(|| detect(text)) {
        Format::Tenhou => tenhou::read(text, rules),
        Format::Mjai => mjai::read(text, rules),
        Format::Mjlog => mjlog::read(text, rules),
    }
}

/// Reads a log file (gzip-compressed or not); errors name the file.
pub fn read_file(
    path: &std::path::Path,
    format: Option<Format>,
    rules: Option<Rules>,
) -> anyhow::Result<GameLog> {
    use anyhow::Context;
    let text = read_text(path)?;
    read(&text, format, rules).with_context(|| format!("{}", path.display()))
}

/// The text of a log file, gunzipped when it is gzip (`.gz`, Tenhou's `.mjlog`).
pub fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    use anyhow::Context;
    use std::io::Read;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    // Tenhou's `.mjlog` downloads are gzip without saying so: the magic bytes decide.
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .with_context(|| format!("{}: not gzip (truncated?)", path.display()))?;
        out
    } else {
        bytes
    };
    String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8 text", path.display()))
}

/// Whether a file name is taken for a log in a folder: `.json`, `.mjson`, `.jsonl`,
/// `.mjlog`, `.xml`, each
/// also gzip-compressed (`.json.gz`); a README beside the logs is not.
pub fn is_log_name(p: &std::path::Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let name = name.strip_suffix(".gz").unwrap_or(name);
    [".json", ".mjson", ".jsonl", ".mjlog", ".xml"]
        .iter()
        .any(|e| name.ends_with(e))
}

/// The log files of `paths`: each folder stands for the log files under it
/// ([`is_log_name`], folders below included), sorted; files are taken as given.
pub fn expand(paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<std::path::PathBuf>> {
    use anyhow::Context;
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> anyhow::Result<()> {
        let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("reading the folder {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out)?;
            } else if e.is_file() && is_log_name(&e) {
                out.push(e);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
