//! The schema over time: `migrations/NNNN-name.sql`, applied in order and
//! tracked with `PRAGMA user_version`, and the data steps that go with
//! them (seeding a new database from the embedded registry).
//!
//! Append only: never reorder, edit or drop a shipped migration; a new
//! schema is a new file. Migrations run in one `BEGIN IMMEDIATE`
//! transaction with foreign keys off (so that a table can be rebuilt),
//! and the foreign keys are checked before it commits.

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use crate::resolve::QueryRegistry;

use super::super::Kind;
use super::super::data::{EMBEDDED, REGISTRY_FILE, RecordFile, RegistryFile};
use super::super::error::{Error, Result};
use super::header::{APPLICATION_ID, check_header, read_header};
use super::params::replace_query_registry;
use super::rows::{audit, embedded_records, iana_json, informal_number, rules_text, seed_record};
use super::shipped::{mark_if_current, record_fingerprint};

/// The migrations, `migrations/NNNN-name.sql`, in order: `(file name, SQL)`.
/// The database's `PRAGMA user_version` is the number applied.
pub static MIGRATIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/migration_files.rs"));

/// Applies the migrations after the database's `user_version` up to
/// `target`, and seeds a new database, all in one transaction; nothing
/// when it is up to date.
pub(super) fn migrate(conn: &mut Connection, actor: &str, target: usize) -> Result<()> {
    let target = target.min(MIGRATIONS.len()) as i64;
    if check_header(&read_header(conn)?, MIGRATIONS.len() as i64)? >= target {
        return Ok(());
    }
    // SQLite's procedure for schema changes: foreign keys off (this cannot
    // change inside a transaction), `foreign_key_check` before commit.
    conn.pragma_update(None, "foreign_keys", false)?;
    let applied = apply(conn, actor, target);
    conn.pragma_update(None, "foreign_keys", true)?;
    applied
}

fn apply(conn: &mut Connection, actor: &str, target: i64) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another process may have migrated it while this one waited for the lock.
    let found = check_header(&read_header(&tx)?, MIGRATIONS.len() as i64)?;
    if found >= target {
        return Ok(());
    }
    for (name, sql) in &MIGRATIONS[found as usize..target as usize] {
        tx.execute_batch(sql).map_err(|source| Error::Migration {
            name: (*name).to_string(),
            source,
        })?;
    }
    tx.pragma_update(None, "user_version", target)?;
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    // The shipped records, parsed once for every step below that needs them.
    let records = if found < 10 {
        embedded_records()?
    } else {
        Vec::new()
    };
    if found == 0 {
        seed(&tx, actor, target, &records)?;
    }
    // Migration 3 gives namespaces a home for their rules: fill it with the
    // shipped rules, for new and for upgraded databases alike.
    if found < 3 && target >= 3 {
        fill_shipped_rules(&tx, &records)?;
    }
    // Migration 4 keeps what a snapshot needs to give the shipped registry
    // back: the full records and the registry's metadata.
    if found < 4 && target >= 4 {
        fill_snapshot_sources(&tx, &records)?;
    }
    // Migration 5: the rules in force are those of the version in force.
    if found < 5 && target >= 5 {
        attach_rules_in_force(&tx)?;
    }
    // Migration 9: the resolution sub-registries, with the shipped entries.
    if found < 9 && target >= 9 {
        replace_query_registry(&tx, QueryRegistry::shipped())?;
    }
    // Migration 10: which embedded registry the shipped namespaces are. A
    // new database's are this binary's; an older one's are if an update
    // would change nothing (compared once, here, never on reading).
    if found < 10 && target >= 10 {
        if found == 0 {
            record_fingerprint(&tx)?;
        } else {
            mark_if_current(&tx, Some(&records))?;
        }
    }
    let broken: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0))?;
    if broken > 0 {
        return Err(Error::Data(format!(
            "migrating to schema {target} would leave {broken} row(s) with a dangling reference; nothing was changed"
        )));
    }
    tx.commit()?;
    Ok(())
}

/// Fills `namespaces.iana` of the shipped namespaces and `registry_meta`.
fn fill_snapshot_sources(tx: &Transaction<'_>, records: &[RecordFile]) -> Result<()> {
    for record in records {
        tx.execute(
            "UPDATE namespaces SET iana = ?1 WHERE nid = ?2 AND iana IS NULL",
            params![iana_json(record)?, record.nid],
        )?;
    }
    let meta = EMBEDDED
        .iter()
        .find(|(name, _)| *name == REGISTRY_FILE)
        .ok_or_else(|| Error::Data(format!("no embedded {REGISTRY_FILE}")))?;
    let meta: RegistryFile =
        toml::from_str(meta.1).map_err(|e| Error::Data(format!("embedded {REGISTRY_FILE}: {e}")))?;
    tx.execute(
        "INSERT OR IGNORE INTO registry_meta (id, body) VALUES (1, ?1)",
        [serde_json::to_string(&meta).map_err(|e| Error::Data(e.to_string()))?],
    )?;
    Ok(())
}

/// Sets the rules of shipped namespaces that have none yet.
fn fill_shipped_rules(tx: &Transaction<'_>, records: &[RecordFile]) -> Result<()> {
    for record in records {
        if let Some(rules) = &record.rules {
            tx.execute(
                "UPDATE namespaces SET rules = ?1 WHERE nid = ?2 AND rules IS NULL",
                params![rules_text(rules, &record.nid)?, record.nid],
            )?;
        }
    }
    Ok(())
}

/// Gives the rules in force to the version in force (its newest approved
/// row) where that row has no rules of its own: what a database held before
/// migration 5 kept the rules with the namespace only.
fn attach_rules_in_force(tx: &Transaction<'_>) -> Result<()> {
    tx.execute(
        "INSERT INTO rules (registration_id, body)
         SELECT r.id, n.rules FROM namespaces n
         JOIN registrations r ON r.id = (
             SELECT max(x.id) FROM registrations x
             WHERE x.nid = n.nid AND x.version = n.current_version AND x.status = 'approved')
         WHERE n.rules IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM rules WHERE registration_id = r.id)",
        [],
    )?;
    Ok(())
}

/// Fills a new database with the embedded `registry/`.
fn seed(tx: &Transaction<'_>, actor: &str, schema: i64, records: &[RecordFile]) -> Result<()> {
    let mut count = 0;
    let mut highest_informal = 0;
    for record in records {
        if record.kind == Kind::Informal {
            highest_informal = highest_informal.max(informal_number(&record.nid).unwrap_or(0));
        }
        seed_record(tx, record, schema >= 4)?;
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
