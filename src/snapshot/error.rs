//! The error of reading or writing snapshot files, with parser messages
//! cut to a bounded length.

/// A snapshot file problem: unreadable, malformed, or failing its checksum.
#[derive(Debug)]
pub struct SnapshotError(pub String);

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SnapshotError {}

/// The result of reading or writing snapshot files.
pub type Result<T, E = SnapshotError> = std::result::Result<T, E>;

pub(super) fn err<T>(message: impl Into<String>) -> Result<T> {
    Err(SnapshotError(message.into()))
}

/// The most characters of a parser's message an error keeps: a TOML error
/// quotes the offending line, which in a hostile file can be megabytes.
pub const MAX_ERROR_CHARS: usize = 2_000;

/// A parse error in `name`, its middle cut so that it keeps at most
/// [`MAX_ERROR_CHARS`] (the position comes first, what is wrong last).
pub(super) fn parse_error(name: &str, e: impl std::fmt::Display) -> SnapshotError {
    let text = crate::shorten::cut_middle(&e.to_string(), MAX_ERROR_CHARS, "MAX_ERROR_CHARS");
    SnapshotError(format!("{name}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_parser_messages_keep_their_start_and_end() {
        let message = format!("at line 1\n{}\nwhat is wrong", "x".repeat(100_000));
        let e = parse_error("a.toml", message).to_string();
        assert!(e.len() < MAX_ERROR_CHARS + 200, "{}", e.len());
        assert!(
            e.starts_with("a.toml: at line 1") && e.ends_with("what is wrong"),
            "{e}"
        );
    }
}
