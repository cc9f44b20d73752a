//! Metric rollups (the latest computed view per name, with when it was computed) and the
//! record of every scheduler job run.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::{JOB_RUNS, ROLLUPS};
use super::{Store, StoreError, codec};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rollup {
    /// Unix seconds.
    pub computed_at: i64,
    /// The view, as JSON text (views differ in shape; the endpoint returns it as is).
    pub json: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRun {
    pub job: String,
    /// Unix milliseconds.
    pub started_at_ms: i64,
    pub ended_at_ms: i64,
    pub ok: bool,
    pub error: Option<String>,
}

/// Runs kept per job; older ones are dropped by the cleanup job.
pub const JOB_RUNS_KEPT: usize = 100;

fn run_key(job: &str, started_at_ms: i64) -> String {
    format!("{job}/{started_at_ms:020}")
}

super::codec::unchanged_records!(Rollup, JobRun);

impl Store {
    pub async fn put_rollup(&self, name: &str, rollup: Rollup) -> Result<(), StoreError> {
        self.put_record(ROLLUPS, name.to_owned(), rollup).await
    }

    pub async fn rollup(&self, name: &str) -> Result<Option<Rollup>, StoreError> {
        self.get_record(ROLLUPS, name.to_owned()).await
    }

    pub async fn record_job_run(&self, run: JobRun) -> Result<(), StoreError> {
        self.put_record(JOB_RUNS, run_key(&run.job, run.started_at_ms), run).await
    }

    /// The newest run of `job`, if it ever ran.
    pub async fn last_job_run(&self, job: &str) -> Result<Option<JobRun>, StoreError> {
        let (from, to) = (format!("{job}/"), format!("{job}0"));
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(JOB_RUNS)?;
            let last = table.range(from.as_str()..to.as_str())?.next_back().transpose()?;
            Ok(match last {
                Some((_, v)) => Some(codec::decode(v.value())?),
                None => None,
            })
        })
        .await
    }

    /// Drops all but the newest `JOB_RUNS_KEPT` runs of `job`; returns how many were dropped.
    pub async fn prune_job_runs(&self, job: &str) -> Result<usize, StoreError> {
        let (from, to) = (format!("{job}/"), format!("{job}0"));
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let dropped = {
                let mut table = txn.open_table(JOB_RUNS)?;
                let keys: Vec<String> = table
                    .range(from.as_str()..to.as_str())?
                    .map(|e| e.map(|(k, _)| k.value().to_owned()))
                    .collect::<Result<_, _>>()?;
                let excess = keys.len().saturating_sub(JOB_RUNS_KEPT);
                for key in &keys[..excess] {
                    table.remove(key.as_str())?;
                }
                excess
            };
            txn.commit()?;
            Ok(dropped)
        })
        .await
    }
}
