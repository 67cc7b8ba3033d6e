//! What the handlers share: the database connections, the read model the
//! checks run against, the caches of rendered snapshots and pages, the
//! filing rate limit and the browser sessions.
//!
//! Connections: one writer and a few readers, each a [`Store`] (SQLite's
//! rollback journal, a busy timeout, foreign keys on). Every write goes
//! through the one writer, so the server's own writes never wait on each
//! other inside SQLite; writes of other processes (`urnreg review` on the
//! server host) wait on SQLite's lock. The store uses the rollback
//! journal (`store::open` switches databases of older urnreg versions out
//! of WAL), so readers and writers do wait for each other
//! (<https://sqlite.org/lockingv3.html>): a writer's transaction takes the
//! RESERVED lock, which readers ignore, but its COMMIT takes the EXCLUSIVE
//! lock, waiting until no reader is in the middle of a read, and a reader
//! waits (with its busy timeout) while a commit holds it.
//! Store calls block, so they run on tokio's blocking pool, never on the
//! threads that serve connections.
//!
//! The time limit ([`Config::request_timeout`]) and writes: a blocking
//! task cannot be stopped, so dropping a request's future at its limit
//! would leave its write running, to commit after the client was told 503.
//! Each request therefore carries a [`Gate`], and the writer's connection
//! a commit hook (<https://sqlite.org/c3ref/commit_hook.html>: a hook that
//! returns non-zero turns the COMMIT into a ROLLBACK) that lets a write
//! commit only before the request's deadline and while the request has
//! not been answered 503; once a write is let commit, the time limit waits
//! for the handler's own answer instead. The writer's busy timeout is half
//! the time limit, so a lock another process holds ends in a 503 "busy,
//! retry" in time rather than in a late commit. So a client told 503 can
//! trust that its request stored nothing (only the filing rate limit
//! counts the attempt, see [`AppState::take_filing`]).

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::Semaphore;

use crate::Registry;
use crate::registry::{Error, Result, Store};
use crate::snapshot::ExportFormat;

use super::Config;

/// The fate of one request's writes, shared by the time limit (which
/// cancels it) and the writer's commit hook (which asks it).
pub(crate) struct Gate {
    deadline: Instant,
    state: AtomicU8,
}

/// No write of the request has been let commit, and it has not timed out.
const OPEN: u8 = 0;
/// The request was (or is being) answered 503: no write of it commits.
const CANCELLED: u8 = 1;
/// A write of the request has been let commit: its handler answers.
const COMMITTING: u8 = 2;

tokio::task_local! {
    /// The gate of the request this task serves (set by the time limit,
    /// `http::guard`).
    pub(crate) static GATE: Arc<Gate>;
}

impl Gate {
    /// The gate of a request that must be answered by `deadline`.
    pub(crate) fn new(deadline: Instant) -> Arc<Gate> {
        Arc::new(Gate {
            deadline,
            state: AtomicU8::new(OPEN),
        })
    }

    /// The time limit passed: true if no write of the request will commit
    /// (none had been let), so it may be answered 503; false if one has
    /// been let commit, so its handler must answer.
    pub(crate) fn cancel(&self) -> bool {
        match self
            .state
            .compare_exchange(OPEN, CANCELLED, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(state) => state == CANCELLED,
        }
    }

    fn is_cancelled(&self) -> bool {
        self.state.load(Ordering::SeqCst) == CANCELLED || Instant::now() >= self.deadline
    }

    /// Asked by the commit hook, right before COMMIT: may this write
    /// commit? Not after the deadline, nor once the request was answered
    /// 503. A write that `binds` the answer (the request's own change)
    /// makes the time limit wait for the handler from then on; bookkeeping
    /// (the filing rate limit) does not.
    fn may_commit(&self, binds: bool) -> bool {
        if Instant::now() >= self.deadline {
            self.cancel();
            return false;
        }
        if !binds {
            return self.state.load(Ordering::SeqCst) != CANCELLED;
        }
        match self
            .state
            .compare_exchange(OPEN, COMMITTING, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(state) => state == COMMITTING,
        }
    }
}

/// The gate the writer's commit hook asks, and whether the write binds
/// the answer ([`Gate::may_commit`]); none outside a request.
type GateSlot = Arc<Mutex<Option<(Arc<Gate>, bool)>>>;

/// The error a write refused by its gate gives (the commit hook's
/// rollback, `SQLITE_CONSTRAINT_COMMITHOOK`, or a write that had not begun).
fn past_deadline() -> Error {
    Error::State(TIMED_OUT.into())
}

/// What a write refused at the time limit says ([`super::http`] answers
/// it with 503).
pub(crate) const TIMED_OUT: &str = "the request reached the server's time limit: nothing was stored";

/// A few connections of one kind, handed out one closure at a time.
pub(crate) struct Pool {
    stores: Mutex<Vec<Store>>,
    /// One per connection in `stores`. A task holds its permit until it
    /// has put its connection back, not until its request is answered: a
    /// request given up on at the time limit leaves its task running
    /// (found in hostile testing: the permit went with the answer, the next task
    /// found no connection and panicked, "a permit stands for a free
    /// connection", and every request then answered 500 until the
    /// abandoned tasks were done; they also ran past the pool's size).
    permits: Arc<Semaphore>,
    /// The writer's: what its commit hook asks.
    gate: Option<GateSlot>,
}

impl Pool {
    fn new(stores: Vec<Store>) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(stores.len())),
            stores: Mutex::new(stores),
            gate: None,
        }
    }

    /// The writer: one connection whose commits ask the gate of the
    /// request that runs it, and whose busy timeout is `busy`.
    fn writer(store: Store, busy: Duration) -> Result<Pool> {
        let slot: GateSlot = Arc::new(Mutex::new(None));
        let hook = Arc::clone(&slot);
        // SQLite's busy handler: a write waiting for another process's
        // lock gives up with SQLITE_BUSY after `busy`
        // (https://sqlite.org/c3ref/busy_timeout.html).
        store.connection().busy_timeout(busy)?;
        // Returning true turns the COMMIT into a ROLLBACK
        // (https://sqlite.org/c3ref/commit_hook.html).
        store.connection().commit_hook(Some(move || {
            let gate = hook.lock().unwrap_or_else(|p| p.into_inner()).clone();
            gate.is_some_and(|(gate, binds)| !gate.may_commit(binds))
        }));
        Ok(Pool {
            gate: Some(slot),
            ..Pool::new(vec![store])
        })
    }

    /// Runs `f` with a connection of this pool on the blocking pool. On
    /// the writer, within a request, `f`'s commits are the request's
    /// change ([`Gate::may_commit`]).
    pub(crate) async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.run_gated(true, f).await
    }

    /// As [`Pool::run`], for bookkeeping that does not bind the answer
    /// (the filing rate limit): it commits only before the deadline too,
    /// but a 503 may still follow it.
    pub(crate) async fn run_bookkeeping<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.run_gated(false, f).await
    }

    async fn run_gated<T: Send + 'static>(
        self: &Arc<Self>,
        binds: bool,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let gate = GATE.try_with(Arc::clone).ok();
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| Error::State("the server is shutting down".into()))?;
        let pool = Arc::clone(self);
        let out = tokio::task::spawn_blocking(move || {
            // Held until the connection is back, however the request ends.
            let _permit = permit;
            // A write whose request was answered 503 while it waited for
            // the connection does not begin.
            if pool.gate.is_some() && gate.as_ref().is_some_and(|g| g.is_cancelled()) {
                return Ok(Err(past_deadline()));
            }
            let Some(mut store) = pool.stores.lock().unwrap_or_else(|p| p.into_inner()).pop() else {
                // A permit stands for a free connection; were it not so,
                // this request fails rather than the process.
                return Ok(Err(Error::State("no free database connection".into())));
            };
            if let Some(slot) = &pool.gate {
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = gate.clone().map(|g| (g, binds));
            }
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut store)));
            if let Some(slot) = &pool.gate {
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = None;
            }
            pool.stores.lock().unwrap_or_else(|p| p.into_inner()).push(store);
            // The commit hook's rollback (or a refusal after it) as what it is.
            match out {
                Ok(Err(_)) if pool.gate.is_some() && gate.as_ref().is_some_and(|g| g.is_cancelled()) => {
                    Ok(Err(past_deadline()))
                }
                out => out,
            }
        })
        .await;
        match out {
            Ok(Ok(result)) => result,
            _ => Err(Error::Data("a database task failed".into())),
        }
    }
}

/// A rendered snapshot: its bytes and its entity tag.
pub(crate) struct Rendered {
    pub body: axum::body::Bytes,
    pub etag: String,
}

/// The html site's files by name.
pub(crate) type Site = Arc<BTreeMap<String, Vec<u8>>>;

/// Everything derived from the database at one moment: the read model and
/// the renderings made from it so far.
pub(crate) struct Model {
    /// Counts the changes seen; part of every entity tag.
    pub generation: u64,
    /// Shared with the batches of `POST /api/check`.
    pub registry: Arc<Registry>,
    /// The html site (`index.html`, `ns/<nid>.html`), rendered on first use.
    pub site: Mutex<Option<Site>>,
    /// Held while the site is rendered: requests that find no site wait
    /// for one rendering instead of each making its own (found in hostile testing:
    ///  8 requests for `/` at once over 60,000 namespaces rendered the
    /// whole site 8 times, 2 GB).
    pub site_render: tokio::sync::Mutex<()>,
    /// JSON answers and snapshot exports, rendered on first use, by key.
    cache: Mutex<HashMap<String, Arc<Rendered>>>,
}

/// The most renderings one model keeps (namespaces, versions, exports:
/// far fewer exist; the bound holds whatever the data).
const MAX_CACHED: usize = 4096;

impl Model {
    fn new(generation: u64, registry: Registry) -> Model {
        Model {
            generation,
            registry: Arc::new(registry),
            site: Mutex::new(None),
            site_render: tokio::sync::Mutex::new(()),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The rendering cached under `key`.
    pub(crate) fn cache_get(&self, key: &str) -> Option<Arc<Rendered>> {
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(key)
            .cloned()
    }

    /// Caches `rendered` under `key` (while there is room) and returns it.
    pub(crate) fn cache_put(&self, key: String, rendered: Rendered) -> Arc<Rendered> {
        let rendered = Arc::new(rendered);
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() < MAX_CACHED {
            cache.insert(key, Arc::clone(&rendered));
        }
        rendered
    }
}

/// The state every handler sees.
pub struct AppState {
    pub(crate) config: Config,
    pub(crate) writer: Arc<Pool>,
    pub(crate) readers: Arc<Pool>,
    /// Watches the database for commits (`PRAGMA data_version`), by this
    /// server or by any other process.
    watcher: Mutex<(Connection, i64)>,
    model: RwLock<Arc<Model>>,
    /// The bytes request bodies in flight may still take
    /// ([`Config::max_body_memory`]); a request holds its share until it is
    /// answered.
    pub(crate) body_budget: Arc<Semaphore>,
    /// Whether the database could be opened for writing ([`Store::is_writable`]).
    writable: bool,
}

/// How many reader connections the server keeps.
const READERS: usize = 4;

impl AppState {
    /// Opens the database (creating it from the embedded registry if it
    /// does not exist) with one writer and a few readers.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub fn open(config: Config) -> Result<Arc<AppState>> {
        let path = config.db.clone();
        let writer = Store::open(&path, &config.actor)?;
        let writable = writer.is_writable();
        let registry = Registry::from_store(&writer)?;
        let readers = (0..READERS)
            .map(|_| Store::open(&path, &config.actor))
            .collect::<Result<Vec<_>>>()?;
        let watcher = open_watcher(&path)?;
        let version = data_version(&watcher)?;
        // Shorter than the time limit, so a held lock ends in a clean 503
        // within it (the store's own busy timeout is a minute).
        let busy = config.request_timeout / 2;
        let budget = config.max_body_memory.min(Semaphore::MAX_PERMITS);
        Ok(Arc::new(AppState {
            config,
            body_budget: Arc::new(Semaphore::new(budget)),
            writer: Arc::new(Pool::writer(writer, busy)?),
            readers: Arc::new(Pool::new(readers)),
            watcher: Mutex::new((watcher, version)),
            model: RwLock::new(Arc::new(Model::new(0, registry))),
            writable,
        }))
    }

    /// Returns false if the database file or its directory may not be
    /// written by this process: every filing, amendment and review is then
    /// refused (503), and the command that starts the server says so.
    pub fn is_writable(&self) -> bool {
        self.writable
    }

    /// The read model now.
    pub(crate) fn model(&self) -> Arc<Model> {
        Arc::clone(&self.model.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Rebuilds the read model if anyone committed to the database since
    /// the last look, so `/check` applies what was just approved (here or
    /// by `urnreg review` on the server host). Called after every write and
    /// once a second.
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub(crate) async fn refresh(self: &Arc<Self>) -> Result<()> {
        let state = Arc::clone(self);
        let (now, changed) = tokio::task::spawn_blocking(move || -> Result<(i64, bool)> {
            let watcher = state.watcher.lock().unwrap_or_else(|p| p.into_inner());
            let now = data_version(&watcher.0)?;
            Ok((now, now != watcher.1))
        })
        .await
        .map_err(|_| Error::Data("a database task failed".into()))??;
        if !changed {
            return Ok(());
        }
        let registry = self.readers.run(|store| Registry::from_store(store)).await?;
        // The change counts as seen only once the model has it, so a
        // refresh that failed (or was dropped at a time limit) is made
        // again at the next look.
        self.watcher.lock().unwrap_or_else(|p| p.into_inner()).1 = now;
        let mut model = self.model.write().unwrap_or_else(|p| p.into_inner());
        let generation = model.generation + 1;
        *model = Arc::new(Model::new(generation, registry));
        Ok(())
    }

    /// Takes one filing from `ip`'s bucket (kept in the database, so a
    /// restart or a second process keeps the limit); `Err(seconds)` to wait
    /// when it is empty.
    pub(crate) async fn take_filing(&self, ip: IpAddr) -> Result<std::result::Result<(), u64>> {
        let burst = f64::from(self.config.filing_burst.max(1));
        let per_second = f64::from(self.config.filings_per_hour.max(1)) / 3600.0;
        // Bookkeeping: a filing cut at the time limit still counts.
        self.writer
            .run_bookkeeping(move |store| {
                super::sessions::take_filing(store.connection(), ip, burst, per_second)
            })
            .await
    }
}

/// A connection that only reads `PRAGMA data_version`.
fn open_watcher(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

fn data_version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
}

/// The export formats `GET /api/snapshot` serves, by their query name.
pub(crate) fn export_format(name: &str) -> Option<(&'static str, ExportFormat, &'static str)> {
    match name {
        "json" => Some(("json", ExportFormat::Json, "application/json")),
        "xml" => Some(("xml", ExportFormat::Xml, "application/xml")),
        "csv" => Some((
            "csv",
            ExportFormat::Csv,
            "text/csv; charset=utf-8; header=present",
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer(dir: &Path) -> Arc<Pool> {
        let store = Store::open(&dir.join("registry.db"), "test").unwrap();
        Arc::new(Pool::writer(store, Duration::from_secs(5)).unwrap())
    }

    /// A write that takes `work` inside its transaction, run under `gate`.
    fn slow_write(pool: &Arc<Pool>, gate: &Arc<Gate>, work: Duration) -> Result<()> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let pool = Arc::clone(pool);
        rt.block_on(GATE.scope(
            Arc::clone(gate),
            pool.run(move |store| {
                let tx = store.write()?;
                tx.execute(
                    "INSERT INTO filing_limits (client, tokens, updated_at) VALUES ('x', 1, 0)",
                    [],
                )?;
                std::thread::sleep(work);
                tx.commit()?;
                Ok(())
            }),
        ))
    }

    fn stored(dir: &Path) -> i64 {
        let conn = Connection::open(dir.join("registry.db")).unwrap();
        conn.query_row("SELECT count(*) FROM filing_limits", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_write_that_reaches_its_deadline_is_rolled_back_at_commit() {
        let dir = tempfile::tempdir().unwrap();
        let pool = writer(dir.path());
        let gate = Gate::new(Instant::now() + Duration::from_millis(100));
        let out = slow_write(&pool, &gate, Duration::from_millis(300));
        assert!(matches!(&out, Err(Error::State(m)) if m == TIMED_OUT), "{out:?}");
        assert_eq!(stored(dir.path()), 0);
        // Nothing was let commit: the request may be answered 503.
        assert!(gate.cancel());
    }

    #[test]
    fn a_write_of_a_request_answered_503_is_rolled_back_at_commit() {
        let dir = tempfile::tempdir().unwrap();
        let pool = writer(dir.path());
        let gate = Gate::new(Instant::now() + Duration::from_secs(60));
        let cancel = {
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                gate.cancel()
            })
        };
        let out = slow_write(&pool, &gate, Duration::from_millis(300));
        assert!(cancel.join().unwrap());
        assert!(matches!(&out, Err(Error::State(m)) if m == TIMED_OUT), "{out:?}");
        assert_eq!(stored(dir.path()), 0);
        // Nor does a write begin once the request was answered.
        let out = slow_write(&pool, &gate, Duration::ZERO);
        assert!(matches!(&out, Err(Error::State(m)) if m == TIMED_OUT), "{out:?}");
        assert_eq!(stored(dir.path()), 0);
    }

    #[test]
    fn a_write_let_commit_binds_the_answer() {
        let dir = tempfile::tempdir().unwrap();
        let pool = writer(dir.path());
        let gate = Gate::new(Instant::now() + Duration::from_secs(60));
        slow_write(&pool, &gate, Duration::ZERO).unwrap();
        assert_eq!(stored(dir.path()), 1);
        // The time limit must now wait for the handler's answer.
        assert!(!gate.cancel());
    }
}
