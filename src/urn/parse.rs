//! The RFC 8141 section 2 parser (and the legacy RFC 2141 section 2 one).
//!
//! One pass over the bytes, no allocation: the result is a set of offsets
//! into the input. The first violation stops the parse with a
//! [`ParseError`] that says what was expected and at which byte.

use std::ops::Range;

use super::Syntax;
use super::chars::{self, HEXDIG, LDH, PCHAR, PCHAR_SLASH, RFC2141_TRANS};
use super::error::{Component, ParseError, ParseErrorKind};

/// Where the NID and the NSS of a parsed URN end, and what the scan
/// noticed, packed in one `u64`: the parser returns it through memory, and
/// one integer is written and read back whole. (Fields written one by one
/// and then read as a whole stall the read on store forwarding: that cost
/// 7% of `check -q`.) Where the r-, q- and f-components start is found
/// again when asked for (see [`components`]); most URNs have none.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Offsets(u64);

/// The fields by name, not the packed number.
impl std::fmt::Debug for Offsets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offsets")
            .field("nid_end", &self.nid_end())
            .field("nss_end", &self.nss_end())
            .field("flags", &self.flags())
            .finish()
    }
}

impl Offsets {
    /// `nss_end`: the first `?+`, `?=` or `#` after the NSS, or the
    /// length; `nid_end`: the `:` after the NID (at most `NID_START` + 32);
    /// `flags`: [`PCT_AFTER_NID`], [`NSS_LOWER_HEX`], [`RQ_COMPONENTS`].
    fn new(nss_end: usize, nid_end: usize, flags: u8) -> Offsets {
        debug_assert!(nss_end <= u32::MAX as usize && nid_end <= NID_START + 32);
        Offsets(nss_end as u64 | (nid_end as u64) << 32 | u64::from(flags) << 40)
    }

    pub fn nss_end(self) -> usize {
        (self.0 & 0xffff_ffff) as usize
    }

    pub fn nid_end(self) -> usize {
        (self.0 >> 32 & 0xff) as usize
    }

    pub fn flags(self) -> u8 {
        (self.0 >> 40) as u8
    }

    /// The same offsets, marked as parsed under `syntax` (bit 48).
    pub fn with_syntax(self, syntax: Syntax) -> Offsets {
        let bit = match syntax {
            Syntax::Rfc8141 => 0,
            Syntax::Rfc2141 => RFC2141,
        };
        Offsets(self.0 & !RFC2141 | bit)
    }

    /// The grammar [`Offsets::with_syntax`] marked (RFC 8141 unmarked).
    pub fn syntax(self) -> Syntax {
        if self.0 & RFC2141 != 0 {
            Syntax::Rfc2141
        } else {
            Syntax::Rfc8141
        }
    }
}

/// The bit of [`Offsets`] marking a URN parsed under RFC 2141.
const RFC2141: u64 = 1 << 48;

/// Some `%` after the NID (in the NSS or a component).
pub(crate) const PCT_AFTER_NID: u8 = 1;
/// Some `%hh` in the NSS with a lower-case hex digit.
pub(crate) const NSS_LOWER_HEX: u8 = 2;
/// An r- or a q-component is present.
pub(crate) const RQ_COMPONENTS: u8 = 4;

/// Where the r-, q- and f-components of a parsed URN are, without their
/// delimiters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Components {
    pub r: Option<Range<usize>>,
    pub q: Option<Range<usize>>,
    pub f: Option<Range<usize>>,
}

/// Finds the components of a URN that parsed under RFC 8141, its NSS
/// ending at `nss_end`, by the rules [`scan`] applied: the NSS ends at the
/// first `?+`, `?=` or `#`; the r-component at the first `?=` or `#`; the
/// q-component at the first `#`; the f-component holds no `#`.
pub(crate) fn components(bytes: &[u8], nss_end: usize) -> Components {
    let len = bytes.len();
    let mut found = Components::default();
    let mut i = nss_end;
    if bytes[i..].starts_with(b"?+") {
        let start = i + 2;
        i = start;
        while i < len && bytes[i] != b'#' && !bytes[i..].starts_with(b"?=") {
            i += 1;
        }
        found.r = Some(start..i);
    }
    if bytes[i..].starts_with(b"?=") {
        let start = i + 2;
        i = memchr::memchr(b'#', &bytes[start..]).map_or(len, |at| start + at);
        found.q = Some(start..i);
    }
    if i < len {
        debug_assert_eq!(bytes[i], b'#');
        found.f = Some(i + 1..len);
    }
    found
}

/// Offset where the NID starts: right after `urn:`.
pub(crate) const NID_START: usize = 4;

fn err(kind: ParseErrorKind, component: Component, offset: usize) -> ParseError {
    ParseError::new(kind, component, offset)
}

/// The error for a byte that does not fit `component` at `at`.
fn unexpected(bytes: &[u8], at: usize, component: Component) -> ParseError {
    let found = bytes[at];
    let kind = if found.is_ascii() {
        ParseErrorKind::InvalidChar { found }
    } else {
        ParseErrorKind::NonAscii { found }
    };
    err(kind, component, at)
}

/// RFC 3986 `pct-encoded` = "%" HEXDIG HEXDIG, with `bytes[at] == b'%'`.
#[inline]
fn check_percent(bytes: &[u8], at: usize, component: Component) -> Result<(), ParseError> {
    let ok = at + 2 < bytes.len() && chars::is(bytes[at + 1], HEXDIG) && chars::is(bytes[at + 2], HEXDIG);
    if ok {
        Ok(())
    } else {
        Err(err(ParseErrorKind::BadPercent, component, at))
    }
}

/// Parses `bytes` as a URN under `syntax`.
pub(crate) fn parse(bytes: &[u8], syntax: Syntax) -> Result<Offsets, ParseError> {
    if bytes.len() > u32::MAX as usize {
        return Err(err(ParseErrorKind::TooLong, Component::Scheme, u32::MAX as usize));
    }
    // assigned-name = "urn" ":" NID ":" NSS; "urn" is case-insensitive
    // (RFC 8141 section 2, RFC 3986 section 3.1).
    if !starts_with_scheme(bytes) {
        for (i, want) in b"urn:".iter().enumerate() {
            match bytes.get(i) {
                Some(b) if b.to_ascii_lowercase() == *want => {}
                _ => {
                    let missing = err(ParseErrorKind::MissingScheme, Component::Scheme, i);
                    return Err(match bytes.first() {
                        Some(b) if b.is_ascii_whitespace() || *b == 0x0b => missing.after_leading_space(),
                        _ => missing,
                    });
                }
            }
        }
    }
    // An error under RFC 2141 states and cites that RFC's rules.
    let legacy = |e: ParseError| match syntax {
        Syntax::Rfc8141 => e,
        Syntax::Rfc2141 => e.in_rfc2141(),
    };
    let nid_end = parse_nid(bytes, syntax).map_err(legacy)?;
    let nss_start = nid_end + 1;
    let (nss_end, flags) = match syntax {
        Syntax::Rfc8141 => parse_rfc8141_rest(bytes, nss_start)?,
        Syntax::Rfc2141 => parse_rfc2141_nss(bytes, nss_start).map_err(ParseError::in_rfc2141)?,
    };
    Ok(Offsets::new(nss_end, nid_end, flags))
}

/// Returns true if `bytes` starts with `urn:` in any case: one compare of
/// four bytes. Setting bit 5 lower-cases a letter, and only `U`/`u`, `R`/`r`
/// and `N`/`n` become `u`, `r` and `n` by it; the `:` is compared as it is.
#[inline]
fn starts_with_scheme(bytes: &[u8]) -> bool {
    match bytes.first_chunk::<4>() {
        Some(head) => u32::from_le_bytes(*head) | 0x0020_2020 == u32::from_le_bytes(*b"urn:"),
        None => false,
    }
}

/// The offset of the `:` ending the NID when `bytes` starts `urn:` (any
/// case) and an RFC 8141 NID, whatever follows: the namespace an input
/// names even where the rest of the parse refuses it.
pub(crate) fn written_nid_end(bytes: &[u8]) -> Option<usize> {
    if !starts_with_scheme(bytes) {
        return None;
    }
    parse_nid(bytes, Syntax::Rfc8141).ok()
}

/// RFC 8141: NID = (alphanum) 0*30(ldh) (alphanum), then ":".
/// RFC 2141: NID = let-num [ 1*31let-num-hyp ], then ":".
/// Returns the offset of the `:` that ends the NID. Always inlined: with
/// [`written_nid_end`] as a second caller it became a call of its own on
/// every URN `parse` reads (callgrind, 200k lines: 49.7M -> 53.8M in
/// `parse`).
#[inline(always)]
fn parse_nid(bytes: &[u8], syntax: Syntax) -> Result<usize, ParseError> {
    let start = NID_START;
    let mut end = start;
    while end < bytes.len() && chars::is(bytes[end], LDH) {
        end += 1;
    }
    let len = end - start;
    if len > 0 && bytes[start] == b'-' {
        return Err(err(ParseErrorKind::NidHyphen, Component::Nid, start));
    }
    if len > 32 {
        return Err(err(ParseErrorKind::NidLength, Component::Nid, start + 32));
    }
    if end == bytes.len() {
        return Err(if len == 0 {
            err(ParseErrorKind::NidLength, Component::Nid, start)
        } else {
            err(ParseErrorKind::MissingColon, Component::Nid, end)
        });
    }
    if bytes[end] != b':' {
        return Err(if bytes[end].is_ascii() {
            err(ParseErrorKind::NidChar { found: bytes[end] }, Component::Nid, end)
        } else {
            err(
                ParseErrorKind::NonAscii { found: bytes[end] },
                Component::Nid,
                end,
            )
        });
    }
    let min = match syntax {
        Syntax::Rfc8141 => 2,
        Syntax::Rfc2141 => 1,
    };
    if len < min {
        return Err(err(ParseErrorKind::NidLength, Component::Nid, start));
    }
    let nid = &bytes[start..end];
    match syntax {
        Syntax::Rfc8141 => {
            if nid[len - 1] == b'-' {
                return Err(err(ParseErrorKind::NidHyphen, Component::Nid, end - 1));
            }
            // RFC 8141 section 5.2: informal NIDs are "urn-" number, the
            // number positive and without leading zeros.
            if len >= 4 && nid[..4].eq_ignore_ascii_case(b"urn-") {
                let number = &nid[4..];
                let well_formed =
                    !number.is_empty() && number[0] != b'0' && number.iter().all(u8::is_ascii_digit);
                if !well_formed {
                    return Err(err(ParseErrorKind::InformalNid, Component::Nid, start + 4));
                }
            }
        }
        Syntax::Rfc2141 => {
            // RFC 2141 section 2: "the NID 'urn' is reserved".
            if nid.eq_ignore_ascii_case(b"urn") {
                return Err(err(ParseErrorKind::ReservedNid, Component::Nid, start));
            }
        }
    }
    Ok(end)
}

/// How a component scan ended.
enum Stop {
    End,
    /// `?+` at this offset (only from the NSS).
    RStart(usize),
    /// `?=` at this offset.
    QStart(usize),
    /// `#` at this offset.
    FStart(usize),
}

/// The flags a `%hh` at `at` sets in `component`.
#[inline]
fn percent_flags(bytes: &[u8], at: usize, component: Component) -> u8 {
    let lower = bytes[at + 1].is_ascii_lowercase() || bytes[at + 2].is_ascii_lowercase();
    if lower && component == Component::Nss {
        PCT_AFTER_NID | NSS_LOWER_HEX
    } else {
        PCT_AFTER_NID
    }
}

/// Scans one component from `start`: the first byte must be `pchar`; then
/// `pchar`, `/`, and (where `question_ok`) `?`. `?+` / `?=` / `#` stop it
/// as far as `component` allows. Adds what it notices to `flags`.
fn scan(bytes: &[u8], start: usize, component: Component, flags: &mut u8) -> Result<Stop, ParseError> {
    let question_ok = matches!(
        component,
        Component::RComponent | Component::QComponent | Component::FComponent
    );
    if start == bytes.len() {
        let kind = match component {
            // f-component = fragment, which may be empty (RFC 3986 section 3.5).
            Component::FComponent => return Ok(Stop::End),
            Component::Nss => ParseErrorKind::EmptyNss,
            _ => ParseErrorKind::EmptyComponent,
        };
        return Err(err(kind, component, start));
    }
    // NSS, r-component and q-component start with pchar (RFC 8141 section 2);
    // the f-component (RFC 3986 `fragment`) may be empty or start anywhere.
    if component != Component::FComponent {
        let first = bytes[start];
        if !(chars::is(first, PCHAR) || first == b'%') {
            let kind = match (component, first) {
                (Component::Nss, b'#') => ParseErrorKind::EmptyNss,
                (Component::Nss, b'?') if matches!(bytes.get(start + 1), Some(b'+' | b'=')) => {
                    ParseErrorKind::EmptyNss
                }
                (Component::RComponent | Component::QComponent, b'#' | b'?') => {
                    ParseErrorKind::EmptyComponent
                }
                _ => return Err(unexpected(bytes, start, component).at_component_start()),
            };
            return Err(err(kind, component, start));
        }
    }
    let mut i = start;
    loop {
        i = skip_plain(bytes, i);
        let Some(&b) = bytes.get(i) else {
            return Ok(Stop::End);
        };
        match b {
            b'%' => {
                check_percent(bytes, i, component)?;
                *flags |= percent_flags(bytes, i, component);
                i += 3;
            }
            b'#' if component != Component::FComponent => return Ok(Stop::FStart(i)),
            b'?' => {
                let next = bytes.get(i + 1).copied();
                match (component, next) {
                    (Component::Nss, Some(b'+')) => return Ok(Stop::RStart(i)),
                    (Component::Nss | Component::RComponent, Some(b'=')) => {
                        return Ok(Stop::QStart(i));
                    }
                    (Component::Nss, _) => {
                        let query = query_follows(&bytes[i + 1..]);
                        return Err(err(ParseErrorKind::StrayQuestionMark { query }, component, i));
                    }
                    _ if question_ok => i += 1,
                    _ => return Err(unexpected(bytes, i, component)),
                }
            }
            _ => return Err(unexpected(bytes, i, component)),
        }
    }
}

/// Whether `rest` starts `name=` as a URI query's first pair does (a
/// letter, then letters, digits, `-`, `_` or `.`, at most 64 bytes).
fn query_follows(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take(64)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        .count();
    rest.first().is_some_and(u8::is_ascii_alphabetic) && rest.get(name) == Some(&b'=')
}

/// The offset of the first byte from `i` on that is not `pchar` (without
/// `%`) or `/`, or the length. Eight bytes a step while all of them are:
/// eight lookups that do not wait on each other, and one branch.
#[inline]
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    while let Some(block) = bytes.get(i..i + 8) {
        let all = block.iter().fold(true, |all, &b| all & chars::is(b, PCHAR_SLASH));
        if !all {
            break;
        }
        i += 8;
    }
    while i < bytes.len() && chars::is(bytes[i], PCHAR_SLASH) {
        i += 1;
    }
    i
}

/// namestring = assigned-name [ rq-components ] [ "#" f-component ].
/// Returns where the NSS ends, and the flags.
fn parse_rfc8141_rest(bytes: &[u8], nss_start: usize) -> Result<(usize, u8), ParseError> {
    let mut flags = 0;
    let mut stop = scan(bytes, nss_start, Component::Nss, &mut flags)?;
    let nss_end = match stop {
        Stop::End => return Ok((bytes.len(), flags)),
        Stop::RStart(at) | Stop::QStart(at) | Stop::FStart(at) => at,
    };
    if let Stop::RStart(at) = stop {
        flags |= RQ_COMPONENTS;
        stop = scan(bytes, at + 2, Component::RComponent, &mut flags)?;
    }
    if let Stop::QStart(at) = stop {
        flags |= RQ_COMPONENTS;
        stop = scan(bytes, at + 2, Component::QComponent, &mut flags)?;
    }
    if let Stop::FStart(at) = stop {
        stop = scan(bytes, at + 1, Component::FComponent, &mut flags)?;
    }
    debug_assert!(matches!(stop, Stop::End));
    Ok((nss_end, flags))
}

/// RFC 2141: NSS = 1*<URN chars>, URN chars = <trans> / "%" hex hex, where
/// the reserved `/ ? #` must be percent-encoded (section 2.3.2).
fn parse_rfc2141_nss(bytes: &[u8], start: usize) -> Result<(usize, u8), ParseError> {
    if start == bytes.len() {
        return Err(err(ParseErrorKind::EmptyNss, Component::Nss, start));
    }
    let mut i = start;
    let mut flags = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if chars::is(b, RFC2141_TRANS) {
            i += 1;
        } else if b == b'%' {
            check_percent(bytes, i, Component::Nss)?;
            flags |= percent_flags(bytes, i, Component::Nss);
            i += 3;
        } else if matches!(b, b'/' | b'?' | b'#') {
            return Err(err(ParseErrorKind::ReservedChar { found: b }, Component::Nss, i));
        } else {
            return Err(unexpected(bytes, i, Component::Nss));
        }
    }
    Ok((i, flags))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 2141 has no components: its message lists its own characters
    /// (section 2.2), not RFC 8141's `?+`, `?=` and `#`.
    #[test]
    fn an_rfc2141_error_names_rfc2141s_characters() {
        let e = parse(b"urn:example:a~b", Syntax::Rfc2141).unwrap_err();
        let message = e.to_string();
        assert!(message.contains("RFC 2141 section 2.2"), "{message}");
        assert!(!message.contains("?+"), "{message}");
        assert_eq!(e.kind().code(), "invalid-char");
        let e = parse(b"urn:example:a b", Syntax::Rfc8141).unwrap_err();
        assert!(e.to_string().contains("'?+', '?=' or '#'"));
    }

    /// The eight-byte walk stops where a byte-wise walk stops, whatever
    /// the offset of the first byte it must stop at (and at every start).
    #[test]
    fn skip_plain_stops_at_the_first_byte_a_byte_walk_stops_at() {
        for stop in [b'%', b'?', b'#', b' ', b'"', 0x80, 0xff, b'\n'] {
            for len in 0..24 {
                for at in 0..=len {
                    let mut bytes = vec![b'a'; len];
                    if at < len {
                        bytes[at] = stop;
                    }
                    for start in 0..=len {
                        let want = (start..len)
                            .find(|&i| !chars::is(bytes[i], PCHAR_SLASH))
                            .unwrap_or(len);
                        assert_eq!(skip_plain(&bytes, start), want, "{bytes:?} from {start}");
                    }
                }
            }
        }
    }

    /// The components found again after the parse are those the scan
    /// delimited (RFC 8141 section 2): `?=` and `?+` inside a later
    /// component, `?` inside the r-component, and an empty f-component.
    #[test]
    fn components_are_found_where_the_scan_ended_them() {
        let cases = [
            (
                "urn:ab:c?+r?x/?=q?+y?=z#f?=w",
                "c",
                Some("r?x/"),
                Some("q?+y?=z"),
                Some("f?=w"),
            ),
            ("urn:ab:c?=q#", "c", None, Some("q"), Some("")),
            ("urn:ab:c?+r#?+f", "c", Some("r"), None, Some("?+f")),
            ("urn:ab:c#f", "c", None, None, Some("f")),
            ("urn:ab:c%3F?+r%23", "c%3F", Some("r%23"), None, None),
            ("urn:ab:c/d", "c/d", None, None, None),
        ];
        for (text, nss, r, q, f) in cases {
            let urn = crate::Urn::parse(text).unwrap();
            assert_eq!(urn.nss(), nss, "{text}");
            assert_eq!(
                (urn.r_component(), urn.q_component(), urn.f_component()),
                (r, q, f),
                "{text}"
            );
        }
    }

    /// `urn:` in any case, and nothing else, passes the four-byte compare.
    #[test]
    fn the_scheme_compare_takes_urn_in_any_case_only() {
        for pos in 0..4 {
            for byte in 0..=255u8 {
                let mut text = *b"urn:";
                text[pos] = byte;
                let want = text.eq_ignore_ascii_case(b"urn:");
                assert_eq!(starts_with_scheme(&text), want, "{text:?}");
            }
        }
        for text in [&b"URN:"[..], b"uRn:", b"urn", b"urn;", b"urN:x", b"", b"urnx"] {
            let want = text.len() >= 4 && text[..4].eq_ignore_ascii_case(b"urn:");
            assert_eq!(starts_with_scheme(text), want, "{text:?}");
        }
    }
}
