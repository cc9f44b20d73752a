//! One API-level workflow suite against both engines, each behind the real binary: the demo
//! engine, and the temporal engine on a real Temporal dev server behind nginx terminating
//! mutual TLS (`temporal_cluster`). Then what only the temporal engine has: the executions seen
//! from outside with the `temporal` CLI, a client certificate of another CA refused, the cluster
//! killed mid-workflow and restarted, and a `gtms worker` process serving the compute queue.

use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::appliance::{Appliance, connected, connected_if_temporal, status_is, step, temporal_env};
use crate::helpers::{eventually, gtms};
use crate::temporal_cluster::TemporalCluster;

/// The suite: every kind of step (activities on both queues, an approval gate, an SLA timer
/// that lapses, approvals that expire, child workflows), the views, and the decision errors.
/// Returns the ids started with their types.
async fn suite(app: &Appliance) -> Vec<(String, &'static str)> {
    let lead = app
        .start_workflow("sdr", "lead-qualification", json!({"leadId": "l-1", "company": "Apple", "contact": "the CFO"}))
        .await;
    let done = app.wait_for(&lead, "completed", status_is("completed")).await;
    let steps: Vec<&str> = done["steps"].as_array().expect("steps").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(steps, ["research", "call-analysis", "score", "route", "record"], "{done}");
    let research = &done["steps"][0]["output"];
    assert!(research["signals"][0]["url"].as_str().is_some_and(|u| u.starts_with("https://www.sec.gov/")), "{done}");

    let content = app
        .start_workflow(
            "content-writer",
            "content-generation",
            json!({"contentType": "blog-post", "accountId": "acct-004"}),
        )
        .await;
    app.wait_for(&content, "waiting", status_is("waiting")).await;
    let approvals = app.get("/api/coordinator/approvals").await;
    assert!(approvals["approvals"].as_array().expect("list").iter().any(|a| a["workflowId"] == content.as_str()));
    let writer = app.get("/api/workers/content-writer").await;
    assert_eq!(writer["status"], "waiting", "{writer}");
    assert!(writer["activeWorkflows"].as_array().expect("ids").iter().any(|w| w == content.as_str()));
    let (status, reply) = app.decide(&content, "approve").await;
    assert_eq!((status, reply["status"].as_str()), (200, Some("running")), "{reply}");
    let (status, reply) = app.decide(&content, "approve").await;
    assert_eq!((status, reply["error"].as_str()), (409, Some("conflict")), "{reply}");
    app.wait_for(&content, "completed", status_is("completed")).await;

    let ticket = app
        .start_workflow(
            "support-resolver",
            "ticket-resolution",
            json!({"ticketId": "t-1", "subject": "Login broken for the whole team", "priority": "urgent"}),
        )
        .await;
    let escalated = app
        .wait_for(&ticket, "escalated and waiting again", |w| {
            w["status"] == "waiting" && w["steps"].as_array().is_some_and(|s| s.iter().any(|s| s["name"] == "escalate"))
        })
        .await;
    assert!(escalated["steps"].to_string().contains("timeout"), "{escalated}");
    assert_eq!(app.decide(&ticket, "approve").await.0, 200);
    app.wait_for(&ticket, "completed", status_is("completed")).await;

    // Nobody decides the onboarding plan: its approval expires (1 s), the team is told, the plan
    // is revised and asked for again; that approval expires too, and the workflow fails.
    let onboarding = app
        .start_workflow("onboarding-manager", "client-onboarding", json!({"accountId": "a-x", "accountName": "Exp Co"}))
        .await;
    let asked = app.wait_for(&onboarding, "waiting", status_is("waiting")).await;
    assert!(asked["approval"]["deadline"].is_string(), "the approval expires: {asked}");
    let failed = app.wait_for(&onboarding, "failed after two expired approvals", status_is("failed")).await;
    let steps: Vec<&str> =
        failed["steps"].as_array().expect("steps").iter().filter_map(|s| s["name"].as_str()).collect();
    let gates = ["plan-approval", "approval-expired"];
    assert_eq!(
        steps,
        [&["account-review", "kickoff-plan"][..], &gates, &["kickoff-plan"], &gates].concat(),
        "{failed}"
    );
    assert!(failed["error"].as_str().is_some_and(|e| e.contains("expired")), "{failed}");
    let (status, reply) = app.decide(&onboarding, "approve").await;
    assert_eq!(
        (status, reply["error"].as_str()),
        (409, Some("conflict")),
        "an expired approval is not decided: {reply}"
    );

    let (status, run) = app
        .call(
            reqwest::Method::POST,
            "/api/coordinator/runs",
            Some(json!({"goal": "Qualify Apple and write outreach content"})),
        )
        .await;
    assert_eq!(status, 202, "{run}");
    let coordinator = run["workflowId"].as_str().expect("id").to_owned();
    let child = format!("{coordinator}-2");
    app.wait_for(&child, "the content child waiting", status_is("waiting")).await;
    assert_eq!(app.decide(&child, "approve").await.0, 200);
    let run_done = app.wait_for(&coordinator, "completed", status_is("completed")).await;
    assert_eq!(run_done["children"].as_array().map(Vec::len), Some(2), "{run_done}");

    let (status, reply) = app.decide("content-generation-000000000000", "approve").await;
    assert_eq!((status, reply["error"].as_str()), (404, Some("not_found")), "{reply}");
    let list = app.get("/api/coordinator/workflows?status=completed").await;
    let ids: Vec<&str> =
        list["workflows"].as_array().expect("list").iter().filter_map(|w| w["workflowId"].as_str()).collect();
    for id in [&lead, &content, &ticket, &coordinator, &child] {
        assert!(ids.contains(&id.as_str()), "{id} missing from {list}");
    }
    vec![
        (lead, "lead-qualification"),
        (content, "content-generation"),
        (ticket, "ticket-resolution"),
        (coordinator, "coordinator"),
        (child, "content-generation"),
    ]
}

/// Pause, resume and cancel: a paused worker refuses starts and its workflow holds at the next
/// activity boundary after its approval, still holding after a SIGKILL and a restart; a resume
/// lets it complete; a cancel by type hits exactly the matching workflows, a single cancel
/// records its reason, and the audit log has each action.
async fn controls(app: Appliance) -> Appliance {
    use reqwest::Method;
    let content = json!({"contentType": "email", "accountId": "acct-004"});
    let held = app.start_workflow("content-writer", "content-generation", content.clone()).await;
    app.wait_for(&held, "waiting", status_is("waiting")).await;
    let pause = json!({"worker": "content-writer", "reason": "brand review"});
    let (status, paused) = app.call(Method::POST, "/api/controls/pause", Some(pause)).await;
    assert_eq!(
        (status, paused["scope"].as_str(), paused["target"].as_str()),
        (201, Some("worker"), Some("content-writer"))
    );
    assert!(paused["pausedBy"].as_str().is_some_and(|by| by.contains("ops")), "{paused}");
    let again = json!({"worker": "content-writer", "reason": "something else"});
    let (status, standing) = app.call(Method::POST, "/api/controls/pause", Some(again)).await;
    assert_eq!((status, standing["reason"].as_str()), (200, Some("brand review")), "the standing pause is kept");
    let start = json!({"workflowType": "content-generation", "params": content});
    let (status, refused) = app.call(Method::POST, "/api/workers/content-writer/start", Some(start)).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("conflict")), "{refused}");
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("brand review")), "{refused}");

    assert_eq!(app.decide(&held, "approve").await.0, 200);
    let holding = app.wait_for(&held, "held at the next boundary", |w| w["paused"] == true).await;
    assert_eq!(holding["status"], "running", "{holding}");
    let open = step(&holding, "paused");
    assert_eq!((open["status"].as_str(), open["output"]["reason"].as_str()), (Some("waiting"), Some("brand review")));
    let worker = app.get("/api/workers/content-writer").await;
    assert_eq!((worker["paused"].as_bool(), worker["status"].as_str()), (Some(true), Some("stopped")), "{worker}");

    let app = app.restart().await;
    connected_if_temporal(&app).await;
    let pauses = app.get("/api/controls/pauses").await;
    assert_eq!(pauses["pauses"].as_array().map(Vec::len), Some(1), "the pause survives the restart: {pauses}");
    let after = app.wait_for(&held, "still held after the restart", |w| w["paused"] == true).await;
    assert_eq!(step(&after, "publish")["status"], "pending", "nothing ran past the pause: {after}");

    let resume = json!({"worker": "content-writer"});
    let (status, resumed) = app.call(Method::POST, "/api/controls/resume", Some(resume.clone())).await;
    assert_eq!((status, resumed["released"].as_u64()), (200, Some(1)), "{resumed}");
    let done = app.wait_for(&held, "completed after the resume", status_is("completed")).await;
    let closed = step(&done, "paused");
    assert!(closed["status"] == "completed" && closed["output"]["resumedAt"].is_string(), "{done}");
    let (status, reply) = app.call(Method::POST, "/api/controls/resume", Some(resume)).await;
    assert_eq!((status, reply["error"].as_str()), (404, Some("not_found")), "{reply}");

    // A cancel by type hits the two tickets and not the content draft.
    let ticket = |id: &str| json!({"ticketId": id, "subject": "Invoice question", "priority": "low"});
    let tickets = [
        app.start_workflow("support-resolver", "ticket-resolution", ticket("t-c1")).await,
        app.start_workflow("support-resolver", "ticket-resolution", ticket("t-c2")).await,
    ];
    let draft = app.start_draft().await;
    for id in tickets.iter().chain([&draft]) {
        app.wait_for(id, "waiting", status_is("waiting")).await;
    }
    let (status, reply) = app.call(Method::POST, "/api/controls/cancel", Some(json!({"reason": "no filter"}))).await;
    assert_eq!((status, reply["error"].as_str()), (400, Some("bad_request")), "{reply}");
    let filter = json!({"type": "ticket-resolution", "reason": "duplicate queue"});
    let (status, bulk) = app.call(Method::POST, "/api/controls/cancel", Some(filter)).await;
    assert_eq!((status, bulk["matched"].as_u64(), bulk["cancelled"].as_u64()), (200, Some(2), Some(2)), "{bulk}");
    assert_eq!(bulk["filter"]["type"], "ticket-resolution", "{bulk}");
    let mut hit: Vec<&str> =
        bulk["results"].as_array().into_iter().flatten().filter_map(|r| r["workflowId"].as_str()).collect();
    hit.sort_unstable();
    let mut want: Vec<&str> = tickets.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(hit, want, "{bulk}");
    for id in &tickets {
        let cancelled = app.wait_for(id, "cancelled", status_is("cancelled")).await;
        assert_eq!(step(&cancelled, "cancelled")["output"]["reason"], "duplicate queue", "{cancelled}");
        assert_eq!(cancelled["result"]["cancelled"], true, "{cancelled}");
    }
    assert_eq!(app.get(&format!("/api/coordinator/workflows/{draft}")).await["status"], "waiting");

    let path = format!("/api/coordinator/workflows/{draft}/cancel");
    let (status, reply) = app.call(Method::POST, &path, Some(json!({"reason": "  "}))).await;
    assert_eq!(status, 400, "a blank reason: {reply}");
    let (status, reply) = app.call(Method::POST, &path, Some(json!({"reason": "the account churned"}))).await;
    assert_eq!((status, reply["status"].as_str()), (200, Some("cancelled")), "{reply}");
    let (status, reply) = app.call(Method::POST, &path, Some(json!({"reason": "again"}))).await;
    assert_eq!((status, reply["error"].as_str()), (409, Some("conflict")), "{reply}");
    let unknown = "/api/coordinator/workflows/content-generation-000000000000/cancel";
    let (status, reply) = app.call(Method::POST, unknown, Some(json!({"reason": "x"}))).await;
    assert_eq!((status, reply["error"].as_str()), (404, Some("not_found")), "{reply}");

    // An approval is bound to what it acts on: a deal of the account added after the request
    // makes a decision stale (409, naming the deal and both hashes, the request raised again);
    // the next decision, on what holds now, is taken. Bulk decisions answer per item.
    let bound = app.start_draft().await;
    let other = app
        .start_workflow(
            "content-writer",
            "content-generation",
            json!({"contentType": "blog-post", "accountId": "acct-004"}),
        )
        .await;
    for id in [&bound, &other] {
        app.wait_for(id, "waiting", status_is("waiting")).await;
    }
    let pending = app.get("/api/coordinator/approvals?limit=1000").await;
    let listed = pending["approvals"].as_array().into_iter().flatten().find(|a| a["workflowId"] == bound.as_str());
    let binding = listed.map(|a| a["binding"].clone()).unwrap_or_default();
    let first_hash = binding["sha256"].as_str().map(str::to_owned).unwrap_or_default();
    assert_eq!(first_hash.len(), 64, "a SHA-256 binding: {pending}");
    assert!(binding["account"].as_str().is_some_and(|a| a.starts_with("acct-004 (")), "{binding}");
    let account = binding["account"].as_str().unwrap_or_default();
    let name = account.trim_start_matches("acct-004 (").trim_end_matches(')').to_owned();
    let deal = json!({
        "accountName": name, "value": 120000, "stage": "negotiation", "type": "expansion",
        "rep": "Dana Reyes", "champion": "Pat Lee", "closeDate": "2027-03-31", "probability": 60,
    });
    let (status, created) = app.call(Method::POST, "/api/deals", Some(deal)).await;
    assert_eq!(status, 201, "{created}");
    let deal_id = created["id"].as_str().expect("deal id").to_owned();
    let (status, stale) = app.decide(&bound, "approve").await;
    assert_eq!((status, stale["error"].as_str()), (409, Some("conflict")), "{stale}");
    let message = stale["message"].as_str().unwrap_or_default();
    assert!(message.contains(&format!("deal {deal_id} (negotiation) was added")), "{stale}");
    assert!(message.contains(&first_hash), "both hashes: {stale}");
    assert_eq!(app.get(&format!("/api/coordinator/workflows/{bound}")).await["status"], "waiting", "not taken");
    let pending = app.get("/api/coordinator/approvals?limit=1000").await;
    let listed = pending["approvals"].as_array().into_iter().flatten().find(|a| a["workflowId"] == bound.as_str());
    let binding = listed.map(|a| a["binding"].clone()).unwrap_or_default();
    assert_eq!(binding["refreshed"], 1, "requested again: {binding}");
    assert!(binding["deals"].to_string().contains(&deal_id), "{binding}");
    assert!(message.contains(binding["sha256"].as_str().unwrap_or("none")), "both hashes: {stale}");

    let decisions = json!({"decisions": [
        {"workflowId": bound, "decision": "approve", "comment": "checked again"},
        {"workflowId": bound, "decision": "approve"},
        {"workflowId": "content-generation-000000000000", "decision": "reject"},
        {"workflowId": other, "decision": "reject", "comment": "not this one"},
    ]});
    let (status, bulk) = app.call(Method::POST, "/api/coordinator/approvals", Some(decisions)).await;
    assert_eq!((status, bulk["decided"].as_u64()), (200, Some(1)), "{bulk}");
    let outcomes: Vec<&str> =
        bulk["results"].as_array().into_iter().flatten().filter_map(|r| r["outcome"].as_str()).collect();
    // The other draft is for the same account: its request is stale too, and raised again.
    assert_eq!(outcomes, ["decided", "not_pending", "not_found", "stale"], "{bulk}");
    assert_eq!(app.decide(&other, "reject").await.0, 200, "decided on what holds now");
    app.wait_for(&bound, "completed", status_is("completed")).await;
    app.wait_for(&other, "cancelled by its rejection", |w| w["status"] == "cancelled" || w["status"] == "completed")
        .await;

    let audit = app.get("/api/audit?limit=1000").await;
    let actions: Vec<&str> =
        audit["entries"].as_array().into_iter().flatten().filter_map(|e| e["action"].as_str()).collect();
    for action in ["pause", "resume", "workflows.cancel", "workflow.cancel"] {
        assert!(actions.contains(&action), "{action} is audited: {actions:?}");
    }
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_engine_passes_the_suite() {
    let app = Appliance::start(&[]).await;
    assert_eq!(app.health().await["temporal"], "disabled");
    suite(&app).await;
    expiry_notices(app.stop_and_read_outbox().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_engine_pauses_resumes_and_cancels() {
    let app = Appliance::start(&[]).await;
    let app = controls(app).await;

    // The same controls through MCP (the opt-in `controls` toolset).
    let mcp = crate::mcp::RawSession::open_at(&app.server.base, "/mcp?toolsets=controls", &app.token).await;
    let pause = json!({"type": "lead-qualification", "reason": "new scoring rules"});
    let paused = mcp.call(1, "pause", pause).await;
    assert_eq!(paused["result"]["structuredContent"]["target"], "lead-qualification", "{paused}");
    let listed = mcp.call(2, "pauses_list", json!({})).await;
    assert_eq!(listed["result"]["structuredContent"]["pauses"][0]["reason"], "new scoring rules", "{listed}");
    let lead = json!({"workflowType": "lead-qualification", "params": {"leadId": "l-9", "company": "Apple", "contact": "the CFO"}});
    let (status, _) = app.call(reqwest::Method::POST, "/api/workers/sdr/start", Some(lead)).await;
    assert_eq!(status, 409, "a paused type starts nothing");
    let resumed = mcp.call(3, "resume", json!({"type": "lead-qualification"})).await;
    assert_eq!(resumed["result"]["structuredContent"]["released"], 0, "{resumed}");
    let missing =
        mcp.call(4, "workflow_cancel", json!({"workflow_id": "lead-qualification-000000000000", "reason": "x"})).await;
    assert_eq!(missing["result"]["isError"], true, "{missing}");
    let none = mcp.call(5, "workflows_cancel", json!({"worker": "sdr", "reason": "nothing live"})).await;
    assert_eq!(none["result"]["structuredContent"]["matched"], 0, "{none}");
}

/// What the suite's gates with deadlines told the team: the onboarding's two approvals each
/// warned at 80 % of their life (`approval.expiring`) and expired (`approval.expired`); the
/// urgent ticket's review warned before its SLA escalated it.
fn expiry_notices(outbox: Vec<gtms::store::OutboxRecord>) {
    let told = |event: &str, kind: &str| {
        let of_kind = |n: &&gtms::store::OutboxRecord| n.workflow_id.as_deref().is_some_and(|w| w.starts_with(kind));
        outbox.iter().filter(|n| n.event == event).filter(of_kind).count()
    };
    let events: Vec<&str> = outbox.iter().map(|n| n.event.as_str()).collect();
    assert_eq!(told("approval.expiring", "client-onboarding-"), 2, "{events:?}");
    assert_eq!(told("approval.expired", "client-onboarding-"), 2, "{events:?}");
    assert_eq!(told("approval.expiring", "ticket-resolution-"), 1, "{events:?}");
    assert_eq!(told("approval.expiring", "content-generation-"), 0, "decided long before 80 % of 72 h: {events:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_temporal_engine_passes_the_suite_over_mutual_tls() {
    let cluster = TemporalCluster::start();
    let app = Appliance::start(&temporal_env(&cluster)).await;
    connected(&app).await;
    assert_eq!(app.health().await["mode"], "temporal");
    let started = suite(&app).await;
    // Seen from outside: the same ids, the API's type names, completed.
    for (id, kind) in &started {
        let description = cluster.wait_for_workflow_status(id, "Completed", Duration::from_secs(60)).await;
        assert_eq!(description["workflowExecutionInfo"]["type"]["name"], *kind, "{id}");
    }
    let ids: Vec<String> = started.into_iter().map(|(id, _)| id).collect();
    let listed = eventually("visibility lists every execution", || async {
        let list = cluster.cli_json_async(&["workflow", "list"]).await;
        let seen: Vec<String> = list
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["execution"]["workflowId"].as_str().map(str::to_owned))
            .collect();
        ids.iter().all(|id| seen.contains(id)).then_some(seen)
    })
    .await;
    assert!(listed.len() >= ids.len());
    let app = controls(app).await;
    let (app, failed) = crate::engine_budgets::scenario(app).await;
    let outbox = app.stop_and_read_outbox().await;
    crate::engine_budgets::failure_told(&outbox, &failed);
    expiry_notices(outbox);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_certificate_of_another_ca_is_refused() {
    let cluster = TemporalCluster::start();
    let mut env = cluster.gtms_env_rogue();
    env.push(("GTMS_MODE".into(), "temporal".into()));
    let app = Appliance::start(&env).await;
    app.server.wait_for_log("temporal: cannot connect");
    assert_eq!(app.health().await["temporal"], "disconnected");
    let body =
        json!({"workflowType": "lead-qualification", "params": {"leadId": "l", "company": "Apple", "contact": "c"}});
    let (status, reply) = app.call(reqwest::Method::POST, "/api/workers/sdr/start", Some(body)).await;
    assert_eq!((status, reply["error"].as_str()), (503, Some("unavailable")), "{reply}");
    let (status, reply) = app.call(reqwest::Method::GET, "/api/coordinator/workflows", None).await;
    assert_eq!(status, 503, "{reply}");
    assert!(reply["message"].as_str().is_some_and(|m| m.contains("unreachable")), "{reply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cluster_dies_mid_workflow_and_the_workflow_completes_after_its_restart() {
    let mut cluster = TemporalCluster::start();
    let app = Appliance::start(&temporal_env(&cluster)).await;
    connected(&app).await;
    let content = app
        .start_workflow(
            "content-writer",
            "content-generation",
            json!({"contentType": "email", "accountId": "acct-004"}),
        )
        .await;
    app.wait_for(&content, "waiting", status_is("waiting")).await;

    cluster.kill_server();
    eventually("temporal disconnected", || async { (app.health().await["temporal"] == "disconnected").then_some(()) })
        .await;
    let (status, reply) = app.decide(&content, "approve").await;
    assert_eq!((status, reply["error"].as_str()), (503, Some("unavailable")), "{reply}");
    let body =
        json!({"workflowType": "lead-qualification", "params": {"leadId": "l", "company": "Apple", "contact": "c"}});
    assert_eq!(app.call(reqwest::Method::POST, "/api/workers/sdr/start", Some(body)).await.0, 503);

    cluster.restart_server();
    connected(&app).await;
    let decided = eventually("the decision accepted after the restart", || async {
        let (status, reply) = app.decide(&content, "approve").await;
        (status == 200).then_some(reply)
    })
    .await;
    assert_eq!(decided["status"], "running");
    app.wait_for(&content, "completed", status_is("completed")).await;
    cluster.wait_for_workflow_status(&content, "Completed", Duration::from_secs(60)).await;
}

fn spawn_worker(env: &[(String, String)]) -> Child {
    gtms()
        .arg("worker")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("GTMS_LOG_FORMAT", "human")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gtms worker")
}

/// An appliance on `cluster` that serves only its own queue, connected: model calls wait for a
/// `gtms worker`.
async fn appliance_without_compute(cluster: &TemporalCluster) -> Appliance {
    let mut env = temporal_env(cluster);
    env.push(("GTMS_TEMPORAL_SERVE_COMPUTE".into(), "false".into()));
    let app = Appliance::start(&env).await;
    connected(&app).await;
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtms_worker_process_serves_the_compute_queue() {
    let cluster = TemporalCluster::start();
    let app = appliance_without_compute(&cluster).await;
    let lead = app
        .start_workflow("sdr", "lead-qualification", json!({"leadId": "l-2", "company": "Microsoft", "contact": "CTO"}))
        .await;
    // Nobody serves the compute queue yet: the first step (research, a compute activity) waits.
    let waiting = app.wait_for(&lead, "running", status_is("running")).await;
    assert_eq!(waiting["steps"][0]["status"], "pending", "{waiting}");

    let mut worker = spawn_worker(&cluster.gtms_env());
    let pid = worker.id().to_string();
    app.wait_for(&lead, "completed by the worker", status_is("completed")).await;
    let history = cluster.cli_json_async(&["workflow", "show", "--workflow-id", &lead]).await;
    let identities: Vec<String> = history["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["eventType"] == "EVENT_TYPE_ACTIVITY_TASK_STARTED")
        .filter_map(|e| e["activityTaskStartedEventAttributes"]["identity"].as_str().map(str::to_owned))
        .collect();
    assert!(identities.iter().any(|i| i.starts_with(&format!("{pid}@"))), "{identities:?}");
    let _ = worker.kill();
    let _ = worker.wait();
}

/// A fake OpenAI-compatible model that holds each call until the test lets it answer: it says
/// when a call arrived, then waits for `release`.
/// What points gtms at the fake model (`held_model`) for its drafts.
fn model_env(model: &str) -> Vec<(String, String)> {
    [("GTMS_LLM_PROVIDER", "openai"), ("GTMS_LLM_BASE_URL", model), ("GTMS_LLM_MODEL_RESEARCH", "drafts")]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

async fn held_model(arrived: Arc<tokio::sync::Notify>, release: Arc<tokio::sync::Notify>) -> String {
    use warp::Filter;
    let reply = json!({
        "model": "drafts",
        "choices": [{ "message": { "role": "assistant", "content": "A short draft for Acme." } }],
        "usage": { "prompt_tokens": 50, "completion_tokens": 6 }
    });
    let route =
        warp::post().and(warp::path!("v1" / "chat" / "completions")).and(warp::body::json()).then(move |_: Value| {
            let (arrived, release, reply) = (arrived.clone(), release.clone(), reply.clone());
            async move {
                arrived.notify_one();
                release.notified().await;
                warp::reply::json(&reply)
            }
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(warp::serve(route).incoming(listener).run());
    format!("http://{addr}/v1")
}

/// SIGTERM reaches a `gtms worker` while its model call is in flight: it takes no new work,
/// finishes the activity, reports it to the real Temporal dev server, and exits 0; the step ran
/// once (no retry) and the workflow goes on to its approval.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_a_gtms_worker_mid_activity() {
    let cluster = TemporalCluster::start();
    let app = appliance_without_compute(&cluster).await;
    let (arrived, release) = (Arc::new(tokio::sync::Notify::new()), Arc::new(tokio::sync::Notify::new()));
    let model = held_model(arrived.clone(), release.clone()).await;
    let mut worker_env = cluster.gtms_env();
    worker_env.extend(model_env(&model));
    let mut worker = spawn_worker(&worker_env);
    let content = app.start_draft().await;
    tokio::time::timeout(Duration::from_secs(60), arrived.notified()).await.expect("the draft's model call arrives");

    let pid = worker.id().to_string();
    assert!(std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
    release.notify_one();
    let exit = tokio::task::spawn_blocking(move || worker.wait()).await.expect("join").expect("wait");
    assert_eq!(exit.code(), Some(0), "the worker exits 0 after draining");

    let waiting = app.wait_for(&content, "waiting at the approval", status_is("waiting")).await;
    let draft = waiting["steps"].as_array().expect("steps").iter().find(|s| s["name"] == "draft").cloned();
    let draft = draft.expect("the draft step");
    assert_eq!((draft["status"].as_str(), draft["attempts"].as_u64()), (Some("completed"), Some(1)), "{waiting}");
    let history = cluster.cli_json_async(&["workflow", "show", "--workflow-id", &content]).await;
    let events: Vec<&str> =
        history["events"].as_array().into_iter().flatten().filter_map(|e| e["eventType"].as_str()).collect();
    let failed = events.iter().filter(|e| e.contains("ACTIVITY_TASK_FAILED") || e.contains("TIMED_OUT")).count();
    assert_eq!(failed, 0, "no activity failed or timed out: {events:?}");
}

/// SIGTERM reaches the appliance (demo engine) while a step's model call is in flight: the step
/// finishes and is recorded within the grace period, nothing new starts, and the process exits
/// 0; after a restart the workflow goes on from the recorded step, which is not run again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_the_demo_engine_finish_the_step_in_flight() {
    let (arrived, release) = (Arc::new(tokio::sync::Notify::new()), Arc::new(tokio::sync::Notify::new()));
    let model = held_model(arrived.clone(), release.clone()).await;
    let app = Appliance::start(&model_env(&model)).await;
    let content = app.start_draft().await;
    tokio::time::timeout(Duration::from_secs(60), arrived.notified()).await.expect("a model call arrives");

    app.server.send_sigterm();
    app.server.wait_for_log("shutdown signal received");
    release.notify_one();
    let Appliance { server, token, http, dir, env } = app;
    let (code, log) = tokio::task::spawn_blocking(move || server.wait()).await.expect("join");
    assert_eq!(code, Some(0), "{log}");

    let store = gtms::store::Store::open(&dir.path().join("gtms.redb")).expect("the data file opens");
    let record = store.workflow(&content).await.expect("read").expect("the workflow");
    drop(store);
    let done: Vec<(&str, u32)> = record
        .steps
        .iter()
        .filter(|s| s.status == gtms::domain::StepStatus::Completed)
        .map(|s| (s.name.as_str(), s.attempts))
        .collect();
    // The draft is the step whose model call was held.
    assert_eq!(done, [("brief", 1), ("draft", 1)], "the step in flight was finished and recorded");
    assert!(record.approval.is_none(), "nothing new started after the signal: {done:?}");
    let finished = record.steps.iter().find(|s| s.name == "draft").and_then(|s| s.finished_ms);

    // After the restart, any later model call is answered at once.
    tokio::spawn(async move {
        loop {
            arrived.notified().await;
            release.notify_one();
        }
    });
    let app = Appliance { server: Appliance::serve(&dir, &env), token, http, dir, env };
    let waiting = app.wait_for(&content, "waiting at the approval after the restart", status_is("waiting")).await;
    let draft = step(&waiting, "draft");
    assert_eq!((draft["status"].as_str(), draft["attempts"].as_u64()), (Some("completed"), Some(1)), "{waiting}");
    let finished = finished.map(gtms::domain::rfc3339_ms);
    assert_eq!(draft["finishedAt"].as_str(), finished.as_deref(), "the draft was not run again: {waiting}");
}
