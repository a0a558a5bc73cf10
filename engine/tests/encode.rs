//! The observation encoding: ranges, determinism, round trip of the counts it carries,
//! and no leak of hidden information.

use engine::bots::{Agent, RandomBot};
use engine::encode::{
    encode, feature_range, gf, tf, ENCODED_LEN, GLOBAL_TOKEN, NUM_TOKENS, TOKEN_FEATURES,
};
use engine::game::{Action, Game, Observation, Phase};
use engine::rng::Rng;
use engine::rules::Rules;
use engine::tile::{Tile, NUM_TILE_TYPES};

fn enc(obs: &Observation) -> [f32; ENCODED_LEN] {
    let mut out = [f32::NAN; ENCODED_LEN];
    encode(obs, &mut out);
    out
}

fn at(e: &[f32; ENCODED_LEN], token: usize, feature: usize) -> f32 {
    e[token * TOKEN_FEATURES + feature]
}

/// Checks ranges, determinism and that the public counts read back exactly.
fn check(obs: &Observation) {
    let e = enc(obs);
    for k in 0..NUM_TOKENS {
        for f in 0..TOKEN_FEATURES {
            let x = at(&e, k, f);
            let (lo, hi) = feature_range(k, f);
            assert!(
                x.is_finite() && x >= lo && x <= hi,
                "token {k} feature {f} = {x}"
            );
        }
    }
    assert_eq!(e, enc(obs), "not deterministic");
    let players = obs.rules.players as usize;
    for t in 0..NUM_TILE_TYPES {
        assert_eq!((at(&e, t, tf::HAND) * 4.0).round() as u8, obs.hand[t]);
        assert_eq!((at(&e, t, tf::UNSEEN) * 4.0).round() as u8, obs.unseen[t]);
        for r in 0..4 {
            let melded = (at(&e, t, tf::MELDED + r) * 4.0).round() as u8;
            if r >= players {
                assert_eq!(melded, 0);
                continue;
            }
            let abs = (obs.seat as usize + r) % players;
            let mut counts = [0u8; NUM_TILE_TYPES];
            for m in &obs.melds[abs] {
                m.add_to(&mut counts);
            }
            assert_eq!(melded, counts[t]);
            let discarded = obs.discards[abs]
                .iter()
                .filter(|d| d.tile.index() == t)
                .count();
            assert_eq!(
                (at(&e, t, tf::DISCARDED + r) * 4.0).round() as usize,
                discarded.min(4)
            );
        }
    }
    let melds = obs.melds[obs.seat as usize].len();
    assert_eq!(
        (at(&e, GLOBAL_TOKEN, gf::OWN_MELDS) * 4.0).round() as usize,
        melds
    );
    assert_eq!(
        at(&e, GLOBAL_TOKEN, gf::PHASE_CLAIM) == 1.0,
        obs.phase == Phase::Claim
    );
    if let Some(p) = obs.pending {
        assert_eq!(at(&e, p.tile.index(), tf::PENDING), 1.0);
    }
    let tiles: u32 = obs.hand.iter().map(|&c| c as u32).sum();
    let held = (0..NUM_TILE_TYPES)
        .filter(|&t| at(&e, t, tf::HELD) == 1.0)
        .count();
    if tiles % 3 == 2 {
        assert_eq!(held, obs.hand.iter().filter(|&&c| c > 0).count());
    } else {
        assert_eq!(held, 0);
    }
}

#[test]
fn random_games_encode_within_documented_ranges() {
    let mut checked = 0;
    for rules in [Rules::sanma(), Rules::four_player()] {
        for seed in 0..12u64 {
            let mut rules = rules;
            rules.hands_per_game = 1;
            let mut g = Game::new(rules, seed).unwrap();
            let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 10 + s)).collect();
            for b in &mut bots {
                b.call_probability = 0.5;
            }
            while matches!(g.phase(), Phase::Turn | Phase::Claim) {
                let seats = g.seats_to_act();
                let seat = seats[0];
                let obs = g.observation(seat).unwrap();
                check(&obs);
                checked += 1;
                let legal = g.legal_actions(seat);
                let a = bots[seat as usize].act(&obs, &legal);
                g.apply(seat, a).unwrap();
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

fn mpsz(tiles: &[Tile]) -> String {
    tiles
        .iter()
        .map(|t| format!("{}{}", t.number(), t.suit().letter()))
        .collect()
}

/// A game equal to `a` except for hidden information: seats 1 and 2 exchange one tile
/// type and the live-wall tiles that seat 0 does not draw (absent calls) are reversed.
fn hidden_twin(a: &Game) -> Option<Game> {
    let rules = *a.rules();
    let n = rules.players as usize;
    let mut wall: Vec<Tile> = a.wall().to_vec();
    // Exchange the first tile of seat 1 that seat 2 lacks with one of seat 2's.
    let (h1, h2) = (13..26, 26..39);
    let i = h1.clone().find(|&i| !wall[h2.clone()].contains(&wall[i]))?;
    let j = h2.clone().find(|&j| !wall[h1.clone()].contains(&wall[j]))?;
    wall.swap(i, j);
    let live_start = 13 * n;
    let live_end = wall.len() - rules.dead_wall as usize;
    let others: Vec<usize> = (live_start..live_end)
        .filter(|p| (p - live_start) % n != 0)
        .collect();
    let tiles: Vec<Tile> = others.iter().map(|&p| wall[p]).collect();
    for (&p, &t) in others.iter().zip(tiles.iter().rev()) {
        wall[p] = t;
    }
    let hands: Vec<String> = (0..n).map(|s| mpsz(&wall[13 * s..13 * s + 13])).collect();
    let hands: Vec<&str> = hands.iter().map(|s| s.as_str()).collect();
    let live = mpsz(&wall[live_start..live_end]);
    let dead: Vec<Tile> = wall[live_end..].iter().rev().copied().collect();
    Game::from_setup(rules, &hands, &live, &mpsz(&dead), 0).ok()
}

#[test]
fn hidden_information_never_changes_the_encoding() {
    let mut compared = 0;
    let mut differing_hidden = 0;
    for seed in 0..40u64 {
        let mut rules = Rules::sanma();
        rules.hands_per_game = 1;
        let g0 = Game::new(rules, seed).unwrap();
        // Rebuild A through from_setup too, so both games come from the same constructor.
        let wall: Vec<Tile> = g0.wall().to_vec();
        let live_end = wall.len() - rules.dead_wall as usize;
        let hands: Vec<String> = (0..3).map(|s| mpsz(&wall[13 * s..13 * s + 13])).collect();
        let hands: Vec<&str> = hands.iter().map(|s| s.as_str()).collect();
        let dead: Vec<Tile> = wall[live_end..].iter().rev().copied().collect();
        let mut a =
            Game::from_setup(rules, &hands, &mpsz(&wall[39..live_end]), &mpsz(&dead), 0).unwrap();
        let Some(mut b) = hidden_twin(&a) else {
            continue;
        };
        assert_ne!(a.hand(1), b.hand(1));
        differing_hidden += 1;
        let mut rng = Rng::new(seed);
        while matches!(a.phase(), Phase::Turn | Phase::Claim) {
            let seats = a.seats_to_act();
            if seats != b.seats_to_act() || a.phase() != b.phase() {
                break;
            }
            let seat = seats[0];
            let (la, lb) = (a.legal_actions(seat), b.legal_actions(seat));
            if seat == 0 {
                let (oa, ob) = (a.observation(0).unwrap(), b.observation(0).unwrap());
                assert_eq!(oa, ob, "seed {seed}: observations differ");
                assert_eq!(enc(&oa), enc(&ob), "seed {seed}: encodings differ");
                assert_eq!(la, lb);
                compared += 1;
            }
            // A discard is public together with whether it was the tile just drawn
            // (`Discard::tsumogiri`): the twins stay twins only through discards that
            // agree on it.
            let drawn = |g: &Game| g.observation(seat).ok().and_then(|o| o.drawn);
            let (da, db) = (drawn(&a), drawn(&b));
            let same_publicly = |x: &Action| match x {
                Action::Discard(t) => (da == Some(*t)) == (db == Some(*t)),
                _ => true,
            };
            let common: Vec<Action> = la
                .iter()
                .filter(|x| lb.contains(*x) && same_publicly(x))
                .collect();
            if common.is_empty() {
                break;
            }
            // Prefer discards and passes so that the hidden difference stays hidden longer.
            let quiet: Vec<Action> = common
                .iter()
                .copied()
                .filter(|x| matches!(x, Action::Discard(_) | Action::Pass))
                .collect();
            let pool = if quiet.is_empty() { &common } else { &quiet };
            let act = pool[rng.below(pool.len() as u32) as usize];
            a.apply(seat, act).unwrap();
            b.apply(seat, act).unwrap();
        }
    }
    assert!(differing_hidden >= 30, "{differing_hidden}");
    assert!(compared >= 200, "only {compared} comparisons");
}

#[test]
fn mask_marks_exactly_the_legal_actions() {
    let g = Game::new(Rules::four_player(), 3).unwrap();
    let legal = g.legal_actions(0);
    let mut mask = [0f32; engine::game::NUM_ACTIONS];
    engine::encode::action_mask(&legal, &mut mask);
    for (i, &m) in mask.iter().enumerate() {
        assert_eq!(m == 1.0, legal.contains(Action::from_index(i).unwrap()));
    }
}
