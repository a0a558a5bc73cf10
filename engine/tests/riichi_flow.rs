//! The riichi game flow of the Tenhou presets, rule by rule, on hands built from mpsz
//! strings (`0p` is a red five) with `Game::from_riichi_setup`; invariants after every
//! action.
//!
//! Four-player seats that take no part hold "quiet" hands: no pair, not tenpai, and
//! spaced 1-4-7 / 2-5-8 / 3-6-9 so that no single discard gives them a chi or a pon.

use engine::game::{
    check_invariants, Action, DrawKind, Event, Events, Game, GameRecord, HandRecord, Phase,
    RiichiSetup, RuleError, Table,
};
use engine::notation::parse_tiles;
use engine::rules::Rules;
use engine::score::{Limit, Yaku};
use engine::tile::{Tile, TileSet};

const QA: &str = "147m258p369s1234z";
const QB: &str = "258m369p147s1234z";
const QC: &str = "369m147p258s1567z";
const QD: &str = "258m147p369s5677z";
/// Closed, tenpai on 3s-6s (no yaku but riichi or tsumo).
const R0: &str = "123m456p789s45s77z";
/// Closed tanyao, tenpai on 4s-7s.
const TANYAO: &str = "234m678p234s56s88p";

fn t(s: &str) -> Tile {
    let v: heapless::Vec<Tile, 1> = parse_tiles(s, TileSet::FourPlayer).unwrap();
    v[0]
}

fn setup(rules: Rules, s: RiichiSetup) -> Game {
    let g = Game::from_riichi_setup(rules, &s).unwrap_or_else(|e| panic!("setup: {e}"));
    check_invariants(&g).unwrap();
    g
}

fn four(hands: &[&str], live: &str, dealer: u8) -> Game {
    setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands,
            live,
            dora: "9p",
            dealer,
            ..Default::default()
        },
    )
}

fn apply(g: &mut Game, seat: u8, a: Action) -> Events {
    let ev = g
        .apply(seat, a)
        .unwrap_or_else(|e| panic!("{seat}:{a:?} refused: {e}"));
    check_invariants(g).unwrap_or_else(|v| panic!("after {seat}:{a:?}: {v}"));
    ev
}

/// The seat on turn discards its drawn tile.
fn tsumogiri(g: &mut Game) {
    let seat = g.turn();
    let tile = g.drawn().expect("drew");
    apply(g, seat, Action::Discard(tile));
}

fn pass_all(g: &mut Game) {
    for s in g.seats_to_act() {
        apply(g, s, Action::Pass);
    }
}

/// Plays on without winning or calling until `stop` or the end of the hand.
fn play_passively(g: &mut Game, stop: impl Fn(&Game) -> bool) {
    loop {
        if stop(g) {
            return;
        }
        match g.phase() {
            Phase::Turn => tsumogiri(g),
            Phase::Claim => pass_all(g),
            _ => return,
        }
    }
}

fn yaku(g: &Game, k: usize) -> Vec<Yaku> {
    let r = g.riichi_result().expect("result");
    r.wins[k].score.yaku.iter().map(|y| y.yaku).collect()
}

fn riichi_actions(g: &Game, seat: u8) -> usize {
    g.legal_actions(seat)
        .iter()
        .filter(|a| matches!(a, Action::Riichi(_)))
        .count()
}

#[test]
fn double_riichi_ippatsu_tsumo_and_the_stick() {
    let mut g = four(&[R0, QA, QB, QC], "6z5z6z7z3s", 0);
    let legal = g.legal_actions(0);
    assert!(legal.contains(Action::Riichi(t("6z"))));
    assert!(
        !legal.contains(Action::Riichi(t("1m"))),
        "not tenpai after 1m"
    );
    apply(&mut g, 0, Action::Riichi(t("6z")));
    // Nobody could claim the 6z: the stick is down at once.
    assert_eq!(g.scores()[0], 24_000);
    assert_eq!(g.table().sticks, 1);
    let obs = g.observation(2).unwrap();
    let view = obs.riichi.unwrap();
    assert_eq!(view.declared[0], Some(0));
    assert_eq!(view.riichi_sticks, 1);
    for _ in 0..3 {
        tsumogiri(&mut g);
    }
    // In riichi: only the drawn tile may be discarded; tsumo is offered.
    let legal = g.legal_actions(0);
    let discards: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a, Action::Discard(_)))
        .collect();
    assert_eq!(discards, vec![Action::Discard(t("3s"))]);
    assert!(legal.contains(Action::Tsumo) && riichi_actions(&g, 0) == 0);
    apply(&mut g, 0, Action::Tsumo);
    let y = yaku(&g, 0);
    assert!(
        y.contains(&Yaku::DoubleRiichi) && y.contains(&Yaku::Ippatsu),
        "{y:?}"
    );
    assert!(y.contains(&Yaku::MenzenTsumo) && !y.contains(&Yaku::Riichi));
    let r = g.riichi_result().unwrap();
    assert_eq!(r.sticks_taken, 1);
    assert_eq!(r.ura_indicators.len(), 1, "ura dora shown for a riichi win");
    let p = r.wins[0].score.payment;
    assert_eq!(p.riichi_sticks, 1000);
    assert_eq!(r.deltas[0], 3 * p.from_each_non_dealer as i32 + 1000);
    assert_eq!(g.table().sticks, 0);
}

#[test]
fn a_call_breaks_ippatsu_but_not_double_riichi() {
    let mut g = four(&[R0, QA, "258m369p147s3455z", QC], "6z5z7z3s", 0);
    apply(&mut g, 0, Action::Riichi(t("6z")));
    tsumogiri(&mut g); // seat 1: 5z
    assert!(g.legal_actions(2).contains(Action::Pon));
    apply(&mut g, 2, Action::Pon);
    apply(&mut g, 2, Action::Discard(t("3z")));
    tsumogiri(&mut g); // seat 3: 7z (seat 0 in riichi may not pon)
    apply(&mut g, 0, Action::Tsumo);
    let y = yaku(&g, 0);
    assert!(
        y.contains(&Yaku::DoubleRiichi) && !y.contains(&Yaku::Ippatsu),
        "{y:?}"
    );
}

#[test]
fn riichi_legality() {
    // Not tenpai after any discard.
    let g = four(&[QA, QB, QC, QD], "9m", 0);
    assert_eq!(riichi_actions(&g, 0), 0);
    // Fewer than 1000 points.
    let g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[R0, QA, QB, QC],
            live: "6z",
            scores: Some([900, 25_000, 25_000, 49_100]),
            ..Default::default()
        },
    );
    assert_eq!(riichi_actions(&g, 0), 0);
    let before = g.clone();
    let mut g2 = g.clone();
    assert_eq!(
        g2.apply(0, Action::Riichi(t("6z"))),
        Err(RuleError::IllegalAction)
    );
    assert_eq!(g2, before, "a refused riichi changes nothing");
    // An open hand: seat 0 pons 7z and is tenpai on 5s, but may not declare.
    let mut g = four(&["123m456p789s5s77z2z", QA, QB, QC], "7z9m1p9p1s", 3);
    tsumogiri(&mut g);
    apply(&mut g, 0, Action::Pon);
    apply(&mut g, 0, Action::Discard(t("2z")));
    for _ in 0..3 {
        tsumogiri(&mut g);
    }
    assert_eq!(g.turn(), 0);
    assert_eq!(riichi_actions(&g, 0), 0, "open hand");
    // Live wall: 4 tiles left allow riichi, 3 do not (Tenhou).
    for (dealer, left, allowed) in [(3u8, 4u8, true), (2, 3, false)] {
        let mut g = four(&[R0, QA, QB, QC], "", dealer);
        play_passively(&mut g, |g| {
            g.phase() == Phase::Turn && g.turn() == 0 && g.live_wall_remaining() <= left
        });
        assert_eq!(g.live_wall_remaining(), left);
        assert_eq!(riichi_actions(&g, 0) > 0, allowed, "{left} tiles left");
    }
}

#[test]
fn a_win_without_yaku_is_not_legal() {
    // Seat 1 waits on 6p-9p with no yaku: the 9p completes the shape, but only chi is
    // offered; the refused ron changes nothing. Tsumo is a yaku (here on the first,
    // uninterrupted draw: chiihou; a pass is no call).
    let mut g = four(&[QA, "234m678p234s567s9p", QB, QC], "9p6p", 0);
    tsumogiri(&mut g);
    let legal = g.legal_actions(1);
    assert!(legal.contains(Action::Chi(t("7p"))) && !legal.contains(Action::Ron));
    let before = g.clone();
    assert_eq!(g.apply(1, Action::Ron), Err(RuleError::IllegalAction));
    assert_eq!(g, before);
    apply(&mut g, 1, Action::Pass);
    assert!(g.legal_actions(1).contains(Action::Tsumo));
    apply(&mut g, 1, Action::Tsumo);
    assert_eq!(yaku(&g, 0), vec![Yaku::Chiihou]);
}

#[test]
fn furiten_by_own_discard() {
    // Seat 1 (tanyao, 4s-7s) discards the 7s it draws: the 4s of seat 2 is no ron.
    let mut g = four(&[QA, TANYAO, QB, QC], "1z7s4s", 0);
    tsumogiri(&mut g);
    tsumogiri(&mut g);
    tsumogiri(&mut g);
    assert!(g.legal_actions(1).is_empty(), "furiten: no ron on 4s");
    assert_eq!(g.phase(), Phase::Turn);
}

#[test]
fn temporary_furiten_until_the_own_discard() {
    let mut g = four(&[QA, QC, TANYAO, QB], "4s7s9m4s", 0);
    tsumogiri(&mut g); // seat 0: 4s
    assert!(g.legal_actions(2).contains(Action::Ron));
    apply(&mut g, 2, Action::Pass);
    tsumogiri(&mut g); // seat 1: 7s, a winning tile for seat 2
    let legal = g.legal_actions(2);
    assert!(!legal.contains(Action::Ron) && legal.contains(Action::Chi(t("5s"))));
    assert!(g.observation(2).unwrap().riichi.unwrap().furiten);
    apply(&mut g, 2, Action::Pass);
    tsumogiri(&mut g); // seat 2 discards: furiten over
    tsumogiri(&mut g); // seat 3: 4s
    assert!(g.legal_actions(2).contains(Action::Ron));
    apply(&mut g, 2, Action::Ron);
    assert!(yaku(&g, 0).contains(&Yaku::Tanyao));
}

#[test]
fn riichi_furiten_lasts_the_hand() {
    let mut g = four(&[QA, QC, TANYAO, QB], "1z9m1p4s7s2z9s4s", 0);
    tsumogiri(&mut g);
    tsumogiri(&mut g);
    apply(&mut g, 2, Action::Riichi(t("1p")));
    tsumogiri(&mut g); // seat 3: 4s
    assert!(g.legal_actions(2).contains(Action::Ron));
    apply(&mut g, 2, Action::Pass);
    assert_eq!(g.table().sticks, 1);
    tsumogiri(&mut g); // seat 0: 7s
    assert!(!g.legal_actions(2).contains(Action::Ron));
    play_passively(&mut g, |g| g.turn() == 2 && g.phase() == Phase::Turn);
    tsumogiri(&mut g); // seat 2's own discard does not end riichi furiten
    tsumogiri(&mut g); // seat 3: 4s
    assert!(!g.legal_actions(2).contains(Action::Ron));
}

#[test]
fn kan_dora_timing() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[
                "1111m258p369s567z",
                "999m147p258s1234z",
                QB,
                "36m147p258s12347z",
            ],
            live: "9m",
            rinshan: "6z7z",
            dora: "2z3z4z",
            ..Default::default()
        },
    );
    assert_eq!(g.dora_indicators().as_slice(), &[t("2z")]);
    apply(&mut g, 0, Action::ClosedKan(t("1m")));
    assert_eq!(g.dora_indicators().len(), 2, "a closed kan reveals at once");
    assert_eq!(g.drawn(), Some(t("6z")));
    apply(&mut g, 0, Action::Discard(t("9m")));
    apply(&mut g, 1, Action::OpenKan);
    assert_eq!(g.drawn(), Some(t("7z")));
    assert_eq!(
        g.dora_indicators().len(),
        2,
        "an open kan waits for the discard"
    );
    apply(&mut g, 1, Action::Discard(t("7z")));
    assert_eq!(g.dora_indicators().as_slice(), &[t("2z"), t("3z"), t("4z")]);
    let obs = g.observation(3).unwrap();
    assert_eq!(obs.riichi.unwrap().dora_indicators.len(), 3);
    // Seat 3 holds one 3z, one is the indicator; the other two are hidden.
    assert_eq!(
        obs.unseen[t("3z").index()],
        2,
        "a revealed indicator is seen"
    );
}

#[test]
fn kita_replacement_and_kita_dora_in_sanma() {
    let q1 = "1m2468p2468s1357z";
    let q2 = "9m13579p3579s246z";
    let mut g = setup(
        Rules::tenhou_sanma(),
        RiichiSetup {
            hands: &["123p456p789p112s4z", q1, q2],
            live: "3s",
            rinshan: "4s",
            dora: "7z",
            ..Default::default()
        },
    );
    let live = g.live_wall_remaining();
    assert!(g.legal_actions(0).contains(Action::Kita));
    let ev = apply(&mut g, 0, Action::Kita);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Drew {
            replacement: true,
            ..
        }
    )));
    assert_eq!(
        g.live_wall_remaining(),
        live - 1,
        "the dead wall is topped up"
    );
    let obs = g.observation(1).unwrap();
    assert_eq!(obs.riichi.as_ref().unwrap().kita[0], 1);
    // Seat 1 holds no north; one is set aside, three are unseen.
    assert_eq!(obs.unseen[t("4z").index()], 3, "the kita is seen");
    apply(&mut g, 0, Action::Tsumo);
    let r = g.riichi_result().unwrap();
    let s = &r.wins[0].score;
    assert_eq!(s.kita, 1, "a kita is a dora");
    let y = yaku(&g, 0);
    assert!(
        y.contains(&Yaku::Rinshan) && y.contains(&Yaku::MenzenTsumo),
        "{y:?}"
    );
    // Kita does not exist in four-player: refused, nothing changes.
    let g4 = four(&["123m456p789s45s44z", QA, QB, QC], "6z", 0);
    let mut g5 = g4.clone();
    assert_eq!(g5.apply(0, Action::Kita), Err(RuleError::IllegalAction));
    assert_eq!(g5, g4);
}

#[test]
fn sanma_tsumo_loss() {
    let q1 = "1m2468p2468s1357z";
    let q2 = "9m13579p3579s246z";
    let mut g = setup(
        Rules::tenhou_sanma(),
        RiichiSetup {
            hands: &[q1, "123p456p789p11s23s", q2],
            live: "7z5z3z6z4s",
            dora: "1z",
            ..Default::default()
        },
    );
    for _ in 0..4 {
        tsumogiri(&mut g);
    }
    apply(&mut g, 1, Action::Tsumo);
    let s = &g.riichi_result().unwrap().wins[0].score;
    // Ittsu, pinfu, menzen tsumo: 4 han 20 fu.
    assert_eq!((s.han, s.fu, s.limit), (4, 20, Limit::None));
    // The dealer pays 2600 and the one other non-dealer 1300; the missing player's
    // 1300 is not paid (tsumo loss).
    assert_eq!(&g.last_result().unwrap().deltas[..3], &[-2600, 3900, -1300]);
}

#[test]
fn double_ron_honba_and_sticks_go_to_the_first_winner() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[QA, TANYAO, "345m567p345s22p68s", QC],
            live: "7s",
            dora: "1z",
            table: Table {
                round: 0,
                honba: 2,
                sticks: 1,
            },
            ..Default::default()
        },
    );
    assert_eq!(g.scores(), [24_000, 25_000, 25_000, 25_000]);
    tsumogiri(&mut g);
    apply(&mut g, 1, Action::Ron);
    apply(&mut g, 2, Action::Ron);
    let r = g.riichi_result().unwrap();
    assert_eq!(
        r.wins.iter().map(|w| w.seat).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let (p1, p2) = (r.wins[0].score.payment, r.wins[1].score.payment);
    // Pinfu tanyao 2 han 30 fu = 2000 + 2 honba × 300; tanyao 1 han 40 fu = 1300.
    assert_eq!((p1.from_discarder, p1.riichi_sticks), (2600, 1000));
    assert_eq!((p2.from_discarder, p2.riichi_sticks), (1300, 0));
    assert_eq!(g.last_result().unwrap().deltas, [-3900, 3600, 1300, 0]);
    assert_eq!(r.sticks_taken, 1);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba, g.table().sticks), (1, 0, 0));
}

#[test]
fn exhaustive_draw_tenpai_payments_and_dealer_continuation() {
    // The dealer alone is tenpai: +3000, dealer continues, one more honba.
    let mut g = four(&[R0, QA, QB, QC], "", 0);
    play_passively(&mut g, |_| false);
    let r = g.riichi_result().unwrap();
    assert_eq!(r.draw, Some(DrawKind::Exhaustive));
    assert_eq!(r.tenpai, [true, false, false, false]);
    assert_eq!(r.deltas, [3000, -1000, -1000, -1000]);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba), (0, 1));
    // A noten dealer: the deal passes on, the honba still goes up.
    let mut g = four(&[QA, R0, QB, QC], "", 0);
    play_passively(&mut g, |_| false);
    assert_eq!(
        g.riichi_result().unwrap().deltas,
        [-1000, 3000, -1000, -1000]
    );
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba, g.table().round), (1, 1, 0));
}

#[test]
fn dealer_win_repeats_and_non_dealer_win_passes_the_deal() {
    let mut g = four(&[R0, QA, QB, QC], "3s", 0);
    apply(&mut g, 0, Action::Tsumo);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba), (0, 1));
    let mut g = four(&[QA, QC, TANYAO, QB], "4s", 0);
    tsumogiri(&mut g);
    apply(&mut g, 2, Action::Ron);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba), (1, 0));
}

#[test]
fn busting_ends_the_game() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[R0, QA, QB, QC],
            scores: Some([25_000, 500, 25_000, 49_500]),
            ..Default::default()
        },
    );
    play_passively(&mut g, |_| false);
    assert_eq!(g.scores()[1], -500);
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.start_next_hand(), Err(RuleError::GameOver));
}

#[test]
fn last_hand_extension_and_game_end() {
    let south_4 = Table {
        round: 1,
        honba: 0,
        sticks: 1,
    };
    // Nobody at 30 000 after South 4: the West round follows.
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[QA, QB, QC, QD],
            dealer: 3,
            table: south_4,
            scores: Some([29_000, 25_000, 25_000, 20_000]),
            ..Default::default()
        },
    );
    play_passively(&mut g, |_| false);
    assert_eq!(g.phase(), Phase::HandOver);
    g.start_next_hand().unwrap();
    assert_eq!((g.table().round, g.dealer(), g.table().sticks), (2, 0, 1));
    // Someone at 30 000: the game ends and the stick goes to first place.
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[QA, QB, QC, QD],
            dealer: 3,
            table: south_4,
            scores: Some([31_000, 24_000, 24_000, 20_000]),
            ..Default::default()
        },
    );
    play_passively(&mut g, |_| false);
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.scores(), [32_000, 24_000, 24_000, 20_000]);
    // East-only: the same after East 4.
    let mut g = setup(
        Rules::tenhou_4p().east_only(),
        RiichiSetup {
            hands: &[QA, QB, QC, QD],
            dealer: 3,
            scores: Some([31_000, 24_000, 25_000, 20_000]),
            ..Default::default()
        },
    );
    play_passively(&mut g, |_| false);
    assert_eq!(g.phase(), Phase::GameOver);
}

#[test]
fn nine_terminals_abort() {
    let mut g = four(&["19m19p19s12345z23m", QA, QB, QC], "6z", 0);
    assert!(g.legal_actions(0).contains(Action::NineTerminals));
    apply(&mut g, 0, Action::NineTerminals);
    assert_eq!(
        g.riichi_result().unwrap().draw,
        Some(DrawKind::NineTerminals)
    );
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba), (0, 1));
    // Not after the first turn.
    let mut g = four(&["19m19p19s12345z23m", QA, QB, QC], "6z", 0);
    apply(&mut g, 0, Action::Discard(t("6z")));
    play_passively(&mut g, |g| g.turn() == 0 && g.phase() == Phase::Turn);
    assert!(!g.legal_actions(0).contains(Action::NineTerminals));
}

#[test]
fn four_kans_by_two_players_abort() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[
                "1111m2222m13579s",
                "3333p4444p89m567z",
                "369m258p147s1234z",
                "578m169p369s1234z",
            ],
            live: "9s8s",
            rinshan: "5z6z7z9p",
            ..Default::default()
        },
    );
    apply(&mut g, 0, Action::ClosedKan(t("1m")));
    apply(&mut g, 0, Action::ClosedKan(t("2m")));
    apply(&mut g, 0, Action::Discard(t("9s")));
    apply(&mut g, 1, Action::ClosedKan(t("3p")));
    apply(&mut g, 1, Action::ClosedKan(t("4p")));
    assert_eq!(g.dora_indicators().len(), 5);
    apply(&mut g, 1, Action::Discard(t("8s")));
    assert_eq!(g.riichi_result().unwrap().draw, Some(DrawKind::FourKans));
}

#[test]
fn chankan() {
    let robbed = "234m567p678p56s88s";
    let mut g = four(&[QA, "147m369p44s12347z", robbed, QC], "4s1z2z3z4s", 0);
    tsumogiri(&mut g); // 4s: seat 1 may pon, seat 2 may ron
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 2, Action::Pass);
    apply(&mut g, 1, Action::Discard(t("7z")));
    for _ in 0..3 {
        tsumogiri(&mut g);
    }
    apply(&mut g, 1, Action::AddedKan(t("4s")));
    assert!(g.legal_actions(2).contains(Action::Ron));
    apply(&mut g, 2, Action::Ron);
    let y = yaku(&g, 0);
    assert!(
        y.contains(&Yaku::Chankan) && y.contains(&Yaku::Tanyao),
        "{y:?}"
    );
}

#[test]
fn red_fives_are_physical_and_counted() {
    let mut g = four(&["123m406p789s45s77z", QA, QB, QC], "6z5z6z7z3s", 0);
    assert_eq!(g.red_fives_in_hand(0), [0, 1, 0]);
    assert_eq!(
        g.observation(0).unwrap().riichi.unwrap().red_hand,
        [0, 1, 0]
    );
    apply(&mut g, 0, Action::Riichi(t("6z")));
    for _ in 0..3 {
        tsumogiri(&mut g);
    }
    apply(&mut g, 0, Action::Tsumo);
    assert_eq!(g.riichi_result().unwrap().wins[0].score.aka_dora, 1);
    // A red five where the rules have none is a setup error.
    assert_eq!(
        Game::from_setup(
            Rules::four_player(),
            &["0m23m456p789s4567z", QA, QB, QC],
            "",
            "",
            0
        )
        .err(),
        Some(RuleError::BadSetup)
    );
    let q1 = "1m2468p2468s1357z";
    let q2 = "9m13579p3579s246z";
    let s = RiichiSetup {
        hands: &["0p00p234s56789s1z", q1, q2],
        ..Default::default()
    };
    assert_eq!(
        Game::from_riichi_setup(Rules::tenhou_sanma(), &s).err(),
        Some(RuleError::BadSetup),
        "sanma has one red 5p"
    );
}

/// Riichi games by mixed bots: every hand record replays to the identical state and
/// survives postcard; the game record replays the whole game.
#[test]
fn records_round_trip() {
    use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
    for rules in [Rules::tenhou_sanma(), Rules::tenhou_4p()] {
        for seed in 0..6u64 {
            let mut g = Game::new(rules, seed).unwrap();
            let mut game_record: GameRecord<8192> = GameRecord::new(rules, seed);
            let mut buf = [0u8; engine::game::RECORD_MAX_BYTES];
            loop {
                let n = rules.players as usize;
                let mut boxed: Vec<Box<dyn Agent>> = (0..n)
                    .map(|s| -> Box<dyn Agent> {
                        if s % 2 == 0 {
                            Box::new(EfficiencyBot)
                        } else {
                            Box::new(RandomBot::new(seed * 31 + s as u64))
                        }
                    })
                    .collect();
                let mut agents: Vec<&mut dyn Agent> = boxed.iter_mut().map(|b| &mut **b).collect();
                play_hand(&mut g, &mut agents).unwrap();
                let record = g.hand_record();
                assert_eq!(record.replay().unwrap(), g);
                let bytes = record.to_postcard(&mut buf).unwrap();
                assert_eq!(HandRecord::from_postcard(bytes).unwrap(), record);
                for &(s, a) in g.actions() {
                    game_record.push(s, a).unwrap();
                }
                if g.phase() == Phase::GameOver {
                    break;
                }
                g.start_next_hand().unwrap();
            }
            assert_eq!(game_record.replay().unwrap(), g);
        }
    }
}

#[test]
fn four_winds_abort() {
    let mut g = four(&[QA, QB, QC, QD], "9m9m9m1z", 0);
    for seat in 0..3u8 {
        apply(&mut g, seat, Action::Discard(t("1z")));
    }
    tsumogiri(&mut g);
    assert_eq!(g.riichi_result().unwrap().draw, Some(DrawKind::FourWinds));
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().honba), (0, 1));
}

#[test]
fn four_riichi_abort_keeps_the_sticks() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[R0, TANYAO, "345m567p345s22p68s", "111m789m999p12p55z"],
            live: "6z6z6z3z",
            dora: "1z",
            ..Default::default()
        },
    );
    for (seat, tile) in [(0u8, "6z"), (1, "6z"), (2, "6z"), (3, "3z")] {
        apply(&mut g, seat, Action::Riichi(t(tile)));
    }
    assert_eq!(g.riichi_result().unwrap().draw, Some(DrawKind::FourRiichi));
    assert_eq!(g.table().sticks, 4);
    assert_eq!(g.scores(), [24_000; 4]);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().sticks), (0, 4));
}

/// Seat 0 discards 7s, on which seats 1, 2 and 3 can all win.
fn three_can_ron(rules: Rules) -> Game {
    let mut g = setup(
        rules,
        RiichiSetup {
            hands: &[
                "147m369s1234567z",
                TANYAO,
                "345m567p345s22p68s",
                "456m345p567p678p7s",
            ],
            live: "7s",
            dora: "9m",
            ..Default::default()
        },
    );
    tsumogiri(&mut g);
    g
}

#[test]
fn triple_ron_aborts_in_four_player() {
    let mut g = three_can_ron(Rules::tenhou_4p());
    for seat in 1..4u8 {
        assert!(g.legal_actions(seat).contains(Action::Ron));
        apply(&mut g, seat, Action::Ron);
    }
    let r = g.riichi_result().unwrap();
    assert_eq!(r.draw, Some(DrawKind::TripleRon));
    assert!(r.wins.is_empty() && r.deltas == [0; 4]);
}

#[test]
fn agari_yame_but_no_tenpai_yame() {
    let south_4 = Table {
        round: 1,
        honba: 0,
        sticks: 0,
    };
    // The dealer of South 4 wins and is first with 30 000 or more: the game ends.
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[QA, QB, QC, R0],
            live: "3s",
            dealer: 3,
            table: south_4,
            scores: Some([25_000, 20_000, 20_000, 35_000]),
            ..Default::default()
        },
    );
    apply(&mut g, 3, Action::Tsumo);
    assert_eq!(g.phase(), Phase::GameOver);
    // Tenpai at the draw, first as well: the dealer plays on.
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[QA, QB, QC, R0],
            dealer: 3,
            table: south_4,
            scores: Some([25_000, 25_000, 10_000, 40_000]),
            ..Default::default()
        },
    );
    play_passively(&mut g, |_| false);
    assert_eq!(g.phase(), Phase::HandOver);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.table().round, g.table().honba), (3, 1, 1));
}

#[test]
fn riichi_positions_are_determinized() {
    let g = Game::new(Rules::tenhou_4p(), 3).unwrap();
    let mut rng = engine::rng::Rng::new(1);
    let det = g.determinize(0, &mut rng).unwrap();
    assert_eq!(det.observation(0).unwrap(), g.observation(0).unwrap());
    // An observation without its riichi view is not a riichi position.
    let mut obs = g.observation(0).unwrap();
    obs.riichi = None;
    assert_eq!(
        Game::from_observation(&obs, None, &mut rng).err(),
        Some(RuleError::BadSetup)
    );
}

/// Tenhou's rules with thirteen orphans allowed to rob a closed kan (Mahjong Soul's).
fn kokushi_robs_closed_kan() -> Rules {
    let mut rules = Rules::tenhou_4p();
    if let Some(r) = rules.riichi.as_mut() {
        r.kokushi_robs_closed_kan = true;
    }
    rules
}

/// Seat 0 (dealer) holds four 1z, seat 1 is thirteen-orphans tenpai on 1z.
fn closed_kan_into_kokushi(rules: Rules) -> Game {
    setup(
        rules,
        RiichiSetup {
            hands: &[
                "1111z258m369p147s",
                "19m19p19s2345677z",
                "258m369p147s2345z",
                "369m147p258s2346z",
            ],
            live: "8s",
            rinshan: "5s",
            dora: "9p",
            ..Default::default()
        },
    )
}

#[test]
fn kokushi_robs_a_closed_kan_only_where_the_rules_allow() {
    // Tenhou: no window, the kan is made at once.
    assert!(!Rules::tenhou_4p().riichi.unwrap().kokushi_robs_closed_kan);
    assert!(
        !Rules::tenhou_sanma()
            .riichi
            .unwrap()
            .kokushi_robs_closed_kan
    );
    let mut g = closed_kan_into_kokushi(Rules::tenhou_4p());
    apply(&mut g, 0, Action::ClosedKan(t("1z")));
    assert_eq!(g.phase(), Phase::Turn);
    assert_eq!(g.drawn(), Some(t("5s")));
    assert_eq!(g.dora_indicators().len(), 2);

    // Robbed: only ron or pass for the kokushi seat; the kan is never made.
    let mut g = closed_kan_into_kokushi(kokushi_robs_closed_kan());
    apply(&mut g, 0, Action::ClosedKan(t("1z")));
    assert_eq!(g.phase(), Phase::Claim);
    assert_eq!(g.seats_to_act().as_slice(), &[1]);
    assert_eq!(
        g.legal_actions(1).iter().collect::<Vec<_>>(),
        vec![Action::Pass, Action::Ron]
    );
    let pending = g.observation(2).unwrap().pending.unwrap();
    assert!(pending.added_kan && pending.from == 0 && pending.tile == t("1z"));
    apply(&mut g, 1, Action::Ron);
    let r = g.riichi_result().unwrap();
    assert_eq!(yaku(&g, 0), vec![Yaku::Kokushi]);
    assert_eq!(r.wins[0].from, Some(0));
    assert_eq!(r.wins[0].score.limit, Limit::Yakuman);
    assert_eq!(r.deltas[..2], [-32_000, 32_000]);
    assert_eq!(r.dora_indicators.len(), 1, "no kan dora");
    assert!(g.melds(0).is_empty(), "the robbed kan is not made");

    // Passed: the kan is made (kan dora, replacement draw) and the pass is furiten.
    let mut g = closed_kan_into_kokushi(kokushi_robs_closed_kan());
    apply(&mut g, 0, Action::ClosedKan(t("1z")));
    apply(&mut g, 1, Action::Pass);
    assert_eq!(g.phase(), Phase::Turn);
    assert_eq!(g.melds(0).len(), 1);
    assert_eq!(g.drawn(), Some(t("5s")));
    assert_eq!(g.dora_indicators().len(), 2);
    assert!(g.observation(1).unwrap().riichi.unwrap().furiten);
}

#[test]
fn only_thirteen_orphans_robs_a_closed_kan() {
    // Seat 1 waits on 6m-9m (pinfu) when seat 0 makes a closed kan of 9m: no window.
    let mut g = setup(
        kokushi_robs_closed_kan(),
        RiichiSetup {
            hands: &["9999m258p369p147s", "78m123p456p789s55s", QB, QD],
            live: "8s",
            rinshan: "5z",
            dora: "9p",
            ..Default::default()
        },
    );
    apply(&mut g, 0, Action::ClosedKan(t("9m")));
    assert_eq!(g.phase(), Phase::Turn);
    assert_eq!(g.drawn(), Some(t("5z")));
    assert!(!g.observation(1).unwrap().riichi.unwrap().furiten);
}

/// Passes an open claim window, if any.
fn pass_claims(g: &mut Game) {
    if g.phase() == Phase::Claim {
        pass_all(g);
    }
}

/// Seat 1 pons 5z from seat 0, 6z from seat 2 and the last dragon, 7z, from seat 0
/// (liable), then waits on 9p (tanki); `live` continues after seat 1's last discard.
fn daisangen_pao(live_after: &str, honba: u8) -> Game {
    let hands = [
        "147m258p369s1257z",
        "123m9p147s556677z",
        "369m147p258s2346z",
        "258m369p258s1234z",
    ];
    three_dragon_pons(
        Rules::tenhou_4p(),
        &hands,
        &format!("3z4z1z1z3z{live_after}"),
        honba,
    )
}

/// Seat 1 pons 5z from seat 0 (discarding 1s), 6z from seat 2 (4s) and 7z from seat 0
/// (7s), the other seats drawing and discarding the live tiles between; seat 2 is on
/// turn at the end.
fn three_dragon_pons(rules: Rules, hands: &[&str; 4], live: &str, honba: u8) -> Game {
    let mut g = setup(
        rules,
        RiichiSetup {
            hands,
            live,
            dora: "9s",
            table: Table {
                round: 0,
                honba,
                sticks: 0,
            },
            ..Default::default()
        },
    );
    apply(&mut g, 0, Action::Discard(t("5z")));
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("1s")));
    pass_claims(&mut g);
    apply(&mut g, 2, Action::Discard(t("6z")));
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("4s")));
    pass_claims(&mut g);
    tsumogiri(&mut g); // seat 2
    pass_claims(&mut g);
    tsumogiri(&mut g); // seat 3
    pass_claims(&mut g);
    apply(&mut g, 0, Action::Discard(t("7z")));
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("7s")));
    pass_claims(&mut g);
    assert_eq!((g.turn(), g.phase()), (2, Phase::Turn));
    g
}

#[test]
fn pao_tsumo_the_liable_player_pays_it_all() {
    assert!(Rules::tenhou_4p().riichi.unwrap().pao && Rules::tenhou_sanma().riichi.unwrap().pao);
    let mut g = daisangen_pao("2z5z6z9p", 1);
    for _ in 0..3 {
        tsumogiri(&mut g);
        pass_claims(&mut g);
    }
    apply(&mut g, 1, Action::Tsumo);
    let r = g.riichi_result().unwrap();
    assert!(yaku(&g, 0).contains(&Yaku::Daisangen));
    assert_eq!(r.wins[0].pao, Some(0));
    // A non-dealer's yakuman as a ron from the liable dealer, with 1 honba: 32300.
    assert_eq!(r.deltas, [-32_300, 32_300, 0, 0]);
    assert_eq!(g.last_result().unwrap().values[1], 32_300);
}

#[test]
fn pao_ron_is_split_and_the_liable_player_pays_the_honba() {
    let mut g = daisangen_pao("9p", 2);
    apply(&mut g, 2, Action::Discard(t("9p")));
    apply(&mut g, 1, Action::Ron);
    let r = g.riichi_result().unwrap();
    assert_eq!(r.wins[0].pao, Some(0));
    // 32000 split; the liable seat 0 also pays the 2 honba (600).
    assert_eq!(r.deltas, [-16_600, 32_600, -16_000, 0]);

    // A ron from the liable player itself is an ordinary ron.
    let mut g = daisangen_pao("2z5z9p", 0);
    for _ in 0..2 {
        tsumogiri(&mut g);
        pass_claims(&mut g);
    }
    apply(&mut g, 0, Action::Discard(t("9p")));
    apply(&mut g, 1, Action::Ron);
    let r = g.riichi_result().unwrap();
    assert_eq!(r.wins[0].pao, None);
    assert_eq!(r.deltas, [-32_000, 32_000, 0, 0]);
}

#[test]
fn no_pao_when_the_last_dragon_set_is_a_closed_kan() {
    let mut g = setup(
        Rules::tenhou_4p(),
        RiichiSetup {
            hands: &[
                "147m258p369s1256z",
                "123m9p14s5566777z",
                "369m147p258s2346z",
                "258m369p258s1234z",
            ],
            live: "3z4z1z1z3z7z",
            rinshan: "9p",
            dora: "9s",
            ..Default::default()
        },
    );
    apply(&mut g, 0, Action::Discard(t("5z")));
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("1s")));
    pass_claims(&mut g);
    apply(&mut g, 2, Action::Discard(t("6z")));
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("4s")));
    for _ in 0..3 {
        pass_claims(&mut g);
        tsumogiri(&mut g);
    }
    pass_claims(&mut g);
    apply(&mut g, 1, Action::ClosedKan(t("7z")));
    apply(&mut g, 1, Action::Tsumo);
    let r = g.riichi_result().unwrap();
    assert!(yaku(&g, 0).contains(&Yaku::Daisangen));
    assert_eq!(r.wins[0].pao, None);
    assert_eq!(r.deltas, [-16_000, 32_000, -8_000, -8_000]);
}

/// Seat 1 pons 5z from seat 0, 6z from seat 2 and the last dragon, 7z, from seat 0
/// (liable), holding 111z and waiting on 2z: daisangen and tsuuiisou, two yakuman of
/// which only daisangen makes seat 0 liable.
fn composite_pao(rules: Rules, live_after: &str, honba: u8) -> Game {
    let hands = [
        "147m258p369s3457z",
        "147s1112z556677z",
        "369m147p258s2346z",
        "258m369p258s1234z",
    ];
    three_dragon_pons(rules, &hands, &format!("8m4z9m9m8m{live_after}"), honba)
}

/// Tenhou: the liable player pays the whole composite hand; Mahjong Soul
/// (`pao_per_yakuman`, riichi.wiki's Mahjong Soul page: "Separated responsibility for
/// each yakuman"): only daisangen's part, the rest as an ordinary win.
#[test]
fn pao_covers_the_whole_hand_on_tenhou_and_one_yakuman_on_mahjong_soul() {
    assert!(!Rules::tenhou_4p().riichi.unwrap().pao_per_yakuman);
    assert!(Rules::majsoul_4p().riichi.unwrap().pao_per_yakuman);
    let tsumo = |rules: Rules| {
        let mut g = composite_pao(rules, "1p1p1p2z", 1);
        for _ in 0..3 {
            tsumogiri(&mut g);
            pass_claims(&mut g);
        }
        apply(&mut g, 1, Action::Tsumo);
        let r = g.riichi_result().unwrap().clone();
        assert!(yaku(&g, 0).contains(&Yaku::Daisangen) && yaku(&g, 0).contains(&Yaku::Tsuuiisou));
        assert_eq!(r.wins[0].pao, Some(0));
        assert_eq!(g.last_result().unwrap().values[1], 64_300);
        r.deltas
    };
    // Two yakuman of a non-dealer (64 000) with 1 honba.
    assert_eq!(tsumo(Rules::tenhou_4p()), [-64_300, 64_300, 0, 0]);
    // Daisangen's 32 000 + 300 from the liable dealer; tsuuiisou as a tsumo: the dealer
    // 16 000, each other player 8 000.
    assert_eq!(
        tsumo(Rules::majsoul_4p()),
        [-48_300, 64_300, -8_000, -8_000]
    );

    let ron = |rules: Rules| {
        let mut g = composite_pao(rules, "1p", 2);
        apply(&mut g, 2, Action::Discard(t("2z")));
        apply(&mut g, 1, Action::Ron);
        let r = g.riichi_result().unwrap().clone();
        assert_eq!(r.wins[0].pao, Some(0));
        r.deltas
    };
    // Tenhou: 64 000 split, the liable player pays the 2 honba.
    assert_eq!(ron(Rules::tenhou_4p()), [-32_600, 64_600, -32_000, 0]);
    // Mahjong Soul: half of daisangen's 32 000 and the honba from the liable player, the
    // rest (16 000 + tsuuiisou's 32 000) from the discarder.
    assert_eq!(ron(Rules::majsoul_4p()), [-16_600, 64_600, -48_000, 0]);
}

/// Mahjong Soul four-player: three rons on one discard all win (riichi.wiki, Mahjong
/// Soul: "Three-player Ron (Sanchahou): No"); Tenhou aborts the hand
/// (`triple_ron_aborts_in_four_player`).
#[test]
fn triple_ron_wins_on_mahjong_soul() {
    assert!(!Rules::majsoul_4p().riichi.unwrap().abort_triple_ron);
    let mut g = three_can_ron(Rules::majsoul_4p());
    for seat in 1..4u8 {
        apply(&mut g, seat, Action::Ron);
    }
    let r = g.riichi_result().unwrap();
    assert_eq!(r.draw, None);
    assert_eq!(r.wins.iter().map(|w| w.seat).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(r.deltas[0] < 0 && r.deltas[1..].iter().all(|&d| d > 0));
    assert_eq!(r.deltas.iter().sum::<i32>(), 0);
}

/// Sanma: seat 0 (dealer) holds a north, seat 1 is seven-pairs tenpai on the north.
fn kita_into_seven_pairs(rules: Rules) -> Game {
    setup(
        rules,
        RiichiSetup {
            hands: &[
                "123p456p789p112s4z",
                "11p99p22s88s33p66p4z",
                "9m13579p3579s246z",
            ],
            live: "3s",
            rinshan: "4s",
            dora: "7z",
            ..Default::default()
        },
    )
}

/// Tenhou's and Mahjong Soul's sanma both let a player ron another's kita (real logs:
/// six Tenhou 鳳凰卓 games in `tests/data/real-logs/Agony5757__mahjong`); the win is not
/// robbing a kan (no chankan), the kita-er pays, and a pass is furiten.
#[test]
fn a_kita_can_be_won_on_without_chankan() {
    for rules in [Rules::tenhou_sanma(), Rules::majsoul_sanma()] {
        let mut g = kita_into_seven_pairs(rules);
        apply(&mut g, 0, Action::Kita);
        assert_eq!(g.phase(), Phase::Claim);
        assert_eq!(g.seats_to_act().as_slice(), &[1]);
        assert_eq!(
            g.legal_actions(1).iter().collect::<Vec<_>>(),
            vec![Action::Pass, Action::Ron]
        );
        let obs = g.observation(1).unwrap();
        let pending = obs.pending.unwrap();
        assert!(pending.kita && !pending.added_kan && !pending.is_discard());
        assert_eq!((pending.tile, pending.from), (t("4z"), 0));
        assert_eq!(obs.riichi.as_ref().unwrap().kita[0], 1);
        // The window's world, dealt from the observation alone, offers the same.
        let world = Game::from_observation(&obs, None, &mut engine::rng::Rng::new(5)).unwrap();
        assert_eq!(world.legal_actions(1), g.legal_actions(1));
        let mut won = g.clone();
        apply(&mut won, 1, Action::Ron);
        let r = won.riichi_result().unwrap();
        assert_eq!(r.wins[0].from, Some(0));
        let y = yaku(&won, 0);
        assert!(
            y.contains(&Yaku::Chiitoitsu) && !y.contains(&Yaku::Chankan),
            "{y:?}"
        );
        assert!(r.deltas[0] < 0 && r.deltas[0] == -r.deltas[1] && r.deltas[2] == 0);
        // Passed: the replacement draw follows, and the pass is furiten.
        apply(&mut g, 1, Action::Pass);
        assert_eq!(g.phase(), Phase::Turn);
        assert_eq!((g.turn(), g.drawn()), (0, Some(t("4s"))));
        assert!(g.observation(1).unwrap().riichi.unwrap().furiten);
    }
}

/// No window when nobody can win on the north: the replacement draw comes at once.
#[test]
fn a_kita_nobody_can_win_on_opens_no_window() {
    let mut g = setup(
        Rules::tenhou_sanma(),
        RiichiSetup {
            hands: &[
                "123p456p789p112s4z",
                "11p99p22s88s33p66p6z",
                "9m13579p3579s246z",
            ],
            live: "3s",
            rinshan: "4s",
            dora: "7z",
            ..Default::default()
        },
    );
    apply(&mut g, 0, Action::Kita);
    assert_eq!((g.phase(), g.drawn()), (Phase::Turn, Some(t("4s"))));
    assert!(!g.observation(1).unwrap().riichi.unwrap().furiten);
}
