//! LEI (ISO 17442): 20 characters, the ISO 7064 MOD 97-10 check digits (the lei registration).

#[allow(unused_imports)]
use super::*;

/// LEI (ISO 17442; IANA lei registration): 18 letters or digits and two
/// check digits, ISO 7064 MOD 97-10 (letters count 10 to 35). The
/// registration says the URN "is not case sensitive", so lower-case
/// letters are read as their upper-case forms.
pub(super) fn check_lei(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(20) {
        let ok = if i >= 18 {
            b.is_ascii_digit()
        } else {
            b.is_ascii_alphanumeric()
        };
        if !ok {
            let what = if i >= 18 {
                "a check digit"
            } else {
                "a letter or a digit"
            };
            return Err(violation(
                i,
                format_args!("expected {what} (LEI is 20 characters)"),
            ));
        }
    }
    if bytes.len() != 20 {
        return Err(violation(bytes.len().min(20), "expected 20 characters (LEI)"));
    }
    let remainder = bytes.iter().fold(0u32, |r, &b| {
        let b = b.to_ascii_uppercase();
        let v = if b.is_ascii_digit() {
            u32::from(b - b'0')
        } else {
            u32::from(b - b'A') + 10
        };
        if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        }
    });
    if remainder != 1 {
        return Err(violation(18, "wrong LEI check digits (ISO 7064 MOD 97-10)"));
    }
    Ok(())
}

/// LEI equivalence: the registration says the URN "is not case sensitive"
/// (and, in the same text, that equivalence "is determined by lexical
/// identity"); an LEI "consists in uppercase letters" and digits (ISO
/// 17442). The key is the LEI in upper case; what is no LEI keeps its
/// generic key.
pub(super) fn normalize_lei(nss: &str, out: &mut Vec<u8>) -> bool {
    if check_lei(nss).is_err() {
        return false;
    }
    out.extend(nss.bytes().map(|b| b.to_ascii_uppercase()));
    true
}
