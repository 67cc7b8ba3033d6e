//! ISAN (ISO 15706): the ISO 7064 MOD 37,36 check characters of the root and version.

#[allow(unused_imports)]
use super::*;

/// ISAN (RFC 4246 section 3, ISO 15706): groups of hexadecimal digits
/// separated by '-', with a one-character check after the episode and
/// another after the optional version. Each check character is ISO 7064
/// MOD 37,36 over all the hexadecimal digits before it (root and episode
/// for the first, root, episode and version for the second).
pub(super) fn check_isan(nss: &str) -> Result<(), Violation> {
    let mut values = Vec::with_capacity(24);
    let mut checks = 0;
    let mut at = 0;
    for group in nss.split('-') {
        if group.len() == 1 {
            let want = iso7064_mod37_36(values.iter().copied());
            if base36_value(group.as_bytes()[0]) != Some(want) {
                let want = char::from(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[want as usize]);
                return Err(violation(
                    at,
                    format_args!(
                        "wrong ISAN check character: expected {want} (ISO 7064 MOD 37,36 over the {} hexadecimal digits before it)",
                        values.len()
                    ),
                ));
            }
            checks += 1;
        } else {
            for (i, b) in group.bytes().enumerate() {
                if !b.is_ascii_hexdigit() {
                    return Err(violation(at + i, "expected a hexadecimal digit (ISAN)"));
                }
                values.extend(base36_value(b));
            }
        }
        at += group.len() + 1;
    }
    if checks == 0 {
        return Err(violation(nss.len(), "expected a check character (ISAN)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isan_published_identifiers() {
        // RFC 8141's example ISAN and ISANs published with their check characters.
        for ok in [
            "0000-0000-9E59-0000-O-0000-0000-2",
            "0000-0000-2CEA-0000-1-0000-0000-Y",
            "0000-0000-D07A-0090-Q-0000-0000-X",
            "0000-0000-d07a-0090-q-0000-0000-x",
            "0000-0000-9E59-0000-O",
        ] {
            assert_eq!(check_isan(ok), Ok(()), "{ok}");
        }
        let e = check_isan("0000-0000-9E59-0000-P-0000-0000-2").unwrap_err();
        assert_eq!(e.offset, 20);
        assert!(e.message.contains("expected O"), "{}", e.message);
        let e = check_isan("0000-0000-9E59-0000-O-0000-0000-3").unwrap_err();
        assert_eq!(e.offset, 32);
        assert!(e.message.contains("expected 2"), "{}", e.message);
        // Never panics on what the grammar would refuse.
        for bad in ["", "-", "--", "x", "0000-0000-0000-0000", "0000-!-0"] {
            assert!(check_isan(bad).is_err(), "{bad}");
        }
    }
}
