//! urn:nbn:at: the sub-namespace codes the OBVSG (the Austrian library network, which assigns
//! urn:nbn:at) publishes with a hyphen, which RFC 8458 reads otherwise.

#[allow(unused_imports)]
use super::*;

/// The most letters after `at-` taken for an OBVSG code (its longest
/// published, `ubtuw`, `ubmuw` and `obvsg`, have five): a longer run is
/// no code of its, and the message, which quotes the code, stays short.
const MAX_OBVSG_CODE: usize = 6;

/// The OBVSG's sub-namespace codes (`at-ubl`, `at-ubtuw`, `AT-WBR`: its
/// URN-Policy 2017, sections 2.2.1 and 3.2) against RFC 8458 section 4.3,
/// whose sub-namespaces have no hyphen and whose prefix, up to the first
/// `-`, is case-insensitive: by the RFC, `urn:nbn:at:at-ubl:3-2681` has the
/// prefix `at:at` and the case-sensitive NBN string `ubl:3-2681`, so it
/// and `urn:nbn:at:AT-UBL:3-2681` are different NBNs; by the OBVSG they
/// are one. Both are said, at the hyphen; the RFC's reading keeps the key.
pub(super) fn check_nbn_at_prefix(nss: &str) -> Result<(), Violation> {
    if !nss.get(..6).is_some_and(|h| h.eq_ignore_ascii_case("at:at-")) {
        return Ok(());
    }
    let letters = nss[6..].bytes().take_while(u8::is_ascii_alphabetic).count();
    if letters == 0 || letters > MAX_OBVSG_CODE {
        return Ok(());
    }
    let code = &nss[3..6 + letters];
    Err(violation(
        5,
        format_args!(
            "OBVSG code '{code}' has a hyphen RFC 8458 §4.3 forbids: the RFC's prefix is '{}' and case \
             matters after it",
            &nss[..5],
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The OBVSG's published codes (URN-Policy 2017; real NBNs of its
    /// repositories) are said at their hyphen; other Austrian NBNs, and
    /// other countries, are not.
    #[test]
    fn obvsg_codes_are_said_with_rfc_8458s_reading() {
        for nss in [
            "at:at-ubl:3-2681",
            "AT:AT-UBL:3-2681",
            "at:AT-WBR-7003",
            "at:at-ubtuw:4-3370",
            "at:at-obvsg-20201013145504030-1597525-7",
        ] {
            assert_eq!(check("nbn-at-prefix", nss).unwrap_err().offset, 5, "{nss}");
        }
        let v = check("nbn-at-prefix", "at:AT-UBL:3-2681").unwrap_err();
        assert_eq!(
            v.message,
            "OBVSG code 'AT-UBL' has a hyphen RFC 8458 §4.3 forbids: the RFC's prefix is 'at:AT' and case matters after it"
        );
        let long = format!("at:at-{}-1", "a".repeat(MAX_OBVSG_CODE + 1));
        for nss in [
            "at:ubl-1",
            "at-123",
            "at:at-1",
            "de:at-ubl-1",
            "ch:rero-006-122207",
            &long,
        ] {
            assert_eq!(check("nbn-at-prefix", nss), Ok(()), "{nss}");
        }
    }
}
