//! Stress test of the ABI's threading contract: 16 threads make 10 000 calls each,
//! mixing the learned-policy advisor (one `mj_advisor` per rules preset, shared by every
//! thread at once), the efficiency advisor, and game calls on games each thread owns
//! (new, status, seats to act, legal actions and mask, observation, apply, hand results,
//! records, replays, free, and calls for a seat without a decision, whose thread-local
//! error message is read back), playing those games forward to their end and starting
//! new ones.
//!
//! Each thread runs a deterministic script (its own seeds and choices). The answer of
//! every call, its result code and outputs, is digested; every thread's answers must
//! equal those of the same script run single-threaded first.
//!
//! The mix (per decision of a game): the seat's action comes from the learned policy
//! (`ADVISOR_PERCENT`), from the efficiency advisor (`EFFICIENCY_PERCENT`) or from the
//! legal list (the rest); one decision in three adds an observation, a legal mask, a
//! learned-policy advice that is not followed, or an advice request (of either advisor)
//! for a seat that has no decision. The counts of each call are printed, and every
//! thread must make a minimum share of advisor calls and finish a game.

mod common;

use std::fmt::{self, Debug, Write as _};
use std::mem::MaybeUninit;
use std::ptr::null_mut;
use std::sync::Barrier;
use std::time::Instant;

use common::*;
use mahjong_ffi::*;

use mj_result::*;

const THREADS: usize = 16;
const CALLS_PER_THREAD: usize = 10_000;
/// Games each thread plays at once (alternately sanma and four-player by seed).
const GAMES_PER_THREAD: usize = 3;
/// Share of decisions (in percent) whose action the learned policy gives.
const ADVISOR_PERCENT: u64 = 50;
/// Share of decisions (in percent) whose action the efficiency advisor gives.
const EFFICIENCY_PERCENT: u64 = 25;
/// The most calls one step of a script makes (a decision with an extra query and a
/// refused call: status, seats, the extra call and its message, advice, apply; a hand
/// end: status, result, record, replay, its record, free, next hand).
const MAX_STEP_CALLS: usize = 8;

/// The calls a script makes, for the counts and the failure messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    GameNew,
    GameFree,
    Status,
    IsOver,
    SeatsToAct,
    LegalActions,
    LegalMask,
    Observation,
    Apply,
    StartNextHand,
    HandResult,
    HandRecord,
    Replay,
    AdvisorAdvise,
    EfficiencyAdvise,
    LastError,
}

const CALL_KINDS: usize = Call::LastError as usize + 1;

/// FNV-1a over the `Debug` text of an answer (every output field, floats exactly: their
/// `Debug` form round-trips).
struct Fnv(u64);

impl fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

fn digest(answer: &dyn Debug) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    write!(h, "{answer:?}").unwrap();
    h.0
}

/// splitmix64: the scripts' choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// An ABI output struct without a `Default`, made of integers, bools, floats and arrays
/// of them.
///
/// # Safety
/// All-zero bytes must be a valid value of the implementing type.
unsafe trait Zeroed: Sized {
    fn zeroed() -> Self {
        // SAFETY: all-zero bytes are a valid value (the trait's contract).
        unsafe { MaybeUninit::<Self>::zeroed().assume_init() }
    }
}

// SAFETY: integers, bools and arrays of them.
unsafe impl Zeroed for mj_observation {}
// SAFETY: integers, a bool, floats and an array of (integer, float) structs.
unsafe impl Zeroed for mj_advice {}

/// The answers of one script run, in call order.
struct Answers {
    calls: Vec<(Call, u64)>,
}

/// The two shared learned-policy advisors.
struct Advisors {
    sanma: Advisor,
    four: Advisor,
}

/// One thread's script: its games, choices and answers.
struct Script<'a> {
    advisors: &'a Advisors,
    rng: Rng,
    next_seed: u64,
    answers: Answers,
}

impl Script<'_> {
    fn push(&mut self, call: Call, answer: &dyn Debug) {
        self.answers.calls.push((call, digest(answer)));
    }

    /// Records a call's code; on an error also the thread's last error message (one
    /// more call).
    fn push_result(&mut self, call: Call, r: mj_result, output: &dyn Debug) {
        if r == MJ_OK {
            self.push(call, &(r, output));
        } else {
            self.push(call, &r);
            let message = last_error();
            self.push(Call::LastError, &message);
        }
    }

    fn new_game(&mut self) -> Game {
        let seed = self.next_seed;
        self.next_seed += 1;
        let rules = if seed % 2 == 0 {
            MJ_RULES_SANMA
        } else {
            MJ_RULES_FOUR_PLAYER
        };
        let mut g = null_mut();
        // SAFETY: valid out pointer.
        let r = unsafe { mj_game_new(rules, seed, &mut g) };
        self.push(Call::GameNew, &r);
        assert_eq!(r, MJ_OK);
        Game(g)
    }

    fn free_game(&mut self, g: Game) {
        drop(g); // mj_game_free
        self.push(Call::GameFree, &());
    }

    fn status(&mut self, g: &Game) -> mj_status {
        let mut st = mj_status::default();
        // SAFETY: live game, valid out pointer.
        let r = unsafe { mj_game_status(g.0, &mut st) };
        self.push_result(Call::Status, r, &st);
        assert_eq!(r, MJ_OK);
        st
    }

    fn is_over(&mut self, g: &Game) {
        let mut over = false;
        // SAFETY: live game, valid out pointer.
        let r = unsafe { mj_game_is_over(g.0, &mut over) };
        self.push_result(Call::IsOver, r, &over);
    }

    fn seats_to_act(&mut self, g: &Game) -> Vec<u8> {
        let mut seats = [0u8; MJ_MAX_PLAYERS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_PLAYERS, valid out pointer.
        let r = unsafe { mj_game_seats_to_act(g.0, seats.as_mut_ptr(), seats.len(), &mut n) };
        self.push_result(Call::SeatsToAct, r, &&seats[..n]);
        assert!(r == MJ_OK && n > 0, "a hand in progress awaits a seat");
        seats[..n].to_vec()
    }

    fn legal(&mut self, g: &Game, seat: u8) -> Vec<u16> {
        let mut buf = [0u16; MJ_MAX_LEGAL_ACTIONS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_LEGAL_ACTIONS, valid out pointer.
        let r = unsafe { mj_game_legal_actions(g.0, seat, buf.as_mut_ptr(), buf.len(), &mut n) };
        self.push_result(Call::LegalActions, r, &&buf[..n]);
        assert!(r == MJ_OK && n > 0, "a seat to act has a legal action");
        buf[..n].to_vec()
    }

    fn mask(&mut self, g: &Game, seat: u8) {
        let mut mask = [0u8; MJ_NUM_ACTIONS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_NUM_ACTIONS, valid out pointer.
        let r = unsafe { mj_game_legal_mask(g.0, seat, mask.as_mut_ptr(), mask.len(), &mut n) };
        self.push_result(Call::LegalMask, r, &&mask[..n]);
    }

    fn observation(&mut self, g: &Game, seat: u8) {
        let mut obs = mj_observation::zeroed();
        // SAFETY: live game, valid out pointer.
        let r = unsafe { mj_game_observation(g.0, seat, &mut obs) };
        self.push_result(Call::Observation, r, &obs);
    }

    fn hand_result(&mut self, g: &Game) {
        let mut hr = mj_hand_result::default();
        // SAFETY: live game, valid out pointer.
        let r = unsafe { mj_game_hand_result(g.0, &mut hr) };
        self.push_result(Call::HandResult, r, &hr);
    }

    fn record(&mut self, g: *const mj_game) -> Vec<u8> {
        let mut buf = vec![0u8; MJ_RECORD_MAX_BYTES];
        let mut n = 0;
        // SAFETY: live game, buffer of its length, valid out pointer.
        let r = unsafe { mj_game_hand_record(g, buf.as_mut_ptr(), buf.len(), &mut n) };
        buf.truncate(n);
        self.push_result(Call::HandRecord, r, &buf);
        buf
    }

    /// Replays a record into a new game, records that game's record and frees it.
    fn replay(&mut self, record: &[u8]) {
        let mut g = null_mut();
        // SAFETY: `record` is readable for its length; valid out pointer.
        let r = unsafe { mj_game_replay(record.as_ptr(), record.len(), &mut g) };
        self.push_result(Call::Replay, r, &());
        if r == MJ_OK {
            let replayed = Game(g);
            let again = self.record(replayed.0);
            assert_eq!(again, record, "a replay gives the same record");
            self.free_game(replayed);
        }
    }

    fn start_next_hand(&mut self, g: &Game) {
        // SAFETY: live game, owned by this thread.
        let r = unsafe { mj_game_start_next_hand(g.0) };
        self.push_result(Call::StartNextHand, r, &());
    }

    fn apply(&mut self, g: &Game, seat: u8, action: u16) {
        // SAFETY: live game, owned by this thread.
        let r = unsafe { mj_game_apply(g.0, seat, action) };
        self.push_result(Call::Apply, r, &());
        assert_eq!(r, MJ_OK, "the action came from a legal list or an advisor");
    }

    /// Only the fields the call defines (`ranked[..num_ranked]`).
    fn push_advice(&mut self, call: Call, r: mj_result, a: &mj_advice) -> Option<u16> {
        let n = usize::from(a.num_ranked).min(MJ_MAX_LEGAL_ACTIONS);
        let fields = (
            a.action,
            a.shanten,
            &a.ranked[..n],
            a.source,
            a.has_value,
            a.value,
        );
        self.push_result(call, r, &fields);
        (r == MJ_OK).then_some(a.action)
    }

    /// The shared learned-policy advisor of the game's preset.
    fn advise(&mut self, g: &Game, players: u8, seat: u8) -> Option<u16> {
        let advisor = if players == 3 {
            &self.advisors.sanma
        } else {
            &self.advisors.four
        };
        let mut a = mj_advice::zeroed();
        // SAFETY: live advisor (shared; its functions may run concurrently) and game,
        // valid out pointer.
        let r = unsafe { mj_advisor_advise(advisor.0, g.0, seat, &mut a) };
        self.push_advice(Call::AdvisorAdvise, r, &a)
    }

    fn efficiency(&mut self, g: &Game, seat: u8) -> Option<u16> {
        let mut a = mj_advice::zeroed();
        // SAFETY: live game, valid out pointer.
        let r = unsafe { mj_efficiency_advise(g.0, seat, &mut a) };
        self.push_advice(Call::EfficiencyAdvise, r, &a)
    }

    /// One step of a game: a hand end, a game end (returns true) or one decision.
    fn step(&mut self, g: &Game) -> bool {
        let st = self.status(g);
        match st.phase {
            MJ_PHASE_GAME_OVER => {
                self.is_over(g);
                self.hand_result(g);
                return true;
            }
            MJ_PHASE_HAND_OVER => {
                self.hand_result(g);
                let record = self.record(g.0);
                if self.rng.below(4) == 0 {
                    self.replay(&record);
                }
                self.start_next_hand(g);
                return false;
            }
            _ => {}
        }
        let seats = self.seats_to_act(g);
        let seat = seats[self.rng.below(seats.len())];
        match self.rng.below(12) {
            0 => self.observation(g, seat),
            1 => self.mask(g, seat),
            2 => {
                // A seat without a decision: refused (MJ_NOT_YOUR_TURN), and its
                // message read back.
                if let Some(idle) = (0..st.players).find(|s| !seats.contains(s)) {
                    if self.rng.below(2) == 0 {
                        assert!(self.advise(g, st.players, idle).is_none());
                    } else {
                        assert!(self.efficiency(g, idle).is_none());
                    }
                }
            }
            3 => {
                // The policy's advice asked, not necessarily followed.
                self.advise(g, st.players, seat);
            }
            _ => {}
        }
        let roll = self.rng.below(100) as u64;
        let advised = if roll < ADVISOR_PERCENT {
            self.advise(g, st.players, seat)
        } else if roll < ADVISOR_PERCENT + EFFICIENCY_PERCENT {
            self.efficiency(g, seat)
        } else {
            None
        };
        let action = advised.unwrap_or_else(|| {
            let legal = self.legal(g, seat);
            legal[self.rng.below(legal.len())]
        });
        self.apply(g, seat, action);
        false
    }
}

/// Runs thread `t`'s script: exactly `CALLS_PER_THREAD` calls.
fn run_script(t: usize, advisors: &Advisors) -> Answers {
    let mut s = Script {
        advisors,
        rng: Rng(0xC0FF_EE00 + t as u64),
        next_seed: (t as u64) << 20,
        answers: Answers {
            calls: Vec::with_capacity(CALLS_PER_THREAD),
        },
    };
    let mut games: Vec<Game> = Vec::new();
    while s.answers.calls.len() + MAX_STEP_CALLS <= CALLS_PER_THREAD {
        if games.len() < GAMES_PER_THREAD {
            games.push(s.new_game());
            continue;
        }
        let k = s.rng.below(games.len());
        if s.step(&games[k]) {
            let finished = games.swap_remove(k);
            s.free_game(finished);
        }
    }
    // Top up to the exact count with status queries.
    while s.answers.calls.len() < CALLS_PER_THREAD {
        s.status(&games[0]);
    }
    for g in games {
        s.free_game(g);
    }
    s.answers.calls.truncate(CALLS_PER_THREAD);
    s.answers
}

fn counts(answers: &[Answers]) -> [usize; CALL_KINDS] {
    let mut counts = [0; CALL_KINDS];
    for a in answers {
        for (call, _) in &a.calls {
            counts[*call as usize] += 1;
        }
    }
    counts
}

#[test]
fn sixteen_threads_share_the_advisors_and_agree_with_one() {
    let dir = scratch("stress");
    let advisors = Advisors {
        sanma: Advisor::load(&write_model(&dir, "sanma", "sanma", 21)),
        four: Advisor::load(&write_model(&dir, "four", "four-player", 22)),
    };

    let start = Instant::now();
    let expected: Vec<Answers> = (0..THREADS).map(|t| run_script(t, &advisors)).collect();
    let single = start.elapsed();

    let start = Instant::now();
    let barrier = Barrier::new(THREADS);
    let got: Vec<Answers> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (advisors, barrier) = (&advisors, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    run_script(t, advisors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let threaded = start.elapsed();

    for (t, (got, want)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(got.calls.len(), CALLS_PER_THREAD);
        if let Some(i) = (0..CALLS_PER_THREAD).find(|&i| got.calls[i] != want.calls[i]) {
            let (call, wanted) = (got.calls[i].0, want.calls[i].0);
            if call == wanted {
                panic!(
                    "thread {t}, call {i} ({call:?}): the answer differs from the \
                     single-threaded run's"
                );
            }
            panic!("thread {t}, call {i}: {call:?} where the single-threaded run made {wanted:?}");
        }
    }

    let counts = counts(&expected);
    let kinds = [
        Call::GameNew,
        Call::GameFree,
        Call::Status,
        Call::IsOver,
        Call::SeatsToAct,
        Call::LegalActions,
        Call::LegalMask,
        Call::Observation,
        Call::Apply,
        Call::StartNextHand,
        Call::HandResult,
        Call::HandRecord,
        Call::Replay,
        Call::AdvisorAdvise,
        Call::EfficiencyAdvise,
        Call::LastError,
    ];
    assert_eq!(kinds.len(), CALL_KINDS);
    println!(
        "{THREADS} threads x {CALLS_PER_THREAD} calls: single-threaded {single:.2?}, \
         {THREADS} threads {threaded:.2?}"
    );
    for k in kinds {
        println!("  {k:?}: {}", counts[k as usize]);
        assert!(counts[k as usize] > 0, "the scripts never call {k:?}");
    }
    let total: usize = counts.iter().sum();
    assert_eq!(total, THREADS * CALLS_PER_THREAD);
    // Every thread both plays games to their end and leans on the shared advisors.
    for (t, a) in expected.iter().enumerate() {
        let advised = a
            .calls
            .iter()
            .filter(|(c, _)| *c == Call::AdvisorAdvise)
            .count();
        let over = a.calls.iter().filter(|(c, _)| *c == Call::IsOver).count();
        assert!(
            advised >= CALLS_PER_THREAD / 10,
            "thread {t}: {advised} advisor calls"
        );
        assert!(over >= 1, "thread {t}: no game finished");
    }
    let _ = std::fs::remove_dir_all(dir);
}
