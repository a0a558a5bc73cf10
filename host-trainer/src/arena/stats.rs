//! Cluster-robust estimates with 95 % confidence intervals.
//!
//! In duplicate play the hands that share a wall are strongly correlated (that is the
//! point: the luck of the wall cancels), so treating every hand as independent would
//! understate the error. Each statistic is therefore a ratio of per-cluster totals,
//! `R = Σ y_g / Σ x_g` over clusters `g` (one cluster = one wall with all its seat
//! rotations), and its standard error is the usual linearised (delta-method) cluster
//! estimate, after Cochran, *Sampling Techniques* (3rd ed., 1977), §6.4:
//! `se² = Σ (y_g − R x_g)² / (G (G − 1) x̄²)`.

use serde::Serialize;

/// Accumulates one ratio statistic cluster by cluster.
#[derive(Clone, Debug, Default)]
pub struct RatioEstimator {
    numerators: Vec<f64>,
    denominators: Vec<f64>,
}

/// A point estimate with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The ratio of totals; NaN-free: 0 when there is no data.
    pub mean: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
    /// Total denominator (hands, wins, …) behind the estimate.
    pub n: f64,
}

impl Estimate {
    /// Half-width of the interval.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// z for a two-sided 95 % normal interval.
const Z95: f64 = 1.959_963_984_540_054;

impl RatioEstimator {
    /// Adds one cluster's totals. Clusters with a zero denominator still count towards
    /// the number of clusters (they carry information: nothing happened there).
    pub fn push(&mut self, numerator: f64, denominator: f64) {
        self.numerators.push(numerator);
        self.denominators.push(denominator);
    }

    /// The ratio of totals with its cluster-robust 95 % interval.
    pub fn estimate(&self) -> Estimate {
        let clusters = self.numerators.len();
        let sum_y: f64 = self.numerators.iter().sum();
        let sum_x: f64 = self.denominators.iter().sum();
        if clusters == 0 || sum_x == 0.0 {
            return Estimate {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
                n: sum_x,
            };
        }
        let ratio = sum_y / sum_x;
        if clusters < 2 {
            return Estimate {
                mean: ratio,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
                n: sum_x,
            };
        }
        let g = clusters as f64;
        let mean_x = sum_x / g;
        let residual_sq: f64 = self
            .numerators
            .iter()
            .zip(&self.denominators)
            .map(|(y, x)| {
                let r = y - ratio * x;
                r * r
            })
            .sum();
        let se = (residual_sq / (g * (g - 1.0) * mean_x * mean_x)).sqrt();
        Estimate {
            mean: ratio,
            low: ratio - Z95 * se,
            high: ratio + Z95 * se,
            n: sum_x,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_zero() {
        let e = RatioEstimator::default().estimate();
        assert_eq!((e.mean, e.low, e.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn independent_bernoulli_matches_the_binomial_interval() {
        // One observation per cluster: the cluster estimate reduces to the ordinary
        // standard error of a proportion (with the n−1 correction).
        let mut est = RatioEstimator::default();
        let n = 1000;
        for i in 0..n {
            est.push(if i % 4 == 0 { 1.0 } else { 0.0 }, 1.0);
        }
        let e = est.estimate();
        assert!((e.mean - 0.25).abs() < 1e-12);
        let p: f64 = 0.25;
        let expected_se = (p * (1.0 - p) / (n as f64 - 1.0)).sqrt();
        assert!((e.half_width() - Z95 * expected_se).abs() < 1e-9, "{e:?}");
    }

    #[test]
    fn clustering_widens_the_interval_for_correlated_data() {
        // The same 0/1 outcomes, once spread over independent clusters and once
        // duplicated inside clusters of 3: the duplicated version must not look 3×
        // more precise.
        let outcomes: Vec<f64> = (0..300)
            .map(|i| ((i * 7919) % 5 == 0) as u8 as f64)
            .collect();
        let mut flat = RatioEstimator::default();
        let mut clustered = RatioEstimator::default();
        for &y in &outcomes {
            for _ in 0..3 {
                flat.push(y, 1.0);
            }
            clustered.push(3.0 * y, 3.0);
        }
        let (f, c) = (flat.estimate(), clustered.estimate());
        assert!((f.mean - c.mean).abs() < 1e-12);
        assert!(c.half_width() > 1.5 * f.half_width(), "{f:?} {c:?}");
    }
}
