//! Memory records: live entries (`MEMORY`, keyed `<scope>/<key>`), every superseded version
//! (`MEMORY_VERSIONS`) and every entry compression folded away (`MEMORY_ARCHIVE`), both keyed
//! `<scope>/<key>/<version, 10 digits>`, and the last compression per worker. All writes go
//! through one group commit (`MemoryLog`), so concurrent writers share a durable commit.
//! Invariants: a version number is never reused for a key, even after it was archived; an
//! overwrite moves the previous version into `MEMORY_VERSIONS` in the same transaction.

use std::sync::Arc;

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::group_commit::GroupCommit;
use super::memory_index::{IndexLoad, MemoryIndex};
use super::memory_record::{MemoryOutcome, MemoryRecord};
use super::records::fold_all;
use super::tables::{MEMORY, MEMORY_ARCHIVE, MEMORY_COMPRESSIONS, MEMORY_VERSIONS, RecordTable};
use super::{Store, StoreError, codec};

/// A write as the service decided it; `pinned`/`tags` left `None` keep the previous values.
#[derive(Debug, Clone)]
pub struct MemoryWrite {
    pub scope: String,
    pub key: String,
    pub value: String,
    pub pinned: Option<bool>,
    pub tags: Option<Vec<String>>,
    /// The version the writer last saw (0: the key must not exist yet).
    pub if_version: Option<u64>,
    pub author: String,
    pub now_ms: i64,
}

/// A compression to apply: archive `fold` (each must still be live at that version) and
/// write the summary entry, all in one transaction.
#[derive(Debug, Clone)]
pub struct FoldPlan {
    pub worker: String,
    pub scope: String,
    pub fold: Vec<(String, u64)>,
    pub summary_key: String,
    pub summary_value: String,
    pub author: String,
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompressionRecord {
    pub worker: String,
    /// Unix milliseconds.
    pub at: i64,
    pub folded: Vec<String>,
    pub summary_key: String,
}

#[derive(Debug, Clone)]
pub enum MemoryOp {
    Write(MemoryWrite),
    Fold(FoldPlan),
}

pub(crate) struct MemoryLog(Arc<GroupCommit<MemoryOp, MemoryOutcome>>);

impl MemoryLog {
    /// Every committed outcome also updates `index`.
    pub(crate) fn new(index: Arc<MemoryIndex>) -> Self {
        Self(Arc::new(GroupCommit::new(apply, Box::new(move |out| index.apply(out)))))
    }
}

/// Which table a version of `history` came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionState {
    Current,
    Superseded,
    Archived,
}

fn live_key(scope: &str, key: &str) -> String {
    format!("{scope}/{key}")
}

fn version_key(scope: &str, key: &str, version: u64) -> String {
    format!("{scope}/{key}/{version:010}")
}

/// `[prefix, end)` covering every key that starts with `prefix/`.
fn prefix_range(prefix: &str) -> (String, String) {
    (format!("{prefix}/"), format!("{prefix}0"))
}

fn get(txn: &WriteTransaction, table: RecordTable, key: &str) -> Result<Option<MemoryRecord>, StoreError> {
    match txn.open_table(table)?.get(key)? {
        Some(v) => Ok(Some(codec::decode(v.value())?)),
        None => Ok(None),
    }
}

fn put(txn: &WriteTransaction, table: RecordTable, key: &str, record: &MemoryRecord) -> Result<(), StoreError> {
    txn.open_table(table)?.insert(key, codec::encode(record)?.as_slice())?;
    Ok(())
}

/// The highest version ever given to `scope/key` in the history tables (0 if none).
fn last_past_version(txn: &WriteTransaction, scope: &str, key: &str) -> Result<u64, StoreError> {
    let (start, end) = prefix_range(&live_key(scope, key));
    let mut last = 0;
    for table in [MEMORY_VERSIONS, MEMORY_ARCHIVE] {
        let t = txn.open_table(table)?;
        if let Some(entry) = t.range(start.as_str()..end.as_str())?.next_back() {
            last = last.max(codec::decode::<MemoryRecord>(entry?.1.value())?.version);
        }
    }
    Ok(last)
}

fn apply(txn: &WriteTransaction, op: MemoryOp) -> Result<MemoryOutcome, StoreError> {
    match op {
        MemoryOp::Write(w) => apply_write(txn, w),
        MemoryOp::Fold(p) => apply_fold(txn, p),
    }
}

fn apply_write(txn: &WriteTransaction, w: MemoryWrite) -> Result<MemoryOutcome, StoreError> {
    let live = live_key(&w.scope, &w.key);
    let current = get(txn, MEMORY, &live)?;
    let current_version = current.as_ref().map_or(0, |c| c.version);
    if w.if_version.is_some_and(|v| v != current_version) {
        return Ok(MemoryOutcome::Stale { current: current_version });
    }
    let record = match &current {
        Some(c) => {
            put(txn, MEMORY_VERSIONS, &version_key(&c.scope, &c.key, c.version), c)?;
            MemoryRecord {
                value: w.value,
                pinned: w.pinned.unwrap_or(c.pinned),
                tags: w.tags.unwrap_or_else(|| c.tags.clone()),
                version: c.version + 1,
                updated_at: w.now_ms,
                author: w.author,
                ..c.clone()
            }
        }
        None => MemoryRecord {
            version: last_past_version(txn, &w.scope, &w.key)? + 1,
            scope: w.scope,
            key: w.key,
            value: w.value,
            pinned: w.pinned.unwrap_or(false),
            tags: w.tags.unwrap_or_default(),
            created_at: w.now_ms,
            updated_at: w.now_ms,
            author: w.author,
        },
    };
    put(txn, MEMORY, &live, &record)?;
    Ok(MemoryOutcome::Written { record, replaced: current })
}

fn apply_fold(txn: &WriteTransaction, p: FoldPlan) -> Result<MemoryOutcome, StoreError> {
    let mut originals = Vec::with_capacity(p.fold.len());
    for (key, version) in &p.fold {
        match get(txn, MEMORY, &live_key(&p.scope, key))? {
            Some(r) if r.version == *version && !r.pinned => originals.push(r),
            _ => return Ok(MemoryOutcome::Changed),
        }
    }
    for r in &originals {
        put(txn, MEMORY_ARCHIVE, &version_key(&r.scope, &r.key, r.version), r)?;
        txn.open_table(MEMORY)?.remove(live_key(&r.scope, &r.key).as_str())?;
    }
    let write = MemoryWrite {
        scope: p.scope.clone(),
        key: p.summary_key.clone(),
        value: p.summary_value,
        pinned: Some(false),
        tags: Some(vec!["summary".into(), "compressed".into()]),
        if_version: None,
        author: p.author,
        now_ms: p.now_ms,
    };
    let MemoryOutcome::Written { record: summary, replaced } = apply_write(txn, write)? else {
        return Ok(MemoryOutcome::Changed);
    };
    let compression = CompressionRecord {
        worker: p.worker.clone(),
        at: p.now_ms,
        folded: originals.iter().map(|r| r.key.clone()).collect(),
        summary_key: p.summary_key,
    };
    txn.open_table(MEMORY_COMPRESSIONS)?.insert(p.worker.as_str(), codec::encode(&compression)?.as_slice())?;
    Ok(MemoryOutcome::Folded { summary, replaced, folded: originals })
}

/// The word index, built when the store opens from every live entry, read one at a time (a
/// million entries are never all in memory at once: issue 27's RSS).
pub(crate) fn build_index(db: &redb::Database) -> Result<MemoryIndex, StoreError> {
    let load = fold_all(&db.begin_read()?, MEMORY, IndexLoad::default(), |load, r: MemoryRecord| load.add(&r))?;
    Ok(load.done())
}

fn read_range(
    db: &redb::Database,
    table: RecordTable,
    range: Option<(String, String)>,
) -> Result<Vec<MemoryRecord>, StoreError> {
    let txn = db.begin_read()?;
    let t = txn.open_table(table)?;
    let mut out = Vec::new();
    let iter = match &range {
        Some((start, end)) => t.range(start.as_str()..end.as_str())?,
        None => t.range::<&str>(..)?,
    };
    for entry in iter {
        out.push(codec::decode(entry?.1.value())?);
    }
    Ok(out)
}

impl Store {
    async fn memory_op(&self, op: MemoryOp) -> Result<MemoryOutcome, StoreError> {
        self.memory_log.0.submit(&self.db, op).await
    }

    /// Writes one entry; durable when this returns.
    pub async fn write_memory(&self, write: MemoryWrite) -> Result<MemoryOutcome, StoreError> {
        self.memory_op(MemoryOp::Write(write)).await
    }

    /// Applies a compression plan; durable when this returns.
    pub async fn fold_memory(&self, plan: FoldPlan) -> Result<MemoryOutcome, StoreError> {
        self.memory_op(MemoryOp::Fold(plan)).await
    }

    pub async fn memory_entry(&self, scope: &str, key: &str) -> Result<Option<MemoryRecord>, StoreError> {
        self.get_record(MEMORY, live_key(scope, key)).await
    }

    /// Live entries of one scope, in key order.
    pub async fn memory_scope(&self, scope: &str) -> Result<Vec<MemoryRecord>, StoreError> {
        let range = prefix_range(scope);
        self.blocking(move |db| read_range(db, MEMORY, Some(range))).await
    }

    /// Live entries by address (`(scope, key)`), in the order asked (`None`: not live).
    pub async fn memory_entries(
        &self,
        addresses: Vec<(String, String)>,
    ) -> Result<Vec<Option<MemoryRecord>>, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(MEMORY)?;
            let mut out = Vec::with_capacity(addresses.len());
            for (scope, key) in &addresses {
                out.push(match table.get(live_key(scope, key).as_str())? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                });
            }
            Ok(out)
        })
        .await
    }

    /// The word index over the live entries.
    pub fn memory_index(&self) -> &MemoryIndex {
        &self.memory_index
    }

    /// Every live entry, ordered by scope then key.
    pub async fn memory_all(&self) -> Result<Vec<MemoryRecord>, StoreError> {
        self.blocking(|db| read_range(db, MEMORY, None)).await
    }

    /// Every version of one key, oldest first: superseded, archived, then the live one.
    pub async fn memory_history(
        &self,
        scope: &str,
        key: &str,
    ) -> Result<Vec<(MemoryRecord, VersionState)>, StoreError> {
        let (scope, key) = (scope.to_owned(), key.to_owned());
        self.blocking(move |db| {
            let range = prefix_range(&live_key(&scope, &key));
            let mut out: Vec<(MemoryRecord, VersionState)> = Vec::new();
            for (table, state) in
                [(MEMORY_VERSIONS, VersionState::Superseded), (MEMORY_ARCHIVE, VersionState::Archived)]
            {
                out.extend(read_range(db, table, Some(range.clone()))?.into_iter().map(|r| (r, state)));
            }
            let txn = db.begin_read()?;
            if let Some(v) = txn.open_table(MEMORY)?.get(live_key(&scope, &key).as_str())? {
                out.push((codec::decode(v.value())?, VersionState::Current));
            }
            out.sort_by_key(|(r, _)| r.version);
            Ok(out)
        })
        .await
    }

    /// Whether the workspace has a worker with this id.
    pub async fn memory_worker_known(&self, worker: &str) -> Result<bool, StoreError> {
        Ok(self.get_record::<super::WorkerRecord>(super::tables::WORKERS, worker.to_owned()).await?.is_some())
    }

    pub async fn last_compression(&self, worker: &str) -> Result<Option<CompressionRecord>, StoreError> {
        self.get_record(MEMORY_COMPRESSIONS, worker.to_owned()).await
    }
}

// Types first written under schema version 2; no older layout exists.
super::codec::unchanged_records!(MemoryRecord, CompressionRecord);

#[cfg(test)]
mod tests {
    use super::*;

    fn write(key: &str, value: &str, if_version: Option<u64>) -> MemoryWrite {
        MemoryWrite {
            scope: "worker:w".into(),
            key: key.into(),
            value: value.into(),
            pinned: None,
            tags: None,
            if_version,
            author: "t".into(),
            now_ms: 1,
        }
    }

    async fn written(store: &Store, w: MemoryWrite) -> MemoryRecord {
        match store.write_memory(w).await {
            Ok(MemoryOutcome::Written { record, .. }) => record,
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn versions_grow_stale_writes_refuse_and_archived_versions_stay_in_history() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("m.redb")).unwrap();
        assert_eq!(written(&store, write("a", "one", Some(0))).await.version, 1);
        assert_eq!(written(&store, write("a", "two", Some(1))).await.version, 2);
        assert!(matches!(store.write_memory(write("a", "x", Some(1))).await, Ok(MemoryOutcome::Stale { current: 2 })));
        let plan = FoldPlan {
            worker: "w".into(),
            scope: "worker:w".into(),
            fold: vec![("a".into(), 2)],
            summary_key: "summary-1".into(),
            summary_value: "s".into(),
            author: "c".into(),
            now_ms: 2,
        };
        assert!(matches!(store.fold_memory(plan.clone()).await, Ok(MemoryOutcome::Folded { .. })));
        assert!(matches!(store.fold_memory(plan).await, Ok(MemoryOutcome::Changed)));
        let history = store.memory_history("worker:w", "a").await.unwrap_or_default();
        let states: Vec<_> = history.iter().map(|(r, s)| (r.version, *s)).collect();
        assert_eq!(states, vec![(1, VersionState::Superseded), (2, VersionState::Archived)]);
        assert_eq!(written(&store, write("a", "three", None)).await.version, 3, "versions are never reused");
        let keys: Vec<String> =
            store.memory_scope("worker:w").await.unwrap_or_default().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, vec!["a", "summary-1"]);
        assert!(store.memory_scope("worker:").await.unwrap_or_default().is_empty());
    }
}
