//! Validates a file of URNs, one a line, with the batch engine on every
//! core, and prints the invalid ones as `LINE: KIND: MESSAGE`, then the
//! counts (the library's side of `urnreg check - < FILE`).
//!
//! ```sh
//! cargo run --release --example validate_file -- urns.txt
//! ```
//!
//! Needs no feature: `urnreg = { ..., default-features = false }` is
//! enough. A `Sink` of your own decides what is kept of each URN; this one
//! keeps the first error of each invalid line, as text.

use std::fs::File;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use urnreg::batch::{Batch, Options, Sink};
use urnreg::{Registry, Report};

/// The lines written for one chunk of input.
struct InvalidLines;

impl Sink for InvalidLines {
    type Out = String;

    fn clear(&self, out: &mut String) {
        out.clear();
    }

    fn record(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut String) {
        if let Some(error) = report.errors().next() {
            use std::fmt::Write as _;
            let _ = writeln!(out, "{}: {}: {error}", line.unwrap_or(0), error.code());
        }
    }

    fn held(&self, out: &String) -> usize {
        out.len()
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: validate_file FILE");
        return ExitCode::from(2);
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    // Warnings are not written: skip looking for them.
    let options = Options {
        warnings: false,
        detailed_summary: true,
        ..Options::default()
    };
    let registry = Arc::new(Registry::embedded().clone());
    let batch = Batch::new(Some(registry), options, InvalidLines).with_jobs(0);
    let mut stdout = std::io::stdout().lock();
    let summary = match batch.stream(file, |chunk, _| stdout.write_all(chunk.as_bytes())) {
        Ok(summary) => summary,
        Err(e) => {
            // `Display` names the step; the cause is the source.
            let cause = std::error::Error::source(&e)
                .map(|c| format!(": {c}"))
                .unwrap_or_default();
            eprintln!("{e}{cause}");
            return ExitCode::from(2);
        }
    };
    eprintln!("{} URNs, {} invalid", summary.total(), summary.invalid());
    for (kind, n) in summary.by_error() {
        eprintln!("  {kind}: {n}");
    }
    if summary.invalid() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
