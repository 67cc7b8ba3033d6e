//! Reading the values of the first fields: the NID (requested, quoted,
//! informal), the registration's version and date.

use super::*;

/// The version and date a registration text gives, and notes on how
/// they were read: its Version and Date fields (RFC 8141 Appendix A), or,
/// in the RFC 3406 form, its Registration Information ("Registration
/// Version Number", "Registration Date", RFC 3406 section 4 and Appendix
/// A). A version or date the text writes but that cannot be read is
/// said in a note; a Date field that is no day is kept as written.
pub fn version_and_date(fields: &TemplateFields) -> (Option<i64>, Option<String>, Vec<Note>) {
    let mut notes = Vec::new();
    let mut version = fields.version.as_deref().and_then(|t| {
        // The value's first paragraph (a value wrapped on to a second
        // line is one), or else its first line alone.
        let written = first_paragraph(t);
        match read_version(&written).or_else(|| read_version(first_line(t))) {
            Some((v, true)) => Some(v),
            Some((v, false)) => {
                notes.push(Note::new(
                    NoteKind::Guessed,
                    None,
                    format!("Version: '{written}' read as {v}"),
                ));
                Some(v)
            }
            None => {
                notes.push(Note::new(
                    NoteKind::Unplaced,
                    None,
                    format!("Version: '{written}' is not a whole number (RFC 8141 Appendix A: 1, then one more for each revision): not read"),
                ));
                None
            }
        }
    });
    let mut date = fields.date.as_deref().map(|t| {
        let written = first_paragraph(t);
        match read_date(&written).or_else(|| read_date(first_line(t))) {
            Some((date, true)) => date,
            Some((date, false)) => {
                notes.push(Note::new(
                    NoteKind::Guessed,
                    None,
                    format!("Date: '{written}' read as {date}"),
                ));
                date
            }
            None => {
                notes.push(Note::new(
                    NoteKind::Unplaced,
                    None,
                    format!("Date: '{written}' is no date YYYY-MM-DD: kept as written"),
                ));
                written
            }
        }
    });
    // RFC 3406 section 4: "Registration Information" holds the
    // registration version number and the registration date.
    if let Some(info) = fields.registration_information.as_deref() {
        if version.is_none() && fields.version.is_none() {
            version = from_information(
                info,
                "version",
                number_after(info, "version"),
                "no whole version number (RFC 8141 Appendix A: 1, then one more for each revision)",
                &mut notes,
            );
        }
        if date.is_none() {
            date = from_information(
                info,
                "date",
                date_after(info, "date"),
                "no date YYYY-MM-DD",
                &mut notes,
            );
        }
    }
    (version, date, notes)
}

/// A value read from Registration Information (`read`, from the line
/// that has `word`), noted as read there; or, when that line says
/// something else, a note that it was not read (`unread`: what it lacks).
pub(super) fn from_information<T: std::fmt::Display>(
    info: &str,
    word: &str,
    read: Option<T>,
    unread: &str,
    notes: &mut Vec<Note>,
) -> Option<T> {
    match read {
        Some(value) => {
            let mut label = word.to_string();
            label[..1].make_ascii_uppercase();
            notes.push(Note::new(
                NoteKind::Guessed,
                None,
                format!("{label} {value} read from Registration Information"),
            ));
            Some(value)
        }
        None => {
            notes.extend(line_with(info, word).map(|line| {
                Note::new(
                    NoteKind::Unplaced,
                    None,
                    format!("Registration Information: '{line}' gives {unread}: not read"),
                )
            }));
            None
        }
    }
}

/// The first line of `text` that has `word` (case-insensitive) as a
/// word of its own, trimmed.
pub(super) fn line_with<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    text.lines().map(str::trim).find(|line| {
        line.to_ascii_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == word)
    })
}

/// A version as templates write it: the whole number `text` starts with
/// (RFC 8141 Appendix A numbers versions 1, 2, ...), and whether that is
/// all it says. `1.0` reads as 1 and `2 (revision of RFC 3187)` as 2,
/// not as written; `2.1`, `2a` and `one` read as none.
pub(super) fn read_version(text: &str) -> Option<(i64, bool)> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let number: i64 = text[..digits].parse().ok()?;
    let mut rest = &text[digits..];
    if let Some(fraction) = rest.strip_prefix('.')
        && fraction.starts_with(|c: char| c.is_ascii_digit())
    {
        // Only zeros after the point: the same whole number.
        rest = fraction.trim_start_matches('0');
    }
    if rest.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some((number, digits == text.len()))
}

/// What a Namespace Identifier text names.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum NidRead {
    /// A NID.
    Nid(String),
    /// A NID taken out of a sentence (a word of it): said as a guess.
    Guessed(String),
    /// No NID, and says IANA is to assign one: an informal namespace.
    Informal,
    /// Nothing read.
    None,
}

impl NidRead {
    /// Whether `other` names the same (NIDs are case-insensitive, RFC
    /// 8141 section 3).
    fn same_as(&self, other: &NidRead) -> bool {
        match (self, other) {
            (NidRead::Nid(a) | NidRead::Guessed(a), NidRead::Nid(b) | NidRead::Guessed(b)) => {
                a.eq_ignore_ascii_case(b)
            }
            (a, b) => a == b,
        }
    }
}

/// The NID a Namespace Identifier text names. RFC 8141 section 5.2: the
/// registrant of an informal namespace does not designate its NID; IANA
/// assigns one. A text that says so ("to be assigned", "Assigned by
/// IANA", "informal namespace", "TBD") names none, unless a NID is written
/// beside the phrase. A NID taken out of a sentence (the first word of
/// `ISBN Requested of IANA.` is plain, as is a quoted word; the first
/// of `Acme Corp proposes acme` is not) is a guess, said as one.
pub(super) fn read_nid(text: &str) -> NidRead {
    let (found, rest) = match without_assignment_phrases(text) {
        Some(rest) => match nid_named_beside_assignment(&rest) {
            Some(nid) => (nid, rest),
            None => return NidRead::Informal,
        },
        None => match nid_in(text) {
            Some(nid) => (nid, text.to_string()),
            None if informal_placeholder(text) => return NidRead::Informal,
            None => return NidRead::None,
        },
    };
    // RFC 8141 section 2: a NID is one word; the value names it plainly
    // when it is quoted (`The Namespace ID "example" has been assigned.`)
    // or an informal `urn-N`, or when the value's other words only say
    // that it is requested.
    let named = quoted_or_informal_nid(&rest).is_some_and(|n| n == found);
    let plain = named
        || rest
            .split_whitespace()
            .map(clean_word)
            .map(str::to_ascii_lowercase)
            .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case(&found))
            .all(|w| NID_REQUEST_WORDS.contains(&w.as_str()) || w.bytes().all(|b| b.is_ascii_punctuation()));
    if plain {
        NidRead::Nid(found)
    } else {
        NidRead::Guessed(found)
    }
}

/// Whether a Namespace Identifier text speaks of both a formal and an
/// informal namespace (RFC 8141 Appendix A's "Requested of IANA (formal)
/// or assigned by IANA (informal)", left as written).
pub(super) fn names_both_kinds(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .map(str::to_ascii_lowercase)
        .collect();
    words.iter().any(|w| w == "formal") && words.iter().any(|w| w == "informal")
}

/// Whether `text` writes its NID as `urn-` and a stand-in for the number
/// IANA is to assign: RFC 2611 and RFC 3406 informal requests posted to
/// urn-nid (the W3C's 2001 `urn-anon` and `urn-ti` requests say
/// `urn-<n>`; others `urn-n`, `urn-NNN`, `urn-?` or a bare `urn-`).
/// RFC 8141 section 5.2: "urn-" is followed by IANA's number, and no
/// formal NID starts with it (section 5.1), so such a word names no NID
/// of its own: the namespace is informal, its number to come. A word
/// with a digit after `urn-` is a number written (`urn-7`) and is read
/// by [`quoted_or_informal_nid`]; any other letters after it (`urn-X`,
/// `urn-nid@ietf.org`, the list's address) are no stand-in that says a
/// number, and stay unread, as before.
pub(super) fn informal_placeholder(text: &str) -> bool {
    // The stand-in: nothing; a bracketed word (`<n>`, `[number]`,
    // `{N}`); marks (`?`, `#`, `*`, `...`); or `n` ("number") or a run of
    // one letter (`NNN`, `xxx`).
    let stand_in = |rest: &str| {
        let b = rest.as_bytes();
        let bracketed = b.len() >= 3
            && matches!((b[0], b[b.len() - 1]), (b'<', b'>') | (b'[', b']') | (b'{', b'}'))
            && b[1..b.len() - 1]
                .iter()
                .all(|c| c.is_ascii_alphabetic() || *c == b' ');
        let marks = b.iter().all(|c| b"?#*._".contains(c));
        let run = !b.is_empty()
            && b.iter()
                .all(|c| c.eq_ignore_ascii_case(&b[0]) && c.is_ascii_alphabetic())
            && (b[0].eq_ignore_ascii_case(&b'n') || b.len() >= 2);
        b.len() <= 12 && (bracketed || marks || run)
    };
    text.split_whitespace().any(|w| {
        let w = w
            .trim_matches(&QUOTES[..])
            .trim_start_matches('(')
            .trim_end_matches(['.', ',', ';', ':', ')'])
            .trim_matches(&QUOTES[..]);
        w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("urn-")) && stand_in(&w[4..])
    })
}

/// Words a Namespace Identifier value may have beside its NID while still
/// naming it plainly (`"ietf" requested.`, `Request is made for a formal
/// assignment:` then `itu`, `The NID "example"`).
pub(super) const NID_REQUEST_WORDS: &[&str] = &[
    "a",
    "assignment",
    "by",
    "for",
    "formal",
    "from",
    "iana",
    "id",
    "identifier",
    "is",
    "made",
    "namespace",
    "nid",
    "of",
    "request",
    "requested",
    "the",
    "urn",
];

/// Words that say a NID is not given, never taken as one although they
/// have a NID's syntax (RFC 8141 section 2): "None", "TBD", the
/// "informal" of "To be assigned by IANA (informal)".
pub(super) const NOT_A_NID: &[&str] = &[
    "none",
    "informal",
    "formal",
    "tbd",
    "tba",
    "pending",
    "unassigned",
    "namespace",
    "nid",
    "n/a",
];

/// How many lines a NID is looked for in before the text after it is
/// said: a Namespace Identifier names it at once, and hostile texts stay
/// linear.
pub(super) const NID_VALUE_MAX_LINES: usize = 16;

/// How many of the lines of a Namespace Identifier's text (`lines`,
/// non-blank, trimmed) are its value: up to the line from which it reads
/// as the whole does, the line that names the NID. `None` when it reads
/// as nothing, or not within [`NID_VALUE_MAX_LINES`].
pub(super) fn nid_value_lines(lines: &[&str]) -> Option<usize> {
    let whole = read_nid(&lines.join("\n"));
    if whole == NidRead::None {
        return None;
    }
    (1..=lines.len().min(NID_VALUE_MAX_LINES)).find(|&n| read_nid(&lines[..n].join("\n")).same_as(&whole))
}

/// The first paragraph of a value as one line: a value wrapped on to a
/// second line (`... or assigned by IANA` / `(informal).`) is said whole.
pub(super) fn first_paragraph(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .take(NID_VALUE_MAX_LINES)
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn first_line(text: &str) -> &str {
    text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// Where `word` (case-insensitive, as a word of its own) is followed by
/// a value: after it, only `:` or one of `joiners` comes before the value.
pub(super) fn value_after<'t>(text: &'t str, word: &str, joiners: &[&str]) -> Option<&'t str> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find(word) {
        let at = from + found;
        from = at + word.len();
        if lower[..at].ends_with(|c: char| c.is_ascii_alphanumeric()) {
            continue;
        }
        let rest = text[from..].trim_start();
        let rest = joiners
            .iter()
            .find_map(|j| {
                rest.get(..j.len())
                    .filter(|head| head.eq_ignore_ascii_case(j))
                    .map(|_| rest[j.len()..].trim_start())
            })
            .unwrap_or(rest);
        let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(rest);
        }
    }
    None
}

/// The version number in an RFC 3406 Registration Information text:
/// `Registration version number: 1`, `Version 2`; not `version 2.1`.
pub(crate) fn number_after(text: &str, word: &str) -> Option<i64> {
    let rest = value_after(text, word, &["number", "no."])?;
    let first = rest.split_whitespace().next().unwrap_or("");
    let first = first.trim_end_matches([',', ';']);
    read_version(first).map(|(n, _)| n).filter(|n| *n >= 1)
}

/// The `YYYY-MM-DD` date in an RFC 3406 Registration Information text:
/// `Registration date: 2003-05-06`, `2003-5-6.`; or, with no word
/// `date`, the first date written `YYYY-MM-DD` in it (`Version 1 /
/// 2014-03-03`).
pub(crate) fn date_after(text: &str, word: &str) -> Option<String> {
    if let Some(rest) = value_after(text, word, &[]) {
        let first = rest.split_whitespace().next().unwrap_or("");
        let line = rest.lines().next().unwrap_or("");
        return read_date(first).or_else(|| read_date(line)).map(|(date, _)| date);
    }
    // A text that speaks of a date without giving it gives none, unless
    // it writes the date in words (`Registration date: April 22, 1999`,
    // `22 April 1999`): read as the Date field's are, the rest of the
    // line after the word and its colon.
    if text.to_ascii_lowercase().contains(word) {
        let line = line_with(text, word)?;
        let lower = line.to_ascii_lowercase();
        let at = lower
            .match_indices(word)
            .find(|(at, _)| !lower[..*at].ends_with(|c: char| c.is_ascii_alphanumeric()))?
            .0;
        let rest = line[at + word.len()..].trim_start();
        let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
        return read_date(rest).map(|(date, _)| date);
    }
    text.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '/' | ',' | ';'))
        .map(|w| w.trim_end_matches('.'))
        .find(|w| crate::clock::is_valid_date(w))
        .map(str::to_string)
}

/// A date as templates write it, as `YYYY-MM-DD` (RFC 8141 Appendix A),
/// and whether it was written so: `2023-05-01` (as written), `2023-05-01.`,
/// `2020-04-2`, `2020/04/02`, `February 11, 2002`, `11 Feb 2002`. Only a
/// day of the calendar.
pub(crate) fn read_date(text: &str) -> Option<(String, bool)> {
    let text = text.trim();
    if crate::clock::is_valid_date(text) {
        return Some((text.to_string(), true));
    }
    // A comment after the date and a `;` or `,` (`2019-04-01; first
    // requested on 2019-03-01`): the date before it, written as RFC 8141
    // Appendix A asks.
    if let Some((date, _)) = text.split_once([';', ','])
        && crate::clock::is_valid_date(date.trim())
    {
        return Some((date.trim().to_string(), false));
    }
    // A comment in parentheses after the date (`2018-06-10 (revised)`), as
    // a Version may have one: the date before it.
    if let Some((date, comment)) = text.split_once('(')
        && comment.trim_end().ends_with(')')
        && !date.trim().is_empty()
    {
        return read_date(date).map(|(date, _)| (date, false));
    }
    // Words, and digits apart from letters (`5Feb2001` is `5 Feb 2001`).
    let mut words: Vec<&str> = text
        .trim_end_matches(['.', ',', ';'])
        .split(|c: char| c.is_whitespace() || matches!(c, '-' | '/' | '.' | ','))
        .filter(|w| !w.is_empty())
        .flat_map(digits_apart_from_letters)
        .collect();
    // A day written as an ordinal, as English prose and mails write dates
    // (`September 8th, 2001`, `the 1st of October 2003`, `22nd May
    // 2002`): the day's number, without its suffix and the `the`/`of`
    // around it.
    let ordinal = |w: &str| ["st", "nd", "rd", "th"].iter().any(|s| s.eq_ignore_ascii_case(w));
    // Only a text with an ordinal day: "the date of 2001-02-03" speaks of
    // a date without giving it as one.
    let mut kept = Vec::with_capacity(words.len());
    let mut ordinals = 0;
    for (i, w) in words.iter().enumerate() {
        let after_day = i > 0 && words[i - 1].len() <= 2 && words[i - 1].bytes().all(|b| b.is_ascii_digit());
        let filler = ["the", "of"].iter().any(|s| s.eq_ignore_ascii_case(w));
        if ordinal(w) && after_day {
            ordinals += 1;
        } else if !filler {
            kept.push(*w);
        }
    }
    if ordinals == 1 && kept.len() == 3 {
        words = kept;
    }
    let number = |w: &str| crate::clock::decimal(w).filter(|_| w.len() <= 4);
    // A month's name or its start (`Feb`), in any letter case.
    let month = |w: &str| {
        (w.len() >= 3)
            .then(|| {
                crate::clock::MONTHS
                    .iter()
                    .position(|m| m.get(..w.len()).is_some_and(|head| head.eq_ignore_ascii_case(w)))
            })
            .flatten()
            .map(|m| m as u32 + 1)
    };
    let (year, month, day) = match words[..] {
        // (A four-letter month, `June 10, 2018`, is no year.)
        [y, m, d] if y.len() == 4 && number(y).is_some() => {
            (number(y)?, number(m).or_else(|| month(m))?, number(d)?)
        }
        // `February 11, 2002`, `11 February 2002`.
        [m, d, y] if month(m).is_some() => (number(y)?, month(m)?, number(d)?),
        [d, m, y] if month(m).is_some() => (number(y)?, month(m)?, number(d)?),
        _ => return None,
    };
    let date = format!("{year:04}-{month:02}-{day:02}");
    crate::clock::is_valid_date(&date).then_some((date, false))
}

/// `word` cut where digits meet letters: `5Feb2001` gives `5`, `Feb`,
/// `2001`.
pub(super) fn digits_apart_from_letters(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let bytes = word.as_bytes();
    for i in 1..bytes.len() {
        if bytes[i].is_ascii_digit() != bytes[i - 1].is_ascii_digit() && word.is_char_boundary(i) {
            parts.push(&word[start..i]);
            start = i;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// How a Namespace Identifier says IANA is to assign the NID (RFC 8141
/// section 5.2), lower case; longer phrases first.
pub(super) const ASSIGNMENT_PHRASES: &[&str] = &[
    "to be assigned by iana",
    "will be assigned by iana",
    "assigned by iana",
    "iana will assign",
    "to be assigned",
    "not yet assigned",
    "to be determined",
    "to be announced",
    "informal namespace",
    "informal",
    "tbd",
    "tba",
];

/// `text` with every [`ASSIGNMENT_PHRASES`] blanked out, if it has one.
pub(super) fn without_assignment_phrases(text: &str) -> Option<String> {
    // A phrase wrapped over two lines (`... or assigned by` / `IANA
    // (informal).`, RFC 8141 Appendix A's wording) is one: line breaks
    // and tabs looked at as spaces (each one byte, as the space is).
    let mut lower: String = text
        .to_ascii_lowercase()
        .chars()
        .map(|c| if matches!(c, '\n' | '\r' | '\t') { ' ' } else { c })
        .collect();
    let mut blanked = vec![false; lower.len()];
    let mut found = false;
    for phrase in ASSIGNMENT_PHRASES {
        // On from the last match: a text of many phrases is read once.
        let mut from = 0;
        while let Some(at) = lower[from..].find(phrase).map(|at| from + at) {
            from = at + phrase.len();
            // A phrase of whole words: "tbd" is no part of a NID "xtbd".
            let word_byte = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-');
            if word_byte(lower.as_bytes().get(from)) || (at > 0 && word_byte(lower.as_bytes().get(at - 1))) {
                continue;
            }
            found = true;
            lower.replace_range(at..from, &" ".repeat(phrase.len()));
            blanked[at..from].fill(true);
        }
    }
    // The same bytes of the original text, so that a NID keeps its case.
    found.then(|| {
        text.char_indices()
            .map(|(i, c)| if blanked[i] { ' ' } else { c })
            .collect()
    })
}

/// The NID beside an assignment phrase ("To be assigned:" then `acme` on a
/// line of its own; "(assigned by IANA) urn-5"): only a quoted word, an
/// informal `urn-N` or a line that is one word, never the first word of a
/// sentence (the rest of "Assigned by IANA (informal namespace)").
pub(super) fn nid_named_beside_assignment(text: &str) -> Option<String> {
    let is_nid = is_nid_word;
    if let Some(found) = quoted_or_informal_nid(text) {
        return Some(found);
    }
    // A line of one word, once the brackets and punctuation left around
    // a phrase are gone (`acme (to be assigned)`).
    text.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace().map(clean_word).filter(|w| !w.is_empty());
            let word = words.next()?;
            words.next().is_none().then_some(word)
        })
        .find(|w| is_nid(w))
        .map(str::to_string)
}

/// The NID `text` names most plainly: a quoted word that is one (`The
/// NID "example"`), else an informal `urn-N` anywhere (RFC 8141 section
/// 5.2: "urn-" and a number).
pub(super) fn quoted_or_informal_nid(text: &str) -> Option<String> {
    let is_nid = is_nid_word;
    let quoted = |w: &&str| w.starts_with(['"', '\'', '\u{201c}', '\u{2018}']);
    let words = || text.split_whitespace();
    words()
        .filter(quoted)
        .map(clean_word)
        .find(|w| is_nid(w))
        .or_else(|| {
            words().map(clean_word).find(|w| {
                w.len() > 4 && w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("urn-")) && is_nid(w)
            })
        })
        .map(str::to_string)
}

/// Whether `w` can be a NID (RFC 8141 section 2) a text names: not one
/// of [`NOT_A_NID`].
pub(super) fn is_nid_word(w: &str) -> bool {
    crate::urn::check_nid(w).is_ok() && !NOT_A_NID.iter().any(|n| n.eq_ignore_ascii_case(w))
}

pub(super) const QUOTES: [char; 7] = ['"', '\'', '`', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}'];

/// A word without the quotes, Markdown emphasis (`**gizmo**`, `_gizmo_`:
/// no NID holds `*` or `_`) and punctuation around it.
pub(super) fn clean_word(w: &str) -> &str {
    let w = w
        .trim_matches(['*', '_'])
        .trim_matches(&QUOTES[..])
        .trim_end_matches(['.', ',', ';', ':', ')'])
        .trim_start_matches('(')
        .trim_matches(&QUOTES[..])
        .trim_matches(['*', '_']);
    // The NID written with the scheme before it (`urn:ogc`, `URN:ISSN`).
    match w.get(..4) {
        Some(scheme) if scheme.eq_ignore_ascii_case("urn:") && !w[4..].contains(':') => &w[4..],
        _ => w,
    }
}

/// The NID a Namespace Identifier text names. In order: a quoted word
/// (`The NID "example"`), an informal `urn-N` anywhere, a line that is
/// one word (a value written below its heading, after other text), the
/// first word of the first line that does not introduce the next
/// (`ISBN Requested of IANA.`); each only if it has the syntax of a NID
/// (RFC 8141 section 2).
pub(super) fn nid_in(text: &str) -> Option<String> {
    let is_nid = is_nid_word;
    if let Some(found) = quoted_or_informal_nid(text) {
        return Some(found);
    }
    let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    if let Some(found) = lines()
        .filter(|l| l.split_whitespace().count() == 1)
        .map(clean_word)
        .find(|w| is_nid(w))
    {
        return Some(found.to_string());
    }
    // The first line that does not introduce the next ("Request is made
    // for a formal assignment:").
    // Its first word after those that only say a NID is asked for
    // (`Requested: PIN`, `NID: clei`).
    let line = lines().find(|l| !l.ends_with(':'))?;
    line.split_whitespace()
        .map(clean_word)
        .find(|w| !NID_REQUEST_WORDS.iter().any(|r| r.eq_ignore_ascii_case(w)))
        .filter(|w| is_nid(w))
        .map(str::to_string)
}

// ---------------------------------------------------------------------
// Decoding
