//! `tools/call` answered as one JSON response (issue 27; docs/mcp.md "One JSON answer per tool
//! call"). rmcp answers every request of a stateful session as an event stream through the
//! session's task; the Streamable HTTP transport lets a server answer a request with
//! `application/json` instead, which every client accepts (a POST must accept both). A plain
//! `tools/call` on a live session — no progress token, a protocol revision this server speaks,
//! the session opened by the same credential — is run here directly, with the same checks and
//! the same result as the session's handler (`Shared::run_json`). Anything else goes to rmcp
//! unchanged, the body it was sent.

use std::collections::HashMap;
use std::sync::Mutex;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use super::handler::PROTOCOL_VERSIONS;

/// The largest request body `/mcp` reads (as rmcp is configured).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Which credential opened each live session (the session's handler keeps the same).
#[derive(Default)]
pub struct Owners(Mutex<HashMap<String, String>>);

impl Owners {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn opened(&self, session: &str, credential: String) {
        self.lock().insert(session.to_owned(), credential);
    }

    pub fn closed(&self, session: &str) {
        self.lock().remove(session);
    }

    /// Whether `credential` opened `session`.
    pub fn owned_by(&self, session: &str, credential: &str) -> bool {
        self.lock().get(session).is_some_and(|owner| owner == credential)
    }
}

/// What the fast path made of a request.
pub enum Sorted<B> {
    /// Not a plain tool call on a session: for rmcp, untouched.
    Untouched(Request<B>),
    /// Read, but not ours to answer: for rmcp, with the bytes it was sent.
    Read(Request<Full<Bytes>>),
    /// A plain tool call.
    Call(Box<PlainCall>),
    /// The body was larger than `MAX_BODY_BYTES` or could not be read.
    Refused(Response<Full<Bytes>>),
}

/// A plain tool call: its JSON-RPC id, the call, the session it names, and the request as read
/// (for rmcp, when the session is not live or not the caller's).
pub struct PlainCall {
    pub id: Value,
    pub call: CallToolRequestParams,
    pub session: String,
    pub request: Request<Full<Bytes>>,
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether the headers are those of a session's JSON request this server speaks: a session id,
/// both media types accepted, a JSON body, a known protocol revision, and no SEP-2243 standard
/// headers (rmcp checks those against the body).
fn candidate(headers: &HeaderMap) -> Option<String> {
    if headers.contains_key("mcp-method") || headers.contains_key("mcp-name") {
        return None;
    }
    let accept = header(headers, "accept")?.to_ascii_lowercase();
    let content_type = header(headers, "content-type")?.to_ascii_lowercase();
    let version = header(headers, "mcp-protocol-version")?;
    let speaks = PROTOCOL_VERSIONS.iter().any(|v| v.as_str() == version);
    let json = content_type.split(';').next().is_some_and(|e| e.trim() == "application/json");
    (accept.contains("application/json") && accept.contains("text/event-stream") && json && speaks)
        .then(|| header(headers, "mcp-session-id").map(str::to_owned))
        .flatten()
}

/// The id and call of a JSON-RPC `tools/call` request without a progress token.
fn plain_call(message: &Value) -> Option<(Value, CallToolRequestParams)> {
    if message.get("jsonrpc")? != "2.0" || message.get("method")? != "tools/call" {
        return None;
    }
    let id = message.get("id").filter(|id| id.is_string() || id.is_u64() || id.is_i64())?.clone();
    let params = message.get("params")?;
    if params.get("_meta").is_some() || params.get("task").is_some() {
        return None;
    }
    Some((id, serde_json::from_value(params.clone()).ok()?))
}

/// Sorts a `/mcp` request: a plain tool call on a session is read and taken apart; every other
/// request is left for rmcp (read only when its headers made it a candidate).
pub async fn sort<B>(req: Request<B>) -> Sorted<B>
where
    B: hyper::body::Body + Send + 'static,
    B::Error: std::fmt::Display,
{
    if req.method() != http::Method::POST {
        return Sorted::Untouched(req);
    }
    let Some(session) = candidate(req.headers()) else { return Sorted::Untouched(req) };
    let (parts, body) = req.into_parts();
    let bytes = match Limited::new(body.map_err(|e| e.to_string()), MAX_BODY_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            let too_large = e.downcast_ref::<http_body_util::LengthLimitError>().is_some();
            let (status, text) = match too_large {
                true => (StatusCode::PAYLOAD_TOO_LARGE, format!("the request body exceeds {MAX_BODY_BYTES} bytes")),
                false => (StatusCode::BAD_REQUEST, format!("the request body could not be read: {e}")),
            };
            return Sorted::Refused(plain(status, text));
        }
    };
    let call = serde_json::from_slice::<Value>(&bytes).ok().as_ref().and_then(plain_call);
    let request = Request::from_parts(parts, Full::new(bytes));
    match call {
        Some((id, call)) => Sorted::Call(Box::new(PlainCall { id, call, session, request })),
        None => Sorted::Read(request),
    }
}

fn plain(status: StatusCode, text: String) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::from(text)));
    *res.status_mut() = status;
    res.headers_mut().insert(http::header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    res
}

/// The JSON-RPC answer to call `id`: its result (JSON text, written in as it is), or its error.
pub fn answer(id: Value, outcome: Result<std::sync::Arc<str>, rmcp::ErrorData>) -> Response<Full<Bytes>> {
    let body = match outcome {
        Ok(result) => {
            let id = id.to_string();
            let mut body = String::with_capacity(result.len() + id.len() + 40);
            body.push_str(r#"{"jsonrpc":"2.0","id":"#);
            body.push_str(&id);
            body.push_str(r#","result":"#);
            body.push_str(&result);
            body.push('}');
            body
        }
        Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string(),
    };
    let mut res = Response::new(Full::new(Bytes::from(body)));
    res.headers_mut().insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_tool_call_is_taken() {
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "company_get", "arguments": {"slug": "apple"}}});
        let (id, params) = plain_call(&call).expect("a plain call");
        assert_eq!((id, params.name.as_ref()), (json!(7), "company_get"));
        let mut progress = call.clone();
        progress["params"]["_meta"] = json!({"progressToken": 1});
        assert!(plain_call(&progress).is_none(), "a progress token goes to rmcp");
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert!(plain_call(&list).is_none());
        let no_id = json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "x"}});
        assert!(plain_call(&no_id).is_none(), "a notification is not answered");
    }

    #[test]
    fn the_answer_wraps_the_result_text_as_json_rpc() {
        let res = answer(json!("a-1"), Ok(std::sync::Arc::from(r#"{"content":[],"isError":false}"#)));
        let body = res.into_body();
        let bytes = futures_util::FutureExt::now_or_never(body.collect()).and_then(Result::ok).map(|c| c.to_bytes());
        let value: Value = serde_json::from_slice(&bytes.unwrap_or_default()).unwrap_or_default();
        assert_eq!(value, json!({"jsonrpc": "2.0", "id": "a-1", "result": {"content": [], "isError": false}}));
    }

    #[test]
    fn a_candidate_has_a_session_both_media_types_json_and_a_known_revision() {
        let mut h = HeaderMap::new();
        h.insert("accept", HeaderValue::from_static("application/json, text/event-stream"));
        h.insert("content-type", HeaderValue::from_static("application/json"));
        h.insert("mcp-protocol-version", HeaderValue::from_static("2025-06-18"));
        assert_eq!(candidate(&h), None, "no session");
        h.insert("mcp-session-id", HeaderValue::from_static("abc"));
        assert_eq!(candidate(&h).as_deref(), Some("abc"));
        h.insert("mcp-protocol-version", HeaderValue::from_static("2024-11-05"));
        assert_eq!(candidate(&h), None, "a revision this server does not speak goes to rmcp");
        h.insert("mcp-protocol-version", HeaderValue::from_static("2025-11-25"));
        h.insert("accept", HeaderValue::from_static("application/json"));
        assert_eq!(candidate(&h), None, "rmcp answers 406 to a client that does not accept both");
    }
}
