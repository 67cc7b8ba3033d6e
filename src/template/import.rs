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

/// Heading texts (lower case, single spaces) and the field each names: the
/// headings of RFC 8141 Appendix A and RFC 3406 section 4, and wordings
/// real registrations use for them. These match exactly; anything else
/// only by [`fuzzy_heading`], with a note.
const HEADINGS: &[(&str, &str)] = &[
    // RFC 8141 Appendix A.
    ("namespace identifier", "namespace_identifier"),
    ("version", "version"),
    ("date", "date"),
    ("registrant", "registrant"),
    ("purpose", "purpose"),
    ("syntax", "syntax"),
    ("assignment", "assignment"),
    ("security and privacy", "security_and_privacy"),
    ("interoperability", "interoperability"),
    ("resolution", "resolution"),
    ("documentation", "documentation"),
    ("additional information", "additional_information"),
    ("revision information", "revision_information"),
    // RFC 3406 section 4 (and RFC 2611 section 3).
    ("namespace id", "namespace_identifier"),
    ("registration information", "registration_information"),
    ("declared registrant of the namespace", "declared_registrant"),
    ("declaration of syntactic structure", "syntactic_structure"),
    ("relevant ancillary documentation", "ancillary_documentation"),
    ("identifier uniqueness considerations", "uniqueness"),
    ("identifier persistence considerations", "persistence"),
    ("process of identifier assignment", "assignment_process"),
    ("process for identifier resolution", "resolution_process"),
    ("rules for lexical equivalence", "lexical_equivalence"),
    ("conformance with urn syntax", "conformance"),
    ("validation mechanism", "validation"),
    ("scope", "scope"),
    // Wordings found in real registrations (IANA texts and RFCs): the
    // RFC 3406 example itself says "Process of identifier resolution" in
    // ten of the registry's texts.
    ("namespaceid", "namespace_identifier"),
    ("registrant of the namespace", "declared_registrant"),
    ("declaration of syntactic structures", "syntactic_structure"),
    ("declaration of structure", "syntactic_structure"),
    ("syntactic structure", "syntactic_structure"),
    ("process of identifier resolution", "resolution_process"),
    ("security and privacy considerations", "security_and_privacy"),
    ("security considerations", "security_and_privacy"),
    ("additional documentation / information", "documentation"),
    ("additional documentation", "documentation"),
    ("rules for lexically equivalent nsss", "lexical_equivalence"),
    ("rules for lexically equivalent nss", "lexical_equivalence"),
    ("relevant ancillary information", "ancillary_documentation"),
];

/// Words a heading may add to a template heading without naming another
/// field: RFC 7207's "Declaration of syntactic structure of NSS part",
/// "Rules for Lexical Equivalence of NSS part". [`OPTIONAL_WORDS`] are
/// among them.
const QUALIFIER_WORDS: &[&str] = &[
    "nss",
    "nsss",
    "part",
    "parts",
    "namespace",
    "specific",
    "string",
    "urn",
    "considerations",
    "process",
    "rules",
];

/// Words a heading may also leave out of a template heading: RFC 3044's
/// "Identifier uniqueness:" and "Identifier persistence:" are RFC 3406's
/// "... considerations"; RFC 3613's (mace's, copied by RFC 4926 geant and
/// RFC 6338 schac) "Identifier assignment:", "Identifier resolution:" and
/// "Lexical equivalence:" are its "Process of identifier assignment",
/// "Process for identifier resolution" and "Rules for Lexical
/// Equivalence".
const OPTIONAL_WORDS: &[&str] = &["considerations", "process", "rules"];

/// Words no heading is told apart by.
const STOP_WORDS: &[&str] = &[
    "of", "for", "the", "a", "an", "and", "on", "in", "to", "with", "by",
];

/// Words real headings use for a label's word (IVIS's `Conformity with
/// URN syntax:` is RFC 3406's `Conformance with URN Syntax:`): read as it.
const WORD_VARIANTS: &[(&str, &str)] = &[
    ("conformity", "conformance"),
    ("conforming", "conformance"),
    ("compliance", "conformance"),
];

/// Headings of sections RFC 3406 section 4.3 asks a formal registration's
/// RFC for, which no template field holds (RFC 7462 and RFC 3541 write
/// them inside their templates): the heading's words, and the section.
const NO_FIELD_HEADINGS: &[&str] = &["namespace considerations", "community considerations"];

/// Headings a registration may write with the namespace's own name in
/// front (`ISBN assignment:` in the isbn, doi, meta and nan texts): the
/// heading's last words, and the field they name.
const NID_PREFIXED: &[(&str, &str)] = &[("assignment", "assignment")];

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
    if fields.namespace_identifier.is_none() && fields.present().next().is_some() {
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
fn from_information<T: std::fmt::Display>(
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
fn line_with<'t>(text: &'t str, word: &str) -> Option<&'t str> {
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
fn read_version(text: &str) -> Option<(i64, bool)> {
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
enum NidRead {
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
fn read_nid(text: &str) -> NidRead {
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
fn names_both_kinds(text: &str) -> bool {
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
fn informal_placeholder(text: &str) -> bool {
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
const NID_REQUEST_WORDS: &[&str] = &[
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
const NOT_A_NID: &[&str] = &[
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
const NID_VALUE_MAX_LINES: usize = 16;

/// How many of the lines of a Namespace Identifier's text (`lines`,
/// non-blank, trimmed) are its value: up to the line from which it reads
/// as the whole does, the line that names the NID. `None` when it reads
/// as nothing, or not within [`NID_VALUE_MAX_LINES`].
fn nid_value_lines(lines: &[&str]) -> Option<usize> {
    let whole = read_nid(&lines.join("\n"));
    if whole == NidRead::None {
        return None;
    }
    (1..=lines.len().min(NID_VALUE_MAX_LINES)).find(|&n| read_nid(&lines[..n].join("\n")).same_as(&whole))
}

/// The first paragraph of a value as one line: a value wrapped on to a
/// second line (`... or assigned by IANA` / `(informal).`) is said whole.
fn first_paragraph(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .take(NID_VALUE_MAX_LINES)
        .collect::<Vec<_>>()
        .join(" ")
}

fn first_line(text: &str) -> &str {
    text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// Where `word` (case-insensitive, as a word of its own) is followed by
/// a value: after it, only `:` or one of `joiners` comes before the value.
fn value_after<'t>(text: &'t str, word: &str, joiners: &[&str]) -> Option<&'t str> {
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
fn digits_apart_from_letters(word: &str) -> Vec<&str> {
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
const ASSIGNMENT_PHRASES: &[&str] = &[
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
fn without_assignment_phrases(text: &str) -> Option<String> {
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
fn nid_named_beside_assignment(text: &str) -> Option<String> {
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
fn quoted_or_informal_nid(text: &str) -> Option<String> {
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
fn is_nid_word(w: &str) -> bool {
    crate::urn::check_nid(w).is_ok() && !NOT_A_NID.iter().any(|n| n.eq_ignore_ascii_case(w))
}

const QUOTES: [char; 7] = ['"', '\'', '`', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}'];

/// A word without the quotes, Markdown emphasis (`**gizmo**`, `_gizmo_`:
/// no NID holds `*` or `_`) and punctuation around it.
fn clean_word(w: &str) -> &str {
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
fn nid_in(text: &str) -> Option<String> {
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

/// Windows-1252 for the bytes 0x80 to 0x9F (the WHATWG Encoding
/// Standard's index); the five bytes it leaves undefined map to the C1
/// control of the same number, as in that standard. Every other byte is
/// the Latin-1 character of the same number.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The character a byte stands for in Windows-1252.
fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The 1-based line of byte `offset` in `bytes`.
fn line_of(bytes: &[u8], offset: usize) -> usize {
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

/// How a heading line was recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
enum HowFound {
    /// One of [`HEADINGS`], as written.
    Exact,
    /// A few edits away from the heading `label` (a misspelling).
    Fuzzy { label: &'static str, distance: usize },
    /// One of [`NID_PREFIXED`] after the namespace's name.
    Prefixed,
    /// The words of the heading `label`, reordered or qualified
    /// ("Identifier assignment process", "... of NSS part").
    Words { label: &'static str },
    /// The words of two headings (`label` and `also`): the text is both
    /// fields' ("Identifier uniqueness and persistence considerations").
    Combined {
        label: &'static str,
        also_label: &'static str,
        also: &'static str,
    },
    /// A section of RFC 3406 section 4.3 that no field holds.
    NoField,
    /// urnreg's description of rules ([`RULES_HEADING`]): no field.
    Rules,
}

/// A heading found on a line.
struct Heading {
    line: usize,
    indent: usize,
    key: &'static str,
    /// The heading as written (without numbering or markup).
    written: String,
    how: HowFound,
    /// Text after the heading's `:` on the same line.
    rest: String,
    /// The next line is an underline (`----`, `====`) that belongs to it.
    underlined: bool,
    /// It carries a section number (`3.1.`).
    numbered: bool,
    /// The section number as written (`3.1.`), if numbered.
    number: String,
    /// A `:` follows the heading.
    colon: bool,
    /// Less indented than the template's run of headings, which are at
    /// this indentation.
    outdented: Option<usize>,
    /// More indented than the template's run of headings, which are at
    /// this indentation: a field heading indented into the value above it
    /// ([`indented_field`]).
    indented: Option<usize>,
}

fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'='))
}

/// Strips a section number such as `3.`, `3.1.` or `4.2` and what
/// follows it; returns the rest and the number (empty when none).
fn strip_numbering(s: &str) -> (&str, &str) {
    let digits_and_dots = s.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    if digits_and_dots == 0 || !s.as_bytes()[0].is_ascii_digit() {
        return (s, "");
    }
    let rest = &s[digits_and_dots..];
    if rest.starts_with(' ') || rest.starts_with('\t') {
        (rest.trim_start(), &s[..digits_and_dots])
    } else {
        (s, "")
    }
}

/// The number of the section a numbered section belongs to: `3` for
/// `3.1.`, empty for `5.`.
fn parent_number(number: &str) -> &str {
    number
        .trim_end_matches('.')
        .rsplit_once('.')
        .map_or("", |(parent, _)| parent)
}

/// The words a heading is told apart by: lower case, without
/// punctuation and [`STOP_WORDS`], a plural `s` dropped, sorted.
fn heading_words(head: &str) -> Vec<String> {
    let mut words: Vec<String> = head
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !STOP_WORDS.contains(&w.as_str()))
        .map(
            |w| match WORD_VARIANTS.iter().find(|(variant, _)| *variant == w) {
                Some((_, word)) => word.to_string(),
                None => w,
            },
        )
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

/// A heading label of [`HEADINGS`] and the field it names.
type LabelKey = (&'static str, &'static str);

/// What a heading's words name.
enum WordMatch {
    /// One field: its label and key.
    One(&'static str, &'static str),
    /// Two fields named together (joined by "and" or "/").
    Two(LabelKey, LabelKey),
}

/// A label of [`HEADINGS`] with its field and its [`heading_words`].
type LabelWords = (&'static str, &'static str, Vec<String>);

/// The words of [`QUALIFIER_WORDS`], and those of each label of
/// [`HEADINGS`] that has two or more: made once (every line ending in a
/// colon is tried as a heading; a text of thousands paid for them each
/// time).
fn label_words() -> &'static (Vec<String>, Vec<LabelWords>) {
    static WORDS: std::sync::OnceLock<(Vec<String>, Vec<LabelWords>)> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let qualifiers = heading_words(&QUALIFIER_WORDS.join(" "));
        let optional = heading_words(&OPTIONAL_WORDS.join(" "));
        let labels = HEADINGS
            .iter()
            .map(|(label, key)| {
                let mut words = heading_words(label);
                words.retain(|w| !optional.contains(w));
                (*label, *key, words)
            })
            .filter(|(_, _, w)| w.len() >= 2)
            .collect();
        (qualifiers, labels)
    })
}

/// The field(s) heading `head` (normalized) names by its words: the words
/// of a label of [`HEADINGS`] (at least two of them), in any order, with
/// no other word but [`QUALIFIER_WORDS`]; or the words of two labels of
/// different fields, joined by "and" or "/". A sentence ending in a colon
/// has other words, and is no heading.
fn word_heading(head: &str) -> Option<WordMatch> {
    // Words only: `<namespace-specific-identifier> :=` is a rule of a
    // grammar, not a heading.
    let wordy = head
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '/' | '-' | '&' | '\''));
    if !wordy || head.split(' ').count() > 10 {
        return None;
    }
    let words = heading_words(head);
    let (qualifiers, labels) = label_words();
    let covers = |needed: &[&Vec<String>]| {
        needed.iter().all(|n| n.iter().all(|w| words.contains(w)))
            && words
                .iter()
                .all(|w| qualifiers.contains(w) || needed.iter().any(|n| n.contains(w)))
    };
    let mut best: Option<(usize, &'static str, &'static str)> = None;
    let mut tie = false;
    for (label, key, w) in labels {
        if !covers(&[w]) {
            continue;
        }
        match best {
            Some((n, _, k)) if n == w.len() && k != *key => tie = true,
            Some((n, _, _)) if n >= w.len() => {}
            _ => {
                best = Some((w.len(), label, key));
                tie = false;
            }
        }
    }
    if let Some((_, label, key)) = best.filter(|_| !tie) {
        return Some(WordMatch::One(label, key));
    }
    if !(head.contains(" and ") || head.contains('/') || head.contains(" & ")) {
        return None;
    }
    let mut found: Option<(usize, LabelKey, LabelKey)> = None;
    for (i, (l1, k1, w1)) in labels.iter().enumerate() {
        for (l2, k2, w2) in &labels[i + 1..] {
            if k1 == k2 || w1.iter().all(|w| w2.contains(w)) || w2.iter().all(|w| w1.contains(w)) {
                continue;
            }
            if !covers(&[w1, w2]) {
                continue;
            }
            let size = w1.len() + w2.len();
            if found.is_none_or(|(n, _, _)| size > n) {
                found = Some((size, (*l1, *k1), (*l2, *k2)));
            }
        }
    }
    found.map(|(_, a, b)| WordMatch::Two(a, b))
}

/// Strips Markdown heading marks and bold (`## Purpose`, `**Syntax:**`).
fn strip_markup(s: &str) -> &str {
    // A Markdown list item's marker (CommonMark 5.2: `-`, `*` or `+` and a
    // space): a template written as a bulleted list of its fields.
    let s = match s.as_bytes() {
        [b'-' | b'*' | b'+', b' ' | b'\t', ..] => s[2..].trim_start(),
        _ => strip_list_marker(s),
    };
    let s = match s.strip_prefix('#') {
        Some(_) => s.trim_start_matches('#').trim_start(),
        None => s,
    };
    match s.strip_prefix("**") {
        Some(inner) => inner.trim_start(),
        None => without_emphasis(s),
    }
}

/// Line `i` (whose text, without markup, is `text`) goes on with a
/// sentence the line above began: it starts with a lower-case letter,
/// and the line above is text at the same indentation or less that ends
/// with no full stop, colon or other mark that closes a sentence.
fn continues_sentence(lines: &[&str], i: usize, text: &str) -> bool {
    let Some(above) = i.checked_sub(1).map(|j| lines[j]) else {
        return false;
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    text.trim_start().starts_with(|c: char| c.is_lowercase())
        && !above.trim().is_empty()
        && indent(above) <= indent(lines[i])
        && !above.trim_end().ends_with(['.', ':', '!', '?', ';'])
}

/// Markdown's other emphasis around a heading (`*Namespace ID:*`,
/// `_Scope:_`, `__Syntax:__`; CommonMark 6.2): the opening marker, right
/// before a letter, is no part of it. [`find_heading`] takes the closing
/// one off the heading's end and its text's start.
fn without_emphasis(s: &str) -> &str {
    for marker in ["__", "*", "_"] {
        if let Some(inner) = s.strip_prefix(marker)
            && inner.starts_with(|c: char| c.is_alphabetic())
        {
            return inner;
        }
    }
    s
}

/// The text after a heading's colon without the colons that double it:
/// AsciiDoc writes a definition list's term as `Namespace Identifier::`
/// (or `:::`), and a heading typed with two colons is one heading. Only
/// colons that stand alone before a space or the line's end: `::=`
/// (ABNF after a heading) stays.
fn without_more_colons(rest: &str) -> &str {
    let after = rest.trim_start_matches(':');
    if after.len() < rest.len() && (after.is_empty() || after.starts_with([' ', '\t'])) {
        after
    } else {
        rest
    }
}

/// Bullets a template's fields are listed with, other than Markdown's:
/// the `o` of RFC 7749's symbol lists as xml2rfc v2 writes them in text
/// (`   o  Namespace ID:`), the bullets a word processor or a PDF copy
/// leaves (`•`, `◦`, `▪`, `‣`, `·`, `–`).
const BULLETS: &[&str] = &[
    "o", "\u{2022}", "\u{25e6}", "\u{25aa}", "\u{2023}", "\u{b7}", "\u{2013}",
];

/// A line without the list marker before a field's heading (the fields of
/// a template written as a list, as registrants drafting in a word
/// processor, ISO and ITU documents and xml2rfc v2 text write them): one of
/// [`BULLETS`], or an item's letter or number in brackets (`a)`, `(b)`,
/// `1)`, `(12)`), then a space. The heading is then read as unlisted; a
/// section number (`3.1.`) is [`strip_numbering`]'s.
fn strip_list_marker(s: &str) -> &str {
    fn spaced(rest: &str) -> Option<&str> {
        rest.starts_with([' ', '\t']).then(|| rest.trim_start())
    }
    if let Some(rest) = BULLETS.iter().find_map(|b| s.strip_prefix(b).and_then(spaced)) {
        return rest;
    }
    let (open, body) = match s.strip_prefix('(') {
        Some(body) => (true, body),
        None => (false, s),
    };
    let Some((item, rest)) = body.split_once(')') else {
        return s;
    };
    let letter = item.len() == 1 && item.bytes().all(|b| b.is_ascii_alphabetic());
    let number = (1..=2).contains(&item.len()) && item.bytes().all(|b| b.is_ascii_digit());
    match spaced(rest) {
        Some(rest) if (letter || number) && (open || !item.is_empty()) => rest,
        _ => s,
    }
}

/// Lower case, single spaces, no trailing markup: how headings compare.
fn normalize(head: &str) -> String {
    head.trim_end_matches(['*', '_'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether a section's title (an xml2rfc source's, without numbering)
/// names a template field as written or by its words; not an RFC section
/// every RFC has ([`RFC_SECTION_TITLES`]).
pub(super) fn titles_a_field(title: &str) -> bool {
    let title = normalize(strip_numbering(title.trim()).0.trim_end_matches(':'));
    if title.len() > 80 || RFC_SECTION_TITLES.contains(&title.as_str()) {
        return false;
    }
    HEADINGS.iter().any(|(label, _)| *label == title) || word_heading(&title).is_some()
}

/// How many edits a misspelled heading may be from its label: none for
/// short labels (`date`, `scope`: too many words are one edit away), one
/// up to twelve characters, two beyond.
fn edit_budget(label: &str) -> usize {
    match label.chars().count() {
        0..=5 => 0,
        6..=12 => 1,
        _ => 2,
    }
}

/// The optimal-string-alignment distance between `a` and `b` (insertions,
/// deletions, substitutions and swaps of neighbours), or `None` when it is
/// more than `limit`.
fn edit_distance(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let width = b.len() + 1;
    let mut prev2 = vec![0usize; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut cur = vec![0usize; width];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > limit {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= limit)
}

/// The heading `head` (normalized) is a misspelling of: the closest label
/// within its edit budget, if no label of another field is as close.
fn fuzzy_heading(head: &str) -> Option<(&'static str, &'static str, usize)> {
    // Headings are a few words; a sentence ending in ':' is not one.
    if head.chars().count() > 60 || head.split(' ').count() > 6 {
        return None;
    }
    let chars: Vec<char> = head.chars().collect();
    let mut best: Option<(&'static str, &'static str, usize)> = None;
    let mut tie = false;
    for (label, key) in HEADINGS {
        // Lengths further apart than the budget need more edits (labels
        // are ASCII): no distance to work out.
        if label.len().abs_diff(chars.len()) > edit_budget(label) {
            continue;
        }
        let label_chars: Vec<char> = label.chars().collect();
        let Some(d) = edit_distance(&chars, &label_chars, edit_budget(label)) else {
            continue;
        };
        match best {
            Some((_, k, bd)) if d == bd && k != *key => tie = true,
            Some((_, _, bd)) if d >= bd => {}
            _ => {
                best = Some((label, key, d));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie)
}

/// The heading on line `i`, if it is one. `nid` is the namespace's name
/// when known, for headings such as `ISBN assignment:`.
fn find_heading(lines: &[&str], i: usize, nid: Option<&str>) -> Option<Heading> {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let (text, number) = strip_numbering(line.trim());
    let marked = text;
    let text = strip_markup(text);
    // The heading was emphasized (`*Namespace ID:*`): the closing marker
    // after its colon is no text of the value.
    let emphasized = without_emphasis(marked.trim_start_matches(['-', '+', '#', ' '])).len()
        < marked.trim_start_matches(['-', '+', '#', ' ']).len();
    // A Markdown heading's own number (`## 3.1. Namespace ID`).
    let (text, number) = if number.is_empty() {
        strip_numbering(text)
    } else {
        (text, number)
    };
    let numbered = !number.is_empty();
    let underlined = lines.get(i + 1).is_some_and(|l| is_underline(l));
    let (head, rest, colon) = match text.find(':') {
        Some(p) => (
            &text[..p],
            without_more_colons(&text[p + 1..])
                .trim()
                .trim_start_matches("**")
                .trim_start_matches(|c| emphasized && matches!(c, '*' | '_'))
                .trim(),
            true,
        ),
        // `Version 1` alone on its line (urn-4's template): the field and
        // its value, as `Version: 1`.
        None => match text.split_once(' ') {
            Some((word, number))
                if word.eq_ignore_ascii_case("version")
                    && !number.trim().is_empty()
                    && number.trim().bytes().all(|b| b.is_ascii_digit()) =>
            {
                (word, number.trim(), true)
            }
            _ => (text, "", false),
        },
    };
    let norm = normalize(head);
    if norm.is_empty() {
        return None;
    }
    let heading = |key: &'static str, how: HowFound| Heading {
        line: i,
        indent,
        key,
        written: head.trim().trim_end_matches(['*', '_']).trim().to_string(),
        how,
        rest: rest.to_string(),
        underlined,
        numbered,
        number: number.to_string(),
        colon,
        outdented: None,
        indented: None,
    };
    // urnreg's own description of a registration's rules (what `template
    // render` writes under this heading) is never a template field.
    if norm.eq_ignore_ascii_case(RULES_HEADING) {
        return Some(heading("", HowFound::Rules));
    }
    if let Some((_, key)) = HEADINGS.iter().find(|(label, _)| *label == norm) {
        // A bare line that is a heading's text is a heading only if it is
        // nothing else: the whole line, numbered, or underlined; and not
        // the lower-case end of a sentence the line above began (`The
        // assignedNID component is the informal` / `namespace identifier`
        // / `assigned by IANA.`, as a re-wrapped text leaves it).
        let bare = !(colon || numbered || underlined);
        if !bare || !continues_sentence(lines, i, text) && text.trim() == head.trim() {
            return Some(heading(key, HowFound::Exact));
        }
    }
    // Guesses only for lines that look like headings.
    if !(colon || numbered || underlined) {
        return None;
    }
    if let Some(nid) = nid
        && let Some((first, tail)) = norm.split_once(' ')
        && first.eq_ignore_ascii_case(nid)
        && let Some((_, key)) = NID_PREFIXED.iter().find(|(label, _)| *label == tail)
    {
        return Some(heading(key, HowFound::Prefixed));
    }
    if NO_FIELD_HEADINGS
        .iter()
        .any(|h| heading_words(h) == heading_words(&norm))
    {
        return Some(heading("", HowFound::NoField));
    }
    match word_heading(&norm) {
        Some(WordMatch::One(label, key)) => return Some(heading(key, HowFound::Words { label })),
        Some(WordMatch::Two((label, key), (also_label, also))) => {
            return Some(heading(
                key,
                HowFound::Combined {
                    label,
                    also_label,
                    also,
                },
            ));
        }
        None => {}
    }
    // A heading glossed after a slash, its first part a template heading
    // (RFC 7207's "Scope / kind of named resources:", eurosystem's): that
    // field, as by its words.
    if let Some((first, _)) = norm.split_once('/')
        && let Some((label, key)) = HEADINGS.iter().find(|(label, _)| *label == first.trim())
    {
        return Some(heading(key, HowFound::Words { label }));
    }
    let (label, key, distance) = fuzzy_heading(&norm)?;
    Some(heading(key, HowFound::Fuzzy { label, distance }))
}

/// What a line of an RFC's page break becomes: no text, and no line
/// either (line numbers stay those of the input).
const PAGE_BREAK: &str = "\u{0}";

/// Blanks out the page breaks of an RFC extract (RFC 7322 section 4.8's
/// layout): the footer ending in `[Page N]`, the form feed, the next
/// page's running header (`RFC 4854 ... April 2007`, or an
/// Internet-Draft's), and the blank lines that pad them, so that no
/// field holds them and a paragraph split by a page reads whole.
fn drop_page_breaks(lines: &mut [&str]) {
    let is_blank = |l: &str| {
        l.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
            .is_empty()
    };
    let is_footer = |l: &str| {
        let t = l.trim();
        t.ends_with(']')
            && t.rfind("[Page ")
                .is_some_and(|at| t[at + 6..t.len() - 1].trim().bytes().all(|b| b.is_ascii_digit()))
    };
    // Other documents' running footers and headers (`Page 3 of 9`, `- 3 -`,
    // a draft's `Internet Draft ...`, a title alone), told by where they
    // stand: around the form feeds of a paginated text.
    let running = running_furniture(lines);
    let is_footer = |i: usize, l: &str| is_footer(l) || running.footers.contains(&i);
    let is_header = |i: usize, l: &str| {
        let t = l.trim_start_matches('\u{c}').trim_start();
        ((t.starts_with("RFC ") || t.starts_with("Internet-Draft") || t.starts_with("INTERNET-DRAFT"))
            && t.contains("   "))
            || running.headers.contains(&i)
    };
    // Line lengths are measured from the text's left margin, so that an
    // indented copy of a text breaks the same.
    let margin = lines
        .iter()
        .filter(|l| !is_blank(l))
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let footer = is_footer(i, line);
        if !footer && !line.contains('\u{c}') {
            i += 1;
            continue;
        }
        if !(footer || is_blank(line) || is_header(i, line)) {
            // Text after a form feed is text.
            lines[i] = line.trim_matches('\u{c}');
            i += 1;
            continue;
        }
        lines[i] = PAGE_BREAK;
        // The padding before it.
        let mut back = i;
        while back > 0 && is_blank(lines[back - 1]) {
            back -= 1;
            lines[back] = PAGE_BREAK;
        }
        // The form feed, the next page's header and the padding after.
        let mut j = i + 1;
        while j < lines.len() && is_blank(lines[j]) {
            lines[j] = PAGE_BREAK;
            j += 1;
        }
        if j < lines.len() && is_header(j, lines[j]) {
            lines[j] = PAGE_BREAK;
            j += 1;
            while j < lines.len() && is_blank(lines[j]) {
                lines[j] = PAGE_BREAK;
                j += 1;
            }
        }
        if back > 0
            && j < lines.len()
            && page_broke_between_paragraphs(lines[back - 1], lines[j], margin, i - back)
        {
            lines[back] = "";
        }
        reattach_underline(lines, back, j);
        i = j;
    }
    // A page's padding whose footer and header were deleted (an "rfc
    // strip" macro, a copy from a paginated viewer): a run of more blank
    // lines than any paragraph gap is read as a page break too, one blank
    // line, or none inside a sentence.
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim().is_empty() || lines[i] == PAGE_BREAK {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].trim().is_empty() && lines[i] != PAGE_BREAK {
            i += 1;
        }
        if start == 0 || i == lines.len() || i - start < PADDING_RUN {
            continue;
        }
        // The run is the page's padding and the blank lines below its
        // header: a form feed's line and two (RFC 7322 section 4.1).
        let goes_on =
            !page_broke_between_paragraphs(lines[start - 1], lines[i], margin, (i - start).saturating_sub(3));
        for line in &mut lines[start..i - usize::from(!goes_on)] {
            *line = PAGE_BREAK;
        }
        reattach_underline(lines, start, i);
    }
}

/// A setext underline (`----`, `====`) that a page break parted from
/// the field title above it (the title the last line of its page, the
/// underline the first of the next): put back right under the title, on
/// the page break's first line (`from`, the one after the title), and
/// its own line (`to`, the first after the break) made part of the
/// break, so that the title reads as underlined and no field holds the
/// underline.
fn reattach_underline(lines: &mut [&str], from: usize, to: usize) {
    if from == 0 || from >= to || to >= lines.len() || !is_underline(lines[to]) {
        return;
    }
    let title = from - 1;
    if lines[title].trim().is_empty() || lines[title] == PAGE_BREAK {
        return;
    }
    if find_heading(lines, title, None).is_none_or(|h| h.key.is_empty()) {
        return;
    }
    lines[from] = lines[to];
    lines[to] = PAGE_BREAK;
}

/// The running footers and headers of a paginated text in other forms
/// than an RFC's, by line: the last line above each form feed and the
/// first below it, when the same line (its numbers aside) stands there
/// at two page breaks or more, or is a page number (`3`, `- 3 -`, `Page
/// 3`, `Page 3 of 9`, also at the end of a footer's line); also, at a
/// text's only page break, a footer or header laid out in columns and
/// set apart from the page's text by a blank line, and a header in three
/// columns (`Internet Draft   Title   March 1999`), as running headers are.
struct Running {
    footers: HashSet<usize>,
    headers: HashSet<usize>,
}

fn running_furniture(lines: &[&str]) -> Running {
    let blank = |l: &str| {
        l.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
            .is_empty()
    };
    let mut footers = Vec::new();
    let mut headers = Vec::new();
    let breaks: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains('\u{c}')).collect();
    for (k, &at) in breaks.iter().enumerate() {
        let floor = if k > 0 { breaks[k - 1] + 1 } else { 0 };
        let ceiling = breaks.get(k + 1).copied().unwrap_or(lines.len());
        // Text before the form feed on its own line is the footer's.
        let above = lines[at].split('\u{c}').next().unwrap_or("");
        if !blank(above) {
            footers.push(at);
        } else if let Some(f) = (floor..at).rev().find(|&i| !blank(lines[i])) {
            footers.push(f);
        }
        let below = lines[at].rsplit('\u{c}').next().unwrap_or("");
        if !blank(below) {
            headers.push(at);
        } else if let Some(h) = (at + 1..ceiling).find(|&i| !blank(lines[i])) {
            headers.push(h);
        }
    }
    // Counted in a map: a text may hold a form feed on every line.
    let recurring = |found: &[usize]| -> HashSet<String> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for &i in found {
            *seen.entry(page_shape(lines[i])).or_default() += 1;
        }
        seen.into_iter().filter(|(_, n)| *n > 1).map(|(s, _)| s).collect()
    };
    let footer_shapes = recurring(&footers);
    let header_shapes = recurring(&headers);
    // A line set apart by a blank line from the page's text, in two
    // columns or more (`Doe    Expires September 2, 2016`).
    let apart = |i: usize, step: isize| {
        columns(lines[i]) >= 2
            && i.checked_add_signed(step)
                .and_then(|j| lines.get(j))
                .is_some_and(|l| blank(l))
    };
    footers.retain(|&i| {
        let s = page_shape(lines[i]);
        footer_shapes.contains(&s)
            || is_page_number(&s)
            || ends_with_page_number(lines[i].trim())
            || apart(i, -1)
    });
    headers.retain(|&i| {
        let s = page_shape(lines[i]);
        header_shapes.contains(&s) || columns(lines[i]) >= 3 || apart(i, 1)
    });
    Running {
        footers: footers.into_iter().collect(),
        headers: headers.into_iter().collect(),
    }
}

/// A running line's wording, its numbers aside: its words one space
/// apart, each run of digits one `#` (`Page 3 of 9` is `Page # of #`).
fn page_shape(line: &str) -> String {
    let mut out = String::new();
    for word in line
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
        .split_whitespace()
    {
        if !out.is_empty() {
            out.push(' ');
        }
        let mut digits = false;
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !digits {
                    out.push('#');
                }
                digits = true;
            } else {
                out.push(c);
                digits = false;
            }
        }
    }
    out
}

/// A page number as a footer writes it, its digits made `#`: `#`, `- # -`,
/// `Page #`, `Page # of #`, `# of #`, `#/#`.
fn is_page_number(shape: &str) -> bool {
    let lower = shape.to_ascii_lowercase();
    let rest = lower.strip_prefix("page ").unwrap_or(&lower);
    matches!(rest, "#" | "- # -" | "-#-" | "# of #" | "#/#" | "# / #")
}

/// A footer's line that ends with its page number after a gap of three
/// spaces or more (`Doe    Expires March 1999    Page 3`).
fn ends_with_page_number(line: &str) -> bool {
    let Some(at) = line.rfind("   ") else {
        return false;
    };
    !line[..at].trim().is_empty() && is_page_number(&page_shape(&line[at..]))
}

/// The columns a line is laid out in, parted by gaps of three spaces or
/// more: a running header's left, centre and right are three.
fn columns(line: &str) -> usize {
    let t = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}');
    t.split("   ").filter(|part| !part.trim().is_empty()).count()
}

/// Blank lines in a row that no paragraph gap has: a page's padding.
const PADDING_RUN: usize = 4;

/// The blank lines an RFC page ends with at least (RFC 7322 section 4.1's
/// pages, as formatters pad them): more, and the page was cut short.
const PAGE_PADDING: usize = 3;

/// The widest line of an RFC (RFC 7322 section 4.1).
const RFC_LINE_WIDTH: usize = 72;

/// Whether a page broke between two paragraphs (or list items) rather
/// than inside one: the line before the break ends a sentence, and the
/// first word after it would have fitted on that line, so a formatter
/// filling the paragraph would have put it there; or the line after it
/// starts a grammar rule.
fn page_broke_between_paragraphs(before: &str, after: &str, margin: usize, padding: usize) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let shallower = indent(after) < indent(before);
    let capital = after.trim_start().starts_with(|c: char| c.is_uppercase());
    let before = before.trim_end();
    let ends_sentence = before
        .trim_end_matches(['"', ')', '\'', '\u{201d}'])
        .ends_with(['.', '!', '?', ':']);
    let next_word = after.split_whitespace().next().unwrap_or("");
    let used = before.chars().count().saturating_sub(margin);
    // A grammar's next rule (`rfc-nss = "rfc:" 1*DIGIT`, RFC 5234 section
    // 2.2) starts a group of its own: rules are parted by a blank line.
    let rule = after.trim_start();
    let name = rule
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(rule.len());
    let next_rule = name > 0 && rule[name..].trim_start().starts_with('=');
    // So does a list's next bullet (`*  "Lamp Catalogue" [CAT].`, `o  ...`,
    // RFC 7322's bullets) and a note. (A numbered line may be a section's
    // title as well as an item: `is_section_title` tells them apart.)
    let next_item =
        matches!(rule.split_once(' '), Some(("*" | "-" | "o" | "+", _))) || rule.starts_with("NOTE:");
    let fitted = used + 1 + next_word.chars().count() <= RFC_LINE_WIDTH;
    // Or a line the next word would have fitted on ends a display left of
    // which the text goes on (`http://www.dvb.org/metadata` at column 9,
    // then `DVB will ...` at 6; RFC 3121's grammar, then `where ...`); or
    // a sentence ended and a new one begins on a page cut short (more
    // padding than a full page has: RFC 6288's `... may not be
    // reassigned.`, 7 blank lines, `The DGIWG may permit ...`). A full
    // page ending a sentence goes on with the paragraph (RFC 3614's
    // `... URN catalogs.` / `The presence of a URN ...`, one paragraph in
    // IANA's mpeg text).
    (fitted && (ends_sentence || shallower))
        || ((ends_sentence || fitted) && capital && padding > PAGE_PADDING)
        || next_rule
        || next_item
}

/// Removes the common indentation and the blank lines at both ends.
fn dedent(lines: &[&str]) -> String {
    dedent_under(lines, usize::MAX)
}

/// [`dedent`] for a field's text below a heading indented `heading`
/// columns: when the only lines at or left of the heading's indentation
/// are laid out as headings themselves (`Designated contact:`, a heading
/// that names no field, kept in the text), the others are dedented by
/// their own least indentation and those lose their own spaces only.
fn dedent_under(lines: &[&str], heading: usize) -> String {
    let kept: Vec<&str> = lines.iter().copied().filter(|l| *l != PAGE_BREAK).collect();
    let lines = &kept[..];
    let filled = || (0..lines.len()).filter(|&i| !lines[i].trim().is_empty());
    let indent_of = |i: usize| lines[i].len() - lines[i].trim_start().len();
    // A heading's line: short, ending in a colon, a blank line after it
    // (`Text of a list:` right above its items introduces them).
    let headed = |i: usize| {
        let t = lines[i].trim();
        t.ends_with(':')
            && t.split_whitespace().count() <= 6
            && lines.get(i + 1).is_none_or(|next| next.trim().is_empty())
    };
    let outdented_headings_only = heading != usize::MAX
        && filled().filter(|&i| indent_of(i) <= heading).all(headed)
        && filled().any(|i| indent_of(i) > heading);
    let indent = if outdented_headings_only {
        filled().map(indent_of).filter(|&n| n > heading).min()
    } else {
        filled().map(indent_of).min()
    }
    .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| {
            let own = l.len() - l.trim_start().len();
            l[own.min(indent)..].trim_end()
        })
        .collect();
    let start = body.iter().position(|l| !l.is_empty()).unwrap_or(body.len());
    let end = body.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    body[start..end].join("\n")
}

/// Section titles every RFC has (RFC 7322 section 4.8.5) that are also
/// wordings of a template heading.
const RFC_SECTION_TITLES: &[&str] = &["security considerations"];

/// The headings of `lines` that delimit fields: numbered headings
/// (RFC-style sections) win over everything else; otherwise those at the
/// outermost indentation.
///
/// A numbered title without a colon that every RFC has (`5.  Security
/// Considerations`) is a section of the RFC around a template, not one of
/// its fields, unless the template itself is written as numbered
/// sections: at least two sections with the same parent number (`3.1.
/// Namespace ID`, `3.2.  Registration Information`) name fields.
fn field_headings(lines: &[&str], nid: Option<&str>) -> (Vec<Heading>, Vec<Heading>) {
    let contents = table_of_contents(lines).unwrap_or(0..0);
    let mut candidates: Vec<Heading> = (0..lines.len())
        .filter(|i| !contents.contains(i))
        .filter_map(|i| find_heading(lines, i, nid))
        .collect();
    // Field titles per parent number, counted once (a text of many
    // headings must not be walked again for each).
    let mut titles: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for h in candidates
        .iter()
        .filter(|h| h.numbered && !h.colon && !h.key.is_empty())
    {
        *titles.entry(parent_number(&h.number)).or_default() += 1;
    }
    let siblings: Vec<usize> = candidates
        .iter()
        .map(|h| titles.get(parent_number(&h.number)).copied().unwrap_or(0))
        .collect();
    // A template of `Field:` lines: a numbered title without a colon
    // outside a numbered template is the RFC's own section (RFC 4122's
    // `4.1.3.  Version`, after its template in section 3), never a field.
    let colon_template = candidates.iter().filter(|h| h.colon && !h.key.is_empty()).count() >= 2;
    let mut keep = siblings.iter().map(|n| *n >= 2);
    candidates.retain(|h| {
        let numbered_template = keep.next().unwrap_or(false);
        // RFC 3406 section 4.3's sections (no field) are RFC sections too.
        let every_rfcs = h.key.is_empty() || RFC_SECTION_TITLES.contains(&normalize(&h.written).as_str());
        !h.numbered || h.colon || numbered_template || !(every_rfcs || colon_template)
    });
    let Some(level) = template_level(&candidates) else {
        return (Vec::new(), Vec::new());
    };
    let mut set_aside = Vec::new();
    let mut kept = Vec::new();
    let at_level: Vec<&'static str> = match level {
        Level::Indent(level) => candidates
            .iter()
            .filter(|h| h.indent == level && !h.key.is_empty())
            .map(|h| h.key)
            .collect(),
        Level::Numbered => Vec::new(),
    };
    for mut h in candidates {
        let keep = match level {
            Level::Numbered => h.numbered || h.underlined,
            Level::Indent(level) if h.indent == level => true,
            // Deeper: a line of a value (RFC 3406's indented sub-items),
            // unless it is a field's own heading indented into the value
            // above it, said in a note.
            Level::Indent(level) if h.indent > level => {
                if indented_field(lines, &h, &at_level) {
                    h.indented = Some(level);
                    true
                } else {
                    false
                }
            }
            // Less indented than the template's own run of headings: an
            // RFC's unnumbered section title ("Security Considerations"
            // at column 0) is no field; a heading with a colon is one (a
            // paste whose first line lost its indentation), said in a
            // note. Neither moves the others.
            Level::Indent(level) => {
                let bare = !(h.colon || h.numbered || h.underlined);
                if bare && UNNUMBERED_RFC_TITLES.contains(&normalize(&h.written).as_str()) {
                    continue;
                }
                // A numbered title without a colon is the RFC's section
                // (RFC 8458's `4.1.  Assignment`, `4.2.  Syntax` before
                // its template of `Field:` lines; RFC 3044's `6. Security
                // Considerations` after one), whatever other titles share
                // its parent.
                if h.numbered && !h.colon {
                    set_aside.push(h);
                    continue;
                }
                h.outdented = Some(level);
                true
            }
        };
        if keep {
            kept.push(h);
        } else {
            set_aside.push(h);
        }
    }
    if level == Level::Numbered {
        opening_field_lines(lines, &mut kept, &mut set_aside);
    }
    (kept, set_aside)
}

/// Whether `h`, more indented than the template's headings (which name
/// the fields `at_level`), is a field's heading all the same: RFC 3044
/// indents `Relevant ancillary documentation:` to its values' column at
/// the end of Declaration of syntactic structure, RFC 3937 `Declared
/// registrant of the namespace:`. It is the exact wording of a field of
/// the template's form that no heading at the margin names, alone on its
/// line with its colon, after a blank line.
fn indented_field(lines: &[&str], h: &Heading, at_level: &[&str]) -> bool {
    let form = |key: &str| {
        FIELDS
            .iter()
            .find(|f| f.0 == key && !matches!(key, "namespace_identifier" | "version" | "date"))
            .map(|f| f.2)
    };
    let modern = at_level.iter().filter(|k| form(k) == Some(true)).count();
    let legacy = at_level.iter().filter(|k| form(k) == Some(false)).count();
    let same_form = match form(h.key) {
        Some(true) => modern > legacy,
        Some(false) => legacy > modern,
        None => false,
    };
    matches!(h.how, HowFound::Exact)
        && h.colon
        && h.rest.is_empty()
        && !h.numbered
        && !h.underlined
        && same_form
        && !matches!(h.key, "namespace_identifier" | "version" | "date")
        && !at_level.contains(&h.key)
        && h.line > 0
        && (lines[h.line - 1].trim().is_empty() || lines[h.line - 1] == PAGE_BREAK)
}

/// In a template of numbered sections, the `Field:` lines its parent
/// section opens with, before its first numbered field, are its fields
/// too (RFC 9039 section 3, `3.  DEV URN Definition`: `Namespace
/// Identifier:  "dev"`, `Version:  1`, `Date:  2020-06-24`, `Registrant:`,
/// then `3.1.  Purpose` to `3.9.  Revision Information`): those at the
/// indentation of the first of them, naming fields no numbered section
/// names, are moved from `set_aside` to `kept`.
fn opening_field_lines(lines: &[&str], kept: &mut Vec<Heading>, set_aside: &mut Vec<Heading>) {
    let Some(first) = kept.iter().find(|h| h.numbered && !h.key.is_empty()) else {
        return;
    };
    let parent = parent_number(&first.number);
    if parent.is_empty() {
        return;
    }
    let Some(title) = (0..first.line)
        .rev()
        .find(|&i| strip_numbering(lines[i].trim()).1.trim_end_matches('.') == parent)
    else {
        return;
    };
    let within = |h: &Heading| {
        h.line > title
            && h.line < first.line
            && h.colon
            && !h.numbered
            && !h.key.is_empty()
            && !kept.iter().any(|k| k.key == h.key)
    };
    let Some(indent) = set_aside.iter().find(|h| within(h)).map(|h| h.indent) else {
        return;
    };
    let (opening, rest): (Vec<Heading>, Vec<Heading>) = std::mem::take(set_aside)
        .into_iter()
        .partition(|h| within(h) && h.indent == indent);
    *set_aside = rest;
    kept.extend(opening);
    kept.sort_by_key(|h| h.line);
}

/// The lines of an RFC's table of contents (RFC 7322 section 4.7): its
/// title, then its entries, one run of lines indented right of the title
/// (page breaks inside it), up to the first blank line or the first line
/// at or left of the title (the body's first section title). xml2rfc v3
/// writes the entries without dot leaders or page numbers (RFC 9039's
/// `     3.1.  Purpose`, `     3.4.  Security and Privacy`), as a
/// numbered template's field titles look: none of them is a field.
fn table_of_contents(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let title = lines
        .iter()
        .position(|l| matches!(normalize(l.trim()).as_str(), "table of contents" | "contents"))?;
    let indent = indent_of(lines[title]);
    let first = (title + 1..lines.len()).find(|&i| !blank_or_break(lines[i]))?;
    let end = (first..lines.len())
        .find(|&i| lines[i] != PAGE_BREAK && (lines[i].trim().is_empty() || indent_of(lines[i]) <= indent))
        .unwrap_or(lines.len());
    Some(title..end)
}

/// Where a template's field headings are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// Numbered (or underlined) sections, at any indentation.
    Numbered,
    /// Lines at this indentation.
    Indent(usize),
}

/// The template's own run of headings among `candidates`: the
/// indentation at which the most different fields are named (the least
/// indented of equals), or numbered sections when they name as many. One
/// heading set apart (an RFC's section title at column 0 around a
/// template indented 3 or 6 columns, a first line that lost its
/// indentation) never decides where the others are.
fn template_level(candidates: &[Heading]) -> Option<Level> {
    use std::collections::{HashMap, HashSet};
    if candidates.is_empty() {
        return None;
    }
    let mut numbered: HashSet<&str> = HashSet::new();
    let mut by_indent: HashMap<usize, HashSet<&str>> = HashMap::new();
    for h in candidates.iter().filter(|h| !h.key.is_empty()) {
        if h.numbered || h.underlined {
            numbered.insert(h.key);
        }
        if !h.numbered {
            by_indent.entry(h.indent).or_default().insert(h.key);
        }
    }
    let best = by_indent
        .iter()
        .map(|(indent, keys)| (keys.len(), std::cmp::Reverse(*indent)))
        .max();
    match best {
        Some((n, std::cmp::Reverse(indent))) if n > numbered.len() => Some(Level::Indent(indent)),
        _ if !numbered.is_empty() => Some(Level::Numbered),
        // Only headings that name no field (RFC 3406 section 4.3's).
        _ => Some(
            candidates
                .iter()
                .map(|h| h.indent)
                .min()
                .map_or(Level::Numbered, Level::Indent),
        ),
    }
}

/// Unnumbered section titles of an RFC (RFC 7322 section 4; RFC 2611-
/// and RFC 3406-era RFCs number few of them) that are no template field
/// when they stand alone on a line left of the template's headings: they
/// end a template they follow, and "Security Considerations" is read as
/// the RFC's section (see [`security_section`]).
const UNNUMBERED_RFC_TITLES: &[&str] = &[
    "abstract",
    "copyright notice",
    "iana considerations",
    "introduction",
    "security considerations",
    "status of this memo",
    "table of contents",
];

/// Unnumbered section titles of an RFC (RFC 7322 section 4) that follow
/// its body: a template has ended where one starts.
const BACK_MATTER: &[&str] = &[
    "acknowledgements",
    "acknowledgments",
    "author's address",
    "authors' addresses",
    "contributors",
    "full copyright statement",
    "informative references",
    "intellectual property",
    "normative references",
    "references",
];

/// Whether `line` (index `i`) is the title of an RFC section: `N.` or
/// `N.N.` and a short title with no colon and no full stop, with a blank
/// line before and after it (RFC 7322 section 4's layout), or one of
/// [`BACK_MATTER`] or `Appendix X.`, at or left of `margin`.
fn is_section_title(lines: &[&str], i: usize, margin: usize) -> bool {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    // (A page break is no title: looking past a run of them from each of
    // its lines would cost the square of the run.)
    if indent > margin || blank_or_break(line) {
        return false;
    }
    let blank = |l: &&str| blank_or_break(l);
    let before = lines[..i].iter().rev().find(|l| **l != PAGE_BREAK);
    let after = lines[i + 1..].iter().find(|l| **l != PAGE_BREAK);
    // A page break right before it stands for the blank line: a formatter
    // moves a title that would end a page on to the next (xml2rfc); not
    // before a list's next item (`2.` with `1.` at its indentation a few
    // lines up).
    let broke_before = i > 0 && lines[i - 1] == PAGE_BREAK && !continues_a_list(lines, i);
    // And one right after it, for a title a formatter left at the foot of
    // a page (the page's padding before its footer dropped with it): a
    // short line after a blank one, no line a paragraph or a list's item
    // filled (a wrapped line runs to near the right margin).
    let broke_after = lines.get(i + 1) == Some(&PAGE_BREAK)
        && before.is_none_or(blank)
        && line.trim().chars().count() <= 48;
    if !((broke_before || before.is_none_or(blank)) && (broke_after || after.is_none_or(blank))) {
        return false;
    }
    let trimmed = line.trim();
    let (title, number) = strip_numbering(trimmed);
    // A section number has a dot and parts of one or two digits (`5.`,
    // `3.1`); `1320 N. Courthouse Rd.` is an address.
    let number = if number.contains('.') && number.split('.').all(|part| part.len() <= 2) {
        number
    } else {
        ""
    };
    let title = title.trim();
    let appendix = trimmed
        .strip_prefix("Appendix ")
        .is_some_and(|r| r.split_once('.').is_some_and(|(letter, _)| letter.len() == 1));
    // With a colon too: `References:` at the fields' margin after a
    // registration mail's template (the urn-5 request of 2002).
    if appendix || BACK_MATTER.contains(&normalize(title.trim_end_matches(':')).as_str()) {
        return true;
    }
    // An RFC's unnumbered section title: left of the template's headings;
    // at their margin too (with or without a colon) when no template field
    // has that name ("IANA Considerations:" after a template's RFC 3406
    // section 4.3 sections).
    let unnumbered = normalize(title.trim_end_matches(':'));
    if number.is_empty() && UNNUMBERED_RFC_TITLES.contains(&unnumbered.as_str()) {
        let names_a_field = HEADINGS.iter().any(|(label, _)| *label == unnumbered);
        if indent < margin || !names_a_field {
            return true;
        }
    }
    !number.is_empty()
        && title.starts_with(|c: char| c.is_alphabetic() || QUOTES.contains(&c) || c == '<')
        && !title.contains(':')
        && !title.ends_with(['.', ',', ';'])
        && title.split_whitespace().count() <= 12
}

/// Whether line `i`, numbered `N.` (N above 1), follows an item `N-1.` at
/// its indentation in the 40 lines before it: a list's next item, not a
/// section's title.
fn continues_a_list(lines: &[&str], i: usize) -> bool {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let (_, number) = strip_numbering(line.trim());
    let Some(n) = number
        .strip_suffix('.')
        .filter(|n| !n.contains('.'))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 1)
    else {
        return false;
    };
    let previous = format!("{}.", n - 1);
    lines[i.saturating_sub(40)..i]
        .iter()
        .any(|l| l.len() - l.trim_start().len() == indent && strip_numbering(l.trim()).1 == previous)
}

/// Whether line `i` is an unnumbered title no list names, alone on its
/// line left of the headings' `margin` (`Examples`, `Conclusion`): a few
/// capitalized words, with a blank line (or a page break) before and
/// after it. Only after the last field heading does it end a template
/// (an ABNF rule written flush left inside Syntax, `NSS = 6DIGIT`, is no
/// title: it has other characters than words').
fn is_unlisted_title(lines: &[&str], i: usize, margin: usize) -> bool {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let title = line.trim();
    stands_apart(lines, i)
        && indent < margin
        && title.starts_with(|c: char| c.is_uppercase())
        && title
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '&' | '\''))
        && (1..=6).contains(&title.split_whitespace().count())
}

/// Where a template that starts at `headings[0]` ends: the first RFC
/// section title after its first field ([`is_section_title`]), a mail
/// signature's `-- ` line (RFC 3676 section 4.3), or a second Namespace
/// Identifier heading after other fields (a second template): the line
/// and what it is.
fn template_end(lines: &[&str], headings: &[Heading], tables: &[Range<usize>]) -> Option<(usize, String)> {
    let first = headings.first()?;
    let margin = template_margin(headings);
    let field_lines: std::collections::HashSet<usize> = headings.iter().map(|h| h.line).collect();
    let field_numbers: std::collections::HashSet<&str> = headings
        .iter()
        .map(|h| h.number.trim_end_matches('.'))
        .filter(|n| !n.is_empty())
        .collect();
    let second_nid = second_template_start(lines, headings);
    let fences = Fences::of(lines, first.line);
    let container = container_end(lines, first.line).or_else(|| table_end(lines, headings, tables));
    // The last field heading of this template (before a second one; the
    // RFC's own Security Considerations is none, `security_section`'s):
    // found once, not for each line.
    let last_field = headings
        .iter()
        .filter(|h| !h.key.is_empty() && h.line < second_nid.map_or(usize::MAX, |(start, _)| start))
        .filter(|h| !security_title(lines, h.line, margin))
        .map(|h| h.line)
        .max()
        .unwrap_or(0);
    // Where the template's own Security field starts, if it has one.
    let security_field = headings
        .iter()
        .find(|h| h.key == "security_and_privacy")
        .map(|h| h.line);
    // The level of the fields' own Markdown headings (`## Purpose`), if
    // they are written so.
    let field_level = headings
        .iter()
        .filter(|h| !h.key.is_empty())
        .filter_map(|h| markdown_heading(lines, h.line, usize::MAX))
        .min();
    for i in first.line + 1..lines.len() {
        if let Some((start, key)) = second_nid
            && start == i
        {
            return Some((
                i,
                format!("a second {} heading (a second template)", heading_of(key)),
            ));
        }
        if let Some((end, what)) = container.filter(|(end, _)| *end == i) {
            return Some((end, what.into()));
        }
        // The RFC's own "Security Considerations" (RFC 7322 section
        // 4.8.5) after the template's Security field: the document's next
        // section, which an HTML or XML source sets at the fields'
        // margin, not a second Security field.
        if security_field.is_some_and(|at| at < i) && security_title(lines, i, margin) {
            return Some((i, format!("the RFC section '{}'", lines[i].trim())));
        }
        if field_lines.contains(&i) {
            continue;
        }
        let line = lines[i];
        let at_margin = line.len() - line.trim_start().len() <= margin;
        if line.trim_end() == "--" && at_margin {
            return Some((i, "a mail signature ('-- ')".into()));
        }
        // A mailing list's footer (Mailman's rule of underscores, then
        // `urn-nid mailing list`), and a mail's closing at the margin
        // after a blank line (`Best regards,`): the mail's, not the last
        // field's.
        if at_margin && is_list_footer(lines, i) {
            return Some((i, "a mailing list's footer".into()));
        }
        if is_attachment_trailer(line) {
            return Some((i, "a mailing list archive's attachment trailer".into()));
        }
        if at_margin && i > 0 && lines[i - 1].trim().is_empty() && is_closing(line) {
            return Some((i, format!("a mail's closing ('{}')", line.trim())));
        }
        // A subsection of a numbered field (`2.4.1.` under `2.4.
        // Declaration of Structure`) is part of its text.
        // Its parents' numbers looked up (`2.4` and `2` for `2.4.1`); a
        // section number is short, and a longer "number" is none.
        let number = strip_numbering(line.trim()).1.trim_end_matches('.');
        let inside_a_field = number.len() <= 32
            && number
                .match_indices('.')
                .any(|(at, _)| field_numbers.contains(&number[..at]));
        // A code fence's lines are code, whatever they look like (an RFC's
        // section quoted in a field of a Markdown text).
        if fences.inside(i) {
            continue;
        }
        if !inside_a_field
            && (is_section_title(lines, i, margin) || last_field < i && is_unlisted_title(lines, i, margin))
            && !interrupts_template(lines, i, headings, margin)
        {
            return Some((i, format!("the RFC section '{}'", line.trim())));
        }
        // A Markdown heading no field is named after (`## Examples` after
        // a registration written in Markdown): the document's next
        // section, unless the fields are Markdown headings themselves and
        // it is a subsection of one (`### ABNF` under `## Syntax`).
        // One at the fields' own level with fields after it (before any
        // second template) is a misnamed field of this one, kept in the
        // field above with a note, as in plain text.
        if let Some(level) = markdown_heading(lines, i, margin.min(3))
            && field_level.is_none_or(|fields| level < fields || level == fields && last_field <= i)
        {
            return Some((i, format!("the Markdown heading '{}'", line.trim())));
        }
    }
    None
}

/// Whether the RFC section title on line `i` only interrupts the
/// template that `headings` start: an unnumbered title that is a
/// template heading's wording (RFC 3044 writes `Security Considerations`
/// at column 0 between `Conformance with URN Syntax:` and `Validation
/// mechanism:`), followed, before any other section title, by one of the
/// template's headings at its `margin` naming a field none before it
/// named. The template goes on after it, and the title is read as its
/// field ([`interrupting_titles`]).
fn interrupts_template(lines: &[&str], i: usize, headings: &[Heading], margin: usize) -> bool {
    let (title, number) = strip_numbering(lines[i].trim());
    let title = normalize(title);
    if !number.is_empty() || !HEADINGS.iter().any(|(label, _)| *label == title) {
        return false;
    }
    let Some(next) = headings.iter().find(|h| h.line > i) else {
        return false;
    };
    let named_before = |key: &str| headings.iter().any(|h| h.line < i && h.key == key);
    next.indent == margin
        && next.outdented.is_none()
        && !next.key.is_empty()
        && next.key != "namespace_identifier"
        && !named_before(next.key)
        && find_heading(lines, i, None).is_some_and(|h| !named_before(h.key))
        && !(i + 1..next.line).any(|j| is_section_title(lines, j, margin))
}

/// The headings of the RFC section titles that interrupt the template
/// of `headings`, which ends at line `end` ([`interrupts_template`]):
/// fields of the template, set apart left of its other headings.
fn interrupting_titles(lines: &[&str], headings: &[Heading], end: usize, nid: Option<&str>) -> Vec<Heading> {
    let Some(first) = headings.first() else {
        return Vec::new();
    };
    let margin = template_margin(headings);
    let field_lines: std::collections::HashSet<usize> = headings.iter().map(|h| h.line).collect();
    (first.line + 1..end)
        .filter(|i| !field_lines.contains(i))
        .filter(|&i| is_section_title(lines, i, margin) && interrupts_template(lines, i, headings, margin))
        .filter_map(|i| find_heading(lines, i, nid))
        .map(|mut h| {
            if h.indent < margin {
                h.outdented = Some(margin);
            }
            h
        })
        .collect()
}

/// How many runs of headings (each a template as far as
/// [`template_end`] finds) [`best_run`] compares: an RFC has a few dozen
/// sections, and a hostile text of thousands of one-heading runs stays
/// linear.
const MAX_RUNS: usize = 64;

/// The index in `headings` of the first heading of the text's template,
/// among the runs of headings from one to where [`template_end`] finds
/// its template ended: the first run with a Namespace Identifier heading
/// (two whole templates: the first is read; a NID is what no
/// registration is without), else the one that names the most fields,
/// the first of equals. A prose sentence starting `Resolution: For URNs
/// that ...` (RFC 3044 section 3.1), or numbered sections of an RFC's
/// prose titled like fields (RFC 8458's `4.1.  Assignment`, `4.2.
/// Syntax`), are runs of one or two fields before the real template.
fn best_run(lines: &[&str], headings: &[Heading], tables: &[Range<usize>]) -> usize {
    let mut best = (0, 0);
    let mut start = 0;
    for _ in 0..MAX_RUNS {
        if start >= headings.len() {
            break;
        }
        let run = &headings[start..];
        let end = template_end(lines, run, tables).map_or(lines.len(), |(end, _)| end);
        let len = run.iter().position(|h| h.line >= end).unwrap_or(run.len()).max(1);
        let mut keys: Vec<&str> = run[..len]
            .iter()
            .map(|h| h.key)
            .filter(|k| !k.is_empty())
            .collect();
        if keys.contains(&"namespace_identifier") {
            return start;
        }
        keys.sort_unstable();
        keys.dedup();
        if keys.len() > best.0 {
            best = (keys.len(), start);
        }
        start += len;
    }
    best.1
}

/// How many template fields `text` has headings for, as written (no
/// other form read first: [`super::plain`] weighs a mail's parts with it,
/// and must not recurse into them).
pub(super) fn fields_named(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut keys: Vec<&str> = field_headings(&lines, None)
        .0
        .iter()
        .map(|h| h.key)
        .filter(|k| !k.is_empty())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len()
}

/// The fields a template gives once, in a line (RFC 8141 Appendix A's
/// Namespace Identifier, Version and Date): one written again after it
/// starts a second template (a second registration, or an update of the
/// first), whatever order each template's fields are in.
const ONCE_FIELDS: &[&str] = &["namespace_identifier", "version", "date"];

/// Where the second template of a run of `headings` starts, and the field
/// whose heading repeats: at the first heading of a [`ONCE_FIELDS`] field
/// the run has had before (a misspelled one, read as that field by
/// [`fuzzy_heading`], is text: [`misspelled_repeats`]), or at the line
/// introducing that template (`Update (2025):`, alone in its paragraph
/// just above it, no heading).
fn second_template_start(lines: &[&str], headings: &[Heading]) -> Option<(usize, &'static str)> {
    let n = (1..headings.len()).find(|&n| {
        let h = &headings[n];
        ONCE_FIELDS.contains(&h.key)
            && !matches!(h.how, HowFound::Fuzzy { .. })
            && !in_registration_information(headings, n)
            && headings[..n].iter().any(|before| before.key == h.key)
    })?;
    let at = headings[n].line;
    let after_last = headings[n - 1].line;
    let above = (after_last + 1..at).rev().find(|&i| !blank_or_break(lines[i]));
    let introduced = above.filter(|&i| {
        lines[i].trim_end().ends_with(':')
            && blank_or_break(lines[i - 1])
            && !headings.iter().any(|h| h.line == i)
    });
    Some((introduced.unwrap_or(at), headings[n].key))
}

/// Whether `headings[n]` is a `Version:` or `Date:` line right under
/// RFC 3406's `Registration Information:` (with only such lines between):
/// that block's own lines (RFC 3406 section 4), read with it.
fn in_registration_information(headings: &[Heading], n: usize) -> bool {
    let above = headings[..n]
        .iter()
        .rev()
        .find(|h| !matches!(h.key, "version" | "date"));
    matches!(headings[n].key, "version" | "date")
        && above.is_some_and(|h| h.key == "registration_information")
}

/// The headings among `headings` that are misspellings of a
/// [`ONCE_FIELDS`] field the text has already had a heading of
/// (`Versions:` inside Purpose, after `Version: 1`): no second template
/// and no field, but text of the field above.
fn misspelled_repeats(headings: &[Heading]) -> Vec<usize> {
    (0..headings.len())
        .filter(|&n| {
            let h = &headings[n];
            ONCE_FIELDS.contains(&h.key)
                && matches!(h.how, HowFound::Fuzzy { .. })
                && headings[..n].iter().any(|before| before.key == h.key)
        })
        .collect()
}

/// A mailing list's footer starting at line `i`: a rule of underscores
/// (Mailman writes 47) and, below it, the list's name (`urn-nid mailing
/// list`).
fn is_list_footer(lines: &[&str], i: usize) -> bool {
    let rule = lines[i].trim();
    rule.len() >= 20
        && rule.bytes().all(|b| b == b'_')
        && lines
            .get(i + 1)
            .is_some_and(|next| next.to_ascii_lowercase().contains("mailing list"))
}

/// Pipermail's line where it put a mail's scrubbed attachments (a PGP
/// signature, an HTML alternative) after the text: `--------------
/// next part --------------`, then `An HTML attachment was scrubbed...`
/// and its URL.
fn is_attachment_trailer(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("----") && t.ends_with("----") && t.trim_matches('-').trim() == "next part"
}

/// Closings a registration mail ends with (the words a line of its own
/// starts with, case-insensitively), in the languages of the urn-nid
/// list's archive.
const CLOSINGS: &[&str] = &[
    "best regards",
    "kind regards",
    "regards",
    "best wishes",
    "sincerely",
    "yours sincerely",
    "yours faithfully",
    "many thanks",
    "thanks and regards",
    "cheers",
    "mit freundlichen grüßen",
    "mit freundlichen gruessen",
    "viele grüße",
    "cordialement",
    "bien cordialement",
    "saludos",
    "met vriendelijke groet",
    "med vänlig hälsning",
    "ystävällisin terveisin",
];

/// Closings of a word or two that also start sentences (`Best effort
/// ...`, `Thanks to ...`): a closing only alone on its line, with its
/// punctuation (`Thanks,`, `Thank you!`, `Best,`), as on the urn-nid and
/// urn lists.
const SHORT_CLOSINGS: &[&str] = &["thanks", "thank you", "best", "all the best", "thx", "ta"];

/// Whether `line` is a mail's closing: one of [`CLOSINGS`], alone or
/// followed by punctuation or a translation (`Mit freundlichen Grüßen /
/// Best regards`), or one of [`SHORT_CLOSINGS`] alone.
fn is_closing(line: &str) -> bool {
    let t = line.trim().to_lowercase();
    let bare = t.trim_end_matches([',', '.', '!']).trim_end();
    t.chars().count() <= 60
        && (SHORT_CLOSINGS.contains(&bare)
            || CLOSINGS.iter().any(|c| {
                t.strip_prefix(c)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', '.', '!', ' ', '/']))
            }))
}

/// The lines of a text inside Markdown code fences (CommonMark section
/// 4.5: a run of three or more backticks or tildes, indented three
/// columns at most, up to a run of the same character at least as long).
/// An unclosed fence runs to the end of the text.
struct Fences(Vec<bool>);

impl Fences {
    fn of(lines: &[&str], from: usize) -> Fences {
        let mut inside = vec![false; lines.len()];
        let mut open: Option<&str> = None;
        for (i, line) in lines.iter().enumerate().skip(from) {
            let indent = line.len() - line.trim_start().len();
            let fence = fence_run(line).filter(|_| indent <= 3);
            match (open, fence) {
                (None, Some(run)) => {
                    open = Some(run);
                    inside[i] = true;
                }
                (Some(run), Some(_)) if closes(line, run) => {
                    open = None;
                    inside[i] = true;
                }
                (Some(_), _) => inside[i] = true,
                (None, None) => {}
            }
        }
        Fences(inside)
    }

    fn inside(&self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }
}

/// Where the block that holds a template starting at line `first` ends,
/// if it is in one, and what the block is: a Markdown code fence opened
/// before it (a template pasted into a GitHub issue or a README between
/// ```` ``` ```` lines: the closing fence, CommonMark section 4.5), or an
/// XML CDATA section (an xml2rfc source's `<artwork><![CDATA[` holding
/// the template: the line with its `]]>`, XML 1.0 section 2.7). What
/// follows is the document's, not the last field's.
fn container_end(lines: &[&str], first: usize) -> Option<(usize, &'static str)> {
    let mut open: Option<&str> = None;
    for line in &lines[..first] {
        let indent = line.len() - line.trim_start().len();
        match (open, fence_run(line).filter(|_| indent <= 3)) {
            (None, Some(run)) => open = Some(run),
            (Some(run), Some(_)) if closes(line, run) => open = None,
            _ => {}
        }
    }
    if let Some(run) = open {
        return (first + 1..lines.len())
            .find(|&i| closes(lines[i], run))
            .map(|i| (i, "the end of the code fence the template is in"));
    }
    if let Some(cdata) = lines[..first].iter().rposition(|l| l.contains("<![CDATA["))
        && !lines[cdata..first].iter().any(|l| l.contains("]]>"))
    {
        return (first..lines.len())
            .find(|&i| lines[i].contains("]]>"))
            .map(|i| (i, "the end of the XML CDATA section the template is in"));
    }
    // Or an xml2rfc `<artwork>` or `<sourcecode>` written without one
    // (RFC 7991 section 2.5; its character references read before,
    // `plain.rs`): its end tag ends it.
    let (at, (close, what)) = lines[..first].iter().enumerate().rev().find_map(|(i, l)| {
        if l.contains("<artwork") {
            Some((i, ("</artwork>", "the end of the <artwork> the template is in")))
        } else if l.contains("<sourcecode") {
            Some((
                i,
                ("</sourcecode>", "the end of the <sourcecode> the template is in"),
            ))
        } else {
            None
        }
    })?;
    if lines[at..first].iter().any(|l| l.contains(close)) {
        return None;
    }
    (first..lines.len())
        .find(|&i| lines[i].contains(close))
        .map(|i| (i, what))
}

/// Where a template that a table of two columns holds whole ends (an
/// HTML `<table>` or a Markdown pipe table read as `Name: value` lines,
/// `tables`, `plain.rs`): the first line of text after the table, when
/// the table has the first field and three fields at least, and no
/// heading after it names a field it has not. The paragraph after a
/// table is the document's (HTML's `</table>` ends the element, GFM
/// section 4.10 ends a table at a blank line), not the last row's value.
fn table_end(lines: &[&str], headings: &[Heading], tables: &[Range<usize>]) -> Option<(usize, &'static str)> {
    let first = headings.first()?;
    let table = tables.iter().find(|t| t.contains(&first.line))?;
    let named: HashSet<&str> = headings
        .iter()
        .filter(|h| h.line < table.end && !h.key.is_empty())
        .map(|h| h.key)
        .collect();
    let whole = named.len() >= 3
        && headings
            .iter()
            .filter(|h| h.line >= table.end)
            .all(|h| h.key.is_empty() || named.contains(h.key));
    if !whole {
        return None;
    }
    (table.end..lines.len())
        .find(|&i| !blank_or_break(lines[i]))
        .map(|i| (i, "the end of the table the template is in"))
}

/// The level of the Markdown heading on line `i`, if it is one
/// (CommonMark sections 4.2 and 4.3), at most `max_indent` columns in: an
/// ATX heading (`#` to `######`, then a space and a title: 1 to 6), or a
/// setext heading (one line of text underlined by `===`: 1, or `---`: 2).
/// Either has a blank line (or nothing) before it, as Markdown texts lay
/// headings out, so that a line of plain text starting with `#` mid-
/// paragraph is no heading.
fn markdown_heading(lines: &[&str], i: usize, max_indent: usize) -> Option<usize> {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let t = line.trim();
    if indent > max_indent || t.is_empty() || line == PAGE_BREAK {
        return None;
    }
    let blank_before = lines[..i]
        .iter()
        .rev()
        .find(|l| **l != PAGE_BREAK)
        .is_none_or(|l| l.trim().is_empty());
    if !blank_before {
        return None;
    }
    let hashes = t.bytes().take_while(|b| *b == b'#').count();
    if hashes > 0 {
        let title = t[hashes..].trim_start_matches('#');
        let spaced = t[hashes..].starts_with([' ', '\t']);
        return (hashes <= 6 && spaced && title.chars().any(char::is_alphanumeric)).then_some(hashes);
    }
    let under = lines.get(i + 1)?;
    let under_indent = under.len() - under.trim_start().len();
    if under_indent > 3 || !is_underline(under) || !t.chars().any(char::is_alphanumeric) {
        return None;
    }
    Some(if under.trim().starts_with('=') { 1 } else { 2 })
}

/// The indentation of a template's run of headings (those set apart
/// left of it, [`Heading::outdented`], not counted).
fn template_margin(headings: &[Heading]) -> usize {
    headings
        .iter()
        .filter(|h| h.outdented.is_none())
        .map(|h| h.indent)
        .min()
        .unwrap_or(0)
}

/// Whether line `i` is laid out as a heading at the headings' `margin`
/// (a few words and a colon, a blank line before, its text indented
/// below) although no field has its name: said, so that a person sees
/// which field took its text.
fn heading_shaped(lines: &[&str], i: usize, margin: usize) -> bool {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let Some(head) = line.trim().strip_suffix(':') else {
        return false;
    };
    let blank_before = i > 0 && lines[i - 1].trim().is_empty();
    let indented_after = lines[i + 1..]
        .iter()
        .find(|l| !l.trim().is_empty() && **l != PAGE_BREAK)
        .is_some_and(|l| l.len() - l.trim_start().len() > indent);
    indent == margin
        && blank_before
        && indented_after
        && (1..=6).contains(&head.split_whitespace().count())
        && head.starts_with(|c: char| c.is_uppercase())
        && !head.contains([':', '.', ','])
        // What introduces a field's own examples or a grammar's legend.
        && !head
            .split_whitespace()
            .any(|w| matches!(w.to_lowercase().as_str(), "example" | "examples" | "where" | "here"))
}

/// Whether `key` is one of RFC 8141 Appendix A's body fields (Registrant
/// to Revision Information; the identifying three are both forms').
fn is_appendix_a_body(key: &str) -> bool {
    !matches!(key, "namespace_identifier" | "version" | "date") && FIELDS.iter().any(|f| f.0 == key && f.2)
}

/// Whether `key` is a field of the RFC 3406 template only.
fn is_rfc3406_only(key: &str) -> bool {
    FIELDS.iter().any(|f| f.0 == key && !f.2)
}

/// In a template of RFC 8141 Appendix A's fields (more of them than of
/// RFC 3406's), an RFC 3406 heading written after an Appendix A field
/// ("Rules for Lexical Equivalence:" after "Syntax:" in the isbn, doi and
/// mrn texts) is a sub-heading of that field, whose text goes on below
/// it: Appendix A has no such field, and its Syntax states the
/// equivalence rules (RFC 8141 section 6.4.2). Takes those headings out
/// of `headings` and returns them.
fn rfc3406_headings_inside_fields(headings: &mut Vec<Heading>) -> Vec<Heading> {
    let appendix_a = headings.iter().filter(|h| is_appendix_a_body(h.key)).count();
    let rfc3406 = headings.iter().filter(|h| is_rfc3406_only(h.key)).count();
    if appendix_a <= rfc3406 {
        return Vec::new();
    }
    let mut host: &str = "";
    let mut inside = vec![false; headings.len()];
    for (i, h) in headings.iter().enumerate() {
        if is_rfc3406_only(h.key) && is_appendix_a_body(host) {
            inside[i] = true;
        } else {
            host = h.key;
        }
    }
    let mut marks = inside.into_iter();
    let (taken, kept): (Vec<Heading>, Vec<Heading>) = std::mem::take(headings)
        .into_iter()
        .partition(|_| marks.next().unwrap_or(false));
    *headings = kept;
    taken
}

/// RFC 5322 header fields a registration mail starts with, and those a
/// mailing list or a mail client adds (RFC 2369, RFC 2919, RFC 5064): each
/// names a mail's header even where it could be read as a heading.
const MAIL_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "sender",
    "reply-to",
    "message-id",
    "in-reply-to",
    "references",
    "received",
    "return-path",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "organization",
    "keywords",
    "comments",
];

/// The lines of a mail's header block at the top of `lines` (RFC 5322
/// section 2.2: `Name: value` fields, folded lines starting with white
/// space, up to the first blank line; an mbox file's `From ` line before
/// them), if the text starts with one that has a `From`, `To`, `Subject`
/// or `Message-ID` field and at least two fields; otherwise `None`. A
/// field is one of [`MAIL_HEADERS`], or any other field name (RFC 5322
/// section 3.6.8: `List-Id`, `User-Agent`, `Archived-At`, `X-...`) that
/// is no template heading. Its `Date:` is the mail's, not the
/// registration's.
///
/// The IETF's mail archive (mailarchive.ietf.org) shows a message with
/// its subject and a line of its author and date above the header block,
/// and saves it so: a block after at most [`MAIL_PREFACE_PARAGRAPHS`]
/// short paragraphs is a header block too.
pub(super) fn mail_header_block(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let mut start = lines.iter().position(|l| !l.trim().is_empty())?;
    for _ in 0..=MAIL_PREFACE_PARAGRAPHS {
        if let Some(block) = header_block_at(lines, start) {
            return Some(block);
        }
        // The next paragraph, after a short one (a subject, an author's
        // line).
        let end = (start..lines.len()).find(|&i| lines[i].trim().is_empty())?;
        if end - start > 2 {
            return None;
        }
        start = (end..lines.len()).find(|&i| !lines[i].trim().is_empty())?;
    }
    None
}

/// The header blocks of mails inside the text, below its first line: a
/// paragraph that [`header_block_at`] reads as one (`Subject:`, `Date:`,
/// `From:`, `To:` after `-------- Forwarded Message --------` or a blank
/// line), as a forwarded message or an ID notification pasted into a
/// mail carries.
fn inner_header_blocks(lines: &[&str]) -> Vec<std::ops::Range<usize>> {
    (1..lines.len())
        .filter(|&i| {
            !blank_or_break(lines[i]) && (blank_or_break(lines[i - 1]) || is_forward_rule(lines[i - 1]))
        })
        .filter_map(|i| header_block_at(lines, i))
        .collect()
}

/// The line mail clients put above a forwarded message's header block
/// (`-------- Forwarded Message --------`, `-----Original Message-----`,
/// `Begin forwarded message:`).
fn is_forward_rule(line: &str) -> bool {
    let words = line
        .trim()
        .trim_matches(|c| c == '-' || c == ' ')
        .to_ascii_lowercase();
    matches!(
        words.as_str(),
        "forwarded message" | "original message" | "begin forwarded message:" | "forwarded message follows"
    )
}

/// How many paragraphs of one or two lines (a mail archive's subject and
/// author lines) may come before a mail's header block.
const MAIL_PREFACE_PARAGRAPHS: usize = 2;

/// The header block of [`mail_header_block`] starting at line `start`.
fn header_block_at(lines: &[&str], start: usize) -> Option<std::ops::Range<usize>> {
    // An mbox file's separator line: `From sender date`, no colon after
    // `From` (RFC 4155).
    let fields_start = if lines[start].starts_with("From ") {
        start + 1
    } else {
        start
    };
    let mut names = Vec::new();
    let mut end = fields_start;
    // The block ends at a blank line, or at the page break blank lines
    // of page padding are read as (`drop_page_breaks`).
    while end < lines.len() && !lines[end].trim().is_empty() && lines[end] != PAGE_BREAK {
        let line = lines[end];
        if line.starts_with([' ', '\t']) && !names.is_empty() {
            end += 1;
            continue;
        }
        let (name, _) = line.split_once(':')?;
        let name = name.to_ascii_lowercase();
        // RFC 5322 section 3.6.8: a field name is printable ASCII but the
        // colon; the ones in use are letters, digits and hyphens.
        let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        let is_field = MAIL_HEADERS.contains(&name.as_str())
            || (token && (name.starts_with("x-") || find_heading(&[line], 0, None).is_none()));
        if !is_field {
            return None;
        }
        names.push(name);
        end += 1;
    }
    let addressed = names
        .iter()
        .any(|n| matches!(n.as_str(), "from" | "to" | "subject" | "message-id"));
    (addressed && names.len() >= 2).then_some(start..end)
}

/// The lines of a YAML front matter block at the top of `lines`: a `---`
/// line first, then YAML (`key: value`, indented lines, `- item`,
/// comments) up to a closing `---` or `...` line (kramdown-rfc closes it
/// with its first section marker, `--- abstract`), within
/// [`FRONT_MATTER_MAX`] lines, as kramdown-rfc and mmark sources start.
fn front_matter(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    if lines[start].trim_end() != "---" {
        return None;
    }
    let close = lines[start + 1..]
        .iter()
        .take(FRONT_MATTER_MAX)
        .position(|l| matches!(l.trim_end(), "---" | "...") || l.starts_with("--- "))?;
    let body = &lines[start + 1..start + 1 + close];
    let yaml = body.iter().all(|l| {
        let t = l.trim_start();
        t.is_empty()
            || t.starts_with('#')
            || t.starts_with("- ")
            || t == "-"
            || l.starts_with([' ', '\t'])
            || t.split_once(':').is_some_and(|(key, _)| {
                !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '"' | '\''))
            })
    });
    let keyed = body
        .iter()
        .any(|l| !l.starts_with([' ', '\t']) && l.contains(':'));
    (yaml && keyed).then_some(start..start + close + 2)
}

/// How many lines a YAML front matter block may have.
const FRONT_MATTER_MAX: usize = 2000;

/// A value that is one Markdown code fence whole (```` ```text ````, its
/// text, ```` ``` ````; CommonMark section 4.5), as urnreg's own Markdown
/// form writes each field: its text without the fence lines.
fn unfenced(value: String) -> String {
    let lines: Vec<&str> = value.lines().collect();
    let [first, inner @ .., last] = lines.as_slice() else {
        return value;
    };
    match fence_run(first) {
        // Closed by its last line only (CommonMark: a run of the same
        // character at least as long, alone on its line); a shorter run
        // inside is the value's own text.
        Some(open) if last.trim() == open && !inner.iter().any(|l| closes(l, open)) => dedent(inner),
        _ => value,
    }
}

/// Whether `line` closes a code fence opened by the run `open`.
pub(super) fn closes(line: &str, open: &str) -> bool {
    fence_run(line).is_some_and(|run| run.starts_with(open) && line.trim() == run)
}

/// The run of backticks or tildes a code fence line starts with (three
/// or more).
pub(super) fn fence_run(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let mark = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = &t[..t.len() - t.trim_start_matches(mark).len()];
    (run.len() >= 3).then_some(run)
}

/// The display heading of a field key.
fn heading_of(key: &str) -> &'static str {
    FIELDS.iter().find(|f| f.0 == key).map_or("?", |f| f.1)
}

/// A registration quoted in a mail reply (`> Namespace ID: ...`, RFC 3676
/// section 4.5's quote marks): when at least three lines and half of
/// those with text are quoted, the quoted lines are read without their
/// quote marks (and the space after each), and the replier's own lines
/// (`On ..., X wrote:`, `Looks fine to me.`) are no part of the template:
/// set aside, and said.
///
/// A reply to a reply quotes the registration deeper (`> > Namespace ID:`
/// or `>> Namespace ID:`, as a urn-nid thread quotes the request once per
/// answer): the template is read at the depth most of the quoted text is
/// quoted to, its lines without that many marks; the lines quoted less
/// deep are the earlier replies' words (`> Dear all, below is the revised
/// template.`), set aside like the replier's own.
fn unquote_reply(lines: &mut [&str], notes: &mut Vec<Note>) {
    let quoted = lines.iter().filter(|l| l.starts_with('>')).count();
    let filled = lines.iter().filter(|l| !l.trim().is_empty()).count();
    if quoted < 3 || quoted * 2 < filled {
        return;
    }
    // The line without `depth` quote marks, and how many it had (up to
    // `depth`).
    fn unquoted(line: &str, depth: usize) -> (&str, usize) {
        let mut rest = line;
        for n in 0..depth {
            match rest.strip_prefix('>') {
                Some(r) => rest = r.strip_prefix(' ').unwrap_or(r),
                None => return (rest, n),
            }
        }
        (rest, depth)
    }
    // The depth the template's headings are quoted to, and else the one
    // with the most quoted lines of text: (headings, lines) at each depth.
    // An older thread quoted deeper below the registration is not it.
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for line in lines.iter() {
        let (rest, depth) = unquoted(line, usize::MAX);
        if depth > 0 && !rest.trim().is_empty() {
            if counts.len() < depth {
                counts.resize(depth, (0, 0));
            }
            let heading = find_heading(&[rest], 0, None).is_some_and(|h| !h.key.is_empty());
            counts[depth - 1].0 += usize::from(heading);
            counts[depth - 1].1 += 1;
        }
    }
    let depth = (1..=counts.len())
        .rev()
        .max_by_key(|d| counts[d - 1])
        .unwrap_or(1);
    let mut own = Vec::new();
    let mut older = Vec::new();
    for (i, line) in lines.iter_mut().enumerate() {
        let (rest, marks) = unquoted(line, depth);
        if marks == depth && rest.starts_with('>') {
            // Quoted deeper than the template: an older message the
            // quoted one answered (`>> Earlier discussion ...`), no text
            // of the registration.
            if !rest.trim_start_matches(['>', ' ']).trim().is_empty() {
                older.push(i);
            }
            *line = "";
        } else if marks == depth {
            *line = rest;
        } else if rest.trim().is_empty() {
            *line = "";
        } else {
            own.push((i, line.trim()));
            *line = "";
        }
    }
    // The line that introduces an older message (`Earlier, Bob wrote:`)
    // goes with it.
    for k in 0..older.len() {
        let first = older[k];
        if k > 0 && older[k - 1] + 1 >= first {
            continue;
        }
        if let Some(intro) = (0..first).rev().find(|&j| !lines[j].trim().is_empty())
            && lines[intro].trim_end().to_ascii_lowercase().ends_with("wrote:")
        {
            lines[intro] = "";
            older.push(intro);
        }
    }
    older.sort_unstable();
    notes.push(Note::new(
        NoteKind::Unplaced,
        None,
        format!(
            "the text is a reply quoting the registration with '{}': the quoted lines are read without their \
             quote marks{}{}",
            ">".repeat(depth),
            match own.first() {
                Some((i, first)) => format!(
                    ", and the {} {} line(s) set aside (line {}: {})",
                    if depth > 1 {
                        "replies' own and less deeply quoted"
                    } else {
                        "reply's own"
                    },
                    own.len(),
                    i + 1,
                    preview(first)
                ),
                None => String::new(),
            },
            match older.first() {
                Some(i) => format!(
                    "; {} line(s) quoted deeper (an older message) set aside from line {}",
                    older.len(),
                    i + 1
                ),
                None => String::new(),
            }
        ),
    ));
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
        // kramdown-rfc's section markers (`--- middle`, `--- back`) part
        // the document's parts: no text of a field.
        for line in lines.iter_mut() {
            if line.strip_prefix("--- ").is_some_and(|part| {
                matches!(part.trim_end(), "abstract" | "middle" | "back") || part.starts_with("note_")
            }) {
                *line = "";
            }
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
    if headings.is_empty() {
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
    report.notes.extend(misread(&report.fields, &set_aside));
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

/// The columns a tab in a line's indentation reaches to: the next
/// multiple of 8, the convention of RFC text (and of terminals, `expand`
/// and mail clients that turn leading spaces into tabs).
const TAB_STOP: usize = 8;

/// The most columns an expanded indentation is given (a line of tabs
/// only must not grow eightfold without bound).
const MAX_INDENT_COLUMNS: usize = 1024;

/// `lines` with their layout written in spaces: a tab in a line's
/// indentation taken to the next [`TAB_STOP`], so that margins and
/// continuation lines keep their columns (tabs inside a line stay as
/// written), and a no-break space (U+00A0) that lays text out (in the
/// indentation, or next to another blank, as a web page's `&nbsp;`
/// runs align an ABNF rule) made a space. A lone no-break space between
/// two words (`5 March`) is typography and stays. Also the (0-based)
/// lines where a no-break space was made a space.
fn spaced_layout<'t>(lines: &[&'t str]) -> (Vec<Cow<'t, str>>, Vec<usize>) {
    let mut nbsp = Vec::new();
    let spaced = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let body = line.trim_start_matches([' ', '\t', '\u{a0}']);
            let lead = &line[..line.len() - body.len()];
            if !lead.contains('\t') && !line.contains('\u{a0}') {
                return Cow::Borrowed(*line);
            }
            let body = layout_nbsp_as_spaces(body);
            if lead.contains('\u{a0}') || matches!(body, Cow::Owned(_)) {
                nbsp.push(i);
            }
            // Deeper than any layout: kept bounded, in its place among the
            // lines this deep.
            let columns = indent_columns(lead).min(MAX_INDENT_COLUMNS);
            Cow::Owned(format!("{}{body}", " ".repeat(columns)))
        })
        .collect();
    (spaced, nbsp)
}

/// What [`soft_hyphens`] repaired: the first (0-based) line that held a
/// soft hyphen, how many went inside words, and how many words broken at
/// a line's end were joined.
struct SoftHyphens {
    first: usize,
    dropped: usize,
    joined: usize,
}

/// `lines` without the soft hyphens (U+00AD) a word processor or a PDF
/// copy leaves in a text. One inside a line is invisible and goes. One
/// at a line's end broke a word there (`regis\u{ad}` / `tration`): the
/// word is joined again, past a page break between its halves, by moving
/// the next line's first word up; that line keeps its indentation and
/// its other words, so that no line is left blank (a paragraph's end or
/// a field's boundary) and margins stay. When that word is all of the
/// next line (a paragraph's last word), the line goes as a page break's
/// lines go ([`PAGE_BREAK`]: no text, no line) after its paragraph, and
/// the word ends the line above. A soft hyphen before a blank line, or
/// with no word before it, is only dropped.
fn soft_hyphens<'t>(lines: &[&'t str]) -> (Vec<Cow<'t, str>>, Option<SoftHyphens>) {
    const SHY: char = '\u{ad}';
    let mut first = None;
    let mut dropped = 0;
    let mut joined = 0;
    // Every soft hyphen goes but one ending a line after a word, which
    // stays (alone at the line's end, trailing blanks gone) to be joined.
    let mut out: Vec<Cow<'t, str>> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if !line.contains(SHY) {
                return Cow::Borrowed(*line);
            }
            first.get_or_insert(i);
            let clean = line.replace(SHY, "");
            let end = line.trim_end();
            let broke = end.ends_with(SHY) && clean.trim_end().ends_with(|c: char| !c.is_whitespace());
            dropped += line.matches(SHY).count() - usize::from(broke);
            if broke {
                let mut kept = clean.trim_end().to_string();
                kept.push(SHY);
                Cow::Owned(kept)
            } else {
                Cow::Owned(clean)
            }
        })
        .collect();
    let Some(first) = first else {
        return (out, None);
    };
    let mut i = first;
    // Where the line after line `i` is looked for: past the lines already
    // joined to it, so that a column of word pieces costs no square.
    let mut from = i + 1;
    while i < out.len() {
        if !out[i].ends_with(SHY) {
            i += 1;
            from = i + 1;
            continue;
        }
        let mut k = from.max(i + 1);
        while k < out.len() && out[k] == PAGE_BREAK {
            k += 1;
        }
        let ends_paragraph = k == out.len() || out[k].trim().is_empty();
        out[i].to_mut().pop();
        if ends_paragraph {
            // The paragraph ends: nothing to join.
            dropped += 1;
            i += 1;
            from = i + 1;
            continue;
        }
        joined += 1;
        let (word, shortened) = {
            let next = &out[k];
            let body = next.trim_start();
            let indent = next.len() - body.len();
            let word_end = body.find(char::is_whitespace).unwrap_or(body.len());
            let rest = body[word_end..].trim_start();
            let shortened = (!rest.is_empty()).then(|| format!("{}{rest}", &next[..indent]));
            (body[..word_end].to_string(), shortened)
        };
        out[i].to_mut().push_str(&word);
        let Some(shortened) = shortened else {
            // The word was the line: it goes; the joined word may end in a
            // soft hyphen again (a column of pieces), so line `i` is looked
            // at again, from the line after.
            out[k] = Cow::Borrowed(PAGE_BREAK);
            from = k + 1;
            continue;
        };
        out[k] = Cow::Owned(shortened);
        i += 1;
        from = i + 1;
    }
    (
        out,
        Some(SoftHyphens {
            first,
            dropped,
            joined,
        }),
    )
}

/// The columns a line's leading blanks reach to, tabs taken to the next
/// [`TAB_STOP`]. Spaces before the first tab are counted apart, as a
/// shift of the stops: they are an indentation put before the whole text
/// after its tabs were written (a quoted or re-indented copy, where
/// `    \t ` still lines up with `            ` below it); `expand` and
/// `unexpand` never write a space before a tab.
fn indent_columns(lead: &str) -> usize {
    let shift = lead.len() - lead.trim_start_matches(' ').len();
    let mut column = 0;
    for c in lead[shift..].chars() {
        column = if c == '\t' {
            (column / TAB_STOP + 1) * TAB_STOP
        } else {
            column + 1
        };
    }
    shift + column
}

/// What [`Unseen::clean`] took out of or changed in a text, summed over
/// its calls.
#[derive(Default)]
struct Unseen {
    /// Control characters (C0 but tab, LF, CR and form feed; DEL): NUL
    /// padding, a DOS end-of-file mark (SUB, 0x1A), an escape.
    controls: usize,
    /// Zero-width characters and marks that show nothing (U+200B,
    /// U+2060, U+FEFF inside the text, U+200E, U+200F).
    invisible: usize,
    /// Line ends written as U+2028, U+2029, NEL (U+0085) or a vertical
    /// tab (a word processor's manual line break).
    separators: usize,
    /// Non-breaking hyphens (U+2011, as xml2rfc's HTML writes `&nbhy;`)
    /// made hyphens: the text shows one, and ABNF and dates need it.
    hyphens: usize,
}

impl Unseen {
    /// `text` without the characters no one sees, and with the other
    /// line separators made LF (a paragraph separator, U+2029, a blank
    /// line). Zero-width joiners (U+200C, U+200D) stay: they shape the
    /// words of some scripts.
    fn clean<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        let unseen = |c: char| matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{200E}' | '\u{200F}');
        let separator = |c: char| matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{0B}');
        let control =
            |c: char| (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C')) && !separator(c);
        if !text
            .chars()
            .any(|c| unseen(c) || separator(c) || control(c) || c == '\u{2011}')
        {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if separator(c) {
                self.separators += 1;
                out.push_str(if c == '\u{2029}' { "\n\n" } else { "\n" });
            } else if control(c) {
                self.controls += 1;
            } else if unseen(c) {
                self.invisible += 1;
            } else if c == '\u{2011}' {
                self.hyphens += 1;
                out.push('-');
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    }

    /// A note's words for what was done, if anything.
    fn said(&self) -> Option<String> {
        let mut done = Vec::new();
        if self.controls > 0 {
            done.push(format!(
                "{} control character(s) (NUL padding, a DOS end-of-file mark) dropped",
                self.controls
            ));
        }
        if self.invisible > 0 {
            done.push(format!(
                "{} zero-width character(s) (U+200B, U+2060, U+FEFF, as a web page or word \
                 processor leaves them) dropped",
                self.invisible
            ));
        }
        if self.separators > 0 {
            done.push(format!(
                "{} line end(s) written as U+2028, U+2029, NEL or a vertical tab read as line ends",
                self.separators
            ));
        }
        if self.hyphens > 0 {
            done.push(format!(
                "{} non-breaking hyphen(s) (U+2011, as xml2rfc's HTML writes them) read as '-'",
                self.hyphens
            ));
        }
        (!done.is_empty()).then(|| done.join("; "))
    }
}

/// A double-spaced text (a blank line after every line of the text as
/// written, as a second line-end conversion or a copy from some viewers
/// leaves it) made single-spaced: each single blank line between two
/// lines goes, and a run of three (a paragraph's blank line, doubled)
/// leaves one. Only a text that is double-spaced throughout is: no two
/// lines next to each other, every run of blank lines odd, one run of
/// three at least (a text of one-line paragraphs has none) and a dozen
/// lines. The number of blank lines dropped, if the text was.
fn undouble_spacing(lines: &mut Vec<&str>) -> Option<usize> {
    let blank = |l: &str| l.trim().is_empty();
    let mut texts = 0;
    let mut run = 0;
    let mut runs = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if blank(l) {
            run += 1;
            continue;
        }
        if i > 0 && run == 0 {
            return None;
        }
        if texts > 0 {
            runs.push(run);
        }
        texts += 1;
        run = 0;
    }
    if texts < 12 || runs.iter().any(|r| r % 2 == 0) || !runs.iter().any(|&r| r >= 3) {
        return None;
    }
    let first = lines.iter().position(|l| !blank(l))?;
    let mut kept = Vec::with_capacity(lines.len() / 2 + 1);
    let mut dropped = 0;
    let mut run = 0;
    for (i, l) in lines.iter().enumerate() {
        if i < first || !blank(l) {
            if run > 0 {
                kept.extend(std::iter::repeat_n("", (run - 1) / 2));
                dropped += run - (run - 1) / 2;
            }
            run = 0;
            kept.push(*l);
        } else {
            run += 1;
        }
    }
    kept.extend(std::iter::repeat_n("", run));
    *lines = kept;
    Some(dropped)
}

/// `line` with the full-width colon (U+FF1A) after a heading written in
/// ASCII (`Namespace ID：ucode`) made `: `, if it has one and no ASCII
/// colon before it: a template typed with a CJK input method. A
/// full-width colon inside CJK text (an address) stays.
fn ascii_heading_fullwidth_colon(line: &str) -> Option<String> {
    let at = line.find('\u{FF1A}')?;
    let head = &line[..at];
    let words = head.trim();
    if words.is_empty()
        || words.len() > 60
        || !head.is_ascii()
        || head.contains(':')
        || !words.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '*' | '#' | '-'))
    {
        return None;
    }
    let rest = line[at + '\u{FF1A}'.len_utf8()..].trim_start_matches('\u{3000}');
    Some(if rest.is_empty() || rest.starts_with([' ', '\t']) {
        format!("{head}:{rest}")
    } else {
        format!("{head}: {rest}")
    })
}

/// `text` with every no-break space next to another blank made a space.
fn layout_nbsp_as_spaces(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{a0}') {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let blank = |at: Option<&char>| matches!(at, Some(' ' | '\t' | '\u{a0}'));
    let mut changed = false;
    let out: String = (0..chars.len())
        .map(|k| {
            let layout = chars[k] == '\u{a0}'
                && (blank(k.checked_sub(1).and_then(|p| chars.get(p))) || blank(chars.get(k + 1)));
            changed |= layout;
            if layout { ' ' } else { chars[k] }
        })
        .collect();
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// The title urnreg's HTML and Markdown renderings give a registration
/// with no NID (`templates/registration.html`, `templates/markdown.md`).
const INFORMAL_TITLE: &str = "Informal namespace (NID to be assigned)";

/// Whether `line` is [`INFORMAL_TITLE`], as a Markdown heading or alone.
fn is_informal_title(line: &str) -> bool {
    line.trim()
        .trim_start_matches('#')
        .trim()
        .eq_ignore_ascii_case(INFORMAL_TITLE)
}

/// How many of a one-line value's lines (`filled`: the indices in `raw`
/// of those with text) are its first: one, or, when it opens a
/// parenthesis that the lines right below close (`Version: 2 (this
/// revision replaces the registration made by` / `RFC 3044)`), up to the
/// one that closes it.
fn parenthesis_lines(raw: &[&str], filled: &[usize]) -> usize {
    let depth = |line: &str| line.matches('(').count() as isize - line.matches(')').count() as isize;
    let Some(&first) = filled.first() else {
        return 1;
    };
    let mut open = depth(raw[first]);
    let mut kept = 1;
    while open > 0 && kept < filled.len().min(NID_VALUE_MAX_LINES) && filled[kept] == filled[kept - 1] + 1 {
        open += depth(raw[filled[kept]]);
        kept += 1;
    }
    if open > 0 { 1 } else { kept }
}

/// How many of a Namespace Identifier's lines (`filled`, as for
/// [`parenthesis_lines`]) are its value when the first `kept` name the
/// NID: those, or, when the last of them is a sentence that goes on in
/// the lines right below (`The Namespace ID "lampx" is requested of IANA
/// for this` / `namespace.`, RFC 4358's and RFC 7467's wording), up to
/// the line that ends it.
fn sentence_lines(raw: &[&str], filled: &[usize], kept: usize) -> usize {
    let ends = |line: &str| {
        line.trim_end()
            .trim_end_matches(['"', ')', '\'', '\u{201d}'])
            .ends_with(['.', '!', '?', ':', ';'])
    };
    let last = raw[filled[kept - 1]].trim();
    if last.split_whitespace().count() < 3 || ends(last) {
        return kept;
    }
    let mut n = kept;
    while n < filled.len().min(NID_VALUE_MAX_LINES) && filled[n] == filled[n - 1] + 1 {
        if ends(raw[filled[n]]) {
            return n + 1;
        }
        n += 1;
    }
    kept
}

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

/// The line and text of the RFC's own Security Considerations section,
/// outside the template (lines `start..end`): before it (RFC 3187 has it
/// first) or after it, up to the next section title.
fn security_section(lines: &[&str], start: usize, end: usize, margin: usize) -> Option<(usize, String)> {
    let at = (0..start).chain(end..lines.len()).find(|&i| {
        normalize(strip_numbering(lines[i].trim()).0.trim()) == "security considerations"
            && (is_section_title(lines, i, margin) || security_title(lines, i, margin))
    })?;
    let stop = (at + 1..lines.len())
        .find(|&i| i == start || is_section_title(lines, i, margin))
        .unwrap_or(lines.len());
    let value = dedent(&lines[at + 1..stop]);
    (!value.is_empty()).then_some((at, value))
}

/// Whether line `i` is an RFC's `Security Considerations` title laid out
/// at the template's headings' margin (no colon, a blank line or a page
/// break before and after it), as it stands after a template that an
/// unnumbered `IANA Considerations` ended: outside the template, the
/// RFC's section, not a second template's heading.
fn security_title(lines: &[&str], i: usize, margin: usize) -> bool {
    let line = lines[i];
    line.len() - line.trim_start().len() <= margin
        && !line.contains(':')
        && normalize(strip_numbering(strip_markup(line.trim())).0.trim()) == "security considerations"
        && stands_apart(lines, i)
}

/// Whether `line` has no text, or is a page break's.
fn blank_or_break(line: &str) -> bool {
    line.trim().is_empty() || line == PAGE_BREAK
}

/// Whether line `i` has a blank line or a page break (or the text's start
/// or end) right before and right after it.
fn stands_apart(lines: &[&str], i: usize) -> bool {
    (i == 0 || blank_or_break(lines[i - 1])) && lines.get(i + 1).is_none_or(|l| blank_or_break(l))
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
