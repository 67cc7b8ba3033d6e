//! `urnreg keywords` and `urnreg services`: the two sub-registries of URN
//! resolution query parameters (the 2012 URN draft, section 9.2), as the
//! registry holds them with what the namespaces' rules in force declare;
//! `add` registers a global keyword or a service designator (expert
//! review), with an audit entry.

use std::io::Write;
use std::process::ExitCode;

use urnreg::resolve::{Keyword, SERVICE_STATUSES, Scope, Service};

use super::db::{ActorArgs, Create, DbArgs};
use super::output::{self, printable};
use super::{Format, FormatParser};

/// `urnreg keywords [add ...]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct KeywordsArgs {
    #[command(subcommand)]
    action: Option<KeywordsAction>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(clap::Subcommand, Debug)]
enum KeywordsAction {
    /// Register a global query keyword (URN draft 2012, section 9.2.1:
    /// expert review). A namespace's own keywords come with its
    /// registration ([rules.resolution] new_keywords).
    Add {
        /// The keyword: a letter, then letters and digits, each maybe after
        /// one '-' (section 2.3). Case-sensitive.
        keyword: String,
        /// What it is for.
        #[arg(long, value_name = "TEXT")]
        purpose: String,
        /// Its defining document.
        #[arg(long, value_name = "TEXT")]
        reference: String,
        #[command(flatten)]
        list: ListArgs,
        #[command(flatten)]
        actor: ActorArgs,
    },
}

/// `urnreg services [add ...]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServicesArgs {
    #[command(subcommand)]
    action: Option<ServicesAction>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(clap::Subcommand, Debug)]
enum ServicesAction {
    /// Register a resolution service designator (URN draft 2012, section
    /// 9.2.2).
    Add {
        /// The designator (the value of s=): a letter, then up to 31
        /// letters, digits, '=' or '-'; unique without regard to case. In
        /// an s= directive it must be written as registered (directives
        /// are case-sensitive, section 2.3); `resolve -s` and
        /// `/uri-res/` take it in any case.
        name: String,
        /// What the service does.
        #[arg(long, value_name = "TEXT")]
        purpose: String,
        /// std, exp, provisional or deprecated.
        #[arg(long, value_name = "STATUS", default_value = "provisional",
              value_parser = clap::builder::PossibleValuesParser::new(SERVICE_STATUSES))]
        status: String,
        /// Its defining document.
        #[arg(long, value_name = "TEXT")]
        reference: String,
        /// Another name of the same service (repeatable).
        #[arg(long = "alias", value_name = "NAME")]
        aliases: Vec<String>,
        #[command(flatten)]
        list: ListArgs,
        #[command(flatten)]
        actor: ActorArgs,
    },
}

/// What listing takes.
#[derive(clap::Args, Debug)]
struct ListArgs {
    /// Output format: text (a table) or json.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: DbArgs,
}

/// `urnreg keywords`: the Query Keywords sub-registry (section 9.2.1).
pub fn keywords(args: KeywordsArgs) -> anyhow::Result<ExitCode> {
    let list = match args.action {
        Some(KeywordsAction::Add {
            keyword,
            purpose,
            reference,
            list,
            actor,
        }) => {
            let entry = Keyword {
                keyword,
                purpose,
                scope: Scope::Global,
                reference,
                supported_by: Vec::new(),
            };
            list.db
                .open_for_write(&actor, Create::FileOnly)?
                .add_keyword(&entry, &actor.actor())?;
            return print_keywords(&[entry], list.format);
        }
        None => args.list,
    };
    let registry = list.db.registry()?;
    print_keywords(&registry.query().keywords, list.format)
}

/// `urnreg services`: the Resolution Service Designators sub-registry
/// (section 9.2.2).
pub fn services(args: ServicesArgs) -> anyhow::Result<ExitCode> {
    let list = match args.action {
        Some(ServicesAction::Add {
            name,
            purpose,
            status,
            reference,
            aliases,
            list,
            actor,
        }) => {
            let entry = Service {
                name,
                purpose,
                status,
                reference,
                aliases,
            };
            list.db
                .open_for_write(&actor, Create::FileOnly)?
                .add_service(&entry, &actor.actor())?;
            return print_services(&[entry], list.format);
        }
        None => args.list,
    };
    let registry = list.db.registry()?;
    print_services(&registry.query().services, list.format)
}

fn print_keywords(keywords: &[Keyword], format: Format) -> anyhow::Result<ExitCode> {
    let mut out = output::stdout();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(keywords)?)?;
    } else {
        writeln!(
            out,
            "{:<8} {:<34} {:<9} {:<50} supported by",
            "keyword", "purpose", "scope", "reference"
        )?;
        for k in keywords {
            let supported: Vec<String> = k
                .supported_by
                .iter()
                .map(|s| format!("{} ({})", s.nid, s.reference))
                .collect();
            writeln!(
                out,
                "{:<8} {:<34} {:<9} {:<50} {}",
                printable(&k.keyword),
                printable(&k.purpose),
                k.scope.as_str(),
                printable(&k.reference),
                if supported.is_empty() {
                    "-".to_string()
                } else {
                    printable(&supported.join(", ")).into_owned()
                }
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn print_services(services: &[Service], format: Format) -> anyhow::Result<ExitCode> {
    let mut out = output::stdout();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(services)?)?;
    } else {
        writeln!(
            out,
            "{:<6} {:<20} {:<12} {:<24} aliases",
            "name", "purpose", "status", "reference"
        )?;
        for s in services {
            writeln!(
                out,
                "{:<6} {:<20} {:<12} {:<24} {}",
                printable(&s.name),
                printable(&s.purpose),
                printable(&s.status),
                printable(&s.reference),
                if s.aliases.is_empty() {
                    "-".to_string()
                } else {
                    printable(&s.aliases.join(", ")).into_owned()
                }
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
