//! From bytes to text: UTF-8, else Windows-1252 or Latin-1, with a note
//! saying which.

use super::*;

/// Windows-1252 for the bytes 0x80 to 0x9F (the WHATWG Encoding
/// Standard's index); the five bytes it leaves undefined map to the C1
/// control of the same number, as in that standard. Every other byte is
/// the Latin-1 character of the same number.
pub(super) const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The character a byte stands for in Windows-1252.
pub(super) fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The 1-based line of byte `offset` in `bytes`.
pub(super) fn line_of(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Decodes a template text: UTF-8 when it is valid UTF-8 (a byte-order
/// mark dropped), UTF-16 when it starts with a UTF-16 byte-order mark,
/// and otherwise every byte that is not part of a valid UTF-8 sequence
/// read as Windows-1252. Registration texts from before UTF-8 was usual
/// are Latin-1 or Windows-1252; their non-ASCII bytes almost never form
/// valid UTF-8 sequences, so a text that mixes the two (edited later) is
/// read right too. Returns a note unless the text was UTF-8.
pub(crate) fn decode(bytes: &[u8]) -> (String, Option<Note>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    type Unit = fn([u8; 2]) -> u16;
    let le: Unit = u16::from_le_bytes;
    let be: Unit = u16::from_be_bytes;
    // UTF-16 without a byte-order mark (what `iconv -t UTF-16LE` writes):
    // a text of Latin letters has a NUL as every other byte, which no
    // UTF-8 or Windows-1252 text has (the NULs would pass as UTF-8).
    let nuls = |from: usize| bytes.iter().skip(from).step_by(2).filter(|b| **b == 0).count();
    let pairs = bytes.len() / 2;
    let bomless = if bytes.len() >= 4
        && bytes.len().is_multiple_of(2)
        && !bytes.starts_with(&[0xFF, 0xFE])
        && !bytes.starts_with(&[0xFE, 0xFF])
    {
        let (even, odd) = (nuls(0), nuls(1));
        if odd * 2 > pairs && even == 0 {
            Some((bytes, "UTF-16LE", le))
        } else if even * 2 > pairs && odd == 0 {
            Some((bytes, "UTF-16BE", be))
        } else {
            None
        }
    } else {
        None
    };
    if bomless.is_none()
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        return (text.to_string(), None);
    }
    let utf16 = match bytes {
        [0xFF, 0xFE, rest @ ..] => Some((rest, "UTF-16LE", le)),
        [0xFE, 0xFF, rest @ ..] => Some((rest, "UTF-16BE", be)),
        _ => bomless,
    };
    if let Some((rest, name, unit)) = utf16 {
        let units = rest.chunks_exact(2).map(|p| unit([p[0], p[1]]));
        let mut bad = usize::from(rest.len() % 2 == 1);
        let mut text: String = char::decode_utf16(units)
            .map(|r| {
                r.unwrap_or_else(|_| {
                    bad += 1;
                    char::REPLACEMENT_CHARACTER
                })
            })
            .collect();
        if rest.len() % 2 == 1 {
            text.push(char::REPLACEMENT_CHARACTER);
        }
        let mut message = if bomless.is_some() {
            format!("not UTF-8: read as {name} (no byte-order mark, but every other byte is NUL)")
        } else {
            format!("not UTF-8: read as {name} (it starts with a {name} byte-order mark)")
        };
        if bad > 0 {
            message.push_str(&format!("; {bad} invalid code unit(s) replaced by U+FFFD"));
        }
        return (text, Some(Note::new(NoteKind::Decoded, None, message)));
    }
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 4);
    let (mut offset, mut first, mut count, mut utf8_seen) = (0, None, 0usize, false);
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        utf8_seen |= !valid.is_ascii();
        text.push_str(valid);
        offset += valid.len();
        for &b in chunk.invalid() {
            first.get_or_insert(offset);
            text.push(cp1252(b));
            offset += 1;
            count += 1;
        }
    }
    let first = first.unwrap_or(0);
    let mut message = format!(
        "not UTF-8: {count} byte(s) read as Windows-1252 (Latin-1), the first ({:#04X}) at byte {first}",
        bytes[first]
    );
    if utf8_seen {
        message.push_str("; the rest is UTF-8");
    }
    let note = Note::new(NoteKind::Decoded, Some(line_of(bytes, first)), message);
    (text, Some(note))
}

// ---------------------------------------------------------------------
// Headings
