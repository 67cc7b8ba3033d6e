//! Namespace-specific rules: what NSS strings a namespace accepts and which
//! URNs it holds equivalent beyond RFC 8141 section 3.1.
//!
//! Rules are written in TOML (a `[rules]` table in `registry/<nid>.toml` or
//! in a registration file), compiled once, and checked against their own
//! examples when loaded, so a broken rule is never stored or used.
//!
//! - NSS syntax: ABNF (RFC 5234, compiled to a linear-time DFA), a regular
//!   expression (same engine), and/or a named built-in checker for check
//!   digits.
//! - Equivalence steps, applied to the generic key's NSS in order: they see
//!   only the generic key, so URNs that are generic-equivalent stay
//!   equivalent (RFC 8141 section 3.1: rules may only add equivalences).

pub mod abnf;
pub mod builtin;
pub mod describe;
pub mod limits;
mod matcher;
mod precompiled;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub(crate) use matcher::syntax_error as regex_syntax_error;
pub use matcher::{Matcher, Mismatch};

use crate::urn::{KeyRefiner, Urn};

/// The `[rules]` table, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    /// Where the rules come from (the RFC or registration section), in
    /// full: shown apart from findings (JSON `source`, `--verbose`).
    pub source: String,
    /// The short citation that ends each finding's message (`RFC 3085 §2`);
    /// default: the start of `source` up to its first `,` `;` `:` or `(`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cite: Option<String>,
    /// The NSS syntax; absent means "the generic RFC 8141 syntax only".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syntax: Option<SyntaxRule>,
    /// Equivalence refinements, applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equivalence: Vec<EquivalenceStep>,
    /// Which of the r-, q- and f-components mean something here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub components: Option<ComponentsRule>,
    /// Examples checked whenever the rules are loaded.
    #[serde(default, skip_serializing_if = "Examples::is_empty")]
    pub examples: Examples,
    /// What the namespace's owner publishes beyond its registration: forms
    /// valid only through these, with a `registration-deviation` warning.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub practice: Vec<PracticeRule>,
    /// What the registration recommends (SHOULD, RFC 2119) of the NSS
    /// beyond what it requires: a valid URN that does not follow one gets
    /// an `nss-should` warning naming `source`, never an error.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub should: Vec<ShouldRule>,
    /// What a user is told when an invalid NSS takes a known wrong form
    /// (an OID arc with a leading zero, a UUID in braces): checked only
    /// after the NSS has failed, so a valid URN never pays for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hint: Vec<HintRule>,
    /// Where the namespace's URNs lead: URL templates per resolution
    /// service (issue 22; see [`crate::resolve::ResolutionFile`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<crate::resolve::ResolutionFile>,
    /// The NID as the registration's own text writes it where that is
    /// not lower case (RFC 3044's `URN:ISSN:`, RFC 8458's `URN:NBN:`),
    /// each citing where: a URN writing it so follows the registration and
    /// gets no `nid-case` warning (RFC 8141 section 3.1 lower-cases the
    /// NID for comparison only). Said here, not read from the examples,
    /// so that which examples a rules file lists changes no warning.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written_nid: Vec<WrittenNid>,
}

/// One way the registration's text writes the NID (`[[rules.written_nid]]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenNid {
    /// The NID as written, with at least one upper-case letter (`NBN`).
    pub nid: String,
    /// Where the registration writes it so (required): its section and
    /// an instance (`RFC 8458 section 4.3, Examples: URN:NBN:fi-...`).
    pub source: String,
}

/// One form the namespace's owner writes in its own published documents,
/// specifications or software that the registration does not allow. A URN
/// that fails the registration's syntax but matches one of these is valid,
/// with a `registration-deviation` warning naming `source`; strict checking
/// refuses it. Third parties' habits are not practice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeRule {
    /// The owner's own document, specification or software that writes
    /// this form (required).
    pub source: String,
    /// What the form is, in a few words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The form's NSS syntax as ABNF (as in [`SyntaxRule::abnf`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abnf: Option<String>,
    /// The grammar's rule for the NSS (default: its first rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The form's NSS syntax as a regular expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// A built-in checker run after the grammar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// The equivalence of this form, when its source says it differs from
    /// the registration's (default: the namespace's steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equivalence: Option<Vec<EquivalenceStep>>,
    /// Real URNs of this form, from the source: each must fail the
    /// registration's syntax and match this form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// The most practice alternatives one namespace may declare.
pub const MAX_PRACTICE: usize = 16;

/// One recommendation of the registration (a SHOULD, RECOMMENDED or
/// "should be" about the identifier string): the form a URN should take.
/// A URN valid by the rules that does not take it is still valid, with an
/// `nss-should` warning naming `source` and saying `note`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShouldRule {
    /// Where the registration says it (required): its section.
    pub source: String,
    /// What a user is told, in a few words (required): "hex digits should
    /// be lower case".
    pub note: String,
    /// The recommended NSS form as ABNF (as in [`SyntaxRule::abnf`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abnf: Option<String>,
    /// The grammar's rule for the NSS (default: its first rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The recommended NSS form as a regular expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// A built-in checker the recommended form passes
    /// ([`builtin::CHECKERS`]), after its grammar if it has one: a check
    /// digit the namespace's assigner publishes that its registration
    /// does not require (the `source` says whose it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// URNs valid by the rules that do not follow the recommendation:
    /// each must be accepted by the namespace's syntax (or its practice)
    /// and refused by this form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// The most recommendations one namespace may declare.
pub const MAX_SHOULD: usize = 16;

/// A known wrong form of the NSS and what is wrong with it, in a user's
/// words: when an NSS fails the namespace's rules (its syntax or its
/// built-in check) and matches the form, the finding says `note`, citing
/// `source`, instead of what the syntax expects at the byte. The verdict
/// and the offset stay; only the message changes. The form is also
/// tried on the NSS as written when the generic parser refuses a URN of
/// the namespace (`{` and `}` around a UUID).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRule {
    /// The rule the form breaks (required): the RFC or registration
    /// section, cited at the end of the message.
    pub source: String,
    /// What a user is told (required): "an arc has no leading zeros".
    pub note: String,
    /// The wrong form, as ABNF (as in [`SyntaxRule::abnf`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abnf: Option<String>,
    /// The grammar's rule for the NSS (default: its first rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The wrong form, as a regular expression over the whole NSS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// Invalid URNs (at least one) this hint speaks of: each must be
    /// refused, by the rules or the generic parser, and take the form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// The most hints one namespace may declare.
pub const MAX_HINTS: usize = 16;

/// The longest `note` of a hint, in bytes: with where and whose rule, a
/// finding's message stays short (160 characters).
pub const MAX_HINT_NOTE: usize = 100;

/// How the NSS is checked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntaxRule {
    /// An ABNF grammar (RFC 5234) the NSS must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abnf: Option<String>,
    /// The grammar's rule for the NSS (default: its first rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A regular expression the whole NSS must match (instead of ABNF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// A built-in checker run after the grammar ([`builtin::CHECKERS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
}

/// One equivalence refinement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EquivalenceStep {
    /// The whole NSS is case-insensitive (ASCII letters outside `%HH`
    /// are lower-cased).
    CaseInsensitiveNss,
    /// The first `parts` colon-separated parts of the NSS are
    /// case-insensitive.
    CaseInsensitiveParts {
        /// How many parts.
        parts: usize,
    },
    /// The NSS up to the first `delimiter` is case-insensitive.
    CaseInsensitiveUntil {
        /// Where the case-insensitive prefix ends.
        delimiter: String,
    },
    /// These characters are removed from the NSS (outside `%HH`).
    Remove {
        /// The characters.
        chars: String,
    },
    /// A built-in normalizer ([`builtin::NORMALIZERS`]).
    Builtin {
        /// Its name.
        name: String,
    },
}

/// Whether each component means something in the namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentsRule {
    /// r-component.
    pub r: bool,
    /// q-component.
    pub q: bool,
    /// f-component.
    pub f: bool,
}

/// Examples that must pass when the rules are loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    /// URNs the rules accept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub valid: Vec<String>,
    /// URNs the rules refuse.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invalid: Vec<String>,
    /// Pairs of URNs the rules hold equivalent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equivalent: Vec<[String; 2]>,
}

impl Examples {
    fn is_empty(&self) -> bool {
        self.valid.is_empty() && self.invalid.is_empty() && self.equivalent.is_empty()
    }
}

/// A rule that cannot be used: it does not compile or its examples fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError(pub String);

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleError {}

/// Which of a namespace's rules a URN breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// The NSS syntax (the finding `nss-syntax`).
    Syntax,
    /// A built-in check, such as a check digit (the finding `nss-check`).
    Check,
}

/// What is wrong with a URN under a namespace's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleViolation {
    /// Which rule.
    pub kind: ViolationKind,
    /// Byte offset in the whole URN.
    pub offset: usize,
    /// For people.
    pub message: String,
}

/// Which form the NSS syntax check takes, for output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxKind {
    /// ABNF (possibly with a built-in checker).
    Abnf,
    /// A regular expression (possibly with a built-in checker).
    Regex,
    /// A built-in checker only.
    Builtin,
}

impl SyntaxKind {
    /// `abnf`, `regex` or `builtin`.
    pub fn as_str(self) -> &'static str {
        match self {
            SyntaxKind::Abnf => "abnf",
            SyntaxKind::Regex => "regex",
            SyntaxKind::Builtin => "builtin",
        }
    }
}

/// Rules ready to apply.
#[derive(Clone, Debug)]
pub struct CompiledRules {
    source: String,
    /// The short citation of findings' messages.
    cite: String,
    /// `source` as a JSON string, made once (streams write it per finding).
    source_json: Box<str>,
    matcher: Option<Matcher>,
    syntax_kind: Option<SyntaxKind>,
    builtin: Option<builtin::CheckFn>,
    equivalence: Vec<Step>,
    components: Option<ComponentsRule>,
    /// The owner's practice beyond the registration, in order.
    practice: Vec<Practice>,
    /// The recommendations (the registration's SHOULDs, or a check an
    /// assigner publishes, each with its own source), in order.
    should: Vec<Should>,
    /// Known wrong forms and what to say of them, in order.
    hints: Vec<Hint>,
    /// Whether a failed NSS is also tried for the mistakes of any
    /// namespace (the NID again, trailing punctuation): the namespace's
    /// own rules, not a practice form, recommendation or hint.
    generic_hints: bool,
    /// Where its URNs lead.
    resolution: LazyResolution,
    /// The NID as the registration's own text writes it, where that is
    /// not lower case (`ISSN`, `NBN`: RFC 3044's and RFC 8458's URNs;
    /// `[[rules.written_nid]]`): a URN writing it so follows the
    /// registration, and gets no `nid-case` warning.
    written_nids: Vec<Box<str>>,
}

/// A namespace's `[rules.resolution]`, compiled (and its examples run) the
/// first time it is asked for: a check never needs it, and its patterns'
/// regexes were half of a namespace's first-use cost (callgrind, `check -q`
/// of 200k lines: 5.4M of 10.3M instructions). [`RulesFile::compile`] asks
/// at once, so what lint, import and snapshots are given is checked whole.
#[derive(Clone, Debug, Default)]
struct LazyResolution {
    /// The NID its examples must be of, and the text.
    written: Option<(String, crate::resolve::ResolutionFile)>,
    compiled: std::sync::OnceLock<Result<crate::resolve::Resolution, String>>,
}

/// A compiled [`PracticeRule`]: its own rules (its syntax, and the
/// equivalence its keys are made with) and what it is.
#[derive(Clone, Debug)]
pub struct Practice {
    rules: CompiledRules,
    note: Option<String>,
}

impl Practice {
    /// The rules of this form: its syntax and its equivalence; `source()`
    /// is the owner's document.
    pub fn rules(&self) -> &CompiledRules {
        &self.rules
    }

    /// The owner's document, specification or software.
    pub fn source(&self) -> &str {
        &self.rules.source
    }

    /// What the form is, if said.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }
}

/// A compiled [`ShouldRule`]: the recommended form's syntax, its source
/// and what a user is told.
#[derive(Clone, Debug)]
pub struct Should {
    rules: CompiledRules,
    note: String,
}

impl Should {
    /// Where it is said: the registration's section, or the assigner's
    /// document for a check it publishes.
    pub fn source(&self) -> &str {
        &self.rules.source
    }

    /// [`Should::source`] as a JSON string.
    pub(crate) fn source_json(&self) -> &str {
        self.rules.source_json()
    }

    /// What a user is told.
    pub fn note(&self) -> &str {
        &self.note
    }

    /// Whether `urn` follows the recommendation; `None` if it does, else
    /// the offset (in the whole URN) where it stops following it.
    pub fn departure(&self, urn: &Urn<'_>) -> Option<usize> {
        // Only where: no message is made.
        self.rules.check_with(urn, false).map(|v| v.offset)
    }

    /// The warning's message for `urn`: what is recommended, and where;
    /// when a built-in check is what `urn` fails, what that check found.
    pub fn message(&self, urn: &Urn<'_>) -> String {
        if let Some(said) = self.without_last_punctuation(urn) {
            return said;
        }
        match self.rules.check_noted(urn, true, Some(&self.note)) {
            Some(v) if v.kind == ViolationKind::Check => v.message,
            _ => format!("{} ({})", self.note, self.rules.cite),
        }
    }

    /// When `urn` ends its text with punctuation (`.` `,` `;` `)` ...)
    /// and follows the recommendation without it, what the namespace's
    /// own rules say of the same mistake (the generic hint): punctuation
    /// after a URN in text is no part of it (RFC 3986 Appendix C). An NSS
    /// with a component after it does not end the text. (The finding's
    /// source still names the recommendation; the message stays short.)
    fn without_last_punctuation(&self, urn: &Urn<'_>) -> Option<String> {
        let text = urn.as_str();
        let end = urn.nss_start() + urn.nss().len();
        if end != text.len() {
            return None;
        }
        let (&last, rest) = urn.nss().as_bytes().split_last()?;
        if rest.is_empty() || !TEXT_PUNCTUATION.contains(&last) {
            return None;
        }
        let shorter = Urn::parse(&text[..end - 1]).ok()?;
        if self.rules.check_with(&shorter, false).is_some() {
            return None;
        }
        Some(format!(
            "unexpected {} in NSS at byte {}: the NSS is as recommended without its last {}: punctuation after a URN in text is no part of it (RFC 3986 Appendix C)",
            described(last),
            end - 1,
            describe(last)
        ))
    }
}

/// A compiled [`HintRule`]: the wrong form's syntax, its citation and
/// what a user is told.
#[derive(Clone, Debug)]
pub struct Hint {
    rules: CompiledRules,
    note: String,
}

impl Hint {
    /// Whether the NSS `nss` (as the rules see it, or as written) takes
    /// the wrong form.
    fn fits(&self, nss: &[u8]) -> bool {
        self.rules.matcher.as_ref().is_some_and(|m| m.check(nss).is_ok())
    }

    /// What a user is told.
    pub fn note(&self) -> &str {
        &self.note
    }

    /// Where the rule it speaks of comes from.
    pub fn source(&self) -> &str {
        &self.rules.source
    }

    /// The message of a finding at byte `at` of `nss`, which starts at
    /// byte `base` of the URN: where, what is wrong, and whose rule.
    fn message(&self, nss: &[u8], at: usize, base: usize) -> String {
        let (note, cite) = (&self.note, &self.rules.cite);
        match nss.get(at) {
            Some(&b) => format!(
                "unexpected {} in NSS at byte {}: {note} ({cite})",
                described(b),
                base + at
            ),
            None => format!("the NSS ends at byte {}: {note} ({cite})", base + at),
        }
    }
}

/// An [`EquivalenceStep`] ready to apply: a built-in normalizer is its
/// function, found once when the rules are compiled.
#[derive(Clone, Debug)]
enum Step {
    CaseInsensitiveNss,
    CaseInsensitiveParts(usize),
    CaseInsensitiveUntil(String),
    Remove(String),
    Builtin(builtin::NormalizeFn),
}

/// The most NSS parts a `case-insensitive-parts` step may name (registered
/// namespaces use 1 to 3; a larger count is a mistake or hostile data).
pub const MAX_PARTS: usize = 64;

/// Refuses step orders whose key is not its own key (normalizing it again
/// would change it): a `remove` of `:` after `case-insensitive-parts`
/// (the parts' boundaries move: `A:B` keys to `aB`, then to `ab`), a
/// `remove` after `case-insensitive-until` of a delimiter of more than one
/// character (the removal can make the delimiter: `Q-Ya-b` keys to `QYab`,
/// then `qyab`), and a `remove` of letters before a case-insensitive step
/// (folding makes more of them to remove: `A` keys to `a`, then to nothing).
fn step_order(steps: &[EquivalenceStep]) -> Result<(), String> {
    let folds = |s: &EquivalenceStep| {
        matches!(
            s,
            EquivalenceStep::CaseInsensitiveNss
                | EquivalenceStep::CaseInsensitiveParts { .. }
                | EquivalenceStep::CaseInsensitiveUntil { .. }
        )
    };
    for (i, step) in steps.iter().enumerate() {
        let EquivalenceStep::Remove { chars } = step else {
            continue;
        };
        for before in &steps[..i] {
            match before {
                EquivalenceStep::CaseInsensitiveParts { .. } if chars.contains(':') => {
                    return Err("equivalence: a 'remove' of ':' after 'case-insensitive-parts' moves the parts, so a key normalized again changes: remove first".into());
                }
                EquivalenceStep::CaseInsensitiveUntil { delimiter } if delimiter.len() > 1 => {
                    return Err(format!(
                        "equivalence: a 'remove' after 'case-insensitive-until' of '{delimiter}' can make the delimiter, so a key normalized again changes: remove first"
                    ));
                }
                _ => {}
            }
        }
        if chars.bytes().any(|b| b.is_ascii_alphabetic()) && steps[i + 1..].iter().any(folds) {
            return Err("equivalence: a 'remove' of letters before a case-insensitive step leaves letters that folding makes removable, so a key normalized again changes: fold first".into());
        }
    }
    Ok(())
}

/// The most equivalence steps one form may declare (the shipped rules
/// use at most three).
pub const MAX_EQUIVALENCE_STEPS: usize = 16;

/// The most bytes of a `remove` step's characters or of a
/// `case-insensitive-until` delimiter.
pub const MAX_STEP_TEXT: usize = 64;

impl RulesFile {
    /// Compiles the rules and checks them against their examples, the
    /// resolution's included.
    ///
    /// # Errors
    ///
    /// A [`RuleError`] saying what does not compile or which example fails.
    pub fn compile(&self, nid: &str) -> Result<CompiledRules, RuleError> {
        let err = |m: String| RuleError(format!("rules for '{nid}': {m}"));
        step_order(&self.equivalence).map_err(err)?;
        // What a message says is one line of text: no line feed or escape
        // in it can write a line of a report (a forged verdict).
        let one_line = [("source", Some(self.source.as_str()))]
            .into_iter()
            .chain(self.practice.iter().flat_map(|p| {
                [
                    ("practice source", Some(p.source.as_str())),
                    ("practice note", p.note.as_deref()),
                ]
            }))
            .chain(self.should.iter().flat_map(|s| {
                [
                    ("should source", Some(s.source.as_str())),
                    ("should note", Some(s.note.as_str())),
                ]
            }))
            .chain(self.hint.iter().flat_map(|h| {
                [
                    ("hint source", Some(h.source.as_str())),
                    ("hint note", Some(h.note.as_str())),
                ]
            }));
        for (what, text) in one_line {
            if text.is_some_and(|t| t.chars().any(char::is_control)) {
                return Err(err(format!(
                    "the {what} holds a control character (a line feed, an escape): it is one line of text"
                )));
            }
        }
        let compiled = self.compile_stored(nid)?;
        compiled.check_example_keys(&self.examples).map_err(err)?;
        compiled
            .resolution()
            .map_err(|m| RuleError(format!("rules for '{nid}': resolution: {m}")))?;
        Ok(compiled)
    }

    /// [`RulesFile::compile`] for rules a registry holds (checked whole when
    /// they were stored), leaving the resolution to its first use: what a
    /// check compiles on a namespace's first URN.
    ///
    /// # Errors
    ///
    /// A [`RuleError`] saying what does not compile or which example fails.
    pub fn compile_stored(&self, nid: &str) -> Result<CompiledRules, RuleError> {
        let err = |m: String| RuleError(format!("rules for '{nid}': {m}"));
        let (matcher, syntax_kind, builtin) = match &self.syntax {
            None => (None, None, None),
            Some(s) => {
                // The shipped rules' DFAs are built by build.rs: no pattern
                // to make for those.
                let shipped = precompiled::matcher(s.abnf.as_deref(), s.start.as_deref(), s.regex.as_deref());
                let pattern = match (&s.abnf, &s.regex) {
                    _ if shipped.is_some() => None,
                    (Some(_), Some(_)) => return Err(err("give either abnf or regex, not both".into())),
                    (Some(grammar), None) => Some(
                        abnf::compile(grammar, s.start.as_deref())
                            .map_err(|e| err(e.to_string()))?
                            .pattern,
                    ),
                    (None, Some(regex)) if regex.len() > limits::MAX_REGEX_LEN => {
                        return Err(err(format!(
                            "the regex is {} bytes, more than the limit of {} (MAX_REGEX_LEN)",
                            regex.len(),
                            limits::MAX_REGEX_LEN
                        )));
                    }
                    (None, Some(regex)) => Some(regex.clone()),
                    (None, None) => None,
                };
                if s.start.is_some() && s.abnf.is_none() {
                    return Err(err("'start' names an ABNF rule, but there is no abnf".into()));
                }
                let check = match &s.builtin {
                    None => None,
                    Some(b) => Some(builtin::checker(b).ok_or_else(|| {
                        err(format!(
                            "unknown built-in checker '{b}' (known: {})",
                            builtin::CHECKERS.join(", ")
                        ))
                    })?),
                };
                let kind = match (&s.abnf, &s.regex, &s.builtin) {
                    (Some(_), _, _) => Some(SyntaxKind::Abnf),
                    (_, Some(_), _) => Some(SyntaxKind::Regex),
                    (_, _, Some(_)) => Some(SyntaxKind::Builtin),
                    _ => return Err(err("syntax needs abnf, regex or builtin".into())),
                };
                let matcher = match shipped {
                    Some(m) => Some(m),
                    None => pattern
                        .map(|p| {
                            Matcher::new(&p).map_err(|e| err(format!("the NSS syntax does not compile: {e}")))
                        })
                        .transpose()?,
                };
                (matcher, kind, check)
            }
        };
        // Each step walks the whole key: their number and their strings are
        // bounded, so that a rule cannot make one URN cost minutes.
        if self.equivalence.len() > MAX_EQUIVALENCE_STEPS {
            return Err(err(format!(
                "{} equivalence steps, more than the limit of {MAX_EQUIVALENCE_STEPS} (MAX_EQUIVALENCE_STEPS)",
                self.equivalence.len()
            )));
        }
        let mut equivalence = Vec::with_capacity(self.equivalence.len());
        for step in &self.equivalence {
            match step {
                EquivalenceStep::CaseInsensitiveUntil { delimiter: text }
                | EquivalenceStep::Remove { chars: text } => {
                    let what = match step {
                        EquivalenceStep::Remove { .. } => "remove: chars",
                        _ => "case-insensitive-until: delimiter",
                    };
                    if text.is_empty() {
                        return Err(err(format!("{what} is empty: the step would do nothing")));
                    }
                    if text.len() > MAX_STEP_TEXT {
                        return Err(err(format!(
                            "{what} has {} bytes, more than the limit of {MAX_STEP_TEXT} (MAX_STEP_TEXT)",
                            text.len()
                        )));
                    }
                }
                _ => {}
            }
            equivalence.push(match step {
                EquivalenceStep::CaseInsensitiveNss => Step::CaseInsensitiveNss,
                EquivalenceStep::CaseInsensitiveParts { parts } if (1..=MAX_PARTS).contains(parts) => {
                    Step::CaseInsensitiveParts(*parts)
                }
                EquivalenceStep::CaseInsensitiveParts { parts } => {
                    return Err(err(format!(
                        "case-insensitive-parts: parts = {parts}, expected 1 to MAX_PARTS = {MAX_PARTS}"
                    )));
                }
                EquivalenceStep::CaseInsensitiveUntil { delimiter } => {
                    Step::CaseInsensitiveUntil(delimiter.clone())
                }
                EquivalenceStep::Remove { chars } => Step::Remove(chars.clone()),
                EquivalenceStep::Builtin { name } => {
                    Step::Builtin(builtin::normalizer(name).ok_or_else(|| {
                        err(format!(
                            "unknown built-in normalizer '{name}' (known: {})",
                            builtin::NORMALIZERS.join(", ")
                        ))
                    })?)
                }
            });
        }
        let mut compiled = CompiledRules {
            source: self.source.clone(),
            cite: self.cite.clone().unwrap_or_else(|| cite(&self.source)),
            source_json: crate::json_text::json_string(&self.source),
            matcher,
            syntax_kind,
            builtin,
            equivalence,
            components: self.components,
            practice: Vec::new(),
            should: Vec::new(),
            hints: Vec::new(),
            generic_hints: true,
            resolution: LazyResolution {
                written: self.resolution.clone().map(|r| (nid.to_string(), r)),
                compiled: std::sync::OnceLock::new(),
            },
            written_nids: written_nids(nid, &self.written_nid).map_err(err)?,
        };
        compiled.check_examples(nid, &self.examples).map_err(err)?;
        if self.practice.len() > MAX_PRACTICE {
            return Err(err(format!(
                "{} practice alternatives, more than the limit of {MAX_PRACTICE} (MAX_PRACTICE)",
                self.practice.len()
            )));
        }
        for (i, p) in self.practice.iter().enumerate() {
            let practice = self
                .compile_practice(nid, p, &compiled)
                .map_err(|m| err(format!("practice {}: {m}", i + 1)))?;
            compiled.practice.push(practice);
        }
        if self.should.len() > MAX_SHOULD {
            return Err(err(format!(
                "{} recommendations, more than the limit of {MAX_SHOULD} (MAX_SHOULD)",
                self.should.len()
            )));
        }
        for (i, s) in self.should.iter().enumerate() {
            let should =
                compile_should(nid, s, &compiled).map_err(|m| err(format!("should {}: {m}", i + 1)))?;
            compiled.should.push(should);
        }
        if self.hint.len() > MAX_HINTS {
            return Err(err(format!(
                "{} hints, more than the limit of {MAX_HINTS} (MAX_HINTS)",
                self.hint.len()
            )));
        }
        for (i, h) in self.hint.iter().enumerate() {
            let hint = compile_hint(nid, h, &compiled).map_err(|m| err(format!("hint {}: {m}", i + 1)))?;
            compiled.hints.push(hint);
        }
        Ok(compiled)
    }

    /// Compiles one practice alternative as rules of its own, and checks
    /// that each of its examples is a deviation: refused by the
    /// registration, accepted by the form.
    fn compile_practice(
        &self,
        nid: &str,
        p: &PracticeRule,
        registered: &CompiledRules,
    ) -> Result<Practice, String> {
        if p.source.trim().is_empty() {
            return Err("'source' is required: the owner's own document, specification or software".into());
        }
        if p.abnf.is_none() && p.regex.is_none() && p.builtin.is_none() {
            return Err("needs abnf, regex or builtin".into());
        }
        let file = RulesFile {
            source: p.source.clone(),
            cite: None,
            syntax: Some(SyntaxRule {
                abnf: p.abnf.clone(),
                start: p.start.clone(),
                regex: p.regex.clone(),
                builtin: p.builtin.clone(),
            }),
            equivalence: p.equivalence.clone().unwrap_or_else(|| self.equivalence.clone()),
            components: self.components,
            examples: Examples {
                valid: p.examples.clone(),
                ..Examples::default()
            },
            practice: Vec::new(),
            should: Vec::new(),
            hint: Vec::new(),
            resolution: None,
            written_nid: Vec::new(),
        };
        let rules = compile_form(nid, &file)?;
        for s in &p.examples {
            if registered.check(&parse_example(s)?).is_none() {
                return Err(format!(
                    "example '{s}' is valid as registered: practice lists only what the registration refuses"
                ));
            }
        }
        Ok(Practice {
            rules,
            note: p.note.clone(),
        })
    }
}

/// Compiles a practice form, a recommendation or a hint as rules of its
/// own, without the generic hints (those are the namespace's own rules'
/// to give); its error without the NID the caller's error names already.
fn compile_form(nid: &str, file: &RulesFile) -> Result<CompiledRules, String> {
    let mut rules = file.compile(nid).map_err(|e| match e.0.split_once("': ") {
        Some((_, rest)) => rest.to_string(),
        None => e.0,
    })?;
    rules.generic_hints = false;
    Ok(rules)
}

/// Compiles one recommendation as rules of its own (its syntax only), and
/// checks that each of its examples is valid by the namespace's rules (or
/// its practice) and does not follow the recommendation.
fn compile_should(nid: &str, s: &ShouldRule, registered: &CompiledRules) -> Result<Should, String> {
    if s.source.trim().is_empty() {
        return Err("'source' is required: where the registration recommends it".into());
    }
    if s.note.trim().is_empty() {
        return Err("'note' is required: what a user is told".into());
    }
    if s.abnf.is_none() && s.regex.is_none() && s.builtin.is_none() {
        return Err("needs abnf, regex or builtin".into());
    }
    let file = RulesFile {
        source: s.source.clone(),
        syntax: Some(SyntaxRule {
            abnf: s.abnf.clone(),
            start: s.start.clone(),
            regex: s.regex.clone(),
            builtin: s.builtin.clone(),
        }),
        ..RulesFile::default()
    };
    let rules = compile_form(nid, &file)?;
    for ex in &s.examples {
        let urn = parse_example(ex)?;
        if !urn.nid().eq_ignore_ascii_case(nid) {
            return Err(format!("example '{ex}' is not in the '{nid}' namespace"));
        }
        // The validator judges only the registration's own forms by its
        // recommendations (a practice form is none of them).
        if registered.check(&urn).is_some() {
            return Err(format!(
                "example '{ex}' is not valid by the registration: a recommendation's examples are URNs \
                 of the registration's forms that do not follow it"
            ));
        }
        if rules.check(&urn).is_none() {
            return Err(format!("example '{ex}' follows the recommendation"));
        }
    }
    Ok(Should {
        rules,
        note: s.note.trim().to_string(),
    })
}

/// Compiles one hint as rules of its own (its syntax only), and checks
/// that each of its examples is a URN of the namespace that is refused
/// (by the rules, or by the generic parser) and takes the wrong form.
fn compile_hint(nid: &str, h: &HintRule, registered: &CompiledRules) -> Result<Hint, String> {
    if h.source.trim().is_empty() {
        return Err("'source' is required: the rule the form breaks".into());
    }
    let note = h.note.trim();
    if note.is_empty() {
        return Err("'note' is required: what a user is told".into());
    }
    if note.len() > MAX_HINT_NOTE {
        return Err(format!(
            "'note' has {} bytes, more than the limit of {MAX_HINT_NOTE} (MAX_HINT_NOTE)",
            note.len()
        ));
    }
    if h.abnf.is_none() && h.regex.is_none() {
        return Err("needs abnf or regex: the wrong form".into());
    }
    if h.examples.is_empty() {
        return Err("needs examples: invalid URNs of the wrong form".into());
    }
    let file = RulesFile {
        source: h.source.clone(),
        syntax: Some(SyntaxRule {
            abnf: h.abnf.clone(),
            start: h.start.clone(),
            regex: h.regex.clone(),
            builtin: None,
        }),
        ..RulesFile::default()
    };
    let rules = compile_form(nid, &file)?;
    let hint = Hint {
        rules,
        note: note.to_string(),
    };
    for ex in &h.examples {
        match Urn::parse(ex) {
            Ok(urn) => {
                if !urn.nid().eq_ignore_ascii_case(nid) {
                    return Err(format!("example '{ex}' is not in the '{nid}' namespace"));
                }
                if registered.check(&urn).is_none() {
                    return Err(format!(
                        "example '{ex}' is valid: a hint speaks only of invalid URNs"
                    ));
                }
                if !hint.fits(rules_nss(&urn, &mut None).as_bytes()) {
                    return Err(format!("example '{ex}' does not take the hint's form"));
                }
            }
            Err(_) => match written_nss(ex) {
                Some((of, nss)) if of.eq_ignore_ascii_case(nid) => {
                    if !hint.fits(nss) {
                        return Err(format!("example '{ex}' does not take the hint's form"));
                    }
                }
                _ => return Err(format!("example '{ex}' is not in the '{nid}' namespace")),
            },
        }
    }
    Ok(hint)
}

/// The NID and the rest of `input` after it (the NSS as written, and
/// whatever follows) when `input` starts `urn:` NID `:`: for hints on an
/// input the generic parser refuses.
pub fn written_nss(input: &str) -> Option<(&str, &[u8])> {
    // The parser's own NID check; the NID follows the four bytes of
    // `urn:` and ends at an ASCII `:`, so both slices fall on character
    // boundaries.
    let end = crate::urn::written_nid_end(input.as_bytes())?;
    Some((&input[4..end], &input.as_bytes()[end + 1..]))
}

fn parse_example(s: &str) -> Result<Urn<'_>, String> {
    Urn::parse(s).map_err(|e| format!("example '{s}' is not a URN: {e}"))
}

impl CompiledRules {
    /// Runs each resolution example: a valid URN of the namespace whose
    /// key gives exactly the URLs written.
    fn check_resolution_examples(
        &self,
        nid: &str,
        file: &crate::resolve::ResolutionFile,
        resolution: &crate::resolve::Resolution,
    ) -> Result<(), String> {
        for ex in &file.examples {
            let urn = parse_example(&ex.urn)?;
            if !urn.nid().eq_ignore_ascii_case(nid) {
                return Err(format!("example '{}' is not in the '{nid}' namespace", ex.urn));
            }
            if let Some(e) = self.check(&urn) {
                return Err(format!("example '{}' is invalid: {}", ex.urn, e.message));
            }
            let key = urn.equivalence_key_with(self);
            let service = ex.service.as_deref().unwrap_or(resolution.default_service());
            let urls = resolution
                .urls(&key, service)
                .map_err(|e| format!("example '{}': {e}", ex.urn))?;
            if urls != ex.urls {
                return Err(format!(
                    "example '{}' gives {} by {service}, not {}",
                    ex.urn,
                    urls.join(" "),
                    ex.urls.join(" ")
                ));
            }
        }
        Ok(())
    }

    /// Where its URNs lead, if its rules say (compiled on the first call).
    ///
    /// # Errors
    ///
    /// What in `[rules.resolution]` does not compile, or which of its
    /// examples fails (only for rules from [`RulesFile::compile_stored`]:
    /// [`RulesFile::compile`] refuses those).
    pub fn resolution(&self) -> Result<Option<&crate::resolve::Resolution>, &str> {
        let Some((nid, file)) = &self.resolution.written else {
            return Ok(None);
        };
        self.resolution
            .compiled
            .get_or_init(|| {
                let compiled = file.compile()?;
                self.check_resolution_examples(nid, file, &compiled)?;
                Ok(compiled)
            })
            .as_ref()
            .map(Some)
            .map_err(String::as_str)
    }

    fn check_examples(&self, nid: &str, examples: &Examples) -> Result<(), String> {
        for s in examples.valid.iter().chain(examples.invalid.iter()) {
            let urn = parse_example(s)?;
            if !urn.nid().eq_ignore_ascii_case(nid) {
                return Err(format!("example '{s}' is not in the '{nid}' namespace"));
            }
        }
        for s in &examples.valid {
            if let Some(v) = self.check(&parse_example(s)?) {
                return Err(format!("valid example '{s}' is refused: {}", v.message));
            }
        }
        for s in &examples.invalid {
            if self.check(&parse_example(s)?).is_none() {
                return Err(format!("invalid example '{s}' is accepted"));
            }
        }
        for [a, b] in &examples.equivalent {
            let (ua, ub) = (parse_example(a)?, parse_example(b)?);
            for (s, u) in [(a, &ua), (b, &ub)] {
                if let Some(v) = self.check(u).into_iter().next() {
                    return Err(format!(
                        "equivalent example '{s}' is refused ({}): a URN that breaks the rules is equivalent to nothing",
                        v.message
                    ));
                }
            }
            if ua.equivalence_key_with(self) != ub.equivalence_key_with(self) {
                return Err(format!("examples '{a}' and '{b}' should be equivalent"));
            }
        }
        Ok(())
    }

    /// The key of each valid and equivalent example is a URN that is its
    /// own key: normalizing twice changes nothing (docs/validating.md).
    /// (Not that it passes this form's syntax: an owner's practice keys
    /// to the registration's form, `urn:doi:10.123:456` to `10.123/456`.)
    fn check_example_keys(&self, examples: &Examples) -> Result<(), String> {
        let all = examples.valid.iter().chain(examples.equivalent.iter().flatten());
        for s in all {
            let urn = parse_example(s)?;
            let key = urn.equivalence_key_with(self).into_owned();
            let Ok(keyed) = Urn::parse(&key) else {
                return Err(format!(
                    "equivalence: the key of example '{s}', '{key}', is not a URN (RFC 8141 section 2)"
                ));
            };
            let again = keyed.equivalence_key_with(self);
            if again != key {
                return Err(format!(
                    "equivalence: the key of example '{s}', '{key}', is not its own key ('{again}'): normalizing twice must change nothing"
                ));
            }
        }
        Ok(())
    }

    /// Where the rules come from, in full.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The short citation that ends the messages of their findings.
    pub fn cite(&self) -> &str {
        &self.cite
    }

    /// [`CompiledRules::source`] as a JSON string, quotes included.
    pub(crate) fn source_json(&self) -> &str {
        &self.source_json
    }

    /// The owner's practice beyond the registration.
    pub fn practice(&self) -> &[Practice] {
        &self.practice
    }

    /// The recommendations: the registration's SHOULDs, or checks an
    /// assigner publishes ([`Should::source`] says whose).
    pub fn should(&self) -> &[Should] {
        &self.should
    }

    /// The first practice alternative whose form `urn` matches; for a URN
    /// the registration's rules refuse ([`CompiledRules::check`]).
    pub fn practice_for(&self, urn: &Urn<'_>) -> Option<&Practice> {
        // Only whether: a failed practice form's message is never shown,
        // and making it (what else could come at the failing byte) cost
        // ten times the check for each fdc URN of a Peppol tree.
        self.practice
            .iter()
            .find(|p| p.rules.check_with(urn, false).is_none())
    }

    /// Whether a URN that starts with `prefix` may hold `byte` further
    /// on in the ':'-delimited part of the NSS `prefix` ends in, by the namespace's
    /// syntax or a practice form's (true with no syntax: RFC 8141's, or a
    /// built-in check alone, which no one can look into).
    pub fn admits_in_part(&self, prefix: &Urn<'_>, byte: u8) -> bool {
        let mut scratch = None;
        let nss = rules_nss(prefix, &mut scratch);
        self.matcher
            .as_ref()
            .is_none_or(|m| m.admits_in_part(nss.as_bytes(), byte, b':'))
            || self.practice.iter().any(|p| p.rules.admits_in_part(prefix, byte))
    }

    /// The form of the NSS syntax check; `None`: generic syntax only.
    pub fn syntax_kind(&self) -> Option<SyntaxKind> {
        self.syntax_kind
    }

    /// The violations of the namespace's NSS syntax by `urn` (offsets in
    /// the whole URN).
    pub fn check(&self, urn: &Urn<'_>) -> Option<RuleViolation> {
        self.check_with(urn, true)
    }

    /// [`CompiledRules::check`], with an empty message when `messages` is
    /// false (a caller that only needs validity, kinds and offsets).
    pub(crate) fn check_with(&self, urn: &Urn<'_>, messages: bool) -> Option<RuleViolation> {
        self.check_noted(urn, messages, None)
    }

    /// [`CompiledRules::check_with`], with `note` said after what a
    /// built-in check found and before the citation (a recommendation's).
    fn check_noted(&self, urn: &Urn<'_>, messages: bool, note: Option<&str>) -> Option<RuleViolation> {
        let mut scratch = None;
        let nss = rules_nss(urn, &mut scratch);
        let nss: &str = &nss;
        let base = urn.nss_start();
        if let Some(m) = &self.matcher
            && let Err(mismatch) = m.check(nss.as_bytes())
        {
            if let Some(v) = self.trailing_punctuation(urn.nid(), nss.as_bytes(), base, messages) {
                return Some(RuleViolation {
                    kind: ViolationKind::Syntax,
                    ..v
                });
            }
            // A mismatch inside a complete `%HH` is the escape's, said
            // whole where it starts (RFC 8141 section 2: `pct-encoded` is
            // one unit; publicid takes %2B but not %20).
            if !mismatch.at_end
                && let Some(at) = escape_around(nss.as_bytes(), mismatch.offset)
            {
                let escape = &nss[at..at + 3];
                let message = if messages
                    && let Some(hinted) = self.hinted(urn.nid(), nss.as_bytes(), at, base)
                {
                    hinted
                } else if messages {
                    format!(
                        "unexpected '{escape}'{} in NSS at byte {}: the namespace's syntax does not take this escape ({})",
                        escaped_char(escape),
                        base + at,
                        self.cite
                    )
                } else {
                    String::new()
                };
                return Some(RuleViolation {
                    kind: ViolationKind::Syntax,
                    offset: base + at,
                    message,
                });
            }
            let message = if !messages {
                String::new()
            } else if let Some(hinted) = self.hinted(urn.nid(), nss.as_bytes(), mismatch.offset, base) {
                hinted
            } else if mismatch.at_end {
                // What may come next, when it can be listed; else what
                // leads on past more of the same characters (a ':').
                let next = match expected_list(&m.expected_after(nss.as_bytes(), mismatch.offset)) {
                    Some(list) => format!("more: {list} next"),
                    None if !m.after_same_characters(nss.as_bytes(), mismatch.offset) => "more".to_string(),
                    None => match expected_list(&m.onward_after(nss.as_bytes(), mismatch.offset)) {
                        Some(list) => format!("more: {list} next, or more of the same characters first"),
                        None => "more".to_string(),
                    },
                };
                format!(
                    "NSS ends too early at byte {}: the namespace's syntax expects {next} ({})",
                    base + mismatch.offset,
                    self.cite
                )
            } else {
                // A literal the syntax requires here is said whole
                // (`std:`, not its first letter); else what may come.
                let forced = m.forced_after(nss.as_bytes(), mismatch.offset);
                let expected = if forced.len() > 1 && forced.iter().all(u8::is_ascii_graphic) {
                    format!(
                        "the namespace's syntax expects {} here",
                        crate::urn::quoted(&String::from_utf8_lossy(&forced))
                    )
                } else if let Some(words) = literal_choices(m, nss.as_bytes(), mismatch.offset) {
                    format!("the namespace's syntax expects {words} here")
                } else {
                    // "Like those before it" needs some before it, in its
                    // part: not at the start nor after a separator.
                    let onward = if m.after_same_characters(nss.as_bytes(), mismatch.offset) {
                        m.onward_after(nss.as_bytes(), mismatch.offset)
                    } else {
                        [false; 256]
                    };
                    expected_bytes(&m.expected_after(nss.as_bytes(), mismatch.offset), &onward)
                };
                format!(
                    "unexpected {} in NSS at byte {}: {expected} ({})",
                    describe(nss.as_bytes()[mismatch.offset]),
                    base + mismatch.offset,
                    self.cite
                )
            };
            return Some(RuleViolation {
                kind: ViolationKind::Syntax,
                offset: base + mismatch.offset,
                message,
            });
        }
        if let Some(check) = self.builtin
            && let Err(v) = builtin::with_messages(messages, || check(nss))
        {
            if let Some(v) = self.trailing_punctuation(urn.nid(), nss.as_bytes(), base, messages) {
                return Some(v);
            }
            return Some(RuleViolation {
                kind: ViolationKind::Check,
                offset: base + v.offset,
                message: if !messages {
                    String::new()
                } else if let Some(hinted) = self.hinted(urn.nid(), nss.as_bytes(), v.offset, base) {
                    hinted
                } else {
                    // Appended to the checker's own message: one string,
                    // the citation last (pushed in pieces, not through
                    // `write!`: an invalid line of `normalize` makes one).
                    // The checker's own section, when it names one, in
                    // place of the rules' citation: one citation, last.
                    let cite = v.cite.unwrap_or(&self.cite);
                    let mut message = v.message;
                    message.reserve(24 + cite.len() + note.map_or(0, |n| n.len() + 2));
                    message.push_str(" at byte ");
                    message.push_str(itoa::Buffer::new().format(base + v.offset));
                    if let Some(note) = note {
                        message.push_str("; ");
                        message.push_str(note);
                    }
                    message.push_str(" (");
                    message.push_str(cite);
                    message.push(')');
                    message
                },
            });
        }
        None
    }

    /// The message of the first hint whose wrong form `nss` takes, for a
    /// finding at byte `at` of `nss`, which starts at byte `base` of the
    /// URN (only ever called once the NSS has failed, and only for
    /// messages).
    #[cold]
    #[inline(never)]
    fn hinted(&self, nid: &str, nss: &[u8], at: usize, base: usize) -> Option<String> {
        match self.hints.iter().find(|h| h.fits(nss)) {
            Some(h) => Some(h.message(nss, at, base)),
            None => self.generic_hint(nid, nss, at, base),
        }
    }

    /// The mistakes of any namespace (where `generic_hints` is on): the
    /// NID repeated, punctuation after the URN.
    fn generic_hint(&self, nid: &str, nss: &[u8], at: usize, base: usize) -> Option<String> {
        if !self.generic_hints {
            return None;
        }
        // Mistakes of any namespace, said only when the URN without them
        // is valid: it parses, and its NSS passes the rules.
        let head = || match nss.get(at) {
            Some(&b) => format!("unexpected {} in NSS at byte {}", described(b), base + at),
            None => format!("the NSS ends at byte {}", base + at),
        };
        // The NID again, as a label ("urn:isbn:isbn:", "urn:isbn:ISBN ").
        if let Some(label) = nss.get(..nid.len() + 1)
            && label[..nid.len()].eq_ignore_ascii_case(nid.as_bytes())
            && matches!(label[nid.len()], b':' | b' ')
            && self.valid_with_nss(nid, &nss[nid.len() + 1..])
        {
            return Some(format!(
                "{}: '{}' repeats the NID: the NSS starts after 'urn:{nid}:' (RFC 8141 section 2)",
                head(),
                String::from_utf8_lossy(label).trim_end()
            ));
        }
        // Punctuation of the text the URN was taken from. (Not ':': an
        // NSS ending in one is a prefix waiting for a name, which the
        // syntax's own "ends too early" says better.)
        if let Some((&last, rest)) = nss.split_last()
            && TEXT_PUNCTUATION.contains(&last)
            && !rest.is_empty()
            && self.valid_with_nss(nid, rest)
        {
            return Some(punctuation_message(head(), last));
        }
        None
    }

    /// For an NSS these rules refuse that ends in punctuation of the
    /// text it was taken from (`.` `,` `;` `)` ...) and is valid without
    /// it: the finding at that last byte, where the fault is, whatever
    /// byte the syntax or check stopped at (an ISBN-10's `X.`, a form
    /// valid only by the owner's practice). Found whether or not messages
    /// are made, so the offset is the same either way; tried only on an
    /// NSS that has failed and ends in such a character.
    #[cold]
    #[inline(never)]
    fn trailing_punctuation(
        &self,
        nid: &str,
        nss: &[u8],
        base: usize,
        messages: bool,
    ) -> Option<RuleViolation> {
        let (&last, rest) = nss.split_last()?;
        if !self.generic_hints || rest.is_empty() || !TEXT_PUNCTUATION.contains(&last) {
            return None;
        }
        if !self.valid_with_nss(nid, rest) {
            return None;
        }
        let at = rest.len();
        Some(RuleViolation {
            kind: ViolationKind::Check,
            offset: base + at,
            // Found valid without it just above: said at once, not
            // checked again through the generic hints.
            message: if messages {
                punctuation_message(
                    format!("unexpected {} in NSS at byte {}", described(last), base + at),
                    last,
                )
            } else {
                String::new()
            },
        })
    }

    /// Whether `urn:` `nid` `:` `nss` is a valid URN of these rules: it
    /// parses (RFC 8141 section 2) and its NSS passes the syntax and the
    /// built-in check, or a form of the owner's practice (for a hint: is
    /// the URN valid once a mistake is taken away? Not only its NSS's
    /// characters: `10.1/a?b` is no DOI URN's).
    fn valid_with_nss(&self, nid: &str, nss: &[u8]) -> bool {
        let Ok(nss) = std::str::from_utf8(nss) else {
            return false;
        };
        let text = format!("urn:{nid}:{nss}");
        Urn::parse(&text).is_ok_and(|urn| {
            self.check_with(&urn, false).is_none()
                || self
                    .practice
                    .iter()
                    .any(|p| p.rules.check_with(&urn, false).is_none())
        })
    }

    /// For an input of this namespace that the generic parser refuses at
    /// byte `at` of the input: the message of the first hint whose wrong
    /// form the NSS as written takes (`nss`: the input after `urn:` NID
    /// `:`, which starts at byte `base`), but not a form that the NSS
    /// before the error already takes: that one says nothing of the error
    /// (a catch-all such as the params form, for `urn:ietf:params:xml:%F`
    /// or `...:a b`), and the parser's own message is said.
    #[cold]
    pub fn hint_for_unparsed(&self, nid: &str, nss: &[u8], at: usize, base: usize) -> Option<String> {
        let at = at.checked_sub(base)?;
        let before = nss.get(..at).unwrap_or(nss);
        match self.hints.iter().find(|h| h.fits(nss) && !h.fits(before)) {
            Some(h) => Some(h.message(nss, at, base)),
            None => self.generic_hint(nid, nss, at, base),
        }
    }

    /// Known wrong forms and what to say of them.
    pub fn hints(&self) -> &[Hint] {
        &self.hints
    }

    /// Components that mean nothing in this namespace but are present:
    /// `(offset of the delimiter, component name)`.
    pub fn unused_components(&self, urn: &Urn<'_>) -> Vec<(usize, &'static str)> {
        let Some(c) = self.components else {
            return Vec::new();
        };
        let found = urn.components();
        let mut out = Vec::new();
        let mut note = |present: Option<std::ops::Range<usize>>, meaningful: bool, delim: &str, name| {
            if let Some(part) = present
                && !meaningful
            {
                out.push((part.start - delim.len(), name));
            }
        };
        note(found.r, c.r, "?+", "r-component");
        note(found.q, c.q, "?=", "q-component");
        note(found.f, c.f, "#", "f-component");
        out
    }
}

/// The hint for an NSS valid without its last byte `last`, punctuation
/// of the text it was taken from, after `head` (where, and what).
fn punctuation_message(head: String, last: u8) -> String {
    format!(
        "{head}: the NSS is valid without its last {}: punctuation after a URN in text is no part of it (RFC 3986 Appendix C)",
        describe(last)
    )
}

/// Punctuation of running text that may follow a URN there (not ':', with
/// which an NSS waits for a name): tried off an NSS's end by the hints
/// (RFC 3986 Appendix C).
const TEXT_PUNCTUATION: &[u8] = b".,;)]}>'\"!";

/// The most characters of a citation derived from a source.
const MAX_CITE: usize = 40;

/// A short citation from a rules' `source`: its start up to the first `,`
/// `;` `:` or `(`, with `section` written `§`, at most `MAX_CITE`
/// characters (cut at a word).
pub fn cite(source: &str) -> String {
    let head = source.split([',', ';', ':', '(']).next().unwrap_or(source).trim();
    let mut cite = head.replace(" sections ", " §§").replace(" section ", " §");
    if cite.chars().count() > MAX_CITE {
        let cut: String = cite.chars().take(MAX_CITE).collect();
        cite = match cut.rfind(' ') {
            Some(i) if i > MAX_CITE / 2 => format!("{}…", &cut[..i]),
            _ => format!("{cut}…"),
        };
    }
    if cite.is_empty() {
        "the namespace's rules".into()
    } else {
        cite
    }
}

/// The rules of a test namespace `xy`, from a rules file's text (the
/// practice, recommendation and hint tests).
#[cfg(test)]
fn compiled(text: &str) -> Result<CompiledRules, RuleError> {
    toml::from_str::<RulesFile>(text).unwrap().compile("xy")
}

#[cfg(test)]
mod cite_tests {
    use super::cite;

    #[test]
    fn a_citation_is_the_start_of_the_source() {
        assert_eq!(
            cite("RFC 3085 section 2, Declaration of structure: ABNF NSS = ..."),
            "RFC 3085 §2"
        );
        assert_eq!(
            cite("RFC 8458 sections 4.2 and 4.3; more"),
            "RFC 8458 §§4.2 and 4.3"
        );
        assert_eq!(
            cite("ISBN registration 2017: the NSS is an ISBN"),
            "ISBN registration 2017"
        );
        assert_eq!(cite(""), "the namespace's rules");
        let long = cite("A registration with a very long name that goes on and on without any stop");
        assert!(long.chars().count() <= 41 && long.ends_with('…'), "{long}");
    }
}

/// The start of the complete `%HH` escape that holds the byte at `at`
/// past its `%` (a mismatch on the `%` itself is the escape's too, but is
/// already said where it starts).
fn escape_around(nss: &[u8], at: usize) -> Option<usize> {
    (at.saturating_sub(2)..at).find(|&start| {
        nss.get(start) == Some(&b'%')
            && nss.get(start + 1).is_some_and(u8::is_ascii_hexdigit)
            && nss.get(start + 2).is_some_and(u8::is_ascii_hexdigit)
    })
}

/// What a `%HH` escape stands for, when it is a printable or space ASCII
/// character: " (a space)", " ('#')"; else nothing.
fn escaped_char(escape: &str) -> String {
    match u8::from_str_radix(&escape[1..], 16) {
        Ok(b' ') => " (a space)".to_string(),
        Ok(b) if b.is_ascii_graphic() => format!(" ({})", describe(b)),
        _ => String::new(),
    }
}

/// What a namespace's syntax takes at a byte, for a message: "expected
/// 'a'-'z', '0'-'9' or '-'" when it is a short list of ranges; else what
/// of it leads on (`onward`, a ':' after a name) when that is short, "or
/// a character like those before it"; else the plain "not allowed by the
/// namespace's syntax".
fn expected_bytes(expected: &[bool; 256], onward: &[bool; 256]) -> String {
    match (expected_list(expected), expected_list(onward)) {
        (Some(list), _) => format!("the namespace's syntax expects {list} here"),
        (None, Some(list)) => {
            format!("the namespace's syntax expects {list} here, or a character like those before it")
        }
        (None, None) => "not allowed by the namespace's syntax".to_string(),
    }
}

/// The literals the syntax offers at `offset` when it offers a few, each
/// of more than one character (`'member:' or 'names:'`, RFC 3121's
/// branches): their first bytes alone would say little. `None` when a
/// choice leads on to no literal (a case-insensitive one, whose next
/// letter is a choice again, or a class of characters).
fn literal_choices(m: &Matcher, nss: &[u8], offset: usize) -> Option<String> {
    const MOST: usize = 4;
    let expected = m.expected_after(nss, offset);
    let firsts: Vec<u8> = (0..=255u8).filter(|&b| expected[usize::from(b)]).collect();
    if !(2..=MOST).contains(&firsts.len()) || !firsts.iter().all(u8::is_ascii_graphic) {
        return None;
    }
    let mut words = Vec::with_capacity(firsts.len());
    let mut prefix = nss[..offset.min(nss.len())].to_vec();
    for b in firsts {
        prefix.push(b);
        let rest = m.forced_after(&prefix, prefix.len());
        prefix.pop();
        if rest.is_empty() || !rest.iter().all(u8::is_ascii_graphic) {
            return None;
        }
        words.push(crate::urn::quoted(&format!(
            "{}{}",
            char::from(b),
            String::from_utf8_lossy(&rest)
        )));
    }
    // Long literals would make too long a message: the first bytes then.
    if words.iter().map(String::len).sum::<usize>() > 60 {
        return None;
    }
    let (last, rest) = words.split_last()?;
    Some(format!("{} or {last}", rest.join(", ")))
}

/// The bytes `expected` marks, listed for people (`'0'-'9' or ':'`), or
/// `None` when there are none or too many kinds to list.
fn expected_list(expected: &[bool; 256]) -> Option<String> {
    const MOST: usize = 6;
    // A range runs within digits, upper-case or lower-case letters; any
    // other byte stands alone.
    let class = |b: u8| match b {
        b'0'..=b'9' => 1,
        b'A'..=b'Z' => 2,
        b'a'..=b'z' => 3,
        _ => 0,
    };
    let mut ranges: Vec<(u8, u8)> = Vec::new();
    for b in 0..=255u8 {
        if !expected[usize::from(b)] {
            continue;
        }
        match ranges.last_mut() {
            Some((_, end))
                if usize::from(*end) + 1 == usize::from(b) && class(b) != 0 && class(b) == class(*end) =>
            {
                *end = b;
            }
            _ => ranges.push((b, b)),
        }
    }
    if ranges.is_empty() || ranges.len() > MOST || ranges.iter().any(|&(a, _)| !a.is_ascii()) {
        return None;
    }
    // Two neighbours are two items (`'s' or 't'`), a longer run a range.
    let items: Vec<String> = ranges
        .iter()
        .flat_map(|&(a, b)| match b - a {
            0 => vec![describe(a)],
            1 => vec![describe(a), describe(b)],
            _ => vec![format!("{}-{}", describe(a), describe(b))],
        })
        .collect();
    let (last, rest) = items.split_last()?;
    Some(if rest.is_empty() {
        last.clone()
    } else {
        format!("{} or {last}", rest.join(", "))
    })
}

/// [`describe`], a space said as the parser says it (a hint's message
/// may be about a space the generic parser refused).
fn described(b: u8) -> String {
    if b == b' ' {
        "' ' (space)".to_string()
    } else {
        describe(b)
    }
}

/// A byte in quotes (`'a'`, the apostrophe as the parser quotes it), or
/// `byte 0x1f`.
fn describe(b: u8) -> String {
    if b.is_ascii_graphic() {
        crate::urn::quoted_char(char::from(b))
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// The NSS as the rules see it: as the generic key has it (upper-case
/// `%HH`, RFC 8141 section 3.1). Only the hex digits change, so the length
/// and every offset stay; nothing is copied in the common case, and an NSS
/// of up to [`SCRATCH`] bytes that must change is changed in `scratch`, not
/// in a new string (callgrind, `check -q` of 200k lines: the allocation was
/// 2.5% of it). (Always inlined: outlined, its `Cow` went through memory on
/// every URN.) The buffer is made only when used: zeroing it for every URN
/// cost 0.9% of `check -q`.
#[inline(always)]
fn rules_nss<'a>(urn: &Urn<'a>, scratch: &'a mut Option<[u8; SCRATCH]>) -> Cow<'a, str> {
    if urn.nss_has_lower_hex() {
        upper_case_hex(urn.nss(), scratch.insert([0; SCRATCH]))
    } else {
        Cow::Borrowed(urn.nss())
    }
}

/// The bytes of the stack buffer [`rules_nss`] upper-cases an NSS in.
const SCRATCH: usize = 128;

/// `nss` with the hex digits of its `%HH` triplets in upper case, in
/// `scratch` when it fits (the rare case: kept out of line).
#[cold]
#[inline(never)]
fn upper_case_hex<'a>(nss: &str, scratch: &'a mut [u8; SCRATCH]) -> Cow<'a, str> {
    match scratch.get_mut(..nss.len()) {
        Some(bytes) => {
            bytes.copy_from_slice(nss.as_bytes());
            crate::urn::upper_case_hex_in_place(bytes);
            let bytes: &'a [u8] = bytes;
            // Only ASCII hex digits changed: still UTF-8.
            Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default())
        }
        None => {
            let mut bytes = nss.as_bytes().to_vec();
            crate::urn::upper_case_hex_in_place(&mut bytes);
            Cow::Owned(String::from_utf8(bytes).unwrap_or_default())
        }
    }
}

/// Lower-cases the ASCII letters of `s` outside `%HH` triplets, in place
/// (the hex digits of a triplet stay upper case, as the generic key has
/// them: RFC 8141 section 3.1).
pub(crate) fn lower_outside_escapes(s: &mut [u8]) {
    // The runs between escapes are lower-cased whole (a slice's
    // `make_ascii_lowercase` goes many bytes a step).
    let mut from = 0;
    while from < s.len() {
        let rest = &mut s[from..];
        let Some(i) = memchr::memchr(b'%', rest) else {
            rest.make_ascii_lowercase();
            break;
        };
        rest[..i].make_ascii_lowercase();
        from += i + 3;
    }
}

/// The NIDs of `[[rules.written_nid]]`, each once: each the namespace's
/// NID in another letter case, with an upper-case letter, citing where
/// the registration writes it so.
fn written_nids(nid: &str, written: &[WrittenNid]) -> Result<Vec<Box<str>>, String> {
    let mut nids: Vec<Box<str>> = Vec::new();
    for w in written {
        if w.source.trim().is_empty() {
            return Err(format!(
                "written_nid '{}': 'source' is required: where the registration writes the NID so",
                w.nid
            ));
        }
        if !w.nid.eq_ignore_ascii_case(nid) {
            return Err(format!("written_nid '{}' is not the NID '{nid}'", w.nid));
        }
        if !w.nid.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "written_nid '{}' is in lower case, which never gets a nid-case warning",
                w.nid
            ));
        }
        if !nids.iter().any(|n| **n == *w.nid) {
            nids.push(w.nid.as_str().into());
        }
    }
    Ok(nids)
}

impl CompiledRules {
    /// Whether the registration's own text writes the NID as `nid` does,
    /// in upper case (`URN:ISSN:`, `[[rules.written_nid]]`): a URN writing
    /// it so follows the registration (no `nid-case` warning).
    pub(crate) fn writes_nid(&self, nid: &str) -> bool {
        self.written_nids.iter().any(|n| **n == *nid)
    }

    /// Returns true if and only if the rules change the generic key.
    pub fn refines_keys(&self) -> bool {
        !self.equivalence.is_empty()
    }

    /// Applies the equivalence steps, in place, to the generic key that
    /// `buf[start..]` holds (`urn:` + lower-case NID + `:` + NSS). Only the
    /// key is read, so generic-equivalent URNs stay equivalent.
    pub fn refine_in_place(&self, buf: &mut Vec<u8>, start: usize) {
        if self.equivalence.is_empty() {
            return;
        }
        let Some(split) = buf
            .get(start + 4..)
            .and_then(|k| k.iter().position(|&b| b == b':'))
            .map(|i| start + i + 5)
        else {
            return;
        };
        apply_steps(&self.equivalence, buf, split);
    }

    /// Appends the key of `urn` under these rules to `out`: the generic
    /// key refined as [`Self::refine_in_place`] does. A first step that is
    /// a built-in normalizer reads the NSS where it lies in the URN, not a
    /// copy of the key's: the two are the same bytes when no `%hh` has a
    /// lower-case digit (RFC 8141 section 3.1 upper-cases only those), so
    /// only the key is read still.
    pub fn push_key(&self, urn: &Urn<'_>, out: &mut Vec<u8>) {
        let start = out.len();
        match self.equivalence.split_first() {
            Some((Step::Builtin(normalize), rest)) if !urn.nss_has_lower_hex() => {
                // "urn:" NID ":" lower-cased (section 3.1 items 1 and 2).
                out.extend_from_slice(&urn.as_str().as_bytes()[..urn.nss_start()]);
                out[start..].make_ascii_lowercase();
                let split = out.len();
                // As in `apply_steps`: the key stays a URN.
                if !normalize(urn.nss(), out) || matches!(out.get(split), None | Some(b'/')) {
                    out.truncate(split);
                    out.extend_from_slice(urn.nss().as_bytes());
                }
                apply_steps(rest, out, split);
            }
            _ => {
                // The key's NSS starts where the URN's does (only case
                // changes before it).
                urn.push_equivalence_key(out);
                apply_steps(&self.equivalence, out, start + urn.nss_start());
            }
        }
    }
}

/// Applies `steps` in order to the key in `buf`, whose NSS starts at
/// `split` and runs to the end.
fn apply_steps(steps: &[Step], buf: &mut Vec<u8>, split: usize) {
    for step in steps {
        let nss = &mut buf[split..];
        match step {
            Step::CaseInsensitiveNss => lower_outside_escapes(nss),
            Step::CaseInsensitiveParts(parts) => {
                let mut left = *parts;
                for part in nss.split_mut(|&b| b == b':') {
                    if left == 0 {
                        break;
                    }
                    lower_outside_escapes(part);
                    left -= 1;
                }
            }
            Step::CaseInsensitiveUntil(delimiter) => {
                let end = nss
                    .windows(delimiter.len().max(1))
                    .position(|w| w == delimiter.as_bytes())
                    .filter(|_| !delimiter.is_empty());
                if let Some(end) = end {
                    lower_outside_escapes(&mut nss[..end]);
                }
            }
            Step::Remove(chars) => {
                // The key stays a URN (RFC 8141 section 2: an NSS is
                // not empty and does not start with '/'): a removal
                // that would leave neither is not made.
                let first = nss.iter().find(|&&b| b == b'%' || !chars.as_bytes().contains(&b));
                if matches!(first, None | Some(b'/')) {
                    continue;
                }
                // Compact in place: `kept` never passes `i`.
                let (mut i, mut kept) = (0, 0);
                while i < nss.len() {
                    let take = if nss[i] == b'%' { 3.min(nss.len() - i) } else { 1 };
                    if take == 3 || !chars.as_bytes().contains(&nss[i]) {
                        nss.copy_within(i..i + take, kept);
                        kept += take;
                    }
                    i += take;
                }
                buf.truncate(split + kept);
            }
            Step::Builtin(normalize) => {
                // The normalizer reads the NSS and writes the new one
                // in its place: it reads a copy, on the stack when
                // short (no allocation), else on the heap.
                let mut short = [0u8; 64];
                let long;
                let copy: &[u8] = match short.get_mut(..nss.len()) {
                    Some(short) => {
                        short.copy_from_slice(nss);
                        short
                    }
                    None => {
                        long = nss.to_vec();
                        &long
                    }
                };
                let Ok(text) = std::str::from_utf8(copy) else {
                    continue;
                };
                buf.truncate(split);
                // The key stays a URN (RFC 8141 section 2: an NSS is not
                // empty and does not start with '/'): a normalizer that
                // would leave neither is not applied (`%2F10.1000/1`).
                if !normalize(text, buf) || matches!(buf.get(split), None | Some(b'/')) {
                    buf.truncate(split);
                    buf.extend_from_slice(copy);
                }
            }
        }
    }
}

impl KeyRefiner for CompiledRules {
    /// Applies the equivalence steps to the generic key ([`Self::refine_in_place`]).
    fn refine<'k>(&self, _urn: &Urn<'_>, key: Cow<'k, str>) -> Cow<'k, str> {
        if self.equivalence.is_empty() {
            return key;
        }
        let mut buf = key.into_owned().into_bytes();
        self.refine_in_place(&mut buf, 0);
        // Every step maps ASCII to ASCII (the key is ASCII: RFC 8141 section 2).
        Cow::Owned(String::from_utf8(buf).unwrap_or_default())
    }
}

#[cfg(test)]
mod hex_case_tests {
    use super::*;

    /// RFC 8141 section 3.1: `%2c` and `%2C` are the same URN, so a rule
    /// that accepts one accepts the other.
    #[test]
    fn rules_judge_percent_encodings_case_insensitively() {
        let file: RulesFile =
            toml::from_str("source = \"test\"\n[syntax]\nregex = '([a-z]|%[0-9A-F]{2})+'\n").unwrap();
        let rules = file.compile("xy").unwrap();
        for urn in ["urn:xy:a%2C", "urn:xy:a%2c", "urn:xy:%c3%a9t%C3%A9"] {
            assert!(rules.check(&Urn::parse(urn).unwrap()).is_none(), "{urn}");
        }
        let refused = rules.check(&Urn::parse("urn:xy:aB").unwrap());
        assert_eq!(refused.map(|v| v.offset), Some(8));
        // Past the stack buffer's SCRATCH bytes as well as within it, and
        // the offset of a refusal after the escapes is the written one.
        for n in [SCRATCH / 3 - 1, SCRATCH / 3 + 1, 200] {
            let nss = "%c3".repeat(n);
            let urn = format!("urn:xy:{nss}");
            assert!(rules.check(&Urn::parse(&urn).unwrap()).is_none(), "{n}");
            let bad = format!("{urn}B");
            let refused = rules.check(&Urn::parse(&bad).unwrap());
            assert_eq!(refused.map(|v| v.offset), Some(7 + nss.len()), "{n}");
        }
    }
}

#[cfg(test)]
mod refine_tests {
    use super::*;

    fn rules(steps: &str) -> CompiledRules {
        let file: RulesFile = toml::from_str(&format!("source = \"test\"\n{steps}")).unwrap();
        file.compile("xy").unwrap()
    }

    fn refined(rules: &CompiledRules, key: &str) -> String {
        // After some bytes of other output, as in a JSON line.
        let mut buf = b"{\"key\":\"".to_vec();
        let start = buf.len();
        buf.extend_from_slice(key.as_bytes());
        rules.refine_in_place(&mut buf, start);
        String::from_utf8(buf[start..].to_vec()).unwrap()
    }

    /// `push_key` (which may read the NSS from the URN) writes the key the
    /// generic key refined in place has, for every kind of first step, a
    /// built-in normalizer followed by more steps, lower-case `%hh` (read
    /// from the key then) and NSSs the normalizer does not take.
    #[test]
    fn push_key_is_the_refined_generic_key() {
        let forms = [
            "[[equivalence]]\nstep = \"builtin\"\nname = \"isbn\"\n",
            "[[equivalence]]\nstep = \"builtin\"\nname = \"pct-decode-pchar\"\n[[equivalence]]\nstep = \"case-insensitive-nss\"\n",
            "[[equivalence]]\nstep = \"builtin\"\nname = \"issn\"\n[[equivalence]]\nstep = \"remove\"\nchars = \"-\"\n",
            "[[equivalence]]\nstep = \"case-insensitive-nss\"\n",
            "",
        ];
        let urns = [
            "urn:xy:978-0-306-40615-7",
            "URN:XY:0-306-40615-2",
            "urn:Xy:0378-5955?+r?=q#f",
            "urn:xy:a%41b%2cZ",
            "urn:xy:a%41B%2CZ",
            "urn:xy:not-an-isbn",
            "urn:xy:03785955",
        ];
        for form in forms {
            let rules = rules(form);
            for text in urns {
                let urn = Urn::parse(text).unwrap();
                let mut want = b"{\"key\":\"".to_vec();
                let start = want.len();
                urn.push_equivalence_key(&mut want);
                rules.refine_in_place(&mut want, start);
                let mut got = b"{\"key\":\"".to_vec();
                rules.push_key(&urn, &mut got);
                assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want),
                    "{form} {text}"
                );
            }
        }
    }

    /// A built-in normalizer rewrites the NSS in place, whether the NSS is
    /// short (read from a copy on the stack) or long (from the heap); one
    /// that does not apply leaves the key as it was, and later steps run.
    #[test]
    fn builtin_normalizers_rewrite_short_and_long_nsss_in_place() {
        let decode = rules("[[equivalence]]\nstep = \"builtin\"\nname = \"pct-decode-pchar\"\n");
        assert_eq!(refined(&decode, "urn:xy:a%41b"), "urn:xy:aAb");
        let long = format!("{}%41{}", "x".repeat(70), "y".repeat(70));
        let want = format!("urn:xy:{}A{}", "x".repeat(70), "y".repeat(70));
        assert_eq!(refined(&decode, &format!("urn:xy:{long}")), want);

        let isbn_then_lower = rules(
            "[[equivalence]]\nstep = \"builtin\"\nname = \"isbn\"\n\
             [[equivalence]]\nstep = \"case-insensitive-nss\"\n",
        );
        assert_eq!(
            refined(&isbn_then_lower, "urn:xy:0-451-45052-3"),
            "urn:xy:9780451450524"
        );
        assert_eq!(
            refined(&isbn_then_lower, "urn:xy:NOT-AN-ISBN"),
            "urn:xy:not-an-isbn"
        );
        let long_upper = "Q".repeat(100);
        assert_eq!(
            refined(&isbn_then_lower, &format!("urn:xy:{long_upper}")),
            format!("urn:xy:{}", "q".repeat(100))
        );
    }

    /// Case-insensitive steps lower-case letters, never the hex digits of
    /// a `%HH` (RFC 8141 section 3.1 keeps them upper case), wherever the
    /// escapes fall: first, last, side by side, or none.
    #[test]
    fn case_insensitive_steps_keep_escapes_upper_case() {
        let lower = rules("[[equivalence]]\nstep = \"case-insensitive-nss\"\n");
        for (key, want) in [
            ("urn:xy:ABC", "urn:xy:abc"),
            ("urn:xy:%AB", "urn:xy:%AB"),
            ("urn:xy:A%BCD", "urn:xy:a%BCd"),
            ("urn:xy:%2C%3AQ%4F", "urn:xy:%2C%3Aq%4F"),
            ("urn:xy:XY%AF", "urn:xy:xy%AF"),
        ] {
            assert_eq!(refined(&lower, key), want, "{key}");
        }
    }
}

#[cfg(test)]
mod fast_walk_tests {
    use crate::Registry;

    /// The shipped UUID rule (RFC 4122 section 3: 8-4-4-4-12 hex digits)
    /// is read as a chain, checked position by position; a rule of
    /// varying length is not.
    #[test]
    fn the_shipped_uuid_rule_is_checked_as_a_chain() {
        let rules = |nid| {
            Registry::embedded()
                .namespace(nid)
                .unwrap()
                .rules()
                .unwrap()
                .unwrap()
        };
        let uuid = rules("uuid").matcher.as_ref().expect("an ABNF rule");
        assert!(uuid.walks_as_chain());
        assert!(uuid.check(b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6").is_ok());
        assert!(uuid.check(b"F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").is_ok());
        assert_eq!(
            uuid.check(b"f81d4fae-7dec-11d0-a765-00a0c91e6bfg")
                .unwrap_err()
                .offset,
            35
        );
        assert!(
            !rules("oid")
                .matcher
                .as_ref()
                .expect("an ABNF rule")
                .walks_as_chain()
        );
    }
}

#[cfg(test)]
mod practice_tests {
    use super::*;

    const RULES: &str = r#"
source = "RFC 3085 section 2"
[syntax]
regex = '[a-z.]+:[0-9]{8}:[A-Za-z0-9]+:[1-9][0-9]*'
[[equivalence]]
step = "case-insensitive-nss"
[[practice]]
source = "NewsML-G2 specification, guid"
note = "GUIDs without a RevisionId"
regex = '[a-z.]+:[0-9]{8}:[A-Za-z0-9]+'
examples = ["urn:xy:iptc.org:20081007:Tutorial"]
"#;

    /// A form the registration refuses but the owner's practice writes is
    /// found, with its source and its keys made by the namespace's steps.
    #[test]
    fn a_practice_form_is_found_and_keyed() {
        let rules = compiled(RULES).unwrap();
        let guid = Urn::parse("urn:xy:iptc.org:20081007:Tutorial").unwrap();
        assert!(rules.check(&guid).is_some(), "refused as registered");
        let practice = rules.practice_for(&guid).expect("the owner's form");
        assert_eq!(practice.source(), "NewsML-G2 specification, guid");
        assert_eq!(practice.note(), Some("GUIDs without a RevisionId"));
        assert_eq!(
            guid.equivalence_key_with(practice.rules()),
            "urn:xy:iptc.org:20081007:tutorial"
        );
        let neither = Urn::parse("urn:xy:iptc.org:2008:x").unwrap();
        assert!(rules.check(&neither).is_some());
        assert!(rules.practice_for(&neither).is_none());
    }

    /// Practice lists deviations only, cites the owner, and compiles like
    /// any rule.
    #[test]
    fn practice_is_refused_when_it_is_no_deviation_or_cites_nothing() {
        let valid_as_registered = RULES.replace(
            "examples = [\"urn:xy:iptc.org:20081007:Tutorial\"]",
            "examples = [\"urn:xy:iptc.org:20081007:Tutorial:1\"]",
        );
        let e = compiled(&valid_as_registered).unwrap_err().to_string();
        assert!(e.contains("practice 1") && e.contains("is refused"), "{e}");
        let wider = RULES.replace("regex = '[a-z.]+:[0-9]{8}:[A-Za-z0-9]+'", "regex = '.*'");
        let wider = wider.replace(
            "examples = [\"urn:xy:iptc.org:20081007:Tutorial\"]",
            "examples = [\"urn:xy:a:20081007:b:1\"]",
        );
        let e = compiled(&wider).unwrap_err().to_string();
        assert!(e.contains("is valid as registered"), "{e}");
        let unsourced = RULES.replace("source = \"NewsML-G2 specification, guid\"", "source = \" \"");
        let e = compiled(&unsourced).unwrap_err().to_string();
        assert!(e.contains("'source' is required"), "{e}");
        let no_syntax = RULES.replace("regex = '[a-z.]+:[0-9]{8}:[A-Za-z0-9]+'\n", "");
        let e = compiled(&no_syntax).unwrap_err().to_string();
        assert!(e.contains("needs abnf, regex or builtin"), "{e}");
        let many = format!(
            "{RULES}{}",
            "[[practice]]\nsource = \"s\"\nregex = 'x'\n".repeat(MAX_PRACTICE)
        );
        let e = compiled(&many).unwrap_err().to_string();
        assert!(e.contains("MAX_PRACTICE"), "{e}");
    }
}

#[cfg(test)]
pub(crate) mod should_tests {
    use super::*;

    /// RFC 9562 section 4's shape: any case is valid, lower case is what
    /// generators SHOULD write (also the validator's test of `nss-should`).
    pub(crate) const RULES: &str = r#"
source = "RFC 9562 section 4"
[syntax]
regex = '[0-9A-Fa-f]{8}'
[[should]]
source = "RFC 9562 section 4"
note = "hex digits should be lower case"
regex = '[0-9a-f]{8}'
examples = ["urn:xy:ABCDEF01"]
"#;

    /// A `remove` step never leaves a key that is no URN (RFC 8141
    /// section 2: an NSS is not empty and does not start with '/'): such a
    /// removal is not made; others are.
    #[test]
    fn a_removal_keeps_the_key_a_urn() {
        let rules =
            compiled("source = \"x\"\n[[equivalence]]\nstep = \"remove\"\nchars = \":a-\"\n").unwrap();
        for (urn, key) in [
            ("urn:xy:a:b", "urn:xy:b"),
            ("urn:xy:a:-", "urn:xy:a:-"),
            ("urn:xy:a/b", "urn:xy:a/b"),
            ("urn:xy:%61-b", "urn:xy:%61b"),
        ] {
            let parsed = Urn::parse(urn).unwrap();
            let refined = parsed.equivalence_key_with(&rules);
            assert_eq!(refined, key, "{urn}");
            assert!(Urn::parse(&refined).is_ok(), "{urn}: {refined}");
        }
    }

    /// A valid URN that does not follow the recommendation is found, with
    /// the offset where it departs; one that follows it is not.
    #[test]
    fn a_departure_from_a_should_is_found_where_it_starts() {
        let rules = compiled(RULES).unwrap();
        let [should] = rules.should() else {
            panic!("one recommendation")
        };
        let upper = Urn::parse("urn:xy:abcDEF01").unwrap();
        assert!(rules.check(&upper).is_none(), "valid");
        assert_eq!(should.departure(&upper), Some(10));
        assert_eq!(
            should.message(&upper),
            "hex digits should be lower case (RFC 9562 §4)"
        );
        assert_eq!(should.departure(&Urn::parse("urn:xy:abcdef01").unwrap()), None);
    }

    /// A recommendation cites its source, says something, and its
    /// examples are valid URNs that do not follow it.
    #[test]
    fn a_should_is_refused_without_source_note_or_fitting_examples() {
        let e = compiled(&RULES.replace(
            "examples = [\"urn:xy:ABCDEF01\"]",
            "examples = [\"urn:xy:abcdef01\"]",
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("should 1") && e.contains("follows the recommendation"),
            "{e}"
        );
        let e = compiled(&RULES.replace(
            "examples = [\"urn:xy:ABCDEF01\"]",
            "examples = [\"urn:xy:ABCDEF\"]",
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("is not valid by the registration"), "{e}");
        let e = compiled(&RULES.replace("note = \"hex digits should be lower case\"", "note = \"\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("'note' is required"), "{e}");
        let e = compiled(&RULES.replacen("source = \"RFC 9562 section 4\"\nnote", "source = \"\"\nnote", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("'source' is required"), "{e}");
        let many = format!(
            "{RULES}{}",
            "[[should]]\nsource = \"s\"\nnote = \"n\"\nregex = 'x'\n".repeat(MAX_SHOULD)
        );
        let e = compiled(&many).unwrap_err().to_string();
        assert!(e.contains("MAX_SHOULD"), "{e}");
    }
}

#[cfg(test)]
mod expected_tests {
    use super::expected_bytes;
    use crate::{Checker, Registry};

    fn set(bytes: &[u8]) -> [bool; 256] {
        let mut s = [false; 256];
        for &b in bytes {
            s[usize::from(b)] = true;
        }
        s
    }

    /// Ranges run within digits and letters of one case; other bytes
    /// stand alone; a long or non-ASCII set is not listed.
    #[test]
    fn expected_bytes_are_short_ranges_or_not_listed() {
        assert_eq!(
            expected_bytes(&set(b"0123456789"), &set(b"")),
            "the namespace's syntax expects '0'-'9' here"
        );
        assert_eq!(
            expected_bytes(&set(b"-0123456789:AB"), &set(b":")),
            "the namespace's syntax expects '-', '0'-'9', ':', 'A' or 'B' here"
        );
        assert_eq!(
            expected_bytes(&set(b"!$&'()*+,;="), &set(b"")),
            "not allowed by the namespace's syntax"
        );
        assert_eq!(
            expected_bytes(&set(b"a\xc3"), &set(b"")),
            "not allowed by the namespace's syntax"
        );
        assert_eq!(
            expected_bytes(&set(b""), &set(b"")),
            "not allowed by the namespace's syntax"
        );
    }

    /// A long set with a short part that leads on (a ':' after a name of
    /// many kinds of characters) says that part.
    #[test]
    fn a_long_set_says_what_leads_on() {
        assert_eq!(
            expected_bytes(&set(b"!$&'()*+,;=:"), &set(b":")),
            "the namespace's syntax expects ':' here, or a character like those before it"
        );
        assert_eq!(
            expected_bytes(&set(b"!$&'()*+,;=:"), &set(b"!$&'()*+,;=:")),
            "not allowed by the namespace's syntax"
        );
    }

    /// NSSs cut short before a ':' separator (RFC 3541, RFC 3614, ieee,
    /// itu, RFC 9517): the message names the ':' that is missing, where
    /// the whole set of what may come next is too long to list.
    #[test]
    fn an_nss_cut_short_before_a_colon_says_the_colon() {
        let registry = Registry::embedded();
        for (urn, at, next) in [
            ("urn:web3d:vrml97", 16, "':'"),
            ("urn:mpeg:mpeg7", 14, "':'"),
            ("urn:ieee:std", 12, "':'"),
            ("urn:itu:t:rec", 13, "':'"),
            // RFC 9517: a resource identifier goes on after '/' too.
            ("urn:ddi:us.ddia1:R-V1", 21, "'/' or ':'"),
            ("urn:ddi:dda.dk.ddi:StudyUnit.su_1.1.0.1", 39, "'/' or ':'"),
        ] {
            let report = Checker::new(registry).check_str(urn);
            let e = report.errors().next().unwrap_or_else(|| panic!("{urn} is valid"));
            let message = e.to_string();
            assert_eq!(e.offset(), at, "{urn}: {message}");
            let said = format!(
                "NSS ends too early at byte {at}: the namespace's syntax expects more: {next} next, or more of the same characters first"
            );
            assert!(message.contains(&said), "{urn}: {message}");
        }
    }

    /// "Like those before it" and "more of the same characters" need
    /// characters before them in their ':'-part: at the NSS's start or
    /// right after a ':' the plain messages stand (3GPP2 registration).
    #[test]
    fn nothing_is_like_the_characters_before_when_there_are_none() {
        let registry = Registry::embedded();
        for (urn, said) in [
            (
                "urn:3gpp2::x",
                "unexpected ':' in NSS at byte 10: not allowed by the namespace's syntax (",
            ),
            (
                "urn:3gpp2:a~b",
                "unexpected '~' in NSS at byte 11: the namespace's syntax expects ':' here, or a character like those before it (",
            ),
        ] {
            let report = Checker::new(registry).check_str(urn);
            let message = report.errors().next().unwrap().to_string();
            assert!(message.starts_with(said), "{urn}: {message}");
        }
    }

    /// The same holds after any separator, not only ':' (RFC 3151's words
    /// are joined by '+'): after a '+' nothing is "like those before it";
    /// a character that may repeat (':' inside a word) is. A syntax that
    /// takes only some escapes takes them as more of the same.
    #[test]
    fn nothing_is_like_the_characters_before_a_separator_of_any_kind() {
        let rules = super::compiled(
            r#"
source = "RFC 3151 section 2"
[syntax]
abnf = '''
nss = word *( "+" word )
word = 1*( ALPHA / DIGIT / "-" / "." / ":" / "%2F" )
'''
"#,
        )
        .unwrap();
        for (nss, said) in [
            (
                "a+",
                "NSS ends too early at byte 9: the namespace's syntax expects more (",
            ),
            (
                "a++b",
                "unexpected '+' in NSS at byte 9: not allowed by the namespace's syntax (",
            ),
            (
                "+a",
                "unexpected '+' in NSS at byte 7: not allowed by the namespace's syntax (",
            ),
            (
                "a:/b",
                "unexpected '/' in NSS at byte 9: the namespace's syntax expects '+' here, or a character like those before it (",
            ),
            (
                "a%2F/b",
                "unexpected '/' in NSS at byte 11: the namespace's syntax expects '+' here, or a character like those before it (",
            ),
        ] {
            let text = format!("urn:xy:{nss}");
            let message = rules
                .check(&crate::urn::Urn::parse(&text).unwrap())
                .unwrap()
                .message;
            assert!(message.starts_with(said), "{nss}: {message}");
        }
    }

    /// A literal the syntax requires is said whole (RFC 5141 section
    /// 2.4.1: every ISO NSS begins with "std:"), up to a choice; a choice
    /// inside a word leaves the word out.
    #[test]
    fn a_required_literal_is_said_whole() {
        let registry = Registry::embedded();
        for (urn, said) in [
            (
                "urn:iso:15118:2:2010:MsgDef",
                "unexpected '1' in NSS at byte 8: the namespace's syntax expects 'std:' here",
            ),
            (
                "urn:iso:std:ansi:9999",
                "unexpected 'a' in NSS at byte 12: the namespace's syntax expects 'I' or 'i' here",
            ),
            // A choice of literals (RFC 3121 section 2: the member and
            // names branches) is said as the literals; one of them leading
            // to another choice (names' tc and technical) leaves the
            // first bytes.
            (
                "urn:oasis:xacml:2.0:saml:protocol:schema:cd",
                "unexpected 'x' in NSS at byte 10: the namespace's syntax expects 'member:' or 'names:' here",
            ),
            (
                "urn:oasis:names:x:y",
                "unexpected 'x' in NSS at byte 16: the namespace's syntax expects 's' or 't' here",
            ),
        ] {
            let report = Checker::new(registry).check_str(urn);
            let message = report.errors().next().unwrap().to_string();
            assert!(message.starts_with(said), "{urn}: {message}");
        }
    }

    /// A UUID with a bad hex digit (RFC 4122 section 3): the message says
    /// what the syntax takes there.
    #[test]
    fn a_syntax_mismatch_says_what_was_expected() {
        let registry = Registry::embedded();
        let report = Checker::new(registry).check_str("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bfg");
        let message = report.errors().next().unwrap().to_string();
        assert!(
            message.contains("expects '0'-'9', 'A'-'F' or 'a'-'f' here (RFC 4122"),
            "{message}"
        );
    }
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    /// RFC 3061 section 2's shape: dotted decimal without leading zeros,
    /// and a hint saying so.
    const RULES: &str = r#"
source = "RFC 3061 section 2"
[syntax]
regex = '(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*'
[[hint]]
source = "RFC 3061 section 2, Declaration of structure"
note = "an arc has no leading zeros"
regex = '([0-9.]*\.)?0[0-9].*'
examples = ["urn:xy:1.03"]
"#;

    /// A refused NSS of the hint's form is said in the hint's words, at
    /// the offset the syntax found; without messages, nothing is said.
    #[test]
    fn a_hint_says_what_is_wrong_where_the_syntax_fails() {
        let rules = compiled(RULES).unwrap();
        let urn = Urn::parse("urn:xy:1.03").unwrap();
        let v = rules.check(&urn).unwrap();
        assert_eq!(v.offset, 10);
        assert_eq!(
            v.message,
            "unexpected '3' in NSS at byte 10: an arc has no leading zeros (RFC 3061 §2)"
        );
        assert_eq!(rules.check_with(&urn, false).unwrap().message, "");
        // Not of the form: the syntax's own message.
        let other = rules.check(&Urn::parse("urn:xy:1.a").unwrap()).unwrap();
        assert!(other.message.contains("expects"), "{}", other.message);
        // Valid: no hint is looked at.
        assert!(rules.check(&Urn::parse("urn:xy:1.30").unwrap()).is_none());
        // The NSS as written, for an input the parser refuses.
        assert_eq!(
            rules.hint_for_unparsed("xy", b"01{", 7, 7).as_deref(),
            Some("unexpected '0' in NSS at byte 7: an arc has no leading zeros (RFC 3061 §2)")
        );
        assert_eq!(rules.hint_for_unparsed("xy", b"01{", 3, 7), None);
    }

    /// Bad or hostile hint data is refused with a clear error, never a
    /// panic: no source, no note, a note too long, no form, no examples,
    /// examples that are valid, of another namespace or not of the form,
    /// a form that does not compile, too many hints.
    #[test]
    fn bad_hints_are_refused_with_a_clear_error() {
        let with = |from: &str, to: &str| {
            assert!(RULES.contains(from), "{from}");
            compiled(&RULES.replacen(from, to, 1)).unwrap_err().to_string()
        };
        let source = "source = \"RFC 3061 section 2, Declaration of structure\"";
        let examples = "examples = [\"urn:xy:1.03\"]";
        for (from, to, said) in [
            (source, "source = \" \"", "'source' is required"),
            (
                "note = \"an arc has no leading zeros\"",
                "note = \"\"",
                "'note' is required",
            ),
            ("regex = '([0-9.]*\\.)?0[0-9].*'\n", "", "needs abnf or regex"),
            (
                "regex = '([0-9.]*\\.)?0[0-9].*'",
                "regex = '(('",
                "does not compile",
            ),
            (examples, "examples = []", "needs examples"),
            (examples, "examples = [\"urn:xy:1.3\"]", "is valid"),
            (
                examples,
                "examples = [\"urn:zz:1.03\"]",
                "not in the 'xy' namespace",
            ),
            (
                examples,
                "examples = [\"urn:xy:1.a\"]",
                "does not take the hint's form",
            ),
            (
                examples,
                "examples = [\"urn:xy:1{\"]",
                "does not take the hint's form",
            ),
            (examples, "examples = [\"nonsense\"]", "not in the 'xy' namespace"),
        ] {
            let e = with(from, to);
            assert!(e.contains("hint 1") && e.contains(said), "{to}: {e}");
        }
        let long = format!("note = \"{}\"", "x".repeat(MAX_HINT_NOTE + 1));
        let e = with("note = \"an arc has no leading zeros\"", &long);
        assert!(e.contains("MAX_HINT_NOTE"), "{e}");
        let many = format!(
            "{RULES}{}",
            "[[hint]]\nsource = \"s\"\nnote = \"n\"\nregex = 'x'\nexamples = [\"urn:xy:x\"]\n"
                .repeat(MAX_HINTS)
        );
        let e = compiled(&many).unwrap_err().to_string();
        assert!(e.contains("MAX_HINTS"), "{e}");
    }

    /// Only `urn:` NID `:` and what follows is an NSS as written.
    #[test]
    fn the_nss_as_written_follows_urn_and_a_nid() {
        assert_eq!(written_nss("URN:uuid:{x}"), Some(("uuid", &b"{x}"[..])));
        assert_eq!(written_nss("urn:uuid"), None);
        assert_eq!(written_nss("urn::x"), None);
        assert_eq!(written_nss("urn:a b:x"), None);
        assert_eq!(written_nss("ur"), None);
        assert_eq!(written_nss("urné:x:y"), None);
    }
}

#[cfg(test)]
mod written_nid_tests {
    use super::*;

    /// RFC 8458 section 4.3 writes `URN:NBN:fi-fe201003181510`: the NID as
    /// the registration's text writes it (`[[rules.written_nid]]`), not as
    /// the rules file's examples happen to, ends the `nid-case` warning.
    #[test]
    fn the_nid_as_the_registration_writes_it_comes_from_written_nid_not_examples() {
        let with = compiled(
            "source = \"s\"\n[[written_nid]]\nnid = \"XY\"\nsource = \"the registration's examples\"\n",
        )
        .unwrap();
        assert!(with.writes_nid("XY"));
        assert!(!with.writes_nid("Xy"));
        // An example written in upper case says nothing of the NID's case.
        let examples_only = compiled("source = \"s\"\n[examples]\nvalid = [\"URN:XY:a\"]\n").unwrap();
        assert!(!examples_only.writes_nid("XY"));
    }

    #[test]
    fn a_written_nid_is_the_nid_in_upper_case_with_its_source() {
        for (entry, said) in [
            ("nid = \"XZ\"\nsource = \"s\"", "is not the NID"),
            ("nid = \"xy\"\nsource = \"s\"", "in lower case"),
            ("nid = \"XY\"\nsource = \" \"", "'source' is required"),
        ] {
            let e = compiled(&format!("source = \"s\"\n[[written_nid]]\n{entry}\n"))
                .err()
                .unwrap_or_else(|| panic!("{entry}"));
            assert!(e.0.contains(said), "{entry}: {}", e.0);
        }
    }

    /// The shipped registrations that write their NID in upper case: each
    /// is said, with its source, whichever examples the file lists.
    #[test]
    fn shipped_registrations_writing_the_nid_in_upper_case() {
        let registry = crate::Registry::embedded();
        for urn in [
            "URN:NBN:fi-fe201003181510",
            "URN:NBN:no-nb_digibok_2008051404065",
            "urn:ISSN:0317-8471",
            "URN:ISBN:978-951-0-18435-6",
            "urn:LEI:7LTWFZYICNSX8D621K86",
            "URN:CLEI:D4CE18B7AA",
            "URN:S1000D:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN",
            "URN:IVIS:100001:EP.DA-DA616-V1-0",
            "URN:NAN:fi:ka:a-1510439051",
        ] {
            let report = registry.check(urn);
            assert!(report.is_valid(), "{urn}");
            assert!(
                report.findings().iter().all(|f| f.code() != "nid-case"),
                "{urn}: {:?}",
                report
                    .findings()
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
            );
        }
        // Another letter case than the registration's is still said.
        let report = registry.check("urn:Nbn:fi-fe201003181510");
        assert!(report.findings().iter().any(|f| f.code() == "nid-case"));
    }
}

#[cfg(test)]
mod should_punctuation_tests {
    /// The namespace's own rules say "the NSS is valid without its last
    /// '.'" (RFC 3986 Appendix C); a recommendation that the URN follows
    /// without its last punctuation says the same, not what its check
    /// expected at the '.'.
    #[test]
    fn a_recommendation_followed_without_the_last_punctuation_says_so() {
        let registry = crate::Registry::embedded();
        let report = registry.check("urn:nbn:de:gbv:46-00107698-18.");
        assert!(report.is_valid());
        let should: Vec<_> = report
            .findings()
            .iter()
            .filter(|f| f.code() == "nss-should")
            .collect();
        assert_eq!(should.len(), 1, "{should:?}");
        assert_eq!(should[0].offset(), 29);
        let said = should[0].to_string();
        assert!(
            said.contains("without its last '.'") && said.contains("RFC 3986 Appendix C"),
            "{said}"
        );
        // A wrong check digit before the '.' is what the check says.
        let report = registry.check("urn:nbn:de:gbv:46-00107698-17.");
        let said = report
            .findings()
            .iter()
            .find(|f| f.code() == "nss-should")
            .map(|f| f.to_string())
            .unwrap_or_default();
        assert!(
            said.contains("check digit") && !said.contains("without its last"),
            "{said}"
        );
        // No punctuation, or a component after it: no such words.
        for urn in [
            "urn:nbn:de:gbv:46-00107698-17",
            "urn:nbn:de:gbv:46-00107698-18.#x",
        ] {
            let report = registry.check(urn);
            assert!(
                report
                    .findings()
                    .iter()
                    .all(|f| !f.to_string().contains("without its last")),
                "{urn}"
            );
        }
    }
}

#[cfg(test)]
mod key_fixed_point_tests {
    use super::*;

    fn rules(steps: &str) -> Result<CompiledRules, RuleError> {
        toml::from_str::<RulesFile>(&format!("source = \"test\"\n{steps}"))
            .unwrap()
            .compile("xy")
    }

    /// Step orders whose key changes when normalized again are refused
    /// when rules are filed; the same steps in the other order are taken
    /// (found in hostile testing).
    #[test]
    fn step_orders_whose_key_is_not_its_own_key_are_refused() {
        let parts = "[[equivalence]]\nstep = \"case-insensitive-parts\"\nparts = 1\n";
        let until = "[[equivalence]]\nstep = \"case-insensitive-until\"\ndelimiter = \"ab\"\n";
        let nss = "[[equivalence]]\nstep = \"case-insensitive-nss\"\n";
        let remove = |chars: &str| format!("[[equivalence]]\nstep = \"remove\"\nchars = \"{chars}\"\n");
        for (steps, said) in [
            (format!("{parts}{}", remove(":")), "moves the parts"),
            (format!("{until}{}", remove("-")), "can make the delimiter"),
            (format!("{}{nss}", remove("a")), "letters"),
        ] {
            let e = rules(&steps).err().unwrap_or_else(|| panic!("{steps}"));
            assert!(e.0.contains(said), "{steps}: {}", e.0);
        }
        for steps in [
            format!("{}{parts}", remove(":")),
            format!("{}{until}", remove("-")),
            format!("{nss}{}", remove("a")),
            format!("{parts}{}", remove("-")),
        ] {
            assert!(rules(&steps).is_ok(), "{steps}");
        }
    }

    /// A note or source with a line feed or an escape is refused when
    /// rules are filed: a message is one line of a report, and must not
    /// write a forged verdict line (found in hostile testing).
    #[test]
    fn notes_and_sources_are_one_line_of_text() {
        for (form, said) in [
            (
                "[[hint]]\nsource = \"s\"\nnote = \"n\\nvalid   urn:forged:x\"\nregex = \"[0-9]+\"\nexamples = [\"urn:xy:1\"]\n[syntax]\nregex = \"[a-z]+\"\n",
                "hint note",
            ),
            (
                "[[should]]\nsource = \"s\\u001b[2J\"\nnote = \"n\"\nregex = \"[a-z]+\"\n",
                "should source",
            ),
        ] {
            let e = rules(form).err().unwrap_or_else(|| panic!("{form}"));
            assert!(e.0.contains(said) && e.0.contains("control character"), "{}", e.0);
        }
    }

    /// A built-in normalizer that would leave an NSS starting with '/' (no
    /// URN, RFC 8141 section 2) is not applied: `%2F10.1000/182`, which the
    /// DOI registration's DOI-PREFIX takes, keys to itself, percent-encoded,
    /// and its key is its own key.
    #[test]
    fn a_key_stays_a_urn_and_its_own_key() {
        let registry = crate::Registry::embedded();
        for urn in [
            "urn:doi:%2F10.1000/182",
            "urn:doi:10.123:a:b",
            "urn:doi:10.123/a:b",
        ] {
            let report = registry.check(urn);
            let key = report.key().unwrap_or_else(|| panic!("{urn}")).to_string();
            assert!(Urn::parse(&key).is_ok(), "{urn} keys to {key}");
            let again = registry.check(&key);
            assert_eq!(again.key().map(|k| k.to_string()), Some(key.clone()), "{urn}");
        }
    }
}

#[cfg(test)]
mod should_source_tests {
    /// An `nss-should` finding's whole source is its own recommendation's
    /// (`[[rules.should]]`'s `source`), not the namespace's general one:
    /// the DNB's check digit is the DNB's, the ISSN hyphen the ISSN
    /// registration's; in the report and in its JSON.
    #[test]
    fn a_should_finding_cites_its_own_source() {
        let registry = crate::Registry::embedded();
        for (urn, own) in [
            (
                "urn:nbn:de:gbv:089-3321752946",
                "Deutsche Nationalbibliothek, the urn:nbn:de check digit",
            ),
            ("urn:issn:03178471", "ISSN registration"),
        ] {
            let report = registry.check(urn);
            let finding = report
                .findings()
                .iter()
                .find(|f| f.code() == "nss-should")
                .unwrap_or_else(|| panic!("{urn}: no nss-should"));
            let source = report.source_of(finding).unwrap();
            let general = report.rules().unwrap().source();
            assert!(source.starts_with(own), "{urn}: {source}");
            assert_ne!(source, general, "{urn}");
            let mut json = Vec::new();
            report.write_json(&mut json, None);
            let json = String::from_utf8(json).unwrap();
            let cited = format!("\"source\":{}", crate::json_text::json_string(source));
            assert!(json.contains(&cited), "{urn}: {json}");
        }
    }
}
