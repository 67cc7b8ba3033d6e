//! `urnreg ns list|show|history`: reading the registry.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Subcommand;
use urnreg::registry::{Kind, ListFilter, NamespaceDetail, RegistrationFile, Version};

use super::db::DbArgs;
use super::{Format, format_for};

#[derive(Subcommand, Debug)]
pub enum NsCommand {
    /// List the namespaces (formal first, then informal).
    List {
        /// Only formal namespaces.
        #[arg(long, conflicts_with = "informal")]
        formal: bool,
        /// Only informal namespaces.
        #[arg(long)]
        informal: bool,
        /// Only namespaces with this status (registered, withdrawn).
        #[arg(long, value_name = "S")]
        status: Option<String>,
    },
    /// Show one namespace and a version of its registration.
    Show {
        /// The NID (case-insensitive).
        nid: String,
        /// The version to show (default: the approved one in force).
        #[arg(long, value_name = "N")]
        version: Option<i64>,
    },
    /// Every version of a registration and every change to it.
    History {
        /// The NID (case-insensitive).
        nid: String,
    },
}

pub fn run(cmd: NsCommand, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let store = db.open_for_read()?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    match cmd {
        NsCommand::List {
            formal,
            informal,
            status,
        } => {
            let format = format_for(format, &[Format::Text, Format::Json], "ns list")?;
            let filter = ListFilter {
                kind: if formal {
                    Some(Kind::Formal)
                } else if informal {
                    Some(Kind::Informal)
                } else {
                    None
                },
                status,
            };
            let rows = store.list(&filter)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &rows)?;
                writeln!(out)?;
            } else {
                for r in &rows {
                    writeln!(
                        out,
                        "{:<24} {:<8} {:<10} {:<10} {}",
                        r.nid,
                        r.kind.as_str(),
                        r.status,
                        r.date.as_deref().unwrap_or("-"),
                        r.references.join("; ")
                    )?;
                }
            }
        }
        NsCommand::Show { nid, version } => {
            let format = format_for(format, &[Format::Text, Format::Json, Format::Toml], "ns show")?;
            let detail = store.show(&nid, version)?;
            match format {
                Format::Json => {
                    serde_json::to_writer_pretty(&mut out, &detail)?;
                    writeln!(out)?;
                }
                Format::Toml => write!(out, "{}", as_registration_toml(&detail)?)?,
                _ => write_detail(&mut out, &detail)?,
            }
        }
        NsCommand::History { nid } => {
            let format = format_for(format, &[Format::Text, Format::Json], "ns history")?;
            let history = store.history(&nid)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &history)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}", history.nid)?;
                writeln!(out, "versions:")?;
                for v in &history.versions {
                    writeln!(
                        out,
                        "  version {} (request {}): {}, dated {}, filed {}{}",
                        v.version,
                        v.id,
                        v.status,
                        if v.date.is_empty() { "-" } else { &v.date },
                        v.submitted_at,
                        v.decided_at
                            .as_ref()
                            .map_or(String::new(), |d| format!(", decided {d}"))
                    )?;
                }
                writeln!(out, "events:")?;
                for e in &history.events {
                    writeln!(out, "  {} {} {}: {}", e.at, e.actor, e.action, e.detail)?;
                }
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_detail(out: &mut impl Write, d: &NamespaceDetail) -> io::Result<()> {
    let s = &d.summary;
    writeln!(out, "NID:        {}", s.nid)?;
    writeln!(out, "kind:       {}", s.kind.as_str())?;
    writeln!(out, "status:     {}", s.status)?;
    writeln!(out, "registered: {}", s.date.as_deref().unwrap_or("-"))?;
    if let Some(u) = &d.updated {
        writeln!(out, "updated:    {u}")?;
    }
    writeln!(out, "references: {}", s.references.join("; "))?;
    match &d.registration {
        None => writeln!(out, "\n(no registration text is held for this namespace)")?,
        Some(v) => write_version(out, v)?,
    }
    Ok(())
}

fn write_version(out: &mut impl Write, v: &Version) -> io::Result<()> {
    writeln!(out, "\nversion {} ({}), request {}", v.version, v.status, v.id)?;
    if let Some(src) = &v.source {
        writeln!(out, "source: {src}")?;
    }
    for (_, heading, value) in v.fields.present() {
        writeln!(out, "\n{heading}:")?;
        for line in value.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    if let Some(rules) = &v.rules {
        writeln!(out, "\nRules:\n{rules}")?;
    }
    Ok(())
}

/// The shown version as a registration file, ready to edit for a revision.
fn as_registration_toml(d: &NamespaceDetail) -> anyhow::Result<String> {
    Ok(toml::to_string(&as_registration(d)?)?)
}

/// The shown version as a registration file.
pub(super) fn as_registration(d: &NamespaceDetail) -> anyhow::Result<RegistrationFile> {
    let Some(v) = &d.registration else {
        anyhow::bail!("no registration text is held for '{}'", d.summary.nid);
    };
    let date = (!v.date.is_empty()).then(|| v.date.clone());
    let mut file = RegistrationFile::from_fields(
        Some(d.summary.kind),
        Some(d.summary.nid.clone()),
        Some(v.version),
        date,
        &v.fields,
    );
    file.rules = v.rules.as_deref().and_then(|r| toml::from_str(r).ok());
    Ok(file)
}
