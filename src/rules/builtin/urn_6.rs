//! urn-6 (informal, the registration of urn-6): names and their escaped characters, and its key.

#[allow(unused_imports)]
use super::*;

/// urn-6 registration: a name "has a maximum size of 255 bytes" once
/// URI-encoded.
pub(super) const URN_6_MAX_NAME: usize = 255;

/// Where the name starts in `<language code>:<sub-namespace>:<name>`.
pub(super) fn urn_6_name_start(nss: &str) -> Option<usize> {
    let first = nss.find(':')?;
    let second = first + 1 + nss[first + 1..].find(':')?;
    Some(second + 1)
}

pub(super) fn check_urn_6(nss: &str) -> Result<(), Violation> {
    let Some(start) = urn_6_name_start(nss) else {
        return Err(violation(
            nss.len(),
            "expected <language code>:<place|user|subject>:<name> (urn-6)",
        ));
    };
    let name = nss.len() - start;
    if name > URN_6_MAX_NAME {
        return Err(violation(
            start + URN_6_MAX_NAME,
            format_args!("the name has {name} bytes; urn-6 allows at most {URN_6_MAX_NAME}"),
        ));
    }
    Ok(())
}

pub(super) fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The UTF-8 bytes of the `%HH` triplets at the start of `s`, as many
/// as the lead byte asks for; `None` when they are not there.
pub(super) fn leading_escaped_char(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    let byte_at = |i: usize| -> Option<u8> {
        let t = b.get(3 * i..3 * i + 3)?;
        (t[0] == b'%').then_some(())?;
        Some((hex_value(t[1])? << 4) | hex_value(t[2])?)
    };
    let lead = byte_at(0)?;
    let len = match lead {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let bytes = (0..len).map(byte_at).collect::<Option<Vec<u8>>>()?;
    let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
    Some((c, 3 * len))
}

/// urn-6 equivalence ("the <place name>, <user name>, or <topic
/// identifier> differ only in the case of their first character"): the
/// first character of the name is upper-cased, literal or
/// percent-encoded (a character whose upper case is not one character
/// stays as it is).
pub(super) fn normalize_urn_6(nss: &str) -> Option<String> {
    let start = urn_6_name_start(nss)?;
    let name = &nss[start..];
    let first = *name.as_bytes().first()?;
    if first.is_ascii_lowercase() {
        return Some(format!(
            "{}{}{}",
            &nss[..start],
            first.to_ascii_uppercase() as char,
            &name[1..]
        ));
    }
    if first != b'%' {
        return None;
    }
    let (c, used) = leading_escaped_char(name)?;
    let mut upper = c.to_uppercase();
    let (Some(u), None) = (upper.next(), upper.next()) else {
        return None;
    };
    if u == c {
        return None;
    }
    let mut buf = [0u8; 4];
    let encoded: String = u
        .encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect();
    Some(format!("{}{encoded}{}", &nss[..start], &name[used..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urn_6_name_length_and_first_character() {
        let longest = format!("en:place:{}", "a".repeat(URN_6_MAX_NAME));
        assert_eq!(check_urn_6(&longest), Ok(()));
        let over = format!("{longest}a");
        assert_eq!(check_urn_6(&over).unwrap_err().offset, 9 + URN_6_MAX_NAME);
        assert!(check_urn_6("en").is_err());
        // The registration's example: Chine and chine are equivalent.
        assert_eq!(normalize_urn_6("fr:place:chine").unwrap(), "fr:place:Chine");
        assert_eq!(normalize_urn_6("fr:place:Chine"), None);
        // Only the first character: CHINE stays apart from Chine.
        assert_eq!(normalize_urn_6("fr:place:cHINE").unwrap(), "fr:place:CHINE");
        // A percent-encoded first character (e with acute, U+00E9).
        assert_eq!(
            normalize_urn_6("fr:place:%C3%A9vora").unwrap(),
            "fr:place:%C3%89vora"
        );
        assert_eq!(normalize_urn_6("fr:place:%C3%89vora"), None);
        // Sharp s upper-cases to two characters: left alone; so are
        // broken escapes and names that do not start with a letter.
        assert_eq!(normalize_urn_6("de:place:%C3%9Fx"), None);
        assert_eq!(normalize_urn_6("de:place:%C3x"), None);
        assert_eq!(normalize_urn_6("de:place:%FF%FF"), None);
        assert_eq!(normalize_urn_6("en:place:_x"), None);
        assert_eq!(normalize_urn_6("en:place:"), None);
    }
}
