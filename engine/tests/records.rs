//! Hand records: random hands are recorded, serialised (postcard and JSON), decoded,
//! replayed and compared with the original final state; corrupt records are refused.

mod common;

use common::{play_game, Stats};
use engine::game::{Action, Game, HandRecord, RecordError, RuleError, RECORD_MAX_BYTES};
use engine::rules::Rules;

fn check_round_trip(g: &Game) {
    let record = g.hand_record();
    let mut buf = [0u8; RECORD_MAX_BYTES];
    let bytes = record
        .to_postcard(&mut buf)
        .expect("postcard encode")
        .to_vec();
    let decoded = HandRecord::from_postcard(&bytes).expect("postcard decode");
    assert_eq!(decoded, record);
    let json = serde_json::to_string(&record).unwrap();
    let from_json: HandRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(from_json, record);
    let replayed = decoded.replay().expect("replay");
    assert_eq!(&replayed, g, "replayed state differs");
    assert_eq!(replayed.last_result(), g.last_result());
}

#[test]
fn random_hands_replay_exactly() {
    let games = if cfg!(debug_assertions) { 300 } else { 3_000 };
    for rules in [Rules::sanma(), Rules::four_player()] {
        let mut stats = Stats::default();
        let mut hands = 0;
        for seed in 0..games {
            play_game(rules, 1_000_000 + seed, false, &mut stats, |g| {
                check_round_trip(g);
                hands += 1;
            });
        }
        assert_eq!(hands, stats.hands);
    }
}

#[test]
fn mid_hand_records_replay_too() {
    let mut g = Game::new(Rules::four_player(), 9).unwrap();
    let mut rng = engine::rng::Rng::new(3);
    for _ in 0..40 {
        let (seat, a) = common::random_step(&g, &mut rng);
        g.apply(seat, a).unwrap();
        if g.phase() != engine::game::Phase::Turn && g.phase() != engine::game::Phase::Claim {
            break;
        }
    }
    check_round_trip(&g);
}

#[test]
fn corrupt_records_are_errors() {
    let mut g = Game::new(Rules::sanma(), 5).unwrap();
    let mut stats = Stats::default();
    let mut rng = engine::rng::Rng::new(1);
    while matches!(
        g.phase(),
        engine::game::Phase::Turn | engine::game::Phase::Claim
    ) {
        let (seat, a) = common::random_step(&g, &mut rng);
        g.apply(seat, a).unwrap();
    }
    let _ = &mut stats;
    let record = g.hand_record();
    let mut buf = [0u8; RECORD_MAX_BYTES];
    let bytes = record.to_postcard(&mut buf).unwrap().to_vec();
    // Truncated and garbage buffers.
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        assert!(matches!(
            HandRecord::from_postcard(&bytes[..cut]),
            Err(RecordError::Encoding(_))
        ));
    }
    let mut flipped = bytes.clone();
    for b in flipped.iter_mut().skip(40).step_by(7) {
        *b ^= 0x5A;
    }
    // Garbage either fails to decode or fails to replay; it never panics.
    if let Ok(r) = HandRecord::from_postcard(&flipped) {
        let _ = r.replay();
    }
    // A tile index outside 0..34 is refused at decode time.
    let json = serde_json::to_string(&record)
        .unwrap()
        .replacen("\"wall\":[", "\"wall\":[99,", 1);
    assert!(serde_json::from_str::<HandRecord>(&json).is_err());
    // An illegal action sequence.
    let mut bad = record.clone();
    bad.actions.insert(0, (1, Action::Tsumo)).unwrap();
    assert_eq!(
        bad.replay(),
        Err(RecordError::IllegalAction {
            index: 0,
            error: RuleError::NotYourTurn
        })
    );
    // A wall that is not the tile set.
    let mut bad = record.clone();
    bad.wall[0] = bad.wall[1];
    bad.wall[2] = bad.wall[1];
    if bad.wall[0] != record.wall[0] || bad.wall[2] != record.wall[2] {
        assert_eq!(
            bad.replay(),
            Err(RecordError::BadStart(RuleError::BadSetup))
        );
    }
    let mut bad = record.clone();
    bad.wall.pop();
    assert_eq!(
        bad.replay(),
        Err(RecordError::BadStart(RuleError::BadSetup))
    );
    let mut bad = record.clone();
    bad.dealer = 3;
    assert!(bad.replay().is_err());
    // Start scores that do not add up to the rules' total (found by the `record` fuzz
    // target: such a record replayed into a game that failed `check_invariants`; its
    // input is fuzz/regressions/record/scores-not-conserved).
    let mut bad = record.clone();
    bad.scores[0] += 1000;
    assert_eq!(
        bad.replay(),
        Err(RecordError::BadStart(RuleError::BadSetup))
    );
    let mut moved = record.clone();
    moved.scores[0] += 1000;
    moved.scores[1] -= 1000;
    assert!(
        moved.replay().is_ok(),
        "conserved scores may be distributed any way"
    );
    // Too small an output buffer.
    let mut small = [0u8; 8];
    assert!(matches!(
        record.to_postcard(&mut small),
        Err(RecordError::Encoding(_))
    ));
}

#[test]
fn game_records_replay_exactly() {
    use engine::game::{GameRecord, Phase};
    for (rules, seed) in [(Rules::sanma(), 11u64), (Rules::four_player(), 12)] {
        let mut g = Game::new(rules, seed).unwrap();
        let mut rec: GameRecord<4096> = GameRecord::new(rules, seed);
        let mut rng = engine::rng::Rng::new(seed);
        loop {
            match g.phase() {
                Phase::GameOver => break,
                Phase::HandOver => {
                    g.start_next_hand().unwrap();
                }
                _ => {
                    let (seat, a) = common::random_step(&g, &mut rng);
                    g.apply(seat, a).unwrap();
                    rec.push(seat, a).unwrap();
                }
            }
        }
        let bytes = postcard::to_allocvec(&rec).unwrap();
        let back: GameRecord<4096> = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.replay().unwrap(), g);
    }
}

/// Inputs the `record` fuzz target once crashed on (fuzz/regressions/record): each is
/// refused, or replays into a game that satisfies the invariants.
#[test]
fn fuzz_regressions_are_refused_or_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/record");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression inputs are committed") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        if let Ok(record) = HandRecord::from_postcard(&data) {
            if let Ok(game) = record.replay() {
                engine::game::check_invariants(&game).expect("a replayed record is valid");
            }
        }
        seen += 1;
    }
    assert!(seen > 0, "no regression inputs in {}", dir.display());
}
