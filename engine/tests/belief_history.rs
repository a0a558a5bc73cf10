//! Evidence 5 of the belief (the opponent's discards before its current hand, read by
//! walking the hand back): the weights stay normalised, deterministic and leak-free
//! with it, and it favours the true hands of the players it models.

use engine::belief::{
    evidence_log_likelihood, weigh_hypotheses, Evidence, Hypothesis, OpponentModel, ShantenPrior,
};
use engine::bots::{Agent, EfficiencyBot, RandomBot};
use engine::game::Game;
use engine::rng::Rng;
use engine::rules::Rules;

fn rules(name: &str) -> Rules {
    let mut r = Rules::preset(name).unwrap();
    r.hands_per_game = 1;
    r
}

/// The model with the history evidence alone.
fn history_only() -> OpponentModel {
    OpponentModel {
        evidence: Evidence {
            history: true,
            ..Evidence::NONE
        },
        ..OpponentModel::new(ShantenPrior::empty())
    }
}

/// Calls `at` with the game and the deciding seat at every decision of `hands` hands
/// played by `bots(h)`.
fn each_decision<A: Agent>(
    rules: Rules,
    hands: u64,
    bots: impl Fn(u64) -> Vec<A>,
    mut at: impl FnMut(&Game, u8),
) {
    for h in 0..hands {
        let mut game = Game::new(rules, Rng::derive_seed(31, h)).unwrap();
        let mut agents = bots(h);
        while game.last_result().is_none() {
            let seat = game.seats_to_act()[0];
            at(&game, seat);
            let obs = game.observation(seat).unwrap();
            let a = agents[seat as usize].act(&obs, &game.legal_actions(seat));
            game.apply(seat, a).unwrap();
        }
    }
}

#[test]
fn weights_with_every_evidence_are_normalised_deterministic_and_leak_free() {
    for name in ["sanma", "four-player", "tenhou-sanma"] {
        let rules = rules(name);
        let model = OpponentModel {
            evidence: Evidence::ALL,
            ..OpponentModel::new(ShantenPrior::empty())
        };
        let mut rng = Rng::new(3);
        let mut checked = 0;
        // Random bots that call often: pons and chis before discards are walked back.
        let callers = |h: u64| -> Vec<RandomBot> {
            (0..4)
                .map(|s| {
                    let mut b = RandomBot::new(Rng::derive_seed(h, s));
                    b.call_probability = 0.5;
                    b
                })
                .collect()
        };
        each_decision(rules, 12, callers, |game, seat| {
            if rng.below(4) != 0 {
                return;
            }
            let Ok(twin) = game.determinize(seat, &mut rng) else {
                return;
            };
            let obs = game.observation(seat).unwrap();
            let twin_obs = twin.observation(seat).unwrap();
            let (mut hyp, mut w) = (vec![Hypothesis::default(); 48], vec![0.0; 48]);
            let (mut hyp2, mut w2) = (hyp.clone(), w.clone());
            let s = weigh_hypotheses(&obs, &model, &mut Rng::new(9), &mut hyp, &mut w).unwrap();
            weigh_hypotheses(&twin_obs, &model, &mut Rng::new(9), &mut hyp2, &mut w2).unwrap();
            assert_eq!(hyp, hyp2, "{name}: the hidden tiles leaked");
            assert_eq!(w, w2, "{name}: the hidden tiles leaked");
            assert!(
                w.iter().all(|x| x.is_finite() && *x >= 0.0),
                "{name}: {w:?}"
            );
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{name}");
            assert!(s.effective >= 1.0 - 1e-9 && s.effective <= 48.0 + 1e-9);
            checked += 1;
        });
        assert!(checked > 40, "{name}: {checked}");
    }
}

/// On efficiency self-play, the true hand of an opponent explains its earlier
/// discards better than the proposals do: the history evidence is informative about
/// the player it models.
#[test]
fn the_history_favours_the_true_hands_of_efficiency_players() {
    let rules = rules("sanma");
    let model = history_only();
    let base = OpponentModel {
        evidence: Evidence::NONE,
        ..model.clone()
    };
    let (mut truth_ll, mut proposal_ll, mut n) = (0.0, 0.0, 0usize);
    let mut rng = Rng::new(12);
    each_decision(
        rules,
        60,
        |_| vec![EfficiencyBot; 3],
        |game, seat| {
            let obs = game.observation(seat).unwrap();
            if rng.below(4) != 0 || obs.discards[seat as usize].len() < 6 {
                return;
            }
            let (mut hyp, mut w) = (vec![Hypothesis::default(); 16], vec![0.0; 16]);
            weigh_hypotheses(&obs, &base, &mut rng, &mut hyp, &mut w).unwrap();
            for o in (0..3u8).filter(|&o| o != seat) {
                if obs.discards[o as usize].len() < 4 {
                    continue;
                }
                let truth = evidence_log_likelihood(&obs, &model, o, game.hand(o).unwrap());
                assert!(truth.is_finite(), "the true hand was found impossible");
                truth_ll += truth;
                // An impossible proposal (a walk needing a fifth copy) counts as 20 nats.
                for h in &hyp {
                    let ll = evidence_log_likelihood(&obs, &model, o, &h.hands[o as usize]);
                    proposal_ll += ll.max(-20.0) / hyp.len() as f64;
                }
                n += 1;
            }
        },
    );
    assert!(n > 200, "{n}");
    let (truth, proposals) = (truth_ll / n as f64, proposal_ll / n as f64);
    assert!(
        truth > proposals + 0.1,
        "mean log-likelihood of the truth {truth:.3} vs the proposals {proposals:.3}"
    );
}
