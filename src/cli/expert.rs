//! `urnreg expert add|list|remove`: who may review over HTTP (`urnreg
//! serve`). Run on the server host, against its database.

use std::io::{self, Write};
use std::process::ExitCode;

use urnreg::serve::tokens;

use super::db::DbArgs;
use super::{Format, format_for};

#[derive(clap::Subcommand, Debug)]
pub enum ExpertCommand {
    /// Add an expert and print their token, once (only its hash is kept).
    Add {
        /// The expert's name, as the audit log will name their decisions.
        name: String,
    },
    /// List the experts (never their tokens).
    List,
    /// Remove an expert: their token stops working at once.
    Remove {
        /// The expert's name.
        name: String,
    },
}

pub fn run(cmd: ExpertCommand, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json], "expert")?;
    let store = db.open_for_write()?;
    let conn = store.connection();
    let mut out = io::stdout().lock();
    match cmd {
        ExpertCommand::Add { name } => {
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
                    expert.name
                );
            }
        }
        ExpertCommand::List => {
            let experts = tokens::list_experts(conn)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &experts)?;
                writeln!(out)?;
            } else {
                for e in experts {
                    match &e.removed_at {
                        Some(at) => writeln!(out, "{}\tadded {}\tremoved {at}", e.name, e.created_at)?,
                        None => writeln!(out, "{}\tadded {}", e.name, e.created_at)?,
                    }
                }
            }
        }
        ExpertCommand::Remove { name } => {
            let expert = tokens::remove_expert(conn, &name)?;
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut out, &expert)?;
                writeln!(out)?;
            } else {
                writeln!(out, "expert '{}' removed", expert.name)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
