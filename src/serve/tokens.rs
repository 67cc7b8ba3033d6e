//! Bearer tokens: experts' (`urnreg expert add`) and registrants' (one per
//! request filed over HTTP).
//!
//! A token is `urnreg_<e|r>_<selector>_<secret>`: 8 random bytes of
//! selector and 32 of secret, in hex, from the operating system's random
//! source. Only the SHA-256 of the whole token is stored (migration
//! `0006-add_service_tokens.sql`), so a copy of the database hands out no
//! token. The selector finds the row; the stored hash is then compared with
//! the hash of the token presented in constant time ([`subtle`]), so the
//! answer time says nothing about how much of a guess was right.

use std::fmt;

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::clock::now;
use crate::registry::{Error, Problem, Result};

/// Who a token belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// An expert (reviews every request).
    Expert,
    /// The registrant of one request.
    Registrant,
}

impl TokenKind {
    fn letter(self) -> char {
        match self {
            TokenKind::Expert => 'e',
            TokenKind::Registrant => 'r',
        }
    }
}

/// A token as handed out once. `Debug` and `Display` do not show it: a
/// token must never reach a log by accident; [`Token::reveal`] does.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The token itself, to show its owner once.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// Bytes of the public selector.
const SELECTOR_BYTES: usize = 8;
/// Bytes of the secret (RFC 4086 section 8: well over the 96 bits that
/// resist guessing).
const SECRET_BYTES: usize = 32;

/// The longest text taken as a token; anything longer is not one.
pub const MAX_TOKEN_LEN: usize = 9 + 2 * SELECTOR_BYTES + 1 + 2 * SECRET_BYTES;

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// `n` random bytes from the operating system, in hex.
///
/// # Errors
///
/// [`Error::Data`] when the operating system has no random source.
pub fn random_hex(n: usize) -> Result<String> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| Error::Data(format!("no random source: {e}")))?;
    Ok(hex(&buf))
}

/// A new token of `kind`, its selector and the hash to store.
fn new_token(kind: TokenKind) -> Result<(Token, String, [u8; 32])> {
    let selector = random_hex(SELECTOR_BYTES)?;
    let secret = random_hex(SECRET_BYTES)?;
    let token = format!("urnreg_{}_{selector}_{secret}", kind.letter());
    let hash = digest(&token);
    Ok((Token(token), selector, hash))
}

/// SHA-256 of a token.
pub fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The kind and selector of a well-formed token; `None` for anything else.
pub fn parse(token: &str) -> Option<(TokenKind, &str)> {
    if token.len() != MAX_TOKEN_LEN {
        return None;
    }
    let rest = token.strip_prefix("urnreg_")?;
    let (kind, rest) = match rest.split_at_checked(2)? {
        ("e_", rest) => (TokenKind::Expert, rest),
        ("r_", rest) => (TokenKind::Registrant, rest),
        _ => return None,
    };
    let (selector, secret) = rest.split_once('_')?;
    let is_hex =
        |s: &str, n: usize| s.len() == 2 * n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (is_hex(selector, SELECTOR_BYTES) && is_hex(secret, SECRET_BYTES)).then_some((kind, selector))
}

/// Compares two hashes in constant time.
fn same_hash(stored: &[u8], presented: &[u8; 32]) -> bool {
    stored.len() == 32 && bool::from(stored.ct_eq(presented))
}

/// Who presented a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// An expert, by name (as the audit log names them).
    Expert {
        /// The expert's id.
        id: i64,
        /// The expert's name.
        name: String,
    },
    /// The registrant of one request.
    Registrant {
        /// The request (registration) id.
        request: i64,
    },
}

impl Principal {
    /// The name the audit log gives this principal: the expert's name, or
    /// `registrant`.
    pub fn actor(&self) -> &str {
        match self {
            Principal::Expert { name, .. } => name,
            Principal::Registrant { .. } => "registrant",
        }
    }
}

/// Who `token` belongs to; `None` when it is no token of this registry
/// (malformed, unknown, wrong secret, or an expert removed since).
///
/// # Errors
///
/// The SQLite error.
pub fn authenticate(conn: &Connection, token: &str) -> Result<Option<Principal>> {
    let Some((kind, selector)) = parse(token) else {
        return Ok(None);
    };
    let presented = digest(token);
    Ok(match kind {
        TokenKind::Expert => {
            let row: Option<(i64, String, Vec<u8>)> = conn
                .prepare_cached(
                    "SELECT id, name, token_hash FROM experts WHERE selector = ?1 AND removed_at IS NULL",
                )?
                .query_row([selector], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?;
            row.filter(|(_, _, hash)| same_hash(hash, &presented))
                .map(|(id, name, _)| Principal::Expert { id, name })
        }
        TokenKind::Registrant => {
            let row: Option<(i64, Vec<u8>)> = conn
                .prepare_cached("SELECT registration_id, token_hash FROM request_tokens WHERE selector = ?1")?
                .query_row([selector], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            row.filter(|(_, hash)| same_hash(hash, &presented))
                .map(|(request, _)| Principal::Registrant { request })
        }
    })
}

/// Returns true if and only if the expert `id` may still act (not removed).
///
/// # Errors
///
/// The SQLite error.
pub fn expert_is_active(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM experts WHERE id = ?1 AND removed_at IS NULL")?
        .query_row([id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Gives request `registration_id` its registrant token (stored hashed)
/// and returns it, to be shown once.
///
/// # Errors
///
/// The SQLite error (e.g. the request has a token already).
pub fn issue_request_token(conn: &Connection, registration_id: i64) -> Result<Token> {
    let (token, selector, hash) = new_token(TokenKind::Registrant)?;
    conn.prepare_cached(
        "INSERT INTO request_tokens (registration_id, selector, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![registration_id, selector, &hash[..], now()])?;
    Ok(token)
}

/// An expert, as `urnreg expert list` shows them (never with a token).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Expert {
    /// The expert's id.
    pub id: i64,
    /// The expert's name, as the audit log names them.
    pub name: String,
    /// When the token was made (UTC).
    pub created_at: String,
    /// When the expert was removed, if they were.
    pub removed_at: Option<String>,
}

/// The longest expert name, in characters.
pub const MAX_EXPERT_NAME: usize = 64;

fn check_expert_name(name: &str) -> Result<()> {
    let problem = |message: String| {
        Err(Error::Invalid(vec![Problem {
            field: "name".into(),
            message,
        }]))
    };
    if name.trim().is_empty() || name.trim() != name {
        return problem("an expert's name is not empty and has no spaces around it".into());
    }
    if name.chars().count() > MAX_EXPERT_NAME {
        return problem(format!(
            "an expert's name has at most {MAX_EXPERT_NAME} characters"
        ));
    }
    if name.chars().any(char::is_control) {
        return problem("an expert's name has no control characters".into());
    }
    if name.eq_ignore_ascii_case("registrant") {
        return problem("'registrant' names the holders of request tokens in the audit log".into());
    }
    Ok(())
}

/// Adds expert `name` and returns them with their token, which is shown
/// once and then exists nowhere but with its owner.
///
/// # Errors
///
/// [`Error::Invalid`] for an empty, over-long or control-character name,
/// [`Error::State`] when an expert of that name exists (removed ones too:
/// the audit log's names stay unambiguous).
pub fn add_expert(conn: &Connection, name: &str) -> Result<(Expert, Token)> {
    check_expert_name(name)?;
    let exists: Option<Option<String>> = conn
        .query_row("SELECT removed_at FROM experts WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()?;
    match exists {
        Some(None) => return Err(Error::State(format!("there is an expert named '{name}' already"))),
        Some(Some(removed)) => {
            return Err(Error::State(format!(
                "the expert '{name}' was removed at {removed}; a name is never given again, so that the \
                 review history names one person: add them under another name (such as '{name}-2')"
            )));
        }
        None => {}
    }
    let (token, selector, hash) = new_token(TokenKind::Expert)?;
    let at = now();
    conn.execute(
        "INSERT INTO experts (name, selector, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![name, selector, &hash[..], at],
    )?;
    let expert = Expert {
        id: conn.last_insert_rowid(),
        name: name.to_string(),
        created_at: at,
        removed_at: None,
    };
    Ok((expert, token))
}

/// Every expert, removed ones too, in the order they were added.
///
/// # Errors
///
/// The SQLite error.
pub fn list_experts(conn: &Connection) -> Result<Vec<Expert>> {
    let mut stmt = conn.prepare("SELECT id, name, created_at, removed_at FROM experts ORDER BY id")?;
    let rows = stmt.query_map([], |r| {
        Ok(Expert {
            id: r.get(0)?,
            name: r.get(1)?,
            created_at: r.get(2)?,
            removed_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Removes expert `name`: their token stops working at once (sessions
/// signed in with it too).
///
/// # Errors
///
/// [`Error::NotFound`] when there is no such expert still active.
pub fn remove_expert(conn: &Connection, name: &str) -> Result<Expert> {
    let at = now();
    let changed = conn.execute(
        "UPDATE experts SET removed_at = ?1 WHERE name = ?2 AND removed_at IS NULL",
        params![at, name],
    )?;
    if changed == 0 {
        return Err(Error::NotFound(format!(
            "there is no active expert named '{name}'"
        )));
    }
    // Signed out everywhere.
    conn.execute(
        "DELETE FROM service_sessions WHERE expert_id IN (SELECT id FROM experts WHERE name = ?1)",
        [name],
    )?;
    Ok(conn.query_row(
        "SELECT id, name, created_at, removed_at FROM experts WHERE name = ?1",
        [name],
        |r| {
            Ok(Expert {
                id: r.get(0)?,
                name: r.get(1)?,
                created_at: r.get(2)?,
                removed_at: r.get(3)?,
            })
        },
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Store;

    #[test]
    fn tokens_parse_only_in_their_exact_form() {
        let (token, selector, hash) = new_token(TokenKind::Expert).unwrap();
        assert_eq!(
            parse(token.reveal()),
            Some((TokenKind::Expert, selector.as_str()))
        );
        assert_eq!(digest(token.reveal()), hash);
        assert_eq!(format!("{token:?}"), "Token(<redacted>)");
        let text = token.reveal();
        for bad in [
            "",
            "urnreg_x",
            &text[..text.len() - 1],
            &format!("{text}0"),
            &text.replace("urnreg_e_", "urnreg_x_"),
            &text.to_ascii_uppercase(),
            &format!("{}g", &text[..text.len() - 1]),
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn experts_authenticate_until_removed() {
        let store = Store::open_embedded().unwrap();
        let conn = store.connection();
        let (ada, token) = add_expert(conn, "ada").unwrap();
        assert_eq!(
            authenticate(conn, token.reveal()).unwrap(),
            Some(Principal::Expert {
                id: ada.id,
                name: "ada".into()
            })
        );
        // The right selector with another secret is no one.
        let (kind, selector) = parse(token.reveal()).unwrap();
        assert_eq!(kind, TokenKind::Expert);
        let forged = format!("urnreg_e_{selector}_{}", "0".repeat(64));
        assert_eq!(authenticate(conn, &forged).unwrap(), None);
        assert!(matches!(add_expert(conn, "ada"), Err(Error::State(_))));
        for bad in ["", " ada", "registrant", "a\u{1b}b", &"x".repeat(65)] {
            assert!(matches!(add_expert(conn, bad), Err(Error::Invalid(_))), "{bad:?}");
        }
        remove_expert(conn, "ada").unwrap();
        assert_eq!(authenticate(conn, token.reveal()).unwrap(), None);
        assert!(!expert_is_active(conn, ada.id).unwrap());
        assert!(matches!(remove_expert(conn, "ada"), Err(Error::NotFound(_))));
        // A removed expert's name is not given again, and the refusal says
        // why and what to do.
        match add_expert(conn, "ada") {
            Err(Error::State(why)) => assert!(why.contains("was removed") && why.contains("ada-2"), "{why}"),
            other => panic!("{other:?}"),
        }
        let listed = list_experts(conn).unwrap();
        assert_eq!(listed.len(), 1);
        assert!(listed[0].removed_at.is_some());
        // No token, nor its secret, is stored anywhere.
        let secret = &token.reveal()[26..];
        let dump: String = conn
            .query_row(
                "SELECT group_concat(hex(token_hash) || selector) FROM experts",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(!dump.to_ascii_lowercase().contains(secret));
    }
}
