//! Every table of the database, in one place. Keys are plain redb types; values are records
//! encoded by `codec` (one schema-version byte, then bincode).

use redb::{TableDefinition, WriteTransaction};

use super::StoreError;
pub(crate) use super::records::RecordTable;

/// Server-wide singletons: boot record, the generated JWT secret.
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");

/// API keys by public key id (`ApiKeyRecord`).
pub const API_KEYS: TableDefinition<&str, &[u8]> = TableDefinition::new("api_keys");

/// Requests per key per day: `"<key id>/<YYYY-MM-DD>"` -> count.
pub const KEY_USAGE: TableDefinition<&str, u64> = TableDefinition::new("key_usage");

/// Workspace invites by id (`InviteRecord`).
pub const INVITES: TableDefinition<&str, &[u8]> = TableDefinition::new("invites");

/// Workspace workers by id (`WorkerRecord`).
pub const WORKERS: TableDefinition<&str, &[u8]> = TableDefinition::new("workers");
/// Deals by id (`DealRecord`).
pub const DEALS: TableDefinition<&str, &[u8]> = TableDefinition::new("deals");
/// Accounts with consumption commits and daily usage (`AccountRecord`).
pub const ACCOUNTS: TableDefinition<&str, &[u8]> = TableDefinition::new("accounts");
/// Workflow run ledger by run id (`RunRecord`).
pub const RUNS: TableDefinition<&str, &[u8]> = TableDefinition::new("runs");
/// Token ledger: `"<YYYY-MM-DD>/<seq>"` -> `TokenRecord`.
pub const TOKENS: TableDefinition<&str, &[u8]> = TableDefinition::new("tokens");
/// Latest metric rollups by view name (`Rollup`).
pub const ROLLUPS: TableDefinition<&str, &[u8]> = TableDefinition::new("rollups");
/// Scheduler job runs: `"<job>/<started unix nanos, zero-padded>"` -> `JobRun`.
pub const JOB_RUNS: TableDefinition<&str, &[u8]> = TableDefinition::new("job_runs");

/// Live memory entries: `"<scope>/<key>"` -> `MemoryRecord`.
pub const MEMORY: TableDefinition<&str, &[u8]> = TableDefinition::new("memory");
/// Superseded memory versions: `"<scope>/<key>/<version:010>"` -> `MemoryRecord`.
pub const MEMORY_VERSIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("memory_versions");
/// Entries folded by compression, same keys as `MEMORY_VERSIONS`.
pub const MEMORY_ARCHIVE: TableDefinition<&str, &[u8]> = TableDefinition::new("memory_archive");
/// The last compression per worker id (`CompressionRecord`).
pub const MEMORY_COMPRESSIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("memory_compressions");

/// Chat threads by user (`ThreadRecord`).
pub const BRAIN_THREADS: TableDefinition<&str, &[u8]> = TableDefinition::new("brain_threads");
/// Chat messages: `"<sub>/<seq:010>"` -> `ChatRecord`.
pub const BRAIN_MESSAGES: TableDefinition<&str, &[u8]> = TableDefinition::new("brain_messages");
/// Chat messages folded into a thread's summary, same keys.
pub const BRAIN_ARCHIVE: TableDefinition<&str, &[u8]> = TableDefinition::new("brain_archive");
/// The model-call ledger: `"<unix ms:013>/<uuid>"` -> `ModelCall`.
pub const MODEL_CALLS: TableDefinition<&str, &[u8]> = TableDefinition::new("model_calls");

/// Saved rate-limit counters by limiter name (`RateWindowsRecord`).
pub const RATE_WINDOWS: TableDefinition<&str, &[u8]> = TableDefinition::new("rate_windows");
/// Workflows of the demo engine by id (`WorkflowRecord`).
pub const WORKFLOWS: TableDefinition<&str, &[u8]> = TableDefinition::new("workflows");
/// Team-chat notifications by id (`OutboxRecord`).
pub const OUTBOX: TableDefinition<&str, &[u8]> = TableDefinition::new("outbox");

/// The audit log: sequence number -> `AuditRecord` (hash-chained, append-only).
pub const AUDIT: TableDefinition<u64, &[u8]> = TableDefinition::new("audit");

/// What each approval request was bound to: `"<workflow id>@<requested unix ms>"` ->
/// `BindingRecord`.
pub const APPROVAL_BINDINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("approval_bindings");

/// Model use per spender per UTC day: `"<who>/<YYYY-MM-DD>"` -> `SpendRecord`.
pub const SPEND: TableDefinition<&str, &[u8]> = TableDefinition::new("spend");
/// Budgets set by admins: `"worker/<id>"`, `"workspace"` or `"brain"` -> `BudgetRecord`.
pub const BUDGETS: TableDefinition<&str, &[u8]> = TableDefinition::new("budgets");

/// Standing pauses: `"worker/<id>"` or `"type/<workflow type>"` -> `PauseRecord`.
pub const PAUSES: TableDefinition<&str, &[u8]> = TableDefinition::new("pauses");

/// Opens every table once so readers never meet a missing table.
pub fn create_all(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(META)?;
    txn.open_table(API_KEYS)?;
    txn.open_table(KEY_USAGE)?;
    txn.open_table(INVITES)?;
    txn.open_table(AUDIT)?;
    for table in [WORKERS, DEALS, ACCOUNTS, RUNS, TOKENS, ROLLUPS, JOB_RUNS] {
        txn.open_table(table)?;
    }
    for table in [MEMORY, MEMORY_VERSIONS, MEMORY_ARCHIVE, MEMORY_COMPRESSIONS, BRAIN_THREADS, BRAIN_MESSAGES] {
        txn.open_table(table)?;
    }
    for table in
        [BRAIN_ARCHIVE, MODEL_CALLS, RATE_WINDOWS, WORKFLOWS, OUTBOX, PAUSES, APPROVAL_BINDINGS, SPEND, BUDGETS]
    {
        txn.open_table(table)?;
    }
    Ok(())
}
