//! The committed logs of `tests/data/logs/` (one hand each, Tenhou JSON and mjai for
//! every corner case: double ron, chankan, kita with riichi, nine terminals, an
//! abortive draw by four kans, a closed kan under riichi, an open kan) replay exactly
//! and show what their names promise; malformed logs give errors that name the place.

use std::path::PathBuf;

use engine::Rules;
use host_trainer::logs::{self, export, mjai, replay, tenhou, CallKind, GameLog, Kyoku, Step};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/logs")
        .join(name)
}

/// Both formats of a case, replayed; returns its one hand.
fn case(name: &str) -> Kyoku {
    let mut hands = Vec::new();
    for file in [format!("{name}.tenhou.json"), format!("{name}.mjson")] {
        let log = logs::read_file(&data(&file), None, None).expect(&file);
        let rules = if name.starts_with("4p") || name == "abortive" {
            "tenhou-4p-east"
        } else {
            "tenhou-sanma-east"
        };
        assert_eq!(log.rules, Rules::preset(rules).unwrap(), "{file}");
        replay::replay_log(&log).unwrap_or_else(|m| panic!("{file}: {m}"));
        assert_eq!(log.kyokus.len(), 1, "{file}");
        hands.push(log.kyokus[0].clone());
    }
    assert_eq!(hands[0], hands[1], "{name}: the two formats disagree");
    hands.swap_remove(0)
}

fn count(k: &Kyoku, f: impl Fn(&Step) -> bool) -> usize {
    k.steps.iter().filter(|s| f(s)).count()
}

#[test]
fn double_ron_pays_both_winners() {
    let k = case("double-ron");
    let o = k.outcome.unwrap();
    assert_eq!(o.wins.len(), 2);
    assert_eq!(o.wins[0].from, o.wins[1].from);
    let sum: i32 = o.deltas.unwrap().iter().sum();
    assert!(sum >= 0, "the sticks taken make the sum positive or zero");
}

#[test]
fn chankan_robs_an_added_kan() {
    let k = case("chankan");
    let n = k.steps.len();
    assert!(
        matches!(k.steps[n - 2], Step::AddedKan { .. }),
        "{:?}",
        &k.steps[n - 2..]
    );
    assert!(matches!(k.steps[n - 1], Step::Ron { .. }));
}

#[test]
fn sanma_kita_and_riichi_win() {
    let k = case("sanma-kita-riichi-win");
    assert!(count(&k, |s| matches!(s, Step::Kita { .. })) >= 2);
    assert_eq!(
        count(&k, |s| matches!(s, Step::Discard { riichi: true, .. })),
        1
    );
    // A replacement draw follows every kita.
    for (i, s) in k.steps.iter().enumerate() {
        if let Step::Kita { seat } = s {
            assert!(matches!(k.steps[i + 1], Step::Draw { seat: d, .. } if d == *seat));
        }
    }
    assert!(!k.ura.is_empty());
}

#[test]
fn nine_terminals_aborts() {
    let k = case("nine-terminals");
    assert!(matches!(k.steps.last(), Some(Step::NineTerminals { .. })));
    assert_eq!(k.outcome.unwrap().draw.as_deref(), Some("NineTerminals"));
}

#[test]
fn four_kans_abort() {
    let k = case("abortive");
    assert_eq!(k.outcome.unwrap().draw.as_deref(), Some("FourKans"));
}

#[test]
fn kans_and_riichi_in_four_player() {
    let k = case("4p-riichi-kan-tsumo");
    assert!(count(&k, |s| matches!(s, Step::ClosedKan { .. })) >= 1);
    assert!(matches!(k.steps.last(), Some(Step::Tsumo { .. })));
    let k = case("4p-open-kan-win");
    assert!(
        count(&k, |s| matches!(
            s,
            Step::Call {
                kind: CallKind::OpenKan,
                ..
            }
        )) >= 1
    );
    assert!(k.dora.len() >= 2, "the open kan revealed a kan dora");
}

fn tenhou_text(name: &str) -> String {
    std::fs::read_to_string(data(&format!("{name}.tenhou.json"))).unwrap()
}

fn err(text: &str) -> String {
    format!("{:#}", logs::read(text, None, None).expect_err("an error"))
}

#[test]
fn truncated_and_malformed_logs_are_errors() {
    let text = tenhou_text("double-ron");
    assert!(
        err(&text[..text.len() / 2]).contains("not JSON"),
        "{}",
        err(&text[..text.len() / 2])
    );
    let mj = std::fs::read_to_string(data("double-ron.mjson")).unwrap();
    let cut = &mj[..mj.len() - 40];
    let e = err(cut);
    assert!(e.contains("line ") && e.contains("not JSON"), "{e}");
    let e = format!(
        "{:#}",
        mjai::read("{\"type\":\"start_kyoku\"}\n", None).unwrap_err()
    );
    assert!(e.contains("line 1") && e.contains("bakaze"), "{e}");
    let e = format!(
        "{:#}",
        mjai::read("{\"type\":\"tsumo\",\"actor\":0,\"pai\":\"5m\"}\n", None).unwrap_err()
    );
    assert!(e.contains("outside a kyoku"), "{e}");
}

#[test]
fn unknown_call_notation_is_an_error() {
    let mut v: serde_json::Value = serde_json::from_str(&tenhou_text("4p-open-kan-win")).unwrap();
    // Replace seat 0's first discard with a call string of an unknown kind.
    v["log"][0][6][0] = serde_json::json!("12x1212");
    let e = format!("{:#}", tenhou::read(&v.to_string(), None).unwrap_err());
    assert!(
        e.contains("log[0]")
            && e.contains("seat 0 discard entry 0")
            && e.contains("unknown call notation"),
        "{e}"
    );
}

#[test]
fn illegal_actions_are_reported_where_they_happen() {
    let mut log = logs::read_file(&data("double-ron.tenhou.json"), None, None).unwrap();
    let k = &mut log.kyokus[0];
    // The first discard becomes a tile its seat does not hold.
    let i = k
        .steps
        .iter()
        .position(|s| matches!(s, Step::Discard { .. }))
        .unwrap();
    let seat = k.steps[i].seat();
    let mut held: Vec<_> = k.hands[seat as usize].iter().map(|t| t.tile).collect();
    if let Step::Draw { tile, .. } = k.steps[i - 1] {
        held.push(tile.tile);
    }
    let missing = engine::TileSet::Sanma
        .tiles()
        .find(|t| !held.contains(t))
        .unwrap();
    if let Step::Discard {
        tile, tsumogiri, ..
    } = &mut k.steps[i]
    {
        *tile = logs::LogTile::plain(missing);
        *tsumogiri = false;
    }
    let m = replay::replay_log(&log).unwrap_err();
    assert_eq!((m.kyoku, m.step), (0, Some(i)), "{m}");
    assert!(m.to_string().contains("illegal"), "{m}");
}

#[test]
fn a_wrong_score_delta_is_a_mismatch() {
    let mut log = logs::read_file(&data("chankan.tenhou.json"), None, None).unwrap();
    let o = log.kyokus[0].outcome.as_mut().unwrap();
    o.deltas.as_mut().unwrap()[0] += 100;
    let m = replay::replay_log(&log).unwrap_err();
    assert!(m.to_string().contains("score deltas: expected"), "{m}");
}

#[test]
fn unknown_rules_are_errors() {
    let mut v: serde_json::Value = serde_json::from_str(&tenhou_text("4p-open-kan-win")).unwrap();
    v["log"][0][0][0] = serde_json::json!(3);
    // Dealer seat 3 under three-player rules.
    let e = format!(
        "{:#}",
        tenhou::read(&v.to_string(), Rules::preset("tenhou-sanma")).unwrap_err()
    );
    assert!(e.contains("dealer seat 3"), "{e}");
    let e = format!("{:#}", mjai::read("", None).unwrap_err());
    assert!(e.contains("no preset for 0 players"), "{e}");
}

fn play(rules: Rules, seed: u64) -> GameLog {
    export::play_bots_game(rules, seed).unwrap()
}

/// The committed case logs are exactly what the engine writes for their recorded games
/// (found by `cargo run -p host-trainer --example find_case_logs`; see the README
/// beside them): the same bots, seed and hand give the same bytes in both formats.
#[test]
fn case_logs_are_what_their_games_write() {
    let cases = [
        ("double-ron", "tenhou-sanma-east", 0, 5),
        ("sanma-kita-riichi-win", "tenhou-sanma-east", 0, 2),
        ("chankan", "tenhou-sanma-east", 24, 6),
        ("nine-terminals", "tenhou-sanma-east", 285, 5),
        ("4p-riichi-kan-tsumo", "tenhou-4p-east", 77, 2),
        ("4p-open-kan-win", "tenhou-4p-east", 95, 6),
        ("abortive", "tenhou-4p-east", 2236, 5),
    ];
    for (name, preset, seed, hand) in cases {
        let log = play(Rules::preset(preset).unwrap(), seed);
        let one = GameLog {
            names: log.names.clone(),
            rules: log.rules,
            kyokus: vec![log.kyokus[hand].clone()],
        };
        let json = serde_json::to_string_pretty(&tenhou::write(&one)).unwrap() + "\n";
        let committed = std::fs::read_to_string(data(&format!("{name}.tenhou.json"))).unwrap();
        assert_eq!(json, committed, "{name}.tenhou.json");
        let committed = std::fs::read_to_string(data(&format!("{name}.mjson"))).unwrap();
        assert_eq!(mjai::write(&one), committed, "{name}.mjson");
    }
}
