//! Built-in checkers and normalizers for identifier systems whose rules
//! need arithmetic (check digits) that no grammar can express.

/// A violation found by a checker: offset into the NSS and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Byte offset in the NSS.
    pub offset: usize,
    /// What was expected there.
    pub message: String,
}

fn violation(offset: usize, message: impl Into<String>) -> Violation {
    Violation {
        offset,
        message: message.into(),
    }
}

/// The names of the built-in checkers.
pub const CHECKERS: &[&str] = &["isbn", "issn", "isni", "lei", "nbn-de"];

/// The names of the built-in normalizers.
pub const NORMALIZERS: &[&str] = &["isbn", "issn", "upper-check-x"];

/// Runs the checker `name` on an NSS.
///
/// # Errors
///
/// The first violation; an unknown checker name is a violation at 0.
pub fn check(name: &str, nss: &str) -> Result<(), Violation> {
    match name {
        "isbn" => check_isbn(nss),
        "issn" => check_issn(nss),
        "isni" => check_isni(nss),
        "lei" => check_lei(nss),
        "nbn-de" => check_nbn_de(nss),
        other => Err(violation(0, format!("unknown built-in checker '{other}'"))),
    }
}

/// Runs the normalizer `name` on the NSS part of an equivalence key;
/// returns `None` when it does not apply (the key stays as it is).
pub fn normalize(name: &str, nss: &str) -> Option<String> {
    match name {
        "isbn" => normalize_isbn(nss),
        "issn" => normalize_issn(nss),
        "upper-check-x" => nss.strip_suffix('x').map(|body| format!("{body}X")),
        _ => None,
    }
}

/// The digits of an identifier with optional hyphens: (value, offset) for
/// each digit or check character, or the first bad byte.
fn digits_with_hyphens(nss: &str, last_may_be_x: bool) -> Result<Vec<(u32, usize)>, Violation> {
    let bytes = nss.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => out.push((u32::from(b - b'0'), i)),
            b'X' | b'x' if last_may_be_x && i + 1 == bytes.len() => out.push((10, i)),
            b'-' if i > 0 && i + 1 < bytes.len() && bytes[i - 1] != b'-' => {}
            _ => {
                return Err(violation(
                    i,
                    format!("expected a digit or a single inner hyphen, found '{}'", b as char),
                ));
            }
        }
    }
    Ok(out)
}

/// ISBN (ISO 2108; URN form RFC 3187 / RFC 8254 and the 2017 registration):
/// ISBN-13 with a mod-10 check digit (weights 1, 3), or ISBN-10 with a
/// mod-11 check character (weights 10..1, `X` = 10); optional hyphens.
fn check_isbn(nss: &str) -> Result<(), Violation> {
    let digits = digits_with_hyphens(nss, true)?;
    match digits.len() {
        10 => {
            let sum: u32 = digits
                .iter()
                .enumerate()
                .map(|(i, (d, _))| d * (10 - i as u32))
                .sum();
            if let Some((_, at)) = digits[..9].iter().find(|(d, _)| *d == 10) {
                return Err(violation(*at, "'X' may only be the check character"));
            }
            if sum % 11 != 0 {
                let (_, at) = digits[9];
                let want = (11 - (sum - digits[9].0) % 11) % 11;
                let want = if want == 10 {
                    "X".to_string()
                } else {
                    want.to_string()
                };
                return Err(violation(
                    at,
                    format!("wrong ISBN-10 check character: expected {want}"),
                ));
            }
            Ok(())
        }
        13 => {
            if let Some((_, at)) = digits.iter().find(|(d, _)| *d == 10) {
                return Err(violation(*at, "an ISBN-13 has no 'X'"));
            }
            let prefix = digits[0].0 * 100 + digits[1].0 * 10 + digits[2].0;
            if prefix != 978 && prefix != 979 {
                return Err(violation(digits[0].1, "expected the ISBN-13 prefix 978 or 979"));
            }
            let sum: u32 = digits
                .iter()
                .enumerate()
                .map(|(i, (d, _))| d * if i % 2 == 0 { 1 } else { 3 })
                .sum();
            if sum % 10 != 0 {
                let partial = sum - digits[12].0;
                let want = (10 - partial % 10) % 10;
                return Err(violation(
                    digits[12].1,
                    format!("wrong ISBN-13 check digit: expected {want}"),
                ));
            }
            Ok(())
        }
        n => Err(violation(
            nss.len(),
            format!("expected 10 (ISBN-10) or 13 (ISBN-13) digits, found {n}"),
        )),
    }
}

/// ISBN equivalence (2017 registration, "Rules for Lexical Equivalence"):
/// remove hyphens; an ISBN-10 becomes its ISBN-13 (978 + first nine digits
/// + new mod-10 check digit).
fn normalize_isbn(nss: &str) -> Option<String> {
    let digits: String = nss.chars().filter(|c| *c != '-').collect();
    if digits.len() == 10 {
        let body = format!("978{}", &digits[..9]);
        let sum: u32 = body
            .bytes()
            .enumerate()
            .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
            .sum();
        Some(format!("{body}{}", (10 - sum % 10) % 10))
    } else {
        Some(digits.to_ascii_uppercase())
    }
}

/// ISSN (ISO 3297; URN form RFC 3044 / RFC 8254 and the IANA template):
/// `4DIGIT ["-"] 3DIGIT check`, check = DIGIT / "X", mod 11 with weights
/// 8..2. The template asks for `x` to be read as `X`.
fn check_issn(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    let mut digits = Vec::with_capacity(8);
    for (i, &b) in bytes.iter().enumerate() {
        let pos = digits.len();
        match b {
            b'0'..=b'9' if pos < 8 => digits.push((u32::from(b - b'0'), i)),
            b'X' | b'x' if pos == 7 => digits.push((10, i)),
            b'-' if pos == 4 && i == 4 => {}
            _ => {
                let what = if pos == 4 && i == 4 {
                    "a digit or '-'"
                } else if pos == 7 {
                    "a digit or 'X'"
                } else {
                    "a digit"
                };
                return Err(violation(i, format!("expected {what} (ISSN is NNNN-NNNC)")));
            }
        }
    }
    if digits.len() != 8 {
        return Err(violation(
            bytes.len(),
            "expected 8 characters (ISSN is NNNN-NNNC)",
        ));
    }
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, (d, _))| d * (8 - i as u32))
        .sum();
    if sum % 11 != 0 {
        let partial: u32 = digits[..7]
            .iter()
            .enumerate()
            .map(|(i, (d, _))| d * (8 - i as u32))
            .sum();
        let want = (11 - partial % 11) % 11;
        let want = if want == 10 {
            "X".to_string()
        } else {
            want.to_string()
        };
        return Err(violation(
            digits[7].1,
            format!("wrong ISSN check character: expected {want}"),
        ));
    }
    Ok(())
}

/// ISSN equivalence (IANA template): `x` becomes `X`, the hyphen may be
/// omitted: the key is `NNNN-NNNC`.
fn normalize_issn(nss: &str) -> Option<String> {
    let compact: String = nss
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_ascii_uppercase();
    (compact.len() == 8).then(|| format!("{}-{}", &compact[..4], &compact[4..]))
}

/// ISNI (ISO 27729; IANA isni registration): 15 digits and a check
/// character (DIGIT or "X", a lower-case "x" tolerated), ISO 7064 MOD 11-2.
fn check_isni(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(16) {
        let ok = b.is_ascii_digit() || (i == 15 && (b == b'X' || b == b'x'));
        if !ok {
            let what = if i == 15 { "a digit or 'X'" } else { "a digit" };
            return Err(violation(
                i,
                format!("expected {what} (ISNI is 15 digits and a check character)"),
            ));
        }
    }
    if bytes.len() != 16 {
        return Err(violation(
            bytes.len().min(16),
            "expected 16 characters (ISNI is 15 digits and a check character)",
        ));
    }
    let total = bytes[..15]
        .iter()
        .fold(0u32, |t, b| (t + u32::from(b - b'0')) * 2);
    let want = (12 - total % 11) % 11;
    let got = if bytes[15].is_ascii_digit() {
        u32::from(bytes[15] - b'0')
    } else {
        10
    };
    if want != got {
        let want = if want == 10 {
            "X".to_string()
        } else {
            want.to_string()
        };
        return Err(violation(
            15,
            format!("wrong ISNI check character: expected {want} (ISO 7064 MOD 11-2)"),
        ));
    }
    Ok(())
}

/// LEI (ISO 17442; IANA lei registration): 18 upper-case letters or digits
/// and two check digits, ISO 7064 MOD 97-10 (letters count 10 to 35).
fn check_lei(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(20) {
        let ok = if i >= 18 {
            b.is_ascii_digit()
        } else {
            b.is_ascii_digit() || b.is_ascii_uppercase()
        };
        if !ok {
            let what = if i >= 18 {
                "a check digit"
            } else {
                "an upper-case letter or a digit"
            };
            return Err(violation(i, format!("expected {what} (LEI is 20 characters)")));
        }
    }
    if bytes.len() != 20 {
        return Err(violation(bytes.len().min(20), "expected 20 characters (LEI)"));
    }
    let remainder = bytes.iter().fold(0u32, |r, &b| {
        let v = if b.is_ascii_digit() {
            u32::from(b - b'0')
        } else {
            u32::from(b - b'A') + 10
        };
        if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        }
    });
    if remainder != 1 {
        return Err(violation(18, "wrong LEI check digits (ISO 7064 MOD 97-10)"));
    }
    Ok(())
}

/// The German National Library's character values for the `urn:nbn:de`
/// check digit ("Beschreibung des Algorithmus zur Berechnung der
/// URN-Prüfziffer", persistent-identifier.de).
fn nbn_de_value(c: u8) -> Option<u32> {
    Some(match c.to_ascii_lowercase() {
        b'0'..=b'8' => u32::from(c - b'0') + 1,
        b'9' => 41,
        b'a' => 18,
        b'b' => 14,
        b'c' => 19,
        b'd' => 15,
        b'e' => 16,
        b'f' => 21,
        b'g' => 22,
        b'h' => 23,
        b'i' => 24,
        b'j' => 25,
        b'k' => 42,
        b'l' => 26,
        b'm' => 27,
        b'n' => 13,
        b'o' => 28,
        b'p' => 29,
        b'q' => 31,
        b'r' => 12,
        b's' => 32,
        b't' => 33,
        b'u' => 11,
        b'v' => 34,
        b'w' => 35,
        b'x' => 36,
        b'y' => 37,
        b'z' => 38,
        b'+' => 49,
        b':' => 17,
        b'_' => 43,
        b'-' => 39,
        b'.' => 47,
        b'/' => 45,
        _ => return None,
    })
}

/// The check digit of `urn:nbn:de:...` (without it): the character values
/// are written one after another as a string of digits; each digit is
/// multiplied by its position (from 1) and the products summed; the sum is
/// divided by the last digit; the last digit of the integer quotient is
/// the check digit.
pub fn nbn_de_check_digit(urn_without_check: &str) -> Option<u32> {
    let mut digits = Vec::with_capacity(urn_without_check.len() * 2);
    for b in urn_without_check.bytes() {
        let v = nbn_de_value(b)?;
        if v >= 10 {
            digits.push(v / 10);
        }
        digits.push(v % 10);
    }
    let sum: u32 = digits.iter().enumerate().map(|(i, d)| d * (i as u32 + 1)).sum();
    let last = *digits.last()?;
    (last != 0).then(|| (sum / last) % 10)
}

/// `urn:nbn:de` check digit: the NSS (`de:...`) ends in the digit computed
/// over the whole URN before it. Other countries' NBNs are not checked.
fn check_nbn_de(nss: &str) -> Result<(), Violation> {
    let is_de = nss.len() > 3 && nss[..3].eq_ignore_ascii_case("de:");
    if !is_de {
        return Ok(());
    }
    let Some(last) = nss.bytes().last().filter(u8::is_ascii_digit) else {
        return Err(violation(
            nss.len().saturating_sub(1),
            "expected the urn:nbn:de check digit at the end",
        ));
    };
    let body = format!("urn:nbn:{}", &nss[..nss.len() - 1]);
    match nbn_de_check_digit(&body) {
        Some(want) if want == u32::from(last - b'0') => Ok(()),
        Some(want) => Err(violation(
            nss.len() - 1,
            format!("wrong urn:nbn:de check digit: expected {want}"),
        )),
        None => {
            let at = nss.bytes().position(|b| nbn_de_value(b).is_none()).unwrap_or(0);
            Err(violation(
                at,
                "a character the urn:nbn:de check digit cannot be computed over",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isbn_published_examples() {
        // The 2017 ISBN registration's examples 1 and 2.
        assert_eq!(check("isbn", "951-0-18435-7"), Ok(()));
        assert_eq!(check("isbn", "978-951-0-18435-6"), Ok(()));
        assert_eq!(normalize("isbn", "951-0-18435-7").unwrap(), "9789510184356");
        assert_eq!(check("isbn", "951-0-18435-8").unwrap_err().offset, 12);
        assert!(
            check("isbn", "978-951-0-18435-7")
                .unwrap_err()
                .message
                .contains("expected 6")
        );
        assert!(check("isbn", "977-951-0-18435-6").is_err());
        assert!(check("isbn", "951--0-18435-7").is_err());
        assert!(check("isbn", "12345").unwrap_err().message.contains("found 5"));
    }

    #[test]
    fn issn_published_examples() {
        // The ISSN registration's examples 1 and 2.
        assert_eq!(check("issn", "0317-8471"), Ok(()));
        assert_eq!(check("issn", "1050-124X"), Ok(()));
        assert_eq!(check("issn", "1050124x"), Ok(()));
        assert_eq!(normalize("issn", "1050124x").unwrap(), "1050-124X");
        assert!(
            check("issn", "0317-8472")
                .unwrap_err()
                .message
                .contains("expected 1")
        );
        assert!(check("issn", "0317-847").is_err());
        assert!(check("issn", "03178-471").is_err());
    }

    #[test]
    fn isni_and_lei_published_examples() {
        // The ISNI registration's example (Elvis Presley) and the LEI
        // registration's example.
        assert_eq!(check("isni", "0000000121241960"), Ok(()));
        assert_eq!(check("isni", "0000000121241961").unwrap_err().offset, 15);
        assert!(check("isni", "000000012124196").is_err());
        assert_eq!(check("lei", "7LTWFZYICNSX8D621K86"), Ok(()));
        assert!(check("lei", "7LTWFZYICNSX8D621K87").is_err());
        assert_eq!(check("lei", "7ltwFZYICNSX8D621K86").unwrap_err().offset, 1);
    }

    #[test]
    fn nbn_de_published_example() {
        // The worked example of the German National Library: PS = 4027,
        // Q = 805, check digit 5.
        assert_eq!(nbn_de_check_digit("urn:nbn:de:gbv:089-332175294"), Some(5));
        assert_eq!(check("nbn-de", "de:gbv:089-3321752945"), Ok(()));
        assert_eq!(check("nbn-de", "DE:GBV:089-3321752945"), Ok(()));
        assert_eq!(check("nbn-de", "de:gbv:089-3321752946").unwrap_err().offset, 20);
        assert_eq!(
            check("nbn-de", "fi-fe19981001"),
            Ok(()),
            "other countries are not checked"
        );
    }
}
