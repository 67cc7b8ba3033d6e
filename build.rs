//! Embeds `registry/*.toml` and `migrations/*.sql` in the binary, so that a
//! fresh install works with no files around it, and compiles the registry's
//! read model (each namespace's NID, kind, status and `[rules]` table) into
//! static data, so that validating needs no parsing at start-up. The DFA of
//! every shipped NSS syntax is built here too, with the crate's own ABNF
//! compiler and matcher (`src/rules/precompiled.rs` reads them).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

// The crate's ABNF compiler and matcher, as they are (no copy to drift);
// at the root, as `super::limits` in them expects.
#[allow(dead_code)]
#[path = "src/rules/abnf.rs"]
mod abnf;
#[allow(dead_code)]
#[path = "src/rules/limits.rs"]
mod limits;
#[allow(dead_code)]
#[path = "src/rules/matcher.rs"]
mod matcher;

fn files(dir: &str, ext: &str) -> Vec<(String, PathBuf)> {
    println!("cargo:rerun-if-changed={dir}");
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join(dir);
    let mut names: Vec<String> = fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(ext))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let path = root.join(&name);
            println!("cargo:rerun-if-changed={}", path.display());
            (name, path)
        })
        .collect()
}

fn embed(dir: &str, ext: &str, out_name: &str) {
    let mut code = String::from("&[\n");
    for (name, path) in files(dir, ext) {
        writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push(']');
    write_out(out_name, &code);
}

/// `registry/<nid>.toml` -> `EmbeddedNamespace { nid, kind, withdrawn, rules }`,
/// the `[rules]` table re-serialized on its own (parsed lazily, on first use
/// of that NID).
fn read_model() {
    let mut code = String::from("&[\n");
    let mut seen = HashSet::new();
    let mut dfas = Dfas::default();
    for (name, path) in files("registry", ".toml") {
        if name.starts_with('_') {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let nid = table
            .get("nid")
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("registry/{name}: no nid"));
        assert!(
            nid.len() >= 2 && nid.len() <= 32 && nid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'),
            "registry/{name}: '{nid}' is not a NID (RFC 8141 section 2)"
        );
        assert!(
            seen.insert(nid.to_ascii_lowercase()),
            "registry/{name}: the NID '{nid}' is given twice"
        );
        let kind = match table.get("kind").and_then(|v| v.as_str()) {
            Some("formal") => "Formal",
            Some("informal") => "Informal",
            other => panic!("registry/{name}: unknown kind {other:?}"),
        };
        let withdrawn = match table.get("status").and_then(|s| s.as_str()) {
            None | Some("registered") => false,
            Some("withdrawn") => true,
            Some(other) => panic!("registry/{name}: unknown status '{other}'"),
        };
        if let Some(r) = table.get("rules") {
            for syntax in syntaxes(r) {
                dfas.add(&name, syntax);
            }
        }
        let rules = table
            .get("rules")
            .map(|r| toml::to_string(r).unwrap_or_else(|e| panic!("{name}: {e}")));
        writeln!(
            code,
            "    EmbeddedNamespace {{ nid: {nid:?}, kind: Kind::{kind}, withdrawn: {withdrawn}, rules: {rules:?} }},"
        )
        .unwrap();
    }
    code.push(']');
    write_out("registry_model.rs", &code);
    dfas.write();
}

/// The NSS syntaxes of a `[rules]` table: its own, each practice form's,
/// each recommendation's and each hint's, as (abnf, start, regex).
fn syntaxes(rules: &toml::Value) -> Vec<(Option<String>, Option<String>, Option<String>)> {
    let field = |t: &toml::Value, k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let of = |t: &toml::Value| (field(t, "abnf"), field(t, "start"), field(t, "regex"));
    let mut out = Vec::new();
    if let Some(s) = rules.get("syntax") {
        out.push(of(s));
    }
    for list in ["practice", "should", "hint"] {
        for t in rules.get(list).and_then(|v| v.as_array()).into_iter().flatten() {
            out.push(of(t));
        }
    }
    out
}

/// The serialized DFAs and their index (see `src/rules/precompiled.rs`).
#[derive(Default)]
struct Dfas {
    blob: Vec<u8>,
    index: String,
    seen: HashSet<(String, String, String)>,
}

impl Dfas {
    fn add(&mut self, file: &str, (abnf, start, regex): (Option<String>, Option<String>, Option<String>)) {
        let (form, text, pattern) = match (abnf, &regex) {
            (Some(grammar), None) => {
                let compiled = abnf::compile(&grammar, start.as_deref())
                    .unwrap_or_else(|e| panic!("registry/{file}: {e}"));
                ("abnf", grammar, compiled.pattern)
            }
            (None, Some(regex)) => ("regex", regex.clone(), regex.clone()),
            _ => return,
        };
        let start = if form == "abnf" {
            start.unwrap_or_default()
        } else {
            String::new()
        };
        if !self.seen.insert((form.to_string(), text.clone(), start.clone())) {
            return;
        }
        let matcher = matcher::Matcher::new(&pattern).unwrap_or_else(|e| panic!("registry/{file}: {e}"));
        let bytes = matcher.to_dfa_bytes();
        // Each DFA starts at a multiple of 8: regex-automata reads u32s.
        self.blob.resize(self.blob.len().next_multiple_of(8), 0);
        writeln!(
            self.index,
            "    ({form:?}, {text:?}, {start:?}, {}, {}),",
            self.blob.len(),
            bytes.len()
        )
        .unwrap();
        self.blob.extend_from_slice(&bytes);
    }

    fn write(self) {
        let out = Path::new(&env::var("OUT_DIR").unwrap()).join("rule_dfas.bin");
        fs::write(out, &self.blob).unwrap();
        write_out("rule_dfas.rs", &format!("&[\n{}]", self.index));
    }
}

fn write_out(name: &str, code: &str) {
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join(name);
    fs::write(out, code).unwrap();
}

/// A fingerprint of the shipped namespace records (`registry/<nid>.toml`,
/// not the `_` files): FNV-1a (64 bits) over each file's name and text.
/// A database records the fingerprint of the registry its shipped
/// namespaces were last brought up to (`urnreg init`, `urnreg update`), so
/// that a command can tell in one comparison that the binary ships newer
/// records. Not a security measure: it only has to change when they do.
fn fingerprint() {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, path) in files("registry", ".toml") {
        if name.starts_with('_') {
            continue;
        }
        let text = fs::read(&path).unwrap();
        for b in name.bytes().chain([0]).chain(text).chain([0]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    write_out("registry_fingerprint.rs", &format!("\"fnv1a64:{hash:016x}\""));
}

fn main() {
    fingerprint();
    embed("registry", ".toml", "registry_files.rs");
    embed("migrations", ".sql", "migration_files.rs");
    read_model();
}
