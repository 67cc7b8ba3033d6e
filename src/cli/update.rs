//! `urnreg update`: brings the database's shipped namespaces up to the
//! registry built into this binary, keeping everything done here.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::UpdatePlan;

use super::db::{ActorArgs, Create, DbArgs};
use super::output::{self, Palette, paint, printable};
use super::{Format, FormatParser};

#[derive(clap::Args, Debug)]
pub struct UpdateArgs {
    /// Print what would change, change nothing.
    #[arg(long)]
    dry_run: bool,
    /// How the plan is printed: text (+ added, ~ changed, = kept) or json.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

pub fn run(args: UpdateArgs) -> anyhow::Result<ExitCode> {
    // A dry run changes nothing and creates no database; it reads a
    // read-only one. (Without a database, the built-in registry is the
    // plan's base, and there is nothing to do.)
    let mut store = if args.dry_run {
        args.db.open_for_read_quietly()?
    } else {
        args.db.open_for_write(&args.actor, Create::FileOnly)?
    };
    let plan = store
        .update_shipped(args.dry_run, &args.actor.actor())
        .context("the database is unchanged")?;
    print_plan(&plan, args.format, args.dry_run)?;
    Ok(if args.dry_run && !plan.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_plan(plan: &UpdatePlan, format: Format, dry_run: bool) -> anyhow::Result<()> {
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
    for change in &plan.changed {
        writeln!(
            out,
            "{} {}: {}",
            paint(p.warning, "~"),
            printable(&change.nid),
            printable(&change.fields.join("; "))
        )?;
    }
    for kept in &plan.kept {
        writeln!(
            out,
            "{} {}: kept: {}",
            paint(p.dim, "="),
            printable(&kept.nid),
            printable(&kept.reason)
        )?;
    }
    let verb = if plan.applied {
        "updated"
    } else if plan.is_empty() {
        "up to date"
    } else if dry_run {
        "would update"
    } else {
        "not updated"
    };
    writeln!(
        out,
        "{verb}: {} added, {} changed, {} kept",
        plan.added.len(),
        plan.changed.len(),
        plan.kept.len()
    )?;
    out.finish()?;
    Ok(())
}
