//! The counts of a batch: inputs, invalid ones, and by NID and error kind
//! (what `check --summary` prints).

use std::collections::HashMap;

use crate::{Registry, Report};

/// The summary's line for inputs that are not URNs: without `urn:` and a
/// well-formed NID (an input refused after its NID counts under it).
pub const NOT_A_URN: &str = "(not a URN)";

/// How many distinct unregistered NIDs the summary counts one by one...
pub const MAX_OTHER_NIDS: usize = 10_000;
/// ... before it counts the rest under this line.
pub const OTHER_NIDS: &str = "(other unregistered NIDs)";

/// A key of at most [`ShortKey::MAX`] bytes held in place: the summary
/// counts thousands of distinct NIDs, and comparing keys behind pointers
/// costs a cache miss each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct ShortKey {
    len: u8,
    bytes: [u8; ShortKey::MAX],
}

/// Hashes the bytes in use only (the hash costs by the byte).
impl std::hash::Hash for ShortKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(&self.bytes[..usize::from(self.len)]);
    }
}

impl ShortKey {
    /// NIDs are at most 32 bytes (RFC 8141 section 2), and so are the
    /// summary's own labels.
    const MAX: usize = 32;

    fn new(s: &str) -> ShortKey {
        let s = &s.as_bytes()[..s.len().min(Self::MAX)];
        let mut bytes = [0; Self::MAX];
        bytes[..s.len()].copy_from_slice(s);
        ShortKey {
            len: s.len() as u8,
            bytes,
        }
    }

    fn as_str(&self) -> &str {
        // Made from NIDs and our own labels: ASCII, whole.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("?")
    }
}

/// Counts of a batch: how many inputs, how many invalid, and (when asked
/// for) how many of each NID and each error kind. Each worker keeps its
/// own; they are merged at the end.
#[derive(Default, Debug)]
pub struct Summary {
    total: u64,
    invalid: u64,
    /// Registered namespaces, by [`urnreg::Namespace::index`].
    by_namespace: Vec<u64>,
    /// Inputs that are not URNs (counted apart from the NIDs: a fixed
    /// label needs no map).
    not_a_urn: u64,
    /// Other NIDs, lower-cased (foldhash, seeded per process, as in the
    /// library's checker).
    by_other_nid: HashMap<ShortKey, u64, foldhash::fast::RandomState>,
    /// Error kinds: a few dozen codes, so a list beats a hash.
    by_error: Vec<(&'static str, u64)>,
}

impl Summary {
    /// Counts one report; `detailed`: by NID and error kind too.
    #[inline]
    pub fn add(&mut self, report: &Report<'_, '_>, detailed: bool) {
        self.total += 1;
        if !report.is_valid() {
            self.invalid += 1;
        }
        if detailed {
            self.add_detail(report);
        }
    }

    /// The counts by NID and error kind (out of line: most runs count
    /// only the totals, on every line).
    #[inline(never)]
    fn add_detail(&mut self, report: &Report<'_, '_>) {
        // By the NID even of an input refused after it (`urn:uuid:{...}`):
        // only an input with none is "not a URN".
        match (report.namespace(), report.nid()) {
            (Some(ns), _) => {
                let i = ns.index();
                if i >= self.by_namespace.len() {
                    self.by_namespace.resize(i + 1, 0);
                }
                self.by_namespace[i] += 1;
            }
            // Counted lower-cased (NIDs are case-insensitive).
            (None, Some(nid)) if nid.bytes().any(|b| b.is_ascii_uppercase()) => {
                self.count_other(&nid.to_ascii_lowercase(), 1);
            }
            (None, Some(nid)) => self.count_other(nid, 1),
            (None, None) => self.not_a_urn += 1,
        }
        for e in report.errors() {
            self.count_error(e.code(), 1);
        }
    }

    /// Counts `n` URNs of an unregistered NID: a stream of random NIDs
    /// must not grow the summary without bound.
    fn count_other(&mut self, nid: &str, n: u64) {
        let nid = ShortKey::new(nid);
        if let Some(count) = self.by_other_nid.get_mut(&nid) {
            *count += n;
            return;
        }
        let key = if self.by_other_nid.len() < MAX_OTHER_NIDS {
            nid
        } else {
            ShortKey::new(OTHER_NIDS)
        };
        *self.by_other_nid.entry(key).or_default() += n;
    }

    fn count_error(&mut self, code: &'static str, n: u64) {
        // The same code is nearly always the same literal: compare where
        // it is before what it says.
        let same = |k: &&str| std::ptr::eq(*k, code) || *k == code;
        match self.by_error.iter_mut().find(|(k, _)| same(k)) {
            Some((_, count)) => *count += n,
            None => self.by_error.push((code, n)),
        }
    }

    /// Adds another worker's counts.
    pub fn merge(&mut self, other: Summary) {
        self.total += other.total;
        self.invalid += other.invalid;
        self.not_a_urn += other.not_a_urn;
        if other.by_namespace.len() > self.by_namespace.len() {
            self.by_namespace.resize(other.by_namespace.len(), 0);
        }
        for (mine, n) in self.by_namespace.iter_mut().zip(other.by_namespace) {
            *mine += n;
        }
        for (k, v) in &other.by_other_nid {
            self.count_other(k.as_str(), *v);
        }
        for (k, v) in other.by_error {
            self.count_error(k, v);
        }
    }

    /// How many inputs were counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many of them were invalid.
    pub fn invalid(&self) -> u64 {
        self.invalid
    }

    /// Counts by NID, largest first (then by name): the registered
    /// namespaces of `registry` by their NID, other NIDs lower-cased (at
    /// most [`MAX_OTHER_NIDS`], the rest under [`OTHER_NIDS`]), inputs that
    /// are not URNs under [`NOT_A_URN`]. Only reports added `detailed`
    /// are counted (a batch adds them so when its
    /// [`super::Options::detailed_summary`] is set): else it is empty.
    pub fn by_nid<'s>(&'s self, registry: Option<&'s Registry>) -> Vec<(&'s str, u64)> {
        let mut nids: Vec<(&str, u64)> = registry
            .map(|r| {
                r.namespaces()
                    .zip(&self.by_namespace)
                    .filter(|(_, n)| **n > 0)
                    .map(|(ns, n)| (ns.nid(), *n))
                    .collect()
            })
            .unwrap_or_default();
        nids.extend(self.by_other_nid.iter().map(|(k, v)| (k.as_str(), *v)));
        if self.not_a_urn > 0 {
            nids.push((NOT_A_URN, self.not_a_urn));
        }
        nids.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        nids
    }

    /// Counts by error kind (its code), largest first. Only reports added
    /// `detailed` are counted (a batch adds them so when its
    /// [`super::Options::detailed_summary`] is set): else it is empty.
    pub fn by_error(&self) -> Vec<(&'static str, u64)> {
        let mut kinds = self.by_error.clone();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Checker;

    /// An input refused after a well-formed NID is counted under that NID
    /// (its namespace's, or lower-cased when unregistered); only an input
    /// with no NID is "not a URN".
    #[test]
    fn an_input_refused_after_its_nid_counts_under_it() {
        let registry = Registry::embedded();
        let mut checker = Checker::new(registry).without_messages();
        let mut summary = Summary::default();
        for input in [
            "urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
            "urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6",
            "urn:ietf:params:netconf:capability:url:1.0?scheme=http",
            "urn:IETF:rfc:8141",
            "URN:Not-Registered:a b",
            "urn:not-registered:x",
            "urn:a'b:c",
            "not a urn",
        ] {
            summary.add(&checker.check_str(input), true);
        }
        assert_eq!(
            summary.by_nid(Some(registry)),
            [(NOT_A_URN, 2), ("ietf", 2), ("not-registered", 2), ("uuid", 2)]
        );
        assert_eq!((summary.total(), summary.invalid()), (8, 7));
    }
}
