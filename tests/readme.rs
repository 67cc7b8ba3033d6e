//! docs against the code they describe: docs/rules.md's table, the
//! architecture map, docs/operating.md's snapshot commands.

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

/// The commands of docs/operating.md's snapshot example run one after
/// another as written, each with exit 0 (each export to a directory of its
/// own: a non-empty `--out` is refused without `--force`).
#[test]
fn operating_snapshot_example_runs_as_written() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/operating.md")).unwrap();
    let section = doc.split("## Snapshots").nth(1).expect("a Snapshots section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("its first sh block");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("registry.db");
    let mut ran = 0;
    for line in block.lines() {
        let command = line.split('#').next().unwrap_or("").trim();
        let Some(args) = command.strip_prefix("urnreg ") else {
            continue;
        };
        let out = crate::util::urnreg_command()
            .args(args.split_whitespace())
            .env("URNREG_DB", &db)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 6, "{block}");
}
