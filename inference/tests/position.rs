//! The position formats: compact strings and JSON.

use engine::game::{Action, Phase};
use engine::tile::Tile;
use inference::position::{from_json, per_seat, Position};
use inference::Advisor;

fn tile(s: &str) -> Tile {
    Tile::all().find(|t| t.to_string() == s).unwrap()
}

#[test]
fn a_turn_position() {
    let p = Position {
        hand: "123m456p789s1122z3z".into(),
        ..Default::default()
    };
    let (obs, legal) = p.to_observation().unwrap();
    assert_eq!(obs.phase, Phase::Turn);
    assert_eq!(obs.drawn, Some(tile("3z")));
    assert_eq!(obs.unseen[tile("1z").index()], 2);
    assert_eq!(obs.unseen[tile("5m").index()], 4);
    assert!(legal.contains(&Action::Discard(tile("3z"))));
    assert_eq!(legal.len(), 12);
    let advice = Advisor::efficiency_only().advise(&obs).unwrap();
    assert_eq!(advice.best(), Some(Action::Discard(tile("3z"))));
    let d = advice.actions[0].discard.as_ref().unwrap();
    assert_eq!(d.shanten_after, 0);
    assert_eq!(d.ukeire_types, "12z");
    assert_eq!(d.ukeire_tiles, 4);
}

#[test]
fn melds_discards_and_claims() {
    let j = r#"{"rules": "four-player", "seat": 1, "hand": "23m456p789s11z",
                "melds": ["", "pon:5z"], "discards": ["1m4m", "9p"],
                "claim": {"tile": "4m", "from": 0}}"#;
    let (obs, legal) = from_json(j).unwrap();
    assert_eq!(obs.phase, Phase::Claim);
    assert_eq!(obs.unseen[tile("5z").index()], 1);
    assert_eq!(obs.unseen[tile("4m").index()], 3);
    assert!(legal.contains(&Action::Pass));
    assert!(legal.contains(&Action::Chi(tile("2m"))));
    assert!(legal.contains(&Action::Ron));
    let m = per_seat("pon:5p;seat2:chi:345m,kan:1z", 4, 0, "melds").unwrap();
    assert_eq!(m, vec!["pon:5p", "", "chi:345m,kan:1z", ""]);
}

#[test]
fn bad_positions_say_why() {
    let cases = [
        (r#"{"hand": "123x"}"#, "hand"),
        (r#"{"hand": "123m"}"#, "tiles"),
        (r#"{"hand": "11111m456p789s111z"}"#, "four copies"),
        (
            r#"{"hand": "123m456p789s1122z3z", "rules": "riichi"}"#,
            "preset",
        ),
        (
            r#"{"hand": "123m456p789s1122z3z", "drawn": "9m"}"#,
            "not in the hand",
        ),
        (
            r#"{"hand": "123m456p789s1122z3z", "discards": ["1z1z1z"]}"#,
            "copies of 1z",
        ),
        (
            r#"{"hand": "123m456p789s11z", "melds": ["pan:5p"]}"#,
            "unknown kind",
        ),
        (r#"{"hand": "1m", "bogus": 1}"#, "JSON"),
        ("not json", "JSON"),
    ];
    for (j, want) in cases {
        let e = from_json(j).unwrap_err().to_string();
        assert!(e.contains(want), "{j}: {e}");
    }
}

#[test]
fn a_game_record() {
    let mut game = engine::game::Game::new(engine::Rules::four_player(), 9).unwrap();
    let seat = game.seats_to_act()[0];
    let a = game.legal_actions(seat).as_slice()[0];
    game.apply(seat, a).unwrap();
    let doc = serde_json::json!({ "record": game.hand_record() }).to_string();
    let (obs, legal) = from_json(&doc).unwrap();
    let s = game.seats_to_act()[0];
    assert_eq!(obs, game.observation(s).unwrap());
    assert_eq!(legal, game.legal_actions(s).as_slice().to_vec());
}

#[test]
fn a_riichi_position() {
    // Tenhou sanma: a red 5p in hand, an opponent in riichi, one stick on the table.
    let j = r#"{"rules": "tenhou-sanma", "seat": 0, "hand": "19m1230p456s1122z3z",
        "discards": ["", "1z9s", ""], "riichi": [null, 1, null], "sticks": 1,
        "dora": "4p"}"#;
    let (obs, legal) = from_json(j).unwrap();
    let view = obs.riichi.as_ref().unwrap();
    assert_eq!(view.red_hand, [0, 1, 0]);
    assert_eq!(view.declared[1], Some(1));
    assert_eq!(obs.unseen[tile("4p").index()], 3);
    assert_eq!(obs.scores, [34_000, 35_000, 35_000, 0]);
    assert!(legal.contains(&Action::Discard(tile("3z"))));
    // The engine deals a world the observation describes, with the seat in riichi
    // tenpai.
    let mut rng = engine::rng::Rng::new(4);
    let det = engine::game::Game::from_observation(&obs, None, &mut rng).unwrap();
    assert_eq!(det.observation(0).unwrap(), obs);
    // Without dora indicators a riichi position is refused with a message.
    let j = r#"{"rules": "tenhou-sanma", "hand": "19m1230p456s1122z3z"}"#;
    let e = from_json(j).unwrap_err().to_string();
    assert!(e.contains("dora"), "{e}");
}

#[test]
fn a_red_five_as_dora_indicator() {
    // `0s` is written as it lies on the table and indicates like `5s`.
    let doc = |dora: &str| {
        format!(
            r#"{{"rules": "tenhou-sanma", "seat": 0, "hand": "19m1230p456s1122z3z",
            "discards": ["", "1z9s", ""], "riichi": [null, 1, null], "sticks": 1,
            "dora": "{dora}"}}"#
        )
    };
    let (red, legal_red) = from_json(&doc("0s")).unwrap();
    let (plain, legal_plain) = from_json(&doc("5s")).unwrap();
    assert_eq!(red, plain);
    assert_eq!(legal_red, legal_plain);
    let view = red.riichi.as_ref().unwrap();
    assert_eq!(view.dora_indicators.as_slice(), &[tile("5s")]);
}
