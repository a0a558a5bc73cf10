//! mjai logs written by PyPI `riichienv` (see `tests/data/logs/riichienv/README.md`)
//! replay exactly: every action legal, every win and every score delta equal.

use std::path::PathBuf;

use engine::Rules;
use host_trainer::logs::{self, mjai, replay, tenhou, Format};

fn replay_all(prefix: &str, preset: &str) -> (usize, usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/logs/riichienv");
    let rules = Rules::preset(preset).unwrap();
    let (mut games, mut wins) = (0, 0);
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
    }
    (games, wins)
}

#[test]
fn riichienv_four_player_logs_replay_exactly() {
    let (games, wins) = replay_all("4p-", "tenhou-4p");
    assert_eq!(games, 3);
    assert!(wins >= 10, "{wins}");
}

#[test]
fn riichienv_three_player_logs_replay_exactly() {
    let (games, wins) = replay_all("3p-", "tenhou-sanma");
    assert_eq!(games, 3);
    assert!(wins >= 10, "{wins}");
}
