//! The SQLite store of the registry.
//!
//! - [`open`]: opening for writing (creating on first use), for reading
//!   only, or in memory; refusing files that are not urnreg's.
//! - [`migrate`]: the schema over time (`migrations/`), seeding.
//! - [`lifecycle`]: request, revise, amend, withdraw, review (RFC 8141
//!   section 6).
//! - [`query`]: list, show, history, queue, diff.
//! - [`params`]: the resolution query parameters' sub-registries.
//! - [`rows`]: how rows are written and read back.
//! - [`shipped`]: the shipped namespaces against the embedded registry
//!   (`urnreg update`).
//!
//! # Locking
//!
//! Every write runs in one `BEGIN IMMEDIATE` transaction, so a failed
//! command leaves the database exactly as it was, and concurrent processes
//! are serialized by SQLite's lock (with a busy timeout) instead of failing
//! or handing out the same informal NID twice. Readers open the file with
//! `SQLITE_OPEN_READ_ONLY` and never write to it.
//!
//! # Compatibility
//!
//! The schema version is `PRAGMA user_version`, the number of migrations
//! applied; `PRAGMA application_id` marks the file as urnreg's. A database
//! from a newer urnreg, another application's SQLite file, or one with a
//! `user_version` no urnreg writes is refused, untouched.

mod header;
mod lifecycle;
mod migrate;
mod open;
mod params;
mod query;
mod rows;
mod shipped;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::error::{Error, Result};

pub use lifecycle::Outcome;
pub use migrate::MIGRATIONS;
#[cfg_attr(not(feature = "snapshots"), allow(unused_imports))]
pub(crate) use open::left_by_dead_process;
#[cfg_attr(not(feature = "snapshots"), allow(unused_imports))]
pub(crate) use params::{read_query_registry, replace_query_registry};
pub use query::{
    AuditEvent, DiffSide, FieldChange, History, InForce, ListFilter, ListStatus, NamespaceDetail,
    NamespaceSummary, PendingRef, QueueEntry, ReplacedText, VersionDiff,
};
pub use rows::Version;
#[cfg_attr(not(feature = "snapshots"), allow(unused_imports))]
pub(crate) use rows::informal_number;
#[cfg_attr(not(feature = "snapshots"), allow(unused_imports))]
pub(crate) use shipped::mark_if_current;
pub use shipped::{KeptNamespace, ShippedState, UpdateChange, UpdatePlan};
// For `crate::snapshot`, which reads and writes the whole store.
#[cfg_attr(not(feature = "snapshots"), allow(unused_imports))]
pub(crate) use rows::{RegistrationRow, appendix_a_columns, audit, insert_row, seed_record, stored_fields};

/// The registry database.
pub struct Store {
    pub(crate) conn: Connection,
    read_only: bool,
    created: bool,
}

impl Store {
    /// The schema version (`PRAGMA user_version`).
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// The underlying connection: a test hook (read-only use), not part of
    /// the API.
    #[doc(hidden)]
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Returns true if and only if the store was opened read-only.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Returns true if and only if opening it created the database.
    pub fn was_created(&self) -> bool {
        self.created
    }

    /// Returns true if and only if writes can be made: the store was not
    /// opened read-only, and SQLite could open the file for writing (a file
    /// or directory this process may not write is opened read-only without
    /// a word, and every write would fail).
    pub fn is_writable(&self) -> bool {
        !self.read_only && !self.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false)
    }

    /// Starts a write: one `BEGIN IMMEDIATE` transaction.
    pub(crate) fn write(&mut self) -> Result<Transaction<'_>> {
        if !self.is_writable() {
            return Err(Error::ReadOnly(
                "the database is read-only here (opened for reading, or its file or directory may not be \
                 written): this command writes to it"
                    .into(),
            ));
        }
        Ok(self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?)
    }
}
