//! `host-trainer score`: the riichi hand calculator (`engine::score`, Tenhou rules).
//!
//! One hand from the arguments (`score 123m406p789s11122z --win 2z --tsumo --dora 1z`),
//! or, without a hand, JSON lines on stdin, one object per hand with the same fields as
//! the flags (`{"hand": "123m406p789s11122z", "win": "2z", "tsumo": true, "dora": "1z",
//! "rules": "tenhou-4p"}`; missing fields take the flags' values). Output: the yaku with
//! their han, the dora, han, fu, limit and payments as text, or one JSON object per hand
//! with `--json`. A bad hand gets a message on stderr naming it (the line number on
//! stdin); the others are still answered and the exit status is non-zero.

use std::io::{BufRead, Write};

use anyhow::Context;
use engine::game::MeldKind;
use engine::notation::{parse_tiles, parse_with_reds, Tiles};
use engine::score::{
    score, Conditions, Meld, Preset, Riichi, Score, WinInput, WinMethod, Wind, YakuValue,
};
use engine::tile::Tile;
use host_trainer::cli::ScoreRulesArg;
use serde::Deserialize;
use serde_json::json;

/// One hand to score: the command line's flags, or a JSON line.
#[derive(clap::Args, Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Hand {
    /// The concealed tiles including the winning tile, mpsz with red fives as 0
    /// (`123m406p789s11122z`); without it, JSON lines are read from stdin.
    pub hand: Option<String>,
    /// Melds, comma-separated (or the flag repeated): a letter then the tiles, `c` chi,
    /// `p` pon, `m` open kan, `s` added kan, `a` closed kan (`p555z,c406s`).
    #[arg(long, value_delimiter = ',')]
    #[serde(deserialize_with = "melds_from_json")]
    pub melds: Vec<String>,
    /// The winning tile (default: the last tile written in the hand).
    #[arg(long)]
    pub win: Option<String>,
    /// Won by tsumo (default: ron).
    #[arg(long)]
    pub tsumo: bool,
    /// Riichi.
    #[arg(long)]
    pub riichi: bool,
    /// Double riichi.
    #[arg(long)]
    pub double_riichi: bool,
    /// Ippatsu.
    #[arg(long)]
    pub ippatsu: bool,
    /// Haitei (tsumo on the last tile).
    #[arg(long)]
    pub haitei: bool,
    /// Houtei (ron on the last discard).
    #[arg(long)]
    pub houtei: bool,
    /// Rinshan kaihou (tsumo on a kan replacement tile).
    #[arg(long)]
    pub rinshan: bool,
    /// Chankan (ron on a tile added to a kan).
    #[arg(long)]
    pub chankan: bool,
    /// Tenhou (the dealer's win on the deal).
    #[arg(long)]
    pub tenhou: bool,
    /// Chiihou (a non-dealer's tsumo on the first draw).
    #[arg(long)]
    pub chiihou: bool,
    /// Dora indicators, mpsz (`1m7z`).
    #[arg(long)]
    pub dora: Option<String>,
    /// Ura dora indicators, mpsz (counted with riichi only).
    #[arg(long)]
    pub ura: Option<String>,
    /// Kita (norths set aside, sanma).
    #[arg(long)]
    pub kita: Option<u8>,
    /// Round wind: E, S, W or N (default E).
    #[arg(long)]
    pub round: Option<String>,
    /// Seat wind: E (dealer), S, W or N (default E).
    #[arg(long)]
    pub seat: Option<String>,
    /// Honba counter.
    #[arg(long)]
    pub honba: Option<u8>,
    /// Riichi sticks on the table.
    #[arg(long)]
    pub sticks: Option<u8>,
    /// Scoring rules (default tenhou-sanma, the project's default tile set).
    #[arg(long, value_enum)]
    pub rules: Option<ScoreRulesArg>,
}

fn melds_from_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Melds {
        Text(String),
        List(Vec<String>),
    }
    Ok(match Melds::deserialize(d)? {
        Melds::Text(t) => t.split(',').map(str::to_string).collect(),
        Melds::List(l) => l,
    })
}

/// Arguments of `host-trainer score`.
#[derive(clap::Args)]
pub struct Args {
    /// The hand and its conditions (the defaults of JSON lines on stdin).
    #[command(flatten)]
    pub hand: Hand,
    /// Print one JSON object per hand.
    #[arg(long)]
    pub json: bool,
}

fn wind(text: Option<&str>, what: &str) -> Result<Wind, String> {
    let text = text.unwrap_or("E");
    let mut chars = text.chars();
    match (chars.next().and_then(Wind::from_letter), chars.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(format!("{what} wind {text:?}: expected E, S, W or N")),
    }
}

fn parse_meld(text: &str, preset: Preset, reds: &mut [u8; 3]) -> Result<Meld, String> {
    let text = text.trim();
    let mut chars = text.chars();
    let kind = match chars.next() {
        Some('c') => MeldKind::Chi,
        Some('p') => MeldKind::Pon,
        Some('m') => MeldKind::OpenKan,
        Some('s') => MeldKind::AddedKan,
        Some('a') => MeldKind::ClosedKan,
        _ => {
            return Err(format!(
                "meld {text:?}: start with c (chi), p (pon), m (open kan), s (added kan) or a (closed kan)"
            ))
        }
    };
    let tiles = parse_with_reds(chars.as_str(), preset.tile_set())
        .map_err(|e| format!("meld {text:?}: {e}"))?;
    let count: u32 = tiles.counts.iter().map(|&c| u32::from(c)).sum();
    let lowest = tiles.counts.iter().position(|&c| c > 0);
    let distinct = tiles.counts.iter().filter(|&&c| c > 0).count();
    let run_from = |l: usize| l < 27 && l % 9 <= 6 && tiles.counts[l..l + 3] == [1, 1, 1];
    let shape_ok = match kind {
        MeldKind::Chi => count == 3 && lowest.is_some_and(run_from),
        MeldKind::Pon => count == 3 && distinct == 1,
        _ => count == 4 && distinct == 1,
    };
    let tile = lowest.and_then(|i| Tile::new(i as u8));
    match tile {
        Some(tile) if shape_ok => {
            for (r, m) in reds.iter_mut().zip(tiles.red_fives) {
                *r += m;
            }
            Ok(Meld { kind, tile })
        }
        _ => Err(format!("meld {text:?}: not the tiles of that kind of meld")),
    }
}

/// The indicator tiles written in `text`, `None` when there are none (`-` or empty).
fn indicator_text(text: Option<&str>) -> Option<&str> {
    match text.map(str::trim) {
        None | Some("") | Some("-") => None,
        Some(t) => Some(t),
    }
}

/// The engine input of `hand`, whose missing fields come from `defaults`.
fn to_input(hand: &Hand, defaults: &Hand) -> Result<WinInput, String> {
    let preset: Preset = hand
        .rules
        .or(defaults.rules)
        .unwrap_or(ScoreRulesArg::TenhouSanma)
        .into();
    let text = hand.hand.as_deref().ok_or("no hand")?;
    let concealed =
        parse_with_reds(text, preset.tile_set()).map_err(|e| format!("hand {text:?}: {e}"))?;
    let mut written = Vec::new();
    engine::notation::parse_each(&text.replace('0', "5"), |t| {
        written.push(t);
        Ok(())
    })
    .map_err(|e| format!("hand {text:?}: {e}"))?;
    let winning_tile = match hand.win.as_deref().or(defaults.win.as_deref()) {
        Some(w) => *parse_tiles::<1>(&w.replace('0', "5"), preset.tile_set())
            .map_err(|e| format!("winning tile {w:?}: {e}"))?
            .first()
            .ok_or("empty winning tile")?,
        None => *written.last().ok_or("empty hand")?,
    };
    let mut input = WinInput::new(preset, concealed.counts, winning_tile);
    input.red_fives = concealed.red_fives;
    let melds = if hand.melds.is_empty() {
        &defaults.melds
    } else {
        &hand.melds
    };
    for text in melds.iter().filter(|m| !m.trim().is_empty()) {
        let meld = parse_meld(text, preset, &mut input.red_fives)?;
        input.melds.push(meld).map_err(|_| "more than four melds")?;
    }
    let flag = |f: fn(&Hand) -> bool| f(hand) || f(defaults);
    input.method = if flag(|h| h.tsumo) {
        WinMethod::Tsumo
    } else {
        WinMethod::Ron
    };
    input.conditions = Conditions {
        riichi: match (flag(|h| h.riichi), flag(|h| h.double_riichi)) {
            (_, true) => Riichi::Double,
            (true, false) => Riichi::Riichi,
            _ => Riichi::None,
        },
        ippatsu: flag(|h| h.ippatsu),
        haitei: flag(|h| h.haitei),
        houtei: flag(|h| h.houtei),
        rinshan: flag(|h| h.rinshan),
        chankan: flag(|h| h.chankan),
        tenhou: flag(|h| h.tenhou),
        chiihou: flag(|h| h.chiihou),
    };
    input.round_wind = wind(hand.round.as_deref().or(defaults.round.as_deref()), "round")?;
    input.seat_wind = wind(hand.seat.as_deref().or(defaults.seat.as_deref()), "seat")?;
    let tile_set = preset.tile_set();
    let bad = |t: &str, e: engine::notation::ParseError| format!("indicators {t:?}: {e}");
    if let Some(t) = indicator_text(hand.dora.as_deref().or(defaults.dora.as_deref())) {
        input.dora_indicators = indicators(t, tile_set).map_err(|e| bad(t, e))?;
    }
    if let Some(t) = indicator_text(hand.ura.as_deref().or(defaults.ura.as_deref())) {
        input.ura_indicators = indicators(t, tile_set).map_err(|e| bad(t, e))?;
    }
    input.kita = hand.kita.or(defaults.kita).unwrap_or(0);
    input.honba = hand.honba.or(defaults.honba).unwrap_or(0);
    input.riichi_sticks = hand.sticks.or(defaults.sticks).unwrap_or(0);
    Ok(input)
}

fn yaku_json(s: &Score) -> Vec<serde_json::Value> {
    s.yaku
        .iter()
        .map(|y| match y.value {
            YakuValue::Han(h) => json!({"name": y.yaku.name(), "han": h}),
            YakuValue::Yakuman(m) => json!({"name": y.yaku.name(), "yakuman": m}),
        })
        .collect()
}

/// The JSON object of a scored hand.
fn to_json(input: &WinInput, s: &Score) -> serde_json::Value {
    let p = &s.payment;
    json!({
        "rules": input.preset.name(),
        "yaku": yaku_json(s),
        "dora": s.dora,
        "ura_dora": s.ura_dora,
        "aka_dora": s.aka_dora,
        "kita": s.kita,
        "han": s.han,
        "fu": s.fu,
        "yakuman": s.yakuman,
        "limit": s.limit.name(),
        "basic_points": s.basic_points,
        "payment": {
            "from_discarder": p.from_discarder,
            "from_dealer": p.from_dealer,
            "from_each_non_dealer": p.from_each_non_dealer,
            "non_dealer_payers": p.non_dealer_payers,
            "riichi_sticks": p.riichi_sticks,
            "total": p.total,
        },
    })
}

/// The text report of a scored hand.
fn to_text(input: &WinInput, s: &Score) -> String {
    let mut out = String::new();
    for y in &s.yaku {
        match y.value {
            YakuValue::Han(h) => out.push_str(&format!("{:<18}{h} han\n", y.yaku.name())),
            YakuValue::Yakuman(m) => out.push_str(&format!("{:<18}yakuman x{m}\n", y.yaku.name())),
        }
    }
    for (name, han) in [
        ("dora", s.dora),
        ("ura_dora", s.ura_dora),
        ("aka_dora", s.aka_dora),
        ("kita", s.kita),
    ] {
        if han > 0 {
            out.push_str(&format!("{name:<18}{han} han\n"));
        }
    }
    if s.yakuman > 0 {
        out.push_str(&format!(
            "yakuman x{} ({} basic points)\n",
            s.yakuman, s.basic_points
        ));
    } else {
        out.push_str(&format!(
            "{} han {} fu, {} ({} basic points)\n",
            s.han,
            s.fu,
            s.limit.name(),
            s.basic_points
        ));
    }
    let p = &s.payment;
    match input.method {
        WinMethod::Ron => out.push_str(&format!("ron: {} from the discarder\n", p.from_discarder)),
        WinMethod::Tsumo if p.from_dealer > 0 => out.push_str(&format!(
            "tsumo: {} from the dealer, {} from each of {} non-dealers\n",
            p.from_dealer, p.from_each_non_dealer, p.non_dealer_payers
        )),
        WinMethod::Tsumo => out.push_str(&format!(
            "tsumo: {} from each of {} non-dealers\n",
            p.from_each_non_dealer, p.non_dealer_payers
        )),
    }
    if p.riichi_sticks > 0 {
        out.push_str(&format!("riichi sticks: {}\n", p.riichi_sticks));
    }
    out.push_str(&format!("total: {}\n", p.total));
    out
}

/// Scores one hand and returns its output (text block or JSON line).
fn answer(hand: &Hand, defaults: &Hand, json: bool) -> Result<String, String> {
    let input = to_input(hand, defaults)?;
    let s = score(&input).map_err(|e| {
        let hand_text = hand.hand.as_deref().unwrap_or("");
        let melds = input
            .melds
            .iter()
            .map(|m| format!("{:?} {}", m.kind, Tiles(&[m.tile])))
            .collect::<Vec<_>>()
            .join(", ");
        if melds.is_empty() {
            format!("{hand_text}: {e}")
        } else {
            format!("{hand_text} with {melds}: {e}")
        }
    })?;
    Ok(if json {
        format!("{}\n", to_json(&input, &s))
    } else {
        to_text(&input, &s)
    })
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.hand.hand.is_some() {
        let text = answer(&args.hand, &Hand::default(), args.json).map_err(anyhow::Error::msg)?;
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let mut errors = 0usize;
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let result = serde_json::from_str::<Hand>(&line)
            .map_err(|e| format!("not a JSON hand object: {e}"))
            .and_then(|hand| answer(&hand, &args.hand, args.json));
        match result {
            Ok(text) => {
                out.write_all(text.as_bytes())?;
                if !args.json {
                    writeln!(out)?;
                }
            }
            Err(reason) => {
                out.flush()?;
                eprintln!("line {}: {reason}", i + 1);
                errors += 1;
            }
        }
    }
    out.flush()?;
    if errors > 0 {
        anyhow::bail!("{errors} hand(s) could not be scored");
    }
    Ok(())
}

/// Dora or ura indicators, mpsz: a red five (`0p`) is written as it lies on the table
/// and indicates like a plain five (the next tile, 6p, is dora; Tenhou's rules: the
/// indicator's redness counts for nothing, only red fives held are aka dora).
fn indicators(
    s: &str,
    tile_set: engine::TileSet,
) -> Result<heapless::Vec<engine::Tile, 5>, engine::notation::ParseError> {
    use engine::notation::ParseError;
    let mut out = heapless::Vec::new();
    engine::notation::parse_each_with_reds(s, |tile, _red| {
        if !tile_set.contains(tile) {
            return Err(ParseError::NotInTileSet { tile });
        }
        out.push(tile).map_err(|_| ParseError::TooManyTiles)
    })?;
    Ok(out)
}
