//! Budgets inside workflows (issue 28; docs/controls.md), the same scenario on both engines
//! behind the real binary (the temporal engine's run is part of its suite in `engines`): a
//! worker's daily budget set so that one more draft crosses it; a draft started past the soft
//! share parks at the `budget` gate before its model call (nothing ran), runs the one call once
//! approved and goes on; the next draft, past the limit, fails unrun and not retried, and the
//! team is told; a rejected budget gate stops the workflow.

use reqwest::Method;
use serde_json::{Value, json};

use crate::appliance::{Appliance, status_is, step};

/// What the content writer spent today, from `GET /api/controls/budgets`.
async fn spent_today(app: &Appliance) -> u64 {
    let list = app.get("/api/controls/budgets").await;
    let writer = list["budgets"].as_array().into_iter().flatten().find(|b| b["worker"] == "content-writer");
    writer.and_then(|b| b["spentToday"].as_u64()).unwrap_or_else(|| panic!("the content writer's budget: {list}"))
}

/// Sets the content writer's daily limit (`None`: back to the default) and answers its state.
async fn set_daily(app: &Appliance, limit: Option<u64>) -> String {
    let mut body = json!({"scope": "worker", "worker": "content-writer"});
    if let Some(limit) = limit {
        body["dailyTokens"] = json!(limit);
    }
    let (status, list) = app.call(Method::POST, "/api/controls/budgets", Some(body)).await;
    assert_eq!(status, 200, "{list}");
    let writer = list["budgets"].as_array().into_iter().flatten().find(|b| b["worker"] == "content-writer").cloned();
    writer.and_then(|b| b["state"].as_str().map(str::to_owned)).unwrap_or_default()
}

/// Waits until the workflow parks at gate `gate`.
async fn parked_at(app: &Appliance, id: &str, gate: &'static str) -> Value {
    app.wait_for(id, gate, move |w| w["status"] == "waiting" && w["approval"]["step"] == gate).await
}

/// The scenario; answers the appliance and the id of the draft the spent budget failed (its
/// `workflow.failed` notice is checked in the outbox by `failure_told`).
pub async fn scenario(app: Appliance) -> (Appliance, String) {
    // What one draft costs, with no limit set.
    let before = spent_today(&app).await;
    let first = app.start_draft().await;
    parked_at(&app, &first, "approval").await;
    let after = spent_today(&app).await;
    let cost = after.saturating_sub(before);
    assert!(cost > 0, "a draft spends tokens ({before} → {after})");
    assert_eq!(app.decide(&first, "reject").await.0, 200);

    // Past 80 % of the day's limit now; one more draft spends it.
    let margin = (cost / 5).max(1);
    assert_eq!(set_daily(&app, Some(after + margin)).await, "near");
    let second = app.start_draft().await;
    let asking = parked_at(&app, &second, "budget").await;
    let summary = asking["approval"]["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("Budget nearly spent: the worker content-writer's budget for today"), "{asking}");
    assert!(summary.contains("(step draft)"), "{asking}");
    assert_eq!(step(&asking, "brief")["status"], "completed", "the budget is crossed mid-workflow: {asking}");
    assert_eq!(step(&asking, "draft")["status"], "pending", "the model call waits for the approval: {asking}");
    let inbox = app.get("/api/coordinator/approvals?limit=1000").await;
    let listed = inbox["approvals"].as_array().into_iter().flatten().any(|a| a["workflowId"] == second.as_str());
    assert!(listed, "the budget gate is in the approvals inbox: {inbox}");
    assert_eq!(app.decide(&second, "approve").await.0, 200);
    let drafted = parked_at(&app, &second, "approval").await;
    let draft = step(&drafted, "draft");
    assert_eq!((draft["status"].as_str(), draft["attempts"].as_u64()), (Some("completed"), Some(1)), "{drafted}");
    assert_eq!(step(&drafted, "budget")["output"]["decision"], "approve", "{drafted}");
    assert_eq!(app.decide(&second, "approve").await.0, 200);
    app.wait_for(&second, "completed", status_is("completed")).await;

    // Past the limit: the next draft fails before its model call, once, and says why.
    let limit = after + margin;
    let third = app.start_draft().await;
    let failed = app.wait_for(&third, "failed by the spent budget", status_is("failed")).await;
    let draft = step(&failed, "draft");
    assert_eq!((draft["status"].as_str(), draft["attempts"].as_u64()), (Some("failed"), Some(0)), "{failed}");
    assert_eq!(draft["output"]["refusedBy"], "budget", "{failed}");
    let error = failed["error"].as_str().unwrap_or_default();
    assert!(error.starts_with("step draft was not run: the worker content-writer's budget for today is spent"));
    assert!(error.contains(&format!("of {limit} tokens); it renews at 00:00 UTC")), "{failed}");

    // Raised to just past the soft share again: the gate is bound to the limits it was asked
    // under (a change makes a decision stale), and a rejection stops the workflow.
    let raised = spent_today(&app).await + margin;
    assert_eq!(set_daily(&app, Some(raised)).await, "near");
    let fourth = app.start_draft().await;
    parked_at(&app, &fourth, "budget").await;
    assert_eq!(set_daily(&app, Some(raised + 1)).await, "near");
    let (status, stale) = app.decide(&fourth, "approve").await;
    assert_eq!((status, stale["error"].as_str()), (409, Some("conflict")), "{stale}");
    let message = stale["message"].as_str().unwrap_or_default();
    let was = format!("the budget was worker/content-writer: {raised} a day, none a month");
    assert!(message.contains(&was) && message.contains(&format!("{} a day", raised + 1)), "{stale}");
    assert_eq!(app.decide(&fourth, "reject").await.0, 200, "decided on the limits that hold now");
    let stopped = app.wait_for(&fourth, "stopped at the budget gate", status_is("cancelled")).await;
    assert_eq!(
        (stopped["result"]["stopped"].as_str(), stopped["result"]["decision"].as_str()),
        (Some("budget"), Some("reject"))
    );
    assert!(step(&stopped, "draft").is_null(), "no model call ran: {stopped}");

    assert_eq!(set_daily(&app, None).await, "ok", "back to the default: no limit");
    (app, third)
}

/// The team was told once that `failed` failed, and why.
pub fn failure_told(outbox: &[gtms::store::OutboxRecord], failed: &str) {
    let told: Vec<&str> = outbox
        .iter()
        .filter(|n| n.event == "workflow.failed" && n.workflow_id.as_deref() == Some(failed))
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains("budget for today is spent"), "{told:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_engine_holds_workflows_to_their_budgets() {
    let app = Appliance::start(&[]).await;
    let (app, failed) = scenario(app).await;
    failure_told(&app.stop_and_read_outbox().await, &failed);
}
