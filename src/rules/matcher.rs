//! The linear-time matcher: a regular expression compiled to a dense DFA
//! (regex-automata), walked byte by byte so that a mismatch is reported at
//! the first byte that cannot belong to any valid NSS.

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::util::syntax;
use regex_automata::{Anchored, MatchKind};

/// The largest DFA a rule may compile to.
const DFA_SIZE_LIMIT: usize = 8 << 20;

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

impl Matcher {
    /// Compiles a regular expression (byte-oriented, no Unicode classes),
    /// which must then match the *whole* input.
    ///
    /// # Errors
    ///
    /// A syntax error, or a pattern whose DFA would be too large.
    pub fn new(pattern: &str) -> Result<Matcher, String> {
        let dfa = dense::Builder::new()
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .thompson(thompson::Config::new().utf8(false))
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                    .determinize_size_limit(Some(DFA_SIZE_LIMIT)),
            )
            .build(&format!(r"(?:{pattern})\z"))
            .map_err(|e| e.to_string())?;
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
    fn too_large_patterns_are_refused() {
        // The classic exponential DFA: the n-th byte from the end is an "a".
        assert!(Matcher::new("[ab]*a[ab]{24}").is_err());
    }
}
