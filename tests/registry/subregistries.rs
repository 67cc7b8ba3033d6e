//! The resolution query parameters' sub-registries (the 2012 URN draft,
//! section 9.2) through the lifecycle: a registration's declared keywords
//! come into force with its approval, a namespace-specific keyword is its
//! own, experts add global keywords and services with an audit entry, and
//! snapshots carry them.

use serde_json::Value;
use urnreg::Registry;
use urnreg::lint::{LintContext, lint};
use urnreg::registry::{Decision, Store};
use urnreg::resolve::{Keyword, Scope, Service};
use urnreg::snapshot::ExportFormat;

use super::{fresh, registration, request, revise, urnreg_db};
use crate::util::{code, stderr, stdout};

/// `[rules]` for acme-parts with a resolution that supports `keywords`
/// and defines `new_keywords`.
fn rules(keywords: &str, new_keywords: &str) -> toml::Table {
    toml::from_str(&format!(
        "source = \"acme-parts, Syntax\"\nsyntax = {{ abnf = \"nss = 1*8DIGIT\" }}\n\
         [resolution]\nsource = \"https://acme.example/resolver\"\ndefault = \"I2L\"\nservices = [\"I2L\"]\n\
         keywords = {keywords}\nnew_keywords = {new_keywords}\n\
         [[resolution.rules]]\nservice = \"I2L\"\nurls = [\"https://acme.example/parts/{{nss}}\"]\n"
    ))
    .unwrap()
}

/// A global keyword as an expert adds it.
fn lang() -> Keyword {
    Keyword {
        keyword: "lang".into(),
        purpose: "the language of the resource".into(),
        scope: Scope::Global,
        reference: "test".into(),
        supported_by: Vec::new(),
    }
}

fn supported_by(registry: &Registry, keyword: &str) -> Vec<String> {
    registry
        .query()
        .keyword(keyword)
        .map(|k| k.supported_by.iter().map(|s| s.nid.clone()).collect())
        .unwrap_or_default()
}

/// Section 9.2.1: a registration that supports a keyword joins its
/// "Supported by" list when approved (not before), one that defines its
/// own holds it as "specific", and a revision that drops them takes them
/// off.
#[test]
fn approval_puts_a_registrations_keywords_in_force() {
    let (_dir, mut store) = fresh();
    let mut v1 = registration("formal.toml");
    v1.rules = Some(rules(
        "[\"c\"]",
        "[{ keyword = \"variant\", purpose = \"the variant of a part\" }]",
    ));
    request(&mut store, &v1, "a").unwrap();
    let pending = Registry::from_store(&store).unwrap();
    assert!(supported_by(&pending, "c").is_empty(), "pending: not yet");
    assert!(pending.query().keyword("variant").is_none());

    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    let approved = Registry::from_store(&store).unwrap();
    assert_eq!(supported_by(&approved, "c"), ["acme-parts"]);
    let variant = approved.query().keyword("variant").unwrap();
    assert_eq!(variant.scope, Scope::Specific);
    assert_eq!(supported_by(&approved, "variant"), ["acme-parts"]);
    // The keyword is acme-parts': on another namespace, a directive with it
    // is not supported; on acme-parts it is.
    let warned = |urn: &str| -> Vec<&'static str> {
        approved
            .check(urn)
            .warnings()
            .map(|w| w.code())
            .filter(|c| c.starts_with("keyword") || c.ends_with("keyword"))
            .collect()
    };
    assert_eq!(warned("urn:acme-parts:12345678?+variant=b"), Vec::<&str>::new());
    assert_eq!(
        warned("urn:isbn:0451450523?+variant=b"),
        ["keyword-not-supported"]
    );
    // `c` now names its supporters: another namespace using it is warned.
    assert_eq!(warned("urn:isbn:0451450523?+c=toc"), ["keyword-not-supported"]);

    // Another registration cannot support or take acme-parts' keyword.
    let mut other = registration("formal.toml");
    other.nid = Some("acme-tools".into());
    other.rules = Some(rules("[\"variant\"]", "[]"));
    let ctx = LintContext::of(&store).unwrap();
    let found: Vec<String> = lint(&other, &ctx)
        .into_iter()
        .filter(|f| f.rule == "rules-resolution-keyword")
        .map(|f| f.message)
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("reserved by the 'acme-parts' namespace"),
        "{found:?}"
    );
    other.rules = Some(rules("[]", "[{ keyword = \"variant\", purpose = \"mine\" }]"));
    assert!(
        request(&mut store, &other, "a").is_err(),
        "lint refuses the request"
    );

    // A revision without them takes them off.
    let mut v2 = registration("revision.toml");
    v2.rules = Some(rules("[]", "[]"));
    revise(&mut store, "acme-parts", &v2, "a").unwrap();
    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    let revised = Registry::from_store(&store).unwrap();
    assert!(supported_by(&revised, "c").is_empty());
    assert!(revised.query().keyword("variant").is_none());
}

/// Section 9.2: experts add global keywords and service designators, each
/// with an audit entry; names are checked, and a service an expert added
/// can be offered by a registration (lint checks it against the registry).
#[test]
fn experts_add_keywords_and_services_that_registrations_then_use() {
    let (_dir, mut store) = fresh();
    let lang = lang();
    store.add_keyword(&lang, "ada").unwrap();
    assert!(store.add_keyword(&lang, "ada").is_err(), "taken");
    for bad in ["9lang", "la--ng", "lang-", ""] {
        let k = Keyword {
            keyword: bad.into(),
            ..lang.clone()
        };
        assert!(store.add_keyword(&k, "ada").is_err(), "{bad:?}");
    }
    let specific = Keyword {
        keyword: "mine".into(),
        scope: Scope::Specific,
        ..lang.clone()
    };
    assert!(
        store.add_keyword(&specific, "ada").is_err(),
        "specific keywords come with registrations"
    );
    let service = Service {
        name: "I2U".into(),
        purpose: "URI to URN".into(),
        status: "exp".into(),
        reference: "test".into(),
        aliases: vec!["N2U".into()],
    };
    store.add_service(&service, "ada").unwrap();
    for (name, status) in [("n2l", "exp"), ("I 2", "exp"), ("I2Z", "final")] {
        let s = Service {
            name: name.into(),
            status: status.into(),
            aliases: Vec::new(),
            ..service.clone()
        };
        assert!(store.add_service(&s, "ada").is_err(), "{name} {status}");
    }
    let actions: Vec<String> = store
        .connection()
        .prepare("SELECT action || ' ' || actor FROM audit_log WHERE action LIKE '%-add' ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(actions, ["keyword-add ada", "service-add ada"]);

    // A registration offering I2U (added above) and supporting lang; its
    // alias N2U asks for it in a directive.
    let mut file = registration("formal.toml");
    let mut table = rules("[\"lang\"]", "[]");
    let resolution = table["resolution"].as_table_mut().unwrap();
    resolution.insert("services".into(), toml::Value::try_from(["I2L", "I2U"]).unwrap());
    resolution["rules"].as_array_mut().unwrap().push(
        toml::from_str::<toml::Table>("service = \"I2U\"\nurls = [\"https://acme.example/urn/{nss}\"]")
            .unwrap()
            .into(),
    );
    file.rules = Some(table);
    request(&mut store, &file, "a").unwrap();
    store.review("acme-parts", Decision::Approve, "ok", "e").unwrap();
    let registry = Registry::from_store(&store).unwrap();
    assert_eq!(supported_by(&registry, "lang"), ["acme-parts"]);
    let to = registry.resolve("urn:acme-parts:12345678?+s=N2U", None).unwrap();
    assert_eq!((to.service.as_str(), to.chosen_by), ("I2U", "directive"));
    assert_eq!(to.urls, ["https://acme.example/urn/12345678"]);
    // On a database without I2U, the same registration is refused.
    let (_dir2, mut plain) = fresh();
    let err = request(&mut plain, &file, "a").unwrap_err().to_string();
    assert!(
        err.contains("'I2U' is not a registered resolution service designator"),
        "{err}"
    );
}

/// The sub-registries travel in every snapshot format that holds them
/// (toml: `_query.toml`; json: `query`; xml: `urn-resolution-parameters.xml`
/// in the style of IANA's registries) and round-trip; an import that
/// drops or changes an entry needs --replace.
#[test]
fn snapshots_carry_the_sub_registries() {
    let (dir, mut store) = fresh();
    let lang = lang();
    store.add_keyword(&lang, "ada").unwrap();
    let snapshot = store.snapshot().unwrap();
    for format in [ExportFormat::Toml, ExportFormat::Json, ExportFormat::Xml] {
        let out = dir.path().join(format!("{format:?}"));
        urnreg::snapshot::export(&snapshot, format, &out, false, None).unwrap();
        let mut copy = Store::open(&dir.path().join(format!("{format:?}.db")), "t").unwrap();
        let mut loaded = urnreg::snapshot::read(&out).unwrap();
        // The IANA XML holds registry facts only: the rest comes from the
        // database, as `urnreg import` does.
        loaded.complete_from(&copy.snapshot().unwrap());
        let loaded = loaded.snapshot;
        assert_eq!(loaded.query, snapshot.query, "{format:?}");
        let plan = copy.import_snapshot(&loaded, false, true, "t").unwrap();
        assert_eq!(plan.query, ["keyword 'lang' added"], "{format:?}");
        assert!(!plan.conflicts, "adding is no conflict");
        copy.import_snapshot(&loaded, false, false, "t").unwrap();
        assert_eq!(copy.query_registry().unwrap(), store.query_registry().unwrap());
        // Dropping it back is a conflict.
        let (_d, plain) = fresh();
        let plan = copy
            .import_snapshot(&plain.snapshot().unwrap(), false, true, "t")
            .unwrap();
        assert!(
            plan.conflicts && plan.query == ["keyword 'lang' removed"],
            "{plan:?}"
        );
    }
    // A hostile entry is refused before anything is written.
    let mut hostile = snapshot.clone();
    hostile.query.as_mut().unwrap().services[0].status = "final".into();
    let err = store
        .import_snapshot(&hostile, true, false, "t")
        .unwrap_err()
        .to_string();
    assert!(err.contains("status 'final'"), "{err}");
}

/// `urnreg keywords` and `urnreg services` list the database's
/// sub-registries (with what namespaces declare); `add` writes them.
#[test]
fn the_cli_lists_and_adds() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let out = urnreg_db(
        &db,
        &[
            "keywords",
            "add",
            "lang",
            "--purpose",
            "language",
            "--reference",
            "test",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = urnreg_db(
        &db,
        &[
            "keywords",
            "add",
            "lang",
            "--purpose",
            "again",
            "--reference",
            "test",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("already a registered keyword"),
        "{}",
        stderr(&out)
    );
    let out = urnreg_db(&db, &["keywords", "--format", "json"]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["keyword"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["s", "c", "lang"]);
    let out = urnreg_db(
        &db,
        &[
            "services",
            "add",
            "I2U",
            "--purpose",
            "URI to URN",
            "--reference",
            "t",
            "--status",
            "exp",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = urnreg_db(&db, &["services"]);
    assert!(
        stdout(&out).lines().last().unwrap().starts_with("I2U "),
        "{}",
        stdout(&out)
    );
}
