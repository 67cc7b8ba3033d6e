//! docs/rules.md against the code it describes.

use std::path::Path;

/// The generator of docs/rules.md's rules table, shared with
/// `cargo run --example rules_table`.
#[expect(dead_code, reason = "the example's main is not called here")]
#[path = "../examples/rules_table.rs"]
mod rules_table;

const START: &str = "<!-- rules-table:start -->\n";
const END: &str = "<!-- rules-table:end -->";

/// The table of every namespace and the source of its rules (issue 12)
/// is the one the shipped registry gives.
#[test]
fn readme_rules_table_is_current() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md"))
        .expect("docs/rules.md is readable");
    let start = readme
        .find(START)
        .expect("docs/rules.md has the line <!-- rules-table:start -->")
        + START.len();
    let len = readme[start..]
        .find(END)
        .expect("docs/rules.md has <!-- rules-table:end --> after the start line");
    let shown = &readme[start..start + len];
    let table = rules_table::rules_table().expect("the rules table is generated");
    assert!(
        shown == table,
        "docs/rules.md's rules table is out of date: run `cargo run --example rules_table` and paste its \
         output between <!-- rules-table:start --> and <!-- rules-table:end -->"
    );
}

/// ARCHITECTURE.md names only paths that exist, and every module of
/// `src/` is on its map (issue 26).
#[test]
fn architecture_map_names_every_module_and_nothing_gone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable");
    let named: Vec<&str> = map
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("src/") || s.starts_with("python/"))
        .collect();
    assert!(named.len() >= 15, "{named:?}");
    for path in &named {
        assert!(
            root.join(path).exists(),
            "ARCHITECTURE.md names {path}, which does not exist"
        );
    }
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let path = if root.join("src").join(&name).is_dir() {
            format!("src/{name}/")
        } else {
            format!("src/{name}")
        };
        assert!(
            named.contains(&path.as_str()),
            "ARCHITECTURE.md does not map {path}"
        );
    }
}
