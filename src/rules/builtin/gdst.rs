//! GDST (the gdst registration): the keywords of its identifiers, case-insensitive in the key.

#[allow(unused_imports)]
use super::*;

/// The gdst linkable data types (the second part of their NSS).
pub(super) const GDST_KEYWORDS: [&str; 8] =
    ["product", "location", "party", "bt", "doc", "cert", "lpn", "po"];

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
