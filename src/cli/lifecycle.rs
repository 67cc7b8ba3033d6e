//! `urnreg init`, `request`, `review`, `revise`: the registration
//! lifecycle of RFC 8141 section 6.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::{Decision, Outcome, RegistrationFile};

use super::db::DbArgs;
use super::{Format, format_for};

#[derive(clap::Args, Debug)]
pub struct InitArgs {}

#[derive(clap::Args, Debug)]
pub struct RequestArgs {
    /// The registration file (TOML), or `-` for stdin.
    pub(super) file: PathBuf,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("decision").required(true).args(["approve", "reject", "ask_changes"])))]
pub struct ReviewArgs {
    /// The request id, or the NID whose pending request is meant.
    pub(super) target: String,
    /// Approve: register the NID (formal) or assign the next urn-N (informal).
    #[arg(long)]
    pub(super) approve: bool,
    /// Reject the request.
    #[arg(long)]
    pub(super) reject: bool,
    /// Send the request back to the registrant for changes.
    #[arg(long)]
    pub(super) ask_changes: bool,
    /// The reviewer's note to the registrant.
    #[arg(long, required = true)]
    pub(super) note: String,
}

#[derive(clap::Args, Debug)]
pub struct ReviseArgs {
    /// The NID to revise.
    nid: String,
    /// The new version's registration file (TOML), or `-` for stdin.
    file: PathBuf,
}

/// Reads a registration file from a path or stdin.
pub(super) fn read_registration(path: &PathBuf) -> anyhow::Result<(RegistrationFile, String)> {
    let (text, source) = if path.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading the registration from stdin")?;
        (text, "stdin".to_string())
    } else {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        (text, path.display().to_string())
    };
    let file = RegistrationFile::from_toml(&text).with_context(|| format!("in {source}"))?;
    Ok((file, source))
}

fn print_outcome(outcome: &Outcome, format: Format, what: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if format == Format::Json {
        serde_json::to_writer_pretty(&mut out, outcome)?;
        writeln!(out)?;
    } else {
        match &outcome.nid {
            Some(nid) => writeln!(
                out,
                "{what} {}: {nid} version {} {}",
                outcome.id, outcome.version, outcome.status
            )?,
            None => writeln!(
                out,
                "{what} {}: informal, version {} {}",
                outcome.id, outcome.version, outcome.status
            )?,
        }
    }
    Ok(())
}

pub fn init(_args: InitArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Text], "init")?;
    let path = db.path()?;
    let existed = path.exists();
    let store = db.open_for_write()?;
    let count: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM namespaces", [], |r| r.get(0))?;
    let verb = if existed { "opened" } else { "created" };
    writeln!(
        io::stdout(),
        "{verb} {} (schema {}, {count} namespaces)",
        path.display(),
        store.schema_version()?
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn request(args: RequestArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "request")?;
    let (file, source) = read_registration(&args.file)?;
    let mut store = db.open_for_write()?;
    let outcome = store.request(&file, Some(&source), &db.actor())?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}

pub fn revise(args: ReviseArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "revise")?;
    let (file, source) = read_registration(&args.file)?;
    let mut store = db.open_for_write()?;
    let outcome = store.revise(&args.nid, &file, Some(&source), &db.actor())?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}

pub fn review(args: ReviewArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "review")?;
    let decision = if args.approve {
        Decision::Approve
    } else if args.reject {
        Decision::Reject
    } else {
        Decision::AskChanges
    };
    let mut store = db.open_for_write()?;
    let outcome = store.review(&args.target, decision, &args.note, &db.actor())?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}
