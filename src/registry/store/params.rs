//! The resolution query parameters' sub-registries in the store (the 2012
//! URN draft, section 9.2): read, replaced whole by an import, and added
//! to by an expert, each addition in one transaction with an audit entry.
//!
//! The tables hold the registry's own entries; what the namespaces' rules
//! in force declare is merged in when they are read through
//! [`crate::Registry::query`].

use rusqlite::{Connection, Transaction, params};

use super::Store;
use super::rows::audit;
use crate::registry::error::{Error, Problem, Result};
use crate::resolve::{Keyword, QueryRegistry, Scope, Service, SupportedBy};

/// The sub-registries as the tables hold them, in the order registered;
/// the shipped ones in a database of a schema before 9 (opened read-only,
/// not migrated).
pub(crate) fn read_query_registry(conn: &Connection) -> Result<QueryRegistry> {
    let held: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'query_keywords'",
        [],
        |r| r.get(0),
    )?;
    if held == 0 {
        return Ok(QueryRegistry::shipped().clone());
    }
    let mut support = conn
        .prepare("SELECT nid, reference FROM query_keyword_support WHERE keyword_id = ?1 ORDER BY rowid")?;
    let mut stmt =
        conn.prepare("SELECT id, keyword, purpose, scope, reference FROM query_keywords ORDER BY id")?;
    let rows: Vec<(i64, String, String, String, String)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut keywords = Vec::with_capacity(rows.len());
    for (id, keyword, purpose, scope, reference) in rows {
        let supported_by = support
            .query_map([id], |r| {
                Ok(SupportedBy {
                    nid: r.get(0)?,
                    reference: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        keywords.push(Keyword {
            keyword,
            purpose,
            scope: Scope::parse(&scope).unwrap_or(Scope::Global),
            reference,
            supported_by,
        });
    }
    let mut stmt = conn
        .prepare("SELECT name, purpose, status, reference, aliases FROM resolution_services ORDER BY id")?;
    let services = stmt
        .query_map([], |r| {
            let aliases: String = r.get(4)?;
            Ok(Service {
                name: r.get(0)?,
                purpose: r.get(1)?,
                status: r.get(2)?,
                reference: r.get(3)?,
                aliases: serde_json::from_str(&aliases).unwrap_or_default(),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(QueryRegistry { keywords, services })
}

/// Makes the tables hold exactly `registry` (checked by the caller).
pub(crate) fn replace_query_registry(tx: &Transaction<'_>, registry: &QueryRegistry) -> Result<()> {
    tx.execute("DELETE FROM query_keyword_support", [])?;
    tx.execute("DELETE FROM query_keywords", [])?;
    tx.execute("DELETE FROM resolution_services", [])?;
    for k in &registry.keywords {
        insert_keyword(tx, k)?;
    }
    for s in &registry.services {
        insert_service(tx, s)?;
    }
    Ok(())
}

fn insert_keyword(tx: &Transaction<'_>, k: &Keyword) -> Result<()> {
    tx.execute(
        "INSERT INTO query_keywords (keyword, purpose, scope, reference) VALUES (?1, ?2, ?3, ?4)",
        params![k.keyword, k.purpose, k.scope.as_str(), k.reference],
    )?;
    let id = tx.last_insert_rowid();
    for s in &k.supported_by {
        tx.execute(
            "INSERT OR IGNORE INTO query_keyword_support (keyword_id, nid, reference) VALUES (?1, ?2, ?3)",
            params![id, s.nid, s.reference],
        )?;
    }
    Ok(())
}

fn insert_service(tx: &Transaction<'_>, s: &Service) -> Result<()> {
    let aliases = serde_json::to_string(&s.aliases).map_err(|e| Error::Data(e.to_string()))?;
    tx.execute(
        "INSERT INTO resolution_services (name, purpose, status, reference, aliases) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![s.name, s.purpose, s.status, s.reference, aliases],
    )?;
    Ok(())
}

/// `base` with what the registered namespaces' rules in force declare,
/// read inside `conn`'s transaction.
fn with_declared(conn: &Connection, base: &QueryRegistry) -> Result<QueryRegistry> {
    let mut stmt =
        conn.prepare("SELECT nid, rules FROM namespaces WHERE status = 'registered' AND rules IS NOT NULL")?;
    let rules: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(base.with_declared_rules(rules.iter().map(|(nid, text)| (nid.as_str(), text.as_str()))))
}

fn refused(field: &str, message: String) -> Error {
    Error::Invalid(vec![Problem {
        field: field.to_string(),
        message,
    }])
}

impl Store {
    /// The Query Keywords and Resolution Service Designators sub-registries
    /// as held: the shipped entries and those experts added (without what
    /// the namespaces' rules declare: see [`crate::Registry::query`]).
    ///
    /// # Errors
    ///
    /// The SQLite error.
    pub fn query_registry(&self) -> Result<QueryRegistry> {
        read_query_registry(&self.conn)
    }

    /// Registers a global query keyword (the 2012 URN draft, section
    /// 9.2.1: "Expert Review"), with an audit entry. A namespace-specific
    /// keyword is declared in its namespace's registration instead.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a keyword that is not a `keywd`, has empty
    /// or overlong texts, or is taken (by a global keyword or one a
    /// namespace defined); nothing is written then.
    pub fn add_keyword(&mut self, keyword: &Keyword, actor: &str) -> Result<()> {
        if keyword.scope != Scope::Global || !keyword.supported_by.is_empty() {
            return Err(refused(
                "keyword",
                "an expert adds global keywords only; a namespace declares its own in its registration's \
                 [rules.resolution] new_keywords, and its support in keywords (URN draft 2012 §9.2.1)"
                    .into(),
            ));
        }
        let tx = self.write()?;
        let mut with = read_query_registry(&tx)?;
        if with_declared(&tx, &with)?.keyword(&keyword.keyword).is_some() {
            return Err(refused(
                "keyword",
                format!(
                    "'{}' is already a registered keyword (see urnreg keywords)",
                    keyword.keyword
                ),
            ));
        }
        with.keywords.push(keyword.clone());
        if let Some(problem) = with.problems().into_iter().next() {
            return Err(refused("keyword", problem));
        }
        insert_keyword(&tx, keyword)?;
        audit(
            &tx,
            actor,
            "keyword-add",
            None,
            None,
            &format!("query keyword '{}': {}", keyword.keyword, keyword.purpose),
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Registers a resolution service designator (the 2012 URN draft,
    /// section 9.2.2), with an audit entry.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a name or alias that is not a designator or
    /// is taken (without regard to case), a status other than `std`,
    /// `exp`, `provisional` or `deprecated`, or empty or overlong texts;
    /// nothing is written then.
    pub fn add_service(&mut self, service: &Service, actor: &str) -> Result<()> {
        let tx = self.write()?;
        let mut with = read_query_registry(&tx)?;
        with.services.push(service.clone());
        if let Some(problem) = with.problems().into_iter().next() {
            return Err(refused("service", problem));
        }
        insert_service(&tx, service)?;
        audit(
            &tx,
            actor,
            "service-add",
            None,
            None,
            &format!(
                "resolution service '{}' ({}): {}",
                service.name, service.status, service.purpose
            ),
        )?;
        tx.commit()?;
        Ok(())
    }
}
