//! How one checked URN is written: the JSON object of `check`, and the
//! text form with a caret under the offending byte.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use urnreg::{ParseError, Syntax, Urn, Warning};

/// One finding as it appears in JSON: `{kind, offset, message}`.
#[derive(Serialize)]
pub struct Finding {
    pub kind: &'static str,
    pub offset: usize,
    pub message: String,
}

impl Finding {
    pub fn from_error(err: &ParseError) -> Self {
        Finding {
            kind: err.kind().code(),
            offset: err.offset(),
            message: err.to_string(),
        }
    }

    pub fn from_warning(w: &Warning) -> Self {
        Finding {
            kind: w.kind.code(),
            offset: w.offset,
            message: w.to_string(),
        }
    }
}

/// The outcome of checking one input.
pub struct Checked<'a> {
    /// The input as given (raw bytes: it may not be UTF-8).
    pub raw: &'a [u8],
    pub urn: Option<Urn<'a>>,
    pub errors: Vec<Finding>,
    pub warnings: Vec<Warning>,
}

/// The line is longer than the reader keeps.
pub const TOO_LONG_KIND: &str = "line-too-long";

impl<'a> Checked<'a> {
    /// Parses `raw` and gathers its findings.
    pub fn new(raw: &'a [u8], syntax: Syntax) -> Self {
        match Urn::parse_bytes(raw, syntax) {
            Ok(urn) => {
                let mut warnings = Vec::new();
                urn.for_each_warning(|w| warnings.push(w));
                Checked {
                    raw,
                    urn: Some(urn),
                    errors: Vec::new(),
                    warnings,
                }
            }
            Err(err) => Checked {
                raw,
                urn: None,
                errors: vec![Finding::from_error(&err)],
                warnings: Vec::new(),
            },
        }
    }

    /// A line cut at the reader's limit: invalid whatever it holds.
    pub fn too_long(raw: &'a [u8], limit: usize) -> Self {
        Checked {
            raw,
            urn: None,
            errors: vec![Finding {
                kind: TOO_LONG_KIND,
                offset: limit,
                message: format!("line longer than {limit} bytes at byte {limit}: expected a line break"),
            }],
            warnings: Vec::new(),
        }
    }

    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    pub fn input(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.raw)
    }

    /// The `check` JSON object (one line of `--format jsonl`).
    pub fn to_json(&self) -> CheckJson<'_> {
        let urn = self.urn.as_ref();
        CheckJson {
            input: self.input(),
            valid: self.is_valid(),
            nid: urn.map(|u| u.nid()),
            nss: urn.map(|u| u.nss()),
            r: urn.and_then(|u| u.r_component()),
            q: urn.and_then(|u| u.q_component()),
            f: urn.and_then(|u| u.f_component()),
            key: urn.map(|u| u.equivalence_key()),
            errors: &self.errors,
            warnings: self.warnings.iter().map(Finding::from_warning).collect(),
        }
    }

    /// Writes the text form: a status line, then the findings with carets.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let status = if self.is_valid() { "valid  " } else { "invalid" };
        let shown = Shown::new(self.raw);
        writeln!(out, "{status} {}", shown.text)?;
        for e in &self.errors {
            write_caret(out, &shown, e.offset, "error", &e.message)?;
        }
        for w in &self.warnings {
            write_caret(out, &shown, w.offset, "warning", &w.to_string())?;
        }
        Ok(())
    }
}

/// The JSON shape of one `check` result; the key order is the contract's.
#[derive(Serialize)]
pub struct CheckJson<'c> {
    pub input: Cow<'c, str>,
    pub valid: bool,
    pub nid: Option<&'c str>,
    pub nss: Option<&'c str>,
    pub r: Option<&'c str>,
    pub q: Option<&'c str>,
    pub f: Option<&'c str>,
    pub key: Option<Cow<'c, str>>,
    pub errors: &'c [Finding],
    pub warnings: Vec<Finding>,
}

/// Input made printable: control characters and bytes that are not UTF-8
/// are shown as `\xNN`; `columns[i]` is the screen column of byte `i`.
pub struct Shown {
    pub text: String,
    columns: Vec<usize>,
}

impl Shown {
    pub fn new(raw: &[u8]) -> Self {
        let mut text = String::with_capacity(raw.len());
        let mut columns = Vec::with_capacity(raw.len() + 1);
        let mut col = 0;
        for chunk in raw.utf8_chunks() {
            for c in chunk.valid().chars() {
                for _ in 0..c.len_utf8() {
                    columns.push(col);
                }
                if c.is_control() {
                    let escaped = format!("\\x{:02x}", c as u32);
                    col += escaped.len();
                    text.push_str(&escaped);
                } else {
                    col += 1;
                    text.push(c);
                }
            }
            for b in chunk.invalid() {
                columns.push(col);
                let escaped = format!("\\x{b:02x}");
                col += escaped.len();
                text.push_str(&escaped);
            }
        }
        columns.push(col);
        Shown { text, columns }
    }

    pub fn column(&self, offset: usize) -> usize {
        self.columns
            .get(offset)
            .copied()
            .unwrap_or_else(|| *self.columns.last().unwrap_or(&0))
    }
}

/// Writes `  <input>` and a caret line under byte `offset`.
pub fn write_caret(
    out: &mut impl Write,
    shown: &Shown,
    offset: usize,
    label: &str,
    message: &str,
) -> io::Result<()> {
    writeln!(out, "  {}", shown.text)?;
    writeln!(out, "  {}^ {label}: {message}", " ".repeat(shown.column(offset)))
}
