//! The display form of RFC 8141 section 4: percent-encoded UTF-8 shown as
//! the characters it stands for, for people to read.
//!
//! Section 4 allows an application to show URNs "in a more human-friendly
//! form" as long as it can always show the canonical form. We decode only
//! what cannot be mistaken: a percent-encoded ASCII character stays encoded
//! (`%2C` and `,` are *not* URN-equivalent, section 3.2), and so do control,
//! invisible, bidirectional-formatting and white-space characters and
//! anything that is not valid UTF-8.

use super::Urn;
use super::chars::hex_value;

/// A URN as shown to people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisplayForm {
    /// The text to show.
    pub text: String,
    /// True if and only if something was decoded, so that `text` is *not*
    /// the canonical form and must not be copied as the URN.
    pub decoded: bool,
}

/// The text to show ([`DisplayForm::text`]), padded as asked (`{:20}`).
///
/// ```
/// let shown = urnreg::Urn::parse("urn:example:%D0%B0123%2Cz456")?.display_form();
/// assert_eq!(shown.to_string(), "urn:example:а123%2Cz456");
/// # Ok::<(), urnreg::ParseError>(())
/// ```
impl std::fmt::Display for DisplayForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.text)
    }
}

/// Returns true if and only if `c` may be shown decoded: visible, not a
/// formatting or bidirectional control, not white space.
fn is_safe_to_show(c: char) -> bool {
    if c.is_ascii() || c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c,
        '\u{00AD}'                  // soft hyphen
        | '\u{034F}'                // combining grapheme joiner
        | '\u{061C}'                // Arabic letter mark
        | '\u{115F}' | '\u{1160}'   // Hangul fillers
        | '\u{180B}'..='\u{180F}'   // Mongolian variation selectors and vowel separator
        | '\u{200B}'..='\u{200F}'   // zero-width characters, LRM, RLM
        | '\u{202A}'..='\u{202E}'   // bidi embeddings and overrides
        | '\u{2060}'..='\u{206F}'   // word joiner, invisible operators, bidi isolates
        | '\u{3164}'                // Hangul filler
        | '\u{FE00}'..='\u{FE0F}'   // variation selectors
        | '\u{FEFF}'                // byte order mark
        | '\u{FFF0}'..='\u{FFFF}'   // specials
        | '\u{E000}'..='\u{F8FF}'   // private use
        | '\u{E0000}'..='\u{E0FFF}' // tags, variation selectors supplement
        | '\u{F0000}'..) // private use planes
}

/// Decodes the `%HH` at `at`, if there is one.
fn decode_triplet(bytes: &[u8], at: usize) -> Option<u8> {
    if bytes.get(at) != Some(&b'%') {
        return None;
    }
    let hi = hex_value(*bytes.get(at + 1)?)?;
    let lo = hex_value(*bytes.get(at + 2)?)?;
    Some(hi * 16 + lo)
}

impl Urn<'_> {
    /// The section 4 display form: percent-encoded UTF-8 decoded where that
    /// cannot change how a reader understands the URN.
    ///
    /// ```
    /// use urnreg::Urn;
    ///
    /// let urn = Urn::parse("urn:example:%D0%B0123%2Cz456")?;
    /// let shown = urn.display_form();
    /// assert_eq!(shown.text, "urn:example:а123%2Cz456");
    /// assert!(shown.decoded);
    /// # Ok::<(), urnreg::ParseError>(())
    /// ```
    pub fn display_form(&self) -> DisplayForm {
        let bytes = self.as_str().as_bytes();
        let mut text = String::with_capacity(bytes.len());
        let mut decoded = false;
        let mut i = 0;
        let mut utf8 = [0u8; 4];
        while i < bytes.len() {
            let Some(first) = decode_triplet(bytes, i) else {
                text.push(char::from(bytes[i]));
                i += 1;
                continue;
            };
            // A UTF-8 sequence is 2 to 4 triplets; its length follows from the
            // lead byte.
            let width = match first {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 0,
            };
            let mut shown = None;
            if width > 0 {
                utf8[0] = first;
                let complete = (1..width).all(|k| match decode_triplet(bytes, i + 3 * k) {
                    Some(b) => {
                        utf8[k] = b;
                        true
                    }
                    None => false,
                });
                if complete {
                    shown = std::str::from_utf8(&utf8[..width])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .filter(|c| is_safe_to_show(*c));
                }
            }
            match shown {
                Some(c) => {
                    text.push(c);
                    decoded = true;
                    i += 3 * width;
                }
                None => {
                    text.push_str(&self.as_str()[i..i + 3]);
                    i += 3;
                }
            }
        }
        DisplayForm { text, decoded }
    }
}

#[cfg(test)]
mod tests {
    use crate::Urn;

    fn shown(s: &str) -> (String, bool) {
        let form = Urn::parse(s).unwrap().display_form();
        (form.text, form.decoded)
    }

    #[test]
    fn ascii_escapes_stay_encoded_rfc8141_section_3_2() {
        assert_eq!(
            shown("urn:example:a123%2Cz456"),
            ("urn:example:a123%2Cz456".into(), false)
        );
        assert_eq!(shown("urn:example:%41"), ("urn:example:%41".into(), false));
    }

    #[test]
    fn utf8_is_decoded_rfc8141_section_4() {
        assert_eq!(
            shown("urn:example:caf%C3%A9#x%E2%82%AC"),
            ("urn:example:café#x€".into(), true)
        );
    }

    #[test]
    fn invisible_and_invalid_sequences_stay_encoded() {
        // U+202E right-to-left override, U+200B zero width space, U+00A0 no-break space
        for s in [
            "urn:example:%E2%80%AE",
            "urn:example:%E2%80%8B",
            "urn:example:%C2%A0",
            "urn:example:%C3",
            "urn:example:%C3%28",
            "urn:example:%FF%FE",
        ] {
            assert_eq!(shown(s), (s.to_string(), false), "{s}");
        }
    }
}
