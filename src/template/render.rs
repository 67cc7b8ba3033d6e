//! Rendering registrations through the minijinja templates of
//! `templates/` (embedded in the binary): the RFC 8141 Appendix A text,
//! the older RFC 3406 text, HTML and Markdown, and the skeleton that
//! `template new` writes.
//!
//! Undefined variables are errors (strict mode), so a template can never
//! print a blank where a field was expected; HTML is auto-escaped.

use std::collections::BTreeMap;

use minijinja::{Environment, UndefinedBehavior, Value};
use serde::Serialize;

use super::{FIELDS, TemplateFields};
use crate::registry::{Kind, RegistrationFile};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
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
    fn template(self) -> &'static str {
        match self {
            Form::Rfc8141 => "rfc8141.txt",
            Form::Rfc3406 => "rfc3406.txt",
            Form::Html => "registration.html",
            Form::Markdown => "markdown.md",
        }
    }

    /// The text form that suits `file`: RFC 8141 unless it is in the
    /// older form or lacks what Appendix A requires.
    pub fn text_form_for(file: &RegistrationFile) -> Form {
        if file.template_fields().is_legacy_form() || !missing_for_rfc8141(file).is_empty() {
            Form::Rfc3406
        } else {
            Form::Rfc8141
        }
    }
}

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
    value: &'a str,
}

/// What the identifying fields of a form need beside the body fields.
const IDENTIFYING: &[&str] = &["namespace_identifier", "version", "date"];

/// Appendix A fields `rfc8141` cannot render without (the required ones,
/// and NID, version and date).
pub fn missing_for_rfc8141(file: &RegistrationFile) -> Vec<&'static str> {
    let mut missing: Vec<&'static str> = Vec::new();
    if file.nid.is_none() {
        missing.push("nid");
    }
    if file.version.is_none() {
        missing.push("version");
    }
    if file.date.is_none() {
        missing.push("date");
    }
    for key in crate::registry::registration::REQUIRED_FIELDS {
        if file.field(key).is_none() {
            missing.push(key);
        }
    }
    missing
}

/// Every field `fields` fills, in the order of its form: RFC 8141
/// Appendix A first, or the RFC 3406 fields first for an older text (the
/// namespace pages of the `html` export).
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
        .filter_map(|(key, heading, _)| present.get(key).map(|value| Shown { key, heading, value }))
        .collect()
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
    env.add_filter("block", |value: String| block(&value, 3, WIDTH));
    env.add_filter("fenced", |value: String| fenced(&value));
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
            return Err(RenderError(format!(
                "the RFC 8141 form needs {} (Appendix A); fill them in, or use --form rfc3406 for an older registration",
                missing.join(", ")
            )));
        }
    }
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
    if let Some(s) = status {
        ctx.insert("status", Value::from(s));
    }
    let present: BTreeMap<&str, &str> = fields
        .present()
        .filter(|(k, _, _)| !IDENTIFYING.contains(k))
        .map(|(k, _, v)| (k, v))
        .collect();
    ctx.insert("f", Value::from(minijinja::value::Serde(&present)));
    let shown = |appendix_a_first: bool| in_form_order(&present, appendix_a_first);
    let (fields_list, others): (Vec<Shown<'_>>, Vec<Shown<'_>>) = match form {
        Form::Rfc8141 => (
            Vec::new(),
            shown(true)
                .into_iter()
                .filter(|s| !is_appendix_a(s.key))
                .collect(),
        ),
        Form::Rfc3406 => (shown(false), Vec::new()),
        Form::Html | Form::Markdown => (shown(!fields.is_legacy_form()), Vec::new()),
    };
    ctx.insert("fields", Value::from(minijinja::value::Serde(&fields_list)));
    ctx.insert("others", Value::from(minijinja::value::Serde(&others)));
    let env = environment();
    let template = env.get_template(form.template()).expect("shipped template");
    template.render(ctx).map_err(|e| RenderError(template_error(&e)))
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

/// `text` indented by `indent` spaces (each line keeping its own
/// indentation beyond), lines longer than `width` wrapped at spaces.
pub fn block(text: &str, indent: usize, width: usize) -> String {
    let mut out = String::new();
    for line in text.trim_end().lines() {
        let line = line.trim_end();
        if !out.is_empty() {
            out.push('\n');
        }
        if line.is_empty() {
            continue;
        }
        let own = line.len() - line.trim_start().len();
        let prefix = " ".repeat(indent + own);
        let mut current = prefix.clone();
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let len = current.chars().count();
            if len > prefix.len() && len + 1 + word.chars().count() > width {
                out.push_str(&current);
                out.push('\n');
                current = prefix.clone();
            }
            if current.len() > prefix.len() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(&current);
    }
    out
}

/// `text` in a fenced code block whose fence does not occur in it.
fn fenced(text: &str) -> String {
    let mut fence = "```".to_string();
    while text.contains(&fence) {
        fence.push('`');
    }
    format!("{fence}text\n{}\n{fence}", text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

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
