//! What the validator says of one URN: a [`Report`] with its parsed parts,
//! its [`Finding`]s (errors and warnings of every layer, one type), the
//! namespace it belongs to, and its namespace-refined equivalence key.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use super::namespace::Namespace;
use crate::rules::CompiledRules;
use crate::urn::{ParseError, ParseErrorKind, Urn, Warning, WarningKind};

/// Whether a finding makes the URN invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The URN is invalid.
    Error,
    /// The URN is valid, but something is discouraged or not canonical.
    Warning,
}

/// What a finding is about. [`FindingKind::code`] is its stable name (the
/// `kind` of the JSON output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingKind {
    /// The generic RFC 8141 (or RFC 2141) syntax is broken.
    Syntax(ParseErrorKind),
    /// A non-fatal finding of the generic parser.
    Warning(WarningKind),
    /// The input line is longer than the stream reader keeps.
    LineTooLong,
    /// A URN found in text runs on past the longest a scan holds
    /// ([`crate::scan::MAX_URN`]).
    UrnTooLong,
    /// The NID is not registered (RFC 8141 sections 1 and 5).
    UnregisteredNid,
    /// The namespace is withdrawn.
    WithdrawnNid,
    /// The NSS breaks the namespace's own syntax.
    NssSyntax,
    /// The NSS fails the namespace's check (e.g. a check digit).
    NssCheck,
    /// The namespace's stored rules do not compile.
    BadRule,
    /// An r-, q- or f-component the namespace gives no meaning.
    ComponentUnused,
    /// The namespace publishes no precise syntax: only the generic rules
    /// were checked.
    GenericRules,
    /// The NSS breaks the namespace's registered syntax but follows a form
    /// its owner publishes (the rules' `practice`): a warning, or an error
    /// when checking strictly.
    RegistrationDeviation {
        /// Checked strictly: the deviation makes the URN invalid.
        strict: bool,
    },
    /// A valid NSS that does not follow a recommendation (SHOULD) of the
    /// registration, or a check its assigner publishes (the rules'
    /// `should`): a warning only.
    NssShould {
        /// Which recommendation: its place in the rules' `should`, whose
        /// own source is the finding's ([`Report::source_of`]).
        rule: u8,
    },
    /// A finding on the directives of the r-component (the 2012 URN
    /// draft, section 2.3): never an error.
    Directive(crate::resolve::DirectiveIssueKind),
}

impl FindingKind {
    /// The stable, kebab-case name (`bad-percent`, `unregistered-nid`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            FindingKind::Syntax(k) => k.code(),
            FindingKind::Warning(k) => k.code(),
            FindingKind::LineTooLong => "line-too-long",
            FindingKind::UrnTooLong => "urn-too-long",
            FindingKind::UnregisteredNid => "unregistered-nid",
            FindingKind::WithdrawnNid => "withdrawn-nid",
            FindingKind::NssSyntax => "nss-syntax",
            FindingKind::NssCheck => "nss-check",
            FindingKind::BadRule => "bad-rule",
            FindingKind::ComponentUnused => "component-unused",
            FindingKind::GenericRules => "generic-rules",
            FindingKind::RegistrationDeviation { .. } => "registration-deviation",
            FindingKind::NssShould { .. } => "nss-should",
            FindingKind::Directive(k) => {
                use crate::resolve::DirectiveIssueKind as D;
                match k {
                    D::Syntax => "directive-syntax",
                    D::DuplicateKeyword => "duplicate-keyword",
                    D::UnknownKeyword => "unknown-keyword",
                    D::UnknownService => "unknown-service",
                    D::KeywordNotSupported => "keyword-not-supported",
                }
            }
        }
    }

    /// Returns true if and only if findings of this kind come from the
    /// namespace's rules (their whole source is in [`Report::source_of`]).
    pub fn is_from_rules(&self) -> bool {
        matches!(
            self,
            FindingKind::NssSyntax
                | FindingKind::NssCheck
                | FindingKind::ComponentUnused
                | FindingKind::RegistrationDeviation { .. }
                | FindingKind::NssShould { .. }
        )
    }

    /// Error or warning.
    pub fn severity(&self) -> Severity {
        match self {
            FindingKind::Syntax(_)
            | FindingKind::LineTooLong
            | FindingKind::UrnTooLong
            | FindingKind::UnregisteredNid
            | FindingKind::NssSyntax
            | FindingKind::NssCheck
            | FindingKind::BadRule
            | FindingKind::RegistrationDeviation { strict: true } => Severity::Error,
            FindingKind::Warning(_)
            | FindingKind::WithdrawnNid
            | FindingKind::ComponentUnused
            | FindingKind::GenericRules
            | FindingKind::RegistrationDeviation { strict: false }
            | FindingKind::NssShould { .. }
            | FindingKind::Directive(_) => Severity::Warning,
        }
    }
}

/// One finding: its kind, the byte offset it points at, and a message for
/// people (its `Display`; the wording may change, the code does not).
#[derive(Clone, Debug)]
pub struct Finding {
    kind: FindingKind,
    offset: usize,
    message: Message,
}

/// Messages are made when shown, not when found: most findings of a
/// stream are never printed as text, and the common ones need no heap.
#[derive(Clone, Debug)]
enum Message {
    Parse(ParseError),
    Warning(Warning),
    Shared(Arc<str>),
    /// Kept as made (no shrinking copy into a `Box<str>`).
    Owned(String),
    /// An unused slot of [`Findings`]; never shown.
    Unused,
}

impl Finding {
    pub(crate) fn new(kind: FindingKind, offset: usize, message: impl Into<String>) -> Finding {
        Finding {
            kind,
            offset,
            message: Message::Owned(message.into()),
        }
    }

    /// What it is about.
    pub fn kind(&self) -> FindingKind {
        self.kind
    }

    /// The stable name of its kind (the `kind` of the JSON output).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// Returns true if and only if this finding makes the URN invalid.
    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }

    /// The 0-based byte offset in the input it points at.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Returns true if and only if the message is made only of our own
    /// words and registered NIDs (no input byte in it), so it needs no
    /// escaping in JSON: the parser's warnings and the shared notes.
    pub(crate) fn is_plain_text(&self) -> bool {
        matches!(self.message, Message::Warning(_) | Message::Shared(_))
    }

    /// The message (its `Display`) as text: borrowed when it is held as
    /// text, else written into `scratch` (cleared first). A writer of many
    /// findings makes no `String` for each, and formats only those made
    /// on demand (measured: formatting held text too cost `normalize`
    /// 2.5%).
    pub fn message_in<'s>(&'s self, scratch: &'s mut String) -> &'s str {
        if let Some(text) = self.text() {
            return text;
        }
        scratch.clear();
        if let Some(e) = self.parse_error() {
            e.write_message(scratch);
        } else {
            use fmt::Write as _;
            let _ = write!(scratch, "{self}");
        }
        scratch
    }

    /// The parse error it is, if any.
    pub(crate) fn parse_error(&self) -> Option<&ParseError> {
        match &self.message {
            Message::Parse(e) => Some(e),
            _ => None,
        }
    }

    /// The message when it is held as text already.
    pub(crate) fn text(&self) -> Option<&str> {
        match &self.message {
            Message::Shared(s) => Some(s),
            Message::Owned(s) => Some(s),
            _ => None,
        }
    }

    /// The parser warning it is, if any.
    pub(crate) fn warning(&self) -> Option<&Warning> {
        match &self.message {
            Message::Warning(w) => Some(w),
            _ => None,
        }
    }
}

/// How many findings a report holds without a heap allocation: most URNs
/// have none or one, and a larger report costs every URN a longer copy
/// (measured: one beats two and three).
const INLINE_FINDINGS: usize = 1;

/// The findings of one report: the first lives in place, and only more
/// than that go to the heap.
#[derive(Clone, Debug)]
struct Findings {
    inline: [Finding; INLINE_FINDINGS],
    len: usize,
    /// All of them, once there are more than fit in place.
    spilled: Vec<Finding>,
}

impl Findings {
    const UNUSED: Finding = Finding {
        kind: FindingKind::LineTooLong,
        offset: 0,
        message: Message::Unused,
    };

    fn new() -> Findings {
        Findings {
            inline: [Self::UNUSED; INLINE_FINDINGS],
            len: 0,
            spilled: Vec::new(),
        }
    }

    /// Forgets every finding, keeping the storage.
    fn clear(&mut self) {
        if self.len > INLINE_FINDINGS {
            self.spilled.clear();
        }
        self.len = 0;
    }

    fn push(&mut self, finding: Finding) {
        if self.len < INLINE_FINDINGS {
            self.inline[self.len] = finding;
        } else {
            if self.len == INLINE_FINDINGS {
                self.spilled.reserve(2 * INLINE_FINDINGS);
                for slot in &mut self.inline {
                    self.spilled.push(std::mem::replace(slot, Self::UNUSED));
                }
            }
            self.spilled.push(finding);
        }
        self.len += 1;
    }

    /// Forgets the findings `drop` picks, keeping the others in order.
    fn drop_where(&mut self, drop: impl Fn(&Finding) -> bool) {
        if !self.as_slice().iter().any(&drop) {
            return;
        }
        let kept: Vec<Finding> = self.as_slice().iter().filter(|f| !drop(f)).cloned().collect();
        self.clear();
        for f in kept {
            self.push(f);
        }
    }

    fn as_slice(&self) -> &[Finding] {
        if self.len <= INLINE_FINDINGS {
            &self.inline[..self.len]
        } else {
            &self.spilled
        }
    }
}

impl From<ParseError> for Finding {
    fn from(e: ParseError) -> Finding {
        Finding {
            kind: FindingKind::Syntax(e.kind()),
            offset: e.offset(),
            message: Message::Parse(e),
        }
    }
}

impl From<Warning> for Finding {
    fn from(w: Warning) -> Finding {
        Finding {
            kind: FindingKind::Warning(w.kind),
            offset: w.offset,
            message: Message::Warning(w),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.message {
            Message::Parse(e) => e.fmt(f),
            Message::Warning(w) => w.fmt(f),
            Message::Shared(s) => f.write_str(s),
            Message::Owned(s) => f.write_str(s),
            Message::Unused => Ok(()),
        }
    }
}

/// The result of checking one input: valid or not, why, and what it is.
///
/// The equivalence key ([`Report::key`]) is the namespace-refined one, and
/// `None` for an invalid URN: a URN that breaks its namespace's rules is
/// equivalent to nothing.
#[derive(Clone, Debug)]
pub struct Report<'a, 'r> {
    input: &'a [u8],
    urn: Option<Urn<'a>>,
    findings: Findings,
    errors: usize,
    namespace: Option<&'r Namespace>,
    rules: Option<&'r CompiledRules>,
    registry_checked: bool,
    /// For an input the generic parser refuses after its NID: the offset
    /// of the `:` that ends the NID (0: none). A NID has at most 32
    /// characters (RFC 8141 section 2), so a byte holds it, in the
    /// report's padding.
    unparsed_nid_end: u8,
}

impl<'a, 'r> Report<'a, 'r> {
    /// A report on `input` with nothing in it yet: no URN, no finding.
    pub(crate) fn empty(input: &'a [u8]) -> Report<'a, 'r> {
        Report {
            input,
            urn: None,
            findings: Findings::new(),
            errors: 0,
            namespace: None,
            rules: None,
            registry_checked: false,
            unparsed_nid_end: 0,
        }
    }

    /// Empties this report for another input, in place: field by field,
    /// never a copy of the whole (a report is a few hundred bytes).
    fn reset(&mut self, input: &'a [u8], urn: Option<Urn<'a>>, registry_checked: bool) {
        self.input = input;
        self.urn = urn;
        self.findings.clear();
        self.errors = 0;
        self.namespace = None;
        self.rules = None;
        self.registry_checked = registry_checked;
        self.unparsed_nid_end = 0;
    }

    /// Makes this the report on a URN that parsed, before any registry
    /// check.
    pub(crate) fn reset_parsed(&mut self, input: &'a [u8], urn: Urn<'a>, warnings: bool) {
        self.reset(input, Some(urn), false);
        if warnings {
            urn.for_each_warning(|w| self.findings.push(Finding::from(w)));
        }
    }

    /// Makes this the report on an input that does not parse.
    pub(crate) fn reset_unparsed(&mut self, input: &'a [u8], error: ParseError, registry_checked: bool) {
        self.reset(input, None, registry_checked);
        self.push(Finding::from(error));
    }

    /// [`Report::reset_unparsed`], the parse error said as `message` (a
    /// namespace's hint).
    pub(crate) fn reset_unparsed_with(
        &mut self,
        input: &'a [u8],
        error: ParseError,
        message: String,
        registry_checked: bool,
    ) {
        self.reset(input, None, registry_checked);
        self.push(Finding {
            kind: FindingKind::Syntax(error.kind()),
            offset: error.offset(),
            message: Message::Owned(message),
        });
    }

    /// A report on an input line that was cut at `limit` bytes by a stream
    /// reader: invalid whatever it holds. `registry_checked` says whether
    /// the stream is checked against a registry (for the JSON form).
    pub fn line_too_long(input: &'a [u8], limit: usize, registry_checked: bool) -> Report<'a, 'r> {
        let mut report = Report::empty(input);
        report.registry_checked = registry_checked;
        report.push(Finding::new(
            FindingKind::LineTooLong,
            limit,
            format!(
                "line longer than {limit} bytes at byte {limit}: expected a line break (urnreg's line limit)"
            ),
        ));
        report
    }

    /// A report on a URN found in text that runs on past `limit` bytes
    /// (`input` is its start): invalid, not checked further.
    pub fn urn_too_long(input: &'a [u8], limit: usize, registry_checked: bool) -> Report<'a, 'r> {
        let mut report = Report::empty(input);
        report.registry_checked = registry_checked;
        report.push(Finding::new(
            FindingKind::UrnTooLong,
            limit,
            format!("URN longer than {limit} bytes: not checked (urnreg's scan limit)"),
        ));
        report
    }

    pub(crate) fn push(&mut self, finding: Finding) {
        if finding.is_error() {
            self.errors += 1;
        }
        self.findings.push(finding);
    }

    /// Forgets the generic parser's warnings of `kind`.
    pub(crate) fn drop_warning(&mut self, kind: WarningKind) {
        self.findings
            .drop_where(|f| f.kind() == FindingKind::Warning(kind));
    }

    pub(crate) fn push_shared(&mut self, kind: FindingKind, offset: usize, message: Arc<str>) {
        self.push(Finding {
            kind,
            offset,
            message: Message::Shared(message),
        });
    }

    pub(crate) fn set_namespace(&mut self, ns: &'r Namespace, rules: Option<&'r CompiledRules>) {
        self.namespace = Some(ns);
        self.rules = rules;
    }

    /// Of an input the generic parser refused after a well-formed NID
    /// (its `:` at `nid_end`): the NID as written, and its namespace when
    /// it is registered.
    pub(crate) fn set_unparsed_nid(&mut self, nid_end: usize, ns: Option<&'r Namespace>) {
        debug_assert!(self.urn.is_none() && self.input.get(nid_end) == Some(&b':'));
        if let Ok(end) = u8::try_from(nid_end) {
            self.unparsed_nid_end = end;
            self.namespace = ns;
        }
    }

    pub(crate) fn set_registry_checked(&mut self) {
        self.registry_checked = true;
    }

    /// The input as given (it may not be UTF-8).
    pub fn input_bytes(&self) -> &'a [u8] {
        self.input
    }

    /// The input as text (bytes that are not UTF-8 replaced by U+FFFD).
    pub fn input(&self) -> Cow<'a, str> {
        match self.urn {
            Some(urn) => Cow::Borrowed(urn.as_str()),
            None => String::from_utf8_lossy(self.input),
        }
    }

    /// The parsed URN, if the generic syntax holds.
    pub fn urn(&self) -> Option<&Urn<'a>> {
        self.urn.as_ref()
    }

    /// The NID as written: the parsed URN's, or, for an input the generic
    /// syntax refuses only after `urn:` NID `:` (a UUID in braces, a
    /// NETCONF capability's `?module=`), the NID it starts with (RFC 8141
    /// section 2). `None` when there is none.
    pub fn nid(&self) -> Option<&'a str> {
        match self.urn {
            Some(urn) => Some(urn.nid()),
            None if self.unparsed_nid_end > 0 => {
                let nid = self.input.get("urn:".len()..usize::from(self.unparsed_nid_end))?;
                // Letters, digits and '-' (the parser's NID check).
                std::str::from_utf8(nid).ok()
            }
            None => None,
        }
    }

    /// Returns true if and only if there is no error: the generic syntax
    /// holds and, when checked against a registry, the NID is registered
    /// and the NSS follows the namespace's rules.
    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }

    /// Every finding, in the order found.
    pub fn findings(&self) -> &[Finding] {
        self.findings.as_slice()
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings().iter().filter(|f| f.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings().iter().filter(|f| !f.is_error())
    }

    /// The registered namespace of the URN (`None` for an unregistered
    /// NID, or when checked for syntax only), also of an input the generic
    /// syntax refuses after a registered NID ([`Report::nid`]).
    pub fn namespace(&self) -> Option<&'r Namespace> {
        self.namespace
    }

    /// The namespace's usable rules, if any.
    pub(crate) fn rules(&self) -> Option<&'r CompiledRules> {
        self.rules
    }

    /// The whole source of the rules a finding of this report comes from
    /// (the registration's, the owner's document for a
    /// `registration-deviation`, the recommendation's own for an
    /// `nss-should`); `None` for other findings. Messages end with a short
    /// citation only.
    pub fn source_of(&self, finding: &Finding) -> Option<&'r str> {
        let rules = self.rules.filter(|_| finding.kind().is_from_rules())?;
        Some(match finding.kind() {
            FindingKind::NssShould { rule } => rules.should().get(usize::from(rule))?.source(),
            _ => rules.source(),
        })
    }

    /// Returns true if and only if the URN was checked against a registry
    /// (false: generic syntax only).
    pub fn is_registry_checked(&self) -> bool {
        self.registry_checked
    }

    /// The equivalence key: RFC 8141 section 3.1, refined by the
    /// namespace's rules when it has usable ones; `None` when the URN is
    /// invalid.
    pub fn key(&self) -> Option<Cow<'a, str>> {
        if !self.is_valid() {
            return None;
        }
        let urn = self.urn.as_ref()?;
        Some(match self.rules {
            Some(rules) => urn.equivalence_key_with(rules),
            None => urn.equivalence_key(),
        })
    }

    /// Appends the equivalence key ([`Report::key`]) to `out`, built in
    /// place with no allocation; returns false, appending nothing, when
    /// the URN is invalid.
    pub fn write_key(&self, out: &mut Vec<u8>) -> bool {
        let Some(urn) = self.urn.as_ref().filter(|_| self.is_valid()) else {
            return false;
        };
        match self.rules {
            Some(rules) => rules.push_key(urn, out),
            None => urn.push_equivalence_key(out),
        }
        true
    }

    /// The RFC 8141 section 3.1 key, without namespace rules; `None` when
    /// the URN is invalid.
    pub fn generic_key(&self) -> Option<Cow<'a, str>> {
        self.urn
            .as_ref()
            .filter(|_| self.is_valid())
            .map(Urn::equivalence_key)
    }
}
