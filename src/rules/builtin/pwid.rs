//! PWID (the pwid registration): the key with the archive, date and identifier parts normalized.

#[allow(unused_imports)]
use super::*;

/// PWID equivalence (IANA pwid registration, Syntax): archive-domain,
/// archival-time and precision-spec are case-insensitive, and so are the
/// case-insensitive parts of the archived URI (its scheme and host, RFC
/// 3986 section 6.2.2.1); the rest of the URI keeps its case.
pub(super) fn normalize_pwid(nss: &str) -> Option<String> {
    // archive-domain ":" archival-time ":" precision-spec ":" archived-uri;
    // the archival time ends at its "Z", the only place a "Z" can be. An
    // NSS is ASCII (RFC 8141 section 2); anything else is left alone.
    if !nss.is_ascii() {
        return None;
    }
    let domain_end = nss.find(':')?;
    let time_end = domain_end + nss[domain_end..].find(['Z', 'z'])? + 1;
    // ":" precision-spec ":" (part or page; the owner's resolver's
    // coverages, site, collection and the like, are longer).
    let spec = nss[time_end..].strip_prefix(':')?;
    let uri_start = time_end + 1 + spec.find(':')? + 1;
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            n("Archive.ORG:2018-02-22T11:54:11Z:collection:HTTPS://IPRES2018.org/Program"),
            "archive.org:2018-02-22t11:54:11z:collection:https://ipres2018.org/Program"
        );
        assert_eq!(normalize("pwid", "archive.org:2016-01-22"), None);
        assert_eq!(normalize("pwid", "a:2016Z\u{e9}page:x:y"), None);
        assert_eq!(normalize("pwid", "a:2016Z:pag\u{e9}x:y"), None);
    }
}
