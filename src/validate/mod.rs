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
mod suggest;

use std::collections::HashMap;
use std::sync::Arc;

pub use namespace::{Kind, Namespace, Status};
pub use registry::{NamespaceEntry, Registry};
pub use report::{Finding, FindingKind, Report, Severity};
#[cfg(feature = "store")]
pub(crate) use suggest::edit_distance_within;

use crate::rules::ViolationKind;
use crate::urn::{Syntax, Urn};

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
    /// The `unregistered-nid` message (with its suggestion) already made
    /// for an unregistered NID, as written.
    unregistered: HashMap<Box<[u8]>, Arc<str>>,
}

/// How many unregistered NIDs a checker remembers its message for.
const UNREGISTERED_CACHE: usize = 16 * 1024;

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
            unregistered: HashMap::default(),
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

    /// The same checker, without the generic parser's warnings (upper-case
    /// `URN:`, `%2c`, ...) when only validity matters: it skips their scan.
    /// Errors and the namespace's findings are unchanged.
    pub fn without_syntax_warnings(mut self) -> Checker<'r> {
        self.warnings = false;
        self
    }

    /// The report on an input line a stream reader cut at `limit` bytes
    /// (see [`Report::line_too_long`]).
    pub fn line_too_long<'a>(&self, input: &'a [u8], limit: usize) -> Report<'a, 'r> {
        Report::line_too_long(input, limit, self.registry.is_some())
    }

    /// Checks one input (any bytes; they need not be UTF-8).
    pub fn check<'a>(&mut self, input: &'a [u8]) -> Report<'a, 'r> {
        match Urn::parse_bytes(input, self.syntax) {
            Ok(urn) => self.check_parsed(input, urn),
            Err(e) => Report::unparsed(input, e, self.registry.is_some()),
        }
    }

    /// Checks one input given as text (the same as [`Checker::check`],
    /// without a UTF-8 check of its own).
    #[inline]
    pub fn check_str<'a>(&mut self, input: &'a str) -> Report<'a, 'r> {
        match Urn::parse_with(input, self.syntax) {
            Ok(urn) => self.check_parsed(input.as_bytes(), urn),
            Err(e) => Report::unparsed(input.as_bytes(), e, self.registry.is_some()),
        }
    }

    #[inline]
    fn check_parsed<'a>(&mut self, input: &'a [u8], urn: Urn<'a>) -> Report<'a, 'r> {
        let mut report = Report::parsed(input, urn, self.warnings);
        if let Some(registry) = self.registry {
            report.set_registry_checked();
            self.check_namespace(registry, &urn, &mut report);
        }
        report
    }

    fn check_namespace<'a>(&mut self, registry: &'r Registry, urn: &Urn<'a>, report: &mut Report<'a, 'r>) {
        let Some(ns) = registry.namespace(urn.nid()) else {
            let message = self.unregistered_message(registry, urn.nid());
            report.push_shared(FindingKind::UnregisteredNid, 4, message);
            return;
        };
        if ns.status() != Status::Registered {
            report.push(Finding::new(
                FindingKind::WithdrawnNid,
                4,
                format!("the namespace '{}' is {}", ns.nid(), ns.status().as_str()),
            ));
        }
        match ns.rules() {
            Err(e) => {
                report.set_namespace(ns, None);
                report.push(Finding::new(FindingKind::BadRule, urn.nss_start(), e.to_string()));
            }
            Ok(None) => {
                report.set_namespace(ns, None);
                report.push_shared(FindingKind::GenericRules, urn.nss_start(), ns.generic_note());
            }
            Ok(Some(rules)) => {
                report.set_namespace(ns, Some(rules));
                if let Some(v) = rules.check(urn) {
                    let kind = match v.kind {
                        ViolationKind::Check => FindingKind::NssCheck,
                        ViolationKind::Syntax => FindingKind::NssSyntax,
                    };
                    report.push(Finding::new(kind, v.offset, v.message));
                }
                for (offset, name) in rules.unused_components(urn) {
                    report.push(Finding::new(
                        FindingKind::ComponentUnused,
                        offset,
                        format!(
                            "the '{}' namespace gives the {name} no meaning ({})",
                            ns.nid(),
                            rules.source()
                        ),
                    ));
                }
            }
        }
    }

    /// The message for an unregistered NID, with the nearest registered
    /// one as a suggestion: made once per NID (the search compares it with
    /// every registered NID).
    fn unregistered_message(&mut self, registry: &'r Registry, nid: &str) -> Arc<str> {
        if let Some(message) = self.unregistered.get(nid.as_bytes()) {
            return message.clone();
        }
        let hint = registry
            .suggest(nid)
            .map(|s| format!(" (did you mean '{}'?)", s.nid()))
            .unwrap_or_default();
        let message: Arc<str> =
            format!("the NID '{nid}' at byte 4 is not registered{hint} (RFC 8141 sections 1 and 5)").into();
        if self.unregistered.len() >= UNREGISTERED_CACHE {
            self.unregistered.clear();
        }
        self.unregistered.insert(nid.as_bytes().into(), message.clone());
        message
    }
}
