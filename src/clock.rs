//! UTC dates and times without a calendar crate.

use std::time::{SystemTime, UNIX_EPOCH};

/// Converts days since 1970-01-01 to (year, month, day), proleptic
/// Gregorian (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now() -> String {
    let secs = now_secs();
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Today's UTC date as `YYYY-MM-DD`.
pub fn today() -> String {
    now()[..10].to_string()
}

/// The names of the months, January first.
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The value of `text` if it is all ASCII digits (one to nine of them).
pub fn decimal(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 9 {
        return None;
    }
    text.bytes().try_fold(0u32, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

/// Returns true if and only if `s` is a real calendar date `YYYY-MM-DD`
/// (RFC 8141 Appendix A "Date").
pub fn is_valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| s.get(r).and_then(decimal);
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    year > 0 && days_in_month(year, month).is_some_and(|days| (1..=days).contains(&day))
}

/// How many days `month` (1 to 12) of `year` has in the proleptic
/// Gregorian calendar (ISO 8601): February has 29 in a year divisible by
/// 4, except a century year not divisible by 400. `None` for a month that
/// is not 1 to 12. The one calendar rule of the crate: RFC 8141 dates here,
/// and the dates inside identifiers (`rules::builtin`).
pub fn days_in_month(year: u32, month: u32) -> Option<u32> {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    Some(match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    })
}

/// The current year (UTC).
pub fn current_year() -> u32 {
    let (year, _, _) = civil_from_days(now_secs().div_euclid(86_400));
    u32::try_from(year).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn date_validation_rfc8141_appendix_a() {
        assert!(is_valid_date("2017-04-30"));
        assert!(is_valid_date("2024-02-29"));
        assert!(!is_valid_date("2023-02-29"));
        assert!(!is_valid_date("2017-4-30"));
        assert!(!is_valid_date("2017-13-01"));
        assert!(!is_valid_date("2017-04-31"));
        assert!(!is_valid_date("2017-04-3x"));
        assert!(!is_valid_date("TBD"));
    }

    #[test]
    fn gregorian_leap_years() {
        assert_eq!(days_in_month(2024, 2), Some(29));
        assert_eq!(days_in_month(2006, 2), Some(28));
        assert_eq!(days_in_month(1900, 2), Some(28), "a century not divisible by 400");
        assert_eq!(days_in_month(2000, 2), Some(29), "a century divisible by 400");
        assert_eq!(days_in_month(2006, 4), Some(30));
        assert_eq!(days_in_month(2006, 12), Some(31));
        assert_eq!(days_in_month(2006, 0), None);
        assert_eq!(days_in_month(2006, 13), None);
        assert!(current_year() >= 2025);
    }
}
