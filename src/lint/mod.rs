//! `urnreg lint`: what an expert reviewer checks first in a registration
//! (RFC 8141 sections 5, 6 and Appendix A).
//!
//! Errors are what the RFC requires (section 5.1 NID rules, required
//! fields, version, date, revision information, an ABNF that does not
//! compile, rules that do not compile, fail their examples or take an
//! equivalence away, an ABNF for the NSS left without rules); `request`,
//! `revise` and `amend` refuse a file with any ([`vet`]). Warnings are what
//! reviewers are asked to watch for: NIDs that look like country codes,
//! URI schemes or registered NIDs, a Syntax that never speaks of
//! equivalence, vague Resolution or Interoperability sections, a revision
//! that drops the rules in force. Every finding names its rule, the field
//! and the RFC section.

mod abnf_text;
mod location;
mod rules;

use std::collections::BTreeMap;

use serde::Serialize;

pub use abnf_text::find_abnf;
pub use location::{Location, locate};

use crate::clock::is_valid_date;
use crate::registry::registration::REQUIRED_FIELDS;
use crate::registry::{Error, Filing, Kind, Problem, RegistrationFile, Store, Vetted};

/// ISO 3166-1 alpha-3 codes, shipped as data.
const ISO_3166_ALPHA3: &str = include_str!("iso3166-alpha3.txt");
/// URI scheme names of the IANA registry, shipped as data.
const URI_SCHEMES: &str = include_str!("uri-schemes.txt");

/// Every rule lint applies, by name.
pub const RULES: &[&str] = &[
    "kind-missing",
    "nid-missing",
    "nid-syntax",
    "nid-urn-prefix",
    "nid-too-short",
    "nid-country-prefix",
    "nid-experimental",
    "nid-reserved",
    "nid-informal-given",
    "nid-registered",
    "version",
    "date",
    "required-field",
    "revision-information",
    "syntax-abnf",
    "rules",
    "rules-missing",
    "rules-merge",
    "rules-informal-examples",
    "rfc3406-field",
    "syntax-abnf-prose",
    "syntax-equivalence",
    "nid-country-code",
    "nid-uri-scheme",
    "nid-similar",
    "nid-confusable",
    "vague-section",
    "rules-dropped",
    "rules-practice",
    "rules-resolution-http",
    "rules-resolution-service",
    "rules-resolution-keyword",
];

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The RFC requires otherwise: the registration cannot be filed.
    Error,
    /// A reviewer will ask about it.
    Warning,
}

/// One thing lint found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// A stable name for the rule, e.g. `nid-country-code`.
    pub rule: &'static str,
    /// The field of the registration file it is about.
    pub field: String,
    /// The part of the RFC that asks for it, e.g. `RFC 8141 section 5.1`.
    pub section: &'static str,
    /// What is wrong, for people.
    pub message: String,
    /// Text to paste into the registration file to fix it, if lint can
    /// write it (e.g. the `[rules]` table for the Syntax field's ABNF).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Where in the field's value the problem is, as a byte offset into
    /// the value (`None`: the field as a whole). [`locate`] turns it into
    /// a line and column of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.section)
    }
}

/// What lint knows of a registered NID.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Registered {
    /// The version in force (`None` when the registry holds no
    /// registration text for it).
    pub version: Option<i64>,
    /// Whether rules are in force for it.
    pub has_rules: bool,
    /// Whether it is withdrawn (never to be reused).
    pub withdrawn: bool,
}

/// What lint knows of the registry.
#[derive(Clone, Debug, Default)]
pub struct LintContext {
    /// Registered (and withdrawn) NIDs, lower case.
    pub registered: BTreeMap<String, Registered>,
    /// The resolution sub-registries with what the namespaces in force
    /// declare ([`crate::Registry::query`]); `None`: the built-in
    /// registry's.
    pub query: Option<crate::resolve::QueryRegistry>,
}

impl LintContext {
    /// What `store` holds: every NID ever registered (withdrawn ones are
    /// not reused either), its version in force and whether it has rules.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub fn of(store: &Store) -> crate::registry::Result<LintContext> {
        let in_force = store.in_force()?;
        let query = store.query_registry()?.with_declared_rules(
            in_force
                .iter()
                .filter(|n| n.status == crate::registry::NamespaceStatus::Registered)
                .filter_map(|n| Some((n.nid.as_str(), n.rules.as_deref()?))),
        );
        let registered = in_force
            .into_iter()
            .map(|n| {
                (
                    n.nid.to_ascii_lowercase(),
                    Registered {
                        version: n.version,
                        has_rules: n.rules.is_some(),
                        withdrawn: n.status == crate::registry::NamespaceStatus::Withdrawn,
                    },
                )
            })
            .collect();
        Ok(LintContext {
            registered,
            query: Some(query),
        })
    }

    /// A file naming a registered NID is a revision of it; anything else
    /// is a request.
    pub fn filing_for(&self, file: &RegistrationFile) -> Filing {
        match file.nid.as_deref().map(str::to_ascii_lowercase) {
            Some(nid) if self.registered.contains_key(&nid) && file.version.is_none_or(|v| v > 1) => {
                Filing::Revision {
                    current: self.registered[&nid].version,
                    nid,
                }
            }
            _ => Filing::Request,
        }
    }
}

/// Lints `file`, as a request or revision according to
/// [`LintContext::filing_for`].
pub fn lint(file: &RegistrationFile, ctx: &LintContext) -> Vec<Finding> {
    lint_as(file, ctx, &ctx.filing_for(file))
}

/// Lints `file` as the given kind of filing; errors first, then warnings,
/// each in field order.
pub fn lint_as(file: &RegistrationFile, ctx: &LintContext, filing: &Filing) -> Vec<Finding> {
    let mut out = Findings(Vec::new());
    check_kind_and_nid(file, ctx, filing, &mut out);
    check_version_and_date(file, filing, &mut out);
    check_fields(file, filing, &mut out);
    check_syntax(file, &mut out);
    rules::check(file, ctx, filing, &mut out);
    if *filing == Filing::Request
        && let (Some(Kind::Formal), Some(nid)) = (file.kind, file.nid.as_deref())
    {
        nid_lookalikes(nid, ctx, &mut out);
    }
    check_vague(file, &mut out);
    let mut findings = out.0;
    findings.sort_by_key(|f| f.severity);
    findings
}

/// Lints `file` as `filing` and, when it has no errors, vouches for it
/// to the store ([`Store::request`], [`Store::revise`], [`Store::amend`]).
///
/// # Errors
///
/// [`Error::Invalid`] with every error, each naming its field.
pub fn vet<'f>(file: &'f RegistrationFile, ctx: &LintContext, filing: Filing) -> Result<Vetted<'f>, Error> {
    match lint_and_vet(file, ctx, filing) {
        (_, Some(vetted)) => Ok(vetted),
        (findings, None) => Err(Error::Invalid(
            findings
                .into_iter()
                .filter(|f| f.severity == Severity::Error)
                .map(|f| Problem {
                    message: f.to_string(),
                    field: f.field,
                })
                .collect(),
        )),
    }
}

/// Lints `file` as `filing`, once: every finding (to show), and the vetted
/// file when none is an error.
pub fn lint_and_vet<'f>(
    file: &'f RegistrationFile,
    ctx: &LintContext,
    filing: Filing,
) -> (Vec<Finding>, Option<Vetted<'f>>) {
    let findings = lint_as(file, ctx, &filing);
    let clean = !findings.iter().any(|f| f.severity == Severity::Error);
    (findings, clean.then(|| Vetted::new(file, filing)))
}

/// Vets `file` as a first request against what `store` holds now (for
/// [`Store::request`]).
///
/// # Errors
///
/// [`Error::Invalid`] with every lint error, or the store's error.
pub fn vet_request<'f>(store: &Store, file: &'f RegistrationFile) -> Result<Vetted<'f>, Error> {
    vet(file, &LintContext::of(store)?, Filing::Request)
}

/// Vets `file` as a revision of `nid` (for [`Store::revise`]).
///
/// # Errors
///
/// Those of [`Store::revision_filing`] (a NID that cannot be revised),
/// then [`Error::Invalid`] with every lint error.
pub fn vet_revision<'f>(store: &Store, nid: &str, file: &'f RegistrationFile) -> Result<Vetted<'f>, Error> {
    let filing = store.revision_filing(nid)?;
    vet(file, &LintContext::of(store)?, filing)
}

/// Vets `file` as the new text of the pending request `target` (an id or
/// a NID; for [`Store::amend`]).
///
/// # Errors
///
/// Those of [`Store::amendment_filing`] (no such request pending), then
/// [`Error::Invalid`] with every lint error.
pub fn vet_amendment<'f>(
    store: &Store,
    target: &str,
    file: &'f RegistrationFile,
) -> Result<Vetted<'f>, Error> {
    let filing = store.amendment_filing(target)?;
    vet(file, &LintContext::of(store)?, filing)
}

/// The findings collected so far.
struct Findings(Vec<Finding>);

impl Findings {
    fn error(&mut self, rule: &'static str, field: &str, section: &'static str, message: String) {
        self.push(Severity::Error, rule, field, section, message);
    }

    fn error_with(
        &mut self,
        rule: &'static str,
        field: &str,
        section: &'static str,
        message: String,
        suggestion: String,
    ) {
        self.push(Severity::Error, rule, field, section, message);
        if let Some(last) = self.0.last_mut() {
            last.suggestion = Some(suggestion);
        }
    }

    fn warning(&mut self, rule: &'static str, field: &str, section: &'static str, message: String) {
        self.push(Severity::Warning, rule, field, section, message);
    }

    fn push(
        &mut self,
        severity: Severity,
        rule: &'static str,
        field: &str,
        section: &'static str,
        message: String,
    ) {
        // A finding may quote the value it refuses, which in a hostile
        // file is most of its megabyte: the middle goes, as a refusal's
        // problems lose it (found in testing: `lint` printed 1 MB).
        let max = crate::registry::MAX_PROBLEM_CHARS;
        let message = if message.len() > max {
            crate::shorten::cut_middle(&message, max, "MAX_PROBLEM_CHARS")
        } else {
            message
        };
        self.0.push(Finding {
            severity,
            rule,
            field: field.to_string(),
            section,
            message,
            suggestion: None,
            offset: None,
        });
    }

    /// Places the last finding at byte `offset` of its field's value.
    fn at(&mut self, offset: Option<usize>) {
        if let Some(last) = self.0.last_mut() {
            last.offset = offset;
        }
    }
}

/// The byte offset of 1-based `line` and `column` (in bytes) in `text`,
/// where the lines are those of [`str::lines`]; `None` for line 0.
fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let start = match line {
        0 => return None,
        1 => 0,
        n => text.match_indices('\n').nth(n - 2)?.0 + 1,
    };
    Some((start + column.saturating_sub(1)).min(text.len()))
}

const S5_1: &str = "RFC 8141 section 5.1";
const S5_2: &str = "RFC 8141 section 5.2";
const S6: &str = "RFC 8141 section 6";
const S6_4: &str = "RFC 8141 section 6.4, Appendix A";
const APPENDIX_A: &str = "RFC 8141 Appendix A";

fn check_kind_and_nid(file: &RegistrationFile, ctx: &LintContext, filing: &Filing, out: &mut Findings) {
    match (file.kind, file.nid.as_deref(), filing) {
        (None, _, _) => out.error(
            "kind-missing",
            "kind",
            S6,
            "missing: 'formal' or 'informal'".into(),
        ),
        (Some(Kind::Formal), None, Filing::Request) => out.error(
            "nid-missing",
            "nid",
            S5_1,
            "missing: a formal registration requests a NID".into(),
        ),
        (Some(Kind::Formal), Some(nid), Filing::Request) => {
            formal_nid_rules(nid, out);
            already_registered(nid, ctx, S5_1, out);
        }
        // A registered informal NID named again (an imported text of
        // urn-1): a revision of it, not a new request. Any other NID is
        // no informal one's to give (`isbn` included).
        (Some(Kind::Informal), Some(nid), Filing::Request) => {
            let informal = nid.get(..4).is_some_and(|h| h.eq_ignore_ascii_case("urn-"));
            let registered = informal && already_registered(nid, ctx, S5_2, out);
            if !registered {
                out.error(
                    "nid-informal-given",
                    "nid",
                    S5_2,
                    format!("'{nid}' given, but informal NIDs are assigned by the registry"),
                );
            }
        }
        _ => {}
    }
}

/// The `nid-registered` error of a request naming a NID the registry
/// holds (withdrawn or not); returns whether it was given.
fn already_registered(nid: &str, ctx: &LintContext, section: &'static str, out: &mut Findings) -> bool {
    let Some(known) = ctx.registered.get(&nid.to_ascii_lowercase()) else {
        return false;
    };
    out.error(
        "nid-registered",
        "nid",
        section,
        if known.withdrawn {
            format!("'{nid}' was registered and is withdrawn: a NID is never reused")
        } else {
            format!(
                "'{nid}' is already registered; to revise it, file version {} with `urnreg revise`",
                known.version.unwrap_or(1) + 1
            )
        },
    );
    true
}

/// The section 2 and 5.1 rules for a requested formal NID.
pub fn formal_nid_problems(nid: &str) -> Vec<Finding> {
    let mut out = Findings(Vec::new());
    formal_nid_rules(nid, &mut out);
    out.0
}

fn formal_nid_rules(nid: &str, out: &mut Findings) {
    // `urn-` and anything but a number fails RFC 8141's NID rule (section
    // 5.2's form); for a formal NID the reason is section 5.1's prefix.
    let rest = nid
        .get(..4)
        .filter(|head| head.eq_ignore_ascii_case("urn-"))
        .and(nid.get(4..));
    if rest.is_some_and(|rest| !rest.is_empty() && crate::urn::check_nid(&format!("x{rest}")).is_ok()) {
        out.error(
            "nid-urn-prefix",
            "nid",
            S5_1,
            format!("'{nid}' starts with 'urn-', which is kept for informal namespaces"),
        );
        return;
    }
    if let Err(kind) = crate::urn::check_nid(nid) {
        let (what, section) = kind.nid_rule();
        out.error(
            "nid-syntax",
            "nid",
            section,
            format!("'{nid}' is not a valid NID ({}): {what}", kind.code()),
        );
        return;
    }
    let lower = nid.to_ascii_lowercase();
    let b = lower.as_bytes();
    if lower.starts_with("urn-") {
        out.error(
            "nid-urn-prefix",
            "nid",
            S5_1,
            format!("'{nid}' starts with 'urn-', which is kept for informal namespaces"),
        );
    }
    if b.len() <= 2 {
        out.error(
            "nid-too-short",
            "nid",
            S5_1,
            format!("'{nid}' is too short: a formal NID has more than two characters"),
        );
    }
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1].is_ascii_alphabetic() && b[2] == b'-' {
        out.error(
            "nid-country-prefix",
            "nid",
            S5_1,
            format!("'{nid}' starts with two letters and '-', kept for country-code namespaces"),
        );
    }
    if lower.starts_with("x-") {
        out.error(
            "nid-experimental",
            "nid",
            S5_1,
            format!("'{nid}' starts with 'X-', the obsolete experimental form"),
        );
    }
    if lower == "urn" {
        out.error(
            "nid-reserved",
            "nid",
            "2012 URN draft section 2.1",
            "'urn' is reserved, to avoid confusion with the 'urn' URI scheme".into(),
        );
    }
}

fn check_version_and_date(file: &RegistrationFile, filing: &Filing, out: &mut Findings) {
    let expected = filing.expected_version();
    // An RFC 3406 text keeps its version and date in Registration
    // Information: say where, when the importer could not read them.
    let held = |word: &str| {
        registration_information_line(file, word)
            .map(|l| format!("; its RFC 3406 Registration Information has '{l}': write it here"))
            .unwrap_or_default()
    };
    match file.version {
        None => out.error(
            "version",
            "version",
            S6,
            format!("missing: expected {expected}{}", held("version")),
        ),
        Some(v) if v != expected => {
            let why = match filing {
                Filing::Request => "a first registration is version 1".to_string(),
                Filing::Revision { nid, .. } => {
                    format!("a revision of '{nid}' is the version in force + 1")
                }
            };
            out.error(
                "version",
                "version",
                S6,
                format!("{v}: expected {expected} ({why})"),
            );
        }
        _ => {}
    }
    match &file.date {
        None => out.error(
            "date",
            "date",
            APPENDIX_A,
            format!("missing: expected YYYY-MM-DD{}", held("date")),
        ),
        Some(d) if !is_valid_date(&d.as_text()) => out.error(
            "date",
            "date",
            APPENDIX_A,
            format!("'{}' is not a date YYYY-MM-DD", d.as_text()),
        ),
        _ => {}
    }
}

/// The RFC 3406 section 4 fields whose text an Appendix A field takes
/// (RFC 8141 Appendix C sums up what changed), with their headings, and
/// the heading RFC 2611 section 3 gave the two RFC 3406 renamed (an
/// imported RFC 2611 text keeps its text under RFC 3406's name).
const RFC3406_COUNTERPARTS: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "registrant",
        "declared_registrant",
        "Declared registrant of the namespace",
        None,
    ),
    ("purpose", "scope", "Scope", None),
    (
        "syntax",
        "syntactic_structure",
        "Declaration of syntactic structure",
        Some("Declaration of structure"),
    ),
    (
        "assignment",
        "assignment_process",
        "Process of identifier assignment",
        None,
    ),
    (
        "resolution",
        "resolution_process",
        "Process for identifier resolution",
        Some("Process of identifier resolution"),
    ),
    (
        "documentation",
        "ancillary_documentation",
        "Relevant ancillary documentation",
        None,
    ),
];

/// Required fields of RFC 8141 Appendix A that no field of the RFC 3406
/// section 4 (or RFC 2611 section 3) template held.
const RFC8141_ADDED: &[&str] = &["security_and_privacy", "interoperability"];

/// The file keeps fields of the RFC 3406 (or RFC 2611) template: an
/// older registration, imported as it was.
fn in_rfc3406_form(file: &RegistrationFile) -> bool {
    file.rfc3406
        .as_ref()
        .is_some_and(|r| r.values().any(|t| !t.trim().is_empty()))
}

/// The line of the file's RFC 3406 Registration Information that names
/// `word` (`version`, `date`), for a finding to quote: the registration
/// has it there, written in a form the importer could not read.
fn registration_information_line(file: &RegistrationFile, word: &str) -> Option<String> {
    let text = file.rfc3406.as_ref()?.get("registration_information")?;
    text.lines()
        .map(str::trim)
        .find(|l| l.to_ascii_lowercase().contains(word))
        .map(|l| match l.char_indices().nth(60) {
            Some((at, _)) => format!("{}...", &l[..at]),
            None => l.to_string(),
        })
}

fn check_fields(file: &RegistrationFile, filing: &Filing, out: &mut Findings) {
    for key in REQUIRED_FIELDS {
        if file.field(key).is_none_or(|v| v.trim().is_empty()) {
            // An RFC 3406 text imported as it was: say where its text is.
            let held = RFC3406_COUNTERPARTS.iter().find(|(field, legacy, _, _)| {
                field == key
                    && file
                        .rfc3406
                        .as_ref()
                        .and_then(|r| r.get(*legacy))
                        .is_some_and(|t| !t.trim().is_empty())
            });
            let message = match held {
                Some((_, _, heading, None)) => format!(
                    "required and empty; this file's RFC 3406 '{heading}' holds its text: write it here"
                ),
                Some((_, _, heading, Some(rfc2611))) => format!(
                    "required and empty; this file's RFC 3406 '{heading}' (RFC 2611: '{rfc2611}') holds \
                     its text: write it here"
                ),
                // An RFC 3406 (or RFC 2611) text has no such field to
                // move: RFC 8141 added it, and it must be written anew.
                None if in_rfc3406_form(file) && RFC8141_ADDED.contains(key) => {
                    "required and empty; a field RFC 8141 added: the RFC 3406 / RFC 2611 template this \
                     file follows has none whose text could move here, so write it anew"
                        .into()
                }
                None => "required and empty".into(),
            };
            out.error("required-field", key, S6_4, message);
        }
    }
    if matches!(filing, Filing::Revision { .. })
        && file
            .revision_information
            .as_deref()
            .is_none_or(|v| v.trim().is_empty())
    {
        out.error(
            "revision-information",
            "revision_information",
            S6,
            "a revision must say what changed".into(),
        );
    }
    if let Some(legacy) = &file.rfc3406 {
        for key in legacy.keys() {
            if !crate::template::FIELDS.iter().any(|f| !f.2 && f.0 == key) {
                out.error(
                    "rfc3406-field",
                    &format!("rfc3406.{key}"),
                    "RFC 3406 section 4",
                    format!("'{key}' is not a field of the RFC 3406 template"),
                );
            }
        }
    }
}

fn check_syntax(file: &RegistrationFile, out: &mut Findings) {
    let Some(syntax) = file.syntax.as_deref().filter(|s| !s.trim().is_empty()) else {
        return;
    };
    if let Some(grammar) = find_abnf(syntax)
        && let Err(e) =
            crate::rules::abnf::compile(&grammar.text, None).and_then(|_| automaton(&grammar.text))
    {
        // The grammar keeps the lines of the field, so its line and
        // column are those of the field's value.
        let offset = offset_of(syntax, e.line, e.column);
        let line = e.line;
        let at = if line > 0 {
            format!("at line {line} of the Syntax field, column {}", e.column)
        } else {
            "of the Syntax field".to_string()
        };
        if e.message.starts_with("prose") {
            // A prose-val is valid ABNF (RFC 5234 section 4), but
            // nothing can check names against it.
            out.warning(
                "syntax-abnf-prose",
                "syntax",
                "RFC 8141 Appendix A, RFC 5234 section 4",
                format!(
                    "the ABNF {at} describes part of the syntax in prose: {}",
                    e.message
                ),
            );
            out.at(offset);
        } else {
            out.error(
                "syntax-abnf",
                "syntax",
                "RFC 8141 Appendix A, RFC 5234",
                format!("the ABNF {at} does not compile: {}", e.message),
            );
            out.at(offset);
        }
    }
    let lower = syntax.to_ascii_lowercase();
    if !lower.contains("equivalen") {
        out.warning(
            "syntax-equivalence",
            "syntax",
            "RFC 8141 section 3, Appendix A",
            "never mentions equivalence: say whether the namespace adds rules to URN-equivalence \
             (or that it adds none)"
                .into(),
        );
    }
}

/// The grammar's automaton built as `check` would build it from a
/// `[rules.syntax]` table: a grammar may parse and still be too large to
/// run (the automaton limits of [`crate::rules::limits`]), and a Syntax
/// field that cannot be applied must not lint clean.
fn automaton(grammar: &str) -> Result<(), crate::rules::abnf::AbnfError> {
    let rules = crate::rules::RulesFile {
        source: "the Syntax field".into(),
        syntax: Some(crate::rules::SyntaxRule {
            abnf: Some(grammar.to_string()),
            ..crate::rules::SyntaxRule::default()
        }),
        ..crate::rules::RulesFile::default()
    };
    rules.compile("urn-0").map(|_| ()).map_err(|e| {
        // "rules for 'urn-0': the NSS syntax does not compile: WHY": WHY.
        let text = e.to_string();
        let why = text
            .rsplit_once("does not compile: ")
            .map_or(text.as_str(), |(_, why)| why);
        crate::rules::abnf::AbnfError {
            line: 0,
            column: 0,
            message: why.to_string(),
        }
    })
}

/// Words that say nothing when they are all a section says.
const VAGUE: &[&str] = &[
    "tbd",
    "todo",
    "n/a",
    "na",
    "none",
    "no",
    "nothing",
    "unknown",
    "see above",
    "?",
    "-",
];

fn check_vague(file: &RegistrationFile, out: &mut Findings) {
    for (key, asks) in [
        (
            "resolution",
            "whether resolution is intended, which services are offered and how r-components are handled",
        ),
        (
            "interoperability",
            "known confusions with other namespaces, identifier systems or URI schemes, or that none are known",
        ),
    ] {
        let Some(text) = file.field(key).map(str::trim).filter(|t| !t.is_empty()) else {
            continue;
        };
        let words = text.split_whitespace().count();
        let bare = text.trim_end_matches('.').to_ascii_lowercase();
        // A short answer to what section 6.4 asks is still an answer:
        // "None are known.", "Not intended."
        let words_of = || {
            bare.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
        };
        let answers = match key {
            // "None are known", "No known confusions"; not "Unknown".
            "interoperability" => words_of().any(|w| w == "known"),
            // "Not intended", "Not resolvable"; not "Unresolved".
            _ => words_of().any(|w| w.starts_with("intend") || w.starts_with("resolv")),
        };
        if VAGUE.contains(&bare.as_str()) || (words < 4 && !answers) {
            out.warning(
                "vague-section",
                key,
                S6_4,
                format!("'{text}' is vague: reviewers expect {asks}"),
            );
        }
    }
}

/// Warnings for a requested NID that looks like something else (the
/// reviewer's checks of section 5.1).
fn nid_lookalikes(nid: &str, ctx: &LintContext, out: &mut Findings) {
    let lower = nid.to_ascii_lowercase();
    if list(ISO_3166_ALPHA3).any(|c| c.eq_ignore_ascii_case(&lower)) {
        out.warning(
            "nid-country-code",
            "nid",
            S5_1,
            format!("'{nid}' is an ISO 3166-1 alpha-3 country code"),
        );
    }
    if list(URI_SCHEMES).any(|s| s == lower) {
        out.warning(
            "nid-uri-scheme",
            "nid",
            S5_1,
            format!("'{nid}' is also a registered URI scheme name"),
        );
    }
    if ctx.registered.contains_key(&lower) {
        return;
    }
    let skeleton = confusable_skeleton(&lower);
    for other in ctx.registered.keys() {
        if crate::suggest::edit_distance_within(&lower, other, 1) <= 1 {
            out.warning(
                "nid-similar",
                "nid",
                S5_1,
                format!("'{nid}' is one edit away from the registered NID '{other}'"),
            );
        } else if confusable_skeleton(other) == skeleton {
            out.warning(
                "nid-confusable",
                "nid",
                S5_1,
                format!("'{nid}' can be mistaken for the registered NID '{other}'"),
            );
        }
    }
}

/// The entries of a shipped list: whitespace-separated, `#` comments.
fn list(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
}

/// A NID with look-alike characters folded together (`0`/`o`, `1`/`l`/`i`,
/// `5`/`s`, `rn`/`m`, `vv`/`w`) and hyphens dropped: two NIDs with the
/// same skeleton are easily mistaken for each other.
fn confusable_skeleton(nid: &str) -> String {
    let folded: String = nid
        .chars()
        .filter(|c| *c != '-')
        .map(|c| match c {
            '0' => 'o',
            '1' | 'i' => 'l',
            '5' => 's',
            '8' => 'b',
            c => c,
        })
        .collect();
    folded.replace("rn", "m").replace("vv", "w")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_lines_and_columns() {
        let text = "ab\ncde\r\nf";
        assert_eq!(offset_of(text, 0, 1), None);
        assert_eq!(offset_of(text, 1, 2), Some(1));
        assert_eq!(offset_of(text, 2, 1), Some(3));
        assert_eq!(offset_of(text, 3, 1), Some(8));
        assert_eq!(offset_of(text, 4, 1), None);
        assert_eq!(offset_of(text, 3, 9), Some(text.len()), "clamped");
    }

    /// A finding quoting a huge value is cut in the middle, naming the
    /// limit; a short one is kept whole.
    #[test]
    fn findings_quote_a_bounded_length() {
        let mut out = Findings(Vec::new());
        out.warning(
            "date",
            "date",
            S5_1,
            format!("'{}' is not a date", "9".repeat(100_000)),
        );
        out.warning("date", "date", S5_1, "'x' is not a date".into());
        let long = &out.0[0].message;
        assert!(
            long.chars().count() < crate::registry::MAX_PROBLEM_CHARS + 100,
            "{}",
            long.len()
        );
        assert!(
            long.contains("MAX_PROBLEM_CHARS = 1000") && long.ends_with("is not a date"),
            "{long}"
        );
        assert_eq!(out.0[1].message, "'x' is not a date");
    }

    #[test]
    fn confusable_skeletons() {
        assert_eq!(confusable_skeleton("rnods"), confusable_skeleton("mods"));
        assert_eq!(confusable_skeleton("is0"), confusable_skeleton("lso"));
        assert_eq!(confusable_skeleton("x-m"), confusable_skeleton("xm"));
        assert_ne!(confusable_skeleton("isbn"), confusable_skeleton("issn"));
    }

    #[test]
    fn shipped_lists_parse() {
        assert_eq!(list(ISO_3166_ALPHA3).count(), 249);
        assert!(list(ISO_3166_ALPHA3).all(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())));
        assert!(list(URI_SCHEMES).any(|s| s == "http"));
        assert!(list(URI_SCHEMES).all(|s| s == s.to_ascii_lowercase()));
    }
}
