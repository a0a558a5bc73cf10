//! Baseline bots: they finish hands, keep the invariants, and the efficiency bot beats
//! the random bot by a wide margin.

use engine::bots::{play_hand, Agent, EfficiencyBot, HandSummary, RandomBot};
use engine::game::{check_invariants, Action, Game, LegalActions, Observation};
use engine::rng::Rng;
use engine::Rules;

enum Bot {
    Random(RandomBot),
    Efficiency(EfficiencyBot),
}

impl Agent for Bot {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        match self {
            Bot::Random(b) => b.act(obs, legal),
            Bot::Efficiency(b) => b.act(obs, legal),
        }
    }
}

fn one_hand(rules: Rules, seed: u64, efficient: &[bool]) -> HandSummary {
    let mut rules = rules;
    rules.hands_per_game = 1;
    let mut game = Game::new(rules, seed).unwrap();
    let mut agents: Vec<Bot> = efficient
        .iter()
        .enumerate()
        .map(|(s, &e)| {
            if e {
                Bot::Efficiency(EfficiencyBot)
            } else {
                Bot::Random(RandomBot::new(Rng::derive_seed(seed, s as u64)))
            }
        })
        .collect();
    let summary = play_hand(&mut game, &mut agents).unwrap();
    if let Err(e) = check_invariants(&game) {
        panic!(
            "seed {seed} seats {efficient:?}: {e:?} actions {:?}",
            game.actions()
        );
    }
    assert_eq!(summary.result.deltas.iter().sum::<i32>(), 0);
    summary
}

#[test]
fn efficiency_bot_beats_random_bots() {
    for rules in [Rules::sanma(), Rules::four_player()] {
        let n = rules.players as usize;
        let hands = 300u64;
        let (mut eff_wins, mut rnd_wins, mut eff_points) = (0u32, 0u32, 0i64);
        for h in 0..hands {
            // Duplicate: the same wall with the efficiency bot in every seat in turn.
            for eff_seat in 0..n {
                let seats: Vec<bool> = (0..n).map(|s| s == eff_seat).collect();
                let sum = one_hand(rules, h, &seats);
                for (s, out) in sum.seats.iter().take(n).enumerate() {
                    if s == eff_seat {
                        eff_wins += out.won as u32;
                        eff_points += out.delta as i64;
                    } else {
                        rnd_wins += out.won as u32;
                    }
                }
            }
        }
        let total = (hands * n as u64) as f64;
        let eff_rate = eff_wins as f64 / total;
        let rnd_rate = rnd_wins as f64 / (total * (n - 1) as f64);
        assert!(
            eff_rate > 0.5,
            "{}: efficiency win rate {eff_rate}",
            rules.players
        );
        assert!(
            eff_rate > 5.0 * rnd_rate,
            "{}: {eff_rate} vs {rnd_rate}",
            rules.players
        );
        assert!(eff_points > 0);
    }
}

#[test]
fn efficiency_bot_against_itself_is_even() {
    let rules = Rules::sanma();
    let mut wins = [0u32; 3];
    for h in 0..600 {
        let s = one_hand(rules, 10_000 + h, &[true, true, true]);
        for (w, o) in wins.iter_mut().zip(s.seats) {
            *w += o.won as u32;
        }
    }
    let total: u32 = wins.iter().sum();
    assert!(total > 300, "{wins:?}");
    for w in wins {
        // Each seat gets about a third of the wins (dealer advantage included).
        let share = w as f64 / total as f64;
        assert!((0.2..0.47).contains(&share), "{wins:?}");
    }
}

#[test]
fn random_bot_is_deterministic_for_a_seed() {
    let a = one_hand(Rules::sanma(), 5, &[false, false, false]);
    let b = one_hand(Rules::sanma(), 5, &[false, false, false]);
    assert_eq!(a, b);
}

/// Whole riichi games with efficiency and random bots mixed per seat: every hand ends,
/// the invariants hold after it, the efficiency bot declares riichi and sets norths
/// aside, and every win has a yaku.
#[test]
fn bots_play_riichi_games() {
    use engine::game::Phase;
    for rules in [Rules::tenhou_sanma(), Rules::tenhou_4p()] {
        let n = rules.players as usize;
        let (mut riichi, mut kita, mut wins, mut hands) = (0, 0, 0, 0);
        for seed in 0..40u64 {
            let mut game = Game::new(rules, seed).unwrap();
            loop {
                let mut boxed: Vec<Box<dyn Agent>> = (0..n)
                    .map(|s| -> Box<dyn Agent> {
                        if (s as u64 + seed) % 2 == 0 {
                            Box::new(EfficiencyBot)
                        } else {
                            Box::new(RandomBot::new(seed * 7 + s as u64))
                        }
                    })
                    .collect();
                let mut agents: Vec<&mut dyn Agent> = boxed.iter_mut().map(|b| &mut **b).collect();
                let summary = play_hand(&mut game, &mut agents).unwrap();
                check_invariants(&game).unwrap();
                hands += 1;
                riichi += game
                    .actions()
                    .iter()
                    .filter(|(_, a)| matches!(a, Action::Riichi(_)))
                    .count();
                kita += game
                    .actions()
                    .iter()
                    .filter(|(_, a)| *a == Action::Kita)
                    .count();
                let result = game.riichi_result().unwrap();
                assert_eq!(result.deltas, summary.result.deltas);
                for w in &result.wins {
                    assert!(!w.score.yaku.is_empty());
                    assert!(w.score.han > 0 || w.score.yakuman > 0);
                    wins += 1;
                }
                if game.phase() == Phase::GameOver {
                    break;
                }
                game.start_next_hand().unwrap();
            }
            let total: i32 = game.scores().iter().sum();
            assert_eq!(total, n as i32 * rules.starting_points);
        }
        assert!(
            riichi > 0 && wins > 0 && hands > 40,
            "{riichi} {wins} {hands}"
        );
        assert_eq!(kita > 0, rules.players == 3, "kita only in sanma: {kita}");
    }
}
