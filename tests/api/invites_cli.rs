//! `gtms invites create|list|revoke` with the server stopped and running; a revoke ends the
//! user's sessions at once; codes never reach the log.

use std::process::Stdio;

use crate::helpers::{Binary, gtms};

fn invites(data: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = gtms()
        .arg("invites")
        .arg("--data")
        .arg(data)
        .args(args)
        .env("GTMS_ARGON2_MEMORY_KIB", "64")
        .env("GTMS_ARGON2_ITERATIONS", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run gtms invites");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

async fn login(base: &str, code: &str) -> (u16, String) {
    let body = serde_json::json!({ "inviteCode": code });
    let res = reqwest::Client::new().post(format!("{base}/auth/login")).json(&body).send().await.expect("login");
    let status = res.status().as_u16();
    let json: serde_json::Value = res.json().await.expect("json");
    (status, json["token"].as_str().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn invites_work_offline_and_online_and_revoking_ends_sessions() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let (code, out, err) = invites(&data, &["create", "--role", "viewer", "--name", "Vera Viewer"]);
    assert_eq!(code, 0, "{err}");
    let viewer_code = out.split_whitespace().next().expect("code").to_owned();
    assert!(viewer_code.starts_with("inv_"));
    let (code, _, err) = invites(&data, &["create", "--role", "root", "--name", "x"]);
    assert_eq!(code, 2, "{err}");

    let server = Binary::serve(&data, &[]);
    assert!(!server.log().contains("admin invite code"), "no demo invite once invites exist");
    let (code, out, _) = invites(&data, &["create", "--role", "admin", "--name", "Ada Admin"]);
    assert_eq!(code, 0);
    let admin_code = out.split_whitespace().next().expect("code").to_owned();
    let (status, admin_token) = login(&server.base, &admin_code).await;
    assert_eq!(status, 200);
    let (status, _) = login(&server.base, &viewer_code).await;
    assert_eq!(status, 200, "an invite created offline works once the server runs");

    let (_, out, _) = invites(&data, &["list", "--json"]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).expect("json");
    assert_eq!(list.len(), 2);
    assert!(!out.contains("argon2") && !out.contains(&admin_code));
    let admin_id = list.iter().find(|i| i["role"] == "admin").and_then(|i| i["id"].as_str()).expect("id").to_owned();

    let (code, out, _) = invites(&data, &["revoke", &admin_id]);
    assert_eq!(code, 0, "{out}");
    let config = reqwest::Client::new()
        .get(format!("{}/api/config", server.base))
        .header("authorization", format!("Bearer {admin_token}"))
        .send()
        .await
        .expect("config");
    assert_eq!(config.status(), 401, "the revoked user's session ended");
    assert_eq!(login(&server.base, &admin_code).await.0, 401);

    let (_, log) = server.terminate();
    for secret in [&viewer_code, &admin_code, &admin_token] {
        assert!(!log.contains(secret.as_str()), "a secret reached the log");
    }
}
