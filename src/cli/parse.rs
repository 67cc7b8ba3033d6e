//! `urnreg parse`: the parts of one URN, its key, its display form, and the
//! registry's verdict on it (or, with `--syntax-only`, a plain statement
//! that only the generic syntax was checked).

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::{Value, json};
use urnreg::{Finding, Report};

use super::db::DbArgs;
use super::output::{self, Palette, paint};
use super::report::{Shown, write_findings};
use super::{Format, FormatParser, SyntaxArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Check the generic RFC 8141 syntax only, without the registry.
    #[arg(long, alias = "generic")]
    syntax_only: bool,

    #[command(flatten)]
    db: DbArgs,

    /// The URN to parse.
    #[arg(value_name = "URN")]
    urn: OsString,
}

fn findings_json<'f>(findings: impl Iterator<Item = &'f Finding>) -> Value {
    findings
        .map(|f| json!({"kind": f.code(), "offset": f.offset(), "message": f.to_string()}))
        .collect()
}

/// What was checked, in words.
fn verdict(report: &Report<'_, '_>, palette: &Palette) -> String {
    let checked = if report.is_registry_checked() {
        "against the registry"
    } else {
        "generic syntax only, the registry was not consulted"
    };
    let valid = if report.is_valid() {
        paint(palette.good, "valid").to_string()
    } else {
        paint(palette.error, "invalid").to_string()
    };
    format!("{valid} ({checked})")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = args.format;
    let registry = if args.syntax_only {
        None
    } else {
        Some(args.db.registry()?)
    };
    let mut checker = args.syntax.checker(registry.as_ref());
    let raw = args.urn.as_encoded_bytes();
    let report = checker.check(raw);
    let code = ExitCode::from(u8::from(!report.is_valid()));
    let mut out = output::stdout();
    let key = report.key();
    let namespace = report.namespace();
    if format == Format::Json {
        let mut json = json!({
            "input": report.input(),
            "valid": report.is_valid(),
            "checked": if report.is_registry_checked() { "registry" } else { "syntax" },
        });
        if let Some(urn) = report.urn() {
            let display = urn.display_form();
            let obj = json.as_object_mut().expect("an object");
            obj.insert("scheme".into(), urn.scheme().into());
            obj.insert("nid".into(), urn.nid().into());
            obj.insert("nss".into(), urn.nss().into());
            obj.insert("r".into(), urn.r_component().into());
            obj.insert("q".into(), urn.q_component().into());
            obj.insert("f".into(), urn.f_component().into());
            let directives = directives_of(urn);
            if !directives.is_empty() {
                let list: Vec<serde_json::Value> = directives
                    .iter()
                    .map(|d| json!({"keyword": d.keyword, "value": d.value}))
                    .collect();
                obj.insert("directives".into(), list.into());
            }
            obj.insert("key".into(), key.as_deref().into());
            obj.insert(
                "display".into(),
                json!({"text": display.text, "canonical": !display.decoded}),
            );
        }
        let obj = json.as_object_mut().expect("an object");
        obj.insert("errors".into(), findings_json(report.errors()));
        obj.insert("warnings".into(), findings_json(report.warnings()));
        if report.is_registry_checked() {
            obj.insert(
                "namespace".into(),
                namespace.map_or(Value::Null, |ns| {
                    json!({"nid": ns.nid(), "kind": ns.kind().as_str(),
                           "status": ns.status().as_str(), "syntax": ns.syntax_name()})
                }),
            );
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        out.finish()?;
        return Ok(code);
    }
    let shown = Shown::new(raw);
    let Some(urn) = report.urn() else {
        let palette = Palette::stderr();
        let mut err_out = io::stderr().lock();
        writeln!(err_out, "{}", paint(palette.error, "invalid URN"))?;
        write_findings(&report, &shown, &palette, true, &mut err_out)?;
        return Ok(code);
    };
    let palette = Palette::stdout();
    let absent = "(none)";
    writeln!(out, "urn:         {}", urn.as_str())?;
    writeln!(out, "scheme:      {}", urn.scheme())?;
    writeln!(out, "nid:         {}", urn.nid())?;
    writeln!(out, "nss:         {}", urn.nss())?;
    writeln!(out, "r-component: {}", urn.r_component().unwrap_or(absent))?;
    for d in directives_of(urn) {
        writeln!(out, "  directive: {} = {}", d.keyword, d.value)?;
    }
    writeln!(out, "q-component: {}", urn.q_component().unwrap_or(absent))?;
    writeln!(
        out,
        "f-component: {}",
        urn.f_component().map_or(absent.to_string(), |f| format!("#{f}"))
    )?;
    match &key {
        Some(key) => writeln!(out, "key:         {key}")?,
        None => writeln!(
            out,
            "key:         (none: an invalid URN is equivalent to nothing)"
        )?,
    }
    let display = urn.display_form();
    if display.decoded {
        writeln!(
            out,
            "display:     {} (for reading only: not the canonical form)",
            display.text
        )?;
    } else {
        writeln!(out, "display:     {}", display.text)?;
    }
    if report.is_registry_checked() {
        match namespace {
            Some(ns) => writeln!(
                out,
                "namespace:   {} ({}, {}; NSS syntax: {})",
                ns.nid(),
                ns.kind().as_str(),
                ns.status().as_str(),
                ns.syntax_name()
            )?,
            None => writeln!(out, "namespace:   (not registered)")?,
        }
    }
    writeln!(out, "verdict:     {}", verdict(&report, &palette))?;
    write_findings(&report, &shown, &palette, true, &mut out)?;
    out.finish()?;
    Ok(code)
}

/// The directives of the URN's r-component (the 2012 URN draft, section
/// 2.3), when it is in their form.
fn directives_of<'u>(urn: &urnreg::Urn<'u>) -> Vec<urnreg::resolve::Directive<'u>> {
    let Some(r) = urn.r_component() else {
        return Vec::new();
    };
    urnreg::resolve::written_directives(r).map_or_else(Vec::new, Iterator::collect)
}
