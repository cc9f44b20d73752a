//! The simulated team of demo mode (issue 29) on the real app: a simulated hour on the
//! injected clock (a tick every three minutes, run as the scheduler runs it) starts one workflow
//! per tick in the documented rotation, the simulated teammate decides every approval that
//! waited five minutes and no other, every second start opens or moves a simulated deal, the
//! event bus announces each of them, and the data file
//! grows by less than a twenty-fourth of 10 MB; switched off, nothing starts; the real binary
//! shows a team at work right after it starts; and `gtms demo-reset` removes what the team made
//! and nothing a person entered.

use std::sync::{Arc, Mutex};

use gtms::clock::ManualClock;
use gtms::domain::Role;
use gtms::store::WorkflowRecord;
use serde_json::Value;

use crate::helpers::{Binary, TestApp, eventually, gtms, login, spawn_app_with, spawn_app_with_clock};

const TICK_SECS: u64 = 180;
/// A schedule that never comes during a test: the test runs the ticks itself.
const NEVER: &str = "0 0 0 1 1 *";

async fn simulated(app: &TestApp) -> Vec<WorkflowRecord> {
    let records = app.state().store().workflows().await.expect("workflows");
    records.into_iter().filter(|w| w.id.contains("-sim-")).collect()
}

/// Bytes of what the simulated team wrote: its workflows, the memory entries they made and its deals
/// (JSON; the data file's own growth depends on when redb reuses pages, so it is only shown).
async fn written(app: &TestApp) -> usize {
    let store = app.state().store();
    let workflows: usize = simulated(app).await.iter().map(|w| serde_json::to_vec(w).map_or(0, |b| b.len())).sum();
    let memory = store.memory_all().await.expect("memory");
    let entries = memory.iter().filter(|m| m.key.contains("sim-")).map(|m| m.value.len() + m.key.len() + m.scope.len());
    let deals = store.deals().await.expect("deals");
    let deals = deals.iter().filter(|d| d.external_id.as_deref().is_some_and(|e| e.starts_with("sim-deal-")));
    let deals: usize = deals.map(|d| serde_json::to_vec(d).map_or(0, |b| b.len())).sum();
    workflows + entries.sum::<usize>() + deals
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

    // The bus is read by a task of its own: the events of the last tick may still be on their
    // way when the workflows have settled, so wait until every approval's request has arrived.
    let count_in = |events: &[String], kind: &str| {
        events.iter().filter(|e| e.contains(&format!("\"type\":\"{kind}\"")) && e.contains("-sim-")).count()
    };
    let events = eventually("every approval request to reach the event bus's reader", || async {
        let seen = events.lock().expect("events").clone();
        (count_in(&seen, "approval.requested") >= decided + pending).then_some(seen)
    })
    .await;
    let count = |kind: &str| count_in(&events, kind);
    assert_eq!(count("workflow.started"), all.len(), "every simulated workflow and child is announced");
    let deals = app.state().store().deals().await.expect("deals");
    let mut ours: Vec<(&str, &str)> = deals
        .iter()
        .filter(|d| d.external_id.as_deref().is_some_and(|e| e.starts_with("sim-deal-")))
        .map(|d| (d.external_id.as_deref().unwrap_or_default(), d.stage.as_str()))
        .collect();
    ours.sort();
    // Eleven steps: 0000 and 0001 opened, moved alternately, 0000 won; 0002 opened (one was open)
    // and moved, as it had moved least.
    let expected =
        [("sim-deal-0000", "closed-won"), ("sim-deal-0001", "negotiation"), ("sim-deal-0002", "qualification")];
    assert_eq!(ours, expected, "every second start moves the pipeline");
    let moves = events.iter().filter(|e| e.contains("\"type\":\"deal.updated\"")).count();
    assert_eq!(moves, 11, "each of the 11 pipeline steps is announced");
    assert_eq!(count("approval.decided"), decided);
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
    let id = waiting.as_ref().and_then(|w| w["id"].as_str()).unwrap_or_default().to_owned();
    let page = client.get(format!("{}/status", server.base)).send().await.expect("status").text().await.expect("html");
    assert!(page.contains(&name) && page.contains("waiting"), "the status page shows {name} waiting");
    let row = format!("data-worker=\"{id}\" data-status=\"waiting\"");
    assert!(page.contains(&row), "the status page's row of {id} says waiting");
    assert_eq!(server.terminate().0, Some(0));
}

#[tokio::test]
async fn demo_reset_removes_what_the_team_made_and_nothing_a_person_entered() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let every_second = [("GTMS_DEMO_SIMULATE", "true"), ("GTMS_SCHEDULE_DEMO_TEAM", "* * * * * *")];
    let server = Binary::serve_with_env(&data, &[], &every_second);
    let token = login(&server.base, &server.demo_invite_code()).await;
    let client = reqwest::Client::new();
    let url = |path: &str| format!("{}{path}", server.base);
    let note = serde_json::json!({"scope": "org", "key": "pricing", "value": "Annual plans only"});
    let res = client.post(url("/api/memory")).bearer_auth(&token).json(&note).send().await.expect("write");
    assert_eq!(res.status(), 201);
    let ticket = serde_json::json!({"workflowType": "ticket-resolution",
        "params": {"ticketId": "T-1", "subject": "Login fails", "priority": "high"}});
    let started = client.post(url("/api/workers/support-resolver/start")).bearer_auth(&token).json(&ticket);
    let person: Value = started.send().await.expect("start").json().await.expect("json");
    let person = person["workflowId"].as_str().expect("id").to_owned();
    eventually("a simulated lead recorded in memory", || async {
        let found = client.get(url("/api/memory/search?q=sim")).bearer_auth(&token).send().await.ok()?;
        found.text().await.ok().filter(|t| t.contains("sim-lead")).map(|_| ())
    })
    .await;

    let reset = || gtms().args(["demo-reset", "--data"]).arg(&data).output().expect("demo-reset");
    let refused = reset();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("server stopped"), "{refused:?}");
    assert_eq!(server.terminate().0, Some(0));
    let done = reset();
    assert!(done.status.success(), "{done:?}");
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(said.contains("nothing a person entered was touched"), "{done:?}");
    assert!(!said.contains(" 0 deals") && said.contains(" deals;"), "the simulated deals went: {said}");

    let store = gtms::store::Store::open(&data).expect("open");
    let workflows = store.workflows().await.expect("workflows");
    assert!(workflows.iter().all(|w| !w.id.contains("-sim-")), "every simulated workflow is gone");
    assert!(workflows.iter().any(|w| w.id == person), "the person's workflow stays");
    let memory = store.memory_all().await.expect("memory");
    assert!(memory.iter().all(|m| !m.author.contains("-sim-")), "every simulated memory entry is gone");
    assert!(memory.iter().any(|m| m.key == "pricing"), "the person's entry stays");
    assert_eq!(store.deals().await.expect("deals").len(), 150, "the deals are untouched");
}
