//! `/api/brain/*` end to end: the offline demo model (per-user threads, citations, limits,
//! history folding past 500 messages, clearing), and the real provider clients against tiny
//! fake OpenAI-compatible and Anthropic servers started inside the test (model per task type,
//! injected context, bearer / `x-api-key` headers, usage -> `tokensUsed`, the 503 path with
//! the question kept unanswered), and the token ledger behind `/api/metrics/tokens`.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};

use gtms::config::LlmLayer;
use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};
use warp::Filter;
use warp::http::HeaderMap;

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app_with};
use crate::memory::write;

pub type Seen = Arc<Mutex<Vec<(HeaderMap, Value)>>>;

/// A fake model server on a free port answering every POST at `path` with `reply` (status,
/// body); it records each request's headers and JSON body.
async fn fake_model(path: &'static str, status: u16, reply: Value) -> (String, Seen) {
    fake_model_answering(path, Arc::new(AtomicU16::new(status)), reply).await
}

/// `fake_model` whose answer's status is read from `status` at each request (a test turns a
/// failing model into a working one).
pub async fn fake_model_answering(path: &'static str, status: Arc<AtomicU16>, reply: Value) -> (String, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let route = warp::post().and(warp::path::full()).and(warp::header::headers_cloned()).and(warp::body::json()).map(
        move |full: warp::path::FullPath, headers: HeaderMap, body: Value| {
            assert_eq!(full.as_str(), path);
            log.lock().expect("lock").push((headers, body));
            let code = warp::http::StatusCode::from_u16(status.load(Ordering::SeqCst)).expect("status");
            warp::reply::with_status(warp::reply::json(&reply), code)
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(warp::serve(route).incoming(listener).run());
    (format!("http://{addr}"), seen)
}

pub async fn app_with(llm: Option<LlmLayer>) -> TestApp {
    spawn_app_with(move |l| {
        l.api_rate_limit = Some(1_000_000);
        l.llm = llm;
    })
    .await
}

async fn chat(app: &TestApp, token: &str, message: &str) -> reqwest::Response {
    app.authed(Method::POST, "/api/brain/chat", token).json(&json!({ "message": message })).send().await.expect("chat")
}

async fn json_of(res: reqwest::Response, status: u16) -> Value {
    assert_eq!(res.status().as_u16(), status);
    res.json().await.expect("json")
}

#[tokio::test]
async fn the_demo_model_answers_from_memory_with_citations_per_user() {
    let app = app_with(None).await;
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;
    let body = json!({ "scope": "org", "key": "icp", "value": "Our ideal customer is a mid-market bank" });
    assert_eq!(write(&app, &admin, body).await.status(), 201);
    let reply = json_of(chat(&app, &viewer, "Who is our ideal customer?").await, 200).await;
    let response = reply["response"].as_str().expect("response");
    assert!(response.contains("demo model") && response.contains("[org/icp@1]"), "{response}");
    assert!(reply["tokensUsed"].as_u64().is_some_and(|t| t > 0));
    let conversation = reply["conversationId"].as_str().expect("id").to_owned();
    let again = json_of(chat(&app, &viewer, "And Apple?").await, 200).await;
    assert_eq!(again["conversationId"], conversation.as_str());
    assert!(again["response"].as_str().is_some_and(|r| r.contains("sec.gov")), "company facts cite EDGAR: {again}");

    let history = json_of(app.authed(Method::GET, "/api/brain/history", &viewer).send().await.expect("get"), 200).await;
    let roles: Vec<&str> =
        history["messages"].as_array().expect("messages").iter().filter_map(|m| m["role"].as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant"]);
    assert!(history["messages"][0]["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')));
    let other = json_of(app.authed(Method::GET, "/api/brain/history", &admin).send().await.expect("get"), 200).await;
    assert_eq!(other["messages"], json!([]), "threads are per user");

    let cleared =
        json_of(app.authed(Method::DELETE, "/api/brain/history", &viewer).send().await.expect("delete"), 200).await;
    assert_eq!(cleared["status"], "ok");
    assert!(cleared["message"].as_str().is_some());
    let after = json_of(app.authed(Method::GET, "/api/brain/history", &viewer).send().await.expect("get"), 200).await;
    assert_eq!(after["messages"], json!([]));
    app.stop().await;
}

#[tokio::test]
async fn bad_chat_input_is_refused() {
    let app = app_with(None).await;
    let token = app.token(Role::Viewer).await;
    assert_envelope(chat(&app, &token, &"x".repeat(8 * 1024 + 1)).await, 413, "payload_too_large").await;
    assert_envelope(chat(&app, &token, "   ").await, 400, "bad_request").await;
    let res =
        app.authed(Method::POST, "/api/brain/chat", &token).json(&json!({ "msg": "hi" })).send().await.expect("post");
    assert_envelope(res, 400, "bad_request").await;
    let res = app.client.post(app.url("/api/brain/chat")).json(&json!({ "message": "hi" })).send().await.expect("post");
    assert_envelope(res, 401, "unauthorized").await;
    assert_eq!(chat(&app, &token, &"x".repeat(8 * 1024)).await.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn a_history_past_500_messages_is_folded_into_a_summary_not_dropped() {
    let app = app_with(None).await;
    let token = app.token(Role::Viewer).await;
    for i in 0..260 {
        assert_eq!(chat(&app, &token, &format!("question number {i}")).await.status(), 200);
    }
    let history = json_of(app.authed(Method::GET, "/api/brain/history", &token).send().await.expect("get"), 200).await;
    let messages = history["messages"].as_array().expect("messages");
    assert!(messages.len() <= 500, "{}", messages.len());
    assert_eq!(messages[0]["role"], "summary");
    assert!(
        messages[0]["content"].as_str().is_some_and(|c| c.contains("question number 0")),
        "the oldest is summarised"
    );
    assert_eq!(messages.last().map(|m| m["role"].clone()), Some(json!("assistant")));
    app.stop().await;
}

pub fn openai_layer(base: &str) -> LlmLayer {
    LlmLayer {
        provider: Some("openai".into()),
        base_url: Some(format!("{base}/v1")),
        api_key: Some(gtms::config::Secret::new("sk-test-secret")),
        model_research: Some("big-model".into()),
        model_fast: Some("small-model".into()),
        prices: Some([("big-model".to_owned(), gtms::config::Price { input: 1.0, output: 2.0 })].into()),
        ..LlmLayer::default()
    }
}

#[tokio::test]
async fn the_openai_compatible_client_sends_the_research_model_context_and_bearer_key() {
    let reply = json!({
        "model": "big-model",
        "choices": [{ "message": { "role": "assistant", "content": "Banks, per org/icp@1." } }],
        "usage": { "prompt_tokens": 120, "completion_tokens": 8 }
    });
    let (base, seen) = fake_model("/v1/chat/completions", 200, reply).await;
    let app = app_with(Some(openai_layer(&base))).await;
    let admin = app.token(Role::Admin).await;
    let body = json!({ "scope": "org", "key": "icp", "value": "Mid-market banks" });
    assert_eq!(write(&app, &admin, body).await.status(), 201);
    let res = json_of(chat(&app, &admin, "Who do we sell to?").await, 200).await;
    assert_eq!((res["response"].as_str(), res["tokensUsed"].as_u64()), (Some("Banks, per org/icp@1."), Some(128)));
    let (headers, request) = seen.lock().expect("lock").last().cloned().expect("a request");
    assert_eq!(headers["authorization"], "Bearer sk-test-secret");
    assert_eq!(request["model"], "big-model", "the Brain uses the research model");
    let system = request["messages"][0]["content"].as_str().expect("system");
    assert_eq!(request["messages"][0]["role"], "system");
    assert!(system.contains("[org/icp@1] icp: Mid-market banks"), "{system}");
    assert_eq!(request["messages"].as_array().map(Vec::len), Some(2));

    let config = json_of(app.authed(Method::GET, "/api/config", &admin).send().await.expect("config"), 200).await;
    assert!(!config.to_string().contains("sk-test-secret"));
    let calls = app.state().store().model_calls().await.expect("ledger");
    let call = calls.last().expect("recorded");
    assert_eq!(
        (call.model.as_str(), call.task.as_str(), call.input_tokens, call.cost_micros),
        ("big-model", "research", 120, 136)
    );
    let job = gtms::jobs::standard(app.state()).into_iter().find(|j| j.name == "metrics-rollup").expect("job");
    gtms::jobs::run_once(app.state().store(), &job).await;
    let tokens =
        json_of(app.authed(Method::GET, "/api/metrics/tokens", &admin).send().await.expect("tokens"), 200).await;
    let brain = tokens["byWorker"].as_array().expect("byWorker").iter().find(|w| w["worker"] == "brain").cloned();
    assert!(brain.is_some_and(|b| b["inputTokens"].as_u64() >= Some(120)), "{tokens}");

    for i in 0..3 {
        let big = json!({ "scope": "worker:sdr", "key": format!("n{i}"), "value": "y".repeat(16 * 1024) });
        assert_eq!(write(&app, &admin, big).await.status(), 201);
    }
    let res = app.authed(Method::POST, "/api/memory/compress/sdr", &admin).send().await.expect("compress");
    assert_eq!(json_of(res, 200).await["compressed"], true);
    let (_, request) = seen.lock().expect("lock").last().cloned().expect("a request");
    assert_eq!(request["model"], "small-model", "compression uses the fast model");
    app.stop().await;
}

#[tokio::test]
async fn the_anthropic_client_sends_x_api_key_and_reads_usage() {
    let reply = json!({
        "model": "claude-test",
        "content": [{ "type": "text", "text": "Hello from Claude." }],
        "usage": { "input_tokens": 50, "output_tokens": 5 }
    });
    let (base, seen) = fake_model("/v1/messages", 200, reply).await;
    let layer = LlmLayer {
        provider: Some("anthropic".into()),
        base_url: Some(base),
        api_key: Some(gtms::config::Secret::new("ant-secret")),
        model_research: Some("claude-test".into()),
        ..LlmLayer::default()
    };
    let app = app_with(Some(layer)).await;
    let token = app.token(Role::Viewer).await;
    let res = json_of(chat(&app, &token, "hi").await, 200).await;
    assert_eq!((res["response"].as_str(), res["tokensUsed"].as_u64()), (Some("Hello from Claude."), Some(55)));
    let (headers, request) = seen.lock().expect("lock").last().cloned().expect("a request");
    assert_eq!(headers["x-api-key"], "ant-secret");
    assert_eq!(headers["anthropic-version"], "2023-06-01");
    assert!(headers.get("authorization").is_none());
    assert_eq!(request["model"], "claude-test");
    assert!(request["system"].as_str().is_some_and(|s| s.contains("Organisation memory")));
    assert_eq!(request["messages"], json!([{ "role": "user", "content": "hi" }]));
    app.stop().await;
}

#[tokio::test]
async fn a_provider_error_is_a_503_and_the_question_stays_unanswered() {
    let (base, _) = fake_model("/v1/chat/completions", 500, json!({ "error": "overloaded" })).await;
    let app = app_with(Some(openai_layer(&base))).await;
    let token = app.token(Role::Viewer).await;
    assert_envelope(chat(&app, &token, "are you there?").await, 503, "unavailable").await;
    let history = json_of(app.authed(Method::GET, "/api/brain/history", &token).send().await.expect("get"), 200).await;
    assert_eq!(history["messages"][0]["content"], "are you there?");
    assert_eq!(history["messages"][0]["unanswered"], true);
    assert_eq!(history["messages"].as_array().map(Vec::len), Some(1));

    let unreachable = LlmLayer { base_url: Some("http://127.0.0.1:9/v1".into()), ..openai_layer(&base) };
    let app2 = app_with(Some(unreachable)).await;
    let token = app2.token(Role::Viewer).await;
    assert_envelope(chat(&app2, &token, "hello?").await, 503, "unavailable").await;
    app.stop().await;
    app2.stop().await;
}
