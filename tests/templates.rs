//! Registration templates (RFC 8141 Appendix A, RFC 3406): importing every
//! real registration text, rendering, render-then-import round trips, and
//! snapshots of the rendered forms of real registrations.

use std::path::Path;

use urnreg::registry::data::{EMBEDDED, RecordFile};
use urnreg::registry::{Kind, RegistrationFile};
use urnreg::template::{
    FIELDS, Form, NoteKind, TemplateFields, import_bytes, import_registration, import_registration_bytes,
    import_text, render, render_as_written,
};

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

/// RFC 8141 section 6.4.2: Syntax states a namespace's equivalence
/// rules. A text in Appendix A's form imports with its fields only: an
/// RFC 3406 heading written inside one (isbn's, doi's and mrn's "Rules for
/// Lexical Equivalence:" in Syntax) stays there, so the rendering keeps
/// the text's order and lint finds Syntax speaking of equivalence.
#[test]
fn rfc8141_form_texts_keep_rfc3406_sub_headings_in_their_fields() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mut seen = Vec::new();
    for (nid, text) in registration_texts() {
        let (file, _) = import_registration(&text);
        // Appendix A's Syntax heading: a text of its fields.
        if file.syntax.is_none() {
            continue;
        }
        assert_eq!(file.rfc3406, None, "{nid}: RFC 3406 fields in an RFC 8141 text");
        if text
            .to_ascii_lowercase()
            .contains("rules for lexical equivalence:")
        {
            let path = dir.path().join(format!("{nid}.toml"));
            std::fs::write(&path, toml::to_string(&file).unwrap()).unwrap();
            let out = urnreg(
                &["lint", path.to_str().unwrap(), "--db", db.to_str().unwrap()],
                b"",
            );
            assert!(
                !stdout(&out).contains("syntax-equivalence"),
                "{nid}: {}",
                stdout(&out)
            );
            seen.push(nid);
        }
    }
    seen.sort();
    assert_eq!(seen, ["doi", "isbn", "isni", "issn", "meta", "mrn"]);
}

/// Issue 21, item 5, and the black-box findings of 2026-11-27 (tables
/// and indented lists reflowed): a text renders in the form it was
/// written in, a field it lacks (the cdx texts of 2022 and 2023 have no
/// Resolution section) left out as it was, every line as written, and
/// importing the rendering gives back exactly the same fields. The form
/// sent for review (`--form`) wraps prose over 72 columns only: a table
/// row, an indented line, a list item with a hanging indent or a line of
/// grammar comes back whole.
#[test]
fn render_then_import_gives_back_the_same_registration() {
    let squashed = |f: &RegistrationFile| -> Vec<(&'static str, String)> {
        f.template_fields()
            .present()
            .map(|(k, _, v)| (k, v.split_whitespace().collect::<Vec<_>>().join(" ")))
            .collect()
    };
    let mut lacking = 0;
    for (nid, text) in registration_texts() {
        let (first, first_notes) = import_registration(&text);
        let form = Form::text_form_for(&first);
        let rendered = render_as_written(&first, None).unwrap_or_else(|e| panic!("{nid}: {e}"));
        let (again, notes) = import_registration(&rendered);
        // Nothing new is guessed or left out: only what the text itself
        // made the importer say (a version or date in Registration
        // Information, read or not).
        for note in &notes {
            assert!(
                first_notes
                    .iter()
                    .any(|n| n.kind == note.kind && n.message == note.message),
                "{nid}: {note:?}"
            );
        }
        assert_eq!(
            (&again.nid, again.version, &again.date),
            (&first.nid, first.version, &first.date),
            "{nid}"
        );
        assert_eq!(
            again.template_fields(),
            first.template_fields(),
            "{nid} in {form:?}:\n{rendered}"
        );
        if form == Form::Rfc8141 && !urnreg::template::missing_for_rfc8141(&first).is_empty() {
            lacking += 1;
            continue;
        }
        // The form sent for review: prose over 72 columns wrapped, and
        // nothing else moved.
        let wrapped = render(&first, form, None).unwrap_or_else(|e| panic!("{nid}: {e}"));
        let (again, _) = import_registration(&wrapped);
        assert_eq!(
            squashed(&again),
            squashed(&first),
            "{nid} in {form:?}:\n{wrapped}"
        );
        let laid_out = |line: &str, next: Option<&str>| {
            let body = line.trim();
            let indent = line.len() - line.trim_start().len();
            let name = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || "-<>".contains(c)))
                .unwrap_or(body.len());
            let rule = name > 0 && body[name..].trim_start().starts_with('=');
            let table = body
                .match_indices("  ")
                .any(|(at, _)| at > 0 && !body[..at].ends_with(['.', '!', '?', ':', ';', ' ']));
            let item = body.starts_with(['-', '*', '\u{2022}']);
            let hanging =
                next.is_some_and(|n| n.len() - n.trim_start().len() > indent && !n.trim().is_empty());
            indent > 0 || body.starts_with(';') || body.contains(":=") || rule || table || (item && hanging)
        };
        for (_, _, value) in first.template_fields().present() {
            let lines: Vec<&str> = value.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if laid_out(line, lines.get(i + 1).copied()) {
                    assert!(
                        wrapped
                            .lines()
                            .any(|l| l.strip_prefix("   ") == Some(line.trim_end())),
                        "{nid}: the laid-out line '{line}' was not kept whole"
                    );
                }
            }
        }
        let out: Vec<&str> = wrapped
            .lines()
            .map(|l| l.strip_prefix("   ").unwrap_or(l))
            .collect();
        for (i, line) in out.iter().enumerate() {
            assert!(
                line.chars().count() <= 72
                    || !line.trim().contains(' ')
                    || laid_out(line, out.get(i + 1).copied()),
                "{nid}: '{line}' is over 72 columns and could be wrapped"
            );
        }
    }
    assert!(lacking >= 1, "no RFC 8141-form text lacking a field was tried");
}

fn filled() -> RegistrationFile {
    RegistrationFile::from_toml(include_str!("data/registrations/formal.toml")).expect("vector parses")
}

/// Black-box finding of 2026-11-28: urnreg's own HTML page and Markdown
/// form of a registration import back to it (its NID, version, date and
/// every field's words), as a text passed around in those forms is. The
/// HTML page holds each field in a `<pre>` under its `<h2>`, and the
/// Markdown form the NID, version and date in a table of two columns and
/// each field in a code fence.
#[test]
fn html_and_markdown_renderings_import_back() {
    let squashed = |f: &RegistrationFile| -> Vec<(&'static str, String)> {
        f.template_fields()
            .present()
            .map(|(k, _, v)| (k, v.split_whitespace().collect::<Vec<_>>().join(" ")))
            .collect()
    };
    for (nid, text) in registration_texts() {
        let (first, _) = import_registration(&text);
        for form in [Form::Html, Form::Markdown] {
            let rendered = render(&first, form, None).unwrap_or_else(|e| panic!("{nid}: {e}"));
            let (again, _) = import_registration(&rendered);
            assert_eq!(
                (&again.nid, again.version, &again.date),
                (&first.nid, first.version, &first.date),
                "{nid} in {form:?}"
            );
            assert_eq!(
                squashed(&again),
                squashed(&first),
                "{nid} in {form:?}:\n{rendered}"
            );
        }
    }
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

/// A registration missing required fields (RFC 8141 section 6.4,
/// Appendix A) is refused with exit 2, each field named, in the form it
/// was written in as in `--form rfc8141`: nothing at all, the skeleton of
/// `template new` as it is (a blank field is not filled in), one required
/// field left blank. Every shipped registration still renders as written,
/// a field its text leaves out left out (cdx has no Resolution section).
#[test]
fn render_refuses_a_registration_missing_required_fields() {
    let all = "registrant, purpose, syntax, assignment, security_and_privacy, \
               interoperability, resolution and documentation (Appendix A); fill them in";
    let out = urnreg(&["template", "render", "-"], b"");
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stdout(&out).is_empty());
    assert_eq!(
        stderr(&out),
        format!("error: the registration needs nid, version, date, {all}\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let skeleton = stdout(&urnreg(&["template", "new", "--db", db], b""));
    let path = dir.path().join("request.toml");
    std::fs::write(&path, &skeleton).unwrap();
    let p = path.to_str().unwrap();
    for (args, what) in [
        (vec!["template", "render", p], "the registration"),
        (
            vec!["template", "render", p, "--form", "rfc8141"],
            "the RFC 8141 form",
        ),
    ] {
        let out = urnreg(&args, b"");
        assert_eq!(code(&out), 2, "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with(&format!("error: {what} needs nid, date, {all}")),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // One required field written blank: named alone.
    let mut file: toml::Table = toml::from_str(include_str!("data/registrations/formal.toml")).unwrap();
    file.insert("syntax".into(), toml::Value::String(" ".into()));
    std::fs::write(&path, toml::to_string(&file).unwrap()).unwrap();
    let out = urnreg(&["template", "render", p], b"");
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: the registration needs syntax (Appendix A); fill it in\n"
    );
    // One field missing for the RFC 8141 form: "it", not "them".
    let out = urnreg(&["template", "render", "cdx", "--form", "rfc8141"], b"");
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: the RFC 8141 form needs resolution (Appendix A); fill it in, \
         or use --form rfc3406 for an older registration\n"
    );
    for (nid, text) in registration_texts() {
        let (file, _) = import_registration(&text);
        assert!(urnreg::template::missing_as_written(&file).is_empty(), "{nid}");
    }
    // Few fields (urn-4), no Resolution (cdx), the older form without a
    // version heading (iso), and the whole (isbn).
    for nid in ["urn-4", "cdx", "iso", "isbn"] {
        let out = urnreg(&["template", "render", nid], b"");
        assert_eq!(code(&out), 0, "{nid}: {}", stderr(&out));
    }
}

/// Wrapping in `--form rfc3406` (RFC 3406 section 4's template, wrapped
/// at 72 columns) keeps structure (findings F6): adi's URN pattern line
/// stays one line, and a wrapped `- ` list item (the WHIP draft's)
/// hangs its next lines under its text. The renderings read back to
/// the same registration, and render the same again.
#[test]
fn rfc3406_wrapping_keeps_url_patterns_whole_and_list_items_hanging() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/import");
    let tmp = tempfile::tempdir().unwrap();
    for name in ["markdown-adi-bold-headings", "markdown-whip-subnamespace"] {
        let path = dir.join(format!("{name}.toml"));
        let out = urnreg(
            &["template", "render", path.to_str().unwrap(), "--form", "rfc3406"],
            b"",
        );
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        let text = stdout(&out);
        insta::assert_snapshot!(format!("render_{name}_rfc3406"), text);
        let again = tmp.path().join(format!("{name}.txt"));
        std::fs::write(&again, &text).unwrap();
        let back = urnreg(&["template", "import", again.to_str().unwrap()], b"");
        assert_eq!(code(&back), 0, "{name}: {}", stderr(&back));
        let toml_path = tmp.path().join(format!("{name}.toml"));
        std::fs::write(&toml_path, stdout(&back)).unwrap();
        let twice = urnreg(
            &[
                "template",
                "render",
                toml_path.to_str().unwrap(),
                "--form",
                "rfc3406",
            ],
            b"",
        );
        assert_eq!(stdout(&twice), text, "{name}: a second rendering differs");
    }
    let adi = stdout(&urnreg(
        &[
            "template",
            "render",
            dir.join("markdown-adi-bold-headings.toml").to_str().unwrap(),
            "--form",
            "rfc3406",
        ],
        b"",
    ));
    assert!(
        adi.contains("\n   urn:adi:{Inception Event Fingerprint}:[{Tail Event Sequence No.}:{Tail Event Fingerprint}]\n"),
        "{adi}"
    );
    let whip = stdout(&urnreg(
        &[
            "template",
            "render",
            dir.join("markdown-whip-subnamespace.toml").to_str().unwrap(),
            "--form",
            "rfc3406",
        ],
        b"",
    ));
    assert!(
        whip.contains(
            "   - The Namespace Specific String (NSS) of all URNs that use the \"whip\"\n     Namespace ID"
        ),
        "{whip}"
    );
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
    // An informal namespace's skeleton names it too, or lint would read a
    // first request (section 5.2 numbers are the registry's to give).
    let out = urnreg(&["template", "new", "--nid", "urn-5", "--db", db], b"");
    let file = RegistrationFile::from_toml(&stdout(&out)).unwrap();
    assert_eq!(file.nid.as_deref(), Some("urn-5"), "{}", stdout(&out));
    assert!(stdout(&out).contains("urnreg revise urn-5"));
    // A urn-N that is not registered is the registry's to assign: refused,
    // pointing to --informal (section 5.2); so is what is no NID at all
    // (section 2).
    let out = urnreg(&["template", "new", "--nid", "urn-999", "--db", db], b"");
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains(
            "'urn-999' starts with 'urn-', which is kept for informal namespaces (RFC 8141 section 5.1)"
        ) && err.contains("`urnreg template new --informal`")
            && err.contains("RFC 8141 section 5.2"),
        "{err}"
    );
    // No registered urn-N is offered instead (another registrant's
    // namespace, one edit away): --informal is the way.
    for nid in ["urn-999", "urn-99", "urn-x"] {
        let out = urnreg(&["template", "new", "--nid", nid, "--db", db], b"");
        assert_eq!(code(&out), 2);
        let err = stderr(&out);
        assert!(
            err.contains("--informal") && !err.contains("did you mean"),
            "{nid}: {err}"
        );
    }
    let out = urnreg(&["template", "new", "--nid", "a b", "--db", db], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("'a b' is not a valid NID (nid-char): expected 2 to 32 letters, digits or inner hyphens (RFC 8141 section 2)"),
        "{}",
        stderr(&out)
    );
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
        err.contains("preamble") && err.contains("'one' is not a whole number"),
        "{err}"
    );
    let out = urnreg(&["template", "import", "-"], b"no headings at all\n");
    assert_eq!(code(&out), 2);
    // Not UTF-8: read as Windows-1252, with a note.
    let out = urnreg(&["template", "import", "-"], b"Purpose: caf\xe9\n");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let file = RegistrationFile::from_toml(&stdout(&out)).unwrap();
    assert_eq!(file.purpose.as_deref(), Some("caf\u{e9}"));
    assert_eq!(
        stderr(&out),
        "decoded: line 1: not UTF-8: 1 byte(s) read as Windows-1252 (Latin-1), the first (0xE9) at byte 12\n\
         not placed: no Namespace Identifier (Namespace ID) field: the registration has no NID and no kind; add them\n"
    );
    // Past the size limit: refused, and not read whole.
    let big = vec![b'a'; urnreg::template::MAX_TEXT_BYTES + 1];
    let out = urnreg(&["template", "import", "-"], &big);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("read up to 4194304 bytes"),
        "{}",
        stderr(&out)
    );
}

/// `tests/data/import/NAME.txt` gives the registration file `NAME.toml`
/// and the notes `NAME.notes` (see the README there).
#[test]
fn import_vectors_give_their_registration_and_notes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/import");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let (file, notes) = import_registration_bytes(&bytes).unwrap();
        // A text with no template: `NAME.refused` is what the command line
        // says (the path written `NAME.txt`), exit 2, nothing on stdout.
        let refused = dir.join(format!("{name}.refused"));
        if refused.exists() {
            assert!(
                file.template_fields().present().next().is_none()
                    || notes.iter().any(|n| n.kind == NoteKind::Misread),
                "{name}"
            );
            let out = urnreg(&["template", "import", path.to_str().unwrap()], b"");
            assert_eq!(code(&out), 2, "{name}: {}", stdout(&out));
            assert!(stdout(&out).is_empty(), "{name}");
            let said = stderr(&out).replace(path.to_str().unwrap(), &format!("{name}.txt"));
            assert_eq!(said, std::fs::read_to_string(&refused).unwrap(), "{name}");
            seen += 1;
            continue;
        }
        let expected = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
        assert_eq!(toml::to_string(&file).unwrap(), expected, "{name}");
        let shown: String = notes
            .iter()
            .map(|n| format!("{}: {n}\n", n.kind.as_str()))
            .collect();
        let expected = std::fs::read_to_string(dir.join(format!("{name}.notes"))).unwrap();
        assert_eq!(shown, expected, "{name}");
        // The command line writes the same.
        let out = urnreg(&["template", "import", path.to_str().unwrap()], b"");
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        assert_eq!(stdout(&out), toml::to_string(&file).unwrap(), "{name}");
        assert_eq!(stderr(&out), shown, "{name}");
        seen += 1;
    }
    // Every vector runs, and every one is described in the README.
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert_eq!(seen, readme.lines().filter(|l| l.starts_with("| `")).count());
    assert!(seen >= 13);
}

/// Findings of 2026-11-29 (historic texts): a registration file (the
/// TOML an earlier import wrote) given to `template import` is no
/// template text: refused, saying what it is, instead of a registration
/// whose fields hold its quoted TOML values. A text that is no template
/// at all is refused as before.
#[test]
fn import_refuses_a_registration_file_and_a_text_with_no_template() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("lampx.toml");
    // The registry keeps old registrations' text as written (oid's RFC
    // 2611 headings): read as a template, it had fields.
    std::fs::write(
        &toml,
        "kind = \"formal\"\nnid = \"lampx\"\n\n[rfc3406]\nregistration_information = \"\"\"\n\
         Namespace ID: lampx\nRegistration Version Number: 1\n\"\"\"\n\
         scope = \"\"\"\nScope:\n   Global\n\"\"\"\n",
    )
    .unwrap();
    let out = urnreg(&["template", "import", toml.to_str().unwrap()], b"");
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("template not read: the text is a registration file (TOML), not a template text")
            && err.lines().count() == 1,
        "{err}"
    );
    // A registration file with no template-like text says what it is too.
    let out = urnreg(
        &["template", "import", "tests/data/registrations/formal.toml"],
        b"",
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("the text is a registration file (TOML)"),
        "{}",
        stderr(&out)
    );
    for text in ["", "\n \n", "\u{1A}\0\0"] {
        let out = urnreg(&["template", "import", "-"], text.as_bytes());
        assert_eq!(code(&out), 2, "{text:?}");
        assert!(stderr(&out).contains("no template field found"), "{text:?}");
    }
}

/// Whitespace runs made one space, for values whose line breaks or
/// indentation a variant moved.
fn squashed(fields: &TemplateFields) -> Vec<(&'static str, String)> {
    fields
        .present()
        .map(|(k, _, v)| (k, v.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

/// The lines of `text` that start with a template heading and a colon,
/// at the least indentation such lines have: (line index, indentation,
/// heading length, value after the colon).
fn heading_lines(text: &str) -> Vec<(usize, usize, usize, String)> {
    let mut headings: Vec<String> = FIELDS.iter().map(|f| f.1.to_ascii_lowercase()).collect();
    headings.push("namespace id".into());
    let found: Vec<(usize, usize, usize, String)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let body = line.trim_start();
            let (head, value) = body.split_once(':')?;
            let lower = head.trim_end().to_ascii_lowercase();
            headings
                .contains(&lower)
                .then(|| (i, line.len() - body.len(), head.len(), value.to_string()))
        })
        .collect();
    let outer = found.iter().map(|h| h.1).min().unwrap_or(0);
    found.into_iter().filter(|h| h.1 == outer).collect()
}

/// A one-edit typo in a heading, kind by `n`: a doubled letter ("Indentifier"),
/// two neighbours swapped, a letter left out, a letter replaced. `None`
/// when the heading is too short to be guessed (under six letters).
fn typo(head: &str, n: usize) -> Option<String> {
    let chars: Vec<char> = head.chars().collect();
    if chars.len() < 6 {
        return None;
    }
    // A letter inside the longest word, away from its ends.
    let (start, len) = head
        .split(' ')
        .scan(0, |at, w| {
            let here = *at;
            *at += w.chars().count() + 1;
            Some((here, w.chars().count()))
        })
        .max_by_key(|(_, len)| *len)?;
    let i = start + len / 2;
    let mut out = chars.clone();
    match n % 4 {
        0 => out.insert(i, chars[i]),
        1 if chars[i] != chars[i + 1] => out.swap(i, i + 1),
        1 | 2 => {
            out.remove(i);
        }
        _ => out[i] = if chars[i] == 'x' { 'q' } else { 'x' },
    }
    Some(out.into_iter().collect())
}

/// Windows-1252 bytes for `text`, or `None` if a character has none.
fn to_cp1252(text: &str) -> Option<Vec<u8>> {
    const HIGH: &str = "\u{20ac}\u{81}\u{201a}\u{192}\u{201e}\u{2026}\u{2020}\u{2021}\u{2c6}\u{2030}\u{160}\u{2039}\u{152}\u{8d}\u{17d}\u{8f}\u{90}\u{2018}\u{2019}\u{201c}\u{201d}\u{2022}\u{2013}\u{2014}\u{2dc}\u{2122}\u{161}\u{203a}\u{153}\u{9d}\u{17e}\u{178}";
    text.chars()
        .map(|c| match c as u32 {
            0..=0x7F | 0xA0..=0xFF => Some(c as u8),
            _ => HIGH.chars().position(|h| h == c).map(|p| 0x80 + p as u8),
        })
        .collect()
}

/// Every real registration text, and variants of it with each
/// irregularity of older texts, imports to the same fields: CRLF line
/// ends, extra indentation (spaces or a tab), values moved to the line
/// below their heading, misspelled headings (with a note for each guess),
/// Windows-1252 and Latin-1 bytes (with a note when the text is not ASCII).
#[test]
fn variants_of_every_registration_text_import_to_the_same_fields() {
    let mut counts = [0usize; 6];
    for (nid, text) in registration_texts() {
        let original = import_text(&text).fields;

        let crlf = import_text(&text.replace('\n', "\r\n"));
        assert_eq!(crlf.fields, original, "{nid}: CRLF");
        counts[0] += 1;

        for indent in ["    ", "\t"] {
            let indented: String = text
                .lines()
                .map(|l| {
                    if l.trim().is_empty() {
                        "\n".to_string()
                    } else {
                        format!("{indent}{l}\n")
                    }
                })
                .collect();
            assert_eq!(
                import_text(&indented).fields,
                original,
                "{nid}: indented {indent:?}"
            );
        }
        counts[1] += 1;

        let headings = heading_lines(&text);
        let moved: Vec<&(usize, usize, usize, String)> =
            headings.iter().filter(|h| !h.3.trim().is_empty()).collect();
        if !moved.is_empty() {
            let lines: Vec<String> = text
                .lines()
                .enumerate()
                .map(|(i, l)| match moved.iter().find(|h| h.0 == i) {
                    Some(h) => format!("{}:\n{}    {}", &l[..h.1 + h.2], &l[..h.1], h.3.trim()),
                    None => l.to_string(),
                })
                .collect();
            let below = import_text(&lines.join("\n"));
            assert_eq!(
                squashed(&below.fields),
                squashed(&original),
                "{nid}: values below"
            );
            counts[2] += 1;
        }

        // Only lines the importer read as headings (a heading-like line
        // inside a value, such as "Version:" in an RFC's numbered
        // section, stays as it is: misspelling it would change the value).
        let in_a_value = |line: &str| {
            original
                .present()
                .any(|(_, _, v)| v.lines().any(|vl| vl.trim() == line.trim()))
        };
        let mut changed = 0;
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let Some(h) = headings.iter().find(|h| h.0 == i && !in_a_value(l)) else {
                    return l.to_string();
                };
                let head = &l[h.1..h.1 + h.2];
                match typo(head, i) {
                    Some(bad) => {
                        changed += 1;
                        format!("{}{bad}{}", &l[..h.1], &l[h.1 + h.2..])
                    }
                    None => l.to_string(),
                }
            })
            .collect();
        if changed > 0 {
            let misspelled = import_text(&(lines.join("\n") + "\n"));
            assert_eq!(
                misspelled.fields, original,
                "{nid}: misspelled headings {:?}",
                misspelled.notes
            );
            let guessed = |notes: &[urnreg::template::Note]| {
                notes
                    .iter()
                    .filter(|n| n.kind == NoteKind::Guessed && n.message.contains(" edit(s) from "))
                    .count()
            };
            // Some real texts have misspelled headings of their own (swift).
            let guesses = guessed(&misspelled.notes) - guessed(&import_text(&text).notes);
            assert!(
                guesses >= 1 && guesses <= changed,
                "{nid}: {guesses} guesses for {changed} typos"
            );
            counts[3] += 1;
        }

        if let Some(bytes) = to_cp1252(&text) {
            let report = import_bytes(&bytes).unwrap();
            assert_eq!(report.fields, original, "{nid}: Windows-1252");
            let decoded = report.notes.iter().any(|n| n.kind == NoteKind::Decoded);
            assert_eq!(decoded, !text.is_ascii(), "{nid}: Windows-1252 note");
            counts[4] += 1;
        }
        if text
            .chars()
            .all(|c| (c as u32) < 0x80 || (0xA0..=0xFF).contains(&(c as u32)))
        {
            let bytes: Vec<u8> = text.chars().map(|c| c as u8).collect();
            let report = import_bytes(&bytes).unwrap();
            assert_eq!(report.fields, original, "{nid}: Latin-1");
            counts[5] += 1;
        }
    }
    // [all, all, with values on heading lines, with headings to misspell,
    //  Windows-1252-encodable, Latin-1-encodable]
    assert!(counts[0] >= 70, "{counts:?}");
    assert!(
        counts[2] >= 30 && counts[3] >= 60 && counts[4] >= 60 && counts[5] >= 50,
        "{counts:?}"
    );
}

/// Black-box findings of 2026-11-27 (historic texts), F2: RFC layout
/// puts section titles at column 0 and the template indented; RFC 2611-
/// and RFC 3406-era RFCs leave titles unnumbered (RFC 7322 section 4.8.5's
/// "Security Considerations"), and a pasted template often loses its first
/// line's indentation. Every real text, indented six columns as RFC 2648
/// writes it, imports to the same fields with an unnumbered "Security
/// Considerations" section at column 0 after it or before its section (read as the
/// RFC's section: Security and Privacy when the template has none), and
/// with its first line at column 0: one heading left of the others never
/// turns the template's headings into text.
#[test]
fn a_heading_left_of_the_template_moves_no_other_heading() {
    let (mut tried, mut sections) = (0, 0);
    for (nid, text) in registration_texts() {
        let indented: String = text
            .lines()
            .map(|l| {
                if l.trim().is_empty() {
                    "\n".to_string()
                } else {
                    format!("      {l}\n")
                }
            })
            .collect();
        let original = import_text(&indented).fields;
        let with_security = |fields: &TemplateFields| {
            let mut expected = fields.clone();
            expected
                .security_and_privacy
                .get_or_insert_with(|| "None known.".to_string());
            expected
        };
        // Texts that have a Security Considerations section of their own
        // (reso) get no second.
        if !text.to_ascii_lowercase().contains("security considerations") {
            let section = "Security Considerations\n\n   None known.\n";
            let after = import_text(&format!("{indented}\n{section}"));
            assert_eq!(
                after.fields,
                with_security(&original),
                "{nid}: a section after, {:?}",
                after.notes
            );
            // Before it, the section runs up to the title of the
            // template's own section.
            let before = import_text(&format!("{section}\n5.  Namespace Registration\n\n{indented}"));
            assert_eq!(
                before.fields,
                with_security(&original),
                "{nid}: a section before, {:?}",
                before.notes
            );
            sections += 1;
        }

        let first = indented.lines().position(|l| !l.trim().is_empty()).unwrap();
        let dedented: String = indented
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == first {
                    format!("{}\n", l.trim_start())
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let report = import_text(&dedented);
        assert_eq!(
            report.fields, original,
            "{nid}: first line at column 0, {:?}",
            report.notes
        );
        tried += 1;
    }
    assert!(tried >= 70 && sections >= 60, "{tried} {sections}");
}

/// F2's guard: a text whose template headings are (almost) all read as
/// text is refused (exit 2), naming them, never imported as one or two
/// fields with exit 0.
#[test]
fn cli_import_refuses_a_template_it_could_not_read() {
    let text = "Namespace ID: acme\n\n2.  Details\n\nRegistration Information:\n   Registration version number: 1\n\n\
                Declared registrant of the namespace:\n   ACME\n\nDeclaration of syntactic structure:\n   digits\n\n\
                Scope:\n   Global.\n";
    let out = urnreg(&["template", "import", "-"], text.as_bytes());
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("template not read: only 1 field(s) read, but 4 other template headings were taken as text ('Registration Information' at line 5,"),
        "{err}"
    );
}
/// `--form rfc3406` for a registration in the RFC 8141 form gives the
/// RFC 3406 section 4 template, filled from the Appendix A fields.
#[test]
fn rfc3406_form_of_a_new_registration_has_the_rfc3406_headings() {
    let file = filled();
    let text = render(&file, Form::Rfc3406, None).unwrap();
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains(':'))
        .map(|l| &l[..l.find(':').unwrap()])
        .collect();
    assert_eq!(
        headings,
        [
            "Namespace ID",
            "Registration Information",
            "Declared registrant of the namespace",
            "Declaration of syntactic structure",
            "Relevant ancillary documentation",
            "Identifier uniqueness considerations",
            "Identifier persistence considerations",
            "Process of identifier assignment",
            "Process for identifier resolution",
            "Rules for Lexical Equivalence",
            "Conformance with URN Syntax",
            "Validation mechanism",
            "Scope",
            // Appendix A fields RFC 3406 has no heading for.
            "Security and Privacy",
        ]
    );
    // Read back, each RFC 3406 field holds the Appendix A field it maps.
    let (back, notes) = import_registration(&text);
    assert_eq!(back.nid, file.nid);
    assert_eq!(back.version, Some(1));
    assert_eq!(back.date, file.date);
    assert!(notes.iter().all(|n| n.kind == NoteKind::Guessed), "{notes:?}");
    let legacy = back.rfc3406.clone().unwrap();
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for (old, new) in [
        ("declared_registrant", file.registrant.as_deref()),
        ("syntactic_structure", file.syntax.as_deref()),
        ("ancillary_documentation", file.documentation.as_deref()),
        ("assignment_process", file.assignment.as_deref()),
        ("resolution_process", file.resolution.as_deref()),
        ("conformance", file.interoperability.as_deref()),
        ("scope", file.purpose.as_deref()),
    ] {
        assert_eq!(legacy.get(old).map(|v| squash(v)), new.map(squash), "{old}");
    }
    assert!(legacy["uniqueness"].contains("Process of identifier assignment"));
    assert_eq!(back.security_and_privacy, file.security_and_privacy);
}

fn with_rules(mut file: RegistrationFile) -> RegistrationFile {
    file.rules = Some(
        toml::from_str(
            "source = \"ACME parts catalogue\"\n[syntax]\nabnf = 'part-number = 1*8(DIGIT / \"-\")'\n\
             [[equivalence]]\nstep = \"remove\"\nchars = \"-\"\n\
             [examples]\nvalid = [\"urn:acme-parts:123\"]\nequivalent = [[\"urn:acme-parts:1-2\", \"urn:acme-parts:12\"]]\n",
        )
        .unwrap(),
    );
    file
}

/// A registration that carries rules renders them in prose, in every
/// form; reading the text back notes that the rules are not read from it.
#[test]
fn rendered_registrations_describe_their_rules_in_prose() {
    let file = with_rules(filled());
    let text = render(&file, Form::Rfc8141, None).unwrap();
    let at = text
        .find("\nNamespace rules (urnreg):\n")
        .expect("a rules section");
    let rules = text[at..].split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        rules.contains("NSS syntax (ABNF): the whole NSS must match the rule part-number of this grammar"),
        "{rules}"
    );
    assert!(
        text[at..].contains("\n       part-number = 1*8(DIGIT / \"-\")\n"),
        "{text}"
    );
    assert!(rules.contains("the characters '-' are ignored"), "{rules}");
    assert!(
        rules.contains("urn:acme-parts:1-2 = urn:acme-parts:12 (both compare as urn:acme-parts:12)"),
        "{rules}"
    );
    assert!(!text.contains("step ="), "no raw TOML");
    let (back, notes) = import_registration(&text);
    let squash = |s: Option<&str>| s.map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "));
    assert_eq!(squash(back.syntax.as_deref()), squash(file.syntax.as_deref()));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].message.contains("not a template field"), "{notes:?}");

    // RFC 3406: the rules answer "Validation mechanism" and "Rules for
    // Lexical Equivalence"; the rest follows under the rules heading.
    let text = render(&file, Form::Rfc3406, None).unwrap();
    let validation = &text[text.find("Validation mechanism:\n").unwrap()..];
    assert!(
        validation.starts_with("Validation mechanism:\n   NSS syntax (ABNF)"),
        "{text}"
    );
    let lexical = &text[text.find("Rules for Lexical Equivalence:\n").unwrap()..];
    assert!(
        lexical.starts_with("Rules for Lexical Equivalence:\n   Equivalence: beyond"),
        "{text}"
    );
    assert!(
        text.contains("Namespace rules (urnreg):\n   Valid examples"),
        "{text}"
    );

    let html = render(&file, Form::Html, None).unwrap();
    assert!(html.contains("<section id=\"rules\">"), "{html}");
    assert!(html.contains("<dt>NSS syntax (ABNF)</dt>"), "{html}");
    let md = render(&file, Form::Markdown, None).unwrap();
    assert!(
        md.contains("## Namespace rules (urnreg)") && md.contains("**Equivalence:**"),
        "{md}"
    );

    // Rules that do not read are an error, never a silent omission.
    let mut broken = filled();
    broken.rules = Some(toml::from_str("sauce = 1").unwrap());
    let err = render(&broken, Form::Rfc8141, None).unwrap_err().to_string();
    assert!(err.contains("[rules]") && err.contains("sauce"), "{err}");
}

/// RFC 8141 section 5.2: an informal request has no NID until IANA
/// assigns one. Both text forms render it (its Namespace Identifier says
/// IANA assigns it), with one blank line between fields, and importing
/// the rendering gives back an informal registration with no NID.
#[test]
fn informal_request_renders_and_reads_back_as_informal() {
    let file =
        RegistrationFile::from_toml(include_str!("data/registrations/informal.toml")).expect("vector parses");
    assert_eq!((file.kind, file.nid.as_deref()), (Some(Kind::Informal), None));
    for form in [Form::Rfc8141, Form::Rfc3406] {
        let text = render(&file, form, None).unwrap_or_else(|e| panic!("{form:?}: {e}"));
        assert!(
            text.starts_with("Namespace I") && !text.contains("\n\n\n"),
            "{form:?}:\n{text}"
        );
        let (again, notes) = import_registration(&text);
        assert_eq!(
            (
                again.kind,
                again.nid.as_deref(),
                again.version,
                again.date.map(|d| d.as_text())
            ),
            (
                Some(Kind::Informal),
                None,
                file.version,
                file.date.as_ref().map(|d| d.as_text())
            ),
            "{form:?}: {notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.message.contains("read as an informal namespace")),
            "{form:?}: {notes:?}"
        );
    }
    // The Appendix A form of the command line, too.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/registrations/informal.toml"
    );
    let out = urnreg(&["template", "render", path, "--form", "rfc8141"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // "Assigned by IANA" and "(to be assigned by IANA)" name no NID.
    for nid_text in ["Assigned by IANA", "(to be assigned by IANA)", "To be assigned"] {
        let (file, _) = import_registration(&format!("Namespace Identifier: {nid_text}\nVersion: 1\n"));
        assert_eq!((file.kind, file.nid), (Some(Kind::Informal), None), "{nid_text}");
    }
}

/// Black-box findings of 2026-11-27 (historic texts), F7: RFC 8141
/// section 5.2 (an informal namespace's NID is IANA's to assign) and
/// section 2 (a NID is one word of nid-chars). A Namespace ID value that
/// says the NID is not yet given is an informal namespace with no NID,
/// in any of its wordings; a NID taken out of a sentence is said as a
/// guess; a word that says no NID is given ("None") is never taken as
/// one. Each imports with the note it must have, and never silently as a
/// made-up NID.
#[test]
fn namespace_id_phrases_name_no_made_up_nid() {
    let informal = "read as an informal namespace: IANA assigns its NID (RFC 8141 section 5.2)";
    for (value, kind, nid, note) in [
        (
            "To be assigned by IANA (informal)",
            Some(Kind::Informal),
            None,
            informal,
        ),
        (
            "Informal, to be assigned by IANA",
            Some(Kind::Informal),
            None,
            informal,
        ),
        ("None (informal namespace)", Some(Kind::Informal), None, informal),
        ("To Be Determined", Some(Kind::Informal), None, informal),
        ("TBD", Some(Kind::Informal), None, informal),
        ("TBA", Some(Kind::Informal), None, informal),
        ("Not yet assigned", Some(Kind::Informal), None, informal),
        ("None", None, None, "no NID found in 'None'"),
        ("urn-X", None, None, "no NID found in 'urn-X'"),
        (
            "Acme Corp proposes acme",
            Some(Kind::Formal),
            Some("Acme"),
            "is no single NID (RFC 8141 section 2): 'Acme' taken from it; check it",
        ),
        // Plain: the NID and words that only request it (F5: said, as
        // only the NID is kept), or the NID alone.
        (
            "\"ietf\" requested.",
            Some(Kind::Formal),
            Some("ietf"),
            "read as the NID 'ietf'; only the NID is kept",
        ),
        (
            "\"IVIS\" requested according to [RFC3406].",
            Some(Kind::Formal),
            Some("IVIS"),
            "read as the NID 'IVIS'; only the NID is kept",
        ),
        (
            "acme (to be assigned by IANA)",
            Some(Kind::Formal),
            Some("acme"),
            "read as the NID 'acme'; only the NID is kept",
        ),
        ("xtbd", Some(Kind::Formal), Some("xtbd"), ""),
        ("\"acme\"", Some(Kind::Formal), Some("acme"), ""),
    ] {
        let text = format!("Namespace ID:\n\n   {value}\n\nScope:\n\n   Global.\n");
        let (file, notes) = import_registration(&text);
        assert_eq!(
            (file.kind, file.nid.as_deref()),
            (kind, nid),
            "{value}: {notes:?}"
        );
        let about_nid: Vec<&str> = notes
            .iter()
            .filter(|n| n.message.contains("Namespace Identifier"))
            .map(|n| n.message.as_str())
            .collect();
        if note.is_empty() {
            assert!(about_nid.is_empty(), "{value}: {about_nid:?}");
        } else {
            assert!(
                about_nid.len() == 1 && about_nid[0].contains(note),
                "{value}: {about_nid:?}"
            );
        }
    }
}

/// Black-box findings of 2026-11-27 (historic texts), F1: RFC 3406
/// section 4 (and RFC 2611 section 3) has no Version or Date heading;
/// "Registration Information" holds the registration version number and
/// date. The RFC 3406 form of every shipped text that has that block
/// writes no `Version:` or `Date:` line of its own above it, and the block
/// is never empty: a version or date its text does not say (uuid's
/// version) is written inside it.
#[test]
fn rfc3406_form_keeps_version_and_date_inside_registration_information() {
    let mut seen = 0;
    for (nid, text) in registration_texts() {
        let (file, _) = import_registration(&text);
        if file.template_fields().registration_information.is_none() {
            continue;
        }
        let out = urnreg(&["template", "render", &nid, "--form", "rfc3406"], b"");
        assert_eq!(code(&out), 0, "{nid}: {}", stderr(&out));
        let rendered = stdout(&out);
        let top: Vec<&str> = rendered
            .lines()
            .filter(|l| l.starts_with("Version:") || l.starts_with("Date:"))
            .collect();
        assert!(top.is_empty(), "{nid}: {top:?}\n{rendered}");
        let block = rendered
            .split("Registration Information:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{nid}: no Registration Information\n{rendered}"));
        let first = block.lines().next().unwrap_or("");
        assert!(
            first.starts_with("   ") && !first.trim().is_empty(),
            "{nid}: empty block\n{rendered}"
        );
        seen += 1;
    }
    assert!(seen >= 30, "{seen}");
}

/// Findings of 2026-11-27 (historic texts), F8: a template text given
/// where a registration file (TOML) is expected is still refused (exit
/// 2), and the error says that `template import` reads it; a TOML file
/// with an error gets no such hint.
#[test]
fn lint_and_render_of_a_template_text_point_to_template_import() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.txt");
    std::fs::write(&old, include_str!("data/import/informal-to-be-assigned.txt")).unwrap();
    let old = old.to_str().unwrap();
    let hint = format!("`urnreg template import {old} > request.toml` makes a registration file of it");
    for args in [vec!["lint", old], vec!["template", "render", old]] {
        let out = urnreg(&args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains(&hint), "{args:?}: {}", stderr(&out));
    }
    let out = urnreg(
        &["lint", "--format", "json", "-"],
        include_bytes!("data/import/informal-to-be-assigned.txt"),
    );
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).contains("\"hint\": \"it reads as a registration template text"),
        "{}",
        stdout(&out)
    );
    let out = urnreg(&["lint", "-"], b"kind = \"formal\"\nnid = acme\n");
    assert_eq!(code(&out), 2);
    assert!(!stderr(&out).contains("template import"), "{}", stderr(&out));
    // A registration file with a value of the wrong type is TOML: no hint,
    // though its RFC 3406 block reads like a template.
    let typo = b"kind = \"formal\"\nnid = \"gizmox\"\nversion = \"1\"\ndate = \"2014-03-03\"\n\n\
                 [rfc3406]\nregistration_information = \"\"\"\nVersion 1\n\n2014-03-03\"\"\"\nscope = \"Global.\"\n";
    let out = urnreg(&["lint", "-"], typo);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("expected i64"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("template import"), "{}", stderr(&out));
}
