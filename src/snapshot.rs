//! Snapshot files: writing a [`Snapshot`] as a directory (`toml`: the
//! layout of `registry/`; `json`: one `registry.json`; `xml`: the IANA
//! registry; `csv`; `html`: a static site, see [`crate::site`]) with a
//! `SHA256SUMS` manifest, and reading one back with its checksums verified.
//!
//! Exports are deterministic (sorted, no timestamps of their own) and
//! atomic: everything is written to a temporary directory beside `--out`,
//! which is renamed into place only when complete.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::registry::data::{REGISTRY_FILE, RecordFile, RegistryFile, RequestsFile};
use crate::registry::{SNAPSHOT_SCHEMA, Snapshot};

/// The manifest file name (the format of `sha256sum`).
pub const MANIFEST: &str = "SHA256SUMS";
/// The file of a `json` snapshot.
pub const JSON_FILE: &str = "registry.json";
/// The file of a `toml` snapshot that holds requests for unregistered NIDs.
pub const REQUESTS_FILE: &str = "_requests.toml";
/// The value of the `format` key of a JSON snapshot.
const JSON_FORMAT: &str = "urnreg-snapshot";

/// The formats a snapshot is exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// A directory in the layout of `registry/`.
    Toml,
    /// One JSON file, `registry.json`.
    Json,
    /// The IANA registry format, `urn-namespaces.xml` (registry facts only:
    /// no registration texts, rules or filed versions).
    Xml,
    /// One row per namespace, `urn-namespaces.csv` (export only).
    Csv,
    /// A static site: `index.html` and `ns/<nid>.html` (export only).
    Html,
}

/// The file of a `csv` export.
pub const CSV_FILE: &str = "urn-namespaces.csv";

/// The header of the `csv` export.
pub const CSV_HEADER: &str = "Namespace,Kind,Status,Date,Updated,Version,Template,Reference,Contact";

/// One row per namespace (RFC 4180: comma-separated, CRLF line ends,
/// fields with `"`, `,` or line breaks quoted). References are written as
/// the IANA CSV files write them: `[RFC8141][https://...]`.
fn csv(snapshot: &Snapshot) -> String {
    let field = |v: &str| {
        if v.contains(['"', ',', '\n', '\r']) {
            format!("\"{}\"", v.replace('"', "\"\""))
        } else {
            v.to_string()
        }
    };
    let refs = |xs: &mut dyn Iterator<Item = &crate::registry::data::Xref>| {
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

/// The file of an `xml` snapshot.
pub const XML_FILE: &str = "urn-namespaces.xml";

/// A snapshot as read, and whether it holds only what the IANA XML can
/// hold (then an import keeps the texts, rules and versions it lacks).
#[derive(Debug)]
pub struct Loaded {
    /// The snapshot.
    pub snapshot: Snapshot,
    /// True for an `xml` snapshot.
    pub iana_facts_only: bool,
}

impl Loaded {
    /// For an IANA-facts-only snapshot, takes what it cannot hold
    /// (registration texts, referenced texts, rules, status, filed
    /// versions, requests) from `current`, so that importing it changes
    /// only registry facts.
    pub fn complete_from(&mut self, current: &Snapshot) {
        if !self.iana_facts_only {
            return;
        }
        let held: BTreeMap<String, &RecordFile> = current
            .records
            .iter()
            .map(|r| (r.nid.to_ascii_lowercase(), r))
            .collect();
        for record in &mut self.snapshot.records {
            if let Some(old) = held.get(&record.nid.to_ascii_lowercase()) {
                record.registration = old.registration.clone();
                record.referenced = old.referenced.clone();
                record.rules = old.rules.clone();
                record.status = old.status.clone();
                record.filed = old.filed.clone();
            }
        }
        self.snapshot.records.sort_by_key(|r| r.nid.to_ascii_lowercase());
        self.snapshot.requests = current.requests.clone();
    }
}

/// A snapshot file problem: unreadable, malformed, or failing its checksum.
#[derive(Debug)]
pub struct SnapshotError(pub String);

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SnapshotError {}

type Result<T> = std::result::Result<T, SnapshotError>;

fn err<T>(message: impl Into<String>) -> Result<T> {
    Err(SnapshotError(message.into()))
}

/// The JSON snapshot document (schema version [`SNAPSHOT_SCHEMA`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonDocument {
    format: String,
    schema: u32,
    registry: RegistryFile,
    records: Vec<RecordFile>,
    requests: Vec<crate::registry::data::FiledVersion>,
}

/// The files of a snapshot in `format`, by name, in the order written.
pub fn render_files(snapshot: &Snapshot, format: ExportFormat) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    match format {
        ExportFormat::Toml => {
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
            if !snapshot.requests.is_empty() {
                let requests = RequestsFile {
                    requests: snapshot.requests.clone(),
                };
                files.insert(REQUESTS_FILE.to_string(), toml_text(REQUESTS_FILE, &requests)?);
            }
        }
        ExportFormat::Json => {
            let doc = JsonDocument {
                format: JSON_FORMAT.to_string(),
                schema: SNAPSHOT_SCHEMA,
                registry: snapshot.registry.clone(),
                records: snapshot.records.clone(),
                requests: snapshot.requests.clone(),
            };
            let mut text = serde_json::to_vec_pretty(&doc).map_err(|e| SnapshotError(e.to_string()))?;
            text.push(b'\n');
            files.insert(JSON_FILE.to_string(), text);
        }
        ExportFormat::Xml => {
            let xml = crate::registry::iana::write_registry(&snapshot.registry, &snapshot.records);
            files.insert(XML_FILE.to_string(), xml.into_bytes());
        }
        ExportFormat::Csv => {
            files.insert(CSV_FILE.to_string(), csv(snapshot).into_bytes());
        }
        ExportFormat::Html => {
            files = crate::site::render_site(snapshot).map_err(SnapshotError)?;
        }
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

/// The `SHA256SUMS` text for `files`.
pub fn manifest(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut out = String::new();
    for (name, bytes) in files {
        let _ = writeln!(out, "{}  {name}", hex(&Sha256::digest(bytes)));
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Writes the snapshot into the directory `out`, atomically: a temporary
/// directory beside it is filled and then renamed into place. A non-empty
/// `out` is refused unless `force`. Returns the file names written.
pub fn export(snapshot: &Snapshot, format: ExportFormat, out: &Path, force: bool) -> Result<Vec<String>> {
    let mut files = render_files(snapshot, format)?;
    let sums = manifest(&files);
    files.insert(MANIFEST.to_string(), sums.into_bytes());
    if out.exists() {
        if !out.is_dir() {
            return err(format!("{} exists and is not a directory", out.display()));
        }
        let non_empty = fs::read_dir(out)
            .map_err(|e| SnapshotError(format!("reading {}: {e}", out.display())))?
            .next()
            .is_some();
        if non_empty && !force {
            return err(format!(
                "{} is not empty: pass --force to replace what is in it",
                out.display()
            ));
        }
    }
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = out
        .file_name()
        .ok_or_else(|| SnapshotError(format!("{} does not name a directory", out.display())))?
        .to_string_lossy()
        .into_owned();
    let tmp = parent.join(format!(".{name}.urnreg-tmp-{}", std::process::id()));
    let written = write_dir(&tmp, &files);
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = parent.join(format!(".{name}.urnreg-old-{}", std::process::id()));
    let io = |what: &str, e: std::io::Error| SnapshotError(format!("{what}: {e}"));
    if out.exists() {
        fs::rename(out, &old).map_err(|e| io(&format!("moving {} aside", out.display()), e))?;
    }
    if let Err(e) = fs::rename(&tmp, out) {
        // Put the old directory back; nothing half-written is left.
        if old.exists() {
            let _ = fs::rename(&old, out);
        }
        let _ = fs::remove_dir_all(&tmp);
        return Err(io(&format!("renaming into {}", out.display()), e));
    }
    if old.exists() {
        fs::remove_dir_all(&old).map_err(|e| io(&format!("removing {}", old.display()), e))?;
    }
    Ok(files.into_keys().collect())
}

fn write_dir(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<()> {
    let io = |what: &Path, e: std::io::Error| SnapshotError(format!("writing {}: {e}", what.display()));
    fs::create_dir(dir).map_err(|e| io(dir, e))?;
    for (name, bytes) in files {
        let path = dir.join(name);
        // Names are ours (`ns/<nid>.html` at most one level down), never
        // absolute and never with `..`.
        if let Some(sub) = path.parent().filter(|p| *p != dir) {
            fs::create_dir_all(sub).map_err(|e| io(sub, e))?;
        }
        fs::write(&path, bytes).map_err(|e| io(&path, e))?;
    }
    // Flush the files before the rename makes them visible.
    for name in files.keys() {
        let path = dir.join(name);
        fs::File::open(&path)
            .and_then(|f| f.sync_all())
            .map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// Reads a snapshot: a directory (`toml` or `json` layout) or a
/// `registry.json` file. Checksums in a `SHA256SUMS` beside it are
/// verified first, and every file of the snapshot must be listed there.
pub fn read(path: &Path) -> Result<Loaded> {
    let (dir, only) = if path.is_dir() {
        (path.to_path_buf(), None)
    } else if path.is_file() {
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        (dir, path.file_name().map(|n| n.to_string_lossy().into_owned()))
    } else {
        return err(format!("{}: no such file or directory", path.display()));
    };
    let importable = [REGISTRY_FILE, JSON_FILE, XML_FILE];
    let export_only = match &only {
        Some(name) => name.ends_with(".html") || name.ends_with(".csv"),
        None => {
            [crate::site::INDEX_FILE, CSV_FILE]
                .iter()
                .any(|f| dir.join(f).is_file())
                && !importable.iter().any(|f| dir.join(f).is_file())
        }
    };
    if export_only {
        return err(format!(
            "{} is an html or csv export, which is for reading only: import a toml, json or xml snapshot",
            path.display()
        ));
    }
    let files = read_files(&dir, only.as_deref())?;
    verify(&dir, &files, only.is_none())?;
    let single = only.as_ref().and_then(|o| files.get(o).map(|b| (o.as_str(), b)));
    let xml = files.get(XML_FILE).map(|b| (XML_FILE, b));
    if let Some((name, bytes)) = xml.or(single.filter(|(n, _)| n.ends_with(".xml"))) {
        let text = String::from_utf8(bytes.clone()).map_err(|e| {
            SnapshotError(format!(
                "{name}: not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let (registry, mut records) =
            crate::registry::iana::read_registry(&text).map_err(|e| SnapshotError(format!("{name}: {e}")))?;
        records.sort_by_key(|r| r.nid.to_ascii_lowercase());
        return Ok(Loaded {
            snapshot: Snapshot {
                registry,
                records,
                requests: Vec::new(),
            },
            iana_facts_only: true,
        });
    }
    let snapshot = match files.get(JSON_FILE).or(single.map(|(_, b)| b)) {
        Some(json) => parse_json(json)?,
        None => parse_toml_dir(&files)?,
    };
    Ok(Loaded {
        snapshot,
        iana_facts_only: false,
    })
}

/// The snapshot files in `dir` (`*.toml`, `*.json`), or just `only`.
fn read_files(dir: &Path, only: Option<&str>) -> Result<BTreeMap<String, Vec<u8>>> {
    let io = |what: &Path, e: std::io::Error| SnapshotError(format!("reading {}: {e}", what.display()));
    let mut files = BTreeMap::new();
    if let Some(name) = only {
        let path = dir.join(name);
        files.insert(name.to_string(), fs::read(&path).map_err(|e| io(&path, e))?);
        return Ok(files);
    }
    for entry in fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let entry = entry.map_err(|e| io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".toml") || name.ends_with(".json") || name.ends_with(".xml") {
            let path = entry.path();
            files.insert(name, fs::read(&path).map_err(|e| io(&path, e))?);
        }
    }
    Ok(files)
}

/// Checks `files` against `dir/SHA256SUMS`, if there is one.
fn verify(dir: &Path, files: &BTreeMap<String, Vec<u8>>, whole_dir: bool) -> Result<()> {
    let path = dir.join(MANIFEST);
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(());
    };
    let mut listed = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let Some((sum, name)) = line.split_once("  ") else {
            return err(format!("{MANIFEST} line {}: expected '<sha256>  <file>'", n + 1));
        };
        listed.insert(name.trim_start_matches('*').to_string(), sum.to_ascii_lowercase());
    }
    for (name, bytes) in files {
        match listed.get(name) {
            None => {
                return err(format!(
                    "{name} is not listed in {MANIFEST}: refusing an unverified file"
                ));
            }
            Some(sum) if *sum != hex(&Sha256::digest(bytes)) => {
                return err(format!(
                    "{name} does not match its checksum in {MANIFEST}: the snapshot is corrupt or was changed"
                ));
            }
            Some(_) => {}
        }
    }
    if whole_dir {
        if let Some(name) = listed.keys().find(|name| !files.contains_key(*name)) {
            return err(format!(
                "{name} is listed in {MANIFEST} but missing: the snapshot is incomplete"
            ));
        }
    }
    Ok(())
}

fn parse_json(bytes: &[u8]) -> Result<Snapshot> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| SnapshotError(format!("{JSON_FILE}: {e}")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(JSON_FORMAT) {
        return err(format!(
            "{JSON_FILE}: not a urnreg snapshot (expected \"format\": \"{JSON_FORMAT}\")"
        ));
    }
    match value.get("schema").and_then(serde_json::Value::as_u64) {
        Some(s) if s == u64::from(SNAPSHOT_SCHEMA) => {}
        Some(s) => {
            return err(format!(
                "{JSON_FILE}: schema {s}, but this urnreg reads schema {SNAPSHOT_SCHEMA}"
            ));
        }
        None => return err(format!("{JSON_FILE}: no \"schema\" number")),
    }
    let doc: JsonDocument =
        serde_json::from_value(value).map_err(|e| SnapshotError(format!("{JSON_FILE}: {e}")))?;
    Ok(Snapshot {
        registry: doc.registry,
        records: doc.records,
        requests: doc.requests,
    })
}

fn parse_toml_dir(files: &BTreeMap<String, Vec<u8>>) -> Result<Snapshot> {
    let text = |name: &str, bytes: &[u8]| -> Result<String> {
        String::from_utf8(bytes.to_vec()).map_err(|e| {
            SnapshotError(format!(
                "{name}: not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ))
        })
    };
    let Some(meta) = files.get(REGISTRY_FILE) else {
        return err(format!(
            "no {REGISTRY_FILE} or {JSON_FILE}: not a snapshot directory"
        ));
    };
    let registry: RegistryFile = toml::from_str(&text(REGISTRY_FILE, meta)?)
        .map_err(|e| SnapshotError(format!("{REGISTRY_FILE}: {e}")))?;
    let mut records = Vec::new();
    let mut requests = Vec::new();
    for (name, bytes) in files {
        if name == REGISTRY_FILE {
            continue;
        }
        if name == REQUESTS_FILE {
            let file: RequestsFile =
                toml::from_str(&text(name, bytes)?).map_err(|e| SnapshotError(format!("{name}: {e}")))?;
            requests = file.requests;
            continue;
        }
        if !name.ends_with(".toml") {
            return err(format!("{name}: a toml snapshot holds only .toml files"));
        }
        let record: RecordFile =
            toml::from_str(&text(name, bytes)?).map_err(|e| SnapshotError(format!("{name}: {e}")))?;
        if record_file_name(&record.nid)? != *name {
            return err(format!("{name} holds the record of '{}'", record.nid));
        }
        records.push(record);
    }
    records.sort_by_key(|r| r.nid.to_ascii_lowercase());
    Ok(Snapshot {
        registry,
        records,
        requests,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::data::EMBEDDED;

    #[test]
    fn csv_quotes_fields_per_rfc_4180() {
        let meta = EMBEDDED.iter().find(|(n, _)| *n == REGISTRY_FILE).unwrap().1;
        let registry: RegistryFile = toml::from_str(meta).unwrap();
        let record: RecordFile = toml::from_str(
            "nid = \"abc\"\nkind = \"formal\"\n[[references]]\ntype = \"uri\"\ndata = 'https://x.example/a,\"b\"'\n",
        )
        .unwrap();
        let text = csv(&Snapshot {
            registry,
            records: vec![record],
            requests: Vec::new(),
        });
        assert!(
            text.ends_with("abc,formal,registered,,,,,\"[https://x.example/a,\"\"b\"\"]\",\r\n"),
            "{text}"
        );
    }
}
