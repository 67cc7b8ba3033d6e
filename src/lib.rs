//! # urnreg
//!
//! A library and tool for Uniform Resource Names and their namespaces
//! (RFC 8141): a strict, allocation-free URN parser with byte-offset errors,
//! URN-equivalence, and the display form for people.
//!
//! ```
//! use urnreg::Urn;
//!
//! let urn = Urn::parse("URN:ISBN:0-395-36341-1?=lang=en#p12")?;
//! assert_eq!(urn.nid(), "ISBN");
//! assert_eq!(urn.nss(), "0-395-36341-1");
//! assert_eq!(urn.q_component(), Some("lang=en"));
//! assert_eq!(urn.f_component(), Some("p12"));
//! // RFC 8141 section 3.1: scheme and NID case-insensitive, components ignored.
//! assert_eq!(urn.equivalence_key(), "urn:isbn:0-395-36341-1");
//!
//! let err = Urn::parse("urn:example:a b").unwrap_err();
//! assert_eq!(err.offset(), 13);
//! assert_eq!(
//!     err.to_string(),
//!     "unexpected ' ' (space) in NSS at byte 13: expected pchar, '/', '%HH', '?+', '?=' or '#'"
//! );
//! # Ok::<(), urnreg::ParseError>(())
//! ```
//!
//! Non-fatal findings (upper-case `URN:`, lower-case hex in `%2c`, an
//! r-component, ...) are [`Warning`]s, available from [`Urn::warnings`].
//! The legacy RFC 2141 grammar is [`Syntax::Rfc2141`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod lint;
pub mod registry;
pub mod rules;
pub mod site;
pub mod snapshot;
pub mod template;
pub mod urn;
pub mod validate;

#[cfg(feature = "serve")]
pub mod serve;

pub use validate::{
    Checker, Finding, FindingKind, Kind, Namespace, NamespaceEntry, Registry, Report, Severity, Status,
};

pub use urn::{
    Component, DisplayForm, GenericEquivalence, KeyRefiner, ParseError, ParseErrorKind, Syntax, Urn, Warning,
    WarningKind,
};
