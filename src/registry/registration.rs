//! The registration file a maintainer writes (RFC 8141 Appendix A fields in
//! snake_case, as TOML), what kind of filing it is, and the proof that lint
//! found no error in it ([`Vetted`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Kind;
use super::error::{Error, Result};
use crate::template::{FIELDS, TemplateFields};

/// The most characters of a TOML parser's message a registration file's
/// error keeps (its middle cut).
pub const MAX_TOML_MESSAGE: usize = 400;

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
    /// Fields of the older RFC 3406 template, by their snake_case keys
    /// (`declared_registrant`, `syntactic_structure`, ...), for
    /// registrations imported from that form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rfc3406: Option<BTreeMap<String, String>>,
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

/// The largest registration file read (`request`, `amend`, `revise`,
/// `lint`, and the service's filings): 1 MiB.
pub const MAX_REGISTRATION_BYTES: usize = 1024 * 1024;

/// The Appendix A fields that every registration must fill, the first
/// eight of `APPENDIX_A_KEYS` (section 6.4;
/// "Additional Information" is optional, "Revision Information" is for
/// revisions).
pub const REQUIRED_FIELDS: &[&str] = APPENDIX_A_KEYS.split_at(8).0;

impl RegistrationFile {
    /// Reads a registration file.
    ///
    /// # Errors
    ///
    /// [`Error::Data`] with the TOML error (which names unknown keys) and
    /// where it is, line and column; the text itself is not repeated (a
    /// line of a megabyte would be), and a message longer than
    /// [`MAX_TOML_MESSAGE`] characters is cut in its middle.
    pub fn from_toml(text: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e: toml::de::Error| {
            let message =
                crate::shorten::cut_middle(e.message().trim_end(), MAX_TOML_MESSAGE, "MAX_TOML_MESSAGE");
            let Some(span) = e.span() else {
                return Error::Data(format!("registration file: {message}"));
            };
            let before = &text.as_bytes()[..span.start.min(text.len())];
            let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            // Characters, not bytes: a UTF-8 continuation byte starts none.
            let column = before[line_start..].iter().filter(|&&b| b & 0xc0 != 0x80).count() + 1;
            Error::Data(format!(
                "registration file, line {line}, column {column}: {message}"
            ))
        })
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
}

/// What kind of filing a registration file is (RFC 8141 section 6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filing {
    /// A first registration: version 1 of a formal NID that is not
    /// registered, or an informal request.
    Request,
    /// A new version of a registered namespace.
    Revision {
        /// The registered NID.
        nid: String,
        /// Its version in force (`None`: registered before texts were kept
        /// here, counted as version 1).
        current: Option<i64>,
    },
}

impl Filing {
    /// The version the filing must have: 1 for a request, the version in
    /// force + 1 for a revision.
    pub fn expected_version(&self) -> i64 {
        match self {
            Filing::Request => 1,
            Filing::Revision { current, .. } => current.unwrap_or(1) + 1,
        }
    }

    /// `request` or `revision`.
    pub fn name(&self) -> &'static str {
        match self {
            Filing::Request => "request",
            Filing::Revision { .. } => "revision",
        }
    }
}

/// A registration file in which [`crate::lint::vet`] found no error, as a
/// given kind of filing. The store files nothing else; it re-checks, in
/// its transaction, what depends on the registry's state.
#[derive(Clone, Debug)]
pub struct Vetted<'f> {
    file: &'f RegistrationFile,
    filing: Filing,
}

impl<'f> Vetted<'f> {
    /// Only lint makes these.
    pub(crate) fn new(file: &'f RegistrationFile, filing: Filing) -> Self {
        Vetted { file, filing }
    }

    /// The file.
    pub fn file(&self) -> &'f RegistrationFile {
        self.file
    }

    /// The filing it was vetted as.
    pub fn filing(&self) -> &Filing {
        &self.filing
    }
}

/// The RFC 8141 Appendix A fields a registration file holds directly, in
/// the order of the `registrations` table's columns.
pub(crate) const APPENDIX_A_KEYS: [&str; 10] = [
    "registrant",
    "purpose",
    "syntax",
    "assignment",
    "security_and_privacy",
    "interoperability",
    "resolution",
    "documentation",
    "additional_information",
    "revision_information",
];

impl RegistrationFile {
    /// A registration file holding `fields` (both templates' fields; the
    /// identifying ones, NID, version and date, come as arguments).
    pub fn from_fields(
        kind: Option<Kind>,
        nid: Option<String>,
        version: Option<i64>,
        date: Option<String>,
        fields: &TemplateFields,
    ) -> RegistrationFile {
        let mut file = RegistrationFile {
            kind,
            nid,
            version,
            date: date.map(DateValue::Text),
            ..RegistrationFile::default()
        };
        for key in APPENDIX_A_KEYS {
            if let (Some(slot), Some(value)) = (file.field_mut(key), fields.get(key).cloned().flatten()) {
                *slot = Some(value);
            }
        }
        let legacy: BTreeMap<String, String> = FIELDS
            .iter()
            .filter(|f| !f.2)
            .filter_map(|f| Some((f.0.to_string(), fields.get(f.0)?.clone()?)))
            .collect();
        file.rfc3406 = (!legacy.is_empty()).then_some(legacy);
        file
    }

    /// The template fields of this file: the Appendix A ones (with NID,
    /// version and date as text) and the RFC 3406 ones.
    pub fn template_fields(&self) -> TemplateFields {
        let mut fields = TemplateFields {
            namespace_identifier: self.nid.clone(),
            version: self.version.map(|v| v.to_string()),
            date: self.date.as_ref().map(DateValue::as_text),
            ..TemplateFields::default()
        };
        for key in APPENDIX_A_KEYS {
            if let Some(slot) = fields.get_mut(key) {
                *slot = self.field(key).map(str::to_string);
            }
        }
        for (key, value) in self.rfc3406.iter().flatten() {
            if let Some(slot) = fields
                .get_mut(key)
                .filter(|_| FIELDS.iter().any(|f| !f.2 && f.0 == key))
            {
                *slot = Some(value.clone());
            }
        }
        fields
    }

    fn field_mut(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            "registrant" => &mut self.registrant,
            "purpose" => &mut self.purpose,
            "syntax" => &mut self.syntax,
            "assignment" => &mut self.assignment,
            "security_and_privacy" => &mut self.security_and_privacy,
            "interoperability" => &mut self.interoperability,
            "resolution" => &mut self.resolution,
            "documentation" => &mut self.documentation,
            "additional_information" => &mut self.additional_information,
            "revision_information" => &mut self.revision_information,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_refused_with_their_name() {
        let err =
            RegistrationFile::from_toml("kind = \"formal\"\nnid = \"abc\"\npurpos = \"x\"\n").unwrap_err();
        assert!(err.to_string().contains("purpos"), "{err}");
        assert!(err.to_string().contains("line 3, column 1"), "{err}");
    }

    /// A broken line of a megabyte is not repeated in the error, and a key
    /// of a megabyte named in it is cut.
    #[test]
    fn a_toml_error_on_a_huge_line_stays_short() {
        let line = format!("kind = \"formal\"\npurpose = \"{}\n", "a".repeat(1 << 20));
        let err = RegistrationFile::from_toml(&line).unwrap_err().to_string();
        assert!(err.len() < 2 * MAX_TOML_MESSAGE, "{} bytes", err.len());
        assert!(err.contains("line 2"), "{err}");
        let key = format!("{} = 1\n", "k".repeat(1 << 20));
        let err = RegistrationFile::from_toml(&key).unwrap_err().to_string();
        assert!(err.len() < 2 * MAX_TOML_MESSAGE, "{} bytes", err.len());
    }
}
