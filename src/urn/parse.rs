//! The RFC 8141 section 2 parser (and the legacy RFC 2141 section 2 one).
//!
//! One pass over the bytes, no allocation: the result is a set of offsets
//! into the input. The first violation stops the parse with a
//! [`ParseError`] that says what was expected and at which byte.

use super::Syntax;
use super::chars::{self, HEXDIG, LDH, PCHAR, PCHAR_SLASH, RFC2141_TRANS};
use super::error::{Component, ParseError, ParseErrorKind};

/// Where the parts of a parsed URN are; 0 means "absent" for the optional
/// starts (no component can start at byte 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Offsets {
    pub nid_end: u32,
    pub nss_end: u32,
    pub r_start: u32,
    pub q_start: u32,
    pub f_start: u32,
    /// Facts the scan noticed on the way ([`PCT_AFTER_NID`],
    /// [`NSS_LOWER_HEX`]), so that later passes can skip work.
    pub flags: u8,
}

/// Some `%` after the NID (in the NSS or a component).
pub(crate) const PCT_AFTER_NID: u8 = 1;
/// Some `%hh` in the NSS with a lower-case hex digit.
pub(crate) const NSS_LOWER_HEX: u8 = 2;

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
                _ => return Err(err(ParseErrorKind::MissingScheme, Component::Scheme, i)),
            }
        }
    }
    let nid_end = parse_nid(bytes, syntax)?;
    let nss_start = nid_end + 1;
    match syntax {
        Syntax::Rfc8141 => parse_rfc8141_rest(bytes, nid_end, nss_start),
        Syntax::Rfc2141 => {
            let (nss_end, flags) = parse_rfc2141_nss(bytes, nss_start)?;
            Ok(Offsets {
                nid_end: nid_end as u32,
                nss_end: nss_end as u32,
                r_start: 0,
                q_start: 0,
                f_start: 0,
                flags,
            })
        }
    }
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

/// RFC 8141: NID = (alphanum) 0*30(ldh) (alphanum), then ":".
/// RFC 2141: NID = let-num [ 1*31let-num-hyp ], then ":".
/// Returns the offset of the `:` that ends the NID.
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
                _ => return Err(unexpected(bytes, start, component)),
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
                        return Err(err(ParseErrorKind::StrayQuestionMark, component, i));
                    }
                    _ if question_ok => i += 1,
                    _ => return Err(unexpected(bytes, i, component)),
                }
            }
            _ => return Err(unexpected(bytes, i, component)),
        }
    }
}

/// The offset of the first byte from `i` on that is not `pchar` (without
/// `%`) or `/`, or the length. Eight bytes a step while all of them are:
/// eight lookups that do not wait on each other, and one branch.
#[inline]
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    while let Some(block) = bytes.get(i..i + 8) {
        let all = block.iter().fold(1, |all, &b| all & chars::PLAIN[usize::from(b)]);
        if all == 0 {
            break;
        }
        i += 8;
    }
    while i < bytes.len() && chars::is(bytes[i], PCHAR_SLASH) {
        i += 1;
    }
    i
}

/// namestring = assigned-name [ rq-components ] [ "#" f-component ]
fn parse_rfc8141_rest(bytes: &[u8], nid_end: usize, nss_start: usize) -> Result<Offsets, ParseError> {
    let mut offsets = Offsets {
        nid_end: nid_end as u32,
        nss_end: bytes.len() as u32,
        r_start: 0,
        q_start: 0,
        f_start: 0,
        flags: 0,
    };
    let mut stop = scan(bytes, nss_start, Component::Nss, &mut offsets.flags)?;
    if let Stop::RStart(at) = stop {
        offsets.nss_end = at as u32;
        offsets.r_start = (at + 2) as u32;
        stop = scan(bytes, at + 2, Component::RComponent, &mut offsets.flags)?;
    }
    if let Stop::QStart(at) = stop {
        if offsets.r_start == 0 {
            offsets.nss_end = at as u32;
        }
        offsets.q_start = (at + 2) as u32;
        stop = scan(bytes, at + 2, Component::QComponent, &mut offsets.flags)?;
    }
    if let Stop::FStart(at) = stop {
        if offsets.r_start == 0 && offsets.q_start == 0 {
            offsets.nss_end = at as u32;
        }
        offsets.f_start = (at + 1) as u32;
        stop = scan(bytes, at + 1, Component::FComponent, &mut offsets.flags)?;
    }
    debug_assert!(matches!(stop, Stop::End));
    Ok(offsets)
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
