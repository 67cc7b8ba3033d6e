//! The shipped registry data: `registry/*.toml`, one file per NID, plus
//! `registry/_registry.toml` for what belongs to the registry as a whole.
//!
//! These serde types mirror the files exactly (`deny_unknown_fields`); the
//! field names follow the IANA registry XML (`urn-namespaces.xml`), so that
//! nothing the registry says is dropped and nothing is invented.

use serde::{Deserialize, Serialize};

use super::Kind;
use crate::template::TemplateFields;

/// The files of `registry/`, embedded at build time: `(file name, text)`.
pub static EMBEDDED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/registry_files.rs"));

/// The fingerprint of the embedded namespace records (`registry/<nid>.toml`),
/// computed at build time: a database whose recorded fingerprint differs
/// holds shipped namespaces of another urnreg (see `Store::shipped_state`).
pub const EMBEDDED_FINGERPRINT: &str = include!(concat!(env!("OUT_DIR"), "/registry_fingerprint.rs"));

/// The name of the file that holds the registry-wide facts.
pub const REGISTRY_FILE: &str = "_registry.toml";

/// The name of the file that holds the resolution query parameters'
/// sub-registries (keywords and service designators).
pub const QUERY_FILE: &str = "_query.toml";

/// `registry/_registry.toml`: the IANA registry's own metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistryFile {
    /// `<registry id>`.
    pub id: String,
    /// `<title>`.
    pub title: String,
    /// `<category>`.
    pub category: String,
    /// `<updated>`: when the registry last changed.
    pub updated: String,
    /// `<note>`s.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The sub-registries (formal, informal), in order.
    pub subregistries: Vec<SubregistryFile>,
}

/// One `<registry>` inside the top-level one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubregistryFile {
    /// `<registry id>`, e.g. `urn-namespaces-1`.
    pub id: String,
    /// Which kind of NIDs it holds.
    pub kind: Kind,
    /// `<title>`.
    pub title: String,
    /// `<xref>`s of the sub-registry itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Xref>,
    /// `<registration_rule>`, its text with `<xref>`s written as `[type:data]`.
    pub registration_rule: String,
    /// `<expert>`.
    pub expert: String,
}

/// `registry/<nid>.toml`: one `<record>` of the IANA registry, plus the
/// registration text where one was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordFile {
    /// `<name>`: the NID, in the registry's spelling.
    pub nid: String,
    /// Formal (`urn-namespaces-1`) or informal (`urn-namespaces-2`).
    pub kind: Kind,
    /// The `date` attribute: when the NID was registered, if the registry says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The `updated` attribute, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// `<template>`: the link to the registration template IANA keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Xref>,
    /// The record's `<xref>`s (its references), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Xref>,
    /// `<contact>`s (informal records), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contacts: Vec<Xref>,
    /// The registration text, where one was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration: Option<RegistrationText>,
    /// Texts the registration points to for its details (e.g. the sections
    /// of RFC 8458 that the `nbn` template cites for its syntax).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub referenced: Vec<ReferencedText>,
    /// urnreg's rules for the namespace (NSS syntax, equivalence), each
    /// citing its source. Not part of the IANA record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<crate::rules::RulesFile>,
    /// `withdrawn` when the namespace is withdrawn; absent when registered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Versions filed through urnreg (requests, revisions and their
    /// reviews), oldest first. Absent in the shipped registry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filed: Vec<FiledVersion>,
}

/// A version of a registration filed through urnreg (RFC 8141 section 6),
/// with its review state, as a snapshot holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FiledVersion {
    /// The request id it was filed under (`urnreg review ID`), kept by
    /// snapshots; absent in snapshots written before urnreg kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Formal or informal.
    pub kind: Kind,
    /// The NID (none for an informal request not yet approved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nid: Option<String>,
    /// The version number.
    pub version: i64,
    /// `submitted`, `changes-requested`, `approved` or `rejected`.
    pub status: String,
    /// Appendix A "Date".
    pub date: String,
    /// Where it was filed from, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// When it was filed (UTC).
    pub submitted_at: String,
    /// When it was decided (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_at: Option<String>,
    /// The template fields (NID, version and date are above).
    pub fields: TemplateFields,
    /// Its namespace-specific rules, if it brought any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<crate::rules::RulesFile>,
    /// The expert's decisions on it, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviews: Vec<ReviewEntry>,
}

/// One expert decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewEntry {
    /// `approve`, `reject` or `ask-changes`.
    pub decision: String,
    /// The note to the registrant.
    pub note: String,
    /// Who decided.
    pub actor: String,
    /// When (UTC).
    pub at: String,
}

/// `registry/_requests.toml` in a snapshot: filed versions that belong to
/// no registered namespace (pending or refused requests).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestsFile {
    /// The requests, oldest first.
    #[serde(default, rename = "request")]
    pub requests: Vec<FiledVersion>,
}

/// An IANA `<xref type=".." data="..">text</xref>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Xref {
    /// `rfc`, `uri`, `person`, `rfc-errata`, ...
    #[serde(rename = "type")]
    pub kind: String,
    /// The target: `rfc8141`, a URI, a person id, an erratum number.
    pub data: String,
    /// The element's text, if it has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For `type = "person"`: the `<person>` entry of the registry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<Person>,
}

/// An entry of the registry's `<people>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    /// `<name>`.
    pub name: String,
    /// `<uri>` (IANA writes `@` as `&` in e-mail addresses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// `<updated>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
}

/// A registration text as found, and the template fields read from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistrationText {
    /// Where the text comes from.
    pub source: String,
    /// The template fields read from `text` (by [`crate::template::import_text`]).
    pub fields: TemplateFields,
    /// The text, verbatim.
    pub text: String,
}

/// A text that a registration refers to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferencedText {
    /// Where the text comes from.
    pub source: String,
    /// The text, verbatim.
    pub text: String,
}

impl RegistrationText {
    /// The version the text gives: its Version field, or in the RFC 3406
    /// form its Registration Information's "Registration Version Number"
    /// (read as `template import` reads them); 1 when it gives none.
    pub fn version(&self) -> i64 {
        crate::template::version_and_date(&self.fields).0.unwrap_or(1)
    }

    /// The date the text gives (its Date field, or its Registration
    /// Information's "Registration Date"), if it is a real `YYYY-MM-DD`.
    pub fn date(&self) -> Option<String> {
        crate::template::version_and_date(&self.fields)
            .1
            .filter(|d| crate::clock::is_valid_date(d))
    }
}

impl RecordFile {
    /// A record that says nothing but its NID and kind (a namespace
    /// registered here has no IANA record).
    pub fn bare(nid: &str, kind: Kind) -> RecordFile {
        RecordFile {
            nid: nid.to_string(),
            kind,
            date: None,
            updated: None,
            template: None,
            references: Vec::new(),
            contacts: Vec::new(),
            registration: None,
            referenced: Vec::new(),
            rules: None,
            status: None,
            filed: Vec::new(),
        }
    }

    /// The version in force: the highest of the shipped text's version
    /// ([`RegistrationText::version`]) and the versions approved here;
    /// `None` when no registration text is held.
    pub fn version_in_force(&self) -> Option<i64> {
        let shipped = self.registration.as_ref().map(RegistrationText::version);
        let approved = self
            .filed
            .iter()
            .filter(|v| v.status == "approved")
            .map(|v| v.version)
            .max();
        shipped.max(approved)
    }
}

impl Xref {
    /// A short human form: `RFC 8141`, the text of a link, a person's name.
    pub fn label(&self) -> String {
        match self.kind.as_str() {
            "rfc" => match self.data.strip_prefix("rfc") {
                Some(n) => format!("RFC {n}"),
                None => self.data.clone(),
            },
            "rfc-errata" => format!("RFC Errata {}", self.data),
            "person" => self
                .person
                .as_ref()
                .map_or_else(|| self.data.replace('_', " "), |p| p.name.clone()),
            _ => self.text.clone().unwrap_or_else(|| self.data.clone()),
        }
    }
}
