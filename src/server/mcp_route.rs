//! Wiring between the accept loop and the MCP face: `/mcp` (admitted, then handed to rmcp),
//! `/mcp/guide`, and the protected-resource metadata. The MCP face decides *whether* a request
//! is refused; the HTTP face's `ApiError` decides how that looks (the JSON envelope), plus
//! the `WWW-Authenticate` challenge on a 401. rmcp's own refusals (plain-text 4xx/5xx) are
//! rewritten into the envelope too; its JSON-RPC error replies and event streams pass as sent.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, Response, StatusCode};
use warp::http::HeaderValue;

use super::{HttpResponse, RequestBody, boxed};
use crate::http::error::ApiError;
use crate::http::session::bearer_token;
use crate::mcp::{Mcp, Refusal};

/// rmcp's plain-text refusals are short; anything longer is cut before it is quoted.
const REFUSAL_TEXT_MAX: usize = 512;

/// The most of a refused request's body read to keep its connection open (an MCP message is a
/// few hundred bytes; a larger body closes the connection instead).
const REFUSED_BODY_MAX: usize = 64 * 1024;

pub async fn respond(mcp: &Mcp, req: Request<RequestBody>, client: std::net::IpAddr) -> HttpResponse {
    let path = req.uri().path();
    let readable = matches!(*req.method(), Method::GET | Method::HEAD);
    if path == "/mcp/guide" {
        return if readable {
            body(StatusCode::OK, "text/html; charset=utf-8", mcp.guide())
        } else {
            boxed(ApiError::MethodNotAllowed("the guide only answers GET".into()).to_response())
        };
    }
    if path.starts_with(crate::mcp::RESOURCE_METADATA_PATH) {
        let known = path == crate::mcp::RESOURCE_METADATA_PATH || path.ends_with("/mcp");
        return match (known, readable) {
            (false, _) => boxed(ApiError::NotFound(crate::http::error::NO_SUCH_ROUTE.into()).to_response()),
            (true, false) => boxed(ApiError::MethodNotAllowed("this document only answers GET".into()).to_response()),
            (true, true) => {
                let doc = mcp.resource_metadata(req.headers(), req.uri()).to_string();
                body(StatusCode::OK, "application/json", doc.into())
            }
        };
    }
    if path != "/mcp" {
        return boxed(ApiError::NotFound(crate::http::error::NO_SUCH_ROUTE.into()).to_response());
    }
    let token = req.headers().get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| bearer_token(v).ok());
    match mcp.admit(req.headers(), req.uri(), token, client).await {
        Ok(admitted) => enveloped(mcp.serve(req, admitted).await).await,
        Err(refusal) => {
            let unauthorized = matches!(refusal, Refusal::Unauthorized(_));
            let challenge = unauthorized.then(|| mcp.challenge(req.headers(), req.uri()));
            let mut res = boxed(api_error(refusal).to_response());
            if let Some(value) = challenge.and_then(|c| HeaderValue::from_str(&c).ok()) {
                res.headers_mut().insert(hyper::header::WWW_AUTHENTICATE, value);
            }
            // Read what the client sent, so that its connection stays usable: a body left unread
            // closes the connection after the answer unless hyper happens to hold all of it, and
            // a client that reuses the connection (the challenge invites a second request) finds
            // out only when its next request gets no answer (seen under load in
            // tests/mcp/client_check.py). Bounded, and within the body timeout.
            let _ = http_body_util::Limited::new(req.into_body(), REFUSED_BODY_MAX).collect().await;
            res
        }
    }
}

/// Passes rmcp's successes, event streams and JSON-RPC replies through; turns its plain-text
/// refusals into the envelope, with the status `ApiError` picks.
async fn enveloped(
    res: Response<http_body_util::combinators::BoxBody<Bytes, std::convert::Infallible>>,
) -> HttpResponse {
    let status = res.status();
    let content_type = res.headers().get(hyper::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let json_or_stream = content_type.starts_with("application/json") || content_type.starts_with("text/event-stream");
    if status.is_success() || status.is_informational() || json_or_stream {
        return res.map(|b| b.map_err(|never| match never {}).boxed());
    }
    let (parts, body) = res.into_parts();
    let text = body.collect().await.map(|c| c.to_bytes()).unwrap_or_default();
    let mut text = String::from_utf8_lossy(&text).into_owned();
    text.truncate(text.floor_char_boundary(REFUSAL_TEXT_MAX));
    let mut out = boxed(refusal_error(status, text).to_response());
    for name in [hyper::header::ALLOW, hyper::header::WWW_AUTHENTICATE] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}

/// The `ApiError` for one of rmcp's plain-text refusals. A body that is not valid JSON-RPC is
/// bad input (400), not an unsupported media type as rmcp answers; a body that could not be
/// read (our body timeout) is bad input too.
fn refusal_error(status: StatusCode, text: String) -> ApiError {
    match status {
        StatusCode::UNSUPPORTED_MEDIA_TYPE if text.starts_with("fail to deserialize") => {
            ApiError::BadRequest(format!("malformed JSON-RPC message: {text}"))
        }
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(text),
        StatusCode::INTERNAL_SERVER_ERROR if text.starts_with("Failed to read request body") => {
            ApiError::BadRequest(text)
        }
        StatusCode::BAD_REQUEST => ApiError::BadRequest(text),
        StatusCode::UNAUTHORIZED => ApiError::Unauthorized(text),
        StatusCode::FORBIDDEN => ApiError::Forbidden(text),
        StatusCode::NOT_FOUND => ApiError::NotFound(text),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed(text),
        StatusCode::NOT_ACCEPTABLE => ApiError::NotAcceptable(text),
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(64 * 1024),
        StatusCode::TOO_MANY_REQUESTS => ApiError::RateLimited { retry_after: 1 },
        StatusCode::SERVICE_UNAVAILABLE => ApiError::Unavailable(text),
        _ => ApiError::from(TransportAnswer { status, text }),
    }
}

/// A refusal of the MCP transport this face does not expect: our bug, logged as internal.
#[derive(Debug, thiserror::Error)]
#[error("the MCP transport answered {status}: {text}")]
struct TransportAnswer {
    status: StatusCode,
    text: String,
}

impl crate::error::ServiceError for TransportAnswer {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Internal
    }
}

fn api_error(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Unauthorized(m) => ApiError::Unauthorized(m),
        Refusal::Forbidden(m) => ApiError::Forbidden(m),
        Refusal::BadRequest(m) => ApiError::BadRequest(m),
        Refusal::Service(e) => ApiError::Service(e),
    }
}

fn body(status: StatusCode, content_type: &'static str, bytes: Bytes) -> HttpResponse {
    let mut res = Response::new(Full::new(bytes).map_err(|never| match never {}).boxed());
    *res.status_mut() = status;
    res.headers_mut().insert(hyper::header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rmcp_refusals_get_statuses_from_api_error() {
        let cases = [
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, "fail to deserialize request body x", 400),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type: ...", 415),
            (StatusCode::NOT_ACCEPTABLE, "Not Acceptable", 406),
            (StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed", 405),
            (StatusCode::NOT_FOUND, "Session not found", 404),
            (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large", 413),
            (StatusCode::INTERNAL_SERVER_ERROR, "Failed to read request body: timeout", 400),
            (StatusCode::IM_A_TEAPOT, "?", 500),
        ];
        for (status, text, expected) in cases {
            assert_eq!(refusal_error(status, text.into()).status().as_u16(), expected, "{status} {text}");
        }
    }
}
