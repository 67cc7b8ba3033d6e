//! Resolution: the two sub-registries of URN resolution query parameters
//! (the 2012 URN draft, section 9.2) and the directives an r-component
//! carries in their form (section 2.3).
//!
//! RFC 8141 section 2.3.1 keeps the r-component for parameters to
//! resolution services "until ... specification of any necessary
//! registration mechanisms"; the draft's mechanism is `keywd=value`
//! directives joined by `&`, each registered keyword at most once. A
//! directive never makes a URN invalid and never enters its equivalence
//! key (RFC 8141 sections 2.3.1 and 3.1): what is off gets a warning.
//!
//! A namespace's rules may say where its URNs lead ([`ResolutionFile`]):
//! URL templates per RFC 2483 service, expanded from the URN's key
//! ([`crate::Registry::resolve`]), as RFC 2169's HTTP resolvers answer.

mod directives;
mod resolution;
mod resolver;
mod subregistries;

pub use directives::{Directive, DirectiveIssue, DirectiveIssueKind, directives, written_directives};
pub use resolution::{
    MAX_MATCH_NFA_BYTES, MAX_RESOLUTION_KEYWORDS, MAX_RESOLUTION_MATCH_BYTES, MAX_RESOLUTION_RULES,
    MAX_TEMPLATE, MAX_URL, MAX_URLS, NewKeyword, Resolution, ResolutionExample, ResolutionFile,
    ResolutionRule, Unresolved, is_single_answer, service_name,
};
pub use resolver::{ResolveError, Resolved};
pub use subregistries::{
    Keyword, MAX_KEYWORD, MAX_QUERY_ENTRIES, MAX_QUERY_FIELD, QueryRegistry, SERVICE_STATUSES, Scope,
    Service, SupportedBy, is_service_name,
};
