//! Rule scenarios built from mpsz hand strings with `Game::from_setup`.
//!
//! Sanma seats 1 and 2 usually hold "quiet" hands of thirteen singles (no pair, not
//! thirteen orphans), which can neither claim nor win on a single discard.

use engine::game::{
    check_invariants, score_win, Action, Event, Events, Game, HandEndKind, Meld, MeldKind, Phase,
    RuleError, WinShape,
};
use engine::notation::{parse_counts, parse_tiles};
use engine::rules::{MultipleRon, Rules};
use engine::tile::{Tile, TileCounts, TileSet};

const Q1: &str = "1m2468p2468s1357z";
const Q2: &str = "9m13579p3579s246z";

fn t(s: &str) -> Tile {
    let v: heapless::Vec<Tile, 1> = parse_tiles(s, TileSet::FourPlayer).unwrap();
    v[0]
}

fn counts(s: &str) -> TileCounts {
    parse_counts(s, TileSet::FourPlayer).unwrap()
}

fn apply(g: &mut Game, seat: u8, a: Action) -> Events {
    let ev = g
        .apply(seat, a)
        .unwrap_or_else(|e| panic!("{seat}:{a:?} refused: {e}"));
    check_invariants(g).unwrap();
    ev
}

fn has(ev: &Events, f: impl Fn(&Event) -> bool) -> bool {
    ev.iter().any(f)
}

/// Plays the hand out without winning or calling: discard the drawn tile, pass claims.
fn play_out_passively(g: &mut Game) {
    loop {
        match g.phase() {
            Phase::Turn => {
                let seat = g.turn();
                let tile = g.drawn().expect("drew");
                apply(g, seat, Action::Discard(tile));
            }
            Phase::Claim => {
                for s in g.seats_to_act() {
                    apply(g, s, Action::Pass);
                }
            }
            _ => break,
        }
    }
}

#[test]
fn closed_kan_replacement_draw_and_observation() {
    let mut g = Game::from_setup(
        Rules::sanma(),
        &["1111s234p567s99s1z", Q1, Q2],
        "5z",
        "7z",
        0,
    )
    .unwrap();
    check_invariants(&g).unwrap();
    let live = g.live_wall_remaining();
    assert_eq!(live, 108 - 39 - 14 - 1);
    let legal = g.legal_actions(0);
    assert!(legal.contains(Action::ClosedKan(t("1s"))));
    assert!(!legal.contains(Action::Tsumo));
    let ev = apply(&mut g, 0, Action::ClosedKan(t("1s")));
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 0,
            meld: Meld {
                kind: MeldKind::ClosedKan,
                from: None,
                ..
            }
        }
    )));
    assert!(has(&ev, |e| *e
        == Event::Drew {
            seat: 0,
            tile: t("7z"),
            replacement: true
        }));
    assert_eq!(
        g.live_wall_remaining(),
        live - 1,
        "dead wall topped up from the live wall"
    );
    assert_eq!(g.turn(), 0);
    assert_eq!(g.drawn(), Some(t("7z")));
    assert_eq!(g.kans(), 1);
    // A closed kan is visible: seat 1 sees no 1s left.
    let o = g.observation(1).unwrap();
    assert_eq!(o.unseen[t("1s").index()], 0);
    assert_eq!(o.hand, counts(Q1));
    assert_eq!(o.drawn, None);
    assert_eq!(
        o.unseen.iter().map(|&c| c as u32).sum::<u32>(),
        108 - 13 - 4
    );
    assert_eq!(
        o.unseen[t("5m").index()],
        0,
        "tiles outside the set are never unseen"
    );
    assert_eq!(g.observation(0).unwrap().drawn, Some(t("7z")));
    assert_eq!(g.observation(3), Err(RuleError::BadSeat));
}

#[test]
fn open_kan_replacement_draw() {
    let seat1 = "1m2468p2468s1555z";
    let mut g = Game::from_setup(
        Rules::sanma(),
        &["1111s234p567s99s5z", seat1, Q2],
        "7z",
        "3z",
        0,
    )
    .unwrap();
    let ev = apply(&mut g, 0, Action::Discard(t("5z")));
    assert_eq!(g.phase(), Phase::Claim);
    assert_eq!(g.seats_to_act().as_slice(), &[1]);
    assert!(g.legal_actions(2).is_empty());
    let l = g.legal_actions(1);
    assert!(l.contains(Action::Pon) && l.contains(Action::OpenKan) && l.contains(Action::Pass));
    assert!(has(&ev, |e| *e
        == Event::Discarded {
            seat: 0,
            tile: t("5z")
        }));
    let ev = apply(&mut g, 1, Action::OpenKan);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 1,
            meld: Meld {
                kind: MeldKind::OpenKan,
                from: Some(0),
                ..
            }
        }
    )));
    assert!(has(&ev, |e| *e
        == Event::Drew {
            seat: 1,
            tile: t("3z"),
            replacement: true
        }));
    assert_eq!(g.turn(), 1);
    assert!(g.discards(0)[0].claimed);
    // After a kan the player may kan again or tsumo (not only discard): not an after-call state.
    assert_eq!(g.phase(), Phase::Turn);
    assert_eq!(g.drawn(), Some(t("3z")));
}

/// Dealer discards 5z, seat 1 pons, then draws the fourth 5z (live tiles: dealer 7z,
/// seat 2 8s, dealer 6p, seat 1 5z).
#[test]
fn added_kan_replacement_draw() {
    let seat1 = "1m2468p2468s1355z";
    let mut g = Game::from_setup(
        Rules::sanma(),
        &["1111s234p567s99s5z", seat1, Q2],
        "7z8s6p5z",
        "3z",
        0,
    )
    .unwrap();
    apply(&mut g, 0, Action::Discard(t("5z")));
    apply(&mut g, 1, Action::Pon);
    // Right after a call: only discards.
    let l = g.legal_actions(1);
    assert!(l.iter().all(|a| matches!(a, Action::Discard(_))));
    apply(&mut g, 1, Action::Discard(t("1m")));
    assert_eq!(g.turn(), 2);
    apply(&mut g, 2, Action::Discard(t("8s")));
    apply(&mut g, 0, Action::Discard(t("6p")));
    assert_eq!((g.turn(), g.drawn()), (1, Some(t("5z"))));
    let l = g.legal_actions(1);
    assert!(l.contains(Action::AddedKan(t("5z"))));
    assert!(!l.contains(Action::ClosedKan(t("5z"))));
    let ev = apply(&mut g, 1, Action::AddedKan(t("5z")));
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 1,
            meld: Meld {
                kind: MeldKind::AddedKan,
                from: Some(0),
                ..
            }
        }
    )));
    assert!(has(&ev, |e| *e
        == Event::Drew {
            seat: 1,
            tile: t("3z"),
            replacement: true
        }));
    assert_eq!(g.melds(1).len(), 1);
    assert_eq!(g.kans(), 1);
}

const ROB_DEALER: &str = "19m159p2468s1234z";
const ROB_SEAT1: &str = "35578p13579s567z";
const ROB_SEAT2: &str = "46p123s456s789s11z"; // waits on 5p

/// Dealer discards 5p (seat 2 could ron, seat 1 pons), and seat 1 later adds the 5p.
fn rob_setup(rob_kan: bool) -> Game {
    let mut rules = Rules::sanma();
    rules.rob_kan = rob_kan;
    let mut g = Game::from_setup(
        rules,
        &[ROB_DEALER, ROB_SEAT1, ROB_SEAT2],
        "7z9p6z5p",
        "3z",
        0,
    )
    .unwrap();
    apply(&mut g, 0, Action::Discard(t("5p")));
    assert_eq!(g.seats_to_act().as_slice(), &[1, 2]);
    assert!(g.legal_actions(2).contains(Action::Ron));
    apply(&mut g, 2, Action::Pass);
    apply(&mut g, 1, Action::Pon);
    apply(&mut g, 1, Action::Discard(t("8p")));
    apply(&mut g, 2, Action::Discard(t("9p")));
    apply(&mut g, 0, Action::Discard(t("6z")));
    assert_eq!(g.drawn(), Some(t("5p")));
    g
}

#[test]
fn robbing_a_kan_when_enabled() {
    let mut g = rob_setup(true);
    let ev = apply(&mut g, 1, Action::AddedKan(t("5p")));
    assert!(has(&ev, |e| *e
        == Event::KanDeclared {
            seat: 1,
            tile: t("5p")
        }));
    assert_eq!(g.phase(), Phase::Claim);
    assert_eq!(g.seats_to_act().as_slice(), &[2]);
    let l = g.legal_actions(2);
    assert_eq!(l.as_slice(), &[Action::Pass, Action::Ron]);
    let o = g.observation(0).unwrap();
    assert!(o
        .pending
        .is_some_and(|p| p.added_kan && p.tile == t("5p") && p.from == 1));
    let ev = apply(&mut g, 2, Action::Ron);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Won {
            seat: 2,
            from: Some(1),
            value: 1,
            shape: WinShape::Regular,
            ..
        }
    )));
    let r = *g.last_result().unwrap();
    assert_eq!(r.deltas, [0, -1, 1, 0]);
    assert_eq!(g.scores(), [0, -1, 1, 0]);
    assert_eq!(g.kans(), 0, "a robbed kan is not completed");
}

#[test]
fn robbing_window_passed_completes_the_kan() {
    let mut g = rob_setup(true);
    apply(&mut g, 1, Action::AddedKan(t("5p")));
    let ev = apply(&mut g, 2, Action::Pass);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 1,
            meld: Meld {
                kind: MeldKind::AddedKan,
                ..
            }
        }
    )));
    assert!(has(&ev, |e| *e
        == Event::Drew {
            seat: 1,
            tile: t("3z"),
            replacement: true
        }));
}

#[test]
fn no_robbing_when_disabled() {
    let mut g = rob_setup(false);
    let ev = apply(&mut g, 1, Action::AddedKan(t("5p")));
    assert_eq!(g.phase(), Phase::Turn);
    assert!(g.seats_to_act().as_slice() == [1]);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 1,
            meld: Meld {
                kind: MeldKind::AddedKan,
                ..
            }
        }
    )));
}

#[test]
fn ron_beats_pon() {
    let mut g = Game::from_setup(
        Rules::sanma(),
        &[ROB_DEALER, ROB_SEAT1, ROB_SEAT2],
        "7z",
        "",
        0,
    )
    .unwrap();
    apply(&mut g, 0, Action::Discard(t("5p")));
    // Answer order does not matter: pon first, then ron.
    apply(&mut g, 1, Action::Pon);
    assert_eq!(g.phase(), Phase::Claim);
    let ev = apply(&mut g, 2, Action::Ron);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Won {
            seat: 2,
            from: Some(0),
            ..
        }
    )));
    assert!(g.melds(1).is_empty());
    assert_eq!(g.scores(), [-1, 0, 1, 0]);
    assert_eq!(g.phase(), Phase::HandOver);
}

/// Dealer 1 discards 5p; seats 2 and 0 both wait on it (seat 0 with a half flush).
fn multi_ron(mode: MultipleRon) -> Game {
    let mut rules = Rules::sanma();
    rules.multiple_ron = mode;
    let seat0 = "12346p789p22z333z";
    let seat1 = "19m159p1357s4567z";
    let mut g = Game::from_setup(rules, &[seat0, seat1, ROB_SEAT2], "7z", "", 1).unwrap();
    apply(&mut g, 1, Action::Discard(t("5p")));
    assert_eq!(g.seats_to_act().as_slice(), &[0, 2]);
    apply(&mut g, 0, Action::Ron);
    apply(&mut g, 2, Action::Ron);
    g
}

#[test]
fn multiple_ron_all_winners() {
    let g = multi_ron(MultipleRon::AllWinners);
    let r = g.last_result().unwrap();
    assert_eq!(r.kind, HandEndKind::Win);
    assert_eq!(r.winners, [true, false, true, false]);
    assert_eq!(r.values, [2, 0, 1, 0]);
    assert_eq!(r.deltas, [2, -3, 1, 0]);
    assert_eq!(r.discarder, Some(1));
}

#[test]
fn multiple_ron_first_in_turn_order() {
    let mut g = multi_ron(MultipleRon::FirstInTurnOrder);
    let r = *g.last_result().unwrap();
    // Turn order from discarder 1: seat 2 comes before seat 0.
    assert_eq!(r.winners, [false, false, true, false]);
    assert_eq!(r.deltas, [0, -1, 1, 0]);
    // The dealer (1) did not win: the deal passes to seat 2.
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.hand_number()), (2, 1));
    check_invariants(&g).unwrap();
}

// Four-player: seat 0 discards 5p; seat 1 (next) can chi 46p, seat 2 can pon, seat 3
// holds 46p but is not next in turn.
const FP: [&str; 4] = [
    "13579m5p13579s12z",
    "2468m46p2468s345z",
    "13579m55p13579s6z",
    "2468m46p2468s127z",
];

#[test]
fn pon_beats_chi_and_chi_only_by_next_player() {
    let mut g = Game::from_setup(Rules::four_player(), &FP, "9p", "", 0).unwrap();
    apply(&mut g, 0, Action::Discard(t("5p")));
    assert_eq!(g.seats_to_act().as_slice(), &[1, 2]);
    let l1 = g.legal_actions(1);
    assert!(l1.contains(Action::Chi(t("4p"))));
    assert!(!l1.contains(Action::Chi(t("3p"))) && !l1.contains(Action::Chi(t("5p"))));
    assert!(g.legal_actions(3).is_empty(), "chi only by the next player");
    assert!(g.legal_actions(2).contains(Action::Pon));
    apply(&mut g, 1, Action::Chi(t("4p")));
    let ev = apply(&mut g, 2, Action::Pon);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Called {
            seat: 2,
            meld: Meld {
                kind: MeldKind::Pon,
                ..
            }
        }
    )));
    assert_eq!(g.turn(), 2);
    assert!(g.melds(1).is_empty());
    assert_eq!(g.hand(1).unwrap(), &counts(FP[1]));
}

#[test]
fn chi_when_pon_passes() {
    let mut g = Game::from_setup(Rules::four_player(), &FP, "9p", "", 0).unwrap();
    apply(&mut g, 0, Action::Discard(t("5p")));
    apply(&mut g, 2, Action::Pass);
    let ev = apply(&mut g, 1, Action::Chi(t("4p")));
    let chi = Meld {
        kind: MeldKind::Chi,
        tile: t("4p"),
        from: Some(0),
        claimed: Some(t("5p")),
    };
    assert!(has(&ev, |e| *e == Event::Called { seat: 1, meld: chi }));
    assert_eq!(g.melds(1), &[chi]);
    assert!(g
        .legal_actions(1)
        .iter()
        .all(|a| matches!(a, Action::Discard(_))));
}

#[test]
fn chi_disabled_in_sanma_rules_flag() {
    let mut rules = Rules::four_player();
    rules.chi = false;
    let mut g = Game::from_setup(rules, &FP, "9p", "", 0).unwrap();
    apply(&mut g, 0, Action::Discard(t("5p")));
    assert_eq!(g.seats_to_act().as_slice(), &[2]);
}

#[test]
fn seven_pairs_with_a_quad_is_not_a_win() {
    let g = Game::from_setup(Rules::sanma(), &["1111s3355s7799s1z", Q1, Q2], "1z", "", 0).unwrap();
    assert!(!g.legal_actions(0).contains(Action::Tsumo));
}

#[test]
fn seven_pairs_win_and_flag() {
    let hands = ["1133557799s99p1z", Q1, Q2];
    let mut g = Game::from_setup(Rules::sanma(), &hands, "1z", "", 0).unwrap();
    assert!(g.legal_actions(0).contains(Action::Tsumo));
    let ev = apply(&mut g, 0, Action::Tsumo);
    // base 1 + self-draw 1 + seven pairs 1.
    assert!(has(&ev, |e| matches!(
        e,
        Event::Won {
            seat: 0,
            from: None,
            shape: WinShape::SevenPairs,
            value: 3,
            ..
        }
    )));
    assert_eq!(g.scores(), [6, -3, -3, 0]);
    let mut rules = Rules::sanma();
    rules.seven_pairs = false;
    let g = Game::from_setup(rules, &hands, "1z", "", 0).unwrap();
    assert!(!g.legal_actions(0).contains(Action::Tsumo));
}

#[test]
fn thirteen_orphans_and_flag() {
    let hands = ["19m19p19s1234567z", Q1, Q2];
    let mut g = Game::from_setup(Rules::sanma(), &hands, "1z", "", 0).unwrap();
    let ev = apply(&mut g, 0, Action::Tsumo);
    // Thirteen orphans is worth 13 alone (no self-draw bonus).
    assert!(has(&ev, |e| matches!(
        e,
        Event::Won {
            shape: WinShape::ThirteenOrphans,
            value: 13,
            ..
        }
    )));
    assert_eq!(g.scores(), [26, -13, -13, 0]);
    let mut rules = Rules::sanma();
    rules.thirteen_orphans = false;
    let g = Game::from_setup(rules, &hands, "1z", "", 0).unwrap();
    assert!(!g.legal_actions(0).contains(Action::Tsumo));
}

#[test]
fn exhaustive_draw_pays_nothing() {
    let mut g =
        Game::from_setup(Rules::sanma(), &["1111s234p567s99s1z", Q1, Q2], "", "", 0).unwrap();
    play_out_passively(&mut g);
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.live_wall_remaining(), 0);
    let r = g.last_result().unwrap();
    assert_eq!(r.kind, HandEndKind::ExhaustiveDraw);
    assert_eq!(r.deltas, [0; 4]);
    assert_eq!(g.scores(), [0; 4]);
    // 55 live tiles: the dealer's first draw and 54 more, one discard each.
    let discards: usize = (0..3).map(|s| g.discards(s).len()).sum();
    assert_eq!(discards, 55);
}

#[test]
fn seat_rotation_and_game_end() {
    let mut g =
        Game::from_setup(Rules::sanma(), &["1133557799s99p1z", Q1, Q2], "1z", "", 0).unwrap();
    assert_eq!(g.start_next_hand(), Err(RuleError::HandInProgress));
    apply(&mut g, 0, Action::Tsumo);
    assert_eq!(g.phase(), Phase::HandOver);
    assert!(g.legal_actions(0).is_empty() && g.seats_to_act().is_empty());
    assert_eq!(
        g.apply(0, Action::Discard(t("1z"))),
        Err(RuleError::HandOver)
    );
    // The dealer won: the dealer repeats, the hand number advances.
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.hand_number()), (0, 1));
    check_invariants(&g).unwrap();
    play_out_passively(&mut g);
    assert_eq!(g.last_result().unwrap().kind, HandEndKind::ExhaustiveDraw);
    g.start_next_hand().unwrap();
    assert_eq!((g.dealer(), g.hand_number()), (1, 2));
    play_out_passively(&mut g);
    assert!(g.is_over());
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.start_next_hand(), Err(RuleError::GameOver));
    assert_eq!(g.apply(1, Action::Pass), Err(RuleError::GameOver));
    assert_eq!(g.scores().iter().sum::<i32>(), 0);
}

#[test]
fn four_kans_limit_and_value() {
    let seat1 = "19m5678p1234s777z";
    let seat2 = "19m9p156789s2456z";
    for (last, tsumo) in [("7z", false), ("5z", true)] {
        let dead = format!("4p4p4p{last}");
        let mut g = Game::from_setup(
            Rules::sanma(),
            &["1111p2222p3333p4p", seat1, seat2],
            "5z",
            &dead,
            0,
        )
        .unwrap();
        for k in ["1p", "2p", "3p", "4p"] {
            apply(&mut g, 0, Action::ClosedKan(t(k)));
        }
        assert_eq!(g.kans(), 4);
        assert_eq!(g.live_wall_remaining(), 55 - 1 - 4);
        assert!(g
            .legal_actions(0)
            .iter()
            .all(|a| matches!(a, Action::Discard(_) | Action::Tsumo)));
        if tsumo {
            let ev = apply(&mut g, 0, Action::Tsumo);
            // 1 + self-draw 1 + four kans 4 + all pungs 1 + half flush 1.
            assert!(has(&ev, |e| matches!(e, Event::Won { value: 8, .. })));
        } else {
            apply(&mut g, 0, Action::Discard(t("7z")));
            let l = g.legal_actions(1);
            assert!(l.contains(Action::Pon));
            assert!(!l.contains(Action::OpenKan), "a fifth kan is not legal");
        }
    }
}

#[test]
fn illegal_actions_leave_the_state_untouched() {
    let mut g = Game::from_setup(
        Rules::sanma(),
        &["1111s234p567s99s1z", Q1, Q2],
        "5z",
        "7z",
        0,
    )
    .unwrap();
    let before = g.clone();
    let cases: [(u8, Action, RuleError); 9] = [
        (1, Action::Discard(t("1m")), RuleError::NotYourTurn),
        (0, Action::Discard(t("9m")), RuleError::IllegalAction),
        (0, Action::Tsumo, RuleError::IllegalAction),
        (0, Action::Pon, RuleError::IllegalAction),
        (0, Action::Pass, RuleError::IllegalAction),
        (0, Action::ClosedKan(t("2p")), RuleError::IllegalAction),
        (0, Action::AddedKan(t("1s")), RuleError::IllegalAction),
        (3, Action::Pass, RuleError::BadSeat),
        (200, Action::Ron, RuleError::BadSeat),
    ];
    for (seat, a, err) in cases {
        assert_eq!(g.apply(seat, a), Err(err), "{seat}:{a:?}");
        assert_eq!(g, before);
    }
    // In a claim window: only awaited seats, only offered claims.
    let seat1 = "1m2468p2468s1555z";
    let mut g = Game::from_setup(
        Rules::sanma(),
        &["1111s234p567s99s5z", seat1, Q2],
        "7z",
        "3z",
        0,
    )
    .unwrap();
    apply(&mut g, 0, Action::Discard(t("5z")));
    let before = g.clone();
    for (seat, a, err) in [
        (2, Action::Pass, RuleError::NotYourTurn),
        (0, Action::Pass, RuleError::NotYourTurn),
        (1, Action::Ron, RuleError::IllegalAction),
        (1, Action::Chi(t("3z")), RuleError::IllegalAction),
        (1, Action::Discard(t("1m")), RuleError::IllegalAction),
    ] {
        assert_eq!(g.apply(seat, a), Err(err), "{seat}:{a:?}");
        assert_eq!(g, before);
    }
}

#[test]
fn bad_setups_are_errors() {
    assert_eq!(
        Game::from_setup(Rules::sanma(), &["1111s", Q1, Q2], "", "", 0),
        Err(RuleError::BadSetup)
    );
    assert_eq!(
        Game::from_setup(Rules::sanma(), &[Q1, Q1, Q1], "", "", 0).err(),
        None
    );
    assert_eq!(
        Game::from_setup(Rules::sanma(), &[Q1, Q1, Q1, Q1, Q1], "", "", 0),
        Err(RuleError::BadSetup)
    );
    assert_eq!(
        Game::from_setup(Rules::sanma(), &["5m", Q1, Q2], "", "", 0),
        Err(RuleError::BadSetup)
    );
    let mut r = Rules::sanma();
    r.players = 7;
    assert!(matches!(Game::new(r, 1), Err(RuleError::InvalidRules(_))));
}

fn meld(kind: MeldKind, tile: &str) -> Meld {
    Meld {
        kind,
        tile: t(tile),
        from: if kind == MeldKind::ClosedKan {
            None
        } else {
            Some(1)
        },
        claimed: None,
    }
}

#[test]
fn scoring_bonuses() {
    let r = Rules::four_player();
    let v = |closed: &str, melds: &[Meld], tsumo: bool| {
        score_win(&r, &counts(closed), melds, tsumo).map(|w| w.value)
    };
    assert_eq!(v("123p456p789p123s11z", &[], false), Some(1));
    assert_eq!(v("123p456p789p123s11z", &[], true), Some(2), "self-draw");
    assert_eq!(v("123p456p789p123s1z", &[], false), None);
    assert_eq!(v("111p333p555s777s99s", &[], false), Some(2), "all pungs");
    assert_eq!(
        v("111222333p555s99s", &[], false),
        Some(2),
        "best decomposition: pungs"
    );
    assert_eq!(
        v(
            "555s99s",
            &[
                meld(MeldKind::Pon, "1p"),
                meld(MeldKind::Pon, "3p"),
                meld(MeldKind::OpenKan, "7s")
            ],
            false
        ),
        Some(3),
        "open all pungs + kan"
    );
    assert_eq!(
        v(
            "555s99s",
            &[
                meld(MeldKind::Chi, "1p"),
                meld(MeldKind::Pon, "3p"),
                meld(MeldKind::Pon, "7s")
            ],
            false
        ),
        Some(1),
        "chi breaks all pungs"
    );
    assert_eq!(v("123p456p789p111z22z", &[], false), Some(2), "half flush");
    assert_eq!(
        v("11123456789999p", &[], false),
        Some(4),
        "full flush replaces half flush"
    );
    assert_eq!(v("123p456p789s555z11s", &[], false), Some(2), "dragon pung");
    assert_eq!(
        v("123p456p789s11s", &[meld(MeldKind::Pon, "6z")], false),
        Some(2),
        "dragon pon"
    );
    assert_eq!(
        v("123p456p789s11s", &[meld(MeldKind::ClosedKan, "7z")], false),
        Some(3),
        "dragon kan: kan + dragon"
    );
    assert_eq!(
        v("123p456p789s11s", &[meld(MeldKind::ClosedKan, "1z")], false),
        Some(2),
        "kan"
    );
    assert_eq!(v("1199p3355s7799s11z", &[], false), Some(2), "seven pairs");
    assert_eq!(v("1199p3355s7799s11z", &[], true), Some(3));
    assert_eq!(
        v("11335577p99p1122z", &[], false),
        Some(3),
        "seven pairs + half flush"
    );
    assert_eq!(
        v("19m19p19s12345677z", &[], true),
        Some(13),
        "thirteen orphans alone"
    );
    let both = score_win(&r, &counts("112233p445566s77z"), &[], false).unwrap();
    assert_eq!(
        (both.shape, both.value),
        (WinShape::SevenPairs, 2),
        "seven pairs beats the regular reading"
    );
    assert_eq!(
        v("1122334455667p7p", &[], false),
        Some(5),
        "full flush seven pairs (1+1+3) beats regular (1+3)"
    );
}

#[test]
fn absurd_score_tables_do_not_panic() {
    let mut rules = Rules::sanma();
    rules.scoring.thirteen_orphans = i32::MAX;
    rules.starting_points = i32::MAX;
    let mut g = Game::from_setup(rules, &["19m19p19s1234567z", Q1, Q2], "1z", "", 0).unwrap();
    apply(&mut g, 0, Action::Tsumo);
    assert_eq!(g.phase(), Phase::HandOver);
}
