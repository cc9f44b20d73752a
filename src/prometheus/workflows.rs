//! The workflows gauge: how many workflows of each type are in each status. `GET /metrics`
//! sets every (type, status) pair from the workflow service's counts right before it renders,
//! so a scrape always sees the engine's current numbers (zeros included).

/// Sets the number of workflows of `workflow_type` in `status` (`running`, `waiting`,
/// `completed`, `failed`, `cancelled`). Both are bounded by the registered types and statuses.
pub fn set_workflows(workflow_type: &str, status: &str, count: u64) {
    let labels = vec![("type", workflow_type.to_owned()), ("status", status.to_owned())];
    super::REGISTRY.set(super::WORKFLOWS, labels, count as f64);
}
