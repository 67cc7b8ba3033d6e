//! A namespace's rules in prose, for people: what the registry site and
//! `template render` show instead of the `[rules]` TOML.
//!
//! Every statement is derived from the rules themselves (the grammar, the
//! built-in checker and normalizers by name, the equivalence steps, the
//! components, the examples), never written by hand per namespace, so the
//! prose cannot drift from what `check` applies. Equivalent examples are
//! shown with the key the rules actually compute for them.

use serde::Serialize;

use super::{EquivalenceStep, RulesFile, SyntaxRule};
use crate::urn::Urn;

/// One statement about a namespace's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Statement {
    /// What it is about: `NSS syntax (ABNF)`, `Check digit`,
    /// `Equivalence`, ...
    pub topic: &'static str,
    /// The statement, in sentences.
    pub text: String,
    /// Text to show verbatim after it (a grammar, a regular expression).
    pub code: Option<String>,
    /// URNs (or `A = B` pairs) to show as a list after it.
    pub items: Vec<String>,
    /// Links to show after it: `(text, URL)` (a resolution example and
    /// where it leads).
    pub links: Vec<(String, String)>,
}

impl Statement {
    fn new(topic: &'static str, text: impl Into<String>) -> Statement {
        Statement {
            topic,
            text: text.into(),
            code: None,
            items: Vec::new(),
            links: Vec::new(),
        }
    }
}

/// What each built-in checker of [`super::builtin::CHECKERS`] verifies,
/// with the standard it comes from.
const CHECKER_PROSE: &[(&str, &str)] = &[
    (
        "isbn",
        "ISBN check digit (ISO 2108): the NSS is an ISBN-13 (prefix 978 or 979, a mod-10 check digit \
         with weights 1 and 3) or an ISBN-10 (a mod-11 check character, X standing for 10), with \
         single hyphens allowed between digits.",
    ),
    (
        "issn",
        "ISSN check character (ISO 3297): the NSS is NNNN-NNNC, the hyphen optional, with a mod-11 \
         check character (weights 8 to 2, X standing for 10).",
    ),
    (
        "isni",
        "ISNI check character (ISO 27729): the NSS is 15 digits and a check character computed with \
         ISO 7064 MOD 11-2 (X standing for 10).",
    ),
    (
        "ddi",
        "DDI agency length (RFC 9517 section 3.1.2): the agency identifier, the NSS up to its first \
         ':', is a DNS name of at most 255 characters.",
    ),
    (
        "eic",
        "EIC check character (EIC Reference Manual section 5): 16 characters of 0-9, A-Z and '-', the \
         last a check character over the first 15 (weights 16 to 2, modulo 37); a code whose check \
         character would be '-' is not valid.",
    ),
    (
        "eidr",
        "EIDR check character (SMPTE RP 2079): under the prefix 10.5240 the suffix is five groups of \
         four hexadecimal digits and an ISO 7064 MOD 37,36 check character over those 20 digits.",
    ),
    (
        "epc",
        "EPC integer fields (EPC Tag Data Standard, Integer encoding and coding tables): in the tag \
         URIs of the binary schemes (sgtin-96, sgln-96, grai-96, giai-96, gdti-96, cpi-96, cpi-var, \
         itip-110, gid-96, usdod-96) and the gid, usdod and cpi pure identities, the fields encoded as \
         integers have no leading zeros and fit their bits (an SGTIN-96 serial is at most \
         274877906943, 38 bits); in the pure identity pattern (idpat), tag pattern (pat) and LGTIN \
         class URIs of the GS1 keys with a company prefix, a prefix of digits has 6 to 12 of them, \
         and with the reference after it, when that is digits too, makes the key's length (13 for \
         sgtin, lgtin and itip, 12 for sgln, grai, gdti and sgcn, 17 for sscc, gsrn and gsrnp).",
    ),
    (
        "fdc",
        "FDC DateId (RFC 4198 section 2): a CCYYMMDD DateId \"MUST correspond to a specific day\": the \
         day exists in its month and year (Gregorian calendar, 29 February only in leap years).",
    ),
    (
        "newsml",
        "NewsML DateId (RFC 3085 section 2): the CCYYMMDD DateId is a date, so its day exists in its \
         month and year (Gregorian calendar, 29 February only in leap years).",
    ),
    (
        "pwid",
        "PWID archival date (PWID registration 2022, Syntax): the day is 01-28, 01-29, 01-30 or 01-31 \
         \"based on month/year\" (Gregorian calendar, 29 February only in leap years).",
    ),
    (
        "gs1",
        "GS1 Application Identifier branch (gs1 registration, GS1 General Specifications, GS1 Digital \
         Link): a primary key first, its key qualifiers in their prescribed order, then data attributes \
         in the order of their AI codes, no AI twice, and each value in its AI's format (length, \
         character set, check digit, YYMMDD dates).",
    ),
    (
        "gsma",
        "IMEI Spare digit (RFC 7254 section 4.2.3): the last digit of an IMEI in the imei NSS (no vers \
         parameter, or vers=0) is always 0.",
    ),
    (
        "ietf",
        "IETF series prefixes (RFC 2648 section 2, RFC 3553 section 3): other-nss begins with a prefix \
         other than rfc, fyi, std, bcp, id and mtg (RFC 2648 section 2), and params-nss is 'params:' and \
         a name (RFC 3553 section 3), so none of them stands alone as the NSS: each takes ':' and its \
         number or name.",
    ),
    (
        "ietf-params-class",
        "IETF params classes (RFC 3553 sections 3 and 4): the class after urn:ietf:params: is a name \
         IANA has registered in the 'IETF URN Sub-namespace for Registered Protocol Parameter \
         Identifiers' registry (https://www.iana.org/assignments/params/params.xhtml; 23 names as of \
         its update of 2026-02-02: xml, oauth, acme, scim, netconf, jmap, rtp-hdrext, ...); other IETF \
         URNs are not checked.",
    ),
    (
        "ietf-xml-class",
        "IETF XML Registry classes (RFC 3688 sections 3.1 and 3.2): a URN under urn:ietf:params:xml is \
         urn:ietf:params:xml:<class>:<id>, its class one of ns, schema, rdfschema and pi (the publicid \
         class) and its id not empty; other IETF URNs are not checked.",
    ),
    (
        "alert-identifier",
        "Alert URN identifiers (RFC 7462 sections 7 and 10): each standard label (one without \
         '@provider'), up to the first private label, is where a value IANA has registered in the \
         'Alert URN Identifiers' registry has it (https://www.iana.org/assignments/alert-urns/: the \
         categories service, source, priority, duration, delay and locale and their values, \
         service:crs added in 2023); a private label and what follows it are its provider's.",
    ),
    (
        "dev-subtype",
        "DEV URN subtypes (RFC 9039 sections 3 and 7): the subtype, the NSS up to its first ':', is \
         one IANA has registered in the 'DEV URN Subtypes' registry \
         (https://www.iana.org/assignments/device-identification/: mac, ow, org, os, ops and example \
         of RFC 9039, ueid and sueid of RFC 9711).",
    ),
    (
        "service-label",
        "Service URN labels (RFC 5031 section 4): the top-level service is a label IANA has \
         registered in the 'Service URN Labels' registry \
         (https://www.iana.org/assignments/urn-serviceid-labels/: counseling, sos, test), and each \
         sub-service one registered under it (sos.police, counseling.suicide, test.sos.fire, ...).",
    ),
    (
        "isan",
        "ISAN check characters (ISO 15706, RFC 4246 section 3): the check character after the \
         episode, and the one after the version when there is a version, are ISO 7064 MOD 37,36 over \
         the hexadecimal digits before them.",
    ),
    (
        "thread",
        "sn-content of the registered sub-namespaces (the Thread Group's URN registry 1.4.0, which the \
         thread registration's Syntax tells a parser to apply): pc is digits only, dataset:act:hex and \
         dataset:pen:hex an even number of hex digits, spec:<version> or spec:<version>:<string>:<string>.",
    ),
    (
        "trivore",
        "URN length (trivore registration): the whole URN is at most 512 characters long.",
    ),
    (
        "urn-6",
        "name length (urn-6 registration): the name after <language>:<sub-namespace>: is at most 255 \
         bytes long.",
    ),
    (
        "lei",
        "LEI check digits (ISO 17442): the NSS is 18 upper-case letters or digits and two check \
         digits computed with ISO 7064 MOD 97-10.",
    ),
    (
        "nbn-de",
        "urn:nbn:de, at and ch check digit (German National Library, whose URN service covers the \
         three countries): an NBN under urn:nbn:de, urn:nbn:at or urn:nbn:ch ends in a check digit \
         computed over the whole URN before it (a page URN '<URN>/fragment/page=N', over the URN \
         before '/fragment/'); the DNB's own timestamp NBNs (urn:nbn:de:101:1- and 13 or more \
         digits), which carry none, and NBNs of other countries are not checked.",
    ),
    (
        "nbn-at-prefix",
        "urn:nbn:at sub-namespace codes (OBVSG URN-Policy 2017 and RFC 8458 section 4.3): an NBN \
         under urn:nbn:at:at- followed by letters (at-ubl, AT-WBR) uses a code the OBVSG publishes \
         with a hyphen, which RFC 8458 allows in no sub-namespace; the message gives both readings \
         (the key stays RFC 8458's).",
    ),
];

/// What each built-in normalizer of [`super::builtin::NORMALIZERS`] holds
/// equivalent.
const NORMALIZER_PROSE: &[(&str, &str)] = &[
    (
        "isbn",
        "hyphens are ignored and an ISBN-10 is compared as the ISBN-13 it becomes (978, its first \
         nine digits and a new check digit)",
    ),
    (
        "issn",
        "the hyphen is optional and a final x is the same as X (both compare as NNNN-NNNC)",
    ),
    ("upper-check-x", "a final check character x is the same as X"),
    (
        "doi-handbook-colon",
        "the first ':' is the slash between prefix and suffix (the DOI Handbook's URN presentation, \
         section 2.6.3: urn:doi:10.123:456 is the DOI name 10.123/456)",
    ),
    (
        "lei",
        "letter case is ignored (the LEI registration: 'not case sensitive'), and the key is the LEI in \
         upper case, as ISO 17442 writes it",
    ),
    (
        "thread",
        "the hex of dataset:act:hex and dataset:pen:hex URNs is case-insensitive (the Thread Group's URN \
         registry)",
    ),
    (
        "gdst",
        "in URNs of the linkable data types the whole NSS is case-insensitive; other gdst URNs compare \
         exactly",
    ),
    (
        "gs1",
        "the literals gdd, bie, bdt, cl and std are case-insensitive; assigned values are not",
    ),
    (
        "gsma-imei",
        "IMEI URNs compare case-insensitively and a vers=0 parameter is ignored (RFC 7254 section 3)",
    ),
    (
        "newsml",
        "the trailing Update flag (A or U) after the RevisionId is not compared (RFC 3085 section 2)",
    ),
    (
        "pct-decode-pchar",
        "a percent-encoded character that may stand unencoded is the same as the character itself",
    ),
    (
        "pwid",
        "the archive domain, archival time and precision, and the scheme and host of the archived URI \
         are case-insensitive; the rest of the URI keeps its case",
    ),
    (
        "smpte-ul",
        "URNs under urn:smpte:ul compare case-insensitively; others exactly (RFC 5119 section 2)",
    ),
    (
        "ietf",
        "the NSS is case-insensitive (RFC 2648 section 2), except what follows params:, compared exactly \
         (RFC 3553 section 3)",
    ),
    (
        "urn-6",
        "the first character of the name is case-insensitive (urn-6 registration)",
    ),
];

fn prose<'a>(table: &'a [(&str, &'a str)], name: &str) -> Option<&'a str> {
    table.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

/// `'-'`, `'-' and '.'`, `'-', '.' and ' '`.
fn quoted_list(chars: &str) -> String {
    let quoted: Vec<String> = chars.chars().map(crate::urn::quoted_char).collect();
    match quoted.as_slice() {
        [] => "no characters".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn number_word(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "first two".into(),
        3 => "first three".into(),
        4 => "first four".into(),
        n => format!("first {n}"),
    }
}

/// One equivalence step in words.
fn step_prose(step: &EquivalenceStep) -> String {
    match step {
        EquivalenceStep::CaseInsensitiveNss => "letters are case-insensitive in the whole NSS".into(),
        EquivalenceStep::CaseInsensitiveParts { parts: 1 } => {
            "letters are case-insensitive in the NSS up to its first ':'".into()
        }
        EquivalenceStep::CaseInsensitiveParts { parts } => format!(
            "letters are case-insensitive in the {} ':'-separated parts of the NSS",
            number_word(*parts)
        ),
        EquivalenceStep::CaseInsensitiveUntil { delimiter } => format!(
            "letters are case-insensitive in the NSS up to the first '{delimiter}' (in all of it if there is none)"
        ),
        EquivalenceStep::Remove { chars } => format!("the characters {} are ignored", quoted_list(chars)),
        EquivalenceStep::Builtin { name } => match prose(NORMALIZER_PROSE, name) {
            Some(p) => p.to_string(),
            None => format!("the built-in normalizer '{name}' applies"),
        },
    }
}

/// The rule a grammar starts with: `start`, or its first rule.
fn start_rule(syntax: &SyntaxRule, abnf: &str) -> Option<String> {
    syntax.start.clone().or_else(|| {
        abnf.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with(';'))
            .and_then(|l| l.split('=').next())
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
    })
}

/// The rules of namespace `nid` in prose, in this order: NSS syntax, check
/// digit, equivalence, components, examples, source.
pub fn describe(rules: &RulesFile, nid: &str) -> Vec<Statement> {
    let mut out = Vec::new();
    match &rules.syntax {
        None => out.push(Statement::new(
            "NSS syntax",
            "the generic syntax of RFC 8141 section 2; the namespace's rules add nothing to it.",
        )),
        Some(syntax) => {
            if let Some(abnf) = &syntax.abnf {
                let rule = start_rule(syntax, abnf).unwrap_or_else(|| "its first rule".into());
                let mut s = Statement::new(
                    "NSS syntax (ABNF)",
                    format!(
                        "the whole NSS must match the rule {rule} of this grammar (RFC 5234; quoted \
                         strings match letters in either case unless written %s\"...\"; the core \
                         rules, RFC 3986's pchar and RFC 8141's alphanum and ldh are predefined):"
                    ),
                );
                s.code = Some(abnf.trim_end().to_string());
                out.push(s);
            }
            if let Some(regex) = &syntax.regex {
                let mut s = Statement::new(
                    "NSS syntax (regular expression)",
                    "the whole NSS must match this regular expression:",
                );
                s.code = Some(regex.clone());
                out.push(s);
            }
            if let Some(name) = &syntax.builtin {
                out.push(Statement::new(
                    "Check digit",
                    prose(CHECKER_PROSE, name)
                        .map_or_else(|| format!("the built-in checker '{name}'."), str::to_string),
                ));
            }
        }
    }
    let generic = "beyond RFC 8141 section 3.1 (the scheme and the NID are case-insensitive, \
                   and so are the hex digits of %-escapes)";
    let equivalence = if rules.equivalence.is_empty() {
        "RFC 8141 section 3.1 only: the NSS compares character for character, but for the hex digits \
         of %-escapes."
            .to_string()
    } else {
        let steps: Vec<String> = rules.equivalence.iter().map(step_prose).collect();
        format!("{generic}, {}.", steps.join("; then "))
    };
    let mut eq = Statement::new("Equivalence", equivalence);
    let compiled = rules.compile(nid).ok();
    for [a, b] in &rules.examples.equivalent {
        let key = compiled.as_ref().and_then(|c| {
            let (ua, ub) = (Urn::parse(a).ok()?, Urn::parse(b).ok()?);
            let (ka, kb) = (ua.equivalence_key_with(c), ub.equivalence_key_with(c));
            (ka == kb).then(|| ka.into_owned())
        });
        eq.items.push(match key {
            Some(key) => format!("{a} = {b} (both compare as {key})"),
            None => format!("{a} = {b}"),
        });
    }
    out.push(eq);
    if let Some(c) = rules.components {
        let name = |meaningful: bool| {
            if meaningful {
                "has a meaning"
            } else {
                "has no meaning"
            }
        };
        out.push(Statement::new(
            "Components",
            format!(
                "the r-component {}, the q-component {}, the f-component {} in this namespace; \
                 check warns about a component that has none.",
                name(c.r),
                name(c.q),
                name(c.f)
            ),
        ));
    }
    if !rules.examples.valid.is_empty() {
        let mut s = Statement::new("Valid examples", "these URNs pass the rules:");
        s.items = rules.examples.valid.clone();
        out.push(s);
    }
    if !rules.examples.invalid.is_empty() {
        let mut s = Statement::new("Invalid examples", "these URNs are refused:");
        s.items = rules.examples.invalid.clone();
        out.push(s);
    }
    out.push(Statement::new("Source", rules.source.clone()));
    for p in &rules.practice {
        let form = p.note.as_deref().unwrap_or("a form the owner publishes");
        let mut s = Statement::new(
            PRACTICE_TOPIC,
            format!(
                "{form}. Not allowed by the registration, but written by the namespace's owner in {}; \
                 check accepts it with a registration-deviation warning (an error with --strict).",
                p.source.trim_end_matches('.')
            ),
        );
        s.code = form_code(p.abnf.as_deref(), p.regex.as_deref());
        s.items = p.examples.clone();
        out.push(s);
    }
    for should in &rules.should {
        // A built-in check is an assigner's rule the registration does
        // not require (its source says whose); a form is the registration's.
        let check = should.builtin.as_deref().map(|name| {
            prose(CHECKER_PROSE, name)
                .map_or_else(|| format!("the built-in checker '{name}'"), str::to_string)
        });
        let text = match check {
            Some(check) => format!(
                "{}. {}. Whose rule it is, and where: {}; check warns (nss-should) about a URN that does not pass it.",
                should.note.trim_end_matches('.'),
                check.trim_end_matches('.'),
                should.source.trim_end_matches('.')
            ),
            None => format!(
                "{}. The registration recommends it ({}); check warns (nss-should) about a URN that \
                 does not follow it.",
                should.note.trim_end_matches('.'),
                should.source.trim_end_matches('.')
            ),
        };
        let mut s = Statement::new("Recommended", text);
        s.code = form_code(should.abnf.as_deref(), should.regex.as_deref());
        s.items = should.examples.clone();
        out.push(s);
    }
    if let Some(r) = &rules.resolution {
        let mut s = Statement::new(
            RESOLUTION_TOPIC,
            format!(
                "services {} (default {}), per {}; each URL is made from the URN's equivalence key, \
                 values percent-encoded (urnreg resolve, GET /uri-res/SERVICE?URN):",
                r.services.join(", "),
                r.default,
                r.source.trim_end_matches('.')
            ),
        );
        s.items = r
            .rules
            .iter()
            .flat_map(|rule| {
                let when = rule
                    .pattern
                    .as_deref()
                    .map(|m| format!(" when the NSS matches {m}"))
                    .unwrap_or_default();
                // What the rule says of its URLs: a query that is the
                // resolver's, and the form written for the URN as written.
                let mut said = String::new();
                if let Some(source) = &rule.resolver_query {
                    said.push_str(&format!(
                        " (the query is the resolver's own, so no q-component is added: {})",
                        source.trim_end_matches('.')
                    ));
                }
                if let Some(w) = &rule.as_written {
                    said.push_str(&format!(
                        " (written {} over the URN as written, not its key: {})",
                        w.url,
                        w.source.trim_end_matches('.')
                    ));
                }
                rule.urls
                    .iter()
                    .map(move |u| format!("{}{when}: {u}{said}", rule.service))
            })
            .collect();
        s.links = r
            .examples
            .iter()
            .flat_map(|ex| {
                let service = ex.service.as_deref().unwrap_or(&r.default);
                ex.urls
                    .iter()
                    .map(move |u| (format!("{} ({service})", ex.urn), u.clone()))
            })
            .collect();
        out.push(s);
    }
    out
}

/// The syntax of a practice form or a recommendation, as shown: its ABNF,
/// else its regular expression.
fn form_code(abnf: Option<&str>, regex: Option<&str>) -> Option<String> {
    abnf.map(|a| a.trim_end().to_string())
        .or_else(|| regex.map(str::to_string))
}

/// The topic of the statement on where a namespace's URNs lead.
pub const RESOLUTION_TOPIC: &str = "Resolution (URL templates)";

/// The topic of a statement about the owner's practice: always apart from
/// what the registration says.
pub const PRACTICE_TOPIC: &str = "Owner practice (not in the registration)";

/// `statements` as plain text wrapped at `width` columns: one paragraph
/// per statement, `Topic: text`; code indented four spaces, a wrapped
/// code line continuing two further in (an ABNF continuation line); list
/// items after `  - `, continuing under their first character.
pub fn to_text(statements: &[Statement], width: usize) -> String {
    let mut out = String::new();
    for s in statements {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        wrap(&mut out, &format!("{}: {}", s.topic, s.text), "", "", width);
        if let Some(code) = &s.code {
            for line in code.lines() {
                out.push('\n');
                let own = &line[..line.len() - line.trim_start().len()];
                wrap(
                    &mut out,
                    line.trim(),
                    &format!("    {own}"),
                    &format!("      {own}"),
                    width,
                );
            }
        }
        for item in &s.items {
            out.push('\n');
            wrap(&mut out, item, "  - ", "    ", width);
        }
        for (text, url) in &s.links {
            out.push('\n');
            wrap(&mut out, &format!("{text} -> {url}"), "  - ", "    ", width);
        }
    }
    out
}

/// Appends `text` wrapped at spaces to `width` columns, the first line
/// after `first`, the others after `next`. A word longer than a line
/// stays whole.
fn wrap(out: &mut String, text: &str, first: &str, next: &str, width: usize) {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !empty && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = next.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
}

#[cfg(test)]
mod tests {
    use super::super::builtin::{CHECKERS, NORMALIZERS};
    use super::*;

    fn rules(text: &str) -> RulesFile {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn every_builtin_has_prose() {
        for name in CHECKERS {
            assert!(prose(CHECKER_PROSE, name).is_some(), "checker {name}");
        }
        for name in NORMALIZERS {
            assert!(prose(NORMALIZER_PROSE, name).is_some(), "normalizer {name}");
        }
    }

    #[test]
    fn abnf_names_its_start_rule_and_shows_the_grammar() {
        let r = rules(
            "source = \"RFC 3061 section 2\"\n[syntax]\nabnf = \"\"\"\noid = number *( \".\" number )\nnumber = 1*DIGIT\n\"\"\"\n",
        );
        let s = &describe(&r, "oid")[0];
        assert_eq!(s.topic, "NSS syntax (ABNF)");
        assert!(s.text.contains("the rule oid of this grammar"), "{}", s.text);
        assert_eq!(
            s.code.as_deref(),
            Some("oid = number *( \".\" number )\nnumber = 1*DIGIT")
        );
    }

    #[test]
    fn equivalence_steps_in_words_with_the_computed_key() {
        let r = rules(
            "source = \"s\"\n[[equivalence]]\nstep = \"case-insensitive-parts\"\nparts = 2\n\
             [[equivalence]]\nstep = \"remove\"\nchars = \"-.\"\n\
             [examples]\nequivalent = [[\"urn:mrn:IALA:PUB:g-1\", \"urn:mrn:iala:pub:g1\"]]\n",
        );
        let eq = describe(&r, "mrn")
            .into_iter()
            .find(|s| s.topic == "Equivalence")
            .unwrap();
        assert_eq!(
            eq.text,
            "beyond RFC 8141 section 3.1 (the scheme and the NID are case-insensitive, and so are the \
             hex digits of %-escapes), letters are case-insensitive in the first two ':'-separated \
             parts of the NSS; then the characters '-' and '.' are ignored."
        );
        assert_eq!(
            eq.items,
            ["urn:mrn:IALA:PUB:g-1 = urn:mrn:iala:pub:g1 (both compare as urn:mrn:iala:pub:g1)"]
        );
    }

    #[test]
    fn text_wraps_code_as_abnf_continuation_lines() {
        let s = Statement {
            topic: "NSS syntax (ABNF)",
            text: "the NSS must match:".into(),
            code: Some("UUID = time-low \"-\" time-mid \"-\" time-high\n  node = 6hexOctet".into()),
            items: vec!["urn:a:b = urn:a:B (both compare as urn:a:b)".into()],
            links: Vec::new(),
        };
        assert_eq!(
            to_text(&[s], 30),
            "NSS syntax (ABNF): the NSS\nmust match:\n    UUID = time-low \"-\"\n      time-mid \"-\" time-high\n      node = 6hexOctet\n  - urn:a:b = urn:a:B (both\n    compare as urn:a:b)"
        );
    }

    #[test]
    fn no_rules_of_its_own_says_so() {
        let all = describe(&rules("source = \"RFC 6963\"\n"), "example");
        let topics: Vec<&str> = all.iter().map(|s| s.topic).collect();
        assert_eq!(topics, ["NSS syntax", "Equivalence", "Source"]);
        assert!(all[1].text.starts_with("RFC 8141 section 3.1 only"));
        let text = to_text(&all, 72);
        assert!(
            text.starts_with("NSS syntax: the generic syntax of RFC 8141 section 2"),
            "{text}"
        );
        assert!(text.ends_with("\n\nSource: RFC 6963"), "{text}");
    }

    #[test]
    fn check_digits_components_and_examples() {
        let r = rules(
            "source = \"ISSN\"\n[syntax]\nbuiltin = \"issn\"\n[components]\nr = false\nq = false\nf = true\n\
             [examples]\nvalid = [\"urn:issn:0317-8471\"]\ninvalid = [\"urn:issn:0317-8472\"]\n",
        );
        let text = to_text(&describe(&r, "issn"), 1000);
        assert!(
            text.contains("Check digit: ISSN check character (ISO 3297)"),
            "{text}"
        );
        assert!(
            text.contains("the r-component has no meaning, the q-component has no meaning, the f-component has a meaning"),
            "{text}"
        );
        assert!(
            text.contains("Valid examples: these URNs pass the rules:\n  - urn:issn:0317-8471"),
            "{text}"
        );
        assert!(
            text.contains("Invalid examples: these URNs are refused:\n  - urn:issn:0317-8472"),
            "{text}"
        );
    }
}
