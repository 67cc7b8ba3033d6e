//! What every answer shares: errors as JSON, the time limit, security
//! headers, the access log, the client's address, bearer tokens and
//! cookies.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::Json;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use serde::Serialize;

use super::AccessLogLine;
use super::answer::CHECK_ANSWER_BYTES;
use super::state::{AppState, GATE, Gate, TIMED_OUT};
use crate::registry::{Error, Problem};

/// The Content-Security-Policy of every answer that sets none of its own:
/// nothing loads but inline styles, forms post only here, no framing.
pub(crate) const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; \
                              frame-ancestors 'none'; base-uri 'none'";

/// An error answer of the JSON API: `{"error": {"status", "message"}}`,
/// with the lint findings or problems when a filing is refused.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub findings: Option<serde_json::Value>,
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            findings: None,
            retry_after: None,
        }
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this needs 'Authorization: Bearer TOKEN' with a valid token",
        )
    }

    pub fn forbidden(why: &str) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, why)
    }
}

/// A request id from a URL path (`/api/requests/{id}`, `/review/{id}`):
/// a whole number from 1, else a 400 saying so.
pub(crate) fn path_request_id(text: &str) -> Result<i64, ApiError> {
    whole_number(text).ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "'{}' is not a request id: request ids are whole numbers from 1",
                quoted_segment(text)
            ),
        )
    })
}

/// A registration's version number from a URL path
/// (`/api/namespaces/{nid}/versions/{n}`): a whole number from 1, as RFC
/// 8141 section 6 numbers versions, else a 400 saying so.
pub(crate) fn path_version(text: &str) -> Result<i64, ApiError> {
    whole_number(text).ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "'{}' is not a version: a registration's versions are whole numbers from 1, \
                 each revision adding one (RFC 8141 section 6)",
                quoted_segment(text)
            ),
        )
    })
}

/// `text` if it is ASCII digits making a number from 1 that fits an i64.
fn whole_number(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| *n >= 1)
}

/// A path segment as an error quotes it: its first 40 characters, escaped.
fn quoted_segment(text: &str) -> String {
    let head: String = text.chars().take(40).collect();
    let more = if text.chars().count() > 40 { "..." } else { "" };
    format!("{}{more}", head.escape_debug())
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorInner<'a>,
}

#[derive(Serialize)]
struct ErrorInner<'a> {
    status: u16,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    findings: Option<&'a serde_json::Value>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorInner {
                status: self.status.as_u16(),
                message: &self.message,
                findings: self.findings.as_ref(),
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        use rusqlite::ErrorCode;
        let sqlite = match &e {
            Error::Sqlite(s) => s.sqlite_error_code(),
            _ => None,
        };
        match e {
            Error::Invalid(problems) => refused(&problems),
            Error::NotFound(what) => ApiError::new(StatusCode::NOT_FOUND, what),
            Error::State(what) if what == TIMED_OUT => {
                let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, what);
                e.retry_after = Some(1);
                e
            }
            Error::State(what) => ApiError::new(StatusCode::CONFLICT, what),
            // The writer's busy timeout (shorter than the time limit) ran
            // out on another process's lock: the write did not begin, or
            // was rolled back (https://sqlite.org/rescode.html#busy).
            _ if matches!(sqlite, Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)) => {
                let mut e = ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the database is busy (another process is writing to it): nothing was stored; try again",
                );
                e.retry_after = Some(1);
                e
            }
            // The database may not be written here (its file or directory,
            // or a disk that is full or at the file size limit): the
            // operator's to fix, said to the client and in the access log's
            // 503, and nothing was stored (the write was rolled back).
            Error::ReadOnly(_) => unavailable(READ_ONLY),
            _ if matches!(sqlite, Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen)) => {
                unavailable(READ_ONLY)
            }
            _ if sqlite == Some(ErrorCode::DiskFull) => unavailable(
                "the registry's disk is full (or at its file size limit) on this server: nothing was stored",
            ),
            // A write the system refused: past the file size limit (EFBIG,
            // which SQLite reports as SQLITE_IOERR_WRITE, not as a full
            // disk), or a failing device. Rolled back, and the operator's.
            _ if sqlite == Some(ErrorCode::SystemIoFailure) => unavailable(
                "the registry's database could not be written or read on this server (a disk I/O error: a file size \
                 limit, a full or failing disk): nothing was stored",
            ),
            // A database or I/O failure: the details are the operator's.
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
        }
    }
}

/// The refusal of a write to a database this server may not write.
const READ_ONLY: &str =
    "the registry's database may not be written on this server (read-only): nothing was stored";

/// 503 for a state of the server the operator has to change: no retry
/// time is promised.
fn unavailable(what: &'static str) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, what)
}

/// 422 with the problems that refused a registration.
pub(crate) fn refused(problems: &[Problem]) -> ApiError {
    let mut e = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "registration refused");
    e.findings = serde_json::to_value(Problem::listed(problems)).ok();
    e
}

/// The paths that answer JSON, their refusals included: the API and
/// resolution (RFC 2169). Every other path is a browser's, answered with
/// pages.
pub(crate) fn answers_json(path: &str) -> bool {
    ["/api", "/uri-res", "/resolve"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// A refusal as `path` answers: JSON, or a page in the site's layout.
pub(crate) fn refusal(path: &str, e: ApiError) -> Response {
    if answers_json(path) {
        e.into_response()
    } else {
        Response::from(e)
    }
}

/// The answer to a path no route knows: JSON for the API, a page in the
/// site's layout for a browser.
pub(crate) async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    let what = if answers_json(path) { "resource" } else { "page" };
    refusal(
        path,
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no such {what}: {}", quoted_path(path)),
        ),
    )
}

/// A client's text as a message quotes it: its first `max` characters,
/// escaped, and `...` when more were left out.
fn quoted(text: &str, max: usize) -> String {
    let head: String = text.chars().take(max).collect();
    let more = if text.chars().nth(max).is_some() {
        "..."
    } else {
        ""
    };
    format!("{}{more}", head.escape_debug())
}

/// A method as a message or the access log quotes it: its first 32
/// characters, escaped. A method is any token the request line holds, up
/// to the connection's buffer (found in hostile testing: a 405 quoted a method
/// of 70,000 bytes, and its path, whole).
fn quoted_method(method: &str) -> String {
    quoted(method, 32)
}

/// A path as a message quotes it: its first 80 characters, escaped.
fn quoted_path(path: &str) -> String {
    quoted(path, 80)
}

/// The client's address: the peer, or behind a trusted proxy the last
/// address of `X-Forwarded-For` (the one the proxy added).
pub(crate) fn client_ip(state: &AppState, headers: &HeaderMap, peer: SocketAddr) -> IpAddr {
    if state.config.trust_forwarded_for
        && let Some(ip) = headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|v| v.trim().parse().ok())
    {
        return ip;
    }
    peer.ip()
}

/// The paths that carry a registration file (a filing or an amendment,
/// raw or as a form): `Config::max_filing_body` applies to them.
pub(crate) fn is_filing(path: &str) -> bool {
    let api_request = path
        .strip_prefix("/api/requests")
        .is_some_and(|rest| rest.is_empty() || (rest.starts_with('/') && !rest[1..].contains('/')));
    let amend = path
        .strip_prefix("/requests/")
        .and_then(|rest| rest.strip_suffix("/amend"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'));
    path == "/file" || api_request || amend
}

/// The largest body a request to `path` may send: a check's, a filing's
/// or any other's.
pub(crate) fn body_limit(config: &super::Config, path: &str) -> usize {
    if path == "/api/check" {
        config.max_check_body
    } else if is_filing(path) {
        config.max_filing_body
    } else {
        config.max_body
    }
}

/// 413 for a body over `limit`, whether its length was announced or found
/// as it was read.
pub(crate) fn too_large(limit: usize, path: &str) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body is larger than the server's limit of {limit} bytes for {path}"),
    )
}

/// The `Retry-After` (seconds) of a request refused because the bodies in
/// flight take the memory limit.
const BODY_BUDGET_RETRY_AFTER: u64 = 5;

/// Applies the size, memory and time limits, adds the security headers and logs the answer.
pub(crate) async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    // RFC 9112 section 3.2: a server MUST answer 400 to an HTTP/1.1
    // request without a Host header field, and to any with more than one.
    let hosts = request.headers().get_all(header::HOST).iter().count();
    let host_missing = hosts == 0 && request.version() == axum::http::Version::HTTP_11;
    if host_missing || hosts > 1 {
        let why = if hosts > 1 {
            "more than one Host header field"
        } else {
            "an HTTP/1.1 request without a Host header field"
        };
        let response = refusal(
            &path,
            ApiError::new(StatusCode::BAD_REQUEST, format!("{why} (RFC 9112 section 3.2)")),
        );
        return finish(&state, response, peer, method, path, started).await;
    }
    // A body in a coding this server does not decode is refused unread,
    // never read as if it were plain text.
    let has_body = request.body().size_hint().exact() != Some(0);
    if let Some(refused) = undecoded_body(request.headers()).filter(|_| has_body) {
        let mut response = refusal(&path, refused);
        let headers = response.headers_mut();
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("identity"));
        return finish(&state, response, peer, method, path, started).await;
    }
    // A body announced over the limit is refused before any of it is read.
    let limit = body_limit(&state.config, &path);
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        let mut response = refusal(&path, too_large(limit, &path));
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return finish(&state, response, peer, method, path, started).await;
    }
    // The body's share of the memory all bodies in flight may take: its
    // announced length, or the route's limit when it announces none (a
    // chunked body). Reserved before any of it is read, held while the
    // handler reads and uses it, until the answer is made, given back
    // when `reserved` is dropped, however the request ends. A check's
    // answer is made as it is sent, from the body: its reservation also
    // counts what the connection holds of the answer, and is held until
    // the answer is sent (or the connection closes).
    let is_check = path == "/api/check" && request.method() == axum::http::Method::POST;
    let body = request
        .body()
        .size_hint()
        .exact()
        .unwrap_or(limit as u64)
        .min(limit as u64);
    let wants = if is_check {
        body + CHECK_ANSWER_BYTES as u64
    } else {
        body
    };
    let reserved = if wants == 0 {
        None
    } else {
        let permit = u32::try_from(wants)
            .ok()
            .and_then(|n| Arc::clone(&state.body_budget).try_acquire_many_owned(n).ok());
        if permit.is_none() {
            let mut refused = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is busy: request bodies and check answers in flight take its memory limit of {} bytes; try again later",
                    state.config.max_body_memory
                ),
            );
            refused.retry_after = Some(BODY_BUDGET_RETRY_AFTER);
            let mut response = refusal(&path, refused);
            // The body is left unread: the connection cannot go on.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return finish(&state, response, peer, method, path, started).await;
        }
        permit
    };
    // The time limit. A write the handler has begun may still be running
    // on the blocking pool when the limit drops its future: the request's
    // gate keeps it from committing after a 503, and once a write of it
    // has been let commit, the handler's own answer is awaited instead, so
    // a 503 always means nothing was stored (`state::Gate`).
    let limit = state.config.request_timeout;
    let gate = Gate::new(started + limit);
    let handler = GATE.scope(Arc::clone(&gate), next.run(request));
    tokio::pin!(handler);
    let response =
        match tokio::time::timeout_at(tokio::time::Instant::from_std(started + limit), &mut handler).await {
            Ok(response) => response,
            Err(_) if gate.cancel() => timed_out(&path, limit),
            Err(_) => handler.await,
        };
    let response = match reserved {
        Some(share) if is_check && response.status() == StatusCode::OK => {
            response.map(|body| Body::new(Holding { body, _share: share }))
        }
        _ => response,
    };
    finish(&state, response, peer, method, path, started).await
}

/// The refusal of a request whose body comes in a coding this server
/// does not decode (found in hostile testing: `Transfer-Encoding: gzip,
/// chunked` and `Content-Encoding: gzip` bodies were read as plain bytes,
/// and `POST /api/check` answered 200 with verdicts on the compressed
/// bytes): a transfer coding other than one `chunked` gets 501 (RFC 9112
/// section 6.1), a content coding other than `identity` 415 (RFC 9110
/// section 15.5.16), each naming the coding. The connection's parser
/// already refuses a list whose last coding is not `chunked` (400).
fn undecoded_body(headers: &HeaderMap) -> Option<ApiError> {
    let codings = |name: header::HeaderName| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .flat_map(|v| {
                let v = String::from_utf8_lossy(v.as_bytes());
                v.split(',')
                    .map(|c| c.trim().to_ascii_lowercase())
                    .collect::<Vec<_>>()
            })
            .filter(|c| !c.is_empty())
            .collect()
    };
    let shown = |codings: &[String]| quoted(&codings.join(", "), 64);
    let transfer = codings(header::TRANSFER_ENCODING);
    if !transfer.is_empty() && transfer != ["chunked"] {
        return Some(ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            format!(
                "Transfer-Encoding '{}': this server decodes only a body sent 'chunked' \
                 (once) or with a Content-Length (RFC 9112 section 6.1)",
                shown(&transfer)
            ),
        ));
    }
    let content = codings(header::CONTENT_ENCODING);
    if content.iter().any(|c| c != "identity") {
        return Some(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "Content-Encoding '{}': this server takes request bodies uncompressed \
                 (Accept-Encoding: identity; RFC 9110 section 15.5.16)",
                shown(&content)
            ),
        ));
    }
    None
}

/// The answer to a request cut at the time limit.
fn timed_out(path: &str, limit: std::time::Duration) -> Response {
    let mut e = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the request took longer than the server's limit of {} s: nothing was stored; try again",
            limit.as_secs_f64()
        ),
    );
    e.retry_after = Some(1);
    refusal(path, e)
}

/// An answer's body that holds its request's share of the memory budget
/// until it has been sent whole, or dropped with its connection.
struct Holding {
    body: Body,
    _share: tokio::sync::OwnedSemaphorePermit,
}

impl HttpBody for Holding {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Makes API refusals JSON, adds the security headers, logs the answer.
async fn finish(
    state: &AppState,
    mut response: Response,
    peer: Option<SocketAddr>,
    method: String,
    path: String,
    started: Instant,
) -> Response {
    // Every refusal is ours: JSON for the API, a page for a browser. The
    // extractors' refusals are (`extract`); what the router answers itself
    // (405, without a body) is put in our words here.
    if response.status().as_u16() >= 400 {
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if kind != "application/json" && !kind.starts_with("text/html") {
            response = in_our_words(response, &method, &path).await;
        }
    }
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if let (Some(log), Some(client)) = (&state.config.access_log, peer) {
        log(&AccessLogLine {
            client,
            method: quoted_method(&method),
            path,
            status: response.status().as_u16(),
            elapsed: started.elapsed(),
        });
    }
    response
}

/// A refusal made by the framework (a 405, or a text we did not write)
/// as our own: JSON or a page, saying what was wrong.
async fn in_our_words(response: Response, method: &str, path: &str) -> Response {
    let status = response.status();
    let message = if status == StatusCode::METHOD_NOT_ALLOWED {
        // The router adds the `Allow` header once this answer is made.
        format!(
            "{} does not take {}: the answer's Allow header lists what it takes",
            quoted_path(path),
            quoted_method(method)
        )
    } else {
        let text = axum::body::to_bytes(response.into_body(), 64 * 1024)
            .await
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        if text.is_empty() {
            status.canonical_reason().unwrap_or("error").to_ascii_lowercase()
        } else {
            text
        }
    };
    refusal(path, ApiError::new(status, message))
}

/// The bearer token of a request, if it sends one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The value of cookie `name`.
pub(crate) fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, the whole site.
pub(crate) fn set_cookie(state: &AppState, name: &str, value: &str, max_age: Option<u64>) -> HeaderValue {
    let mut text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict");
    if let Some(age) = max_age {
        text.push_str(&format!("; Max-Age={age}"));
    }
    if state.config.secure_cookies {
        text.push_str("; Secure");
    }
    HeaderValue::from_str(&text).expect("cookie values are hex")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database this server may not write, or a full disk (the file size
    /// limit too, once SIGXFSZ is ignored), is 503 saying so, not an
    /// anonymous 500 (found in hostile testing).
    #[test]
    fn unwritable_and_full_databases_are_503_saying_why() {
        let read_only = ApiError::from(Error::ReadOnly("opened for reading".into()));
        assert_eq!(read_only.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            read_only.message.contains("may not be written"),
            "{}",
            read_only.message
        );
        let sqlite = |code: i32| {
            Error::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(code),
                None,
            ))
        };
        let full = ApiError::from(sqlite(rusqlite::ffi::SQLITE_FULL));
        assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(full.message.contains("disk is full"), "{}", full.message);
        let read_only = ApiError::from(sqlite(rusqlite::ffi::SQLITE_READONLY));
        assert_eq!(read_only.status, StatusCode::SERVICE_UNAVAILABLE);
        // Past the file size limit, SQLite says SQLITE_IOERR_WRITE (docs
        // walkthrough 51: it was a 500).
        let too_big = ApiError::from(sqlite(rusqlite::ffi::SQLITE_IOERR_WRITE));
        assert_eq!(too_big.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(too_big.message.contains("file size"), "{}", too_big.message);
        let other = ApiError::from(sqlite(rusqlite::ffi::SQLITE_CORRUPT));
        assert_eq!(other.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
