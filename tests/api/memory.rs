//! `/api/memory` and `/api/project/memory`: entry shape, 201/200, versions and `ifVersion`
//! (409), the 16 KiB value limit (413), bad scopes and keys (400), viewers refused writes
//! (403), unknown keys (404), history with archived versions, tree, search, health, route
//! precedence, compression on demand and by the scheduled job, and — with the real binary —
//! that every acknowledged write of 32 concurrent clients survives `kill -9`.

use std::time::Duration;

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::envelope::assert_envelope;
use crate::helpers::{Binary, TestApp, spawn_app_with};

pub async fn app() -> TestApp {
    spawn_app_with(|l| l.api_rate_limit = Some(1_000_000)).await
}

pub async fn write(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.authed(Method::POST, "/api/memory", token).json(&body).send().await.expect("post")
}

async fn get(app: &TestApp, token: &str, path: &str) -> reqwest::Response {
    app.authed(Method::GET, path, token).send().await.expect("get")
}

async fn ok_json(res: reqwest::Response, status: u16) -> Value {
    assert_eq!(res.status().as_u16(), status);
    res.json().await.expect("json")
}

#[tokio::test]
async fn entries_are_created_updated_versioned_and_read_back() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let body =
        json!({ "scope": "org", "key": "icp", "value": "Mid-market US banks", "tags": ["sales"], "pinned": true });
    let created = ok_json(write(&app, &admin, body).await, 201).await;
    for field in ["scope", "key", "value", "pinned", "tags", "version", "createdAt", "updatedAt", "author"] {
        assert!(created.get(field).is_some(), "entry lacks {field}: {created}");
    }
    assert_eq!((created["version"].as_u64(), created["pinned"].as_bool()), (Some(1), Some(true)));
    assert!(created["author"].as_str().is_some_and(|a| a.starts_with("user:")));
    let update = json!({ "scope": "org", "key": "icp", "value": "US banks and credit unions", "ifVersion": 1 });
    let updated = ok_json(write(&app, &admin, update).await, 200).await;
    assert_eq!((updated["version"].as_u64(), updated["pinned"].as_bool()), (Some(2), Some(true)), "pinned kept");
    assert_eq!(updated["createdAt"], created["createdAt"]);

    let stale = json!({ "scope": "org", "key": "icp", "value": "x", "ifVersion": 1 });
    assert_envelope(write(&app, &admin, stale).await, 409, "conflict").await;
    let exists = json!({ "scope": "org", "key": "icp", "value": "x", "ifVersion": 0 });
    assert_envelope(write(&app, &admin, exists).await, 409, "conflict").await;

    let read = ok_json(get(&app, &admin, "/api/memory/org/icp").await, 200).await;
    assert_eq!(read["value"], "US banks and credit unions");
    let history = ok_json(get(&app, &admin, "/api/memory/org/icp/history").await, 200).await;
    let versions: Vec<(u64, &str)> = history["versions"]
        .as_array()
        .expect("versions")
        .iter()
        .map(|v| (v["version"].as_u64().unwrap_or(0), v["state"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(versions, vec![(1, "superseded"), (2, "current")]);

    let team = json!({ "scope": "team:sales", "key": "playbook", "value": "Lead with pricing objections" });
    ok_json(write(&app, &admin, team).await, 201).await;
    let encoded = ok_json(get(&app, &admin, "/api/memory/team%3Asales/playbook").await, 200).await;
    assert_eq!(encoded["scope"], "team:sales");
    let project = ok_json(get(&app, &admin, "/api/project/memory").await, 200).await;
    assert_eq!((project["total"].as_u64(), project["entries"][0]["key"].as_str()), (Some(1), Some("icp")));
    app.stop().await;
}

#[tokio::test]
async fn bad_input_is_refused_with_the_right_status() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;
    for bad in [
        json!({ "scope": "galaxy", "key": "k", "value": "v" }),
        json!({ "scope": "team:", "key": "k", "value": "v" }),
        json!({ "scope": "org", "key": "a/b", "value": "v" }),
        json!({ "scope": "org", "key": "", "value": "v" }),
        json!({ "scope": "org", "key": "k", "value": "v", "tags": [""] }),
        json!({ "scope": "org", "key": "k", "value": "v", "colour": "red" }),
        json!({ "scope": "org", "key": "k" }),
    ] {
        assert_envelope(write(&app, &admin, bad).await, 400, "bad_request").await;
    }
    let big = json!({ "scope": "org", "key": "big", "value": "x".repeat(16 * 1024 + 1) });
    assert_envelope(write(&app, &admin, big).await, 413, "payload_too_large").await;
    let fits = json!({ "scope": "org", "key": "big", "value": "x".repeat(16 * 1024) });
    ok_json(write(&app, &admin, fits).await, 201).await;
    let by_viewer = json!({ "scope": "org", "key": "k", "value": "v" });
    assert_envelope(write(&app, &viewer, by_viewer).await, 403, "forbidden").await;
    let res = app.client.post(app.url("/api/memory")).json(&json!({})).send().await.expect("post");
    assert_envelope(res, 401, "unauthorized").await;
    assert_envelope(get(&app, &viewer, "/api/memory/org/nothing-here").await, 404, "not_found").await;
    assert_envelope(get(&app, &viewer, "/api/memory/org/nothing-here/history").await, 404, "not_found").await;
    assert_envelope(get(&app, &viewer, "/api/memory/planet/k").await, 400, "bad_request").await;
    assert_envelope(get(&app, &viewer, "/api/memory/search").await, 400, "bad_request").await;
    assert_envelope(get(&app, &viewer, "/api/memory/search?q=ab").await, 400, "bad_request").await;
    assert_envelope(get(&app, &viewer, "/api/memory/search?q=bank&scope=moon").await, 400, "bad_request").await;
    assert_envelope(get(&app, &viewer, "/api/memory/search?q=bank&limit=1").await, 400, "bad_request").await;
    assert_envelope(get(&app, &viewer, "/api/memory/health/nobody").await, 404, "not_found").await;
    assert_envelope(get(&app, &viewer, "/api/memory/health/Bad%20Id").await, 400, "bad_request").await;
    let res = app.authed(Method::POST, "/api/memory/compress/sdr", &viewer).send().await.expect("post");
    assert_envelope(res, 403, "forbidden").await;
    let res = app.authed(Method::POST, "/api/memory/compress/nobody", &admin).send().await.expect("post");
    assert_envelope(res, 404, "not_found").await;
    app.stop().await;
}

#[tokio::test]
async fn tree_search_and_health_win_over_the_scope_key_routes() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    for (scope, key, value) in [
        ("org", "pricing", "Pricing objections come up in every bank deal"),
        ("worker:sdr", "notes", "Call banks on Tuesdays"),
        ("worker:sdr", "tree", "a key named like a route"),
    ] {
        ok_json(write(&app, &admin, json!({ "scope": scope, "key": key, "value": value })).await, 201).await;
    }
    let tree = ok_json(get(&app, &admin, "/api/memory/tree").await, 200).await;
    assert_eq!(tree["totalEntries"], 3);
    let scopes: Vec<&str> =
        tree["scopes"].as_array().expect("scopes").iter().filter_map(|s| s["scope"].as_str()).collect();
    assert_eq!(scopes, vec!["org", "worker:sdr"]);
    assert_eq!(tree["scopes"][1]["keys"][0]["size"], "Call banks on Tuesdays".len());
    let hits = ok_json(get(&app, &admin, "/api/memory/search?q=bank%20objections").await, 200).await;
    assert_eq!(hits["results"][0]["key"], "pricing", "{hits}");
    assert_eq!(hits["results"][0]["score"], 2);
    let scoped = ok_json(get(&app, &admin, "/api/memory/search?q=banks&scope=worker%3Asdr").await, 200).await;
    assert_eq!((scoped["total"].as_u64(), scoped["results"][0]["key"].as_str()), (Some(1), Some("notes")));
    assert_eq!(scoped["totalExact"], true, "{scoped}");
    let health = ok_json(get(&app, &admin, "/api/memory/health/sdr").await, 200).await;
    for field in [
        "workerId",
        "totalEntries",
        "pinnedFacts",
        "tokens",
        "budget",
        "utilization",
        "lastCompression",
        "staleEntries",
        "status",
    ] {
        assert!(health.get(field).is_some(), "health lacks {field}: {health}");
    }
    assert_eq!((health["totalEntries"].as_u64(), health["status"].as_str()), (Some(2), Some("healthy")));
    let key_named_tree = ok_json(get(&app, &admin, "/api/memory/worker:sdr/tree").await, 200).await;
    assert_eq!(key_named_tree["value"], "a key named like a route");
    app.stop().await;
}

#[tokio::test]
async fn compression_folds_the_oldest_unpinned_entries_and_keeps_them_in_history() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let pinned = json!({ "scope": "worker:revenue-analyst", "key": "commit", "value": "Never discount below 20 %", "pinned": true });
    ok_json(write(&app, &admin, pinned).await, 201).await;
    for i in 0..3 {
        let body = json!({ "scope": "worker:revenue-analyst", "key": format!("week-{i}"), "value": format!("week {i}: {}", "usage grew ".repeat(600)) });
        ok_json(write(&app, &admin, body).await, 201).await;
    }
    let before = ok_json(get(&app, &admin, "/api/memory/health/revenue-analyst").await, 200).await;
    assert_eq!((before["status"].as_str(), before["lastCompression"].as_str()), (Some("over-budget"), None));
    let res = app.authed(Method::POST, "/api/memory/compress/revenue-analyst", &admin).send().await.expect("post");
    let report = ok_json(res, 200).await;
    assert_eq!(report["compressed"], true, "{report}");
    assert_eq!(report["folded"], json!(["week-0", "week-1"]), "oldest first, until half the budget is left");
    let summary_key = report["summaryKey"].as_str().expect("summary key");
    let summary =
        ok_json(get(&app, &admin, &format!("/api/memory/worker:revenue-analyst/{summary_key}")).await, 200).await;
    assert!(summary["value"].as_str().is_some_and(|v| v.contains("demo model") && v.contains("week-1")), "{summary}");
    assert_envelope(get(&app, &admin, "/api/memory/worker:revenue-analyst/week-0").await, 404, "not_found").await;
    let history = ok_json(get(&app, &admin, "/api/memory/worker:revenue-analyst/week-0/history").await, 200).await;
    assert_eq!(history["versions"][0]["state"], "archived");
    assert!(history["versions"][0]["value"].as_str().is_some_and(|v| v.starts_with("week 0")));
    ok_json(get(&app, &admin, "/api/memory/worker:revenue-analyst/commit").await, 200).await;
    let after = ok_json(get(&app, &admin, "/api/memory/health/revenue-analyst").await, 200).await;
    assert!(after["lastCompression"].as_str().is_some() && after["status"] == "healthy", "{after}");

    let again = app.authed(Method::POST, "/api/memory/compress/revenue-analyst", &admin).send().await.expect("post");
    assert_eq!(ok_json(again, 200).await["compressed"], false, "within budget now");
    app.stop().await;
}

#[tokio::test]
async fn the_scheduled_compression_job_runs_and_is_recorded() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    for i in 0..2 {
        let body = json!({ "scope": "worker:sdr", "key": format!("lead-{i}"), "value": "x".repeat(16 * 1024) });
        ok_json(write(&app, &admin, body).await, 201).await;
    }
    let job = gtms::jobs::standard(app.state())
        .into_iter()
        .find(|j| j.name == "memory-compression")
        .expect("the job is scheduled");
    assert_eq!(job.schedule, "0 15 * * * *", "hourly by default");
    let run = gtms::jobs::run_once(app.state().store(), &job).await;
    assert!(run.ok, "{:?}", run.error);
    let health = ok_json(get(&app, &admin, "/api/memory/health/sdr").await, 200).await;
    assert!(health["lastCompression"].as_str().is_some(), "{health}");
    let tasks = ok_json(get(&app, &admin, "/api/tasks/status").await, 200).await;
    let row = tasks["jobs"].as_array().expect("jobs").iter().find(|j| j["name"] == "memory-compression").cloned();
    assert_eq!(row.expect("listed")["lastRun"]["outcome"], "ok");
    app.stop().await;
}

/// The real binary, 32 concurrent writers, `kill -9`: every write that was answered 2xx is
/// on disk after the restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_write_survives_kill_9() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let config = dir.path().join("gtms.toml");
    std::fs::write(&config, "api_rate_limit = 1000000\n").expect("config");
    let server = Binary::serve(&data, &["--config", config.to_str().expect("utf8")]);
    let code = server.demo_invite_code();
    let client = reqwest::Client::new();
    let login = client.post(format!("{}/auth/login", server.base)).json(&json!({ "inviteCode": code })).send().await;
    let token = login.expect("login").json::<Value>().await.expect("json")["token"].as_str().expect("token").to_owned();

    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(String, u64)>();
    let mut writers = Vec::new();
    for w in 0..32 {
        let (client, base, token, tx) = (client.clone(), server.base.clone(), token.clone(), tx.clone());
        writers.push(tokio::spawn(async move {
            for i in 0.. {
                let key = format!("w{w}-{i}");
                let body = json!({ "scope": "org", "key": key, "value": format!("value {w} {i}") });
                let res = client.post(format!("{base}/api/memory")).bearer_auth(&token).json(&body).send().await;
                match res {
                    Ok(r) if r.status().is_success() => {
                        let _ = tx.send((
                            key,
                            r.json::<Value>().await.map(|v| v["version"].as_u64().unwrap_or(0)).unwrap_or(0),
                        ));
                    }
                    _ => break,
                }
            }
        }));
    }
    drop(tx);
    let mut acknowledged = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while acknowledged.len() < 500 && tokio::time::Instant::now() < deadline {
        if let Ok(Some(ack)) = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await {
            acknowledged.push(ack);
        }
    }
    server.kill_9();
    for w in writers {
        let _ = w.await;
    }
    while let Ok(ack) = rx.try_recv() {
        acknowledged.push(ack);
    }
    assert!(acknowledged.len() >= 500, "only {} writes were acknowledged", acknowledged.len());
    let store = gtms::store::Store::open(&data).expect("the file opens after kill -9");
    for (key, version) in &acknowledged {
        let entry = store.memory_entry("org", key).await.expect("read").unwrap_or_else(|| panic!("{key} was lost"));
        assert_eq!(entry.version, *version);
    }
}

/// The tree answers every scope's totals with one page of keys, and pages within a scope by
/// `scope`, `limit` and `cursor` (issue 27); a bad page is a 400 in the envelope.
#[tokio::test]
async fn the_tree_counts_every_scope_and_pages_within_one() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let keys = ["k1", "k2", "k3", "k4", "k5"];
    for key in keys {
        let body = json!({ "scope": "team:sales", "key": key, "value": format!("value of {key}") });
        ok_json(write(&app, &admin, body).await, 201).await;
    }
    ok_json(write(&app, &admin, json!({ "scope": "org", "key": "icp", "value": "banks" })).await, 201).await;
    let tree = ok_json(get(&app, &admin, "/api/memory/tree?limit=2").await, 200).await;
    assert_eq!(tree["totalEntries"], 6);
    let team = &tree["scopes"][1];
    assert_eq!((team["scope"].as_str(), team["entries"].as_u64()), (Some("team:sales"), Some(5)));
    assert_eq!(team["bytes"], keys.iter().map(|k| format!("value of {k}").len()).sum::<usize>());
    assert_eq!((team["keys"].as_array().map(Vec::len), team["nextCursor"].as_str()), (Some(2), Some("k2")));
    assert!(tree["scopes"][0].get("nextCursor").is_none(), "org fits one page");

    let (mut walked, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/memory/tree?scope=team%3Asales&limit=2&cursor={c}"),
            None => "/api/memory/tree?scope=team%3Asales&limit=2".to_owned(),
        };
        let page = ok_json(get(&app, &admin, &path).await, 200).await;
        assert_eq!(page["scopes"].as_array().map(Vec::len), Some(1), "one scope asked, one answered");
        let scope = &page["scopes"][0];
        walked.extend(
            scope["keys"].as_array().expect("keys").iter().filter_map(|k| k["key"].as_str().map(str::to_owned)),
        );
        match scope["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(walked, keys, "the pages together are the scope's keys, in order");
    let everywhere = ok_json(get(&app, &admin, "/api/memory/tree?scope=&cursor=k4").await, 200).await;
    let after_k4: Vec<&str> =
        everywhere["scopes"][1]["keys"].as_array().expect("keys").iter().filter_map(|k| k["key"].as_str()).collect();
    assert_eq!(after_k4, ["k5"], "a cursor alone starts every scope after it");
    assert_eq!(everywhere["scopes"][0]["keys"].as_array().map(Vec::len), Some(0), "org has no key after k4");
    for bad in ["limit=0", "limit=1001", "scope=nowhere", "depth=2"] {
        assert_envelope(get(&app, &admin, &format!("/api/memory/tree?{bad}")).await, 400, "bad_request").await;
    }
    app.stop().await;
}
