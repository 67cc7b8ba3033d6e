//! `urnreg completions SHELL`: a completion script generated from the
//! clap definitions, so that it offers exactly the commands, options and
//! values (each command's own `--format` list) the binary accepts.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use super::output;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: Shell,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut cmd = super::Cli::command();
    let name = cmd.get_name().to_string();
    // Generated into memory first: the generator cannot report a write
    // error, standard output can.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, name, &mut script);
    let mut out = output::stdout();
    out.write_all(&script)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
