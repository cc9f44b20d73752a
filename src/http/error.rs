//! The one place HTTP status codes are chosen. Every non-2xx answer of every route is the
//! envelope `{"error": code, "message": sentence, "status": code}` as JSON. Internal errors
//! are logged with their cause and reach the client as an opaque `internal`.

use std::convert::Infallible;

use warp::http::{HeaderValue, StatusCode, header};
use warp::reject::Rejection;
use warp::reply::Response;

use crate::error::{ErrorKind, ServiceError, chain};

/// The message of the router's own 404: no route has this path. A route's 404 (an unknown
/// id, slug or key) always says something else, so the two can be told apart.
pub const NO_SUCH_ROUTE: &str = "no such route";

/// Largest request body any route accepts (413 beyond it).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The body of every non-2xx answer.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ErrorEnvelope {
    /// A machine code: `bad_request`, `unauthorized`, `forbidden`, `not_found`,
    /// `method_not_allowed`, `not_acceptable`, `conflict`, `length_required`, `payload_too_large`,
    /// `unsupported_media_type`, `rate_limited`, `unavailable`, `internal`,
    /// or a more specific one a service names (`no_signal`).
    pub error: String,
    /// A sentence for people.
    pub message: String,
    /// The HTTP status, repeated.
    pub status: u16,
    /// Every problem of a 422 `unprocessable` answer (a CSV import: `{row, column, reason}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<serde_json::Value>,
}

impl ErrorEnvelope {
    fn json(error: &str, message: String, status: StatusCode, errors: Option<serde_json::Value>) -> String {
        let envelope = ErrorEnvelope { error: error.to_owned(), message, status: status.as_u16(), errors };
        serde_json::to_string(&envelope).unwrap_or_default()
    }
}

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
    #[error("{0}")]
    NotAcceptable(String),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    #[error("this request needs a Content-Length header")]
    LengthRequired,
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
        ErrorKind::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
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
            ApiError::NotAcceptable(_) => StatusCode::NOT_ACCEPTABLE,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::LengthRequired => StatusCode::LENGTH_REQUIRED,
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

    /// The envelope's machine code: a service's own code when it names one.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Service(e) => e.code().unwrap_or(error_code(self.status())),
            _ => error_code(self.status()),
        }
    }

    /// The status, machine code and sentence a client may see (an internal error is logged
    /// here with its cause chain and shown only as "internal error").
    pub fn public(&self) -> (StatusCode, &'static str, String) {
        let status = self.status();
        match self {
            ApiError::Service(e) if e.kind() == ErrorKind::Internal => {
                tracing::error!(cause = %chain(e.as_ref()), "internal error");
                (status, error_code(status), "internal error".to_owned())
            }
            _ => (status, self.code(), self.to_string()),
        }
    }

    /// The status and the JSON envelope of this error (an internal one is logged here).
    pub fn envelope(&self) -> (StatusCode, String) {
        let (status, code, message) = self.public();
        let details = match self {
            ApiError::Service(e) => e.details(),
            _ => None,
        };
        (status, ErrorEnvelope::json(code, message, status, details))
    }

    pub fn to_response(&self) -> Response {
        let (status, body) = self.envelope();
        let mut res = Response::new(body.into());
        *res.status_mut() = status;
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(secs) = self.retry_after() {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}

/// The machine code the envelope carries for a status.
fn error_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        409 => "conflict",
        411 => "length_required",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "rate_limited",
        503 => "unavailable",
        _ => "internal",
    }
}

/// The single rejection handler (`.recover(recover)` once, on the composed routes). Each of
/// warp's rejection kinds has one status here; a kind warp keeps private (a failed WebSocket
/// upgrade, an unreadable body) is logged with its kind and answered 400, never a silent 500.
pub async fn recover(rejection: Rejection) -> Result<Response, Infallible> {
    use warp::reject::{
        InvalidHeader, InvalidQuery, LengthRequired, MethodNotAllowed, MissingCookie, MissingHeader, PayloadTooLarge,
        UnsupportedMediaType,
    };

    if let Some(e) = rejection.find::<ApiError>() {
        return Ok(e.to_response());
    }
    let error = if rejection.is_not_found() {
        ApiError::NotFound(NO_SUCH_ROUTE.into())
    } else if rejection.find::<MethodNotAllowed>().is_some() {
        ApiError::MethodNotAllowed("this route does not accept that HTTP method".into())
    } else if let Some(e) = rejection.find::<InvalidQuery>() {
        ApiError::BadRequest(format!("invalid query string: {e}"))
    } else if let Some(e) = rejection.find::<MissingCookie>() {
        ApiError::Unauthorized(format!("missing or invalid credentials: {e}"))
    } else if let Some(e) = rejection.find::<MissingHeader>() {
        ApiError::BadRequest(e.to_string())
    } else if let Some(e) = rejection.find::<InvalidHeader>() {
        ApiError::BadRequest(e.to_string())
    } else if rejection.find::<LengthRequired>().is_some() {
        ApiError::LengthRequired
    } else if rejection.find::<PayloadTooLarge>().is_some() {
        ApiError::PayloadTooLarge(BODY_LIMIT)
    } else if rejection.find::<UnsupportedMediaType>().is_some() {
        ApiError::UnsupportedMediaType("unsupported content type".into())
    } else {
        tracing::warn!(?rejection, "a rejection without its own mapping; answered 400");
        ApiError::BadRequest("the request could not be handled as sent".into())
    };
    Ok(error.to_response())
}
