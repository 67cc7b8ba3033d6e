//! The registration file a maintainer writes (RFC 8141 Appendix A fields in
//! snake_case, as TOML), and the checks of sections 5 and 6 on it.

use serde::{Deserialize, Serialize};

use super::Kind;
use super::clock::is_valid_date;
use super::error::{Error, Problem, Result};
use crate::urn::{Syntax, Urn};

/// A registration request or revision, as written in `FILE.toml`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistrationFile {
    /// `formal` or `informal`.
    pub kind: Option<Kind>,
    /// The requested NID (formal only; informal NIDs are assigned).
    pub nid: Option<String>,
    /// 1 for a first registration, previous + 1 for a revision.
    pub version: Option<i64>,
    /// When the registration is requested, `YYYY-MM-DD`.
    pub date: Option<DateValue>,
    /// Appendix A "Registrant".
    pub registrant: Option<String>,
    /// Appendix A "Purpose".
    pub purpose: Option<String>,
    /// Appendix A "Syntax".
    pub syntax: Option<String>,
    /// Appendix A "Assignment".
    pub assignment: Option<String>,
    /// Appendix A "Security and Privacy".
    pub security_and_privacy: Option<String>,
    /// Appendix A "Interoperability".
    pub interoperability: Option<String>,
    /// Appendix A "Resolution".
    pub resolution: Option<String>,
    /// Appendix A "Documentation".
    pub documentation: Option<String>,
    /// Appendix A "Additional Information" (optional).
    pub additional_information: Option<String>,
    /// Appendix A "Revision Information" (revisions).
    pub revision_information: Option<String>,
    /// Namespace-specific rules (their content is checked by the validator).
    pub rules: Option<toml::Table>,
}

/// A date written as a string or as a bare TOML date.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DateValue {
    /// `date = "2024-01-31"`.
    Text(String),
    /// `date = 2024-01-31`.
    Toml(toml::value::Datetime),
}

impl DateValue {
    /// The date as text.
    pub fn as_text(&self) -> String {
        match self {
            DateValue::Text(s) => s.clone(),
            DateValue::Toml(d) => d.to_string(),
        }
    }
}

/// The Appendix A fields that every registration must fill (section 6.4;
/// "Additional Information" is optional, "Revision Information" is for
/// revisions).
pub const REQUIRED_FIELDS: &[&str] = &[
    "registrant",
    "purpose",
    "syntax",
    "assignment",
    "security_and_privacy",
    "interoperability",
    "resolution",
    "documentation",
];

impl RegistrationFile {
    /// Reads a registration file.
    ///
    /// # Errors
    ///
    /// [`Error::Data`] with the TOML error (which names unknown keys).
    pub fn from_toml(text: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| Error::Data(format!("registration file: {e}")))
    }

    /// The text of a template field by its snake_case key.
    pub fn field(&self, key: &str) -> Option<&str> {
        match key {
            "registrant" => self.registrant.as_deref(),
            "purpose" => self.purpose.as_deref(),
            "syntax" => self.syntax.as_deref(),
            "assignment" => self.assignment.as_deref(),
            "security_and_privacy" => self.security_and_privacy.as_deref(),
            "interoperability" => self.interoperability.as_deref(),
            "resolution" => self.resolution.as_deref(),
            "documentation" => self.documentation.as_deref(),
            "additional_information" => self.additional_information.as_deref(),
            "revision_information" => self.revision_information.as_deref(),
            _ => None,
        }
    }

    /// The checks that need no registry: kind, NID rules, version, date and
    /// required fields. `expected_version` is 1 for a request and previous
    /// + 1 for a revision.
    pub fn problems(&self, expected_version: i64) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut problem = |field: &str, message: String| {
            problems.push(Problem {
                field: field.to_string(),
                message,
            })
        };
        match (self.kind, self.nid.as_deref()) {
            (None, _) => problem("kind", "missing: 'formal' or 'informal'".into()),
            (Some(Kind::Formal), None) => problem(
                "nid",
                "missing: a formal registration requests a NID (RFC 8141 section 5.1)".into(),
            ),
            (Some(Kind::Formal), Some(nid)) if expected_version == 1 => {
                for message in formal_nid_problems(nid) {
                    problem("nid", message);
                }
            }
            (Some(Kind::Informal), Some(nid)) if expected_version == 1 => problem(
                "nid",
                format!(
                    "'{nid}' given, but informal NIDs are assigned by the registry (RFC 8141 section 5.2)"
                ),
            ),
            _ => {}
        }
        match self.version {
            None => problem("version", format!("missing: expected {expected_version}")),
            Some(v) if v != expected_version => {
                let why = if expected_version == 1 {
                    "a first registration is version 1"
                } else {
                    "a revision is the previous version + 1"
                };
                problem(
                    "version",
                    format!("{v}: expected {expected_version} ({why}, RFC 8141 section 6)"),
                )
            }
            _ => {}
        }
        match &self.date {
            None => problem(
                "date",
                "missing: expected YYYY-MM-DD (RFC 8141 Appendix A)".into(),
            ),
            Some(d) if !is_valid_date(&d.as_text()) => problem(
                "date",
                format!("'{}' is not a date YYYY-MM-DD (RFC 8141 Appendix A)", d.as_text()),
            ),
            _ => {}
        }
        for key in REQUIRED_FIELDS {
            if self.field(key).is_none_or(|v| v.trim().is_empty()) {
                problem(
                    key,
                    "required and empty (RFC 8141 section 6.4, Appendix A)".into(),
                );
            }
        }
        if expected_version > 1
            && self
                .revision_information
                .as_deref()
                .is_none_or(|v| v.trim().is_empty())
        {
            problem(
                "revision_information",
                "a revision must say what changed (RFC 8141 section 6, Appendix A)".into(),
            );
        }
        problems
    }
}

/// The section 2 and 5.1 rules for a requested formal NID.
pub fn formal_nid_problems(nid: &str) -> Vec<String> {
    let mut out = Vec::new();
    let probe = format!("urn:{nid}:x");
    let parsed_nid = Urn::parse_with(&probe, Syntax::Rfc8141).map(|u| u.nid());
    if parsed_nid.as_ref().map_or(true, |n| *n != nid) {
        let why = match parsed_nid {
            Err(err) if err.component() == crate::urn::Component::Nid => err.kind().code(),
            _ => "not a NID",
        };
        out.push(format!(
            "'{nid}' is not a valid NID ({why}): expected 2 to 32 letters, digits or inner hyphens (RFC 8141 section 2)"
        ));
        return out;
    }
    let lower = nid.to_ascii_lowercase();
    let b = lower.as_bytes();
    if lower.starts_with("urn-") {
        out.push(format!(
            "'{nid}' starts with 'urn-', which is kept for informal namespaces (RFC 8141 section 5.1)"
        ));
    }
    if b.len() <= 2 {
        out.push(format!(
            "'{nid}' is too short: a formal NID has more than two characters (RFC 8141 section 5.1)"
        ));
    }
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1].is_ascii_alphabetic() && b[2] == b'-' {
        out.push(format!(
            "'{nid}' starts with two letters and '-', kept for country-code namespaces (RFC 8141 section 5.1)"
        ));
    }
    if lower.starts_with("x-") {
        out.push(format!(
            "'{nid}' starts with 'X-', the obsolete experimental form (RFC 8141 section 5.1)"
        ));
    }
    if lower == "urn" {
        out.push("'urn' is reserved (2012 URN draft section 2.1)".to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc8141_section_5_1_each_rule() {
        assert!(formal_nid_problems("example").is_empty());
        assert!(formal_nid_problems("urn-5")[0].contains("urn-"));
        assert!(formal_nid_problems("ab")[0].contains("too short"));
        assert!(formal_nid_problems("de-bib")[0].contains("country-code"));
        assert!(formal_nid_problems("X-foo")[0].contains("X-"));
        assert!(formal_nid_problems("URN")[0].contains("reserved"));
        assert!(formal_nid_problems("a_b")[0].contains("not a valid NID"));
        assert!(formal_nid_problems("abc-")[0].contains("not a valid NID"));
        assert!(formal_nid_problems(&"a".repeat(33))[0].contains("not a valid NID"));
    }
}
