//! Every command's `--help`, snapshotted (insta), and what the help
//! promises checked against what the command does: each `--format` value
//! listed works (`tests/data/cli/formats.toml`), none is listed that the
//! command cannot write, and options appear only where they apply.

use std::path::Path;

use crate::util::{code, stderr, stdout, urnreg};

/// The commands `urnreg` lists, as paths (`["ns", "show"]`), found by
/// reading the "Commands:" section of each help page in turn; `help` is
/// left out.
pub(crate) fn command_paths() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = urnreg(&args, b"");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        let subs: Vec<String> = text
            .lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(str::to_string)
            .collect();
        if subs.is_empty() {
            found.push(path);
        } else {
            for sub in subs {
                let mut next = path.clone();
                next.push(sub);
                todo.push(next);
            }
        }
    }
    found.sort();
    found
}

/// The values `--format` lists in a help page (empty without `--format`).
fn listed_formats(help: &str) -> Vec<String> {
    let Some(start) = help.find("      --format <FORMAT>") else {
        return Vec::new();
    };
    help[start..]
        .lines()
        .skip_while(|l| !l.contains("Possible values:"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with("- "))
        .filter_map(|l| l.trim_start().strip_prefix("- "))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_help_is_snapshotted() {
    let paths = command_paths();
    assert!(paths.len() >= 18, "{paths:?}");
    for path in [vec![]].into_iter().chain(paths) {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = urnreg(&args, b"");
        assert_eq!(code(&out), 0, "{args:?}");
        let name = if path.is_empty() {
            "help_urnreg".to_string()
        } else {
            format!("help_{}", path.join("_"))
        };
        insta::assert_snapshot!(name, stdout(&out));
    }
}

#[derive(serde::Deserialize)]
struct Vectors {
    command: Vec<FormatVector>,
}

/// A command and the formats its help must list; each is run with every
/// one of them (after `setup`, against a fresh database).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatVector {
    args: Vec<String>,
    formats: Vec<String>,
    #[serde(default)]
    setup: Vec<Vec<String>>,
}

/// `{db}`, `{dir}` and `{data}` in an argument.
fn expand(arg: &str, dir: &Path) -> String {
    arg.replace("{db}", dir.join("r.db").to_str().unwrap())
        .replace("{dir}", dir.to_str().unwrap())
        .replace("{data}", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"))
}

#[test]
fn each_listed_format_works_and_no_other_is_listed() {
    let vectors: Vectors =
        toml::from_str(include_str!("data/cli/formats.toml")).expect("tests/data/cli/formats.toml");
    let paths = command_paths();
    let mut covered = Vec::new();
    for v in &vectors.command {
        let leaf: Vec<&str> = paths
            .iter()
            .find(|p| v.args.starts_with(p))
            .unwrap_or_else(|| panic!("{:?} names no command", v.args))
            .iter()
            .map(String::as_str)
            .collect();
        let mut help_args = leaf.clone();
        help_args.push("--help");
        let help = stdout(&urnreg(&help_args, b""));
        assert_eq!(
            listed_formats(&help),
            v.formats,
            "{leaf:?}: the help's --format list"
        );
        covered.push(leaf.join(" "));
        for format in &v.formats {
            let dir = tempfile::tempdir().unwrap();
            for step in &v.setup {
                let step: Vec<String> = step.iter().map(|a| expand(a, dir.path())).collect();
                let step: Vec<&str> = step.iter().map(String::as_str).collect();
                let out = urnreg(&step, b"");
                assert_eq!(code(&out), 0, "setup {step:?}: {}", stderr(&out));
            }
            let mut args: Vec<String> = v.args.iter().map(|a| expand(a, dir.path())).collect();
            args.extend(["--format".to_string(), format.clone()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = urnreg(&args, b"");
            assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
            let text = stdout(&out);
            match format.as_str() {
                "json" if leaf != ["export"] => {
                    serde_json::from_str::<serde_json::Value>(&text)
                        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {text}"));
                }
                "jsonl" => {
                    for line in text.lines() {
                        serde_json::from_str::<serde_json::Value>(line)
                            .unwrap_or_else(|e| panic!("{args:?}: not JSON lines ({e}): {line}"));
                    }
                }
                "toml" if leaf != ["export"] => {
                    toml::from_str::<toml::Table>(&text)
                        .unwrap_or_else(|e| panic!("{args:?}: not TOML ({e}): {text}"));
                }
                _ if leaf == ["export"] => {
                    let written = std::fs::read_dir(dir.path().join("out")).unwrap().count();
                    assert!(written >= 2, "{args:?}: wrote {written} files");
                }
                _ => assert!(!text.is_empty(), "{args:?}: no output"),
            }
        }
    }
    // Every command with a --format has a vector.
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = stdout(&urnreg(&args, b""));
        if !listed_formats(&help).is_empty() {
            assert!(
                covered.contains(&path.join(" ")),
                "'{}' has --format but no vector in tests/data/cli/formats.toml",
                path.join(" ")
            );
        }
    }
}

/// A format that a command does not write is refused by the parser, with
/// the list of those it does (it used to be accepted, then refused late,
/// or offered html on `check`).
#[test]
fn an_unlisted_format_is_a_usage_error() {
    for (args, wrong) in [
        (&["check", "urn:isbn:0451450523"][..], "html"),
        (&["parse", "urn:isbn:0451450523"], "jsonl"),
        (&["ns", "list"], "toml"),
        (&["export", "--out", "x"], "jsonl"),
    ] {
        let mut all = args.to_vec();
        all.extend(["--format", wrong]);
        let out = urnreg(&all, b"");
        assert_eq!(code(&out), 2, "{all:?}");
        assert!(
            stderr(&out).contains(&format!("invalid value '{wrong}' for '--format <FORMAT>'")),
            "{all:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));
    }
    // Commands with one form of output have no --format at all.
    for args in [
        &["eq", "urn:a1:b", "urn:a1:b"][..],
        &["normalize", "urn:example:a"],
        &["template", "new"],
        &["template", "render", "isbn"],
        &["completions", "bash"],
    ] {
        let mut all = args.to_vec();
        all.extend(["--format", "text"]);
        let out = urnreg(&all, b"");
        assert_eq!(code(&out), 2, "{all:?}");
        assert!(
            stderr(&out).contains("unexpected argument '--format'"),
            "{all:?}: {}",
            stderr(&out)
        );
    }
}

/// `--color` is accepted by every command (`check --color never` used to
/// be "a similar argument exists: '--actor'"); `--actor` and `--db` only
/// where they apply.
#[test]
fn color_everywhere_actor_and_db_only_where_they_apply() {
    let writes = [
        "init",
        "request",
        "review",
        "revise",
        "amend",
        "withdraw",
        "import",
        "update",
        "serve",
        "expert add",
        "expert remove",
        "keywords add",
        "services add",
    ];
    let without_db = ["completions", "man", "template import"];
    for path in command_paths() {
        let name = path.join(" ");
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = stdout(&urnreg(&args, b""));
        assert!(help.contains("--color <WHEN>"), "{name}");
        assert_eq!(
            help.contains("--actor <NAME>"),
            writes.contains(&name.as_str()),
            "--actor on '{name}'"
        );
        assert_eq!(
            help.contains("--db <PATH>"),
            !without_db.contains(&name.as_str()),
            "--db on '{name}'"
        );
    }
    let out = urnreg(&["check", "--color", "never", "urn:isbn:0451450523"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
