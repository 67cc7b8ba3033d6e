//! Where a lint finding is in the TOML file it was read from, as a line
//! and column that editors and CI annotations can jump to
//! (`FILE:LINE:COLUMN: error[rule]: ...`).
//!
//! A finding names a field (`date`, `rfc3406.scope`) and, for a problem
//! inside a text (an ABNF error in Syntax), a byte offset into the field's
//! value as the program sees it. The value's place in the file comes from
//! the TOML parser's spans; the offset is carried into the written string
//! by walking its escapes (`\n`, `\u00e9`, a line-ending backslash), so
//! that it lands on the character the problem is about.

use serde::Serialize;
use toml::de::{DeTable, DeValue};

/// A place in a file: 1-based line, and 1-based column counted in
/// characters (as rustc and most editors count them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

/// Where `field` (a dotted key path such as `syntax` or `rfc3406.scope`)
/// is in `source`, at byte `offset` of its value when given: a string
/// value's character at that offset (or its opening quote without one), a
/// table's key, another value's first character. A field that is not in
/// the file (a missing required field) is the file as a whole: line 1,
/// column 1.
pub fn locate(source: &str, field: &str, offset: Option<usize>) -> Location {
    let at = byte_position(source, field, offset).unwrap_or(0);
    line_column(source, at)
}

fn byte_position(source: &str, field: &str, offset: Option<usize>) -> Option<usize> {
    let doc = DeTable::parse(source).ok()?;
    let mut table = doc.get_ref();
    let mut parts = field.split('.').peekable();
    loop {
        let part = parts.next()?;
        let (key, value) = table.iter().find(|(k, _)| k.get_ref() == part)?;
        let span = value.span();
        if parts.peek().is_none() {
            return Some(match value.get_ref() {
                DeValue::String(decoded) => {
                    let raw = source.get(span.clone())?;
                    let inner = offset.and_then(|o| string_offset(raw, decoded, o));
                    span.start + inner.unwrap_or(0)
                }
                DeValue::Table(_) | DeValue::Array(_) => key.span().start,
                _ => span.start,
            });
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            // The path goes deeper than the file does: the nearest key.
            _ => return Some(key.span().start),
        }
    }
}

/// The byte in `raw` (a TOML string as written, quotes and all) where
/// byte `target` of its value `decoded` comes from; `None` when `raw` is
/// not a string or `target` is past its end.
fn string_offset(raw: &str, decoded: &str, target: usize) -> Option<usize> {
    let (open, literal) = if raw.starts_with("\"\"\"") {
        (3, false)
    } else if raw.starts_with("'''") {
        (3, true)
    } else if raw.starts_with('"') {
        (1, false)
    } else if raw.starts_with('\'') {
        (1, true)
    } else {
        return None;
    };
    let multi_line = open == 3;
    let r = raw.as_bytes();
    let mut i = open;
    // A newline right after the opening delimiter is not part of the value
    // (TOML 1.0, "String").
    if multi_line {
        if r[i..].starts_with(b"\r\n") {
            i += 2;
        } else if r.get(i) == Some(&b'\n') {
            i += 1;
        }
    }
    let mut j = 0;
    while j < target {
        let decoded_char = decoded.get(j..)?.chars().next()?;
        if !literal && r.get(i) == Some(&b'\\') {
            match *r.get(i + 1)? {
                // A line-ending backslash: it and the white space and
                // newlines after it stand for nothing.
                b' ' | b'\t' | b'\r' | b'\n' if multi_line => {
                    i += 1;
                    while matches!(r.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                        i += 1;
                    }
                    continue;
                }
                b'u' => i += 6,
                b'U' => i += 10,
                b'x' => i += 4,
                _ => i += 2,
            }
            j += decoded_char.len_utf8();
            continue;
        }
        if r[i..].starts_with(b"\r\n") && decoded_char == '\n' {
            i += 2;
            j += 1;
            continue;
        }
        let raw_char = raw.get(i..)?.chars().next()?;
        i += raw_char.len_utf8();
        j += decoded_char.len_utf8();
    }
    // The character sought may follow a line-ending backslash.
    if multi_line && !literal {
        while r.get(i) == Some(&b'\\') && matches!(r.get(i + 1), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            i += 1;
            while matches!(r.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                i += 1;
            }
        }
    }
    (i <= raw.len()).then_some(i)
}

impl Location {
    /// The line and column of byte `at` of `source` (clamped to its end).
    pub fn of_byte(source: &str, at: usize) -> Location {
        line_column(source, at)
    }
}

/// The line and column (in characters) of byte `at` of `source`.
fn line_column(source: &str, at: usize) -> Location {
    let mut at = at.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let before = &source[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Location {
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Location {
        Location { line, column }
    }

    const FILE: &str = "kind = \"formal\"\n\
        nid = 'acme'\n\
        date = 2026-11-01\n\
        syntax = \"\"\"\n\
        The NSS:\n\
        \x20  nss = 1*DIGIT \\\n\
        \x20    x\n\
        caf\\u00e9 = \\\"q\\\"\"\"\"\n\
        lit = '''\r\n\
        one\r\n\
        two'''\n\
        [rfc3406]\n\
        scope = \"w\u{e9}rld\"\n";

    #[test]
    fn fields_are_found_by_their_value() {
        assert_eq!(locate(FILE, "kind", None), at(1, 8));
        assert_eq!(locate(FILE, "nid", None), at(2, 7));
        assert_eq!(locate(FILE, "date", None), at(3, 8));
        assert_eq!(locate(FILE, "syntax", None), at(4, 10));
        assert_eq!(locate(FILE, "rfc3406", None), at(12, 2));
        assert_eq!(locate(FILE, "rfc3406.scope", None), at(13, 9));
        assert_eq!(locate(FILE, "rfc3406.scope.deeper", None), at(13, 1));
    }

    #[test]
    fn a_missing_field_is_the_whole_file() {
        assert_eq!(locate(FILE, "registrant", None), at(1, 1));
        assert_eq!(locate("not = [toml", "x", None), at(1, 1));
    }

    #[test]
    fn offsets_land_on_their_character_through_escapes() {
        let syntax = "The NSS:\n   nss = 1*DIGIT x\ncaf\u{e9} = \"q\"";
        let toml: toml::Table = toml::from_str(FILE).unwrap();
        assert_eq!(toml["syntax"].as_str(), Some(syntax));
        // "nss" on the value's line 2, column 4.
        assert_eq!(locate(FILE, "syntax", syntax.find("nss =")), at(6, 4));
        // After a line-ending backslash: "x" on the next line of the file.
        assert_eq!(locate(FILE, "syntax", syntax.find('x')), at(7, 6));
        // Past a \u00e9 escape (six characters for one).
        assert_eq!(locate(FILE, "syntax", syntax.rfind(" = ")), at(8, 10));
        assert_eq!(locate(FILE, "syntax", syntax.find('q')), at(8, 15));
        // CRLF newlines in a literal string.
        let lit = toml["lit"].as_str().unwrap();
        assert_eq!(locate(FILE, "lit", lit.find("two")), at(11, 1));
        // Multi-byte characters count once.
        assert_eq!(locate(FILE, "rfc3406.scope", Some("w\u{e9}r".len())), at(13, 13));
        // Past the end: the value's start.
        assert_eq!(locate(FILE, "nid", Some(99)), at(2, 7));
    }
}
