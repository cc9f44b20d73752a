//! `AppState`: what every face (HTTP, admin channel, later MCP) shares — the configuration,
//! the store and the start time — and the health report they all give.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::companies::assets::AssetTable;
use crate::config::{Config, Mode};
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
    pub fn new(config: Config, store: Store) -> Self {
        Self {
            inner: Arc::new(Inner { config, store, assets: Arc::new(AssetTable::embedded()), started: Instant::now() }),
        }
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
