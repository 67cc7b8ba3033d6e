//! `urnreg export` and `urnreg import`: registry snapshots.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use urnreg::snapshot::{self, ExportFormat, ImportPlan};

use super::db::{ActorArgs, Create, DbArgs};
use super::output::{self, Palette, paint, printable};
use super::{Format, FormatParser};

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The snapshot format: toml (the layout of registry/), json (one
    /// registry.json), xml (the IANA registry format), csv (one row per
    /// namespace, for reading), html (a static site, for reading).
    #[arg(long, value_name = "FORMAT", required = true,
          value_parser = FormatParser(&[Format::Toml, Format::Json, Format::Xml, Format::Csv, Format::Html]))]
    format: Format,
    /// The directory to write (created; a non-empty one needs --force).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace a previous urnreg export in --out (a directory holding
    /// anything else, or the database, is refused).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    db: DbArgs,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// A snapshot directory (toml, json or xml), or a registry.json or
    /// urn-namespaces.xml file; the SHA256SUMS beside it is required.
    path: PathBuf,
    /// Print what would change, change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Make the database equal to the snapshot even where that changes or
    /// drops what it holds.
    #[arg(long)]
    replace: bool,
    /// How the plan is printed: text (+ added, ~ changed, - removed) or
    /// json.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

pub fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let kind = match args.format {
        Format::Toml => ExportFormat::Toml,
        Format::Json => ExportFormat::Json,
        Format::Xml => ExportFormat::Xml,
        Format::Csv => ExportFormat::Csv,
        Format::Html => ExportFormat::Html,
        // `FormatParser` offers no other.
        Format::Text | Format::Jsonl | Format::Sarif => {
            anyhow::bail!("'export' writes toml, json, xml, csv or html")
        }
    };
    let store = args.db.open_for_read()?;
    let snap = store.snapshot()?;
    let database = args.db.path()?;
    let files = snapshot::export(&snap, kind, &args.out, args.force, Some(&database))?;
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "wrote {} files ({} namespaces) to {}",
        files.len(),
        snap.records.len(),
        printable(&args.out.display().to_string())
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn import(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let (format, db) = (args.format, &args.db);
    let mut loaded = snapshot::read(&args.path)
        .with_context(|| format!("reading the snapshot {}", args.path.display()))?;
    // A dry run changes nothing, and creates no database either: without
    // one, the plan is made against the built-in registry in memory; with
    // one, it is opened as the other reading commands open it (read-only).
    let mut store = if args.dry_run {
        db.open_for_read_quietly()?
    } else {
        db.open_for_write(&args.actor, Create::FileOnly)?
    };
    if loaded.iana_facts_only {
        loaded.complete_from(&store.snapshot()?);
    }
    let snap = loaded.snapshot;
    let plan = store
        .import_snapshot(&snap, args.replace, args.dry_run, &args.actor.actor())
        .context("the database is unchanged")?;
    print_plan(&plan, format, args.dry_run)?;
    Ok(if !args.dry_run || !plan.conflicts || args.replace {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_plan(plan: &ImportPlan, format: Format, dry_run: bool) -> anyhow::Result<()> {
    let mut out = output::stdout();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(plan)?)?;
        out.finish()?;
        return Ok(());
    }
    let p = Palette::stdout();
    for nid in &plan.added {
        writeln!(out, "{} {}", paint(p.good, "+"), printable(nid))?;
    }
    for (nid, what) in &plan.changed {
        writeln!(
            out,
            "{} {}: {}",
            paint(p.warning, "~"),
            printable(nid),
            printable(&what.join("; "))
        )?;
    }
    for nid in &plan.removed {
        writeln!(out, "{} {}", paint(p.error, "-"), printable(nid))?;
    }
    // The resolution sub-registries' keywords and services, each line
    // saying what becomes of it ("keyword 'lang' removed").
    for line in &plan.query {
        let sign = if line.ends_with(" added") {
            paint(p.good, "+")
        } else if line.ends_with(" removed") {
            paint(p.error, "-")
        } else {
            paint(p.warning, "~")
        };
        writeln!(out, "{sign} {}", printable(line))?;
    }
    if plan.requests.0 != plan.requests.1 {
        writeln!(out, "requests: {} -> {}", plan.requests.0, plan.requests.1)?;
    }
    for line in &plan.changed_requests {
        writeln!(out, "{} {}", paint(p.warning, "~"), printable(line))?;
    }
    for line in &plan.renumbered {
        writeln!(out, "{} {}", paint(p.warning, "~"), printable(line))?;
    }
    for line in &plan.added_requests {
        writeln!(out, "{} {}", paint(p.good, "+"), printable(line))?;
    }
    for line in &plan.dropped_requests {
        writeln!(out, "{} {}", paint(p.error, "-"), printable(line))?;
    }
    if plan.last_informal.0 != plan.last_informal.1 {
        writeln!(
            out,
            "highest informal number ever assigned: {} -> {}",
            plan.last_informal.0, plan.last_informal.1
        )?;
    }
    let verb = if plan.applied {
        "imported"
    } else if dry_run {
        "would import"
    } else {
        "not imported"
    };
    let mut requests = String::new();
    for (n, how) in [
        (plan.added_requests.len(), "added"),
        (plan.changed_requests.len(), "changed"),
        (plan.dropped_requests.len(), "dropped"),
    ] {
        if n != 0 {
            requests.push_str(&format!(", {n} request(s) {how}"));
        }
    }
    let query = match plan.query.len() {
        0 => String::new(),
        n => format!(", {n} keyword(s) or service(s) added, changed or removed"),
    };
    writeln!(
        out,
        "{verb}: {} added, {} changed, {} removed{requests}{query}{}",
        plan.added.len(),
        plan.changed.len(),
        plan.removed.len(),
        if plan.conflicts && !plan.applied {
            " (changes what the database holds: needs --replace)"
        } else {
            ""
        }
    )?;
    out.finish()?;
    Ok(())
}
