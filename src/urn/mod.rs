//! The URN itself: parsing (RFC 8141 section 2), accessors, warnings,
//! URN-equivalence (section 3) and the display form (section 4).

pub(crate) mod chars;
mod display;
mod equiv;
mod error;
mod parse;

use std::fmt;
use std::hash::{Hash, Hasher};

pub use display::DisplayForm;
pub use equiv::{GenericEquivalence, KeyRefiner};
pub use error::{Component, ParseError, ParseErrorKind, Warning, WarningKind};

pub(crate) use equiv::upper_case_hex_in_place;
pub(crate) use error::{MessageOut, describe_byte, quoted, quoted_char, shortened};
use parse::{Components, NID_START, NSS_LOWER_HEX, PCT_AFTER_NID, RQ_COMPONENTS};
pub(crate) use parse::{Offsets, written_nid_end};

/// Which grammar to parse with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// RFC 8141 section 2 (the current standard).
    #[default]
    Rfc8141,
    /// The legacy RFC 2141 grammar: NID of 1 to 32 characters (`urn`
    /// reserved), a smaller NSS character set, no r-, q- or f-components.
    Rfc2141,
}

/// A parsed URN that borrows its text.
///
/// Parsing does not allocate: a `Urn` is the input plus the offsets of its
/// parts, and the accessors return slices of the input.
///
/// `==`, and [`Hash`], mean *URN-equivalence* (RFC 8141 section 3.1):
/// two URNs are equal when their [`equivalence_key`](Urn::equivalence_key)s
/// are. Compare [`as_str`](Urn::as_str) for "same text".
///
/// ```
/// use urnreg::Urn;
///
/// let a = Urn::parse("URN:example:a123,z456?=xyz")?;
/// let b = Urn::parse("urn:EXAMPLE:a123,z456#789")?;
/// assert_eq!(a, b);
/// assert_ne!(a.as_str(), b.as_str());
/// # Ok::<(), urnreg::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Urn<'a> {
    text: &'a str,
    /// Where the parts end, and the grammar (one word: a separate
    /// one-byte field made each copy of a `Urn` stall on its padding).
    offsets: Offsets,
}

/// Checks `nid` on its own against the NID rule of RFC 8141 section 2
/// (with section 5.2's form of informal NIDs), as if it were the NID of a
/// URN. Returns the kind of the first error.
pub fn check_nid(nid: &str) -> Result<(), ParseErrorKind> {
    let probe = format!("urn:{nid}:x");
    match Urn::parse_with(&probe, Syntax::Rfc8141) {
        Ok(urn) if urn.nid() == nid => Ok(()),
        Err(e) if e.component() == Component::Nid => Err(e.kind()),
        // A `:` or a byte the NSS accepts ended the NID early.
        _ => {
            let found = nid
                .bytes()
                .find(|b| !(b.is_ascii_alphanumeric() || *b == b'-'))
                .unwrap_or(b':');
            Err(if found.is_ascii() {
                ParseErrorKind::NidChar { found }
            } else {
                ParseErrorKind::NonAscii { found }
            })
        }
    }
}

impl<'a> Urn<'a> {
    /// Parses `text` as a URN under RFC 8141.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming what was expected and the byte offset where
    /// the text first departs from the grammar.
    pub fn parse(text: &'a str) -> Result<Urn<'a>, ParseError> {
        Self::parse_with(text, Syntax::Rfc8141)
    }

    /// Parses `text` as a URN under `syntax`.
    ///
    /// # Errors
    ///
    /// As [`Urn::parse`].
    pub fn parse_with(text: &'a str, syntax: Syntax) -> Result<Urn<'a>, ParseError> {
        let offsets = parse::parse(text.as_bytes(), syntax)?;
        Ok(Urn {
            text,
            offsets: offsets.with_syntax(syntax),
        })
    }

    /// Parses `text` under `syntax` into its [`Offsets`] only: one integer,
    /// which a caller can hand on in a register and make the [`Urn`] from
    /// where it is used ([`Urn::from_offsets`]).
    pub(crate) fn parse_offsets(text: &str, syntax: Syntax) -> Result<Offsets, ParseError> {
        parse::parse(text.as_bytes(), syntax)
    }

    /// The URN that [`Urn::parse_offsets`] found in `text`.
    pub(crate) fn from_offsets(text: &'a str, offsets: Offsets, syntax: Syntax) -> Urn<'a> {
        Urn {
            text,
            offsets: offsets.with_syntax(syntax),
        }
    }

    /// Its offsets, for [`Urn::from_offsets`].
    pub(crate) fn offsets(&self) -> Offsets {
        self.offsets
    }

    /// Parses raw bytes (which need not be UTF-8: anything outside ASCII is
    /// an error with its offset anyway).
    ///
    /// # Errors
    ///
    /// As [`Urn::parse`].
    pub fn parse_bytes(bytes: &'a [u8], syntax: Syntax) -> Result<Urn<'a>, ParseError> {
        let offsets = parse::parse(bytes, syntax)?;
        // The grammar admits ASCII only, so a successful parse is UTF-8.
        let text = std::str::from_utf8(bytes).map_err(|e| {
            ParseError::new(
                ParseErrorKind::NonAscii {
                    found: bytes[e.valid_up_to()],
                },
                Component::Nss,
                e.valid_up_to(),
            )
        })?;
        Ok(Urn {
            text,
            offsets: offsets.with_syntax(syntax),
        })
    }

    /// The whole text, as given.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The grammar this URN was parsed with.
    pub fn syntax(&self) -> Syntax {
        self.offsets.syntax()
    }

    /// The `urn` scheme as written (any case).
    pub fn scheme(&self) -> &'a str {
        &self.text[..3]
    }

    /// The namespace identifier as written.
    pub fn nid(&self) -> &'a str {
        &self.text[NID_START..self.offsets.nid_end()]
    }

    /// The namespace specific string.
    pub fn nss(&self) -> &'a str {
        &self.text[self.nss_start()..self.offsets.nss_end()]
    }

    /// The `assigned-name`: `urn:` NID `:` NSS, without any component.
    pub fn assigned_name(&self) -> &'a str {
        &self.text[..self.offsets.nss_end()]
    }

    /// Byte offset where the NSS starts.
    pub fn nss_start(&self) -> usize {
        self.offsets.nid_end() + 1
    }

    /// Byte offset where the NSS ends.
    pub fn nss_end(&self) -> usize {
        self.offsets.nss_end()
    }

    /// Where the components are, found again from the text: the parser
    /// keeps only where the NSS ends.
    #[inline]
    pub(crate) fn components(&self) -> Components {
        if self.nss_end() == self.text.len() {
            return Components::default();
        }
        parse::components(self.text.as_bytes(), self.nss_end())
    }

    /// The r-component (after `?+`), if any.
    pub fn r_component(&self) -> Option<&'a str> {
        self.components().r.map(|r| &self.text[r])
    }

    /// The q-component (after `?=`), if any.
    pub fn q_component(&self) -> Option<&'a str> {
        self.components().q.map(|q| &self.text[q])
    }

    /// The f-component (after `#`), if any; it may be empty.
    pub fn f_component(&self) -> Option<&'a str> {
        self.components().f.map(|f| &self.text[f])
    }

    /// Returns true if and only if some `%hh` of the NSS has a lower-case
    /// hex digit (noted by the parser: no second scan).
    pub(crate) fn nss_has_lower_hex(&self) -> bool {
        self.offsets.flags() & NSS_LOWER_HEX != 0
    }

    /// Calls `visit` for each non-fatal finding, in order of offset: each
    /// kind once, where it is first found (a URN of 100,000 `%aa` is one
    /// `hex-case` warning, not 100,000 of them, each showing the URN).
    pub fn for_each_warning(&self, mut visit: impl FnMut(Warning)) {
        let bytes = self.text.as_bytes();
        let mut said = 0u32;
        let mut warn = |kind: WarningKind, offset| {
            let bit = 1u32 << (kind as u32);
            if said & bit == 0 {
                said |= bit;
                visit(Warning { kind, offset });
            }
        };
        if bytes[..3] != *b"urn" {
            warn(WarningKind::SchemeCase, 0);
        }
        let nid = self.nid().as_bytes();
        if let Some(i) = nid.iter().position(u8::is_ascii_uppercase) {
            warn(WarningKind::NidCase, NID_START + i);
        }
        if nid.eq_ignore_ascii_case(b"urn") {
            warn(WarningKind::ReservedNid, NID_START);
        } else if nid.len() >= 2 && nid[..2].eq_ignore_ascii_case(b"x-") {
            warn(WarningKind::ExperimentalNid, NID_START);
        } else if nid.len() >= 3
            && nid[0].is_ascii_alphabetic()
            && nid[1].is_ascii_alphabetic()
            && nid[2] == b'-'
        {
            warn(WarningKind::CountryCodeNid, NID_START);
        }
        // Percent-encodings everywhere after the NID (RFC 3986 sections 2.1
        // and 2.3), the r-component (RFC 8141 section 2.3.1) and `?+` inside
        // the q-component, in one pass; none of them without a `%`, an r-
        // or a q-component, which the parser noted.
        if self.offsets.flags() & (PCT_AFTER_NID | RQ_COMPONENTS) == 0 {
            return;
        }
        let components = self.components();
        let r_mark = components.r.map(|r| r.start - 2);
        let q_range = components.q;
        // Only '%' and '?' can start a finding: skip to them.
        let mut i = self.nss_start();
        while let Some(skip) = memchr::memchr2(b'%', b'?', &bytes[i..]) {
            i += skip;
            if bytes[i] == b'%' {
                let (hi, lo) = (bytes[i + 1], bytes[i + 2]);
                if hi.is_ascii_lowercase() || lo.is_ascii_lowercase() {
                    warn(WarningKind::HexCase, i);
                }
                let value = chars::hex_value(hi).unwrap_or(0) * 16 + chars::hex_value(lo).unwrap_or(0);
                if value == 0 {
                    warn(WarningKind::EncodedNul, i);
                } else if chars::is(value, chars::UNRESERVED) {
                    warn(WarningKind::EncodedUnreserved, i);
                }
                i += 3;
            } else {
                if Some(i) == r_mark {
                    warn(WarningKind::RComponent, i);
                }
                if bytes.get(i + 1) == Some(&b'+') && q_range.as_ref().is_some_and(|q| q.contains(&i)) {
                    warn(WarningKind::RAfterQ, i);
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
    }

    /// The non-fatal findings, in order of offset (each kind once).
    pub fn warnings(&self) -> Vec<Warning> {
        let mut all = Vec::new();
        self.for_each_warning(|w| all.push(w));
        all
    }
}

impl fmt::Display for Urn<'_> {
    /// Writes the URN exactly as it was given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl PartialEq for Urn<'_> {
    /// URN-equivalence (RFC 8141 section 3.1), without allocating.
    fn eq(&self, other: &Self) -> bool {
        self.key_bytes().eq(other.key_bytes())
    }
}

impl Eq for Urn<'_> {}

impl Hash for Urn<'_> {
    /// Hashes the equivalence key, so that `Hash` agrees with `==`.
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.key_bytes() {
            state.write_u8(b);
        }
        state.write_u8(0xff);
    }
}

#[cfg(test)]
mod nid_tests {
    use super::*;

    #[test]
    fn a_nid_that_fails_names_the_rule_it_breaks() {
        let rule = |nid: &str| check_nid(nid).unwrap_err().nid_rule().1;
        assert_eq!(rule("urn-09"), "RFC 8141 section 5.2");
        assert_eq!(rule("urn-0"), "RFC 8141 section 5.2");
        assert_eq!(rule("a b"), "RFC 8141 section 2");
        assert_eq!(rule("abc-"), "RFC 8141 section 2");
    }

    #[test]
    fn check_nid_applies_the_section_2_rule_to_a_bare_nid() {
        assert_eq!(check_nid("isbn"), Ok(()));
        assert_eq!(check_nid("urn-7"), Ok(()));
        assert!(check_nid("a").is_err());
        assert!(check_nid("abc-").is_err());
        assert!(check_nid("urn-07").is_err());
        assert_eq!(check_nid("ab:c"), Err(ParseErrorKind::NidChar { found: b':' }));
        assert!(check_nid(&"a".repeat(33)).is_err());
    }
}
