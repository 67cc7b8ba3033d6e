//! The Query Keywords and Resolution Service Designators sub-registries
//! (the 2012 URN draft, sections 9.2.1 and 9.2.2), shipped in
//! `src/resolve/query.toml` with the draft's initial entries.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// Whether a keyword is open to every namespace or belongs to some.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Open for use with any namespace that adopts it (section 9.2.1).
    Global,
    /// For the namespaces of its "Supported by" list only.
    Specific,
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
    #[serde(default)]
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
    #[serde(default)]
    pub aliases: Vec<String>,
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
const SHIPPED: &str = include_str!("query.toml");

impl QueryRegistry {
    /// The sub-registries shipped with urnreg (`src/resolve/query.toml`).
    pub fn shipped() -> &'static QueryRegistry {
        static SHIPPED_REGISTRY: OnceLock<QueryRegistry> = OnceLock::new();
        SHIPPED_REGISTRY.get_or_init(|| toml::from_str(SHIPPED).unwrap_or_default())
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
}
