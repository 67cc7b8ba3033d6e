//! ISSN (ISO 3297): the MOD 11 check character and the hyphenated key (the issn registration, RFC 3044, RFC 8254).

#[allow(unused_imports)]
use super::*;

/// ISSN (ISO 3297; URN form RFC 3044 / RFC 8254 and the IANA template):
/// `4DIGIT ["-"] 3DIGIT check`, check = DIGIT / "X", mod 11 with weights
/// 8..2. The template asks for `x` to be read as `X`.
pub(super) fn check_issn(nss: &str) -> Result<(), Violation> {
    let bytes = nss.as_bytes();
    let mut found = Digits::<8>::new();
    for (i, &b) in bytes.iter().enumerate() {
        let pos = found.count();
        match b {
            b'0'..=b'9' if pos < 8 => found.push((u32::from(b - b'0'), i)),
            b'X' | b'x' if pos == 7 => found.push((10, i)),
            b'-' if pos == 4 && i == 4 => {}
            _ => {
                let what = if pos == 4 && i == 4 {
                    "a digit or '-'"
                } else if pos == 7 {
                    "a digit or 'X'"
                } else {
                    "a digit"
                };
                return Err(violation(i, format_args!("expected {what} (ISSN is NNNN-NNNC)")));
            }
        }
    }
    if found.count() != 8 {
        return Err(violation(
            bytes.len(),
            "expected 8 characters (ISSN is NNNN-NNNC)",
        ));
    }
    let digits = found.kept();
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, (d, _))| d * (8 - i as u32))
        .sum();
    if !sum.is_multiple_of(11) {
        let partial: u32 = digits[..7]
            .iter()
            .enumerate()
            .map(|(i, (d, _))| d * (8 - i as u32))
            .sum();
        let want = (11 - partial % 11) % 11;
        let want = if want == 10 {
            "X".to_string()
        } else {
            want.to_string()
        };
        return Err(violation(
            digits[7].1,
            format_args!("wrong ISSN check character: expected {want}"),
        ));
    }
    Ok(())
}

/// ISSN equivalence (IANA template): `x` becomes `X`, the hyphen may be
/// omitted: the key is `NNNN-NNNC`.
pub(super) fn normalize_issn(nss: &str, out: &mut Vec<u8>) -> bool {
    // Only `4DIGIT ["-"] 3DIGIT (DIGIT / "X" / "x")` is rewritten: anything
    // else (a `%HH` among others) keeps its generic key.
    if check_issn(nss).is_err() {
        return false;
    }
    // check_issn let through 4 characters, an optional hyphen, 4 more:
    // written with the hyphen and an upper-case X, they are the key.
    if nss.len() == 9 && !nss.ends_with('x') {
        out.extend_from_slice(nss.as_bytes());
        return true;
    }
    let mut key = *b"0000-0000";
    let (head, tail) = key.split_at_mut(4);
    for (slot, b) in head
        .iter_mut()
        .chain(&mut tail[1..])
        .zip(nss.bytes().filter(|b| *b != b'-'))
    {
        *slot = b.to_ascii_uppercase();
    }
    out.extend_from_slice(&key);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issn_published_examples() {
        // The ISSN registration's examples 1 and 2.
        assert_eq!(check("issn", "0317-8471"), Ok(()));
        assert_eq!(check("issn", "1050-124X"), Ok(()));
        assert_eq!(check("issn", "1050124x"), Ok(()));
        assert_eq!(normalize("issn", "1050124x").unwrap(), "1050-124X");
        assert!(
            check("issn", "0317-8472")
                .unwrap_err()
                .message
                .contains("expected 1")
        );
        assert!(check("issn", "0317-847").is_err());
        assert!(check("issn", "03178-471").is_err());
    }
}
