//! Workers view, from the run ledger: started, completed, failed, success rate, mean
//! duration, pending approvals (runs waiting at a gate), tokens and cost per worker.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{View, usd_from_micros};
use crate::store::{RunStatus, WorkspaceData};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkerMetrics {
    pub worker: String,
    pub name: String,
    pub started: u64,
    pub completed: u64,
    pub failed: u64,
    /// completed / (completed + failed), 4 decimals; null before any run ended.
    pub success_rate: Option<f64>,
    /// Mean seconds of the runs that ended, 1 decimal; null before any did.
    pub mean_duration_secs: Option<f64>,
    pub pending_approvals: u64,
    pub tokens: u64,
    pub cost_usd: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkersView {
    pub workers: Vec<WorkerMetrics>,
}

impl View for WorkersView {
    const NAME: &'static str = "workers";

    fn compute(data: &WorkspaceData) -> Self {
        let mut tokens: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for t in &data.tokens {
            let e = tokens.entry(&t.worker).or_default();
            e.0 += t.input_tokens + t.output_tokens;
            e.1 += t.cost_micros;
        }
        let workers = data
            .workers
            .iter()
            .map(|w| {
                let runs: Vec<_> = data.runs.iter().filter(|r| r.worker == w.id).collect();
                let count = |s: RunStatus| runs.iter().filter(|r| r.status == s).count() as u64;
                let (completed, failed) = (count(RunStatus::Completed), count(RunStatus::Failed));
                let durations: Vec<i64> = runs.iter().filter_map(|r| r.ended_at.map(|e| e - r.started_at)).collect();
                let mean = (!durations.is_empty())
                    .then(|| (durations.iter().sum::<i64>() as f64 / durations.len() as f64 * 10.0).round() / 10.0);
                let success = (completed + failed > 0)
                    .then(|| (completed as f64 / (completed + failed) as f64 * 10_000.0).round() / 10_000.0);
                let (tok, micros) = tokens.get(w.id.as_str()).copied().unwrap_or_default();
                WorkerMetrics {
                    worker: w.id.clone(),
                    name: w.name.clone(),
                    started: runs.len() as u64,
                    completed,
                    failed,
                    success_rate: success,
                    mean_duration_secs: mean,
                    pending_approvals: count(RunStatus::Waiting),
                    tokens: tok,
                    cost_usd: usd_from_micros(micros),
                }
            })
            .collect();
        WorkersView { workers }
    }
}
