//! Trivore identifiers (the trivore registration).

#[allow(unused_imports)]
use super::*;

/// trivore registration: "The maximum length for the URN is 512
/// characters"; `urn:trivore:` takes 12 of them.
pub(super) const TRIVORE_MAX_NSS: usize = 512 - "urn:trivore:".len();

pub(super) fn check_trivore(nss: &str) -> Result<(), Violation> {
    if nss.len() > TRIVORE_MAX_NSS {
        return Err(violation(
            TRIVORE_MAX_NSS,
            format_args!(
                "the URN is longer than 512 characters (trivore: an NSS of at most {TRIVORE_MAX_NSS})"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trivore_length_limit() {
        let at_limit = format!("id:{}", "a".repeat(TRIVORE_MAX_NSS - 3));
        assert_eq!(("urn:trivore:".len() + at_limit.len()), 512);
        assert_eq!(check_trivore(&at_limit), Ok(()));
        let over = format!("{at_limit}b");
        assert_eq!(check_trivore(&over).unwrap_err().offset, TRIVORE_MAX_NSS);
    }
}
