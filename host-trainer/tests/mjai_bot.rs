//! The mjai bot (`mjai_bot`, `host-trainer mjai`).
//!
//! (a) Whole engine games of efficiency and random bots, written as mjai and fed to the
//! bot as each seat receives them (the others' draws and starting hands hidden as
//! `"?"`, a kan dora shown with its discard on the discard's line): at every decision
//! the engine asked of that seat, the bot decides too, its observation is the engine's,
//! its action is legal there, and with the efficiency decider it is the action the
//! efficiency bot played in the engine game. (b) Malformed lines and events that do
//! not fit the tracked state are errors naming what is wrong. (c) The binary on a
//! committed mjai stream.

use engine::bots::{Agent, EfficiencyBot, RandomBot};
use engine::game::{Action, Discard, LegalActions, Observation};
use engine::Rules;
use host_trainer::logs::export::play_game;
use host_trainer::logs::mjai::{self, Dialect};
use mjai_bot::answer::Decider;
use mjai_bot::{Bot, BotConfig, Reply};
use serde_json::{json, Value};

/// A seat's agent that records every decision it was asked for.
struct Recorder {
    inner: Box<dyn Agent>,
    eff: bool,
    log: Vec<(Observation, LegalActions, Action)>,
}

impl Agent for Recorder {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        let a = self.inner.act(obs, legal);
        self.log.push((obs.clone(), legal.clone(), a));
        a
    }
}

/// The mjai lines seat `seat` receives: others' draws and starting hands hidden, a
/// `dora` that follows a discard on the discard's line.
fn seat_stream(text: &str, seat: u8) -> Vec<String> {
    let mut lines: Vec<Vec<Value>> = Vec::new();
    for l in text.lines() {
        let mut e: Value = serde_json::from_str(l).unwrap();
        let ty = e["type"].as_str().unwrap().to_string();
        let actor = e.get("actor").and_then(Value::as_u64);
        match ty.as_str() {
            "start_game" => e["id"] = json!(seat),
            "start_kyoku" => {
                let hands = e["tehais"].as_array_mut().unwrap();
                for (s, h) in hands.iter_mut().enumerate() {
                    if s != seat as usize {
                        *h = json!(vec!["?"; 13]);
                    }
                }
            }
            "tsumo" if actor != Some(seat as u64) => e["pai"] = json!("?"),
            _ => {}
        }
        // The line of the discard a kan dora shows with (a `reach_accepted` between
        // them comes after the claim window, so the dora goes before it).
        let ends_discard = |l: &Vec<Value>| {
            l.last()
                .is_some_and(|p| p["type"] == "dahai" || p["type"] == "dora")
        };
        let k = lines.len();
        let target = match k {
            _ if ty != "dora" => None,
            0 => None,
            _ if ends_discard(&lines[k - 1]) => Some(k - 1),
            _ if k >= 2
                && lines[k - 1][0]["type"] == "reach_accepted"
                && ends_discard(&lines[k - 2]) =>
            {
                Some(k - 2)
            }
            _ => None,
        };
        match target {
            Some(i) => lines[i].push(e),
            None => lines.push(vec![e]),
        }
    }
    lines
        .into_iter()
        .map(|l| match l.len() {
            1 => l[0].to_string(),
            _ => Value::Array(l).to_string(),
        })
        .collect()
}

/// The one difference between the bot's view and the engine's allowed: another seat
/// drew a red five and discarded a plain one of its type (or the reverse). mjai's
/// `tsumogiri` says what a real table shows, a tile from the hand; the engine, whose
/// discards name tile types, counts it as the drawn type (`Discard::tsumogiri`).
fn red_swap(bot: Option<&Discard>, engine: Option<&Discard>) -> bool {
    match (bot, engine) {
        (Some(x), Some(y)) => {
            let five = !x.tile.is_honor() && x.tile.number() == 5;
            five && !x.tsumogiri
                && y.tsumogiri
                && Discard {
                    tsumogiri: true,
                    ..*x
                } == *y
        }
        _ => false,
    }
}

/// Observations equal but for [`red_swap`]s.
fn same_view(a: &Observation, b: &Observation) -> bool {
    let mut a = a.clone();
    for (s, (x, y)) in a.discards.iter_mut().zip(&b.discards).enumerate() {
        for (d, e) in x.iter_mut().zip(y) {
            if s != a.seat as usize && red_swap(Some(d), Some(e)) {
                d.tsumogiri = true;
            }
        }
    }
    a == *b
}

/// The fields in which two observations differ, for the failure message.
fn diff(a: &Observation, b: &Observation) -> String {
    let mut out = Vec::new();
    macro_rules! cmp {
        ($x:expr, $y:expr; $($f:ident),*) => {$(
            if $x.$f != $y.$f {
                out.push(format!("{}: bot {:?}, engine {:?}", stringify!($f), $x.$f, $y.$f));
            }
        )*};
    }
    cmp!(a, b; rules, seat, dealer, hand_number, phase, turn, hand, drawn, melds);
    for (s, (x, y)) in a.discards.iter().zip(&b.discards).enumerate() {
        if let Some(i) = (0..x.len().max(y.len())).find(|&i| x.get(i) != y.get(i)) {
            if s != a.seat as usize && red_swap(x.get(i), y.get(i)) {
                continue;
            }
            out.push(format!(
                "discard {i} of seat {s}: bot {:?}, engine {:?}",
                x.get(i),
                y.get(i)
            ));
        }
    }
    cmp!(a, b; unseen, live_wall, kans, scores, pending);
    if let (Some(x), Some(y)) = (&a.riichi, &b.riichi) {
        cmp!(x, y; declared, kita, dora_indicators, honba, riichi_sticks, round_wind, seat_wind);
        cmp!(x, y; red_hand, red_melds, red_discards, furiten, double, ippatsu, rinshan);
    } else if a.riichi != b.riichi {
        out.push("riichi view".into());
    }
    out.join("; ")
}

fn bot(rules: Rules) -> Bot {
    Bot::new(BotConfig {
        seat: None,
        rules: Some(rules),
        dialect: Dialect::Nukidora,
        decider: Decider::Efficiency,
    })
}

/// What one game checked: decisions compared, and of those the efficiency bot's.
#[derive(Default)]
struct Checked {
    decisions: usize,
    eff_decisions: usize,
    /// Lines that held an array of events (a discard with its kan dora).
    arrays: usize,
}

/// Plays game `seed`, then drives a bot through every seat's view of it.
fn drive(rules: Rules, seed: u64, sum: &mut Checked) {
    let n = rules.players as usize;
    let mut agents: Vec<Recorder> = (0..4)
        .map(|s| {
            let eff = (s % 2 == 0) == (seed % 2 == 0);
            let inner: Box<dyn Agent> = if eff {
                Box::new(EfficiencyBot)
            } else {
                Box::new(RandomBot::new(seed.wrapping_mul(31) + s as u64))
            };
            Recorder {
                inner,
                eff,
                log: Vec::new(),
            }
        })
        .collect();
    let names = (0..n).map(|s| format!("p{s}")).collect();
    let log = play_game(rules, seed, &mut agents[..n], names).unwrap();
    let text = mjai::write(&log);
    for (seat, rec) in agents.iter().enumerate().take(n) {
        let mut b = bot(rules);
        let mut asked = rec.log.iter().peekable();
        let mut riichi: Option<engine::Tile> = None;
        let mut last_legal: Option<LegalActions> = None;
        for (i, line) in seat_stream(&text, seat as u8).iter().enumerate() {
            let where_ = format!("seed {seed} seat {seat} line {}: {line}", i + 1);
            sum.arrays += usize::from(line.starts_with('['));
            let Reply { event, decision } = b
                .handle_line(line)
                .unwrap_or_else(|e| panic!("{where_}: {e:#}"));
            let own_reach =
                line.contains("\"reach\"") && line.contains(&format!("\"actor\":{seat},"));
            let planned = riichi.take();
            if own_reach {
                // The echo of the seat's reach: the bot's riichi discard follows, the one
                // it planned when it declared, else one of the legal riichi discards.
                assert_eq!(event["type"], "dahai", "{where_}: the riichi discard");
                let pai = mjai::parse_tile(event["pai"].as_str().unwrap())
                    .unwrap()
                    .tile;
                if let Some(t) = planned {
                    assert_eq!(pai, t, "{where_}");
                }
                let legal = &last_legal;
                assert!(
                    legal
                        .as_ref()
                        .is_some_and(|l| l.contains(Action::Riichi(pai))),
                    "{where_}: riichi {pai} is not legal ({legal:?})"
                );
                continue;
            }
            let Some(action) = decision else {
                assert_eq!(event["type"], "none", "{where_}: {event}");
                if let (Some((obs, legal, _)), Ok(Some(mine))) = (asked.peek(), b.observation()) {
                    assert!(
                        !same_view(&mine, obs),
                        "{where_}: the engine asked for a decision here ({legal:?})"
                    );
                }
                continue;
            };
            let (obs, legal, played) = asked
                .next()
                .unwrap_or_else(|| panic!("{where_}: the bot decides where the engine did not"));
            let mine = b.observation().unwrap().unwrap();
            assert!(
                same_view(&mine, obs),
                "{where_}: the observation: {}",
                diff(&mine, obs)
            );
            assert!(legal.contains(action), "{where_}: {action} is not legal");
            sum.decisions += 1;
            if rec.eff {
                assert_eq!(
                    action, *played,
                    "{where_}: the efficiency bot played {played}"
                );
                sum.eff_decisions += 1;
            }
            if let Action::Riichi(t) = action {
                riichi = Some(t);
            }
            last_legal = Some(legal.clone());
        }
        assert!(
            asked.next().is_none(),
            "seed {seed} seat {seat}: the engine asked for more decisions"
        );
    }
}

/// Games per preset (at least 200); `MJAI_BOT_GAMES` changes it for a quick look.
fn games() -> u64 {
    std::env::var("MJAI_BOT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn drive_many(rules: Rules, games: u64) -> Checked {
    let mut sum = Checked::default();
    for seed in 0..games {
        drive(rules, seed, &mut sum);
    }
    sum
}

#[test]
fn bot_follows_four_player_engine_games() {
    let sum = drive_many(Rules::preset("tenhou-4p-east").unwrap(), games());
    // About 300 decisions per game, half of them the efficiency bot's.
    assert!(
        sum.eff_decisions >= 100 * games() as usize,
        "{}",
        sum.eff_decisions
    );
    assert!(sum.decisions > sum.eff_decisions);
    assert!(
        games() < 50 || sum.arrays > 0,
        "no line with an array of events"
    );
}

#[test]
fn bot_follows_three_player_engine_games() {
    let sum = drive_many(Rules::preset("tenhou-sanma-east").unwrap(), games());
    assert!(
        sum.eff_decisions >= 50 * games() as usize,
        "{}",
        sum.eff_decisions
    );
    assert!(sum.decisions > sum.eff_decisions);
}

const STREAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/mjai-bot/seat3-riichi-kan-tsumo.mjson"
);

/// The committed stream's lines up to (not including) the first that matches `stop`.
fn stream_prefix(stop: impl Fn(&Value) -> bool) -> Vec<String> {
    std::fs::read_to_string(STREAM)
        .unwrap()
        .lines()
        .take_while(|l| !stop(&serde_json::from_str(l).unwrap()))
        .map(String::from)
        .collect()
}

/// Feeds `lines` then `bad`; the last must be refused with a message containing `want`.
fn refused(lines: &[String], bad: &str, want: &str) {
    let mut b = bot(Rules::preset("tenhou-4p-east").unwrap());
    for l in lines {
        b.handle_line(l).unwrap_or_else(|e| panic!("{l}: {e:#}"));
    }
    let e = b.handle_line(bad).expect_err(bad);
    let msg = format!("{e:#}");
    assert!(msg.contains(want), "{bad}: {msg}");
}

#[test]
fn malformed_lines_and_inconsistent_events_are_errors() {
    // Through the first own draw: seat 3 holds its 13 tiles and the drawn one.
    let dealt = stream_prefix(|e| e["type"] == "dahai" && e["actor"] == 3);
    let start = &dealt[..2];
    for (bad, want) in [
        ("{\"type\":\"dahai\"", "not JSON"),
        ("42", "neither an event nor an array"),
        ("{\"actor\":0}", "no \"type\""),
        ("{\"type\":\"shuffle\"}", "unknown event type"),
        ("{\"type\":\"tsumo\",\"actor\":3,\"pai\":\"?\"}", "hidden"),
        ("{\"type\":\"tsumo\",\"actor\":7,\"pai\":\"?\"}", "seat 7"),
        (
            "{\"type\":\"tsumo\",\"actor\":1,\"pai\":\"5z5\"}",
            "is not a tile",
        ),
        (
            "{\"type\":\"dahai\",\"actor\":2,\"pai\":\"1m\",\"tsumogiri\":true}",
            "not on turn",
        ),
    ] {
        refused(start, bad, want);
    }
    let last = dealt.last().unwrap();
    let on_turn: Value = serde_json::from_str(last).unwrap();
    assert_eq!(on_turn["type"], "tsumo", "{last}");
    assert_eq!(on_turn["actor"], 3);
    // A tile the seat does not hold, the red copy of a five it holds plain (or none).
    let held = bot_after(&dealt);
    let missing = (0..34u8)
        .map(|i| engine::Tile::new(i).unwrap())
        .find(|t| held[t.index()] == 0)
        .unwrap();
    let name = mjai::tile_name(host_trainer::logs::LogTile::plain(missing));
    let bad = format!("{{\"type\":\"dahai\",\"actor\":3,\"pai\":\"{name}\",\"tsumogiri\":false}}");
    refused(&dealt, &bad, "holds no");
    refused(
        &dealt,
        "{\"type\":\"pon\",\"actor\":3,\"target\":0,\"pai\":\"E\",\"consumed\":[\"E\",\"E\"]}",
        "not the claimable discard",
    );
    // Riichi needs a tenpai hand: at the first draw this one is not.
    refused(
        &dealt,
        "{\"type\":\"reach\",\"actor\":3}",
        "no riichi discard is legal",
    );
    // Before any hand, and a hand of twelve tiles.
    refused(
        &[],
        "{\"type\":\"tsumo\",\"actor\":0,\"pai\":\"?\"}",
        "outside a hand",
    );
    let mut short: Value = serde_json::from_str(&start[1]).unwrap();
    short["tehais"][3].as_array_mut().unwrap().pop();
    refused(&start[..1], &short.to_string(), "not 13");
}

/// Seat 3's closed hand after `lines`.
fn bot_after(lines: &[String]) -> engine::TileCounts {
    let mut b = bot(Rules::preset("tenhou-4p-east").unwrap());
    for l in lines {
        b.handle_line(l).unwrap();
    }
    *b.view().unwrap().hand()
}

mod cli_common;

/// The binary answers every line of the committed stream with the library bot's
/// answer, and names the line of the first bad event.
#[test]
fn mjai_command_plays_a_committed_stream() {
    let text = std::fs::read_to_string(STREAM).unwrap();
    let (out, err, ok) = cli_common::run_in("mjai", &["--rules", "tenhou-4p-east"], &text, None);
    assert!(ok, "{err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), text.lines().count());
    let mut b = bot(Rules::preset("tenhou-4p-east").unwrap());
    let mut acted = 0;
    for (line, answer) in text.lines().zip(&answers) {
        let want = b.handle_line(line).unwrap().event;
        let got: Value = serde_json::from_str(answer).unwrap();
        assert_eq!(got, want, "{line}");
        acted += usize::from(got["type"] != "none");
    }
    // Seat 3 discards after each of its draws and declares a kan, riichi and tsumo.
    assert!(acted >= 10, "{out}");
    assert!(answers.iter().any(|a| a.contains("\"reach\"")), "{out}");
    assert!(answers.iter().any(|a| a.contains("\"hora\"")), "{out}");
    // A bad line stops the bot with its number.
    let mut broken: Vec<&str> = text.lines().collect();
    broken.insert(5, "{\"type\":\"dahai\",\"actor\":3,\"pai\":\"9z\"}");
    let (_, err, ok) = cli_common::run_in(
        "mjai",
        &["--rules", "tenhou-4p-east"],
        &broken.join("\n"),
        None,
    );
    assert!(!ok);
    assert!(err.contains("line 6:"), "{err}");
    // Rules the bot cannot play, and a model without the riichi encoding (the shipped
    // v1 model), are refused before any line is read.
    let (_, err, ok) = cli_common::run_in("mjai", &["--rules", "sanma"], "", None);
    assert!(!ok && err.contains("riichi presets"), "{err}");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/default.onnx");
    let (_, err, ok) = cli_common::run_in("mjai", &["--model", model], &text, None);
    assert!(!ok && err.contains("encoding version 1"), "{err}");
    // A search without rollouts is refused as `review` refuses it (the shared flags).
    let (_, err, ok) = cli_common::run_in("mjai", &["--search", "--rollouts", "0"], &text, None);
    assert!(
        !ok && err.contains("--rollouts must be at least 1"),
        "{err}"
    );
}

/// The defending bot and the shipped four-player riichi model (picked by the game's
/// rules) answer every line of the committed stream, each answer one the bot checked
/// legal, and act on seat 3's draws.
#[test]
fn mjai_command_plays_with_the_defending_bot_and_the_shipped_model() {
    let text = std::fs::read_to_string(STREAM).unwrap();
    for args in [
        &["--rules", "tenhou-4p-east", "--advisor", "defend"][..],
        &["--shipped-model"][..],
    ] {
        let (out, err, ok) = cli_common::run_in("mjai", args, &text, None);
        assert!(ok, "{args:?}: {err}");
        let answers: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), text.lines().count(), "{args:?}");
        let acted = answers.iter().filter(|a| a["type"] != "none").count();
        assert!(acted >= 10, "{args:?}: {out}");
        assert!(
            !err.contains("warning"),
            "{args:?}: the decider failed: {err}"
        );
    }
    let (_, err, ok) = cli_common::run_in(
        "mjai",
        &["--shipped-model", "--advisor", "defend"],
        "",
        None,
    );
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}

/// Feeds `lines` to a fresh efficiency bot of tenhou-4p and returns its replies.
fn replies(lines: &[Value]) -> Vec<Value> {
    let mut b = bot(Rules::preset("tenhou-4p").unwrap());
    lines
        .iter()
        .map(|l| b.handle_line(&l.to_string()).unwrap().event)
        .collect()
}

fn start(hand: &[&str]) -> Vec<Value> {
    let hidden = vec!["?"; 13];
    vec![
        json!({"type": "start_game", "id": 0, "names": ["a", "b", "c", "d"]}),
        json!({"type": "start_kyoku", "bakaze": "E", "dora_marker": "E", "kyoku": 1,
            "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000, 25000, 25000, 25000],
            "tehais": [hand, hidden, hidden, hidden]}),
    ]
}

/// Others' draws and tsumogiri discards of tiles nobody can call or win on.
fn go_around(lines: &mut Vec<Value>, tiles: [&str; 3]) {
    for (s, t) in (1..4).zip(tiles) {
        lines.push(json!({"type": "tsumo", "actor": s, "pai": "?"}));
        lines.push(json!({"type": "dahai", "actor": s, "pai": t, "tsumogiri": true}));
    }
}

/// Mortal's libriichi arena aborted games when the bot, in riichi with a plain 5p,
/// drew the red one and discarded the plain one: after riichi only the drawn copy
/// may go.
#[test]
fn in_riichi_the_drawn_red_five_goes() {
    let hand = [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p", "6p", "1s", "1s",
    ];
    let mut lines = start(&hand);
    lines.push(json!({"type": "tsumo", "actor": 0, "pai": "N"}));
    let r = replies(&lines);
    assert_eq!(r.last().unwrap()["type"], "reach", "{r:?}");
    lines.push(json!({"type": "reach", "actor": 0}));
    let r = replies(&lines);
    assert_eq!(r.last().unwrap()["pai"], "N", "{r:?}");
    lines.push(json!({"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": true}));
    lines.push(json!({"type": "reach_accepted", "actor": 0}));
    go_around(&mut lines, ["W", "W", "W"]);
    lines.push(json!({"type": "tsumo", "actor": 0, "pai": "5pr"}));
    let r = replies(&lines);
    let last = r.last().unwrap();
    assert_eq!(
        (
            last["type"].as_str(),
            last["pai"].as_str(),
            last["tsumogiri"].as_bool()
        ),
        (Some("dahai"), Some("5pr"), Some(true)),
        "{last}"
    );
    // Not in riichi, the plain copy goes and the red one stays.
    let mut lines = start(&[
        "1m", "1m", "1m", "9m", "9m", "9m", "1p", "1p", "1p", "E", "E", "S", "5p",
    ]);
    lines.push(json!({"type": "tsumo", "actor": 0, "pai": "5pr"}));
    let r = replies(&lines);
    let last = r.last().unwrap();
    if last["type"] == "dahai" && last["pai"].as_str().is_some_and(|p| p.starts_with("5p")) {
        assert_eq!(last["pai"], "5p", "{last}");
    }
}

/// With an opponent in riichi the bot's world is dealt with a tenpai hand for that
/// seat (`Game::from_observation`); it answers legally from such views (the search's
/// "position rejected: impossible deal or wall" left the table).
#[test]
fn an_opponent_in_riichi_is_dealt_and_answered() {
    let hand = [
        "1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "E", "S", "W", "N",
    ];
    let mut lines = start(&hand);
    lines.push(json!({"type": "tsumo", "actor": 0, "pai": "C"}));
    lines.push(json!({"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": true}));
    lines.push(json!({"type": "tsumo", "actor": 1, "pai": "?"}));
    lines.push(json!({"type": "reach", "actor": 1}));
    lines.push(json!({"type": "dahai", "actor": 1, "pai": "F", "tsumogiri": false}));
    lines.push(json!({"type": "reach_accepted", "actor": 1}));
    for s in 2..4 {
        lines.push(json!({"type": "tsumo", "actor": s, "pai": "?"}));
        lines.push(json!({"type": "dahai", "actor": s, "pai": "P", "tsumogiri": true}));
    }
    lines.push(json!({"type": "tsumo", "actor": 0, "pai": "9p"}));
    let r = replies(&lines);
    assert_eq!(r.last().unwrap()["type"], "dahai", "{r:?}");
    // The legal actions come from a world dealt with the riichi seat tenpai, tried
    // with other seeds when a deal is refused.
    let mut b = bot(Rules::preset("tenhou-4p").unwrap());
    for l in &lines {
        b.handle_line(&l.to_string()).unwrap();
    }
    let obs = b.observation().unwrap().unwrap();
    let legal = mjai_bot::answer::legal_actions(&obs).unwrap();
    assert!(!legal.is_empty());
}

/// Three-player: an opponent's `nukidora` opens a window on the north (Tenhou and
/// Mahjong Soul let a player ron it); the bot, seven-pairs tenpai on the north, wins
/// on it (`hora` targeting the kita-er), and passes when it cannot.
#[test]
fn a_kita_is_won_on_in_three_player() {
    let sanma = |hand: [&str; 13]| {
        vec![
            json!({"type": "start_game", "id": 0, "names": ["a", "b", "c"]}),
            json!({"type": "start_kyoku", "bakaze": "E", "dora_marker": "C", "kyoku": 2,
                "honba": 0, "kyotaku": 0, "oya": 1, "scores": [35000, 35000, 35000],
                "tehais": [hand, vec!["?"; 13], vec!["?"; 13]]}),
            json!({"type": "tsumo", "actor": 1, "pai": "?"}),
            json!({"type": "nukidora", "actor": 1, "pai": "N"}),
        ]
    };
    let seven_pairs = [
        "1p", "1p", "9p", "9p", "2s", "2s", "8s", "8s", "3p", "3p", "6p", "6p", "N",
    ];
    let mut b = bot(Rules::preset("tenhou-sanma").unwrap());
    let mut last = Value::Null;
    for l in sanma(seven_pairs) {
        last = b.handle_line(&l.to_string()).unwrap().event;
    }
    assert_eq!(
        (
            last["type"].as_str(),
            last["target"].as_u64(),
            last["pai"].as_str()
        ),
        (Some("hora"), Some(1), Some("N")),
        "{last}"
    );
    let obs = b.observation().unwrap().unwrap();
    assert!(obs.pending.is_some_and(|p| p.kita && p.from == 1));
    // Not waiting on the north: no win, the replacement draw closes the window.
    let mut hand = seven_pairs;
    hand[12] = "W";
    let mut b = bot(Rules::preset("tenhou-sanma").unwrap());
    for l in sanma(hand) {
        last = b.handle_line(&l.to_string()).unwrap().event;
    }
    assert_eq!(last["type"], "none", "{last}");
    let draw = json!({"type": "tsumo", "actor": 1, "pai": "?"});
    assert_eq!(
        b.handle_line(&draw.to_string()).unwrap().event["type"],
        "none"
    );
}
