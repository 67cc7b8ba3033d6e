//! The lifecycle scenarios of `tests/data/registrations/lifecycle.toml`,
//! run through lint and the store as the command line runs them, and the
//! commands around the lifecycle (`amend`, `withdraw`, `queue`, `ns show`,
//! `ns history`, `ns diff`, `ns list --status`).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use urnreg::lint::vet_amendment;
use urnreg::registry::{Decision, Error, Outcome, RegistrationFile, RequestStatus, Store};

use super::{data, dump, fresh, registration, request, revise, urnreg_db};
use crate::util::{code, stderr, stdout};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenarios {
    scenario: Vec<Scenario>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    step: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    #[serde(rename = "do")]
    action: String,
    file: Option<String>,
    #[serde(default)]
    set: toml::Table,
    #[serde(default)]
    unset: Vec<String>,
    target: Option<String>,
    decision: Option<String>,
    note: Option<String>,
    sql: Option<String>,
    expect: Option<String>,
    nid: Option<String>,
    in_force: Option<i64>,
    refused: Option<String>,
    says: Option<String>,
}

/// `#N` in `text` replaced by the id of step N.
fn substitute(text: &str, ids: &BTreeMap<usize, i64>) -> String {
    let mut out = text.to_string();
    // Longest step numbers first, so that #12 is not read as #1 then 2.
    for (n, id) in ids.iter().rev() {
        out = out.replace(&format!("#{n}"), &id.to_string());
    }
    out
}

fn file_of(step: &Step) -> RegistrationFile {
    let name = step.file.as_deref().expect("the step names a file");
    let mut table: toml::Table = toml::from_str(&std::fs::read_to_string(data(name)).unwrap()).unwrap();
    for key in &step.unset {
        table.remove(key);
    }
    for (k, v) in &step.set {
        table.insert(k.clone(), v.clone());
    }
    RegistrationFile::from_toml(&toml::to_string(&table).unwrap()).expect("the step's file parses")
}

/// Runs one step; `Ok(None)` for a `sql` step.
fn run(store: &mut Store, step: &Step, target: &str) -> urnreg::registry::Result<Option<Outcome>> {
    let note = step.note.as_deref().unwrap_or("A note.");
    Ok(Some(match step.action.as_str() {
        "request" => request(store, &file_of(step), "registrant")?,
        "revise" => revise(store, target, &file_of(step), "registrant")?,
        "amend" => {
            let file = file_of(step);
            let vetted = vet_amendment(store, target, &file)?;
            store.amend(target, &vetted, Some("amended.toml"), "registrant")?
        }
        "withdraw" => store.withdraw(target, step.note.as_deref(), "registrant")?,
        "review" => {
            let decision: Decision = step
                .decision
                .as_deref()
                .expect("a review step has a decision")
                .parse()
                .unwrap();
            store.review(target, decision, note, "expert")?
        }
        "sql" => {
            store.connection().execute_batch(target).unwrap();
            return Ok(None);
        }
        other => panic!("unknown step '{other}'"),
    }))
}

#[test]
fn every_transition_and_refusal_of_the_lifecycle() {
    let scenarios: Scenarios = toml::from_str(&std::fs::read_to_string(data("lifecycle.toml")).unwrap())
        .expect("lifecycle.toml parses");
    let mut refusals = 0;
    let mut transitions = BTreeMap::new();
    for scenario in &scenarios.scenario {
        let (_dir, mut store) = fresh();
        let mut ids = BTreeMap::new();
        for (i, step) in scenario.step.iter().enumerate() {
            let n = i + 1;
            let at = format!("{}, step {n} ({})", scenario.name, step.action);
            let target = substitute(
                step.target.as_deref().or(step.sql.as_deref()).unwrap_or_default(),
                &ids,
            );
            let before = dump(&store);
            match (run(&mut store, step, &target), &step.refused) {
                (Ok(outcome), None) => {
                    let Some(outcome) = outcome else {
                        ids.insert(n, store.connection().last_insert_rowid());
                        continue;
                    };
                    ids.insert(n, outcome.id);
                    if let Some(expect) = &step.expect {
                        assert_eq!(outcome.status.as_str(), expect, "{at}");
                        *transitions
                            .entry((step.action.clone(), expect.clone()))
                            .or_insert(0) += 1;
                    }
                    if let Some(nid) = &step.nid {
                        assert_eq!(outcome.nid.as_deref(), Some(nid.as_str()), "{at}");
                    }
                    if let Some(v) = step.in_force {
                        let nid = outcome.nid.as_deref().unwrap();
                        assert_eq!(store.show(nid, None).unwrap().current_version, Some(v), "{at}");
                    }
                }
                (Ok(outcome), Some(kind)) => panic!("{at}: expected a refusal ({kind}), got {outcome:?}"),
                (Err(e), None) => panic!("{at}: refused: {e}"),
                (Err(e), Some(kind)) => {
                    let got = match &e {
                        Error::Invalid(_) => "invalid",
                        Error::State(_) => "state",
                        Error::NotFound(_) => "not-found",
                        other => panic!("{at}: unexpected error {other}"),
                    };
                    assert_eq!(got, kind, "{at}: {e}");
                    let says = substitute(step.says.as_deref().expect("a refusal says why"), &ids);
                    assert!(e.to_string().contains(&says), "{at}: '{e}' does not say '{says}'");
                    assert_eq!(dump(&store), before, "{at}: a refusal changed the database");
                    refusals += 1;
                }
            }
        }
    }
    // Every transition of RFC 8141 section 6 as urnreg implements it.
    for (action, status) in [
        ("request", "submitted"),
        ("revise", "submitted"),
        ("amend", "submitted"),
        ("withdraw", "withdrawn"),
        ("review", "approved"),
        ("review", "rejected"),
        ("review", "changes-requested"),
    ] {
        assert!(
            transitions.contains_key(&(action.to_string(), status.to_string())),
            "no scenario {action}s to {status}"
        );
    }
    assert!(refusals >= 25, "{refusals} refusals");
}

#[test]
fn an_amendment_keeps_every_text_and_the_request_id() {
    let (_dir, mut store) = fresh();
    let first = request(&mut store, &registration("formal.toml"), "alice").unwrap();
    store
        .review(
            "acme-parts",
            Decision::AskChanges,
            "More on assignment.",
            "expert",
        )
        .unwrap();
    for (i, text) in ["Assigned once.", "Assigned once, never reused."]
        .iter()
        .enumerate()
    {
        let mut file = registration("formal.toml");
        file.assignment = Some((*text).into());
        let vetted = vet_amendment(&store, "acme-parts", &file).unwrap();
        let amended = store
            .amend("acme-parts", &vetted, Some(&format!("v1-{i}.toml")), "alice")
            .unwrap();
        assert_eq!(amended.id, first.id);
        assert_eq!(amended.status, RequestStatus::Submitted);
    }
    let history = store.history("acme-parts").unwrap();
    assert_eq!(history.versions.len(), 1, "one request, amended twice");
    assert_eq!(
        history.versions[0].fields.assignment.as_deref(),
        Some("Assigned once, never reused.")
    );
    let texts: Vec<_> = history
        .amended
        .iter()
        .map(|t| (t.text, t.source.clone()))
        .collect();
    assert_eq!(texts, [(1, None), (2, Some("v1-0.toml".to_string()))]);
    let old = RegistrationFile::from_toml(&history.amended[0].body)
        .expect("a replaced text is a registration file");
    assert_eq!(old, registration("formal.toml"));
    let second = RegistrationFile::from_toml(&history.amended[1].body).unwrap();
    assert_eq!(second.assignment.as_deref(), Some("Assigned once."));
    assert_eq!(history.amended[1].filed_at, history.amended[0].replaced_at);
    let actions: Vec<_> = history.events.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, ["request", "review:ask-changes", "amend", "amend"]);
    assert!(history.events[2].detail.contains("text 1 replaced by text 2"));
}

#[test]
fn the_queue_lists_what_waits_with_the_last_note() {
    let (_dir, mut store) = fresh();
    assert!(store.queue().unwrap().is_empty());
    let formal = request(&mut store, &registration("formal.toml"), "a").unwrap();
    let informal = request(&mut store, &super::informal(1), "b").unwrap();
    let gone = request(&mut store, &super::informal(2), "b").unwrap();
    store.withdraw(&gone.id.to_string(), None, "b").unwrap();
    store
        .review("acme-parts", Decision::AskChanges, "First note.", "e")
        .unwrap();
    store
        .review("acme-parts", Decision::AskChanges, "Second note.", "e")
        .unwrap();
    let queue = store.queue().unwrap();
    let rows: Vec<_> = queue
        .iter()
        .map(|q| (q.id, q.nid.clone(), q.version, q.status, q.last_note.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                formal.id,
                Some("acme-parts".to_string()),
                1,
                RequestStatus::ChangesRequested,
                Some("Second note.".to_string())
            ),
            (informal.id, None, 1, RequestStatus::Submitted, None),
        ]
    );
}

#[test]
fn cli_amend_withdraw_queue_show_history_and_diff() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let formal = data("formal.toml");
    let run = |args: &[&str]| urnreg_db(&db, args);
    assert_eq!(code(&run(&["request", formal.to_str().unwrap()])), 0);
    let out = run(&["review", "acme-parts", "--ask-changes", "--note", "Say more."]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // Only requested: ns show and ns history say so.
    let out = run(&["ns", "show", "acme-parts"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("status:     requested"), "{text}");
    assert!(text.contains("changes-requested"), "{text}");
    let out = run(&["ns", "show", "acme-parts", "--format", "json"]);
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["status"], "requested");
    assert_eq!(shown["pending"]["status"], "changes-requested");
    assert_eq!(shown["registration"]["version"], 1);
    let out = run(&["ns", "history", "acme-parts"]);
    assert!(
        stdout(&out).starts_with("acme-parts (requested)"),
        "{}",
        stdout(&out)
    );

    // The queue.
    let out = run(&["queue", "--format", "json"]);
    let queue: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(queue[0]["nid"], "acme-parts");
    assert_eq!(queue[0]["status"], "changes-requested");
    assert_eq!(queue[0]["last_note"], "Say more.");
    let out = run(&["queue"]);
    assert!(stdout(&out).contains("Say more."), "{}", stdout(&out));

    // Revising is refused with the way out; amending works.
    let out = run(&["revise", "acme-parts", data("revision.toml").to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("amend it (`urnreg amend"),
        "{}",
        stderr(&out)
    );
    let amended = dir.path().join("amended.toml");
    std::fs::write(
        &amended,
        std::fs::read_to_string(&formal).unwrap().replace(
            "never reassigns it.",
            "never reassigns it, even for withdrawn parts.",
        ),
    )
    .unwrap();
    let out = run(&[
        "amend",
        "acme-parts",
        amended.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcome["status"], "submitted");
    let out = run(&["amend", "acme-parts", amended.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("nothing to amend"), "{}", stderr(&out));

    // ns diff: one version, pending or in force, has nothing to compare.
    let out = run(&["ns", "diff", "acme-parts"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(
            "'acme-parts' has only one version (version 1, submitted): there is nothing to compare it with"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        code(&run(&["review", "acme-parts", "--approve", "--note", "ok"])),
        0
    );
    let out = run(&["ns", "diff", "acme-parts"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("has only one version (version 1, approved)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        code(&run(&[
            "revise",
            "acme-parts",
            data("revision.toml").to_str().unwrap()
        ])),
        0
    );
    let out = run(&["ns", "diff", "acme-parts"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("acme-parts: version 1 ("), "{text}");
    assert!(text.contains("\nSyntax:\n"), "{text}");
    assert!(
        text.contains("- NSS = part-number, where part-number = 1*8DIGIT."),
        "{text}"
    );
    assert!(
        text.contains("+ NSS = part-number, where part-number = 1*10DIGIT."),
        "{text}"
    );
    assert!(
        text.contains("\nRevision Information:\n- (absent)\n+ Part numbers"),
        "{text}"
    );
    let out = run(&["ns", "diff", "acme-parts", "1", "2", "--format", "json"]);
    let diff: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fields: Vec<_> = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "date",
            "registrant",
            "syntax",
            "assignment",
            "revision_information"
        ]
    );
    let out = run(&["ns", "diff", "acme-parts", "1", "7"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("'acme-parts' has no version 7"),
        "{}",
        stderr(&out)
    );

    // ns list --status: known values only, pending among them.
    let out = run(&["ns", "list", "--status", "pending", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let pending: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pending.as_array().unwrap().len(), 1);
    assert_eq!(pending[0]["nid"], "acme-parts");
    assert_eq!(pending[0]["pending"]["version"], 2);
    let out = run(&["ns", "list", "--status", "bogus"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("registered") && stderr(&out).contains("pending"),
        "{}",
        stderr(&out)
    );
    let out = run(&["ns", "list", "--status", "withdrawn"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out).lines().count(),
        1,
        "the header only: {}",
        stdout(&out)
    );

    // Withdraw the revision: the queue is empty again.
    let out = run(&["withdraw", "acme-parts", "--note", "Not yet.", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (outcome["status"].as_str(), outcome["version"].as_i64()),
        (Some("withdrawn"), Some(2))
    );
    assert_eq!(stdout(&run(&["queue"])).trim(), "no request waits for review");
    let out = run(&["withdraw", "acme-parts"]);
    assert_eq!(code(&out), 2);
    let out = run(&["ns", "history", "acme-parts", "--format", "json"]);
    let history: Value = serde_json::from_slice(&out.stdout).unwrap();
    let last = history["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["action"].as_str(), last["detail"].as_str()),
        (Some("withdraw"), Some("Not yet."))
    );
    assert_eq!(history["amended"].as_array().unwrap().len(), 1);
}
