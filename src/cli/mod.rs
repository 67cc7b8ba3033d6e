//! Argument definitions (clap derive), dispatch, error printing and exit
//! codes. Only this module writes to stdout or stderr.

mod check;
#[cfg(feature = "serve")]
mod client;
mod db;
mod eq;
#[cfg(feature = "serve")]
mod expert;
mod input;
mod lifecycle;
mod lint;
mod normalize;
mod ns;
mod parse;
mod report;
#[cfg(feature = "serve")]
mod serve;
mod snapshot;
mod template;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Check, parse, compare and normalize URNs, and keep a registry of URN
/// namespaces (RFC 8141).
#[derive(Parser, Debug)]
#[command(name = "urnreg", version, about)]
pub struct Cli {
    /// Output format (each command lists the formats it supports).
    #[arg(long, global = true, value_enum)]
    format: Option<Format>,

    #[command(flatten)]
    db: db::DbArgs,

    /// Send request, amend, withdraw, status, queue and review to this `urnreg serve` (e.g.
    /// https://registry.example.org) instead of a local database; the
    /// token comes from $URNREG_TOKEN.
    #[cfg(feature = "serve")]
    #[arg(long, global = true, value_name = "URL")]
    server: Option<String>,

    #[command(subcommand)]
    command: Command,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON document.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// TOML (a registration file, a snapshot).
    Toml,
    /// The IANA registry XML (snapshots).
    Xml,
    /// CSV, one row per namespace (export).
    Csv,
    /// A static HTML site (export).
    Html,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check URNs; with `-` (or no URN and a pipe on stdin) read one per line.
    ///
    /// Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error.
    Check(check::Args),
    /// Show the parts of one URN, its equivalence key and its display form.
    Parse(parse::Args),
    /// Print the equivalence key (RFC 8141 section 3.1) of each URN.
    Normalize(normalize::Args),
    /// Say whether two URNs are URN-equivalent (exit 0) or not (exit 1).
    Eq(eq::Args),
    /// Create the registry database from the built-in IANA registry.
    Init(lifecycle::InitArgs),
    /// File a registration request (RFC 8141 section 6) from a TOML file.
    Request(lifecycle::RequestArgs),
    /// Record an expert review decision on a request.
    Review(lifecycle::ReviewArgs),
    /// File a revision (a new version) of a registered namespace.
    Revise(lifecycle::ReviseArgs),
    /// Replace the text of a request waiting for review (as the expert
    /// asked); it goes back to review, and the old text stays in the history.
    Amend(lifecycle::AmendArgs),
    /// Withdraw a request waiting for review (the registrant's choice).
    Withdraw(lifecycle::WithdrawArgs),
    /// The expert's worklist: every request waiting for review.
    Queue(lifecycle::QueueArgs),
    /// Read the registry: list, show, history, diff.
    #[command(subcommand)]
    Ns(ns::NsCommand),
    /// Check a registration file as an expert reviewer would first (RFC 8141
    /// sections 5, 6, Appendix A). Exit 0 no errors, 1 errors, 2 unreadable.
    Lint(lint::Args),
    /// Registration templates: new, render, import.
    #[command(subcommand)]
    Template(template::TemplateCommand),
    /// Write the whole registry as a snapshot directory (with SHA256SUMS).
    Export(snapshot::ExportArgs),
    /// Load a snapshot: validated first, applied in one transaction.
    Import(snapshot::ImportArgs),
    /// Serve the registry over HTTP: pages, the JSON API, filing and review.
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// The experts who may review over HTTP: add (prints a token once),
    /// list, remove.
    #[cfg(feature = "serve")]
    #[command(subcommand)]
    Expert(expert::ExpertCommand),
    /// Show a request: its state and the review notes on it.
    #[cfg(feature = "serve")]
    Status(client::StatusArgs),
}

/// The grammar options shared by every command that parses URNs.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SyntaxArgs {
    /// Use the legacy RFC 2141 grammar (no r-, q- or f-components).
    #[arg(long)]
    rfc2141: bool,
}

impl SyntaxArgs {
    fn syntax(self) -> urnreg::Syntax {
        if self.rfc2141 {
            urnreg::Syntax::Rfc2141
        } else {
            urnreg::Syntax::Rfc8141
        }
    }
}

/// An error that has been reported already and carries only an exit code.
#[derive(Debug)]
pub struct QuietExit(pub u8);

impl std::fmt::Display for QuietExit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}", self.0)
    }
}

impl std::error::Error for QuietExit {}

/// Refuses a `--format` the command cannot write.
fn format_for(format: Option<Format>, allowed: &[Format], command: &str) -> anyhow::Result<Format> {
    let format = format.unwrap_or(Format::Text);
    if allowed.contains(&format) {
        Ok(format)
    } else {
        let names: Vec<_> = allowed
            .iter()
            .map(|f| {
                f.to_possible_value()
                    .map(|v| v.get_name().to_string())
                    .unwrap_or_default()
            })
            .collect();
        Err(UsageError(format!("'{command}' supports --format {}", names.join(", "))).into())
    }
}

/// A mistake in how the command was called (exit 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Parses the arguments, runs the command, prints any error and maps the
/// outcome to an exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            if let Some(QuietExit(code)) = err.downcast_ref::<QuietExit>() {
                return ExitCode::from(*code);
            }
            // A closed pipe (`urnreg check - | head`) is not an error.
            if err.chain().any(|e| {
                e.downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            print_error(&err);
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "serve")]
    if let Some(server) = cli.server.as_deref().filter(|s| !s.is_empty()) {
        return client::run(server, cli.command, cli.format);
    }
    match cli.command {
        Command::Check(args) => check::run(args, &cli.db, cli.format),
        Command::Parse(args) => parse::run(args, &cli.db, cli.format),
        Command::Normalize(args) => normalize::run(args, &cli.db, cli.format),
        Command::Eq(args) => eq::run(args, &cli.db, cli.format),
        Command::Init(args) => lifecycle::init(args, &cli.db, cli.format),
        Command::Request(args) => lifecycle::request(args, &cli.db, cli.format),
        Command::Review(args) => lifecycle::review(args, &cli.db, cli.format),
        Command::Revise(args) => lifecycle::revise(args, &cli.db, cli.format),
        Command::Amend(args) => lifecycle::amend(args, &cli.db, cli.format),
        Command::Withdraw(args) => lifecycle::withdraw(args, &cli.db, cli.format),
        Command::Queue(args) => lifecycle::queue(args, &cli.db, cli.format),
        Command::Ns(cmd) => ns::run(cmd, &cli.db, cli.format),
        Command::Lint(args) => lint::run(args, &cli.db, cli.format),
        Command::Template(cmd) => template::run(cmd, &cli.db, cli.format),
        Command::Export(args) => snapshot::export(args, &cli.db, cli.format),
        Command::Import(args) => snapshot::import(args, &cli.db, cli.format),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args, &cli.db, cli.format),
        #[cfg(feature = "serve")]
        Command::Expert(cmd) => expert::run(cmd, &cli.db, cli.format),
        #[cfg(feature = "serve")]
        Command::Status(args) => client::status(args, &cli.db, cli.format),
    }
}

/// Prints an error and each of its causes.
fn print_error(err: &anyhow::Error) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "error: {err}");
    for cause in err.chain().skip(1) {
        let _ = writeln!(stderr, "  caused by: {cause}");
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }
}
