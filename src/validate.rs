//! The validator: a URN is valid only if its NID is registered and its NSS
//! follows that namespace's rules (RFC 8141 section 1: "the syntactical
//! correctness of a name starting with 'urn:' is not sufficient").
//!
//! It applies, in order: the generic parser, the NID lookup (an
//! unregistered NID is invalid; the nearest registered NID is suggested),
//! the namespace's NSS rule, and its equivalence refinements. Rules are
//! compiled lazily, once per NID seen, and shared between threads.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::registry::{Kind, Store};
use crate::rules::{CompiledRules, RuleError, RuleViolation, RulesFile, SyntaxKind};
use crate::urn::Urn;

/// A namespace as the validator knows it.
#[derive(Debug)]
pub struct Namespace {
    /// The NID as registered.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// `registered` or `withdrawn`.
    pub status: String,
    rules_text: Option<String>,
    compiled: OnceLock<Result<Option<CompiledRules>, RuleError>>,
}

impl Namespace {
    /// The compiled rules (`Ok(None)`: generic rules only).
    ///
    /// # Errors
    ///
    /// A stored rule that no longer compiles.
    pub fn rules(&self) -> Result<Option<&CompiledRules>, &RuleError> {
        self.compiled
            .get_or_init(|| {
                let Some(text) = &self.rules_text else {
                    return Ok(None);
                };
                let file: RulesFile =
                    toml::from_str(text).map_err(|e| RuleError(format!("rules for '{}': {e}", self.nid)))?;
                file.compile(&self.nid).map(Some)
            })
            .as_ref()
            .map(Option::as_ref)
    }
}

/// A finding of the validator (beyond the generic parser's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Stable kind: `unregistered-nid`, `nss-syntax`, `nss-check`,
    /// `bad-rule`, `withdrawn-nid`, `component-unused`, `generic-rules`.
    pub kind: &'static str,
    /// Byte offset in the URN.
    pub offset: usize,
    /// For people.
    pub message: String,
}

/// What the validator says of one parsed URN.
#[derive(Debug)]
pub struct Verdict<'v, 'u> {
    /// The namespace, if the NID is registered.
    pub namespace: Option<&'v Namespace>,
    /// Errors: the URN is invalid if there is any.
    pub errors: Vec<Finding>,
    /// Warnings.
    pub warnings: Vec<Finding>,
    /// The equivalence key, refined by the namespace's rules.
    pub key: Cow<'u, str>,
}

/// The registered namespaces with their rules.
#[derive(Debug)]
pub struct Validator {
    by_nid: HashMap<String, Namespace>,
}

impl From<RuleViolation> for Finding {
    fn from(v: RuleViolation) -> Self {
        Finding {
            kind: v.kind,
            offset: v.offset,
            message: v.message,
        }
    }
}

impl Validator {
    /// Reads every namespace and its rules from the store.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub fn from_store(store: &Store) -> crate::registry::Result<Validator> {
        let by_nid = store
            .namespace_rules()?
            .into_iter()
            .map(|row| {
                let ns = Namespace {
                    nid: row.nid.clone(),
                    kind: row.kind,
                    status: row.status,
                    rules_text: row.rules,
                    compiled: OnceLock::new(),
                };
                (row.nid.to_ascii_lowercase(), ns)
            })
            .collect();
        Ok(Validator { by_nid })
    }

    /// The namespace of `nid` (case-insensitive).
    pub fn namespace(&self, nid: &str) -> Option<&Namespace> {
        if nid.bytes().any(|b| b.is_ascii_uppercase()) {
            self.by_nid.get(&nid.to_ascii_lowercase())
        } else {
            self.by_nid.get(nid)
        }
    }

    /// The registered NID nearest to `nid`: one edit away, or two for
    /// NIDs longer than four characters.
    pub fn suggest(&self, nid: &str) -> Option<&str> {
        let nid = nid.to_ascii_lowercase();
        let limit = if nid.len() > 4 { 2 } else { 1 };
        self.by_nid
            .iter()
            .filter(|(k, _)| k.len().abs_diff(nid.len()) <= limit)
            .map(|(k, ns)| (edit_distance_within(&nid, k, limit), ns.nid.as_str()))
            .filter(|(d, _)| *d <= limit)
            .min()
            .map(|(_, n)| n)
    }

    /// The equivalence key of `urn`, refined by its namespace's rules when
    /// it has usable ones (RFC 8141 section 3.1 otherwise).
    pub fn key<'u>(&self, urn: &Urn<'u>) -> Cow<'u, str> {
        match self.namespace(urn.nid()).map(Namespace::rules) {
            Some(Ok(Some(rules))) => urn.equivalence_key_with(rules),
            _ => urn.equivalence_key(),
        }
    }

    /// Validates a URN that parsed.
    pub fn validate<'v, 'u>(&'v self, urn: &Urn<'u>) -> Verdict<'v, 'u> {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let Some(ns) = self.namespace(urn.nid()) else {
            let hint = self
                .suggest(urn.nid())
                .map(|s| format!(" (did you mean '{s}'?)"))
                .unwrap_or_default();
            errors.push(Finding {
                kind: "unregistered-nid",
                offset: 4,
                message: format!(
                    "the NID '{}' at byte 4 is not registered{hint} (RFC 8141 sections 1 and 5)",
                    urn.nid()
                ),
            });
            return Verdict {
                namespace: None,
                errors,
                warnings,
                key: urn.equivalence_key(),
            };
        };
        if ns.status != "registered" {
            warnings.push(Finding {
                kind: "withdrawn-nid",
                offset: 4,
                message: format!("the namespace '{}' is {}", ns.nid, ns.status),
            });
        }
        let key = match ns.rules() {
            Err(e) => {
                errors.push(Finding {
                    kind: "bad-rule",
                    offset: urn.nss_start(),
                    message: e.to_string(),
                });
                urn.equivalence_key()
            }
            Ok(None) => {
                warnings.push(Finding {
                    kind: "generic-rules",
                    offset: urn.nss_start(),
                    message: format!(
                        "the '{}' namespace has no precise NSS syntax here: only the generic RFC 8141 rules were checked",
                        ns.nid
                    ),
                });
                urn.equivalence_key()
            }
            Ok(Some(rules)) => {
                errors.extend(rules.check(urn).into_iter().map(Finding::from));
                for (offset, name) in rules.unused_components(urn) {
                    warnings.push(Finding {
                        kind: "component-unused",
                        offset,
                        message: format!(
                            "the '{}' namespace gives the {name} no meaning ({})",
                            ns.nid,
                            rules.source()
                        ),
                    });
                }
                urn.equivalence_key_with(rules)
            }
        };
        Verdict {
            namespace: Some(ns),
            errors,
            warnings,
            key,
        }
    }
}

impl Namespace {
    /// The form of its NSS syntax check: `abnf`, `regex`, `builtin`, or
    /// `generic` when it has none (or its rules do not compile).
    pub fn syntax_name(&self) -> &'static str {
        match self.rules() {
            Ok(Some(r)) => r.syntax_kind().map_or("generic", SyntaxKind::as_str),
            _ => "generic",
        }
    }
}

/// Levenshtein distance over bytes, or `limit + 1` as soon as it must be
/// larger than `limit`. NIDs are short ASCII (at most 32 bytes), so the two
/// rows live on the stack; longer input is cut there.
pub(crate) fn edit_distance_within(a: &str, b: &str, limit: usize) -> usize {
    let (a, b) = (&a.as_bytes()[..a.len().min(32)], &b.as_bytes()[..b.len().min(32)]);
    let mut rows = [[0u8; 33]; 2];
    for (j, cell) in rows[0].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    for i in 1..=a.len() {
        let (prev, cur) = if i % 2 == 1 { (0, 1) } else { (1, 0) };
        rows[cur][0] = i as u8;
        let mut row_min = rows[cur][0];
        for j in 1..=b.len() {
            let cost = u8::from(a[i - 1] != b[j - 1]);
            let v = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            rows[cur][j] = v;
            row_min = row_min.min(v);
        }
        if usize::from(row_min) > limit {
            return limit + 1;
        }
    }
    usize::from(rows[a.len() % 2][b.len()])
}

#[cfg(test)]
mod tests {
    use super::edit_distance_within;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance_within("isbn", "isbn", 2), 0);
        assert_eq!(edit_distance_within("isnb", "isbn", 2), 2);
        assert_eq!(edit_distance_within("ibsn", "isbn", 2), 2);
        assert_eq!(edit_distance_within("isb", "isbn", 2), 1);
        assert_eq!(edit_distance_within("", "abc", 5), 3);
        assert_eq!(
            edit_distance_within("xyzw", "isbn", 1),
            2,
            "gives up past the limit"
        );
    }
}
