//! `Store`: the one redb database file every record lives in. All table definitions are in
//! `tables`, the record encoding in `codec`, and one file per entity holds its methods.
//! Every redb call runs inside `spawn_blocking`, never on the async runtime, and every write
//! method returns only after its transaction committed (redb's default immediate durability),
//! so a caller may acknowledge the write. This module imports no face and no service.

mod api_keys;
mod audit;
pub mod backup;
mod bindings;
mod brain;
pub(crate) mod codec;
mod deal_index;
mod group_commit;
mod invites;
mod marked;
mod memory;
mod memory_index;
mod memory_record;
mod meta;
#[cfg(test)]
mod migrations_test;
mod pauses;
mod postings;
mod rate_windows;
mod records;
mod rollups;
mod spend;
mod tables;
mod word_table;
mod workflow_index;
mod workflows;
mod workspace;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use redb::Database;

use crate::clock::{SharedClock, SystemClock};

pub use api_keys::{ApiKeyRecord, UsageDelta};
pub use audit::{AuditBreak, AuditEntry, AuditPage, AuditQuery, AuditRecord, AuditVerdict, GENESIS as AUDIT_GENESIS};
pub use bindings::BindingRecord;
pub use brain::{ChatRecord, ModelCall, SUMMARY_ROLE, Summarize, ThreadRecord};
pub use codec::{CodecError, SCHEMA_VERSION};
pub use deal_index::{DealIndex, DealPage, DealQuery, DealRow, DealTally};
pub use invites::InviteRecord;
pub use marked::{Removed, SIMULATED_DEAL_PREFIX, is_simulated_deal};
pub use memory::{CompressionRecord, FoldPlan, MemoryWrite, VersionState};
pub use memory_index::{IndexedEntry, MemoryIndex, ScopeFilter, ScopeTotals};
pub use memory_record::{MemoryOutcome, MemoryRecord};
pub use meta::BootRecord;
pub use pauses::{Hold, PauseRecord, PauseScope, Resumed};
pub use postings::Total;
pub use rate_windows::{RateWindowCount, RateWindowsRecord};
pub use rollups::{JOB_RUNS_KEPT, JobRun, Rollup};
pub use spend::{BRAIN as BRAIN_SPENDER, BudgetRecord, Spend, SpendRecord, WORKSPACE as WORKSPACE_SPENDER, day_of};
pub use workflow_index::{IdPage, LiveRow, WorkflowCursor, WorkflowIndex, WorkflowPage, WorkflowQuery};
pub use workflows::{ApprovalRecord, OutboxRecord, StepRecord, Wait, WorkflowOutcome, WorkflowRecord, WorkflowWrite};
pub use workspace::{
    AccountRecord, DealRecord, HistoryEntry, RunRecord, RunStatus, Tally, TokenRecord, WorkerRecord, WorkspaceData,
    WorkspaceTallies,
};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{} is already in use by another gtms process", .0.display())]
    AlreadyInUse(PathBuf),
    #[error("cannot open database {}: {source}", path.display())]
    Open { path: PathBuf, source: redb::DatabaseError },
    #[error("database: {0}")]
    Db(#[from] redb::Error),
    #[error("record encoding: {0}")]
    Codec(#[from] CodecError),
    #[error("database task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    /// The shared commit of a batch of writes failed (the cause is logged once).
    #[error("group commit: {0}")]
    GroupCommit(String),
}

impl crate::error::ServiceError for StoreError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            StoreError::AlreadyInUse(_) => crate::error::ErrorKind::Unavailable,
            _ => crate::error::ErrorKind::Internal,
        }
    }
}

macro_rules! from_redb {
    ($($t:ty),*) => { $( impl From<$t> for StoreError { fn from(e: $t) -> Self { StoreError::Db(e.into()) } } )* };
}
from_redb!(redb::TransactionError, redb::TableError, redb::StorageError, redb::CommitError, redb::DatabaseError);

fn create_tables(db: &Database) -> Result<(), StoreError> {
    let txn = db.begin_write()?;
    tables::create_all(&txn)?;
    txn.commit()?;
    Ok(())
}

/// Cheap to clone; all clones share one open database.
#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
    path: PathBuf,
    /// The event bus travels with the store: every service holds the store, and publishes
    /// on it after its transaction committed.
    events: crate::events::Events,
    /// Batches concurrent memory writes into one commit.
    memory_log: Arc<memory::MemoryLog>,
    /// Batches concurrent workflow transitions into one commit.
    workflow_log: Arc<workflows::WorkflowLog>,
    /// Batches concurrent audit appends into one commit.
    audit_log: Arc<audit::AuditLog>,
    /// Word index over the live memory entries, kept current by `memory_log`.
    memory_index: Arc<MemoryIndex>,
    /// The deals' list fields, ids by filter and tallies, kept current by every deal write.
    deal_index: Arc<DealIndex>,
    /// The workflows' list fields, ids by filter and order, kept current by `workflow_log`.
    workflow_index: Arc<WorkflowIndex>,
    /// The clock every service stamps its records with (`crate::clock`).
    clock: SharedClock,
}

/// redb's page cache per open database, at most. redb's default (1 GiB) fills as the file
/// grows — append-mostly history tables (memory versions, chat archive, model calls, tokens)
/// pass every new page through it — so RSS would grow with the data up to 1 GiB. The hot set
/// is small (memory search runs on an in-process index, company data is embedded) and the
/// OS page cache serves the rest. 16 MiB still took the soak's ten minutes to fill (+2 MiB/min
/// of RSS under its write loads); 4 MiB fills within the warm-up and keeps memory writes far
/// above their budget. Measured by `make soak` and `make bench` (docs/operations.md).
pub const CACHE_BYTES: usize = 4 * 1024 * 1024;

/// A redb builder with the page cache capped at `CACHE_BYTES`.
pub(crate) fn db_builder() -> redb::Builder {
    let mut builder = Database::builder();
    builder.set_cache_size(CACHE_BYTES);
    builder
}

impl Store {
    /// Opens (or creates) the database file and every table. A file held by another process
    /// is reported as `AlreadyInUse`, never waited on.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with_clock(path, SystemClock::shared())
    }

    /// As `open`, stamping records with `clock` (tests move a `ManualClock`).
    pub fn open_with_clock(path: &Path, clock: SharedClock) -> Result<Self, StoreError> {
        let db = db_builder().create(path).map_err(|source| match source {
            redb::DatabaseError::DatabaseAlreadyOpen => StoreError::AlreadyInUse(path.to_owned()),
            source => StoreError::Open { path: path.to_owned(), source },
        })?;
        create_tables(&db)?;
        spend::count_ledger_once(&db)?;
        let memory_index = Arc::new(memory::build_index(&db)?);
        let deal_index = Arc::new(deal_index::build(&db)?);
        let workflow_index = Arc::new(workflow_index::build(&db)?);
        Ok(Self {
            db: Arc::new(db),
            path: path.to_owned(),
            events: crate::events::Events::new(Arc::clone(&clock)),
            memory_log: Arc::new(memory::MemoryLog::new(Arc::clone(&memory_index))),
            memory_index,
            deal_index,
            workflow_log: Arc::new(workflows::WorkflowLog::new(WorkflowIndex::on_commit(Arc::clone(&workflow_index)))),
            workflow_index,
            audit_log: Arc::new(audit::AuditLog::new()),
            clock,
        })
    }

    /// The clock records are stamped with.
    pub fn clock(&self) -> &SharedClock {
        &self.clock
    }

    /// Unix milliseconds by `clock`.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The in-process event bus (`/ws`).
    pub fn events(&self) -> &crate::events::Events {
        &self.events
    }

    /// Runs `f` against the database on the blocking pool.
    pub(crate) async fn blocking<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Database) -> Result<T, StoreError> + Send + 'static,
    {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || f(&db)).await?
    }
}
