//! Browser sessions and filing rate limits, kept in the database
//! (migration 8): a restart keeps experts signed in and limits in force,
//! and several `urnreg serve` processes on one database agree. Reading a
//! session is a read; signing in and filing are one short write each.

use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

use super::tokens::Principal;
use crate::registry::{Error, Result};

/// The most sessions stored at once; beyond it expired ones are purged,
/// then signing in is refused.
pub(crate) const MAX_SESSIONS: i64 = 10_000;

/// The most client addresses the filing limit remembers; beyond it, the
/// buckets that have filled up again are forgotten first, then all.
const MAX_BUCKETS: i64 = 100_000;

/// A signed-in browser.
#[derive(Clone, Debug)]
pub(crate) struct Session {
    pub principal: Principal,
    /// The CSRF token every form of this session carries.
    pub csrf: String,
}

/// Seconds since the Unix epoch, with fractions.
fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Stores a new session for `principal` lasting `lifetime` seconds, after
/// purging expired ones.
///
/// # Errors
///
/// [`Error::State`] when [`MAX_SESSIONS`] live sessions exist; the SQLite
/// error.
pub(crate) fn create(
    conn: &Connection,
    id_hash: &[u8; 32],
    principal: &Principal,
    csrf: &str,
    lifetime: u64,
) -> Result<()> {
    let now = now() as i64;
    conn.execute("DELETE FROM service_sessions WHERE expires_at <= ?1", [now])?;
    let live: i64 = conn.query_row("SELECT count(*) FROM service_sessions", [], |r| r.get(0))?;
    if live >= MAX_SESSIONS {
        return Err(Error::State(format!(
            "too many sessions at once (at most {MAX_SESSIONS}): try again later"
        )));
    }
    let (expert, request) = match principal {
        Principal::Expert { id, .. } => (Some(*id), None),
        Principal::Registrant { request } => (None, Some(*request)),
    };
    conn.execute(
        "INSERT INTO service_sessions (id_hash, expert_id, request_id, csrf, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            &id_hash[..],
            expert,
            request,
            csrf,
            crate::clock::now(),
            now.saturating_add(i64::try_from(lifetime).unwrap_or(i64::MAX))
        ],
    )?;
    Ok(())
}

/// The live session with this id hash: not expired, and for an expert,
/// one not removed since.
///
/// # Errors
///
/// The SQLite error.
pub(crate) fn find(conn: &Connection, id_hash: &[u8; 32]) -> Result<Option<Session>> {
    let now = now() as i64;
    let row = conn
        .query_row(
            "SELECT s.expert_id, e.name, e.removed_at, s.request_id, s.csrf
             FROM service_sessions s LEFT JOIN experts e ON e.id = s.expert_id
             WHERE s.id_hash = ?1 AND s.expires_at > ?2",
            params![&id_hash[..], now],
            |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, String>(4)?,
                ))
            },
        )
        .optional()?;
    Ok(row.and_then(|(expert, name, removed, request, csrf)| {
        let principal = match (expert, name, removed, request) {
            (Some(id), Some(name), None, _) => Principal::Expert { id, name },
            (None, _, _, Some(request)) => Principal::Registrant { request },
            // A removed expert's sessions end with their token.
            _ => return None,
        };
        Some(Session { principal, csrf })
    }))
}

/// Ends the session with this id hash.
///
/// # Errors
///
/// The SQLite error.
pub(crate) fn end(conn: &Connection, id_hash: &[u8; 32]) -> Result<()> {
    conn.execute("DELETE FROM service_sessions WHERE id_hash = ?1", [&id_hash[..]])?;
    Ok(())
}

/// Takes one filing from `client`'s token bucket (`burst` filings, one
/// more every `1 / per_second` seconds) in one statement; `Ok(Err(seconds))`
/// to wait when it is empty.
///
/// # Errors
///
/// The SQLite error.
pub(crate) fn take_filing(
    conn: &Connection,
    client: IpAddr,
    burst: f64,
    per_second: f64,
) -> Result<std::result::Result<(), u64>> {
    let now = now();
    let client = client.to_string();
    let count: i64 = conn.query_row("SELECT count(*) FROM filing_limits", [], |r| r.get(0))?;
    if count >= MAX_BUCKETS {
        conn.execute(
            "DELETE FROM filing_limits WHERE tokens + (?1 - updated_at) * ?2 >= ?3",
            params![now, per_second, burst],
        )?;
        let count: i64 = conn.query_row("SELECT count(*) FROM filing_limits", [], |r| r.get(0))?;
        if count >= MAX_BUCKETS {
            conn.execute("DELETE FROM filing_limits", [])?;
        }
    }
    // Refill, then take one if there is one: atomic, whichever process
    // files.
    let taken = conn
        .query_row(
            "INSERT INTO filing_limits (client, tokens, updated_at) VALUES (?1, ?2 - 1, ?3)
             ON CONFLICT (client) DO UPDATE SET
                 tokens = min(?2, tokens + max(0, ?3 - updated_at) * ?4) - 1,
                 updated_at = ?3
             WHERE min(?2, tokens + max(0, ?3 - updated_at) * ?4) >= 1
             RETURNING tokens",
            params![client, burst, now, per_second],
            |r| r.get::<_, f64>(0),
        )
        .optional()?;
    if taken.is_some() {
        return Ok(Ok(()));
    }
    let tokens: f64 = conn.query_row(
        "SELECT min(?2, tokens + max(0, ?3 - updated_at) * ?4) FROM filing_limits WHERE client = ?1",
        params![client, burst, now, per_second],
        |r| r.get(0),
    )?;
    Ok(Err(((1.0 - tokens) / per_second).ceil().max(1.0) as u64))
}
