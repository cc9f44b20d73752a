//! The real compiled binary: signals, restarts, the locked data file, CLI and config errors.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::helpers::{Binary, admin_token, gtms};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = gtms().args(args).stdin(Stdio::null()).output().expect("run gtms");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[tokio::test]
async fn sigterm_exits_zero_and_a_restart_sees_the_data_written_before() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let first = Binary::serve(&data, &[]);
    let res = reqwest::get(format!("{}/api/health", first.base)).await.expect("health");
    assert_eq!(res.status(), 200);
    let (_, status_out, _) = run(&["status", "--data", data.to_str().expect("utf8")]);
    assert!(status_out.contains("started 1 times"), "{status_out}");

    let (code, log) = first.terminate();

    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("stopped"), "{log}");
    assert!(!dir.path().join("gtms.redb.sock").exists(), "the admin socket is removed on exit");
    let second = Binary::serve(&data, &[]);
    let (code, status_out, err) = run(&["status", "--data", data.to_str().expect("utf8")]);
    assert_eq!(code, 0, "{err}");
    assert!(status_out.contains("started 2 times"), "{status_out}");
    assert!(status_out.contains("healthy"), "{status_out}");
    let (code, log) = second.terminate();
    assert_eq!(code, Some(0), "{log}");
}

#[test]
fn a_second_process_on_the_same_data_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let _running = Binary::serve(&data, &[]);

    let started = Instant::now();
    let (code, _, err) = run(&["serve", "--listen", "127.0.0.1:0", "--data", data.to_str().expect("utf8")]);

    assert_eq!(code, 1);
    assert!(err.contains("already in use by another gtms process"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(20), "must not hang");
}

#[test]
fn the_admin_socket_is_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let _running = Binary::serve(&data, &[]);
    let mode = std::fs::metadata(dir.path().join("gtms.redb.sock")).expect("socket").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn status_without_a_running_server_says_so() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let (code, _, err) = run(&["status", "--data", data.to_str().expect("utf8")]);
    assert_eq!(code, 1);
    assert_eq!(err.trim(), "gtms: no gtms server is running on this data file");
}

#[test]
fn unknown_flags_and_bad_values_exit_nonzero_with_one_line() {
    for args in [&["serve", "--bogus"][..], &["serve", "--listen"], &["frobnicate"]] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let (code, _, err) = run(&["serve", "--listen", "localhost:http"]);
    assert_eq!(code, 1);
    assert!(err.contains("invalid listen address"), "{err}");
}

#[test]
fn version_and_help_print_and_exit_zero() {
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("gtms {}", env!("CARGO_PKG_VERSION")));
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("serve"));
}

#[test]
fn config_file_errors_are_clear() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("gtms.toml");
    std::fs::write(&file, "lisen = \"127.0.0.1:1\"\n").expect("write");
    let (code, _, err) = run(&["serve", "--config", file.to_str().expect("utf8")]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown field `lisen`"), "{err}");

    let (code, _, err) = run(&["serve", "--config", "/nonexistent/gtms.toml"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read config file"), "{err}");

    let (code, _, err) = run(&["serve", "--data", "/nonexistent-dir/x/gtms.redb"]);
    assert_eq!(code, 1);
    assert!(err.contains("data directory") && err.contains("not writable"), "{err}");
}

#[test]
fn environment_overrides_the_file_and_flags_override_the_environment() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("gtms.toml");
    std::fs::write(&file, "listen = \"not-an-address\"\n").expect("write");
    // The file's bad value is overridden by the environment's, which the flag overrides again.
    let out = gtms()
        .args(["serve", "--config", file.to_str().expect("utf8"), "--listen", "also-bad"])
        .env("GTMS_LISTEN", "127.0.0.1:0")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"also-bad\""), "{err}");
    let out = gtms()
        .args(["serve", "--config", file.to_str().expect("utf8")])
        .env("GTMS_LISTEN", "env-bad")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"env-bad\""), "{err}");
}

#[tokio::test]
async fn acknowledged_writes_survive_kill_9() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let server = Binary::serve(&data, &[]);
    let code = server.demo_invite_code();
    let client = reqwest::Client::new();
    let login =
        client.post(format!("{}/auth/login", server.base)).json(&serde_json::json!({ "inviteCode": code })).send();
    let token = login.await.expect("login").json::<serde_json::Value>().await.expect("json")["token"]
        .as_str()
        .expect("token")
        .to_owned();
    let list: serde_json::Value = client
        .get(format!("{}/api/deals?stage=prospecting", server.base))
        .bearer_auth(&token)
        .send()
        .await
        .expect("deals")
        .json()
        .await
        .expect("json");
    let id = list["deals"][0]["id"].as_str().expect("id").to_owned();
    let res = client
        .patch(format!("{}/api/deals/{id}", server.base))
        .bearer_auth(&token)
        .json(&serde_json::json!({ "stage": "qualification", "nextStep": "after the crash" }))
        .send()
        .await
        .expect("patch");
    assert_eq!(res.status(), 200, "acknowledged");

    server.kill_9();

    let server = Binary::serve(&data, &[]);
    let deal: serde_json::Value = client
        .get(format!("{}/api/deals/{id}", server.base))
        .bearer_auth(&token)
        .send()
        .await
        .expect("deal")
        .json()
        .await
        .expect("json");
    assert_eq!(deal["stage"], "qualification");
    assert_eq!(deal["nextStep"], "after the crash");
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_an_in_flight_request_finish() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Binary::serve_with_env(&dir.path().join("gtms.redb"), &[], &[("GTMS_LOG", "gtms::http=debug,info")]);
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let tail = futures_util::stream::once(async move {
        let _ = rx.await;
        Ok::<_, std::io::Error>(b"-a-code\"}".to_vec())
    });
    let head = futures_util::stream::once(async { Ok::<_, std::io::Error>(b"{\"inviteCode\": \"not".to_vec()) });
    let body = reqwest::Body::wrap_stream(futures_util::StreamExt::chain(head, tail));
    let request = reqwest::Client::new()
        .post(format!("{}/auth/login", server.base))
        .header("content-type", "application/json")
        .body(body)
        .send();
    let in_flight = tokio::spawn(request);
    let server = tokio::task::spawn_blocking(move || {
        server.wait_for_log("request received");
        server.send_sigterm();
        server.wait_for_log("shutdown signal received");
        server
    });
    let server = server.await.expect("the server saw the request, then the signal");
    let _ = tx.send(());

    let res = in_flight.await.expect("task").expect("the in-flight request is answered");
    assert_eq!(res.status(), 401, "answered normally after the signal");
    let (code, log) = tokio::task::spawn_blocking(move || server.wait()).await.expect("wait");
    assert_eq!(code, Some(0), "{log}");
}

#[tokio::test]
async fn json_logs_are_one_object_per_line_with_the_request_id() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let server = Binary::serve_with_env(&data, &["--log-format", "json"], &[("GTMS_LOG", "info,gtms=debug")]);
    let res = reqwest::get(format!("{}/api/health", server.base)).await.expect("health");
    let health_id = res.headers()["x-request-id"].to_str().expect("id").to_owned();
    let token = admin_token(&server.base, &data).await;
    let res = reqwest::Client::new()
        .post(format!("{}/api/brain/chat", server.base))
        .bearer_auth(&token)
        .json(&serde_json::json!({ "message": "What is the pipeline status?" }))
        .send()
        .await
        .expect("chat");
    assert_eq!(res.status(), 200);
    let chat_id = res.headers()["x-request-id"].to_str().expect("id").to_owned();
    let (code, log) = server.terminate();
    assert_eq!(code, Some(0));
    let lines: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect();
    let of = |id: &str| -> Vec<&serde_json::Value> {
        lines
            .iter()
            .filter(|l| l["spans"].as_array().is_some_and(|s| s.iter().any(|s| s["request_id"] == id)))
            .collect()
    };
    let health = of(&health_id);
    let last = health.last().expect("the request's log lines");
    assert_eq!((last["message"].as_str(), last["status"].as_u64()), (Some("request"), Some(200)), "{last}");
    assert_eq!((last["span"]["route"].as_str(), last["span"]["method"].as_str()), (Some("/api/health"), Some("GET")));
    assert!(last["level"].is_string() && last["timestamp"].is_string());
    // Every line the chat request logged, in the HTTP face and in the services it called,
    // carries its id; the request span names the caller.
    let chat = of(&chat_id);
    let messages: Vec<&str> = chat.iter().filter_map(|l| l["message"].as_str()).collect();
    for needed in ["request received", "the model answered", "request"] {
        assert!(messages.contains(&needed), "{needed:?} is not among the chat request's lines: {messages:?}");
    }
    let answered = chat.iter().find(|l| l["message"] == "the model answered").expect("service line");
    let names: Vec<&str> =
        answered["spans"].as_array().expect("spans").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["request", "chat"], "the service's span sits inside the request's");
    let request_span = &answered["spans"][0];
    assert!(request_span["principal"].as_str().is_some_and(|p| !p.is_empty()), "{request_span}");
    let unattributed = lines.iter().filter(|l| l["message"] == "the model answered" && l["spans"].is_null()).count();
    assert_eq!(unattributed, 0, "a service line outside any request span");
}
