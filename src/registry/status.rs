//! The closed sets of values the registry stores: kinds, namespace
//! statuses, request statuses and review decisions. Each has one spelling,
//! used in SQL (rusqlite `ToSql`/`FromSql`, matching the `CHECK`
//! constraints of `migrations/`), in JSON and in text; nothing compares
//! these as free strings.

use std::fmt;
use std::str::FromStr;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

use super::Kind;

/// A value that is not one of the known spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// What was expected (`request status`, ...).
    pub what: &'static str,
    /// The value found.
    pub found: String,
    /// The known spellings.
    pub known: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (known: {})",
            self.what,
            self.found,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Implements `as_str`, `Display` and `FromStr` for a fieldless enum from
/// one table of spellings.
macro_rules! spelled {
    ($ty:ident, $what:literal, [$($variant:ident => $text:literal),+ $(,)?]) => {
        impl $ty {
            /// Every spelling, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The spelling used in SQL, JSON and text.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text,)+
                }
            }
        }

        parsed!($ty, $what, [$($variant => $text),+]);
    };
}

/// Implements `Display` and `FromStr` for an enum with `NAMES` and
/// `as_str` (the validator's [`Kind`] and status have those of their own).
macro_rules! parsed {
    ($ty:ident, $what:literal, [$($variant:ident => $text:literal),+ $(,)?]) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownValue;

            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok($ty::$variant),)+
                    _ => Err(UnknownValue {
                        what: $what,
                        found: s.to_string(),
                        known: Self::NAMES,
                    }),
                }
            }
        }
    };
}

/// Implements `ToSql` and `FromSql` for an enum that [`spelled!`] spells.
macro_rules! stored {
    ($ty:ident) => {
        impl ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $ty {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e: UnknownValue| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

parsed!(Kind, "kind", [Formal => "formal", Informal => "informal"]);
stored!(Kind);

/// Where a namespace stands in the registry (`namespaces.status`): the
/// validator's status, stored.
pub use crate::validate::Status as NamespaceStatus;

parsed!(NamespaceStatus, "namespace status", [
    Registered => "registered",
    Withdrawn => "withdrawn",
]);
stored!(NamespaceStatus);

/// How `ns list` and `ns show` describe a NID: the status of its namespace
/// or, for a NID that is not registered but was requested, whether a
/// request for it is pending. Never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Registered.
    Registered,
    /// Withdrawn.
    Withdrawn,
    /// Not registered; a request for it waits for review.
    Requested,
    /// Not registered; every request for it was rejected or withdrawn.
    NotRegistered,
}

spelled!(Standing, "status", [
    Registered => "registered",
    Withdrawn => "withdrawn",
    Requested => "requested",
    NotRegistered => "not-registered",
]);

impl From<NamespaceStatus> for Standing {
    fn from(s: NamespaceStatus) -> Self {
        match s {
            NamespaceStatus::Registered => Standing::Registered,
            NamespaceStatus::Withdrawn => Standing::Withdrawn,
        }
    }
}

/// Where a filed version stands in review (`registrations.status`,
/// RFC 8141 section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestStatus {
    /// Filed (or amended) and waiting for the expert.
    Submitted,
    /// The expert asked the registrant for changes; it waits for an
    /// amendment (or a decision).
    ChangesRequested,
    /// Approved: the version is (or was) in force.
    Approved,
    /// Rejected by the expert.
    Rejected,
    /// Withdrawn by the registrant before a decision.
    Withdrawn,
}

spelled!(RequestStatus, "request status", [
    Submitted => "submitted",
    ChangesRequested => "changes-requested",
    Approved => "approved",
    Rejected => "rejected",
    Withdrawn => "withdrawn",
]);
stored!(RequestStatus);

impl RequestStatus {
    /// Returns true if and only if the request still waits for the expert
    /// (submitted or changes requested): it may be amended, withdrawn or
    /// decided.
    pub fn is_pending(self) -> bool {
        matches!(self, RequestStatus::Submitted | RequestStatus::ChangesRequested)
    }
}

/// An expert's decision (RFC 8141 section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Register the NID (or put the new version in force).
    Approve,
    /// Refuse the request.
    Reject,
    /// Send it back to the registrant.
    AskChanges,
}

spelled!(Decision, "review decision", [
    Approve => "approve",
    Reject => "reject",
    AskChanges => "ask-changes",
]);
stored!(Decision);

impl Decision {
    /// The status a pending request takes on this decision.
    pub fn new_status(self) -> RequestStatus {
        match self {
            Decision::Approve => RequestStatus::Approved,
            Decision::Reject => RequestStatus::Rejected,
            Decision::AskChanges => RequestStatus::ChangesRequested,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spellings are those the `CHECK` constraints of the migrations
    /// allow: a value written by one is read back by the other.
    #[test]
    fn spellings_round_trip_through_sqlite() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for name in RequestStatus::NAMES {
            let status: RequestStatus = name.parse().unwrap();
            let back: RequestStatus = conn.query_row("SELECT ?1", [status], |r| r.get(0)).unwrap();
            assert_eq!(back, status);
            assert_eq!(serde_json::to_value(status).unwrap(), *name);
        }
        for name in Decision::NAMES {
            let d: Decision = name.parse().unwrap();
            assert_eq!(serde_json::to_value(d).unwrap(), *name);
        }
        let err = conn
            .query_row("SELECT 'accepted'", [], |r| r.get::<_, RequestStatus>(0))
            .unwrap_err();
        assert!(
            err.to_string().contains("unknown request status 'accepted'"),
            "{err}"
        );
        assert_eq!(
            "Formal".parse::<Kind>().unwrap_err().to_string(),
            "unknown kind 'Formal' (known: formal, informal)"
        );
    }

    #[test]
    fn only_submitted_and_changes_requested_are_pending() {
        let pending: Vec<_> = RequestStatus::NAMES
            .iter()
            .filter(|n| n.parse::<RequestStatus>().unwrap().is_pending())
            .collect();
        assert_eq!(pending, [&"submitted", &"changes-requested"]);
    }
}
