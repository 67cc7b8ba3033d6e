//! The linear-time matcher: a regular expression compiled to a dense DFA
//! (regex-automata), walked byte by byte so that a mismatch is reported at
//! the first byte that cannot belong to any valid NSS.
//!
//! Compiling is bounded at every step ([`super::limits`]): the pattern is
//! parsed with a nesting limit (regex-syntax parses and translates with
//! explicit stacks; the NFA compiler of regex-automata recurses once per
//! level of nesting, so the limit also bounds its stack), repetition
//! counts are checked before anything is built from them, and the NFA,
//! the DFA and the work of determinizing have size limits that stop the
//! build as soon as they are reached.

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{self, Hir, HirKind, Look};

use super::limits::{
    MAX_ABNF_EXPANSION, MAX_DETERMINIZE_BYTES, MAX_DFA_BYTES, MAX_NFA_BYTES, MAX_REGEX_NESTING,
    MAX_REPETITION,
};

/// A compiled pattern that must match a whole string.
#[derive(Clone, Debug)]
pub struct Matcher {
    dfa: dense::DFA<Vec<u32>>,
    start: regex_automata::util::primitives::StateID,
}

/// Where and why a string does not match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The first byte that cannot continue any match (the length of the
    /// input when the input ends too early).
    pub offset: usize,
    /// True if and only if the input ended where more was expected.
    pub at_end: bool,
}

/// Refuses repetition counts above [`MAX_REPETITION`], visiting the HIR
/// with regex-syntax's heap-based walker.
struct RepetitionLimit;

impl hir::Visitor for RepetitionLimit {
    type Output = ();
    type Err = String;

    fn finish(self) -> Result<(), String> {
        Ok(())
    }

    fn visit_pre(&mut self, hir: &Hir) -> Result<(), String> {
        if let HirKind::Repetition(rep) = hir.kind() {
            let count = rep.max.unwrap_or(rep.min).max(rep.min);
            if count > MAX_REPETITION {
                return Err(format!(
                    "repetition count {count} is above the limit of {MAX_REPETITION} (MAX_REPETITION)"
                ));
            }
        }
        Ok(())
    }
}

/// A regex-syntax error in one line: where, and what.
fn syntax_error(err: &regex_syntax::Error) -> String {
    use regex_syntax::ast::ErrorKind;
    let (offset, what) = match err {
        regex_syntax::Error::Parse(e) => {
            let what = match e.kind() {
                ErrorKind::NestLimitExceeded(_) => format!(
                    "groups, classes and repetitions nest more than {MAX_REGEX_NESTING} deep \
                     (limit MAX_REGEX_NESTING)"
                ),
                kind => kind.to_string(),
            };
            (e.span().start.offset, what)
        }
        regex_syntax::Error::Translate(e) => (e.span().start.offset, e.kind().to_string()),
        other => (0, other.to_string()),
    };
    format!("regular expression error at byte {offset}: {what}")
}

impl Matcher {
    /// Compiles a regular expression (byte-oriented, no Unicode classes),
    /// which must then match the *whole* input.
    ///
    /// # Errors
    ///
    /// A syntax error (with its byte offset), or a pattern beyond a limit
    /// of [`super::limits`]: longer than [`MAX_ABNF_EXPANSION`], nesting
    /// deeper than [`MAX_REGEX_NESTING`], a repetition count above
    /// [`MAX_REPETITION`], an NFA above [`MAX_NFA_BYTES`], a DFA above
    /// [`MAX_DFA_BYTES`] or one that needs more than
    /// [`MAX_DETERMINIZE_BYTES`] to build. Each message names its limit.
    pub fn new(pattern: &str) -> Result<Matcher, String> {
        if pattern.len() > MAX_ABNF_EXPANSION {
            return Err(format!(
                "the pattern is {} bytes, more than the limit of {MAX_ABNF_EXPANSION} (MAX_ABNF_EXPANSION)",
                pattern.len()
            ));
        }
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .nest_limit(MAX_REGEX_NESTING)
            .build()
            .parse(pattern)
            .map_err(|e| syntax_error(&e))?;
        hir::visit(&hir, RepetitionLimit)?;
        // The whole input: the pattern, then the end of the text. Built as
        // a HIR, not by wrapping the text, so that no pattern can escape
        // the anchor.
        let whole = Hir::concat(vec![hir, Hir::look(Look::End)]);
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .nfa_size_limit(Some(MAX_NFA_BYTES)),
            )
            .build_from_hir(&whole)
            .map_err(|e| match e.size_limit() {
                Some(limit) => {
                    format!("the pattern needs an NFA larger than {limit} bytes (limit MAX_NFA_BYTES)")
                }
                None => format!("the pattern does not compile: {e}"),
            })?;
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(MAX_DFA_BYTES))
                    .determinize_size_limit(Some(MAX_DETERMINIZE_BYTES)),
            )
            .build_from_nfa(&nfa)
            .map_err(|e| {
                if !e.is_size_limit_exceeded() {
                    format!("the pattern does not compile: {e}")
                } else if e.to_string().starts_with("determinization") {
                    // regex-automata tells the two limits apart only in
                    // its message; any other size limit is the DFA's.
                    format!(
                        "the pattern needs more than {MAX_DETERMINIZE_BYTES} bytes to build its DFA \
                         (limit MAX_DETERMINIZE_BYTES)"
                    )
                } else {
                    format!("the pattern needs a DFA larger than {MAX_DFA_BYTES} bytes (limit MAX_DFA_BYTES)")
                }
            })?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .map_err(|e| e.to_string())?;
        Ok(Matcher { dfa, start })
    }

    /// Matches the whole of `input`.
    ///
    /// # Errors
    ///
    /// The first offending byte.
    pub fn check(&self, input: &[u8]) -> Result<(), Mismatch> {
        let mut state = self.start;
        for (i, &b) in input.iter().enumerate() {
            state = self.dfa.next_state(state, b);
            if self.dfa.is_dead_state(state) {
                return Err(Mismatch {
                    offset: i,
                    at_end: false,
                });
            }
        }
        state = self.dfa.next_eoi_state(state);
        if self.dfa.is_match_state(state) {
            Ok(())
        } else {
            Err(Mismatch {
                offset: input.len(),
                at_end: true,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_input_and_first_bad_byte() {
        let m = Matcher::new("[0-9]{3}-[a-z]+").unwrap();
        assert!(m.check(b"123-abc").is_ok());
        assert_eq!(m.check(b"12x-abc").unwrap_err().offset, 2);
        assert_eq!(
            m.check(b"123-").unwrap_err(),
            Mismatch {
                offset: 4,
                at_end: true
            }
        );
        assert_eq!(m.check(b"123-ab7").unwrap_err().offset, 6);
    }

    #[test]
    fn no_pattern_escapes_the_whole_input_anchor() {
        // Wrapped as text, `(?:a)|(?:b)\z` anchored only its second branch.
        let err = Matcher::new("a)|(?:b").unwrap_err();
        assert!(err.starts_with("regular expression error at byte 1"), "{err}");
        let m = Matcher::new("a|b").unwrap();
        assert!(m.check(b"a").is_ok());
        assert_eq!(m.check(b"ab").unwrap_err().offset, 1);
    }

    #[test]
    fn repetition_counts_are_limited_before_compiling() {
        assert!(Matcher::new("a{1000}").is_ok());
        let err = Matcher::new("a{1001}").unwrap_err();
        assert!(err.contains("(MAX_REPETITION)"), "{err}");
        let err = Matcher::new("a{2,4294967295}").unwrap_err();
        assert!(err.contains("4294967295 is above the limit"), "{err}");
    }

    #[test]
    fn too_large_patterns_are_refused() {
        // The classic exponential DFA: the n-th byte from the end is an "a".
        let err = Matcher::new("[ab]*a[ab]{24}").unwrap_err();
        assert!(
            err.contains("(limit MAX_DETERMINIZE_BYTES)") || err.contains("(limit MAX_DFA_BYTES)"),
            "{err}"
        );
    }
}
