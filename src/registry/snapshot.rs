//! The whole registry as one value ([`Snapshot`]), read out of the
//! database and written back into it in one transaction.
//!
//! A snapshot holds what `registry/` holds (the registry's metadata and
//! one record per namespace, with its rules in force) plus what was filed
//! here: every version requested through urnreg with its review state.
//! The audit log is the database's own history and is not part of it.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::Kind;
use super::clock::is_valid_date;
use super::data::{FiledVersion, Person, RecordFile, RegistryFile, ReviewEntry, Xref, leading_number};
use super::error::{Error, Problem, Result};
use super::informal_number;
use super::registration::Filing;
use super::registration::RegistrationFile;
use super::status::UnknownValue;
use super::store::{
    RegistrationRow, Store, appendix_a_columns, audit, insert_row, seed_record, stored_fields,
};
use crate::lint::{LintContext, Severity, formal_nid_problems, lint_as};
use crate::rules::RulesFile;

/// The version of the snapshot format (the JSON `schema` key). Schema 2
/// added the informal sequence (`last_informal`) and request ids; schema 1
/// snapshots, which have neither, still import.
pub const SNAPSHOT_SCHEMA: u32 = 2;

pub use super::MAX_INFORMAL_NUMBER;

/// The highest registration version a snapshot may hold (RFC 8141
/// section 6: each revision adds one), so that the next revision's number
/// is always representable.
pub const MAX_VERSION: i64 = 1_000_000;

/// The highest request id a snapshot may hold: the largest integer that
/// JSON readers hold exactly (RFC 7493 section 2.2), as `--format json`
/// prints ids.
pub const MAX_REQUEST_ID: i64 = (1 << 53) - 1;

/// The registry as a value: what every export writes and every import reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// `_registry.toml`.
    pub registry: RegistryFile,
    /// One record per namespace, sorted by lower-case NID.
    pub records: Vec<RecordFile>,
    /// Filed versions that belong to no registered namespace.
    pub requests: Vec<FiledVersion>,
    /// The highest informal number ever assigned, even to a namespace no
    /// longer held (RFC 8141 section 5.2: never handed out again). `None`
    /// when the snapshot does not say (schema 1, the IANA XML): then the
    /// highest `urn-N` among the records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_informal: Option<i64>,
}

/// What importing a snapshot changes, by NID.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportPlan {
    /// NIDs the snapshot adds.
    pub added: Vec<String>,
    /// NIDs the snapshot changes (record, rules, status or versions), with
    /// what changes.
    pub changed: Vec<(String, Vec<String>)>,
    /// NIDs the database has and the snapshot does not.
    pub removed: Vec<String>,
    /// Requests (not yet registered NIDs) before and after.
    pub requests: (usize, usize),
    /// The highest informal number ever assigned, before and after (it
    /// never goes down).
    pub last_informal: (i64, i64),
    /// Whether it would change or drop something the database holds (needs
    /// `--replace`).
    pub conflicts: bool,
    /// Whether it was applied.
    pub applied: bool,
}

const S2: &str = "RFC 8141 section 2";
const S5_2: &str = "RFC 8141 section 5.2";
const S6: &str = "RFC 8141 section 6";
const XML_CHAR: &str = "XML 1.0 section 2.2";

/// The problems found so far, each naming where it is.
#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(Problem {
            field: field.into(),
            message: message.into(),
        });
    }

    /// `date` must be a calendar date `YYYY-MM-DD`.
    fn date(&mut self, at: &str, what: &str, date: &str, section: &str) {
        if !is_valid_date(date) {
            self.add(
                at,
                format!("{what} {date:?} is not a date YYYY-MM-DD ({section})"),
            );
        }
    }

    /// `time` must be a UTC time as urnreg writes them.
    fn timestamp(&mut self, at: &str, what: &str, time: &str) {
        if !is_valid_timestamp(time) {
            self.add(
                at,
                format!("{what} {time:?} is not a UTC time YYYY-MM-DDTHH:MM:SSZ"),
            );
        }
    }

    /// Registry facts must fit the IANA XML format they come from.
    fn xml_text(&mut self, at: &str, what: &str, text: &str) {
        if let Some(c) = text.chars().find(|c| !super::iana::is_xml_char(*c)) {
            self.add(
                at,
                format!(
                    "{what} holds U+{:04X}, which the registry's XML format cannot hold ({XML_CHAR})",
                    u32::from(c)
                ),
            );
        }
    }

    fn xref(&mut self, at: &str, x: &Xref) {
        self.xml_text(at, "a reference's type", &x.kind);
        self.xml_text(at, "a reference's data", &x.data);
        if let Some(t) = &x.text {
            self.xml_text(at, "a reference's text", t);
        }
        if let Some(p) = &x.person {
            self.xml_text(at, "a person's name", &p.name);
            if let Some(u) = &p.uri {
                self.xml_text(at, "a person's address", u);
            }
            if let Some(d) = &p.updated {
                self.date(at, "a person's updated date", d, "IANA registry format");
            }
        }
    }
}

/// Returns true if and only if `s` is a UTC time `YYYY-MM-DDTHH:MM:SSZ`
/// (the form of [`super::clock::now`]) with a real date.
fn is_valid_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let two = |i: usize, max: u8| {
        b[i].is_ascii_digit() && b[i + 1].is_ascii_digit() && (b[i] - b'0') * 10 + (b[i + 1] - b'0') <= max
    };
    b.len() == 20
        && s.get(..10).is_some_and(is_valid_date)
        && b[10] == b'T'
        && two(11, 23)
        && b[13] == b':'
        && two(14, 59)
        && b[16] == b':'
        && two(17, 60)
        && b[19] == b'Z'
}

impl Snapshot {
    /// Checks everything before anything is written, as if each part had
    /// been filed by hand: the registry's metadata; every record's NID
    /// (RFC 8141 section 2, section 5.1 for formal NIDs, section 5.2 and
    /// [`MAX_INFORMAL_NUMBER`] for informal ones), unique, its kind
    /// matching its form, its dates and version; every rule compiles and
    /// passes its examples; every filed version lints as it did when it
    /// was filed (NID, version, date, required fields), its review state
    /// is one the lifecycle can reach, its versions follow each other as
    /// revisions do, and its request id is unique and in range.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] listing every problem.
    pub fn validate(&self) -> Result<()> {
        let mut p = Problems::default();
        check_registry(&self.registry, &mut p);
        let mut seen = BTreeSet::new();
        let mut highest_informal = 0;
        for record in &self.records {
            let nid = &record.nid;
            if crate::urn::check_nid(nid).is_err() {
                p.add(nid, format!("not a valid NID ({S2})"));
                continue;
            }
            if !seen.insert(nid.to_ascii_lowercase()) {
                p.add(nid, "appears twice (NIDs are case-insensitive)");
            }
            // The NID is valid, so one starting `urn-` is `urn-` and a
            // positive number (section 5.2), which may not fit an i64.
            let urn_prefix = nid.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("urn-"));
            match (record.kind, urn_prefix, informal_number(nid)) {
                (Kind::Informal, true, Some(n)) if n <= MAX_INFORMAL_NUMBER => {
                    highest_informal = highest_informal.max(n);
                }
                (Kind::Informal, true, _) => p.add(
                    nid,
                    format!(
                        "informal number {} is over MAX_INFORMAL_NUMBER = {MAX_INFORMAL_NUMBER} ({S5_2})",
                        &nid[4..]
                    ),
                ),
                (Kind::Formal, false, _) => {
                    for finding in formal_nid_problems(nid) {
                        p.add(nid, finding.to_string());
                    }
                }
                (kind, _, _) => p.add(
                    nid,
                    format!(
                        "kind '{}' does not match the NID (informal NIDs are urn-N, {S5_2})",
                        kind.as_str()
                    ),
                ),
            }
            check_record(record, &mut p);
        }
        if let Some(last) = self.last_informal {
            if !(0..=MAX_INFORMAL_NUMBER).contains(&last) {
                p.add(
                    "last_informal",
                    format!("{last} is not between 0 and MAX_INFORMAL_NUMBER = {MAX_INFORMAL_NUMBER}"),
                );
            } else if last < highest_informal {
                p.add(
                    "last_informal",
                    format!("{last} is below urn-{highest_informal}, which the snapshot holds ({S5_2})"),
                );
            }
        }
        check_requests(&self.requests, &seen, &mut p);
        check_request_ids(self, &mut p);
        if p.0.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(p.0))
        }
    }

    /// The records by lower-case NID.
    fn by_nid(&self) -> BTreeMap<String, &RecordFile> {
        self.records
            .iter()
            .map(|r| (r.nid.to_ascii_lowercase(), r))
            .collect()
    }

    /// The highest informal number the snapshot holds or says was assigned.
    fn highest_informal(&self) -> i64 {
        let held = self
            .records
            .iter()
            .filter_map(|r| informal_number(&r.nid))
            .max()
            .unwrap_or(0);
        held.max(self.last_informal.unwrap_or(0))
    }
}

/// The registry's own metadata: the IANA registry's id, its date, and the
/// two sub-registries every record is exported under.
fn check_registry(registry: &RegistryFile, p: &mut Problems) {
    let at = "registry";
    if registry.id != "urn-namespaces" {
        p.add(at, format!("id {:?}: expected \"urn-namespaces\"", registry.id));
    }
    p.date(at, "updated", &registry.updated, "IANA registry format");
    p.xml_text(at, "the title", &registry.title);
    p.xml_text(at, "the category", &registry.category);
    for note in &registry.notes {
        p.xml_text(at, "a note", note);
    }
    let ids: Vec<(&str, Kind)> = registry
        .subregistries
        .iter()
        .map(|s| (s.id.as_str(), s.kind))
        .collect();
    if ids
        != [
            ("urn-namespaces-1", Kind::Formal),
            ("urn-namespaces-2", Kind::Informal),
        ]
    {
        p.add(
            at,
            format!(
                "sub-registries {ids:?}: expected urn-namespaces-1 (formal) then urn-namespaces-2 (informal)"
            ),
        );
    }
    for sub in &registry.subregistries {
        let at = format!("registry {}", sub.id);
        for (what, text) in [
            ("the title", &sub.title),
            ("the registration rule", &sub.registration_rule),
            ("the expert", &sub.expert),
        ] {
            p.xml_text(&at, what, text);
        }
        for x in &sub.references {
            p.xref(&at, x);
        }
    }
}

/// A record's facts, rules and filed versions.
fn check_record(record: &RecordFile, p: &mut Problems) {
    let nid = &record.nid;
    if let Some(status) = record.status.as_deref().filter(|s| *s != "withdrawn") {
        p.add(nid, format!("status '{status}': expected 'withdrawn' or none"));
    }
    for (what, date) in [("date", &record.date), ("updated", &record.updated)] {
        if let Some(d) = date {
            p.date(nid, what, d, "IANA registry format");
        }
    }
    for x in record
        .template
        .iter()
        .chain(&record.references)
        .chain(&record.contacts)
    {
        p.xref(nid, x);
    }
    // The version of the text held (its Version field) must leave room for
    // the next revision.
    let shipped = record
        .registration
        .as_ref()
        .map(|r| leading_number(r.fields.version.as_deref()).unwrap_or(1));
    if let Some(v) = shipped.filter(|v| *v > MAX_VERSION) {
        p.add(
            nid,
            format!("the registration text is version {v}, over MAX_VERSION = {MAX_VERSION}"),
        );
    }
    if let Some(rules) = &record.rules
        && let Err(e) = rules.compile(nid)
    {
        p.add(format!("{nid}.rules"), e.to_string());
    }
    // Versions follow each other as filing by hand makes them (section 6):
    // a request is version 1, a revision the version in force + 1 (an IANA
    // record held without its text counts as version 1), and nothing is
    // filed while a version waits for review.
    let mut in_force = shipped;
    let mut pending: Option<i64> = None;
    for v in &record.filed {
        let at = format!("{nid} version {}", v.version);
        check_filed(v, Some(record), p);
        if let Some(waiting) = pending {
            p.add(
                &at,
                format!("filed while version {waiting} was waiting for review ({S6})"),
            );
        }
        let fits = match in_force {
            Some(current) => v.version == current.saturating_add(1),
            None => v.version == 1 || v.version == 2,
        };
        if !fits {
            p.add(
                &at,
                format!(
                    "follows version {} in force: a revision is the version in force + 1 ({S6})",
                    in_force.map_or_else(|| "none".to_string(), |c| c.to_string())
                ),
            );
        }
        match v.status.as_str() {
            "approved" => in_force = Some(v.version),
            "submitted" | "changes-requested" => pending = Some(v.version),
            _ => {}
        }
    }
}

/// Requests for NIDs that are not registered: first versions, not
/// approved (approval registers the NID), at most one waiting per NID.
fn check_requests(requests: &[FiledVersion], registered: &BTreeSet<String>, p: &mut Problems) {
    let mut waiting = BTreeSet::new();
    for v in requests {
        check_filed(v, None, p);
        let at = filed_at(v, None);
        if v.version != 1 {
            p.add(&at, format!("a request is version 1 ({S6})"));
        }
        if v.status == "approved" {
            p.add(&at, "approved, but its NID is not registered in the snapshot");
        }
        let Some(nid) = v.nid.as_deref() else {
            continue;
        };
        let key = nid.to_ascii_lowercase();
        if registered.contains(&key) {
            p.add(
                &at,
                format!("'{nid}' is registered: its versions belong to its record"),
            );
        }
        if ["submitted", "changes-requested"].contains(&v.status.as_str()) && !waiting.insert(key) {
            p.add(
                &at,
                format!("a second request for '{nid}' waiting for review ({S6})"),
            );
        }
    }
}

/// Request ids: all kept (schema 2) or none (schema 1), unique, in range,
/// oldest first within a namespace.
fn check_request_ids(snapshot: &Snapshot, p: &mut Problems) {
    let all: Vec<&FiledVersion> = snapshot
        .records
        .iter()
        .flat_map(|r| &r.filed)
        .chain(&snapshot.requests)
        .collect();
    let with_id = all.iter().filter(|v| v.id.is_some()).count();
    if with_id != 0 && with_id != all.len() {
        p.add(
            "id",
            format!(
                "{with_id} of {} filed versions carry a request id: all or none must",
                all.len()
            ),
        );
    }
    let mut ids = BTreeSet::new();
    for v in &all {
        let Some(id) = v.id else { continue };
        let at = filed_at(v, None);
        if !(1..=MAX_REQUEST_ID).contains(&id) {
            p.add(
                &at,
                format!("request id {id} is not between 1 and MAX_REQUEST_ID = {MAX_REQUEST_ID}"),
            );
        }
        if !ids.insert(id) {
            p.add(&at, format!("request id {id} is used twice"));
        }
    }
    for record in &snapshot.records {
        let ids: Vec<i64> = record.filed.iter().filter_map(|v| v.id).collect();
        if ids.windows(2).any(|w| w[0] >= w[1]) {
            p.add(
                &record.nid,
                format!("filed versions are not oldest first (request ids {ids:?})"),
            );
        }
    }
}

fn filed_at(v: &FiledVersion, owner: Option<&RecordFile>) -> String {
    let nid = v
        .nid
        .as_deref()
        .or(owner.map(|r| r.nid.as_str()))
        .unwrap_or("informal request");
    match v.id {
        Some(id) => format!("{nid} version {} (request {id})", v.version),
        None => format!("{nid} version {}", v.version),
    }
}

/// One filed version, as `urnreg request`, `revise` and `review` would
/// have made it.
fn check_filed(v: &FiledVersion, owner: Option<&RecordFile>, p: &mut Problems) {
    let at = filed_at(v, owner);
    if !(1..=MAX_VERSION).contains(&v.version) {
        p.add(
            &at,
            format!(
                "version {} is not between 1 and MAX_VERSION = {MAX_VERSION} ({S6})",
                v.version
            ),
        );
        return;
    }
    match owner {
        Some(record) => {
            if v.kind != record.kind {
                p.add(
                    &at,
                    format!(
                        "kind '{}' in a {} namespace",
                        v.kind.as_str(),
                        record.kind.as_str()
                    ),
                );
            }
            match v.nid.as_deref() {
                Some(nid) if nid.eq_ignore_ascii_case(&record.nid) => {}
                Some(nid) => p.add(&at, format!("filed under '{}' but names '{nid}'", record.nid)),
                None => p.add(&at, format!("filed under '{}' but names no NID", record.nid)),
            }
        }
        // A request's NID is checked by lint below (formal), or is not
        // assigned yet (informal).
        None => {
            if v.kind == Kind::Informal && v.nid.is_some() {
                p.add(
                    &at,
                    format!("an informal request has no NID until it is approved ({S5_2})"),
                );
            }
            if v.kind == Kind::Formal && v.nid.is_none() {
                p.add(&at, "a formal request names its NID (RFC 8141 section 5.1)");
            }
        }
    }
    check_review_state(v, &at, p);
    for (what, time) in [
        ("submitted_at", Some(&v.submitted_at)),
        ("decided_at", v.decided_at.as_ref()),
    ] {
        if let Some(t) = time {
            p.timestamp(&at, what, t);
        }
    }
    for (key, _, _) in crate::template::FIELDS.iter().take(3) {
        if v.fields.get(key).is_some_and(Option::is_some) {
            p.add(
                &at,
                format!("fields.{key}: given beside the version's own nid, version and date"),
            );
        }
    }
    // Lint, as `request` and `revise` do; the NID of an informal version is
    // the registry's, not the registrant's, and the registry's state
    // (registered NIDs, the version in force) is checked above.
    let lint_nid = v.nid.clone().filter(|_| v.kind == Kind::Formal);
    let mut file = RegistrationFile::from_fields(
        Some(v.kind),
        lint_nid.clone(),
        Some(v.version),
        Some(v.date.clone()),
        &v.fields,
    );
    file.rules = v
        .rules
        .as_ref()
        .and_then(|r| toml::Value::try_from(r).ok())
        .and_then(|v| v.as_table().cloned());
    let mode = if v.version == 1 {
        Filing::Request
    } else {
        Filing::Revision {
            nid: lint_nid.unwrap_or_default(),
            current: Some(v.version - 1),
        }
    };
    for finding in lint_as(&file, &LintContext::default(), &mode) {
        // A version filed before rules travelled with registrations has
        // none: what the registry accepted then is kept, not re-judged by
        // that later filing rule.
        if finding.severity == Severity::Error && finding.rule != "rules-missing" {
            p.add(format!("{at}: {}", finding.field), finding.to_string());
        }
    }
    if let Some(rules) = &v.rules {
        let nid = v
            .nid
            .as_deref()
            .or(owner.map(|r| r.nid.as_str()))
            .unwrap_or("urn-0");
        if let Err(e) = rules.compile(nid) {
            p.add(format!("{at} rules"), e.to_string());
        }
    }
}

/// The status and the reviews agree as `urnreg review` leaves them: a
/// version waiting for review was never decided, a decided one's last
/// review is that decision, and every review has its note and its time.
fn check_review_state(v: &FiledVersion, at: &str, p: &mut Problems) {
    let last = v.reviews.last().map(|r| r.decision.as_str());
    let (expected_last, decided): (&[Option<&str>], bool) = match v.status.as_str() {
        "submitted" => (&[None], false),
        "changes-requested" => (&[Some("ask-changes")], false),
        "approved" => (&[Some("approve")], true),
        "rejected" => (&[Some("reject")], true),
        // Withdrawn by the registrant, before or after changes were asked.
        "withdrawn" => (&[None, Some("ask-changes")], true),
        other => {
            p.add(at, format!("unknown status '{other}'"));
            return;
        }
    };
    if !expected_last.contains(&last) {
        p.add(
            at,
            format!(
                "status '{}' after {}",
                v.status,
                last.map_or_else(|| "no review".to_string(), |d| format!("a last review '{d}'"))
            ),
        );
    }
    if v.decided_at.is_some() != decided {
        p.add(
            at,
            format!(
                "status '{}' {} a decided_at time",
                v.status,
                if decided { "needs" } else { "has no" }
            ),
        );
    }
    for (i, r) in v.reviews.iter().enumerate() {
        if !["approve", "reject", "ask-changes"].contains(&r.decision.as_str()) {
            p.add(at, format!("unknown review decision '{}'", r.decision));
        }
        // Only the last review can decide: the others sent it back.
        if i + 1 < v.reviews.len() && r.decision != "ask-changes" {
            p.add(
                at,
                format!("review '{}' is followed by another review", r.decision),
            );
        }
        if r.note.trim().is_empty() {
            p.add(
                at,
                "a review without a note (a review needs a note for the registrant)",
            );
        }
        p.timestamp(at, "a review's time", &r.at);
    }
}

impl Store {
    /// The whole registry as a snapshot, sorted, with no timestamps but the
    /// registry's own.
    ///
    /// # Errors
    ///
    /// The SQLite error, or [`Error::Data`] for a stored value that does
    /// not parse.
    pub fn snapshot(&self) -> Result<Snapshot> {
        read_snapshot(&self.conn)
    }

    /// Imports `snapshot`: validates it, compares it with the database,
    /// and unless `dry_run`, makes the database hold exactly the snapshot,
    /// in one transaction. Changing or dropping anything the database
    /// holds needs `replace`. The audit log is kept, with an `import` entry.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a snapshot that does not validate,
    /// [`Error::State`] for conflicts without `replace`; the database is
    /// untouched in both cases.
    pub fn import_snapshot(
        &mut self,
        snapshot: &Snapshot,
        replace: bool,
        dry_run: bool,
        actor: &str,
    ) -> Result<ImportPlan> {
        snapshot.validate()?;
        let tx = self.write()?;
        let current = read_snapshot(&tx)?;
        let mut plan = compare(&current, snapshot);
        if dry_run {
            return Ok(plan);
        }
        if plan.conflicts && !replace {
            return Err(Error::State(format!(
                "the snapshot would change {} and remove {} namespace(s) the database holds; \
                 see --dry-run, and pass --replace to make the database equal to the snapshot",
                plan.changed.len(),
                plan.removed.len()
            )));
        }
        write_snapshot(&tx, snapshot)?;
        audit(
            &tx,
            actor,
            "import",
            None,
            None,
            &format!(
                "{} namespaces: {} added, {} changed, {} removed",
                snapshot.records.len(),
                plan.added.len(),
                plan.changed.len(),
                plan.removed.len()
            ),
        )?;
        tx.commit()?;
        plan.applied = true;
        Ok(plan)
    }
}

fn compare(current: &Snapshot, incoming: &Snapshot) -> ImportPlan {
    let (old, new) = (current.by_nid(), incoming.by_nid());
    let held_informal = current.highest_informal();
    let mut plan = ImportPlan {
        requests: (current.requests.len(), incoming.requests.len()),
        last_informal: (held_informal, held_informal.max(incoming.highest_informal())),
        ..ImportPlan::default()
    };
    // Changing or dropping what is held is a conflict; adding is not, and
    // neither is a namespace that only gains versions, nor a higher
    // informal sequence.
    let mut conflicts = !starts_with(&incoming.requests, &current.requests);
    for (key, record) in &new {
        match old.get(key) {
            None => plan.added.push(record.nid.clone()),
            Some(before) if !same_record(before, record) => {
                let mut what = Vec::new();
                if before.rules != record.rules {
                    what.push("rules".to_string());
                }
                if before.status != record.status {
                    what.push(format!("status {:?} -> {:?}", before.status, record.status));
                }
                let versions = |r: &RecordFile| -> Vec<String> {
                    r.filed
                        .iter()
                        .map(|v| format!("v{} {}", v.version, v.status))
                        .collect()
                };
                let same_filed =
                    record.filed.len() == before.filed.len() && starts_with(&record.filed, &before.filed);
                if !same_filed {
                    what.push(format!(
                        "filed versions [{}] -> [{}]",
                        versions(before).join(", "),
                        versions(record).join(", ")
                    ));
                }
                let fact_changes = iana_fact_changes(before, record);
                let facts = fact_changes.is_empty();
                what.extend(fact_changes);
                let only_gains = facts
                    && before.rules == record.rules
                    && before.status == record.status
                    && starts_with(&record.filed, &before.filed);
                conflicts |= !only_gains;
                plan.changed.push((record.nid.clone(), what));
            }
            Some(_) => {}
        }
    }
    plan.removed = old
        .iter()
        .filter(|(k, _)| !new.contains_key(*k))
        .map(|(_, r)| r.nid.clone())
        .collect();
    plan.conflicts = conflicts || !plan.removed.is_empty();
    plan
}

/// Whether `incoming` begins with the versions `held`. A version without a
/// request id (a schema 1 snapshot) matches the held one whatever its id.
fn starts_with(incoming: &[FiledVersion], held: &[FiledVersion]) -> bool {
    incoming.len() >= held.len()
        && held.iter().zip(incoming).all(|(h, i)| {
            h == i
                || (i.id.is_none()
                    && FiledVersion {
                        id: None,
                        ..h.clone()
                    } == *i)
        })
}

/// Whether an incoming record says exactly what the held one does.
fn same_record(held: &RecordFile, incoming: &RecordFile) -> bool {
    iana_fact_changes(held, incoming).is_empty()
        && held.rules == incoming.rules
        && held.status == incoming.status
        && held.filed.len() == incoming.filed.len()
        && starts_with(&incoming.filed, &held.filed)
}

/// What two records say differently of what the IANA registry holds
/// (everything but urnreg's rules, the status and the versions filed
/// here), one entry per field: `date "2020-01-01" -> "2021-02-03"` for a
/// date, the field's name for the others.
fn iana_fact_changes(a: &RecordFile, b: &RecordFile) -> Vec<String> {
    // Destructured, so that a new field of RecordFile must be placed here.
    let RecordFile {
        nid,
        kind,
        date,
        updated,
        template,
        references,
        contacts,
        registration,
        referenced,
        rules: _,
        status: _,
        filed: _,
    } = a;
    let shown = |v: &Option<String>| v.as_deref().map_or("none".to_string(), |d| format!("{d:?}"));
    let mut changes = Vec::new();
    if *nid != b.nid {
        changes.push(format!("nid {:?} -> {:?}", nid, b.nid));
    }
    if *kind != b.kind {
        changes.push(format!("kind {} -> {}", kind.as_str(), b.kind.as_str()));
    }
    for (name, before, after) in [("date", date, &b.date), ("updated", updated, &b.updated)] {
        if before != after {
            changes.push(format!("{name} {} -> {}", shown(before), shown(after)));
        }
    }
    if *template != b.template {
        changes.push("template reference".to_string());
    }
    if *references != b.references {
        changes.push("references".to_string());
    }
    if *contacts != b.contacts {
        changes.push("contacts".to_string());
    }
    if *registration != b.registration {
        changes.push("registration text".to_string());
    }
    if *referenced != b.referenced {
        changes.push("referenced texts".to_string());
    }
    changes
}

fn read_snapshot(conn: &rusqlite::Connection) -> Result<Snapshot> {
    let meta: Option<String> = conn
        .query_row("SELECT body FROM registry_meta WHERE id = 1", [], |r| r.get(0))
        .optional()?;
    let registry: RegistryFile = serde_json::from_str(
        &meta.ok_or_else(|| Error::Data("the database has no registry metadata".into()))?,
    )
    .map_err(|e| Error::Data(format!("registry metadata: {e}")))?;
    let mut stmt = conn.prepare(
        "SELECT nid, kind, status, date, updated, iana, rules FROM namespaces ORDER BY lower(nid)",
    )?;
    type Row = (
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut filed = filed_versions(conn)?;
    let mut records = Vec::with_capacity(rows.len());
    for (nid, kind, status, date, updated, iana, rules) in rows {
        let mut record: RecordFile = match iana {
            Some(json) => serde_json::from_str(&json)
                .map_err(|e| Error::Data(format!("stored record of {nid}: {e}")))?,
            None => RecordFile::bare(&nid, Kind::Formal),
        };
        record.nid = nid.clone();
        record.kind = if kind == "informal" {
            Kind::Informal
        } else {
            Kind::Formal
        };
        record.date = date;
        record.updated = updated;
        record.status = (status != "registered").then_some(status);
        record.rules = rules
            .map(|body| toml::from_str::<RulesFile>(&body))
            .transpose()
            .map_err(|e| Error::Data(format!("stored rules of {nid}: {e}")))?;
        record.filed = filed.remove(&nid.to_ascii_lowercase()).unwrap_or_default();
        if record.contacts.is_empty() {
            record.contacts = registrant_contact(&record).into_iter().collect();
        }
        records.push(record);
    }
    let requests = filed.into_values().flatten().collect();
    let last: i64 = conn.query_row("SELECT last FROM informal_sequence", [], |r| r.get(0))?;
    Ok(Snapshot {
        registry,
        records,
        requests,
        last_informal: Some(last),
    })
}

/// The contact of an informal namespace registered here, as the IANA
/// registry keeps one for every informal record (`<contact>`, required by
/// its schema), taken from the Registrant field, which RFC 8141 Appendix A
/// says gives the registrant's contact details: a person named by the
/// first line of the Registrant field of the version in force, with the
/// first e-mail address in it written the IANA way (`mailto:a&b.c`), and
/// the day that version was approved. `None` for formal namespaces, or
/// when no approved version names anyone.
pub(crate) fn registrant_contact(record: &RecordFile) -> Option<Xref> {
    if record.kind != Kind::Informal {
        return None;
    }
    let approved = record
        .filed
        .iter()
        .filter(|v| v.status == "approved")
        .max_by_key(|v| v.version)?;
    let registrant = approved.fields.registrant.as_deref()?;
    let email = registrant
        .split(|c: char| c.is_whitespace() || "<>()[],;\"'".contains(c))
        .map(|w| w.trim_matches('.'))
        .find(|w| {
            w.split_once('@')
                .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'))
                && w.chars().all(printable)
        });
    let first_line = registrant.lines().map(str::trim).find(|l| !l.is_empty())?;
    let first_line = first_line.strip_prefix("Name:").unwrap_or(first_line);
    let mut name = match first_line.find('<') {
        Some(i) => &first_line[..i],
        None => first_line,
    };
    if email.is_some_and(|e| name.contains(e)) {
        name = "";
    }
    // The name goes into the IANA XML: control characters (an ESC, a
    // U+0001 typed into the Registrant field) have no place in it.
    let name: String = name
        .chars()
        .filter(|c| printable(*c))
        .collect::<String>()
        .trim()
        .trim_end_matches([',', ';'])
        .chars()
        .take(100)
        .collect();
    let name = if name.is_empty() {
        email?.split('@').next()?.to_string()
    } else {
        name
    };
    // A person id is an XML NCName: letters, digits, '.', '-', '_', not
    // starting with a digit, '.' or '-'.
    let mut id: String = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !id.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    Some(Xref {
        kind: "person".into(),
        data: id,
        text: None,
        person: Some(Person {
            name,
            uri: email.map(|e| format!("mailto:{}", e.replacen('@', "&", 1))),
            updated: approved
                .decided_at
                .as_deref()
                .and_then(|t| t.get(..10))
                .map(str::to_string),
        }),
    })
}

/// Returns true if and only if `c` is neither a control character nor
/// one XML 1.0 cannot hold.
fn printable(c: char) -> bool {
    !c.is_control() && super::iana::is_xml_char(c)
}

/// Versions filed here (not the shipped texts), grouped by lower-case NID
/// (`""` for informal requests without one), oldest first.
fn filed_versions(conn: &rusqlite::Connection) -> Result<BTreeMap<String, Vec<FiledVersion>>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT r.id, r.nid, r.kind, r.version, r.status, r.date, r.source, r.submitted_at, r.decided_at,
                r.legacy_fields, ru.body, {}
         FROM registrations r LEFT JOIN rules ru ON ru.registration_id = r.id
         WHERE r.source_text IS NULL
         ORDER BY r.id",
        appendix_a_columns("r.")
    ))?;
    let mut reviews =
        conn.prepare("SELECT decision, note, actor, at FROM reviews WHERE registration_id = ?1 ORDER BY id")?;
    let mut out: BTreeMap<String, Vec<FiledVersion>> = BTreeMap::new();
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let nid: Option<String> = r.get(1)?;
        let fields = stored_fields(r, id, 11, 9)?;
        let rules: Option<String> = r.get(10)?;
        let rules = rules
            .map(|b| toml::from_str::<RulesFile>(&b))
            .transpose()
            .map_err(|e| Error::Data(format!("registration {id} rules: {e}")))?;
        let kind: String = r.get(2)?;
        let version = FiledVersion {
            id: Some(id),
            kind: if kind == "informal" {
                Kind::Informal
            } else {
                Kind::Formal
            },
            nid: nid.clone(),
            version: r.get(3)?,
            status: r.get(4)?,
            date: r.get(5)?,
            source: r.get(6)?,
            submitted_at: r.get(7)?,
            decided_at: r.get(8)?,
            fields,
            rules,
            reviews: reviews
                .query_map([id], |x| {
                    Ok(ReviewEntry {
                        decision: x.get(0)?,
                        note: x.get(1)?,
                        actor: x.get(2)?,
                        at: x.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?,
        };
        out.entry(nid.map(|n| n.to_ascii_lowercase()).unwrap_or_default())
            .or_default()
            .push(version);
    }
    // Requests for NIDs that are not registered stay requests: the caller
    // takes the registered ones out by NID.
    Ok(out)
}

fn write_snapshot(tx: &Transaction<'_>, snapshot: &Snapshot) -> Result<()> {
    tx.execute_batch(
        "DELETE FROM reviews; DELETE FROM rules; UPDATE audit_log SET registration_id = NULL;
         DELETE FROM registrations; DELETE FROM namespaces; DELETE FROM registry_meta;",
    )?;
    tx.execute(
        "INSERT INTO registry_meta (id, body) VALUES (1, ?1)",
        [serde_json::to_string(&snapshot.registry).map_err(|e| Error::Data(e.to_string()))?],
    )?;
    // Filed versions first, under the request ids they were filed with
    // (validated unique); the shipped texts, whose ids nobody refers to,
    // take the next free ones.
    for v in snapshot
        .records
        .iter()
        .flat_map(|r| &r.filed)
        .chain(&snapshot.requests)
    {
        insert_filed(tx, v)?;
    }
    for record in &snapshot.records {
        // `namespaces.iana` keeps IANA records only: NULL for namespaces
        // registered here.
        let derived_contacts = record.contacts.iter().eq(registrant_contact(record).iter());
        let from_iana = record.registration.is_some()
            || record.template.is_some()
            || !record.references.is_empty()
            || !(record.contacts.is_empty() || derived_contacts)
            || !record.referenced.is_empty();
        seed_record(tx, record, from_iana)?;
        let rules = record
            .rules
            .as_ref()
            .map(toml::to_string)
            .transpose()
            .map_err(|e| Error::Data(format!("rules of {}: {e}", record.nid)))?;
        tx.execute(
            "UPDATE namespaces SET status = ?1, rules = ?2 WHERE nid = ?3",
            params![
                record.status.as_deref().unwrap_or("registered"),
                rules,
                record.nid
            ],
        )?;
    }
    // Never hand out an informal number again (RFC 8141 section 5.2): not
    // one the snapshot holds, nor one it says was assigned before.
    tx.execute(
        "UPDATE informal_sequence SET last = max(last, ?1)",
        [snapshot.highest_informal()],
    )?;
    Ok(())
}

/// Inserts a filed version with its rules and reviews, under its request
/// id when the snapshot keeps one.
fn insert_filed(tx: &Transaction<'_>, v: &FiledVersion) -> Result<()> {
    let rules = v
        .rules
        .as_ref()
        .map(toml::to_string)
        .transpose()
        .map_err(|e| Error::Data(format!("rules: {e}")))?;
    let mut id = insert_row(
        tx,
        &RegistrationRow {
            nid: v.nid.as_deref(),
            kind: v.kind,
            version: v.version,
            status: v
                .status
                .parse()
                .map_err(|e: UnknownValue| Error::Data(e.to_string()))?,
            date: &v.date,
            fields: &v.fields,
            source: v.source.as_deref(),
            source_text: None,
            submitted_at: &v.submitted_at,
            decided_at: v.decided_at.as_deref(),
            rules: None,
        },
    )?;
    // The new row has the highest id and nothing refers to it yet, so it
    // can take its own id back.
    if let Some(wanted) = v.id.filter(|w| *w != id) {
        tx.execute(
            "UPDATE registrations SET id = ?1 WHERE id = ?2",
            params![wanted, id],
        )?;
        id = wanted;
    }
    if let Some(body) = rules {
        tx.execute(
            "INSERT INTO rules (registration_id, body) VALUES (?1, ?2)",
            params![id, body],
        )?;
    }
    for r in &v.reviews {
        tx.execute(
            "INSERT INTO reviews (registration_id, decision, note, actor, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, r.decision, r.note, r.actor, r.at],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::TemplateFields;

    fn informal(registrant: &str, status: &str) -> RecordFile {
        let version = FiledVersion {
            id: Some(7),
            kind: Kind::Informal,
            nid: Some("urn-9".into()),
            version: 1,
            status: status.into(),
            date: "2026-11-02".into(),
            source: None,
            submitted_at: "2026-11-02T10:00:00Z".into(),
            decided_at: Some("2026-11-03T09:00:00Z".into()),
            fields: TemplateFields {
                registrant: Some(registrant.into()),
                ..TemplateFields::default()
            },
            rules: None,
            reviews: Vec::new(),
        };
        RecordFile {
            filed: vec![version],
            ..RecordFile::bare("urn-9", Kind::Informal)
        }
    }

    fn person(x: &Xref) -> (&str, &str, Option<&str>, Option<&str>) {
        let p = x.person.as_ref().unwrap();
        (
            x.data.as_str(),
            p.name.as_str(),
            p.uri.as_deref(),
            p.updated.as_deref(),
        )
    }

    #[test]
    fn timestamps_are_utc_times_as_urnreg_writes_them() {
        assert!(is_valid_timestamp("2026-11-02T10:00:00Z"));
        assert!(is_valid_timestamp(&crate::registry::clock::now()));
        for bad in [
            "2026-11-02",
            "2026-11-02T10:00:00",
            "2026-11-02 10:00:00Z",
            "2026-02-30T10:00:00Z",
            "2026-11-02T24:00:00Z",
            "2026-11-02T10:60:00Z",
            "2026-11-02T1:00:00Z ",
            "2026-11-02T10:00:00+01:00",
            "2026-11-0\u{e9}10:00:00Z",
        ] {
            assert!(!is_valid_timestamp(bad), "{bad}");
        }
    }

    #[test]
    fn contacts_drop_what_a_registrant_typed_by_mistake() {
        let c =
            registrant_contact(&informal("Jane\u{1} Doe\u{1b}[1m <jane@example.org>", "approved")).unwrap();
        assert_eq!(person(&c).1, "Jane Doe[1m");
        let c = registrant_contact(&informal("Jane <ja\u{1}ne@example.org>", "approved")).unwrap();
        assert_eq!(
            person(&c).2,
            None,
            "an address with a control character is no address"
        );
    }

    #[test]
    fn informal_records_get_their_registrant_as_contact_appendix_a() {
        let c = registrant_contact(&informal("Jane Doe <jane@example.org>", "approved")).unwrap();
        assert_eq!(
            person(&c),
            (
                "Jane_Doe",
                "Jane Doe",
                Some("mailto:jane&example.org"),
                Some("2026-11-03")
            )
        );
        let c = registrant_contact(&informal(
            "Name: 9 Lives, Inc.\nE-mail: ops@nine.example.\nAddress: ...",
            "approved",
        ))
        .unwrap();
        assert_eq!(
            person(&c),
            (
                "_9_Lives__Inc.",
                "9 Lives, Inc.",
                Some("mailto:ops&nine.example"),
                Some("2026-11-03")
            )
        );
        let c = registrant_contact(&informal("ops@nine.example", "approved")).unwrap();
        assert_eq!(person(&c).1, "ops");
        // Nothing approved, or a formal namespace: no contact is made up.
        assert_eq!(registrant_contact(&informal("Jane Doe", "submitted")), None);
        let mut formal = informal("Jane Doe", "approved");
        formal.kind = Kind::Formal;
        assert_eq!(registrant_contact(&formal), None);
    }
}
