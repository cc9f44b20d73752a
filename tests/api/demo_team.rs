//! The simulated team of demo mode (issue 29) on the real app: a simulated hour on the
//! injected clock (a tick every three minutes, run as the scheduler runs it) starts one workflow
//! per tick in the documented rotation, the simulated teammate decides every approval that
//! waited five minutes and no other, the event bus announces each of them, and the data file
//! grows by less than a twenty-fourth of 10 MB; switched off, nothing starts; and the real
//! binary shows a team at work right after it starts.

use std::sync::{Arc, Mutex};

use gtms::clock::ManualClock;
use gtms::domain::Role;
use gtms::store::WorkflowRecord;
use serde_json::Value;

use crate::helpers::{Binary, TestApp, eventually, login, spawn_app_with, spawn_app_with_clock};

const TICK_SECS: u64 = 180;
/// A schedule that never comes during a test: the test runs the ticks itself.
const NEVER: &str = "0 0 0 1 1 *";

async fn simulated(app: &TestApp) -> Vec<WorkflowRecord> {
    let records = app.state().store().workflows().await.expect("workflows");
    records.into_iter().filter(|w| w.id.contains("-sim-")).collect()
}

/// Bytes of what the simulated team wrote: its workflows and the memory entries they made
/// (JSON; the data file's own growth depends on when redb reuses pages, so it is only shown).
async fn written(app: &TestApp) -> usize {
    let store = app.state().store();
    let workflows: usize = simulated(app).await.iter().map(|w| serde_json::to_vec(w).map_or(0, |b| b.len())).sum();
    let memory = store.memory_all().await.expect("memory");
    let entries = memory.iter().filter(|m| m.key.contains("sim-")).map(|m| m.value.len() + m.key.len() + m.scope.len());
    workflows + entries.sum::<usize>()
}

/// Waits until no simulated workflow is still running (each is waiting or ended).
async fn settled(app: &TestApp) {
    eventually("the simulated workflows to settle", || async {
        let running = simulated(app).await.iter().any(|w| w.status.as_str() == "running" && w.children.is_empty());
        (!running).then_some(())
    })
    .await;
}

#[tokio::test]
async fn a_simulated_hour_starts_one_workflow_a_tick_and_decides_what_waited_five_minutes() {
    let clock = Arc::new(ManualClock::at(1_900_000_000));
    let app = spawn_app_with_clock(clock.clone(), |l| {
        l.demo_simulate = Some(true);
        l.schedules = Some(gtms::config::Schedules { demo_team: NEVER.into(), ..Default::default() });
    })
    .await;
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut bus = app.state().events().subscribe();
    let sink = Arc::clone(&events);
    tokio::spawn(async move {
        while let Ok(message) = bus.recv().await {
            sink.lock().expect("events").push(message.to_string());
        }
    });
    eventually("the two start-up ticks", || async { (simulated(&app).await.len() >= 2).then_some(()) }).await;
    settled(&app).await;
    let workflows = app.state().workflows().expect("engine").clone();
    let team = gtms::jobs::demo_team(NEVER, workflows);
    let size = || std::fs::metadata(&app.state().config().data).map(|m| m.len()).unwrap_or(0);
    let before = (size(), written(&app).await);
    for _ in 0..20 {
        clock.advance(TICK_SECS);
        let run = gtms::jobs::run_once(app.state().store(), &team).await;
        assert!(run.ok, "{:?}", run.error);
        settled(&app).await;
    }

    let (file, hour) = (size().saturating_sub(before.0), written(&app).await - before.1);
    eprintln!("a simulated hour wrote {hour} bytes of records (the data file grew by {file} bytes)");
    assert!(hour * 24 < 10 * 1024 * 1024, "a simulated day stays under 10 MB: {hour} bytes an hour");
    let all = simulated(&app).await;
    let top: Vec<&WorkflowRecord> = all.iter().filter(|w| w.parent.is_none()).collect();
    assert_eq!(top.len(), 22, "two start-up ticks and one start in each of the hour's 20 ticks");
    let kinds = |kind: &str| top.iter().filter(|w| w.kind.as_str() == kind).count();
    let rotation = [
        ("coordinator", 3),
        ("ticket-resolution", 5),
        ("lead-qualification", 8),
        ("content-generation", 3),
        ("client-onboarding", 3),
    ];
    for (kind, n) in rotation {
        assert_eq!(kinds(kind), n, "{kind}: 22 starts of the eight-step rotation");
    }
    let now = gtms::clock::Clock::now_ms(clock.as_ref());
    let five_minutes = 5 * 60 * 1000;
    for w in &all {
        let Some(a) = &w.approval else { continue };
        let waited = now - a.requested_ms;
        match (a.is_pending(), waited >= five_minutes) {
            (true, true) => panic!("{} waited {waited} ms and is still pending", w.id),
            (false, false) => panic!("{} was decided before five minutes", w.id),
            _ => {}
        }
    }
    let pending = all.iter().filter(|w| w.approval.as_ref().is_some_and(|a| a.is_pending())).count();
    assert!(pending > 0, "the newest approvals are left for a person to decide");
    let decided = all.iter().filter(|w| w.approval.as_ref().is_some_and(|a| !a.is_pending())).count();

    let events = events.lock().expect("events").clone();
    let count = |kind: &str| {
        events.iter().filter(|e| e.contains(&format!("\"type\":\"{kind}\"")) && e.contains("-sim-")).count()
    };
    assert_eq!(count("workflow.started"), all.len(), "every simulated workflow and child is announced");
    assert_eq!(count("approval.decided"), decided);
    assert!(count("approval.requested") >= decided + pending);
    app.stop().await;
}

#[tokio::test]
async fn switched_off_the_team_starts_nothing_and_temporal_mode_refuses_it() {
    let app = spawn_app_with(|_| {}).await;
    assert!(gtms::jobs::simulated_team(app.state()).is_none());
    let admin = app.token(Role::Admin).await;
    let tasks = app.get_json(&admin, "/api/tasks/status").await;
    assert!(!tasks.to_string().contains("demo-team"), "{tasks}");
    assert!(app.state().store().workflows().await.expect("workflows").is_empty());
    app.stop().await;

    let temporal = gtms::config::Layer {
        mode: Some("temporal".into()),
        demo_simulate: Some(true),
        temporal: Some(gtms::config::TemporalLayer { address: Some("127.0.0.1:7233".into()), ..Default::default() }),
        ..Default::default()
    };
    let Err(err) = temporal.validate() else { panic!("demo_simulate on Temporal is refused") };
    assert!(err.to_string().contains("demo mode only"), "{err}");
}

#[tokio::test]
async fn the_binary_shows_a_team_at_work_right_after_it_starts() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Binary::serve_with_env(&dir.path().join("gtms.redb"), &[], &[("GTMS_DEMO_SIMULATE", "true")]);
    let token = login(&server.base, &server.demo_invite_code()).await;
    let client = reqwest::Client::new();
    let get = |path: &str| client.get(format!("{}{path}", server.base)).bearer_auth(&token).send();
    let workers: Value = eventually("a worker waiting for a decision", || async {
        let workers: Value = get("/api/workers").await.ok()?.json().await.ok()?;
        let statuses = workers["workers"].as_array()?.iter().filter_map(|w| w["status"].as_str()).collect::<Vec<_>>();
        statuses.contains(&"waiting").then_some(workers)
    })
    .await;
    let approvals: Value = get("/api/coordinator/approvals").await.expect("approvals").json().await.expect("json");
    assert!(approvals["approvals"].as_array().is_some_and(|a| !a.is_empty()), "{approvals}");
    let waiting = workers["workers"].as_array().and_then(|w| w.iter().find(|w| w["status"] == "waiting")).cloned();
    let name = waiting.as_ref().and_then(|w| w["name"].as_str()).unwrap_or_default().to_owned();
    let page = client.get(format!("{}/status", server.base)).send().await.expect("status").text().await.expect("html");
    assert!(page.contains(&name) && page.contains("waiting"), "the status page shows {name} waiting");
    assert_eq!(server.terminate().0, Some(0));
}
