//! The layers of configuration: a TOML file, `GTMS_*` variables and flags each fill a `Layer`;
//! `merge` lets a later layer override an earlier one, field by field (an exhaustive destructure,
//! so a new setting cannot be dropped).

use super::*;

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
        let workflows = match (self.workflows.clone(), other.workflows.clone()) {
            (Some(base), Some(over)) => Some(base.merge(over)),
            (base, over) => over.or(base),
        };
        let temporal = match (self.temporal.clone(), other.temporal.clone()) {
            (Some(base), Some(over)) => Some(base.merge(over)),
            (base, over) => over.or(base),
        };
        let budgets = match (self.budgets.clone(), other.budgets.clone()) {
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
            metrics_token,
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
            demo_simulate,
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
            workflows,
            temporal,
            budgets,
        );
        Layer { llm, workflows, temporal, budgets, ..merged }
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
            metrics_token: get("GTMS_METRICS_TOKEN").map(Secret::new),
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
            demo_simulate: match get("GTMS_DEMO_SIMULATE") {
                None => None,
                Some(v) => Some(parse_bool(&v).ok_or_else(|| invalid("GTMS_DEMO_SIMULATE", "expected true or false"))?),
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
            workflows: WorkflowLayer::from_env(&get)?,
            temporal: TemporalLayer::from_env(&get)?,
            budgets: super::BudgetLayer::from_env(&get)?,
        })
    }
}

pub(super) fn number<T: std::str::FromStr>(
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
    let (mc, rl, dt) =
        (get("GTMS_SCHEDULE_MEMORY_COMPRESSION"), get("GTMS_SCHEDULE_RATE_LIMIT_SAVE"), get("GTMS_SCHEDULE_DEMO_TEAM"));
    if m.is_none() && u.is_none() && c.is_none() && mc.is_none() && rl.is_none() && dt.is_none() {
        return None;
    }
    let d = Schedules::default();
    Some(Schedules {
        metrics_rollup: m.unwrap_or(d.metrics_rollup),
        usage_rollup: u.unwrap_or(d.usage_rollup),
        cleanup: c.unwrap_or(d.cleanup),
        memory_compression: mc.unwrap_or(d.memory_compression),
        rate_limit_save: rl.unwrap_or(d.rate_limit_save),
        demo_team: dt.unwrap_or(d.demo_team),
    })
}

fn comma_list(v: &str) -> Vec<String> {
    v.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()
}

pub(super) fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}
