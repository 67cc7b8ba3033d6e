//! Snapshot files: writing a [`Snapshot`] as a directory (`toml`: the
//! layout of `registry/`; `json`: one `registry.json`; `xml`: the IANA
//! registry; `csv`; `html`: a static site, see [`super::html`]) with a
//! `SHA256SUMS` manifest, and reading one back with its checksums verified.
//!
//! Exports are deterministic (sorted, no timestamps of their own) and
//! atomic: everything is written to a temporary directory beside `--out`,
//! which is renamed into place only when complete. `--force` replaces
//! only a previous urnreg export, never anything else.
//!
//! Reading trusts nothing in the directory: the manifest is required and
//! read first, and only the regular files it lists are opened (never a
//! symbolic link, FIFO, socket or device), each no larger than
//! [`MAX_FILE_BYTES`] and all together no larger than
//! [`MAX_SNAPSHOT_BYTES`]; every file is checked against its checksum
//! before it is parsed.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::Snapshot;
use super::csv::CSV_FILE;
use super::error::{Result, SnapshotError, err, parse_error};
use super::json::JSON_FILE;
use super::manifest::{MANIFEST, digest, manifest};
use super::xml::{QUERY_XML_FILE, XML_FILE};
use super::{csv, html, json, toml, xml};
use crate::registry::data::{REGISTRY_FILE, RecordFile};

/// The largest file a snapshot may hold, its manifest included (the
/// shipped registry is one `registry.json` of about 1 MB: this is 15
/// times as much). Reading a snapshot takes up to some 40 times its
/// size in memory (many small values: a file of 60 MB took 2.2 GB), so
/// the size is what bounds the memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The most all the files of a snapshot may hold together.
pub const MAX_SNAPSHOT_BYTES: u64 = 64 << 20;

/// The most files a manifest may list.
pub const MAX_FILES: usize = 65_536;

/// The longest file name a manifest may list (the limit of most file
/// systems).
pub const MAX_NAME_BYTES: usize = 255;

/// The formats a snapshot is exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// A directory in the layout of `registry/`.
    Toml,
    /// One JSON file, `registry.json`.
    Json,
    /// The IANA registry format, `urn-namespaces.xml` (registry facts only:
    /// no registration texts, rules or filed versions).
    Xml,
    /// One row per namespace, `urn-namespaces.csv` (export only).
    Csv,
    /// A static site: `index.html` and `ns/<nid>.html` (export only).
    Html,
}

/// A snapshot as read, and whether it holds only what the IANA XML can
/// hold (then an import keeps the texts, rules and versions it lacks).
#[derive(Debug)]
pub struct Loaded {
    /// The snapshot.
    pub snapshot: Snapshot,
    /// True for an `xml` snapshot.
    pub iana_facts_only: bool,
}

impl Loaded {
    /// For an IANA-facts-only snapshot, takes what it cannot hold
    /// (registration texts, referenced texts, rules, status, filed
    /// versions, requests) from `current`, so that importing it changes
    /// only registry facts.
    pub fn complete_from(&mut self, current: &Snapshot) {
        if !self.iana_facts_only {
            return;
        }
        let held: BTreeMap<String, &RecordFile> = current
            .records
            .iter()
            .map(|r| (r.nid.to_ascii_lowercase(), r))
            .collect();
        for record in &mut self.snapshot.records {
            if let Some(old) = held.get(&record.nid.to_ascii_lowercase()) {
                record.registration = old.registration.clone();
                record.referenced = old.referenced.clone();
                record.rules = old.rules.clone();
                record.status = old.status.clone();
                record.filed = old.filed.clone();
            }
        }
        self.snapshot.records.sort_by_key(|r| r.nid.to_ascii_lowercase());
        self.snapshot.requests = current.requests.clone();
    }
}

/// The files of a snapshot in `format`, by name, in the order written.
///
/// # Errors
///
/// A record that cannot name a file, a value TOML or XML 1.0 cannot hold,
/// or a page that does not render.
pub fn render_files(snapshot: &Snapshot, format: ExportFormat) -> Result<BTreeMap<String, Vec<u8>>> {
    let one = |name: &str, bytes: Vec<u8>| BTreeMap::from([(name.to_string(), bytes)]);
    Ok(match format {
        ExportFormat::Toml => toml::render(snapshot)?,
        ExportFormat::Json => one(JSON_FILE, json::render(snapshot)?),
        ExportFormat::Xml => {
            let mut files = one(XML_FILE, xml::render(snapshot)?);
            if let Some(query) = &snapshot.query {
                files.insert(QUERY_XML_FILE.to_string(), xml::render_query(query)?);
            }
            files
        }
        ExportFormat::Csv => one(CSV_FILE, csv::render(snapshot).into_bytes()),
        ExportFormat::Html => html::render_site(snapshot).map_err(SnapshotError)?,
    })
}

/// The folders of an `html` export: its namespace pages and its data files.
const SITE_DIRS: [&str; 2] = [html::PAGES_DIR, html::DATA_DIR];

/// Returns true if and only if `name` is a file name urnreg writes into a
/// snapshot or export: 1 to [`MAX_NAME_BYTES`] ASCII letters, digits, `.`,
/// `_` and `-`, not starting with `.` (so never `..`, a hidden file, a path
/// or a control character); with `pages`, also `ns/<name>` and
/// `data/<name>` (the pages and data files of an `html` export).
fn is_export_name(name: &str, pages: bool) -> bool {
    let plain = |n: &str| {
        !n.is_empty()
            && n.len() <= MAX_NAME_BYTES
            && !n.starts_with('.')
            && n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    match name.split_once('/') {
        None => plain(name),
        Some((dir, rest)) => pages && SITE_DIRS.contains(&dir) && plain(rest),
    }
}

/// Reads a `SHA256SUMS` text (the format `sha256sum` writes and `-c`
/// reads: a SHA-256 in hex, two spaces or a space and `*`, a file name) into
/// file names and their checksums. Every line must be one; names must be
/// names urnreg writes (see [`is_export_name`]), each listed once, at most
/// [`MAX_FILES`] of them.
fn parse_manifest(bytes: &[u8], pages: bool) -> Result<BTreeMap<String, String>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        SnapshotError(format!(
            "{MANIFEST} is not UTF-8 (byte {}): refusing an unverifiable snapshot",
            e.valid_up_to()
        ))
    })?;
    if text.is_empty() {
        return err(format!(
            "{MANIFEST} lists no file: refusing an unverifiable snapshot"
        ));
    }
    let mut listed = BTreeMap::new();
    let body = text.strip_suffix('\n').unwrap_or(text);
    for (n, line) in body.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let bad = |why: &str| {
            err(format!(
                "{MANIFEST} line {}: {why}: refusing an unverifiable snapshot",
                n + 1
            ))
        };
        let (sum, rest) = line.split_at_checked(64).unwrap_or((line, ""));
        if sum.len() != 64 || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
            return bad("expected '<64 hex digits of SHA-256>  <file name>'");
        }
        let Some(name) = rest.strip_prefix("  ").or_else(|| rest.strip_prefix(" *")) else {
            return bad("expected two spaces after the checksum");
        };
        if !is_export_name(name, pages) {
            return bad(&format!(
                "{name:?} is not a file name urnreg writes (letters, digits, '.', '_', '-'; \
                 at most MAX_NAME_BYTES = {MAX_NAME_BYTES} bytes)"
            ));
        }
        if listed
            .insert(name.to_string(), sum.to_ascii_lowercase())
            .is_some()
        {
            return bad(&format!("{name} is listed twice"));
        }
        if listed.len() > MAX_FILES {
            return bad(&format!("more than MAX_FILES = {MAX_FILES} files"));
        }
    }
    Ok(listed)
}

/// What kind of file system object `kind` is, for errors.
fn describe(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_file() {
        "a regular file"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The metadata of `dir/name` if it is a regular file no larger than
/// [`MAX_FILE_BYTES`], found without following a symbolic link and
/// without opening it (opening a FIFO would wait forever).
fn regular_file(dir: &Path, name: &str) -> Result<fs::Metadata> {
    let path = dir.join(name);
    let meta = fs::symlink_metadata(&path).map_err(|e| {
        SnapshotError(if e.kind() == std::io::ErrorKind::NotFound {
            format!("{name} is listed in {MANIFEST} but missing: the snapshot is incomplete")
        } else {
            format!("reading {}: {e}", path.display())
        })
    })?;
    if !meta.file_type().is_file() {
        return err(format!(
            "{name} is {}: a snapshot holds only regular files, and urnreg opens nothing else",
            describe(meta.file_type())
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return err(format!(
            "{name} is {} bytes, over the limit of MAX_FILE_BYTES = {MAX_FILE_BYTES} bytes per snapshot file",
            meta.len()
        ));
    }
    Ok(meta)
}

/// Reads `dir/name`, which [`regular_file`] found as `meta`: the file
/// opened must be that same file (not one swapped in since), and no more
/// than [`MAX_FILE_BYTES`] are read whatever it has become.
fn read_regular(dir: &Path, name: &str, meta: &fs::Metadata) -> Result<Vec<u8>> {
    let path = dir.join(name);
    let io = |e: std::io::Error| SnapshotError(format!("reading {}: {e}", path.display()));
    let replaced = || format!("{name} was replaced while the snapshot was being read");
    let file = match open_without_waiting(&path) {
        Ok(file) => file,
        Err(e) if is_symlink_refusal(&e) => return err(replaced()),
        Err(e) => return Err(io(e)),
    };
    let opened = file.metadata().map_err(io)?;
    #[cfg(unix)]
    let same = {
        use std::os::unix::fs::MetadataExt;
        opened.is_file() && (opened.dev(), opened.ino()) == (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let same = opened.is_file();
    if !same {
        return err(replaced());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return err(format!(
            "{name} grew over MAX_FILE_BYTES = {MAX_FILE_BYTES} bytes while it was being read"
        ));
    }
    Ok(bytes)
}

/// Opens `path` for reading as [`read_regular`] must: between the look
/// at a file ([`regular_file`]) and its opening, another process may put
/// a FIFO in its place (opening one waits for a writer, forever), a
/// device (opening some has effects, or waits) or a symbolic link. So it
/// is opened without waiting (`O_NONBLOCK`, which changes nothing for a
/// regular file), without following a link (`O_NOFOLLOW`) and without
/// becoming the controlling terminal (`O_NOCTTY`); what was opened is
/// then checked to be the file that was looked at (found in hostile testing: 32
/// imports in 200 waited forever with a racing swap of a FIFO).
fn open_without_waiting(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Returns true if and only if `e` is the refusal of `O_NOFOLLOW` to open
/// a symbolic link.
fn is_symlink_refusal(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// The manifest of `dir`, parsed; it must be there.
fn read_manifest(dir: &Path, pages: bool) -> Result<BTreeMap<String, String>> {
    let meta = match fs::symlink_metadata(dir.join(MANIFEST)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return err(format!(
                "no {MANIFEST} in {}: a snapshot must carry its manifest (urnreg export writes one; \
                 for a file you trust, `sha256sum FILE > {MANIFEST}`): refusing an unverifiable snapshot",
                dir.display()
            ));
        }
        _ => regular_file(dir, MANIFEST)?,
    };
    parse_manifest(&read_regular(dir, MANIFEST, &meta)?, pages)
}

/// Reads the files `names` of `dir`, every one listed in `listed`: all are
/// checked to be regular files within the size limits before any is
/// opened, and each is checked against its checksum once read.
fn read_listed(
    dir: &Path,
    names: &[String],
    listed: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut found = Vec::with_capacity(names.len());
    let mut total: u64 = 0;
    for name in names {
        let meta = regular_file(dir, name)?;
        total = total.saturating_add(meta.len());
        if total > MAX_SNAPSHOT_BYTES {
            return err(format!(
                "the snapshot's files hold more than MAX_SNAPSHOT_BYTES = {MAX_SNAPSHOT_BYTES} bytes together"
            ));
        }
        found.push((name, meta));
    }
    let mut files = BTreeMap::new();
    for (name, meta) in found {
        let bytes = read_regular(dir, name, &meta)?;
        if listed.get(name).map(String::as_str) != Some(digest(&bytes).as_str()) {
            return err(format!(
                "{name} does not match its checksum in {MANIFEST}: the snapshot is corrupt or was changed"
            ));
        }
        files.insert(name.clone(), bytes);
    }
    Ok(files)
}

/// Returns true if and only if `path` (the database, which may not exist
/// yet, or be a symbolic link to the real file) is inside the directory
/// `dir`, at any depth.
fn is_inside(path: &Path, dir: &Path) -> bool {
    let Ok(dir) = fs::canonicalize(dir) else {
        return false;
    };
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    [fs::canonicalize(path), fs::canonicalize(parent)]
        .into_iter()
        .flatten()
        .any(|p| p.starts_with(&dir))
}

/// Refuses `out` unless it holds a previous urnreg export and nothing
/// else: its `SHA256SUMS`, and only files listed there (the pages of an
/// `html` export in `ns/`), each unchanged since it was written.
fn check_previous_export(out: &Path) -> Result<()> {
    let refuse = |what: String| {
        SnapshotError(format!(
            "{} holds {what}: --force replaces only a previous urnreg export (its {MANIFEST} and the \
             unchanged files it lists); move it away or export somewhere else",
            out.display()
        ))
    };
    if fs::symlink_metadata(out.join(MANIFEST)).is_err() {
        return Err(refuse(format!(
            "files but no {MANIFEST}, so it is not a urnreg export"
        )));
    }
    let listed =
        read_manifest(out, true).map_err(|e| refuse(format!("a {MANIFEST} urnreg cannot read ({e})")))?;
    // Names that are not UTF-8 are kept lossily: they match no listed name.
    let entries = |dir: &Path| -> Result<Vec<(String, fs::FileType)>> {
        let io = |e: std::io::Error| SnapshotError(format!("reading {}: {e}", dir.display()));
        let mut names = Vec::new();
        for entry in fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let kind = entry.file_type().map_err(io)?;
            names.push((entry.file_name().to_string_lossy().into_owned(), kind));
        }
        Ok(names)
    };
    let mut present = Vec::new();
    for (name, kind) in entries(out)? {
        if name == MANIFEST {
            continue;
        }
        if kind.is_dir() && SITE_DIRS.contains(&name.as_str()) {
            for (page, kind) in entries(&out.join(&name))? {
                present.push((format!("{name}/{page}"), kind));
            }
        } else {
            present.push((name, kind));
        }
    }
    for (name, kind) in &present {
        if !listed.contains_key(name) {
            return Err(refuse(format!(
                "{name}, which no urnreg export wrote ({})",
                describe(*kind)
            )));
        }
    }
    let names: Vec<String> = present.into_iter().map(|(name, _)| name).collect();
    read_listed(out, &names, &listed)
        .map(|_| ())
        .map_err(|e| refuse(format!("a file that is not as urnreg wrote it ({e})")))
}

/// Writes the snapshot into the directory `out`, atomically: a temporary
/// directory beside it is filled and then renamed into place. A non-empty
/// `out` is refused unless `force`, and even then unless it holds a
/// previous urnreg export and nothing else; a directory holding
/// `database` is always refused. Returns the file names written.
///
/// # Errors
///
/// A refused `out`, a snapshot that cannot be written in `format`, or the
/// I/O error.
pub fn export(
    snapshot: &Snapshot,
    format: ExportFormat,
    out: &Path,
    force: bool,
    database: Option<&Path>,
) -> Result<Vec<String>> {
    let mut files = render_files(snapshot, format)?;
    // A snapshot that `import` would refuse is no backup: refused here,
    // before anything is written, naming the limit.
    if matches!(
        format,
        ExportFormat::Toml | ExportFormat::Json | ExportFormat::Xml
    ) {
        let mut total: u64 = 0;
        for (name, bytes) in &files {
            let len = bytes.len() as u64;
            total = total.saturating_add(len);
            if len > MAX_FILE_BYTES {
                return err(format!(
                    "{name} would be {len} bytes, over MAX_FILE_BYTES = {MAX_FILE_BYTES} that an import \
                     reads: this snapshot would not import (back up the database file itself)"
                ));
            }
        }
        if total > MAX_SNAPSHOT_BYTES {
            return err(format!(
                "the files would hold {total} bytes, over MAX_SNAPSHOT_BYTES = {MAX_SNAPSHOT_BYTES} that an \
                 import reads: this snapshot would not import (back up the database file itself)"
            ));
        }
    }
    let sums = manifest(&files);
    files.insert(MANIFEST.to_string(), sums.into_bytes());
    // Another export to the same place may move `out` aside, or put its
    // own there, at any time below (found in hostile testing).
    let raced = || {
        SnapshotError(format!(
            "another export to {} ran at the same time and put its files there first: this one wrote \
             nothing (run it again to replace that one)",
            out.display()
        ))
    };
    match fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return err(format!("reading {}: {e}", out.display())),
        Ok(meta) => {
            if meta.file_type().is_symlink() {
                return err(format!(
                    "{} is a symbolic link: give the directory itself",
                    out.display()
                ));
            }
            if !meta.is_dir() {
                return err(format!("{} exists and is not a directory", out.display()));
            }
            if let Some(db) = database.filter(|db| is_inside(db, out)) {
                return err(format!(
                    "{} holds the database {}: an export never replaces it; export somewhere else",
                    out.display(),
                    db.display()
                ));
            }
            let looked = fs::read_dir(out)
                .map_err(|e| SnapshotError(format!("reading {}: {e}", out.display())))
                .map(|mut entries| entries.next().is_some())
                .and_then(|non_empty| {
                    if non_empty && !force {
                        return err(format!(
                            "{} is not empty: pass --force to replace a previous export in it",
                            out.display()
                        ));
                    }
                    if non_empty {
                        check_previous_export(out)?;
                    }
                    Ok(())
                });
            // A look that failed because another export replaced `out`
            // meanwhile (its files vanished or changed while they were
            // read) is that race, not a directory urnreg did not write.
            if let Err(e) = looked {
                return Err(if replaced_since(out, &meta) { raced() } else { e });
            }
        }
    }
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = out
        .file_name()
        .ok_or_else(|| SnapshotError(format!("{} does not name a directory", out.display())))?
        .to_string_lossy()
        .into_owned();
    remove_stale_exports(parent, &name);
    let tmp = parent.join(format!(".{name}.urnreg-tmp-{}", std::process::id()));
    let written = write_dir(&tmp, &files);
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = parent.join(format!(".{name}.urnreg-old-{}", std::process::id()));
    let io = |what: &str, e: std::io::Error| SnapshotError(format!("{what}: {e}"));
    // Another export to the same place may move `out` aside, or put its
    // own there, between the looks above and the renames below (found in
    // hostile testing: of 8 exports at once, some failed with "Directory not
    // empty" or "No such file or directory" and left their temporary
    // directory and the previous export beside `out`, for good). The
    // loser writes nothing, leaves nothing, and says so.
    let moved = out.exists();
    if moved && let Err(e) = fs::rename(out, &old) {
        let _ = fs::remove_dir_all(&tmp);
        if e.kind() == std::io::ErrorKind::NotFound {
            return Err(raced());
        }
        return Err(io(&format!("moving {} aside", out.display()), e));
    }
    if let Err(e) = fs::rename(&tmp, out) {
        let _ = fs::remove_dir_all(&tmp);
        // Another export took the place meanwhile: the previous export is
        // replaced by that one, as this one would have replaced it. Never
        // put back then (found in hostile testing: the previous export put back
        // into a place a third export had just cleared, which then removed
        // the export that had taken it and said it wrote its own: an
        // export reported written was gone, an older one in its place).
        if out.join(MANIFEST).is_file() {
            if moved {
                let _ = fs::remove_dir_all(&old);
            }
            return Err(raced());
        }
        // Put the old directory back; nothing half-written is left.
        let put_back = moved && fs::rename(&old, out).is_ok();
        if !put_back && out.join(MANIFEST).is_file() {
            if moved {
                let _ = fs::remove_dir_all(&old);
            }
            return Err(raced());
        }
        return Err(io(&format!("renaming into {}", out.display()), e));
    }
    if old.exists() {
        fs::remove_dir_all(&old).map_err(|e| io(&format!("removing {}", old.display()), e))?;
    }
    Ok(files.into_keys().collect())
}

/// Returns true if and only if `out` is no longer the directory `before`
/// described: moved aside or replaced (by another export), so what was
/// read of it may be of another directory.
fn replaced_since(out: &Path, before: &fs::Metadata) -> bool {
    let Ok(now) = fs::symlink_metadata(out) else {
        return true;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        now.dev() != before.dev() || now.ino() != before.ino()
    }
    #[cfg(not(unix))]
    {
        now.modified().ok() != before.modified().ok()
    }
}

/// Removes the half-written exports to `parent/name` that processes which
/// are gone left (Ctrl-C, `kill`, a write past the file size limit: the
/// cleanup after a failed write never ran): `.NAME.urnreg-tmp-PID`
/// directories only, of a dead process, untouched for ten minutes. Never
/// `.NAME.urnreg-old-PID`: that is the previous export, moved aside, and
/// may be the only copy. Best effort: what cannot be removed stays.
fn remove_stale_exports(parent: &Path, name: &str) {
    let prefix = format!(".{name}.urnreg-tmp-");
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && crate::registry::left_by_dead_process(pid, &entry) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

fn write_dir(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<()> {
    let io = |what: &Path, e: std::io::Error| SnapshotError(format!("writing {}: {e}", what.display()));
    fs::create_dir(dir).map_err(|e| io(dir, e))?;
    for (name, bytes) in files {
        let path = dir.join(name);
        // Names are ours (`ns/<nid>.html` at most one level down), never
        // absolute and never with `..`.
        if let Some(sub) = path.parent().filter(|p| *p != dir) {
            fs::create_dir_all(sub).map_err(|e| io(sub, e))?;
        }
        fs::write(&path, bytes).map_err(|e| io(&path, e))?;
    }
    // Flush the files before the rename makes them visible.
    for name in files.keys() {
        let path = dir.join(name);
        fs::File::open(&path)
            .and_then(|f| f.sync_all())
            .map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// Returns true if and only if `name` is a file a snapshot is read from.
fn is_snapshot_file(name: &str) -> bool {
    name.ends_with(".toml") || name.ends_with(".json") || name.ends_with(".xml")
}

/// Reads a snapshot: a directory (`toml`, `json` or `xml` layout) or a
/// `registry.json` or `urn-namespaces.xml` file. The `SHA256SUMS` beside
/// it is required and read first; only regular files it lists are opened
/// (see the module docs), every snapshot file in the directory must be
/// listed, and each must match its checksum before it is parsed.
///
/// # Errors
///
/// A missing or unreadable manifest, a file that is not listed, missing,
/// not a regular file, too large or changed, or one that does not parse.
pub fn read(path: &Path) -> Result<Loaded> {
    let meta = fs::metadata(path).map_err(|e| SnapshotError(format!("{}: {e}", path.display())))?;
    let (dir, only) = if meta.is_dir() {
        (path.to_path_buf(), None)
    } else if meta.is_file() {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| SnapshotError(format!("{}: not a file name", path.display())))?;
        (dir, Some(name.to_string()))
    } else {
        return err(format!(
            "{} is {}: give a snapshot directory or file",
            path.display(),
            describe(meta.file_type())
        ));
    };
    let importable = [REGISTRY_FILE, JSON_FILE, XML_FILE];
    let export_only = match &only {
        Some(name) => name.ends_with(".html") || name.ends_with(".csv"),
        None => {
            [html::INDEX_FILE, CSV_FILE].iter().any(|f| dir.join(f).is_file())
                && !importable.iter().any(|f| dir.join(f).is_file())
        }
    };
    if export_only {
        return err(format!(
            "{} is an html or csv export, which is for reading only: import a toml, json or xml snapshot",
            path.display()
        ));
    }
    let listed = read_manifest(&dir, false)?;
    let names: Vec<String> = match &only {
        Some(name) => {
            if !name.ends_with(".json") && !name.ends_with(".xml") {
                return err(format!(
                    "{name}: import a snapshot directory, a {JSON_FILE} or an {XML_FILE}"
                ));
            }
            if !listed.contains_key(name) {
                return err(format!(
                    "{name} is not listed in {MANIFEST}: refusing an unverified file"
                ));
            }
            vec![name.clone()]
        }
        None => {
            // Found by name, not opened: a snapshot file nobody listed is
            // refused, whatever it is.
            let io = |e: std::io::Error| SnapshotError(format!("reading {}: {e}", dir.display()));
            for entry in fs::read_dir(&dir).map_err(io)? {
                let name = entry.map_err(io)?.file_name().to_string_lossy().into_owned();
                if is_snapshot_file(&name) && !listed.contains_key(&name) {
                    return err(format!(
                        "{name} is not listed in {MANIFEST}: refusing an unverified file"
                    ));
                }
            }
            if let Some(name) = listed.keys().find(|n| !is_snapshot_file(n)) {
                return err(format!(
                    "{MANIFEST} lists {name}: a snapshot holds only .toml, .json and .xml files"
                ));
            }
            listed.keys().cloned().collect()
        }
    };
    let files = read_listed(&dir, &names, &listed)?;
    let layout = match &only {
        Some(name) if name.ends_with(".xml") => XML_FILE,
        Some(_) => JSON_FILE,
        None => {
            let found: Vec<&str> = importable
                .into_iter()
                .filter(|f| files.contains_key(*f))
                .collect();
            match found[..] {
                [one] => one,
                [] => {
                    return err(format!(
                        "no {REGISTRY_FILE}, {JSON_FILE} or {XML_FILE}: not a snapshot directory"
                    ));
                }
                _ => return err(format!("holds more than one snapshot: {}", found.join(", "))),
            }
        }
    };
    if layout == REGISTRY_FILE {
        return Ok(Loaded {
            snapshot: toml::parse(&files)?,
            iana_facts_only: false,
        });
    }
    // An xml directory may hold the resolution sub-registries beside the
    // namespaces.
    let mut files = files;
    let query_xml = if layout == XML_FILE && only.is_none() {
        files.remove(QUERY_XML_FILE)
    } else {
        None
    };
    // One file: the one named, or the directory's only one.
    let mut single = files.iter();
    let (Some((name, bytes)), None) = (single.next(), single.next()) else {
        let all: Vec<&str> = files.keys().map(String::as_str).collect();
        return err(format!(
            "a snapshot in {layout} holds no other file, but {MANIFEST} lists {}",
            all.join(", ")
        ));
    };
    if layout == XML_FILE {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| SnapshotError(format!("{name}: not UTF-8 (byte {})", e.valid_up_to())))?;
        let (registry, mut records) = xml::read_registry(text).map_err(|e| parse_error(name, e))?;
        records.sort_by_key(|r| r.nid.to_ascii_lowercase());
        let query = match query_xml {
            Some(bytes) => {
                let text = std::str::from_utf8(&bytes).map_err(|e| {
                    SnapshotError(format!("{QUERY_XML_FILE}: not UTF-8 (byte {})", e.valid_up_to()))
                })?;
                Some(xml::read_query(text).map_err(|e| parse_error(QUERY_XML_FILE, e))?)
            }
            None => None,
        };
        return Ok(Loaded {
            snapshot: Snapshot {
                registry,
                records,
                requests: Vec::new(),
                last_informal: None,
                query,
            },
            iana_facts_only: true,
        });
    }
    Ok(Loaded {
        snapshot: json::parse(name, bytes)?,
        iana_facts_only: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An export a dead process left half-written is removed by the next
    /// export to the same place once untouched for ten minutes (found in
    /// hostile testing); a fresh one, another name's, and the previous export moved
    /// aside are kept.
    #[test]
    fn stale_half_written_exports_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // Above Linux's largest pid (2^22): never a live process.
        let dead = 999_999_999u32;
        let made = |name: &str, age: u64| {
            let path = dir.path().join(name);
            fs::create_dir(&path).unwrap();
            fs::write(path.join("index.html"), "x").unwrap();
            let then = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
            fs::File::open(&path).unwrap().set_modified(then).unwrap();
            path
        };
        let stale = made(&format!(".site.urnreg-tmp-{dead}"), 3600);
        let fresh = made(&format!(".site.urnreg-tmp-{}", dead - 1), 0);
        let old = made(&format!(".site.urnreg-old-{dead}"), 3600);
        let other = made(&format!(".site2.urnreg-tmp-{dead}"), 3600);
        remove_stale_exports(dir.path(), "site");
        assert!(!stale.exists());
        assert!(fresh.exists() && old.exists() && other.exists());
    }

    /// A snapshot `import` would refuse is not written: no backup that
    /// does not restore.
    #[test]
    fn an_export_over_the_import_limits_is_refused() {
        let mut snapshot = crate::registry::Store::open_embedded()
            .unwrap()
            .snapshot()
            .unwrap();
        snapshot.records[0].updated = Some("x".repeat(MAX_FILE_BYTES as usize + 1));
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let e = export(&snapshot, ExportFormat::Json, &out, false, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("MAX_FILE_BYTES") && e.contains("would not import"),
            "{e}"
        );
        assert!(!out.exists());
    }

    /// A file swapped for a FIFO or a symbolic link between the
    /// look at it and its opening is refused at once, never waited on
    /// (found in hostile testing: opening the FIFO waited forever).
    #[cfg(unix)]
    #[test]
    fn a_file_swapped_after_its_look_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("registry.json");
        for swap in ["fifo", "symlink"] {
            fs::write(&path, "{}").unwrap();
            let meta = regular_file(dir.path(), "registry.json").unwrap();
            fs::remove_file(&path).unwrap();
            match swap {
                "fifo" => {
                    let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
                    assert!(made.success(), "mkfifo");
                }
                // A device cannot be made unprivileged: a symbolic link to
                // one stands for it (refused unopened, by O_NOFOLLOW).
                _ => std::os::unix::fs::symlink("/dev/zero", &path).unwrap(),
            }
            let (tx, rx) = std::sync::mpsc::channel();
            let (d, m) = (dir.path().to_path_buf(), meta.clone());
            std::thread::spawn(move || {
                let _ = tx.send(read_regular(&d, "registry.json", &m).map_err(|e| e.to_string()));
            });
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("{swap}: opening waited"));
            let e = got.expect_err(swap);
            assert!(
                e.contains("was replaced while the snapshot was being read"),
                "{swap}: {e}"
            );
            fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn manifests_are_read_strictly() {
        let sum = "ab".repeat(32);
        let ok = parse_manifest(
            format!("{sum}  registry.json\n{sum} *_registry.toml\r\n").as_bytes(),
            false,
        )
        .unwrap();
        assert_eq!(ok.keys().collect::<Vec<_>>(), ["_registry.toml", "registry.json"]);
        for (text, why) in [
            (String::new(), "lists no file"),
            (format!("{sum}  ../x.toml\n"), "not a file name"),
            (format!("{sum}  .hidden.toml\n"), "not a file name"),
            (format!("{sum}  ns/a.html\n"), "not a file name"),
            (format!("{sum}  a.toml\n\n"), "line 2"),
            (format!("{sum} a.toml\n"), "two spaces"),
            (format!("{}  a.toml\n", "g".repeat(64)), "64 hex digits"),
            (format!("{sum}  a.toml\n{sum}  a.toml\n"), "listed twice"),
        ] {
            let e = parse_manifest(text.as_bytes(), false).unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
        }
        assert!(parse_manifest(format!("{sum}  ns/a.html\n").as_bytes(), true).is_ok());
        let e = parse_manifest(b"\xff", false).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
    }
}
