//! `urnreg ns list|show|history|diff`: reading the registry.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use urnreg::registry::{
    History, Kind, ListFilter, ListStatus, NamespaceDetail, NamespaceSummary, PendingRef, RegistrationFile,
    Version, VersionDiff,
};

use super::db::DbArgs;
use super::{Format, format_for};

/// The statuses `ns list --status` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    /// Registered namespaces.
    Registered,
    /// Withdrawn namespaces.
    Withdrawn,
    /// NIDs with a request or revision waiting for review (with those
    /// only requested).
    Pending,
}

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
        /// Only namespaces with this status.
        #[arg(long, value_name = "S", value_enum)]
        status: Option<StatusArg>,
    },
    /// Show one namespace (or requested NID) and a version of its
    /// registration, with the rules in force.
    Show {
        /// The NID (case-insensitive).
        nid: String,
        /// The version to show (default: the approved one in force).
        #[arg(long, value_name = "N")]
        version: Option<i64>,
    },
    /// Every version of a registration, every amended text and every
    /// change to it.
    History {
        /// The NID (case-insensitive).
        nid: String,
    },
    /// What changed between two versions, field by field (default: the
    /// version in force and the one waiting for review).
    Diff {
        /// The NID (case-insensitive).
        nid: String,
        /// The first version (default: the one in force).
        a: Option<i64>,
        /// The second version (default: the one waiting for review, else
        /// the one in force).
        b: Option<i64>,
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
                status: status.map(|s| match s {
                    StatusArg::Registered => ListStatus::Registered,
                    StatusArg::Withdrawn => ListStatus::Withdrawn,
                    StatusArg::Pending => ListStatus::Pending,
                }),
            };
            let rows = store.list(&filter)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &rows)?;
                writeln!(out)?;
            } else {
                for r in &rows {
                    write_summary_line(&mut out, r)?;
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
                write_history(&mut out, &history)?;
            }
        }
        NsCommand::Diff { nid, a, b } => {
            let format = format_for(format, &[Format::Text, Format::Json], "ns diff")?;
            let diff = store.diff(&nid, a, b)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &diff)?;
                writeln!(out)?;
            } else {
                write_diff(&mut out, &diff)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn pending_text(p: &PendingRef) -> String {
    format!("request {}, version {}, {}", p.id, p.version, p.status)
}

fn write_summary_line(out: &mut impl Write, r: &NamespaceSummary) -> io::Result<()> {
    write!(
        out,
        "{:<24} {:<8} {:<10} {:<10} {}",
        r.nid,
        r.kind.as_str(),
        r.status.as_str(),
        r.date.as_deref().unwrap_or("-"),
        r.references.join("; ")
    )?;
    if let Some(p) = &r.pending {
        write!(out, " [pending: {}]", pending_text(p))?;
    }
    writeln!(out)
}

fn write_detail(out: &mut impl Write, d: &NamespaceDetail) -> anyhow::Result<()> {
    let s = &d.summary;
    writeln!(out, "NID:        {}", s.nid)?;
    writeln!(out, "kind:       {}", s.kind.as_str())?;
    writeln!(out, "status:     {}", s.status.as_str())?;
    if let Some(p) = &s.pending {
        writeln!(out, "pending:    {}", pending_text(p))?;
    }
    writeln!(out, "registered: {}", s.date.as_deref().unwrap_or("-"))?;
    if let Some(u) = &d.updated {
        writeln!(out, "updated:    {u}")?;
    }
    writeln!(out, "references: {}", s.references.join("; "))?;
    match &d.rules {
        None => writeln!(
            out,
            "rules:      none in force (check applies the generic RFC 8141 syntax only)"
        )?,
        Some(rules) => {
            writeln!(out, "rules:      in force, from {}", rules.source)?;
        }
    }
    match &d.registration {
        None => writeln!(out, "\n(no registration text is held for this namespace)")?,
        Some(v) => write_version(out, v)?,
    }
    if let Some(rules) = &d.rules {
        writeln!(out, "\nRules in force:")?;
        for line in toml::to_string(rules)?.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

fn write_version(out: &mut impl Write, v: &Version) -> anyhow::Result<()> {
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
    match &v.rules {
        None => writeln!(out, "\nRules of this version: none")?,
        Some(rules) => {
            writeln!(out, "\nRules of this version:")?;
            for line in toml::to_string(rules)?.lines() {
                writeln!(out, "    {line}")?;
            }
        }
    }
    Ok(())
}

fn write_history(out: &mut impl Write, history: &History) -> io::Result<()> {
    writeln!(out, "{} ({})", history.nid, history.status)?;
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
    if !history.amended.is_empty() {
        writeln!(out, "amended texts:")?;
        for t in &history.amended {
            writeln!(
                out,
                "  request {} text {}: filed {}, replaced {}{}",
                t.registration_id,
                t.text,
                t.filed_at,
                t.replaced_at,
                t.source.as_ref().map_or(String::new(), |s| format!(", from {s}"))
            )?;
            for line in t.body.lines() {
                writeln!(out, "      {line}")?;
            }
        }
    }
    writeln!(out, "events:")?;
    for e in &history.events {
        writeln!(out, "  {} {} {}: {}", e.at, e.actor, e.action, e.detail)?;
    }
    Ok(())
}

/// The lines of `old` and `new` that differ, between their common first and
/// last lines, as `-` and `+` lines.
fn write_field_change(out: &mut impl Write, old: Option<&str>, new: Option<&str>) -> io::Result<()> {
    let a: Vec<&str> = old.map(|t| t.lines().collect()).unwrap_or_default();
    let b: Vec<&str> = new.map(|t| t.lines().collect()).unwrap_or_default();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    if head > 0 {
        writeln!(out, "  ({head} line(s) the same)")?;
    }
    match old {
        None => writeln!(out, "- (absent)")?,
        Some(_) => {
            for line in &a[head..a.len() - tail] {
                writeln!(out, "- {line}")?;
            }
        }
    }
    match new {
        None => writeln!(out, "+ (absent)")?,
        Some(_) => {
            for line in &b[head..b.len() - tail] {
                writeln!(out, "+ {line}")?;
            }
        }
    }
    if tail > 0 {
        writeln!(out, "  ({tail} line(s) the same)")?;
    }
    Ok(())
}

fn write_diff(out: &mut impl Write, d: &VersionDiff) -> io::Result<()> {
    writeln!(
        out,
        "{}: version {} (request {}, {}) -> version {} (request {}, {})",
        d.nid, d.from.version, d.from.id, d.from.status, d.to.version, d.to.id, d.to.status
    )?;
    if d.changes.is_empty() {
        writeln!(out, "no field differs")?;
    }
    for c in &d.changes {
        writeln!(out, "\n{}:", c.heading)?;
        write_field_change(out, c.old.as_deref(), c.new.as_deref())?;
    }
    Ok(())
}

/// The shown version as a registration file, ready to edit for a revision.
fn as_registration_toml(d: &NamespaceDetail) -> anyhow::Result<String> {
    Ok(toml::to_string(&as_registration(d)?)?)
}

/// The shown version as a registration file, with its own rules.
pub(super) fn as_registration(d: &NamespaceDetail) -> anyhow::Result<RegistrationFile> {
    let Some(v) = &d.registration else {
        anyhow::bail!("no registration text is held for '{}'", d.summary.nid);
    };
    Ok(v.to_registration())
}
