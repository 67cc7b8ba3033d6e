//! The shipped part of a database and the binary's embedded registry:
//! whether the database's shipped namespaces are this binary's (one
//! stored fingerprint, compared on every read), and `urnreg update`,
//! which brings them up to it without touching what was done here.
//!
//! # Shipped, local, kept
//!
//! The schema records where each version came from: a shipped version
//! (seeded from `registry/`, or read from a snapshot's record) keeps its
//! registration text in `registrations.source_text`; a version filed
//! through urnreg (`request`, `revise`, a snapshot's `filed`) has none. A
//! namespace registered here has no IANA record (`namespaces.iana` is
//! NULL). So a namespace of the database is *shipped*, and `update` may
//! bring it up to the embedded record, when it has an IANA record and no
//! version filed here at all, in any state: an approved one is in force or
//! was, a pending one is numbered after the version in force, and a
//! rejected or withdrawn one belongs to the namespace's history. Anything
//! else is *kept*, and the plan says why: a namespace registered here, one
//! with versions filed here, one withdrawn here that the embedded registry
//! has registered, one whose kind differs, and an NID a request filed here
//! names. Nothing is ever removed.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::Serialize;

use super::super::data::{EMBEDDED_FINGERPRINT, RecordFile};
use super::super::error::{Error, Result};
use super::Store;
use super::rows::{
    audit, embedded_records, iana_json, informal_number, parse_rules, record_facts, rules_text, seed_record,
    write_shipped_text,
};
use crate::clock::now;
use crate::rules::RulesFile;

/// Whether the database's shipped namespaces are those of this binary's
/// embedded registry, by the fingerprint recorded in the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShippedState {
    /// The fingerprint recorded in the database (none: a database an
    /// earlier urnreg made, whose shipped records differed, or one an
    /// import left behind).
    pub recorded: Option<String>,
    /// The urnreg version that recorded it.
    pub recorded_by: Option<String>,
    /// This binary's.
    pub embedded: &'static str,
}

impl ShippedState {
    /// Returns true if and only if the database's shipped namespaces are
    /// up to date with this binary's embedded registry.
    pub fn is_current(&self) -> bool {
        self.recorded.as_deref() == Some(self.embedded)
    }
}

/// What `urnreg update` changes, or would change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UpdatePlan {
    /// NIDs the embedded registry has and the database lacks.
    pub added: Vec<String>,
    /// Shipped namespaces brought up to the embedded record, with what
    /// changes in each.
    pub changed: Vec<UpdateChange>,
    /// Namespaces whose embedded record differs, kept as they are, with why.
    pub kept: Vec<KeptNamespace>,
    /// The fingerprint recorded before (none: none was).
    pub from: Option<String>,
    /// This binary's fingerprint, recorded by the update.
    pub to: String,
    /// Whether the database was written (false for a dry run and when it
    /// was up to date).
    pub applied: bool,
}

impl UpdatePlan {
    /// Returns true if and only if the update has nothing to add, change
    /// or record.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.from.as_deref() == Some(self.to.as_str())
    }
}

/// A shipped namespace and what the update changes in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UpdateChange {
    /// The NID.
    pub nid: String,
    /// The fields that change (`rules`, `registration text`, ...).
    pub fields: Vec<String>,
}

/// A namespace the update leaves as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeptNamespace {
    /// The NID.
    pub nid: String,
    /// Why it is kept.
    pub reason: String,
}

/// A namespace as the database holds it.
struct Held {
    nid: String,
    kind: String,
    status: String,
    current: Option<i64>,
    iana: Option<String>,
    rules: Option<String>,
}

/// The first version filed here of each NID, by lowercase NID:
/// `(version, status, request id)`, the most telling first (approved, then
/// pending, then the rest).
fn filed_versions(conn: &Connection) -> Result<HashMap<String, (i64, String, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT lower(nid), version, status, id FROM registrations
         WHERE source_text IS NULL AND nid IS NOT NULL
         ORDER BY CASE status WHEN 'approved' THEN 0 WHEN 'submitted' THEN 1
                  WHEN 'changes-requested' THEN 1 ELSE 2 END, version DESC, id DESC",
    )?;
    let mut out = HashMap::new();
    let rows = stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?, r.get(3)?)))
    })?;
    for row in rows {
        let (nid, first) = row?;
        out.entry(nid).or_insert(first);
    }
    Ok(out)
}

fn held_namespaces(conn: &Connection) -> Result<HashMap<String, Held>> {
    let mut stmt = conn.prepare("SELECT nid, kind, status, current_version, iana, rules FROM namespaces")?;
    let rows = stmt.query_map([], |r| {
        Ok(Held {
            nid: r.get(0)?,
            kind: r.get(1)?,
            status: r.get(2)?,
            current: r.get(3)?,
            iana: r.get(4)?,
            rules: r.get(5)?,
        })
    })?;
    let mut out = HashMap::new();
    for row in rows {
        let held = row?;
        out.insert(held.nid.to_ascii_lowercase(), held);
    }
    Ok(out)
}

/// What differs between the held namespace and the embedded record, field
/// by field (empty: nothing).
fn differences(held: &Held, record: &RecordFile) -> Vec<String> {
    let mut out = Vec::new();
    match held.iana.as_deref().map(serde_json::from_str::<RecordFile>) {
        Some(Ok(stored)) => {
            let facts = [
                ("NID spelling", stored.nid != record.nid),
                ("kind", stored.kind != record.kind),
                ("date", stored.date != record.date),
                ("updated", stored.updated != record.updated),
                ("template reference", stored.template != record.template),
                ("references", stored.references != record.references),
                ("contacts", stored.contacts != record.contacts),
                ("registration text", stored.registration != record.registration),
                ("referenced texts", stored.referenced != record.referenced),
            ];
            out.extend(facts.iter().filter(|(_, d)| *d).map(|(n, _)| (*n).to_string()));
        }
        // Unreadable, or none: the whole record.
        _ => out.push("IANA record".to_string()),
    }
    let shipped_status = record.status.as_deref().unwrap_or("registered");
    if held.status != shipped_status {
        out.push(format!("status {} -> {shipped_status}", held.status));
    }
    if held.current != record.version_in_force() {
        out.push("version in force".to_string());
    }
    let stored_rules: Option<std::result::Result<RulesFile, _>> =
        held.rules.as_deref().map(|body| parse_rules(body, &held.nid));
    let same_rules = match (stored_rules, &record.rules) {
        (None, None) => true,
        (Some(Ok(stored)), Some(shipped)) => stored == *shipped,
        _ => false,
    };
    if !same_rules {
        out.push("rules".to_string());
    }
    out
}

/// The plan of an update of the database read through `conn` to
/// `records` (the embedded registry), changing nothing.
fn plan(conn: &Connection, records: &[RecordFile]) -> Result<UpdatePlan> {
    let held = held_namespaces(conn)?;
    let filed = filed_versions(conn)?;
    let mut plan = UpdatePlan {
        from: recorded(conn)?.map(|(f, _)| f),
        to: EMBEDDED_FINGERPRINT.to_string(),
        ..UpdatePlan::default()
    };
    for record in records {
        let key = record.nid.to_ascii_lowercase();
        let filed_here = filed.get(&key);
        let Some(ns) = held.get(&key) else {
            match filed_here {
                Some((version, status, id)) => plan.kept.push(KeptNamespace {
                    nid: record.nid.clone(),
                    reason: format!(
                        "not added: request {id} filed here names it (version {version}, {status}); decide it first"
                    ),
                }),
                None => plan.added.push(record.nid.clone()),
            }
            continue;
        };
        if ns.iana.is_none() {
            plan.kept.push(KeptNamespace {
                nid: ns.nid.clone(),
                reason: "registered here, not from the shipped registry".to_string(),
            });
            continue;
        }
        let fields = differences(ns, record);
        if fields.is_empty() {
            continue;
        }
        let shipped_status = record.status.as_deref().unwrap_or("registered");
        let reason = if let Some((version, status, id)) = filed_here {
            Some(match status.as_str() {
                "approved" => format!("version {version} was approved here (request {id})"),
                "submitted" | "changes-requested" => {
                    format!("version {version} filed here waits for review (request {id})")
                }
                other => format!("version {version} was filed here ({other}, request {id})"),
            })
        } else if ns.status == "withdrawn" && shipped_status != "withdrawn" {
            Some("withdrawn here; the shipped registry has it registered".to_string())
        } else if ns.kind != record.kind.as_str() {
            Some(format!(
                "{} here; the shipped registry has it {}",
                ns.kind,
                record.kind.as_str()
            ))
        } else {
            None
        };
        match reason {
            Some(reason) => plan.kept.push(KeptNamespace {
                nid: ns.nid.clone(),
                reason,
            }),
            None => plan.changed.push(UpdateChange {
                nid: ns.nid.clone(),
                fields,
            }),
        }
    }
    let natural = |a: &str, b: &str| a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase());
    plan.added.sort_by(|a, b| natural(a, b));
    plan.changed.sort_by(|a, b| natural(&a.nid, &b.nid));
    plan.kept.sort_by(|a, b| natural(&a.nid, &b.nid));
    Ok(plan)
}

/// The fingerprint recorded in the database, and the urnreg that recorded it.
fn recorded(conn: &Connection) -> Result<Option<(String, String)>> {
    Ok(conn
        .query_row(
            "SELECT fingerprint, urnreg FROM shipped_registry WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Records that the database's shipped namespaces are this binary's (the
/// row stays as it is when it says so already).
pub(in crate::registry) fn record_fingerprint(tx: &Transaction<'_>) -> Result<()> {
    if recorded(tx)?.is_some_and(|(f, _)| f == EMBEDDED_FINGERPRINT) {
        return Ok(());
    }
    tx.execute(
        "INSERT OR REPLACE INTO shipped_registry (id, fingerprint, urnreg, at) VALUES (1, ?1, ?2, ?3)",
        params![EMBEDDED_FINGERPRINT, env!("CARGO_PKG_VERSION"), now()],
    )?;
    Ok(())
}

/// Records this binary's fingerprint if the database's shipped namespaces
/// are up to date with it (an update would add or change nothing), and
/// forgets any recorded one otherwise: after a migration from a schema
/// without the fingerprint, and after an import.
pub(crate) fn mark_if_current(tx: &Transaction<'_>, records: Option<&[RecordFile]>) -> Result<()> {
    let parsed;
    let records = match records {
        Some(r) => r,
        None => {
            parsed = embedded_records()?;
            &parsed
        }
    };
    let plan = plan(tx, records)?;
    if plan.added.is_empty() && plan.changed.is_empty() {
        record_fingerprint(tx)
    } else {
        tx.execute("DELETE FROM shipped_registry", [])?;
        Ok(())
    }
}

/// Brings the shipped namespace `held` up to `record`.
fn bring_up(tx: &Transaction<'_>, nid: &str, record: &RecordFile) -> Result<()> {
    let rules = record.rules.as_ref().map(|r| rules_text(r, nid)).transpose()?;
    tx.execute(
        "UPDATE namespaces SET status = ?1, date = ?2, updated = ?3, current_version = ?4, record = ?5,
             iana = ?6, rules = ?7
         WHERE nid = ?8",
        params![
            record.status.as_deref().unwrap_or("registered"),
            record.date,
            record.updated,
            record.version_in_force(),
            record_facts(record),
            iana_json(record)?,
            rules,
            nid
        ],
    )?;
    let Some(reg) = &record.registration else {
        return Ok(());
    };
    // The shipped row of the same version is rewritten (its id stays);
    // a new version is a new row, and the earlier ones stay as history.
    let same: Option<i64> = tx
        .query_row(
            "SELECT max(id) FROM registrations WHERE nid = ?1 AND version = ?2 AND source_text IS NOT NULL",
            params![nid, reg.version()],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    // The record in the database's spelling of the NID (its rows and
    // references use it).
    let mut record = record.clone();
    nid.clone_into(&mut record.nid);
    write_shipped_text(tx, &record, same)
}

impl Store {
    /// Whether the database's shipped namespaces are this binary's: one
    /// stored value read and compared, nothing else. An in-memory registry
    /// made from the embedded one always is.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn shipped_state(&self) -> Result<ShippedState> {
        let recorded = recorded(&self.conn)?;
        Ok(ShippedState {
            recorded_by: recorded.as_ref().map(|(_, by)| by.clone()),
            recorded: recorded.map(|(f, _)| f),
            embedded: EMBEDDED_FINGERPRINT,
        })
    }

    /// Brings the database's shipped namespaces up to this binary's
    /// embedded registry, in one transaction: every shipped namespace (see
    /// the module's documentation) whose record or rules differ is
    /// rewritten to the embedded record, NIDs the database lacks are
    /// added, everything else is kept, nothing is removed; the embedded
    /// registry's fingerprint is recorded, and the audit log says what
    /// changed. With `dry_run`, only the plan (nothing is written, and a
    /// read-only database will do).
    ///
    /// # Errors
    ///
    /// [`Error::ReadOnly`] to write a read-only database, [`Error::Data`]
    /// for an embedded record that does not parse, or the SQLite error;
    /// the database is unchanged.
    pub fn update_shipped(&mut self, dry_run: bool, actor: &str) -> Result<UpdatePlan> {
        let records = embedded_records()?;
        if dry_run {
            // One read transaction: the plan of one moment.
            let tx = self.conn.unchecked_transaction()?;
            let plan = plan(&tx, &records)?;
            tx.commit()?;
            return Ok(plan);
        }
        let tx = self.write()?;
        // Planned inside the write lock: a concurrent update that ran first
        // leaves this one nothing to do.
        let mut plan = plan(&tx, &records)?;
        if plan.is_empty() {
            return Ok(plan);
        }
        let by_nid: HashMap<String, &RecordFile> =
            records.iter().map(|r| (r.nid.to_ascii_lowercase(), r)).collect();
        let record_of = |nid: &str| {
            by_nid
                .get(&nid.to_ascii_lowercase())
                .copied()
                .ok_or_else(|| Error::Data(format!("no embedded record of '{nid}'")))
        };
        for nid in &plan.added {
            let record = record_of(nid)?;
            seed_record(&tx, record, true)?;
            tx.execute(
                "UPDATE namespaces SET status = ?1, rules = ?2 WHERE nid = ?3",
                params![
                    record.status.as_deref().unwrap_or("registered"),
                    record.rules.as_ref().map(|r| rules_text(r, nid)).transpose()?,
                    nid
                ],
            )?;
            if let Some(n) = informal_number(nid).filter(|_| record.kind == super::super::Kind::Informal) {
                // Never hand out an informal number again (RFC 8141 section 5.2).
                tx.execute("UPDATE informal_sequence SET last = max(last, ?1)", [n])?;
            }
            audit(
                &tx,
                actor,
                "update",
                Some(nid),
                None,
                "added from the embedded registry",
            )?;
        }
        for change in &plan.changed {
            bring_up(&tx, &change.nid, record_of(&change.nid)?)?;
            audit(
                &tx,
                actor,
                "update",
                Some(&change.nid),
                None,
                &format!(
                    "brought up to the embedded registry: {}",
                    change.fields.join("; ")
                ),
            )?;
        }
        record_fingerprint(&tx)?;
        audit(
            &tx,
            actor,
            "update",
            None,
            None,
            &format!(
                "{} added, {} changed, {} kept; shipped registry {} -> {} (urnreg {})",
                plan.added.len(),
                plan.changed.len(),
                plan.kept.len(),
                plan.from.as_deref().unwrap_or("unrecorded"),
                plan.to,
                env!("CARGO_PKG_VERSION")
            ),
        )?;
        tx.commit()?;
        plan.applied = true;
        Ok(plan)
    }
}
