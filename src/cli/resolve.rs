//! `urnreg resolve`: where each URN leads, by its namespace's resolution
//! ([`urnreg::Registry::resolve`]).

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use serde_json::json;
use urnreg::batch::MAX_LINE;
use urnreg::resolve::{ResolveError, Resolved};

use super::db::DbArgs;
use super::input::{self, wants_stdin};
use super::output::{self, Palette, paint, printable_line};
use super::report::Shown;
use super::{Format, FormatParser, UsageError};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The resolution service (RFC 2483: I2L, I2Ls, I2C, ...; RFC 2169's
    /// N2L and the others name the same). Default: the URN's `?+s=`
    /// directive, else its namespace's default.
    #[arg(long, short = 's', value_name = "SERVICE")]
    service: Option<String>,

    /// Output format: text (the URLs, one per line; `URN URL` with several
    /// URNs), json (one array), jsonl (one `{urn, key, service, urls}` per
    /// URN; read from `-`, each with its `line`, and one `{line, error}`
    /// for a line too long or not UTF-8).
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json, Format::Jsonl]))]
    format: Format,

    #[command(flatten)]
    db: DbArgs,

    /// URNs to resolve, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

/// What resolving all of them came to: the exit status.
#[derive(Default)]
struct Outcome {
    bad_input: bool,
    unresolved: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let streamed = wants_stdin(&args.urns);
    if !streamed && args.urns.is_empty() {
        return Err(UsageError(
            "no URN given: pass URNs as arguments, or '-' to read them from stdin".into(),
        )
        .into());
    }
    let registry = args.db.registry()?;
    let several = streamed || args.urns.len() > 1;
    let mut out = output::stdout();
    let mut outcome = Outcome::default();
    let first = std::cell::Cell::new(true);
    let mut bad_line = false;
    if args.format == Format::Json {
        out.write_all(b"[")?;
    }
    // A JSON object written as the array's next element or the next line.
    let write_json = |object: &serde_json::Value, out: &mut output::Stdout| -> anyhow::Result<()> {
        let mut line = Vec::new();
        if args.format == Format::Json {
            line.extend_from_slice(if first.replace(false) { b"\n" } else { b",\n" });
        }
        serde_json::to_writer(&mut line, object)?;
        if args.format == Format::Jsonl {
            line.push(b'\n');
        }
        out.write_all(&line)?;
        Ok(())
    };
    // Standard error is written a block at a time, after the results
    // before it (a stream of 20,000 lines with errors made 78,000 write
    // calls, one per message part).
    let errs = RefCell::new(Errors(Vec::new()));
    // `line`: the line of standard input it was read from. An argument
    // is taken as the bytes it is (it need not be UTF-8), so that an error
    // names the byte that was given.
    let mut one = |urn: &[u8], line: Option<u64>, out: &mut output::Stdout| -> anyhow::Result<()> {
        let result = registry.resolve_bytes(urn, args.service.as_deref());
        let shown = named(urn);
        if let Err(e) = &result {
            if e.is_bad_input() {
                outcome.bad_input = true;
            } else {
                outcome.unresolved = true;
            }
            let p = Palette::stderr();
            writeln!(
                errs.borrow_mut().0,
                "{}: {}: {}",
                paint(p.error, "error"),
                shown,
                printable_line(&e.to_string())
            )?;
        }
        if let Ok(Resolved { note: Some(note), .. }) = &result {
            let p = Palette::stderr();
            writeln!(
                errs.borrow_mut().0,
                "{}: {}: {}",
                paint(p.warning, "note"),
                shown,
                printable_line(note)
            )?;
        }
        match args.format {
            Format::Json | Format::Jsonl => {
                // JSON strings are Unicode: bytes that are not UTF-8 are
                // replaced there (the error names them).
                let mut object = to_json(&String::from_utf8_lossy(urn), &result);
                if let Some(line) = line {
                    object["line"] = json!(line);
                }
                write_json(&object, out)?;
            }
            _ => {
                if let Ok(resolved) = &result {
                    for url in &resolved.urls {
                        if several {
                            writeln!(out, "{shown}\t{url}")?;
                        } else {
                            writeln!(out, "{url}")?;
                        }
                    }
                }
            }
        }
        Ok(())
    };
    // A line that could not be read as a URN, in the JSON formats: the
    // stream keeps one object for each line it had.
    let unread_line = |n: u64, kind: &str, message: &str, out: &mut output::Stdout| -> anyhow::Result<()> {
        if matches!(args.format, Format::Json | Format::Jsonl) {
            let object = json!({
                "line": n,
                "urn": null,
                "error": { "kind": kind, "message": message },
                "urls": [],
            });
            write_json(&object, out)?;
        }
        Ok(())
    };
    if streamed {
        let _watch = input::watch_stdout();
        // Read past std's own buffer (as large reads are), so that an
        // empty one here means the input has nothing more yet.
        let mut reader = BufReader::with_capacity(64 * 1024, io::stdin().lock());
        let mut line = Vec::new();
        let mut n = 0u64;
        loop {
            // Caught up with the input (the next read may wait for it):
            // let a slow producer see the results so far.
            if reader.buffer().is_empty() || errs.borrow().0.len() >= ERRORS_HELD {
                out.flush()?;
                errs.borrow_mut().write()?;
            }
            line.clear();
            // A line and its break, or enough of a longer line to say so
            // (the first may start with a byte-order mark).
            let bom = if n == 0 { 3 } else { 0 };
            let read = (&mut reader)
                .take(MAX_LINE as u64 + 2 + bom)
                .read_until(b'\n', &mut line)?;
            if read == 0 {
                break;
            }
            n += 1;
            let ended = line.ends_with(b"\n");
            // A byte-order mark at the very start is no part of the line.
            let text = match n {
                1 => line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&line),
                _ => &line,
            };
            let text = text.strip_suffix(b"\n").unwrap_or(text);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.len() > MAX_LINE {
                // As `check` reports it (`line-too-long`); the rest of the
                // line is skipped, not read as lines, and the stream goes on.
                if !ended {
                    reader.skip_until(b'\n')?;
                }
                bad_line = true;
                let p = Palette::stderr();
                writeln!(
                    errs.borrow_mut().0,
                    "{}: line {n}: longer than {MAX_LINE} bytes (line-too-long): not resolved",
                    paint(p.error, "error")
                )?;
                let message = format!("longer than {MAX_LINE} bytes: not resolved");
                unread_line(n, "line-too-long", &message, &mut out)?;
                continue;
            }
            match std::str::from_utf8(text) {
                Ok("") => {}
                Ok(urn) => one(urn.as_bytes(), Some(n), &mut out)?,
                Err(_) => {
                    bad_line = true;
                    let p = Palette::stderr();
                    writeln!(
                        errs.borrow_mut().0,
                        "{}: line {n}: not UTF-8 (not-utf8)",
                        paint(p.error, "error")
                    )?;
                    unread_line(n, "not-utf8", "not UTF-8: not resolved", &mut out)?;
                }
            }
        }
    } else {
        for urn in &args.urns {
            one(urn.as_encoded_bytes(), None, &mut out)?;
        }
    }
    outcome.bad_input |= bad_line;
    if args.format == Format::Json {
        out.write_all(if first.get() { b"]\n" } else { b"\n]\n" })?;
    }
    out.finish()?;
    errs.borrow_mut().write()?;
    Ok(ExitCode::from(if outcome.bad_input {
        2
    } else if outcome.unresolved {
        1
    } else {
        0
    }))
}

/// How many bytes of messages are held before they are written.
const ERRORS_HELD: usize = 32 * 1024;

/// Messages for standard error, held until the results before them are
/// written; what is still held when the command stops early (a closed
/// pipe, a write error) is written then.
struct Errors(Vec<u8>);

impl Errors {
    fn write(&mut self) -> io::Result<()> {
        if !self.0.is_empty() {
            io::stderr().lock().write_all(&self.0)?;
            self.0.clear();
        }
        Ok(())
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        let _ = self.write();
    }
}

fn to_json(urn: &str, result: &Result<Resolved, ResolveError>) -> serde_json::Value {
    match result {
        Ok(r) => json!({
            "urn": urn,
            "key": r.key,
            "service": r.service,
            "chosen_by": r.chosen_by,
            "urls": r.urls,
            "note": r.note,
        }),
        Err(e) => json!({
            "urn": urn,
            "error": { "kind": e.code(), "message": e.to_string() },
            "urls": [],
        }),
    }
}

/// A URN as a message names it: as `check` shows an input, a long one
/// cut to [`SHOWN_BYTES`] with how many bytes were left out.
fn named(urn: &[u8]) -> String {
    Shown::new(urn).text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::report::SHOWN_BYTES;

    /// A URN of 120 KB is named in at most SHOWN_BYTES of it, cut at a
    /// character; a short one whole.
    #[test]
    fn a_long_urn_is_named_in_a_window() {
        assert_eq!(named(b"urn:isbn:x"), "urn:isbn:x");
        let long = format!("urn:nbn:de:{}", "é".repeat(60_000));
        let shown = named(long.as_bytes());
        assert!(shown.len() < SHOWN_BYTES + 32, "{}", shown.len());
        assert!(shown.ends_with(" bytes left out]"), "{shown}");
    }
}
