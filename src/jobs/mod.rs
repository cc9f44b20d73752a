//! The in-process scheduler (tokio-cron-scheduler): metric rollups, usage rollups and the
//! daily cleanup. Every run is recorded (start, end, outcome, error) in redb; a failing or
//! panicking job is logged and recorded and never stops the others or the server. A job
//! still running when its next tick comes is skipped, not run twice. Each job's `run_once`
//! is what the scheduler calls, so tests drive exactly the scheduled code. A job captures what
//! it touches (store, limiters, model, clock) when its spec is built from the state
//! (`specs::all`); the scheduler itself only holds the store it records runs in.

mod specs;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use tokio::sync::broadcast;
use tokio_cron_scheduler::{Job, JobScheduler, JobSchedulerError};

pub use specs::{
    all, cleanup, memory_compression, metrics_rollup, rate_limit_save, scheduled_backup, standard, usage_rollup,
};

use crate::config::parse_cron;
use crate::domain::rfc3339_ms;
use crate::state::AppState;
use crate::store::{JobRun, Store};

/// A job's error: any error (its cause chain is recorded), or a sentence.
pub type JobError = Box<dyn std::error::Error + Send + Sync>;
/// What a run of a job did (a short summary), or why it failed.
pub type JobResult = Result<String, JobError>;
pub type JobFuture = Pin<Box<dyn Future<Output = JobResult> + Send>>;
/// The work of a job, with its dependencies captured when the spec was built.
pub type JobFn = Arc<dyn Fn() -> JobFuture + Send + Sync>;

/// One scheduled job: a name, a cron schedule and the work.
#[derive(Clone)]
pub struct JobSpec {
    pub name: String,
    pub schedule: String,
    pub run: JobFn,
}

impl JobSpec {
    pub fn new<F, Fut>(name: &str, schedule: &str, run: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = JobResult> + Send + 'static,
    {
        Self { name: name.to_owned(), schedule: schedule.to_owned(), run: Arc::new(move || Box::pin(run())) }
    }
}

/// Runs a job once and records the run in `store`. A panic inside the job is caught and recorded.
pub async fn run_once(store: &Store, spec: &JobSpec) -> JobRun {
    let started_at_ms = store.now_ms();
    let work = tokio::spawn((spec.run)());
    let outcome = match work.await {
        Ok(result) => result.map_err(|e| crate::error::chain(e.as_ref())),
        Err(e) => Err(format!("the job panicked: {e}")),
    };
    let run = JobRun {
        job: spec.name.clone(),
        started_at_ms,
        ended_at_ms: store.now_ms(),
        ok: outcome.is_ok(),
        error: outcome.as_ref().err().cloned(),
    };
    crate::prometheus::job_run(&spec.name, run.ok);
    match &outcome {
        Ok(summary) => tracing::info!(job = %spec.name, %summary, "job finished"),
        Err(error) => tracing::warn!(job = %spec.name, %error, "job failed"),
    }
    if let Err(e) = store.record_job_run(run.clone()).await {
        tracing::warn!(job = %spec.name, error = %e, "could not record the job run");
    }
    run
}

/// What the scheduler's ticks reach: the store runs are recorded in and every spec (which
/// hold the store, limiters and model they captured).
struct Armed {
    store: Store,
    specs: Vec<Arc<JobSpec>>,
}

/// The running scheduler; `shutdown` stops it. The jobs are reached through `slot`, which
/// shutdown empties: the scheduler's own tasks may outlive it, and must not keep the
/// database open.
pub struct Scheduler {
    inner: JobScheduler,
    slot: Arc<std::sync::RwLock<Option<Armed>>>,
    finished: broadcast::Sender<JobRun>,
}

impl Scheduler {
    /// Adds every job and starts ticking; runs are recorded in `store`.
    pub async fn start(store: Store, specs: Vec<JobSpec>) -> Result<Self, JobSchedulerError> {
        let inner = JobScheduler::new().await?;
        let schedules: Vec<String> = specs.iter().map(|s| s.schedule.clone()).collect();
        let specs = specs.into_iter().map(Arc::new).collect();
        let slot = Arc::new(std::sync::RwLock::new(Some(Armed { store, specs })));
        let (finished, _) = broadcast::channel(64);
        for (index, schedule) in schedules.into_iter().enumerate() {
            let busy = Arc::new(AtomicBool::new(false));
            let (slot, finished) = (slot.clone(), finished.clone());
            let job = Job::new_async(schedule.as_str(), move |_id, _lock| {
                let (busy, finished) = (busy.clone(), finished.clone());
                let armed = slot
                    .read()
                    .ok()
                    .and_then(|s| s.as_ref().and_then(|a| Some((a.store.clone(), a.specs.get(index)?.clone()))));
                Box::pin(async move {
                    let Some((store, spec)) = armed else { return };
                    if busy.swap(true, Ordering::SeqCst) {
                        tracing::warn!(job = %spec.name, "previous run still going; skipping this tick");
                        return;
                    }
                    let run = run_once(&store, &spec).await;
                    busy.store(false, Ordering::SeqCst);
                    // Nobody listening is the normal case outside tests.
                    let _ = finished.send(run);
                })
            })?;
            inner.add(job).await?;
        }
        inner.start().await?;
        Ok(Self { inner, slot, finished })
    }

    /// Every run the scheduler finishes from now on (recorded first), for whoever waits on one.
    pub fn finished_runs(&self) -> broadcast::Receiver<JobRun> {
        self.finished.subscribe()
    }

    pub async fn shutdown(mut self) {
        if let Ok(mut slot) = self.slot.write() {
            slot.take();
        }
        if let Err(e) = self.inner.shutdown().await {
            tracing::warn!(error = %e, "scheduler shutdown");
        }
    }
}

/// One row of `GET /api/tasks/status`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    pub name: String,
    pub schedule: String,
    pub last_run: Option<LastRun>,
    /// RFC 3339, UTC.
    pub next_run: Option<String>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastRun {
    pub started_at: String,
    pub ended_at: String,
    pub duration_ms: i64,
    pub outcome: &'static str,
    pub error: Option<String>,
}

/// Every configured job with its last recorded run and its next tick.
pub async fn status(state: &AppState) -> Result<Vec<JobStatus>, crate::store::StoreError> {
    let now = state.clock().utc();
    let mut out = Vec::new();
    for spec in all(state) {
        let last = state.store().last_job_run(&spec.name).await?.map(|r| LastRun {
            started_at: rfc3339_ms(r.started_at_ms),
            ended_at: rfc3339_ms(r.ended_at_ms),
            duration_ms: r.ended_at_ms - r.started_at_ms,
            outcome: if r.ok { "ok" } else { "error" },
            error: r.error,
        });
        let next = parse_cron(&spec.schedule)
            .and_then(|c| c.find_next_occurrence(&now, false).ok())
            .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
        out.push(JobStatus { name: spec.name, schedule: spec.schedule, last_run: last, next_run: next });
    }
    Ok(out)
}
