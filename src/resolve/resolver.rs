//! Resolving a URN against the registry: which service (asked for, the
//! `s=` directive, or the namespace's default) and the URLs its
//! namespace's resolution gives for the URN's key.

use super::{DirectiveIssue, DirectiveIssueKind, QueryRegistry, Unresolved, directives};
use crate::Registry;

/// Where a URN leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The namespace's equivalence key of the URN: equivalent URNs resolve
    /// the same (RFC 2169 section 3).
    pub key: String,
    /// The service used (its registered name).
    pub service: String,
    /// Why this service: `asked`, `directive` (`?+s=`), or `default`.
    pub chosen_by: &'static str,
    /// The URLs, in the order the namespace gives them.
    pub urls: Vec<String>,
    /// What a user should know, in words, notes joined by `; `: an `s=`
    /// directive that named a service the namespace does not offer, or an
    /// unknown one (the 2012 draft's fallback to the default, section 2.3);
    /// a q-component not added to a URL (a lookup's query, or one the
    /// resolver reads as its own commands); the URL the registration or
    /// the resolver's owner writes for the URN as written, when that is not
    /// the key.
    pub note: Option<String>,
}

/// Why a URN was not resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The URN is invalid: its first error's kind and message.
    Invalid {
        /// The error kind (`nss-check`, ...).
        kind: &'static str,
        /// Its message.
        message: String,
    },
    /// The NID is not registered.
    Unregistered(String),
    /// The namespace says nothing of resolution.
    NoResolution(String),
    /// The namespace's stored resolution does not compile or fails its
    /// examples (a registry edited by hand: import and lint refuse it).
    Broken {
        /// The namespace.
        nid: String,
        /// What is wrong.
        message: String,
    },
    /// The namespace's resolution does not give a URL for it.
    Unresolved(Unresolved),
}

impl ResolveError {
    /// A stable name of the kind of failure.
    pub fn code(&self) -> &'static str {
        match self {
            ResolveError::Invalid { .. } => "invalid",
            ResolveError::Unregistered(_) => "unregistered-nid",
            ResolveError::NoResolution(_) => "no-resolution",
            ResolveError::Broken { .. } => "resolution-error",
            ResolveError::Unresolved(Unresolved::UnknownService(_)) => "unknown-service",
            ResolveError::Unresolved(Unresolved::ServiceNotOffered { .. }) => "service-not-offered",
            ResolveError::Unresolved(Unresolved::NotCovered { .. }) => "not-covered",
            ResolveError::Unresolved(Unresolved::DotSegment { .. }) => "dot-segment",
            ResolveError::Unresolved(Unresolved::TooLong { .. }) => "too-long",
        }
    }

    /// True when the URN itself is at fault (invalid, unregistered), not
    /// the registry's knowledge of where it leads.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ResolveError::Invalid { .. }
                | ResolveError::Unregistered(_)
                | ResolveError::Unresolved(Unresolved::UnknownService(_))
        )
    }
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveError::Invalid { kind, message } => write!(f, "invalid URN: {kind}: {message}"),
            ResolveError::Unregistered(nid) => write!(f, "the NID '{nid}' is not registered"),
            ResolveError::NoResolution(nid) => write!(
                f,
                "the '{nid}' namespace records no resolver (its registration names none urnreg knows)"
            ),
            ResolveError::Broken { nid, message } => {
                write!(
                    f,
                    "the '{nid}' namespace's stored resolution is broken: {message}"
                )
            }
            ResolveError::Unresolved(u) => u.fmt(f),
        }
    }
}

impl std::error::Error for ResolveError {}

impl Registry {
    /// Resolves `input` with `service` (a registered name or RFC 2169
    /// alias), or else the service of its `?+s=` directive, or else its
    /// namespace's default. An asked service the namespace does not offer
    /// is an error; a directive's is not: the 2012 draft (section 2.3)
    /// falls back to the default, and [`Resolved::note`] says so.
    ///
    /// ```
    /// let registry = urnreg::Registry::embedded();
    /// let to = registry.resolve("URN:IETF:RFC:8141", None).unwrap();
    /// assert_eq!(to.urls, ["https://www.rfc-editor.org/rfc/rfc8141"]);
    /// assert_eq!((to.service.as_str(), to.key.as_str()), ("I2L", "urn:ietf:rfc:8141"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`ResolveError`]: an invalid URN, an unregistered NID, a namespace
    /// without resolution, or no URL for this service and NSS.
    pub fn resolve(&self, input: &str, service: Option<&str>) -> Result<Resolved, ResolveError> {
        self.resolve_bytes(input.as_bytes(), service)
    }

    /// As [`Registry::resolve`], for input that need not be UTF-8 (a
    /// command-line argument): a byte that is not ASCII is named as it is
    /// (RFC 8141 section 2: the URN is invalid), not as a replacement
    /// character.
    ///
    /// ```
    /// let registry = urnreg::Registry::embedded();
    /// let e = registry.resolve_bytes(b"urn:ietf:rfc:\xff", None).unwrap_err();
    /// assert!(e.to_string().contains("byte 0xff"), "{e}");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Registry::resolve`].
    pub fn resolve_bytes(&self, input: &[u8], service: Option<&str>) -> Result<Resolved, ResolveError> {
        // A service no one registered is refused whatever was sent with it
        // (RFC 2169's L2N, L2L take a URL, not a URN: 501, not 400).
        if let Some(asked) = service
            && self.query().service(asked).is_none()
        {
            return Err(ResolveError::Unresolved(Unresolved::UnknownService(
                asked.to_string(),
            )));
        }
        let report = self.check_bytes(input, crate::Syntax::Rfc8141);
        if let Some(e) = report.errors().next() {
            if e.code() == "unregistered-nid" {
                let nid = report.urn().map_or("", |u| u.nid());
                return Err(ResolveError::Unregistered(nid.to_string()));
            }
            return Err(ResolveError::Invalid {
                kind: e.code(),
                message: e.to_string(),
            });
        }
        let (Some(urn), Some(ns), Some(key)) = (report.urn(), report.namespace(), report.key()) else {
            return Err(ResolveError::Invalid {
                kind: "invalid",
                message: "not a URN".into(),
            });
        };
        let resolution = match ns.rules().ok().flatten().map(|r| r.resolution()) {
            Some(Ok(Some(resolution))) => resolution,
            Some(Err(message)) => {
                return Err(ResolveError::Broken {
                    nid: ns.nid().to_string(),
                    message: message.to_string(),
                });
            }
            _ => return Err(ResolveError::NoResolution(ns.nid().to_string())),
        };
        let mut note = None;
        // Registered names: the RFC 2169 aliases become their RFC 2483 names.
        let query = self.query();
        let registered = |s: &str| query.service(s).map(|entry| entry.name.as_str());
        let (service, chosen_by) = match service {
            Some(asked) => (
                registered(asked)
                    .ok_or_else(|| ResolveError::Unresolved(Unresolved::UnknownService(asked.to_string())))?,
                "asked",
            ),
            // A directive's value is case-sensitive (section 2.3): `s=i2ls`
            // names no service, and the default is used (section 2.3.1).
            None => match directive_service(urn.r_component(), ns.nid(), query) {
                Some(s) => match query.service_exact(s).map(|entry| entry.name.as_str()) {
                    Some(name) if resolution.services().iter().any(|o| o.eq_ignore_ascii_case(name)) => {
                        (name, "directive")
                    }
                    Some(_) => {
                        note = Some(format!(
                            "s={s} is not a service the '{}' namespace offers: its default {} is used \
                             (URN draft 2012 section 2.3)",
                            ns.nid(),
                            resolution.default_service()
                        ));
                        (resolution.default_service(), "default")
                    }
                    None => {
                        let meant = super::directives::case_hint(s, query);
                        note = Some(format!(
                            "s={} is not a registered resolution service{meant}: the '{}' namespace's \
                             default {} is used (URN draft 2012 section 2.3.1)",
                            crate::urn::shortened(s),
                            ns.nid(),
                            resolution.default_service()
                        ));
                        (resolution.default_service(), "default")
                    }
                },
                None => {
                    // Directives that could not be read (repeated, or not
                    // keywd=value): the default, and said.
                    let r = urn.r_component().unwrap_or("");
                    let issues = match urn.r_component() {
                        Some(r) => directives(r, ns.nid(), query).1,
                        None => Vec::new(),
                    };
                    // Only what kept an s= from being read: not another
                    // keyword's trouble.
                    // `S=` is no `s=` (keywords are case-sensitive, section
                    // 9.2.1): said, as the typo it likely is.
                    let about_s = |i: &&DirectiveIssue| {
                        let directive = r.get(i.offset..).unwrap_or("");
                        i.kind == DirectiveIssueKind::Syntax
                            || (i.kind == DirectiveIssueKind::DuplicateKeyword && directive.starts_with("s="))
                            || (i.kind == DirectiveIssueKind::UnknownKeyword && directive.starts_with("S="))
                    };
                    if let Some(issue) = issues.iter().find(about_s) {
                        note = Some(format!(
                            "{}: the default service {} is used",
                            issue.message,
                            resolution.default_service()
                        ));
                    }
                    (resolution.default_service(), "default")
                }
            },
        };
        let mut found = resolution
            .locate(&key, service)
            .map_err(ResolveError::Unresolved)?;
        let mut notes: Vec<String> = note.into_iter().collect();
        let mut urls = std::mem::take(&mut found.urls);
        if let Some(q) = urn.q_component().filter(|_| LOCATOR_SERVICES.contains(&service)) {
            match found.resolver_query {
                // The resolver reads these URLs' query as its own commands.
                Some(source) => notes.push(format!(
                    "the q-component is not added: the resolver reads the query of its URLs as its own \
                     commands, not the resource's ({}); RFC 8141 section 2.3.2 lets no resolver require it",
                    source.trim_end_matches('.')
                )),
                None => {
                    if with_query(&mut urls, q).map_err(|()| {
                        ResolveError::Unresolved(Unresolved::TooLong {
                            service: service.to_string(),
                        })
                    })? {
                        notes.push(
                            "the q-component is not added to a URL with a query of its own: that query \
                             is a resolver's lookup, whose parameters a URN must not change (RFC 8141 \
                             section 2.3.2 leaves this case to the resolver)"
                                .to_string(),
                        );
                    }
                }
            }
        }
        // The registration's or owner's form, when the URN as written is
        // not the key: said, while the URL stays the key's (equivalent
        // URNs resolve identically, RFC 2169 section 3).
        let (_, key_nss) = key
            .split_once(':')
            .and_then(|(_, rest)| rest.split_once(':'))
            .unwrap_or(("", ""));
        if let Some((written, source)) = found.as_written(urn, key_nss) {
            notes.push(format!(
                "with the URN as written, the form the registration or the resolver's owner writes is \
                 {written} ({}); the URL given is made from the equivalence key, so that equivalent \
                 URNs resolve identically (RFC 2169 section 3)",
                source.trim_end_matches('.')
            ));
        }
        let note = (!notes.is_empty()).then(|| notes.join("; "));
        Ok(Resolved {
            key: key.into_owned(),
            service: service.to_string(),
            chosen_by,
            urls,
            note,
        })
    }
}

/// The services whose URLs locate the named resource itself (RFC 2483
/// sections 4.1 to 4.4): a URN's q-component is for the resource.
const LOCATOR_SERVICES: &[&str] = &["I2L", "I2Ls", "I2R", "I2Rs"];

/// RFC 8141 section 2.3.2: "URN resolvers returning a URI that is a
/// locator for a URN with a q-component do this by copying the
/// q-component from the URN to the query component of the URI"; its
/// fragment stays last. A URL with a query of its own is a resolver's
/// lookup (`?urn={key}`), not the resource: joining the q-component to it
/// would let a URN add or repeat the lookup's parameters (`?=urn=...`), so
/// it is left as it is (the section leaves this case to the resolver,
/// which SHOULD document it: docs/resolution.md). Returns true if some URL
/// was left without the q-component.
///
/// # Errors
///
/// A URL that would pass [`super::MAX_URL`] bytes with the q-component
/// (none is made).
fn with_query(urls: &mut [String], q: &str) -> Result<bool, ()> {
    let mut withheld = false;
    for url in urls {
        let (base, fragment) = match url.find('#') {
            Some(i) => url.split_at(i),
            None => (url.as_str(), ""),
        };
        if base.contains('?') {
            withheld = true;
            continue;
        }
        if base.len() + 1 + q.len() + fragment.len() > super::MAX_URL {
            return Err(());
        }
        *url = format!("{base}?{q}{fragment}");
    }
    Ok(withheld)
}

/// The value of the one `s=` directive of r-component `r`, if there is
/// exactly one (a repeated keyword is ignored whole: section 2.3).
fn directive_service<'a>(r: Option<&'a str>, nid: &str, query: &QueryRegistry) -> Option<&'a str> {
    let (found, _) = directives(r?, nid, query);
    let mut services = found.iter().filter(|d| d.keyword == "s");
    let first = services.next()?;
    services.next().is_none().then_some(first.value)
}
