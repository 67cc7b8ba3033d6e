//! Dates inside identifiers (fdc, newsml, pwid, gs1): whether the day a
//! date names exists, said in words. A grammar can give a month its 28 to
//! 31 days only by spelling out every leap year, and then a day that does
//! not exist reads as a wrong character; here it reads as what it is.

#[allow(unused_imports)]
use super::*;

use crate::clock::{MONTHS, days_in_month, decimal};

/// Why the date `written` (day `day` of `month` of `year`, Gregorian
/// calendar) names no day, if it names none: "20060231 is not a day:
/// February 2006 has 28 days".
pub(super) fn no_such_day(written: &str, year: u32, month: u32, day: u32) -> Option<String> {
    let Some(days) = days_in_month(year, month) else {
        return Some(format!("{written} is not a day: there is no month {month:02}"));
    };
    if day == 0 {
        return Some(format!("{written} is not a day: there is no day 00"));
    }
    (day > days).then(|| {
        format!(
            "{written} is not a day: {} {year} has {days} days",
            MONTHS[month as usize - 1]
        )
    })
}

/// The date `field` of an NSS (where it starts, and its text), whose
/// year, month and day are at `parts` in it, checked: a violation at the
/// day when that day does not exist.
fn check_date_field(
    field: Option<(usize, &str)>,
    parts: [std::ops::Range<usize>; 3],
) -> Result<(), Violation> {
    let Some((at, date)) = field else {
        return Ok(());
    };
    let value = |r: &std::ops::Range<usize>| date.get(r.clone()).and_then(decimal);
    let (Some(year), Some(month), Some(day)) = (value(&parts[0]), value(&parts[1]), value(&parts[2])) else {
        return Ok(());
    };
    match no_such_day(date, year, month, day) {
        Some(message) => Err(violation(at + parts[2].start, message)),
        None => Ok(()),
    }
}

/// The second `:`-separated field of `nss` and where it starts.
fn second_field(nss: &str) -> Option<(usize, &str)> {
    let at = nss.find(':')? + 1;
    let rest = &nss[at..];
    Some((at, &rest[..rest.find(':').unwrap_or(rest.len())]))
}

/// FDC (RFC 4198 section 2, Declaration of syntactic structure): "DateId
/// is a date in ISO 8601 Basic Format (CCYY[MM[DD]]), and MUST correspond
/// to a specific day"; NewsML (RFC 3085 section 2): "DateId is a date in
/// ISO 8601 Basic Format (CCYYMMDD)". Both grammars give the month 01 to
/// 12 and the day 01 to 31; a CCYYMMDD DateId, the second field, must also
/// name a day of its month (29 February only in leap years). FDC's CCYY
/// and CCYYMM default to the 1st, which always exists.
pub(super) fn check_basic_date_id(nss: &str) -> Result<(), Violation> {
    let field = second_field(nss).filter(|(_, date)| date.len() == 8);
    check_date_field(field, [0..4, 4..6, 6..8])
}

/// PWID (PWID registration 2022, Syntax): the archival time's utc-day is
/// "01-28, 01-29, 01-30, 01-31 based on month/year in UTC time".
pub(super) fn check_pwid(nss: &str) -> Result<(), Violation> {
    let field = nss
        .find(':')
        .and_then(|end| nss.get(end + 1..end + 11).map(|date| (end + 1, date)));
    check_date_field(field, [0..4, 5..7, 8..10])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_that_do_not_exist_are_said_so() {
        assert_eq!(
            no_such_day("20060231", 2006, 2, 31).as_deref(),
            Some("20060231 is not a day: February 2006 has 28 days")
        );
        assert_eq!(
            no_such_day("20050229", 2005, 2, 29).as_deref(),
            Some("20050229 is not a day: February 2005 has 28 days")
        );
        assert_eq!(no_such_day("20040229", 2004, 2, 29), None);
        assert_eq!(no_such_day("20000229", 2000, 2, 29), None);
        assert!(no_such_day("19000229", 1900, 2, 29).is_some());
        assert_eq!(
            no_such_day("2016-04-31", 2016, 4, 31).as_deref(),
            Some("2016-04-31 is not a day: April 2016 has 30 days")
        );
        assert!(
            no_such_day("20061301", 2006, 13, 1)
                .unwrap()
                .contains("no month 13")
        );
        assert!(no_such_day("20060100", 2006, 1, 0).unwrap().contains("no day 00"));
    }

    #[test]
    fn fdc_newsml_and_pwid_dates() {
        let v = check_basic_date_id("example.com:20060231:x").unwrap_err();
        assert_eq!(v.offset, 18);
        assert_eq!(v.message, "20060231 is not a day: February 2006 has 28 days");
        assert_eq!(
            check_basic_date_id("example.com:20050229:x").unwrap_err().offset,
            18
        );
        assert_eq!(check_basic_date_id("example.com:20040229:x"), Ok(()));
        assert_eq!(check_basic_date_id("example.com:200602:x"), Ok(()));
        assert_eq!(check_basic_date_id("example.com:2006:x:20060231"), Ok(()));
        assert_eq!(check_basic_date_id("example.com:1:x"), Ok(()));
        assert_eq!(
            check_basic_date_id("iptc.org:20010229:x:1").unwrap_err().offset,
            15
        );
        assert_eq!(check_basic_date_id("iptc.org:20000229:x:1"), Ok(()));
        assert_eq!(
            check_pwid("archive.org:2015-02-29Z:page:x:y").unwrap_err().offset,
            20
        );
        assert_eq!(check_pwid("archive.org:2016-02-29T10:08Z:page:x:y"), Ok(()));
        for odd in [
            "",
            ":",
            "a:",
            "a:2016",
            "a:2016-0\u{e9}-01Z",
            "a:\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
        ] {
            let _ = (check_basic_date_id(odd), check_pwid(odd));
        }
    }
}
