//! Reading a registration file (or stdin for `-`) as text, within the
//! size limit every command that reads one shares.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The largest registration file read (a registration is a few pages).
pub const MAX_REGISTRATION_BYTES: u64 = urnreg::registry::MAX_REGISTRATION_BYTES as u64;

/// The text of the registration file at `path` (stdin for `-`), and the
/// name to report it by: `lint`, `request`, `revise`, `amend`, `template
/// render` and their `--server` forms read it alike.
///
/// # Errors
///
/// When it cannot be read, is larger than [`MAX_REGISTRATION_BYTES`]
/// (found without reading more than one byte past it) or is not UTF-8.
pub fn read_registration_text(path: &Path) -> anyhow::Result<(String, String)> {
    let (reader, source): (Box<dyn Read>, String) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin()), "stdin".to_string())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        (Box::new(file), path.display().to_string())
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_REGISTRATION_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {source}"))?;
    if bytes.len() as u64 > MAX_REGISTRATION_BYTES {
        anyhow::bail!(
            "{source}: a registration file is at most {MAX_REGISTRATION_BYTES} bytes (MAX_REGISTRATION_BYTES)"
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{source} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((text, source))
}
