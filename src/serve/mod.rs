//! `urnreg serve`: the registry as an HTTP service, on the same database
//! and the same library as the command line (feature `serve`).
//!
//! - Public, no account: the HTML index and namespace pages (the static
//!   site's templates), `/check`, and the JSON API: `GET /api/namespaces`,
//!   `/api/namespaces/{nid}`, `/api/namespaces/{nid}/versions/{n}`,
//!   `GET /api/check?urn=`, `POST /api/check` (one URN per line, the objects
//!   of `check --format jsonl` out), `GET /api/snapshot?format=json|xml|csv`
//!   (with `ETag` and `If-None-Match`).
//! - Filing: `POST /api/requests` with a registration file (TOML) runs the
//!   same lint as `urnreg request`: 422 with the findings, or 201 with
//!   `{id, nid, status, version, token}`. The token (shown once, stored
//!   hashed) lets its holder read the request's state and review notes
//!   (`GET /api/requests/{id}`), amend it (`PUT`, a new TOML text, linted
//!   as `urnreg amend` lints it) and withdraw it (`DELETE`). Filing is
//!   rate-limited per client address.
//! - Review: experts (`urnreg expert add NAME`) send
//!   `Authorization: Bearer TOKEN` to `GET /api/queue` and
//!   `POST /api/requests/{id}/review`; 401 without a valid token, 403 for a
//!   registrant's token. In a browser: sign in with the token (an HttpOnly,
//!   SameSite=Strict session cookie), the queue and review pages; every
//!   form carries a CSRF token.
//!
//! Refusals are ours, never the framework's text: JSON under `/api/`,
//! `/uri-res/` and `/resolve/`, a page in the site's layout elsewhere (a
//! path no route knows included); the extractors (`extract`) say what in
//! a query, a path, a form or a body could not be read.
//!
//! Handlers are thin: they parse, call the library (the [`Store`], the
//! [`Registry`] read model, lint, snapshots, the site), and serialize.
//!
//! Safety: bodies are limited in size ([`Config::max_body`], more for
//! `/api/check`, which also limits its lines) and together in memory
//! ([`Config::max_body_memory`]), every request in time
//! ([`Config::request_timeout`]); responses carry a Content-Security-Policy,
//! `X-Content-Type-Options: nosniff` and `frame-ancestors 'none'`; tokens
//! are compared in constant time and never logged (the access log has the
//! method, the path without its query, the status and the time). TLS is
//! left to a reverse proxy (`docs/serve/`).
//!
//! [`Store`]: crate::registry::Store
//! [`Registry`]: crate::Registry

mod answer;
mod api;
mod conn;
mod extract;
mod http;
mod pages;
pub mod requests;
mod resolve;
mod sessions;
mod state;
pub mod tokens;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use answer::{ANSWER_PIECE, CHECK_ANSWER_BYTES, MAX_CONNECTION_BUFFER};
pub use conn::{Limits, default_max_connections};
pub use state::AppState;

/// One line of the access log: never a header, a body or a query string,
/// so no token ever reaches it.
#[derive(Clone, Debug)]
pub struct AccessLogLine {
    /// The client's address.
    pub client: SocketAddr,
    /// The method.
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The status sent.
    pub status: u16,
    /// How long the answer took.
    pub elapsed: Duration,
}

/// Where access log lines go (the CLI prints them on stderr).
pub type AccessLog = Arc<dyn Fn(&AccessLogLine) + Send + Sync>;

/// The memory request bodies in flight may take together by default
/// ([`Config::max_body_memory`]): 256 MiB, some 80 filings of the largest
/// size at once.
pub const DEFAULT_MAX_BODY_MEMORY: usize = 256 * 1024 * 1024;

/// How the server runs.
#[derive(Clone)]
pub struct Config {
    /// The registry database (created from the embedded registry if it
    /// does not exist).
    pub db: PathBuf,
    /// Who `init` names in the audit log when the database is created.
    pub actor: String,
    /// The largest request body, in bytes (forms, reviews).
    pub max_body: usize,
    /// The largest body of a filing or an amendment (a registration file,
    /// raw or as a form), in bytes.
    pub max_filing_body: usize,
    /// The largest `POST /api/check` body, in bytes.
    pub max_check_body: usize,
    /// The most URNs one `POST /api/check` may hold.
    pub max_check_lines: usize,
    /// The memory all request bodies in flight may take together, in
    /// bytes: each request reserves its announced length (or its route's
    /// limit when it announces none) before its body is read, and gets 503
    /// with `Retry-After` when the reservation does not fit. A
    /// `POST /api/check` reserves [`CHECK_ANSWER_BYTES`] more for its
    /// answer, and holds it all until the answer is sent.
    pub max_body_memory: usize,
    /// How long one request may take, reading its body included.
    pub request_timeout: Duration,
    /// Filings a client may make at once (the bucket's size).
    pub filing_burst: u32,
    /// Filings a client regains per hour.
    pub filings_per_hour: u32,
    /// Take the client address from the last `X-Forwarded-For` entry (set
    /// it behind a reverse proxy that sets that header, never otherwise).
    pub trust_forwarded_for: bool,
    /// Mark cookies `Secure` (behind an HTTPS proxy).
    pub secure_cookies: bool,
    /// How long a browser session lasts.
    pub session_lifetime: Duration,
    /// Connection limits: header and idle timeouts, connections at once.
    pub limits: Limits,
    /// The access log, if any.
    pub access_log: Option<AccessLog>,
}

impl Config {
    /// The defaults for a database at `db`.
    pub fn new(db: PathBuf) -> Config {
        Config {
            db,
            actor: "urnreg".into(),
            max_body: 256 * 1024,
            // A registration file of the largest size, sent as a form
            // (percent-encoding can triple it), and a little more.
            max_filing_body: 3 * crate::registry::MAX_REGISTRATION_BYTES + 64 * 1024,
            max_check_body: 4 * 1024 * 1024,
            max_check_lines: 10_000,
            max_body_memory: DEFAULT_MAX_BODY_MEMORY,
            request_timeout: Duration::from_secs(30),
            filing_burst: 10,
            filings_per_hour: 30,
            trust_forwarded_for: false,
            secure_cookies: false,
            session_lifetime: Duration::from_secs(8 * 3600),
            limits: Limits::default(),
            access_log: None,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("db", &self.db)
            .field("max_body", &self.max_body)
            .field("max_filing_body", &self.max_filing_body)
            .field("max_body_memory", &self.max_body_memory)
            .field("request_timeout", &self.request_timeout)
            .finish_non_exhaustive()
    }
}

/// The service's routes over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    let check_limit = state.config.max_check_body;
    let max_body = state.config.max_body;
    let api_check = Router::new()
        .route("/api/check", get(api::check_one).post(api::check_many))
        .layer(DefaultBodyLimit::max(check_limit));
    // Filings and amendments carry a registration file: their own limit
    // (see `http::is_filing`).
    let filings = Router::new()
        .route("/file", get(pages::file_form).post(pages::file))
        .route("/requests/{id}/amend", post(pages::amend))
        .route("/api/requests", post(api::file))
        .route(
            "/api/requests/{id}",
            get(api::request).put(api::amend).delete(api::withdraw),
        )
        .layer(DefaultBodyLimit::max(state.config.max_filing_body));
    Router::new()
        .route("/", get(pages::index))
        .route("/index.html", get(pages::to_index))
        .route("/ns/{page}", get(pages::to_namespace))
        .route("/namespaces/{nid}", get(pages::namespace))
        .route("/data/{file}", get(pages::data_file))
        .route("/check", get(pages::check_form).post(pages::check))
        .route("/signin", get(pages::signin_form).post(pages::signin))
        .route("/signout", post(pages::signout))
        .route("/queue", get(pages::queue))
        .route("/review/{id}", get(pages::review_form).post(pages::review))
        .route("/requests/{id}", get(pages::request_page))
        .route("/requests/{id}/withdraw", post(pages::withdraw))
        .route("/api/namespaces", get(api::namespaces))
        .route("/api/namespaces/{nid}", get(api::namespace))
        .route("/api/namespaces/{nid}/versions/{n}", get(api::version))
        .route("/api/snapshot", get(api::snapshot))
        .route("/api/requests/{id}/review", post(api::review))
        .route("/api/queue", get(api::queue))
        .route("/api/keywords", get(resolve::keywords))
        .route("/api/services", get(resolve::services))
        .route("/uri-res/{service}", get(resolve::uri_res))
        .route("/resolve/{*urn}", get(resolve::resolve))
        .layer(DefaultBodyLimit::max(max_body))
        .merge(api_check)
        .merge(filings)
        .fallback(http::not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            http::guard,
        ))
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` resolves; requests in
/// flight then finish (each within the request timeout) before it returns.
/// The read model follows commits of other processes once a second.
///
/// # Errors
///
/// The I/O error of the listener.
pub async fn run(
    state: Arc<AppState>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let watcher = {
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                // A failed look is tried again at the next tick.
                let _ = state.refresh().await;
            }
        })
    };
    let (limits, per_client) = (state.config.limits, !state.config.trust_forwarded_for);
    let served = conn::serve(listener, router(state), limits, per_client, shutdown).await;
    watcher.abort();
    served
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
