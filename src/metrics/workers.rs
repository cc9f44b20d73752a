//! Workers view, from the run ledger: started, completed, failed, success rate, mean
//! duration, pending approvals (runs waiting at a gate), tokens and cost per worker.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::usd_from_micros;
use crate::store::{RunStatus, WorkspaceData};

pub fn view(data: &WorkspaceData) -> Value {
    let mut rows = Vec::new();
    let mut tokens: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for t in &data.tokens {
        let e = tokens.entry(&t.worker).or_default();
        e.0 += t.input_tokens + t.output_tokens;
        e.1 += t.cost_micros;
    }
    for w in &data.workers {
        let runs: Vec<_> = data.runs.iter().filter(|r| r.worker == w.id).collect();
        let count = |s: RunStatus| runs.iter().filter(|r| r.status == s).count();
        let (completed, failed) = (count(RunStatus::Completed), count(RunStatus::Failed));
        let durations: Vec<i64> = runs.iter().filter_map(|r| r.ended_at.map(|e| e - r.started_at)).collect();
        let mean = if durations.is_empty() {
            Value::Null
        } else {
            json!((durations.iter().sum::<i64>() as f64 / durations.len() as f64 * 10.0).round() / 10.0)
        };
        let success = if completed + failed == 0 {
            Value::Null
        } else {
            json!((completed as f64 / (completed + failed) as f64 * 10_000.0).round() / 10_000.0)
        };
        let (tok, micros) = tokens.get(w.id.as_str()).copied().unwrap_or_default();
        rows.push(json!({
            "worker": w.id,
            "name": w.name,
            "started": runs.len(),
            "completed": completed,
            "failed": failed,
            "successRate": success,
            "meanDurationSecs": mean,
            "pendingApprovals": count(RunStatus::Waiting),
            "tokens": tok,
            "costUsd": usd_from_micros(micros),
        }));
    }
    json!({ "workers": rows })
}
