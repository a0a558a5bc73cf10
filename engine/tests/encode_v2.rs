//! Encoding v2: v1's columns unchanged, zeros under the simple rules, documented ranges
//! on random riichi games, and each riichi feature read back from hand-built positions.

use engine::bots::{Agent, EfficiencyBot, RandomBot};
use engine::encode::{
    encode, gf, gf2, tf2, Encoding, WrongLength, ENCODED_LEN, ENCODED_LEN_V2, GLOBAL_TOKEN,
    GLOBAL_USED, NUM_TOKENS, TOKEN_FEATURES, TOKEN_FEATURES_V2,
};
use engine::game::{check_invariants, Action, Game, Observation, Phase, RiichiSetup, Table};
use engine::notation::parse_tiles;
use engine::rules::Rules;
use engine::tile::{Tile, TileSet, NUM_TILE_TYPES};

fn v2(obs: &Observation) -> Vec<f32> {
    let mut out = vec![f32::NAN; ENCODED_LEN_V2];
    Encoding::V2.encode(obs, &mut out).unwrap();
    out
}

fn at(e: &[f32], token: usize, feature: usize) -> f32 {
    e[token * TOKEN_FEATURES_V2 + feature]
}

fn t(s: &str) -> Tile {
    let v: heapless::Vec<Tile, 1> = parse_tiles(s, TileSet::FourPlayer).unwrap();
    v[0]
}

/// Every observation of every seat along random games of `rules`, with `f` called on
/// each (at most `games` games).
fn along_random_games(rules: Rules, games: u64, mut f: impl FnMut(&Observation)) {
    for seed in 0..games {
        let mut g = Game::new(rules, seed).unwrap();
        // Efficiency bots in seats 0 and 1 (they declare riichi), random bots after.
        let mut random: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 7 + s)).collect();
        for _ in 0..3000 {
            if matches!(g.phase(), Phase::GameOver) {
                break;
            }
            if matches!(g.phase(), Phase::HandOver) {
                g.start_next_hand().unwrap();
                continue;
            }
            for s in 0..rules.players {
                f(&g.observation(s).unwrap());
            }
            let seat = g.seats_to_act()[0];
            let obs = g.observation(seat).unwrap();
            let legal = g.legal_actions(seat);
            let a = if seat < 2 {
                EfficiencyBot.act(&obs, &legal)
            } else {
                random[seat as usize].act(&obs, &legal)
            };
            g.apply(seat, a).unwrap();
        }
    }
}

fn check_v1_prefix_and_ranges(obs: &Observation) {
    let e2 = v2(obs);
    let mut e1 = [f32::NAN; ENCODED_LEN];
    encode(obs, &mut e1);
    for k in 0..NUM_TOKENS {
        // The global token's v1 columns end at GLOBAL_USED (the rest of its v1 row is 0).
        let width = if k == GLOBAL_TOKEN {
            GLOBAL_USED
        } else {
            TOKEN_FEATURES
        };
        assert_eq!(
            &e1[k * TOKEN_FEATURES..k * TOKEN_FEATURES + width],
            &e2[k * TOKEN_FEATURES_V2..k * TOKEN_FEATURES_V2 + width],
            "token {k}: v2's first columns are not v1"
        );
        let riichi_from = if k == GLOBAL_TOKEN {
            GLOBAL_USED
        } else {
            TOKEN_FEATURES
        };
        for f in 0..TOKEN_FEATURES_V2 {
            let x = at(&e2, k, f);
            let (lo, hi) = Encoding::V2.feature_range(k, f);
            assert!(
                x.is_finite() && x >= lo && x <= hi,
                "token {k} feature {f} = {x}"
            );
            if obs.riichi.is_none() && f >= riichi_from {
                assert_eq!(x, 0.0, "simple rules, token {k} feature {f}");
            }
        }
    }
}

#[test]
fn v2_extends_v1_and_stays_in_range_on_every_preset() {
    let presets = [
        Rules::sanma(),
        Rules::four_player(),
        Rules::preset("tenhou-sanma-east").unwrap(),
        Rules::preset("tenhou-4p-east").unwrap(),
    ];
    for rules in presets {
        let mut seen = 0usize;
        let mut riichi_seen = false;
        along_random_games(rules, 3, |obs| {
            check_v1_prefix_and_ranges(obs);
            seen += 1;
            if let Some(v) = &obs.riichi {
                riichi_seen |= v.declared.iter().any(Option::is_some);
            }
        });
        assert!(seen > 500, "{seen} observations");
        if rules.is_riichi() {
            assert!(riichi_seen, "random play never declared riichi");
        }
    }
}

#[test]
fn shape_and_versions() {
    assert_eq!(Encoding::V1.encoded_len(), 35 * 36);
    assert_eq!(Encoding::V2.encoded_len(), 35 * 48);
    assert_eq!(Encoding::V2.policy_actions(), 177);
    assert_eq!(Encoding::V1.policy_actions(), 141);
    for e in Encoding::ALL {
        assert_eq!(Encoding::from_version(e.version()), Some(e));
        assert!(e.global_used() <= e.token_features());
    }
    assert_eq!(Encoding::from_version(3), None);
    assert_eq!(gf2::INDICATORS + 1, Encoding::V2.global_used());
    assert_eq!(tf2::SAFE + 4, TOKEN_FEATURES_V2);
    let sanma = Rules::sanma();
    let tenhou = Rules::tenhou_sanma();
    assert_eq!(Encoding::for_rules(&sanma), Encoding::V1);
    assert_eq!(Encoding::for_rules(&tenhou), Encoding::V2);
    assert!(!Encoding::V1.fits(&tenhou) && Encoding::V2.fits(&sanma));
    let obs = Game::new(tenhou, 1).unwrap().observation(0).unwrap();
    let mut short = vec![0f32; ENCODED_LEN];
    assert_eq!(
        Encoding::V2.encode(&obs, &mut short),
        Err(WrongLength {
            expected: ENCODED_LEN_V2,
            got: ENCODED_LEN
        })
    );
}

#[test]
fn riichi_dora_red_fives_and_safety_read_back() {
    // Seat 0 deals with a red 5p; the indicator 1m makes 9m the sanma dora.
    let mut g = Game::from_riichi_setup(
        Rules::tenhou_sanma(),
        &RiichiSetup {
            hands: &[
                "123p406p789p45s7z7z",
                "1m2468p2468s1357z",
                "9m13579p3579s246z",
            ],
            live: "6z9s1z2z",
            dora: "1m",
            table: Table {
                honba: 2,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    check_invariants(&g).unwrap();
    let e = v2(&g.observation(0).unwrap());
    assert_eq!(at(&e, t("9m").index(), tf2::DORA), 0.25);
    assert_eq!(at(&e, t("1m").index(), tf2::INDICATOR), 0.25);
    assert_eq!(at(&e, t("5p").index(), tf2::RED_HELD), 1.0);
    assert_eq!(at(&e, t("5p").index(), tf2::RED_UNSEEN), 0.0);
    assert_eq!(at(&e, t("5s").index(), tf2::RED_HELD), 0.0);
    assert_eq!(at(&e, t("5s").index(), tf2::RED_UNSEEN), 1.0);
    assert_eq!(
        at(&e, t("5m").index(), tf2::RED_UNSEEN),
        0.0,
        "no 5m in sanma"
    );
    assert_eq!(at(&e, GLOBAL_TOKEN, gf2::RIICHI_RULES), 1.0);
    assert_eq!(at(&e, GLOBAL_TOKEN, gf2::HONBA), 0.25);
    assert_eq!(at(&e, GLOBAL_TOKEN, gf2::ROUND_WIND), 1.0);
    assert_eq!(
        at(&e, GLOBAL_TOKEN, gf2::DORA_HELD),
        1.0 / 8.0,
        "the red five"
    );
    // Seat 0 declares riichi with the 6z it drew; seat 1 then sees it as relative
    // seat 2 (the seat before it), and after seat 1 discards, that tile is safe.
    g.apply(0, Action::Riichi(t("6z"))).unwrap();
    while g.phase() == Phase::Claim {
        for s in g.seats_to_act() {
            g.apply(s, Action::Pass).unwrap();
        }
    }
    let e1 = v2(&g.observation(1).unwrap());
    assert_eq!(at(&e1, t("6z").index(), tf2::RIICHI_TILE + 2), 1.0);
    assert_eq!(at(&e1, GLOBAL_TOKEN, gf2::IN_RIICHI + 2), 1.0);
    assert_eq!(at(&e1, GLOBAL_TOKEN, gf2::STICKS), 0.25);
    let drawn = g.drawn().unwrap();
    g.apply(1, Action::Discard(drawn)).unwrap();
    while g.phase() == Phase::Claim {
        for s in g.seats_to_act() {
            g.apply(s, Action::Pass).unwrap();
        }
    }
    let e2 = v2(&g.observation(2).unwrap());
    // For seat 2, seat 0 is relative seat 1; seat 1's discard came after the riichi.
    assert_eq!(at(&e2, drawn.index(), tf2::SAFE + 1), 1.0);
    assert_eq!(at(&e2, t("6z").index(), tf2::SAFE + 1), 1.0);
    let unsafe_tiles = (0..NUM_TILE_TYPES)
        .filter(|&k| at(&e2, k, tf2::SAFE + 1) == 0.0)
        .count();
    assert!(unsafe_tiles > 20, "only the discards are safe");
    // Points: seat 0 paid its stick (−1 000 of 35 000).
    let p = at(&e2, GLOBAL_TOKEN, gf2::POINTS + 1);
    assert!((p + 1000.0 / 35000.0).abs() < 1e-6, "{p}");
    assert_eq!(at(&e2, GLOBAL_TOKEN, gf::SCORES + 1), -1.0, "v1 saturates");
}

#[test]
fn kita_counts_for_its_seat() {
    let mut g = Game::from_riichi_setup(
        Rules::tenhou_sanma(),
        &RiichiSetup {
            hands: &[
                "123p456p789p112s4z",
                "1m2468p2468s1357z",
                "9m13579p3579s246z",
            ],
            live: "3s",
            rinshan: "4s",
            dora: "3z",
            ..Default::default()
        },
    )
    .unwrap();
    g.apply(0, Action::Kita).unwrap();
    let e0 = v2(&g.observation(0).unwrap());
    assert_eq!(at(&e0, GLOBAL_TOKEN, gf2::KITA), 0.25);
    // The 3z (west) indicator makes north the dora: the kita is worth 1 + 1.
    assert_eq!(at(&e0, GLOBAL_TOKEN, gf2::DORA_HELD), 2.0 / 8.0);
    let e1 = v2(&g.observation(1).unwrap());
    assert_eq!(at(&e1, GLOBAL_TOKEN, gf2::KITA + 2), 0.25);
}

/// `encode_with_scores` given the observer's value scores writes exactly what `encode`
/// writes, in both versions, whether or not the observer has a hand to discard from;
/// scores given where none are read (no hand to discard from) change nothing.
#[test]
fn encoding_with_precomputed_value_scores_equals_encoding() {
    use engine::efficiency::value_scores;
    use engine::shanten::Forms;
    let mut compared = 0u32;
    let mut with_scores = 0u32;
    for (rules, encoding) in [
        (Rules::tenhou_sanma(), Encoding::V2),
        (Rules::tenhou_4p(), Encoding::V2),
        (Rules::sanma(), Encoding::V1),
    ] {
        along_random_games(rules, 3, |obs| {
            let melds = obs.melds[obs.seat as usize].len() as u8;
            let forms = Forms::from_rules(&obs.rules);
            let scores = value_scores(&obs.hand, melds, obs.rules.tile_set, forms, &obs.unseen);
            let mut plain = vec![f32::NAN; encoding.encoded_len()];
            let mut reused = vec![f32::NAN; encoding.encoded_len()];
            encoding.encode(obs, &mut plain).unwrap();
            encoding
                .encode_with_scores(obs, Some(&scores), &mut reused)
                .unwrap();
            assert_eq!(
                plain.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                reused.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
            compared += 1;
            with_scores += u32::from(scores.held != 0 && obs.hand.iter().sum::<u8>() % 3 == 2);
        });
    }
    assert!(
        compared > 1000 && with_scores > 100,
        "{compared} {with_scores}"
    );
}
