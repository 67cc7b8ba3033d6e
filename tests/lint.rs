//! `urnreg lint`: one vector per rule (`tests/data/lint/cases.toml`), each
//! a change to a registration that otherwise lints clean.

use urnreg::lint::{LintContext, RULES, lint, vet_request};
use urnreg::registry::{RegistrationFile, Store};

use crate::util::{code, stdout, urnreg};

const BASE: &str = include_str!("data/registrations/formal.toml");

#[derive(serde::Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    rule: String,
    severity: String,
    field: String,
    #[serde(default)]
    set: toml::Table,
    #[serde(default)]
    unset: Vec<String>,
}

fn cases() -> Vec<Case> {
    let cases: Cases = toml::from_str(include_str!("data/lint/cases.toml")).expect("lint vectors parse");
    cases.case
}

fn apply(case: &Case) -> RegistrationFile {
    let mut table: toml::Table = toml::from_str(BASE).unwrap();
    for key in &case.unset {
        table.remove(key);
    }
    for (k, v) in &case.set {
        table.insert(k.clone(), v.clone());
    }
    RegistrationFile::from_toml(&toml::to_string(&table).unwrap()).expect("vector is a registration file")
}

#[test]
fn the_base_registration_lints_clean() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    let file = RegistrationFile::from_toml(BASE).unwrap();
    assert_eq!(lint(&file, &ctx), vec![]);
}

#[test]
fn each_rule_fires_on_its_vector() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    for case in cases() {
        let findings = lint(&apply(&case), &ctx);
        let hit = findings
            .iter()
            .find(|f| f.rule == case.rule && f.field == case.field);
        let Some(hit) = hit else {
            panic!("{} on {}: not found in {findings:#?}", case.rule, case.field);
        };
        let severity = serde_json::to_value(hit.severity).unwrap();
        assert_eq!(severity, case.severity.as_str(), "{}", case.rule);
        assert!(
            hit.section.contains("RFC") || hit.section.contains("draft"),
            "{}: cites no section",
            case.rule
        );
    }
}

/// Rules that no registration file can trigger today, each with the unit
/// test that shows it firing.
const GUARDS: &[(&str, &str)] = &[(
    // The equivalence steps urnreg knows read only the generic key, so they
    // cannot split generic equivalents; the check guards steps added later.
    "rules-merge",
    "lint::rules::tests::a_refiner_that_splits_generic_equivalents_is_caught",
)];

#[test]
fn every_rule_has_a_vector() {
    let cases = cases();
    for rule in RULES {
        if GUARDS.iter().any(|(guard, _)| guard == rule) {
            continue;
        }
        assert!(
            cases.iter().any(|c| c.rule == *rule),
            "no vector for lint rule '{rule}'"
        );
    }
    for case in &cases {
        assert!(
            RULES.contains(&case.rule.as_str()),
            "unknown rule '{}'",
            case.rule
        );
    }
}

#[test]
fn cli_exit_codes_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.toml");
    std::fs::write(&path, BASE.replace("acme-parts", "mailto")).unwrap();
    let p = path.to_str().unwrap();
    // Warnings only: exit 0.
    let out = urnreg(&["lint", p, "--format", "json"], b"");
    assert_eq!(code(&out), 0);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["warnings"], 1);
    assert_eq!(report["findings"][0]["rule"], "nid-uri-scheme");
    assert_eq!(report["findings"][0]["section"], "RFC 8141 section 5.1");
    // Errors: exit 1.
    std::fs::write(&path, BASE.replace("acme-parts", "x-parts")).unwrap();
    let out = urnreg(&["lint", p], b"");
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains(":3:7: error[nid-experimental]: nid:"),
        "{}",
        stdout(&out)
    );
    // A finding is one line (`FILE:LINE:COL: ...`), also when it quotes a
    // parser's message that ends in a line break.
    std::fs::write(&path, format!("{BASE}\n[rules.syntax]\nabnf = \"x\"\n")).unwrap();
    let out = urnreg(&["lint", p], b"");
    let finding = stdout(&out)
        .lines()
        .find(|l| l.contains("error[rules]"))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{}", stdout(&out)));
    assert!(
        finding.ends_with("missing field `source` (RFC 8141 section 5)"),
        "{finding}"
    );
    // Broken TOML: exit 2 with the TOML error.
    std::fs::write(&path, "kind = \"formal\"\nnid = \n").unwrap();
    let out = urnreg(&["lint", p], b"");
    assert_eq!(code(&out), 2);
}

#[test]
fn request_refuses_what_lint_calls_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("r.db"), "tester").unwrap();
    let bad = apply(&cases().into_iter().find(|c| c.rule == "syntax-abnf").unwrap());
    let err = vet_request(&store, &bad).unwrap_err().to_string();
    assert!(err.contains("syntax"), "{err}");
    // Warnings do not stop a request.
    let warned = apply(&cases().into_iter().find(|c| c.rule == "nid-uri-scheme").unwrap());
    let vetted = vet_request(&store, &warned).unwrap();
    store.request(&vetted, None, "tester").unwrap();
}

/// Issue "findings a person can read at a glance": a lint finding's message
/// is at most 160 characters, whatever the vector.
#[test]
fn every_lint_message_is_short() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    let mut long = Vec::new();
    for case in cases() {
        for f in lint(&apply(&case), &ctx) {
            if f.message.chars().count() > 160 {
                long.push(format!(
                    "{} ({}): {}",
                    f.rule,
                    f.message.chars().count(),
                    f.message
                ));
            }
        }
    }
    long.sort();
    long.dedup();
    assert!(
        long.is_empty(),
        "{} long messages:\n{}",
        long.len(),
        long.join("\n")
    );
}

/// Findings of 2026-11-29 (historic texts, RFC 6288 and RFC 4926): an RFC
/// 3406 or RFC 2611 text has no field for what RFC 8141 added (Security
/// and Privacy, Interoperability), so the finding says the field is new,
/// not only "required and empty"; and a version or date the importer
/// could not read from Registration Information (`registration date:
/// August 2011`) is quoted in the finding on the missing one.
#[test]
fn rfc3406_form_findings_say_what_rfc8141_added_and_quote_registration_information() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    let mut file = RegistrationFile::from_toml(BASE).unwrap();
    file.interoperability = None;
    file.security_and_privacy = None;
    file.date = None;
    file.rfc3406 = Some(
        [(
            "registration_information".to_string(),
            "registration version number: 1\nregistration date: August 2011".to_string(),
        )]
        .into(),
    );
    let findings = lint(&file, &ctx);
    let message = |rule: &str, field: &str| {
        findings
            .iter()
            .find(|f| f.rule == rule && f.field == field)
            .map(|f| f.message.clone())
            .unwrap_or_default()
    };
    for field in ["interoperability", "security_and_privacy"] {
        let m = message("required-field", field);
        assert!(m.contains("a field RFC 8141 added"), "{field}: {m}");
    }
    let m = message("date", "date");
    assert!(
        m.contains("Registration Information has 'registration date: August 2011'"),
        "{m}"
    );
    // An RFC 8141 file (no RFC 3406 fields) gets the plain finding.
    file.rfc3406 = None;
    let findings = lint(&file, &ctx);
    let m = findings
        .iter()
        .find(|f| f.rule == "required-field" && f.field == "interoperability")
        .map(|f| f.message.clone())
        .unwrap_or_default();
    assert_eq!(m, "required and empty");
}

/// An RFC 3406 text imported as it was fills no Appendix A field: the
/// finding on an empty required field says which RFC 3406 field holds its
/// text (RFC 8141 Appendix C), and, for the two RFC 3406 renamed, RFC
/// 2611's heading.
#[test]
fn a_required_field_names_the_rfc3406_field_that_holds_its_text() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    let mut file = RegistrationFile::from_toml(BASE).unwrap();
    file.syntax = None;
    file.rfc3406 = Some([("syntactic_structure".to_string(), "NSS = 1*DIGIT".to_string())].into());
    let findings = lint(&file, &ctx);
    let syntax = findings
        .iter()
        .find(|f| f.rule == "required-field" && f.field == "syntax")
        .expect("syntax is required");
    assert!(
        syntax.message.contains(
            "'Declaration of syntactic structure' (RFC 2611: 'Declaration of structure') holds its text"
        ),
        "{}",
        syntax.message
    );
    // Findings of 2026-11-27 (historic texts), F5: RFC 3406 section 4
    // renamed two of RFC 2611 section 3's headings; an imported RFC 2611
    // text (ietf, xmlorg) keeps its text under the new name, and the
    // finding names both. The others are the same in both RFCs.
    file.resolution = None;
    file.rfc3406
        .as_mut()
        .unwrap()
        .insert("resolution_process".into(), "None.".into());
    file.registrant = None;
    file.rfc3406
        .as_mut()
        .unwrap()
        .insert("declared_registrant".into(), "ACME".into());
    let findings = lint(&file, &ctx);
    let message = |field: &str| {
        findings
            .iter()
            .find(|f| f.rule == "required-field" && f.field == field)
            .map(|f| f.message.clone())
            .unwrap_or_default()
    };
    assert!(
        message("resolution").contains(
            "'Process for identifier resolution' (RFC 2611: 'Process of identifier resolution') holds its text"
        ),
        "{}",
        message("resolution")
    );
    assert!(
        message("registrant").contains("RFC 3406 'Declared registrant of the namespace' holds its text"),
        "{}",
        message("registrant")
    );
}

/// Section 6.4 asks whether there are known issues and whether resolution
/// is intended: "None are known." and "Not intended." answer it, "None."
/// and "TBD" do not (their vectors are in cases.toml).
#[test]
fn a_short_answer_to_what_section_6_4_asks_is_not_vague() {
    let ctx = LintContext::of(&Store::open_embedded().unwrap()).unwrap();
    let mut file = RegistrationFile::from_toml(BASE).unwrap();
    for (interoperability, resolution) in [
        ("None are known.", "Not intended."),
        ("No known confusions.", "Not resolvable."),
    ] {
        file.interoperability = Some(interoperability.into());
        file.resolution = Some(resolution.into());
        let vague: Vec<_> = lint(&file, &ctx)
            .into_iter()
            .filter(|f| f.rule == "vague-section")
            .collect();
        assert!(vague.is_empty(), "{vague:?}");
    }
}
