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

/// The discards since an opponent's last tedashi are all evidence about its current
/// hand: with the tsumogiri marks, a uniformly dealt hand is never more likely than
/// without them (every decision adds a factor ≤ 1), and often less; true hands stay
/// at likelihood 1 (the test above).
#[test]
fn tsumogiri_runs_add_evidence_about_the_current_hand() {
    use engine::belief::{weigh_hypotheses, Evidence, Hypothesis, Proposal};
    use engine::rng::Rng;
    let rules = engine::Rules::preset("sanma").unwrap();
    let model = OpponentModel::new(ShantenPrior::empty());
    let mut uniform = model.clone();
    uniform.proposal = Proposal::Uniform;
    uniform.evidence = Evidence::NONE;
    let positions = record_positions(&rules, 300, 9).unwrap();
    let (mut lower, mut runs) = (0, 0);
    let mut rng = Rng::new(1);
    for p in &positions {
        let mut unmarked = p.obs.clone();
        for row in unmarked.discards.iter_mut() {
            for d in row.iter_mut() {
                d.tsumogiri = false;
            }
        }
        let mut hyp = [Hypothesis::default(); 8];
        let mut w = [0.0; 8];
        weigh_hypotheses(&p.obs, &uniform, &mut rng, &mut hyp, &mut w).unwrap();
        for s in (0..rules.players).filter(|&s| s != p.obs.seat) {
            let row = &p.obs.discards[s as usize];
            if row.len() >= 2 && row[row.len() - 1].tsumogiri {
                runs += 1;
            }
            for h in &hyp {
                let with = evidence_log_likelihood(&p.obs, &model, s, &h.hands[s as usize]);
                let without = evidence_log_likelihood(&unmarked, &model, s, &h.hands[s as usize]);
                assert!(with <= without + 1e-12, "{with} > {without}");
                if with < without - 1e-9 {
                    lower += 1;
                }
            }
        }
    }
    assert!(runs > 50, "only {runs} positions with a tsumogiri run");
    assert!(
        lower > 100,
        "the tsumogiri runs lowered only {lower} likelihoods"
    );
}
