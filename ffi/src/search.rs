//! The rollout search as an advisor (`mj_search_advise`): determinized Monte-Carlo
//! rollouts (the `search` crate) that fill the same [`mj_advice`] as the efficiency and
//! learned-policy advisors.
//!
//! Each call deals worlds consistent with what the seat may see (its observation only:
//! the opponents' hands weighted by inference from their discards, the walls uniform),
//! plays every candidate action to the end of the hand in each world with the
//! efficiency bot in every seat, and ranks the candidates by the points per hand they
//! won on average. The worlds come from a fixed seed (0), so the advice depends only on
//! the position and on how many worlds fitted into the time budget.

use ::search::{SearchConfig, SearchError, SearchResult, MAX_BUDGET_MS};
use engine::game::{Game, LegalActions, Phase};
use engine::shanten::{shanten, Forms};

use crate::bot::{decision, mj_advice, mj_ranked_action, MJ_ADVICE_SEARCH};
use crate::error::{guard, mj_result, Error};
use crate::game::{check_seat, mj_game};
use crate::util::{in_ref, out_ptr, put};
use crate::MJ_MAX_LEGAL_ACTIONS;

/// Largest time budget `mj_search_advise` accepts, in milliseconds (ten minutes; the
/// search crate's `MAX_BUDGET_MS`).
pub const MJ_SEARCH_MAX_BUDGET_MS: u32 = 600_000;

const _: () = assert!(MJ_SEARCH_MAX_BUDGET_MS as f64 == MAX_BUDGET_MS);

/// The code and message of a search error. The budget and the seat were checked before
/// searching, so only a position the search cannot deal worlds from (not expected for a
/// game of this library) leads to `MJ_INTERNAL`.
fn search_error(e: SearchError, g: &Game, seat: u8) -> Error {
    let code = match e {
        SearchError::NoDecision => mj_result::MJ_NOT_YOUR_TURN,
        SearchError::HandOver if g.phase() == Phase::GameOver => mj_result::MJ_GAME_OVER,
        SearchError::HandOver => mj_result::MJ_HAND_OVER,
        SearchError::ZeroBudget | SearchError::BudgetTooLarge | SearchError::BadConfig => {
            mj_result::MJ_INVALID_ARGUMENT
        }
        // No model (the default configuration always has one), a rejected position or a
        // failed rollout: not expected for a consistent game.
        _ => mj_result::MJ_INTERNAL,
    };
    Error::new(code, format!("search for seat {seat}: {e}"))
}

/// Checks the time budget argument: `1..=MJ_SEARCH_MAX_BUDGET_MS` milliseconds.
fn check_budget(budget_ms: u32) -> Result<(), Error> {
    if budget_ms == 0 {
        return Err(Error::invalid(
            "the search budget is zero (budget_ms must be at least 1)",
        ));
    }
    if budget_ms > MJ_SEARCH_MAX_BUDGET_MS {
        return Err(Error::invalid(format!(
            "the search budget of {budget_ms} ms exceeds MJ_SEARCH_MAX_BUDGET_MS \
             ({MJ_SEARCH_MAX_BUDGET_MS} ms)"
        )));
    }
    Ok(())
}

/// The configuration of `mj_search_advise`: the search crate's defaults for the rules
/// (weighted belief, top 5 discards plus the 2 safest, at most 2 000 worlds, z = 2) with
/// the caller's time budget, no early stop, no racing (every candidate is ranked on
/// every world) and seed 0.
fn config(g: &Game, budget_ms: u32) -> Result<SearchConfig, Error> {
    let mut cfg = SearchConfig::new(g.rules()).map_err(|e| {
        Error::new(
            mj_result::MJ_INTERNAL,
            format!("search configuration for these rules failed: {e}"),
        )
    })?;
    cfg.budget_ms = Some(f64::from(budget_ms));
    cfg.early_stop = false;
    cfg.prune_z = None;
    cfg.seed = 0;
    Ok(cfg)
}

/// Turns a search result into an [`mj_advice`]: the candidates ranked by estimated
/// points per hand (ties by action index), `action` the search's choice.
fn to_advice(r: &SearchResult, shanten: i8, legal: &LegalActions) -> Result<mj_advice, Error> {
    if !legal.contains(r.chosen) {
        return Err(Error::new(
            mj_result::MJ_INTERNAL,
            "the search chose an illegal action (not expected)",
        ));
    }
    if r.candidates.len() > MJ_MAX_LEGAL_ACTIONS {
        return Err(Error::new(
            mj_result::MJ_INTERNAL,
            format!(
                "{} candidates exceed MJ_MAX_LEGAL_ACTIONS",
                r.candidates.len()
            ),
        ));
    }
    let mut ranked: Vec<(f64, u16)> = r
        .candidates
        .iter()
        .map(|c| (c.value.mean, c.action.index() as u16))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let chosen = r
        .candidates
        .iter()
        .find(|c| c.action == r.chosen)
        .filter(|c| c.value.n > 0);
    let mut advice = mj_advice {
        action: r.chosen.index() as u16,
        shanten,
        num_ranked: ranked.len() as u8,
        ranked: [mj_ranked_action::default(); MJ_MAX_LEGAL_ACTIONS],
        source: MJ_ADVICE_SEARCH,
        has_value: chosen.is_some(),
        value: chosen.map_or(0.0, |c| c.value.mean as f32),
    };
    for (slot, &(mean, action)) in advice.ranked.iter_mut().zip(&ranked) {
        *slot = mj_ranked_action {
            action,
            score: mean as f32,
        };
    }
    Ok(advice)
}

/// The search advice for a seat with a decision pending, with the configuration of
/// [`config`] changed by `adjust` (the export changes nothing; the unit tests lower the
/// world cap).
pub(crate) fn search_advice(
    g: &Game,
    seat: u8,
    budget_ms: u32,
    adjust: impl FnOnce(&mut SearchConfig),
) -> Result<mj_advice, Error> {
    check_seat(g, seat)?;
    check_budget(budget_ms)?;
    let (obs, legal) = decision(g, seat)?;
    let mut cfg = config(g, budget_ms)?;
    adjust(&mut cfg);
    let result = ::search::search(&obs, &legal, &cfg).map_err(|e| search_error(e, g, seat))?;
    let forms = Forms::from_rules(&obs.rules);
    let melds = obs.melds.get(seat as usize).map_or(0, |m| m.len() as u8);
    let shanten = shanten(&obs.hand, melds, obs.rules.tile_set).min_of(forms);
    to_advice(&result, shanten, &legal)
}

/// The search advisor: searches the decision of `seat` by determinized Monte-Carlo
/// rollouts from what the seat may see (its observation and legal actions only) for
/// about `budget_ms` milliseconds of wall time, and writes its advice to `*out`.
///
/// The candidates are, on the seat's turn, the five discards with the best value scores,
/// the efficiency bot's own choice, every kan and tsumo; in a claim window every legal
/// answer (pass, ron, pon, kan, chi). In each world (a deal of the hidden tiles
/// consistent with the observation, the opponents' hands weighted by their discards)
/// each candidate is played and the hand finished by the efficiency bot in every seat.
/// `ranked[0..num_ranked]` holds the candidates (not every legal action: the weaker
/// discards are not searched) by estimated points per hand, best first, ties by action
/// index; each `score` is that estimate (mean points won or lost by the seat in the
/// hand, over the worlds played). `action` is the search's choice, always legal and
/// always among the ranked: the efficiency bot's action unless the best candidate beats
/// it by more than two paired standard errors, so it need not be `ranked[0]`.
/// `has_value` is true and `value` the chosen candidate's estimated points per hand
/// (false and 0 when a single candidate left nothing to search). `shanten` as in
/// `mj_efficiency_advise`; `source` is `MJ_ADVICE_SEARCH`. The game is not changed.
///
/// Time: worlds are played in batches of 16 (on rayon's global pool of worker threads,
/// one per core unless `RAYON_NUM_THREADS` says otherwise, started on first use and kept
/// until the process exits) until the next batch would overrun `budget_ms` or 2 000
/// worlds were played. The first batch always runs, so a very small budget still gives
/// an estimate and may be exceeded by that batch. The first call for a rules preset
/// also measures the opponent model's prior (efficiency self-play; under a second) once
/// per process, before the budget starts. The worlds come from a fixed seed (0): the
/// advice depends only on the position and the number of worlds played, so two calls
/// that play as many worlds (e.g. both reach the 2 000) give identical advice.
///
/// May run concurrently with other calls (as any function taking `const mj_game *`).
///
/// Errors: `MJ_NULL_POINTER` (`game`, `out`), `MJ_INVALID_ARGUMENT` (no such seat;
/// `budget_ms` 0 or above `MJ_SEARCH_MAX_BUDGET_MS`), `MJ_NOT_YOUR_TURN` (the seat has no
/// decision pending: another seat is on turn, or the claim window offers it nothing),
/// `MJ_HAND_OVER`, `MJ_GAME_OVER`, `MJ_INTERNAL` (the search rejected the position; not
/// expected). On error `*out` is untouched.
///
/// # Safety
/// `game` must be NULL or a live game not being changed by another thread; `out` must be
/// NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_search_advise(
    game: *const mj_game,
    seat: u8,
    budget_ms: u32,
    out: *mut mj_advice,
) -> mj_result {
    guard("mj_search_advise", || {
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let advice = search_advice(g, seat, budget_ms, |_| {})?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, advice) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::bots::{Agent, EfficiencyBot};
    use engine::Rules;

    /// A game stepped by the efficiency bot until a claim window opens.
    fn claim_window(rules: Rules, seed: u64) -> Game {
        let mut g = Game::new(rules, seed).unwrap();
        for _ in 0..1000 {
            match g.phase() {
                Phase::Claim => return g,
                Phase::HandOver => {
                    g.start_next_hand().unwrap();
                    continue;
                }
                Phase::GameOver => break,
                Phase::Turn => {}
            }
            let seat = g.seats_to_act()[0];
            let obs = g.observation(seat).unwrap();
            let a = EfficiencyBot.act(&obs, &g.legal_actions(seat));
            g.apply(seat, a).unwrap();
        }
        panic!("no claim window in game {seed}");
    }

    /// With a world cap that is reached before the budget, the advice is reproducible
    /// (seed 0) and is the search crate's result for the same configuration.
    #[test]
    fn capped_search_is_reproducible_and_matches_the_search_crate() {
        let cap = |c: &mut SearchConfig| c.rollouts = 24;
        for g in [
            Game::new(Rules::sanma(), 5).unwrap(),
            claim_window(Rules::four_player(), 3),
        ] {
            let seat = g.seats_to_act()[0];
            let a = search_advice(&g, seat, MJ_SEARCH_MAX_BUDGET_MS, cap).unwrap();
            let b = search_advice(&g, seat, MJ_SEARCH_MAX_BUDGET_MS, cap).unwrap();
            let key = |x: &mj_advice| {
                let ranked: Vec<(u16, u32)> = x.ranked[..x.num_ranked as usize]
                    .iter()
                    .map(|r| (r.action, r.score.to_bits()))
                    .collect();
                (
                    x.action,
                    x.shanten,
                    x.source,
                    x.has_value,
                    x.value.to_bits(),
                    ranked,
                )
            };
            assert_eq!(key(&a), key(&b));

            let obs = g.observation(seat).unwrap();
            let legal = g.legal_actions(seat);
            let mut cfg = SearchConfig::new(g.rules()).unwrap();
            cfg.budget_ms = Some(MAX_BUDGET_MS);
            cfg.early_stop = false;
            cfg.seed = 0;
            cap(&mut cfg);
            let r = ::search::search(&obs, &legal, &cfg).unwrap();
            assert_eq!(r.worlds, 24);
            assert_eq!(a.action as usize, r.chosen.index());
            assert_eq!(a.source, MJ_ADVICE_SEARCH);
            assert_eq!(a.num_ranked as usize, r.candidates.len());
            let chosen = r.candidates.iter().find(|c| c.action == r.chosen).unwrap();
            assert!(a.has_value);
            assert_eq!(a.value, chosen.value.mean as f32);
            for c in &r.candidates {
                let slot = a.ranked[..a.num_ranked as usize]
                    .iter()
                    .find(|s| s.action as usize == c.action.index())
                    .unwrap();
                assert_eq!(slot.score, c.value.mean as f32);
            }
            if g.phase() == Phase::Claim {
                // Every legal answer is a candidate.
                assert_eq!(a.num_ranked as usize, legal.len());
            }
        }
    }

    #[test]
    fn search_errors_map_to_stable_codes() {
        let g = Game::new(Rules::sanma(), 1).unwrap();
        let code = |e| search_error(e, &g, 0).code;
        assert_eq!(code(SearchError::NoDecision), mj_result::MJ_NOT_YOUR_TURN);
        assert_eq!(code(SearchError::HandOver), mj_result::MJ_HAND_OVER);
        assert_eq!(
            code(SearchError::ZeroBudget),
            mj_result::MJ_INVALID_ARGUMENT
        );
        assert_eq!(
            code(SearchError::BudgetTooLarge),
            mj_result::MJ_INVALID_ARGUMENT
        );
        assert_eq!(code(SearchError::BadConfig), mj_result::MJ_INVALID_ARGUMENT);
        assert_eq!(code(SearchError::NoModel), mj_result::MJ_INTERNAL);
        assert_eq!(
            code(SearchError::Rule(engine::game::RuleError::BadSetup)),
            mj_result::MJ_INTERNAL
        );
        assert!(search_error(SearchError::ZeroBudget, &g, 2)
            .message
            .contains("seat 2"));
        assert_eq!(
            check_budget(0).unwrap_err().code,
            mj_result::MJ_INVALID_ARGUMENT
        );
        assert!(check_budget(1).is_ok() && check_budget(MJ_SEARCH_MAX_BUDGET_MS).is_ok());
        assert!(check_budget(MJ_SEARCH_MAX_BUDGET_MS + 1).is_err());
    }
}
