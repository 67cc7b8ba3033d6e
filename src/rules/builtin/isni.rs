//! ISNI (ISO 27729): 16 characters, the ISO 7064 MOD 11-2 check character (the isni registration).

#[allow(unused_imports)]
use super::*;

/// ISNI (ISO 27729; IANA isni registration): 15 digits and a check
/// character (DIGIT or "X", a lower-case "x" tolerated), ISO 7064 MOD 11-2.
pub(super) fn check_isni(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(16) {
        let ok = b.is_ascii_digit() || (i == 15 && (b == b'X' || b == b'x'));
        if !ok {
            let what = if i == 15 { "a digit or 'X'" } else { "a digit" };
            return Err(violation(
                i,
                format_args!("expected {what} (ISNI is 15 digits and a check character)"),
            ));
        }
    }
    if bytes.len() != 16 {
        return Err(violation(
            bytes.len().min(16),
            "expected 16 characters (ISNI is 15 digits and a check character)",
        ));
    }
    let total = bytes[..15]
        .iter()
        .fold(0u32, |t, b| (t + u32::from(b - b'0')) * 2);
    let want = (12 - total % 11) % 11;
    let got = if bytes[15].is_ascii_digit() {
        u32::from(bytes[15] - b'0')
    } else {
        10
    };
    if want != got {
        let want = if want == 10 {
            "X".to_string()
        } else {
            want.to_string()
        };
        return Err(violation(
            15,
            format_args!("wrong ISNI check character: expected {want} (ISO 7064 MOD 11-2)"),
        ));
    }
    Ok(())
}
