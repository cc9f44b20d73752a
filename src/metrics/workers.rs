//! Workers view, from the run ledger: started, completed, failed, success rate, mean
//! duration, pending approvals (runs waiting at a gate), tokens and cost per worker.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{MetricsData, View, usd_from_micros};
use crate::store::{RunRecord, RunStatus, Tally};

/// One worker's runs, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunTally {
    pub started: u64,
    pub completed: u64,
    pub failed: u64,
    pub waiting: u64,
    /// Runs that ended, and their seconds in total.
    pub ended: u64,
    pub seconds: i64,
}

/// The run ledger folded: one tally per worker, whatever the number of runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunTallies(BTreeMap<String, RunTally>);

impl Tally<RunRecord> for RunTallies {
    fn add(&mut self, r: RunRecord) {
        let t = self.0.entry(r.worker).or_default();
        t.started += 1;
        match r.status {
            RunStatus::Completed => t.completed += 1,
            RunStatus::Failed => t.failed += 1,
            RunStatus::Waiting => t.waiting += 1,
            RunStatus::Running | RunStatus::Cancelled => {}
        }
        if let Some(ended) = r.ended_at {
            t.ended += 1;
            t.seconds += ended - r.started_at;
        }
    }
}

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

    fn compute(data: &MetricsData) -> Self {
        let mut tokens: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for (_, worker, _, sum) in data.tokens.iter() {
            let e = tokens.entry(worker).or_default();
            e.0 += sum.input + sum.output;
            e.1 += sum.micros;
        }
        let workers = data
            .workers
            .iter()
            .map(|w| {
                let runs = data.runs.0.get(&w.id).copied().unwrap_or_default();
                let mean = (runs.ended > 0).then(|| (runs.seconds as f64 / runs.ended as f64 * 10.0).round() / 10.0);
                let (completed, failed) = (runs.completed, runs.failed);
                let success = (completed + failed > 0)
                    .then(|| (completed as f64 / (completed + failed) as f64 * 10_000.0).round() / 10_000.0);
                let (tok, micros) = tokens.get(w.id.as_str()).copied().unwrap_or_default();
                WorkerMetrics {
                    worker: w.id.clone(),
                    name: w.name.clone(),
                    started: runs.started,
                    completed,
                    failed,
                    success_rate: success,
                    mean_duration_secs: mean,
                    pending_approvals: runs.waiting,
                    tokens: tok,
                    cost_usd: usd_from_micros(micros),
                }
            })
            .collect();
        WorkersView { workers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::TokenTallies;
    use crate::store::{TokenRecord, WorkerRecord};

    fn run(worker: &str, status: RunStatus, started_at: i64, ended_at: Option<i64>) -> RunRecord {
        let id = format!("{worker}-{started_at}");
        RunRecord { id, worker: worker.into(), workflow_type: "t".into(), started_at, ended_at, status }
    }

    fn worker(id: &str) -> WorkerRecord {
        WorkerRecord {
            id: id.into(),
            name: id.to_uppercase(),
            role: "r".into(),
            team: "t".into(),
            workflow_types: vec![],
        }
    }

    #[test]
    fn runs_fold_into_one_tally_per_worker_and_the_view_reads_it() {
        let mut runs = RunTallies::default();
        for r in [
            run("a", RunStatus::Completed, 0, Some(10)),
            run("a", RunStatus::Failed, 100, Some(121)),
            run("a", RunStatus::Waiting, 200, None),
            run("b", RunStatus::Running, 300, None),
            run("b", RunStatus::Cancelled, 400, Some(401)),
        ] {
            runs.add(r);
        }
        assert_eq!(runs.0.len(), 2, "one tally per worker, not one per run");
        let mut tokens = TokenTallies::default();
        for (input, micros) in [(100, 1_500_000), (50, 2_000_000)] {
            let (date, model) = ("2026-11-20".into(), "m".into());
            tokens.add(TokenRecord {
                date,
                worker: "a".into(),
                model,
                input_tokens: input,
                output_tokens: 5,
                cost_micros: micros,
            });
        }
        let data =
            MetricsData { workers: vec![worker("a"), worker("b"), worker("c")], runs, tokens, ..Default::default() };
        let view = WorkersView::compute(&data);
        let [a, b, c] = &view.workers[..] else { panic!("three workers: {view:?}") };
        assert_eq!((a.started, a.completed, a.failed, a.pending_approvals), (3, 1, 1, 1));
        assert_eq!((a.success_rate, a.mean_duration_secs), (Some(0.5), Some(15.5)));
        assert_eq!((a.tokens, a.cost_usd), (160, 3.5));
        assert_eq!((b.started, b.success_rate, b.mean_duration_secs), (2, None, Some(1.0)));
        assert_eq!((c.started, c.mean_duration_secs, c.tokens), (0, None, 0));
    }
}
