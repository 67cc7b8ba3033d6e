//! The registry of URN namespaces: the shipped data (`registry/`), the
//! SQLite store with its migrations, and the registration lifecycle of
//! RFC 8141 section 6.
//!
//! The registry does not judge the text of a registration: [`crate::lint`]
//! does, and hands the store a [`Vetted`] file. The store checks what
//! depends on its own state (NIDs taken or requested, versions in
//! sequence) inside the transaction that writes.

pub mod data;

pub use crate::validate::Kind;

mod error;
pub mod registration;
mod status;
mod store;

/// The highest informal number (`urn-N`, RFC 8141 section 5.2) a snapshot
/// may hold and the registry hands out: far beyond any real registry (IANA
/// assigned eight in twenty years), and low enough that the sequence can
/// never overflow.
pub const MAX_INFORMAL_NUMBER: i64 = 999_999_999;

/// The highest request id the registry hands out and a snapshot may hold:
/// the largest integer that JSON readers hold exactly (RFC 7493 section
/// 2.2), as `--format json` and the service print ids.
pub const MAX_REQUEST_ID: i64 = (1 << 53) - 1;

/// The most times one request's text may be replaced (`amend`): every
/// text replaced is kept, so an unbounded count would let one filing grow
/// the database without end. An expert's rounds of questions stay far
/// below it.
pub const MAX_AMENDMENTS: i64 = 100;

pub use error::{Error, MAX_PROBLEM_CHARS, MAX_PROBLEMS_SHOWN, Problem, Result};
pub use registration::{Filing, MAX_REGISTRATION_BYTES, RegistrationFile, Vetted};
pub use status::{Decision, NamespaceStatus, RequestStatus, Standing, UnknownValue};
pub use store::{
    AuditEvent, DiffSide, FieldChange, History, InForce, KeptNamespace, ListFilter, ListStatus, MIGRATIONS,
    NamespaceDetail, NamespaceSummary, Outcome, PendingRef, QueueEntry, ReplacedText, ShippedState, Store,
    UpdateChange, UpdatePlan, Version, VersionDiff,
};
#[cfg(feature = "snapshots")]
pub(crate) use store::{
    RegistrationRow, appendix_a_columns, audit, informal_number, insert_row, left_by_dead_process,
    mark_if_current, read_query_registry, replace_query_registry, seed_record, stored_fields,
};
