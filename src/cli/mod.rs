//! Argument definitions (clap derive), dispatch, error printing and exit
//! codes. Only this module writes to stdout or stderr.
//!
//! Each subcommand declares the options that apply to it and nothing
//! else: `--format` lists only the formats that command writes, `--db`
//! appears where the registry database is read or written, `--actor`
//! only where a change is recorded. `--color` is the one option every
//! command has, since every command can print an error. Those written
//! before the command are moved after it ([`options`]), so both places
//! work.

mod check;
#[cfg(feature = "serve")]
mod client;
mod completions;
mod db;
mod eq;
#[cfg(feature = "serve")]
mod expert;
mod files;
mod ignore_files;
mod input;
mod lifecycle;
mod lint;
mod man;
mod normalize;
mod ns;
mod options;
mod output;
mod parse;
mod query;
mod report;
mod resolve;
mod scan;
#[cfg(feature = "serve")]
mod serve;
mod snapshot;
mod template;
mod update;

use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// Check, parse, compare and normalize URNs, and keep a registry of URN
/// namespaces (RFC 8141).
#[derive(Parser, Debug)]
#[command(name = "urnreg", version, about)]
pub struct Cli {
    /// When to colour errors, warnings and verdicts.
    #[arg(long, global = true, value_enum, value_name = "WHEN",
          default_value_t = output::Color::Auto, display_order = 900)]
    color: output::Color,

    /// Send request, amend, withdraw, status, queue and review to this
    /// `urnreg serve` (e.g. https://registry.example.org) instead of a
    /// local database; the token comes from $URNREG_TOKEN, and a call gives
    /// up after 30 s ($URNREG_TIMEOUT).
    #[cfg(feature = "serve")]
    #[arg(long, global = true, value_name = "URL", display_order = 901)]
    server: Option<String>,

    #[command(subcommand)]
    command: Command,
}

/// Output formats. Each command's `--format` accepts only those it writes
/// (see [`FormatParser`]).
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
    /// The IANA registry XML.
    Xml,
    /// CSV, one row per namespace.
    Csv,
    /// A static HTML site.
    Html,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
}

/// `--format` of a command: only the formats in the slice are accepted,
/// offered by completion and listed in its help.
#[derive(Clone, Copy, Debug)]
pub struct FormatParser(pub &'static [Format]);

impl FormatParser {
    fn values(&self) -> impl Iterator<Item = PossibleValue> + '_ {
        self.0.iter().filter_map(|f| f.to_possible_value())
    }
}

impl TypedValueParser for FormatParser {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        // The possible-values parser gives clap's own error ("invalid
        // value 'xml' for '--format <FORMAT>' [possible values: ...]").
        let name = PossibleValuesParser::new(self.values()).parse_ref(cmd, arg, value)?;
        self.0
            .iter()
            .copied()
            .find(|f| f.to_possible_value().is_some_and(|v| v.get_name() == name))
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values()))
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check URNs; with `-` (or no URN and a pipe on stdin) read one per line.
    ///
    /// Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error.
    Check(check::Args),
    /// Show the parts of one URN, its equivalence key and its display form.
    ///
    /// Exit status: 0 valid, 1 invalid, 2 usage or I/O error.
    Parse(parse::Args),
    /// Print the equivalence key (RFC 8141 section 3.1) of each URN.
    ///
    /// Exit status: 0 all valid, 1 some invalid (their line is empty), 2
    /// usage or I/O error.
    Normalize(normalize::Args),
    /// Find the URNs in files and trees and check each against its
    /// namespace; only the invalid ones are reported unless --all.
    ///
    /// Exit status: 0 every URN found is valid, 1 some are not, 2 an
    /// error (an unreadable path is reported and the scan goes on). When
    /// the reader of the output leaves (`| head -1`), the scan stops
    /// quietly with 0, whatever it had found, as `check -` does: to
    /// fail a pipeline on an invalid URN, read the whole output.
    Scan(scan::Args),
    /// Where each URN leads: the URL(s) of its namespace's resolution
    /// service (RFC 2483); with `-` (or no URN and a pipe on stdin) one URN
    /// per line.
    ///
    /// Exit status: 0 all resolved, 1 a valid URN without a resolver for
    /// the service, 2 an invalid URN, an unregistered NID or an unknown
    /// service.
    Resolve(resolve::Args),
    /// Say whether two URNs are URN-equivalent.
    ///
    /// Exit status: 0 equivalent, 1 not equivalent, 2 either is invalid.
    Eq(eq::Args),
    /// Create the registry database from the built-in IANA registry.
    Init(lifecycle::InitArgs),
    /// File a registration request (RFC 8141 section 6) from a TOML file.
    ///
    /// Exit status: 0 filed, 2 refused (nothing is changed).
    Request(lifecycle::RequestArgs),
    /// Record an expert review decision on a request.
    ///
    /// Exit status: 0 recorded, 2 refused.
    Review(lifecycle::ReviewArgs),
    /// File a revision (a new version) of a registered namespace.
    ///
    /// Exit status: 0 filed, 2 refused (nothing is changed).
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
    /// sections 5, 6, Appendix A).
    ///
    /// Each finding is printed as FILE:LINE:COLUMN: error[rule]: ... so
    /// that editors and CI annotations can jump to it.
    ///
    /// Exit status: 0 no errors, 1 errors, 2 the file cannot be read.
    Lint(lint::Args),
    /// Registration templates: new, render, import.
    #[command(subcommand)]
    Template(template::TemplateCommand),
    /// Write the whole registry as a snapshot directory (with SHA256SUMS),
    /// or as a static site.
    Export(snapshot::ExportArgs),
    /// Load a snapshot: validated first, applied in one transaction.
    ///
    /// Exit status: 0 imported (or nothing to do), 1 a dry run that needs
    /// --replace, 2 refused (nothing is changed).
    Import(snapshot::ImportArgs),
    /// Bring the database's shipped namespaces and rules up to the registry
    /// built into this urnreg.
    ///
    /// Adds the NIDs the database lacks and rewrites the shipped namespaces
    /// not changed here; namespaces registered here or with versions filed
    /// here are kept (the plan says why). Nothing is removed.
    ///
    /// Exit status: 0 updated (or nothing to do), 1 a dry run that would
    /// change something, 2 refused (nothing is changed).
    Update(update::UpdateArgs),
    /// The Query Keywords sub-registry: keywords of r-component directives
    /// (keywd=value; URN draft 2012, section 9.2.1), with the namespaces
    /// that support each; `add` registers a global one.
    Keywords(query::KeywordsArgs),
    /// The Resolution Service Designators sub-registry: the values of s=
    /// (RFC 2483 section 4; URN draft 2012, section 9.2.2); `add` registers
    /// one.
    Services(query::ServicesArgs),
    /// Print a shell completion script, generated from these definitions.
    ///
    /// For example: `urnreg completions bash > ~/.local/share/bash-completion/completions/urnreg`.
    Completions(completions::Args),
    /// Print the manual page (roff) of urnreg or of one of its commands.
    ///
    /// For example: `urnreg man | man -l -`, `urnreg man ns show`.
    Man(man::Args),
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

    /// Refuse URNs that are valid only by a form their namespace's owner
    /// publishes beyond the registration (registration-deviation becomes
    /// an error).
    #[arg(long)]
    strict: bool,
}

impl SyntaxArgs {
    fn syntax(self) -> urnreg::Syntax {
        if self.rfc2141 {
            urnreg::Syntax::Rfc2141
        } else {
            urnreg::Syntax::Rfc8141
        }
    }

    fn is_strict(self) -> bool {
        self.strict
    }

    /// A checker against `registry` (generic syntax only without one) with
    /// these choices.
    fn checker(self, registry: Option<&urnreg::Registry>) -> urnreg::Checker<'_> {
        urnreg::Checker::with_registry(registry)
            .with_syntax(self.syntax())
            .strict(self.strict)
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

/// A mistake in how the command was called (exit 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Ends the process with clap's refusal `e` of `args`, written as clap
/// writes it, but with any argument holding control characters escaped.
fn refuse_arguments(e: clap::Error, args: &[std::ffi::OsString]) -> ! {
    // A line feed too: quoted raw, it would start a line of its own.
    let escaped = |a: &std::ffi::OsString| output::printable_line(&a.to_string_lossy()).into_owned();
    let shown: Vec<String> = args.iter().map(escaped).collect();
    if args
        .iter()
        .zip(&shown)
        .all(|(a, s)| a.to_str() == Some(s.as_str()))
    {
        e.exit();
    }
    match Cli::command().try_get_matches_from(shown) {
        Err(again) if again.kind() == e.kind() => again.exit(),
        // Escaping made the arguments parse, or fail otherwise: the first
        // error, its text stripped of every escape.
        _ => {
            let text = e.render().to_string();
            let _ = std::io::Write::write_all(&mut std::io::stderr(), output::printable(&text).as_bytes());
            std::process::exit(e.exit_code());
        }
    }
}

/// Parses the arguments, runs the command, prints any error and maps the
/// outcome to an exit status.
pub fn main() -> ExitCode {
    // Decided before clap parses, so that clap's own help and errors
    // follow `--color` too.
    output::Color::from_args(std::env::args_os()).apply();
    let cmd = Cli::command();
    let args = match options::hoist(std::env::args_os().collect(), &cmd) {
        Ok(args) => args,
        Err(e) => {
            output::print_error(&anyhow::Error::new(e));
            return ExitCode::from(2);
        }
    };
    // clap's errors quote the argument they refuse as given: when one has
    // control characters (ESC, BEL, bidi overrides), the error is made
    // again from the arguments escaped as our own messages write them, so
    // it names the value without passing those characters to a terminal.
    // Nothing of this runs unless the arguments are refused.
    let matches = match cmd.try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(e) if e.use_stderr() => refuse_arguments(e, &args),
        Err(e) => e.exit(),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    cli.color.apply();
    #[cfg(feature = "serve")]
    let outcome = match cli.server.as_deref().filter(|s| !s.is_empty()) {
        Some(server) => client::run(server, cli.command),
        None => run(cli.command),
    };
    #[cfg(not(feature = "serve"))]
    let outcome = run(cli.command);
    match outcome {
        Ok(code) => code,
        Err(err) => {
            if let Some(QuietExit(code)) = err.downcast_ref::<QuietExit>() {
                return ExitCode::from(*code);
            }
            // A closed pipe (`urnreg check - | head`) is not an error.
            if output::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            output::print_error(&err);
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Check(args) => check::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Normalize(args) => normalize::run(args),
        Command::Scan(args) => scan::run(args),
        Command::Resolve(args) => resolve::run(args),
        Command::Eq(args) => eq::run(args),
        Command::Init(args) => lifecycle::init(args),
        Command::Request(args) => lifecycle::request(args),
        Command::Review(args) => lifecycle::review(args),
        Command::Revise(args) => lifecycle::revise(args),
        Command::Amend(args) => lifecycle::amend(args),
        Command::Withdraw(args) => lifecycle::withdraw(args),
        Command::Queue(args) => lifecycle::queue(args),
        Command::Ns(cmd) => ns::run(cmd),
        Command::Lint(args) => lint::run(args),
        Command::Template(cmd) => template::run(cmd),
        Command::Export(args) => snapshot::export(args),
        Command::Import(args) => snapshot::import(args),
        Command::Update(args) => update::run(args),
        Command::Keywords(args) => query::keywords(args),
        Command::Services(args) => query::services(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        #[cfg(feature = "serve")]
        Command::Expert(cmd) => expert::run(cmd),
        #[cfg(feature = "serve")]
        Command::Status(args) => client::status(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }

    /// `--actor` only where a change is recorded; `--db` only where the
    /// registry is read or written; `--format` never offers a format the
    /// command cannot write (each command's list is checked against what
    /// its `run` handles by the command-line tests).
    #[test]
    fn options_appear_only_where_they_apply() {
        let writes = [
            "init",
            "request",
            "review",
            "revise",
            "amend",
            "withdraw",
            "import",
            "update",
            "serve",
            "expert add",
            "expert remove",
            "keywords add",
            "services add",
        ];
        let no_db = ["completions", "man", "template import"];
        let mut cmd = super::Cli::command();
        // Building propagates the global --color to every command.
        cmd.build();
        let mut leaves = Vec::new();
        collect_leaves(&cmd, String::new(), &mut leaves);
        assert!(leaves.len() > 15, "{leaves:?}");
        for (path, sub) in &leaves {
            let has = |name: &str| sub.get_arguments().any(|a| a.get_long() == Some(name));
            assert_eq!(
                has("actor"),
                writes.contains(&path.as_str()),
                "--actor on '{path}'"
            );
            assert_eq!(has("db"), !no_db.contains(&path.as_str()), "--db on '{path}'");
            assert!(has("color"), "--color on '{path}'");
        }
    }

    /// `--generic`, the old name of `--syntax-only`, still works wherever
    /// `--syntax-only` does (scripts written for it).
    #[test]
    fn syntax_only_answers_to_its_old_name_everywhere() {
        let mut cmd = super::Cli::command();
        cmd.build();
        let mut leaves = Vec::new();
        collect_leaves(&cmd, String::new(), &mut leaves);
        let mut seen = 0;
        for (path, sub) in &leaves {
            let Some(arg) = sub.get_arguments().find(|a| a.get_long() == Some("syntax-only")) else {
                continue;
            };
            seen += 1;
            let aliases = arg.get_all_aliases().unwrap_or_default();
            assert!(aliases.contains(&"generic"), "--generic on '{path}': {aliases:?}");
        }
        assert_eq!(seen, 5, "check, parse, normalize, scan, eq");
    }

    fn collect_leaves(cmd: &clap::Command, prefix: String, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let path = if prefix.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{prefix} {}", sub.get_name())
            };
            if sub.has_subcommands() {
                collect_leaves(sub, path, out);
            } else {
                out.push((path, sub.clone()));
            }
        }
    }
}
