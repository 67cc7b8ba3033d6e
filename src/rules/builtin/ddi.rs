//! DDI (RFC 9517 section 3.1.2): the agency, ID and version parts and their lengths.

#[allow(unused_imports)]
use super::*;

/// The longest DDI agency identifier: a DNS name, at most 255 characters
/// (RFC 9517 section 3.1.2, after RFC 2181 section 11).
pub(super) const DDI_AGENCY_MAX: usize = 255;

/// DDI (RFC 9517 section 3.1.2): the agency identifier, the NSS up to its
/// first ':', is at most 255 characters long. The grammar checks its labels
/// (at most 63 characters each), which no regular expression can combine
/// with the length of the whole name.
pub(super) fn check_ddi(nss: &str) -> Result<(), Violation> {
    let agency = nss.split(':').next().unwrap_or_default();
    if agency.len() > DDI_AGENCY_MAX {
        return Err(violation(
            DDI_AGENCY_MAX,
            format_args!(
                "the DDI agency identifier is {} characters long; at most {DDI_AGENCY_MAX} are allowed",
                agency.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddi_agency_length_is_limited() {
        assert_eq!(check_ddi("us.ddia1:R-V1:1"), Ok(()));
        let long = format!("{}.{}:r:1", "a".repeat(63), vec!["b".repeat(63); 3].join("."));
        assert_eq!(long.find(':'), Some(255));
        assert_eq!(check_ddi(&long), Ok(()));
        let too_long = format!("x{long}");
        let e = check_ddi(&too_long).unwrap_err();
        assert_eq!(e.offset, 255);
        assert!(e.message.contains("256 characters"), "{}", e.message);
    }
}
