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

/// GSMA IMEI URNs (RFC 7254 section 4.2.3): "The Spare digit ... is
/// always set to zero when transmitted", the IMEI URN format included:
/// the last digit of an `imeival`, which an `imei` NSS holds when it has
/// no `vers` parameter or `vers=0` (section 4.1; another `vers` gives the
/// `ext-imei` of that version). The grammar has read the NSS.
pub(super) fn check_gsma(nss: &str) -> Result<(), Violation> {
    if !nss
        .get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("imei:"))
    {
        return Ok(());
    }
    let mut parts = nss[5..].split(';');
    let value = parts.next().unwrap_or_default().as_bytes();
    let other_version =
        parts.any(|p| p.get(..5).is_some_and(|name| name.eq_ignore_ascii_case("vers=")) && &p[5..] != "0");
    if other_version {
        return Ok(());
    }
    // imeival = tac "-" snr "-" spare: 8DIGIT "-" 6DIGIT "-" DIGIT
    match value {
        [tac @ .., b'-', spare] if tac.len() == 15 && tac[8] == b'-' && *spare != b'0' => Err(violation(
            5 + 16,
            format_args!(
                "the Spare digit of an IMEI is always 0 in the URN (RFC 7254 section 4.2.3), not '{}'",
                *spare as char
            ),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gsma_imei_spare_digit_is_zero() {
        let v = check_gsma("imei:35209900-176148-1").unwrap_err();
        assert_eq!(v.offset, 21);
        assert!(v.message.contains("Spare digit"), "{}", v.message);
        assert!(check_gsma("IMEI:35209900-176148-9;SVN=42;VERS=0").is_err());
        assert_eq!(check_gsma("imei:35209900-176148-0"), Ok(()));
        assert_eq!(check_gsma("imei:35209900-176148-1;vers=1"), Ok(()), "ext-imei");
        assert_eq!(check_gsma("imeisv:1"), Ok(()));
        for odd in [
            "",
            "imei",
            "imei:",
            "imei:-1",
            "imei:;vers=\u{e9}",
            "\u{e9}\u{e9}\u{e9}",
        ] {
            let _ = check_gsma(odd);
        }
    }

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
