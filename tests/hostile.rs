//! Hostile rule texts (`tests/data/hostile/rules.toml`, issue 11): each
//! compiles or is refused with an error naming its limit, in bounded time,
//! and without taking the process down. Run with `--nocapture` to see the
//! time of each case.

use std::process::Stdio;
use std::time::{Duration, Instant};

use urnreg::lint::{LintContext, lint};
use urnreg::registry::RegistrationFile;
use urnreg::rules::{Examples, RulesFile, SyntaxRule};

const BASE: &str = include_str!("data/registrations/formal.toml");
const NID: &str = "acme-parts";

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// What the code did with it before the fix (documentation only).
    #[serde(default)]
    #[allow(dead_code)]
    was: Option<String>,
    kind: String,
    text: Text,
    /// A substring of the error; none: the rule must compile.
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    valid: Vec<Text>,
    #[serde(default)]
    invalid: Vec<Text>,
}

/// A text, written out or built from repeated pieces.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Text {
    Plain(String),
    Pieces(Vec<Piece>),
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Piece {
    text: String,
    #[serde(default = "one")]
    times: usize,
}

fn one() -> usize {
    1
}

impl Text {
    fn build(&self) -> String {
        match self {
            Text::Plain(s) => s.clone(),
            Text::Pieces(pieces) => {
                let mut out = String::new();
                for p in pieces {
                    if p.times == 1 || !p.text.contains('{') {
                        out.push_str(&p.text.repeat(p.times));
                        continue;
                    }
                    for i in 0..p.times {
                        out.push_str(
                            &p.text
                                .replace("{i}", &i.to_string())
                                .replace("{j}", &(i + 1).to_string()),
                        );
                    }
                }
                out
            }
        }
    }
}

fn cases() -> Vec<Case> {
    let cases: Cases =
        toml::from_str(include_str!("data/hostile/rules.toml")).expect("hostile vectors parse");
    cases.case
}

/// The longest a case may take: generous, for debug builds on a busy
/// machine (release builds take well under a second for every case).
fn budget() -> Duration {
    let ms = std::env::var("URNREG_HOSTILE_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    Duration::from_millis(ms)
}

/// Compiles a `[rules]` table with this syntax and these examples.
fn compile_rules(case: &Case, text: String) -> Result<(), String> {
    let urns = |xs: &[Text]| xs.iter().map(|t| format!("urn:{NID}:{}", t.build())).collect();
    let syntax = match case.kind.as_str() {
        "abnf" => SyntaxRule {
            abnf: Some(text),
            ..SyntaxRule::default()
        },
        "regex" => SyntaxRule {
            regex: Some(text),
            ..SyntaxRule::default()
        },
        other => panic!("{}: unknown kind '{other}'", case.name),
    };
    let rules = RulesFile {
        source: format!("tests/data/hostile/rules.toml, {}", case.name),
        syntax: Some(syntax),
        examples: Examples {
            valid: urns(&case.valid),
            invalid: urns(&case.invalid),
            equivalent: Vec::new(),
        },
        ..RulesFile::default()
    };
    rules.compile(NID).map(|_| ()).map_err(|e| e.to_string())
}

/// Compiles a whole `[rules]` table written as TOML (equivalence steps,
/// resolution): a table that does not parse is an error too.
fn compile_table(text: &str) -> Result<(), String> {
    let rules: RulesFile = toml::from_str(text).map_err(|e| e.to_string())?;
    rules.compile(NID).map(|_| ()).map_err(|e| e.to_string())
}

/// Lints the base registration with this Syntax field; the error is the
/// `syntax-abnf` finding's message.
fn lint_syntax(case: &Case, text: String) -> Result<(), String> {
    assert!(
        case.valid.is_empty() && case.invalid.is_empty(),
        "{}: a Syntax field has no examples",
        case.name
    );
    let mut file = RegistrationFile::from_toml(BASE).expect("the base registration parses");
    file.syntax = Some(text);
    let findings = lint(&file, &LintContext::default());
    match findings.iter().find(|f| f.rule.starts_with("syntax-abnf")) {
        Some(f) => Err(f.message.clone()),
        None => Ok(()),
    }
}

#[test]
fn hostile_rules_compile_or_are_refused_naming_their_limit() {
    let budget = budget();
    let mut failures = Vec::new();
    for case in cases() {
        let text = case.text.build();
        let started = Instant::now();
        let result = match case.kind.as_str() {
            "syntax" => lint_syntax(&case, text.clone()),
            "rules" => compile_table(&text),
            _ => compile_rules(&case, text.clone()),
        };
        let took = started.elapsed();
        println!(
            "{:>9.1} ms  {:>8} bytes  {}",
            took.as_secs_f64() * 1e3,
            text.len(),
            case.name
        );
        match (&case.error, result) {
            (None, Ok(())) => {}
            (None, Err(e)) => failures.push(format!("{}: should compile, got: {e}", case.name)),
            (Some(want), Ok(())) => failures.push(format!("{}: should be refused ({want})", case.name)),
            (Some(want), Err(e)) if !e.contains(want.as_str()) => {
                failures.push(format!(
                    "{}: expected an error with '{want}', got: {e}",
                    case.name
                ));
            }
            (Some(_), Err(_)) => {}
        }
        if took > budget {
            failures.push(format!("{}: took {took:?}, more than {budget:?}", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_vector_names_are_unique() {
    let cases = cases();
    let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate case names");
}

/// A hostile snapshot refused for many problems, each quoting a huge
/// value, is refused in bounded text that names the limits (found in
/// hostile testing: 60,000 records dated with 200 digits were refused in 16 MB of
/// stderr, and one date of 100,000 digits was quoted whole).
#[test]
fn a_snapshot_refused_for_many_huge_problems_says_so_in_bounded_text() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile-snapshots/base-json/registry.json");
    let json = std::fs::read_to_string(base).expect("the base snapshot");
    // The first dated with 100,000 digits, the others with 200.
    let bad: String = (0..2_000)
        .map(|i| {
            let digits = if i == 0 { 100_000 } else { 200 };
            format!(
                "{{\"nid\": \"bad{i}-x\", \"kind\": \"formal\", \"date\": \"{}\"}}, ",
                "9".repeat(digits)
            )
        })
        .collect();
    let json = json.replacen("\"records\": [", &format!("\"records\": [{bad}"), 1);
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("snap");
    std::fs::create_dir(&snap).unwrap();
    std::fs::write(snap.join("registry.json"), &json).unwrap();
    let files = std::collections::BTreeMap::from([("registry.json".to_string(), json.into_bytes())]);
    std::fs::write(snap.join("SHA256SUMS"), urnreg::snapshot::manifest(&files)).unwrap();
    let db = dir.path().join("registry.db");
    let db = db.to_str().unwrap();
    let snap = snap.to_str().unwrap();
    let init = crate::util::urnreg(&["init", "--db", db], b"");
    assert_eq!(crate::util::code(&init), 0, "{}", crate::util::stderr(&init));
    let before = std::fs::read(db).unwrap();
    let out = crate::util::urnreg(&["import", snap, "--replace", "--db", db], b"");
    let err = crate::util::stderr(&out);
    assert_eq!(crate::util::code(&out), 2, "{err:.2000}");
    assert!(err.len() < 300_000, "{} bytes of refusal", err.len());
    assert!(err.contains("MAX_PROBLEM_CHARS"), "{err:.3000}");
    assert!(
        err.contains("more problems not listed (MAX_PROBLEMS_SHOWN = 100)"),
        "{err:.3000}"
    );
    assert_eq!(std::fs::read(db).unwrap(), before, "the database changed");
}

/// Exports to one place at once: each writes its export or says another
/// got there first, and none leaves a directory behind (found in hostile testing:
///  "Directory not empty", "No such file or directory", and their
/// temporary directories and the previous export left beside `--out`;
/// found in hostile testing: one that read `--out` while another replaced it
/// said it held files urnreg had not written).
#[test]
fn exports_to_one_place_at_once_leave_one_export_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("registry.db");
    let db = db.to_str().unwrap().to_string();
    let init = crate::util::urnreg(&["init", "--db", &db], b"");
    assert_eq!(crate::util::code(&init), 0, "{}", crate::util::stderr(&init));
    let out = dir.path().join("out");
    let out = out.to_str().unwrap().to_string();
    let mut written = 0;
    for _round in 0..4 {
        let children: Vec<_> = (0..6)
            .map(|_| {
                crate::util::urnreg_command()
                    .args([
                        "export", "--format", "json", "--force", "--db", &db, "--out", &out,
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let done = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&done.stderr).into_owned();
            match done.status.code() {
                Some(0) => written += 1,
                // Never "not as urnreg wrote it" (found in hostile testing: an
                // export read while another replaced it said so).
                Some(2) => assert!(err.contains("another export to"), "{err}"),
                other => panic!("{other:?}: {err}"),
            }
        }
    }
    assert!(written >= 4, "{written} exports written");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".out."))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    let check = crate::util::urnreg(&["import", &out, "--dry-run", "--db", &db], b"");
    assert_eq!(crate::util::code(&check), 0, "{}", crate::util::stderr(&check));
}

/// A template text of many lines, each a note of the importer (here a
/// second `Purpose` heading), gets its notes listed as a refusal lists its
/// problems: 100, then one line counting the rest (found in hostile testing:
/// 1 MiB of `Purpose:` lines wrote 10 MB of notes to stderr).
#[test]
fn a_template_text_of_many_notes_lists_them_in_bounded_text() {
    let mut text = String::from("Namespace Identifier: acme-parts\nPurpose: parts\n");
    text.push_str(&"Purpose:\n".repeat(5_000));
    let out = crate::util::urnreg(&["template", "import", "-"], text.as_bytes());
    let err = crate::util::stderr(&out);
    assert_eq!(crate::util::code(&out), 0, "{err:.2000}");
    assert!(
        err.lines().count() <= 102,
        "{} lines of notes",
        err.lines().count()
    );
    assert!(
        err.contains("more notes not listed (MAX_PROBLEMS_SHOWN = 100)"),
        "{err:.3000}"
    );
    assert!(crate::util::stdout(&out).contains("acme-parts"));
}

/// A text of more lines than a template is read in is refused naming the
/// limit, whatever ends its lines (LF, CRLF, CR alone): a few million empty
/// lines took hundreds of megabytes of working memory (found in hostile
/// testing: 4 MiB of blank lines, 408 MB). At the limit it is read.
#[test]
fn a_template_text_of_too_many_lines_is_refused_naming_the_limit() {
    let limit = urnreg::template::MAX_TEXT_LINES;
    for end in ["\n", "\r\n", "\r"] {
        let text = format!("Namespace Identifier: acme-parts{end}{}", end.repeat(limit));
        let out = crate::util::urnreg(&["template", "import", "-"], text.as_bytes());
        let err = crate::util::stderr(&out);
        assert_eq!(crate::util::code(&out), 2, "{end:?}: {err:.500}");
        assert!(
            err.contains(&format!(
                "lines; a registration template is read up to {limit} lines (MAX_TEXT_LINES)"
            )),
            "{end:?}: {err:.500}"
        );
    }
    let text = format!("Namespace Identifier: acme-parts\n{}", "\n".repeat(limit - 2));
    let report = urnreg::template::import_text(&text);
    assert_eq!(report.fields.namespace_identifier.as_deref(), Some("acme-parts"));
}

/// A review naming an amendment count the request never had is refused
/// saying so, not that the request "was amended since it was read" (found in
/// hostile testing: `--amendments 5` of a request never amended).
#[test]
fn a_review_naming_a_count_the_request_never_had_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("registry.db");
    let db = db.to_str().unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/registrations/formal.toml"
    );
    let filed = crate::util::urnreg(&["request", file, "--db", db], b"");
    assert_eq!(crate::util::code(&filed), 0, "{}", crate::util::stderr(&filed));
    let out = crate::util::urnreg(
        &[
            "review",
            "acme-parts",
            "--approve",
            "--note",
            "fine",
            "--amendments",
            "5",
            "--db",
            db,
        ],
        b"",
    );
    let err = crate::util::stderr(&out);
    assert_eq!(crate::util::code(&out), 2, "{err}");
    assert!(err.contains("amended 0 times, never 5"), "{err}");
    assert!(!err.contains("since it was read"), "{err}");
    let id = crate::util::stdout(&filed)
        .split_whitespace()
        .nth(1)
        .map(|w| w.trim_end_matches(':').to_string())
        .unwrap();
    let status = crate::util::urnreg(&["status", &id, "--db", db], b"");
    let shown = crate::util::stdout(&status);
    assert!(shown.contains("submitted"), "nothing decided: {shown}");
}

/// Arguments quoted in a refusal never start a line of their own, however
/// many other control characters they hold and whichever command refuses
/// them (finding: `resolve -s` wrote the line feed raw, and `scan --nid`
/// did when the value held an ESC too, escaped before the line feed).
#[test]
fn arguments_quoted_in_refusals_keep_their_line_feeds_escaped() {
    use crate::util::{code, stderr, urnreg};
    let forged = "x\n\u{1b}[0merror: forged\u{7}";
    let runs: [&[&str]; 5] = [
        &["resolve", "-s", forged, "urn:ietf:rfc:2141"],
        &["resolve", "--service", forged, "urn:ietf:rfc:2141"],
        &["scan", "--nid", forged, "."],
        &["scan", "--nid", &format!("isbn,!{forged}"), "."],
        &["template", "new", "--nid", forged],
    ];
    for args in runs {
        let out = urnreg(args, b"");
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(
            err.lines()
                .all(|l| !l.contains("error: forged") || l.contains("x\\x0a\\x1b[0merror: forged\\x07")),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{7}'),
            "{args:?}: {err}"
        );
    }
}

/// When the reader of `scan`'s output leaves, the scan stops quietly with
/// status 0 in every format, as its help says (SARIF and JSON, written at
/// the end, exited 1).
#[test]
fn scan_ends_quietly_with_0_in_every_format_when_its_reader_leaves() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urns.txt");
    std::fs::write(&file, "urn:isbn:12\n".repeat(20_000)).unwrap();
    for format in ["text", "jsonl", "json", "sarif"] {
        let mut child = crate::util::urnreg_command()
            .args(["scan", "-j", "2", "--format", format, file.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 1];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The pipe dropped: its reader is gone.
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A template text may be up to `MAX_TEXT_BYTES`, a registration file only
/// `MAX_REGISTRATION_BYTES`: an import that would make a larger file is
/// refused naming both, writing nothing (it wrote a file `lint` refused).
#[test]
fn a_template_import_larger_than_a_registration_file_is_refused() {
    use crate::util::{code, stderr, stdout, urnreg};
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("big.txt");
    let mut big = std::fs::read_to_string("tests/data/import/double-spaced.txt").unwrap();
    big.push_str(&format!("      {}\n", "y".repeat(1_200_000)));
    std::fs::write(&text, big).unwrap();
    let out = urnreg(&["template", "import", text.to_str().unwrap()], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("over the 1048576 bytes a registration file may hold (MAX_REGISTRATION_BYTES")
            && err.contains("MAX_TEXT_BYTES"),
        "{err}"
    );
    // The text as it was imports.
    let out = urnreg(
        &["template", "import", "tests/data/import/double-spaced.txt"],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
