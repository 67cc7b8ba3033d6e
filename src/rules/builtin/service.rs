//! Service URNs (RFC 5031 sections 3 and 4): a service is a label IANA
//! has registered in its "Service URN Labels" registry, or a sub-service
//! registered under one.

#[allow(unused_imports)]
use super::*;

/// The names registered in the IANA registry "Service URN Labels"
/// (<https://www.iana.org/assignments/urn-serviceid-labels/>), each with
/// its reference, in the registry's order: the top-level labels
/// (Standards Action, RFC 5031 section 4.1), then the sub-services of
/// 'sos', 'counseling' and 'test' (Expert Review). Source: IANA's own
/// `urn-serviceid-labels` text (registry last updated 2017-05-15), as
/// mirrored by larseggert/iana-assignments. Update this table from the
/// registry, never by guess.
pub(super) const SERVICE_LABELS: &[(&str, &str)] = &[
    ("counseling", "RFC 5031"),
    ("sos", "RFC 5031"),
    ("test", "RFC 6881"),
    ("sos.ambulance", "RFC 5031"),
    ("sos.animal-control", "RFC 5031"),
    ("sos.ecall", "RFC 8147"),
    ("sos.ecall.automatic", "RFC 8147"),
    ("sos.ecall.manual", "RFC 8147"),
    ("sos.fire", "RFC 5031"),
    ("sos.gas", "RFC 5031"),
    ("sos.marine", "RFC 5031"),
    ("sos.mountain", "RFC 5031"),
    ("sos.physician", "RFC 5031"),
    ("sos.poison", "RFC 5031"),
    ("sos.police", "RFC 5031"),
    ("sos.police.municipal", "Ivo Sedlacek"),
    ("sos.police.national", "Ivo Sedlacek"),
    ("counseling.children", "RFC 5031"),
    ("counseling.mental-health", "RFC 5031"),
    ("counseling.suicide", "RFC 5031"),
    ("test.sos", "RFC 6881"),
    ("test.sos.ambulance", "RFC 6881"),
    ("test.sos.animal-control", "RFC 6881"),
    ("test.sos.ecall", "RFC 8147"),
    ("test.sos.fire", "RFC 6881"),
    ("test.sos.gas", "RFC 6881"),
    ("test.sos.marine", "RFC 6881"),
    ("test.sos.mountain", "RFC 6881"),
    ("test.sos.physician", "RFC 6881"),
    ("test.sos.poison", "RFC 6881"),
    ("test.sos.police", "RFC 6881"),
];

/// Whether `name` (labels joined by '.') is registered; letter case does
/// not matter (RFC 5031 section 3: case-insensitive string equality).
fn registered(name: &str) -> bool {
    SERVICE_LABELS
        .iter()
        .any(|(entry, _)| entry.eq_ignore_ascii_case(name))
}

/// Service URNs (RFC 5031 section 4): the top-level label of a service
/// URN is one IANA has registered ([`SERVICE_LABELS`]; Standards Action),
/// and so is each sub-service under it. Used as a recommendation
/// (`[[rules.should]]`): RFC 5031's grammar takes any label, but an
/// unregistered one names no service yet, like an unregistered NID.
pub(super) fn check_service_label(nss: &str) -> Result<(), Violation> {
    if registered(nss) {
        return Ok(());
    }
    let top = nss.split('.').next().unwrap_or(nss);
    if !registered(top) {
        return Err(violation(
            0,
            format_args!(
                "'{}' is not in IANA's Service URN Labels (counseling, sos, test)",
                crate::urn::shortened(top)
            ),
        ));
    }
    // The longest registered name the NSS starts with, whole labels: the
    // first label after it is the one IANA has not registered there.
    let mut known = top.len();
    while let Some(next) = nss[known + 1..].find('.').map(|i| known + 1 + i) {
        if !registered(&nss[..next]) {
            break;
        }
        known = next;
    }
    Err(violation(
        known + 1,
        format_args!(
            "'{}' is not under '{}' in IANA's Service URN Labels",
            crate::urn::shortened(nss),
            &nss[..known]
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc5031_registered_services_pass() {
        for nss in [
            "sos",
            "sos.police",
            "sos.ecall.manual",
            "sos.police.municipal",
            "counseling.suicide",
            "test",
            "test.sos.fire",
            "SOS.Fire",
        ] {
            assert_eq!(check_service_label(nss), Ok(()), "{nss}");
        }
    }

    #[test]
    fn an_unregistered_top_level_label_is_said_at_the_start() {
        for nss in ["agreement", "types", "assistant-api", "sos-fire", "emergency.sos"] {
            let e = check_service_label(nss).unwrap_err();
            assert_eq!(e.offset, 0, "{nss}");
            assert!(
                e.message
                    .contains("is not in IANA's Service URN Labels (counseling, sos, test)"),
                "{nss}: {}",
                e.message
            );
        }
    }

    #[test]
    fn an_unregistered_sub_service_is_said_where_it_starts() {
        for (nss, at, under) in [
            ("sos.foo", 4, "'sos'"),
            ("sos.police.county", 11, "'sos.police'"),
            ("test.sos.ecall.manual", 15, "'test.sos.ecall'"),
            ("counseling.x.y", 11, "'counseling'"),
        ] {
            let e = check_service_label(nss).unwrap_err();
            assert_eq!(e.offset, at, "{nss}");
            assert!(
                e.message
                    .ends_with(&format!("under {under} in IANA's Service URN Labels")),
                "{nss}: {}",
                e.message
            );
        }
    }

    #[test]
    fn the_table_has_each_name_once_in_lower_case_under_a_registered_top_level() {
        for (i, (a, _)) in SERVICE_LABELS.iter().enumerate() {
            assert_eq!(a.to_ascii_lowercase(), *a);
            assert!(SERVICE_LABELS[i + 1..].iter().all(|(b, _)| a != b), "{a} twice");
            let (parent, _) = a.rsplit_once('.').unwrap_or(("", ""));
            assert!(parent.is_empty() || registered(parent), "{a}: parent {parent}");
        }
        assert_eq!(SERVICE_LABELS.len(), 31);
    }
}
