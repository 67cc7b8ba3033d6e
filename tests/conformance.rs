//! Data-driven conformance tests: `tests/data/syntax.toml` (RFC 8141
//! section 2, RFC 2141) and `tests/data/equivalence.toml` (section 3).

use serde::Deserialize;
use urnreg::{Syntax, Urn};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SyntaxFile {
    vector: Vec<Vector>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    rule: String,
    input: String,
    #[serde(default)]
    syntax: Option<String>,
    nid: Option<String>,
    nss: Option<String>,
    r: Option<String>,
    q: Option<String>,
    f: Option<String>,
    key: Option<String>,
    error: Option<String>,
    offset: Option<usize>,
    /// Text the error's message must contain.
    message: Option<String>,
    #[serde(default)]
    warnings: Vec<String>,
}

fn load<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks one vector; returns a description of each mismatch.
fn check_vector(v: &Vector) -> Vec<String> {
    let syntax = match v.syntax.as_deref() {
        None | Some("rfc8141") => Syntax::Rfc8141,
        Some("rfc2141") => Syntax::Rfc2141,
        Some(other) => return vec![format!("unknown syntax {other}")],
    };
    let mut problems = Vec::new();
    let mut expect = |what: &str, want: Option<&str>, got: Option<&str>| {
        if want != got {
            problems.push(format!("{what}: expected {want:?}, got {got:?}"));
        }
    };
    match (Urn::parse_with(&v.input, syntax), &v.error) {
        (Ok(urn), None) => {
            expect("nid", v.nid.as_deref(), Some(urn.nid()));
            expect("nss", v.nss.as_deref(), Some(urn.nss()));
            expect("r", v.r.as_deref(), urn.r_component());
            expect("q", v.q.as_deref(), urn.q_component());
            expect("f", v.f.as_deref(), urn.f_component());
            expect("key", v.key.as_deref(), Some(&urn.equivalence_key()));
            let warnings: Vec<_> = urn.warnings().iter().map(|w| w.kind.code()).collect();
            if warnings != v.warnings {
                problems.push(format!("warnings: expected {:?}, got {warnings:?}", v.warnings));
            }
        }
        (Ok(urn), Some(kind)) => problems.push(format!("expected error {kind}, parsed as {urn:?}")),
        (Err(err), None) => problems.push(format!("expected a valid URN, got error: {err}")),
        (Err(err), Some(kind)) => {
            if err.kind().code() != kind {
                problems.push(format!(
                    "expected error {kind}, got {} ({err})",
                    err.kind().code()
                ));
            }
            if let Some(want) = &v.message
                && !err.to_string().contains(want.as_str())
            {
                problems.push(format!("expected a message with {want:?}, got {err}"));
            }
            if Some(err.offset()) != v.offset {
                problems.push(format!(
                    "expected offset {:?}, got {} ({err})",
                    v.offset,
                    err.offset()
                ));
            }
        }
    }
    problems
}

#[test]
fn syntax_vectors() {
    let file: SyntaxFile = load("syntax.toml");
    assert!(file.vector.len() > 50, "the vector file looks truncated");
    let mut failures = Vec::new();
    for v in &file.vector {
        for p in check_vector(v) {
            failures.push(format!("{} [{}]: {p}", v.input.escape_debug(), v.rule));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing vector checks:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_vector_names_its_rule_and_either_parts_or_error() {
    let file: SyntaxFile = load("syntax.toml");
    for v in &file.vector {
        assert!(!v.rule.is_empty());
        match &v.error {
            Some(_) => assert!(
                v.offset.is_some() && v.nid.is_none() && v.key.is_none(),
                "{}",
                v.input
            ),
            None => assert!(
                v.nid.is_some() && v.nss.is_some() && v.key.is_some() && v.message.is_none(),
                "{}",
                v.input
            ),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EquivalenceFile {
    class: Vec<Class>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Class {
    rule: String,
    members: Vec<String>,
}

#[test]
fn rfc8141_section_3_2_equivalence_classes() {
    let file: EquivalenceFile = load("equivalence.toml");
    let all: Vec<(usize, &str, &str)> = file
        .class
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.members.iter().map(move |m| (i, m.as_str(), c.rule.as_str())))
        .collect();
    for &(ci, a, rule) in &all {
        let ua = Urn::parse(a).unwrap_or_else(|e| panic!("{a} [{rule}]: {e}"));
        for &(cj, b, _) in &all {
            let ub = Urn::parse(b).unwrap();
            let same_class = ci == cj;
            assert_eq!(ua.is_equivalent(&ub), same_class, "{a} vs {b} [{rule}]");
            assert_eq!(ua == ub, same_class, "== for {a} vs {b}");
            assert_eq!(
                ua.equivalence_key() == ub.equivalence_key(),
                same_class,
                "keys of {a} vs {b}"
            );
        }
    }
}

#[test]
fn hash_agrees_with_equivalence() {
    use std::collections::HashSet;
    let file: EquivalenceFile = load("equivalence.toml");
    let mut set = HashSet::new();
    for c in &file.class {
        for m in &c.members {
            set.insert(Urn::parse(m).unwrap());
        }
    }
    assert_eq!(set.len(), file.class.len());
}

/// Directives in the r-component (`tests/data/directives.toml`, the 2012
/// URN draft section 2.3), through the checker and its JSON.
#[test]
fn directive_vectors() {
    #[derive(serde::Deserialize)]
    struct File {
        case: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Case {
        why: String,
        urn: String,
        directives: Vec<[String; 2]>,
        warnings: Vec<String>,
    }
    let file: File = toml::from_str(include_str!("data/directives.toml")).unwrap();
    assert!(file.case.len() >= 10);
    let mut checker = urnreg::Checker::new(urnreg::Registry::embedded());
    for case in &file.case {
        let report = checker.check_str(&case.urn);
        assert!(report.is_valid(), "{}: {}", case.why, case.urn);
        assert_eq!(
            report.key().as_deref(),
            Some(
                report
                    .urn()
                    .unwrap()
                    .equivalence_key_with(report.namespace().unwrap().rules().unwrap().unwrap())
                    .as_ref()
            ),
            "{}",
            case.why
        );
        let warnings: Vec<String> = report
            .warnings()
            // The directives' own warnings: not the namespace's SHOULDs.
            .filter(|w| w.code() != "r-component" && w.code() != "nss-should")
            .map(|w| format!("{}@{}", w.code(), w.offset()))
            .collect();
        assert_eq!(warnings, case.warnings, "{}: {}", case.why, case.urn);
        let mut json = Vec::new();
        report.write_json(&mut json, None);
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let listed: Vec<[String; 2]> = v["directives"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|d| {
                        [
                            d["keyword"].as_str().unwrap().to_string(),
                            d["value"].as_str().unwrap().to_string(),
                        ]
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(listed, case.directives, "{}: {}", case.why, case.urn);
    }
}

/// Issue 22: resolution vectors (`tests/data/resolve.toml`), through
/// `Registry::resolve`.
#[test]
fn resolution_vectors() {
    #[derive(serde::Deserialize)]
    struct File {
        case: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Case {
        why: String,
        urn: String,
        #[serde(default)]
        service: Option<String>,
        #[serde(default)]
        urls: Vec<String>,
        #[serde(default)]
        error: Option<String>,
        /// A word the note on the resolution must hold (none: no note).
        #[serde(default)]
        note: Option<String>,
    }
    /// `{N*text}` written out N times: a long URN or URL in a vector
    /// (`{` is in no URN, and is encoded in every URL given).
    fn repeated(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(at) = rest.find('{') {
            out.push_str(&rest[..at]);
            let end = rest[at..].find('}').unwrap() + at;
            let (n, text) = rest[at + 1..end].split_once('*').unwrap();
            out.push_str(&text.repeat(n.parse().unwrap()));
            rest = &rest[end + 1..];
        }
        out + rest
    }
    let file: File = toml::from_str(include_str!("data/resolve.toml")).unwrap();
    assert!(file.case.len() >= 15);
    let registry = urnreg::Registry::embedded();
    for case in &file.case {
        let urn = repeated(&case.urn);
        match (registry.resolve(&urn, case.service.as_deref()), &case.error) {
            (Ok(r), None) => {
                let urls: Vec<String> = case.urls.iter().map(|u| repeated(u)).collect();
                assert_eq!(r.urls, urls, "{}", case.why);
                match (&r.note, &case.note) {
                    (None, None) => {}
                    (Some(note), Some(word)) => assert!(note.contains(word.as_str()), "{}: {note}", case.why),
                    (got, _) => panic!("{}: note {got:?}", case.why),
                }
            }
            (Err(e), Some(kind)) => assert_eq!(e.code(), kind, "{}: {e}", case.why),
            (got, _) => panic!("{}: {} gave {got:?}", case.why, case.urn),
        }
    }
}
