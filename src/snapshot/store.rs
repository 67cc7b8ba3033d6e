//! A [`Snapshot`] read out of the store and written back into it in one
//! transaction, and the [`ImportPlan`] that says what an import changes.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{OptionalExtension, Transaction, params};

use super::xml::is_xml_char;
use super::{ImportPlan, Snapshot};
use crate::registry::data::{FiledVersion, Person, RecordFile, RegistryFile, ReviewEntry, Xref};
use crate::registry::{
    Error, Kind, RegistrationRow, Result, Store, UnknownValue, appendix_a_columns, audit, insert_row,
    mark_if_current, read_query_registry, replace_query_registry, seed_record, stored_fields,
};
use crate::resolve::QueryRegistry;
use crate::rules::RulesFile;

impl Store {
    /// The whole registry as a snapshot, sorted, with no timestamps but the
    /// registry's own.
    ///
    /// # Errors
    ///
    /// The SQLite error, or [`Error::Data`] for a stored value that does
    /// not parse.
    pub fn snapshot(&self) -> Result<Snapshot> {
        // One read transaction: every table as of one moment, whatever
        // other processes commit meanwhile (read table by table, an export
        // beside approvals paired a version with a registry that did not
        // hold its NID yet, and the snapshot would not import).
        let tx = self.conn.unchecked_transaction()?;
        let snapshot = read_snapshot(&tx)?;
        tx.commit()?;
        Ok(snapshot)
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
        // A contact an earlier urnreg derived from a registrant is the one
        // this urnreg derives: not a change, and not an IANA fact.
        let upgraded;
        let snapshot = if snapshot.records.iter().any(has_earlier_contacts) {
            let mut copy = snapshot.clone();
            for record in copy.records.iter_mut().filter(|r| has_earlier_contacts(r)) {
                record.contacts = registrant_contact(record).into_iter().collect();
            }
            upgraded = copy;
            &upgraded
        } else {
            snapshot
        };
        // A dry run only reads: one read transaction, which works on a
        // database opened read-only and keeps no writer waiting.
        let tx = if dry_run {
            self.conn.unchecked_transaction()?
        } else {
            self.write()?
        };
        let current = read_snapshot(&tx)?;
        let mut plan = compare(&current, snapshot);
        plan.renumbered = taken_ids(&tx, snapshot)?;
        plan.conflicts |= !plan.renumbered.is_empty();
        if dry_run {
            return Ok(plan);
        }
        if plan.conflicts && !replace {
            let mut what = Vec::new();
            if !plan.changed.is_empty() || !plan.removed.is_empty() {
                what.push(format!(
                    "change {} and remove {} namespace(s)",
                    plan.changed.len(),
                    plan.removed.len()
                ));
            }
            if !plan.changed_requests.is_empty() {
                what.push(format!("change {} request(s)", plan.changed_requests.len()));
            }
            if !plan.dropped_requests.is_empty() {
                what.push(format!("drop {} request(s)", plan.dropped_requests.len()));
            }
            if !plan.renumbered.is_empty() {
                what.push(format!("renumber {} request(s)", plan.renumbered.len()));
            }
            if !plan.query.is_empty() {
                what.push("change the resolution sub-registries".into());
            }
            // Every conflict is one of the above; never a sentence with a
            // hole in it.
            if what.is_empty() {
                what.push("change what".into());
            }
            let mut named = String::new();
            for (how, requests) in [
                ("dropped", &plan.dropped_requests),
                ("added", &plan.added_requests),
            ] {
                if !requests.is_empty() {
                    named.push_str(&format!("; {how}: {}", first_few(requests)));
                }
            }
            return Err(Error::State(format!(
                "the snapshot would {} the database holds{named}; see --dry-run, and pass --replace \
                 to make the database equal to the snapshot",
                what.join(", ")
            )));
        }
        write_snapshot(&tx, snapshot)?;
        // The snapshot's records may be older (or newer) than this
        // binary's: whether the shipped namespaces are its is found again.
        mark_if_current(&tx, None)?;
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

/// The first few of `names`, joined, and how many more there are.
fn first_few(names: &[String]) -> String {
    const FEW: usize = 5;
    let mut out = names[..names.len().min(FEW)].join(", ");
    if names.len() > FEW {
        out.push_str(&format!(" and {} more", names.len() - FEW));
    }
    out
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
    let mut conflicts = false;
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
                let same_versions = record.filed.len() == before.filed.len()
                    && record
                        .filed
                        .iter()
                        .zip(&before.filed)
                        .all(|(i, h)| i.version == h.version);
                if same_versions {
                    // The same versions, some said otherwise: which, and what.
                    for (h, i) in before.filed.iter().zip(&record.filed) {
                        let changes = filed_changes(h, i);
                        if !changes.is_empty() {
                            what.push(format!("filed v{}: {}", h.version, changes.join(", ")));
                        }
                    }
                } else if !same_filed {
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
    // The requests held, by id: the snapshot holds each under the same id
    // (what it says otherwise, if anything: in its requests, or in a record
    // that registers it), or not at all (dropped). A schema 1 snapshot
    // gives no ids: a version it holds word for word is the same one.
    // Looked up by id, and the versions without one by what they were
    // filed as: a snapshot holds tens of thousands of versions, and each
    // held request is looked for once.
    let incoming_by_id: HashMap<i64, &FiledVersion> =
        incoming.filed().filter_map(|v| v.id.map(|id| (id, v))).collect();
    let unnumbered = by_filing(incoming.filed().filter(|v| v.id.is_none()));
    let held_by_filing = by_filing(current.filed());
    let matched_without_id =
        |version: &FiledVersion, candidates: &HashMap<FilingKey<'_>, Vec<&FiledVersion>>| {
            candidates
                .get(&filing_key(version))
                .is_some_and(|found| found.iter().any(|v| same_but_id(version, v)))
        };
    for held in &current.requests {
        let Some(id) = held.id else { continue };
        match incoming_by_id.get(&id) {
            Some(incoming) => {
                let changes = filed_changes(held, incoming);
                if !changes.is_empty() {
                    plan.changed_requests
                        .push(format!("{}: {}", request_label(held), changes.join(", ")));
                }
            }
            None if matched_without_id(held, &unnumbered) => {}
            None => plan.dropped_requests.push(request_label(held)),
        }
    }
    // The snapshot's requests under an id no version held has (or, without
    // an id, not held word for word): added, not a conflict.
    let held_ids: HashSet<i64> = current.filed().filter_map(|v| v.id).collect();
    for new in &incoming.requests {
        let added = match new.id {
            Some(id) => !held_ids.contains(&id),
            None => !matched_without_id(new, &held_by_filing),
        };
        if added {
            plan.added_requests.push(request_label(new));
        }
    }
    conflicts |= !plan.changed_requests.is_empty() || !plan.dropped_requests.is_empty();
    plan.removed = old
        .iter()
        .filter(|(k, _)| !new.contains_key(*k))
        .map(|(_, r)| r.nid.clone())
        .collect();
    if let (Some(held), Some(incoming)) = (&current.query, &incoming.query) {
        let (changes, changed_held) = query_changes(held, incoming);
        plan.query = changes;
        conflicts |= changed_held;
    }
    plan.conflicts = conflicts || !plan.removed.is_empty();
    plan
}

/// What an import changes in the resolution sub-registries, and whether it
/// changes or drops an entry held (a conflict, as for namespaces).
fn query_changes(held: &QueryRegistry, incoming: &QueryRegistry) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut conflict = false;
    for k in &incoming.keywords {
        match held.keyword(&k.keyword) {
            None => out.push(format!("keyword '{}' added", k.keyword)),
            Some(before) if before != k => {
                out.push(format!("keyword '{}' changed", k.keyword));
                conflict = true;
            }
            Some(_) => {}
        }
    }
    for k in &held.keywords {
        if incoming.keyword(&k.keyword).is_none() {
            out.push(format!("keyword '{}' removed", k.keyword));
            conflict = true;
        }
    }
    for s in &incoming.services {
        match held
            .services
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(&s.name))
        {
            None => out.push(format!("service '{}' added", s.name)),
            Some(before) if before != s => {
                out.push(format!("service '{}' changed", s.name));
                conflict = true;
            }
            Some(_) => {}
        }
    }
    for s in &held.services {
        if !incoming
            .services
            .iter()
            .any(|i| i.name.eq_ignore_ascii_case(&s.name))
        {
            out.push(format!("service '{}' removed", s.name));
            conflict = true;
        }
    }
    (out, conflict)
}

/// A request as the plan names it: "request 73 (acme-parts v1)", "a
/// request (informal v1)" without an id.
fn request_label(v: &FiledVersion) -> String {
    let what = format!("({} v{})", v.nid.as_deref().unwrap_or("informal"), v.version);
    match v.id {
        Some(id) => format!("request {id} {what}"),
        None => format!("a request {what}"),
    }
}

/// Whether two versions, one of them without an id (a schema 1
/// snapshot's), say the same but for it.
fn same_but_id(a: &FiledVersion, b: &FiledVersion) -> bool {
    let without_id = |v: &FiledVersion| FiledVersion {
        id: None,
        ..v.clone()
    };
    match (a.id, b.id) {
        (_, None) => without_id(a) == *b,
        (None, _) => without_id(b) == *a,
        _ => false,
    }
}

/// What a version was filed as, apart from its id: its NID, version and
/// filing time (the versions a snapshot without ids holds are matched to
/// the held ones within these groups).
type FilingKey<'a> = (Option<&'a str>, i64, &'a str);

fn filing_key(v: &FiledVersion) -> FilingKey<'_> {
    (v.nid.as_deref(), v.version, v.submitted_at.as_str())
}

/// The versions, grouped by [`filing_key`].
fn by_filing<'a>(
    versions: impl Iterator<Item = &'a FiledVersion>,
) -> HashMap<FilingKey<'a>, Vec<&'a FiledVersion>> {
    let mut groups: HashMap<FilingKey<'a>, Vec<&'a FiledVersion>> = HashMap::new();
    for v in versions {
        groups.entry(filing_key(v)).or_default().push(v);
    }
    groups
}

/// Whether `incoming` begins with the versions `held`. A version without a
/// request id (a schema 1 snapshot) matches the held one whatever its id.
fn starts_with(incoming: &[FiledVersion], held: &[FiledVersion]) -> bool {
    incoming.len() >= held.len()
        && held
            .iter()
            .zip(incoming)
            .all(|(h, i)| h == i || same_but_id(h, i))
}

/// What an incoming filed version says otherwise than the held one, one
/// entry per field: the name of a template field (`purpose`), `status
/// "submitted" -> "approved"` for the state, the name of the others. An id
/// the incoming one does not give is no change.
fn filed_changes(held: &FiledVersion, incoming: &FiledVersion) -> Vec<String> {
    // Destructured, so that a new field of FiledVersion must be placed here.
    let FiledVersion {
        id,
        kind,
        nid,
        version,
        status,
        date,
        source,
        submitted_at,
        decided_at,
        fields,
        rules,
        reviews,
    } = held;
    let mut changes = Vec::new();
    if incoming.id.is_some() && *id != incoming.id {
        changes.push("id".to_string());
    }
    if *kind != incoming.kind {
        changes.push(format!("kind {} -> {}", kind.as_str(), incoming.kind.as_str()));
    }
    if *nid != incoming.nid {
        changes.push("nid".to_string());
    }
    if *version != incoming.version {
        changes.push(format!("version {version} -> {}", incoming.version));
    }
    if *status != incoming.status {
        changes.push(format!("status {status:?} -> {:?}", incoming.status));
    }
    for (name, before, after) in [
        ("date", Some(date), Some(&incoming.date)),
        ("source", source.as_ref(), incoming.source.as_ref()),
        ("submitted_at", Some(submitted_at), Some(&incoming.submitted_at)),
        ("decided_at", decided_at.as_ref(), incoming.decided_at.as_ref()),
    ] {
        if before != after {
            changes.push(name.to_string());
        }
    }
    for (key, _, _) in crate::template::FIELDS {
        if fields.get(key) != incoming.fields.get(key) {
            changes.push((*key).to_string());
        }
    }
    if *rules != incoming.rules {
        changes.push("rules".to_string());
    }
    if *reviews != incoming.reviews {
        changes.push("reviews".to_string());
    }
    changes
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
        query: Some(read_query_registry(conn)?),
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
    derived_contact(record, false)
}

/// The contact an earlier urnreg derived: a line holding the address gave its local part as the name. Snapshots it
/// wrote carry that one; it is read as derived too.
fn earlier_registrant_contact(record: &RecordFile) -> Option<Xref> {
    derived_contact(record, true)
}

/// True if `record`'s contacts are the ones derived from its registrant,
/// by this urnreg or an earlier one (not facts of the IANA registry).
fn has_derived_contacts(record: &RecordFile) -> bool {
    record.contacts.iter().eq(registrant_contact(record).iter())
        || record
            .contacts
            .iter()
            .eq(earlier_registrant_contact(record).iter())
}

/// True if `record`'s contacts are an earlier urnreg's derivation that
/// this one derives otherwise.
fn has_earlier_contacts(record: &RecordFile) -> bool {
    !record.contacts.is_empty()
        && record
            .contacts
            .iter()
            .eq(earlier_registrant_contact(record).iter())
        && !record.contacts.iter().eq(registrant_contact(record).iter())
}

fn derived_contact(record: &RecordFile, earlier: bool) -> Option<Xref> {
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
    // "Jane Doe, Example Org, jane@example.org": the name is what comes
    // before the address on its line (an earlier urnreg took none).
    if let Some(at) = email.and_then(|e| name.find(e)) {
        name = if earlier { "" } else { &name[..at] };
    }
    // The name goes into the IANA XML: control characters (an ESC, a
    // U+0001 typed into the Registrant field) have no place in it.
    let name: String = name
        .chars()
        .filter(|c| printable(*c))
        .collect::<String>()
        .trim()
        .trim_end_matches(if earlier {
            &[',', ';'][..]
        } else {
            &[',', ';', ':', '(', '['][..]
        })
        .trim()
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
    !c.is_control() && is_xml_char(c)
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
    // What the database keeps about its registrations that a snapshot
    // does not carry (amended texts, registrants' tokens, sessions, the
    // audit log's links): saved, and given back to the same versions.
    let kept = Kept::save(tx)?;
    tx.execute_batch(
        "DELETE FROM reviews; DELETE FROM rules; UPDATE audit_log SET registration_id = NULL;
         DELETE FROM registrations; DELETE FROM namespaces; DELETE FROM registry_meta;",
    )?;
    if let Some(query) = &snapshot.query {
        replace_query_registry(tx, query)?;
    }
    tx.execute(
        "INSERT INTO registry_meta (id, body) VALUES (1, ?1)",
        [serde_json::to_string(&snapshot.registry).map_err(|e| Error::Data(e.to_string()))?],
    )?;
    // Filed versions first, under the request ids they were filed with
    // (validated unique); the shipped texts, whose ids nobody refers to,
    // take the next free ones.
    for v in snapshot.filed() {
        insert_filed(tx, v)?;
    }
    for record in &snapshot.records {
        // `namespaces.iana` keeps IANA records only: NULL for namespaces
        // registered here.
        let derived_contacts = has_derived_contacts(record);
        let from_iana = record.registration.is_some()
            || record.template.is_some()
            || !record.references.is_empty()
            || !(record.contacts.is_empty() || derived_contacts)
            || !record.referenced.is_empty();
        seed_record(tx, record, from_iana)?;
        if !from_iana {
            // Registered here: no IANA facts, as approval leaves it. The
            // contact an export derives from the registrant is derived
            // again on the next export, never stored as a fact.
            tx.execute(
                "UPDATE namespaces SET record = '{}' WHERE nid = ?1",
                [&record.nid],
            )?;
        }
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
    let fixed: HashSet<i64> = snapshot.filed().filter_map(|v| v.id).collect();
    kept.restore(tx, &fixed)
}

/// The database's requests whose id the snapshot gives to another
/// version (see [`ImportPlan::renumbered`]).
fn taken_ids(tx: &Transaction<'_>, snapshot: &Snapshot) -> Result<Vec<String>> {
    let mut taken = Vec::new();
    // Filed versions only: a shipped text's id is one nobody refers to.
    let mut stmt = tx.prepare(
        "SELECT coalesce(nid, 'a request'), kind, version, submitted_at, registrant, purpose
         FROM registrations WHERE id = ?1 AND source_text IS NULL",
    )?;
    let text = |t: &Option<String>| t.as_deref().unwrap_or("").to_string();
    for v in snapshot.filed() {
        let Some(id) = v.id else { continue };
        type Held = (String, String, i64, String, Option<String>, Option<String>);
        let held: Option<Held> = stmt
            .query_row([id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
            })
            .optional()?;
        let Some((nid, kind, version, submitted, registrant, purpose)) = held else {
            continue;
        };
        let incoming = v.nid.as_deref().unwrap_or("a request");
        // The same version (of that kind, filed then, by that registrant or
        // for that purpose), though approval gave it a NID since, or its
        // text changed: it keeps its id (see `Kept::restore`), and the plan
        // names what changed.
        let same = version == v.version
            && kind == v.kind.as_str()
            && submitted == v.submitted_at
            && (same_text(&text(&registrant), &text(&v.fields.registrant))
                || same_text(&text(&purpose), &text(&v.fields.purpose)));
        if !same {
            taken.push(format!(
                "request {id} ({nid} v{version}) is given to {incoming} v{}",
                v.version
            ));
        }
    }
    Ok(taken)
}

/// Whether two registrant or purpose texts are the same for keeping a
/// version's id: white space around them aside. One rule for the plan
/// (`taken_ids`) and for the import itself (`Kept::restore`), so that what
/// the plan calls the same version keeps its id, tokens and amendments.
fn same_text(a: &str, b: &str) -> bool {
    a.trim() == b.trim()
}

/// A registration as the same version before and after an import: its
/// NID (lower case; empty for a request not yet given one), kind,
/// version, when it was filed, by whom and for what.
type VersionKey = (String, String, i64, String, String, String);

fn version_keys(tx: &Transaction<'_>) -> Result<Vec<(i64, VersionKey)>> {
    let mut stmt = tx.prepare(
        "SELECT id, lower(coalesce(nid, '')), kind, version, submitted_at, registrant, purpose
         FROM registrations",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?),
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// The rows tied to registrations that an import would otherwise lose.
struct Kept {
    /// Each registration's id before, and what it is.
    rows: Vec<(i64, VersionKey)>,
    /// `amendments`: registration, body, source, filed, replaced.
    amendments: Vec<(i64, String, Option<String>, String, String)>,
    /// `request_tokens`: registration, selector, hash, created.
    tokens: Vec<(i64, String, Vec<u8>, String)>,
    /// `service_sessions` of registrants: id hash, request, csrf,
    /// created, expires.
    sessions: Vec<(Vec<u8>, i64, String, String, i64)>,
    /// `audit_log` entries and the registration each names.
    audit: Vec<(i64, i64)>,
}

impl Kept {
    fn save(tx: &Transaction<'_>) -> Result<Kept> {
        let rows = version_keys(tx)?;
        let amendments = tx
            .prepare(
                "SELECT registration_id, body, source, filed_at, replaced_at FROM amendments ORDER BY id",
            )?
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let tokens = tx
            .prepare("SELECT registration_id, selector, token_hash, created_at FROM request_tokens")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let sessions = tx
            .prepare(
                "SELECT id_hash, request_id, csrf, created_at, expires_at FROM service_sessions
                 WHERE request_id IS NOT NULL",
            )?
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let audit = tx
            .prepare("SELECT id, registration_id FROM audit_log WHERE registration_id IS NOT NULL")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Kept {
            rows,
            amendments,
            tokens,
            sessions,
            audit,
        })
    }

    /// Gives each version that is still there its id of before (unless
    /// the snapshot names that id for one of its own, `fixed`), then its
    /// kept rows. A version the import removed loses them with it.
    fn restore(self, tx: &Transaction<'_>, fixed: &HashSet<i64>) -> Result<()> {
        // Ids move while rows point at them: checked at commit.
        tx.pragma_update(None, "defer_foreign_keys", true)?;
        let now = version_keys(tx)?;
        // Which version of now each version of before is: the same id,
        // kind, version and filing time, and registrant or purpose (a
        // version the snapshot names by its id, though its NID, or one of
        // those two, changed); else the one version with its
        // key on both sides (a shipped text, which the snapshot names by
        // no id). A key two versions share is no evidence: no guess.
        let mut new_id: HashMap<i64, i64> = HashMap::new();
        let now_by_id: HashMap<i64, &VersionKey> = now.iter().map(|(id, key)| (*id, key)).collect();
        for (old, key) in &self.rows {
            if now_by_id.get(old).is_some_and(|k| {
                (&k.1, k.2, &k.3) == (&key.1, key.2, &key.3)
                    && (same_text(&k.4, &key.4) || same_text(&k.5, &key.5))
            }) {
                new_id.insert(*old, *old);
            }
        }
        let matched: HashSet<i64> = new_id.values().copied().collect();
        let mut before: HashMap<&VersionKey, Vec<i64>> = HashMap::new();
        for (old, key) in self.rows.iter().filter(|(old, _)| !new_id.contains_key(old)) {
            before.entry(key).or_default().push(*old);
        }
        let mut after: HashMap<&VersionKey, Vec<i64>> = HashMap::new();
        for (id, key) in now.iter().filter(|(id, _)| !matched.contains(id)) {
            after.entry(key).or_default().push(*id);
        }
        let mut moves = Vec::new();
        for (key, olds) in &before {
            if let ([old], Some([id])) = (olds.as_slice(), after.get(key).map(Vec::as_slice)) {
                new_id.insert(*old, *id);
                if old != id && !fixed.contains(id) && !fixed.contains(old) {
                    moves.push((*id, *old));
                }
            }
        }
        // Give a matched shipped text its id of before: out of the way
        // first (ids below zero), then home, or past the highest id when
        // home is taken.
        for &(id, _) in &moves {
            renumber(tx, id, -id)?;
        }
        for &(id, old) in &moves {
            let taken: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM registrations WHERE id = ?1)",
                [old],
                |r| r.get(0),
            )?;
            let to = if taken {
                tx.query_row("SELECT max(id) + 1 FROM registrations", [], |r| r.get(0))?
            } else {
                old
            };
            renumber(tx, -id, to)?;
            new_id.insert(old, to);
        }
        for (old, body, source, filed, replaced) in self.amendments {
            if let Some(id) = new_id.get(&old) {
                tx.execute(
                    "INSERT INTO amendments (registration_id, body, source, filed_at, replaced_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, body, source, filed, replaced],
                )?;
            }
        }
        for (old, selector, hash, created) in self.tokens {
            if let Some(id) = new_id.get(&old) {
                tx.execute(
                    "INSERT INTO request_tokens (registration_id, selector, token_hash, created_at)
                     VALUES (?1, ?2, ?3, ?4)",
                    params![id, selector, hash, created],
                )?;
            }
        }
        for (hash, old, csrf, created, expires) in self.sessions {
            if let Some(id) = new_id.get(&old) {
                tx.execute(
                    "INSERT OR IGNORE INTO service_sessions (id_hash, request_id, csrf, created_at, expires_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![hash, id, csrf, created, expires],
                )?;
            }
        }
        for (entry, old) in self.audit {
            if let Some(id) = new_id.get(&old) {
                tx.execute(
                    "UPDATE audit_log SET registration_id = ?1 WHERE id = ?2",
                    params![id, entry],
                )?;
            }
        }
        Ok(())
    }
}

/// Moves registration `from` to id `to`, with the rows that point at it.
fn renumber(tx: &Transaction<'_>, from: i64, to: i64) -> Result<()> {
    tx.execute(
        "UPDATE registrations SET id = ?1 WHERE id = ?2",
        params![to, from],
    )?;
    tx.execute(
        "UPDATE rules SET registration_id = ?1 WHERE registration_id = ?2",
        params![to, from],
    )?;
    tx.execute(
        "UPDATE reviews SET registration_id = ?1 WHERE registration_id = ?2",
        params![to, from],
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

    /// A snapshot an earlier urnreg wrote carries its derivation of the
    /// contact ("jane"): read as derived, and replaced by today's on
    /// import, not taken for an IANA fact or a change.
    #[test]
    fn an_earlier_derived_contact_is_still_derived() {
        let mut record = informal("Jane Doe, Example Org, jane@example.org", "approved");
        record.contacts = earlier_registrant_contact(&record).into_iter().collect();
        assert_eq!(person(&record.contacts[0]).1, "jane");
        assert!(has_earlier_contacts(&record) && has_derived_contacts(&record));
        record.contacts = registrant_contact(&record).into_iter().collect();
        assert!(!has_earlier_contacts(&record) && has_derived_contacts(&record));
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
        // The name before the address on one line, not the address's
        // local part.
        let c = registrant_contact(&informal("Jane Doe, Example Org, jane@example.org", "approved")).unwrap();
        assert_eq!(person(&c).1, "Jane Doe, Example Org");
        let c = registrant_contact(&informal("Team B (jane@b.example)", "approved")).unwrap();
        assert_eq!(
            (person(&c).1, person(&c).2),
            ("Team B", Some("mailto:jane&b.example"))
        );
        // Nothing approved, or a formal namespace: no contact is made up.
        assert_eq!(registrant_contact(&informal("Jane Doe", "submitted")), None);
        let mut formal = informal("Jane Doe", "approved");
        formal.kind = Kind::Formal;
        assert_eq!(registrant_contact(&formal), None);
    }
}
