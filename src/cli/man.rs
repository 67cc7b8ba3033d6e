//! `urnreg man [COMMAND...]`: the manual page, in roff, generated from the
//! clap definitions: urnreg(1) with every command listed, or the page of
//! one command (`urnreg man ns show` is urnreg-ns-show(1)).

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use super::{UsageError, output};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The command whose page to print (e.g. `check`, `ns show`); none
    /// for urnreg(1).
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
}

/// The lines the roff writer puts before each part it renders (defining
/// the apostrophe string); said once is enough.
const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";

/// `roff` with [`PREAMBLE`] only at its start.
fn once_preamble(roff: &str) -> String {
    let rest = roff.strip_prefix(PREAMBLE).unwrap_or(roff);
    format!("{PREAMBLE}{}", rest.replace(PREAMBLE, ""))
}

/// What urnreg(1) says beyond the clap definitions.
const TOP_SECTIONS: &str = r#".SH ENVIRONMENT
.TP
\fBURNREG_DB\fR
The registry database when \fB\-\-db\fR is not given (else the platform data directory, e.g. \fI~/.local/share/urnreg/registry.db\fR). Read-only commands without a database use the registry built into the binary.
.TP
\fBURNREG_TOKEN\fR
With \fB\-\-server\fR, the token sent to the server (an expert's or a registrant's).
.TP
\fBURNREG_TIMEOUT\fR
With \fB\-\-server\fR, how many seconds one call to the server may take in all (default 30; connecting at most 10).
.TP
\fBUSER\fR
Who makes a change, for the audit log, when \fB\-\-actor\fR is not given.
.TP
\fBNO_COLOR\fR
When set and not empty, \fB\-\-color auto\fR colours nothing (https://no-color.org). \fBCLICOLOR_FORCE\fR colours even in a pipe.
.SH EXIT STATUS
.TP
\fB0\fR
Success: every URN valid, the URNs equivalent, no lint errors, the change made.
.TP
\fB1\fR
The command ran and the answer is no: some URN invalid, not equivalent, lint errors, an import dry run that needs \fB\-\-replace\fR.
.TP
\fB2\fR
An error: a usage mistake, a file or database that cannot be read or written, a refused request (nothing is changed).
.PP
A closed output pipe (\fIurnreg check \- | head\fR) ends the command quietly with status 0.
"#;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut cmd = super::Cli::command();
    // Building fills in what clap derives (global --color on each
    // command, `help` subcommands), so each page shows what is accepted.
    cmd.build();
    // A built command's subcommands are named for their page:
    // `urnreg-ns-show`, used as `urnreg ns show`.
    let mut page = cmd;
    for word in &args.command {
        let Some(sub) = page.find_subcommand(word).cloned() else {
            let known: Vec<_> = page
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .filter(|n| n != "help")
                .collect();
            let name = page.get_bin_name().unwrap_or(page.get_name()).to_string();
            return Err(UsageError(format!(
                "'{name}' has no command '{}' (it has: {})",
                super::output::printable(word),
                known.join(", ")
            ))
            .into());
        };
        page = sub;
    }
    let top = args.command.is_empty();
    let has_options = page.get_arguments().any(|a| !a.is_hide_set());
    let has_commands = page.has_subcommands();
    let man = clap_mangen::Man::new(page)
        .source(format!("urnreg {}", env!("CARGO_PKG_VERSION")))
        .manual("User Commands");
    let mut roff = Vec::new();
    man.render_title(&mut roff)?;
    man.render_name_section(&mut roff)?;
    man.render_synopsis_section(&mut roff)?;
    man.render_description_section(&mut roff)?;
    if has_options {
        man.render_options_section(&mut roff)?;
    }
    if has_commands {
        man.render_subcommands_section(&mut roff)?;
    }
    if top {
        roff.extend_from_slice(TOP_SECTIONS.as_bytes());
        man.render_version_section(&mut roff)?;
    }
    let roff = once_preamble(&String::from_utf8_lossy(&roff));
    let mut out = output::stdout();
    out.write_all(roff.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_preamble_is_said_once() {
        let p = super::PREAMBLE;
        assert_eq!(
            super::once_preamble(&format!("{p}.TH x\n{p}.SH NAME\n{p}")),
            format!("{p}.TH x\n.SH NAME\n")
        );
    }
}
