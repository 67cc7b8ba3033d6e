//! The DFAs of the shipped rules, built once by `build.rs` (which compiles
//! every NSS syntax, practice form, recommendation and hint of `registry/` with
//! this crate's own ABNF compiler and matcher) and read here instead of
//! being built again at run time: determinizing is most of the cost of a
//! namespace's first use (about 0.3 ms each, 30 ms for the whole registry),
//! which a short run such as `scan` of a small tree pays for every
//! namespace it meets. A syntax is found by its text (its ABNF grammar and
//! start rule, or its regular expression), so rules from a database or a
//! snapshot that are the shipped ones use them too; any other syntax is
//! compiled as before.

use super::Matcher;

/// Keeps the serialized DFAs aligned as regex-automata reads them.
#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

static BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/rule_dfas.bin")));

/// (form, text, start rule, offset, length): `form` is `abnf` or `regex`.
static INDEX: &[(&str, &str, &str, usize, usize)] = include!(concat!(env!("OUT_DIR"), "/rule_dfas.rs"));

/// The shipped matcher of a syntax given as `abnf` (with its `start`
/// rule) or as `regex`, if `build.rs` built it.
pub(super) fn matcher(abnf: Option<&str>, start: Option<&str>, regex: Option<&str>) -> Option<Matcher> {
    let (form, text, start) = match (abnf, regex) {
        (Some(grammar), None) => ("abnf", grammar, start.unwrap_or("")),
        (None, Some(regex)) => ("regex", regex, ""),
        _ => return None,
    };
    let &(_, _, _, offset, len) = INDEX
        .iter()
        .find(|(f, t, s, _, _)| t.len() == text.len() && *f == form && *s == start && *t == text)?;
    Matcher::from_dfa_bytes(BLOB.0.get(offset..offset + len)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped syntax was built, and its stored DFA is the one the
    /// pattern compiles to (same verdicts on probes of its own examples).
    #[test]
    fn the_shipped_syntaxes_are_stored_and_agree_with_a_fresh_build() {
        assert!(INDEX.len() > 80, "{} DFAs stored", INDEX.len());
        for &(form, text, start, _, _) in INDEX {
            let stored = match form {
                "abnf" => matcher(Some(text), Some(start).filter(|s| !s.is_empty()), None),
                _ => matcher(None, None, Some(text)),
            }
            .expect("stored DFA reads back");
            let pattern = match form {
                "abnf" => {
                    super::super::abnf::compile(text, Some(start).filter(|s| !s.is_empty()))
                        .unwrap()
                        .pattern
                }
                _ => text.to_string(),
            };
            let fresh = Matcher::new(&pattern).unwrap();
            for probe in ["", "a", "0", "A-1", "x:y", "1.2.3", "abc:def:123", "%41", "urn"] {
                assert_eq!(
                    stored.check(probe.as_bytes()),
                    fresh.check(probe.as_bytes()),
                    "{text}: {probe}"
                );
            }
        }
        assert!(matcher(None, None, Some("no such syntax [0-9]")).is_none());
    }
}
