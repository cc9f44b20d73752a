//! Every kind of malformed request, sent to every route family (`/api/*`, `/auth/*`, `/ws`,
//! `/v1/enrich`, `/mcp`, `/company/*`), gets its documented status in the error envelope: one
//! table, one pass over the live app. A kind a family cannot receive (a body on a GET-only
//! family, credentials on `/auth/*`, whose login takes none and whose logout succeeds for
//! anyone) is left out of that family's rows.

use gtms::domain::Role;
use reqwest::Method;

use crate::envelope::assert_envelope;
use crate::helpers::spawn_app;

/// Who a row signs in as.
#[derive(Clone, Copy)]
enum As {
    Nobody,
    Admin,
    /// A token no server signed.
    Forged,
    /// An `Authorization` header that is not `Bearer <token>`.
    Basic,
    /// The `gtms_` key of the enrich route and the MCP company tools.
    Key,
}

struct Row {
    kind: &'static str,
    method: Method,
    path: &'static str,
    who: As,
    content_type: Option<&'static str>,
    body: Option<Vec<u8>>,
    status: u16,
    code: &'static str,
}

fn row(kind: &'static str, method: Method, path: &'static str, who: As, status: u16, code: &'static str) -> Row {
    Row { kind, method, path, who, content_type: None, body: None, status, code }
}

fn with_body(mut r: Row, content_type: &'static str, body: impl Into<Vec<u8>>) -> Row {
    r.content_type = Some(content_type);
    r.body = Some(body.into());
    r
}

fn rows() -> Vec<Row> {
    let big = vec![b'a'; 70 * 1024];
    let json = "application/json";
    vec![
        // Unknown paths in each family: the router's 404.
        row("unknown path", Method::GET, "/api/nope", As::Admin, 404, "not_found"),
        row("unknown path", Method::GET, "/auth/nope", As::Nobody, 404, "not_found"),
        row("unknown path", Method::GET, "/ws/nope", As::Admin, 404, "not_found"),
        row("unknown path", Method::GET, "/v1/enrich/nope", As::Key, 404, "not_found"),
        row("unknown path", Method::GET, "/mcp/nope", As::Admin, 404, "not_found"),
        row("unknown path", Method::GET, "/company/data/no-such-company.json", As::Nobody, 404, "not_found"),
        // Path tricks.
        row("path trick", Method::GET, "/company/data/..%2F..%2Fetc%2Fpasswd", As::Nobody, 404, "not_found"),
        row("path trick", Method::GET, "/api/memory/..%2F/x", As::Admin, 400, "bad_request"),
        // A method the route does not answer.
        row("wrong method", Method::DELETE, "/api/deals", As::Admin, 405, "method_not_allowed"),
        row("wrong method", Method::GET, "/auth/login", As::Nobody, 405, "method_not_allowed"),
        row("wrong method", Method::POST, "/ws", As::Admin, 405, "method_not_allowed"),
        row("wrong method", Method::POST, "/v1/enrich", As::Key, 405, "method_not_allowed"),
        row("wrong method", Method::PUT, "/mcp", As::Admin, 405, "method_not_allowed"),
        row("wrong method", Method::POST, "/company/data/index.json", As::Nobody, 405, "method_not_allowed"),
        // No credentials, forged ones, a header of the wrong scheme.
        row("no credentials", Method::GET, "/api/deals", As::Nobody, 401, "unauthorized"),
        row("no credentials", Method::GET, "/ws", As::Nobody, 401, "unauthorized"),
        row("no credentials", Method::GET, "/v1/enrich?domain=apple.com", As::Nobody, 401, "unauthorized"),
        row("no credentials", Method::POST, "/mcp", As::Nobody, 401, "unauthorized"),
        row("forged token", Method::GET, "/api/deals", As::Forged, 401, "unauthorized"),
        row("forged token", Method::GET, "/ws", As::Forged, 401, "unauthorized"),
        row("forged token", Method::GET, "/v1/enrich?domain=apple.com", As::Forged, 401, "unauthorized"),
        row("forged token", Method::POST, "/mcp", As::Forged, 401, "unauthorized"),
        row("wrong scheme", Method::GET, "/api/deals", As::Basic, 401, "unauthorized"),
        row("wrong scheme", Method::GET, "/ws", As::Basic, 401, "unauthorized"),
        row("wrong scheme", Method::GET, "/v1/enrich?domain=apple.com", As::Basic, 401, "unauthorized"),
        // Valid credentials, but not the request the route takes.
        row("no upgrade", Method::GET, "/ws", As::Admin, 400, "bad_request"),
        row("bad query", Method::GET, "/api/deals?stage=nowhere", As::Admin, 400, "bad_request"),
        row("bad query", Method::GET, "/api/deals?stage=a&stage=b", As::Admin, 400, "bad_request"),
        row("bad query", Method::GET, "/v1/enrich", As::Key, 400, "bad_request"),
        row("bad query", Method::GET, "/v1/enrich?domain=%zz", As::Key, 400, "bad_request"),
        // Bodies: malformed JSON, wrong types, a wrong media type, too large, none at all.
        with_body(
            row("malformed JSON", Method::POST, "/api/memory", As::Admin, 400, "bad_request"),
            json,
            "{\"scope\":",
        ),
        with_body(row("malformed JSON", Method::POST, "/auth/login", As::Nobody, 400, "bad_request"), json, "{"),
        with_body(row("malformed JSON", Method::POST, "/mcp", As::Admin, 400, "bad_request"), json, "{"),
        with_body(
            row("wrong type", Method::POST, "/api/brain/chat", As::Admin, 400, "bad_request"),
            json,
            r#"{"message":5}"#,
        ),
        with_body(
            row("wrong type", Method::POST, "/auth/login", As::Nobody, 400, "bad_request"),
            json,
            r#"{"inviteCode":[]}"#,
        ),
        with_body(
            row("media type", Method::POST, "/api/memory", As::Admin, 415, "unsupported_media_type"),
            "text/plain",
            "{}",
        ),
        with_body(
            row("media type", Method::POST, "/auth/login", As::Nobody, 415, "unsupported_media_type"),
            "text/plain",
            "{}",
        ),
        with_body(
            row("too large", Method::POST, "/api/memory", As::Admin, 413, "payload_too_large"),
            json,
            big.clone(),
        ),
        with_body(
            row("too large", Method::POST, "/auth/login", As::Nobody, 413, "payload_too_large"),
            json,
            big.clone(),
        ),
        with_body(row("too large", Method::POST, "/mcp", As::Admin, 413, "payload_too_large"), json, big),
        row("no body", Method::POST, "/api/memory", As::Admin, 415, "unsupported_media_type"),
    ]
}

#[tokio::test]
async fn each_malformed_request_kind_gets_its_status_in_the_envelope_on_each_route_family() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let (key, _) = app.api_key("acme").await;
    let mut wrong = Vec::new();
    for r in rows() {
        let mut req = app.client.request(r.method.clone(), app.url(r.path));
        req = match r.who {
            As::Nobody => req,
            As::Admin => req.bearer_auth(&admin),
            As::Forged => req.bearer_auth("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"),
            As::Basic => req.header("authorization", "Basic dXNlcjpwYXNz"),
            As::Key => req.bearer_auth(&key),
        };
        if r.path == "/mcp" {
            req = req.header("accept", "application/json, text/event-stream");
        }
        if let Some(ct) = r.content_type {
            req = req.header("content-type", ct);
        }
        if let Some(body) = r.body.clone() {
            req = req.body(body);
        }
        let res = req.send().await.expect("send");
        let status = res.status().as_u16();
        let is_json = res.headers().get("content-type").is_some_and(|v| v == "application/json");
        let body: serde_json::Value = res.json().await.unwrap_or_default();
        let envelope_ok = is_json && body["error"] == r.code && body["status"] == r.status;
        if status != r.status || !envelope_ok {
            wrong.push(format!("{} {} {} ({}): got {status} {body}", r.kind, r.method, r.path, r.status));
        }
    }
    assert!(wrong.is_empty(), "rows answered otherwise:\n{}", wrong.join("\n"));
    // One row again through the shared assertion, which also wants the request id.
    assert_envelope(app.authed(Method::GET, "/ws", &admin).send().await.expect("send"), 400, "bad_request").await;
    app.stop().await;
}
