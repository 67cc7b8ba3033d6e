//! Snapshots: the whole registry as one value ([`Snapshot`]), read out
//! of the database and written back in one transaction, and written to
//! and read from files in five formats.
//!
//! A snapshot holds what `registry/` holds (the registry's metadata and
//! one record per namespace, with its rules in force) plus what was filed
//! here: every version requested through urnreg with its review state.
//! The audit log is the database's own history and is not part of it.
//!
//! - `check.rs`: [`Snapshot::validate`], everything checked before
//!   anything is written.
//! - `store.rs`: [`Store::snapshot`](crate::registry::Store::snapshot)
//!   and [`Store::import_snapshot`](crate::registry::Store::import_snapshot),
//!   with the [`ImportPlan`] that compares a snapshot with the database.
//! - `files.rs`: [`export`] and [`read`]: the directory, its manifest
//!   (`manifest.rs`) and the limits on what is read.
//! - One file per format, none importing its caller: `toml.rs`,
//!   `json.rs`, [`xml`] (IANA's registry format), `csv.rs` and [`html`]
//!   (the static site, which also publishes the xml, csv and json).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::registry::data::{FiledVersion, RecordFile, RegistryFile};
use crate::registry::informal_number;
use crate::resolve::QueryRegistry;

mod check;
mod csv;
mod error;
mod files;
pub mod html;
mod json;
mod manifest;
mod store;
mod toml;
pub mod xml;

pub use csv::{CSV_FILE, CSV_HEADER};
pub use error::{MAX_ERROR_CHARS, Result, SnapshotError};
pub use files::{
    ExportFormat, Loaded, MAX_FILE_BYTES, MAX_FILES, MAX_NAME_BYTES, MAX_SNAPSHOT_BYTES, export, read,
    render_files,
};
pub use json::JSON_FILE;
pub use manifest::{MANIFEST, manifest};
pub use toml::{REQUESTS_FILE, SEQUENCE_FILE};
pub use xml::{QUERY_XML_FILE, XML_FILE};

/// The version of the snapshot format (the JSON `schema` key). Schema 2
/// added the informal sequence (`last_informal`) and request ids, schema
/// 3 the resolution sub-registries (`query`); older snapshots still
/// import.
pub const SNAPSHOT_SCHEMA: u32 = 3;

/// The highest registration version a snapshot may hold (RFC 8141
/// section 6: each revision adds one), so that the next revision's number
/// is always representable.
pub const MAX_VERSION: i64 = 1_000_000;

pub use crate::registry::MAX_REQUEST_ID;

/// The registry as a value: what every export writes and every import reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// `_registry.toml`.
    pub registry: RegistryFile,
    /// One record per namespace, sorted by lower-case NID.
    pub records: Vec<RecordFile>,
    /// Filed versions that belong to no registered namespace.
    pub requests: Vec<FiledVersion>,
    /// The highest informal number ever assigned, even to a namespace no
    /// longer held (RFC 8141 section 5.2: never handed out again). `None`
    /// when the snapshot does not say (schema 1, the IANA XML): then the
    /// highest `urn-N` among the records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_informal: Option<i64>,
    /// The resolution query parameters' sub-registries as held (the 2012
    /// URN draft, section 9.2). `None` when the snapshot does not say
    /// (schemas 1 and 2, the IANA XML): an import keeps what the database
    /// holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<QueryRegistry>,
}

/// What importing a snapshot changes, by NID.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportPlan {
    /// NIDs the snapshot adds.
    pub added: Vec<String>,
    /// NIDs the snapshot changes (record, rules, status or versions), with
    /// what changes.
    pub changed: Vec<(String, Vec<String>)>,
    /// NIDs the database has and the snapshot does not.
    pub removed: Vec<String>,
    /// Requests (not yet registered NIDs) before and after.
    pub requests: (usize, usize),
    /// The highest informal number ever assigned, before and after (it
    /// never goes down).
    pub last_informal: (i64, i64),
    /// What changes in the resolution sub-registries (keywords and
    /// services added, changed or removed).
    pub query: Vec<String>,
    /// Requests (not yet registered NIDs) the database holds that the
    /// snapshot holds too, under the same id, but says otherwise of, with
    /// what changes: "request 73 (acme-parts v1): purpose" (a conflict; the
    /// request keeps its id).
    pub changed_requests: Vec<String>,
    /// Requests the database holds whose id the snapshot gives to another
    /// version: "request 1 (3gpp2 v1) is given to urn-12 v1" (each would
    /// be renumbered; a conflict).
    pub renumbered: Vec<String>,
    /// Requests (not yet registered NIDs) the database holds whose id the
    /// snapshot holds nowhere: "request 73 (informal v1)" (a conflict). A
    /// request the snapshot only renumbers is dropped under its old id and
    /// added under the new one.
    pub dropped_requests: Vec<String>,
    /// Requests the snapshot holds under an id the database gives no
    /// version: "request 5000 (informal v1)" ("a request (...)" for one
    /// without an id, as in schema 1).
    pub added_requests: Vec<String>,
    /// Whether it would change or drop something the database holds (needs
    /// `--replace`).
    pub conflicts: bool,
    /// Whether it was applied.
    pub applied: bool,
}

impl Snapshot {
    /// The registry to validate against that this snapshot describes: its
    /// namespaces with their rules in force, and its resolution
    /// sub-registries (the shipped ones when it holds none). A snapshot
    /// that holds registry facts only (the IANA XML) has no rules, so its
    /// namespaces get the generic RFC 8141 checks.
    pub fn registry(&self) -> crate::Registry {
        let entries = self.records.iter().map(|r| crate::NamespaceEntry {
            nid: r.nid.clone(),
            kind: r.kind,
            status: if r.status.as_deref() == Some("withdrawn") {
                crate::Status::Withdrawn
            } else {
                crate::Status::Registered
            },
            // Rules that were read from TOML write back to TOML.
            rules: r.rules.as_ref().and_then(|rules| ::toml::to_string(rules).ok()),
        });
        let query = self
            .query
            .clone()
            .unwrap_or_else(|| QueryRegistry::shipped().clone());
        crate::Registry::from_entries_with_query(entries, query)
    }

    /// The records by lower-case NID.
    pub(crate) fn by_nid(&self) -> BTreeMap<String, &RecordFile> {
        self.records
            .iter()
            .map(|r| (r.nid.to_ascii_lowercase(), r))
            .collect()
    }

    /// Every version filed here: each namespace's, then the requests not
    /// yet registered.
    pub(crate) fn filed(&self) -> impl Iterator<Item = &FiledVersion> {
        self.records.iter().flat_map(|r| &r.filed).chain(&self.requests)
    }

    /// The highest informal number the snapshot holds or says was assigned.
    pub(crate) fn highest_informal(&self) -> i64 {
        let held = self
            .records
            .iter()
            .filter_map(|r| informal_number(&r.nid))
            .max()
            .unwrap_or(0);
        held.max(self.last_informal.unwrap_or(0))
    }
}
