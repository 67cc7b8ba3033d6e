//! GS1 (the gs1 registration): the GS1 check digit of the keys that carry one, and the key of the namespace.

#[allow(unused_imports)]
use super::*;

use super::gs1_ai::{self, PRIMARY_KEYS};

/// True if and only if the last digit of `digits` is its GS1 mod-10 check
/// digit (weights 3 and 1 alternating from the right, check digit
/// excluded).
pub(super) fn gs1_check_digit_ok(digits: &[u8]) -> bool {
    let Some((&check, body)) = digits.split_last() else {
        return false;
    };
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| u32::from(d - b'0') * if i % 2 == 0 { 3 } else { 1 })
        .sum();
    (10 - sum % 10) % 10 == u32::from(check - b'0')
}

/// GS1 (IANA gs1 registration, Assignment, "Application Identifier
/// branch"), which the `ai:value` pairs of the AI branch must follow:
///
/// - "The first ai:value pair MUST contain a GS1 primary identification
///   key": one of [`PRIMARY_KEYS`];
/// - "Subsequent pairs MUST be valid key qualifiers or data attributes":
///   a GS1 AI ([`gs1_ai::AIS`]), and one that GS1 Digital Link takes only as a key
///   qualifier (such as (254)) only as a qualifier of its own keys;
/// - "Key qualifiers MUST appear in the order prescribed for that primary
///   key by the GS1 Digital Link URI Syntax standard";
/// - "Data attributes MUST follow all key qualifiers and MUST be ordered
///   lexically by their Application Identifier code";
/// - "The same Application Identifier code MUST NOT occur more than once"
///   (no GS1 specification makes an AI repeatable);
/// - "Every value MUST satisfy the length, character repertoire,
///   check-digit ... constraints defined for that Application Identifier":
///   its format in [`gs1_ai::AIS`], the value percent-decoded.
///
/// The association rules of the GS1 General Specifications (section 4.14:
/// which AIs require or exclude which) are not checked. The `gdd` and
/// `std` branches have none of this.
pub(super) fn check_gs1(nss: &str) -> Result<(), Violation> {
    let first = nss.split(':').next().unwrap_or_default();
    if first.eq_ignore_ascii_case("gdd") || first.eq_ignore_ascii_case("std") {
        return Ok(());
    }
    let mut pairs = Pairs { nss, at: 0 };
    let Some((key, _, key_value, key_value_at)) = pairs.next() else {
        return Ok(());
    };
    let Some(&(_, qualifiers)) = PRIMARY_KEYS.iter().find(|(k, _)| *k == key) else {
        return Err(violation(
            0,
            match gs1_ai::find(key) {
                Some(_) => format!(
                    "AI ({key}) is not a GS1 primary identification key, which the first pair must hold \
                     (such as (00) SSCC, (01) GTIN, (414) GLN)"
                ),
                None => format!(
                    "({}) is not a GS1 Application Identifier",
                    crate::urn::shortened(key)
                ),
            },
        ));
    };
    check_value(key, gs1_ai::find(key), key_value, key_value_at)?;
    // The key qualifiers so far: which alternative, and the place in it of
    // the last one; then the last data attribute.
    let mut last_qualifier: Option<(usize, usize, &str)> = None;
    let mut last_attribute: Option<&str> = None;
    for (ai, ai_at, value, value_at) in pairs {
        let Some(entry) = gs1_ai::find(ai) else {
            return Err(violation(
                ai_at,
                format_args!(
                    "({}) is not a GS1 Application Identifier",
                    crate::urn::shortened(ai)
                ),
            ));
        };
        let occurs_before = || nss[..ai_at].split(':').step_by(2).any(|earlier| earlier == ai);
        let place = qualifiers
            .iter()
            .enumerate()
            .find_map(|(alt, seq)| seq.iter().position(|q| *q == ai).map(|at| (alt, at)));
        if let Some((alt, at)) = place {
            // A key qualifier of this key.
            if let Some(attribute) = last_attribute {
                return Err(violation(
                    ai_at,
                    format_args!(
                        "key qualifier ({ai}) after the data attribute ({attribute}): the key qualifiers of \
                         ({key}) come first"
                    ),
                ));
            }
            if let Some((last_alt, last_at, last)) = last_qualifier {
                if occurs_before() {
                    return Err(violation(ai_at, format_args!("AI ({ai}) occurs twice")));
                }
                if last_alt != alt {
                    return Err(violation(
                        ai_at,
                        format_args!(
                            "({ai}) and ({last}) are alternative key qualifiers of ({key}), not both"
                        ),
                    ));
                }
                if at < last_at {
                    return Err(violation(
                        ai_at,
                        format_args!(
                            "key qualifier ({ai}) after ({last}): the key qualifiers of ({key}) are in the \
                             order {}",
                            qualifiers[alt].join(", ")
                        ),
                    ));
                }
            }
            last_qualifier = Some((alt, at, ai));
        } else {
            // A data attribute.
            if !entry.data_attribute {
                let of: Vec<&str> = PRIMARY_KEYS
                    .iter()
                    .filter(|(_, alts)| alts.iter().any(|seq| seq.contains(&ai)))
                    .map(|(k, _)| *k)
                    .collect();
                return Err(violation(
                    ai_at,
                    format_args!(
                        "AI ({ai}) is a key qualifier of ({}), not of ({key}), and no data attribute",
                        of.join(") or (")
                    ),
                ));
            }
            if ai == key || last_attribute.is_some_and(|last| ai <= last) && occurs_before() {
                return Err(violation(ai_at, format_args!("AI ({ai}) occurs twice")));
            }
            if let Some(last) = last_attribute.filter(|last| ai < *last) {
                return Err(violation(
                    ai_at,
                    format_args!(
                        "data attribute ({ai}) after ({last}): data attributes are in the order of their AI codes"
                    ),
                ));
            }
            last_attribute = Some(ai);
        }
        check_value(ai, Some(entry), value, value_at)?;
    }
    Ok(())
}

/// The `ai:value` pairs of an NSS: the AI, where it starts, the value and
/// where it starts.
struct Pairs<'a> {
    nss: &'a str,
    at: usize,
}

impl<'a> Iterator for Pairs<'a> {
    type Item = (&'a str, usize, &'a str, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.nss.get(self.at..)?;
        let ai_end = rest.find(':')?;
        let value_at = self.at + ai_end + 1;
        let value_len = self.nss[value_at..]
            .find(':')
            .unwrap_or(self.nss.len() - value_at);
        let item = (
            &rest[..ai_end],
            self.at,
            &self.nss[value_at..value_at + value_len],
            value_at,
        );
        self.at = value_at + value_len + 1;
        Some(item)
    }
}

/// The most characters an AI value has (the 90 of (8030) and (91)-(99)),
/// and more than that.
const MAX_VALUE: usize = 96;

/// Checks `value` (percent-encoded, at `value_at` in the NSS) against the
/// format of AI `ai` ([`gs1_ai::Ai::format`]): each component's characters
/// and length, then its checks.
fn check_value(ai: &str, entry: Option<&gs1_ai::Ai>, value: &str, value_at: usize) -> Result<(), Violation> {
    let Some(entry) = entry else {
        return Ok(());
    };
    // The decoded characters and where each starts in the NSS.
    let mut chars = [(0u8, 0usize); MAX_VALUE];
    let mut len = 0;
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() && len < MAX_VALUE {
        let (c, width) = match bytes[i] {
            b'%' => match value
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                Some(c) => (c, 3),
                None => (b'%', 1),
            },
            b => (b, 1),
        };
        chars[len] = (c, value_at + i);
        len += 1;
        i += width;
    }
    let (mut min, mut max, mut all_digits) = (0, 0, true);
    for c in entry.format.split(' ').map(Component::read) {
        max += c.max;
        if !c.optional {
            min += c.min;
        }
        all_digits &= c.kind == b'N';
    }
    let unit = if all_digits { "digits" } else { "characters" };
    let found = if i < bytes.len() {
        format!("more than {len}")
    } else {
        len.to_string()
    };
    let mut pos = 0;
    for c in entry.format.split(' ').map(Component::read) {
        if pos == len && c.optional {
            break;
        }
        let take = c.max.min(len - pos);
        if take < c.min {
            let end = value_at + value.len();
            return Err(violation(
                end,
                if len < min {
                    let size = if min == max {
                        min.to_string()
                    } else {
                        format!("at least {min}")
                    };
                    format!("the value of AI ({ai}) is {size} {unit}, found {found}")
                } else {
                    format!("the value of AI ({ai}) ends inside a part of {} {unit}", c.min)
                },
            ));
        }
        let part = &chars[pos..pos + take];
        for &(b, at) in part {
            if !c.admits(b) {
                return Err(violation(at, c.refusal(ai, b)));
            }
        }
        c.check(ai, part)?;
        pos += take;
    }
    if pos < len || i < bytes.len() {
        let at = if pos < len { chars[pos].1 } else { value_at + i };
        let size = if min == max {
            max.to_string()
        } else {
            format!("at most {max}")
        };
        return Err(violation(
            at,
            format_args!("the value of AI ({ai}) is {size} {unit}, found {found}"),
        ));
    }
    Ok(())
}

/// One component of an AI's format ([`gs1_ai::Ai::format`]).
struct Component<'a> {
    kind: u8,
    min: usize,
    max: usize,
    optional: bool,
    checks: &'a str,
}

impl<'a> Component<'a> {
    fn read(text: &'a str) -> Component<'a> {
        let optional = text.starts_with('[');
        let text = text.trim_start_matches('[');
        let (head, checks) = text.split_once(',').unwrap_or((text, ""));
        let head = head.trim_end_matches(']');
        let kind = head.as_bytes().first().copied().unwrap_or(b'X');
        let (min, max) = match head[1..].strip_prefix("..") {
            Some(max) => (1, max.parse().unwrap_or(0)),
            None => {
                let n = head[1..].parse().unwrap_or(0);
                (n, n)
            }
        };
        Component {
            kind,
            min,
            max,
            optional,
            checks,
        }
    }

    /// Whether the character `b` may stand in this component: a digit,
    /// or one of GS1's AI character sets 82, 39 or 64 (GS1 General
    /// Specifications section 7.11, figures 7.11-1 to 7.11-3).
    fn admits(&self, b: u8) -> bool {
        match self.kind {
            b'N' => b.is_ascii_digit(),
            b'Y' => b.is_ascii_digit() || b.is_ascii_uppercase() || matches!(b, b'#' | b'-' | b'/'),
            b'Z' => b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'='),
            _ => b.is_ascii_alphanumeric() || matches!(b, b'!' | b'"' | b'%'..=b'/' | b':'..=b'?' | b'_'),
        }
    }

    fn refusal(&self, ai: &str, b: u8) -> String {
        let set = match self.kind {
            b'N' => return format!("expected a digit in the value of AI ({ai})"),
            b'Y' => "39",
            b'Z' => "64",
            _ => "82",
        };
        format!(
            "{} is not in GS1's character set {set} (the value of AI ({ai}))",
            crate::urn::describe_byte(b)
        )
    }

    /// The component's checks, on its characters (all admitted).
    fn check(&self, ai: &str, part: &[(u8, usize)]) -> Result<(), Violation> {
        let text: String = part.iter().map(|&(b, _)| b as char).collect();
        let number = |r: std::ops::Range<usize>| text.get(r).and_then(crate::clock::decimal);
        for check in self.checks.split(',').filter(|c| !c.is_empty()) {
            let fail = |at: usize, message: String| Err(violation(part[at].1, message));
            match check {
                "csum" if !gs1_check_digit_ok(text.as_bytes()) => {
                    return fail(
                        part.len() - 1,
                        format!("wrong GS1 check digit in the value of AI ({ai})"),
                    );
                }
                "zero" if text != "0" => {
                    return fail(0, format!("the first digit of the value of AI ({ai}) is 0"));
                }
                "yymmd0" | "yymmdd" | "yyyymmdd" => {
                    let y = if check == "yyyymmdd" { 4 } else { 2 };
                    let (Some(year), Some(month), Some(day)) =
                        (number(0..y), number(y..y + 2), number(y + 2..y + 4))
                    else {
                        continue;
                    };
                    let year = if y == 4 { year } else { gs1_century(year) };
                    if day == 0 && check == "yymmd0" && (1..=12).contains(&month) {
                        continue;
                    }
                    if let Some(why) = date::no_such_day(&text, year, month, day) {
                        let at = if (1..=12).contains(&month) { y + 2 } else { y };
                        let form = if y == 4 { "YYYYMMDD" } else { "YYMMDD" };
                        return fail(at, format!("{why} (AI ({ai}) is a date {form})"));
                    }
                }
                "hhmi" | "hh" | "mi" | "ss" => {
                    let parts: &[(usize, u32)] = match check {
                        "hhmi" => &[(0, 23), (2, 59)],
                        "hh" => &[(0, 23)],
                        _ => &[(0, 59)],
                    };
                    for &(at, top) in parts {
                        if number(at..at + 2).is_some_and(|n| n > top) {
                            return fail(
                                at,
                                format!("{text} is not a time {} (AI ({ai}))", check.to_ascii_uppercase()),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The year of a GS1 date's YY (GS1 General Specifications section 7.12,
/// "Determination of century in dates": the year within 49 years before
/// and 50 years after the current one). Only 00 can change whether
/// February has 29 days: 2000 is a leap year, 2100 is not.
fn gs1_century(yy: u32) -> u32 {
    let now = crate::clock::current_year();
    let (century, current) = (now - now % 100, now % 100);
    let year = century + yy;
    if yy >= current + 51 {
        year - 100
    } else if yy + 50 <= current {
        year + 100
    } else {
        year
    }
}

/// GS1 equivalence (IANA gs1 registration, Syntax): the literals `gdd`,
/// `bie`, `bdt`, `cl` and `std` are case-insensitive; assigned values are
/// not.
pub(super) fn normalize_gs1(nss: &str) -> Option<String> {
    let mut parts = nss.splitn(3, ':');
    let first = parts.next()?;
    if first.eq_ignore_ascii_case("std") {
        return Some(format!("std{}", &nss[3..]));
    }
    if !first.eq_ignore_ascii_case("gdd") {
        return None;
    }
    match parts.next() {
        Some(second)
            if ["bie", "bdt", "cl"]
                .iter()
                .any(|l| second.eq_ignore_ascii_case(l)) =>
        {
            Some(format!(
                "gdd:{}{}",
                second.to_ascii_lowercase(),
                &nss[4 + second.len()..]
            ))
        }
        _ => Some(format!("gdd{}", &nss[3..])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gs1_check_digits() {
        // The registration's example; GS1's published example GTIN and GLN
        // (GS1 General Specifications, GS1 Digital Link examples).
        assert_eq!(check("gs1", "01:09506000134352:10:ABC123:17:250101"), Ok(()));
        assert_eq!(check("gs1", "414:9506000134352"), Ok(()));
        assert_eq!(check("gs1", "00:106141412345678908"), Ok(()));
        assert_eq!(check("gs1", "gdd:bie:TradeItem"), Ok(()));
        assert_eq!(check("gs1", "std:genspec:25.0"), Ok(()));
        assert_eq!(check("gs1", "8004:ABC-1"), Ok(()), "AI 8004 has no check digit");
        let wrong = check("gs1", "01:09506000134353").unwrap_err();
        assert_eq!(wrong.offset, 16);
        assert_eq!(check("gs1", "01:9506000134352").unwrap_err().offset, 16);
        assert_eq!(check("gs1", "01:0950600013435A").unwrap_err().offset, 16);
        assert_eq!(
            check("gs1", "00:106141412345678908:02:0950600013435")
                .unwrap_err()
                .offset,
            38
        );
        assert_eq!(
            check("gs1", "01:09506000134352:414:9506000134353")
                .unwrap_err()
                .offset,
            34
        );
    }

    /// The registration's Application Identifier branch, rule by rule.
    #[test]
    fn gs1_ai_branch_rules() {
        let fails = |nss: &str| check("gs1", nss).unwrap_err();
        // The first pair holds a primary identification key.
        let v = fails("10:ABC123");
        assert_eq!(v.offset, 0);
        assert!(
            v.message.contains("not a GS1 primary identification key"),
            "{}",
            v.message
        );
        assert_eq!(fails("99:foo").offset, 0);
        assert!(
            fails("23:foo")
                .message
                .contains("not a GS1 Application Identifier")
        );
        for key in [
            "00:106141412345678908",
            "253:95060001343520",
            "8003:095060001343520ABC",
            "8013:X",
        ] {
            assert_eq!(check("gs1", key), Ok(()), "{key}");
        }
        // No AI twice.
        let v = fails("01:09506000134352:10:ABC123:10:DEF");
        assert_eq!((v.offset, v.message.as_str()), (28, "AI (10) occurs twice"));
        assert_eq!(fails("01:09506000134352:17:250101:17:250102").offset, 28);
        assert_eq!(fails("01:09506000134352:01:09506000134352").offset, 18);
        // Key qualifiers in the order 22, 10, 21, or 235 alone, before the
        // data attributes, which are in the order of their codes.
        assert_eq!(
            check("gs1", "01:09506000134352:22:A:10:B:21:C:11:250101:17:250101"),
            Ok(())
        );
        assert_eq!(check("gs1", "01:09506000134352:21:C:17:250101"), Ok(()));
        assert_eq!(check("gs1", "01:09506000134352:235:X"), Ok(()));
        let v = fails("01:09506000134352:17:250101:10:ABC123");
        assert_eq!(v.offset, 28);
        assert!(
            v.message.contains("after the data attribute (17)"),
            "{}",
            v.message
        );
        assert_eq!(fails("01:09506000134352:21:C:10:B").offset, 23);
        assert_eq!(fails("01:09506000134352:10:B:235:X").offset, 23);
        assert_eq!(fails("01:09506000134352:17:250101:11:250101").offset, 28);
        assert_eq!(check("gs1", "01:09506000134352:3103:000750:400:X"), Ok(()));
        // A Digital Link qualifier only qualifies its own keys.
        assert!(
            fails("01:09506000134352:254:X")
                .message
                .contains("of (414), not of (01)")
        );
        assert_eq!(check("gs1", "414:9506000134352:254:X"), Ok(()));
        assert_eq!(
            check("gs1", "00:106141412345678908:02:09506000134352:10:X:37:10"),
            Ok(())
        );
        // Values: length, character set, dates (YYMMDD, DD 00 allowed).
        assert_eq!(fails("01:09506000134352:10:ABCDEFGHIJKLMNOPQRSTU").offset, 41);
        assert_eq!(check("gs1", "01:09506000134352:10:ABCDEFGHIJKLMNOPQRST"), Ok(()));
        assert_eq!(check("gs1", "01:09506000134352:10:A%2FB%3A%25"), Ok(()));
        assert!(
            fails("01:09506000134352:10:a~b")
                .message
                .contains("character set 82")
        );
        assert_eq!(fails("01:09506000134352:10:a%40b").offset, 22);
        let v = fails("01:09506000134352:17:251301");
        assert_eq!(v.offset, 23);
        assert!(v.message.contains("no month 13"), "{}", v.message);
        assert_eq!(check("gs1", "01:09506000134352:17:251200"), Ok(()));
        assert_eq!(check("gs1", "01:09506000134352:17:240229"), Ok(()));
        let v = fails("01:09506000134352:17:250229");
        assert_eq!(v.offset, 25);
        assert!(v.message.contains("February 2025 has 28 days"), "{}", v.message);
        assert_eq!(fails("01:09506000134352:17:2501011").offset, 27);
        assert_eq!(fails("01:09506000134352:17:25010").offset, 26);
        assert_eq!(fails("01:09506000134352:7003:2501012460").offset, 29);
        assert_eq!(fails("8003:195060001343520").offset, 5);
        assert!(fails("8010:abc").message.contains("character set 39"));
        assert_eq!(check("gs1", "8010:ABC-%23/1:8011:12"), Ok(()));
    }

    #[test]
    fn gs1_formats_are_read_as_written() {
        // Every format of the table reads as components of known kinds.
        for a in gs1_ai::AIS {
            assert_eq!(a.first.len(), a.last.len(), "{}", a.first);
            for c in a.format.split(' ').map(Component::read) {
                assert!(matches!(c.kind, b'N' | b'X' | b'Y' | b'Z'), "{}", a.format);
                assert!(c.min >= 1 && c.max >= c.min && c.max <= MAX_VALUE, "{}", a.format);
            }
        }
        assert!(gs1_ai::find("3103").is_some() && gs1_ai::find("3106").is_none());
        assert!(gs1_ai::find("95").is_some() && gs1_ai::find("23").is_none());
        for (key, _) in PRIMARY_KEYS {
            assert!(gs1_ai::find(key).is_some(), "{key}");
        }
    }

    #[test]
    fn gs1_literals_are_case_insensitive() {
        assert_eq!(
            normalize("gs1", "GDD:BIE:TradeItem").unwrap(),
            "gdd:bie:TradeItem"
        );
        assert_eq!(normalize("gs1", "Gdd:Cl:X:Y").unwrap(), "gdd:cl:X:Y");
        assert_eq!(normalize("gs1", "STD:genspec:25.0").unwrap(), "std:genspec:25.0");
        assert_eq!(normalize("gs1", "STD").unwrap(), "std");
        assert_eq!(normalize("gs1", "gdd:Other:X").unwrap(), "gdd:Other:X");
        assert_eq!(normalize("gs1", "10:ABC"), None, "AI values keep their case");
    }
}
