//! # urnreg
//!
//! A library and tool for Uniform Resource Names and their namespaces
//! (RFC 8141): a strict, allocation-free URN parser with byte-offset errors,
//! URN-equivalence, the display form for people, and a validator that
//! checks each URN against the registry of namespaces and its namespace's
//! own rules (NSS syntax, check digits, equivalence).
//!
//! Validating against the registry shipped in the crate (the IANA registry,
//! with urnreg's rules for every namespace that publishes a syntax):
//!
//! ```
//! use urnreg::Registry;
//!
//! let registry = Registry::embedded();
//! let report = registry.check("URN:ISBN:0-395-36341-1");
//! assert!(report.is_valid());
//! assert_eq!(report.namespace().unwrap().nid(), "isbn");
//! // The ISBN namespace's own equivalence: ISBN-10 and ISBN-13 are one book.
//! assert_eq!(report.key().as_deref(), Some("urn:isbn:9780395363416"));
//!
//! let report = registry.check("urn:isbn:0-395-36341-2");
//! assert!(!report.is_valid());
//! let error = report.errors().next().unwrap();
//! assert_eq!((error.code(), error.offset()), ("nss-check", 21));
//!
//! let report = registry.check("urn:isnb:0-395-36341-1");
//! assert_eq!(report.errors().next().unwrap().code(), "unregistered-nid");
//! ```
//!
//! For a stream, make one [`Checker`] per thread; it remembers its NID
//! suggestions. [`Report::write_json`] writes the object that
//! `urnreg check --format jsonl` prints.
//!
//! The generic parser alone:
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
//!     "unexpected ' ' (space) in NSS at byte 13: expected pchar, '/', '%HH', '?+', '?=' or '#' (RFC 8141 section 2)"
//! );
//! # Ok::<(), urnreg::ParseError>(())
//! ```
//!
//! Non-fatal findings (upper-case `URN:`, lower-case hex in `%2c`, an
//! r-component, ...) are [`Warning`]s, available from [`Urn::warnings`].
//! The legacy RFC 2141 grammar is [`Syntax::Rfc2141`].
//!
//! ## What else is here
//!
//! - [`batch`]: many URNs at once, from a reader of lines or rows in
//!   memory, on every core, results in input order, through a
//!   [`batch::Sink`] of yours (columns, JSON, counts).
//! - [`scan`]: the URNs in running text (prose, markup, code), with line
//!   and column.
//! - [`Registry::resolve`]: where a URN leads (the URLs of its namespace's
//!   resolution services); [`resolve`] has the sub-registries.
//! - `registry` (feature `store`): the SQLite registry, `Store`, whose
//!   records in force `Registry::from_store` reads; `lint`: the checks of
//!   a registration file. `snapshot` (feature `snapshots`): a snapshot
//!   read back, whose `Snapshot::registry` validates against it.
//!
//! The guide with an example of each is `docs/library.md`.
//!
//! [`Registry`] is `Send + Sync` and cheap to clone (share it); make one
//! [`Checker`] or [`scan::Scanner`] per thread. Every error type
//! implements [`std::error::Error`] (a few checks of data handed in, such
//! as [`batch::OffsetRows::new`], give their reason as a `String`).
//!
//! ## Features
//!
//! With `default-features = false` the crate is the parser, the validator,
//! the embedded registry, [`batch`], [`scan`] and [`resolve`], with no
//! SQLite, templates or command line (`urnreg = { version = "0.1",
//! default-features = false, features = [...] }`). `store` adds the
//! SQLite registry (`registry`), registration files and `lint`;
//! `templates` (with `store`) rendering; `snapshots` (with `templates`)
//! export and import; `cli` all of them and the `urnreg` binary; `serve`
//! the HTTP service and its client (tokio, axum, an HTTP client). The
//! default is `cli` and `serve`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
// Dates and times: the calendar the validator's date checks share; the
// clock itself is the registry's.
#[cfg_attr(not(feature = "store"), allow(dead_code))]
mod clock;
mod json_text;
#[cfg(feature = "store")]
pub mod lint;
#[cfg(feature = "store")]
pub mod registry;
pub mod resolve;
pub mod rules;
pub mod scan;
#[cfg(feature = "store")]
mod shorten;
// "Did you mean ...?": the nearest of a few names, for NIDs and for a
// namespace's own names alike.
#[cfg(feature = "snapshots")]
pub mod snapshot;
mod suggest;
#[cfg(feature = "store")]
pub mod template;
mod urn;
mod validate;

#[cfg(feature = "serve")]
pub mod serve;

pub use validate::{
    Checker, Finding, FindingKind, Kind, Namespace, NamespaceEntry, Registry, Report, Severity, Status,
};

pub use urn::{
    Component, DisplayForm, GenericEquivalence, KeyRefiner, ParseError, ParseErrorKind, Syntax, Urn, Warning,
    WarningKind, check_nid,
};

/// The README's Rust examples run as doctests, and so do the guides'.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Declares a doctest holder for each guide in `docs/`, so that no example
/// rots.
macro_rules! guide_doctests {
    ($($name:ident = $path:literal;)*) => {$(
        #[cfg(doctest)]
        #[doc = include_str!($path)]
        struct $name;
    )*};
}

guide_doctests! {
    ValidatingGuide = "../docs/validating.md";
    FilingGuide = "../docs/filing.md";
    RulesGuide = "../docs/rules.md";
    OperatingGuide = "../docs/operating.md";
    ServiceGuide = "../docs/service.md";
    ResolutionGuide = "../docs/resolution.md";
    CommandsGuide = "../docs/commands.md";
    LibraryGuide = "../docs/library.md";
    PythonGuide = "../docs/python.md";
    SecurityGuide = "../docs/security.md";
    PerformanceGuide = "../docs/performance.md";
    TestingGuide = "../docs/testing.md";
}
