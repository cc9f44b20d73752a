//! The in-process scheduler: metric rollups, usage rollups and the daily cleanup, each on its
//! 6-field cron schedule (seconds first, UTC) read by croner, one task per job. Every run is
//! recorded (start, end, outcome, error) in redb; a failing or panicking job is logged and
//! recorded and never stops the others or the server. A job still running when its next tick
//! comes is not run twice: the ticks it outlasted are skipped (and logged). Each job's
//! `run_once` is what the scheduler calls, so tests drive exactly the scheduled code. A job
//! captures what it touches (store, limiters, model, clock) when its spec is built from the
//! state (`specs::all`); the scheduler itself only holds the store it records runs in.

mod specs;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use specs::{
    all, cleanup, demo_team, memory_compression, metrics_rollup, rate_limit_save, scheduled_backup, simulated_team,
    standard, usage_rollup,
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

/// A job whose schedule is not a 6-field cron expression (seconds first).
#[derive(Debug, thiserror::Error)]
#[error("job {job}: {schedule:?} is not a 6-field cron expression (seconds first)")]
pub struct ScheduleError {
    pub job: String,
    pub schedule: String,
}

/// How long shutdown waits for a run in progress before leaving it behind.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The running scheduler: one task per job, each sleeping until its next tick (read from the
/// store's clock) and then running the job to completion. `shutdown` stops them.
pub struct Scheduler {
    stop: CancellationToken,
    tasks: TaskTracker,
    finished: broadcast::Sender<JobRun>,
}

impl Scheduler {
    /// Checks every schedule, then starts ticking; runs are recorded in `store`.
    pub fn start(store: Store, specs: Vec<JobSpec>) -> Result<Self, ScheduleError> {
        let mut armed = Vec::with_capacity(specs.len());
        for spec in specs {
            match parse_cron(&spec.schedule) {
                Some(cron) => armed.push((spec, cron)),
                None => return Err(ScheduleError { job: spec.name, schedule: spec.schedule }),
            }
        }
        let (stop, tasks) = (CancellationToken::new(), TaskTracker::new());
        let (finished, _) = broadcast::channel(64);
        for (spec, cron) in armed {
            tasks.spawn(tick(store.clone(), spec, cron, finished.clone(), stop.clone()));
        }
        tasks.close();
        Ok(Self { stop, tasks, finished })
    }

    /// Every run the scheduler finishes from now on (recorded first), for whoever waits on one.
    pub fn finished_runs(&self) -> broadcast::Receiver<JobRun> {
        self.finished.subscribe()
    }

    /// Stops ticking and waits (at most `SHUTDOWN_GRACE`) for the runs in progress to be recorded.
    pub async fn shutdown(self) {
        self.stop.cancel();
        if tokio::time::timeout(SHUTDOWN_GRACE, self.tasks.wait()).await.is_err() {
            tracing::warn!(grace_secs = SHUTDOWN_GRACE.as_secs(), "scheduler: a job run outlasted shutdown");
        }
    }
}

/// One job's ticks until `stop`. Each tick is strictly after the previous one, so a clock that
/// stands still (a test's) never runs a job twice for the same tick.
async fn tick(
    store: Store,
    spec: JobSpec,
    cron: croner::Cron,
    finished: broadcast::Sender<JobRun>,
    stop: CancellationToken,
) {
    let clock = store.clock().clone();
    let mut last_tick = clock.utc();
    loop {
        let now = clock.utc();
        let Ok(next) = cron.find_next_occurrence(&now.max(last_tick), false) else {
            tracing::warn!(job = %spec.name, schedule = %spec.schedule, "scheduler: the schedule has no next tick");
            return;
        };
        let wait = (next - now).to_std().unwrap_or_default();
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(wait) => {}
        }
        last_tick = next;
        let run = run_once(&store, &spec).await;
        if let Ok(after) = cron.find_next_occurrence(&next, false)
            && after < clock.utc()
        {
            tracing::warn!(job = %spec.name, "previous run outlasted its next tick; skipping the ticks it missed");
        }
        // Nobody listening is the normal case outside tests.
        let _ = finished.send(run);
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
