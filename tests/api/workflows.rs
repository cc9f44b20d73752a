//! Workers and workflows end to end on the demo engine: every startable type through the API,
//! approvals (viewer 403, twice 409, unknown 404), rejections, bad starts, the coordinator's
//! nine steps with children, worker status running → waiting → stopped (a fake model server
//! that answers only when the test lets it), a failing activity retried then failing the
//! workflow, notifications to a fake Slack-compatible webhook, `/ws` events, and — with the
//! real binary — an approval gate and an SLA timer surviving `kill -9`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::{Mutex, Notify, Semaphore};
use warp::Filter;

use crate::envelope::assert_envelope;
use crate::helpers::{Binary, TestApp, eventually, login, spawn_app_with};

pub async fn app() -> TestApp {
    spawn_app_with(|l| l.api_rate_limit = Some(1_000_000)).await
}

async fn call(app: &TestApp, token: &str, method: Method, path: &str, body: Option<Value>) -> reqwest::Response {
    let mut req = app.authed(method, path, token);
    if let Some(body) = body {
        req = req.json(&body);
    }
    req.send().await.expect("request")
}

async fn ok(res: reqwest::Response, status: u16) -> Value {
    let code = res.status().as_u16();
    let body: Value = res.json().await.expect("json");
    assert_eq!(code, status, "{body}");
    body
}

pub async fn start(app: &TestApp, token: &str, worker: &str, kind: &str, params: Value) -> String {
    let body = json!({ "workflowType": kind, "params": params });
    let res = ok(call(app, token, Method::POST, &format!("/api/workers/{worker}/start"), Some(body)).await, 202).await;
    assert_eq!((res["status"].as_str(), res["worker"].as_str()), (Some("started"), Some(worker)));
    res["workflowId"].as_str().expect("id").to_owned()
}

/// Waits until the workflow at `base` (which may not exist yet) satisfies `done`.
async fn wait_workflow(base: &str, token: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let done = &done;
    eventually(&format!("workflow {id} reaching the expected state"), || async move {
        Some(fetch_workflow(base, token, id).await).filter(|w| done(w))
    })
    .await
}

async fn fetch_workflow(base: &str, token: &str, id: &str) -> Value {
    let res = reqwest::Client::new()
        .get(format!("{base}/api/coordinator/workflows/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("get");
    res.json().await.expect("json")
}

/// `wait_workflow` on a test app.
pub async fn wait_for(app: &TestApp, token: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    wait_workflow(&app.base, token, id, done).await
}

fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |w| w["status"] == status
}

async fn decide(app: &TestApp, token: &str, id: &str, decision: &str) -> reqwest::Response {
    let body = json!({ "decision": decision, "comment": "checked by the test" });
    call(app, token, Method::POST, &format!("/api/coordinator/approvals/{id}"), Some(body)).await
}

#[tokio::test]
async fn lead_qualification_scores_from_receipts_and_the_seeded_call() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let params =
        json!({"leadId": "lead-construction-partners", "company": "Construction Partners", "contact": "ops lead"});
    let id = start(&app, &admin, "sdr", "lead-qualification", params).await;
    let w = wait_for(&app, &admin, &id, status_is("completed")).await;
    let steps: Vec<&str> =
        w["steps"].as_array().expect("steps").iter().map(|s| s["name"].as_str().expect("name")).collect();
    assert_eq!(steps, ["research", "call-analysis", "score", "route", "record"]);
    assert!(
        w["steps"].as_array().expect("steps").iter().all(|s| s["status"] == "completed" && s["finishedAt"].is_string())
    );
    let result = &w["result"];
    assert_eq!(result["company"]["slug"], "construction-partners", "{result}");
    let receipt = &result["receipts"][0];
    assert!(
        receipt["quote"].as_str().is_some_and(|q| !q.is_empty())
            && receipt["url"].as_str().is_some_and(|u| u.starts_with("https://www.sec.gov/")),
        "{receipt}"
    );
    assert_eq!(result["call"]["analysis"]["sentiment"], "positive");
    assert!(result["score"].as_i64().is_some_and(|s| (0..=100).contains(&s)));
    let memory =
        ok(call(&app, &admin, Method::GET, "/api/memory/worker:sdr/leads.lead-construction-partners", None).await, 200)
            .await;
    assert!(memory["value"].as_str().is_some_and(|v| v.contains("score")), "{memory}");
    assert_eq!(w["currentStep"], Value::Null);
    app.stop().await;
}

#[tokio::test]
async fn onboarding_waits_for_approval_and_decisions_are_checked() {
    let app = app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let params = json!({"accountId": "acct-new-1", "accountName": "Home Depot", "tier": "premium"});
    let id = start(&app, &admin, "onboarding-manager", "client-onboarding", params).await;
    let w = wait_for(&app, &admin, &id, status_is("waiting")).await;
    assert_eq!((w["currentStep"].as_str(), w["approval"]["pending"].as_bool()), (Some("plan-approval"), Some(true)));
    let pending = ok(call(&app, &viewer, Method::GET, "/api/coordinator/approvals", None).await, 200).await;
    let mine = pending["approvals"]
        .as_array()
        .expect("list")
        .iter()
        .find(|a| a["workflowId"] == id.as_str())
        .cloned()
        .expect("listed");
    assert_eq!(
        (mine["step"].as_str(), mine["type"].as_str(), mine["worker"].as_str()),
        (Some("plan-approval"), Some("client-onboarding"), Some("onboarding-manager"))
    );
    let workers = ok(call(&app, &viewer, Method::GET, "/api/workers", None).await, 200).await;
    let olive = workers["workers"]
        .as_array()
        .expect("array")
        .iter()
        .find(|w| w["id"] == "onboarding-manager")
        .cloned()
        .expect("worker");
    assert_eq!((olive["status"].as_str(), olive["activeWorkflows"][0].as_str()), (Some("waiting"), Some(id.as_str())));

    assert_envelope(decide(&app, &viewer, &id, "approve").await, 403, "forbidden").await;
    assert_envelope(decide(&app, &admin, "client-onboarding-000000000000", "approve").await, 404, "not_found").await;
    assert_envelope(decide(&app, &admin, &id, "maybe").await, 400, "bad_request").await;
    let decided = ok(decide(&app, &admin, &id, "approve").await, 200).await;
    assert_eq!(
        (decided["workflowId"].as_str(), decided["decision"].as_str(), decided["status"].as_str()),
        (Some(id.as_str()), Some("approve"), Some("running"))
    );
    assert_envelope(decide(&app, &admin, &id, "approve").await, 409, "conflict").await;
    let audited = ok(call(&app, &admin, Method::GET, &format!("/api/audit?target={id}"), None).await, 200).await;
    let entries = audited["entries"].as_array().expect("entries");
    let recorded: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e["action"].as_str().unwrap_or(""), e["detail"]["decision"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(recorded, [("approval.decide", "approve"), ("workflow.start", "")], "{audited}");
    let w = wait_for(&app, &admin, &id, status_is("completed")).await;
    assert_eq!(w["steps"].as_array().expect("steps").len(), 5, "{w}");
    assert_eq!(w["approval"]["decision"], "approve");
    assert_eq!(w["result"]["tier"], "premium");
    ok(call(&app, &admin, Method::GET, "/api/memory/worker:onboarding-manager/onboarding.acct-new-1", None).await, 200)
        .await;
    ok(call(&app, &admin, Method::GET, "/api/memory/org/onboarding.acct-new-1", None).await, 200).await;
    let outbox = app.state().store().outbox().await.expect("outbox");
    let events: Vec<&str> =
        outbox.iter().filter(|n| n.workflow_id.as_deref() == Some(id.as_str())).map(|n| n.event.as_str()).collect();
    assert_eq!(events, ["approval.requested", "workflow.completed"], "{outbox:?}");
    app.stop().await;
}

/// Every page of `path` at `limit` per page, following `nextCursor`:
/// the ids under `key` in order, and the `total` each page said.
async fn all_pages(app: &TestApp, token: &str, path: &str, key: &str, limit: usize) -> (Vec<String>, Vec<u64>) {
    let (mut ids, mut totals, mut cursor) = (Vec::new(), Vec::new(), None::<String>);
    loop {
        let at = cursor.as_deref().map_or(String::new(), |c| format!("&cursor={c}"));
        let join = if path.contains('?') { '&' } else { '?' };
        let page = ok(call(app, token, Method::GET, &format!("{path}{join}limit={limit}{at}"), None).await, 200).await;
        let items = page[key].as_array().expect("items");
        assert!(items.len() <= limit, "{page}");
        ids.extend(items.iter().map(|w| w["workflowId"].as_str().expect("id").to_owned()));
        totals.push(page["total"].as_u64().expect("total"));
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (ids, totals),
        }
    }
}

#[tokio::test]
async fn workflow_lists_and_approvals_page_with_cursors() {
    let app = app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let mut started = Vec::new();
    for n in 0..5 {
        let params = json!({"accountId": format!("acct-page-{n}"), "accountName": "Home Depot", "tier": "standard"});
        started.push(start(&app, &admin, "onboarding-manager", "client-onboarding", params).await);
    }
    for id in &started {
        wait_for(&app, &admin, id, status_is("waiting")).await;
    }
    let whole = ok(call(&app, &viewer, Method::GET, "/api/coordinator/workflows", None).await, 200).await;
    let newest_first: Vec<&str> =
        whole["workflows"].as_array().expect("list").iter().filter_map(|w| w["workflowId"].as_str()).collect();
    assert_eq!((whole["total"].as_u64(), whole.get("nextCursor")), (Some(5), None), "one page holds all: {whole}");

    let (paged, totals) =
        all_pages(&app, &viewer, "/api/coordinator/workflows?type=client-onboarding", "workflows", 2).await;
    assert_eq!(paged, newest_first, "two at a time, the same workflows in the same order");
    assert_eq!(totals, [5, 5, 5]);
    let filtered = "/api/coordinator/workflows?worker=onboarding-manager&status=waiting";
    assert_eq!(all_pages(&app, &viewer, filtered, "workflows", 3).await.0, newest_first);
    let none = ok(call(&app, &viewer, Method::GET, "/api/coordinator/workflows?status=failed", None).await, 200).await;
    assert_eq!((none["total"].as_u64(), none["workflows"].as_array().map(Vec::len)), (Some(5 - 5), Some(0)));

    let whole = ok(call(&app, &viewer, Method::GET, "/api/coordinator/approvals", None).await, 200).await;
    let requested: Vec<&str> =
        whole["approvals"].as_array().expect("list").iter().filter_map(|a| a["requestedAt"].as_str()).collect();
    assert!(requested.len() == 5 && requested.is_sorted(), "oldest request first: {whole}");
    let oldest_first: Vec<&str> =
        whole["approvals"].as_array().expect("list").iter().filter_map(|a| a["workflowId"].as_str()).collect();
    let (inbox, totals) = all_pages(&app, &viewer, "/api/coordinator/approvals", "approvals", 2).await;
    assert_eq!(inbox, oldest_first, "page after page, the same approvals in the same order");
    assert_eq!(totals, [5, 5, 5]);
    ok(decide(&app, &admin, oldest_first[0], "approve").await, 200).await;
    let after = ok(call(&app, &viewer, Method::GET, "/api/coordinator/approvals?limit=1", None).await, 200).await;
    assert_eq!(
        (after["total"].as_u64(), after["approvals"][0]["workflowId"].as_str()),
        (Some(4), Some(oldest_first[1]))
    );
    let runs = ok(call(&app, &viewer, Method::GET, "/api/coordinator/runs?limit=1", None).await, 200).await;
    assert_eq!((runs["total"].as_u64(), runs.get("nextCursor")), (Some(0), None), "{runs}");

    for bad in [
        "/api/coordinator/workflows?limit=0",
        "/api/coordinator/workflows?limit=1001",
        "/api/coordinator/workflows?cursor=no-cursor",
        "/api/coordinator/workflows?page=2",
        "/api/coordinator/approvals?limit=-1",
        "/api/coordinator/approvals?cursor=12",
        "/api/coordinator/runs?limit=x",
    ] {
        assert_envelope(call(&app, &viewer, Method::GET, bad, None).await, 400, "bad_request").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn rejected_content_is_never_published_and_tickets_resolve() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let id = start(
        &app,
        &admin,
        "content-writer",
        "content-generation",
        json!({"contentType": "blog-post", "accountId": "acct-004"}),
    )
    .await;
    wait_for(&app, &admin, &id, status_is("waiting")).await;
    ok(decide(&app, &admin, &id, "reject").await, 200).await;
    let w = wait_for(&app, &admin, &id, status_is("cancelled")).await;
    assert_eq!((w["result"]["published"].as_bool(), w["approval"]["decision"].as_str()), (Some(false), Some("reject")));
    let tree = ok(call(&app, &admin, Method::GET, "/api/memory/tree", None).await, 200).await;
    assert!(!tree.to_string().contains("content."), "nothing published: {tree}");

    let ticket = json!({"ticketId": "T-1", "subject": "Login fails with SSO", "priority": "high"});
    let id = start(&app, &admin, "support-resolver", "ticket-resolution", ticket).await;
    let w = wait_for(&app, &admin, &id, status_is("waiting")).await;
    assert!(w["approval"]["deadline"].is_string(), "the SLA sets a deadline: {w}");
    assert_eq!(w["steps"][0]["output"]["category"], "access");
    ok(decide(&app, &admin, &id, "approve").await, 200).await;
    let w = wait_for(&app, &admin, &id, status_is("completed")).await;
    assert_eq!((w["result"]["resolved"].as_bool(), w["result"]["escalated"].as_bool()), (Some(true), Some(false)));
    app.stop().await;
}

#[tokio::test]
async fn bad_starts_and_lookups_are_refused_with_the_envelope() {
    let app = app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let post = |token: &str, worker: &str, body: Value| {
        let (app, token, path) = (&app, token.to_owned(), format!("/api/workers/{worker}/start"));
        async move { call(app, &token, Method::POST, &path, Some(body)).await }
    };
    let missing = assert_envelope(
        post(&admin, "sdr", json!({"workflowType": "lead-qualification", "params": {"leadId": "x"}})).await,
        400,
        "bad_request",
    )
    .await;
    assert!(missing["message"].as_str().is_some_and(|m| m.contains("params.company: missing")), "{missing}");
    let misspelt = assert_envelope(
        post(
            &admin,
            "sdr",
            json!({"workflowType": "lead-qualification", "params": {"leadId": "x", "company": "c", "contcat": "p"}}),
        )
        .await,
        400,
        "bad_request",
    )
    .await;
    let message = misspelt["message"].as_str().unwrap_or_default();
    assert!(message.contains("params.contact: missing") && message.contains("contcat"), "{misspelt}");
    for (worker, body) in [
        ("sdr", json!({"workflowType": "cold-calling", "params": {}})),
        ("coordinator", json!({"workflowType": "coordinator", "params": {"goal": "x"}})),
        ("revenue-analyst", json!({"workflowType": "memory-compression", "params": {}})),
        ("sdr", json!({"workflowType": "client-onboarding", "params": {"accountId": "a", "accountName": "b"}})),
        (
            "sdr",
            json!({"workflowType": "lead-qualification", "params": {"leadId": "l", "company": "c", "contact": "p", "extra": "x"}}),
        ),
        ("sdr", json!({"workflowType": "lead-qualification", "params": {"leadId": 7, "company": "c", "contact": "p"}})),
        ("sdr", json!({"workflowType": "lead-qualification", "params": "leadId=1"})),
        ("sdr", json!({"params": {}})),
        (
            "support-resolver",
            json!({"workflowType": "ticket-resolution", "params": {"ticketId": "t", "subject": "s", "priority": "asap"}}),
        ),
        (
            "onboarding-manager",
            json!({"workflowType": "client-onboarding", "params": {"accountId": "a", "accountName": "b", "tier": "gold"}}),
        ),
        (
            "content-writer",
            json!({"workflowType": "content-generation", "params": {"contentType": "email", "accountId": "acct-999"}}),
        ),
    ] {
        assert_envelope(post(&admin, worker, body.clone()).await, 400, "bad_request").await;
    }
    let malformed = app
        .authed(Method::POST, "/api/workers/sdr/start", &admin)
        .header("content-type", "application/json")
        .body("{\"workflowType\":")
        .send()
        .await
        .expect("post");
    assert_envelope(malformed, 400, "bad_request").await;
    let body = json!({"workflowType": "lead-qualification", "params": {"leadId": "l", "company": "c", "contact": "p"}});
    assert_envelope(post(&admin, "nobody", body.clone()).await, 404, "not_found").await;
    assert_envelope(post(&viewer, "sdr", body).await, 403, "forbidden").await;
    assert_envelope(call(&app, &viewer, Method::GET, "/api/workers/nobody", None).await, 404, "not_found").await;
    assert_envelope(call(&app, &viewer, Method::GET, "/api/coordinator/workflows/nope", None).await, 404, "not_found")
        .await;
    for query in ["?status=paused", "?type=cold-calling", "?status=running&status=waiting", "?colour=red"] {
        let res = call(&app, &viewer, Method::GET, &format!("/api/coordinator/workflows{query}"), None).await;
        assert_envelope(res, 400, "bad_request").await;
    }
    let none = ok(call(&app, &viewer, Method::GET, "/api/coordinator/workflows?worker=nobody", None).await, 200).await;
    assert_eq!(none["total"], 0);
    let anonymous = app.client.get(app.url("/api/workers")).send().await.expect("get");
    assert_envelope(anonymous, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn the_coordinator_runs_nine_steps_dispatching_children() {
    let app = app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let runs = |token: &str, body: Value| {
        let (app, token) = (&app, token.to_owned());
        async move { call(app, &token, Method::POST, "/api/coordinator/runs", Some(body)).await }
    };
    assert_envelope(runs(&viewer, json!({"goal": "x"})).await, 403, "forbidden").await;
    assert_envelope(runs(&admin, json!({"goal": "  "})).await, 400, "bad_request").await;
    assert_envelope(runs(&admin, json!({"aim": "x"})).await, 400, "bad_request").await;
    let goal = "Qualify Home Depot and MGM Resorts International, then write outreach content";
    let started = ok(runs(&admin, json!({ "goal": goal })).await, 202).await;
    let (run_id, wf) =
        (started["runId"].as_str().expect("run").to_owned(), started["workflowId"].as_str().expect("wf").to_owned());
    assert_eq!(started["status"], "started");
    // The content child parks at its approval gate; approve it so the run can finish.
    let child = format!("{wf}-3");
    let c = wait_for(&app, &admin, &child, status_is("waiting")).await;
    assert_eq!((c["type"].as_str(), c["parent"].as_str()), (Some("content-generation"), Some(wf.as_str())));
    ok(decide(&app, &admin, &child, "approve").await, 200).await;
    wait_for(&app, &admin, &wf, status_is("completed")).await;
    let run = ok(call(&app, &viewer, Method::GET, &format!("/api/coordinator/runs/{run_id}"), None).await, 200).await;
    let steps: Vec<&str> =
        run["steps"].as_array().expect("steps").iter().map(|s| s["name"].as_str().expect("name")).collect();
    assert_eq!(
        steps,
        [
            "intake",
            "load-context",
            "research-accounts",
            "plan",
            "assign",
            "dispatch",
            "await-results",
            "synthesize",
            "write-memory-and-notify"
        ]
    );
    assert!(
        run["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .all(|s| s["status"] == "completed" && s["startedAt"].is_string() && s["finishedAt"].is_string())
    );
    assert_eq!(run["children"].as_array().map(Vec::len), Some(3), "{run}");
    assert!(run["synthesis"].as_str().is_some_and(|s| !s.is_empty()));
    let results = &run["steps"][6]["output"]["children"];
    assert!(results.as_array().expect("ends").iter().all(|c| c["status"] == "completed"), "{results}");
    let list = ok(call(&app, &viewer, Method::GET, "/api/coordinator/runs", None).await, 200).await;
    assert_eq!((list["total"].as_u64(), list["runs"][0]["runId"].as_str()), (Some(1), Some(run_id.as_str())));
    assert_envelope(call(&app, &viewer, Method::GET, "/api/coordinator/runs/run-nope", None).await, 404, "not_found")
        .await;
    let by_worker = ok(
        call(
            &app,
            &viewer,
            Method::GET,
            "/api/coordinator/workflows?worker=sdr&type=lead-qualification&status=completed",
            None,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(by_worker["total"], 2, "{by_worker}");
    app.stop().await;
}

/// An OpenAI-compatible fake that answers a request only when the test adds a permit; it
/// counts requests and signals `called` on each.
async fn gated_model(gate: Arc<Semaphore>, seen: Arc<AtomicUsize>, called: Arc<Notify>, status: u16) -> String {
    let route = warp::post().and(warp::body::json()).and_then(move |_body: Value| {
        let (gate, seen, called) = (gate.clone(), seen.clone(), called.clone());
        async move {
            seen.fetch_add(1, Ordering::SeqCst);
            called.notify_one();
            if let Ok(permit) = gate.acquire().await {
                permit.forget();
            }
            let reply = json!({"model": "m", "choices": [{"message": {"role": "assistant", "content": "a plan"}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
            let code = warp::http::StatusCode::from_u16(status).expect("status");
            Ok::<_, warp::Rejection>(warp::reply::with_status(warp::reply::json(&reply), code))
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(warp::serve(route).incoming(listener).run());
    format!("http://{addr}/v1")
}

fn openai(base: String) -> gtms::config::LlmLayer {
    gtms::config::LlmLayer {
        provider: Some("openai".into()),
        base_url: Some(base),
        model_research: Some("m".into()),
        ..Default::default()
    }
}

async fn worker_status(app: &TestApp, token: &str, id: &str) -> String {
    let w = ok(call(app, token, Method::GET, &format!("/api/workers/{id}"), None).await, 200).await;
    assert!(w["memory"]["totalEntries"].is_u64(), "{w}");
    w["status"].as_str().expect("status").to_owned()
}

#[tokio::test]
async fn worker_status_moves_running_then_waiting_then_stopped() {
    let (gate, seen) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let called = Arc::new(Notify::new());
    let base = gated_model(gate.clone(), seen, called.clone(), 200).await;
    let app = spawn_app_with(|l| {
        l.api_rate_limit = Some(1_000_000);
        l.llm = Some(openai(base));
    })
    .await;
    let admin = app.token(Role::Admin).await;
    assert_eq!(worker_status(&app, &admin, "onboarding-manager").await, "stopped");
    let id = start(
        &app,
        &admin,
        "onboarding-manager",
        "client-onboarding",
        json!({"accountId": "a-9", "accountName": "Acme"}),
    )
    .await;
    // The kickoff plan's model call is held at the gate: the worker is running.
    tokio::time::timeout(Duration::from_secs(30), called.notified()).await.expect("the model was called");
    assert_eq!(worker_status(&app, &admin, "onboarding-manager").await, "running");
    let detail = ok(call(&app, &admin, Method::GET, "/api/workers/onboarding-manager", None).await, 200).await;
    assert!(detail["currentTask"].as_str().is_some_and(|t| t.contains(&id) && t.contains("kickoff-plan")), "{detail}");
    gate.add_permits(10);
    wait_for(&app, &admin, &id, status_is("waiting")).await;
    assert_eq!(worker_status(&app, &admin, "onboarding-manager").await, "waiting");
    ok(decide(&app, &admin, &id, "approve").await, 200).await;
    wait_for(&app, &admin, &id, status_is("completed")).await;
    assert_eq!(worker_status(&app, &admin, "onboarding-manager").await, "stopped");
    app.stop().await;
}

#[tokio::test]
async fn a_failing_activity_is_retried_then_fails_the_workflow() {
    let (gate, seen) = (Arc::new(Semaphore::new(1_000)), Arc::new(AtomicUsize::new(0)));
    let base = gated_model(gate, seen.clone(), Arc::default(), 500).await;
    let app = spawn_app_with(|l| {
        l.api_rate_limit = Some(1_000_000);
        l.llm = Some(openai(base));
        l.workflows = Some(gtms::config::WorkflowLayer {
            retry_attempts: Some(3),
            retry_base_ms: Some(20),
            ..Default::default()
        });
    })
    .await;
    let admin = app.token(Role::Admin).await;
    let id = start(
        &app,
        &admin,
        "sdr",
        "lead-qualification",
        json!({"leadId": "l-1", "company": "Apple", "contact": "buyer"}),
    )
    .await;
    let w = wait_for(&app, &admin, &id, status_is("failed")).await;
    assert!(w["error"].as_str().is_some_and(|e| e.contains("score") && e.contains("3 attempts")), "{w}");
    let failed = w["steps"].as_array().expect("steps").last().cloned().expect("a step");
    assert_eq!(
        (failed["name"].as_str(), failed["status"].as_str(), failed["attempts"].as_u64()),
        (Some("score"), Some("failed"), Some(3))
    );
    assert_eq!(seen.load(Ordering::SeqCst), 3, "one model call per attempt");
    let outbox = app.state().store().outbox().await.expect("outbox");
    assert!(outbox.iter().any(|n| n.event == "workflow.failed" && n.workflow_id.as_deref() == Some(id.as_str())));
    app.stop().await;
}

/// A Slack-compatible receiver that fails its first `failures` posts with 503.
async fn webhook(failures: usize) -> (String, Arc<Mutex<Vec<String>>>) {
    let texts: Arc<Mutex<Vec<String>>> = Arc::default();
    let (log, count) = (texts.clone(), Arc::new(AtomicUsize::new(0)));
    let route = warp::post().and(warp::body::json()).and_then(move |body: Value| {
        let (log, count) = (log.clone(), count.clone());
        async move {
            if count.fetch_add(1, Ordering::SeqCst) < failures {
                return Ok::<_, warp::Rejection>(warp::reply::with_status(
                    "busy",
                    warp::http::StatusCode::SERVICE_UNAVAILABLE,
                ));
            }
            log.lock().await.push(body["text"].as_str().unwrap_or_default().to_owned());
            Ok(warp::reply::with_status("ok", warp::http::StatusCode::OK))
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(warp::serve(route).incoming(listener).run());
    (format!("http://{addr}/services/T000/B000/secret"), texts)
}

#[tokio::test]
async fn notifications_reach_the_webhook_with_retries() {
    let (url, texts) = webhook(1).await;
    let app = spawn_app_with(|l| {
        l.api_rate_limit = Some(1_000_000);
        l.workflows = Some(gtms::config::WorkflowLayer {
            notify_webhook_url: Some(gtms::config::Secret::new(url)),
            ..Default::default()
        });
    })
    .await;
    let admin = app.token(Role::Admin).await;
    let id = start(
        &app,
        &admin,
        "onboarding-manager",
        "client-onboarding",
        json!({"accountId": "a-1", "accountName": "Acme"}),
    )
    .await;
    wait_for(&app, &admin, &id, status_is("waiting")).await;
    ok(decide(&app, &admin, &id, "approve").await, 200).await;
    wait_for(&app, &admin, &id, status_is("completed")).await;
    let got = eventually("both notifications delivered", || async {
        let got = texts.lock().await.clone();
        (got.len() >= 2).then_some(got)
    })
    .await;
    // Delivery order is not promised: the first post failed and was retried later.
    assert!(got.iter().any(|t| t.starts_with("Approval requested") && t.contains(&id)), "{got:?}");
    assert!(got.iter().any(|t| t.contains("Onboarding of Acme is ready")), "{got:?}");
    // The receiver logs a post before the outbox records its delivery: wait for the record.
    let first = eventually("the delivery recorded in the outbox", || async {
        let outbox = app.state().store().outbox().await.expect("outbox");
        outbox.into_iter().find(|n| n.event == "approval.requested" && n.delivered_ms.is_some())
    })
    .await;
    assert_eq!(first.attempts, 2, "retried once: {first:?}");
    let config = ok(call(&app, &admin, Method::GET, "/api/config", None).await, 200).await;
    assert!(!config.to_string().contains("secret"), "{config}");
    app.stop().await;
}

async fn binary_start(base: &str, token: &str, worker: &str, body: Value) -> String {
    let res = reqwest::Client::new()
        .post(format!("{base}/api/workers/{worker}/start"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("start");
    assert_eq!(res.status().as_u16(), 202);
    res.json::<Value>().await.expect("json")["workflowId"].as_str().expect("id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_gate_and_an_sla_timer_survive_kill_9() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let env = [("GTMS_SLA_URGENT_SECS", "5"), ("GTMS_API_RATE_LIMIT", "1000000")];
    let server = Binary::serve_with_env(&data, &[], &env);
    let code = server.demo_invite_code();
    let token = login(&server.base, &code).await;
    let onboarding = binary_start(
        &server.base,
        &token,
        "onboarding-manager",
        json!({"workflowType": "client-onboarding", "params": {"accountId": "a-7", "accountName": "Acme"}}),
    )
    .await;
    let ticket = binary_start(&server.base, &token, "support-resolver", json!({"workflowType": "ticket-resolution", "params": {"ticketId": "T-9", "subject": "Site down", "priority": "urgent"}})).await;
    wait_workflow(&server.base, &token, &onboarding, status_is("waiting")).await;
    let before = wait_workflow(&server.base, &token, &ticket, status_is("waiting")).await;
    server.kill_9();
    assert!(
        !before.to_string().contains("escalate\",\"status\":\"completed"),
        "not escalated before the restart: {before}"
    );

    let server = Binary::serve_with_env(&data, &[], &env);
    let token = login(&server.base, &code).await;
    let w = fetch_workflow(&server.base, &token, &onboarding).await;
    assert_eq!((w["status"].as_str(), w["currentStep"].as_str()), (Some("waiting"), Some("plan-approval")), "{w}");
    // The SLA deadline passed while the server was down or passes now: the ticket escalates.
    // Escalation is one step; parking at the review gate again is the next transition.
    let escalated = |w: &Value| {
        w["status"] == "waiting"
            && w["steps"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["name"] == "escalate" && s["status"] == "completed"))
    };
    let t = wait_workflow(&server.base, &token, &ticket, escalated).await;
    assert_eq!(
        (t["status"].as_str(), t["approval"]["pending"].as_bool()),
        (Some("waiting"), Some(true)),
        "still awaiting review: {t}"
    );
    let res = reqwest::Client::new()
        .post(format!("{}/api/coordinator/approvals/{onboarding}", server.base))
        .bearer_auth(&token)
        .json(&json!({"decision": "approve"}))
        .send()
        .await
        .expect("decide");
    assert_eq!(res.status().as_u16(), 200);
    wait_workflow(&server.base, &token, &onboarding, status_is("completed")).await;
    server.kill_9();
    let store = gtms::store::Store::open(&data).expect("opens");
    let outbox = store.outbox().await.expect("outbox");
    assert!(
        outbox.iter().any(|n| n.event == "sla.escalated" && n.workflow_id.as_deref() == Some(ticket.as_str())),
        "{outbox:?}"
    );
}
