//! GSMA IMEI (RFC 7254): the imei and imeisv forms and their key.

#[allow(unused_imports)]
use super::*;

/// GSMA IMEI URNs (RFC 7254 section 3, Rules for Lexical Equivalence):
/// the same `imeival` and the same parameters in the same order, a
/// `vers=0` parameter ignored, all compared case-insensitively. Other
/// GSMA NSSs keep the generic equivalence.
pub(super) fn normalize_gsma_imei(nss: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
