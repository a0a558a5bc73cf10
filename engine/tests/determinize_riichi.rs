//! Determinization under riichi rules (`tenhou-sanma`, `tenhou-4p`): invariants,
//! identical observations, playability, riichi seats tenpai, uniformity of the hidden
//! tiles and red fives, no leak.

use std::time::Instant;

use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
use engine::game::{check_invariants, Action, Game, LegalActions, MeldKind, Observation, Phase};
use engine::rng::Rng;
use engine::rules::Rules;
use engine::shanten::{min_shanten, Forms};
use engine::tile::Tile;

fn presets() -> [(&'static str, Rules); 2] {
    let mut sanma = Rules::preset("tenhou-sanma").unwrap();
    sanma.hands_per_game = 1;
    let mut four = Rules::preset("tenhou-4p").unwrap();
    four.hands_per_game = 1;
    [("tenhou-sanma", sanma), ("tenhou-4p", four)]
}

/// A random bot that calls and declares riichi often, or the efficiency bot.
enum Player {
    Random(RandomBot),
    Efficient(EfficiencyBot),
}

impl Agent for Player {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        match self {
            Player::Random(b) => b.act(obs, legal),
            Player::Efficient(b) => b.act(obs, legal),
        }
    }
}

/// Seats 0 and 2 random callers, seats 1 and 3 the efficiency bot (which declares
/// riichi when ready), changed round in every other hand.
fn players(h: u64) -> Vec<Player> {
    (0..4)
        .map(|s| {
            if (s + h) % 2 == 0 {
                let mut b = RandomBot::new(Rng::derive_seed(h, s));
                b.call_probability = 0.5;
                Player::Random(b)
            } else {
                Player::Efficient(EfficiencyBot)
            }
        })
        .collect()
}

/// Calls `at` at every decision of `hands` hands of mixed play, for the seat to decide.
fn each_decision(rules: Rules, hands: u64, seed: u64, mut at: impl FnMut(&Game, u8)) {
    for h in 0..hands {
        let mut game = Game::new(rules, Rng::derive_seed(seed, h)).unwrap();
        let mut bots = players(h);
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

/// Every seat in riichi other than `seat` holds a tenpai hand in `g`.
fn riichi_seats_are_tenpai(g: &Game, seat: u8) -> usize {
    let obs = g.observation(seat).unwrap();
    let view = obs.riichi.as_ref().unwrap();
    let forms = Forms::from_rules(g.rules());
    let mut n = 0;
    for s in 0..g.rules().players {
        if s == seat || view.declared[s as usize].is_none() {
            continue;
        }
        let melds = g.melds(s).len() as u8;
        let sh = min_shanten(g.hand(s).unwrap(), melds, g.rules().tile_set, forms);
        assert_eq!(sh, 0, "riichi seat {s} not tenpai: {:?}", g.hand(s));
        n += 1;
    }
    n
}

#[test]
fn riichi_determinizations_keep_invariants_and_the_observation_and_play_out() {
    let mut total = 0u32;
    for (name, rules) in presets() {
        let mut rng = Rng::new(7);
        let (mut count, mut claims, mut riichi, mut kita, mut kans) = (0u32, 0u32, 0, 0u32, 0u32);
        let (mut secs, mut riichi_secs, mut riichi_count) = (0.0, 0.0, 0u32);
        each_decision(rules, 500, 11, |game, seat| {
            if rng.below(2) != 0 {
                return;
            }
            let start = Instant::now();
            let det = game
                .determinize(seat, &mut rng)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            let took = start.elapsed().as_secs_f64();
            secs += took;
            let opponents_in_riichi = game
                .observation(seat)
                .unwrap()
                .riichi
                .unwrap()
                .declared
                .iter()
                .enumerate()
                .any(|(s, d)| d.is_some() && s != seat as usize);
            if opponents_in_riichi {
                riichi_secs += took;
                riichi_count += 1;
            }
            check_invariants(&det).unwrap_or_else(|e| panic!("{name}: {e}"));
            let obs = game.observation(seat).unwrap();
            assert_eq!(det.observation(seat).unwrap(), obs, "{name}: observation");
            assert_eq!(det.legal_actions(seat), game.legal_actions(seat), "{name}");
            riichi += riichi_seats_are_tenpai(&det, seat);
            let view = obs.riichi.as_ref().unwrap();
            kita += view.kita.iter().any(|&k| k > 0) as u32;
            kans += (obs.kans > 0) as u32;
            claims += (det.phase() == Phase::Claim) as u32;
            let mut g = det;
            let mut effs = [EfficiencyBot; 4];
            play_hand(&mut g, &mut effs).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            check_invariants(&g).unwrap();
            count += 1;
        });
        eprintln!(
            "{name}: {count} determinizations ({:.0}/s; {riichi_count} with an opponent in \
             riichi, {:.0}/s), {claims} in claim windows, {riichi} riichi seats, {kita} with \
             kita, {kans} with kans",
            count as f64 / secs,
            riichi_count as f64 / riichi_secs,
        );
        assert!(count >= 5_000, "{name}: only {count} determinizations");
        assert!(claims >= 200, "{name}: only {claims} in claim windows");
        assert!(riichi >= 300, "{name}: only {riichi} riichi seats");
        assert!(kans >= 50, "{name}: only {kans} with kans");
        total += count;
    }
    assert!(total >= 10_000);
}

#[test]
fn riichi_worlds_play_out_with_random_agents_keeping_invariants() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(17);
        let mut count = 0;
        each_decision(rules, 60, 23, |game, seat| {
            if rng.below(4) != 0 {
                return;
            }
            let mut g = game.determinize(seat, &mut rng).unwrap();
            let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(s as u64)).collect();
            while g.last_result().is_none() {
                let s = g.seats_to_act()[0];
                let obs = g.observation(s).unwrap();
                let a = bots[s as usize].act(&obs, &g.legal_actions(s));
                g.apply(s, a).unwrap();
                check_invariants(&g).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            count += 1;
        });
        assert!(count > 300, "{name}: {count}");
    }
}

#[test]
fn riichi_twins_that_differ_only_in_hidden_tiles_determinize_identically() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(3);
        let mut checked = 0;
        each_decision(rules, 60, 5, |game, seat| {
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
/// p = 0.001.
const CHI2_3DF_P001: f64 = 16.266;

fn chi2(counts: &[f64; 4], expected: &[f64; 4]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&c, &e)| (c - e) * (c - e) / e)
        .sum()
}

/// The hidden slots of seat 0 on its first turn in tenhou-sanma: seats 1 and 2, the
/// live wall, the dead wall less the revealed indicator.
fn first_turn_slots(game: &Game) -> [f64; 4] {
    [13.0, 13.0, game.live_wall_remaining() as f64, 13.0]
}

/// Where the copies of `pick` land: seats 1, 2, the live wall, the hidden dead wall.
fn landing(det: &Game, pick: impl Fn(&Game, Place) -> f64) -> [f64; 4] {
    [
        pick(det, Place::Hand(1)),
        pick(det, Place::Hand(2)),
        pick(det, Place::Live),
        pick(det, Place::Dead),
    ]
}

#[derive(Clone, Copy)]
enum Place {
    Hand(u8),
    Live,
    Dead,
}

#[test]
fn an_unseen_tile_and_an_unseen_red_five_land_uniformly() {
    let rules = presets()[0].1;
    // A deal where seat 0 holds no 5p and the indicator is not a 5p: the red 5p is
    // then equally likely on any hidden slot.
    let five = Tile::all().find(|t| t.to_string() == "5p").unwrap();
    let game = (0..1000u64)
        .map(|s| Game::new(rules, s).unwrap())
        .find(|g| g.hand(0).unwrap()[five.index()] == 0 && g.dora_indicators()[0] != five)
        .unwrap();
    let obs = game.observation(0).unwrap();
    let t = Tile::all()
        .find(|t| obs.unseen[t.index()] == 4 && *t != five)
        .unwrap();
    let slots = first_turn_slots(&game);
    let total: f64 = slots.iter().sum();
    let (mut tiles, mut reds) = ([0f64; 4], [0f64; 4]);
    let mut rng = Rng::new(12345);
    let trials = 20_000;
    for _ in 0..trials {
        let det = game.determinize(0, &mut rng).unwrap();
        let c = landing(&det, |g, p| match p {
            Place::Hand(s) => g.hand(s).unwrap()[t.index()] as f64,
            Place::Live => g.live_wall().iter().filter(|&&x| x == t).count() as f64,
            Place::Dead => g.dead_wall().iter().filter(|&&x| x == t).count() as f64,
        });
        let r = landing(&det, |g, p| match p {
            Place::Hand(s) => g.red_fives_in_hand(s)[1] as f64,
            Place::Live => (g.wall().len() - g.live_wall_remaining() as usize - 14
                ..g.wall().len() - 14)
                .filter(|&i| g.wall()[i] == five && g.is_red_position(i))
                .count() as f64,
            Place::Dead => (g.wall().len() - 14..g.wall().len())
                .filter(|&i| g.wall()[i] == five && g.is_red_position(i))
                .count() as f64,
        });
        for k in 0..4 {
            tiles[k] += c[k];
            reds[k] += r[k];
        }
    }
    let expect = |copies: f64| slots.map(|s| copies * s / total);
    let x = chi2(&tiles, &expect(4.0 * trials as f64));
    assert!(x < CHI2_3DF_P001, "tile chi-square {x:.2} ({tiles:?})");
    let x = chi2(&reds, &expect(trials as f64));
    assert!(x < CHI2_3DF_P001, "red 5p chi-square {x:.2} ({reds:?})");
}

#[test]
fn a_hidden_five_at_a_fixed_place_is_red_with_the_unseen_share() {
    // Seat 0 on its first turn in tenhou-4p: whenever the first live tile is a 5m, it
    // is the red one with probability (unseen red 5m) / (unseen 5m).
    let rules = presets()[1].1;
    let five = Tile::all().find(|t| t.to_string() == "5m").unwrap();
    let game = (0..1000u64)
        .map(|s| Game::new(rules, s).unwrap())
        .find(|g| g.hand(0).unwrap()[five.index()] == 0 && g.dora_indicators()[0] != five)
        .unwrap();
    let mut rng = Rng::new(99);
    let (mut fives, mut red) = (0f64, 0f64);
    while fives < 4_000.0 {
        let det = game.determinize(0, &mut rng).unwrap();
        let p = det.wall().len() - 14 - det.live_wall_remaining() as usize;
        if det.wall()[p] == five {
            fives += 1.0;
            red += det.is_red_position(p) as u8 as f64;
        }
    }
    // One red 5m among 4 unseen copies.
    let p = 0.25;
    let z = (red - fives * p) / (fives * p * (1.0 - p)).sqrt();
    assert!(z.abs() < 3.29, "red share z = {z:.2} ({red} of {fives})");
}

#[test]
fn revealed_indicators_stay_in_place() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(31);
        each_decision(rules, 40, 9, |game, seat| {
            let det = game.determinize(seat, &mut rng).unwrap();
            assert_eq!(det.dora_indicators(), game.dora_indicators(), "{name}");
            assert_eq!(det.dead_wall().len(), game.dead_wall().len());
            assert_eq!(det.live_wall_remaining(), game.live_wall_remaining());
        });
    }
}

#[test]
fn opponents_furiten_is_recomputed_exactly_from_their_true_hands() {
    // Given the opponents' true hands, the recomputed furiten of every seat (own
    // discards, winning tiles passed since the last discard and after riichi) is the
    // true game's, except after a robbable added kan (its time is not public).
    for (name, rules) in presets() {
        let mut rng = Rng::new(41);
        let (mut checked, mut furiten) = (0u32, 0u32);
        each_decision(rules, 150, 13, |game, seat| {
            let obs = game.observation(seat).unwrap();
            let n = rules.players as usize;
            if (0..n).any(|s| {
                game.melds(s as u8)
                    .iter()
                    .any(|m| m.kind == MeldKind::AddedKan)
            }) {
                return;
            }
            let mut hands = [[0u8; 34]; 4];
            for (s, h) in hands.iter_mut().enumerate().take(n) {
                *h = *game.hand(s as u8).unwrap();
            }
            let det = Game::from_observation(&obs, Some(&hands), &mut rng).unwrap();
            for s in (0..n as u8).filter(|&s| s != seat) {
                let truth = game.observation(s).unwrap().riichi.unwrap().furiten;
                let dealt = det.observation(s).unwrap().riichi.unwrap().furiten;
                assert_eq!(dealt, truth, "{name}: furiten of seat {s}");
                furiten += truth as u32;
                checked += 1;
            }
        });
        assert!(
            checked > 5_000 && furiten > 100,
            "{name}: {checked} / {furiten}"
        );
    }
}

/// Belief proposals (what the search deals its worlds from) always give a world, also
/// late in a hand with an opponent in riichi, where the proposal's other hands can hold
/// the tiles the riichi seat's tenpai needs. Found by an external mjai engine: the
/// search refused 7 positions in 40 hanchan ("impossible deal or wall").
#[test]
fn riichi_positions_accept_every_belief_proposal() {
    use engine::belief::{weigh_hypotheses, Hypothesis, OpponentModel, ShantenPrior};
    for (name, rules) in presets() {
        let model = OpponentModel::new(ShantenPrior::empty());
        let mut rng = Rng::new(9);
        let (mut tried, mut late) = (0u32, 0u32);
        each_decision(rules, 300, 23, |game, seat| {
            let obs = game.observation(seat).unwrap();
            let view = obs.riichi.as_ref().unwrap();
            let riichi = (0..rules.players as usize)
                .any(|s| s != seat as usize && view.declared[s].is_some());
            if !riichi {
                return;
            }
            let mut hyp = vec![Hypothesis::default(); 8];
            let mut w = vec![0.0; 8];
            weigh_hypotheses(&obs, &model, &mut rng, &mut hyp, &mut w).unwrap();
            for h in &hyp {
                let det = Game::from_observation(&obs, Some(&h.hands), &mut rng)
                    .unwrap_or_else(|e| panic!("{name}: {e:?} at live wall {}", obs.live_wall));
                assert_eq!(det.observation(seat).unwrap(), obs, "{name}: observation");
                riichi_seats_are_tenpai(&det, seat);
                tried += 1;
                late += (obs.live_wall < 12) as u32;
            }
        });
        eprintln!("{name}: {tried} proposals with an opponent in riichi, {late} late");
        assert!(tried >= 2_000 && late >= 300, "{name}: {tried} / {late}");
    }
}
