//! Runtime configuration: built-in defaults, then an optional TOML file, then `GTMS_*`
//! environment variables, then command-line flags, each layer overriding the one before.
//! Validated once at start-up; secrets are wrapped in `Secret`, which never prints.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::auth::secrets::HashCost;

mod budgets;
mod layer;
use layer::number;
mod llm;
mod temporal;
mod validate;
mod workflows;

pub use budgets::{BudgetLayer, BudgetSettings, Limits};
pub use llm::{LlmLayer, LlmSettings, Price, Provider};
pub use temporal::{TemporalLayer, TemporalSettings};
pub use validate::check_data_dir;
pub use workflows::{WorkflowLayer, WorkflowSettings};

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    ReadFile { path: PathBuf, source: std::io::Error },
    #[error("config file {path}: {message}")]
    ParseFile { path: PathBuf, message: String },
    #[error("invalid {name}: {message}")]
    Invalid { name: &'static str, message: String },
}

fn invalid(name: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { name, message: message.into() }
}

/// A value that must never reach a log line, a response or a `Debug` dump.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Demo,
    Temporal,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Demo => "demo",
            Mode::Temporal => "temporal",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Human,
    Json,
}

/// The validated configuration the server runs with.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub data: PathBuf,
    pub mode: Mode,
    pub log_format: LogFormat,
    pub log_level: String,
    pub tls: Option<TlsFiles>,
    /// Forces the `Secure` cookie attribute even without TLS (behind a TLS-terminating proxy).
    pub secure_cookies: bool,
    pub jwt_secret: Option<Secret>,
    /// A bearer token that may scrape `/metrics` (besides admin tokens); never shown.
    pub metrics_token: Option<Secret>,
    pub hash_cost: HashCost,
    /// Requests per minute per API key on `/v1/enrich`.
    pub enrich_rate_limit: u64,
    pub rate_limits: RateLimits,
    /// Peers whose `X-Forwarded-For` is believed when finding the client IP.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The voice service's publishable (browser-safe) key, shown by `/api/config`.
    pub voice_publishable_key: Option<String>,
    /// Cron schedules (6 fields, seconds first, UTC) of the scheduler's jobs.
    pub schedules: Schedules,
    /// Load the demo workspace (workers, deals, accounts, history) on the first start.
    pub seed_demo_workspace: bool,
    /// Run the simulated team (demo mode only; on by default there with the demo workspace).
    pub simulate_team: bool,
    pub mcp: McpSettings,
    /// Connection hygiene of the accept loop (timeouts, the connection cap, HTTP/2 limits).
    pub connections: ConnectionSettings,
    /// Failed credential checks allowed per window before argon2 is refused (429).
    pub failed_auth: crate::auth::guard::AttemptLimits,
    /// argon2 hashes running at once (default: the number of cores).
    pub argon2_concurrency: usize,
    /// Scheduled backups; `None` unless `backup_dir` is set.
    pub backup: Option<BackupSettings>,
    /// The language-model provider, its models by task type, and prices.
    pub llm: LlmSettings,
    /// The demo engine's executors and retries, SLA timers, the notification webhook.
    pub workflows: WorkflowSettings,
    /// The Temporal frontend, namespace, task queues and mTLS material (`--mode temporal`).
    pub temporal: TemporalSettings,
    /// The token budgets until an admin sets others (`[budgets]`).
    pub budgets: BudgetSettings,
}

/// How the accept loop treats connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionSettings {
    /// Open connections served normally; past it a small reserve answers only `/api/health`.
    pub max_connections: usize,
    /// From accepting a connection to the first complete request head.
    pub header_timeout: std::time::Duration,
    /// From a request's head to the end of its body.
    pub body_timeout: std::time::Duration,
    /// A keep-alive connection waiting for its next request head.
    pub idle_timeout: std::time::Duration,
}

/// The open-file limit's share given to connections when `max_connections` is not set.
pub fn default_max_connections() -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("Max open files"))?;
        line.split_whitespace().nth(3)?.parse::<usize>().ok()
    });
    // Leave room for the data file, the admin socket, logs and the health reserve.
    soft.map(|n| n.saturating_sub(128)).unwrap_or(1024).max(16)
}

/// Scheduled backups into a directory, with retention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSettings {
    pub dir: PathBuf,
    /// 6-field cron expression (seconds first), UTC.
    pub schedule: String,
    /// How many of the job's backups to keep (the newest).
    pub keep: usize,
}

/// Daily at 03:15 UTC.
pub const DEFAULT_BACKUP_SCHEDULE: &str = "0 15 3 * * *";
pub const DEFAULT_BACKUP_KEEP: usize = 7;

/// Job schedules; each a 6-field cron expression (seconds first), UTC.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Schedules {
    pub metrics_rollup: String,
    pub usage_rollup: String,
    pub cleanup: String,
    pub memory_compression: String,
    /// Saving the rate-limit windows to the data file (also done at shutdown).
    pub rate_limit_save: String,
    /// The simulated team's tick (demo mode with `demo_simulate`).
    pub demo_team: String,
}

impl Schedules {
    /// Each schedule with its setting name.
    pub fn named(&self) -> [(&'static str, &String); 6] {
        [
            ("metrics_rollup", &self.metrics_rollup),
            ("usage_rollup", &self.usage_rollup),
            ("cleanup", &self.cleanup),
            ("memory_compression", &self.memory_compression),
            ("rate_limit_save", &self.rate_limit_save),
            ("demo_team", &self.demo_team),
        ]
    }
}

impl Default for Schedules {
    fn default() -> Self {
        Self {
            metrics_rollup: "0 */5 * * * *".into(),
            usage_rollup: "0 0 * * * *".into(),
            cleanup: "0 30 3 * * *".into(),
            memory_compression: "0 15 * * * *".into(),
            rate_limit_save: "30 * * * * *".into(),
            demo_team: "0 */3 * * * *".into(),
        }
    }
}

/// Settings of the MCP endpoint at `/mcp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpSettings {
    /// `Host` values `/mcp` accepts (`name` or `name:port`); empty means the listen address's
    /// host plus `localhost`, `127.0.0.1` and `::1`.
    pub allowed_hosts: Vec<String>,
    /// Browser origins (`scheme://host:port`, `:*` for any port) allowed to call `/mcp`; empty
    /// means the allowed hosts on the bound port. Requests without `Origin` always pass.
    pub allowed_origins: Vec<String>,
    /// Tool calls per minute per credential (API key or workspace user).
    pub rate_limit: u64,
}

/// Fixed-window limits of the workspace routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// `/auth/*` requests per client IP per window.
    pub auth: u64,
    /// `/api/*` requests per user (per IP before login) per window.
    pub api: u64,
    pub window_secs: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// One layer of settings; every field optional so layers can be merged in order.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    pub listen: Option<String>,
    pub data: Option<PathBuf>,
    pub mode: Option<String>,
    pub log_format: Option<String>,
    pub log_level: Option<String>,
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    pub secure_cookies: Option<bool>,
    pub jwt_secret: Option<Secret>,
    pub metrics_token: Option<Secret>,
    pub argon2_memory_kib: Option<u32>,
    pub argon2_iterations: Option<u32>,
    pub enrich_rate_limit: Option<u64>,
    pub auth_rate_limit: Option<u64>,
    pub api_rate_limit: Option<u64>,
    pub rate_limit_window_secs: Option<u64>,
    pub trusted_proxies: Option<Vec<String>>,
    pub voice_publishable_key: Option<String>,
    pub schedules: Option<Schedules>,
    pub seed_demo_workspace: Option<bool>,
    pub demo_simulate: Option<bool>,
    pub mcp_allowed_hosts: Option<Vec<String>>,
    pub mcp_allowed_origins: Option<Vec<String>>,
    pub mcp_rate_limit: Option<u64>,
    pub max_connections: Option<usize>,
    pub header_timeout_secs: Option<u64>,
    pub body_timeout_secs: Option<u64>,
    pub idle_timeout_secs: Option<u64>,
    pub failed_auth_per_ip: Option<u64>,
    pub failed_auth_per_credential: Option<u64>,
    pub argon2_concurrency: Option<usize>,
    pub backup_dir: Option<PathBuf>,
    pub backup_schedule: Option<String>,
    pub backup_keep: Option<usize>,
    pub llm: Option<LlmLayer>,
    pub workflows: Option<WorkflowLayer>,
    pub temporal: Option<TemporalLayer>,
    pub budgets: Option<BudgetLayer>,
}

/// A 6-field cron expression (seconds first), as the scheduler reads it.
pub fn parse_cron(expr: &str) -> Option<croner::Cron> {
    if expr.split_whitespace().count() != 6 {
        return None;
    }
    croner::parser::CronParser::builder()
        .seconds(croner::parser::Seconds::Required)
        .dom_and_dow(true)
        .build()
        .parse(expr)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn later_layers_override_earlier_ones() {
        let file: Layer = toml::from_str("listen = \"127.0.0.1:4000\"\nlog_level = \"debug\"").unwrap_or_default();
        let from_env = Layer::from_env(env(&[("GTMS_LISTEN", "127.0.0.1:5000")])).unwrap_or_default();
        let flags = Layer { log_format: Some("json".into()), ..Layer::default() };
        let cfg = Layer::default().merge(file).merge(from_env).merge(flags).validate();
        let cfg = cfg.unwrap();
        assert_eq!(cfg.listen.port(), 5000);
        assert_eq!(cfg.log_level, "debug");
        assert_eq!(cfg.log_format, LogFormat::Json);
    }

    #[test]
    fn every_file_setting_survives_the_merge() {
        let text = r#"
            listen = "127.0.0.1:4001"
            argon2_memory_kib = 64
            argon2_iterations = 1
            enrich_rate_limit = 7
            auth_rate_limit = 8
            api_rate_limit = 9
            rate_limit_window_secs = 60
            trusted_proxies = ["10.0.0.1"]
            voice_publishable_key = "pk_x"
            seed_demo_workspace = false
            mcp_rate_limit = 11
            [schedules]
            cleanup = "0 0 4 * * *"
        "#;
        let file: Layer = toml::from_str(text).unwrap();
        let cfg = Layer::default().merge(file).merge(Layer::default()).validate().unwrap();
        assert_eq!(cfg.listen.port(), 4001);
        assert_eq!((cfg.hash_cost.memory_kib, cfg.hash_cost.iterations), (64, 1));
        assert_eq!(cfg.enrich_rate_limit, 7);
        assert_eq!((cfg.rate_limits.auth, cfg.rate_limits.api, cfg.rate_limits.window_secs), (8, 9, 60));
        assert_eq!(cfg.trusted_proxies.len(), 1);
        assert_eq!(cfg.voice_publishable_key.as_deref(), Some("pk_x"));
        assert!(!cfg.seed_demo_workspace);
        assert_eq!(cfg.mcp.rate_limit, 11);
        assert_eq!(cfg.schedules.cleanup, "0 0 4 * * *");
        assert_eq!(cfg.schedules.metrics_rollup, "0 */5 * * * *", "unset schedules keep their defaults");
    }

    #[test]
    fn unknown_file_keys_and_bad_values_are_refused() {
        assert!(toml::from_str::<Layer>("lisen = \"x\"").is_err());
        let bad = Layer { listen: Some("localhost:99999".into()), ..Layer::default() };
        assert!(bad.validate().is_err());
        let half_tls = Layer { tls_cert: Some("c.pem".into()), ..Layer::default() };
        assert!(half_tls.validate().is_err());
    }

    #[test]
    fn backups_are_scheduled_only_with_a_directory() {
        let none = Layer::default().validate().unwrap();
        assert_eq!(none.backup, None);
        let file: Layer = toml::from_str("backup_dir = \"/var/backups/gtms\"\nbackup_keep = 3").unwrap_or_default();
        let cfg = Layer::default().merge(file).validate().unwrap();
        let backup = cfg.backup.unwrap_or_else(|| panic!("scheduled"));
        assert_eq!((backup.keep, backup.schedule.as_str()), (3, DEFAULT_BACKUP_SCHEDULE));
        let from_env = Layer::from_env(env(&[("GTMS_BACKUP_DIR", "/b"), ("GTMS_BACKUP_SCHEDULE", "0 0 * * * *")]));
        let cfg = from_env.unwrap_or_default().validate().unwrap();
        assert_eq!(cfg.backup.map(|b| b.schedule), Some("0 0 * * * *".to_owned()));
        for bad in [
            Layer { backup_keep: Some(2), ..Layer::default() },
            Layer { backup_dir: Some("/b".into()), backup_keep: Some(0), ..Layer::default() },
            Layer { backup_dir: Some("/b".into()), backup_schedule: Some("daily".into()), ..Layer::default() },
        ] {
            assert!(bad.validate().is_err());
        }
        assert!(Layer::from_env(env(&[("GTMS_BACKUP_KEEP", "many")])).is_err());
    }

    #[test]
    fn secrets_never_print() {
        let layer = Layer { jwt_secret: Some(Secret::new("super-secret-value")), ..Layer::default() };
        assert!(!format!("{layer:?}").contains("super-secret-value"));
    }

    #[test]
    fn the_metrics_token_comes_from_the_env_never_prints_and_has_a_minimum_length() {
        let layer = Layer::from_env(env(&[("GTMS_METRICS_TOKEN", "scrape-0123456789abcdef")])).expect("layer");
        let config = layer.validate().expect("valid");
        assert_eq!(config.metrics_token.as_ref().map(Secret::expose), Some("scrape-0123456789abcdef"));
        assert!(!format!("{config:?}").contains("scrape-0123456789abcdef"));
        let short = Layer { metrics_token: Some(Secret::new("short")), ..Layer::default() };
        assert!(short.validate().is_err());
    }
}
