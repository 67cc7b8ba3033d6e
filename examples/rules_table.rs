//! Prints the Markdown table of docs/rules.md's "Namespace rules" section:
//! every namespace of the shipped registry, in natural NID order, with how
//! its NSS is checked, what its rules hold equivalent beyond RFC 8141
//! section 3.1, and the source its `[rules]` table cites.
//!
//! ```sh
//! cargo run --example rules_table
//! ```
//!
//! Paste the output between docs/rules.md's `<!-- rules-table:start -->` and
//! `<!-- rules-table:end -->` lines. The test `readme_rules_table_is_current`
//! (`tests/readme.rs`) includes this file and fails when they differ.

use urnreg::Registry;
use urnreg::rules::{EquivalenceStep, RulesFile};
use urnreg::snapshot::html::natural_cmp;

/// What the source column says for a namespace without rules.
const NO_SYNTAX: &str = "no precise syntax published";

/// Short glosses of the built-in normalizers (`urnreg::rules::builtin::NORMALIZERS`),
/// after the prose the registry site shows for them (`urnreg::rules::describe`).
const NORMALIZER_GLOSS: &[(&str, &str)] = &[
    ("gdst", "case-insensitive NSS for linkable data types"),
    ("gs1", "literals gdd, bie, bdt, cl, std case-insensitive"),
    ("thread", "dataset hex case-insensitive"),
    ("gsma-imei", "IMEI case-insensitive, vers=0 ignored"),
    ("ietf", "case-insensitive NSS, but exact after params:"),
    ("isbn", "hyphens ignored, ISBN-10 = ISBN-13"),
    ("issn", "hyphen optional, x = X"),
    ("lei", "case-insensitive, key in upper case"),
    ("newsml", "Update flag ignored"),
    ("pct-decode-pchar", "%HH of a pchar = the pchar"),
    ("pwid", "archive, time, URI scheme and host case-insensitive"),
    ("smpte-ul", "case-insensitive under ul"),
    ("upper-check-x", "check character x = X"),
    ("urn-6", "first character of the name case-insensitive"),
];

fn main() {
    match rules_table() {
        Ok(table) => print!("{table}"),
        Err(e) => {
            eprintln!("rules_table: {e}");
            std::process::exit(1);
        }
    }
}

/// The table, one line per namespace of [`Registry::embedded`], each line
/// ending in `\n`.
///
/// # Errors
///
/// A namespace whose `[rules]` table does not parse, or an equivalence
/// step naming a normalizer without a gloss here.
pub fn rules_table() -> Result<String, String> {
    let mut namespaces: Vec<_> = Registry::embedded().namespaces().collect();
    namespaces.sort_by(|a, b| natural_cmp(a.nid(), b.nid()));
    let mut out = String::from(
        "| NID | kind | NSS check | equivalence beyond RFC 8141 | evidence | source |\n|---|---|---|---|---|---|\n",
    );
    for ns in namespaces {
        let rules: Option<RulesFile> = ns
            .rules_text()
            .map(|text| toml::from_str(text).map_err(|e| format!("rules of '{}': {e}", ns.nid())))
            .transpose()?;
        let kind = match ns.status() {
            urnreg::Status::Registered => ns.kind().as_str().to_string(),
            urnreg::Status::Withdrawn => format!("{} (withdrawn)", ns.kind().as_str()),
        };
        let (check, equivalence, source) = match &rules {
            None => ("—".to_string(), "—".to_string(), NO_SYNTAX.to_string()),
            Some(r) => (nss_check(r), equivalence(r, ns.nid())?, r.source.clone()),
        };
        let proof = evidence(ns.nid(), rules.as_ref())?;
        let cells = [
            ns.nid(),
            kind.as_str(),
            check.as_str(),
            equivalence.as_str(),
            proof.as_str(),
            source.as_str(),
        ]
        .map(cell);
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    Ok(out)
}

/// The real identifiers the rules were tried on (`real` in
/// `tests/data/namespaces/<nid>.toml`): how many, from how many sources,
/// and whether the owner's practice goes beyond the registration.
fn evidence(nid: &str, rules: Option<&RulesFile>) -> Result<String, String> {
    #[derive(serde::Deserialize)]
    struct Vectors {
        #[serde(default)]
        real: Vec<Real>,
    }
    #[derive(serde::Deserialize)]
    struct Real {
        source: String,
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/namespaces")
        .join(format!("{nid}.toml"));
    let real = match std::fs::read_to_string(&path) {
        Ok(text) => {
            toml::from_str::<Vectors>(&text)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .real
        }
        Err(_) => Vec::new(),
    };
    // A repository's files count as one source (`owner/repo:path`).
    let mut sources: Vec<&str> = real
        .iter()
        .map(|r| {
            r.source
                .split_once(':')
                .map_or(r.source.as_str(), |(repo, _)| repo)
        })
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let mut text = match real.len() {
        0 => "—".to_string(),
        n => format!(
            "{n} real, {} source{}",
            sources.len(),
            if sources.len() == 1 { "" } else { "s" }
        ),
    };
    if rules.is_some_and(|r| !r.practice.is_empty()) {
        text.push_str("; owner practice");
    }
    Ok(text)
}

/// `abnf`, `regex`, `built-in isbn`, `abnf + built-in ddi`, or `—`.
fn nss_check(rules: &RulesFile) -> String {
    let Some(syntax) = &rules.syntax else {
        return "—".into();
    };
    let mut parts = Vec::new();
    if syntax.abnf.is_some() {
        parts.push("abnf".to_string());
    }
    if syntax.regex.is_some() {
        parts.push("regex".to_string());
    }
    if let Some(name) = &syntax.builtin {
        parts.push(format!("built-in {name}"));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(" + ")
    }
}

/// The equivalence steps, short, in the order they apply; `—` for none.
fn equivalence(rules: &RulesFile, nid: &str) -> Result<String, String> {
    let mut steps = Vec::new();
    for step in &rules.equivalence {
        steps.push(match step {
            EquivalenceStep::CaseInsensitiveNss => "case-insensitive NSS".to_string(),
            EquivalenceStep::CaseInsensitiveParts { parts: 1 } => "case-insensitive first part".to_string(),
            EquivalenceStep::CaseInsensitiveParts { parts } => {
                format!("case-insensitive first {parts} parts")
            }
            EquivalenceStep::CaseInsensitiveUntil { delimiter } => {
                format!("case-insensitive up to the first '{delimiter}'")
            }
            EquivalenceStep::Remove { chars } => {
                let quoted: Vec<String> = chars.chars().map(|c| format!("'{c}'")).collect();
                format!("{} ignored", quoted.join(", "))
            }
            EquivalenceStep::Builtin { name } => NORMALIZER_GLOSS
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, gloss)| gloss.to_string())
                .ok_or_else(|| format!("rules of '{nid}': no gloss for the built-in normalizer '{name}'"))?,
        });
    }
    Ok(if steps.is_empty() {
        "—".into()
    } else {
        steps.join("; ")
    })
}

/// `text` as one table cell: on one line, with the characters Markdown
/// (GitHub's tables included) would read as markup escaped.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            if matches!(
                c,
                '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '|' | '~' | '&'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}
