//! The registration lifecycle of RFC 8141 section 6: a registrant files a
//! request (or a revision), may amend it while it waits, or withdraw it;
//! the expert approves, rejects or asks for changes.
//!
//! ```text
//!             request / revise           approve
//!   (none) ------------------> submitted ---------> approved (in force)
//!                               |  ^  \   reject
//!                   ask-changes |  |   `---------> rejected
//!                               v  | amend
//!                       changes-requested
//!   submitted or changes-requested --withdraw--> withdrawn
//! ```
//!
//! Lint (`crate::lint::vet`) checks the text of a filing; the store checks,
//! inside its transaction, what depends on the registry's state: the NID
//! free, one pending request per NID (and per informal text), versions in
//! sequence. Every refusal leaves the database as it was.

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::Serialize;

use super::super::Kind;
use super::super::error::{Error, Problem, Result};
use super::super::registration::{Filing, RegistrationFile, Vetted};
use super::super::status::{Decision, NamespaceStatus, RequestStatus};
use super::Store;
use super::rows::{
    RegistrationRow, audit, insert_row, parse_rules, read_version, replace_text, rules_of, rules_text,
    version_columns,
};
use crate::clock::{now, today};
use crate::template::{FIELDS, TemplateFields};

/// What a request, revision, amendment, withdrawal or review did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The request (registration) id.
    pub id: i64,
    /// The NID: requested, registered or assigned; `None` for an informal
    /// request not yet approved.
    pub nid: Option<String>,
    /// The request's status now.
    pub status: RequestStatus,
    /// The version the request is for.
    pub version: i64,
}

/// A request as the lifecycle sees it.
struct RequestRow {
    id: i64,
    nid: Option<String>,
    kind: Kind,
    version: i64,
    status: RequestStatus,
    submitted_at: String,
}

impl RequestRow {
    fn describe(&self) -> String {
        format!(
            "request {} ({}, version {}, {})",
            self.id,
            self.nid.as_deref().unwrap_or("informal"),
            self.version,
            self.status
        )
    }

    /// Refuses a request that is no longer pending.
    fn require_pending(&self, to: &str) -> Result<()> {
        if self.status.is_pending() {
            Ok(())
        } else {
            Err(Error::State(format!(
                "request {} is already {}: only a request waiting for review can be {to}",
                self.id, self.status
            )))
        }
    }
}

const REQUEST_COLUMNS: &str = "id, nid, kind, version, status, submitted_at";

fn request_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RequestRow> {
    Ok(RequestRow {
        id: r.get(0)?,
        nid: r.get(1)?,
        kind: r.get(2)?,
        version: r.get(3)?,
        status: r.get(4)?,
        submitted_at: r.get(5)?,
    })
}

/// The namespace row of `nid`, if it is registered or withdrawn.
struct NamespaceState {
    nid: String,
    kind: Kind,
    status: NamespaceStatus,
    current: Option<i64>,
}

fn namespace_state(tx: &Connection, nid: &str) -> Result<Option<NamespaceState>> {
    Ok(tx
        .query_row(
            "SELECT nid, kind, status, current_version FROM namespaces WHERE nid = ?1",
            [nid],
            |r| {
                Ok(NamespaceState {
                    nid: r.get(0)?,
                    kind: r.get(1)?,
                    status: r.get(2)?,
                    current: r.get(3)?,
                })
            },
        )
        .optional()?)
}

/// The request waiting for review for `nid` (case-insensitive), if any.
fn pending_for_nid(tx: &Connection, nid: &str) -> Result<Option<RequestRow>> {
    Ok(tx
        .query_row(
            &format!(
                "SELECT {REQUEST_COLUMNS} FROM registrations
                 WHERE nid = ?1 AND status IN ('submitted', 'changes-requested')
                 ORDER BY id DESC LIMIT 1"
            ),
            [nid],
            request_row,
        )
        .optional()?)
}

/// A request id, or the NID whose pending request is meant.
fn resolve(tx: &Connection, target: &str) -> Result<RequestRow> {
    if !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()) {
        let id: i64 = target
            .parse()
            .map_err(|_| Error::NotFound(format!("no request {target}")))?;
        return tx
            .query_row(
                &format!("SELECT {REQUEST_COLUMNS} FROM registrations WHERE id = ?1"),
                [id],
                request_row,
            )
            .optional()?
            .ok_or_else(|| Error::NotFound(format!("no request {target}")));
    }
    if let Some(row) = pending_for_nid(tx, target)? {
        return Ok(row);
    }
    let last = tx
        .query_row(
            &format!("SELECT {REQUEST_COLUMNS} FROM registrations WHERE nid = ?1 ORDER BY id DESC LIMIT 1"),
            [target],
            request_row,
        )
        .optional()?;
    Err(Error::NotFound(match last {
        Some(row) => format!(
            "no request for '{target}' is waiting for review (the last one, {}, is {})",
            row.id, row.status
        ),
        None => format!("no request for '{target}' is waiting for review"),
    }))
}

/// The text of a registration as compared for duplicates: the template's
/// body fields (Appendix A and RFC 3406), whitespace collapsed. Date,
/// version and Revision Information do not make a text another.
fn text_key(fields: &TemplateFields) -> String {
    FIELDS
        .iter()
        .filter(|(key, _, _)| {
            !matches!(
                *key,
                "namespace_identifier" | "version" | "date" | "revision_information"
            )
        })
        .map(|(key, _, _)| {
            let value = fields.get(key).cloned().flatten().unwrap_or_default();
            value.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\u{1f}")
}

/// Another informal request with the same text.
enum SameText {
    /// It waits for review.
    Pending { id: i64, status: RequestStatus },
    /// It is the version in force of a registered informal namespace.
    InForce { nid: String, id: i64 },
}

impl SameText {
    fn message(&self) -> String {
        match self {
            SameText::Pending { id, status } => format!(
                "the same text is already filed as request {id} ({status}): amend it (`urnreg amend {id} FILE`) or withdraw it"
            ),
            SameText::InForce { nid, id } => {
                format!("the same text is registered as {nid} (request {id})")
            }
        }
    }
}

/// An informal request other than `except` with the same text as
/// `fields` whose namespace holds it in force or, with `pending_too`, that
/// waits for review.
fn same_informal_text(
    tx: &Connection,
    fields: &TemplateFields,
    except: Option<i64>,
    pending_too: bool,
) -> Result<Option<SameText>> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {} FROM registrations r LEFT JOIN rules ru ON ru.registration_id = r.id
         WHERE r.kind = 'informal' AND r.id IS NOT ?1
           AND ((?2 AND r.status IN ('submitted', 'changes-requested'))
                OR (r.status = 'approved' AND EXISTS (
                    SELECT 1 FROM namespaces n WHERE n.nid = r.nid AND n.status = 'registered'
                    AND n.current_version = r.version)))
         ORDER BY r.id",
        version_columns()
    ))?;
    let key = text_key(fields);
    let mut rows = stmt.query(params![except, pending_too])?;
    while let Some(r) = rows.next()? {
        let v = read_version(r)?;
        if text_key(&v.fields) != key {
            continue;
        }
        return Ok(Some(match v.nid {
            Some(nid) if !v.status.is_pending() => SameText::InForce { nid, id: v.id },
            _ => SameText::Pending {
                id: v.id,
                status: v.status,
            },
        }));
    }
    Ok(None)
}

/// The namespace `nid` if a revision of it can be filed: registered, and
/// no request for it waiting.
fn revisable(conn: &Connection, nid: &str) -> Result<NamespaceState> {
    let Some(ns) = namespace_state(conn, nid)? else {
        return Err(Error::NotFound(match pending_for_nid(conn, nid)? {
            Some(p) => format!(
                "'{nid}' is not registered: {} waits for review; amend it (`urnreg amend {} FILE`)",
                p.describe(),
                p.id
            ),
            None => format!("'{nid}' is not a registered NID"),
        }));
    };
    if ns.status != NamespaceStatus::Registered {
        return Err(Error::State(format!(
            "'{}' is {}: it cannot be revised",
            ns.nid, ns.status
        )));
    }
    if let Some(p) = pending_for_nid(conn, &ns.nid)? {
        return Err(Error::State(format!(
            "{} already waits for review: amend it (`urnreg amend {} FILE`) or withdraw it (`urnreg withdraw {}`)",
            p.describe(),
            p.id,
            p.id
        )));
    }
    Ok(ns)
}

/// Registration `id` as a [`super::rows::Version`].
fn version_by_id(tx: &Connection, id: i64) -> Result<super::rows::Version> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {} FROM registrations r LEFT JOIN rules ru ON ru.registration_id = r.id WHERE r.id = ?1",
        version_columns()
    ))?;
    let mut rows = stmt.query([id])?;
    match rows.next()? {
        Some(r) => read_version(r),
        None => Err(Error::NotFound(format!("no request {id}"))),
    }
}

/// Takes the next informal number: one more than the highest ever given,
/// up to [`MAX_INFORMAL_NUMBER`](super::super::MAX_INFORMAL_NUMBER) (the
/// same limit snapshots are held to, so the sequence never overflows and
/// every number handed out can be exported and imported again).
fn next_informal(tx: &Transaction<'_>) -> Result<String> {
    use super::super::MAX_INFORMAL_NUMBER;
    let last: i64 = tx.query_row("SELECT last FROM informal_sequence", [], |r| r.get(0))?;
    if last >= MAX_INFORMAL_NUMBER {
        return Err(Error::State(format!(
            "the informal NID sequence is exhausted: urn-{last} reached the limit of \
             MAX_INFORMAL_NUMBER = {MAX_INFORMAL_NUMBER} (RFC 8141 section 5.2: numbers are never reused)"
        )));
    }
    let last: i64 = tx.query_row(
        "UPDATE informal_sequence SET last = last + 1 RETURNING last",
        [],
        |r| r.get(0),
    )?;
    Ok(format!("urn-{last}"))
}

/// The rules of a file as stored.
fn file_rules(file: &RegistrationFile, whose: &str) -> Result<Option<String>> {
    match &file.rules {
        None => Ok(None),
        Some(table) => {
            let rules: crate::rules::RulesFile = table
                .clone()
                .try_into()
                .map_err(|e| Error::Data(format!("rules of {whose}: {e}")))?;
            Ok(Some(rules_text(&rules, whose)?))
        }
    }
}

/// Compiles stored rules for `nid` (and runs their examples): broken rules
/// are never put in force.
fn check_rules(body: Option<&str>, nid: &str) -> Result<()> {
    let Some(body) = body else {
        return Ok(());
    };
    let rules = parse_rules(body, nid)?;
    rules.compile(nid).map(|_| ()).map_err(|e| {
        Error::Invalid(vec![Problem {
            field: "rules".into(),
            message: e.to_string(),
        }])
    })
}

fn insert_registration(
    tx: &Transaction<'_>,
    file: &RegistrationFile,
    nid: Option<&str>,
    kind: Kind,
    version: i64,
    source: Option<&str>,
) -> Result<i64> {
    let rules = file_rules(file, nid.unwrap_or("the informal request"))?;
    insert_row(
        tx,
        &RegistrationRow {
            nid,
            kind,
            version,
            status: RequestStatus::Submitted,
            date: &file.date.as_ref().map(|d| d.as_text()).unwrap_or_default(),
            fields: &file.template_fields(),
            source,
            source_text: None,
            submitted_at: &now(),
            decided_at: None,
            rules: rules.as_deref(),
        },
    )
}

fn problem(field: &str, message: String) -> Problem {
    Problem {
        field: field.into(),
        message,
    }
}

fn refuse_if_any(problems: Vec<Problem>) -> Result<()> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(problems))
    }
}

impl Store {
    /// The filing a revision of `nid` is: to lint the file as, before
    /// [`Store::revise`].
    ///
    /// # Errors
    ///
    /// As [`Store::revise`] for a NID that is not registered, withdrawn,
    /// or has a request waiting.
    pub fn revision_filing(&self, nid: &str) -> Result<Filing> {
        let ns = revisable(&self.conn, nid)?;
        Ok(Filing::Revision {
            nid: ns.nid,
            current: ns.current,
        })
    }

    /// The filing an amendment of request `target` (an id, or the NID it
    /// is for) is: to lint the file as, before [`Store::amend`].
    ///
    /// # Errors
    ///
    /// As [`Store::amend`] when there is no such request or it is not
    /// pending.
    pub fn amendment_filing(&self, target: &str) -> Result<Filing> {
        let row = resolve(&self.conn, target)?;
        row.require_pending("amended")?;
        Ok(match (row.version, row.nid) {
            (1, _) | (_, None) => Filing::Request,
            (version, Some(nid)) => Filing::Revision {
                nid,
                current: Some(version - 1),
            },
        })
    }

    /// Files a registration request (RFC 8141 section 6): version 1 of a
    /// formal NID, or an informal request, that lint vetted as a request.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the NID is registered (or withdrawn) or
    /// already requested, or the same informal text is pending or in
    /// force (each naming the other request); [`Error::State`] for a file
    /// vetted as a revision.
    pub fn request(&mut self, vetted: &Vetted<'_>, source: Option<&str>, actor: &str) -> Result<Outcome> {
        self.request_and(vetted, source, actor, |_, _| Ok(()))
            .map(|(outcome, ())| outcome)
    }

    /// As [`Store::request`], with `and` run on the new request in the same
    /// transaction before it commits: what the service stores with a
    /// filing (the registrant's token) is stored with it or not at all.
    ///
    /// # Errors
    ///
    /// As [`Store::request`], or the error of `and`; nothing is stored.
    pub fn request_and<T>(
        &mut self,
        vetted: &Vetted<'_>,
        source: Option<&str>,
        actor: &str,
        and: impl FnOnce(&rusqlite::Connection, &Outcome) -> Result<T>,
    ) -> Result<(Outcome, T)> {
        let file = vetted.file();
        if let Filing::Revision { nid, .. } = vetted.filing() {
            return Err(Error::State(format!(
                "the file was checked as a revision of '{nid}': file it with `urnreg revise {nid} FILE`"
            )));
        }
        let tx = self.write()?;
        let mut problems = Vec::new();
        let kind = file.kind.unwrap_or(Kind::Formal);
        if file.version != Some(1) {
            problems.push(problem(
                "version",
                "a first registration is version 1 (RFC 8141 section 6)".into(),
            ));
        }
        let nid = match kind {
            Kind::Formal => {
                let Some(nid) = file.nid.clone() else {
                    return Err(Error::Invalid(vec![problem(
                        "nid",
                        "missing: a formal registration requests a NID (RFC 8141 section 5.1)".into(),
                    )]));
                };
                if let Some(ns) = namespace_state(&tx, &nid)? {
                    problems.push(problem(
                        "nid",
                        match ns.status {
                            NamespaceStatus::Registered => format!(
                                "'{}' is already registered (RFC 8141 section 5.1); to revise it, use `urnreg revise`",
                                ns.nid
                            ),
                            NamespaceStatus::Withdrawn => format!(
                                "'{}' was registered and is withdrawn: a NID is never reused (RFC 8141 section 5.1)",
                                ns.nid
                            ),
                        },
                    ));
                } else if let Some(p) = pending_for_nid(&tx, &nid)? {
                    problems.push(problem(
                        "nid",
                        format!(
                            "'{nid}' is already requested: {} waits for review; amend it (`urnreg amend {} FILE`) or withdraw it",
                            p.describe(),
                            p.id
                        ),
                    ));
                }
                Some(nid)
            }
            Kind::Informal => {
                if let Some(dup) = same_informal_text(&tx, &file.template_fields(), None, true)? {
                    problems.push(problem("text", dup.message()));
                }
                None
            }
        };
        refuse_if_any(problems)?;
        let id = insert_registration(&tx, file, nid.as_deref(), kind, 1, source)?;
        audit(
            &tx,
            actor,
            "request",
            nid.as_deref(),
            Some(id),
            &format!("{kind} request, version 1"),
        )?;
        let outcome = Outcome {
            id,
            nid,
            status: RequestStatus::Submitted,
            version: 1,
        };
        let more = and(&tx, &outcome)?;
        tx.commit()?;
        Ok((outcome, more))
    }

    /// Files a revision of a registered namespace: Version must be the
    /// version in force + 1 and lint must have vetted it as a revision of
    /// that NID.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] for a NID that is not registered,
    /// [`Error::State`] for a withdrawn namespace or when a request for it
    /// is already waiting (amend that one instead), [`Error::Invalid`]
    /// with the problems.
    pub fn revise(
        &mut self,
        nid: &str,
        vetted: &Vetted<'_>,
        source: Option<&str>,
        actor: &str,
    ) -> Result<Outcome> {
        self.revise_and(nid, vetted, source, actor, |_, _| Ok(()))
            .map(|(outcome, ())| outcome)
    }

    /// As [`Store::revise`], with `and` run on the new version in the same
    /// transaction before it commits (see [`Store::request_and`]).
    ///
    /// # Errors
    ///
    /// As [`Store::revise`], or the error of `and`; nothing is stored.
    pub fn revise_and<T>(
        &mut self,
        nid: &str,
        vetted: &Vetted<'_>,
        source: Option<&str>,
        actor: &str,
        and: impl FnOnce(&rusqlite::Connection, &Outcome) -> Result<T>,
    ) -> Result<(Outcome, T)> {
        let file = vetted.file();
        let tx = self.write()?;
        let ns = revisable(&tx, nid)?;
        let nid = ns.nid;
        match vetted.filing() {
            Filing::Revision { nid: linted, .. } if linted.eq_ignore_ascii_case(&nid) => {}
            Filing::Revision { nid: linted, .. } => {
                return Err(Error::State(format!(
                    "the file was checked as a revision of '{linted}', not of '{nid}'"
                )));
            }
            Filing::Request => {
                return Err(Error::State(format!(
                    "the file was checked as a first request, not as a revision of '{nid}'"
                )));
            }
        }
        // A namespace registered before its text was held here counts as version 1.
        let expected = ns.current.unwrap_or(1) + 1;
        let mut problems = Vec::new();
        if file.version != Some(expected) {
            problems.push(problem(
                "version",
                format!(
                    "{}: expected {expected} (a revision of '{nid}' is the version in force + 1, RFC 8141 section 6)",
                    file.version.map_or("missing".to_string(), |v| v.to_string())
                ),
            ));
        }
        if file.kind.is_some_and(|k| k != ns.kind) {
            problems.push(problem("kind", format!("'{nid}' is {}", ns.kind)));
        }
        if let Some(given) = file.nid.as_deref().filter(|g| !g.eq_ignore_ascii_case(&nid)) {
            problems.push(problem(
                "nid",
                format!("'{given}' does not match the namespace being revised, '{nid}'"),
            ));
        }
        refuse_if_any(problems)?;
        let id = insert_registration(&tx, file, Some(&nid), ns.kind, expected, source)?;
        audit(
            &tx,
            actor,
            "revise",
            Some(&nid),
            Some(id),
            &format!("version {expected}"),
        )?;
        let outcome = Outcome {
            id,
            nid: Some(nid),
            status: RequestStatus::Submitted,
            version: expected,
        };
        let more = and(&tx, &outcome)?;
        tx.commit()?;
        Ok((outcome, more))
    }

    /// Replaces the text of a pending request (given by id, or by the NID
    /// it is for) with `vetted`, as the expert asked (RFC 8141 section 6);
    /// the request goes back to review. The text it replaces is kept
    /// ([`Store::replaced_texts`]).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when there is no such request,
    /// [`Error::State`] when it was decided or withdrawn, the file was
    /// vetted for another filing, nothing changed or it was amended
    /// [`MAX_AMENDMENTS`](crate::registry::MAX_AMENDMENTS) times already, [`Error::Invalid`]
    /// when the file changes the kind, NID or version, or repeats another
    /// informal request.
    pub fn amend(
        &mut self,
        target: &str,
        vetted: &Vetted<'_>,
        source: Option<&str>,
        actor: &str,
    ) -> Result<Outcome> {
        let file = vetted.file();
        let tx = self.write()?;
        let row = resolve(&tx, target)?;
        row.require_pending("amended")?;
        let mut problems = Vec::new();
        if file.kind.is_some_and(|k| k != row.kind) {
            problems.push(problem(
                "kind",
                format!(
                    "request {} is {}: an amendment cannot change that; withdraw it and file a new request",
                    row.id, row.kind
                ),
            ));
        }
        if let (Some(given), Some(nid)) = (file.nid.as_deref(), row.nid.as_deref())
            && !given.eq_ignore_ascii_case(nid)
        {
            problems.push(problem(
                    "nid",
                    format!(
                        "request {} is for '{nid}': an amendment cannot change the NID; withdraw it and request '{given}'",
                        row.id
                    ),
                ));
        }
        if file.version != Some(row.version) {
            problems.push(problem(
                "version",
                format!(
                    "{}: request {} is for version {}",
                    file.version.map_or("missing".to_string(), |v| v.to_string()),
                    row.id,
                    row.version
                ),
            ));
        }
        refuse_if_any(problems)?;
        let filing_fits = match (vetted.filing(), row.version, row.nid.as_deref()) {
            (Filing::Request, 1, _) => true,
            (Filing::Revision { nid, .. }, v, Some(row_nid)) if v > 1 => nid.eq_ignore_ascii_case(row_nid),
            _ => false,
        };
        if !filing_fits {
            return Err(Error::State(format!(
                "the file was not checked as {}: lint it against this registry again",
                if row.version == 1 {
                    "a first request".to_string()
                } else {
                    format!("a revision of '{}'", row.nid.as_deref().unwrap_or_default())
                }
            )));
        }
        if let (true, Some(nid)) = (row.version > 1, row.nid.as_deref()) {
            let next = namespace_state(&tx, nid)?
                .filter(|ns| ns.status == NamespaceStatus::Registered)
                .map(|ns| ns.current.unwrap_or(1) + 1);
            if next != Some(row.version) {
                return Err(Error::State(format!(
                    "{} no longer follows the version in force of '{nid}': withdraw it",
                    row.describe()
                )));
            }
        }
        if row.kind == Kind::Informal
            && row.version == 1
            && let Some(dup) = same_informal_text(&tx, &file.template_fields(), Some(row.id), true)?
        {
            return Err(Error::Invalid(vec![problem("text", dup.message())]));
        }
        let replaced = amendment_count(&tx, row.id)?;
        if replaced >= crate::registry::MAX_AMENDMENTS {
            return Err(Error::State(format!(
                "request {} has been amended {replaced} times, the most one request takes (MAX_AMENDMENTS): withdraw it and file it again",
                row.id
            )));
        }
        let old = version_by_id(&tx, row.id)?;
        let old_file = old.to_registration();
        let mut new_file = file.clone();
        new_file.nid = old_file.nid.clone();
        new_file.kind = old_file.kind;
        let same = |f: &RegistrationFile| {
            (
                f.template_fields(),
                f.date.as_ref().map(|d| d.as_text()),
                file_rules(f, "the request").ok().flatten(),
            )
        };
        if same(&old_file) == same(&new_file) {
            return Err(Error::State(format!(
                "nothing to amend: the file holds the text of request {} already",
                row.id
            )));
        }
        let body = toml::to_string(&old_file).map_err(|e| Error::Data(format!("request {}: {e}", row.id)))?;
        let filed_at: String = tx
            .query_row(
                "SELECT replaced_at FROM amendments WHERE registration_id = ?1 ORDER BY id DESC LIMIT 1",
                [row.id],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or_else(|| row.submitted_at.clone());
        let at = now();
        tx.execute(
            "INSERT INTO amendments (registration_id, body, source, filed_at, replaced_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![row.id, body, old.source, filed_at, at],
        )?;
        let rules = file_rules(file, row.nid.as_deref().unwrap_or("the informal request"))?;
        replace_text(
            &tx,
            row.id,
            &file.date.as_ref().map(|d| d.as_text()).unwrap_or_default(),
            &file.template_fields(),
            source,
            rules.as_deref(),
        )?;
        tx.execute(
            "UPDATE registrations SET status = ?1 WHERE id = ?2",
            params![RequestStatus::Submitted, row.id],
        )?;
        let texts = replaced + 1;
        audit(
            &tx,
            actor,
            "amend",
            row.nid.as_deref(),
            Some(row.id),
            &format!(
                "text {} replaced by text {}; back to review (was {})",
                texts,
                texts + 1,
                row.status
            ),
        )?;
        tx.commit()?;
        Ok(Outcome {
            id: row.id,
            nid: row.nid,
            status: RequestStatus::Submitted,
            version: row.version,
        })
    }

    /// The registrant withdraws a pending request (given by id, or by the
    /// NID it is for). It stays in the history; the NID is free again.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when there is no such request,
    /// [`Error::State`] when it was decided or withdrawn already.
    pub fn withdraw(&mut self, target: &str, note: Option<&str>, actor: &str) -> Result<Outcome> {
        let tx = self.write()?;
        let row = resolve(&tx, target)?;
        row.require_pending("withdrawn")?;
        tx.execute(
            "UPDATE registrations SET status = ?1, decided_at = ?2 WHERE id = ?3",
            params![RequestStatus::Withdrawn, now(), row.id],
        )?;
        let note = note.map(str::trim).filter(|n| !n.is_empty());
        audit(
            &tx,
            actor,
            "withdraw",
            row.nid.as_deref(),
            Some(row.id),
            note.unwrap_or("withdrawn by the registrant"),
        )?;
        tx.commit()?;
        Ok(Outcome {
            id: row.id,
            nid: row.nid,
            status: RequestStatus::Withdrawn,
            version: row.version,
        })
    }

    /// Records an expert's decision on a pending request, given by id or by
    /// the NID it is for. Approving version 1 of a formal request registers
    /// its NID; of an informal one, assigns the next `urn-N` (section 5.2),
    /// never reusing a number; of a revision, puts it in force. Either way
    /// the approved version's own rules become the rules in force.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when there is no such request,
    /// [`Error::State`] when it is not pending, or a revision does not
    /// follow the version in force of a registered namespace;
    /// [`Error::Invalid`] for an empty note, a NID registered meanwhile,
    /// a text already in force, or rules that do not compile.
    pub fn review(&mut self, target: &str, decision: Decision, note: &str, actor: &str) -> Result<Outcome> {
        self.review_read(target, decision, note, actor, None)
    }

    /// [`Store::review`] of the text the expert read: `read` is how many
    /// times the request had been amended then (the service's review form
    /// and API send it). A decision on a text the registrant has replaced
    /// since is refused, so that no text is approved unseen.
    ///
    /// # Errors
    ///
    /// As [`Store::review`]; [`Error::State`] when the request was amended
    /// since it was read.
    pub fn review_read(
        &mut self,
        target: &str,
        decision: Decision,
        note: &str,
        actor: &str,
        read: Option<i64>,
    ) -> Result<Outcome> {
        if note.trim().is_empty() {
            return Err(Error::Invalid(vec![problem(
                "note",
                "a review needs a note for the registrant".into(),
            )]));
        }
        let tx = self.write()?;
        let row = resolve(&tx, target)?;
        row.require_pending("reviewed")?;
        let id = row.id;
        if let Some(read) = read {
            let amended = amendment_count(&tx, id)?;
            if read < 0 || read > amended {
                // Not a count this request ever had (found in hostile testing: it was
                // said to have been "amended since it was read").
                return Err(Error::State(format!(
                    "request {id} has been amended {amended} times, never {read}: read its text (`urnreg status {id}`) and name the count it shows"
                )));
            }
            if amended != read {
                return Err(Error::State(format!(
                    "request {id} was amended since it was read (amended {amended} times, {read} when read): read its text again before deciding"
                )));
            }
        }
        let at = now();
        let mut nid = row.nid.clone();
        if decision == Decision::Approve {
            let rules = rules_of(&tx, id)?;
            if row.version == 1 {
                let registered = match row.kind {
                    Kind::Formal => {
                        let nid = nid
                            .clone()
                            .ok_or_else(|| Error::Data(format!("request {id} has no NID")))?;
                        if let Some(ns) = namespace_state(&tx, &nid)? {
                            return Err(Error::Invalid(vec![problem(
                                "nid",
                                format!(
                                    "'{}' is already {} (RFC 8141 section 5.1): request {id} cannot be approved",
                                    ns.nid, ns.status
                                ),
                            )]));
                        }
                        nid
                    }
                    Kind::Informal => {
                        // Two requests with one text filed before duplicates
                        // were refused: the second is not registered again.
                        let filed = version_by_id(&tx, id)?;
                        if let Some(dup) = same_informal_text(&tx, &filed.fields, Some(id), false)? {
                            return Err(Error::Invalid(vec![problem("text", dup.message())]));
                        }
                        next_informal(&tx)?
                    }
                };
                check_rules(rules.as_deref(), &registered)?;
                tx.execute(
                    "INSERT INTO namespaces (nid, kind, status, date, current_version, rules)
                     VALUES (?1, ?2, 'registered', ?3, 1, ?4)",
                    params![registered, row.kind, today(), rules],
                )?;
                nid = Some(registered);
            } else {
                let name = nid
                    .clone()
                    .ok_or_else(|| Error::Data(format!("request {id} has no NID")))?;
                let Some(ns) = namespace_state(&tx, &name)? else {
                    return Err(Error::State(format!(
                        "version {} of '{name}' cannot be approved: '{name}' is not registered, and a version after 1 revises a registered namespace (RFC 8141 section 6)",
                        row.version
                    )));
                };
                if ns.status != NamespaceStatus::Registered {
                    return Err(Error::State(format!(
                        "version {} of '{name}' cannot be approved: '{name}' is {}",
                        row.version, ns.status
                    )));
                }
                let expected = ns.current.unwrap_or(1) + 1;
                if row.version != expected {
                    return Err(Error::State(format!(
                        "version {} of '{name}' cannot be approved: the next version is {expected} (the version in force + 1)",
                        row.version
                    )));
                }
                check_rules(rules.as_deref(), &ns.nid)?;
                tx.execute(
                    "UPDATE namespaces SET current_version = ?1, updated = ?2, rules = ?3 WHERE nid = ?4",
                    params![row.version, today(), rules, ns.nid],
                )?;
            }
        }
        let new_status = decision.new_status();
        tx.execute(
            "UPDATE registrations SET status = ?1, nid = ?2, decided_at = ?3 WHERE id = ?4",
            params![
                new_status,
                nid,
                (decision != Decision::AskChanges).then_some(&at),
                id
            ],
        )?;
        tx.execute(
            "INSERT INTO reviews (registration_id, decision, note, actor, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, decision, note, actor, at],
        )?;
        audit(
            &tx,
            actor,
            &format!("review:{decision}"),
            nid.as_deref(),
            Some(id),
            note,
        )?;
        tx.commit()?;
        Ok(Outcome {
            id,
            nid,
            status: new_status,
            version: row.version,
        })
    }
}

/// How many times request `id`'s text was replaced (`amend`).
fn amendment_count(conn: &Connection, id: i64) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM amendments WHERE registration_id = ?1",
        [id],
        |r| r.get(0),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::registration::APPENDIX_A_KEYS;

    #[test]
    fn text_keys_ignore_whitespace_date_and_revision_information() {
        let a = TemplateFields {
            purpose: Some("Names  the\ndrafts.".into()),
            date: Some("2026-01-01".into()),
            ..TemplateFields::default()
        };
        let b = TemplateFields {
            purpose: Some("Names the drafts.".into()),
            date: Some("2026-02-02".into()),
            revision_information: Some("x".into()),
            ..TemplateFields::default()
        };
        assert_eq!(text_key(&a), text_key(&b));
        let c = TemplateFields {
            purpose: Some("Names the drafts!".into()),
            ..TemplateFields::default()
        };
        assert_ne!(text_key(&a), text_key(&c));
        assert!(APPENDIX_A_KEYS.iter().all(|k| FIELDS.iter().any(|f| f.0 == *k)));
    }
}
