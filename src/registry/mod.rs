//! The registry of URN namespaces: the shipped data (`registry/`), the
//! SQLite store with its migrations, and the registration lifecycle of
//! RFC 8141 section 6.

pub mod data;
#[cfg(feature = "snapshots")]
pub mod iana;

pub use crate::validate::Kind;

pub mod clock;
mod error;
pub mod registration;
#[cfg(feature = "snapshots")]
mod snapshot;
mod store;

pub use error::{Error, Problem, Result};
pub use registration::RegistrationFile;
#[cfg(feature = "snapshots")]
pub use snapshot::{ImportPlan, SNAPSHOT_SCHEMA, Snapshot};
pub use store::{
    AuditEvent, Decision, History, ListFilter, MIGRATIONS, NamespaceDetail, NamespaceRules, NamespaceSummary,
    Outcome, Store, Version,
};
