//! `urnreg lint FILE.toml`: the checks an expert reviewer makes first.
//!
//! Exit status: 0 no errors (warnings allowed), 1 errors, 2 the file
//! cannot be read.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use urnreg::lint::{LintContext, Severity, lint_as};

use super::db::DbArgs;
use super::{Format, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The registration file (TOML), or `-` for stdin.
    file: PathBuf,
}

pub fn run(args: Args, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "lint")?;
    let (file, source) = super::lifecycle::read_registration(&args.file)?;
    let store = db.open_for_read()?;
    let ctx = LintContext::of(&store)?;
    let filing = ctx.filing_for(&file);
    let findings = lint_as(&file, &ctx, &filing);
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = findings.len() - errors;
    let mut out = io::stdout().lock();
    if format == Format::Json {
        serde_json::to_writer_pretty(
            &mut out,
            &serde_json::json!({
                "file": source,
                "mode": filing.name(),
                "errors": errors,
                "warnings": warnings,
                "findings": findings,
            }),
        )?;
        writeln!(out)?;
    } else {
        for f in &findings {
            let level = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(
                out,
                "{source}: {level}[{}] {}: {} ({})",
                f.rule, f.field, f.message, f.section
            )?;
            if let Some(suggestion) = &f.suggestion {
                writeln!(out, "  to paste into {source}:")?;
                for line in suggestion.lines() {
                    writeln!(out, "    {line}")?;
                }
            }
        }
        writeln!(
            out,
            "{source}: {} as a {}: {errors} error(s), {warnings} warning(s)",
            if errors == 0 { "ok" } else { "refused" },
            filing.name()
        )?;
    }
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
