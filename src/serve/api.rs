//! The JSON API. Each handler parses, calls the library, serializes.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::answer::{BodyLines, CheckAnswer};
use super::extract::{self, Path, Query};
use super::http::{ApiError, bearer, client_ip, path_request_id, path_version};
use super::requests;
use super::state::{AppState, Rendered, export_format};
use super::tokens::{self, Principal};
use crate::Checker;
use crate::batch::{self, Batch, Rows, Shown};
use crate::lint::{self, LintContext, Severity};
use crate::registry::{
    Decision, Error, Filing, ListFilter, MAX_REGISTRATION_BYTES, Outcome, RegistrationFile, Store,
};
use crate::urn::chars::hex_value;

/// `Content-Type` of JSON answers.
const JSON: &str = "application/json";

/// A cached rendering as an answer: `304` when the client has it already.
pub(crate) fn cached(headers: &HeaderMap, rendered: &Rendered, content_type: &'static str) -> Response {
    let etag = HeaderValue::from_str(&rendered.etag).expect("entity tags are hex");
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == rendered.etag
        });
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(rendered.body.clone()));
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        r
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, etag);
    // Public data: caches may keep it, but must ask again each time.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A rendering with its entity tag (the SHA-256 of the bytes: the same
/// bytes keep their tag across restarts and unrelated changes).
pub(crate) fn rendered(body: Vec<u8>) -> Rendered {
    let digest = Sha256::digest(&body);
    let etag = format!(
        "\"{}\"",
        digest[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    Rendered {
        body: Bytes::from(body),
        etag,
    }
}

/// JSON of `value`, followed by a newline.
fn json_bytes<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = serde_json::to_vec_pretty(value).map_err(|e| Error::Data(e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}

/// Returns true if and only if `nid` could be a NID (RFC 8141 section 2:
/// 2 to 32 letters, digits and hyphens), so nothing else reaches the store.
fn is_nid_shaped(nid: &str) -> bool {
    (2..=32).contains(&nid.len()) && nid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A cached JSON rendering of the model's generation, made by `make` on a
/// reader the first time.
async fn cached_json(
    state: &Arc<AppState>,
    key: String,
    make: impl FnOnce(&mut Store) -> Result<Vec<u8>, Error> + Send + 'static,
) -> Result<Arc<Rendered>, ApiError> {
    let model = state.model();
    if let Some(hit) = model.cache_get(&key) {
        return Ok(hit);
    }
    let body = state.readers.run(make).await?;
    Ok(model.cache_put(key, rendered(body)))
}

/// `GET /api/namespaces`: every namespace, as `ns list --format json`.
pub(crate) async fn namespaces(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let r = cached_json(&state, "namespaces".into(), |store| {
        json_bytes(&store.list(&ListFilter::default())?)
    })
    .await?;
    Ok(cached(&headers, &r, JSON))
}

/// What `GET /api/namespaces/{nid}` answers: the record and the version in
/// force (as `ns show --format json`), and the rules in force.
#[derive(Serialize)]
struct NamespaceOut {
    #[serde(flatten)]
    detail: crate::registry::NamespaceDetail,
    /// The rules in force (TOML), as the validator applies them.
    rules: Option<String>,
}

/// `GET /api/namespaces/{nid}`.
pub(crate) async fn namespace(
    State(state): State<Arc<AppState>>,
    Path(nid): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !is_nid_shaped(&nid) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("'{nid}' is not a NID"),
        ));
    }
    let rules = state
        .model()
        .registry
        .namespace(&nid)
        .and_then(|ns| ns.rules_text().map(str::to_string));
    let key = format!("ns:{}", nid.to_ascii_lowercase());
    let r = cached_json(&state, key, move |store| {
        let detail = store.show(&nid, None)?;
        json_bytes(&NamespaceOut { detail, rules })
    })
    .await?;
    Ok(cached(&headers, &r, JSON))
}

/// `GET /api/namespaces/{nid}/versions/{n}`: one version of a registration.
pub(crate) async fn version(
    State(state): State<Arc<AppState>>,
    Path((nid, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let n = path_version(&n)?;
    if !is_nid_shaped(&nid) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("'{nid}' is not a NID"),
        ));
    }
    let key = format!("ns:{}:v{n}", nid.to_ascii_lowercase());
    let r = cached_json(&state, key, move |store| {
        let detail = store.show(&nid, Some(n))?;
        let version = detail
            .registration
            .ok_or_else(|| Error::NotFound(format!("'{nid}' has no version {n}")))?;
        json_bytes(&version)
    })
    .await?;
    Ok(cached(&headers, &r, JSON))
}

#[derive(Deserialize)]
pub(crate) struct SnapshotQuery {
    #[serde(default)]
    format: Option<String>,
}

/// `GET /api/snapshot?format=json|xml|csv`: the registry as `urnreg
/// export` writes it, with an entity tag.
pub(crate) async fn snapshot(
    State(state): State<Arc<AppState>>,
    Query(q): Query<SnapshotQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some(asked) = q.format else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "GET /api/snapshot takes the format as ?format=json, xml or csv",
        ));
    };
    let Some((name, format, content_type)) = export_format(&asked) else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("format '{asked}' is not one of json, xml, csv"),
        ));
    };
    let r = cached_json(&state, format!("snapshot:{name}"), move |store| {
        let snapshot = store.snapshot()?;
        let files =
            crate::snapshot::render_files(&snapshot, format).map_err(|e| Error::Data(e.to_string()))?;
        files
            .into_values()
            .next()
            .ok_or_else(|| Error::Data("the export wrote no file".into()))
    })
    .await?;
    Ok(cached(&headers, &r, content_type))
}

/// `?strict=1` (or `true`): URNs valid only by their namespace owner's
/// practice are invalid (`registration-deviation` is an error).
#[derive(Deserialize)]
pub(crate) struct StrictQuery {
    #[serde(default)]
    strict: Option<String>,
}

/// Whether a `strict` query parameter asks for strict checking: `1`,
/// `true`, `yes` or `on`; absent, empty, `0`, `false`: not.
fn is_strict(value: Option<&str>) -> Result<bool, ApiError> {
    match value.map(str::trim) {
        None | Some("" | "0" | "false" | "no" | "off") => Ok(false),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some(other) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("strict={other}: expected 1 or 0 (true or false)"),
        )),
    }
}

/// A query string's name or value as HTML forms encode it, decoded to
/// bytes: `%XX` is the byte XX, `+` a space, anything else itself. Not to
/// text: bytes that are not UTF-8 stay as they were sent (a URN checked
/// from them is reported as `POST /api/check` reports it, not with U+FFFD
/// in their place).
fn form_decode(text: &str) -> Vec<u8> {
    percent_decode(text, true)
}

/// `text` with each `%XX` as the byte XX (RFC 3986 section 2.1), and,
/// when `plus_is_space` (HTML forms' query encoding), `+` as a space;
/// anything else itself. Shared by the check and resolution routes.
pub(super) fn percent_decode(text: &str, plus_is_space: bool) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |at: usize| bytes.get(at).copied().and_then(hex_value);
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push(h * 16 + l);
                i += 3;
            }
            (b'+', _, _) if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// `GET /api/check?urn=...`: one object of `check --format jsonl`. The
/// URN is the `urn` parameter's bytes, percent-decoded: the same answer as
/// `POST /api/check` with those bytes as its line.
pub(crate) async fn check_one(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let mut urn: Option<Vec<u8>> = None;
    let mut strict: Option<String> = None;
    for pair in query.as_deref().unwrap_or("").split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let name = form_decode(name);
        if name == b"strict" {
            strict = Some(String::from_utf8_lossy(&form_decode(value)).into_owned());
        } else if name == b"urn" {
            // `+` is the URN's own (RFC 8141 section 2: a sub-delim, and
            // `?+` starts an r-component), never a space: no URN holds one.
            let earlier = urn.replace(percent_decode(value, false));
            if earlier.is_some() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "urn= is given twice: GET /api/check?urn=URN checks one URN (POST /api/check, one per line)",
                ));
            }
        }
    }
    let Some(urn) = urn else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "GET /api/check takes the URN as ?urn=URN (percent-encoded)",
        ));
    };
    let strict = is_strict(strict.as_deref())?;
    let model = state.model();
    let mut out = Vec::with_capacity(512);
    Checker::new(&model.registry)
        .strict(strict)
        .check(&urn)
        .write_json(&mut out, None);
    out.push(b'\n');
    Ok(([(header::CONTENT_TYPE, JSON)], out).into_response())
}

/// `POST /api/check`: one URN per line (LF or CRLF); one JSON object per
/// line out, as `check --format jsonl` writes them (with `line`), checked
/// and sent piece by piece as the client reads them ([`CheckAnswer`]).
pub(crate) async fn check_many(
    State(state): State<Arc<AppState>>,
    Query(q): Query<StrictQuery>,
    extract::Body(body): extract::Body,
) -> Result<Response, ApiError> {
    let strict = is_strict(q.strict.as_deref())?;
    let max = state.config.max_check_lines;
    let Some(lines) = BodyLines::new(body) else {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("POST /api/check takes at most {} bytes", u32::MAX),
        ));
    };
    if lines.len() > max {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{} lines: POST /api/check takes at most {max} URNs per request",
                lines.len()
            ),
        ));
    }
    let model = state.model();
    let options = batch::Options {
        strict,
        ..batch::Options::default()
    };
    // One worker: the service's concurrency is its requests.
    let batch = Batch::new(
        Some(Arc::clone(&model.registry)),
        options,
        batch::Json::lines(Shown::All),
    );
    let answer = Body::new(CheckAnswer::new(batch, lines));
    Ok(([(header::CONTENT_TYPE, "application/jsonl")], answer).into_response())
}

/// Who sent the request's bearer token: 401 when none or not valid.
pub(crate) async fn principal(state: &Arc<AppState>, headers: &HeaderMap) -> Result<Principal, ApiError> {
    let token = bearer(headers).ok_or_else(ApiError::unauthorized)?;
    if token.len() != tokens::MAX_TOKEN_LEN {
        return Err(ApiError::unauthorized());
    }
    let token = token.to_string();
    state
        .readers
        .run(move |store| tokens::authenticate(store.connection(), &token))
        .await?
        .ok_or_else(ApiError::unauthorized)
}

/// The expert who sent the request: 401 without a valid token, 403 for a
/// registrant's.
async fn expert(state: &Arc<AppState>, headers: &HeaderMap) -> Result<String, ApiError> {
    match principal(state, headers).await? {
        Principal::Expert { name, .. } => Ok(name),
        Principal::Registrant { .. } => Err(ApiError::forbidden(
            "a registrant's token cannot do this: it needs an expert's",
        )),
    }
}

/// What a filing answers.
#[derive(Serialize)]
pub(crate) struct Filed {
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The registrant's token: shown this once, stored only hashed.
    pub token: String,
    /// The lint warnings (the expert will ask about them).
    pub warnings: Vec<lint::Finding>,
}

/// A registration file from its text, or lint's refusal of a text that
/// is not one.
fn parse_file(text: &str) -> Result<RegistrationFile, Lodged> {
    RegistrationFile::from_toml(text).map_err(|e| {
        Lodged::Refused(vec![lint::Finding {
            severity: Severity::Error,
            rule: "toml",
            field: "file".into(),
            section: "RFC 8141 Appendix A",
            message: e.to_string(),
            suggestion: None,
            offset: None,
        }])
    })
}

/// What filing (or amending) a registration file came to.
pub(crate) enum Lodged {
    Filed(Filed),
    /// Amended, with lint's warnings.
    Amended(Outcome, Vec<lint::Finding>),
    /// Lint errors (and warnings): nothing was stored.
    Refused(Vec<lint::Finding>),
}

/// The same limit on a registration text as the CLI's
/// ([`MAX_REGISTRATION_BYTES`]).
fn too_long(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_REGISTRATION_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "a registration file is at most {MAX_REGISTRATION_BYTES} bytes (this one has {})",
                text.len()
            ),
        ));
    }
    Ok(())
}

/// Files `text` as `urnreg request` (or `urnreg revise`, for a file
/// naming a registered NID with a later version) would, as the registrant.
/// `via` is where the text came from, kept as the version's source: `api`
/// or `web`.
pub(crate) async fn file_text(
    state: &Arc<AppState>,
    text: String,
    via: &'static str,
) -> Result<Lodged, ApiError> {
    too_long(&text)?;
    let file = match parse_file(&text) {
        Ok(file) => file,
        Err(refused) => return Ok(refused),
    };
    let lodged = state
        .writer
        .run(move |store| {
            let ctx = LintContext::of(store)?;
            let filing = ctx.filing_for(&file);
            let (findings, vetted) = lint::lint_and_vet(&file, &ctx, filing.clone());
            let Some(vetted) = vetted else {
                return Ok(Lodged::Refused(findings));
            };
            // The registrant's token is stored with the filing, in its
            // transaction: a filing whose token failed would be theirs to
            // manage without a token, and could not be filed again.
            let token = |conn: &rusqlite::Connection, outcome: &Outcome| {
                tokens::issue_request_token(conn, outcome.id)
            };
            let (outcome, token) = match &filing {
                Filing::Request => store.request_and(&vetted, Some(via), "registrant", token)?,
                Filing::Revision { nid, .. } => {
                    store.revise_and(nid, &vetted, Some(via), "registrant", token)?
                }
            };
            Ok(Lodged::Filed(Filed {
                outcome,
                token: token.reveal().to_string(),
                warnings: findings,
            }))
        })
        .await?;
    // The write is committed: its answer is the truth whatever the read
    // model does (a failed refresh is tried again within a second).
    let _ = state.refresh().await;
    Ok(lodged)
}

/// Amends pending request `id` with `text`, as `urnreg amend` would, as
/// its registrant: the text is linted as the filing it amends.
pub(crate) async fn amend_text(
    state: &Arc<AppState>,
    id: i64,
    text: String,
    via: &'static str,
) -> Result<Lodged, ApiError> {
    too_long(&text)?;
    let file = match parse_file(&text) {
        Ok(file) => file,
        Err(refused) => return Ok(refused),
    };
    let lodged = state
        .writer
        .run(move |store| {
            let target = id.to_string();
            let filing = store.amendment_filing(&target)?;
            let ctx = LintContext::of(store)?;
            let (findings, vetted) = lint::lint_and_vet(&file, &ctx, filing);
            let Some(vetted) = vetted else {
                return Ok(Lodged::Refused(findings));
            };
            let outcome = store.amend(&target, &vetted, Some(via), "registrant")?;
            Ok(Lodged::Amended(outcome, findings))
        })
        .await?;
    // The write is committed: its answer is the truth whatever the read
    // model does (a failed refresh is tried again within a second).
    let _ = state.refresh().await;
    Ok(lodged)
}

/// Withdraws pending request `id`, as its registrant.
pub(crate) async fn withdraw_request(
    state: &Arc<AppState>,
    id: i64,
    note: Option<String>,
) -> Result<Outcome, ApiError> {
    let outcome = state
        .writer
        .run(move |store| store.withdraw(&id.to_string(), note.as_deref(), "registrant"))
        .await?;
    // The write is committed: its answer is the truth whatever the read
    // model does (a failed refresh is tried again within a second).
    let _ = state.refresh().await;
    Ok(outcome)
}

/// A refusal by lint as an answer: 422 with every finding.
fn lint_refusal(findings: Vec<lint::Finding>) -> ApiError {
    let mut e = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "registration refused by lint");
    // Each message is cut to MAX_PROBLEM_CHARS by lint itself.
    e.findings = serde_json::to_value(findings).ok();
    e
}

/// The registrant of request `id` (401 without a valid token, 403 for
/// anyone else's, experts' included: amending and withdrawing are the
/// registrant's).
async fn registrant_of(state: &Arc<AppState>, headers: &HeaderMap, id: i64) -> Result<(), ApiError> {
    match principal(state, headers).await? {
        Principal::Registrant { request } if request == id => Ok(()),
        Principal::Registrant { .. } => Err(ApiError::forbidden("this token is for another request")),
        Principal::Expert { .. } => Err(ApiError::forbidden(
            "only the registrant (with the request's token) amends or withdraws a request",
        )),
    }
}

/// `PUT /api/requests/{id}`: an amended registration file (TOML).
pub(crate) async fn amend(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extract::Body(body): extract::Body,
) -> Result<Response, ApiError> {
    let id = path_request_id(&id)?;
    registrant_of(&state, &headers, id).await?;
    take_filing(&state, &headers, peer).await?;
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| ApiError::new(StatusCode::BAD_REQUEST, "the registration file is not UTF-8"))?;
    match amend_text(&state, id, text, "api").await? {
        Lodged::Amended(outcome, warnings) => Ok(Json(
            serde_json::json!({ "id": outcome.id, "nid": outcome.nid, "status": outcome.status,
                "version": outcome.version, "warnings": warnings }),
        )
        .into_response()),
        Lodged::Refused(findings) => Err(lint_refusal(findings)),
        Lodged::Filed(_) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")),
    }
}

/// The optional body of `DELETE /api/requests/{id}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WithdrawBody {
    note: Option<String>,
}

/// `DELETE /api/requests/{id}`: withdraws the request (optional body
/// `{"note": "..."}`).
pub(crate) async fn withdraw(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extract::Body(body): extract::Body,
) -> Result<Response, ApiError> {
    let id = path_request_id(&id)?;
    registrant_of(&state, &headers, id).await?;
    let body: WithdrawBody = if body.is_empty() {
        WithdrawBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("the body is not {{\"note\"}}: {e}"),
            )
        })?
    };
    let outcome = withdraw_request(&state, id, body.note).await?;
    Ok(Json(outcome).into_response())
}

/// Takes one filing from the client's bucket, or answers 429 with the
/// seconds to wait: filings and amendments share it (each stores a text).
pub(crate) async fn take_filing(
    state: &Arc<AppState>,
    headers: &HeaderMap,
    peer: SocketAddr,
) -> Result<(), ApiError> {
    if let Err(wait) = state.take_filing(client_ip(state, headers, peer)).await? {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many filings and amendments from this address (at most {} at once, {} an hour): try again in {wait} s",
                state.config.filing_burst, state.config.filings_per_hour
            ),
        );
        e.retry_after = Some(wait);
        return Err(e);
    }
    Ok(())
}

/// `POST /api/requests`: a registration file (TOML) in the body.
pub(crate) async fn file(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    extract::Body(body): extract::Body,
) -> Result<Response, ApiError> {
    take_filing(&state, &headers, peer).await?;
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| ApiError::new(StatusCode::BAD_REQUEST, "the registration file is not UTF-8"))?;
    match file_text(&state, text, "api").await? {
        Lodged::Filed(filed) => {
            let location = format!("/api/requests/{}", filed.outcome.id);
            let mut response = (StatusCode::CREATED, Json(filed)).into_response();
            if let Ok(v) = HeaderValue::from_str(&location) {
                response.headers_mut().insert(header::LOCATION, v);
            }
            Ok(response)
        }
        Lodged::Refused(findings) => Err(lint_refusal(findings)),
        Lodged::Amended(..) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")),
    }
}

/// May `who` read request `id`? Experts read every request, a registrant
/// only their own.
pub(crate) fn may_read(who: &Principal, id: i64) -> bool {
    match who {
        Principal::Expert { .. } => true,
        Principal::Registrant { request } => *request == id,
    }
}

/// `GET /api/requests/{id}`: the state, text and review notes.
pub(crate) async fn request(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = path_request_id(&id)?;
    let who = principal(&state, &headers).await?;
    if !may_read(&who, id) {
        return Err(ApiError::forbidden("this token is for another request"));
    }
    let view = state
        .readers
        .run(move |store| requests::request(store.connection(), id))
        .await?;
    Ok(Json(view).into_response())
}

/// The body of `POST /api/requests/{id}/review`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewBody {
    decision: String,
    note: String,
    /// The request's `amendments` count when the expert read it: the
    /// decision is refused (409) if it was amended since. Required (400
    /// without it): nothing is decided unseen.
    #[serde(default)]
    amendments: Option<i64>,
}

/// A decision by its name in the API and the forms.
pub(crate) fn decision(name: &str) -> Option<Decision> {
    match name {
        "approve" => Some(Decision::Approve),
        "reject" => Some(Decision::Reject),
        "ask-changes" => Some(Decision::AskChanges),
        _ => None,
    }
}

/// Records `expert`'s decision on request `id`.
pub(crate) async fn decide(
    state: &Arc<AppState>,
    id: i64,
    decision: Decision,
    note: String,
    expert: String,
    read: Option<i64>,
) -> Result<Outcome, ApiError> {
    let outcome = state
        .writer
        .run(move |store| store.review_read(&id.to_string(), decision, &note, &expert, read))
        .await?;
    // The write is committed: its answer is the truth whatever the read
    // model does (a failed refresh is tried again within a second).
    let _ = state.refresh().await;
    Ok(outcome)
}

/// `POST /api/requests/{id}/review` with `{"decision", "note",
/// "amendments"}`, the last the count read in `GET /api/requests/{id}`.
pub(crate) async fn review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extract::Body(body): extract::Body,
) -> Result<Response, ApiError> {
    let id = path_request_id(&id)?;
    let name = expert(&state, &headers).await?;
    let body: ReviewBody = serde_json::from_slice(&body).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not {{\"decision\", \"note\"}}: {e}"),
        )
    })?;
    let decision = decision(&body.decision).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "decision '{}' is not one of approve, reject, ask-changes",
                body.decision
            ),
        )
    })?;
    let Some(read) = body.amendments else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "the body needs \"amendments\": how many times the request had been amended when you read it \
             (GET /api/requests/{id} gives it), so that a text amended since is not decided",
        ));
    };
    let outcome = decide(&state, id, decision, body.note, name, Some(read)).await?;
    Ok(Json(outcome).into_response())
}

/// `GET /api/queue`: the requests waiting for an expert, oldest first.
pub(crate) async fn queue(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    expert(&state, &headers).await?;
    let queue = state.readers.run(|store| store.queue()).await?;
    Ok(Json(queue).into_response())
}
