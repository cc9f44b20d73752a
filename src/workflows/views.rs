//! The shapes the workflow service answers with (DESIGN.md: Workers, Workflows, Coordinator),
//! built from workflow records. Timestamps are RFC 3339 UTC with milliseconds; step outputs,
//! params and results are the JSON the workflow recorded.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::definitions;
use crate::domain::{Decision, StepStatus, WorkflowStatus, WorkflowType, rfc3339_ms};
use crate::memory::WorkerMemory;
use crate::store::{ApprovalRecord, StepRecord, WorkflowRecord};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// `POST /api/workers/:id/start` → 202.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartReply {
    pub workflow_id: String,
    /// Always `started`.
    pub status: String,
    pub worker: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSummary {
    pub workflow_id: String,
    #[serde(rename = "type")]
    pub kind: WorkflowType,
    pub worker: String,
    pub status: WorkflowStatus,
    /// The step running or waiting now; null once ended.
    pub current_step: Option<String>,
    pub started_at: String,
    pub updated_at: String,
}

impl From<&WorkflowRecord> for WorkflowSummary {
    fn from(w: &WorkflowRecord) -> Self {
        Self {
            workflow_id: w.id.clone(),
            kind: w.kind,
            worker: w.worker.clone(),
            status: w.status,
            current_step: current_step(w),
            started_at: rfc3339_ms(w.created_ms),
            updated_at: rfc3339_ms(w.updated_ms),
        }
    }
}

/// The waiting gate, the step being retried, or the next declared step not completed yet.
pub fn current_step(w: &WorkflowRecord) -> Option<String> {
    if w.status.is_terminal() {
        return None;
    }
    if let Some(a) = w.approval.as_ref().filter(|a| a.is_pending()) {
        return Some(a.step.clone());
    }
    if let crate::store::Wait::Retry { step, .. } = &w.wait {
        return Some(step.clone());
    }
    let done = |name: &str| w.steps.iter().any(|s| s.name == name && s.status == StepStatus::Completed);
    definitions::steps(w.kind).iter().find(|s| !done(s)).map(|s| (*s).to_owned())
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WorkflowList {
    pub workflows: Vec<WorkflowSummary>,
    /// Every matching workflow, on this page or not.
    pub total: usize,
    /// The `cursor` of the next page; absent on the last one.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepView {
    pub name: String,
    /// `pending` for a declared step not reached yet.
    pub status: StepStatus,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub output: Value,
    pub attempts: u32,
}

impl From<&StepRecord> for StepView {
    fn from(s: &StepRecord) -> Self {
        Self {
            name: s.name.clone(),
            status: s.status,
            started_at: Some(rfc3339_ms(s.started_ms)),
            finished_at: s.finished_ms.map(rfc3339_ms),
            output: json(&s.output),
            attempts: s.attempts,
        }
    }
}

/// The recorded steps, then the declared steps not reached yet (as `pending`).
pub fn steps(w: &WorkflowRecord) -> Vec<StepView> {
    let mut out: Vec<StepView> = w.steps.iter().map(StepView::from).collect();
    if !w.status.is_terminal() {
        for name in definitions::steps(w.kind) {
            if !w.steps.iter().any(|s| s.name == *name) && *name != "escalate" {
                out.push(StepView {
                    name: (*name).to_owned(),
                    status: StepStatus::Pending,
                    started_at: None,
                    finished_at: None,
                    output: Value::Null,
                    attempts: 0,
                });
            }
        }
    }
    out
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalView {
    pub step: String,
    pub summary: String,
    pub pending: bool,
    pub requested_at: String,
    /// When the gate lapses (the SLA), if it does.
    pub deadline: Option<String>,
    pub decision: Option<Decision>,
    pub comment: Option<String>,
    pub decided_at: Option<String>,
    pub decided_by: Option<String>,
}

impl From<&ApprovalRecord> for ApprovalView {
    fn from(a: &ApprovalRecord) -> Self {
        Self {
            step: a.step.clone(),
            summary: a.summary.clone(),
            pending: a.is_pending(),
            requested_at: rfc3339_ms(a.requested_ms),
            deadline: a.deadline_ms.map(rfc3339_ms),
            decision: a.decision,
            comment: a.comment.clone(),
            decided_at: a.decided_ms.map(rfc3339_ms),
            decided_by: a.decided_by.clone(),
        }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowDetail {
    #[serde(flatten)]
    pub summary: WorkflowSummary,
    pub params: Value,
    pub steps: Vec<StepView>,
    pub result: Option<Value>,
    pub approval: Option<ApprovalView>,
    /// Why it failed.
    pub error: Option<String>,
    /// The coordinator run that started it.
    pub parent: Option<String>,
    pub children: Vec<String>,
    /// Whether it holds at an activity boundary for a pause of its worker or type (its last
    /// step is an open `paused` step, saying who paused what, when and why).
    pub paused: bool,
}

impl From<&WorkflowRecord> for WorkflowDetail {
    fn from(w: &WorkflowRecord) -> Self {
        Self {
            summary: WorkflowSummary::from(w),
            params: json(&w.params),
            steps: steps(w),
            result: w.result.as_deref().map(json),
            approval: w.approval.as_ref().map(ApprovalView::from),
            error: w.error.clone(),
            parent: w.parent.clone(),
            children: w.children.clone(),
            paused: super::transitions::is_held(w),
        }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    pub workflow_id: String,
    pub worker: String,
    #[serde(rename = "type")]
    pub kind: WorkflowType,
    pub step: String,
    pub summary: String,
    pub requested_at: String,
    /// When the approval expires unanswered (and the workflow takes its reject path; for a
    /// ticket's review, when its SLA escalates); absent when it waits until someone decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// What the approval is bound to (docs/controls.md); absent for a request made before
    /// bindings existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<super::binding::BindingView>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ApprovalList {
    pub approvals: Vec<PendingApproval>,
    /// Every pending approval, on this page or not.
    pub total: usize,
    /// The `cursor` of the next page; absent on the last one.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionReply {
    pub workflow_id: String,
    pub decision: Decision,
    /// The workflow's status right after the decision.
    pub status: WorkflowStatus,
}

/// A worker (spec: Worker). `status`, `currentTask` and `activeWorkflows` are derived from
/// live workflows.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkerView {
    pub id: String,
    pub name: String,
    pub role: String,
    /// `running`, `waiting` or `stopped`.
    pub status: String,
    pub current_task: String,
    pub memory_entries: usize,
    /// Ids of the worker's live workflows.
    pub active_workflows: Vec<String>,
}

/// `GET /api/workers` and `workers_list`: the spec's "returns workers (array of Worker)".
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WorkerList {
    pub workers: Vec<WorkerView>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkerDetail {
    #[serde(flatten)]
    pub worker: WorkerView,
    pub team: String,
    pub workflow_types: Vec<String>,
    pub memory: WorkerMemory,
    /// Whether an admin paused this worker (its list `status` stays one of the three: a
    /// workflow held by a pause is neither executing nor at a gate).
    pub paused: bool,
    /// The worker's pause, when it stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause: Option<super::controls::PauseView>,
}

/// A coordinator run (`/api/coordinator/runs`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub run_id: String,
    pub workflow_id: String,
    pub goal: String,
    pub status: WorkflowStatus,
    pub current_step: Option<String>,
    pub started_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunList {
    pub runs: Vec<RunSummary>,
    /// Every coordinator run, on this page or not.
    pub total: usize,
    /// The `cursor` of the next page; absent on the last one.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunDetail {
    #[serde(flatten)]
    pub run: RunSummary,
    /// The nine steps, each `{name, status, startedAt, finishedAt, output}`.
    pub steps: Vec<StepView>,
    pub children: Vec<String>,
    /// The synthesis, once written.
    pub synthesis: Option<String>,
    pub error: Option<String>,
}

/// `POST /api/coordinator/runs` → 202.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunStarted {
    pub run_id: String,
    pub workflow_id: String,
    /// Always `started`.
    pub status: String,
}

pub const RUN_PREFIX: &str = "run-";
pub const COORDINATOR_PREFIX: &str = "coordinator-";

/// The run id of a coordinator workflow id (`coordinator-<x>` → `run-<x>`).
pub fn run_id(workflow_id: &str) -> String {
    format!("{RUN_PREFIX}{}", workflow_id.strip_prefix(COORDINATOR_PREFIX).unwrap_or(workflow_id))
}

impl From<&WorkflowRecord> for RunSummary {
    fn from(w: &WorkflowRecord) -> Self {
        let params = json(&w.params);
        Self {
            run_id: run_id(&w.id),
            workflow_id: w.id.clone(),
            goal: params["goal"].as_str().unwrap_or_default().to_owned(),
            status: w.status,
            current_step: current_step(w),
            started_at: rfc3339_ms(w.created_ms),
            updated_at: rfc3339_ms(w.updated_ms),
        }
    }
}

impl From<&WorkflowRecord> for RunDetail {
    fn from(w: &WorkflowRecord) -> Self {
        let synthesis = w
            .steps
            .iter()
            .rev()
            .find(|s| s.name == "synthesize" && s.status == StepStatus::Completed)
            .and_then(|s| json(&s.output)["text"].as_str().map(str::to_owned));
        Self {
            run: RunSummary::from(w),
            steps: steps(w),
            children: w.children.clone(),
            synthesis,
            error: w.error.clone(),
        }
    }
}
