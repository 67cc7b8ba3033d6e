//! The validator: a URN is valid only if its NID is registered and its NSS
//! follows that namespace's rules (RFC 8141 section 1: "the syntactical
//! correctness of a name starting with 'urn:' is not sufficient").
//!
//! - [`Registry`]: the read model of the registry, the namespaces in force
//!   with their rules (the shipped one is [`Registry::embedded`]).
//! - [`Checker`]: checks URNs one after another against a registry (or the
//!   generic syntax only), remembering its NID suggestions.
//! - [`Report`]: what it says of one URN, with one [`Finding`] type for
//!   every layer.
//!
//! A check applies, in order: the generic parser, the NID lookup (an
//! unregistered NID is invalid; the nearest registered NID is suggested),
//! the namespace's NSS rule, and its equivalence refinements.

mod json;
mod namespace;
mod registry;
mod report;

use std::collections::HashMap;
use std::sync::Arc;

pub use namespace::{Kind, Namespace, Status};
use registry::UNREGISTERED_CACHE;
pub use registry::{NamespaceEntry, Registry};
pub use report::{Finding, FindingKind, Report, Severity};

use crate::rules::{CompiledRules, Practice, ViolationKind};
use crate::urn::{Component, Offsets, ParseError, ParseErrorKind, Syntax, Urn, WarningKind};

/// Checks URNs, one after another, against a registry or the generic
/// syntax only. Cheap to make; make one per thread.
///
/// ```
/// use urnreg::{Checker, Registry};
///
/// let mut checker = Checker::new(Registry::embedded());
/// let report = checker.check(b"urn:isnb:0451450523");
/// assert!(!report.is_valid());
/// assert_eq!(report.errors().next().unwrap().code(), "unregistered-nid");
/// assert!(report.errors().next().unwrap().to_string().contains("did you mean 'isbn'?"));
///
/// let mut syntax_only = Checker::syntax_only();
/// assert!(syntax_only.check(b"urn:isnb:0451450523").is_valid());
/// ```
#[derive(Debug)]
pub struct Checker<'r> {
    registry: Option<&'r Registry>,
    syntax: Syntax,
    warnings: bool,
    /// Findings carry their messages (off: kinds and offsets only).
    messages: bool,
    /// Forms valid only by the owner's practice are errors.
    strict: bool,
    /// The `unregistered-nid` message (with its suggestion) already made
    /// for an unregistered NID, as written. foldhash, seeded per process
    /// (the NIDs come from the input), in place of SipHash: -3% for
    /// `check -q`.
    unregistered: HashMap<NidKey, Arc<str>, foldhash::fast::RandomState>,
    /// The `generic-rules` notes, by namespace index.
    generic_notes: Vec<Option<Arc<str>>>,
}

/// A NID held in place as a map key: comparing keys behind pointers costs
/// a cache miss each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NidKey {
    len: u8,
    bytes: [u8; 32],
}

/// Hashes the bytes in use only (the hash costs by the byte).
impl std::hash::Hash for NidKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(&self.bytes[..usize::from(self.len)]);
    }
}

impl NidKey {
    /// The key of `nid`; `None` if it is longer than a NID can be (RFC 8141
    /// section 2: at most 32 characters).
    fn new(nid: &str) -> Option<NidKey> {
        let nid = nid.as_bytes();
        let mut bytes = [0; 32];
        bytes.get_mut(..nid.len())?.copy_from_slice(nid);
        Some(NidKey {
            len: nid.len() as u8,
            bytes,
        })
    }
}

impl<'r> Checker<'r> {
    /// A checker against `registry`, with the RFC 8141 grammar.
    pub fn new(registry: &'r Registry) -> Checker<'r> {
        Checker::with_registry(Some(registry))
    }

    /// A checker against `registry`, or of the generic syntax only when
    /// there is none.
    pub fn with_registry(registry: Option<&'r Registry>) -> Checker<'r> {
        Checker {
            registry,
            syntax: Syntax::Rfc8141,
            warnings: true,
            messages: true,
            strict: false,
            unregistered: HashMap::default(),
            generic_notes: Vec::new(),
        }
    }

    /// A checker of the generic syntax only (no registry).
    pub fn syntax_only() -> Checker<'static> {
        Checker::with_registry(None)
    }

    /// The same checker with another grammar (e.g. the legacy RFC 2141).
    pub fn with_syntax(mut self, syntax: Syntax) -> Checker<'r> {
        self.syntax = syntax;
        self
    }

    /// The same checker, without warnings of any layer (upper-case `URN:`,
    /// `%2c`, a withdrawn namespace, a component the namespace gives no
    /// meaning, ...) when only validity matters: it skips looking for them.
    /// Errors, validity and keys are unchanged.
    pub fn without_warnings(mut self) -> Checker<'r> {
        self.warnings = false;
        self
    }

    /// The same checker, making no messages: each finding keeps its kind
    /// and offset, its message is empty. For callers that only count
    /// findings or keep validity, keys and kinds (`check -q`, the Arrow
    /// verdicts): the "did you mean" search of an unregistered NID and
    /// the formatting of a rule's finding are skipped. Validity, errors'
    /// kinds and offsets, and keys are unchanged.
    pub fn without_messages(mut self) -> Checker<'r> {
        self.messages = false;
        self
    }

    /// The same checker, strict or not about the owner's practice: strict,
    /// a URN valid only by a form its namespace's owner publishes beyond
    /// the registration (the rules' `practice`) is invalid
    /// (`registration-deviation` is an error instead of a warning).
    ///
    /// ```
    /// use urnreg::{Checker, Registry};
    ///
    /// // A NewsML-G2 guid: IPTC's own form, without RFC 3085's RevisionId.
    /// let guid = "urn:newsml:iptc.org:20130517:catalog";
    /// let report = Checker::new(Registry::embedded()).check_str(guid);
    /// assert!(report.is_valid());
    /// assert_eq!(report.warnings().next().unwrap().code(), "registration-deviation");
    /// let report = Checker::new(Registry::embedded()).strict(true).check_str(guid);
    /// assert!(!report.is_valid());
    /// ```
    pub fn strict(mut self, strict: bool) -> Checker<'r> {
        self.strict = strict;
        self
    }

    /// The report on an input line a stream reader cut at `limit` bytes
    /// (see [`Report::line_too_long`]).
    pub fn line_too_long<'a>(&self, input: &'a [u8], limit: usize) -> Report<'a, 'r> {
        Report::line_too_long(input, limit, self.registry.is_some())
    }

    /// Checks one input (any bytes; they need not be UTF-8).
    pub fn check<'a>(&mut self, input: &'a [u8]) -> Report<'a, 'r> {
        let mut report = Report::empty(input);
        match Urn::parse_bytes(input, self.syntax) {
            Ok(urn) => self.check_urn_into(urn.as_str(), urn.offsets(), &mut report),
            Err(e) => self.unparsed_into(input, e, &mut report),
        }
        report
    }

    /// Checks one input given as text (the same as [`Checker::check`],
    /// without a UTF-8 check of its own).
    pub fn check_str<'a>(&mut self, input: &'a str) -> Report<'a, 'r> {
        let mut report = Report::empty(input.as_bytes());
        self.check_str_into(input, &mut report);
        report
    }

    /// Checks `input` into `report`, which then says what a fresh
    /// [`Checker::check_str`] would: for loops over many inputs that borrow
    /// from one buffer, such as the lines of a stream's chunk. The report
    /// is updated in place, field by field, instead of being made anew
    /// and moved (a report is a few hundred bytes).
    pub fn check_str_into<'a>(&mut self, input: &'a str, report: &mut Report<'a, 'r>) {
        // Matched here, not handed on as a `Result`: passing the parse
        // result by value to one more function measured 3-4% slower. The
        // offsets, not the `Urn`, are handed on: they go in a register,
        // where a `Urn` goes through memory and its reading stalled.
        match Urn::parse_offsets(input, self.syntax) {
            Ok(offsets) => self.check_urn_into(input, offsets, report),
            Err(e) => self.unparsed_into(input.as_bytes(), e, report),
        }
    }

    /// Fills `report` for an input the generic parser refuses: its parse
    /// error, said in the words of a hint of the input's namespace when
    /// the NSS as written takes a known wrong form (a UUID in braces).
    #[cold]
    #[inline(never)]
    fn unparsed_into<'a>(&self, input: &'a [u8], e: ParseError, report: &mut Report<'a, 'r>) {
        let hint = match self.registry {
            _ if !self.messages => None,
            Some(registry) => unparsed_hint(registry, input, &e)
                .or_else(|| wrapper_hint(input, &e, self.syntax))
                .or_else(|| dash_hint(input, &e)),
            None => wrapper_hint(input, &e, self.syntax).or_else(|| dash_hint(input, &e)),
        };
        let after_nid = !matches!(e.component(), Component::Scheme | Component::Nid);
        match hint {
            Some(message) => report.reset_unparsed_with(input, e, message, self.registry.is_some()),
            None => report.reset_unparsed(input, e, self.registry.is_some()),
        }
        // Refused only after `urn:` NID `:` (in the NSS or a component):
        // the NID the grammar took, and its namespace, are still the
        // input's (the JSON's `nid` and `namespace`, the summary's count).
        if !after_nid {
            return;
        }
        const NID_START: usize = "urn:".len();
        if let Some(colon) = input
            .get(NID_START..)
            .and_then(|rest| memchr::memchr(b':', rest))
            .map(|at| NID_START + at)
        {
            let ns = self
                .registry
                .and_then(|r| r.namespace(std::str::from_utf8(&input[NID_START..colon]).ok()?));
            report.set_unparsed_nid(colon, ns);
        }
    }

    /// Fills `report` for a URN that parsed: its warnings and what the
    /// registry says of it.
    fn check_urn_into<'a>(&mut self, input: &'a str, offsets: Offsets, report: &mut Report<'a, 'r>) {
        let urn = Urn::from_offsets(input, offsets, self.syntax);
        report.reset_parsed(input.as_bytes(), urn, self.warnings);
        if let Some(registry) = self.registry {
            report.set_registry_checked();
            self.check_namespace(registry, &urn, report);
        }
    }

    fn check_namespace<'a>(&mut self, registry: &'r Registry, urn: &Urn<'a>, report: &mut Report<'a, 'r>) {
        if self.warnings
            && let Some(r) = urn.components().r
        {
            // Directives in the r-component: warnings only (2012 URN draft
            // section 2.3; RFC 8141 section 2.3.1 defines only its syntax).
            let text = &urn.as_str()[r.clone()];
            for issue in crate::resolve::directives(text, urn.nid(), registry.query()).1 {
                report.push(Finding::new(
                    FindingKind::Directive(issue.kind),
                    r.start + issue.offset,
                    issue.message,
                ));
            }
        }
        let Some(ns) = registry.namespace(urn.nid()) else {
            if self.messages {
                match doubled_scheme(registry, urn) {
                    Some(message) => {
                        // The error names the reserved NID already: no
                        // `reserved-nid` warning to say it again.
                        report.drop_warning(WarningKind::ReservedNid);
                        report.push(Finding::new(FindingKind::UnregisteredNid, 4, message));
                    }
                    None => {
                        let message = self.unregistered_message(registry, urn.nid());
                        report.push_shared(FindingKind::UnregisteredNid, 4, message);
                    }
                }
            } else {
                report.push(Finding::new(FindingKind::UnregisteredNid, 4, String::new()));
            }
            return;
        };
        if self.warnings && ns.status() != Status::Registered {
            report.push(Finding::new(
                FindingKind::WithdrawnNid,
                4,
                format!(
                    "the namespace '{}' is {} (IANA URN Namespaces registry)",
                    ns.nid(),
                    ns.status().as_str()
                ),
            ));
        }
        match ns.rules() {
            Err(e) => {
                report.set_namespace(ns, None);
                report.push(Finding::new(FindingKind::BadRule, urn.nss_start(), e.to_string()));
            }
            Ok(None) => {
                report.set_namespace(ns, None);
                if self.warnings {
                    let note = self.generic_note(ns);
                    report.push_shared(FindingKind::GenericRules, urn.nss_start(), note);
                }
            }
            Ok(Some(rules)) => {
                report.set_namespace(ns, Some(rules));
                // The NID as the registration writes it (RFC 3044's
                // `URN:ISSN:`): no `nid-case` warning (RFC 8141 section
                // 3.1 lower-cases it for comparison only), and no
                // `scheme-case` one for the `URN:` written with it.
                if self.warnings && rules.writes_nid(urn.nid()) {
                    report.drop_warning(WarningKind::NidCase);
                    if urn.as_str().starts_with("URN:") {
                        report.drop_warning(WarningKind::SchemeCase);
                    }
                }
                let mut valid = true;
                // A form valid only by the owner's practice is not one the
                // registration's recommendations speak of.
                let mut by_practice = false;
                if let Some(v) = rules.check_with(urn, self.messages) {
                    match rules.practice_for(urn) {
                        // Valid by the owner's practice: keyed by that
                        // form's equivalence, and said.
                        Some(practice) => {
                            by_practice = true;
                            report.set_namespace(ns, Some(practice.rules()));
                            if self.warnings || self.strict {
                                let kind = FindingKind::RegistrationDeviation { strict: self.strict };
                                report.push(Finding::new(kind, v.offset, deviation_message(practice, rules)));
                            }
                        }
                        None => {
                            valid = false;
                            let kind = match v.kind {
                                ViolationKind::Check => FindingKind::NssCheck,
                                ViolationKind::Syntax => FindingKind::NssSyntax,
                            };
                            report.push(Finding::new(kind, v.offset, v.message));
                        }
                    }
                }
                if !self.warnings {
                    return;
                }
                if valid && !by_practice {
                    // The registration's SHOULDs (RFC 2119): warnings only,
                    // about the forms the registration defines.
                    for (rule, should) in (0..=u8::MAX).zip(rules.should()) {
                        if let Some(offset) = should.departure(urn) {
                            let kind = FindingKind::NssShould { rule };
                            report.push(Finding::new(kind, offset, should.message(urn)));
                        }
                    }
                }
                for (offset, name) in rules.unused_components(urn) {
                    report.push(Finding::new(
                        FindingKind::ComponentUnused,
                        offset,
                        format!(
                            "the '{}' namespace gives the {name} no meaning ({})",
                            ns.nid(),
                            rules.cite()
                        ),
                    ));
                }
            }
        }
    }

    /// The `generic-rules` note of `ns`, as this checker's own copy (see
    /// [`Checker::unregistered_message`]).
    fn generic_note(&mut self, ns: &Namespace) -> Arc<str> {
        let i = ns.index();
        if i >= self.generic_notes.len() {
            self.generic_notes.resize(i + 1, None);
        }
        self.generic_notes[i]
            .get_or_insert_with(|| Arc::from(&*ns.generic_note()))
            .clone()
    }

    /// The message for an unregistered NID: from this checker's own
    /// memory, else from the registry's (shared by threads).
    fn unregistered_message(&mut self, registry: &'r Registry, nid: &str) -> Arc<str> {
        let Some(key) = NidKey::new(nid) else {
            return registry.unregistered_message(nid);
        };
        if let Some(message) = self.unregistered.get(&key) {
            return message.clone();
        }
        // A copy of our own: the registry's is shared by every thread, and
        // counting references to one value from several threads makes
        // their cores fight over its cache line on every URN.
        let message: Arc<str> = Arc::from(&*registry.unregistered_message(nid));
        if self.unregistered.len() >= UNREGISTERED_CACHE {
            self.unregistered.clear();
        }
        self.unregistered.insert(key, message.clone());
        message
    }
}

/// The message of a hint of the namespace `input` names, when its NSS as
/// written takes the hint's wrong form (the generic parser refused it
/// with `e`).
fn unparsed_hint(registry: &Registry, input: &[u8], e: &ParseError) -> Option<String> {
    let (nid, nss) = crate::rules::written_nss(std::str::from_utf8(input).ok()?)?;
    let rules = registry.namespace(nid)?.rules().ok()??;
    rules.hint_for_unparsed(nid, nss, e.offset(), input.len() - nss.len())
}

/// For `urn:urn:NID:...` whose inner NID is registered: the scheme is
/// written twice (the NID `urn` is reserved, and no NID).
#[cold]
fn doubled_scheme(registry: &Registry, urn: &Urn<'_>) -> Option<String> {
    if !urn.nid().eq_ignore_ascii_case("urn") {
        return None;
    }
    let (inner, _) = urn.nss().split_once(':')?;
    registry.namespace(inner)?;
    Some(format!(
        "the NID 'urn' at byte 4 is reserved: 'urn:' is written twice, the URN starts at byte 4 with 'urn:{inner}:' (RFC 8141 section 2)"
    ))
}

/// The character that closes `open` when a URN is quoted or bracketed
/// in text: ASCII's, and typographic quotes, guillemets and CJK brackets
/// (text copied from a word processor or a web page).
fn closer_of(open: char) -> Option<char> {
    Some(match open {
        '<' => '>',
        '"' | '\'' => open,
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '\u{201C}' => '\u{201D}', // “ ”
        '\u{2018}' => '\u{2019}', // ‘ ’
        '\u{201E}' => '\u{201C}', // „ “ (German)
        '\u{00AB}' => '\u{00BB}', // « »
        '\u{2039}' => '\u{203A}', // ‹ ›
        '\u{300C}' => '\u{300D}', // 「 」
        '\u{300E}' => '\u{300F}', // 『 』
        '\u{FF08}' => '\u{FF09}', // （ ）
        _ => return None,
    })
}

/// A character that may follow a URN in text and is no part of it: white
/// space (no-break spaces too), a closing quote or bracket, and beyond
/// ASCII the ellipsis, a zero-width space and the CJK full stop and comma.
fn ends_text(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '>' | '"'
                | '\''
                | ')'
                | ']'
                | '}'
                | '\u{201D}'
                | '\u{2019}'
                | '\u{201C}'
                | '\u{00BB}'
                | '\u{203A}'
                | '\u{300D}'
                | '\u{300F}'
                | '\u{FF09}'
                | '\u{2026}'
                | '\u{200B}'
                | '\u{3001}'
                | '\u{3002}'
                | '\u{FF0C}'
                | '\u{FF0E}'
                | '.'
                | ','
                | ';'
                | '!'
        )
}

/// For an input the generic parser refuses, what is around a URN in it
/// that is no part of it (RFC 3986 Appendix C: the double quotes, angle
/// brackets and white space that delimit a URI in text "do not form part
/// of the URI"): a wrapper before it, or only such characters after it
/// (typographic quotes and the like too: a raw non-ASCII character is
/// never part of a URN, RFC 8141 section 2).
fn wrapper_hint(input: &[u8], e: &ParseError, syntax: Syntax) -> Option<String> {
    const CITE: &str = "(RFC 3986 Appendix C)";
    let parses = |text: &[u8]| !text.is_empty() && Urn::parse_bytes(text, syntax).is_ok();
    let at = e.offset();
    if at == 0 {
        let text = std::str::from_utf8(input).ok()?;
        let open = text.chars().next()?;
        let close = closer_of(open)?;
        let rest = &text[open.len_utf8()..];
        let (q_open, q_close) = (crate::urn::quoted_char(open), crate::urn::quoted_char(close));
        return match rest.strip_suffix(close) {
            Some(inner) if parses(inner.as_bytes()) => Some(format!(
                "unexpected {q_open} at byte 0: the URN is wrapped in {q_open} and {q_close}, which are no part of it {CITE}"
            )),
            _ if parses(rest.as_bytes()) => Some(format!(
                "unexpected {q_open} at byte 0: the {q_open} before the URN is no part of it {CITE}"
            )),
            _ => None,
        };
    }
    let after = std::str::from_utf8(input.get(at..)?).ok()?;
    if after.chars().all(ends_text) && parses(&input[..at]) {
        let what = if after.chars().all(char::is_whitespace) {
            "the white space after it".to_string()
        } else {
            format!(
                "the {} after it",
                crate::urn::quoted(&crate::urn::shortened(after.trim()).to_string())
            )
        };
        return Some(format!(
            "the URN ends at byte {at}: {what} is no part of it {CITE}"
        ));
    }
    None
}

/// For a non-ASCII byte that starts a typographic hyphen or dash (a word
/// processor's or smart punctuation's for `-`: `urn:isbn:978–1–...`): the
/// character named, and the ASCII hyphen-minus a URN holds, rather than
/// "percent-encode it", which would keep the wrong character (RFC 8141
/// section 2: a URN is ASCII; its `-` is US-ASCII's 0x2D).
fn dash_hint(input: &[u8], e: &ParseError) -> Option<String> {
    if !matches!(e.kind(), ParseErrorKind::NonAscii { .. }) {
        return None;
    }
    let at = e.offset();
    let c = input.get(at..)?.utf8_chunks().next()?.valid().chars().next()?;
    let name = match c {
        '\u{2010}' => "HYPHEN",
        '\u{2011}' => "NON-BREAKING HYPHEN",
        '\u{2012}' => "FIGURE DASH",
        '\u{2013}' => "EN DASH",
        '\u{2014}' => "EM DASH",
        '\u{2212}' => "MINUS SIGN",
        _ => return None,
    };
    Some(format!(
        "unexpected U+{:04X} {name} at byte {at}: a URN's hyphen is the ASCII hyphen-minus '-' (RFC 8141 section 2)",
        u32::from(c)
    ))
}

/// The `registration-deviation` message: whose form it is, and whose it
/// is not (the finding's offset is where the registration's syntax
/// fails). A registration whose own text writes a form its syntax refuses
/// (META's Example 2, ISNI's lower-case x) is its own practice: that is
/// said, with what the form is, rather than one document named twice.
fn deviation_message(practice: &Practice, registered: &CompiledRules) -> String {
    let (by, of) = (practice.rules().cite(), registered.cite());
    if by != of {
        return format!("a form of the owner's practice ({by}), not of the registration ({of})");
    }
    match practice.note().filter(|n| !n.is_empty()) {
        Some(note) => format!("a form of the registration's text, not of its syntax: {note} ({of})"),
        None => format!("a form of the registration's text, not of its syntax ({of})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8141 section 3.1 lower-cases a NID only to compare URNs: a NID
    /// written as the registration's own examples write it (RFC 3044's
    /// `URN:ISSN:`, RFC 4152's `URN:CLEI:`) gets no `nid-case` warning;
    /// another spelling (`Issn`) and an upper-case NID of a namespace
    /// whose examples are lower case (`UUID`) still do.
    #[test]
    fn a_nid_written_as_the_registration_writes_it_is_no_case_warning() {
        let registry = Registry::embedded();
        let nid_case = |urn: &str| {
            Checker::new(registry)
                .check_str(urn)
                .warnings()
                .any(|w| w.code() == "nid-case")
        };
        assert!(!nid_case("urn:ISSN:0044-8699"));
        assert!(!nid_case("URN:CLEI:D4CE18B7AA"));
        assert!(nid_case("urn:Issn:0044-8699"));
        assert!(nid_case("urn:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
    }

    /// RFC 8458 section 4.3's `URN:NBN:fi-fe201003181510` and the ISBN
    /// registration's `URN:ISBN:...` write the scheme in upper case with
    /// the NID: written so, no `scheme-case` warning either (RFC 8141
    /// section 3.1 folds both for comparison). Another spelling of the
    /// scheme, or `URN:` before a NID not written so, is still said.
    #[test]
    fn the_scheme_written_with_the_registrations_nid_is_no_case_warning() {
        let registry = Registry::embedded();
        let scheme_case = |urn: &str| {
            Checker::new(registry)
                .check_str(urn)
                .warnings()
                .any(|w| w.code() == "scheme-case")
        };
        assert!(!scheme_case("URN:NBN:fi-fe201003181510"));
        assert!(!scheme_case("URN:ISBN:978-951-0-18435-6"));
        assert!(!scheme_case("URN:CLEI:D4CE18B7AA"));
        assert!(scheme_case("Urn:NBN:fi-fe201003181510"));
        assert!(scheme_case("URN:nbn:fi-fe201003181510"));
        assert!(scheme_case("URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
    }

    /// The `unregistered-nid` message is remembered per checker and per
    /// registry; every thread's checkers say the same, and a NID that is
    /// later in force is found, not remembered as unregistered.
    #[test]
    fn unregistered_messages_agree_across_checkers_and_threads() {
        let registry = Registry::embedded();
        let messages: Vec<String> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..3)
                .map(|_| {
                    scope.spawn(|| {
                        let mut checker = Checker::new(registry);
                        (0..3)
                            .map(|_| checker.check(b"urn:isnb:1").errors().next().unwrap().to_string())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
        });
        assert_eq!(messages.len(), 9);
        assert!(messages.iter().all(|m| *m == messages[0]), "{messages:?}");
        assert!(messages[0].contains("'isnb' at byte 4 is not registered (did you mean 'isbn'?)"));
        let mut checker = Checker::new(registry);
        assert!(
            checker
                .check(b"urn:ISNB:1")
                .errors()
                .next()
                .unwrap()
                .to_string()
                .contains("'ISNB'")
        );
        assert!(checker.check(b"urn:isbn:0451450523").is_valid());
    }

    /// A form valid by the registration's own text, not by its syntax, is
    /// said to be one, naming the registration (or the owner's document).
    #[test]
    fn a_form_of_the_registrations_own_text_is_said_so() {
        // ISNI registration 2025, Syntax: a lower-case check x is
        // "strictly non-conformant but in practice" read as X.
        let report = crate::Registry::embedded().check("urn:isni:000000012124204x");
        assert!(report.is_valid());
        let messages: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
        assert!(
            messages.iter().any(|m| m
                .starts_with("a form of the registration's text, not of its syntax: a lower-case")
                && m.ends_with(" (ISNI registration 2025)")),
            "{messages:?}"
        );
        // And a form of an owner's other document names both.
        let report = crate::Registry::embedded().check("urn:gs1:epcisapp:rail:btt:passage");
        let messages: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
        assert!(
            messages
                == [
                    "a form of the owner's practice (gs1/EPCIS), not of the registration (GS1 registration v1 2026)"
                ],
            "{messages:?}"
        );
    }

    /// A registration's SHOULD is a warning of its own kind on a valid URN,
    /// never on an invalid one, and never an error.
    #[test]
    fn a_should_is_a_warning_on_valid_urns_only() {
        let rules: crate::rules::RulesFile = toml::from_str(crate::rules::should_tests::RULES).unwrap();
        let registry = Registry::from_entries([NamespaceEntry {
            nid: "xy".into(),
            kind: Kind::Formal,
            status: Status::Registered,
            rules: Some(toml::to_string(&rules).unwrap()),
        }]);
        let mut checker = Checker::new(&registry);
        let report = checker.check_str("urn:xy:abcDEF01");
        assert!(report.is_valid());
        let codes: Vec<_> = report.warnings().map(|w| (w.code(), w.offset())).collect();
        assert_eq!(codes, [("nss-should", 10)]);
        assert!(
            checker
                .check_str("urn:xy:abcdef01")
                .warnings()
                .all(|w| w.code() != "nss-should")
        );
        let invalid = checker.check_str("urn:xy:ABCDEF0");
        assert!(!invalid.is_valid());
        assert!(invalid.warnings().all(|w| w.code() != "nss-should"));
        let mut strict = Checker::new(&registry).strict(true);
        assert!(
            strict.check_str("urn:xy:ABCDEF01").is_valid(),
            "strict is about practice only"
        );
    }

    /// Without warnings, a report has none, and the same validity, errors
    /// and key.
    #[test]
    fn without_warnings_changes_nothing_but_the_warnings() {
        let registry = Registry::embedded();
        let withdrawn: Vec<String> = registry
            .namespaces()
            .filter(|ns| ns.status() != Status::Registered)
            .map(|ns| format!("urn:{}:x", ns.nid()))
            .collect();
        let inputs = [
            "URN:ISBN:0451450523",
            "urn:isbn:0451450524",
            "urn:example:a%2cb?+r?=q#f",
            "urn:isnb:1",
            "urn:issn:0378-5955#x",
            "urn:x-ab:%41",
            "not a urn",
        ];
        let mut all = Checker::new(registry);
        let mut errors_only = Checker::new(registry).without_warnings();
        for input in inputs.iter().copied().chain(withdrawn.iter().map(String::as_str)) {
            let (a, b) = (all.check_str(input), errors_only.check_str(input));
            assert_eq!(a.is_valid(), b.is_valid(), "{input}");
            let codes = |r: &Report<'_, '_>| r.errors().map(Finding::code).collect::<Vec<_>>();
            assert_eq!(codes(&a), codes(&b), "{input}");
            assert_eq!(a.key(), b.key(), "{input}");
            assert_eq!(b.warnings().count(), 0, "{input}");
        }
        assert!(
            all.check_str("URN:ISBN:0451450523").warnings().count() > 0,
            "the inputs have warnings to leave out"
        );
    }

    /// Without messages, a report has the same validity, findings (kinds
    /// and offsets) and key; only the messages are empty.
    #[test]
    fn without_messages_changes_nothing_but_the_messages() {
        let registry = Registry::embedded();
        let inputs = [
            "URN:ISBN:0451450523",
            "urn:isbn:0451450524",
            "urn:isbn:0451450X23",
            "urn:isbn:211-369641366",
            "urn:issn:0167-642X",
            "urn:lei:5493001KJTIIGC8Y1R1",
            "urn:isnb:1",
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf",
            "urn:example:a%2cb?+r?=q#f",
            "not a urn",
        ];
        let mut all = Checker::new(registry);
        let mut quiet = Checker::new(registry).without_messages();
        for input in inputs {
            let (a, b) = (all.check_str(input), quiet.check_str(input));
            assert_eq!(a.is_valid(), b.is_valid(), "{input}");
            let findings = |r: &Report<'_, '_>| {
                r.findings()
                    .iter()
                    .map(|f| (f.code(), f.offset()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(findings(&a), findings(&b), "{input}");
            assert_eq!(a.key(), b.key(), "{input}");
            for f in b
                .errors()
                .filter(|f| matches!(f.code(), "unregistered-nid" | "nss-syntax" | "nss-check"))
            {
                assert_eq!(f.to_string(), "", "{input}");
            }
        }
        // A built-in check's message is made again once a quiet check
        // is done (its setting is the calling thread's, put back after).
        assert!(
            all.check_str("urn:isbn:12345")
                .errors()
                .next()
                .unwrap()
                .to_string()
                .contains("found 5")
        );
        assert!(
            all.check_str("urn:isnb:1")
                .errors()
                .next()
                .unwrap()
                .to_string()
                .contains("isbn")
        );
    }

    /// A report updated in place says what a fresh one says, whatever the
    /// report before it held (more findings, none, no URN at all).
    #[test]
    fn a_report_checked_into_equals_a_fresh_one() {
        let inputs = [
            "URN:ISBN:0451450524",
            "urn:isbn:0451450523",
            "not a urn",
            "urn:example:a%2cb?+r?=q#f",
            "urn:isnb:1",
            "urn:issn:0378-5955",
            "",
            "URN:ISBN:0451450524",
        ];
        for registry in [None, Some(Registry::embedded())] {
            for warnings in [true, false] {
                let make = || {
                    let checker = Checker::with_registry(registry);
                    if warnings {
                        checker
                    } else {
                        checker.without_warnings()
                    }
                };
                let (mut fresh, mut reusing) = (make(), make());
                let mut report = reusing.check_str("urn:x:y");
                for input in inputs {
                    reusing.check_str_into(input, &mut report);
                    let want = fresh.check_str(input);
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    report.write_json(&mut a, None);
                    want.write_json(&mut b, None);
                    assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
                    assert_eq!(
                        report.namespace().map(Namespace::nid),
                        want.namespace().map(Namespace::nid)
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod wrapper_tests {
    use crate::{Checker, Registry};

    /// RFC 3986 Appendix C: quotes, angle brackets and white space that
    /// delimit a URN in text are no part of it; the finding says so,
    /// with the parser's verdict, kind and offset; nothing is said of a
    /// wrapper around what is no URN.
    #[test]
    fn what_wraps_a_urn_is_said_to_be_no_part_of_it() {
        let registry = Registry::embedded();
        for (input, code, offset, said) in [
            (
                "<urn:isbn:0451450523>",
                "missing-scheme",
                0,
                "the URN is wrapped in '<' and '>', which are no part of it (RFC 3986 Appendix C)",
            ),
            (
                "\"urn:isbn:0451450523\"",
                "missing-scheme",
                0,
                "wrapped in '\"' and '\"'",
            ),
            (
                "(urn:isbn:0451450523",
                "missing-scheme",
                0,
                "the '(' before the URN is no part of it",
            ),
            (
                "urn:isbn:0451450523 ",
                "invalid-char",
                19,
                "the white space after it is no part of it",
            ),
            (
                "urn:isbn:0451450523\">",
                "invalid-char",
                19,
                "the '\">' after it is no part of it",
            ),
            // Typographic quotes, guillemets and CJK punctuation, as text
            // from a word processor or a web page has them: a raw
            // non-ASCII character is never part of a URN (RFC 8141
            // section 2).
            (
                "\u{201c}urn:isbn:0451450523\u{201d}",
                "missing-scheme",
                0,
                "unexpected '\u{201c}' at byte 0: the URN is wrapped in '\u{201c}' and '\u{201d}'",
            ),
            (
                "\u{ab}urn:isbn:0451450523\u{bb}",
                "missing-scheme",
                0,
                "wrapped in '\u{ab}' and '\u{bb}'",
            ),
            (
                "urn:isbn:0451450523\u{201d}",
                "non-ascii",
                19,
                "the URN ends at byte 19: the '\u{201d}' after it is no part of it",
            ),
            (
                "urn:isbn:0451450523\u{2026}\u{a0}\u{3002}",
                "non-ascii",
                19,
                "the '\u{2026}\u{a0}\u{3002}' after it is no part of it",
            ),
            // A typographic dash or hyphen written for '-' (smart
            // punctuation's en dash in an ISBN's parts) is named, not
            // "percent-encode it" (RFC 8141 section 2: a URN is ASCII).
            (
                "urn:isbn:978\u{2013}1\u{2013}68050\u{2013}252\u{2013}7",
                "non-ascii",
                12,
                "unexpected U+2013 EN DASH at byte 12: a URN's hyphen is the ASCII hyphen-minus '-' (RFC 8141 section 2)",
            ),
            (
                "urn:nbn:de:bvb:19\u{2010}82009",
                "non-ascii",
                17,
                "unexpected U+2010 HYPHEN at byte 17",
            ),
        ] {
            for checker in [Checker::new(registry), Checker::syntax_only()] {
                let mut checker = checker;
                let report = checker.check_str(input);
                let e = report.errors().next().unwrap();
                assert_eq!((e.code(), e.offset()), (code, offset), "{input}");
                assert!(e.to_string().contains(said), "{input}: {e}");
            }
        }
        for input in [
            "<nonsense>",
            "urn:isbn:0451450523 x",
            "<urn:isbn:>",
            "urn:isbn:0451450523\u{e9}",
            "\u{201c}nonsense\u{201d}",
        ] {
            let report = Checker::new(registry).check_str(input);
            let message = report.errors().next().unwrap().to_string();
            assert!(!message.contains("no part of it"), "{input}: {message}");
        }
        // The scheme twice: the inner NID is registered.
        let report = Checker::new(registry).check_str("urn:urn:isbn:0451450523");
        let e = report.errors().next().unwrap();
        assert_eq!((e.code(), e.offset()), ("unregistered-nid", 4));
        assert!(e.to_string().contains("'urn:' is written twice"), "{e}");
        // The error names the reserved NID: no `reserved-nid` warning too.
        assert_eq!(
            report.warnings().count(),
            0,
            "{:?}",
            report.warnings().collect::<Vec<_>>()
        );
        let report = Checker::new(registry).check_str("urn:urn:nonsense:x");
        assert!(!report.errors().next().unwrap().to_string().contains("twice"));
        assert_eq!(report.warnings().next().unwrap().code(), "reserved-nid");
        // Without messages, nothing is made.
        let report = Checker::new(registry)
            .without_messages()
            .check_str("<urn:isbn:0451450523>");
        assert!(!report.errors().next().unwrap().to_string().contains("Appendix C"));
    }
}
