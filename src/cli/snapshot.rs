//! `urnreg export` and `urnreg import`: registry snapshots.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::ImportPlan;
use urnreg::snapshot::{self, ExportFormat};

use super::db::DbArgs;
use super::{Format, UsageError, format_for};

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The directory to write (created; a non-empty one needs --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace a previous urnreg export in --out (a directory holding
    /// anything else, or the database, is refused).
    #[arg(long)]
    force: bool,
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
}

pub fn export(args: ExportArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let kind = match format {
        Some(Format::Toml) => ExportFormat::Toml,
        Some(Format::Json) => ExportFormat::Json,
        Some(Format::Xml) => ExportFormat::Xml,
        Some(Format::Csv) => ExportFormat::Csv,
        Some(Format::Html) => ExportFormat::Html,
        _ => return Err(UsageError("'export' needs --format toml, json, xml, csv or html".into()).into()),
    };
    let store = db.open_for_read()?;
    let snap = store.snapshot()?;
    let database = db.path()?;
    let files = snapshot::export(&snap, kind, &args.out, args.force, Some(&database))?;
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "wrote {} files ({} namespaces) to {}",
        files.len(),
        snap.records.len(),
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn import(args: ImportArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "import")?;
    let mut loaded = snapshot::read(&args.path)
        .with_context(|| format!("reading the snapshot {}", args.path.display()))?;
    let mut store = db.open_for_write()?;
    if loaded.iana_facts_only {
        loaded.complete_from(&store.snapshot()?);
    }
    let snap = loaded.snapshot;
    let plan = store
        .import_snapshot(&snap, args.replace, args.dry_run, &db.actor())
        .context("the database is unchanged")?;
    print_plan(&plan, format, args.dry_run)?;
    Ok(if !args.dry_run || !plan.conflicts || args.replace {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_plan(plan: &ImportPlan, format: Format, dry_run: bool) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if format == Format::Json {
        serde_json::to_writer_pretty(&mut out, plan)?;
        writeln!(out)?;
        return Ok(());
    }
    for nid in &plan.added {
        writeln!(out, "+ {nid}")?;
    }
    for (nid, what) in &plan.changed {
        writeln!(out, "~ {nid}: {}", what.join("; "))?;
    }
    for nid in &plan.removed {
        writeln!(out, "- {nid}")?;
    }
    if plan.requests.0 != plan.requests.1 {
        writeln!(out, "requests: {} -> {}", plan.requests.0, plan.requests.1)?;
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
    writeln!(
        out,
        "{verb}: {} added, {} changed, {} removed{}",
        plan.added.len(),
        plan.changed.len(),
        plan.removed.len(),
        if plan.conflicts && !plan.applied {
            " (changes what the database holds: needs --replace)"
        } else {
            ""
        }
    )?;
    Ok(())
}
