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

mod directives;
mod subregistries;

pub use directives::{Directive, DirectiveIssue, DirectiveIssueKind, directives};
pub use subregistries::{Keyword, QueryRegistry, Scope, Service, SupportedBy};
