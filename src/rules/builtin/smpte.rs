//! SMPTE UL (SMPTE ST 2029): the universal label in lower case, its dots kept.

#[allow(unused_imports)]
use super::*;

/// SMPTE (RFC 5119 section 2, Rules for Lexical Equivalence): URNs in
/// the `urn:smpte:ul` subnamespace compare case-insensitively; all
/// others exactly (RFC 2141).
pub(super) fn normalize_smpte_ul(nss: &str) -> Option<String> {
    nss.get(..3)?
        .eq_ignore_ascii_case("ul:")
        .then(|| lower_outside_escapes(nss))
}

#[cfg(test)]
mod tests {
    use super::*;

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
