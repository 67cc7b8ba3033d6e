//! The browser pages: the static site's index and namespace pages served
//! live, `/check`, the filing form, sign-in with a token, the expert's
//! queue and review pages, and a registrant's view of their request.
//!
//! Sessions: signing in with a token sets `urnreg_session`, a random id
//! (HttpOnly, SameSite=Strict; only its SHA-256 is kept, in memory), good
//! for [`super::Config::session_lifetime`] or until sign-out; an expert's
//! session ends when the expert is removed. CSRF: every page with a form
//! sets `urnreg_csrf` (random, HttpOnly, SameSite=Strict) and puts the
//! same value in a hidden field; a POST whose field does not match the
//! cookie (and, signed in, the session's) is refused with 403.

// Handlers answer `Result<Response, Response>`: the error is a page, as
// large as any answer.
#![allow(clippy::result_large_err)]

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use minijinja::{Environment, context};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::api::{self, Lodged};
use super::extract::{Form, Path, Query, Refused};
use super::http::{ApiError, client_ip, cookie, path_request_id, set_cookie};
use super::requests::{self, RequestView};
use super::sessions::{self, Session};
use super::state::{AppState, Site};
use super::tokens::{self, Principal, random_hex};
use crate::Checker;
use crate::lint::{self, Severity};
use crate::registry::{Error, Store};
use crate::snapshot::html::{self, INDEX_FILE, PAGES_DIR};
use crate::template::FIELDS;

const SESSION_COOKIE: &str = "urnreg_session";
const CSRF_COOKIE: &str = "urnreg_csrf";

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in [
            ("layout.html", include_str!("pages/layout.html")),
            ("check.html", include_str!("pages/check.html")),
            ("file.html", include_str!("pages/file.html")),
            ("signin.html", include_str!("pages/signin.html")),
            ("queue.html", include_str!("pages/queue.html")),
            ("request.html", include_str!("pages/request.html")),
            ("error.html", include_str!("pages/error.html")),
        ] {
            env.add_template(name, source)
                .expect("the server's templates parse (tested)");
        }
        env
    })
}

/// A serializable value for a template.
fn v<T: Serialize>(value: &T) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(value))
}

/// Who is signed in, as the layout shows it.
#[derive(Serialize)]
struct Who {
    name: String,
    expert: bool,
}

/// The browser's CSRF token and, when it has none yet, the cookie that
/// gives it one.
struct Csrf {
    token: String,
    set: Option<HeaderValue>,
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn csrf(state: &AppState, headers: &HeaderMap) -> Result<Csrf, ApiError> {
    if let Some(token) = cookie(headers, CSRF_COOKIE).filter(|t| is_hex64(t)) {
        return Ok(Csrf {
            token: token.to_string(),
            set: None,
        });
    }
    let token = random_hex(32)?;
    let set = Some(set_cookie(state, CSRF_COOKIE, &token, None));
    Ok(Csrf { token, set })
}

/// The session of this browser, if it has a live one.
async fn session(state: &Arc<AppState>, headers: &HeaderMap) -> Result<Option<Session>, ApiError> {
    let Some(id) = cookie(headers, SESSION_COOKIE).filter(|t| is_hex64(t)) else {
        return Ok(None);
    };
    let key: [u8; 32] = Sha256::digest(id.as_bytes()).into();
    // One read: expired sessions, and a removed expert's, are not found.
    Ok(state
        .readers
        .run(move |store| sessions::find(store.connection(), &key))
        .await?)
}

/// Refuses a form whose CSRF field does not match the browser's cookie
/// and, signed in, the session's token.
fn check_csrf(headers: &HeaderMap, given: &str, session: Option<&Session>) -> Result<(), Response> {
    let same = |a: &str, b: &str| a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()));
    let cookie_ok = cookie(headers, CSRF_COOKIE).is_some_and(|c| is_hex64(c) && same(c, given));
    let session_ok = session.is_none_or(|s| same(&s.csrf, given));
    if cookie_ok && session_ok {
        Ok(())
    } else {
        Err(error_page(
            StatusCode::FORBIDDEN,
            "the form's CSRF token does not match this browser's: reload the page and try again",
        ))
    }
}

/// Renders `template` with the layout's context (who, csrf) and `ctx`.
fn page(
    status: StatusCode,
    template: &str,
    who: Option<&Session>,
    csrf: &Csrf,
    ctx: minijinja::Value,
) -> Response {
    let who = who.map(|s| Who {
        name: s.principal.actor().to_string(),
        expert: matches!(s.principal, Principal::Expert { .. }),
    });
    let rendered = environment().get_template(template).and_then(|t| {
        t.render(context! {
            who => v(&who),
            csrf => csrf.token.clone(),
            nav => v(&html::nav_links(html::SiteMode::Live, "")),
            nav_style => html::NAV_STYLE,
            ..ctx
        })
    });
    match rendered {
        Ok(html) => {
            let mut response = (status, Html(html)).into_response();
            if let Some(set) = &csrf.set {
                response.headers_mut().append(header::SET_COOKIE, set.clone());
            }
            response
        }
        Err(_) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
    }
}

/// An error as a page.
pub(crate) fn error_page(status: StatusCode, message: &str) -> Response {
    let csrf = Csrf {
        token: String::new(),
        set: None,
    };
    page(
        status,
        "error.html",
        None,
        &csrf,
        context! { status => status.to_string(), message },
    )
}

impl From<ApiError> for Response {
    fn from(e: ApiError) -> Response {
        let mut page = error_page(e.status, &e.message);
        if let Some(seconds) = e.retry_after {
            page.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        page
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = if self.page {
            error_page(self.error.status, &self.error.message)
        } else {
            self.error.into_response()
        };
        if self.close {
            // The rest of the body is left unread: the connection cannot
            // go on.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// The html site of the current model, rendered once per change.
async fn site(state: &Arc<AppState>) -> Result<Site, ApiError> {
    let model = state.model();
    if let Some(site) = model.site.lock().unwrap_or_else(|p| p.into_inner()).clone() {
        return Ok(site);
    }
    // One rendering at a time; those who waited for it take it.
    let _rendering = model.site_render.lock().await;
    if let Some(site) = model.site.lock().unwrap_or_else(|p| p.into_inner()).clone() {
        return Ok(site);
    }
    let files = state
        .readers
        .run(|store| {
            let snapshot = store.snapshot()?;
            html::render_site_as(&snapshot, html::SiteMode::Live).map_err(Error::Data)
        })
        .await?;
    let files = Arc::new(files);
    *model.site.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::clone(&files));
    Ok(files)
}

/// Standard base64 (RFC 4648 section 4), for a CSP hash source.
fn base64(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    crate::json_text::base64_into(&mut out, bytes);
    // The alphabet is ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// `GET /`: the site's index, with its one inline script allowed by hash.
pub(crate) async fn index(State(state): State<Arc<AppState>>) -> Result<Response, Response> {
    let files = site(&state).await?;
    let html = files
        .get(INDEX_FILE)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .ok_or_else(|| error_page(StatusCode::INTERNAL_SERVER_ERROR, "internal error"))?;
    let mut csp = String::from("default-src 'none'; style-src 'unsafe-inline'; ");
    let script = html.find("<script>").and_then(|start| {
        html[start + 8..]
            .find("</script>")
            .map(|end| &html[start + 8..start + 8 + end])
    });
    if let Some(script) = script {
        csp.push_str(&format!(
            "script-src 'sha256-{}'; ",
            base64(&Sha256::digest(script))
        ));
    }
    csp.push_str("form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    let mut response = Html(html).into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&csp).expect("ASCII"),
    );
    Ok(response)
}

/// `GET /index.html`: the static site's name for the index.
pub(crate) async fn to_index() -> Redirect {
    Redirect::permanent("/")
}

/// `GET /ns/{nid}.html`: the static site's name for a namespace page.
pub(crate) async fn to_namespace(Path(page): Path<String>) -> Result<Redirect, Response> {
    match page.strip_suffix(".html") {
        Some(nid) if is_nid(nid) => Ok(Redirect::permanent(&format!("/namespaces/{nid}"))),
        _ => Err(error_page(StatusCode::NOT_FOUND, "no such page")),
    }
}

fn is_nid(nid: &str) -> bool {
    (2..=32).contains(&nid.len()) && nid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// `GET /namespaces/{nid}`: the namespace's page, with every version.
pub(crate) async fn namespace(
    State(state): State<Arc<AppState>>,
    Path(nid): Path<String>,
) -> Result<Response, Response> {
    if !is_nid(&nid) {
        return Err(error_page(
            StatusCode::NOT_FOUND,
            &format!("'{nid}' is not a NID"),
        ));
    }
    let files = site(&state).await?;
    let name = format!("{PAGES_DIR}/{}.html", nid.to_ascii_lowercase());
    match files.get(&name) {
        Some(html) => Ok(Html(html.clone()).into_response()),
        None => Err(error_page(
            StatusCode::NOT_FOUND,
            &format!("'{nid}' is not a registered NID"),
        )),
    }
}

/// `GET /data/{file}`: the exports the site links to (`data/` of the html
/// export: the XML, CSV and JSON of the registry).
pub(crate) async fn data_file(
    State(state): State<Arc<AppState>>,
    Path(file): Path<String>,
) -> Result<Response, Response> {
    let content_type = match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("xml") => "application/xml",
        Some("csv") => "text/csv; charset=utf-8; header=present",
        Some("json") => "application/json",
        _ => return Err(error_page(StatusCode::NOT_FOUND, "no such file")),
    };
    let files = site(&state).await?;
    match files.get(&format!("data/{file}")) {
        Some(bytes) => Ok(([(header::CONTENT_TYPE, content_type)], bytes.clone()).into_response()),
        None => Err(error_page(StatusCode::NOT_FOUND, "no such file")),
    }
}

/// One row of the `/check` results.
#[derive(Serialize)]
struct Verdict {
    input: String,
    valid: bool,
    key: Option<String>,
    findings: Vec<FindingView>,
}

#[derive(Serialize)]
struct FindingView {
    severity: &'static str,
    code: &'static str,
    message: String,
    /// Where the namespace's rules are written out, for a finding of them.
    rules: Option<String>,
}

/// The verdicts on `urns` (one per line, blank lines skipped), or the
/// refusal of too many.
fn verdicts(state: &AppState, urns: &str) -> (StatusCode, Vec<Verdict>, Option<String>) {
    let max = state.config.max_check_lines;
    let lines: Vec<&str> = urns.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() > max {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            Vec::new(),
            Some(format!("{} URNs: at most {max} at once", lines.len())),
        );
    }
    let model = state.model();
    let mut checker = Checker::new(&model.registry);
    let results = lines
        .iter()
        .map(|line| {
            let report = checker.check(line.trim().as_bytes());
            // A finding of a namespace's rules links to where they are
            // written out in full.
            let rules = report
                .namespace()
                .map(|ns| format!("/namespaces/{}#rules", ns.nid()));
            Verdict {
                input: line.trim().to_string(),
                valid: report.is_valid(),
                key: report.key().map(|k| k.into_owned()),
                findings: report
                    .findings()
                    .iter()
                    .map(|f| FindingView {
                        severity: if f.is_error() { "error" } else { "warning" },
                        code: f.code(),
                        message: f.to_string(),
                        rules: rules.clone().filter(|_| f.kind().is_from_rules()),
                    })
                    .collect(),
            }
        })
        .collect();
    (StatusCode::OK, results, None)
}

#[derive(Deserialize)]
pub(crate) struct CheckQuery {
    #[serde(default)]
    urns: Option<String>,
}

/// `GET /check`: the form; with `?urns=` (the namespace pages' forms), the
/// verdicts too (checking changes nothing, so a link may ask for it).
pub(crate) async fn check_form(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Query(q): Query<CheckQuery>,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    let csrf = csrf(&state, &headers)?;
    let max = state.config.max_check_lines;
    let Some(urns) = q.urns else {
        return Ok(page(
            StatusCode::OK,
            "check.html",
            who.as_ref(),
            &csrf,
            context! { max_lines => max, urns => "", current => "/check" },
        ));
    };
    let (status, results, error) = verdicts(&state, &urns);
    Ok(page(
        status,
        "check.html",
        who.as_ref(),
        &csrf,
        context! { max_lines => max, urns, results => v(&results), error, current => "/check" },
    ))
}

#[derive(Deserialize)]
pub(crate) struct CheckForm {
    csrf: String,
    urns: String,
}

/// `POST /check`: the verdicts on the URNs pasted.
pub(crate) async fn check(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Form(form): Form<CheckForm>,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    check_csrf(&headers, &form.csrf, who.as_ref())?;
    let csrf = csrf(&state, &headers)?;
    let max = state.config.max_check_lines;
    let (status, results, error) = verdicts(&state, &form.urns);
    Ok(page(
        status,
        "check.html",
        who.as_ref(),
        &csrf,
        context! { max_lines => max, urns => form.urns, results => v(&results), error, current => "/check" },
    ))
}

/// `GET /file`: the filing form, with a skeleton to fill in.
pub(crate) async fn file_form(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    let csrf = csrf(&state, &headers)?;
    let text = crate::template::render::skeleton(crate::registry::Kind::Formal, None, None, "request.toml");
    Ok(page(
        StatusCode::OK,
        "file.html",
        who.as_ref(),
        &csrf,
        context! { text },
    ))
}

#[derive(Deserialize)]
pub(crate) struct FileForm {
    csrf: String,
    text: String,
}

/// `POST /file`: files the text; lint findings inline when refused.
pub(crate) async fn file(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<FileForm>,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    check_csrf(&headers, &form.csrf, who.as_ref())?;
    let csrf = csrf(&state, &headers)?;
    if let Err(wait) = state
        .take_filing(client_ip(&state, &headers, peer))
        .await
        .map_err(ApiError::from)?
    {
        let error = format!("too many filings from this address: try again in {wait} s");
        return Ok(page(
            StatusCode::TOO_MANY_REQUESTS,
            "file.html",
            who.as_ref(),
            &csrf,
            context! { text => form.text, error },
        ));
    }
    let text = form.text.clone();
    Ok(match api::file_text(&state, form.text, "web").await? {
        Lodged::Filed(filed) => page(
            StatusCode::CREATED,
            "file.html",
            who.as_ref(),
            &csrf,
            context! { filed => v(&filed) },
        ),
        Lodged::Refused(findings) => {
            let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
            page(
                StatusCode::UNPROCESSABLE_ENTITY,
                "file.html",
                who.as_ref(),
                &csrf,
                context! { text, findings => v(&findings), errors },
            )
        }
        Lodged::Amended(..) => error_page(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
    })
}

/// `GET /signin`.
pub(crate) async fn signin_form(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    let csrf = csrf(&state, &headers)?;
    Ok(page(
        StatusCode::OK,
        "signin.html",
        who.as_ref(),
        &csrf,
        context! {},
    ))
}

#[derive(Deserialize)]
pub(crate) struct SigninForm {
    csrf: String,
    token: String,
}

/// `POST /signin`: a session for the token's holder; experts go to the
/// queue, registrants to their request.
pub(crate) async fn signin(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Form(form): Form<SigninForm>,
) -> Result<Response, Response> {
    check_csrf(&headers, &form.csrf, None)?;
    let token = form.token.trim().to_string();
    let who = if token.len() == tokens::MAX_TOKEN_LEN {
        state
            .readers
            .run(move |store| tokens::authenticate(store.connection(), &token))
            .await
            .map_err(ApiError::from)?
    } else {
        None
    };
    let Some(principal) = who else {
        let csrf = csrf(&state, &headers)?;
        return Ok(page(
            StatusCode::UNAUTHORIZED,
            "signin.html",
            None,
            &csrf,
            context! { error => "that is not a valid token of this registry" },
        ));
    };
    let id = random_hex(32).map_err(ApiError::from)?;
    let csrf_token = random_hex(32).map_err(ApiError::from)?;
    let key: [u8; 32] = Sha256::digest(id.as_bytes()).into();
    let target = match &principal {
        Principal::Expert { .. } => "/queue".to_string(),
        Principal::Registrant { request } => format!("/requests/{request}"),
    };
    let lifetime = state.config.session_lifetime.as_secs();
    let stored = {
        let csrf_token = csrf_token.clone();
        state
            .writer
            .run(move |store| sessions::create(store.connection(), &key, &principal, &csrf_token, lifetime))
            .await
    };
    match stored {
        Ok(()) => {}
        Err(crate::registry::Error::State(why)) => {
            return Err(error_page(StatusCode::SERVICE_UNAVAILABLE, &why));
        }
        Err(e) => return Err(ApiError::from(e).into_response()),
    }
    let mut response = Redirect::to(&target).into_response();
    let age = state.config.session_lifetime.as_secs();
    let h = response.headers_mut();
    h.append(
        header::SET_COOKIE,
        set_cookie(&state, SESSION_COOKIE, &id, Some(age)),
    );
    h.append(
        header::SET_COOKIE,
        set_cookie(&state, CSRF_COOKIE, &csrf_token, None),
    );
    Ok(response)
}

#[derive(Deserialize)]
pub(crate) struct CsrfForm {
    csrf: String,
}

/// `POST /signout`: ends the session.
pub(crate) async fn signout(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, Response> {
    let who = session(&state, &headers).await?;
    check_csrf(&headers, &form.csrf, who.as_ref())?;
    if let Some(id) = cookie(&headers, SESSION_COOKIE) {
        let key: [u8; 32] = Sha256::digest(id.as_bytes()).into();
        state
            .writer
            .run(move |store| sessions::end(store.connection(), &key))
            .await
            .map_err(|e| ApiError::from(e).into_response())?;
    }
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&state, SESSION_COOKIE, "", Some(0)),
    );
    Ok(response)
}

/// The signed-in expert, or the sign-in page's refusal.
async fn expert_session(state: &Arc<AppState>, headers: &HeaderMap) -> Result<Session, Response> {
    match session(state, headers).await? {
        Some(s) if matches!(s.principal, Principal::Expert { .. }) => Ok(s),
        Some(_) => Err(error_page(
            StatusCode::FORBIDDEN,
            "this page is for experts: a registrant's token cannot open it",
        )),
        None => Err(error_page(
            StatusCode::UNAUTHORIZED,
            "sign in with an expert's token first",
        )),
    }
}

/// `GET /queue`: the expert's worklist.
pub(crate) async fn queue(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let who = expert_session(&state, &headers).await?;
    let csrf = csrf(&state, &headers)?;
    let pending = state
        .readers
        .run(|store| store.queue())
        .await
        .map_err(ApiError::from)?;
    Ok(page(
        StatusCode::OK,
        "queue.html",
        Some(&who),
        &csrf,
        context! { pending => v(&pending) },
    ))
}

/// One field of the review diff.
#[derive(Serialize)]
struct FieldDiff {
    heading: &'static str,
    old: Option<String>,
    new: Option<String>,
    changed: bool,
}

/// What the request page shows an expert: lint findings, and the diff to
/// the version in force.
struct ReviewView {
    request: RequestView,
    findings: Vec<lint::Finding>,
    base: Option<i64>,
    diff: Vec<FieldDiff>,
}

fn review_view(store: &mut Store, id: i64) -> Result<ReviewView, Error> {
    let request = requests::request(store.connection(), id)?;
    let file = request.to_file();
    let ctx = lint::LintContext::of(store)?;
    let filing = ctx.filing_for(&file);
    let findings = lint::lint_as(&file, &ctx, &filing);
    let in_force = match (&request.nid, request.version > 1) {
        (Some(nid), true) => store.show(nid, None)?.registration,
        _ => None,
    };
    let diff = FIELDS
        .iter()
        .filter(|(key, _, appendix_a)| *appendix_a && *key != "namespace_identifier")
        .map(|(key, heading, _)| {
            let new = request.fields.get(key).cloned().flatten();
            let old = in_force
                .as_ref()
                .and_then(|v| v.fields.get(key).cloned().flatten());
            FieldDiff {
                heading,
                changed: in_force.is_none() || old != new,
                old,
                new,
            }
        })
        .collect();
    Ok(ReviewView {
        base: in_force.map(|v| v.version),
        request,
        findings,
        diff,
    })
}

async fn render_review(
    state: &Arc<AppState>,
    headers: &HeaderMap,
    who: &Session,
    id: i64,
    status: StatusCode,
    error: Option<String>,
) -> Result<Response, Response> {
    let csrf = csrf(state, headers)?;
    let view = state
        .readers
        .run(move |store| review_view(store, id))
        .await
        .map_err(ApiError::from)?;
    let pending = view.request.is_pending();
    Ok(page(
        status,
        "request.html",
        Some(who),
        &csrf,
        context! {
            r => v(&view.request),
            review => true,
            pending,
            findings => v(&view.findings),
            base => view.base,
            diff => v(&view.diff),
            error,
        },
    ))
}

/// `GET /review/{id}`: the request with its lint findings and its diff
/// to the version in force, and the decision form.
pub(crate) async fn review_form(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let id = path_request_id(&id)?;
    let who = expert_session(&state, &headers).await?;
    render_review(&state, &headers, &who, id, StatusCode::OK, None).await
}

#[derive(Deserialize)]
pub(crate) struct ReviewForm {
    csrf: String,
    #[serde(default)]
    decision: String,
    note: String,
    /// The request's amendment count on the page the expert read.
    #[serde(default)]
    amendments: String,
}

/// `POST /review/{id}`: records the decision, as the signed-in expert.
pub(crate) async fn review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ReviewForm>,
) -> Result<Response, Response> {
    let id = path_request_id(&id)?;
    let who = expert_session(&state, &headers).await?;
    check_csrf(&headers, &form.csrf, Some(&who))?;
    let Some(decision) = api::decision(&form.decision) else {
        let error = Some("choose approve, ask for changes or reject".to_string());
        return render_review(
            &state,
            &headers,
            &who,
            id,
            StatusCode::UNPROCESSABLE_ENTITY,
            error,
        )
        .await;
    };
    let name = who.principal.actor().to_string();
    // The form always carries the count it was made with; a decision on
    // a text replaced since is refused (409), the page shows the new one.
    let read = form.amendments.trim().parse::<i64>().ok();
    match api::decide(&state, id, decision, form.note, name, read).await {
        Ok(_) => Ok(Redirect::to(&format!("/review/{id}")).into_response()),
        Err(e) if e.status.is_client_error() && e.status != StatusCode::NOT_FOUND => {
            let message = match &e.findings {
                Some(f) => format!("{}: {f}", e.message),
                None => e.message,
            };
            render_review(&state, &headers, &who, id, e.status, Some(message)).await
        }
        Err(e) => Err(e.into()),
    }
}

/// The signed-in principal allowed to see request `id`, or the refusal.
async fn request_session(state: &Arc<AppState>, headers: &HeaderMap, id: i64) -> Result<Session, Response> {
    let Some(who) = session(state, headers).await? else {
        return Err(error_page(
            StatusCode::UNAUTHORIZED,
            "sign in with the request's token first",
        ));
    };
    if !api::may_read(&who.principal, id) {
        return Err(error_page(
            StatusCode::FORBIDDEN,
            "you are signed in for another request",
        ));
    }
    Ok(who)
}

/// Renders the registrant's page of request `id`; `amending` is the text
/// and findings of a refused amendment.
async fn render_request(
    state: &Arc<AppState>,
    headers: &HeaderMap,
    who: &Session,
    id: i64,
    status: StatusCode,
    amending: Option<(String, Vec<lint::Finding>)>,
) -> Result<Response, Response> {
    let csrf = csrf(state, headers)?;
    let request = state
        .readers
        .run(move |store| requests::request(store.connection(), id))
        .await
        .map_err(ApiError::from)?;
    let diff: Vec<FieldDiff> = FIELDS
        .iter()
        .filter(|(_, _, appendix_a)| *appendix_a)
        .map(|(key, heading, _)| FieldDiff {
            heading,
            old: None,
            new: request.fields.get(key).cloned().flatten(),
            changed: false,
        })
        .collect();
    let is_registrant = matches!(who.principal, Principal::Registrant { .. });
    let (text, findings) = match amending {
        Some((text, findings)) => (text, findings),
        None => (
            toml::to_string(&request.to_file()).unwrap_or_default(),
            Vec::new(),
        ),
    };
    Ok(page(
        status,
        "request.html",
        Some(who),
        &csrf,
        context! {
            r => v(&request),
            review => false,
            diff => v(&diff),
            may_amend => is_registrant && request.is_pending(),
            text,
            findings => v(&findings),
        },
    ))
}

/// `GET /requests/{id}`: a registrant's view of their request, with the
/// amend and withdraw forms while it is pending (experts see every
/// request, without them).
pub(crate) async fn request_page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let id = path_request_id(&id)?;
    let who = request_session(&state, &headers, id).await?;
    render_request(&state, &headers, &who, id, StatusCode::OK, None).await
}

/// The registrant's session for request `id`, or the refusal.
async fn registrant_session(
    state: &Arc<AppState>,
    headers: &HeaderMap,
    id: i64,
) -> Result<Session, Response> {
    let who = request_session(state, headers, id).await?;
    match who.principal {
        Principal::Registrant { .. } => Ok(who),
        Principal::Expert { .. } => Err(error_page(
            StatusCode::FORBIDDEN,
            "only the registrant amends or withdraws a request",
        )),
    }
}

#[derive(Deserialize)]
pub(crate) struct AmendForm {
    csrf: String,
    text: String,
}

/// `POST /requests/{id}/amend`: the registrant's new text; lint findings
/// inline when refused.
pub(crate) async fn amend(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<AmendForm>,
) -> Result<Response, Response> {
    let id = path_request_id(&id)?;
    let who = registrant_session(&state, &headers, id).await?;
    check_csrf(&headers, &form.csrf, Some(&who))?;
    api::take_filing(&state, &headers, peer).await?;
    let text = form.text.clone();
    match api::amend_text(&state, id, form.text, "web").await {
        Ok(Lodged::Refused(findings)) => {
            render_request(
                &state,
                &headers,
                &who,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some((text, findings)),
            )
            .await
        }
        Ok(_) => Ok(Redirect::to(&format!("/requests/{id}")).into_response()),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub(crate) struct WithdrawForm {
    csrf: String,
    #[serde(default)]
    note: String,
}

/// `POST /requests/{id}/withdraw`.
pub(crate) async fn withdraw(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<WithdrawForm>,
) -> Result<Response, Response> {
    let id = path_request_id(&id)?;
    let who = registrant_session(&state, &headers, id).await?;
    check_csrf(&headers, &form.csrf, Some(&who))?;
    let note = Some(form.note).filter(|n| !n.trim().is_empty());
    api::withdraw_request(&state, id, note).await?;
    Ok(Redirect::to(&format!("/requests/{id}")).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        let env = environment();
        for name in [
            "layout.html",
            "check.html",
            "file.html",
            "signin.html",
            "queue.html",
            "request.html",
            "error.html",
        ] {
            env.get_template(name).unwrap();
        }
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        // RFC 4648 section 10.
        for (input, out) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), out);
        }
    }
}
