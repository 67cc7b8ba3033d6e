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
//! (https://sqlite.org/lockingv3.html): a writer's transaction takes the
//! RESERVED lock, which readers ignore, but its COMMIT takes the EXCLUSIVE
//! lock, waiting until no reader is in the middle of a read, and a reader
//! waits (with its busy timeout) while a commit holds it.
//! Store calls block, so they run on tokio's blocking pool, never on the
//! threads that serve connections.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rusqlite::Connection;
use tokio::sync::Semaphore;

use crate::Registry;
use crate::registry::{Error, Result, Store};
use crate::snapshot::ExportFormat;

use super::Config;

/// A few connections of one kind, handed out one closure at a time.
pub(crate) struct Pool {
    stores: Mutex<Vec<Store>>,
    permits: Semaphore,
}

impl Pool {
    fn new(stores: Vec<Store>) -> Pool {
        Pool {
            permits: Semaphore::new(stores.len()),
            stores: Mutex::new(stores),
        }
    }

    /// Runs `f` with a connection of this pool on the blocking pool.
    pub(crate) async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| Error::State("the server is shutting down".into()))?;
        let pool = Arc::clone(self);
        let out = tokio::task::spawn_blocking(move || {
            let mut store = pool
                .stores
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop()
                .expect("a permit stands for a free connection");
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut store)));
            pool.stores.lock().unwrap_or_else(|p| p.into_inner()).push(store);
            out
        })
        .await;
        drop(permit);
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
        let registry = Registry::from_store(&writer)?;
        let readers = (0..READERS)
            .map(|_| Store::open(&path, &config.actor))
            .collect::<Result<Vec<_>>>()?;
        let watcher = open_watcher(&path)?;
        let version = data_version(&watcher)?;
        let budget = config.max_body_memory.min(Semaphore::MAX_PERMITS);
        Ok(Arc::new(AppState {
            config,
            body_budget: Arc::new(Semaphore::new(budget)),
            writer: Arc::new(Pool::new(vec![writer])),
            readers: Arc::new(Pool::new(readers)),
            watcher: Mutex::new((watcher, version)),
            model: RwLock::new(Arc::new(Model::new(0, registry))),
        }))
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
        let changed = tokio::task::spawn_blocking(move || -> Result<bool> {
            let mut watcher = state.watcher.lock().unwrap_or_else(|p| p.into_inner());
            let now = data_version(&watcher.0)?;
            let changed = now != watcher.1;
            watcher.1 = now;
            Ok(changed)
        })
        .await
        .map_err(|_| Error::Data("a database task failed".into()))??;
        if !changed {
            return Ok(());
        }
        let registry = self.readers.run(|store| Registry::from_store(store)).await?;
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
        self.writer
            .run(move |store| super::sessions::take_filing(store.connection(), ip, burst, per_second))
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
