//! The `html` snapshot export: a static site that works from `file://`
//! with no server. `index.html` lists every namespace and filters the list
//! by NID as you type (a few lines of inline script; the list itself is
//! plain HTML); `ns/<nid>.html` shows one namespace with its registry
//! facts, its rules and every version of its registration (the text
//! shipped from IANA and every version filed here, with its reviews).
//!
//! Pages are rendered through `templates/site-index.html` and
//! `templates/namespace.html` with auto-escaping, so registrant text is
//! always shown as text. Links taken from registry data are kept only when
//! they are `http:`, `https:` or `mailto:` links. Namespace pages carry a
//! Content-Security-Policy that allows no script at all.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::registry::Snapshot;
use crate::registry::data::{FiledVersion, RecordFile, ReviewEntry, Xref, leading_number};
use crate::template::render::{Shown, environment, shown_fields, template_error};

/// The site's front page.
pub const INDEX_FILE: &str = "index.html";
/// The directory of the namespace pages.
pub const PAGES_DIR: &str = "ns";

/// A link as a page shows it: `href` is absent when the target is not a
/// web or mail address (an RFC is linked to the RFC Editor).
#[derive(Serialize)]
struct Link {
    label: String,
    href: Option<String>,
}

fn link(x: &Xref) -> Link {
    let href = match x.kind.as_str() {
        "rfc" => x
            .data
            .strip_prefix("rfc")
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .map(|n| format!("https://www.rfc-editor.org/rfc/rfc{n}")),
        "rfc-errata" => Some(x.data.clone())
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .map(|n| format!("https://www.rfc-editor.org/errata/eid{n}")),
        "person" => x.person.as_ref().and_then(|p| p.uri.as_deref()).map(|u| {
            // IANA writes the '@' of an e-mail address as '&'.
            match u.strip_prefix("mailto:") {
                Some(addr) => format!("mailto:{}", addr.replacen('&', "@", 1)),
                None => u.to_string(),
            }
        }),
        _ => Some(x.data.clone()),
    };
    Link {
        label: x.label(),
        href: href.filter(|h| is_safe_href(h)),
    }
}

/// Only web and mail links: a `javascript:` or `data:` URI from registry
/// data must never become a link.
fn is_safe_href(href: &str) -> bool {
    let lower = href.trim_start().to_ascii_lowercase();
    ["https://", "http://", "mailto:"]
        .iter()
        .any(|p| lower.starts_with(p))
        && !href.bytes().any(|b| b.is_ascii_control() || b == b' ')
}

/// One row of the index.
#[derive(Serialize)]
struct Row<'a> {
    nid: &'a str,
    key: String,
    href: String,
    kind: &'static str,
    status: &'a str,
    date: Option<&'a str>,
    updated: Option<&'a str>,
    version: Option<i64>,
}

/// One version of a registration on a namespace page.
#[derive(Serialize)]
struct VersionView<'a> {
    anchor: String,
    version: i64,
    status: &'a str,
    in_force: bool,
    date: Option<&'a str>,
    /// Where the shipped text comes from (its IANA address).
    source: Option<&'a str>,
    submitted_at: Option<&'a str>,
    decided_at: Option<&'a str>,
    fields: Vec<Shown<'a>>,
    reviews: &'a [ReviewEntry],
    /// The text as found (the shipped version only).
    text: Option<&'a str>,
}

/// What `templates/namespace.html` is given.
#[derive(Serialize)]
struct Page<'a> {
    registry_title: &'a str,
    /// The link back to the index.
    index: String,
    nid: &'a str,
    kind: &'static str,
    status: &'a str,
    date: Option<&'a str>,
    updated: Option<&'a str>,
    version_in_force: Option<i64>,
    in_force_anchor: Option<String>,
    template: Option<Link>,
    references: Vec<Link>,
    contacts: Vec<Link>,
    /// The rules in force, as TOML.
    rules: Option<String>,
    versions: Vec<VersionView<'a>>,
    /// Referenced texts: (source, text).
    referenced: Vec<(&'a str, &'a str)>,
}

/// What `templates/site-index.html` is given.
#[derive(Serialize)]
struct Index<'a> {
    registry_title: &'a str,
    registry_updated: &'a str,
    rows: Vec<Row<'a>>,
}

/// The `status` of a record as shown: `registered` unless it says.
fn record_status(r: &RecordFile) -> &str {
    r.status.as_deref().unwrap_or("registered")
}

/// The file name of `nid`'s page, relative to the site root. A NID is
/// letters, digits and hyphens (RFC 8141 section 2), so the name cannot
/// leave the directory; anything else is refused.
fn page_name(nid: &str) -> Result<String, String> {
    if nid.is_empty() || !nid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(format!("'{nid}' is not a NID: it cannot name a page"));
    }
    Ok(format!("{PAGES_DIR}/{}.html", nid.to_ascii_lowercase()))
}

/// Every version of `record`, newest first: the shipped registration text
/// (if any) and the versions filed here, the version in force (`in_force`)
/// marked.
fn versions(record: &RecordFile, in_force: Option<i64>) -> Vec<VersionView<'_>> {
    let mut out: Vec<VersionView<'_>> = Vec::new();
    if let Some(reg) = &record.registration {
        let version = leading_number(reg.fields.version.as_deref()).unwrap_or(1);
        out.push(VersionView {
            anchor: String::new(),
            version,
            status: "registered",
            in_force: false,
            date: reg.fields.date.as_deref(),
            source: Some(&reg.source),
            submitted_at: None,
            decided_at: None,
            fields: shown_fields(&reg.fields),
            reviews: &[],
            text: Some(&reg.text),
        });
    }
    for v in &record.filed {
        out.push(filed_view(v));
    }
    // Newest first; for one number, the later filing first.
    out.sort_by(|a, b| {
        b.version
            .cmp(&a.version)
            .then_with(|| b.submitted_at.cmp(&a.submitted_at))
    });
    // The version in force is the newest one registered or approved.
    if let Some(n) = in_force
        && let Some(v) = out
            .iter_mut()
            .find(|v| v.version == n && matches!(v.status, "registered" | "approved"))
    {
        v.in_force = true;
    }
    let mut seen: BTreeMap<i64, usize> = BTreeMap::new();
    for v in &mut out {
        let n = seen.entry(v.version).or_default();
        *n += 1;
        v.anchor = if *n == 1 {
            format!("v{}", v.version)
        } else {
            format!("v{}-{n}", v.version)
        };
    }
    out
}

fn filed_view(v: &FiledVersion) -> VersionView<'_> {
    VersionView {
        anchor: String::new(),
        version: v.version,
        status: &v.status,
        in_force: false,
        date: Some(&v.date),
        // Where a filing came from is a path on the registrant's machine:
        // not for publication.
        source: None,
        submitted_at: Some(&v.submitted_at),
        decided_at: v.decided_at.as_deref(),
        fields: shown_fields(&v.fields),
        reviews: &v.reviews,
        text: None,
    }
}

/// The site's files, by name (`index.html`, `ns/<nid>.html`).
///
/// # Errors
///
/// A NID that cannot name a file, two NIDs that would share a page, or a
/// template error.
pub fn render_site(snapshot: &Snapshot) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let env = environment();
    let render = |name: &str, ctx: minijinja::Value| -> Result<Vec<u8>, String> {
        env.get_template(name)
            .and_then(|t| t.render(ctx))
            .map(String::into_bytes)
            .map_err(|e| template_error(&e))
    };
    let registry = &snapshot.registry;
    let mut files = BTreeMap::new();
    let mut rows = Vec::with_capacity(snapshot.records.len());
    for record in &snapshot.records {
        let name = page_name(&record.nid)?;
        let rules = match &record.rules {
            Some(rules) => Some(toml::to_string(rules).map_err(|e| format!("rules of {}: {e}", record.nid))?),
            None => None,
        };
        let referenced: Vec<(&str, &str)> = record
            .referenced
            .iter()
            .map(|r| (r.source.as_str(), r.text.as_str()))
            .collect();
        let in_force = record.version_in_force();
        let versions = versions(record, in_force);
        let in_force_anchor = versions.iter().find(|v| v.in_force).map(|v| v.anchor.clone());
        let page = Page {
            registry_title: &registry.title,
            index: format!("../{INDEX_FILE}"),
            nid: &record.nid,
            kind: record.kind.as_str(),
            status: record_status(record),
            date: record.date.as_deref(),
            updated: record.updated.as_deref(),
            version_in_force: in_force,
            in_force_anchor,
            template: record.template.as_ref().map(link),
            references: record.references.iter().map(link).collect(),
            contacts: record.contacts.iter().map(link).collect(),
            rules,
            versions,
            referenced,
        };
        let page = render(
            "namespace.html",
            minijinja::Value::from(minijinja::value::Serde(&page)),
        )?;
        if files.insert(name.clone(), page).is_some() {
            return Err(format!("two namespaces would both be written to {name}"));
        }
        rows.push(Row {
            nid: &record.nid,
            key: record.nid.to_ascii_lowercase(),
            href: name,
            kind: record.kind.as_str(),
            status: record_status(record),
            date: record.date.as_deref(),
            updated: record.updated.as_deref(),
            version: in_force,
        });
    }
    let index = Index {
        registry_title: &registry.title,
        registry_updated: &registry.updated,
        rows,
    };
    let index = minijinja::Value::from(minijinja::value::Serde(&index));
    files.insert(INDEX_FILE.to_string(), render("site-index.html", index)?);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_and_mail_links_are_kept() {
        for ok in ["https://example.org/a", "http://x", "mailto:a@b.c", "HTTPS://X"] {
            assert!(is_safe_href(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "//evil",
            "https://a b",
            "vbscript:x",
        ] {
            assert!(!is_safe_href(bad), "{bad}");
        }
    }

    #[test]
    fn page_names_stay_inside_the_site() {
        assert_eq!(page_name("ISBN").unwrap(), "ns/isbn.html");
        assert_eq!(page_name("urn-7").unwrap(), "ns/urn-7.html");
        for bad in ["", "../x", "a/b", "a.b", "a b"] {
            assert!(page_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn person_mail_addresses_get_their_at_back() {
        let x = Xref {
            kind: "person".into(),
            data: "A_B".into(),
            text: None,
            person: Some(crate::registry::data::Person {
                name: "A B".into(),
                uri: Some("mailto:a&example.org".into()),
                updated: None,
            }),
        };
        assert_eq!(link(&x).href.as_deref(), Some("mailto:a@example.org"));
    }
}
