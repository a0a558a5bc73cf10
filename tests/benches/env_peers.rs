//! Random-agent self-play speed of this engine's `Game` against `riichienv-core` 0.4.11's
//! Rust environment (pinned, feature `peer-bench`): hands per second per core, both
//! measured in this one binary, on one thread.
//!
//! Run: `cargo bench -p mahjong-tests --features peer-bench --bench env_peers`.
//! Settings: `BENCH_HANDS` (hands per pass, default 2000), `BENCH_REPEATS` (passes per
//! environment, alternating ours / peer, best one kept; default 5), `BENCH_ONLY`
//! (`ours` or `peer`: time one side only, e.g. under `perf record`).
//!
//! The agent is the same on both sides: at every decision a uniformly random choice
//! among the seat's legal actions, drawn with the engine's `Rng` (one generator per
//! seat, seeded per hand by `Rng::derive_seed`). Every hand is a fresh game dealt from
//! the hand's seed and played to its end; hands and decisions are counted. Time is the
//! thread's CPU time.
//!
//! Per decision:
//! - ours: `engine::bots::play_hand` under the `tenhou-4p` / `tenhou-sanma` presets:
//!   `Game::seats_to_act`, the seat's `Observation` brought up to date in place
//!   (`observation_next`), `Game::legal_actions`, the agent, the legality check and
//!   `Game::apply_into` (events into a reused buffer).
//! - riichienv-core: `GameState` (`game_mode` 0, one kyoku, the 4p game) or
//!   `GameState3P` (`game_mode` 3, one kyoku, red-five sanma), `GameRule::default_tenhou()`,
//!   `skip_mjai_logging = true` (no MJAI log is built, as we build none); for every seat
//!   in `active_players`: `get_observation` (which computes the legal actions and the
//!   seat's waits, and copies hands, melds and discards), a uniform pick from
//!   `legal_actions_method`, then one `step` with the map of all picks (`step`
//!   recomputes each actor's legal actions to validate).
//!
//! What is not equal:
//! - Riichi is two decisions in riichienv (`Riichi`, then the discard) and one in ours
//!   (`Riichi(tile)`); a claim window with several claimants is one `step` there and one
//!   `apply` per seat here (both count one decision per seat asked).
//! - The action lists differ: riichienv lists one discard per tile held (its tile ids
//!   are physical tiles, so a pair gives two entries), ours one per tile type (which
//!   copy of a five goes, red or not, is the engine's rule); chi lists differ likewise.
//!   So the uniform agents do not play alike and the decisions per hand differ; the
//!   table prints them so that the per-decision rates can be compared too.
//! - Both sides play Tenhou's rules with red fives, riichi, kans, nine terminals, kita
//!   (sanma) and the abortive draws; a uniform agent declares riichi, calls, declares
//!   nine terminals and passes on wins as often as anything else it may do, on both
//!   sides. Nagashi mangan counts as an exhaustive draw on both sides.
//! - Dealing differs (each side shuffles its own wall from the same seed number).
//!
//! Sanity checks abort the bench (they time nothing): every hand ends within a step
//! limit without an illegal action, and the counts are positive.

#[path = "../../engine/benches/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::hint::black_box;

use common::{env_or, thread_cpu_seconds};
use engine::bots::{play_hand, Agent, RandomBot};
use engine::game::{Action, DrawKind, Game, HandEndKind, LegalActions, Observation};
use engine::rng::Rng;
use engine::Rules;
use riichienv_core::action::Action as PeerAction;
use riichienv_core::rule::GameRule;
use riichienv_core::state::GameState;
use riichienv_core::state_3p::GameState3P;

const SEED: u64 = 0x35_0005;
/// Bug guard: no hand needs anywhere near this many steps.
const STEP_LIMIT: u32 = 5_000;

/// Counts over the hands of one pass.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Tally {
    hands: u64,
    decisions: u64,
    wins: u64,
    exhaustive: u64,
    abortive: u64,
}

impl Tally {
    fn end(&mut self, won: bool, exhaustive: bool) {
        self.hands += 1;
        if won {
            self.wins += 1;
        } else if exhaustive {
            self.exhaustive += 1;
        } else {
            self.abortive += 1;
        }
    }
}

fn wall_seed(hand: u64) -> u64 {
    Rng::derive_seed(SEED, hand)
}

/// The agents' generators of one hand, one per seat (the same on both sides).
fn seat_rngs(hand: u64) -> [Rng; 4] {
    core::array::from_fn(|s| Rng::new(Rng::derive_seed(wall_seed(hand), 1 + s as u64)))
}

/// The uniform agent on our side.
struct Uniform(Rng);

impl Agent for Uniform {
    fn act(&mut self, _obs: &Observation, legal: &LegalActions) -> Action {
        let list = legal.as_slice();
        let k = self.0.below(list.len() as u32) as usize;
        list.get(k).copied().unwrap_or(Action::Pass)
    }
}

/// Which environment and agent a pass runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Env {
    /// Ours with the uniform agent under a preset.
    Ours(&'static str),
    /// Ours with `engine::bots::RandomBot` (for reference; not in the ratio).
    OursRandomBot(&'static str),
    /// riichienv-core's four-player `GameState`.
    Peer4p,
    /// riichienv-core's `GameState3P`.
    Peer3p,
}

impl Env {
    fn label(self) -> String {
        match self {
            Env::Ours(p) => format!("ours {p} (uniform)"),
            Env::OursRandomBot(p) => format!("ours {p} (RandomBot)"),
            Env::Peer4p => "riichienv-core 4p (uniform)".into(),
            Env::Peer3p => "riichienv-core 3p (uniform)".into(),
        }
    }
}

fn ours_hand(rules: &Rules, hand: u64, random_bot: bool, t: &mut Tally) {
    let mut game = Game::new(*rules, wall_seed(hand))
        .unwrap_or_else(|e| panic!("ours: hand {hand} could not be dealt: {e}"));
    let rngs = seat_rngs(hand);
    let summary = if random_bot {
        let mut agents: [RandomBot; 4] = core::array::from_fn(|s| {
            RandomBot::new(Rng::derive_seed(wall_seed(hand), 1 + s as u64))
        });
        play_hand(&mut game, &mut agents)
    } else {
        let mut agents = rngs.map(Uniform);
        play_hand(&mut game, &mut agents)
    };
    let s = summary.unwrap_or_else(|e| panic!("ours: hand {hand} did not end: {e}"));
    t.decisions += s.steps as u64;
    let won = s.result.kind == HandEndKind::Win;
    // An abortive draw also ends with `ExhaustiveDraw`; the riichi result tells them
    // apart.
    let exhaustive = !won
        && game
            .riichi_result()
            .and_then(|r| r.draw)
            .is_none_or(|d| d == DrawKind::Exhaustive);
    t.end(won, exhaustive);
}

/// Plays one riichienv-core kyoku: `$state` is a fresh `GameState` / `GameState3P`.
macro_rules! peer_hand {
    ($state:expr, $hand:expr, $t:expr, $to_action:expr) => {{
        let mut st = $state;
        let mut rngs = seat_rngs($hand);
        let mut actions: HashMap<u8, PeerAction> = HashMap::new();
        let mut steps = 0u32;
        while !st.is_done {
            actions.clear();
            let active = st.active_players.clone();
            for pid in active {
                let legal = st.get_observation(pid).legal_actions_method();
                if legal.is_empty() {
                    continue;
                }
                let k = rngs[pid as usize % 4].below(legal.len() as u32) as usize;
                let chosen = legal.into_iter().nth(k).map($to_action);
                if let Some(a) = chosen {
                    actions.insert(pid, a);
                    $t.decisions += 1;
                }
            }
            st.step(&actions);
            steps += 1;
            assert!(
                steps < STEP_LIMIT,
                "riichienv-core: hand {} did not end",
                $hand
            );
        }
        assert!(
            st.last_error.is_none(),
            "riichienv-core: hand {}: {:?}",
            $hand,
            st.last_error
        );
        let won = !st.win_results.is_empty() || !st.last_win_results.is_empty();
        $t.end(won, st.wall.drawable_count == 0);
    }};
}

fn peer4_hand(hand: u64, t: &mut Tally) {
    peer_hand!(
        GameState::new(
            0,
            true,
            Some(wall_seed(hand)),
            0,
            GameRule::default_tenhou()
        ),
        hand,
        t,
        |a: PeerAction| a
    );
}

fn peer3_hand(hand: u64, t: &mut Tally) {
    peer_hand!(
        GameState3P::new(
            3,
            true,
            Some(wall_seed(hand)),
            0,
            GameRule::default_tenhou()
        ),
        hand,
        t,
        |a: riichienv_core::action::Action3P| a.0
    );
}

/// One pass of `hands` hands: thread CPU seconds and the counts.
fn pass(env: Env, hands: u64) -> (f64, Tally) {
    let mut t = Tally::default();
    let rules = match env {
        Env::Ours(p) | Env::OursRandomBot(p) => {
            Rules::preset(p).unwrap_or_else(|| panic!("unknown preset {p}"))
        }
        _ => Rules::tenhou_4p(),
    };
    let start = thread_cpu_seconds();
    for hand in 0..hands {
        match env {
            Env::Ours(_) => ours_hand(&rules, hand, false, &mut t),
            Env::OursRandomBot(_) => ours_hand(&rules, hand, true, &mut t),
            Env::Peer4p => peer4_hand(hand, &mut t),
            Env::Peer3p => peer3_hand(hand, &mut t),
        }
    }
    let secs = thread_cpu_seconds() - start;
    black_box(&t);
    assert_eq!(t.hands, hands, "{}: not every hand ended", env.label());
    assert!(
        t.decisions > 0 && secs > 0.0,
        "{}: no decisions or no time measured",
        env.label()
    );
    (secs, t)
}

/// Best of `repeats` alternating passes of each environment (the counts must be the
/// same in every pass: the play is deterministic).
fn race(envs: &[Env], hands: u64, repeats: usize) -> Vec<(f64, Tally)> {
    let mut best: Vec<(f64, Option<Tally>)> = vec![(f64::INFINITY, None); envs.len()];
    for _ in 0..repeats.max(1) {
        for (env, b) in envs.iter().zip(best.iter_mut()) {
            let (secs, t) = pass(*env, hands);
            assert!(
                b.1.is_none_or(|prev| prev == t),
                "{}: a pass played differently",
                env.label()
            );
            *b = (b.0.min(secs), Some(t));
        }
    }
    best.into_iter()
        .map(|(s, t)| (s, t.unwrap_or_default()))
        .collect()
}

fn row(env: Env, secs: f64, t: &Tally) {
    let n = t.hands as f64;
    let pct = |x: u64| 100.0 * x as f64 / n;
    println!(
        "{:<34} {:>10.0} {:>12.0} {:>9.1} {:>8.1} {:>6.1} {:>6.1} {:>6.1}",
        env.label(),
        n / secs,
        t.decisions as f64 / secs,
        1e6 * secs / n,
        t.decisions as f64 / n,
        pct(t.wins),
        pct(t.exhaustive),
        pct(t.abortive),
    );
}

fn main() {
    let hands = env_or("BENCH_HANDS", 2000) as u64;
    let repeats = env_or("BENCH_REPEATS", 5);
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    println!(
        "{hands} hands per pass, best of {repeats} alternating passes, one thread, thread CPU time"
    );
    println!(
        "{:<34} {:>10} {:>12} {:>9} {:>8} {:>6} {:>6} {:>6}",
        "environment", "hands/s", "decisions/s", "µs/hand", "dec/hand", "win%", "exh%", "abort%"
    );
    let cases = [
        (
            Env::Ours("tenhou-4p"),
            Env::Peer4p,
            Env::OursRandomBot("tenhou-4p"),
        ),
        (
            Env::Ours("tenhou-sanma"),
            Env::Peer3p,
            Env::OursRandomBot("tenhou-sanma"),
        ),
    ];
    for (ours, peer, bot) in cases {
        let envs: Vec<Env> = match only.as_str() {
            "ours" => vec![ours],
            "peer" => vec![peer],
            _ => vec![ours, peer, bot],
        };
        let res = race(&envs, hands, repeats);
        for (env, (secs, t)) in envs.iter().zip(&res) {
            row(*env, *secs, t);
        }
        if let [(so, to), (sp, tp), ..] = res.as_slice() {
            println!(
                "    ratio ours/peer: {:.2}x hands/s, {:.2}x decisions/s",
                sp / so,
                (to.decisions as f64 / so) / (tp.decisions as f64 / sp)
            );
        }
    }
}
