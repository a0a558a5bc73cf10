//! Running means and paired differences over rollout worlds.

/// Mean and 95 % half-width of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Mean {
    /// Sample size.
    pub n: usize,
    /// Sample mean (0 for an empty sample).
    pub mean: f64,
    /// Standard error of the mean (0 below two values).
    pub se: f64,
}

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

impl Mean {
    /// The mean of `xs`.
    pub fn of(xs: impl Iterator<Item = f64> + Clone) -> Mean {
        let (mut n, mut sum) = (0usize, 0.0);
        for x in xs.clone() {
            n += 1;
            sum += x;
        }
        if n == 0 {
            return Mean::default();
        }
        let mean = sum / n as f64;
        let ss: f64 = xs.map(|x| (x - mean) * (x - mean)).sum();
        let se = if n > 1 {
            (ss / (n - 1) as f64 / n as f64).sqrt()
        } else {
            0.0
        };
        Mean { n, mean, se }
    }

    /// Half-width of the 95 % interval.
    pub fn half_width(&self) -> f64 {
        Z95 * self.se
    }

    /// `mean − z·se`.
    pub fn lower(&self, z: f64) -> f64 {
        self.mean - z * self.se
    }

    /// `mean + z·se`.
    pub fn upper(&self, z: f64) -> f64 {
        self.mean + z * self.se
    }
}

/// The paired difference `a[i] − b[i]` over worlds `i` (common random numbers: both
/// candidates were played in the same determinized world with the same agents).
pub fn paired(a: &[f64], b: &[f64]) -> Mean {
    Mean::of(a.iter().zip(b).map(|(x, y)| x - y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_standard_error() {
        let m = Mean::of([1.0, 2.0, 3.0, 4.0].into_iter());
        assert_eq!(m.n, 4);
        assert!((m.mean - 2.5).abs() < 1e-12);
        // s.d. sqrt(5/3), se = sd / 2.
        assert!((m.se - (5.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        assert_eq!(Mean::of(std::iter::empty()).n, 0);
        let p = paired(&[3.0, 5.0, 7.0], &[1.0, 3.0, 5.0]);
        assert!((p.mean - 2.0).abs() < 1e-12 && p.se == 0.0);
    }
}
