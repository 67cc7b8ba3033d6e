//! `urnreg ns list|show|history`: reading the registry.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Subcommand;
use urnreg::registry::{Kind, ListFilter, NamespaceDetail, RegistrationFile, Version};

use super::db::{DbArgs, suggest_nid};
use super::output::{self, printable};
use super::{Format, FormatParser};

#[derive(Subcommand, Debug)]
pub enum NsCommand {
    /// List the namespaces (formal first, then informal).
    List(ListArgs),
    /// Show one namespace and a version of its registration.
    ///
    /// Exit status: 0, or 2 for an unknown NID or version.
    Show(ShowArgs),
    /// Every version of a registration and every change to it.
    ///
    /// Exit status: 0, or 2 for an unknown NID.
    History(HistoryArgs),
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    /// Only formal namespaces.
    #[arg(long, conflicts_with = "informal")]
    formal: bool,
    /// Only informal namespaces.
    #[arg(long)]
    informal: bool,
    /// Only namespaces with this status.
    #[arg(long, value_enum, value_name = "STATUS")]
    status: Option<StatusArg>,
    #[command(flatten)]
    db: DbArgs,
}

/// `--status` of `ns list`: the statuses a namespace can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusArg {
    /// Registered and in force.
    Registered,
    /// Withdrawn.
    Withdrawn,
}

impl StatusArg {
    fn status(self) -> urnreg::Status {
        match self {
            StatusArg::Registered => urnreg::Status::Registered,
            StatusArg::Withdrawn => urnreg::Status::Withdrawn,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The NID (case-insensitive).
    nid: String,
    /// The version to show (default: the approved one in force).
    #[arg(long, value_name = "N")]
    version: Option<i64>,
    /// Output format: text, json, or toml (a registration file, ready to
    /// edit for a revision).
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json, Format::Toml]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

#[derive(clap::Args, Debug)]
pub struct HistoryArgs {
    /// The NID (case-insensitive).
    nid: String,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

/// The column heads of `ns list`, and their widths.
const LIST_HEADER: [(&str, usize); 5] = [
    ("NID", 24),
    ("KIND", 8),
    ("STATUS", 10),
    ("DATE", 10),
    ("REFERENCES", 0),
];

pub fn run(cmd: NsCommand) -> anyhow::Result<ExitCode> {
    let mut out = output::stdout();
    match cmd {
        NsCommand::List(ListArgs {
            format,
            formal,
            informal,
            status,
            db,
        }) => {
            let store = db.open_for_read()?;
            let filter = ListFilter {
                kind: if formal {
                    Some(Kind::Formal)
                } else if informal {
                    Some(Kind::Informal)
                } else {
                    None
                },
                status: status.map(|s| s.status().as_str().to_string()),
            };
            let rows = store.list(&filter)?;
            if format == Format::Json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else {
                let [nid, kind, status, date, refs] = LIST_HEADER;
                writeln!(
                    out,
                    "{:<w0$} {:<w1$} {:<w2$} {:<w3$} {}",
                    nid.0,
                    kind.0,
                    status.0,
                    date.0,
                    refs.0,
                    w0 = nid.1,
                    w1 = kind.1,
                    w2 = status.1,
                    w3 = date.1
                )?;
                for r in &rows {
                    writeln!(
                        out,
                        "{:<w0$} {:<w1$} {:<w2$} {:<w3$} {}",
                        printable(&r.nid),
                        r.kind.as_str(),
                        printable(&r.status),
                        printable(r.date.as_deref().unwrap_or("-")),
                        printable(&r.references.join("; ")),
                        w0 = nid.1,
                        w1 = kind.1,
                        w2 = status.1,
                        w3 = date.1
                    )?;
                }
            }
        }
        NsCommand::Show(ShowArgs {
            nid,
            version,
            format,
            db,
        }) => {
            let store = db.open_for_read()?;
            let detail = store
                .show(&nid, version)
                .map_err(|e| suggest_nid(e, &store, &nid))?;
            match format {
                Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&detail)?)?,
                Format::Toml => write!(out, "{}", as_registration_toml(&detail)?)?,
                _ => write_detail(&mut out, &detail)?,
            }
        }
        NsCommand::History(HistoryArgs { nid, format, db }) => {
            let store = db.open_for_read()?;
            let history = store.history(&nid).map_err(|e| suggest_nid(e, &store, &nid))?;
            if format == Format::Json {
                writeln!(out, "{}", serde_json::to_string_pretty(&history)?)?;
            } else {
                writeln!(out, "{}", printable(&history.nid))?;
                writeln!(out, "versions:")?;
                for v in &history.versions {
                    writeln!(
                        out,
                        "  version {} (request {}): {}, dated {}, filed {}{}",
                        v.version,
                        v.id,
                        printable(&v.status),
                        printable(if v.date.is_empty() { "-" } else { &v.date }),
                        printable(&v.submitted_at),
                        v.decided_at
                            .as_ref()
                            .map_or(String::new(), |d| format!(", decided {}", printable(d)))
                    )?;
                }
                writeln!(out, "events:")?;
                for e in &history.events {
                    writeln!(
                        out,
                        "  {} {} {}: {}",
                        printable(&e.at),
                        printable(&e.actor),
                        printable(&e.action),
                        printable(&e.detail)
                    )?;
                }
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The text form of `ns show`. Every value is made [`printable`]: a
/// registration text may hold control characters.
fn write_detail(out: &mut impl Write, d: &NamespaceDetail) -> io::Result<()> {
    let s = &d.summary;
    writeln!(out, "NID:        {}", printable(&s.nid))?;
    writeln!(out, "kind:       {}", s.kind.as_str())?;
    writeln!(out, "status:     {}", printable(&s.status))?;
    writeln!(out, "registered: {}", printable(s.date.as_deref().unwrap_or("-")))?;
    if let Some(u) = &d.updated {
        writeln!(out, "updated:    {}", printable(u))?;
    }
    writeln!(out, "references: {}", printable(&s.references.join("; ")))?;
    match &d.registration {
        None => writeln!(out, "\n(no registration text is held for this namespace)")?,
        Some(v) => write_version(out, v)?,
    }
    Ok(())
}

fn write_version(out: &mut impl Write, v: &Version) -> io::Result<()> {
    writeln!(
        out,
        "\nversion {} ({}), request {}",
        v.version,
        printable(&v.status),
        v.id
    )?;
    if let Some(src) = &v.source {
        writeln!(out, "source: {}", printable(src))?;
    }
    for (_, heading, value) in v.fields.present() {
        writeln!(out, "\n{heading}:")?;
        for line in value.lines() {
            writeln!(out, "    {}", printable(line))?;
        }
    }
    if let Some(rules) = &v.rules {
        writeln!(out, "\nRules:\n{}", printable(rules))?;
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
