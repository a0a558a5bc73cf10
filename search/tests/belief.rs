//! The belief's evidence is exact for the player it models: the true hands of
//! efficiency bots never contradict it.

use engine::belief::{evidence_log_likelihood, OpponentModel, ShantenPrior};
use search::belief_eval::record_positions;

#[test]
fn true_hands_of_efficiency_bots_satisfy_the_evidence() {
    for name in ["sanma", "four-player"] {
        let rules = engine::Rules::preset(name).unwrap();
        let mut model = OpponentModel::new(ShantenPrior::empty());
        model.ukeire_deviation = 1.0;
        let positions = record_positions(&rules, 400, 3).unwrap();
        let mut bad = 0;
        for p in &positions {
            for s in 0..rules.players {
                if s == p.obs.seat {
                    continue;
                }
                let ll = evidence_log_likelihood(&p.obs, &model, s, &p.truth[s as usize]);
                if ll != 0.0 {
                    bad += 1;
                }
            }
        }
        assert_eq!(bad, 0, "{name}: {bad} true hands contradict the evidence");
    }
}
