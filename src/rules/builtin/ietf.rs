//! IETF (RFC 2648 section 2, RFC 3553 section 3): an `other-nss` is no
//! prefix of those the registration gives a form.

#[allow(unused_imports)]
use super::*;

/// The prefixes of RFC 2648 section 2's forms (rfc-nss, fyi-nss, std-nss,
/// bcp-nss, draft-nss, mtg-nss) and RFC 3553 section 3's params, each with
/// what follows its ':'.
const PREFIXES: &[(&str, &str)] = &[
    ("rfc", "a number"),
    ("fyi", "a number"),
    ("std", "a number"),
    ("bcp", "a number"),
    ("id", "a draft name"),
    ("mtg", "a meeting name"),
    ("params", "a name"),
];

/// IETF (RFC 2648 section 2): `other-nss = string`, "beginning with a
/// prefix other than one of those above for future expansion"; RFC 3553
/// section 3 adds params. The grammar's `string` takes `rfc` or `params`
/// alone, which the comment leaves out: a series' prefix without its ':'
/// and what follows (`urn:ietf:rfc`) names nothing. Letter case does not
/// matter (the entire URN is case-insensitive).
pub(super) fn check_ietf(nss: &str) -> Result<(), Violation> {
    match PREFIXES.iter().find(|(p, _)| nss.eq_ignore_ascii_case(p)) {
        Some((prefix, next)) => Err(violation(
            nss.len(),
            format!(
                "'{prefix}' needs ':' and {next}: other-nss begins with a prefix other than rfc, fyi, std, bcp, id, mtg, params (RFC 3553)"
            ),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_prefix_alone_is_no_other_nss() {
        for nss in ["rfc", "RFC", "bcp", "std", "fyi", "id", "mtg", "params"] {
            let e = check_ietf(nss).unwrap_err();
            assert_eq!(e.offset, nss.len(), "{nss}");
            assert!(e.message.contains("needs ':'"), "{}", e.message);
        }
        for nss in ["rfc:2648", "rfcx", "idx", "wg", "params:xml:ns:x", "iesg"] {
            assert_eq!(check_ietf(nss), Ok(()), "{nss}");
        }
    }
}
