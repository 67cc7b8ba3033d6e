//! The rules of a registration (its `[rules]` table): lint offers them for
//! a Syntax field's ABNF, every version keeps its own, and approval puts
//! the approved version's rules in force for `check`, `eq` and `normalize`.

use serde_json::Value;
use urnreg::Registry;
use urnreg::Urn;
use urnreg::lint::{LintContext, lint};
use urnreg::registry::{Decision, Error, Store};

use super::{data, fresh, registration, request, revise, urnreg_db};
use crate::util::{code, stderr, stdout};

const ABNF_SYNTAX: &str = "The NSS is a part number and a variant:\n\n\
    \x20 acme-urn = \"urn:acme-parts:\" part-number \"-\" variant\n\
    \x20 part-number = 1*8DIGIT\n\
    \x20 variant = 1*2DIGIT\n\n\
    Equivalence: RFC 8141 section 3.1 only.";

fn rules_table(toml_text: &str) -> toml::Table {
    toml::from_str(toml_text).unwrap()
}

/// The bug of issue 12: a registration whose Syntax holds an ABNF, linted,
/// filed and approved, and then `check` took any NSS with a generic-rules
/// warning. Lint now refuses it without rules and offers the table; with
/// the table pasted, approval puts it in force.
#[test]
fn an_abnf_in_the_syntax_field_becomes_the_rules_in_force() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let path = dir.path().join("acme.toml");
    let base = std::fs::read_to_string(data("formal.toml")).unwrap();
    let old_syntax = "syntax = \"\"\"\nNSS = part-number, where part-number = 1*8DIGIT.\n\
                      Equivalence: RFC 8141 section 3.1 only. No r-, q- or f-component has a meaning.\"\"\"";
    assert!(base.contains(old_syntax));
    let text = base.replace(old_syntax, &format!("syntax = '''\n{ABNF_SYNTAX}'''"));
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();

    let out = urnreg_db(&db, &["lint", p, "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = &report["findings"][0];
    assert_eq!(finding["rule"], "rules-missing");
    let suggestion = finding["suggestion"].as_str().unwrap().to_string();
    assert!(suggestion.starts_with("[rules]\n"), "{suggestion}");
    let out = urnreg_db(&db, &["request", p]);
    assert_eq!(code(&out), 2, "request refuses what lint calls an error");
    assert!(
        stderr(&out).contains("rules: the Syntax field's ABNF defines the NSS"),
        "{}",
        stderr(&out)
    );
    let out = urnreg_db(&db, &["lint", p]);
    assert!(stdout(&out).contains("  to paste into"), "{}", stdout(&out));

    // Paste the table, with examples.
    let pasted = format!(
        "{text}\n{suggestion}\n[rules.examples]\nvalid = [\"urn:acme-parts:12345678-1\"]\n\
         invalid = [\"urn:acme-parts:12-x\", \"urn:acme-parts:123456789-1\"]\n"
    );
    std::fs::write(&path, pasted).unwrap();
    let out = urnreg_db(&db, &["lint", p]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(code(&urnreg_db(&db, &["request", p])), 0);
    let out = urnreg_db(&db, &["review", "acme-parts", "--approve", "--note", "ok"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let out = urnreg_db(
        &db,
        &[
            "check",
            "--format",
            "jsonl",
            "urn:acme-parts:12-x",
            "urn:acme-parts:42-7",
        ],
    );
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["valid"], false, "{}", stdout(&out));
    assert_eq!(lines[0]["errors"][0]["kind"], "nss-syntax");
    assert_eq!(lines[1]["valid"], true);
    assert_eq!(
        lines[1]["warnings"],
        Value::Array(vec![]),
        "no generic-rules warning"
    );

    let out = urnreg_db(&db, &["ns", "show", "acme-parts", "--format", "json"]);
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["rules"]["syntax"]["start"], "nss");
    assert_eq!(shown["has_rules"], true);
    let out = urnreg_db(&db, &["ns", "show", "acme-parts"]);
    assert!(stdout(&out).contains("rules:      in force, from the acme-parts registration, Syntax"));
    let out = urnreg_db(&db, &["ns", "list", "--format", "json"]);
    let list: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let has = |nid: &str| list.iter().find(|n| n["nid"] == nid).unwrap()["has_rules"].clone();
    // knx's rules are its registration's generic syntax (no `syntax`
    // table), rules all the same; a version without any is below.
    assert_eq!(
        (has("acme-parts"), has("isbn"), has("knx")),
        (Value::Bool(true), Value::Bool(true), Value::Bool(true))
    );
}

/// Each version keeps its own rules; approving a revision puts its rules
/// in force (and a revision without rules leaves none).
#[test]
fn every_version_keeps_its_rules_and_approval_switches_them() {
    let (_dir, mut store) = fresh();
    let mut v1 = registration("formal.toml");
    v1.rules = Some(rules_table(
        "source = \"acme-parts v1, Syntax\"\nsyntax = { abnf = \"nss = 1*8DIGIT\" }\n\
         examples.valid = [\"urn:acme-parts:12345678\"]\nexamples.invalid = [\"urn:acme-parts:123456789\"]",
    ));
    request(&mut store, &v1, "a").unwrap();
    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    let long = Urn::parse("urn:acme-parts:1234567890").unwrap();
    let upper = Urn::parse("urn:acme-parts:ABC").unwrap();
    let v = Registry::from_store(&store).unwrap();
    assert_eq!(
        v.check(long.as_str()).errors().next().unwrap().code(),
        "nss-syntax"
    );

    let mut v2 = registration("revision.toml");
    v2.rules = Some(rules_table(
        "source = \"acme-parts v2, Syntax\"\nsyntax = { abnf = \"nss = 1*10ALPHA / 1*10DIGIT\" }\n\
         equivalence = [{ step = \"case-insensitive-nss\" }]\n\
         examples.equivalent = [[\"urn:acme-parts:ABC\", \"urn:acme-parts:abc\"]]",
    ));
    revise(&mut store, "acme-parts", &v2, "a").unwrap();
    // Pending: version 1's rules stay in force.
    let v = Registry::from_store(&store).unwrap();
    assert!(!v.check(long.as_str()).is_valid());
    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    let v = Registry::from_store(&store).unwrap();
    assert!(
        v.check(long.as_str()).is_valid(),
        "version 2's rules are in force"
    );
    assert_eq!(v.check(upper.as_str()).key().unwrap(), "urn:acme-parts:abc");
    let shown = store.show("acme-parts", None).unwrap();
    assert_eq!(shown.rules.as_ref().unwrap().source, "acme-parts v2, Syntax");
    assert_eq!(
        store
            .show("acme-parts", Some(1))
            .unwrap()
            .registration
            .unwrap()
            .rules
            .unwrap()
            .source,
        "acme-parts v1, Syntax"
    );

    // Version 3 without rules: lint warns, approval leaves none in force.
    let mut v3 = registration("revision.toml");
    v3.version = Some(3);
    let ctx = LintContext::of(&store).unwrap();
    let dropped: Vec<_> = lint(&v3, &ctx)
        .into_iter()
        .filter(|f| f.rule == "rules-dropped")
        .collect();
    assert_eq!(dropped.len(), 1);
    revise(&mut store, "acme-parts", &v3, "a").unwrap();
    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    assert_eq!(store.show("acme-parts", None).unwrap().rules, None);
    let v = Registry::from_store(&store).unwrap();
    assert_eq!(
        v.check(long.as_str()).warnings().next().unwrap().code(),
        "generic-rules"
    );
}

/// The shipped rules belong to the shipped version in force, so a revision
/// made from `ns show --format toml` (or `template new --nid`) keeps them.
#[test]
fn shipped_rules_travel_into_a_revision() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let out = urnreg_db(&db, &["ns", "show", "isbn", "--format", "toml"]);
    let shown = stdout(&out);
    assert!(shown.contains("[rules.syntax]\nbuiltin = \"isbn\""), "{shown}");
    let out = urnreg_db(&db, &["template", "new", "--nid", "isbn"]);
    let skeleton = stdout(&out);
    assert!(
        skeleton.contains("\n[rules]\n") && skeleton.contains("builtin = \"isbn\""),
        "{skeleton}"
    );
    let out = urnreg_db(&db, &["template", "new", "--nid", "acme-parts"]);
    assert!(
        stdout(&out).contains("# [rules]\n"),
        "a new request shows the table commented out"
    );

    let mut store = Store::open(&db, "t").unwrap();
    let mut file = urnreg::registry::RegistrationFile::from_toml(&shown).unwrap();
    file.version = Some(3);
    file.date = Some(urnreg::registry::registration::DateValue::Text(
        "2026-11-30".into(),
    ));
    file.revision_information = Some("Clarified the examples.".into());
    // The 2017 ISBN registration predates RFC 8141's Assignment heading.
    file.assignment
        .get_or_insert_with(|| "ISBNs are assigned by the ISBN registration agencies.".into());
    revise(&mut store, "isbn", &file, "a").unwrap();
    store.review("isbn", Decision::Approve, "ok", "e").unwrap();
    let v = Registry::from_store(&store).unwrap();
    let bad = Urn::parse("urn:isbn:0451450524").unwrap();
    assert_eq!(
        v.check(bad.as_str()).errors().next().unwrap().code(),
        "nss-check",
        "the ISBN check digit still applies"
    );
}

/// Approval compiles the rules it puts in force: a stored rule that does
/// not compile (an older database, a hand edit) is refused, and nothing
/// changes.
#[test]
fn approval_refuses_rules_that_do_not_compile() {
    let (_dir, mut store) = fresh();
    let req = request(&mut store, &registration("formal.toml"), "a").unwrap();
    store
        .connection()
        .execute(
            "INSERT INTO rules (registration_id, body) VALUES (?1, 'source = \"x\"\nsyntax = { abnf = \"nss = y\" }')",
            [req.id],
        )
        .unwrap();
    let before = super::dump(&store);
    let err = store
        .review("acme-parts", Decision::Approve, "ok", "e")
        .unwrap_err();
    assert!(matches!(err, Error::Invalid(_)), "{err}");
    assert!(err.to_string().contains("'y' is not defined"), "{err}");
    assert_eq!(super::dump(&store), before);
}

/// `in_force()` (what the validator reads) gives the rules of the
/// version in force.
#[test]
fn namespace_rules_are_those_of_the_version_in_force() {
    let (_dir, store) = fresh();
    let rows = store.in_force().unwrap();
    let isbn = rows.iter().find(|r| r.nid == "isbn").unwrap();
    assert_eq!(isbn.status.as_str(), "registered");
    let shown = store.show("isbn", None).unwrap();
    assert_eq!(
        shown.registration.unwrap().rules.as_ref(),
        shown.rules.as_ref(),
        "the shipped version in force holds the shipped rules"
    );
    assert_eq!(
        isbn.rules
            .as_deref()
            .map(|t| toml::from_str::<urnreg::rules::RulesFile>(t).unwrap()),
        shown.rules
    );
}
