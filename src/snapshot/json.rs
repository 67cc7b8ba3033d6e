//! The `json` snapshot: one `registry.json` holding the whole registry,
//! tagged with its format and schema so that a reader can refuse what it
//! does not know.

use serde::{Deserialize, Serialize};

use super::error::{Result, SnapshotError, err, parse_error};
use super::{SNAPSHOT_SCHEMA, Snapshot};
use crate::registry::data::{FiledVersion, RecordFile, RegistryFile};
use crate::resolve::QueryRegistry;

/// The file of a `json` snapshot.
pub const JSON_FILE: &str = "registry.json";

/// The value of the `format` key of a JSON snapshot.
const JSON_FORMAT: &str = "urnreg-snapshot";

/// The JSON snapshot document (schema version [`SNAPSHOT_SCHEMA`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonDocument {
    format: String,
    schema: u32,
    registry: RegistryFile,
    records: Vec<RecordFile>,
    requests: Vec<FiledVersion>,
    /// Schema 2: [`Snapshot::last_informal`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_informal: Option<i64>,
    /// Schema 3: [`Snapshot::query`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    query: Option<QueryRegistry>,
}

/// `registry.json`, pretty-printed, ending in a line break.
///
/// # Errors
///
/// A value JSON cannot hold.
pub fn render(snapshot: &Snapshot) -> Result<Vec<u8>> {
    let doc = JsonDocument {
        format: JSON_FORMAT.to_string(),
        schema: SNAPSHOT_SCHEMA,
        registry: snapshot.registry.clone(),
        records: snapshot.records.clone(),
        requests: snapshot.requests.clone(),
        last_informal: snapshot.last_informal,
        query: snapshot.query.clone(),
    };
    let mut text = serde_json::to_vec_pretty(&doc).map_err(|e| SnapshotError(e.to_string()))?;
    text.push(b'\n');
    Ok(text)
}

/// Reads `registry.json` (called `name` in errors): its format and schema
/// first, then the document.
pub(super) fn parse(name: &str, bytes: &[u8]) -> Result<Snapshot> {
    serde_json::from_slice::<UniqueKeys>(bytes).map_err(|e| parse_error(name, e))?;
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| parse_error(name, e))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(JSON_FORMAT) {
        return err(format!(
            "{name}: not a urnreg snapshot (expected \"format\": \"{JSON_FORMAT}\")"
        ));
    }
    match value.get("schema").and_then(serde_json::Value::as_u64) {
        Some(s) if (1..=u64::from(SNAPSHOT_SCHEMA)).contains(&s) => {}
        Some(s) => {
            return err(format!(
                "{name}: schema {s}, but this urnreg reads schemas 1 to {SNAPSHOT_SCHEMA}"
            ));
        }
        None => return err(format!("{name}: no \"schema\" number")),
    }
    let doc: JsonDocument = serde_json::from_value(value).map_err(|e| parse_error(name, e))?;
    Ok(Snapshot {
        registry: doc.registry,
        records: doc.records,
        requests: doc.requests,
        last_informal: doc.last_informal,
        query: doc.query,
    })
}

/// A JSON value whose objects each name a key at most once: read to refuse
/// a snapshot that repeats one. RFC 8259 section 4: the names within an
/// object SHOULD be unique, and what software makes of a repeated one is
/// unpredictable; read as a map, the last one wins without a word, so a
/// reviewer's tool that keeps the first would see another registry than
/// the one imported. (serde_json's depth limit bounds the nesting.)
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(UniqueKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_i64<E>(self, _: i64) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_u64<E>(self, _: u64) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_f64<E>(self, _: f64) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_str<E>(self, _: &str) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_unit<E>(self) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key \"{}\" appears twice in one object (RFC 8259 section 4: which one counts is unpredictable)",
                    key.escape_default()
                )));
            }
            map.next_value::<UniqueKeys>()?;
            seen.insert(key);
        }
        Ok(self)
    }
}
