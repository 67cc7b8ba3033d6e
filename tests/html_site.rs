//! `urnreg export --format html`: a static site laid out as IANA's
//! registry page (formal and informal tables, Template and Reference
//! columns, natural order, the other formats in `data/`), one page per
//! namespace with every version and its rules in prose, that works from
//! `file://`. Checked as files (order, dates, links that resolve, the data
//! files), and then in a real headless Chromium: the index loads, the
//! filter narrows it, a namespace page opens, registrant text with
//! `<script>` in it is shown as text, and no element of any page is wider
//! than a phone's (390 px) or a desktop's (1280 px) viewport.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use urnreg::lint::vet_request;
use urnreg::registry::data::Xref;
use urnreg::registry::{Decision, Store};

use crate::snapshot_files::{busy_database, registration};
use crate::util::{code, external_tool, stderr, urnreg};

/// Registrant text that would run or inject markup if it were not escaped.
const HOSTILE: &str = "Mallory <script>document.body.setAttribute('data-pwned','1')</script>\n\
                       <img src=x onerror=\"document.title='pwned'\"> & Co.";

/// The busy database of the snapshot tests (which approves informal
/// `urn-9`), a second informal namespace (`urn-10`, which must sort after
/// `urn-9`), plus a namespace whose registrant text is hostile and whose
/// record has a `javascript:` reference.
fn site_database(dir: &Path) -> PathBuf {
    let path = busy_database(dir);
    let mut store = Store::open(&path, "tester").unwrap();
    // A text of its own: busy_database filed informal.toml already.
    let mut text = registration("informal.toml");
    text.purpose = Some("Names the drafts of the site test's group.".into());
    let informal = store
        .request(&vet_request(&store, &text).unwrap(), None, "dave")
        .unwrap();
    store
        .review(&informal.id.to_string(), Decision::Approve, "Assigned.", "expert")
        .unwrap();
    let mut file = registration("formal.toml");
    file.nid = Some("evil-corp".into());
    file.registrant = Some(HOSTILE.into());
    store
        .request(
            &urnreg::lint::vet_request(&store, &file).unwrap(),
            None,
            "mallory",
        )
        .unwrap();
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
    expected.extend(
        [
            "SHA256SUMS",
            "index.html",
            "data/SHA256SUMS",
            "data/registry.json",
            "data/urn-namespaces.csv",
            "data/urn-namespaces.xml",
        ]
        .map(String::from),
    );
    expected.sort();
    assert_eq!(files.keys().cloned().collect::<Vec<_>>(), expected);
    assert!(nids.contains(&"urn-10".to_string()), "{nids:?}");

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

    site_is_laid_out_as_the_iana_registry(&db, &out, &files);
    every_link_resolves(&out, &files);

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

/// The text of an attribute value as the templates escape it.
fn unescape(s: &str) -> String {
    s.replace("&#x2f;", "/")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Every `href` of an HTML text, unescaped.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| unescape(&rest[..rest.find('"').unwrap()]))
        .collect()
}

/// The index's structure, order and dates; the data files; the rules in
/// prose and the links of a namespace page.
fn site_is_laid_out_as_the_iana_registry(db: &Path, out: &Path, files: &BTreeMap<String, Vec<u8>>) {
    let snapshot = Store::open(db, "t").unwrap().snapshot().unwrap();
    let index = text(&files["index.html"]);

    // Formal and informal tables, in that order, with IANA's columns.
    let formal = index
        .find("<section class=\"subregistry\" id=\"urn-namespaces-1\">")
        .unwrap();
    let informal = index
        .find("<section class=\"subregistry\" id=\"urn-namespaces-2\">")
        .unwrap();
    assert!(formal < informal);
    assert_eq!(
        index
            .matches("<th>URN Namespace</th><th>Template</th><th>Reference</th>")
            .count(),
        2
    );
    let row = |nid: &str| {
        index
            .find(&format!("<tr data-nid=\"{nid}\">"))
            .unwrap_or_else(|| panic!("{nid}"))
    };
    assert!(row("isbn") > formal && row("isbn") < informal);
    assert!(row("urn-1") > informal);
    // Natural order: urn-2 < urn-9 < urn-10, 3gpp < 3gpp2.
    assert!(row("urn-2") < row("urn-9") && row("urn-9") < row("urn-10"));
    assert!(row("3gpp") < row("3gpp2") && row("3gpp2") < row("acme-parts"));
    let row_text = |nid: &str| {
        let at = row(nid);
        &index[at..at + index[at..].find("</tr>").unwrap()]
    };
    // Template column: IANA's template link, or for a namespace registered
    // here its registration on its own page; Reference: the references.
    assert!(
        hrefs(row_text("isbn")).contains(&"https://www.iana.org/assignments/urn-formal/isbn".to_string()),
        "{}",
        row_text("isbn")
    );
    assert!(row_text("isbn").contains("isbn-template"));
    assert!(hrefs(row_text("acme-parts")).contains(&"ns/acme-parts.html#v1".to_string()));
    assert!(hrefs(row_text("urn-7")).contains(&"https://www.rfc-editor.org/rfc/rfc6050".to_string()));

    // The registry's date is that of its last change: the latest approval
    // made here, not the date of the IANA copy.
    let approved = snapshot
        .records
        .iter()
        .flat_map(|r| &r.filed)
        .filter(|v| v.status == "approved")
        .filter_map(|v| v.decided_at.as_deref())
        .map(|d| d[..10].to_string())
        .max()
        .unwrap();
    let expected = approved.clone().max(snapshot.registry.updated.clone());
    assert!(
        index.contains(&format!("<dt>Last Updated</dt><dd id=\"updated\">{expected}")),
        "{expected}"
    );
    if expected != snapshot.registry.updated {
        assert!(index.contains(&format!(
            "(the IANA registry it started from: {})",
            snapshot.registry.updated
        )));
    }

    // The other formats, linked from the index and written beside it.
    let links = hrefs(index);
    for f in [
        "data/urn-namespaces.xml",
        "data/urn-namespaces.csv",
        "data/registry.json",
    ] {
        assert!(links.contains(&f.to_string()), "{f}");
    }
    let xml = text(&files["data/urn-namespaces.xml"]);
    assert!(xml.contains(&format!("<updated>{expected}</updated>")));
    assert!(xml.find("<name>urn-9</name>").unwrap() < xml.find("<name>urn-10</name>").unwrap());
    let json: serde_json::Value = serde_json::from_slice(&files["data/registry.json"]).unwrap();
    assert_eq!(json["registry"]["updated"], expected.as_str());
    // What the pages do not publish, the data does not either.
    assert_eq!(json["requests"], serde_json::json!([]));
    assert!(
        !snapshot.requests.is_empty(),
        "the database has requests to leave out"
    );
    assert!(!text(&files["data/registry.json"]).contains("formal.toml"));
    // The JSON is a snapshot `import` reads back (checksums verified).
    let run = urnreg(
        &[
            "import",
            out.join("data/registry.json").to_str().unwrap(),
            "--dry-run",
            "--db",
            db.to_str().unwrap(),
        ],
        b"",
    );
    assert_ne!(code(&run), 2, "{}", stderr(&run));

    // A namespace page: rules in prose (never the TOML), the source of
    // its text a link.
    let isbn = text(&files["ns/isbn.html"]);
    assert!(isbn.contains("<h2>Rules applied by urnreg</h2>"), "{isbn}");
    assert!(isbn.contains("<dt>Check digit</dt>") && isbn.contains("ISBN check digit (ISO 2108)"));
    assert!(isbn.contains("<dt>Equivalence</dt>"));
    assert!(
        !isbn.contains("step = ") && !isbn.contains("[syntax]"),
        "raw TOML on the page"
    );
    assert!(hrefs(isbn).contains(&"https://www.iana.org/assignments/urn-formal/isbn".to_string()));
    let uuid = text(&files["ns/uuid.html"]);
    assert!(
        uuid.contains("<dt>NSS syntax (ABNF)</dt>")
            && uuid.contains("letters are case-insensitive in the whole NSS")
    );
}

/// Every link between the site's files resolves, anchors included; links
/// out of the site are web or mail addresses.
fn every_link_resolves(out: &Path, files: &BTreeMap<String, Vec<u8>>) {
    let mut checked = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".html")) {
        let dir = Path::new(name).parent().unwrap();
        for href in hrefs(text(bytes)) {
            if href.starts_with("https://") || href.starts_with("http://") || href.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = href.split_once('#').unwrap_or((&href, ""));
            let target = if path.is_empty() {
                name.clone()
            } else {
                let joined = dir.join(path);
                let mut parts: Vec<&str> = Vec::new();
                for part in joined.to_str().unwrap().split('/') {
                    match part {
                        ".." => assert!(parts.pop().is_some(), "{name}: {href} leaves the site"),
                        "" | "." => {}
                        p => parts.push(p),
                    }
                }
                parts.join("/")
            };
            assert!(
                out.join(&target).is_file(),
                "{name}: {href} -> {target} does not exist"
            );
            if !anchor.is_empty() {
                let page = text(&files[&target]);
                assert!(
                    page.contains(&format!("id=\"{anchor}\"")),
                    "{name}: {href}: no #{anchor}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} links");
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
    assert!(page.contains("href=\"../index.html#urn-namespaces-1\""), "{page}");

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

    // Every page fits a phone and a desktop: no element is wider than
    // the viewport (the pages are measured unchanged, CSP and all, inside
    // an iframe of that width).
    for width in [390, 1280] {
        for page in [
            "index.html",
            "ns/isbn.html",
            "ns/uuid.html",
            "ns/urn-4.html",
            "ns/pwid.html",
            "ns/broadband-forum-org.html",
            "ns/acme-parts.html",
            "ns/evil-corp.html",
        ] {
            let m = measure(&chromium, &profile, &site, page, width);
            assert!(
                m.viewport > 0 && m.viewport <= width && m.viewport + 20 >= width,
                "{page} at {width}: viewport {}",
                m.viewport
            );
            assert!(
                m.scroll_width <= m.viewport && m.overflow.is_empty(),
                "{page} at {width} px: scroll width {} in a viewport of {}; wider elements: {}",
                m.scroll_width,
                m.viewport,
                m.overflow
            );
        }
    }
    // On a phone each row is a card, and the filter still hides rows.
    let m = measure(&chromium, &profile, &site, "index.html?q=acme", 390);
    assert_eq!(m.visible_rows, 1, "{m:?}");
    let m = measure(&chromium, &profile, &site, "index.html", 390);
    assert_eq!(m.visible_rows, records, "{m:?}");

    // A phone-sized screenshot is taken at the phone's width.
    let png = dir.path().join("phone.png");
    let run = Command::new(&chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--window-size=390,800")
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("{base}/index.html"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let bytes = fs::read(&png).unwrap();
    // PNG: the IHDR chunk's width is the big-endian u32 at byte 16.
    assert_eq!(&bytes[1..4], b"PNG");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 390);
}

/// What [`measure`] found.
#[derive(Debug)]
struct Measured {
    viewport: u32,
    scroll_width: u32,
    /// Elements reaching past the viewport: `tag#id left..right`.
    overflow: String,
    /// Table rows with a height (not hidden).
    visible_rows: usize,
}

/// Loads `page` of the site in an iframe `width` px wide and measures it
/// from the parent page (a file the test writes beside the site's files,
/// so the pages are measured as exported).
fn measure(chromium: &Path, profile: &Path, site: &Path, page: &str, width: u32) -> Measured {
    let harness = site.join("_measure.html");
    fs::write(
        &harness,
        format!(
            r##"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="f" src="{page}" style="width:{width}px;height:800px;border:0"></iframe>
<script>
document.getElementById("f").addEventListener("load", function () {{
  var out = document.documentElement;
  try {{
    var d = this.contentDocument, vw = d.documentElement.clientWidth, bad = [], rows = 0;
    d.querySelectorAll("body *").forEach(function (e) {{
      var r = e.getBoundingClientRect();
      if (r.width > 0 && (r.right > vw + 0.5 || r.left < -0.5)) {{
        bad.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(r.left) + ".." + Math.round(r.right));
      }}
    }});
    d.querySelectorAll("table.registry tbody tr").forEach(function (e) {{ if (e.getBoundingClientRect().height > 0) {{ rows += 1; }} }});
    out.setAttribute("data-viewport", String(vw));
    out.setAttribute("data-scroll-width", String(d.documentElement.scrollWidth));
    out.setAttribute("data-overflow", bad.slice(0, 10).join(" | "));
    out.setAttribute("data-rows", String(rows));
  }} catch (e) {{ out.setAttribute("data-error", String(e)); }}
}});
</script></body></html>"##
        ),
    )
    .unwrap();
    let url = format!("file://{}", harness.canonicalize().unwrap().display());
    let dom = dump_dom(chromium, profile, &url);
    let tag = &dom[dom.find("<html").unwrap()..];
    let tag = &tag[..tag.find('>').unwrap()];
    let attr = |name: &str| {
        let key = format!("{name}=\"");
        tag.find(&key).map(|at| {
            let rest = &tag[at + key.len()..];
            unescape(&rest[..rest.find('"').unwrap()])
        })
    };
    assert!(attr("data-error").is_none(), "{page}: {:?}", attr("data-error"));
    let number = |name: &str| {
        attr(name)
            .unwrap_or_else(|| panic!("{page}: no {name} in {tag}"))
            .parse()
            .unwrap()
    };
    Measured {
        viewport: number("data-viewport"),
        scroll_width: number("data-scroll-width"),
        overflow: attr("data-overflow").unwrap_or_default(),
        visible_rows: number("data-rows") as usize,
    }
}
