//! Every table of the database, in one place. Keys are plain redb types; values are records
//! encoded by `codec` (one schema-version byte, then bincode).

use redb::{TableDefinition, WriteTransaction};

use super::StoreError;

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

/// Opens every table once so readers never meet a missing table.
pub fn create_all(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(META)?;
    txn.open_table(API_KEYS)?;
    txn.open_table(KEY_USAGE)?;
    txn.open_table(INVITES)?;
    for table in [WORKERS, DEALS, ACCOUNTS, RUNS, TOKENS, ROLLUPS, JOB_RUNS] {
        txn.open_table(table)?;
    }
    Ok(())
}
