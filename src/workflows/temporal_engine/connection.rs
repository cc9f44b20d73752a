//! Reaching the Temporal frontend over mutual TLS: connection options from `[temporal]`
//! (PEM files read once at start-up), a connect loop with exponential backoff, and a probe that
//! keeps `/api/health`'s `temporal: connected|disconnected` true. The gRPC channel reconnects
//! by itself once the cluster is back; the probe only observes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use temporalio_client::{Client, ClientOptions, ClientTlsOptions, ConnectionOptions, TlsOptions};
use tokio_util::sync::CancellationToken;

use crate::config::TemporalSettings;

/// Why the engine could not be set up (bad settings or unreadable certificates).
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("temporal: {0}")]
    Settings(String),
}

/// Connection options, certificates included (read now: a missing file is a start-up error).
pub fn options(settings: &TemporalSettings) -> Result<ConnectionOptions, SetupError> {
    let address = settings.address.as_deref().ok_or_else(|| SetupError::Settings("no address configured".into()))?;
    let tls = settings.tls_ca.is_some() || settings.tls_cert.is_some();
    let scheme = if tls { "https" } else { "http" };
    let url = temporalio_client::Url::parse(&format!("{scheme}://{address}"))
        .map_err(|e| SetupError::Settings(format!("address {address:?}: {e}")))?;
    let read = |path: &std::path::Path| {
        std::fs::read(path).map_err(|e| SetupError::Settings(format!("cannot read {}: {e}", path.display())))
    };
    let tls_options = if tls {
        let client_tls_options = match (&settings.tls_cert, &settings.tls_key) {
            (Some(cert), Some(key)) => {
                Some(ClientTlsOptions::builder().client_cert(read(cert)?).client_private_key(read(key)?).build())
            }
            _ => None,
        };
        let mut options = TlsOptions::default();
        options.server_root_ca_cert = settings.tls_ca.as_deref().map(read).transpose()?;
        options.domain = settings.tls_server_name.clone();
        options.client_tls_options = client_tls_options;
        Some(options)
    } else {
        None
    };
    let mut options = ConnectionOptions::new(url).identity(identity()).build();
    options.tls_options = tls_options;
    options.connect_timeout = Some(Duration::from_secs(5));
    Ok(options)
}

fn identity() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    format!("{}@{} gtms {}", std::process::id(), host.trim(), env!("CARGO_PKG_VERSION"))
}

/// Connects, retrying with exponential backoff (1 s doubling to 30 s) until it succeeds or
/// `shutdown` fires.
pub async fn connect(options: ConnectionOptions, namespace: &str, shutdown: &CancellationToken) -> Option<Client> {
    let mut backoff = Duration::from_secs(1);
    loop {
        match gtms_temporal_calls::connect(options.clone()).await {
            Ok(connection) => match Client::new(connection, ClientOptions::new(namespace.to_owned()).build()) {
                Ok(client) => return Some(client),
                Err(e) => tracing::warn!(error = %e, "temporal: the client could not be built"),
            },
            Err(e) => tracing::warn!(error = %e, retry_in_secs = backoff.as_secs(), "temporal: cannot connect"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => return None,
            _ = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

/// Whether the cluster answered the latest probe.
#[derive(Clone, Default)]
pub struct Health(Arc<AtomicBool>);

impl Health {
    pub fn connected(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub fn set(&self, up: bool) {
        if self.0.swap(up, Ordering::Relaxed) != up {
            if up {
                tracing::info!("temporal: connected");
            } else {
                tracing::warn!("temporal: disconnected");
            }
        }
    }

    /// Probes the frontend every second (a `GetSystemInfo` call bounded by 3 s) until shutdown.
    pub async fn watch(self, client: Client, shutdown: CancellationToken) {
        loop {
            let probe = gtms_temporal_calls::system_info(client.connection().clone());
            let up = matches!(tokio::time::timeout(Duration::from_secs(3), probe).await, Ok(Ok(_)));
            self.set(up);
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
        }
    }
}
