//! `Layer::validate`: the merged layer becomes a `Config`, every value checked, with an error
//! that names the setting.

use super::*;

impl Layer {
    /// Turns the merged layers into a checked `Config`, one setting group at a time.
    pub fn validate(self) -> Result<Config, ConfigError> {
        let (connections, failed_auth, argon2_concurrency) = self.hardening()?;
        let server = self.server()?;
        let hash_cost = self.credentials()?;
        let (enrich_rate_limit, rate_limits) = self.rate_limits()?;
        let trusted_proxies = self.trusted_proxies()?;
        let mcp = self.mcp()?;
        let schedules = self.schedules()?;
        let backup = backup_settings(self.backup_dir, self.backup_schedule, self.backup_keep)?;
        let llm = self.llm.unwrap_or_default().validate()?;
        let workflows = self.workflows.unwrap_or_default().validate()?;
        let temporal = self.temporal.unwrap_or_default().validate()?;
        let budgets = self.budgets.unwrap_or_default().validate()?;
        if server.mode == Mode::Temporal && temporal.address.is_none() {
            return Err(invalid(
                "temporal address",
                "--mode temporal needs GTMS_TEMPORAL_ADDRESS (or [temporal] address)",
            ));
        }
        let seed_demo_workspace = self.seed_demo_workspace.unwrap_or(true);
        let simulate_team = match (server.mode, self.demo_simulate) {
            (Mode::Temporal, Some(true)) => {
                return Err(invalid("demo_simulate", "the simulated team runs in demo mode only, never on Temporal"));
            }
            (Mode::Temporal, _) => false,
            (Mode::Demo, asked) => asked.unwrap_or(seed_demo_workspace),
        };
        Ok(Config {
            temporal,
            budgets,
            llm,
            workflows,
            connections,
            failed_auth,
            argon2_concurrency,
            backup,
            schedules,
            seed_demo_workspace,
            simulate_team,
            mcp,
            rate_limits,
            trusted_proxies,
            voice_publishable_key: self.voice_publishable_key,
            hash_cost,
            enrich_rate_limit,
            listen: server.listen,
            data: self.data.unwrap_or_else(|| PathBuf::from("gtms.redb")),
            mode: server.mode,
            log_format: server.log_format,
            log_level: self.log_level.unwrap_or_else(|| "info".to_owned()),
            tls: server.tls,
            secure_cookies: self.secure_cookies.unwrap_or(false),
            jwt_secret: self.jwt_secret,
            metrics_token: self.metrics_token,
        })
    }

    /// Where and how the server listens and logs.
    fn server(&self) -> Result<ServerSettings, ConfigError> {
        let listen = self.listen.as_deref().unwrap_or("127.0.0.1:3000");
        let listen: SocketAddr = listen.parse().map_err(|_| {
            invalid("listen address", format!("{listen:?} is not IP:PORT (for example 127.0.0.1:3000)"))
        })?;
        let mode = match self.mode.as_deref().unwrap_or("demo") {
            "demo" => Mode::Demo,
            "temporal" => Mode::Temporal,
            other => return Err(invalid("mode", format!("{other:?} is not demo or temporal"))),
        };
        let log_format = match self.log_format.as_deref().unwrap_or("human") {
            "human" => LogFormat::Human,
            "json" => LogFormat::Json,
            other => return Err(invalid("log format", format!("{other:?} is not human or json"))),
        };
        let tls = match (&self.tls_cert, &self.tls_key) {
            (None, None) => None,
            (Some(cert), Some(key)) => Some(TlsFiles { cert: cert.clone(), key: key.clone() }),
            _ => return Err(invalid("TLS settings", "tls_cert and tls_key must be given together")),
        };
        Ok(ServerSettings { listen, mode, log_format, tls })
    }

    /// The JWT secret's length and the argon2 cost.
    fn credentials(&self) -> Result<HashCost, ConfigError> {
        if let Some(secret) = &self.jwt_secret
            && secret.expose().len() < 32
        {
            return Err(invalid("jwt_secret", "must be at least 32 characters"));
        }
        if let Some(token) = &self.metrics_token
            && token.expose().len() < 16
        {
            return Err(invalid("metrics_token", "must be at least 16 characters"));
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
        Ok(hash_cost)
    }

    /// The enrich per-key limit and the workspace's fixed windows.
    fn rate_limits(&self) -> Result<(u64, RateLimits), ConfigError> {
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
        Ok((enrich_rate_limit, rate_limits))
    }

    fn trusted_proxies(&self) -> Result<Vec<std::net::IpAddr>, ConfigError> {
        let proxies = self.trusted_proxies.as_deref().unwrap_or_default();
        proxies
            .iter()
            .map(|p| p.parse().map_err(|_| invalid("trusted_proxies", format!("{p:?} is not an IP address"))))
            .collect()
    }

    /// The `/mcp` hosts, origins and tool-call limit.
    fn mcp(&self) -> Result<McpSettings, ConfigError> {
        let mcp = McpSettings {
            allowed_hosts: self.mcp_allowed_hosts.clone().unwrap_or_default(),
            allowed_origins: self.mcp_allowed_origins.clone().unwrap_or_default(),
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
        Ok(mcp)
    }

    /// Every job schedule is a 6-field cron expression.
    fn schedules(&self) -> Result<Schedules, ConfigError> {
        let schedules = self.schedules.clone().unwrap_or_default();
        for (name, expr) in schedules.named() {
            if parse_cron(expr).is_none() {
                return Err(invalid(
                    "schedule",
                    format!("{name} = {expr:?} is not a 6-field cron expression (seconds first)"),
                ));
            }
        }
        Ok(schedules)
    }
}

/// The server group of settings, checked.
struct ServerSettings {
    listen: SocketAddr,
    mode: Mode,
    log_format: LogFormat,
    tls: Option<TlsFiles>,
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

/// Start-up check (not part of `validate`, which stays pure): the data path is not a directory
/// and its directory is writable (a probe file is created and removed).
pub fn check_data_dir(data: &Path) -> Result<(), ConfigError> {
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
