//! `AppState`: what every face (HTTP, admin channel, later MCP) shares — the configuration,
//! the store and the start time — and the health report they all give.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::auth::keys::ApiKeys;
use crate::auth::secrets::Hasher;
use crate::companies::assets::AssetTable;
use crate::companies::directory::{Directory, DirectoryError};
use crate::config::{Config, Mode};
use crate::limits::FixedWindow;
use crate::store::Store;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    store: Store,
    assets: Arc<AssetTable>,
    directory: Arc<Directory>,
    api_keys: ApiKeys,
    enrich_limiter: FixedWindow,
    started: Instant,
}

/// The `GET /api/health` shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Health {
    pub status: String,
    pub temporal: String,
    pub mode: String,
    /// Whole seconds since the server started.
    pub uptime: u64,
    pub version: String,
}

impl AppState {
    /// Builds the shared state; fails only if the embedded company data is unreadable.
    pub fn new(config: Config, store: Store) -> Result<Self, DirectoryError> {
        let assets = Arc::new(AssetTable::embedded());
        let registry = crate::companies::assets::registry_json().unwrap_or_default();
        let directory = Arc::new(Directory::build(&registry, &assets)?);
        let api_keys = ApiKeys::new(store.clone(), Hasher::new(config.hash_cost));
        let enrich_limiter = FixedWindow::new(config.enrich_rate_limit, 60);
        let inner = Inner { config, store, assets, directory, api_keys, enrich_limiter, started: Instant::now() };
        Ok(Self { inner: Arc::new(inner) })
    }

    /// Every tracked company, for lookups.
    pub fn directory(&self) -> &Arc<Directory> {
        &self.inner.directory
    }

    pub fn api_keys(&self) -> &ApiKeys {
        &self.inner.api_keys
    }

    /// Per-key requests-per-minute limiter of `/v1/enrich`.
    pub fn enrich_limiter(&self) -> &FixedWindow {
        &self.inner.enrich_limiter
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The embedded keyless company files.
    pub fn assets(&self) -> &Arc<AssetTable> {
        &self.inner.assets
    }

    pub fn uptime_secs(&self) -> u64 {
        self.inner.started.elapsed().as_secs()
    }

    pub fn health(&self) -> Health {
        let temporal = match self.inner.config.mode {
            Mode::Demo => "disabled",
            // Engine mode reports its live connection once the Temporal engine lands.
            Mode::Temporal => "disconnected",
        };
        Health {
            status: "healthy".into(),
            temporal: temporal.into(),
            mode: self.inner.config.mode.as_str().into(),
            uptime: self.uptime_secs(),
            version: VERSION.into(),
        }
    }
}
