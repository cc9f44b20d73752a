//! Pause, resume and cancel (issue 28; docs/controls.md): what `/api/controls`, the workflow
//! cancel route and the `controls` MCP tools call. A pause names a worker or a workflow type:
//! starts of what it names are refused (409) while it stands, and running workflows hold at
//! their next activity boundary — both engines read the pause there, so it survives a restart.
//! A resume wakes the workflows it held. A cancel ends a live workflow (and its live children)
//! with who and why recorded in its history; a bulk cancel names its filter and answers per
//! workflow. Every change is audited.

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::service::{WorkflowError, Workflows};
use super::transitions::CancelRequest;
use crate::auth::AdminProof;
use crate::domain::{WorkflowStatus, WorkflowType, rfc3339_ms};
use crate::store::{PauseRecord, PauseScope, WorkflowRecord};

/// Longest reason, in characters.
const MAX_REASON_CHARS: usize = 1_000;
/// How long a cancel waits for the workflow to end before answering with its state then
/// (a workflow in the middle of an activity ends when the activity does).
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// `POST /api/controls/pause`: one of `worker` and `type`, and why.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [
    {"required": ["worker"], "properties": {"worker": {"type": "string"}, "type": {"type": "null"}}},
    {"required": ["type"], "properties": {"type": {"not": {"type": "null"}}, "worker": {"type": "null"}}},
]))]
pub struct PauseRequest {
    /// A worker's id.
    pub worker: Option<String>,
    /// A workflow type.
    #[serde(rename = "type")]
    pub kind: Option<WorkflowType>,
    /// Why (shown to the team and recorded in each held workflow's history).
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"\S"))]
    pub reason: String,
}

/// `POST /api/controls/resume`: one of `worker` and `type`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [
    {"required": ["worker"], "properties": {"worker": {"type": "string"}, "type": {"type": "null"}}},
    {"required": ["type"], "properties": {"type": {"not": {"type": "null"}}, "worker": {"type": "null"}}},
]))]
pub struct ResumeRequest {
    pub worker: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<WorkflowType>,
}

/// A standing pause.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PauseView {
    /// `worker` or `type`.
    pub scope: PauseScope,
    /// The worker's id or the workflow type.
    pub target: String,
    pub paused_by: String,
    pub paused_at: String,
    pub reason: String,
}

impl From<&PauseRecord> for PauseView {
    fn from(p: &PauseRecord) -> Self {
        Self {
            scope: p.scope,
            target: p.target.clone(),
            paused_by: p.by.clone(),
            paused_at: rfc3339_ms(p.at_ms),
            reason: p.reason.clone(),
        }
    }
}

/// `GET /api/controls/pauses`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PauseList {
    pub pauses: Vec<PauseView>,
}

/// What a resume lifted and how many held workflows it woke.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ResumeReply {
    pub resumed: PauseView,
    /// Live workflows told to go on (those no other pause still holds).
    pub released: usize,
}

/// `POST /api/coordinator/workflows/:id/cancel`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelBody {
    /// Why (recorded in the workflow's history and its result).
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"\S"))]
    pub reason: String,
}

/// A cancelled workflow: its status after the request (`cancelled`, or `running` while it
/// finishes the activity it was in) and the live children cancelled with it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelReply {
    pub workflow_id: String,
    pub status: WorkflowStatus,
    pub reason: String,
    pub children: Vec<String>,
}

/// `POST /api/controls/cancel`: every live workflow matching all the filters given (at least
/// one), and why.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(extend("anyOf" = [
    {"required": ["type"], "properties": {"type": {"not": {"type": "null"}}}},
    {"required": ["worker"], "properties": {"worker": {"type": "string"}}},
    {"required": ["startedBefore"], "properties": {"startedBefore": {"type": "string"}}},
]))]
pub struct BulkCancelRequest {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<WorkflowType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    /// Started before this time (RFC 3339, `2026-11-27T09:00:00Z`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date-time"))]
    pub started_before: Option<String>,
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"\S"))]
    pub reason: String,
}

/// What a bulk cancel did to one workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CancelOutcome {
    /// Cancelled (its `status` is `cancelled`, or `running` while it finishes an activity).
    Cancelled,
    /// It ended before the cancel reached it.
    Ended,
    /// The engine could not take the cancel (`error` says why).
    Failed,
}

/// One workflow a bulk cancel matched: what happened to it, its status after, and the parent
/// it was cancelled with when it is a live child of a matched workflow.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelItem {
    pub workflow_id: String,
    pub outcome: CancelOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<WorkflowStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The answer of a bulk cancel: its filter, and one item per workflow.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkCancelReply {
    pub filter: BulkCancelRequest,
    pub matched: usize,
    pub cancelled: usize,
    pub results: Vec<CancelItem>,
}

fn reason(text: &str) -> Result<String, WorkflowError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_REASON_CHARS {
        return Err(WorkflowError::BadInput(format!(
            "reason must be 1 to {MAX_REASON_CHARS} characters, not only spaces"
        )));
    }
    Ok(text.to_owned())
}

/// The one target of a pause or resume.
fn target(worker: Option<String>, kind: Option<WorkflowType>) -> Result<(PauseScope, String), WorkflowError> {
    match (worker, kind) {
        (Some(worker), None) => Ok((PauseScope::Worker, worker)),
        (None, Some(kind)) => Ok((PauseScope::Type, kind.as_str().to_owned())),
        _ => Err(WorkflowError::BadInput("name exactly one of worker and type".into())),
    }
}

/// Whether a live workflow matches a bulk cancel's filter.
fn in_filter(filter: &BulkCancelRequest, before_ms: Option<i64>, w: &WorkflowRecord) -> bool {
    !w.status.is_terminal()
        && filter.kind.is_none_or(|k| k == w.kind)
        && filter.worker.as_deref().is_none_or(|x| x == w.worker)
        && before_ms.is_none_or(|b| w.created_ms < b)
}

impl Workflows {
    /// The 409 a start of `worker` and `kind` gets while a pause names either.
    pub(super) async fn refuse_paused(&self, worker: &str, kind: WorkflowType) -> Result<(), WorkflowError> {
        match self.store().hold(worker, kind).await? {
            None => Ok(()),
            Some(hold) => {
                let p = &hold.pause;
                Err(WorkflowError::Paused(format!(
                    "{} {} is paused (by {} at {}: {}); resume it to start workflows",
                    p.scope.as_str(),
                    p.target,
                    p.by,
                    rfc3339_ms(p.at_ms),
                    p.reason
                )))
            }
        }
    }

    /// Pauses a worker or a workflow type (admin); `true` when the pause is new (one standing
    /// already is answered as it was).
    pub async fn pause(
        &self,
        admin: AdminProof<'_>,
        request: PauseRequest,
    ) -> Result<(PauseView, bool), WorkflowError> {
        let (scope, target) = target(request.worker, request.kind)?;
        let reason = reason(&request.reason)?;
        if scope == PauseScope::Worker {
            self.worker_record(&target).await?;
        }
        let record = PauseRecord {
            scope,
            target: target.clone(),
            by: crate::audit::actor(admin),
            at_ms: self.store().now_ms(),
            reason: reason.clone(),
        };
        let (standing, created) = self.store().pause(record).await?;
        if created {
            tracing::info!(scope = scope.as_str(), %target, by = %standing.by, %reason, "paused");
            let detail = [("scope", scope.as_str().to_owned()), ("reason", reason)];
            crate::audit::record(self.store(), admin, "pause", &format!("{}/{target}", scope.as_str()), &detail).await;
        }
        Ok((PauseView::from(&standing), created))
    }

    /// Lifts a pause (admin; 404 when none stands) and wakes the live workflows it named that
    /// no other pause still holds.
    pub async fn resume(&self, admin: AdminProof<'_>, request: ResumeRequest) -> Result<ResumeReply, WorkflowError> {
        let (scope, target) = target(request.worker, request.kind)?;
        let Some(resumed) = self.store().resume(scope, &target).await? else {
            return Err(WorkflowError::NotFound(format!("{} {target} is not paused", scope.as_str())));
        };
        let named = |w: &WorkflowRecord| match scope {
            PauseScope::Worker => w.worker == target,
            PauseScope::Type => w.kind.as_str() == target,
        };
        let mut ids = Vec::new();
        for w in self.live_records().await?.into_iter().filter(|w| named(w)) {
            if self.store().hold(&w.worker, w.kind).await?.is_none() {
                ids.push(w.id);
            }
        }
        let released = ids.len();
        self.engine().release(ids, resumed.revision).await?;
        tracing::info!(scope = scope.as_str(), %target, released, "resumed");
        let detail = [("scope", scope.as_str().to_owned()), ("released", released.to_string())];
        crate::audit::record(self.store(), admin, "resume", &format!("{}/{target}", scope.as_str()), &detail).await;
        Ok(ResumeReply { resumed: PauseView::from(&resumed.pause), released })
    }

    /// Every standing pause.
    pub async fn pauses(&self) -> Result<PauseList, WorkflowError> {
        Ok(PauseList { pauses: self.store().pauses().await?.iter().map(PauseView::from).collect() })
    }

    /// Cancels one live workflow and its live children (admin): 404 unknown, 409 ended.
    pub async fn cancel(
        &self,
        admin: AdminProof<'_>,
        id: &str,
        body: CancelBody,
    ) -> Result<CancelReply, WorkflowError> {
        let reason = reason(&body.reason)?;
        let request = CancelRequest { by: crate::audit::actor(admin), reason: reason.clone() };
        let (record, children) = self.cancel_one(id, &request).await?;
        let detail = [("reason", reason.clone()), ("children", children.len().to_string())];
        crate::audit::record(self.store(), admin, "workflow.cancel", id, &detail).await;
        Ok(CancelReply { workflow_id: record.id, status: record.status, reason, children })
    }

    /// Cancels every live workflow matching the filter (admin; at least one filter), each
    /// with its live children, and answers per workflow.
    pub async fn cancel_matching(
        &self,
        admin: AdminProof<'_>,
        filter: BulkCancelRequest,
    ) -> Result<BulkCancelReply, WorkflowError> {
        if filter.kind.is_none() && filter.worker.is_none() && filter.started_before.is_none() {
            return Err(WorkflowError::BadInput(
                "name at least one of type, worker and startedBefore (a cancel of everything is not taken)".into(),
            ));
        }
        let reason = reason(&filter.reason)?;
        let before_ms = match filter.started_before.as_deref() {
            None => None,
            Some(text) => Some(
                chrono::DateTime::parse_from_rfc3339(text)
                    .map_err(|_| WorkflowError::BadInput(format!("startedBefore: {text:?} is not an RFC 3339 time")))?
                    .timestamp_millis(),
            ),
        };
        let request = CancelRequest { by: crate::audit::actor(admin), reason: reason.clone() };
        let matched: Vec<WorkflowRecord> =
            self.live_records().await?.into_iter().filter(|w| in_filter(&filter, before_ms, w)).collect();
        let mut results = Vec::new();
        let mut done: std::collections::HashSet<String> = std::collections::HashSet::new();
        for w in &matched {
            if done.contains(&w.id) {
                continue;
            }
            let item = match self.cancel_one(&w.id, &request).await {
                Ok((record, children)) => {
                    for child in children {
                        results.push(CancelItem {
                            workflow_id: child.clone(),
                            outcome: CancelOutcome::Cancelled,
                            status: Some(WorkflowStatus::Cancelled),
                            parent: Some(w.id.clone()),
                            error: None,
                        });
                        done.insert(child);
                    }
                    let (workflow_id, status) = (record.id, Some(record.status));
                    CancelItem { workflow_id, outcome: CancelOutcome::Cancelled, status, parent: None, error: None }
                }
                Err(e) => {
                    let outcome = match &e {
                        WorkflowError::Engine(super::EngineError::Ended(_)) => CancelOutcome::Ended,
                        _ => CancelOutcome::Failed,
                    };
                    let workflow_id = w.id.clone();
                    CancelItem { workflow_id, outcome, status: None, parent: None, error: Some(e.to_string()) }
                }
            };
            done.insert(w.id.clone());
            results.push(item);
        }
        let cancelled = results.iter().filter(|r| r.outcome == CancelOutcome::Cancelled).count();
        let filter = BulkCancelRequest { reason: reason.clone(), ..filter };
        let mut detail = vec![("reason", reason), ("matched", matched.len().to_string())];
        detail.push(("cancelled", cancelled.to_string()));
        if let Some(kind) = filter.kind {
            detail.push(("type", kind.as_str().to_owned()));
        }
        if let Some(worker) = &filter.worker {
            detail.push(("worker", worker.clone()));
        }
        if let Some(before) = &filter.started_before {
            detail.push(("startedBefore", before.clone()));
        }
        crate::audit::record(self.store(), admin, "workflows.cancel", "filter", &detail).await;
        Ok(BulkCancelReply { filter, matched: matched.len(), cancelled, results })
    }

    /// Cancels the live children of `id` (so Temporal does not terminate them with their
    /// parent), then `id`; waits a little for it to end. Returns its state and the children.
    async fn cancel_one(
        &self,
        id: &str,
        request: &CancelRequest,
    ) -> Result<(WorkflowRecord, Vec<String>), WorkflowError> {
        let record =
            self.engine().describe(id).await?.ok_or_else(|| WorkflowError::NotFound(format!("no workflow {id}")))?;
        if record.status.is_terminal() {
            return Err(WorkflowError::Engine(super::EngineError::Ended(id.to_owned())));
        }
        let mut children = Vec::new();
        for child in &record.children {
            match self.engine().cancel(child, request.clone()).await {
                Ok(_) => children.push(child.clone()),
                Err(super::EngineError::Ended(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let taken = self.engine().cancel(id, request.clone()).await?;
        let record = match taken.status.is_terminal() {
            true => taken,
            false => tokio::time::timeout(CANCEL_WAIT, self.wait_until_ended(id)).await.unwrap_or(Ok(taken))?,
        };
        tracing::info!(workflow = %id, by = %request.by, reason = %request.reason, status = %record.status.as_str(), "cancel taken");
        Ok((record, children))
    }

    /// Every live workflow's record.
    async fn live_records(&self) -> Result<Vec<WorkflowRecord>, WorkflowError> {
        let listing = self.engine().listing().await?;
        let ids: Vec<Arc<str>> = listing.live().into_iter().map(|r| r.id).collect();
        Ok(listing.records(ids).await?)
    }
}

/// Most decisions one bulk request may carry.
pub const MAX_BULK_DECISIONS: usize = 100;

/// `POST /api/coordinator/approvals`: several decisions at once, each taken as the single
/// decision would be.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkDecideRequest {
    #[schemars(length(min = 1, max = 100))]
    pub decisions: Vec<BulkDecision>,
}

/// One decision of a bulk request.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkDecision {
    pub workflow_id: String,
    pub decision: crate::domain::Decision,
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub comment: Option<String>,
}

/// What happened to one decision of a bulk request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionOutcome {
    /// Taken (`status` is the workflow's status right after).
    Decided,
    /// What the approval acts on changed since it was requested: not taken, requested again.
    Stale,
    /// Nothing is pending (decided already, expired, or ended).
    NotPending,
    NotFound,
    /// Refused for another reason (`error` says which).
    Failed,
}

/// One decision's answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionItem {
    pub workflow_id: String,
    pub outcome: DecisionOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<WorkflowStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The answer of a bulk decision: one item per decision, in the order sent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BulkDecideReply {
    pub decided: usize,
    pub results: Vec<DecisionItem>,
}

impl Workflows {
    /// Takes each decision in turn as `decide` would (admin), answering per item; one that is
    /// refused does not stop the others.
    pub async fn decide_all(
        &self,
        admin: AdminProof<'_>,
        request: BulkDecideRequest,
    ) -> Result<BulkDecideReply, WorkflowError> {
        if request.decisions.is_empty() || request.decisions.len() > MAX_BULK_DECISIONS {
            return Err(WorkflowError::BadInput(format!("decisions must hold 1 to {MAX_BULK_DECISIONS} items")));
        }
        // A malformed item refuses the whole request before any decision is taken.
        let long = |c: &Option<String>| c.as_ref().is_some_and(|c| c.chars().count() > super::params::MAX_PARAM_CHARS);
        if let Some(n) = request.decisions.iter().position(|d| long(&d.comment)) {
            return Err(WorkflowError::BadInput(format!(
                "decisions[{n}].comment must be at most {} characters",
                super::params::MAX_PARAM_CHARS
            )));
        }
        let mut results = Vec::with_capacity(request.decisions.len());
        for d in request.decisions {
            let one = super::service::DecideRequest { decision: d.decision, comment: d.comment };
            let item = match self.decide(admin, &d.workflow_id, one).await {
                Ok(reply) => (DecisionOutcome::Decided, Some(reply.status), None),
                Err(e) => {
                    let outcome = match &e {
                        WorkflowError::Stale(_) => DecisionOutcome::Stale,
                        WorkflowError::NotFound(_) | WorkflowError::Engine(super::EngineError::NotFound(_)) => {
                            DecisionOutcome::NotFound
                        }
                        WorkflowError::Engine(super::EngineError::NothingPending(_)) => DecisionOutcome::NotPending,
                        _ => DecisionOutcome::Failed,
                    };
                    (outcome, None, Some(e.to_string()))
                }
            };
            results.push(DecisionItem { workflow_id: d.workflow_id, outcome: item.0, status: item.1, error: item.2 });
        }
        let decided = results.iter().filter(|r| r.outcome == DecisionOutcome::Decided).count();
        Ok(BulkDecideReply { decided, results })
    }
}
