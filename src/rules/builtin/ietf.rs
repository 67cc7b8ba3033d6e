//! IETF (RFC 2648 section 2, RFC 3553 sections 3 and 4): an `other-nss`
//! is no prefix of those the registration gives a form; a params class is
//! one IANA has registered.

#[allow(unused_imports)]
use super::*;

/// The equivalence key's NSS (RFC 2648 section 2: "the entire URN is
/// case-insensitive"; RFC 3553 section 3, Rules for Lexical Equivalence,
/// for the params sub-namespace: "exact string match" as RFC 2141 has it,
/// the case of `%HH` aside, which the generic key has normalized
/// already): lower-cased outside its escapes, except what follows
/// `params:`, which keeps its case (`urn:ietf:params:oauth:request_uri:<ref>`,
/// a JWK thumbprint, SCIM's `...:User` are case-sensitive). The label
/// `params` itself is RFC 2648's choice of sub-namespace, lower-cased.
pub(super) fn normalize_ietf(nss: &str, out: &mut Vec<u8>) -> bool {
    match nss.get(..7) {
        Some(head) if head.eq_ignore_ascii_case("params:") => {
            out.extend_from_slice(b"params:");
            out.extend_from_slice(&nss.as_bytes()[7..]);
        }
        _ => {
            // Lower-cased where it is written: no string made per key.
            let start = out.len();
            out.extend_from_slice(nss.as_bytes());
            crate::rules::lower_outside_escapes(&mut out[start..]);
        }
    }
    true
}

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
///
/// The message carries no citation of its own: the rules' (RFC 2648
/// section 2) ends it, and registry/ietf.toml's params hint says
/// `urn:ietf:params` alone with RFC 3553 section 3's.
pub(super) fn check_ietf(nss: &str) -> Result<(), Violation> {
    match PREFIXES.iter().find(|(p, _)| nss.eq_ignore_ascii_case(p)) {
        Some((prefix, next)) if *prefix == "params" => Err(violation(
            nss.len(),
            format_args!("'{prefix}' needs ':' and {next}: a params-nss is 'params:' and a registered name"),
        )),
        Some((prefix, next)) => Err(violation(
            nss.len(),
            format_args!(
                "'{prefix}' needs ':' and {next}: other-nss begins with a prefix other than rfc, fyi, std, bcp, id, mtg"
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
        .map(|(entry, _)| (first(entry), crate::suggest::letter_mask(first(entry))));
    let near = crate::suggest::nearest(class, classes)?;
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
            format_args!("of class '{class}', IANA's params registry has only '{entry}' ({reference})"),
        ));
    }
    let hint = nearest_class(class)
        .map(|near| format!(" (did you mean '{near}'?)"))
        .unwrap_or_default();
    Err(violation(
        7,
        format_args!(
            "'{}' is not in IANA's params registry{hint}",
            crate::urn::shortened(class)
        ),
    ))
}

/// The classes of the IETF XML Registry (RFC 3688 section 3.2), each as
/// its URNs write it: `publicid` is the class whose URNs are
/// `urn:ietf:params:xml:pi:<id>`; the others' URNs take the class's name.
/// IANA's xml-registry (<https://www.iana.org/assignments/xml-registry/>)
/// has these four sub-registries: publicid, ns, schema, rdfschema.
pub(super) const XML_CLASSES: &[&str] = &["ns", "schema", "rdfschema", "pi"];

/// Names a mistyped XML class is near, each with the class it means:
/// the four, and the registry's own name of the public identifiers' class.
const XML_CLASS_NAMES: &[(&str, &str)] = &[
    ("ns", "ns"),
    ("schema", "schema"),
    ("rdfschema", "rdfschema"),
    ("pi", "pi"),
    ("publicid", "pi"),
];

/// The longest class quoted whole in a suggestion (`'ns:CLASS'`): a
/// longer one gets none, and the message stays short.
const MAX_SUGGESTED: usize = 16;

/// The IETF XML Registry (RFC 3688 sections 3.1 and 3.2): a
/// `urn:ietf:params:xml` URN is `urn:ietf:params:xml:<class>:<id>`, its
/// class one of [`XML_CLASSES`] (any letter case: RFC 2648 section 2) and
/// its id not empty (the syntax refuses an empty item). Used as a
/// recommendation (`[[rules.should]]`), as the params class is: RFC 3553
/// section 3 takes any name ("the items on both sides of [a colon] are
/// valid names"), so `urn:ietf:params:xml` and `urn:ietf:params:xml:ns`
/// are names, but IANA assigns none of them, nor any under another class
/// (`urn:ietf:params:xml:xmpp-stanzas`, which RFC 6120 writes
/// `urn:ietf:params:xml:ns:xmpp-stanzas`). Other IETF URNs pass.
pub(super) fn check_ietf_xml_class(nss: &str) -> Result<(), Violation> {
    let Some(name) = params_name(nss) else {
        return Ok(());
    };
    if !under(name, "xml") {
        return Ok(());
    }
    let Some(rest) = name.get(4..) else {
        return Err(violation(nss.len(), "'xml' needs ':', a class, ':' and an id"));
    };
    let (class, id) = match rest.split_once(':') {
        Some((class, id)) => (class, Some(id)),
        None => (rest, None),
    };
    if let Some(known) = XML_CLASSES.iter().find(|c| c.eq_ignore_ascii_case(class)) {
        return match id {
            Some(_) => Ok(()),
            None => Err(violation(
                nss.len(),
                format_args!("'{known}' needs ':' and an id"),
            )),
        };
    }
    let names = XML_CLASS_NAMES
        .iter()
        .map(|(n, _)| (*n, crate::suggest::letter_mask(n)));
    // A near class (a typo) is meant; else the name is most likely an XML
    // namespace's id without its class, as RFC 6120's xmpp-stanzas.
    let fix = match crate::suggest::nearest(&class.to_ascii_lowercase(), names) {
        Some(near) => {
            let class = XML_CLASS_NAMES
                .iter()
                .find(|(n, _)| *n == near)
                .map_or(near, |(_, c)| c);
            format!(" (did you mean '{class}'?)")
        }
        None if class.chars().count() <= MAX_SUGGESTED => format!(" (did you mean 'ns:{class}'?)"),
        None => String::new(),
    };
    Err(violation(
        11,
        format_args!(
            "'{}' is no class of the IETF XML Registry{fix}",
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
    fn rfc3688_an_xml_urn_is_a_registry_class_and_an_id() {
        for nss in [
            "params:xml:ns:xmpp-stanzas",
            "params:xml:ns:yang:ietf-interfaces",
            "params:xml:schema:netconf",
            "params:xml:rdfschema:x",
            "params:xml:pi:-:IETF:DTD+HTML+i18N:EN",
            "PARAMS:XML:NS:XMPP-STANZAS",
            "params:xmlx:ns",
            "params:oauth:grant-type:jwt-bearer",
            "rfc:3688",
        ] {
            assert_eq!(check_ietf_xml_class(nss), Ok(()), "{nss}");
        }
        // A class alone, or the registry alone, has no id.
        for (nss, said) in [
            ("params:xml", "'xml' needs ':', a class, ':' and an id"),
            ("params:xml:ns", "'ns' needs ':' and an id"),
            ("params:XML:Schema", "'schema' needs ':' and an id"),
        ] {
            let e = check_ietf_xml_class(nss).unwrap_err();
            assert_eq!(e.offset, nss.len(), "{nss}");
            assert_eq!(e.message, said);
        }
        for (nss, fix) in [
            ("params:xml:xmpp-stanzas", " (did you mean 'ns:xmpp-stanzas'?)"),
            ("params:xml:xmpp-bind", " (did you mean 'ns:xmpp-bind'?)"),
            ("params:xml:schemas:netconf", " (did you mean 'schema'?)"),
            ("params:xml:publicid:x", " (did you mean 'pi'?)"),
            ("params:xml:a-very-long-class-name-here:x", "Registry"),
        ] {
            let e = check_ietf_xml_class(nss).unwrap_err();
            assert_eq!(e.offset, "params:xml:".len(), "{nss}");
            assert!(
                e.message.contains("is no class of the IETF XML Registry"),
                "{}",
                e.message
            );
            assert!(e.message.ends_with(fix), "{nss}: {}", e.message);
        }
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
