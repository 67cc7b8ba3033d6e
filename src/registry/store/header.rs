//! The header of a database file: what `PRAGMA application_id`,
//! `user_version` and the table names say, and whether this urnreg may
//! open it. Shared by opening and migrating.

use rusqlite::{Connection, ErrorCode};

use super::super::error::{Error, Result};

/// `PRAGMA application_id` of an urnreg database: "URNR".
pub(super) const APPLICATION_ID: i32 = 0x5552_4E52;

/// What the SQLite header and schema say about a database file.
pub(super) struct Header {
    user_version: i64,
    application_id: i32,
    tables: Vec<String>,
}

/// Reads the header fields and table names.
pub(super) fn read_header(conn: &Connection) -> Result<Header> {
    let read = || -> rusqlite::Result<Header> {
        let user_version = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let application_id = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        let mut stmt = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!'
             ORDER BY name",
        )?;
        let tables = stmt
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Header {
            user_version,
            application_id,
            tables,
        })
    };
    read().map_err(|e| match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::NotUrnreg("it is not an SQLite database".into()),
        _ => e.into(),
    })
}

/// The schema version of an urnreg database, or why the file is not one
/// this urnreg may use: another application's (its `application_id`, or
/// tables without urnreg's `user_version`), a `user_version` that no urnreg
/// writes (negative), or a newer schema than the `known` last one.
pub(super) fn check_header(h: &Header, known: i64) -> Result<i64> {
    if h.application_id != 0 && h.application_id != APPLICATION_ID {
        return Err(Error::NotUrnreg(format!(
            "its application_id is {:#010x}, not urnreg's ({APPLICATION_ID:#010x}): it belongs to another application",
            h.application_id
        )));
    }
    if h.user_version < 0 {
        return Err(Error::NotUrnreg(format!(
            "its user_version is {}, which no urnreg writes (schema versions are 0 to {known})",
            h.user_version
        )));
    }
    if h.user_version > known {
        return Err(Error::SchemaTooNew {
            found: h.user_version,
            known,
        });
    }
    let ours = ["namespaces", "registrations"]
        .iter()
        .all(|t| h.tables.iter().any(|have| have == t));
    if h.user_version == 0 && !h.tables.is_empty() {
        return Err(Error::NotUrnreg(format!(
            "it has tables ({}) but no urnreg schema (user_version 0): another application's database",
            h.tables.join(", ")
        )));
    }
    if h.user_version > 0 && h.application_id == 0 && !ours {
        return Err(Error::NotUrnreg(format!(
            "its user_version is {} but it lacks urnreg's tables (it has: {})",
            h.user_version,
            if h.tables.is_empty() {
                "none".to_string()
            } else {
                h.tables.join(", ")
            }
        )));
    }
    Ok(h.user_version)
}
