//! Token budgets (issue 28; docs/controls.md) against the real app: the list with spend (any
//! signed-in user), an admin setting the Brain's per-user budget (viewers 403, a bad scope or
//! limit 400, an unknown worker 404), a chat refused with 429 and `Retry-After` once the user's
//! budget for the day is spent — counted from the demo model's own token counts —, the spend
//! shown against the budget (and in `/api/metrics/tokens` and on `/metrics`), the budget put back
//! to the default, and each change audited.

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::TestApp;

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.authed(Method::POST, path, token).json(&body).send().await.expect("post")
}

fn budget<'a>(list: &'a Value, scope: &str) -> &'a Value {
    list["budgets"].as_array().into_iter().flatten().find(|b| b["scope"] == scope).unwrap_or(&Value::Null)
}

#[tokio::test]
async fn a_spent_brain_budget_refuses_the_next_chat_with_429_until_it_is_raised() {
    let app = crate::workflows::app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);

    let list = app.get_json(&viewer, "/api/controls/budgets").await;
    assert_eq!(list["softPercent"], 80, "{list}");
    assert_eq!(list["budgets"].as_array().map(Vec::len), Some(10), "workspace, brain and the eight workers: {list}");
    assert_eq!(
        (budget(&list, "brain")["source"].as_str(), budget(&list, "brain")["state"].as_str()),
        (Some("config"), Some("ok"))
    );

    let path = "/api/controls/budgets";
    assert_eq!(post(&app, &viewer, path, json!({"scope": "brain", "dailyTokens": 10})).await.status(), 403);
    for (body, status) in [
        (json!({"scope": "brain", "worker": "sdr", "dailyTokens": 10}), 400),
        (json!({"scope": "worker", "dailyTokens": 10}), 400),
        (json!({"scope": "brain", "dailyTokens": 0}), 400),
        (json!({"scope": "worker", "worker": "nobody", "dailyTokens": 10}), 404),
    ] {
        let res = post(&app, &admin, path, body.clone()).await;
        assert_eq!(res.status(), status, "{body}");
    }
    let res = post(&app, &admin, path, json!({"scope": "brain", "dailyTokens": 50})).await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.expect("json");
    let brain = budget(&list, "brain");
    assert_eq!((brain["dailyTokens"].as_u64(), brain["source"].as_str()), (Some(50), Some("admin")), "{list}");
    assert!(brain["setBy"].as_str().is_some_and(|by| by.contains('(')), "{list}");

    let chat = |message: &'static str| {
        let (app, viewer) = (&app, &viewer);
        async move { post(app, viewer, "/api/brain/chat", json!({"message": message})).await }
    };
    let first = chat("What do we know about pricing objections?").await;
    assert_eq!(first.status(), 200, "the budget was not spent before this call");
    let used = first.json::<Value>().await.expect("json")["tokensUsed"].as_u64().expect("tokens");
    assert!(used >= 50, "one demo answer spends the day's 50 tokens ({used})");
    let refused = chat("And about renewals?").await;
    assert_eq!(refused.status(), 429);
    let retry: u64 = refused.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=86_400).contains(&retry), "until midnight UTC: {retry}");
    let body: Value = refused.json().await.expect("json");
    assert_eq!(body["error"], "rate_limited", "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains("your Brain budget for today is spent") && message.contains("of 50 tokens"), "{body}");

    let list = app.get_json(&admin, path).await;
    let brain = budget(&list, "brain");
    assert_eq!((brain["spentToday"].as_u64(), brain["state"].as_str()), (Some(used), Some("spent")), "{list}");
    assert!(budget(&list, "workspace")["spentToday"].as_u64().is_some_and(|n| n >= used), "{list}");

    let tokens = app.get_json(&viewer, "/api/metrics/tokens").await;
    assert_eq!(budget(&tokens, "brain")["state"], "spent", "the tokens view has the budgets: {tokens}");
    assert!(tokens["computedAt"].is_string() && tokens["byWorker"].is_array(), "and still the rollup: {tokens}");
    let metrics_mcp = crate::mcp::RawSession::open_at(&app.base, "/mcp?toolsets=metrics", &viewer).await;
    let tool = metrics_mcp.call(1, "metrics_tokens", json!({})).await;
    let tool = &tool["result"]["structuredContent"];
    assert_eq!(budget(tool, "brain")["state"], "spent", "so has the metrics_tokens tool: {tool}");
    assert!(tool["computedAt"].is_string(), "{tool}");

    let metrics = app.authed(Method::GET, "/metrics", &admin).send().await.expect("scrape").text().await.expect("text");
    assert!(metrics.contains("gtms_budget_limit_tokens{scope=\"brain\",worker=\"\",period=\"day\"} 50"), "{metrics}");
    assert!(
        metrics.contains(&format!("gtms_budget_spent_tokens{{scope=\"brain\",worker=\"\",period=\"day\"}} {used}"))
    );
    assert!(metrics.contains("gtms_budget_limit_tokens{scope=\"worker\",worker=\"sdr\",period=\"month\"} +Inf"));

    let res = post(&app, &admin, path, json!({"scope": "brain"})).await;
    assert_eq!(res.status(), 200, "both limits left out: back to the default");
    assert_eq!(budget(&res.json::<Value>().await.expect("json"), "brain")["source"], "config");
    assert_eq!(chat("And about renewals?").await.status(), 200, "no limit again");

    // The same through MCP (the opt-in `controls` toolset): a viewer lists, an admin sets.
    let viewer_mcp = crate::mcp::RawSession::open_at(&app.base, "/mcp?toolsets=controls", &viewer).await;
    let listed = viewer_mcp.call(1, "budgets_list", json!({})).await;
    assert_eq!(listed["result"]["structuredContent"]["budgets"].as_array().map(Vec::len), Some(10), "{listed}");
    let refused = viewer_mcp.call(2, "budget_set", json!({"scope": "workspace", "dailyTokens": 5})).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let admin_mcp = crate::mcp::RawSession::open_at(&app.base, "/mcp?toolsets=controls", &admin).await;
    let set =
        admin_mcp.call(3, "budget_set", json!({"scope": "worker", "worker": "sdr", "monthlyTokens": 900000})).await;
    let sdr =
        set["result"]["structuredContent"]["budgets"].as_array().into_iter().flatten().find(|b| b["worker"] == "sdr");
    assert_eq!(sdr.map(|b| b["monthlyTokens"].clone()), Some(json!(900000)), "{set}");

    let audit = app.get_json(&admin, "/api/audit?action=budget.set").await;
    assert_eq!(audit["entries"].as_array().map(Vec::len), Some(3), "{audit}");
    assert_eq!(audit["entries"][0]["target"], "worker/sdr", "{audit}");
    assert_eq!(audit["entries"][0]["from"], "mcp 127.0.0.1", "MCP records the client's address: {audit}");
    assert_eq!(audit["entries"][2]["detail"]["dailyTokens"], "50", "{audit}");
    app.stop().await;
}
