//! The input columns of the riichi score vectors (tests/data/riichi-scores/README.md),
//! shared by the differential test and the yaku table tests.
#![allow(dead_code)]

use engine::game::MeldKind;
use engine::notation::{parse_tiles, parse_with_reds};
use engine::score::{Conditions, Meld, Preset, Riichi, WinInput, WinMethod, Wind};
use engine::tile::Tile;

/// Parses the ten input columns: hand, melds, win, flags, winds, dora, ura, kita,
/// honba, sticks (`-` for none).
pub fn parse_input(preset: Preset, columns: &[&str]) -> Result<WinInput, String> {
    let [hand, melds, win, flags, winds, dora, ura, kita, honba, sticks] = columns else {
        return Err(format!("expected 10 input columns, got {}", columns.len()));
    };
    let tile_set = preset.tile_set();
    let concealed = parse_with_reds(hand, tile_set).map_err(|e| format!("hand {hand}: {e}"))?;
    let win = parse_tiles::<1>(win, tile_set).map_err(|e| format!("win {win}: {e}"))?;
    let winning_tile = *win.first().ok_or("no winning tile")?;
    let mut input = WinInput::new(preset, concealed.counts, winning_tile);
    input.red_fives = concealed.red_fives;
    if *melds != "-" {
        for text in melds.split(',') {
            let (kind, tiles) = text.split_at(1);
            let kind = match kind {
                "c" => MeldKind::Chi,
                "p" => MeldKind::Pon,
                "m" => MeldKind::OpenKan,
                "s" => MeldKind::AddedKan,
                "a" => MeldKind::ClosedKan,
                other => return Err(format!("meld kind {other}")),
            };
            let tiles =
                parse_with_reds(tiles, tile_set).map_err(|e| format!("meld {text}: {e}"))?;
            let lowest = tiles
                .counts
                .iter()
                .position(|&c| c > 0)
                .ok_or("empty meld")?;
            for (r, m) in input.red_fives.iter_mut().zip(tiles.red_fives) {
                *r += m;
            }
            let tile = Tile::new(lowest as u8).ok_or("bad tile")?;
            input
                .melds
                .push(Meld { kind, tile })
                .map_err(|_| "more than four melds")?;
        }
    }
    let mut conditions = Conditions::default();
    if *flags != "-" {
        for flag in flags.chars() {
            match flag {
                't' => input.method = WinMethod::Tsumo,
                'r' => conditions.riichi = Riichi::Riichi,
                'd' => conditions.riichi = Riichi::Double,
                'i' => conditions.ippatsu = true,
                'h' => conditions.haitei = true,
                'H' => conditions.houtei = true,
                'k' => conditions.rinshan = true,
                'c' => conditions.chankan = true,
                'T' => conditions.tenhou = true,
                'C' => conditions.chiihou = true,
                other => return Err(format!("flag {other}")),
            }
        }
    }
    input.conditions = conditions;
    let mut wind_letters = winds.chars().map(Wind::from_letter);
    input.round_wind = wind_letters.next().flatten().ok_or("round wind")?;
    input.seat_wind = wind_letters.next().flatten().ok_or("seat wind")?;
    let indicators = |text: &str| {
        if text == "-" {
            Ok(heapless::Vec::new())
        } else {
            parse_tiles::<5>(text, tile_set).map_err(|e| format!("indicators {text}: {e}"))
        }
    };
    input.dora_indicators = indicators(dora)?;
    input.ura_indicators = indicators(ura)?;
    let number = |text: &str| text.parse::<u8>().map_err(|e| format!("{text}: {e}"));
    input.kita = number(kita)?;
    input.honba = number(honba)?;
    input.riichi_sticks = number(sticks)?;
    Ok(input)
}

/// [`parse_input`] on a whitespace-separated line.
pub fn input(preset: Preset, line: &str) -> WinInput {
    let columns: Vec<&str> = line.split_whitespace().collect();
    match parse_input(preset, &columns) {
        Ok(input) => input,
        Err(e) => panic!("{line}: {e}"),
    }
}
