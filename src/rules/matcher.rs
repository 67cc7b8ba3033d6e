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

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{self, Hir, HirKind, Look};

use super::limits::{
    MAX_ABNF_EXPANSION, MAX_DETERMINIZE_BYTES, MAX_DFA_BYTES, MAX_NFA_BYTES, MAX_REGEX_NESTING,
    MAX_REPETITION,
};

/// A compiled pattern that must match a whole string.
#[derive(Debug)]
pub struct Matcher {
    dfa: Table,
    start: StateID,
    /// A faster way to say whether the DFA matches: built once the
    /// matcher has been used [`PAIRS_AFTER`] times (a namespace met a few
    /// times in a short run never pays for it).
    fast: OnceLock<Option<Fast>>,
    /// Uses so far, counted until the fast walk is built.
    uses: AtomicU32,
    /// [`Matcher::admits_in_part`]'s answers by the state a prefix ends
    /// in, byte and separator (a scan asks again for every URN of a
    /// namespace; the walk over the states is done once for each state),
    /// at most [`MOST_ADMITS`] of them.
    admits: Mutex<HashMap<(StateID, u8, u8), bool>>,
}

/// The most answers a matcher keeps of [`Matcher::admits_in_part`].
const MOST_ADMITS: usize = 4096;

/// The uses of a matcher after which its fast walk is built.
const PAIRS_AFTER: u32 = 64;

/// The DFA's transition table: built here, or shipped in the binary
/// (`build.rs`) and read in place.
#[derive(Clone, Debug)]
enum Table {
    Built(dense::DFA<Vec<u32>>),
    Shipped(dense::DFA<&'static [u32]>),
}

impl Clone for Matcher {
    fn clone(&self) -> Matcher {
        Matcher {
            dfa: self.dfa.clone(),
            start: self.start,
            fast: self.fast.clone(),
            uses: AtomicU32::new(self.uses.load(Ordering::Relaxed)),
            admits: Mutex::new(HashMap::new()),
        }
    }
}

/// Where `input` stops matching `dfa` from `start`, byte by byte.
fn walk<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID, input: &[u8]) -> Result<(), Mismatch> {
    let mut state = start;
    for (i, &b) in input.iter().enumerate() {
        state = dfa.next_state(state, b);
        if dfa.is_dead_state(state) {
            return Err(Mismatch {
                offset: i,
                at_end: false,
            });
        }
    }
    if dfa.is_match_state(dfa.next_eoi_state(state)) {
        Ok(())
    } else {
        Err(Mismatch {
            offset: input.len(),
            at_end: true,
        })
    }
}

/// Where each byte leads from `state` (`None`: nowhere, the dead state):
/// one transition per byte class (the bytes of a class all lead to one
/// state), then each byte takes its class's answer.
fn next_states<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, state: StateID) -> [Option<StateID>; 256] {
    let classes = dfa.byte_classes();
    let mut by_class = [None; 256];
    for b in classes.representatives(0..=255u8) {
        if let Some(b) = b.as_u8() {
            let next = dfa.next_state(state, b);
            by_class[usize::from(classes.get(b))] = Some(next).filter(|&s| !dfa.is_dead_state(s));
        }
    }
    let mut next = [None; 256];
    for (b, slot) in (0..=255u8).zip(next.iter_mut()) {
        *slot = by_class[usize::from(classes.get(b))];
    }
    next
}

/// [`Matcher::expected_after`]: walks `prefix`, then tries each byte.
fn expected_after<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID, prefix: &[u8]) -> [bool; 256] {
    let state = state_after(dfa, start, prefix);
    let mut expected = [false; 256];
    if dfa.is_dead_state(state) {
        return expected;
    }
    for (slot, next) in expected.iter_mut().zip(next_states(dfa, state)) {
        *slot = next.is_some();
    }
    expected
}

/// The state most of the bytes `next` lists lead to: where more of the
/// same characters go (`None` when none leads anywhere).
fn most_lead_to(next: &[Option<StateID>; 256]) -> Option<StateID> {
    let mut counts: Vec<(StateID, usize)> = Vec::new();
    for s in next.iter().flatten() {
        match counts.iter_mut().find(|(t, _)| t == s) {
            Some((_, n)) => *n += 1,
            None => counts.push((*s, 1)),
        }
    }
    counts.iter().max_by_key(|&&(_, n)| n).map(|&(s, _)| s)
}

/// Whether some `%HH` escape (upper-case hex, as the rules see an NSS)
/// leads from `state` to `target`: a syntax that takes only a few escapes
/// (RFC 3151's `%2F`, `%3A`, ...) takes them as more of the same.
fn an_escape_leads_to<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, state: StateID, target: StateID) -> bool {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let after_percent = dfa.next_state(state, b'%');
    if dfa.is_dead_state(after_percent) {
        return false;
    }
    HEX.iter().any(|&h| {
        let s = dfa.next_state(after_percent, h);
        !dfa.is_dead_state(s) && HEX.iter().any(|&l| dfa.next_state(s, l) == target)
    })
}

/// [`Matcher::onward_after`]: the expected bytes that lead elsewhere
/// than most of them do (more of the same characters lead to one state;
/// a `%HH` escape that gets there too is one of them).
fn onward_after<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID, prefix: &[u8]) -> [bool; 256] {
    let state = state_after(dfa, start, prefix);
    let mut onward = [false; 256];
    if dfa.is_dead_state(state) {
        return onward;
    }
    let next = next_states(dfa, state);
    let Some(same) = most_lead_to(&next) else {
        return onward;
    };
    let escape_is_same = an_escape_leads_to(dfa, state, same);
    for (b, slot) in (0..=255u8).zip(onward.iter_mut()) {
        *slot = next[usize::from(b)].is_some_and(|s| s != same) && !(b == b'%' && escape_is_same);
    }
    onward
}

/// [`Matcher::after_same_characters`]: the character before `offset` (a
/// byte, or a `%HH` escape ending there) is one of the characters that
/// most bytes continue with: written again, it leads where they lead.
/// Not after a separator, whichever byte the syntax separates with (':'
/// in most NSSs, '+' in RFC 3151's), nor at the start.
fn after_same_characters<T: AsRef<[u32]>>(
    dfa: &dense::DFA<T>,
    start: StateID,
    input: &[u8],
    offset: usize,
) -> bool {
    let offset = offset.min(input.len());
    if offset == 0 {
        return false;
    }
    let state = state_after(dfa, start, &input[..offset]);
    if dfa.is_dead_state(state) {
        return false;
    }
    let Some(same) = most_lead_to(&next_states(dfa, state)) else {
        return false;
    };
    let escape = offset >= 3
        && input[offset - 3] == b'%'
        && input[offset - 2].is_ascii_hexdigit()
        && input[offset - 1].is_ascii_hexdigit();
    let last = if escape {
        &input[offset - 3..offset]
    } else {
        &input[offset - 1..offset]
    };
    state_after(dfa, state, last) == same
}

/// The state `dfa` is in after `prefix`, from `start`.
fn state_after<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID, prefix: &[u8]) -> StateID {
    prefix.iter().fold(start, |state, &b| dfa.next_state(state, b))
}

/// [`Matcher::admits_in_part`]: a state reachable from `state` through
/// bytes other than `sep` takes `byte` on the way to a match. Each state
/// is visited once.
fn admits_in_part<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, state: StateID, byte: u8, sep: u8) -> bool {
    let classes = dfa.byte_classes();
    let representatives: Vec<u8> = classes
        .representatives(0..=255u8)
        .filter_map(|b| b.as_u8())
        .filter(|&b| classes.get(b) != classes.get(sep))
        .collect();
    let mut seen = HashSet::from([state]);
    let mut todo = vec![state];
    while let Some(state) = todo.pop() {
        if dfa.is_dead_state(state) {
            continue;
        }
        if !dfa.is_dead_state(dfa.next_state(state, byte)) {
            return true;
        }
        for &b in &representatives {
            let next = dfa.next_state(state, b);
            if !dfa.is_dead_state(next) && seen.insert(next) {
                todo.push(next);
            }
        }
    }
    false
}

/// The most bytes [`Matcher::forced_after`] gives.
const MOST_FORCED: usize = 24;

/// [`Matcher::forced_after`]: follows the bytes the syntax leaves no
/// choice about (one byte, or one letter in either case: written in lower
/// case), up to a choice.
fn forced_after<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID, prefix: &[u8]) -> Vec<u8> {
    let mut state = state_after(dfa, start, prefix);
    let mut forced = Vec::new();
    let mut chose = false;
    while !dfa.is_dead_state(state) && forced.len() < MOST_FORCED {
        // The live bytes, as far as two of them (more is a choice).
        let mut live = [0u8; 3];
        let mut count = 0;
        for (b, next) in (0..=255u8).zip(next_states(dfa, state)) {
            if next.is_some() {
                if count < live.len() {
                    live[count] = b;
                }
                count += 1;
            }
        }
        let one = match live[..count.min(3)] {
            [b] => b,
            [a, b] if a.is_ascii_uppercase() && b == a.to_ascii_lowercase() => b,
            _ => {
                chose = count > 0;
                break;
            }
        };
        forced.push(one);
        state = dfa.next_state(state, one);
    }
    // A choice in the middle of a word (`std:i`, then `iso` or `iec`)
    // leaves the word out: the bytes up to its separator.
    if chose
        && forced.last().is_some_and(u8::is_ascii_alphanumeric)
        && let Some(sep) = forced.iter().rposition(|b| !b.is_ascii_alphanumeric())
    {
        forced.truncate(sep + 1);
    }
    forced
}

/// The most entries of a [`Pairs`] table (states x a row of classes x
/// classes, padded to a power of two): 256 KiB at most, and a few KiB for
/// the registered namespaces. A larger DFA is walked byte by byte.
const MAX_PAIR_ENTRIES: usize = 1 << 16;

/// A DFA as a table of byte *pairs*: one lookup moves two bytes on, so a
/// walk has half as many dependent loads (the cost of a DFA walk is one
/// load's latency per step, not the work per step). A state is written as
/// its row in `pair`: its number shifted left by `shift`, a row being
/// `classes * classes` entries padded to a power of two so that the
/// number comes back by a shift (a division measured a third of a walk).
#[derive(Clone, Debug)]
struct Pairs {
    /// A byte's class, times the number of classes (the first of a pair).
    first: [u32; 256],
    /// A byte's class (the second of a pair, or a last odd byte).
    second: [u32; 256],
    classes: usize,
    /// log2 of the row length.
    shift: u32,
    /// Row of a state + first + second: the state two bytes on.
    pair: Box<[u32]>,
    /// Number of a state * classes + class: the state one byte on.
    single: Box<[u32]>,
    /// By state number: the input may end in this state.
    accept: Box<[bool]>,
    dead: u32,
}

impl Pairs {
    /// Builds the pair table of `dfa` from `start`, or `None` when it would
    /// have more than [`MAX_PAIR_ENTRIES`] entries.
    fn new<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID) -> Option<Pairs> {
        let byte_classes = dfa.byte_classes();
        // Without the end-of-input class.
        let classes = byte_classes.alphabet_len() - 1;
        let mut representative = vec![0u8; classes];
        let mut class_of = [0u32; 256];
        for b in (0..=255u8).rev() {
            let class = usize::from(byte_classes.get(b));
            representative[class] = b;
            class_of[usize::from(b)] = class as u32;
        }
        let stride = (classes * classes).next_power_of_two();
        let shift = stride.trailing_zeros();
        // Number the states reachable from the start, breadth first. A
        // dense DFA's state ids are its table offsets (multiples of its
        // stride): shifted right, they index a plain vector, no hashing.
        let index = |id: StateID| id.as_usize() >> dfa.stride2();
        const UNSEEN: usize = usize::MAX;
        let mut number = vec![UNSEEN; index(start) + 1];
        let mut states = vec![start];
        number[index(start)] = 0;
        let mut i = 0;
        while i < states.len() {
            for &b in &representative {
                let next = dfa.next_state(states[i], b);
                let at = index(next);
                if at >= number.len() {
                    number.resize(at + 1, UNSEEN);
                }
                if number[at] == UNSEEN {
                    if (states.len() + 1) * stride > MAX_PAIR_ENTRIES {
                        return None;
                    }
                    number[at] = states.len();
                    states.push(next);
                }
            }
            i += 1;
        }
        let row = |id: StateID| (number[index(id)] << shift) as u32;
        let mut pair = Vec::with_capacity(states.len() * stride);
        let mut single = Vec::with_capacity(states.len() * classes);
        for &state in &states {
            for &b1 in &representative {
                let middle = dfa.next_state(state, b1);
                single.push(row(middle));
                for &b2 in &representative {
                    pair.push(row(dfa.next_state(middle, b2)));
                }
            }
            // The padding of the row; never read.
            pair.resize(pair.len() + stride - classes * classes, 0);
        }
        let accept = states
            .iter()
            .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s)))
            .collect();
        // The dead state, if the pattern has one: a walk can stop there.
        let dead = states
            .iter()
            .position(|&s| dfa.is_dead_state(s))
            .map_or(u32::MAX, |n| (n << shift) as u32);
        let mut first = [0u32; 256];
        for (f, c) in first.iter_mut().zip(&class_of) {
            *f = c * classes as u32;
        }
        Some(Pairs {
            first,
            second: class_of,
            classes,
            shift,
            pair: pair.into_boxed_slice(),
            single: single.into_boxed_slice(),
            accept,
            dead,
        })
    }

    /// Returns true if and only if the DFA matches the whole of `input`.
    fn matches(&self, input: &[u8]) -> bool {
        // The start state is number 0: its row is 0.
        let mut state = 0;
        let mut two = input.chunks_exact(2);
        for p in &mut two {
            let at = state + self.first[usize::from(p[0])] + self.second[usize::from(p[1])];
            state = self.pair[at as usize];
            if state == self.dead {
                return false;
            }
        }
        if let [last] = two.remainder() {
            let number = (state >> self.shift) as usize;
            state = self.single[number * self.classes + self.second[usize::from(*last)] as usize];
        }
        self.accept[(state >> self.shift) as usize]
    }
}

/// The fast walk of a matcher.
#[derive(Clone, Debug)]
enum Fast {
    /// Every match has one length and one set of bytes at each position.
    Chain(Box<Chain>),
    /// Two bytes a step.
    Pairs(Box<Pairs>),
}

impl Fast {
    fn new<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID) -> Option<Fast> {
        Chain::new(dfa, start)
            .map(|c| Fast::Chain(Box::new(c)))
            .or_else(|| Pairs::new(dfa, start).map(|p| Fast::Pairs(Box::new(p))))
    }

    fn matches(&self, input: &[u8]) -> bool {
        match self {
            Fast::Chain(c) => c.matches(input),
            Fast::Pairs(p) => p.matches(input),
        }
    }
}

/// The longest match (in bytes) of a pattern read as a [`Chain`].
const MAX_CHAIN: usize = 256;

/// A DFA whose matches all have one length, each position with its own
/// set of bytes (a UUID's 8-4-4-4-12 hex digits and hyphens, a fixed-form
/// code): checked position by position, each byte on its own. A walk
/// waits for each step's state before the next; these checks do not wait
/// for one another.
#[derive(Clone, Debug)]
struct Chain {
    /// Per byte: a bit for each of the (at most eight) sets it is in.
    member: [u8; 256],
    /// Per position: the bit of the set its byte must be in.
    need: Box<[u8]>,
}

impl Chain {
    /// The chain of `dfa` from `start`, or `None` when some state has two
    /// ways on, the input may end anywhere but the last position, a state
    /// leads back to itself, or the chain is longer than [`MAX_CHAIN`] (a
    /// longer loop ends there) or has more than eight distinct sets. The
    /// pattern is anchored at the end of input (`Matcher::new`), so a
    /// state matches only on the end-of-input step, as asked here.
    fn new<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, start: StateID) -> Option<Chain> {
        let accepts = |s: StateID| dfa.is_match_state(dfa.next_eoi_state(s));
        let mut sets: Vec<[bool; 256]> = Vec::new();
        let mut need = Vec::new();
        let mut state = start;
        loop {
            let mut next = None;
            let mut set = [false; 256];
            for b in 0..=255u8 {
                let to = dfa.next_state(state, b);
                if dfa.is_dead_state(to) {
                    continue;
                }
                if next.is_some_and(|n| n != to) {
                    return None;
                }
                next = Some(to);
                set[usize::from(b)] = true;
            }
            let Some(next) = next else {
                // No way on: the chain ends here, and must match here.
                return (accepts(state) && !need.is_empty()).then(|| Chain::from_sets(&sets, need));
            };
            if accepts(state) || need.len() == MAX_CHAIN || next == state {
                return None;
            }
            let bit = match sets.iter().position(|s| *s == set) {
                Some(i) => i,
                None if sets.len() < 8 => {
                    sets.push(set);
                    sets.len() - 1
                }
                None => return None,
            };
            need.push(1u8 << bit);
            state = next;
        }
    }

    fn from_sets(sets: &[[bool; 256]], need: Vec<u8>) -> Chain {
        let mut member = [0u8; 256];
        for (bit, set) in sets.iter().enumerate() {
            for (m, &inside) in member.iter_mut().zip(set) {
                *m |= u8::from(inside) << bit;
            }
        }
        Chain {
            member,
            need: need.into_boxed_slice(),
        }
    }

    fn matches(&self, input: &[u8]) -> bool {
        input.len() == self.need.len()
            && input.iter().zip(&*self.need).fold(0u8, |bad, (&b, &need)| {
                bad | u8::from(self.member[usize::from(b)] & need == 0)
            }) == 0
    }
}

#[cfg(test)]
impl Matcher {
    /// Whether its fast walk, once earned, is a [`Chain`].
    pub(super) fn walks_as_chain(&self) -> bool {
        for _ in 0..=PAIRS_AFTER {
            let _ = self.check(b"");
        }
        matches!(self.fast.get().and_then(Option::as_ref), Some(Fast::Chain(_)))
    }
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
pub(crate) fn syntax_error(err: &regex_syntax::Error) -> String {
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
                    // Only whether and where a match fails is asked:
                    // capture states would only make determinizing slower.
                    .which_captures(thompson::WhichCaptures::None)
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
                    // The walks below are our own: the DFA's search
                    // acceleration would be analysed for nothing.
                    .accelerate(false)
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
        Matcher::from_dfa(Table::Built(dfa))
    }

    fn from_dfa(dfa: Table) -> Result<Matcher, String> {
        let config = start::Config::new().anchored(Anchored::Yes);
        let start = match &dfa {
            Table::Built(d) => d.start_state(&config),
            Table::Shipped(d) => d.start_state(&config),
        }
        .map_err(|e| e.to_string())?;
        Ok(Matcher {
            dfa,
            start,
            fast: OnceLock::new(),
            uses: AtomicU32::new(0),
            admits: Mutex::new(HashMap::new()),
        })
    }

    /// The DFA in regex-automata's serialized form (little-endian), as
    /// `build.rs` stores the shipped rules' DFAs.
    pub fn to_dfa_bytes(&self) -> Vec<u8> {
        match &self.dfa {
            Table::Built(d) => d.to_bytes_little_endian().0,
            Table::Shipped(d) => d.to_bytes_little_endian().0,
        }
    }

    /// A matcher from [`Matcher::to_dfa_bytes`] (`bytes` aligned to 4),
    /// read in place: the serialized DFA is checked as it is read; `None`
    /// if it is not one (or was written for another byte order).
    pub fn from_dfa_bytes(bytes: &'static [u8]) -> Option<Matcher> {
        let (dfa, _) = dense::DFA::from_bytes(bytes).ok()?;
        Matcher::from_dfa(Table::Shipped(dfa)).ok()
    }

    /// The fast walk, once the matcher has earned it.
    fn fast(&self) -> Option<&Fast> {
        if let Some(fast) = self.fast.get() {
            return fast.as_ref();
        }
        if self.uses.fetch_add(1, Ordering::Relaxed) < PAIRS_AFTER {
            return None;
        }
        self.fast
            .get_or_init(|| match &self.dfa {
                Table::Built(d) => Fast::new(d, self.start),
                Table::Shipped(d) => Fast::new(d, self.start),
            })
            .as_ref()
    }

    /// The bytes that could come after `input[..offset]` on the way to a
    /// match (for a message on a [`Mismatch`] at `offset`): a set of 256.
    pub fn expected_after(&self, input: &[u8], offset: usize) -> [bool; 256] {
        match &self.dfa {
            Table::Built(d) => expected_after(d, self.start, &input[..offset.min(input.len())]),
            Table::Shipped(d) => expected_after(d, self.start, &input[..offset.min(input.len())]),
        }
    }

    /// Of [`Matcher::expected_after`], the bytes that lead on to
    /// something else than most of them do (a ':' after a name, where more
    /// of the name's characters, escapes included, lead on in the name).
    pub fn onward_after(&self, input: &[u8], offset: usize) -> [bool; 256] {
        match &self.dfa {
            Table::Built(d) => onward_after(d, self.start, &input[..offset.min(input.len())]),
            Table::Shipped(d) => onward_after(d, self.start, &input[..offset.min(input.len())]),
        }
    }

    /// Whether `input[..offset]` ends in a character like those that
    /// most bytes continue it with (so a message may speak of "more of
    /// the same characters"): not at the start, nor right after a
    /// separator, whatever byte the syntax separates its parts with.
    pub fn after_same_characters(&self, input: &[u8], offset: usize) -> bool {
        match &self.dfa {
            Table::Built(d) => after_same_characters(d, self.start, input, offset),
            Table::Shipped(d) => after_same_characters(d, self.start, input, offset),
        }
    }

    /// The bytes that must follow `input[..offset]`, one after another,
    /// before the syntax offers a choice (`std:` at the start of an ISO
    /// NSS): empty when the next byte is already a choice.
    pub fn forced_after(&self, input: &[u8], offset: usize) -> Vec<u8> {
        match &self.dfa {
            Table::Built(d) => forced_after(d, self.start, &input[..offset.min(input.len())]),
            Table::Shipped(d) => forced_after(d, self.start, &input[..offset.min(input.len())]),
        }
    }

    /// Whether some input that starts with `prefix` and goes on to a
    /// match holds `byte` before its next `sep` (a ':' or the byte itself
    /// when they share a byte class: then it is never taken): can the part
    /// `prefix` ends in hold a '/'?
    pub fn admits_in_part(&self, prefix: &[u8], byte: u8, sep: u8) -> bool {
        let state = match &self.dfa {
            Table::Built(d) => state_after(d, self.start, prefix),
            Table::Shipped(d) => state_after(d, self.start, prefix),
        };
        let key = (state, byte, sep);
        if let Some(&known) = self.admits.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return known;
        }
        let answer = match &self.dfa {
            Table::Built(d) => admits_in_part(d, state, byte, sep),
            Table::Shipped(d) => admits_in_part(d, state, byte, sep),
        };
        let mut admits = self.admits.lock().unwrap_or_else(|e| e.into_inner());
        if admits.len() < MOST_ADMITS {
            admits.insert(key, answer);
        }
        answer
    }

    /// Matches the whole of `input`.
    ///
    /// # Errors
    ///
    /// The first offending byte.
    pub fn check(&self, input: &[u8]) -> Result<(), Mismatch> {
        // The fast walk says whether; the byte-wise one says where.
        if let Some(fast) = self.fast()
            && fast.matches(input)
        {
            return Ok(());
        }
        match &self.dfa {
            Table::Built(d) => walk(d, self.start, input),
            Table::Shipped(d) => walk(d, self.start, input),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expected bytes, found one class at a time, are the bytes with
    /// which some input still matches.
    #[test]
    fn expected_bytes_are_those_a_match_can_continue_with() {
        for (pattern, input) in [
            ("[0-9]{3}-[a-z]+", &b"12"[..]),
            ("ab|a[c-f]x", b"a"),
            ("x(y|z)*", b"xyz"),
            ("[^/]+/q", b"p"),
        ] {
            let m = Matcher::new(pattern).unwrap();
            let expected = m.expected_after(input, input.len());
            for b in 0..=255u8 {
                // The byte is taken: the input with it matches, or fails
                // only later (at its end).
                let mut probe = input.to_vec();
                probe.push(b);
                let continues = m
                    .check(&probe)
                    .map_or_else(|e| e.offset > input.len() || e.at_end, |()| true);
                assert_eq!(
                    expected[usize::from(b)],
                    continues,
                    "{pattern} after {input:?}: {b:#x}"
                );
            }
        }
    }

    #[test]
    fn a_byte_is_admitted_in_a_part_when_some_match_holds_it_there() {
        let m = Matcher::new("[0-9a-f]{8}(:[a-z/]+)?").unwrap();
        // After the hex part, '/' comes only past a ':'.
        assert!(!m.admits_in_part(b"0123abcd", b'/', b':'));
        assert!(!m.admits_in_part(b"0123", b'/', b':'));
        assert!(m.admits_in_part(b"0123abcd:x", b'/', b':'));
        assert!(m.admits_in_part(b"0123abcd:", b'/', b':'));
        // A dead prefix admits nothing.
        assert!(!m.admits_in_part(b"zz", b'/', b':'));
        assert!(
            Matcher::new("[a-z]+(/[a-z]+)*")
                .unwrap()
                .admits_in_part(b"ab", b'/', b':')
        );
    }

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

    /// The pair walk, the chain check (where the pattern is a chain) and
    /// the byte walk agree, on every length parity and on inputs that
    /// fail early, late or at the end.
    #[test]
    fn fast_walks_agree_with_byte_walk() {
        for (pattern, is_chain) in [
            ("[0-9]{3}-[a-z]+", false),
            ("(ab|cde)*f?", false),
            ("[0-9a-f]{8}-[0-9a-f]{4}", true),
            ("x(y|z)*", false),
            ("ab|ac", true),
            ("ab?", false),
            ("a|ab", false),
            ("[x-z]0(1|2)[a-f]", true),
        ] {
            let m = Matcher::new(pattern).unwrap();
            let Table::Built(dfa) = &m.dfa else {
                panic!("built")
            };
            let pairs = &Pairs::new(dfa, m.start).expect("a small table");
            let chain = Chain::new(dfa, m.start);
            assert_eq!(chain.is_some(), is_chain, "{pattern}");
            // Past PAIRS_AFTER uses, `check` goes through the fast walk.
            for _ in 0..=PAIRS_AFTER {
                let _ = m.check(b"");
            }
            let fast = m.fast.get().and_then(Option::as_ref);
            assert_eq!(matches!(fast, Some(Fast::Chain(_))), is_chain, "{pattern}");
            let alphabet = b"0123456789abcdefxyz-";
            let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
            for _ in 0..4 {
                let longer: Vec<Vec<u8>> = inputs
                    .iter()
                    .flat_map(|i| alphabet.iter().map(move |b| [i.as_slice(), &[*b]].concat()))
                    .collect();
                inputs.extend(longer.into_iter().filter(|i| i.len() <= 4));
                inputs.sort();
                inputs.dedup();
            }
            for extra in [
                "123-abc",
                "123-abcd",
                "ababcdef",
                "deadbeef-0123",
                "xyzyzzy",
                "xyzyzzy!",
                "deadbeef-012g",
                "deadbeef-01234",
                "Deadbeef-0123",
                "y02f",
                "y03f",
            ] {
                inputs.push(extra.as_bytes().to_vec());
            }
            for input in &inputs {
                let mut state = m.start;
                for &b in input {
                    state = dfa.next_state(state, b);
                }
                let slow = dfa.is_match_state(dfa.next_eoi_state(state));
                assert_eq!(
                    pairs.matches(input),
                    slow,
                    "{pattern} on {:?}",
                    String::from_utf8_lossy(input)
                );
                if let Some(chain) = &chain {
                    assert_eq!(chain.matches(input), slow, "{pattern} on {input:?}");
                }
                assert_eq!(m.check(input).is_ok(), slow);
            }
        }
    }

    /// A chain has at most eight sets of bytes and MAX_CHAIN positions;
    /// past either, the pairs walk it, and say the same.
    #[test]
    fn chains_stop_at_their_limits() {
        let digits = |n| (format!("[0-9]{{{n}}}"), vec![b'7'; n]);
        let cases = [
            ("abcdefgh".to_string(), b"abcdefgh".to_vec(), true),
            ("abcdefghi".to_string(), b"abcdefghi".to_vec(), false),
            (digits(MAX_CHAIN).0, digits(MAX_CHAIN).1, true),
            (digits(MAX_CHAIN + 1).0, digits(MAX_CHAIN + 1).1, false),
        ];
        for (pattern, input, is_chain) in cases {
            let m = Matcher::new(&pattern).unwrap();
            assert_eq!(m.walks_as_chain(), is_chain, "{pattern}");
            assert!(m.check(&input).is_ok(), "{pattern}");
            assert!(m.check(&input[1..]).is_err(), "{pattern}: one byte short");
        }
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
