//! `/mcp` with real clients: the official Python SDK (`tests/mcp/client_check.py`: all 53
//! tools against their output schemas — a workflow started, parked at its approval and decided
//! through MCP —, bad arguments, viewers refused, 401/403/400, toolsets) and the MCP
//! Inspector CLI; plus the tool-call rate limit and a graceful exit with a session open.

use std::path::Path;
use std::time::{Duration, Instant};

use gtms::domain::Role;
use serde_json::{Value, json};

use crate::helpers::{Binary, gtms, spawn_app, spawn_app_with, spawn_app_with_clock};

fn tests_mcp_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp")
}

#[tokio::test]
async fn the_python_sdk_client_passes_every_check() {
    // The script polls workflow_get while a workflow runs: no tool-call limit gets in its way.
    let app = spawn_app_with(|l| l.mcp_rate_limit = Some(1_000_000)).await;
    let (key, _) = app.api_key("acme").await;
    let token = app.token(Role::Viewer).await;
    let admin = app.token(Role::Admin).await;
    let script = tests_mcp_dir().join("client_check.py");
    let out = tokio::process::Command::new("python3")
        .arg(&script)
        .args([&app.base, &key, &token, &admin])
        .output()
        .await
        .expect("run python3 (pip install mcp jsonschema; .ci/run does)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "client_check.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("PASS"), "{stdout}");
    app.stop().await;
}

/// A refused `/mcp` request's body is read before the answer, so the client's connection stays
/// open for the request the challenge invites: the body is sent after the head, in its own write,
/// and the metadata request follows on the same connection.
#[tokio::test]
async fn a_refused_request_leaves_its_connection_usable() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let mut conn = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    conn.write_all(head.as_bytes()).await.expect("head");
    conn.flush().await.expect("flush");
    conn.write_all(body.as_bytes()).await.expect("body");
    let next = format!("GET {} HTTP/1.1\r\nhost: {addr}\r\n\r\n", gtms::mcp::RESOURCE_METADATA_PATH);
    conn.write_all(next.as_bytes()).await.expect("second request");
    let mut read = String::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(read.contains("HTTP/1.1 401") && read.contains("HTTP/1.1 200") && read.contains("\"resource\"")) {
        let mut buf = [0u8; 8192];
        let left = deadline.saturating_duration_since(Instant::now());
        let n = tokio::time::timeout(left, conn.read(&mut buf)).await.expect("both answers within 20 s").expect("read");
        assert!(n > 0, "the connection closed after:\n{read}");
        read.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(read.find("HTTP/1.1 401") < read.find("HTTP/1.1 200"), "{read}");
    app.stop().await;
}

#[tokio::test]
async fn the_inspector_cli_lists_the_company_tools() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let url = app.url("/mcp");
    let header = format!("Authorization: Bearer {key}");
    let out = tokio::process::Command::new("npx")
        .current_dir(tests_mcp_dir())
        .args(["--no-install", "mcp-inspector", "--cli", &url, "--method", "tools/list", "--header", &header])
        .output()
        .await
        .expect("run npx (npm install in tests/mcp; .ci/run does)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "inspector failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let listed: Value = serde_json::from_str(&stdout).expect("inspector prints JSON");
    let tools = listed["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 22);
    assert!(tools.iter().all(|t| t["outputSchema"]["type"] == "object" && t["annotations"]["readOnlyHint"] == true));
    app.stop().await;
}

/// The JSON-RPC message of a Streamable HTTP answer (plain JSON or the SSE `data:` line).
fn rpc_message(body: &str) -> Value {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return v;
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("jsonrpc").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body:?}"))
}

pub(crate) struct RawSession {
    client: reqwest::Client,
    url: String,
    auth: String,
    id: String,
}

impl RawSession {
    pub(crate) async fn open(base: &str, bearer: &str) -> RawSession {
        Self::open_at(base, "/mcp", bearer).await
    }

    /// A session opened at `path` (`/mcp?toolsets=...`).
    pub(crate) async fn open_at(base: &str, path: &str, bearer: &str) -> RawSession {
        let client = reqwest::Client::new();
        let (url, auth) = (format!("{base}{path}"), format!("Bearer {bearer}"));
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
        let res = client
            .post(&url)
            .header("authorization", &auth)
            .header("accept", "application/json, text/event-stream")
            .json(&init)
            .send()
            .await
            .expect("initialize");
        assert_eq!(res.status(), 200);
        let id = res.headers()["mcp-session-id"].to_str().expect("session id").to_owned();
        let answer = rpc_message(&res.text().await.expect("body"));
        assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
        let session = RawSession { client, url, auth, id };
        session.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        session
    }

    async fn post(&self, message: Value) -> reqwest::Response {
        self.client
            .post(&self.url)
            .header("authorization", &self.auth)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.id)
            .header("mcp-protocol-version", "2025-06-18")
            .json(&message)
            .send()
            .await
            .expect("post")
    }

    pub(crate) async fn call(&self, id: u64, tool: &str, arguments: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        rpc_message(&self.post(msg).await.text().await.expect("body"))
    }
}

#[tokio::test]
async fn tool_calls_over_the_per_credential_limit_are_is_error_results() {
    let app = spawn_app_with(|l| l.mcp_rate_limit = Some(2)).await;
    let (key, _) = app.api_key("acme").await;
    let session = RawSession::open(&app.base, &key).await;
    for id in 1..=2 {
        let answer = session.call(id, "company_get", json!({"slug": "apple"})).await;
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        assert_eq!(answer["result"]["structuredContent"]["slug"], "apple");
    }
    let limited = session.call(3, "company_get", json!({"slug": "apple"})).await;
    assert_eq!(limited["result"]["isError"], true, "{limited}");
    let text = limited["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("rate_limited:") && text.contains("retry in"), "{text}");

    let other = RawSession::open(&app.base, &app.api_key("acme").await.0).await;
    let fresh = other.call(1, "company_get", json!({"slug": "apple"})).await;
    assert_eq!(fresh["result"]["isError"], false, "another credential has its own budget");
    app.stop().await;
}

#[tokio::test]
async fn the_tool_call_limit_reads_the_injected_clock() {
    let clock = std::sync::Arc::new(gtms::clock::ManualClock::at(6_000_000 + 10));
    let app = spawn_app_with_clock(clock.clone(), |l| l.mcp_rate_limit = Some(1)).await;
    let (key, _) = app.api_key("acme").await;
    let session = RawSession::open(&app.base, &key).await;
    assert_eq!(session.call(1, "company_get", json!({"slug": "apple"})).await["result"]["isError"], false);
    let limited = session.call(2, "company_get", json!({"slug": "apple"})).await;
    let text = limited["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("retry in 50 seconds"), "the window of the manual clock ends in 50 s: {text}");

    clock.advance(50);
    let next_window = session.call(3, "company_get", json!({"slug": "apple"})).await;
    assert_eq!(next_window["result"]["isError"], false, "a new window on the manual clock: {next_window}");
    app.stop().await;
}

#[tokio::test]
async fn deleting_a_session_ends_it_with_204() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let session = RawSession::open(&app.base, &key).await;
    let res = session
        .client
        .delete(&session.url)
        .header("authorization", &session.auth)
        .header("mcp-session-id", &session.id)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .expect("delete");
    assert_eq!(res.status(), 204, "200 or 204 as the transport says; never 202");
    let after = session.post(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})).await;
    assert_eq!(after.status(), 404, "the session is gone");
    app.stop().await;
}

/// A plain `tools/call` on a session is answered as one `application/json` message (issue 27),
/// a repeated `company_get` from the answer kept the first time;
/// one with a progress token, and every other request, as rmcp's event stream — the same result.
#[tokio::test]
async fn a_plain_tool_call_is_one_json_answer_and_a_progress_token_streams() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let session = RawSession::open(&app.base, &key).await;
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "company_get", "arguments": {"slug": "apple"}}});
    let res = session.post(call.clone()).await;
    assert_eq!(res.headers()["content-type"], "application/json");
    let plain: Value = res.json().await.expect("one JSON message");
    assert_eq!((plain["id"].as_u64(), plain["result"]["structuredContent"]["slug"].as_str()), (Some(5), Some("apple")));
    let mut again = call.clone();
    again["id"] = json!("again");
    let kept: Value = session.post(again).await.json().await.expect("one JSON message");
    assert_eq!((&kept["id"], &kept["result"]), (&json!("again"), &plain["result"]), "a kept answer, its own id");

    let mut progress = call.clone();
    progress["params"]["_meta"] = json!({"progressToken": "p-1"});
    let res = session.post(progress).await;
    let content_type = res.headers()["content-type"].to_str().unwrap_or_default().to_owned();
    assert!(content_type.starts_with("text/event-stream"), "{content_type}");
    let streamed = rpc_message(&res.text().await.expect("body"));
    for part in ["structuredContent", "isError", "content"] {
        assert!(streamed["result"][part] == plain["result"][part], "{part}: the same answer either way");
    }

    let unknown = session.call(6, "no_such_tool", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(unknown["error"]["message"].as_str().is_some_and(|m| m.contains("unknown tool")), "{unknown}");
    let res = session.post(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "company_get", "arguments": {"slug": "apple"}}, "extra": 1})).await;
    assert_eq!(res.status(), 200, "an extra member is tolerated as rmcp tolerates it");
    app.stop().await;
}

#[tokio::test]
async fn a_session_belongs_to_the_credential_that_opened_it() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let (other_key, _) = app.api_key("globex").await;
    let mut session = RawSession::open(&app.base, &key).await;
    session.auth = format!("Bearer {other_key}");
    let answer = session.call(1, "company_get", json!({"slug": "apple"})).await;
    assert!(answer.get("error").is_some(), "a foreign credential cannot use the session: {answer}");
    app.stop().await;
}

#[tokio::test]
async fn an_open_mcp_session_does_not_hold_a_sigterm_shutdown() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let out = gtms()
        .args(["keys", "--data"])
        .arg(&data)
        .args(["create", "--tenant", "acme", "--name", "mcp"])
        .env("GTMS_ARGON2_MEMORY_KIB", "64")
        .env("GTMS_ARGON2_ITERATIONS", "1")
        .output()
        .expect("gtms keys create");
    let key = String::from_utf8_lossy(&out.stdout).split_whitespace().next().expect("key").to_owned();
    let server = Binary::serve(&data, &[]);
    let session = RawSession::open(&server.base, &key).await;
    // The standalone SSE stream stays open until the server ends it.
    let stream = session
        .client
        .get(&session.url)
        .header("authorization", &session.auth)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session.id)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .expect("open the SSE stream");
    assert_eq!(stream.status(), 200);

    let started = Instant::now();
    let (code, log) = tokio::task::spawn_blocking(move || server.terminate()).await.expect("join");
    assert_eq!(code, Some(0), "{log}");
    assert!(started.elapsed() < Duration::from_secs(10), "shutdown took {:?}: {log}", started.elapsed());
    drop(stream);
}
