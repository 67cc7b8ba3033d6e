//! [`Snapshot::validate`]: everything in a snapshot checked before
//! anything is written, as if each part had been filed by hand.

use std::collections::BTreeSet;

use super::xml::is_xml_char;
use super::{MAX_REQUEST_ID, MAX_VERSION, Snapshot};
use crate::clock::is_valid_date;
use crate::lint::{LintContext, Severity, formal_nid_problems, lint_as};
use crate::registry::data::{FiledVersion, RecordFile, RegistrationText, RegistryFile, Xref};
use crate::registry::{
    Error, Filing, Kind, MAX_INFORMAL_NUMBER, Problem, RegistrationFile, Result, informal_number,
};
use crate::resolve::QueryRegistry;

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
        if let Some(c) = text.chars().find(|c| !is_xml_char(*c)) {
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
    /// was filed (NID, version, date, required fields; the resolution
    /// keywords and services it names against the snapshot's own
    /// sub-registries), its review state
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
            if let Err(kind) = crate::urn::check_nid(nid) {
                let (what, section) = kind.nid_rule();
                p.add(nid, format!("not a valid NID: {what} ({section})"));
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
            check_record(record, &self.lint_context(Some(record)), &mut p);
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
        check_requests(&self.requests, &seen, &self.lint_context(None), &mut p);
        if let Some(query) = &self.query {
            for problem in query.problems() {
                p.add("query", format!("{problem} (URN draft 2012 §9.2)"));
            }
        }
        check_request_ids(self, &mut p);
        if p.0.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(p.0))
        }
    }
}

impl Snapshot {
    /// What the filed versions of `owner` (the requests when `None`) are
    /// linted against: the snapshot's own resolution sub-registries (the
    /// 2012 URN draft, section 9.2), not the database's, as the import
    /// writes them in the same transaction, with the keywords the other
    /// registered namespaces declare. `owner`'s own declarations (in force
    /// or approved before) count as its own, under the NID lint reads (none
    /// for an informal version, whose NID the registry gave).
    fn lint_context(&self, owner: Option<&RecordFile>) -> LintContext {
        let filed = owner.map_or(&self.requests, |r| &r.filed);
        if filed.is_empty() {
            return LintContext::default();
        }
        let base = self.query.as_ref().unwrap_or_else(|| QueryRegistry::shipped());
        let others = self
            .records
            .iter()
            .filter(|r| r.status.as_deref() != Some("withdrawn"))
            .filter(|r| !owner.is_some_and(|o| std::ptr::eq(*r, o)))
            .filter_map(|r| Some((r.nid.as_str(), r.rules.as_ref()?.resolution.as_ref()?)));
        let mut query = base.with_declared(others);
        if let Some(record) = owner {
            let name = if record.kind == Kind::Formal {
                record.nid.as_str()
            } else {
                ""
            };
            let approved = record
                .filed
                .iter()
                .filter(|v| v.status == "approved")
                .filter_map(|v| v.rules.as_ref());
            let own = record
                .rules
                .iter()
                .chain(approved)
                .filter_map(|r| Some((name, r.resolution.as_ref()?)));
            query = query.with_declared(own);
        }
        LintContext {
            query: Some(query),
            ..LintContext::default()
        }
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
fn check_record(record: &RecordFile, ctx: &LintContext, p: &mut Problems) {
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
    let shipped = record.registration.as_ref().map(RegistrationText::version);
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
        check_filed(v, Some(record), ctx, p);
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
fn check_requests(
    requests: &[FiledVersion],
    registered: &BTreeSet<String>,
    ctx: &LintContext,
    p: &mut Problems,
) {
    let mut waiting = BTreeSet::new();
    for v in requests {
        check_filed(v, None, ctx, p);
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
    let all: Vec<&FiledVersion> = snapshot.filed().collect();
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
fn check_filed(v: &FiledVersion, owner: Option<&RecordFile>, ctx: &LintContext, p: &mut Problems) {
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
    // Filed by hand, a registration is at most MAX_REGISTRATION_BYTES; one
    // that comes in a snapshot is held to the same, or it could never be
    // linted, amended or filed again from its own text.
    let text: usize = crate::template::FIELDS
        .iter()
        .filter_map(|(key, _, _)| v.fields.get(key).and_then(Option::as_ref))
        .map(String::len)
        .sum::<usize>()
        + v.rules
            .as_ref()
            .and_then(|r| toml::to_string(r).ok())
            .map_or(0, |t| t.len());
    if text > crate::registry::MAX_REGISTRATION_BYTES {
        p.add(
            &at,
            format!(
                "its text is {text} bytes, more than a registration may hold ({} bytes, MAX_REGISTRATION_BYTES)",
                crate::registry::MAX_REGISTRATION_BYTES
            ),
        );
        return;
    }
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
    for finding in lint_as(&file, ctx, &mode) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_times_as_urnreg_writes_them() {
        assert!(is_valid_timestamp("2026-11-02T10:00:00Z"));
        assert!(is_valid_timestamp(&crate::clock::now()));
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
}
