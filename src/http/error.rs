//! The one place HTTP status codes are chosen. Every non-2xx answer of every route is the
//! envelope `{"error": code, "message": sentence, "status": code}` as JSON. Internal errors
//! are logged with their cause and reach the client as an opaque `internal`.

use std::convert::Infallible;

use warp::http::{HeaderValue, StatusCode, header};
use warp::reject::Rejection;
use warp::reply::Response;

use crate::error::{ErrorKind, ServiceError, chain};

/// Why an HTTP request failed: a service error (mapped by its kind), or a refusal of the
/// HTTP face itself (credentials, body, route, rate limit).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("too many requests; retry in {retry_after} seconds")]
    RateLimited { retry_after: u64 },
    #[error("{0}")]
    Unavailable(String),
    /// A service's error; its kind picks the status, and an internal one is logged with its
    /// whole cause chain while the client sees only "internal error".
    #[error("{0}")]
    Service(Box<dyn ServiceError>),
}

impl warp::reject::Reject for ApiError {}

impl<E: ServiceError> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError::Service(Box::new(e))
    }
}

/// The status of each service error kind: the one place a kind becomes a code.
fn kind_status(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::BadInput => StatusCode::BAD_REQUEST,
        ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Service(e) => kind_status(e.kind()),
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::RateLimited { retry_after } => Some(*retry_after),
            ApiError::Service(e) => e.retry_after(),
            _ => None,
        }
    }

    pub fn to_response(&self) -> Response {
        let status = self.status();
        let mut res = match self {
            ApiError::Service(e) if e.kind() == ErrorKind::Internal => {
                tracing::error!(cause = %chain(e.as_ref()), "internal error");
                envelope(status, "internal error")
            }
            ApiError::Service(e) => envelope_with_code(status, e.code().unwrap_or(error_code(status)), &e.to_string()),
            _ => envelope(status, &self.to_string()),
        };
        if let Some(secs) = self.retry_after() {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}

/// The machine code the envelope carries for a status.
pub fn error_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "rate_limited",
        503 => "unavailable",
        _ => "internal",
    }
}

/// Builds the error envelope for any status.
pub fn envelope(status: StatusCode, message: &str) -> Response {
    envelope_with_code(status, error_code(status), message)
}

fn envelope_with_code(status: StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": code, "message": message, "status": status.as_u16() });
    let mut res = Response::new(body.to_string().into());
    *res.status_mut() = status;
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

/// The single rejection handler (`.recover(recover)` once, on the composed routes).
pub async fn recover(rejection: Rejection) -> Result<Response, Infallible> {
    use warp::reject::{InvalidHeader, InvalidQuery, MethodNotAllowed, MissingCookie, MissingHeader};

    if let Some(e) = rejection.find::<ApiError>() {
        return Ok(e.to_response());
    }
    let error = if rejection.is_not_found() {
        ApiError::NotFound("no such route".into())
    } else if rejection.find::<MethodNotAllowed>().is_some() {
        ApiError::MethodNotAllowed("this route does not accept that HTTP method".into())
    } else if let Some(e) = rejection.find::<InvalidQuery>() {
        ApiError::BadRequest(format!("invalid query string: {e}"))
    } else if rejection.find::<MissingCookie>().is_some()
        || rejection.find::<InvalidHeader>().is_some()
        || rejection.find::<MissingHeader>().is_some()
    {
        ApiError::Unauthorized("missing or invalid credentials".into())
    } else if rejection.find::<warp::reject::PayloadTooLarge>().is_some() {
        ApiError::PayloadTooLarge(super::filters::BODY_LIMIT)
    } else if rejection.find::<warp::reject::UnsupportedMediaType>().is_some() {
        ApiError::UnsupportedMediaType("unsupported content type".into())
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        return Ok(envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal error"));
    };
    Ok(error.to_response())
}
