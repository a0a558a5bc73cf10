//! UTC wall-clock time without a date-time dependency (run ids, report stamps).

/// Seconds since the Unix epoch now (0 if the clock is before it).
pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `(year, month, day, hour, minute, second)` in UTC of a Unix time. Days to civil date
/// after Howard Hinnant's `civil_from_days` ("chrono-Compatible Low-Level Date
/// Algorithms", public-domain algorithm description).
pub fn civil_utc(unix_s: u64) -> (i64, i64, i64, u64, u64, u64) {
    let (days, rem) = ((unix_s / 86_400) as i64, unix_s % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    (year, month, day, rem / 3_600, rem % 3_600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::civil_utc;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_utc(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil_utc(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(civil_utc(1_796_047_709), (2026, 11, 30, 14, 8, 29));
    }
}
