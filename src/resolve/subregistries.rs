//! The Query Keywords and Resolution Service Designators sub-registries
//! (the 2012 URN draft, sections 9.2.1 and 9.2.2), shipped in
//! `registry/_query.toml` with the draft's initial entries.
//!
//! What a registry holds of them is its *base* (the shipped entries and
//! what experts added since); what namespaces declare in their rules in
//! force is merged in by [`QueryRegistry::with_declared`]: a namespace
//! whose `[rules.resolution]` names a keyword in `keywords` is on that
//! keyword's "Supported by" list, and one that defines a keyword in
//! `new_keywords` holds it as a namespace-specific keyword (section
//! 9.2.1). So approving a registration adds its keywords, and a revision
//! that drops one takes it off, with nothing to keep in step.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The most entries each sub-registry holds, and the most "Supported by"
/// entries and service aliases in all: a hostile snapshot cannot grow
/// them without bound.
pub const MAX_QUERY_ENTRIES: usize = 1024;
/// The longest text of an entry's field, in bytes.
pub const MAX_QUERY_FIELD: usize = 1024;
/// The longest keyword, in bytes (the 2012 URN draft's `keywd` has no
/// bound; service names have 32 bytes, `is_service_name`).
pub const MAX_KEYWORD: usize = 64;
/// The statuses of a service designator (section 9.2.2).
pub const SERVICE_STATUSES: [&str; 4] = ["std", "exp", "provisional", "deprecated"];

/// Whether a keyword is open to every namespace or belongs to some.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Open for use with any namespace that adopts it (section 9.2.1).
    Global,
    /// For the namespaces of its "Supported by" list only.
    Specific,
}

impl Scope {
    /// `global` or `specific`, as the sub-registry writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Specific => "specific",
        }
    }

    /// The scope written `text`, if it is one.
    pub fn parse(text: &str) -> Option<Scope> {
        [Scope::Global, Scope::Specific]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// One `{NID, reference}` pair of a keyword's "Supported by" list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportedBy {
    /// The namespace.
    pub nid: String,
    /// Where it says so.
    pub reference: String,
}

/// An entry of the Query Keywords sub-registry (section 9.2.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyword {
    /// The token, as directives write it (case-sensitive, section 2.3).
    pub keyword: String,
    /// What it is for.
    pub purpose: String,
    /// Global or specific.
    pub scope: Scope,
    /// Its defining document.
    pub reference: String,
    /// The namespaces that support it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supported_by: Vec<SupportedBy>,
}

/// An entry of the Resolution Service Designators sub-registry
/// (section 9.2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Service {
    /// The mnemonic, the value of `s=`.
    pub name: String,
    /// What the service does.
    pub purpose: String,
    /// `std`, `exp`, `provisional` or `deprecated`.
    pub status: String,
    /// Its defining document.
    pub reference: String,
    /// Other names of the same service (RFC 2169's N2L for I2L, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

/// Returns true if `s` is a `keywd` (section 2.3): a letter, then letters
/// and digits, each maybe after one hyphen.
pub(crate) fn is_keyword(s: &str) -> bool {
    let b = s.as_bytes();
    let Some((first, rest)) = b.split_first() else {
        return false;
    };
    if !first.is_ascii_alphabetic() || rest.last() == Some(&b'-') {
        return false;
    }
    !rest.windows(2).any(|w| w == b"--") && rest.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
}

/// Both sub-registries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueryRegistry {
    /// Query Keywords.
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// Resolution Service Designators.
    #[serde(default)]
    pub services: Vec<Service>,
}

/// The shipped sub-registries' text.
const SHIPPED: &str = include_str!("../../registry/_query.toml");

impl QueryRegistry {
    /// The sub-registries shipped with urnreg (`registry/_query.toml`).
    pub fn shipped() -> &'static QueryRegistry {
        static SHIPPED_REGISTRY: OnceLock<QueryRegistry> = OnceLock::new();
        // Checked by a test: the shipped file always parses.
        SHIPPED_REGISTRY.get_or_init(|| QueryRegistry::parse(SHIPPED).unwrap_or_default())
    }

    /// The keyword entry of `keyword` (directives are case-sensitive).
    pub fn keyword(&self, keyword: &str) -> Option<&Keyword> {
        self.keywords.iter().find(|k| k.keyword == keyword)
    }

    /// The service named `name` or one of its aliases (service names are
    /// matched without regard to case, as RFC 2169's resolvers do).
    pub fn service(&self, name: &str) -> Option<&Service> {
        self.services.iter().find(|s| {
            s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The service whose name or one of whose aliases is exactly `value`:
    /// what an `s=` directive names, for directives are case-sensitive
    /// (URN draft 2012 section 2.3), so `s=i2l` names no service (a
    /// resolver falls back to the default, section 2.3.1). A service asked
    /// for otherwise (`resolve -s`, `/uri-res/{SERVICE}`) is matched
    /// without regard to case ([`QueryRegistry::service`]).
    pub fn service_exact(&self, value: &str) -> Option<&Service> {
        self.services
            .iter()
            .find(|s| s.name == value || s.aliases.iter().any(|a| a == value))
    }

    /// Reads sub-registries written as `registry/_query.toml` is, and
    /// checks them ([`QueryRegistry::problems`]).
    ///
    /// # Errors
    ///
    /// The TOML error, or the problems found, joined.
    pub fn parse(text: &str) -> Result<QueryRegistry, String> {
        let registry: QueryRegistry = toml::from_str(text).map_err(|e| e.to_string())?;
        let problems = registry.problems();
        if problems.is_empty() {
            Ok(registry)
        } else {
            Err(problems.join("; "))
        }
    }

    /// What is wrong with these entries, in words: a keyword that is not
    /// a `keywd` (section 2.3) or is listed twice, a specific keyword no
    /// namespace supports, a service name that is not a designator or
    /// clashes with another's name or alias (matched without regard to
    /// case), a status outside [`SERVICE_STATUSES`], an empty or
    /// unprintable text, more than [`MAX_QUERY_ENTRIES`] entries, a keyword
    /// over [`MAX_KEYWORD`] bytes or a text over [`MAX_QUERY_FIELD`] bytes.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        // Every list is bounded before anything is compared (names are
        // compared pairwise): a hostile snapshot within the file size limit
        // could otherwise hold millions of aliases.
        let supporters = self.keywords.iter().map(|k| k.supported_by.len()).sum::<usize>();
        let aliases = self.services.iter().map(|s| s.aliases.len()).sum::<usize>();
        for (what, n) in [
            ("keywords", self.keywords.len()),
            ("services", self.services.len()),
            ("'supported_by' entries", supporters),
            ("service aliases", aliases),
        ] {
            if n > MAX_QUERY_ENTRIES {
                out.push(format!(
                    "{n} {what}, more than MAX_QUERY_ENTRIES = {MAX_QUERY_ENTRIES}"
                ));
                return out;
            }
        }
        for (i, k) in self.keywords.iter().enumerate() {
            if k.keyword.len() > MAX_KEYWORD {
                let head: String = k.keyword.chars().take(24).collect();
                out.push(format!(
                    "keyword '{}…': longer than MAX_KEYWORD = {MAX_KEYWORD} bytes",
                    head.escape_debug()
                ));
                continue;
            }
            let at = format!("keyword '{}'", k.keyword.escape_debug());
            if !is_keyword(&k.keyword) {
                out.push(format!(
                    "{at}: not a keyword (a letter, then letters and digits, each maybe after one '-'; \
                     URN draft 2012 §2.3)"
                ));
            }
            if self.keywords[..i].iter().any(|o| o.keyword == k.keyword) {
                out.push(format!("{at}: listed twice"));
            }
            text_problems(
                &at,
                &[("purpose", &k.purpose), ("reference", &k.reference)],
                &mut out,
            );
            if k.scope == Scope::Specific && k.supported_by.is_empty() {
                out.push(format!(
                    "{at}: a namespace-specific keyword names the namespace it belongs to in 'supported_by' \
                     (URN draft 2012 §9.2.1)"
                ));
            }
            for s in &k.supported_by {
                if crate::check_nid(&s.nid).is_err() {
                    out.push(format!(
                        "{at}: supported by '{}', which is not a NID",
                        s.nid.escape_debug()
                    ));
                }
                text_problems(&at, &[("supported_by reference", &s.reference)], &mut out);
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for s in &self.services {
            let at = format!("service '{}'", s.name.escape_debug());
            for name in std::iter::once(&s.name).chain(&s.aliases) {
                if !is_service_name(name) {
                    out.push(format!(
                        "{at}: '{}' is not a service designator (a letter, then up to 31 letters, digits, \
                         '=' or '-'; RFC 2483 section 4)",
                        name.escape_debug()
                    ));
                }
                if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                    out.push(format!(
                        "{at}: the name '{name}' is taken by another service or alias"
                    ));
                }
                names.push(name);
            }
            if !SERVICE_STATUSES.contains(&s.status.as_str()) {
                out.push(format!(
                    "{at}: status '{}' is not one of {} (URN draft 2012 §9.2.2)",
                    s.status.escape_debug(),
                    SERVICE_STATUSES.join(", ")
                ));
            }
            text_problems(
                &at,
                &[("purpose", &s.purpose), ("reference", &s.reference)],
                &mut out,
            );
        }
        out
    }

    /// The namespace a specific keyword belongs to: the first of its
    /// "Supported by" list (the one whose registration defined it).
    pub fn owner(&self, keyword: &str) -> Option<&str> {
        self.keyword(keyword)
            .filter(|k| k.scope == Scope::Specific)
            .and_then(|k| k.supported_by.first())
            .map(|s| s.nid.as_str())
    }
}

/// Returns true if `name` can name a resolution service: a letter, then
/// up to 31 letters, digits, `=` or `-` (RFC 2483's `I2L` and `I=I`, RFC
/// 2169's `N2L`).
pub fn is_service_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 32
        && b[0].is_ascii_alphabetic()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'=' | b'-'))
}

/// Each text must be there, printable, and at most [`MAX_QUERY_FIELD`]
/// bytes.
fn text_problems(at: &str, fields: &[(&str, &str)], out: &mut Vec<String>) {
    for (name, text) in fields {
        if text.trim().is_empty() {
            out.push(format!("{at}: '{name}' is empty"));
        } else if text.len() > MAX_QUERY_FIELD {
            out.push(format!(
                "{at}: '{name}' is longer than MAX_QUERY_FIELD = {MAX_QUERY_FIELD} bytes"
            ));
        } else if text.chars().any(char::is_control) {
            out.push(format!("{at}: '{name}' holds a control character"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draft's initial entries (section 9.2): keywords `s` and `c`,
    /// global; the nine RFC 2483 services, provisional, and the RFC 2169
    /// names as aliases.
    #[test]
    fn the_shipped_sub_registries_hold_the_drafts_initial_entries() {
        let r = QueryRegistry::shipped();
        let keywords: Vec<&str> = r.keywords.iter().map(|k| k.keyword.as_str()).collect();
        assert_eq!(keywords, ["s", "c"]);
        assert!(
            r.keywords
                .iter()
                .all(|k| k.scope == Scope::Global && k.supported_by.is_empty())
        );
        let names: Vec<&str> = r.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["I2L", "I2Ls", "I2R", "I2Rs", "I2C", "I2Cs", "I2N", "I2Ns", "I=I"]
        );
        assert!(r.services.iter().all(|s| s.status == "provisional"));
        assert_eq!(r.service("N2L").map(|s| s.name.as_str()), Some("I2L"));
        assert_eq!(r.service("n2ls").map(|s| s.name.as_str()), Some("I2Ls"));
        assert!(r.service("I2U").is_none());
    }

    #[test]
    fn the_shipped_file_parses_and_checks_clean() {
        assert_eq!(
            QueryRegistry::parse(SHIPPED).as_ref(),
            Ok(QueryRegistry::shipped())
        );
        assert!(QueryRegistry::shipped().problems().is_empty());
    }

    /// Section 9.2: what a hostile snapshot or a careless expert could hold.
    #[test]
    fn problems_name_each_bad_entry() {
        let mut r = QueryRegistry::shipped().clone();
        r.keywords.push(r.keywords[0].clone());
        r.keywords[1].keyword = "c-".into();
        r.services[0].status = "final".into();
        r.services[1].aliases.push("i2l".into());
        r.services[2].purpose = "a\u{1b}[31m".into();
        let problems = r.problems().join("\n");
        for says in [
            "keyword 's': listed twice",
            "keyword 'c-': not a keyword",
            "status 'final'",
            "the name 'i2l' is taken",
            "holds a control character",
        ] {
            assert!(problems.contains(says), "{says}: {problems}");
        }
        let big = QueryRegistry {
            keywords: vec![QueryRegistry::shipped().keywords[0].clone(); MAX_QUERY_ENTRIES + 1],
            ..QueryRegistry::default()
        };
        assert!(big.problems()[0].contains("MAX_QUERY_ENTRIES"));
        let mut aliases = QueryRegistry::shipped().clone();
        aliases.services[0].aliases = (0..200_000).map(|i| format!("A{i}")).collect();
        let problems = aliases.problems();
        assert_eq!(problems.len(), 1, "refused before any name is compared");
        assert!(
            problems[0].contains("service aliases, more than MAX_QUERY_ENTRIES"),
            "{problems:?}"
        );
        // A keyword is bounded as a service name is, and said shortly.
        let mut long = QueryRegistry::shipped().clone();
        long.keywords[0].keyword = "b".repeat(100_000);
        let problems = long.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("longer than MAX_KEYWORD = 64 bytes"));
        assert!(problems[0].len() < 120, "{}", problems[0]);
    }
}
