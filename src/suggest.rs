//! "Did you mean ...?": the optimal string alignment distance
//! (Damerau-Levenshtein where a swap of two neighbouring letters is one
//! edit, so `isnb` is one edit from `isbn`), for NIDs and for the names
//! inside a namespace (the IETF sub-namespaces and classes).

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions and swaps of neighbours, each one edit), or `limit + 1` as
/// soon as it must be larger than `limit`. NIDs are short ASCII (at most 32
/// bytes), so the three rows live on the stack; longer input is cut there.
pub(crate) fn edit_distance_within(a: &str, b: &str, limit: usize) -> usize {
    const MAX: usize = 32;
    let (a, b) = (
        &a.as_bytes()[..a.len().min(MAX)],
        &b.as_bytes()[..b.len().min(MAX)],
    );
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    // rows[i % 3] is row i of the table; row i - 2 is needed for swaps.
    let mut rows = [[0u8; MAX + 1]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i as u8;
        let mut row_min = rows[cur][0];
        for j in 1..=b.len() {
            let cost = u8::from(!a[i - 1].eq_ignore_ascii_case(&b[j - 1]));
            let mut v = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1
                && j > 1
                && a[i - 1].eq_ignore_ascii_case(&b[j - 2])
                && a[i - 2].eq_ignore_ascii_case(&b[j - 1])
            {
                v = v.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = v;
            row_min = row_min.min(v);
        }
        if usize::from(row_min) > limit {
            return limit + 1;
        }
    }
    usize::from(rows[a.len() % 3][b.len()])
}

/// How many edits a suggestion may be away: one for NIDs of up to four
/// characters, two for longer ones.
pub(crate) fn suggestion_limit(nid: &str) -> usize {
    if nid.len() > 4 { 2 } else { 1 }
}

/// The set of characters of a NID as bits (letters and digits folded
/// case-insensitively; anything else shares one bit).
pub(crate) fn letter_mask(s: &str) -> u64 {
    s.bytes().fold(0, |m, b| {
        let bit = match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => c - b'a',
            c @ b'0'..=b'9' => c - b'0' + 26,
            _ => 36,
        };
        m | 1 << bit
    })
}

/// Returns true if and only if `a` and `b` have the same letters in
/// another order (case-insensitively), as a swap typo leaves them.
fn same_letters(a: &str, b: &str) -> bool {
    let sorted = |s: &str| {
        let mut v = s.as_bytes().to_ascii_lowercase();
        v.sort_unstable();
        v
    };
    a.len() == b.len() && sorted(a) == sorted(b)
}

/// The most characters of a NID whose suggestions may not replace one of
/// its letters: in a name this short a replaced letter leaves too little
/// of it to tell a typo from another name (`urn:cts:` of Canonical Text
/// Services, `urn:uid:` and `urn:urn:` are no typos of cta, oid and mrn);
/// a swap, a letter left out or one too many still is (`xlm` for xml,
/// `isb` for isbn).
const SHORT: usize = 3;

/// The most characters of a NID that gets no suggestion: one edit is half
/// of it (LinkedIn's `urn:li:` is no typo of lei), and no formal NID is
/// this short (RFC 8141 section 5.1: more than two characters).
const TOO_SHORT: usize = 2;

/// The candidate nearest to `nid` within [`suggestion_limit`] edits (for a
/// NID of up to [`SHORT`] characters, not by a replaced letter; none for
/// one of up to [`TOO_SHORT`]). Of
/// candidates equally near, one with the same letters (a swap) wins, then
/// the first in `candidates`' order. Each candidate comes with its
/// [`letter_mask`], made once by the caller.
pub(crate) fn nearest<'c>(nid: &str, candidates: impl Iterator<Item = (&'c str, u64)>) -> Option<&'c str> {
    if nid.len() <= TOO_SHORT {
        return None;
    }
    let limit = suggestion_limit(nid);
    let mask = letter_mask(nid);
    let mut best: Option<((usize, bool), &str)> = None;
    for (c, c_mask) in candidates {
        // Each edit adds or removes at most two letters from the set of
        // letters used: a cheap test before the full distance.
        if c.len().abs_diff(nid.len()) > limit || (mask ^ c_mask).count_ones() as usize > 2 * limit {
            continue;
        }
        let d = edit_distance_within(nid, c, limit);
        if d > limit {
            continue;
        }
        let swap = same_letters(nid, c);
        // One edit between names of one length is a swap or a replaced
        // letter (the limit is one edit for names this short).
        if nid.len() <= SHORT && c.len() == nid.len() && !swap {
            continue;
        }
        let rank = (d, !swap);
        if best.is_none_or(|(b, _)| rank < b) {
            best = Some((rank, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::{edit_distance_within, letter_mask};

    fn nearest<'c>(nid: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
        super::nearest(nid, candidates.map(|c| (c, letter_mask(c))))
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance_within("isbn", "isbn", 2), 0);
        assert_eq!(edit_distance_within("isnb", "isbn", 2), 1, "a swap is one edit");
        assert_eq!(edit_distance_within("ibsn", "isbn", 2), 1);
        assert_eq!(
            edit_distance_within("ISBN", "isbn", 2),
            0,
            "NIDs are case-insensitive"
        );
        assert_eq!(edit_distance_within("isb", "isbn", 2), 1);
        assert_eq!(edit_distance_within("", "abc", 5), 3);
        assert_eq!(
            edit_distance_within("ca", "abc", 5),
            3,
            "optimal string alignment"
        );
        assert_eq!(
            edit_distance_within("xyzw", "isbn", 1),
            2,
            "gives up past the limit"
        );
    }

    #[test]
    fn nearest_prefers_fewer_edits() {
        let nids = ["isni", "isbn", "issn"];
        assert_eq!(
            nearest("isnb", ["isni", "isbn"].into_iter()),
            Some("isbn"),
            "a swap beats a substitution"
        );
        assert_eq!(nearest("isnb", nids.iter().copied()), Some("isbn"));
        assert_eq!(nearest("zzzz", nids.iter().copied()), None);
    }

    #[test]
    fn a_short_nid_is_no_typo_of_a_name_one_letter_apart() {
        let nids = [
            "lei", "cta", "oid", "uci", "mrn", "ddi", "xml", "isbn", "gs1", "ogc",
        ];
        let near = |nid| nearest(nid, nids.iter().copied());
        // Real unregistered NIDs (LinkedIn, Canonical Text Services) and
        // the doubled prefix urn:urn: are not lei, cta, oid, uci or mrn.
        for nid in ["li", "gs", "cts", "uid", "sid", "nid", "uri", "urn", "mdn"] {
            assert_eq!(near(nid), None, "{nid}");
        }
        // A swap, a letter left out or one too many is still a typo.
        assert_eq!(near("xlm"), Some("xml"));
        assert_eq!(near("did"), Some("ddi"));
        assert_eq!(near("isb"), Some("isbn"));
        assert_eq!(near("gs-1"), Some("gs1"));
        assert_eq!(near("OGC"), Some("ogc"), "case is no edit");
        // From four characters a replaced letter is a typo again.
        assert_eq!(near("isbm"), Some("isbn"));
    }
}
