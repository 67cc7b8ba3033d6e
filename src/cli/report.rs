//! How a [`Report`] is written for people: a status line, then each
//! finding under the input with a caret at its byte. (The JSON form is the
//! library's, [`Report::write_json`].)

use std::io::{self, Write};

use urnreg::Report;

use anstyle::Style;

use super::output::{Palette, escape, is_hidden_format, paint, printable_line};

/// Writes the text form; `line` is the input's line number in a stream,
/// written `N:` before the status as `grep -n` does. `verbose`: the whole
/// source of each finding of the namespace's rules under it.
pub fn write_text(
    report: &Report<'_, '_>,
    line: Option<u64>,
    palette: &Palette,
    verbose: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let status = if report.is_valid() {
        paint(palette.good, "valid  ")
    } else {
        paint(palette.error, "invalid")
    };
    let shown = Shown::new(report.input_bytes());
    match line {
        Some(n) => writeln!(out, "{n}:{status} {}", shown.text)?,
        None => writeln!(out, "{status} {}", shown.text)?,
    }
    write_findings(report, &shown, palette, verbose, out)
}

/// Writes each error and warning of `report` under the input, with a
/// caret at its byte; `verbose`: the whole source of a finding of the
/// namespace's rules on a line of its own (its message ends with a short
/// citation only).
pub fn write_findings(
    report: &Report<'_, '_>,
    shown: &Shown,
    palette: &Palette,
    verbose: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let levels = [(Level::Error, true), (Level::Warning, false)];
    for (level, errors) in levels {
        for f in report.findings().iter().filter(|f| f.is_error() == errors) {
            write_caret(out, shown, f.offset(), level, &f.to_string(), palette)?;
            if verbose && let Some(source) = report.source_of(f) {
                writeln!(
                    out,
                    "  {} {}",
                    paint(palette.dim, "= source:"),
                    printable_line(source)
                )?;
            }
        }
    }
    Ok(())
}

/// How serious a finding is, as labelled under a caret.
#[derive(Clone, Copy)]
pub enum Level {
    Error,
    Warning,
}

/// The most bytes of one input shown on a line: a longer input (a line
/// can be 1 MiB) is shown as this many bytes around each finding, and its
/// first ones on its status line, with `[N bytes left out]` where it was
/// cut (docs/validating.md).
pub const SHOWN_BYTES: usize = 512;

/// Of a window around a finding in a long input, the bytes shown before
/// the finding's own.
const BEFORE: usize = 128;

/// Input made printable: control characters and bytes that are not UTF-8
/// are shown as `\xNN`; `columns[i]` is the screen column of byte
/// `start + i` (empty when every byte is printable ASCII and none is left
/// out: then byte `i` is column `i`). An input longer than [`SHOWN_BYTES`]
/// is cut: `text` is its start, and [`Shown::around`] a window around an
/// offset.
#[derive(Clone)]
pub struct Shown<'a> {
    pub text: std::borrow::Cow<'a, str>,
    columns: Vec<usize>,
    /// The whole input.
    raw: &'a [u8],
    /// The first byte of `raw` that `text` shows.
    start: usize,
    /// Whether bytes were left out.
    cut: bool,
}

impl<'a> Shown<'a> {
    pub fn new(raw: &'a [u8]) -> Self {
        if raw.len() > SHOWN_BYTES {
            return Self::window(raw, 0);
        }
        // Printable ASCII (nearly every URN) is shown as it is, one column
        // per byte: borrowed, nothing to map.
        if super::output::printable_ascii(raw)
            && let Ok(text) = std::str::from_utf8(raw)
        {
            return Shown {
                text: std::borrow::Cow::Borrowed(text),
                columns: Vec::new(),
                raw,
                start: 0,
                cut: false,
            };
        }
        let mut shown = Shown {
            text: std::borrow::Cow::Owned(String::with_capacity(raw.len())),
            columns: Vec::with_capacity(raw.len() + 1),
            raw,
            start: 0,
            cut: false,
        };
        shown.push_from(raw, 0);
        shown
    }

    /// The input as shown under a finding at byte `offset`: all of it when
    /// it is short, else a window of [`SHOWN_BYTES`] around `offset`.
    pub fn around(&self, offset: usize) -> std::borrow::Cow<'_, Shown<'a>> {
        if !self.cut {
            return std::borrow::Cow::Borrowed(self);
        }
        let start = offset
            .saturating_sub(BEFORE)
            .min(self.raw.len().saturating_sub(SHOWN_BYTES));
        std::borrow::Cow::Owned(Self::window(self.raw, start))
    }

    /// At most [`SHOWN_BYTES`] of `raw` from about `start` (moved back to
    /// the start of a character), each end that leaves bytes out marked.
    fn window(raw: &'a [u8], start: usize) -> Self {
        let starts_char = |i: usize| raw.get(i).is_none_or(|&b| b & 0xC0 != 0x80);
        let mut start = start.min(raw.len());
        for _ in 0..3 {
            if start > 0 && !starts_char(start) {
                start -= 1;
            }
        }
        let mut end = (start + SHOWN_BYTES).min(raw.len());
        for _ in 0..3 {
            if end > start && !starts_char(end) {
                end -= 1;
            }
        }
        let mut shown = Shown {
            text: std::borrow::Cow::Owned(String::with_capacity(SHOWN_BYTES + 64)),
            columns: Vec::with_capacity(end - start + 1),
            raw,
            start,
            cut: true,
        };
        let text = shown.text.to_mut();
        if start > 0 {
            left_out(text, start);
        }
        let lead = text.len();
        shown.push_from(&raw[start..end], lead);
        if end < raw.len() {
            left_out(shown.text.to_mut(), raw.len() - end);
        }
        shown
    }

    /// Appends `raw` made printable, mapping each of its bytes to a
    /// column, the first to `col`.
    fn push_from(&mut self, raw: &[u8], mut col: usize) {
        let text = self.text.to_mut();
        let columns = &mut self.columns;
        for chunk in raw.utf8_chunks() {
            for c in chunk.valid().chars() {
                for _ in 0..c.len_utf8() {
                    columns.push(col);
                }
                if c.is_control() || is_hidden_format(c) {
                    let escaped = escape(c);
                    col += escaped.len();
                    text.push_str(&escaped);
                } else {
                    col += 1;
                    text.push(c);
                }
            }
            for &b in chunk.invalid() {
                columns.push(col);
                let escaped = escape(char::from(b));
                col += escaped.len();
                text.push_str(&escaped);
            }
        }
        columns.push(col);
    }

    pub fn column(&self, offset: usize) -> usize {
        if self.columns.is_empty() {
            return offset.min(self.text.len());
        }
        self.columns
            .get(offset.saturating_sub(self.start))
            .copied()
            .unwrap_or_else(|| *self.columns.last().unwrap_or(&0))
    }
}

/// Writes the mark of `n` bytes left out of a long input.
fn left_out(text: &mut String, n: usize) {
    text.push('[');
    text.push_str(itoa::Buffer::new().format(n));
    text.push_str(" bytes left out]");
}

/// Writes `  <input>` and a caret line under byte `offset`. Written in
/// pieces, not through `format!`: `normalize` writes one for each of
/// millions of invalid lines.
pub fn write_caret(
    out: &mut impl Write,
    shown: &Shown,
    offset: usize,
    level: Level,
    message: &str,
    palette: &Palette,
) -> io::Result<()> {
    let (style, label) = match level {
        Level::Error => (palette.error, "error"),
        Level::Warning => (palette.warning, "warning"),
    };
    let shown = shown.around(offset);
    out.write_all(b"  ")?;
    out.write_all(shown.text.as_bytes())?;
    out.write_all(b"\n  ")?;
    let mut column = shown.column(offset);
    const SPACES: &[u8; 64] = &[b' '; 64];
    while column > 0 {
        let n = column.min(SPACES.len());
        out.write_all(&SPACES[..n])?;
        column -= n;
    }
    write_painted(out, style, "^")?;
    out.write_all(b" ")?;
    write_painted(out, style, label)?;
    out.write_all(b": ")?;
    out.write_all(printable_line(message).as_bytes())?;
    out.write_all(b"\n")
}

/// `text` in `style` (as it is without colour, the usual case in a pipe).
fn write_painted(out: &mut impl Write, style: Style, text: &str) -> io::Result<()> {
    if style == Style::new() {
        out.write_all(text.as_bytes())
    } else {
        write!(out, "{}", paint(style, text))
    }
}

/// Writes the errors of an invalid report, saying which input it was
/// (`what` and its number: "URN 1", "line 7"; `what` alone without one),
/// for stderr. A message is made in `scratch` (kept by a stream's caller
/// from one line to the next: one made per line cost an allocation, 1.2%
/// of `normalize`'s instructions by callgrind).
pub fn write_invalid(
    report: &Report<'_, '_>,
    what: &str,
    number: Option<u64>,
    palette: &Palette,
    out: &mut impl Write,
    scratch: &mut String,
) -> io::Result<()> {
    let shown = Shown::new(report.input_bytes());
    write_painted(out, palette.error, "error")?;
    out.write_all(b": ")?;
    out.write_all(what.as_bytes())?;
    if let Some(n) = number {
        out.write_all(b" ")?;
        out.write_all(itoa::Buffer::new().format(n).as_bytes())?;
    }
    out.write_all(b" is invalid\n")?;
    // Room for a message at once (grown from empty, it was four copies).
    scratch.reserve(256);
    for f in report.errors() {
        let message = f.message_in(scratch);
        write_caret(out, &shown, f.offset(), Level::Error, message, palette)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Shown;

    #[test]
    fn shown_escapes_and_keeps_columns() {
        let plain = Shown::new(b"urn:a:b");
        assert_eq!(plain.text, "urn:a:b");
        assert_eq!((plain.column(0), plain.column(6), plain.column(7)), (0, 6, 7));
        let tab = Shown::new(b"urn:a:\tb\xffc\xe2\x80\xaed");
        assert_eq!(tab.text, "urn:a:\\x09b\\xffc\\u{202e}d");
        // The byte after each escape is under its own character.
        assert_eq!(tab.column(7), 10);
        assert_eq!(tab.column(8), 11);
        assert_eq!(tab.column(9), 15);
        assert_eq!(tab.column(13), 24);
        assert_eq!(tab.column(99), 25, "past the end: the end");
        assert_eq!(Shown::new(b"").column(0), 0);
    }

    /// A long input is shown as a window of at most `SHOWN_BYTES` around
    /// an offset, cut between characters, its caret column still that of
    /// its byte.
    #[test]
    fn long_input_is_shown_around_the_offset() {
        let mut raw = b"urn:a:".to_vec();
        raw.extend("é".repeat(1000).bytes());
        raw.push(0xff);
        raw.extend(b"\tz".repeat(1000));
        let shown = Shown::new(&raw);
        assert!(shown.text.ends_with("[3495 bytes left out]"), "{}", shown.text);
        assert!(
            !shown.text.contains("\\x"),
            "whole characters only: {}",
            shown.text
        );
        let at = 6 + 2000; // the 0xff
        let window = shown.around(at);
        // Columns count characters.
        let column = window.column(at);
        let before: String = window.text.chars().take(column).collect();
        let after: String = window.text.chars().skip(column).collect();
        assert!(before.starts_with("[1878 bytes left out]é"), "{before}");
        assert!(after.starts_with("\\xff\\x09z\\x09z"), "{after}");
        assert!(after.ends_with(" bytes left out]"), "{after}");
        // The byte after an escape is still under its own character.
        assert_eq!(window.column(at + 2) - window.column(at), 8);
        // At the very end: the last bytes, nothing left out after them.
        let end = shown.around(raw.len());
        assert!(end.text.ends_with("\\x09z"), "{}", end.text);
        assert_eq!(end.column(raw.len()), end.text.chars().count());
        // Short inputs are shown whole.
        let short = Shown::new(&raw[..super::SHOWN_BYTES]);
        assert!(!short.text.contains("left out"));
        assert_eq!(short.around(300).text, short.text);
    }
}
