//! Reads a filled-in registration template out of free text.
//!
//! Real registration texts are irregular: RFC 8141 Appendix A headings
//! (`Namespace Identifier:`), RFC 3406 ones (`Declaration of syntactic
//! structure:`), numbered RFC sections (`3.4.  Declaration of ...`),
//! underlined headings, values on the heading line or below it, CRLF line
//! ends, a byte-order mark. The reader finds the heading lines, keeps the
//! ones at the outermost indentation (deeper ones are part of a value), and
//! gives each field the text up to the next heading, de-indented. What it
//! cannot place is listed in the report, never silently dropped.

use super::TemplateFields;
use crate::registry::{Kind, RegistrationFile};

/// Heading texts (lower case) and the field each names; longest first
/// where one is a prefix of another.
const HEADINGS: &[(&str, &str)] = &[
    ("declared registrant of the namespace", "declared_registrant"),
    ("declaration of syntactic structures", "syntactic_structure"),
    ("declaration of syntactic structure", "syntactic_structure"),
    ("registrant of the namespace", "declared_registrant"),
    ("declaration of structure", "syntactic_structure"),
    ("identifier uniqueness considerations", "uniqueness"),
    ("identifier persistence considerations", "persistence"),
    ("process of identifier assignment", "assignment_process"),
    ("process for identifier resolution", "resolution_process"),
    ("relevant ancillary documentation", "ancillary_documentation"),
    ("rules for lexical equivalence", "lexical_equivalence"),
    ("conformance with urn syntax", "conformance"),
    ("security and privacy considerations", "security_and_privacy"),
    ("security and privacy", "security_and_privacy"),
    ("registration information", "registration_information"),
    ("namespace identifier", "namespace_identifier"),
    ("additional information", "additional_information"),
    ("revision information", "revision_information"),
    ("validation mechanism", "validation"),
    ("syntactic structure", "syntactic_structure"),
    ("security considerations", "security_and_privacy"),
    ("interoperability", "interoperability"),
    ("namespace id", "namespace_identifier"),
    ("namespaceid", "namespace_identifier"),
    ("documentation", "documentation"),
    ("registrant", "registrant"),
    ("resolution", "resolution"),
    ("assignment", "assignment"),
    ("purpose", "purpose"),
    ("version", "version"),
    ("syntax", "syntax"),
    ("scope", "scope"),
    ("date", "date"),
];

/// What the importer made of a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// The fields found.
    pub fields: TemplateFields,
    /// What could not be placed in a field, for people to read.
    pub unplaced: Vec<String>,
}

/// Reads a registration file out of a filled-in template text: the
/// fields of [`import_text`], with the NID, version and date taken out of
/// their text. What could not be placed is returned for people to read.
pub fn import_registration(text: &str) -> (RegistrationFile, Vec<String>) {
    let report = import_text(text);
    let mut notes = report.unplaced;
    let fields = &report.fields;
    let nid = fields.namespace_identifier.as_deref().and_then(|t| {
        let found = nid_in(t);
        if found.is_none() {
            notes.push(format!(
                "Namespace Identifier: no NID found in '{}'",
                first_line(t)
            ));
        }
        found
    });
    let version = fields.version.as_deref().and_then(|t| {
        let word = first_line(t).split_whitespace().next().unwrap_or("");
        let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
        let v = digits.parse::<i64>().ok();
        match v {
            None => notes.push(format!("Version: '{}' is not a number", first_line(t))),
            Some(v) if first_line(t) != digits => {
                notes.push(format!("Version: '{}' read as {v}", first_line(t)))
            }
            Some(_) => {}
        }
        v
    });
    let date = fields.date.as_deref().map(|t| first_line(t).to_string());
    let kind = nid.as_deref().map(|n| {
        if n.len() > 4 && n[..4].eq_ignore_ascii_case("urn-") {
            Kind::Informal
        } else {
            Kind::Formal
        }
    });
    let file = RegistrationFile::from_fields(kind, nid, version, date, fields);
    (file, notes)
}

fn first_line(text: &str) -> &str {
    text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// The NID a Namespace Identifier text names: its first word, or failing
/// that a quoted word, if it has the syntax of a NID (RFC 8141 section 2).
fn nid_in(text: &str) -> Option<String> {
    let is_nid = |w: &str| crate::urn::check_nid(w).is_ok();
    let clean = |w: &str| {
        w.trim_matches(|c: char| {
            matches!(
                c,
                '"' | '\'' | '`' | '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}'
            )
        })
        .trim_end_matches(['.', ',', ';', ':', ')'])
        .trim_matches(|c: char| {
            matches!(
                c,
                '"' | '\'' | '`' | '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}'
            )
        })
        .to_string()
    };
    let quoted = |w: &&str| w.starts_with(['"', '\'', '\u{201c}', '\u{2018}']);
    if let Some(found) = text
        .split_whitespace()
        .filter(quoted)
        .map(clean)
        .find(|w| is_nid(w))
    {
        return Some(found);
    }
    // The first word of the first line that does not introduce the next
    // ("Request is made for a formal assignment:").
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.ends_with(':'))?;
    line.split_whitespace().next().map(clean).filter(|w| is_nid(w))
}

/// A heading found on a line.
struct Heading {
    line: usize,
    indent: usize,
    key: &'static str,
    /// Text after the heading's `:` on the same line.
    rest: String,
    /// The next line is an underline (`----`, `====`) that belongs to it.
    underlined: bool,
    /// It carries a section number (`3.1.`).
    numbered: bool,
}

fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'='))
}

/// Strips a section number such as `3.`, `3.1.` or `4.2` and what follows it.
fn strip_numbering(s: &str) -> (&str, bool) {
    let digits_and_dots = s.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    if digits_and_dots == 0 || !s.as_bytes()[0].is_ascii_digit() {
        return (s, false);
    }
    let rest = &s[digits_and_dots..];
    if rest.starts_with(' ') || rest.starts_with('\t') {
        (rest.trim_start(), true)
    } else {
        (s, false)
    }
}

fn find_heading(lines: &[&str], i: usize) -> Option<Heading> {
    let line = lines[i];
    let indent = line.len() - line.trim_start().len();
    let (text, numbered) = strip_numbering(line.trim());
    let lower = text.to_ascii_lowercase();
    let underlined = lines.get(i + 1).is_some_and(|l| is_underline(l));
    for (label, key) in HEADINGS {
        let Some(after) = lower.strip_prefix(label) else {
            continue;
        };
        let after_trimmed = after.trim_start();
        if let Some(rest) = after_trimmed.strip_prefix(':') {
            let offset = text.len() - rest.len();
            return Some(Heading {
                line: i,
                indent,
                key,
                rest: text[offset..].trim().to_string(),
                underlined,
                numbered,
            });
        }
        if after_trimmed.is_empty() && (numbered || underlined || after.is_empty()) {
            return Some(Heading {
                line: i,
                indent,
                key,
                rest: String::new(),
                underlined,
                numbered,
            });
        }
    }
    None
}

/// Removes the common indentation and the blank lines at both ends.
fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.len() >= indent {
                l[indent..].trim_end()
            } else {
                l.trim()
            }
        })
        .collect();
    let start = body.iter().position(|l| !l.is_empty()).unwrap_or(body.len());
    let end = body.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    body[start..end].join("\n")
}

/// Reads template fields out of `text`.
pub fn import_text(text: &str) -> ImportReport {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let normalized = text.replace("\r\n", "\n");
    let lines: Vec<&str> = normalized.split('\n').collect();
    let candidates: Vec<Heading> = (0..lines.len()).filter_map(|i| find_heading(&lines, i)).collect();
    let mut report = ImportReport::default();
    let Some(outer) = candidates.iter().map(|h| h.indent).min() else {
        if !text.trim().is_empty() {
            report
                .unplaced
                .push("no template field headings found".to_string());
        }
        return report;
    };
    // Numbered headings (RFC-style sections) win over everything else;
    // otherwise the outermost indentation does.
    let any_numbered = candidates.iter().any(|h| h.numbered);
    let headings: Vec<&Heading> = candidates
        .iter()
        .filter(|h| {
            if any_numbered {
                h.numbered || h.underlined
            } else {
                h.indent == outer
            }
        })
        .collect();
    if let Some(first) = headings.first() {
        let before = dedent(&lines[..first.line]);
        if !before.is_empty() {
            report.unplaced.push(format!(
                "lines 1-{} before the first field: {}",
                first.line,
                preview(&before)
            ));
        }
    }
    for (n, h) in headings.iter().enumerate() {
        let body_start = h.line + 1 + usize::from(h.underlined);
        let body_end = headings.get(n + 1).map_or(lines.len(), |next| next.line);
        let mut value = dedent(&lines[body_start.min(body_end)..body_end]);
        if !h.rest.is_empty() {
            value = if value.is_empty() {
                h.rest.clone()
            } else {
                format!("{}\n{value}", h.rest)
            };
        }
        let slot = report.fields.get_mut(h.key).expect("HEADINGS names known fields");
        match slot {
            None => *slot = Some(value),
            Some(existing) => {
                report.unplaced.push(format!(
                    "line {}: a second '{}' heading; its text was appended to the first",
                    h.line + 1,
                    h.key
                ));
                if !value.is_empty() {
                    existing.push_str("\n\n");
                    existing.push_str(&value);
                }
            }
        }
    }
    report
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
        assert!(r.unplaced.is_empty());
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

    #[test]
    fn text_before_the_first_heading_is_reported() {
        let r = import_text("A title\n\nSyntax: x\n");
        assert_eq!(r.fields.syntax.as_deref(), Some("x"));
        assert_eq!(r.unplaced.len(), 1);
    }
}
