//! The read model of the registry: the namespaces in force with their
//! rules, immutable, cheap to clone and share between threads.
//!
//! It comes from the shipped registry (compiled into the crate by
//! `build.rs`: no parsing at start-up; each namespace's rules are parsed
//! and compiled on first use), from a database's records in force, or from
//! any list of [`NamespaceEntry`]s (a snapshot, a test).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::namespace::{Kind, Namespace, Status};
use super::report::Report;
use crate::resolve::QueryRegistry;
use crate::suggest;
use crate::urn::Syntax;

/// One namespace to put in a [`Registry`].
#[derive(Clone, Debug)]
pub struct NamespaceEntry {
    /// The NID as registered.
    pub nid: String,
    /// Formal or informal.
    pub kind: Kind,
    /// Registered or withdrawn.
    pub status: Status,
    /// The `[rules]` table of the version in force, as TOML.
    pub rules: Option<String>,
}

/// One namespace of the shipped registry, as `build.rs` writes it.
struct EmbeddedNamespace {
    nid: &'static str,
    kind: Kind,
    withdrawn: bool,
    rules: Option<&'static str>,
}

static EMBEDDED: &[EmbeddedNamespace] = include!(concat!(env!("OUT_DIR"), "/registry_model.rs"));

/// The registered namespaces with their rules.
///
/// ```
/// use urnreg::Registry;
///
/// let registry = Registry::embedded();
/// let report = registry.check("urn:isbn:978-0-306-40615-7");
/// assert!(report.is_valid());
/// assert_eq!(report.namespace().map(|ns| ns.nid()), Some("isbn"));
///
/// // The ISBN check digit is wrong: the namespace's own rules refuse it.
/// let report = registry.check("urn:isbn:978-0-306-40615-8");
/// assert!(!report.is_valid());
/// assert_eq!(report.errors().next().map(|f| f.code()), Some("nss-check"));
/// assert_eq!(report.key(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Registry {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    namespaces: Vec<Namespace>,
    /// Open addressing over the lower-cased NID: each slot holds the NID's
    /// first eight bytes, its length and its index into `namespaces`
    /// (`EMPTY` for a free slot), so a NID of up to eight bytes is found
    /// with one load and one comparison. Its length is a power of two at
    /// least twice the number of namespaces.
    slots: Box<[Slot]>,
    /// Every NID lower-cased, one after another, and where each is (by
    /// namespace index): a lookup compares with these few hundred bytes
    /// in a row instead of following each namespace's own string.
    names: Box<[u8]>,
    spans: Box<[(u32, u32)]>,
    /// By namespace index: the letters of its NID, for suggestions.
    masks: Box<[u64]>,
    /// The `unregistered-nid` messages made so far, shared by every
    /// [`Checker`](super::Checker) of this registry (each also keeps its
    /// own, read without a lock): a suggestion compares a NID with every
    /// registered one, so each is made once per registry, not per thread.
    unregistered: Mutex<HashMap<Box<[u8]>, Arc<str>>>,
    /// The resolution sub-registries as held: the store's, or `None` for
    /// the shipped ones (read only when first needed).
    query_base: Option<QueryRegistry>,
    /// `query_base` with what the namespaces' rules declare, made on first
    /// use (few URNs carry directives; start-up parses nothing).
    query: OnceLock<QueryRegistry>,
}

/// How many `unregistered-nid` messages a registry keeps (then it forgets
/// them all and starts again: hostile input cannot grow it without bound).
pub(crate) const UNREGISTERED_CACHE: usize = 16 * 1024;

const EMPTY: u32 = u32::MAX;

/// A slot of the NID table (see [`Inner::slots`]).
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// [`head_word`] of the NID.
    head: u64,
    len: u32,
    index: u32,
}

const FREE: Slot = Slot {
    head: 0,
    len: 0,
    index: EMPTY,
};

/// The first eight bytes of `nid` (zero-padded when shorter) as a
/// little-endian word, ASCII letters lower-cased: equal for two NIDs of up
/// to eight bytes exactly when they are equal ignoring ASCII case.
fn head_word(nid: &[u8]) -> u64 {
    let word = match nid.split_first_chunk::<8>() {
        Some((word, _)) => u64::from_le_bytes(*word),
        None if nid.is_empty() => 0,
        None => short_word(nid),
    };
    ascii_lower_word(word)
}

/// `word` with each byte `A`..=`Z` lower-cased and every other byte as it
/// is, eight at a time.
fn ascii_lower_word(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Seven bits of each byte, so that adding below never carries into
    // the next byte; the high bit of each sum says `>= 'A'`, `> 'Z'`.
    let low = word & !HIGH;
    let from_a = low + ONES * u64::from(0x80 - b'A');
    let past_z = low + ONES * u64::from(0x80 - b'Z' - 1);
    let upper = from_a & !past_z & !word & HIGH;
    word | upper >> 2
}

/// Hashes a NID as its lower-cased form would hash: its first eight bytes
/// as the `head` word the lookup compares ([`head_word`], read once for
/// both), then eight bytes at a time (`| 0x20` lower-cases letters and
/// leaves the other bytes of equal strings equal), a multiply per word,
/// no allocation.
fn hash_nid(nid: &[u8], head: u64) -> usize {
    const LOWER: u64 = 0x2020_2020_2020_2020;
    let mix = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    let mut h = mix(nid.len() as u64, head);
    let mut rest = nid.get(8..).unwrap_or_default();
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        h = mix(h, u64::from_le_bytes(*word) | LOWER);
        rest = tail;
    }
    if !rest.is_empty() {
        let in_use = (1u64 << (8 * rest.len())) - 1;
        h = mix(h, short_word(rest) | (LOWER & in_use));
    }
    (h ^ (h >> 29)) as usize
}

/// The 1 to 7 bytes of `bytes` as a little-endian word, read in at most
/// two loads that may overlap (no loop over the bytes).
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    debug_assert!((1..8).contains(&n));
    if n >= 4 {
        let low = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let high = u32::from_le_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]);
        u64::from(low) | u64::from(high) << (8 * (n - 4))
    } else {
        u64::from(bytes[0])
            | u64::from(bytes[n / 2]) << (8 * (n / 2))
            | u64::from(bytes[n - 1]) << (8 * (n - 1))
    }
}

impl Registry {
    /// The registry shipped with urnreg (the IANA registry in `registry/`),
    /// built once per process, without parsing.
    pub fn embedded() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| {
            Registry::from_namespaces(
                EMBEDDED.iter().map(|e| {
                    let status = if e.withdrawn {
                        Status::Withdrawn
                    } else {
                        Status::Registered
                    };
                    Namespace::new(e.nid, e.kind, status, e.rules.map(Cow::Borrowed))
                }),
                None,
            )
        })
    }

    /// A registry of these namespaces. A NID given twice (in any case)
    /// keeps its last entry.
    pub fn from_entries(entries: impl IntoIterator<Item = NamespaceEntry>) -> Registry {
        Registry::from_entries_inner(entries, None)
    }

    /// A registry of these namespaces whose resolution sub-registries hold
    /// `query` (and what the namespaces' rules declare).
    pub fn from_entries_with_query(
        entries: impl IntoIterator<Item = NamespaceEntry>,
        query: QueryRegistry,
    ) -> Registry {
        Registry::from_entries_inner(entries, Some(query))
    }

    fn from_entries_inner(
        entries: impl IntoIterator<Item = NamespaceEntry>,
        query_base: Option<QueryRegistry>,
    ) -> Registry {
        Registry::from_namespaces(
            entries
                .into_iter()
                .map(|e| Namespace::new(e.nid, e.kind, e.status, e.rules.map(Cow::Owned))),
            query_base,
        )
    }

    /// The Query Keywords and Resolution Service Designators sub-registries
    /// (the 2012 URN draft, section 9.2): those held, with each registered
    /// namespace's declared keywords merged in
    /// ([`QueryRegistry::with_declared`]).
    pub fn query(&self) -> &QueryRegistry {
        self.inner.query.get_or_init(|| {
            let base = self
                .inner
                .query_base
                .as_ref()
                .unwrap_or_else(|| QueryRegistry::shipped());
            base.with_declared_rules(
                self.inner
                    .namespaces
                    .iter()
                    .filter(|ns| ns.status() == Status::Registered)
                    .filter_map(|ns| Some((ns.nid(), ns.rules_text()?))),
            )
        })
    }

    fn from_namespaces(
        namespaces: impl Iterator<Item = Namespace>,
        query_base: Option<QueryRegistry>,
    ) -> Registry {
        let mut list: Vec<Namespace> = Vec::new();
        let mut slots: Box<[Slot]> = Box::new([]);
        let slot_of = |nid: &[u8], index: usize| Slot {
            head: head_word(nid),
            len: nid.len() as u32,
            index: index as u32,
        };
        for ns in namespaces {
            if (list.len() + 1) * 2 > slots.len() {
                slots = vec![FREE; ((list.len() + 1) * 2).next_power_of_two().max(16)].into_boxed_slice();
                for (i, existing) in list.iter().enumerate() {
                    let nid = existing.nid().as_bytes();
                    let slot = probe(&slots, nid, |j| {
                        list[j].nid().as_bytes().eq_ignore_ascii_case(nid)
                    });
                    slots[slot] = slot_of(nid, i);
                }
            }
            let mut ns = ns;
            let nid = ns.nid().as_bytes();
            let slot = probe(&slots, nid, |j| {
                list[j].nid().as_bytes().eq_ignore_ascii_case(nid)
            });
            if slots[slot].index == EMPTY {
                slots[slot] = slot_of(nid, list.len());
                ns.set_index(list.len());
                list.push(ns);
            } else {
                let at = slots[slot].index as usize;
                ns.set_index(at);
                list[at] = ns;
            }
        }
        let mut names = Vec::new();
        let mut spans = Vec::with_capacity(list.len());
        for ns in &list {
            spans.push((names.len() as u32, ns.nid().len() as u32));
            names.extend(ns.nid().bytes().map(|b| b.to_ascii_lowercase()));
        }
        let masks = list.iter().map(|ns| suggest::letter_mask(ns.nid())).collect();
        Registry {
            inner: Arc::new(Inner {
                namespaces: list,
                slots,
                names: names.into_boxed_slice(),
                spans: spans.into_boxed_slice(),
                masks,
                unregistered: Mutex::new(HashMap::new()),
                query_base,
                query: OnceLock::new(),
            }),
        }
    }

    /// Reads the namespaces in force, with their rules, from a database.
    #[cfg(feature = "store")]
    ///
    /// # Errors
    ///
    /// The store's error.
    pub fn from_store(store: &crate::registry::Store) -> crate::registry::Result<Registry> {
        let rows = store.in_force()?;
        let query = store.query_registry()?;
        Ok(Registry::from_entries_with_query(
            rows.into_iter().map(|row| NamespaceEntry {
                nid: row.nid,
                kind: row.kind,
                status: row.status,
                rules: row.rules,
            }),
            query,
        ))
    }

    /// The namespace of `nid`, case-insensitively.
    pub fn namespace(&self, nid: &str) -> Option<&Namespace> {
        let inner = &*self.inner;
        if inner.slots.is_empty() {
            return None;
        }
        let nid = nid.as_bytes();
        // Past the eight bytes in the slot: compared with the lower-cased
        // NIDs in a row, not through each namespace's own string.
        let slot = probe(&inner.slots, nid, |i| {
            let (start, len) = inner.spans[i];
            // The names are lower case already: only `nid` is folded.
            len as usize == nid.len()
                && inner.names[start as usize..][..nid.len()]
                    .iter()
                    .zip(nid)
                    .all(|(n, b)| *n == b.to_ascii_lowercase())
        });
        match inner.slots[slot].index {
            EMPTY => None,
            i => Some(&inner.namespaces[i as usize]),
        }
    }

    /// Every namespace, in the order they were given.
    pub fn namespaces(&self) -> impl ExactSizeIterator<Item = &Namespace> {
        self.inner.namespaces.iter()
    }

    /// How many namespaces there are.
    pub fn len(&self) -> usize {
        self.inner.namespaces.len()
    }

    /// Returns true if and only if the registry has no namespace.
    pub fn is_empty(&self) -> bool {
        self.inner.namespaces.is_empty()
    }

    /// The registered namespace whose NID is nearest to `nid`: one edit
    /// away (a swap of neighbours counts as one), or two for NIDs longer
    /// than four characters.
    pub fn suggest(&self, nid: &str) -> Option<&Namespace> {
        let inner = &*self.inner;
        let candidates = inner
            .namespaces
            .iter()
            .zip(inner.masks.iter())
            .map(|(ns, mask)| (ns.nid(), *mask));
        let found = suggest::nearest(nid, candidates)?;
        self.namespace(found)
    }

    /// The message of the `unregistered-nid` error for `nid` (not
    /// registered), with the nearest registered NID as a suggestion: made
    /// once per NID and registry.
    pub(crate) fn unregistered_message(&self, nid: &str) -> Arc<str> {
        // A poisoned lock only means another thread panicked while it held
        // it: the map is still a valid cache.
        let mut cache = self.inner.unregistered.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(message) = cache.get(nid.as_bytes()) {
            return message.clone();
        }
        let hint = self
            .suggest(nid)
            .map(|s| format!(" (did you mean '{}'?)", s.nid()))
            .unwrap_or_default();
        let message: Arc<str> =
            format!("the NID '{nid}' at byte 4 is not registered{hint} (RFC 8141 sections 1 and 5)").into();
        if cache.len() >= UNREGISTERED_CACHE {
            cache.clear();
        }
        cache.insert(nid.as_bytes().into(), message.clone());
        message
    }

    /// Checks one URN (RFC 8141 syntax) against this registry.
    pub fn check<'a>(&self, input: &'a str) -> Report<'a, '_> {
        super::Checker::new(self).check_str(input)
    }

    /// Checks one URN, given as bytes (they need not be UTF-8), with the
    /// given grammar.
    pub fn check_bytes<'a>(&self, input: &'a [u8], syntax: Syntax) -> Report<'a, '_> {
        super::Checker::new(self).with_syntax(syntax).check(input)
    }
}

/// The slot of `nid` in `slots` (open addressing, linear probing): the one
/// holding `nid`, else the free one where it would go. A slot holds `nid`
/// when its first eight bytes and length match, and, for a NID longer than
/// eight bytes, when `same` says its namespace's NID is `nid`.
fn probe(slots: &[Slot], nid: &[u8], same: impl Fn(usize) -> bool) -> usize {
    let mask = slots.len() - 1;
    let head = head_word(nid);
    let mut at = hash_nid(nid, head) & mask;
    loop {
        let slot = slots[at];
        if slot.index == EMPTY
            || (slot.head == head
                && slot.len as usize == nid.len()
                && (nid.len() <= 8 || same(slot.index as usize)))
        {
            return at;
        }
        at = (at + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word of 1 to 7 bytes is the bytes in order, whatever the length.
    #[test]
    fn short_word_is_the_bytes_little_endian() {
        let bytes = *b"\x01\x82c\xd4e\xf6g";
        for n in 1..8 {
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(short_word(&bytes[..n]), u64::from_le_bytes(want), "{n} bytes");
        }
    }

    /// Eight bytes lower-cased at once as `to_ascii_lowercase` does one,
    /// every byte value at every place.
    #[test]
    fn words_lower_case_as_bytes_do() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"aZ-9q\x80\xffM";
                bytes[at] = b;
                let want = bytes.map(|x| x.to_ascii_lowercase());
                assert_eq!(
                    ascii_lower_word(u64::from_le_bytes(bytes)),
                    u64::from_le_bytes(want),
                    "{b:#x} at {at}"
                );
            }
        }
        assert_eq!(head_word(b""), 0);
        assert_eq!(head_word(b"ISBN"), head_word(b"isbn"));
        // Padding and NUL read alike: the slot's length tells them apart.
        assert_eq!(head_word(b"isbn"), head_word(b"isbn\0"));
        assert_eq!(
            head_word(b"ABCDEFGHIJ"),
            head_word(b"abcdefghXY"),
            "the first eight bytes only"
        );
    }

    /// A lookup never matches a NID that differs only past eight bytes or
    /// in a byte that `| 0x20` would fold (`\r` and `-`, `@` and `` ` ``).
    #[test]
    fn lookups_compare_whole_nids_exactly() {
        let r = Registry::from_entries(["a-b", "abcdefgh-long", "abcdefgh-lonG2"].into_iter().map(|nid| {
            NamespaceEntry {
                nid: nid.to_string(),
                kind: Kind::Formal,
                status: Status::Registered,
                rules: None,
            }
        }));
        assert!(r.namespace("A-B").is_some());
        assert!(r.namespace("a\rb").is_none());
        assert!(r.namespace("a-b\0").is_none());
        assert_eq!(
            r.namespace("ABCDEFGH-LONG").map(Namespace::nid),
            Some("abcdefgh-long")
        );
        assert!(r.namespace("abcdefgh-lonx").is_none());
        assert!(r.namespace("abcdefgh-lon").is_none());
        assert_eq!(
            r.namespace("abcdefgh-long2").map(Namespace::nid),
            Some("abcdefgh-lonG2")
        );
    }

    /// A NID hashes as its lower-cased form, at every length up to 32.
    #[test]
    fn a_nid_hashes_as_its_lower_case() {
        let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";
        for n in 0..=32 {
            let nid = &upper[..n];
            let lower = nid.to_ascii_lowercase();
            assert_eq!(
                hash_nid(nid.as_bytes(), head_word(nid.as_bytes())),
                hash_nid(lower.as_bytes(), head_word(lower.as_bytes())),
                "{nid}"
            );
        }
    }

    #[test]
    fn embedded_registry_finds_every_nid_in_any_case() {
        let r = Registry::embedded();
        assert!(r.len() > 100);
        for ns in r.namespaces() {
            assert_eq!(r.namespace(ns.nid()).map(Namespace::nid), Some(ns.nid()));
            assert_eq!(
                r.namespace(&ns.nid().to_ascii_uppercase()).map(Namespace::nid),
                Some(ns.nid())
            );
        }
        assert!(r.namespace("no-such-nid").is_none());
        assert!(r.namespace("").is_none());
    }

    #[test]
    fn a_later_entry_replaces_an_earlier_one() {
        let entry = |nid: &str, status| NamespaceEntry {
            nid: nid.into(),
            kind: Kind::Formal,
            status,
            rules: None,
        };
        let r = Registry::from_entries(
            (0..40)
                .map(|i| entry(&format!("ns{i}"), Status::Registered))
                .chain([entry("NS7", Status::Withdrawn)]),
        );
        assert_eq!(r.len(), 40);
        assert_eq!(r.namespace("ns7").map(Namespace::status), Some(Status::Withdrawn));
        assert_eq!(r.namespace("Ns39").map(Namespace::nid), Some("ns39"));
        for (i, ns) in r.namespaces().enumerate() {
            assert_eq!(ns.index(), i);
        }
        assert!(Registry::from_entries([]).namespace("x").is_none());
    }

    /// NIDs of any length (even longer than a valid NID, from hand-made
    /// entries) are found in any case, and no prefix matches.
    #[test]
    fn nids_of_every_length_are_found_exactly() {
        let entry = |nid: String| NamespaceEntry {
            nid,
            kind: Kind::Formal,
            status: Status::Registered,
            rules: None,
        };
        let nids: Vec<String> = (1..=40)
            .map(|n| "Ab".repeat(n).chars().take(n).collect())
            .collect();
        let r = Registry::from_entries(nids.iter().cloned().map(entry));
        for nid in &nids {
            assert_eq!(r.namespace(nid).map(Namespace::nid), Some(nid.as_str()));
            assert_eq!(
                r.namespace(&nid.to_ascii_lowercase()).map(Namespace::nid),
                Some(nid.as_str())
            );
            assert!(r.namespace(&format!("{nid}x")).is_none());
        }
        assert!(r.namespace(&"ab".repeat(30)).is_none());
    }

    #[test]
    fn suggestions_count_a_swap_as_one_edit() {
        let r = Registry::embedded();
        assert_eq!(r.suggest("isnb").map(Namespace::nid), Some("isbn"));
        assert_eq!(r.suggest("ISNB").map(Namespace::nid), Some("isbn"));
        assert!(r.suggest("qqqqqqqq").is_none());
    }
}
