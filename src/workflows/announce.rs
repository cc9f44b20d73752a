//! What the engines announce on the event bus (`/ws`) after a transition committed:
//! `workflow.started|step|waiting|completed|failed` and `approval.requested|expiring|decided`.
//! Payloads carry ids, types, workers, steps and statuses — never parameters or outputs.

use serde_json::json;

use crate::domain::{Decision, WorkflowStatus};
use crate::events;
use crate::store::{Store, WorkflowRecord};

fn base(w: &WorkflowRecord) -> serde_json::Value {
    json!({"workflowId": w.id, "type": w.kind, "worker": w.worker, "status": w.status})
}

pub fn started(store: &Store, w: &WorkflowRecord) {
    store.events().publish(events::WORKFLOW_STARTED, base(w));
}

pub fn step(store: &Store, w: &WorkflowRecord, step: &str, outcome: &str) {
    let mut data = base(w);
    data["step"] = json!(step);
    data["outcome"] = json!(outcome);
    store.events().publish(events::WORKFLOW_STEP, data);
}

pub fn waiting(store: &Store, w: &WorkflowRecord) {
    let mut data = base(w);
    if let Some(a) = &w.approval {
        data["step"] = json!(a.step);
        data["summary"] = json!(a.summary);
    }
    store.events().publish(events::WORKFLOW_WAITING, data.clone());
    store.events().publish(events::APPROVAL_REQUESTED, data);
}

/// 80 % of the pending approval's life has passed: when it expires, and what it is for.
pub fn expiring(store: &Store, w: &WorkflowRecord) {
    let mut data = base(w);
    if let Some(a) = &w.approval {
        data["step"] = json!(a.step);
        data["summary"] = json!(a.summary);
        data["expiresAt"] = json!(a.deadline_ms.map(crate::domain::rfc3339_ms));
    }
    store.events().publish(events::APPROVAL_EXPIRING, data);
}

pub fn decided(store: &Store, w: &WorkflowRecord, decision: Decision) {
    let mut data = base(w);
    data["decision"] = json!(decision);
    store.events().publish(events::APPROVAL_DECIDED, data);
}

pub fn ended(store: &Store, w: &WorkflowRecord) {
    let kind = match w.status {
        WorkflowStatus::Failed => events::WORKFLOW_FAILED,
        _ => events::WORKFLOW_COMPLETED,
    };
    let mut data = base(w);
    if let Some(e) = &w.error {
        data["error"] = json!(e);
    }
    store.events().publish(kind, data);
}
