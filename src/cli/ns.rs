//! `urnreg ns list|show|history|diff`: reading the registry.
//!
//! Every text value is written [`printable`]: a registration filed here
//! may hold control characters, which must not reach a terminal raw.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use urnreg::registry::data::{EMBEDDED, RecordFile};
use urnreg::registry::{
    History, Kind, ListFilter, ListStatus, NamespaceDetail, NamespaceSummary, PendingRef, RegistrationFile,
    Version, VersionDiff,
};

use super::db::{DbArgs, suggest_nid};
use super::output::{self, Palette, paint, printable, printable_line};
use super::{Format, FormatParser};

#[derive(Subcommand, Debug)]
pub enum NsCommand {
    /// List the namespaces (formal first, then informal).
    List(ListArgs),
    /// Show one namespace (or requested NID) and a version of its
    /// registration, with the rules in force.
    ///
    /// Exit status: 0, or 2 for an unknown NID or version.
    Show(ShowArgs),
    /// Every version of a registration, every amended text and every
    /// change to it.
    ///
    /// Exit status: 0, or 2 for an unknown NID.
    History(HistoryArgs),
    /// What changed between two versions, field by field (default: the
    /// version in force and the one waiting for review).
    ///
    /// Exit status: 0, or 2 for an unknown NID or version.
    Diff(DiffArgs),
}

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

/// `--format` of `ns list`, `ns history` and `ns diff`.
const TEXT_JSON: FormatParser = FormatParser(&[Format::Text, Format::Json]);

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = TEXT_JSON)]
    format: Format,
    /// Only formal namespaces.
    #[arg(long, conflicts_with = "informal")]
    formal: bool,
    /// Only informal namespaces.
    #[arg(long)]
    informal: bool,
    /// Only namespaces with this status.
    #[arg(long, value_name = "STATUS", value_enum)]
    status: Option<StatusArg>,
    #[command(flatten)]
    db: DbArgs,
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
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = TEXT_JSON)]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The NID (case-insensitive).
    nid: String,
    /// The first version (default: the one in force).
    a: Option<i64>,
    /// The second version (default: the one waiting for review, else the
    /// one in force).
    b: Option<i64>,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = TEXT_JSON)]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

/// The column heads of `ns list`, and their widths.
const LIST_COLUMNS: [(&str, usize); 5] = [
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
                status: status.map(|s| match s {
                    StatusArg::Registered => ListStatus::Registered,
                    StatusArg::Withdrawn => ListStatus::Withdrawn,
                    StatusArg::Pending => ListStatus::Pending,
                }),
            };
            let rows = store.list(&filter)?;
            if format == Format::Json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else {
                let [nid, kind, status, date, refs] = LIST_COLUMNS.map(|(head, _)| head);
                write_columns(&mut out, [nid, kind, status, date, refs])?;
                writeln!(out)?;
                for r in &rows {
                    write_summary_line(&mut out, r)?;
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
                // A namespace urnreg ships: where its record and text
                // came from, which no filing or event here says.
                let shipped = shipped_record(&history.nid).map(|record| {
                    let summary = store.show(&history.nid, None).ok().map(|d| d.summary);
                    (record, summary)
                });
                write_history(&mut out, &history, shipped.as_ref())?;
            }
        }
        NsCommand::Diff(DiffArgs {
            nid,
            a,
            b,
            format,
            db,
        }) => {
            let store = db.open_for_read()?;
            let diff = store.diff(&nid, a, b).map_err(|e| suggest_nid(e, &store, &nid))?;
            if format == Format::Json {
                writeln!(out, "{}", serde_json::to_string_pretty(&diff)?)?;
            } else {
                write_diff(&mut out, &diff)?;
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// One row of `ns list`'s columns (without its line end).
fn write_columns(out: &mut impl Write, cells: [&str; 5]) -> io::Result<()> {
    let [(_, w0), (_, w1), (_, w2), (_, w3), _] = LIST_COLUMNS;
    let [nid, kind, status, date, refs] = cells;
    write!(out, "{nid:<w0$} {kind:<w1$} {status:<w2$} {date:<w3$} {refs}")
}

fn pending_text(p: &PendingRef) -> String {
    format!("request {}, version {}, {}", p.id, p.version, p.status)
}

fn write_summary_line(out: &mut impl Write, r: &NamespaceSummary) -> io::Result<()> {
    write_columns(
        out,
        [
            &printable_line(&r.nid),
            r.kind.as_str(),
            r.status.as_str(),
            &printable_line(r.date.as_deref().unwrap_or("-")),
            &printable_line(&r.references.join("; ")),
        ],
    )?;
    if let Some(p) = &r.pending {
        write!(out, " [pending: {}]", pending_text(p))?;
    }
    writeln!(out)
}

fn write_detail(out: &mut impl Write, d: &NamespaceDetail) -> anyhow::Result<()> {
    let s = &d.summary;
    writeln!(out, "NID:        {}", printable_line(&s.nid))?;
    writeln!(out, "kind:       {}", s.kind.as_str())?;
    writeln!(out, "status:     {}", s.status.as_str())?;
    if let Some(p) = &s.pending {
        writeln!(out, "pending:    {}", pending_text(p))?;
    }
    writeln!(
        out,
        "registered: {}",
        printable_line(s.date.as_deref().unwrap_or("-"))
    )?;
    if let Some(u) = &d.updated {
        writeln!(out, "updated:    {}", printable_line(u))?;
    }
    writeln!(out, "references: {}", printable_line(&s.references.join("; ")))?;
    match &d.rules {
        None => writeln!(
            out,
            "rules:      none in force (check applies the generic RFC 8141 syntax only)"
        )?,
        Some(rules) => {
            writeln!(
                out,
                "rules:      in force, from {}",
                printable_line(&rules.source)
            )?;
            for p in &rules.practice {
                writeln!(
                    out,
                    "practice:   {} (the owner's, not the registration's: valid with a \
                     registration-deviation warning; from {})",
                    printable_line(p.note.as_deref().unwrap_or("a form the owner publishes")),
                    printable_line(&p.source)
                )?;
            }
            for should in &rules.should {
                writeln!(
                    out,
                    "should:     {} (recommended, not required: an nss-should warning; whose rule it is: {})",
                    printable_line(&should.note),
                    printable_line(&should.source)
                )?;
            }
            if let Some(r) = &rules.resolution {
                writeln!(
                    out,
                    "resolution: {} (default {}), from {}",
                    printable_line(&r.services.join(", ")),
                    printable_line(&r.default),
                    printable_line(&r.source)
                )?;
            }
        }
    }
    match &d.registration {
        None => writeln!(out, "\n(no registration text is held for this namespace)")?,
        Some(v) => write_version(out, v)?,
    }
    if let Some(rules) = &d.rules {
        writeln!(out, "\nRules in force:")?;
        for line in toml::to_string(rules)?.lines() {
            writeln!(out, "    {}", printable_line(line))?;
        }
    }
    Ok(())
}

fn write_version(out: &mut impl Write, v: &Version) -> anyhow::Result<()> {
    writeln!(
        out,
        "\nversion {} ({}), request {}",
        v.version,
        printable_line(&v.status.to_string()),
        v.id
    )?;
    if let Some(src) = &v.source {
        writeln!(out, "source: {}", printable_line(src))?;
    }
    for (_, heading, value) in v.fields.present() {
        writeln!(out, "\n{heading}:")?;
        for line in value.lines() {
            writeln!(out, "    {}", printable_line(line))?;
        }
    }
    match &v.rules {
        None => writeln!(out, "\nRules of this version: none")?,
        Some(rules) => {
            writeln!(out, "\nRules of this version:")?;
            for line in toml::to_string(rules)?.lines() {
                writeln!(out, "    {}", printable_line(line))?;
            }
        }
    }
    Ok(())
}

/// The record of `nid` in the registry urnreg ships (IANA's, with the
/// registration text found for it), if it ships one.
fn shipped_record(nid: &str) -> Option<RecordFile> {
    let name = format!("{}.toml", nid.to_ascii_lowercase());
    let (_, text) = EMBEDDED.iter().find(|(file, _)| *file == name)?;
    toml::from_str(text).ok()
}

/// `ns history` as text; `shipped`: the record urnreg ships for the NID
/// and the database's summary of it.
fn write_history(
    out: &mut impl Write,
    history: &History,
    shipped: Option<&(RecordFile, Option<NamespaceSummary>)>,
) -> io::Result<()> {
    writeln!(out, "{} ({})", printable_line(&history.nid), history.status)?;
    if let Some((record, summary)) = shipped {
        let mut facts = Vec::new();
        if let Some(date) = summary.as_ref().and_then(|s| s.date.as_deref()) {
            facts.push(format!("registered {}", printable_line(date)));
        }
        if let Some(updated) = &record.updated {
            facts.push(format!("updated {}", printable_line(updated)));
        }
        if let Some(references) = summary.as_ref().filter(|s| !s.references.is_empty()) {
            facts.push(format!(
                "references: {}",
                printable_line(&references.references.join(", "))
            ));
        }
        let facts = if facts.is_empty() {
            String::new()
        } else {
            format!(" ({})", facts.join("; "))
        };
        let text = if record.registration.is_none() {
            "; no registration text is held"
        } else {
            ""
        };
        writeln!(out, "shipped with urnreg from the IANA registry{facts}{text}")?;
    }
    // The version of the shipped text, and where it was taken from.
    let shipped_text = shipped
        .and_then(|(record, _)| record.registration.as_ref())
        .map(|text| (text.version(), text.source.as_str()));
    if !history.versions.is_empty() {
        writeln!(out, "versions:")?;
    }
    for v in &history.versions {
        let origin = if shipped_text == Some((v.version, v.source.as_deref().unwrap_or(""))) {
            format!(
                "shipped with urnreg, the text from {}",
                printable_line(v.source.as_deref().unwrap_or(""))
            )
        } else if v.submitted_at.is_empty() {
            v.source
                .as_ref()
                .map_or("not filed here".into(), |s| format!("from {}", printable_line(s)))
        } else {
            format!(
                "filed {}{}",
                printable_line(&v.submitted_at),
                v.decided_at
                    .as_ref()
                    .map_or(String::new(), |d| format!(", decided {}", printable_line(d)))
            )
        };
        writeln!(
            out,
            "  version {} (request {}): {}, dated {}, {origin}",
            v.version,
            v.id,
            v.status,
            printable_line(if v.date.is_empty() { "-" } else { &v.date }),
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
                printable_line(&t.filed_at),
                printable_line(&t.replaced_at),
                t.source
                    .as_ref()
                    .map_or(String::new(), |s| format!(", from {}", printable_line(s)))
            )?;
            for line in t.body.lines() {
                writeln!(out, "      {}", printable_line(line))?;
            }
        }
    }
    if !history.events.is_empty() {
        writeln!(out, "events:")?;
    }
    // One line per event: a line break in a note or an actor is written
    // `\n`, or a note could write a line that reads as another event.
    let one_line = |text: &str| printable(text).replace('\n', "\\n");
    for e in &history.events {
        writeln!(
            out,
            "  {} {} {}: {}",
            one_line(&e.at),
            one_line(&e.actor),
            one_line(&e.action.to_string()),
            one_line(&e.detail)
        )?;
    }
    Ok(())
}

/// The lines of `old` and `new` that differ, between their common first and
/// last lines, as `-` and `+` lines.
fn write_field_change(
    out: &mut impl Write,
    old: Option<&str>,
    new: Option<&str>,
    p: &Palette,
) -> io::Result<()> {
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
        None => writeln!(out, "{}", paint(p.error, "- (absent)"))?,
        Some(_) => {
            for line in &a[head..a.len() - tail] {
                writeln!(
                    out,
                    "{}",
                    paint(p.error, format_args!("- {}", printable_line(line)))
                )?;
            }
        }
    }
    match new {
        None => writeln!(out, "{}", paint(p.good, "+ (absent)"))?,
        Some(_) => {
            for line in &b[head..b.len() - tail] {
                writeln!(
                    out,
                    "{}",
                    paint(p.good, format_args!("+ {}", printable_line(line)))
                )?;
            }
        }
    }
    if tail > 0 {
        writeln!(out, "  ({tail} line(s) the same)")?;
    }
    Ok(())
}

fn write_diff(out: &mut impl Write, d: &VersionDiff) -> io::Result<()> {
    let p = Palette::stdout();
    writeln!(
        out,
        "{}: version {} (request {}, {}) -> version {} (request {}, {})",
        printable_line(&d.nid),
        d.from.version,
        d.from.id,
        d.from.status,
        d.to.version,
        d.to.id,
        d.to.status
    )?;
    if d.changes.is_empty() {
        writeln!(out, "no field differs")?;
    }
    for c in &d.changes {
        writeln!(out, "\n{}:", c.heading)?;
        write_field_change(out, c.old.as_deref(), c.new.as_deref(), &p)?;
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
