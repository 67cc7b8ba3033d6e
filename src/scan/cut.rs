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

    /// Cuts the URN whose `urn:` (or `urn%3A` when `percent`) starts at
    /// `start`; returns where its text ends, or `None` when it is no URN.
    pub fn cut(&mut self, buf: &[u8], start: usize, percent: bool) -> Option<usize> {
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
        // `urn` as written, then its colon.
        for (i, &b) in buf[start..start + 3].iter().enumerate() {
            self.push(b, start + i + 1);
        }
        let body = if percent { start + 6 } else { start + 4 };
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
            let (c, len) = match b {
                b'\'' if open == Some(b'\'') => return i,
                // XML and HTML text: an entity reference is its character.
                b'&' => entity(buf, i, limit).unwrap_or((b'&', 1)),
                // JSON strings: `\/` is `/`, `\u003a` is `:`.
                b'\\' => match escape(buf, i, limit) {
                    Some(decoded) => decoded,
                    None => return i,
                },
                _ => (b, 1),
            };
            if !is_urn_char(c) || c == b'\'' && open == Some(b'\'') {
                return i;
            }
            self.push(c, i + len);
            i += len;
        }
        i
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

/// An XML/HTML entity reference at `i` (`&amp;`, `&#58;`, `&#x3A;`) for an
/// ASCII character: the character and the reference's length.
fn entity(buf: &[u8], i: usize, limit: usize) -> Option<(u8, usize)> {
    let rest = &buf[i + 1..limit.min(i + 10)];
    let semi = memchr::memchr(b';', rest)?;
    let c = match &rest[..semi] {
        b"amp" => b'&',
        b"apos" => b'\'',
        b"quot" => b'"',
        b"lt" => b'<',
        b"gt" => b'>',
        [b'#', b'x' | b'X', digits @ ..] => number(digits, 16)?,
        [b'#', digits @ ..] => number(digits, 10)?,
        _ => return None,
    };
    Some((c, semi + 2))
}

fn number(digits: &[u8], radix: u32) -> Option<u8> {
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    let mut value = 0u32;
    for &d in digits {
        value = value * radix + (d as char).to_digit(radix)?;
    }
    (value < 0x80).then_some(value as u8)
}

/// A JSON escape at `i` for an ASCII character: `\/` or `\u00XX`.
fn escape(buf: &[u8], i: usize, limit: usize) -> Option<(u8, usize)> {
    match buf.get(i + 1).filter(|_| i + 1 < limit)? {
        b'/' => Some((b'/', 2)),
        b'u' if i + 6 <= limit && &buf[i + 2..i + 4] == b"00" => {
            let c = hex2(buf, i + 4, limit)?;
            (c < 0x80).then_some((c, 6))
        }
        _ => None,
    }
}
