//! Where the database is (`--db`, `URNREG_DB`, the platform data directory)
//! and how commands open it.

use std::path::PathBuf;

use anyhow::Context;
use urnreg::Registry;
use urnreg::registry::Store;

/// The global registry options.
#[derive(clap::Args, Debug, Clone)]
pub struct DbArgs {
    /// The registry database (default: $URNREG_DB, else the platform data
    /// directory, e.g. ~/.local/share/urnreg/registry.db).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// Who makes a change, for the audit log (default: $USER).
    #[arg(long, global = true, value_name = "NAME")]
    pub actor: Option<String>,
}

impl DbArgs {
    /// The database path.
    pub fn path(&self) -> anyhow::Result<PathBuf> {
        if let Some(p) = &self.db {
            return Ok(p.clone());
        }
        if let Some(p) = std::env::var_os("URNREG_DB").filter(|p| !p.is_empty()) {
            return Ok(PathBuf::from(p));
        }
        let dirs = directories::ProjectDirs::from("", "", "urnreg")
            .context("no home directory: pass --db PATH or set URNREG_DB")?;
        Ok(dirs.data_dir().join("registry.db"))
    }

    /// The actor for the audit log.
    pub fn actor(&self) -> String {
        self.actor
            .clone()
            .or_else(|| std::env::var("USER").ok())
            .filter(|a| !a.is_empty())
            .unwrap_or_else(|| "unknown".to_string())
    }

    /// Opens the database for writing, creating it from the embedded
    /// registry if it does not exist.
    pub fn open_for_write(&self) -> anyhow::Result<Store> {
        let path = self.path()?;
        Store::open(&path, &self.actor()).with_context(|| format!("opening {}", path.display()))
    }

    /// Opens the database for reading only (it may be read-only, in a
    /// read-only directory); with no database yet, the embedded registry
    /// (nothing is created). A database with an older schema is opened for
    /// writing once, to migrate it.
    pub fn open_for_read(&self) -> anyhow::Result<Store> {
        let path = self.path()?;
        if !path.exists() {
            return Ok(Store::open_embedded()?);
        }
        let opened = match Store::open_read_only(&path) {
            Err(outdated @ urnreg::registry::Error::SchemaOutdated { .. }) => {
                Store::open(&path, &self.actor())
                    .map_err(|e| anyhow::Error::new(e).context(outdated.to_string()))
            }
            other => other.map_err(anyhow::Error::new),
        };
        opened.with_context(|| format!("opening {}", path.display()))
    }

    /// The registry to validate against: the database's records in force,
    /// or with no database the embedded registry (nothing is created).
    pub fn registry(&self) -> anyhow::Result<Registry> {
        let path = self.path()?;
        if path.exists() {
            let store =
                Store::open(&path, &self.actor()).with_context(|| format!("opening {}", path.display()))?;
            Ok(Registry::from_store(&store)?)
        } else {
            Ok(Registry::embedded().clone())
        }
    }
}
