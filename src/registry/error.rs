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

/// The most characters of one problem a refusal shows (its field and its
/// message each): a problem quotes the value it refuses, which in a
/// hostile file or snapshot can be megabytes (found in hostile testing: a
/// snapshot date of 100,000 digits was quoted whole). The middle goes,
/// and the cut names this limit.
pub const MAX_PROBLEM_CHARS: usize = 1_000;

/// The most problems a refusal lists; the rest are counted (found in
/// hostile testing: a snapshot of 60,000 bad records was refused in 16 MB of
/// text).
pub const MAX_PROBLEMS_SHOWN: usize = 100;

impl Problem {
    /// This problem as a refusal shows it: field and message each cut to
    /// [`MAX_PROBLEM_CHARS`].
    #[must_use]
    pub fn shown(&self) -> Problem {
        let cut = |text: &str| crate::shorten::cut_middle(text, MAX_PROBLEM_CHARS, "MAX_PROBLEM_CHARS");
        Problem {
            field: cut(&self.field),
            message: cut(&self.message),
        }
    }

    /// The problems a refusal lists: at most [`MAX_PROBLEMS_SHOWN`], each
    /// [`Problem::shown`], and one more counting those left out.
    #[must_use]
    pub fn listed(problems: &[Problem]) -> Vec<Problem> {
        let mut listed: Vec<Problem> = problems
            .iter()
            .take(MAX_PROBLEMS_SHOWN)
            .map(Problem::shown)
            .collect();
        if problems.len() > MAX_PROBLEMS_SHOWN {
            listed.push(Problem {
                field: "...".into(),
                message: format!(
                    "{} more problems not listed (MAX_PROBLEMS_SHOWN = {MAX_PROBLEMS_SHOWN})",
                    problems.len() - MAX_PROBLEMS_SHOWN
                ),
            });
        }
        listed
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.shown();
        write!(f, "{}: {}", shown.field, shown.message)
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
                for p in Problem::listed(problems) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal of many problems, each quoting a huge value, is shown in
    /// bounded text naming its limits (found in hostile testing).
    #[test]
    fn a_refusal_shows_a_bounded_number_of_bounded_problems() {
        let problems: Vec<Problem> = (0..10_000)
            .map(|i| Problem {
                field: format!("n{i}-{}", "x".repeat(50_000)),
                message: format!("date '{}' is not a date YYYY-MM-DD", "9".repeat(100_000)),
            })
            .collect();
        let text = Error::Invalid(problems).to_string();
        assert!(
            text.len() < (MAX_PROBLEMS_SHOWN + 1) * (2 * MAX_PROBLEM_CHARS + 200),
            "{} bytes",
            text.len()
        );
        assert_eq!(text.lines().count(), 1 + MAX_PROBLEMS_SHOWN + 1, "{text:.2000}");
        assert!(text.contains("MAX_PROBLEM_CHARS = 1000"), "{text:.2000}");
        assert!(
            text.ends_with("9900 more problems not listed (MAX_PROBLEMS_SHOWN = 100)"),
            "{}",
            &text[text.len() - 200..]
        );
        // Short problems are shown whole.
        let one = Problem {
            field: "date".into(),
            message: "'x' is not a date".into(),
        };
        assert_eq!(
            Error::Invalid(vec![one]).to_string(),
            "registration refused:\n  - date: 'x' is not a date"
        );
    }
}
