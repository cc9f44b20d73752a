//! The audit log against the real binary: the CLI's key and invite actions and the API's deal
//! and memory writes are recorded with who, what, target, when and from where; `GET
//! /api/audit` pages and filters them for admins only; `gtms audit` exports JSON lines whose
//! hashes a script recomputes, and CSV; `gtms audit verify` walks the chain; no secret appears
//! anywhere in it; an acknowledged action's record survives `kill -9`; MCP's opt-in `controls`
//! toolset reads the same log.

use std::path::Path;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::envelope::assert_envelope;
use crate::helpers::{Binary, admin_token, login, run_gtms};
use crate::mcp::RawSession;

/// Runs `gtms <args> --data <data>`: exit code, stdout, stderr.
fn cli(data: &Path, args: &[&str]) -> (i32, String, String) {
    run_gtms(args.iter().map(|a| a.as_ref()).chain(["--data".as_ref(), data.as_os_str()]))
}

/// The first whitespace-separated word a create command prints: its secret.
fn secret(out: &str) -> String {
    out.split_whitespace().next().expect("secret").to_owned()
}

async fn get(base: &str, token: &str, path: &str) -> reqwest::Response {
    let client = reqwest::Client::new();
    client.get(format!("{base}{path}")).bearer_auth(token).send().await.expect("get")
}

async fn audit(base: &str, token: &str, query: &str) -> Value {
    let res = get(base, token, &format!("/api/audit{query}")).await;
    assert_eq!(res.status(), 200);
    res.json().await.expect("json")
}

fn actions(page: &Value) -> Vec<String> {
    page["entries"].as_array().expect("entries").iter().map(|e| e["action"].as_str().unwrap_or("").to_owned()).collect()
}

/// What an outside script does with an export: recompute each hash from the documented JSON
/// and follow `prev` from 64 zeros.
fn check_chain(jsonl: &str) -> usize {
    let mut prev = "0".repeat(64);
    let mut count = 0;
    for line in jsonl.lines() {
        let mut record: serde_json::Map<String, Value> = serde_json::from_str(line).expect("a JSON line");
        let hash = record.remove("hash").and_then(|h| h.as_str().map(str::to_owned)).expect("hash");
        let fields = ["seq", "at", "actor", "action", "target", "from", "detail", "prev"];
        assert_eq!(record.keys().map(String::as_str).collect::<Vec<_>>(), fields, "{line}");
        assert_eq!(record["prev"], prev.as_str(), "{line}");
        let computed = hex::encode(Sha256::digest(serde_json::to_string(&record).expect("json")));
        assert_eq!(computed, hash, "{line}");
        count += 1;
        assert_eq!(record["seq"], count, "{line}");
        prev = hash;
    }
    count
}

#[tokio::test]
async fn admin_actions_are_recorded_paged_exported_verified_and_never_hold_a_secret() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    // Offline: the CLI opens the file itself.
    let (code, out, err) = cli(&data, &["keys", "create", "--tenant", "acme", "--name", "crm sync"]);
    assert_eq!(code, 0, "{err}");
    let api_key = secret(&out);
    let (code, out, err) = cli(&data, &["invites", "create", "--role", "viewer", "--name", "Vera Viewer"]);
    assert_eq!(code, 0, "{err}");
    let viewer_code = secret(&out);

    let server = Binary::serve(&data, &[]);
    let base = server.base.clone();
    let admin = admin_token(&base, &data).await;
    let viewer = login(&base, &viewer_code).await;
    let client = reqwest::Client::new();

    let deals: Value = get(&base, &admin, "/api/deals?limit=1").await.json().await.expect("deals");
    let deal = deals["deals"][0]["id"].as_str().expect("a demo deal").to_owned();
    let res = client
        .patch(format!("{base}/api/deals/{deal}"))
        .bearer_auth(&admin)
        .json(&json!({ "nextStep": "Send the pricing sheet" }))
        .send()
        .await
        .expect("patch");
    assert_eq!(res.status(), 200);
    let body = json!({ "scope": "org", "key": "audit-check", "value": "Renewals move to Q3." });
    let res = client.post(format!("{base}/api/memory")).bearer_auth(&admin).json(&body).send().await.expect("write");
    assert_eq!(res.status(), 201);

    // Newest first: what the API did, then the CLI's invite and key (the admin's invite too).
    let page = audit(&base, &admin, "").await;
    let all = actions(&page);
    assert_eq!(all, ["memory.write", "deal.update", "invite.create", "invite.create", "key.create"], "{page}");
    let entries = page["entries"].as_array().expect("entries");
    let (memory, moved, key) = (&entries[0], &entries[1], &entries[4]);
    assert_eq!((memory["target"].as_str(), memory["from"].as_str()), (Some("org/audit-check"), Some("api 127.0.0.1")));
    assert!(memory["actor"].as_str().is_some_and(|a| a.ends_with("(ops)")), "{memory}");
    assert_eq!((memory["detail"]["version"].as_str(), memory["detail"]["created"].as_str()), (Some("1"), Some("true")));
    assert_eq!((moved["target"].as_str(), moved["detail"]["fields"].as_str()), (Some(deal.as_str()), Some("nextStep")));
    assert_eq!(
        (key["actor"].as_str(), key["from"].as_str(), key["detail"]["tenant"].as_str()),
        (Some("cli"), Some("cli"), Some("acme"))
    );
    assert!(page.get("nextCursor").is_none(), "one page holds all five");

    // Pages follow the cursor without overlap; filters are exact.
    let first = audit(&base, &admin, "?limit=2").await;
    assert_eq!(actions(&first), ["memory.write", "deal.update"]);
    let cursor = first["nextCursor"].as_str().expect("a next page").to_owned();
    let rest = audit(&base, &admin, &format!("?limit=2&cursor={cursor}")).await;
    assert_eq!(actions(&rest), ["invite.create", "invite.create"]);
    let last = audit(&base, &admin, &format!("?limit=2&cursor={}", rest["nextCursor"].as_str().expect("more"))).await;
    assert_eq!((actions(&last), last.get("nextCursor")), (vec!["key.create".to_owned()], None));
    assert_eq!(actions(&audit(&base, &admin, "?action=invite.create").await).len(), 2);
    assert_eq!(actions(&audit(&base, &admin, &format!("?target={deal}")).await), ["deal.update"]);

    // Admins only; bad paging is a 400 envelope.
    assert_envelope(get(&base, &viewer, "/api/audit").await, 403, "forbidden").await;
    let anonymous = client.get(format!("{base}/api/audit")).send().await.expect("get");
    assert_envelope(anonymous, 401, "unauthorized").await;
    for query in ["?limit=0", "?limit=1001", "?limit=ten", "?cursor=abc", "?cursor=0", "?sort=asc"] {
        assert_envelope(get(&base, &admin, &format!("/api/audit{query}")).await, 400, "bad_request").await;
    }

    // The CLI reads the log through the running server.
    let (code, jsonl, err) = cli(&data, &["audit"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(check_chain(&jsonl), 5);
    let (code, csv, _) = cli(&data, &["audit", "--format", "csv"]);
    assert_eq!(code, 0);
    assert!(csv.starts_with("seq,at,actor,action,target,from,detail,prev,hash\r\n"), "{csv}");
    assert_eq!(csv.lines().count(), 6);
    let (code, out, err) = cli(&data, &["audit", "verify"]);
    assert_eq!((code, out.trim()), (0, "audit log: 5 records, chain intact"), "{err}");

    // MCP: the opt-in controls toolset, admins only.
    let mcp_admin = RawSession::open_at(&base, "/mcp?toolsets=controls", &admin).await;
    let listed = mcp_admin.call(1, "audit_list", json!({ "action": "key.create" })).await;
    let result = &listed["result"];
    assert_eq!(result["isError"], false, "{listed}");
    assert_eq!(result["structuredContent"]["entries"][0]["detail"]["name"], "crm sync", "{listed}");
    let mcp_viewer = RawSession::open_at(&base, "/mcp?toolsets=controls", &viewer).await;
    assert_eq!(mcp_viewer.call(2, "audit_list", json!({})).await["result"]["isError"], true);

    // No secret anywhere: not the key, not an invite code, not a session token.
    let api = get(&base, &admin, "/api/audit?limit=1000").await.text().await.expect("body");
    for text in [&api, &jsonl, &csv] {
        for secret in [&api_key, &viewer_code, &admin, &viewer] {
            assert!(!text.contains(secret.as_str()), "a secret reached the audit log");
        }
    }

    // Acknowledged, so it survives SIGKILL; the offline CLI verifies the same chain.
    server.kill_9();
    let (code, out, err) = cli(&data, &["audit", "verify"]);
    assert_eq!((code, out.trim()), (0, "audit log: 5 records, chain intact"), "{err}");
}
