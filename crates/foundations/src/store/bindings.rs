//! What each approval request was bound to (issue 28): the SHA-256 of the action and of the
//! workspace state it acts on, recorded when a gate opens, keyed by the workflow and the time
//! of its request. The workflow service compares it with a fresh one at decision time.

use redb::ReadableDatabase;
use serde::{Deserialize, Serialize};

use super::codec;
use super::tables::APPROVAL_BINDINGS;
use super::{Store, StoreError};

/// A request's binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BindingRecord {
    /// SHA-256 (lowercase hex) of the action and its basis.
    pub hash: String,
    /// What the action acts on, as JSON (the workflow service's `Basis`).
    pub basis: String,
    /// When it was bound, unix milliseconds (the request, or the latest fresh request).
    pub bound_ms: i64,
    /// How many times the request was raised afresh because what it acts on changed.
    pub refreshed: u32,
}

codec::unchanged_records!(BindingRecord);

fn key(workflow_id: &str, requested_ms: i64) -> String {
    format!("{workflow_id}@{requested_ms}")
}

impl Store {
    /// Records the binding of `workflow_id`'s request made at `requested_ms` (replacing one).
    pub async fn put_binding(
        &self,
        workflow_id: &str,
        requested_ms: i64,
        record: BindingRecord,
    ) -> Result<(), StoreError> {
        let key = key(workflow_id, requested_ms);
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(APPROVAL_BINDINGS)?.insert(key.as_str(), codec::encode(&record)?.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    /// The binding of `workflow_id`'s request made at `requested_ms`, if one was recorded.
    pub async fn binding(&self, workflow_id: &str, requested_ms: i64) -> Result<Option<BindingRecord>, StoreError> {
        let key = key(workflow_id, requested_ms);
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(APPROVAL_BINDINGS)?;
            let record = match table.get(key.as_str())? {
                Some(v) => Some(codec::decode(v.value())?),
                None => None,
            };
            Ok(record)
        })
        .await
    }
}
