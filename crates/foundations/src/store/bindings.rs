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
        let mut found = self.bindings(vec![(workflow_id.to_owned(), requested_ms)]).await?;
        Ok(found.pop().flatten())
    }

    /// The bindings of several requests (workflow, request time), in their order, read in one
    /// transaction: a page of approvals is one read, not one per approval (issue 27).
    pub async fn bindings(&self, requests: Vec<(String, i64)>) -> Result<Vec<Option<BindingRecord>>, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(APPROVAL_BINDINGS)?;
            let read = |(workflow_id, requested_ms): &(String, i64)| -> Result<_, StoreError> {
                match table.get(key(workflow_id, *requested_ms).as_str())? {
                    Some(v) => Ok(Some(codec::decode(v.value())?)),
                    None => Ok(None),
                }
            };
            requests.iter().map(read).collect()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bindings_are_read_in_the_order_asked_with_none_where_none_was_recorded() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("t.redb")).expect("open");
        let bound = |hash: &str| BindingRecord { hash: hash.into(), basis: "{}".into(), bound_ms: 5, refreshed: 0 };
        store.put_binding("wf-a", 10, bound("a")).await.expect("put");
        store.put_binding("wf-b", 20, bound("b")).await.expect("put");
        let asked = vec![("wf-b".to_owned(), 20), ("wf-a".to_owned(), 11), ("wf-a".to_owned(), 10)];
        let found = store.bindings(asked).await.expect("read");
        let hashes: Vec<Option<&str>> = found.iter().map(|b| b.as_ref().map(|b| b.hash.as_str())).collect();
        assert_eq!(hashes, [Some("b"), None, Some("a")], "another request time is another request");
        assert_eq!(store.binding("wf-a", 10).await.expect("read"), Some(bound("a")));
        assert_eq!(store.bindings(Vec::new()).await.expect("read"), Vec::new());
    }
}
