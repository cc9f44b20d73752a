//! Crash rounds: the real binary on one redb file, 32 clients writing memory entries, starting
//! workflows (lead qualification, and content generation, which parks at an approval gate) and
//! deciding approvals, killed with SIGKILL after a seeded-random number of acknowledged
//! operations. After every restart: the file opens, every acknowledged memory write is there
//! with at least its acknowledged version, every acknowledged start exists, every acknowledged
//! decision is recorded and past its gate, and every workflow reaches an end or a gate.
//! `CRASH_ROUNDS` (default 10) and `CRASH_SEED` (default fixed) steer it; `make crash` runs more.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures_util::{StreamExt, stream};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::helpers::{Binary, eventually, login, until};

const CLIENTS: u64 = 32;
const KEYS_PER_CLIENT: u64 = 6;
const SCOPE: &str = "team:crash";
const ENV: [(&str, &str); 1] = [("GTMS_API_RATE_LIMIT", "1000000000")];

/// What the server acknowledged, over every round.
#[derive(Default, Clone)]
struct Ledger {
    /// Memory key -> highest version acknowledged.
    memory: HashMap<String, u64>,
    /// Every workflow whose start was acknowledged (202).
    starts: Vec<String>,
    /// Content workflows started and not yet decided.
    undecided: Vec<String>,
    /// Workflow id -> the decision acknowledged (200).
    decisions: HashMap<String, String>,
}

/// One round's counts, for the summary line.
#[derive(Default)]
struct Tally {
    writes: AtomicU64,
    starts: AtomicU64,
    decisions: AtomicU64,
}

impl Tally {
    fn total(&self) -> u64 {
        self.writes.load(Ordering::SeqCst) + self.starts.load(Ordering::SeqCst) + self.decisions.load(Ordering::SeqCst)
    }
}

struct Round {
    base: String,
    token: String,
    client: reqwest::Client,
    ledger: Arc<Mutex<Ledger>>,
    tally: Arc<Tally>,
    /// Set when a client saw an answer no correct server gives (a 5xx, a 4xx it did not expect).
    wrong: Arc<Mutex<Vec<String>>>,
    dead: Arc<AtomicBool>,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

impl Round {
    fn post(&self, path: &str, body: Value) -> reqwest::RequestBuilder {
        self.client.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(&body)
    }

    fn note_wrong(&self, what: &str, status: u16, body: &str) {
        if !self.dead.load(Ordering::SeqCst) {
            self.wrong.lock().expect("lock").push(format!("{what}: {status} {body}"));
        }
    }

    /// Sends one request; `None` once the server is gone (the client stops).
    async fn send(&self, request: reqwest::RequestBuilder) -> Option<(u16, Value)> {
        let res = request.send().await.ok()?;
        let status = res.status().as_u16();
        let body = res.json::<Value>().await.ok()?;
        Some((status, body))
    }

    async fn write_memory(&self, client: u64, rng: &mut StdRng) -> Option<()> {
        let key = format!("c{client}-k{}", rng.random_range(0..KEYS_PER_CLIENT));
        let body = json!({ "scope": SCOPE, "key": key, "value": format!("written by client {client}") });
        let (status, reply) = self.send(self.post("/api/memory", body)).await?;
        if !matches!(status, 200 | 201) {
            self.note_wrong("memory write", status, &reply.to_string());
            return Some(());
        }
        let version = reply["version"].as_u64().expect("version");
        let mut ledger = self.ledger.lock().expect("lock");
        let acked = ledger.memory.entry(key).or_default();
        *acked = (*acked).max(version);
        self.tally.writes.fetch_add(1, Ordering::SeqCst);
        Some(())
    }

    async fn start_workflow(&self, client: u64, rng: &mut StdRng) -> Option<()> {
        let content = rng.random_bool(0.5);
        let (worker, body) = if content {
            let params = json!({ "contentType": "blog-post", "accountId": "acct-004" });
            ("content-writer", json!({ "workflowType": "content-generation", "params": params }))
        } else {
            let params = json!({ "leadId": format!("lead-crash-{client}"), "company": "Construction Partners", "contact": "ops lead" });
            ("sdr", json!({ "workflowType": "lead-qualification", "params": params }))
        };
        let (status, reply) = self.send(self.post(&format!("/api/workers/{worker}/start"), body)).await?;
        if status != 202 {
            self.note_wrong("workflow start", status, &reply.to_string());
            return Some(());
        }
        let id = reply["workflowId"].as_str().expect("workflowId").to_owned();
        let mut ledger = self.ledger.lock().expect("lock");
        ledger.starts.push(id.clone());
        if content {
            ledger.undecided.push(id);
        }
        self.tally.starts.fetch_add(1, Ordering::SeqCst);
        Some(())
    }

    /// Decides one undecided content workflow; a 409 means it has not reached its gate yet
    /// (or another client decided it first) and is not an acknowledgement.
    async fn decide(&self, rng: &mut StdRng) -> Option<()> {
        let id = {
            let ledger = self.ledger.lock().expect("lock");
            if ledger.undecided.is_empty() {
                return Some(());
            }
            ledger.undecided[rng.random_range(0..ledger.undecided.len())].clone()
        };
        let decision = if rng.random_bool(0.5) { "approve" } else { "reject" };
        let body = json!({ "decision": decision, "comment": "crash round" });
        let (status, reply) = self.send(self.post(&format!("/api/coordinator/approvals/{id}"), body)).await?;
        match status {
            200 => {
                let mut ledger = self.ledger.lock().expect("lock");
                ledger.undecided.retain(|u| *u != id);
                ledger.decisions.insert(id, decision.to_owned());
                self.tally.decisions.fetch_add(1, Ordering::SeqCst);
            }
            409 => {}
            _ => self.note_wrong("decision", status, &reply.to_string()),
        }
        Some(())
    }

    /// One client: 80 % memory writes, 10 % starts, 10 % decisions, until the server dies.
    async fn client_loop(self: Arc<Self>, client: u64, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        loop {
            let roll = rng.random_range(0..100);
            let alive = if roll < 80 {
                self.write_memory(client, &mut rng).await
            } else if roll < 90 {
                self.start_workflow(client, &mut rng).await
            } else {
                self.decide(&mut rng).await
            };
            if alive.is_none() {
                return;
            }
        }
    }
}

/// Runs the clients until `kill_after` operations are acknowledged, then SIGKILLs the server.
async fn load_then_kill(server: Binary, round: Arc<Round>, seed: u64, kill_after: u64) {
    let clients: Vec<_> =
        (0..CLIENTS).map(|c| tokio::spawn(Arc::clone(&round).client_loop(c, seed ^ ((c + 1) * 0x9e37_79b9)))).collect();
    let (tally, wrong) = (Arc::clone(&round.tally), Arc::clone(&round.wrong));
    let stop = || tally.total() >= kill_after || !wrong.lock().expect("lock").is_empty();
    until("the clients to reach the kill point", stop).await;
    round.dead.store(true, Ordering::SeqCst);
    server.kill_9();
    for c in clients {
        c.await.expect("client task");
    }
}

async fn get(client: &reqwest::Client, base: &str, token: &str, path: &str) -> (u16, Value) {
    let res = client.get(format!("{base}{path}")).bearer_auth(token).send().await.expect("get");
    let status = res.status().as_u16();
    (status, res.json().await.expect("json"))
}

/// Every acknowledged memory write is present with at least its acknowledged version.
async fn check_memory(client: &reqwest::Client, base: &str, token: &str, acked: &HashMap<String, u64>) {
    let lost: Vec<String> = stream::iter(acked.iter())
        .map(|(key, version)| async move {
            let (status, entry) = get(client, base, token, &format!("/api/memory/{SCOPE}/{key}")).await;
            let found = entry["version"].as_u64().unwrap_or(0);
            (status != 200 || found < *version)
                .then(|| format!("{key}: acknowledged v{version}, found {status} v{found}"))
        })
        .buffer_unordered(16)
        .filter_map(std::future::ready)
        .collect()
        .await;
    assert!(lost.is_empty(), "acknowledged memory writes lost: {lost:?}");
}

/// Every acknowledged start exists; every acknowledged decision is recorded and past its gate.
async fn check_workflows(client: &reqwest::Client, base: &str, token: &str, ledger: &Ledger) {
    let wrong: Vec<String> = stream::iter(ledger.starts.iter())
        .map(|id| async move {
            let (status, w) = get(client, base, token, &format!("/api/coordinator/workflows/{id}")).await;
            let decided = ledger.decisions.get(id);
            let approval = &w["approval"];
            let recorded = decided.is_none_or(|d| approval["decision"] == d.as_str() && approval["pending"] != true);
            (status != 200 || !recorded).then(|| format!("{id}: {status}, decision {decided:?}, found {w}"))
        })
        .buffer_unordered(16)
        .filter_map(std::future::ready)
        .collect()
        .await;
    assert!(wrong.is_empty(), "acknowledged workflow starts or decisions lost: {wrong:?}");
}

/// Polls until every workflow has ended or waits at a gate; returns (ended, waiting).
async fn settle(client: &reqwest::Client, base: &str, token: &str) -> (usize, usize) {
    eventually("every workflow reaching an end or a gate after recovery", || async move {
        let (status, list) = get(client, base, token, "/api/coordinator/workflows").await;
        assert_eq!(status, 200, "{list}");
        let all = list["workflows"].as_array().expect("workflows").clone();
        let failed: Vec<&Value> = all.iter().filter(|w| w["status"] == "failed").collect();
        assert!(failed.is_empty(), "workflows failed after a crash: {failed:?}");
        let ended = all.iter().filter(|w| matches!(w["status"].as_str(), Some("completed" | "cancelled"))).count();
        let waiting = all.iter().filter(|w| w["status"] == "waiting").count();
        (ended + waiting == all.len()).then_some((ended, waiting))
    })
    .await
}

/// One round on a running server: load, SIGKILL, restart on the same file, check everything
/// acknowledged so far; returns the restarted server (the next round's).
async fn crash_round(
    server: Binary,
    data: &Path,
    n: u64,
    seed: u64,
    code: &str,
    ledger: &Arc<Mutex<Ledger>>,
) -> Binary {
    let kill_after = StdRng::seed_from_u64(seed).random_range(20..1200);
    let round = Arc::new(Round {
        base: server.base.clone(),
        token: login(&server.base, code).await,
        client: reqwest::Client::new(),
        ledger: Arc::clone(ledger),
        tally: Arc::default(),
        wrong: Arc::default(),
        dead: Arc::new(AtomicBool::new(false)),
    });
    load_then_kill(server, Arc::clone(&round), seed, kill_after).await;
    let wrong = round.wrong.lock().expect("lock").clone();
    assert!(wrong.is_empty(), "round {n}: answers no correct server gives: {wrong:?}");

    let started = Instant::now();
    let server = Binary::serve_with_env(data, &[], &ENV);
    let token = login(&server.base, code).await;
    let client = reqwest::Client::new();
    let ledger = ledger.lock().expect("lock").clone();
    check_memory(&client, &server.base, &token, &ledger.memory).await;
    check_workflows(&client, &server.base, &token, &ledger).await;
    let (ended, waiting) = settle(&client, &server.base, &token).await;
    let t = &round.tally;
    eprintln!(
        "crash round {n:>2}: SIGKILL after {} acknowledged operations (target {kill_after}): {} memory writes, {} workflow starts, {} decisions; after restart {} keys, {} starts and {} decisions intact, workflows {ended} ended + {waiting} at a gate ({:.1?} to recover and check)",
        t.total(),
        t.writes.load(Ordering::SeqCst),
        t.starts.load(Ordering::SeqCst),
        t.decisions.load(Ordering::SeqCst),
        ledger.memory.len(),
        ledger.starts.len(),
        ledger.decisions.len(),
        started.elapsed(),
    );
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_writes_starts_and_decisions_survive_sigkill_rounds() {
    let rounds = env_u64("CRASH_ROUNDS", 10);
    let seed = env_u64("CRASH_SEED", 15);
    eprintln!("crash rounds: {rounds} rounds, {CLIENTS} clients, CRASH_SEED={seed}");
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let mut server = Binary::serve_with_env(&data, &[], &ENV);
    let code = server.demo_invite_code();
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    for n in 1..=rounds {
        let round_seed = seed.wrapping_mul(0x2545_f491_4f6c_dd1d).wrapping_add(n);
        server = crash_round(server, &data, n, round_seed, &code, &ledger).await;
    }
    assert_eq!(server.terminate().0, Some(0), "a clean stop after the last recovery");
}
