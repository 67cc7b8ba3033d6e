//! The `SHA256SUMS` manifest every snapshot and export carries, in the
//! format of GNU `sha256sum`: one `<hex digest>  <name>` line per file.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

/// The manifest file name (the format of `sha256sum`).
pub const MANIFEST: &str = "SHA256SUMS";

/// The `SHA256SUMS` text for `files`.
pub fn manifest(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut out = String::new();
    for (name, bytes) in files {
        let _ = writeln!(out, "{}  {name}", digest(bytes));
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The SHA-256 digest of `bytes` in lower-case hex, as the manifest lists it.
pub fn digest(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}
