//! Number formats shared by the report's sections: estimates with their intervals and
//! durations.

use arena::stats::Estimate;

/// A difference of rates in percentage points with its interval.
pub(super) fn pct_diff(e: &Estimate) -> String {
    format!(
        "{:+.2} pts ({:+.2} – {:+.2})",
        100.0 * e.mean,
        100.0 * e.low,
        100.0 * e.high
    )
}

/// A number with its interval.
pub(super) fn num(e: &Estimate) -> String {
    format!("{:+.3} ({:+.3} – {:+.3})", e.mean, e.low, e.high)
}

/// Seconds as minutes.
pub(super) fn minutes(s: f64) -> String {
    format!("{:.1} min", s / 60.0)
}
