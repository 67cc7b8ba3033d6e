//! Property tests: the parser never panics, offsets stay in bounds, and
//! normalizing twice changes nothing.

use proptest::prelude::*;
use urnreg::{Syntax, Urn};

/// Strings built from URN-ish pieces, so that many of them parse.
fn urnish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("urn:".to_string()),
        Just("URN:".to_string()),
        Just(":".to_string()),
        Just("?+".to_string()),
        Just("?=".to_string()),
        Just("?".to_string()),
        Just("#".to_string()),
        Just("/".to_string()),
        Just("-".to_string()),
        Just("%".to_string()),
        Just("%2c".to_string()),
        Just("%C3%A9".to_string()),
        Just("urn-7".to_string()),
        "[a-zA-Z0-9]{1,4}",
        "[!$&'()*+,;=@._~]",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

fn check_one(s: &str) {
    for syntax in [Syntax::Rfc8141, Syntax::Rfc2141] {
        match Urn::parse_with(s, syntax) {
            Ok(urn) => {
                // The parts tile the input.
                let mut rebuilt = format!("{}:{}:{}", urn.scheme(), urn.nid(), urn.nss());
                if let Some(r) = urn.r_component() {
                    rebuilt += &format!("?+{r}");
                }
                if let Some(q) = urn.q_component() {
                    rebuilt += &format!("?={q}");
                }
                if let Some(f) = urn.f_component() {
                    rebuilt += &format!("#{f}");
                }
                assert_eq!(rebuilt, s);
                // The key is a URN, equivalent to the input, and its own key.
                let key = urn.equivalence_key();
                let again = Urn::parse_with(&key, syntax).expect("the key parses");
                assert_eq!(again.equivalence_key(), key, "normalizing twice changes nothing");
                assert!(again.is_equivalent(&urn));
                for w in urn.warnings() {
                    assert!(w.offset < s.len());
                }
                let _ = urn.display_form();
            }
            Err(err) => {
                assert!(err.offset() <= s.len());
                assert!(!err.to_string().is_empty());
            }
        }
    }
    // Raw bytes, possibly not UTF-8.
    let _ = Urn::parse_bytes(s.as_bytes(), Syntax::Rfc8141);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn urnish_strings_never_panic(s in urnish()) {
        check_one(&s);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in ".*") {
        check_one(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut with_prefix = b"urn:ex:".to_vec();
        with_prefix.extend_from_slice(&bytes);
        for input in [&bytes[..], &with_prefix[..]] {
            if let Err(err) = Urn::parse_bytes(input, Syntax::Rfc8141) {
                prop_assert!(err.offset() <= input.len());
            }
        }
    }
}
