//! `urnreg keywords` and `urnreg services`: the two sub-registries of URN
//! resolution query parameters (the 2012 URN draft, section 9.2), as
//! shipped.

use std::io::Write;
use std::process::ExitCode;

use urnreg::resolve::{QueryRegistry, Scope};

use super::output::{self, printable};
use super::{Format, FormatParser};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format: text (a table) or json.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
}

/// `urnreg keywords`: the Query Keywords sub-registry (section 9.2.1).
pub fn keywords(args: Args) -> anyhow::Result<ExitCode> {
    let registry = QueryRegistry::shipped();
    let mut out = output::stdout();
    if args.format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&registry.keywords)?)?;
    } else {
        writeln!(
            out,
            "{:<8} {:<34} {:<9} {:<50} supported by",
            "keyword", "purpose", "scope", "reference"
        )?;
        for k in &registry.keywords {
            let scope = match k.scope {
                Scope::Global => "global",
                Scope::Specific => "specific",
            };
            let supported: Vec<String> = k
                .supported_by
                .iter()
                .map(|s| format!("{} ({})", s.nid, s.reference))
                .collect();
            writeln!(
                out,
                "{:<8} {:<34} {:<9} {:<50} {}",
                printable(&k.keyword),
                printable(&k.purpose),
                scope,
                printable(&k.reference),
                if supported.is_empty() {
                    "-".to_string()
                } else {
                    printable(&supported.join(", ")).into_owned()
                }
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// `urnreg services`: the Resolution Service Designators sub-registry
/// (section 9.2.2).
pub fn services(args: Args) -> anyhow::Result<ExitCode> {
    let registry = QueryRegistry::shipped();
    let mut out = output::stdout();
    if args.format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&registry.services)?)?;
    } else {
        writeln!(
            out,
            "{:<6} {:<20} {:<12} {:<24} aliases",
            "name", "purpose", "status", "reference"
        )?;
        for s in &registry.services {
            writeln!(
                out,
                "{:<6} {:<20} {:<12} {:<24} {}",
                printable(&s.name),
                printable(&s.purpose),
                printable(&s.status),
                printable(&s.reference),
                if s.aliases.is_empty() {
                    "-".to_string()
                } else {
                    printable(&s.aliases.join(", ")).into_owned()
                }
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
