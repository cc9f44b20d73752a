//! Runtime configuration: built-in defaults, then an optional TOML file, then `GTMS_*`
//! environment variables, then command-line flags, each layer overriding the one before.
//! Validated once at start-up; secrets are wrapped in `Secret`, which never prints.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::auth::secrets::HashCost;

mod llm;
pub use llm::{LlmLayer, LlmSettings, Price, Provider};

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
}

impl Default for Schedules {
    fn default() -> Self {
        Self {
            metrics_rollup: "0 */5 * * * *".into(),
            usage_rollup: "0 0 * * * *".into(),
            cleanup: "0 30 3 * * *".into(),
            memory_compression: "0 15 * * * *".into(),
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
}

/// Merges two layers field by field. The destructuring and the struct literal are both
/// exhaustive, so a new `Layer` field does not compile until it is listed here.
macro_rules! merge_layers {
    ($base:expr, $over:expr, $($f:ident),* $(,)?) => {{
        let Layer { $($f),* } = $over;
        let base = $base;
        Layer { $($f: $f.or(base.$f)),* }
    }};
}

impl Layer {
    /// Overrides this layer's fields with every field `other` sets.
    pub fn merge(self, other: Layer) -> Layer {
        let llm = match (self.llm.clone(), other.llm.clone()) {
            (Some(base), Some(over)) => Some(base.merge(over)),
            (base, over) => over.or(base),
        };
        let merged = merge_layers!(
            self,
            other,
            listen,
            data,
            mode,
            log_format,
            log_level,
            tls_cert,
            tls_key,
            secure_cookies,
            jwt_secret,
            argon2_memory_kib,
            argon2_iterations,
            enrich_rate_limit,
            auth_rate_limit,
            api_rate_limit,
            rate_limit_window_secs,
            trusted_proxies,
            voice_publishable_key,
            schedules,
            seed_demo_workspace,
            mcp_allowed_hosts,
            mcp_allowed_origins,
            mcp_rate_limit,
            max_connections,
            header_timeout_secs,
            body_timeout_secs,
            idle_timeout_secs,
            failed_auth_per_ip,
            failed_auth_per_credential,
            argon2_concurrency,
            backup_dir,
            backup_schedule,
            backup_keep,
            llm,
        );
        Layer { llm, ..merged }
    }

    pub fn from_file(path: &Path) -> Result<Layer, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::ReadFile { path: path.to_owned(), source })?;
        toml::from_str(&text)
            .map_err(|e| ConfigError::ParseFile { path: path.to_owned(), message: e.message().to_owned() })
    }

    /// Reads `GTMS_*` variables through `get` (the process environment in production).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Layer, ConfigError> {
        let path = |k: &str| get(k).map(PathBuf::from);
        let secure_cookies = match get("GTMS_SECURE_COOKIES") {
            None => None,
            Some(v) => Some(parse_bool(&v).ok_or_else(|| invalid("GTMS_SECURE_COOKIES", "expected true or false"))?),
        };
        Ok(Layer {
            listen: get("GTMS_LISTEN"),
            data: path("GTMS_DATA"),
            mode: get("GTMS_MODE"),
            log_format: get("GTMS_LOG_FORMAT"),
            log_level: get("GTMS_LOG"),
            tls_cert: path("GTMS_TLS_CERT"),
            tls_key: path("GTMS_TLS_KEY"),
            secure_cookies,
            jwt_secret: get("GTMS_JWT_SECRET").map(Secret::new),
            argon2_memory_kib: number(&get, "GTMS_ARGON2_MEMORY_KIB")?,
            argon2_iterations: number(&get, "GTMS_ARGON2_ITERATIONS")?,
            enrich_rate_limit: number(&get, "GTMS_ENRICH_RATE_LIMIT")?,
            auth_rate_limit: number(&get, "GTMS_AUTH_RATE_LIMIT")?,
            api_rate_limit: number(&get, "GTMS_API_RATE_LIMIT")?,
            rate_limit_window_secs: number(&get, "GTMS_RATE_LIMIT_WINDOW_SECS")?,
            trusted_proxies: get("GTMS_TRUSTED_PROXIES")
                .map(|v| v.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()),
            voice_publishable_key: get("GTMS_VOICE_PUBLISHABLE_KEY"),
            schedules: schedules_from_env(&get),
            seed_demo_workspace: match get("GTMS_SEED_DEMO_WORKSPACE") {
                None => None,
                Some(v) => {
                    Some(parse_bool(&v).ok_or_else(|| invalid("GTMS_SEED_DEMO_WORKSPACE", "expected true or false"))?)
                }
            },
            mcp_allowed_hosts: get("GTMS_MCP_ALLOWED_HOSTS").map(|v| comma_list(&v)),
            mcp_allowed_origins: get("GTMS_MCP_ALLOWED_ORIGINS").map(|v| comma_list(&v)),
            mcp_rate_limit: number(&get, "GTMS_MCP_RATE_LIMIT")?,
            max_connections: number(&get, "GTMS_MAX_CONNECTIONS")?,
            header_timeout_secs: number(&get, "GTMS_HEADER_TIMEOUT_SECS")?,
            body_timeout_secs: number(&get, "GTMS_BODY_TIMEOUT_SECS")?,
            idle_timeout_secs: number(&get, "GTMS_IDLE_TIMEOUT_SECS")?,
            failed_auth_per_ip: number(&get, "GTMS_FAILED_AUTH_PER_IP")?,
            failed_auth_per_credential: number(&get, "GTMS_FAILED_AUTH_PER_CREDENTIAL")?,
            argon2_concurrency: number(&get, "GTMS_ARGON2_CONCURRENCY")?,
            backup_dir: path("GTMS_BACKUP_DIR"),
            backup_schedule: get("GTMS_BACKUP_SCHEDULE"),
            backup_keep: number(&get, "GTMS_BACKUP_KEEP")?,
            llm: LlmLayer::from_env(&get)?,
        })
    }

    /// Turns the merged layers into a checked `Config`.
    pub fn validate(self) -> Result<Config, ConfigError> {
        let (connections, failed_auth, argon2_concurrency) = self.hardening()?;
        let listen = self.listen.as_deref().unwrap_or("127.0.0.1:3000");
        let listen: SocketAddr = listen.parse().map_err(|_| {
            invalid("listen address", format!("{listen:?} is not IP:PORT (for example 127.0.0.1:3000)"))
        })?;
        let data = self.data.unwrap_or_else(|| PathBuf::from("gtms.redb"));
        check_data_dir(&data)?;
        let mode = match self.mode.as_deref().unwrap_or("demo") {
            "demo" => Mode::Demo,
            "temporal" => Mode::Temporal,
            other => {
                return Err(invalid("mode", format!("{other:?} is not demo or temporal")));
            }
        };
        let log_format = match self.log_format.as_deref().unwrap_or("human") {
            "human" => LogFormat::Human,
            "json" => LogFormat::Json,
            other => {
                return Err(invalid("log format", format!("{other:?} is not human or json")));
            }
        };
        let tls = match (self.tls_cert, self.tls_key) {
            (None, None) => None,
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            _ => {
                return Err(invalid("TLS settings", "tls_cert and tls_key must be given together"));
            }
        };
        if let Some(secret) = &self.jwt_secret
            && secret.expose().len() < 32
        {
            return Err(invalid("jwt_secret", "must be at least 32 characters"));
        }
        let default_cost = HashCost::default();
        let hash_cost = HashCost {
            memory_kib: self.argon2_memory_kib.unwrap_or(default_cost.memory_kib),
            iterations: self.argon2_iterations.unwrap_or(default_cost.iterations),
        };
        if hash_cost.memory_kib < 8 || hash_cost.iterations < 1 {
            return Err(invalid(
                "argon2 cost",
                "argon2_memory_kib must be at least 8 and argon2_iterations at least 1",
            ));
        }
        let enrich_rate_limit = self.enrich_rate_limit.unwrap_or(600);
        if enrich_rate_limit == 0 {
            return Err(invalid("enrich_rate_limit", "must be at least 1 request per minute"));
        }
        let rate_limits = RateLimits {
            auth: self.auth_rate_limit.unwrap_or(10),
            api: self.api_rate_limit.unwrap_or(300),
            window_secs: self.rate_limit_window_secs.unwrap_or(15 * 60),
        };
        if rate_limits.auth == 0 || rate_limits.api == 0 || rate_limits.window_secs == 0 {
            return Err(invalid("rate limits", "limits and the window must be at least 1"));
        }
        let trusted_proxies = self
            .trusted_proxies
            .unwrap_or_default()
            .iter()
            .map(|p| p.parse().map_err(|_| invalid("trusted_proxies", format!("{p:?} is not an IP address"))))
            .collect::<Result<Vec<_>, _>>()?;
        let mcp = McpSettings {
            allowed_hosts: self.mcp_allowed_hosts.unwrap_or_default(),
            allowed_origins: self.mcp_allowed_origins.unwrap_or_default(),
            rate_limit: self.mcp_rate_limit.unwrap_or(600),
        };
        if mcp.rate_limit == 0 {
            return Err(invalid("mcp_rate_limit", "must be at least 1 tool call per minute"));
        }
        if let Some(bad) = mcp.allowed_origins.iter().find(|o| !o.contains("://") && o.as_str() != "null") {
            return Err(invalid(
                "mcp_allowed_origins",
                format!("{bad:?} needs a scheme, e.g. https://app.example.com:443"),
            ));
        }
        let schedules = self.schedules.unwrap_or_default();
        for (name, expr) in [
            ("metrics_rollup", &schedules.metrics_rollup),
            ("usage_rollup", &schedules.usage_rollup),
            ("cleanup", &schedules.cleanup),
            ("memory_compression", &schedules.memory_compression),
        ] {
            if parse_cron(expr).is_none() {
                return Err(invalid(
                    "schedule",
                    format!("{name} = {expr:?} is not a 6-field cron expression (seconds first)"),
                ));
            }
        }
        let backup = backup_settings(self.backup_dir, self.backup_schedule, self.backup_keep)?;
        let llm = self.llm.unwrap_or_default().validate()?;
        Ok(Config {
            llm,
            connections,
            failed_auth,
            argon2_concurrency,
            backup,
            schedules,
            seed_demo_workspace: self.seed_demo_workspace.unwrap_or(true),
            mcp,
            rate_limits,
            trusted_proxies,
            voice_publishable_key: self.voice_publishable_key,
            hash_cost,
            enrich_rate_limit,
            listen,
            data,
            mode,
            log_format,
            log_level: self.log_level.unwrap_or_else(|| "info".to_owned()),
            tls,
            secure_cookies: self.secure_cookies.unwrap_or(false),
            jwt_secret: self.jwt_secret,
        })
    }
}

impl Layer {
    /// The accept loop's connection settings and the argon2 guards.
    fn hardening(&self) -> Result<(ConnectionSettings, crate::auth::guard::AttemptLimits, usize), ConfigError> {
        let secs = |v: Option<u64>, default: u64, name: &'static str| match v.unwrap_or(default) {
            0 => Err(invalid(name, "must be at least 1 second")),
            n => Ok(std::time::Duration::from_secs(n)),
        };
        let connections = ConnectionSettings {
            max_connections: self.max_connections.unwrap_or_else(default_max_connections),
            header_timeout: secs(self.header_timeout_secs, 10, "header_timeout_secs")?,
            body_timeout: secs(self.body_timeout_secs, 30, "body_timeout_secs")?,
            idle_timeout: secs(self.idle_timeout_secs, 60, "idle_timeout_secs")?,
        };
        let failed_auth = crate::auth::guard::AttemptLimits {
            per_ip: self.failed_auth_per_ip.unwrap_or(30),
            per_credential: self.failed_auth_per_credential.unwrap_or(10),
            window_secs: self.rate_limit_window_secs.unwrap_or(15 * 60).max(1),
        };
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        let argon2_concurrency = self.argon2_concurrency.unwrap_or(cores);
        if connections.max_connections == 0
            || failed_auth.per_ip == 0
            || failed_auth.per_credential == 0
            || argon2_concurrency == 0
        {
            return Err(invalid(
                "hardening settings",
                "max_connections, failed_auth_* and argon2_concurrency must be at least 1",
            ));
        }
        Ok((connections, failed_auth, argon2_concurrency))
    }
}

fn backup_settings(
    dir: Option<PathBuf>,
    schedule: Option<String>,
    keep: Option<usize>,
) -> Result<Option<BackupSettings>, ConfigError> {
    let Some(dir) = dir else {
        if schedule.is_some() || keep.is_some() {
            return Err(invalid("backup settings", "backup_schedule and backup_keep need backup_dir"));
        }
        return Ok(None);
    };
    let schedule = schedule.unwrap_or_else(|| DEFAULT_BACKUP_SCHEDULE.to_owned());
    if parse_cron(&schedule).is_none() {
        return Err(invalid(
            "backup_schedule",
            format!("{schedule:?} is not a 6-field cron expression (seconds first)"),
        ));
    }
    let keep = keep.unwrap_or(DEFAULT_BACKUP_KEEP);
    if keep == 0 {
        return Err(invalid("backup_keep", "must keep at least 1 backup"));
    }
    Ok(Some(BackupSettings { dir, schedule, keep }))
}

fn number<T: std::str::FromStr>(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<T>, ConfigError> {
    match get(name) {
        None => Ok(None),
        Some(v) => v.trim().parse().map(Some).map_err(|_| invalid(name, format!("{v:?} is not a whole number"))),
    }
}

/// Each `GTMS_SCHEDULE_<JOB>` overrides one schedule; `None` when none is set.
fn schedules_from_env(get: &impl Fn(&str) -> Option<String>) -> Option<Schedules> {
    let (m, u, c) =
        (get("GTMS_SCHEDULE_METRICS_ROLLUP"), get("GTMS_SCHEDULE_USAGE_ROLLUP"), get("GTMS_SCHEDULE_CLEANUP"));
    let mc = get("GTMS_SCHEDULE_MEMORY_COMPRESSION");
    if m.is_none() && u.is_none() && c.is_none() && mc.is_none() {
        return None;
    }
    let d = Schedules::default();
    Some(Schedules {
        metrics_rollup: m.unwrap_or(d.metrics_rollup),
        usage_rollup: u.unwrap_or(d.usage_rollup),
        cleanup: c.unwrap_or(d.cleanup),
        memory_compression: mc.unwrap_or(d.memory_compression),
    })
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

fn comma_list(v: &str) -> Vec<String> {
    v.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The data file's directory must exist and accept new files (redb creates the file there).
fn check_data_dir(data: &Path) -> Result<(), ConfigError> {
    if data.is_dir() {
        return Err(invalid("data file", format!("{} is a directory, expected a file path", data.display())));
    }
    let dir = match data.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let probe = dir.join(format!(".gtms-write-probe-{}-{:016x}", std::process::id(), rand::random::<u64>()));
    std::fs::write(&probe, b"")
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| invalid("data directory", format!("{} is not writable: {e}", dir.display())))
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
        let cfg = cfg.unwrap_or_else(|e| panic!("{e}"));
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
        let file: Layer = toml::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let cfg = Layer::default().merge(file).merge(Layer::default()).validate().unwrap_or_else(|e| panic!("{e}"));
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
        let none = Layer::default().validate().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(none.backup, None);
        let file: Layer = toml::from_str("backup_dir = \"/var/backups/gtms\"\nbackup_keep = 3").unwrap_or_default();
        let cfg = Layer::default().merge(file).validate().unwrap_or_else(|e| panic!("{e}"));
        let backup = cfg.backup.unwrap_or_else(|| panic!("scheduled"));
        assert_eq!((backup.keep, backup.schedule.as_str()), (3, DEFAULT_BACKUP_SCHEDULE));
        let from_env = Layer::from_env(env(&[("GTMS_BACKUP_DIR", "/b"), ("GTMS_BACKUP_SCHEDULE", "0 0 * * * *")]));
        let cfg = from_env.unwrap_or_default().validate().unwrap_or_else(|e| panic!("{e}"));
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
}
