//! The command line as a client of `urnreg serve`: with `--server URL`
//! `request`, `amend`, `withdraw`, `status`, `queue` and `review` go to the server
//! instead of a local database, with the token from `$URNREG_TOKEN`. The
//! answers are printed as the local commands print them; a refusal exits 2
//! with the server's message and findings.
//!
//! The server is not trusted: an answer must parse as the object the
//! command expects (else exit 2, naming the answer), every text from it is
//! printed with its control characters escaped, an answer is read up to
//! [`MAX_ANSWER_BYTES`], and a call gives up after `$URNREG_TIMEOUT`
//! seconds ([`DEFAULT_TIMEOUT_SECS`]; connecting, [`CONNECT_TIMEOUT_SECS`]).

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::lifecycle::{Queue, write_queue};
use super::output::{self, printable, printable_line};
use super::{Command, Format, FormatParser, UsageError};
use urnreg::registry::{MAX_PROBLEMS_SHOWN, Problem};

/// The environment variable holding the token.
const TOKEN_VAR: &str = "URNREG_TOKEN";

/// The environment variable holding the time limit of one call, in seconds.
const TIMEOUT_VAR: &str = "URNREG_TIMEOUT";

/// How long one call to the server may take in all (connecting, sending,
/// waiting for and reading the answer), unless `$URNREG_TIMEOUT` says.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// How long connecting may take (within the whole call's time).
pub const CONNECT_TIMEOUT_SECS: u64 = 10;

/// The largest answer read from the server: a request's JSON holds a
/// registration (at most 1 MiB, up to six times that when every character
/// is escaped), a queue a few hundred bytes per request.
pub const MAX_ANSWER_BYTES: u64 = 16 * 1024 * 1024;

/// How much of an answer that is not what was expected an error quotes.
const QUOTED_CHARS: usize = 200;

/// A server's answer: the status and the body as text.
struct Answer {
    status: u16,
    text: String,
}

struct Client {
    agent: ureq::Agent,
    base: String,
    token: Option<String>,
    /// `$URNREG_TOKEN` is set but is not UTF-8 (said when a token is needed).
    token_not_utf8: bool,
    timeout: u64,
}

/// The base URL of `--server`, checked before anything is sent: `http://`
/// or `https://`, a host, a port from 1 to 65535 if one is written (the
/// HTTP library took a larger one for none and connected to port 80 with
/// the token), no user name or password (not sent: refused rather than
/// dropped) and no query or fragment (the API path would land in it, RFC
/// 3986 section 3). Without its trailing slashes.
fn base_url(server: &str) -> Result<String, UsageError> {
    let refuse = |why: String| UsageError(format!("--server '{}' {why}", printable_line(server)));
    let base = server.trim_end_matches('/');
    let Some(rest) = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("https://"))
    else {
        return Err(refuse("is not an http:// or https:// URL".into()));
    };
    if rest.contains(['?', '#']) {
        return Err(refuse(
            "has a query or fragment ('?' or '#'): give the server's base URL, to which urnreg adds /api/..."
                .into(),
        ));
    }
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    if authority.contains('@') {
        return Err(refuse(
            "holds a user name or password (before '@'), which urnreg does not send: remove it \
             (the server knows you by the token in $URNREG_TOKEN)"
                .into(),
        ));
    }
    // Whatever else a URL may not hold (spaces, control characters), as
    // the HTTP library reads it.
    base.parse::<ureq::http::Uri>()
        .map_err(|e| refuse(format!("is not a valid URL: {e}")))?;
    let (host, port) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => authority.split_at(end + 1),
            None => return Err(refuse("has an unclosed '[' in its host".into())),
        }
    } else {
        authority.split_at(authority.rfind(':').unwrap_or(authority.len()))
    };
    if host.is_empty() || host == "[]" {
        return Err(refuse("names no host".into()));
    }
    if !port.is_empty() {
        let digits = port.strip_prefix(':').unwrap_or(port);
        if digits.is_empty() {
            return Err(refuse("has no port after its ':'".into()));
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(refuse(format!(
                "has '{}' as its port: a port is a number from 1 to 65535",
                printable_line(digits)
            )));
        }
        match digits.parse::<u16>() {
            Ok(1..) => {}
            Ok(0) => return Err(refuse("names port 0: a port is a number from 1 to 65535".into())),
            Err(_) => return Err(refuse(format!("names port {digits}, above 65535"))),
        }
    }
    Ok(base.to_string())
}

/// The time limit of one call: `$URNREG_TIMEOUT` (whole seconds, at least
/// 1), else [`DEFAULT_TIMEOUT_SECS`].
fn timeout_secs() -> anyhow::Result<u64> {
    let Some(value) = std::env::var_os(TIMEOUT_VAR) else {
        return Ok(DEFAULT_TIMEOUT_SECS);
    };
    let text = value.to_string_lossy();
    match text.trim().parse::<u64>() {
        Ok(secs) if (1..=86_400).contains(&secs) => Ok(secs),
        _ => Err(UsageError(format!(
            "{TIMEOUT_VAR}={text}: expected whole seconds from 1 to 86400"
        ))
        .into()),
    }
}

impl Client {
    fn new(server: &str) -> anyhow::Result<Client> {
        let base = base_url(server)?;
        let timeout = timeout_secs()?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(timeout)))
            .timeout_connect(Some(Duration::from_secs(CONNECT_TIMEOUT_SECS.min(timeout))))
            .build();
        let (token, token_not_utf8) = match std::env::var(TOKEN_VAR) {
            Ok(t) => (Some(t).filter(|t| !t.trim().is_empty()), false),
            Err(std::env::VarError::NotPresent) => (None, false),
            Err(std::env::VarError::NotUnicode(_)) => (None, true),
        };
        Ok(Client {
            agent: config.into(),
            base,
            token,
            token_not_utf8,
            timeout,
        })
    }

    /// A transport error, saying what was asked of whom; a timeout names
    /// its limit.
    fn failed(&self, what: &str, error: ureq::Error) -> anyhow::Error {
        match error {
            ureq::Error::Timeout(_) => anyhow::anyhow!(
                "{what} ({}): no answer within {} s (the time limit of a call, ${TIMEOUT_VAR}; default {DEFAULT_TIMEOUT_SECS})",
                self.base,
                self.timeout
            ),
            ureq::Error::BodyExceedsLimit(_) => anyhow::anyhow!(
                "{what} ({}): the server's answer is larger than {} MiB (MAX_ANSWER_BYTES)",
                self.base,
                MAX_ANSWER_BYTES / (1024 * 1024)
            ),
            e => anyhow::Error::new(e).context(format!("{what} ({})", self.base)),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn token(&self) -> anyhow::Result<&str> {
        if self.token_not_utf8 {
            return Err(UsageError(format!(
                "{TOKEN_VAR} is set but is not valid UTF-8: set it to your token as the server gave it"
            ))
            .into());
        }
        self.token
            .as_deref()
            .map(str::trim)
            .ok_or_else(|| UsageError(format!("set {TOKEN_VAR} to your token for this command")).into())
    }

    fn finish(
        &self,
        what: &str,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> anyhow::Result<Answer> {
        let mut response = response.map_err(|e| self.failed(what, e))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER_BYTES)
            .lossy_utf8(true)
            .read_to_string()
            .map_err(|e| self.failed(&format!("reading the answer to {what}"), e))?;
        Ok(Answer { status, text })
    }

    fn get(&self, path: &str, auth: bool) -> anyhow::Result<Answer> {
        let mut req = self.agent.get(&self.url(path));
        if auth {
            req = req.header("Authorization", &format!("Bearer {}", self.token()?));
        }
        self.finish(&format!("GET {path}"), req.call())
    }

    /// PUT or DELETE with a body, as the request's registrant.
    fn send(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> anyhow::Result<Answer> {
        let request = ureq::http::Request::builder()
            .method(method)
            .uri(self.url(path))
            .header("Content-Type", content_type)
            .header("Authorization", format!("Bearer {}", self.token()?))
            .body(body.to_vec())
            .context("building the request")?;
        self.finish(&format!("{method} {path}"), self.agent.run(request))
    }

    fn post(&self, path: &str, auth: bool, content_type: &str, body: &[u8]) -> anyhow::Result<Answer> {
        let mut req = self
            .agent
            .post(&self.url(path))
            .header("Content-Type", content_type);
        if auth {
            req = req.header("Authorization", &format!("Bearer {}", self.token()?));
        }
        self.finish(&format!("POST {path}"), req.send(body))
    }
}

/// The request id a remote command names (the server knows requests by id).
fn request_id(target: &str, command: &str) -> anyhow::Result<i64> {
    target.parse().map_err(|_| {
        UsageError(format!(
            "with --server, {command} takes a request id, not '{target}'"
        ))
        .into()
    })
}

#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The request id.
    id: i64,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json]))]
    format: Format,
    #[command(flatten)]
    db: super::db::DbArgs,
}
/// `text`, quoted for an error message: JSON-escaped and cut after
/// [`QUOTED_CHARS`] characters (saying how long it was).
fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED_CHARS {
        return Value::String(text.to_string()).to_string();
    }
    let cut: String = text.chars().take(QUOTED_CHARS).collect();
    format!("{}... ({} bytes in all)", Value::String(cut), text.len())
}

/// `text` as a refusal shows a problem's field or message: its middle cut
/// past `MAX_PROBLEM_CHARS`, naming the limit.
fn cut(text: &str) -> String {
    Problem {
        field: text.to_string(),
        message: String::new(),
    }
    .shown()
    .field
}

/// An error answer as the local commands report a refusal (exit 2).
fn refusal(answer: &Answer) -> anyhow::Error {
    let body: Value = serde_json::from_str(&answer.text).unwrap_or(Value::Null);
    let error = body.get("error");
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .map(|m| m.chars().take(4 * QUOTED_CHARS).collect::<String>())
        .unwrap_or_else(|| quoted(&answer.text));
    // Each piece on its line: a line feed in what a server says must not
    // forge a finding or a line of its own.
    let mut text = format!(
        "the server answered {}: {}",
        answer.status,
        printable_line(&message)
    );
    // A refusal lists what a local one would: at most MAX_PROBLEMS_SHOWN
    // findings, each piece cut to MAX_PROBLEM_CHARS (found in hostile testing:
    // a server's 150,000 findings were all printed, each piece whole).
    let findings: &[Value] = error
        .and_then(|e| e.get("findings"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    for f in findings.iter().take(MAX_PROBLEMS_SHOWN) {
        let piece = |key: &str, default: &'static str| {
            let text = f.get(key).and_then(Value::as_str).unwrap_or(default);
            printable_line(&cut(text)).into_owned()
        };
        let (field, message, severity) = (
            piece("field", "?"),
            piece("message", "?"),
            piece("severity", "error"),
        );
        let rule = f
            .get("rule")
            .and_then(Value::as_str)
            .map(|r| printable_line(&cut(r)).into_owned());
        match rule {
            Some(rule) => text.push_str(&format!("\n  - {severity} {field}: {message} [{rule}]")),
            None => text.push_str(&format!("\n  - {field}: {message}")),
        }
    }
    if findings.len() > MAX_PROBLEMS_SHOWN {
        text.push_str(&format!(
            "\n  - ...: {} more problems not listed (MAX_PROBLEMS_SHOWN = {MAX_PROBLEMS_SHOWN})",
            findings.len() - MAX_PROBLEMS_SHOWN
        ));
    }
    // Printed through `output::print_error`, which escapes control
    // characters.
    anyhow::anyhow!(text)
}

/// The answer to a call that succeeded, as `T` (what the command expects);
/// an answer that is not one is an error naming it.
fn expect<T: DeserializeOwned>(answer: &Answer, what: &str, expected: &str) -> anyhow::Result<(T, Value)> {
    let parsed = serde_json::from_str::<Value>(&answer.text)
        .and_then(|value| T::deserialize(&value).map(|t| (t, value)));
    parsed.map_err(|e| {
        anyhow::anyhow!(
            "the server answered {} to {what}, but not with {expected} ({e}): {}",
            answer.status,
            quoted(&answer.text)
        )
    })
}

/// What `request`, `amend`, `withdraw` and `review` answer: the request's
/// outcome (`Outcome`; with `token` for a filing).
#[derive(Deserialize)]
struct OutcomeAnswer {
    id: i64,
    nid: Option<String>,
    status: String,
    version: i64,
}

/// What `request` answers: the outcome and the registrant's token.
#[derive(Deserialize)]
struct FiledAnswer {
    #[serde(flatten)]
    outcome: OutcomeAnswer,
    token: String,
}

/// A request as `GET /api/requests/{id}` shows it (`RequestView`), the
/// part `status` prints.
#[derive(Deserialize)]
struct RequestAnswer {
    id: i64,
    nid: Option<String>,
    version: i64,
    status: String,
    submitted_at: String,
    decided_at: Option<String>,
    /// How many times it was amended (an older server does not say).
    #[serde(default)]
    amendments: Option<i64>,
    reviews: Vec<ReviewAnswer>,
}

/// One review decision (`ReviewNote`).
#[derive(Deserialize)]
struct ReviewAnswer {
    decision: String,
    note: String,
    actor: String,
    at: String,
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    let mut out = output::stdout();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    out.finish()?;
    Ok(())
}

/// `request ID: NID version N STATUS`, as the local commands print it.
fn write_outcome(out: &mut output::Stdout, o: &OutcomeAnswer) -> io::Result<()> {
    match &o.nid {
        Some(nid) => writeln!(
            out,
            "request {}: {} version {} {}",
            o.id,
            printable_line(nid),
            o.version,
            printable_line(&o.status)
        ),
        None => writeln!(
            out,
            "request {}: informal, version {} {}",
            o.id,
            o.version,
            printable_line(&o.status)
        ),
    }
}

/// Prints a request for people; every text is escaped, a note line by
/// line, and a line feed in a one-line field too (an actor's name
/// `bob\n... ada: approve` would forge a review line).
fn write_request(out: &mut output::Stdout, r: &RequestAnswer) -> io::Result<()> {
    writeln!(
        out,
        "request {}: {} version {} {}",
        r.id,
        printable_line(r.nid.as_deref().unwrap_or("(informal)")),
        r.version,
        printable_line(&r.status)
    )?;
    writeln!(out, "filed {}", printable_line(&r.submitted_at))?;
    if let Some(n) = r.amendments {
        writeln!(out, "amendments {n} (a review names it: --amendments {n})")?;
    }
    if let Some(at) = &r.decided_at {
        writeln!(out, "decided {}", printable_line(at))?;
    }
    for review in &r.reviews {
        writeln!(
            out,
            "{} {}: {}",
            printable_line(&review.at),
            printable_line(&review.actor),
            printable_line(&review.decision)
        )?;
        for line in review.note.lines() {
            writeln!(out, "    {}", printable(line))?;
        }
    }
    Ok(())
}

/// `urnreg status ID` on the local database.
pub fn status(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let format = args.format;
    let store = args.db.open_for_read()?;
    let view = urnreg::serve::requests::request(store.connection(), args.id)?;
    let value = serde_json::to_value(&view)?;
    if format == Format::Json {
        print_json(&value)?;
    } else {
        // The same reading and printing as an answer from a server.
        let request = RequestAnswer::deserialize(&value)?;
        let mut out = output::stdout();
        write_request(&mut out, &request)?;
        out.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a filing's outcome and its registrant token, shown this once.
fn write_filed(out: &mut output::Stdout, filed: &FiledAnswer) -> io::Result<()> {
    write_outcome(out, &filed.outcome)?;
    writeln!(out, "token: {}", printable_line(&filed.token))
}

/// How to follow a request just filed with `server`, for stderr.
fn follow_hint(server: &str, id: i64) -> String {
    format!(
        "keep the token: it is shown this once; with {TOKEN_VAR} set to it, \
         `urnreg --server {} status {id}` follows the request",
        printable(server)
    )
}

/// Checks a successful answer against what the command expects and prints
/// it: the server's JSON as it came, or `write` for people.
fn show<T: DeserializeOwned>(
    answer: &Answer,
    what: &str,
    expected: &str,
    format: Format,
    write: fn(&mut output::Stdout, &T) -> io::Result<()>,
) -> anyhow::Result<()> {
    let (parsed, value) = expect::<T>(answer, what, expected)?;
    if format == Format::Json {
        return print_json(&value);
    }
    let mut out = output::stdout();
    write(&mut out, &parsed)?;
    out.finish()?;
    Ok(())
}

/// What the answer to each command must be.
const OUTCOME: &str = "a request's outcome ({id, nid, status, version})";

/// Runs `command` against the server at `server`.
pub fn run(server: &str, command: Command) -> anyhow::Result<ExitCode> {
    let client = Client::new(server)?;
    // Each command: what it asked, the server's answer, the status that
    // means success, the output format, and how the answer is checked and
    // printed.
    type Shower = fn(&Answer, &str, Format) -> anyhow::Result<()>;
    let outcome: Shower = |a, what, f| show::<OutcomeAnswer>(a, what, OUTCOME, f, write_outcome);
    let filing = matches!(command, Command::Request(_));
    let (what, answer, success, format, show_answer): (String, Answer, u16, Format, Shower) = match command {
        Command::Request(args) => {
            let (text, _) = super::files::read_registration_text(&args.file)?;
            let what = "POST /api/requests".to_string();
            let answer = client.post("/api/requests", false, "application/toml", text.as_bytes())?;
            let filed: Shower = |a, what, f| {
                show::<FiledAnswer>(
                    a,
                    what,
                    "a filing's outcome ({id, nid, status, version, token})",
                    f,
                    write_filed,
                )
            };
            (what, answer, 201, args.common.format, filed)
        }
        Command::Review(args) => {
            let id = request_id(&args.target, "review")?;
            let decision = if args.approve {
                "approve"
            } else if args.reject {
                "reject"
            } else {
                "ask-changes"
            };
            // The service decides only the text the expert read.
            let Some(amendments) = args.amendments else {
                bail!(
                    "with --server, review needs --amendments N: how many times request {id} had been \
                     amended when you read it (`urnreg --server URL status {id}` shows it), so that a \
                     text amended since is not decided"
                );
            };
            let body =
                serde_json::json!({ "decision": decision, "note": args.note, "amendments": amendments });
            let path = format!("/api/requests/{id}/review");
            let answer = client.post(&path, true, "application/json", body.to_string().as_bytes())?;
            (format!("POST {path}"), answer, 200, args.common.format, outcome)
        }
        Command::Status(args) => {
            let path = format!("/api/requests/{}", args.id);
            let answer = client.get(&path, true)?;
            let request: Shower = |a, what, f| {
                show::<RequestAnswer>(
                    a,
                    what,
                    "a request ({id, nid, version, status, submitted_at, reviews, ...})",
                    f,
                    write_request,
                )
            };
            (format!("GET {path}"), answer, 200, args.format, request)
        }
        Command::Amend(args) => {
            let id = request_id(&args.target, "amend")?;
            let (text, _) = super::files::read_registration_text(&args.file)?;
            let path = format!("/api/requests/{id}");
            let answer = client.send("PUT", &path, "application/toml", text.as_bytes())?;
            (format!("PUT {path}"), answer, 200, args.common.format, outcome)
        }
        Command::Withdraw(args) => {
            let id = request_id(&args.target, "withdraw")?;
            let body = serde_json::json!({ "note": args.note }).to_string();
            let path = format!("/api/requests/{id}");
            let answer = client.send("DELETE", &path, "application/json", body.as_bytes())?;
            (format!("DELETE {path}"), answer, 200, args.common.format, outcome)
        }
        Command::Queue(args) => {
            let queue: Shower = |a, what, f| {
                show::<Queue>(
                    a,
                    what,
                    "a queue ([{id, nid, version, status, filed, last_note}, ...])",
                    f,
                    write_queue,
                )
            };
            let answer = client.get("/api/queue", true)?;
            ("GET /api/queue".to_string(), answer, 200, args.format, queue)
        }
        _ => bail!(UsageError(
            "this command does not work with --server (request, amend, withdraw, status, queue and review do)"
                .into()
        )),
    };
    if answer.status != success {
        return Err(refusal(&answer));
    }
    show_answer(&answer, &what, format)?;
    if filing && format == Format::Text {
        let id = serde_json::from_str::<Value>(&answer.text)?["id"].as_i64();
        if let Some(id) = id {
            let _ = writeln!(io::stderr(), "{}", follow_hint(server, id));
        }
    }
    Ok(ExitCode::SUCCESS)
}
