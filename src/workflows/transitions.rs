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

/// The history step a workflow held by a pause records (open while it holds).
pub const PAUSED_STEP: &str = "paused";
/// The history step a cancelled workflow records last.
pub const CANCELLED_STEP: &str = "cancelled";

/// The open `paused` step, when the workflow holds.
fn open_pause(record: &mut WorkflowRecord) -> Option<&mut StepRecord> {
    record.steps.last_mut().filter(|s| s.name == PAUSED_STEP && s.status == StepStatus::Waiting)
}

/// Whether the workflow holds at a boundary for a pause (its last step is an open `paused`).
pub fn is_held(record: &WorkflowRecord) -> bool {
    record.steps.last().is_some_and(|s| s.name == PAUSED_STEP && s.status == StepStatus::Waiting)
}

/// Records that the workflow holds for `pause` (who paused what, when and why); `false` when
/// it already holds.
pub fn hold(record: &mut WorkflowRecord, pause: &crate::store::PauseRecord, now: i64) -> bool {
    if is_held(record) {
        return false;
    }
    let output = json!({
        "scope": pause.scope, "target": pause.target, "by": pause.by,
        "pausedAt": crate::domain::rfc3339_ms(pause.at_ms), "reason": pause.reason,
    });
    record.steps.push(StepRecord {
        name: PAUSED_STEP.to_owned(),
        status: StepStatus::Waiting,
        started_ms: now,
        finished_ms: None,
        output: output.to_string(),
        attempts: 1,
    });
    true
}

/// Closes the open `paused` step (the pause was lifted); `false` when the workflow did not hold.
pub fn release(record: &mut WorkflowRecord, now: i64) -> bool {
    let Some(step) = open_pause(record) else { return false };
    let mut output: Value = serde_json::from_str(&step.output).unwrap_or_else(|_| json!({}));
    output["resumedAt"] = json!(crate::domain::rfc3339_ms(now));
    step.status = StepStatus::Completed;
    step.finished_ms = Some(now);
    step.output = output.to_string();
    true
}

/// A request to cancel a workflow: who and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CancelRequest {
    pub by: String,
    pub reason: String,
}

/// Ends a live workflow as cancelled by `request`: an open gate or pause is closed, a
/// `cancelled` step records who and why, and the result says so.
pub fn cancel(record: &mut WorkflowRecord, request: &CancelRequest, now: i64) {
    release(record, now);
    if let Some(step) = record.approval.as_ref().filter(|a| a.is_pending()).map(|a| a.step.clone()) {
        if let Some(a) = record.approval.as_mut() {
            a.decided_ms = Some(now);
            a.decided_by = Some(request.by.clone());
            a.comment = Some(format!("cancelled: {}", request.reason));
        }
        finish_gate(record, &step, now, &json!({"decision": "cancelled", "by": request.by}));
    }
    let output = json!({"by": request.by, "reason": request.reason});
    record.steps.push(step_record(CANCELLED_STEP, StepStatus::Completed, now, now, &output, 1));
    record.wait = crate::store::Wait::Nothing;
    let result = json!({"cancelled": true, "by": request.by, "reason": request.reason});
    end(record, WorkflowStatus::Cancelled, Some(result), None, now);
}
