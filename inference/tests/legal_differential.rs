//! Differential test of the two derivations of the legal actions from an observation
//! alone: `inference::legal::legal_actions` and the engine's
//! `Game::from_observation(..).legal_actions(seat)`, against the game's own legal actions
//! at every decision of self-played games under every rules preset.

mod common;

use engine::game::{Action, Game, Observation};
use engine::rng::Rng;
use engine::Rules;
use inference::legal::legal_actions;

fn sorted(mut v: Vec<Action>) -> Vec<Action> {
    v.sort_by_key(|a| a.index());
    v
}

/// The engine's derivation: a game dealt around `obs` (hidden tiles at random).
fn from_observation(obs: &Observation, seed: u64) -> Result<Vec<Action>, String> {
    let mut rng = Rng::new(seed);
    let game = Game::from_observation(obs, None, &mut rng).map_err(|e| format!("{e:?}"))?;
    Ok(sorted(game.legal_actions(obs.seat).as_slice().to_vec()))
}

#[test]
fn both_derivations_against_the_game() {
    let presets = [
        ("sanma", Rules::sanma()),
        ("four-player", Rules::four_player()),
        ("tenhou-sanma", Rules::tenhou_sanma()),
        ("tenhou-4p", Rules::tenhou_4p()),
        ("majsoul-sanma", Rules::majsoul_sanma()),
        ("majsoul-4p", Rules::majsoul_4p()),
    ];
    let mut report = Vec::new();
    for (name, rules) in presets {
        let decisions = common::self_play_with(1500, &[rules]);
        let (mut legal_diff, mut engine_diff, mut engine_err) = (0usize, 0usize, 0usize);
        let mut first_legal = None;
        let mut first_engine = None;
        for (i, (obs, legal)) in decisions.iter().enumerate() {
            let expected = sorted(legal.clone());
            let derived = legal_actions(obs);
            if derived != expected {
                legal_diff += 1;
                first_legal.get_or_insert_with(|| format!("{expected:?} vs {derived:?}"));
            }
            match from_observation(obs, i as u64) {
                Ok(e) if e == expected => {}
                Ok(e) => {
                    engine_diff += 1;
                    first_engine.get_or_insert_with(|| format!("{expected:?} vs {e:?}"));
                }
                Err(e) => {
                    engine_err += 1;
                    first_engine.get_or_insert_with(|| format!("error {e}"));
                }
            }
        }
        report.push(format!(
            "{name}: {} decisions; legal.rs differs {legal_diff} ({first_legal:?}); \
             from_observation differs {engine_diff}, fails {engine_err} ({first_engine:?})",
            decisions.len()
        ));
        // The engine's derivation is exact under every preset.
        assert_eq!(
            (engine_diff, engine_err),
            (0, 0),
            "{name}: {first_engine:?}"
        );
        // legal.rs is exact without riichi rules only: under them it lacks kita and the
        // riichi declarations and offers tsumo on hands the game refuses (and back).
        if !rules.is_riichi() {
            assert_eq!(legal_diff, 0, "{name}: {first_legal:?}");
        }
    }
    for line in &report {
        eprintln!("{line}");
    }
}
