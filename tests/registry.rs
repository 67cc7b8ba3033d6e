//! The registry store and the registration lifecycle (RFC 8141 sections 5
//! and 6), through the library and through the command line.

/// Every transition and refusal of the lifecycle, from
/// `tests/data/registrations/lifecycle.toml`, and the commands around it.
mod lifecycle;

/// The rules of a registration: filed with it, put in force by approval.
mod rules;

/// The resolution sub-registries: declared by registrations, added by
/// experts, carried by snapshots.
mod subregistries;

/// `urnreg update`: the shipped namespaces brought up to the binary's,
/// local work kept; the note that says a database is behind.
mod update;

/// Opening databases: first use by many processes, read-only files and
/// directories, files that are not urnreg's.
mod databases;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use urnreg::lint::{vet_amendment, vet_request, vet_revision};
use urnreg::registry::{
    Decision, Error, ListFilter, MIGRATIONS, Outcome, RegistrationFile, RequestStatus, Store,
};

use crate::util::{code, stderr, stdout};

pub(crate) fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/registrations")
        .join(name)
}

pub(crate) fn registration(name: &str) -> RegistrationFile {
    RegistrationFile::from_toml(&std::fs::read_to_string(data(name)).unwrap()).unwrap()
}

pub(crate) fn fresh() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("registry.db"), "tester").unwrap();
    (dir, store)
}

/// Files `file` as a request, vetted by lint as the CLI does.
pub(crate) fn request(
    store: &mut Store,
    file: &RegistrationFile,
    actor: &str,
) -> urnreg::registry::Result<Outcome> {
    let vetted = vet_request(store, file)?;
    store.request(&vetted, None, actor)
}

/// Files `file` as a revision of `nid`, vetted by lint as the CLI does.
pub(crate) fn revise(
    store: &mut Store,
    nid: &str,
    file: &RegistrationFile,
    actor: &str,
) -> urnreg::registry::Result<Outcome> {
    let vetted = vet_revision(store, nid, file)?;
    store.revise(nid, &vetted, None, actor)
}

/// An informal request's text with its own purpose (the same text twice
/// is refused).
pub(crate) fn informal(n: usize) -> RegistrationFile {
    let mut file = registration("informal.toml");
    file.purpose = Some(format!("Names the drafts of research group {n}."));
    file
}

/// Every row of every table, as text: to show a database did not change.
pub(crate) fn dump(store: &Store) -> Vec<String> {
    let conn = store.connection();
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    tables.sort();
    let mut out = vec![format!("user_version={}", store.schema_version().unwrap())];
    for t in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {t} ORDER BY rowid"))
            .unwrap();
        let n = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                Ok((0..n)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect::<Vec<_>>()
                    .join("|"))
            })
            .unwrap();
        for row in rows {
            out.push(format!("{t}: {}", row.unwrap()));
        }
    }
    out
}

pub(crate) fn refused_fields(err: Error) -> Vec<String> {
    match err {
        Error::Invalid(problems) => problems
            .into_iter()
            .map(|p| format!("{}: {}", p.field, p.message))
            .collect(),
        other => panic!("expected a refusal, got {other}"),
    }
}

#[test]
fn a_new_database_holds_the_whole_embedded_registry() {
    let (_dir, store) = fresh();
    let all = store.list(&ListFilter::default()).unwrap();
    assert_eq!(all.len(), 105);
    assert_eq!(
        all.iter()
            .filter(|n| n.kind == urnreg::registry::Kind::Informal)
            .count(),
        8
    );
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    let isbn = store.show("ISBN", None).unwrap();
    assert_eq!(isbn.current_version, Some(2));
    assert!(isbn.registration.unwrap().fields.syntax.unwrap().contains("ISBN"));
}

#[test]
fn migration_files_are_numbered_in_order() {
    for (i, (name, _)) in MIGRATIONS.iter().enumerate() {
        assert!(name.starts_with(&format!("{:04}-", i + 1)), "{name}");
    }
}

#[test]
fn rfc8141_section_5_1_rules_refuse_a_formal_request() {
    let (_dir, mut store) = fresh();
    let cases = [
        ("urn-5", "urn-"),
        ("ab", "too short"),
        ("de-bib", "country-code"),
        ("X-parts", "X-"),
        ("urn", "reserved"),
        ("a_b", "not a valid NID"),
        ("ISBN", "already registered"),
        ("Example", "already registered"),
    ];
    for (nid, why) in cases {
        let mut file = registration("formal.toml");
        file.nid = Some(nid.to_string());
        let problems = refused_fields(request(&mut store, &file, "t").unwrap_err());
        assert!(
            problems.iter().any(|p| p.starts_with("nid:") && p.contains(why)),
            "{nid}: {problems:?}"
        );
    }
    // Already requested (case-insensitive).
    request(&mut store, &registration("formal.toml"), "t").unwrap();
    let mut again = registration("formal.toml");
    again.nid = Some("ACME-PARTS".into());
    let problems = refused_fields(request(&mut store, &again, "t").unwrap_err());
    assert!(problems[0].contains("already requested"), "{problems:?}");
}

#[test]
fn requests_need_every_required_field_a_date_and_version_1() {
    let (_dir, mut store) = fresh();
    let mut file = registration("formal.toml");
    file.version = Some(2);
    file.date = Some(urnreg::registry::registration::DateValue::Text(
        "2026-02-30".into(),
    ));
    file.purpose = Some("  ".into());
    file.resolution = None;
    let problems = refused_fields(request(&mut store, &file, "t").unwrap_err());
    let fields: Vec<_> = problems.iter().map(|p| p.split(':').next().unwrap()).collect();
    assert_eq!(
        fields,
        ["version", "date", "purpose", "resolution"],
        "{problems:?}"
    );

    let mut informal = registration("informal.toml");
    informal.nid = Some("urn-99".into());
    let problems = refused_fields(request(&mut store, &informal, "t").unwrap_err());
    assert!(problems[0].contains("assigned by the registry"));

    let err = RegistrationFile::from_toml("kind = \"formal\"\nnid = \"abc\"\nsyntaxx = \"x\"\n").unwrap_err();
    assert!(err.to_string().contains("syntaxx"), "{err}");
}

#[test]
fn lifecycle_formal_request_review_and_revision() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "alice").unwrap();
    assert_eq!(
        (req.nid.as_deref(), req.status.as_str()),
        (Some("acme-parts"), "submitted")
    );
    let shown = store.show("acme-parts", None).unwrap();
    assert_eq!(
        (shown.summary.status, shown.current_version),
        (urnreg::registry::Standing::Requested, None),
        "not registered before approval"
    );

    let asked = store
        .review("acme-parts", Decision::AskChanges, "say more", "expert")
        .unwrap();
    assert_eq!(asked.status, RequestStatus::ChangesRequested);
    let ok = store
        .review(&req.id.to_string(), Decision::Approve, "fine", "expert")
        .unwrap();
    assert_eq!(ok.status, RequestStatus::Approved);
    assert_eq!(store.show("acme-parts", None).unwrap().current_version, Some(1));

    // Decided requests stay decided.
    let err = store
        .review(&req.id.to_string(), Decision::Reject, "no", "expert")
        .unwrap_err();
    assert!(matches!(err, Error::State(_)), "{err}");

    // Revision: version 2 with Revision Information.
    let mut bad = registration("revision.toml");
    bad.version = Some(3);
    bad.revision_information = None;
    let problems = refused_fields(revise(&mut store, "acme-parts", &bad, "alice").unwrap_err());
    assert_eq!(problems.len(), 2, "{problems:?}");
    let rev = revise(&mut store, "ACME-parts", &registration("revision.toml"), "alice").unwrap();
    assert_eq!(rev.version, 2);
    let pending = revise(&mut store, "acme-parts", &registration("revision.toml"), "alice").unwrap_err();
    assert!(matches!(pending, Error::State(_)));
    store
        .review("acme-parts", Decision::Approve, "ok", "expert")
        .unwrap();
    let shown = store.show("acme-parts", None).unwrap();
    assert_eq!(shown.current_version, Some(2));
    assert!(
        shown
            .registration
            .unwrap()
            .fields
            .syntax
            .unwrap()
            .contains("1*10DIGIT")
    );
    // All versions stay readable.
    assert!(
        store
            .show("acme-parts", Some(1))
            .unwrap()
            .registration
            .unwrap()
            .fields
            .syntax
            .unwrap()
            .contains("1*8DIGIT")
    );
    let history = store.history("acme-parts").unwrap();
    assert_eq!(history.versions.len(), 2);
    let actions: Vec<_> = history.events.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "request",
            "review:ask-changes",
            "review:approve",
            "revise",
            "review:approve"
        ]
    );
    assert_eq!(history.events[0].actor, "alice");
}

/// An import that changes nothing changes nothing: amended texts,
/// registrants' tokens, the audit log's links and every request's id stay
/// (operating.md: "changing or removing what the database holds needs
/// --replace"; security.md: never loses data already stored).
/// Every replaced text is kept, so one request takes at most
/// MAX_AMENDMENTS amendments: past it, a clear refusal and the database
/// as it was (found in hostile testing).
#[test]
fn a_request_is_amended_at_most_max_amendments_times() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "alice").unwrap();
    let target = req.id.to_string();
    let amend = |store: &mut urnreg::registry::Store, n: i64| {
        let mut amended = registration("formal.toml");
        amended.purpose = Some(format!("Names the parts of the catalogue, round {n}."));
        let vetted = vet_amendment(store, &target, &amended)?;
        store.amend(&target, &vetted, None, "alice")
    };
    for n in 1..=urnreg::registry::MAX_AMENDMENTS {
        amend(&mut store, n).unwrap();
    }
    let e = amend(&mut store, 0).unwrap_err().to_string();
    assert!(e.contains("MAX_AMENDMENTS"), "{e}");
    assert!(e.contains("amended 100 times"), "{e}");
}

#[test]
fn importing_the_databases_own_snapshot_keeps_everything() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "alice").unwrap();
    store
        .review("acme-parts", Decision::AskChanges, "say more", "expert")
        .unwrap();
    let mut amended = registration("formal.toml");
    amended.purpose = Some("Names the parts of the catalogue, as the expert asked.".into());
    let vetted = vet_amendment(&store, &req.id.to_string(), &amended).unwrap();
    store.amend(&req.id.to_string(), &vetted, None, "alice").unwrap();
    // Two informal requests of one registrant, filed in the same second:
    // each keeps its own token (their NID, registrant and time are alike).
    for n in [1, 2] {
        let pending = request(&mut store, &informal(n), "bob").unwrap();
        store
            .connection()
            .execute(
                "INSERT INTO request_tokens (registration_id, selector, token_hash, created_at)
                 VALUES (?1, ?2, zeroblob(32), '2026-01-01T00:00:00Z')",
                rusqlite::params![pending.id, format!("sel{n}")],
            )
            .unwrap();
    }
    store
        .review("acme-parts", Decision::Approve, "fine", "expert")
        .unwrap();
    // Every row but the namespaces' (rebuilt from the snapshot: the same
    // facts, written out in full) and the import's own audit entry.
    let import = format!("{:?}", rusqlite::types::ValueRef::Text(b"import"));
    let rows = |store: &Store| -> Vec<String> {
        dump(store)
            .into_iter()
            .filter(|row| !row.starts_with("namespaces: ") && !row.contains(&import))
            .collect()
    };
    let before = rows(&store);
    let snapshot = store.snapshot().unwrap();
    let plan = store
        .import_snapshot(&snapshot, false, false, "operator")
        .unwrap();
    assert!(plan.applied && plan.added.is_empty() && plan.changed.is_empty() && plan.removed.is_empty());
    let after = rows(&store);
    assert!(before.iter().any(|row| row.starts_with("amendments: ")));
    assert!(before.iter().any(|row| row.starts_with("request_tokens: ")));
    let lost: Vec<&String> = before.iter().filter(|row| !after.contains(row)).collect();
    let gained: Vec<&String> = after.iter().filter(|row| !before.contains(row)).collect();
    assert!(
        lost.is_empty() && gained.is_empty(),
        "lost {lost:#?}\ngained {gained:#?}"
    );
    let history = store.history("acme-parts").unwrap();
    let actions: Vec<_> = history.events.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["request", "review:ask-changes", "amend", "review:approve"]
    );
}

/// A snapshot that gives a held request's id to another version would
/// renumber it: the plan says so, and it needs --replace.
#[test]
fn an_import_that_takes_a_held_requests_id_needs_replace() {
    let (_dir, mut store) = fresh();
    let held = request(&mut store, &informal(1), "bob").unwrap().id;
    // Another registrant's, for another purpose: another version, not the
    // first one's text changed (see the next test).
    let mut other = informal(2);
    other.registrant = Some("John Roe <john@example.org>".into());
    let pending = request(&mut store, &other, "bob").unwrap();
    let mut snapshot = store.snapshot().unwrap();
    // The second request, under the first's id; the first gone.
    snapshot.requests.retain(|v| v.id != Some(held));
    let filed = snapshot
        .requests
        .iter_mut()
        .find(|v| v.id == Some(pending.id))
        .unwrap();
    filed.id = Some(held);
    let before = dump(&store);
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(plan.conflicts, "{plan:?}");
    assert_eq!(plan.renumbered.len(), 1, "{plan:?}");
    assert!(
        plan.renumbered[0].starts_with(&format!("request {held} (")),
        "{plan:?}"
    );
    let err = store
        .import_snapshot(&snapshot, false, false, "operator")
        .unwrap_err();
    assert!(err.to_string().contains("renumber 1 request(s)"), "{err}");
    assert_eq!(dump(&store), before, "refused: nothing changed");
    // A shipped text's id is one nobody refers to: taking it renumbers
    // no request.
    let mut snapshot = store.snapshot().unwrap();
    let shipped = store
        .connection()
        .query_row("SELECT min(id) FROM registrations", [], |r| r.get::<_, i64>(0))
        .unwrap();
    let filed = snapshot
        .requests
        .iter_mut()
        .find(|v| v.id == Some(pending.id))
        .unwrap();
    filed.id = Some(shipped);
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(plan.renumbered.is_empty(), "{plan:?}");
}

/// A snapshot that says otherwise of a held request's text, under its id,
/// changes the request (it keeps its id and what hangs on it): the plan
/// names the fields, not a renumbering.
#[test]
fn an_import_that_changes_a_requests_text_names_the_fields() {
    let (_dir, mut store) = fresh();
    let pending = request(&mut store, &registration("formal.toml"), "bob").unwrap();
    let mut snapshot = store.snapshot().unwrap();
    let filed = snapshot
        .requests
        .iter_mut()
        .find(|v| v.id == Some(pending.id))
        .unwrap();
    filed.fields.purpose = Some("Another purpose.".into());
    filed.fields.assignment = Some("Another assignment.".into());
    let before = dump(&store);
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(plan.conflicts, "{plan:?}");
    assert!(plan.renumbered.is_empty(), "{plan:?}");
    assert_eq!(
        plan.changed_requests,
        [format!(
            "request {} (acme-parts v1): purpose, assignment",
            pending.id
        )]
    );
    let err = store
        .import_snapshot(&snapshot, false, false, "operator")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("would change 1 request(s) the database holds"),
        "{err}"
    );
    assert!(!err.contains("renumber") && !err.contains("namespace"), "{err}");
    assert_eq!(dump(&store), before, "refused: nothing changed");
    let plan = store.import_snapshot(&snapshot, true, false, "operator").unwrap();
    assert!(plan.applied);
    let purpose: String = store
        .connection()
        .query_row(
            "SELECT purpose FROM registrations WHERE id = ?1",
            [pending.id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(purpose, "Another purpose.", "the request kept its id");

    // A registered namespace's filed version: the record names it.
    store
        .review("acme-parts", Decision::Approve, "fine", "expert")
        .unwrap();
    let mut snapshot = store.snapshot().unwrap();
    let record = snapshot
        .records
        .iter_mut()
        .find(|r| r.nid == "acme-parts")
        .unwrap();
    record.filed[0].fields.purpose = Some("A third purpose.".into());
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(plan.renumbered.is_empty(), "{plan:?}");
    assert_eq!(
        plan.changed,
        [("acme-parts".to_string(), vec!["filed v1: purpose".to_string()])]
    );
}

#[test]
fn rejected_requests_are_final_and_free_the_nid() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "a").unwrap();
    store.review("acme-parts", Decision::Reject, "no", "e").unwrap();
    assert!(matches!(
        store.review(&req.id.to_string(), Decision::Approve, "x", "e"),
        Err(Error::State(_))
    ));
    assert!(matches!(
        store.review("acme-parts", Decision::Approve, "x", "e"),
        Err(Error::NotFound(_))
    ));
    request(&mut store, &registration("formal.toml"), "a").expect("the NID may be requested again");
    assert!(matches!(
        store.review("99999", Decision::Approve, "x", "e"),
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        revise(&mut store, "nope", &registration("revision.toml"), "a"),
        Err(Error::NotFound(_))
    ));
}

#[test]
fn informal_numbers_follow_the_highest_ever_assigned() {
    let (_dir, mut store) = fresh();
    let a = request(&mut store, &informal(1), "a").unwrap();
    let b = request(&mut store, &informal(2), "a").unwrap();
    assert_eq!(a.nid, None);
    let b_ok = store
        .review(&b.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap();
    let a_ok = store
        .review(&a.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap();
    assert_eq!(
        b_ok.nid.as_deref(),
        Some("urn-9"),
        "the registry holds urn-1 to urn-8"
    );
    assert_eq!(a_ok.nid.as_deref(), Some("urn-10"));
    // Even if a namespace disappears from the table, its number is not reused.
    store
        .connection()
        .execute(
            "UPDATE namespaces SET status = 'withdrawn' WHERE nid = 'urn-10'",
            [],
        )
        .unwrap();
    let c = request(&mut store, &informal(3), "a").unwrap();
    assert_eq!(
        store
            .review(&c.id.to_string(), Decision::Approve, "ok", "e")
            .unwrap()
            .nid
            .as_deref(),
        Some("urn-11")
    );
}

#[test]
fn a_failed_command_leaves_the_database_exactly_as_it_was() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "a").unwrap();
    let before = dump(&store);
    let mut bad = registration("formal.toml");
    bad.nid = Some("ab".into());
    assert!(request(&mut store, &bad, "a").is_err());
    assert!(store.review("12345", Decision::Approve, "x", "e").is_err());
    assert!(
        store
            .review(&req.id.to_string(), Decision::Approve, " ", "e")
            .is_err()
    );
    assert!(revise(&mut store, "isbn", &registration("revision.toml"), "a").is_err());
    assert_eq!(dump(&store), before);
}

#[test]
fn migrating_from_every_older_schema_version() {
    for start in 0..MIGRATIONS.len() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        if start > 0 {
            let old = Store::open_at_version(&path, "old", start).unwrap();
            assert_eq!(old.schema_version().unwrap(), start as i64);
            let n: i64 = old
                .connection()
                .query_row("SELECT count(*) FROM namespaces", [], |r| r.get(0))
                .unwrap();
            assert_eq!(n, 105, "seeded at version {start}");
        }
        let mut store = Store::open(&path, "new").unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            MIGRATIONS.len() as i64,
            "from {start}"
        );
        assert_eq!(
            store.list(&ListFilter::default()).unwrap().len(),
            105,
            "data kept from {start}"
        );
        let req = request(&mut store, &registration("formal.toml"), "a").unwrap();
        store
            .review(&req.id.to_string(), Decision::Approve, "ok", "e")
            .unwrap();
        assert_eq!(
            store.history("acme-parts").unwrap().events.len(),
            2,
            "audit log works from {start}"
        );
        // Migration 4: a snapshot gives the shipped records back, whatever
        // version the database started at.
        let snapshot = store.snapshot().unwrap();
        let fresh = Store::open_embedded().unwrap().snapshot().unwrap();
        let shipped: Vec<_> = snapshot
            .records
            .iter()
            .filter(|r| r.nid != "acme-parts")
            .collect();
        assert_eq!(
            shipped,
            fresh.records.iter().collect::<Vec<_>>(),
            "snapshot from {start}"
        );
        let ok: String = store
            .connection()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }
}

#[test]
fn a_database_from_a_newer_urnreg_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    drop(Store::open(&path, "a").unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
    }
    let err = Store::open(&path, "a").err().expect("refused");
    assert!(matches!(err, Error::SchemaTooNew { found: 99, .. }), "{err}");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, 99);
}

pub(crate) fn urnreg_db(db: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(args)
        .arg("--db")
        .arg(db)
        .env_remove("URNREG_DB")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn cli_lists_the_embedded_registry_without_creating_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    let out = urnreg_db(&db, &["ns", "list", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let list: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list.len(), 105);
    for key in [
        "nid",
        "kind",
        "status",
        "date",
        "references",
        "has_rules",
        "pending",
    ] {
        assert!(list[0].get(key).is_some(), "{key}");
    }
    assert!(!db.exists(), "a read-only command created the database");
    // URNREG_DB is honoured too.
    let out = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(["ns", "list", "--informal"])
        .env("URNREG_DB", &db)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(text.starts_with("NID "), "a header first: {text}");
    assert_eq!(text.lines().count(), 1 + 8);
}

#[test]
fn cli_maintainer_path_and_json_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let formal = data("formal.toml");
    let out = urnreg_db(&db, &["request", formal.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["nid"].as_str(), v["status"].as_str()),
        (Some("acme-parts"), Some("submitted"))
    );
    // A refused request: exit 2, the field named, nothing stored.
    let out = urnreg_db(&db, &["request", formal.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("nid: 'acme-parts' is already requested"),
        "{}",
        stderr(&out)
    );
    let out = urnreg_db(
        &db,
        &[
            "review",
            "acme-parts",
            "--approve",
            "--note",
            "ok",
            "--actor",
            "expert",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = urnreg_db(&db, &["ns", "show", "acme-parts", "--format", "toml"]);
    let shown =
        RegistrationFile::from_toml(&stdout(&out)).expect("show --format toml gives a registration file");
    assert_eq!(shown.nid.as_deref(), Some("acme-parts"));
    let out = urnreg_db(&db, &["ns", "history", "acme-parts", "--format", "json"]);
    let h: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(h["events"][1]["actor"], "expert");
    // Informal from stdin.
    let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(["request", "-", "--format", "json", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(data("informal.toml")).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nid"], Value::Null);
    let id = v["id"].to_string();
    let out = urnreg_db(
        &db,
        &["review", &id, "--approve", "--note", "ok", "--format", "json"],
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nid"], "urn-9");
    // Broken TOML: a clear error, exit 2.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "kind = \"formal\"\nnid = [").unwrap();
    let out = urnreg_db(&db, &["request", bad.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("bad.toml"), "{}", stderr(&out));
}

#[test]
fn eight_processes_approving_informal_requests_get_distinct_consecutive_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("race.db");
    let mut store = Store::open(&db, "setup").unwrap();
    let ids: Vec<i64> = (0..8)
        .map(|n| request(&mut store, &informal(n), "a").unwrap().id)
        .collect();
    drop(store);
    let children: Vec<_> = ids
        .iter()
        .map(|id| {
            Command::new(env!("CARGO_BIN_EXE_urnreg"))
                .args([
                    "review",
                    &id.to_string(),
                    "--approve",
                    "--note",
                    "ok",
                    "--format",
                    "json",
                    "--db",
                ])
                .arg(&db)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut numbers: Vec<i64> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            v["nid"]
                .as_str()
                .unwrap()
                .trim_start_matches("urn-")
                .parse()
                .unwrap()
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (9..=16).collect::<Vec<_>>());
    let conn = rusqlite::Connection::open(&db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
}

#[test]
fn rules_travel_with_requests_and_a_broken_rule_is_never_stored() {
    let (_dir, mut store) = fresh();
    let mut file = registration("formal.toml");
    file.rules = Some(
        toml::from_str(
            r#"
source = "the acme-parts registration, Syntax"
syntax = { abnf = "part-number = 1*8DIGIT" }
examples.valid = ["urn:acme-parts:12345678"]
examples.invalid = ["urn:acme-parts:123456789"]
"#,
        )
        .unwrap(),
    );
    let mut broken = file.clone();
    broken.rules.as_mut().unwrap().insert(
        "syntax".into(),
        toml::Value::try_from(toml::toml! { abnf = "x = y" }).unwrap(),
    );
    let before = dump(&store);
    let problems = refused_fields(request(&mut store, &broken, "a").unwrap_err());
    assert!(
        problems[0].starts_with("rules:") && problems[0].contains("'y' is not defined"),
        "{problems:?}"
    );
    assert_eq!(dump(&store), before);

    let req = request(&mut store, &file, "a").unwrap();
    store
        .review(&req.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap();
    let v = urnreg::Registry::from_store(&store).unwrap();
    assert!(v.check("urn:acme-parts:42").is_valid());
    assert_eq!(
        v.check("urn:acme-parts:4x2").errors().next().unwrap().offset(),
        16
    );
}

#[test]
fn upgraded_databases_get_the_shipped_rules() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    drop(Store::open_at_version(&path, "old", 2).unwrap());
    let store = Store::open(&path, "new").unwrap();
    let rules = store.in_force().unwrap();
    let isbn = rules.iter().find(|r| r.nid == "isbn").unwrap();
    assert!(isbn.rules.as_deref().unwrap().contains("builtin"));
}

/// The audit actor where `$USER` is unset (containers, CI jobs):
/// `$URNREG_ACTOR`, else the login name of the process's user.
#[test]
fn the_audit_actor_falls_back_from_urnreg_actor_to_the_login_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("reg.db");
    let run = |args: &[&str], env: &[(&str, &str)]| {
        Command::new(env!("CARGO_BIN_EXE_urnreg"))
            .args(args)
            .arg("--db")
            .arg(&db)
            .env_remove("URNREG_DB")
            .env_remove("USER")
            .env_remove("LOGNAME")
            .env_remove("URNREG_ACTOR")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&["init"], &[("URNREG_ACTOR", "ci-bot")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("unknown"), "{}", stderr(&out));
    let out = run(
        &["request", data("formal.toml").to_str().unwrap()],
        &[("URNREG_ACTOR", "ci-bot")],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["review", "acme-parts", "--approve", "--note", "ok"], &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["ns", "history", "acme-parts", "--format", "json"], &[]);
    let h: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(h["events"][0]["actor"], "ci-bot");
    // No variable: the password database names the user running the tests.
    let login = h["events"][1]["actor"].as_str().unwrap().to_string();
    assert!(!login.is_empty());
    #[cfg(target_os = "linux")]
    assert_ne!(login, "unknown", "the login name of uid running the tests");
}

/// `--db`, `--format` and `--actor` before the command mean what they mean
/// after it; one the command does not take is refused naming the command.
#[test]
fn options_before_the_command_work_like_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("reg.db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_urnreg"))
            .args(args)
            .env_remove("URNREG_DB")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&["--db", db, "--actor", "ann", "init"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let before = run(&["--db", db, "--format", "json", "ns", "list"]);
    let after = run(&["ns", "list", "--db", db, "--format", "json"]);
    assert_eq!(code(&before), 0, "{}", stderr(&before));
    assert_eq!(before.stdout, after.stdout);
    let out = run(&["--format=json", "ns", "--db", db, "show", "isbn"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(serde_json::from_slice::<Value>(&out.stdout).is_ok());
    let out = run(&["--actor", "ann", "ns", "list"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("'urnreg ns list' does not take --actor"),
        "{}",
        stderr(&out)
    );
}

/// No local path leaves the machine: a version filed from a path keeps its
/// file name only, in the store, the history and the JSON snapshot; a
/// database filed into before the fix is migrated (migration 7).
#[test]
fn filed_versions_keep_their_file_name_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("reg.db");
    let file = data("formal.toml");
    let out = urnreg_db(&db, &["request", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let store = Store::open(&db, "t").unwrap();
    let sources: Vec<Option<String>> = store
        .connection()
        .prepare("SELECT source FROM registrations WHERE source_text IS NULL")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(sources, vec![Some("formal.toml".to_string())]);
    let out = urnreg_db(
        &db,
        &[
            "export",
            "--format",
            "json",
            "--out",
            dir.path().join("snap").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let dir_text = dir.path().to_str().unwrap();
    for entry in std::fs::read_dir(dir.path().join("snap")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains(dir_text), "a local path in the snapshot");
        assert!(
            !text.contains(env!("CARGO_MANIFEST_DIR")),
            "a local path in the snapshot"
        );
    }

    // A database of schema 6 holding the paths its filers typed.
    let old_path = dir.path().join("old.db");
    let old = Store::open_at_version(&old_path, "old", 6).unwrap();
    drop(old);
    let mut store = Store::open_at_version(&old_path, "old", 6).unwrap();
    request(&mut store, &registration("formal.toml"), "a").unwrap();
    store
        .connection()
        .execute(
            "UPDATE registrations SET source = '/home/ann/drafts/acme.toml' WHERE source_text IS NULL",
            [],
        )
        .unwrap();
    let seeded: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE source_text IS NOT NULL AND source LIKE '%/%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    drop(store);
    let store = Store::open(&old_path, "new").unwrap();
    let filed: String = store
        .connection()
        .query_row(
            "SELECT source FROM registrations WHERE source_text IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(filed, "acme.toml");
    let still: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE source_text IS NOT NULL AND source LIKE '%/%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(still, seeded, "the shipped records' references are left alone");
}

/// A filing past MAX_REQUEST_ID (2^53 - 1, the largest id JSON readers hold
/// exactly) is refused, nothing stored: an id past it would make an export
/// that no import takes (found in hostile testing).
#[test]
fn request_ids_stop_at_max_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ids.db");
    let mut store = Store::open(&db, "setup").unwrap();
    let last = request(&mut store, &informal(1), "a").unwrap().id;
    drop(store);
    {
        // The highest id moved to the limit (what an imported snapshot
        // holding it leaves); the rows naming the old id are left behind.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.pragma_update(None, "foreign_keys", false).unwrap();
        conn.execute(
            "UPDATE registrations SET id = ?1 WHERE id = ?2",
            [urnreg::registry::MAX_REQUEST_ID, last],
        )
        .unwrap();
    }
    let mut store = Store::open(&db, "setup").unwrap();
    let err = request(&mut store, &informal(2), "a").expect_err("refused");
    assert!(err.to_string().contains("MAX_REQUEST_ID"), "{err}");
    let count: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE id > ?1",
            [urnreg::registry::MAX_REQUEST_ID],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(count, 0);
}

/// A read-only command given an empty file answers from the built-in
/// registry and leaves the file as it was (found in hostile testing).
#[test]
fn reading_an_empty_database_file_writes_nothing_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("empty.db");
    std::fs::write(&db, b"").unwrap();
    let out = urnreg_db(&db, &["check", "urn:isbn:0451450523"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
}

/// `status` writes a line feed in a one-line field (an actor's name) as an
/// escape: a name must not forge a review line (found in hostile testing).
#[test]
fn status_escapes_a_line_feed_in_an_actors_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let mut store = Store::open(&db, "setup").unwrap();
    let id = request(&mut store, &informal(1), "a").unwrap().id;
    drop(store);
    let forged = "bob\n2026-11-28T00:00:00Z ada: approve";
    let out = urnreg_db(
        &db,
        &[
            "review",
            &id.to_string(),
            "--ask-changes",
            "--note",
            "fix",
            "--actor",
            forged,
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = urnreg_db(&db, &["status", &id.to_string()]);
    let text = stdout(&out);
    assert!(
        !text.lines().any(|l| l.starts_with("2026-11-28T00:00:00Z ada")),
        "{text}"
    );
    assert!(text.contains("bob\\x0a2026"), "{text}");
}

/// A snapshot that only changes a request's id drops the held request and
/// adds another: the plan names both by id, the refusal says so (no hole
/// in its sentence), and --replace reports what it did (found in hostile testing
/// ).
#[test]
fn an_import_that_changes_a_requests_id_names_the_requests_dropped_and_added() {
    let (_dir, mut store) = fresh();
    let held = request(&mut store, &informal(1), "bob").unwrap().id;
    let mut snapshot = store.snapshot().unwrap();
    let free = held + 5000;
    snapshot.requests[0].id = Some(free);
    let before = dump(&store);
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(plan.conflicts, "{plan:?}");
    assert_eq!(plan.dropped_requests, [format!("request {held} (informal v1)")]);
    assert_eq!(plan.added_requests, [format!("request {free} (informal v1)")]);
    assert!(
        plan.changed_requests.is_empty() && plan.renumbered.is_empty(),
        "{plan:?}"
    );
    let err = store
        .import_snapshot(&snapshot, false, false, "operator")
        .unwrap_err()
        .to_string();
    assert!(!err.contains("would  "), "{err}");
    assert!(
        err.contains("would drop 1 request(s) the database holds")
            && err.contains(&format!("dropped: request {held} (informal v1)"))
            && err.contains(&format!("added: request {free} (informal v1)")),
        "{err}"
    );
    assert_eq!(dump(&store), before, "refused: nothing changed");
    let plan = store.import_snapshot(&snapshot, true, false, "operator").unwrap();
    assert!(plan.applied);
    assert_eq!(plan.dropped_requests.len(), 1, "{plan:?}");
    assert_eq!(plan.added_requests.len(), 1, "{plan:?}");
    let ids: Vec<i64> = store
        .snapshot()
        .unwrap()
        .requests
        .iter()
        .filter_map(|v| v.id)
        .collect();
    assert_eq!(ids, [free]);

    // Adding a request beside the held ones changes nothing held, in
    // whatever order the snapshot lists them.
    let second = request(&mut store, &informal(2), "bob").unwrap().id;
    let mut snapshot = store.snapshot().unwrap();
    let mut added = snapshot.requests[0].clone();
    added.id = Some(second + 1);
    snapshot.requests.insert(0, added);
    snapshot.requests.reverse();
    let plan = store.import_snapshot(&snapshot, false, true, "operator").unwrap();
    assert!(!plan.conflicts, "{plan:?}");
    assert_eq!(
        plan.added_requests,
        [format!("request {} (informal v1)", second + 1)]
    );
    assert!(plan.dropped_requests.is_empty(), "{plan:?}");
}
