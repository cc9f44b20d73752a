//! Test harness: `spawn_app` starts the real app on a random loopback port with a fresh redb
//! file; `Binary` runs the compiled `gtms` executable and reads its bound address from the log.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gtms::app::{self, RunningApp};
use gtms::config::Layer;
use tempfile::TempDir;

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    _dir: TempDir,
    app: Option<RunningApp>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request failed")
    }

    pub fn state(&self) -> &gtms::state::AppState {
        &self.app.as_ref().expect("running").state
    }

    /// Issues an API key in-process (as `gtms keys create` would).
    pub async fn api_key(&self, tenant: &str) -> (String, String) {
        let tenant = gtms::domain::Tenant::parse(tenant).expect("tenant");
        let (key, summary) = self.state().api_keys().create(&tenant, "test", 0).await.expect("create key");
        (key, summary.id)
    }

    /// Creates an invite in-process (as `gtms invites create` would) and returns its code and id.
    pub async fn invite(&self, role: gtms::domain::Role) -> (String, String) {
        let (code, summary) = self.state().sessions().create_invite(role, "tester", None, 0).await.expect("invite");
        (code, summary.id)
    }

    /// A request with a bearer token.
    pub fn authed(&self, method: reqwest::Method, path: &str, token: &str) -> reqwest::RequestBuilder {
        self.client.request(method, self.url(path)).header("authorization", format!("Bearer {token}"))
    }

    /// A GET with `token` that must answer 200: its JSON body.
    pub async fn get_json(&self, token: &str, path: &str) -> serde_json::Value {
        let res = self.authed(reqwest::Method::GET, path, token).send().await.expect("request");
        assert_eq!(res.status(), 200, "{path}");
        res.json().await.expect("json")
    }

    /// Signs in with a fresh invite of `role`; returns the bearer token.
    pub async fn token(&self, role: gtms::domain::Role) -> String {
        let (code, _) = self.invite(role).await;
        let res =
            self.client.post(self.url("/auth/login")).json(&serde_json::json!({ "inviteCode": code })).send().await;
        let body: serde_json::Value = res.expect("login").json().await.expect("json");
        body["token"].as_str().expect("token").to_owned()
    }

    pub async fn stop(mut self) {
        if let Some(app) = self.app.take() {
            app.stop().await.expect("clean stop");
        }
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

impl TestApp {
    /// Stops the app and starts it again on the same data file (a restart).
    pub async fn restart(mut self) -> TestApp {
        if let Some(app) = self.app.take() {
            app.stop().await.expect("clean stop");
        }
        let dir = std::mem::replace(&mut self._dir, tempfile::tempdir().expect("dir"));
        start_in(dir, |_| {}).await
    }
}

/// Starts the app with test defaults, after `adjust` has changed the config layer.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Layer)) -> TestApp {
    start_in(tempfile::tempdir().expect("temp dir"), adjust).await
}

/// As `spawn_app_with`, with the clock every limiter reads.
pub async fn spawn_app_with_clock(clock: Arc<gtms::clock::ManualClock>, adjust: impl FnOnce(&mut Layer)) -> TestApp {
    start_in_with_clock(tempfile::tempdir().expect("temp dir"), clock, adjust).await
}

impl TestApp {
    /// Stops the app gracefully and starts it again on the same data file, reading `clock`.
    pub async fn restart_with_clock(
        mut self,
        clock: Arc<gtms::clock::ManualClock>,
        adjust: impl FnOnce(&mut Layer),
    ) -> TestApp {
        if let Some(app) = self.app.take() {
            app.stop().await.expect("clean stop");
        }
        let dir = std::mem::replace(&mut self._dir, tempfile::tempdir().expect("dir"));
        start_in_with_clock(dir, clock, adjust).await
    }
}

/// What every test app starts from: the simulated team off (it would start workflows no test
/// asked for; tests/api/demo_team.rs turns it on).
fn test_layer() -> Layer {
    Layer { demo_simulate: Some(false), ..Layer::default() }
}

async fn start_in_with_clock(
    dir: TempDir,
    clock: Arc<gtms::clock::ManualClock>,
    adjust: impl FnOnce(&mut Layer),
) -> TestApp {
    let mut layer =
        Layer { listen: Some("127.0.0.1:0".into()), data: Some(dir.path().join("gtms.redb")), ..test_layer() };
    adjust(&mut layer);
    let config = layer.validate().expect("valid test config");
    let app = app::start_with_clock(config, clock).await.expect("app starts");
    app.settled().await;
    let base = format!("http://{}", app.addr);
    TestApp { base, client: reqwest::Client::new(), _dir: dir, app: Some(app) }
}

async fn start_in(dir: TempDir, adjust: impl FnOnce(&mut Layer)) -> TestApp {
    let mut layer =
        Layer { listen: Some("127.0.0.1:0".into()), data: Some(dir.path().join("gtms.redb")), ..test_layer() };
    adjust(&mut layer);
    let https = layer.tls_cert.is_some();
    let config = layer.validate().expect("valid test config");
    let app = app::start(config).await.expect("app starts");
    // Tests count argon2 runs and invites: the first start's invite is made before they begin.
    app.settled().await;
    let scheme = if https { "https" } else { "http" };
    let base = format!("{scheme}://{}", app.addr);
    TestApp { base, client: reqwest::Client::new(), _dir: dir, app: Some(app) }
}

/// The compiled `gtms` binary, running.
pub struct Binary {
    pub child: Child,
    pub base: String,
    log: Arc<Mutex<String>>,
    /// Reads stderr into `log`; ends at EOF, when the process exits.
    reader: Option<std::thread::JoinHandle<()>>,
}

pub fn gtms() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gtms"))
}

/// Runs `gtms ARGS` to completion (cheap argon2, no stdin): exit code, stdout, stderr.
pub fn run_gtms<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> (i32, String, String) {
    let out = gtms()
        .args(args)
        .env("GTMS_ARGON2_MEMORY_KIB", "64")
        .env("GTMS_ARGON2_ITERATIONS", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run gtms");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

impl Binary {
    /// Starts `gtms serve` on a random port with `data` and waits until it listens.
    pub fn serve(data: &Path, extra: &[&str]) -> Binary {
        Self::serve_with_env(data, extra, &[])
    }

    /// As `serve`, with extra environment variables (set after the test defaults).
    pub fn serve_with_env(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Binary {
        let mut child = gtms()
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
            .env("GTMS_LOG_FORMAT", "human")
            .env("GTMS_ARGON2_MEMORY_KIB", "64")
            .env("GTMS_ARGON2_ITERATIONS", "1")
            // The simulated team would start workflows no test asked for (tests/api/demo_team.rs
            // turns it on).
            .env("GTMS_DEMO_SIMULATE", "false")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn gtms");
        let stderr = child.stderr.take().expect("stderr");
        let log = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&log);
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut log = sink.lock().expect("log lock");
                log.push_str(&line);
                log.push('\n');
            }
        });
        let base = poll_blocking(
            Duration::from_secs(30),
            || format!("gtms did not start: {}", log.lock().expect("log lock")),
            || {
                let text = log.lock().expect("log lock").clone();
                if let Ok(Some(status)) = child.try_wait() {
                    panic!("gtms exited early with {status}: {text}");
                }
                let rest = &text[text.find("listening on ")? + "listening on ".len()..];
                rest.split(|c: char| c.is_whitespace() || c == '"').next().map(str::to_owned)
            },
        );
        Binary { child, base, log, reader: Some(reader) }
    }

    /// The admin invite code a first start in demo mode announces (waiting for the
    /// announcement: it is printed just after the "listening on" line `serve` waits for).
    pub fn demo_invite_code(&self) -> String {
        self.wait_for_log("(shown only this once)");
        let log = self.log();
        log.split("admin invite code ").nth(1).and_then(|r| r.split_whitespace().next()).expect("invite").to_owned()
    }

    pub fn log(&self) -> String {
        self.log.lock().expect("log lock").clone()
    }

    /// SIGKILL: the server gets no chance to flush or close anything.
    pub fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Sends SIGTERM without waiting for the exit.
    pub fn send_sigterm(&self) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
        assert!(status.success());
    }

    /// Waits until `needle` appears in the log (a deadline, no fixed sleep).
    pub fn wait_for_log(&self, needle: &str) {
        poll_blocking(
            Duration::from_secs(30),
            || format!("{needle:?} never appeared in the log: {}", self.log()),
            || self.log().contains(needle).then_some(()),
        )
    }

    /// Waits for the process to exit and for its last log line; returns its code and log.
    pub fn wait(mut self) -> (Option<i32>, String) {
        let code = self.child.wait().expect("wait").code();
        if let Some(reader) = self.reader.take() {
            reader.join().expect("log reader");
        }
        (code, self.log())
    }

    /// Sends SIGTERM and returns the exit code.
    pub fn terminate(self) -> (Option<i32>, String) {
        self.send_sigterm();
        self.wait()
    }
}

impl Drop for Binary {
    /// Kills the process; when a test fails, prints the end of its log beside the failure.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("--- the end of gtms's log ({}) ---\n{}", self.base, log_tail(&self.log()));
        }
    }
}

/// The last lines of a log, enough to tell why a test failed, after every panic message and
/// ERROR line from before them (a backtrace can push the cause out of the tail).
pub fn log_tail(log: &str) -> String {
    const LINES: usize = 150;
    let lines: Vec<&str> = log.lines().collect();
    let tail = lines.len().saturating_sub(LINES);
    let mut out = Vec::new();
    for (i, line) in lines[..tail].iter().enumerate() {
        if line.contains("panicked at") || line.contains(" ERROR ") {
            out.push(format!("[line {}] {line}", i + 1));
            if line.contains("panicked at") {
                out.extend(lines.get(i + 1).map(|next| format!("[line {}] {next}", i + 2)));
            }
        }
    }
    if !out.is_empty() {
        out.push(format!("[… then the last {} of {} lines]", lines.len() - tail, lines.len()));
    }
    out.extend(lines[tail..].iter().map(|l| (*l).to_owned()));
    out.join("\n")
}

/// Signs in to a running server with an invite code; returns the bearer token.
pub async fn login(base: &str, code: &str) -> String {
    let res = reqwest::Client::new()
        .post(format!("{base}/auth/login"))
        .json(&serde_json::json!({ "inviteCode": code }))
        .send()
        .await
        .expect("login");
    let body: serde_json::Value = res.json().await.expect("json");
    body["token"].as_str().expect("token").to_owned()
}

/// Creates an admin invite with `gtms invites create` (through the admin channel of the server
/// running on `data`) and signs in with it.
pub async fn admin_token(base: &str, data: &Path) -> String {
    let out = gtms()
        .args(["invites", "create", "--role", "admin", "--name", "ops", "--data"])
        .arg(data)
        .stdin(Stdio::null())
        .output()
        .expect("invites create");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    login(base, stdout.split_whitespace().next().expect("code")).await
}

/// Blocks, polling `probe` until it answers `Some`, and returns that; panics with `failure()`
/// when `within` passes (a deadline, never a fixed sleep). For code outside the runtime.
pub fn poll_blocking<T>(within: Duration, failure: impl Fn() -> String, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(Instant::now() < deadline, "{}", failure());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls `probe` until it answers `Some`, and returns that (a deadline, never a fixed sleep).
/// Panics naming `what` when the deadline passes.
pub async fn eventually<T, F, Fut>(what: &str, probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    eventually_or(|| format!("{what} did not happen within the deadline"), probe).await
}

/// `eventually` that panics with `failure()` (what was seen, a log) when the deadline passes.
pub async fn eventually_or<T, F, Fut>(failure: impl Fn() -> String, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(tokio::time::Instant::now() < deadline, "{}", failure());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `eventually` for a plain condition.
pub async fn until(what: &str, mut condition: impl FnMut() -> bool) {
    eventually(what, || std::future::ready(condition().then_some(()))).await
}
