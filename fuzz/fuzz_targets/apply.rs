//! Arbitrary (seat, action index) byte pairs never panic `Game::apply`, refused actions
//! leave the state untouched, and the invariants always hold. The first 8 bytes seed
//! the game; the first bit of the ninth chooses the rules.
#![no_main]

use engine::game::{check_invariants, Action, Game, Phase};
use engine::rules::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let mut seed = [0u8; 8];
    seed.copy_from_slice(&data[..8]);
    let rules = if data[8] & 1 == 0 {
        Rules::sanma()
    } else {
        Rules::four_player()
    };
    let Ok(mut g) = Game::new(rules, u64::from_le_bytes(seed)) else {
        return;
    };
    for pair in data[9..].chunks_exact(2) {
        match g.phase() {
            Phase::GameOver => break,
            Phase::HandOver => {
                g.start_next_hand().expect("next hand");
            }
            _ => {}
        }
        let (seat, index) = (pair[0] % 5, pair[1] as usize);
        // Indices past the action space pick a legal action so that games advance.
        let (seat, action) = match Action::from_index(index) {
            Some(a) => (seat, a),
            None => {
                let seats = g.seats_to_act();
                let s = seats[index % seats.len()];
                let legal = g.legal_actions(s);
                (s, legal.as_slice()[index % legal.len()])
            }
        };
        let before = g.clone();
        if g.apply(seat, action).is_err() {
            assert!(g == before);
        }
        check_invariants(&g).expect("invariants");
    }
});
