//! Registry snapshots (`urnreg export` / `urnreg import`): the shipped
//! registry exported byte for byte, lossless round trips, and corrupt,
//! truncated or tampered snapshots refused with the database untouched.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use urnreg::registry::{Decision, RegistrationFile, Store};

use crate::util::{code, stderr, stdout, urnreg_with_env};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/registrations")
        .join(name)
}

pub(crate) fn registration(name: &str) -> RegistrationFile {
    RegistrationFile::from_toml(&fs::read_to_string(data(name)).unwrap()).unwrap()
}

/// Every file of a directory, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Runs `urnreg ARGS --db DB`, as the user `tester` (the audit log's
/// default actor).
fn run(db: &Path, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--db", db.to_str().unwrap()]);
    urnreg_with_env(&all, b"", &[("USER", "tester")])
}

fn export(db: &Path, format: &str, out: &Path) {
    let out = run(
        db,
        &["export", "--format", format, "--out", out.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// A database with every kind of local change: a formal namespace
/// registered and revised, an informal one assigned, a request pending,
/// one rejected, one sent back.
pub(crate) fn busy_database(dir: &Path) -> PathBuf {
    let path = dir.join("busy.db");
    let mut store = Store::open(&path, "tester").unwrap();
    store
        .request(&registration("formal.toml"), Some("formal.toml"), "alice")
        .unwrap();
    store
        .review("acme-parts", Decision::Approve, "Fine.", "expert")
        .unwrap();
    store
        .revise("acme-parts", &registration("revision.toml"), None, "alice")
        .unwrap();
    let sent_back = store
        .request(&registration("informal.toml"), None, "bob")
        .unwrap();
    store
        .review(
            &sent_back.id.to_string(),
            Decision::AskChanges,
            "Say more.",
            "expert",
        )
        .unwrap();
    let informal = store
        .request(&registration("informal.toml"), None, "bob")
        .unwrap();
    store
        .review(&informal.id.to_string(), Decision::Approve, "Assigned.", "expert")
        .unwrap();
    let mut other = registration("formal.toml");
    other.nid = Some("acme-tools".into());
    let rejected = store.request(&other, None, "carol").unwrap();
    store
        .review(
            &rejected.id.to_string(),
            Decision::Reject,
            "Use acme-parts.",
            "expert",
        )
        .unwrap();
    path
}

#[test]
fn exporting_the_shipped_registry_reproduces_registry_dir_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("snap");
    export(&dir.path().join("new.db"), "toml", &out);
    let mut got = files(&out);
    let sums = String::from_utf8(got.remove("SHA256SUMS").unwrap()).unwrap();
    let shipped = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("registry"));
    assert_eq!(got.keys().collect::<Vec<_>>(), shipped.keys().collect::<Vec<_>>());
    for (name, bytes) in &shipped {
        assert!(got[name] == *bytes, "{name} differs from registry/{name}");
    }
    assert_eq!(sums.lines().count(), shipped.len());
}

#[test]
fn json_and_toml_round_trips_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let db = busy_database(dir.path());
    for format in ["json", "toml"] {
        let first = dir.path().join(format!("{format}-1"));
        export(&db, format, &first);
        let fresh = dir.path().join(format!("{format}-fresh.db"));
        let out = run(&fresh, &["import", first.to_str().unwrap()]);
        assert_eq!(code(&out), 0, "{format}: {}", stderr(&out));
        let second = dir.path().join(format!("{format}-2"));
        export(&fresh, format, &second);
        assert!(
            files(&first) == files(&second),
            "{format}: the second export differs"
        );
        // The imported database works: the revision is still pending, the
        // informal number is not handed out again.
        let out = run(&fresh, &["ns", "history", "acme-parts", "--format", "json"]);
        let history: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(history["versions"].as_array().unwrap().len(), 2, "{format}");
        let mut store = Store::open(&fresh, "t").unwrap();
        let again = store
            .request(&registration("informal.toml"), None, "bob")
            .unwrap();
        let done = store
            .review(&again.id.to_string(), Decision::Approve, "ok", "e")
            .unwrap();
        // urn-9 went to the busy database's informal namespace.
        assert_eq!(done.nid.as_deref(), Some("urn-10"), "{format}");
    }
    let json = fs::read_to_string(dir.path().join("json-1/registry.json")).unwrap();
    assert!(json.contains("\"schema\": 1") && json.contains("\"format\": \"urnreg-snapshot\""));
}

/// The database's whole content, to show that a refused import left it as it was.
fn content(db: &Path) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    export(db, "json", &out);
    fs::read(out.join("registry.json")).unwrap()
}

#[test]
fn corrupt_truncated_or_tampered_snapshots_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = busy_database(dir.path());
    let good_toml = dir.path().join("good-toml");
    let good_json = dir.path().join("good-json");
    export(&db, "toml", &good_toml);
    export(&db, "json", &good_json);
    let target = dir.path().join("target.db");
    run(&target, &["init"]);
    let before = content(&target);
    let copy = |from: &Path, name: &str| -> PathBuf {
        let to = dir.path().join(name);
        fs::create_dir(&to).unwrap();
        for (n, bytes) in files(from) {
            fs::write(to.join(n), bytes).unwrap();
        }
        to
    };
    let resum = |d: &Path| {
        let mut f = files(d);
        f.remove("SHA256SUMS");
        fs::write(d.join("SHA256SUMS"), urnreg::snapshot::manifest(&f)).unwrap();
    };
    let mut cases: Vec<(PathBuf, &str)> = Vec::new();
    // Tampered: a record's text changed after export.
    let t = copy(&good_toml, "tampered");
    let isbn = fs::read_to_string(t.join("isbn.toml")).unwrap();
    fs::write(t.join("isbn.toml"), isbn.replacen("ISBN", "I5BN", 1)).unwrap();
    cases.push((t, "does not match its checksum"));
    // Truncated JSON.
    let t = copy(&good_json, "truncated");
    let json = fs::read(t.join("registry.json")).unwrap();
    fs::write(t.join("registry.json"), &json[..json.len() / 2]).unwrap();
    cases.push((t.clone(), "checksum"));
    // Truncated JSON without its manifest: the parser refuses it.
    let t2 = copy(&t, "truncated-unsigned");
    fs::remove_file(t2.join("SHA256SUMS")).unwrap();
    cases.push((t2, "EOF"));
    // A file missing from a toml snapshot.
    let t = copy(&good_toml, "incomplete");
    fs::remove_file(t.join("uuid.toml")).unwrap();
    cases.push((t, "missing"));
    // A file nobody listed.
    let t = copy(&good_toml, "extra");
    fs::write(t.join("zzz.toml"), "nid = \"zzz\"\nkind = \"formal\"\n").unwrap();
    cases.push((t, "not listed"));
    // Well-formed and re-summed, but a rule fails its own example.
    let t = copy(&good_toml, "bad-rule");
    let isbn = fs::read_to_string(t.join("isbn.toml")).unwrap();
    let broken = isbn.replacen("valid = [", "valid = [\"not-an-isbn\", ", 1);
    assert_ne!(broken, isbn, "the isbn record has valid examples");
    fs::write(t.join("isbn.toml"), broken).unwrap();
    resum(&t);
    cases.push((t, "not-an-isbn"));
    // Broken TOML, re-summed.
    let t = copy(&good_toml, "broken-toml");
    fs::write(t.join("uuid.toml"), "nid = \"uuid\"\nkind = ").unwrap();
    resum(&t);
    cases.push((t, "uuid.toml"));
    // A record under another NID's file name.
    let t = copy(&good_toml, "misfiled");
    let uuid = fs::read_to_string(t.join("uuid.toml")).unwrap();
    fs::write(
        t.join("uuid.toml"),
        uuid.replacen("nid = \"uuid\"", "nid = \"uuidx\"", 1),
    )
    .unwrap();
    resum(&t);
    cases.push((t, "holds the record"));
    for (path, why) in cases {
        for args in [
            vec!["import", path.to_str().unwrap()],
            vec!["import", path.to_str().unwrap(), "--replace"],
        ] {
            let out = run(&target, &args);
            assert_eq!(code(&out), 2, "{}: {}", path.display(), stderr(&out));
            assert!(
                stderr(&out).contains(why),
                "{}: expected '{why}' in {}",
                path.display(),
                stderr(&out)
            );
        }
        assert!(
            content(&target) == before,
            "{}: the database changed",
            path.display()
        );
    }
}

#[test]
fn conflicts_need_replace_and_dry_run_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let busy = busy_database(dir.path());
    let shipped = dir.path().join("shipped");
    export(&dir.path().join("plain.db"), "toml", &shipped);
    let before = content(&busy);
    let out = run(&busy, &["import", shipped.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code(&out), 1);
    let plan = stdout(&out);
    assert!(
        plan.contains("- acme-parts") && plan.contains("- urn-9") && plan.contains("needs --replace"),
        "{plan}"
    );
    assert!(content(&busy) == before);
    let out = run(&busy, &["import", shipped.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--replace"), "{}", stderr(&out));
    assert!(content(&busy) == before);
    let out = run(
        &busy,
        &[
            "import",
            shipped.to_str().unwrap(),
            "--replace",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plan: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(plan["applied"], true);
    let after = dir.path().join("after");
    export(&busy, "toml", &after);
    assert!(files(&after) == files(&shipped));
    // Adding to a database is not a conflict.
    let busy_export = dir.path().join("busy-export");
    export(&busy_database(&dir.path().join("again")), "json", &busy_export);
    let out = run(
        &dir.path().join("plain.db"),
        &["import", busy_export.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("+ acme-parts"), "{}", stdout(&out));
}

#[test]
fn export_refuses_a_non_empty_directory_without_force_and_leaves_no_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    fs::write(out_dir.join("keep.txt"), "mine").unwrap();
    let out = run(
        &db,
        &["export", "--format", "json", "--out", out_dir.to_str().unwrap()],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--force"));
    assert_eq!(fs::read_to_string(out_dir.join("keep.txt")).unwrap(), "mine");
    let out = run(
        &db,
        &[
            "export",
            "--format",
            "json",
            "--out",
            out_dir.to_str().unwrap(),
            "--force",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        files(&out_dir).keys().collect::<Vec<_>>(),
        ["SHA256SUMS", "registry.json"]
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("urnreg-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let out = run(&db, &["export", "--format", "jsonl", "--out", "x"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn xml_export_gives_back_the_iana_records_field_for_field() {
    use urnreg::registry::iana::read_registry;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("xml");
    export(&dir.path().join("new.db"), "xml", &out);
    let exported = fs::read_to_string(out.join("urn-namespaces.xml")).unwrap();
    let original =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iana/urn-namespaces.xml"))
            .unwrap();
    let (reg_a, mut rec_a) = read_registry(&original).unwrap();
    let (reg_b, mut rec_b) = read_registry(&exported).unwrap();
    assert_eq!(reg_a, reg_b);
    rec_a.sort_by_key(|r| r.nid.to_ascii_lowercase());
    rec_b.sort_by_key(|r| r.nid.to_ascii_lowercase());
    assert_eq!(rec_a.len(), rec_b.len());
    for (a, b) in rec_a.iter().zip(&rec_b) {
        assert_eq!(a, b, "{}", a.nid);
    }
    // Importing it into a database changes nothing the XML cannot hold:
    // texts, rules and filed versions are kept.
    let busy = busy_database(dir.path());
    let before = content(&busy);
    let busy_xml = dir.path().join("busy-xml");
    export(&busy, "xml", &busy_xml);
    let out_import = run(&busy, &["import", busy_xml.to_str().unwrap()]);
    assert_eq!(code(&out_import), 0, "{}", stderr(&out_import));
    assert!(
        stdout(&out_import).contains("0 added, 0 changed, 0 removed"),
        "{}",
        stdout(&out_import)
    );
    assert!(content(&busy) == before);
    // Round trip: export xml, import into a new database, export again.
    let fresh = dir.path().join("fresh.db");
    let o = run(
        &fresh,
        &["import", out.join("urn-namespaces.xml").to_str().unwrap()],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let again = dir.path().join("xml-2");
    export(&fresh, "xml", &again);
    assert!(files(&out) == files(&again));
}

/// Runs `xmllint --relaxng` on `xml` against IANA's `urn-namespaces.rng`
/// (`tests/data/iana/`, verbatim) and our stand-in for the shared IANA
/// patterns it includes (`tests/data/_support/`).
fn relaxng_problems(xmllint: &Path, xml: &Path) -> Option<String> {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iana/urn-namespaces.rng");
    let out = std::process::Command::new(xmllint)
        .args(["--noout", "--relaxng"])
        .arg(&schema)
        .arg(xml)
        .output()
        .expect("run xmllint");
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn xml_exports_validate_against_the_iana_relax_ng_schema() {
    let Some(xmllint) = crate::util::external_tool(
        &["xmllint"],
        "URNREG_XMLLINT",
        "xml_exports_validate_against_the_iana_relax_ng_schema",
    ) else {
        return;
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iana/urn-namespaces.xml");
    assert_eq!(relaxng_problems(&xmllint, &data), None, "IANA's own XML");
    let dir = tempfile::tempdir().unwrap();
    // The shipped registry, and one with local registrations and requests.
    let busy = busy_database(dir.path());
    for (db, name) in [(dir.path().join("new.db"), "shipped"), (busy, "busy")] {
        let out = dir.path().join(name);
        export(&db, "xml", &out);
        let xml = out.join("urn-namespaces.xml");
        assert_eq!(relaxng_problems(&xmllint, &xml), None, "{name}");
    }
    // The check can fail: a record without its name does not validate.
    let broken = dir.path().join("broken.xml");
    let text = fs::read_to_string(&data).unwrap();
    fs::write(
        &broken,
        text.replacen("<name>", "<nom>", 1)
            .replacen("</name>", "</nom>", 1),
    )
    .unwrap();
    assert!(relaxng_problems(&xmllint, &broken).is_some());
}

#[test]
fn csv_export_has_one_row_per_namespace() {
    let dir = tempfile::tempdir().unwrap();
    let busy = busy_database(dir.path());
    let out = dir.path().join("csv");
    export(&busy, "csv", &out);
    let text = fs::read_to_string(out.join("urn-namespaces.csv")).unwrap();
    let rows: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(rows[0], urnreg::snapshot::CSV_HEADER);
    assert_eq!(
        rows.len(),
        1 + 105 + 2,
        "header, the shipped NIDs, acme-parts and urn-9"
    );
    let acme: Vec<&str> = rows
        .iter()
        .find(|r| r.starts_with("acme-parts,"))
        .unwrap()
        .split(',')
        .collect();
    // Version 2 is only requested: version 1 is in force.
    assert_eq!(acme[..3], ["acme-parts", "formal", "registered"]);
    assert_eq!(acme[3].len(), 10, "the registration date, YYYY-MM-DD");
    assert_eq!(acme[5], "1");
    assert!(rows.iter().any(|r| r.starts_with("urn-9,informal,registered,")));
    assert!(rows.contains(
        &"isbn,formal,registered,,,2,[https://www.iana.org/assignments/urn-formal/isbn],[https://www.isbn-international.org],"
    ));
    assert!(rows.contains(&"3gpp,formal,registered,,,,,[RFC5279],"));
}
