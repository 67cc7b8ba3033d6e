//! Rendering registrations through the minijinja templates of
//! `templates/` (embedded in the binary): the RFC 8141 Appendix A text,
//! the older RFC 3406 text, HTML and Markdown, and the skeleton that
//! `template new` writes.
//!
//! Undefined variables are errors (strict mode), so a template can never
//! print a blank where a field was expected; HTML is auto-escaped.

use std::borrow::Cow;
use std::collections::BTreeMap;

use minijinja::{Environment, UndefinedBehavior, Value};
use serde::Serialize;

use super::{FIELDS, TemplateFields};
use crate::registry::registration::DateValue;
use crate::registry::{Kind, RegistrationFile};
use crate::rules::RulesFile;
use crate::rules::describe::{Statement, describe, to_text};

/// The templates, by name; the `.html` one is auto-escaped.
const TEMPLATES: &[(&str, &str)] = &[
    ("rfc8141.txt", include_str!("../../templates/rfc8141.txt")),
    ("rfc3406.txt", include_str!("../../templates/rfc3406.txt")),
    ("markdown.md", include_str!("../../templates/markdown.md")),
    (
        "registration.html",
        include_str!("../../templates/registration.html"),
    ),
    (
        "registration.toml",
        include_str!("../../templates/registration.toml"),
    ),
    ("site-index.html", include_str!("../../templates/site-index.html")),
    ("namespace.html", include_str!("../../templates/namespace.html")),
];

/// Where rendered text is wrapped (RFC 8141 Appendix A is sent as plain
/// text in RFC style).
pub const WIDTH: usize = 72;

/// The forms a registration renders to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// RFC 8141 Appendix A, plain text, as sent for review.
    Rfc8141,
    /// The older RFC 3406 template, plain text.
    Rfc3406,
    /// A standalone HTML page.
    Html,
    /// Markdown.
    Markdown,
}

impl Form {
    /// Every form, with its name.
    pub const ALL: [(&'static str, Form); 4] = [
        ("rfc8141", Form::Rfc8141),
        ("rfc3406", Form::Rfc3406),
        ("html", Form::Html),
        ("markdown", Form::Markdown),
    ];

    /// The form named `name` (`rfc8141`, `rfc3406`, `html`, `markdown`).
    pub fn from_name(name: &str) -> Option<Form> {
        Form::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    fn template(self) -> &'static str {
        match self {
            Form::Rfc8141 => "rfc8141.txt",
            Form::Rfc3406 => "rfc3406.txt",
            Form::Html => "registration.html",
            Form::Markdown => "markdown.md",
        }
    }

    /// The text form `file` was written in: RFC 3406 for an older text,
    /// RFC 8141 otherwise (even when it lacks a field Appendix A requires:
    /// see [`render_as_written`]).
    pub fn text_form_for(file: &RegistrationFile) -> Form {
        if file.template_fields().is_legacy_form() {
            Form::Rfc3406
        } else {
            Form::Rfc8141
        }
    }
}

/// The Namespace Identifier of an informal request, whose NID IANA is
/// to assign (RFC 8141 section 5.2); the importer reads it back as an
/// informal namespace with no NID.
pub const INFORMAL_NID_TEXT: &str = "Assigned by IANA (informal namespace, RFC 8141 section 5.2)";

/// A rendering failure: a field the form needs is missing, or a template
/// error (with its line).
#[derive(Debug)]
pub struct RenderError(pub String);

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenderError {}

/// One field in the order a form shows it.
#[derive(Serialize)]
pub(crate) struct Shown<'a> {
    key: &'static str,
    heading: &'static str,
    value: Cow<'a, str>,
}

/// What the identifying fields of a form need beside the body fields.
const IDENTIFYING: &[&str] = &["namespace_identifier", "version", "date"];

pub use super::RULES_HEADING;

/// Whether `value` is filled in: given, and not blank (a skeleton's
/// `""` is a field still to fill).
fn filled(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.trim().is_empty())
}

/// The identifying fields `file` lacks or leaves blank: the NID (an
/// informal request has none until IANA assigns it, RFC 8141 section
/// 5.2) and, when they are headings of the form (`headed`, RFC 8141
/// Appendix A; an RFC 3406 text says them inside "Registration
/// Information"), the version and the date.
fn missing_identifying(file: &RegistrationFile, headed: bool) -> Vec<&'static str> {
    let mut missing: Vec<&'static str> = Vec::new();
    if !filled(file.nid.as_deref()) && file.kind != Some(Kind::Informal) {
        missing.push("nid");
    }
    if headed && file.version.is_none() {
        missing.push("version");
    }
    if headed && !filled(file.date.as_ref().map(DateValue::as_text).as_deref()) {
        missing.push("date");
    }
    missing
}

/// Appendix A fields `rfc8141` cannot render without (the required ones,
/// and NID, version and date), given or left blank.
pub fn missing_for_rfc8141(file: &RegistrationFile) -> Vec<&'static str> {
    let mut missing = missing_identifying(file, true);
    for key in crate::registry::registration::REQUIRED_FIELDS {
        if !filled(file.field(key)) {
            missing.push(key);
        }
    }
    missing
}

/// The fields [`render_as_written`] cannot render without: the NID (and
/// the version and date, headings of RFC 8141 Appendix A; an RFC 3406
/// text says them inside "Registration Information"), each required
/// field written but left blank, and, when no field of the template is
/// filled in at all, every required one. A required field a text leaves
/// out stays out, as the text left it (the cdx texts of 2022 and 2023 have
/// no Resolution section).
pub fn missing_as_written(file: &RegistrationFile) -> Vec<&'static str> {
    let form = Form::text_form_for(file);
    let mut missing = missing_identifying(file, form == Form::Rfc8141);
    let fields = file.template_fields();
    let any = fields
        .present()
        .any(|(key, _, value)| !IDENTIFYING.contains(&key) && filled(Some(value)));
    for key in crate::registry::registration::REQUIRED_FIELDS {
        let value = file.field(key);
        if (!any && !filled(value)) || value.is_some_and(|v| v.trim().is_empty()) {
            missing.push(key);
        }
    }
    missing
}

/// The refusal of a rendering that lacks `missing`: each named, and
/// worded for one field or several.
fn needs(what: &str, missing: &[&str], hint: &str) -> RenderError {
    let (names, them) = match missing {
        [one] => ((*one).to_string(), "it"),
        [rest @ .., last] => (format!("{} and {last}", rest.join(", ")), "them"),
        [] => (String::new(), "them"),
    };
    RenderError(format!("{what} needs {names} (Appendix A); fill {them} in{hint}"))
}

/// Every field `fields` fills, in the order of its form: RFC 8141
/// Appendix A first, or the RFC 3406 fields first for an older text (the
/// namespace pages of the `html` export).
#[cfg_attr(not(feature = "snapshots"), allow(dead_code))]
pub(crate) fn shown_fields(fields: &TemplateFields) -> Vec<Shown<'_>> {
    let present: BTreeMap<&str, &str> = fields.present().map(|(k, _, v)| (k, v)).collect();
    in_form_order(&present, !fields.is_legacy_form())
}

/// The fields of `present`, Appendix A ones first or last.
fn in_form_order<'a>(present: &BTreeMap<&str, &'a str>, appendix_a_first: bool) -> Vec<Shown<'a>> {
    FIELDS
        .iter()
        .filter(|f| f.2 == appendix_a_first)
        .chain(FIELDS.iter().filter(|f| f.2 != appendix_a_first))
        .filter_map(|(key, heading, _)| {
            present.get(key).map(|value| Shown {
                key,
                heading,
                value: Cow::Borrowed(value),
            })
        })
        .collect()
}

/// RFC 3406 section 4 fields and the RFC 8141 Appendix A field that asks
/// for the same thing, for a registration in the RFC 8141 form rendered
/// in the RFC 3406 form. "Conformance with URN Syntax" asks for the
/// syntax issues that RFC 8141 section 6.4.5 puts under Interoperability;
/// "Scope" is part of what section 6.4.1 puts under Purpose.
const RFC3406_FROM_RFC8141: &[(&str, &str)] = &[
    ("declared_registrant", "registrant"),
    ("syntactic_structure", "syntax"),
    ("ancillary_documentation", "documentation"),
    ("assignment_process", "assignment"),
    ("resolution_process", "resolution"),
    ("conformance", "interoperability"),
    ("scope", "purpose"),
];

/// The topics of [`describe`] that answer RFC 3406's "Validation
/// mechanism" (what is checked) and "Rules for Lexical Equivalence".
const VALIDATION_TOPICS: &[&str] = &[
    "NSS syntax",
    "NSS syntax (ABNF)",
    "NSS syntax (regular expression)",
    "Check digit",
    "Components",
];

/// The RFC 3406 section 4 template filled from a registration in the
/// RFC 8141 form: each RFC 3406 field from the field of its own name if
/// the registration has one, else from the Appendix A field that asks for
/// the same (RFC 8141 merged "Identifier uniqueness considerations",
/// "Identifier persistence considerations" and "Process of identifier
/// assignment" into Assignment, so the first two point to the third),
/// "Registration Information" from the version and date, and the
/// validation and equivalence fields from the registration's rules. The
/// Appendix A fields no RFC 3406 field asks for follow under their own
/// headings. Returns the fields and the rule statements not placed.
fn rfc3406_from_rfc8141<'a>(
    present: &BTreeMap<&str, &'a str>,
    version: Option<i64>,
    date: Option<&str>,
    rules: Vec<Statement>,
) -> (Vec<Shown<'a>>, Vec<Statement>) {
    let mut used: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    let (mut equivalence, mut validation, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for s in rules {
        if s.topic == "Equivalence" {
            equivalence.push(s);
        } else if VALIDATION_TOPICS.contains(&s.topic) {
            validation.push(s);
        } else {
            rest.push(s);
        }
    }
    let heading_of = |key: &str| FIELDS.iter().find(|f| f.0 == key).map_or("?", |f| f.1);
    for (key, heading, _) in FIELDS.iter().filter(|f| !f.2) {
        let value: Option<Cow<'a, str>> = if let Some(own) = present.get(key) {
            Some(Cow::Borrowed(*own))
        } else if let Some((_, from)) = RFC3406_FROM_RFC8141.iter().find(|(k, _)| k == key) {
            present.get(from).map(|v| {
                used.push(from);
                Cow::Borrowed(*v)
            })
        } else {
            match *key {
                "registration_information" => {
                    let lines: Vec<String> = version
                        .map(|v| format!("Registration version number: {v}"))
                        .into_iter()
                        .chain(date.map(|d| format!("Registration date: {d}")))
                        .collect();
                    (!lines.is_empty()).then(|| Cow::Owned(lines.join("\n")))
                }
                "uniqueness" | "persistence" if present.contains_key("assignment") => {
                    let what = if *key == "uniqueness" {
                        "uniqueness"
                    } else {
                        "persistence"
                    };
                    Some(Cow::Owned(format!(
                        "See \"{}\" (RFC 8141's Assignment field, which covers {what}).",
                        heading_of("assignment_process")
                    )))
                }
                "lexical_equivalence" if !equivalence.is_empty() => {
                    Some(Cow::Owned(to_text(&std::mem::take(&mut equivalence), WIDTH - 3)))
                }
                "lexical_equivalence" if present.contains_key("syntax") => Some(Cow::Owned(format!(
                    "See \"{}\" (RFC 8141's Syntax field, which states any namespace-specific \
                     equivalence rules).",
                    heading_of("syntactic_structure")
                ))),
                "validation" if !validation.is_empty() => {
                    Some(Cow::Owned(to_text(&std::mem::take(&mut validation), WIDTH - 3)))
                }
                "validation" if present.contains_key("syntax") => Some(Cow::Owned(format!(
                    "Not part of the RFC 8141 template; see \"{}\".",
                    heading_of("syntactic_structure")
                ))),
                _ => None,
            }
        };
        if let Some(value) = value {
            out.push(Shown { key, heading, value });
        }
    }
    for (key, heading, _) in FIELDS.iter().filter(|f| f.2) {
        if let Some(v) = present.get(key).filter(|_| !used.contains(key)) {
            out.push(Shown {
                key,
                heading,
                value: Cow::Borrowed(v),
            });
        }
    }
    let unplaced = equivalence.into_iter().chain(validation).chain(rest).collect();
    (out, unplaced)
}

/// The rules a registration file carries, as statements.
fn rules_of(file: &RegistrationFile) -> Result<Vec<Statement>, RenderError> {
    let Some(table) = &file.rules else {
        return Ok(Vec::new());
    };
    let rules: RulesFile = toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e| RenderError(format!("the [rules] table does not read: {e}")))?;
    let nid = file.nid.as_deref().unwrap_or("urn-0");
    Ok(describe(&rules, nid))
}

/// Renders `file` in the text form it was written in ([`Form::text_form_for`]),
/// every line as written (none wrapped or joined) and a field it lacks
/// left out as the text left it out (a 2022 text without a Resolution
/// section renders without one), so that importing the result gives the
/// same fields back. [`render`] with [`Form::Rfc8141`] refuses such a file
/// instead: a registration sent for review needs them all.
///
/// # Errors
///
/// The fields it cannot render without ([`missing_as_written`]);
/// template errors.
pub fn render_as_written(file: &RegistrationFile, status: Option<&str>) -> Result<String, RenderError> {
    let missing = missing_as_written(file);
    if !missing.is_empty() {
        return Err(needs("the registration", &missing, ""));
    }
    render_form(file, Form::text_form_for(file), status, false)
}

/// The template environment with our filters.
pub(crate) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .keep_trailing_newline(true)
            .build()
            .expect("default delimiters"),
    );
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .expect("the shipped templates parse (tested)");
    }
    // The text forms indent each field's lines; they wrap prose only when
    // the render asks for it (`wrap`), never in the form a text was
    // written in ([`render_as_written`]).
    env.add_filter("block", |state: &minijinja::State<'_, '_>, value: String| {
        let wrap = state.lookup("wrap").is_none_or(|w| w.is_true());
        if wrap {
            block(&value, 3, WIDTH)
        } else {
            indented(&value, 3)
        }
    });
    env.add_filter("fenced", |value: String| fenced(&value));
    env.add_filter("md_text", |value: String| markdown_text(&value));
    env.add_filter("md_code", |value: String| markdown_code(&value));
    env.add_filter("toml", |value: Value| -> String {
        let text = value.as_str().unwrap_or_default();
        toml_string(text)
    });
    env
}

/// Renders `file` in `form`; `status` (e.g. `approved`) is shown by the
/// HTML and Markdown forms when given.
///
/// # Errors
///
/// For `rfc8141`, the list of required fields the file does not fill;
/// template errors otherwise.
pub fn render(file: &RegistrationFile, form: Form, status: Option<&str>) -> Result<String, RenderError> {
    if form == Form::Rfc8141 {
        let missing = missing_for_rfc8141(file);
        if !missing.is_empty() {
            return Err(needs(
                "the RFC 8141 form",
                &missing,
                ", or use --form rfc3406 for an older registration",
            ));
        }
    }
    render_form(file, form, status, true)
}

/// `file` in `form`; `wrap`: prose lines over [`WIDTH`] are wrapped (see
/// [`block`]), else every line is kept as written.
fn render_form(
    file: &RegistrationFile,
    form: Form,
    status: Option<&str>,
    wrap: bool,
) -> Result<String, RenderError> {
    let fields = file.template_fields();
    let mut ctx: BTreeMap<&str, Value> = BTreeMap::new();
    if let Some(nid) = &file.nid {
        ctx.insert("nid", Value::from(nid.as_str()));
    }
    if let Some(v) = file.version {
        ctx.insert("version", Value::from(v));
    }
    if let Some(d) = &file.date {
        ctx.insert("date", Value::from(d.as_text()));
    }
    if let Some(k) = file.kind {
        ctx.insert("kind", Value::from(k.as_str()));
    }
    ctx.insert("informal_nid", Value::from(INFORMAL_NID_TEXT));
    ctx.insert("wrap", Value::from(wrap));
    if let Some(s) = status {
        ctx.insert("status", Value::from(s));
    }
    let mut present: BTreeMap<&str, &str> = fields
        .present()
        .filter(|(k, _, _)| !IDENTIFYING.contains(k))
        .map(|(k, _, v)| (k, v))
        .collect();
    // RFC 3406 section 4 (and RFC 2611 section 3) has no Version or Date
    // heading: "Registration Information" holds the registration version
    // number and date. A version or date a text with that block does not
    // say is written there, never as a heading of its own above it.
    let information = (form == Form::Rfc3406 && fields.is_legacy_form())
        .then(|| registration_information(&present, file.version, file.date.as_ref().map(|d| d.as_text())))
        .flatten();
    if let Some(info) = &information {
        present.insert("registration_information", info);
    }
    ctx.insert("f", Value::from(minijinja::value::Serde(&present)));
    let shown = |appendix_a_first: bool| in_form_order(&present, appendix_a_first);
    let mut rules = rules_of(file)?;
    let mapped = form == Form::Rfc3406 && !fields.is_legacy_form();
    let (fields_list, others): (Vec<Shown<'_>>, Vec<Shown<'_>>) = match form {
        Form::Rfc8141 => (
            Vec::new(),
            shown(true)
                .into_iter()
                .filter(|s| !is_appendix_a(s.key))
                .collect(),
        ),
        Form::Rfc3406 if mapped => {
            let date = file.date.as_ref().map(|d| d.as_text());
            let (list, unplaced) = rfc3406_from_rfc8141(&present, file.version, date.as_deref(), rules);
            rules = unplaced;
            (list, Vec::new())
        }
        Form::Rfc3406 => (shown(false), Vec::new()),
        Form::Html | Form::Markdown => (shown(!fields.is_legacy_form()), Vec::new()),
    };
    ctx.insert("mapped", Value::from(mapped));
    // A text without Registration Information (urn-4's `Version 1` and
    // `Date:` lines) shows its version and date as it wrote them.
    let info = present.get("registration_information").copied();
    ctx.insert(
        "version_line",
        Value::from(file.version.is_some() && info.is_none()),
    );
    ctx.insert("date_line", Value::from(file.date.is_some() && info.is_none()));
    ctx.insert("fields", Value::from(minijinja::value::Serde(&fields_list)));
    ctx.insert("others", Value::from(minijinja::value::Serde(&others)));
    if !rules.is_empty() {
        ctx.insert("rules_heading", Value::from(RULES_HEADING));
        // Wrapped here, to the width `block` indents it into, so that a
        // long grammar line continues as ABNF continues a rule.
        ctx.insert("rules_text", Value::from(to_text(&rules, WIDTH - 3)));
        ctx.insert("rules", Value::from(minijinja::value::Serde(&rules)));
    }
    let env = environment();
    let template = env.get_template(form.template()).expect("shipped template");
    template.render(ctx).map_err(|e| RenderError(template_error(&e)))
}

/// An RFC 3406 text's Registration Information with the registration
/// version number and date it does not say added (the version first, the
/// date last, as RFC 3406 section 4 lists them); `None` when it says both,
/// or when the text has no Registration Information.
fn registration_information(
    present: &BTreeMap<&str, &str>,
    version: Option<i64>,
    date: Option<String>,
) -> Option<String> {
    let info = present.get("registration_information").copied()?;
    let version = version.filter(|v| super::import::number_after(info, "version") != Some(*v));
    let date = date.filter(|d| super::import::date_after(info, "date").as_deref() != Some(d.as_str()));
    if version.is_none() && date.is_none() {
        return None;
    }
    let lines: Vec<String> = version
        .map(|v| format!("Registration version number: {v}"))
        .into_iter()
        .chain((!info.trim().is_empty()).then(|| info.to_string()))
        .chain(date.map(|d| format!("Registration date: {d}")))
        .collect();
    Some(lines.join("\n"))
}

fn is_appendix_a(key: &str) -> bool {
    FIELDS.iter().any(|f| f.0 == key && f.2)
}

pub(crate) fn template_error(e: &minijinja::Error) -> String {
    let mut msg = format!("template {}: {}", e.name().unwrap_or("?"), e);
    if let Some(line) = e.line() {
        msg.push_str(&format!(" (line {line})"));
    }
    msg
}

/// The skeleton registration file of `template new`: a new request, or,
/// with `current`, a revision of a registered NID pre-filled with the
/// version in force.
pub fn skeleton(
    kind: Kind,
    nid: Option<&str>,
    current: Option<&RegistrationFile>,
    file_hint: &str,
) -> String {
    let fields = current.map(RegistrationFile::template_fields).unwrap_or_default();
    let text_of = |key: &str| fields.get(key).cloned().flatten().unwrap_or_default();
    let f: BTreeMap<&str, String> = FIELDS
        .iter()
        .filter(|f| f.2)
        .map(|f| (f.0, text_of(f.0)))
        .collect();
    let version = current.and_then(|c| c.version).map_or(1, |v| v + 1);
    // A revision starts from the rules of the version it revises.
    let rules = current
        .and_then(|c| c.rules.clone())
        .and_then(|t| {
            toml::to_string(&toml::Table::from_iter([(
                "rules".to_string(),
                toml::Value::Table(t),
            )]))
            .ok()
        })
        .unwrap_or_default();
    let ctx = minijinja::context! {
        kind => kind.as_str(),
        nid => nid.unwrap_or_default(),
        version => version,
        revising => current.is_some(),
        file_hint => file_hint,
        f => f,
        rules => rules,
    };
    let env = environment();
    env.get_template("registration.toml")
        .and_then(|t| t.render(ctx))
        .expect("the skeleton renders from its fixed context (tested)")
}

/// A TOML string for `text`: a basic string, or a multi-line one when the
/// text has line breaks.
fn toml_string(text: &str) -> String {
    if text.contains('\n') {
        let escaped = text.replace('\\', "\\\\").replace("\"\"\"", "\"\"\\\"");
        let escaped: String = escaped
            .chars()
            .map(|c| match c {
                '\t' | '\n' => c.to_string(),
                c if c.is_control() => format!("\\u{:04X}", c as u32),
                c => c.to_string(),
            })
            .collect();
        let tail = if escaped.ends_with('"') { "\\\"" } else { "" };
        let body = if tail.is_empty() {
            &escaped[..]
        } else {
            &escaped[..escaped.len() - 1]
        };
        format!("\"\"\"\n{body}{tail}\"\"\"")
    } else {
        toml::Value::String(text.to_string()).to_string()
    }
}

/// `text` indented by `indent` spaces, every line as written.
fn indented(text: &str, indent: usize) -> String {
    let prefix = " ".repeat(indent);
    text.trim_end()
        .lines()
        .map(|line| match line.trim_end() {
            "" => String::new(),
            line => format!("{prefix}{line}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` indented by `indent` spaces (each line keeping its own
/// indentation beyond), prose lines longer than `width` wrapped at spaces.
/// A line whose text fits in `width` is kept as written, even if the indent
/// takes it past (registration texts are 72 columns wide with their own
/// indent), and two spaces after a full stop stay two. Only prose is
/// wrapped (`is_laid_out` tells what is not): a table, an indented
/// line, a list item with a hanging indent, a URN pattern or a grammar
/// keeps its lines. A list item that is wrapped hangs its next lines
/// under its text.
pub fn block(text: &str, indent: usize, width: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
    let mut out = String::new();
    // The last words of a wrapped line, carried on to the next line of
    // the same paragraph (a line one word too long left that word alone).
    let mut carry = String::new();
    for (i, line) in lines.iter().enumerate() {
        let joined;
        let line = if carry.is_empty() {
            *line
        } else {
            joined = format!("{carry} {}", line.trim_start());
            carry.clear();
            &joined
        };
        if !out.is_empty() {
            out.push('\n');
        }
        if line.is_empty() {
            continue;
        }
        let body = line.trim_start();
        let own_indent = line.len() - body.len();
        let prefix = " ".repeat(indent + own_indent);
        let next = lines.get(i + 1).copied();
        if line.chars().count() <= width || is_laid_out(line, next, width) {
            out.push_str(&prefix);
            out.push_str(body);
            continue;
        }
        // A list item's lines after its first hang under its text, not
        // under its bullet, so that they read as the item's.
        let hang = list_marker_width(body);
        let mut pieces: Vec<String> = Vec::new();
        let mut current = String::new();
        let mut gap = 0;
        for word in body.split(' ') {
            if word.is_empty() {
                gap += 1;
                continue;
            }
            let lead = prefix.len() + if pieces.is_empty() { 0 } else { hang };
            let len = lead + current.chars().count();
            if !current.is_empty() && len + gap + 1 + word.chars().count() > width {
                pieces.push(std::mem::take(&mut current));
            } else if !current.is_empty() {
                current.push_str(&" ".repeat(gap + 1));
            }
            current.push_str(word);
            gap = 0;
        }
        let next_continues =
            next.is_some_and(|next| continues_paragraph(next, lines.get(i + 2).copied(), width));
        // A list item's tail is its own: the next line is no part of it.
        if next_continues && !pieces.is_empty() && hang == 0 {
            carry = current;
        } else {
            pieces.push(current);
        }
        let hanging = " ".repeat(hang);
        let wrapped: Vec<String> = pieces
            .iter()
            .enumerate()
            .map(|(n, p)| {
                if n == 0 {
                    format!("{prefix}{p}")
                } else {
                    format!("{prefix}{hanging}{p}")
                }
            })
            .collect();
        out.push_str(&wrapped.join("\n"));
    }
    out
}

/// Whether `line` (followed by `next`) is laid out rather than prose, and
/// so never wrapped nor joined: an indented line (an example, a list), a
/// line of grammar (a wrapped comment would become rule elements, RFC
/// 5234 section 3.1; `=` and `=/` rules), a URN pattern ([`is_pattern`]),
/// a word longer than `width` alone on its line (a URL), a table row
/// (columns parted by runs of spaces), or a list item whose next line
/// hangs indented below it.
fn is_laid_out(line: &str, next: Option<&str>, width: usize) -> bool {
    let body = line.trim_start();
    let own_indent = line.len() - body.len();
    let hanging = next.is_some_and(|n| {
        let n_body = n.trim_start();
        !n_body.is_empty() && n.len() - n_body.len() > own_indent
    });
    own_indent > 0
        || (!body.contains(' ') && line.chars().count() > width)
        || is_grammar(body)
        || is_pattern(body)
        || is_table_row(body)
        || (is_list_item(body) && hanging)
}

/// A line that is a pattern rather than prose: every space in it is
/// inside brackets (`{}`, `[]`, `<>`), balanced, as in adi's `urn:adi:
/// {Inception Event Fingerprint}:[{Tail Event Sequence No.}:{Tail Event
/// Fingerprint}]` (one URN pattern, RFC 8141 section 2, whose placeholders
/// are named in words). Wrapped, it would be two patterns, neither the
/// one a reader copies; a sentence naming a placeholder has spaces
/// outside brackets, and is prose.
fn is_pattern(body: &str) -> bool {
    let mut depth = 0usize;
    let mut spaced = false;
    for c in body.trim_end().chars() {
        match c {
            '{' | '[' | '<' => depth += 1,
            '}' | ']' | '>' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            ' ' if depth == 0 => return false,
            ' ' => spaced = true,
            _ => {}
        }
    }
    spaced && depth == 0
}

/// The width of a list item's marker and the space after it (`- `: 2,
/// `12. `: 4, `[3] `: 4), under which its wrapped lines hang; 0 for a
/// line that is no list item (`**Bold**` starts with no bullet).
fn list_marker_width(body: &str) -> usize {
    let marker_end = if body.starts_with(['-', '*', '\u{2022}', 'o']) {
        body.chars().next().map_or(0, char::len_utf8)
    } else if body.starts_with('[') {
        match body.find(']') {
            Some(close) if close <= 4 && body[1..close].bytes().all(|b| b.is_ascii_alphanumeric()) => {
                close + 1
            }
            _ => return 0,
        }
    } else {
        match body.find(['.', ')']) {
            Some(at) if (1..=3).contains(&at) && body[..at].bytes().all(|b| b.is_ascii_alphanumeric()) => {
                at + 1
            }
            _ => return 0,
        }
    };
    let spaces = body[marker_end..].bytes().take_while(|b| *b == b' ').count();
    if spaces == 0 || !is_list_item(body) {
        return 0;
    }
    body[..marker_end].chars().count() + spaces
}

/// Columns parted by runs of spaces (`DC        Dublin Core  https://...`):
/// two spaces or more that do not follow the end of a sentence.
fn is_table_row(body: &str) -> bool {
    let body = body.trim_end();
    body.match_indices("  ")
        .any(|(at, _)| at > 0 && !body[..at].ends_with(['.', '!', '?', ':', ';', ' ']))
}

/// A list item: a bullet (`-`, `*`, `•`, `o`) or a number or letter with
/// `.` or `)`, then a space; or a bracketed reference (`[1]`).
fn is_list_item(body: &str) -> bool {
    body.starts_with(['-', '*', '\u{2022}', '['])
        || body.starts_with("o ")
        || body.split_once(['.', ')']).is_some_and(|(n, rest)| {
            !n.is_empty()
                && n.len() <= 3
                && n.bytes().all(|b| b.is_ascii_alphanumeric())
                && rest.starts_with(' ')
        })
}

/// Whether `line` (followed by `next`) goes on with the paragraph of the
/// line before it: prose at the margin, not a list item, nothing laid out.
fn continues_paragraph(line: &str, next: Option<&str>, width: usize) -> bool {
    let body = line.trim_start();
    !body.is_empty() && !is_list_item(body) && !is_laid_out(line, next, width)
}

/// A line of ABNF (RFC 5234): a comment (`;`), or a rule (`name =` or
/// `name =/`), or BNF's `::=` or `:=` (RFC 2141's style).
fn is_grammar(line: &str) -> bool {
    if line.starts_with(';') || line.contains(":=") {
        return true;
    }
    let name_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '<' || c == '>'))
        .unwrap_or(line.len());
    name_end > 0 && line[name_end..].trim_start().starts_with('=')
}

/// `text` in a fenced code block whose fence does not occur in it.
fn fenced(text: &str) -> String {
    let mut fence = "```".to_string();
    while text.contains(&fence) {
        fence.push('`');
    }
    format!("{fence}text\n{}\n{fence}", text.trim_end())
}

/// `text` as Markdown inline text that reads exactly as written, for a
/// table cell or a heading: control characters (line breaks among them,
/// which would end the cell) become spaces, and every ASCII punctuation
/// character but `-`, `.`, `:` and `/` is backslash-escaped, which
/// CommonMark allows for any ASCII punctuation (spec 0.31, section 2.4), so
/// that nothing in it starts HTML, an entity, a link, emphasis, code or a
/// new table cell. NIDs and dates, which use none of those, are unchanged.
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push(' ');
        } else if c.is_ascii_punctuation() && !"-.:/".contains(c) {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as a Markdown code span when nothing in it can end one or break
/// a table cell (no backtick, `|`, backslash or control character: inside
/// a code span nothing else is markup, CommonMark section 6.1); otherwise
/// as [`markdown_text`].
fn markdown_code(text: &str) -> String {
    if text.is_empty() || text.chars().any(|c| c.is_control() || "`|\\".contains(c)) {
        markdown_text(text)
    } else {
        format!("`{text}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_values_are_text_never_markup() {
        assert_eq!(markdown_text("2026-11-02"), "2026-11-02");
        assert_eq!(markdown_code("acme-parts"), "`acme-parts`");
        assert_eq!(
            markdown_text("<img src=x onerror=alert(1)>"),
            "\\<img src\\=x onerror\\=alert\\(1\\)\\>"
        );
        assert_eq!(
            markdown_text("a|b\nc &amp; [x](y)"),
            "a\\|b c \\&amp\\; \\[x\\]\\(y\\)"
        );
        assert_eq!(markdown_code("a`b"), "a\\`b");
        assert_eq!(markdown_code("a|b"), "a\\|b");
    }

    /// ABNF and indented lines are never wrapped: a wrapped comment would
    /// become rule elements (RFC 5234 section 3.1).
    #[test]
    fn grammar_and_indented_lines_are_kept_whole() {
        let comment = format!("            ; {}", "a comment word ".repeat(6).trim_end());
        let rule = format!("version-reason = {}", "\":\" version ".repeat(8).trim_end());
        let prose = "word ".repeat(20);
        let out = block(&format!("{comment}\n{rule}\n{prose}"), 3, 72);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0].trim_start(), comment.trim_start());
        assert_eq!(lines[1].trim_start(), rule);
        assert!(lines.len() > 3, "prose is still wrapped: {out}");
    }

    /// A line one word too long does not leave that word alone on a line
    /// of its own: it goes on with the next line of its paragraph (mrn's
    /// Assignment), not into a list item or a grammar.
    #[test]
    fn block_carries_a_wrapped_tail_into_its_paragraph() {
        let long = "Assignment is done by filling out and sending in the template. IALA will ensure";
        let out = block(
            &format!("{long}\nthe uniqueness of IDs.\n6.4.3 of RFC 8141 applies."),
            3,
            72,
        );
        assert_eq!(
            out,
            "   Assignment is done by filling out and sending in the template. IALA\n   \
             will ensure the uniqueness of IDs.\n   6.4.3 of RFC 8141 applies."
        );
        let out = block(&format!("{long}\n- an item"), 3, 72);
        assert!(out.ends_with("IALA\n   will ensure\n   - an item"), "{out}");
    }

    /// A table (columns parted by runs of spaces) and a list item whose
    /// next line hangs below it are laid out: never wrapped, and no wrapped
    /// line is carried into them (meta's table of format codes, stalwart's
    /// list of NSS parts). Two spaces after a full stop are prose.
    #[test]
    fn block_keeps_tables_and_hanging_list_items_whole() {
        let row = "DC        Dublin Core  https://www.dublincore.org/specifications/dublin-core/";
        let prose = format!("{} end.", "word ".repeat(14).trim_end());
        let text = format!("{prose}\n{row}\nDDI       DDI          https://ddialliance.org/explore");
        let out = block(&text, 3, 72);
        assert!(out.contains(&format!("\n   {row}\n")), "{out}");
        let item = "- {resource-type} is a string comprised of lowercase letters, digits, and";
        let out = block(&format!("{item}\n  hyphens that designate it."), 3, 72);
        assert_eq!(out, format!("   {item}\n     hyphens that designate it."));
        assert!(!is_table_row("One sentence.  Another one."));
        assert!(is_table_row("DC        Dublin Core"));
        // Without wrapping, every line as written.
        let long = "word ".repeat(20);
        assert_eq!(
            indented(&format!("{long}\n\n  x"), 3),
            format!("   {}\n\n     x", long.trim_end())
        );
    }

    /// A URN pattern whose placeholders have spaces (adi's), a word longer
    /// than the width, and `=`/`=/` rules (RFC 5234 section 3.3) are never
    /// wrapped; a sentence naming a placeholder is prose (findings F6).
    #[test]
    fn patterns_long_words_and_rules_are_never_wrapped() {
        let pattern =
            "urn:adi:{Inception Event Fingerprint}:[{Tail Event Sequence No.}:{Tail Event Fingerprint}]";
        let url = format!("https://example.org/{}", "segment/".repeat(10));
        let rule = format!("nss =/ {}", "\"x\" DIGIT ".repeat(10).trim_end());
        let prose = format!(
            "Where the \"{{Inception Event Fingerprint}}\" is {}",
            "word ".repeat(12).trim_end()
        );
        for line in [pattern, url.as_str(), rule.as_str()] {
            let out = block(&format!("{}\n{line}\nend.", "lead ".repeat(16).trim_end()), 3, 72);
            assert!(out.contains(&format!("\n   {line}\n")), "{out}");
        }
        assert!(block(&prose, 3, 72).lines().count() > 1);
        assert!(is_pattern("<a b>:{c d}"));
        assert!(!is_pattern("{a b} and c"));
        assert!(!is_pattern("{a b"));
        assert!(!is_pattern("a -> b"));
    }

    /// A wrapped list item's next lines hang under its text, whatever its
    /// marker; its tail is not carried into the next line.
    #[test]
    fn wrapped_list_items_hang_under_their_text() {
        let words = "word ".repeat(20);
        for (marker, hang) in [("-", 2), ("*", 2), ("1.", 3), ("12)", 4), ("[3]", 4), ("o", 2)] {
            let out = block(&format!("{marker} {words}\nnext line."), 3, 72);
            let lines: Vec<&str> = out.lines().collect();
            assert!(lines.len() >= 3, "{out}");
            let pad = " ".repeat(3 + hang);
            for l in &lines[1..lines.len() - 1] {
                assert!(
                    l.starts_with(&pad) && !l[pad.len()..].starts_with(' '),
                    "{marker}: {out}"
                );
            }
            assert_eq!(lines[lines.len() - 1], "   next line.", "{marker}: {out}");
        }
        assert_eq!(list_marker_width("**Bold:** text"), 0);
        assert_eq!(list_marker_width("only words"), 0);
        assert_eq!(list_marker_width("e.g. this"), 0);
        assert_eq!(list_marker_width("-   spaced"), 4);
        assert_eq!(list_marker_width("\u{2022} bullet"), 2);
    }

    #[test]
    fn block_indents_and_wraps_at_72() {
        let long = "word ".repeat(30);
        let out = block(&format!("{long}\n\n  indented line"), 3, 72);
        assert!(out.lines().all(|l| l.chars().count() <= 72), "{out}");
        assert!(out.lines().next().unwrap().starts_with("   word"));
        assert!(out.contains("\n\n     indented line"));
    }

    #[test]
    fn toml_strings_read_back() {
        for text in [
            "plain",
            "two\nlines",
            "ends with quote\"",
            "has \"\"\" inside\nand \\ too",
            "tab\there\nx",
        ] {
            let doc = format!("v = {}", toml_string(text));
            let back: toml::Table = toml::from_str(&doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
            assert_eq!(back["v"].as_str(), Some(text), "{doc}");
        }
    }

    #[test]
    fn every_template_parses() {
        let env = environment();
        for (name, _) in TEMPLATES {
            assert!(env.get_template(name).is_ok(), "{name}");
        }
    }
}
