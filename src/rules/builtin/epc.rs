//! EPC (RFC 5134 and the EPC Tag Data Standard it cites): the integer
//! fields of the binary encodings, which no pattern of digits bounds.

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
        return Err(violation(
            at,
            format_args!(
                "a GS1 Company Prefix has 6 to 12 digits, not {} ({category}:{scheme}, TDS section 6.3)",
                prefix.len()
            ),
        ));
    }
    let Some(rest) = fields.next().filter(|f| digits(f)) else {
        return Ok(());
    };
    if prefix.len() + rest.len() != total {
        return Err(violation(
            at + prefix.len() + 1,
            format_args!(
                "the {reference} of {category}:{scheme} has {} digits after a {}-digit company prefix, \
                 not {} (TDS section 6.3)",
                total - prefix.len(),
                prefix.len(),
                rest.len()
            ),
        ));
    }
    Ok(())
}

/// EPC (RFC 5134 section 2, the Tag Data Standard's URIs): the integer
/// fields of [`SCHEMES`] have no leading zeros and fit their bits, and the
/// GS1 keys of pattern and class URIs have their length
/// ([`check_pattern_key`]). The grammar has checked the id and tag URIs'
/// digits and lengths.
pub(super) fn check_epc(nss: &str) -> Result<(), Violation> {
    let mut parts = nss.splitn(3, ':');
    let (Some(category), Some(scheme), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
        return Ok(());
    };
    check_pattern_key(category, scheme, body, category.len() + scheme.len() + 2)?;
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
            return Err(violation(
                at,
                format_args!(
                    "the {} of {scheme} is a decimal integer without leading zeros (TDS section 14.3.1)",
                    f.name
                ),
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
            return Err(violation(
                at,
                format_args!("the {} of {scheme} is at most {max} (TDS section 14.5)", f.name),
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
        assert_eq!(
            v.message,
            "the serial of sgtin-96 is at most 274877906943 (TDS section 14.5)"
        );
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
            "the item reference of class:lgtin has 6 digits after a 7-digit company prefix, not 4 \
             (TDS section 6.3)"
        );
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
}
