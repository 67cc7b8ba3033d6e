//! Errors of the registry. `Display` texts are for people and may change.

use std::fmt;

/// One thing wrong with a registration, naming the template field.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// The field (`nid`, `version`, `date`, `registrant`, ...).
    pub field: String,
    /// What is wrong, citing the RFC section.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// What went wrong in the registry.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The registration was refused; each problem names its field.
    Invalid(Vec<Problem>),
    /// No such NID or request.
    NotFound(String),
    /// The operation does not fit the current state (e.g. reviewing an
    /// approved request).
    State(String),
    /// The file is not an urnreg database (another application's SQLite
    /// file, a `user_version` no urnreg writes, not SQLite at all): it is
    /// left untouched.
    NotUrnreg(String),
    /// The database was written by a newer urnreg.
    SchemaTooNew {
        /// The database's `user_version`.
        found: i64,
        /// The newest this binary knows.
        known: i64,
    },
    /// The database has an older schema and was opened read-only, so it
    /// cannot be migrated.
    SchemaOutdated {
        /// The database's `user_version`.
        found: i64,
        /// The schema this urnreg uses.
        known: i64,
    },
    /// A write to a store opened read-only, or a database that cannot be
    /// read where it is.
    ReadOnly(String),
    /// A migration failed; nothing of it was applied.
    Migration {
        /// The migration file.
        name: String,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The shipped or given data could not be read.
    Data(String),
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// Reading or writing a file failed.
    Io(std::io::Error),
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(problems) => {
                write!(f, "registration refused:")?;
                for p in problems {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
            Error::NotFound(what) => write!(f, "{what}"),
            Error::State(what) => write!(f, "{what}"),
            Error::NotUrnreg(why) => write!(f, "not an urnreg database: {why}; it was left untouched"),
            Error::SchemaOutdated { found, known } => write!(
                f,
                "the database has schema version {found}, older than this urnreg's ({known}), and was opened \
                 read-only: open it once for writing (e.g. `urnreg init`) to upgrade it"
            ),
            Error::ReadOnly(what) => write!(f, "{what}"),
            Error::SchemaTooNew { found, known } => write!(
                f,
                "the database has schema version {found}, newer than this urnreg knows ({known}): upgrade urnreg"
            ),
            Error::Migration { name, .. } => write!(f, "migration {name} failed; the database is unchanged"),
            Error::Data(what) => write!(f, "{what}"),
            Error::Sqlite(_) => write!(f, "database error"),
            Error::Io(_) => write!(f, "I/O error"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Migration { source, .. } | Error::Sqlite(source) => Some(source),
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Sqlite(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}
