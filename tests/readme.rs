//! README.md against the code it describes.

use std::path::Path;

/// The generator of README.md's rules table, shared with
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
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable");
    let start = readme
        .find(START)
        .expect("README.md has the line <!-- rules-table:start -->")
        + START.len();
    let len = readme[start..]
        .find(END)
        .expect("README.md has <!-- rules-table:end --> after the start line");
    let shown = &readme[start..start + len];
    let table = rules_table::rules_table().expect("the rules table is generated");
    assert!(
        shown == table,
        "README.md's rules table is out of date: run `cargo run --example rules_table` and paste its \
         output between <!-- rules-table:start --> and <!-- rules-table:end -->"
    );
}
