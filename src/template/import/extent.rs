//! Where the template starts and ends within a longer text: its level
//! and margin, the section titles, tables and code fences that end it, and
//! the document's own Security Considerations.

use super::*;

/// Where a template's field headings are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
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
pub(super) fn template_level(candidates: &[Heading]) -> Option<Level> {
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
pub(super) const UNNUMBERED_RFC_TITLES: &[&str] = &[
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
pub(super) const BACK_MATTER: &[&str] = &[
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
pub(super) fn is_section_title(lines: &[&str], i: usize, margin: usize) -> bool {
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
pub(super) fn continues_a_list(lines: &[&str], i: usize) -> bool {
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
pub(super) fn is_unlisted_title(lines: &[&str], i: usize, margin: usize) -> bool {
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
pub(super) fn template_end(
    lines: &[&str],
    headings: &[Heading],
    tables: &[Range<usize>],
) -> Option<(usize, String)> {
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
    // they are written so: the template's first field is. A template of
    // `Term:` lines or definitions has none, and a document's later
    // sections titled like fields (kramdown-rfc's RFC 4122bis: `###
    // Version` about the UUID's version bits, `# Security
    // Considerations`) do not make its `# Specification` a field's.
    let field_level = markdown_heading(lines, first.line, usize::MAX).and_then(|_| {
        headings
            .iter()
            .filter(|h| !h.key.is_empty())
            .filter_map(|h| markdown_heading(lines, h.line, usize::MAX))
            .min()
    });
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
pub(super) fn interrupts_template(lines: &[&str], i: usize, headings: &[Heading], margin: usize) -> bool {
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
pub(super) fn interrupting_titles(
    lines: &[&str],
    headings: &[Heading],
    end: usize,
    nid: Option<&str>,
) -> Vec<Heading> {
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
pub(super) const MAX_RUNS: usize = 64;

/// The index in `headings` of the first heading of the text's template,
/// among the runs of headings from one to where [`template_end`] finds
/// its template ended: the first run with a Namespace Identifier heading
/// (two whole templates: the first is read; a NID is what no
/// registration is without), else the one that names the most fields,
/// the first of equals. A prose sentence starting `Resolution: For URNs
/// that ...` (RFC 3044 section 3.1), or numbered sections of an RFC's
/// prose titled like fields (RFC 8458's `4.1.  Assignment`, `4.2.
/// Syntax`), are runs of one or two fields before the real template.
pub(super) fn best_run(lines: &[&str], headings: &[Heading], tables: &[Range<usize>]) -> usize {
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
pub(in crate::template) fn fields_named(text: &str) -> usize {
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
pub(super) const ONCE_FIELDS: &[&str] = &["namespace_identifier", "version", "date"];

/// Where the second template of a run of `headings` starts, and the field
/// whose heading repeats: at the first heading of a [`ONCE_FIELDS`] field
/// the run has had before (a misspelled one, read as that field by
/// [`fuzzy_heading`], is text: [`misspelled_repeats`]), or at the line
/// introducing that template (`Update (2025):`, alone in its paragraph
/// just above it, no heading).
pub(super) fn second_template_start(lines: &[&str], headings: &[Heading]) -> Option<(usize, &'static str)> {
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
pub(super) fn in_registration_information(headings: &[Heading], n: usize) -> bool {
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
pub(super) fn misspelled_repeats(headings: &[Heading]) -> Vec<usize> {
    (0..headings.len())
        .filter(|&n| {
            let h = &headings[n];
            ONCE_FIELDS.contains(&h.key)
                && matches!(h.how, HowFound::Fuzzy { .. })
                && headings[..n].iter().any(|before| before.key == h.key)
        })
        .collect()
}

/// The lines of a text inside Markdown code fences (CommonMark section
/// 4.5: a run of three or more backticks or tildes, indented three
/// columns at most, up to a run of the same character at least as long).
/// An unclosed fence runs to the end of the text.
pub(super) struct Fences(pub(super) Vec<bool>);

impl Fences {
    pub(super) fn of(lines: &[&str], from: usize) -> Fences {
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

    pub(super) fn inside(&self, i: usize) -> bool {
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
pub(super) fn container_end(lines: &[&str], first: usize) -> Option<(usize, &'static str)> {
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
pub(super) fn table_end(
    lines: &[&str],
    headings: &[Heading],
    tables: &[Range<usize>],
) -> Option<(usize, &'static str)> {
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
pub(super) fn markdown_heading(lines: &[&str], i: usize, max_indent: usize) -> Option<usize> {
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
pub(super) fn template_margin(headings: &[Heading]) -> usize {
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
pub(super) fn heading_shaped(lines: &[&str], i: usize, margin: usize) -> bool {
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
pub(super) fn is_appendix_a_body(key: &str) -> bool {
    !matches!(key, "namespace_identifier" | "version" | "date") && FIELDS.iter().any(|f| f.0 == key && f.2)
}

/// Whether `key` is a field of the RFC 3406 template only.
pub(super) fn is_rfc3406_only(key: &str) -> bool {
    FIELDS.iter().any(|f| f.0 == key && !f.2)
}

/// In a template of RFC 8141 Appendix A's fields (more of them than of
/// RFC 3406's), an RFC 3406 heading written after an Appendix A field
/// ("Rules for Lexical Equivalence:" after "Syntax:" in the isbn, doi and
/// mrn texts) is a sub-heading of that field, whose text goes on below
/// it: Appendix A has no such field, and its Syntax states the
/// equivalence rules (RFC 8141 section 6.4.2). Takes those headings out
/// of `headings` and returns them.
pub(super) fn rfc3406_headings_inside_fields(headings: &mut Vec<Heading>) -> Vec<Heading> {
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

/// A value that is one Markdown code fence whole (```` ```text ````, its
/// text, ```` ``` ````; CommonMark section 4.5), as urnreg's own Markdown
/// form writes each field: its text without the fence lines.
pub(super) fn unfenced(value: String) -> String {
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
pub(in crate::template) fn closes(line: &str, open: &str) -> bool {
    fence_run(line).is_some_and(|run| run.starts_with(open) && line.trim() == run)
}

/// The run of backticks or tildes a code fence line starts with (three
/// or more).
pub(in crate::template) fn fence_run(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let mark = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = &t[..t.len() - t.trim_start_matches(mark).len()];
    (run.len() >= 3).then_some(run)
}

/// The line and text of the RFC's own Security Considerations section,
/// outside the template (lines `start..end`): before it (RFC 3187 has it
/// first) or after it, up to the next section title.
pub(super) fn security_section(
    lines: &[&str],
    start: usize,
    end: usize,
    margin: usize,
) -> Option<(usize, String)> {
    let at = (0..start).chain(end..lines.len()).find(|&i| {
        normalize(
            strip_numbering(without_anchor(strip_markup(lines[i].trim())))
                .0
                .trim(),
        ) == "security considerations"
            && (is_section_title(lines, i, margin) || security_title(lines, i, margin))
    })?;
    // A Markdown section (`# Security Considerations`) ends at the next
    // heading of its level or above (CommonMark section 4.2), a
    // kramdown-rfc `--- back` marker having been made a blank line.
    let level = markdown_heading(lines, at, 3);
    let stop = (at + 1..lines.len())
        .find(|&i| {
            i == start
                || is_section_title(lines, i, margin)
                || level.is_some_and(|level| markdown_heading(lines, i, 3).is_some_and(|l| l <= level))
        })
        .unwrap_or(lines.len());
    let value = dedent(&lines[at + 1..stop]);
    (!value.is_empty()).then_some((at, value))
}

/// Whether line `i` is an RFC's `Security Considerations` title laid out
/// at the template's headings' margin (no colon, a blank line or a page
/// break before and after it), as it stands after a template that an
/// unnumbered `IANA Considerations` ended: outside the template, the
/// RFC's section, not a second template's heading.
pub(super) fn security_title(lines: &[&str], i: usize, margin: usize) -> bool {
    let line = lines[i];
    line.len() - line.trim_start().len() <= margin
        && !line.contains(':')
        && normalize(
            strip_numbering(without_anchor(strip_markup(line.trim())))
                .0
                .trim(),
        ) == "security considerations"
        && stands_apart(lines, i)
}

/// A Markdown heading's title without the anchor kramdown gives it
/// (`Security Considerations {#security}`).
pub(super) fn without_anchor(title: &str) -> &str {
    match title
        .trim_end()
        .strip_suffix('}')
        .and_then(|t| t.rsplit_once("{#"))
    {
        Some((before, _)) => before.trim_end(),
        None => title,
    }
}

/// Whether `line` has no text, or is a page break's.
pub(super) fn blank_or_break(line: &str) -> bool {
    line.trim().is_empty() || line == PAGE_BREAK
}

/// Whether line `i` has a blank line or a page break (or the text's start
/// or end) right before and right after it.
pub(super) fn stands_apart(lines: &[&str], i: usize) -> bool {
    (i == 0 || blank_or_break(lines[i - 1])) && lines.get(i + 1).is_none_or(|l| blank_or_break(l))
}
