//! Where the database is (`--db`, `URNREG_DB`, the platform data directory)
//! and how commands open it; who makes a change (`--actor`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use urnreg::Registry;
use urnreg::registry::{Error as RegistryError, Store};

/// `--db`, for every command that reads or writes the registry.
#[derive(clap::Args, Debug, Clone)]
pub struct DbArgs {
    /// The registry database (default: $URNREG_DB, else the platform data
    /// directory, e.g. ~/.local/share/urnreg/registry.db). Without one,
    /// read-only commands use the built-in registry.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

/// `--actor`, for every command that records a change in the audit log.
#[derive(clap::Args, Debug, Clone)]
pub struct ActorArgs {
    /// Who makes the change, for the audit log (default: $URNREG_ACTOR,
    /// else $USER, else $LOGNAME, else the login name of the process's
    /// user; "unknown" only when there is none).
    #[arg(long, value_name = "NAME")]
    pub actor: Option<String>,
}

/// The actor recorded when nothing names one.
pub const UNKNOWN_ACTOR: &str = "unknown";

impl ActorArgs {
    /// The actor for the audit log: `--actor`, `$URNREG_ACTOR`, `$USER`,
    /// `$LOGNAME`, the login name of the process's user, else
    /// [`UNKNOWN_ACTOR`] (containers and CI jobs often set no `$USER`).
    pub fn actor(&self) -> String {
        let named = |v: Option<String>| v.map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
        named(self.actor.clone())
            .or_else(|| named(std::env::var("URNREG_ACTOR").ok()))
            .or_else(|| named(std::env::var("USER").ok()))
            .or_else(|| named(std::env::var("LOGNAME").ok()))
            .or_else(|| named(login_name()))
            .unwrap_or_else(|| UNKNOWN_ACTOR.to_string())
    }
}

/// The login name of the user running this process, from the password
/// database (`/etc/passwd`), found by the owner of `/proc/self`: no C call
/// (the crate forbids `unsafe`). `None` elsewhere than on Linux, or when
/// the user has no entry (a container's arbitrary uid).
fn login_name() -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let uid = std::fs::metadata("/proc/self").ok()?.uid();
        let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
        passwd_name(&passwd, uid)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The name of user `uid` in a password file's text
/// (`name:password:uid:gid:...`).
fn passwd_name(passwd: &str, uid: u32) -> Option<String> {
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id: u32 = fields.nth(1)?.parse().ok()?;
        (id == uid && !name.is_empty()).then(|| name.to_string())
    })
}

#[cfg(test)]
mod actor_tests {
    use super::*;

    #[test]
    fn the_password_file_names_the_user() {
        let passwd =
            "root:x:0:0:root:/root:/bin/bash\n# comment\nann:x:1000:1000::/home/ann:/bin/sh\nbad line\n";
        assert_eq!(passwd_name(passwd, 0).as_deref(), Some("root"));
        assert_eq!(passwd_name(passwd, 1000).as_deref(), Some("ann"));
        assert_eq!(passwd_name(passwd, 4242), None);
    }

    #[test]
    fn the_option_comes_first() {
        let args = ActorArgs {
            actor: Some("expert-1".into()),
        };
        assert_eq!(args.actor(), "expert-1");
        let blank = ActorArgs {
            actor: Some("  ".into()),
        };
        assert_ne!(blank.actor(), "  ");
    }
}

/// The database path, and whether the user chose it.
struct DbPath {
    path: PathBuf,
    given: bool,
}

/// Whether a writing command may create the database's directory.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Create {
    /// `init`: create the directory if needed.
    Directory,
    /// Other writers: a directory the user named must exist (a typo in
    /// `--db` should not leave a tree of directories behind); urnreg's own
    /// platform data directory is created.
    FileOnly,
}

/// The actor recorded when a read-only command opens the database (it
/// changes nothing, so nothing is recorded under it).
const READER: &str = "urnreg";

impl DbArgs {
    fn resolve(&self) -> anyhow::Result<DbPath> {
        if let Some(p) = &self.db {
            return Ok(DbPath {
                path: p.clone(),
                given: true,
            });
        }
        if let Some(p) = std::env::var_os("URNREG_DB").filter(|p| !p.is_empty()) {
            return Ok(DbPath {
                path: PathBuf::from(p),
                given: true,
            });
        }
        let dirs = directories::ProjectDirs::from("", "", "urnreg")
            .context("no home directory: pass --db PATH or set URNREG_DB")?;
        Ok(DbPath {
            path: dirs.data_dir().join("registry.db"),
            given: false,
        })
    }

    /// The database path.
    pub fn path(&self) -> anyhow::Result<PathBuf> {
        Ok(self.resolve()?.path)
    }

    /// Opens the database for writing, creating it from the embedded
    /// registry if it does not exist.
    ///
    /// # Errors
    ///
    /// When the directory of a path given with `--db` or `URNREG_DB` does
    /// not exist (unless `create` is [`Create::Directory`]), or the store's
    /// error.
    pub fn open_for_write(&self, actor: &ActorArgs, create: Create) -> anyhow::Result<Store> {
        let path = self.path_for_write(create)?;
        Store::open(&path, &actor.actor()).with_context(|| format!("opening {}", path.display()))
    }

    /// The database's path for a command that writes (or serves) it: the
    /// directory checked, or made, as [`open_for_write`](Self::open_for_write)
    /// does, and the path a regular file if it exists.
    ///
    /// # Errors
    ///
    /// As [`open_for_write`](Self::open_for_write), before opening.
    pub fn path_for_write(&self, create: Create) -> anyhow::Result<PathBuf> {
        let DbPath { path, given } = self.resolve()?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = dir.filter(|d| !d.is_dir()) {
            if given && create == Create::FileOnly {
                anyhow::bail!(
                    "the directory {} does not exist: create it, or run `urnreg init --db {}`",
                    dir.display(),
                    path.display()
                );
            }
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the directory {}", dir.display()))?;
        }
        regular_file(&path)?;
        Ok(path)
    }

    /// Opens the database for reading only (it may be read-only, in a
    /// read-only directory); with no database yet, the embedded registry
    /// (nothing is created). A database with an older schema is opened for
    /// writing once, to migrate it.
    pub fn open_for_read(&self) -> anyhow::Result<Store> {
        let store = self.open_for_read_quietly()?;
        self.note_if_behind(&store);
        Ok(store)
    }

    /// As [`DbArgs::open_for_read`], without the note on a database whose
    /// shipped namespaces are behind (for `update --dry-run`, which says
    /// more).
    pub fn open_for_read_quietly(&self) -> anyhow::Result<Store> {
        let path = self.path()?;
        if !exists(&path)? {
            self.note_if_missing(&path);
            return Ok(Store::open_embedded()?);
        }
        regular_file(&path)?;
        // An empty file holds no database yet (a writing command makes
        // one there): reading must not write one into it.
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
            self.note_if_missing(&path);
            return Ok(Store::open_embedded()?);
        }
        let opened = match Store::open_read_only(&path) {
            Err(outdated @ urnreg::registry::Error::SchemaOutdated { .. }) => {
                Store::open(&path, READER).map_err(|e| anyhow::Error::new(e).context(outdated.to_string()))
            }
            other => other.map_err(anyhow::Error::new),
        };
        opened.with_context(|| format!("opening {}", path.display()))
    }

    /// Says once per process, on stderr, when the database's shipped
    /// namespaces are older than this binary's embedded registry (one
    /// stored value compared; see [`Store::shipped_state`]), naming the
    /// command that brings them up to it.
    fn note_if_behind(&self, store: &Store) {
        static SAID: AtomicBool = AtomicBool::new(false);
        let behind = store.shipped_state().is_ok_and(|s| !s.is_current());
        if !behind || SAID.swap(true, Ordering::Relaxed) {
            return;
        }
        let db = self
            .db
            .as_ref()
            .map(|p| {
                format!(
                    " --db {}",
                    shell_word(&super::output::printable_line(&p.display().to_string()))
                )
            })
            .unwrap_or_default();
        eprintln!(
            "note: this database's shipped namespaces and rules are older than this urnreg's; \
             `urnreg update{db} --dry-run` shows what `urnreg update{db}` brings in"
        );
    }

    /// The registry to validate against: the database's records in force,
    /// or with no database the embedded registry (nothing is created).
    pub fn registry(&self) -> anyhow::Result<Registry> {
        let path = self.path()?;
        if exists(&path)? {
            Ok(Registry::from_store(&self.open_for_read()?)?)
        } else {
            self.note_if_missing(&path);
            Ok(Registry::embedded().clone())
        }
    }

    /// Says once per process, on stderr, that the database named with
    /// `--db` does not exist, so the embedded registry answers: a mistyped
    /// path would otherwise make the user's own namespaces unregistered
    /// without a word. (`URNREG_DB` set to a path with no file is the
    /// documented way to use the embedded registry, and says nothing.)
    fn note_if_missing(&self, path: &Path) {
        static SAID: AtomicBool = AtomicBool::new(false);
        if self.db.is_none() || SAID.swap(true, Ordering::Relaxed) {
            return;
        }
        let path = path.display().to_string();
        let shown = super::output::printable_line(&path);
        eprintln!(
            "note: no database at {shown}: the built-in registry answers (a writing command or `urnreg init --db {}` \
             creates one there)",
            shell_word(&shown)
        );
    }
}

/// Whether a database is at `path`: an error that is not "no such file"
/// (a loop of symbolic links, ELOOP; a directory on the way that may not
/// be searched) is said, not taken for no database, which would let the
/// built-in registry answer for the user's own namespaces.
fn exists(path: &Path) -> anyhow::Result<bool> {
    path.try_exists()
        .with_context(|| format!("opening {}", path.display()))
}

/// Refuses a database path that exists and is no regular file (after
/// symbolic links): SQLite would wait forever on a FIFO's other end, or
/// fail on a directory or a device with a bare "disk I/O error".
fn regular_file(path: &Path) -> anyhow::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => anyhow::bail!(
            "{} is not a regular file ({}): the database is a SQLite file; pass --db PATH of one, or of a new file to create",
            path.display(),
            if meta.is_dir() {
                "a directory"
            } else {
                "a FIFO, socket or device"
            }
        ),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("opening {}", path.display())))
        }
        _ => Ok(()),
    }
}

/// The registered NID nearest to `nid` when `nid` is not registered (a
/// swap of two letters counts as one edit; see [`Registry::suggest`]).
pub fn near_nid(store: &Store, nid: &str) -> Option<String> {
    let registry = Registry::from_store(store).ok()?;
    if registry.namespace(nid).is_some() {
        return None;
    }
    registry.suggest(nid).map(|ns| ns.nid().to_string())
}

/// `err` from looking `nid` up in `store`; when `nid` is not registered
/// and a registered NID is near it, the error says "did you mean".
pub fn suggest_nid(err: RegistryError, store: &Store, nid: &str) -> anyhow::Error {
    match (&err, near_nid(store, nid)) {
        (RegistryError::NotFound(_), Some(near)) => anyhow::anyhow!("{err}; did you mean '{near}'?"),
        _ => err.into(),
    }
}

/// `text` as one word for a POSIX shell, to paste as it is shown: as it
/// is when it holds only characters no shell reads, else in single quotes
/// (a quote inside written `'\''`).
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:,@%=".contains(&b));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod shell_word_tests {
    use super::shell_word;

    #[test]
    fn a_path_is_one_word_to_paste() {
        assert_eq!(
            shell_word("/var/lib/urnreg/registry.db"),
            "/var/lib/urnreg/registry.db"
        );
        assert_eq!(shell_word("/tmp/my registry.db"), "'/tmp/my registry.db'");
        assert_eq!(shell_word("/tmp/ann's.db"), "'/tmp/ann'\\''s.db'");
        assert_eq!(shell_word("$HOME/x"), "'$HOME/x'");
        assert_eq!(shell_word(""), "''");
    }
}
