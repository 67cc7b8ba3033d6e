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
pub const CHECKERS: &[&str] = &[
    "ddi", "eic", "eidr", "gs1", "isan", "isbn", "isni", "issn", "lei", "nbn-de", "trivore", "urn-6",
];

/// The names of the built-in normalizers.
pub const NORMALIZERS: &[&str] = &[
    "gdst",
    "gs1",
    "gsma-imei",
    "isbn",
    "issn",
    "newsml",
    "pct-decode-pchar",
    "pwid",
    "smpte-ul",
    "upper-check-x",
    "urn-6",
];

/// A built-in checker: the first violation in an NSS, if any.
pub type CheckFn = fn(&str) -> Result<(), Violation>;

/// The checker called `name` (one of [`CHECKERS`]), resolved once when
/// rules are compiled.
pub fn checker(name: &str) -> Option<CheckFn> {
    Some(match name {
        "eidr" => check_eidr,
        "gs1" => check_gs1,
        "isbn" => check_isbn,
        "issn" => check_issn,
        "isni" => check_isni,
        "lei" => check_lei,
        "nbn-de" => check_nbn_de,
        "ddi" => check_ddi,
        "isan" => check_isan,
        "eic" => ns_b::check_eic,
        "trivore" => ns_b::check_trivore,
        "urn-6" => ns_b::check_urn_6,
        _ => return None,
    })
}

/// Runs the checker `name` on an NSS.
///
/// # Errors
///
/// The first violation; an unknown checker name is a violation at 0.
pub fn check(name: &str, nss: &str) -> Result<(), Violation> {
    match checker(name) {
        Some(check) => check(nss),
        None => Err(violation(0, format!("unknown built-in checker '{name}'"))),
    }
}

/// A built-in normalizer: appends the NSS of the equivalence key to `out`
/// and returns true, or returns false with `out` left as it was (it does
/// not apply: the key stays as it is).
pub type NormalizeFn = fn(&str, &mut Vec<u8>) -> bool;

/// Appends what a normalizer that makes a `String` made, if anything.
fn append(normalized: Option<String>, out: &mut Vec<u8>) -> bool {
    normalized.is_some_and(|n| {
        out.extend_from_slice(n.as_bytes());
        true
    })
}

/// The normalizer called `name` (one of [`NORMALIZERS`]), resolved once
/// when rules are compiled. ISBN and ISSN, the most common, write the key
/// with no allocation.
pub fn normalizer(name: &str) -> Option<NormalizeFn> {
    Some(match name {
        "isbn" => normalize_isbn,
        "issn" => normalize_issn,
        "gs1" => |nss, out| append(normalize_gs1(nss), out),
        "pct-decode-pchar" => |nss, out| append(normalize_pct_decode_pchar(nss), out),
        "pwid" => |nss, out| append(normalize_pwid(nss), out),
        "upper-check-x" => |nss, out| match nss.strip_suffix('x') {
            Some(body) => {
                out.extend_from_slice(body.as_bytes());
                out.push(b'X');
                true
            }
            None => false,
        },
        "gsma-imei" => |nss, out| append(normalize_gsma_imei(nss), out),
        "newsml" => |nss, out| append(normalize_newsml(nss), out),
        "smpte-ul" => |nss, out| append(normalize_smpte_ul(nss), out),
        "gdst" => |nss, out| append(ns_b::normalize_gdst(nss), out),
        "urn-6" => |nss, out| append(ns_b::normalize_urn_6(nss), out),
        _ => return None,
    })
}

/// Runs the normalizer `name` on the NSS part of an equivalence key;
/// returns `None` when it does not apply (the key stays as it is).
pub fn normalize(name: &str, nss: &str) -> Option<String> {
    let mut out = Vec::new();
    if !normalizer(name)?(nss, &mut out) {
        return None;
    }
    String::from_utf8(out).ok()
}

/// The first `N` digits of an identifier, with their offsets, and how many
/// there were in all: no allocation per NSS.
struct Digits<const N: usize> {
    items: [(u32, usize); N],
    count: usize,
}

/// The digits of an ISBN: up to 13.
type IsbnDigits = Digits<13>;

impl<const N: usize> Digits<N> {
    fn new() -> Self {
        Digits {
            items: [(0, 0); N],
            count: 0,
        }
    }

    fn push(&mut self, digit: (u32, usize)) {
        if self.count < N {
            self.items[self.count] = digit;
        }
        self.count += 1;
    }

    /// The digits kept (all of them when `count() <= N`).
    fn kept(&self) -> &[(u32, usize)] {
        &self.items[..self.count.min(N)]
    }

    /// How many digits there were in all.
    fn count(&self) -> usize {
        self.count
    }
}

/// The digits of an identifier with optional hyphens: (value, offset) for
/// each digit or check character (the first 13 kept, all counted), or the
/// first bad byte.
fn digits_with_hyphens(nss: &str, last_may_be_x: bool, out: &mut IsbnDigits) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
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
    Ok(())
}

/// ISBN (ISO 2108; URN form RFC 3187 / RFC 8254 and the 2017 registration):
/// ISBN-13 with a mod-10 check digit (weights 1, 3), or ISBN-10 with a
/// mod-11 check character (weights 10..1, `X` = 10); optional hyphens.
fn check_isbn(nss: &str) -> Result<(), Violation> {
    let mut found = IsbnDigits::new();
    digits_with_hyphens(nss, true, &mut found)?;
    let digits = found.kept();
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
            if !sum.is_multiple_of(10) {
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
fn normalize_isbn(nss: &str, out: &mut Vec<u8>) -> bool {
    // Only an NSS of the shape check_isbn accepts has an ISBN-13 form; any
    // other keeps its generic key (so the key stays its own key).
    let mut found = IsbnDigits::new();
    if digits_with_hyphens(nss, true, &mut found).is_err() {
        return false;
    }
    let digits = found.kept();
    let body: &[(u32, usize)] = match found.count() {
        10 => &digits[..9],
        13 => digits,
        _ => return false,
    };
    if body.iter().any(|(d, _)| *d > 9) {
        return false;
    }
    // An ISBN-10 gets the prefix 978 and a check digit of its own.
    let mut isbn13 = *b"978000000000?";
    let from = if body.len() == 9 { 3 } else { 0 };
    for (slot, (d, _)) in isbn13[from..].iter_mut().zip(body) {
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

/// ISSN (ISO 3297; URN form RFC 3044 / RFC 8254 and the IANA template):
/// `4DIGIT ["-"] 3DIGIT check`, check = DIGIT / "X", mod 11 with weights
/// 8..2. The template asks for `x` to be read as `X`.
fn check_issn(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    let mut found = Digits::<8>::new();
    for (i, &b) in bytes.iter().enumerate() {
        let pos = found.count();
        match b {
            b'0'..=b'9' if pos < 8 => found.push((u32::from(b - b'0'), i)),
            b'X' | b'x' if pos == 7 => found.push((10, i)),
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
    if found.count() != 8 {
        return Err(violation(
            bytes.len(),
            "expected 8 characters (ISSN is NNNN-NNNC)",
        ));
    }
    let digits = found.kept();
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, (d, _))| d * (8 - i as u32))
        .sum();
    if !sum.is_multiple_of(11) {
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
fn normalize_issn(nss: &str, out: &mut Vec<u8>) -> bool {
    // Only `4DIGIT ["-"] 3DIGIT (DIGIT / "X" / "x")` is rewritten: anything
    // else (a `%HH` among others) keeps its generic key.
    if check_issn(nss).is_err() {
        return false;
    }
    // check_issn let through 4 characters, an optional hyphen, 4 more.
    let mut key = *b"0000-0000";
    let (head, tail) = key.split_at_mut(4);
    for (slot, b) in head
        .iter_mut()
        .chain(&mut tail[1..])
        .zip(nss.bytes().filter(|b| *b != b'-'))
    {
        *slot = b.to_ascii_uppercase();
    }
    out.extend_from_slice(&key);
    true
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

/// LEI (ISO 17442; IANA lei registration): 18 letters or digits and two
/// check digits, ISO 7064 MOD 97-10 (letters count 10 to 35). The
/// registration says the URN "is not case sensitive", so lower-case
/// letters are read as their upper-case forms.
fn check_lei(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(20) {
        let ok = if i >= 18 {
            b.is_ascii_digit()
        } else {
            b.is_ascii_alphanumeric()
        };
        if !ok {
            let what = if i >= 18 {
                "a check digit"
            } else {
                "a letter or a digit"
            };
            return Err(violation(i, format!("expected {what} (LEI is 20 characters)")));
        }
    }
    if bytes.len() != 20 {
        return Err(violation(bytes.len().min(20), "expected 20 characters (LEI)"));
    }
    let remainder = bytes.iter().fold(0u32, |r, &b| {
        let b = b.to_ascii_uppercase();
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
    // u64: a line of 1 MiB gives about two million digits, whose weighted
    // sum passes u32 but stays far below u64.
    let sum: u64 = digits
        .iter()
        .enumerate()
        .map(|(i, d)| u64::from(*d) * (i as u64 + 1))
        .sum();
    let last = u64::from(*digits.last()?);
    (last != 0).then(|| ((sum / last) % 10) as u32)
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

/// The check character of ISO 7064 MOD 37,36 (the hybrid system over the
/// 36 characters `0-9A-Z`) for the character values in `values` (0 to 35).
fn iso7064_mod37_36(values: impl IntoIterator<Item = u32>) -> u32 {
    const M: u32 = 36;
    let p = values.into_iter().fold(M, |p, v| {
        let s = (p + v) % M;
        let s = if s == 0 { M } else { s };
        (s * 2) % (M + 1)
    });
    (M + 1 - p) % M
}

/// The value (0 to 35) of `0-9`, `A-Z` or `a-z` in ISO 7064 MOD 37,36.
fn base36_value(b: u8) -> Option<u32> {
    match b.to_ascii_uppercase() {
        d @ b'0'..=b'9' => Some(u32::from(d - b'0')),
        l @ b'A'..=b'Z' => Some(u32::from(l - b'A') + 10),
        _ => None,
    }
}

/// EIDR (IANA eidr registration, RFC 7972): when the prefix is `10.5240`
/// the suffix is SMPTE RP 2079's `5(4HEXDIG "-") CHECK`, CHECK being the
/// ISO 7064 MOD 37,36 check character over the 20 hexadecimal digits.
/// Other prefixes have no check character and are not checked here.
fn check_eidr(nss: &str) -> Result<(), Violation> {
    let Some((prefix, suffix)) = nss.split_once(':') else {
        return Err(violation(
            nss.len(),
            "expected ':' between the EIDR prefix and suffix",
        ));
    };
    if prefix != "10.5240" {
        return Ok(());
    }
    let base = prefix.len() + 1;
    let bytes = suffix.as_bytes();
    let mut values = Vec::with_capacity(20);
    for (i, &b) in bytes.iter().enumerate().take(26) {
        match i {
            4 | 9 | 14 | 19 | 24 if b == b'-' => {}
            4 | 9 | 14 | 19 | 24 => {
                return Err(violation(
                    base + i,
                    "expected '-' (EIDR suffix is 5(4HEXDIG \"-\") CHECK)",
                ));
            }
            25 if b.is_ascii_alphanumeric() => {}
            25 => {
                return Err(violation(
                    base + i,
                    "expected the check character (a letter or a digit)",
                ));
            }
            _ if b.is_ascii_hexdigit() => values.extend(base36_value(b)),
            _ => return Err(violation(base + i, "expected a hexadecimal digit (EIDR suffix)")),
        }
    }
    if bytes.len() != 26 {
        return Err(violation(
            base + bytes.len().min(26),
            "expected 26 characters after '10.5240:' (EIDR suffix is 5(4HEXDIG \"-\") CHECK)",
        ));
    }
    let want = iso7064_mod37_36(values);
    if base36_value(bytes[25]) != Some(want) {
        let want = char::from(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[want as usize]);
        return Err(violation(
            base + 25,
            format!("wrong EIDR check character: expected {want} (ISO 7064 MOD 37,36)"),
        ));
    }
    Ok(())
}

/// GS1 Application Identifiers whose value is a fixed number of digits
/// ending in a GS1 mod-10 check digit (GS1 General Specifications, section
/// 3.2 and 7.9.1): SSCC, GTIN, GSIN, GLN and GSRN.
const GS1_CHECKED_AIS: &[(&str, usize)] = &[
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
fn gs1_check_digit_ok(digits: &[u8]) -> bool {
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
fn check_gs1(nss: &str) -> Result<(), Violation> {
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
fn normalize_gs1(nss: &str) -> Option<String> {
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

/// True if and only if `b` may stand unencoded in an NSS (RFC 8141
/// section 2: `pchar` or `/`), other than `%` itself.
fn is_nss_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b)
}

/// Decodes every `%HH` triplet that stands for a character allowed
/// unencoded in an NSS; other triplets stay (upper-case hex, as in the
/// generic key). For namespaces whose registration removes
/// percent-encoding before comparison (DOI registration, "Rules for
/// lexical equivalence").
fn normalize_pct_decode_pchar(nss: &str) -> Option<String> {
    let bytes = nss.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) if is_nss_char(b) => out.push(b),
                _ => out.extend(bytes[i..i + 3].iter().map(u8::to_ascii_uppercase)),
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// PWID equivalence (IANA pwid registration, Syntax): archive-domain,
/// archival-time and precision-spec are case-insensitive, and so are the
/// case-insensitive parts of the archived URI (its scheme and host, RFC
/// 3986 section 6.2.2.1); the rest of the URI keeps its case.
fn normalize_pwid(nss: &str) -> Option<String> {
    // archive-domain ":" archival-time ":" precision-spec ":" archived-uri;
    // the archival time ends at its "Z", the only place a "Z" can be. An
    // NSS is ASCII (RFC 8141 section 2); anything else is left alone.
    if !nss.is_ascii() {
        return None;
    }
    let domain_end = nss.find(':')?;
    let time_end = domain_end + nss[domain_end..].find(['Z', 'z'])? + 1;
    let uri_start = time_end + ":page:".len();
    if nss.len() < uri_start || nss.as_bytes()[uri_start - 1] != b':' {
        return None;
    }
    let (head, uri) = nss.split_at(uri_start);
    let scheme_end = uri.find(':')?;
    let (scheme, rest) = uri.split_at(scheme_end);
    let mut out = lower_outside_escapes(head);
    out.push_str(&scheme.to_ascii_lowercase());
    match rest.strip_prefix("://") {
        Some(after) => {
            // The authority ends at "/", or at an encoded "?" or "#".
            let end = [after.find('/'), after.find("%3F"), after.find("%23")]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(after.len());
            let (authority, path) = after.split_at(end);
            let host_start = authority.rfind('@').map_or(0, |i| i + 1);
            out.push_str("://");
            out.push_str(&authority[..host_start]);
            out.push_str(&lower_outside_escapes(&authority[host_start..]));
            out.push_str(path);
        }
        None => out.push_str(rest),
    }
    Some(out)
}

/// `s` with its ASCII letters lower-cased, except in `%HH` triplets
/// (whose hex digits the generic key keeps in upper case).
fn lower_outside_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut escape_left = 0;
    for c in s.chars() {
        if escape_left > 0 {
            escape_left -= 1;
            out.push(c);
        } else if c == '%' {
            escape_left = 2;
            out.push(c);
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// The longest DDI agency identifier: a DNS name, at most 255 characters
/// (RFC 9517 section 3.1.2, after RFC 2181 section 11).
const DDI_AGENCY_MAX: usize = 255;

/// DDI (RFC 9517 section 3.1.2): the agency identifier, the NSS up to its
/// first ':', is at most 255 characters long. The grammar checks its labels
/// (at most 63 characters each), which no regular expression can combine
/// with the length of the whole name.
fn check_ddi(nss: &str) -> Result<(), Violation> {
    let agency = nss.split(':').next().unwrap_or_default();
    if agency.len() > DDI_AGENCY_MAX {
        return Err(violation(
            DDI_AGENCY_MAX,
            format!(
                "the DDI agency identifier is {} characters long; at most {DDI_AGENCY_MAX} are allowed",
                agency.len()
            ),
        ));
    }
    Ok(())
}

/// ISAN (RFC 4246 section 3, ISO 15706): groups of hexadecimal digits
/// separated by '-', with a one-character check after the episode and
/// another after the optional version. Each check character is ISO 7064
/// MOD 37,36 over all the hexadecimal digits before it (root and episode
/// for the first, root, episode and version for the second).
fn check_isan(nss: &str) -> Result<(), Violation> {
    let mut values = Vec::with_capacity(24);
    let mut checks = 0;
    let mut at = 0;
    for group in nss.split('-') {
        if group.len() == 1 {
            let want = iso7064_mod37_36(values.iter().copied());
            if base36_value(group.as_bytes()[0]) != Some(want) {
                let want = char::from(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[want as usize]);
                return Err(violation(
                    at,
                    format!(
                        "wrong ISAN check character: expected {want} (ISO 7064 MOD 37,36 over the {} hexadecimal digits before it)",
                        values.len()
                    ),
                ));
            }
            checks += 1;
        } else {
            for (i, b) in group.bytes().enumerate() {
                if !b.is_ascii_hexdigit() {
                    return Err(violation(at + i, "expected a hexadecimal digit (ISAN)"));
                }
                values.extend(base36_value(b));
            }
        }
        at += group.len() + 1;
    }
    if checks == 0 {
        return Err(violation(nss.len(), "expected a check character (ISAN)"));
    }
    Ok(())
}

/// GSMA IMEI URNs (RFC 7254 section 3, Rules for Lexical Equivalence):
/// the same `imeival` and the same parameters in the same order, a
/// `vers=0` parameter ignored, all compared case-insensitively. Other
/// GSMA NSSs keep the generic equivalence.
fn normalize_gsma_imei(nss: &str) -> Option<String> {
    if !nss.get(..5)?.eq_ignore_ascii_case("imei:") {
        return None;
    }
    let lower = lower_outside_escapes(nss);
    let mut parts = lower.split(';');
    let mut out = parts.next().unwrap_or_default().to_string();
    for param in parts.filter(|p| *p != "vers=0") {
        out.push(';');
        out.push_str(param);
    }
    Some(out)
}

/// NewsML (RFC 3085 section 2, Rules for Lexical Equivalence): URNs are
/// equivalent when ProviderId, DateId, NewsItemId and RevisionId are
/// identical, so the trailing Update flag ("A" or "U") after the
/// RevisionId is not compared. Case is folded by a separate step.
fn normalize_newsml(nss: &str) -> Option<String> {
    let tail = &nss[nss.rfind(':')? + 1..];
    let (&flag, revision) = tail.as_bytes().split_last()?;
    let is_flag = matches!(flag, b'A' | b'a' | b'U' | b'u');
    if is_flag && !revision.is_empty() && revision.iter().all(u8::is_ascii_digit) {
        Some(nss[..nss.len() - 1].to_string())
    } else {
        None
    }
}

/// SMPTE (RFC 5119 section 2, Rules for Lexical Equivalence): URNs in
/// the `urn:smpte:ul` subnamespace compare case-insensitively; all
/// others exactly (RFC 2141).
fn normalize_smpte_ul(nss: &str) -> Option<String> {
    nss.get(..3)?
        .eq_ignore_ascii_case("ul:")
        .then(|| lower_outside_escapes(nss))
}

#[cfg(test)]
mod rules_c_tests {
    use super::*;

    #[test]
    fn isan_published_identifiers() {
        // RFC 8141's example ISAN and ISANs published with their check characters.
        for ok in [
            "0000-0000-9E59-0000-O-0000-0000-2",
            "0000-0000-2CEA-0000-1-0000-0000-Y",
            "0000-0000-D07A-0090-Q-0000-0000-X",
            "0000-0000-d07a-0090-q-0000-0000-x",
            "0000-0000-9E59-0000-O",
        ] {
            assert_eq!(check_isan(ok), Ok(()), "{ok}");
        }
        let e = check_isan("0000-0000-9E59-0000-P-0000-0000-2").unwrap_err();
        assert_eq!(e.offset, 20);
        assert!(e.message.contains("expected O"), "{}", e.message);
        let e = check_isan("0000-0000-9E59-0000-O-0000-0000-3").unwrap_err();
        assert_eq!(e.offset, 32);
        assert!(e.message.contains("expected 2"), "{}", e.message);
        // Never panics on what the grammar would refuse.
        for bad in ["", "-", "--", "x", "0000-0000-0000-0000", "0000-!-0"] {
            assert!(check_isan(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ddi_agency_length_is_limited() {
        assert_eq!(check_ddi("us.ddia1:R-V1:1"), Ok(()));
        let long = format!("{}.{}:r:1", "a".repeat(63), vec!["b".repeat(63); 3].join("."));
        assert_eq!(long.find(':'), Some(255));
        assert_eq!(check_ddi(&long), Ok(()));
        let too_long = format!("x{long}");
        let e = check_ddi(&too_long).unwrap_err();
        assert_eq!(e.offset, 255);
        assert!(e.message.contains("256 characters"), "{}", e.message);
    }

    #[test]
    fn gsma_imei_equivalence() {
        let n = |s| normalize_gsma_imei(s);
        assert_eq!(
            n("imei:90420156-025763-0;vers=0").as_deref(),
            Some("imei:90420156-025763-0")
        );
        assert_eq!(
            n("IMEI:90420156-025763-0;SVN=42").as_deref(),
            Some("imei:90420156-025763-0;svn=42")
        );
        assert_eq!(
            n("imei:90420156-025763-0;svn=42;VERS=0").as_deref(),
            Some("imei:90420156-025763-0;svn=42")
        );
        assert_eq!(
            n("imei:90420156-025763-0;vers=1").as_deref(),
            Some("imei:90420156-025763-0;vers=1")
        );
        assert_eq!(n("other:AB%2Ccd"), None);
        assert_eq!(n("imei"), None);
        assert_eq!(n("imei:a%2Cb").as_deref(), Some("imei:a%2Cb"));
    }

    #[test]
    fn newsml_update_flag_is_not_compared() {
        let n = |s| normalize_newsml(s);
        assert_eq!(
            n("reuters.com:20000206:abc:1U").as_deref(),
            Some("reuters.com:20000206:abc:1")
        );
        assert_eq!(
            n("iptc.org:20001006:NewsMLv1.0:12a").as_deref(),
            Some("iptc.org:20001006:NewsMLv1.0:12")
        );
        assert_eq!(n("iptc.org:20001006:NewsMLv1.0:1"), None);
        assert_eq!(n("iptc.org:20001006:NewsMLv1.0:U"), None);
        assert_eq!(n("iptc.org:20001006:NewsMLv1.0:"), None);
        assert_eq!(n("no-colon-1U"), None);
    }

    #[test]
    fn smpte_ul_is_case_insensitive_only_in_ul() {
        let n = |s| normalize_smpte_ul(s);
        assert_eq!(
            n("UL:060E2B34.04010103.04010202.01011100").as_deref(),
            Some("ul:060e2b34.04010103.04010202.01011100")
        );
        assert_eq!(n("umid:060A2B34.01010105"), None);
        assert_eq!(n("u"), None);
    }
}

#[cfg(test)]
mod hostile_input_tests {
    use super::*;

    /// Found by fuzzing (tests/fuzz.rs): normalizers see NSSs that fail the
    /// namespace's syntax too; they must neither panic nor make a key that
    /// is not its own key, or not a URN.
    #[test]
    fn normalizers_leave_what_they_do_not_understand() {
        assert_eq!(normalize("isbn", "!!!!!!!!!!"), None);
        assert_eq!(normalize("isbn", "9xx7895101"), None);
        assert_eq!(
            normalize("isbn", "0-451-45052-3").as_deref(),
            Some("9780451450524")
        );
        assert_eq!(
            normalize("isbn", "978-0-451-45052-4").as_deref(),
            Some("9780451450524")
        );
        assert_eq!(normalize("issn", "%2D%2D03"), None);
        assert_eq!(normalize("issn", "03785955").as_deref(), Some("0378-5955"));
    }

    /// The urn:nbn:de check digit of a very long NSS does not overflow.
    #[test]
    fn nbn_de_check_digit_of_a_long_nss() {
        let long = format!("urn:nbn:de:a-{}", "9".repeat(40_000));
        assert!(nbn_de_check_digit(&long).is_some());
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
        // "not case sensitive": lower case is read as upper case, and the
        // check digits still count.
        assert_eq!(check("lei", "7ltwfzyicnsx8d621k86"), Ok(()));
        assert_eq!(check("lei", "7ltwfzyicnsx8d621k87").unwrap_err().offset, 18);
        assert_eq!(check("lei", "7LTWFZYICNSX8D621K8X").unwrap_err().offset, 19);
        assert_eq!(check("lei", "7LTWFZYICNSX8D621K8").unwrap_err().offset, 19);
        assert_eq!(check("lei", "7LTW-ZYICNSX8D621K86").unwrap_err().offset, 4);
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

    #[test]
    fn eidr_published_identifiers() {
        // The registration's example and EIDR IDs published in schema.org's
        // titleEIDR/editEIDR documentation (Ghostbusters, The Hitchhiker's
        // Guide to the Galaxy).
        for id in [
            "10.5240:7791-8534-2C23-9030-8610-5",
            "10.5240:7EC7-228A-510A-053E-CBB8-J",
            "10.5240:1F2A-E1C5-680A-14C6-E76B-I",
            "10.5240:B752-5B47-DBBE-E5D4-5A3F-N",
            "10.5240:0196-4177-FF62-A346-D0F6-Z",
            "10.5240:7ec7-228a-510a-053e-cbb8-j",
        ] {
            assert_eq!(check("eidr", id), Ok(()), "{id}");
        }
        let wrong = check("eidr", "10.5240:7791-8534-2C23-9030-8610-6").unwrap_err();
        assert_eq!(wrong.offset, 33);
        assert!(wrong.message.contains("expected 5"), "{}", wrong.message);
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2C23-9030-8610")
                .unwrap_err()
                .offset,
            32
        );
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2G23-9030-8610-5")
                .unwrap_err()
                .offset,
            19
        );
        assert_eq!(
            check("eidr", "10.5240:7791.8534-2C23-9030-8610-5")
                .unwrap_err()
                .offset,
            12
        );
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2C23-9030-8610-5X")
                .unwrap_err()
                .offset,
            34
        );
        assert_eq!(
            check("eidr", "10.5237:F8A2-1234"),
            Ok(()),
            "other prefixes carry no check character"
        );
        assert_eq!(check("eidr", "10.5240").unwrap_err().offset, 7);
    }

    #[test]
    fn iso7064_mod37_36_check_character_verifies() {
        // ISO 7064 hybrid systems verify by running the same recurrence over
        // the data and the check character: the last intermediate sum
        // (before doubling) must be 1.
        fn verifies(values: &[u32]) -> bool {
            let mut p = 36;
            let mut s = 0;
            for v in values {
                s = (p + v) % 36;
                if s == 0 {
                    s = 36;
                }
                p = (s * 2) % 37;
            }
            s == 1
        }
        let mut data = vec![];
        for v in 0..60u32 {
            data.push((v * 7 + 3) % 16);
            let check = iso7064_mod37_36(data.iter().copied());
            let mut with_check = data.clone();
            with_check.push(check);
            assert!(verifies(&with_check), "{data:?}");
            *with_check.last_mut().unwrap() = (check + 1) % 36;
            assert!(!verifies(&with_check), "{data:?}");
        }
    }

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

    #[test]
    fn pct_decode_pchar_decodes_only_what_may_stand_unencoded() {
        let n = |s: &str| normalize("pct-decode-pchar", s).unwrap();
        assert_eq!(n("10.1000/%41bc%2D%2F"), "10.1000/Abc-/");
        assert_eq!(n("10.1000/456%23789"), "10.1000/456%23789");
        assert_eq!(n("a%25b"), "a%25b", "'%' itself stays encoded");
        assert_eq!(n("a%c3%a9"), "a%C3%A9");
        assert_eq!(n("a%2"), "a%2", "a cut triplet is left alone");
    }

    #[test]
    fn pwid_case_insensitive_parts() {
        let n = |s: &str| normalize("pwid", s).unwrap();
        assert_eq!(
            n("Archive.ORG:2016-01-22t10:08:23z:PAGE:HTTPS://WWW.DR.DK/Path%3FQ"),
            "archive.org:2016-01-22t10:08:23z:page:https://www.dr.dk/Path%3FQ"
        );
        assert_eq!(
            n("archive.org:2016-01-22Z:part:http://User@Host.EXAMPLE%3FA=B"),
            "archive.org:2016-01-22z:part:http://User@host.example%3FA=B"
        );
        assert_eq!(n("a.b:2016Z:page:MAILTO:X@Y.Z"), "a.b:2016z:page:mailto:X@Y.Z");
        assert_eq!(normalize("pwid", "archive.org:2016-01-22"), None);
        assert_eq!(normalize("pwid", "a:2016Z\u{e9}page:x:y"), None);
        assert_eq!(normalize("pwid", "a:2016Z:pag\u{e9}x:y"), None);
    }
}

/// Checkers and normalizers for the eic, trivore, urn-6 and gdst namespaces.
mod ns_b {
    use super::{Violation, violation};

    /// The EIC alphabet in value order: digits 0-9, letters 10-35, `-` 36.
    const EIC_ALPHABET: &[u8; 37] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-";

    fn eic_value(b: u8) -> Option<u32> {
        EIC_ALPHABET.iter().position(|&c| c == b).map(|v| v as u32)
    }

    /// EIC (eic registration: Section 5 of the EIC Reference Manual 5.5):
    /// 16 characters of `0-9 A-Z -`; the first 15 values weighted 16 down
    /// to 2 and summed, the check character is `36 - ((sum - 1) mod 37)`,
    /// and a code whose check character would be `-` is not valid.
    pub(super) fn check_eic(nss: &str) -> Result<(), Violation> {
        let bytes = nss.as_bytes();
        if let Some(i) = bytes.iter().take(16).position(|&b| eic_value(b).is_none()) {
            return Err(violation(
                i,
                "expected an upper-case letter, a digit or '-' (an EIC is 16 of them)",
            ));
        }
        if bytes.len() != 16 {
            return Err(violation(bytes.len().min(16), "expected 16 characters (EIC)"));
        }
        let sum: u32 = bytes[..15]
            .iter()
            .zip((2..=16u32).rev())
            .map(|(&b, weight)| eic_value(b).unwrap_or(0) * weight)
            .sum();
        // (sum - 1) mod 37 without going below zero.
        let want = 36 - (sum + 36) % 37;
        if want == 36 {
            return Err(violation(
                15,
                "not an EIC: the check character of these 15 characters would be '-', which is never issued",
            ));
        }
        let want = EIC_ALPHABET[want as usize];
        if bytes[15] != want {
            return Err(violation(
                15,
                format!("wrong EIC check character: expected {}", want as char),
            ));
        }
        Ok(())
    }

    /// trivore registration: "The maximum length for the URN is 512
    /// characters"; `urn:trivore:` takes 12 of them.
    pub(super) const TRIVORE_MAX_NSS: usize = 512 - "urn:trivore:".len();

    pub(super) fn check_trivore(nss: &str) -> Result<(), Violation> {
        if nss.len() > TRIVORE_MAX_NSS {
            return Err(violation(
                TRIVORE_MAX_NSS,
                format!(
                    "the URN is longer than 512 characters (trivore: an NSS of at most {TRIVORE_MAX_NSS})"
                ),
            ));
        }
        Ok(())
    }

    /// urn-6 registration: a name "has a maximum size of 255 bytes" once
    /// URI-encoded.
    pub(super) const URN_6_MAX_NAME: usize = 255;

    /// Where the name starts in `<language code>:<sub-namespace>:<name>`.
    fn urn_6_name_start(nss: &str) -> Option<usize> {
        let first = nss.find(':')?;
        let second = first + 1 + nss[first + 1..].find(':')?;
        Some(second + 1)
    }

    pub(super) fn check_urn_6(nss: &str) -> Result<(), Violation> {
        let Some(start) = urn_6_name_start(nss) else {
            return Err(violation(
                nss.len(),
                "expected <language code>:<place|user|subject>:<name> (urn-6)",
            ));
        };
        let name = nss.len() - start;
        if name > URN_6_MAX_NAME {
            return Err(violation(
                start + URN_6_MAX_NAME,
                format!("the name has {name} bytes; urn-6 allows at most {URN_6_MAX_NAME}"),
            ));
        }
        Ok(())
    }

    fn hex_value(b: u8) -> Option<u8> {
        (b as char).to_digit(16).map(|d| d as u8)
    }

    /// The UTF-8 bytes of the `%HH` triplets at the start of `s`, as many
    /// as the lead byte asks for; `None` when they are not there.
    fn leading_escaped_char(s: &str) -> Option<(char, usize)> {
        let b = s.as_bytes();
        let byte_at = |i: usize| -> Option<u8> {
            let t = b.get(3 * i..3 * i + 3)?;
            (t[0] == b'%').then_some(())?;
            Some((hex_value(t[1])? << 4) | hex_value(t[2])?)
        };
        let lead = byte_at(0)?;
        let len = match lead {
            0x00..=0x7F => 1,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        let bytes = (0..len).map(byte_at).collect::<Option<Vec<u8>>>()?;
        let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
        Some((c, 3 * len))
    }

    /// urn-6 equivalence ("the <place name>, <user name>, or <topic
    /// identifier> differ only in the case of their first character"): the
    /// first character of the name is upper-cased, literal or
    /// percent-encoded (a character whose upper case is not one character
    /// stays as it is).
    pub(super) fn normalize_urn_6(nss: &str) -> Option<String> {
        let start = urn_6_name_start(nss)?;
        let name = &nss[start..];
        let first = *name.as_bytes().first()?;
        if first.is_ascii_lowercase() {
            return Some(format!(
                "{}{}{}",
                &nss[..start],
                first.to_ascii_uppercase() as char,
                &name[1..]
            ));
        }
        if first != b'%' {
            return None;
        }
        let (c, used) = leading_escaped_char(name)?;
        let mut upper = c.to_uppercase();
        let (Some(u), None) = (upper.next(), upper.next()) else {
            return None;
        };
        if u == c {
            return None;
        }
        let mut buf = [0u8; 4];
        let encoded: String = u
            .encode_utf8(&mut buf)
            .bytes()
            .map(|b| format!("%{b:02X}"))
            .collect();
        Some(format!("{}{encoded}{}", &nss[..start], &name[used..]))
    }

    /// The gdst linkable data types (the second part of their NSS).
    const GDST_KEYWORDS: [&str; 8] = ["product", "location", "party", "bt", "doc", "cert", "lpn", "po"];

    /// gdst equivalence: in the URN of a linkable data type the domain or
    /// UUID, prefix, serial and secondary ID are "not case sensitive", so
    /// the whole NSS is lower-cased (outside `%HH`); other gdst URNs are
    /// left as they are.
    pub(super) fn normalize_gdst(nss: &str) -> Option<String> {
        let second = nss.split(':').nth(1)?;
        if !GDST_KEYWORDS.iter().any(|k| second.eq_ignore_ascii_case(k)) {
            return None;
        }
        let b = nss.as_bytes();
        let mut out = String::with_capacity(nss.len());
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' && i + 2 < b.len() {
                out.push_str(&nss[i..i + 3]);
                i += 3;
            } else {
                out.push(b[i].to_ascii_lowercase() as char);
                i += 1;
            }
        }
        Some(out)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn eic_published_codes() {
            // ENTSO-E codes: the ENTSO-E office itself, the 50Hertz control
            // area, Swissgrid, and a party from python-stdnum's collection
            // of codes found published.
            for code in [
                "10X1001A1001A450",
                "10YDE-VE-------2",
                "10YCH-SWISSGRIDZ",
                "22XWATTPLUS----G",
            ] {
                assert_eq!(check_eic(code), Ok(()), "{code}");
            }
            let wrong = check_eic("10YDE-VE-------3").unwrap_err();
            assert_eq!(
                (wrong.offset, wrong.message.as_str()),
                (15, "wrong EIC check character: expected 2")
            );
            assert!(check_eic("23X--130302DLGW-").unwrap_err().message.contains("'-'"));
            assert_eq!(check_eic("10YDE-VE------2").unwrap_err().offset, 15);
            assert_eq!(check_eic("10ydE-VE-------2").unwrap_err().offset, 2);
            assert_eq!(check_eic("10YDE-VE-------22").unwrap_err().offset, 16);
        }

        #[test]
        fn trivore_length_limit() {
            let at_limit = format!("id:{}", "a".repeat(TRIVORE_MAX_NSS - 3));
            assert_eq!(("urn:trivore:".len() + at_limit.len()), 512);
            assert_eq!(check_trivore(&at_limit), Ok(()));
            let over = format!("{at_limit}b");
            assert_eq!(check_trivore(&over).unwrap_err().offset, TRIVORE_MAX_NSS);
        }

        #[test]
        fn urn_6_name_length_and_first_character() {
            let longest = format!("en:place:{}", "a".repeat(URN_6_MAX_NAME));
            assert_eq!(check_urn_6(&longest), Ok(()));
            let over = format!("{longest}a");
            assert_eq!(check_urn_6(&over).unwrap_err().offset, 9 + URN_6_MAX_NAME);
            assert!(check_urn_6("en").is_err());
            // The registration's example: Chine and chine are equivalent.
            assert_eq!(normalize_urn_6("fr:place:chine").unwrap(), "fr:place:Chine");
            assert_eq!(normalize_urn_6("fr:place:Chine"), None);
            // Only the first character: CHINE stays apart from Chine.
            assert_eq!(normalize_urn_6("fr:place:cHINE").unwrap(), "fr:place:CHINE");
            // A percent-encoded first character (e with acute, U+00E9).
            assert_eq!(
                normalize_urn_6("fr:place:%C3%A9vora").unwrap(),
                "fr:place:%C3%89vora"
            );
            assert_eq!(normalize_urn_6("fr:place:%C3%89vora"), None);
            // Sharp s upper-cases to two characters: left alone; so are
            // broken escapes and names that do not start with a letter.
            assert_eq!(normalize_urn_6("de:place:%C3%9Fx"), None);
            assert_eq!(normalize_urn_6("de:place:%C3x"), None);
            assert_eq!(normalize_urn_6("de:place:%FF%FF"), None);
            assert_eq!(normalize_urn_6("en:place:_x"), None);
            assert_eq!(normalize_urn_6("en:place:"), None);
        }

        #[test]
        fn odd_inputs_do_not_panic() {
            for s in [
                "",
                ":",
                "::",
                "%",
                "%%",
                "a:b:%",
                "a:b:%C",
                "a:b:%C3",
                "a:b:%E2%82",
                "a:b:%F4%90%80%80",
                "a:b:\u{e9}",
                "\u{e9}:\u{e9}:\u{e9}",
                "x:product:%",
                "x:PRODUCT:\u{e9}%4",
                "10YDE-VE-------\u{e9}",
                "-",
            ] {
                let _ = (check_eic(s), check_trivore(s), check_urn_6(s));
                let _ = (normalize_urn_6(s), normalize_gdst(s));
            }
        }

        #[test]
        fn gdst_linkable_types_are_case_insensitive() {
            assert_eq!(
                normalize_gdst("Example.COM:Product:Class:12345.ABC").unwrap(),
                "example.com:product:class:12345.abc"
            );
            assert_eq!(normalize_gdst("x:party:A%2Bb").unwrap(), "x:party:a%2Bb");
            // Vocabulary URNs keep their case.
            assert_eq!(normalize_gdst("bizStep:commingling"), None);
            assert_eq!(normalize_gdst("iftp"), None);
        }
    }
}
