//! `urnreg update`: a database made before keeps no stale shipped records
//! without saying so, and an update brings them up to the binary's while
//! keeping everything done here.

use std::path::Path;
use std::process::{Command, Stdio};

use urnreg::registry::{Decision, Store};

use super::{dump, fresh, registration, request, revise, urnreg_db};
use crate::util::{code, stderr, stdout};

/// What `ns show NID --format json` prints.
fn shown(db: &Path, nid: &str) -> String {
    let out = urnreg_db(db, &["ns", "show", nid, "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out)
}

/// Makes `db`'s shipped part look as an older urnreg left it: the
/// fingerprint of another embedded registry, and the ISBN rules of that
/// release (the rules in force and those of the version in force).
fn age(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "UPDATE namespaces SET rules = 'source = \"RFC 3187\"' WHERE nid = 'isbn';
         UPDATE rules SET body = 'source = \"RFC 3187\"'
         WHERE registration_id = (SELECT max(id) FROM registrations WHERE nid = 'isbn');
         UPDATE shipped_registry SET fingerprint = 'fnv1a64:0000000000000000', urnreg = '0.0.1';",
    )
    .unwrap();
}

const NOTE: &str = "urnreg update";

/// A database made by this urnreg, then aged: ISBN's rules as an older
/// release shipped them, a revision of ISSN filed and approved here (its
/// IANA record then changed, as if an older release shipped another), and
/// a namespace registered here. The note shows before the update and not
/// after; the update brings ISBN back, keeps the other two exactly, and a
/// second run has nothing to do.
#[test]
fn update_brings_shipped_records_up_and_keeps_local_work() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    assert_eq!(code(&urnreg_db(&db, &["init"])), 0);
    let isbn_shipped = shown(&db, "isbn");
    {
        let mut store = Store::open(&db, "t").unwrap();
        let text = urnreg_db(&db, &["ns", "show", "issn", "--format", "toml"]);
        let mut file = urnreg::registry::RegistrationFile::from_toml(&stdout(&text)).unwrap();
        file.version = Some(file.version.unwrap_or(1) + 1);
        file.date = Some(urnreg::registry::registration::DateValue::Text(
            "2026-11-30".into(),
        ));
        file.revision_information = Some("Clarified the examples.".into());
        file.assignment
            .get_or_insert_with(|| "ISSNs are assigned by the ISSN International Centre.".into());
        revise(&mut store, "issn", &file, "registrant").unwrap();
        store.review("issn", Decision::Approve, "ok", "expert").unwrap();
        request(&mut store, &registration("formal.toml"), "registrant").unwrap();
        store
            .review("acme-parts", Decision::Approve, "ok", "expert")
            .unwrap();
        store
            .connection()
            .execute(
                "UPDATE namespaces SET iana = json_set(iana, '$.updated', '1999-01-01') WHERE nid = 'issn'",
                [],
            )
            .unwrap();
    }
    age(&db);
    let (issn, acme) = (shown(&db, "issn"), shown(&db, "acme-parts"));
    assert_ne!(shown(&db, "isbn"), isbn_shipped, "the aged rules show");

    // The note: once, on stderr, naming the command; stdout stays clean.
    for args in [
        &["check", "urn:isbn:9780451450524"][..],
        &["ns", "show", "isbn"],
        &["ns", "list"],
    ] {
        let out = urnreg_db(&db, args);
        let err = stderr(&out);
        assert_eq!(err.matches(NOTE).count(), 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(!stdout(&out).contains(NOTE), "{args:?}");
    }
    let piped = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(["check", "-", "--db"])
        .arg(&db)
        .env_remove("URNREG_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = piped.stdin.as_ref().unwrap();
        input
            .write_all(b"urn:isbn:9780451450524\nurn:issn:0167-6423\nurn:acme-parts:12\n")
            .unwrap();
    }
    let out = piped.wait_with_output().unwrap();
    assert_eq!(
        stderr(&out).lines().count(),
        1,
        "one note for a stream: {}",
        stderr(&out)
    );

    // The plan, and a dry run changes nothing.
    let before = dump(&Store::open_read_only(&db).unwrap());
    let out = urnreg_db(&db, &["update", "--dry-run"]);
    assert_eq!(code(&out), 1, "a dry run with work to do: {}", stderr(&out));
    let plan = stdout(&out);
    assert!(plan.contains("~ isbn: rules\n"), "{plan}");
    assert!(
        plan.contains("= issn: kept: version 3 was approved here"),
        "{plan}"
    );
    assert!(
        !plan.contains("acme-parts"),
        "not in the shipped registry: {plan}"
    );
    assert!(
        plan.ends_with("would update: 0 added, 1 changed, 1 kept\n"),
        "{plan}"
    );
    assert_eq!(dump(&Store::open_read_only(&db).unwrap()), before);

    let out = urnreg_db(&db, &["update", "--actor", "operator", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "update itself gives no note");
    let plan: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(plan["applied"], true);
    assert_eq!(plan["changed"][0]["nid"], "isbn");
    assert_eq!(plan["from"], "fnv1a64:0000000000000000");

    assert_eq!(shown(&db, "isbn"), isbn_shipped, "ISBN is the shipped one again");
    assert_eq!(shown(&db, "issn"), issn, "the revision approved here is kept");
    assert_eq!(
        shown(&db, "acme-parts"),
        acme,
        "the namespace registered here is kept"
    );
    let out = urnreg_db(&db, &["check", "urn:isbn:9780451450525"]);
    assert_eq!(code(&out), 1, "the shipped check digit applies again");
    assert!(!stderr(&out).contains(NOTE), "no note after: {}", stderr(&out));

    // The audit log says what changed.
    let store = Store::open_read_only(&db).unwrap();
    let audit: Vec<(Option<String>, String)> = store
        .connection()
        .prepare("SELECT nid, detail FROM audit_log WHERE action = 'update' AND actor = 'operator'")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(audit.len(), 2, "{audit:?}");
    assert_eq!(audit[0].0.as_deref(), Some("isbn"));
    assert!(audit[0].1.ends_with(": rules"), "{audit:?}");
    assert!(audit[1].1.starts_with("0 added, 1 changed, 1 kept"), "{audit:?}");
    drop(store);

    // Idempotent: nothing to do, nothing written.
    let before = dump(&Store::open_read_only(&db).unwrap());
    let out = urnreg_db(&db, &["update"]);
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).ends_with("up to date: 0 added, 0 changed, 1 kept\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(code(&urnreg_db(&db, &["update", "--dry-run"])), 0);
    assert_eq!(dump(&Store::open_read_only(&db).unwrap()), before);
}

/// A NID the embedded registry has and the database lacks is added, with
/// its rules; a request filed here for a missing NID keeps it from being
/// added.
#[test]
fn update_adds_missing_namespaces_unless_a_request_names_them() {
    let (dir, mut store) = fresh();
    store
        .connection()
        .execute_batch(
            "DELETE FROM rules WHERE registration_id IN (SELECT id FROM registrations WHERE nid IN ('uuid', 'oid'));
             DELETE FROM registrations WHERE nid IN ('uuid', 'oid');
             DELETE FROM namespaces WHERE nid IN ('uuid', 'oid');",
        )
        .unwrap();
    // A formal request for 'oid', filed here while the database lacked it.
    let mut oid = registration("formal.toml");
    oid.nid = Some("oid".into());
    request(&mut store, &oid, "registrant").unwrap();
    let plan = store.update_shipped(false, "operator").unwrap();
    assert_eq!(plan.added, ["uuid"]);
    assert_eq!(plan.kept.len(), 1, "{plan:?}");
    assert_eq!(plan.kept[0].nid, "oid");
    assert!(plan.kept[0].reason.contains("filed here names it"), "{plan:?}");
    assert!(store.shipped_state().unwrap().is_current());
    let db = dir.path().join("registry.db");
    let out = urnreg_db(&db, &["check", "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let again = store.update_shipped(false, "operator").unwrap();
    assert!(again.is_empty() && !again.applied, "{again:?}");
}

/// A database from before the fingerprint: its shipped records are this
/// binary's, so the migration records it; a database whose records differ
/// gets none, and the note.
#[test]
fn migrating_records_the_fingerprint_only_for_current_records() {
    let dir = tempfile::tempdir().unwrap();
    let current = dir.path().join("current.db");
    drop(Store::open_at_version(&current, "t", 9).unwrap());
    assert!(
        Store::open(&current, "t")
            .unwrap()
            .shipped_state()
            .unwrap()
            .is_current()
    );

    let older = dir.path().join("older.db");
    {
        let store = Store::open_at_version(&older, "t", 9).unwrap();
        store
            .connection()
            .execute(
                "UPDATE namespaces SET rules = 'source = \"RFC 3187\"' WHERE nid = 'isbn'",
                [],
            )
            .unwrap();
    }
    let out = urnreg_db(&older, &["ns", "list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains(NOTE), "{}", stderr(&out));
    let state = Store::open_read_only(&older).unwrap().shipped_state().unwrap();
    assert_eq!(state.recorded, None);
    assert_eq!(code(&urnreg_db(&older, &["update"])), 0);
    assert!(!stderr(&urnreg_db(&older, &["ns", "list"])).contains(NOTE));
}

/// Importing an older snapshot leaves the database behind (the note shows
/// again), and importing the database's own snapshot leaves it current.
#[test]
fn an_import_says_whether_the_shipped_records_are_current() {
    let (_dir, mut store) = fresh();
    let mut snapshot = store.snapshot().unwrap();
    store
        .import_snapshot(&snapshot, false, false, "operator")
        .unwrap();
    assert!(store.shipped_state().unwrap().is_current());
    let isbn = snapshot.records.iter_mut().find(|r| r.nid == "isbn").unwrap();
    isbn.rules.as_mut().unwrap().source = "RFC 3187".into();
    store.import_snapshot(&snapshot, true, false, "operator").unwrap();
    assert!(!store.shipped_state().unwrap().is_current());
    let plan = store.update_shipped(false, "operator").unwrap();
    assert_eq!(plan.changed.len(), 1, "{plan:?}");
    assert!(store.shipped_state().unwrap().is_current());
}

/// Two updates at once: both succeed, one applies, the other finds nothing
/// to do (the plan is made inside the write lock).
#[test]
fn two_updates_at_once_apply_once() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("r.db");
        assert_eq!(code(&urnreg_db(&db, &["init"])), 0);
        age(&db);
        let children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(env!("CARGO_BIN_EXE_urnreg"))
                    .args(["update", "--actor", "operator", "--db"])
                    .arg(&db)
                    .env_remove("URNREG_DB")
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut applied = 0;
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert_eq!(code(&out), 0, "round {round}: {}", stderr(&out));
            applied += usize::from(stdout(&out).starts_with("~ isbn"));
        }
        assert_eq!(applied, 1, "round {round}");
        let store = Store::open_read_only(&db).unwrap();
        let count = |sql: &str| -> i64 { store.connection().query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(
            count("SELECT count(*) FROM audit_log WHERE action = 'update' AND nid IS NULL"),
            1
        );
        assert_eq!(count("SELECT count(*) FROM registrations WHERE nid = 'isbn'"), 1);
        let integrity: String = store
            .connection()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(integrity, "ok");
        assert!(store.shipped_state().unwrap().is_current());
    }
}
