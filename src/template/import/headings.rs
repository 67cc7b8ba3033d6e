//! Finding the field headings of a template: the heading texts of RFC 8141
//! Appendix A, RFC 3406 and RFC 2611 and their variants, how a line is
//! recognised as one (numbered, underlined, fuzzy), and which headings
//! belong to the template.

use super::*;

/// Heading texts (lower case, single spaces) and the field each names: the
/// headings of RFC 8141 Appendix A and RFC 3406 section 4, and wordings
/// real registrations use for them. These match exactly; anything else
/// only by [`fuzzy_heading`], with a note.
pub(super) const HEADINGS: &[(&str, &str)] = &[
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
pub(super) const QUALIFIER_WORDS: &[&str] = &[
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
pub(super) const OPTIONAL_WORDS: &[&str] = &["considerations", "process", "rules"];

/// Words no heading is told apart by.
pub(super) const STOP_WORDS: &[&str] = &[
    "of", "for", "the", "a", "an", "and", "on", "in", "to", "with", "by",
];

/// Words real headings use for a label's word (IVIS's `Conformity with
/// URN syntax:` is RFC 3406's `Conformance with URN Syntax:`): read as it.
pub(super) const WORD_VARIANTS: &[(&str, &str)] = &[
    ("conformity", "conformance"),
    ("conforming", "conformance"),
    ("compliance", "conformance"),
];

/// Headings of sections RFC 3406 section 4.3 asks a formal registration's
/// RFC for, which no template field holds (RFC 7462 and RFC 3541 write
/// them inside their templates): the heading's words, and the section.
pub(super) const NO_FIELD_HEADINGS: &[&str] = &["namespace considerations", "community considerations"];

/// Headings a registration may write with the namespace's own name in
/// front (`ISBN assignment:` in the isbn, doi, meta and nan texts): the
/// heading's last words, and the field they name.
pub(super) const NID_PREFIXED: &[(&str, &str)] = &[("assignment", "assignment")];

/// How a heading line was recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum HowFound {
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
pub(super) struct Heading {
    pub(super) line: usize,
    pub(super) indent: usize,
    pub(super) key: &'static str,
    /// The heading as written (without numbering or markup).
    pub(super) written: String,
    pub(super) how: HowFound,
    /// Text after the heading's `:` on the same line.
    pub(super) rest: String,
    /// The next line is an underline (`----`, `====`) that belongs to it.
    pub(super) underlined: bool,
    /// It carries a section number (`3.1.`).
    pub(super) numbered: bool,
    /// The section number as written (`3.1.`), if numbered.
    pub(super) number: String,
    /// A `:` follows the heading.
    pub(super) colon: bool,
    /// Less indented than the template's run of headings, which are at
    /// this indentation.
    pub(super) outdented: Option<usize>,
    /// More indented than the template's run of headings, which are at
    /// this indentation: a field heading indented into the value above it
    /// ([`indented_field`]).
    pub(super) indented: Option<usize>,
}

pub(super) fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'='))
}

/// Strips a section number such as `3.`, `3.1.` or `4.2` and what
/// follows it; returns the rest and the number (empty when none).
pub(super) fn strip_numbering(s: &str) -> (&str, &str) {
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
pub(super) fn parent_number(number: &str) -> &str {
    number
        .trim_end_matches('.')
        .rsplit_once('.')
        .map_or("", |(parent, _)| parent)
}

/// The words a heading is told apart by: lower case, without
/// punctuation and [`STOP_WORDS`], a plural `s` dropped, sorted.
pub(super) fn heading_words(head: &str) -> Vec<String> {
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
pub(super) type LabelKey = (&'static str, &'static str);

/// What a heading's words name.
pub(super) enum WordMatch {
    /// One field: its label and key.
    One(&'static str, &'static str),
    /// Two fields named together (joined by "and" or "/").
    Two(LabelKey, LabelKey),
}

/// A label of [`HEADINGS`] with its field and its [`heading_words`].
pub(super) type LabelWords = (&'static str, &'static str, Vec<String>);

/// The words of [`QUALIFIER_WORDS`], and those of each label of
/// [`HEADINGS`] that has two or more: made once (every line ending in a
/// colon is tried as a heading; a text of thousands paid for them each
/// time).
pub(super) fn label_words() -> &'static (Vec<String>, Vec<LabelWords>) {
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
pub(super) fn word_heading(head: &str) -> Option<WordMatch> {
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
pub(super) fn strip_markup(s: &str) -> &str {
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
pub(super) fn continues_sentence(lines: &[&str], i: usize, text: &str) -> bool {
    let Some(above) = i.checked_sub(1).map(|j| lines[j]) else {
        return false;
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    text.trim_start().starts_with(|c: char| c.is_lowercase())
        && !above.trim().is_empty()
        && indent(above) <= indent(lines[i])
        && !above.trim_end().ends_with(['.', ':', '!', '?', ';'])
}

/// A line at least this long (without its indentation), ending in a
/// word, was filled by a paragraph's wrapping: the sentence goes on in
/// the next line.
pub(super) const WRAPPED_LINE_MIN: usize = 40;

/// Line `i` (whose text, without markup, is `text`) is the rest of a
/// sentence wrapped from the line above: [`continues_sentence`], the line
/// above filled to [`WRAPPED_LINE_MIN`] columns or more and ending in a
/// word (a short `Version: 1` above a lower-case `date: ...` is a heading
/// of its own).
pub(super) fn wrapped_into(lines: &[&str], i: usize, text: &str) -> bool {
    let above = i.checked_sub(1).map_or("", |j| lines[j].trim());
    continues_sentence(lines, i, text)
        && above.chars().count() >= WRAPPED_LINE_MIN
        && above.ends_with(|c: char| c.is_alphanumeric())
}

/// Markdown's other emphasis around a heading (`*Namespace ID:*`,
/// `_Scope:_`, `__Syntax:__`; CommonMark 6.2): the opening marker, right
/// before a letter, is no part of it. [`find_heading`] takes the closing
/// one off the heading's end and its text's start.
pub(super) fn without_emphasis(s: &str) -> &str {
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
pub(super) fn without_more_colons(rest: &str) -> &str {
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
pub(super) const BULLETS: &[&str] = &[
    "o", "\u{2022}", "\u{25e6}", "\u{25aa}", "\u{2023}", "\u{b7}", "\u{2013}",
];

/// A line without the list marker before a field's heading (the fields of
/// a template written as a list, as registrants drafting in a word
/// processor, ISO and ITU documents and xml2rfc v2 text write them): one of
/// [`BULLETS`], or an item's letter or number in brackets (`a)`, `(b)`,
/// `1)`, `(12)`), then a space. The heading is then read as unlisted; a
/// section number (`3.1.`) is [`strip_numbering`]'s.
pub(super) fn strip_list_marker(s: &str) -> &str {
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
pub(super) fn normalize(head: &str) -> String {
    head.trim_end_matches(['*', '_'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether a section's title (an xml2rfc source's, without numbering)
/// names a template field as written or by its words; not an RFC section
/// every RFC has ([`RFC_SECTION_TITLES`]).
pub(in crate::template) fn titles_a_field(title: &str) -> bool {
    let title = normalize(strip_numbering(title.trim()).0.trim_end_matches(':'));
    if title.len() > 80 || RFC_SECTION_TITLES.contains(&title.as_str()) {
        return false;
    }
    HEADINGS.iter().any(|(label, _)| *label == title) || word_heading(&title).is_some()
}

/// How many edits a misspelled heading may be from its label: none for
/// short labels (`date`, `scope`: too many words are one edit away), one
/// up to twelve characters, two beyond.
pub(super) fn edit_budget(label: &str) -> usize {
    match label.chars().count() {
        0..=5 => 0,
        6..=12 => 1,
        _ => 2,
    }
}

/// The optimal-string-alignment distance between `a` and `b` (insertions,
/// deletions, substitutions and swaps of neighbours), or `None` when it is
/// more than `limit`.
pub(super) fn edit_distance(a: &[char], b: &[char], limit: usize) -> Option<usize> {
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
pub(super) fn fuzzy_heading(head: &str) -> Option<(&'static str, &'static str, usize)> {
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
pub(super) fn find_heading(lines: &[&str], i: usize, nid: Option<&str>) -> Option<Heading> {
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
    // A field's word and a colon that go on with the sentence the line
    // above left unfinished (draft-ietf-uuidrev-rfc4122bis-01's
    // `Documentation: This document and RFC4122.  Relevant ancillary` /
    // `documentation: [NCA][C309]`): the sentence's text, no heading.
    if colon && !numbered && wrapped_into(lines, i, text) {
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

/// How many numbered section titles (with a colon or not), under one parent
/// section (`3.1.  Namespace ID`, `3.2.  Registration Information`, ...),
/// must name fields for the template to be written as numbered sections
/// ([`field_headings`]); every RFC's own titles ([`RFC_SECTION_TITLES`])
/// not counted. An RFC 3406 template has a dozen fields; a document's
/// prose sections titled like two or three of them are none.
pub(super) const MIN_NUMBERED_FIELDS: usize = 3;

/// Section titles every RFC has (RFC 7322 section 4.8.5) that are also
/// wordings of a template heading.
pub(super) const RFC_SECTION_TITLES: &[&str] = &["security considerations"];

/// The headings of `lines` that delimit fields: numbered headings
/// (RFC-style sections) win over everything else; otherwise those at the
/// outermost indentation.
///
/// A numbered title without a colon that every RFC has (`5.  Security
/// Considerations`) is a section of the RFC around a template, not one of
/// its fields, unless the template itself is written as numbered
/// sections: at least [`MIN_NUMBERED_FIELDS`] sections with the same
/// parent number (`3.1.  Namespace ID`, `3.2.  Registration Information`,
/// ...) name fields.
pub(super) fn field_headings(lines: &[&str], nid: Option<&str>) -> (Vec<Heading>, Vec<Heading>) {
    let contents = table_of_contents(lines).unwrap_or(0..0);
    let mut candidates: Vec<Heading> = (0..lines.len())
        .filter(|i| !contents.contains(i))
        .filter_map(|i| find_heading(lines, i, nid))
        .collect();
    // Field titles per parent number, counted once (a text of many
    // headings must not be walked again for each).
    // Every RFC's own titles (`8.  Security considerations`) count for
    // none: RFC 2141's `5.  Lexical Equivalence in URNs` beside it is no
    // template.
    let mut titles: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for h in candidates.iter().filter(|h| {
        h.numbered && !h.key.is_empty() && !RFC_SECTION_TITLES.contains(&normalize(&h.written).as_str())
    }) {
        *titles.entry(parent_number(&h.number)).or_default() += 1;
    }
    let siblings: Vec<usize> = candidates
        .iter()
        .map(|h| titles.get(parent_number(&h.number)).copied().unwrap_or(0))
        .collect();
    // A template of `Field:` lines: a numbered title without a colon
    // outside a numbered template is the RFC's own section (RFC 4122's
    // `4.1.3.  Version`, after its template in section 3), never a field.
    //
    // Nor is one in a text with no other template: two or three numbered
    // sections of a document about URNs titled like fields (`4.  Scope`,
    // `5.  Validation Mechanism`) are its prose, not a registration.
    // A numbered title that names the Namespace Identifier (`3.1.
    // Namespace ID`) makes the text's other numbered field titles its
    // template's, as before, in a text with no template of `Field:` lines.
    let names_nid = candidates
        .iter()
        .any(|h| h.numbered && !h.colon && h.key == "namespace_identifier");
    let colon_template = candidates.iter().filter(|h| h.colon && !h.key.is_empty()).count() >= 2;
    let mut keep = siblings.iter().map(|n| *n >= MIN_NUMBERED_FIELDS);
    candidates.retain(|h| {
        let numbered_template = keep.next().unwrap_or(false);
        // RFC 3406 section 4.3's sections (no field) are RFC sections too.
        let every_rfcs = h.key.is_empty() || RFC_SECTION_TITLES.contains(&normalize(&h.written).as_str());
        !h.numbered || h.colon || numbered_template || names_nid && !(every_rfcs || colon_template)
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
pub(super) fn indented_field(lines: &[&str], h: &Heading, at_level: &[&str]) -> bool {
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
pub(super) fn opening_field_lines(lines: &[&str], kept: &mut Vec<Heading>, set_aside: &mut Vec<Heading>) {
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
pub(super) fn table_of_contents(lines: &[&str]) -> Option<std::ops::Range<usize>> {
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

/// The display heading of a field key.
pub(super) fn heading_of(key: &str) -> &'static str {
    FIELDS.iter().find(|f| f.0 == key).map_or("?", |f| f.1)
}
