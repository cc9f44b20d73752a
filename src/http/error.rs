//! The one place HTTP status codes are chosen. Every non-2xx answer of every route is the
//! envelope `{"error": code, "message": sentence, "status": code}` as JSON. Internal errors
//! are logged with their cause and reach the client as an opaque `internal`.

use std::convert::Infallible;

use warp::http::{HeaderValue, StatusCode, header};
use warp::reject::Rejection;
use warp::reply::Response;

use crate::deals::DealError;
use crate::store::StoreError;

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
    Conflict(String),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("too many requests; retry in {retry_after} seconds")]
    RateLimited { retry_after: u64 },
    /// The cause is logged, never sent.
    #[error("internal error")]
    Internal(String),
    #[error("{0}")]
    Unavailable(String),
    /// 404 with its own machine code: the company is known but has no receipted signal.
    #[error("the company is tracked but has no receipted signal")]
    NoSignal,
}

impl warp::reject::Reject for ApiError {}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

impl From<DealError> for ApiError {
    fn from(e: DealError) -> Self {
        match e {
            DealError::BadFilter(m) | DealError::Invalid(m) => ApiError::BadRequest(m),
            DealError::NotFound(_) => ApiError::NotFound(e.to_string()),
            DealError::Conflict(m) => ApiError::Conflict(m),
            DealError::Store(e) => e.into(),
        }
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) | ApiError::NoSignal => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    pub fn to_response(&self) -> Response {
        if let ApiError::Internal(cause) = self {
            tracing::error!(%cause, "internal error");
        }
        let mut res = match self {
            ApiError::NoSignal => envelope_with_code(self.status(), "no_signal", &self.to_string()),
            _ => envelope(self.status(), &self.to_string()),
        };
        if let ApiError::RateLimited { retry_after } = self {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
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
    let res = if rejection.is_not_found() {
        envelope(StatusCode::NOT_FOUND, "no such route")
    } else if rejection.find::<MethodNotAllowed>().is_some() {
        envelope(StatusCode::METHOD_NOT_ALLOWED, "this route does not accept that HTTP method")
    } else if let Some(e) = rejection.find::<InvalidQuery>() {
        envelope(StatusCode::BAD_REQUEST, &format!("invalid query string: {e}"))
    } else if rejection.find::<MissingCookie>().is_some()
        || rejection.find::<InvalidHeader>().is_some()
        || rejection.find::<MissingHeader>().is_some()
    {
        envelope(StatusCode::UNAUTHORIZED, "missing or invalid credentials")
    } else if rejection.find::<warp::reject::PayloadTooLarge>().is_some() {
        envelope(StatusCode::PAYLOAD_TOO_LARGE, "the request body is too large")
    } else if rejection.find::<warp::reject::UnsupportedMediaType>().is_some() {
        envelope(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported content type")
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    };
    Ok(res)
}
