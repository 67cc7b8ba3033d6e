//! Connections: accepted, bounded and timed out by the service itself, so
//! that slow clients cannot hold the registry dark.
//!
//! - A request's headers must arrive within [`Limits::header_timeout`] of
//!   its first byte, else the client gets `408 Request Timeout` and the
//!   connection is closed.
//! - A kept-alive connection waits at most [`Limits::idle_timeout`] for its
//!   next request, then is closed quietly.
//! - A request's body must keep coming: at most [`Limits::body_timeout`]
//!   between two reads of it (as nginx's `client_body_timeout`), else
//!   `408` and the connection is closed. The whole request, its body
//!   included, has the service's request time limit besides.
//! - At most [`Limits::max_connections`] connections at once, and
//!   [`Limits::max_per_client`] from one address (not applied behind a
//!   trusted proxy, whose one address carries every client). When a new
//!   connection would go over either, a connection of the same scope
//!   that has no request in progress is closed to make room: the one that
//!   has waited longest without being answered (silent since it
//!   connected, or sending its headers), else the oldest of a client that
//!   was answered and is between requests, else one whose request body
//!   arrives slower than [`Limits::min_body_rate`] on average since its
//!   headers (after a second's grace), the slowest first, which gets
//!   `408`; if every one is busy, the new one is closed. A flood of
//!   connections that never finish their headers, or trickle their
//!   bodies, therefore cannot keep other clients out, and the process
//!   never holds more sockets than the cap.
//! - After the shutdown signal no connection is accepted; requests in
//!   flight finish (each within the request time limit).

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tower::ServiceExt;

/// The service's connection limits (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a request's headers may take, from their first byte.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// How long a request's body may go without a byte arriving.
    pub body_timeout: Duration,
    /// Bytes per second below which a request's body, on average since
    /// its headers and after a second's grace, makes its connection one
    /// that may be closed to make room when the server is full.
    pub min_body_rate: u64,
    /// Connections at once, overall.
    pub max_connections: usize,
    /// Connections at once from one client address.
    pub max_per_client: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(10),
            min_body_rate: 1024,
            max_connections: default_max_connections(),
            max_per_client: 64,
        }
    }
}

/// The most connections the service takes by default: 4096, or fewer when
/// the process may open fewer files (its soft limit less 128 for the
/// database and the rest), at least 16.
pub fn default_max_connections() -> usize {
    let open_files = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|soft| soft.parse::<usize>().ok())
        });
    match open_files {
        Some(n) => n.saturating_sub(128).clamp(16, 4096),
        None => 4096,
    }
}

/// Where a connection is.
const IDLE: u8 = 0;
const READING_HEAD: u8 = 1;
const BUSY: u8 = 2;
/// The headers are in, the body is still arriving.
const READING_BODY: u8 = 3;

/// How long a body may arrive slower than [`Limits::min_body_rate`] before
/// its connection may be closed to make room.
const BODY_GRACE_MS: u64 = 1000;

/// What the watchdog of one connection reads: its phase and since when (in
/// milliseconds from the server's start).
struct Phase {
    phase: AtomicU8,
    since: AtomicU64,
    /// It has answered a request (a client that works, not a flood's).
    served: AtomicBool,
    /// Bytes read from the socket so far.
    received: AtomicU64,
    /// `received` when the current request's body began.
    body_from: AtomicU64,
    /// When a byte last arrived.
    last_read: AtomicU64,
    clock: Instant,
    /// Wakes the watchdog when the phase changes.
    changed: Notify,
}

impl Phase {
    fn now(&self) -> u64 {
        self.clock.elapsed().as_millis() as u64
    }

    fn set(&self, phase: u8) {
        let was = self.phase.load(Ordering::Relaxed);
        if was != phase {
            if phase == IDLE && (was == BUSY || was == READING_BODY) {
                self.served.store(true, Ordering::Relaxed);
            }
            if phase == READING_BODY {
                self.body_from
                    .store(self.received.load(Ordering::Relaxed), Ordering::Relaxed);
            }
            self.since.store(self.now(), Ordering::Relaxed);
            self.phase.store(phase, Ordering::Relaxed);
            self.changed.notify_one();
        }
    }

    /// The body has arrived whole, or will not be read any further.
    fn body_done(&self) {
        if self.phase.load(Ordering::Relaxed) == READING_BODY {
            self.set(BUSY);
        }
    }

    /// The rate of the body being read, in bytes per second, if it is
    /// slower than `min_rate` past the grace second; `None` otherwise.
    fn slow_body(&self, min_rate: u64) -> Option<u64> {
        let elapsed = self.now().saturating_sub(self.since.load(Ordering::Relaxed));
        let got = self
            .received
            .load(Ordering::Relaxed)
            .saturating_sub(self.body_from.load(Ordering::Relaxed));
        let due = min_rate.saturating_mul(elapsed.saturating_sub(BODY_GRACE_MS)) / 1000;
        (elapsed > BODY_GRACE_MS && got < due).then(|| got.saturating_mul(1000) / elapsed.max(1))
    }
}

/// A request's body as the handler reads it: marks the connection busy
/// (no longer reading a body) once it has all arrived, or is dropped.
struct WatchedBody {
    inner: hyper::body::Incoming,
    phase: Arc<Phase>,
}

impl hyper::body::Body for WatchedBody {
    type Data = hyper::body::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let frame = ready!(Pin::new(&mut self.inner).poll_frame(cx));
        if !matches!(frame, Some(Ok(_))) || self.inner.is_end_stream() {
            self.phase.body_done();
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for WatchedBody {
    fn drop(&mut self) {
        self.phase.body_done();
    }
}

/// The socket as hyper sees it, marking the phase: bytes read while idle
/// begin a request (its headers). The service marks the rest: busy from
/// the moment the headers are read, idle again once the answer is made.
/// It shares the socket so that the watchdog can still write a `408` to it.
struct Tracked {
    stream: Arc<TcpStream>,
    phase: Arc<Phase>,
}

impl AsyncRead for Tracked {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        loop {
            ready!(self.stream.poll_read_ready(cx))?;
            match self.stream.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    if n > 0 {
                        self.phase.received.fetch_add(n as u64, Ordering::Relaxed);
                        self.phase.last_read.store(self.phase.now(), Ordering::Relaxed);
                        if self.phase.phase.load(Ordering::Relaxed) == IDLE {
                            self.phase.set(READING_HEAD);
                        }
                    }
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl Tracked {
    /// Writes with `write` once the socket is ready for it, waiting again
    /// when the readiness was stale.
    fn poll_write_with(
        &self,
        cx: &mut Context<'_>,
        write: impl Fn(&TcpStream) -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.stream.poll_write_ready(cx))?;
            match write(&self.stream) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                other => return Poll::Ready(other),
            }
        }
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, |stream| stream.try_write(buf))
    }

    /// The head and the body in one `writev`: without it hyper copies
    /// every body into its own buffer first (a tenth of the time of a
    /// `POST /api/check` with its 350 KB answer went to that copy).
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, |stream| stream.try_write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Every write goes straight to the socket.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // The socket closes when the last handle to it is dropped.
        Poll::Ready(Ok(()))
    }
}

/// One open connection, as the table of connections knows it.
struct Entry {
    client: IpAddr,
    phase: Arc<Phase>,
    close: Arc<Notify>,
}

/// Every open connection, by number (in order of arrival).
#[derive(Default)]
struct Table {
    next: u64,
    open: BTreeMap<u64, Entry>,
    per_client: HashMap<IpAddr, usize>,
}

impl Table {
    /// Closes a connection (of `client`, if given) with no request in
    /// progress, or whose request body arrives slower than `min_rate`;
    /// false if there is none. The first to go is the one that has waited
    /// longest without ever being answered (since it connected, or since
    /// its request head began to arrive: a flood's, silent or slow), then
    /// the oldest idle one of a client that has been answered and is
    /// between requests, and only then the slowest of the slow bodies.
    fn evict(&mut self, client: Option<IpAddr>, min_rate: u64) -> bool {
        let mut victim: Option<(u64, (u8, u64))> = None;
        for (&id, e) in &self.open {
            if client.is_some_and(|c| c != e.client) {
                continue;
            }
            let served = e.phase.served.load(Ordering::Relaxed);
            let rank = match e.phase.phase.load(Ordering::Relaxed) {
                READING_HEAD | IDLE if !served => (0, e.phase.since.load(Ordering::Relaxed)),
                READING_HEAD | IDLE => (1, id),
                READING_BODY => match e.phase.slow_body(min_rate) {
                    Some(rate) => (2, rate),
                    None => continue,
                },
                _ => continue,
            };
            if victim.is_none_or(|(_, best)| rank < best) {
                victim = Some((id, rank));
            }
        }
        match victim {
            Some((id, _)) => {
                if let Some(e) = self.remove(id) {
                    e.close.notify_one();
                }
                true
            }
            None => false,
        }
    }

    fn remove(&mut self, id: u64) -> Option<Entry> {
        let e = self.open.remove(&id)?;
        if let Some(n) = self.per_client.get_mut(&e.client) {
            *n -= 1;
            if *n == 0 {
                self.per_client.remove(&e.client);
            }
        }
        Some(e)
    }
}

/// What a connection task is told to do, when the table closes it or the
/// server stops.
struct Shared {
    limits: Limits,
    per_client: bool,
    table: Mutex<Table>,
    /// Connection tasks still running.
    running: AtomicU64,
    all_done: Notify,
    clock: Instant,
}

/// A `408 Request Timeout`, written straight to the socket.
const REQUEST_TIMEOUT: &[u8] =
    b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/// Accepts connections on `listener` and serves `app` on each, within
/// `limits`, until `shutdown` resolves; then waits for the connections to
/// finish their requests.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    per_client: bool,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let shared = Arc::new(Shared {
        limits,
        per_client,
        table: Mutex::new(Table::default()),
        running: AtomicU64::new(0),
        all_done: Notify::new(),
        clock: Instant::now(),
    });
    let stopping = Arc::new(tokio::sync::watch::channel(false).0);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors, or a connection reset before it was
                // taken: wait a little and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let Some((id, phase, close)) = admit(&shared, peer.ip()) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        shared.running.fetch_add(1, Ordering::SeqCst);
        let (shared, app, stop) = (Arc::clone(&shared), app.clone(), stopping.subscribe());
        tokio::spawn(async move {
            connection(stream, peer, app, &shared, phase, close, stop).await;
            shared.table.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
            if shared.running.fetch_sub(1, Ordering::SeqCst) == 1 {
                shared.all_done.notify_waiters();
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    // Wait for the connections still open (each finishes its request).
    loop {
        let done = shared.all_done.notified();
        if shared.running.load(Ordering::SeqCst) == 0 {
            break;
        }
        done.await;
    }
    Ok(())
}

/// Makes room for a connection from `client` and enters it in the table;
/// `None` when there is no room.
fn admit(shared: &Shared, client: IpAddr) -> Option<(u64, Arc<Phase>, Arc<Notify>)> {
    let mut table = shared.table.lock().unwrap_or_else(|p| p.into_inner());
    if shared.per_client
        && table.per_client.get(&client).copied().unwrap_or(0) >= shared.limits.max_per_client
        && !table.evict(Some(client), shared.limits.min_body_rate)
    {
        return None;
    }
    if table.open.len() >= shared.limits.max_connections && !table.evict(None, shared.limits.min_body_rate) {
        return None;
    }
    let phase = Arc::new(Phase {
        phase: AtomicU8::new(IDLE),
        since: AtomicU64::new(0),
        served: AtomicBool::new(false),
        received: AtomicU64::new(0),
        body_from: AtomicU64::new(0),
        last_read: AtomicU64::new(0),
        clock: shared.clock,
        changed: Notify::new(),
    });
    phase.since.store(phase.now(), Ordering::Relaxed);
    let close = Arc::new(Notify::new());
    let id = table.next;
    table.next += 1;
    table.open.insert(
        id,
        Entry {
            client,
            phase: Arc::clone(&phase),
            close: Arc::clone(&close),
        },
    );
    *table.per_client.entry(client).or_default() += 1;
    Some((id, phase, close))
}

/// Serves one connection until it ends, times out, is closed to make room,
/// or the server stops.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    shared: &Shared,
    phase: Arc<Phase>,
    close: Arc<Notify>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let stream = Arc::new(stream);
    let io = Tracked {
        stream: Arc::clone(&stream),
        phase: Arc::clone(&phase),
    };
    let marks = Arc::clone(&phase);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        // The headers are in: the body follows (the handler's time limit
        // covers it, the watchdog its pace), then the request is the
        // handler's.
        use hyper::body::Body as _;
        marks.set(if request.body().is_end_stream() {
            BUSY
        } else {
            READING_BODY
        });
        request.extensions_mut().insert(ConnectInfo(peer));
        let phase = Arc::clone(&marks);
        let request = request.map(|inner| axum::body::Body::new(WatchedBody { inner, phase }));
        let answer = app.clone().oneshot(request);
        let marks = Arc::clone(&marks);
        async move {
            let response = answer.await;
            // Answered: the connection waits for its next request.
            marks.set(IDLE);
            response
        }
    });
    // The connection's buffers: a request's head must fit in one, and an
    // answer is written to the socket before more than that of it is
    // buffered (a streamed answer is then asked for no more until the
    // client reads).
    let conn = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .max_buf_size(super::MAX_CONNECTION_BUFFER)
        .serve_connection(TokioIo::new(io), service);
    tokio::pin!(conn);
    let limits = shared.limits;
    let mut stopping = *stop.borrow();
    if stopping {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        // The next moment the phase could time out.
        let since = Duration::from_millis(phase.since.load(Ordering::Relaxed));
        let last_read = Duration::from_millis(phase.last_read.load(Ordering::Relaxed));
        let deadline = match phase.phase.load(Ordering::Relaxed) {
            IDLE => Some(since + limits.idle_timeout),
            READING_HEAD => Some(since + limits.header_timeout),
            READING_BODY => Some(since.max(last_read) + limits.body_timeout),
            _ => None,
        };
        let wait = deadline.map(|d| d.saturating_sub(shared.clock.elapsed()));
        tokio::select! {
            _ = conn.as_mut() => return,
            () = close.notified() => {
                match phase.phase.load(Ordering::Relaxed) {
                    // Closed to make room: a body too slow gets its answer.
                    READING_BODY => {
                        let _ = stream.try_write(REQUEST_TIMEOUT);
                        return;
                    }
                    // Chosen while its body was slow, but the body came in
                    // since and the request is being answered: dropping it
                    // now would leave a filing made and unanswered. It is
                    // answered, then the connection closes.
                    BUSY => {
                        stopping = true;
                        conn.as_mut().graceful_shutdown();
                    }
                    _ => return,
                }
            }
            () = phase.changed.notified() => {}
            changed = stop.changed(), if !stopping => {
                stopping = changed.is_err() || *stop.borrow();
                if stopping {
                    conn.as_mut().graceful_shutdown();
                }
            }
            () = tokio::time::sleep(wait.unwrap_or(Duration::from_secs(3600))) => {
                let now = Duration::from_millis(phase.now());
                let since = Duration::from_millis(phase.since.load(Ordering::Relaxed));
                match phase.phase.load(Ordering::Relaxed) {
                    IDLE if now >= since + limits.idle_timeout => return,
                    READING_HEAD if now >= since + limits.header_timeout => {
                        // Best effort: the client may be gone already.
                        let _ = stream.try_write(REQUEST_TIMEOUT);
                        return;
                    }
                    READING_BODY => {
                        let last_read = Duration::from_millis(phase.last_read.load(Ordering::Relaxed));
                        if now >= since.max(last_read) + limits.body_timeout {
                            let _ = stream.try_write(REQUEST_TIMEOUT);
                            return;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_follows_the_open_file_limit() {
        let n = default_max_connections();
        assert!((16..=4096).contains(&n), "{n}");
    }
}
