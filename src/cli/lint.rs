//! `urnreg lint FILE.toml`: the checks an expert reviewer makes first,
//! each finding at its line and column of the file:
//!
//! ```text
//! request.toml:12:9: error[syntax-abnf]: syntax: the ABNF at ... (RFC 8141 Appendix A, RFC 5234)
//! ```
//!
//! Exit status: 0 no errors (warnings allowed), 1 errors, 2 the file
//! cannot be read (a TOML error is reported at its place the same way).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};
use urnreg::lint::{LintContext, Location, Severity, lint_as, locate};
use urnreg::registry::RegistrationFile;

use super::db::DbArgs;
use super::output::{self, Palette, paint, printable, printable_line};
use super::{Format, FormatParser, QuietExit};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The registration file (TOML), or `-` for stdin.
    file: PathBuf,
    /// Output format: text (FILE:LINE:COLUMN: level[rule]: ...) or json.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (text, source) = super::files::read_registration_text(&args.file)?;
    let file: RegistrationFile = match toml::from_str(&text) {
        Ok(file) => file,
        Err(e) => return parse_error(&source, &text, &e, args.format),
    };
    let store = args.db.open_for_read()?;
    let ctx = LintContext::of(&store)?;
    let filing = ctx.filing_for(&file);
    let findings = lint_as(&file, &ctx, &filing);
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = findings.len() - errors;
    let mut out = output::stdout();
    if args.format == Format::Json {
        let findings: Vec<Value> = findings
            .iter()
            .map(|f| {
                let mut v = serde_json::to_value(f)?;
                let at = locate(&text, &f.field, f.offset);
                if let Some(obj) = v.as_object_mut() {
                    obj.insert("line".into(), at.line.into());
                    obj.insert("column".into(), at.column.into());
                }
                Ok(v)
            })
            .collect::<Result<_, serde_json::Error>>()?;
        let report = json!({
            "file": source,
            "mode": filing.name(),
            "errors": errors,
            "warnings": warnings,
            "findings": findings,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let p = Palette::stdout();
        let name = printable_line(&source);
        for f in &findings {
            let (style, level) = match f.severity {
                Severity::Error => (p.error, "error"),
                Severity::Warning => (p.warning, "warning"),
            };
            let at = locate(&text, &f.field, f.offset);
            writeln!(
                out,
                "{}: {}: {}: {} ({})",
                paint(p.dim, format_args!("{name}:{}:{}", at.line, at.column)),
                paint(style, format_args!("{level}[{}]", f.rule)),
                printable_line(&f.field),
                printable_line(&one_line(&f.message)),
                f.section
            )?;
            if let Some(suggestion) = &f.suggestion {
                writeln!(out, "  to paste into {name}:")?;
                for line in suggestion.lines() {
                    writeln!(out, "    {}", printable(line))?;
                }
            }
        }
        let verdict = if errors == 0 {
            paint(p.good, "ok")
        } else {
            paint(p.error, "refused")
        };
        writeln!(
            out,
            "{name}: {verdict} as a {}: {errors} error(s), {warnings} warning(s)",
            filing.name()
        )?;
    }
    out.finish()?;
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A file that is not a registration file: reported at the place the
/// TOML parser names, in the same form as a finding; exit 2.
fn parse_error(source: &str, text: &str, e: &toml::de::Error, format: Format) -> anyhow::Result<ExitCode> {
    let at = Location::of_byte(text, e.span().map_or(0, |span| span.start));
    let message = e.message().trim_end();
    // A template text (RFC 8141 Appendix A or RFC 3406 section 4 form) is
    // read by `template import`, which writes the registration file.
    let hint = urnreg::template::is_template_text(text).then(|| template_text_hint(source));
    if format == Format::Json {
        let mut report = json!({
            "file": source,
            "error": {"line": at.line, "column": at.column, "message": message},
        });
        if let (Some(hint), Some(obj)) = (&hint, report.as_object_mut()) {
            obj.insert("hint".into(), hint.as_str().into());
        }
        let mut out = output::stdout();
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        out.finish()?;
    } else {
        let p = Palette::stderr();
        writeln!(
            std::io::stderr().lock(),
            "{}: {}: {} (not a registration file{})",
            paint(
                p.dim,
                format_args!("{}:{}:{}", printable_line(source), at.line, at.column)
            ),
            paint(p.error, "error[toml]"),
            printable_line(message),
            hint.as_deref()
                .map(|h| format!("; {}", printable_line(h)))
                .unwrap_or_default()
        )?;
    }
    Err(QuietExit(2).into())
}

/// What to run for a template text given where a registration file is
/// expected.
pub(super) fn template_text_hint(source: &str) -> String {
    let file = if source == "stdin" { "-" } else { source };
    format!(
        "it reads as a registration template text: `urnreg template import {file} > request.toml` \
         makes a registration file of it"
    )
}

/// A message on one line, as the `FILE:LINE:COL:` format promises: a
/// message quoting a parser's (TOML's end in a line break, some span
/// several) has its lines joined by a space.
fn one_line(message: &str) -> std::borrow::Cow<'_, str> {
    if !message.contains(['\n', '\r']) {
        return message.into();
    }
    let lines: Vec<&str> = message.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    lines.join(" ").into()
}
