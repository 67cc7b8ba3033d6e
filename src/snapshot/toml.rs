//! The `toml` snapshot: a directory in the layout of `registry/`
//! (`_registry.toml`, one `<nid>.toml` per namespace, `_requests.toml`
//! and `_sequence.toml` when there is something to say).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Snapshot;
use super::error::{Result, SnapshotError, err, parse_error};
use super::json::JSON_FILE;
use crate::registry::data::{QUERY_FILE, REGISTRY_FILE, RecordFile, RegistryFile, RequestsFile};
use crate::resolve::QueryRegistry;

/// The file of a `toml` snapshot that holds requests for unregistered NIDs.
pub const REQUESTS_FILE: &str = "_requests.toml";

/// The file of a `toml` snapshot that holds the highest informal number
/// ever assigned, written when it is higher than every `urn-N` the
/// snapshot holds (a namespace was removed since): RFC 8141 section 5.2.
pub const SEQUENCE_FILE: &str = "_sequence.toml";

/// `_sequence.toml`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SequenceFile {
    last_informal: i64,
}

/// The comment `_query.toml` starts with (so that the shipped
/// `registry/_query.toml` exports byte for byte).
const QUERY_HEADER: &str = "\
# The two sub-registries of URN resolution query parameters (the 2012 URN draft,
# draft-ietf-urnbis-rfc2141bis-urn, section 9.2). Query Keywords (9.2.1): the
# keywords of directives `keywd=value` in the r-component; a namespace's rules
# add it to a keyword's \"Supported by\" list, or define their own (scope
# \"specific\"). Resolution Service Designators (9.2.2): the values of `s=`,
# seeded from RFC 2483 section 4, with RFC 2169's names (N2L, ...) as aliases.

";

/// The files of the directory, by name.
///
/// # Errors
///
/// A record that cannot name a file, two records with one file, or a value
/// TOML cannot hold.
pub fn render(snapshot: &Snapshot) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    files.insert(
        REGISTRY_FILE.to_string(),
        toml_text(REGISTRY_FILE, &snapshot.registry)?,
    );
    for record in &snapshot.records {
        let name = record_file_name(&record.nid)?;
        if files.contains_key(&name) {
            return err(format!("two records would both be written to {name}"));
        }
        files.insert(name.clone(), toml_text(&name, record)?);
    }
    if let Some(query) = &snapshot.query {
        let mut text = QUERY_HEADER.as_bytes().to_vec();
        text.extend(toml_text(QUERY_FILE, query)?);
        files.insert(QUERY_FILE.to_string(), text);
    }
    if !snapshot.requests.is_empty() {
        let requests = RequestsFile {
            requests: snapshot.requests.clone(),
        };
        files.insert(REQUESTS_FILE.to_string(), toml_text(REQUESTS_FILE, &requests)?);
    }
    // Only when the records do not say it already, so that the shipped
    // registry exports as `registry/` is, byte for byte.
    let held = snapshot
        .records
        .iter()
        .filter_map(|r| crate::registry::informal_number(&r.nid))
        .max()
        .unwrap_or(0);
    if let Some(last) = snapshot.last_informal.filter(|last| *last > held) {
        let mut text = String::from(
            "# The highest informal number ever assigned (RFC 8141 section 5.2): never handed out again.\n",
        )
        .into_bytes();
        text.extend(toml_text(SEQUENCE_FILE, &SequenceFile { last_informal: last })?);
        files.insert(SEQUENCE_FILE.to_string(), text);
    }
    Ok(files)
}

/// `value` as the bytes of a TOML file called `what`.
fn toml_text<T: Serialize>(what: &str, value: &T) -> Result<Vec<u8>> {
    toml::to_string(value)
        .map(String::into_bytes)
        .map_err(|e| SnapshotError(format!("{what}: {e}")))
}

/// `registry/<nid>.toml`: the NID in lower case. A NID is letters, digits
/// and hyphens (RFC 8141 section 2), so the name cannot leave the directory.
fn record_file_name(nid: &str) -> Result<String> {
    if nid.is_empty() || !nid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return err(format!("'{nid}' is not a NID: it cannot name a file"));
    }
    Ok(format!("{}.toml", nid.to_ascii_lowercase()))
}

/// Reads the directory's files (already verified against the manifest).
pub(super) fn parse(files: &BTreeMap<String, Vec<u8>>) -> Result<Snapshot> {
    fn parse<T: serde::de::DeserializeOwned>(name: &str, bytes: &[u8]) -> Result<T> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| SnapshotError(format!("{name}: not UTF-8 (byte {})", e.valid_up_to())))?;
        toml::from_str(text).map_err(|e| parse_error(name, e))
    }
    let Some(meta) = files.get(REGISTRY_FILE) else {
        return err(format!(
            "no {REGISTRY_FILE} or {JSON_FILE}: not a snapshot directory"
        ));
    };
    let registry: RegistryFile = parse(REGISTRY_FILE, meta)?;
    let mut records = Vec::new();
    let mut requests = Vec::new();
    let mut last_informal = None;
    let mut query = None;
    for (name, bytes) in files {
        match name.as_str() {
            REGISTRY_FILE => {}
            REQUESTS_FILE => requests = parse::<RequestsFile>(name, bytes)?.requests,
            QUERY_FILE => query = Some(parse::<QueryRegistry>(name, bytes)?),
            SEQUENCE_FILE => last_informal = Some(parse::<SequenceFile>(name, bytes)?.last_informal),
            _ if !name.ends_with(".toml") => {
                return err(format!("{name}: a toml snapshot holds only .toml files"));
            }
            _ => {
                let record: RecordFile = parse(name, bytes)?;
                if record_file_name(&record.nid)? != *name {
                    return err(format!("{name} holds the record of '{}'", record.nid));
                }
                records.push(record);
            }
        }
    }
    records.sort_by_key(|r| r.nid.to_ascii_lowercase());
    Ok(Snapshot {
        registry,
        records,
        requests,
        last_informal,
        query,
    })
}
