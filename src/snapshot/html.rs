//! The `html` snapshot export: a static site that works from `file://`
//! with no server, laid out as IANA's registry page is.
//!
//! - `index.html`: the registry's title, when it last changed, its notes,
//!   links to the data in other formats, then one table per sub-registry
//!   (formal, then informal) with its registration procedure, experts and
//!   reference, and a row per namespace with IANA's columns (URN
//!   Namespace, Template, Reference) plus when it was registered and
//!   updated. Rows are in natural order (`urn-2` before `urn-10`). A
//!   filter over NIDs narrows the tables as you type (a few lines of
//!   inline script; the tables themselves are plain HTML).
//! - `ns/<nid>.html`: one namespace with its registry facts, every version
//!   of its registration (the text shipped from IANA and every version
//!   filed here, with its reviews) and the rules urnreg applies, in prose.
//! - `data/`: the same registry as `urn-namespaces.xml` (IANA's format),
//!   `urn-namespaces.csv` and `registry.json` (a urnreg snapshot), with a
//!   `SHA256SUMS` of their own, so that `urnreg import site/data/registry.json`
//!   reads the JSON back. They hold what the pages publish: no requests
//!   for unregistered NIDs and no local paths requests were filed from;
//!   the registry's `updated` date is the day of its last change.
//!
//! Pages are rendered through `templates/site-index.html` and
//! `templates/namespace.html` with auto-escaping, so registrant text is
//! always shown as text. Links taken from registry data are kept only when
//! they are `http:`, `https:` or `mailto:` links. Namespace pages carry a
//! Content-Security-Policy that allows no script at all. Every page reads
//! on a phone: tables become one card per namespace below 40rem, and long
//! words (URLs, grammars) wrap instead of widening the page.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;

use super::Snapshot;
use super::csv::{self, CSV_FILE};
use super::json::{self, JSON_FILE};
use super::manifest::{MANIFEST, manifest};
use super::xml::{self, XML_FILE};
use crate::registry::Kind;
use crate::registry::data::{FiledVersion, RecordFile, ReviewEntry, SubregistryFile, Xref};
use crate::resolve::QueryRegistry;
use crate::rules::describe::{Statement, describe};
use crate::template::render::{Shown, environment, shown_fields, template_error};

/// The site's front page.
pub const INDEX_FILE: &str = "index.html";
/// The directory of the namespace pages.
pub const PAGES_DIR: &str = "ns";
/// The directory of the registry in other formats.
pub const DATA_DIR: &str = "data";

/// Compares two NIDs as people count: case-insensitively, with runs of
/// digits compared by their value, so that `urn-2` comes before `urn-10`
/// and `3gpp` before `3gpp2`. Ties (NIDs that differ only in case or in
/// leading zeros) are broken by the plain byte order, so the order is
/// total and deterministic. IANA's registry lists NIDs this way.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        if x[i].is_ascii_digit() && y[j].is_ascii_digit() {
            let run = |s: &[u8], from: usize| {
                let end = from + s[from..].iter().take_while(|c| c.is_ascii_digit()).count();
                let start = from + s[from..end].iter().take_while(|c| **c == b'0').count();
                (start, end)
            };
            let ((xs, xe), (ys, ye)) = (run(x, i), run(y, j));
            // Without leading zeros, a longer run is a larger number; runs
            // of one length compare digit by digit (no overflow).
            let by_value = (xe - xs).cmp(&(ye - ys)).then_with(|| x[xs..xe].cmp(&y[ys..ye]));
            if by_value != Ordering::Equal {
                return by_value;
            }
            (i, j) = (xe, ye);
        } else {
            let by_char = x[i].to_ascii_lowercase().cmp(&y[j].to_ascii_lowercase());
            if by_char != Ordering::Equal {
                return by_char;
            }
            i += 1;
            j += 1;
        }
    }
    (x.len() - i).cmp(&(y.len() - j)).then_with(|| a.cmp(b))
}

/// The day the registry last changed: the latest of the registry's own
/// `updated` date, the date each record was registered or updated, and
/// the day each version filed here was approved (an approval registers a
/// namespace or a new version of one). Requests, refusals and pending
/// revisions change nothing in the registry.
pub fn last_change(snapshot: &Snapshot) -> String {
    let day = |s: &str| s.get(..10).unwrap_or(s).to_string();
    let mut latest = snapshot.registry.updated.clone();
    let dates = snapshot.records.iter().flat_map(|r| {
        r.date
            .iter()
            .chain(&r.updated)
            .map(|d| day(d))
            .chain(
                r.filed
                    .iter()
                    .filter(|v| v.status == "approved")
                    .filter_map(|v| v.decided_at.as_deref())
                    .map(day),
            )
            .collect::<Vec<_>>()
    });
    for d in dates {
        // ISO 8601 dates order as text.
        if d > latest {
            latest = d;
        }
    }
    latest
}

/// A link as a page shows it: `href` is absent when the target is not a
/// web or mail address (an RFC is linked to the RFC Editor).
#[derive(Clone, Serialize)]
struct Link {
    label: String,
    href: Option<String>,
}

impl Link {
    fn text(label: impl Into<String>) -> Link {
        Link {
            label: label.into(),
            href: None,
        }
    }
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

/// A registry text with IANA `<xref>`s written as `[type:data]` (see
/// `snapshot::xml`), as text and links.
fn with_links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        let inner = &rest[open + 1..close];
        let xref = inner.split_once(':').filter(|(kind, data)| {
            !kind.is_empty() && !data.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        });
        let Some((kind, data)) = xref else {
            out.push(Link::text(&rest[..=open]));
            rest = &rest[open + 1..];
            continue;
        };
        if open > 0 {
            out.push(Link::text(&rest[..open]));
        }
        out.push(link(&Xref {
            kind: kind.to_string(),
            data: data.to_string(),
            text: None,
            person: None,
        }));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Link::text(rest));
    }
    out
}

/// One row of a sub-registry's table.
#[derive(Serialize)]
struct Row<'a> {
    nid: &'a str,
    /// The lower-case NID, for the filter.
    key: String,
    href: String,
    /// Shown when not `registered` (a withdrawn namespace).
    status: Option<&'a str>,
    template: Vec<Link>,
    reference: Vec<Link>,
    date: Option<&'a str>,
    updated: Option<&'a str>,
}

/// One sub-registry (formal or informal) of the index.
#[derive(Serialize)]
struct Table<'a> {
    id: &'a str,
    title: &'a str,
    procedure: Vec<Link>,
    expert: &'a str,
    references: Vec<Link>,
    rows: Vec<Row<'a>>,
}

/// A file of `data/`, as the index links it.
#[derive(Serialize)]
struct Format {
    label: &'static str,
    href: String,
    what: &'static str,
}

/// One version of a registration on a namespace page.
#[derive(Serialize)]
struct VersionView<'a> {
    anchor: String,
    version: i64,
    status: &'a str,
    in_force: bool,
    date: Option<Cow<'a, str>>,
    /// Where the shipped text comes from (its IANA address, or an RFC
    /// section), a link when it is a web address.
    source: Option<Link>,
    submitted_at: Option<&'a str>,
    decided_at: Option<&'a str>,
    fields: Vec<Shown<'a>>,
    reviews: &'a [ReviewEntry],
    /// The text as found (the shipped version only).
    text: Option<&'a str>,
    /// A withdrawn or rejected request: listed with its dates and
    /// reviews, its fields not published.
    withheld: bool,
}

/// What `templates/namespace.html` is given.
#[derive(Serialize)]
struct Page<'a> {
    nav: Vec<NavLink>,
    nav_style: &'static str,
    /// Served: the page has a check form for this namespace.
    live: bool,
    /// The rules' examples, valid then invalid, for the check form.
    examples: Vec<String>,
    registry_title: &'a str,
    /// The link back to the index, at this namespace's table.
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
    /// The rules in force, in prose.
    rules: Vec<Statement>,
    /// What the rules check, in a few words, for the facts at the top.
    rules_summary: Option<String>,
    versions: Vec<VersionView<'a>>,
    /// Referenced texts: (source, text).
    referenced: Vec<(&'a str, &'a str)>,
    formats: &'a [Format],
}

/// Whether the site is written out as files or served by `urnreg serve`:
/// the live pages link to the service's own pages and check forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteMode {
    /// `urnreg export --format html`: files, linked relatively.
    Static,
    /// Served by `urnreg serve`.
    Live,
}

/// One link of the navigation bar every page shows.
#[derive(Clone, Debug, Serialize)]
pub struct NavLink {
    /// What it says.
    pub label: &'static str,
    /// Where it leads.
    pub href: String,
}

/// The navigation bar of every page, static and served: the same links in
/// the same place, styled by [`NAV_STYLE`]. `prefix` leads from the page to
/// the site's root (`../` from a namespace page of the static site).
pub fn nav_links(mode: SiteMode, prefix: &str) -> Vec<NavLink> {
    let link = |label, href: &str| NavLink {
        label,
        href: href.to_string(),
    };
    match mode {
        SiteMode::Static => vec![
            link("Namespaces", &format!("{prefix}{INDEX_FILE}")),
            link("XML", &format!("{prefix}data/urn-namespaces.xml")),
            link("CSV", &format!("{prefix}data/urn-namespaces.csv")),
            link("JSON", &format!("{prefix}data/registry.json")),
        ],
        SiteMode::Live => vec![
            link("Namespaces", "/"),
            link("Check URNs", "/check"),
            link("File a request", "/file"),
            link("JSON", "/api/namespaces"),
        ],
    }
}

/// The style of the navigation bar, the same on every page.
pub const NAV_STYLE: &str = "nav.site { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem 1.2rem; \
padding: .5rem 0; margin-bottom: 1rem; border-bottom: 1px solid #ddd; font-family: system-ui, sans-serif; } \
nav.site a { text-decoration: none; font-weight: 500; } nav.site a:hover { text-decoration: underline; } \
nav.site form { display: inline; margin: 0; } nav.site button { font: inherit; }";

/// What `templates/site-index.html` is given.
#[derive(Serialize)]
struct Index<'a> {
    nav: Vec<NavLink>,
    nav_style: &'static str,
    registry_title: &'a str,
    /// When the registry last changed ([`last_change`]).
    registry_updated: &'a str,
    /// The date of the IANA copy, when the registry changed since.
    iana_updated: Option<&'a str>,
    notes: &'a [String],
    formats: &'a [Format],
    tables: Vec<Table<'a>>,
    total: usize,
    /// The resolution sub-registries (the 2012 URN draft, section 9.2),
    /// with what the namespaces' rules declare.
    keywords: Vec<KeywordRow>,
    services: Vec<ServiceRow>,
}

/// A row of the Query Keywords table.
#[derive(Serialize)]
struct KeywordRow {
    keyword: String,
    purpose: String,
    scope: &'static str,
    reference: Vec<Link>,
    supported_by: Vec<(String, String)>,
}

/// A row of the Resolution Service Designators table.
#[derive(Serialize)]
struct ServiceRow {
    name: String,
    purpose: String,
    status: String,
    reference: Vec<Link>,
    aliases: String,
}

/// The sub-registries as the site shows them: those the snapshot holds
/// (or the shipped ones) with what the records' rules in force declare.
fn query_rows(snapshot: &Snapshot) -> (Vec<KeywordRow>, Vec<ServiceRow>) {
    let base = snapshot
        .query
        .as_ref()
        .unwrap_or_else(|| QueryRegistry::shipped());
    let query = base.with_declared(snapshot.records.iter().filter_map(|r| {
        let resolution = r.rules.as_ref()?.resolution.as_ref()?;
        (record_status(r) == "registered").then_some((r.nid.as_str(), resolution))
    }));
    let keywords = query
        .keywords
        .into_iter()
        .map(|k| KeywordRow {
            scope: k.scope.as_str(),
            reference: with_links(&k.reference),
            supported_by: k
                .supported_by
                .into_iter()
                .map(|s| (s.nid.clone(), page_name(&s.nid).unwrap_or_default()))
                .collect(),
            keyword: k.keyword,
            purpose: k.purpose,
        })
        .collect();
    let services = query
        .services
        .into_iter()
        .map(|s| ServiceRow {
            reference: with_links(&s.reference),
            aliases: s.aliases.join(", "),
            name: s.name,
            purpose: s.purpose,
            status: s.status,
        })
        .collect();
    (keywords, services)
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
        let version = reg.version();
        let source = Link {
            label: reg.source.clone(),
            href: Some(reg.source.clone()).filter(|s| is_safe_href(s)),
        };
        out.push(VersionView {
            anchor: String::new(),
            version,
            status: "registered",
            in_force: false,
            date: reg.date().map(Cow::Owned),
            source: Some(source),
            submitted_at: None,
            decided_at: None,
            fields: shown_fields(&reg.fields),
            reviews: &[],
            text: Some(&reg.text),
            withheld: false,
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
    // A request withdrawn by its registrant or rejected by the expert is
    // no text the registry stands behind, and anyone may file one: the
    // pages do not republish it (found in hostile testing: a megabyte filed and
    // withdrawn again and again grew a namespace's page, and the server's
    // memory holding the site, by as much each time).
    let withheld = matches!(v.status.as_str(), "withdrawn" | "rejected");
    VersionView {
        anchor: String::new(),
        version: v.version,
        status: &v.status,
        in_force: false,
        date: Some(Cow::Borrowed(&v.date)),
        // Where a filing came from is a path on the registrant's machine:
        // not for publication.
        source: None,
        submitted_at: Some(&v.submitted_at),
        decided_at: v.decided_at.as_deref(),
        fields: if withheld {
            Vec::new()
        } else {
            shown_fields(&v.fields)
        },
        reviews: &v.reviews,
        text: None,
        withheld,
    }
}

/// What the rules check, in a few words: `NSS syntax (ABNF), check digit,
/// equivalence`.
fn rules_summary(statements: &[Statement]) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for s in statements {
        let part = match s.topic {
            "NSS syntax (ABNF)" => "NSS syntax (ABNF)",
            "NSS syntax (regular expression)" => "NSS syntax (regular expression)",
            "Check digit" => "check digit",
            "Equivalence" if !s.text.starts_with("RFC 8141 section 3.1 only") => "equivalence",
            "Components" => "components",
            _ => continue,
        };
        parts.push(part);
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The registry as the site's `data/` publishes it: no requests for NIDs
/// that are not registered and no paths requests were filed from (the
/// pages show neither), and the day of the last change as its date.
fn published(snapshot: &Snapshot, updated: &str) -> Snapshot {
    let mut out = snapshot.clone();
    out.requests.clear();
    out.registry.updated = updated.to_string();
    for record in &mut out.records {
        for v in &mut record.filed {
            v.source = None;
        }
    }
    out
}

/// The files of `data/`: the registry in XML (its records in natural
/// order, as IANA lists them), CSV and JSON, and their `SHA256SUMS`.
fn data_files(snapshot: &Snapshot) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut files = BTreeMap::new();
    let mut natural = snapshot.clone();
    natural.records.sort_by(|a, b| natural_cmp(&a.nid, &b.nid));
    files.insert(
        XML_FILE.to_string(),
        xml::render(&natural).map_err(|e| e.to_string())?,
    );
    files.insert(CSV_FILE.to_string(), csv::render(&natural).into_bytes());
    files.insert(
        JSON_FILE.to_string(),
        json::render(snapshot).map_err(|e| e.to_string())?,
    );
    let sums = manifest(&files);
    files.insert(MANIFEST.to_string(), sums.into_bytes());
    Ok(files
        .into_iter()
        .map(|(name, bytes)| (format!("{DATA_DIR}/{name}"), bytes))
        .collect())
}

/// The links to `data/` from a page `depth` directories below the root.
fn formats(depth: usize) -> Vec<Format> {
    let up = "../".repeat(depth);
    vec![
        Format {
            label: "XML",
            href: format!("{up}{DATA_DIR}/{XML_FILE}"),
            what: "IANA's registry format",
        },
        Format {
            label: "CSV",
            href: format!("{up}{DATA_DIR}/{CSV_FILE}"),
            what: "one row per namespace",
        },
        Format {
            label: "JSON",
            href: format!("{up}{DATA_DIR}/{JSON_FILE}"),
            what: "a urnreg snapshot",
        },
    ]
}

/// The id of the index table of `kind`: its sub-registry's id
/// (`urn-namespaces-1`), or `formal`/`informal` if the registry has none.
fn table_id(snapshot: &Snapshot, kind: Kind) -> &str {
    let sub: Option<&SubregistryFile> = snapshot.registry.subregistries.iter().find(|s| s.kind == kind);
    sub.map_or_else(|| fallback_table(kind).0, |s| s.id.as_str())
}

/// The id and title of the table of `kind` when the registry has no
/// sub-registry for it.
fn fallback_table(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Formal => ("formal", "Formal URN Namespaces"),
        Kind::Informal => ("informal", "Informal URN Namespaces"),
    }
}

/// The site's files, by name (`index.html`, `ns/<nid>.html`, `data/...`).
///
/// # Errors
///
/// A NID that cannot name a file, two NIDs that would share a page, a
/// data file that cannot be written, or a template error.
pub fn render_site(snapshot: &Snapshot) -> Result<BTreeMap<String, Vec<u8>>, String> {
    render_site_as(snapshot, SiteMode::Static)
}

/// The site's files as [`render_site`] writes them, for `mode`.
///
/// # Errors
///
/// As [`render_site`].
pub fn render_site_as(snapshot: &Snapshot, mode: SiteMode) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let env = environment();
    let render = |name: &str, ctx: minijinja::Value| -> Result<Vec<u8>, String> {
        env.get_template(name)
            .and_then(|t| t.render(ctx))
            .map(String::into_bytes)
            .map_err(|e| template_error(&e))
    };
    let registry = &snapshot.registry;
    let updated = last_change(snapshot);
    let mut files = data_files(&published(snapshot, &updated))?;
    let page_formats = formats(1);
    let mut records: Vec<&RecordFile> = snapshot.records.iter().collect();
    records.sort_by(|a, b| natural_cmp(&a.nid, &b.nid));
    // Rows by kind, formal first (Kind has no order of its own).
    let mut rows: [(Kind, Vec<Row<'_>>); 2] = [(Kind::Formal, Vec::new()), (Kind::Informal, Vec::new())];
    for record in records {
        let name = page_name(&record.nid)?;
        let rules = record
            .rules
            .as_ref()
            .map(|r| describe(r, &record.nid))
            .unwrap_or_default();
        let referenced: Vec<(&str, &str)> = record
            .referenced
            .iter()
            .map(|r| (r.source.as_str(), r.text.as_str()))
            .collect();
        let in_force = record.version_in_force();
        let versions = versions(record, in_force);
        let in_force_anchor = versions.iter().find(|v| v.in_force).map(|v| v.anchor.clone());
        let table_id = table_id(snapshot, record.kind);
        let examples = record
            .rules
            .as_ref()
            .map(|r| {
                r.examples
                    .valid
                    .iter()
                    .chain(&r.examples.invalid)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let page = Page {
            nav: nav_links(mode, "../"),
            nav_style: NAV_STYLE,
            live: mode == SiteMode::Live,
            examples,
            registry_title: &registry.title,
            index: format!("../{INDEX_FILE}#{table_id}"),
            nid: &record.nid,
            kind: record.kind.as_str(),
            status: record_status(record),
            date: record.date.as_deref(),
            updated: record.updated.as_deref(),
            version_in_force: in_force,
            in_force_anchor: in_force_anchor.clone(),
            template: record.template.as_ref().map(link),
            references: record.references.iter().map(link).collect(),
            contacts: record.contacts.iter().map(link).collect(),
            rules_summary: rules_summary(&rules),
            rules,
            versions,
            referenced,
            formats: &page_formats,
        };
        let page = render(
            "namespace.html",
            minijinja::Value::from(minijinja::value::Serde(&page)),
        )?;
        if files.insert(name.clone(), page).is_some() {
            return Err(format!("two namespaces would both be written to {name}"));
        }
        // IANA's columns: a formal record's template and references; an
        // informal record's reference (its template) and contact. A
        // namespace registered here has its template on its own page.
        let own_template = || {
            in_force_anchor.as_ref().map(|anchor| Link {
                label: format!("{}-template", record.nid),
                href: Some(format!("{name}#{anchor}")),
            })
        };
        let (template, reference) = match record.kind {
            Kind::Formal => (
                record
                    .template
                    .as_ref()
                    .map(link)
                    .or_else(own_template)
                    .into_iter()
                    .collect(),
                record.references.iter().map(link).collect(),
            ),
            Kind::Informal => {
                let mut template: Vec<Link> = record.references.iter().map(link).collect();
                if template.is_empty() {
                    template.extend(own_template());
                }
                (template, record.contacts.iter().map(link).collect())
            }
        };
        let slot = rows.iter_mut().find(|(k, _)| *k == record.kind).map(|(_, r)| r);
        slot.expect("both kinds have a slot").push(Row {
            nid: &record.nid,
            key: record.nid.to_ascii_lowercase(),
            href: name,
            status: record.status.as_deref(),
            template,
            reference,
            date: record.date.as_deref(),
            updated: record.updated.as_deref(),
        });
    }
    let mut tables = Vec::new();
    for sub in &registry.subregistries {
        let taken = rows
            .iter_mut()
            .find(|(k, _)| *k == sub.kind)
            .map(|(_, r)| std::mem::take(r))
            .unwrap_or_default();
        tables.push(Table {
            id: &sub.id,
            title: &sub.title,
            procedure: with_links(&sub.registration_rule),
            expert: &sub.expert,
            references: sub.references.iter().map(link).collect(),
            rows: taken,
        });
    }
    // Records of a kind the registry has no sub-registry for still appear.
    for (kind, rows) in rows.into_iter().filter(|(_, r)| !r.is_empty()) {
        let (id, title) = fallback_table(kind);
        tables.push(Table {
            id,
            title,
            procedure: Vec::new(),
            expert: "",
            references: Vec::new(),
            rows,
        });
    }
    let index_formats = formats(0);
    let (keywords, services) = query_rows(snapshot);
    let index = Index {
        nav: nav_links(mode, ""),
        nav_style: NAV_STYLE,
        registry_title: &registry.title,
        registry_updated: &updated,
        iana_updated: (registry.updated != updated).then_some(registry.updated.as_str()),
        notes: &registry.notes,
        formats: &index_formats,
        total: snapshot.records.len(),
        tables,
        keywords,
        services,
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

    #[test]
    fn natural_order_counts_digit_runs_by_value() {
        let mut nids = vec![
            "urn-10", "urn-2", "URN-1", "3gpp2", "3gpp", "isbn", "urn-02", "iso", "urn-100", "a9", "a10",
        ];
        nids.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            nids,
            [
                "3gpp", "3gpp2", "a9", "a10", "isbn", "iso", "URN-1", "urn-02", "urn-2", "urn-10", "urn-100"
            ]
        );
        assert_eq!(natural_cmp("urn-2", "urn-2"), Ordering::Equal);
        assert_eq!(natural_cmp("Isbn", "isbn"), Ordering::Less);
        // Digit runs longer than any integer type compare without overflow.
        let big = format!("x{}", "9".repeat(40));
        assert_eq!(
            natural_cmp(&big, &format!("x1{}", "0".repeat(40))),
            Ordering::Less
        );
    }

    #[test]
    fn registry_texts_with_xrefs_become_links() {
        let parts = with_links("Expert Review, per Section 6 of [rfc:rfc8141]. [not a link] [x");
        let shown: Vec<(String, Option<String>)> = parts.into_iter().map(|l| (l.label, l.href)).collect();
        assert_eq!(
            shown,
            [
                ("Expert Review, per Section 6 of ".to_string(), None),
                (
                    "RFC 8141".to_string(),
                    Some("https://www.rfc-editor.org/rfc/rfc8141".to_string())
                ),
                (". [".to_string(), None),
                ("not a link] [x".to_string(), None),
            ]
        );
    }
}
