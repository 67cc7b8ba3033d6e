//! urn:nbn:de, at and ch: the check digit the German National Library publishes for the NBNs of its URN
//! service, which covers the three countries (RFC 8458 section 4; DNB).

#[allow(unused_imports)]
use super::*;

/// The German National Library's character values for the `urn:nbn:de`
/// check digit ("Beschreibung des Algorithmus zur Berechnung der
/// URN-Prüfziffer", persistent-identifier.de).
pub(super) fn nbn_de_value(c: u8) -> Option<u32> {
    Some(match c.to_ascii_lowercase() {
        b'0'..=b'8' => u32::from(c - b'0') + 1,
        b'9' => 41,
        b'a' => 18,
        b'b' => 14,
        b'c' => 19,
        b'd' => 15,
        b'e' => 16,
        b'f' => 21,
        b'g' => 22,
        b'h' => 23,
        b'i' => 24,
        b'j' => 25,
        b'k' => 42,
        b'l' => 26,
        b'm' => 27,
        b'n' => 13,
        b'o' => 28,
        b'p' => 29,
        b'q' => 31,
        b'r' => 12,
        b's' => 32,
        b't' => 33,
        b'u' => 11,
        b'v' => 34,
        b'w' => 35,
        b'x' => 36,
        b'y' => 37,
        b'z' => 38,
        b'+' => 49,
        b':' => 17,
        b'_' => 43,
        b'-' => 39,
        b'.' => 47,
        b'/' => 45,
        _ => return None,
    })
}

/// The check digit of `urn:nbn:de:...` (without it): the character values
/// are written one after another as a string of digits; each digit is
/// multiplied by its position (from 1) and the products summed; the sum is
/// divided by the last digit; the last digit of the integer quotient is
/// the check digit.
pub fn nbn_de_check_digit(urn_without_check: &str) -> Option<u32> {
    let mut digits = Vec::with_capacity(urn_without_check.len() * 2);
    for b in urn_without_check.bytes() {
        let v = nbn_de_value(b)?;
        if v >= 10 {
            digits.push(v / 10);
        }
        digits.push(v % 10);
    }
    // u64: a line of 1 MiB gives about two million digits, whose weighted
    // sum passes u32 but stays far below u64.
    let sum: u64 = digits
        .iter()
        .enumerate()
        .map(|(i, d)| u64::from(*d) * (i as u64 + 1))
        .sum();
    let last = u64::from(*digits.last()?);
    (last != 0).then(|| ((sum / last) % 10) as u32)
}

/// The DNB's check digit: the NSS of an NBN under `de`, `at` or `ch`
/// (`de:...`, the countries of the DNB's URN service, whose Austrian and
/// Swiss NBNs carry the digit as the German ones do) ends in the digit
/// computed over the whole URN before it. Other countries' NBNs are not
/// checked.
pub(super) fn check_nbn_de(nss: &str) -> Result<(), Violation> {
    // The country as the messages name it, lower case, with no copy.
    let head = nss.as_bytes();
    let Some(country) = ["de", "at", "ch"]
        .into_iter()
        .find(|cc| head.len() > 3 && head[2] == b':' && head[..2].eq_ignore_ascii_case(cc.as_bytes()))
    else {
        return Ok(());
    };
    if is_dnb_timestamp_form(nss) {
        return Ok(());
    }
    // A page of a digitised work as ULB Sachsen-Anhalt (Halle) writes it,
    // `<URN>/fragment/page=N`: "composed of a valid URN (with check
    // digit) and following fragment extension" (its digiflow library's
    // URN tests), so the digit is the one before `/fragment/`.
    if let Some(at) = nss.find("/fragment/") {
        return check_nbn_de(&nss[..at]);
    }
    let Some(last) = nss.bytes().last().filter(u8::is_ascii_digit) else {
        return Err(violation(
            nss.len().saturating_sub(1),
            format_args!("expected the urn:nbn:{country} check digit at the end"),
        ));
    };
    let body = format!("urn:nbn:{}", &nss[..nss.len() - 1]);
    match nbn_de_check_digit(&body) {
        Some(want) if want == u32::from(last - b'0') => Ok(()),
        Some(want) => Err(violation(
            nss.len() - 1,
            format_args!("wrong urn:nbn:{country} check digit: expected {want}"),
        )),
        None => {
            let at = nss.bytes().position(|b| nbn_de_value(b).is_none()).unwrap_or(0);
            let c = nss.get(at..).and_then(|s| s.chars().next()).unwrap_or('?');
            Err(violation(
                at,
                format_args!("'{c}' is not in the urn:nbn:{country} check digit's table"),
            ))
        }
    }
}

/// The DNB's own URNs of the form it has minted since 2019:
/// `de:101:1-` (101: the DNB's sub-namespace) and a timestamp of 13 or
/// more digits (`urn:nbn:de:101:1-2022072702462487314192`). None of the
/// seven found (2019 to 2023: DNB catalogue records and a MARC 024 field,
/// as its clients cite them) ends in the digit of the DNB's published
/// algorithm, over any part of the URN, while its older URNs of this
/// sub-namespace (`1-` and twelve digits, the last the check digit:
/// `urn:nbn:de:101:1-201102033592`) all do; the DNB publishes no rule for
/// the new form. So the form is read as the owner writes it, without the
/// digit, rather than told a digit is wrong.
fn is_dnb_timestamp_form(nss: &str) -> bool {
    let Some(head) = nss.get(..9) else {
        return false;
    };
    let stamp = &nss[9..];
    head.eq_ignore_ascii_case("de:101:1-") && stamp.len() >= 13 && stamp.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The urn:nbn:de check digit of a very long NSS does not overflow.
    #[test]
    fn nbn_de_check_digit_of_a_long_nss() {
        let long = format!("urn:nbn:de:a-{}", "9".repeat(40_000));
        assert!(nbn_de_check_digit(&long).is_some());
    }

    #[test]
    fn nbn_de_published_example() {
        // The worked example of the German National Library: PS = 4027,
        // Q = 805, check digit 5.
        assert_eq!(nbn_de_check_digit("urn:nbn:de:gbv:089-332175294"), Some(5));
        assert_eq!(check("nbn-de", "de:gbv:089-3321752945"), Ok(()));
        assert_eq!(check("nbn-de", "DE:GBV:089-3321752945"), Ok(()));
        assert_eq!(check("nbn-de", "de:gbv:089-3321752946").unwrap_err().offset, 20);
        assert_eq!(
            check("nbn-de", "fi-fe19981001"),
            Ok(()),
            "other countries are not checked"
        );
    }

    /// Austrian and Swiss NBNs, which the DNB's URN service also resolves,
    /// carry the same check digit: published ones from the OBVSG (Austrian
    /// library network) repositories and RERO DOC, Serval, UNIGE and e-rara
    /// (Switzerland) pass; a wrong digit is named with its country.
    #[test]
    fn nbn_at_and_ch_check_digits() {
        for nss in [
            "at:at-ubl:3-2681",
            "at:at-ubk:3-798",
            "at:at-ubtuw:4-3370",
            "AT:at-ubi:2-3870",
            "at:at-obvsg-20201013145504030-1597525-7",
            "ch:rero-006-122207",
            "ch:unige-6880",
            "CH:serval-BIB_D3B827073C8A5",
            "ch:bel-bau-diss47638",
        ] {
            assert_eq!(check("nbn-de", nss), Ok(()), "{nss}");
        }
        // The DNB's own timestamp form carries no check digit (its
        // seven URNs found, 2019 to 2023); its older twelve-digit form
        // does, and a wrong digit there is still said.
        for nss in [
            "de:101:1-2022072702462487314192",
            "de:101:1-2019072802401757702913",
            "de:101:1-2022102122032",
        ] {
            assert_eq!(check("nbn-de", nss), Ok(()), "{nss}");
        }
        assert_eq!(check("nbn-de", "de:101:1-201102033592"), Ok(()));
        // ULB Halle's page URNs: the digit of the URN before
        // `/fragment/` (digiflow's vectors), said there when wrong.
        for nss in [
            "de:gbv:3:1-694468/fragment/page=9293732",
            "de:gbv:3:1-847518-19010418018/fragment/page=0001",
            "de:gbv:3:1-1192015415-147638674-17/fragment/page=1",
        ] {
            assert_eq!(check("nbn-de", nss), Ok(()), "{nss}");
        }
        let wrong = check("nbn-de", "de:gbv:3:1-1192015415-147638674-18/fragment/page=1").unwrap_err();
        assert_eq!(
            (wrong.offset, wrong.message.as_str()),
            (33, "wrong urn:nbn:de check digit: expected 7")
        );
        assert_eq!(check("nbn-de", "de:101:1-201102033593").unwrap_err().offset, 20);
        let v = check("nbn-de", "ch:gbv:089-3321752945").unwrap_err();
        assert_eq!(v.offset, 20);
        assert_eq!(v.message, "wrong urn:nbn:ch check digit: expected 1");
    }
}
