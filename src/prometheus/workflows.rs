//! The gauges `GET /metrics` sets right before it renders, so a scrape always sees current
//! numbers: how many workflows of each type are in each status (every pair, zeros included),
//! and each token budget with what was spent against it.

/// Sets the number of workflows of `workflow_type` in `status` (`running`, `waiting`,
/// `completed`, `failed`, `cancelled`). Both are bounded by the registered types and statuses.
pub fn set_workflows(workflow_type: &str, status: &str, count: u64) {
    let labels = vec![("type", workflow_type.to_owned()), ("status", status.to_owned())];
    super::REGISTRY.set(super::WORKFLOWS, labels, count as f64);
}

/// Sets a budget's limit (`None`: no limit, written `+Inf`) and what was spent against it in
/// `period` (`day` or `month`); `worker` is empty for the Brain's and the workspace's. Bounded by
/// the registered workers.
pub fn set_budget(scope: &str, worker: &str, period: &str, limit: Option<u64>, spent: u64) {
    let labels = || vec![("scope", scope.to_owned()), ("worker", worker.to_owned()), ("period", period.to_owned())];
    super::REGISTRY.set(super::BUDGET_LIMIT, labels(), limit.map_or(f64::INFINITY, |l| l as f64));
    super::REGISTRY.set(super::BUDGET_SPENT, labels(), spent as f64);
}
