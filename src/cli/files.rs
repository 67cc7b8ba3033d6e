//! Reading a command's input file (or stdin for `-`) as text.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The text of `path` (stdin for `-`) and the name to report it by.
///
/// # Errors
///
/// When it cannot be read or is not UTF-8.
pub fn read_text(path: &Path) -> anyhow::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        Ok((text, "stdin".to_string()))
    } else {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Ok((text, path.display().to_string()))
    }
}
