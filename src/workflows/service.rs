//! The workflow service behind `/api/workers`, `/api/coordinator` and the `workers` and
//! `coordinator` MCP tools: starts (admin; the worker must run the type; parameters checked
//! and named when missing or unknown), approvals (admin), workflow, run and worker views.
//! Worker `status`, `currentTask` and `activeWorkflows` are derived from the engine's live
//! workflows on every read, never stored.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::engine::{ApprovalSignal, Engine, EngineError, NewWorkflow};
use super::listing::{self, Listing, PageQuery};
use super::params::{CoordinatorParams, MAX_PARAM_CHARS, WorkflowParams};
use super::views::{
    ApprovalList, COORDINATOR_PREFIX, DecisionReply, PendingApproval, RUN_PREFIX, RunDetail, RunList, RunStarted,
    RunSummary, StartReply, WorkerDetail, WorkerView, WorkflowDetail, WorkflowList, WorkflowSummary, current_step,
};
use crate::auth::AdminProof;
use crate::domain::{Decision, WorkflowStatus, WorkflowType, rfc3339_ms};
use crate::error::{ErrorKind, ServiceError};
use crate::notify::Notifications;
use crate::store::{LiveRow, PauseScope, Store, StoreError, WorkerRecord, WorkflowQuery, WorkflowRecord};

/// Workflows changed in the last day and pending approvals the Brain sees, at most.
const BRAIN_RECENT: usize = 50;
/// Live workflows the Brain sees (the oldest first), at most.
const BRAIN_ACTIVE: usize = 50;
const BRAIN_APPROVALS: usize = 50;

/// Longest coordinator goal, in characters.
const MAX_GOAL_CHARS: usize = 2_000;

#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    NotFound(String),
    /// A pause names the worker or the type of a start.
    #[error("{0}")]
    Paused(String),
    /// What a pending approval acts on changed since it was requested.
    #[error("{0}")]
    Stale(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Memory(#[from] crate::memory::MemoryError),
}

impl ServiceError for WorkflowError {
    fn kind(&self) -> ErrorKind {
        match self {
            WorkflowError::BadInput(_) => ErrorKind::BadInput,
            WorkflowError::NotFound(_) => ErrorKind::NotFound,
            WorkflowError::Paused(_) | WorkflowError::Stale(_) => ErrorKind::Conflict,
            WorkflowError::Engine(e) => e.kind(),
            WorkflowError::Store(e) => e.kind(),
            WorkflowError::Memory(e) => e.kind(),
        }
    }
}

/// `POST /api/workers/:id/start` as sent (its schema is the API document's); read into a
/// `StartRequest`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartBody {
    /// One of the four startable types.
    #[schemars(extend("enum" = ["client-onboarding", "lead-qualification", "content-generation", "ticket-resolution"]))]
    pub workflow_type: String,
    /// The type's parameters, each a non-empty string of at most 1,000 characters.
    #[serde(default)]
    #[schemars(extend("additionalProperties" = {"type": "string", "minLength": 1, "maxLength": 1000, "pattern": "\\S"}))]
    pub params: Map<String, Value>,
}

/// A start, typed: a startable type and its parameters (`params::WorkflowParams`), read once
/// where the request arrives (the HTTP body, the MCP tool's arguments).
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "StartBody")]
pub struct StartRequest {
    pub params: WorkflowParams,
}

impl StartRequest {
    /// Reads a start: a known type that can be started through the API, with its parameters
    /// (the first bad one named: `params.contact: missing`).
    pub fn parse(workflow_type: &str, params: Map<String, Value>) -> Result<Self, WorkflowError> {
        let kind = WorkflowType::parse(workflow_type)
            .ok_or_else(|| WorkflowError::BadInput(format!("unknown workflowType {workflow_type:?}")))?;
        if kind.is_internal() {
            return Err(WorkflowError::BadInput(format!("{kind} is internal and cannot be started through the API")));
        }
        let params = WorkflowParams::parse(kind, params).map_err(|e| WorkflowError::BadInput(e.to_string()))?;
        Ok(Self { params })
    }
}

impl TryFrom<StartBody> for StartRequest {
    type Error = WorkflowError;
    fn try_from(body: StartBody) -> Result<Self, WorkflowError> {
        Self::parse(&body.workflow_type, body.params)
    }
}

/// `POST /api/coordinator/approvals/:workflowId`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecideRequest {
    pub decision: Decision,
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub comment: Option<String>,
}

/// `POST /api/coordinator/runs`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    #[schemars(regex(pattern = r"\S"), length(max = 2000))]
    pub goal: String,
}

/// `GET /api/coordinator/workflows?worker=&type=&status=&limit=&cursor=`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowFilter {
    pub worker: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<WorkflowType>,
    pub status: Option<WorkflowStatus>,
    /// Workflows per page, 1 to 1,000 (default 100).
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<usize>,
    /// The `nextCursor` of the previous page (empty or absent: the first page).
    #[schemars(regex(pattern = r"^([0-9]{1,18}\..+)?$"))]
    pub cursor: Option<String>,
}

/// The service; cheap to clone.
#[derive(Clone)]
pub struct Workflows {
    engine: Arc<dyn Engine>,
    store: Store,
    notifications: Notifications,
}

fn new_id(kind: WorkflowType) -> String {
    let hex = uuid::Uuid::new_v4().simple().to_string();
    format!("{}-{}", kind.as_str(), &hex[..12])
}

/// What marks a workflow the simulated team started (`<type>-sim-<hex>`), and its children
/// (`<parent id>-<n>`): docs/grounded-brain.md.
pub const SIMULATED_MARK: &str = "-sim-";

pub fn is_simulated(workflow_id: &str) -> bool {
    workflow_id.contains(SIMULATED_MARK)
}

impl Workflows {
    pub fn new(engine: Arc<dyn Engine>, store: Store, notifications: Notifications) -> Self {
        Self { engine, store, notifications }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn engine(&self) -> &Arc<dyn Engine> {
        &self.engine
    }

    pub fn notifications(&self) -> &Notifications {
        &self.notifications
    }

    pub(super) async fn worker_record(&self, id: &str) -> Result<WorkerRecord, WorkflowError> {
        let workers = self.store.workers().await?;
        workers.into_iter().find(|w| w.id == id).ok_or_else(|| WorkflowError::NotFound(format!("no worker {id}")))
    }

    /// Starts a workflow of a startable type on `worker_id` (admin).
    #[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub, worker = %worker_id))]
    pub async fn start(
        &self,
        admin: AdminProof<'_>,
        worker_id: &str,
        request: StartRequest,
    ) -> Result<StartReply, WorkflowError> {
        let worker = self.worker_record(worker_id).await?;
        let kind = request.params.kind();
        if !worker.workflow_types.iter().any(|t| t == kind.as_str()) {
            let runs = worker.workflow_types.join(", ");
            return Err(WorkflowError::BadInput(format!("worker {} does not run {kind} (it runs: {runs})", worker.id)));
        }
        if let WorkflowParams::ContentGeneration(p) = &request.params
            && self.store.account(&p.account_id).await?.is_none()
        {
            return Err(WorkflowError::BadInput(format!(
                "params.accountId: no account {} in the workspace",
                p.account_id
            )));
        }
        self.refuse_paused(&worker.id, kind).await?;
        let new = NewWorkflow { id: new_id(kind), worker: worker.id.clone(), params: request.params, parent: None };
        let started = self.engine.start(new).await?;
        tracing::debug!(workflow = %started.id, %kind, "workflow started");
        let detail = [("worker", worker.id.clone()), ("type", kind.as_str().to_owned())];
        crate::audit::record(&self.store, admin, "workflow.start", &started.id, &detail).await;
        Ok(StartReply { workflow_id: started.id, status: "started".into(), worker: worker.id })
    }

    /// Starts a coordinator run toward `goal` (admin).
    pub async fn run_coordinator(
        &self,
        admin: AdminProof<'_>,
        request: RunRequest,
    ) -> Result<RunStarted, WorkflowError> {
        let goal = request.goal.trim();
        if goal.is_empty() || goal.chars().count() > MAX_GOAL_CHARS {
            return Err(WorkflowError::BadInput(format!(
                "goal must be 1 to {MAX_GOAL_CHARS} characters, not only spaces"
            )));
        }
        let params = WorkflowParams::Coordinator(CoordinatorParams { goal: goal.to_owned() });
        let id = self.start_internal("coordinator", params).await?;
        crate::audit::record(&self.store, admin, "coordinator.run", &id, &[("goal", goal.to_owned())]).await;
        Ok(RunStarted { run_id: super::views::run_id(&id), workflow_id: id, status: "started".into() })
    }

    /// Starts an internal workflow (the coordinator, the scheduler's compression).
    pub async fn start_internal(&self, worker: &str, params: WorkflowParams) -> Result<String, WorkflowError> {
        self.refuse_paused(worker, params.kind()).await?;
        let new = NewWorkflow { id: new_id(params.kind()), worker: worker.to_owned(), params, parent: None };
        Ok(self.engine.start(new).await?.id)
    }

    /// Starts a workflow for the simulated team (demo mode): an id marked simulated, no admin.
    pub async fn start_simulated(&self, worker: &str, params: WorkflowParams) -> Result<String, WorkflowError> {
        self.refuse_paused(worker, params.kind()).await?;
        let hex = uuid::Uuid::new_v4().simple().to_string();
        let id = format!("{}{SIMULATED_MARK}{}", params.kind().as_str(), &hex[..12]);
        let new = NewWorkflow { id, worker: worker.to_owned(), params, parent: None };
        Ok(self.engine.start(new).await?.id)
    }

    /// The simulated teammate's decision on a simulated workflow's pending approval; a workflow
    /// a person started is never decided here.
    pub async fn decide_simulated(&self, id: &str, decision: Decision) -> Result<WorkflowStatus, WorkflowError> {
        if !is_simulated(id) {
            return Err(WorkflowError::BadInput(format!("{id} was not started by the simulated team")));
        }
        let signal = ApprovalSignal {
            decision,
            comment: Some("decided by the simulated teammate (demo mode)".into()),
            by: "simulated:teammate".into(),
        };
        Ok(self.engine.signal(id, signal).await?.status)
    }

    /// One page of workflows, newest first, filtered by worker, type and status.
    pub async fn list(&self, filter: &WorkflowFilter) -> Result<WorkflowList, WorkflowError> {
        let (limit, after) =
            listing::checked(filter.limit, filter.cursor.as_deref()).map_err(WorkflowError::BadInput)?;
        let query = WorkflowQuery {
            worker: filter.worker.as_deref(),
            kind: filter.kind,
            status: filter.status,
            after: after.as_ref(),
            limit,
        };
        let page = self.engine.listing().await?.page(&query).await?;
        Ok(WorkflowList {
            workflows: page.records.iter().map(WorkflowSummary::from).collect(),
            total: count(page.total),
            next_cursor: listing::next_cursor(&page.records, page.more, |w| w.created_ms),
        })
    }

    async fn record(&self, id: &str) -> Result<WorkflowRecord, WorkflowError> {
        self.engine.describe(id).await?.ok_or_else(|| WorkflowError::NotFound(format!("no workflow {id}")))
    }

    pub async fn get(&self, id: &str) -> Result<WorkflowDetail, WorkflowError> {
        Ok(WorkflowDetail::from(&self.record(id).await?))
    }

    /// One page of the pending approvals, oldest request first.
    pub async fn approvals(&self, query: &PageQuery) -> Result<ApprovalList, WorkflowError> {
        let (limit, after) = listing::checked(query.limit, query.cursor.as_deref()).map_err(WorkflowError::BadInput)?;
        let page = self.engine.listing().await?.pending(after.as_ref(), limit).await?;
        let mut approvals = pending_approvals(page.records.clone());
        let views = super::binding::views(&self.store, &page.records).await?;
        for approval in &mut approvals {
            if let Some(at) = page.records.iter().position(|r| r.id == approval.workflow_id) {
                approval.binding = views.get(at).cloned().flatten();
            }
        }
        Ok(ApprovalList {
            next_cursor: listing::next_cursor(&page.records, page.more, listing::requested_ms),
            total: count(page.total),
            approvals,
        })
    }

    /// Decides a workflow's pending approval (admin): 404 unknown, 409 nothing pending.
    #[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub, workflow = %id))]
    pub async fn decide(
        &self,
        admin: AdminProof<'_>,
        id: &str,
        request: DecideRequest,
    ) -> Result<DecisionReply, WorkflowError> {
        if request.comment.as_ref().is_some_and(|c| c.chars().count() > MAX_PARAM_CHARS) {
            return Err(WorkflowError::BadInput(format!("comment must be at most {MAX_PARAM_CHARS} characters")));
        }
        self.refuse_stale(id).await?;
        let signal = ApprovalSignal {
            decision: request.decision,
            comment: request.comment,
            by: format!("user:{}", admin.principal().sub),
        };
        let record = self.engine.signal(id, signal).await?;
        let detail =
            [("decision", request.decision.as_str().to_owned()), ("status", record.status.as_str().to_owned())];
        crate::audit::record(&self.store, admin, "approval.decide", &record.id, &detail).await;
        Ok(DecisionReply { workflow_id: record.id, decision: request.decision, status: record.status })
    }

    /// Refuses a decision on `id` when what its pending approval acts on changed since the
    /// request (`binding`): the request is raised afresh (bound to what holds now, the team
    /// told again) and the 409 says what changed, with both hashes.
    async fn refuse_stale(&self, id: &str) -> Result<(), WorkflowError> {
        let record = self.record(id).await?;
        let Some(stale) = super::binding::check(&self.store, &record).await? else { return Ok(()) };
        let summary = record.approval.as_ref().map(|a| a.summary.clone()).unwrap_or_default();
        let text = format!(
            "Approval requested again — {} since it was first requested: {summary} ({} {}, worker {})",
            stale.what, record.kind, record.id, record.worker
        );
        let outbox_id = format!("workflow:{id}/approval.requested/{}", stale.now.hash);
        self.notifications.queue(outbox_id, "approval.requested", text, Some(id.to_owned())).await?;
        super::announce::waiting(&self.store, &record);
        tracing::info!(workflow = %id, what = %stale.what, "a stale approval was refused and requested again");
        Err(WorkflowError::Stale(format!(
            "{} since this was requested, so the decision was not taken; the request was raised again with what \
             holds now — decide again (requested sha256 {}, now {})",
            stale.what, stale.requested, stale.now.hash
        )))
    }

    /// Every worker with its derived status.
    pub async fn workers(&self) -> Result<Vec<WorkerView>, WorkflowError> {
        let live = LiveWork::read(&self.engine.listing().await?).await?;
        let counts = crate::memory::worker_entry_counts(&self.store);
        let workers = self.store.workers().await?;
        Ok(workers.iter().map(|w| worker_view(w, &live, &counts)).collect())
    }

    pub async fn worker(&self, id: &str) -> Result<WorkerDetail, WorkflowError> {
        let record = self.worker_record(id).await?;
        let live = LiveWork::read(&self.engine.listing().await?).await?;
        let counts = crate::memory::worker_entry_counts(&self.store);
        let worker = worker_view(&record, &live, &counts);
        let memory = crate::memory::worker_memory(&self.store, id).await?;
        let pause = self.store.pauses().await?.into_iter().find(|p| p.scope == PauseScope::Worker && p.target == id);
        Ok(WorkerDetail {
            worker,
            team: record.team,
            workflow_types: record.workflow_types,
            memory,
            paused: pause.is_some(),
            pause: pause.as_ref().map(super::controls::PauseView::from),
        })
    }

    /// One page of coordinator runs, newest first.
    pub async fn runs(&self, query: &PageQuery) -> Result<RunList, WorkflowError> {
        let (limit, after) = listing::checked(query.limit, query.cursor.as_deref()).map_err(WorkflowError::BadInput)?;
        let query = WorkflowQuery {
            kind: Some(WorkflowType::Coordinator),
            after: after.as_ref(),
            limit,
            ..WorkflowQuery::default()
        };
        let page = self.engine.listing().await?.page(&query).await?;
        Ok(RunList {
            runs: page.records.iter().map(RunSummary::from).collect(),
            total: count(page.total),
            next_cursor: listing::next_cursor(&page.records, page.more, |w| w.created_ms),
        })
    }

    /// One coordinator run by run id (`run-<x>`) or workflow id.
    pub async fn run(&self, id: &str) -> Result<RunDetail, WorkflowError> {
        let workflow_id = match id.strip_prefix(RUN_PREFIX) {
            Some(rest) => format!("{COORDINATOR_PREFIX}{rest}"),
            None => id.to_owned(),
        };
        match self.engine.describe(&workflow_id).await? {
            Some(w) if w.kind == WorkflowType::Coordinator => Ok(RunDetail::from(&w)),
            _ => Err(WorkflowError::NotFound(format!("no coordinator run {id}"))),
        }
    }

    /// How many workflows of each type are in each status (every pair, zeros included).
    pub async fn counts(&self) -> Result<BTreeMap<(WorkflowType, WorkflowStatus), u64>, WorkflowError> {
        let mut counts: BTreeMap<(WorkflowType, WorkflowStatus), u64> =
            WorkflowType::ALL.iter().flat_map(|k| WorkflowStatus::ALL.iter().map(move |s| ((*k, *s), 0))).collect();
        counts.extend(self.engine.listing().await?.counts());
        Ok(counts)
    }

    /// Waits until workflow `id` ended (announced on the event bus; re-read when the bus
    /// lagged) and returns its final state.
    pub async fn wait_until_ended(&self, id: &str) -> Result<WorkflowRecord, WorkflowError> {
        let mut events = self.store.events().subscribe();
        loop {
            let record = self.record(id).await?;
            if record.status.is_terminal() {
                return Ok(record);
            }
            loop {
                match events.recv().await {
                    Ok(message) if message.contains(id) => break,
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                        return Err(WorkflowError::Engine(EngineError::Unavailable("the event bus closed".into())));
                    }
                }
            }
        }
    }

    /// The workflow side of the Brain's workspace, from one listing: live workflows, what waits
    /// for approval (oldest first), every worker with its status, and the workflows started or
    /// updated since `since_ms`, newest first.
    pub async fn brain_view(&self, since_ms: i64) -> Result<BrainWorkflows, WorkflowError> {
        use crate::brain::context::{Approval, RecentWorkflow, WorkerLine, WorkflowStatus as Live};
        let listing = self.engine.listing().await?;
        let live = LiveWork::read(&listing).await?;
        let no_counts = BTreeMap::new();
        let workers = self
            .store
            .workers()
            .await?
            .iter()
            .map(|w| worker_view(w, &live, &no_counts))
            .map(|v| WorkerLine {
                id: v.id,
                name: v.name,
                role: v.role,
                status: v.status,
                current_task: v.current_task,
            })
            .collect();
        let oldest: Vec<Arc<str>> = listing.live().into_iter().take(BRAIN_ACTIVE).map(|r| r.id).collect();
        let active = listing
            .records(oldest)
            .await?
            .into_iter()
            .filter(|w| !w.status.is_terminal())
            .map(|w| Live {
                workflow_id: w.id.clone(),
                workflow_type: w.kind.as_str().to_owned(),
                worker: w.worker.clone(),
                status: w.status.as_str().to_owned(),
                current_step: current_step(&w),
            })
            .collect();
        let recent = listing
            .changed_since(since_ms, BRAIN_RECENT)
            .await?
            .into_iter()
            .map(|w| RecentWorkflow {
                workflow_id: w.id.clone(),
                workflow_type: w.kind.as_str().to_owned(),
                worker: w.worker.clone(),
                status: w.status.as_str().to_owned(),
                started_at: rfc3339_ms(w.created_ms),
                updated_at: rfc3339_ms(w.updated_ms),
            })
            .collect();
        let approvals = pending_approvals(listing.pending(None, BRAIN_APPROVALS).await?.records)
            .into_iter()
            .map(|a| Approval {
                workflow_id: a.workflow_id,
                kind: a.kind.as_str().to_owned(),
                worker: a.worker,
                requested_at: a.requested_at,
                summary: a.summary,
            })
            .collect();
        Ok(BrainWorkflows { active, approvals, workers, recent })
    }
}

/// What `WorkflowService::brain_view` gives the Brain.
pub struct BrainWorkflows {
    pub active: Vec<crate::brain::context::WorkflowStatus>,
    pub approvals: Vec<crate::brain::context::Approval>,
    pub workers: Vec<crate::brain::context::WorkerLine>,
    pub recent: Vec<crate::brain::context::RecentWorkflow>,
}

/// The approvals `records` wait on, in their order (one decided since it was listed is left out).
fn pending_approvals(records: Vec<WorkflowRecord>) -> Vec<PendingApproval> {
    records
        .into_iter()
        .filter(|w| !w.status.is_terminal())
        .filter_map(|w| {
            let a = w.approval.filter(|a| a.is_pending())?;
            Some(PendingApproval {
                workflow_id: w.id,
                worker: w.worker,
                kind: w.kind,
                step: a.step,
                summary: a.summary,
                requested_at: rfc3339_ms(a.requested_ms),
                expires_at: a.deadline_ms.map(rfc3339_ms),
                binding: None,
            })
        })
        .collect()
}

/// What the worker views show of the live workflows: each worker's (ids and statuses from the
/// index, oldest first), and the record of the one its view describes — the first running,
/// else the first waiting — so a view reads at most one workflow per worker, however many wait.
struct LiveWork {
    rows: BTreeMap<String, Vec<LiveRow>>,
    current: BTreeMap<String, WorkflowRecord>,
}

impl LiveWork {
    async fn read(listing: &Listing) -> Result<Self, WorkflowError> {
        let mut rows: BTreeMap<String, Vec<LiveRow>> = BTreeMap::new();
        for row in listing.live() {
            rows.entry(row.worker.to_string()).or_default().push(row);
        }
        let described = |live: &[LiveRow]| {
            let first = |status| live.iter().find(|r| r.status == status);
            first(WorkflowStatus::Running).or_else(|| first(WorkflowStatus::Waiting)).map(|r| Arc::clone(&r.id))
        };
        let ids: Vec<Arc<str>> = rows.values().filter_map(|live| described(live)).collect();
        let current = listing.records(ids).await?.into_iter().map(|w| (w.worker.clone(), w)).collect();
        Ok(LiveWork { rows, current })
    }
}

/// A count as the lists answer it.
fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

fn worker_view(w: &WorkerRecord, live: &LiveWork, counts: &BTreeMap<String, usize>) -> WorkerView {
    let (status, current_task) = match live.current.get(&w.id) {
        // Held by a pause: neither executing nor at a gate.
        Some(r) if super::transitions::is_held(r) => {
            ("stopped", format!("paused: {} {} holds before {}", r.kind, r.id, current_step(r).unwrap_or_default()))
        }
        Some(r) if r.status == WorkflowStatus::Running => {
            ("running", format!("{} {}: {}", r.kind, r.id, current_step(r).unwrap_or_default()))
        }
        Some(x) if x.status == WorkflowStatus::Waiting => {
            let summary = x.approval.as_ref().map(|a| a.summary.clone()).unwrap_or_default();
            ("waiting", format!("{} {}: awaiting approval — {summary}", x.kind, x.id))
        }
        _ => ("stopped", "idle".to_owned()),
    };
    let active = live.rows.get(&w.id).map_or(&[][..], Vec::as_slice);
    WorkerView {
        id: w.id.clone(),
        name: w.name.clone(),
        role: w.role.clone(),
        status: status.into(),
        current_task,
        memory_entries: counts.get(&w.id).copied().unwrap_or(0),
        active_workflows: active.iter().map(|x| x.id.to_string()).collect(),
    }
}
