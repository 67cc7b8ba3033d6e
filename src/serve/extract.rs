//! The extractors of the handlers, over axum's own: a query string, path
//! segments or a body that cannot be read as the route takes them are
//! refused in our words (what was wrong; the limit by name and value for
//! a body too large), as JSON under the API and as a page elsewhere, never
//! with the framework's text.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, FailedToBufferBody, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::http::{ApiError, answers_json, body_limit, too_large};
use super::state::AppState;

/// A request an extractor refuses: JSON for the API and resolution paths,
/// an error page for a browser's (shown as [`super::pages`] shows errors,
/// whose module answers it).
pub(crate) struct Refused {
    pub(super) error: ApiError,
    /// Answered as a page, not as JSON.
    pub(super) page: bool,
    /// The rest of the body is left unread: the connection cannot go on.
    pub(super) close: bool,
}

impl Refused {
    fn new(path: &str, error: ApiError) -> Refused {
        Refused {
            error,
            page: !answers_json(path),
            close: false,
        }
    }
}

/// What a serde error of the query or a form says ("missing field
/// `format`"), without the framework's words before it.
fn serde_detail(e: &(dyn std::error::Error + 'static)) -> String {
    e.source().unwrap_or(e).to_string()
}

/// The query string, deserialized; refused with 400 naming what is wrong.
pub(crate) struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(e) => {
                let path = parts.uri.path();
                let why = match &e {
                    QueryRejection::FailedToDeserializeQueryString(inner) => serde_detail(inner),
                    _ => "it cannot be read".into(),
                };
                Err(Refused::new(
                    path,
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        format!("the query string is not one {path} takes: {why}"),
                    ),
                ))
            }
        }
    }
}

/// The route's path segments; a segment that is not UTF-8 once
/// percent-decoded is refused with 400 naming it.
pub(crate) struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        use axum::extract::path::ErrorKind;
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(e) => {
                let path = parts.uri.path();
                let error = match &e {
                    PathRejection::FailedToDeserializePathParams(inner) => match inner.kind() {
                        ErrorKind::InvalidUtf8InPathParam { key } => ApiError::new(
                            StatusCode::BAD_REQUEST,
                            format!(
                                "the path's {key} is not UTF-8 text once its %XX escapes are decoded \
                                 (RFC 3986 section 2.5)"
                            ),
                        ),
                        ErrorKind::ParseError { value, .. }
                        | ErrorKind::ParseErrorAtIndex { value, .. }
                        | ErrorKind::ParseErrorAtKey { value, .. } => ApiError::new(
                            StatusCode::BAD_REQUEST,
                            format!(
                                "'{}' in the path is not what {path} takes there",
                                value.escape_debug()
                            ),
                        ),
                        // The routes' own shapes: never the client's doing.
                        _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
                    },
                    _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
                };
                Err(Refused::new(path, error))
            }
        }
    }
}

/// The refusal of a body that could not be read whole: over the route's
/// limit (413, the limit named as when a `Content-Length` announces it),
/// or cut short.
fn unread_body(state: &AppState, path: &str, e: &BytesRejection) -> Refused {
    match e {
        BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_)) => Refused {
            close: true,
            ..Refused::new(path, too_large(body_limit(&state.config, path), path))
        },
        _ => Refused {
            close: true,
            ..Refused::new(
                path,
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "the request's body could not be read whole (the connection broke off or \
                     its chunked encoding is malformed)",
                ),
            )
        },
    }
}

/// The request's body, whole, within the route's limit.
pub(crate) struct Body(pub Bytes);

impl FromRequest<Arc<AppState>> for Body {
    type Rejection = Refused;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Refused> {
        let path = req.uri().path().to_string();
        Bytes::from_request(req, state)
            .await
            .map(Body)
            .map_err(|e| unread_body(state, &path, &e))
    }
}

/// A web form's fields (`application/x-www-form-urlencoded`); a form that
/// is not as our pages send it (a field missing or malformed) is refused
/// with 400 naming what is wrong.
pub(crate) struct Form<T>(pub T);

impl<T> FromRequest<Arc<AppState>> for Form<T>
where
    T: DeserializeOwned,
{
    type Rejection = Refused;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Refused> {
        use axum::extract::rejection::FormRejection;
        let path = req.uri().path().to_string();
        match axum::extract::Form::<T>::from_request(req, state).await {
            Ok(axum::extract::Form(fields)) => Ok(Form(fields)),
            Err(
                e @ (FormRejection::FailedToDeserializeForm(_)
                | FormRejection::FailedToDeserializeFormBody(_)),
            ) => Err(Refused::new(
                &path,
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "this form is not as the page sends it ({}): reload the page and send it again",
                        serde_detail(&e)
                    ),
                ),
            )),
            Err(FormRejection::InvalidFormContentType(_)) => Err(Refused::new(
                &path,
                ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "a form is sent as application/x-www-form-urlencoded",
                ),
            )),
            Err(FormRejection::BytesRejection(e)) => Err(unread_body(state, &path, &e)),
            Err(_) => Err(Refused::new(
                &path,
                ApiError::new(StatusCode::BAD_REQUEST, "the form could not be read"),
            )),
        }
    }
}
