//! The registry of URN namespaces: the shipped data (`registry/`), the
//! SQLite store with its migrations, and the registration lifecycle of
//! RFC 8141 section 6.
//!
//! The registry does not judge the text of a registration: [`crate::lint`]
//! does, and hands the store a [`Vetted`] file. The store checks what
//! depends on its own state (NIDs taken or requested, versions in
//! sequence) inside the transaction that writes.

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

pub mod clock;
mod error;
pub mod registration;
mod snapshot;
mod status;
mod store;

pub use error::{Error, Problem, Result};
pub use registration::{Filing, RegistrationFile, Vetted};
pub use snapshot::{ImportPlan, SNAPSHOT_SCHEMA, Snapshot};
pub use status::{Decision, NamespaceStatus, RequestStatus, Standing, UnknownValue};
pub use store::{
    AuditEvent, DiffSide, FieldChange, History, InForce, ListFilter, ListStatus, MIGRATIONS, NamespaceDetail,
    NamespaceRules, NamespaceSummary, Outcome, PendingRef, QueueEntry, ReplacedText, Store, Version,
    VersionDiff,
};
