//! `/ws` with a real WebSocket client (tokio-tungstenite): refused without a token (401
//! envelope), 400 for valid credentials without an upgrade, accepted with `?token=`, a bearer header or the cookie; a viewer receives
//! `memory.written`, `deal.updated` and `metrics.rollup` as `{type, at, data}`.

use std::time::Duration;

use futures_util::StreamExt;
use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, until};
use crate::memory::{app, write};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn ws_url(app: &TestApp, query: &str) -> String {
    format!("{}/ws{query}", app.base.replacen("http", "ws", 1))
}

/// The next JSON text message (pings skipped), within a deadline.
async fn next_json(socket: &mut Socket) -> Value {
    let deadline = Duration::from_secs(10);
    loop {
        let frame = tokio::time::timeout(deadline, socket.next()).await.expect("a message in time");
        match frame.expect("open").expect("frame") {
            Message::Text(text) => return serde_json::from_str(&text).expect("json"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

/// Reads until a message of `kind` arrives (other events may interleave).
async fn expect_event(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == kind {
            assert!(message["at"].as_str().is_some_and(|a| a.ends_with('Z')), "{message}");
            return message["data"].clone();
        }
    }
}

#[tokio::test]
async fn an_upgrade_without_a_token_is_refused_with_401() {
    let app = app().await;
    match tokio_tungstenite::connect_async(ws_url(&app, "")).await {
        Err(WsError::Http(res)) => assert_eq!(res.status().as_u16(), 401),
        other => panic!("expected a 401, got {:?}", other.map(|_| ())),
    }
    match tokio_tungstenite::connect_async(ws_url(&app, "?token=not-a-jwt")).await {
        Err(WsError::Http(res)) => assert_eq!(res.status().as_u16(), 401),
        other => panic!("expected a 401, got {:?}", other.map(|_| ())),
    }
    assert_envelope(app.get("/ws").await, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn a_request_with_valid_credentials_but_no_upgrade_is_400_never_401_or_500() {
    let app = app().await;
    let token = app.token(Role::Viewer).await;
    let bearer = app.authed(Method::GET, "/ws", &token);
    assert_envelope(bearer.send().await.expect("send"), 400, "bad_request").await;
    let both = app.authed(Method::GET, "/ws", &token).header("cookie", format!("gtms_session={token}"));
    assert_envelope(both.send().await.expect("send"), 400, "bad_request").await;
    let query = app.client.get(format!("{}/ws?token={token}", app.base)).send().await.expect("send");
    let body = assert_envelope(query, 400, "bad_request").await;
    assert_eq!(body["message"], "this route needs a WebSocket upgrade");
    // Half an upgrade (no key, a wrong version) is not an upgrade either.
    let half = app
        .authed(Method::GET, "/ws", &token)
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "8");
    assert_envelope(half.send().await.expect("send"), 400, "bad_request").await;
    // Credentials come first: a forged token without an upgrade is still a 401.
    let forged = app.authed(Method::GET, "/ws", "forged.token.value");
    assert_envelope(forged.send().await.expect("send"), 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn a_viewer_receives_memory_writes_deal_updates_and_rollups() {
    let app = app().await;
    let viewer = app.token(Role::Viewer).await;
    let admin = app.token(Role::Admin).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(ws_url(&app, &format!("?token={viewer}"))).await.expect("connect");
    let hello = next_json(&mut socket).await;
    assert_eq!((hello["type"].as_str(), hello["data"]["role"].as_str()), (Some("connected"), Some("viewer")));

    let res = write(&app, &admin, json!({ "scope": "org", "key": "tone", "value": "plain words" })).await;
    assert_eq!(res.status(), 201);
    let written = expect_event(&mut socket, "memory.written").await;
    assert_eq!(
        (written["scope"].as_str(), written["key"].as_str(), written["version"].as_u64()),
        (Some("org"), Some("tone"), Some(1))
    );
    assert!(written.get("value").is_none(), "events carry no memory values");

    let deals: Value = app
        .authed(Method::GET, "/api/deals?stage=prospecting", &admin)
        .send()
        .await
        .expect("deals")
        .json()
        .await
        .expect("json");
    let id = deals["deals"][0]["id"].as_str().expect("id").to_owned();
    let res = app
        .authed(Method::PATCH, &format!("/api/deals/{id}"), &admin)
        .json(&json!({ "nextStep": "ws test" }))
        .send()
        .await
        .expect("patch");
    assert_eq!(res.status(), 200);
    let deal = expect_event(&mut socket, "deal.updated").await;
    assert_eq!((deal["id"].as_str(), deal["nextStep"].as_str()), (Some(id.as_str()), Some("ws test")));

    let job = gtms::jobs::standard(app.state()).into_iter().find(|j| j.name == "metrics-rollup").expect("job");
    gtms::jobs::run_once(app.state().store(), &job).await;
    let rollup = expect_event(&mut socket, "metrics.rollup").await;
    assert!(rollup["views"].as_array().is_some_and(|v| v.len() == 4), "{rollup}");
    app.stop().await;
}

#[tokio::test]
async fn a_bearer_header_or_the_session_cookie_also_authenticate() {
    let app = app().await;
    let token = app.token(Role::Viewer).await;
    for (name, value) in [("authorization", format!("Bearer {token}")), ("cookie", format!("gtms_session={token}"))] {
        let mut request = ws_url(&app, "").into_client_request().expect("request");
        request.headers_mut().insert(name, value.parse().expect("header"));
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.expect(name);
        assert_eq!(next_json(&mut socket).await["type"], "connected");
    }
    app.stop().await;
}

#[tokio::test]
async fn workflow_transitions_and_approvals_are_announced() {
    let app = app().await;
    let viewer = app.token(Role::Viewer).await;
    let admin = app.token(Role::Admin).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(ws_url(&app, &format!("?token={viewer}"))).await.expect("connect");
    next_json(&mut socket).await;
    let params = json!({"accountId": "a-ws", "accountName": "Acme"});
    let id = crate::workflows::start(&app, &admin, "onboarding-manager", "client-onboarding", params).await;
    let started = expect_event(&mut socket, "workflow.started").await;
    assert_eq!(
        (started["workflowId"].as_str(), started["type"].as_str()),
        (Some(id.as_str()), Some("client-onboarding"))
    );
    let step = expect_event(&mut socket, "workflow.step").await;
    assert_eq!((step["step"].as_str(), step["outcome"].as_str()), (Some("account-review"), Some("completed")));
    let waiting = expect_event(&mut socket, "workflow.waiting").await;
    assert_eq!(waiting["step"], "plan-approval");
    let requested = expect_event(&mut socket, "approval.requested").await;
    assert!(requested["summary"].as_str().is_some_and(|s| s.contains("Acme")), "{requested}");
    let body = json!({"decision": "approve"});
    let res = app.authed(Method::POST, &format!("/api/coordinator/approvals/{id}"), &admin).json(&body).send().await;
    assert_eq!(res.expect("decide").status(), 200);
    assert_eq!(expect_event(&mut socket, "approval.decided").await["decision"], "approve");
    let done = expect_event(&mut socket, "workflow.completed").await;
    assert_eq!((done["workflowId"].as_str(), done["status"].as_str()), (Some(id.as_str()), Some("completed")));
    assert!(done.get("params").is_none() && done.get("result").is_none(), "events carry ids and statuses only");
    app.stop().await;
}

/// An approval nobody decides: `approval.expiring` at 80 % of its life (with when it
/// expires), then the gate lapses and the team is told (docs/controls.md).
#[tokio::test]
async fn an_approval_nobody_decides_warns_then_expires() {
    let app = crate::helpers::spawn_app_with(|l| {
        l.workflows =
            Some(gtms::config::WorkflowLayer { approval_expiry_client_onboarding_secs: Some(2), ..Default::default() });
    })
    .await;
    let viewer = app.token(Role::Viewer).await;
    let admin = app.token(Role::Admin).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(ws_url(&app, &format!("?token={viewer}"))).await.expect("connect");
    next_json(&mut socket).await;
    let params = json!({"accountId": "a-exp", "accountName": "Expiring Co"});
    let id = crate::workflows::start(&app, &admin, "onboarding-manager", "client-onboarding", params).await;
    let requested = expect_event(&mut socket, "approval.requested").await;
    assert_eq!(requested["workflowId"], id.as_str());
    let expiring = expect_event(&mut socket, "approval.expiring").await;
    assert_eq!(
        (expiring["workflowId"].as_str(), expiring["step"].as_str()),
        (Some(id.as_str()), Some("plan-approval"))
    );
    assert!(expiring["expiresAt"].as_str().is_some_and(|t| t.ends_with('Z')), "{expiring}");
    loop {
        let step = expect_event(&mut socket, "workflow.step").await;
        if step["step"] == "plan-approval" {
            assert_eq!(step["outcome"], "lapsed", "{step}");
            break;
        }
    }
    let told = expect_event(&mut socket, "workflow.step").await;
    assert_eq!((told["step"].as_str(), told["outcome"].as_str()), (Some("approval-expired"), Some("completed")));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_while_the_others_keep_their_events() {
    let app = app().await;
    let token = app.token(Role::Viewer).await;
    let url = ws_url(&app, &format!("?token={token}"));
    let (mut slow, _) = tokio_tungstenite::connect_async(url.as_str()).await.expect("slow client");
    assert_eq!(next_json(&mut slow).await["type"], "connected");
    let (mut fast, _) = tokio_tungstenite::connect_async(url.as_str()).await.expect("fast client");
    assert_eq!(next_json(&mut fast).await["type"], "connected");
    let events = app.state().events().clone();
    until("both subscribed", || events.subscribers() == 2).await;

    // 64 KiB events in batches the bus holds (< CAPACITY); the fast client reads each batch,
    // the slow one reads nothing, so its socket buffers fill and its sends block.
    let pad = "x".repeat(64 * 1024);
    for batch in 0..8 {
        for i in 0..100 {
            events.publish("test.flood", json!({ "batch": batch, "i": i, "pad": pad }));
        }
        loop {
            let m = next_json(&mut fast).await;
            if m["data"]["batch"] == batch && m["data"]["i"] == 99 {
                break;
            }
        }
    }
    until("the slow client left the bus", || events.subscribers() == 1).await;

    let admin = app.token(Role::Admin).await;
    let res = write(&app, &admin, json!({ "scope": "org", "key": "after-flood", "value": "still here" })).await;
    assert_eq!(res.status(), 201);
    let written = expect_event(&mut fast, "memory.written").await;
    assert_eq!(written["key"], "after-flood", "the other client still gets events");
    drop(slow);
    app.stop().await;
}
