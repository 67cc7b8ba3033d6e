//! Byte classes of the URN grammar as 256-entry constant tables.
//!
//! RFC 8141 section 2 builds on RFC 3986 section 2 (`unreserved`,
//! `sub-delims`, `pchar`, `pct-encoded`); the legacy RFC 2141 section 2.2
//! grammar has its own `<trans>` set. Everything is ASCII, so one table
//! lookup classifies a byte and every offset is a byte offset.

/// RFC 5234 `ALPHA`.
pub const ALPHA: u16 = 1 << 0;
/// RFC 5234 `DIGIT`.
pub const DIGIT: u16 = 1 << 1;
/// RFC 5234 `HEXDIG` (both cases, as RFC 3986 section 2.1 allows).
pub const HEXDIG: u16 = 1 << 2;
/// RFC 3986 section 2.3 `unreserved`: ALPHA / DIGIT / "-" / "." / "_" / "~".
pub const UNRESERVED: u16 = 1 << 3;
/// RFC 3986 section 2.2 `sub-delims`.
pub const SUB_DELIMS: u16 = 1 << 4;
/// RFC 3986 section 3.3 `pchar` without `pct-encoded` (which starts with `%`
/// and is checked separately): unreserved / sub-delims / ":" / "@".
pub const PCHAR: u16 = 1 << 5;
/// RFC 8141 section 2 `ldh`: alphanum / "-".
pub const LDH: u16 = 1 << 6;
/// RFC 2141 section 2.2 `<trans>` without `%` and the reserved `/ ? #`:
/// letters, digits and `( ) + , - . : = @ ; $ _ ! * '`.
pub const RFC2141_TRANS: u16 = 1 << 7;
/// `pchar` (without `pct-encoded`) or `/`: the bytes an NSS or a
/// component takes as they are, so that a scan needs one lookup a byte.
pub const PCHAR_SLASH: u16 = 1 << 8;

const fn build() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut class = 0;
        if b.is_ascii_alphabetic() {
            class |= ALPHA | UNRESERVED | PCHAR | LDH | RFC2141_TRANS;
        }
        if b.is_ascii_digit() {
            class |= DIGIT | UNRESERVED | PCHAR | LDH | RFC2141_TRANS;
        }
        if b.is_ascii_hexdigit() {
            class |= HEXDIG;
        }
        match b {
            b'-' => class |= UNRESERVED | PCHAR | LDH | RFC2141_TRANS,
            b'.' | b'_' => class |= UNRESERVED | PCHAR | RFC2141_TRANS,
            b'~' => class |= UNRESERVED | PCHAR,
            b'!' | b'$' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => {
                class |= SUB_DELIMS | PCHAR | RFC2141_TRANS
            }
            b'&' => class |= SUB_DELIMS | PCHAR,
            b':' | b'@' => class |= PCHAR | RFC2141_TRANS,
            _ => {}
        }
        if class & PCHAR != 0 || b == b'/' {
            class |= PCHAR_SLASH;
        }
        table[i] = class;
        i += 1;
    }
    table
}

static TABLE: [u16; 256] = build();

/// Returns true if and only if `byte` belongs to every class in `class`.
#[inline]
pub fn is(byte: u8, class: u16) -> bool {
    TABLE[byte as usize] & class == class
}

/// The value of a hex digit, or `None`.
#[inline]
pub fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_pchar_is_exactly_the_listed_set() {
        let listed = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@";
        for b in 0..=255u8 {
            assert_eq!(is(b, PCHAR), listed.contains(&b), "byte {b:#04x}");
        }
    }

    #[test]
    fn pchar_slash_is_pchar_and_slash() {
        for b in 0..=255u8 {
            assert_eq!(is(b, PCHAR_SLASH), is(b, PCHAR) || b == b'/', "byte {b:#04x}");
        }
    }

    #[test]
    fn rfc8141_ldh_is_alphanum_and_hyphen() {
        for b in 0..=255u8 {
            assert_eq!(
                is(b, LDH),
                b.is_ascii_alphanumeric() || b == b'-',
                "byte {b:#04x}"
            );
        }
    }

    #[test]
    fn rfc2141_trans_excludes_reserved_and_new_characters() {
        for b in b"/?#%&~ " {
            assert!(!is(*b, RFC2141_TRANS));
        }
        for b in b"()+,-.:=@;$_!*'aZ9" {
            assert!(is(*b, RFC2141_TRANS));
        }
    }
}
