//! One request, by id, as its registrant and the experts see it: its
//! state, its text and the review notes on it (RFC 8141 section 6: the
//! expert's notes go back to the registrant).
//!
//! The store answers by NID; a request for an informal namespace has none
//! until it is approved, so this reads the rows by id (read-only, from the
//! columns every schema since migration 1 has).

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use crate::registry::{Error, Kind, RegistrationFile, RequestStatus, Result};
use crate::template::TemplateFields;

/// The Appendix A fields a request's row holds, in template order.
const FIELD_COLUMNS: [&str; 10] = [
    "registrant",
    "purpose",
    "syntax",
    "assignment",
    "security_and_privacy",
    "interoperability",
    "resolution",
    "documentation",
    "additional_information",
    "revision_information",
];

/// One review decision on a request, or its withdrawal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewNote {
    /// `approve`, `reject` or `ask-changes`; `withdraw` for the
    /// registrant's withdrawal.
    pub decision: String,
    /// The expert's note to the registrant (the registrant's, for a
    /// withdrawal).
    pub note: String,
    /// Who decided.
    pub actor: String,
    /// When (UTC).
    pub at: String,
}

/// A request as `GET /api/requests/{id}` shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RequestView {
    /// The request id.
    pub id: i64,
    /// The NID (none for an informal request not yet approved).
    pub nid: Option<String>,
    /// Formal or informal.
    pub kind: Kind,
    /// The version it is for.
    pub version: i64,
    /// `submitted`, `changes-requested`, `approved`, `rejected`, ...
    pub status: String,
    /// Appendix A "Date".
    pub date: String,
    /// When it was filed (UTC).
    pub submitted_at: String,
    /// When it was decided, if it was.
    pub decided_at: Option<String>,
    /// The Appendix A fields.
    pub fields: TemplateFields,
    /// Its own rules (TOML), if it brings any.
    pub rules: Option<String>,
    /// The review decisions, oldest first.
    pub reviews: Vec<ReviewNote>,
    /// How many times its text was replaced (amended): a review may name
    /// the count it read, and is refused when the text changed since.
    pub amendments: i64,
}

impl RequestView {
    /// Returns true if and only if the request waits for a review or for
    /// its registrant (it can still be amended, withdrawn or decided).
    pub fn is_pending(&self) -> bool {
        matches!(self.status.as_str(), "submitted" | "changes-requested")
    }

    /// The request as a registration file (what lint and the diff read).
    pub fn to_file(&self) -> RegistrationFile {
        let mut file = RegistrationFile::from_fields(
            Some(self.kind),
            self.nid
                .clone()
                .filter(|_| self.kind == Kind::Formal || self.version > 1),
            Some(self.version),
            Some(self.date.clone()),
            &self.fields,
        );
        file.rules = self.rules.as_deref().and_then(|r| toml::from_str(r).ok());
        file
    }
}

/// Request `id`.
///
/// # Errors
///
/// [`Error::NotFound`] when there is no such request, or the SQLite error.
pub fn request(conn: &Connection, id: i64) -> Result<RequestView> {
    let sql = format!(
        "SELECT r.nid, r.kind, r.version, r.status, r.date, r.submitted_at, r.decided_at, rules.body,
                (SELECT count(*) FROM amendments a WHERE a.registration_id = r.id), {}
         FROM registrations r LEFT JOIN rules ON rules.registration_id = r.id WHERE r.id = ?1",
        FIELD_COLUMNS.map(|c| format!("r.{c}")).join(", ")
    );
    let row = conn
        .prepare_cached(&sql)?
        .query_row([id], |r| {
            let mut fields = TemplateFields::default();
            for (i, key) in FIELD_COLUMNS.iter().enumerate() {
                let text: String = r.get(9 + i)?;
                if let Some(slot) = fields.get_mut(key) {
                    *slot = (!text.is_empty()).then_some(text);
                }
            }
            let kind: String = r.get(1)?;
            Ok(RequestView {
                id,
                nid: r.get(0)?,
                kind: if kind == "informal" {
                    Kind::Informal
                } else {
                    Kind::Formal
                },
                version: r.get(2)?,
                status: r.get(3)?,
                date: r.get(4)?,
                submitted_at: r.get(5)?,
                decided_at: r.get(6)?,
                fields,
                rules: r.get(7)?,
                reviews: Vec::new(),
                amendments: r.get(8)?,
            })
        })
        .optional()?;
    let mut view = row.ok_or_else(|| Error::NotFound(format!("no request {id}")))?;
    view.fields.namespace_identifier = view.nid.clone();
    view.fields.version = Some(view.version.to_string());
    view.fields.date = (!view.date.is_empty()).then(|| view.date.clone());
    let mut stmt = conn.prepare_cached(
        "SELECT decision, note, actor, at FROM reviews WHERE registration_id = ?1 ORDER BY id",
    )?;
    view.reviews = stmt
        .query_map([id], |r| {
            Ok(ReviewNote {
                decision: r.get(0)?,
                note: r.get(1)?,
                actor: r.get(2)?,
                at: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    // A withdrawal is the registrant's, kept in the audit log: shown last,
    // with its note (an informal request has no NID whose history shows it).
    if view.status == RequestStatus::Withdrawn.as_str() {
        let mut stmt = conn.prepare_cached(
            "SELECT detail, actor, at FROM audit_log WHERE registration_id = ?1 AND action = 'withdraw' ORDER BY id",
        )?;
        let withdrawals = stmt.query_map([id], |r| {
            Ok(ReviewNote {
                decision: "withdraw".to_string(),
                note: r.get(0)?,
                actor: r.get(1)?,
                at: r.get(2)?,
            })
        })?;
        for withdrawal in withdrawals {
            view.reviews.push(withdrawal?);
        }
    }
    Ok(view)
}
