//! Directives in an r-component: `keywd=value` joined by `&` (the 2012 URN
//! draft, section 2.3):
//!
//! ```text
//! urn-query = directive *( "&" directive )
//! directive = keywd "=" value
//! keywd     = ALPHA *( ["-"] (ALPHA / DIGIT) )
//! value     = *v-pchar          ; any r-component character but "&"
//! ```

use super::subregistries::{QueryRegistry, Scope, is_keyword};
use crate::urn::shortened;

/// One directive, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Directive<'a> {
    /// Its keyword.
    pub keyword: &'a str,
    /// Its value (possibly empty).
    pub value: &'a str,
    /// The byte offset of the keyword within the r-component.
    pub offset: usize,
}

/// What is off with the directives of an r-component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectiveIssueKind {
    /// The r-component is not `directive *("&" directive)`.
    Syntax,
    /// A registered keyword appears more than once: a resolver ignores
    /// every directive of it (section 2.3).
    DuplicateKeyword,
    /// A keyword the Query Keywords sub-registry does not hold.
    UnknownKeyword,
    /// An `s=` value the Resolution Service Designators sub-registry does
    /// not hold.
    UnknownService,
    /// A keyword (but `s`) whose "Supported by" list does not name this
    /// namespace: another namespace's, or one its registration does not
    /// adopt (section 2.3.2), an empty list naming no one.
    KeywordNotSupported,
}

/// One issue, at a byte offset within the r-component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveIssue {
    /// What it is.
    pub kind: DirectiveIssueKind,
    /// Where, in the r-component.
    pub offset: usize,
    /// For people.
    pub message: String,
}

/// Returns true if `piece` is `keywd "=" value` (section 2.3).
fn is_directive(piece: &str) -> bool {
    piece
        .split_once('=')
        .is_some_and(|(keyword, _)| is_keyword(keyword))
}

/// The directives of r-component `r` (without its `?+`) as written, when
/// it is in directive form (section 2.3), else `None`; no issue is looked
/// for (what a writer of a URN's parts needs, at no cost of its own).
pub fn written_directives(r: &str) -> Option<impl Iterator<Item = Directive<'_>>> {
    let pieces = move || {
        let mut offset = 0;
        r.split('&').map(move |piece| {
            let at = offset;
            offset += piece.len() + 1;
            (piece, at)
        })
    };
    pieces().all(|(piece, _)| is_directive(piece)).then(move || {
        pieces().map(|(piece, offset)| {
            let (keyword, value) = piece.split_once('=').unwrap_or_default();
            Directive {
                keyword,
                value,
                offset,
            }
        })
    })
}

/// The directives of r-component `r` (without its `?+`), with the issues
/// found against `registry` for a URN of namespace `nid` (any case).
/// An r-component that is not in directive form gives no directives and
/// one `Syntax` issue.
pub fn directives<'a>(
    r: &'a str,
    nid: &str,
    registry: &QueryRegistry,
) -> (Vec<Directive<'a>>, Vec<DirectiveIssue>) {
    let Some(written) = written_directives(r) else {
        // The first piece out of form, said.
        let mut offset = 0;
        let mut piece = r;
        for p in r.split('&') {
            if !is_directive(p) {
                piece = p;
                break;
            }
            offset += p.len() + 1;
        }
        let issue = DirectiveIssue {
            kind: DirectiveIssueKind::Syntax,
            offset,
            message: format!(
                "r-component is not of the form keywd=value joined by '&' at '{}' \
                 (URN draft 2012 §2.3)",
                shortened(piece)
            ),
        };
        return (Vec::new(), vec![issue]);
    };
    let found: Vec<Directive<'a>> = written.collect();
    let mut issues = Vec::new();
    // How often each keyword has appeared before: the few directives of a
    // real r-component are looked at again, many are counted in a map (a
    // scan of those before for each was quadratic).
    let mut seen: Option<std::collections::HashMap<&str, usize>> =
        (found.len() > 16).then(std::collections::HashMap::new);
    for (i, d) in found.iter().enumerate() {
        if issues.len() > MAX_ISSUES {
            break;
        }
        let earlier = match seen.as_mut() {
            Some(seen) => {
                let count = seen.entry(d.keyword).or_default();
                *count += 1;
                *count - 1
            }
            None => found[..i].iter().filter(|e| e.keyword == d.keyword).count(),
        };
        let Some(entry) = registry.keyword(d.keyword) else {
            issues.push(DirectiveIssue {
                kind: DirectiveIssueKind::UnknownKeyword,
                offset: d.offset,
                message: format!(
                    "keyword '{}' is not registered: a resolver ignores it (URN draft 2012 §2.3)",
                    shortened(d.keyword)
                ),
            });
            continue;
        };
        if earlier > 0 {
            // Said once, at its second appearance.
            if earlier == 1 {
                issues.push(DirectiveIssue {
                    kind: DirectiveIssueKind::DuplicateKeyword,
                    offset: d.offset,
                    message: format!(
                        "keyword '{}' appears more than once: a resolver ignores all its directives \
                         (URN draft 2012 §2.3)",
                        shortened(d.keyword)
                    ),
                });
            }
            continue;
        }
        // A namespace supports a keyword when its registration adopts it
        // (section 2.3.2: namespaces "MAY adopt the use of this query
        // instruction ... and need to specify that fact in the URN
        // Namespace registration"), which puts it on the keyword's
        // "Supported by" list (section 9.2.1): an empty list names no
        // one, so whether others adopted it changes nothing here.
        // `s` is for every namespace (section 2.3.1: "expected to be
        // supported by new URN resolution systems for any URN namespaces"),
        // and urnreg's resolver honours it for each: a namespace that
        // declares it (and so joins its "Supported by" list) takes it
        // from no other.
        let supports = entry.supported_by.iter().any(|s| s.nid.eq_ignore_ascii_case(nid));
        if d.keyword != "s" && !supports {
            let whose = match entry.scope {
                Scope::Specific => "it is another namespace's",
                Scope::Global => "its registration does not adopt it",
            };
            issues.push(DirectiveIssue {
                kind: DirectiveIssueKind::KeywordNotSupported,
                offset: d.offset,
                message: format!(
                    "keyword '{}' is not supported by the '{}' namespace: {whose} (URN draft 2012 \
                     §§2.3.2 and 9.2.1)",
                    shortened(d.keyword),
                    nid.to_ascii_lowercase()
                ),
            });
        }
        // Directives are case-sensitive (section 2.3): `s=i2l` names no
        // service, and the one it likely meant is said.
        if d.keyword == "s" && registry.service_exact(d.value).is_none() {
            let meant = case_hint(d.value, registry);
            issues.push(DirectiveIssue {
                kind: DirectiveIssueKind::UnknownService,
                offset: d.offset + 2,
                message: format!(
                    "'{}' is not a registered resolution service{meant}: a resolver falls back to \
                     the namespace's default (URN draft 2012 §2.3.1)",
                    shortened(d.value)
                ),
            });
        }
    }
    if issues.len() > MAX_ISSUES {
        // The first ones, and a word on the rest: each issue is a finding
        // whose text shows the URN again.
        issues.truncate(MAX_ISSUES);
        let last = &issues[MAX_ISSUES - 1];
        let (kind, offset) = (last.kind, last.offset);
        issues.push(DirectiveIssue {
            kind,
            offset,
            message: format!(
                "more directive issues follow, not listed: at most {MAX_ISSUES} are (URN draft 2012 §2.3)"
            ),
        });
    }
    (found, issues)
}

/// For an `s=` value that names a registered service or alias but in
/// another case: ` (directives are case-sensitive: s=I2Ls?)`, naming it;
/// else nothing.
pub(crate) fn case_hint(value: &str, registry: &QueryRegistry) -> String {
    registry
        .service(value)
        .map(|s| {
            let name = std::iter::once(&s.name)
                .chain(&s.aliases)
                .find(|n| n.eq_ignore_ascii_case(value))
                .unwrap_or(&s.name);
            format!(" (directives are case-sensitive: s={name}?)")
        })
        .unwrap_or_default()
}

/// The most issues [`directives`] lists for one r-component.
pub const MAX_ISSUES: usize = 16;

#[cfg(test)]
mod tests {
    use super::super::subregistries::{Keyword, SupportedBy};
    use super::*;

    fn kinds(r: &str, nid: &str, registry: &QueryRegistry) -> Vec<(DirectiveIssueKind, usize)> {
        directives(r, nid, registry)
            .1
            .iter()
            .map(|i| (i.kind, i.offset))
            .collect()
    }

    /// However many directives, at most MAX_ISSUES issues and a word on
    /// the rest, found in time linear in their number (each issue is a
    /// finding whose text shows the whole URN again: 16,000 of them made
    /// gigabytes of text).
    #[test]
    fn issues_are_bounded_and_repeats_found_once() {
        let many: Vec<String> = (0..20_000).map(|i| format!("k{i}=v")).collect();
        let r = many.join("&");
        let (found, issues) = directives(&r, "isbn", QueryRegistry::shipped());
        assert_eq!(found.len(), 20_000);
        assert_eq!(issues.len(), MAX_ISSUES + 1);
        assert!(
            issues[MAX_ISSUES].message.contains("not listed"),
            "{:?}",
            issues[MAX_ISSUES]
        );
        let repeated = vec!["s=I2L"; 50_000].join("&");
        let (_, issues) = directives(&repeated, "isbn", QueryRegistry::shipped());
        assert_eq!(kinds_of(&issues), [(DirectiveIssueKind::DuplicateKeyword, 6)]);
    }

    fn kinds_of(issues: &[DirectiveIssue]) -> Vec<(DirectiveIssueKind, usize)> {
        issues.iter().map(|i| (i.kind, i.offset)).collect()
    }

    #[test]
    fn directives_are_read_in_order() {
        let (found, issues) = directives("s=I2L&c=ToC", "isbn", QueryRegistry::shipped());
        // Section 2.3.2: the isbn registration does not adopt `c`.
        assert_eq!(kinds_of(&issues), [(DirectiveIssueKind::KeywordNotSupported, 6)]);
        let pairs: Vec<(&str, &str, usize)> = found.iter().map(|d| (d.keyword, d.value, d.offset)).collect();
        assert_eq!(pairs, [("s", "I2L", 0), ("c", "ToC", 6)]);
        let (found, _) = directives("s=", "isbn", QueryRegistry::shipped());
        assert_eq!(found[0].value, "");
    }

    /// Section 2.3's grammar, each registered keyword once, unknown
    /// keywords and services, and "Supported by".
    #[test]
    fn each_issue_is_found_where_it_is() {
        use DirectiveIssueKind::*;
        let shipped = QueryRegistry::shipped();
        assert_eq!(kinds("foo", "isbn", shipped), [(Syntax, 0)]);
        assert_eq!(kinds("s=I2L&=x", "isbn", shipped), [(Syntax, 6)]);
        assert_eq!(kinds("1s=I2L", "isbn", shipped), [(Syntax, 0)]);
        assert_eq!(kinds("s-=x", "isbn", shipped), [(Syntax, 0)]);
        assert_eq!(
            kinds("s=I2L&s=I2C&s=I2R", "isbn", shipped),
            [(DuplicateKeyword, 6)]
        );
        assert_eq!(kinds("lang=en", "isbn", shipped), [(UnknownKeyword, 0)]);
        assert_eq!(kinds("s=I2U", "isbn", shipped), [(UnknownService, 2)]);
        assert!(
            kinds("s=N2L", "isbn", shipped).is_empty(),
            "RFC 2169 names are aliases"
        );
        // Section 2.3: directives are case-sensitive, values too; the
        // service meant is said.
        assert_eq!(kinds("s=n2l", "isbn", shipped), [(UnknownService, 2)]);
        let (_, issues) = directives("s=i2ls", "isbn", shipped);
        assert!(issues[0].message.contains("s=I2Ls?"), "{}", issues[0].message);
        let (_, issues) = directives("s=n2ls", "isbn", shipped);
        assert!(issues[0].message.contains("s=N2Ls?"), "{}", issues[0].message);
        let (_, issues) = directives("s=I2U", "isbn", shipped);
        assert!(!issues[0].message.contains("case"), "{}", issues[0].message);
        let mut r = shipped.clone();
        r.keywords.push(Keyword {
            keyword: "ed".into(),
            purpose: "edition".into(),
            scope: Scope::Specific,
            reference: "test".into(),
            supported_by: vec![SupportedBy {
                nid: "isbn".into(),
                reference: "test".into(),
            }],
        });
        assert!(kinds("ed=2", "isbn", &r).is_empty());
        assert_eq!(kinds("ed=2", "issn", &r), [(KeywordNotSupported, 0)]);
        // Section 2.3.1: `s` is for every namespace; one declaring it
        // (joining its "Supported by" list) takes it from no other.
        r.keywords[0].supported_by.push(SupportedBy {
            nid: "isbn".into(),
            reference: "test".into(),
        });
        assert!(kinds("s=I2L", "issn", &r).is_empty());
        // Section 2.3.2: a namespace supports `c` when its registration
        // adopts it. Adopted by none (an empty "Supported by" list, as
        // shipped), it is supported by none; adopted by isbn, by isbn
        // alone: another namespace's registration changes no verdict.
        assert!(r.keywords[1].supported_by.is_empty());
        assert_eq!(kinds("c=ToC", "issn", &r), [(KeywordNotSupported, 0)]);
        assert_eq!(kinds("c=ToC", "isbn", &r), [(KeywordNotSupported, 0)]);
        let (_, issues) = directives("c=ToC", "issn", &r);
        assert!(
            issues[0].message.contains("its registration does not adopt it"),
            "{}",
            issues[0].message
        );
        r.keywords[1].supported_by.push(SupportedBy {
            nid: "isbn".into(),
            reference: "test".into(),
        });
        assert_eq!(kinds("c=ToC", "issn", &r), [(KeywordNotSupported, 0)]);
        assert!(kinds("c=ToC", "ISBN", &r).is_empty());
        assert!(is_keyword("a-b1") && !is_keyword("a--b") && !is_keyword("-a") && !is_keyword(""));
    }
}
