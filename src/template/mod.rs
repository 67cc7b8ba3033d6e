//! Registration templates (RFC 8141 Appendix A, and the older RFC 3406
//! section 4 form): their fields, and reading them out of free text.

mod import;
mod plain;
#[cfg(feature = "templates")]
pub(crate) mod render;

pub use import::{
    ImportError, ImportReport, MAX_TEXT_BYTES, MAX_TEXT_LINES, Note, NoteKind, import_bytes,
    import_registration, import_registration_bytes, import_text, is_template_text, version_and_date,
};
#[cfg(feature = "templates")]
pub use render::{
    Form, RenderError, block, missing_as_written, missing_for_rfc8141, render, render_as_written, skeleton,
};

/// The heading under which the text forms describe a registration's
/// rules; the importer knows it ([`crate::template::import_text`]) and reads nothing
/// from it.
pub const RULES_HEADING: &str = "Namespace rules (urnreg)";

use serde::{Deserialize, Serialize};

/// The fields of a registration template, by their snake_case names.
///
/// The first thirteen are RFC 8141 Appendix A, in its order; the rest are
/// the RFC 3406 (and RFC 2611) template fields that most of the real
/// registry still uses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateFields {
    /// Namespace Identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_identifier: Option<String>,
    /// Version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Registrant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registrant: Option<String>,
    /// Purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// Syntax.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syntax: Option<String>,
    /// Assignment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment: Option<String>,
    /// Security and Privacy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_and_privacy: Option<String>,
    /// Interoperability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interoperability: Option<String>,
    /// Resolution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation: Option<String>,
    /// Additional Information.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_information: Option<String>,
    /// Revision Information.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_information: Option<String>,
    /// RFC 3406: Registration Information.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_information: Option<String>,
    /// RFC 3406: Declared registrant of the namespace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_registrant: Option<String>,
    /// RFC 3406: Declaration of syntactic structure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syntactic_structure: Option<String>,
    /// RFC 3406: Relevant ancillary documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ancillary_documentation: Option<String>,
    /// RFC 3406: Identifier uniqueness considerations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uniqueness: Option<String>,
    /// RFC 3406: Identifier persistence considerations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistence: Option<String>,
    /// RFC 3406: Process of identifier assignment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment_process: Option<String>,
    /// RFC 3406: Process for identifier resolution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_process: Option<String>,
    /// RFC 3406: Rules for Lexical Equivalence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lexical_equivalence: Option<String>,
    /// RFC 3406: Conformance with URN Syntax.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conformance: Option<String>,
    /// RFC 3406: Validation mechanism.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<String>,
    /// RFC 3406: Scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

/// Every field: snake_case key, the heading of the template it belongs to,
/// and whether it is one of RFC 8141 Appendix A.
pub const FIELDS: &[(&str, &str, bool)] = &[
    ("namespace_identifier", "Namespace Identifier", true),
    ("version", "Version", true),
    ("date", "Date", true),
    ("registrant", "Registrant", true),
    ("purpose", "Purpose", true),
    ("syntax", "Syntax", true),
    ("assignment", "Assignment", true),
    ("security_and_privacy", "Security and Privacy", true),
    ("interoperability", "Interoperability", true),
    ("resolution", "Resolution", true),
    ("documentation", "Documentation", true),
    ("additional_information", "Additional Information", true),
    ("revision_information", "Revision Information", true),
    ("registration_information", "Registration Information", false),
    (
        "declared_registrant",
        "Declared registrant of the namespace",
        false,
    ),
    ("syntactic_structure", "Declaration of syntactic structure", false),
    (
        "ancillary_documentation",
        "Relevant ancillary documentation",
        false,
    ),
    ("uniqueness", "Identifier uniqueness considerations", false),
    ("persistence", "Identifier persistence considerations", false),
    ("assignment_process", "Process of identifier assignment", false),
    ("resolution_process", "Process for identifier resolution", false),
    ("lexical_equivalence", "Rules for Lexical Equivalence", false),
    ("conformance", "Conformance with URN Syntax", false),
    ("validation", "Validation mechanism", false),
    ("scope", "Scope", false),
];

/// Generates the by-name accessors from one list of the field names.
macro_rules! field_access {
    ($($key:ident),* $(,)?) => {
        impl TemplateFields {
            /// The field called `key`, if `key` is one of [`FIELDS`].
            pub fn get(&self, key: &str) -> Option<&Option<String>> {
                match key {
                    $(stringify!($key) => Some(&self.$key),)*
                    _ => None,
                }
            }

            /// The field called `key`, mutably.
            pub fn get_mut(&mut self, key: &str) -> Option<&mut Option<String>> {
                match key {
                    $(stringify!($key) => Some(&mut self.$key),)*
                    _ => None,
                }
            }
        }
    };
}

field_access!(
    namespace_identifier,
    version,
    date,
    registrant,
    purpose,
    syntax,
    assignment,
    security_and_privacy,
    interoperability,
    resolution,
    documentation,
    additional_information,
    revision_information,
    registration_information,
    declared_registrant,
    syntactic_structure,
    ancillary_documentation,
    uniqueness,
    persistence,
    assignment_process,
    resolution_process,
    lexical_equivalence,
    conformance,
    validation,
    scope,
);

impl TemplateFields {
    /// The fields that are set, as `(key, heading, value)`, in template order.
    pub fn present(&self) -> impl Iterator<Item = (&'static str, &'static str, &str)> + '_ {
        FIELDS.iter().filter_map(|(key, heading, _)| {
            self.get(key)
                .and_then(|v| v.as_deref())
                .map(|v| (*key, *heading, v))
        })
    }

    /// Returns true if and only if the text uses the older RFC 3406 form.
    pub fn is_legacy_form(&self) -> bool {
        let new = FIELDS
            .iter()
            .filter(|f| f.2 && self.get(f.0).is_some_and(Option::is_some))
            .count();
        let old = FIELDS
            .iter()
            .filter(|f| !f.2 && self.get(f.0).is_some_and(Option::is_some))
            .count();
        old > new
    }
}
