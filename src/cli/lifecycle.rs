//! `urnreg init`, `request`, `review`, `revise`: the registration
//! lifecycle of RFC 8141 section 6.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::{Decision, Outcome, RegistrationFile};

use super::db::{ActorArgs, Create, DbArgs, suggest_nid};
use super::output::{self, printable};
use super::{Format, FormatParser};

#[derive(clap::Args, Debug)]
pub struct InitArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

/// What `request`, `review` and `revise` print.
#[derive(clap::Args, Debug)]
pub struct OutcomeArgs {
    /// Output format: text, or json ({id, nid, status, version}).
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

#[derive(clap::Args, Debug)]
pub struct RequestArgs {
    /// The registration file (TOML), or `-` for stdin.
    file: PathBuf,
    #[command(flatten)]
    common: OutcomeArgs,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("decision").required(true).args(["approve", "reject", "ask_changes"])))]
pub struct ReviewArgs {
    /// The request id, or the NID whose pending request is meant.
    target: String,
    /// Approve: register the NID (formal) or assign the next urn-N (informal).
    #[arg(long)]
    approve: bool,
    /// Reject the request.
    #[arg(long)]
    reject: bool,
    /// Send the request back to the registrant for changes.
    #[arg(long)]
    ask_changes: bool,
    /// The reviewer's note to the registrant.
    #[arg(long, required = true)]
    note: String,
    #[command(flatten)]
    common: OutcomeArgs,
}

#[derive(clap::Args, Debug)]
pub struct ReviseArgs {
    /// The NID to revise.
    nid: String,
    /// The new version's registration file (TOML), or `-` for stdin.
    file: PathBuf,
    #[command(flatten)]
    common: OutcomeArgs,
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
    let mut out = output::stdout();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(outcome)?)?;
    } else {
        match &outcome.nid {
            Some(nid) => writeln!(
                out,
                "{what} {}: {} version {} {}",
                outcome.id,
                printable(nid),
                outcome.version,
                outcome.status
            )?,
            None => writeln!(
                out,
                "{what} {}: informal, version {} {}",
                outcome.id, outcome.version, outcome.status
            )?,
        }
    }
    out.finish()?;
    Ok(())
}

pub fn init(args: InitArgs) -> anyhow::Result<ExitCode> {
    let path = args.db.path()?;
    let existed = path.exists();
    let store = args.db.open_for_write(&args.actor, Create::Directory)?;
    let count: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM namespaces", [], |r| r.get(0))?;
    let verb = if existed { "opened" } else { "created" };
    let mut out = output::stdout();
    writeln!(
        out,
        "{verb} {} (schema {}, {count} namespaces)",
        printable(&path.display().to_string()),
        store.schema_version()?
    )?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

pub fn request(args: RequestArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let (file, source) = read_registration(&args.file)?;
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let outcome = store.request(&file, Some(&source), &actor.actor())?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}

pub fn revise(args: ReviseArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let (file, source) = read_registration(&args.file)?;
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let outcome = store
        .revise(&args.nid, &file, Some(&source), &actor.actor())
        .map_err(|e| suggest_nid(e, &store, &args.nid))?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}

pub fn review(args: ReviewArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let decision = if args.approve {
        Decision::Approve
    } else if args.reject {
        Decision::Reject
    } else {
        Decision::AskChanges
    };
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let outcome = store
        .review(&args.target, decision, &args.note, &actor.actor())
        .map_err(|e| suggest_nid(e, &store, &args.target))?;
    print_outcome(&outcome, format, "request")?;
    Ok(ExitCode::SUCCESS)
}
