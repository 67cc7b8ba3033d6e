//! EIDR (RFC 7972, SMPTE RP 2079): the DOI prefix 10.5240 and the ISO 7064 MOD 37,36 check character.

#[allow(unused_imports)]
use super::*;

/// EIDR (IANA eidr registration, RFC 7972): when the prefix is `10.5240`
/// the suffix is SMPTE RP 2079's `5(4HEXDIG "-") CHECK`, CHECK being the
/// ISO 7064 MOD 37,36 check character over the 20 hexadecimal digits.
/// Other prefixes have no check character and are not checked here.
pub(super) fn check_eidr(nss: &str) -> Result<(), Violation> {
    let Some((prefix, suffix)) = nss.split_once(':') else {
        return Err(violation(
            nss.len(),
            "expected ':' between the EIDR prefix and suffix",
        ));
    };
    if prefix != "10.5240" {
        return Ok(());
    }
    let base = prefix.len() + 1;
    let bytes = suffix.as_bytes();
    let mut values = Vec::with_capacity(20);
    for (i, &b) in bytes.iter().enumerate().take(26) {
        match i {
            4 | 9 | 14 | 19 | 24 if b == b'-' => {}
            4 | 9 | 14 | 19 | 24 => {
                return Err(violation(
                    base + i,
                    "expected '-' (EIDR suffix is 5(4HEXDIG \"-\") CHECK)",
                ));
            }
            25 if b.is_ascii_alphanumeric() => {}
            25 => {
                return Err(violation(
                    base + i,
                    "expected the check character (a letter or a digit)",
                ));
            }
            _ if b.is_ascii_hexdigit() => values.extend(base36_value(b)),
            _ => return Err(violation(base + i, "expected a hexadecimal digit (EIDR suffix)")),
        }
    }
    if bytes.len() != 26 {
        return Err(violation(
            base + bytes.len().min(26),
            "expected 26 characters after '10.5240:' (EIDR suffix is 5(4HEXDIG \"-\") CHECK)",
        ));
    }
    let want = iso7064_mod37_36(values);
    if base36_value(bytes[25]) != Some(want) {
        let want = char::from(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[want as usize]);
        return Err(violation(
            base + 25,
            format_args!("wrong EIDR check character: expected {want} (ISO 7064 MOD 37,36)"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eidr_published_identifiers() {
        // The registration's example and EIDR IDs published in schema.org's
        // titleEIDR/editEIDR documentation (Ghostbusters, The Hitchhiker's
        // Guide to the Galaxy).
        for id in [
            "10.5240:7791-8534-2C23-9030-8610-5",
            "10.5240:7EC7-228A-510A-053E-CBB8-J",
            "10.5240:1F2A-E1C5-680A-14C6-E76B-I",
            "10.5240:B752-5B47-DBBE-E5D4-5A3F-N",
            "10.5240:0196-4177-FF62-A346-D0F6-Z",
            "10.5240:7ec7-228a-510a-053e-cbb8-j",
        ] {
            assert_eq!(check("eidr", id), Ok(()), "{id}");
        }
        let wrong = check("eidr", "10.5240:7791-8534-2C23-9030-8610-6").unwrap_err();
        assert_eq!(wrong.offset, 33);
        assert!(wrong.message.contains("expected 5"), "{}", wrong.message);
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2C23-9030-8610")
                .unwrap_err()
                .offset,
            32
        );
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2G23-9030-8610-5")
                .unwrap_err()
                .offset,
            19
        );
        assert_eq!(
            check("eidr", "10.5240:7791.8534-2C23-9030-8610-5")
                .unwrap_err()
                .offset,
            12
        );
        assert_eq!(
            check("eidr", "10.5240:7791-8534-2C23-9030-8610-5X")
                .unwrap_err()
                .offset,
            34
        );
        assert_eq!(
            check("eidr", "10.5237:F8A2-1234"),
            Ok(()),
            "other prefixes carry no check character"
        );
        assert_eq!(check("eidr", "10.5240").unwrap_err().offset, 7);
    }
}
