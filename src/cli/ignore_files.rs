//! The ignore files `scan`'s walker (the `ignore` crate) reads, checked
//! before it reads them: `.ignore`, `.gitignore` and `.git/info/exclude`
//! (through a `.git` file's `gitdir:` and `commondir`, as the crate
//! follows them), in each directory the walk enters and in each root and
//! the directories above it. The crate reads them whole, following links,
//! and builds a matcher of up to about 1 KB of memory per byte of
//! patterns: a link to `/dev/zero` would take all memory, a FIFO would
//! block forever. So each must be a regular file (links followed) of at
//! most [`MAX_IGNORE_FILE_BYTES`], and those of a directory and of every
//! directory above it at most [`MAX_IGNORE_PATH_BYTES`] together (their
//! matchers live together while the walk is below them).

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The largest ignore file read. Measured with `**/xN/**` patterns, the
/// costliest shape found (`urnreg scan -j1 t` under `/usr/bin/time -f %M`,
/// `t/.gitignore` of that many bytes): 64 KiB, 71 MB resident; 128 KiB,
/// 112 MB; 256 KiB, 199 MB (10 MB without it).
pub const MAX_IGNORE_FILE_BYTES: u64 = 64 << 10;

/// The most bytes of ignore files a directory and the directories above
/// it may hold together: about 200 MB of matchers at worst.
pub const MAX_IGNORE_PATH_BYTES: u64 = 256 << 10;

/// What the walk has admitted: for each directory whose ignore files, with
/// those above it, hold any bytes, how many.
#[derive(Default)]
pub struct IgnoreGuard {
    held: Mutex<HashMap<PathBuf, u64>>,
}

impl IgnoreGuard {
    /// Checks a root of the walk, and the directories above it (as the
    /// crate reads them: those of its canonical path). `Err` says why it
    /// cannot be walked with its ignore files.
    pub fn admit_root(&self, root: &Path) -> Result<(), String> {
        if !root.is_dir() {
            // A file named on the command line: no ignore file is read.
            return Ok(());
        }
        let refused = |why: String| {
            format!(
                "{why}: {} lies below it: nothing is scanned; --no-ignore reads no ignore file",
                root.display()
            )
        };
        let mut total = 0;
        if let Ok(canonical) = root.canonicalize() {
            let above: Vec<&Path> = canonical.ancestors().skip(1).collect();
            for dir in above.into_iter().rev() {
                total += ignore_bytes(dir).map_err(refused)?;
            }
        }
        self.admit_with(root, total)
    }

    /// Checks a directory met in the walk, before the walk enters it
    /// (`WalkBuilder::filter_entry`); its parent was admitted before it.
    pub fn admit(&self, dir: &Path) -> Result<(), String> {
        let above = dir.parent().map_or(0, |parent| {
            let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            held.get(parent).copied().unwrap_or(0)
        });
        self.admit_with(dir, above)
    }

    fn admit_with(&self, dir: &Path, above: u64) -> Result<(), String> {
        let refused = |why: String| {
            format!(
                "{why}: the directory {} is not scanned; --no-ignore reads no ignore file",
                dir.display()
            )
        };
        let total = above + ignore_bytes(dir).map_err(refused)?;
        if total > MAX_IGNORE_PATH_BYTES {
            return Err(refused(format!(
                "{}: its ignore files and those of the directories above it hold {total} bytes, over \
                 {MAX_IGNORE_PATH_BYTES} (MAX_IGNORE_PATH_BYTES)",
                dir.display()
            )));
        }
        if total > 0 {
            self.held
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(dir.to_path_buf(), total);
        }
        Ok(())
    }
}

/// The bytes of the ignore files the crate would read in `dir`, each
/// checked ([`checked_size`]).
fn ignore_bytes(dir: &Path) -> Result<u64, String> {
    let mut total = 0;
    for name in [".ignore", ".gitignore"] {
        total += checked_size(&dir.join(name))?.unwrap_or(0);
    }
    let git = dir.join(".git");
    let git_dir = match fs::metadata(&git) {
        Err(_) => return Ok(total),
        // A worktree's or submodule's `.git` file: `gitdir: PATH`, and
        // there a `commondir` file naming the repository's directory.
        Ok(meta) if meta.is_file() => {
            total += checked_size(&git)?.unwrap_or(0);
            let Some(git_dir) = first_line(&git).and_then(|l| l.strip_prefix("gitdir: ").map(PathBuf::from))
            else {
                return Ok(total);
            };
            let commondir = git_dir.join("commondir");
            let Some(size) = checked_size(&commondir)? else {
                return Ok(total);
            };
            total += size;
            match first_line(&commondir) {
                Some(line) if line.starts_with('.') => git_dir.join(line),
                Some(line) => PathBuf::from(line),
                None => return Ok(total),
            }
        }
        Ok(_) => git,
    };
    total += checked_size(&git_dir.join("info/exclude"))?.unwrap_or(0);
    Ok(total)
}

/// The size of the file at `path` if there is one: it must be a regular
/// file (a link followed) of at most [`MAX_IGNORE_FILE_BYTES`].
fn checked_size(path: &Path) -> Result<Option<u64>, String> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        // As the crate: a file that is not there, or cannot be reached, is
        // not read.
        Err(_) => return Ok(None),
    };
    let refused = |what: String| Err(format!("{}: {what}", path.display()));
    if !meta.is_file() {
        return refused(format!(
            "an ignore file must be a regular file of at most {MAX_IGNORE_FILE_BYTES} bytes \
             (MAX_IGNORE_FILE_BYTES), this is {}",
            kind_of(&meta.file_type())
        ));
    }
    if meta.len() > MAX_IGNORE_FILE_BYTES {
        return refused(format!(
            "an ignore file of {} bytes, over {MAX_IGNORE_FILE_BYTES} (MAX_IGNORE_FILE_BYTES)",
            meta.len()
        ));
    }
    Ok(Some(meta.len()))
}

/// The first line of a file already checked by [`checked_size`].
fn first_line(path: &Path) -> Option<String> {
    let file = fs::File::open(path).ok()?;
    let mut line = String::new();
    BufReader::new(file.take(MAX_IGNORE_FILE_BYTES))
        .read_line(&mut line)
        .ok()?;
    Some(line.trim_end_matches(['\n', '\r']).to_owned())
}

fn kind_of(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignore_files_past_their_limits_are_refused_naming_them() {
        let dir = std::env::temp_dir().join(format!("urnreg-ignore-guard-{}", std::process::id()));
        let sub = dir.join("sub");
        fs::create_dir_all(&sub).unwrap();
        let guard = IgnoreGuard::default();
        fs::write(dir.join(".gitignore"), "a".repeat(MAX_IGNORE_FILE_BYTES as usize)).unwrap();
        guard.admit(&dir).unwrap();
        fs::write(
            sub.join(".ignore"),
            "b".repeat(MAX_IGNORE_FILE_BYTES as usize + 1),
        )
        .unwrap();
        let err = guard.admit(&sub).unwrap_err();
        assert!(
            err.contains("MAX_IGNORE_FILE_BYTES") && err.contains(".ignore"),
            "{err}"
        );
        // Four files at the limit along one path pass; a fifth byte does not.
        fs::write(sub.join(".ignore"), "b".repeat(MAX_IGNORE_FILE_BYTES as usize)).unwrap();
        fs::write(sub.join(".gitignore"), "c".repeat(MAX_IGNORE_FILE_BYTES as usize)).unwrap();
        fs::create_dir_all(sub.join(".git/info")).unwrap();
        fs::write(
            sub.join(".git/info/exclude"),
            "d".repeat(MAX_IGNORE_FILE_BYTES as usize),
        )
        .unwrap();
        guard.admit(&sub).unwrap();
        let deeper = sub.join("deeper");
        fs::create_dir_all(&deeper).unwrap();
        fs::write(deeper.join(".ignore"), "e").unwrap();
        let err = guard.admit(&deeper).unwrap_err();
        assert!(err.contains("MAX_IGNORE_PATH_BYTES"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
