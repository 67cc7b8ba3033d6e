//! Finding the ABNF (RFC 5234) inside a registration's free-text Syntax
//! section, so that lint can compile it.

/// The ABNF found in a text: the text with every line that is not part of
/// a rule blanked, so that line numbers are those of the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundAbnf {
    /// The grammar (same line count as the original up to its last rule).
    pub text: String,
    /// 1-based line of the first rule, in the original text.
    pub first_line: usize,
}

/// The rule name and what follows `=` or `=/`, if `line` defines a rule.
fn rule_definition(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let name_len = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-')
        .count();
    if name_len == 0 || !t.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let rest = t[name_len..].trim_start();
    let rhs = rest.strip_prefix("=/").or_else(|| rest.strip_prefix('='))?;
    (rhs.is_empty() || rhs.starts_with([' ', '\t']) && is_abnf_elements(rhs)).then_some(rhs)
}

/// The rules of a grammar whose rules start in column 0, in order: each
/// rule's name and its right-hand side, continuation lines joined with a
/// newline and an indentation (so that the text stays a continuation).
pub fn rule_definitions(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let in_column_0 = !line.starts_with([' ', '\t']);
        match rule_definition(line).filter(|_| in_column_0) {
            Some(rhs) => {
                let name: String = line
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                out.push((name, rhs.trim().to_string()));
            }
            None => {
                if let Some((_, rhs)) = out.last_mut() {
                    rhs.push_str("\n    ");
                    rhs.push_str(line.trim());
                }
            }
        }
    }
    out
}

/// Whether `text` reads as ABNF elements (RFC 5234 section 4): rule
/// names, quoted strings, `%x`/`%d`/`%b` values, `%s`/`%i` strings,
/// `<prose>`, repetitions, `/`, groups, options and `;` comments. A comma
/// or a full stop outside a string means it is prose.
fn is_abnf_elements(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b'/' | b'(' | b')' | b'[' | b']' | b'*' => i += 1,
            b'0'..=b'9' => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => match text[i + 1..].find('"') {
                Some(end) => i += end + 2,
                None => return false,
            },
            b'<' => match text[i + 1..].find('>') {
                Some(end) => i += end + 2,
                None => return false,
            },
            b'%' => {
                i += 1;
                match b.get(i).map(u8::to_ascii_lowercase) {
                    Some(b'x' | b'd' | b'b') => {
                        i += 1;
                        while i < b.len() && (b[i].is_ascii_hexdigit() || b[i] == b'.' || b[i] == b'-') {
                            i += 1;
                        }
                    }
                    Some(b's' | b'i') if b.get(i + 1) == Some(&b'"') => i += 1,
                    _ => return false,
                }
            }
            c if c.is_ascii_alphabetic() => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-') {
                    i += 1;
                }
            }
            // Not ABNF (RFC 5234 is ASCII), but a typo in it (an en dash
            // for '-' in `%x31–39`): the rule is kept, so that compiling
            // it names the character where it is.
            c if !c.is_ascii() => i += 1,
            _ => return false,
        }
    }
    true
}

/// Whether the right-hand sides look like ABNF rather than prose such as
/// `NSS = the ISBN number`.
fn looks_like_abnf(rhs: &str) -> bool {
    const CORE: &[&str] = &[
        "ALPHA",
        "DIGIT",
        "HEXDIG",
        "SP",
        "VCHAR",
        "CHAR",
        "OCTET",
        "WSP",
        "pchar",
        "unreserved",
        "alphanum",
    ];
    rhs.contains('"')
        || rhs.contains("%x")
        || rhs.contains("%d")
        || rhs.contains(" / ")
        || rhs.contains('*')
        || rhs.contains('[')
        || rhs.contains('(')
        || rhs
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            // A repetition's count is no part of the name (RFC 5234
            // section 3.7: `8DIGIT`).
            .any(|w| CORE.contains(&w.trim_start_matches(|c: char| c.is_ascii_digit())))
}

/// The ABNF rules in `text`, if it has any: a rule is a line `name =` or
/// `name =/`, and the more-indented lines after it continue it.
pub fn find_abnf(text: &str) -> Option<FoundAbnf> {
    let lines: Vec<&str> = text.lines().collect();
    let mut keep = vec![false; lines.len()];
    let mut rhs_all = String::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(rhs) = rule_definition(lines[i]) else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - lines[i].trim_start().len();
        keep[i] = true;
        rhs_all.push_str(rhs);
        rhs_all.push('\n');
        i += 1;
        while i < lines.len() {
            let l = lines[i];
            let deeper = !l.trim().is_empty() && l.len() - l.trim_start().len() > indent;
            if !deeper || !is_abnf_elements(l) {
                break;
            }
            keep[i] = true;
            rhs_all.push_str(l);
            rhs_all.push('\n');
            i += 1;
        }
    }
    let first = keep.iter().position(|k| *k)?;
    if !looks_like_abnf(&rhs_all) {
        return None;
    }
    let last = keep.iter().rposition(|k| *k)?;
    let text = lines[..=last]
        .iter()
        .zip(&keep)
        .map(|(l, k)| if *k { *l } else { "" })
        .collect::<Vec<_>>()
        .join("\n");
    Some(FoundAbnf {
        text,
        first_line: first + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule with a non-ASCII typo (an en dash for '-', as in a real
    /// registration) is still a rule: compiling it names the character
    /// where it is, not a rule "not defined" where it is used.
    #[test]
    fn a_rule_with_a_non_ascii_typo_is_kept_and_its_error_named() {
        let text = "NSS = part \"-\" letter\npart = 1*8DIGIT\nletter = %x41\u{2013}5A\n";
        let found = find_abnf(text).unwrap();
        assert_eq!(found.text.lines().count(), 3);
        let err = crate::rules::abnf::compile(&found.text, None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("non-ASCII character '\u{2013}' (U+2013)"), "{err}");
        assert!(err.contains("line 3"), "{err}");
    }

    #[test]
    fn finds_rules_and_their_continuations() {
        let text = "The NSS is:\n\n   nss = part *(\":\" part)\n   part = 1*( ALPHA\n          / DIGIT )\n\nThat is all.";
        let found = find_abnf(text).unwrap();
        assert_eq!(found.first_line, 3);
        assert_eq!(found.text.lines().count(), 5);
        assert!(found.text.lines().nth(4).unwrap().contains("DIGIT"));
        assert!(crate::rules::abnf::compile(&found.text, None).is_ok());
    }

    #[test]
    fn rule_definitions_keep_continuations() {
        let rules = rule_definitions("nss = part *(\":\" part)\npart = 1*( ALPHA\n   / DIGIT )\n");
        assert_eq!(
            rules,
            [
                ("nss".to_string(), "part *(\":\" part)".to_string()),
                ("part".to_string(), "1*( ALPHA\n    / DIGIT )".to_string())
            ]
        );
    }

    /// RFC 5234 section 3.7: a specific repetition of a core rule alone
    /// (`8DIGIT`) is a grammar.
    #[test]
    fn a_repeated_core_rule_alone_is_abnf() {
        for text in [
            "NSS = 8DIGIT",
            "NSS = 2ALPHA",
            "nss = 8HEXDIG",
            "NSS = part-number
part-number = 8DIGIT",
        ] {
            assert!(find_abnf(text).is_some(), "{text}");
        }
    }

    #[test]
    fn prose_with_an_equals_sign_is_not_abnf() {
        assert_eq!(find_abnf("NSS = the ISBN number of the book"), None);
        assert_eq!(find_abnf("No grammar here."), None);
        assert_eq!(
            find_abnf("NSS = part-number, where part-number = 1*8DIGIT."),
            None
        );
    }
}
