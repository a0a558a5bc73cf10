//! Differential test of the legal actions derived from an observation alone
//! (`engine::game::legal_actions_of`, which the advisor and the positions use) against
//! the game's own legal actions at every decision of self-played games under every
//! rules preset, the riichi ones included (riichi declarations, furiten, kita, nine
//! terminals, yaku-required wins).

mod common;

use engine::game::{legal_actions_of, Action, Observation};
use engine::Rules;

fn sorted(mut v: Vec<Action>) -> Vec<Action> {
    v.sort_by_key(|a| a.index());
    v
}

/// Decisions per preset (the riichi presets must reach riichi and kita decisions in
/// them, so the comparison covers the code the simple presets never run).
const DECISIONS: usize = 1500;

#[test]
fn derived_legal_actions_equal_the_games() {
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
        let decisions = common::self_play_with(DECISIONS, &[rules]);
        let (mut differ, mut riichi, mut kita, mut furiten) = (0usize, 0usize, 0usize, 0usize);
        let mut first = None;
        for (obs, legal) in &decisions {
            let expected = sorted(legal.clone());
            riichi += expected.iter().any(|a| matches!(a, Action::Riichi(_))) as usize;
            kita += expected.contains(&Action::Kita) as usize;
            furiten += obs.riichi.as_ref().is_some_and(|v| v.furiten) as usize;
            match legal_actions_of(obs).map(|l| sorted(l.as_slice().to_vec())) {
                Ok(derived) if derived == expected => {}
                other => {
                    differ += 1;
                    first.get_or_insert_with(|| describe(obs, &expected, &other));
                }
            }
        }
        report.push(format!(
            "{name}: {} decisions ({riichi} with riichi, {kita} with kita, {furiten} \
             furiten); {differ} differ",
            decisions.len()
        ));
        assert_eq!(differ, 0, "{name}: {first:?}");
        if rules.is_riichi() {
            assert!(riichi > 0, "{name}: no riichi decision reached");
        }
        if rules.riichi.is_some_and(|r| r.kita) {
            assert!(kita > 0, "{name}: no kita decision reached");
        }
    }
    for line in &report {
        eprintln!("{line}");
    }
}

fn describe(
    obs: &Observation,
    expected: &[Action],
    derived: &Result<Vec<Action>, engine::game::RuleError>,
) -> String {
    format!("{expected:?} vs {derived:?} at {obs:?}")
}
