//! Opening databases (issue 11): first use by many processes at once,
//! read-only files and directories, files that are not urnreg's, schema
//! versions no urnreg writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use urnreg::registry::{Error, MIGRATIONS, Store};

use super::{informal, urnreg_db};
use crate::util::{code, stderr, stdout};

fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// 16 processes find the database missing and use it at once: 8 create
/// it with `init`, 8 file a request. Every one succeeds, the registry is
/// seeded once, and no temporary file is left behind. (Before, some failed
/// with "database is locked".)
#[test]
fn sixteen_processes_using_a_missing_database_at_once() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("data").join("r.db");
        // The directory exists: only `init` creates a missing one.
        std::fs::create_dir(db.parent().unwrap()).unwrap();
        let files: Vec<PathBuf> = (0..8)
            .map(|n| {
                let path = dir.path().join(format!("informal-{n}.toml"));
                std::fs::write(&path, toml::to_string(&informal(100 * round + n)).unwrap()).unwrap();
                path
            })
            .collect();
        let mut children = Vec::new();
        for n in 0..16 {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_urnreg"));
            if n % 2 == 0 {
                cmd.arg("init");
            } else {
                cmd.arg("request").arg(&files[n / 2]);
            }
            cmd.arg("--db").arg(&db).env_remove("URNREG_DB");
            children.push(cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap());
        }
        let mut created = 0;
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert_eq!(code(&out), 0, "round {round}: {}", stderr(&out));
            created += usize::from(stdout(&out).starts_with("created"));
        }
        assert!(
            created <= 1,
            "round {round}: {created} processes say they created it"
        );
        assert_eq!(integrity(&db), "ok");
        let store = Store::open_read_only(&db).unwrap();
        let count = |sql: &str| -> i64 { store.connection().query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(count("SELECT count(*) FROM namespaces"), 105);
        assert_eq!(
            count("SELECT count(*) FROM audit_log WHERE action = 'init'"),
            1,
            "seeded once"
        );
        assert_eq!(
            count("SELECT count(*) FROM registrations WHERE status = 'submitted'"),
            8
        );
        let left: Vec<_> = std::fs::read_dir(db.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["r.db"], "round {round}: files left beside the database");
    }
}

/// Makes a file, or a directory and the files in it, read-only for this
/// process; undone on drop. As root, permission bits do not stop writes:
/// then the immutable attribute (`chattr +i`) does, where the file system
/// has it. `None` (said loudly) when neither works here.
struct ReadOnly {
    paths: Vec<PathBuf>,
    immutable: bool,
}

impl ReadOnly {
    fn make(paths: &[&Path], test: &str) -> Option<ReadOnly> {
        use std::os::unix::fs::PermissionsExt;
        let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
        for p in &paths {
            let mode = if p.is_dir() { 0o555 } else { 0o444 };
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let mut guard = ReadOnly {
            paths,
            immutable: false,
        };
        if guard.enforced() {
            return Some(guard);
        }
        let chattr = |flag: &str, p: &Path| {
            Command::new("chattr")
                .arg(flag)
                .arg(p)
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if guard.paths.iter().all(|p| chattr("+i", p)) {
            guard.immutable = true;
            if guard.enforced() {
                return Some(guard);
            }
        }
        let message = format!(
            "\n*** SKIPPED {test}: this process can write to read-only files (root without chattr +i).\n"
        );
        assert!(
            std::env::var("URNREG_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "{message}URNREG_REQUIRE_TOOLS=1: the test may not be skipped"
        );
        use std::io::Write;
        let _ = std::io::stderr().write_all(message.as_bytes());
        None
    }

    /// Whether writing is refused: to the files, and in the directories.
    fn enforced(&self) -> bool {
        self.paths.iter().all(|p| {
            if p.is_dir() {
                std::fs::write(p.join(".probe"), b"x").is_err()
            } else {
                std::fs::OpenOptions::new().append(true).open(p).is_err()
            }
        })
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        for p in &self.paths {
            if self.immutable {
                let _ = Command::new("chattr").arg("-i").arg(p).status();
            }
            let mode = if p.is_dir() { 0o755 } else { 0o644 };
            let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
        }
    }
}

/// Read-only commands open the database read-only: they work on a
/// read-only file and in a read-only directory, and never change the file.
/// (Before, even `ns list` and `check` failed: "attempt to write a readonly
/// database".)
#[test]
fn read_only_databases_and_directories_can_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("ro");
    std::fs::create_dir(&sub).unwrap();
    let db = sub.join("r.db");
    let formal = super::data("formal.toml");
    assert_eq!(code(&urnreg_db(&db, &["request", formal.to_str().unwrap()])), 0);
    let bytes = std::fs::read(&db).unwrap();
    for (what, paths) in [
        ("file", vec![db.as_path()]),
        ("directory", vec![db.as_path(), sub.as_path()]),
    ] {
        let Some(_guard) = ReadOnly::make(&paths, "read_only_databases_and_directories_can_be_read") else {
            return;
        };
        for args in [
            &["ns", "list"][..],
            &["ns", "show", "acme-parts"],
            &["ns", "history", "acme-parts"],
            &["check", "urn:isbn:0451450523"],
            &["eq", "urn:isbn:0451450523", "URN:ISBN:0451450523"],
            &["normalize", "urn:isbn:0451450523"],
            &["queue"],
            &["lint", formal.to_str().unwrap()],
            &[
                "export",
                "--format",
                "json",
                "--out",
                dir.path().join(format!("snap-{what}")).to_str().unwrap(),
            ],
            // A dry run only reads (docs/operating.md).
            &[
                "import",
                "--dry-run",
                dir.path().join(format!("snap-{what}")).to_str().unwrap(),
            ],
        ] {
            let out = urnreg_db(&db, args);
            assert_eq!(code(&out), 0, "read-only {what}: {args:?}: {}", stderr(&out));
        }
        // A write fails cleanly, naming the cause.
        let out = urnreg_db(&db, &["withdraw", "acme-parts"]);
        assert_eq!(code(&out), 2, "read-only {what}");
        assert!(
            stderr(&out).contains("readonly") || stderr(&out).contains("read-only"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read(&db).unwrap(),
            bytes,
            "read-only {what}: the file changed"
        );
    }
    let names: Vec<_> = std::fs::read_dir(&sub)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["r.db"], "no journal or -shm file was made");
}

/// A database an older urnreg left in WAL mode is switched to the rollback
/// journal by the next writer, so that readers without write access to
/// its directory can read it; one still in WAL mode there gets a clear
/// error.
#[test]
fn wal_databases_are_switched_to_the_rollback_journal() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("wal");
    std::fs::create_dir(&sub).unwrap();
    let db = sub.join("r.db");
    drop(Store::open(&db, "t").unwrap());
    let wal_header = |db: &Path| std::fs::read(db).unwrap()[18..20] == [2, 2];
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
    assert!(wal_header(&db));
    if let Some(_guard) = ReadOnly::make(&[&db, &sub], "wal_databases_are_switched_to_the_rollback_journal") {
        let out = urnreg_db(&db, &["ns", "list"]);
        if code(&out) != 0 {
            assert!(stderr(&out).contains("WAL mode"), "{}", stderr(&out));
        }
    }
    assert_eq!(code(&urnreg_db(&db, &["init"])), 0);
    assert!(!wal_header(&db), "the writer switched it to the rollback journal");
    assert_eq!(integrity(&db), "ok");
}

/// A file that is not urnreg's is refused and left byte for byte as it was,
/// by writing and by reading commands alike.
#[test]
fn files_that_are_not_urnreg_databases_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = |name: &str, setup: &str| -> PathBuf {
        let path = dir.path().join(name);
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(setup).unwrap();
        path
    };
    let cases = [
        (
            sqlite(
                "other-app.db",
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);",
            ),
            "it has tables (notes) but no urnreg schema (user_version 0)",
        ),
        (
            sqlite(
                "other-versioned.db",
                "CREATE TABLE notes (id INTEGER); PRAGMA user_version = 3;",
            ),
            "its user_version is 3 but it lacks urnreg's tables (it has: notes)",
        ),
        (
            sqlite("other-id.db", "PRAGMA application_id = 42; CREATE TABLE t (x);"),
            "its application_id is 0x0000002a",
        ),
        (
            sqlite(
                "minus-one.db",
                "CREATE TABLE namespaces (nid TEXT); CREATE TABLE registrations (id INTEGER);
                 PRAGMA user_version = -1;",
            ),
            "its user_version is -1, which no urnreg writes",
        ),
        (
            {
                let path = dir.path().join("text.db");
                std::fs::write(
                    &path,
                    "not a database at all, just text that is long enough to have a header",
                )
                .unwrap();
                path
            },
            "it is not an SQLite database",
        ),
    ];
    for (path, why) in &cases {
        let before = std::fs::read(path).unwrap();
        for args in [&["init"][..], &["ns", "list"], &["check", "urn:isbn:0451450523"]] {
            let out = urnreg_db(path, args);
            assert_eq!(code(&out), 2, "{}: {args:?}", path.display());
            let err = stderr(&out);
            assert!(
                err.contains("not an urnreg database") && err.contains(why),
                "{}: {err}",
                path.display()
            );
        }
        let err = Store::open(path, "t").err().expect("refused");
        assert!(matches!(err, Error::NotUrnreg(_)), "{err}");
        assert_eq!(std::fs::read(path).unwrap(), before, "{} changed", path.display());
    }
}

/// Schema versions: a newer one is refused by reading commands too; an
/// older one is migrated by a reading command that can write, and a
/// read-only store says it needs upgrading.
#[test]
fn schema_versions_newer_older_and_empty() {
    let dir = tempfile::tempdir().unwrap();
    let newer = dir.path().join("newer.db");
    drop(Store::open(&newer, "t").unwrap());
    rusqlite::Connection::open(&newer)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let out = urnreg_db(&newer, &["ns", "list"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("schema version 99, newer than this urnreg knows"),
        "{}",
        stderr(&out)
    );

    let older = dir.path().join("older.db");
    drop(Store::open_at_version(&older, "t", 4).unwrap());
    let err = Store::open_read_only(&older).err().expect("needs a migration");
    assert!(matches!(err, Error::SchemaOutdated { found: 4, .. }), "{err}");
    let out = urnreg_db(&older, &["ns", "list", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        Store::open_read_only(&older).unwrap().schema_version().unwrap(),
        MIGRATIONS.len() as i64
    );

    // An empty file (e.g. `touch`ed) is an empty SQLite database: urnreg's.
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let out = urnreg_db(&empty, &["init"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("105 namespaces"));
}

/// A store opened read-only refuses writes with a clear error.
#[test]
fn a_read_only_store_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    drop(Store::open(&db, "t").unwrap());
    let mut store = Store::open_read_only(&db).unwrap();
    assert!(store.is_read_only());
    let err = store.withdraw("1", None, "t").unwrap_err();
    assert!(matches!(err, Error::ReadOnly(_)), "{err}");
}

/// The rollback journal SQLite keeps beside the database `db`.
fn journal_of(db: &Path) -> PathBuf {
    let mut journal = db.as_os_str().to_owned();
    journal.push("-journal");
    PathBuf::from(journal)
}

/// A copy of `db` as a writer killed in the middle of a transaction leaves
/// it: the file with the write half done (pages spilled from a small
/// cache) and the hot rollback journal beside it, no process holding a
/// lock. Returns the copy.
fn killed_mid_write(db: &Path, into: &Path) -> PathBuf {
    let before = std::fs::read(db).unwrap();
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "PRAGMA cache_size = 1; BEGIN IMMEDIATE;
         UPDATE registrations SET purpose = coalesce(purpose, '') || ' (half-written)';",
    )
    .unwrap();
    std::fs::create_dir_all(into).unwrap();
    let copy = into.join("r.db");
    std::fs::copy(db, &copy).unwrap();
    std::fs::copy(journal_of(db), journal_of(&copy)).unwrap();
    assert!(
        std::fs::read(&copy).unwrap() != before,
        "the file holds the half-done write"
    );
    conn.execute_batch("ROLLBACK").unwrap();
    copy
}

/// A writer killed mid-write (Ctrl-C, the OOM killer, a power cut) leaves
/// a hot journal, which only a connection that may write can roll back: a
/// read-only command rolls it back first and reads the database as its
/// last commit left it, and where it may not write says what to do, the
/// file untouched (the atomicity of every write, docs/security.md). Before,
/// every read-only command failed ("Error code 776: Database has hot
/// journal that must be rolled back") until a writing command ran.
#[test]
fn a_writer_killed_mid_write_leaves_a_journal_that_readers_roll_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let formal = super::data("formal.toml");
    assert_eq!(code(&urnreg_db(&db, &["request", formal.to_str().unwrap()])), 0);
    let committed = super::dump(&Store::open_read_only(&db).unwrap());
    let listed = stdout(&urnreg_db(&db, &["ns", "show", "acme-parts"]));

    let copy = killed_mid_write(&db, &dir.path().join("killed"));
    for args in [
        &["ns", "show", "acme-parts"][..],
        &["check", "urn:isbn:0451450523"],
    ] {
        let copy = killed_mid_write(&db, &dir.path().join(format!("killed-{}", args[0])));
        let out = urnreg_db(&copy, args);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
    let out = urnreg_db(&copy, &["ns", "show", "acme-parts"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), listed);
    assert!(!stdout(&out).contains("half-written"));
    assert_eq!(super::dump(&Store::open_read_only(&copy).unwrap()), committed);
    assert_eq!(integrity(&copy), "ok");
    let names: Vec<_> = std::fs::read_dir(copy.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["r.db"], "the journal was played back and removed");

    // Where it may not write, a clear error, and nothing changes.
    let sub = dir.path().join("killed-ro");
    let copy = killed_mid_write(&db, &sub);
    let journal = journal_of(&copy);
    let bytes = (std::fs::read(&copy).unwrap(), std::fs::read(&journal).unwrap());
    if let Some(_guard) = ReadOnly::make(
        &[&copy, &journal, &sub],
        "a_writer_killed_mid_write_leaves_a_journal_that_readers_roll_back",
    ) {
        let out = urnreg_db(&copy, &["ns", "list"]);
        assert_eq!(code(&out), 2);
        assert!(
            stderr(&out).contains("stopped half-way") && stderr(&out).contains("where it can be written"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            (std::fs::read(&copy).unwrap(), std::fs::read(&journal).unwrap()),
            bytes
        );
    }
}

/// A writing command on a read-only database a writer killed mid-write
/// left with its hot journal gives the clear error a read-only command
/// gives (what happened, what to do), never SQLite's bare code; the file
/// and the journal untouched. Before, `Store::open` (every writing
/// command, `urnreg serve` too) failed with "Error code 776: Database has
/// hot journal that must be rolled back" (SQLITE_READONLY_ROLLBACK).
#[test]
fn a_writing_command_on_a_read_only_database_with_a_hot_journal_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let formal = super::data("formal.toml");
    assert_eq!(code(&urnreg_db(&db, &["request", formal.to_str().unwrap()])), 0);
    let sub = dir.path().join("killed-ro");
    let copy = killed_mid_write(&db, &sub);
    let journal = journal_of(&copy);
    let bytes = (std::fs::read(&copy).unwrap(), std::fs::read(&journal).unwrap());
    let Some(_guard) = ReadOnly::make(
        &[&copy, &journal],
        "a_writing_command_on_a_read_only_database_with_a_hot_journal_says_what_to_do",
    ) else {
        return;
    };
    let err = Store::open(&copy, "t")
        .err()
        .expect("a read-only file cannot be opened to write");
    let message = err.to_string();
    assert!(matches!(err, Error::ReadOnly(_)), "{message}");
    assert!(
        message.contains("stopped half-way") && message.contains("where it can be written"),
        "{message}"
    );
    assert!(!message.contains("776") && !message.contains("  "), "{message}");
    let informal = super::data("informal.toml");
    let out = urnreg_db(&copy, &["request", informal.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("stopped half-way"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("776"), "{}", stderr(&out));
    assert_eq!(
        (std::fs::read(&copy).unwrap(), std::fs::read(&journal).unwrap()),
        bytes
    );
}

/// A process killed (`kill -9`) while it created a missing database
/// leaves its temporary database `.NAME.PID-....new` and its
/// `.new-journal` beside it, its guard never run: the next creation
/// removes those of a process that is gone, and nothing else (a live
/// process's, a fresh one's, another database's, a name not ours).
/// Before, they stayed for good.
#[test]
fn the_next_creation_removes_what_a_killed_creation_left() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let alive = std::process::id();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let make = |name: &str, old: bool| {
        let p = dir.path().join(name);
        std::fs::write(&p, b"SQLite format 3\0 half made").unwrap();
        if old {
            std::fs::File::options()
                .write(true)
                .open(&p)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
    };
    let gone = [
        format!(".r.db.{dead}-123456-0.new"),
        format!(".r.db.{dead}-123456-0.new-journal"),
    ];
    let kept = [
        format!(".r.db.{alive}-1-0.new"),
        format!(".r.db.{dead}-2-0.new"),
        format!(".other.db.{dead}-3-0.new"),
        ".r.db.notes.new".to_string(),
        format!(".r.db.{dead}-4-0.new.bak"),
    ];
    for name in &gone {
        make(name, true);
    }
    for (i, name) in kept.iter().enumerate() {
        make(name, i != 1);
    }
    let store = Store::open(&db, "t").unwrap();
    assert!(store.was_created());
    drop(store);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = kept.to_vec();
    expected.push("r.db".into());
    expected.sort();
    assert_eq!(names, expected);
}
