//! Rows of the registry's tables as every writer fills them and every
//! reader reads them back: `registrations` (with its `rules`), the shipped
//! namespaces, the audit log.

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::Serialize;

use super::super::Kind;
use super::super::data::{EMBEDDED, RecordFile, Xref};
use super::super::error::{Error, Result};
use super::super::registration::{APPENDIX_A_KEYS, RegistrationFile};
use super::super::status::RequestStatus;
use crate::clock::now;
use crate::rules::RulesFile;
use crate::template::{FIELDS, TemplateFields};

/// The number of an informal NID (`urn-12` -> 12).
pub(crate) fn informal_number(nid: &str) -> Option<i64> {
    let digits = nid
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("urn-"))
        .map(|_| &nid[4..])?;
    digits.parse().ok()
}

/// The shipped records, parsed.
pub(in crate::registry) fn embedded_records() -> Result<Vec<RecordFile>> {
    EMBEDDED
        .iter()
        // `_registry.toml` describes the registry, `_query.toml` its
        // resolution sub-registries: neither is a record.
        .filter(|(name, _)| !name.starts_with('_'))
        .map(|(name, text)| {
            toml::from_str(text).map_err(|e| Error::Data(format!("embedded registry/{name}: {e}")))
        })
        .collect()
}

/// The shipped record as stored in `namespaces.iana`: without its rules,
/// status and filed versions, which live in their own columns and tables.
pub(in crate::registry) fn iana_json(record: &RecordFile) -> Result<String> {
    let mut bare = record.clone();
    bare.rules = None;
    bare.status = None;
    bare.filed.clear();
    serde_json::to_string(&bare).map_err(|e| Error::Data(e.to_string()))
}

/// Rules as stored (the TOML of a `[rules]` table).
pub(in crate::registry) fn rules_text(rules: &RulesFile, whose: &str) -> Result<String> {
    toml::to_string(rules).map_err(|e| Error::Data(format!("rules of {whose}: {e}")))
}

/// Stored rules, parsed.
pub(in crate::registry) fn parse_rules(body: &str, whose: &str) -> Result<RulesFile> {
    toml::from_str(body).map_err(|e| Error::Data(format!("stored rules of {whose}: {e}")))
}

/// Inserts a namespace from its record, with the shipped registration
/// text as its approved version, which holds the record's rules when it is
/// the version in force. `keep_iana`: the database has migration 4's
/// `namespaces.iana` column, which keeps the whole record for snapshots.
pub(crate) fn seed_record(tx: &Transaction<'_>, record: &RecordFile, keep_iana: bool) -> Result<()> {
    tx.execute(
        "INSERT INTO namespaces (nid, kind, status, date, updated, current_version, record)
         VALUES (?1, ?2, 'registered', ?3, ?4, ?5, ?6)",
        params![
            record.nid,
            record.kind,
            record.date,
            record.updated,
            record.version_in_force(),
            record_facts(record)
        ],
    )?;
    if keep_iana {
        tx.execute(
            "UPDATE namespaces SET iana = ?1 WHERE nid = ?2",
            params![iana_json(record)?, record.nid],
        )?;
    }
    write_shipped_text(tx, record, None)
}

/// The IANA record's facts as `namespaces.record` holds them (JSON).
pub(in crate::registry) fn record_facts(record: &RecordFile) -> String {
    serde_json::json!({
        "template": record.template,
        "references": record.references,
        "contacts": record.contacts,
    })
    .to_string()
}

/// Writes the shipped registration text of `record` as an approved
/// version, which holds the record's rules when it is the version in
/// force: a new row, or, given `rewrite`, over the row of id `rewrite`
/// (the one that held the same shipped version). Nothing when the record
/// has no registration text.
pub(in crate::registry) fn write_shipped_text(
    tx: &Transaction<'_>,
    record: &RecordFile,
    rewrite: Option<i64>,
) -> Result<()> {
    let Some(reg) = &record.registration else {
        return Ok(());
    };
    let f = &reg.fields;
    // The date of the registration text if it gives one (its Date, or an
    // RFC 3406 text's Registration Information), else the registry's.
    let date = reg.date().or_else(|| record.date.clone()).unwrap_or_default();
    let decided = record.updated.clone().or_else(|| record.date.clone());
    let version = reg.version();
    // The rules in force belong to the version in force: the shipped text,
    // unless a version approved here (a snapshot's `filed`) followed it.
    let rules = match &record.rules {
        Some(r) if record.version_in_force() == Some(version) => Some(rules_text(r, &record.nid)?),
        _ => None,
    };
    let row = RegistrationRow {
        nid: Some(&record.nid),
        kind: record.kind,
        version,
        status: RequestStatus::Approved,
        date: &date,
        fields: f,
        source: Some(&reg.source),
        source_text: Some(&reg.text),
        submitted_at: decided.as_deref().unwrap_or_default(),
        decided_at: decided.as_deref(),
        rules: rules.as_deref(),
    };
    match rewrite {
        None => insert_row(tx, &row).map(|_| ()),
        Some(id) => rewrite_row(tx, id, &row),
    }
}

/// Rewrites registration `id` with `row` (a shipped text brought up to
/// the embedded registry's; its id, and what refers to it, stay).
fn rewrite_row(tx: &Transaction<'_>, id: i64, row: &RegistrationRow<'_>) -> Result<()> {
    let f = row.fields;
    let text = |key: &str| f.get(key).cloned().flatten().unwrap_or_default();
    let body = APPENDIX_A_KEYS.map(text);
    let legacy = legacy_json(f)?;
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![
        &id,
        &row.kind,
        &row.version,
        &row.status,
        &row.date,
        &legacy,
        &row.source,
        &row.source_text,
        &row.submitted_at,
        &row.decided_at,
    ];
    let first = values.len() + 1;
    values.extend(body.iter().map(|v| v as &dyn rusqlite::ToSql));
    let sets: Vec<String> = APPENDIX_A_KEYS
        .iter()
        .enumerate()
        .map(|(i, k)| format!("{k} = ?{}", i + first))
        .collect();
    tx.execute(
        &format!(
            "UPDATE registrations SET kind = ?2, version = ?3, status = ?4, date = ?5, legacy_fields = ?6,
                 source = ?7, source_text = ?8, submitted_at = ?9, decided_at = ?10, {}
             WHERE id = ?1",
            sets.join(", ")
        ),
        rusqlite::params_from_iter(values),
    )?;
    set_rules(tx, id, row.rules)
}

/// One row of `registrations`, as every writer fills it.
pub(crate) struct RegistrationRow<'a> {
    pub nid: Option<&'a str>,
    pub kind: Kind,
    pub version: i64,
    pub status: RequestStatus,
    pub date: &'a str,
    /// The Appendix A body fields go to their columns, the RFC 3406 ones
    /// to `legacy_fields`; NID, version and date are taken from above.
    pub fields: &'a TemplateFields,
    pub source: Option<&'a str>,
    /// The registration text as received (shipped texts only).
    pub source_text: Option<&'a str>,
    pub submitted_at: &'a str,
    pub decided_at: Option<&'a str>,
    /// Its namespace rules, as TOML.
    pub rules: Option<&'a str>,
}

/// Where a filed version came from, as it may be shown to anyone: the file
/// name without its directories (the filer's local path stays on the
/// filer's machine), or a label such as `stdin`, `api` or `web` as given.
pub(in crate::registry) fn filed_source(source: &str) -> &str {
    let name = source.rsplit(['/', '\\']).next().unwrap_or(source);
    if name.is_empty() { "file" } else { name }
}

/// The RFC 3406 fields of `fields`, as `registrations.legacy_fields` holds
/// them (JSON).
fn legacy_json(fields: &TemplateFields) -> Result<String> {
    let mut legacy = TemplateFields::default();
    for (key, _, _) in FIELDS.iter().filter(|f| !f.2) {
        if let (Some(slot), Some(value)) = (legacy.get_mut(key), fields.get(key)) {
            slot.clone_from(value);
        }
    }
    serde_json::to_string(&legacy).map_err(|e| Error::Data(e.to_string()))
}

/// Inserts a registration (and its rules); returns its id.
pub(crate) fn insert_row(tx: &Transaction<'_>, row: &RegistrationRow<'_>) -> Result<i64> {
    // A filed version (no registration text of its own) keeps no local path.
    let source = match (row.source, row.source_text) {
        (Some(source), None) => Some(filed_source(source)),
        (source, _) => source,
    };
    let f = row.fields;
    let text = |key: &str| f.get(key).cloned().flatten().unwrap_or_default();
    let body = APPENDIX_A_KEYS.map(text);
    let legacy = legacy_json(f)?;
    let mut values: Vec<&dyn rusqlite::ToSql> =
        vec![&row.nid, &row.kind, &row.version, &row.status, &row.date];
    values.extend(body.iter().map(|v| v as &dyn rusqlite::ToSql));
    values.extend([
        &legacy as &dyn rusqlite::ToSql,
        &source,
        &row.source_text,
        &row.submitted_at,
        &row.decided_at,
    ]);
    let marks = vec!["?"; values.len()].join(", ");
    tx.prepare_cached(&format!(
        "INSERT INTO registrations (nid, kind, version, status, date, {}, legacy_fields, source,
             source_text, submitted_at, decided_at)
         VALUES ({marks})",
        appendix_a_columns("")
    ))?
    .execute(rusqlite::params_from_iter(values))?;
    let id = tx.last_insert_rowid();
    // Ids past the limit would make a snapshot that no import takes (the
    // caller's transaction rolls the row back).
    if id > crate::registry::MAX_REQUEST_ID {
        return Err(Error::State(format!(
            "request ids are exhausted: {id} would pass MAX_REQUEST_ID = {}",
            crate::registry::MAX_REQUEST_ID
        )));
    }
    set_rules(tx, id, row.rules)?;
    Ok(id)
}

/// Replaces the text of registration `id`: its date, fields, source and
/// rules (an amendment).
pub(super) fn replace_text(
    tx: &Transaction<'_>,
    id: i64,
    date: &str,
    fields: &TemplateFields,
    source: Option<&str>,
    rules: Option<&str>,
) -> Result<()> {
    let text = |key: &str| fields.get(key).cloned().flatten().unwrap_or_default();
    let body = APPENDIX_A_KEYS.map(text);
    let legacy = legacy_json(fields)?;
    let sets: Vec<String> = APPENDIX_A_KEYS
        .iter()
        .enumerate()
        .map(|(i, k)| format!("{k} = ?{}", i + 5))
        .collect();
    let source = source.map(filed_source);
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&id, &date, &legacy, &source];
    values.extend(body.iter().map(|v| v as &dyn rusqlite::ToSql));
    tx.execute(
        &format!(
            "UPDATE registrations SET date = ?2, legacy_fields = ?3, source = ?4, {} WHERE id = ?1",
            sets.join(", ")
        ),
        rusqlite::params_from_iter(values),
    )?;
    set_rules(tx, id, rules)
}

/// Sets (or clears) the rules of registration `id`.
fn set_rules(tx: &Transaction<'_>, id: i64, rules: Option<&str>) -> Result<()> {
    tx.execute("DELETE FROM rules WHERE registration_id = ?1", [id])?;
    if let Some(body) = rules {
        tx.execute(
            "INSERT INTO rules (registration_id, body) VALUES (?1, ?2)",
            params![id, body],
        )?;
    }
    Ok(())
}

/// The rules filed with registration `id`, as TOML.
pub(super) fn rules_of(conn: &Connection, id: i64) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT body FROM rules WHERE registration_id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?)
}

/// The Appendix A columns of `registrations`, in [`APPENDIX_A_KEYS`]
/// order, each with `prefix` (a table alias such as `r.`).
pub(crate) fn appendix_a_columns(prefix: &str) -> String {
    APPENDIX_A_KEYS.map(|k| format!("{prefix}{k}")).join(", ")
}

/// The template fields of a `registrations` row as [`insert_row`] stored
/// them: the JSON of `legacy_fields` (column `legacy`) with the Appendix A
/// columns (from column `first` on, as [`appendix_a_columns`] lists them;
/// empty text is absent) on top.
pub(crate) fn stored_fields(
    r: &rusqlite::Row<'_>,
    id: i64,
    first: usize,
    legacy: usize,
) -> Result<TemplateFields> {
    let legacy: String = r.get(legacy)?;
    let mut fields: TemplateFields =
        serde_json::from_str(&legacy).map_err(|e| Error::Data(format!("registration {id}: {e}")))?;
    for (i, key) in APPENDIX_A_KEYS.iter().enumerate() {
        let text: String = r.get(first + i)?;
        if let Some(slot) = fields.get_mut(key) {
            *slot = (!text.is_empty()).then_some(text);
        }
    }
    Ok(fields)
}

/// The columns [`read_version`] reads, in its order, for a
/// `registrations r LEFT JOIN rules ru` query.
pub(super) fn version_columns() -> String {
    format!(
        "r.id, r.version, r.status, r.date, r.source, r.submitted_at, r.decided_at, ru.body, r.nid,
         r.legacy_fields, r.kind, {}",
        appendix_a_columns("r.")
    )
}

/// A version of a registration, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Version {
    /// The request id.
    pub id: i64,
    /// The NID (none for an informal request not yet approved).
    pub nid: Option<String>,
    /// Formal or informal.
    pub kind: Kind,
    /// The version number.
    pub version: i64,
    /// Where it stands in review.
    pub status: RequestStatus,
    /// Appendix A "Date".
    pub date: String,
    /// The template fields.
    pub fields: TemplateFields,
    /// Where the text came from, if it came as text.
    pub source: Option<String>,
    /// When it was filed.
    pub submitted_at: String,
    /// When it was decided (or withdrawn).
    pub decided_at: Option<String>,
    /// Its own namespace-specific rules, if it brought any.
    pub rules: Option<RulesFile>,
}

/// A [`Version`] from a row selected with [`version_columns`].
pub(super) fn read_version(r: &rusqlite::Row<'_>) -> Result<Version> {
    let id: i64 = r.get(0)?;
    let version: i64 = r.get(1)?;
    let date: String = r.get(3)?;
    let nid: Option<String> = r.get(8)?;
    let mut fields = stored_fields(r, id, 11, 9)?;
    fields.namespace_identifier.clone_from(&nid);
    fields.version = Some(version.to_string());
    fields.date = (!date.is_empty()).then(|| date.clone());
    let rules: Option<String> = r.get(7)?;
    let rules = rules
        .map(|body| parse_rules(&body, &format!("registration {id}")))
        .transpose()?;
    Ok(Version {
        id,
        nid,
        kind: r.get(10)?,
        version,
        status: r.get(2)?,
        date,
        fields,
        source: r.get(4)?,
        submitted_at: r.get(5)?,
        decided_at: r.get(6)?,
        rules,
    })
}

impl Version {
    /// This version as a registration file (to revise it, or to keep the
    /// text an amendment replaces).
    pub fn to_registration(&self) -> RegistrationFile {
        let date = (!self.date.is_empty()).then(|| self.date.clone());
        let mut file = RegistrationFile::from_fields(
            Some(self.kind),
            self.nid.clone(),
            Some(self.version),
            date,
            &self.fields,
        );
        file.rules = self.rules.as_ref().and_then(|r| toml::Table::try_from(r).ok());
        file
    }
}

/// Adds an entry to the audit log.
pub(crate) fn audit(
    tx: &Transaction<'_>,
    actor: &str,
    action: &str,
    nid: Option<&str>,
    registration_id: Option<i64>,
    detail: &str,
) -> Result<()> {
    tx.execute(
        "INSERT INTO audit_log (at, actor, action, nid, registration_id, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![now(), actor, action, nid, registration_id, detail],
    )?;
    Ok(())
}

/// Short labels of a record's references (from its JSON facts).
pub(super) fn reference_labels(record: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(record).unwrap_or_default();
    let xrefs: Vec<Xref> = value
        .get("references")
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .unwrap_or_default();
    let contacts: Vec<Xref> = value
        .get("contacts")
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .unwrap_or_default();
    xrefs
        .iter()
        .chain(contacts.iter().filter(|_| xrefs.is_empty()))
        .map(Xref::label)
        .collect()
}

#[cfg(test)]
mod filed_source_tests {
    use super::filed_source;

    #[test]
    fn only_the_file_name_is_kept() {
        for (given, kept) in [
            ("/home/ann/drafts/acme.toml", "acme.toml"),
            ("drafts/acme.toml", "acme.toml"),
            ("C:\\Users\\ann\\acme.toml", "acme.toml"),
            ("acme.toml", "acme.toml"),
            ("stdin", "stdin"),
            ("api", "api"),
            ("/tmp/dir/", "file"),
        ] {
            assert_eq!(filed_source(given), kept, "{given}");
        }
    }
}
