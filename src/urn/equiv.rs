//! URN-equivalence (RFC 8141 section 3.1) as one comparison key.
//!
//! Two URNs are URN-equivalent when their `assigned-name`s are octet-equal
//! after lower-casing the scheme and the NID and upper-casing the hex digits
//! of every `%HH` in the NSS. Percent-encoding is never decoded, and r-, q-
//! and f-components are ignored. [`Urn::equivalence_key`] builds that key;
//! `==` and `Hash` on [`Urn`] compare it without allocating.
//!
//! A namespace may add rules that make *more* URNs equivalent (section 3.1,
//! last paragraph). Such rules plug in as a [`KeyRefiner`], applied to the
//! generic key.

use std::borrow::Cow;

use super::Urn;

/// Upper-cases the (up to) two hex digits after each `%` of `nss`, in
/// place (RFC 8141 section 3.1 item 3: `%2c` and `%2C` are one URN).
/// A plain walk: an NSS is short and its escapes close together, where a
/// `memchr` call per escape cost more than it saved (callgrind, `check -q`
/// of 200k lines: 470 instructions per URN with lower-case hex).
pub(crate) fn upper_case_hex_in_place(nss: &mut [u8]) {
    let mut i = 0;
    while i < nss.len() {
        if nss[i] == b'%' {
            let end = (i + 3).min(nss.len());
            nss[i + 1..end].make_ascii_uppercase();
            i = end;
        } else {
            i += 1;
        }
    }
}

/// A namespace-specific refinement of the generic key (RFC 8141 section
/// 3.1: "URN namespace definitions MAY include additional rules for
/// URN-equivalence").
///
/// Implementations must only ever *merge* keys: if two URNs have the same
/// generic key, their refined keys must be equal too.
pub trait KeyRefiner {
    /// Refines the generic `key` of `urn` (already `urn:` + lower-case NID +
    /// `:` + NSS with upper-case `%HH`).
    fn refine<'k>(&self, urn: &Urn<'_>, key: Cow<'k, str>) -> Cow<'k, str>;
}

/// The refiner that changes nothing: plain section 3.1 equivalence.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenericEquivalence;

impl KeyRefiner for GenericEquivalence {
    fn refine<'k>(&self, _urn: &Urn<'_>, key: Cow<'k, str>) -> Cow<'k, str> {
        key
    }
}

impl<'a> Urn<'a> {
    /// The section 3.1 equivalence key: `urn:` + lower-case NID + `:` + NSS
    /// with upper-case `%HH`; r-, q- and f-components dropped.
    ///
    /// Borrows from the input when it is already in that form.
    ///
    /// ```
    /// use urnreg::Urn;
    ///
    /// let urn = Urn::parse("URN:EXAMPLE:a123%2cz456?+r#f")?;
    /// assert_eq!(urn.equivalence_key(), "urn:example:a123%2Cz456");
    /// # Ok::<(), urnreg::ParseError>(())
    /// ```
    pub fn equivalence_key(&self) -> Cow<'a, str> {
        let name = self.assigned_name();
        if self.is_canonical_assigned_name() {
            return Cow::Borrowed(name);
        }
        let mut key = String::with_capacity(name.len());
        key.extend(self.key_bytes().map(char::from));
        Cow::Owned(key)
    }

    /// Appends the section 3.1 equivalence key to `out` (no allocation
    /// beyond `out`'s own growth).
    pub fn push_equivalence_key(&self, out: &mut Vec<u8>) {
        // Copied whole, then changed in place: a copy of a slice is one
        // `memcpy`, where pushing byte by byte measured a tenth of a
        // `normalize --syntax-only` run.
        let start = out.len();
        out.extend_from_slice(self.assigned_name().as_bytes());
        let key = &mut out[start..];
        let (head, nss) = key.split_at_mut(self.nss_start());
        // "urn:" NID ":" (RFC 8141 section 3.1 items 1 and 2).
        head.make_ascii_lowercase();
        if self.nss_has_lower_hex() {
            upper_case_hex_in_place(nss);
        }
    }

    /// The equivalence key refined by a namespace's rules.
    pub fn equivalence_key_with(&self, refiner: &dyn KeyRefiner) -> Cow<'a, str> {
        refiner.refine(self, self.equivalence_key())
    }

    /// Returns true if and only if `self` and `other` are URN-equivalent
    /// under RFC 8141 section 3.1 (the same as `==`).
    pub fn is_equivalent(&self, other: &Urn<'_>) -> bool {
        self.key_bytes().eq(other.key_bytes())
    }

    /// Returns true if and only if the assigned-name is already its own key.
    fn is_canonical_assigned_name(&self) -> bool {
        &self.as_str().as_bytes()[..3] == b"urn"
            && !self.nid().bytes().any(|b| b.is_ascii_uppercase())
            && !self.nss_has_lower_hex()
    }

    /// The bytes of the equivalence key, produced on the fly.
    pub(crate) fn key_bytes(&self) -> impl Iterator<Item = u8> + 'a {
        let bytes = self.assigned_name().as_bytes();
        let nss_start = self.nss_start();
        // How many hex digits remain after a '%' in the NSS.
        let mut hex_left = 0u8;
        bytes.iter().enumerate().map(move |(i, &b)| {
            if i < nss_start {
                // "urn:" NID ":" (RFC 8141 section 3.1 items 1 and 2)
                b.to_ascii_lowercase()
            } else if hex_left > 0 {
                hex_left -= 1;
                b.to_ascii_uppercase()
            } else {
                if b == b'%' {
                    hex_left = 2;
                }
                b
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key written in place is the key made byte by byte (RFC 8141
    /// section 3.1): scheme and NID lower-cased, only the two hex digits
    /// after each `%` upper-cased, components dropped.
    #[test]
    fn key_written_in_place_is_the_section_3_1_key() {
        for input in [
            "urn:example:a",
            "URN:EXAMPLE:a%2c%2Cb",
            "uRn:ExAmple:%aa",
            "urn:x-y:%ab%cd%ef?+r%aa?=q#f%bb",
            "urn:ab:%25%2f/AbC",
            "Urn:Ab:ZZ%7ezz",
        ] {
            let urn = Urn::parse(input).unwrap();
            let expected: Vec<u8> = urn.key_bytes().collect();
            let mut out = b"prefix".to_vec();
            urn.push_equivalence_key(&mut out);
            assert_eq!(&out[..6], b"prefix", "{input}");
            assert_eq!(&out[6..], expected.as_slice(), "{input}");
            assert_eq!(urn.equivalence_key().as_bytes(), expected.as_slice(), "{input}");
        }
    }
}
