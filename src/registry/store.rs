//! The SQLite store: opening, migrations, seeding from the embedded
//! registry, and every read and write of the registry.
//!
//! Every write runs in one `BEGIN IMMEDIATE` transaction, so a failed
//! command leaves the database exactly as it was and concurrent processes
//! are serialized by SQLite's lock (with a busy timeout) instead of
//! failing or handing out the same informal NID twice.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use serde::Serialize;

use super::Kind;
use super::clock::{is_valid_date, now, today};
use super::data::{EMBEDDED, REGISTRY_FILE, RecordFile, leading_number};
use super::error::{Error, Problem, Result};
use super::registration::{APPENDIX_A_KEYS, RegistrationFile};
use crate::lint::{LintContext, Mode};
use crate::template::{FIELDS, TemplateFields};

/// The migrations, `migrations/NNNN-name.sql`, in order: `(file name, SQL)`.
/// The database's `PRAGMA user_version` is the number applied.
pub static MIGRATIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/migration_files.rs"));

/// How long a writer waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// The registry database.
pub struct Store {
    pub(super) conn: Connection,
}

/// An expert's decision (RFC 8141 section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Register the NID (or the new version).
    Approve,
    /// Refuse the request.
    Reject,
    /// Send it back to the registrant.
    AskChanges,
}

impl Decision {
    fn as_str(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Reject => "reject",
            Decision::AskChanges => "ask-changes",
        }
    }

    fn new_status(self) -> &'static str {
        match self {
            Decision::Approve => "approved",
            Decision::Reject => "rejected",
            Decision::AskChanges => "changes-requested",
        }
    }
}

/// What a request, revision or review did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The request (registration) id.
    pub id: i64,
    /// The NID: requested, registered or assigned; `None` for an informal
    /// request not yet approved.
    pub nid: Option<String>,
    /// The request's status now.
    pub status: String,
    /// The version the request is for.
    pub version: i64,
}

/// A namespace's rules in force, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamespaceRules {
    /// The NID.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// `registered` or `withdrawn`.
    pub status: String,
    /// The `[rules]` table as TOML, if it has rules.
    pub rules: Option<String>,
}

/// Which namespaces to list.
#[derive(Clone, Debug, Default)]
pub struct ListFilter {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only this status (`registered`, `withdrawn`).
    pub status: Option<String>,
}

/// One line of `ns list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamespaceSummary {
    /// The NID.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// `registered` or `withdrawn`.
    pub status: String,
    /// When it was registered, if known.
    pub date: Option<String>,
    /// The registry's references, in a short human form.
    pub references: Vec<String>,
}

/// A version of a registration, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Version {
    /// The request id.
    pub id: i64,
    /// The version number.
    pub version: i64,
    /// `submitted`, `changes-requested`, `approved` or `rejected`.
    pub status: String,
    /// Appendix A "Date".
    pub date: String,
    /// The template fields.
    pub fields: TemplateFields,
    /// Where the text came from, if it came as text.
    pub source: Option<String>,
    /// When it was filed.
    pub submitted_at: String,
    /// When it was decided.
    pub decided_at: Option<String>,
    /// Its namespace-specific rules (TOML), if any.
    pub rules: Option<String>,
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
    /// The version shown (the current one unless asked otherwise).
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
    /// What: `init`, `request`, `revise`, `review:approve`, ...
    pub action: String,
    /// Which NID, if any.
    pub nid: Option<String>,
    /// Which request, if any.
    pub registration_id: Option<i64>,
    /// Details for people.
    pub detail: String,
}

/// `ns history`: every version and every event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct History {
    /// The NID.
    pub nid: String,
    /// Every version filed, oldest first.
    pub versions: Vec<Version>,
    /// The audit log entries about it, oldest first.
    pub events: Vec<AuditEvent>,
}

fn kind_from_str(s: &str) -> Kind {
    if s == "informal" {
        Kind::Informal
    } else {
        Kind::Formal
    }
}

/// The number of an informal NID (`urn-12` -> 12).
pub(super) fn informal_number(nid: &str) -> Option<i64> {
    let digits = nid
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("urn-"))
        .map(|_| &nid[4..])?;
    digits.parse().ok()
}

impl Store {
    /// Opens (creating if needed) the database at `path`, migrates it to
    /// the newest schema and, if it is new, fills it from the embedded
    /// registry.
    ///
    /// # Errors
    ///
    /// [`Error::SchemaTooNew`] for a database from a newer urnreg,
    /// [`Error::Migration`] if a migration fails (nothing is applied), or
    /// the SQLite or I/O error.
    pub fn open(path: &Path, actor: &str) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let conn = Connection::open(path)?;
        Self::setup(conn, actor, MIGRATIONS.len())
    }

    /// An in-memory registry filled from the embedded data, for read-only
    /// commands when no database exists yet.
    ///
    /// # Errors
    ///
    /// As [`Store::open`].
    pub fn open_embedded() -> Result<Store> {
        Self::setup(Connection::open_in_memory()?, "urnreg", MIGRATIONS.len())
    }

    /// Opens `path` and migrates it only up to schema version `target`
    /// (for testing migrations from older versions).
    ///
    /// # Errors
    ///
    /// As [`Store::open`].
    pub fn open_at_version(path: &Path, actor: &str, target: usize) -> Result<Store> {
        Self::setup(Connection::open(path)?, actor, target)
    }

    fn setup(mut conn: Connection, actor: &str, target: usize) -> Result<Store> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "foreign_keys", true)?;
        // WAL lets readers go on while one process writes.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        migrate(&mut conn, actor, target)?;
        Ok(Store { conn })
    }

    /// The schema version (`PRAGMA user_version`).
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Every namespace with its kind, status and rules, for the validator.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn namespace_rules(&self) -> Result<Vec<NamespaceRules>> {
        let mut stmt = self
            .conn
            .prepare("SELECT nid, kind, status, rules FROM namespaces")?;
        let rows = stmt.query_map([], |r| {
            Ok(NamespaceRules {
                nid: r.get(0)?,
                kind: kind_from_str(&r.get::<_, String>(1)?),
                status: r.get(2)?,
                rules: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The underlying connection (read-only use, e.g. tests and exports).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    pub(super) fn write(&mut self) -> Result<Transaction<'_>> {
        Ok(self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?)
    }

    /// What lint needs to know of this registry.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn lint_context(&self) -> Result<LintContext> {
        lint_context(&self.conn)
    }

    /// Files a registration request (RFC 8141 section 6): checks it, then
    /// stores it as `submitted`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] listing every problem (section 5.1 NID rules,
    /// NID taken or requested, version, date, empty required fields).
    pub fn request(&mut self, file: &RegistrationFile, source: Option<&str>, actor: &str) -> Result<Outcome> {
        let tx = self.write()?;
        let mut problems = file.problems(&lint_context(&tx)?, &Mode::Request);
        if let (Some(Kind::Formal), Some(nid)) = (file.kind, file.nid.as_deref()) {
            if let Some(id) = pending_request(&tx, nid)? {
                problems.push(Problem {
                    field: "nid".into(),
                    message: format!("'{nid}' is already requested (request {id})"),
                });
            }
        }
        if !problems.is_empty() {
            return Err(Error::Invalid(problems));
        }
        let kind = file.kind.unwrap_or(Kind::Formal);
        let nid = file.nid.clone().filter(|_| kind == Kind::Formal);
        let id = insert_registration(&tx, file, nid.as_deref(), kind, 1, source)?;
        audit(
            &tx,
            actor,
            "request",
            nid.as_deref(),
            Some(id),
            &format!("{} request, version 1", kind.as_str()),
        )?;
        tx.commit()?;
        Ok(Outcome {
            id,
            nid,
            status: "submitted".into(),
            version: 1,
        })
    }

    /// Files a revision of a registered namespace: Version must be the
    /// previous + 1 and Revision Information must say what changed.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for an unknown NID, [`Error::State`] when a
    /// revision is already pending, [`Error::Invalid`] with the problems.
    pub fn revise(
        &mut self,
        nid: &str,
        file: &RegistrationFile,
        source: Option<&str>,
        actor: &str,
    ) -> Result<Outcome> {
        let tx = self.write()?;
        let row: Option<(String, String, Option<i64>, String)> = tx
            .query_row(
                "SELECT nid, kind, current_version, status FROM namespaces WHERE nid = ?1",
                [nid],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let Some((nid, kind, current, status)) = row else {
            return Err(Error::NotFound(format!("'{nid}' is not a registered NID")));
        };
        if status != "registered" {
            return Err(Error::State(format!("'{nid}' is {status}: it cannot be revised")));
        }
        if let Some(pending) = pending_request(&tx, &nid)? {
            return Err(Error::State(format!(
                "a revision of '{nid}' is already waiting for review (request {pending})"
            )));
        }
        let kind = kind_from_str(&kind);
        // A namespace registered before its text was held here counts as version 1.
        let expected = current.unwrap_or(1) + 1;
        let mode = Mode::Revision {
            nid: nid.clone(),
            current,
        };
        let mut problems = file.problems(&lint_context(&tx)?, &mode);
        if file.kind.is_some_and(|k| k != kind) {
            problems.push(Problem {
                field: "kind".into(),
                message: format!("'{nid}' is {}", kind.as_str()),
            });
        }
        if let Some(given) = file.nid.as_deref().filter(|g| !g.eq_ignore_ascii_case(&nid)) {
            problems.push(Problem {
                field: "nid".into(),
                message: format!("'{given}' does not match the namespace being revised, '{nid}'"),
            });
        }
        if !problems.is_empty() {
            return Err(Error::Invalid(problems));
        }
        let id = insert_registration(&tx, file, Some(&nid), kind, expected, source)?;
        audit(
            &tx,
            actor,
            "revise",
            Some(&nid),
            Some(id),
            &format!("version {expected}"),
        )?;
        tx.commit()?;
        Ok(Outcome {
            id,
            nid: Some(nid),
            status: "submitted".into(),
            version: expected,
        })
    }

    /// Records an expert's decision on a request, given by id or by the
    /// NID it is for. Approving a formal request registers its NID;
    /// approving an informal one assigns the next `urn-N` (section 5.2),
    /// never reusing a number.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when there is no such request pending,
    /// [`Error::State`] when it was decided already.
    pub fn review(&mut self, target: &str, decision: Decision, note: &str, actor: &str) -> Result<Outcome> {
        if note.trim().is_empty() {
            return Err(Error::Invalid(vec![Problem {
                field: "note".into(),
                message: "a review needs a note for the registrant".into(),
            }]));
        }
        let tx = self.write()?;
        let id = resolve_request(&tx, target)?;
        let (nid, kind, version, status): (Option<String>, String, i64, String) = tx.query_row(
            "SELECT nid, kind, version, status FROM registrations WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        if status != "submitted" && status != "changes-requested" {
            return Err(Error::State(format!("request {id} is already {status}")));
        }
        let kind = kind_from_str(&kind);
        let at = now();
        let mut nid = nid;
        if decision == Decision::Approve {
            if version == 1 {
                let registered = match kind {
                    Kind::Formal => {
                        let nid = nid
                            .clone()
                            .ok_or_else(|| Error::Data(format!("request {id} has no NID")))?;
                        let taken = nid_taken(&tx, &nid)?
                            .into_iter()
                            .filter(|p| !p.message.contains("already requested"))
                            .collect::<Vec<_>>();
                        if !taken.is_empty() {
                            return Err(Error::Invalid(taken));
                        }
                        nid
                    }
                    Kind::Informal => next_informal(&tx)?,
                };
                tx.execute(
                    "INSERT INTO namespaces (nid, kind, status, date, current_version) VALUES (?1, ?2, 'registered', ?3, 1)",
                    params![registered, kind.as_str(), today()],
                )?;
                nid = Some(registered);
            } else {
                tx.execute(
                    "UPDATE namespaces SET current_version = ?1, updated = ?2 WHERE nid = ?3",
                    params![version, today(), nid],
                )?;
            }
        }
        if decision == Decision::Approve {
            let rules: Option<String> = tx
                .query_row("SELECT body FROM rules WHERE registration_id = ?1", [id], |r| {
                    r.get(0)
                })
                .optional()?;
            if let Some(body) = rules {
                tx.execute(
                    "UPDATE namespaces SET rules = ?1 WHERE nid = ?2",
                    params![body, nid],
                )?;
            }
        }
        tx.execute(
            "UPDATE registrations SET status = ?1, nid = ?2, decided_at = ?3 WHERE id = ?4",
            params![
                decision.new_status(),
                nid,
                (decision != Decision::AskChanges).then_some(&at),
                id
            ],
        )?;
        tx.execute(
            "INSERT INTO reviews (registration_id, decision, note, actor, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, decision.as_str(), note, actor, at],
        )?;
        audit(
            &tx,
            actor,
            &format!("review:{}", decision.as_str()),
            nid.as_deref(),
            Some(id),
            note,
        )?;
        tx.commit()?;
        Ok(Outcome {
            id,
            nid,
            status: decision.new_status().into(),
            version,
        })
    }

    /// The namespaces, formal first (by NID), then informal (by number).
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn list(&self, filter: &ListFilter) -> Result<Vec<NamespaceSummary>> {
        let mut stmt = self
            .conn
            .prepare("SELECT nid, kind, status, date, record FROM namespaces")?;
        let mut rows: Vec<NamespaceSummary> = stmt
            .query_map([], |r| {
                let record: String = r.get(4)?;
                Ok(NamespaceSummary {
                    nid: r.get(0)?,
                    kind: kind_from_str(&r.get::<_, String>(1)?),
                    status: r.get(2)?,
                    date: r.get(3)?,
                    references: reference_labels(&record),
                })
            })?
            .collect::<Result<_, _>>()?;
        rows.retain(|r| {
            filter.kind.is_none_or(|k| k == r.kind) && filter.status.as_ref().is_none_or(|s| *s == r.status)
        });
        rows.sort_by_key(|r| {
            (
                r.kind == Kind::Informal,
                informal_number(&r.nid),
                r.nid.to_ascii_lowercase(),
            )
        });
        Ok(rows)
    }

    /// One namespace with one version of its registration (the current one
    /// unless `version` is given).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for an unknown NID or version.
    pub fn show(&self, nid: &str, version: Option<i64>) -> Result<NamespaceDetail> {
        let row = self
            .conn
            .query_row(
                "SELECT nid, kind, status, date, updated, current_version, record FROM namespaces WHERE nid = ?1",
                [nid],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, Option<String>>(4)?,
                        r.get::<_, Option<i64>>(5)?,
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional()?;
        let Some((nid, kind, status, date, updated, current, record)) = row else {
            return Err(Error::NotFound(format!("'{nid}' is not a registered NID")));
        };
        let versions = self.versions(&nid)?;
        let registration = match version {
            Some(v) => Some(
                versions
                    .into_iter()
                    .rev()
                    .find(|r| r.version == v)
                    .ok_or_else(|| Error::NotFound(format!("'{nid}' has no version {v}")))?,
            ),
            None => current.and_then(|c| {
                versions
                    .into_iter()
                    .find(|r| r.version == c && r.status == "approved")
            }),
        };
        Ok(NamespaceDetail {
            summary: NamespaceSummary {
                nid,
                kind: kind_from_str(&kind),
                status,
                date,
                references: reference_labels(&record),
            },
            updated,
            current_version: current,
            registration,
            record: serde_json::from_str(&record).unwrap_or(serde_json::Value::Null),
        })
    }

    /// Every version and audit event of a namespace.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for an unknown NID.
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
        Ok(History {
            nid,
            versions,
            events,
        })
    }

    fn versions(&self, nid: &str) -> Result<Vec<Version>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT r.id, r.version, r.status, r.date, r.source, r.submitted_at, r.decided_at,
                    rules.body, r.nid, r.legacy_fields, {}
             FROM registrations r LEFT JOIN rules ON rules.registration_id = r.id
             WHERE r.nid = ?1 ORDER BY r.version, r.id",
            appendix_a_columns("r.")
        ))?;
        let mut rows = stmt.query([nid])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let version: i64 = r.get(1)?;
            let date: String = r.get(3)?;
            let mut fields = stored_fields(r, id, 10, 9)?;
            fields.namespace_identifier = r.get(8)?;
            fields.version = Some(version.to_string());
            fields.date = (!date.is_empty()).then(|| date.clone());
            out.push(Version {
                id,
                version,
                status: r.get(2)?,
                date,
                fields,
                source: r.get(4)?,
                submitted_at: r.get(5)?,
                decided_at: r.get(6)?,
                rules: r.get(7)?,
            });
        }
        Ok(out)
    }
}

/// Applies the migrations after the database's `user_version` up to
/// `target`, and seeds a new database, all in one transaction.
fn migrate(conn: &mut Connection, actor: &str, target: usize) -> Result<()> {
    let known = MIGRATIONS.len() as i64;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(Error::SchemaTooNew { found, known });
    }
    let target = target.min(MIGRATIONS.len());
    if found as usize >= target {
        return Ok(());
    }
    for (name, sql) in &MIGRATIONS[found as usize..target] {
        tx.execute_batch(sql).map_err(|source| Error::Migration {
            name: (*name).to_string(),
            source,
        })?;
    }
    tx.pragma_update(None, "user_version", target as i64)?;
    if found == 0 {
        seed(&tx, actor, target)?;
    }
    // Migration 3 gives namespaces a home for their rules: fill it with the
    // shipped rules, for new and for upgraded databases alike.
    if found < 3 && target >= 3 {
        fill_shipped_rules(&tx)?;
    }
    // Migration 4 keeps what a snapshot needs to give the shipped registry
    // back: the full records and the registry's metadata.
    if found < 4 && target >= 4 {
        fill_snapshot_sources(&tx)?;
    }
    tx.commit()?;
    Ok(())
}

/// The shipped records, parsed.
pub(super) fn embedded_records() -> Result<Vec<RecordFile>> {
    EMBEDDED
        .iter()
        .filter(|(name, _)| *name != REGISTRY_FILE)
        .map(|(name, text)| {
            toml::from_str(text).map_err(|e| Error::Data(format!("embedded registry/{name}: {e}")))
        })
        .collect()
}

/// The shipped record as stored in `namespaces.iana`: without its rules,
/// status and filed versions, which live in their own columns and tables.
pub(super) fn iana_json(record: &RecordFile) -> Result<String> {
    let mut bare = record.clone();
    bare.rules = None;
    bare.status = None;
    bare.filed.clear();
    serde_json::to_string(&bare).map_err(|e| Error::Data(e.to_string()))
}

/// Fills `namespaces.iana` of the shipped namespaces and `registry_meta`.
fn fill_snapshot_sources(tx: &Transaction<'_>) -> Result<()> {
    for record in embedded_records()? {
        tx.execute(
            "UPDATE namespaces SET iana = ?1 WHERE nid = ?2 AND iana IS NULL",
            params![iana_json(&record)?, record.nid],
        )?;
    }
    let meta = EMBEDDED
        .iter()
        .find(|(name, _)| *name == REGISTRY_FILE)
        .ok_or_else(|| Error::Data(format!("no embedded {REGISTRY_FILE}")))?;
    let meta: super::data::RegistryFile =
        toml::from_str(meta.1).map_err(|e| Error::Data(format!("embedded {REGISTRY_FILE}: {e}")))?;
    tx.execute(
        "INSERT OR IGNORE INTO registry_meta (id, body) VALUES (1, ?1)",
        [serde_json::to_string(&meta).map_err(|e| Error::Data(e.to_string()))?],
    )?;
    Ok(())
}

/// Sets the rules of shipped namespaces that have none yet.
fn fill_shipped_rules(tx: &Transaction<'_>) -> Result<()> {
    for record in embedded_records()? {
        if let Some(rules) = &record.rules {
            let body =
                toml::to_string(rules).map_err(|e| Error::Data(format!("rules of {}: {e}", record.nid)))?;
            tx.execute(
                "UPDATE namespaces SET rules = ?1 WHERE nid = ?2 AND rules IS NULL",
                params![body, record.nid],
            )?;
        }
    }
    Ok(())
}

/// Fills a new database with the embedded `registry/`.
fn seed(tx: &Transaction<'_>, actor: &str, schema: usize) -> Result<()> {
    let mut count = 0;
    let mut highest_informal = 0;
    for record in embedded_records()? {
        if record.kind == Kind::Informal {
            highest_informal = highest_informal.max(informal_number(&record.nid).unwrap_or(0));
        }
        seed_record(tx, &record, schema >= 4)?;
        count += 1;
    }
    tx.execute("UPDATE informal_sequence SET last = ?1", [highest_informal])?;
    // The audit log arrives with migration 2; older targets (tests) have none.
    if schema >= 2 {
        audit(
            tx,
            actor,
            "init",
            None,
            None,
            &format!("{count} namespaces from the embedded IANA registry"),
        )?;
    }
    Ok(())
}

/// Inserts a namespace from its record, with the shipped registration
/// text as its approved version. `keep_iana`: the database has migration 4's
/// `namespaces.iana` column, which keeps the whole record for snapshots.
pub(super) fn seed_record(tx: &Transaction<'_>, record: &RecordFile, keep_iana: bool) -> Result<()> {
    let facts = serde_json::json!({
        "template": record.template,
        "references": record.references,
        "contacts": record.contacts,
    });
    tx.execute(
        "INSERT INTO namespaces (nid, kind, status, date, updated, current_version, record)
         VALUES (?1, ?2, 'registered', ?3, ?4, ?5, ?6)",
        params![
            record.nid,
            record.kind.as_str(),
            record.date,
            record.updated,
            record.version_in_force(),
            facts.to_string()
        ],
    )?;
    if keep_iana {
        tx.execute(
            "UPDATE namespaces SET iana = ?1 WHERE nid = ?2",
            params![iana_json(record)?, record.nid],
        )?;
    }
    let Some(reg) = &record.registration else {
        return Ok(());
    };
    let f = &reg.fields;
    // The date of the registration text if it is one, else the registry's.
    let date = f
        .date
        .as_deref()
        .map(str::trim)
        .filter(|d| is_valid_date(d))
        .map(str::to_string)
        .or_else(|| record.date.clone())
        .unwrap_or_default();
    let decided = record.updated.clone().or_else(|| record.date.clone());
    insert_row(
        tx,
        &RegistrationRow {
            nid: Some(&record.nid),
            kind: record.kind,
            version: leading_number(f.version.as_deref()).unwrap_or(1),
            status: "approved",
            date: &date,
            fields: f,
            source: Some(&reg.source),
            source_text: Some(&reg.text),
            submitted_at: decided.as_deref().unwrap_or_default(),
            decided_at: decided.as_deref(),
            rules: None,
        },
    )?;
    Ok(())
}

/// One row of `registrations`, as every writer fills it.
pub(super) struct RegistrationRow<'a> {
    pub nid: Option<&'a str>,
    pub kind: Kind,
    pub version: i64,
    pub status: &'a str,
    pub date: &'a str,
    /// The Appendix A body fields go to their columns, the RFC 3406 ones
    /// to `legacy_fields`; NID, version and date are taken from above.
    pub fields: &'a TemplateFields,
    pub source: Option<&'a str>,
    /// The registration text as received (shipped texts only).
    pub source_text: Option<&'a str>,
    pub submitted_at: &'a str,
    pub decided_at: Option<&'a str>,
    /// Its namespace rules, as TOML.
    pub rules: Option<&'a str>,
}

/// Inserts a registration (and its rules); returns its id.
pub(super) fn insert_row(tx: &Transaction<'_>, row: &RegistrationRow<'_>) -> Result<i64> {
    let f = row.fields;
    let text = |key: &str| f.get(key).cloned().flatten().unwrap_or_default();
    let mut legacy = TemplateFields::default();
    for (key, _, appendix_a) in FIELDS {
        if !appendix_a {
            *legacy.get_mut(key).expect("known field") = f.get(key).cloned().flatten();
        }
    }
    let body = APPENDIX_A_KEYS.map(text);
    let legacy = serde_json::to_string(&legacy).map_err(|e| Error::Data(e.to_string()))?;
    let kind = row.kind.as_str();
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&row.nid, &kind, &row.version, &row.status, &row.date];
    values.extend(body.iter().map(|v| v as &dyn rusqlite::ToSql));
    values.extend([
        &legacy as &dyn rusqlite::ToSql,
        &row.source,
        &row.source_text,
        &row.submitted_at,
        &row.decided_at,
    ]);
    let marks = vec!["?"; values.len()].join(", ");
    tx.prepare_cached(&format!(
        "INSERT INTO registrations (nid, kind, version, status, date, {}, legacy_fields, source,
             source_text, submitted_at, decided_at)
         VALUES ({marks})",
        appendix_a_columns("")
    ))?
    .execute(rusqlite::params_from_iter(values))?;
    let id = tx.last_insert_rowid();
    if let Some(body) = row.rules {
        tx.execute(
            "INSERT INTO rules (registration_id, body) VALUES (?1, ?2)",
            params![id, body],
        )?;
    }
    Ok(id)
}

/// The Appendix A columns of `registrations`, in [`APPENDIX_A_KEYS`]
/// order, each with `prefix` (a table alias such as `r.`).
pub(super) fn appendix_a_columns(prefix: &str) -> String {
    APPENDIX_A_KEYS.map(|k| format!("{prefix}{k}")).join(", ")
}

/// The template fields of a `registrations` row as [`insert_row`] stored
/// them: the JSON of `legacy_fields` (column `legacy`) with the Appendix A
/// columns (from column `first` on, as [`appendix_a_columns`] lists them;
/// empty text is absent) on top.
pub(super) fn stored_fields(
    r: &rusqlite::Row<'_>,
    id: i64,
    first: usize,
    legacy: usize,
) -> Result<TemplateFields> {
    let legacy: String = r.get(legacy)?;
    let mut fields: TemplateFields =
        serde_json::from_str(&legacy).map_err(|e| Error::Data(format!("registration {id}: {e}")))?;
    for (i, key) in APPENDIX_A_KEYS.iter().enumerate() {
        let text: String = r.get(first + i)?;
        *fields.get_mut(key).expect("known field") = (!text.is_empty()).then_some(text);
    }
    Ok(fields)
}

/// What lint needs to know of the registry: every NID ever registered
/// (withdrawn ones are not reused either) and its version in force.
pub(crate) fn lint_context(conn: &Connection) -> Result<LintContext> {
    let mut stmt = conn.prepare("SELECT nid, current_version FROM namespaces")?;
    let registered = stmt
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?.to_ascii_lowercase(), r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(LintContext { registered })
}

/// Problems if `nid` is registered or requested already (case-insensitive).
fn nid_taken(tx: &Transaction<'_>, nid: &str) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    let registered: Option<String> = tx
        .query_row("SELECT nid FROM namespaces WHERE nid = ?1", [nid], |r| r.get(0))
        .optional()?;
    if let Some(existing) = registered {
        problems.push(Problem {
            field: "nid".into(),
            message: format!("'{existing}' is already registered (RFC 8141 section 5.1)"),
        });
    } else if let Some(id) = pending_request(tx, nid)? {
        problems.push(Problem {
            field: "nid".into(),
            message: format!("'{nid}' is already requested (request {id})"),
        });
    }
    Ok(problems)
}

fn pending_request(tx: &Transaction<'_>, nid: &str) -> Result<Option<i64>> {
    Ok(tx
        .query_row(
            "SELECT id FROM registrations WHERE nid = ?1 AND status IN ('submitted', 'changes-requested')
             ORDER BY id DESC LIMIT 1",
            [nid],
            |r| r.get(0),
        )
        .optional()?)
}

/// A request id, or the NID whose pending request is meant.
fn resolve_request(tx: &Transaction<'_>, target: &str) -> Result<i64> {
    if !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()) {
        let id: i64 = target
            .parse()
            .map_err(|_| Error::NotFound(format!("no request {target}")))?;
        let exists: Option<i64> = tx
            .query_row("SELECT id FROM registrations WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        return exists.ok_or_else(|| Error::NotFound(format!("no request {target}")));
    }
    pending_request(tx, target)?
        .ok_or_else(|| Error::NotFound(format!("no request for '{target}' is waiting for review")))
}

/// Takes the next informal number: one more than the highest ever given,
/// up to [`MAX_INFORMAL_NUMBER`](super::snapshot::MAX_INFORMAL_NUMBER)
/// (the same limit snapshots are held to, so the sequence never overflows
/// and every number handed out can be exported and imported again).
fn next_informal(tx: &Transaction<'_>) -> Result<String> {
    use super::MAX_INFORMAL_NUMBER;
    let last: i64 = tx.query_row("SELECT last FROM informal_sequence", [], |r| r.get(0))?;
    if last >= MAX_INFORMAL_NUMBER {
        return Err(Error::State(format!(
            "the informal NID sequence is exhausted: urn-{last} reached the limit of \
             MAX_INFORMAL_NUMBER = {MAX_INFORMAL_NUMBER} (RFC 8141 section 5.2: numbers are never reused)"
        )));
    }
    let last: i64 = tx.query_row(
        "UPDATE informal_sequence SET last = last + 1 RETURNING last",
        [],
        |r| r.get(0),
    )?;
    Ok(format!("urn-{last}"))
}

fn insert_registration(
    tx: &Transaction<'_>,
    file: &RegistrationFile,
    nid: Option<&str>,
    kind: Kind,
    version: i64,
    source: Option<&str>,
) -> Result<i64> {
    let rules = file
        .rules
        .as_ref()
        .map(toml::to_string)
        .transpose()
        .map_err(|e| Error::Data(format!("rules: {e}")))?;
    insert_row(
        tx,
        &RegistrationRow {
            nid,
            kind,
            version,
            status: "submitted",
            date: &file.date.as_ref().map(|d| d.as_text()).unwrap_or_default(),
            fields: &file.template_fields(),
            source,
            source_text: None,
            submitted_at: &now(),
            decided_at: None,
            rules: rules.as_deref(),
        },
    )
}

pub(super) fn audit(
    tx: &Transaction<'_>,
    actor: &str,
    action: &str,
    nid: Option<&str>,
    registration_id: Option<i64>,
    detail: &str,
) -> Result<()> {
    tx.execute(
        "INSERT INTO audit_log (at, actor, action, nid, registration_id, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![now(), actor, action, nid, registration_id, detail],
    )?;
    Ok(())
}

/// Short labels of a record's references (from its JSON facts).
fn reference_labels(record: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(record).unwrap_or_default();
    let xrefs: Vec<super::data::Xref> = value
        .get("references")
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .unwrap_or_default();
    let contacts: Vec<super::data::Xref> = value
        .get("contacts")
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .unwrap_or_default();
    xrefs
        .iter()
        .chain(contacts.iter().filter(|_| xrefs.is_empty()))
        .map(|x| x.label())
        .collect()
}
