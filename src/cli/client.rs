//! The command line as a client of `urnreg serve`: with `--server URL`
//! `request`, `amend`, `withdraw`, `status`, `queue` and `review` go to the server
//! instead of a local database, with the token from `$URNREG_TOKEN`. The
//! answers are printed as the local commands print them; a refusal exits 2
//! with the server's message and findings.

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::Value;

use super::{Command, Format, FormatParser, UsageError};

/// The environment variable holding the token.
const TOKEN_VAR: &str = "URNREG_TOKEN";

/// A server's answer: the status and the JSON body.
struct Answer {
    status: u16,
    body: Value,
}

struct Client {
    agent: ureq::Agent,
    base: String,
    token: Option<String>,
}

impl Client {
    fn new(server: &str) -> anyhow::Result<Client> {
        let base = server.trim_end_matches('/').to_string();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(UsageError(format!("--server '{server}' is not an http:// or https:// URL")).into());
        }
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build();
        let token = std::env::var(TOKEN_VAR).ok().filter(|t| !t.trim().is_empty());
        Ok(Client {
            agent: config.into(),
            base,
            token,
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn token(&self) -> anyhow::Result<&str> {
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
        let mut response = response.with_context(|| format!("{what} ({})", self.base))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .with_context(|| format!("reading the answer to {what}"))?;
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Ok(Answer { status, body })
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

/// An error answer as the local commands report a refusal (exit 2).
fn refusal(answer: &Answer) -> anyhow::Error {
    let error = answer.body.get("error");
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| answer.body.to_string());
    let mut text = format!("the server answered {}: {message}", answer.status);
    for f in error
        .and_then(|e| e.get("findings"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let field = f.get("field").and_then(Value::as_str).unwrap_or("?");
        let message = f.get("message").and_then(Value::as_str).unwrap_or("?");
        let rule = f.get("rule").and_then(Value::as_str);
        let severity = f.get("severity").and_then(Value::as_str).unwrap_or("error");
        match rule {
            Some(rule) => text.push_str(&format!("\n  - {severity} {field}: {message} [{rule}]")),
            None => text.push_str(&format!("\n  - {field}: {message}")),
        }
    }
    anyhow::anyhow!(text)
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// `request ID: NID version N STATUS`, as the local commands print it.
fn print_outcome(value: &Value) -> anyhow::Result<()> {
    let id = value.get("id").and_then(Value::as_i64).unwrap_or_default();
    let version = value.get("version").and_then(Value::as_i64).unwrap_or_default();
    let status = value.get("status").and_then(Value::as_str).unwrap_or_default();
    let mut out = io::stdout().lock();
    match value.get("nid").and_then(Value::as_str) {
        Some(nid) => writeln!(out, "request {id}: {nid} version {version} {status}")?,
        None => writeln!(out, "request {id}: informal, version {version} {status}")?,
    }
    Ok(())
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

/// A registration file's text, from a path or stdin (`-`).
fn read_text(path: &Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading the registration from stdin")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    }
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

/// Prints a request (the JSON of `GET /api/requests/{id}`) for people.
fn print_request(value: &Value) -> anyhow::Result<()> {
    let text = |key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default();
    let mut out = io::stdout().lock();
    let nid = value.get("nid").and_then(Value::as_str).unwrap_or("(informal)");
    writeln!(
        out,
        "request {}: {nid} version {} {}",
        value.get("id").and_then(Value::as_i64).unwrap_or_default(),
        value.get("version").and_then(Value::as_i64).unwrap_or_default(),
        text("status")
    )?;
    writeln!(out, "filed {}", text("submitted_at"))?;
    if let Some(at) = value.get("decided_at").and_then(Value::as_str) {
        writeln!(out, "decided {at}")?;
    }
    for review in value
        .get("reviews")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let r = |key: &str| review.get(key).and_then(Value::as_str).unwrap_or_default();
        writeln!(out, "{} {}: {}", r("at"), r("actor"), r("decision"))?;
        for line in r("note").lines() {
            writeln!(out, "    {line}")?;
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
        print_request(&value)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a filing's outcome and its registrant token, shown this once.
fn print_filed(value: &Value) -> anyhow::Result<()> {
    print_outcome(value)?;
    if let Some(token) = value.get("token").and_then(Value::as_str) {
        writeln!(io::stdout(), "token: {token}")?;
        let _ = writeln!(
            io::stderr(),
            "keep the token: it is shown this once, and {TOKEN_VAR}={{token}} lets you follow the request"
        );
    }
    Ok(())
}

/// Prints the expert's worklist.
fn print_queue(value: &Value) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    let entries = value.as_array().map(Vec::as_slice).unwrap_or_default();
    if entries.is_empty() {
        writeln!(out, "no request waits for review")?;
    }
    for e in entries {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default();
        writeln!(
            out,
            "{}\t{}\tversion {}\t{}\tfiled {}\t{}",
            e.get("id").and_then(Value::as_i64).unwrap_or_default(),
            e.get("nid").and_then(Value::as_str).unwrap_or("(informal)"),
            e.get("version").and_then(Value::as_i64).unwrap_or_default(),
            s("status"),
            s("filed"),
            s("last_note")
        )?;
    }
    Ok(())
}

/// Runs `command` against the server at `server`.
pub fn run(server: &str, command: Command) -> anyhow::Result<ExitCode> {
    let client = Client::new(server)?;
    // Each command: the server's answer, the status that means success,
    // the output format, and how the answer is printed for people.
    type Printer = fn(&Value) -> anyhow::Result<()>;
    let (answer, success, format, print): (Answer, u16, Format, Printer) = match command {
        Command::Request(args) => {
            let text = read_text(&args.file)?;
            let answer = client.post("/api/requests", false, "application/toml", text.as_bytes())?;
            (answer, 201, args.common.format, print_filed)
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
            let body = serde_json::json!({ "decision": decision, "note": args.note });
            let answer = client.post(
                &format!("/api/requests/{id}/review"),
                true,
                "application/json",
                body.to_string().as_bytes(),
            )?;
            (answer, 200, args.common.format, print_outcome)
        }
        Command::Status(args) => {
            let answer = client.get(&format!("/api/requests/{}", args.id), true)?;
            (answer, 200, args.format, print_request)
        }
        Command::Amend(args) => {
            let id = request_id(&args.target, "amend")?;
            let text = read_text(&args.file)?;
            let answer = client.send(
                "PUT",
                &format!("/api/requests/{id}"),
                "application/toml",
                text.as_bytes(),
            )?;
            (answer, 200, args.common.format, print_outcome)
        }
        Command::Withdraw(args) => {
            let id = request_id(&args.target, "withdraw")?;
            let body = serde_json::json!({ "note": args.note }).to_string();
            let answer = client.send(
                "DELETE",
                &format!("/api/requests/{id}"),
                "application/json",
                body.as_bytes(),
            )?;
            (answer, 200, args.common.format, print_outcome)
        }
        Command::Queue(args) => (client.get("/api/queue", true)?, 200, args.format, print_queue),
        _ => bail!(UsageError(
            "this command does not work with --server (request, amend, withdraw, status, queue and review do)"
                .into()
        )),
    };
    if answer.status != success {
        return Err(refusal(&answer));
    }
    if format == Format::Json {
        print_json(&answer.body)?;
    } else {
        print(&answer.body)?;
    }
    Ok(ExitCode::SUCCESS)
}
