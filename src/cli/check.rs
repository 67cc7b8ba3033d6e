//! `urnreg check`: validate URNs given as arguments or streamed one per line.

use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use super::input::{self, LineReader, MAX_LINE};
use super::report::Checked;
use super::{Format, SyntaxArgs, UsageError, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Check the generic RFC 8141 syntax only.
    #[arg(long)]
    syntax_only: bool,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// URNs to check, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

/// Writes results in the chosen format; JSON is one array, streamed.
struct Writer<W: Write> {
    out: W,
    format: Format,
    count: u64,
    invalid: u64,
}

impl<W: Write> Writer<W> {
    fn start(&mut self) -> io::Result<()> {
        if self.format == Format::Json {
            self.out.write_all(b"[")?;
        }
        Ok(())
    }

    fn write(&mut self, checked: &Checked<'_>) -> io::Result<()> {
        if !checked.is_valid() {
            self.invalid += 1;
        }
        match self.format {
            Format::Text | Format::Toml => checked.write_text(&mut self.out)?,
            Format::Jsonl => {
                serde_json::to_writer(&mut self.out, &checked.to_json())?;
                self.out.write_all(b"\n")?;
            }
            Format::Json => {
                self.out.write_all(if self.count == 0 { b"\n" } else { b",\n" })?;
                serde_json::to_writer(&mut self.out, &checked.to_json())?;
            }
        }
        self.count += 1;
        Ok(())
    }

    fn finish(mut self) -> io::Result<ExitCode> {
        if self.format == Format::Json {
            self.out.write_all(b"\n]\n")?;
        }
        self.out.flush()?;
        Ok(ExitCode::from(u8::from(self.invalid > 0)))
    }
}

pub fn run(args: Args, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json, Format::Jsonl], "check")?;
    // Until the registry is consulted, --syntax-only and the full check are
    // the same generic RFC 8141 check.
    let _ = args.syntax_only;
    let syntax = args.syntax.syntax();
    let stdout = io::stdout().lock();
    let mut writer = Writer {
        out: BufWriter::with_capacity(64 * 1024, stdout),
        format,
        count: 0,
        invalid: 0,
    };
    writer.start()?;
    if input::wants_stdin(&args.urns) {
        let stdin = io::stdin().lock();
        let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, stdin));
        while let Some(line) = lines.next_line()? {
            let checked = if line.truncated {
                Checked::too_long(line.bytes, MAX_LINE)
            } else {
                Checked::new(line.bytes, syntax)
            };
            writer.write(&checked)?;
            // Keep interactive and piped-in-slowly use responsive.
            if lines.would_block() {
                writer.out.flush()?;
            }
        }
    } else if args.urns.is_empty() {
        return Err(UsageError(
            "no URN given: pass URNs as arguments, or '-' to read them from stdin".into(),
        )
        .into());
    } else {
        for arg in &args.urns {
            let raw = arg.as_encoded_bytes();
            writer.write(&Checked::new(raw, syntax))?;
        }
    }
    Ok(writer.finish()?)
}
