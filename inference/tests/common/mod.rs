//! Shared test helpers: observations from real self-play.
#![allow(dead_code)]

use engine::bots::{play_hand, Agent, EfficiencyBot, RandomBot};
use engine::game::{Action, Game, LegalActions, Observation};
use engine::rules::Rules;

/// Decides with one of the engine's bots and records every decision point.
struct Recorder<'a> {
    random: Option<RandomBot>,
    log: &'a std::cell::RefCell<Vec<(Observation, Vec<Action>)>>,
}

impl Agent for Recorder<'_> {
    fn act(&mut self, obs: &Observation, legal: &LegalActions) -> Action {
        self.log
            .borrow_mut()
            .push((obs.clone(), legal.as_slice().to_vec()));
        match &mut self.random {
            Some(r) => r.act(obs, legal),
            None => EfficiencyBot.act(obs, legal),
        }
    }
}

/// At least `n` decision points (observation and the game's legal actions) from
/// seeded self-play: four-player and sanma hands, random and efficiency bots mixed.
pub fn self_play(n: usize) -> Vec<(Observation, Vec<Action>)> {
    self_play_with(n, &[Rules::sanma(), Rules::four_player()])
}

/// [`self_play`] on games of `presets` in turn.
pub fn self_play_with(n: usize, presets: &[Rules]) -> Vec<(Observation, Vec<Action>)> {
    let log = std::cell::RefCell::new(Vec::new());
    let mut seed = 0u64;
    while log.borrow().len() < n {
        seed += 1;
        let rules = presets[seed as usize % presets.len()];
        let mut game = Game::new(rules, seed).expect("game");
        let mut agents: Vec<Recorder> = (0..4u64)
            .map(|i| Recorder {
                random: ((i + seed) % 2 == 0).then(|| RandomBot::new(seed * 10 + i)),
                log: &log,
            })
            .collect();
        for _ in 0..2 {
            play_hand(&mut game, &mut agents).expect("hand");
            if game.is_over() || game.start_next_hand().is_err() {
                break;
            }
        }
    }
    log.into_inner()
}

/// A fresh scratch directory under cargo's per-test temp dir.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
