//! EPC (RFC 5134 and the EPC Tag Data Standard it cites): the integer
//! fields of the binary encodings, which no pattern of digits bounds; the
//! bodies of the pure identity schemes GS1's Tag Data Translation patterns
//! do not cover (pgln, gsin, ginc, upui, bic, imovn) and of the LGTIN class
//! URI; and the scheme names, which are lower case.

#[allow(unused_imports)]
use super::*;

/// The largest value of an integer field: a fixed one, or one per GS1
/// Company Prefix length (6 to 12 digits), the prefix being the field at
/// `prefix` (a partition table, TDS section 14.3.3).
#[derive(Clone, Copy)]
enum Max {
    Fixed(u64),
    ByPrefixLength { prefix: usize, max: [u64; 7] },
}

/// One integer field of an EPC URI body: its place among the `.`-separated
/// fields, its name in the Tag Data Standard, and its largest value.
struct IntField {
    index: usize,
    name: &'static str,
    max: Max,
}

const fn field(index: usize, name: &'static str, bits: u32) -> IntField {
    IntField {
        index,
        name,
        max: Max::Fixed((1 << bits) - 1),
    }
}

/// The fields the Tag Data Standard encodes with its Integer method (TDS
/// section 14.3.1: the URI field is a decimal integer without leading
/// zeros, "0" alone, and less than 2^b for a field of b bits), by the
/// coding tables of TDS section 14.5 and GS1's Tag Data Translation 2.2
/// artefacts (gs1/TDT:artefacts/XML/<SCHEME>.xml, the decimalMaximum of
/// each TAG_ENCODING field). Tag URIs (`urn:epc:tag:`) of the binary
/// schemes, and the pure identity URIs (`urn:epc:id:`) of the schemes
/// that have only integer encodings: GID (GID-96 only, TDS section 6.3's
/// GID-URI of three NumericComponents), USDOD (USDOD-96 only) and the CPI
/// serial (CPI-96 and CPI-var, both integers). Other pure identities
/// (sgtin, sgln, grai, giai, gdti, itip) also have a string encoding
/// (SGTIN-198, ...), so their serials may be any GS3A3 string; SGCN-96 and
/// GDTI-113 serials are numeric strings, whose leading zeros count.
const SCHEMES: &[(&str, &str, &[IntField])] = &[
    // SGTIN-96: filter . company prefix . item reference . serial (38 bits)
    ("tag", "sgtin-96", &[field(3, "serial", 38)]),
    // SGLN-96: filter . company prefix . location reference . extension (41 bits)
    ("tag", "sgln-96", &[field(3, "extension", 41)]),
    // GRAI-96: filter . company prefix . asset type . serial (38 bits)
    ("tag", "grai-96", &[field(3, "serial", 38)]),
    // GIAI-96: filter . company prefix . individual asset reference, of
    // 42 to 62 bits as the company prefix is 12 to 6 digits
    (
        "tag",
        "giai-96",
        &[IntField {
            index: 2,
            name: "individual asset reference",
            max: Max::ByPrefixLength {
                prefix: 1,
                max: [
                    (1 << 62) - 1,
                    (1 << 58) - 1,
                    (1 << 55) - 1,
                    (1 << 52) - 1,
                    (1 << 48) - 1,
                    (1 << 45) - 1,
                    (1 << 42) - 1,
                ],
            },
        }],
    ),
    // GDTI-96: filter . company prefix . document type . serial (41 bits)
    ("tag", "gdti-96", &[field(3, "serial", 41)]),
    // CPI-96: filter . company prefix . component/part reference (TDT:
    // 9 to 3 digits as the company prefix is 6 to 12) . serial (31 bits)
    (
        "tag",
        "cpi-96",
        &[
            IntField {
                index: 2,
                name: "component/part reference",
                max: Max::ByPrefixLength {
                    prefix: 1,
                    max: [999_999_999, 99_999_999, 9_999_999, 999_999, 99_999, 9_999, 999],
                },
            },
            field(3, "serial", 31),
        ],
    ),
    // CPI-var: filter . company prefix . reference . serial (TDT: at most 999999999999)
    ("tag", "cpi-var", &[cpi_serial(3)]),
    // ITIP-110: filter . company prefix . item reference . piece . total . serial (38 bits)
    ("tag", "itip-110", &[field(5, "serial", 38)]),
    ("tag", "gid-96", GID),
    ("id", "gid", GID),
    // USDOD-96: filter . CAGE/DoDAAC . serial (36 bits)
    ("tag", "usdod-96", &[field(2, "serial", 36)]),
    ("id", "usdod", &[field(1, "serial", 36)]),
    // CPI: company prefix . component/part reference . serial (CPI-var's 12 digits at most)
    ("id", "cpi", &[cpi_serial(2)]),
];

/// GID-96 and the GID pure identity: general manager number (28 bits) .
/// object class (24) . serial (36).
const GID: &[IntField] = &[
    field(0, "general manager number", 28),
    field(1, "object class", 24),
    field(2, "serial", 36),
];

/// A CPI serial (CPI-var's, at most 999999999999), field `index`.
const fn cpi_serial(index: usize) -> IntField {
    IntField {
        index,
        name: "serial",
        max: Max::Fixed(999_999_999_999),
    }
}

/// The GS1 keys whose first two fields, in a pattern or class URI, are the
/// GS1 Company Prefix and the rest of the key: the key's digits in all,
/// and what the TDS calls the second field (TDS section 6.3, each scheme's
/// EPC URI: a prefix of 6 to 12 digits, and the two fields as many digits
/// together as the key).
const KEYS: &[(&str, usize, &str)] = &[
    ("sgtin", 13, "item reference"),
    ("lgtin", 13, "item reference"),
    ("itip", 13, "item reference"),
    ("sscc", 17, "serial reference"),
    ("gsrn", 17, "service reference"),
    ("gsrnp", 17, "service reference"),
    ("sgln", 12, "location reference"),
    ("grai", 12, "asset type"),
    ("gdti", 12, "document type"),
    ("sgcn", 12, "document type"),
    ("pgln", 12, "party reference"),
    ("gsin", 16, "shipper reference"),
    ("upui", 13, "item reference"),
];

/// The tag encodings of those keys (TDS section 14.5; GS1's Tag Data
/// Translation artefacts), whose pattern URIs start with the filter.
const TAG_SCHEMES: &[&str] = &[
    "sgtin-96",
    "sgtin-198",
    "itip-110",
    "itip-212",
    "sscc-96",
    "gsrn-96",
    "gsrnp-96",
    "sgln-96",
    "sgln-195",
    "grai-96",
    "grai-170",
    "gdti-96",
    "gdti-113",
    "gdti-174",
    "sgcn-96",
];

/// The EPC pure identity pattern URIs (`idpat`, TDS section 8), the tag
/// pattern URIs (`pat`, TDS section 13: the filter first) and the LGTIN
/// class URI (`class:lgtin`, TDS section 6.4) carry a GS1 key's company
/// prefix and reference as the id URIs do, either field possibly `*`:
/// where both are digits, they are the key's length together (a typo such
/// as `9506000.1233` is refused here as in the id URI).
fn check_pattern_key(category: &str, scheme: &str, body: &str, body_at: usize) -> Result<(), Violation> {
    let (category, first, base) = match category {
        "idpat" => ("idpat", 0, scheme),
        "class" if scheme == "lgtin" => ("class", 0, scheme),
        "pat" if TAG_SCHEMES.contains(&scheme) => ("pat", 1, scheme.split('-').next().unwrap_or(scheme)),
        _ => return Ok(()),
    };
    // Named from the table, not the input, in the message.
    let Some(&(scheme, total, reference)) = KEYS.iter().find(|(s, _, _)| *s == base) else {
        return Ok(());
    };
    let mut fields = body.split('.');
    let mut at = body_at;
    for _ in 0..first {
        at += fields.next().map_or(0, |f| f.len() + 1);
    }
    let digits = |f: &str| f.bytes().all(|b| b.is_ascii_digit());
    let Some(prefix) = fields.next().filter(|f| digits(f) && !f.is_empty()) else {
        return Ok(());
    };
    if !(6..=12).contains(&prefix.len()) {
        return Err(cited_violation(
            at,
            format_args!(
                "{category}:{scheme}: a GS1 Company Prefix has 6 to 12 digits, not {}",
                prefix.len()
            ),
            TDS_ID,
        ));
    }
    let Some(rest) = fields.next().filter(|f| digits(f)) else {
        return Ok(());
    };
    if prefix.len() + rest.len() != total {
        return Err(cited_violation(
            at + prefix.len() + 1,
            format_args!(
                "the {reference} of {category}:{scheme} has {} digits after a {}-digit company prefix, \
                 not {}",
                total - prefix.len(),
                prefix.len(),
                rest.len()
            ),
            TDS_ID,
        ));
    }
    Ok(())
}

/// The pure identity EPC schemes of TDS section 6.3 (TDS 1.13 added IMOVN,
/// TDS 1.12 UPUI and PGLN), whose URIs are `urn:epc:id:<scheme>:` and whose
/// identity patterns (TDS section 8) are `urn:epc:idpat:<scheme>:`.
const ID_SCHEMES: &[&str] = &[
    "sgtin", "sscc", "sgln", "grai", "giai", "gsrn", "gsrnp", "gdti", "cpi", "sgcn", "ginc", "gsin", "itip",
    "upui", "pgln", "gid", "usdod", "adi", "bic", "imovn",
];

/// The tag encodings of TDS section 14 without a GS1 key's company prefix
/// and reference up front (the others are [`TAG_SCHEMES`]).
const OTHER_TAG_SCHEMES: &[&str] = &[
    "giai-96", "giai-202", "cpi-96", "cpi-var", "gid-96", "usdod-96", "adi-var",
];

/// A scheme name TDS defines, in another letter case: RFC 5134 section 2
/// makes the whole EPC URN case-sensitive, and TDS writes each scheme name
/// in lower case (sections 6.3, 6.4, 8, 12 and 13), so `SGTIN` names no
/// scheme, and is most likely `sgtin` mistyped: refused, naming it. A
/// name TDS does not define, in any case, is left to the grammar (and to
/// the `[[rules.should]]` of the namespace's rules, which warns of it).
fn check_scheme_case(category: &str, scheme: &str, at: usize) -> Result<(), Violation> {
    if !scheme.bytes().any(|b| b.is_ascii_uppercase()) {
        return Ok(());
    }
    let known = ID_SCHEMES
        .iter()
        .chain(TAG_SCHEMES)
        .chain(OTHER_TAG_SCHEMES)
        .chain(&["lgtin"])
        .find(|s| s.eq_ignore_ascii_case(scheme));
    match known {
        Some(name) => Err(cited_violation(
            at,
            format_args!("EPC scheme names are lower case: '{name}'"),
            match category {
                "class" => "RFC 5134 §2 and EPC TDS §6.4",
                "idpat" => "RFC 5134 §2 and EPC TDS §8",
                "tag" => "RFC 5134 §2 and EPC TDS §12",
                "pat" => "RFC 5134 §2 and EPC TDS §13",
                _ => "RFC 5134 §2 and EPC TDS §6.3",
            },
        )),
        None => Ok(()),
    }
}

/// A GS3A3 string (TDS's GS3A3Component, among its common grammar
/// elements: the characters of a URI component of a GS1 key, as the
/// grammar's `gs3a3` rule takes them: letters, digits,
/// `!'()*+,-.:;=_` and the escapes `%22 %26 %2F %3C %3E %3F %25`, each one
/// character) of at most `max` characters: its length, or where it goes
/// wrong (the offset of a byte none of them, or of the character after
/// the `max`th) and whether it is too long.
fn gs3a3_scan(s: &str, max: usize) -> Result<usize, (usize, bool)> {
    let b = s.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < b.len() {
        if n == max {
            return Err((i, true));
        }
        match b[i] {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'!' | b'\''..=b'.' | b':' | b';' | b'=' | b'_' => {
                i += 1
            }
            b'%' if matches!(
                s.get(i + 1..i + 3),
                Some("22" | "26" | "2F" | "3C" | "3E" | "3F" | "25")
            ) =>
            {
                i += 3
            }
            _ => return Err((i, false)),
        }
        n += 1;
    }
    Ok(n)
}

/// The number of ASCII digits `s` starts with.
fn leading_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// The citation of TDS section 6.3, the pure identity URIs (each scheme's
/// EPC URI), whose keys the pattern and class URIs share.
const TDS_ID: &str = "EPC TDS §6.3";

/// The TDS section of a URI `what` names, cited: 6.4 for the class URIs,
/// 6.3 for the pure identity URIs.
fn tds_section(what: &str) -> &'static str {
    if what.starts_with("class:") {
        "EPC TDS §6.4"
    } else {
        TDS_ID
    }
}

/// A GS1 key's company prefix (6 to 12 digits), `.` and the reference
/// after it (digits, `total` with the prefix) at the start of `body`
/// (at NSS offset `at`): the offset in `body` after the reference.
fn company_key(body: &str, at: usize, what: &str, total: usize, reference: &str) -> Result<usize, Violation> {
    let section = tds_section(what);
    let n = leading_digits(body);
    if !(6..=12).contains(&n) || body.as_bytes().get(n) != Some(&b'.') {
        return Err(cited_violation(
            at + n.min(12),
            format_args!("{what}: a GS1 Company Prefix of 6 to 12 digits, '.' and the {reference}"),
            section,
        ));
    }
    let r = leading_digits(&body[n + 1..]);
    if n + r != total {
        return Err(cited_violation(
            at + n + 1,
            format_args!(
                "the {reference} of {what} has {} digits after a {n}-digit company prefix, not {r}",
                total - n
            ),
            section,
        ));
    }
    Ok(n + 1 + r)
}

/// After a key (at `end` of `body`): `.` and a GS3A3 string of 1 to `max`
/// characters, the `field` of `what`.
fn gs3a3_field(
    body: &str,
    end: usize,
    at: usize,
    what: &str,
    field: &str,
    max: usize,
) -> Result<(), Violation> {
    let section = tds_section(what);
    let said = || format!("{what}: '.' and the {field}, 1 to {max} characters, come next");
    if body.as_bytes().get(end) != Some(&b'.') {
        return Err(cited_violation(at + end, said(), section));
    }
    match gs3a3_scan(&body[end + 1..], max) {
        Ok(0) => Err(cited_violation(at + end + 1, said(), section)),
        Ok(_) => Ok(()),
        Err((i, true)) => Err(cited_violation(
            at + end + 1 + i,
            format_args!("the {field} of {what} has at most {max} characters"),
            section,
        )),
        Err((i, false)) => Err(cited_violation(
            at + end + 1 + i,
            format_args!("the {field} of {what} is A-Z a-z 0-9 !'()*+,-.:;=_ or %22 %26 %2F %3C %3E %3F %25"),
            section,
        )),
    }
}

/// The check digit of an ISO 6346 container code (owner code, category
/// and serial number, 10 characters already checked): each letter is worth
/// 10 to 38 skipping the multiples of 11 (A = 10, B = 12, ..., Z = 38),
/// each digit its value; the sum of each worth times 2 to the power of its
/// place, modulo 11, then modulo 10 (a remainder of 10 is written 0).
fn iso6346_check_digit(code: &[u8]) -> u8 {
    let sum: u32 = code
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let worth = if c.is_ascii_digit() {
                u32::from(c - b'0')
            } else {
                let n = u32::from(c - b'A') + 10;
                n + (n - 1) / 10
            };
            worth << i
        })
        .sum();
    (sum % 11 % 10) as u8
}

/// The pure identity URIs GS1's Tag Data Translation 2.2 artefacts have
/// no pattern for, which the grammar leaves a generic body (TDS section
/// 6.3, each scheme's EPC URI and its GS1 key's length in the GS1 General
/// Specifications): PGLN (AI 417: 13 digits, the 12 before the check
/// digit), GSIN (AI 402: 17 digits, 16), GINC (AI 401: the company prefix
/// and a consignment reference, at most 30 characters), UPUI (a GTIN's 13
/// digits before its check digit and a TPX, AI 235: at most 28
/// characters), BIC (ISO 6346 container code: owner code, category U, J or
/// Z, serial number, check digit) and IMOVN (7 digits); and the LGTIN class
/// URI (TDS section 6.4: a GTIN's 13 digits and a lot, AI 10: at most 20
/// characters, required).
fn check_body(category: &str, scheme: &str, body: &str, at: usize) -> Result<(), Violation> {
    match (category, scheme) {
        ("id", "pgln" | "gsin") => {
            let (what, total, reference) = if scheme == "pgln" {
                ("id:pgln", 12, "party reference")
            } else {
                ("id:gsin", 16, "shipper reference")
            };
            let end = company_key(body, at, what, total, reference)?;
            if end < body.len() {
                return Err(cited_violation(
                    at + end,
                    format_args!(
                        "{what} ends after the {reference} ({total} digits with the company prefix)"
                    ),
                    TDS_ID,
                ));
            }
            Ok(())
        }
        ("id", "ginc") => {
            let n = leading_digits(body);
            if !(6..=12).contains(&n) || body.as_bytes().get(n) != Some(&b'.') {
                return Err(cited_violation(
                    at + n.min(12),
                    "id:ginc: a GS1 Company Prefix of 6 to 12 digits, '.' and the consignment reference",
                    TDS_ID,
                ));
            }
            gs3a3_field(body, n, at, "id:ginc", "consignment reference", 30 - n)
        }
        ("id", "upui") => {
            let end = company_key(body, at, "id:upui", 13, "item reference")?;
            gs3a3_field(body, end, at, "id:upui", "TPX", 28)
        }
        ("class", "lgtin") => {
            let end = company_key(body, at, "class:lgtin", 13, "item reference")?;
            gs3a3_field(body, end, at, "class:lgtin", "lot", 20)
        }
        ("id", "bic") => {
            let b = body.as_bytes();
            let ok = |i: usize| match i {
                0..=2 => b[i].is_ascii_uppercase(),
                3 => matches!(b[i], b'U' | b'J' | b'Z'),
                _ => b[i].is_ascii_digit(),
            };
            match (0..11)
                .find(|&i| i >= b.len() || !ok(i))
                .or((b.len() > 11).then_some(11))
            {
                Some(i) => Err(cited_violation(
                    at + i,
                    "a BIC is 3 capital letters, U, J or Z, 6 digits and a check digit (ISO 6346)",
                    TDS_ID,
                )),
                None => {
                    let check = iso6346_check_digit(&b[..10]);
                    if b[10] - b'0' != check {
                        return Err(cited_violation(
                            at + 10,
                            format_args!("the ISO 6346 check digit of this BIC is {check}"),
                            TDS_ID,
                        ));
                    }
                    Ok(())
                }
            }
        }
        ("id", "imovn") => {
            let n = leading_digits(body);
            if n != 7 || body.len() != 7 {
                return Err(cited_violation(
                    at + n.min(7),
                    "an IMO vessel number is 7 digits, without the 'IMO' it is printed with",
                    TDS_ID,
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// EPC (RFC 5134 section 2, the Tag Data Standard's URIs): a TDS scheme
/// name is in lower case ([`check_scheme_case`]), the integer fields of
/// [`SCHEMES`] have no leading zeros and fit their bits, the GS1 keys of
/// pattern and class URIs have their length ([`check_pattern_key`]), and
/// the pure identity URIs without a TDT pattern and the LGTIN class URI
/// have their TDS syntax ([`check_body`]). The grammar has checked the
/// other id and tag URIs' digits and lengths.
pub(super) fn check_epc(nss: &str) -> Result<(), Violation> {
    let mut parts = nss.splitn(3, ':');
    let (Some(category), Some(scheme), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
        return Ok(());
    };
    check_scheme_case(category, scheme, category.len() + 1)?;
    check_pattern_key(category, scheme, body, category.len() + scheme.len() + 2)?;
    check_body(category, scheme, body, category.len() + scheme.len() + 2)?;
    let Some((_, _, fields)) = SCHEMES.iter().find(|(c, s, _)| *c == category && *s == scheme) else {
        return Ok(());
    };
    let body_at = category.len() + scheme.len() + 2;
    // Where each field starts (these schemes have at most 6 fields).
    let mut starts = [0usize; 8];
    let mut count = 1;
    for (i, _) in body.match_indices('.') {
        if count == starts.len() {
            return Ok(());
        }
        starts[count] = i + 1;
        count += 1;
    }
    let starts = &starts[..count];
    let text = |i: usize| -> Option<&str> {
        let start = *starts.get(i)?;
        let end = starts.get(i + 1).map_or(body.len(), |next| next - 1);
        Some(&body[start..end])
    };
    for f in *fields {
        let Some(value) = text(f.index) else {
            continue;
        };
        let at = body_at + starts[f.index];
        if value.len() > 1 && value.starts_with('0') {
            return Err(cited_violation(
                at,
                format_args!(
                    "the {} of {scheme} is a decimal integer without leading zeros",
                    f.name
                ),
                "EPC TDS §14.3.1",
            ));
        }
        let max = match f.max {
            Max::Fixed(max) => max,
            Max::ByPrefixLength { prefix, max } => match text(prefix).map(str::len) {
                Some(len @ 6..=12) => max[len - 6],
                _ => continue,
            },
        };
        let fits = value.len() <= 19
            && value
                .bytes()
                .try_fold(0u64, |n, b| {
                    b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
                })
                .is_some_and(|n| n <= max);
        if !fits && value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(cited_violation(
                at,
                format_args!("the {} of {scheme} is at most {max}", f.name),
                "EPC TDS §14.5",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_fields_fit_their_bits() {
        // TDS's own examples, and the largest values.
        assert_eq!(check_epc("tag:sgtin-96:3.0614141.812345.6789"), Ok(()));
        assert_eq!(check_epc("tag:sgtin-96:3.0614141.812345.274877906943"), Ok(()));
        assert_eq!(check_epc("tag:sgtin-96:3.0614141.812345.0"), Ok(()));
        assert_eq!(check_epc("id:sgtin:0614141.812345.0400"), Ok(()), "GS3A3 serial");
        let v = check_epc("tag:sgtin-96:3.0614141.812345.274877906944").unwrap_err();
        assert_eq!(v.offset, 30);
        assert_eq!(v.message, "the serial of sgtin-96 is at most 274877906943");
        assert_eq!(v.cite, Some("EPC TDS §14.5"));
        let v = check_epc("tag:sgtin-96:3.0614141.812345.0400").unwrap_err();
        assert_eq!(v.offset, 30);
        assert!(v.message.contains("without leading zeros"), "{}", v.message);
        assert!(check_epc("tag:grai-96:3.0614141.12345.274877906944").is_err());
        assert_eq!(check_epc("tag:sgln-96:3.0614141.12345.2199023255551"), Ok(()));
        assert!(check_epc("tag:sgln-96:3.0614141.12345.2199023255552").is_err());
        assert_eq!(check_epc("tag:gid-96:268435455.16777215.68719476735"), Ok(()));
        assert_eq!(check_epc("tag:gid-96:268435456.1.1").unwrap_err().offset, 11);
        assert_eq!(check_epc("tag:gid-96:1.16777216.1").unwrap_err().offset, 13);
        assert_eq!(check_epc("tag:gid-96:1.1.68719476736").unwrap_err().offset, 15);
        assert_eq!(check_epc("id:gid:268435456.1.1").unwrap_err().offset, 7);
        assert_eq!(check_epc("id:gid:01.1.1").unwrap_err().offset, 7);
        // GIAI-96: 42 bits after a 12-digit prefix, 62 after a 6-digit one.
        assert_eq!(check_epc("tag:giai-96:3.061414123456.4398046511103"), Ok(()));
        assert!(check_epc("tag:giai-96:3.061414123456.4398046511104").is_err());
        assert_eq!(check_epc("tag:giai-96:3.061414.4611686018427387903"), Ok(()));
        assert!(check_epc("tag:giai-96:3.061414.4611686018427387904").is_err());
        assert!(check_epc("tag:cpi-96:3.061414123456.0123.1").is_err());
        assert!(check_epc("tag:cpi-96:3.0614141.123.2147483648").is_err());
        assert!(check_epc("id:cpi:0614141.5PQ7%2FZ43.012").is_err());
        assert_eq!(check_epc("id:cpi:0614141.5PQ7%2FZ43.12345"), Ok(()));
        assert!(check_epc("tag:usdod-96:3.2S194.68719476736").is_err());
        assert!(check_epc("id:usdod:2S194.00001").is_err());
        assert!(check_epc("tag:itip-110:3.4012345.011111.01.02.274877906944").is_err());
        // Other schemes, categories and bodies are left to the grammar.
        for nss in [
            "tag:sscc-96:3.0614141.1234567890",
            "pat:sgtin-96:3.0614141.812345.*",
            "pat:gid-96:1.1.*",
            "idpat:giai:0614141.*",
            "class:other:1.2.3",
            "",
            "id",
            "id:gid",
            "id:gid:",
            "id:gid:..",
            "tag:giai-96:3.06141.1",
        ] {
            assert_eq!(check_epc(nss), Ok(()), "{nss}");
        }
    }

    /// Pattern and class URIs: the company prefix and the reference are
    /// the key's length together, as in the id URI (TDS sections 6.3, 6.4,
    /// 8 and 13); `*` leaves a field open.
    #[test]
    fn pattern_and_class_keys_have_their_length() {
        for nss in [
            "idpat:sgtin:0614141.112345.*",
            "idpat:sgtin:0614141.*.*",
            "idpat:sgtin:*.*.*",
            "idpat:sscc:0614141.1234567890",
            "idpat:sgln:061414112345.*",
            "idpat:sgln:061414112345..*",
            "pat:sgtin-96:3.0614141.112345.*",
            "pat:sgtin-96:*.*.*.*",
            "pat:sgtin-198:3.0614141.*.*",
            "pat:grai-96:3.0614141.12345.*",
            "class:lgtin:030003.0029328.BATCH001",
            "class:lgtin:4012345.012345.998877",
        ] {
            assert_eq!(check_epc(nss), Ok(()), "{nss}");
        }
        let v = check_epc("class:lgtin:9506000.1233.a").unwrap_err();
        assert_eq!(v.offset, 20);
        assert_eq!(
            v.message,
            "the item reference of class:lgtin has 6 digits after a 7-digit company prefix, not 4"
        );
        assert_eq!(v.cite, Some("EPC TDS §6.3"));
        assert_eq!(check_epc("idpat:sgtin:9506000.1233.*").unwrap_err().offset, 20);
        assert_eq!(check_epc("pat:sgtin-96:3.9506000.1233.*").unwrap_err().offset, 23);
        assert_eq!(check_epc("pat:sscc-96:3.0614141.123.*").unwrap_err().offset, 22);
        assert_eq!(
            check_epc("pat:sgtin-9:3.0614141.123.*"),
            Ok(()),
            "no such encoding"
        );
        let v = check_epc("idpat:sgtin:06141.12345678.*").unwrap_err();
        assert_eq!(v.offset, 12);
        assert!(v.message.contains("6 to 12 digits"), "{}", v.message);
    }

    /// The pure identity URIs the TDT patterns do not cover, and the LGTIN
    /// class URI (TDS sections 6.3 and 6.4).
    #[test]
    fn other_pure_identities_have_their_syntax() {
        for nss in [
            "id:pgln:4012345.00225",
            "id:pgln:0614141.00777",
            "id:pgln:061414112345.",
            "id:gsin:0614141.123456789",
            "id:ginc:0614141.xyz47%2F11",
            "id:upui:1234567.089456.51qIgY)%3C%26Jp3*j7SDB",
            "id:bic:CSQU3054383",
            // a second code whose ISO 6346 check digit works out
            "id:bic:BICU1234565",
            "id:imovn:9176187",
            "class:lgtin:4012345.012345.998877",
            "class:lgtin:030003.0029328.BATCH001",
            "id:foo:bar",
            "id:FOO:bar",
            "idpat:pgln:4012345.*",
        ] {
            assert_eq!(check_epc(nss), Ok(()), "{nss}");
        }
        for (nss, offset, said) in [
            ("id:pgln:4000001.00000.0", 21, "ends after the party reference"),
            ("id:pgln:abc.def", 8, "6 to 12 digits"),
            (
                "id:pgln:4012345.0022",
                16,
                "has 5 digits after a 7-digit company prefix, not 4",
            ),
            (
                "id:gsin:0614141.12",
                16,
                "has 9 digits after a 7-digit company prefix, not 2",
            ),
            (
                "id:upui:234567.189012.1111",
                15,
                "has 7 digits after a 6-digit company prefix, not 6",
            ),
            ("id:upui:1234567.089456", 22, "the TPX, 1 to 28 characters"),
            ("id:upui:1234567.089456.", 23, "the TPX, 1 to 28 characters"),
            (
                "id:upui:1234567.089456.12345678901234567890123456789",
                51,
                "at most 28",
            ),
            ("id:upui:1234567.089456.a/b", 24, "A-Z a-z 0-9"),
            ("id:ginc:0614141.", 16, "consignment reference, 1 to 23"),
            ("id:ginc:0614141.123456789012345678901234", 39, "at most 23"),
            ("id:bic:CSQU305438", 17, "ISO 6346"),
            ("id:bic:CSQX3054383", 10, "ISO 6346"),
            ("id:bic:CSQU30543831", 18, "ISO 6346"),
            ("id:bic:CSQU3054384", 17, "check digit of this BIC is 3"),
            ("id:imovn:IMO9176187", 9, "7 digits"),
            ("id:imovn:91761870", 16, "7 digits"),
            ("class:lgtin:4012345.012345", 26, "the lot, 1 to 20 characters"),
            ("class:lgtin:abc", 12, "6 to 12 digits"),
            (
                "class:lgtin:4012345.012345.123456789012345678901",
                47,
                "at most 20",
            ),
            (
                "id:SGTIN:0614141.12345.400",
                3,
                "EPC scheme names are lower case: 'sgtin'",
            ),
            ("tag:SGTIN-96:9.0614141.12345.400", 4, "lower case: 'sgtin-96'"),
            ("idpat:Sgtin:0614141.*", 6, "lower case: 'sgtin'"),
            ("idpat:gsin:0614141.12", 19, "has 9 digits after"),
        ] {
            let v = check_epc(nss).err().unwrap_or_else(|| panic!("{nss} passed"));
            assert_eq!(v.offset, offset, "{nss}: {}", v.message);
            assert!(v.message.contains(said), "{nss}: {}", v.message);
        }
    }

    /// Each message names the TDS section it applies once, as its
    /// citation (which goes last, after the offset), never in its text.
    #[test]
    fn every_message_cites_its_section_once() {
        for nss in [
            "id:SGTIN:0614141.12345.400",
            "tag:SGTIN-96:9.0614141.12345.400",
            "idpat:Sgtin:0614141.*",
            "pat:Sgtin-96:3.0614141.*",
            "class:LGTIN:4012345.012345.1",
            "idpat:sgtin:06141.12345678.*",
            "idpat:gsin:0614141.12",
            "id:pgln:4000001.00000.0",
            "id:pgln:abc.def",
            "id:ginc:06.x",
            "id:ginc:0614141.",
            "id:upui:1234567.089456.a/b",
            "id:upui:1234567.089456.12345678901234567890123456789",
            "class:lgtin:4012345.012345",
            "id:bic:CSQX3054383",
            "id:bic:CSQU3054384",
            "id:imovn:IMO9176187",
            "tag:sgtin-96:3.0614141.812345.0400",
            "tag:sgtin-96:3.0614141.812345.274877906944",
        ] {
            let v = check_epc(nss).err().unwrap_or_else(|| panic!("{nss} passed"));
            let cite = v
                .cite
                .unwrap_or_else(|| panic!("{nss}: no citation: {}", v.message));
            assert!(
                cite.starts_with("EPC TDS §") || cite.starts_with("RFC 5134 §2 and EPC TDS §"),
                "{cite}"
            );
            assert!(
                !v.message.contains("TDS") && !v.message.contains("section"),
                "{nss}: {}",
                v.message
            );
        }
    }
}
