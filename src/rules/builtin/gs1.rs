//! GS1 (the gs1 registration): the GS1 check digit of the keys that carry one, and the key of the namespace.

#[allow(unused_imports)]
use super::*;

/// GS1 Application Identifiers whose value is a fixed number of digits
/// ending in a GS1 mod-10 check digit (GS1 General Specifications, section
/// 3.2 and 7.9.1): SSCC, GTIN, GSIN, GLN and GSRN.
pub(super) const GS1_CHECKED_AIS: &[(&str, usize)] = &[
    ("00", 18),
    ("01", 14),
    ("02", 14),
    ("402", 17),
    ("410", 13),
    ("411", 13),
    ("412", 13),
    ("413", 13),
    ("414", 13),
    ("415", 13),
    ("416", 13),
    ("417", 13),
    ("8017", 18),
    ("8018", 18),
];

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
/// branch": every value must satisfy its AI's length and check-digit
/// rules): in `ai:value` pairs, the values of the AIs in
/// [`GS1_CHECKED_AIS`] must have their length and check digit. The `gdd`
/// and `std` branches carry no check digits.
pub(super) fn check_gs1(nss: &str) -> Result<(), Violation> {
    let first = nss.split(':').next().unwrap_or_default();
    if first.eq_ignore_ascii_case("gdd") || first.eq_ignore_ascii_case("std") {
        return Ok(());
    }
    let mut offset = 0;
    let mut parts = nss.split(':');
    while let (Some(ai), Some(value)) = (parts.next(), parts.next()) {
        let value_at = offset + ai.len() + 1;
        offset = value_at + value.len() + 1;
        let Some(&(_, len)) = GS1_CHECKED_AIS.iter().find(|(code, _)| *code == ai) else {
            continue;
        };
        if let Some(i) = value.bytes().position(|b| !b.is_ascii_digit()) {
            return Err(violation(
                value_at + i,
                format!("expected a digit: the value of GS1 AI ({ai}) is {len} digits"),
            ));
        }
        if value.len() != len {
            return Err(violation(
                value_at + value.len().min(len),
                format!(
                    "the value of GS1 AI ({ai}) is {len} digits, found {}",
                    value.len()
                ),
            ));
        }
        if !gs1_check_digit_ok(value.as_bytes()) {
            return Err(violation(
                value_at + len - 1,
                format!("wrong GS1 check digit in the value of AI ({ai})"),
            ));
        }
    }
    Ok(())
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
        assert_eq!(check("gs1", "10:X:01:0950600013435").unwrap_err().offset, 21);
        assert_eq!(check("gs1", "10:X:414:9506000134353").unwrap_err().offset, 21);
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
