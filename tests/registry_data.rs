//! `registry/` against the IANA registry XML, record by record: nothing
//! dropped, nothing invented. The XML is read here with quick-xml directly,
//! independently of the converter in `src/snapshot/xml.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quick_xml::Reader;
use quick_xml::events::Event;
use urnreg::registry::Store;
use urnreg::registry::data::{RecordFile, Xref};
use urnreg::template::{import_registration, import_text};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What the XML says of one record, flattened to (path, value) facts.
type Facts = BTreeMap<String, String>;

/// Reads every `<record>` of the XML as a set of facts, with people
/// resolved, keyed by NID.
fn xml_records(xml: &str) -> BTreeMap<String, (String, Facts)> {
    let mut reader = Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut registry_id = String::new();
    let mut records = BTreeMap::new();
    let mut current: Option<Facts> = None;
    let mut xref_count: BTreeMap<String, usize> = BTreeMap::new();
    let mut xref_key = String::new();
    let mut people: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut person_id = String::new();
    loop {
        let event = reader.read_event().expect("well-formed XML");
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8(e.local_name().as_ref().to_vec()).unwrap();
                let attrs: BTreeMap<String, String> = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.unescape_value().unwrap().into_owned(),
                        )
                    })
                    .collect();
                if name == "registry" {
                    registry_id = attrs.get("id").cloned().unwrap_or_default();
                }
                if name == "record" {
                    let mut facts = Facts::new();
                    for (k, v) in &attrs {
                        facts.insert(k.clone(), v.clone());
                    }
                    current = Some(facts);
                    xref_count.clear();
                }
                if name == "person" {
                    person_id = attrs["id"].clone();
                }
                if name == "xref"
                    && let Some(facts) = current.as_mut()
                {
                    let parent = path.last().cloned().unwrap_or_default();
                    let group = match parent.as_str() {
                        "record" => "references",
                        "template" => "template",
                        "contact" => "contacts",
                        other => panic!("xref inside {other}"),
                    };
                    let n = xref_count.entry(group.to_string()).or_default();
                    xref_key = format!("{group}[{n}]");
                    *n += 1;
                    for (k, v) in &attrs {
                        facts.insert(format!("{xref_key}.{k}"), v.clone());
                    }
                }
                if matches!(event, Event::Start(_)) {
                    path.push(name);
                } else if name == "xref" {
                    xref_key.clear();
                }
            }
            Event::Text(t) => {
                let text = t.unescape().unwrap().into_owned();
                let top = path.last().map(String::as_str).unwrap_or("");
                if path.iter().any(|p| p == "people") {
                    if !text.trim().is_empty() {
                        people
                            .entry(person_id.clone())
                            .or_default()
                            .insert(top.to_string(), text);
                    }
                } else if let Some(facts) = current.as_mut() {
                    match top {
                        "name" => {
                            facts.insert("name".into(), text);
                        }
                        "xref" => {
                            facts
                                .entry(format!("{xref_key}.text"))
                                .or_default()
                                .push_str(&text);
                        }
                        _ => assert!(text.trim().is_empty(), "unexpected text {text:?} in {top}"),
                    }
                }
            }
            Event::End(e) => {
                let name = String::from_utf8(e.local_name().as_ref().to_vec()).unwrap();
                path.pop();
                if name == "xref" {
                    xref_key.clear();
                }
                if name == "record" {
                    let facts = current.take().unwrap();
                    records.insert(facts["name"].clone(), (registry_id.clone(), facts));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    // Resolve person references.
    for (_, facts) in records.values_mut() {
        let persons: Vec<(String, String)> = facts
            .iter()
            .filter(|(k, v)| k.ends_with(".type") && *v == "person")
            .map(|(k, _)| {
                (
                    k.trim_end_matches(".type").to_string(),
                    facts[&k.replace(".type", ".data")].clone(),
                )
            })
            .collect();
        for (key, id) in persons {
            for (field, value) in people.get(&id).unwrap_or_else(|| panic!("person {id}")) {
                facts.insert(format!("{key}.person.{field}"), value.clone());
            }
        }
    }
    records
}

/// The same facts, from a `registry/*.toml` record.
fn toml_facts(record: &RecordFile) -> Facts {
    let mut facts = Facts::new();
    facts.insert("name".into(), record.nid.clone());
    if let Some(d) = &record.date {
        facts.insert("date".into(), d.clone());
    }
    if let Some(u) = &record.updated {
        facts.insert("updated".into(), u.clone());
    }
    let mut add = |group: &str, xrefs: &[Xref]| {
        for (n, x) in xrefs.iter().enumerate() {
            let key = format!("{group}[{n}]");
            facts.insert(format!("{key}.type"), x.kind.clone());
            facts.insert(format!("{key}.data"), x.data.clone());
            if let Some(t) = &x.text {
                facts.insert(format!("{key}.text"), t.clone());
            }
            if let Some(p) = &x.person {
                facts.insert(format!("{key}.person.name"), p.name.clone());
                if let Some(u) = &p.uri {
                    facts.insert(format!("{key}.person.uri"), u.clone());
                }
                if let Some(u) = &p.updated {
                    facts.insert(format!("{key}.person.updated"), u.clone());
                }
            }
        }
    };
    add("template", record.template.as_slice());
    add("references", &record.references);
    add("contacts", &record.contacts);
    facts
}

fn load_registry_dir(dir: &Path) -> BTreeMap<String, (String, RecordFile)> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".toml") || name.starts_with('_') {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let record: RecordFile = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            name,
            format!("{}.toml", record.nid.to_ascii_lowercase()),
            "file name matches the NID"
        );
        out.insert(record.nid.clone(), (text, record));
    }
    out
}

#[test]
fn registry_dir_matches_the_iana_xml_record_by_record() {
    let xml = std::fs::read_to_string(root().join("tests/data/iana/urn-namespaces.xml")).unwrap();
    let from_xml = xml_records(&xml);
    let from_toml = load_registry_dir(&root().join("registry"));
    assert_eq!(
        from_xml.len(),
        105,
        "97 formal + 8 informal in the 2026-07-28 registry"
    );
    assert_eq!(
        from_xml.keys().collect::<Vec<_>>(),
        from_toml.keys().collect::<Vec<_>>(),
        "the same NIDs"
    );
    for (nid, (registry_id, facts)) in &from_xml {
        let (_, record) = &from_toml[nid];
        let kind = match registry_id.as_str() {
            "urn-namespaces-1" => "formal",
            "urn-namespaces-2" => "informal",
            other => panic!("{other}"),
        };
        assert_eq!(record.kind.as_str(), kind, "{nid}: kind");
        assert_eq!(&toml_facts(record), facts, "{nid}: every fact of the record");
    }
}

#[test]
fn registry_quirks_survive() {
    let records = load_registry_dir(&root().join("registry"));
    let get = |nid: &str| &records[nid].1;
    assert_eq!(
        get("ucode")
            .references
            .iter()
            .filter(|x| x.kind == "rfc-errata")
            .count(),
        2
    );
    assert_eq!(get("uuid").date, None);
    assert_eq!(get("uuid").updated.as_deref(), Some("2023-11-17"));
    assert_eq!(get("urn-7").references.len(), 0);
    assert_eq!(get("urn-7").contacts[0].data, "rfc6050");
    assert_eq!(
        get("said").references[0].person.as_ref().unwrap().name,
        "Wenjing Chu"
    );
    assert_eq!(get("dvb").references.len(), 2);
}

#[test]
fn registry_files_are_in_canonical_form() {
    // Re-serializing a file gives it back byte for byte, so exports can
    // reproduce `registry/` exactly.
    for (nid, (text, record)) in load_registry_dir(&root().join("registry")) {
        assert_eq!(toml::to_string(&record).unwrap(), text, "{nid}");
    }
}

#[test]
fn registration_fields_are_what_the_importer_reads_from_the_text() {
    for (nid, (_, record)) in load_registry_dir(&root().join("registry")) {
        if let Some(reg) = &record.registration {
            assert_eq!(
                reg.fields,
                import_text(&reg.text).fields,
                "{nid}: fields out of date"
            );
            assert!(reg.fields.present().count() >= 3, "{nid}: too few fields found");
        }
    }
}

/// A shipped text's version and date are those `template import` reads
/// from it, wherever its template puts them (RFC 8141 Appendix A's
/// Version and Date, RFC 3406's "Registration Version Number" and
/// "Registration Date" in Registration Information): xmlorg is version 3,
/// and cablelabs and ietf are dated as their texts say.
#[test]
fn shipped_versions_and_dates_are_those_of_their_texts() {
    let store = Store::open_embedded().unwrap();
    let mut dated = 0;
    for (nid, (_, record)) in load_registry_dir(&root().join("registry")) {
        let Some(reg) = &record.registration else {
            continue;
        };
        let (file, _) = import_registration(&reg.text);
        let shown = store.show(&nid, None).unwrap();
        let version = shown
            .registration
            .as_ref()
            .unwrap_or_else(|| panic!("{nid}: no version"));
        assert_eq!(version.version, file.version.unwrap_or(1), "{nid}: version");
        assert_eq!(
            shown.current_version,
            Some(version.version),
            "{nid}: version in force"
        );
        let date = file
            .date
            .map(|d| d.as_text())
            // A Date kept as written (not a day) is no date.
            .filter(|d| {
                d.len() == 10
                    && d.bytes()
                        .enumerate()
                        .all(|(i, b)| (b == b'-') == (i == 4 || i == 7))
            })
            .or_else(|| record.date.clone());
        assert_eq!(
            Some(version.date.clone()).filter(|d| !d.is_empty()),
            date,
            "{nid}: date"
        );
        dated += usize::from(!version.date.is_empty());
    }
    for (nid, version, date) in [
        ("xmlorg", 3, "2001-02-05"),
        ("cablelabs", 1, "2011-04-18"),
        ("ietf", 1, "1999-04-22"),
        ("iso", 1, "2007-12-13"),
    ] {
        let shown = store.show(nid, None).unwrap().registration.unwrap();
        assert_eq!((shown.version, shown.date.as_str()), (version, date), "{nid}");
    }
    assert!(dated >= 69, "only {dated} versions dated");
}

#[test]
fn registration_texts_are_the_iana_texts_verbatim() {
    let dir = root().join("../shared/data/iana/templates");
    if !dir.exists() {
        eprintln!("SKIPPED: {} is not here to compare with", dir.display());
        return;
    }
    let records = load_registry_dir(&root().join("registry"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(nid) = path.file_name().unwrap().to_str().unwrap().strip_suffix(".txt") else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let record = &records.get(nid).unwrap_or_else(|| panic!("{nid}: no record")).1;
        assert_eq!(
            record.registration.as_ref().map(|r| r.text.as_str()),
            Some(text.as_str()),
            "{nid}"
        );
        seen += 1;
    }
    assert_eq!(seen, 72);
}
