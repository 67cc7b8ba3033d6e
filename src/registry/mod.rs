//! The registry of URN namespaces: the shipped data (`registry/`), the
//! SQLite store with its migrations, and the registration lifecycle of
//! RFC 8141 section 6.

pub mod data;
pub mod iana;

use serde::{Deserialize, Serialize};

/// Formal (RFC 8141 section 5.1) or informal (section 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A NID chosen by the registrant and approved by expert review.
    Formal,
    /// `urn-N`, assigned by the registry in sequence.
    Informal,
}

impl Kind {
    /// `formal` or `informal`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Formal => "formal",
            Kind::Informal => "informal",
        }
    }
}

pub mod clock;
mod error;
pub mod registration;
mod snapshot;
mod store;

pub use error::{Error, Problem, Result};
pub use registration::RegistrationFile;
pub use snapshot::{ImportPlan, MAX_INFORMAL_NUMBER, MAX_REQUEST_ID, MAX_VERSION, SNAPSHOT_SCHEMA, Snapshot};
pub use store::{
    AuditEvent, Decision, History, ListFilter, MIGRATIONS, NamespaceDetail, NamespaceRules, NamespaceSummary,
    Outcome, Store, Version,
};
