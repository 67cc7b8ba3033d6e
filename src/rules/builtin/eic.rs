//! EIC, the Energy Identification Code (the eic registration: Section 5 of the EIC Reference Manual 5.5): 16 characters and their check character.

#[allow(unused_imports)]
use super::*;

/// The EIC alphabet in value order: digits 0-9, letters 10-35, `-` 36.
pub(super) const EIC_ALPHABET: &[u8; 37] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-";

pub(super) fn eic_value(b: u8) -> Option<u32> {
    EIC_ALPHABET.iter().position(|&c| c == b).map(|v| v as u32)
}

/// EIC (eic registration: Section 5 of the EIC Reference Manual 5.5):
/// 16 characters of `0-9 A-Z -`; the first 15 values weighted 16 down
/// to 2 and summed, the check character is `36 - ((sum - 1) mod 37)`,
/// and a code whose check character would be `-` is not valid.
pub(super) fn check_eic(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    if let Some(i) = bytes.iter().take(16).position(|&b| eic_value(b).is_none()) {
        return Err(violation(
            i,
            "expected an upper-case letter, a digit or '-' (an EIC is 16 of them)",
        ));
    }
    if bytes.len() != 16 {
        return Err(violation(bytes.len().min(16), "expected 16 characters (EIC)"));
    }
    let sum: u32 = bytes[..15]
        .iter()
        .zip((2..=16u32).rev())
        .map(|(&b, weight)| eic_value(b).unwrap_or(0) * weight)
        .sum();
    // (sum - 1) mod 37 without going below zero.
    let want = 36 - (sum + 36) % 37;
    if want == 36 {
        return Err(violation(
            15,
            "not an EIC: the check character of these 15 characters would be '-', which is never issued",
        ));
    }
    let want = EIC_ALPHABET[want as usize];
    if bytes[15] != want {
        return Err(violation(
            15,
            format_args!("wrong EIC check character: expected {}", want as char),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eic_published_codes() {
        // ENTSO-E codes: the ENTSO-E office itself, the 50Hertz control
        // area, Swissgrid, and a party from python-stdnum's collection
        // of codes found published.
        for code in [
            "10X1001A1001A450",
            "10YDE-VE-------2",
            "10YCH-SWISSGRIDZ",
            "22XWATTPLUS----G",
        ] {
            assert_eq!(check_eic(code), Ok(()), "{code}");
        }
        let wrong = check_eic("10YDE-VE-------3").unwrap_err();
        assert_eq!(
            (wrong.offset, wrong.message.as_str()),
            (15, "wrong EIC check character: expected 2")
        );
        assert!(check_eic("23X--130302DLGW-").unwrap_err().message.contains("'-'"));
        assert_eq!(check_eic("10YDE-VE------2").unwrap_err().offset, 15);
        assert_eq!(check_eic("10ydE-VE-------2").unwrap_err().offset, 2);
        assert_eq!(check_eic("10YDE-VE-------22").unwrap_err().offset, 16);
    }
}
