//! The demo workspace: the 8 workers (`seed/workers.json`) and the generated deals, accounts,
//! run and token history (`seed/demo-workspace.json`, made by `gtms demo-generate`), both
//! embedded in the binary and loaded into redb on the first start only; and the simulated
//! team that keeps it at work in demo mode (`simulate`).

mod generate;
mod rng;
pub mod simulate;

use std::path::Path;

pub use generate::{ANCHOR, generate};

use crate::companies::directory::Directory;
use crate::store::{Store, StoreError, WorkerRecord, WorkspaceData};

const WORKERS_JSON: &str = include_str!("../../seed/workers.json");
const WORKSPACE_JSON: &str = include_str!("../../seed/demo-workspace.json");

pub fn workers() -> Result<Vec<WorkerRecord>, serde_json::Error> {
    serde_json::from_str(WORKERS_JSON)
}

/// The embedded demo workspace.
pub fn embedded() -> Result<WorkspaceData, serde_json::Error> {
    serde_json::from_str(WORKSPACE_JSON)
}

/// Seeds the store with the embedded workspace unless it was seeded before (then the embedded
/// JSON is not even parsed: every start but the first skips it).
pub async fn seed_once(store: &Store) -> Result<bool, DemoError> {
    if store.workspace_seeded().await.map_err(DemoError::Store)? {
        return Ok(false);
    }
    store.seed_workspace_once(embedded()?).await.map_err(DemoError::Store)
}

/// Writes `seed/demo-workspace.json` (pretty, one deterministic rendering).
pub fn write_generated(dir: &Directory, out: &Path) -> Result<usize, DemoError> {
    let data = generate(workers()?, dir);
    let mut text = serde_json::to_string_pretty(&data)?;
    text.push('\n');
    std::fs::write(out, text).map_err(DemoError::Io)?;
    Ok(data.deals.len())
}

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("demo workspace JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Store(StoreError),
    #[error("writing the demo workspace: {0}")]
    Io(std::io::Error),
}
