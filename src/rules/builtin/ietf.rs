//! IETF (RFC 2648 section 2, RFC 3553 sections 3 and 4): an `other-nss`
//! is no prefix of those the registration gives a form; a params class is
//! one IANA has registered.

#[allow(unused_imports)]
use super::*;

/// The prefixes of RFC 2648 section 2's forms (rfc-nss, fyi-nss, std-nss,
/// bcp-nss, draft-nss, mtg-nss) and RFC 3553 section 3's params, each with
/// what follows its ':'.
const PREFIXES: &[(&str, &str)] = &[
    ("rfc", "a number"),
    ("fyi", "a number"),
    ("std", "a number"),
    ("bcp", "a number"),
    ("id", "a draft name"),
    ("mtg", "a meeting name"),
    ("params", "a name"),
];

/// IETF (RFC 2648 section 2): `other-nss = string`, "beginning with a
/// prefix other than one of those above for future expansion"; RFC 3553
/// section 3 adds params. The grammar's `string` takes `rfc` or `params`
/// alone, which the comment leaves out: a series' prefix without its ':'
/// and what follows (`urn:ietf:rfc`) names nothing. Letter case does not
/// matter (the entire URN is case-insensitive).
pub(super) fn check_ietf(nss: &str) -> Result<(), Violation> {
    match PREFIXES.iter().find(|(p, _)| nss.eq_ignore_ascii_case(p)) {
        Some((prefix, next)) => Err(violation(
            nss.len(),
            format!(
                "'{prefix}' needs ':' and {next}: other-nss begins with a prefix other than rfc, fyi, std, bcp, id, mtg, params (RFC 3553)"
            ),
        )),
        None => Ok(()),
    }
}

/// The names registered in the IANA registry "IETF URN Sub-namespace for
/// Registered Protocol Parameter Identifiers"
/// (<https://www.iana.org/assignments/params/params.xhtml>, registry
/// `params-1`), each with its reference, in the registry's order. Source:
/// IANA's own `params/params.xml` (registry last updated 2026-02-02), as
/// mirrored daily by larseggert/iana-assignments (commit c9ce44a5 of
/// 2026-02-03, unchanged in the mirror up to 2026-08-22). 23 names; one,
/// `capport:unrestricted` (RFC 8910), is a whole name, not a class.
/// Registrations are IETF Review (RFC 3553): update this table from the
/// registry, never by guess.
pub(super) const PARAMS_CLASSES: &[(&str, &str)] = &[
    ("xml", "RFC 3688"),
    ("cpim-headers", "RFC 3862"),
    ("ecml", "RFC 4112"),
    ("imdn", "RFC 5438"),
    ("sieve", "RFC 6134"),
    ("oauth", "RFC 6755"),
    ("gss", "RFC 7056"),
    ("netconf", "RFC 6241"),
    ("rtp-hdrext", "RFC 8285"),
    ("geopriv", "RFC 7035"),
    ("scim", "RFC 7643"),
    ("tzdist", "RFC 7808"),
    ("abfab", "RFC 7833"),
    ("push", "RFC 8030"),
    ("restconf", "RFC 8040"),
    ("mud", "RFC 8520"),
    ("rolie", "RFC 8322"),
    ("acme", "RFC 8555"),
    ("jmap", "RFC 8620"),
    ("capport:unrestricted", "RFC 8910"),
    ("trans", "RFC 9162"),
    ("whip", "RFC 9725"),
    ("unit", "RFC 9880"),
];

/// The params name of an NSS: what follows `params:` (any letter case),
/// if the NSS is a params-nss.
fn params_name(nss: &str) -> Option<&str> {
    let head = nss.get(..7)?;
    head.eq_ignore_ascii_case("params:").then(|| &nss[7..])
}

/// True when `name` is the registered name `entry` or an item under it
/// (RFC 3553 section 3: the left of a colon is the class of the items on
/// its right); letter case does not matter (RFC 2648 section 2).
fn under(name: &str, entry: &str) -> bool {
    name.len() >= entry.len()
        && name.as_bytes()[..entry.len()].eq_ignore_ascii_case(entry.as_bytes())
        && (name.len() == entry.len() || name.as_bytes()[entry.len()] == b':')
}

/// The registered name whose class is nearest to `class` (a typo), as
/// "did you mean" finds NIDs.
fn nearest_class(class: &str) -> Option<&'static str> {
    let first = |entry: &'static str| entry.split(':').next().unwrap_or(entry);
    let classes = PARAMS_CLASSES
        .iter()
        .map(|(entry, _)| (first(entry), crate::validate::letter_mask(first(entry))));
    let near = crate::validate::nearest(class, classes)?;
    PARAMS_CLASSES
        .iter()
        .map(|(entry, _)| *entry)
        .find(|entry| first(entry) == near)
}

/// IETF params (RFC 3553 sections 3 and 4): the class of a
/// `urn:ietf:params:` URN is a name IANA has registered in the "IETF URN
/// Sub-namespace for Registered Protocol Parameter Identifiers" registry
/// ([`PARAMS_CLASSES`]). Used as a recommendation (`[[rules.should]]`):
/// RFC 2648's grammar takes any class, but an unregistered one names
/// nothing yet, like an unregistered NID. Other IETF URNs pass.
pub(super) fn check_ietf_params_class(nss: &str) -> Result<(), Violation> {
    let Some(name) = params_name(nss) else {
        return Ok(());
    };
    if PARAMS_CLASSES.iter().any(|(entry, _)| under(name, entry)) {
        return Ok(());
    }
    let class = name.split(':').next().unwrap_or(name);
    // A class registered only as one whole name (capport:unrestricted):
    // the departure is after the class, where the name differs.
    let whole = PARAMS_CLASSES.iter().find(|(entry, _)| {
        entry
            .split_once(':')
            .is_some_and(|(c, _)| c.eq_ignore_ascii_case(class))
    });
    if let Some((entry, reference)) = whole {
        return Err(violation(
            7 + class.len(),
            format!("of class '{class}', IANA's params registry has only '{entry}' ({reference})"),
        ));
    }
    let hint = nearest_class(class)
        .map(|near| format!(" (did you mean '{near}'?)"))
        .unwrap_or_default();
    Err(violation(
        7,
        format!(
            "'{}' is not in IANA's params registry{hint}",
            crate::urn::shortened(class)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3553_section4_params_classes_are_those_of_the_iana_registry() {
        for nss in [
            "params:xml:ns:yang:ietf-interfaces",
            "params:oauth:grant-type:jwt-bearer",
            "PARAMS:ACME:error:malformed",
            "params:scim:schemas:core:2.0:User",
            "params:rtp-hdrext:ssrc-audio-level",
            "params:capport:unrestricted",
            "params:xml",
            "params:unit:m",
            "rfc:2648",
            "iesg",
            "paramsx:y",
        ] {
            assert_eq!(check_ietf_params_class(nss), Ok(()), "{nss}");
        }
        let e = check_ietf_params_class("params:bogusclass:x").unwrap_err();
        assert_eq!(e.offset, 7);
        assert!(
            e.message
                .contains("'bogusclass' is not in IANA's params registry"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("did you mean"), "{}", e.message);
        // LoST's URNs are XML namespaces (urn:ietf:params:xml:ns:lost1):
        // no 'lost' class is registered.
        let e = check_ietf_params_class("params:lost:x").unwrap_err();
        assert_eq!(e.offset, 7);
        assert!(!e.message.contains("did you mean"), "{}", e.message);
    }

    #[test]
    fn an_unregistered_class_near_a_registered_one_is_suggested() {
        for (nss, near) in [
            ("params:oaut:x", "oauth"),
            ("params:acmee:error:x", "acme"),
            ("params:xlm:ns:x", "xml"),
            ("params:netconff", "netconf"),
            ("params:rtp-hdrxt:x", "rtp-hdrext"),
        ] {
            let e = check_ietf_params_class(nss).unwrap_err();
            assert_eq!(e.offset, 7, "{nss}");
            assert!(
                e.message.contains(&format!("did you mean '{near}'?")),
                "{nss}: {}",
                e.message
            );
        }
    }

    #[test]
    fn a_class_registered_as_one_whole_name_has_only_that_name() {
        let e = check_ietf_params_class("params:capport:restricted").unwrap_err();
        assert_eq!(e.offset, "params:capport".len());
        assert!(
            e.message.contains("has only 'capport:unrestricted'"),
            "{}",
            e.message
        );
        assert_eq!(check_ietf_params_class("params:capport:unrestricted:x"), Ok(()));
        // The class alone is no registered name either.
        let e = check_ietf_params_class("params:capport").unwrap_err();
        assert_eq!(e.offset, "params:capport".len());
        assert!(e.message.contains("'capport:unrestricted'"), "{}", e.message);
    }

    #[test]
    fn the_params_class_table_has_each_name_once_in_lower_case_with_its_rfc() {
        for (i, (a, r)) in PARAMS_CLASSES.iter().enumerate() {
            assert!(r.starts_with("RFC "), "{a}: {r}");
            assert_eq!(a.to_ascii_lowercase(), *a);
            assert!(PARAMS_CLASSES[i + 1..].iter().all(|(b, _)| a != b), "{a} twice");
        }
        assert_eq!(PARAMS_CLASSES.len(), 23);
    }

    #[test]
    fn a_series_prefix_alone_is_no_other_nss() {
        for nss in ["rfc", "RFC", "bcp", "std", "fyi", "id", "mtg", "params"] {
            let e = check_ietf(nss).unwrap_err();
            assert_eq!(e.offset, nss.len(), "{nss}");
            assert!(e.message.contains("needs ':'"), "{}", e.message);
        }
        for nss in ["rfc:2648", "rfcx", "idx", "wg", "params:xml:ns:x", "iesg"] {
            assert_eq!(check_ietf(nss), Ok(()), "{nss}");
        }
    }
}
