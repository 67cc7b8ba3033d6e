//! Opening the database: for writing (creating it on first use), for
//! reading only, or in memory from the embedded registry; and refusing
//! files that are not urnreg databases, untouched.
//!
//! First use is safe with many processes at once: a new database is built
//! in a temporary file beside the target and linked into place atomically
//! (`link(2)` fails if the target exists), so no process ever sees a
//! half-made database; the ones that lose the race open the winner's.
//! What a creation killed half-way (`kill -9`) left is removed by the
//! next creation (`remove_stale_temporaries`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::super::error::{Error, Result};
use super::Store;
use super::header::{check_header, read_header};
use super::migrate::{MIGRATIONS, migrate};

/// How long a process waits for another one's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// Removes a temporary database (and its rollback journal) when dropped.
struct TempDatabase(PathBuf);

impl Drop for TempDatabase {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        let mut journal = self.0.clone().into_os_string();
        journal.push("-journal");
        let _ = std::fs::remove_file(journal);
    }
}

/// A name for a temporary file beside `path`, unique among processes and
/// threads.
fn temporary_beside(path: &Path) -> Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| Error::Data(format!("{} names no file", path.display())))?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let unique = format!(
        ".{}.{}-{nanos}-{}.new",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    Ok(path.with_file_name(unique))
}

/// How long a temporary database of a process that is gone must have
/// been left alone before it is removed: a PID namespace other than ours
/// (a container sharing the directory) may hold a live process we cannot
/// see, and no creation takes this long.
const STALE_AFTER: Duration = Duration::from_secs(600);

/// The process id in the name of a temporary database (or its journal)
/// that [`temporary_beside`] made for `name`:
/// `.NAME.PID-NANOS-COUNTER.new` or `.NAME.PID-NANOS-COUNTER.new-journal`.
fn temporary_pid(file: &str, name: &str) -> Option<u32> {
    let rest = file.strip_prefix('.')?.strip_prefix(name)?.strip_prefix('.')?;
    let rest = rest
        .strip_suffix(".new-journal")
        .or_else(|| rest.strip_suffix(".new"))?;
    let mut parts = rest.split('-');
    let pid = parts.next()?;
    let numbers = [pid, parts.next()?, parts.next()?];
    if parts.next().is_some()
        || numbers
            .iter()
            .any(|n| n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    pid.parse().ok()
}

/// Whether a temporary file or directory named for process `pid` was left
/// by a process that is gone: `/proc` says it is (Linux) and it has been
/// untouched for [`STALE_AFTER`] (a process of another PID namespace
/// sharing the directory is still writing a fresh one).
pub(crate) fn left_by_dead_process(pid: u32, entry: &std::fs::DirEntry) -> bool {
    let untouched = entry
        .metadata()
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age >= STALE_AFTER));
    untouched && !may_be_alive(pid)
}

/// Whether process `pid` may be alive: only where `/proc` says it is not
/// (Linux) is it known to be gone.
fn may_be_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Removes the temporary databases (and journals) a process killed while
/// creating the database at `path` left beside it (`kill -9`, a power cut:
/// its guard never ran): only files named as [`temporary_beside`] names
/// them for this database, of a process that is gone, untouched for
/// [`STALE_AFTER`]. Best effort: what cannot be read or removed stays.
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let name = name.to_string_lossy();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = temporary_pid(&file.to_string_lossy(), &name) else {
            continue;
        };
        if entry.file_type().is_ok_and(|t| t.is_file()) && left_by_dead_process(pid, &entry) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Creates the database at `path` from the embedded registry unless
/// another process does first; returns true if and only if this one did.
fn create_new(path: &Path, actor: &str, target: usize) -> Result<bool> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    remove_stale_temporaries(path);
    let tmp = temporary_beside(path)?;
    let guard = TempDatabase(tmp);
    {
        let mut conn = Connection::open_with_flags(
            &guard.0,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        migrate(&mut conn, actor, target)?;
        conn.close().map_err(|(_, e)| e)?;
    }
    match std::fs::hard_link(&guard.0, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links: rename, unless the database
        // appeared meanwhile (a narrower race than opening in place).
        Err(_) if path.exists() => Ok(false),
        Err(_) => {
            std::fs::rename(&guard.0, path)?;
            Ok(true)
        }
    }
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// Databases of older urnreg versions are in WAL mode, which a reader can
/// open only where it may create the `-shm` file: a writer switches them to
/// the rollback journal, which any reader can read. Best effort: while
/// other processes hold the database the mode stays, to switch next time.
fn prefer_rollback_journal(conn: &Connection) {
    let mode: rusqlite::Result<String> = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0));
    if mode.is_ok_and(|m| m.eq_ignore_ascii_case("wal")) {
        let _ = conn.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get::<_, String>(0));
    }
}

/// Whether the file at `path` is an SQLite database in WAL mode (header
/// bytes 18 and 19 are 2, https://sqlite.org/fileformat2.html).
fn is_wal_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .is_ok_and(|()| header[18] == 2 && header[19] == 2)
}

/// Whether opening read-only failed on a hot journal: a writer stopped in
/// the middle of a transaction (killed, Ctrl-C, a power cut) and left the
/// rollback journal that gives the database back as it was before that
/// write. SQLite plays it back on the next read, but only a connection that
/// may write can (`SQLITE_READONLY_ROLLBACK`).
fn is_hot_journal(e: &Error) -> bool {
    matches!(
        e,
        Error::Sqlite(rusqlite::Error::SqliteFailure(f, _))
            if f.extended_code == rusqlite::ffi::SQLITE_READONLY_ROLLBACK
    )
}

/// The error for a hot journal this process may not roll back (the file
/// or its directory may not be written): what happened and what to do,
/// instead of SQLite's bare `SQLITE_READONLY_ROLLBACK` (776).
fn journal_not_writable(path: &Path, e: &Error) -> Error {
    // SQLite's own words, unless they are only its code.
    let why = if is_hot_journal(e) {
        String::new()
    } else {
        format!(" ({e})")
    };
    Error::ReadOnly(format!(
        "{} holds the journal of a write that stopped half-way (a process killed mid-write), \
         which must be rolled back before the database can be read, and this process may not \
         write there{why}; run any urnreg command on it once where it can be written",
        path.display()
    ))
}

/// Plays back the hot journal of the database at `path`, as any SQLite
/// reader that may write does: the database is as its last commit left it
/// and the stopped write is undone, as if it had never begun; then
/// refuses a file that is not urnreg's. Where the file or its directory
/// may not be written, says what to do.
fn roll_back_hot_journal(path: &Path) -> Result<()> {
    let cannot = |e: Error| journal_not_writable(path, &e);
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| cannot(e.into()))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // The first read takes the shared lock and plays the journal back.
    match read_header(&conn) {
        Err(Error::Sqlite(e)) if e.sqlite_error_code() == Some(ErrorCode::ReadOnly) => Err(cannot(e.into())),
        header => check_header(&header?, MIGRATIONS.len() as i64).map(drop),
    }
}

impl Store {
    /// Opens the database at `path` for writing, migrating it to the
    /// newest schema; creates it from the embedded registry if it does not
    /// exist (safely, with any number of processes at once).
    ///
    /// # Errors
    ///
    /// [`Error::NotUrnreg`] for another application's SQLite file or an
    /// unknown `user_version`, [`Error::SchemaTooNew`] for a database from
    /// a newer urnreg (both untouched), [`Error::Migration`] if a
    /// migration fails (nothing is applied), or the SQLite or I/O error.
    pub fn open(path: &Path, actor: &str) -> Result<Store> {
        Self::open_at_version(path, actor, MIGRATIONS.len())
    }

    /// Opens (creating if needed) `path` and migrates it only up to schema
    /// version `target` (to test migrations from older versions).
    ///
    /// # Errors
    ///
    /// As [`Store::open`].
    #[doc(hidden)]
    pub fn open_at_version(path: &Path, actor: &str, target: usize) -> Result<Store> {
        let created = !path.exists() && create_new(path, actor, target)?;
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        configure(&conn)?;
        // Refuse a foreign file before anything, even the journal mode, is
        // written. SQLite opens a file the system will not let it write
        // read-only, and the first read of such a file with a hot journal
        // fails (`SQLITE_READONLY_ROLLBACK`, https://sqlite.org/rescode.html#readonly_rollback):
        // the same clear error as a read-only open gives.
        let header = read_header(&conn).map_err(|e| {
            if is_hot_journal(&e) {
                journal_not_writable(path, &e)
            } else {
                e
            }
        })?;
        check_header(&header, MIGRATIONS.len() as i64)?;
        // SQLite opens a file the system will not let it write read-only.
        let read_only = conn.is_readonly(rusqlite::MAIN_DB)?;
        if !read_only {
            prefer_rollback_journal(&conn);
        }
        migrate(&mut conn, actor, target)?;
        Ok(Store {
            conn,
            read_only,
            created,
        })
    }

    /// Opens the database at `path` for reading only
    /// (`SQLITE_OPEN_READ_ONLY`): it works on a read-only file or in a
    /// read-only directory, and never changes the file, but for one thing
    /// any SQLite reader does: the journal of a write that stopped
    /// half-way (a killed process) is rolled back first, where the file
    /// may be written.
    ///
    /// # Errors
    ///
    /// [`Error::SchemaOutdated`] when the database needs a migration
    /// (open it for writing once), the errors of [`Store::open`] for files
    /// that are not urnreg's, [`Error::ReadOnly`] for a WAL-mode database
    /// in a directory where its `-shm` file cannot be made, or the SQLite
    /// error; [`Error::ReadOnly`] also for such a journal where the file
    /// may not be written.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        match Self::open_read_only_once(path) {
            Err(e) if is_hot_journal(&e) => {
                roll_back_hot_journal(path)?;
                Self::open_read_only_once(path)
            }
            opened => opened,
        }
    }

    fn open_read_only_once(path: &Path) -> Result<Store> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let header = read_header(&conn).map_err(|e| match e {
            Error::Sqlite(ref s)
                if s.sqlite_error_code() == Some(ErrorCode::CannotOpen) && is_wal_file(path) =>
            {
                Error::ReadOnly(format!(
                    "{} is in WAL mode and its directory is read-only, so SQLite cannot read it; \
                     run a writing command (e.g. `urnreg init`) on it once where it can be written",
                    path.display()
                ))
            }
            e => e,
        })?;
        let found = check_header(&header, MIGRATIONS.len() as i64)?;
        let known = MIGRATIONS.len() as i64;
        if found < known {
            return Err(Error::SchemaOutdated { found, known });
        }
        Ok(Store {
            conn,
            read_only: true,
            created: false,
        })
    }

    /// An in-memory registry filled from the embedded data, for read-only
    /// commands when no database exists yet.
    ///
    /// # Errors
    ///
    /// As [`Store::open`].
    pub fn open_embedded() -> Result<Store> {
        let mut conn = Connection::open_in_memory()?;
        configure(&conn)?;
        migrate(&mut conn, "urnreg", MIGRATIONS.len())?;
        Ok(Store {
            conn,
            read_only: false,
            created: true,
        })
    }
}
