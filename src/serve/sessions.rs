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

/// The most sessions one token holds at once: signing in again ends its
/// oldest, so that signing in over and over with one token (a registrant's
/// from one filing) cannot fill [`MAX_SESSIONS`].
pub(crate) const MAX_SESSIONS_PER_TOKEN: i64 = 16;

/// The most sessions registrants hold together: the rest of
/// [`MAX_SESSIONS`] stays for experts, whom registrants' sign-ins then
/// never lock out.
pub(crate) const MAX_REGISTRANT_SESSIONS: i64 = MAX_SESSIONS / 2;

/// The most clients the filing limit remembers; beyond it, the buckets
/// that have filled up again are forgotten, and while none has, a client
/// not yet remembered waits until one does (the others keep their
/// limits: forgetting them would reset them).
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
/// purging expired ones and the principal's oldest beyond
/// [`MAX_SESSIONS_PER_TOKEN`].
///
/// # Errors
///
/// [`Error::State`] when [`MAX_SESSIONS`] live sessions exist, or
/// [`MAX_REGISTRANT_SESSIONS`] for a registrant; the SQLite error.
pub(crate) fn create(
    conn: &Connection,
    id_hash: &[u8; 32],
    principal: &Principal,
    csrf: &str,
    lifetime: u64,
) -> Result<()> {
    let now = now() as i64;
    conn.execute("DELETE FROM service_sessions WHERE expires_at <= ?1", [now])?;
    let (expert, request) = match principal {
        Principal::Expert { id, .. } => (Some(*id), None),
        Principal::Registrant { request } => (None, Some(*request)),
    };
    // Room for this one among the token's own.
    conn.execute(
        "DELETE FROM service_sessions WHERE id_hash IN (
             SELECT id_hash FROM service_sessions WHERE expert_id IS ?1 AND request_id IS ?2
             ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?3)",
        params![expert, request, MAX_SESSIONS_PER_TOKEN - 1],
    )?;
    let live: i64 = conn.query_row("SELECT count(*) FROM service_sessions", [], |r| r.get(0))?;
    if live >= MAX_SESSIONS {
        return Err(Error::State(format!(
            "too many sessions at once (at most {MAX_SESSIONS}): try again later"
        )));
    }
    if request.is_some() {
        let registrants: i64 = conn.query_row(
            "SELECT count(*) FROM service_sessions WHERE request_id IS NOT NULL",
            [],
            |r| r.get(0),
        )?;
        if registrants >= MAX_REGISTRANT_SESSIONS {
            return Err(Error::State(format!(
                "too many registrants signed in at once (at most {MAX_REGISTRANT_SESSIONS}): try again later"
            )));
        }
    }
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

/// The bucket a client's filings count in: its IPv4 address, or the /64
/// network of its IPv6 one (RFC 4291 section 2.5.4: one site's subnet,
/// whose 2^64 addresses one host may take in turn; RFC 7707 section 2).
fn bucket_of(client: IpAddr) -> String {
    match client {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                let net = std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
                format!("{net}/64")
            }
        },
    }
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
    let client = bucket_of(client);
    let known = conn
        .query_row("SELECT 1 FROM filing_limits WHERE client = ?1", [&client], |_| {
            Ok(())
        })
        .optional()?
        .is_some();
    if !known {
        let count: i64 = conn.query_row("SELECT count(*) FROM filing_limits", [], |r| r.get(0))?;
        if count >= MAX_BUCKETS {
            conn.execute(
                "DELETE FROM filing_limits WHERE tokens + (?1 - updated_at) * ?2 >= ?3",
                params![now, per_second, burst],
            )?;
            let count: i64 = conn.query_row("SELECT count(*) FROM filing_limits", [], |r| r.get(0))?;
            if count >= MAX_BUCKETS {
                // The soonest a remembered bucket fills up again.
                let soonest: f64 = conn
                    .query_row(
                        "SELECT min((?3 - tokens) / ?2 - (?1 - updated_at)) FROM filing_limits",
                        params![now, per_second, burst],
                        |r| r.get::<_, Option<f64>>(0),
                    )?
                    .unwrap_or(1.0);
                return Ok(Err(soonest.ceil().max(1.0) as u64));
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Addresses of one IPv6 /64 share a bucket; IPv4 addresses, and IPv6
    /// ones of other /64s, have their own (found in hostile testing).
    #[test]
    fn an_ipv6_client_is_its_64() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            bucket_of(ip("2001:db8:1:2::1")),
            bucket_of(ip("2001:db8:1:2:ffff:1:2:3"))
        );
        assert_eq!(bucket_of(ip("2001:db8:1:2::1")), "2001:db8:1:2::/64");
        assert_ne!(bucket_of(ip("2001:db8:1:2::1")), bucket_of(ip("2001:db8:1:3::1")));
        assert_eq!(bucket_of(ip("192.0.2.7")), "192.0.2.7");
        assert_eq!(bucket_of(ip("::ffff:192.0.2.7")), "192.0.2.7");
        assert_ne!(bucket_of(ip("192.0.2.7")), bucket_of(ip("192.0.2.8")));
    }

    /// A filing from an address of a /64 that filed its burst waits, as
    /// the first address does.
    #[test]
    fn addresses_of_one_64_share_the_burst() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::registry::Store::open(&dir.path().join("r.db"), "test").unwrap();
        let conn = store.connection();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(
            take_filing(conn, ip("2001:db8::1"), 2.0, 1.0 / 3600.0)
                .unwrap()
                .is_ok()
        );
        assert!(
            take_filing(conn, ip("2001:db8::2"), 2.0, 1.0 / 3600.0)
                .unwrap()
                .is_ok()
        );
        assert!(
            take_filing(conn, ip("2001:db8::3"), 2.0, 1.0 / 3600.0)
                .unwrap()
                .is_err()
        );
        assert!(
            take_filing(conn, ip("2001:db8:0:1::3"), 2.0, 1.0 / 3600.0)
                .unwrap()
                .is_ok()
        );
    }

    /// Signing in again and again with one token keeps at most
    /// [`MAX_SESSIONS_PER_TOKEN`] of its sessions, the newest: the rest of
    /// [`MAX_SESSIONS`] stays for everyone else (found in hostile testing).
    #[test]
    fn one_token_holds_at_most_its_share_of_the_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::registry::Store::open(&dir.path().join("r.db"), "test").unwrap();
        let conn = store.connection();
        let (ada, _) = super::super::tokens::add_expert(conn, "ada").unwrap();
        let (bob, _) = super::super::tokens::add_expert(conn, "bob").unwrap();
        let principal = |e: &super::super::tokens::Expert| Principal::Expert {
            id: e.id,
            name: e.name.clone(),
        };
        let hash = |n: u32| {
            let mut h = [0u8; 32];
            h[..4].copy_from_slice(&n.to_le_bytes());
            h
        };
        create(conn, &hash(0), &principal(&bob), "c", 3600).unwrap();
        for n in 1..=100 {
            create(conn, &hash(n), &principal(&ada), "c", 3600).unwrap();
        }
        let count = |expert: i64| -> i64 {
            conn.query_row(
                "SELECT count(*) FROM service_sessions WHERE expert_id = ?1",
                [expert],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(count(ada.id), MAX_SESSIONS_PER_TOKEN);
        assert_eq!(count(bob.id), 1, "another token's session stays");
        assert!(find(conn, &hash(100)).unwrap().is_some(), "the newest stays");
        assert!(find(conn, &hash(1)).unwrap().is_none(), "the oldest went");
        assert!(find(conn, &hash(0)).unwrap().is_some());
    }
}
