//! A parser's message made short enough to show: a TOML error quotes the
//! offending line, which in a hostile file can be megabytes. The middle
//! goes (the position comes first in such a message, what is wrong last),
//! and the cut names the limit that made it.

/// `text` whole when it has at most `max` characters, else its first and
/// last `max / 2` with the number of characters cut between them and the
/// name of the limit (`limit`, as the README and docs/security.md name it).
pub(crate) fn cut_middle(text: &str, max: usize, limit: &str) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let half = max / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(count - half).collect();
    format!(
        "{head} [... {} characters cut, {limit} = {max} ...] {tail}",
        count - 2 * half
    )
}

#[cfg(test)]
mod tests {
    use super::cut_middle;

    #[test]
    fn keeps_short_text_and_cuts_the_middle_of_long_text() {
        assert_eq!(
            cut_middle("line 1, column 2: bad", 40, "MAX"),
            "line 1, column 2: bad"
        );
        let long = format!("line 1: {}é end", "x".repeat(1000));
        let cut = cut_middle(&long, 20, "MAX_X");
        assert_eq!(
            cut,
            format!(
                "line 1: xx [... {} characters cut, MAX_X = 20 ...] xxxxxé end",
                long.chars().count() - 20
            )
        );
    }
}
