//! Resolution over HTTP, as RFC 2169 section 3 has resolvers answer:
//! `GET /uri-res/{SERVICE}?{URN}`, and the short form `GET /resolve/{URN}`
//! that honours the URN's `?+s=` directive.
//!
//! - A service of one answer (I2L, I2R, I2C, I2N; RFC 2169's N2L...): 303
//!   See Other with `Location` (302 Found to an HTTP/1.0 client).
//! - A service of several (I2Ls, I2Rs, I2Cs, I2Ns): 200 `text/uri-list`
//!   (RFC 2483 section 5), one URL per line.
//! - `/uri-res/` with a service the namespace does not offer, or one that
//!   is not a registered designator: 501 Not Implemented, naming what it
//!   offers (the client asked for that service). `/resolve/` with an `s=` directive the namespace does not
//!   offer falls back to the namespace's default service, as the 2012 URN
//!   draft (section 2.3) says, and says so in an
//!   `X-Urnreg-Note` header.
//! - An invalid URN: 400 with the finding; an unregistered NID, a
//!   namespace without resolution, or an NSS no rule covers: 404.
//!
//! Lexically equivalent URNs get identical answers: URLs are made from the
//! namespace's equivalence key (RFC 2169 section 3).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, Uri, Version, header};
use axum::response::{IntoResponse, Response};

use super::http::ApiError;
use super::state::AppState;
use crate::resolve::{ResolveError, Resolved, Unresolved, is_single_answer};

/// `GET /api/keywords`: the Query Keywords sub-registry (URN draft 2012
/// section 9.2.1) as the registry holds it, with what the namespaces'
/// rules in force declare, as `urnreg keywords --format json` lists it.
pub(crate) async fn keywords(State(state): State<Arc<AppState>>) -> Response {
    axum::Json(&state.model().registry.query().keywords).into_response()
}

/// `GET /api/services`: the Resolution Service Designators sub-registry
/// (section 9.2.2).
pub(crate) async fn services(State(state): State<Arc<AppState>>) -> Response {
    axum::Json(&state.model().registry.query().services).into_response()
}

/// `GET /uri-res/{SERVICE}?{URN}`.
pub(crate) async fn uri_res(
    State(state): State<Arc<AppState>>,
    super::extract::Path(service): super::extract::Path<String>,
    RawQuery(query): RawQuery,
    version: Version,
) -> Result<Response, ApiError> {
    let urn = as_sent(&query.unwrap_or_default())?;
    if urn.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("GET /uri-res/{service}?URN: the URN is the query (RFC 2169 section 3)"),
        ));
    }
    let model = state.model();
    let resolved = model.registry.resolve(&urn, Some(&service)).map_err(error)?;
    Ok(answer(&resolved, &urn, version))
}

/// `GET /resolve/{URN}`: the URN is the rest of the path, with its
/// `?+...` or `?=...` components as the query.
pub(crate) async fn resolve(
    State(state): State<Arc<AppState>>,
    uri: Uri,
    version: Version,
) -> Result<Response, ApiError> {
    let path = uri.path().strip_prefix("/resolve/").unwrap_or("");
    let urn = match uri.query() {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    let urn = as_sent(&urn)?;
    let model = state.model();
    let resolved = model.registry.resolve(&urn, None).map_err(error)?;
    Ok(answer(&resolved, &urn, version))
}

/// The URN a client sent. Written as it is (`urn:...`), it is taken as
/// is: its `%XX` are its own (RFC 8141 section 2.1), and decoding them
/// would name another resource. Sent percent-encoded whole, as
/// `encodeURIComponent` and HTML forms do (`urn%3Aietf%3A...`), it is
/// decoded once.
///
/// # Errors
///
/// 400 when the decoded bytes are not UTF-8.
fn as_sent(raw: &str) -> Result<String, ApiError> {
    if !raw.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("urn%3a")) {
        return Ok(raw.to_string());
    }
    let out = super::api::percent_decode(raw, false);
    String::from_utf8(out).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "the percent-encoded URN is not UTF-8 once decoded (RFC 8141 section 2)".to_string(),
        )
    })
}

/// The answer to `urn` (as sent): one URL as a redirect, several as a
/// `text/uri-list` whose first line is a comment giving the URN (RFC 2169
/// Appendix A: "the first line of the text/uri-list response SHOULD be a
/// comment giving the original URI"; comments are ignored in processing,
/// so equivalent URNs still get the same list).
fn answer(resolved: &Resolved, urn: &str, version: Version) -> Response {
    let mut response = if !is_single_answer(&resolved.service) {
        let mut list = String::new();
        // A URN resolved holds no control character: one line.
        if !urn.bytes().any(|b| b.is_ascii_control()) {
            list.push_str("# ");
            list.push_str(urn);
            list.push_str("\r\n");
        }
        for url in &resolved.urls {
            list.push_str(url);
            list.push_str("\r\n");
        }
        (StatusCode::OK, [(header::CONTENT_TYPE, "text/uri-list")], list).into_response()
    } else {
        // RFC 2169 section 3: 303 to HTTP/1.1, 302 to HTTP/1.0.
        let status = if version == Version::HTTP_10 {
            StatusCode::FOUND
        } else {
            StatusCode::SEE_OTHER
        };
        let url = resolved.urls.first().cloned().unwrap_or_default();
        let mut response = (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{url}\n"),
        )
            .into_response();
        // Expanded URLs are printable ASCII (templates are checked, values
        // percent-encoded).
        if let Ok(location) = HeaderValue::from_str(&url) {
            response.headers_mut().insert(header::LOCATION, location);
        }
        response
    };
    if let Some(note) = &resolved.note
        && let Ok(value) = HeaderValue::from_str(&header_text(note))
    {
        response.headers_mut().insert("x-urnreg-note", value);
    }
    response
}

/// A note as a header field carries it: US-ASCII, as a newly defined
/// field's value should be (RFC 9110 section 5.5: other octets are
/// obs-text, which a recipient takes as opaque data or as ISO-8859-1, so
/// a UTF-8 `§` would arrive as `Â§`). The notes' own non-ASCII
/// characters are written out (`§` as `section`, `…` as `...`); any
/// other is `?`.
fn header_text(note: &str) -> String {
    let mut out = String::with_capacity(note.len());
    let mut chars = note.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '§' => {
                let plural = chars.next_if_eq(&'§').is_some();
                out.push_str(if plural { "sections" } else { "section" });
                if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                    out.push(' ');
                }
            }
            '…' => out.push_str("..."),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

fn error(e: ResolveError) -> ApiError {
    let status = match &e {
        ResolveError::Invalid { .. } => StatusCode::BAD_REQUEST,
        ResolveError::Broken { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        ResolveError::Unresolved(Unresolved::UnknownService(_) | Unresolved::ServiceNotOffered { .. }) => {
            StatusCode::NOT_IMPLEMENTED
        }
        ResolveError::Unregistered(_) | ResolveError::NoResolution(_) | ResolveError::Unresolved(_) => {
            StatusCode::NOT_FOUND
        }
    };
    ApiError::new(status, e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MAX_URL holds for the whole URL over HTTP too, q-component
    /// included: a long one gets 404 naming the limit, never a `Location`
    /// of any length (a 60 KB q-component made a 60 KB header).
    #[test]
    fn a_long_q_component_gets_no_location() {
        let registry = crate::Registry::embedded();
        let urn = format!("urn:ietf:rfc:8141?={}", "q".repeat(60_000));
        let e = error(registry.resolve(&urn, Some("N2L")).unwrap_err());
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        assert!(e.message.contains("(MAX_URL)"), "{}", e.message);
        let fits = format!("urn:ietf:rfc:8141?={}", "q".repeat(8_000));
        let resolved = registry.resolve(&fits, Some("N2L")).unwrap();
        let response = answer(&resolved, &fits, Version::HTTP_11);
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        assert_eq!(response.headers()[header::LOCATION].len(), 39 + 8_000);
    }

    /// RFC 9110 section 5.5: the note's header is US-ASCII, whatever the
    /// note quotes.
    #[test]
    fn a_note_header_is_ascii() {
        assert_eq!(
            header_text("keyword 's' appears more than once (URN draft 2012 §2.3)"),
            "keyword 's' appears more than once (URN draft 2012 section 2.3)"
        );
        assert_eq!(
            header_text("RFC 8458 §§4.2 and 4.3"),
            "RFC 8458 sections 4.2 and 4.3"
        );
        assert_eq!(header_text("'abc…' é\u{7} § 2"), "'abc...' ?? section 2");
        let registry = crate::Registry::embedded();
        let long = format!("urn:ietf:rfc:8141?+s={}", "X".repeat(100));
        let resolved = registry.resolve(&long, None).unwrap();
        let response = answer(&resolved, &long, Version::HTTP_11);
        let note = response.headers()["x-urnreg-note"].to_str().unwrap();
        assert!(note.contains("XXX...") && note.is_ascii(), "{note}");
    }
}
