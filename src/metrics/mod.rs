//! The four metric views (pipeline, tokens, consumption, workers), computed from the store
//! by `rollup_all` (run by the scheduler) and stored with the time they were computed;
//! endpoints read the latest rollup and never compute on the request path.

mod consumption;
mod pipeline;
mod tokens;
mod workers;

use serde_json::Value;

pub use consumption::{AccountForecast, forecast_account};

use crate::store::{Rollup, Store, StoreError, WorkspaceData};

/// The views, by the name used in the URL and the rollup table.
pub const VIEWS: [&str; 4] = ["pipeline", "tokens", "consumption", "workers"];

fn money(cents: i64) -> f64 {
    cents as f64 / 100.0
}

fn usd_from_micros(micros: u64) -> f64 {
    (micros as f64 / 10_000.0).round() / 100.0
}

/// Computes one view from the workspace data.
pub fn compute(view: &str, data: &WorkspaceData) -> Option<Value> {
    Some(match view {
        "pipeline" => pipeline::view(data),
        "tokens" => tokens::view(data),
        "consumption" => consumption::view(data),
        "workers" => workers::view(data),
        _ => return None,
    })
}

/// Recomputes and stores every view; returns the time stamped on them.
pub async fn rollup_all(store: &Store, now: i64) -> Result<i64, StoreError> {
    let data = store.workspace().await?;
    for view in VIEWS {
        let json = compute(view, &data).unwrap_or(Value::Null).to_string();
        store.put_rollup(view, Rollup { computed_at: now, json }).await?;
    }
    Ok(now)
}

/// The latest rollup of `view` as `{computedAt, ...view}`, or `None` before the first rollup.
pub async fn latest(store: &Store, view: &str) -> Result<Option<Value>, StoreError> {
    let Some(rollup) = store.rollup(view).await? else { return Ok(None) };
    let mut value: Value = serde_json::from_str(&rollup.json).unwrap_or(Value::Null);
    let at = chrono::DateTime::from_timestamp(rollup.computed_at, 0)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default();
    if let Value::Object(map) = &mut value {
        map.insert("computedAt".into(), Value::String(at));
    }
    Ok(Some(value))
}
