//! What a URN's bytes say once decoded: percent-encoding, HTML character
//! references, backslash escapes; characters glued to a URN, break hints
//! and typographic dashes.

use super::*;

/// How the URN's colon is written after `urn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::scan) enum Colon {
    /// `:`.
    Plain,
    /// `%3A`, in a URL: the rest is percent-decoded once.
    Percent,
    /// An entity reference (`&#58;`, `&colon;`) or a string literal's
    /// escape (`\u003a`, `\x3a`).
    Reference,
    /// In quoted-printable mail, `=3A`, or a soft line break inside `urn`
    /// or before its colon ([`quoted_printable_head`]).
    QuotedPrintable,
}

/// `urn` and its colon as quoted-printable writes them (RFC 2045 section
/// 6.7): soft line breaks, an `=` ending a line (rule 5), anywhere among
/// them, as an encoder breaks a 76-character line (`u=` CRLF `rn:isbn:...`,
/// `urn=` LF `:isbn:...`), and the colon written `:` or `=3A` (rule 1).
/// Where each of the four ends, or `None`.
pub(super) fn quoted_printable_head(buf: &[u8], start: usize, limit: usize) -> Option<[usize; 4]> {
    let mut ends = [0; 4];
    let mut i = start;
    for (k, &want) in b"urn:".iter().enumerate() {
        while i < limit
            && buf[i] == b'='
            && let Some(n) = line_break_at(buf, i + 1, limit)
        {
            i += 1 + n;
        }
        match *buf.get(i).filter(|_| i < limit)? {
            b'=' if k == 3 && hex2(buf, i + 1, limit) == Some(b':') => i += 3,
            c if c.eq_ignore_ascii_case(&want) => i += 1,
            _ => return None,
        }
        ends[k] = i;
    }
    Some(ends)
}

/// The URN at `start` is in an RFC 2047 encoded word of the Q encoding
/// (section 2: `=?charset?Q?encoded-text?=`, on one line, no space in it;
/// section 4.2: quoted-printable's `=3A`), as a mail's `Subject:` holds
/// one, the URN opening its encoded text: right before it `=?`, a charset
/// and `?Q?` or `?q?`, with no space (at most 75 bytes).
pub(super) fn in_encoded_word(buf: &[u8], start: usize) -> bool {
    let floor = start.saturating_sub(75);
    let from = buf[floor..start]
        .iter()
        .rposition(|&b| b.is_ascii_whitespace())
        .map_or(floor, |k| floor + k + 1);
    let word = &buf[from..start];
    word.starts_with(b"=?")
        && memchr::memmem::find(&word[2..], b"?").is_some_and(|q| {
            matches!(word.get(2 + q..2 + q + 3), Some(b"?Q?" | b"?q?")) && 2 + q + 3 == word.len()
        })
}

/// In quoted-printable text, the `urn` at `start` comes right after a byte
/// written as `=` and two hex digits that is no word's (RFC 2045 section
/// 6.7, rule 1: `=3D`, the `=` of an attribute or a query,
/// `<html xmlns:o=3Durn:schemas-microsoft-com:office:office>`; `=20` a
/// space).
pub(super) fn quoted_printable_before(buf: &[u8], start: usize) -> bool {
    start >= 3 && buf[start - 3] == b'=' && hex2(buf, start - 2, start).is_some_and(|c| !is_word(c))
}

/// The length of the terminal renditions at `i`: one or more control
/// sequences (ECMA-48 section 5.4: `ESC [`, parameter bytes 0x30 to 0x3F,
/// intermediate bytes 0x20 to 0x2F) that select a graphic rendition (final
/// `m`, 8.3.117) or erase in line (final `K`, 8.3.41, which grep writes
/// after each colour), each at most 32 bytes.
pub(super) fn renditions(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let mut j = i;
    while j + 2 < limit && buf[j] == 0x1B && buf[j + 1] == b'[' {
        let stop = limit.min(j + 32);
        let mut k = j + 2;
        while k < stop && (0x30..=0x3F).contains(&buf[k]) {
            k += 1;
        }
        while k < stop && (0x20..=0x2F).contains(&buf[k]) {
            k += 1;
        }
        if k >= stop || !matches!(buf[k], b'm' | b'K') {
            break;
        }
        j = k + 1;
    }
    (j > i).then_some(j - i)
}

/// A character written as a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    Ascii(u8),
    Char(char),
}

/// The character an XML/HTML entity reference (`&amp;`, `&#58;`,
/// `&#xE9;`) or a JSON escape (`\/`, `\u003a`) at `i` stands for, and
/// the reference's length.
pub(super) fn decode(buf: &[u8], i: usize, limit: usize) -> Option<(Decoded, usize)> {
    let (c, len) = match buf[i] {
        b'&' => entity(buf, i, limit)?,
        b'\\' => escape(buf, i, limit)?,
        _ => return None,
    };
    let decoded = match u8::try_from(c) {
        Ok(b) if b.is_ascii() => Decoded::Ascii(b),
        _ => Decoded::Char(char::from_u32(c)?),
    };
    Some((decoded, len))
}

/// An XML/HTML entity reference at `i`: its code point and length.
pub(super) fn entity(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    let rest = &buf[i + 1..limit.min(i + 35)];
    let semi = memchr::memchr(b';', rest)?;
    let c = match &rest[..semi] {
        [b'#', b'x' | b'X', digits @ ..] => number(digits, 16)?,
        [b'#', digits @ ..] => number(digits, 10)?,
        name => named(name)?,
    };
    Some((c, semi + 2))
}

/// The code point of an HTML named character reference (HTML Living
/// Standard 13.5, "Named character references"): the XML five, the
/// whitespace, punctuation and quotation marks prose puts next to an
/// identifier, and the Latin-1 letters (a letter written on to a URN is
/// held, as `&#233;` is). Names are case-sensitive.
pub(crate) fn named(name: &[u8]) -> Option<u32> {
    Some(match name {
        b"amp" | b"AMP" => 0x26,
        b"apos" => 0x27,
        b"quot" | b"QUOT" => 0x22,
        b"lt" | b"LT" => 0x3C,
        b"gt" | b"GT" => 0x3E,
        // Whitespace.
        b"Tab" => 0x09,
        b"NewLine" => 0x0A,
        b"nbsp" | b"NonBreakingSpace" => 0xA0,
        b"ensp" => 0x2002,
        b"emsp" => 0x2003,
        b"emsp13" => 0x2004,
        b"emsp14" => 0x2005,
        b"numsp" => 0x2007,
        b"puncsp" => 0x2008,
        b"thinsp" | b"ThinSpace" => 0x2009,
        b"hairsp" | b"VeryThinSpace" => 0x200A,
        b"ZeroWidthSpace" => 0x200B,
        b"zwnj" => 0x200C,
        b"zwj" => 0x200D,
        b"MediumSpace" => 0x205F,
        b"NoBreak" => 0x2060,
        b"shy" => 0xAD,
        // ASCII punctuation.
        b"excl" => 0x21,
        b"num" => 0x23,
        b"dollar" => 0x24,
        b"percnt" => 0x25,
        b"lpar" => 0x28,
        b"rpar" => 0x29,
        b"ast" | b"midast" => 0x2A,
        b"plus" => 0x2B,
        b"comma" => 0x2C,
        b"period" => 0x2E,
        b"sol" => 0x2F,
        b"colon" => 0x3A,
        b"semi" => 0x3B,
        b"equals" => 0x3D,
        b"quest" => 0x3F,
        b"commat" => 0x40,
        b"lsqb" | b"lbrack" => 0x5B,
        b"bsol" => 0x5C,
        b"rsqb" | b"rbrack" => 0x5D,
        b"Hat" => 0x5E,
        b"lowbar" | b"UnderBar" => 0x5F,
        b"grave" | b"DiacriticalGrave" => 0x60,
        b"lcub" | b"lbrace" => 0x7B,
        b"verbar" | b"vert" | b"VerticalLine" => 0x7C,
        b"rcub" | b"rbrace" => 0x7D,
        // Quotation marks, dashes and other punctuation.
        b"lsquo" | b"OpenCurlyQuote" => 0x2018,
        b"rsquo" | b"rsquor" | b"CloseCurlyQuote" => 0x2019,
        b"sbquo" | b"lsquor" => 0x201A,
        b"ldquo" | b"OpenCurlyDoubleQuote" => 0x201C,
        b"rdquo" | b"rdquor" | b"CloseCurlyDoubleQuote" => 0x201D,
        b"bdquo" | b"ldquor" => 0x201E,
        b"laquo" => 0xAB,
        b"raquo" => 0xBB,
        b"lsaquo" => 0x2039,
        b"rsaquo" => 0x203A,
        b"hyphen" | b"dash" => 0x2010,
        b"ndash" => 0x2013,
        b"mdash" => 0x2014,
        b"horbar" => 0x2015,
        b"dagger" => 0x2020,
        b"Dagger" | b"ddagger" => 0x2021,
        b"bull" | b"bullet" => 0x2022,
        b"hellip" | b"mldr" => 0x2026,
        b"prime" => 0x2032,
        b"Prime" => 0x2033,
        b"minus" => 0x2212,
        b"iexcl" => 0xA1,
        b"iquest" => 0xBF,
        b"cent" => 0xA2,
        b"pound" => 0xA3,
        b"curren" => 0xA4,
        b"yen" => 0xA5,
        b"brvbar" => 0xA6,
        b"sect" => 0xA7,
        b"copy" | b"COPY" => 0xA9,
        b"not" => 0xAC,
        b"reg" | b"REG" => 0xAE,
        b"deg" => 0xB0,
        b"plusmn" => 0xB1,
        b"para" => 0xB6,
        b"middot" | b"centerdot" => 0xB7,
        b"times" => 0xD7,
        b"divide" => 0xF7,
        b"euro" => 0x20AC,
        b"trade" | b"TRADE" => 0x2122,
        // Latin-1 letters.
        b"Agrave" => 0xC0,
        b"agrave" => 0xE0,
        b"Aacute" => 0xC1,
        b"aacute" => 0xE1,
        b"Acirc" => 0xC2,
        b"acirc" => 0xE2,
        b"Atilde" => 0xC3,
        b"atilde" => 0xE3,
        b"Auml" => 0xC4,
        b"auml" => 0xE4,
        b"Aring" => 0xC5,
        b"aring" => 0xE5,
        b"AElig" => 0xC6,
        b"aelig" => 0xE6,
        b"Ccedil" => 0xC7,
        b"ccedil" => 0xE7,
        b"Egrave" => 0xC8,
        b"egrave" => 0xE8,
        b"Eacute" => 0xC9,
        b"eacute" => 0xE9,
        b"Ecirc" => 0xCA,
        b"ecirc" => 0xEA,
        b"Euml" => 0xCB,
        b"euml" => 0xEB,
        b"Igrave" => 0xCC,
        b"igrave" => 0xEC,
        b"Iacute" => 0xCD,
        b"iacute" => 0xED,
        b"Icirc" => 0xCE,
        b"icirc" => 0xEE,
        b"Iuml" => 0xCF,
        b"iuml" => 0xEF,
        b"ETH" => 0xD0,
        b"eth" => 0xF0,
        b"Ntilde" => 0xD1,
        b"ntilde" => 0xF1,
        b"Ograve" => 0xD2,
        b"ograve" => 0xF2,
        b"Oacute" => 0xD3,
        b"oacute" => 0xF3,
        b"Ocirc" => 0xD4,
        b"ocirc" => 0xF4,
        b"Otilde" => 0xD5,
        b"otilde" => 0xF5,
        b"Ouml" => 0xD6,
        b"ouml" => 0xF6,
        b"Oslash" => 0xD8,
        b"oslash" => 0xF8,
        b"Ugrave" => 0xD9,
        b"ugrave" => 0xF9,
        b"Uacute" => 0xDA,
        b"uacute" => 0xFA,
        b"Ucirc" => 0xDB,
        b"ucirc" => 0xFB,
        b"Uuml" => 0xDC,
        b"uuml" => 0xFC,
        b"Yacute" => 0xDD,
        b"yacute" => 0xFD,
        b"THORN" => 0xDE,
        b"thorn" => 0xFE,
        b"szlig" => 0xDF,
        b"yuml" => 0xFF,
        _ => return None,
    })
}

pub(super) fn number(digits: &[u8], radix: u32) -> Option<u32> {
    if digits.is_empty() || digits.len() > 7 {
        return None;
    }
    let mut value = 0u32;
    for &d in digits {
        value = value * radix + (d as char).to_digit(radix)?;
    }
    (value <= 0x10FFFF).then_some(value)
}

/// A string literal's escape at `i`: JSON's `\/`, `\uXXXX` or a surrogate
/// pair of them; the hex escape `\xHH` (C11 6.4.4.4, Python 2.4.1,
/// ECMAScript's HexEscapeSequence, PHP's double-quoted strings, the Rust
/// Reference, YAML 1.2 section 5.7, Go, gettext PO) and `\u{H...}` of one
/// to six hex digits (ECMAScript's CodePoint escape, Rust, Swift). Its
/// code point (a lone surrogate is none: `decode` refuses it) and length.
pub(super) fn escape(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    match buf.get(i + 1).filter(|_| i + 1 < limit)? {
        b'/' => Some((u32::from(b'/'), 2)),
        b'x' => Some((u32::from(hex2(buf, i + 2, limit)?), 4)),
        b'u' if buf.get(i + 2) == Some(&b'{') => {
            let digits = &buf[(i + 3).min(limit)..limit.min(i + 10)];
            let n = digits.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            (digits.get(n) == Some(&b'}')).then_some(())?;
            Some((number(&digits[..n], 16)?, n + 4))
        }
        b'u' if i + 6 <= limit => {
            let unit = |at: usize| {
                Some(u32::from(hex2(buf, at, limit)?) << 8 | u32::from(hex2(buf, at + 2, limit)?))
            };
            let c = unit(i + 2)?;
            // A character past U+FFFF is a surrogate pair (RFC 8259
            // section 7): `\ud835\udc00` is one letter.
            if (0xD800..0xDC00).contains(&c)
                && buf.get(i + 6..i + 8) == Some(b"\\u")
                && let Some(low) = unit(i + 8).filter(|l| (0xDC00..0xE000).contains(l))
            {
                return Some((0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00), 12));
            }
            Some((c, 6))
        }
        _ => None,
    }
}

/// A character that, written on to a URN, belongs to it: a letter or a
/// digit of any script, or a combining mark.
pub(super) fn is_glued(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// The length of the non-ASCII character at `i` when it is glued to the
/// URN before it ([`is_glued`]); a byte that starts no UTF-8 character
/// counts when it is a Latin-1 letter (a file in that encoding), else it
/// ends the URN too.
/// Whether `c` is an invisible break hint: a zero-width space (U+200B),
/// a soft hyphen (U+00AD) or a word joiner (U+2060), which typesetting
/// puts inside long names to say where a line may break (Unicode 15.0
/// section 23.2).
pub(super) fn is_break_hint(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{00AD}' | '\u{2060}')
}

/// The length of the break hint ([`is_break_hint`]) written in UTF-8 at
/// `i`, if one is there.
pub(super) fn break_hint(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let head = &buf[i..limit.min(i + 3)];
    ["\u{200B}", "\u{00AD}", "\u{2060}"]
        .iter()
        .map(|c| c.as_bytes())
        .find(|c| head.starts_with(c))
        .map(<[u8]>::len)
}

/// The length of a dash at `i` that stands for a hyphen-minus between
/// `before` and the byte after it ([`dash_for_hyphen`]).
pub(super) fn typographic_dash(buf: &[u8], i: usize, limit: usize, before: Option<u8>) -> Option<usize> {
    let head = buf.get(i..i + 3).filter(|_| i + 3 < limit)?;
    let c = std::str::from_utf8(head).ok()?.chars().next()?;
    dash_for_hyphen(c, before?, buf[i + 3]).then_some(3)
}

/// A dash that stands for a hyphen-minus between `before` and `after`: a
/// hyphen (U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN) between ASCII
/// letters or digits, or a dash (U+2012 FIGURE DASH, U+2013 EN DASH,
/// U+2014 EM DASH, U+2212 MINUS SIGN) between digits, as in an ISBN's
/// parts; between words a dash is prose's punctuation (`urn:x:y—see`).
pub(super) fn dash_for_hyphen(c: char, before: u8, after: u8) -> bool {
    match c {
        '\u{2010}' | '\u{2011}' => before.is_ascii_alphanumeric() && after.is_ascii_alphanumeric(),
        '\u{2012}'..='\u{2014}' | '\u{2212}' => before.is_ascii_digit() && after.is_ascii_digit(),
        _ => false,
    }
}

pub(super) fn glued(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let head = &buf[i..limit.min(i + 4)];
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    match text.chars().next() {
        Some(c) => is_glued(c).then(|| c.len_utf8()),
        None => (matches!(buf[i], 0xC0..=0xFF) && !matches!(buf[i], 0xD7 | 0xF7)).then_some(1),
    }
}
