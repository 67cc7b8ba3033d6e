//! Registry snapshots (`urnreg export` / `urnreg import`): the shipped
//! registry exported byte for byte, lossless round trips, and corrupt,
//! truncated or tampered snapshots refused with the database untouched.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use urnreg::lint::{vet_request, vet_revision};
use urnreg::registry::{Decision, RegistrationFile, Store};

use crate::util::{code, stderr, stdout, urnreg, urnreg_with_env};

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
        .request(
            &vet_request(&store, &registration("formal.toml")).unwrap(),
            Some("formal.toml"),
            "alice",
        )
        .unwrap();
    store
        .review("acme-parts", Decision::Approve, "Fine.", "expert")
        .unwrap();
    store
        .revise(
            "acme-parts",
            &vet_revision(&store, "acme-parts", &registration("revision.toml")).unwrap(),
            None,
            "alice",
        )
        .unwrap();
    // A second informal request, with a text of its own (the same text
    // twice is refused).
    let mut second = registration("informal.toml");
    second.purpose = Some("Names the drafts of another research group.".into());
    let sent_back = store
        .request(&vet_request(&store, &second).unwrap(), None, "bob")
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
        .request(
            &vet_request(&store, &registration("informal.toml")).unwrap(),
            None,
            "bob",
        )
        .unwrap();
    store
        .review(&informal.id.to_string(), Decision::Approve, "Assigned.", "expert")
        .unwrap();
    let mut other = registration("formal.toml");
    other.nid = Some("acme-tools".into());
    let rejected = store
        .request(&vet_request(&store, &other).unwrap(), None, "carol")
        .unwrap();
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
        let mut third = registration("informal.toml");
        third.purpose = Some("Names the drafts of a third research group.".into());
        let again = store
            .request(&vet_request(&store, &third).unwrap(), None, "bob")
            .unwrap();
        let done = store
            .review(&again.id.to_string(), Decision::Approve, "ok", "e")
            .unwrap();
        // urn-9 went to the busy database's informal namespace.
        assert_eq!(done.nid.as_deref(), Some("urn-10"), "{format}");
    }
    let json = fs::read_to_string(dir.path().join("json-1/registry.json")).unwrap();
    assert!(json.contains("\"schema\": 3") && json.contains("\"format\": \"urnreg-snapshot\""));
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
    // Truncated JSON without its manifest: no manifest, no import.
    let t2 = copy(&t, "truncated-unsigned");
    fs::remove_file(t2.join("SHA256SUMS")).unwrap();
    cases.push((t2, "no SHA256SUMS"));
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
    // The database now equals the shipped registry, but for urn-9: it was
    // assigned, so the export says it may not be handed out again.
    let after = dir.path().join("after");
    export(&busy, "toml", &after);
    let (mut got, mut want) = (files(&after), files(&shipped));
    assert_eq!(
        String::from_utf8(got.remove("_sequence.toml").unwrap()).unwrap(),
        "# The highest informal number ever assigned (RFC 8141 section 5.2): never handed out again.\n\
         last_informal = 9\n"
    );
    got.remove("SHA256SUMS");
    want.remove("SHA256SUMS");
    assert!(got == want);
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
fn export_force_replaces_only_a_previous_export_never_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let export_to = |db: &Path, format: &str, out: &Path, force: bool| {
        let mut args = vec!["export", "--format", format, "--out", out.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        run(db, &args)
    };
    // The database's own directory: `export --out d --force` used to
    // delete the live database with everything else in d.
    let d = dir.path().join("d");
    let db = d.join("r.db");
    assert_eq!(code(&run(&db, &["init"])), 0);
    fs::write(d.join("notes.txt"), "mine").unwrap();
    let before: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let out = export_to(&db, "json", &d, true);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("holds the database"), "{}", stderr(&out));
    let after: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after);
    assert_eq!(
        code(&run(&db, &["ns", "show", "isbn"])),
        0,
        "the database still works"
    );
    // Anything that is not a previous export is refused, with or without --force.
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    fs::write(out_dir.join("keep.txt"), "mine").unwrap();
    let out = export_to(&db, "json", &out_dir, false);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--force"));
    let out = export_to(&db, "json", &out_dir, true);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no SHA256SUMS"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(out_dir.join("keep.txt")).unwrap(), "mine");
    // A previous export is replaced, whatever its format.
    fs::remove_file(out_dir.join("keep.txt")).unwrap();
    assert_eq!(code(&export_to(&db, "html", &out_dir, false)), 0);
    assert_eq!(code(&export_to(&db, "html", &out_dir, true)), 0);
    let out = export_to(&db, "json", &out_dir, true);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        files(&out_dir).keys().collect::<Vec<_>>(),
        ["SHA256SUMS", "registry.json"]
    );
    // ... but not once something was added to it, or changed in it.
    fs::write(out_dir.join("README"), "mine").unwrap();
    let out = export_to(&db, "toml", &out_dir, true);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("README, which no urnreg export wrote"),
        "{}",
        stderr(&out)
    );
    fs::remove_file(out_dir.join("README")).unwrap();
    let json = out_dir.join("registry.json");
    let edited = fs::read_to_string(&json).unwrap().replacen("ISBN", "I5BN", 1);
    fs::write(&json, &edited).unwrap();
    let out = export_to(&db, "toml", &out_dir, true);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("does not match its checksum"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&json).unwrap(), edited);
    // A symbolic link is not replaced by a directory.
    #[cfg(unix)]
    {
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&out_dir, &link).unwrap();
        let out = export_to(&db, "json", &link, true);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    }
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
    use urnreg::snapshot::xml::read_registry;
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

// --- Hostile snapshots (tests/data/hostile-snapshots/cases.toml) -------------

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HostileCases {
    case: Vec<HostileCase>,
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HostileCase {
    name: String,
    base: String,
    file: Option<String>,
    #[serde(default)]
    edit: Vec<[String; 2]>,
    #[serde(default)]
    add: Vec<AddedFile>,
    generate: Option<String>,
    sign: Option<String>,
    manifest: Option<String>,
    manifest_append: Option<String>,
    manifest_append_byte: Option<u8>,
    #[serde(default)]
    special: Vec<Special>,
    expect: String,
    forbid: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AddedFile {
    name: String,
    text: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Special {
    name: String,
    kind: String,
    target: Option<String>,
    size: Option<u64>,
    listed: Option<bool>,
}

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile-snapshots")
}

/// The file a base snapshot is mostly made of.
fn main_file(base: &str) -> &'static str {
    match base {
        "base-json" => "registry.json",
        "base-xml" => "urn-namespaces.xml",
        _ => "_registry.toml",
    }
}

/// Writes `SHA256SUMS` for the regular files of `dir`.
fn sign(dir: &Path) {
    let mut f = files(dir);
    f.remove("SHA256SUMS");
    fs::write(dir.join("SHA256SUMS"), urnreg::snapshot::manifest(&f)).unwrap();
}

/// Builds the snapshot directory of `case` in `dir`.
fn build_case(case: &HostileCase, dir: &Path) {
    fs::create_dir(dir).unwrap();
    for (name, bytes) in files(&hostile_dir().join(&case.base)) {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let sign_when = case.sign.as_deref().unwrap_or("after-edits");
    assert!(
        ["after-edits", "before-edits", "none"].contains(&sign_when),
        "{}: sign = {sign_when}",
        case.name
    );
    if sign_when == "before-edits" {
        sign(dir);
    }
    let file = dir.join(case.file.as_deref().unwrap_or(main_file(&case.base)));
    let mut text = fs::read_to_string(&file).unwrap();
    for [find, replace] in &case.edit {
        assert!(
            text.contains(find.as_str()),
            "{}: {find:?} is not in the base",
            case.name
        );
        text = text.replacen(find.as_str(), replace, 1);
    }
    const DEPTH: usize = 200_000;
    match case.generate.as_deref() {
        None => {}
        Some("deep-xml") => {
            text = format!(
                "<registry xmlns=\"http://www.iana.org/assignments\" id=\"urn-namespaces\">{}{}</registry>\n",
                "<x>".repeat(DEPTH),
                "</x>".repeat(DEPTH)
            );
        }
        Some("deep-json") => {
            text = format!(
                "{{\"format\": \"urnreg-snapshot\", \"schema\": 2, \"registry\": {}{}}}\n",
                "[".repeat(DEPTH),
                "]".repeat(DEPTH)
            );
        }
        Some("deep-toml") => text = format!("request = {}{}\n", "[".repeat(DEPTH), "]".repeat(DEPTH)),
        Some("many-attributes-xml") => {
            let attrs: String = (0..80_000).map(|i| format!(" a{i}=\"x\"")).collect();
            let at = text.find("<record").expect("a record") + "<record".len();
            text.insert_str(at, &attrs);
        }
        // A request's purpose past the 1 MiB a registration may hold.
        Some("oversize-text") => {
            let at = text.find("\"purpose\": \"").expect("a purpose") + "\"purpose\": \"".len();
            text.insert_str(at, &"a".repeat(urnreg::registry::MAX_REGISTRATION_BYTES + 1));
        }
        Some(other) => panic!("{}: generate = {other}", case.name),
    }
    fs::write(&file, text).unwrap();
    for added in &case.add {
        fs::write(dir.join(&added.name), &added.text).unwrap();
    }
    if sign_when == "after-edits" {
        sign(dir);
    }
    let manifest = dir.join("SHA256SUMS");
    for special in &case.special {
        let path = dir.join(&special.name);
        let _ = fs::remove_file(&path);
        match special.kind.as_str() {
            #[cfg(unix)]
            "fifo" => {
                let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
                assert!(made.success(), "mkfifo");
            }
            #[cfg(unix)]
            "symlink" => {
                std::os::unix::fs::symlink(special.target.as_deref().unwrap(), &path).unwrap();
            }
            "directory" => fs::create_dir(&path).unwrap(),
            "sparse" => fs::File::create(&path)
                .unwrap()
                .set_len(special.size.unwrap())
                .unwrap(),
            other => panic!("{}: special kind {other}", case.name),
        }
        let listed = fs::read_to_string(&manifest).unwrap_or_default();
        if special.listed.unwrap_or(true) && !listed.contains(&format!("  {}\n", special.name)) {
            let line = format!("{}  {}\n", "0".repeat(64), special.name);
            fs::write(&manifest, listed + &line).unwrap();
        }
    }
    match case.manifest.as_deref().unwrap_or("file") {
        "file" => {}
        "absent" => fs::remove_file(&manifest).unwrap(),
        "directory" => {
            let _ = fs::remove_file(&manifest);
            fs::create_dir(&manifest).unwrap();
        }
        #[cfg(unix)]
        "dangling-symlink" => {
            let _ = fs::remove_file(&manifest);
            std::os::unix::fs::symlink(dir.join("no-such-file"), &manifest).unwrap();
        }
        other => panic!("{}: manifest = {other}", case.name),
    }
    let mut extra = case.manifest_append.clone().unwrap_or_default().into_bytes();
    extra.extend(case.manifest_append_byte);
    if !extra.is_empty() {
        let mut bytes = fs::read(&manifest).unwrap();
        bytes.extend(extra);
        fs::write(&manifest, bytes).unwrap();
    }
}

/// Runs urnreg on `db`, killed after `limit`: an import that hangs (on a
/// FIFO) fails the test instead of stalling it. Output goes to files, so a
/// full pipe cannot stall it either.
fn run_limited(db: &Path, args: &[&str], limit: std::time::Duration) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(args)
        .args(["--db", db.to_str().unwrap()])
        .env("USER", "tester")
        .stdin(std::process::Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return (-1, format!("still running after {limit:?}: killed"));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let text = fs::read_to_string(&err).unwrap_or_default();
    (status.code().unwrap_or(-1), text)
}

#[test]
fn hostile_snapshots_are_refused_unopened_and_change_nothing() {
    let cases: HostileCases =
        toml::from_str(&fs::read_to_string(hostile_dir().join("cases.toml")).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("target.db");
    assert_eq!(code(&run(&db, &["init"])), 0);
    let before = content(&db);
    let limit = std::time::Duration::from_secs(20);
    // The bases as they are import (a dry run, to keep the database).
    for base in ["base-json", "base-toml", "base-xml"] {
        let snap = dir.path().join(format!("control-{base}"));
        build_case(
            &HostileCase {
                name: base.into(),
                base: base.into(),
                ..HostileCase::default()
            },
            &snap,
        );
        let (code, err) = run_limited(
            &db,
            &["import", snap.to_str().unwrap(), "--replace", "--dry-run"],
            limit,
        );
        assert_eq!(code, 0, "{base} does not import: {err}");
    }
    let mut failures = Vec::new();
    for (i, case) in cases.case.iter().enumerate() {
        let snap = dir.path().join(format!("case-{i}"));
        build_case(case, &snap);
        let (code, err) = run_limited(&db, &["import", snap.to_str().unwrap(), "--replace"], limit);
        if code != 2 || !err.contains(&case.expect) {
            failures.push(format!(
                "{}: exit {code}, expected 2 and '{}' in:\n{err}",
                case.name, case.expect
            ));
        }
        if let Some(forbidden) = case.forbid.as_deref().filter(|f| err.contains(*f)) {
            failures.push(format!("{}: the error quotes '{forbidden}':\n{err}", case.name));
        }
        if content(&db) != before {
            failures.push(format!("{}: the database changed", case.name));
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// --- What snapshots carry: the informal sequence, request ids ---------------

/// Approves a new informal request in `db`, with a text of its own (the
/// same text twice is refused); returns the NID assigned.
fn assign_informal(db: &Path) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mut store = Store::open(db, "t").unwrap();
    let mut file = registration("informal.toml");
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    file.purpose = Some(format!("Names the drafts of research group {n}."));
    let filed = store
        .request(&vet_request(&store, &file).unwrap(), None, "bob")
        .unwrap();
    store
        .review(&filed.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap()
        .nid
        .unwrap()
}

#[test]
fn restored_registries_never_hand_out_an_informal_number_again_rfc8141_section_5_2() {
    let dir = tempfile::tempdir().unwrap();
    // urn-9 is assigned, then dropped by importing the shipped registry.
    let busy = busy_database(dir.path());
    let shipped = dir.path().join("shipped");
    export(&dir.path().join("plain.db"), "toml", &shipped);
    let out = run(&busy, &["import", shipped.to_str().unwrap(), "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for format in ["json", "toml"] {
        let snap = dir.path().join(format!("{format}-snap"));
        export(&busy, format, &snap);
        let fresh = dir.path().join(format!("{format}-fresh.db"));
        let out = run(&fresh, &["import", snap.to_str().unwrap(), "--replace"]);
        assert_eq!(code(&out), 0, "{format}: {}", stderr(&out));
        assert_eq!(assign_informal(&fresh), "urn-10", "{format}");
    }
}

/// `(request id, version, status)` of every version of `nid` in `db`.
fn version_ids(db: &Path, nid: &str) -> Vec<(i64, i64, String)> {
    let out = run(db, &["ns", "history", nid, "--format", "json"]);
    let history: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    history["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["id"].as_i64().unwrap(),
                v["version"].as_i64().unwrap(),
                v["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn snapshots_keep_request_ids() {
    let dir = tempfile::tempdir().unwrap();
    let busy = busy_database(dir.path());
    let held = version_ids(&busy, "acme-parts");
    let pending = held.iter().find(|v| v.2 == "submitted").unwrap().0;
    for format in ["json", "toml"] {
        let snap = dir.path().join(format!("{format}-snap"));
        export(&busy, format, &snap);
        let fresh = dir.path().join(format!("{format}-fresh.db"));
        let out = run(&fresh, &["import", snap.to_str().unwrap(), "--replace"]);
        assert_eq!(code(&out), 0, "{format}: {}", stderr(&out));
        assert_eq!(version_ids(&fresh, "acme-parts"), held, "{format}");
        // The pending revision is reviewed under the id it was filed with.
        let out = run(
            &fresh,
            &["review", &pending.to_string(), "--approve", "--note", "ok"],
        );
        assert_eq!(code(&out), 0, "{format}: {}", stderr(&out));
        assert!(
            version_ids(&fresh, "acme-parts").contains(&(pending, 2, "approved".into())),
            "{format}"
        );
        // New requests get new ids.
        let mut store = Store::open(&fresh, "t").unwrap();
        let mut other = registration("formal.toml");
        other.nid = Some("acme-bolts".into());
        let filed = store
            .request(&vet_request(&store, &other).unwrap(), None, "carol")
            .unwrap();
        assert!(filed.id > pending, "{format}: {} after {pending}", filed.id);
    }
}

#[test]
fn schema_1_snapshots_without_sequence_or_ids_still_import() {
    let dir = tempfile::tempdir().unwrap();
    let busy = busy_database(dir.path());
    let snap = dir.path().join("snap");
    export(&busy, "json", &snap);
    let path = snap.join("registry.json");
    let mut doc: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    doc["schema"] = 1.into();
    doc.as_object_mut().unwrap().remove("last_informal").unwrap();
    let mut removed = 0;
    let mut strip = |versions: &mut serde_json::Value| {
        for v in versions.as_array_mut().into_iter().flatten() {
            removed += usize::from(v.as_object_mut().unwrap().remove("id").is_some());
        }
    };
    strip(&mut doc["requests"]);
    for record in doc["records"].as_array_mut().unwrap() {
        if let Some(filed) = record.get_mut("filed") {
            strip(filed);
        }
    }
    assert_eq!(removed, 5, "every filed version had its id");
    fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    sign(&snap);
    let fresh = dir.path().join("fresh.db");
    let out = run(&fresh, &["import", snap.to_str().unwrap(), "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(version_ids(&fresh, "acme-parts").len(), 2);
    // Without a sequence, the highest number held is the sequence.
    assert_eq!(assign_informal(&fresh), "urn-10");
    // The same snapshot into the database it came from changes nothing.
    let out = run(&busy, &["import", snap.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("0 added, 0 changed, 0 removed"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_informal_sequence_ends_cleanly_at_its_limit() {
    use urnreg::registry::MAX_INFORMAL_NUMBER;
    let dir = tempfile::tempdir().unwrap();
    let last = format!("urn-{MAX_INFORMAL_NUMBER}");
    let text = fs::read_to_string(hostile_dir().join("base-json/registry.json"))
        .unwrap()
        .replace("\"urn-9\"", &format!("\"{last}\""))
        .replace(
            "\"last_informal\": 9",
            &format!("\"last_informal\": {MAX_INFORMAL_NUMBER}"),
        );
    let snap = dir.path().join("snap");
    fs::create_dir(&snap).unwrap();
    fs::write(snap.join("registry.json"), text).unwrap();
    sign(&snap);
    let db = dir.path().join("r.db");
    let out = run(&db, &["import", snap.to_str().unwrap(), "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&db, &["ns", "show", &last]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut store = Store::open(&db, "t").unwrap();
    let mut file = registration("informal.toml");
    file.purpose = Some("Names the drafts of one group too many.".into());
    let filed = store
        .request(&vet_request(&store, &file).unwrap(), None, "bob")
        .unwrap();
    let refused = store
        .review(&filed.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("exhausted") && refused.contains("MAX_INFORMAL_NUMBER"),
        "{refused}"
    );
    // Refused, not half done: the request still waits.
    let out = run(
        &db,
        &["review", &filed.id.to_string(), "--reject", "--note", "full"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

// --- Output that stays what it claims to be ---------------------------------

/// Returns true if and only if `c` may appear in an XML 1.0 document (XML
/// 1.0 section 2.2, `Char`), written out here independently of urnreg's own.
fn xml_1_0_char(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

#[test]
fn xml_exports_are_well_formed_whatever_a_registrant_typed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mut store = Store::open(&db, "t").unwrap();
    let mut file = registration("informal.toml");
    file.registrant =
        Some("Evil\u{1} Co \u{1b}[31m\u{ffff} <evil\u{1}x@example.org> evil@example.org".into());
    let filed = store
        .request(&vet_request(&store, &file).unwrap(), None, "mallory")
        .unwrap();
    let nid = store
        .review(&filed.id.to_string(), Decision::Approve, "ok", "e")
        .unwrap()
        .nid
        .unwrap();
    drop(store);
    let out = dir.path().join("xml");
    export(&db, "xml", &out);
    let xml = fs::read_to_string(out.join("urn-namespaces.xml")).unwrap();
    assert!(xml.chars().all(xml_1_0_char), "a character XML 1.0 cannot hold");
    let (_, records) = urnreg::snapshot::xml::read_registry(&xml).unwrap();
    let record = records.iter().find(|r| r.nid == nid).unwrap();
    let person = record.contacts[0].person.as_ref().unwrap();
    assert_eq!(person.name, "Evil Co [31m");
    assert_eq!(person.uri.as_deref(), Some("mailto:evil&example.org"));
    if let Some(xmllint) = crate::util::external_tool(
        &["xmllint"],
        "URNREG_XMLLINT",
        "xml_exports_are_well_formed_whatever_a_registrant_typed",
    ) {
        let xml = out.join("urn-namespaces.xml");
        assert_eq!(relaxng_problems(&xmllint, &xml), None);
    }
}

#[test]
fn markdown_renders_nid_and_date_as_text_never_html() {
    let dir = tempfile::tempdir().unwrap();
    let mut file: toml::Table = toml::from_str(&fs::read_to_string(data("formal.toml")).unwrap()).unwrap();
    file.insert("nid".into(), "<img src=x onerror=alert(1)>|`x`".into());
    file.insert(
        "date".into(),
        "<script>alert(1)</script>\n| injected | row |".into(),
    );
    let path = dir.path().join("evil.toml");
    fs::write(&path, toml::to_string(&file).unwrap()).unwrap();
    let out = urnreg(
        &["template", "render", path.to_str().unwrap(), "--form", "markdown"],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let md = stdout(&out);
    // Every `<` is escaped: Markdown passes no HTML through.
    assert!(!md.replace("\\<", "").contains('<'), "{md}");
    assert!(
        md.contains("# urn:\\<img src\\=x onerror\\=alert\\(1\\)\\>\\|\\`x\\`\n"),
        "{md}"
    );
    assert!(
        md.contains("| Date | \\<script\\>alert\\(1\\)\\</script\\> \\| injected \\| row \\| |\n"),
        "{md}"
    );
    // A NID as NIDs are keeps its code span.
    let out = urnreg(
        &[
            "template",
            "render",
            data("formal.toml").to_str().unwrap(),
            "--form",
            "markdown",
        ],
        b"",
    );
    assert!(stdout(&out).contains("| Namespace Identifier | `acme-parts` |"));
}

/// A snapshot is a registry to validate against: its namespaces with their
/// rules in force (the Python binding's `Registry.from_path` reads one).
#[test]
fn a_snapshot_validates_as_its_registry() {
    let store = Store::open_embedded().unwrap();
    let mut snapshot = store.snapshot().unwrap();
    let from_snapshot = snapshot.registry();
    let embedded = urnreg::Registry::embedded();
    for urn in [
        "urn:isbn:0451450523",
        "urn:isbn:0451450524",
        "URN:ISSN:0167-6423",
        "urn:nbn:de:gbv:089-3321752946",
        "urn:nope:x",
    ] {
        let (a, b) = (from_snapshot.check(urn), embedded.check(urn));
        assert_eq!((a.is_valid(), a.key()), (b.is_valid(), b.key()), "{urn}");
    }
    assert_eq!(from_snapshot.len(), embedded.len());
    // Its own sub-registries, and a withdrawn namespace stays withdrawn.
    snapshot.query.as_mut().unwrap().keywords.truncate(1);
    snapshot.records[0].status = Some("withdrawn".into());
    let changed = snapshot.registry();
    assert!(changed.query().keyword("c").is_none());
    assert_eq!(
        changed.namespace(&snapshot.records[0].nid).unwrap().status(),
        urnreg::Status::Withdrawn
    );
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundTrips {
    defaults: RoundTripDefaults,
    case: Vec<RoundTripCase>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundTripDefaults {
    compare: Vec<Vec<String>>,
    compare_xml: Vec<Vec<String>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundTripCase {
    name: String,
    formats: Vec<String>,
    show: Vec<String>,
    setup: Vec<Vec<String>>,
    #[serde(default)]
    file: Vec<AddedFile>,
}

/// What `urnreg ARGS` prints (both streams) with its exit code.
fn printed(db: &Path, args: &[&str]) -> String {
    let out = run(db, args);
    format!("exit {}\n{}{}", code(&out), stdout(&out), stderr(&out))
}

/// Registries built by hand (`tests/data/roundtrip/cases.toml`) read the
/// same after export and import into a fresh database, in every format
/// that carries them: `ns list`, `ns show`, the queue and the
/// sub-registries print the same.
#[test]
fn export_then_import_gives_the_same_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let cases: RoundTrips = toml::from_str(&fs::read_to_string(root.join("roundtrip/cases.toml")).unwrap())
        .expect("tests/data/roundtrip/cases.toml");
    for case in &cases.case {
        let dir = tempfile::tempdir().unwrap();
        let fill = |arg: &str| {
            arg.replace("{dir}", dir.path().to_str().unwrap())
                .replace("{data}", root.to_str().unwrap())
        };
        for f in &case.file {
            fs::write(dir.path().join(&f.name), &f.text).unwrap();
        }
        let db = dir.path().join("source.db");
        for step in &case.setup {
            let args: Vec<String> = step.iter().map(|a| fill(a)).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&db, &args);
            assert_eq!(code(&out), 0, "{}: {args:?}: {}", case.name, stderr(&out));
        }
        for format in &case.formats {
            let snap = dir.path().join(format!("snap-{format}"));
            export(&db, format, &snap);
            let fresh = dir.path().join(format!("{format}.db"));
            let out = run(&fresh, &["import", snap.to_str().unwrap()]);
            assert_eq!(code(&out), 0, "{} ({format}): {}", case.name, stderr(&out));
            let compare = if format == "xml" {
                &cases.defaults.compare_xml
            } else {
                &cases.defaults.compare
            };
            for command in compare {
                let nids: Vec<&str> = if command.iter().any(|a| a == "{nid}") {
                    case.show.iter().map(String::as_str).collect()
                } else {
                    vec![""]
                };
                for nid in nids {
                    let args: Vec<String> = command.iter().map(|a| a.replace("{nid}", nid)).collect();
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    assert_eq!(
                        printed(&db, &args),
                        printed(&fresh, &args),
                        "{} ({format}): `urnreg {}` differs after the round trip",
                        case.name,
                        args.join(" ")
                    );
                }
            }
        }
    }
}

/// A toml snapshot that only changes a request's id in `_requests.toml`:
/// the plan, the refusal and the report of `--replace` name the request
/// dropped and the one added (found in hostile testing).
#[test]
fn a_changed_request_id_is_planned_as_a_request_dropped_and_one_added() {
    let dir = tempfile::tempdir().unwrap();
    let busy = busy_database(dir.path());
    let snap = dir.path().join("snap");
    export(&busy, "toml", &snap);
    let path = snap.join(urnreg::snapshot::REQUESTS_FILE);
    let text = fs::read_to_string(&path).unwrap();
    let line = text.lines().find(|l| l.starts_with("id = ")).unwrap();
    let old: i64 = line["id = ".len()..].parse().unwrap();
    let new = old + 100_000;
    fs::write(&path, text.replacen(line, &format!("id = {new}"), 1)).unwrap();
    sign(&snap);
    let snap = snap.to_str().unwrap();
    let out = run(&busy, &["import", snap, "--dry-run"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let plan = stdout(&out);
    assert!(
        plan.lines().any(|l| l.starts_with(&format!("- request {old} (")))
            && plan.lines().any(|l| l.starts_with(&format!("+ request {new} (")))
            && plan.contains("1 request(s) added, 1 request(s) dropped (changes what"),
        "{plan}"
    );
    let before = content(&busy);
    let out = run(&busy, &["import", snap]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        !err.contains("would  ")
            && err.contains("would drop 1 request(s) the database holds")
            && err.contains(&format!("dropped: request {old} ("))
            && err.contains(&format!("added: request {new} (")),
        "{err}"
    );
    assert_eq!(content(&busy), before, "refused: nothing changed");
    let out = run(&busy, &["import", snap, "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out)
            .contains("imported: 0 added, 0 changed, 0 removed, 1 request(s) added, 1 request(s) dropped"),
        "{}",
        stdout(&out)
    );
}
