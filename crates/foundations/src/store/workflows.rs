//! Workflow records of the demo engine: each workflow's whole state (params, recorded steps,
//! the approval gate, what it waits for, result) in one record, written through a group commit
//! with an optimistic revision check, so concurrent executors share durable commits and a
//! signal racing a step never overwrites it. A workflow's end appends to the run ledger
//! (`RUNS`) in the same transaction. The notification outbox lives here too.

use std::sync::Arc;

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec::{self, unchanged_records};
use super::group_commit::{Committed, GroupCommit};
use super::records::read_all;
use super::tables::{OUTBOX, RUNS, WORKFLOWS};
use super::{RunRecord, Store, StoreError};
use crate::domain::{Decision, StepStatus, WorkflowStatus, WorkflowType};

/// One recorded step. `output` is JSON text (bincode cannot carry a free-form JSON value).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    pub name: String,
    pub status: StepStatus,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    pub output: String,
    /// Attempts the activity took (1 when it succeeded at once).
    pub attempts: u32,
}

/// The human approval gate of a workflow: the pending one, or the last one decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    pub step: String,
    pub summary: String,
    pub requested_ms: i64,
    /// When the gate lapses (an SLA), if it does.
    pub deadline_ms: Option<i64>,
    pub decision: Option<Decision>,
    pub comment: Option<String>,
    pub decided_ms: Option<i64>,
    pub decided_by: Option<String>,
}

impl ApprovalRecord {
    /// Nobody decided yet and it did not lapse (a lapse sets `decided_ms` without a decision).
    pub fn is_pending(&self) -> bool {
        self.decided_ms.is_none()
    }
}

/// What a live workflow is blocked on, besides an approval gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wait {
    Nothing,
    /// A failed activity is retried at `at_ms`.
    Retry {
        step: String,
        attempt: u32,
        at_ms: i64,
        error: String,
    },
    /// Child workflows that must end first.
    Children(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkflowRecord {
    pub id: String,
    pub kind: WorkflowType,
    pub worker: String,
    /// The start parameters, JSON text.
    pub params: String,
    pub status: WorkflowStatus,
    pub steps: Vec<StepRecord>,
    pub approval: Option<ApprovalRecord>,
    pub wait: Wait,
    /// JSON text, once completed (or cancelled with a reason).
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    pub parent: Option<String>,
    pub children: Vec<String>,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub finished_ms: Option<i64>,
    /// Bumped by every write; a write names the revision it read.
    pub revision: u64,
}

impl WorkflowRecord {
    /// A workflow just started at `now_ms`: running, no steps yet, revision 0 (never written).
    pub fn started(
        id: String,
        kind: WorkflowType,
        worker: String,
        params: String,
        parent: Option<String>,
        now_ms: i64,
    ) -> Self {
        WorkflowRecord {
            id,
            kind,
            worker,
            params,
            status: WorkflowStatus::Running,
            steps: Vec::new(),
            approval: None,
            wait: Wait::Nothing,
            result: None,
            error: None,
            parent,
            children: Vec::new(),
            created_ms: now_ms,
            updated_ms: now_ms,
            finished_ms: None,
            revision: 0,
        }
    }
}

/// A team-chat notification, kept until delivered (and afterwards, for `/status`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxRecord {
    /// `<workflow id>/<step index>/<event>`: the same notification is queued once.
    pub id: String,
    pub event: String,
    pub text: String,
    pub workflow_id: Option<String>,
    pub created_ms: i64,
    pub delivered_ms: Option<i64>,
    pub attempts: u32,
    /// When the next delivery attempt is due.
    pub next_attempt_ms: i64,
    pub last_error: Option<String>,
}

unchanged_records!(StepRecord, ApprovalRecord, Wait, WorkflowRecord, OutboxRecord);

/// One write of a workflow record.
pub struct WorkflowWrite {
    pub record: WorkflowRecord,
    /// The revision the writer read (`None`: the workflow must not exist yet).
    pub expected: Option<u64>,
    /// The ledger row to append when the workflow ended.
    pub run: Option<RunRecord>,
}

/// What became of a write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkflowOutcome {
    /// Written; the stored record (with its new revision).
    Written(Box<WorkflowRecord>),
    /// Someone wrote it since it was read (or it already exists); nothing was written.
    Conflict,
}

pub(crate) struct WorkflowLog(Arc<GroupCommit<WorkflowWrite, WorkflowOutcome>>);

impl WorkflowLog {
    /// Every committed outcome is also handed to `committed` (the workflow index) before its
    /// writer is answered.
    pub(crate) fn new(committed: Committed<WorkflowOutcome>) -> Self {
        Self(Arc::new(GroupCommit::new(apply_write, committed)))
    }
}

fn apply_write(txn: &WriteTransaction, write: WorkflowWrite) -> Result<WorkflowOutcome, StoreError> {
    let mut table = txn.open_table(WORKFLOWS)?;
    let current: Option<WorkflowRecord> = match table.get(write.record.id.as_str())? {
        Some(v) => Some(codec::decode(v.value())?),
        None => None,
    };
    if current.map(|c| c.revision) != write.expected {
        return Ok(WorkflowOutcome::Conflict);
    }
    let mut record = write.record;
    record.revision = write.expected.map_or(1, |r| r + 1);
    table.insert(record.id.as_str(), codec::encode(&record)?.as_slice())?;
    if let Some(run) = write.run {
        txn.open_table(RUNS)?.insert(run.id.as_str(), codec::encode(&run)?.as_slice())?;
    }
    Ok(WorkflowOutcome::Written(Box::new(record)))
}

impl Store {
    /// Writes a workflow record if nobody wrote it since `expected`; durable when this returns.
    pub async fn write_workflow(&self, write: WorkflowWrite) -> Result<WorkflowOutcome, StoreError> {
        self.workflow_log.0.submit(&self.db, write).await
    }

    /// Upserts one row of the run ledger alone (the temporal engine: its workflow state lives
    /// in the cluster, the ledger here).
    pub async fn put_run(&self, run: RunRecord) -> Result<(), StoreError> {
        let key = run.id.clone();
        self.put_record(RUNS, key, run).await
    }

    pub async fn workflow(&self, id: &str) -> Result<Option<WorkflowRecord>, StoreError> {
        self.get_record(WORKFLOWS, id.to_owned()).await
    }

    /// Every workflow, in id order (lists page through `workflow_page` instead).
    pub async fn workflows(&self) -> Result<Vec<WorkflowRecord>, StoreError> {
        self.all_records(WORKFLOWS).await
    }

    /// Queues a notification once (a second queueing of the same id is ignored). Returns
    /// whether it was new.
    pub async fn queue_notification(&self, record: OutboxRecord) -> Result<bool, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let new = {
                let mut table = txn.open_table(OUTBOX)?;
                let exists = table.get(record.id.as_str())?.is_some();
                if !exists {
                    table.insert(record.id.as_str(), codec::encode(&record)?.as_slice())?;
                }
                !exists
            };
            txn.commit()?;
            Ok(new)
        })
        .await
    }

    /// Records a delivery attempt of one notification.
    pub async fn update_notification(&self, record: OutboxRecord) -> Result<(), StoreError> {
        self.put_record(OUTBOX, record.id.clone(), record).await
    }

    /// Every notification, oldest id first.
    pub async fn outbox(&self) -> Result<Vec<OutboxRecord>, StoreError> {
        self.blocking(move |db| read_all(&db.begin_read()?, OUTBOX)).await
    }

    /// Notifications not delivered yet.
    pub async fn undelivered(&self) -> Result<Vec<OutboxRecord>, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(OUTBOX)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                let record: OutboxRecord = codec::decode(entry?.1.value())?;
                if record.delivered_ms.is_none() {
                    out.push(record);
                }
            }
            Ok(out)
        })
        .await
    }
}
