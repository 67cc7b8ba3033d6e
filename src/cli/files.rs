//! Reading a command's input file (or stdin for `-`) as text, within a
//! size limit.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The text of `path` (stdin for `-`), at most `limit` bytes, and the name
/// to report it by.
///
/// # Errors
///
/// When it cannot be read, is larger than `limit` (found without reading
/// more than one byte past it) or is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> anyhow::Result<(String, String)> {
    let (reader, source): (Box<dyn Read>, String) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin()), "stdin".to_string())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        (Box::new(file), path.display().to_string())
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {source}"))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!("{source}: larger than the limit of {limit} bytes");
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{source} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((text, source))
}
