//! `urnreg init`, `request`, `revise`, `amend`, `withdraw`, `review`,
//! `queue`: the registration lifecycle of RFC 8141 section 6.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;
use urnreg::lint::{vet_amendment, vet_request, vet_revision};
use urnreg::registry::{Decision, Outcome, RegistrationFile, Store};

use super::db::{ActorArgs, Create, DbArgs, suggest_nid};
use super::output::{self, printable, printable_line};
use super::{Format, FormatParser};

#[derive(clap::Args, Debug)]
pub struct InitArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

/// What the commands that change a request take besides their own
/// arguments, and how they print the outcome.
#[derive(clap::Args, Debug)]
pub struct OutcomeArgs {
    /// Output format: text, or json ({id, nid, status, version}).
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    pub(super) format: Format,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

#[derive(clap::Args, Debug)]
pub struct RequestArgs {
    /// The registration file (TOML), or `-` for stdin.
    pub(super) file: PathBuf,
    #[command(flatten)]
    pub(super) common: OutcomeArgs,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("decision").required(true).args(["approve", "reject", "ask_changes"])))]
pub struct ReviewArgs {
    /// The request id, or the NID whose pending request is meant.
    pub(super) target: String,
    /// Approve: register the NID (formal) or assign the next urn-N
    /// (informal), or put the revision in force, with its rules.
    #[arg(long)]
    pub(super) approve: bool,
    /// Reject the request.
    #[arg(long)]
    pub(super) reject: bool,
    /// Send the request back to the registrant for changes (they answer
    /// with `urnreg amend`).
    #[arg(long)]
    pub(super) ask_changes: bool,
    /// The reviewer's note to the registrant.
    #[arg(long, required = true, value_name = "TEXT")]
    pub(super) note: String,
    /// How many times the request had been amended when you read it
    /// (`urnreg status` and `queue` show it): a text the registrant amended
    /// since is not decided. Required with --server.
    #[arg(long, value_name = "N")]
    pub(super) amendments: Option<i64>,
    #[command(flatten)]
    pub(super) common: OutcomeArgs,
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

#[derive(clap::Args, Debug)]
pub struct AmendArgs {
    /// The request id, or the NID whose pending request is meant.
    pub(super) target: String,
    /// The amended registration file (TOML), or `-` for stdin.
    pub(super) file: PathBuf,
    #[command(flatten)]
    pub(super) common: OutcomeArgs,
}

#[derive(clap::Args, Debug)]
pub struct WithdrawArgs {
    /// The request id, or the NID whose pending request is meant.
    pub(super) target: String,
    /// Why, for the history.
    #[arg(long, value_name = "TEXT")]
    pub(super) note: Option<String>,
    #[command(flatten)]
    pub(super) common: OutcomeArgs,
}

#[derive(clap::Args, Debug)]
pub struct QueueArgs {
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    pub(super) format: Format,
    #[command(flatten)]
    db: DbArgs,
}

/// Reads a registration file from a path or stdin (at most
/// [`super::files::MAX_REGISTRATION_BYTES`]).
pub(super) fn read_registration(path: &Path) -> anyhow::Result<(RegistrationFile, String)> {
    let (text, source) = super::files::read_registration_text(path)?;
    let file = match RegistrationFile::from_toml(&text) {
        Ok(file) => file,
        Err(e) if urnreg::template::is_template_text(&text) => {
            return Err(anyhow::Error::from(e).context(format!(
                "in {source}: {}",
                super::lint::template_text_hint(&source)
            )));
        }
        Err(e) => return Err(anyhow::Error::from(e).context(format!("in {source}"))),
    };
    Ok((file, source))
}

fn print_outcome(outcome: &Outcome, format: Format) -> anyhow::Result<()> {
    let mut out = output::stdout();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(outcome)?)?;
    } else {
        writeln!(
            out,
            "request {}: {} version {} {}",
            outcome.id,
            printable(outcome.nid.as_deref().unwrap_or("informal,")),
            outcome.version,
            outcome.status
        )?;
    }
    out.finish()?;
    Ok(())
}

pub fn init(args: InitArgs) -> anyhow::Result<ExitCode> {
    let path = args.db.path()?;
    if args.actor.actor() == super::db::UNKNOWN_ACTOR {
        eprintln!(
            "note: no --actor, $URNREG_ACTOR, $USER or login name: changes are recorded as '{}' in the audit log",
            super::db::UNKNOWN_ACTOR
        );
    }
    let store = args.db.open_for_write(&args.actor, Create::Directory)?;
    let count: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM namespaces", [], |r| r.get(0))?;
    let verb = if store.was_created() { "created" } else { "opened" };
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
    // A refused filing changes nothing: with no database yet, the file is
    // vetted against what a new one would hold before one is made.
    if !db.path()?.exists() {
        vet_request(&Store::open_embedded()?, &file)?;
    }
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let vetted = vet_request(&store, &file)?;
    let outcome = store.request(&vetted, Some(&source), &actor.actor())?;
    print_outcome(&outcome, format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn revise(args: ReviseArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let (file, source) = read_registration(&args.file)?;
    if !db.path()?.exists() {
        let embedded = Store::open_embedded()?;
        vet_revision(&embedded, &args.nid, &file).map_err(|e| suggest_nid(e, &embedded, &args.nid))?;
    }
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let vetted = vet_revision(&store, &args.nid, &file).map_err(|e| suggest_nid(e, &store, &args.nid))?;
    let outcome = store
        .revise(&args.nid, &vetted, Some(&source), &actor.actor())
        .map_err(|e| suggest_nid(e, &store, &args.nid))?;
    print_outcome(&outcome, format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn amend(args: AmendArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let (file, source) = read_registration(&args.file)?;
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let vetted =
        vet_amendment(&store, &args.target, &file).map_err(|e| suggest_nid(e, &store, &args.target))?;
    let outcome = store
        .amend(&args.target, &vetted, Some(&source), &actor.actor())
        .map_err(|e| suggest_nid(e, &store, &args.target))?;
    print_outcome(&outcome, format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn withdraw(args: WithdrawArgs) -> anyhow::Result<ExitCode> {
    let OutcomeArgs { format, db, actor } = args.common;
    let mut store = db.open_for_write(&actor, Create::FileOnly)?;
    let outcome = store
        .withdraw(&args.target, args.note.as_deref(), &actor.actor())
        .map_err(|e| suggest_nid(e, &store, &args.target))?;
    print_outcome(&outcome, format)?;
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
        .review_read(
            &args.target,
            decision,
            &args.note,
            &actor.actor(),
            args.amendments,
        )
        .map_err(|e| suggest_nid(e, &store, &args.target))?;
    print_outcome(&outcome, format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn queue(args: QueueArgs) -> anyhow::Result<ExitCode> {
    let store = args.db.open_for_read()?;
    let queue = store.queue()?;
    let mut out = output::stdout();
    if args.format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&queue)?)?;
    } else {
        // The same reading and printing as an answer from a server.
        let queue = Queue::deserialize(serde_json::to_value(&queue)?)?;
        write_queue(&mut out, &queue)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The requests waiting, oldest first: `queue`'s JSON, as the store
/// writes it and `GET /api/queue` answers it.
#[derive(Deserialize)]
#[serde(transparent)]
pub(super) struct Queue(Vec<QueueAnswer>);

/// One request of `GET /api/queue` (`QueueEntry`).
#[derive(Deserialize)]
struct QueueAnswer {
    id: i64,
    nid: Option<String>,
    version: i64,
    status: String,
    filed: String,
    /// How many times it was amended (an older server does not say).
    #[serde(default)]
    amendments: usize,
    last_note: Option<String>,
}

/// Prints the expert's worklist as a table, one request a line with the
/// first line of its last note: the local `queue` and `--server` alike.
pub(super) fn write_queue(out: &mut output::Stdout, Queue(entries): &Queue) -> io::Result<()> {
    if entries.is_empty() {
        return writeln!(out, "no request waits for review");
    }
    writeln!(
        out,
        "{:>5}  {:<24} {:>7}  {:<17}  {:<20}  last note",
        "id", "NID", "version", "state", "filed"
    )?;
    for e in entries {
        let note = e.last_note.as_deref().unwrap_or("-");
        let amended = match e.amendments {
            0 => String::new(),
            n => format!(" (amended {n}x)"),
        };
        writeln!(
            out,
            "{:>5}  {:<24} {:>7}  {:<17}  {:<20}  {}{amended}",
            e.id,
            printable_line(e.nid.as_deref().unwrap_or("informal")),
            e.version,
            printable_line(&e.status),
            printable_line(&e.filed),
            printable(note.lines().next().unwrap_or_default())
        )?;
    }
    Ok(())
}
