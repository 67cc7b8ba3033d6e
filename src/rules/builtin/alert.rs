//! Alert URNs (RFC 7462 sections 7 and 10): an alert-identifier's
//! standard labels (those without '@provider') are values IANA has
//! registered in its "Alert URN Identifiers" registry; a private label
//! (`label@provider`) and whatever follows it are its provider's.

#[allow(unused_imports)]
use super::*;

/// A label of [`ALERT_IDENTIFIERS`] that stands for any ISO 3166-1
/// alpha-2 country code (the registry's `<ISO 3166-1 country code>`).
const COUNTRY: &str = "<country>";

/// The values registered in the IANA registry "Alert URN Identifiers"
/// (<https://www.iana.org/assignments/alert-urns/>, Specification
/// Required), each with its reference, in the registry's order. Source:
/// IANA's own `alert-urns.xml` (registry last updated 2023-05-12, the
/// page 2023-05-25), as mirrored by larseggert/iana-assignments. Update
/// this table from the registry, never by guess.
pub(super) const ALERT_IDENTIFIERS: &[(&str, &str)] = &[
    ("service", "RFC 7462"),
    ("service:normal", "RFC 7462"),
    ("service:call-waiting", "RFC 7462"),
    ("service:forward", "RFC 7462"),
    ("service:recall:callback", "RFC 7462"),
    ("service:recall:hold", "RFC 7462"),
    ("service:recall:transfer", "RFC 7462"),
    ("source", "RFC 7462"),
    ("source:unclassified", "RFC 7462"),
    ("source:internal", "RFC 7462"),
    ("source:external", "RFC 7462"),
    ("source:friend", "RFC 7462"),
    ("source:family", "RFC 7462"),
    ("priority", "RFC 7462"),
    ("priority:normal", "RFC 7462"),
    ("priority:low", "RFC 7462"),
    ("priority:high", "RFC 7462"),
    ("duration", "RFC 7462"),
    ("duration:normal", "RFC 7462"),
    ("duration:short", "RFC 7462"),
    ("duration:long", "RFC 7462"),
    ("delay", "RFC 7462"),
    ("delay:none", "RFC 7462"),
    ("delay:yes", "RFC 7462"),
    ("locale", "RFC 7462"),
    ("locale:default", "RFC 7462"),
    ("locale:country:<country>", "RFC 7462"),
    ("service:crs", "3GPP TS 24.183"),
];

/// Whether the registered label `entry` is written `label` (any letter
/// case: RFC 7462 section 7, case-insensitive equality).
fn label_is(entry: &str, label: &str) -> bool {
    if entry == COUNTRY {
        label.len() == 2 && label.bytes().all(|b| b.is_ascii_alphabetic())
    } else {
        entry.eq_ignore_ascii_case(label)
    }
}

/// Whether some registered value starts with the labels `labels`, whole
/// (RFC 7462 section 10.3.1: a value with labels taken off its end is a
/// more general one of the same tree, `service:recall`).
fn registered_prefix(labels: &[&str]) -> bool {
    ALERT_IDENTIFIERS.iter().any(|(entry, _)| {
        let mut parts = entry.split(':');
        labels
            .iter()
            .all(|label| parts.next().is_some_and(|part| label_is(part, label)))
    })
}

/// Alert URNs (RFC 7462 sections 7 and 10): each standard label of an
/// alert-identifier (no '@'), up to the first private one
/// (`label@provider`, after which the provider decides), is where a
/// value registered in IANA's "Alert URN Identifiers" registry
/// ([`ALERT_IDENTIFIERS`]) has it. Used as a recommendation
/// (`[[rules.should]]`): RFC 7462's grammar takes any label, but an
/// unregistered standard label means nothing a user agent knows.
pub(super) fn check_alert_identifier(nss: &str) -> Result<(), Violation> {
    let mut labels: Vec<&str> = Vec::new();
    let mut at = 0;
    for label in nss.split(':') {
        if label.contains('@') {
            return Ok(());
        }
        labels.push(label);
        if !registered_prefix(&labels) {
            let name = &nss[..at + label.len()];
            return Err(violation(
                at,
                if labels.len() == 1 {
                    format!(
                        "'{}' is no alert-category in IANA's Alert URN registry",
                        crate::urn::shortened(name)
                    )
                } else {
                    format!(
                        "'{}' is not in IANA's Alert URN Identifiers",
                        crate::urn::shortened(name)
                    )
                },
            ));
        }
        at += label.len() + 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7462_registered_values_and_private_labels_pass() {
        for nss in [
            "service:call-waiting",
            "service:recall:transfer",
            "service:recall",
            "SOURCE:Internal",
            "locale:country:za",
            "service:crs",
            "priority",
            "service:call-waiting:abc@example",
            "service:call-waiting:abc@example:xyz",
            "service:ghi@example",
            "jkl@example:a1",
            "distinctive@foo:short-short@bar",
            "service:recall:x@p",
        ] {
            assert_eq!(check_alert_identifier(nss), Ok(()), "{nss}");
        }
    }

    #[test]
    fn an_unregistered_standard_label_is_said_where_it_starts() {
        for (nss, at, said) in [
            ("tone:internal", 0, "'tone' is no alert-category"),
            ("service:ringing", 8, "'service:ringing' is not in"),
            ("service:call-waiting:x", 21, "'service:call-waiting:x' is not in"),
            ("locale:country:zaf", 15, "'locale:country:zaf' is not in"),
        ] {
            let e = check_alert_identifier(nss)
                .err()
                .unwrap_or_else(|| panic!("{nss}"));
            assert_eq!(e.offset, at, "{nss}");
            assert!(e.message.starts_with(said), "{nss}: {}", e.message);
        }
    }
}
