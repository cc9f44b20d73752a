//! `gtms backup` and `gtms restore` through the real binary: an online backup taken while 32
//! clients write holds every write acknowledged before it began; a restore refuses a data file
//! in use, succeeds offline and the data is there after a restart; offline backups, refusals of
//! bad input, and the scheduled backup job with retention in `/api/tasks/status`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Binary, admin_token, run_gtms, spawn_app_with, until};

const WRITERS: usize = 32;

/// Runs `gtms ARGS` to completion; returns (exit code, stdout, stderr).
fn run(args: &[&str], paths: &[&Path]) -> (i32, String, String) {
    run_gtms(args.iter().map(|a| a.as_ref()).chain(paths.iter().map(|p| p.as_os_str())))
}

async fn run_async(args: Vec<String>) -> (i32, String, String) {
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&refs, &[])
    })
    .await
    .expect("join")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A config file that lifts the per-user API limit (32 writers share one admin).
fn config_file(dir: &Path) -> PathBuf {
    let path = dir.join("gtms.toml");
    std::fs::write(&path, "api_rate_limit = 10000000\n").expect("config");
    path
}

async fn open_deals(client: &reqwest::Client, base: &str, token: &str) -> Vec<String> {
    let list: Value =
        client.get(format!("{base}/api/deals")).bearer_auth(token).send().await.expect("list").json().await.expect("j");
    list["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .filter(|d| !d["stage"].as_str().unwrap_or("closed").starts_with("closed"))
        .map(|d| d["id"].as_str().expect("id").to_owned())
        .collect()
}

/// Writer `i` sets its deal's next step to `w<i>-<n>` for n = 1, 2, ... and publishes the
/// highest `n` acknowledged (a 200 received).
fn spawn_writer(
    client: reqwest::Client,
    url: String,
    token: String,
    i: usize,
    acked: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<Duration> {
    tokio::spawn(async move {
        let mut slowest = Duration::ZERO;
        let mut n = 0u64;
        while !stop.load(Ordering::SeqCst) {
            n += 1;
            let started = Instant::now();
            let body = json!({ "nextStep": format!("w{i}-{n}") });
            let res = client.request(Method::PATCH, &url).bearer_auth(&token).json(&body).send().await;
            assert_eq!(res.expect("patch").status(), 200, "writer {i}");
            slowest = slowest.max(started.elapsed());
            acked.store(n, Ordering::SeqCst);
        }
        slowest
    })
}

async fn next_step(client: &reqwest::Client, base: &str, token: &str, id: &str) -> u64 {
    let deal: Value = client
        .get(format!("{base}/api/deals/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("j");
    let step = deal["nextStep"].as_str().unwrap_or_default();
    step.rsplit('-').next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_online_backup_under_32_writers_holds_every_acknowledged_write_and_restores() {
    let dir = tempfile::tempdir().expect("dir");
    let (data, out, restored) = (dir.path().join("gtms.redb"), dir.path().join("b.redb"), dir.path().join("r.redb"));
    let config = config_file(dir.path());
    let server = Binary::serve(&data, &["--config", &s(&config)]);
    let token = admin_token(&server.base, &data).await;
    let client = reqwest::Client::new();
    let deals = open_deals(&client, &server.base, &token).await;
    assert!(deals.len() >= WRITERS, "the demo has {} open deals", deals.len());

    let stop = Arc::new(AtomicBool::new(false));
    let acked: Vec<Arc<AtomicU64>> = (0..WRITERS).map(|_| Arc::new(AtomicU64::new(0))).collect();
    let writers: Vec<_> = (0..WRITERS)
        .map(|i| {
            let url = format!("{}/api/deals/{}", server.base, deals[i]);
            spawn_writer(client.clone(), url, token.clone(), i, acked[i].clone(), stop.clone())
        })
        .collect();
    until("every writer to land 3 writes", || acked.iter().all(|a| a.load(Ordering::SeqCst) >= 3)).await;

    let before: Vec<u64> = acked.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    let (code, stdout, err) = run_async(vec!["backup".into(), s(&out), "--data".into(), s(&data)]).await;
    let during: Vec<u64> = acked.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with(&format!("backup {}: ", s(&out))) && stdout.contains("verified"), "{stdout}");
    let deals_line = stdout.lines().find(|l| l.split_whitespace().next() == Some("deals"));
    let copied: u64 = deals_line.and_then(|l| l.split_whitespace().nth(1)).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(copied >= WRITERS as u64, "record counts are reported per table: {stdout}");
    until("writes to go on after the backup", || acked.iter().zip(&during).all(|(a, d)| a.load(Ordering::SeqCst) > *d))
        .await;
    stop.store(true, Ordering::SeqCst);
    let mut slowest = Duration::ZERO;
    for w in writers {
        slowest = slowest.max(w.await.expect("writer"));
    }
    let writes: u64 = acked.iter().map(|a| a.load(Ordering::SeqCst)).sum();
    let overlapping: u64 = during.iter().zip(&before).map(|(d, b)| d - b).sum();
    eprintln!(
        "backup under load: {writes} acknowledged writes by {WRITERS} clients, {overlapping} while the backup ran, slowest PATCH {slowest:?}"
    );

    let (code, _, err) = run(&["restore"], &[&out, Path::new("--data"), &data]);
    assert_eq!(code, 1, "a running server's file is never replaced");
    assert!(err.contains("running"), "{err}");
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));

    let holder = gtms::store::Store::open(&restored).expect("hold a file");
    let (code, _, err) = run(&["restore"], &[&out, Path::new("--data"), &restored]);
    assert_eq!(code, 1);
    assert!(err.contains("running") || err.contains("in use"), "redb's lock refuses too: {err}");
    drop(holder);
    std::fs::remove_file(&restored).expect("rm");

    let (code, stdout, err) = run(&["restore"], &[&out, Path::new("--data"), &restored]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("verified") && !stdout.contains("previous"), "{stdout}");
    let server = Binary::serve(&restored, &["--config", &s(&config)]);
    let token = admin_token(&server.base, &restored).await;
    for (i, id) in deals.iter().take(WRITERS).enumerate() {
        let n = next_step(&client, &server.base, &token, id).await;
        assert!(n >= before[i], "writer {i}: write {} was acknowledged before the backup, the copy has {n}", before[i]);
        assert!(n <= acked[i].load(Ordering::SeqCst), "writer {i}: the copy holds no write never made");
    }
    assert_eq!(server.terminate().0, Some(0));
}

#[tokio::test]
async fn offline_backups_and_restores_refuse_what_they_must_and_keep_the_old_file() {
    let dir = tempfile::tempdir().expect("dir");
    let (data, out) = (dir.path().join("gtms.redb"), dir.path().join("b.redb"));
    let (code, _, err) = run(&["backup"], &[&out, Path::new("--data"), &data]);
    assert_eq!(code, 1);
    assert!(err.contains("does not exist"), "nothing to back up: {err}");
    assert!(!data.exists(), "a backup never creates a data file");

    let server = Binary::serve(&data, &[]);
    let token = admin_token(&server.base, &data).await;
    let client = reqwest::Client::new();
    let deal = open_deals(&client, &server.base, &token).await.remove(0);
    let url = format!("{}/api/deals/{deal}", server.base);
    let res = client.patch(&url).bearer_auth(&token).json(&json!({ "nextStep": "w0-7" })).send().await;
    assert_eq!(res.expect("patch").status(), 200);
    assert_eq!(server.terminate().0, Some(0));

    let (code, stdout, err) = run(&["backup"], &[&out, Path::new("--data"), &data]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("backup (server stopped)") && stdout.contains("verified"), "{stdout}");
    let (code, _, err) = run(&["backup"], &[&out, Path::new("--data"), &data]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
    let garbage = dir.path().join("junk.redb");
    std::fs::write(&garbage, vec![1u8; 10_000]).expect("junk");
    let size_before = std::fs::metadata(&data).expect("meta").len();
    for (input, why) in [(&garbage, "garbage"), (&dir.path().join("missing.redb"), "does not exist")] {
        let (code, _, err) = run(&["restore"], &[input, Path::new("--data"), &data]);
        assert_eq!(code, 1, "{why}: {err}");
    }
    assert_eq!(std::fs::metadata(&data).expect("meta").len(), size_before, "a refused restore changes nothing");
    let (code, _, err) = run(&["restore"], &[&out]);
    assert_eq!(code, 2, "--data is required: {err}");

    let (code, stdout, err) = run(&["restore"], &[&out, Path::new("--data"), &data]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("previous data file is kept as"), "{stdout}");
    let kept = std::fs::read_dir(dir.path()).expect("ls").filter_map(Result::ok);
    assert!(kept.into_iter().any(|e| e.file_name().to_string_lossy().starts_with("gtms.redb.pre-restore-")));
    let server = Binary::serve(&data, &[]);
    let token = admin_token(&server.base, &data).await;
    assert_eq!(next_step(&client, &server.base, &token, &deal).await, 7, "the restored data is served");
    assert_eq!(server.terminate().0, Some(0));
}

#[tokio::test]
async fn the_scheduled_backup_is_a_job_with_retention_in_tasks_status() {
    let backups = tempfile::tempdir().expect("dir");
    let dir = backups.path().join("nightly");
    let target = dir.clone();
    let app = spawn_app_with(move |layer| {
        layer.backup_dir = Some(target);
        layer.backup_keep = Some(2);
    })
    .await;
    let token = app.token(Role::Viewer).await;
    let status: Value =
        app.authed(Method::GET, "/api/tasks/status", &token).send().await.expect("get").json().await.expect("j");
    let job = status["jobs"].as_array().expect("jobs").iter().find(|j| j["name"] == "backup").cloned();
    let job = job.expect("the backup job is listed");
    assert_eq!(job["schedule"], gtms::config::DEFAULT_BACKUP_SCHEDULE);

    let spec = gtms::jobs::all(app.state()).into_iter().find(|j| j.name == "backup").expect("spec");
    for _ in 0..3 {
        let run = gtms::jobs::run_once(app.state().store(), &spec).await;
        assert!(run.ok, "{:?}", run.error);
    }
    let files = gtms::backup::schedule::list(&dir).expect("list");
    assert_eq!(files.len(), 2, "keeps the newest 2: {files:?}");
    for file in &files {
        let counts = gtms::store::backup::inspect(file).expect("a sound backup");
        assert!(counts.0.iter().any(|(t, n)| t == "deals" && *n > 0), "{counts:?}");
    }
    let status: Value =
        app.authed(Method::GET, "/api/tasks/status", &token).send().await.expect("get").json().await.expect("j");
    let job = status["jobs"].as_array().expect("jobs").iter().find(|j| j["name"] == "backup").cloned().expect("job");
    assert_eq!(job["lastRun"]["outcome"], "ok", "{job}");
    app.stop().await;
}
