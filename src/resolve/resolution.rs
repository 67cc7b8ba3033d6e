//! Where a URN leads: a namespace's resolution, as its rules carry it
//! (`[rules.resolution]`): for each RFC 2483 service it offers, URL
//! templates over the URN's parts.
//!
//! ```toml
//! [rules.resolution]
//! source = "RFC Editor: https://www.rfc-editor.org/rfc/rfcNNNN"
//! default = "I2L"
//! services = ["I2L"]
//!
//! [[rules.resolution.rules]]          # tried in order
//! service = "I2L"
//! match = '^rfc:(?<number>[0-9]+)$'   # on the NSS of the namespace's key
//! urls = ["https://www.rfc-editor.org/rfc/rfc{number}"]
//!
//! [[rules.resolution.examples]]       # run whenever the rules compile
//! urn = "urn:ietf:rfc:8141"
//! urls = ["https://www.rfc-editor.org/rfc/rfc8141"]
//! ```
//!
//! Variables: `{urn}` (the namespace's equivalence key, so lexically
//! equivalent URNs resolve identically: RFC 2169 section 3), `{nid}`,
//! `{nss}` (the key's NSS) and the named groups of `match`; `{name:upper}`
//! and `{name:lower}` put a value in one case first (for a resolver that
//! wants an identifier as issued when the key folds its case). A value is
//! percent-encoded when expanded: every byte but the unreserved ones and
//! `: @ ! $ & ' ( ) * + , ; =` (a `%XX` already in it is kept; after the
//! template's `?`, `& = +` are encoded too, so a URN adds no query
//! parameter); `{+name}` also keeps `/` (RFC 6570's reserved expansion).
//! A URL whose path would hold a `.` or `..` segment, even as `%2E`, is
//! not given (`dot-segment`). A template's scheme and host are written literally (`https`;
//! `http` is allowed for resolvers that speak nothing else and lint warns),
//! so no URN can send a resolver elsewhere, and no expansion can hold a
//! line break, `?`, `#` or a path that climbs.
//!
//! A rule may also say, citing where, that its URLs' query is the
//! resolver's own (`resolver_query`: the q-component is not added), and
//! how the registration or owner writes its URL over the URN as written
//! (`as_written`: a note when that is not the key).

use regex_automata::meta::Regex;
use serde::{Deserialize, Serialize};

use super::subregistries::{
    Keyword, MAX_QUERY_FIELD, QueryRegistry, Scope, SupportedBy, is_keyword, is_service_name,
};

/// The most rules a resolution holds.
pub const MAX_RESOLUTION_RULES: usize = 64;
/// The most keywords a resolution names in `keywords` and declares in
/// `new_keywords`, together.
pub const MAX_RESOLUTION_KEYWORDS: usize = 64;
/// The most URL templates one rule holds.
pub const MAX_URLS: usize = 8;
/// The longest URL template, in bytes.
pub const MAX_TEMPLATE: usize = 512;
/// The heap one `match` pattern's NFA may use, in bytes: 1 MiB. Each
/// pattern is compiled as a `regex_automata::meta::Regex`, which holds a
/// forward and a reverse NFA and more besides: under the NSS syntax's 8 MiB
/// (`MAX_NFA_BYTES`) a 25-byte pattern, `(?:[a-z0-9]{1000}){100}`, held
/// about 11 MB, and 64 of them 725 MB. Registered patterns hold a few KiB.
pub const MAX_MATCH_NFA_BYTES: usize = 1 << 20;
/// The heap all of a resolution's `match` patterns may hold together once
/// compiled (as `meta::Regex::memory_usage` counts it), in bytes: 2 MiB.
/// With [`MAX_MATCH_NFA_BYTES`] this bounds a whole resolution's compile to
/// a few MB and a few tens of milliseconds, however many rules it has.
pub const MAX_RESOLUTION_MATCH_BYTES: usize = 2 << 20;
/// The cache of a pattern's lazy DFA, in bytes (each of its two, per
/// thread that searches): 128 KiB, not regex-automata's 2 MiB, so that 64
/// rules searched with long NSSs cannot grow to hundreds of MB. A pattern
/// whose lazy DFA needs more is searched without one.
const MATCH_CACHE_BYTES: usize = 128 << 10;
/// The longest URL a resolution gives, in bytes: what HTTP servers take
/// in a request line (RFC 9110 section 4.1 recommends at least 8,000
/// octets) and a `Location` header can carry. A template is short, but may
/// name the NSS many times: without this bound, one long URN made
/// gigabytes of URLs.
pub const MAX_URL: usize = 8 * 1024;

/// `[rules.resolution]` as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionFile {
    /// The owner's or registration's document naming the resolver.
    pub source: String,
    /// The service used when none is asked for (the 2012 draft's fallback).
    pub default: String,
    /// Every service offered (RFC 2483 names: I2L, I2Ls, I2C, ...).
    pub services: Vec<String>,
    /// Registered query keywords the namespace's resolvers support
    /// (section 2.3): approving the rules puts the namespace on each one's
    /// "Supported by" list (section 9.2.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Keywords of this namespace only (scope "specific", section 9.2.1),
    /// defined by its registration: registered when it is approved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_keywords: Vec<NewKeyword>,
    /// URL templates, tried in order.
    #[serde(default)]
    pub rules: Vec<ResolutionRule>,
    /// URNs and the URLs they must give.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<ResolutionExample>,
}

/// A namespace-specific keyword a registration defines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewKeyword {
    /// The token (`keywd` of section 2.3).
    pub keyword: String,
    /// What it is for.
    pub purpose: String,
}

/// One rule: for `service`, when the key's NSS matches `pattern`, these
/// URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionRule {
    /// The service (or one of its aliases).
    pub service: String,
    /// A regular expression on the NSS of the key (anchor it); named groups
    /// are variables. Absent: every NSS.
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// URL templates.
    pub urls: Vec<String>,
    /// Where the resolver documents these URLs' query as its own (its
    /// commands, like the DOI proxy's `noredirect` or `index=`), not the
    /// resource's: the URN's q-component is then not added to them (RFC
    /// 8141 section 2.3.2 has it copied to a locator's query, and lets no
    /// resolution system require it). Absent: the URLs are the resource's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolver_query: Option<String>,
    /// How the registration or the resolver's owner writes these URLs
    /// when it differs from the key's form (a URN as written, hyphens
    /// kept): said in a note when a URN's NSS as written is not its key's,
    /// while the URL given stays the key's (equivalent URNs resolve
    /// identically).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_written: Option<AsWritten>,
}

/// The form in which a registration or a resolver's owner writes a rule's
/// URL: a template over the URN as written (`{urn}`, `{nid}`, `{nss}`:
/// its parts as written, not the key's), and where that form is written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AsWritten {
    /// The URL template (`http` allowed: it is quoted, not given).
    pub url: String,
    /// The registration's section or the owner's document giving it.
    pub source: String,
}

/// An example: a URN, the service (default: the default service) and the
/// URLs it must give.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionExample {
    /// The URN.
    pub urn: String,
    /// The service asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// What it gives.
    pub urls: Vec<String>,
}

/// A compiled resolution.
#[derive(Clone, Debug)]
pub struct Resolution {
    source: String,
    default: String,
    services: Vec<String>,
    keywords: Vec<String>,
    rules: Vec<Rule>,
    plain_http: bool,
}

#[derive(Clone, Debug)]
struct Rule {
    service: String,
    pattern_text: Option<String>,
    pattern: Option<Regex>,
    urls: Vec<Template>,
    resolver_query: Option<String>,
    as_written: Option<(Template, String)>,
}

/// What a rule gives for a key: its URLs, and what the rule says of them.
pub(crate) struct Located<'r> {
    /// The URLs.
    pub(crate) urls: Vec<String>,
    /// Where the resolver documents the URLs' query as its own, if it does.
    pub(crate) resolver_query: Option<&'r str>,
    rule: &'r Rule,
}

impl Located<'_> {
    /// The URL the registration or owner writes for `urn` as written, and
    /// where, when the rule says how and the NSS as written is not the
    /// key's (`key_nss`); `None` too when that URL would pass [`MAX_URL`].
    pub(crate) fn as_written(&self, urn: &crate::Urn<'_>, key_nss: &str) -> Option<(String, &str)> {
        let (template, source) = self.rule.as_written.as_ref()?;
        if urn.nss() == key_nss {
            return None;
        }
        let vars = |name: &str| match name {
            "urn" => Some(urn.assigned_name().to_string()),
            "nid" => Some(urn.nid().to_string()),
            "nss" => Some(urn.nss().to_string()),
            _ => None,
        };
        Some((template.expand(&vars)?, source.as_str()))
    }
}

#[derive(Clone, Debug)]
struct Template {
    parts: Vec<Part>,
}

#[derive(Clone, Debug)]
enum Part {
    Text(String),
    Var {
        name: String,
        reserved: bool,
        case: Case,
    },
}

/// A case the value is put in before it is encoded (`{name:upper}`): for
/// resolvers that want an identifier as issued when the namespace's key
/// folds its case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    AsIs,
    Upper,
    Lower,
}

/// Why a URN gives no URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// The service is not a registered designator.
    UnknownService(String),
    /// The namespace does not offer the service; what it offers.
    ServiceNotOffered {
        /// The service asked for.
        service: String,
        /// What the namespace offers.
        offered: Vec<String>,
    },
    /// No rule of the service covers this NSS.
    NotCovered {
        /// The service asked for.
        service: String,
    },
    /// The URL built would hold a `.` or `..` path segment (written so, or
    /// as `%2E`): one that climbs the resolver's path once normalized
    /// (RFC 3986 sections 5.2.4 and 6.2.2.2). None is given.
    DotSegment {
        /// The service asked for.
        service: String,
    },
    /// A URL built would be longer than [`MAX_URL`] bytes (a long NSS, a
    /// template naming it many times, or a long q-component copied to its
    /// query). None is given.
    TooLong {
        /// The service asked for.
        service: String,
    },
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unresolved::UnknownService(s) => write!(
                f,
                "'{s}' is not a registered resolution service (see urnreg services)"
            ),
            Unresolved::ServiceNotOffered { service, offered } => write!(
                f,
                "the namespace offers no {service} service (it offers {})",
                offered.join(", ")
            ),
            Unresolved::NotCovered { service } => {
                write!(f, "the namespace's {service} resolver does not cover this NSS")
            }
            Unresolved::DotSegment { service } => write!(
                f,
                "the namespace's {service} resolver would put a '.' or '..' path segment in its URL for \
                 this NSS (it would climb the resolver's path: RFC 3986 section 5.2.4): refused"
            ),
            Unresolved::TooLong { service } => write!(
                f,
                "the namespace's {service} resolver would make a URL longer than {MAX_URL} bytes for this \
                 URN, its q-component included (MAX_URL): refused"
            ),
        }
    }
}

/// True if `service` (a registered name) gives one answer: I2L one URL,
/// I2R one resource, I2C one URC, I2N one URN, I=I one verdict (RFC 2483
/// section 4). The services of several are named in the plural, with a
/// final `s` (I2Ls, I2Rs, ...: section 4's names, spelled uniformly by
/// the URN draft 2012 section 9.2.2). Over HTTP, one answer is a redirect
/// and several a `text/uri-list` (RFC 2169 sections 3.1 and 3.2).
pub fn is_single_answer(service: &str) -> bool {
    !service.ends_with('s')
}

/// The registered name of `service` (its I2x name for an RFC 2169 alias)
/// in the shipped sub-registry.
pub fn service_name(service: &str) -> Option<&'static str> {
    QueryRegistry::shipped().service(service).map(|s| s.name.as_str())
}

impl ResolutionFile {
    /// Compiles the templates and patterns, and checks them: registered
    /// services, a default among them, literal `https` hosts, known
    /// variables, limits. The examples are run by the caller, which
    /// knows the namespace's key ([`crate::rules::RulesFile::compile`]).
    ///
    /// # Errors
    ///
    /// What is wrong, in words.
    pub fn compile(&self) -> Result<Resolution, String> {
        if self.source.trim().is_empty() {
            return Err("'source' is required: where the resolver is documented".into());
        }
        // RFC 2169's names become their RFC 2483 ones; a designator an
        // expert registered later is kept as written (lint checks that
        // every service is registered, against the registry it is filed in).
        let canonical = |s: &str| -> Result<String, String> {
            match service_name(s) {
                Some(name) => Ok(name.to_string()),
                None if is_service_name(s) => Ok(s.to_string()),
                None => Err(format!(
                    "'{}' is not a resolution service designator (RFC 2483 section 4)",
                    s.escape_debug()
                )),
            }
        };
        let services = self
            .services
            .iter()
            .map(|s| canonical(s))
            .collect::<Result<Vec<_>, _>>()?;
        if services.is_empty() {
            return Err("'services' is empty".into());
        }
        let default = canonical(&self.default)?;
        if !services.contains(&default) {
            return Err(format!("the default service {default} is not among 'services'"));
        }
        let named = self.keywords.len() + self.new_keywords.len();
        if named > MAX_RESOLUTION_KEYWORDS {
            return Err(format!(
                "{named} keywords named and declared, more than MAX_RESOLUTION_KEYWORDS = {MAX_RESOLUTION_KEYWORDS}"
            ));
        }
        let mut keywords = self.keywords.clone();
        for k in &self.keywords {
            if !is_keyword(k) {
                return Err(format!(
                    "'{}' in 'keywords' is not a keyword (URN draft 2012 §2.3)",
                    k.escape_debug()
                ));
            }
        }
        for new in &self.new_keywords {
            if !is_keyword(&new.keyword) {
                return Err(format!(
                    "new keyword '{}' is not a keyword (a letter, then letters and digits, each maybe \
                     after one '-'; URN draft 2012 §2.3)",
                    new.keyword.escape_debug()
                ));
            }
            if new.purpose.trim().is_empty() || new.purpose.len() > MAX_QUERY_FIELD {
                return Err(format!(
                    "new keyword '{}': 'purpose' must say what it is for, in at most {MAX_QUERY_FIELD} bytes",
                    new.keyword
                ));
            }
            if keywords.contains(&new.keyword) {
                return Err(format!("keyword '{}' is declared twice", new.keyword));
            }
            keywords.push(new.keyword.clone());
        }
        if self.rules.len() > MAX_RESOLUTION_RULES {
            return Err(format!(
                "{} rules, more than the limit of {MAX_RESOLUTION_RULES} (MAX_RESOLUTION_RULES)",
                self.rules.len()
            ));
        }
        let mut rules = Vec::with_capacity(self.rules.len());
        let mut plain_http = false;
        // What the patterns compiled so far hold: each is compiled under
        // what is left of MAX_RESOLUTION_MATCH_BYTES, so that refusing
        // costs no more than accepting.
        let mut held = 0;
        for (i, r) in self.rules.iter().enumerate() {
            let at = |m: String| format!("rule {}: {m}", i + 1);
            let service = canonical(&r.service).map_err(at)?;
            if !services.contains(&service) {
                return Err(at(format!("service {service} is not among 'services'")));
            }
            let pattern = match &r.pattern {
                None => None,
                Some(p) if p.len() > MAX_TEMPLATE => {
                    return Err(at(format!(
                        "'match' is longer than {MAX_TEMPLATE} bytes (MAX_TEMPLATE)"
                    )));
                }
                Some(p) => {
                    let re = compile_match(p, MAX_RESOLUTION_MATCH_BYTES - held).map_err(at)?;
                    held += re.memory_usage();
                    if held > MAX_RESOLUTION_MATCH_BYTES {
                        return Err(at(too_much_match()));
                    }
                    Some(re)
                }
            };
            let groups: Vec<String> = pattern
                .as_ref()
                .map(|re| {
                    re.group_info()
                        .pattern_names(regex_automata::PatternID::ZERO)
                        .flatten()
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            if r.urls.is_empty() || r.urls.len() > MAX_URLS {
                return Err(at(format!(
                    "1 to {MAX_URLS} urls (MAX_URLS), not {}",
                    r.urls.len()
                )));
            }
            // RFC 2483 section 4: I2L gives one URL, I2R one resource, I2C
            // one URC, I2N one URN; the plurals (I2Ls, ...: section 4's
            // names, spelled uniformly by the URN draft 2012 section
            // 9.2.2) give several. An HTTP resolver answers one with a
            // redirect (RFC 2169 section 3.1), which takes one URL.
            if is_single_answer(&service) && r.urls.len() > 1 {
                return Err(at(format!(
                    "{service} gives one answer (RFC 2483 section 4), not {} urls: a plural service (I2Ls, ...) gives several",
                    r.urls.len()
                )));
            }
            let mut urls = Vec::with_capacity(r.urls.len());
            for url in &r.urls {
                let (template, http) = Template::parse(url, &groups).map_err(at)?;
                plain_http |= http;
                urls.push(template);
            }
            if r.resolver_query.as_ref().is_some_and(|s| s.trim().is_empty()) {
                return Err(at(
                    "'resolver_query' must say where the resolver documents its query".into(),
                ));
            }
            let as_written = match &r.as_written {
                None => None,
                Some(w) if w.source.trim().is_empty() => {
                    return Err(at(
                        "'as_written' needs a 'source': where that form is written".into()
                    ));
                }
                // Over the URN as written: no group of `match` (which reads the key).
                Some(w) => Some((Template::parse(&w.url, &[]).map_err(at)?.0, w.source.clone())),
            };
            rules.push(Rule {
                service,
                pattern_text: r.pattern.clone(),
                pattern,
                urls,
                resolver_query: r.resolver_query.clone(),
                as_written,
            });
        }
        for s in &services {
            if !rules.iter().any(|r| &r.service == s) {
                return Err(format!("service {s} has no rule"));
            }
        }
        Ok(Resolution {
            source: self.source.clone(),
            default,
            services,
            keywords,
            rules,
            plain_http,
        })
    }
}

/// The refusal of patterns that together pass [`MAX_RESOLUTION_MATCH_BYTES`].
fn too_much_match() -> String {
    format!(
        "the 'match' patterns of the resolution need more than {MAX_RESOLUTION_MATCH_BYTES} bytes together \
         (limit MAX_RESOLUTION_MATCH_BYTES)"
    )
}

/// Compiles a `match` pattern (bytes, no Unicode classes) whose NFAs fit
/// in [`MAX_MATCH_NFA_BYTES`] and in `left`, what the resolution's budget
/// has left.
fn compile_match(pattern: &str, left: usize) -> Result<Regex, String> {
    let limit = MAX_MATCH_NFA_BYTES.min(left);
    Regex::builder()
        .syntax(
            regex_automata::util::syntax::Config::new()
                .unicode(false)
                .utf8(false)
                .nest_limit(crate::rules::limits::MAX_REGEX_NESTING),
        )
        .configure(
            Regex::config()
                // A short pattern can still blow up: `(a{1,99}){1,99}`.
                .nfa_size_limit(Some(limit))
                .onepass_size_limit(Some(limit))
                .hybrid_cache_capacity(MATCH_CACHE_BYTES),
        )
        .build(pattern)
        .map_err(|e| match e.size_limit() {
            Some(_) if limit < MAX_MATCH_NFA_BYTES => too_much_match(),
            Some(limit) => {
                format!("'match' needs an NFA larger than {limit} bytes (limit MAX_MATCH_NFA_BYTES)")
            }
            // The syntax error itself (where, and what), not the
            // builder's "error parsing pattern 0".
            None => match e.syntax_error() {
                Some(syntax) => format!(
                    "'match' does not compile: {}",
                    crate::rules::regex_syntax_error(syntax)
                ),
                None => format!("'match' does not compile: {e}"),
            },
        })
}

impl Template {
    /// Parses `text`; says whether it is plain `http`.
    fn parse(text: &str, groups: &[String]) -> Result<(Template, bool), String> {
        if text.len() > MAX_TEMPLATE {
            return Err(format!(
                "a URL template longer than {MAX_TEMPLATE} bytes (MAX_TEMPLATE)"
            ));
        }
        if text.bytes().any(|b| !b.is_ascii_graphic()) {
            return Err(format!(
                "'{text}': a URL template is printable ASCII (no space, control or non-ASCII character)"
            ));
        }
        let (http, rest) = if let Some(rest) = text.strip_prefix("https://") {
            (false, rest)
        } else if let Some(rest) = text.strip_prefix("http://") {
            (true, rest)
        } else {
            return Err(format!(
                "'{text}': a URL template starts with https:// (or http://)"
            ));
        };
        // The host, up to the first '/', is written out: no variable in it.
        let host_end = rest
            .find('/')
            .ok_or_else(|| format!("'{text}': no path after the host"))?;
        let host = &rest[..host_end];
        if host.is_empty() || host.contains(['{', '}', '@', '?', '#', '\\']) {
            return Err(format!(
                "'{text}': the host must be written literally (no variable, user or query before the path)"
            ));
        }
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' => {
                    let end = text[i..]
                        .find('}')
                        .ok_or_else(|| format!("'{text}': an unclosed '{{'"))?
                        + i;
                    let inner = &text[i + 1..end];
                    let (reserved, name) = match inner.strip_prefix('+') {
                        Some(name) => (true, name),
                        None => (false, inner),
                    };
                    let (name, case) = match name.split_once(':') {
                        None => (name, Case::AsIs),
                        Some((name, "upper")) => (name, Case::Upper),
                        Some((name, "lower")) => (name, Case::Lower),
                        Some((_, other)) => {
                            return Err(format!(
                                "'{text}': unknown modifier ':{other}' (known: :upper, :lower)"
                            ));
                        }
                    };
                    let known = matches!(name, "urn" | "nid" | "nss") || groups.iter().any(|g| g == name);
                    if !known {
                        return Err(format!(
                            "'{text}': unknown variable '{name}' (known: urn, nid, nss and the named groups of 'match')"
                        ));
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut literal)));
                    }
                    parts.push(Part::Var {
                        name: name.to_string(),
                        reserved,
                        case,
                    });
                    while chars.peek().is_some_and(|&(j, _)| j <= end) {
                        chars.next();
                    }
                }
                '}' => return Err(format!("'{text}': a '}}' without its '{{'")),
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok((Template { parts }, http))
    }

    /// The URL for these values, or `None` once it passes [`MAX_URL`]
    /// bytes (no more is made).
    fn expand(&self, vars: &dyn Fn(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        // After the template's `?`, a value is a query parameter's: its
        // `&`, `=` and `+` are encoded too, or a URN could add parameters
        // of its own (RFC 3986 section 3.4).
        let mut in_query = false;
        for part in &self.parts {
            match part {
                Part::Text(t) => {
                    in_query |= t.contains('?');
                    out.push_str(t);
                }
                Part::Var { name, reserved, case } => {
                    let value = vars(name).unwrap_or_default();
                    let value = match case {
                        Case::AsIs => value,
                        Case::Upper => value.to_ascii_uppercase(),
                        Case::Lower => value.to_ascii_lowercase(),
                    };
                    encode(&value, *reserved, in_query, &mut out);
                }
            }
            if out.len() > MAX_URL {
                return None;
            }
        }
        Some(out)
    }
}

/// Percent-encodes `value` into `out`: unreserved characters and the
/// sub-delimiters `: @` stay (but `& = +` in a `query`); a `%XX` stays;
/// `/` stays when `reserved`, except in a `.` or `..` segment, whose dots
/// are encoded.
fn encode(value: &str, reserved: bool, query: bool, out: &mut String) {
    let bytes = value.as_bytes();
    let mut i = 0;
    let mut segment_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        let keep =
            b.is_ascii_alphanumeric() || b"-._~:@!$'()*,;".contains(&b) || (!query && b"&+=".contains(&b));
        if b == b'%'
            && bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        {
            out.push_str(&value[i..i + 3]);
            i += 3;
            segment_start = false;
            continue;
        }
        if reserved && b == b'/' {
            out.push('/');
            segment_start = true;
            i += 1;
            continue;
        }
        if reserved && segment_start && b == b'.' {
            // A segment of dots alone would climb: encode its dots.
            let run = bytes[i..].iter().take_while(|&&c| c == b'.').count();
            let ends = bytes.get(i + run).is_none_or(|&c| c == b'/');
            if ends {
                for _ in 0..run {
                    out.push_str("%2E");
                }
                i += run;
                segment_start = false;
                continue;
            }
        }
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        segment_start = false;
        i += 1;
    }
}

impl Resolution {
    /// Where it is documented.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The default service.
    pub fn default_service(&self) -> &str {
        &self.default
    }

    /// Every service offered, by registered name.
    pub fn services(&self) -> &[String] {
        &self.services
    }

    /// Query keywords supported.
    pub fn keywords(&self) -> &[String] {
        &self.keywords
    }

    /// True if a template is plain `http`.
    pub fn uses_plain_http(&self) -> bool {
        self.plain_http
    }

    /// The URL templates of each rule, for people: `(service, match,
    /// templates)`.
    pub fn describe(&self) -> Vec<(String, Option<String>, Vec<String>)> {
        self.rules
            .iter()
            .map(|r| {
                let templates = r
                    .urls
                    .iter()
                    .map(|t| {
                        t.parts
                            .iter()
                            .map(|p| match p {
                                Part::Text(t) => t.clone(),
                                Part::Var { name, reserved, case } => format!(
                                    "{{{}{name}{}}}",
                                    if *reserved { "+" } else { "" },
                                    match case {
                                        Case::AsIs => "",
                                        Case::Upper => ":upper",
                                        Case::Lower => ":lower",
                                    }
                                ),
                            })
                            .collect()
                    })
                    .collect();
                (r.service.clone(), r.pattern_text.clone(), templates)
            })
            .collect()
    }

    /// The URLs of `key` (the namespace's equivalence key of a valid URN,
    /// `urn:nid:nss`) for `service` (a registered name or alias).
    ///
    /// # Errors
    ///
    /// An unknown service, one the namespace does not offer, or an NSS no
    /// rule covers.
    pub fn urls(&self, key: &str, service: &str) -> Result<Vec<String>, Unresolved> {
        self.locate(key, service).map(|found| found.urls)
    }

    /// As [`Resolution::urls`], with what the rule that gave them says.
    pub(crate) fn locate(&self, key: &str, service: &str) -> Result<Located<'_>, Unresolved> {
        let asked = service_name(service).unwrap_or(service);
        let Some(service) = self.services.iter().find(|s| s.eq_ignore_ascii_case(asked)) else {
            // An RFC 2169 name is said as it was asked, with the RFC 2483
            // service it names (`N2C (I2C)`).
            let service = if asked.eq_ignore_ascii_case(service) {
                asked.to_string()
            } else {
                format!("{service} ({asked})")
            };
            return Err(Unresolved::ServiceNotOffered {
                service,
                offered: self.services.clone(),
            });
        };
        let service = service.as_str();
        let (nid, nss) = split_key(key);
        for rule in self.rules.iter().filter(|r| r.service == service) {
            let caps = match &rule.pattern {
                None => None,
                Some(re) => {
                    let mut caps = re.create_captures();
                    re.captures(nss, &mut caps);
                    if !caps.is_match() {
                        continue;
                    }
                    Some((re, caps))
                }
            };
            let vars = |name: &str| -> Option<String> {
                match name {
                    "urn" => Some(key.to_string()),
                    "nid" => Some(nid.to_string()),
                    "nss" => Some(nss.to_string()),
                    group => caps
                        .as_ref()
                        .and_then(|(_, c)| c.get_group_by_name(group))
                        .map(|span| nss[span.range()].to_string()),
                }
            };
            let Some(urls) = rule
                .urls
                .iter()
                .map(|t| t.expand(&vars))
                .collect::<Option<Vec<String>>>()
            else {
                return Err(Unresolved::TooLong {
                    service: service.to_string(),
                });
            };
            if urls.iter().any(|url| has_dot_segment(url)) {
                return Err(Unresolved::DotSegment {
                    service: service.to_string(),
                });
            }
            return Ok(Located {
                urls,
                resolver_query: rule.resolver_query.as_deref(),
                rule,
            });
        }
        Err(Unresolved::NotCovered {
            service: service.to_string(),
        })
    }
}

/// True if the path of `url` has a `.` or `..` segment, its dots written
/// as they are or as `%2E` (the same once normalized: RFC 3986 section
/// 6.2.2.2, and browsers read them so).
fn has_dot_segment(url: &str) -> bool {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    // The authority ends at the first '/', '?' or '#'; only a '/' starts
    // a path (RFC 3986 section 3.2).
    let path = match after_scheme.find(['/', '?', '#']) {
        Some(at) if after_scheme[at..].starts_with('/') => &after_scheme[at..],
        _ => "",
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.split('/').skip(1).any(|segment| {
        let decoded = segment.replace("%2E", ".").replace("%2e", ".");
        decoded == "." || decoded == ".."
    })
}

/// `urn:nid:nss` to `(nid, nss)`.
fn split_key(key: &str) -> (&str, &str) {
    let body = key.get(4..).unwrap_or("");
    body.split_once(':').unwrap_or((body, ""))
}

/// What the namespaces' resolutions declare joins the sub-registries: a
/// resolution file's side of [`QueryRegistry`] (which knows nothing of
/// resolution files).
impl QueryRegistry {
    /// These sub-registries with what the namespaces' resolutions declare
    /// (`(nid, resolution)` of the rules in force): each keyword in a
    /// resolution's `keywords` gets the namespace on its "Supported by"
    /// list, with the resolution's source as the reference, and each of
    /// its `new_keywords` not yet held becomes a keyword of scope
    /// specific, supported by that namespace.
    pub fn with_declared<'a>(
        &self,
        declared: impl IntoIterator<Item = (&'a str, &'a ResolutionFile)>,
    ) -> QueryRegistry {
        let mut out = self.clone();
        for (nid, resolution) in declared {
            for new in &resolution.new_keywords {
                if out.keyword(&new.keyword).is_none() {
                    out.keywords.push(Keyword {
                        keyword: new.keyword.clone(),
                        purpose: new.purpose.clone(),
                        scope: Scope::Specific,
                        reference: resolution.source.clone(),
                        supported_by: Vec::new(),
                    });
                }
            }
            let supported = resolution
                .keywords
                .iter()
                .chain(resolution.new_keywords.iter().map(|k| &k.keyword));
            for keyword in supported {
                if let Some(entry) = out.keywords.iter_mut().find(|k| &k.keyword == keyword)
                    && !entry.supported_by.iter().any(|s| s.nid.eq_ignore_ascii_case(nid))
                {
                    entry.supported_by.push(SupportedBy {
                        nid: nid.to_string(),
                        reference: resolution.source.clone(),
                    });
                }
            }
        }
        out
    }

    /// [`QueryRegistry::with_declared`] for rules as stored: `(nid, the
    /// TOML text of its [rules] table)` of the registered namespaces. Only
    /// texts that mention `keywords` can declare any; the others are not
    /// parsed, and of those that are, only the resolution table is read.
    pub fn with_declared_rules<'a>(
        &self,
        rules: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> QueryRegistry {
        /// The part of a `[rules]` table this needs.
        #[derive(Deserialize)]
        struct Declared {
            #[serde(default)]
            resolution: Option<ResolutionFile>,
        }
        let declared: Vec<(&str, ResolutionFile)> = rules
            .into_iter()
            .filter(|(_, text)| text.contains("keywords"))
            .filter_map(|(nid, text)| Some((nid, toml::from_str::<Declared>(text).ok()?.resolution?)))
            .collect();
        self.with_declared(declared.iter().map(|(nid, r)| (*nid, r)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(text: &str) -> Result<Resolution, String> {
        toml::from_str::<ResolutionFile>(text).unwrap().compile()
    }

    const IETF: &str = r#"
        source = "RFC Editor"
        default = "I2L"
        services = ["I2L"]
        [[rules]]
        service = "N2L"
        match = '^rfc:(?<number>[0-9]+)$'
        urls = ["https://www.rfc-editor.org/rfc/rfc{number}"]
    "#;

    #[test]
    fn rfc2169_names_are_aliases_and_templates_expand() {
        let r = compile(IETF).unwrap();
        assert_eq!(r.services(), ["I2L"]);
        assert_eq!(
            r.urls("urn:ietf:rfc:8141", "N2L").unwrap(),
            ["https://www.rfc-editor.org/rfc/rfc8141"]
        );
        assert_eq!(
            r.urls("urn:ietf:bcp:14", "I2L"),
            Err(Unresolved::NotCovered {
                service: "I2L".into()
            })
        );
        assert!(matches!(
            r.urls("urn:ietf:rfc:1", "I2C"),
            Err(Unresolved::ServiceNotOffered { .. })
        ));
        // An RFC 2169 name is said as asked, with the service it names.
        assert_eq!(
            r.urls("urn:ietf:rfc:1", "N2C").unwrap_err().to_string(),
            "the namespace offers no N2C (I2C) service (it offers I2L)"
        );
        // Whether X2Y is registered is the registry's to say (`Registry::resolve`).
        assert!(matches!(
            r.urls("urn:ietf:rfc:1", "X2Y"),
            Err(Unresolved::ServiceNotOffered { .. })
        ));
    }

    /// Issue 22: an NSS can never inject a scheme, host, `..` path or CRLF.
    #[test]
    fn values_are_encoded_and_cannot_move_the_url() {
        let r = compile(
            r#"source = "x"
               default = "I2Ls"
               services = ["I2Ls"]
               [[rules]]
               service = "I2Ls"
               urls = ["https://r.example/{nss}", "https://r.example/p/{+nss}?u={urn}"]"#,
        )
        .unwrap();
        let urls = r.urls("urn:x:a/b?x#y/%0D%0Aa b&c=d+e", "I2Ls").unwrap();
        assert_eq!(urls[0], "https://r.example/a%2Fb%3Fx%23y%2F%0D%0Aa%20b&c=d+e");
        // In the query a value's `&`, `=` and `+` are encoded: a URN adds
        // no parameter of its own (RFC 3986 section 3.4).
        assert_eq!(
            urls[1],
            "https://r.example/p/a/b%3Fx%23y/%0D%0Aa%20b&c=d+e?u=urn:x:a%2Fb%3Fx%23y%2F%0D%0Aa%20b%26c%3Dd%2Be"
        );
        assert_eq!(
            r.urls("urn:x://other.example/", "I2Ls").unwrap()[0],
            "https://r.example/%2F%2Fother.example%2F"
        );
    }

    /// A template may name the NSS many times (160 in 512 bytes): one
    /// long URN made gigabytes of URLs. A URL past MAX_URL is refused,
    /// and no more of it is made.
    #[test]
    fn no_url_is_longer_than_max_url() {
        let many = "{nss}".repeat(80);
        let r = compile(&format!(
            r#"source = "x"
               default = "I2L"
               services = ["I2L"]
               [[rules]]
               service = "I2L"
               urls = ["https://r.example/{many}"]"#
        ))
        .unwrap();
        let fits = "a".repeat((MAX_URL - 20) / 80);
        assert!(r.urls(&format!("urn:x:{fits}"), "I2L").unwrap()[0].len() <= MAX_URL);
        let long = format!("urn:x:{}", "a".repeat(MAX_URL / 80 + 1));
        let refused = r.urls(&long, "I2L").unwrap_err();
        assert_eq!(
            refused,
            Unresolved::TooLong {
                service: "I2L".into()
            }
        );
        assert!(refused.to_string().contains("(MAX_URL)"), "{refused}");
        let huge = format!("urn:x:{}", "a".repeat(1 << 20));
        assert!(matches!(r.urls(&huge, "I2L"), Err(Unresolved::TooLong { .. })));
    }

    /// A `.` or `..` segment, as dots or as `%2E` (the same once
    /// normalized: RFC 3986 sections 5.2.4 and 6.2.2.2), is never in a URL
    /// given: the URN gets none instead of one that climbs.
    #[test]
    fn no_url_climbs_its_path() {
        let r = compile(
            r#"source = "x"
               default = "I2L"
               services = ["I2L"]
               [[rules]]
               service = "I2L"
               urls = ["https://r.example/p/{+nss}"]"#,
        )
        .unwrap();
        for nss in ["../../x", "a/%2E%2E/x", "a/%2e/x", "..", "a/.", "10.1000/../../x"] {
            assert_eq!(
                r.urls(&format!("urn:x:{nss}"), "I2L"),
                Err(Unresolved::DotSegment {
                    service: "I2L".into()
                }),
                "{nss}"
            );
        }
        assert_eq!(
            r.urls("urn:x:a/..b/.c/x..", "I2L").unwrap(),
            ["https://r.example/p/a/..b/.c/x.."]
        );
        assert!(has_dot_segment("https://h.example/a/%2E%2E"));
        assert!(!has_dot_segment("https://h.example/a?b=/../"));
        assert!(
            !has_dot_segment("https://h.example?id=a/../b"),
            "a query, no path"
        );
    }

    #[test]
    fn bad_templates_are_refused_in_words() {
        for (urls, says) in [
            (r#"["ftp://r.example/{nss}"]"#, "starts with https://"),
            (r#"["https://{nss}/x"]"#, "host must be written literally"),
            (r#"["https://r.example"]"#, "no path"),
            (r#"["https://r.example/{isbn}"]"#, "unknown variable 'isbn'"),
            (r#"["https://r.example/{nss"]"#, "unclosed"),
            (r#"["https://r.example/a b"]"#, "no space"),
            (r#"["https://r.example/é"]"#, "printable ASCII"),
        ] {
            let text = format!(
                "source = \"x\"\ndefault = \"I2L\"\nservices = [\"I2L\"]\n[[rules]]\nservice = \"I2L\"\nurls = {urls}\n"
            );
            let err = compile(&text).unwrap_err();
            assert!(err.contains(says), "{urls}: {err}");
        }
        // RFC 2483 section 4: a service of one answer has one URL per rule.
        for service in ["I2L", "N2C", "I=I"] {
            let text = format!(
                "source = \"x\"\ndefault = \"{service}\"\nservices = [\"{service}\"]\n[[rules]]\nservice = \"{service}\"\nurls = [\"https://a.example/{{nss}}\", \"https://b.example/{{nss}}\"]\n"
            );
            let err = compile(&text).unwrap_err();
            assert!(
                err.contains("gives one answer (RFC 2483 section 4), not 2 urls"),
                "{err}"
            );
        }
        let err = compile("source = \"x\"\ndefault = \"I2C\"\nservices = [\"I2L\"]\n").unwrap_err();
        assert!(err.contains("not among"), "{err}");
        let err = compile("source = \"x\"\ndefault = \"I2L\"\nservices = [\"L 2I\"]\n").unwrap_err();
        assert!(err.contains("not a resolution service designator"), "{err}");
        // A designator an expert registered later compiles; lint checks
        // that it is registered where the rules are filed.
        let err = compile("source = \"x\"\ndefault = \"I2L\"\nservices = [\"L2I\"]\n").unwrap_err();
        assert!(err.contains("default service I2L is not among"), "{err}");
        let err = compile("source = \"x\"\ndefault = \"I2L\"\nservices = [\"I2L\"]\nkeywords = [\"9\"]\n")
            .unwrap_err();
        assert!(err.contains("not a keyword"), "{err}");
    }

    /// A rule's `resolver_query` and `as_written` must each say where they
    /// come from; `as_written` is a template over the URN as written, so
    /// the groups of `match` (which reads the key) are not its variables.
    #[test]
    fn resolver_query_and_as_written_cite_their_source() {
        let rule = |extra: &str| {
            format!(
                "source = \"x\"\ndefault = \"I2L\"\nservices = [\"I2L\"]\n[[rules]]\nservice = \"I2L\"\n\
                 match = '^(?<n>[0-9]+)$'\nurls = [\"https://r.example/{{n}}\"]\n{extra}"
            )
        };
        let r = compile(&rule(
            "resolver_query = \"r.example's manual\"\n[rules.as_written]\nurl = \"http://r.example/{urn}\"\nsource = \"its registration\"\n",
        ))
        .unwrap();
        assert!(!r.uses_plain_http(), "an as_written form is quoted, never given");
        let found = r.locate("urn:xy:0012", "I2L").unwrap();
        assert_eq!(found.resolver_query, Some("r.example's manual"));
        let urn = crate::Urn::parse("URN:XY:0012").unwrap();
        assert_eq!(
            found.as_written(&urn, "0012"),
            None,
            "written as the key: nothing to say"
        );
        let urn = crate::Urn::parse("URN:XY:00-12").unwrap();
        assert_eq!(
            found.as_written(&urn, "0012"),
            Some(("http://r.example/URN:XY:00-12".to_string(), "its registration"))
        );
        for (extra, says) in [
            ("resolver_query = \" \"\n", "'resolver_query' must say where"),
            (
                "[rules.as_written]\nurl = \"http://r.example/{urn}\"\nsource = \"\"\n",
                "needs a 'source'",
            ),
            (
                "[rules.as_written]\nurl = \"http://r.example/{n}\"\nsource = \"s\"\n",
                "unknown variable 'n'",
            ),
        ] {
            let err = compile(&rule(extra)).unwrap_err();
            assert!(err.contains(says), "{extra}: {err}");
        }
    }

    /// `{name:upper}` and `{name:lower}` put a value in one case before it
    /// is encoded; any other modifier is refused.
    #[test]
    fn case_modifiers_apply_before_encoding() {
        let r = compile(
            r#"source = "x"
               default = "I2C"
               services = ["I2C"]
               [[rules]]
               service = "I2C"
               urls = ["https://r.example/{nss:upper}/{+nss:lower}"]"#,
        )
        .unwrap();
        assert_eq!(
            r.urls("urn:x:ab/c%2f", "I2C").unwrap(),
            ["https://r.example/AB%2FC%2F/ab/c%2f"]
        );
        assert_eq!(r.describe()[0].2, ["https://r.example/{nss:upper}/{+nss:lower}"]);
        let err = compile(
            "source = \"x\"\ndefault = \"I2C\"\nservices = [\"I2C\"]\n[[rules]]\nservice = \"I2C\"\nurls = [\"https://r.example/{nss:title}\"]\n",
        )
        .unwrap_err();
        assert!(err.contains("unknown modifier ':title'"), "{err}");
    }

    /// Section 9.2.1: what rules declare joins the lists; a keyword taken
    /// by one namespace is not taken again by another.
    #[test]
    fn declared_keywords_merge_in() {
        let file = |keywords: &[&str], new: &[&str]| ResolutionFile {
            source: "its registration".into(),
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            new_keywords: new
                .iter()
                .map(|k| NewKeyword {
                    keyword: k.to_string(),
                    purpose: "test".into(),
                })
                .collect(),
            ..ResolutionFile::default()
        };
        let (a, b) = (file(&["c"], &["lang"]), file(&["c", "lang"], &["lang"]));
        let merged = QueryRegistry::shipped().with_declared([("a", &a), ("b", &b)]);
        let c = merged.keyword("c").unwrap();
        assert_eq!(
            c.supported_by.iter().map(|s| s.nid.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(merged.owner("lang"), Some("a"));
        assert_eq!(merged.owner("c"), None);
        assert_eq!(merged.keyword("lang").unwrap().supported_by.len(), 2);
        assert!(
            QueryRegistry::shipped().keyword("lang").is_none(),
            "the base is unchanged"
        );
    }
}

/// A stored resolution is compiled on its first use, not with the rules a
/// check compiles: what it gets wrong is said when a URN is resolved, and
/// `RulesFile::compile` (lint, import, snapshots) still refuses it at once.
#[cfg(test)]
mod stored {
    use crate::resolve::ResolveError;
    use crate::rules::RulesFile;
    use crate::{Kind, NamespaceEntry, Registry, Status};

    const BROKEN: &str = r#"
        source = "RFC 8141 section 2"
        syntax = { regex = '^[a-z]+$' }
        [resolution]
        source = "a resolver"
        default = "I2L"
        services = ["I2L"]
        [[resolution.rules]]
        service = "I2L"
        match = '^(?<name>[a-z+$'
        urls = ["https://example.org/{name}"]
    "#;

    /// A resolution naming and declaring more keywords than the limit is
    /// refused, naming it.
    #[test]
    fn too_many_keywords_are_refused_naming_the_limit() {
        let many: String = (0..=super::MAX_RESOLUTION_KEYWORDS)
            .map(|i| format!("[[resolution.new_keywords]]\nkeyword = \"k{i}\"\npurpose = \"p\"\n"))
            .collect();
        let text = BROKEN.replace("'^(?<name>[a-z+$'", "'^(?<name>[a-z]+)$'") + &many;
        let file: RulesFile = toml::from_str(&text).unwrap();
        let refused = file.compile("xyz").unwrap_err().to_string();
        assert!(refused.contains("MAX_RESOLUTION_KEYWORDS = 64"), "{refused}");
    }

    /// However many rules a resolution has, its compiled patterns hold at
    /// most MAX_RESOLUTION_MATCH_BYTES together (64 patterns each under
    /// the NSS syntax's NFA limit held 725 MB), and one over it is refused.
    #[test]
    fn a_resolution_s_patterns_hold_at_most_their_budget() {
        use super::{MAX_RESOLUTION_MATCH_BYTES, MAX_RESOLUTION_RULES, ResolutionFile, ResolutionRule};
        let file = |pattern: &str| ResolutionFile {
            source: "a resolver".into(),
            default: "I2Ls".into(),
            services: vec!["I2Ls".into()],
            rules: (0..MAX_RESOLUTION_RULES)
                .map(|i| ResolutionRule {
                    service: "I2Ls".into(),
                    pattern: Some(pattern.into()),
                    urls: vec![format!("https://e.example/{i}/{{urn}}")],
                    ..ResolutionRule::default()
                })
                .collect(),
            ..ResolutionFile::default()
        };
        let compiled = file("(?:[a-z0-9]{100}){3}").compile().unwrap();
        let held: usize = compiled
            .rules
            .iter()
            .filter_map(|r| r.pattern.as_ref())
            .map(|re| re.memory_usage())
            .sum();
        assert!(held <= MAX_RESOLUTION_MATCH_BYTES, "{held}");
        let refused = file("(?:[a-z0-9]{100}){4}").compile().unwrap_err();
        assert!(
            refused.contains("(limit MAX_RESOLUTION_MATCH_BYTES)"),
            "{refused}"
        );
    }

    /// A `match` too large to compile names the limit it passes.
    #[test]
    fn a_huge_match_is_refused_naming_its_limit() {
        let text = BROKEN.replace("'^(?<name>[a-z+$'", "'(?<name>(a|aa)*(a{1000}){1000})'");
        let file: RulesFile = toml::from_str(&text).unwrap();
        let refused = file.compile("xyz").unwrap_err().to_string();
        assert!(refused.contains("(limit MAX_MATCH_NFA_BYTES)"), "{refused}");
    }

    #[test]
    fn a_broken_stored_resolution_is_said_at_resolve_not_at_check() {
        let file: RulesFile = toml::from_str(BROKEN).unwrap();
        let refused = file.compile("xyz").unwrap_err().to_string();
        assert!(
            refused.contains("rules for 'xyz': resolution: rule 1: 'match' does not compile"),
            "{refused}"
        );
        // Where and what (the unclosed class at byte 9), not the regex
        // builder's "error parsing pattern 0".
        assert!(
            refused.contains("regular expression error at byte 9: unclosed character class"),
            "{refused}"
        );
        let registry = Registry::from_entries([NamespaceEntry {
            nid: "xyz".into(),
            kind: Kind::Formal,
            status: Status::Registered,
            rules: Some(BROKEN.into()),
        }]);
        assert!(registry.check("urn:xyz:abc").is_valid());
        match registry.resolve("urn:xyz:abc", None) {
            Err(e @ ResolveError::Broken { .. }) => {
                assert_eq!(e.code(), "resolution-error");
                assert!(
                    e.to_string()
                        .contains("'xyz' namespace's stored resolution is broken: rule 1"),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
