//! `urnreg serve`: the registry as an HTTP service (see `urnreg::serve`).

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use urnreg::serve::{self, AccessLogLine, AppState, Config};

use super::db::{ActorArgs, DbArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on (TLS belongs to a reverse proxy in front:
    /// see docs/serve/).
    #[arg(long, default_value = "127.0.0.1:8141", value_name = "ADDR:PORT")]
    bind: SocketAddr,
    /// Behind a reverse proxy: take the client's address (for the filing
    /// rate limit) from the last X-Forwarded-For entry.
    #[arg(long)]
    trust_forwarded_for: bool,
    /// Mark cookies Secure (when the proxy in front speaks HTTPS).
    #[arg(long)]
    secure_cookies: bool,
    /// Filings one client address may make at once (1 to 1,000,000).
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    filing_burst: u32,
    /// Filings one client address regains per hour (1 to 1,000,000).
    #[arg(long, default_value_t = 30, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    filings_per_hour: u32,
    /// Seconds a request's headers may take from their first byte; slower
    /// ones get 408 and are closed.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds a kept-alive connection may wait for its next request.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    idle_timeout: u64,
    /// Seconds a request's body may go without a byte arriving; then 408
    /// and the connection is closed.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,
    /// Bytes per second: when the server is full, a request whose body has
    /// arrived slower than this since its headers (after a second's grace)
    /// may be closed with 408 to make room, after idle connections.
    #[arg(long, default_value_t = 1024, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..=1_073_741_824))]
    min_body_rate: u64,
    /// Connections at once (default: 4096, or the open-file limit less
    /// 128). Past it, the oldest connection without a request in progress
    /// is closed to make room.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: Option<u64>,
    /// Connections at once from one client address (not applied with
    /// --trust-forwarded-for: the proxy's one address carries everyone).
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_per_client: u64,
    /// MiB that the request bodies in flight may take together; a request
    /// whose body does not fit gets 503 with Retry-After before any of it
    /// is read (at least 5: the largest body, a POST /api/check's 4 MiB,
    /// with the 472 KiB its answer reserves).
    #[arg(long, default_value_t = 256, value_name = "MIB", value_parser = clap::value_parser!(u64).range(5..=1_048_576))]
    max_body_memory: u64,
    /// No access log on stderr.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    actor: ActorArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A typo in `--db` is refused as every writing command refuses it,
    // not served as a new registry in a new tree of directories.
    let mut config = Config::new(args.db.path_for_write(super::db::Create::FileOnly)?);
    config.actor = args.actor.actor();
    config.trust_forwarded_for = args.trust_forwarded_for;
    config.secure_cookies = args.secure_cookies;
    config.filing_burst = args.filing_burst;
    config.filings_per_hour = args.filings_per_hour;
    config.max_body_memory = (args.max_body_memory as usize).saturating_mul(1024 * 1024);
    config.limits = serve::Limits {
        header_timeout: std::time::Duration::from_secs(args.header_timeout),
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout),
        body_timeout: std::time::Duration::from_secs(args.body_timeout),
        min_body_rate: args.min_body_rate,
        max_connections: args
            .max_connections
            .map_or_else(serve::default_max_connections, |n| n as usize),
        max_per_client: args.max_per_client as usize,
    };
    if !args.quiet {
        // Method, path without its query, status, time: never a header or
        // a body, so never a token. Control characters and bidi overrides
        // in the path are written escaped.
        config.access_log = Some(Arc::new(|l: &AccessLogLine| {
            let _ = writeln!(
                std::io::stderr().lock(),
                "{} {} {} {} {:.1}ms",
                l.client.ip(),
                l.method,
                // A client's bytes, escaped as every message we print.
                super::output::printable_line(&l.path),
                l.status,
                l.elapsed.as_secs_f64() * 1000.0
            );
        }));
    }
    let db_path = config.db.clone();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let state = AppState::open(config).with_context(|| format!("opening {}", db_path.display()))?;
        if !state.is_writable() {
            eprintln!(
                "warning: {} may not be written here (its file or directory is read-only for this \
                 process): pages and checks are served, but filings, amendments and reviews are refused (503)",
                super::output::printable_line(&db_path.display().to_string())
            );
        }
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("listening on {}", args.bind))?;
        let addr = listener.local_addr()?;
        {
            let mut out = std::io::stdout().lock();
            writeln!(out, "urnreg serve: {} on http://{addr}/", db_path.display())?;
            out.flush()?;
        }
        serve::run(state, listener, serve::shutdown_signal())
            .await
            .context("serving")?;
        writeln!(std::io::stdout(), "urnreg serve: stopped")?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
