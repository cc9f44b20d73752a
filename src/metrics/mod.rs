//! The four metric views (pipeline, tokens, consumption, workers), each a typed `View`
//! computed from the store by `rollup_all` (run by the scheduler) and stored with the time it
//! was computed; endpoints and tools read the latest rollup (`latest`) and never compute on the
//! request path.

mod consumption;
mod pipeline;
mod tokens;
mod workers;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use consumption::{AccountConsumption, AccountForecast, ConsumptionView, forecast_account};
pub use pipeline::{PipelineView, StageCounts};
pub use tokens::{DayTokens, ModelTokens, TokenTallies, TokenUse, TokenView, WorkerTokens};
pub use workers::{RunTallies, WorkerMetrics, WorkersView};

use crate::store::{Rollup, Store, StoreError, WorkspaceTallies};

/// What the views are computed from: the workspace with its run and token ledgers folded as
/// they are read, so a rollup's memory stays flat however long the ledgers grow.
pub type MetricsData = WorkspaceTallies<RunTallies, TokenTallies>;

/// A metric view: its name (in the URL and the rollup table) and how it is computed.
pub trait View: Serialize + DeserializeOwned + schemars::JsonSchema + Send + 'static {
    const NAME: &'static str;
    fn compute(data: &MetricsData) -> Self;
}

/// The view names, in the order `rollup_all` computes them.
pub const VIEWS: [&str; 4] = [PipelineView::NAME, TokenView::NAME, ConsumptionView::NAME, WorkersView::NAME];

/// A stored view with the time it was computed (RFC 3339, UTC).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Latest<V> {
    #[serde(flatten)]
    pub view: V,
    pub computed_at: String,
}

/// `GET /api/metrics/tokens` and the `metrics_tokens` tool: the latest tokens rollup, and every
/// budget with what was spent against it (read when asked, not rolled up: a budget is held to
/// the spend of now).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TokensReply {
    #[serde(flatten)]
    pub latest: Latest<TokenView>,
    pub budgets: Vec<crate::budgets::BudgetView>,
}

fn money(cents: i64) -> f64 {
    cents as f64 / 100.0
}

fn usd_from_micros(micros: u64) -> f64 {
    (micros as f64 / 10_000.0).round() / 100.0
}

#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    #[error("the {0} rollup has not been computed yet")]
    NotComputed(&'static str),
    #[error("the stored {view} rollup does not decode")]
    Corrupt {
        view: &'static str,
        #[source]
        source: serde_json::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl crate::error::ServiceError for MetricsError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            MetricsError::NotComputed(_) => crate::error::ErrorKind::Unavailable,
            MetricsError::Corrupt { .. } => crate::error::ErrorKind::Internal,
            MetricsError::Store(e) => e.kind(),
        }
    }
}

fn stored<V: View>(data: &MetricsData, now: i64) -> Result<Rollup, serde_json::Error> {
    Ok(Rollup { computed_at: now, json: serde_json::to_string(&V::compute(data))? })
}

/// Recomputes and stores every view; returns the time stamped on them.
pub async fn rollup_all(store: &Store, now: i64) -> Result<i64, MetricsError> {
    let data = store.workspace_folded(RunTallies::default(), TokenTallies::default()).await?;
    let rollups = [
        (PipelineView::NAME, stored::<PipelineView>(&data, now)),
        (TokenView::NAME, stored::<TokenView>(&data, now)),
        (ConsumptionView::NAME, stored::<ConsumptionView>(&data, now)),
        (WorkersView::NAME, stored::<WorkersView>(&data, now)),
    ];
    for (view, rollup) in rollups {
        let rollup = rollup.map_err(|source| MetricsError::Corrupt { view, source })?;
        store.put_rollup(view, rollup).await?;
    }
    Ok(now)
}

/// The latest rollup of `V`.
pub async fn latest<V: View>(store: &Store) -> Result<Latest<V>, MetricsError> {
    let rollup = store.rollup(V::NAME).await?.ok_or(MetricsError::NotComputed(V::NAME))?;
    let view = serde_json::from_str(&rollup.json).map_err(|source| MetricsError::Corrupt { view: V::NAME, source })?;
    let computed_at = chrono::DateTime::from_timestamp(rollup.computed_at, 0)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default();
    Ok(Latest { view, computed_at })
}
