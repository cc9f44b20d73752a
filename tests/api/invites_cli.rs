//! `gtms invites create|list|revoke` with the server stopped and running; a revoke ends the
//! user's sessions at once; codes never reach the log.

use crate::helpers::{Binary, run_gtms};

fn invites(data: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let head: [&std::ffi::OsStr; 3] = ["invites".as_ref(), "--data".as_ref(), data.as_os_str()];
    run_gtms(head.into_iter().chain(args.iter().map(|a| a.as_ref())))
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

async fn chat(base: &str, token: &str, message: &str) -> String {
    let res = reqwest::Client::new()
        .post(format!("{base}/api/brain/chat"))
        .header("authorization", format!("Bearer {token}"))
        .json(&serde_json::json!({ "message": message }))
        .send()
        .await
        .expect("chat");
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.expect("json");
    body["response"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_team_invite_brings_its_team_memory_into_that_users_chats_only() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    for bad in ["Sales", "a b", "team:sales", ""] {
        let (code, _, err) = invites(&data, &["create", "--role", "viewer", "--name", "x", "--team", bad]);
        assert_eq!(code, 2, "--team {bad:?} is refused: {err}");
    }
    let server = Binary::serve(&data, &[]);
    let create = |role: &'static str, extra: &'static [&'static str]| {
        let mut args = vec!["create", "--role", role, "--name", "someone"];
        args.extend_from_slice(extra);
        let (code, out, err) = invites(&data, &args);
        assert_eq!(code, 0, "{err}");
        out.split_whitespace().next().expect("code").to_owned()
    };
    let seller = create("viewer", &["--team", "sales"]);
    let outsider = create("viewer", &[]);
    let admin = create("admin", &[]);
    let (_, out, _) = invites(&data, &["list", "--json"]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).expect("json");
    let on_team: Vec<&str> = list.iter().filter_map(|i| i["team"].as_str()).collect();
    assert_eq!((on_team, list.len()), (vec!["sales"], 4), "one team invite beside the demo admin and two others");
    let (_, table, _) = invites(&data, &["list"]);
    assert!(table.contains("TEAM") && table.contains("sales"), "{table}");

    let (_, admin_token) = login(&server.base, &admin).await;
    let entry = serde_json::json!({ "scope": "team:sales", "key": "x", "value": "The sales playbook opens with ROI" });
    let res = reqwest::Client::new()
        .post(format!("{}/api/memory", server.base))
        .header("authorization", format!("Bearer {admin_token}"))
        .json(&entry)
        .send()
        .await
        .expect("write");
    assert_eq!(res.status(), 201);

    let question = "What does the sales playbook open with?";
    let (_, seller_token) = login(&server.base, &seller).await;
    let answer = chat(&server.base, &seller_token, question).await;
    assert!(answer.contains("[team:sales/x@1]"), "the team's user sees team memory: {answer}");
    let (_, outsider_token) = login(&server.base, &outsider).await;
    let answer = chat(&server.base, &outsider_token, question).await;
    assert!(!answer.contains("team:sales"), "a user without that team does not: {answer}");
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}
