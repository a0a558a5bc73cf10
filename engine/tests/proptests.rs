//! Property tests: arbitrary (seat, action index) sequences never panic and keep the
//! invariants; the notation parser never panics and round-trips.

use engine::game::{check_invariants, Action, Game, Phase, NUM_ACTIONS};
use engine::notation::{parse_counts, parse_with_reds, Counts, CountsWithReds, HandWithReds};
use engine::rules::Rules;
use engine::tile::TileSet;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 256 } else { 2048 }, ..ProptestConfig::default() })]

    /// Each step is (seat, index): an index below NUM_ACTIONS is applied as is (mostly
    /// illegal, which must leave the state untouched); larger indices pick a legal
    /// action of an awaited seat so that games advance.
    #[test]
    fn apply_never_panics(four in any::<bool>(), seed in any::<u64>(), steps in proptest::collection::vec((0u8..6, 0usize..400), 0..600)) {
        let rules = if four { Rules::four_player() } else { Rules::sanma() };
        let mut g = Game::new(rules, seed).unwrap();
        for (seat, index) in steps {
            match g.phase() {
                Phase::GameOver => break,
                Phase::HandOver => {
                    g.start_next_hand().unwrap();
                }
                _ => {}
            }
            let (seat, action) = if index < NUM_ACTIONS {
                (seat, Action::from_index(index).unwrap())
            } else {
                let seats = g.seats_to_act();
                let s = seats[index % seats.len()];
                let legal = g.legal_actions(s);
                (s, legal.as_slice()[index % legal.len()])
            };
            let before = g.clone();
            let legal = g.legal_actions(seat).contains(action);
            match g.apply(seat, action) {
                Ok(_) => prop_assert!(legal, "applied an action not in the legal list"),
                Err(_) => {
                    prop_assert!(!legal, "refused a listed legal action");
                    prop_assert_eq!(&g, &before);
                }
            }
            if let Err(v) = check_invariants(&g) {
                return Err(TestCaseError::fail(format!("{v}")));
            }
            for s in 0..rules.players {
                prop_assert!(g.observation(s).is_ok());
            }
        }
    }

    #[test]
    fn notation_never_panics(s in "\\PC*") {
        let _ = parse_counts(&s, TileSet::FourPlayer);
        let _ = parse_counts(&s, TileSet::Sanma);
    }

    #[test]
    fn notation_round_trips(s in "([1-9 ]{0,6}[mps]|[1-7 ]{0,6}z){0,6}") {
        for set in [TileSet::FourPlayer, TileSet::Sanma] {
            if let Ok(c) = parse_counts(&s, set) {
                let text = Counts(&c).to_string();
                prop_assert_eq!(parse_counts(&text, set), Ok(c));
            }
        }
    }

    #[test]
    fn red_five_notation_never_panics(s in "\\PC*") {
        let _ = parse_with_reds(&s, TileSet::FourPlayer);
        let _ = parse_with_reds(&s, TileSet::Sanma);
    }

    /// Any count array with any number of its fives red formats and parses back to
    /// itself, and the red fives are fives for the plain parser.
    #[test]
    fn red_five_notation_round_trips(
        counts in proptest::collection::vec(0u8..=4, 34),
        reds in proptest::collection::vec(0u8..=4, 3),
    ) {
        let mut hand = HandWithReds::default();
        hand.counts.copy_from_slice(&counts);
        for (suit, (red, &wanted)) in hand.red_fives.iter_mut().zip(&reds).enumerate() {
            *red = wanted.min(hand.counts[suit * 9 + 4]);
        }
        let text = CountsWithReds(&hand).to_string();
        prop_assert_eq!(parse_with_reds(&text, TileSet::FourPlayer), Ok(hand));
        let plain = text.replace('0', "5");
        prop_assert_eq!(parse_counts(&plain, TileSet::FourPlayer), Ok(hand.counts));
        prop_assert_eq!(Counts(&hand.counts).to_string(), plain.clone());
        prop_assert_eq!(text.matches('0').count() as u32, hand.red_fives.iter().map(|&r| r as u32).sum::<u32>());
    }
}
