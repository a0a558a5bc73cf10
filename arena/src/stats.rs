//! Cluster-robust estimates with 95 % confidence intervals.
//!
//! In duplicate play the hands that share a wall are strongly correlated (that is the
//! point: the luck of the wall cancels), so treating every hand as independent would
//! understate the error. Each statistic is therefore a ratio of per-cluster totals,
//! `R = Σ y_g / Σ x_g` over clusters `g` (one cluster = one wall with all its seat
//! rotations), and its standard error is the usual linearised (delta-method) cluster
//! estimate, after Cochran, *Sampling Techniques* (3rd ed., 1977), §6.4:
//! `se² = Σ (y_g − R x_g)² / (G (G − 1) x̄²)`.
//!
//! Two intervals are built on that standard error:
//!
//! - [`RatioEstimator::estimate`], the normal interval `R ± z·se`, for means and for
//!   paired differences (points per hand, winning turn, model minus bot), which may be
//!   negative.
//! - [`RatioEstimator::rate_estimate`], for rates (win, deal-in, draw, self-draw share):
//!   the Wilson score interval (Wilson, "Probable inference, the law of succession, and
//!   statistical inference", JASA 22, 1927), which stays inside [0, 1] and keeps its
//!   coverage near 0 and 1 where the normal interval fails (Agresti & Coull, "Approximate
//!   is better than 'exact' for interval estimation of binomial proportions", The
//!   American Statistician 52, 1998; Brown, Cai & DasGupta, Statistical Science 16,
//!   2001). The clustering enters through the effective sample size
//!   `n* = p̂(1 − p̂) / se²`, truncated at the nominal `n`, and `n* = n` when p̂ is 0 or 1
//!   (no variance to estimate a design effect from), after Korn & Graubard,
//!   "Confidence intervals for proportions with small expected number of positive
//!   counts estimated from survey data", Survey Methodology 24, 1998.

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

    /// Clusters, the ratio of totals, its cluster-robust standard error (None with
    /// fewer than two clusters) and the total denominator; None without data.
    fn moments(&self) -> Option<(f64, Option<f64>, f64)> {
        let clusters = self.numerators.len();
        let sum_y: f64 = self.numerators.iter().sum();
        let sum_x: f64 = self.denominators.iter().sum();
        if clusters == 0 || sum_x == 0.0 {
            return None;
        }
        let ratio = sum_y / sum_x;
        if clusters < 2 {
            return Some((ratio, None, sum_x));
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
        Some((ratio, Some(se), sum_x))
    }

    /// The ratio of totals with its cluster-robust normal 95 % interval (means and
    /// differences; unbounded with a single cluster).
    pub fn estimate(&self) -> Estimate {
        let n = self.denominators.iter().sum();
        match self.moments() {
            None => Estimate {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
                n,
            },
            Some((ratio, se, n)) => {
                let half = se.map_or(f64::INFINITY, |se| Z95 * se);
                Estimate {
                    mean: ratio,
                    low: ratio - half,
                    high: ratio + half,
                    n,
                }
            }
        }
    }

    /// A rate (numerators are successes out of the denominators) with the Wilson 95 %
    /// interval on the cluster-robust effective sample size: always within [0, 1] and
    /// containing the rate. With a single cluster the interval is [0, 1].
    pub fn rate_estimate(&self) -> Estimate {
        let n = self.denominators.iter().sum();
        let Some((ratio, se, n)) = self.moments() else {
            return Estimate {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
                n,
            };
        };
        let p = ratio.clamp(0.0, 1.0);
        let Some(se) = se else {
            return Estimate {
                mean: ratio,
                low: 0.0,
                high: 1.0,
                n,
            };
        };
        let binomial = p * (1.0 - p);
        let n_eff = if se > 0.0 && binomial > 0.0 {
            (binomial / (se * se)).min(n)
        } else {
            n
        };
        let (low, high) = wilson(p, n_eff);
        Estimate {
            mean: ratio,
            low: low.min(p),
            high: high.max(p),
            n,
        }
    }
}

/// The Wilson score 95 % interval of a proportion `p` observed on `n` trials (`n` may
/// be fractional: an effective sample size), clamped to [0, 1] against rounding.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
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

    fn rate(outcomes: &[(f64, f64)]) -> Estimate {
        let mut est = RatioEstimator::default();
        for &(y, x) in outcomes {
            est.push(y, x);
        }
        est.rate_estimate()
    }

    #[test]
    fn rare_rates_keep_their_interval_inside_zero_and_one() {
        // 300 walls of 3 seat-hands; 0, 1 or every deal-in.
        let walls = |hits: usize, each: f64| -> Vec<(f64, f64)> {
            (0..300)
                .map(|g| (if g < hits { each } else { 0.0 }, 3.0))
                .collect()
        };
        let none = rate(&walls(0, 1.0));
        assert_eq!((none.mean, none.low), (0.0, 0.0));
        // Wilson with p̂ = 0 on n = 900: upper end z² / (n + z²).
        let z2 = Z95 * Z95;
        assert!((none.high - z2 / (900.0 + z2)).abs() < 1e-12, "{none:?}");
        let one = rate(&walls(1, 1.0));
        assert!(
            one.low >= 0.0 && one.low <= one.mean && one.mean <= one.high,
            "{one:?}"
        );
        // The normal interval on the same data goes below zero.
        let mut normal = RatioEstimator::default();
        for (y, x) in walls(1, 1.0) {
            normal.push(y, x);
        }
        assert!(normal.estimate().low < 0.0);
        let all = rate(&walls(300, 3.0));
        assert_eq!((all.mean, all.high), (1.0, 1.0));
        assert!(all.low < 1.0 && all.low > 0.99, "{all:?}");
    }

    #[test]
    fn mid_rates_on_many_walls_agree_with_the_normal_interval() {
        // 2000 clusters of 3 correlated hands at about 1/3: Wilson on the effective
        // sample size and the normal interval differ by far less than their width.
        let mut est = RatioEstimator::default();
        for g in 0..2000u64 {
            let wins = ((g * 2654435761) % 4) as f64; // 0..=3 wins of 3
            est.push(wins, 3.0);
        }
        let (w, n) = (est.rate_estimate(), est.estimate());
        assert!((w.mean - n.mean).abs() < 1e-12);
        assert!(w.low <= w.mean && w.mean <= w.high);
        for (a, b) in [(w.low, n.low), (w.high, n.high)] {
            assert!((a - b).abs() < 0.02 * (n.high - n.low), "{w:?} vs {n:?}");
        }
    }

    #[test]
    fn a_single_cluster_rate_spans_zero_to_one() {
        let e = rate(&[(1.0, 3.0)]);
        assert_eq!((e.low, e.high), (0.0, 1.0));
        assert!((e.mean - 1.0 / 3.0).abs() < 1e-12);
        let e = rate(&[]);
        assert_eq!((e.mean, e.low, e.high), (0.0, 0.0, 0.0));
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
