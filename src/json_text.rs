//! Writing JSON by hand: numbers, strings that need no escaping, and the
//! escaping of any other text. The bricks of a report's JSON
//! (`validate::json`), a namespace's cached JSON object, and the rules'
//! sources made JSON once.

use std::fmt::{self, Write as _};

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// A string the URN grammar already restricted: no escaping needed.
pub(crate) fn push_plain(out: &mut Vec<u8>, s: &str) {
    debug_assert!(!s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'), "{s:?}");
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

pub(crate) fn push_plain_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => push_plain(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// Bytes a JSON string must escape (RFC 8259 section 7), plus DEL.
const fn escape_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7f] = true;
    t
}

static NEEDS_ESCAPE: [bool; 256] = escape_table();

/// Writes into a JSON string body, escaping as RFC 8259 section 7 asks.
struct Escaping<'o>(&'o mut Vec<u8>);

impl fmt::Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let out = &mut *self.0;
        if !needs_escape(s.as_bytes()) {
            // Nearly every piece of a message.
            out.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        let mut rest = s.as_bytes();
        while let Some(i) = rest.iter().position(|&b| NEEDS_ESCAPE[usize::from(b)]) {
            out.extend_from_slice(&rest[..i]);
            match rest[i] {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b => {
                    out.extend_from_slice(b"\\u00");
                    out.push(b"0123456789abcdef"[usize::from(b >> 4)]);
                    out.push(b"0123456789abcdef"[usize::from(b & 15)]);
                }
            }
            rest = &rest[i + 1..];
        }
        out.extend_from_slice(rest);
        Ok(())
    }
}

/// A message's pieces written into a JSON string body, escaped where
/// they must be.
pub(crate) struct JsonText<'o>(pub(crate) &'o mut Vec<u8>);

impl crate::urn::MessageOut for JsonText<'_> {
    fn text(&mut self, s: &str) {
        // Writing to a Vec cannot fail.
        let _ = Escaping(self.0).write_str(s);
    }
}

/// Writes text known to need no JSON escaping.
pub(crate) struct Plain<'o>(pub(crate) &'o mut Vec<u8>);

impl fmt::Write for Plain<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        debug_assert!(!s.bytes().any(|b| NEEDS_ESCAPE[usize::from(b)]), "{s:?}");
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Appends `bytes` in standard base64 (RFC 4648 section 4, with
/// padding).
pub(crate) fn base64_into(out: &mut Vec<u8>, bytes: &[u8]) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= group.len() {
                ALPHABET[(n >> (18 - 6 * i) & 63) as usize]
            } else {
                b'='
            });
        }
    }
}

/// Appends `bytes` as a JSON string of base64: how a byte string that is
/// not UTF-8 is written.
pub(crate) fn push_base64(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    base64_into(out, bytes);
    out.push(b'"');
}

/// Any text as a JSON string.
pub(crate) fn push_escaped(out: &mut Vec<u8>, s: impl fmt::Display) {
    out.push(b'"');
    // Writing to a Vec cannot fail.
    let _ = write!(Escaping(out), "{s}");
    out.push(b'"');
}

/// `s` as a JSON string, quotes included (made once, written often).
pub(crate) fn json_string(s: &str) -> Box<str> {
    let mut out = Vec::with_capacity(s.len() + 2);
    push_text(&mut out, s);
    // Escaped: valid UTF-8 in, valid UTF-8 out.
    String::from_utf8(out).unwrap_or_default().into_boxed_str()
}

/// Returns true if some byte of `bytes` is one JSON escapes
/// ([`NEEDS_ESCAPE`]), eight bytes at a time.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Each is exact for whether some byte of the word is one (not for
    // which): a byte below `n` (n <= 0x80), a byte equal to `b`.
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    let equal = |w: u64, b: u8| below(w ^ (ONES * u64::from(b)), 1);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        if below(w, 0x20) | equal(w, b'"') | equal(w, b'\\') | equal(w, 0x7f) != 0 {
            return true;
        }
    }
    words.remainder().iter().any(|&b| NEEDS_ESCAPE[usize::from(b)])
}

/// Text that may need escaping: copied as it is when it does not.
pub(crate) fn push_text(out: &mut Vec<u8>, s: &str) {
    if needs_escape(s.as_bytes()) {
        push_escaped(out, s);
    } else {
        push_plain(out, s);
    }
}

#[cfg(test)]
mod tests {
    use super::{push_base64, push_u64};

    /// The word-wise test says what the byte table says, wherever in a
    /// word the byte is, next to any other byte.
    #[test]
    fn needs_escape_agrees_with_the_table() {
        for b in 0..=255u8 {
            for other in [b'a', 0x00, 0x80, 0xff, 0x1f, 0x21] {
                for at in 0..11 {
                    let mut text = vec![other; 11];
                    text[at] = b;
                    let want = text.iter().any(|&c| super::NEEDS_ESCAPE[usize::from(c)]);
                    assert_eq!(
                        super::needs_escape(&text),
                        want,
                        "{b:#x} at {at} among {other:#x}"
                    );
                }
            }
        }
    }

    /// RFC 4648 section 10's test vectors.
    #[test]
    fn base64_is_rfc4648s() {
        for (bytes, want) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut out = Vec::new();
            push_base64(&mut out, bytes.as_bytes());
            assert_eq!(out, format!("\"{want}\"").as_bytes(), "{bytes}");
        }
    }

    /// Every length of number, and the edges of each, as `Display` writes it.
    #[test]
    fn push_u64_writes_decimal_digits() {
        let mut edges = vec![0, 1, 9, u64::MAX, u64::MAX - 1];
        let mut p = 10u64;
        while let Some(next) = p.checked_mul(10) {
            edges.extend([p - 1, p, p + 1, p + 10, p * 9 / 10 + 7]);
            p = next;
        }
        edges.extend([p - 1, p, p + 1]);
        for n in edges {
            let mut out = b"x".to_vec();
            push_u64(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes(), "{n}");
        }
    }
}
