//! `urnreg export --format html`: a static site (index with a filter over
//! NIDs, one page per namespace with every version) that works from
//! `file://`. Checked as files, and then in a real headless Chromium: the
//! index loads, the filter narrows it, a namespace page opens, and
//! registrant text with `<script>` in it is shown as text.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use urnreg::registry::data::Xref;
use urnreg::registry::{Decision, Store};

use crate::snapshot_files::{busy_database, registration};
use crate::util::{code, external_tool, stderr, urnreg};

/// Registrant text that would run or inject markup if it were not escaped.
const HOSTILE: &str = "Mallory <script>document.body.setAttribute('data-pwned','1')</script>\n\
                       <img src=x onerror=\"document.title='pwned'\"> & Co.";

/// The busy database of the snapshot tests, plus a namespace whose
/// registrant text is hostile and whose record has a `javascript:` reference.
fn site_database(dir: &Path) -> PathBuf {
    let path = busy_database(dir);
    let mut store = Store::open(&path, "tester").unwrap();
    let mut file = registration("formal.toml");
    file.nid = Some("evil-corp".into());
    file.registrant = Some(HOSTILE.into());
    store.request(&file, None, "mallory").unwrap();
    store
        .review("evil-corp", Decision::Approve, "<b>ok</b>", "expert")
        .unwrap();
    let mut snap = store.snapshot().unwrap();
    let evil = snap.records.iter_mut().find(|r| r.nid == "evil-corp").unwrap();
    evil.references.push(Xref {
        kind: "uri".into(),
        data: "javascript:alert(1)".into(),
        text: Some("click me".into()),
        person: None,
    });
    store.import_snapshot(&snap, true, false, "tester").unwrap();
    path
}

fn export_html(db: &Path, out: &Path) {
    let run = urnreg(
        &[
            "export",
            "--format",
            "html",
            "--out",
            out.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
}

/// Every file under `dir`, by path relative to it.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn html_export_has_an_index_and_a_page_per_namespace_with_every_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = site_database(dir.path());
    let out = dir.path().join("site");
    export_html(&db, &out);
    let files = tree(&out);

    let nids: Vec<String> = Store::open(&db, "t")
        .unwrap()
        .snapshot()
        .unwrap()
        .records
        .iter()
        .map(|r| r.nid.to_ascii_lowercase())
        .collect();
    let mut expected: Vec<String> = nids.iter().map(|n| format!("ns/{n}.html")).collect();
    expected.extend(["SHA256SUMS".to_string(), "index.html".to_string()]);
    expected.sort();
    assert_eq!(files.keys().cloned().collect::<Vec<_>>(), expected);

    // The manifest covers every page, in sha256sum's format.
    let sums = text(&files["SHA256SUMS"]);
    assert_eq!(sums.lines().count(), files.len() - 1);
    assert!(sums.lines().any(|l| l.ends_with("  ns/isbn.html")), "{sums}");

    // The index links every namespace page.
    let index = text(&files["index.html"]);
    for n in &nids {
        assert!(
            index.contains(&format!("data-nid=\"{n}\"")),
            "{n} not in the index"
        );
    }

    // Every version: acme-parts was registered as version 1 and a
    // revision (version 2) waits for review, so version 1 is in force.
    let acme = text(&files["ns/acme-parts.html"]);
    assert!(acme.contains("id=\"v1\"") && acme.contains("id=\"v2\""), "{acme}");
    assert!(acme.contains("<h2>Version 2</h2>"), "{acme}");
    assert!(
        acme.contains("Version 1 <span class=\"in-force\">in force</span>"),
        "{acme}"
    );
    assert!(acme.contains("<dd>submitted</dd>"), "{acme}");
    assert!(acme.contains("Fine."), "the review note is shown");
    // Where a request was filed from (a local path) is not published.
    assert!(!acme.contains("formal.toml"), "{acme}");

    // Registrant text is escaped, and the page carries no script at all.
    let evil = text(&files["ns/evil-corp.html"]);
    assert!(!evil.contains("<script"), "{evil}");
    assert!(!evil.contains("<img"), "{evil}");
    assert!(!evil.contains("<b>ok"), "{evil}");
    assert!(evil.contains("&lt;script&gt;"), "{evil}");
    // A javascript: reference is shown, but never as a link.
    assert!(evil.contains("click me"));
    assert!(!evil.to_ascii_lowercase().contains("href=\"javascript"), "{evil}");

    // Deterministic: a second export is byte-identical.
    let again = dir.path().join("again");
    export_html(&db, &again);
    assert!(tree(&again) == files, "two html exports differ");

    // The site is for reading: importing it is refused and changes nothing.
    let before = Store::open(&db, "t").unwrap().snapshot().unwrap();
    let run = urnreg(
        &["import", out.to_str().unwrap(), "--db", db.to_str().unwrap()],
        b"",
    );
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(stderr(&run).contains("for reading only"), "{}", stderr(&run));
    assert_eq!(Store::open(&db, "t").unwrap().snapshot().unwrap(), before);
}

/// Loads `url` in headless Chromium and returns the DOM after the page's
/// scripts ran.
fn dump_dom(chromium: &Path, profile: &Path, url: &str) -> String {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish loading {url} in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && dom.contains("</html>"),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dom
}

/// The NIDs of the table rows not hidden by the filter.
fn visible_rows(dom: &str) -> Vec<String> {
    dom.split("<tr ")
        .skip(1)
        .filter(|row| !row[..row.find('>').unwrap()].contains("hidden"))
        .filter_map(|row| {
            let start = row.find("data-nid=\"")? + "data-nid=\"".len();
            Some(row[start..start + row[start..].find('"')?].to_string())
        })
        .collect()
}

/// The `href` of the link in the row of `nid`.
fn row_link(dom: &str, nid: &str) -> String {
    let row = dom
        .split("<tr ")
        .find(|r| r.starts_with(&format!("data-nid=\"{nid}\"")))
        .unwrap_or_else(|| panic!("no row for {nid}"));
    let start = row.find("href=\"").unwrap() + "href=\"".len();
    row[start..start + row[start..].find('"').unwrap()].to_string()
}

#[test]
fn html_site_works_from_file_urls_in_headless_chromium() {
    let Some(chromium) = external_tool(
        &["chromium", "chromium-browser"],
        "URNREG_CHROMIUM",
        "html_site_works_from_file_urls_in_headless_chromium",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = site_database(dir.path());
    let site = dir.path().join("site");
    export_html(&db, &site);
    let profile = dir.path().join("profile");
    let base = format!("file://{}", site.canonicalize().unwrap().display());
    let records = Store::open(&db, "t").unwrap().snapshot().unwrap().records.len();

    // The index loads, every namespace listed and none hidden.
    let index = dump_dom(&chromium, &profile, &format!("{base}/index.html"));
    assert_eq!(visible_rows(&index).len(), records, "{index}");
    assert!(index.contains(&format!("{records} of {records} namespaces")));

    // The filter narrows the list as typed (the page types ?q= into the
    // search box and fires its input event).
    let acme = dump_dom(&chromium, &profile, &format!("{base}/index.html?q=ACME"));
    assert_eq!(visible_rows(&acme), ["acme-parts"], "{acme}");
    assert!(acme.contains(&format!("1 of {records} namespaces")), "{acme}");
    // A whole URN filters by its NID.
    let urn = dump_dom(
        &chromium,
        &profile,
        &format!("{base}/index.html?q=urn:isbn:978-3-16"),
    );
    assert_eq!(visible_rows(&urn), ["isbn"], "{urn}");
    let none = dump_dom(&chromium, &profile, &format!("{base}/index.html?q=zzzz"));
    assert!(visible_rows(&none).is_empty());
    assert!(none.contains("<p id=\"none\">No namespace matches."), "{none}");

    // A namespace page opens from its link, with every version.
    let href = row_link(&index, "acme-parts");
    let page = dump_dom(&chromium, &profile, &format!("{base}/{href}"));
    assert!(page.contains("<title>urn:acme-parts ("), "{page}");
    assert!(page.contains("Version 2") && page.contains("Version 1"), "{page}");
    assert!(page.contains("href=\"../index.html\""), "{page}");

    // Registrant text with <script> in it is shown as text: no script or
    // image element exists, nothing ran, and the text reads as typed.
    let evil = dump_dom(
        &chromium,
        &profile,
        &format!("{base}/{}", row_link(&index, "evil-corp")),
    );
    assert!(!evil.contains("<script"), "{evil}");
    assert!(!evil.contains("<img"), "{evil}");
    assert!(!evil.contains("data-pwned=\"1\""), "{evil}");
    assert!(evil.contains("<title>urn:evil-corp ("), "{evil}");
    assert!(
        evil.contains("Mallory &lt;script&gt;document.body.setAttribute('data-pwned','1')&lt;/script&gt;"),
        "{evil}"
    );
}
