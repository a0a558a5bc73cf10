//! Smoothing of noisy series for the charts.
//!
//! An exponential moving average whose weight depends on the gap between successive
//! x values, `α_i = 1 − exp(−(x_i − x_{i−1}) / τ)`: the continuous-time form of the
//! EMA (the discrete EMA with `α = 1 − e^{−1/τ}` when the points are one unit apart;
//! see e.g. Eckner, "Algorithms for Unevenly Spaced Time Series: Moving Averages and
//! Other Rolling Operators", 2019). With a
//! time constant τ in x units, two runs evaluated at different intervals are smoothed
//! alike, which a per-point weight would not do.
//!
//! A one-sided average lags the data by about τ, which would shift "when did the run
//! cross the threshold" to the right. The charts therefore use [`ema_zero_phase`]: the
//! average run forwards and then backwards over its own output, whose lags cancel (the
//! forward–backward filtering of `filtfilt`; Gustafsson, "Determining the initial
//! states in forward-backward filtering", IEEE Trans. Signal Processing 44(4), 1996).

/// The time-aware EMA of `points` (sorted by x), starting at the first value. `tau ≤ 0`
/// or non-finite returns the points unchanged.
pub fn ema(points: &[(f64, f64)], tau: f64) -> Vec<(f64, f64)> {
    if !(tau > 0.0 && tau.is_finite()) {
        return points.to_vec();
    }
    let mut out = Vec::with_capacity(points.len());
    let mut state: Option<(f64, f64)> = None;
    for &(x, y) in points {
        let s = match state {
            None => y,
            Some((px, ps)) => {
                // |gap|: the backward pass walks x downwards.
                let alpha = 1.0 - (-(x - px).abs() / tau).exp();
                ps + alpha * (y - ps)
            }
        };
        state = Some((x, s));
        out.push((x, s));
    }
    out
}

/// [`ema`] forwards, then backwards over the result: no lag, twice the smoothing.
pub fn ema_zero_phase(points: &[(f64, f64)], tau: f64) -> Vec<(f64, f64)> {
    let reversed: Vec<(f64, f64)> = ema(points, tau).into_iter().rev().collect();
    let mut out = ema(&reversed, tau);
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_approaches_its_new_level_geometrically() {
        // 0 for x < 10, 1 from x = 10 on, one unit apart: after the step the average
        // is 1 − (1 − α)^(j+1) with α = 1 − e^{−1/τ}.
        let tau = 4.0;
        let pts: Vec<(f64, f64)> = (0..40)
            .map(|i| (i as f64, (i >= 10) as u8 as f64))
            .collect();
        let s = ema(&pts, tau);
        let alpha = 1.0 - (-1.0f64 / tau).exp();
        for (i, &(x, y)) in s.iter().enumerate() {
            assert_eq!(x, i as f64);
            let expected = if i < 10 {
                0.0
            } else {
                1.0 - (1.0 - alpha).powi(i as i32 - 9)
            };
            assert!((y - expected).abs() < 1e-12, "i = {i}: {y} vs {expected}");
        }
        // Monotone, below the raw value, and within 1 % after about 4.6 τ.
        assert!(s.windows(2).all(|w| w[1].1 >= w[0].1));
        assert!(s[10 + 19].1 > 0.99 && s[10 + 19].1 < 1.0);
    }

    #[test]
    fn uneven_gaps_weigh_by_distance() {
        // A gap of 2 moves the average as far as two steps of 1 with the same value.
        let tau = 3.0;
        let one = ema(&[(0.0, 0.0), (2.0, 1.0)], tau);
        let two = ema(&[(0.0, 0.0), (1.0, 1.0), (2.0, 1.0)], tau);
        assert!((one[1].1 - two[2].1).abs() < 1e-12);
    }

    #[test]
    fn the_zero_phase_average_does_not_lag_a_ramp() {
        // On y = x the forward average settles about τ below the data; forwards and
        // backwards, the interior follows the ramp.
        let tau = 5.0;
        let pts: Vec<(f64, f64)> = (0..200).map(|i| (i as f64, i as f64)).collect();
        let fwd = ema(&pts, tau);
        let zp = ema_zero_phase(&pts, tau);
        let lag = pts[100].1 - fwd[100].1;
        assert!(lag > 4.0 && lag < 6.0, "forward lag {lag}");
        for i in 60..140 {
            assert!((zp[i].1 - pts[i].1).abs() < 1e-3, "i = {i}: {}", zp[i].1);
            assert_eq!(zp[i].0, pts[i].0);
        }
        assert_eq!(ema_zero_phase(&pts[..1], tau), pts[..1].to_vec());
    }

    #[test]
    fn no_smoothing_without_a_time_constant() {
        let pts = [(0.0, 3.0), (1.0, -1.0)];
        assert_eq!(ema(&pts, 0.0), pts.to_vec());
        assert_eq!(ema(&pts, f64::NAN), pts.to_vec());
        assert!(ema(&[], 2.0).is_empty());
    }
}
