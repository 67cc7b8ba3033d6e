//! `urnreg expert add|list|remove`: who may review over HTTP (`urnreg
//! serve`). Run on the server host, against its database.

use std::io::{self, Write};
use std::process::ExitCode;

use urnreg::serve::tokens;

use super::db::{ActorArgs, Create, DbArgs};
use super::output::printable;
use super::{Format, FormatParser};

#[derive(clap::Subcommand, Debug)]
pub enum ExpertCommand {
    /// Add an expert and print their token, once (only its hash is kept).
    Add {
        /// The expert's name, as the audit log will name their decisions.
        name: String,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        actor: ActorArgs,
    },
    /// List the experts (never their tokens).
    List {
        #[command(flatten)]
        common: Common,
    },
    /// Remove an expert: their token stops working at once.
    Remove {
        /// The expert's name.
        name: String,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        actor: ActorArgs,
    },
}

/// The options every `expert` command takes.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

pub fn run(cmd: ExpertCommand) -> anyhow::Result<ExitCode> {
    let (common, actor) = match &cmd {
        ExpertCommand::Add { common, actor, .. } | ExpertCommand::Remove { common, actor, .. } => {
            (common, Some(actor))
        }
        ExpertCommand::List { common } => (common, None),
    };
    let format = common.format;
    let store = match actor {
        Some(actor) => common.db.open_for_write(actor, Create::FileOnly)?,
        None => common.db.open_for_read()?,
    };
    let conn = store.connection();
    let mut out = io::stdout().lock();
    match cmd {
        ExpertCommand::Add { name, .. } => {
            let (expert, token) = tokens::add_expert(conn, &name)?;
            if format == Format::Json {
                let value = serde_json::json!({ "expert": expert, "token": token.reveal() });
                serde_json::to_writer_pretty(&mut out, &value)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}", token.reveal())?;
                let _ = writeln!(
                    io::stderr(),
                    "expert '{}' added: the token above is shown this once; \
                     send it as 'Authorization: Bearer TOKEN' or sign in with it",
                    printable(&expert.name)
                );
            }
        }
        ExpertCommand::List { .. } => {
            let experts = tokens::list_experts(conn)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &experts)?;
                writeln!(out)?;
            } else {
                for e in experts {
                    match &e.removed_at {
                        Some(at) => writeln!(
                            out,
                            "{}\tadded {}\tremoved {}",
                            printable(&e.name),
                            printable(&e.created_at),
                            printable(at)
                        )?,
                        None => writeln!(out, "{}\tadded {}", printable(&e.name), printable(&e.created_at))?,
                    }
                }
            }
        }
        ExpertCommand::Remove { name, .. } => {
            let expert = tokens::remove_expert(conn, &name)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &expert)?;
                writeln!(out)?;
            } else {
                writeln!(out, "expert '{}' removed", printable(&expert.name))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
