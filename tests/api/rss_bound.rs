//! The server's memory does not grow with its data file: 64 MB of durable memory writes
//! (overwrites of a few keys, every version kept on disk) through the real binary leave its
//! resident set within redb's capped page cache (`store::CACHE_BYTES`) plus slack. With
//! redb's default 1 GiB cache every new page stayed cached and RSS tracked the file
//! (found by `make soak`). Sizes, not timings, are asserted.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use crate::helpers::Binary;

const WRITERS: u64 = 16;
const VALUE_BYTES: usize = 16_000;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("kB")
}

/// `WRITERS` clients overwrite their own key until `total` writes are acknowledged.
async fn write(base: &str, token: &str, total: u64) {
    let done = Arc::new(AtomicU64::new(0));
    let writers: Vec<_> = (0..WRITERS)
        .map(|i| {
            let (url, token, done) = (format!("{base}/api/memory"), token.to_owned(), Arc::clone(&done));
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                let value = "lorem ipsum ".repeat(VALUE_BYTES / 12);
                while done.fetch_add(1, Ordering::SeqCst) < total {
                    let body = json!({ "scope": "org", "key": format!("bulk-{i}"), "value": value });
                    let res = client.post(&url).bearer_auth(&token).json(&body).send().await.expect("write");
                    assert!(res.status().is_success(), "{}", res.text().await.unwrap_or_default());
                }
            })
        })
        .collect();
    for w in writers {
        w.await.expect("writer");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rss_stays_bounded_while_the_data_file_grows() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let server = Binary::serve_with_env(&data, &[], &[("GTMS_API_RATE_LIMIT", "1000000000")]);
    let code = server.demo_invite_code();
    let res = reqwest::Client::new()
        .post(format!("{}/auth/login", server.base))
        .json(&json!({ "inviteCode": code }))
        .send()
        .await
        .expect("login");
    let token = res.json::<Value>().await.expect("json")["token"].as_str().expect("token").to_owned();
    let pid = server.child.id();

    write(&server.base, &token, 512).await;
    let (file_before, rss_before) = (std::fs::metadata(&data).expect("file").len(), rss_kib(pid));
    write(&server.base, &token, 4096).await;
    let (file_after, rss_after) = (std::fs::metadata(&data).expect("file").len(), rss_kib(pid));

    let file_growth_kib = (file_after - file_before) / 1024;
    let rss_growth_kib = rss_after.saturating_sub(rss_before);
    eprintln!("data file +{file_growth_kib} KiB, RSS {rss_before} -> {rss_after} KiB (+{rss_growth_kib} KiB)");
    assert!(file_growth_kib > 48 * 1024, "the file grew by every version: +{file_growth_kib} KiB");
    assert!(
        rss_growth_kib < 40 * 1024,
        "RSS grew {rss_growth_kib} KiB while the file grew {file_growth_kib} KiB: the page cache is not bounded"
    );
    assert_eq!(server.terminate().0, Some(0));
}
