//! Reading the registry: the namespaces, one namespace with a version of
//! its registration, its history, the expert's queue, and what changed
//! between two versions.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use super::super::Kind;
use super::super::error::{Error, Result};
use super::super::status::{NamespaceStatus, RequestStatus, Standing};
use super::Store;
use super::rows::{Version, informal_number, parse_rules, read_version, reference_labels, version_columns};
use crate::rules::RulesFile;
use crate::template::FIELDS;

/// A registered (or withdrawn) namespace with what is in force for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InForce {
    /// The NID, as registered.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// Registered or withdrawn.
    pub status: NamespaceStatus,
    /// The version in force (`None`: registered before texts were kept).
    pub version: Option<i64>,
    /// The rules of the version in force (TOML), if it has any.
    pub rules: Option<String>,
}

/// Which namespaces to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only these.
    pub status: Option<ListStatus>,
}

/// The statuses `ns list` can select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListStatus {
    /// Registered namespaces.
    Registered,
    /// Withdrawn namespaces.
    Withdrawn,
    /// NIDs with a request or revision waiting for review, registered or
    /// not.
    Pending,
}

/// A request waiting for review.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PendingRef {
    /// The request id.
    pub id: i64,
    /// The version it is for.
    pub version: i64,
    /// Submitted or changes requested.
    pub status: RequestStatus,
}

/// One line of `ns list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamespaceSummary {
    /// The NID.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// Registered, withdrawn, or (not registered) requested.
    pub status: Standing,
    /// When it was registered, if known.
    pub date: Option<String>,
    /// The registry's references, in a short human form.
    pub references: Vec<String>,
    /// Whether rules (NSS syntax, equivalence) are in force for it.
    pub has_rules: bool,
    /// The request or revision waiting for review, if any.
    pub pending: Option<PendingRef>,
}

/// Everything `ns show` shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamespaceDetail {
    /// The namespace.
    #[serde(flatten)]
    pub summary: NamespaceSummary,
    /// The `updated` date, if any.
    pub updated: Option<String>,
    /// The approved version in force.
    pub current_version: Option<i64>,
    /// The rules in force: those of the version in force.
    pub rules: Option<RulesFile>,
    /// The version shown: the one in force unless asked otherwise; for a
    /// NID that is only requested, its latest request.
    pub registration: Option<Version>,
    /// The IANA record's facts (template link, references, contacts).
    pub record: serde_json::Value,
}

/// One entry of the audit log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditEvent {
    /// When (UTC).
    pub at: String,
    /// Who (`--actor`, `$USER`).
    pub actor: String,
    /// What: `init`, `request`, `revise`, `amend`, `withdraw`,
    /// `review:approve`, ...
    pub action: String,
    /// Which NID, if any.
    pub nid: Option<String>,
    /// Which request, if any.
    pub registration_id: Option<i64>,
    /// Details for people.
    pub detail: String,
}

/// A text a pending request had before it was amended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplacedText {
    /// The request.
    pub registration_id: i64,
    /// 1 for the text first filed, then 2, ...
    pub text: usize,
    /// Where it came from.
    pub source: Option<String>,
    /// When it was filed (UTC).
    pub filed_at: String,
    /// When an amendment replaced it (UTC).
    pub replaced_at: String,
    /// The registration file as filed (TOML).
    pub body: String,
}

/// `ns history`: every version, every replaced text and every event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct History {
    /// The NID.
    pub nid: String,
    /// Registered, withdrawn, requested or not registered.
    pub status: Standing,
    /// Every version filed, oldest first.
    pub versions: Vec<Version>,
    /// The texts amendments replaced, oldest first.
    pub amended: Vec<ReplacedText>,
    /// The audit log entries about it, oldest first.
    pub events: Vec<AuditEvent>,
}

/// One request in the expert's queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueueEntry {
    /// The request id.
    pub id: i64,
    /// The NID; `None` for an informal request.
    pub nid: Option<String>,
    /// Formal or informal.
    pub kind: Kind,
    /// The version it is for.
    pub version: i64,
    /// Submitted or changes requested.
    pub status: RequestStatus,
    /// When it was first filed (UTC).
    pub filed: String,
    /// How many times it was amended.
    pub amendments: usize,
    /// The last review note on it, if any.
    pub last_note: Option<String>,
}

/// One side of a [`VersionDiff`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffSide {
    /// The request id.
    pub id: i64,
    /// The version.
    pub version: i64,
    /// Its status.
    pub status: RequestStatus,
}

/// One field that differs between two versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// The field's key (`syntax`, `date`, `rules`, ...).
    pub field: &'static str,
    /// Its heading in the template (`Syntax`, ...).
    pub heading: &'static str,
    /// The value in the first version.
    pub old: Option<String>,
    /// The value in the second.
    pub new: Option<String>,
}

/// `ns diff`: the fields that differ between two versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VersionDiff {
    /// The NID.
    pub nid: String,
    /// The first version.
    pub from: DiffSide,
    /// The second version.
    pub to: DiffSide,
    /// The fields that differ, in template order, then the rules.
    pub changes: Vec<FieldChange>,
}

/// The stored row of a namespace.
struct NamespaceRow {
    nid: String,
    kind: Kind,
    status: NamespaceStatus,
    date: Option<String>,
    updated: Option<String>,
    current: Option<i64>,
    record: String,
    rules: Option<String>,
}

const NAMESPACE_COLUMNS: &str = "nid, kind, status, date, updated, current_version, record, rules";

fn namespace_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<NamespaceRow> {
    Ok(NamespaceRow {
        nid: r.get(0)?,
        kind: r.get(1)?,
        status: r.get(2)?,
        date: r.get(3)?,
        updated: r.get(4)?,
        current: r.get(5)?,
        record: r.get(6)?,
        rules: r.get(7)?,
    })
}

/// The pending request of every NID that has one (lower-case NID).
fn pending_by_nid(conn: &Connection) -> Result<BTreeMap<String, (String, Kind, PendingRef)>> {
    let mut stmt = conn.prepare(
        "SELECT nid, kind, id, version, status FROM registrations
         WHERE nid IS NOT NULL AND status IN ('submitted', 'changes-requested') ORDER BY id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Kind>(1)?,
            PendingRef {
                id: r.get(2)?,
                version: r.get(3)?,
                status: r.get(4)?,
            },
        ))
    })?;
    let mut out = BTreeMap::new();
    for row in rows {
        let (nid, kind, pending) = row?;
        out.insert(nid.to_ascii_lowercase(), (nid, kind, pending));
    }
    Ok(out)
}

/// Sorts formal NIDs first (by NID), then informal ones (by number).
fn sort_nids<T>(rows: &mut [T], key: impl Fn(&T) -> (Kind, &str)) {
    rows.sort_by_cached_key(|r| {
        let (kind, nid) = key(r);
        (
            kind == Kind::Informal,
            informal_number(nid),
            nid.to_ascii_lowercase(),
        )
    });
}

impl Store {
    /// Every namespace (registered or withdrawn) with its version in force
    /// and the rules of that version.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn in_force(&self) -> Result<Vec<InForce>> {
        let mut stmt = self
            .conn
            .prepare("SELECT nid, kind, status, current_version, rules FROM namespaces")?;
        let rows = stmt.query_map([], |r| {
            Ok(InForce {
                nid: r.get(0)?,
                kind: r.get(1)?,
                status: r.get(2)?,
                version: r.get(3)?,
                rules: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The namespaces, formal first (by NID), then informal (by number).
    /// Without a status filter: every registered or withdrawn namespace;
    /// [`ListStatus::Pending`] adds the NIDs that are only requested.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn list(&self, filter: &ListFilter) -> Result<Vec<NamespaceSummary>> {
        let mut pending = pending_by_nid(&self.conn)?;
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {NAMESPACE_COLUMNS} FROM namespaces"))?;
        let mut rows: Vec<NamespaceSummary> = stmt
            .query_map([], namespace_row)?
            .map(|row| {
                let row = row?;
                Ok(NamespaceSummary {
                    pending: pending.remove(&row.nid.to_ascii_lowercase()).map(|p| p.2),
                    nid: row.nid,
                    kind: row.kind,
                    status: row.status.into(),
                    date: row.date,
                    references: reference_labels(&row.record),
                    has_rules: row.rules.is_some(),
                })
            })
            .collect::<rusqlite::Result<_>>()?;
        if filter.status == Some(ListStatus::Pending) {
            rows.extend(pending.into_values().map(|(nid, kind, p)| NamespaceSummary {
                nid,
                kind,
                status: Standing::Requested,
                date: None,
                references: Vec::new(),
                has_rules: false,
                pending: Some(p),
            }));
        }
        rows.retain(|r| {
            filter.kind.is_none_or(|k| k == r.kind)
                && match filter.status {
                    None => true,
                    Some(ListStatus::Registered) => r.status == Standing::Registered,
                    Some(ListStatus::Withdrawn) => r.status == Standing::Withdrawn,
                    Some(ListStatus::Pending) => r.pending.is_some(),
                }
        });
        sort_nids(&mut rows, |r| (r.kind, &r.nid));
        Ok(rows)
    }

    /// One namespace with one version of its registration (the one in
    /// force unless `version` is given). A NID that is not registered but
    /// was requested is shown with its latest request.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for a NID never registered nor requested, or an
    /// unknown version.
    pub fn show(&self, nid: &str, version: Option<i64>) -> Result<NamespaceDetail> {
        let row = self
            .conn
            .query_row(
                &format!("SELECT {NAMESPACE_COLUMNS} FROM namespaces WHERE nid = ?1"),
                [nid],
                namespace_row,
            )
            .optional()?;
        let Some(row) = row else {
            return self.show_requested(nid, version);
        };
        let versions = self.versions(&row.nid)?;
        let pending = versions
            .iter()
            .rev()
            .find(|v| v.status.is_pending())
            .map(|v| PendingRef {
                id: v.id,
                version: v.version,
                status: v.status,
            });
        let registration = match version {
            Some(n) => Some(pick_version(&row.nid, versions, n)?),
            None => row.current.and_then(|c| {
                versions
                    .into_iter()
                    .rev()
                    .find(|v| v.version == c && v.status == RequestStatus::Approved)
            }),
        };
        let rules = row
            .rules
            .as_deref()
            .map(|body| parse_rules(body, &row.nid))
            .transpose()?;
        Ok(NamespaceDetail {
            summary: NamespaceSummary {
                references: reference_labels(&row.record),
                has_rules: rules.is_some(),
                nid: row.nid,
                kind: row.kind,
                status: row.status.into(),
                date: row.date,
                pending,
            },
            updated: row.updated,
            current_version: row.current,
            rules,
            registration,
            record: serde_json::from_str(&row.record).unwrap_or(serde_json::Value::Null),
        })
    }

    /// `show` for a NID that only has requests.
    fn show_requested(&self, nid: &str, version: Option<i64>) -> Result<NamespaceDetail> {
        let versions = self.versions(nid)?;
        let Some(latest) = versions.last() else {
            return Err(Error::NotFound(format!(
                "'{nid}' is neither registered nor requested"
            )));
        };
        let nid = latest.nid.clone().unwrap_or_else(|| nid.to_string());
        let kind = latest.kind;
        let pending = versions.iter().rev().find(|v| v.status.is_pending());
        let status = if pending.is_some() {
            Standing::Requested
        } else {
            Standing::NotRegistered
        };
        let pending = pending.map(|v| PendingRef {
            id: v.id,
            version: v.version,
            status: v.status,
        });
        let registration = match version {
            Some(n) => pick_version(&nid, versions, n)?,
            None => versions.into_iter().last().expect("not empty"),
        };
        Ok(NamespaceDetail {
            summary: NamespaceSummary {
                nid,
                kind,
                status,
                date: None,
                references: Vec::new(),
                has_rules: false,
                pending,
            },
            updated: None,
            current_version: None,
            rules: None,
            registration: Some(registration),
            record: serde_json::Value::Object(serde_json::Map::new()),
        })
    }

    /// Every version, replaced text and audit event of a namespace (or of
    /// a NID that was only requested).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for a NID never registered nor requested.
    pub fn history(&self, nid: &str) -> Result<History> {
        let detail = self.show(nid, None)?;
        let nid = detail.summary.nid;
        let versions = self.versions(&nid)?;
        let mut stmt = self.conn.prepare(
            "SELECT at, actor, action, nid, registration_id, detail FROM audit_log
             WHERE nid = ?1 OR registration_id IN (SELECT id FROM registrations WHERE nid = ?1)
             ORDER BY id",
        )?;
        let events = stmt
            .query_map([&nid], |r| {
                Ok(AuditEvent {
                    at: r.get(0)?,
                    actor: r.get(1)?,
                    action: r.get(2)?,
                    nid: r.get(3)?,
                    registration_id: r.get(4)?,
                    detail: r.get(5)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let mut amended = Vec::new();
        for v in &versions {
            amended.extend(self.replaced_texts(v.id)?);
        }
        Ok(History {
            nid,
            status: detail.summary.status,
            versions,
            amended,
            events,
        })
    }

    /// The texts amendments replaced in request `id`, oldest first.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn replaced_texts(&self, id: i64) -> Result<Vec<ReplacedText>> {
        let mut stmt = self.conn.prepare(
            "SELECT registration_id, source, filed_at, replaced_at, body FROM amendments
             WHERE registration_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok(ReplacedText {
                registration_id: r.get(0)?,
                text: 0,
                source: r.get(1)?,
                filed_at: r.get(2)?,
                replaced_at: r.get(3)?,
                body: r.get(4)?,
            })
        })?;
        let mut out: Vec<ReplacedText> = rows.collect::<Result<_, _>>()?;
        for (i, t) in out.iter_mut().enumerate() {
            t.text = i + 1;
        }
        Ok(out)
    }

    /// The expert's worklist: every request waiting for review, oldest
    /// first.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn queue(&self) -> Result<Vec<QueueEntry>> {
        let mut stmt = self.conn.prepare(
            "SELECT r.id, r.nid, r.kind, r.version, r.status, r.submitted_at,
                    (SELECT count(*) FROM amendments a WHERE a.registration_id = r.id),
                    (SELECT note FROM reviews v WHERE v.registration_id = r.id ORDER BY v.id DESC LIMIT 1)
             FROM registrations r
             WHERE r.status IN ('submitted', 'changes-requested')
             ORDER BY r.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(QueueEntry {
                id: r.get(0)?,
                nid: r.get(1)?,
                kind: r.get(2)?,
                version: r.get(3)?,
                status: r.get(4)?,
                filed: r.get(5)?,
                amendments: r.get::<_, i64>(6)?.try_into().unwrap_or(0),
                last_note: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The fields that differ between versions `a` and `b` of `nid`. By
    /// default `a` is the version in force and `b` the pending one (or
    /// the version in force when nothing is pending).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for an unknown NID or version, when a default
    /// is missing (no version in force, nothing pending), or when `nid` has
    /// one version only and no versions are given.
    pub fn diff(&self, nid: &str, a: Option<i64>, b: Option<i64>) -> Result<VersionDiff> {
        let detail = self.show(nid, None)?;
        let nid = detail.summary.nid.clone();
        let versions = self.versions(&nid)?;
        let in_force = || -> Result<Version> {
            detail
                .current_version
                .and_then(|c| {
                    versions
                        .iter()
                        .rev()
                        .find(|v| v.version == c && v.status == RequestStatus::Approved)
                })
                .cloned()
                .ok_or_else(|| {
                    Error::NotFound(format!(
                        "'{nid}' has no version in force: give the two versions to compare"
                    ))
                })
        };
        // Nothing to compare: say so, rather than which default is missing.
        let mut numbers: Vec<i64> = versions.iter().map(|v| v.version).collect();
        numbers.dedup();
        if let ([only], None, None) = (numbers.as_slice(), a, b) {
            let status = versions
                .iter()
                .rev()
                .find(|v| v.version == *only)
                .map_or("", |v| v.status.as_str());
            return Err(Error::NotFound(format!(
                "'{nid}' has only one version (version {only}, {status}): there is nothing to compare it with"
            )));
        }
        let pick = |n: i64| pick_version(&nid, versions.clone(), n);
        let old = match a {
            Some(n) => pick(n)?,
            None => in_force()?,
        };
        let new = match b {
            Some(n) => pick(n)?,
            None => match versions.iter().rev().find(|v| v.status.is_pending()) {
                Some(p) => p.clone(),
                None if a.is_some() => in_force()?,
                None => {
                    return Err(Error::NotFound(format!(
                        "no version of '{nid}' is waiting for review: give the versions to compare"
                    )));
                }
            },
        };
        Ok(VersionDiff {
            changes: field_changes(&old, &new)?,
            nid,
            from: DiffSide {
                id: old.id,
                version: old.version,
                status: old.status,
            },
            to: DiffSide {
                id: new.id,
                version: new.version,
                status: new.status,
            },
        })
    }

    /// Every version filed for `nid`, oldest first.
    pub(super) fn versions(&self, nid: &str) -> Result<Vec<Version>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {} FROM registrations r LEFT JOIN rules ru ON ru.registration_id = r.id
             WHERE r.nid = ?1 ORDER BY r.version, r.id",
            version_columns()
        ))?;
        let mut rows = stmt.query([nid])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(read_version(r)?);
        }
        Ok(out)
    }
}

/// Version `n` of `nid`: the approved one if there is one, else the one
/// filed last.
fn pick_version(nid: &str, versions: Vec<Version>, n: i64) -> Result<Version> {
    let mut of_n: Vec<Version> = versions.into_iter().filter(|v| v.version == n).collect();
    let approved = of_n.iter().rposition(|v| v.status == RequestStatus::Approved);
    match approved.or(of_n.len().checked_sub(1)) {
        Some(i) => Ok(of_n.swap_remove(i)),
        None => Err(Error::NotFound(format!("'{nid}' has no version {n}"))),
    }
}

/// The fields of `old` and `new` that differ: the template fields but the
/// NID and the version (which the sides name), then the rules.
fn field_changes(old: &Version, new: &Version) -> Result<Vec<FieldChange>> {
    let mut out = Vec::new();
    for (key, heading, _) in FIELDS {
        if matches!(*key, "namespace_identifier" | "version") {
            continue;
        }
        let (a, b) = (
            old.fields.get(key).cloned().flatten(),
            new.fields.get(key).cloned().flatten(),
        );
        if a != b {
            out.push(FieldChange {
                field: key,
                heading,
                old: a,
                new: b,
            });
        }
    }
    let rules = |v: &Version| -> Result<Option<String>> {
        v.rules
            .as_ref()
            .map(|r| super::rows::rules_text(r, &format!("registration {}", v.id)))
            .transpose()
    };
    let (a, b) = (rules(old)?, rules(new)?);
    if a != b {
        out.push(FieldChange {
            field: "rules",
            heading: "Rules",
            old: a,
            new: b,
        });
    }
    Ok(out)
}
