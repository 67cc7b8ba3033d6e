//! ISBN (ISO 2108): the ISBN-10 and ISBN-13 check digits and the ISBN-13 key (the isbn registration, RFC 3187, RFC 8254).

#[allow(unused_imports)]
use super::*;

/// The digits of an ISBN: up to 13.
pub(super) type IsbnDigits = Digits<13>;

/// The digits of an identifier with optional hyphens: (value, offset) for
/// each digit or check character (the first 13 kept, all counted), or the
/// first bad byte.
pub(super) fn digits_with_hyphens(
    nss: &str,
    last_may_be_x: bool,
    out: &mut IsbnDigits,
) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => out.push((u32::from(b - b'0'), i)),
            b'X' | b'x' if last_may_be_x && i + 1 == bytes.len() => out.push((10, i)),
            // An ISBN-10 complete with its check character X, and more
            // after it (a text's '.', a stray '-'): the fault is what
            // follows, not the X the registration allows there.
            b'X' | b'x' if last_may_be_x && out.count() == 9 && isbn10_sum_with_x(out) => {
                return Err(violation(
                    i + 1,
                    format_args!(
                        "unexpected '{}' after the ISBN-10's check character '{}': an ISBN ends with its check character",
                        nss[i + 1..].chars().next().unwrap_or('?'),
                        b as char
                    ),
                ));
            }
            b'-' if i > 0 && i + 1 < bytes.len() && bytes[i - 1] != b'-' => {}
            _ => {
                return Err(violation(
                    i,
                    format_args!(
                        "expected a digit or a single inner hyphen, found {}",
                        crate::urn::describe_byte(b)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Whether nine digits read so far and a check character X (10) make an
/// ISBN-10 (mod 11, weights 10 to 1).
fn isbn10_sum_with_x(read: &IsbnDigits) -> bool {
    let sum: u32 = read
        .kept()
        .iter()
        .zip((2..=10).rev())
        .map(|((d, _), w)| d * w)
        .sum();
    (sum + 10).is_multiple_of(11)
}

/// ISBN (ISO 2108; URN form RFC 3187 / RFC 8254 and the 2017 registration):
/// ISBN-13 with a mod-10 check digit (weights 1, 3), or ISBN-10 with a
/// mod-11 check character (weights 10..1, `X` = 10); optional hyphens.
pub(super) fn check_isbn(nss: &str) -> Result<(), Violation> {
    // An ISBN-13 written as thirteen digits, the usual form in a URN, is
    // summed at once.
    if is_plain_isbn13(nss.as_bytes()) {
        return Ok(());
    }
    // Most ISBNs met are well formed: one pass says so, and says so too of
    // the commonest refusal (a count of digits that is neither 10 nor 13,
    // found at the end); only another refusal is walked again for where
    // and why.
    if let Some(read) = read_isbn(nss.as_bytes(), true)
        && !nss.ends_with('x')
    {
        if !matches!(read.count, 10 | 13) {
            return Err(wrong_count(nss, read.count));
        }
        if read_is_valid(&read) {
            return Ok(());
        }
    }
    why_not_isbn(nss)
}

/// Thirteen ASCII digits, with the prefix 978 or 979 and a right mod-10
/// check digit (weights 1, 3): what [`read_is_valid`] accepts of an NSS
/// without hyphens of that length, in one loop with no reading kept.
fn is_plain_isbn13(nss: &[u8]) -> bool {
    let Ok(digits) = <&[u8; 13]>::try_from(nss) else {
        return false;
    };
    let mut sum = 0;
    let mut all_digits = true;
    for (i, &b) in digits.iter().enumerate() {
        let d = b.wrapping_sub(b'0');
        all_digits &= d <= 9;
        sum += u32::from(d) * if i % 2 == 0 { 1 } else { 3 };
    }
    all_digits && sum.is_multiple_of(10) && matches!(&digits[..3], b"978" | b"979")
}

/// An NSS of neither 10 nor 13 digits (`count`), said at its end.
fn wrong_count(nss: &str, count: usize) -> Violation {
    violation(
        nss.len(),
        format_args!("expected 10 (ISBN-10) or 13 (ISBN-13) digits, found {count}"),
    )
}

/// An NSS read as an ISBN in one pass: its digits (`X` = 10) and the
/// number of digits before each hyphen, no offsets kept.
struct Read {
    digits: [u32; 13],
    count: usize,
    hyphens: [usize; 4],
    hyphen_count: usize,
}

/// Reads `nss` as [`digits_with_hyphens`] does (a check character `X`
/// last, `x` too when `lower_x`; single inner hyphens), or `None` where it
/// finds a violation or more than 13 digits.
fn read_isbn(nss: &[u8], lower_x: bool) -> Option<Read> {
    let mut read = Read {
        digits: [0; 13],
        count: 0,
        hyphens: [0; 4],
        hyphen_count: 0,
    };
    let mut after_hyphen = true; // no hyphen first
    for (i, &b) in nss.iter().enumerate() {
        let value = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'X' if i + 1 == nss.len() => 10,
            b'x' if lower_x && i + 1 == nss.len() => 10,
            b'-' if !after_hyphen && i + 1 < nss.len() => {
                if let Some(slot) = read.hyphens.get_mut(read.hyphen_count) {
                    *slot = read.count;
                }
                read.hyphen_count += 1;
                after_hyphen = true;
                continue;
            }
            _ => return None,
        };
        *read.digits.get_mut(read.count)? = value;
        read.count += 1;
        after_hyphen = false;
    }
    Some(read)
}

/// True exactly when [`why_not_isbn`] finds nothing (the same rules in one
/// pass, with no offsets kept).
#[cfg(test)]
fn is_valid_isbn(nss: &[u8]) -> bool {
    read_isbn(nss, false).is_some_and(|read| read_is_valid(&read))
}

/// True exactly when the NSS `read` came from is an ISBN: the rules of
/// [`why_not_isbn`], on the reading.
fn read_is_valid(read: &Read) -> bool {
    let count = read.count;
    // hyphens_between_parts, for a count of 10 or 13: at most four.
    if (count != 10 && count != 13) || read.hyphen_count > read.hyphens.len() {
        return false;
    }
    let body_start = count - 10;
    let mut inner = 0;
    for &before in &read.hyphens[..read.hyphen_count] {
        if (count == 13 && before == body_start) || before == count - 1 {
            continue;
        }
        if before < body_start {
            return false;
        }
        inner += 1;
        if inner > 2 {
            return false;
        }
    }
    let digits = &read.digits[..count];
    if count == 10 {
        // `X` (10) can only be last: the read took it only there.
        let sum: u32 = digits.iter().zip((1..=10).rev()).map(|(d, w)| d * w).sum();
        sum.is_multiple_of(11)
    } else {
        let prefix = digits[0] * 100 + digits[1] * 10 + digits[2];
        let sum: u32 = digits
            .iter()
            .zip([1, 3].into_iter().cycle())
            .map(|(d, w)| d * w)
            .sum();
        digits[12] != 10 && (prefix == 978 || prefix == 979) && sum.is_multiple_of(10)
    }
}

/// The first violation of an NSS that is no ISBN, with where it is.
fn why_not_isbn(nss: &str) -> Result<(), Violation> {
    let mut found = IsbnDigits::new();
    digits_with_hyphens(nss, true, &mut found)?;
    let digits = found.kept();
    // The 2017 registration, Syntax: an ISBN-10 ends in "a modulo 11 check
    // digit, using upper-case "X" instead of 10".
    if nss.ends_with('x') {
        return Err(violation(
            nss.len() - 1,
            "the check character must be an upper-case X, not 'x'",
        ));
    }
    if matches!(found.count(), 10 | 13) {
        hyphens_between_parts(nss, found.count())?;
    }
    match found.count() {
        10 => {
            let sum: u32 = digits
                .iter()
                .enumerate()
                .map(|(i, (d, _))| d * (10 - i as u32))
                .sum();
            if let Some((_, at)) = digits[..9].iter().find(|(d, _)| *d == 10) {
                return Err(violation(*at, "'X' may only be the check character"));
            }
            if !sum.is_multiple_of(11) {
                let (_, at) = digits[9];
                let want = (11 - (sum - digits[9].0) % 11) % 11;
                let want = if want == 10 {
                    "X".to_string()
                } else {
                    want.to_string()
                };
                return Err(violation(
                    at,
                    format_args!("wrong ISBN-10 check character: expected {want}"),
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
            if !sum.is_multiple_of(10) {
                let partial = sum - digits[12].0;
                let want = (10 - partial % 10) % 10;
                return Err(violation(
                    digits[12].1,
                    format_args!("wrong ISBN-13 check digit: expected {want}"),
                ));
            }
            Ok(())
        }
        n => Err(wrong_count(nss, n)),
    }
}

/// Hyphens only between an ISBN's parts (the 2017 registration, Syntax:
/// they "indicate the separate constituent parts", and ISO 2108's parts):
/// after the ISBN-13's three-digit GS1 element, at most two inside the
/// nine digits of registration group, registrant and publication, and
/// before the check digit. Where the group, registrant and publication
/// parts meet depends on the ranges the International ISBN Agency
/// assigns, which are not shipped: `04-5145052-3` (group `0`) passes.
/// `count` is 10 or 13.
fn hyphens_between_parts(nss: &str, count: usize) -> Result<(), Violation> {
    let body_start = count - 10; // digits before the body: 3 for ISBN-13
    let mut digits = 0;
    let mut inner = 0;
    for (i, b) in nss.bytes().enumerate() {
        if b != b'-' {
            digits += 1;
            continue;
        }
        let after_prefix = count == 13 && digits == body_start;
        let before_check = digits == count - 1;
        if after_prefix || before_check {
            continue;
        }
        if digits < body_start {
            return Err(violation(i, "a hyphen inside the GS1 element (978 or 979)"));
        }
        inner += 1;
        if inner > 2 {
            return Err(violation(
                i,
                "more hyphens than the ISBN has parts (group, registrant, publication, check digit)",
            ));
        }
    }
    Ok(())
}

/// ISBN equivalence (2017 registration, "Rules for Lexical Equivalence"):
/// remove hyphens; an ISBN-10 becomes its ISBN-13 (978 + first nine digits
/// + new mod-10 check digit).
pub(super) fn normalize_isbn(nss: &str, out: &mut Vec<u8>) -> bool {
    // Thirteen digits are their own ISBN-13 form (the usual way ISBNs
    // are written in URNs): no need to read them one by one.
    if nss.len() == 13 && nss.bytes().all(|b| b.is_ascii_digit()) {
        out.extend_from_slice(nss.as_bytes());
        return true;
    }
    // Only an NSS of the shape check_isbn accepts has an ISBN-13 form; any
    // other keeps its generic key (so the key stays its own key).
    let Some(read) = read_isbn(nss.as_bytes(), true) else {
        return false;
    };
    let body: &[u32] = match read.count {
        10 => &read.digits[..9],
        13 => &read.digits,
        _ => return false,
    };
    if body.iter().any(|d| *d > 9) {
        return false;
    }
    // An ISBN-10 gets the prefix 978 and a check digit of its own.
    let mut isbn13 = *b"978000000000?";
    let from = if body.len() == 9 { 3 } else { 0 };
    for (slot, d) in isbn13[from..].iter_mut().zip(body) {
        *slot = b'0' + *d as u8;
    }
    if body.len() == 9 {
        let sum: u32 = isbn13[..12]
            .iter()
            .enumerate()
            .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
            .sum();
        isbn13[12] = b'0' + ((10 - sum % 10) % 10) as u8;
    }
    out.extend_from_slice(&isbn13);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass check and the detailed one agree on every string of a
    /// few thousand, made of digits, X, x and hyphens around real ISBNs.
    #[test]
    fn the_fast_isbn_check_agrees_with_the_detailed_one() {
        let seeds = [
            "951-0-18435-7",
            "978-951-0-18435-6",
            "0451450523",
            "080442957X",
            "979-10-90636-07-1",
            "9780306406157",
        ];
        let alphabet = b"0123456789Xx-";
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut cases: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
        for _ in 0..20_000 {
            let mut s = seeds[(next() % seeds.len() as u64) as usize].as_bytes().to_vec();
            for _ in 0..(next() % 3) {
                let at = (next() % (s.len() as u64 + 1)) as usize;
                let c = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 if at < s.len() => s[at] = c,
                    1 => s.insert(at, c),
                    _ if at < s.len() => {
                        s.remove(at);
                    }
                    _ => {}
                }
            }
            cases.push(s);
        }
        let mut valid = 0;
        for case in &cases {
            let text = std::str::from_utf8(case).unwrap();
            let detailed = why_not_isbn(text).is_ok();
            assert_eq!(is_valid_isbn(case), detailed, "{text}");
            // The check's fast paths say what the detailed walk says.
            assert_eq!(check_isbn(text), why_not_isbn(text), "{text}");
            // The key is rewritten for what the detailed reading takes.
            let mut found = IsbnDigits::new();
            let shaped = digits_with_hyphens(text, true, &mut found).is_ok()
                && matches!(found.count(), 10 | 13)
                && found.kept()[..found.count().min(13) - usize::from(found.count() == 10)]
                    .iter()
                    .all(|(d, _)| *d <= 9);
            assert_eq!(normalize_isbn(text, &mut Vec::new()), shaped, "{text}");
            valid += usize::from(detailed);
        }
        assert!(valid > 1000, "the cases hold valid ISBNs too ({valid})");
    }

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
        // "using upper-case "X" instead of 10": a lower-case x is refused,
        // and the message says what it must be.
        let lower = check("isbn", "0-8044-2957-x").unwrap_err();
        assert_eq!(lower.offset, 12);
        assert_eq!(
            lower.message,
            "the check character must be an upper-case X, not 'x'"
        );
    }
}
