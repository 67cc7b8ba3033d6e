//! `urnreg parse`: the parts of one URN, its key, its display form.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use serde::Serialize;
use urnreg::Urn;

use super::report::{Finding, Shown, write_caret};
use super::{Format, SyntaxArgs, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    syntax: SyntaxArgs,

    /// The URN to parse.
    #[arg(value_name = "URN")]
    urn: OsString,
}

#[derive(Serialize)]
struct ParsedJson<'a> {
    input: &'a str,
    valid: bool,
    scheme: &'a str,
    nid: &'a str,
    nss: &'a str,
    r: Option<&'a str>,
    q: Option<&'a str>,
    f: Option<&'a str>,
    key: &'a str,
    display: DisplayJson<'a>,
    warnings: Vec<Finding>,
}

#[derive(Serialize)]
struct DisplayJson<'a> {
    text: &'a str,
    canonical: bool,
}

#[derive(Serialize)]
struct InvalidJson<'a> {
    input: &'a str,
    valid: bool,
    errors: [Finding; 1],
}

pub fn run(args: Args, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "parse")?;
    let raw = args.urn.as_encoded_bytes();
    let mut out = io::stdout().lock();
    let urn = match Urn::parse_bytes(raw, args.syntax.syntax()) {
        Ok(urn) => urn,
        Err(err) => {
            let input = String::from_utf8_lossy(raw);
            if format == Format::Json {
                let json = InvalidJson {
                    input: &input,
                    valid: false,
                    errors: [Finding::from_error(&err)],
                };
                serde_json::to_writer_pretty(&mut out, &json)?;
                writeln!(out)?;
            } else {
                let shown = Shown::new(raw);
                let mut err_out = io::stderr().lock();
                writeln!(err_out, "invalid URN")?;
                write_caret(&mut err_out, &shown, err.offset(), "error", &err.to_string())?;
            }
            return Ok(ExitCode::from(1));
        }
    };
    let key = urn.equivalence_key();
    let display = urn.display_form();
    let warnings = urn.warnings();
    match format {
        Format::Json => {
            let json = ParsedJson {
                input: urn.as_str(),
                valid: true,
                scheme: urn.scheme(),
                nid: urn.nid(),
                nss: urn.nss(),
                r: urn.r_component(),
                q: urn.q_component(),
                f: urn.f_component(),
                key: &key,
                display: DisplayJson {
                    text: &display.text,
                    canonical: !display.decoded,
                },
                warnings: warnings.iter().map(Finding::from_warning).collect(),
            };
            serde_json::to_writer_pretty(&mut out, &json)?;
            writeln!(out)?;
        }
        _ => {
            let absent = "(none)";
            writeln!(out, "urn:         {}", urn.as_str())?;
            writeln!(out, "scheme:      {}", urn.scheme())?;
            writeln!(out, "nid:         {}", urn.nid())?;
            writeln!(out, "nss:         {}", urn.nss())?;
            writeln!(out, "r-component: {}", urn.r_component().unwrap_or(absent))?;
            writeln!(out, "q-component: {}", urn.q_component().unwrap_or(absent))?;
            writeln!(
                out,
                "f-component: {}",
                urn.f_component().map_or(absent.to_string(), |f| format!("#{f}"))
            )?;
            writeln!(out, "key:         {key}")?;
            if display.decoded {
                writeln!(
                    out,
                    "display:     {} (for reading only: not the canonical form)",
                    display.text
                )?;
            } else {
                writeln!(out, "display:     {}", display.text)?;
            }
            let shown = Shown::new(raw);
            for w in &warnings {
                write_caret(&mut out, &shown, w.offset, "warning", &w.to_string())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
