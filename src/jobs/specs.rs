//! The standard jobs and what each does. Each builder takes exactly what its job touches and
//! captures it, so the signature says what the job may reach; `all` wires them from the state.

use std::sync::Arc;

use super::JobSpec;
use crate::auth::keys::ApiKeys;
use crate::clock::Clock;
use crate::config::BackupSettings;
use crate::domain::WorkflowStatus;
use crate::limits::NamedLimiter;
use crate::state::AppState;
use crate::store::Store;
use crate::workflows::Workflows;
use crate::workflows::params::{CompressionParams, WorkflowParams};
use crate::{backup, metrics, store};

pub const METRICS_ROLLUP: &str = "metrics-rollup";
pub const USAGE_ROLLUP: &str = "usage-rollup";
pub const CLEANUP: &str = "cleanup";
pub const MEMORY_COMPRESSION: &str = "memory-compression";
pub const RATE_LIMIT_SAVE: &str = "rate-limit-save";
pub const DEMO_TEAM: &str = "demo-team";
/// The worker whose roster runs memory compression (`seed/workers.json`).
const COMPRESSION_WORKER: &str = "revenue-analyst";

/// The standard jobs plus the ones the configuration turns on (scheduled backups, the
/// simulated team).
pub fn all(state: &AppState) -> Vec<JobSpec> {
    let mut specs = standard(state);
    if let Some(settings) = state.config().backup.clone() {
        specs.push(scheduled_backup(settings, state.store().clone()));
    }
    specs.extend(simulated_team(state));
    specs
}

/// The simulated team's job, when the configuration runs it (demo mode, `demo_simulate`).
pub fn simulated_team(state: &AppState) -> Option<JobSpec> {
    let workflows = state.workflows().ok().filter(|_| state.config().simulate_team)?;
    Some(demo_team(&state.config().schedules.demo_team, workflows.clone()))
}

/// One tick of the simulated team (`demo::simulate::tick`).
pub fn demo_team(schedule: &str, workflows: Workflows) -> JobSpec {
    JobSpec::new(DEMO_TEAM, schedule, move || {
        let workflows = workflows.clone();
        async move {
            let tick = crate::demo::simulate::tick(&workflows).await?;
            let started = tick.started.as_deref().unwrap_or("nothing (enough simulated work is live)");
            let deal = tick.deal.map(|(id, stage)| format!("; {id} is in {}", stage.as_str())).unwrap_or_default();
            Ok(format!("decided {} simulated approvals, started {started}{deal}", tick.decided.len()))
        }
    })
}

/// The jobs every appliance runs, on the configured schedules.
pub fn standard(state: &AppState) -> Vec<JobSpec> {
    let schedules = &state.config().schedules;
    let store = state.store();
    vec![
        metrics_rollup(&schedules.metrics_rollup, store.clone()),
        usage_rollup(&schedules.usage_rollup, Arc::clone(state.api_keys())),
        cleanup(&schedules.cleanup, state.limiters(), Arc::clone(state.clock()), store.clone()),
    ]
    .into_iter()
    .chain(state.workflows().ok().map(|w| memory_compression(&schedules.memory_compression, w.clone())))
    .chain([rate_limit_save(&schedules.rate_limit_save, state.limiters(), Arc::clone(state.clock()), store.clone())])
    .collect()
}

/// Recomputes every metric view and announces it on the event bus.
pub fn metrics_rollup(schedule: &str, store: Store) -> JobSpec {
    JobSpec::new(METRICS_ROLLUP, schedule, move || {
        let store = store.clone();
        async move {
            let at = metrics::rollup_all(&store, store.clock().now_secs()).await?;
            store.events().publish(
                crate::events::METRICS_ROLLUP,
                serde_json::json!({ "views": metrics::VIEWS, "computedAt": at }),
            );
            Ok(format!("{} views", metrics::VIEWS.len()))
        }
    })
}

/// Writes the API keys' pending usage counts to the store.
pub fn usage_rollup(schedule: &str, keys: Arc<ApiKeys>) -> JobSpec {
    JobSpec::new(USAGE_ROLLUP, schedule, move || {
        let keys = keys.clone();
        async move {
            keys.flush_usage().await?;
            Ok("API key usage rolled up".into())
        }
    })
}

/// Drops rate-limit windows that ended (by the injected clock) and old job runs.
pub fn cleanup(schedule: &str, limiters: Vec<NamedLimiter>, clock: Arc<dyn Clock>, store: Store) -> JobSpec {
    JobSpec::new(CLEANUP, schedule, move || {
        let (limiters, store, now) = (limiters.clone(), store.clone(), clock.now());
        async move {
            let windows: usize = limiters.iter().map(|l| l.limiter.purge_expired(now)).sum();
            let mut runs = 0;
            for job in
                [METRICS_ROLLUP, USAGE_ROLLUP, CLEANUP, MEMORY_COMPRESSION, RATE_LIMIT_SAVE, backup::schedule::JOB]
            {
                runs += store.prune_job_runs(job).await?;
            }
            Ok(format!("{windows} expired rate-limit windows, {runs} old job runs (kept {})", store::JOB_RUNS_KEPT))
        }
    })
}

/// Starts the `memory-compression` workflow (on the revenue analyst, who runs it) and waits
/// for its end: it folds over-budget worker memory into summaries with the fast model.
pub fn memory_compression(schedule: &str, workflows: Workflows) -> JobSpec {
    JobSpec::new(MEMORY_COMPRESSION, schedule, move || {
        let workflows = workflows.clone();
        async move {
            let params = WorkflowParams::MemoryCompression(CompressionParams {});
            let id = workflows.start_internal(COMPRESSION_WORKER, params).await?;
            let ended = workflows.wait_until_ended(&id).await?;
            match ended.status {
                WorkflowStatus::Completed => {
                    Ok(format!("workflow {id} completed: {}", ended.result.unwrap_or_default()))
                }
                status => {
                    Err(format!("workflow {id} ended {}: {}", status.as_str(), ended.error.unwrap_or_default()).into())
                }
            }
        }
    })
}

/// Writes the current rate-limit windows to the data file, so a restart keeps them.
pub fn rate_limit_save(schedule: &str, limiters: Vec<NamedLimiter>, clock: Arc<dyn Clock>, store: Store) -> JobSpec {
    JobSpec::new(RATE_LIMIT_SAVE, schedule, move || {
        let (limiters, store, now) = (limiters.clone(), store.clone(), clock.now());
        async move {
            let saved = crate::limits::persist::save(&store, &limiters, now).await?;
            Ok(format!("{saved} rate-limit counters saved"))
        }
    })
}

/// A verified online backup into the configured directory, keeping the newest few.
pub fn scheduled_backup(settings: BackupSettings, store: Store) -> JobSpec {
    let schedule = settings.schedule.clone();
    JobSpec::new(backup::schedule::JOB, &schedule, move || {
        let (settings, store) = (settings.clone(), store.clone());
        async move { Ok(backup::schedule::run_once(&store, &settings).await?) }
    })
}
