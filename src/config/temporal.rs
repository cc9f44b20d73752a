//! The `[temporal]` settings (file) and `GTMS_TEMPORAL_*` (environment): where the Temporal
//! frontend is, the namespace, the two task queues, and the mutual-TLS material (PEM paths).
//! Only `--mode temporal` and `gtms worker` read them; there the address is required.

use std::path::PathBuf;

use serde::Deserialize;

use super::layer::parse_bool;
use super::{ConfigError, invalid};

/// The validated Temporal settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemporalSettings {
    /// `host:port` of the frontend (or of the TLS proxy in front of it).
    pub address: Option<String>,
    pub namespace: String,
    /// The appliance's queue: workflows and the activities that touch its redb.
    pub task_queue: String,
    /// The queue of activities that only call models or read company data; served by the
    /// appliance and by any number of `gtms worker` processes.
    pub compute_task_queue: String,
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    pub tls_ca: Option<PathBuf>,
    /// The name the server certificate must carry (default: the address's host).
    pub tls_server_name: Option<String>,
    /// Whether the appliance serves the compute queue itself (off when `gtms worker`
    /// processes on other machines take every model call).
    pub serve_compute: bool,
    /// On SIGTERM a worker stops polling and lets its running activities finish for this long;
    /// then it cancels what is left and exits.
    pub shutdown_grace_secs: u64,
}

/// One layer of `[temporal]`; every field optional so layers merge field by field.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemporalLayer {
    pub address: Option<String>,
    pub namespace: Option<String>,
    pub task_queue: Option<String>,
    pub compute_task_queue: Option<String>,
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    pub tls_ca: Option<PathBuf>,
    pub tls_server_name: Option<String>,
    pub serve_compute: Option<bool>,
    pub shutdown_grace_secs: Option<u64>,
}

macro_rules! or_fields {
    ($base:expr, $over:expr, $($f:ident),*) => {{
        let TemporalLayer { $($f),* } = $over;
        let base = $base;
        TemporalLayer { $($f: $f.or(base.$f)),* }
    }};
}

impl TemporalLayer {
    pub fn merge(self, over: TemporalLayer) -> TemporalLayer {
        or_fields!(
            self,
            over,
            address,
            namespace,
            task_queue,
            compute_task_queue,
            tls_cert,
            tls_key,
            tls_ca,
            tls_server_name,
            serve_compute,
            shutdown_grace_secs
        )
    }

    /// The environment's layer; `None` when it sets nothing.
    pub fn from_env(get: &impl Fn(&str) -> Option<String>) -> Result<Option<TemporalLayer>, ConfigError> {
        let serve_compute = match get("GTMS_TEMPORAL_SERVE_COMPUTE") {
            None => None,
            Some(v) => {
                Some(parse_bool(&v).ok_or_else(|| invalid("GTMS_TEMPORAL_SERVE_COMPUTE", "expected true or false"))?)
            }
        };
        let layer = TemporalLayer {
            address: get("GTMS_TEMPORAL_ADDRESS"),
            namespace: get("GTMS_TEMPORAL_NAMESPACE"),
            task_queue: get("GTMS_TEMPORAL_TASK_QUEUE"),
            compute_task_queue: get("GTMS_TEMPORAL_COMPUTE_TASK_QUEUE"),
            tls_cert: get("GTMS_TEMPORAL_TLS_CERT").map(PathBuf::from),
            tls_key: get("GTMS_TEMPORAL_TLS_KEY").map(PathBuf::from),
            tls_ca: get("GTMS_TEMPORAL_TLS_CA").map(PathBuf::from),
            tls_server_name: get("GTMS_TEMPORAL_TLS_SERVER_NAME"),
            serve_compute,
            shutdown_grace_secs: super::layer::number(get, "GTMS_TEMPORAL_SHUTDOWN_GRACE_SECS")?,
        };
        Ok((layer != TemporalLayer::default()).then_some(layer))
    }

    pub fn validate(self) -> Result<TemporalSettings, ConfigError> {
        let namespace = self.namespace.unwrap_or_else(|| "default".to_owned());
        let task_queue = self.task_queue.unwrap_or_else(|| "gtms".to_owned());
        let compute_task_queue = self.compute_task_queue.unwrap_or_else(|| format!("{task_queue}-compute"));
        for (name, value) in [
            ("temporal namespace", &namespace),
            ("temporal task_queue", &task_queue),
            ("temporal compute_task_queue", &compute_task_queue),
        ] {
            if value.is_empty() || value.len() > 200 || value.chars().any(|c| c.is_whitespace() || c == '\'') {
                return Err(invalid(name, "must be 1 to 200 characters, no spaces or quotes"));
            }
        }
        if task_queue == compute_task_queue {
            return Err(invalid("temporal compute_task_queue", "must differ from task_queue"));
        }
        if let Some(address) = &self.address
            && address.rsplit_once(':').is_none_or(|(host, port)| host.is_empty() || port.parse::<u16>().is_err())
        {
            return Err(invalid("temporal address", format!("{address:?} is not HOST:PORT")));
        }
        let shutdown_grace_secs = self.shutdown_grace_secs.unwrap_or(30);
        if !(1..=3600).contains(&shutdown_grace_secs) {
            return Err(invalid("temporal shutdown_grace_secs", "must be 1 to 3600 seconds"));
        }
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            return Err(invalid(
                "temporal tls_cert/tls_key",
                "give both the client certificate and its key, or neither",
            ));
        }
        Ok(TemporalSettings {
            address: self.address,
            namespace,
            task_queue,
            compute_task_queue,
            tls_cert: self.tls_cert,
            tls_key: self.tls_key,
            tls_ca: self.tls_ca,
            tls_server_name: self.tls_server_name,
            serve_compute: self.serve_compute.unwrap_or(true),
            shutdown_grace_secs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_env_and_bad_values() {
        let s = TemporalLayer::default().validate().unwrap();
        assert_eq!((s.namespace.as_str(), s.task_queue.as_str()), ("default", "gtms"));
        assert_eq!(s.compute_task_queue, "gtms-compute");
        let env = |k: &str| match k {
            "GTMS_TEMPORAL_ADDRESS" => Some("temporal.internal:7233".to_owned()),
            "GTMS_TEMPORAL_TASK_QUEUE" => Some("acme".to_owned()),
            _ => None,
        };
        let layer = TemporalLayer::from_env(&env).unwrap().unwrap_or_default();
        let s = layer.validate().unwrap();
        assert!(s.serve_compute);
        assert_eq!(s.shutdown_grace_secs, 30);
        assert_eq!(s.address.as_deref(), Some("temporal.internal:7233"));
        assert_eq!(s.compute_task_queue, "acme-compute");
        assert!(TemporalLayer::from_env(&|_: &str| None).unwrap_or_default().is_none());
        let off = |k: &str| (k == "GTMS_TEMPORAL_SERVE_COMPUTE").then(|| "false".to_owned());
        assert_eq!(TemporalLayer::from_env(&off).ok().flatten().and_then(|l| l.serve_compute), Some(false));
        assert!(
            TemporalLayer::from_env(&|k: &str| (k == "GTMS_TEMPORAL_SERVE_COMPUTE").then(|| "maybe".into())).is_err()
        );
        for bad in [
            TemporalLayer { address: Some("no-port".into()), ..Default::default() },
            TemporalLayer { address: Some(":7233".into()), ..Default::default() },
            TemporalLayer { tls_cert: Some("c.pem".into()), ..Default::default() },
            TemporalLayer { task_queue: Some("a b".into()), ..Default::default() },
            TemporalLayer { task_queue: Some("q".into()), compute_task_queue: Some("q".into()), ..Default::default() },
            TemporalLayer { shutdown_grace_secs: Some(0), ..Default::default() },
        ] {
            assert!(bad.clone().validate().is_err(), "{bad:?}");
        }
    }
}
