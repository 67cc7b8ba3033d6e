//! `urnreg template new|render|import`: writing, rendering and importing
//! registration templates (RFC 8141 Appendix A, RFC 3406).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::{Kind, RegistrationFile};
use urnreg::template::{Form, MAX_TEXT_BYTES, import_registration_bytes, render, skeleton};

use super::db::DbArgs;
use super::{Format, UsageError, format_for};

#[derive(clap::Subcommand, Debug)]
pub enum TemplateCommand {
    /// Write a registration file to fill in (stdout), every field with what
    /// RFC 8141 section 6.4 expects there.
    New(NewArgs),
    /// Render a registered namespace (by NID) or a registration file.
    Render(RenderArgs),
    /// Read a filled-in template text (RFC 8141 or RFC 2611/3406 form) into
    /// a registration file (stdout); what cannot be placed goes to stderr.
    Import(ImportArgs),
}

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// An informal namespace (the registry assigns its urn-N NID).
    #[arg(long, conflicts_with = "nid")]
    informal: bool,
    /// The NID to request; a registered NID gives a revision, pre-filled
    /// with the version in force.
    #[arg(long)]
    nid: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A registered NID, or a registration file (`.toml`).
    target: String,
    /// Which version of a registered NID (default: the one in force).
    #[arg(long)]
    version: Option<i64>,
    /// The form (default: rfc8141, or rfc3406 for a registration in the
    /// older form).
    #[arg(long, value_parser = parse_form(), value_name = "FORM")]
    form: Option<Form>,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The template text, or `-` for stdin.
    file: PathBuf,
}

/// `--form`: the library's forms, by name, listed in the help.
fn parse_form() -> impl clap::builder::TypedValueParser<Value = Form> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Form::ALL.map(|(name, _)| name))
        .map(|name| Form::from_name(&name).expect("a listed form"))
}

pub fn run(cmd: TemplateCommand, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    match cmd {
        TemplateCommand::New(args) => new(args, db, format),
        TemplateCommand::Render(args) => render_cmd(args, db, format),
        TemplateCommand::Import(args) => import(args, format),
    }
}

fn new(args: NewArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Toml, Format::Text], "template new")?;
    let kind = if args.informal {
        Kind::Informal
    } else {
        Kind::Formal
    };
    let current = match &args.nid {
        Some(nid) => {
            let store = db.open_for_read()?;
            match store.show(nid, None) {
                // A NID only requested so far gets a new request, not a revision.
                Ok(detail)
                    if matches!(
                        detail.summary.status,
                        urnreg::registry::Standing::Requested | urnreg::registry::Standing::NotRegistered
                    ) =>
                {
                    None
                }
                Ok(detail) => Some(super::ns::as_registration(&detail)?),
                Err(urnreg::registry::Error::NotFound(_)) => None,
                Err(e) => return Err(e.into()),
            }
        }
        None => None,
    };
    let kind = current.as_ref().and_then(|c| c.kind).unwrap_or(kind);
    let nid = current.as_ref().and_then(|c| c.nid.clone()).or(args.nid);
    let text = skeleton(kind, nid.as_deref(), current.as_ref(), "request.toml");
    io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn render_cmd(args: RenderArgs, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Text], "template render")?;
    let as_path = Path::new(&args.target);
    let looks_like_file = args.target.ends_with(".toml") || args.target.contains('/') || as_path.is_file();
    let (file, status) = if looks_like_file {
        if args.version.is_some() {
            return Err(UsageError("--version is for a registered NID, not a file".into()).into());
        }
        let text =
            std::fs::read_to_string(as_path).with_context(|| format!("reading {}", as_path.display()))?;
        let file = RegistrationFile::from_toml(&text).with_context(|| format!("in {}", as_path.display()))?;
        (file, None)
    } else {
        let store = db.open_for_read()?;
        let detail = store.show(&args.target, args.version)?;
        let status = detail.registration.as_ref().map(|v| v.status.as_str());
        (super::ns::as_registration(&detail)?, status)
    };
    let form = args.form.unwrap_or_else(|| Form::text_form_for(&file));
    let text = render(&file, form, status)?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn import(args: ImportArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Toml, Format::Text], "template import")?;
    // Read one byte past the limit, so that a larger input is refused
    // without being read whole.
    let limit = MAX_TEXT_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    if args.file.as_os_str() == "-" {
        io::Read::read_to_end(&mut io::Read::take(io::stdin(), limit), &mut bytes)
            .context("reading stdin")?;
    } else {
        let file =
            std::fs::File::open(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
        io::Read::read_to_end(&mut io::Read::take(file, limit), &mut bytes)
            .with_context(|| format!("reading {}", args.file.display()))?;
    }
    let (file, notes) =
        import_registration_bytes(&bytes).with_context(|| format!("reading {}", args.file.display()))?;
    if file.template_fields().present().next().is_none() {
        anyhow::bail!(
            "{}: no template field found (expected headings such as 'Namespace Identifier:' or 'Namespace ID:')",
            args.file.display()
        );
    }
    let toml = toml::to_string(&file).context("writing the registration")?;
    io::stdout().lock().write_all(toml.as_bytes())?;
    let mut err = io::stderr().lock();
    for note in &notes {
        writeln!(err, "{}: {note}", note.kind.as_str())?;
    }
    Ok(ExitCode::SUCCESS)
}
