//! mjai logs written by PyPI `riichienv` (see `tests/data/logs/riichienv/README.md`)
//! replay exactly: every action legal, every win and every score delta equal. Some of
//! them give up a red five where a plain one was held, which replays only with the
//! copy named (`Game::apply_with_copy`).

use std::path::PathBuf;

use engine::game::FiveCopy;
use engine::Rules;
use host_trainer::logs::{self, mjai, replay, tenhou, Format, GameLog};

/// Decisions of `log` that give up a red five where the engine's default
/// (`Game::apply`) would give up a plain one.
fn red_departures(log: &GameLog) -> usize {
    let mut n = 0;
    for (i, k) in log.kyokus.iter().enumerate() {
        replay::replay_kyoku(&log.rules, i, k, |game, j, seat, action| {
            let red = k.steps.get(j).is_some_and(|s| {
                replay::action_of(s) == Some(action) && replay::copy_of(s) == FiveCopy::Red
            });
            if red && game.default_copy(seat, action) == FiveCopy::Plain {
                n += 1;
            }
        })
        .unwrap();
    }
    n
}

/// Replays every committed log of `prefix`: (games, wins, games with a red departure).
fn replay_all(prefix: &str, preset: &str) -> (usize, usize, usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/logs/riichienv");
    let rules = Rules::preset(preset).unwrap();
    let (mut games, mut wins, mut red) = (0, 0, 0);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths.iter().filter(|p| {
        let name = p.file_name().unwrap().to_string_lossy();
        name.starts_with(prefix) && name.ends_with(".mjson")
    }) {
        let log = logs::read_file(path, Some(Format::Mjai), Some(rules)).unwrap();
        let sum = replay::replay_log(&log).unwrap_or_else(|m| panic!("{}: {m}", path.display()));
        assert!(
            sum.kyokus >= 4,
            "{}: a hanchan has at least four hands",
            path.display()
        );
        // Every hand's deltas were given by the log and checked.
        assert!(log
            .kyokus
            .iter()
            .all(|k| k.outcome.as_ref().is_some_and(|o| o.deltas.is_some())));
        // The guessed rules are the same (a South round, the hands' player count).
        assert_eq!(
            mjai::read(&std::fs::read_to_string(path).unwrap(), None)
                .unwrap()
                .rules,
            rules
        );
        // And the log survives conversion to Tenhou JSON.
        let back = tenhou::read(&tenhou::write(&log).to_string(), None).unwrap();
        replay::replay_log(&back).unwrap_or_else(|m| panic!("{} via tenhou: {m}", path.display()));
        games += 1;
        wins += sum.wins;
        red += usize::from(red_departures(&log) > 0);
    }
    (games, wins, red)
}

#[test]
fn riichienv_four_player_logs_replay_exactly() {
    let (games, wins, red) = replay_all("4p-", "tenhou-4p");
    assert_eq!(games, 5);
    assert!(wins >= 10, "{wins}");
    assert!(
        red >= 2,
        "{red} games give up a red five where a plain one was held"
    );
}

#[test]
fn riichienv_three_player_logs_replay_exactly() {
    let (games, wins, red) = replay_all("3p-", "tenhou-sanma");
    assert_eq!(games, 5);
    assert!(wins >= 10, "{wins}");
    assert!(
        red >= 2,
        "{red} games give up a red five where a plain one was held"
    );
}
