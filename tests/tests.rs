//! The integration tests, one binary.

/// Shared helpers: the built binary, temp directories.
mod util;

/// RFC 8141 section 2 and 3 conformance vectors from `tests/data/`.
mod conformance;

/// Properties over random input: no panics, idempotent normalization.
mod properties;

/// The command line, run as a user would.
mod cli;

/// Every command's help, snapshotted, and held to what it promises.
mod cli_help;

/// `registry/` against the IANA registry XML.
mod registry_data;

/// The registry store and the registration lifecycle.
mod registry;

/// Namespace rules through the validator.
mod namespaces;

/// Registration templates: import, render, round trips, snapshots.
mod templates;

/// `urnreg lint`: one vector per rule.
mod lint;

/// Hostile rule texts: limits, never a crash (issue 11).
mod hostile;

/// Fuzzing: a smoke run here, a long run with `URNREG_FUZZ_CASES` (issue 11).
mod fuzz;

/// Registry snapshots: export, import, round trips, refusals.
mod snapshot_files;

/// The `html` export: its files, and the site in headless Chromium.
mod html_site;

/// docs/rules.md against the code: the table of namespace rules.
mod readme;

/// `urnreg scan`: URNs in files and trees.
mod scan;

/// `urnreg serve` over HTTP on 127.0.0.1, and the CLI as its client.
#[cfg(feature = "serve")]
mod serve;
