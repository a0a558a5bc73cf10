//! Determinization (`Game::determinize`, `Game::from_observation`) and the belief
//! weights: invariants, identical observations, playability, uniformity, no leak.

mod common;

use engine::belief::{weigh_hypotheses, Evidence, Hypothesis, OpponentModel, ShantenPrior};
use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
use engine::game::{check_invariants, Action, Game, Phase, RuleError};
use engine::rng::Rng;
use engine::rules::Rules;

fn presets() -> [(&'static str, Rules); 2] {
    let mut sanma = Rules::preset("sanma").unwrap();
    sanma.hands_per_game = 1;
    let mut four = Rules::preset("four-player").unwrap();
    four.hands_per_game = 1;
    [("sanma", sanma), ("four-player", four)]
}

/// Four random bots for hand `h` that call often (so melds, kans and claim windows
/// occur).
fn callers(h: u64) -> Vec<RandomBot> {
    (0..4)
        .map(|s| {
            let mut b = RandomBot::new(Rng::derive_seed(h, s));
            b.call_probability = 0.5;
            b
        })
        .collect()
}

/// Calls `at` at every decision of `hands` hands of random play (random bots that
/// call often, so melds, kans and claim windows occur), for the seat to decide.
fn each_decision(rules: Rules, hands: u64, seed: u64, mut at: impl FnMut(&Game, u8)) {
    for h in 0..hands {
        let mut game = Game::new(rules, Rng::derive_seed(seed, h)).unwrap();
        let mut bots = callers(h);
        while game.last_result().is_none() {
            let seat = game.seats_to_act()[0];
            at(&game, seat);
            let obs = game.observation(seat).unwrap();
            let legal = game.legal_actions(seat);
            let a = bots[seat as usize].act(&obs, &legal);
            game.apply(seat, a).unwrap();
        }
    }
}

#[test]
fn determinized_games_keep_invariants_and_the_observation_and_play_out() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(7);
        let mut count = 0u32;
        let mut claims = 0u32;
        each_decision(rules, 400, 11, |game, seat| {
            if rng.below(3) != 0 {
                return;
            }
            let det = game.determinize(seat, &mut rng).unwrap();
            check_invariants(&det).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                det.observation(seat).unwrap(),
                game.observation(seat).unwrap(),
                "{name}: observation changed"
            );
            assert_eq!(det.legal_actions(seat), game.legal_actions(seat));
            claims += (det.phase() == Phase::Claim) as u32;
            // Playable to the end by any agent, with invariants after every action.
            let mut g = det.clone();
            let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(s as u64)).collect();
            while g.last_result().is_none() {
                let s = g.seats_to_act()[0];
                let obs = g.observation(s).unwrap();
                let a = bots[s as usize].act(&obs, &g.legal_actions(s));
                g.apply(s, a).unwrap();
                check_invariants(&g).unwrap();
            }
            let mut g = det;
            let mut effs = [EfficiencyBot; 4];
            play_hand(&mut g, &mut effs).unwrap();
            count += 1;
        });
        assert!(count >= 5_000, "{name}: only {count} determinizations");
        assert!(claims >= 200, "{name}: only {claims} in claim windows");
    }
}

#[test]
fn twin_games_that_differ_only_in_hidden_tiles_determinize_identically() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(3);
        let mut checked = 0;
        each_decision(rules, 60, 5, |game, seat| {
            // A twin: the same public state with other hidden tiles (a determinization
            // of the game itself, which is one such world).
            let twin = game.determinize(seat, &mut rng).unwrap();
            assert_eq!(twin.observation(seat), game.observation(seat));
            let seed = rng.next_u64();
            let a = game.determinize(seat, &mut Rng::new(seed)).unwrap();
            let b = twin.determinize(seat, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, b, "{name}: hidden tiles leaked into the determinization");
            checked += 1;
        });
        assert!(checked > 500);
    }
}

/// The critical value of the chi-square distribution with 3 degrees of freedom at
/// p = 0.001 (statistic above it ⇔ p < 0.001).
const CHI2_3DF_P001: f64 = 16.266;

#[test]
fn a_given_unseen_tile_lands_uniformly_over_the_hidden_places() {
    // Sanma, seat 0 on its first turn: every unseen tile is equally likely in any of
    // the 13 + 13 concealed slots of seats 1 and 2, the live wall and the dead wall.
    let rules = presets()[0].1;
    let game = Game::new(rules, 99).unwrap();
    let obs = game.observation(0).unwrap();
    let t = engine::tile::Tile::all()
        .find(|t| obs.unseen[t.index()] == 4)
        .unwrap();
    let slots = [
        13.0,
        13.0,
        game.live_wall_remaining() as f64,
        rules.dead_wall as f64,
    ];
    let total: f64 = slots.iter().sum();
    let mut counts = [0f64; 4];
    let mut rng = Rng::new(12345);
    let trials = 20_000;
    for _ in 0..trials {
        let det = game.determinize(0, &mut rng).unwrap();
        counts[0] += det.hand(1).unwrap()[t.index()] as f64;
        counts[1] += det.hand(2).unwrap()[t.index()] as f64;
        counts[2] += det.live_wall().iter().filter(|&&x| x == t).count() as f64;
        counts[3] += det.dead_wall().iter().filter(|&&x| x == t).count() as f64;
    }
    let copies = 4.0 * trials as f64;
    let chi2: f64 = counts
        .iter()
        .zip(slots)
        .map(|(&c, s)| {
            let e = copies * s / total;
            (c - e) * (c - e) / e
        })
        .sum();
    assert!(
        chi2 < CHI2_3DF_P001,
        "chi-square {chi2:.2} (counts {counts:?})"
    );
    // And the order within the live wall is uniform too: the first draw.
    let mut first = 0f64;
    for _ in 0..trials {
        let det = game.determinize(0, &mut rng).unwrap();
        first += (det.live_wall()[0] == t) as u8 as f64;
    }
    let p = 4.0 / total;
    let e = trials as f64 * p;
    let z = (first - e) / (trials as f64 * p * (1.0 - p)).sqrt();
    assert!(z.abs() < 3.29, "first draw z = {z:.2}");
}

#[test]
fn seats_without_a_decision_and_finished_hands_are_refused() {
    let rules = presets()[0].1;
    let mut game = Game::new(rules, 1).unwrap();
    let mut rng = Rng::new(1);
    assert_eq!(game.determinize(1, &mut rng), Err(RuleError::NotYourTurn));
    assert_eq!(game.determinize(9, &mut rng), Err(RuleError::BadSeat));
    let mut bots = [EfficiencyBot; 3];
    play_hand(&mut game, &mut bots).unwrap();
    assert!(game.determinize(0, &mut rng).is_err());
}

#[test]
fn inconsistent_observations_are_refused() {
    let rules = presets()[1].1;
    let game = Game::new(rules, 4).unwrap();
    let obs = game.observation(0).unwrap();
    let mut rng = Rng::new(1);
    let mut bad = obs.clone();
    bad.unseen[0] += 1;
    assert_eq!(
        Game::from_observation(&bad, None, &mut rng),
        Err(RuleError::BadSetup)
    );
    let mut bad = obs.clone();
    bad.live_wall = 200;
    assert_eq!(
        Game::from_observation(&bad, None, &mut rng),
        Err(RuleError::BadSetup)
    );
    let mut bad = obs.clone();
    bad.kans = 1;
    assert_eq!(
        Game::from_observation(&bad, None, &mut rng),
        Err(RuleError::BadSetup)
    );
    let mut bad = obs.clone();
    bad.hand_number = 50;
    assert!(Game::from_observation(&bad, None, &mut rng).is_err());
    // Given opponent hands must fit.
    let mut hands = [[0u8; 34]; 4];
    hands[1][0] = 13;
    assert_eq!(
        Game::from_observation(&obs, Some(&hands), &mut rng),
        Err(RuleError::BadSetup)
    );
    // The true hands fit and come back as given.
    let mut truth = [[0u8; 34]; 4];
    for s in 1..4u8 {
        truth[s as usize] = *game.hand(s).unwrap();
    }
    let det = Game::from_observation(&obs, Some(&truth), &mut rng).unwrap();
    for s in 1..4u8 {
        assert_eq!(det.hand(s), game.hand(s));
    }
}

#[test]
fn belief_weights_are_normalised_deterministic_and_leak_free() {
    let rules = presets()[0].1;
    let prior = ShantenPrior::from_self_play(&rules, 300, 1).unwrap();
    let model = OpponentModel::new(prior);
    let mut uniform = model.clone();
    uniform.evidence = Evidence::NONE;
    let mut rng = Rng::new(8);
    let mut checked = 0;
    each_decision(rules, 20, 21, |game, seat| {
        let obs = game.observation(seat).unwrap();
        let twin = game.determinize(seat, &mut rng).unwrap();
        let mut hyp = vec![Hypothesis::default(); 64];
        let mut w = vec![0.0; 64];
        let mut hyp2 = hyp.clone();
        let mut w2 = w.clone();
        let s = weigh_hypotheses(&obs, &model, &mut Rng::new(5), &mut hyp, &mut w).unwrap();
        let twin_obs = twin.observation(seat).unwrap();
        weigh_hypotheses(&twin_obs, &model, &mut Rng::new(5), &mut hyp2, &mut w2).unwrap();
        assert_eq!(hyp, hyp2);
        assert_eq!(w, w2);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(s.effective >= 1.0 - 1e-9 && s.effective <= 64.0 + 1e-9);
        // Every proposal fits the position.
        for h in &hyp {
            Game::from_observation(&obs, Some(&h.hands), &mut rng).unwrap();
        }
        let u = weigh_hypotheses(&obs, &uniform, &mut Rng::new(5), &mut hyp, &mut w).unwrap();
        assert!((u.effective - 64.0).abs() < 1e-6);
        checked += 1;
    });
    assert!(checked > 100);
    let obs = Game::new(rules, 1).unwrap().observation(0).unwrap();
    assert!(weigh_hypotheses(&obs, &model, &mut rng, &mut [], &mut []).is_err());
}

#[test]
fn the_shanten_prior_sees_hands_getting_ready() {
    let rules = presets()[0].1;
    let prior = ShantenPrior::from_self_play(&rules, 500, 2).unwrap();
    // Early hands are far from ready, late ones often ready.
    assert!(prior.probability(0, 1, 0) < 0.05);
    assert!(
        prior.probability(0, 12, 0) > 0.3,
        "{}",
        prior.probability(0, 12, 0)
    );
    assert!(prior.total(0, 5) > 500);
    let _ = Action::Pass;
}

#[test]
fn built_proposals_fit_the_position() {
    let rules = presets()[0].1;
    let model = OpponentModel::new(ShantenPrior::empty());
    let mut rng = Rng::new(8);
    each_decision(rules, 30, 21, |game, seat| {
        let obs = game.observation(seat).unwrap();
        let mut hyp = vec![Hypothesis::default(); 16];
        let mut w = vec![0.0; 16];
        weigh_hypotheses(&obs, &model, &mut rng, &mut hyp, &mut w).unwrap();
        for h in &hyp {
            let r = Game::from_observation(&obs, Some(&h.hands), &mut rng);
            assert!(r.is_ok(), "{r:?} {:?} unseen {:?}", h.hands, obs.unseen);
        }
    });
}

/// `Discard::tsumogiri` marks exactly the discards of the type just drawn; discards
/// after a pon or chi (no draw) never carry it.
#[test]
fn tsumogiri_marks_discards_of_the_drawn_tile() {
    for (name, rules) in presets() {
        let (mut marked, mut unmarked) = (0u32, 0u32);
        for h in 0..200u64 {
            let mut game = Game::new(rules, Rng::derive_seed(5, h)).unwrap();
            let mut bots = callers(h);
            while game.last_result().is_none() {
                let seat = game.seats_to_act()[0];
                let obs = game.observation(seat).unwrap();
                let legal = game.legal_actions(seat);
                let a = bots[seat as usize].act(&obs, &legal);
                game.apply(seat, a).unwrap();
                if let Action::Discard(t) = a {
                    let after = game.observation(seat).unwrap();
                    let d = *after.discards[seat as usize].last().unwrap();
                    assert_eq!(d.tile, t, "{name}");
                    assert_eq!(d.tsumogiri, obs.drawn == Some(t), "{name}: {d:?}");
                    if d.tsumogiri {
                        marked += 1;
                    } else {
                        unmarked += 1;
                    }
                }
            }
        }
        assert!(
            marked > 100 && unmarked > 100,
            "{name}: {marked} / {unmarked}"
        );
    }
}

/// `legal_actions_of` from the observation alone equals the game's legal actions at
/// every decision; with the live wall off by some tiles (a typed position whose
/// discards do not account for every tile) it still does while the size stays in its
/// legality class, and refuses a size in another class (an empty wall for a live one).
#[test]
fn legal_actions_of_observations_and_typed_live_walls() {
    use engine::game::legal_actions_of;
    for (name, rules) in presets() {
        let (mut checked, mut shifted) = (0usize, 0usize);
        each_decision(rules, 30, 41, |game, seat| {
            let obs = game.observation(seat).unwrap();
            let legal = game.legal_actions(seat);
            assert_eq!(legal_actions_of(&obs), Ok(legal.clone()), "{name}: {obs:?}");
            checked += 1;
            if obs.live_wall > 2 {
                let mut typed = obs.clone();
                typed.live_wall += 1;
                assert_eq!(legal_actions_of(&typed), Ok(legal.clone()), "{name}");
                typed.live_wall = obs.live_wall - 1;
                assert_eq!(legal_actions_of(&typed), Ok(legal), "{name}");
                typed.live_wall = 0;
                assert_eq!(legal_actions_of(&typed), Err(RuleError::BadSetup), "{name}");
                shifted += 1;
            }
        });
        assert!(
            checked > 500 && shifted > 300,
            "{name}: {checked} {shifted}"
        );
    }
}
