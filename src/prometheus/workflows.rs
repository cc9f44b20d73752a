//! The workflows gauge: how many workflows of each type are in each status. The workflow
//! engine owns those counts; it calls `set_workflows` for a (type, status) pair whenever that
//! count changes (and once per pair at start-up, from what it recovered). Until it does, the
//! scrape has no `gtms_workflows` series at all.

/// Sets the number of workflows of `workflow_type` in `status` (`running`, `waiting`,
/// `completed`, `failed`, `cancelled`). Both are bounded by the registered types and statuses.
pub fn set_workflows(workflow_type: &str, status: &str, count: u64) {
    let (workflow_type, status) = (workflow_type.to_owned(), status.to_owned());
    metrics::gauge!(super::WORKFLOWS, "type" => workflow_type, "status" => status).set(count as f64);
}
