//! Per-namespace vectors (`tests/data/namespaces/<nid>.toml`) through the
//! validator, and the property that namespace rules only add equivalences
//! (RFC 8141 section 3.1).

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use serde::Deserialize;
use urnreg::Registry;
use urnreg::Urn;
use urnreg::registry::Store;
use urnreg::registry::data::{EMBEDDED, RecordFile};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vectors {
    #[serde(default)]
    valid: Vec<String>,
    #[serde(default)]
    invalid: Vec<Invalid>,
    #[serde(default)]
    equivalent: Vec<[String; 2]>,
    #[serde(default)]
    not_equivalent: Vec<[String; 2]>,
    /// Real identifiers from the owner's published material, each with
    /// its source and the decision taken on it.
    #[serde(default)]
    real: Vec<Real>,
}

/// One real identifier (issue "verdicts a namespace's owner would sign").
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Real {
    urn: String,
    source: String,
    verdict: Verdict,
    why: String,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    /// Valid as registered, with no deviation.
    Valid,
    /// Refused (misuse, a typo, a third party's form).
    Invalid,
    /// Valid only by the owner's practice: a `registration-deviation`
    /// warning, and invalid when checked strictly.
    Practice,
    /// Valid as registered, with an `nss-should` warning: it does not
    /// take a recommended form (`[[rules.should]]`).
    Should,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Invalid {
    urn: String,
    kind: String,
    offset: usize,
    /// Words the finding's message must hold (used sparingly: where the
    /// message, not only the verdict, is what the vector is for). An
    /// input the generic parser refuses needs one: it is there for a
    /// namespace's hint.
    #[serde(default)]
    message: Option<String>,
}

/// The embedded registry (rules compile once per NID, for all tests here).
fn validator() -> &'static Registry {
    Registry::embedded()
}

/// The namespace-refined key of a URN that must be valid.
fn key(v: &Registry, urn: &str) -> Option<String> {
    v.check(urn).key().map(|k| k.into_owned())
}

#[test]
fn namespace_vectors() {
    let v = validator();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/namespaces");
    let mut failures = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let vectors: Vectors = toml::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        files += 1;
        for s in &vectors.valid {
            let report = v.check(s);
            if !report.is_valid() {
                let errors: Vec<String> = report.errors().map(|e| format!("{}: {e}", e.code())).collect();
                failures.push(format!("{name}: {s} should be valid: {errors:?}"));
            }
        }
        for case in &vectors.invalid {
            if let Err(e) = Urn::parse(&case.urn)
                && case.message.is_none()
            {
                panic!(
                    "{name}: {}: {e} (a vector the parser refuses needs a message)",
                    case.urn
                );
            }
            let report = v.check(&case.urn);
            let said = |e: &urnreg::Finding| {
                case.message
                    .as_ref()
                    .is_none_or(|m| e.to_string().contains(m.as_str()))
            };
            match report.errors().next() {
                Some(e) if e.code() == case.kind && e.offset() == case.offset && said(e) => {}
                other => failures.push(format!(
                    "{name}: {} should fail with {} at {}{}, got {:?}",
                    case.urn,
                    case.kind,
                    case.offset,
                    case.message
                        .as_ref()
                        .map(|m| format!(" saying '{m}'"))
                        .unwrap_or_default(),
                    other.map(|e| format!("{} at {}: {e}", e.code(), e.offset()))
                )),
            }
        }
        for [a, b] in &vectors.equivalent {
            let (ka, kb) = (key(v, a), key(v, b));
            if ka.is_none() || ka != kb {
                failures.push(format!(
                    "{name}: {a} and {b} should be equivalent ({ka:?} vs {kb:?})"
                ));
            }
        }
        for [a, b] in &vectors.not_equivalent {
            if key(v, a) == key(v, b) {
                failures.push(format!("{name}: {a} and {b} should not be equivalent"));
            }
        }
        for real in &vectors.real {
            if let Some(problem) = judge_real(v, real) {
                failures.push(format!("{name}: {} ({}): {problem}", real.urn, real.source));
            }
        }
    }
    assert!(files >= 10, "vector files missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What is wrong with the verdict on a real identifier, if anything.
fn judge_real(v: &Registry, real: &Real) -> Option<String> {
    if real.source.trim().is_empty() || real.why.trim().is_empty() {
        return Some("every real identifier needs its source and why".into());
    }
    let report = urnreg::Checker::new(v).check_str(&real.urn);
    let strict = urnreg::Checker::new(v).strict(true).check_str(&real.urn);
    let deviation =
        |r: &urnreg::Report<'_, '_>| r.findings().iter().any(|f| f.code() == "registration-deviation");
    let said = |r: &urnreg::Report<'_, '_>| {
        r.findings()
            .iter()
            .map(|f| format!("{}: {f}", f.code()))
            .collect::<Vec<_>>()
    };
    let ok = match real.verdict {
        Verdict::Valid => report.is_valid() && !deviation(&report),
        Verdict::Should => {
            report.is_valid()
                && !deviation(&report)
                && report.findings().iter().any(|f| f.code() == "nss-should")
        }
        Verdict::Invalid => !report.is_valid() && !deviation(&report),
        // A practice form is none of the registration's forms, so none of
        // the registration's recommendations (nss-should) speaks of it.
        Verdict::Practice => {
            report.is_valid()
                && deviation(&report)
                && !strict.is_valid()
                && report.findings().iter().all(|f| f.code() != "nss-should")
        }
    };
    (!ok).then(|| format!("expected {:?}, got {:?}", real.verdict, said(&report)))
}

#[test]
fn every_shipped_rule_compiles_and_passes_its_examples() {
    let mut with_rules = 0;
    for (name, text) in EMBEDDED.iter().filter(|(n, _)| !n.starts_with('_')) {
        let record: RecordFile = toml::from_str(text).unwrap();
        if let Some(rules) = &record.rules {
            rules
                .compile(&record.nid)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!rules.source.is_empty(), "{name}: rules must cite their source");
            with_rules += 1;
        }
    }
    assert!(with_rules >= 18, "{with_rules}");
}

/// The shipped examples of every namespace with rules.
fn shipped_examples() -> &'static [String] {
    static E: OnceLock<Vec<String>> = OnceLock::new();
    E.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter(|(n, _)| !n.starts_with('_'))
            .filter_map(|(_, text)| toml::from_str::<RecordFile>(text).ok()?.rules)
            .flat_map(|r| r.examples.valid.into_iter().chain(r.examples.invalid))
            .collect()
    })
}

/// A generic-equivalent variant of `urn`: scheme, NID and `%hh` case
/// changed and r-, q-, f-components added (RFC 8141 section 3.1).
fn variant(urn: &str, flips: &[bool], component: u8) -> String {
    let parsed = Urn::parse(urn).unwrap();
    let mut out = String::new();
    let nss_start = parsed.nss_start();
    let assigned = parsed.assigned_name();
    let mut hex_left = 0;
    for (i, c) in assigned.chars().enumerate() {
        let flip = flips.get(i % flips.len().max(1)).copied().unwrap_or(false);
        let can_flip = i < nss_start || hex_left > 0;
        if hex_left > 0 {
            hex_left -= 1;
        }
        if c == '%' && i >= nss_start {
            hex_left = 2;
        }
        if can_flip && flip {
            out.push(if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            });
        } else {
            out.push(c);
        }
    }
    match component % 4 {
        1 => out.push_str("?+r1"),
        2 => out.push_str("?=q=1"),
        3 => out.push_str("#frag"),
        _ => {}
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// RFC 8141 section 3.1: namespace rules "MUST NOT result in treating two
    /// URNs as not 'the same' if the procedure here says they are".
    #[test]
    fn generic_equivalence_implies_namespace_equivalence(
        pick in any::<prop::sample::Index>(),
        flips in prop::collection::vec(any::<bool>(), 1..16),
        component in 0u8..4,
    ) {
        let examples = shipped_examples();
        let original = pick.get(examples);
        let changed = variant(original, &flips, component);
        let (a, b) = (Urn::parse(original).unwrap(), Urn::parse(&changed).unwrap());
        prop_assert!(a.is_equivalent(&b), "{} vs {}", original, changed);
        let (ra, rb) = (validator().check(original), validator().check(&changed));
        let key = |r: &urnreg::Report<'_, '_>| r.urn().map(|u| u.equivalence_key_with(r.namespace().unwrap().rules().unwrap().unwrap()).into_owned());
        prop_assert_eq!(key(&ra), key(&rb));
    }
}

/// The compiled-in read model says what a database seeded from the same
/// `registry/` says: same NIDs, kinds, statuses and rules.
#[test]
fn embedded_read_model_matches_a_seeded_database() {
    let from_db = Registry::from_store(&Store::open_embedded().unwrap()).unwrap();
    let embedded = Registry::embedded();
    assert_eq!(from_db.len(), embedded.len());
    for ns in embedded.namespaces() {
        let other = from_db
            .namespace(ns.nid())
            .unwrap_or_else(|| panic!("{}", ns.nid()));
        assert_eq!(
            (other.nid(), other.kind(), other.status()),
            (ns.nid(), ns.kind(), ns.status())
        );
        let parse = |t: Option<&str>| t.map(|t| toml::from_str::<urnreg::rules::RulesFile>(t).unwrap());
        assert_eq!(parse(other.rules_text()), parse(ns.rules_text()), "{}", ns.nid());
    }
}

/// Issue "findings a person can read at a glance": every finding's message
/// says what is wrong in at most 160 characters, ending with a short
/// citation; the rules' whole source is apart (`source`). Held over every
/// vector and, as docs/validating.md promises it of any input, over each
/// vector with a part of it repeated to some KB (quoted input is cut).
#[test]
fn every_message_over_the_vectors_is_short() {
    const MAX_MESSAGE: usize = 160;
    let mut urns = vector_inputs();
    assert!(urns.len() > 1000, "{}", urns.len());
    let hostile: Vec<String> = urns.iter().flat_map(|u| long_variants(u)).collect();
    assert!(hostile.len() > urns.len(), "{}", hostile.len());
    urns.extend(hostile);
    let mut bad = Vec::new();
    let (mut checker, mut strict) = (
        urnreg::Checker::new(validator()),
        urnreg::Checker::new(validator()).strict(true),
    );
    let mut with_source = 0;
    for urn in &urns {
        for report in [checker.check_str(urn), strict.check_str(urn)] {
            for f in report.findings() {
                let message = f.to_string();
                let chars = message.chars().count();
                if chars > MAX_MESSAGE || !ends_with_citation(&message) {
                    let shown: String = urn.chars().take(60).collect();
                    bad.push(format!("{} ({chars} chars) {shown}: {message}", f.code()));
                }
                if f.kind().is_from_rules() {
                    assert!(report.source_of(f).is_some_and(|s| !s.is_empty()), "{urn}");
                    with_source += 1;
                }
            }
        }
    }
    assert!(with_source > 100, "{with_source}");
    // The stream reader's and the scanner's own findings.
    for report in [
        urnreg::Report::line_too_long(b"urn:x", 1 << 20, true),
        urnreg::Report::urn_too_long(b"urn:x", 1 << 16, true),
    ] {
        for f in report.findings() {
            let message = f.to_string();
            if message.chars().count() > MAX_MESSAGE || !ends_with_citation(&message) {
                bad.push(format!("{}: {message}", f.code()));
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{} messages over {MAX_MESSAGE} characters or not ending with a citation:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Every URN (and other input) of the vector files: the namespaces'
/// (`tests/data/namespaces/*.toml`), the shipped examples, and each
/// string of `tests/data/*.toml` but their prose (`why`, `rule`, ...).
fn vector_inputs() -> Vec<String> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut urns: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(data.join("namespaces")).unwrap() {
        let vectors: Vectors =
            toml::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        urns.extend(vectors.valid);
        urns.extend(vectors.invalid.into_iter().map(|i| i.urn));
        urns.extend(vectors.real.into_iter().map(|r| r.urn));
        for [a, b] in vectors.equivalent.into_iter().chain(vectors.not_equivalent) {
            urns.extend([a, b]);
        }
    }
    urns.extend(shipped_examples().iter().cloned());
    /// Every string under `value` but prose.
    fn strings(value: &toml::Value, out: &mut Vec<String>) {
        match value {
            toml::Value::String(s) => out.push(s.clone()),
            toml::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            toml::Value::Table(t) => t
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "why" | "rule" | "source" | "message"))
                .for_each(|(_, v)| strings(v, out)),
            _ => {}
        }
    }
    let mut files = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let value: toml::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            strings(&value, &mut urns);
            files += 1;
        }
    }
    assert!(files >= 5, "{files}");
    urns.sort();
    urns.dedup();
    urns
}

/// Long hostile variants of `input`: for each part after the NID (split at
/// `:` `/` `.` `?` `=` `&` `#` and a few more), the input with that part
/// repeated to at least 4 KB; and with its whole NSS so repeated.
fn long_variants(input: &str) -> Vec<String> {
    const LONG: usize = 4096;
    let repeated = |part: &str| part.repeat(LONG / part.len().max(1) + 1);
    let Some(nss_start) = input
        .get(..4)
        .filter(|s| s.eq_ignore_ascii_case("urn:"))
        .and_then(|_| input[4..].find(':'))
        .map(|i| 4 + i + 1)
    else {
        return vec![repeated(input)];
    };
    let (head, tail) = input.split_at(nss_start);
    let mut out = vec![format!("{head}{}", repeated(tail))];
    let mut start = 0;
    for (i, c) in tail.char_indices().chain([(tail.len(), ':')]) {
        if ":/.?=&#+;,-".contains(c) {
            if i > start {
                let part = &tail[start..i];
                out.push(format!(
                    "{head}{}{}{}",
                    &tail[..start],
                    repeated(part),
                    &tail[i..]
                ));
            }
            start = i + c.len_utf8();
        }
    }
    out
}

/// Whether a message ends with a short citation: a closing parenthesis
/// after something a reader can look up (not a question, as "did you
/// mean ...?").
fn ends_with_citation(message: &str) -> bool {
    let Some(body) = message.strip_suffix(')') else {
        return false;
    };
    let Some(open) = body.rfind('(') else {
        return false;
    };
    let cited = &body[open + 1..];
    !cited.is_empty() && !cited.ends_with('?') && cited.chars().any(|c| c.is_ascii_alphanumeric())
}
