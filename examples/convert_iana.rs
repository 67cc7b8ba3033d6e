//! Converts the IANA URN namespace registry into `registry/`.
//!
//! ```sh
//! cargo run --example convert_iana -- ../shared/data/iana registry
//! ```
//!
//! Reads `urn-namespaces.xml` and, where present, `templates/<nid>.txt`
//! (with `templates/SOURCES-rfc.tsv` for where RFC-derived texts come from,
//! and `templates/referenced/<nid>.*.txt` for texts a template points to),
//! and writes `_registry.toml` plus one `<nid>.toml` per record.
//!
//! The `[rules]` of files already in OUT_DIR are kept. A third argument,
//! a TOML file of `[<nid>]` tables in the `[rules]` format, adds or
//! replaces rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::{env, fs};

use urnreg::registry::Kind;
use urnreg::registry::data::{REGISTRY_FILE, RecordFile, ReferencedText, RegistrationText};
use urnreg::rules::RulesFile;
use urnreg::snapshot::xml as iana;
use urnreg::template::import_text;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<PathBuf> = env::args_os().skip(1).map(PathBuf::from).collect();
    let (iana_dir, out, new_rules) = match args.as_slice() {
        [iana_dir, out] => (iana_dir, out, BTreeMap::new()),
        [iana_dir, out, rules] => {
            let rules: BTreeMap<String, RulesFile> = toml::from_str(&fs::read_to_string(rules)?)?;
            (iana_dir, out, rules)
        }
        _ => return Err("usage: convert_iana IANA_DIR OUT_DIR [RULES.toml]".into()),
    };
    let xml = fs::read_to_string(iana_dir.join("urn-namespaces.xml"))?;
    let (registry, mut records) = iana::read_registry(&xml)?;
    let templates = iana_dir.join("templates");
    let sources = read_sources(&templates.join("SOURCES-rfc.tsv"))?;
    for record in &mut records {
        let path = templates.join(format!("{}.txt", record.nid));
        if path.exists() {
            let text = fs::read_to_string(&path)?;
            let source = match sources.get(&record.nid) {
                Some(location) => location.clone(),
                None => {
                    let folder = match record.kind {
                        Kind::Formal => "urn-formal",
                        Kind::Informal => "urn-informal",
                    };
                    format!("https://www.iana.org/assignments/{folder}/{}", record.nid)
                }
            };
            record.registration = Some(RegistrationText {
                source,
                fields: import_text(&text).fields,
                text,
            });
        }
        record.referenced = referenced(&templates.join("referenced"), &record.nid)?;
        let file_name = format!("{}.toml", record.nid.to_ascii_lowercase());
        if let Ok(existing) = fs::read_to_string(out.join(&file_name)) {
            let existing: RecordFile = toml::from_str(&existing).map_err(|e| format!("{file_name}: {e}"))?;
            record.rules = existing.rules;
        }
        if let Some(rules) = new_rules.get(&record.nid.to_ascii_lowercase()) {
            rules.compile(&record.nid)?;
            record.rules = Some(rules.clone());
        }
    }
    if let Some(unknown) = new_rules
        .keys()
        .find(|k| !records.iter().any(|r| r.nid.eq_ignore_ascii_case(k)))
    {
        return Err(format!("rules for '{unknown}', which is not in the registry").into());
    }
    fs::create_dir_all(out)?;
    fs::write(out.join(REGISTRY_FILE), toml::to_string(&registry)?)?;
    for record in &records {
        fs::write(
            out.join(format!("{}.toml", record.nid.to_ascii_lowercase())),
            toml::to_string(record)?,
        )?;
    }
    println!("wrote {} records to {}", records.len(), out.display());
    Ok(())
}

/// `SOURCES-rfc.tsv`: nid -> location (e.g. "RFC 4122 Section 3 (...)").
fn read_sources(path: &Path) -> Result<BTreeMap<String, String>, Box<dyn std::error::Error>> {
    let text = fs::read_to_string(path)?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or(format!("no column {name}"))
    };
    let (nid, location) = (col("nid")?, col("location")?);
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[nid].to_string(), cells[location].to_string())
        })
        .collect())
}

/// `referenced/<nid>.<what>.txt` files, sorted by name.
fn referenced(dir: &Path, nid: &str) -> Result<Vec<ReferencedText>, Box<dyn std::error::Error>> {
    let mut found = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if name.starts_with(&format!("{nid}.")) && name.ends_with(".txt") {
                found.push(name);
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|name| {
            let text = fs::read_to_string(dir.join(&name))?;
            let what = name
                .trim_start_matches(&format!("{nid}."))
                .trim_end_matches(".txt");
            Ok(ReferencedText {
                source: what.to_string(),
                text,
            })
        })
        .collect()
}
