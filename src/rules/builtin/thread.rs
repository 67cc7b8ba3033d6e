//! Thread URNs: the sn-content rules of the Thread Group's own URN
//! registry, which the thread registration (Syntax) tells a parser to
//! apply to the sub-namespaces it registers.
//!
//! Registry: ThreadGroup/urn-thread-registry, registry.md, version 1.4.0.

#[allow(unused_imports)]
use super::*;

// Each rule is cited as the section of the Thread URN registry 1.4.0
// it comes from (in place of the registration's citation).

/// The sub-namespaces of an Operational Dataset as hex (registry section
/// 3, dataset:act:hex and dataset:pen:hex).
const DATASETS: [&str; 2] = ["dataset:act:hex:", "dataset:pen:hex:"];

/// Checks the sn-content of the registered sub-namespaces (`pc`,
/// `dataset:act:hex`, `dataset:pen:hex`, `spec`); other sub-namespaces
/// keep the registration's generic syntax ("a parser may not be able to
/// identify where ... the sub-namespace stops").
pub(super) fn check_thread(nss: &str) -> Result<(), Violation> {
    if let Some(code) = nss.strip_prefix("pc:") {
        // "<code-string> MUST match the regexp: [0-9]+".
        let at = "pc:".len();
        if code.is_empty() {
            return Err(cited_violation(
                at,
                "expected the passcode's digits after 'pc:'",
                "Thread URN registry 1.4.0, pc",
            ));
        }
        if let Some(i) = code.bytes().position(|b| !b.is_ascii_digit()) {
            return Err(cited_violation(
                at + i,
                "expected a digit: a passcode is digits only",
                "Thread URN registry 1.4.0, pc: [0-9]+",
            ));
        }
        return Ok(());
    }
    if let Some(hex) = DATASETS.iter().find_map(|p| nss.strip_prefix(p)) {
        // "MUST match the regexp: [a-fA-F0-9]*", "an even number of
        // characters" (zero: an empty dataset).
        let at = nss.len() - hex.len();
        if let Some(i) = hex.bytes().position(|b| !b.is_ascii_hexdigit()) {
            return Err(cited_violation(
                at + i,
                "expected a hex digit: a dataset is written in hex",
                "Thread URN registry 1.4.0, dataset: [a-fA-F0-9]*",
            ));
        }
        if hex.len() % 2 != 0 {
            return Err(cited_violation(
                nss.len(),
                format_args!("expected an even number of hex digits, found {}", hex.len()),
                "Thread URN registry 1.4.0, dataset: whole bytes",
            ));
        }
        return Ok(());
    }
    if let Some(rest) = nss.strip_prefix("spec:") {
        // spec:<version>, spec:<version>:sec:<section>, and the reserved
        // spec:<version>:<string>:<string> (no ':' in a string).
        let parts = rest.split(':').count();
        if rest.split(':').any(str::is_empty) || !matches!(parts, 1 | 3) {
            return Err(cited_violation(
                "spec:".len(),
                "expected spec:<version> or spec:<version>:<string>:<string>, each part non-empty",
                "Thread URN registry 1.4.0, spec",
            ));
        }
        // "<section> is a string of the section number, without trailing
        // dot" (spec:<version>:sec:<section>).
        if let Some((_, tail)) = rest.split_once(':')
            && let Some(("sec", section)) = tail.split_once(':')
            && section.ends_with('.')
        {
            return Err(cited_violation(
                nss.len() - 1,
                format_args!(
                    "a section number is written without a trailing dot: '{}'",
                    section.trim_end_matches('.')
                ),
                "Thread URN registry 1.4.0, spec:<version>:sec:<section>",
            ));
        }
    }
    Ok(())
}

/// The key of a dataset URN: its hex in lower case ("<hex-string> is
/// case-insensitive"); other thread URNs compare as written.
pub(super) fn normalize_thread(nss: &str, out: &mut Vec<u8>) -> bool {
    let Some(prefix) = DATASETS.iter().find(|p| nss.starts_with(**p)) else {
        return false;
    };
    let hex = &nss[prefix.len()..];
    if !hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return false;
    }
    out.extend_from_slice(prefix.as_bytes());
    out.extend(hex.bytes().map(|b| b.to_ascii_lowercase()));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_registry_sn_content() {
        assert_eq!(check_thread("pc:903723159"), Ok(()));
        assert_eq!(check_thread("pc:12ab").unwrap_err().offset, 5);
        assert_eq!(check_thread("pc:").unwrap_err().offset, 3);
        assert_eq!(check_thread("dataset:act:hex:0e08"), Ok(()));
        assert_eq!(check_thread("dataset:pen:hex:"), Ok(()), "an empty dataset");
        assert_eq!(check_thread("dataset:act:hex:zz").unwrap_err().offset, 16);
        assert_eq!(check_thread("dataset:act:hex:abc").unwrap_err().offset, 19);
        assert_eq!(check_thread("spec:1.3.0"), Ok(()));
        assert_eq!(check_thread("spec:1.4.0:sec:2.9.5"), Ok(()));
        assert!(check_thread("spec:1.4.0:sec").is_err());
        assert!(check_thread("spec:1.4.0:sec:2:9").is_err());
        assert_eq!(check_thread("other:x:y"), Ok(()), "an unregistered sub-namespace");
    }

    #[test]
    fn thread_dataset_hex_is_case_insensitive() {
        let mut out = Vec::new();
        assert!(normalize_thread("dataset:act:hex:0E08", &mut out));
        assert_eq!(out, b"dataset:act:hex:0e08");
        assert!(!normalize_thread("dataset:act:hex:0e08", &mut Vec::new()));
        assert!(!normalize_thread("pc:1", &mut Vec::new()));
    }
}
