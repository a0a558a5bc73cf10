//! Bad input never panics: every committed log, cut short and mutated at random
//! (characters deleted, digits changed, tokens swapped), gives a log or an error from
//! the readers and a result or a mismatch from the replay.

use std::path::PathBuf;

use engine::rng::Rng;
use host_trainer::logs::{self, replay};

fn files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/logs");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !p.to_string_lossy().ends_with(".md"))
        .collect();
    out.sort();
    out
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut b: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len() as u32) as usize;
        match rng.below(4) {
            0 => {
                b.remove(i);
            }
            1 if b[i].is_ascii_digit() => b[i] = char::from(b'0' + rng.below(10) as u8),
            2 => b.truncate(i),
            _ => b.insert(i, ['"', ',', ']', '9', 'p', '}'][rng.below(6) as usize]),
        }
    }
    b.into_iter().collect()
}

#[test]
fn mutated_logs_give_errors_not_panics() {
    let mut rng = Rng::new(7);
    let (mut read, mut replayed) = (0, 0);
    for path in files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for _ in 0..200 {
            let bad = mutate(&text, &mut rng);
            if let Ok(log) = logs::read(&bad, None, None) {
                read += 1;
                if replay::replay_log(&log).is_ok() {
                    replayed += 1;
                }
            }
        }
    }
    // Some mutations are harmless (a digit changed to itself, a name edited).
    assert!(read >= replayed, "{read} {replayed}");
}
