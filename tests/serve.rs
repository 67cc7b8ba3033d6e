//! `urnreg serve` over HTTP on 127.0.0.1: every endpoint, every refusal,
//! filing and review, concurrency, and the command line as a client.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use urnreg::registry::Store;
use urnreg::serve::{self, AppState, Config, tokens};

use crate::util::{code, stderr, stdout};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/serve");

fn data(name: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(name)).expect("test data")
}

/// A server on 127.0.0.1 with its own database, stopped on drop.
pub struct Server {
    pub base: String,
    pub db: PathBuf,
    pub log: Arc<Mutex<Vec<String>>>,
    runtime: Option<tokio::runtime::Runtime>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    _dir: tempfile::TempDir,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(|_| {})
    }

    pub fn start_with(tweak: impl FnOnce(&mut Config)) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("registry.db");
        let mut config = Config::new(db.clone());
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        config.access_log = Some(Arc::new(move |l: &serve::AccessLogLine| {
            sink.lock()
                .unwrap()
                .push(format!("{} {} {}", l.method, l.path, l.status));
        }));
        tweak(&mut config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (base, done) = runtime.block_on(async {
            let state = AppState::open(config).unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            let done = tokio::spawn(serve::run(state, listener, async {
                let _ = stopped.await;
            }));
            (base, done)
        });
        Server {
            base,
            db,
            log,
            runtime: Some(runtime),
            stop: Some(stop),
            done: Some(done),
            _dir: dir,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Tells the server to stop (as SIGTERM does) without waiting for it.
    pub fn begin_stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Waits (up to 10 s) for the server to finish; true if it did.
    pub fn finished(&mut self) -> bool {
        match (&self.runtime, self.done.take()) {
            (Some(rt), Some(done)) => rt
                .block_on(async { tokio::time::timeout(Duration::from_secs(10), done).await })
                .is_ok_and(|r| r.is_ok_and(|r| r.is_ok())),
            _ => false,
        }
    }

    /// A new expert's token, made as `urnreg expert add` makes it.
    pub fn expert(&self, name: &str) -> String {
        let store = Store::open(&self.db, "test").unwrap();
        let (_, token) = tokens::add_expert(store.connection(), name).unwrap();
        token.reveal().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let (Some(rt), Some(done)) = (self.runtime.take(), self.done.take()) {
            let _ = rt.block_on(async { tokio::time::timeout(Duration::from_secs(10), done).await });
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }
}

/// An answer: status, headers (lower-case names; repeated ones joined
/// with "\n") and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: BTreeMap<String, String>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// Sends one request; `headers` as (name, value).
pub fn send(method: &str, url: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Answer {
    try_send(method, url, headers, body).unwrap_or_else(|e| panic!("{method} {url}: {e}"))
}

/// [`send`], with a failure to send or to read the answer returned: a
/// server that refuses a request before reading its body (503, its
/// memory budget spent) may close the connection while a large body is
/// still being written, and the client then sees a broken pipe.
pub fn try_send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Result<Answer, ureq::Error> {
    let agent = agent();
    let mut builder = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        builder = builder.header(*k, *v);
    }
    let response = match body {
        Some(b) => agent.run(builder.body(b.to_vec()).unwrap()),
        None => agent.run(builder.body(()).unwrap()),
    };
    let mut response = response?;
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in response.headers() {
        let v = v.to_str().unwrap_or_default().to_string();
        headers
            .entry(k.as_str().to_string())
            .and_modify(|old| {
                old.push('\n');
                old.push_str(&v);
            })
            .or_insert(v);
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .unwrap_or_default();
    Ok(Answer {
        status: response.status().as_u16(),
        headers,
        body,
    })
}

pub fn get(url: &str) -> Answer {
    send("GET", url, &[], None)
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// `GET url` with `token` as the bearer.
fn get_with(url: &str, token: &str) -> Answer {
    send("GET", url, &[("authorization", &bearer(token))], None)
}

/// Files `text`; returns (id, token) after asserting 201.
pub fn file(server: &Server, text: &str) -> (i64, String) {
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[("content-type", "application/toml")],
        Some(text.as_bytes()),
    );
    assert_eq!(a.status, 201, "{}", a.body);
    let v = a.json();
    let id = v["id"].as_i64().unwrap();
    assert_eq!(a.header("location"), Some(format!("/api/requests/{id}").as_str()));
    (id, v["token"].as_str().unwrap().to_string())
}

/// The registrant's withdrawal of request `id`, with its token.
fn withdraw(server: &Server, id: i64, token: &str, note: &str) -> Answer {
    let body = serde_json::json!({ "note": note }).to_string();
    send(
        "DELETE",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &bearer(token))],
        Some(body.as_bytes()),
    )
}

/// An expert's decision on the text they read: the request's amendment
/// count is read first (0 when `token` may not read it).
fn review(server: &Server, token: &str, id: i64, decision: &str, note: &str) -> Answer {
    let read = get_with(&server.url(&format!("/api/requests/{id}")), token);
    let amendments = if read.status == 200 {
        read.json()["amendments"].as_i64().unwrap_or(0)
    } else {
        0
    };
    let body =
        serde_json::json!({ "decision": decision, "note": note, "amendments": amendments }).to_string();
    send(
        "POST",
        &server.url(&format!("/api/requests/{id}/review")),
        &[
            ("authorization", &bearer(token)),
            ("content-type", "application/json"),
        ],
        Some(body.as_bytes()),
    )
}

#[test]
fn public_json_endpoints_answer_from_the_registry() {
    let server = Server::start();
    let list = get(&server.url("/api/namespaces"));
    assert_eq!(list.status, 200);
    assert_eq!(list.header("content-type"), Some("application/json"));
    let list = list.json();
    let nids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["nid"].as_str().unwrap())
        .collect();
    assert!(nids.contains(&"isbn") && nids.contains(&"urn-7"), "{nids:?}");

    let isbn = get(&server.url("/api/namespaces/ISBN")).json();
    assert_eq!(isbn["nid"], "isbn");
    assert_eq!(isbn["current_version"], 2);
    assert!(
        isbn["registration"]["fields"]["syntax"]
            .as_str()
            .unwrap()
            .contains("ISBN")
    );
    assert!(
        isbn["rules"].as_str().unwrap().contains("source"),
        "{}",
        isbn["rules"]
    );

    let v1 = get(&server.url("/api/namespaces/isbn/versions/2"));
    assert_eq!(v1.status, 200, "{}", v1.body);
    assert_eq!(v1.json()["version"], 2);

    let one = get(&server.url("/api/check?urn=urn:isbn:978-0-306-40615-8"));
    assert_eq!(one.status, 200);
    let one = one.json();
    assert_eq!(one["valid"], false);
    assert_eq!(one["errors"][0]["kind"], "nss-check");
}

/// `GET /api/check?urn=` checks the bytes the parameter percent-decodes
/// to (a `+` as itself), as `POST /api/check` checks a line: bytes that are not UTF-8 are
/// named as sent (not as U+FFFD's), with `input_base64`.
#[test]
fn get_check_answers_what_post_check_answers_for_the_same_bytes() {
    let server = Server::start();
    for (query, bytes) in [
        ("urn:isbn:%ff%fe", &b"urn:isbn:\xff\xfe"[..]),
        // `+` is the URN's own (RFC 8141 section 2), not a form's space.
        ("urn%3Aexample%3Aa+b%C3%A9", "urn:example:a+bé".as_bytes()),
        ("urn:example:a?+r", b"urn:example:a?+r"),
        ("urn:example:a%20b", b"urn:example:a b"),
        ("urn:example:a%2Cb", b"urn:example:a,b"),
        ("urn:isbn:0451450523", b"urn:isbn:0451450523"),
    ] {
        let one = get(&server.url(&format!("/api/check?urn={query}")));
        assert_eq!(one.status, 200, "{query}: {}", one.body);
        let many = send("POST", &server.url("/api/check"), &[], Some(bytes));
        let mut line: Value = serde_json::from_str(many.body.lines().next().unwrap()).unwrap();
        line.as_object_mut().unwrap().remove("line");
        assert_eq!(one.json(), line, "{query}");
    }
    let bad = get(&server.url("/api/check?urn=urn:isbn:%ff%fe")).json();
    assert!(bad.to_string().contains("0xff"), "{bad}");
    assert!(!bad.to_string().contains("0xef"), "{bad}");
    assert!(bad.get("input_base64").is_some(), "{bad}");
    // No URN, or two: 400, saying how it is asked.
    for query in ["", "?strict=1", "?urn=urn:a:b&urn=urn:a:c"] {
        let a = get(&server.url(&format!("/api/check{query}")));
        assert_eq!(a.status, 400, "{query}: {}", a.body);
        assert!(a.body.contains("?urn="), "{query}: {}", a.body);
    }
}

#[test]
fn post_check_answers_exactly_what_check_format_jsonl_writes() {
    let server = Server::start();
    // A line past the 1 MiB limit too: reported cut where a stream cuts it.
    let long = format!("urn:example:{}", "a".repeat(1024 * 1024));
    let input = format!(
        "urn:isbn:0451450523\r\nURN:ISNB:1\n\nurn:example:a%2cb?=q#f\nurn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66\nnot a urn\n{long}\n"
    );
    let a = send("POST", &server.url("/api/check"), &[], Some(input.as_bytes()));
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/jsonl"));
    // The same input through the command line, against the same (embedded) registry.
    let cli = crate::util::urnreg(&["check", "--format", "jsonl", "-"], input.as_bytes());
    assert!(a.body == stdout(&cli), "the service and the command line differ");
    assert_eq!(a.body.lines().count(), 7);
}

#[test]
fn snapshots_carry_entity_tags_that_change_with_the_registry() {
    let server = Server::start();
    for (format, content_type, start) in [
        ("json", "application/json", "{"),
        ("xml", "application/xml", "<?xml"),
        ("csv", "text/csv; charset=utf-8; header=present", "Namespace,Kind"),
    ] {
        let a = get(&server.url(&format!("/api/snapshot?format={format}")));
        assert_eq!(a.status, 200, "{format}");
        assert_eq!(a.header("content-type"), Some(content_type));
        assert!(a.body.starts_with(start), "{format}");
        let etag = a.header("etag").unwrap().to_string();
        let again = send(
            "GET",
            &server.url(&format!("/api/snapshot?format={format}")),
            &[("if-none-match", &etag)],
            None,
        );
        assert_eq!(again.status, 304, "{format}");
        assert_eq!(again.body, "");
        assert_eq!(again.header("etag"), Some(etag.as_str()));
    }
    let before = get(&server.url("/api/snapshot?format=json"));
    let etag = before.header("etag").unwrap().to_string();
    file(&server, &data("formal.toml"));
    let after = send(
        "GET",
        &server.url("/api/snapshot?format=json"),
        &[("if-none-match", &etag)],
        None,
    );
    assert_eq!(after.status, 200, "a filing changes the snapshot");
    assert_ne!(after.header("etag"), Some(etag.as_str()));
    assert!(after.body.contains("widgetnum"));
}

#[test]
fn every_answer_carries_the_security_headers() {
    let server = Server::start();
    for path in [
        "/",
        "/namespaces/isbn",
        "/check",
        "/file",
        "/signin",
        "/api/namespaces",
        "/nope",
        "/api/queue",
    ] {
        let a = get(&server.url(path));
        assert_eq!(a.header("x-content-type-options"), Some("nosniff"), "{path}");
        let csp = a
            .header("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        assert!(!csp.contains("script-src 'unsafe-inline'"), "{path}: {csp}");
    }
    // The index's one inline script is allowed by its hash, nothing else.
    let index = get(&server.url("/"));
    assert!(
        index
            .header("content-security-policy")
            .unwrap()
            .contains("script-src 'sha256-")
    );
    assert!(index.body.contains("href=\"/check\""));
}

#[test]
fn access_rules_hold_for_every_case_in_the_table() {
    let server = Server::start();
    let (id, registrant) = file(&server, &data("informal.toml"));
    let (other, other_registrant) = file(&server, &data("formal.toml"));
    let expert = server.expert("ada");
    let removed = server.expert("bob");
    tokens::remove_expert(Store::open(&server.db, "test").unwrap().connection(), "bob").unwrap();
    let bogus = format!("urnreg_e_{}_{}", "0".repeat(16), "0".repeat(64));
    let table: toml::Table = toml::from_str(&data("access.toml")).unwrap();
    let cases = table["case"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for case in cases {
        let path = case["path"]
            .as_str()
            .unwrap()
            .replace("{id}", &id.to_string())
            .replace("{other}", &other.to_string());
        let method = case["method"].as_str().unwrap();
        let who = case["as"].as_str().unwrap();
        let token = match who {
            "none" => None,
            "bogus" => Some(bogus.as_str()),
            "registrant" => Some(registrant.as_str()),
            "other-registrant" => Some(other_registrant.as_str()),
            "expert" => Some(expert.as_str()),
            "removed-expert" => Some(removed.as_str()),
            _ => panic!("unknown 'as' {who}"),
        };
        let auth = token.map(bearer);
        let mut headers = vec![];
        if let Some(auth) = &auth {
            headers.push(("authorization", auth.as_str()));
        }
        if let Some(content_type) = case.get("content_type") {
            headers.push(("content-type", content_type.as_str().unwrap()));
        }
        let body = match (case.get("body"), case.get("body_file")) {
            (Some(b), _) => Some(b.as_str().unwrap().to_string()),
            (None, Some(f)) => Some(data(f.as_str().unwrap())),
            (None, None) => None,
        };
        let a = send(
            method,
            &server.url(&path),
            &headers,
            body.as_deref().map(str::as_bytes),
        );
        let want = case["status"].as_integer().unwrap() as u16;
        assert_eq!(a.status, want, "{method} {path} as {who}: {}", a.body);
        if want == 401 && path.starts_with("/api/") {
            assert_eq!(a.header("www-authenticate"), Some("Bearer"), "{path}");
        }
        if path.starts_with("/api/") && want >= 400 {
            assert_eq!(a.json()["error"]["status"], want, "{path}");
        }
        if let Some(text) = case.get("contains") {
            let text = text.as_str().unwrap();
            assert!(
                a.body.contains(text),
                "{method} {path}: {text:?} not in {}",
                a.body
            );
        }
    }
}

/// One limit on a registration file, in the service as on the command
/// line (docs/security.md): a 300 KB file is filed, one past 1 MiB is 413
/// with the limit named.
#[test]
fn a_registration_file_has_one_size_limit_everywhere() {
    let server = Server::start();
    let mut big = data("formal.toml");
    big.push_str(&format!("\n# {}\n", "x".repeat(300 * 1024)));
    let a = send("POST", &server.url("/api/requests"), &[], Some(big.as_bytes()));
    assert_eq!(a.status, 201, "{}", a.body);
    let mut huge = data("formal.toml").replace("acme-parts", "acme-bolts");
    huge.push_str(&format!("\n# {}\n", "x".repeat(1024 * 1024)));
    let a = send("POST", &server.url("/api/requests"), &[], Some(huge.as_bytes()));
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(
        a.body.contains("a registration file is at most 1048576 bytes"),
        "{}",
        a.body
    );
}

#[test]
fn lint_refuses_a_filing_with_every_finding_and_stores_nothing() {
    let server = Server::start();
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[],
        Some(data("bad.toml").as_bytes()),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    let findings = a.json()["error"]["findings"].clone();
    let rules: Vec<&str> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"nid-country-prefix"), "{rules:?}");
    assert!(rules.contains(&"date"), "{rules:?}");
    assert_eq!(
        rules.iter().filter(|r| **r == "required-field").count(),
        7,
        "{rules:?}"
    );
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[],
        Some(b"kind = [unclosed"),
    );
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["error"]["findings"][0]["rule"], "toml");
    let a = send("POST", &server.url("/api/requests"), &[], Some(b"\xff\xfe"));
    assert_eq!(a.status, 400);
    let store = Store::open(&server.db, "test").unwrap();
    let n: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE source = 'api'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 0);
}

/// A filing and its registrant's token are one write (every write is one
/// transaction, docs/security.md): when the token cannot be stored, the
/// filing is not either, so the registrant can file it again. Before, the
/// filing was committed first and the token after it: a token that failed
/// left a request nobody held a token for, and filing it again was refused
/// as "already requested".
#[test]
fn a_filing_whose_token_cannot_be_stored_is_not_stored_either() {
    let server = Server::start();
    let text = data("formal.toml");
    let conn = rusqlite::Connection::open(&server.db).unwrap();
    conn.execute_batch(
        "CREATE TRIGGER no_tokens BEFORE INSERT ON request_tokens
         BEGIN SELECT RAISE(ABORT, 'disk full, say'); END;",
    )
    .unwrap();
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[("content-type", "application/toml")],
        Some(text.as_bytes()),
    );
    assert_eq!(a.status, 500, "{}", a.body);
    let filed: i64 = conn
        .query_row(
            "SELECT count(*) FROM registrations WHERE source = 'api'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(filed, 0, "a filing was stored without its token");
    conn.execute_batch("DROP TRIGGER no_tokens").unwrap();
    let (id, token) = file(&server, &text);
    let a = send(
        "GET",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &bearer(&token))],
        None,
    );
    assert_eq!(a.status, 200, "{}", a.body);
}

/// Announces a body of `len` bytes on a raw socket, sends none of it,
/// and returns the whole answer.
fn announce(server: &Server, path: &str, len: usize) -> String {
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

#[test]
fn oversized_bodies_are_refused_with_413() {
    let server = Server::start_with(|c| {
        c.max_check_lines = 100;
    });
    // Bodies announced over the limits are refused before they are read.
    // A filing carries a registration file (1 MiB, three times that as a
    // form); any other body is small.
    let limit = 3 * 1024 * 1024 + 64 * 1024;
    let a = announce(&server, "/api/requests", limit + 1);
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    assert!(a.contains(&format!("limit of {limit} bytes")), "{a}");
    let a = announce(&server, "/signin", 256 * 1024 + 1);
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    assert!(a.contains("limit of 262144 bytes"), "{a}");
    let a = announce(&server, "/api/check", 5 * 1024 * 1024);
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    assert!(
        a.contains("{\"error\":{\"status\":413"),
        "refusals of the API are JSON: {a}"
    );
    // Too many URNs in a body within the byte limit.
    let urns = "urn:isbn:0451450523\n".repeat(101);
    let a = send("POST", &server.url("/api/check"), &[], Some(urns.as_bytes()));
    assert_eq!(a.status, 413);
    assert!(
        a.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 100 URNs")
    );
    let urns = "urn:isbn:0451450523\n".repeat(100);
    assert_eq!(
        send("POST", &server.url("/api/check"), &[], Some(urns.as_bytes())).status,
        200
    );
}

/// Each refusal of tests/data/serve/refusals.toml is ours: JSON under the
/// API, a page in the site's layout elsewhere, in our words.
#[test]
fn malformed_requests_and_unknown_paths_are_refused_in_our_words() {
    let server = Server::start();
    let table: toml::Table = toml::from_str(&data("refusals.toml")).unwrap();
    let cases = table["case"].as_array().unwrap();
    for case in cases {
        let (method, path) = (case["method"].as_str().unwrap(), case["path"].as_str().unwrap());
        let mut headers = vec![];
        if let Some(content_type) = case.get("content_type") {
            headers.push(("content-type", content_type.as_str().unwrap()));
        }
        let body = case.get("body").map(|b| b.as_str().unwrap().as_bytes());
        let a = send(method, &server.url(path), &headers, body);
        let want = case["status"].as_integer().unwrap() as u16;
        assert_eq!(a.status, want, "{method} {path}: {}", a.body);
        let text = match case["as"].as_str().unwrap() {
            "json" => {
                let v = a.json();
                assert_eq!(v["error"]["status"], want, "{method} {path}");
                v["error"]["message"].as_str().unwrap().to_string()
            }
            "page" => {
                assert_eq!(
                    a.header("content-type"),
                    Some("text/html; charset=utf-8"),
                    "{method} {path}"
                );
                assert!(
                    a.body.contains("<nav class=\"site\">"),
                    "{method} {path}: {}",
                    a.body
                );
                a.body
                    .replace("&#x2f;", "/")
                    .replace("&#x27;", "'")
                    .replace("&quot;", "\"")
                    .replace("&amp;", "&")
            }
            other => panic!("unknown 'as' {other}"),
        };
        let contains = case["contains"].as_str().unwrap();
        assert!(
            text.contains(contains),
            "{method} {path}: {contains:?} not in {text}"
        );
        for theirs in ["Failed to", "Invalid URL"] {
            assert!(!a.body.contains(theirs), "{method} {path}: {}", a.body);
        }
    }
}

/// Sends `len` bytes as a chunked body (no `Content-Length`) on a raw
/// socket and returns the whole answer.
fn chunked(server: &Server, path: &str, content_type: &str, len: usize) -> String {
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let chunk = vec![b'a'; 16 * 1024];
    let mut sent = 0;
    // The server may answer and close before the whole body is sent.
    while sent < len {
        let n = chunk.len().min(len - sent);
        if write!(stream, "{n:x}\r\n").is_err()
            || stream.write_all(&chunk[..n]).is_err()
            || stream.write_all(b"\r\n").is_err()
        {
            break;
        }
        sent += n;
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// A chunked body over its route's limit is refused as one announced over
/// it is: 413 naming the limit, JSON under the API, a page elsewhere.
#[test]
fn a_chunked_body_over_the_limit_gets_the_same_refusal_as_an_announced_one() {
    let server = Server::start_with(|c| c.max_check_body = 64 * 1024);
    let a = chunked(&server, "/api/check", "text/plain", 100 * 1024);
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    let message = "the body is larger than the server's limit of 65536 bytes for /api/check";
    assert!(
        a.contains(&format!(
            "{{\"error\":{{\"status\":413,\"message\":\"{message}\"}}}}"
        )),
        "{a}"
    );
    assert!(announce(&server, "/api/check", 100 * 1024).contains(message));
    let a = chunked(
        &server,
        "/signin",
        "application/x-www-form-urlencoded",
        300 * 1024,
    );
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    assert!(a.contains("text/html"), "{a}");
    assert!(
        a.contains("the body is larger than the server&#x27;s limit of 262144 bytes"),
        "{a}"
    );
    let a = chunked(&server, "/api/requests/1/review", "application/json", 300 * 1024);
    assert!(a.starts_with("HTTP/1.1 413"), "{a}");
    assert!(
        a.contains("limit of 262144 bytes for /api/requests/1/review"),
        "{a}"
    );
    assert!(!a.contains("Failed to"), "{a}");
}

/// A request's head and the start of its body on a raw socket, left
/// open (the rest of the body never comes).
fn stalled_body(addr: &str, path: &str, len: usize, sent: usize) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/toml\r\nContent-Length: {len}\r\n\r\n"
    )
    .unwrap();
    stream.write_all(&vec![b'#'; sent]).unwrap();
    stream
}

/// The bodies in flight share one memory budget: past it a request is
/// refused with 503 and Retry-After before its body is read, requests
/// without a body and bodies that fit go on, and a body's share comes
/// back when its request ends, however it ends.
#[test]
fn request_bodies_in_flight_share_one_memory_budget() {
    const BUDGET: usize = 700_000;
    let server = Server::start_with(|c| {
        c.max_body_memory = BUDGET;
        c.request_timeout = Duration::from_secs(20);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    // A filing of 600,000 bytes, half sent, stalls: it holds its share.
    let stalled = stalled_body(&addr, "/api/requests", 600_000, 300_000);
    std::thread::sleep(Duration::from_millis(200));
    let started = std::time::Instant::now();
    let a = announce(&server, "/api/requests", 150_000);
    assert!(a.starts_with("HTTP/1.1 503"), "{a}");
    assert!(a.to_ascii_lowercase().contains("retry-after: 5"), "{a}");
    assert!(a.contains("{\"error\":{\"status\":503"), "{a}");
    assert!(a.contains("memory limit of 700000 bytes"), "{a}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // A body that fits, and a request without one, are served.
    file(&server, &data("informal.toml"));
    assert_eq!(get(&server.url("/api/namespaces/isbn")).status, 200);
    // A check reserves its body and room for its answer: this one fits
    // only once the filing's share is back.
    let lines = ((BUDGET - serve::CHECK_ANSWER_BYTES) / 20 - 10).min(10_000);
    assert!(lines * 20 > BUDGET - 600_000, "it must not fit beside the filing");
    let urns = "urn:isbn:0451450523\n".repeat(lines);
    let a = announce(&server, "/api/check", urns.len());
    assert!(a.starts_with("HTTP/1.1 503"), "{a}");
    // The stalled filing ends (its client goes): its share comes back.
    // Until the server has seen it go, the check is refused before its
    // body is read (and the client may see a broken pipe): try again.
    drop(stalled);
    let mut status = 0;
    for _ in 0..40 {
        status =
            try_send("POST", &server.url("/api/check"), &[], Some(urns.as_bytes())).map_or(0, |a| a.status);
        if status == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(status, 200, "the budget was not given back");
    // Refusals, answers and bodies cut short give it all back too.
    for _ in 0..3 {
        assert!(announce(&server, "/api/requests", BUDGET + 1).starts_with("HTTP/1.1 503"));
        let a = send(
            "POST",
            &server.url("/api/check"),
            &[],
            Some(b"urn:isbn:0451450523\n"),
        );
        assert_eq!(a.status, 200);
        drop(stalled_body(&addr, "/api/check", 50_000, 1_000));
    }
    std::thread::sleep(Duration::from_millis(300));
    let a = send("POST", &server.url("/api/check"), &[], Some(urns.as_bytes()));
    assert_eq!(a.status, 200, "the budget leaked: {}", a.body);
}

/// A check's request and the head of its answer on a raw socket; the
/// rest of the answer is left unread.
fn unread_check(addr: &str, body: &[u8]) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        stream,
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    stream
}

/// 10,000 lines whose answer is some 19 MB (each object has the EPC
/// rules' source): more than the sockets' buffers take.
fn big_answer_body() -> Vec<u8> {
    b"urn:epc:x\n".repeat(10_000)
}

/// A check's answer is counted in the memory budget, with its body, until
/// it is sent: a client that does not read it holds its share, and gives
/// it back when it goes, or when the idle timeout closes its connection.
#[test]
fn a_check_holds_its_share_until_its_answer_is_sent() {
    let body = big_answer_body();
    let share = body.len() + serve::CHECK_ANSWER_BYTES;
    let server = Server::start_with(|c| {
        c.max_body_memory = share + share / 2;
        c.limits.idle_timeout = Duration::from_secs(2);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    let served_once = |what: &str| {
        let mut status = 0;
        for _ in 0..100 {
            status = send("POST", &server.url("/api/check"), &[], Some(&body)).status;
            if status == 200 {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(status, 200, "the share was not given back ({what})");
    };
    let reader = unread_check(&addr, &body);
    std::thread::sleep(Duration::from_millis(200));
    let a = announce(&server, "/api/check", body.len());
    assert!(a.starts_with("HTTP/1.1 503"), "{a}");
    assert!(a.contains("check answers in flight"), "{a}");
    drop(reader);
    served_once("the client went");
    let reader = unread_check(&addr, &body);
    std::thread::sleep(Duration::from_millis(200));
    assert!(announce(&server, "/api/check", body.len()).starts_with("HTTP/1.1 503"));
    served_once("the idle timeout");
    drop(reader);
}

/// `POST /api/check` reads its body's lines as `check -` reads a stream:
/// a byte-order mark at the very start is no part of line 1.
#[test]
fn a_check_body_starting_with_a_byte_order_mark() {
    let server = Server::start();
    let a = send(
        "POST",
        &server.url("/api/check"),
        &[],
        Some(b"\xEF\xBB\xBFurn:isbn:0451450523\nurn:isbn:0451450523\n"),
    );
    assert_eq!(a.status, 200);
    let first: Value = serde_json::from_str(a.body.lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["line"].as_u64(), first["valid"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(a.body.lines().count(), 2);
}

/// A request's head must fit in the connection's buffer (408 KiB, with
/// what its last read added): a longer one gets 431, as hyper answers it.
#[test]
fn request_heads_are_limited_to_the_connection_buffer() {
    let server = Server::start();
    let addr = server.base.trim_start_matches("http://").to_string();
    let head = |pad: usize| {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = write!(
            stream,
            "GET /api/namespaces/isbn HTTP/1.1\r\nHost: {addr}\r\nX-Pad: {}\r\nConnection: close\r\n\r\n",
            "a".repeat(pad)
        );
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    };
    assert!(head(serve::MAX_CONNECTION_BUFFER / 2).starts_with("HTTP/1.1 200"));
    let a = head(2 * serve::MAX_CONNECTION_BUFFER + 100);
    assert!(a.starts_with("HTTP/1.1 431"), "{a}");
}

/// The resident memory of a process, in bytes (Linux).
#[cfg(target_os = "linux")]
fn resident(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb * 1024
}

/// Answers are made as they are sent, not whole in memory: clients that
/// do not read 19 MB answers cost the server little (each held its
/// whole answer: 10 of them took some 200 MB).
#[cfg(target_os = "linux")]
#[test]
fn unread_check_answers_take_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = spawn_server(&dir.path().join("registry.db"));
    let addr = server.base.trim_start_matches("http://").to_string();
    let body = big_answer_body();
    // Warm: the registry and a first answer, read whole.
    let whole = send("POST", &format!("{}/api/check", server.base), &[], Some(&body));
    assert_eq!(whole.status, 200);
    assert_eq!(whole.body.lines().count(), 10_000);
    assert!(whole.body.len() > 15_000_000, "{}", whole.body.len());
    let before = resident(server.child.id());
    let readers: Vec<_> = (0..10).map(|_| unread_check(&addr, &body)).collect();
    std::thread::sleep(Duration::from_millis(500));
    let grown = resident(server.child.id()).saturating_sub(before);
    drop(readers);
    let _ = server.child.kill();
    let _ = server.child.wait();
    assert!(grown < 40 << 20, "10 unread answers took {} MB", grown >> 20);
}

#[test]
fn filing_is_rate_limited_per_client() {
    let server = Server::start_with(|c| {
        c.filing_burst = 2;
        c.filings_per_hour = 1;
    });
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[],
        Some(data("bad.toml").as_bytes()),
    );
    assert_eq!(a.status, 422);
    file(&server, &data("informal.toml"));
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[],
        Some(data("formal.toml").as_bytes()),
    );
    assert_eq!(a.status, 429, "{}", a.body);
    let wait: u64 = a.header("retry-after").unwrap().parse().unwrap();
    assert!(wait > 0 && wait <= 3600, "{wait}");
}

/// Amendments store a text each: they take from the filing limit as
/// filings do (found in hostile testing).
#[test]
fn amending_is_rate_limited_with_filing() {
    let server = Server::start_with(|c| {
        c.filing_burst = 2;
        c.filings_per_hour = 1;
    });
    let (id, token) = file(&server, &data("informal.toml"));
    let amend = |n: usize| {
        let text = data("informal.toml").replacen(
            "purpose = \"Identifiers",
            &format!("purpose = \"Amended {n}: identifiers"),
            1,
        );
        send(
            "PUT",
            &server.url(&format!("/api/requests/{id}")),
            &[("authorization", &bearer(&token))],
            Some(text.as_bytes()),
        )
    };
    assert_eq!(amend(1).status, 200);
    let a = amend(2);
    assert_eq!(a.status, 429, "{}", a.body);
    assert!(a.body.contains("filings and amendments"), "{}", a.body);
}

/// A decision names the amendment count it read (`GET /api/requests/{id}`
/// says it): a text the registrant replaced since is not approved unseen
/// (409), whether through the API or the review form (found in hostile testing).
#[test]
fn a_review_of_a_text_amended_since_it_was_read_is_refused() {
    let server = Server::start();
    let expert = server.expert("ada");
    let (id, token) = file(&server, &data("informal.toml"));
    let read = get_with(&server.url(&format!("/api/requests/{id}")), &token).json()["amendments"]
        .as_i64()
        .unwrap();
    assert_eq!(read, 0);
    let text =
        data("informal.toml").replacen("purpose = \"Identifiers", "purpose = \"Switched: identifiers", 1);
    let a = send(
        "PUT",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &bearer(&token))],
        Some(text.as_bytes()),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let decide = |amendments: i64| {
        let body = serde_json::json!({ "decision": "approve", "note": "fine", "amendments": amendments })
            .to_string();
        send(
            "POST",
            &server.url(&format!("/api/requests/{id}/review")),
            &[
                ("authorization", &bearer(&expert)),
                ("content-type", "application/json"),
            ],
            Some(body.as_bytes()),
        )
    };
    let a = decide(0);
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(a.body.contains("amended since it was read"), "{}", a.body);
    let a = get_with(&server.url(&format!("/api/requests/{id}")), &token);
    assert_eq!(a.json()["status"], "submitted", "nothing decided");
    assert_eq!(a.json()["amendments"], 1);
    assert_eq!(decide(1).status, 200);
}

#[test]
fn a_slow_request_is_cut_at_the_time_limit() {
    let server = Server::start_with(|c| c.request_timeout = Duration::from_millis(500));
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    // Generous: a loaded CI machine schedules the server late.
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // A body announced and never sent.
    write!(
        stream,
        "POST /api/requests HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 1000\r\n\r\nkind ="
    )
    .unwrap();
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.contains("limit of 0 s") || answer.contains("limit"),
        "{answer}"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
}

/// Reads cut at the time limit leave their database work running; the
/// connection it holds is not handed to another request before it is
/// back: every answer is 200 or 503, never 500 (found in hostile testing: the
/// pool's permit went with the answer, and the next request found no
/// connection and panicked, "a permit stands for a free connection").
#[test]
fn reads_cut_at_the_time_limit_never_take_a_connection_in_use() {
    let server = Server::start_with(|c| c.request_timeout = Duration::from_millis(1));
    let paths = [
        "/",
        "/api/namespaces",
        "/api/snapshot?format=json",
        "/api/snapshot?format=xml",
        "/api/namespaces/isbn",
        "/api/namespaces/uuid",
        "/namespaces/isbn",
        "/api/queue",
    ];
    for _round in 0..3 {
        let threads: Vec<_> = (0..16)
            .map(|i| {
                let url = server.url(paths[i % paths.len()]);
                std::thread::spawn(move || (url.clone(), get(&url)))
            })
            .collect();
        for t in threads {
            let (url, a) = t.join().unwrap();
            assert!(
                a.status == 200 || a.status == 503 || (a.status == 401 && url.ends_with("/api/queue")),
                "{url}: {} {:.500}",
                a.status,
                a.body
            );
        }
    }
    let log = server.log.lock().unwrap().join("\n");
    assert!(!log.contains(" 500"), "{log}");
}

/// What a write of the service could change: the rows of every table a
/// filing, an amendment, a withdrawal or a review writes, and each
/// request's state.
fn registry_rows(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut rows = Vec::new();
    for table in [
        "namespaces",
        "registrations",
        "reviews",
        "amendments",
        "request_tokens",
        "audit_log",
        "informal_sequence",
        "service_sessions",
    ] {
        let n: i64 = conn
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        rows.push(format!("{table}: {n}"));
    }
    let states: String = conn
        .query_row(
            "SELECT coalesce(group_concat(id || ' ' || status || ' ' || coalesce(decided_at, '-') || ' ' || length(purpose), ', '), '')
             FROM registrations WHERE source IN ('api', 'web')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    rows.push(format!("requests: {states}"));
    let sequence: String = conn
        .query_row(
            "SELECT coalesce(group_concat(last, ','), '') FROM informal_sequence",
            [],
            |r| r.get(0),
        )
        .unwrap();
    rows.push(format!("informal sequence: {sequence}"));
    rows
}

/// A request to send: method, path, headers and body.
type WriteCase = (&'static str, String, Vec<(&'static str, String)>, Vec<u8>);

/// A write cut at the time limit is never stored afterwards: the client
/// told 503 must be able to trust that nothing was stored (every write is
/// one transaction, docs/security.md). Another process holds the
/// database's write lock past the limit; each service write (a filing
/// with its token, an amendment, a withdrawal, an expert's approval of an
/// informal request, which assigns its `urn-N`) is answered 503, and once
/// the lock is released and time has passed, the database is as it was.
/// Before, the handler was dropped at the limit but its blocking task
/// waited on the lock (a minute's busy timeout) and committed after the
/// 503: a filing with a token nobody ever saw, which could neither be
/// amended nor filed again ("already requested").
#[test]
fn a_write_cut_at_the_time_limit_is_never_stored_afterwards() {
    let limit = Duration::from_secs(1);
    let server = Server::start_with(|c| c.request_timeout = limit);
    let expert = server.expert("ada");
    let (id, token) = file(&server, &data("informal.toml"));
    let formal = data("formal.toml");
    let amended =
        data("informal.toml").replacen("purpose = \"Identifiers", "purpose = \"Amended: identifiers", 1);
    assert_ne!(amended, data("informal.toml"), "the amendment changes the text");
    let review_body =
        serde_json::json!({ "decision": "approve", "note": "fine", "amendments": 0 }).to_string();
    let cases: Vec<WriteCase> = vec![
        (
            "POST",
            "/api/requests".into(),
            vec![("content-type", "application/toml".into())],
            formal.clone().into_bytes(),
        ),
        (
            "PUT",
            format!("/api/requests/{id}"),
            vec![("authorization", bearer(&token))],
            amended.into_bytes(),
        ),
        (
            "DELETE",
            format!("/api/requests/{id}"),
            vec![("authorization", bearer(&token))],
            br#"{"note": "no"}"#.to_vec(),
        ),
        (
            "POST",
            format!("/api/requests/{id}/review"),
            vec![
                ("authorization", bearer(&expert)),
                ("content-type", "application/json".into()),
            ],
            review_body.into_bytes(),
        ),
    ];
    for (method, path, headers, body) in cases {
        let before = registry_rows(&server.db);
        let lock = rusqlite::Connection::open(&server.db).unwrap();
        lock.execute_batch("BEGIN IMMEDIATE").unwrap();
        let started = std::time::Instant::now();
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let a = send(method, &server.url(&path), &headers, Some(&body));
        let took = started.elapsed();
        assert_eq!(a.status, 503, "{method} {path}: {}", a.body);
        assert!(
            a.body.contains("nothing was stored"),
            "{method} {path}: {}",
            a.body
        );
        assert!(a.header("retry-after").is_some(), "{method} {path}");
        assert!(
            took < limit + Duration::from_millis(500),
            "{method} {path}: {took:?}"
        );
        // The lock is held past the limit, then released.
        std::thread::sleep((limit + Duration::from_millis(500)).saturating_sub(took));
        lock.execute_batch("COMMIT").unwrap();
        drop(lock);
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(
            registry_rows(&server.db),
            before,
            "{method} {path} was stored after its 503"
        );
    }
    // Nothing half-done is in the way: each write goes through now.
    let (_, _) = file(&server, &formal);
    assert_eq!(review(&server, &expert, id, "approve", "fine").status, 200);
}

#[test]
fn approval_puts_the_new_rules_in_force_for_check_at_once() {
    let server = Server::start();
    let expert = server.expert("ada");
    let before = get(&server.url("/api/check?urn=urn:widgetnum:w-12")).json();
    assert_eq!(before["errors"][0]["kind"], "unregistered-nid");
    let (id, registrant) = file(&server, &data("formal.toml"));

    let a = review(
        &server,
        &expert,
        id,
        "ask-changes",
        "please cite the numbering document",
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["status"], "changes-requested");
    let seen = send(
        "GET",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &bearer(&registrant))],
        None,
    )
    .json();
    assert_eq!(seen["status"], "changes-requested");
    assert_eq!(seen["reviews"][0]["note"], "please cite the numbering document");
    assert_eq!(seen["reviews"][0]["actor"], "ada");

    // The registrant answers with an amended text; it goes back to review.
    let amended = data("formal.toml").replace(
        "assigns widget numbers sequentially",
        "assigns widget numbers sequentially, as its numbering document says",
    );
    let auth = bearer(&registrant);
    let a = send(
        "PUT",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &auth)],
        Some(amended.as_bytes()),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["status"], "submitted");
    let seen = send(
        "GET",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &auth)],
        None,
    )
    .json();
    assert!(
        seen["fields"]["assignment"]
            .as_str()
            .unwrap()
            .contains("numbering document")
    );

    let a = review(&server, &expert, id, "approve", "registered");
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["nid"], "widgetnum");
    // Decided: the registrant can neither amend nor withdraw it now.
    let a = send(
        "DELETE",
        &server.url(&format!("/api/requests/{id}")),
        &[("authorization", &auth)],
        None,
    );
    assert_eq!(a.status, 409, "{}", a.body);
    assert_eq!(review(&server, &expert, id, "approve", "again").status, 409);

    let good = get(&server.url("/api/check?urn=urn:widgetnum:w-12")).json();
    assert_eq!(good["valid"], true, "{good}");
    let bad = get(&server.url("/api/check?urn=urn:widgetnum:x-12")).json();
    assert_eq!(bad["errors"][0]["kind"], "nss-syntax", "{bad}");
    let page = get(&server.url("/namespaces/widgetnum"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("urn:widgetnum"));
    assert_eq!(
        get(&server.url("/api/namespaces/widgetnum")).json()["current_version"],
        1
    );

    // The audit log names the expert and "registrant".
    let store = Store::open(&server.db, "test").unwrap();
    let history = store.history("widgetnum").unwrap();
    let actors: Vec<(&str, &str)> = history
        .events
        .iter()
        .map(|e| (e.action.as_str(), e.actor.as_str()))
        .collect();
    assert!(actors.contains(&("request", "registrant")), "{actors:?}");
    assert!(actors.contains(&("review:ask-changes", "ada")), "{actors:?}");
    assert!(actors.contains(&("amend", "registrant")), "{actors:?}");
    assert!(actors.contains(&("review:approve", "ada")), "{actors:?}");
    // No token is in the database, nor in the access log.
    let log = server.log.lock().unwrap().join("\n");
    assert!(log.contains("POST /api/requests 201"), "{log}");
    for token in [&expert, &registrant] {
        assert!(!log.contains(token.as_str()));
        let secret = &token[26..];
        let found: i64 = store
            .connection()
            .query_row(
                "SELECT count(*) FROM request_tokens WHERE instr(lower(hex(token_hash)), ?1) OR instr(selector, ?1)",
                [secret],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 0);
    }
}

#[test]
fn a_registrant_withdraws_with_their_token_and_the_expert_can_no_longer_decide() {
    let server = Server::start();
    let expert = server.expert("ada");
    let (id, token) = file(&server, &data("informal.toml"));
    let a = withdraw(&server, id, &token, "filed by mistake");
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["status"], "withdrawn");
    assert_eq!(review(&server, &expert, id, "approve", "too late").status, 409);
    let queue = send(
        "GET",
        &server.url("/api/queue"),
        &[("authorization", &bearer(&expert))],
        None,
    )
    .json();
    assert_eq!(queue.as_array().unwrap().len(), 0, "{queue}");
}

/// A withdrawn request is listed on its namespace's page, its text not
/// republished (found in hostile testing: anyone may file a megabyte and withdraw it,
/// again and again, and each copy stayed on the page).
#[test]
fn a_withdrawn_request_is_listed_without_its_text() {
    let server = Server::start();
    let expert = server.expert("ada");
    let (v1, _) = file(&server, &data("formal.toml"));
    assert_eq!(review(&server, &expert, v1, "approve", "ok").status, 200);
    // Version 2 says something version 1 does not.
    let revision = data("formal.toml")
        .replace("version = 1", "version = 2")
        .replace("date = \"2026-11-01\"", "date = \"2026-11-20\"")
        .replace(
            "documentation = ",
            "revision_information = \"Widget numbers may now be unmade.\"\ndocumentation = ",
        );
    let (v2, token) = file(&server, &revision);
    let a = withdraw(&server, v2, &token, "not yet");
    assert_eq!(a.status, 200, "{}", a.body);
    let page = get(&server.url("/namespaces/widgetnum"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("withdrawn"), "{}", page.body);
    assert!(
        page.body
            .contains("The text of a withdrawn request is not published"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("may now be unmade"),
        "the withdrawn text is not shown"
    );
    assert!(page.body.contains("sequentially"), "the approved version is");
}

#[test]
fn on_shutdown_a_request_in_flight_finishes_and_new_ones_are_refused() {
    let mut server = Server::start();
    let addr = server.base.trim_start_matches("http://").to_string();
    let body = "urn:isbn:0451450523\nurn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66\n";
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        body.len(),
        &body[..10]
    )
    .unwrap();
    stream.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    server.begin_stop();
    std::thread::sleep(Duration::from_millis(200));
    // The rest of the body arrives after the stop: the answer is complete.
    stream.write_all(&body.as_bytes()[10..]).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(answer.matches("\"valid\":true").count(), 2, "{answer}");
    assert!(server.finished(), "the server stops once the request is answered");
    assert!(
        std::net::TcpStream::connect(&addr).is_err(),
        "nothing listens any more"
    );
}

#[test]
fn concurrent_filing_and_approval_lose_nothing_and_never_reuse_an_informal_number() {
    let server = Server::start_with(|c| c.filing_burst = 1000);
    let experts: Vec<String> = (0..4).map(|i| server.expert(&format!("expert{i}"))).collect();
    let base = server.base.clone();
    let informal = data("informal.toml");
    // 8 registrants file 5 requests each, each varied so none is a duplicate.
    let filers: Vec<_> = (0..8)
        .map(|t| {
            let base = base.clone();
            let text = informal.clone();
            std::thread::spawn(move || {
                (0..5)
                    .map(|i| {
                        let text = text.replace("widget number", &format!("widget number (series {t}-{i})"));
                        let a = send(
                            "POST",
                            &format!("{base}/api/requests"),
                            &[],
                            Some(text.as_bytes()),
                        );
                        assert_eq!(a.status, 201, "{}", a.body);
                        a.json()["id"].as_i64().unwrap()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    // Meanwhile, maintainers on the server host file with the command line
    // (other processes, the same database).
    let db = server.db.clone();
    let local: Vec<_> = (0..4)
        .map(|i| {
            let db = db.clone();
            let text = informal.replace("widget number", &format!("widget number (local {i})"));
            std::thread::spawn(move || {
                let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
                    .args([
                        "request",
                        "-",
                        "--db",
                        db.to_str().unwrap(),
                        "--actor",
                        "maintainer",
                    ])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
                child.wait_with_output().unwrap()
            })
        })
        .collect();
    let ids: Vec<i64> = filers.into_iter().flat_map(|h| h.join().unwrap()).collect();
    assert_eq!(ids.len(), 40);
    for out in local.into_iter().map(|h| h.join().unwrap()) {
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(!stderr(&out).contains("locked"));
    }
    // 4 experts approve all of them at once, each trying every request.
    let approvers: Vec<_> = experts
        .into_iter()
        .map(|token| {
            let base = base.clone();
            let ids = ids.clone();
            std::thread::spawn(move || {
                let mut mine = Vec::new();
                for id in ids {
                    let body =
                        serde_json::json!({"decision": "approve", "note": "ok", "amendments": 0}).to_string();
                    let auth = format!("Bearer {token}");
                    let a = send(
                        "POST",
                        &format!("{base}/api/requests/{id}/review"),
                        &[("authorization", &auth)],
                        Some(body.as_bytes()),
                    );
                    assert!(a.status == 200 || a.status == 409, "{} {}", a.status, a.body);
                    assert!(!a.body.contains("locked"), "{}", a.body);
                    if a.status == 200 {
                        mine.push(a.json()["nid"].as_str().unwrap().to_string());
                    }
                }
                mine
            })
        })
        .collect();
    let mut nids: Vec<String> = approvers.into_iter().flat_map(|h| h.join().unwrap()).collect();
    assert_eq!(nids.len(), ids.len(), "every request approved exactly once");
    nids.sort();
    nids.dedup();
    assert_eq!(nids.len(), ids.len(), "no urn-N handed out twice");
    let store = Store::open(&server.db, "test").unwrap();
    let approved: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE status = 'approved' AND source = 'api'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(approved as usize, ids.len());
    let local: i64 = store
        .connection()
        .query_row(
            "SELECT count(*) FROM registrations WHERE status = 'submitted' AND source = 'stdin'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(local, 4, "the command line's filings are there too");
}

/// A browser's cookies, kept by hand.
#[derive(Default)]
struct Browser {
    cookies: BTreeMap<String, String>,
}

impl Browser {
    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep(&mut self, a: &Answer) {
        for line in a.header("set-cookie").unwrap_or_default().lines() {
            let pair = line.split(';').next().unwrap();
            let (k, v) = pair.split_once('=').unwrap();
            if line.contains("Max-Age=0") {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_string(), v.to_string());
            }
            assert!(
                line.contains("HttpOnly") && line.contains("SameSite=Strict"),
                "{line}"
            );
        }
    }

    fn get(&mut self, url: &str) -> Answer {
        let cookies = self.cookie_header();
        let a = send("GET", url, &[("cookie", &cookies)], None);
        self.keep(&a);
        a
    }

    fn post(&mut self, url: &str, form: &[(&str, &str)]) -> Answer {
        let body = form
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let cookies = self.cookie_header();
        let a = send(
            "POST",
            url,
            &[
                ("cookie", &cookies),
                ("content-type", "application/x-www-form-urlencoded"),
            ],
            Some(body.as_bytes()),
        );
        self.keep(&a);
        a
    }

    fn csrf(&self) -> String {
        self.cookies["urnreg_csrf"].clone()
    }
}

/// application/x-www-form-urlencoded.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => (b as char).to_string(),
            b' ' => "+".into(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn browser_forms_need_their_csrf_token_and_sessions_keep_roles_apart() {
    let server = Server::start();
    let expert = server.expert("ada");
    let mut b = Browser::default();
    let form = b.get(&server.url("/file"));
    assert_eq!(form.status, 200);
    let csrf = b.csrf();
    assert!(form.body.contains(&format!("value=\"{csrf}\"")));
    // Without the token, or with another, nothing is filed.
    let a = b.post(
        &server.url("/file"),
        &[("csrf", "0"), ("text", &data("informal.toml"))],
    );
    assert_eq!(a.status, 403);
    let mut stranger = Browser::default();
    let a = stranger.post(
        &server.url("/file"),
        &[("csrf", &csrf), ("text", &data("informal.toml"))],
    );
    assert_eq!(a.status, 403, "a token without its cookie is refused");
    // Lint findings inline, the text kept.
    let a = b.post(
        &server.url("/file"),
        &[("csrf", &csrf), ("text", &data("bad.toml"))],
    );
    assert_eq!(a.status, 422);
    assert!(a.body.contains("nid-country-prefix"), "{}", a.body);
    assert!(a.body.contains("de-books"));
    let a = b.post(
        &server.url("/file"),
        &[("csrf", &csrf), ("text", &data("informal.toml"))],
    );
    assert_eq!(a.status, 201, "{}", a.body);
    let token = a
        .body
        .split("id=\"token\">")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .to_string();
    assert!(token.starts_with("urnreg_r_"));

    // A registrant's session sees its request, not the queue.
    let mut registrant = Browser::default();
    registrant.get(&server.url("/signin"));
    let csrf = registrant.csrf();
    let a = registrant.post(&server.url("/signin"), &[("csrf", &csrf), ("token", &token)]);
    assert_eq!(a.status, 303, "{}", a.body);
    let to = a.header("location").unwrap().to_string();
    assert!(to.starts_with("/requests/"), "{to}");
    let csrf = registrant.csrf();
    assert_ne!(csrf, b.csrf(), "signing in gives a new CSRF token");
    assert_eq!(registrant.get(&server.url(&to)).status, 200);
    assert_eq!(registrant.get(&server.url("/queue")).status, 403);
    let id = to.trim_start_matches("/requests/");
    assert_eq!(registrant.get(&server.url(&format!("/review/{id}"))).status, 403);

    // An expert signs in, sees the queue and the review page, decides.
    let mut e = Browser::default();
    e.get(&server.url("/signin"));
    let csrf = e.csrf();
    let a = e.post(
        &server.url("/signin"),
        &[("csrf", &csrf), ("token", "urnreg_e_nope")],
    );
    assert_eq!(a.status, 401);
    let a = e.post(&server.url("/signin"), &[("csrf", &csrf), ("token", &expert)]);
    assert_eq!(a.status, 303);
    assert_eq!(a.header("location"), Some("/queue"));
    let queue = e.get(&server.url("/queue"));
    assert_eq!(queue.status, 200);
    assert!(
        queue.body.contains(&format!("href=\"/review/{id}\"")),
        "{}",
        queue.body
    );
    let page = e.get(&server.url(&format!("/review/{id}")));
    assert!(page.body.contains("id=\"diff\"") && page.body.contains("id=\"findings\""));
    let csrf = e.csrf();
    let a = e.post(
        &server.url(&format!("/review/{id}")),
        &[("csrf", "bad"), ("decision", "approve"), ("note", "ok")],
    );
    assert_eq!(a.status, 403);
    let a = e.post(
        &server.url(&format!("/review/{id}")),
        &[("csrf", &csrf), ("decision", "approve"), ("note", "welcome")],
    );
    assert_eq!(a.status, 303, "{}", a.body);
    let page = e.get(&server.url(&format!("/review/{id}")));
    assert!(page.body.contains("approved"), "{}", page.body);
    // Removing the expert ends the session.
    tokens::remove_expert(Store::open(&server.db, "test").unwrap().connection(), "ada").unwrap();
    assert_eq!(e.get(&server.url("/queue")).status, 401);
}

#[test]
fn the_check_page_shows_each_verdict_escaped() {
    let server = Server::start();
    let mut b = Browser::default();
    b.get(&server.url("/check"));
    let csrf = b.csrf();
    let a = b.post(
        &server.url("/check"),
        &[
            ("csrf", &csrf),
            ("urns", "urn:isbn:0451450523\nurn:x:<script>alert(1)</script>"),
        ],
    );
    assert_eq!(a.status, 200);
    assert!(a.body.contains("urn:isbn:9780451450524"), "the key is shown");
    assert!(!a.body.contains("<script>alert(1)"));
    assert!(a.body.contains("&lt;script&gt;"));
    assert_eq!(a.body.matches("class=\"invalid\"").count(), 1);
}

#[test]
fn the_static_sites_names_lead_to_the_live_pages() {
    let server = Server::start();
    let a = get(&server.url("/ns/isbn.html"));
    assert_eq!(a.status, 308);
    assert_eq!(a.header("location"), Some("/namespaces/isbn"));
    assert_eq!(get(&server.url("/index.html")).header("location"), Some("/"));
    assert_eq!(get(&server.url("/ns/..%2fetc.html")).status, 404);
}

/// The relative links of a page, resolved against its path.
fn links(page: &str, body: &str) -> Vec<String> {
    let dir = &page[..=page.rfind('/').unwrap()];
    body.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|h| h.replace("&#x2f;", "/").replace("&amp;", "&"))
        .filter(|h| !h.starts_with("http") && !h.starts_with("mailto:") && !h.starts_with('#'))
        .map(|h| {
            let h = h.split('#').next().unwrap().to_string();
            if h.starts_with('/') {
                return h;
            }
            let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
            for seg in h.split('/') {
                match seg {
                    ".." => {
                        parts.pop();
                    }
                    "." | "" => {}
                    s => parts.push(s),
                }
            }
            format!("/{}", parts.join("/"))
        })
        .collect()
}

#[test]
fn every_link_of_the_live_site_leads_somewhere() {
    let server = Server::start();
    let mut seen = std::collections::BTreeSet::new();
    for page in ["/", "/namespaces/isbn", "/namespaces/urn-7", "/check", "/file"] {
        let a = get(&server.url(page));
        assert_eq!(a.status, 200, "{page}");
        for link in links(page, &a.body) {
            if seen.insert(link.clone()) {
                let mut status = get(&server.url(&link)).status;
                if status == 308 {
                    status = 200;
                }
                assert_eq!(status, 200, "{link} (from {page})");
            }
        }
    }
    assert!(seen.len() > 100, "{}", seen.len());
    assert!(seen.contains("/data/urn-namespaces.xml"), "{seen:?}");
}

/// The built binary as a server: `urnreg serve --bind 127.0.0.1:0`.
struct Process {
    child: std::process::Child,
    base: String,
}

fn spawn_server(db: &Path) -> Process {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(["serve", "--bind", "127.0.0.1:0", "--db", db.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let base = line
        .split("on ")
        .nth(1)
        .unwrap()
        .trim()
        .trim_end_matches('/')
        .to_string();
    // Keep reading stdout so the server never blocks on it.
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    Process { child, base }
}

fn run(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_urnreg"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn the_command_line_files_reviews_and_follows_through_a_server_then_it_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("registry.db");
    let db_arg = db.to_str().unwrap();
    let added = run(&["expert", "add", "ada", "--db", db_arg], &[]);
    assert_eq!(code(&added), 0, "{}", stderr(&added));
    let expert = stdout(&added).trim().to_string();
    assert!(expert.starts_with("urnreg_e_"));
    let listed = run(&["expert", "list", "--db", db_arg], &[]);
    assert!(stdout(&listed).starts_with("ada\t"));
    assert!(!stdout(&listed).contains(&expert));

    let server = spawn_server(&db);
    let base = server.base.clone();
    let filing = Path::new(DATA).join("formal.toml");
    let out = run(
        &[
            "--server",
            &base,
            "request",
            filing.to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let filed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let id = filed["id"].as_i64().unwrap().to_string();
    let token = filed["token"].as_str().unwrap().to_string();

    let refused = run(&["--server", &base, "request", &format!("{DATA}/bad.toml")], &[]);
    assert_eq!(code(&refused), 2);
    assert!(
        stderr(&refused).contains("[nid-country-prefix]"),
        "{}",
        stderr(&refused)
    );

    // `urnreg --server URL review ID ARGS...` with `token`.
    let review_as = |token: &str, args: &[&str]| {
        let mut all = vec!["--server", base.as_str(), "review", id.as_str()];
        all.extend_from_slice(args);
        run(&all, &[("URNREG_TOKEN", token)])
    };
    let as_registrant = review_as(
        &token,
        &["--approve", "--note", "self-approval", "--amendments", "0"],
    );
    assert_eq!(code(&as_registrant), 2);
    assert!(
        stderr(&as_registrant).contains("403"),
        "{}",
        stderr(&as_registrant)
    );

    // The queue prints as the local command prints it: the same table.
    let queue = run(&["--server", &base, "queue"], &[("URNREG_TOKEN", &expert)]);
    assert_eq!(code(&queue), 0, "{}", stderr(&queue));
    let local = run(&["queue", "--db", db_arg], &[]);
    assert_eq!(stdout(&queue), stdout(&local));
    assert!(
        stdout(&queue).starts_with("   id  NID ") && stdout(&queue).contains(" widgetnum "),
        "{}",
        stdout(&queue)
    );
    let asked = review_as(
        &expert,
        &[
            "--ask-changes",
            "--note",
            "cite the numbering document",
            "--amendments",
            "0",
        ],
    );
    assert_eq!(code(&asked), 0, "{}", stderr(&asked));
    let amended_file = dir.path().join("amended.toml");
    std::fs::write(
        &amended_file,
        data("formal.toml").replace("sequentially", "sequentially (see the numbering document)"),
    )
    .unwrap();
    let amended = run(
        &["--server", &base, "amend", &id, amended_file.to_str().unwrap()],
        &[("URNREG_TOKEN", &token)],
    );
    assert_eq!(code(&amended), 0, "{}", stderr(&amended));
    assert_eq!(
        stdout(&amended).trim(),
        format!("request {id}: widgetnum version 1 submitted")
    );

    // The expert decides the text they read: the count `status` shows
    // (found in hostile testing). Without it the client asks for it; with the
    // count from before the amendment the server refuses (409).
    let status = run(&["--server", &base, "status", &id], &[("URNREG_TOKEN", &expert)]);
    assert!(
        stdout(&status).contains("amendments 1 (a review names it: --amendments 1)"),
        "{}",
        stdout(&status)
    );
    let unseen = review_as(&expert, &["--approve", "--note", "welcome"]);
    assert_eq!(code(&unseen), 2, "{}", stderr(&unseen));
    assert!(
        stderr(&unseen).contains("needs --amendments N"),
        "{}",
        stderr(&unseen)
    );
    let stale = review_as(&expert, &["--approve", "--note", "welcome", "--amendments", "0"]);
    assert_eq!(code(&stale), 2, "{}", stderr(&stale));
    assert!(stderr(&stale).contains("409"), "{}", stderr(&stale));
    let approved = review_as(&expert, &["--approve", "--note", "welcome", "--amendments", "1"]);
    assert_eq!(code(&approved), 0, "{}", stderr(&approved));
    assert_eq!(
        stdout(&approved).trim(),
        format!("request {id}: widgetnum version 1 approved")
    );

    let status = run(&["--server", &base, "status", &id], &[("URNREG_TOKEN", &token)]);
    assert_eq!(code(&status), 0, "{}", stderr(&status));
    assert!(stdout(&status).contains("approved") && stdout(&status).contains("welcome"));
    let no_token = run(&["--server", &base, "status", &id], &[("URNREG_TOKEN", "")]);
    assert_eq!(code(&no_token), 2);

    // Filed for people: the outcome and the token, and on stderr how to
    // follow the request, every part filled in.
    let informal = Path::new(DATA).join("informal.toml");
    let out = run(&["--server", &base, "request", informal.to_str().unwrap()], &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed = stdout(&out);
    let other = printed
        .strip_prefix("request ")
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("{printed}"))
        .to_string();
    let other_token = printed
        .lines()
        .find_map(|l| l.strip_prefix("token: "))
        .unwrap_or_else(|| panic!("{printed}"))
        .to_string();
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "keep the token: it is shown this once; with URNREG_TOKEN set to it, \
             `urnreg --server {base} status {other}` follows the request"
        )
    );
    let withdrawn = run(
        &["--server", &base, "withdraw", &other, "--note", "filed twice"],
        &[("URNREG_TOKEN", &other_token)],
    );
    assert_eq!(code(&withdrawn), 0, "{}", stderr(&withdrawn));
    assert!(stdout(&withdrawn).contains("withdrawn"), "{}", stdout(&withdrawn));
    // Its status shows the withdrawal and its note (an informal request
    // has no NID whose history would).
    let status = run(
        &["--server", &base, "status", &other, "--format", "json"],
        &[("URNREG_TOKEN", &other_token)],
    );
    assert_eq!(code(&status), 0, "{}", stderr(&status));
    let shown: serde_json::Value = serde_json::from_str(&stdout(&status)).unwrap();
    let last = shown["reviews"]
        .as_array()
        .and_then(|r| r.last())
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (last["decision"].as_str(), last["note"].as_str()),
        (Some("withdraw"), Some("filed twice")),
        "{shown}"
    );

    // SIGTERM: the server finishes and says so; its log has no token.
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let output = server.child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("POST /api/requests 201"), "{log}");
    assert!(
        log.contains(&format!("POST /api/requests/{id}/review 200")),
        "{log}"
    );
    assert!(!log.contains(&token) && !log.contains(&expert), "{log}");

    // The local database has it too: `status` without --server.
    let local = run(&["status", &id, "--db", db_arg], &[]);
    assert!(stdout(&local).contains("approved"), "{}", stdout(&local));
}

/// A fake `urnreg serve` on 127.0.0.1: each connection's request is read
/// (head and announced body), then answered with `answer` (the whole
/// response, status line included), or with nothing at all when it is
/// empty. Returns the base URL.
fn fake_server(answer: Vec<u8>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                let mut buf = [0u8; 4096];
                let head_end = loop {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                    }
                    if let Some(at) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                        break at + 4;
                    }
                };
                let head = String::from_utf8_lossy(&got[..head_end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                while got.len() < head_end + length {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                    }
                }
                if answer.is_empty() {
                    // Silent: hold the connection open past any test.
                    std::thread::sleep(Duration::from_secs(60));
                    return;
                }
                let _ = stream.write_all(&answer);
            });
        }
    });
    base
}

/// A line feed in what a server says (a NID, a status, a token, a
/// refusal's message or finding, a queue row) is written `\x0a`: it
/// cannot forge a line of the client's output (found in hostile testing).
#[test]
fn the_client_prints_a_servers_line_feeds_escaped() {
    let filed = fake_server(canned(
        "201 Created",
        br#"{"id":5,"nid":"acme version 1 submitted\ntoken: forged","version":1,"status":"submitted","token":"t1\nsecond line"}"#,
    ));
    let out = run(
        &["--server", &filed, "request", &format!("{DATA}/formal.toml")],
        &[],
    );
    let text = stdout(&out);
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("token: forged") || l.starts_with("request 6") || l == "second line"),
        "{text}"
    );
    assert!(
        text.contains("acme version 1 submitted\\x0atoken: forged"),
        "{text}"
    );
    assert!(text.contains("token: t1\\x0asecond line"), "{text}");

    let refused = fake_server(canned(
        "422 Unprocessable Entity",
        br#"{"error":{"status":422,"message":"bad\n  - error purpose: forged","findings":[{"field":"a\nb","message":"m","severity":"error"}]}}"#,
    ));
    let out = run(
        &["--server", &refused, "request", &format!("{DATA}/formal.toml")],
        &[],
    );
    let err = stderr(&out);
    assert!(
        !err.lines()
            .any(|l| l.trim_start().starts_with("- error purpose: forged") || l == "b: m"),
        "{err}"
    );
    assert!(err.contains("bad\\x0a"), "{err}");

    let queue = fake_server(canned(
        "200 OK",
        br#"[{"id":1,"nid":"a\n    9  forged","kind":"formal","version":1,"status":"submitted","filed":"2026-01-01","amendments":0,"last_note":null}]"#,
    ));
    let out = run(&["--server", &queue, "queue"], &[("URNREG_TOKEN", "t")]);
    let text = stdout(&out);
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("9  forged")),
        "{text}"
    );
    assert!(text.contains("a\\x0a    9  forged"), "{text}");
}

/// A server's refusal with thousands of findings, each piece huge, is
/// printed as a local refusal is: at most MAX_PROBLEMS_SHOWN findings, each
/// piece cut to MAX_PROBLEM_CHARS (found in hostile testing: a server's
/// 150,000 findings were printed, every one whole).
#[test]
fn the_client_prints_a_servers_many_huge_findings_in_bounded_text() {
    let finding = format!(
        r#"{{"field":"f{}","message":"m{}","rule":"r{}","severity":"error"}}"#,
        "f".repeat(20_000),
        "m".repeat(20_000),
        "r".repeat(20_000)
    );
    let findings = vec![finding; 200].join(",");
    let body = format!(r#"{{"error":{{"status":422,"message":"refused","findings":[{findings}]}}}}"#);
    let refused = fake_server(canned("422 Unprocessable Entity", body.as_bytes()));
    let out = run(
        &["--server", &refused, "request", &format!("{DATA}/formal.toml")],
        &[],
    );
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err:.2000}");
    assert!(err.len() < 400_000, "{} bytes of refusal", err.len());
    assert!(err.contains("MAX_PROBLEM_CHARS = 1000"), "{err:.2000}");
    assert!(
        err.contains("100 more problems not listed (MAX_PROBLEMS_SHOWN = 100)"),
        "{err:.2000}"
    );
}

/// An HTTP/1.1 response with this status line and JSON body.
fn canned(status: &str, body: &[u8]) -> Vec<u8> {
    let mut answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body);
    answer
}

/// Every `--server` command with this answer: (command, exit code, stdout,
/// stderr).
fn each_client_command(base: &str, env: &[(&str, &str)]) -> Vec<(String, i32, String, String)> {
    let filing = Path::new(DATA).join("formal.toml");
    let commands: [&[&str]; 6] = [
        &["status", "1"],
        &["review", "1", "--approve", "--note", "x", "--amendments", "0"],
        &["withdraw", "1"],
        &["amend", "1", filing.to_str().unwrap()],
        &["queue"],
        &["request", filing.to_str().unwrap()],
    ];
    commands
        .iter()
        .map(|c| {
            let mut args = vec!["--server", base];
            args.extend_from_slice(c);
            let mut env = env.to_vec();
            env.push(("URNREG_TOKEN", "x"));
            let out = run(&args, &env);
            (
                c.join(" "),
                out.status.code().unwrap_or(-1),
                stdout(&out),
                stderr(&out),
            )
        })
        .collect()
}

/// A server (or whatever answers at the URL) is not trusted: an answer
/// that is not the JSON the command expects is an error naming it, not a
/// success with zeros in it.
#[test]
fn the_client_refuses_an_answer_that_is_not_what_it_asked_for() {
    for (body, says) in [
        (&b"this is not json"[..], "\"this is not json\""),
        (b"{}", "\"{}\""),
        (b"[1, 2]", "\"[1, 2]\""),
    ] {
        for status in ["200 OK", "201 Created"] {
            let base = fake_server(canned(status, body));
            for (command, code, out, err) in each_client_command(&base, &[]) {
                assert_eq!(code, 2, "{command} {status}: {out} {err}");
                assert!(out.is_empty(), "{command} {status}: {out}");
                assert!(err.contains(says), "{command} {status}: {err}");
                assert!(err.contains("the server answered"), "{command} {status}: {err}");
            }
        }
    }
    let base = fake_server(canned("200 OK", b"{}"));
    let out = run(&["--server", &base, "status", "1"], &[("URNREG_TOKEN", "x")]);
    assert!(stderr(&out).contains("missing field `id`"), "{}", stderr(&out));
    // A long answer is quoted in part.
    let long = "x".repeat(100_000);
    let base = fake_server(canned("200 OK", long.as_bytes()));
    for (command, code, _, err) in each_client_command(&base, &[]) {
        assert_eq!(code, 2, "{command}");
        assert!(
            err.contains("(100000 bytes in all)") && err.len() < 2_000,
            "{command}: {err}"
        );
    }
}

/// The client gives up on a server that never answers (after
/// `$URNREG_TIMEOUT` seconds) and on an answer past `MAX_ANSWER_BYTES`.
#[test]
fn the_client_gives_up_on_a_silent_server_and_on_an_endless_answer() {
    let base = fake_server(Vec::new());
    let started = std::time::Instant::now();
    let out = run(
        &["--server", &base, "status", "1"],
        &[("URNREG_TOKEN", "x"), ("URNREG_TIMEOUT", "1")],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(stderr(&out).contains("no answer within 1 s"), "{}", stderr(&out));
    assert!(stderr(&out).contains("URNREG_TIMEOUT"), "{}", stderr(&out));
    let out = run(
        &["--server", &base, "status", "1"],
        &[("URNREG_TOKEN", "x"), ("URNREG_TIMEOUT", "soon")],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("URNREG_TIMEOUT=soon"), "{}", stderr(&out));

    let mut huge = b"{\"id\": 1, \"notes\": \"".to_vec();
    huge.resize(17 * 1024 * 1024, b'a');
    huge.extend_from_slice(b"\"}");
    let base = fake_server(canned("200 OK", &huge));
    let out = run(&["--server", &base, "status", "1"], &[("URNREG_TOKEN", "x")]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than 16 MiB (MAX_ANSWER_BYTES)"),
        "{}",
        stderr(&out)
    );
}

/// What a server says reaches the terminal with its control characters
/// escaped, as the local commands print stored text: answers, refusals
/// and their findings.
#[test]
fn the_client_escapes_control_characters_in_what_the_server_says() {
    let hostile = "a\\u0000b\\u001b[31m\\u202e\\u0007\\rc";
    let request = format!(
        r#"{{"id": 1, "nid": "acme{hostile}", "version": 1, "status": "changes-requested{hostile}",
            "submitted_at": "2026-01-01T00:00:00Z{hostile}", "decided_at": null, "token": "t{hostile}",
            "reviews": [{{"decision": "ask-changes", "note": "first{hostile}\nsecond{hostile}",
                          "actor": "ada{hostile}", "at": "2026-01-02T00:00:00Z"}}]}}"#
    );
    let queue = format!(
        r#"[{{"id": 1, "nid": null, "version": 1, "status": "submitted{hostile}",
             "filed": "2026{hostile}", "last_note": "note{hostile}"}}]"#
    );
    let refusal = format!(
        r#"{{"error": {{"status": 422, "message": "no{hostile}",
             "findings": [{{"field": "f{hostile}", "message": "m{hostile}", "rule": "r{hostile}", "severity": "error"}}]}}}}"#
    );
    let raw = |text: &str| text.contains(['\u{0}', '\u{1b}', '\u{202e}', '\u{7}', '\r']);
    for (status, body) in [
        ("200 OK", request.as_str()),
        ("201 Created", request.as_str()),
        ("200 OK", queue.as_str()),
        ("422 Unprocessable Entity", refusal.as_str()),
    ] {
        let base = fake_server(canned(status, body.as_bytes()));
        for (command, code, out, err) in each_client_command(&base, &[]) {
            assert!(!raw(&out) && !raw(&err), "{command} {status}: {out:?} {err:?}");
            // What was shown (an answer taken, or the server's refusal) has
            // the escapes; an answer refused as not what was asked is quoted
            // as JSON.
            if code == 0 || status.starts_with("422") {
                assert!(
                    out.contains("\\x1b[31m\\u{202e}") || err.contains("\\x1b[31m\\u{202e}"),
                    "{command} {status}: {out:?} {err:?}"
                );
            }
        }
    }
    let base = fake_server(canned("200 OK", request.as_bytes()));
    let out = run(&["--server", &base, "status", "1"], &[("URNREG_TOKEN", "x")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\n    firsta\\x00b\\x1b[31m\\u{202e}\\x07\\x0dc\n    second"),
        "{}",
        stdout(&out)
    );
    // JSON stays JSON, escaped by JSON's rules.
    let out = run(
        &["--server", &base, "status", "1", "--format", "json"],
        &[("URNREG_TOKEN", "x")],
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reviews"][0]["actor"], "adaa\u{0}b\u{1b}[31m\u{202e}\u{7}\rc");
}

/// A WebDriver session (W3C WebDriver, https://www.w3.org/TR/webdriver2/)
/// with Debian's chromedriver driving headless Chromium.
struct WebDriver {
    driver: std::process::Child,
    base: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl WebDriver {
    fn start(chromedriver: &Path, chromium: &Path) -> WebDriver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let mut ready = false;
        for _ in 0..100 {
            if agent()
                .get(&format!("{base}/status"))
                .call()
                .is_ok_and(|r| r.status() == 200)
            {
                ready = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(ready, "chromedriver did not start");
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1200,900"]
            }
        }}});
        let mut wd = WebDriver {
            driver,
            base,
            session: String::new(),
        };
        let v = wd.call("POST", "/session", Some(caps));
        wd.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        wd
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let body = body.map(|b| b.to_string());
        let a = send(
            method,
            &url,
            &[("content-type", "application/json")],
            body.as_deref().map(str::as_bytes),
        );
        let v = a.json();
        assert_eq!(a.status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(serde_json::json!({ "url": url })));
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(serde_json::json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().unwrap().to_string()
    }

    /// Waits (up to 10 s) until `css` matches an element: after a click
    /// that loads another page, the old page may still be there.
    fn wait(&self, css: &str) {
        self.wait_until(css, |wd| {
            let v = wd.call(
                "POST",
                "/elements",
                Some(serde_json::json!({"using": "css selector", "value": css})),
            );
            !v.as_array().unwrap().is_empty()
        });
    }

    fn wait_until(&self, what: &str, done: impl Fn(&WebDriver) -> bool) {
        for _ in 0..100 {
            if done(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("waited 10 s for {what}: {}", self.source());
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.call(
            "POST",
            &format!("/element/{e}/click"),
            Some(serde_json::json!({})),
        );
    }

    fn type_in(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call(
            "POST",
            &format!("/element/{e}/clear"),
            Some(serde_json::json!({})),
        );
        self.call(
            "POST",
            &format!("/element/{e}/value"),
            Some(serde_json::json!({ "text": text })),
        );
    }

    /// Sets a long text at once (typing 2 KB key by key is slow).
    fn fill(&self, css: &str, text: &str) {
        self.call(
            "POST",
            "/execute/sync",
            Some(serde_json::json!({
                "script": "document.querySelector(arguments[0]).value = arguments[1];",
                "args": [css, text]
            })),
        );
    }

    fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.call("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    fn source(&self) -> String {
        self.call("GET", "/source", None).as_str().unwrap().to_string()
    }

    fn url(&self) -> String {
        self.call("GET", "/url", None).as_str().unwrap().to_string()
    }

    fn delete_cookies(&self) {
        self.call("DELETE", "/cookie", None);
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = send(
                "DELETE",
                &format!("{}/session/{}", self.base, self.session),
                &[],
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[test]
fn a_registration_goes_from_the_form_through_review_to_check_in_headless_chromium() {
    let test = "a_registration_goes_from_the_form_through_review_to_check_in_headless_chromium";
    let Some(chromium) = crate::util::external_tool(&["chromium"], "URNREG_CHROMIUM", test) else {
        return;
    };
    let Some(chromedriver) = crate::util::external_tool(&["chromedriver"], "URNREG_CHROMEDRIVER", test)
    else {
        return;
    };
    let server = Server::start();
    let expert = server.expert("ada");
    let wd = WebDriver::start(&chromedriver, &chromium);

    // A registrant files through the form; lint findings come back inline.
    wd.open(&server.url("/file"));
    wd.fill("#text", &data("bad.toml"));
    wd.click("#file");
    wd.wait("#findings");
    assert!(wd.text("#findings").contains("nid-country-prefix"));
    wd.fill("#text", &data("formal.toml"));
    wd.click("#file");
    wd.wait("#request-id");
    let id = wd.text("#request-id");
    let token = wd.text("#token");
    assert!(token.starts_with("urnreg_r_"), "{token}");

    // An expert signs in and asks for changes.
    wd.delete_cookies();
    wd.open(&server.url("/signin"));
    wd.type_in("#token", &expert);
    wd.click("#signin");
    wd.wait("#queue");
    assert!(wd.url().ends_with("/queue"), "{}", wd.url());
    wd.click(&format!("a[href='/review/{id}']"));
    wd.wait("#diff");
    assert!(wd.text("#diff").contains("Syntax"));
    wd.click("#ask-changes");
    wd.type_in(
        "#note",
        "Please say how widget numbers are assigned in Assignment.",
    );
    wd.click("#decide");
    wd.wait("#reviews");
    assert!(wd.source().contains("changes-requested"));

    // The registrant signs in with their token and reads the note.
    wd.delete_cookies();
    wd.open(&server.url("/signin"));
    wd.type_in("#token", &token);
    wd.click("#signin");
    wd.wait("#status");
    assert!(wd.url().ends_with(&format!("/requests/{id}")), "{}", wd.url());
    assert_eq!(wd.text("#status"), "changes-requested");
    assert!(wd.text("#reviews").contains("how widget numbers are assigned"));
    // ... and amends the text as asked; it goes back to review.
    let amended = data("formal.toml").replace(
        "assigns widget numbers sequentially",
        "assigns widget numbers sequentially, as its numbering document says",
    );
    wd.fill("#text", &amended);
    wd.click("#amend");
    wd.wait_until("the amendment", |wd| {
        wd.source().contains("id=\"status\">submitted<")
    });

    // The expert approves.
    wd.delete_cookies();
    wd.open(&server.url("/signin"));
    wd.type_in("#token", &expert);
    wd.click("#signin");
    wd.wait("#queue");
    wd.open(&server.url(&format!("/review/{id}")));
    assert!(wd.text("#diff").contains("numbering document"));
    wd.click("#approve");
    wd.type_in("#note", "Registered.");
    wd.click("#decide");
    wd.wait_until("the approval", |wd| wd.source().contains("approve</strong>"));
    assert!(wd.text("#reviews").contains("Registered."));

    // The new namespace has its page, and /check applies its rules.
    wd.open(&server.url("/namespaces/widgetnum"));
    assert!(wd.source().contains("urn:widgetnum"));
    wd.open(&server.url("/check"));
    wd.fill("#urns", "urn:widgetnum:w-42\nurn:widgetnum:x-42");
    wd.click("#check");
    wd.wait("#results");
    let results = wd.text("#results");
    assert!(results.contains("urn:widgetnum:w-42 valid"), "{results}");
    assert!(results.contains("nss-syntax"), "{results}");
}

/// Sessions and filing limits live in the database: a second server on the
/// same database (a rolling restart, a second worker) knows the first's
/// session and limit, one started after the first stopped too, and
/// removing the expert signs them out everywhere.
#[test]
fn sessions_and_filing_limits_survive_restarts_and_are_shared_by_processes() {
    // The database outlives every server (each deletes only its own
    // temporary directory).
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("registry.db");
    let on_same_db = |c: &mut Config| {
        c.db = db.clone();
        c.filing_burst = 1;
        c.filings_per_hour = 1;
    };
    let first = Server::start_with(on_same_db);
    let second = Server::start_with(on_same_db);
    let expert = {
        let store = Store::open(&db, "test").unwrap();
        let (_, token) = tokens::add_expert(store.connection(), "ada").unwrap();
        token.reveal().to_string()
    };
    let mut e = Browser::default();
    e.get(&first.url("/signin"));
    let csrf = e.csrf();
    let a = e.post(&first.url("/signin"), &[("csrf", &csrf), ("token", &expert)]);
    assert_eq!(a.status, 303);
    assert_eq!(
        e.get(&second.url("/queue")).status,
        200,
        "the other process knows the session"
    );

    file(&first, &data("informal.toml"));
    let a = send(
        "POST",
        &second.url("/api/requests"),
        &[],
        Some(data("formal.toml").as_bytes()),
    );
    assert_eq!(a.status, 429, "the other process knows the limit: {}", a.body);

    drop(first);
    drop(second);
    let restarted = Server::start_with(on_same_db);
    assert_eq!(
        e.get(&restarted.url("/queue")).status,
        200,
        "still signed in after a restart"
    );
    let a = send(
        "POST",
        &restarted.url("/api/requests"),
        &[],
        Some(data("formal.toml").as_bytes()),
    );
    assert_eq!(a.status, 429, "the limit holds after a restart");

    let store = Store::open(&db, "test").unwrap();
    tokens::remove_expert(store.connection(), "ada").unwrap();
    let left: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM service_sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0, "signed out everywhere");
    assert_ne!(e.get(&restarted.url("/queue")).status, 200);
}

/// Slow headers get 408 and are closed; an idle kept-alive connection is
/// closed quietly; a slow body is the request time limit's (503), not the
/// header timeout's.
#[test]
fn slow_headers_get_408_and_idle_connections_are_closed() {
    let server = Server::start_with(|c| {
        c.limits.header_timeout = Duration::from_millis(400);
        c.limits.idle_timeout = Duration::from_millis(700);
        c.request_timeout = Duration::from_secs(3);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut slow = std::net::TcpStream::connect(&addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(slow, "GET /api/namespaces HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let _ = slow.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    let mut idle = std::net::TcpStream::connect(&addr).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let _ = idle.read_to_string(&mut answer);
    assert_eq!(answer, "", "closed quietly");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(600) && waited < Duration::from_secs(3),
        "{waited:?}"
    );

    // A request answered, then the connection idles out.
    let mut kept = std::net::TcpStream::connect(&addr).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(kept, "GET /api/namespaces/isbn HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = kept.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");

    // A body slower than the header timeout is the handler's business.
    let mut body = std::net::TcpStream::connect(&addr).unwrap();
    body.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        body,
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 40\r\n\r\nurn:isbn:"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = body.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
}

/// A server capped at `max_connections` at once and `per_client` from
/// one address, whose header timeout outlasts a test's flood; and its
/// address.
fn capped_server(max_connections: usize, per_client: usize) -> (Server, String) {
    let server = Server::start_with(|c| {
        c.limits.max_connections = max_connections;
        c.limits.max_per_client = per_client;
        c.limits.header_timeout = Duration::from_secs(30);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    (server, addr)
}

/// `n` connections to `addr`, each sending `head` (the start of a request
/// head, or nothing) and no more.
fn connections(addr: &str, n: usize, head: &str) -> Vec<std::net::TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(addr).unwrap();
            let _ = s.write_all(head.as_bytes());
            s
        })
        .collect()
}

/// The start of a request head that never ends (a slow client's).
fn half_sent(addr: &str) -> String {
    format!("GET /api/namespaces HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ")
}

/// A flood of connections that never finish their headers, more than the
/// cap, cannot keep another client out: the oldest of them are closed to
/// make room, and the flood's sockets never exceed the cap.
#[test]
fn a_slow_client_flood_over_the_cap_does_not_keep_others_out() {
    const CAP: usize = 32;
    let (server, addr) = capped_server(CAP, CAP);
    let flood = connections(&addr, 4 * CAP, &half_sent(&addr));
    std::thread::sleep(Duration::from_millis(300));
    // Connections the server closed read as ended at once.
    let open = flood
        .iter()
        .filter(|s| {
            s.set_nonblocking(true).unwrap();
            let mut byte = [0u8; 1];
            matches!((&**s).read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
        })
        .count();
    assert!(open <= CAP, "{open} of the flood still open, cap {CAP}");
    for _ in 0..5 {
        let started = std::time::Instant::now();
        let a = get(&server.url("/api/namespaces/isbn"));
        assert_eq!(a.status, 200);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    drop(flood);
}

/// A client that has been answered and keeps its connection between
/// requests is the last to lose it to a flood of half-sent requests from
/// its own address: the flood's connections go first.
#[test]
fn a_flood_from_the_same_address_closes_its_own_connections_before_a_working_client() {
    const CAP: usize = 16;
    let (_server, addr) = capped_server(1024, CAP);
    let mut client = std::net::TcpStream::connect(&addr).unwrap();
    client.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    // One request and its whole answer (read up to its Content-Length).
    let ask = |client: &mut std::net::TcpStream| -> String {
        write!(
            client,
            "GET /api/namespaces/isbn HTTP/1.1\r\nHost: {addr}\r\n\r\n"
        )
        .unwrap();
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while !seen.ends_with(b"\r\n\r\n") {
            if client.read(&mut byte).unwrap_or(0) == 0 {
                return String::from_utf8_lossy(&seen).into_owned();
            }
            seen.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&seen).into_owned();
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap_or(0);
        let mut body = vec![0u8; length];
        client.read_exact(&mut body).unwrap();
        head
    };
    assert!(ask(&mut client).starts_with("HTTP/1.1 200"));
    let flood = connections(&addr, 4 * CAP, &half_sent(&addr));
    std::thread::sleep(Duration::from_millis(300));
    let again = ask(&mut client);
    assert!(
        again.starts_with("HTTP/1.1 200"),
        "the working client lost its connection: {again:?}"
    );
    drop(flood);
}

/// A flood of silent connections (they connect and send nothing) does
/// not cost a client its request whose head is arriving: the connections
/// that have waited longest without an answer go first.
#[test]
fn a_silent_flood_closes_its_own_older_connections_before_a_request_under_way() {
    const CAP: usize = 8;
    let (_server, addr) = capped_server(1024, CAP);
    let older = connections(&addr, CAP, "");
    std::thread::sleep(Duration::from_millis(150));
    let mut client = std::net::TcpStream::connect(&addr).unwrap();
    client.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(client, "GET /api/namespaces/isbn HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(150));
    let newer = connections(&addr, CAP / 2, "");
    std::thread::sleep(Duration::from_millis(300));
    write!(client, "Connection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = client.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "the request under way was closed: {answer:?}"
    );
    drop((older, newer));
}

/// The status line a new connection gets for a `GET`, or why it got none.
fn probe(addr: &str) -> String {
    let attempt = || -> std::io::Result<String> {
        let mut s = std::net::TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(5)))?;
        write!(
            s,
            "GET /api/namespaces/isbn HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut answer = String::new();
        s.read_to_string(&mut answer)?;
        Ok(answer
            .lines()
            .next()
            .unwrap_or("(closed without an answer)")
            .to_string())
    };
    attempt().unwrap_or_else(|e| format!("({e})"))
}

/// A flood of requests whose headers are complete and whose bodies
/// trickle in, more than the cap, cannot keep another client out: past
/// a second's grace a body slower than the minimum rate may be closed
/// (408) to make room. A body that stops altogether gets 408 after the
/// body timeout, long before the request time limit.
#[test]
fn a_slow_body_flood_over_the_cap_does_not_keep_others_out() {
    const CAP: usize = 8;
    let server = Server::start_with(|c| {
        c.limits.max_connections = CAP;
        c.limits.max_per_client = CAP;
        c.limits.header_timeout = Duration::from_secs(30);
        c.limits.body_timeout = Duration::from_secs(30);
        c.limits.min_body_rate = 1024;
        c.request_timeout = Duration::from_secs(30);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut flood: Vec<_> = (0..CAP)
        .map(|_| stalled_body(&addr, "/api/check", 100_000, 1))
        .collect();
    // The bodies trickle (a byte each 200 ms) past the grace second.
    for _ in 0..7 {
        std::thread::sleep(Duration::from_millis(200));
        for s in &mut flood {
            let _ = s.write_all(b"u");
        }
    }
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let answer = probe(&addr);
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "a client was kept out: {answer}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }
    // The slow bodies closed to make room were told why.
    let told = flood
        .iter()
        .filter(|s| {
            s.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
            let mut answer = [0u8; 12];
            (&**s).read_exact(&mut answer).is_ok() && &answer == b"HTTP/1.1 408"
        })
        .count();
    assert!(told >= 1, "no slow body got 408");
    drop(flood);

    // A body that stops gets 408 after the body timeout.
    let server = Server::start_with(|c| {
        c.limits.body_timeout = Duration::from_millis(500);
        c.request_timeout = Duration::from_secs(20);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stopped = stalled_body(&addr, "/api/requests", 1000, 10);
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let _ = stopped.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // A body that keeps coming, slower than the body timeout in all, is
    // served (each part well inside the timeout, so that a loaded
    // machine's late wake-ups do not count).
    let server = Server::start_with(|c| {
        c.limits.body_timeout = Duration::from_millis(1500);
        c.request_timeout = Duration::from_secs(20);
    });
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut steady = stalled_body(&addr, "/api/check", 40, 0);
    for part in ["urn:isb", "n:04514", "50523\n", "urn:isb", "n:04514", "50523\n"] {
        std::thread::sleep(Duration::from_millis(400));
        steady.write_all(part.as_bytes()).unwrap();
    }
    let mut answer = [0u8; 12];
    steady.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
}

/// Issue "findings a person can read": every page has the one navigation
/// bar; a namespace page offers a check of its rules' examples; the
/// verdicts link a rule's finding to the rules, and on a phone each
/// result is a card.
#[test]
fn pages_share_one_navigation_and_check_from_a_namespace_page_in_headless_chromium() {
    let test = "pages_share_one_navigation_and_check_from_a_namespace_page_in_headless_chromium";
    let Some(chromium) = crate::util::external_tool(&["chromium"], "URNREG_CHROMIUM", test) else {
        return;
    };
    let Some(chromedriver) = crate::util::external_tool(&["chromedriver"], "URNREG_CHROMEDRIVER", test)
    else {
        return;
    };
    let server = Server::start();
    let wd = WebDriver::start(&chromedriver, &chromium);
    let nav_of = |path: &str| {
        wd.open(&server.url(path));
        wd.wait("nav.site");
        let links = wd.call(
            "POST",
            "/execute/sync",
            Some(serde_json::json!({
                "script": "return Array.from(document.querySelectorAll('nav.site a')).slice(0, 4).map(a => a.getAttribute('href') + ' ' + a.textContent).join(', ');",
                "args": []
            })),
        );
        links.as_str().unwrap().to_string()
    };
    let index = nav_of("/");
    assert!(index.contains("/check Check URNs"), "{index}");
    for path in ["/check", "/file", "/signin", "/namespaces/isbn"] {
        assert_eq!(nav_of(path), index, "the navigation of {path}");
    }
    // The namespace page's form holds its rules' examples; its verdicts
    // link the rules' findings to the rules.
    wd.open(&server.url("/namespaces/isbn"));
    wd.wait("form.try");
    let prefilled = wd.call(
        "POST",
        "/execute/sync",
        Some(serde_json::json!({"script": "return document.querySelector('form.try textarea').value;", "args": []})),
    );
    let prefilled = prefilled.as_str().unwrap().to_string();
    assert!(prefilled.contains("urn:isbn:"), "{prefilled}");
    wd.click("#try");
    wd.wait("#results");
    assert!(
        wd.text("#results").contains("invalid"),
        "the examples hold invalid ones too"
    );
    assert!(
        wd.source().contains("href=\"/namespaces/isbn#rules\""),
        "a finding of the rules links to them"
    );
    // A phone: each result is a card, no wider than the screen.
    wd.call(
        "POST",
        "/window/rect",
        Some(serde_json::json!({"width": 380, "height": 800})),
    );
    let layout = wd.call(
        "POST",
        "/execute/sync",
        Some(serde_json::json!({
            "script": "var r = document.querySelector('#results tbody tr'); return getComputedStyle(r).display + ' ' + (document.documentElement.scrollWidth <= window.innerWidth + 1);",
            "args": []
        })),
    );
    assert_eq!(layout.as_str(), Some("block true"), "{layout}");
}

/// Issue 22: RFC 2169 section 3 over HTTP, with the namespaces' shipped
/// resolution; equivalent URNs get identical answers.
#[test]
fn uri_res_and_resolve_answer_as_rfc_2169_says() {
    let server = Server::start();
    let a = get(&server.url("/uri-res/N2L?urn:ietf:rfc:8141"));
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(
        a.header("location"),
        Some("https://www.rfc-editor.org/rfc/rfc8141")
    );
    let b = get(&server.url("/uri-res/I2L?URN:IETF:RFC:8141"));
    assert_eq!((b.status, b.header("location")), (303, a.header("location")));
    let list = get(&server.url("/uri-res/N2Ls?urn:ietf:rfc:8141"));
    assert_eq!(list.status, 200);
    assert_eq!(list.header("content-type"), Some("text/uri-list"));
    // RFC 2169 Appendix A: the first line is a comment giving the URN.
    assert_eq!(
        list.body,
        "# urn:ietf:rfc:8141\r\nhttps://www.rfc-editor.org/rfc/rfc8141\r\nhttps://datatracker.ietf.org/doc/rfc8141\r\n"
    );
    let upper = get(&server.url("/uri-res/N2Ls?URN:IETF:RFC:8141"));
    assert_eq!(
        upper.body.lines().skip(1).collect::<Vec<_>>(),
        list.body.lines().skip(1).collect::<Vec<_>>()
    );
    assert!(
        upper.body.starts_with("# URN:IETF:RFC:8141\r\n"),
        "{}",
        upper.body
    );
    // Not offered by the namespace, or no such service: 501.
    assert_eq!(get(&server.url("/uri-res/I2C?urn:ietf:rfc:8141")).status, 501);
    assert_eq!(get(&server.url("/uri-res/X2Y?urn:ietf:rfc:8141")).status, 501);
    // RFC 2169's L2N and L2L take a URL: not a service here, whatever the
    // query holds (not 400 for a URL that is no URN).
    assert_eq!(get(&server.url("/uri-res/L2Ns?http://example.com/x")).status, 501);
    // Invalid: 400 with the finding; unregistered, no resolver, not covered: 404.
    let bad = get(&server.url("/uri-res/N2L?urn:isbn:0451450524"));
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("nss-check"), "{}", bad.body);
    for urn in ["urn:isnb:0451450523", "urn:isbn:0451450523", "urn:nbn:xx-1"] {
        assert_eq!(
            get(&server.url(&format!("/uri-res/N2L?{urn}"))).status,
            404,
            "{urn}"
        );
    }
    // The short form honours ?+s=, and falls back to the default (URN
    // draft 2012 section 2.3) when the namespace does not offer it.
    let short = get(&server.url("/resolve/urn:nbn:fi-fe19981001"));
    assert_eq!(
        (short.status, short.header("location")),
        (303, Some("https://urn.fi/urn:nbn:fi-fe19981001"))
    );
    // A URN sent percent-encoded whole (encodeURIComponent) is decoded
    // once; one written as is keeps its own %XX.
    let encoded = get(&server.url("/resolve/urn%3Anbn%3Afi-fe19981001"));
    assert_eq!(encoded.header("location"), short.header("location"));
    let encoded = get(&server.url("/uri-res/N2L?URN%3AIETF%3ARFC%3A8141"));
    assert_eq!(encoded.header("location"), a.header("location"));
    assert_eq!(get(&server.url("/resolve/urn%3Aietf%3Arfc%3A%FF")).status, 400);
    let listed = get(&server.url("/resolve/urn:ietf:rfc:2648?+s=I2Ls"));
    assert_eq!(
        (listed.status, listed.header("content-type")),
        (200, Some("text/uri-list"))
    );
    let fallback = get(&server.url("/resolve/urn:isni:0000000121241960?+s=I2C"));
    assert_eq!(fallback.status, 303);
    assert_eq!(
        fallback.header("location"),
        Some("https://isni.org/isni/0000000121241960")
    );
    assert!(
        fallback
            .header("x-urnreg-note")
            .is_some_and(|n| n.contains("I2C"))
    );
    // The sub-registries, as the CLI lists them.
    let services = get(&server.url("/api/services")).json();
    assert!(
        services
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "I2L" && s["aliases"][0] == "N2L")
    );
    let keywords = get(&server.url("/api/keywords")).json();
    assert_eq!(keywords[0]["keyword"], "s");
    // HTTP/1.0 gets 302.
    let mut stream =
        std::net::TcpStream::connect(server.url("").trim_start_matches("http://").trim_end_matches('/'))
            .unwrap();
    std::io::Write::write_all(
        &mut stream,
        b"GET /uri-res/N2L?urn:ietf:rfc:8141 HTTP/1.0\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.0 302") || answer.starts_with("HTTP/1.1 302"),
        "{answer}"
    );
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("location: https://www.rfc-editor.org/rfc/rfc8141"),
        "{answer}"
    );
}

/// Sends `head` (a request's head, without the blank line) on a raw
/// socket and returns the whole answer.
fn raw(server: &Server, head: &str) -> String {
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "{head}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// RFC 9112 section 3.2: an HTTP/1.1 request without a Host header
/// field, or with two, is answered 400; HTTP/1.0 needs none.
#[test]
fn a_request_without_one_host_is_refused_with_400() {
    let server = Server::start();
    let a = raw(&server, "GET /api/namespaces/isbn HTTP/1.1");
    assert!(a.starts_with("HTTP/1.1 400"), "{a}");
    assert!(a.contains("RFC 9112 section 3.2"), "{a}");
    let a = raw(&server, "GET /api/namespaces/isbn HTTP/1.1\r\nHost: a\r\nHost: b");
    assert!(a.starts_with("HTTP/1.1 400"), "{a}");
    let a = raw(&server, "GET /api/namespaces/isbn HTTP/1.1\r\nHost: localhost");
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    let a = raw(&server, "GET /api/namespaces/isbn HTTP/1.0");
    assert!(
        a.starts_with("HTTP/1.0 200") || a.starts_with("HTTP/1.1 200"),
        "{a}"
    );
}

/// Sends `head` and then `body` on a raw socket and returns the whole
/// answer, lossily as text.
fn raw_with_body(server: &Server, head: &str, body: &[u8]) -> String {
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "{head}\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    // A server that refuses before reading the body may close first.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// A body in a coding the server does not decode is refused, naming the
/// coding, never read as plain bytes (found in hostile testing: `POST /api/check`
/// with `Content-Encoding: gzip` or `Transfer-Encoding: gzip, chunked`
/// answered 200 with verdicts on the compressed bytes; a gzipped filing
/// was "not UTF-8").
#[test]
fn a_body_in_a_coding_the_server_does_not_decode_is_refused() {
    let server = Server::start();
    let urn = "urn:isbn:0451450523";
    let chunked = format!("{:x}\r\n{urn}\r\n0\r\n\r\n", urn.len());
    // Bytes that gzip would start with: never looked at.
    let gzipped: &[u8] = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03";
    let with_length = |path: &str, headers: &str, body: &[u8]| {
        raw_with_body(
            &server,
            &format!(
                "POST {path} HTTP/1.1\r\n{headers}\r\nContent-Length: {}",
                body.len()
            ),
            body,
        )
    };
    for (what, answer, status, names) in [
        (
            "content-encoding gzip, a check",
            with_length("/api/check", "Content-Encoding: gzip", gzipped),
            "415",
            "Content-Encoding 'gzip'",
        ),
        (
            "content-encoding br, a filing",
            with_length("/api/requests", "Content-Encoding: br", gzipped),
            "415",
            "Content-Encoding 'br'",
        ),
        (
            "content-encoding identity then gzip",
            with_length(
                "/api/check",
                "Content-Encoding: identity\r\nContent-Encoding: gzip",
                gzipped,
            ),
            "415",
            "Content-Encoding 'identity, gzip'",
        ),
        (
            "transfer-encoding gzip, chunked",
            raw_with_body(
                &server,
                "POST /api/check HTTP/1.1\r\nTransfer-Encoding: gzip, chunked",
                chunked.as_bytes(),
            ),
            "501",
            "Transfer-Encoding 'gzip, chunked'",
        ),
        (
            "transfer-encoding chunked twice",
            raw_with_body(
                &server,
                "POST /api/check HTTP/1.1\r\nTransfer-Encoding: chunked, chunked",
                chunked.as_bytes(),
            ),
            "501",
            "Transfer-Encoding 'chunked, chunked'",
        ),
    ] {
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{what}: {answer}"
        );
        assert!(answer.contains(names), "{what}: {answer}");
        let lower = answer.to_ascii_lowercase();
        assert!(lower.contains("connection: close"), "{what}: {answer}");
        assert!(lower.contains("accept-encoding: identity"), "{what}: {answer}");
        assert!(answer.contains("{\"error\":{\"status\":"), "{what}: {answer}");
    }
    // What the server does decode goes on as before.
    for (what, answer) in [
        (
            "chunked",
            raw_with_body(
                &server,
                "POST /api/check HTTP/1.1\r\nTransfer-Encoding: chunked",
                chunked.as_bytes(),
            ),
        ),
        (
            "content-encoding identity",
            with_length("/api/check", "Content-Encoding: identity", urn.as_bytes()),
        ),
        (
            "a coding named on a request without a body",
            raw(
                &server,
                "GET /api/namespaces/isbn HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip",
            ),
        ),
    ] {
        assert!(answer.starts_with("HTTP/1.1 200 "), "{what}: {answer}");
    }
    let refused = server
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.ends_with(" 415") || l.ends_with(" 501"))
        .count();
    assert_eq!(refused, 5, "{:?}", server.log.lock().unwrap());
}

/// A refusal quotes what it refuses cut to a bounded length (found in
/// hostile testing: a filing whose date was 900,000 digits was answered with
/// 900 KB quoting it whole).
#[test]
fn a_refused_filing_quotes_its_values_cut_to_a_bounded_length() {
    let server = Server::start();
    let text = data("formal.toml").replacen(
        "date = \"2026-11-01\"",
        &format!("date = \"{}\"", "9".repeat(900_000)),
        1,
    );
    assert!(text.len() > 900_000, "the date is in the file");
    let a = send(
        "POST",
        &server.url("/api/requests"),
        &[("content-type", "application/toml")],
        Some(text.as_bytes()),
    );
    assert_eq!(a.status, 422, "{:.500}", a.body);
    assert!(a.body.len() < 20_000, "{} bytes: {:.500}", a.body.len(), a.body);
    assert!(a.body.contains("MAX_PROBLEM_CHARS"), "{:.2000}", a.body);
}

/// A 405 quotes the method and the path it refuses cut short, and the
/// access log the method (found in hostile testing: a method of 70,000 bytes
/// was quoted whole in the answer and logged whole).
#[test]
fn a_405_quotes_a_long_method_and_path_cut_short() {
    let server = Server::start();
    let method = "A".repeat(70_000);
    let path = format!("/api/namespaces/{}", "b".repeat(30));
    for (path, json) in [(path.as_str(), true), ("/check", false)] {
        let a = raw(&server, &format!("{method} {path} HTTP/1.1\r\nHost: a"));
        assert!(a.starts_with("HTTP/1.1 405 "), "{:.300}", a);
        assert!(a.len() < 4_000, "{} bytes: {:.300}", a.len(), a);
        let quoted = format!("{}...", "A".repeat(32));
        assert!(a.contains(&quoted), "{a}");
        assert_eq!(a.contains("{\"error\":"), json, "{a}");
    }
    let log = server.log.lock().unwrap();
    assert!(log.iter().all(|l| l.len() < 200), "{log:?}");
}
