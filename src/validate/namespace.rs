//! One namespace as the validator knows it: its NID, kind, status and
//! rules, compiled once, on first use, and shared between threads.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::json_text::push_text;
use crate::rules::{CompiledRules, RuleError, RulesFile, SyntaxKind};

/// Formal (RFC 8141 section 5.1) or informal (section 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A NID chosen by the registrant and approved by expert review.
    Formal,
    /// `urn-N`, assigned by the registry in sequence.
    Informal,
}

impl Kind {
    /// Every spelling, in declaration order.
    pub const NAMES: &'static [&'static str] = &["formal", "informal"];

    /// `formal` or `informal`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Formal => "formal",
            Kind::Informal => "informal",
        }
    }
}

/// Whether a namespace is in use (the registry stores it as
/// `namespaces.status`; `registry::NamespaceStatus` is this type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Registered and in force.
    Registered,
    /// Withdrawn: its URNs are still URNs, but no new ones should be made.
    Withdrawn,
}

impl Status {
    /// Every spelling, in declaration order.
    pub const NAMES: &'static [&'static str] = &["registered", "withdrawn"];

    /// `registered` or `withdrawn`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Registered => "registered",
            Status::Withdrawn => "withdrawn",
        }
    }
}

/// A registered namespace: its NID, kind, status and rules.
#[derive(Debug)]
pub struct Namespace {
    nid: Cow<'static, str>,
    kind: Kind,
    status: Status,
    rules_text: Option<Cow<'static, str>>,
    /// Boxed: a compiled DFA is large, and the NID lookup walks the
    /// namespaces, which should stay small and close together.
    compiled: OnceLock<Result<Option<Box<CompiledRules>>, RuleError>>,
    generic_note: OnceLock<Arc<str>>,
    json: OnceLock<Box<str>>,
    index: usize,
}

impl Namespace {
    /// A namespace with its rules as the TOML text of a `[rules]` table
    /// (compiled on first use).
    pub fn new(
        nid: impl Into<Cow<'static, str>>,
        kind: Kind,
        status: Status,
        rules: Option<Cow<'static, str>>,
    ) -> Namespace {
        Namespace {
            nid: nid.into(),
            kind,
            status,
            rules_text: rules,
            compiled: OnceLock::new(),
            generic_note: OnceLock::new(),
            json: OnceLock::new(),
            index: 0,
        }
    }

    /// Its position in its [`Registry`](super::Registry) (0 to
    /// `len() - 1`, in the order of [`Registry::namespaces`](super::Registry::namespaces)):
    /// a key for per-namespace counts without hashing.
    pub fn index(&self) -> usize {
        self.index
    }

    pub(crate) fn set_index(&mut self, index: usize) {
        self.index = index;
    }

    /// The NID as registered.
    pub fn nid(&self) -> &str {
        &self.nid
    }

    /// Formal or informal.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Registered or withdrawn.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The `[rules]` table as TOML, if the namespace has rules.
    pub fn rules_text(&self) -> Option<&str> {
        self.rules_text.as_deref()
    }

    /// The compiled rules (`Ok(None)`: generic rules only). They are
    /// compiled on the first call, once, whatever the thread.
    ///
    /// # Errors
    ///
    /// A stored rule that does not compile or fails its own examples.
    pub fn rules(&self) -> Result<Option<&CompiledRules>, &RuleError> {
        self.compiled
            .get_or_init(|| {
                let Some(text) = &self.rules_text else {
                    return Ok(None);
                };
                let file: RulesFile =
                    toml::from_str(text).map_err(|e| RuleError(format!("rules for '{}': {e}", self.nid)))?;
                file.compile_stored(&self.nid).map(|rules| Some(Box::new(rules)))
            })
            .as_ref()
            .map(Option::as_deref)
    }

    /// The form of its NSS syntax check: `abnf`, `regex`, `builtin`, or
    /// `generic` when it has none (or its rules do not compile).
    pub fn syntax_name(&self) -> &'static str {
        match self.rules() {
            Ok(Some(r)) => r.syntax_kind().map_or("generic", SyntaxKind::as_str),
            _ => "generic",
        }
    }

    /// Its `namespace` object in the JSON of a report, made once.
    pub(crate) fn json_object(&self) -> &str {
        self.json.get_or_init(|| namespace_object(self))
    }

    /// The message of the `generic-rules` warning, made once.
    pub(crate) fn generic_note(&self) -> Arc<str> {
        self.generic_note
            .get_or_init(|| {
                format!(
                    "the '{}' namespace has no precise NSS syntax here: only the generic rules were checked (RFC 8141 section 2)",
                    self.nid
                )
                .into()
            })
            .clone()
    }
}

/// The `namespace` object of a registered namespace (made once per
/// namespace: see `Namespace::json_object`).
fn namespace_object(ns: &Namespace) -> Box<str> {
    let mut out = Vec::with_capacity(96);
    out.extend_from_slice(b"{\"nid\":");
    push_text(&mut out, ns.nid());
    out.extend_from_slice(b",\"kind\":\"");
    out.extend_from_slice(ns.kind().as_str().as_bytes());
    out.extend_from_slice(b"\",\"status\":\"");
    out.extend_from_slice(ns.status().as_str().as_bytes());
    out.extend_from_slice(b"\",\"syntax\":\"");
    out.extend_from_slice(ns.syntax_name().as_bytes());
    out.extend_from_slice(b"\"}");
    // Escaped above: ASCII, so UTF-8.
    String::from_utf8(out).unwrap_or_default().into_boxed_str()
}
