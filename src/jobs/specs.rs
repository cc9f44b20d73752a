//! The standard jobs and what each does.

use super::JobSpec;
use crate::config::{Config, Schedules};
use crate::limits::unix_now;
use crate::{backup, metrics, store};

pub const METRICS_ROLLUP: &str = "metrics-rollup";
pub const USAGE_ROLLUP: &str = "usage-rollup";
pub const CLEANUP: &str = "cleanup";
pub const MEMORY_COMPRESSION: &str = "memory-compression";

/// The standard jobs plus the ones the configuration turns on (scheduled backups).
pub fn all(config: &Config) -> Vec<JobSpec> {
    let mut specs = standard(&config.schedules);
    if let Some(settings) = config.backup.clone() {
        specs.push(JobSpec::new(backup::schedule::JOB, &settings.schedule.clone(), move |state| {
            let settings = settings.clone();
            async move { Ok(backup::schedule::run_once(state.store(), &settings).await?) }
        }));
    }
    specs
}

pub fn standard(schedules: &Schedules) -> Vec<JobSpec> {
    vec![
        JobSpec::new(METRICS_ROLLUP, &schedules.metrics_rollup, |state| async move {
            let at = metrics::rollup_all(state.store(), chrono::Utc::now().timestamp()).await?;
            state.events().publish(
                crate::events::METRICS_ROLLUP,
                serde_json::json!({ "views": metrics::VIEWS, "computedAt": at }),
            );
            Ok(format!("{} views", metrics::VIEWS.len()))
        }),
        JobSpec::new(USAGE_ROLLUP, &schedules.usage_rollup, |state| async move {
            state.api_keys().flush_usage().await?;
            Ok("API key usage rolled up".into())
        }),
        JobSpec::new(CLEANUP, &schedules.cleanup, |state| async move {
            let now = unix_now();
            let windows = state.enrich_limiter().purge_expired(now)
                + state.auth_limiter().purge_expired(now)
                + state.api_limiter().purge_expired(now);
            let mut runs = 0;
            for job in [METRICS_ROLLUP, USAGE_ROLLUP, CLEANUP, MEMORY_COMPRESSION, backup::schedule::JOB] {
                runs += state.store().prune_job_runs(job).await?;
            }
            Ok(format!("{windows} expired rate-limit windows, {runs} old job runs (kept {})", store::JOB_RUNS_KEPT))
        }),
        JobSpec::new(MEMORY_COMPRESSION, &schedules.memory_compression, |state| async move {
            let reports = crate::memory::compress_all(state.store(), state.llm()).await.map_err(|e| e.to_string())?;
            let folded: usize = reports.iter().map(|r| r.folded.len()).sum();
            let compressed = reports.iter().filter(|r| r.compressed).count();
            Ok(format!("{} worker scopes checked, {compressed} compressed, {folded} entries folded", reports.len()))
        }),
    ]
}
