//! Registration templates (RFC 8141 Appendix A, RFC 3406): importing every
//! real registration text, rendering, render-then-import round trips, and
//! snapshots of the rendered forms of real registrations.

use urnreg::registry::RegistrationFile;
use urnreg::registry::data::{EMBEDDED, RecordFile};
use urnreg::template::{Form, import_registration, render};

use crate::util::{code, stderr, stdout, urnreg};

/// Every record of `registry/` that holds a registration text.
fn registration_texts() -> Vec<(String, String)> {
    EMBEDDED
        .iter()
        .filter(|(name, _)| !name.starts_with('_'))
        .filter_map(|(_, text)| {
            let record: RecordFile = toml::from_str(text).expect("registry file parses");
            Some((record.nid, record.registration?.text))
        })
        .collect()
}

/// The registration with every text's whitespace runs made one space:
/// rendering wraps long lines at 72 columns, which moves line breaks only.
fn unwrapped(file: &RegistrationFile) -> RegistrationFile {
    let squash = |s: &String| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = file.clone();
    let mut fields = out.template_fields();
    for (key, _, _) in urnreg::template::FIELDS {
        if let Some(Some(v)) = fields.get_mut(key) {
            *v = squash(v);
        }
    }
    let rules = out.rules.take();
    out = RegistrationFile::from_fields(
        out.kind,
        out.nid,
        out.version,
        out.date.map(|d| d.as_text()),
        &fields,
    );
    out.rules = rules;
    out
}

#[test]
fn every_registration_text_imports_with_its_nid() {
    let texts = registration_texts();
    assert!(texts.len() >= 70, "only {} texts", texts.len());
    let mut wrong = Vec::new();
    for (nid, text) in &texts {
        let (file, _) = import_registration(text);
        if file.nid.as_deref().map(str::to_ascii_lowercase) != Some(nid.to_ascii_lowercase()) {
            wrong.push(format!("{nid}: imported NID {:?}", file.nid));
        }
        assert!(
            file.template_fields().present().count() >= 3,
            "{nid}: too few fields"
        );
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn render_then_import_gives_back_the_same_registration() {
    for (nid, text) in registration_texts() {
        let (first, _) = import_registration(&text);
        let form = Form::text_form_for(&first);
        let rendered = render(&first, form, None).unwrap_or_else(|e| panic!("{nid}: {e}"));
        let (again, notes) = import_registration(&rendered);
        assert!(notes.is_empty(), "{nid}: {notes:?}");
        assert_eq!(
            unwrapped(&again),
            unwrapped(&first),
            "{nid} in {form:?}:\n{rendered}"
        );
        assert!(
            rendered
                .lines()
                .all(|l| l.chars().count() <= 72 || !l.trim().contains(' ')),
            "{nid}: a line over 72 columns that could be wrapped"
        );
    }
}

fn filled() -> RegistrationFile {
    RegistrationFile::from_toml(include_str!("data/registrations/formal.toml")).expect("vector parses")
}

#[test]
fn rfc8141_form_is_appendix_a_in_order_and_round_trips_exactly() {
    let file = filled();
    let text = render(&file, Form::Rfc8141, None).unwrap();
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains(':'))
        .map(|l| &l[..l.find(':').unwrap()])
        .collect();
    assert_eq!(
        headings,
        [
            "Namespace Identifier",
            "Version",
            "Date",
            "Registrant",
            "Purpose",
            "Syntax",
            "Assignment",
            "Security and Privacy",
            "Interoperability",
            "Resolution",
            "Documentation",
        ]
    );
    let (back, notes) = import_registration(&text);
    assert!(notes.is_empty(), "{notes:?}");
    let mut expected = file.clone();
    expected.rules = None;
    assert_eq!(unwrapped(&back), unwrapped(&expected));
}

#[test]
fn rfc8141_form_refuses_a_registration_without_a_required_field() {
    let mut file = filled();
    file.purpose = None;
    let err = render(&file, Form::Rfc8141, None).unwrap_err().to_string();
    assert!(err.contains("purpose") && err.contains("Appendix A"), "{err}");
    // The other forms show what there is.
    assert!(render(&file, Form::Rfc3406, None).is_ok());
}

#[test]
fn html_escapes_registrant_text() {
    let mut file = filled();
    file.registrant = Some("<script>alert('x')</script> & Co".into());
    let html = render(&file, Form::Html, Some("submitted")).unwrap();
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");
    assert!(html.contains("&amp; Co"));
}

#[test]
fn markdown_fences_survive_backticks_in_text() {
    let mut file = filled();
    file.syntax = Some("Use ``` to quote\nequivalence: none".into());
    let md = render(&file, Form::Markdown, None).unwrap();
    assert!(md.contains("````text\nUse ``` to quote"), "{md}");
}

/// Snapshots of the four forms of real registrations (RFC 8141 form from a
/// registration file, the others from the shipped registry).
#[test]
fn snapshots_of_rendered_real_registrations() {
    for nid in ["example", "isbn", "uuid", "nbn"] {
        for form in ["rfc8141", "rfc3406", "html", "markdown"] {
            let out = urnreg(&["template", "render", nid, "--form", form], b"");
            let text = if code(&out) == 0 {
                stdout(&out)
            } else {
                format!("exit {}\n{}", code(&out), stderr(&out))
            };
            insta::assert_snapshot!(format!("render_{nid}_{form}"), text);
        }
    }
    let formal = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/registrations/formal.toml"
    );
    for form in ["rfc8141", "markdown"] {
        let out = urnreg(&["template", "render", formal, "--form", form], b"");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        insta::assert_snapshot!(format!("render_formal_file_{form}"), stdout(&out));
    }
}

#[test]
fn cli_new_edit_lint_render_request_path() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let out = urnreg(&["template", "new", "--nid", "acme-parts", "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let skeleton = stdout(&out);
    // Empty required fields stay empty: lint refuses the skeleton as it is.
    let path = dir.path().join("request.toml");
    std::fs::write(&path, &skeleton).unwrap();
    let p = path.to_str().unwrap();
    let out = urnreg(&["lint", p, "--db", db], b"");
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("required-field"), "{}", stdout(&out));
    // "Edit": fill it in from the complete vector.
    let mut file: toml::Table = toml::from_str(&skeleton).unwrap();
    let done: toml::Table = toml::from_str(include_str!("data/registrations/formal.toml")).unwrap();
    for (k, v) in done {
        if k != "rules" {
            file.insert(k, v);
        }
    }
    std::fs::write(&path, toml::to_string(&file).unwrap()).unwrap();
    let out = urnreg(&["lint", p, "--format", "json", "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["errors"], 0);
    let out = urnreg(&["template", "render", p, "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("Namespace Identifier: acme-parts\nVersion: 1\n"));
    let out = urnreg(&["request", p, "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // A skeleton for a registered NID is a revision, pre-filled.
    let out = urnreg(&["template", "new", "--nid", "isbn", "--db", db], b"");
    let text = stdout(&out);
    assert!(
        text.contains("version = 3") && text.contains("revision_information = \"\""),
        "{text}"
    );
    assert!(text.contains("urnreg revise isbn"));
}

#[test]
fn cli_import_writes_a_registration_and_reports_what_it_cannot_place() {
    let text = "Some preamble line.\n\nNamespace Identifier: acme\nVersion: one\nDate: 2024-01-01\n\nPurpose:\n   Parts.\n";
    let out = urnreg(&["template", "import", "-"], text.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let file = RegistrationFile::from_toml(&stdout(&out)).unwrap();
    assert_eq!(file.nid.as_deref(), Some("acme"));
    assert_eq!(file.purpose.as_deref(), Some("Parts."));
    let err = stderr(&out);
    assert!(
        err.contains("preamble") && err.contains("'one' is not a number"),
        "{err}"
    );
    let out = urnreg(&["template", "import", "-"], b"no headings at all\n");
    assert_eq!(code(&out), 2);
    let out = urnreg(&["template", "import", "-"], b"Purpose: \xff\n");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("not UTF-8"));
}
