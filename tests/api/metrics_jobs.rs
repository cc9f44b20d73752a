//! The four metric views (latest rollup with `computedAt`), the scheduler's jobs in
//! `/api/tasks/status`, and failing or panicking jobs that are recorded and stop nothing.

use std::time::Duration;

use gtms::domain::Role;
use gtms::jobs::{self, JobSpec};
use reqwest::Method;
use serde_json::{Value, json};

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app};

async fn get_json(app: &TestApp, path: &str, token: &str) -> Value {
    let res = app.authed(Method::GET, path, token).send().await.expect("get");
    assert_eq!(res.status(), 200, "{path}");
    res.json().await.expect("json")
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().expect("money") * 100.0).round() as i64
}

#[tokio::test]
async fn every_view_serves_its_latest_rollup() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    for view in ["pipeline", "tokens", "consumption", "workers"] {
        let body = get_json(&app, &format!("/api/metrics/{view}"), &token).await;
        assert!(body["computedAt"].as_str().is_some_and(|t| t.ends_with('Z')), "{view}: {body}");
    }
    let pipeline = get_json(&app, "/api/metrics/pipeline", &token).await;
    for key in ["totalValue", "openValue", "weightedValue", "dealCount", "countsByStage", "winRate"] {
        assert!(pipeline.get(key).is_some(), "pipeline lacks {key}");
    }
    let (won, lost) = (pipeline["won"].as_f64().expect("won"), pipeline["lost"].as_f64().expect("lost"));
    assert!((pipeline["winRate"].as_f64().expect("rate") - won / (won + lost)).abs() < 1e-4);

    let tokens = get_json(&app, "/api/metrics/tokens", &token).await;
    let by_worker: u64 =
        tokens["byWorker"].as_array().expect("byWorker").iter().map(|w| w["inputTokens"].as_u64().unwrap_or(0)).sum();
    assert_eq!(by_worker, tokens["inputTokens"].as_u64().expect("input"));
    assert!(
        !tokens["byModel"].as_array().expect("byModel").is_empty()
            && !tokens["byDay"].as_array().expect("byDay").is_empty()
    );

    let consumption = get_json(&app, "/api/metrics/consumption", &token).await;
    let accounts = consumption["accounts"].as_array().expect("accounts");
    assert!(!accounts.is_empty());
    for a in accounts {
        assert_eq!(cents(&a["headroom"]), cents(&a["annualCommit"]) - cents(&a["ear"]), "{a}");
        assert!(cents(&a["ebam"]) >= cents(&a["monthToDate"]), "{a}");
    }
    let workers = get_json(&app, "/api/metrics/workers", &token).await;
    assert_eq!(workers["workers"].as_array().map(Vec::len), Some(8));

    let res = app.authed(Method::GET, "/api/metrics/revenue", &token).send().await.expect("get");
    assert_envelope(res, 404, "not_found").await;
    assert_envelope(app.get("/api/metrics/pipeline").await, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn a_rollup_reflects_a_patch_after_run_once() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let before = get_json(&app, "/api/metrics/pipeline", &admin).await;
    let list = get_json(&app, "/api/deals?stage=negotiation", &admin).await;
    let id = list["deals"][0]["id"].as_str().expect("a deal in negotiation").to_owned();
    let res = app
        .authed(Method::PATCH, &format!("/api/deals/{id}"), &admin)
        .json(&json!({ "stage": "closed-won" }))
        .send()
        .await;
    assert_eq!(res.expect("patch").status(), 200);
    assert_eq!(
        get_json(&app, "/api/metrics/pipeline", &admin).await["won"],
        before["won"],
        "endpoints read the stored rollup"
    );

    let job = jobs::standard(app.state()).into_iter().find(|j| j.name == "metrics-rollup").expect("job");
    let run = jobs::run_once(app.state().store(), &job).await;

    assert!(run.ok, "{:?}", run.error);
    let after = get_json(&app, "/api/metrics/pipeline", &admin).await;
    assert_eq!(after["won"].as_u64(), before["won"].as_u64().map(|w| w + 1));
    assert_eq!(
        after["countsByStage"]["negotiation"].as_u64(),
        before["countsByStage"]["negotiation"].as_u64().map(|n| n - 1)
    );
    app.stop().await;
}

#[tokio::test]
async fn tasks_status_lists_every_job_with_schedule_last_and_next_run() {
    let app = spawn_app().await;
    let token = app.token(Role::Viewer).await;
    let status = get_json(&app, "/api/tasks/status", &token).await;
    let jobs = status["jobs"].as_array().expect("jobs");
    let names: Vec<&str> = jobs.iter().map(|j| j["name"].as_str().unwrap_or("")).collect();
    assert_eq!(names, ["metrics-rollup", "usage-rollup", "cleanup", "memory-compression", "rate-limit-save"]);
    for j in jobs {
        assert_eq!(j["schedule"].as_str().map(|s| s.split_whitespace().count()), Some(6), "{j}");
        assert!(j["nextRun"].as_str().is_some_and(|t| t.ends_with('Z')), "{j}");
    }
    let metrics = &jobs[0]["lastRun"];
    assert_eq!(metrics["outcome"], "ok", "the first rollup runs at start-up: {metrics}");
    for key in ["startedAt", "endedAt", "durationMs"] {
        assert!(metrics.get(key).is_some(), "{key}");
    }
    for job in gtms::jobs::standard(app.state()) {
        assert!(jobs::run_once(app.state().store(), &job).await.ok, "{} runs cleanly", job.name);
    }
    let status = get_json(&app, "/api/tasks/status", &token).await;
    assert!(status["jobs"].as_array().expect("jobs").iter().all(|j| j["lastRun"]["outcome"] == "ok"));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_and_panicking_jobs_are_recorded_and_stop_nothing() {
    let app = spawn_app().await;
    let every_second = "* * * * * *";
    let specs = vec![
        JobSpec::new("always-fails", every_second, || async { Err("the upstream is down".into()) }),
        JobSpec::new("panics", every_second, || async {
            let empty: Vec<u8> = Vec::new();
            Ok(format!("{}", empty[1]))
        }),
        JobSpec::new("works", every_second, || async { Ok("fine".to_owned()) }),
    ];
    let scheduler = jobs::Scheduler::start(app.state().store().clone(), specs).expect("scheduler");
    let mut finished = scheduler.finished_runs();
    let mut seen = std::collections::BTreeSet::new();
    let every_job_ran = async {
        while seen.len() < 3 {
            if let Ok(run) = finished.recv().await {
                seen.insert(run.job);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), every_job_ran).await.expect("each job ran within the deadline");
    scheduler.shutdown().await;

    let store = app.state().store();
    let failed = store.last_job_run("always-fails").await.expect("read").expect("it ran");
    assert!(!failed.ok && failed.error.as_deref() == Some("the upstream is down"));
    let panicked = store.last_job_run("panics").await.expect("read").expect("it ran");
    assert!(!panicked.ok && panicked.error.as_deref().is_some_and(|e| e.contains("panicked")));
    let works = store.last_job_run("works").await.expect("read").expect("it ran");
    assert!(works.ok, "the other jobs keep running");
    assert_eq!(app.get("/api/health").await.status(), 200, "the server is still up");
    app.stop().await;
}
