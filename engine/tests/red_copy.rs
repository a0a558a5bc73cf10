//! The copy of a five an action gives up (`Game::apply_with_copy`): hand-string
//! scenarios under `tenhou-4p` (`0p` is the red five) where a discard, a chi and a pon
//! give up the red five while a plain one is held, what `Game::apply` does instead,
//! the refused requests (which change nothing), and records that replay the choice.

use engine::game::{
    check_invariants, Action, CopyOptions, FiveCopy, Game, HandRecord, RiichiSetup, RuleError,
    RECORD_MAX_BYTES,
};
use engine::notation::parse_tiles;
use engine::rules::Rules;
use engine::tile::{Tile, TileSet};

fn t(s: &str) -> Tile {
    let v: heapless::Vec<Tile, 1> = parse_tiles(s, TileSet::FourPlayer).unwrap();
    v[0]
}

fn four(hands: &[&str], live: &str) -> Game {
    let setup = RiichiSetup {
        hands,
        live,
        dora: "9p",
        ..Default::default()
    };
    let g = Game::from_riichi_setup(Rules::tenhou_4p(), &setup).unwrap();
    check_invariants(&g).unwrap();
    g
}

fn with_copy(g: &mut Game, seat: u8, a: Action, copy: FiveCopy) {
    g.apply_with_copy(seat, a, copy)
        .unwrap_or_else(|e| panic!("{seat}:{a} {copy:?} refused: {e}"));
    check_invariants(g).unwrap_or_else(|v| panic!("after {seat}:{a} {copy:?}: {v}"));
}

/// The request is refused with `want` and the game is unchanged.
fn refused(g: &mut Game, seat: u8, a: Action, copy: FiveCopy, want: RuleError) {
    let before = g.clone();
    assert_eq!(
        g.apply_with_copy(seat, a, copy).err(),
        Some(want),
        "{a} {copy:?}"
    );
    assert_eq!(*g, before, "a refused {a} {copy:?} changed the game");
}

/// The hand record replays to the identical state, also through postcard and JSON.
fn record_replays(g: &Game) {
    let rec = g.hand_record();
    assert_eq!(rec.replay().unwrap(), *g);
    let mut buf = [0u8; RECORD_MAX_BYTES];
    let bytes = rec.to_postcard(&mut buf).unwrap();
    let back = HandRecord::from_postcard(bytes).unwrap();
    assert_eq!(back, rec);
    let json = serde_json::to_string(&rec).unwrap();
    let from_json: HandRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(from_json.replay().unwrap(), *g);
}

const BOTH: CopyOptions = CopyOptions {
    plain: true,
    red: true,
};

#[test]
fn discarding_the_red_five_while_a_plain_one_is_held() {
    let hands = [
        "123m405p789s4s777z",
        "147m258p369s1234z",
        "258m369p147s1234z",
        "369m147p258s1567z",
    ];
    let mut g = four(&hands, "1z");
    let five = Action::Discard(t("5p"));
    assert_eq!(g.copy_options(0, five), BOTH);
    assert_eq!(g.default_copy(0, five), FiveCopy::Plain);
    // Only the tiles the action takes count: 4p is no five.
    refused(
        &mut g,
        0,
        Action::Discard(t("4p")),
        FiveCopy::Red,
        RuleError::NoSuchCopy,
    );
    // Legality first: 9m is not held.
    refused(
        &mut g,
        0,
        Action::Discard(t("9m")),
        FiveCopy::Plain,
        RuleError::IllegalAction,
    );

    let mut plain = g.clone();
    plain.apply(0, five).unwrap();
    assert_eq!(
        plain.red_fives_in_hand(0),
        [0, 1, 0],
        "apply keeps the red five"
    );
    assert!(plain.red_copies().is_empty());

    with_copy(&mut g, 0, five, FiveCopy::Red);
    assert_eq!(g.red_fives_in_hand(0), [0, 0, 0]);
    assert_eq!(g.hand(0).unwrap()[t("5p").index()], 1, "the plain 5p stays");
    let view = g.observation(1).unwrap().riichi.unwrap();
    assert_eq!(
        view.red_discards[0], 1,
        "the discard is the red five, in public"
    );
    assert_eq!(g.red_copies(), &[0]);
    record_replays(&g);
    assert_ne!(g, plain);
}

#[test]
fn only_the_red_five_left_cannot_go_as_a_plain_one() {
    let hands = [
        "123m406p789s4s777z",
        "147m258p369s1234z",
        "258m369p147s1234z",
        "369m147p258s1567z",
    ];
    let mut g = four(&hands, "1z");
    let five = Action::Discard(t("5p"));
    assert_eq!(
        g.copy_options(0, five),
        CopyOptions {
            plain: false,
            red: true
        }
    );
    refused(&mut g, 0, five, FiveCopy::Plain, RuleError::NoSuchCopy);
    // Red is what apply does here: no departure is recorded.
    with_copy(&mut g, 0, five, FiveCopy::Red);
    assert!(g.red_copies().is_empty());
    assert_eq!(g.red_fives_in_hand(0), [0, 0, 0]);
}

#[test]
fn chi_with_the_red_five() {
    let hands = [
        "123m456p789s4s666z",
        "147m258p23056s77z",
        "258m369p147s1234z",
        "369m147p258s1257z",
    ];
    let mut g = four(&hands, "1z");
    g.apply(0, Action::Discard(t("4s"))).unwrap();
    assert_eq!(g.seats_to_act().as_slice(), &[1]);
    // 2-3-4s gives up no five; 3-4-5s and 4-5-6s give up 5s or 0s.
    assert_eq!(
        g.copy_options(1, Action::Chi(t("2s"))),
        CopyOptions {
            plain: true,
            red: false
        }
    );
    refused(
        &mut g,
        1,
        Action::Chi(t("2s")),
        FiveCopy::Red,
        RuleError::NoSuchCopy,
    );
    assert_eq!(g.copy_options(1, Action::Chi(t("3s"))), BOTH);
    let chi = Action::Chi(t("4s"));
    assert_eq!(g.copy_options(1, chi), BOTH);

    let mut plain = g.clone();
    plain.apply(1, chi).unwrap();
    assert_eq!(plain.red_fives_in_hand(1), [0, 0, 1]);
    assert_eq!(
        plain.observation(0).unwrap().riichi.unwrap().red_melds[1][0],
        0
    );

    with_copy(&mut g, 1, chi, FiveCopy::Red);
    assert_eq!(g.red_fives_in_hand(1), [0, 0, 0]);
    assert_eq!(g.observation(0).unwrap().riichi.unwrap().red_melds[1][0], 1);
    assert_eq!(g.hand(1).unwrap()[t("5s").index()], 1, "the plain 5s stays");
    assert_eq!(g.red_copies(), &[1], "the chi is the hand's second action");
    record_replays(&g);
}

#[test]
fn pon_with_the_red_five_and_kans_that_take_every_copy() {
    let hands = [
        "123m456p789s5m666z",
        "147m369p369s1234z",
        "550m258p147s1234z",
        "369m147p258s1257z",
    ];
    let mut g = four(&hands, "1z");
    g.apply(0, Action::Discard(t("5m"))).unwrap();
    assert_eq!(g.seats_to_act().as_slice(), &[2]);
    assert_eq!(g.copy_options(2, Action::Pon), BOTH);
    // An open kan takes all three: only the red copy can be named.
    assert_eq!(
        g.copy_options(2, Action::OpenKan),
        CopyOptions {
            plain: false,
            red: true
        }
    );
    refused(
        &mut g,
        2,
        Action::OpenKan,
        FiveCopy::Plain,
        RuleError::NoSuchCopy,
    );
    refused(
        &mut g,
        2,
        Action::Pass,
        FiveCopy::Red,
        RuleError::NoSuchCopy,
    );

    let mut plain = g.clone();
    plain
        .apply_with_copy(2, Action::Pon, FiveCopy::Plain)
        .unwrap();
    assert_eq!(plain.red_fives_in_hand(2), [1, 0, 0]);
    let mut by_apply = g.clone();
    by_apply.apply(2, Action::Pon).unwrap();
    assert_eq!(plain, by_apply, "Plain is apply's choice");

    with_copy(&mut g, 2, Action::Pon, FiveCopy::Red);
    assert_eq!(g.red_fives_in_hand(2), [0, 0, 0]);
    assert_eq!(g.observation(2).unwrap().riichi.unwrap().red_melds[2][0], 1);
    assert_eq!(g.hand(2).unwrap()[t("5m").index()], 1, "a plain 5m stays");
    // The added kan later takes the last 5m, plain.
    assert_eq!(
        g.copy_options(2, Action::AddedKan(t("5m"))),
        CopyOptions {
            plain: true,
            red: false
        }
    );
    record_replays(&g);
}

#[test]
fn simple_rules_have_no_red_copy() {
    let mut g = Game::new(Rules::four_player(), 3).unwrap();
    let seat = g.turn();
    let tile = g.drawn().unwrap();
    let a = Action::Discard(tile);
    refused(&mut g, seat, a, FiveCopy::Red, RuleError::NoSuchCopy);
    let mut by_apply = g.clone();
    by_apply.apply(seat, a).unwrap();
    g.apply_with_copy(seat, a, FiveCopy::Plain).unwrap();
    assert_eq!(g, by_apply);
}
