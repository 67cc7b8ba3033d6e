//! NewsML (RFC 3085): the case-insensitive parts of the key.

#[allow(unused_imports)]
use super::*;

/// NewsML (RFC 3085 section 2, Rules for Lexical Equivalence): URNs are
/// equivalent when ProviderId, DateId, NewsItemId and RevisionId are
/// identical, so the trailing Update flag ("A" or "U") after the
/// RevisionId is not compared. Case is folded by a separate step.
pub(super) fn normalize_newsml(nss: &str) -> Option<String> {
    let tail = &nss[nss.rfind(':')? + 1..];
    let (&flag, revision) = tail.as_bytes().split_last()?;
    let is_flag = matches!(flag, b'A' | b'a' | b'U' | b'u');
    if is_flag && !revision.is_empty() && revision.iter().all(u8::is_ascii_digit) {
        Some(nss[..nss.len() - 1].to_string())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
