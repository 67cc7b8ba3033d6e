//! `urnreg template new|render|import`: writing, rendering and importing
//! registration templates (RFC 8141 Appendix A, RFC 3406).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use urnreg::registry::{Kind, MAX_PROBLEMS_SHOWN, MAX_REGISTRATION_BYTES, Problem};
use urnreg::template::{
    Form, MAX_TEXT_BYTES, Note, NoteKind, import_registration_bytes, render, render_as_written, skeleton,
};

use super::UsageError;
use super::db::{DbArgs, near_nid, suggest_nid};
use super::output::{self, Palette, paint, printable, printable_line};

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
    #[command(flatten)]
    db: DbArgs,
}

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A registered NID, or a registration file (`.toml`; `-` for stdin;
    /// at most 1 MiB).
    target: String,
    /// Which version of a registered NID (default: the one in force).
    #[arg(long, value_name = "N")]
    version: Option<i64>,
    /// The form (default: rfc8141, or rfc3406 for a registration in the
    /// older form).
    #[arg(long, value_enum, value_name = "FORM")]
    form: Option<FormArg>,
    #[command(flatten)]
    db: DbArgs,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The template text, or `-` for stdin.
    file: PathBuf,
}

/// `--form` of `template render`: the library's forms ([`Form::ALL`]),
/// each with its help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormArg {
    /// RFC 8141 Appendix A, plain text, as sent for review.
    Rfc8141,
    /// The older RFC 3406 template (section 4), plain text.
    Rfc3406,
    /// A standalone HTML page.
    Html,
    /// Markdown.
    Markdown,
}

impl FormArg {
    fn form(self) -> Form {
        match self {
            FormArg::Rfc8141 => Form::Rfc8141,
            FormArg::Rfc3406 => Form::Rfc3406,
            FormArg::Html => Form::Html,
            FormArg::Markdown => Form::Markdown,
        }
    }
}

pub fn run(cmd: TemplateCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        TemplateCommand::New(args) => new(args),
        TemplateCommand::Render(args) => render_cmd(args),
        TemplateCommand::Import(args) => import(args),
    }
}

fn new(args: NewArgs) -> anyhow::Result<ExitCode> {
    let kind = if args.informal {
        Kind::Informal
    } else {
        Kind::Formal
    };
    let current = match &args.nid {
        Some(nid) => {
            let store = args.db.open_for_read()?;
            match store.show(nid, None) {
                // A NID only requested so far gets a new request, not a revision.
                Ok(detail)
                    if matches!(
                        detail.summary.status,
                        urnreg::registry::Standing::Requested | urnreg::registry::Standing::NotRegistered
                    ) =>
                {
                    first_request_nid(nid, None)?;
                    None
                }
                Ok(detail) => Some(super::ns::as_registration(&detail)?),
                Err(urnreg::registry::Error::NotFound(_)) => {
                    // A first request; but a NID one edit from a
                    // registered one is more likely a typo for it.
                    let near = near_nid(&store, nid);
                    first_request_nid(nid, near.as_deref())?;
                    if let Some(near) = near {
                        let p = Palette::stderr();
                        writeln!(
                            io::stderr().lock(),
                            "{}: '{}' is not registered: this is a first request (did you mean '{near}'?)",
                            paint(p.warning, "note"),
                            printable(nid)
                        )?;
                    }
                    None
                }
                Err(e) => return Err(e.into()),
            }
        }
        None => None,
    };
    let kind = current.as_ref().and_then(|c| c.kind).unwrap_or(kind);
    let nid = current.as_ref().and_then(|c| c.nid.clone()).or(args.nid);
    let text = skeleton(kind, nid.as_deref(), current.as_ref(), "request.toml");
    let mut out = output::stdout();
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a NID no first request may name, with what lint would say of
/// it later (and a registered NID it may be a typo for, `near`); `urn-N`
/// is the registry's to assign (RFC 8141 section 5.2).
fn first_request_nid(nid: &str, near: Option<&str>) -> anyhow::Result<()> {
    let problems = urnreg::lint::formal_nid_problems(nid);
    if problems.is_empty() {
        return Ok(());
    }
    let mut message = problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let informal = problems.iter().any(|p| p.rule == "nid-urn-prefix");
    if informal {
        message.push_str(
            "; for an informal namespace, `urnreg template new --informal` (the registry assigns its \
             urn-N on approval, RFC 8141 section 5.2)",
        );
    }
    // A urn-N near an informal-looking NID is another registrant's
    // namespace, not what was meant: --informal is the way.
    if let Some(near) = near.filter(|_| !informal) {
        message.push_str(&format!(" (did you mean '{near}'?)"));
    }
    Err(UsageError(format!("--nid: {}", printable_line(&message))).into())
}

fn render_cmd(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let as_path = Path::new(&args.target);
    // `-` is stdin (no NID starts with a hyphen).
    let looks_like_file = args.target == "-"
        || args.target.ends_with(".toml")
        || args.target.contains('/')
        || as_path.is_file();
    let (file, status) = if looks_like_file {
        if args.version.is_some() {
            return Err(UsageError("--version is for a registered NID, not a file".into()).into());
        }
        // As `lint` and `request` read one: at most MAX_REGISTRATION_BYTES.
        let (file, _) = super::lifecycle::read_registration(as_path)?;
        (file, None)
    } else {
        let store = args.db.open_for_read()?;
        let detail = store
            .show(&args.target, args.version)
            .map_err(|e| suggest_nid(e, &store, &args.target))?;
        let status = detail.registration.as_ref().map(|v| v.status.as_str());
        (super::ns::as_registration(&detail)?, status)
    };
    // Asked for a form: that form, whole. Else the form the text was
    // written in, as it was written (a field it lacks stays out).
    let text = match args.form {
        Some(form) => render(&file, form.form(), status)?,
        None => render_as_written(&file, status)?,
    };
    // A registration may hold control characters (ESC, NUL): they are
    // written as escapes in every form, never raw.
    let text = printable(&text);
    let mut out = output::stdout();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the importer's notes as a refusal lists its problems: at most
/// `MAX_PROBLEMS_SHOWN`, each cut to `MAX_PROBLEM_CHARS`, then one line
/// counting the rest (found in hostile testing: 1 MiB of `Purpose:` lines
/// wrote 10 MB of notes, one per line of the text).
fn write_notes(err: &mut impl Write, notes: &[&Note]) -> io::Result<()> {
    for note in notes.iter().take(MAX_PROBLEMS_SHOWN) {
        let shown = Problem {
            field: note.to_string(),
            message: String::new(),
        }
        .shown()
        .field;
        writeln!(err, "{}: {}", note.kind.as_str(), printable(&shown))?;
    }
    if notes.len() > MAX_PROBLEMS_SHOWN {
        writeln!(
            err,
            "note: {} more notes not listed (MAX_PROBLEMS_SHOWN = {MAX_PROBLEMS_SHOWN})",
            notes.len() - MAX_PROBLEMS_SHOWN
        )?;
    }
    Ok(())
}

fn import(args: ImportArgs) -> anyhow::Result<ExitCode> {
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
    let mut err = io::stderr().lock();
    // Why the text was misread comes first: a registration file (TOML)
    // holds no template field either, and saying so would hide what it is.
    if let Some(misread) = notes.iter().find(|n| n.kind == NoteKind::Misread) {
        let others: Vec<&Note> = notes.iter().filter(|n| n.kind != NoteKind::Misread).collect();
        write_notes(&mut err, &others)?;
        anyhow::bail!(
            "{}: template not read: {}",
            args.file.display(),
            printable(&misread.message)
        );
    }
    if file.template_fields().present().next().is_none() {
        // What was read (an HTML page's text, a mail's part) tells why
        // nothing was found in it.
        let read: Vec<&Note> = notes.iter().filter(|n| n.kind == NoteKind::Decoded).collect();
        write_notes(&mut err, &read)?;
        anyhow::bail!(
            "{}: no template field found (expected headings such as 'Namespace Identifier:' or 'Namespace ID:')",
            args.file.display()
        );
    }
    let toml = toml::to_string(&file).context("writing the registration")?;
    // A text may be larger than a registration file may be: the file
    // written would be refused by `lint` and `request`.
    if toml.len() > MAX_REGISTRATION_BYTES {
        write_notes(&mut err, &notes.iter().collect::<Vec<_>>())?;
        anyhow::bail!(
            "{}: the registration made from it would be {} bytes, over the {MAX_REGISTRATION_BYTES} bytes a \
             registration file may hold (MAX_REGISTRATION_BYTES; a text read may hold {MAX_TEXT_BYTES}, \
             MAX_TEXT_BYTES): nothing written; shorten its longest fields",
            args.file.display(),
            toml.len()
        );
    }
    let mut out = output::stdout();
    out.write_all(toml.as_bytes())?;
    out.finish()?;
    write_notes(&mut err, &notes.iter().collect::<Vec<_>>())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;
    use urnreg::template::Form;

    use super::FormArg;

    /// `--form` offers exactly the library's forms, under their names.
    #[test]
    fn form_names_are_the_librarys() {
        assert_eq!(FormArg::value_variants().len(), Form::ALL.len());
        for arg in FormArg::value_variants() {
            let name = arg.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.and_then(|n| Form::from_name(&n)), Some(arg.form()));
        }
    }
}
