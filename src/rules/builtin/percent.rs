//! Percent-decoding of characters RFC 8141 lets appear bare (pchar), for namespaces whose equivalence decodes them.

#[allow(unused_imports)]
use super::*;

/// True if and only if `b` may stand unencoded in an NSS (RFC 8141
/// section 2: `pchar` or `/`), other than `%` itself.
pub(super) fn is_nss_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b)
}

/// Decodes every `%HH` triplet that stands for a character allowed
/// unencoded in an NSS; other triplets stay (upper-case hex, as in the
/// generic key). For namespaces whose registration removes
/// percent-encoding before comparison (DOI registration, "Rules for
/// lexical equivalence").
pub(super) fn normalize_pct_decode_pchar(nss: &str) -> Option<String> {
    let bytes = nss.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) if is_nss_char(b) => out.push(b),
                _ => out.extend(bytes[i..i + 3].iter().map(u8::to_ascii_uppercase)),
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `s` with its ASCII letters lower-cased, except in `%HH` triplets
/// (whose hex digits the generic key keeps in upper case): the rules'
/// in-place lower-casing on a copy, for the normalizers that build a new
/// NSS.
pub(super) fn lower_outside_escapes(s: &str) -> String {
    let mut bytes = s.as_bytes().to_vec();
    crate::rules::lower_outside_escapes(&mut bytes);
    // Lower-casing ASCII letters keeps UTF-8 whole.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pct_decode_pchar_decodes_only_what_may_stand_unencoded() {
        let n = |s: &str| normalize("pct-decode-pchar", s).unwrap();
        assert_eq!(n("10.1000/%41bc%2D%2F"), "10.1000/Abc-/");
        assert_eq!(n("10.1000/456%23789"), "10.1000/456%23789");
        assert_eq!(n("a%25b"), "a%25b", "'%' itself stays encoded");
        assert_eq!(n("a%c3%a9"), "a%C3%A9");
        assert_eq!(n("a%2"), "a%2", "a cut triplet is left alone");
    }
}
