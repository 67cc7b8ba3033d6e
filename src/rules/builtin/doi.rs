//! DOI names written in the DOI Handbook's URN presentation (section
//! 2.6.3): `urn:doi:10.123:456` for the DOI name `10.123/456`, a colon in
//! place of the slash between prefix and suffix (further slashes of the
//! suffix are percent-encoded, which `pct-decode-pchar` then decodes).

/// The NSS as the DOI name it presents: its first `:` (the end of the
/// prefix) written `/`, so that the key compares with the registration's
/// form `10.123/456`; `false` (the key as it is) without a colon.
pub(super) fn normalize_doi_handbook_colon(nss: &str, out: &mut Vec<u8>) -> bool {
    let Some(at) = memchr::memchr(b':', nss.as_bytes()) else {
        return false;
    };
    // Only the prefix's colon: none once a '/' has ended the prefix
    // (`10.123/a:b` is a DOI whose suffix holds ':'), and a prefix is not
    // empty. So a key normalized again stays as it was.
    if at == 0 || nss.as_bytes()[..at].contains(&b'/') {
        return false;
    }
    out.extend_from_slice(&nss.as_bytes()[..at]);
    out.push(b'/');
    out.extend_from_slice(&nss.as_bytes()[at + 1..]);
    true
}

#[cfg(test)]
mod tests {
    use super::super::normalize;

    /// DOI Handbook section 2.6.3: urn:doi:10.123:456 is the DOI name
    /// 10.123/456; only the prefix's colon is the slash.
    #[test]
    fn the_handbook_colon_is_the_prefix_slash() {
        let n = |s: &str| normalize("doi-handbook-colon", s);
        assert_eq!(n("10.123:456").as_deref(), Some("10.123/456"));
        assert_eq!(n("10.123:456ABC%2Fzyz").as_deref(), Some("10.123/456ABC%2Fzyz"));
        assert_eq!(n("10.123:a:b").as_deref(), Some("10.123/a:b"));
        assert_eq!(n("10.123/456"), None);
        // Normalized again, the key stays (found in hostile testing).
        assert_eq!(n("10.123/a:b"), None);
        assert_eq!(n(":0xxA"), None);
    }
}
