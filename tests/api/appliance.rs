//! The appliance the engine suites drive: the real binary on a fresh data file, with the suite's
//! settings (`SUITE_ENV`) and an admin token, on either engine; and the helpers those suites
//! share (waiting for a workflow, reading a step, the temporal engine's settings).

use serde_json::{Value, json};

use crate::helpers::{Binary, admin_token, eventually, eventually_or};
use crate::temporal_cluster::TemporalCluster;

/// A running appliance and an admin token.
pub struct Appliance {
    pub server: Binary,
    pub token: String,
    pub http: reqwest::Client,
    pub dir: tempfile::TempDir,
    pub env: Vec<(String, String)>,
}

/// Settings both engines run the suite with: a 1 s SLA for urgent tickets, onboarding
/// approvals that expire after 1 s, fast retries.
const SUITE_ENV: &[(&str, &str)] = &[
    ("GTMS_SLA_URGENT_SECS", "1"),
    ("GTMS_APPROVAL_EXPIRY_CLIENT_ONBOARDING_SECS", "1"),
    ("GTMS_WORKFLOW_RETRY_BASE_MS", "50"),
    ("GTMS_API_RATE_LIMIT", "100000"),
];

impl Appliance {
    pub async fn start(env: &[(String, String)]) -> Appliance {
        let dir = tempfile::tempdir().expect("dir");
        let server = Self::serve(&dir, env);
        let token = admin_token(&server.base, &dir.path().join("gtms.redb")).await;
        Appliance { server, token, http: reqwest::Client::new(), dir, env: env.to_vec() }
    }

    pub fn serve(dir: &tempfile::TempDir, env: &[(String, String)]) -> Binary {
        let mut all: Vec<(&str, &str)> = SUITE_ENV.to_vec();
        all.extend(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        Binary::serve_with_env(&dir.path().join("gtms.redb"), &[], &all)
    }

    /// Kills the server (SIGKILL) and starts it again on the same data file; the token stays
    /// good (the signing secret is in the file).
    pub async fn restart(self) -> Appliance {
        let Appliance { server, token, http, dir, env } = self;
        server.kill_9();
        let server = Self::serve(&dir, &env);
        Appliance { server, token, http, dir, env }
    }

    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.server.base)).bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let res = request.send().await.expect("request");
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.call(reqwest::Method::GET, path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    pub async fn start_workflow(&self, worker: &str, kind: &str, params: Value) -> String {
        let body = json!({"workflowType": kind, "params": params});
        let (status, reply) =
            self.call(reqwest::Method::POST, &format!("/api/workers/{worker}/start"), Some(body)).await;
        assert_eq!(status, 202, "{reply}");
        reply["workflowId"].as_str().expect("id").to_owned()
    }

    /// Starts an email draft for account acct-004 on the content writer.
    pub async fn start_draft(&self) -> String {
        self.start_workflow(
            "content-writer",
            "content-generation",
            json!({"contentType": "email", "accountId": "acct-004"}),
        )
        .await
    }

    pub async fn decide(&self, id: &str, decision: &str) -> (u16, Value) {
        let body = json!({"decision": decision, "comment": "checked by the suite"});
        self.call(reqwest::Method::POST, &format!("/api/coordinator/approvals/{id}"), Some(body)).await
    }

    /// Polls the workflow until `done` holds for it; on a timeout, says what was last seen (the
    /// appliance's and the cluster's logs follow when they are dropped).
    pub async fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let path = format!("/api/coordinator/workflows/{id}");
        let last = std::sync::Mutex::new(Value::Null);
        let failure = || {
            let seen = last.lock().map(|v| v.to_string()).unwrap_or_default();
            format!("{id}: {what} did not happen within the deadline; last seen {seen}")
        };
        eventually_or(failure, || async {
            let (status, w) = self.call(reqwest::Method::GET, &path, None).await;
            if status == 200 && done(&w) {
                return Some(w);
            }
            if let Ok(mut seen) = last.lock() {
                *seen = json!({"status": status, "body": w});
            }
            None
        })
        .await
    }

    /// Stops the server (SIGTERM) and reads the team-chat notifications it queued.
    pub async fn stop_and_read_outbox(self) -> Vec<gtms::store::OutboxRecord> {
        let (code, log) = self.server.terminate();
        assert_eq!(code, Some(0), "{log}");
        let store = gtms::store::Store::open(&self.dir.path().join("gtms.redb")).expect("the data file opens");
        store.outbox().await.expect("outbox")
    }

    pub async fn health(&self) -> Value {
        self.http.get(format!("{}/api/health", self.server.base)).send().await.expect("health").json().await.expect("j")
    }
}

pub fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |w| w["status"] == status
}

/// The step of a workflow's view named `name` (null when it has none).
pub fn step(workflow: &Value, name: &str) -> Value {
    workflow["steps"].as_array().into_iter().flatten().find(|s| s["name"] == name).cloned().unwrap_or_default()
}

/// After a restart, the temporal engine is ready once it connected again.
pub async fn connected_if_temporal(app: &Appliance) {
    if app.env.iter().any(|(k, v)| k == "GTMS_MODE" && v == "temporal") {
        connected(app).await;
    }
}

pub fn temporal_env(cluster: &TemporalCluster) -> Vec<(String, String)> {
    let mut env = cluster.gtms_env();
    env.push(("GTMS_MODE".into(), "temporal".into()));
    env
}

pub async fn connected(app: &Appliance) {
    eventually("temporal connected", || async { (app.health().await["temporal"] == "connected").then_some(()) }).await;
}
