//! `/api/deals`: lists, filters, detail, the pipeline summary, and admin updates with the
//! stage rules; viewers are refused writes; the demo seed loads once.

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app};

async fn get_json(app: &TestApp, path: &str, token: &str) -> Value {
    let res = app.authed(Method::GET, path, token).send().await.expect("get");
    assert_eq!(res.status(), 200, "{path}");
    res.json().await.expect("json")
}

async fn patch(app: &TestApp, id: &str, token: &str, body: Value) -> reqwest::Response {
    app.authed(Method::PATCH, &format!("/api/deals/{id}"), token).json(&body).send().await.expect("patch")
}

fn first_in(list: &Value, stage: &str) -> String {
    list["deals"].as_array().expect("deals").iter().find(|d| d["stage"] == stage).expect("a deal in that stage")["id"]
        .as_str()
        .expect("id")
        .to_owned()
}

#[tokio::test]
async fn the_list_is_stable_filtered_and_counted() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    let all = get_json(&app, "/api/deals?limit=1000", &token).await;
    let deals = all["deals"].as_array().expect("deals");
    assert!(deals.len() >= 100, "the demo seeds ~150 deals");
    assert_eq!(all["total"], deals.len());
    let ids: Vec<&str> = deals.iter().map(|d| d["id"].as_str().unwrap_or_default()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "stable order by id");
    for key in ["id", "accountName", "value", "stage", "type", "rep", "champion", "closeDate", "probability"] {
        assert!(deals[0].get(key).is_some(), "list form lacks {key}");
    }
    assert!(deals[0].get("history").is_none(), "history is detail-only");
    let again = get_json(&app, "/api/deals?limit=1000", &token).await;
    assert_eq!(again, all);
    assert!(all.get("nextCursor").is_none(), "one page holds them all");

    let rep = deals[0]["rep"].as_str().expect("rep").to_owned();
    for (query, key, want) in [("stage=proposal", "stage", "proposal"), ("type=renewal", "type", "renewal")] {
        let filtered = get_json(&app, &format!("/api/deals?{query}"), &token).await;
        let list = filtered["deals"].as_array().expect("deals");
        assert!(!list.is_empty() && list.iter().all(|d| d[key] == want), "{query}");
        assert_eq!(filtered["total"], list.len());
    }
    let by_rep = get_json(&app, &format!("/api/deals?rep={}", rep.replace(' ', "%20")), &token).await;
    assert!(by_rep["deals"].as_array().expect("deals").iter().all(|d| d["rep"] == rep.as_str()));
    let nobody = get_json(&app, "/api/deals?rep=Nobody%20Here", &token).await;
    assert_eq!((nobody["total"].clone(), nobody["deals"].clone()), (json!(0), json!([])), "a rep filters by its value");
    for bad in ["stage=won", "stage=discovery", "type=upsell", "color=red", "stage=proposal&stage=negotiation"] {
        let res = app.authed(Method::GET, &format!("/api/deals?{bad}"), &token).send().await.expect("get");
        assert_envelope(res, 400, "bad_request").await;
    }
    assert_envelope(app.get("/api/deals").await, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn detail_adds_champion_status_next_step_and_history() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    let deal = get_json(&app, "/api/deals/deal-001", &token).await;
    for key in ["championStatus", "nextStep", "history", "accountName", "probability"] {
        assert!(deal.get(key).is_some(), "detail lacks {key}");
    }
    assert!(["engaged", "at-risk", "lost", "unknown"].contains(&deal["championStatus"].as_str().unwrap_or("")));
    let probability = deal["probability"].as_u64().expect("probability");
    assert!(probability <= 100);
    for missing in ["/api/deals/deal-999", "/api/deals/..%2f..%2fetc", "/api/deals/summary"] {
        let res = app.authed(Method::GET, missing, &token).send().await.expect("get");
        assert_envelope(res, 404, "not_found").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn the_pipeline_summary_adds_up() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    let summary = get_json(&app, "/api/deals/summary/pipeline", &token).await;
    let sum = |key: &str, field: &str| {
        summary[key].as_object().expect(key).values().map(|v| v[field].as_u64().expect("a number")).sum::<u64>()
    };
    let total = summary["total"].as_u64().expect("total");
    let count = summary["dealCount"].as_u64().expect("dealCount");
    assert_eq!((sum("byStage", "value"), sum("byStage", "count")), (total, count));
    assert_eq!((sum("byType", "value"), sum("byType", "count")), (total, count));
    let stages: Vec<&String> = summary["byStage"].as_object().expect("byStage").keys().collect();
    let spec = ["prospecting", "qualification", "proposal", "negotiation", "closed-won", "closed-lost"];
    assert_eq!(stages, spec, "exactly the spec's six stages, in order, zero ones included");
    let types: Vec<&String> = summary["byType"].as_object().expect("byType").keys().collect();
    assert_eq!(types, ["new-business", "expansion", "renewal"]);
    for (stage, bucket) in summary["byStage"].as_object().expect("byStage") {
        let listed = get_json(&app, &format!("/api/deals?stage={stage}"), &token).await;
        assert_eq!(bucket["count"], listed["total"], "{stage}");
    }
    let all = get_json(&app, "/api/deals?limit=1000", &token).await;
    assert_eq!(summary["dealCount"], all["total"]);
    let values: u64 = all["deals"].as_array().expect("deals").iter().map(|d| d["value"].as_u64().unwrap_or(0)).sum();
    assert_eq!(values, total);
    app.stop().await;
}

#[tokio::test]
async fn the_list_pages_by_limit_and_cursor_and_total_counts_every_match() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    let all = get_json(&app, "/api/deals?limit=1000", &token).await;
    let every: Vec<Value> = all["deals"].as_array().expect("deals").clone();
    let first = get_json(&app, "/api/deals", &token).await;
    assert_eq!(first["deals"].as_array().map(Vec::len), Some(100.min(every.len())), "100 by default");
    let (mut walked, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/deals?limit=40&cursor={c}"),
            None => "/api/deals?limit=40".to_owned(),
        };
        let page = get_json(&app, &path, &token).await;
        assert_eq!(page["total"], every.len(), "total is every match, on every page");
        walked.extend(page["deals"].as_array().expect("deals").iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(walked, every, "the pages together are the list, each deal once, in order");
    let proposals = get_json(&app, "/api/deals?stage=proposal&limit=2", &token).await;
    assert!(proposals["deals"].as_array().expect("deals").iter().all(|d| d["stage"] == "proposal"));
    for bad in ["limit=0", "limit=1001", "limit=ten", "limit=-1"] {
        let res = app.authed(Method::GET, &format!("/api/deals?{bad}"), &token).send().await.expect("get");
        assert_envelope(res, 400, "bad_request").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn admins_move_deals_by_the_rules_and_viewers_cannot() {
    let app = spawn_app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let list = get_json(&app, "/api/deals", &admin).await;
    let open = first_in(&list, "qualification");
    let closed = first_in(&list, "closed-won");

    let res = patch(&app, &open, &admin, json!({ "stage": "proposal", "nextStep": "Send the order form" })).await;
    assert_eq!(res.status(), 200);
    let moved: Value = res.json().await.expect("json");
    assert_eq!(moved["stage"], "proposal");
    assert_eq!(moved["nextStep"], "Send the order form");
    let last = moved["history"].as_array().expect("history").last().cloned().expect("entry");
    assert_eq!(last["action"], "moved to proposal");
    assert_eq!(last["date"], chrono::Utc::now().format("%Y-%m-%d").to_string());
    assert_eq!(get_json(&app, &format!("/api/deals/{open}"), &viewer).await["stage"], "proposal", "durable");

    assert_envelope(patch(&app, &open, &admin, json!({ "stage": "qualification" })).await, 409, "conflict").await;
    assert_envelope(patch(&app, &open, &admin, json!({ "stage": "proposal" })).await, 409, "conflict").await;
    assert_envelope(patch(&app, &closed, &admin, json!({ "stage": "negotiation" })).await, 409, "conflict").await;
    assert_envelope(patch(&app, &closed, &admin, json!({ "nextStep": "x" })).await, 409, "conflict").await;
    let won = patch(&app, &open, &admin, json!({ "stage": "closed-won" })).await.json::<Value>().await.expect("json");
    assert_eq!((won["stage"].clone(), won["probability"].clone()), (json!("closed-won"), json!(100)));
    assert_envelope(patch(&app, &open, &admin, json!({ "stage": "closed-lost" })).await, 409, "conflict").await;

    assert_envelope(patch(&app, &open, &viewer, json!({ "nextStep": "x" })).await, 403, "forbidden").await;
    let other = first_in(&list, "prospecting");
    for bad in [
        json!({ "owner": "me" }),
        json!({ "stage": "won" }),
        json!({ "stage": "discovery" }),
        json!({ "probability": 140 }),
        json!({ "probability": -1 }),
        json!({ "probability": "50" }),
        json!({ "stage": 3 }),
        json!({ "closeDate": "tomorrow" }),
        json!({ "closeDate": "-0001-01-01" }),
        json!({ "closeDate": "+2027-01-01" }),
        json!({ "closeDate": " 2027-01-01" }),
        json!({ "closeDate": "2027-02-30" }),
    ] {
        assert_envelope(patch(&app, &other, &admin, bad).await, 400, "bad_request").await;
    }
    assert_envelope(patch(&app, "deal-999", &admin, json!({ "nextStep": "x" })).await, 404, "not_found").await;
    let raw = app
        .authed(Method::PATCH, &format!("/api/deals/{other}"), &admin)
        .header("content-type", "application/json")
        .body("{\"stage\":");
    assert_envelope(raw.send().await.expect("send"), 400, "bad_request").await;
    assert_envelope(patch(&app, &other, "", json!({})).await, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn the_demo_workspace_is_seeded_once_and_user_changes_survive_a_restart() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let list = get_json(&app, "/api/deals", &admin).await;
    let count = list["total"].clone();
    let id = first_in(&list, "qualification");
    assert_eq!(patch(&app, &id, &admin, json!({ "stage": "negotiation" })).await.status(), 200);

    let app = app.restart().await;
    let admin = app.token(Role::Admin).await;
    let after = get_json(&app, "/api/deals", &admin).await;
    assert_eq!(after["total"], count, "not seeded twice");
    assert_eq!(get_json(&app, &format!("/api/deals/{id}"), &admin).await["stage"], "negotiation", "not overwritten");
    app.stop().await;
}
