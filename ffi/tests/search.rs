//! `mj_search_advise` called from Rust: advice at real decisions (the seat's turn and
//! claim windows, sanma and four-player) is legal, comes from the search and ranks the
//! searched candidates by estimated points per hand; every bad input gets its code,
//! leaves the output untouched and sets the last error; concurrent calls on one game.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use mahjong_ffi::*;

use mj_result::*;

/// A small budget: every call plays its first batch of worlds and then stops.
const BUDGET_MS: u32 = 20;

fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let mut n = 0usize;
    // SAFETY: `buf` holds 512 bytes and `n` is a valid out pointer.
    assert_eq!(
        unsafe { mj_last_error_message(buf.as_mut_ptr(), buf.len(), &mut n) },
        MJ_OK
    );
    // SAFETY: on MJ_OK the buffer holds a NUL-terminated string.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string()
}

struct Game(*mut mj_game);

// SAFETY: an `mj_game` may move between threads and functions taking `const mj_game *`
// may run concurrently on one (documented in the header); the tests share it read-only.
unsafe impl Send for Game {}
// SAFETY: as above.
unsafe impl Sync for Game {}

impl Game {
    fn new(rules: u32, seed: u64) -> Game {
        let mut g = null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { mj_game_new(rules, seed, &mut g) }, MJ_OK);
        Game(g)
    }

    fn status(&self) -> mj_status {
        let mut st = mj_status::default();
        // SAFETY: live game, valid out pointer.
        assert_eq!(unsafe { mj_game_status(self.0, &mut st) }, MJ_OK);
        st
    }

    fn seats_to_act(&self) -> Vec<u8> {
        let mut seats = [0u8; MJ_MAX_PLAYERS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_PLAYERS, valid out pointer.
        let r = unsafe { mj_game_seats_to_act(self.0, seats.as_mut_ptr(), seats.len(), &mut n) };
        assert_eq!(r, MJ_OK);
        seats[..n].to_vec()
    }

    fn legal(&self, seat: u8) -> Vec<u16> {
        let mut buf = [0u16; MJ_MAX_LEGAL_ACTIONS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_LEGAL_ACTIONS, valid out pointer.
        let r = unsafe { mj_game_legal_actions(self.0, seat, buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(r, MJ_OK);
        buf[..n].to_vec()
    }

    fn mask(&self, seat: u8) -> [u8; MJ_NUM_ACTIONS] {
        let mut mask = [0u8; MJ_NUM_ACTIONS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_NUM_ACTIONS, valid out pointer.
        let r = unsafe { mj_game_legal_mask(self.0, seat, mask.as_mut_ptr(), mask.len(), &mut n) };
        assert_eq!(r, MJ_OK);
        mask
    }

    /// `mj_search_advise`; on failure checks that `*out` was left untouched.
    fn search(&self, seat: u8, budget_ms: u32) -> Result<mj_advice, mj_result> {
        let mut out = sentinel();
        // SAFETY: live game, valid out pointer.
        match unsafe { mj_search_advise(self.0, seat, budget_ms, &mut out) } {
            MJ_OK => Ok(out),
            e => {
                assert_untouched(&out);
                Err(e)
            }
        }
    }

    /// Lets `bot` choose for `seat` and applies the action.
    fn step(&self, bot: &Bot, seat: u8) {
        let mut action = 0u16;
        // SAFETY: live bot and game, valid out pointer.
        assert_eq!(
            unsafe { mj_bot_choose(bot.0, self.0, seat, &mut action) },
            MJ_OK
        );
        // SAFETY: live game.
        assert_eq!(unsafe { mj_game_apply(self.0, seat, action) }, MJ_OK);
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // SAFETY: the pointer came from mj_game_new and is freed once.
        unsafe { mj_game_free(self.0) };
    }
}

struct Bot(*mut mj_bot);

impl Bot {
    fn efficiency() -> Bot {
        let mut b = null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { mj_bot_new_efficiency(&mut b) }, MJ_OK);
        Bot(b)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a constructor and is freed once.
        unsafe { mj_bot_free(self.0) };
    }
}

/// An advice no call writes: every failed call must leave it as it is.
fn sentinel() -> mj_advice {
    mj_advice {
        action: 0xABCD,
        shanten: 99,
        num_ranked: 99,
        ranked: [mj_ranked_action {
            action: 0xABCD,
            score: -1.0,
        }; MJ_MAX_LEGAL_ACTIONS],
        source: 0xEE,
        has_value: false,
        value: -7.0,
    }
}

fn assert_untouched(a: &mj_advice) {
    assert_eq!(
        (a.action, a.shanten, a.num_ranked, a.source, a.value),
        (0xABCD, 99, 99, 0xEE, -7.0)
    );
    assert!(a.ranked.iter().all(|r| r.action == 0xABCD));
}

/// A search advice for `seat` of `g`: from the search, legal, the candidates distinct,
/// legal and ranked by their estimated points per hand, the chosen action among them
/// with its estimate as the value.
fn check_search_advice(g: &Game, seat: u8, adv: &mj_advice) {
    let legal = g.legal(seat);
    let mask = g.mask(seat);
    assert_eq!(adv.source, MJ_ADVICE_SEARCH);
    assert!((adv.action as usize) < MJ_NUM_ACTIONS && mask[adv.action as usize] == 1);
    assert!(legal.contains(&adv.action));
    let n = adv.num_ranked as usize;
    assert!(n >= 1 && n <= legal.len(), "{n} ranked of {}", legal.len());
    let ranked = &adv.ranked[..n];
    for (i, r) in ranked.iter().enumerate() {
        assert!(
            legal.contains(&r.action),
            "ranked {} is not legal",
            r.action
        );
        assert!(r.score.is_finite());
        assert!(
            ranked[..i].iter().all(|q| q.action != r.action),
            "duplicate"
        );
        if i > 0 {
            let prev = &ranked[i - 1];
            assert!(
                prev.score > r.score || (prev.score == r.score && prev.action < r.action),
                "not ranked: {prev:?} before {r:?}"
            );
        }
    }
    let chosen = ranked
        .iter()
        .find(|r| r.action == adv.action)
        .expect("the chosen action is ranked");
    assert!(adv.has_value);
    assert_eq!(adv.value, chosen.score);
    assert!((-1..=13).contains(&adv.shanten));
    let st = g.status();
    if st.phase == MJ_PHASE_CLAIM {
        // Every legal answer of a claim window is searched; pass is one.
        assert_eq!(n, legal.len());
        assert!(ranked.iter().any(|r| r.action == 140));
    }
}

/// Steps `g` with the efficiency bot until a claim window opens (`None` if the game
/// ends first).
fn advance_to_claim(g: &Game, bot: &Bot) -> Option<()> {
    for _ in 0..2000 {
        let st = g.status();
        match st.phase {
            MJ_PHASE_CLAIM => return Some(()),
            MJ_PHASE_GAME_OVER => return None,
            MJ_PHASE_HAND_OVER => {
                // SAFETY: live game.
                assert_eq!(unsafe { mj_game_start_next_hand(g.0) }, MJ_OK);
                continue;
            }
            _ => {}
        }
        g.step(bot, g.seats_to_act()[0]);
    }
    None
}

/// On the seat's turn and in claim windows of both presets, the advice is the search's
/// and legal; seats without a decision get `MJ_NOT_YOUR_TURN`.
#[test]
fn search_advises_at_turns_and_claims() {
    let bot = Bot::efficiency();
    for (rules, seed) in [(MJ_RULES_SANMA, 11), (MJ_RULES_FOUR_PLAYER, 12)] {
        let g = Game::new(rules, seed);
        let players = g.status().players;
        // The dealer's first turn.
        let seat = g.seats_to_act()[0];
        let adv = g.search(seat, BUDGET_MS).expect("search on the turn");
        check_search_advice(&g, seat, &adv);
        for other in (0..players).filter(|&s| s != seat) {
            assert_eq!(g.search(other, BUDGET_MS).unwrap_err(), MJ_NOT_YOUR_TURN);
            assert!(last_error().contains("no decision"), "{}", last_error());
        }
        // Two claim windows: every seat that may claim gets advice; the others (and
        // the discarder) have no decision.
        let mut claims = 0;
        while claims < 2 && advance_to_claim(&g, &bot).is_some() {
            let to_act = g.seats_to_act();
            assert!(!to_act.is_empty());
            for s in 0..players {
                if to_act.contains(&s) {
                    let adv = g.search(s, BUDGET_MS).expect("search in the claim window");
                    check_search_advice(&g, s, &adv);
                } else {
                    assert_eq!(g.search(s, BUDGET_MS).unwrap_err(), MJ_NOT_YOUR_TURN);
                }
            }
            claims += 1;
            // Follow the search's advice for the first seat.
            let s = to_act[0];
            let adv = g.search(s, BUDGET_MS).unwrap();
            // SAFETY: live game.
            assert_eq!(unsafe { mj_game_apply(g.0, s, adv.action) }, MJ_OK);
            // Leave the window if the other claimants still have to answer.
            for s in g.seats_to_act() {
                if g.status().phase == MJ_PHASE_CLAIM {
                    g.step(&bot, s);
                }
            }
        }
        assert_eq!(claims, 2, "fewer than two claim windows in game {seed}");
    }
}

/// A few turns of one sanma hand in which seat 0 follows the search: each advice legal.
#[test]
fn seat_follows_the_search_for_a_hand() {
    let bot = Bot::efficiency();
    let g = Game::new(MJ_RULES_SANMA, 21);
    let mut followed = 0;
    for _ in 0..400 {
        let st = g.status();
        if st.phase == MJ_PHASE_HAND_OVER || st.phase == MJ_PHASE_GAME_OVER {
            break;
        }
        let seat = g.seats_to_act()[0];
        if seat == 0 && followed < 8 {
            let adv = g.search(0, 5).unwrap();
            check_search_advice(&g, 0, &adv);
            // SAFETY: live game.
            assert_eq!(unsafe { mj_game_apply(g.0, 0, adv.action) }, MJ_OK);
            followed += 1;
        } else {
            g.step(&bot, seat);
        }
    }
    assert!(followed >= 3, "seat 0 decided only {followed} times");
}

/// Every bad input gets its code, a message, and leaves `*out` untouched.
#[test]
fn bad_inputs_get_their_codes() {
    let g = Game::new(MJ_RULES_SANMA, 3);
    let seat = g.seats_to_act()[0];
    let mut out = sentinel();
    // SAFETY (all calls): every pointer is NULL or valid; NULLs must be refused.
    unsafe {
        assert_eq!(
            mj_search_advise(null(), seat, BUDGET_MS, &mut out),
            MJ_NULL_POINTER
        );
        assert!(last_error().contains("`game` is NULL"), "{}", last_error());
        assert_eq!(
            mj_search_advise(g.0, seat, BUDGET_MS, null_mut()),
            MJ_NULL_POINTER
        );
        assert!(last_error().contains("`out` is NULL"), "{}", last_error());
        // NULL pointers are checked before the other arguments.
        assert_eq!(mj_search_advise(null(), 9, 0, null_mut()), MJ_NULL_POINTER);
    }
    assert_untouched(&out);

    // Seats out of range.
    for bad in [3u8, 4, 255] {
        assert_eq!(g.search(bad, BUDGET_MS).unwrap_err(), MJ_INVALID_ARGUMENT);
        assert!(last_error().contains("not a seat"), "{}", last_error());
    }
    // Budgets: zero, one past the maximum, the largest u32.
    assert_eq!(g.search(seat, 0).unwrap_err(), MJ_INVALID_ARGUMENT);
    assert!(last_error().contains("zero"), "{}", last_error());
    assert!(last_error().starts_with("mj_search_advise: "));
    for big in [MJ_SEARCH_MAX_BUDGET_MS + 1, u32::MAX] {
        assert_eq!(g.search(seat, big).unwrap_err(), MJ_INVALID_ARGUMENT);
        assert!(
            last_error().contains("MJ_SEARCH_MAX_BUDGET_MS"),
            "{}",
            last_error()
        );
    }
    // The budget is checked before the seat's state: no search runs for it.
    assert_eq!(
        g.search((seat + 1) % 3, 0).unwrap_err(),
        MJ_INVALID_ARGUMENT
    );
    // Not the seat's turn.
    assert_eq!(
        g.search((seat + 1) % 3, BUDGET_MS).unwrap_err(),
        MJ_NOT_YOUR_TURN
    );

    // A finished hand, then a finished game.
    let bot = Bot::efficiency();
    let mut saw_hand_over = false;
    for _ in 0..10_000 {
        match g.status().phase {
            MJ_PHASE_HAND_OVER => {
                saw_hand_over = true;
                for s in 0..3 {
                    assert_eq!(g.search(s, BUDGET_MS).unwrap_err(), MJ_HAND_OVER);
                }
                assert!(last_error().contains("hand is over"), "{}", last_error());
                // SAFETY: live game.
                assert_eq!(unsafe { mj_game_start_next_hand(g.0) }, MJ_OK);
            }
            MJ_PHASE_GAME_OVER => break,
            _ => g.step(&bot, g.seats_to_act()[0]),
        }
    }
    assert!(saw_hand_over);
    assert_eq!(g.status().phase, MJ_PHASE_GAME_OVER);
    for s in 0..3 {
        assert_eq!(g.search(s, BUDGET_MS).unwrap_err(), MJ_GAME_OVER);
    }
    assert!(last_error().contains("game is over"), "{}", last_error());
    // The largest accepted budget is a valid argument: the game-over code wins.
    assert_eq!(
        g.search(0, MJ_SEARCH_MAX_BUDGET_MS).unwrap_err(),
        MJ_GAME_OVER
    );
}

/// The advice never exceeds the budget by more than about one batch of worlds, and a
/// larger budget plays more worlds (a tighter estimate is not checked: only that the
/// call returns).
#[test]
fn search_respects_its_budget() {
    let g = Game::new(MJ_RULES_SANMA, 8);
    let seat = g.seats_to_act()[0];
    // Warm up: the first call for a preset measures the opponent model's prior.
    g.search(seat, 1).unwrap();
    let start = std::time::Instant::now();
    let adv = g.search(seat, 50).unwrap();
    let elapsed = start.elapsed().as_secs_f64() * 1e3;
    check_search_advice(&g, seat, &adv);
    assert!(elapsed < 50.0 * 20.0, "a 50 ms search took {elapsed:.0} ms");
}

/// Two threads search the same game at once (both take `const mj_game *`).
#[test]
fn concurrent_searches_on_one_game() {
    let g = Game::new(MJ_RULES_FOUR_PLAYER, 4);
    let seat = g.seats_to_act()[0];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|_| s.spawn(|| g.search(seat, BUDGET_MS).unwrap()))
            .collect();
        for h in handles {
            check_search_advice(&g, seat, &h.join().unwrap());
        }
    });
}
