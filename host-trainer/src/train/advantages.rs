//! The advantages and returns of an update's samples, computed in one place: GAE over
//! each hand (a trajectory whose only reward is its final one) with a critic's values —
//! the behaviour policy's as the samples are gathered, the oracle critic's when it
//! replaces them — and the Monte-Carlo returns and explained variances reported.

use super::ppo::{gae, Samples};

/// One kept trajectory's samples in an update: its first index, its length and its
/// final reward.
pub type Segment = (usize, usize, f32);

/// Writes the GAE advantages and returns of every segment into `samples.adv` and
/// `samples.ret`, with `values[i]` the critic's value of sample `i`. Each segment's
/// rewards are zero except the last, the hand's final reward.
pub fn fill_advantages(
    samples: &mut Samples,
    segments: &[Segment],
    values: &[f32],
    gamma: f64,
    lambda: f64,
) {
    for &(start, n, reward) in segments {
        let mut rewards = vec![0f32; n];
        if let Some(r) = rewards.last_mut() {
            *r = reward;
        }
        let (adv, ret) = gae(
            &rewards,
            &values[start..start + n],
            gamma as f32,
            lambda as f32,
        );
        samples.adv[start..start + n].copy_from_slice(&adv);
        samples.ret[start..start + n].copy_from_slice(&ret);
    }
}

/// Each sample's Monte-Carlo return: the hand's final reward discounted to the sample
/// (γ = 1 by default: the reward itself).
pub fn monte_carlo_returns(len: usize, segments: &[Segment], gamma: f64) -> Vec<f32> {
    let mut g = vec![0f32; len];
    for &(start, n, reward) in segments {
        for i in 0..n {
            g[start + i] = reward * (gamma as f32).powi((n - 1 - i) as i32);
        }
    }
    g
}

/// `1 − Var(R − V) / Var(R)` from the returns `R` and the raw advantages `R − V`
/// (0 when the returns do not vary).
pub fn explained_variance(ret: &[f32], adv: &[f32]) -> f64 {
    let var = |x: &mut dyn Iterator<Item = f64>| {
        let v: Vec<f64> = x.collect();
        let n = v.len().max(1) as f64;
        let mean = v.iter().sum::<f64>() / n;
        v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / n
    };
    let vr = var(&mut ret.iter().map(|&x| x as f64));
    if vr <= 0.0 {
        return 0.0;
    }
    1.0 - var(&mut adv.iter().map(|&x| x as f64)) / vr
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explained_variance_of_perfect_useless_and_constant_values() {
        let ret = [1.0f32, 2.0, 3.0, 4.0];
        assert_eq!(explained_variance(&ret, &[0.0; 4]), 1.0, "V = R");
        // V = mean(R): the residuals vary as much as R.
        let adv: Vec<f32> = ret.iter().map(|r| r - 2.5).collect();
        assert!(explained_variance(&ret, &adv).abs() < 1e-12);
        assert_eq!(explained_variance(&[2.0; 3], &[1.0; 3]), 0.0);
    }

    /// The gathering computed each trajectory's GAE on its own (rewards zero but the
    /// last); one pass over the segments of the whole update gives the same numbers.
    #[test]
    fn segments_get_each_hands_own_gae() {
        let values = [0.1f32, -0.3, 0.7, 0.2, 0.0, 0.5];
        let segments: [Segment; 3] = [(0, 3, 1.0), (3, 1, -0.5), (4, 2, 0.25)];
        let mut s = Samples {
            adv: vec![f32::NAN; 6],
            ret: vec![f32::NAN; 6],
            ..Samples::default()
        };
        fill_advantages(&mut s, &segments, &values, 0.97, 0.9);
        for &(start, n, reward) in &segments {
            let mut rewards = vec![0f32; n];
            rewards[n - 1] = reward;
            let (adv, ret) = gae(&rewards, &values[start..start + n], 0.97, 0.9);
            assert_eq!(&s.adv[start..start + n], &adv[..]);
            assert_eq!(&s.ret[start..start + n], &ret[..]);
        }
        // The last sample of a hand: advantage = reward − value.
        assert!((s.adv[2] - (1.0 - 0.7)).abs() < 1e-6);
        assert_eq!(
            monte_carlo_returns(6, &segments, 1.0),
            vec![1.0, 1.0, 1.0, -0.5, 0.25, 0.25]
        );
    }
}
