//! The state changes of a workflow record that both engines make the same way: a recorded
//! step, an approval gate opened, decided or lapsed, the end. Pure functions of the record and
//! the time (the demo engine passes the wall clock; the temporal engine the workflow clock, so
//! replays compute the same record).

use serde_json::{Value, json};

use super::engine::ApprovalSignal;
use crate::domain::{StepStatus, WorkflowStatus};
use crate::store::{ApprovalRecord, StepRecord, WorkflowRecord};

/// A finished step.
pub fn step_record(
    name: &str,
    status: StepStatus,
    started_ms: i64,
    finished_ms: i64,
    output: &Value,
    attempts: u32,
) -> StepRecord {
    StepRecord {
        name: name.to_owned(),
        status,
        started_ms,
        finished_ms: Some(finished_ms),
        output: output.to_string(),
        attempts,
    }
}

/// Parks the workflow at gate `step`: a waiting step, the pending approval, status `waiting`.
/// Returns the index of the waiting step.
pub fn open_gate(
    record: &mut WorkflowRecord,
    step: &str,
    summary: String,
    now: i64,
    deadline_secs: Option<u64>,
) -> usize {
    record.steps.push(StepRecord {
        name: step.to_owned(),
        status: StepStatus::Waiting,
        started_ms: now,
        finished_ms: None,
        output: "null".into(),
        attempts: 1,
    });
    record.approval = Some(ApprovalRecord {
        step: step.to_owned(),
        summary,
        requested_ms: now,
        deadline_ms: deadline_secs.map(|s| now + (s as i64).saturating_mul(1000)),
        decision: None,
        comment: None,
        decided_ms: None,
        decided_by: None,
    });
    record.status = WorkflowStatus::Waiting;
    record.steps.len() - 1
}

/// The text and outbox id of the notification a gate sends when it opens.
pub fn approval_notice(record: &WorkflowRecord, index: usize) -> (String, String) {
    let summary = record.approval.as_ref().map(|a| a.summary.as_str()).unwrap_or_default();
    let text = format!("Approval requested: {summary} ({} {}, worker {})", record.kind, record.id, record.worker);
    (format!("workflow:{}#{index}/approval.requested", record.id), text)
}

/// When the pending gate's `approval.expiring` goes out: 80 % of the way from its request to
/// its deadline (none without a deadline).
pub fn expiring_at(record: &WorkflowRecord) -> Option<i64> {
    let a = record.approval.as_ref().filter(|a| a.is_pending())?;
    let deadline = a.deadline_ms?;
    Some(a.requested_ms + (deadline - a.requested_ms) * 4 / 5)
}

/// The outbox id (one per gate run) and text of the pending gate's `approval.expiring` notice.
pub fn expiring_notice(record: &WorkflowRecord) -> Option<(String, String)> {
    let a = record.approval.as_ref().filter(|a| a.is_pending())?;
    let deadline = crate::domain::rfc3339_ms(a.deadline_ms?);
    let text = format!(
        "Approval expiring at {deadline} unless decided: {} ({} {}, worker {})",
        a.summary, record.kind, record.id, record.worker
    );
    Some((format!("workflow:{}@{}/approval.expiring", record.id, a.requested_ms), text))
}

/// The text and outbox id of the notification a failed workflow sends.
pub fn failure_notice(record: &WorkflowRecord) -> (String, String) {
    let text = format!(
        "Workflow failed: {} {} (worker {}): {}",
        record.kind,
        record.id,
        record.worker,
        record.error.as_deref().unwrap_or_default()
    );
    (format!("workflow:{}/workflow.failed", record.id), text)
}

/// Records a human decision at the pending gate; `false` when no gate is pending.
pub fn decide(record: &mut WorkflowRecord, signal: &ApprovalSignal, now: i64) -> bool {
    let Some(approval) = record.approval.as_mut().filter(|a| a.is_pending()) else { return false };
    approval.decision = Some(signal.decision);
    approval.comment = signal.comment.clone();
    approval.decided_ms = Some(now);
    approval.decided_by = Some(signal.by.clone());
    let step = approval.step.clone();
    let output = json!({"decision": signal.decision, "comment": signal.comment, "by": signal.by});
    finish_gate(record, &step, now, &output);
    true
}

/// Records that nobody decided gate `step` before its deadline.
pub fn lapse(record: &mut WorkflowRecord, step: &str, now: i64) {
    if let Some(a) = record.approval.as_mut() {
        a.decided_ms = Some(now);
        a.decided_by = Some("sla-timer".into());
        a.comment = Some("nobody decided before the deadline".into());
    }
    finish_gate(record, step, now, &json!({"decision": "timeout"}));
}

fn finish_gate(record: &mut WorkflowRecord, step: &str, now: i64, output: &Value) {
    if let Some(s) = record.steps.iter_mut().rev().find(|s| s.name == step && s.status == StepStatus::Waiting) {
        s.status = StepStatus::Completed;
        s.finished_ms = Some(now);
        s.output = output.to_string();
    }
    record.status = WorkflowStatus::Running;
}

/// Ends the workflow with `status`.
pub fn end(
    record: &mut WorkflowRecord,
    status: WorkflowStatus,
    result: Option<Value>,
    error: Option<String>,
    now: i64,
) {
    record.status = status;
    record.result = result.map(|r| r.to_string());
    record.error = error;
    record.finished_ms = Some(now);
}
