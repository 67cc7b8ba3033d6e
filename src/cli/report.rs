//! How one checked URN is written: the JSON object of `check`, and the
//! text form with a caret under the offending byte.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use urnreg::validate::{Namespace, Validator};
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

impl From<urnreg::validate::Finding> for Finding {
    fn from(f: urnreg::validate::Finding) -> Self {
        Finding {
            kind: f.kind,
            offset: f.offset,
            message: f.message,
        }
    }
}

/// The `namespace` object of a checked URN.
#[derive(Serialize)]
pub struct NamespaceJson<'v> {
    pub nid: &'v str,
    pub kind: &'static str,
    pub status: &'v str,
    /// How the NSS was checked: `abnf`, `regex`, `builtin` or `generic`.
    pub syntax: &'static str,
}

/// The outcome of checking one input.
pub struct Checked<'a, 'v> {
    /// The input as given (raw bytes: it may not be UTF-8).
    pub raw: &'a [u8],
    pub urn: Option<Urn<'a>>,
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
    /// The equivalence key (namespace-refined when a validator was used).
    pub key: Option<Cow<'a, str>>,
    /// `Some` when checked against the registry: the namespace, if any.
    pub namespace: Option<Option<&'v Namespace>>,
}

/// The line is longer than the reader keeps.
pub const TOO_LONG_KIND: &str = "line-too-long";

impl<'a, 'v> Checked<'a, 'v> {
    /// Parses `raw` and gathers its findings; with a validator, also checks
    /// the NID and the namespace's rules.
    pub fn new(raw: &'a [u8], syntax: Syntax, validator: Option<&'v Validator>) -> Self {
        match Urn::parse_bytes(raw, syntax) {
            Ok(urn) => {
                let mut warnings = Vec::new();
                urn.for_each_warning(|w| warnings.push(Finding::from_warning(&w)));
                let mut errors = Vec::new();
                let (key, namespace) = match validator {
                    None => (urn.equivalence_key(), None),
                    Some(v) => {
                        let verdict = v.validate(&urn);
                        errors.extend(verdict.errors.into_iter().map(Finding::from));
                        warnings.extend(verdict.warnings.into_iter().map(Finding::from));
                        (verdict.key, Some(verdict.namespace))
                    }
                };
                Checked {
                    raw,
                    urn: Some(urn),
                    errors,
                    warnings,
                    key: Some(key),
                    namespace,
                }
            }
            Err(err) => Checked {
                raw,
                urn: None,
                errors: vec![Finding::from_error(&err)],
                warnings: Vec::new(),
                key: None,
                namespace: validator.map(|_| None),
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
            key: None,
            namespace: None,
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
            key: self.key.as_deref(),
            errors: &self.errors,
            warnings: &self.warnings,
            namespace: self.namespace.map(|ns| {
                ns.map(|ns| NamespaceJson {
                    nid: &ns.nid,
                    kind: ns.kind.as_str(),
                    status: &ns.status,
                    syntax: ns.syntax_name(),
                })
            }),
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
            write_caret(out, &shown, w.offset, "warning", &w.message)?;
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
    pub key: Option<&'c str>,
    pub errors: &'c [Finding],
    pub warnings: &'c [Finding],
    /// Present only when checked against the registry; `null` for an
    /// unregistered NID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Option<NamespaceJson<'c>>>,
}

/// Writes `s` as a JSON string. The fast path copies strings that need no
/// escaping (the usual URN) in one go; others go through serde_json.
fn write_json_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

fn write_json_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => write_json_str(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn write_findings(out: &mut Vec<u8>, findings: &[Finding]) {
    out.push(b'[');
    for (i, f) in findings.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"kind\":");
        write_json_str(out, f.kind);
        out.extend_from_slice(format!(",\"offset\":{},\"message\":", f.offset).as_bytes());
        write_json_str(out, &f.message);
        out.push(b'}');
    }
    out.push(b']');
}

impl CheckJson<'_> {
    /// Writes the object as one line of JSON (without the newline), the
    /// same as serde_json would, faster.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"input\":");
        write_json_str(out, &self.input);
        out.extend_from_slice(if self.valid {
            b",\"valid\":true,\"nid\":"
        } else {
            b",\"valid\":false,\"nid\":"
        });
        write_json_opt(out, self.nid);
        out.extend_from_slice(b",\"nss\":");
        write_json_opt(out, self.nss);
        out.extend_from_slice(b",\"r\":");
        write_json_opt(out, self.r);
        out.extend_from_slice(b",\"q\":");
        write_json_opt(out, self.q);
        out.extend_from_slice(b",\"f\":");
        write_json_opt(out, self.f);
        out.extend_from_slice(b",\"key\":");
        write_json_opt(out, self.key);
        out.extend_from_slice(b",\"errors\":");
        write_findings(out, self.errors);
        out.extend_from_slice(b",\"warnings\":");
        write_findings(out, self.warnings);
        if let Some(ns) = &self.namespace {
            out.extend_from_slice(b",\"namespace\":");
            match ns {
                None => out.extend_from_slice(b"null"),
                Some(ns) => {
                    out.extend_from_slice(b"{\"nid\":");
                    write_json_str(out, ns.nid);
                    out.extend_from_slice(b",\"kind\":");
                    write_json_str(out, ns.kind);
                    out.extend_from_slice(b",\"status\":");
                    write_json_str(out, ns.status);
                    out.extend_from_slice(b",\"syntax\":");
                    write_json_str(out, ns.syntax);
                    out.push(b'}');
                }
            }
        }
        out.push(b'}');
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_json_is_what_serde_writes() {
        let inputs: [&[u8]; 5] = [
            b"urn:isbn:951-0-18435-7#x",
            b"urn:ex:\"q\\",
            b"bad\x00\x1f\xff",
            b"urn:a:b",
            b"",
        ];
        for raw in inputs {
            // Without and with the `namespace` key.
            for namespace in [None, Some(None)] {
                let checked = Checked::new(raw, Syntax::Rfc8141, None);
                let mut json = checked.to_json();
                json.namespace = namespace;
                let mut ours = Vec::new();
                json.write_to(&mut ours);
                assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    serde_json::to_string(&json).unwrap()
                );
            }
        }
    }
}
