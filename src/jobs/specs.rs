//! The standard jobs and what each does.

use super::JobSpec;
use crate::config::{Config, Schedules};
use crate::limits::unix_now;
use crate::{backup, metrics, store};

pub const METRICS_ROLLUP: &str = "metrics-rollup";
pub const USAGE_ROLLUP: &str = "usage-rollup";
pub const CLEANUP: &str = "cleanup";

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
            metrics::rollup_all(state.store(), chrono::Utc::now().timestamp()).await?;
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
            for job in [METRICS_ROLLUP, USAGE_ROLLUP, CLEANUP, backup::schedule::JOB] {
                runs += state.store().prune_job_runs(job).await?;
            }
            Ok(format!("{windows} expired rate-limit windows, {runs} old job runs (kept {})", store::JOB_RUNS_KEPT))
        }),
    ]
}
