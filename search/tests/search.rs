//! The search: legal choices, determinism across thread counts, typed errors.

use engine::bots::{Agent, EfficiencyBot};
use engine::game::{Action, Game, LegalActions, Observation, Phase};
use engine::Rules;
use search::{search, Belief, SearchConfig, SearchError};

fn rules() -> Rules {
    let mut r = Rules::sanma();
    r.hands_per_game = 1;
    r
}

/// Decision points (observation and legal actions) from efficiency self-play with
/// more than one legal action, some in claim windows.
fn decisions(count: usize) -> Vec<(Observation, LegalActions)> {
    let mut out = Vec::new();
    let mut h = 0;
    while out.len() < count {
        h += 1;
        let mut g = Game::new(rules(), h).unwrap();
        let mut k = 0;
        while g.last_result().is_none() {
            let seat = g.seats_to_act()[0];
            let obs = g.observation(seat).unwrap();
            let legal = g.legal_actions(seat);
            k += 1;
            if legal.len() > 1 && (k % 7 == 0 || obs.phase == Phase::Claim) {
                out.push((obs.clone(), legal.clone()));
            }
            let a = EfficiencyBot.act(&obs, &legal);
            g.apply(seat, a).unwrap();
        }
    }
    out.truncate(count);
    out
}

fn fixed(belief: Belief) -> SearchConfig {
    let mut cfg = SearchConfig::new(&rules()).unwrap();
    cfg.budget_ms = None;
    cfg.rollouts = 24;
    cfg.batch = 8;
    cfg.belief = belief;
    cfg.early_stop = false;
    cfg.prune_z = None;
    cfg.seed = 5;
    cfg
}

#[test]
fn choices_are_legal_candidates_and_the_policy_choice_is_the_efficiency_bots() {
    let cfg = fixed(Belief::Weighted);
    let mut claims = 0;
    for (obs, legal) in decisions(40) {
        let r = search(&obs, &legal, &cfg).unwrap();
        assert!(legal.contains(r.chosen));
        assert_eq!(r.policy, EfficiencyBot.act(&obs, &legal));
        assert!(r.candidates.iter().any(|c| c.action == r.chosen));
        assert!(r.candidates.iter().all(|c| legal.contains(c.action)));
        assert_eq!(r.worlds, 24);
        for c in &r.candidates {
            assert_eq!(c.value.n, 24);
            assert!((0.0..=1.0).contains(&c.win.mean) && (0.0..=1.0).contains(&c.deal_in.mean));
        }
        // Sorted by value, best first.
        assert!(r
            .candidates
            .windows(2)
            .all(|w| w[0].value.mean >= w[1].value.mean));
        if r.chosen != r.policy {
            let c = r.candidates.iter().find(|c| c.action == r.chosen).unwrap();
            assert!(c.versus_policy.lower(cfg.z) > 0.0);
        }
        claims += (obs.phase == Phase::Claim) as u32;
    }
    assert!(claims > 0);
}

#[test]
fn the_same_seed_gives_the_same_search_on_one_or_two_threads() {
    for belief in [Belief::Uniform, Belief::Weighted] {
        let cfg = fixed(belief);
        for (obs, legal) in decisions(6) {
            let run = |threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| search(&obs, &legal, &cfg).unwrap())
            };
            let (a, b) = (run(1), run(2));
            assert_eq!(a.chosen, b.chosen);
            let va: Vec<_> = a
                .candidates
                .iter()
                .map(|c| (c.action, c.value.mean))
                .collect();
            let vb: Vec<_> = b
                .candidates
                .iter()
                .map(|c| (c.action, c.value.mean))
                .collect();
            assert_eq!(va, vb);
        }
    }
}

#[test]
fn a_win_on_offer_is_searched_as_a_certain_win() {
    // Seat 0 (dealer) holds a complete hand on its first draw.
    let g = Game::from_setup(
        rules(),
        &["111m999m111p999p1", "1234567z123s456", "s789s11223344p5"],
        "1p",
        "",
        0,
    );
    let Ok(g) = g else { return };
    let legal = g.legal_actions(0);
    if !legal.contains(Action::Tsumo) {
        return;
    }
    let r = search(&g.observation(0).unwrap(), &legal, &fixed(Belief::Uniform)).unwrap();
    let t = r
        .candidates
        .iter()
        .find(|c| c.action == Action::Tsumo)
        .unwrap();
    assert_eq!(t.win.mean, 1.0);
    assert!(t.value.mean > 0.0);
}

#[test]
fn bad_requests_are_typed_errors() {
    let (obs, legal) = decisions(1).remove(0);
    let mut cfg = fixed(Belief::Weighted);
    cfg.rollouts = 0;
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::ZeroBudget
    );
    let mut cfg = fixed(Belief::Weighted);
    cfg.budget_ms = Some(0.0);
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::ZeroBudget
    );
    cfg.budget_ms = Some(f64::NAN);
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::ZeroBudget
    );
    cfg.budget_ms = Some(1e12);
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::BudgetTooLarge
    );
    let mut cfg = fixed(Belief::Weighted);
    cfg.rollouts = u32::MAX;
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::BudgetTooLarge
    );
    let mut cfg = fixed(Belief::Weighted);
    cfg.model = None;
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::NoModel
    );
    let cfg = fixed(Belief::Weighted);
    assert_eq!(
        search(&obs, &LegalActions::new(), &cfg).unwrap_err(),
        SearchError::NoDecision
    );
    // A seat that is not on turn.
    let g = Game::new(rules(), 3).unwrap();
    let other = g.observation(1).unwrap();
    assert_eq!(
        search(&other, &g.legal_actions(0), &cfg).unwrap_err(),
        SearchError::NoDecision
    );
    // A finished hand.
    let mut g = Game::new(rules(), 3).unwrap();
    engine::bots::play_hand(&mut g, &mut [EfficiencyBot; 3]).unwrap();
    let done = g.observation(0).unwrap();
    assert_eq!(
        search(&done, &legal, &cfg).unwrap_err(),
        SearchError::HandOver
    );
    // An inconsistent position.
    let mut broken = obs.clone();
    broken.unseen[obs.hand.iter().position(|&c| c > 0).unwrap()] = 4;
    assert!(matches!(
        search(&broken, &legal, &cfg).unwrap_err(),
        SearchError::Rule(_)
    ));
    // Illegal actions offered as legal.
    let wrong: LegalActions = [Action::Ron].into_iter().collect();
    assert!(search(&obs, &wrong, &cfg).is_err());
    // A time budget ends the search (no hang) even with a huge rollout cap.
    let mut cfg = fixed(Belief::Weighted);
    cfg.rollouts = search::MAX_ROLLOUTS;
    cfg.budget_ms = Some(30.0);
    let r = search(&obs, &legal, &cfg).unwrap();
    assert!(r.worlds < search::MAX_ROLLOUTS as usize);
}

/// Decision points of efficiency self-play under `rules` with more than one legal
/// action, preferring positions with a riichi declared.
fn riichi_decisions(rules: Rules, count: usize) -> Vec<(Observation, LegalActions)> {
    let mut out = Vec::new();
    let mut plain = 0;
    let mut h = 0;
    while out.len() < count {
        h += 1;
        let mut g = Game::new(rules, h).unwrap();
        let mut k = 0;
        while g.last_result().is_none() {
            let seat = g.seats_to_act()[0];
            let obs = g.observation(seat).unwrap();
            let legal = g.legal_actions(seat);
            k += 1;
            let riichi = obs
                .riichi
                .as_ref()
                .is_some_and(|v| v.declared.iter().any(|d| d.is_some()));
            let take = riichi || (k % 11 == 0 && plain < count / 2);
            if legal.len() > 1 && take && out.len() < count {
                plain += !riichi as usize;
                out.push((obs.clone(), legal.clone()));
            }
            let a = EfficiencyBot.act(&obs, &legal);
            g.apply(seat, a).unwrap();
        }
    }
    out
}

#[test]
fn riichi_positions_are_searched() {
    for name in ["tenhou-sanma", "tenhou-4p"] {
        let mut rules = Rules::preset(name).unwrap();
        rules.hands_per_game = 1;
        for belief in [Belief::Uniform, Belief::Weighted] {
            let mut cfg = SearchConfig::new(&rules).unwrap();
            cfg.budget_ms = None;
            cfg.rollouts = 8;
            cfg.batch = 4;
            cfg.belief = belief;
            cfg.proposals = 32;
            cfg.early_stop = false;
            let mut riichi = 0;
            for (obs, legal) in riichi_decisions(rules, 12) {
                let r = search(&obs, &legal, &cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(legal.contains(r.chosen), "{name}");
                assert!(r.candidates.iter().all(|c| legal.contains(c.action)));
                riichi += obs
                    .riichi
                    .as_ref()
                    .is_some_and(|v| v.declared.iter().any(|d| d.is_some()))
                    as u32;
            }
            assert!(riichi > 0, "{name}: no position with a riichi declared");
        }
    }
}

/// `safe_k` adds the discards the weighted belief finds least likely to deal in: with
/// no value-score candidates, a turn's candidates are the policy's choice and exactly
/// those (the other actions aside), and the dangers are probabilities.
#[test]
fn safe_candidates_are_the_least_dangerous_discards() {
    let mut cfg = fixed(Belief::Weighted);
    cfg.top_k = 0;
    cfg.safe_k = 2;
    cfg.rollouts = 4;
    cfg.batch = 4;
    let mut turns = 0;
    for (obs, legal) in decisions(40) {
        if obs.phase != Phase::Turn {
            continue;
        }
        let dangers = search::discard_dangers(&obs, &legal, &cfg).unwrap();
        assert!(dangers
            .iter()
            .all(|&(_, p)| (0.0..=1.0 + 1e-9).contains(&p)));
        let r = search(&obs, &legal, &cfg).unwrap();
        let discards: Vec<Action> = r
            .candidates
            .iter()
            .map(|c| c.action)
            .filter(|a| matches!(a, Action::Discard(_)) && *a != r.policy)
            .collect();
        let mut sorted = dangers.clone();
        sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
        let safest: Vec<Action> = sorted.iter().take(2).map(|d| d.0).collect();
        let danger = |a: Action| dangers.iter().find(|d| d.0 == a).unwrap().1;
        // Every added discard is among the two safest (ties in danger aside).
        let cutoff = sorted.get(1).map_or(0.0, |d| d.1);
        for a in &discards {
            assert!(
                safest.contains(a) || danger(*a) <= cutoff,
                "{a:?} {dangers:?}"
            );
        }
        assert!(discards.len() <= 2);
        turns += 1;
    }
    assert!(turns > 10, "{turns}");
    let mut uniform = fixed(Belief::Uniform);
    uniform.safe_k = 2;
    let (obs, legal) = &decisions(1)[0];
    assert_eq!(
        search::discard_dangers(obs, legal, &uniform).unwrap_err(),
        SearchError::NoModel
    );
}

#[test]
fn racing_drops_only_candidates_clearly_behind_and_keeps_the_policy_choice() {
    let mut pruned_some = false;
    for (obs, legal) in decisions(12) {
        let mut cfg = fixed(Belief::Weighted);
        cfg.rollouts = 96;
        cfg.prune_z = Some(1.0);
        let r = search(&obs, &legal, &cfg).unwrap();
        let policy = r.candidates.iter().find(|c| c.action == r.policy).unwrap();
        // The baseline plays every world; a dropped candidate played a prefix of whole
        // batches (at least two).
        assert_eq!(policy.value.n, r.worlds);
        for c in &r.candidates {
            assert!(c.value.n == r.worlds || (c.value.n >= 16 && c.value.n % 8 == 0));
            assert_eq!(c.versus_policy.n, c.value.n);
            pruned_some |= c.value.n < r.worlds;
        }
        let chosen = r.candidates.iter().find(|c| c.action == r.chosen).unwrap();
        assert!(r.chosen == r.policy || chosen.versus_policy.lower(cfg.z) > 0.0);
        // Best first by the paired difference to the policy's choice.
        assert!(r
            .candidates
            .windows(2)
            .all(|w| w[0].versus_policy.mean >= w[1].versus_policy.mean));
        // Without racing every candidate plays every world, and the same worlds give
        // the policy's choice the same value.
        cfg.prune_z = None;
        let full = search(&obs, &legal, &cfg).unwrap();
        let base = full
            .candidates
            .iter()
            .find(|c| c.action == r.policy)
            .unwrap();
        assert_eq!(base.value.mean, policy.value.mean);
        assert!(full.candidates.iter().all(|c| c.value.n == full.worlds));
    }
    assert!(pruned_some, "no candidate was ever dropped");
    let mut cfg = fixed(Belief::Weighted);
    cfg.prune_z = Some(f64::NAN);
    let (obs, legal) = decisions(1).remove(0);
    assert_eq!(
        search(&obs, &legal, &cfg).unwrap_err(),
        SearchError::BadConfig
    );
}
