//! Wiring between the accept loop and the MCP face: `/mcp` (admitted, then handed to rmcp),
//! `/mcp/guide`, and the protected-resource metadata. The MCP face decides *whether* a request
//! is refused; the HTTP face's `ApiError` decides how that looks (the JSON envelope), plus
//! the `WWW-Authenticate` challenge on a 401.

use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use warp::http::HeaderValue;

use super::{BoxError, HttpResponse};
use crate::http::error::{ApiError, envelope};
use crate::http::session::bearer_token;
use crate::mcp::{Mcp, Refusal};

pub async fn respond(mcp: &Mcp, req: Request<Incoming>) -> HttpResponse {
    let path = req.uri().path();
    let readable = matches!(*req.method(), Method::GET | Method::HEAD);
    if path == "/mcp/guide" {
        return if readable {
            body(StatusCode::OK, "text/html; charset=utf-8", mcp.guide())
        } else {
            boxed(envelope(StatusCode::METHOD_NOT_ALLOWED, "the guide only answers GET"))
        };
    }
    if path.starts_with(crate::mcp::RESOURCE_METADATA_PATH) {
        let known = path == crate::mcp::RESOURCE_METADATA_PATH || path.ends_with("/mcp");
        return match (known, readable) {
            (false, _) => boxed(envelope(StatusCode::NOT_FOUND, "no such route")),
            (true, false) => boxed(envelope(StatusCode::METHOD_NOT_ALLOWED, "this document only answers GET")),
            (true, true) => {
                let doc = mcp.resource_metadata(req.headers(), req.uri()).to_string();
                body(StatusCode::OK, "application/json", doc.into())
            }
        };
    }
    if path != "/mcp" {
        return boxed(envelope(StatusCode::NOT_FOUND, "no such route"));
    }
    let token = req.headers().get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| bearer_token(v).ok());
    match mcp.admit(req.headers(), req.uri(), token).await {
        Ok(admitted) => mcp.serve(req, admitted).await.map(|b| b.map_err(|never| match never {}).boxed()),
        Err(refusal) => {
            let unauthorized = matches!(refusal, Refusal::Unauthorized(_));
            let challenge = unauthorized.then(|| mcp.challenge(req.headers(), req.uri()));
            let mut res = boxed(api_error(refusal).to_response());
            if let Some(value) = challenge.and_then(|c| HeaderValue::from_str(&c).ok()) {
                res.headers_mut().insert(hyper::header::WWW_AUTHENTICATE, value);
            }
            res
        }
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

fn boxed(res: warp::reply::Response) -> HttpResponse {
    res.map(|b| b.map_err(|e| Box::new(e) as BoxError).boxed())
}

fn body(status: StatusCode, content_type: &'static str, bytes: bytes::Bytes) -> HttpResponse {
    let mut res = Response::new(Full::new(bytes).map_err(|never| match never {}).boxed());
    *res.status_mut() = status;
    res.headers_mut().insert(hyper::header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}
