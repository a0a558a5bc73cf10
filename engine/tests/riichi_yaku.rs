//! Table tests of `engine::score::score`: one hand per yaku (the exact yaku set is
//! asserted), the dora / kita / sanma rules, a few payments that follow from the scoring
//! table, every error, and a property test that no input panics.
//!
//! Lines are the ten input columns of the vector format (tests/data/riichi-scores/
//! README.md), separated by spaces: hand, melds, win, flags, winds (round, seat), dora,
//! ura, kita, honba, sticks.

mod riichi_common;

use engine::game::MeldKind;
use engine::score::{score, Limit, Meld, Preset, ScoreError, WinInput, YakuValue};
use engine::tile::Tile;
use proptest::prelude::*;
use riichi_common::input;

const FOUR: Preset = Preset::Tenhou4p;
const SANMA: Preset = Preset::TenhouSanma;

fn yaku_names(preset: Preset, line: &str) -> Vec<String> {
    match score(&input(preset, line)) {
        Ok(s) => {
            let mut names: Vec<String> = s.yaku.iter().map(|y| y.yaku.name().to_string()).collect();
            names.sort();
            names
        }
        Err(e) => panic!("{line}: {e}"),
    }
}

#[test]
fn every_yaku() {
    let table: &[(Preset, &str, &[&str])] = &[
        (
            FOUR,
            "123m456m234p567s99p - 4p tr ES 1z - 0 0 0",
            &["menzen_tsumo", "pinfu", "riichi"],
        ),
        (
            FOUR,
            "123m456m234p567s99p - 4p di ES 1z - 0 0 0",
            &["double_riichi", "ippatsu", "pinfu"],
        ),
        (
            FOUR,
            "234m567p345s66s p888p 6s - ES 1z - 0 0 0",
            &["tanyao"],
        ),
        (
            FOUR,
            "112233m456p789s11z - 3m - ES 9p - 0 0 0",
            &["iipeikou"],
        ),
        (
            FOUR,
            "123m456m567s99p c234p 9p th ES 1z - 0 0 0",
            &["haitei"],
        ),
        (
            FOUR,
            "123m456m567s99p c234p 9p H ES 1z - 0 0 0",
            &["houtei"],
        ),
        (
            FOUR,
            "123m456m567s99p a5555p 9p tk ES 1z - 0 0 0",
            &["menzen_tsumo", "rinshan"],
        ),
        (
            FOUR,
            "123m456m234p567s99p - 4p c ES 1z - 0 0 0",
            &["chankan", "pinfu"],
        ),
        (FOUR, "123m456m234p99p555z - 2p - ES 1z - 0 0 0", &["haku"]),
        (FOUR, "123m456m234p99p666z - 2p - ES 1z - 0 0 0", &["hatsu"]),
        (FOUR, "123m456m234p99p777z - 2p - ES 1z - 0 0 0", &["chun"]),
        (
            FOUR,
            "123m456m234p99p222z - 2p - ES 1z - 0 0 0",
            &["seat_wind_south"],
        ),
        (
            FOUR,
            "123m456m234p99p111z - 2p - EE 9p - 0 0 0",
            &["round_wind_east", "seat_wind_east"],
        ),
        (
            FOUR,
            "123m456m234p99p444z - 2p - NN 9p - 0 0 0",
            &["round_wind_north", "seat_wind_north"],
        ),
        (
            FOUR,
            "123m123p123s456s99m - 4s - ES 1z - 0 0 0",
            &["pinfu", "sanshoku"],
        ),
        (
            FOUR,
            "123456789m234p99s - 4p - ES 1z - 0 0 0",
            &["ittsu", "pinfu"],
        ),
        (
            FOUR,
            "123m789p789s999s11z - 7p - ES 9p - 0 0 0",
            &["chanta"],
        ),
        (
            FOUR,
            "1133m5577p2299s44z - 4z - ES 9p - 0 0 0",
            &["chiitoitsu"],
        ),
        (
            FOUR,
            "222m44s555s p333p,p777p 4s - ES 1z - 0 0 0",
            &["tanyao", "toitoi"],
        ),
        (
            FOUR,
            "222m333p555s678s44z - 6s - ES 1z - 0 0 0",
            &["sanankou"],
        ),
        (
            FOUR,
            "222m222p222s456s99m - 4s - ES 1z - 0 0 0",
            &["sanankou", "sanshoku_doukou"],
        ),
        (
            FOUR,
            "456p99m m2222m,m3333p,m7777s 9m - ES 1z - 0 0 0",
            &["sankantsu"],
        ),
        (
            FOUR,
            "111m999p11z p999s,p222z 1z - EW 5m - 0 0 0",
            &["honroutou", "toitoi"],
        ),
        (
            FOUR,
            "555z666z77z123m456p - 1m - ES 9p - 0 0 0",
            &["haku", "hatsu", "shousangen"],
        ),
        (
            FOUR,
            "123456789m111z22z - 5m - ES 9p - 0 0 0",
            &["honitsu", "ittsu", "round_wind_east"],
        ),
        (
            FOUR,
            "123m789m123p789s99s - 3m - ES 1z - 0 0 0",
            &["junchan"],
        ),
        (
            FOUR,
            "112233m556677p44s - 4s - ES 1z - 0 0 0",
            &["ryanpeikou"],
        ),
        (
            FOUR,
            "123m345m678m789m22m - 2m - ES 1z - 0 0 0",
            &["chinitsu"],
        ),
        (
            FOUR,
            "19m19p19s12345677z - 1m - ES 1p - 0 0 0",
            &["kokushi"],
        ),
        (
            FOUR,
            "19m19p19s12345677z - 7z - ES 1p - 0 0 0",
            &["kokushi_13_wait"],
        ),
        (
            FOUR,
            "111m333p555s777s22z - 7s t ES 1p - 0 0 0",
            &["suuankou"],
        ),
        (
            FOUR,
            "111m333p555s777s22z - 2z - ES 1p - 0 0 0",
            &["suuankou_tanki"],
        ),
        (
            FOUR,
            "555z666z777z123m44p - 1m - ES 1p - 0 0 0",
            &["daisangen"],
        ),
        (
            FOUR,
            "111z222z333z44z123m - 1m - ES 1p - 0 0 0",
            &["shousuushii"],
        ),
        (
            FOUR,
            "111z222z333z55m p444z 5m - ES 1p - 0 0 0",
            &["daisuushii"],
        ),
        (
            FOUR,
            "222z555z666z77z p111z 7z - ES 1p - 0 0 0",
            &["tsuuiisou"],
        ),
        (
            FOUR,
            "22334466888s666z - 2s - ES 1p - 0 0 0",
            &["ryuuiisou"],
        ),
        (
            FOUR,
            "111m999m111p999p11s - 1p - ES 1z - 0 0 0",
            &["chinroutou"],
        ),
        (FOUR, "11123456789999m - 8m - ES 1z - 0 0 0", &["chuuren"]),
        (
            FOUR,
            "11123455678999m - 5m - ES 1z - 0 0 0",
            &["junsei_chuuren"],
        ),
        (
            FOUR,
            "55m m1111s,a4444s,m7777z,m6666z 5m - ES 1p - 0 0 0",
            &["suukantsu"],
        ),
        (
            FOUR,
            "123m456m234p567s99p - 4p tT EE 1z - 0 0 0",
            &["tenhou"],
        ),
        (
            FOUR,
            "123m456m234p567s99p - 4p tC ES 1z - 0 0 0",
            &["chiihou"],
        ),
        // Several yakuman add up on Tenhou.
        (
            FOUR,
            "111z222z333z444z55z - 5z t ES 1p - 0 0 0",
            &["daisuushii", "suuankou_tanki", "tsuuiisou"],
        ),
    ];
    for (preset, line, expected) in table {
        assert_eq!(yaku_names(*preset, line), *expected, "{line}");
    }
}

#[test]
fn yakuman_combine_and_drop_other_yaku() {
    let s = score(&input(FOUR, "111z222z333z444z55z - 5z t ES 1p - 0 0 0")).unwrap();
    assert_eq!(s.yakuman, 3);
    assert_eq!(s.limit, Limit::Yakuman);
    assert!(s.yaku.iter().all(|y| y.value == YakuValue::Yakuman(1)));
    // Non-dealer tsumo of a triple yakuman: 3 × 8000 basic points.
    assert_eq!(s.payment.from_dealer, 48_000);
    assert_eq!(s.payment.from_each_non_dealer, 24_000);
    assert_eq!(s.payment.total, 96_000);
    assert_eq!((s.dora, s.han), (0, 0));
}

/// Mahjong Soul counts four single patterns double (riichi.wiki, Mahjong Soul; PyPI
/// `riichienv`'s `GameRule.default_mjsoul()`); Tenhou counts them single; every other
/// yakuman and every han hand scores the same under both.
#[test]
fn mahjong_soul_double_yakuman() {
    // (hand, 1 + the yakuman Mahjong Soul adds over Tenhou)
    let cases: &[(&str, u8)] = &[
        ("19m19p19s12345677z - 7z - ES 1p - 0 0 0", 2), // kokushi, 13-sided wait
        ("19m19p19s12345667z - 7z - ES 1p - 0 0 0", 1), // kokushi, single wait
        ("111m333p555s777s22z - 2z - ES 1p - 0 0 0", 2), // suuankou tanki
        ("111m333p555s777s22z - 7s t ES 1p - 0 0 0", 1), // suuankou
        ("11123455678999m - 5m - ES 1z - 0 0 0", 2),    // junsei chuuren
        ("11123456789999m - 8m - ES 1z - 0 0 0", 1),    // chuuren
        // daisuushii 2, tsuuiisou 1, suuankou tanki 2: Tenhou 3, Mahjong Soul 5
        ("111z222z333z444z55z - 5z t ES 1p - 0 0 0", 3),
    ];
    for (preset, double) in [(FOUR, Preset::Majsoul4p), (SANMA, Preset::MajsoulSanma)] {
        assert!(double.double_yakuman() && !preset.double_yakuman());
        for &(line, multiplier) in cases {
            let nine_gates_in_man = line.split(' ').next().is_some_and(|h| h.ends_with("999m"));
            if preset == SANMA && nine_gates_in_man {
                continue; // no 2m-8m in sanma
            }
            let single = score(&input(preset, line)).unwrap();
            let s = score(&input(double, line)).unwrap();
            assert_eq!(s.yakuman, single.yakuman + multiplier - 1, "{line}");
            assert_eq!(s.basic_points, 8000 * s.yakuman as u32, "{line}");
            let weights: u8 = s
                .yaku
                .iter()
                .map(|y| match y.value {
                    YakuValue::Yakuman(m) => m,
                    YakuValue::Han(_) => 0,
                })
                .sum();
            assert_eq!(weights, s.yakuman, "{line}");
        }
        let han = "123p456p234s567s99p - 4p tr ES 1z - 0 0 0";
        assert_eq!(score(&input(preset, han)), score(&input(double, han)));
    }
    // A non-dealer's 13-sided kokushi ron under Mahjong Soul: 64 000.
    let s = score(&input(Preset::Majsoul4p, cases[0].0)).unwrap();
    assert_eq!(s.payment.from_discarder, 64_000);
}

#[test]
fn fu_and_payments_follow_the_table() {
    // Pinfu tsumo: 20 fu; riichi + tsumo + pinfu = 3 han; 20 · 2^5 = 640 basic points.
    let s = score(&input(FOUR, "123m456m234p567s99p - 4p tr ES 1z - 0 0 0")).unwrap();
    assert_eq!((s.han, s.fu, s.basic_points), (3, 20, 640));
    assert_eq!(
        (s.payment.from_dealer, s.payment.from_each_non_dealer),
        (1300, 700)
    );
    // Seven pairs: 25 fu, 2 han: 1600 on ron.
    let s = score(&input(FOUR, "1133m5577p2299s44z - 4z - ES 9p - 0 0 0")).unwrap();
    assert_eq!((s.han, s.fu, s.payment.from_discarder), (2, 25, 1600));
    // Open pinfu shape by ron: 30 fu (tanyao 1 han: 1000).
    let s = score(&input(FOUR, "234m567p345s66s c234p 3s - ES 1z - 0 0 0")).unwrap();
    assert_eq!((s.han, s.fu, s.payment.from_discarder), (1, 30, 1000));
    // 3 han 30 fu tsumo by a non-dealer with one honba: 2000 + 100 and 1000 + 100 each,
    // four-player 4300 with a riichi stick 5300; sanma (tsumo loss) 3200.
    let line = "123p456p789s99p555z - 2p tr SS 1z - 0 1 1";
    let four = score(&input(FOUR, line)).unwrap();
    assert_eq!((four.han, four.fu), (3, 40));
    let line = "123p456s234s99p555z - 2s tr SS 1z - 0 1 1";
    let four = score(&input(FOUR, line)).unwrap();
    let sanma = score(&input(SANMA, line)).unwrap();
    for s in [&four, &sanma] {
        assert_eq!((s.han, s.fu), (3, 30), "{s:?}");
        assert_eq!(
            (s.payment.from_dealer, s.payment.from_each_non_dealer),
            (2100, 1100)
        );
    }
    assert_eq!(
        (four.payment.non_dealer_payers, four.payment.total),
        (2, 5300)
    );
    assert_eq!(
        (sanma.payment.non_dealer_payers, sanma.payment.total),
        (1, 4200)
    );
    // Ron honba: 300 each in four-player, 200 in sanma (riichi + haku, 40 fu: 2600).
    let line = "123p456s234s99p555z - 2s r SS 1z - 0 2 0";
    assert_eq!(
        score(&input(FOUR, line)).unwrap().payment.from_discarder,
        2600 + 600
    );
    assert_eq!(
        score(&input(SANMA, line)).unwrap().payment.from_discarder,
        2600 + 400
    );
    // No kiriage: riichi, pinfu, tanyao and a dora, 4 han 30 fu, is 7700 by ron, not
    // mangan; one more dora makes it mangan.
    let s = score(&input(FOUR, "234m567m234p567s88p - 2p r ES 1m - 0 0 0")).unwrap();
    assert_eq!(
        (s.han, s.fu, s.limit, s.payment.from_discarder),
        (4, 30, Limit::None, 7700)
    );
    let s = score(&input(FOUR, "234m567m234p567s88p - 2p r ES 1m4m - 0 0 0")).unwrap();
    assert_eq!(
        (s.han, s.fu, s.limit, s.payment.from_discarder),
        (5, 30, Limit::Mangan, 8000)
    );
}

#[test]
fn dora_kita_and_sanma_rules() {
    // Sanma: kita are one han each and norths for dora (West indicator → North dora).
    let s = score(&input(SANMA, "123p456p789s11s999m - 1s r ES 3z - 2 0 0")).unwrap();
    assert_eq!((s.kita, s.dora, s.han), (2, 2, 5));
    // Sanma: the 1m indicator makes 9m the dora.
    let s = score(&input(SANMA, "999m123p456p789s11s - 1s r ES 1m - 0 0 0")).unwrap();
    assert_eq!(s.dora, 3);
    // Ura dora count only with riichi; red fives count in melds too.
    let s = score(&input(FOUR, "123m456m234p99p555z - 2p - ES 1z 1p 0 0 0")).unwrap();
    assert_eq!((s.ura_dora, s.dora), (0, 0));
    let s = score(&input(FOUR, "123m456m234p99p - 2p - ES 1z - 0 0 0"));
    assert_eq!(
        s,
        Err(ScoreError::WrongTileCount {
            expected: 14,
            found: 11
        })
    );
    let s = score(&input(FOUR, "123m234p99p555z c406s 2p - ES 7z 7z 0 0 0")).unwrap();
    assert_eq!((s.aka_dora, s.dora, s.ura_dora, s.han), (1, 3, 0, 5));
    // North is no seat wind in sanma: a north triplet is no yaku in an East round.
    assert_eq!(
        score(&input(SANMA, "444z123p456p789s11s - 1s - ES 1p - 0 0 0")),
        Err(ScoreError::NoYaku)
    );
}

fn with(line: &str, preset: Preset, change: impl FnOnce(&mut WinInput)) -> Result<(), ScoreError> {
    let mut i = input(preset, line);
    change(&mut i);
    score(&i).map(|_| ())
}

#[test]
fn every_error() {
    use ScoreError::*;
    let good = "123m456m234p567s99p - 4p - ES 1z - 0 0 0";
    let open = "123m456m567s99p c234p 9p - ES 1z - 0 0 0";
    let kan = "123m456m567s99p a5555p 9p - ES 1z - 0 0 0";
    let tile = |i: u8| Tile::new(i).unwrap();
    let cases: Vec<(Result<(), ScoreError>, ScoreError)> = vec![
        (
            with("123m456m234p567s98p - 8p - ES 1z - 0 0 0", FOUR, |_| {}),
            NotAWinningHand,
        ),
        (with(open, FOUR, |_| {}), NoYaku),
        (
            with("111m456m234p99p p111m 9p - ES 1z - 0 0 0", FOUR, |_| {}),
            TooManyCopies { tile: tile(0) },
        ),
        (
            with(good, FOUR, |i| {
                i.dora_indicators.extend([tile(17), tile(17)]);
                i.ura_indicators.push(tile(17)).unwrap();
            }),
            TooManyCopies { tile: tile(17) },
        ),
        (
            with("123m456m234p567s9p - 9p - ES 1z - 0 0 0", FOUR, |_| {}),
            WrongTileCount {
                expected: 14,
                found: 13,
            },
        ),
        (
            with(good, FOUR, |i| i.preset = SANMA),
            NotInTileSet { tile: tile(1) },
        ),
        (
            with("123p456p789s11s999m - 1s - ES 1z - 0 0 0", SANMA, |i| {
                i.concealed[9] = 0;
                i.concealed[10] = 0;
                i.concealed[11] = 0;
                i.melds
                    .push(Meld {
                        kind: MeldKind::Chi,
                        tile: tile(9),
                    })
                    .unwrap();
            }),
            InvalidMeld { index: 0 },
        ),
        (
            with(open, FOUR, |i| i.melds[0].tile = tile(7)),
            InvalidMeld { index: 0 },
        ),
        (
            with(open, FOUR, |i| i.melds[0].tile = tile(27)),
            InvalidMeld { index: 0 },
        ),
        (
            with(good, FOUR, |i| i.winning_tile = tile(27)),
            WinningTileNotInHand,
        ),
        (
            with(good, FOUR, |i| i.red_fives = [0, 1, 0]),
            ImpossibleRedFives { suit: 1 },
        ),
        (
            with("123m406m234p99p555z - 2p - ES 1z - 0 0 0", FOUR, |i| {
                i.red_fives[0] = 2
            }),
            ImpossibleRedFives { suit: 0 },
        ),
        (
            with("123p406p789s11s999m - 1s - ES 1z - 0 0 0", SANMA, |i| {
                i.red_fives = [1, 1, 0]
            }),
            ImpossibleRedFives { suit: 0 },
        ),
        (with(good, FOUR, |i| i.kita = 1), KitaInFourPlayer),
        (
            with("123p456p789s11s999m - 1s r EN 1z - 0 0 0", SANMA, |_| {}),
            InvalidSeatWind,
        ),
        (
            with("123p456p789s11s999m - 1s r ES 1z - 5 0 0", SANMA, |_| {}),
            TooManyCopies { tile: tile(30) },
        ),
        (
            with(open, FOUR, |i| {
                i.conditions.riichi = engine::score::Riichi::Riichi
            }),
            InconsistentConditions,
        ),
        (
            with(good, FOUR, |i| i.conditions.ippatsu = true),
            InconsistentConditions,
        ),
        (
            with(good, FOUR, |i| i.conditions.haitei = true),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p tk ES 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with(kan, FOUR, |i| i.conditions.rinshan = true),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p tc ES 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p tH ES 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p tT ES 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p tC EE 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with("123m456m234p567s99p - 4p T EE 1z - 0 0 0", FOUR, |_| {}),
            InconsistentConditions,
        ),
        (
            with(kan, FOUR, |i| {
                i.method = engine::score::WinMethod::Tsumo;
                i.conditions.tenhou = true
            }),
            InconsistentConditions,
        ),
    ];
    for (n, (got, want)) in cases.into_iter().enumerate() {
        assert_eq!(got, Err(want), "case {n}");
        assert!(!want.to_string().is_empty());
    }
    // The good hand itself scores.
    assert!(with(good, FOUR, |_| {}).is_ok());
}

fn any_input() -> impl Strategy<Value = WinInput> {
    let kinds = [
        MeldKind::Chi,
        MeldKind::Pon,
        MeldKind::OpenKan,
        MeldKind::AddedKan,
        MeldKind::ClosedKan,
    ];
    (
        any::<bool>(),
        proptest::collection::vec((0usize..34, 0u8..=4), 0..14),
        proptest::collection::vec((0usize..5, 0u8..40), 0..5),
        0u8..40,
        any::<u16>(),
        proptest::collection::vec(0u8..40, 0..6),
        (
            0u8..4,
            0u8..4,
            any::<[u8; 3]>(),
            0u8..6,
            any::<u8>(),
            any::<u8>(),
        ),
    )
        .prop_map(
            move |(
                sanma,
                tiles,
                melds,
                win,
                flags,
                dora,
                (round, seat, reds, kita, honba, sticks),
            )| {
                let preset = if sanma { SANMA } else { FOUR };
                let mut counts = [0u8; 34];
                for (t, c) in tiles {
                    counts[t] = c;
                }
                let mut i = WinInput::new(preset, counts, Tile::new(win % 34).unwrap());
                for (kind, t) in melds {
                    if let Some(tile) = Tile::new(t) {
                        let _ = i.melds.push(Meld {
                            kind: kinds[kind],
                            tile,
                        });
                    }
                }
                let bit = |k: u16| flags & (1 << k) != 0;
                i.method = if bit(0) {
                    engine::score::WinMethod::Tsumo
                } else {
                    engine::score::WinMethod::Ron
                };
                i.conditions.riichi = [
                    engine::score::Riichi::None,
                    engine::score::Riichi::Riichi,
                    engine::score::Riichi::Double,
                ][(flags >> 1) as usize % 3];
                i.conditions.ippatsu = bit(3);
                i.conditions.haitei = bit(4);
                i.conditions.houtei = bit(5);
                i.conditions.rinshan = bit(6);
                i.conditions.chankan = bit(7);
                i.conditions.tenhou = bit(8);
                i.conditions.chiihou = bit(9);
                let winds = [
                    engine::score::Wind::East,
                    engine::score::Wind::South,
                    engine::score::Wind::West,
                    engine::score::Wind::North,
                ];
                i.round_wind = winds[round as usize];
                i.seat_wind = winds[seat as usize];
                for (k, t) in dora.into_iter().enumerate() {
                    if let Some(tile) = Tile::new(t) {
                        let _ = if k % 2 == 0 {
                            i.dora_indicators.push(tile)
                        } else {
                            i.ura_indicators.push(tile)
                        };
                    }
                }
                i.red_fives = reds;
                i.kita = kita;
                i.honba = honba;
                i.riichi_sticks = sticks;
                i
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// No input panics; every score adds up.
    #[test]
    fn never_panics_and_adds_up(input in any_input()) {
        if let Ok(s) = score(&input) {
            let p = &s.payment;
            prop_assert_eq!(
                p.total,
                p.from_discarder + p.from_dealer + p.from_each_non_dealer * p.non_dealer_payers as u32 + p.riichi_sticks
            );
            prop_assert!(s.yakuman > 0 || s.han > 0);
        }
    }
}
