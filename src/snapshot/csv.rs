//! The `csv` export: one row per namespace (export only).

use std::borrow::Cow;

use super::Snapshot;
use crate::registry::data::Xref;

/// The file of a `csv` export.
pub const CSV_FILE: &str = "urn-namespaces.csv";

/// The header of the `csv` export.
pub const CSV_HEADER: &str = "Namespace,Kind,Status,Date,Updated,Version,Template,Reference,Contact";

/// A cell that a spreadsheet would take for a formula (one starting with
/// `=`, `+`, `-`, `@`, a tab or a carriage return) with a `'` in front, as
/// OWASP's "CSV Injection" page advises: registry data is text, and an
/// opened export must never run `=HYPERLINK(...)` or worse.
fn neutralize_formula(v: &str) -> Cow<'_, str> {
    if v.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{v}"))
    } else {
        Cow::Borrowed(v)
    }
}

/// One row per namespace (RFC 4180: comma-separated, CRLF line ends,
/// fields with `"`, `,` or line breaks quoted; formulas neutralized, see
/// [`neutralize_formula`]). References are written as the IANA CSV files
/// write them: `[RFC8141][https://...]`.
pub fn render(snapshot: &Snapshot) -> String {
    let field = |v: &str| {
        let v = neutralize_formula(v);
        if v.contains(['"', ',', '\n', '\r']) {
            format!("\"{}\"", v.replace('"', "\"\""))
        } else {
            v.into_owned()
        }
    };
    let refs = |xs: &mut dyn Iterator<Item = &Xref>| {
        xs.map(|x| match x.kind.as_str() {
            "rfc" => format!("[{}]", x.data.to_ascii_uppercase()),
            _ => format!("[{}]", x.data),
        })
        .collect::<String>()
    };
    let mut out = format!("{CSV_HEADER}\r\n");
    for r in &snapshot.records {
        let version = r.version_in_force().map(|v| v.to_string()).unwrap_or_default();
        let row = [
            r.nid.clone(),
            r.kind.as_str().to_string(),
            r.status.clone().unwrap_or_else(|| "registered".into()),
            r.date.clone().unwrap_or_default(),
            r.updated.clone().unwrap_or_default(),
            version,
            refs(&mut r.template.iter()),
            refs(&mut r.references.iter()),
            refs(&mut r.contacts.iter()),
        ];
        let row: Vec<String> = row.iter().map(|v| field(v)).collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::data::{EMBEDDED, REGISTRY_FILE, RecordFile, RegistryFile};

    #[test]
    fn csv_quotes_fields_per_rfc_4180() {
        let meta = EMBEDDED.iter().find(|(n, _)| *n == REGISTRY_FILE).unwrap().1;
        let registry: RegistryFile = toml::from_str(meta).unwrap();
        let record: RecordFile = toml::from_str(
            "nid = \"abc\"\nkind = \"formal\"\n[[references]]\ntype = \"uri\"\ndata = 'https://x.example/a,\"b\"'\n",
        )
        .unwrap();
        let text = render(&Snapshot {
            registry,
            records: vec![record],
            requests: Vec::new(),
            last_informal: None,
            query: None,
        });
        assert!(
            text.ends_with("abc,formal,registered,,,,,\"[https://x.example/a,\"\"b\"\"]\",\r\n"),
            "{text}"
        );
    }

    #[test]
    fn csv_cells_never_start_a_formula_owasp_csv_injection() {
        let meta = EMBEDDED.iter().find(|(n, _)| *n == REGISTRY_FILE).unwrap().1;
        let registry: RegistryFile = toml::from_str(meta).unwrap();
        let mut record = RecordFile::bare("abc", crate::registry::Kind::Formal);
        record.date = Some("=HYPERLINK(\"https://evil.example\",\"x\")".into());
        record.updated = Some("@SUM(1+1)".into());
        record.status = Some("-1+1".into());
        let text = render(&Snapshot {
            registry,
            records: vec![record],
            requests: Vec::new(),
            last_informal: None,
            query: None,
        });
        let row = text.lines().nth(1).unwrap();
        assert_eq!(
            row,
            "abc,formal,'-1+1,\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"x\"\")\",'@SUM(1+1),,,,"
        );
        for cell in ["+1", "\tx", "\rx"] {
            assert!(neutralize_formula(cell).starts_with('\''), "{cell:?}");
        }
        for cell in ["2026-01-01", "[RFC8141]", "abc", ""] {
            assert_eq!(neutralize_formula(cell), cell);
        }
    }
}
