//! `gtms keys create|list|revoke` with the server stopped (direct file) and running (admin
//! socket); keys work across restarts and never reach the log.

use std::process::Stdio;

use crate::helpers::{Binary, gtms, run_gtms};

fn keys(data: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let data = data.as_os_str();
    run_gtms(std::iter::once("keys".as_ref()).chain(args.iter().map(|a| a.as_ref())).chain(["--data".as_ref(), data]))
}

fn first_word(s: &str) -> String {
    s.split_whitespace().next().expect("key printed").to_owned()
}

#[tokio::test]
async fn keys_work_with_the_server_stopped_and_running_and_never_reach_the_log() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let (code, out, err) = keys(&data, &["create", "--tenant", "acme", "--name", "offline"]);
    assert_eq!(code, 0, "{err}");
    let offline_key = first_word(&out);
    assert!(offline_key.starts_with("gtms_"));

    let server = Binary::serve(&data, &[]);
    let (code, out, err) = keys(&data, &["create", "--tenant", "acme", "--name", "online"]);
    assert_eq!(code, 0, "{err}");
    let online_key = first_word(&out);
    // A company with a signal (a card may carry only its family or executives: enrich is 404).
    let ticker = "AAPL";
    let client = reqwest::Client::new();
    for key in [&offline_key, &online_key] {
        let res = client.get(format!("{}/v1/enrich?ticker={ticker}&key={key}", server.base)).send().await.expect("req");
        assert_eq!(res.status(), 200);
    }

    let (code, out, _) = keys(&data, &["list", "--json"]);
    assert_eq!(code, 0);
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).expect("json list");
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|k| k["requests"] == 1), "{list:?}");
    assert!(!out.contains("argon2"), "hashes are never listed");
    let id = list[0]["id"].as_str().expect("id").to_owned();

    let (code, out, _) = keys(&data, &["revoke", &id]);
    assert_eq!(code, 0, "{out}");
    let revoked = if offline_key.contains(&id) { &offline_key } else { &online_key };
    let res = client.get(format!("{}/v1/enrich?ticker={ticker}&key={revoked}", server.base)).send().await.expect("req");
    assert_eq!(res.status(), 401, "a revoke bites on the very next request");
    let (code, _, err) = keys(&data, &["revoke", "ffffffffffff"]);
    assert_eq!(code, 1);
    assert!(err.contains("no such key"), "{err}");

    let (code, log) = server.terminate();
    assert_eq!(code, Some(0));
    for key in [&offline_key, &online_key] {
        let secret = key.rsplit('_').next().expect("secret");
        assert!(!log.contains(secret), "a key reached the log");
    }
    let (_, out, _) = keys(&data, &["list"]);
    assert!(out.contains("offline") && out.contains("online") && out.contains("yes"), "{out}");
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let dir = tempfile::tempdir().expect("dir");
    // `gtms keys create | head -0`: the read end is closed before the key is printed (the data
    // file and argon2 come first), so the print meets a broken pipe.
    let mut child = gtms()
        .args(["keys", "create", "--tenant", "t", "--name", "n", "--data"])
        .arg(dir.path().join("gtms.redb"))
        .env("GTMS_ARGON2_MEMORY_KIB", "64")
        .env("GTMS_ARGON2_ITERATIONS", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gtms keys create");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
