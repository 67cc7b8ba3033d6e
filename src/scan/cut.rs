//! Where a URN found at `urn:` ends, and what it says once decoded (see
//! the module above for the rules and their sources).

use super::{KEEP, MAX_URN};

/// The characters a URN may hold (RFC 8141 section 2: pchar, `/`, `?`,
/// `#`, with `%` of percent-encoding).
const fn urn_chars() -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'%'
                    | b'?'
                    | b'#'
            );
        b += 1;
    }
    table
}

static URN_CHARS: [bool; 256] = urn_chars();

fn is_urn_char(b: u8) -> bool {
    URN_CHARS[b as usize]
}

/// A byte that glues `urn` to the word before it (`xurn:`, `x-urn:`,
/// `a.urn:`): no word boundary, no URN.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c')
}

/// The buffers of one cut, reused.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// The URN, decoded and joined.
    pub urn: Vec<u8>,
    /// For each byte of `urn`, where its text ends in the input.
    ends: Vec<usize>,
    /// Positions in `urn` of hyphens that end a line inside `<...>`.
    breaks: Vec<usize>,
    /// `urn` without those hyphens.
    alt: Vec<u8>,
    /// The run goes past [`MAX_URN`].
    pub too_long: bool,
}

impl Scratch {
    /// The reading without the hyphens at line breaks, if there is one.
    pub fn alternative(&self) -> Option<&[u8]> {
        (!self.breaks.is_empty()).then_some(&self.alt[..])
    }

    fn push(&mut self, b: u8, end: usize) {
        self.urn.push(b);
        self.ends.push(end);
    }

    /// Cuts the URN whose `urn` starts at `start`, its colon written as
    /// `colon`; returns where its text ends, or `None` when it is no URN.
    pub fn cut(&mut self, buf: &[u8], start: usize, colon: Colon) -> Option<usize> {
        self.urn.clear();
        self.ends.clear();
        self.breaks.clear();
        self.too_long = false;
        let prev = start.checked_sub(1).map(|i| buf[i]);
        if prev.is_some_and(is_word) {
            return None;
        }
        let open = prev.filter(|b| matches!(b, b'<' | b'"' | b'\'' | b'(' | b'*' | b'`'));
        let limit = buf.len().min(start + KEEP - 64);
        // `urn` as written, then its colon: `:`, or read as one.
        let colon_len = match colon {
            Colon::Plain => 1,
            Colon::Percent => 3,
            Colon::Reference => match decode(buf, start + 3, limit) {
                Some((Decoded::Ascii(b':'), len)) => len,
                _ => return None,
            },
        };
        let percent = colon == Colon::Percent;
        for (i, &b) in buf[start..start + 3].iter().enumerate() {
            self.push(b, start + i + 1);
        }
        let body = start + 3 + colon_len;
        self.push(b':', body);
        let mut end = self.run(buf, body, limit, open, percent);
        if self.too_long || end == limit && limit < buf.len() {
            self.too_long = true;
            self.urn.truncate(MAX_URN);
            while end < limit && is_urn_char(buf[end]) {
                end += 1;
            }
            return Some(end);
        }
        let stop = buf.get(end).copied();
        if open == Some(b'<')
            && stop.is_some_and(is_space)
            && let Some(close) = self.join(buf, end, limit)
        {
            return self.has_nid_and_nss().then_some(close);
        }
        // Appendix E: delimiters are not part of the URN; once a pair is
        // closed, everything between them is.
        let closed = matches!(
            (open, stop),
            (Some(b'<'), Some(b'>'))
                | (Some(b'"'), Some(b'"'))
                | (Some(b'\''), Some(b'\''))
                | (Some(b'`'), Some(b'`'))
        );
        if !closed {
            self.trim(open);
        }
        if !self.has_nid_and_nss() {
            return None;
        }
        self.ends.last().copied()
    }

    /// Takes URN characters from `i` on; returns where they stop.
    fn run(&mut self, buf: &[u8], mut i: usize, limit: usize, open: Option<u8>, percent: bool) -> usize {
        while i < limit {
            if self.urn.len() >= MAX_URN {
                self.too_long = true;
                return i;
            }
            let b = buf[i];
            if percent {
                // Inside a URL's query: `&`, `#` and `?` are the URL's.
                match b {
                    b'%' => match hex2(buf, i + 1, limit) {
                        Some(c) => {
                            self.push(c, i + 3);
                            i += 3;
                        }
                        None => return i,
                    },
                    b'&' | b'#' | b'?' | b'\'' => return i,
                    _ if is_urn_char(b) => {
                        self.push(b, i + 1);
                        i += 1;
                    }
                    _ => return i,
                }
                continue;
            }
            if b == b'\'' && open == Some(b'\'') {
                return i;
            }
            if b >= 0x80 {
                // RFC 8141 section 2: a URN is ASCII. A letter or digit
                // written on to it is part of what the writer meant (and
                // makes it invalid); other characters (quotes, dashes,
                // spaces) end it.
                match glued(buf, i, limit) {
                    Some(len) => {
                        if !self.push_all(buf, i, len) {
                            return i;
                        }
                        i += len;
                    }
                    None => return i,
                }
                continue;
            }
            // XML and HTML text: an entity reference is its character;
            // JSON strings: `\/` is `/`, `\u003a` is `:`.
            let reference = match b {
                b'&' => decode(buf, i, limit),
                b'\\' => match decode(buf, i, limit) {
                    Some(decoded) => Some(decoded),
                    None => return i,
                },
                _ => None,
            };
            match reference {
                None if is_urn_char(b) => {
                    self.push(b, i + 1);
                    i += 1;
                }
                None => return i,
                Some((Decoded::Ascii(c), len)) if is_urn_char(c) && !(c == b'\'' && open == Some(b'\'')) => {
                    self.push(c, i + len);
                    i += len;
                }
                // A control character written as a reference inside the
                // run was meant to be there: the URN holds it (and is
                // invalid); a space or a quote so written still ends it.
                Some((Decoded::Ascii(c), len)) if c.is_ascii_control() && !is_space(c) => {
                    self.push(c, i + len);
                    i += len;
                }
                Some((Decoded::Ascii(_), _)) => return i,
                Some((Decoded::Char(c), len)) => {
                    if !is_glued(c) {
                        return i;
                    }
                    let mut utf8 = [0; 4];
                    for &byte in c.encode_utf8(&mut utf8).as_bytes() {
                        self.push(byte, i + len);
                    }
                    i += len;
                }
            }
        }
        i
    }

    /// Pushes `buf[i..i + len]`, unless the URN would pass [`MAX_URN`].
    fn push_all(&mut self, buf: &[u8], i: usize, len: usize) -> bool {
        if self.urn.len() + len > MAX_URN {
            self.too_long = true;
            return false;
        }
        for k in 0..len {
            self.push(buf[i + k], i + len);
        }
        true
    }

    /// Inside `<...>`: the parts between whitespace with a line break are
    /// one URN, up to the `>` (Appendix E). Returns where the `>` is, or
    /// `None` (nothing changed) when the brackets do not close over URN
    /// characters alone.
    fn join(&mut self, buf: &[u8], mut j: usize, limit: usize) -> Option<usize> {
        let kept = self.urn.len();
        let mut line_break = false;
        let close = loop {
            let gap = j;
            while j < limit && is_space(buf[j]) {
                j += 1;
            }
            if j >= limit {
                break None;
            }
            let newline = buf[gap..j].contains(&b'\n');
            line_break |= newline;
            if buf[j] == b'>' {
                break Some(j);
            }
            if !is_urn_char(buf[j]) {
                break None;
            }
            if newline && self.urn.last() == Some(&b'-') {
                self.breaks.push(self.urn.len() - 1);
            }
            j = self.run(buf, j, limit, Some(b'<'), false);
            if self.too_long {
                break None;
            }
            match buf.get(j) {
                Some(b'>') => break Some(j),
                Some(&c) if is_space(c) => {}
                _ => break None,
            }
        };
        match close {
            Some(close) if line_break => {
                self.alt.clear();
                let mut breaks = self.breaks.iter().peekable();
                for (i, &b) in self.urn.iter().enumerate() {
                    if breaks.peek() == Some(&&i) {
                        breaks.next();
                    } else {
                        self.alt.push(b);
                    }
                }
                Some(close)
            }
            _ => {
                self.urn.truncate(kept);
                self.ends.truncate(kept);
                self.breaks.clear();
                self.too_long = false;
                None
            }
        }
    }

    /// Drops what ends a sentence or closes a parenthesis opened before
    /// the URN (Appendix E, and Markdown's `**` emphasis).
    fn trim(&mut self, open: Option<u8>) {
        while self.urn.len() > 4 {
            let last = self.urn[self.urn.len() - 1];
            let drop = match last {
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' => true,
                b')' => {
                    let opened = self.urn.iter().filter(|&&b| b == b'(').count();
                    let closed = self.urn.iter().filter(|&&b| b == b')').count();
                    closed > opened
                }
                b'*' => open == Some(b'*'),
                _ => false,
            };
            if !drop {
                break;
            }
            self.urn.pop();
            self.ends.pop();
        }
    }

    /// `urn:NID:NSS` with a NID and an NSS of at least one byte each.
    fn has_nid_and_nss(&self) -> bool {
        let body = &self.urn[4..];
        match memchr::memchr(b':', body) {
            Some(colon) => colon > 0 && colon + 1 < body.len(),
            None => false,
        }
    }
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn hex2(buf: &[u8], i: usize, limit: usize) -> Option<u8> {
    if i + 2 > limit {
        return None;
    }
    Some(hex(buf[i])? << 4 | hex(buf[i + 1])?)
}

/// How the URN's colon is written after `urn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Colon {
    /// `:`.
    Plain,
    /// `%3A`, in a URL: the rest is percent-decoded once.
    Percent,
    /// An entity reference (`&#58;`, `&colon;`) or a JSON escape
    /// (`\u003a`).
    Reference,
}

/// A character written as a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decoded {
    Ascii(u8),
    Char(char),
}

/// The character an XML/HTML entity reference (`&amp;`, `&#58;`,
/// `&#xE9;`) or a JSON escape (`\/`, `\u003a`) at `i` stands for, and
/// the reference's length.
fn decode(buf: &[u8], i: usize, limit: usize) -> Option<(Decoded, usize)> {
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
fn entity(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    let rest = &buf[i + 1..limit.min(i + 12)];
    let semi = memchr::memchr(b';', rest)?;
    let c = match &rest[..semi] {
        b"amp" => u32::from(b'&'),
        b"apos" => u32::from(b'\''),
        b"quot" => u32::from(b'"'),
        b"lt" => u32::from(b'<'),
        b"gt" => u32::from(b'>'),
        b"colon" => u32::from(b':'),
        [b'#', b'x' | b'X', digits @ ..] => number(digits, 16)?,
        [b'#', digits @ ..] => number(digits, 10)?,
        _ => return None,
    };
    Some((c, semi + 2))
}

fn number(digits: &[u8], radix: u32) -> Option<u32> {
    if digits.is_empty() || digits.len() > 7 {
        return None;
    }
    let mut value = 0u32;
    for &d in digits {
        value = value * radix + (d as char).to_digit(radix)?;
    }
    (value <= 0x10FFFF).then_some(value)
}

/// A JSON escape at `i`: `\/`, `\uXXXX`, or a surrogate pair of them; its
/// code point (a lone surrogate is none: `decode` refuses it) and length.
fn escape(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    match buf.get(i + 1).filter(|_| i + 1 < limit)? {
        b'/' => Some((u32::from(b'/'), 2)),
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
fn is_glued(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// The length of the non-ASCII character at `i` when it is glued to the
/// URN before it ([`is_glued`]); a byte that starts no UTF-8 character
/// counts when it is a Latin-1 letter (a file in that encoding), else it
/// ends the URN too.
fn glued(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
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
