//! The JSON form of a [`Report`]: the object `urnreg check --format jsonl`
//! writes per input (and the service's check API).
//!
//! Keys, in order: `line` (streams only), `input` (with `input_base64`
//! after it when the input is not UTF-8), `valid`, `nid`, `nss`,
//! `r`, `q`, `f`, `key`, `errors`, `warnings` (lists of `{kind, offset,
//! message}`, with the rules' whole `source` on findings of a namespace's
//! rules), and `namespace` when checked against a registry (`null` for
//! an unregistered NID). An input the generic syntax refuses after its
//! NID keeps `nid` and `namespace` ([`Report::nid`]). Written by hand: a
//! stream writes millions of them, and the parts of a parsed URN need no
//! escaping (RFC 8141 section 2 allows neither `"`, `\` nor control
//! characters in them).

use std::fmt::Write as _;

use super::report::{Finding, FindingKind, Report};
use crate::json_text::{
    JsonText, Plain, push_base64, push_escaped, push_plain, push_plain_opt, push_text, push_u64,
};
use crate::rules::CompiledRules;

/// A finding's message as a JSON string, formatted only when it has to be.
fn push_message(out: &mut Vec<u8>, f: &Finding) {
    if let Some(w) = f.warning() {
        // Our own words around a number.
        let (before, after) = w.message_parts();
        out.push(b'"');
        out.extend_from_slice(before.as_bytes());
        push_u64(out, w.offset as u64);
        out.extend_from_slice(after.as_bytes());
        out.push(b'"');
    } else if let Some(text) = f.text() {
        push_text(out, text);
    } else if let Some(e) = f.parse_error() {
        out.push(b'"');
        e.write_message(&mut JsonText(out));
        out.push(b'"');
    } else if f.is_plain_text() {
        out.push(b'"');
        let _ = write!(Plain(out), "{f}");
        out.push(b'"');
    } else {
        push_escaped(out, f);
    }
}

/// The findings as a JSON array; a finding of the namespace's rules gets
/// their whole `source` (its message ends with the short citation only).
fn push_findings<'f>(
    out: &mut Vec<u8>,
    findings: impl Iterator<Item = &'f Finding>,
    rules: Option<&CompiledRules>,
) {
    out.push(b'[');
    for (i, f) in findings.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"kind\":\"");
        out.extend_from_slice(f.code().as_bytes());
        out.extend_from_slice(b"\",\"offset\":");
        push_u64(out, f.offset() as u64);
        out.extend_from_slice(b",\"message\":");
        push_message(out, f);
        if let Some(rules) = rules.filter(|_| f.kind().is_from_rules()) {
            // An nss-should's source is its recommendation's own.
            let source = match f.kind() {
                FindingKind::NssShould { rule } => {
                    rules.should().get(usize::from(rule)).map(|s| s.source_json())
                }
                _ => Some(rules.source_json()),
            };
            if let Some(source) = source {
                out.extend_from_slice(b",\"source\":");
                out.extend_from_slice(source.as_bytes());
            }
        }
        out.push(b'}');
    }
    out.push(b']');
}

/// `,"directives":[{"keyword":..,"value":..},...]` when the r-component
/// is in the directive form of the 2012 URN draft (section 2.3). Its
/// characters need no escaping (RFC 8141 section 2).
fn push_directives(out: &mut Vec<u8>, r: &str) {
    let Some(found) = crate::resolve::written_directives(r) else {
        return;
    };
    out.extend_from_slice(b",\"directives\":[");
    for (i, d) in found.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"keyword\":");
        push_plain(out, d.keyword);
        out.extend_from_slice(b",\"value\":");
        push_plain(out, d.value);
        out.push(b'}');
    }
    out.push(b']');
}

impl Report<'_, '_> {
    /// Appends the report as one JSON object (no newline); `line` is the
    /// input's line number in a stream.
    ///
    /// Runs of constant text are written at once (a URN with no
    /// components, findings or odd bytes is a handful of copies).
    pub fn write_json(&self, out: &mut Vec<u8>, line: Option<u64>) {
        out.reserve(3 * self.input_bytes().len() + 320);
        match line {
            Some(n) => {
                out.extend_from_slice(b"{\"line\":");
                push_u64(out, n);
                out.extend_from_slice(b",\"input\":");
            }
            None => out.extend_from_slice(b"{\"input\":"),
        }
        let valid = self.is_valid();
        match self.urn() {
            Some(urn) => {
                push_plain(out, urn.as_str());
                out.extend_from_slice(if valid {
                    b",\"valid\":true,\"nid\":\""
                } else {
                    b",\"valid\":false,\"nid\":\""
                });
                out.extend_from_slice(urn.nid().as_bytes());
                out.extend_from_slice(b"\",\"nss\":\"");
                out.extend_from_slice(urn.nss().as_bytes());
                if urn.nss_end() == urn.as_str().len() {
                    // No component: nothing after the NSS.
                    out.extend_from_slice(b"\",\"r\":null,\"q\":null,\"f\":null,\"key\":");
                } else {
                    // Found once for the three.
                    let c = urn.components();
                    let text = |part: Option<std::ops::Range<usize>>| part.map(|p| &urn.as_str()[p]);
                    out.extend_from_slice(b"\",\"r\":");
                    push_plain_opt(out, text(c.r.clone()));
                    out.extend_from_slice(b",\"q\":");
                    push_plain_opt(out, text(c.q));
                    out.extend_from_slice(b",\"f\":");
                    push_plain_opt(out, text(c.f));
                    if let Some(r) = text(c.r) {
                        push_directives(out, r);
                    }
                    out.extend_from_slice(b",\"key\":");
                }
                // The key is written straight into `out` and refined there.
                if valid {
                    out.push(b'"');
                    match self.rules() {
                        Some(rules) => rules.push_key(urn, out),
                        None => urn.push_equivalence_key(out),
                    }
                    out.push(b'"');
                } else {
                    out.extend_from_slice(b"null");
                }
            }
            None => {
                let input = self.input_bytes();
                push_escaped(out, String::from_utf8_lossy(input));
                if std::str::from_utf8(input).is_err() {
                    // `input` had to replace bytes with U+FFFD: the bytes
                    // themselves, which the offsets count.
                    out.extend_from_slice(b",\"input_base64\":");
                    push_base64(out, input);
                }
                // The NID even so when the input was refused only after
                // it (letters, digits and '-': no escaping).
                out.extend_from_slice(b",\"valid\":false,\"nid\":");
                push_plain_opt(out, self.nid());
                out.extend_from_slice(b",\"nss\":null,\"r\":null,\"q\":null,\"f\":null,\"key\":null");
            }
        }
        if self.findings().is_empty() {
            out.extend_from_slice(b",\"errors\":[],\"warnings\":[]");
        } else {
            out.extend_from_slice(b",\"errors\":");
            push_findings(out, self.errors(), self.rules());
            out.extend_from_slice(b",\"warnings\":");
            push_findings(out, self.warnings(), self.rules());
        }
        if self.is_registry_checked() {
            match self.namespace() {
                None => out.extend_from_slice(b",\"namespace\":null}"),
                Some(ns) => {
                    out.extend_from_slice(b",\"namespace\":");
                    out.extend_from_slice(ns.json_object().as_bytes());
                    out.push(b'}');
                }
            }
        } else {
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::urn::Syntax;
    use crate::validate::{Checker, Registry};

    /// The hand-written JSON parses, and says what the report says.
    #[test]
    fn json_is_valid_and_complete() {
        let inputs: [&[u8]; 12] = [
            b"urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
            b"urn:Ex-1:a b",
            b"urn:a'b:c",
            b"urn:isbn:951-0-18435-7#x",
            b"urn:ex:\"q\\",
            b"bad\x00\x1f\xff\x7f",
            b"urn:a:b",
            b"",
            b"URN:ISBN:0451450524",
            b"urn:isnb:0451450523?=a",
            b"urn:ab:c?+a\"b",
            b"urn:ab:c#a\\b\x01",
        ];
        for raw in inputs {
            for registry in [None, Some(Registry::embedded())] {
                let mut checker = match registry {
                    Some(r) => Checker::new(r),
                    None => Checker::syntax_only(),
                }
                .with_syntax(Syntax::Rfc8141);
                let report = checker.check(raw);
                let mut out = Vec::new();
                report.write_json(&mut out, Some(7));
                let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
                assert_eq!(v["line"], 7);
                assert_eq!(v["input"], String::from_utf8_lossy(raw).as_ref());
                // The bytes themselves when they are not UTF-8.
                match std::str::from_utf8(raw) {
                    Ok(_) => assert!(v.get("input_base64").is_none()),
                    Err(_) => assert_eq!(v["input_base64"], "YmFkAB//fw==", "{raw:?}"),
                }
                assert_eq!(v["valid"], report.is_valid());
                assert_eq!(v["nid"].as_str(), report.nid(), "{raw:?}");
                assert_eq!(
                    v.get("namespace").and_then(|n| n["nid"].as_str()),
                    report.namespace().map(|ns| ns.nid()),
                    "{raw:?}"
                );
                assert_eq!(v["key"].as_str(), report.key().as_deref());
                assert_eq!(v["errors"].as_array().unwrap().len(), report.errors().count());
                for (json, f) in v["errors"].as_array().unwrap().iter().zip(report.errors()) {
                    assert_eq!(json["message"], f.to_string(), "{raw:?}");
                    let mut scratch = String::new();
                    assert_eq!(f.message_in(&mut scratch), f.to_string(), "{raw:?}");
                }
                for (json, f) in v["warnings"].as_array().unwrap().iter().zip(report.warnings()) {
                    assert_eq!(json["message"], f.to_string());
                    assert_eq!(json["kind"], f.code());
                    assert_eq!(json["offset"], f.offset());
                }
                assert_eq!(v.get("namespace").is_some(), registry.is_some());
            }
        }
    }

    /// An input the generic syntax refuses after a well-formed NID keeps
    /// its NID, as written, and its namespace (RFC 8141 section 2: `urn:`
    /// NID `:`), its NSS and key stay null; one refused in its scheme or
    /// NID has none.
    #[test]
    fn a_urn_refused_after_its_nid_keeps_it() {
        let mut checker = Checker::new(Registry::embedded());
        let mut syntax_only = Checker::syntax_only();
        for (raw, nid, namespace) in [
            (
                "urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
                Some("uuid"),
                Some("uuid"),
            ),
            (
                "URN:IETF:params:netconf:capability:url:1.0?scheme=http,ftp",
                Some("IETF"),
                Some("ietf"),
            ),
            ("urn:publicid:IDN novipl:a", Some("publicid"), Some("publicid")),
            ("urn:isbn:", Some("isbn"), Some("isbn")),
            ("urn:issn:0378-5955?=", Some("issn"), Some("issn")),
            ("urn:no-such-nid:a%zz", Some("no-such-nid"), None),
            ("urn:a'b:c", None, None),
            ("urn:-ab:c", None, None),
            ("urn:isbn", None, None),
            ("urm:isbn:0451450523", None, None),
            ("", None, None),
        ] {
            let report = checker.check(raw.as_bytes());
            assert!(!report.is_valid(), "{raw}");
            assert_eq!(report.nid(), nid, "{raw}");
            assert_eq!(report.namespace().map(|ns| ns.nid()), namespace, "{raw}");
            let mut out = Vec::new();
            report.write_json(&mut out, None);
            let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(v["nid"].as_str(), nid, "{raw}");
            assert_eq!(v["namespace"]["nid"].as_str(), namespace, "{raw}");
            assert!(v["nss"].is_null() && v["key"].is_null(), "{raw}");
            // Without a registry: the NID, and no namespace key at all.
            let report = syntax_only.check(raw.as_bytes());
            assert_eq!(report.nid(), nid, "{raw}");
            let mut out = Vec::new();
            report.write_json(&mut out, None);
            let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(v["nid"].as_str(), nid, "{raw}");
            assert!(v.get("namespace").is_none(), "{raw}");
        }
        // Reused in place, a report forgets the NID of the input before.
        let mut report = checker.check_str("urn:uuid:{x}");
        checker.check_str_into("not a urn", &mut report);
        assert_eq!((report.nid(), report.namespace().is_none()), (None, true));
    }
}
