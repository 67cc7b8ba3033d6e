//! Lint of a registration's `[rules]` table: the rules compile and pass
//! their examples, their equivalence steps only merge (RFC 8141 section
//! 3.1), and a Syntax field whose ABNF defines the NSS is not left without
//! rules (else `check` would accept names the registration forbids).

use crate::registry::{Filing, Kind, RegistrationFile};
use crate::resolve::{QueryRegistry, ResolutionFile};
use crate::rules::{RulesFile, SyntaxRule};
use crate::urn::{KeyRefiner, Urn};

use super::abnf_text::{find_abnf, rule_definitions};
use super::{Findings, LintContext};

const S3_1: &str = "RFC 8141 section 3.1";
const S5: &str = "RFC 8141 section 5";
const APPENDIX_A: &str = "RFC 8141 Appendix A";

/// The NID the rules are for: the file's, or none for an informal request
/// (its NID is assigned on approval).
fn rules_nid(file: &RegistrationFile) -> Option<&str> {
    file.nid.as_deref()
}

pub(super) fn check(file: &RegistrationFile, ctx: &LintContext, filing: &Filing, out: &mut Findings) {
    let Some(table) = &file.rules else {
        if let Some(suggested) = suggest(file, None) {
            out.error_with(
                "rules-missing",
                "rules",
                APPENDIX_A,
                "the Syntax field's ABNF defines the NSS, but there is no [rules] table: check would \
                 apply the generic syntax only; paste this one (with examples)"
                    .into(),
                suggested,
            );
        }
        if let Filing::Revision { nid, .. } = filing
            && ctx
                .registered
                .get(&nid.to_ascii_lowercase())
                .is_some_and(|r| r.has_rules)
        {
            out.warning(
                "rules-dropped",
                "rules",
                S5,
                format!(
                    "rules are in force for '{nid}' and this revision has none: keep the [rules] table of \
                     `urnreg ns show {nid} --format toml`"
                ),
            );
        }
        return;
    };
    let rules: RulesFile = match table.clone().try_into() {
        Ok(r) => r,
        Err(e) => {
            out.error(
                "rules",
                "rules",
                S5,
                format!("not a valid rules table: {}", e.message().trim_end()),
            );
            return;
        }
    };
    let nid = rules_nid(file);
    let examples = &rules.examples;
    let has_examples =
        !(examples.valid.is_empty() && examples.invalid.is_empty() && examples.equivalent.is_empty());
    // A hint's examples name the NID too.
    let hint_examples = rules.hint.iter().any(|h| !h.examples.is_empty());
    if nid.is_none() && file.kind == Some(Kind::Informal) && (has_examples || hint_examples) {
        out.error(
            "rules-informal-examples",
            if has_examples {
                "rules.examples"
            } else {
                "rules.hint"
            },
            "RFC 8141 section 5.2",
            "an informal request has no NID until it is approved, so its examples cannot name one: \
             file the rules without examples, and add them in a revision"
                .into(),
        );
        return;
    }
    let compiled = match rules.compile(nid.unwrap_or("urn-0")) {
        Ok(c) => c,
        Err(e) => {
            // The field says whose rules: the message need not.
            let text = e.to_string();
            let message = match text.split_once("': ") {
                Some((head, rest)) if head.starts_with("rules for '") => rest.to_string(),
                _ => text,
            };
            // A hint's error is found at its table.
            let field = if message.starts_with("hint ") {
                "rules.hint"
            } else {
                "rules"
            };
            out.error("rules", field, S5, message);
            return;
        }
    };
    if let Some(message) = splits_equivalents(&rules, &compiled) {
        out.error("rules-merge", "rules.equivalence", S3_1, message);
    }
    // A revision is the moment to make the owner's practice registered.
    if matches!(filing, Filing::Revision { .. }) && !rules.practice.is_empty() {
        let forms: Vec<String> = rules
            .practice
            .iter()
            .map(|p| crate::rules::cite(p.note.as_deref().unwrap_or(p.source.as_str())))
            .collect();
        let mut listed = forms.join("; ");
        if listed.chars().count() > 60 {
            listed = format!("{}…", listed.chars().take(59).collect::<String>());
        }
        out.warning(
            "rules-practice",
            "rules.practice",
            "RFC 8141 section 6.4",
            format!(
                "{} form(s) of the owner's practice ({listed}): fold them into Syntax and [rules.syntax]",
                forms.len()
            ),
        );
    }
    // Issue 22: resolvers are reached over https; plain http only where a
    // resolver speaks nothing else, and a reviewer will ask.
    if compiled
        .resolution()
        .ok()
        .flatten()
        .is_some_and(|r| r.uses_plain_http())
    {
        out.warning(
            "rules-resolution-http",
            "rules.resolution",
            "RFC 8141 section 6.4",
            "a resolution URL template is plain http: use https unless the resolver has no https".into(),
        );
    }
    if let Some(resolution) = &rules.resolution {
        let query = ctx
            .query
            .as_ref()
            .unwrap_or_else(|| crate::Registry::embedded().query());
        let nid = file.nid.as_deref().unwrap_or("").to_ascii_lowercase();
        resolution_names(resolution, &nid, query, out);
    }
    if rules.syntax.is_none()
        && let Some(suggested) = suggest(file, Some(&rules))
    {
        out.error_with(
            "rules-missing",
            "rules.syntax",
            APPENDIX_A,
            "the Syntax field's ABNF defines the NSS, but [rules] has no syntax: check would apply \
             the generic syntax only; add this"
                .into(),
            suggested,
        );
    }
}

/// The first example whose generic-equivalent variants (RFC 8141 section
/// 3.1: case of `urn:` and of the NID, case of `%HH`, r-, q- and
/// f-components) the rules' equivalence does not hold equivalent: rules
/// may add equivalences, never take one away. The steps urnreg knows read
/// only the generic key, so they cannot; this guards every step added
/// later (a refiner may read the URN itself).
fn splits_equivalents(rules: &RulesFile, compiled: &dyn KeyRefiner) -> Option<String> {
    let e = &rules.examples;
    let all = e
        .valid
        .iter()
        .chain(&e.invalid)
        .chain(e.equivalent.iter().flatten());
    for example in all {
        let Ok(urn) = Urn::parse(example) else {
            continue;
        };
        let key = urn.equivalence_key_with(compiled);
        for variant in generic_variants(&urn) {
            let Ok(other) = Urn::parse(&variant) else {
                continue;
            };
            debug_assert_eq!(other.equivalence_key(), urn.equivalence_key());
            let other_key = other.equivalence_key_with(compiled);
            if other_key != key {
                return Some(format!(
                    "the equivalence steps tell '{example}' from '{variant}', which RFC 8141 holds equivalent \
                     (keys '{key}' and '{other_key}'): namespace rules may only add equivalences"
                ));
            }
        }
    }
    None
}

/// URNs that RFC 8141 section 3.1 holds equivalent to `urn`.
fn generic_variants(urn: &Urn<'_>) -> Vec<String> {
    let (nid, nss) = (urn.nid(), urn.nss());
    let alternate: String = nid
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i % 2 == 0 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    // %HH in the other case.
    let mut flipped = String::with_capacity(nss.len());
    let bytes = nss.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            flipped.push('%');
            for b in &bytes[i + 1..i + 3] {
                let c = char::from(*b);
                flipped.push(if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                });
            }
            i += 3;
        } else {
            flipped.push(char::from(bytes[i]));
            i += 1;
        }
    }
    let bare = format!("urn:{nid}:{nss}");
    vec![
        format!("URN:{nid}:{nss}"),
        format!("urn:{}:{nss}", nid.to_ascii_uppercase()),
        format!("urn:{}:{nss}", nid.to_ascii_lowercase()),
        format!("urn:{alternate}:{nss}"),
        format!("urn:{nid}:{flipped}"),
        bare.clone(),
        format!("{bare}?+r"),
        format!("{bare}?=q"),
        format!("{bare}#f"),
        format!("{bare}?+r?=q#f"),
    ]
}

/// Names that say a rule is the NSS.
fn names_the_nss(name: &str, nid: Option<&str>) -> bool {
    let n = name.to_ascii_lowercase();
    n == "nss"
        || n == "namespace-specific-string"
        || n.ends_with("-nss")
        || n.starts_with("nss-")
        || nid.is_some_and(|nid| n == format!("{}-nss", nid.to_ascii_lowercase()))
}

/// Removes the indentation every non-empty line shares, and the blank
/// lines at the start, at the end and in runs.
fn dedent(text: &str) -> String {
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<&str> = Vec::new();
    for line in text.lines().map(|l| l.get(indent..).unwrap_or("").trim_end()) {
        if !line.is_empty() || out.last().is_some_and(|l| !l.is_empty()) {
            out.push(line);
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// If `rhs` starts with quoted strings that spell `urn:<nid>:` (ABNF
/// strings are case-insensitive), the rest: the NSS.
fn after_urn_prefix(rhs: &str, nid: Option<&str>) -> Option<String> {
    let mut literal = String::new();
    let mut rest = rhs.trim_start();
    while let Some(body) = rest.strip_prefix('"') {
        let end = body.find('"')?;
        literal.push_str(&body[..end].to_ascii_lowercase());
        rest = body[end + 1..].trim_start();
        let Some(after_scheme) = literal.strip_prefix("urn:") else {
            if "urn:".starts_with(literal.as_str()) {
                continue;
            }
            return None;
        };
        let Some((given, tail)) = after_scheme.split_once(':') else {
            continue;
        };
        if nid.is_some_and(|nid| !given.eq_ignore_ascii_case(nid)) {
            return None;
        }
        let tail = tail.to_string();
        let rest = rest.trim();
        return match (tail.is_empty(), rest.is_empty()) {
            (true, true) => None,
            (true, false) => Some(rest.to_string()),
            (false, true) => Some(format!("\"{tail}\"")),
            (false, false) => Some(format!("\"{tail}\" {rest}")),
        };
    }
    None
}

/// A `[rules]` table (or, when `existing` rules lack a syntax, a
/// `[rules.syntax]` table) built from the ABNF in the Syntax field, when
/// that ABNF compiles and says which rule is the NSS: a rule named for it
/// (`NSS`, `<nid>-NSS`, `...-nss`), or a first rule for the whole URN
/// (`"urn:<nid>:" ...`), whose remainder is the NSS. A grammar that names
/// no NSS (its first rule may be a part of one) asks for nothing.
/// Issue 22: every service a resolution offers is a registered designator,
/// every keyword it supports is registered and not another namespace's,
/// and every keyword it defines is free (the 2012 URN draft, section 9.2).
fn resolution_names(resolution: &ResolutionFile, nid: &str, query: &QueryRegistry, out: &mut Findings) {
    const SECTION: &str = "URN draft 2012 section 9.2";
    let services = std::iter::once(&resolution.default)
        .chain(&resolution.services)
        .chain(resolution.rules.iter().map(|r| &r.service));
    let mut seen: Vec<&str> = Vec::new();
    for s in services {
        if query.service(s).is_none() && !seen.iter().any(|x| x.eq_ignore_ascii_case(s)) {
            seen.push(s);
            out.error(
                "rules-resolution-service",
                "rules.resolution",
                SECTION,
                format!(
                    "'{s}' is not a registered resolution service designator (see urnreg services; an expert \
                     registers a new one with urnreg services add)"
                ),
            );
        }
    }
    for k in &resolution.keywords {
        match (query.keyword(k), query.owner(k)) {
            (None, _) => out.error(
                "rules-resolution-keyword",
                "rules.resolution",
                SECTION,
                format!(
                    "keyword '{k}' is not registered: define it in new_keywords (this namespace's own), or ask \
                     an expert to register it (urnreg keywords add)"
                ),
            ),
            (Some(_), Some(owner)) if !owner.eq_ignore_ascii_case(nid) => out.error(
                "rules-resolution-keyword",
                "rules.resolution",
                SECTION,
                format!("keyword '{k}' is reserved by the '{owner}' namespace (scope specific, section 9.2.1)"),
            ),
            _ => {}
        }
    }
    for new in &resolution.new_keywords {
        let k = &new.keyword;
        match (query.keyword(k), query.owner(k)) {
            (None, _) => {}
            (Some(_), Some(owner)) if owner.eq_ignore_ascii_case(nid) => {}
            (Some(_), Some(owner)) => out.error(
                "rules-resolution-keyword",
                "rules.resolution",
                SECTION,
                format!("new keyword '{k}' is reserved by the '{owner}' namespace: choose another"),
            ),
            (Some(_), None) => out.error(
                "rules-resolution-keyword",
                "rules.resolution",
                SECTION,
                format!("new keyword '{k}' is already a global keyword: list it in keywords instead"),
            ),
        }
    }
}

pub(super) fn suggest(file: &RegistrationFile, existing: Option<&RulesFile>) -> Option<String> {
    let syntax = file.syntax.as_deref()?;
    let found = find_abnf(syntax)?;
    let grammar = dedent(&found.text);
    let rules = rule_definitions(&grammar);
    let nid = file.nid.as_deref();
    let (grammar, start) = if let Some((name, _)) = rules.iter().find(|(name, _)| names_the_nss(name, nid)) {
        (grammar.clone(), name.clone())
    } else {
        let (_, rhs) = rules.first()?;
        let rest = after_urn_prefix(rhs, nid)?;
        if rules.iter().any(|(n, _)| n.eq_ignore_ascii_case("nss")) {
            return None;
        }
        (format!("nss = {rest}\n{grammar}"), "nss".to_string())
    };
    crate::rules::abnf::compile(&grammar, Some(&start)).ok()?;
    let source = match nid {
        Some(nid) => format!("the {nid} registration, Syntax"),
        None => "this registration, Syntax".to_string(),
    };
    let syntax_rule = SyntaxRule {
        abnf: Some(format!("{}\n", grammar.trim_end())),
        start: Some(start),
        ..SyntaxRule::default()
    };
    let mut rules = existing.cloned().unwrap_or(RulesFile {
        source,
        ..RulesFile::default()
    });
    rules.syntax = Some(syntax_rule);
    rules.compile(nid.unwrap_or("urn-0")).ok()?;
    #[derive(serde::Serialize)]
    struct Wrapper<'a> {
        rules: &'a RulesFile,
    }
    let mut text = toml::to_string(&Wrapper { rules: &rules }).ok()?;
    text.push_str(
        "\n# Add [rules.examples]: `valid` and `invalid` URNs (those the Syntax field gives), and\n\
         # `equivalent` pairs; lint runs them.\n",
    );
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(nid: &str, syntax: &str) -> RegistrationFile {
        RegistrationFile {
            kind: Some(Kind::Formal),
            nid: Some(nid.into()),
            syntax: Some(syntax.into()),
            ..RegistrationFile::default()
        }
    }

    fn start_of(suggestion: &str) -> (String, String) {
        #[derive(serde::Deserialize)]
        struct Wrapper {
            rules: RulesFile,
        }
        let w: Wrapper = toml::from_str(suggestion).unwrap_or_else(|e| panic!("{suggestion}: {e}"));
        let s = w.rules.syntax.unwrap();
        (s.start.unwrap(), s.abnf.unwrap())
    }

    #[test]
    fn a_rule_named_for_the_nss_is_the_start() {
        let s = suggest(
            &file(
                "doi",
                "URN-DOI = \"urn:doi:\" DOI-NSS\nDOI-NSS = 1*DIGIT \"/\" 1*ALPHA",
            ),
            None,
        )
        .unwrap();
        assert_eq!(start_of(&s).0, "DOI-NSS");
    }

    #[test]
    fn a_rule_for_the_whole_urn_gives_its_remainder() {
        let s = suggest(
            &file(
                "issn",
                "issn-urn = \"urn:ISSN:\" 4DIGIT [\"-\"] 3DIGIT check\ncheck = DIGIT / \"X\"",
            ),
            None,
        )
        .unwrap();
        let (start, abnf) = start_of(&s);
        assert_eq!(start, "nss");
        assert!(abnf.starts_with("nss = 4DIGIT [\"-\"] 3DIGIT check\n"), "{abnf}");
        let split = suggest(&file("mrn", "MRN = \"urn\" \":\" \"mrn\" \":\" 1*ALPHA"), None).unwrap();
        assert!(start_of(&split).1.starts_with("nss = 1*ALPHA"), "{split}");
        let deeper = suggest(&file("ietf", "u = \"urn:ietf:rfc:\" 1*DIGIT"), None).unwrap();
        assert!(
            start_of(&deeper).1.starts_with("nss = \"rfc:\" 1*DIGIT"),
            "{deeper}"
        );
    }

    #[test]
    fn no_suggestion_without_an_nss() {
        // The first rule is the prefix only; another NID; prose; nothing.
        assert_eq!(
            suggest(
                &file("c2pa", "c2pa-namespace = \"urn:c2pa:\"\nUUID = 4HEXDIG"),
                None
            ),
            None
        );
        assert_eq!(suggest(&file("abc", "x = \"urn:other:\" 1*DIGIT"), None), None);
        assert_eq!(suggest(&file("abc", "NSS = the ISBN number"), None), None);
        assert_eq!(suggest(&file("abc", "x = y"), None), None, "does not compile");
        // A first rule that is not named for the NSS may be a part of it.
        assert_eq!(
            suggest(&file("nfi", "category = name\nname = 1*ALPHA"), None),
            None
        );
        // Blank lines of the Syntax text do not follow the grammar.
        let s = suggest(
            &file("abc", "Intro.\n\n  nss = 1*DIGIT\n\n\n  more = 1*ALPHA\n\nEnd."),
            None,
        )
        .unwrap();
        assert_eq!(start_of(&s).1, "nss = 1*DIGIT\n\nmore = 1*ALPHA\n");
    }

    /// A refiner that reads the NSS as written, not the generic key: it
    /// tells `%2c` from `%2C`.
    struct AsWritten;

    impl KeyRefiner for AsWritten {
        fn refine<'k>(&self, urn: &Urn<'_>, _key: std::borrow::Cow<'k, str>) -> std::borrow::Cow<'k, str> {
            std::borrow::Cow::Owned(format!("urn:x:{}", urn.nss()))
        }
    }

    #[test]
    fn a_refiner_that_splits_generic_equivalents_is_caught() {
        let mut rules = RulesFile {
            source: "test".into(),
            ..RulesFile::default()
        };
        rules.examples.valid = vec!["urn:example:a%2Cb".into()];
        let message = splits_equivalents(&rules, &AsWritten).expect("caught");
        assert!(
            message.contains("'urn:example:a%2Cb' from 'urn:example:a%2cb'"),
            "{message}"
        );
        let compiled = rules.compile("example").unwrap();
        assert_eq!(splits_equivalents(&rules, &compiled), None);
    }

    #[test]
    fn variants_are_generic_equivalents() {
        let urn = Urn::parse("urn:Example:a%2cb").unwrap();
        for v in generic_variants(&urn) {
            assert_eq!(
                Urn::parse(&v).unwrap().equivalence_key(),
                urn.equivalence_key(),
                "{v}"
            );
        }
    }
}
