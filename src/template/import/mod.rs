//! Reads a filled-in registration template out of free text.
//!
//! Real registration texts are irregular: RFC 8141 Appendix A headings
//! (`Namespace Identifier:`), RFC 3406 ones (`Declaration of syntactic
//! structure:`), numbered RFC sections (`3.4.  Declaration of ...`),
//! underlined headings, values on the heading line or below it, CRLF line
//! ends, a byte-order mark; older texts add misspelled headings
//! (`Namespace Indentifier:`), headings named after the namespace
//! (`ISBN assignment:`) and text in Windows-1252 or Latin-1 instead of
//! UTF-8. The reader decodes the bytes, finds the heading lines, keeps the
//! ones at the outermost indentation (deeper ones are part of a value),
//! and gives each field the text up to the next heading, de-indented.
//!
//! Nothing is silently guessed or dropped: how the bytes were decoded,
//! every heading read as another, and whatever could not be placed in a
//! field are returned as [`Note`]s.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

use super::RULES_HEADING;
use super::{FIELDS, TemplateFields};
use crate::registry::{Kind, RegistrationFile};

mod decode;
mod extent;
mod headings;
mod layout;
mod mail;
mod pages;
mod values;

use extent::*;
use headings::*;
use layout::*;
use mail::*;
use pages::*;
use values::*;

// What the rest of `template` reads with the import's own readers.
pub(crate) use decode::decode;
pub(super) use extent::{closes, fence_run, fields_named};
pub(super) use headings::titles_a_field;
pub(super) use mail::mail_header_block;
pub use values::version_and_date;
#[cfg(feature = "templates")]
pub(crate) use values::{date_after, number_after};

/// The largest text [`import_bytes`] reads. The longest real registration
/// text (`pwid`, from IANA) is 32 KB; four megabytes leave room for any
/// template while keeping a stray binary file from filling memory.
pub const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;

/// The most lines [`import_text`] reads: four megabytes of real lines are
/// some 70,000 (RFC-formatted, about 60 bytes each), while each line read
/// takes about a hundred bytes of working memory, so a text of a few
/// million empty lines would take hundreds of megabytes. A text of more
/// lines is not read, and a note says why.
pub const MAX_TEXT_LINES: usize = 200_000;

/// What kind of thing a [`Note`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoteKind {
    /// The bytes were not UTF-8 and were decoded another way.
    Decoded,
    /// A heading or a value was read as something it does not literally say.
    Guessed,
    /// Text that no field received.
    Unplaced,
    /// The text's template was not read: (almost) none of the fields
    /// whose headings it has were placed. `template import` refuses it.
    Misread,
}

impl NoteKind {
    /// `decoded`, `guessed`, `not placed` or `not read`.
    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::Decoded => "decoded",
            NoteKind::Guessed => "guessed",
            NoteKind::Unplaced => "not placed",
            NoteKind::Misread => "not read",
        }
    }
}

/// Something the importer wants a person to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// What kind of note.
    pub kind: NoteKind,
    /// The 1-based line of the text it is about, if one.
    pub line: Option<usize>,
    /// For people; the wording may change.
    pub message: String,
}

impl Note {
    fn new(kind: NoteKind, line: Option<usize>, message: impl Into<String>) -> Note {
        Note {
            kind,
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A text the importer refuses to read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportError {
    /// Longer than [`MAX_TEXT_BYTES`].
    TooLarge {
        /// Its size in bytes (at least; a reader may stop early).
        size: usize,
    },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge { size } => write!(
                f,
                "the text is {size} bytes or more; a registration template is read up to {MAX_TEXT_BYTES} bytes"
            ),
        }
    }
}

impl std::error::Error for ImportError {}

/// What the importer made of a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// The fields found.
    pub fields: TemplateFields,
    /// How the text was decoded, what was guessed and what could not be
    /// placed, in the order of the text.
    pub notes: Vec<Note>,
}

/// Reads template fields out of `bytes`: UTF-8 (with or without a
/// byte-order mark), UTF-16 with a byte-order mark, or else Windows-1252
/// (a superset of Latin-1's printable range), with a note saying so.
///
/// # Errors
///
/// [`ImportError::TooLarge`] beyond [`MAX_TEXT_BYTES`].
pub fn import_bytes(bytes: &[u8]) -> Result<ImportReport, ImportError> {
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(ImportError::TooLarge { size: bytes.len() });
    }
    let (text, note) = decode(bytes);
    let mut report = import_text(&text);
    if let Some(note) = note {
        report.notes.insert(0, note);
    }
    Ok(report)
}

/// Whether `text`, which is no registration file, reads as a filled-in
/// template text (two fields or more): what `template import` is for.
/// Commands that take a registration file say so instead of a bare TOML
/// error. A text TOML reads (a registration file with a value of the
/// wrong type, `version = "1"`, whose RFC 3406 blocks look like a
/// template) is none.
pub fn is_template_text(text: &str) -> bool {
    text.len() <= MAX_TEXT_BYTES
        && text.parse::<toml::Table>().is_err()
        && import_text(text).fields.present().nth(1).is_some()
}

/// `text` is TOML with a key of a registration file (`kind`, `nid`, a
/// field's): no template text, whose headings TOML does not read.
fn is_registration_toml(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.parse::<toml::Table>().is_ok_and(|table| {
        table.keys().any(|k| {
            matches!(
                k.as_str(),
                "kind" | "nid" | "version" | "date" | "rfc3406" | "rules"
            ) || FIELDS.iter().any(|f| f.0 == k)
        })
    })
}

/// [`import_registration`] for bytes in any encoding [`import_bytes`] reads.
///
/// # Errors
///
/// [`ImportError::TooLarge`] beyond [`MAX_TEXT_BYTES`].
pub fn import_registration_bytes(bytes: &[u8]) -> Result<(RegistrationFile, Vec<Note>), ImportError> {
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(ImportError::TooLarge { size: bytes.len() });
    }
    let (text, note) = decode(bytes);
    let (file, mut notes) = import_registration(&text);
    if let Some(note) = note {
        notes.insert(0, note);
    }
    Ok((file, notes))
}

/// Reads a registration file out of a filled-in template text: the
/// fields of [`import_text`], with the NID, version and date taken out of
/// their text (an RFC 3406 text gives its version and date in
/// Registration Information). What could not be placed or was guessed is
/// returned for people to read.
pub fn import_registration(text: &str) -> (RegistrationFile, Vec<Note>) {
    let report = import_text(text);
    let mut notes = report.notes;
    // A registration file given in place of a template text (the output
    // of an earlier import): its TOML is no template, and reading its
    // text values as one would make a registration of its quotes.
    if is_registration_toml(text) {
        // What was said of its text as a template is beside the point.
        notes.clear();
        notes.push(Note::new(
            NoteKind::Misread,
            None,
            "the text is a registration file (TOML), not a template text: lint it or file it as it \
             is, or render it as a template with `urnreg template render`",
        ));
    }
    let fields = &report.fields;
    let mut informal = false;
    let nid = fields.namespace_identifier.as_deref().and_then(|t| {
        let read = read_nid(t);
        match &read {
            NidRead::Informal => {
                informal = true;
                notes.push(Note::new(
                    NoteKind::Guessed,
                    None,
                    format!(
                        "Namespace Identifier '{}' read as an informal namespace: IANA assigns \
                         its NID (RFC 8141 section 5.2){}",
                        first_paragraph(t),
                        // RFC 8141 Appendix A's description of the field,
                        // copied unfilled, names both.
                        if names_both_kinds(t) {
                            "; the text names a formal namespace too: check it"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            NidRead::None => notes.push(Note::new(
                NoteKind::Unplaced,
                None,
                format!(
                    "Namespace Identifier: no NID found in '{}' (RFC 8141 section 2: letters, digits \
                     and hyphens, 2 to 32, starting and ending with a letter or digit)",
                    first_line(t)
                ),
            )),
            NidRead::Guessed(nid) => notes.push(Note::new(
                NoteKind::Guessed,
                None,
                format!(
                    "Namespace Identifier '{}' is no single NID (RFC 8141 section 2): '{nid}' taken \
                     from it; check it",
                    first_paragraph(t)
                ),
            )),
            // The NID out of a value that says more (`"ietf" requested.`,
            // RFC 2611's form): said, since only the NID is kept.
            NidRead::Nid(nid) if clean_word(t.trim()) != nid => notes.push(Note::new(
                NoteKind::Guessed,
                None,
                format!(
                    "Namespace Identifier '{}' read as the NID '{nid}'; only the NID is kept",
                    preview(t)
                ),
            )),
            NidRead::Nid(_) => {}
        }
        match read {
            NidRead::Nid(nid) | NidRead::Guessed(nid) => Some(nid),
            _ => None,
        }
    });
    // An IETF sub-namespace's template (RFC 3553 section 4's, for
    // `urn:ietf:params:<name>`; the WHIP and WHEP drafts') has RFC 3406's
    // headings, but what it registers lives under the NID `ietf`.
    if let Some(named) = ietf_sub_namespace(text, fields, nid.as_deref()) {
        let rfc = if named.to_ascii_lowercase().starts_with("urn:ietf:params:") {
            "RFC 3553 section 4"
        } else {
            "RFC 2648"
        };
        let request = match &nid {
            Some(nid) => {
                format!("'{nid}' is no NID, and a formal request for it would ask for a new NID '{nid}'")
            }
            None if informal => "an informal request would ask IANA for a new NID".to_string(),
            None => "a request for it would ask for a new NID".to_string(),
        };
        notes.push(Note::new(
            NoteKind::Guessed,
            None,
            format!(
                "the text registers {named}, a sub-namespace of the NID 'ietf' ({rfc}), not a namespace \
                 of its own: {request}"
            ),
        ));
    }
    // No Namespace Identifier heading at all (a partial update, RFC 7354's
    // "All other fields ... remain as specified"; a quoted extract): the
    // one thing a registration is not filed without, said.
    // (A text refused as no template is not told to add one.)
    if fields.namespace_identifier.is_none()
        && fields.present().next().is_some()
        && !notes.iter().any(|n| n.kind == NoteKind::Misread)
    {
        notes.push(Note::new(
            NoteKind::Unplaced,
            None,
            "no Namespace Identifier (Namespace ID) field: the registration has no NID and no kind; \
             add them",
        ));
    }
    let (version, date, read) = version_and_date(fields);
    notes.extend(read);
    // A Namespace Identifier written but not readable as a NID still asks
    // for a formal namespace (an informal one is said so): its text is
    // kept where the registrant and the expert see it.
    let unreadable = fields
        .namespace_identifier
        .as_deref()
        .map(str::trim)
        .filter(|t| nid.is_none() && !informal && !t.is_empty())
        // Unless it says no NID is given ("None") or writes a malformed
        // informal one (`urn-X`, RFC 8141 section 5.2).
        .filter(|t| {
            let first = clean_word(t.split_whitespace().next().unwrap_or(""));
            !NOT_A_NID.iter().any(|n| n.eq_ignore_ascii_case(first))
                && !first.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("urn-"))
        });
    let kind = match nid.as_deref() {
        Some(n) if n.len() > 4 && n.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("urn-")) => {
            Some(Kind::Informal)
        }
        Some(_) => Some(Kind::Formal),
        None if informal => Some(Kind::Informal),
        None if unreadable.is_some() => Some(Kind::Formal),
        None => None,
    };
    let kept;
    let fields = match unreadable {
        Some(written) => {
            let mut with = fields.clone();
            let line = format!("Namespace Identifier (as written, no NID): {written}");
            with.additional_information = Some(match with.additional_information.take() {
                Some(info) if !info.trim().is_empty() => format!("{line}\n\n{info}"),
                _ => line,
            });
            kept = with;
            &kept
        }
        None => fields,
    };
    let file = RegistrationFile::from_fields(kind, nid, version, date, fields);
    (file, notes)
}

/// The IETF sub-namespace (`urn:ietf:params:whep`, `urn:ietf:mls`) a
/// registration text speaks of as its own: with a NID read
/// (not `ietf`), one named after that NID anywhere in the text; without,
/// one in its fields or on a line that speaks of a registration or a
/// namespace (the template's title, `## urn:ietf:mls:... URN
/// registration`). Each line is looked at once.
fn ietf_sub_namespace(text: &str, fields: &TemplateFields, nid: Option<&str>) -> Option<String> {
    if nid.is_some_and(|n| n.eq_ignore_ascii_case("ietf")) {
        return None;
    }
    const PREFIX: &str = "urn:ietf:";
    // The first `urn:ietf:<name>` (or `urn:ietf:params:<name>`) in `line`
    // whose name fits, as written.
    let named = |line: &str| -> Option<String> {
        let lower = line.to_ascii_lowercase();
        lower.match_indices(PREFIX).find_map(|(at, _)| {
            let mut from = at + PREFIX.len();
            if lower[from..].starts_with("params:") {
                from += "params:".len();
            }
            let len = lower[from..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                .count();
            let name = lower[from..from + len].trim_end_matches('.');
            let fits = !name.is_empty() && nid.is_none_or(|n| name.eq_ignore_ascii_case(n));
            fits.then(|| line[at..from + name.len()].to_string())
        })
    };
    let in_fields = fields.present().find_map(|(_, _, v)| v.lines().find_map(named));
    in_fields.or_else(|| {
        text.lines()
            .filter(|line| {
                nid.is_some() || {
                    let lower = line.to_ascii_lowercase();
                    lower.contains("regist") || lower.contains("namespace")
                }
            })
            .find_map(named)
    })
}

/// Reads template fields out of `text`.
pub fn import_text(text: &str) -> ImportReport {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Characters no one sees (a DOS end-of-file mark, NUL padding,
    // zero-width spaces) and line separators other than LF and CR, before
    // and after the markup is read (HTML writes them as `&#8203;`).
    let mut unseen = Unseen::default();
    let text = unseen.clean(text);
    // HTML, a quoted-printable mail, a Markdown definition list: read as
    // the plain text they show.
    let plain = super::plain::plain_text(&text);
    let unwrapped = plain.said;
    let text = unseen.clean(&plain.text);
    let text: &str = &text;
    // The lines the tables were read into, while lines stay where they
    // were (a line separator made a line end moves them).
    let mut tables = plain.tables;
    if text.len() != plain.text.len() && text.split('\n').count() != plain.text.split('\n').count() {
        tables.clear();
    }
    let terms: HashSet<&str> = plain.terms.iter().map(String::as_str).collect();
    // Line ends: LF, CRLF, CRs doubled by a second conversion (CR CR LF),
    // or, in a text with no LF at all, CR alone (old Mac files).
    let split_at = if text.contains('\n') { '\n' } else { '\r' };
    if split_at == '\r' {
        tables.clear();
    }
    let mut report = ImportReport::default();
    let count = text.split(split_at).count();
    if count > MAX_TEXT_LINES {
        report.notes.push(Note::new(
            NoteKind::Misread,
            None,
            format!(
                "the text has {count} lines; a registration template is read up to {MAX_TEXT_LINES} \
                 lines (MAX_TEXT_LINES)"
            ),
        ));
        return report;
    }
    let mut lines: Vec<&str> = text.split(split_at).map(|l| l.trim_end_matches('\r')).collect();
    for how in unwrapped {
        report.notes.push(Note::new(NoteKind::Decoded, None, how));
    }
    if let Some(said) = unseen.said() {
        report.notes.push(Note::new(NoteKind::Decoded, None, said));
    }
    if let Some(gaps) = undouble_spacing(&mut lines) {
        tables.clear();
        report.notes.push(Note::new(
            NoteKind::Decoded,
            None,
            format!(
                "the text is double-spaced (a blank line after every line, as some copies and \
                 line-end conversions leave it): {gaps} single blank line(s) dropped, a run of \
                 three read as one; line numbers below are the single-spaced text's"
            ),
        ));
    }
    // A quoted registration's quote marks come off first: a tab after
    // `> ` reached its stop in the sender's text, not in the reply.
    unquote_reply(&mut lines, &mut report.notes);
    // Margins are measured in columns of spaces: tabs and no-break spaces
    // in a line's indentation are made spaces first.
    let (spaced, nbsp_lines) = spaced_layout(&lines);
    let spaced: Vec<Cow<'_, str>> = spaced
        .into_iter()
        .map(|l| match ascii_heading_fullwidth_colon(&l) {
            Some(fixed) => Cow::Owned(fixed),
            None => l,
        })
        .collect();
    let fullwidth: Vec<usize> = (0..lines.len())
        .filter(|&i| spaced[i].matches('\u{FF1A}').count() < lines[i].matches('\u{FF1A}').count())
        .collect();
    if let Some(&first) = fullwidth.first() {
        report.notes.push(Note::new(
            NoteKind::Decoded,
            Some(first + 1),
            format!(
                "{} heading(s) ended by a full-width colon (U+FF1A, as a CJK input method types \
                 it): read as ':'",
                fullwidth.len()
            ),
        ));
    }
    let mut lines: Vec<&str> = spaced.iter().map(|l| l.as_ref()).collect();
    if let Some(&first) = nbsp_lines.first() {
        report.notes.push(Note::new(
            NoteKind::Decoded,
            Some(first + 1),
            format!(
                "{} line(s) laid out with no-break spaces (U+00A0, as pasted from a web page): \
                 read as spaces",
                nbsp_lines.len()
            ),
        ));
    }
    drop_page_breaks(&mut lines);
    // Soft hyphens, after the page breaks: a word broken at a page's last
    // line goes on after the break.
    let (unhyphenated, soft) = soft_hyphens(&lines);
    let mut lines: Vec<&str> = unhyphenated.iter().map(|l| l.as_ref()).collect();
    if let Some(soft) = soft {
        let mut done = Vec::new();
        if soft.dropped > 0 {
            done.push(format!("{} dropped", soft.dropped));
        }
        if soft.joined > 0 {
            done.push(format!(
                "{} ending a line: the word broken there joined with the next line's start",
                soft.joined
            ));
        }
        report.notes.push(Note::new(
            NoteKind::Decoded,
            Some(soft.first + 1),
            format!(
                "soft hyphens (U+00AD, as a word processor or a PDF copy leaves them): {}",
                done.join("; ")
            ),
        ));
    }
    // A registration sent by mail: the header block is the mail's (its
    // Date is when the mail was sent), never the template's.
    if let Some(block) = mail_header_block(&lines) {
        let shown = dedent(&lines[block.clone()]);
        report.notes.push(Note::new(
            NoteKind::Unplaced,
            Some(block.start + 1),
            format!(
                "lines {}-{}: a mail header block (RFC 5322 section 2.2), skipped: {}",
                block.start + 1,
                block.end,
                preview(&shown)
            ),
        ));
        for line in &mut lines[block] {
            *line = "";
        }
    }
    // A Markdown source's YAML front matter (kramdown-rfc, mmark): the
    // document's title, authors and date, never the template's.
    if let Some(block) = front_matter(&lines) {
        report.notes.push(Note::new(
            NoteKind::Unplaced,
            Some(block.start + 1),
            format!(
                "lines {}-{}: the document's YAML front matter, skipped: {}",
                block.start + 1,
                block.end,
                preview(&dedent(&lines[block.start + 1..block.end - 1]))
            ),
        ));
        for line in &mut lines[block] {
            *line = "";
        }
    }
    // kramdown-rfc's section markers (`--- abstract`, `--- middle`,
    // `--- back`, at the margin) part the document's parts, with or
    // without front matter above (an excerpt of a source): no text of a
    // field.
    for line in lines.iter_mut() {
        if line.strip_prefix("--- ").is_some_and(|part| {
            matches!(part.trim_end(), "abstract" | "middle" | "back") || part.starts_with("note_")
        }) {
            *line = "";
        }
    }
    let (mut headings, mut set_aside) = field_headings(&lines, None);
    // Headings named after the namespace need its name: read it from the
    // first pass, then look again.
    let nid = headings
        .iter()
        .position(|h| h.key == "namespace_identifier")
        .and_then(|n| {
            let h = &headings[n];
            let end = headings.get(n + 1).map_or(lines.len(), |next| next.line);
            let body = dedent(&lines[(h.line + 1).min(end)..end]);
            nid_in(&format!("{}\n{body}", h.rest))
        });
    if nid.is_some() {
        (headings, set_aside) = field_headings(&lines, nid.as_deref());
    }
    // A forwarded or quoted mail's header block in the text (its `Date:`
    // is when that mail was sent): no heading of the template.
    let forwarded = inner_header_blocks(&lines);
    headings.retain(|h| !forwarded.iter().any(|block| block.contains(&h.line)));
    // A `Date:` or `Version:` line with no other field heading (a list
    // archive's `- Date:` item of a message, a document's revision line)
    // is no template: a registration says what it registers.
    if headings.iter().all(|h| matches!(h.key, "" | "version" | "date")) {
        if !text.trim().is_empty() {
            report.notes.push(Note::new(
                NoteKind::Unplaced,
                None,
                "no template field headings found",
            ));
        }
        return report;
    }
    for n in misspelled_repeats(&headings).into_iter().rev() {
        let h = headings.remove(n);
        report.notes.push(Note::new(
            NoteKind::Guessed,
            Some(h.line + 1),
            format!(
                "'{}' is spelled like the heading '{}', which the text has above: kept as text of \
                 the field it is in",
                h.written,
                heading_of(h.key)
            ),
        ));
    }
    // The run of headings that names the most fields is the template;
    // headings before it are the text's prose.
    let passed: Vec<Heading> = headings.drain(..best_run(&lines, &headings, &tables)).collect();
    let first = &headings[0];
    let template_start = first.line;
    let margin = template_margin(&headings);
    let before = dedent(&lines[..first.line]);
    if !before.is_empty() {
        let named: Vec<String> = passed
            .iter()
            .filter(|h| !h.key.is_empty())
            .take(6)
            .map(|h| format!("'{}' at line {}", h.written, h.line + 1))
            .collect();
        let passed_note = if named.is_empty() {
            String::new()
        } else {
            format!(
                "; its headings ({}{}) are the text's, not the template's: the template is the run of \
                 headings below, which names more fields",
                named.join(", "),
                if passed.iter().filter(|h| !h.key.is_empty()).count() > named.len() {
                    ", ..."
                } else {
                    ""
                }
            )
        };
        report.notes.push(Note::new(
            NoteKind::Unplaced,
            Some(1),
            format!(
                "lines 1-{} before the first field: {}{passed_note}",
                first.line,
                preview(&before)
            ),
        ));
    }
    set_aside.extend(passed);
    // What follows the template (the RFC's next sections, a signature, a
    // second template) is no part of its last field.
    let mut after_note = None;
    let end = match template_end(&lines, &headings, &tables) {
        Some((end, what)) => {
            let after = dedent(&lines[end..]);
            let last = lines
                .iter()
                .rposition(|l| !l.trim().is_empty() && *l != PAGE_BREAK)
                .map_or(end + 1, |l| l + 1);
            let more: Vec<String> = headings
                .iter()
                .filter(|h| h.line > end && !h.key.is_empty())
                // The RFC's own Security Considerations, read below.
                .filter(|h| !security_title(&lines, h.line, margin))
                // A Markdown heading after a template whose fields are no
                // Markdown headings (or the other way round) is the
                // document's own section (kramdown-rfc's RFC 4122bis:
                // `### Version` about the UUID's version bits), no
                // second template's field.
                .filter(|h| {
                    markdown_heading(&lines, h.line, 3).is_some()
                        == markdown_heading(&lines, template_start, 3).is_some()
                })
                .map(|h| format!("'{}' at line {}", h.written, h.line + 1))
                .collect();
            let mut message = format!(
                "lines {}-{last} after the template, from {what}: {}",
                end + 1,
                preview(&after)
            );
            if !more.is_empty() {
                message.push_str(&format!(
                    "; it has template headings ({}): only the first template is read, import the \
                     other from a file of its own",
                    more.join(", ")
                ));
            }
            after_note = Some(Note::new(NoteKind::Unplaced, Some(end + 1), message));
            let (inside, after): (Vec<Heading>, Vec<Heading>) =
                headings.into_iter().partition(|h| h.line < end);
            headings = inside;
            set_aside.extend(after);
            end
        }
        None => lines.len(),
    };
    for h in interrupting_titles(&lines, &headings, end, nid.as_deref()) {
        let at = headings.partition_point(|other| other.line < h.line);
        headings.insert(at, h);
    }
    // One field's heading, and no Namespace Identifier, after a
    // document's worth of prose ([`PROSE_LINES`]), or one that is every
    // RFC's section title, is no template: a document about URNs names a
    // field in its prose (RFC 2141bis's requirements list, `o
    // Resolution: URNs will not impede resolution.`; a URL draft's
    // `Security considerations`). A text that is that one field, with a
    // title or a section after it, is read as it.
    let named: HashSet<&str> = headings
        .iter()
        .map(|h| h.key)
        .filter(|k| !matches!(*k, "" | "version" | "date"))
        .collect();
    let lone = headings
        .iter()
        .find(|h| !matches!(h.key, "" | "version" | "date"));
    let in_prose = lines[..template_start]
        .iter()
        .filter(|l| !blank_or_break(l))
        .count()
        >= PROSE_LINES
        || lone.is_some_and(|h| !h.colon && RFC_SECTION_TITLES.contains(&normalize(&h.written).as_str()));
    let lone_field = (in_prose && named.len() <= 1 && !named.contains("namespace_identifier")).then(|| {
        let h = lone;
        Note::new(
            NoteKind::Misread,
            h.map(|h| h.line + 1),
            format!(
                "the text holds no registration template: {} and no Namespace Identifier; a field \
                 named in a document's prose is no registration",
                h.map_or("no field heading".to_string(), |h| format!(
                    "one field heading ('{}' at line {})",
                    h.written,
                    h.line + 1
                ))
            ),
        )
    });
    // A field written as a Markdown heading with its text in a code fence
    // (urnreg's Markdown rendering, `templates/markdown.md`): the fence's
    // lines are its text verbatim, and a heading-like line inside it
    // (`Community considerations:`, kept in Additional Information) is
    // that text, not the next field.
    let fences = Fences::of(&lines, 0);
    let mut fenced_below_heading = false;
    headings.retain(|h| {
        let inside = fences.inside(h.line);
        if inside && fenced_below_heading {
            return false;
        }
        fenced_below_heading = !inside && markdown_heading(&lines, h.line, 3).is_some();
        true
    });
    let inside = rfc3406_headings_inside_fields(&mut headings);
    // RFC 3406 section 4 (and RFC 2611 section 3): "Registration
    // Information" holds the registration's version number and date.
    // `Version:` and `Date:` lines right under it (RFC 3187's, RFC 3188's,
    // urn-6's, at the headings' indentation) are its lines, not RFC 8141
    // Appendix A's Version and Date fields: the block stays whole, and the
    // version and date are read from it.
    if let Some(at) = headings.iter().position(|h| h.key == "registration_information") {
        while headings
            .get(at + 1)
            .is_some_and(|h| matches!(h.key, "version" | "date"))
        {
            headings.remove(at + 1);
        }
    }
    // Text found after one-line values, for Additional Information.
    let mut extra: Vec<String> = Vec::new();
    for (n, h) in headings.iter().enumerate() {
        let body_start = h.line + 1 + usize::from(h.underlined);
        // A Markdown heading in the field's text at the field's own level
        // or above (a misnamed field), outside code fences.
        let field_level = markdown_heading(&lines, h.line, usize::MAX);
        let misnamed = |at: usize| {
            !fences.inside(at)
                && field_level
                    .is_some_and(|field| markdown_heading(&lines, at, 3).is_some_and(|l| l <= field))
        };
        // A definition list's term (`Examples:` / `: <br/>...`, mmark's
        // and kramdown's `Term` / `: value`) is a heading as written, not
        // a field's own line of text: one that names no field is said.
        let unnamed_term = |at: usize| {
            let line = lines[at];
            line.len() - line.trim_start().len() <= h.indent
                && terms.contains(line.trim())
                && find_heading(&lines, at, nid.as_deref()).is_none()
        };
        let body_end = headings.get(n + 1).map_or(end, |next| next.line);
        let body = &lines[body_start.min(body_end)..body_end];
        let mut value = unfenced(dedent_under(body, h.indent));
        if !h.rest.is_empty() {
            // A blank line after a value's first line, written on the
            // heading line, parts its paragraphs as it does below it.
            let gap = body
                .iter()
                .find(|l| **l != PAGE_BREAK)
                .is_some_and(|l| l.trim().is_empty());
            value = if value.is_empty() {
                h.rest.clone()
            } else if gap {
                format!("{}\n\n{value}", h.rest)
            } else {
                format!("{}\n{value}", h.rest)
            };
        }
        let line = Some(h.line + 1);
        // RFC 2611 section 3's heading, renamed by RFC 3406 section 4:
        // said, so that the RFC 3406 name in the file, its renderings and
        // lint is no surprise.
        if normalize(&h.written) == "declaration of structure" {
            report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' is RFC 2611 section 3's: kept as RFC 3406 section 4's '{}' (RFC \
                     2611's 'Process of identifier resolution' as '{}'), the names the registration \
                     file, its renderings and lint use",
                    h.written,
                    heading_of(h.key),
                    heading_of("resolution_process")
                ),
            ));
        }
        if let Some(level) = h.indented {
            report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' is indented {} column(s), right of the template's other headings \
                     ({level}), into the text above it: read as its field",
                    h.written, h.indent
                ),
            ));
        }
        if let Some(level) = h.outdented {
            report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' is indented {} column(s), left of the template's other headings \
                     ({level}): read as a heading all the same",
                    h.written, h.indent
                ),
            ));
        }
        for (k, text) in body.iter().enumerate() {
            let at = body_start + k;
            if let Some(sub) = inside.iter().find(|sub| sub.line == at) {
                let why = if sub.key == "lexical_equivalence" && h.key == "syntax" {
                    "; section 6.4.2: Syntax states the namespace's equivalence rules"
                } else {
                    ""
                };
                report.notes.push(Note::new(
                    NoteKind::Guessed,
                    Some(at + 1),
                    format!(
                        "'{}' is an RFC 3406 heading inside '{}' of an RFC 8141 template (Appendix A \
                         has no such field{why}): kept in '{}'",
                        sub.written,
                        heading_of(h.key),
                        h.written
                    ),
                ));
            } else if heading_shaped(&lines, at, h.indent) || misnamed(at) || unnamed_term(at) {
                report.notes.push(Note::new(
                    NoteKind::Guessed,
                    Some(at + 1),
                    format!(
                        "'{}' is written as a heading but names no template field: kept in '{}'",
                        text.trim(),
                        h.written
                    ),
                ));
            }
        }
        // A one-line field: what follows its value is no part of it, and
        // is said, not dropped unseen. The value is the first line, or, for
        // a Namespace Identifier, the lines up to the one naming the NID
        // ("Request is made for a formal assignment:", then `itu`).
        if matches!(h.key, "namespace_identifier" | "version" | "date") {
            let raw: Vec<&str> = value.lines().collect();
            let filled: Vec<usize> = (0..raw.len()).filter(|&i| !raw[i].trim().is_empty()).collect();
            let nid_lines = (h.key == "namespace_identifier")
                .then(|| nid_value_lines(&filled.iter().map(|&i| raw[i].trim()).collect::<Vec<_>>()))
                .flatten();
            // A value wrapped on to the lines right below it (RFC 8141
            // Appendix A's own `Date:  The date when the registration is
            // requested of IANA, using the` / `format YYYY-MM-DD.`): up to
            // the line that closes its parenthesis or ends its sentence.
            let kept = match nid_lines {
                Some(n) => sentence_lines(&raw, &filled, n),
                None if filled.is_empty() => 1,
                None => match parenthesis_lines(&raw, &filled) {
                    1 => sentence_lines(&raw, &filled, 1),
                    n => n,
                },
            };
            // Text after a NID that cannot be read is no other field's.
            let moved = h.key != "namespace_identifier" || nid_lines.is_some();
            if filled.len() > kept {
                let head_end = filled[kept - 1] + 1;
                let tail = dedent(&raw[head_end..]);
                report.notes.push(Note::new(
                    NoteKind::Unplaced,
                    line,
                    format!(
                        "text after the {} value '{}'{}: {}",
                        heading_of(h.key),
                        preview(raw[filled[kept - 1]].trim()),
                        if moved {
                            ", kept in Additional Information"
                        } else {
                            ""
                        },
                        preview(&tail)
                    ),
                ));
                if moved {
                    // The value's lines stay; the rest, as written.
                    extra.push(tail);
                    value = dedent(&raw[..head_end]);
                }
            }
        }
        let mut also = None;
        match &h.how {
            HowFound::Exact => {}
            HowFound::Rules => {
                report.notes.push(Note::new(
                    NoteKind::Unplaced,
                    line,
                    format!(
                        "'{}' is urnreg's description of a [rules] table, not a template field: \
                         rules are read only from a registration file",
                        h.written
                    ),
                ));
                continue;
            }
            HowFound::NoField => {
                report.notes.push(Note::new(
                    NoteKind::Unplaced,
                    line,
                    format!(
                        "'{}' is a section RFC 3406 section 4.3 asks of a formal registration's \
                         RFC, not a template field: kept in Additional Information",
                        h.written
                    ),
                ));
                extra.push(if value.is_empty() {
                    format!("{}:", h.written)
                } else {
                    format!("{}:\n{value}", h.written)
                });
                continue;
            }
            HowFound::Fuzzy { label, distance } => report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' read as '{}' ({distance} edit(s) from '{label}')",
                    h.written,
                    heading_of(h.key)
                ),
            )),
            HowFound::Prefixed => report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' read as '{}' (the namespace's name before a template heading)",
                    h.written,
                    heading_of(h.key)
                ),
            )),
            HowFound::Words { label } => report.notes.push(Note::new(
                NoteKind::Guessed,
                line,
                format!(
                    "heading '{}' read as '{}' (the words of '{label}')",
                    h.written,
                    heading_of(h.key)
                ),
            )),
            HowFound::Combined {
                label,
                also_label,
                also: second,
            } => {
                report.notes.push(Note::new(
                    NoteKind::Guessed,
                    line,
                    format!(
                        "heading '{}' names two fields (the words of '{label}' and '{also_label}'): \
                         its text is given to both '{}' and '{}'",
                        h.written,
                        heading_of(h.key),
                        heading_of(second)
                    ),
                ));
                also = Some(*second);
            }
        }
        for key in std::iter::once(h.key).chain(also) {
            let slot = report.fields.get_mut(key).expect("HEADINGS names known fields");
            match slot {
                None => *slot = Some(value.clone()),
                Some(existing) => {
                    report.notes.push(Note::new(
                        NoteKind::Unplaced,
                        line,
                        format!(
                            "a second '{}' heading; its text was appended to the first",
                            heading_of(key)
                        ),
                    ));
                    if !value.is_empty() {
                        existing.push_str("\n\n");
                        existing.push_str(&value);
                    }
                }
            }
        }
    }
    report.notes.extend(after_note);
    if report.fields.security_and_privacy.is_none()
        && let Some((at, value)) = security_section(&lines, template_start, end, margin)
    {
        // RFC 3406-era registrations have no security field: the RFC's own
        // Security Considerations section (RFC 7322 section 4.8.5) is their
        // answer to what RFC 8141 Appendix A asks as Security and Privacy.
        report.notes.push(Note::new(
            NoteKind::Guessed,
            Some(at + 1),
            format!(
                "the RFC section '{}' read as 'Security and Privacy' (the template has no such field)",
                lines[at].trim()
            ),
        ));
        report.fields.security_and_privacy = Some(value);
    }
    // urnreg's own HTML and Markdown renderings of an informal registration
    // write no Namespace Identifier field, only their title: the title
    // says it (`render.rs`), so the rendering imports back as informal.
    if report.fields.namespace_identifier.is_none()
        && let Some(at) = (0..template_start).find(|&i| is_informal_title(lines[i]))
    {
        let title = lines[at].trim().trim_start_matches('#').trim();
        report.notes.push(Note::new(
            NoteKind::Guessed,
            Some(at + 1),
            format!("the title '{title}' (urnreg's rendering of an informal namespace) read as its Namespace Identifier"),
        ));
        report.fields.namespace_identifier = Some(title.to_string());
    }
    if let Some(note) = lone_field {
        // What was said of its text as a template is beside the point.
        report.notes.retain(|n| n.kind == NoteKind::Decoded);
        report.notes.push(note);
    } else {
        report.notes.extend(misread(&report.fields, &set_aside));
    }
    if !extra.is_empty() {
        let extra = extra.join("\n\n");
        let slot = &mut report.fields.additional_information;
        *slot = Some(match slot.take() {
            Some(held) if !held.is_empty() => format!("{held}\n\n{extra}"),
            _ => extra,
        });
    }
    report
}

/// A text with this many lines or more before its only field heading
/// (and no Namespace Identifier) is a document that names a field in
/// its prose, not a template (RFC 2141bis's `o  Resolution:` item comes
/// after 347 lines).
const PROSE_LINES: usize = 20;

/// At most this many fields read, while at least [`MISREAD_UNREAD`]
/// other fields' headings were taken as text: the template was not read.
const MISREAD_PLACED: usize = 2;
/// See [`MISREAD_PLACED`].
const MISREAD_UNREAD: usize = 4;

/// A [`NoteKind::Misread`] note when `fields` holds (almost) none of the
/// fields whose headings the text has (`set_aside`: heading lines taken
/// as text, or left after where the template was found to end). Reading
/// one or two fields out of a template of a dozen is no import.
fn misread(fields: &TemplateFields, set_aside: &[Heading]) -> Option<Note> {
    let placed: Vec<&str> = fields.present().map(|(key, _, _)| key).collect();
    let mut unread: Vec<&Heading> = Vec::new();
    for h in set_aside {
        let counts = (h.colon || h.numbered || h.underlined) && !h.key.is_empty();
        if counts && !placed.contains(&h.key) && !unread.iter().any(|u| u.key == h.key) {
            unread.push(h);
        }
    }
    if placed.len() > MISREAD_PLACED || unread.len() < MISREAD_UNREAD {
        return None;
    }
    let named: Vec<String> = unread
        .iter()
        .take(6)
        .map(|h| format!("'{}' at line {}", h.written, h.line + 1))
        .collect();
    Some(Note::new(
        NoteKind::Misread,
        None,
        format!(
            "only {} field(s) read, but {} other template headings were taken as text ({}{}): the \
             template's layout was not understood; check its headings' indentation and numbering",
            placed.len(),
            unread.len(),
            named.join(", "),
            if unread.len() > named.len() { ", ..." } else { "" }
        ),
    ))
}

fn preview(s: &str) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 60 {
        format!("{}...", one_line.chars().take(60).collect::<String>())
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc8141_form_with_values_on_the_heading_line() {
        let r = import_text(
            "Namespace Identifier:  said\n\nVersion:  1\n\nDate:  2026-03-16\n\nRegistrant:\n\n  Sam Smith\n  ToIP\n",
        );
        assert_eq!(r.fields.namespace_identifier.as_deref(), Some("said"));
        assert_eq!(r.fields.version.as_deref(), Some("1"));
        assert_eq!(r.fields.date.as_deref(), Some("2026-03-16"));
        assert_eq!(r.fields.registrant.as_deref(), Some("Sam Smith\nToIP"));
        assert!(r.notes.is_empty());
    }

    #[test]
    fn line_ends_lf_crlf_doubled_cr_and_cr_alone() {
        for text in [
            "Scope: a\nPurpose: b\n",
            "Scope: a\r\nPurpose: b\r\n",
            "Scope: a\r\r\nPurpose: b\r\r\n",
            "Scope: a\rPurpose: b\r",
        ] {
            let r = import_text(text);
            assert_eq!(r.fields.scope.as_deref(), Some("a"), "{text:?}");
            assert_eq!(r.fields.purpose.as_deref(), Some("b"), "{text:?}");
        }
    }

    /// A double-spaced text is read single-spaced; a text whose
    /// paragraphs are one line each (no run of three blank lines), or
    /// with two lines next to each other anywhere, is left as written.
    #[test]
    fn only_a_text_double_spaced_throughout_is_made_single_spaced() {
        let single = "Purpose:\n\nOne.\n\nTwo.\n";
        let single = single.repeat(5);
        let mut lines: Vec<&str> = single.split('\n').collect();
        assert_eq!(undouble_spacing(&mut lines), None);
        let double: String = "Purpose:\nline one\nline two\n\nSyntax:\nx = 1\n"
            .repeat(3)
            .split('\n')
            .map(|l| format!("{l}\n\n"))
            .collect();
        let mut lines: Vec<&str> = double.split('\n').collect();
        assert!(undouble_spacing(&mut lines).is_some());
        assert_eq!(lines[..4], ["Purpose:", "line one", "line two", ""]);
        let mut mixed: Vec<&str> = double.split('\n').collect();
        mixed.insert(3, "adjacent");
        assert_eq!(undouble_spacing(&mut mixed), None);
    }

    /// Control characters, zero-width characters and other line
    /// separators are no text; joiners that shape words stay.
    #[test]
    fn unseen_characters_go_and_line_separators_end_lines() {
        let mut unseen = Unseen::default();
        let text = "\u{200B}Scope: a\u{2028}Purpose: b\u{200D}c\u{2029}\u{1A}\0";
        assert_eq!(unseen.clean(text), "Scope: a\nPurpose: b\u{200D}c\n\n");
        assert!(unseen.said().is_some());
        assert_eq!(unseen.clean("x = 1\u{2011}2"), "x = 1-2");
        let r = import_text("Scope: a\u{85}Purpose: b\u{0B}");
        assert_eq!(r.fields.scope.as_deref(), Some("a"));
        assert_eq!(r.fields.purpose.as_deref(), Some("b"));
    }

    /// Text after a one-line field's value (Namespace Identifier, Version,
    /// Date) is no part of it: a `not placed` note shows it (the urn-4
    /// and nbn registrations have such paragraphs).
    #[test]
    fn text_after_a_one_line_value_is_reported_not_dropped() {
        let r = import_text("Namespace Identifier: foo\nDate: 2002-02-11\nA free paragraph.\nPurpose: x\n");
        assert_eq!(r.fields.date.as_deref(), Some("2002-02-11"));
        let unplaced: Vec<String> = r
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::Unplaced)
            .map(ToString::to_string)
            .collect();
        assert_eq!(unplaced.len(), 1, "{unplaced:?}");
        assert!(unplaced[0].contains("A free paragraph."), "{unplaced:?}");
        assert_eq!(
            r.fields.additional_information.as_deref(),
            Some("A free paragraph.")
        );
        // After the line naming the NID (nbn's text), the same; the lines
        // up to it are the value (itu's "Request is made ...:", then `itu`).
        let r = import_text(
            "Namespace Identifier:  ACME\n   Assigned in 2001 to the ACME\n   catalogue.\n\nPurpose: x\n",
        );
        assert_eq!(r.fields.namespace_identifier.as_deref(), Some("ACME"));
        assert_eq!(
            r.fields.additional_information.as_deref(),
            Some("Assigned in 2001 to the ACME\ncatalogue.")
        );
        assert!(
            r.notes[0]
                .message
                .contains("value 'ACME', kept in Additional Information")
        );
        let r = import_text(
            "Namespace ID:\n\n   Request is made for a formal assignment:\n\n   acme\n\nScope: x\n",
        );
        assert_eq!(
            r.fields.namespace_identifier.as_deref(),
            Some("Request is made for a formal assignment:\n\nacme")
        );
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        assert_eq!(r.fields.additional_information, None);
    }

    /// RFC 8141 section 6.4.2 and Appendix A: Syntax states the
    /// namespace's equivalence rules. In a template of Appendix A's
    /// fields, RFC 3406's "Rules for Lexical Equivalence:" is a
    /// sub-heading of the field it is written in; in an RFC 3406
    /// template it is a field.
    #[test]
    fn rfc3406_headings_inside_an_rfc8141_template_stay_in_their_field() {
        let r = import_text(
            "Namespace Identifier: acme\nRegistrant: r\nPurpose: p\n\nSyntax:\nDigits.\n\nRules for Lexical Equivalence:\nCase matters.\n\nExamples:\n   urn:acme:1\n\nAssignment: a\n",
        );
        assert_eq!(
            r.fields.syntax.as_deref(),
            Some("Digits.\n\nRules for Lexical Equivalence:\nCase matters.\n\nExamples:\n   urn:acme:1")
        );
        assert_eq!(r.fields.lexical_equivalence, None);
        assert_eq!(r.fields.assignment.as_deref(), Some("a"));
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        assert!(r.notes[0].message.contains("kept in 'Syntax'"), "{:?}", r.notes);
        let r = import_text(
            "Namespace ID: acme\nDeclaration of syntactic structure: Digits.\nRules for Lexical Equivalence: Case matters.\nScope: Global.\n",
        );
        assert_eq!(r.fields.syntactic_structure.as_deref(), Some("Digits."));
        assert_eq!(r.fields.lexical_equivalence.as_deref(), Some("Case matters."));
    }

    /// RFC extracts keep their page breaks (RFC 7322 section 4.8): the
    /// footer, the form feed and the next page's header are no part of a
    /// field, and a paragraph split by a page reads whole.
    #[test]
    fn rfc_page_breaks_are_no_part_of_a_field() {
        let text = "Namespace ID: xmpp\n\nDeclared registrant of the namespace:\n   Registrant: XMPP Standards Foundation\n   Address: P.O. Box 1641\n\n\n\nSaint-Andre                 Standards Track                    [Page 3]\n\u{c}\nRFC 4854                 URN Namespace for XMPP               April 2007\n\n\n   Denver, CO 80201 USA\n\nDeclaration of syntactic structure:\n   urn:xmpp:{ShortName}\n\u{c}Scope: global\n";
        let r = import_text(text);
        assert_eq!(
            r.fields.declared_registrant.as_deref(),
            Some("Registrant: XMPP Standards Foundation\nAddress: P.O. Box 1641\nDenver, CO 80201 USA")
        );
        assert_eq!(
            r.fields.syntactic_structure.as_deref(),
            Some("urn:xmpp:{ShortName}")
        );
        assert_eq!(
            r.fields.scope.as_deref(),
            Some("global"),
            "text after a form feed is text"
        );
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    /// Headings real registrations use for template fields (doi, isni,
    /// meta, nan; urn-4; RFC 3406 texts).
    #[test]
    fn wordings_of_real_registrations_are_their_fields() {
        let r = import_text(
            "Additional documentation / information:\n  See ISO 26324.\nIdentifier uniqueness/persistence considerations:\n  u\nRules for Lexically Equivalent NSSs:\n  e\nRelevant ancillary information:\n  a\n",
        );
        assert_eq!(r.fields.documentation.as_deref(), Some("See ISO 26324."));
        assert_eq!(r.fields.uniqueness.as_deref(), Some("u"));
        assert_eq!(r.fields.lexical_equivalence.as_deref(), Some("e"));
        assert_eq!(r.fields.ancillary_documentation.as_deref(), Some("a"));
    }

    #[test]
    fn rfc3406_form_keeps_indented_sub_items_in_the_value() {
        let r = import_text(
            "Namespace ID:  urn-1\r\n\r\nRegistration Information:\r\n\r\n  Registration version number: 1\r\n  Registration date: TBD\r\n",
        );
        assert_eq!(r.fields.namespace_identifier.as_deref(), Some("urn-1"));
        assert_eq!(
            r.fields.registration_information.as_deref(),
            Some("Registration version number: 1\nRegistration date: TBD")
        );
    }

    #[test]
    fn numbered_and_underlined_headings() {
        let r =
            import_text("3.1.  Namespace ID\n\n   The NID \"example\".\n\nPurpose\n-------\n\n   Testing.\n");
        assert_eq!(
            r.fields.namespace_identifier.as_deref(),
            Some("The NID \"example\".")
        );
        assert_eq!(r.fields.purpose.as_deref(), Some("Testing."));
    }

    /// CommonMark sections 4.2 and 4.3: what is a Markdown heading after
    /// a template (F3), and what is text.
    #[test]
    fn markdown_headings_after_a_template_end_it_and_text_does_not() {
        let template = "**Namespace ID:**\n\nexample\n\n**Scope:**\n\nGlobal\n";
        for (after, ends) in [
            ("\n## Examples\n\nurn:example:1\n", true),
            ("\n###### Six\n\nx\n", true),
            ("\nExamples\n--------\n\nx\n", true),
            ("\nExamples\n========\n\nx\n", true),
            // Seven marks, no space after them, a mark mid-paragraph, a
            // heading indented as code, one inside a code fence.
            ("\n####### Seven\n", false),
            ("\n#1 priority\n", false),
            ("and more\n# of names\n", false),
            ("\n    ## Code\n", false),
            ("\n~~~\n\n# comment\n~~~\n", false),
        ] {
            let r = import_text(&format!("{template}{after}"));
            let scope = r.fields.scope.as_deref().unwrap_or_default();
            assert_eq!(scope == "Global", ends, "{after:?}: {scope:?}");
        }
        // Headings that are fields stay fields, at any level.
        let r = import_text(
            "## Namespace Identifier\n\nexample\n\n### Purpose\n\nTesting.\n\n# Scope\n\nGlobal\n",
        );
        assert_eq!(r.fields.namespace_identifier.as_deref(), Some("example"));
        assert_eq!(r.fields.purpose.as_deref(), Some("Testing."));
        assert_eq!(r.fields.scope.as_deref(), Some("Global"));
    }

    #[test]
    fn text_before_the_first_heading_is_reported() {
        let r = import_text("A title\n\nSyntax: x\n");
        assert_eq!(r.fields.syntax.as_deref(), Some("x"));
        assert_eq!(r.notes.len(), 1);
        assert_eq!(r.notes[0].kind, NoteKind::Unplaced);
    }

    #[test]
    fn edit_distance_counts_swaps_as_one_and_stops_at_the_limit() {
        let d = |a: &str, b: &str, l| {
            edit_distance(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>(), l)
        };
        assert_eq!(d("namespace indentifier", "namespace identifier", 2), Some(1));
        assert_eq!(d("versoin", "version", 1), Some(1));
        assert_eq!(d("purpose", "purpose", 0), Some(0));
        assert_eq!(d("syntax", "status", 2), None);
        assert_eq!(d("", "abc", 3), Some(3));
    }

    #[test]
    fn misspelled_headings_are_read_with_a_note_and_short_ones_never() {
        let r = import_text("Namespace Indentifier: acme\nVersoin: 1\nData: 2024-01-01\nPurpose: x\n");
        assert_eq!(r.fields.namespace_identifier.as_deref(), Some("acme"));
        // "Data" is one edit from "Date", but short headings must match:
        // the line is no heading, and no part of the version either (a
        // note says so).
        assert_eq!(r.fields.version.as_deref(), Some("1"));
        assert_eq!(r.fields.date, None);
        assert!(
            r.notes
                .iter()
                .any(|n| n.kind == NoteKind::Unplaced && n.to_string().contains("Data: 2024-01-01"))
        );
        let guessed: Vec<String> = r
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::Guessed)
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            guessed,
            [
                "line 1: heading 'Namespace Indentifier' read as 'Namespace Identifier' (1 edit(s) from 'namespace identifier')",
                "line 2: heading 'Versoin' read as 'Version' (1 edit(s) from 'version')",
            ]
        );
    }

    #[test]
    fn headings_of_other_things_are_not_guessed() {
        for head in [
            "registrant information",
            "registration date",
            "designated contact",
            "rules for semantic equivalence",
            "name",
            "e-mail",
            "the identifier structure is as follows",
        ] {
            assert_eq!(fuzzy_heading(head), None, "{head}");
        }
    }

    #[test]
    fn a_heading_named_after_the_namespace_is_its_field() {
        let r = import_text(
            "Namespace ID: ISBN\n\nISBN assignment:\n\n  Agencies assign them.\n\nFOO assignment: x\n",
        );
        assert_eq!(
            r.fields.assignment.as_deref(),
            Some("  Agencies assign them.\n\nFOO assignment: x")
        );
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        assert!(
            r.notes[0]
                .message
                .contains("'ISBN assignment' read as 'Assignment'")
        );
    }

    #[test]
    fn a_value_below_its_heading_after_other_text() {
        let (file, _) = import_registration("Namespace ID: (assigned by IANA)\n\n      urn-5\n\nScope: x\n");
        assert_eq!(file.nid.as_deref(), Some("urn-5"));
        assert_eq!(file.kind, Some(Kind::Informal));
        let (file, _) = import_registration("Namespace Identifier:\n   To be assigned:\n   acme\n");
        assert_eq!(file.nid.as_deref(), Some("acme"));
    }

    /// RFC 8141 Appendix A's Date is `YYYY-MM-DD`; templates write dates
    /// other ways (gvat `2023-05-01.`, gdst `2020-04-2`, urn-4 `February
    /// 11, 2002`): read as that day, or not at all if it is none.
    #[test]
    fn dates_as_templates_write_them() {
        let read = |t: &str| read_date(t);
        assert_eq!(read("2023-05-01"), Some(("2023-05-01".into(), true)));
        for (written, date) in [
            ("2023-05-01.", "2023-05-01"),
            ("2020-04-2", "2020-04-02"),
            ("2020/04/02", "2020-04-02"),
            ("February 11, 2002", "2002-02-11"),
            ("11 Feb 2002", "2002-02-11"),
            ("2004 March 3", "2004-03-03"),
            ("5Feb2001", "2001-02-05"),
            // A month of four letters is no year.
            ("June 10, 2018", "2018-06-10"),
            ("July 4, 2019", "2019-07-04"),
            ("Sept 30, 2020", "2020-09-30"),
            // A comment after it, as a Version may have.
            ("2018-06-10 (revised)", "2018-06-10"),
            ("June 10, 2018 (second version)", "2018-06-10"),
            // A day written as an ordinal.
            ("September 8th, 2001", "2001-09-08"),
            ("8th September 2001", "2001-09-08"),
            ("the 1st of October 2003", "2003-10-01"),
            ("22nd May, 2002", "2002-05-22"),
            ("March 3rd 2004", "2004-03-03"),
        ] {
            assert_eq!(read(written), Some((date.to_string(), false)), "{written}");
        }
        for none in [
            "2023-02-30",
            "February 30, 2002",
            "TBD",
            "1.0",
            "2002",
            "May 2002",
            "Mayday 1, 2002",
            "2006-MM-DD",
            "2004-07-xx",
            "May 2nd",
            "2002 th",
            "of 2001-02-03",
        ] {
            assert_eq!(read(none), None, "{none}");
        }
        assert_eq!(
            date_after("Version 1 / 2014-03-03", "date").as_deref(),
            Some("2014-03-03")
        );
        // Findings of 2026-11-27 (historic texts), F4: RFC 3406 section
        // 4's "registration date" in words reads as a Date field's does.
        for (info, date) in [
            (
                "Registration version number: 1\nRegistration date: April 22, 1999",
                Some("1999-04-22"),
            ),
            ("Registration date: 22 April 1999", Some("1999-04-22")),
            ("Date: February 11, 2002.", Some("2002-02-11")),
            ("Registration date: TBD", None),
            ("Registration date: 2006-MM-DD", None),
            ("Registration date: April 31, 1999", None),
            ("Updated: April 22, 1999", None),
        ] {
            assert_eq!(date_after(info, "date").as_deref(), date, "{info}");
        }
    }

    /// RFC 8141 Appendix A numbers versions 1, 2, ...: a version written
    /// otherwise reads as its whole number, or as none (iso's `Version
    /// 2.1`), never as a part of it.
    #[test]
    fn versions_as_templates_write_them() {
        assert_eq!(read_version("2"), Some((2, true)));
        assert_eq!(read_version("1.0"), Some((1, false)));
        assert_eq!(read_version("2 (revision of RFC 3187)."), Some((2, false)));
        for none in ["2.1", "3a", "one", ""] {
            assert_eq!(read_version(none), None, "{none}");
        }
        let fields = |info: &str| TemplateFields {
            registration_information: Some(info.to_string()),
            ..TemplateFields::default()
        };
        let (version, date, notes) = version_and_date(&fields("Version 2.1\nDate: 2007-12-13"));
        assert_eq!((version, date.as_deref()), (None, Some("2007-12-13")));
        assert!(
            notes.iter().any(|n| n.kind == NoteKind::Unplaced
                && n.message.contains("'Version 2.1' gives no whole version number")),
            "{notes:?}"
        );
        let (version, date, _) = version_and_date(&fields("Version 1\nDate: 5Feb2001"));
        assert_eq!((version, date.as_deref()), (Some(1), Some("2001-02-05")));
    }

    #[test]
    fn version_and_date_from_registration_information() {
        let (file, notes) = import_registration(
            "Namespace ID: urn-9\nRegistration Information:\n  Registration version number: 3\n  Registration date: 2001-02-03\n",
        );
        assert_eq!(file.version, Some(3));
        assert_eq!(file.date.map(|d| d.as_text()).as_deref(), Some("2001-02-03"));
        assert_eq!(notes.len(), 2, "{notes:?}");
        let (file, _) = import_registration(
            "Namespace ID: urn-9\nRegistration Information: TBD, see version 2.1; the\n  subversion 3 of the date of 2001-02-03\n",
        );
        assert_eq!(file.version, None);
        assert_eq!(file.date, None);
    }

    #[test]
    fn bytes_in_windows_1252_latin_1_and_utf_16() {
        let (text, note) = decode(b"Name: Jyv\xe4skyl\xe4 \x93quoted\x94 \x80\n");
        assert_eq!(
            text,
            "Name: Jyv\u{e4}skyl\u{e4} \u{201c}quoted\u{201d} \u{20ac}\n"
        );
        let note = note.unwrap();
        assert_eq!(note.kind, NoteKind::Decoded);
        assert!(note.message.contains("5 byte(s) read as Windows-1252"), "{note}");
        assert!(note.message.contains("(0xE4) at byte 9"), "{note}");
        // Mixed: the UTF-8 stays UTF-8.
        let (text, note) = decode("é \u{2013} ".bytes().chain([0xE9]).collect::<Vec<_>>().as_slice());
        assert_eq!(text, "é \u{2013} é");
        assert!(note.unwrap().message.ends_with("the rest is UTF-8"));
        // UTF-8 with a byte-order mark: no note.
        assert_eq!(decode(b"\xEF\xBB\xBFok"), ("ok".to_string(), None));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("Scope: é".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let (text, note) = decode(&utf16);
        assert_eq!(text, "Scope: é");
        assert!(note.unwrap().message.contains("UTF-16LE"));
        // Findings of 2026-11-27 (historic texts), F8: UTF-16 without a
        // byte-order mark (every other byte NUL) is read as UTF-16 too,
        // with a note saying so; a NUL or two in a UTF-8 text is not.
        for (bytes, name) in [
            (
                "Scope: é"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes)
                    .collect::<Vec<_>>(),
                "UTF-16LE",
            ),
            (
                "Scope: é"
                    .encode_utf16()
                    .flat_map(u16::to_be_bytes)
                    .collect::<Vec<_>>(),
                "UTF-16BE",
            ),
        ] {
            let (text, note) = decode(&bytes);
            assert_eq!(text, "Scope: é", "{name}");
            let note = note.unwrap().message;
            assert!(
                note.contains(&format!("read as {name} (no byte-order mark")),
                "{note}"
            );
        }
        assert_eq!(decode(b"Scope: x\0y\n"), ("Scope: x\0y\n".to_string(), None));
        // A lone surrogate and an odd byte are replaced, not a panic.
        let (text, note) = decode(&[0xFE, 0xFF, 0xD8, 0x00, 0x00]);
        assert_eq!(text, "\u{fffd}\u{fffd}");
        assert!(note.unwrap().message.contains("2 invalid"));
    }

    /// RFC 7322 section 4: a numbered section title without a colon is
    /// no template field; after the fields it ends the template, unless
    /// it is a subsection of a numbered field. An address line that
    /// starts with a number is no section title.
    #[test]
    fn numbered_section_titles_end_a_template_and_are_never_fields() {
        let r = import_text(
            "Purpose: x\n\n5.  Security Considerations\n\n   None.\n\n6.  References\n\n   [1]\n",
        );
        assert_eq!(r.fields.purpose.as_deref(), Some("x"));
        assert!(
            r.notes
                .iter()
                .any(|n| n.message.contains("lines 3-9 after the template"))
        );
        // The RFC's own security section answers Security and Privacy
        // when the template has none (reso, RFC 3187): up to the next
        // section, with a note.
        assert_eq!(r.fields.security_and_privacy.as_deref(), Some("None."));
        assert!(r.notes.iter().any(|n| {
            n.kind == NoteKind::Guessed
                && n.message
                    .contains("'5.  Security Considerations' read as 'Security and Privacy'")
        }));
        let r = import_text(
            "5.  Security Considerations\n\n   None known.\n\n6.  The Template\n\nPurpose: x\n\nSecurity and privacy: See RFC 8141.\n",
        );
        assert_eq!(r.fields.security_and_privacy.as_deref(), Some("See RFC 8141."));
        let r = import_text("Registrant:\n\n1320 N. Main Rd., Suite 2\n\nArlington\n\nScope: x\n");
        assert_eq!(
            r.fields.registrant.as_deref(),
            Some("1320 N. Main Rd., Suite 2\n\nArlington")
        );
        let r = import_text(
            "2.1.  Namespace ID\n\n   x\n\n2.2.  Declaration of Structure\n\n2.2.1.  Definition\n\n   NSS = 1*DIGIT\n\n2.3.  Scope\n\n   Global.\n",
        );
        assert_eq!(
            r.fields.syntactic_structure.as_deref(),
            Some("2.2.1.  Definition\n\n   NSS = 1*DIGIT")
        );
        assert_eq!(r.fields.scope.as_deref(), Some("Global."));
    }

    /// Headings match by their words, reordered or qualified; a grammar
    /// rule or a sentence ending in a colon does not.
    #[test]
    fn headings_by_their_words_and_not_sentences() {
        assert!(matches!(
            word_heading("identifier assignment process"),
            Some(WordMatch::One(_, "assignment_process"))
        ));
        assert!(matches!(
            word_heading("identifier uniqueness/persistence considerations"),
            Some(WordMatch::Two((_, "uniqueness"), (_, "persistence")))
        ));
        // RFC 3613's (mace's) headings without "Process" / "Rules for".
        for (head, key) in [
            ("identifier assignment", "assignment_process"),
            ("identifier resolution", "resolution_process"),
            ("lexical equivalence", "lexical_equivalence"),
        ] {
            assert!(
                matches!(word_heading(head), Some(WordMatch::One(_, k)) if k == key),
                "{head}"
            );
        }
        // RFC 7207's (eurosystem's) heading glossed after a slash.
        let glossed = find_heading(&["Scope / kind of named resources:"], 0, None).unwrap();
        assert_eq!(glossed.key, "scope");
        for prose in [
            "<namespace-specific-identifier> ",
            "the identifier structure is as follows",
            "the process of assignment is described below",
            "nss syntax",
        ] {
            assert!(word_heading(prose).is_none(), "{prose}");
        }
    }

    /// RFC 5322 section 2.2: a header block is a mail's only when it
    /// says who sent it or what about; a template's `Date:` is not one.
    #[test]
    fn a_mail_header_block_and_what_is_not_one() {
        let lines = [
            "From: a@example.org",
            "Subject: x",
            "Date: today",
            "",
            "Namespace ID: y",
        ];
        assert_eq!(mail_header_block(&lines), Some(0..3));
        assert_eq!(mail_header_block(&["Date: 2024-01-01", "Version: 1"]), None);
        assert_eq!(mail_header_block(&["Date: 2024-01-01", "", "From: x"]), None);
        // A list's and a client's own fields, and an mbox separator line.
        let listed = [
            "From urn-nid-bounces@ietf.org  Tue Mar 14 17:12:31 2017",
            "From: a@example.org",
            "Date: Tue, 14 Mar 2017 17:12:31 +0100",
            "List-Id: <urn-nid.ietf.org>",
            "User-Agent: Mutt/1.5",
            "Archived-At: <https://mailarchive.ietf.org/x>",
            "",
            "Namespace ID: y",
        ];
        assert_eq!(mail_header_block(&listed), Some(0..6));
        // A template heading is no mail field, even beside a Subject.
        assert_eq!(
            mail_header_block(&["Subject: x", "Version: 1", "Date: 2024"]),
            None
        );
    }

    /// A field's list marker goes; anything else that looks like one
    /// stays (a word, a longer bracketed number, no space after it).
    #[test]
    fn list_markers_before_a_heading_go() {
        for (line, rest) in [
            ("o  Namespace ID:", "Namespace ID:"),
            ("\u{2022} Scope:", "Scope:"),
            ("\u{2013}\tScope:", "Scope:"),
            ("a) Scope:", "Scope:"),
            ("(b) Scope:", "Scope:"),
            ("12) Scope:", "Scope:"),
            ("(3) Scope:", "Scope:"),
            ("or Scope:", "or Scope:"),
            ("o:Scope", "o:Scope"),
            ("(123) Scope:", "(123) Scope:"),
            ("ab) Scope:", "ab) Scope:"),
            (") Scope:", ") Scope:"),
            ("a)Scope:", "a)Scope:"),
        ] {
            assert_eq!(strip_list_marker(line), rest, "{line}");
        }
    }

    /// An informal request's `urn-<n>` (the number IANA is to assign,
    /// written as a stand-in) is an informal namespace; a number written
    /// is its NID, and the list's address is no stand-in.
    #[test]
    fn an_informal_nid_stand_in_is_an_informal_namespace() {
        for v in [
            "urn-<n>",
            "urn-n",
            "urn-",
            "\"urn-xxx\".",
            "urn-NNN",
            "urn-?",
            "(urn-[n])",
            "urn-<number>",
        ] {
            assert_eq!(read_nid(v), NidRead::Informal, "{v}");
        }
        assert_eq!(read_nid("urn-7"), NidRead::Nid("urn-7".into()));
        for v in ["urn-nid@ietf.org", "urn-X", "urn-<n1>", "urn-abc"] {
            assert_eq!(read_nid(v), NidRead::None, "{v}");
        }
        let (file, _) = import_registration("Namespace ID:\n   urn-<n>\n\nScope:\n   Global.\n");
        assert_eq!((file.kind, file.nid), (Some(Kind::Informal), None));
    }

    /// RFC 8141 section 5.2: "to be assigned" alone is an informal
    /// namespace; a NID written beside it, in brackets or not, is the
    /// registrant's and stays.
    #[test]
    fn a_nid_beside_an_assignment_phrase_is_kept() {
        for (text, nid) in [
            (
                "Namespace Identifier: acme (to be assigned by IANA)\nPurpose: x\n",
                Some("acme"),
            ),
            (
                "Namespace Identifier: \"acme\", to be assigned\nPurpose: x\n",
                Some("acme"),
            ),
            ("Namespace Identifier: to be assigned\nPurpose: x\n", None),
            // Markdown emphasis around it is no part of it.
            ("Namespace Identifier: **acme**\nPurpose: x\n", Some("acme")),
            ("Namespace Identifier: _acme_\nPurpose: x\n", Some("acme")),
            // The scheme before it, or a word that only asks for it.
            ("Namespace Identifier: urn:ogc\nPurpose: x\n", Some("ogc")),
            ("Namespace ID: URN:ISSN\nPurpose: x\n", Some("ISSN")),
            ("Namespace ID: Requested: PIN\nPurpose: x\n", Some("PIN")),
            ("Namespace ID: NID: clei\nPurpose: x\n", Some("clei")),
        ] {
            let (file, _) = import_registration(text);
            assert_eq!(file.nid.as_deref(), nid, "{text}");
        }
    }

    /// A field whose only lines at its heading's margin are headings that
    /// name no field (the WHEP draft's `Designated contact:`) loses its
    /// own lines' indentation as any field does; one whose text stands at
    /// the margin keeps its indented lines' layout (the doi text's
    /// bullets).
    #[test]
    fn a_field_dedents_around_a_heading_kept_in_it() {
        let lines = [
            "      The IETF.",
            "",
            "Designated contact:",
            "",
            "       An expert.",
        ];
        assert_eq!(
            dedent_under(&lines, 0),
            "The IETF.\n\nDesignated contact:\n\n An expert."
        );
        let lines = ["Text at the margin:", "   o a bullet"];
        assert_eq!(dedent_under(&lines, 0), "Text at the margin:\n   o a bullet");
        let lines = ["   Characters", "   o a bullet, not a heading", "other text"];
        assert_eq!(
            dedent_under(&lines, 0),
            "   Characters\n   o a bullet, not a heading\nother text"
        );
    }

    /// A mail's closing and a list's footer end a registration mail's
    /// template; text that only starts with such a word does not.
    #[test]
    fn mail_closings_and_list_footers() {
        assert!(is_closing("Best regards,"));
        assert!(is_closing("Mit freundlichen Grüßen / Best regards"));
        assert!(!is_closing("Regardless of the NSS, the rules apply."));
        assert!(!is_closing(
            "Regards to the assignment: see above, and all the other notes of this text."
        ));
        let footer = [
            "_______________________________________________",
            "urn-nid mailing list",
        ];
        assert!(is_list_footer(&footer, 0));
        assert!(!is_list_footer(&["____________________", "Signature"], 0));
        // Short closings, alone on their line only (the urn-nid and urn
        // lists' `Thanks,` / `-b.`, `All the best,`).
        for closing in ["Thanks,", "Thank you!", "Best,", "All the best,", "thanks"] {
            assert!(is_closing(closing), "{closing}");
        }
        for prose in [
            "Best effort resolution is offered.",
            "Thanks to the ISSN network, ...",
        ] {
            assert!(!is_closing(prose), "{prose}");
        }
        // Pipermail's scrubbed-attachment trailer.
        assert!(is_attachment_trailer("-------------- next part --------------"));
        assert!(!is_attachment_trailer("-------------------------------------"));
    }

    /// What ends a registration mail's template besides a closing: its
    /// own `References:` list at the fields' margin (the urn-5 request),
    /// Pipermail's attachment trailer; neither is kept in the last field.
    #[test]
    fn references_and_attachment_trailers_end_a_template() {
        for tail in [
            "References:\n\n[RDF]\n   RDF Model and Syntax.\n",
            "-------------- next part --------------\nAn HTML attachment was scrubbed...\nURL: \
             http://www.ietf.org/mail-archive/web/urn-nid/attachments/20090311/0d7b5b7c/attachment.htm\n",
        ] {
            let text = format!(
                "Namespace ID:\n    to be assigned\n\nDeclared registrant of the namespace:\n    Joe\n\n\
                 Scope:\n    Global.\n\n{tail}"
            );
            let report = import_text(&text);
            assert_eq!(report.fields.scope.as_deref(), Some("Global."), "{tail}");
            assert!(
                report
                    .notes
                    .iter()
                    .any(|n| n.kind == NoteKind::Unplaced && n.message.contains("after the template")),
                "{:?}",
                report.notes
            );
        }
    }

    /// A Namespace Identifier that names no NID (RFC 8141 section 2) still
    /// asks for a formal namespace: the kind is kept, and the text as
    /// written stays in Additional Information, said in a note.
    #[test]
    fn an_unreadable_nid_keeps_its_text_and_the_kind() {
        let (file, notes) =
            import_registration("Namespace ID: foo!bar\nPurpose: x\nAdditional Information: y\n");
        assert_eq!((file.kind, file.nid.as_deref()), (Some(Kind::Formal), None));
        assert_eq!(
            file.additional_information.as_deref(),
            Some("Namespace Identifier (as written, no NID): foo!bar\n\ny")
        );
        assert!(
            notes
                .iter()
                .any(|n| n.message.contains("no NID found in 'foo!bar'")),
            "{notes:?}"
        );
    }

    /// Hostile texts stay linear: many headings, many numbered lines and
    /// many assignment phrases, each within MAX_TEXT_BYTES and
    /// MAX_TEXT_LINES (the heading and sibling counts and the phrase
    /// search were quadratic: a regression here takes minutes, not a
    /// second; timings themselves belong in benchmarks).
    #[test]
    fn many_headings_and_phrases_are_read_in_linear_time() {
        let headings = "Purpose:\n".repeat(MAX_TEXT_LINES - 1);
        let r = import_text(&headings);
        assert!(r.fields.purpose.is_some());
        let numbered = format!("Purpose: x\n\n{}", "1.1.  Title\n\n".repeat(10_000));
        let _ = import_text(&numbered);
        let phrases = format!("Namespace Identifier: {}\n", "to be assigned ".repeat(100_000));
        let (file, _) = import_registration(&phrases);
        assert_eq!(file.nid, None);
        // A field followed by 300,000 form feeds (each a page break):
        // no line of a run of page breaks looks past the run (quadratic
        // before: about 20 s for 80,000).
        let feeds = format!(
            "Namespace Identifier: example\nPurpose: x\n{}",
            "\u{c}\n".repeat(MAX_TEXT_LINES - 3)
        );
        assert_eq!(import_text(&feeds).fields.purpose.as_deref(), Some("x"));
    }

    /// Soft hyphens: one inside a line goes; one at a line's end joins
    /// the word with the next line's start (past a page break), the next
    /// line keeping its indentation and its other words; a word that was
    /// all of its line leaves no line (a column of pieces makes one word);
    /// one before a blank line only goes.
    #[test]
    fn soft_hyphens_are_dropped_and_broken_words_joined() {
        let lines = [
            "   a supple\u{ad}ment to the regis\u{ad}",
            "   tration process of a name",
            "   as\u{ad}",
            PAGE_BREAK,
            "   signed by IANA, in ac\u{ad}",
            "   cord\u{ad}",
            "   ance.\u{ad}",
            "",
            "  \u{ad}",
        ];
        let (out, soft) = soft_hyphens(&lines);
        assert_eq!(
            out,
            [
                "   a supplement to the registration",
                "   process of a name",
                "   assigned",
                PAGE_BREAK,
                "   by IANA, in accordance.",
                PAGE_BREAK,
                PAGE_BREAK,
                "",
                "  ",
            ]
        );
        let soft = soft.unwrap();
        assert_eq!((soft.first, soft.dropped, soft.joined), (0, 3, 4));
        assert!(soft_hyphens(&["plain"]).1.is_none());
        // `&shy;` in an HTML page's `<pre>` is the same character.
        let html = "<html><body><pre>\nNamespace ID: acme\n\nPurpose:\n   Names the regis&shy;\n   \
                    tration of parts, sup&shy;plied by Acme.\n</pre></body></html>";
        let r = import_text(html);
        assert_eq!(
            r.fields.purpose.as_deref(),
            Some("Names the registration\nof parts, supplied by Acme.")
        );
    }

    /// A setext underline a page break parted from its field title is put
    /// back under the title: after an RFC-like break and after a page's
    /// padding alone; not under a line that is no field's title.
    #[test]
    fn underlines_cut_off_by_a_page_break_are_reattached() {
        let mut lines = vec![
            "",
            "Syntax",
            "",
            "Doe   [Page 2]",
            "\u{c}",
            "------",
            "",
            "   x = 1",
        ];
        drop_page_breaks(&mut lines);
        assert_eq!(
            lines,
            [
                "", "Syntax", "------", PAGE_BREAK, PAGE_BREAK, PAGE_BREAK, "", "   x = 1"
            ]
        );
        let mut lines = vec!["Purpose", "", "", "", "", "", "", "=======", "   x"];
        drop_page_breaks(&mut lines);
        assert_eq!(lines[..3], ["Purpose", "=======", PAGE_BREAK]);
        assert_eq!(lines[7], PAGE_BREAK);
        let mut lines = vec!["Some words", "", "Doe   [Page 2]", "\u{c}", "-----", "   x"];
        drop_page_breaks(&mut lines);
        assert_eq!(lines[4], "-----");
    }

    /// Soft hyphens and cut-off underlines by the thousand in one text.
    #[test]
    fn soft_hyphens_and_underlines_in_bulk_are_repaired() {
        // Many repairs in one text (a loop over the lines per repair would
        // not end here in any useful time; no clock is read).
        let column = format!("Purpose:\n{}", "   a\u{ad}\n".repeat(20_000));
        let r = import_text(&column);
        assert_eq!(r.fields.purpose.map(|p| p.len()), Some(20_000));
        let lines = format!("Purpose:\n{}", "   word regis\u{ad}\n".repeat(10_000));
        assert!(import_text(&lines).fields.purpose.is_some());
        let underlines = format!("Purpose: x\n{}", "Syntax\n\u{c}\n------\n".repeat(5_000));
        let _ = import_text(&underlines);
    }

    #[test]
    fn too_large_texts_are_refused() {
        let big = vec![b'a'; MAX_TEXT_BYTES + 1];
        assert_eq!(
            import_bytes(&big).unwrap_err(),
            ImportError::TooLarge {
                size: MAX_TEXT_BYTES + 1
            }
        );
    }

    /// Tabs reach the next multiple of 8 columns, after the spaces put
    /// before them; no-break spaces that lay text out are spaces, a lone
    /// one between words is not.
    #[test]
    fn indentation_is_measured_in_spaces() {
        assert_eq!(indent_columns("\t\t "), 17);
        assert_eq!(indent_columns(" \t"), 9);
        assert_eq!(indent_columns("\t  \t"), 16);
        let (spaced, nbsp) = spaced_layout(&["\tNSS", "\u{a0} x\u{a0}\u{a0}= 1", "5\u{a0}March", "plain"]);
        assert_eq!(spaced, ["        NSS", "  x  = 1", "5\u{a0}March", "plain"]);
        assert_eq!(nbsp, [1]);
        assert!(matches!(spaced[3], Cow::Borrowed(_)));
    }
}
