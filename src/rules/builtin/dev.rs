//! DEV URNs (RFC 9039 sections 3 and 7): the subtype of a DEV URN is one
//! IANA has registered in its "DEV URN Subtypes" registry.

#[allow(unused_imports)]
use super::*;

/// The subtypes registered in the IANA registry "DEV URN Subtypes"
/// (<https://www.iana.org/assignments/device-identification/>,
/// Specification Required or IESG Approval), each with its reference.
/// Source: IANA's own `device-identification` text (registry updated
/// 2021-08-27: mac, ow, org, os, ops and example, RFC 9039 sections 4.1
/// to 4.6), as mirrored by larseggert/iana-assignments, and RFC 9711
/// (April 2025), whose IANA Considerations register ueid and sueid.
/// Update this table from the registry, never by guess.
pub(super) const DEV_SUBTYPES: &[(&str, &str)] = &[
    ("mac", "RFC 9039 section 4.1"),
    ("ow", "RFC 9039 section 4.2"),
    ("org", "RFC 9039 section 4.3"),
    ("os", "RFC 9039 section 4.4"),
    ("ops", "RFC 9039 section 4.5"),
    ("example", "RFC 9039 section 4.6"),
    ("ueid", "RFC 9711"),
    ("sueid", "RFC 9711"),
];

/// DEV URNs (RFC 9039 sections 3 and 7): the subtype, the NSS up to its
/// first ':', is one IANA has registered ([`DEV_SUBTYPES`]; any letter
/// case, as the subtypes' own rules take it). Used as a recommendation
/// (`[[rules.should]]`): RFC 9039's otherbody takes any subtype "for
/// future expansion", but an unregistered one names no identifier
/// system yet, like an unregistered NID.
pub(super) fn check_dev_subtype(nss: &str) -> Result<(), Violation> {
    let subtype = nss.split(':').next().unwrap_or(nss);
    if DEV_SUBTYPES.iter().any(|(s, _)| s.eq_ignore_ascii_case(subtype)) {
        return Ok(());
    }
    Err(violation(
        0,
        format_args!(
            "'{}' is not in IANA's DEV URN Subtypes (mac, ow, org, os, ops, ...)",
            crate::urn::shortened(subtype)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc9039_registered_subtypes_pass_and_others_are_said() {
        for nss in [
            "mac:0024befffe804ff1",
            "ow:264437f5000000ed_humidity",
            "ops:32473-Refrigerator-5002",
            "example:new1",
            "ueid:AQICAwQFBgcICQoLDA0ODxAR",
            "MAC:x",
        ] {
            assert_eq!(check_dev_subtype(nss), Ok(()), "{nss}");
        }
        for nss in [
            "wot:com:example:lamp",
            "kb:agentic-tooling-inventory",
            "prm:0_load",
            "macx:y",
        ] {
            let e = check_dev_subtype(nss).err().unwrap_or_else(|| panic!("{nss}"));
            assert_eq!(e.offset, 0);
            assert!(
                e.message.contains("is not in IANA's DEV URN Subtypes"),
                "{}",
                e.message
            );
        }
    }
}
